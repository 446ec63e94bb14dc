"""Primal heuristics over candidate families: networks from scores and LP values.

A sink-finding greedy (after GOBNILP's ``heur_sinks``) that builds a DAG by
placing the variable that costs the others least last, optionally guided by LP
values, a family-swap local search that improves it, and an iterated order-based
local search (Teyssier and Koller 2005) over the variable orders. The solver
(:mod:`._solver`) runs the first two before the search and on LP solutions; A*
(:mod:`._astar`) for its first network and to complete an open node; both engines
improve the network they return with the third when a limit stopped them, and the
portfolio's bound-first solver its first network.
"""

from __future__ import annotations

import math
import time

import numpy as np

from ..._jit import njit
from ._clusters import _by_parent
from ._families import _Families

__all__: list[str] = []

#: Rounds of the iterated order search (:func:`_order_search`) at most, and the variables
#: moved at random in each round; fewer rounds on large candidate sets, about
#: ``ORDER_WORK / (variables * candidates)`` (at least 10), so that it takes a second or two.
ORDER_ROUNDS = 1000
ORDER_KICK = 3
ORDER_WORK = 2e8


def _greedy(fam: _Families, weights=None, available=None):
    """A DAG by choosing sinks one at a time; ``None`` if the candidates block it.

    The variable placed last among those left (the sink) may take any parents
    among the others left, and gets its best-scoring allowed family. The sink
    is the variable whose removal costs the others the least (their best
    allowed families lose it as a possible parent); with LP values as
    ``weights`` (in the spirit of GOBNILP's sink heuristic), it is the variable
    whose placement destroys the least LP value (on the allowed families of
    the others that have it as a parent), the cost breaking ties. Families
    where ``available`` is False are never chosen.

    A family is allowed while ``available`` and none of its parents is placed; the
    kernel reads that off as it scans (no pass over every family per sink: 100 sinks
    over baudio's 9,597,500 candidates took 6-8 s), keeps where each scan stopped
    (allowed families only become fewer), and sums the LP values over the families
    that have some.
    """
    blocked = np.zeros(len(fam), dtype=np.bool_)
    if available is not None:
        blocked[~np.asarray(available, dtype=bool)] = True
    w = np.zeros(len(fam)) if weights is None else np.asarray(weights, dtype=np.float64)
    valued = np.flatnonzero(w > 0.0) if weights is not None else np.zeros(0, dtype=np.int64)
    args = (fam.start, fam.child, fam.padded, fam.size, fam.score, w, weights is not None)
    choice, ok = _greedy_kernel(*args, blocked, valued)
    return choice if ok else None


@njit(cache=True)
def _allowed(f, blocked, parents, size, left):
    if blocked[f]:
        return False
    for t in range(size[f]):
        if not left[parents[f, t]]:
            return False
    return True


@njit(cache=True)
def _next_without(f, p, end, blocked, parents, size, left):
    """The first allowed family from ``f`` to ``end`` (excluded) without parent ``p``, or
    -1."""
    for h in range(f, end):
        if not _allowed(h, blocked, parents, size, left):
            continue
        has = False
        for t in range(size[h]):
            if parents[h, t] == p:
                has = True
                break
        if not has:
            return h
    return -1


@njit(cache=True)
def _greedy_kernel(start, child, parents, size, score, weights, use_weights, blocked, valued):
    n = start.size - 1
    left = np.ones(n, dtype=np.bool_)
    choice = np.full(n, -1, dtype=np.int64)
    best_f = start[:-1].copy()  # scans resume where they stopped: allowed ones only go
    after = np.full((n, parents.shape[1]), -1, dtype=np.int64)  # per parent slot of best_f
    cost = np.zeros(n)
    lost = np.zeros(n)
    for _ in range(n):
        for v in range(n):
            if not left[v]:
                continue
            b = best_f[v]
            while b < start[v + 1] and not _allowed(b, blocked, parents, size, left):
                b += 1
            if b == start[v + 1]:
                return choice, False
            if b != best_f[v] or after[v, 0] < 0:
                after[v, :] = b + 1
            best_f[v] = b
        cost[:] = 0.0
        for u in range(n):
            if not left[u]:
                continue
            f = best_f[u]
            for j in range(size[f]):
                p = parents[f, j]
                g = _next_without(after[u, j], p, start[u + 1], blocked, parents, size, left)
                if g < 0:
                    after[u, j] = start[u + 1]
                    cost[p] = np.inf
                else:
                    after[u, j] = g
                    cost[p] += score[f] - score[g]
        if use_weights:
            lost[:] = 0.0
            for f in valued:
                if left[child[f]] and _allowed(f, blocked, parents, size, left):
                    for t in range(size[f]):
                        lost[parents[f, t]] += weights[f]
            for v in range(n):
                lost[v] = math.floor(lost[v] * 1e6 + 0.5)  # compare to 1e-6
        sink = -1
        for v in range(n):
            if not left[v]:
                continue
            if sink < 0:
                sink = v
            elif use_weights and lost[v] != lost[sink]:
                if lost[v] < lost[sink]:
                    sink = v
            elif cost[v] < cost[sink]:
                sink = v
        if not cost[sink] < np.inf:
            return choice, False
        choice[sink] = best_f[sink]
        left[sink] = False
    return choice, True


