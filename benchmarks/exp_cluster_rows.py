"""The cluster rows' weights: tables against row by row, on random rows (issue 35).

``_cluster_rows._row_weights`` adds, to every family, the multipliers of the cluster rows
it is in, per variable either from tables of subsets or row by row; its ``AUTO`` method
chooses by :data:`~pgmpy_nml.search.candidates._cluster_rows.ROW_COST`. This script
times the three methods (interleaved, the median of ``--repeats``) on random rows over
100 variables, for families per variable and cluster sizes from one side of the choice
to the other, and prints each case's ratio (the sum of squared row sizes over rows times
families, the same for every variable here), so that the crossover can be read off. The
figures are in ``ROW_COST``'s notes.

Run::

    python benchmarks/exp_cluster_rows.py
    python benchmarks/exp_cluster_rows.py --repeats 9
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from pgmpy_nml.search.candidates import _cluster_rows as cr

#: (families per variable, members per row)
CASES = ((10, 60), (100, 60), (300, 60), (1000, 60), (3000, 60), (10, 20), (30, 20), (100, 20))


def random_case(rng, n, per_variable, max_preds, n_rows, members):
    """Families of up to ``max_preds`` random preds for each of ``n`` variables, and
    ``n_rows`` random clusters of ``members`` variables with random multipliers."""
    start = np.arange(n + 1) * per_variable
    padded = -np.ones((n * per_variable, max_preds), np.int64)
    size = rng.integers(0, max_preds + 1, n * per_variable)
    for f, s in enumerate(size):
        others = np.delete(np.arange(n), f // per_variable)
        padded[f, :s] = np.sort(rng.choice(others, s, replace=False))
    rows = cr.ClusterRows(sorted(rng.choice(n, members, replace=False)) for _ in range(n_rows))
    return (start, padded, size, *rows.arrays(), rng.random(n_rows), n)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rows", type=int, default=480)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    names = {cr.AUTO: "auto", cr.TABLES: "tables", cr.ROWS: "row by row"}
    print(f"ROW_COST = {cr.ROW_COST}; load average {os.getloadavg()[0]:.2f}")
    for per_variable, members in CASES:
        case = random_case(rng, 100, per_variable, 2, args.rows, members)
        families = case[0][-1]
        wall = {m: [] for m in names}
        cpu = {m: [] for m in names}
        for m in names:  # compiled before the timing
            cr._row_weights(*case, np.zeros(families), m)
        for _ in range(args.repeats):  # interleaved
            for m in names:
                w, c = time.perf_counter(), time.process_time()
                cr._row_weights(*case, np.zeros(families), m)
                wall[m].append(time.perf_counter() - w)
                cpu[m].append(time.process_time() - c)
        ratio = members**2 / per_variable
        line = ", ".join(
            f"{names[m]} {1e3 * np.median(wall[m]):.1f} ms (CPU {1e3 * np.median(cpu[m]):.1f})"
            for m in names
        )
        print(f"{per_variable:5d} families/variable, rows of {members}, ratio {ratio:6.1f}: {line}")
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
