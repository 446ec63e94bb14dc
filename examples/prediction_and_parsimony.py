"""Predictive log-loss and parsimony of fNML, qNML, BDeu(1) and BD1/2 (seeds 000 and 003).

Reproduces, scaled down, two related experiments:

* Silander, Roos & Myllymäki, "Learning locally minimax optimal Bayesian
  networks" (IJAR 2010), Sec. 5.2 / Table 1: random 50%/50% train/test splits;
  on each training half a globally optimal structure (exact dynamic programming)
  and its parameters, then the average negative log predictive probability of
  the test vectors, reported as mean +- 1.96 standard deviations over splits;
  methods fNML + fsNML parameters, BDeu (ESS 1) + expected parameters, and
  BD1/2 (every alpha_ijk = 1/2, for the structure and the expected parameters);
* Silander, Leppä-aho, Jääsaari & Roos, "Quotient normalized maximum likelihood
  criterion for learning Bayesian network structures" (AISTATS 2018), Sec. 5 /
  Figs. 1-2: the same as a function of the training-set size, with qNML (+ fsNML
  parameters) added, and the number of free parameters sum_i q_i (r_i - 1) of the
  learned networks (qNML's parsimony).

Methods (all with ``pgmpy_nml.ExactSearch``, the optimal DAG for the score):

* fNML + fsNML:  ``FNML`` structure, ``FSNMLEstimator`` parameters;
* qNML + fsNML:  ``QNML`` structure, ``FSNMLEstimator`` parameters;
* BDeu(1) + exp: pgmpy's ``BDeu(equivalent_sample_size=1)`` structure, pgmpy's
  ``DiscreteBayesianEstimator(prior_type="BDeu", equivalent_sample_size=1)``;
* BD1/2 + exp:   ``BDConstant(alpha=0.5)`` structure,
  ``DiscreteBayesianEstimator(prior_type="dirichlet", pseudo_counts=0.5)``.

Log-loss is in nats (natural logarithm) per test vector, ``pgmpy_nml.log_loss``;
the papers do not state the base of their logarithms. The arities are always the
network's (``state_names``), so test values unseen in training are predicted
with positive probability.

Scaled down to run in under two minutes on a 2-core machine: the papers used 20
UCI data sets with 100 (seed 000) or 1000 (seed 003) splits and 20 sizes; here
the data are simulated offline from the bundled ``sachs`` network (11 variables,
3 states each, 178 free parameters), a pool of 4000 rows per run, 10 random
50/50 splits (train half and test half of 2000 rows each), and training sets
that are nested prefixes of the train half of sizes 25, 50, 100, 200, 500, 1000
and 2000 (the test half is always the full 2000 rows). The generating network's
own log-loss and parameter count are drawn for reference.

Run (from the repository root, with matplotlib installed):

    python examples/prediction_and_parsimony.py              # about 1 minute
    python examples/prediction_and_parsimony.py --quick      # smoke run, about 10 s
    python examples/prediction_and_parsimony.py --network asia --out DIR

It prints the mean log-loss (+- 1.96 sd) and the median number of parameters
[quartiles] per method and training size, and saves ``prediction_and_parsimony.png``
(panel 1: log-loss against training size; panel 2: number of free parameters, median
and quartiles over splits: a few splits learn networks with many times the typical
number of parameters, so the mean would follow those outliers) and
``prediction_and_parsimony.json``, the summary the docs quote (``_summary.py``).
"""

from __future__ import annotations

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

from pgmpy_nml import (
    FNML,
    QNML,
    BDConstant,
    ExactSearch,
    FSNMLEstimator,
    log_loss,
    n_parameters,
)
from pgmpy_nml.datasets import sample_network
from pgmpy_nml.models import fit_network

FULL = {"network": "sachs", "sizes": [25, 50, 100, 200, 500, 1000, 2000], "splits": 10}
QUICK = {"network": "sachs", "sizes": [50, 500], "splits": 2}

