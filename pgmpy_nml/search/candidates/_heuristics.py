"""Primal heuristics over candidate families: networks from scores and LP values.

A sink-finding greedy (after GOBNILP's ``heur_sinks``) that builds a DAG by
placing the variable that costs the others least last, optionally guided by LP
values, and a family-swap local search that improves it. The solver
(:mod:`._solver`) runs them before the search and on LP solutions; A*
(:mod:`._astar`) for its first network and to complete an open node.
"""

from __future__ import annotations

import math

import numpy as np

from ..._jit import njit
from ._families import _Families

__all__: list[str] = []


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
    """
    blocked = np.zeros(len(fam), dtype=np.int64)
    if available is not None:
        blocked[~np.asarray(available, dtype=bool)] = 1
    w = np.zeros(len(fam)) if weights is None else np.asarray(weights, dtype=np.float64)
    choice, ok = _greedy_kernel(
        fam.start, fam.child, fam.padded, fam.size, fam.score, w, weights is not None, blocked
    )
    return choice if ok else None


@njit(cache=True)
def _greedy_kernel(start, child, parents, size, score, weights, use_weights, blocked):
    n = start.size - 1
    n_fam = parents.shape[0]
    left = np.ones(n, dtype=np.bool_)
    choice = np.full(n, -1, dtype=np.int64)
    best_f = np.zeros(n, dtype=np.int64)
    cost = np.zeros(n)
    lost = np.zeros(n)
    for _ in range(n):
        for v in range(n):
            if not left[v]:
                continue
            b = -1
            for f in range(start[v], start[v + 1]):
                if blocked[f] == 0:
                    b = f
                    break
            if b < 0:
                return choice, False
            best_f[v] = b
        cost[:] = 0.0
        for u in range(n):
            if not left[u]:
                continue
            f = best_f[u]
            for j in range(size[f]):
                p = parents[f, j]
                g = -1
                for h in range(f + 1, start[u + 1]):  # best first: the next allowed without p
                    if blocked[h] != 0:
                        continue
                    has = False
                    for t in range(size[h]):
                        if parents[h, t] == p:
                            has = True
                            break
                    if not has:
                        g = h
                        break
                if g < 0:
                    cost[p] = np.inf
                else:
                    cost[p] += score[f] - score[g]
        if use_weights:
            lost[:] = 0.0
            for f in range(n_fam):
                if blocked[f] == 0 and left[child[f]] and weights[f] > 0.0:
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
        for f in range(n_fam):
            for t in range(size[f]):
                if parents[f, t] == sink:
                    blocked[f] += 1
    return choice, True


def _descendants(fam: _Families, choice, v):
    children: list[list[int]] = [[] for _ in range(fam.n)]
    for u in range(fam.n):
        for p in fam.parents[choice[u]]:
            children[p].append(u)
    seen = {v}
    stack = [v]
    while stack:
        for c in children[stack.pop()]:
            if c not in seen:
                seen.add(c)
                stack.append(c)
    return seen


def _improve(fam: _Families, choice, available=None):
    """Local search: switch one variable at a time to a better family that keeps the DAG."""
    choice = np.array(choice, dtype=np.int64)
    improved = True
    while improved:
        improved = False
        for v in range(fam.n):
            current = choice[v]
            if current == fam.start[v]:
                continue  # already its best candidate
            desc = _descendants(fam, choice, v)
            for f in range(fam.start[v], current):  # better candidates, best first
                if available is not None and not available[f]:
                    continue
                if not any(p in desc for p in fam.parents[f]):
                    choice[v] = f
                    improved = True
                    break
    return choice
