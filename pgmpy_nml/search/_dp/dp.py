"""The subset dynamic programming end to end (Silander and Myllymaki 2006).

(1) the local score of every variable for every parent set (a plan,
:mod:`.plans`), (2) the best parent set of every variable within every candidate
set, (3) the best sink of every variable subset, (4) the optimal order and the
network. :math:`O(n^2 2^n)` time and :math:`O(n 2^n)` memory whatever the data;
:func:`check_memory` refuses a run that would not fit before anything is
allocated. :class:`~pgmpy_nml.ExactSearch` (``method="dp"``) runs it.
"""

from __future__ import annotations

import time

import numpy as np

from ..._memory import format_bytes
from ..._progress import progress_bar
from ...exceptions import SearchMemoryError
from . import _kernels
from .plans import popcounts

__all__ = ["check_memory", "memory_estimate", "optimal_network"]

#: Seconds (on one core, roughly) of one best-parent-set step (a parent set times a
#: member) and one best-sink step (a subset times a member), for the progress bar.
_COST_PARENT_STEP, _COST_SINK_STEP = 2e-9, 2e-9


def memory_estimate(n_vars: int, n_stats: int, n_samples: int, n_threads: int) -> dict:
    """Peak bytes of each part of an exact search on ``n_vars`` variables."""
    subsets = 2**n_vars
    parent_sets = 2 ** max(n_vars - 1, 0)
    return {
        "subset statistics": subsets * (n_stats + 1) * 8,
        "local scores and best parent sets": n_vars * parent_sets * (8 + 4),
        "best sinks": subsets * 9,
        "working arrays": parent_sets * (2 * n_stats * 8 + 3 * 8 + 2)
        + n_threads * n_vars * n_samples * 8 * 2,
    }


def check_memory(plan, n_threads: int, limit: float) -> int:
    """The bytes the DP on ``plan`` needs; raises :class:`~pgmpy_nml.exceptions.SearchMemoryError`
    when that is over ``limit`` (nothing is allocated before)."""
    n_vars = len(plan.variables)
    parts = memory_estimate(n_vars, plan.n_stats, plan.n_samples, n_threads)
    need = sum(parts.values())
    if need > limit:
        detail = ", ".join(f"{name} {format_bytes(b)}" for name, b in parts.items())
        fewer = sum(memory_estimate(n_vars - 1, plan.n_stats, plan.n_samples, 1).values())
        raise SearchMemoryError(
            f"ExactSearch on {n_vars} variables needs about {format_bytes(need)} ({detail}), "
            f"more than the limit of {format_bytes(limit)} (max_memory; by default 90% of the "
            f"memory available now). Each variable fewer halves the need ({n_vars - 1} "
            f"variables: about {format_bytes(fewer)}); raise max_memory only if that much "
            "will be free.",
            limit_parameter="max_memory",
        )
    return int(need)


def optimal_network(plan, constraints, n_threads: int, n_jobs: int, show_progress: bool, timings):
    """Local scores, best parent sets, best sinks: the optimal network's score and the
    parents (positions) of every variable.

    One progress bar for the three phases, each weighted by its estimated cost;
    ``timings`` gets the seconds of each phase.
    """
    n_vars = len(plan.variables)
    k = constraints.max_parents
    cost = {
        "local scores": plan.cost(k) / n_threads,
        "best parent sets": _COST_PARENT_STEP * n_vars * 2 ** (n_vars - 2) * (n_vars - 1),
        "best sinks": _COST_SINK_STEP * 2**n_vars * n_vars,
    }
    per_unit = cost["local scores"] / max(plan.work(k), 1)
    with _progress(show_progress, sum(cost.values())) as bar:
        ls = plan.local_scores(
            k, n_threads, n_jobs, lambda done: bar.update(done * per_unit), timings
        )
        start = time.perf_counter()
        _apply_constraints(ls, constraints)
        best = np.empty(ls.shape, dtype=np.int32)
        for v0 in range(0, n_vars, n_threads):
            block = slice(v0, v0 + n_threads)
            best[block] = _kernels.best_parent_sets_all(ls[block])
            bar.update(cost["best parent sets"] * len(best[block]) / n_vars)
        timings["best parent sets"] = time.perf_counter() - start
        start = time.perf_counter()
        network_score, sink = _kernels.best_sinks(ls)
        bar.update(cost["best sinks"])
        timings["best sinks"] = time.perf_counter() - start
    full = (1 << n_vars) - 1
    if not np.isfinite(network_score[full]):
        raise ValueError(
            "No DAG satisfies the constraints: the required edges form a cycle, or a "
            "variable needs more required parents than max_parents allows."
        )
    return float(network_score[full]), _parents_from_sinks(sink, best, n_vars)


def _progress(show_progress: bool, total: float):
    return progress_bar(
        show_progress,
        "exact search",
        total=total,
        leave=True,
        unit="",
        bar_format="{l_bar}{bar}| {percentage:3.0f}% [{elapsed}<{remaining}]",
    )


def _parents_from_sinks(sink, best, n_vars) -> list[list[int]]:
    """The optimal parents of every variable, following the best sinks from the full set."""
    parents: list[list[int]] = [[] for _ in range(n_vars)]
    w = (1 << n_vars) - 1
    while w:
        s = int(sink[w])
        rest = w ^ (1 << s)
        c = (rest & ((1 << s) - 1)) | ((rest >> (s + 1)) << s)
        chosen = int(best[s, c])
        parents[s] = [b if b < s else b + 1 for b in range(n_vars - 1) if (chosen >> b) & 1]
        w = rest
    return parents


def _apply_constraints(ls, constraints) -> None:
    """-inf for parent sets that break the parent limit or the expert knowledge."""
    n_vars = ls.shape[0]
    too_big = popcounts(n_vars - 1) > constraints.max_parents
    forbidden, required = constraints.masks()
    for v in range(n_vars):
        row = ls[v]
        row[too_big] = -np.inf
        if forbidden[v] or required[v]:
            full = _kernels.expand_masks(n_vars, v)
            if forbidden[v]:
                row[(full & forbidden[v]) != 0] = -np.inf
            if required[v]:
                row[(full & required[v]) != required[v]] = -np.inf
