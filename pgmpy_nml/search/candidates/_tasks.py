r"""The work of the candidate search: one task searches the parent sets of some variables.

For scores with a contract (:mod:`pgmpy_nml.scores.contract`), every level's
needed subsets (parent sets :math:`P` and families :math:`P + v`, over all
variables) are counted once in compiled code
(:func:`~pgmpy_nml._counting.subsets.listed_subset_statistics`, the exact search's
refinement steps), and each score's own formula and bound are applied to all
sets of a variable at once; the last level is streamed in compiled blocks instead
(:mod:`~pgmpy_nml.search.candidates._final`). Other scores go through
``local_score``, variable by variable, with dominance alone.

A task (:func:`_statistic_task`, or :func:`_generic_task` for scores without a
contract) walks one :class:`~pgmpy_nml.search.candidates._lattice._Lattice` per
variable; everything it needs is picklable, so tasks can run on a joblib backend's
workers (:func:`~pgmpy_nml.search.candidates._pruning.candidate_parent_sets`).
"""

from __future__ import annotations

import math
import time

import numpy as np

from ..._counting import subsets as _kernels
from ..._progress import keep_alive, progress_bar
from ...scores.contract import Families, StatisticScore, entropy_statistic
from ...scores.pgmpy_adapters import PgmpyScoreAdapter
from .._dp.plans import StatisticPlan
from ..constraints import Constraints
from . import _budget, _final
from ._lattice import _TIE, _binomials, _lattices, passed
from ._store import _Store

__all__: list[str] = []

#: Key of the entropy statistic the search counts for its own likelihood bound.
_H = ("pruning", "N log N")


# -- scores with a contract: bulk counting -------------------------------------------------


class _StatisticProblem:
    """Everything a task needs, picklable: the data in counting order, the score's
    statistics and formula, the constraints."""

    def __init__(self, contract, constraints: Constraints):
        extra = dict(contract.bound_statistics())
        extra[_H] = entropy_statistic()
        plan = StatisticPlan(contract, extra_statistics=extra)
        self.contract = contract
        self.constraints = constraints
        self.keys, self.tables, self.masses = plan.count_arrays()
        self.codes = plan.encoded.codes
        self.weights = plan.encoded.weights
        self.arities = plan.encoded.arities.astype(np.int64)
        self.n_samples = plan.n_samples
        # internal (counting) position of each score position, and back
        self.to_internal = np.array([plan.encoded.index[v] for v in constraints.variables])
        self.to_score = np.empty_like(self.to_internal)
        self.to_score[self.to_internal] = np.arange(len(self.to_internal))
        # the base classes' superset_bound returns None: no bound
        self.bounded = type(contract).superset_bound not in (
            StatisticScore.superset_bound,
            PgmpyScoreAdapter.superset_bound,
        )
        self.monotone = tuple(contract.monotone_family_statistics())
        n = self.n_samples
        self.tol_abs = _TIE * (n * math.log(n + 1.0) + 1.0)

    def internal_order(self) -> list:
        """Score positions in counting order (decreasing entropy)."""
        return [int(v) for v in self.to_score]


