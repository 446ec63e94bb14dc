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
reported too), as in ``benchmarks/README.md``
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

#: Each solve HiGHS finished: (the mirror's CPU s, HiGHS's CPU s, the mirror's value or
#: None, HiGHS's value, rows, columns, the mirror's simplex iterations or None (SoPlex),
#: HiGHS's).
SOLVES: list[tuple[float, float, float | None, float, int, int, int | None, int]] = []
#: The mirror's name in the report.
MIRROR = ["SoPlex"]


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


class _SoPlex:
    """SoPlex (PySCIPOpt's ``LP``), as root pricing ran it until 2026-12-04: its primal
    simplex after columns joined, its dual simplex after rows did."""

    def __init__(self):
        from pyscipopt import LP

        self.lp = LP("mirror", sense="maximize")
        self.primal = True

    def option(self, name, value):
        pass  # HiGHS's options; the sense is set above

    def sense(self, sense):
        pass

    def add_rows(self, m, lower, upper, nnz, starts, index, values):
        infinity = self.lp.infinity()
        self.lp.addRows(
            _entries(m, starts, index, values),
            lhss=[float(v) for v in lower],
            rhss=[min(float(v), infinity) for v in upper],
        )
        self.primal = False

    def add_cols(self, m, costs, lower, upper, nnz, starts, index, values):
        self.lp.addCols(
            _entries(m, starts, index, values),
            objs=[float(v) for v in costs],
            lbs=[float(v) for v in lower],
            ubs=[float(v) for v in upper],
        )
        self.primal = True

    def delete_rows(self, k, indices):
        for first, last in _runs(indices):
            self.lp.delRows(first, last)

    def delete_cols(self, k, indices):
        for first, last in _runs(indices):
            self.lp.delCols(first, last)

    def solve(self):
        """``(value or None, simplex iterations or None)``."""
        value = self.lp.solve(dual=not self.primal)
        return (value if self.lp.isOptimal() else None), None


class _OtherHighs:
    """A second HiGHS with ``options`` over root pricing's own (with
    ``primal_after_columns``, its primal simplex after columns joined)."""

    def __init__(self, highs_class, options: dict, primal_after_columns: bool):
        import highspy

        self.lp = highs_class()
        self.options = options
        self.primal_after_columns = primal_after_columns
        self.columns_joined = False
        self.optimal = highspy.HighsModelStatus.kOptimal
        for name, value in options.items():
            self.lp.setOptionValue(name, value)

    def option(self, name, value):
        self.lp.setOptionValue(name, self.options.get(name, value))

    def sense(self, sense):
        self.lp.changeObjectiveSense(sense)

    def add_rows(self, *args):
        self.lp.addRows(*args)
        self.columns_joined = False

    def add_cols(self, *args):
        self.lp.addCols(*args)
        self.columns_joined = True

    def delete_rows(self, *args):
        self.lp.deleteRows(*args)

    def delete_cols(self, *args):
        self.lp.deleteCols(*args)

    def solve(self):
        if self.primal_after_columns:
            self.lp.setOptionValue("simplex_strategy", 4 if self.columns_joined else 1)
        self.lp.run()
        info = self.lp.getInfo()
        optimal = self.lp.getModelStatus() == self.optimal
        return (info.objective_function_value if optimal else None), info.simplex_iteration_count


def mirrored(highs_class, make_mirror):
    """A subclass of HiGHS's class whose model changes and solves ``make_mirror()``
    (:class:`_SoPlex` or :class:`_OtherHighs`) repeats, each solve timed in CPU seconds."""
    import highspy

    class Mirrored(highs_class):
        def __init__(self):
            super().__init__()
            self.mirror = make_mirror()

        def setOptionValue(self, name, value):
            self.mirror.option(name, value)
            return super().setOptionValue(name, value)

        def changeObjectiveSense(self, sense):
            self.mirror.sense(sense)
            return super().changeObjectiveSense(sense)

        def addRows(self, *args):
            self.mirror.add_rows(*args)
            return super().addRows(*args)

        def addCols(self, *args):
            self.mirror.add_cols(*args)
            return super().addCols(*args)

        def deleteRows(self, *args):
            self.mirror.delete_rows(*args)
            return super().deleteRows(*args)

        def deleteCols(self, *args):
            self.mirror.delete_cols(*args)
            return super().deleteCols(*args)

        def run(self):
            cpu = time.process_time()
            status = super().run()
            highs = time.process_time() - cpu
            cpu = time.process_time()
            value, iterations = self.mirror.solve()
            other = time.process_time() - cpu
            if self.getModelStatus() != highspy.HighsModelStatus.kOptimal:
                return status  # HiGHS stopped at the deadline: not compared
            info = self.getInfo()
            SOLVES.append(
                (
                    other,
                    highs,
                    value,
                    info.objective_function_value,
                    self.getNumRow(),
                    self.getNumCol(),
                    iterations,
                    info.simplex_iteration_count,
                )
            )
            if len(SOLVES) % 25 == 0:
                report()
            return status

    return Mirrored


def report():
    a = np.array([s[:2] for s in SOLVES])
    gaps = [abs(s[2] - s[3]) for s in SOLVES if s[2] is not None]
    rows, cols, mirror_iterations, _ = SOLVES[-1][4:]
    iterations = ""
    if mirror_iterations is not None:
        mirror, highs = np.sum([s[6:] for s in SOLVES], axis=0)
        iterations = f"; simplex iterations {MIRROR[0]} {mirror:,}, HiGHS {highs:,}"
    print(
        f"{len(SOLVES)} LPs (the last {rows} rows, {cols} columns): CPU s {MIRROR[0]} "
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
    highs_class = highspy._core._Highs
    if args.highs_option or args.primal_after_columns:
        MIRROR[0] = "the other HiGHS"
        options = dict(args.highs_option)

        def make_mirror():
            return _OtherHighs(highs_class, options, args.primal_after_columns)
    else:
        make_mirror = _SoPlex
    highspy._core._Highs = mirrored(highs_class, make_mirror)  # type: ignore[misc]
    import exp_root_pricing

    try:
        exp_root_pricing.main(rest)
    finally:
        if SOLVES:
            report()


if __name__ == "__main__":
    main()