# name -> (structure score, parameter estimator), each built from (train data, state names)
METHODS = {
    "fNML + fsNML": (
        lambda data, states: FNML(data, state_names=states),
        lambda states: FSNMLEstimator(state_names=states),
    ),
    "qNML + fsNML": (
        lambda data, states: QNML(data, state_names=states),
        lambda states: FSNMLEstimator(state_names=states),
    ),
    "BDeu(1) + exp": (
        lambda data, states: BDeu(data, equivalent_sample_size=1.0, state_names=states),
        lambda states: DiscreteBayesianEstimator(
            state_names=states, prior_type="BDeu", equivalent_sample_size=1.0
        ),
    ),
    "BD1/2 + exp": (
        lambda data, states: BDConstant(data, alpha=0.5, state_names=states),
        lambda states: DiscreteBayesianEstimator(
            state_names=states, prior_type="dirichlet", pseudo_counts=0.5
        ),
    ),
}
COLORS = {
    "fNML + fsNML": "tab:red",
    "qNML + fsNML": "tab:purple",
    "BDeu(1) + exp": "tab:blue",
    "BD1/2 + exp": "tab:orange",
}

# BD1/2 and fNML often learn the same structures: dashed, so that both stay visible
LINES = {
    method: {"marker": "o", "ms": 4, "lw": 1.8, "ls": "--" if method.startswith("BD1/2") else "-"}
    for method in METHODS
}


def learn(method, train, states):
    """Optimal structure for the method's score, fitted with its parameter estimator."""
    make_score, make_estimator = METHODS[method]
    search = ExactSearch(make_score(train, states), n_jobs=1, show_progress=False).fit()
    return fit_network(search.dag_, train, make_estimator(states))


def run(config, seed):
    sizes, n_splits = config["sizes"], config["splits"]
    half = max(sizes)
    true_model, pool = sample_network(config["network"], 2 * half, random_state=seed)
    states = {cpd.variable: list(cpd.state_names[cpd.variable]) for cpd in true_model.get_cpds()}
    rng = np.random.default_rng(seed)
    losses = np.zeros((len(METHODS), len(sizes), n_splits))
    params = np.zeros((len(METHODS), len(sizes), n_splits), dtype=np.int64)
    true_losses = np.zeros(n_splits)
    for s in range(n_splits):
        order = rng.permutation(len(pool))
        train_half, test = pool.iloc[order[:half]], pool.iloc[order[half:]]
        true_losses[s] = log_loss(true_model, test)
        for k, n in enumerate(sizes):
            train = train_half.iloc[:n]
            for m, method in enumerate(METHODS):
                model = learn(method, train, states)
                losses[m, k, s] = log_loss(model, test)
                params[m, k, s] = n_parameters(model)
    return true_model, losses, params, true_losses


def summarize(config, true_model, losses, params, true_losses):
    sizes, n_splits = config["sizes"], config["splits"]
    n_vars = len(true_model.nodes())
    print(
        f"Network {config['network']!r} ({n_vars} variables, {n_parameters(true_model)} free "
        f"parameters); {n_splits} random 50/50 splits of {2 * max(sizes)} simulated rows "
        "(scaled down from the papers' 100-1000 splits of 20 UCI data sets)."
    )
    print("Structures by exact search (ExactSearch); test set = the full test half.")
    print(
        f"\nPredictive log-loss, nats per test vector (mean +- 1.96 sd over {n_splits} splits; "
        "lower is better)"
    )
    print("  train n " + "".join(f"{name:>17}" for name in METHODS))
    for k, n in enumerate(sizes):
        mean, sd = losses[:, k].mean(axis=1), losses[:, k].std(axis=1, ddof=1)
        cells = "".join(f"{mu:>9.3f} +-{1.96 * d:>5.3f}" for mu, d in zip(mean, sd, strict=True))
        print(f"  {n:<8}" + cells)
    print(f"  generating network: {true_losses.mean():.3f} nats")
    print("\nFree parameters of the learned network (median [quartiles] over splits)")
    print("  train n " + "".join(f"{name:>20}" for name in METHODS))
    q1, median, q3 = np.percentile(params, [25, 50, 75], axis=2)
    for k, n in enumerate(sizes):
        cells = "".join(
            f"{md:>7.0f} [{lo:>4.0f},{hi:>5.0f}]"
            for lo, md, hi in zip(q1[:, k], median[:, k], q3[:, k], strict=True)
        )
        print(f"  {n:<8}" + cells)
    print(f"  generating network: {n_parameters(true_model)}")
    print("\nfewest parameters (median) per training size:")
    for k, n in enumerate(sizes):
        fewest = [name for m, name in enumerate(METHODS) if median[m, k] == median[:, k].min()]
        print(f"  {n:<8}{', '.join(fewest)}")


