"""Root pricing's restricted LP: HiGHS against SoPlex on the same LPs (issue 35).

Root pricing (:mod:`pgmpy_nml.search.candidates._pricing`) solves its restricted LP by
HiGHS's simplex. This script runs root pricing on an instance of ``bench_suite.py``
(as ``exp_root_pricing.py`` does) with every operation on that LP (rows and columns
added and deleted, each solve) mirrored on SoPlex (PySCIPOpt's ``LP``, the solver before
2026-12-04), and times each solve of each, in CPU seconds, one after the other in the
same process (SoPlex by its primal simplex after columns joined, by its dual simplex after
rows did, as root pricing ran it). The run follows HiGHS's solutions; the optimal values
must agree.
Figures in ``benchmarks/README.md`` ("Root pricing's LP by HiGHS").

Run::

    python benchmarks/exp_lp_solvers.py --instance plants-fnml-p2 --seconds 150
    python benchmarks/exp_lp_solvers.py --instance baudio-fnml-p3 --seconds 300

The seconds are root pricing's wall time, which both solvers share.

With ``--highs-option NAME=VALUE`` (repeatable) or ``--primal-after-columns``, the mirror
is a second HiGHS with those options instead of SoPlex (its simplex iterations are
counted too; "SoPlex" in the report is then that HiGHS), as in ``benchmarks/README.md``
("No dense family-by-variable mask; HiGHS's options on root pricing's LP")::

    python benchmarks/exp_lp_solvers.py --instance nips-fnml-p2 --seconds 150 \
        --highs-option simplex_dual_edge_weight_strategy=1
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

#: Each solve HiGHS finished: (SoPlex's CPU s, HiGHS's CPU s, SoPlex's value or None, HiGHS's value,
#: rows, columns).
SOLVES: list[tuple[float, float, float | None, float, int, int]] = []
#: With a HiGHS mirror: each solve's simplex iterations, (the mirror's, HiGHS's).
ITERATIONS: list[tuple[int, int]] = []


def _runs(indices) -> list[tuple[int, int]]:
    """The contiguous runs ``(first, last)`` of the sorted ``indices``, the last first
    (SoPlex deletes ranges; deleting from the end keeps the others' positions)."""
    indices = np.sort(np.asarray(indices))
    ends = np.flatnonzero(np.diff(indices) != 1)
    firsts, lasts = indices[np.r_[0, ends + 1]], indices[np.r_[ends, indices.size - 1]]
    return [(int(a), int(b)) for a, b in zip(firsts[::-1], lasts[::-1], strict=True)]


def _entries(n, starts, index, values):
    bounds = [*map(int, starts), len(index)]
    return [
        [(int(index[k]), float(values[k])) for k in range(bounds[j], bounds[j + 1])]
        for j in range(n)
    ]


def mirrored(highs_class):
    """A subclass of HiGHS's class whose model changes and solves SoPlex repeats."""
    import highspy
    from pyscipopt import LP

    class Mirrored(highs_class):
        def __init__(self):
            super().__init__()
            self.soplex = LP("mirror", sense="maximize")
            self.primal = True  # as root pricing ran SoPlex: primal after columns join

        def addRows(self, m, lower, upper, nnz, starts, index, values):
            status = super().addRows(m, lower, upper, nnz, starts, index, values)
            infinity = self.soplex.infinity()
            self.soplex.addRows(
                _entries(m, starts, index, values),
                lhss=[float(v) for v in lower],
                rhss=[min(float(v), infinity) for v in upper],
            )
            self.primal = False
            return status

        def addCols(self, m, costs, lower, upper, nnz, starts, index, values):
            status = super().addCols(m, costs, lower, upper, nnz, starts, index, values)
            self.soplex.addCols(
                _entries(m, starts, index, values),
                objs=[float(v) for v in costs],
                lbs=[float(v) for v in lower],
                ubs=[float(v) for v in upper],
            )
            self.primal = True
            return status

        def deleteRows(self, k, indices):
            status = super().deleteRows(k, indices)
            for first, last in _runs(indices):
                self.soplex.delRows(first, last)
            return status

        def deleteCols(self, k, indices):
            status = super().deleteCols(k, indices)
            for first, last in _runs(indices):
                self.soplex.delCols(first, last)
            return status

        def run(self):
            cpu = time.process_time()
            status = super().run()
            highs = time.process_time() - cpu
            cpu = time.process_time()
            soplex_value = self.soplex.solve(dual=not self.primal)
            soplex = time.process_time() - cpu
            if self.getModelStatus() != highspy.HighsModelStatus.kOptimal:
                return status  # HiGHS stopped at the deadline: not compared
            SOLVES.append(
                (
                    soplex,
                    highs,
                    soplex_value if self.soplex.isOptimal() else None,
                    self.getInfo().objective_function_value,
                    self.getNumRow(),
                    self.getNumCol(),
                )
            )
            if len(SOLVES) % 25 == 0:
                report()
            return status

    return Mirrored


def highs_mirrored(highs_class, options: dict, primal_after_columns: bool):
    """A subclass of HiGHS's class whose model changes and solves a second HiGHS, with
    ``options`` set after root pricing's own, repeats (SoPlex's place in :data:`SOLVES`;
    with ``primal_after_columns``, its primal simplex after columns joined)."""
    import highspy

    class Mirrored(highs_class):
        def __init__(self):
            super().__init__()
            self.other = highs_class()
            self.columns_joined = False

        def setOptionValue(self, name, value):
            self.other.setOptionValue(name, options.get(name, value))
            return super().setOptionValue(name, value)

        def changeObjectiveSense(self, sense):
            self.other.changeObjectiveSense(sense)
            return super().changeObjectiveSense(sense)

        def addRows(self, *args):
            self.other.addRows(*args)
            self.columns_joined = False
            return super().addRows(*args)

        def addCols(self, *args):
            self.other.addCols(*args)
            self.columns_joined = True
            return super().addCols(*args)

        def deleteRows(self, *args):
            self.other.deleteRows(*args)
            return super().deleteRows(*args)

        def deleteCols(self, *args):
            self.other.deleteCols(*args)
            return super().deleteCols(*args)

        def run(self):
            for name, value in options.items():
                self.other.setOptionValue(name, value)
            if primal_after_columns:
                self.other.setOptionValue("simplex_strategy", 4 if self.columns_joined else 1)
            cpu = time.process_time()
            status = super().run()
            highs = time.process_time() - cpu
            cpu = time.process_time()
            self.other.run()
            other = time.process_time() - cpu
            if self.getModelStatus() != highspy.HighsModelStatus.kOptimal:
                return status
            optimal = self.other.getModelStatus() == highspy.HighsModelStatus.kOptimal
            value = self.other.getInfo().objective_function_value if optimal else None
            SOLVES.append(
                (
                    other,
                    highs,
                    value,
                    self.getInfo().objective_function_value,
                    self.getNumRow(),
                    self.getNumCol(),
                )
            )
            info = (
                self.other.getInfo().simplex_iteration_count,
                self.getInfo().simplex_iteration_count,
            )
            ITERATIONS.append(info)
            if len(SOLVES) % 25 == 0:
                report()
            return status

    return Mirrored


def report():
    a = np.array([s[:2] for s in SOLVES])
    gaps = [abs(s[2] - s[3]) for s in SOLVES if s[2] is not None]
    *_, rows, cols = SOLVES[-1]
    iterations = ""
    if ITERATIONS:
        mirror, highs = np.sum(ITERATIONS, axis=0)
        iterations = f"; simplex iterations the mirror {mirror:,}, HiGHS {highs:,}"
    print(
        f"{len(SOLVES)} LPs (the last {rows} rows, {cols} columns): CPU s SoPlex "
        f"{a[:, 0].sum():.1f}, HiGHS {a[:, 1].sum():.1f} (ratio "
        f"{a[:, 0].sum() / max(a[:, 1].sum(), 1e-9):.2f}); largest difference of the "
        f"optimal values {max(gaps, default=0.0):.1e}{iterations}",
        flush=True,
    )


def _option(text: str):
    name, value = text.split("=", 1)
    for kind in (int, float):
        try:
            return name, kind(value)
        except ValueError:
            pass
    return name, value


def main(argv=None):
    import argparse

    import highspy._core

    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--highs-option", type=_option, action="append", default=[])
    parser.add_argument("--primal-after-columns", action="store_true")
    args, rest = parser.parse_known_args(argv)
    if args.highs_option or args.primal_after_columns:
        mirror = highs_mirrored(
            highspy._core._Highs, dict(args.highs_option), args.primal_after_columns
        )
    else:
        mirror = mirrored(highspy._core._Highs)
    highspy._core._Highs = mirror  # type: ignore[misc]
    import exp_root_pricing

    try:
        exp_root_pricing.main(rest)
    finally:
        if SOLVES:
            report()


if __name__ == "__main__":
    main()
