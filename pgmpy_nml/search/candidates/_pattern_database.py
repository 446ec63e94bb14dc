r"""The heuristic of the A* search (:mod:`._astar`): a static pattern database.

The variables are split into groups of at most ``group_size`` (:func:`_partition`:
strongly linked variables together); each group's table holds, for every subset
:math:`R` of its variables not yet placed, the best score of placing :math:`R` when
every variable outside the group may be a parent. :func:`_h` sums the tables: an
admissible and consistent bound on what the variables not yet placed can still add
(the formulas are in :mod:`._astar`'s notes).
"""

from __future__ import annotations

import numpy as np

from ..._jit import njit
from ._families import _Families

__all__: list[str] = []


def _partition(fam: _Families, group_size: int) -> list[list[int]]:
    """Groups of variables, at most ``group_size`` each, strongly linked ones together."""
    n = fam.n
    if group_size >= n:
        return [list(range(n))]
    loss = np.zeros((n, n))
    for v in range(n):
        rows = fam.families(v)
        pm = fam.preds_mask(slice(rows.start, rows.stop))
        best = fam.score[rows.start]
        for u in range(n):
            if u == v:
                continue
            without = np.flatnonzero(~pm[:, u])
            # no candidate avoids u: u is a required parent, the link is as strong as it gets
            loss[v, u] = best - fam.score[rows.start + without[0]] if without.size else 1e300
    weight = loss + loss.T
    group = list(range(n))
    members = {v: [v] for v in range(n)}
    pairs = sorted(
        ((u, v) for u in range(n) for v in range(u + 1, n) if weight[u, v] > 0),
        key=lambda p: (-weight[p], p),
    )
    for u, v in pairs:
        a, b = group[u], group[v]
        if a == b or len(members[a]) + len(members[b]) > group_size:
            continue
        for w in members[b]:
            group[w] = a
        members[a].extend(members.pop(b))
    # a coarser partition is never a weaker bound: pack the groups, largest first
    bins: list[list[int]] = []
    for g in sorted(members.values(), key=lambda m: (-len(m), min(m))):
        for packed in bins:
            if len(packed) + len(g) <= group_size:
                packed.extend(g)
                break
        else:
            bins.append(list(g))
    return [sorted(b) for b in bins]


@njit(cache=True)
def _group_table(members, start, pmask, score):
    """``h_G(R)`` for every subset ``R`` of the group (bits in ``members`` order)."""
    k = members.size
    size = 1 << k
    gmask = np.int64(0)
    for j in range(k):
        gmask |= np.int64(1) << members[j]
    # best[j, S]: best score of member j with its parents inside the group within S
    best = np.full((k, size), -np.inf)
    for j in range(k):
        v = members[j]
        for f in range(start[v], start[v + 1]):
            inside = pmask[f] & gmask
            local = 0
            for t in range(k):
                if (inside >> members[t]) & 1:
                    local |= 1 << t
            if score[f] > best[j, local]:
                best[j, local] = score[f]
        for b in range(k):
            bit = 1 << b
            for s in range(size):
                if s & bit and best[j, s ^ bit] > best[j, s]:
                    best[j, s] = best[j, s ^ bit]
    table = np.full(size, -np.inf)
    table[0] = 0.0
    full = size - 1
    for r in range(1, size):
        top = -np.inf
        for j in range(k):
            if (r >> j) & 1:
                value = best[j, full ^ r] + table[r ^ (1 << j)]
                if value > top:
                    top = value
        table[r] = top
    return table


class _Heuristic:
    """The static pattern database as flat arrays for the kernels."""

    def __init__(self, fam: _Families, pmask, group_size: int):
        self.groups = _partition(fam, group_size)
        kmax = max(len(g) for g in self.groups)
        self.members = np.full((len(self.groups), kmax), -1, dtype=np.int64)
        self.sizes = np.array([len(g) for g in self.groups], dtype=np.int64)
        self.offsets = np.zeros(len(self.groups), dtype=np.int64)
        tables, offset = [], 0
        for i, g in enumerate(self.groups):
            members = np.array(g, dtype=np.int64)
            self.members[i, : len(g)] = members
            self.offsets[i] = offset
            tables.append(_group_table(members, fam.start, pmask, fam.score))
            offset += tables[-1].size
        self.tables = np.concatenate(tables)


@njit(cache=True, nogil=True)
def _h(mask, members, sizes, offsets, tables):
    total = 0.0
    for i in range(sizes.size):
        idx = 0
        for t in range(sizes[i]):
            if not (mask >> members[i, t]) & 1:
                idx |= 1 << t
        total += tables[offsets[i] + idx]
    return total