def _improve(fam: _Families, choice, available=None):
    """Local search: switch one variable at a time to a better family that keeps the DAG.

    Variables in order, again while one switched: a variable takes its first family (best
    first) better than its current one, allowed (``available``), whose parents are none of
    its descendants. Compiled (:func:`_improve_kernel`): in Python it was 45% of the sink
    heuristic's time on hailfinder (56 variables, 3,807 candidates; cProfile)."""
    allowed = (
        np.ones(len(fam), dtype=np.bool_)
        if available is None
        else np.asarray(available, dtype=np.bool_)
    )
    return _improve_kernel(
        fam.start, fam.padded, fam.size, np.array(choice, dtype=np.int64), allowed
    )


@njit(cache=True)
def _improve_kernel(start, parents, size, choice, allowed):
    n = start.size - 1
    desc = np.zeros(n, dtype=np.bool_)
    stack = np.empty(n, dtype=np.int64)
    improved = True
    while improved:
        improved = False
        for v in range(n):
            current = choice[v]
            if current == start[v]:
                continue  # already its best candidate
            # the children of u: kids[ptr[u]:ptr[u + 1]] (the chosen families by parent)
            ptr, kids = _by_parent(n, parents[choice], size[choice])
            desc[:] = False
            desc[v] = True
            stack[0] = v
            top = 1
            while top > 0:
                top -= 1
                u = stack[top]
                for j in range(ptr[u], ptr[u + 1]):
                    c = kids[j]
                    if not desc[c]:
                        desc[c] = True
                        stack[top] = c
                        top += 1
            for f in range(start[v], current):  # better candidates, best first
                if not allowed[f]:
                    continue
                ok = True
                for t in range(size[f]):
                    if desc[parents[f, t]]:
                        ok = False
                        break
                if ok:
                    choice[v] = f
                    improved = True
                    break
    return choice


def _topological_order(fam: _Families, choice) -> np.ndarray:
    """An order of the variables in which every parent of ``choice`` comes first (and
    every class of interchangeable variables is in order: ``preds``)."""
    parents = [fam.preds[f] for f in choice]
    order: list[int] = []
    placed = np.zeros(fam.n, dtype=bool)
    while len(order) < fam.n:
        for v in range(fam.n):
            if not placed[v] and all(placed[p] for p in parents[v]):
                placed[v] = True
                order.append(v)
    return np.array(order, dtype=np.int64)


def _order_search(
    fam: _Families, choice, seed: int = 0, available=None, rounds=None, deadline=None
):
    """Iterated order-based local search (Teyssier and Koller 2005) over the candidates.

    An order of the variables gives each variable its best candidate whose parents all
    come before it. The local search moves one variable at a time to the place in the
    order that raises the total most, until no move does; each of ``rounds`` rounds
    then moves :data:`ORDER_KICK` random variables to random places (a seeded,
    deterministic generator) and searches again from there, going on from the new
    local optimum when it is at least as good (by default :data:`ORDER_ROUNDS`, fewer
    on large candidate sets), and none begun after ``deadline`` (a
    :func:`time.perf_counter` reading; None: no deadline). Starting from the order of ``choice``
    (a DAG), the network returned is never worse than ``choice``; families where
    ``available`` is False are never chosen. On hailfinder (56 variables, BDeu(1),
    N = 10000, 3807 candidates) it finds a network 0.004% from the optimum in 0.6 s;
    branch and cut's own heuristics were 0.1% away after 20 s and met the optimum after
    about 115 s. The engines use it on the network they return after a limit; as a
    first network it made SCIP's default search slower, so only the bound-first solver
    starts from it (see :func:`._solver._first_network`).
    """
    if rounds is None:
        rounds = min(ORDER_ROUNDS, max(10, int(ORDER_WORK / (fam.n * len(fam)))))
    blocked = np.zeros(len(fam), dtype=np.bool_)
    if available is not None:
        blocked[~np.asarray(available, dtype=bool)] = True
    choice = np.asarray(choice, dtype=np.int64)
    blocked[choice] = False  # the start stays possible
    args = (fam.start, fam.padded, fam.size, fam.score)
    best, order, ok = _order_kernel(*args, _topological_order(fam, choice), blocked)
    if not ok or fam.total(best) < fam.total(choice):  # pragma: no cover - never worse
        best, order = choice, _topological_order(fam, choice)
    best_total = current_total = fam.total(best)
    current = order
    rng = np.random.default_rng(seed)
    for _ in range(rounds):
        if deadline is not None and time.perf_counter() >= deadline:
            break
        new, order, ok = _order_kernel(*args, perturb(current, rng), blocked)
        if not ok:  # some variable has no allowed candidate in this order
            continue
        total = fam.total(new)
        if total >= current_total:
            current, current_total = order, total
        if total > best_total:
            best, best_total = new, total
    return best


