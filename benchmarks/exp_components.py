"""Does the candidate graph decompose? Its strongly connected components on the suite.

Run::

    python benchmarks/exp_components.py --half tuning --max-scoring 20

The *candidate graph* has an arc u -> v when u is a parent in some candidate parent set
of v. Arcs between two of its strongly connected components all point one way, so no
choice of candidates closes a cycle through two of them: the exact search would split
into one search per component (issue 35 asks whether that helps). This scores each
instance of ``bench_suite.py`` whose latest record (``results/suite.jsonl``) took at
most ``--max-scoring`` seconds to score, and prints per instance the variables, the
candidates, the number of components and the five largest, and whether the suite's run
proved it; then how many of the unproven ones have a component other than the largest
with more than one variable (a decomposition that could help).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_suite import load_data, make_score, suite

from pgmpy_nml.search.candidates import candidate_parent_sets

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "suite.jsonl")


def component_sizes(cands) -> list[int]:
    """The sizes of the candidate graph's strongly connected components, largest first."""
    n = cands.n_variables
    arcs = np.array(
        sorted({(u, v) for v, sets in enumerate(cands.parent_sets) for p in sets for u in p}),
        dtype=np.int64,
    ).reshape(-1, 2)
    graph = csr_matrix((np.ones(len(arcs)), (arcs[:, 0], arcs[:, 1])), shape=(n, n))
    _, label = connected_components(graph, directed=True, connection="strong")
    return sorted(np.bincount(label).tolist(), reverse=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--half", choices=["tuning", "evaluation", "both"], default="tuning")
    parser.add_argument("--max-scoring", type=float, default=20.0, help="seconds")
    args = parser.parse_args()
    latest = {}
    with open(RESULTS) as stream:
        for line in stream:
            row = json.loads(line)
            latest[row["instance"]] = row
    print("| instance | vars | candidates | components | largest five | proven |")
    print("|---|---|---|---|---|---|")
    unproven = split = 0
    for inst in suite():
        row = latest.get(inst.name)
        if row is None or args.half not in ("both", inst.half):
            continue
        if (row.get("timings") or {}).get("candidate parent sets", np.inf) > args.max_scoring:
            continue
        data = load_data(inst)
        cands, _ = candidate_parent_sets(make_score(inst.score, data), max_parents=inst.max_parents)
        sizes = component_sizes(cands)
        proven = bool(row.get("proven"))
        unproven += not proven
        split += not proven and len(sizes) > 1 and sizes[1] > 1
        print(
            f"| {inst.name} | {cands.n_variables} | {int(cands.n_candidates().sum()):,} | "
            f"{len(sizes)} | {sizes[:5]} | {'yes' if proven else 'no'} |",
            flush=True,
        )
    print(f"unproven: {unproven}; with a second component of two variables or more: {split}")


if __name__ == "__main__":
    main()
