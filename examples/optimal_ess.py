"""Steck's optimal equivalent sample size against a grid search of held-out likelihood.

Reproduces the idea of Steck (UAI 2008, seed 002, Sec. 4-5) on data simulated
from a bundled network: the alternating procedure (BIC graph, then BDeu(alpha)
structure search and the Eq. 18 update until alpha moves by less than 0.1)
picks an ESS from the training data alone; a grid search over alpha learns the
BDeu(alpha)-optimal graph (exact search), fits it with BDeu(alpha) expected
parameters and measures the log-likelihood of an independent test set. The
plot shows the held-out curve, where the alternating procedure lands (Eq. 18
and the marginal-likelihood variant), and the number of arcs per alpha.

Scaled down from the paper: simulated data (asia, 8 variables, and sachs, 11)
instead of UCI data sets, one training size per network, a 13-point grid.

Run:  python examples/optimal_ess.py [--quick] [--out DIR]   (about 1 minute)

Besides the PNG it writes ``optimal_ess.json``: per network the alpha of both
alternating procedures, the grid's best alpha and the held-out gap between the two
(nats per test row), which the docs quote (see ``_summary.py``).
"""

import argparse
import time
import warnings
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from _summary import write_summary
from pgmpy.parameter_estimator import DiscreteBayesianEstimator
from pgmpy.structure_score import BDeu

from pgmpy_nml import ExactSearch, OptimalESS, log_loss
from pgmpy_nml.datasets import sample_network
from pgmpy_nml.models import fit_network


def held_out(train, test, alpha, state_names):
    """Test log-likelihood per row of the BDeu(alpha)-optimal network with BDeu(alpha) CPDs."""
    dag = ExactSearch(BDeu(train, equivalent_sample_size=alpha), show_progress=False).fit().dag_
    estimator = DiscreteBayesianEstimator(
        prior_type="BDeu", equivalent_sample_size=alpha, state_names=state_names
    )
    model = fit_network(dag, train, estimator)
    return -log_loss(model, test), dag.number_of_edges()


def run(network, n_train, n_test, grid, seed):
    true_model, data = sample_network(network, n_train + n_test, random_state=seed)
    train, test = data.iloc[:n_train], data.iloc[n_train:]
    state_names = {cpd.variable: cpd.state_names[cpd.variable] for cpd in true_model.get_cpds()}
    # the CPDs must know every state the test data may show
    train_names = {v: s for v, s in state_names.items() if v in train.columns}
    start = time.perf_counter()
    eq18 = OptimalESS("auto").fit(train)
    marginal = OptimalESS("auto", update="marginal_likelihood").fit(train)
    curve = [held_out(train, test, a, train_names) for a in grid]
    loglik = np.array([c[0] for c in curve])
    arcs = np.array([c[1] for c in curve])
    return {
        "network": network,
        "n_train": n_train,
        "n_test": n_test,
        "eq18": eq18,
        "marginal": marginal,
        "loglik": loglik,
        "arcs": arcs,
        "best_alpha": grid[int(np.argmax(loglik))],
        "seconds": time.perf_counter() - start,
        "eq18_loglik": held_out(train, test, eq18.alpha_, train_names)[0],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small data and grid (CI smoke run)")
    parser.add_argument("--out", default="examples/output", help="folder for the PNG")
    args = parser.parse_args()
    start = time.perf_counter()
    warnings.simplefilter("ignore", FutureWarning)
    if args.quick:
        settings, grid = [("asia", 300, 1000)], np.geomspace(0.1, 100, 5)
    else:
        settings, grid = [("asia", 500, 5000), ("sachs", 500, 5000)], np.geomspace(0.05, 200, 13)
    results = [run(net, n, m, grid, seed=7) for net, n, m in settings]

    fig, axes = plt.subplots(2, len(results), figsize=(6 * len(results), 7), squeeze=False)
    for col, res in enumerate(results):
        ax = axes[0, col]
        ax.semilogx(grid, res["loglik"], "o-", color="0.3", label="grid: BDeu(alpha) graph + CPDs")
        ax.axvline(
            res["eq18"].alpha_, color="C0", label=f"alternating, Eq. 18: {res['eq18'].alpha_:.2f}"
        )
        ax.axvline(
            res["marginal"].alpha_,
            color="C1",
            ls="--",
            label=f"alternating, max. marginal lik.: {res['marginal'].alpha_:.2f}",
        )
        ax.set_title(f"{res['network']}, {res['n_train']} training rows")
        ax.set_ylabel("held-out log-likelihood per row (nats)")
        ax.legend(fontsize=8, loc="lower center")
        ax = axes[1, col]
        ax.semilogx(grid, res["arcs"], "s-", color="0.3")
        ax.axvline(res["eq18"].alpha_, color="C0")
        ax.set_xlabel("equivalent sample size alpha")
        ax.set_ylabel("arcs of the BDeu(alpha)-optimal graph")
    fig.suptitle("Steck's optimal ESS (alternating procedure) vs. a held-out grid search")
    fig.tight_layout()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    fig.savefig(out / "optimal_ess.png", dpi=100)

    for res in results:
        path = " -> ".join(f"{step.alpha:.2f}" for step in res["eq18"].history_)
        print(f"{res['network']} ({res['n_train']} training rows, {res['seconds']:.1f} s):")
        print(f"  alternating procedure (Eq. 18): alpha {path}; {res['eq18'].n_iter_} rounds")
        print(f"  alternating procedure (marginal likelihood): alpha {res['marginal'].alpha_:.2f}")
        print(
            f"  held-out grid: best alpha {res['best_alpha']:.2f} "
            f"(log-lik {res['loglik'].max():.4f}); at the Eq. 18 alpha: {res['eq18_loglik']:.4f}"
        )
    print(f"figure written to {out / 'optimal_ess.png'}")
    summary = {"grid": grid, "by_network": {res["network"]: summarize(res) for res in results}}
    path = write_summary(
        out, "optimal_ess", summary, quick=args.quick, seconds=time.perf_counter() - start
    )
    print(f"summary written to {path}")


def summarize(res):
    """The figures of one network that the docs quote (log-likelihoods per test row)."""
    return {
        "n_train": res["n_train"],
        "n_test": res["n_test"],
        "eq18_alpha": res["eq18"].alpha_,
        "eq18_path": [step.alpha for step in res["eq18"].history_],
        "eq18_rounds": res["eq18"].n_iter_,
        "marginal_alpha": res["marginal"].alpha_,
        "best_grid_alpha": res["best_alpha"],
        "best_grid_loglik": res["loglik"].max(),
        "eq18_loglik": res["eq18_loglik"],
        "gap_per_row": res["loglik"].max() - res["eq18_loglik"],
        "loglik": res["loglik"],
        "arcs": res["arcs"],
    }


if __name__ == "__main__":
    main()