def perturb(order, rng, moves: int = ORDER_KICK) -> np.ndarray:
    """``order`` with ``moves`` random variables each moved to a random place (the kick
    of :func:`_order_search` and the memetic search's mutation)."""
    kicked = list(order)
    for _ in range(min(moves, len(kicked))):
        v = kicked.pop(int(rng.integers(len(kicked))))
        kicked.insert(int(rng.integers(len(kicked) + 1)), v)
    return np.array(kicked, dtype=np.int64)


@njit(cache=True)
def _fit(x, pos, start, parents, size, blocked):
    """The best candidate of ``x`` whose parents all come before it (-1: none)."""
    for f in range(start[x], start[x + 1]):
        if blocked[f]:
            continue
        ok = True
        for j in range(size[f]):
            if pos[parents[f, j]] > pos[x]:
                ok = False
                break
        if ok:
            return f
    return -1


@njit(cache=True)
def _uses(f, p, parents, size):
    for j in range(size[f]):
        if parents[f, j] == p:
            return True
    return False


@njit(cache=True)
def _order_kernel(start, parents, size, score, order, blocked):
    """The local search of :func:`_order_search` from ``order``: (each variable's family,
    the final order, False if some variable has no allowed family in ``order``)."""
    n = start.size - 1
    order = order.copy()
    pos = np.empty(n, dtype=np.int64)
    pos[order] = np.arange(n)
    fit = np.empty(n, dtype=np.int64)
    for x in range(n):
        fit[x] = _fit(x, pos, start, parents, size, blocked)
        if fit[x] < 0:
            return fit, order, False
    tmp_fit = fit.copy()
    tmp_pos = pos.copy()
    tmp_order = order.copy()
    improved = True
    while improved:
        improved = False
        for v in range(n):
            i = pos[v]
            best_gain, best_j = 1e-9 * (1.0 + abs(score[fit[v]])), i
            for step in (1, -1):  # later, then earlier: swap v with its neighbour
                tmp_pos[:] = pos
                tmp_order[:] = order
                tmp_fit[:] = fit
                gain = 0.0
                j = i
                while 0 <= j + step < n:
                    w = tmp_order[j + step]
                    tmp_order[j], tmp_order[j + step] = w, v
                    tmp_pos[w], tmp_pos[v] = j, j + step
                    j += step
                    # the one now first loses the other as a possible parent, the one now
                    # second gains it
                    first, second = (w, v) if step == 1 else (v, w)
                    if _uses(tmp_fit[first], second, parents, size):
                        g = _fit(first, tmp_pos, start, parents, size, blocked)
                        if g < 0:
                            break
                        gain += score[g] - score[tmp_fit[first]]
                        tmp_fit[first] = g
                    g = _fit(second, tmp_pos, start, parents, size, blocked)
                    gain += score[g] - score[tmp_fit[second]]
                    tmp_fit[second] = g
                    if gain > best_gain:
                        best_gain, best_j = gain, j
            if best_j != i:  # move v there
                if best_j > i:
                    order[i:best_j] = order[i + 1 : best_j + 1].copy()
                else:
                    order[best_j + 1 : i + 1] = order[best_j:i].copy()
                order[best_j] = v
                pos[order] = np.arange(n)
                for x in range(n):
                    fit[x] = _fit(x, pos, start, parents, size, blocked)
                improved = True
    return fit, order, True