class _Task:
    """The candidate search of some children, sharing one store of counted subsets."""

    def __init__(self, problem: _StatisticProblem, children, n_threads: int):
        self.problem = problem
        n_vars = len(problem.arities)
        n = problem.n_samples
        self.h = problem.keys.index(_H)
        constraints = problem.constraints
        self.binom = _binomials(n_vars, max(min(constraints.max_parents + 1, n_vars), 1))
        self.store = _Store(problem, self.binom, n_threads)
        self.lattices = _lattices(
            constraints, children, problem.to_internal, self.binom, problem.tol_abs
        )
        self.seconds = {"scoring": 0.0, "bounds and dominance": 0.0}
        # N H(u) of each variable, bounding the likelihood gain of adding it
        singles = np.arange(n_vars, dtype=np.int64)[:, None]
        self.store.ensure(
            [singles, np.zeros((1, 0), dtype=np.int64)],
            _budget.start_bytes(problem),
            f"the start of the search on {n_vars} variables",
        )
        self.gains = n * math.log(n) - self.store.get(singles)[self.h]
        # the log-likelihood given every admissible parent at once
        start = time.perf_counter()
        self.ll_top = []
        for lat in self.lattices:
            top = np.sort(np.concatenate([lat.required, lat.allowed]))[None, :]
            fam = lat.families(top)
            h_top, h_fam = _kernels.listed_subset_statistics(
                np.concatenate([np.pad(top, ((0, 0), (0, 1)), constant_values=-1), fam]),
                np.array([top.shape[1], fam.shape[1]]),
                problem.codes,
                problem.arities,
                problem.tables[[self.h]],
                np.zeros(0),
                weights=problem.weights,
            )[0]
            self.ll_top.append(min(0.0, h_fam - h_top))
        self.store.seconds += time.perf_counter() - start

    def _families(self, i: int, parents: np.ndarray, family: dict, parent_stats) -> Families:
        problem, lat = self.problem, self.lattices[i]
        arities = problem.arities
        return Families(
            child=problem.constraints.variables[problem.to_score[lat.child]],
            child_arity=int(arities[lat.child]),
            # exact below 2**53, the nearest float above
            n_parent_configs=np.prod(arities[parents].astype(np.float64), axis=1),
            n_parents=parents.shape[1],
            n_samples=problem.n_samples,
            family=family,
            parents=dict(zip(problem.keys, parent_stats, strict=True)),
        )

    def score_counted(self, i: int, parents, family_stats, parent_stats):
        """``(families, scores)``: the local scores of lattice ``i``'s ``parents`` from
        their counted statistics (arrays of shape (statistics, sets), of the families
        and of the parents), and the :class:`Families` they were computed from."""
        family = dict(zip(self.problem.keys, family_stats, strict=True))
        families = self._families(i, parents, family, parent_stats)
        scores = self.problem.contract.local_from_statistics(families)
        return families, np.broadcast_to(np.asarray(scores, dtype=np.float64), (parents.shape[0],))

    def evaluate(self, i: int, parents: np.ndarray, families_rows: np.ndarray):
        """Local scores and superset bounds (or None) of lattice ``i``'s current sets."""
        problem, lat = self.problem, self.lattices[i]
        start = time.perf_counter()
        family_stats = self.store.get(families_rows)
        parent_stats = self.store.get(parents)
        families, scores = self.score_counted(i, parents, family_stats, parent_stats)
        mid = time.perf_counter()
        bounds = None
        if problem.bounded and lat.can_grow():
            ll = family_stats[self.h] - parent_stats[self.h]
            supersets = lat.supersets(problem.arities, self.gains, ll, self.ll_top[i])
            bounds = problem.contract.superset_bound(families, supersets)
        self.seconds["scoring"] += mid - start
        self.seconds["bounds and dominance"] += time.perf_counter() - mid
        return scores, bounds, {k: families.family[k] for k in problem.monotone}

    def screen(self, i: int, parents: np.ndarray) -> None:
        r"""Leave unscored the sets of lattice ``i`` that an optimistic score shows
        dominated, before their families are counted: each monotone family statistic
        (see ``monotone_family_statistics``) of ``P + v`` is at most that of every
        ``P - u + v`` (counted, or itself bounded so, at the previous level), so the
        formula with the smallest of those is at least :math:`s(v \mid P)`. This shows
        ``P`` dominated, not its supersets: they are still visited."""
        lat, keys = self.lattices[i], self.problem.monotone
        if not keys or lat.level == 0 or parents.shape[0] == 0:
            return
        start = time.perf_counter()
        m = parents.shape[0]
        family = {k: lat.monotone_family[k][lat.subsets].min(axis=1) for k in keys}
        families = self._families(i, parents, family, self.store.get(parents))
        upper = np.broadcast_to(self.problem.contract.local_from_statistics(families), (m,))
        lat.screen(upper, family)
        self.seconds["bounds and dominance"] += time.perf_counter() - start

    def _set_size(self, lattice_ids, added: int = 0) -> int:
        """The largest parent set of the lattices' current level (``added``: more)."""
        lattices = self.lattices
        return max(len(lattices[i].required) + lattices[i].level + added for i in lattice_ids)

    def _advance(self, growing) -> list:
        """Move the ``growing`` lattices to their next level, once it is known to fit in
        memory; those that have sets left."""
        if not growing:
            return []
        start = time.perf_counter()
        sizes = {i: self.lattices[i].next_size() for i in growing}
        n_sets = sum(m for m, _ in sizes.values())
        size = self._set_size(growing, 1)
        _budget.check(
            _budget.advance_bytes(self, sizes),
            f"the {n_sets} parent sets of size {size} next",
            self.problem.constraints,
        )
        still = [i for i in growing if self.lattices[i].advance()]
        self.seconds["bounds and dominance"] += time.perf_counter() - start
        return still

    def run(self, show_progress: bool, deadline: float | None = None) -> None:
        """Every lattice's search, level by level, until they end or ``deadline`` (a
        time of :func:`._lattice.passed`; never before the first level) stops them."""
        lattices = self.lattices
        active = list(range(len(lattices)))
        bar = progress_bar(show_progress, "candidate sets", leave=False, unit=" levels")
        try:
            with keep_alive(bar):  # a level can take minutes: lines at their period
                while active:
                    if lattices[active[0]].level and passed(deadline):
                        for i in active:
                            lattices[i].stop()
                        break
                    begun, n_sets = time.perf_counter(), sum(lattices[i].X.shape[0] for i in active)
                    rows = _budget.rows_bytes(self, active)
                    what = f"the {n_sets} parent sets of size {self._set_size(active)}"
                    _budget.check(rows, what, self.problem.constraints)
                    if self.problem.monotone:
                        self.store.ensure([lattices[i].parents() for i in active], rows, what)
                        for i in active:
                            self.screen(i, lattices[i].parents())
                    sets = {i: lattices[i].scored_parents() for i in active}
                    sets = {i: (p, lattices[i].families(p)) for i, p in sets.items()}
                    blocks = [block for pair in sets.values() for block in pair]
                    self.store.ensure(blocks, _budget.scoring_bytes(self, active), what)
                    for i in active:
                        if lattices[i].level and passed(deadline):  # between variables
                            lattices[i].stop()  # generated, unscored: rule 8
                            continue
                        scores, bounds, monotone = self.evaluate(i, *sets[i])
                        start = time.perf_counter()
                        lattices[i].record(scores, bounds, monotone)
                        self.seconds["bounds and dominance"] += time.perf_counter() - start
                    del sets
                    growing = [i for i in active if lattices[i].open.any()]
                    per_set = (time.perf_counter() - begun) / max(n_sets, 1)
                    if _final.ready(self, growing, deadline, per_set):
                        _final.run(self, growing, self.store.n_threads, deadline)
                        growing = []
                    elif passed(deadline):
                        for i in growing:
                            lattices[i].stop()
                        growing = []
                    active = self._advance(growing)
                    if active:
                        sizes = [len(lattices[i].required) + lattices[i].level for i in active]
                        self.store.forget_below(min(sizes))
                    bar.update(1)
        finally:  # a SearchMemoryError ends the display too
            bar.close()


