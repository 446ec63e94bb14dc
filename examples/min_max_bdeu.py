"""Min-BDeu and Max-BDeu against BDeu, and BDeu's learning saturation (seed 004, Sec. 4).

Reproduces, scaled down, the experiments of Scanagatta, de Campos & Zaffalon,
"Min-BDeu and Max-BDeu scores for learning Bayesian networks" (PGM 2014), Sec. 4:
data are sampled from a known network, a structure is learned with Min-BDeu,
Max-BDeu and BDeu (equivalent sample size 1, epsilon 0.5, at most 3 parents, the
globally optimal DAG by exact search as the paper did with Gobnilp), parameters are
fitted with the same BDeu Dirichlet prior (ESS 1) on the same data, and

(a) the "accuracy score": the percentual difference between the held-out
    log-likelihood of the learned network and of the true network,
    100 * (LL_true - LL_learned) / |LL_true|, on an independent test set
    (lower is better; the paper's Figs. 1-2, with the empty network as reference);
(b) the moral-graph Hamming distance to the true network: node pairs adjacent in
    one moral graph but not in the other (Fig. 3);
(c) the number of arcs of the learned network (Fig. 4);
(d) learning saturation (Fig. 6): for the networks learned with BDeu, the relative
    sensitivity (Max-BDeu - Min-BDeu) / |Min-BDeu| computed by
    ``pgmpy_nml.learning_saturation``, next to the BDeu accuracy score. It needs no
    true network; where it levels off, more data barely improve the learned network.
    The script reports saturation at the first N with relative sensitivity < 1%.

Scaled down to run in under two minutes on a 2-core machine:

* one network, ``child`` (20 nodes, as in the paper's Fig. 2) instead of child,
  insurance, water, alarm and 10 random networks per size;
* six sample sizes N = 10 * 2^i, i = 1, 2, 3, 5, 7, 9 (20 ... 5120) instead of
  i = 1 ... 10, denser where the three scores disagree; the training sets are
  nested prefixes of one sample, the test set is further rows of the same sample;
* one repetition instead of ten (so the curves are noisier than the paper's),
  and a 10000-row test set as in the paper.

Run (from the repository root, with matplotlib installed):

    python examples/min_max_bdeu.py              # child: 45-70 s measured (2 busy cores)
    python examples/min_max_bdeu.py --quick      # sachs (11 nodes), 3 sizes: 10-15 s
    python examples/min_max_bdeu.py --out DIR    # where to save min_max_bdeu.png

It prints a table per sample size and saves ``min_max_bdeu.png`` (2 x 2 panels) and
``min_max_bdeu.json``, the summary the docs quote (see ``_summary.py``).
"""

from __future__ import annotations

import argparse
import itertools
import time
import warnings
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from _summary import write_summary
from pgmpy.models import DiscreteBayesianNetwork
from pgmpy.parameter_estimator import DiscreteBayesianEstimator
from pgmpy.structure_score import BDeu

from pgmpy_nml import ExactSearch, MaxBDeu, MinBDeu, learning_saturation, log_loss
from pgmpy_nml.datasets import sample_network
from pgmpy_nml.models import fit_network

ESS, EPSILON, MAX_PARENTS = 1.0, 0.5, 3
FULL = {"network": "child", "sizes": [10 * 2**i for i in (1, 2, 3, 5, 7, 9)], "n_test": 10_000}
QUICK = {"network": "sachs", "sizes": [20, 160, 1280], "n_test": 1_000}
SCORES = ("Min-BDeu", "BDeu", "Max-BDeu")
STYLE = {
    "Min-BDeu": {"marker": "o", "color": "tab:blue"},
    "BDeu": {"marker": "s", "color": "tab:green"},
    "Max-BDeu": {"marker": "x", "color": "tab:red"},
    "Empty": {"marker": ".", "color": "0.5", "linestyle": "--"},
}
#: Saturation is read off where the relative sensitivity first drops below this.
SATURATION_LEVEL = 0.01


def moral_hamming(dag_a, dag_b, nodes):
    """Node pairs adjacent in exactly one of the two moral graphs."""
    a = {frozenset(e) for e in dag_a.moralize().edges()}
    b = {frozenset(e) for e in dag_b.moralize().edges()}
    return sum((frozenset(p) in a) != (frozenset(p) in b) for p in itertools.combinations(nodes, 2))


def fit_parameters(dag, train, states):
    """The learned structure with BDeu (ESS 1) parameters, as in the paper."""
    estimator = DiscreteBayesianEstimator(
        state_names=states, prior_type="BDeu", equivalent_sample_size=ESS
    )
    return fit_network(dag, train, estimator)