def key(method):
    """Short name of a method in the JSON summary: its structure score."""
    return method.split()[0]


def results(config, true_model, losses, params, true_losses):
    """The figures the docs quote, per training size (see ``_summary.py``)."""
    q1, median, q3 = np.percentile(params, [25, 50, 75], axis=2)
    by_size = {}
    for k, n in enumerate(config["sizes"]):
        by_size[n] = {
            "log_loss_mean": {key(m): losses[i, k].mean() for i, m in enumerate(METHODS)},
            "log_loss_sd": {key(m): losses[i, k].std(ddof=1) for i, m in enumerate(METHODS)},
            "parameters_median": {key(m): median[i, k] for i, m in enumerate(METHODS)},
            "parameters_q1": {key(m): q1[i, k] for i, m in enumerate(METHODS)},
            "parameters_q3": {key(m): q3[i, k] for i, m in enumerate(METHODS)},
            "parameters_mean": {key(m): params[i, k].mean() for i, m in enumerate(METHODS)},
        }
    return {
        "network": config["network"],
        "splits": config["splits"],
        "test_rows": max(config["sizes"]),
        "generating": {"log_loss": true_losses.mean(), "parameters": n_parameters(true_model)},
        "by_size": by_size,
    }


def plot(config, true_model, losses, params, true_losses, path):
    sizes, n_splits = config["sizes"], config["splits"]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 5))
    for m, method in enumerate(METHODS):
        mean, sd = losses[m].mean(axis=1), losses[m].std(axis=1, ddof=1)
        style = {"color": COLORS[method], "label": method, **LINES.get(method, {})}
        ax1.plot(sizes, mean, **style)
        ax1.fill_between(
            sizes, mean - 1.96 * sd, mean + 1.96 * sd, color=COLORS[method], alpha=0.15, lw=0
        )
        q1, median, q3 = np.percentile(params[m], [25, 50, 75], axis=1)
        ax2.plot(sizes, median, **style)
        ax2.fill_between(sizes, q1, q3, color=COLORS[method], alpha=0.15, lw=0)
    ax1.axhline(true_losses.mean(), color="black", ls="--", lw=1, label="generating network")
    ax2.axhline(n_parameters(true_model), color="black", ls="--", lw=1, label="generating network")
    ax1.set_title(f"Predictive log-loss (mean ± 1.96 sd over {n_splits} splits)", fontsize=11)
    ax1.set_ylabel("log-loss [nats per test vector]")
    ax2.set_title(f"Model complexity (median and quartiles over {n_splits} splits)", fontsize=11)
    ax2.set_ylabel("number of free parameters  Σ q_i (r_i - 1)")
    ax2.set_yscale("log")
    for ax in (ax1, ax2):
        ax.set_xscale("log")
        ax.set_xlabel("training-set size")
        ax.grid(True, which="major", alpha=0.3)
        ax.legend(fontsize=9)
    fig.suptitle(
        f"Exact structure learning on data simulated from {config['network']!r}: "
        "prediction and parsimony",
        fontsize=12,
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small smoke run (2 sizes, 2 splits)")
    parser.add_argument("--out", default=str(Path(__file__).parent / "output"), help="output dir")
    parser.add_argument("--network", default=None, help="bundled network (default: sachs)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the data and the splits")
    args = parser.parse_args(argv)
    config = dict(QUICK if args.quick else FULL)
    if args.network:
        config["network"] = args.network
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        true_model, losses, params, true_losses = run(config, args.seed)
    summarize(config, true_model, losses, params, true_losses)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "prediction_and_parsimony.png"
    plot(config, true_model, losses, params, true_losses, path)
    print(f"\nsaved figure: {path}")
    summary = results(config, true_model, losses, params, true_losses)
    seconds = time.perf_counter() - start
    path = write_summary(out, path.stem, summary, quick=args.quick, seconds=seconds)
    print(f"summary written to {path}")
    print(f"done in {seconds:.1f} s")


if __name__ == "__main__":
    main()