def _statistic_task(
    problem: _StatisticProblem, children, n_threads, show_progress, deadline=None
) -> dict:
    """Candidate parent sets of ``children`` (score positions), sharing one counting,
    until ``deadline`` (see :meth:`_Task.run`)."""
    task = _Task(problem, children, n_threads)
    task.run(show_progress, deadline)
    out = []
    for v, lat in zip(children, task.lattices, strict=True):
        res = lat.result()
        res["variable"] = v
        res["parent_sets"] = [np.sort(problem.to_score[b], axis=1) for b in res["parent_sets"]]
        out.append(res)
    return {
        "children": out,
        "timings": {**task.seconds, "counting": task.store.seconds},
        "counted": task.store.n_counted,
    }


# -- scores without a contract: local_score, dominance only ---------------------------------


class _GenericProblem:
    def __init__(self, score, constraints: Constraints):
        self.score = score
        self.constraints = constraints


def _generic_task(problem: _GenericProblem, children, deadline=None) -> dict:
    constraints = problem.constraints
    variables = constraints.variables
    n_vars = len(variables)
    binom = _binomials(n_vars, max(min(constraints.max_parents + 1, n_vars), 1))
    identity = np.arange(n_vars)
    seconds = {"scoring": 0.0, "bounds and dominance": 0.0}
    out = []
    for v, lat in zip(children, _lattices(constraints, children, identity, binom), strict=True):
        while True:
            start = time.perf_counter()
            parents = lat.parents()
            scores = np.array(
                [
                    problem.score.local_score(variables[v], tuple(variables[u] for u in p))
                    for p in parents.tolist()
                ],
                dtype=np.float64,
            )
            mid = time.perf_counter()
            lat.record(scores, None)
            grows = lat.advance()
            seconds["scoring"] += mid - start
            seconds["bounds and dominance"] += time.perf_counter() - mid
            if not grows:
                break
            if passed(deadline):
                lat.stop()
                break
        res = lat.result()
        res["variable"] = v
        out.append(res)
    return {"children": out, "timings": seconds}