def run(network, sizes, n_test, seed=0):
    """Learn with the three scores at every sample size; return the results."""
    start = time.perf_counter()
    # One forward sample (the network is parsed once): the first max(sizes) rows train,
    # the last n_test rows are the independent held-out set.
    true_model, data = sample_network(network, max(sizes) + n_test, random_state=seed)
    train, test = data.iloc[: max(sizes)], data.iloc[max(sizes) :]
    nodes = list(train.columns)
    states = {v: list(true_model.get_cpds(v).state_names[v]) for v in nodes}
    true_loss = log_loss(true_model, test)

    def accuracy(dag, subset):
        loss = log_loss(fit_parameters(dag, subset, states), test)
        return 100.0 * (loss - true_loss) / true_loss

    # BDeu learning, with its Max-/Min-BDeu sensitivity, in one call (Fig. 6).
    saturation = learning_saturation(
        train,
        sizes,
        scoring_method=lambda d: BDeu(d, equivalent_sample_size=ESS, state_names=states),
        equivalent_sample_size=ESS,
        epsilon=EPSILON,
        method="auto",
        max_parents=MAX_PARENTS,
        state_names=states,
    )
    factories = {
        "Min-BDeu": lambda d: MinBDeu(d, ESS, EPSILON, state_names=states),
        "Max-BDeu": lambda d: MaxBDeu(d, ESS, EPSILON, state_names=states),
    }
    empty = DiscreteBayesianNetwork()
    empty.add_nodes_from(nodes)
    print(f"BDeu learning and saturation curve: {time.perf_counter() - start:.1f} s", flush=True)
    rows = []
    for n, bdeu_dag in zip(sizes, saturation["dag"], strict=True):
        tick = time.perf_counter()
        subset = train.iloc[:n]
        dags = {"BDeu": bdeu_dag, "Empty": empty}
        for name, make in factories.items():
            search = ExactSearch(make(subset), max_parents=MAX_PARENTS, show_progress=False)
            dags[name] = search.fit().dag_
        for name, dag in dags.items():
            rows.append(
                {
                    "n": n,
                    "score": name,
                    "accuracy": accuracy(dag, subset),
                    "hamming": moral_hamming(dag, true_model, nodes),
                    "arcs": dag.number_of_edges(),
                }
            )
        print(
            f"N = {n:>5}: Min-/Max-BDeu learned in {time.perf_counter() - tick:.1f} s", flush=True
        )
    return true_model, rows, saturation


def saturation_point(saturation):
    below = saturation.loc[saturation["relative_gap"] < SATURATION_LEVEL, "n_samples"]
    return int(below.iloc[0]) if len(below) else None


def summarize(network, true_model, rows, saturation):
    n_true = true_model.number_of_edges()
    print(
        f"Network {network}: {len(true_model.nodes())} nodes, {n_true} arcs; "
        f"ESS {ESS}, epsilon {EPSILON}, at most {MAX_PARENTS} parents, exact search."
    )
    print("Accuracy score (% held-out log-likelihood vs true; lower is better), ")
    print("moral-graph Hamming distance to the true network, and number of arcs:")
    header = f"{'N':>6} | " + " | ".join(f"{s:^20}" for s in (*SCORES, "Empty"))
    print(header)
    print(f"{'':>6} | " + " | ".join(f"{'acc%':>7} {'Hamm':>5} {'arcs':>5}" for _ in range(4)))
    print("-" * len(header))
    table = {(r["n"], r["score"]): r for r in rows}
    for n in saturation["n_samples"]:
        cells = []
        for s in (*SCORES, "Empty"):
            r = table[(n, s)]
            cells.append(f"{r['accuracy']:7.2f} {r['hamming']:5d} {r['arcs']:5d}")
        print(f"{n:>6} | " + " | ".join(cells))
    print("\nSaturation (BDeu learning): relative sensitivity (Max-BDeu - Min-BDeu) / |Min-BDeu|")
    for n, gap in zip(saturation["n_samples"], saturation["relative_gap"], strict=True):
        acc = table[(n, "BDeu")]["accuracy"]
        print(f"{n:>6}   relative gap {gap:8.4f}   BDeu accuracy {acc:6.2f}%")
    point = saturation_point(saturation)
    if point is None:
        print(f"Saturation: relative gap never below {SATURATION_LEVEL:g}; more data would help.")
    else:
        print(f"Saturation sets in at about N = {point} (relative gap < {SATURATION_LEVEL:g}).")


