"""Bootstrap arc strengths of learned networks against the true one.

How much of a learned structure can be trusted? Data are sampled from a bundled
network; B resamples are each learned with the exact search (bnlearn's
``boot.strength``); the averaged networks keep the arcs stronger than the
data-driven threshold of Scutari and Nagarajan (2013). Three procedures: fNML on
bootstrap resamples (with replacement), fNML on half-size subsamples without
replacement, and qNML on bootstrap resamples. The figure draws each averaged
network with arc widths by strength (true arcs blue, false ones red, true arcs left
out dotted) and the strength of every pair of nodes, true adjacencies against the
others, with the thresholds.

What it shows: a bootstrap resample repeats about a third of its rows, and fNML,
which charges its regret per *observed* parent configuration, fits the repeated
rows with large parent sets: false arcs reach strength 1. Subsampling without
replacement removes the repeats, and qNML (whose penalty counts every possible
configuration) is not misled. qNML is score equivalent, so its networks are counted
as equivalence classes (CPDAGs); fNML's are counted as DAGs.

Run:  python examples/bootstrap_strength.py [--quick] [--out DIR]   (about 1 minute)

Besides the PNG it writes ``bootstrap_strength.json``, the summary the docs quote
(see ``_summary.py``).
"""

import argparse
import time
import warnings
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import networkx as nx
import numpy as np
from _summary import write_summary

from pgmpy_nml.datasets import sample_network
from pgmpy_nml.study import (
    averaged_network,
    bootstrap_strength,
    compare_structures,
    plot_strength,
)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small data, few resamples (CI)")
    parser.add_argument("--out", default="examples/output", help="folder for the PNG")
    args = parser.parse_args()
    begin = time.perf_counter()
    warnings.simplefilter("ignore", FutureWarning)
    network, n_samples, n_boot = ("asia", 500, 8) if args.quick else ("sachs", 1000, 200)
    true_model, data = sample_network(network, n_samples, random_state=11)
    true_pairs = {frozenset(e) for e in true_model.edges()}

    results = {}
    procedures = {
        "fNML, bootstrap": ("fnml", True),
        "fNML, half subsamples": ("fnml", False),
        "qNML, bootstrap": ("qnml", True),
    }
    for label, (score, replace) in procedures.items():
        start = time.perf_counter()
        strength = bootstrap_strength(
            data,
            scoring_method=score,
            n_bootstrap=n_boot,
            replace=replace,
            random_state=1,
            n_jobs=1 if args.quick else 2,
        )
        seconds = time.perf_counter() - start
        averaged = averaged_network(strength)
        results[label] = (strength, averaged, seconds)

    fig = plt.figure(figsize=(21, 6))
    grid = fig.add_gridspec(1, 4, width_ratios=[1.2, 1.2, 1.2, 1.0])
    layout = nx.Graph(true_model.edges())
    for _, averaged, _ in results.values():
        layout.add_edges_from(averaged.edges())
    connected = nx.is_connected(layout)
    pos = nx.kamada_kawai_layout(layout) if connected else nx.circular_layout(sorted(layout))
    for col, (label, (strength, _, _)) in enumerate(results.items()):
        ax = fig.add_subplot(grid[0, col])
        plot_strength(
            strength,
            reference=true_model,
            ax=ax,
            pos=pos,
            title=f"{label}: strength > {strength.attrs['threshold']:.2f}",
        )
    ax = fig.add_subplot(grid[0, 3])
    rng = np.random.default_rng(0)
    for x, (strength, _, _) in enumerate(results.values()):
        s, truth = pair_strengths(strength, true_pairs)
        jitter = rng.uniform(-0.15, 0.15, len(s))
        ax.scatter(
            x - 0.08 + jitter[truth] / 2,
            s[truth],
            s=22,
            color="#1f4e99",
            label="adjacent in the truth" if x == 0 else None,
        )
        ax.scatter(
            x + 0.08 + jitter[~truth] / 2,
            s[~truth],
            s=16,
            color="#c0392b",
            alpha=0.7,
            label="not adjacent in the truth" if x == 0 else None,
        )
        ax.hlines(strength.attrs["threshold"], x - 0.3, x + 0.3, color="0.2", ls="--")
    ax.set_xticks(range(len(results)), [s.replace(", ", "\n") for s in results])
    ax.set_ylabel(f"strength over {n_boot} resamples")
    ax.set_title("strength of every pair (dashed: threshold)", fontsize=10)
    ax.legend(fontsize=8, loc="center right")
    fig.suptitle(
        f"Bootstrap arc strength, {network} network, {n_samples} rows, exact search per resample"
    )
    fig.tight_layout()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    fig.savefig(out / "bootstrap_strength.png", dpi=100)

    print(f"{network}: {n_samples} rows, {len(true_model.edges())} true arcs, {n_boot} resamples")
    for label, (strength, averaged, seconds) in results.items():
        metrics = compare_structures(true_model, averaged)
        print(
            f"  {label}: threshold {strength.attrs['threshold']:.3f}; averaged network "
            f"{metrics['n_edges']} arcs, precision {metrics['precision']:.2f}, recall "
            f"{metrics['recall']:.2f}, skeleton recall {metrics['skeleton_recall']:.2f}, "
            f"SHD {metrics['shd']}; {seconds:.1f} s"
        )
    print(f"figure written to {out / 'bootstrap_strength.png'}")
    summary = {
        "network": network,
        "rows": n_samples,
        "true_arcs": len(true_model.edges()),
        "resamples": n_boot,
        "by_procedure": {
            KEYS[label]: procedure_summary(strength, averaged, true_model, true_pairs)
            for label, (strength, averaged, _) in results.items()
        },
    }
    seconds = time.perf_counter() - begin
    path = write_summary(out, "bootstrap_strength", summary, quick=args.quick, seconds=seconds)
    print(f"summary written to {path}")


#: Procedure label -> its key in the JSON summary (the docs' quotes name keys without spaces).
KEYS = {
    "fNML, bootstrap": "fnml_bootstrap",
    "fNML, half subsamples": "fnml_subsamples",
    "qNML, bootstrap": "qnml_bootstrap",
}


def pair_strengths(strength, true_pairs):
    """Strength of each unordered pair of nodes (once), and whether the truth has it."""
    rank = {v: i for i, v in enumerate(strength.attrs["nodes"])}
    once = [rank[a] < rank[b] for a, b in zip(strength["from"], strength["to"], strict=True)]
    pairs = strength[once]
    truth = np.array(
        [frozenset((a, b)) in true_pairs for a, b in zip(pairs["from"], pairs["to"], strict=True)]
    )
    return pairs["strength"].to_numpy(), truth


def procedure_summary(strength, averaged, true_model, true_pairs):
    """The averaged network's accuracy and the false arcs of strength 1 (``_summary.py``)."""
    s, truth = pair_strengths(strength, true_pairs)
    metrics = compare_structures(true_model, averaged)
    keys = ("n_edges", "precision", "recall", "skeleton_recall", "shd")
    return {
        "threshold": strength.attrs["threshold"],
        **{key: metrics[key] for key in keys},
        "false_pairs_at_strength_1": int(np.sum(~truth & (s >= 1.0))),
        "true_pairs_at_strength_1": int(np.sum(truth & (s >= 1.0))),
    }


if __name__ == "__main__":
    main()
