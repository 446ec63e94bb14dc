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


def report():
    a = np.array([s[:2] for s in SOLVES])
    gaps = [abs(s[2] - s[3]) for s in SOLVES if s[2] is not None]
    *_, rows, cols = SOLVES[-1]
    print(
        f"{len(SOLVES)} LPs (the last {rows} rows, {cols} columns): CPU s SoPlex "
        f"{a[:, 0].sum():.1f}, HiGHS {a[:, 1].sum():.1f} (ratio "
        f"{a[:, 0].sum() / max(a[:, 1].sum(), 1e-9):.2f}); largest difference of the "
        f"optimal values {max(gaps, default=0.0):.1e}",
        flush=True,
    )


def main(argv=None):
    import highspy._core

    highspy._core._Highs = mirrored(highspy._core._Highs)  # type: ignore[misc]
    import exp_root_pricing

    try:
        exp_root_pricing.main(argv)
    finally:
        if SOLVES:
            report()


if __name__ == "__main__":
    main()