def results(config, true_model, rows, saturation):
    """The figures the docs quote, per sample size (see ``_summary.py``)."""
    table = {(r["n"], r["score"]): r for r in rows}
    by_size = {}
    for row in saturation.itertuples():
        n = row.n_samples
        by_size[n] = {
            metric: {s: table[(n, s)][metric] for s in (*SCORES, "Empty")}
            for metric in ("accuracy", "hamming", "arcs")
        }
        by_size[n]["gap"] = row.gap
        by_size[n]["relative_gap_percent"] = 100 * row.relative_gap
    return {
        "network": config["network"],
        "nodes": len(true_model.nodes()),
        "true_arcs": true_model.number_of_edges(),
        "test_rows": config["n_test"],
        "ess": ESS,
        "epsilon": EPSILON,
        "max_parents": MAX_PARENTS,
        "saturation_level_percent": 100 * SATURATION_LEVEL,
        "saturation_n": saturation_point(saturation),
        "by_size": by_size,
    }


def plot(network, true_model, rows, saturation, path):
    fig, axes = plt.subplots(2, 2, figsize=(11, 8.5), constrained_layout=True)
    panels = [
        ("accuracy", "(a) Accuracy score (lower is better)", "held-out LL difference to true [%]"),
        ("hamming", "(b) Moral-graph Hamming distance to true", "mismatching node pairs"),
        ("arcs", "(c) Number of arcs", "arcs"),
    ]
    for ax, (key, title, ylabel) in zip(axes.ravel()[:3], panels, strict=True):
        for s in (*SCORES, "Empty"):
            if key == "arcs" and s == "Empty":
                continue
            pts = [(r["n"], r[key]) for r in rows if r["score"] == s]
            ax.plot(*zip(*pts, strict=True), label=s, **STYLE[s])
        if key == "arcs":
            n_true = true_model.number_of_edges()
            ax.axhline(n_true, color="0.5", linestyle="--", label=f"true network ({n_true})")
        ax.set(xscale="log", title=title, xlabel="training sample size N", ylabel=ylabel)
        ax.grid(True, which="major", alpha=0.3)
        ax.legend()
    ax = axes[1, 1]
    sizes = saturation["n_samples"].to_numpy()
    gap = ax.plot(
        sizes,
        saturation["relative_gap"],
        "o-",
        color="tab:purple",
        label="relative sensitivity (left)",
    )
    ax.set(xscale="log", xlabel="training sample size N", title="(d) Learning saturation (BDeu)")
    ax.set_ylabel("(Max-BDeu - Min-BDeu) / |Min-BDeu|", color="tab:purple")
    ax.grid(True, which="major", alpha=0.3)
    twin = ax.twinx()
    acc = [next(r["accuracy"] for r in rows if r["n"] == n and r["score"] == "BDeu") for n in sizes]
    line = twin.plot(sizes, acc, "s--", color="tab:green", label="BDeu accuracy score (right)")
    twin.set_ylabel("BDeu accuracy score [%]", color="tab:green")
    ax.set_ylim(bottom=0)
    twin.set_ylim(bottom=0)
    handles = gap + line
    point = saturation_point(saturation)
    if point is not None:
        handles.append(
            ax.axvline(point, color="0.4", linestyle=":", label=f"saturation, N={point}")
        )
    ax.legend(handles=handles, loc="upper right")
    fig.suptitle(
        f"Min-BDeu / Max-BDeu / BDeu on data from '{network}' "
        f"(ESS {ESS:g}, epsilon {EPSILON:g}, <= {MAX_PARENTS} parents, exact search)"
    )
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small smoke run (sachs, 3 sizes)")
    parser.add_argument("--out", default=str(Path(__file__).parent / "output"), help="output dir")
    parser.add_argument("--seed", type=int, default=0, help="seed of the sampled data")
    args = parser.parse_args(argv)
    config = QUICK if args.quick else FULL
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        true_model, rows, saturation = run(**config, seed=args.seed)
    summarize(config["network"], true_model, rows, saturation)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "min_max_bdeu.png"
    plot(config["network"], true_model, rows, saturation, path)
    print(f"\nSaved {path} ({time.perf_counter() - start:.1f} s).")
    summary = results(config, true_model, rows, saturation)
    seconds = time.perf_counter() - start
    print(f"Saved {write_summary(out, path.stem, summary, quick=args.quick, seconds=seconds)}")


if __name__ == "__main__":
    main()
