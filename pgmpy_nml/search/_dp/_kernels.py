"""Compiled loops of the subset dynamic programming (Silander & Myllymaki 2006).

Subsets of the ``n`` variables are bitmasks. A candidate parent set of
variable ``v`` is a mask over the other ``n - 1`` variables ("compressed"); it
expands to a full mask by inserting a zero bit at position ``v``.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ..._counting.subsets import _popcount
from ..._jit import njit

__all__ = ["best_parent_sets", "best_parent_sets_all", "best_sinks", "expand_masks"]


@njit(cache=True, nogil=True)
def expand_masks(n_vars, v):
    """Full masks of all parent sets of ``v`` (compressed masks 0 .. 2**(n-1) - 1)."""
    m = 1 << (n_vars - 1)
    out = np.empty(m, dtype=np.int64)
    low = (1 << v) - 1
    for c in range(m):
        out[c] = (c & low) | ((c >> v) << (v + 1))
    return out


@njit(cache=True, nogil=True)
def best_parent_sets(row):
    """In place: ``row[C] <- max over subsets D of C of row[D]``; returns the argmax sets.

    Ties go to the parent set with fewer members, then to the one met first.
    """
    m = row.shape[0]
    best = np.empty(m, dtype=np.int32)
    size = np.empty(m, dtype=np.int8)
    for c in range(m):
        s = row[c]
        b = c
        bs = _popcount(c)
        rest = c
        while rest:
            low = rest & -rest
            d = c ^ low
            if row[d] > s or (row[d] == s and size[d] < bs):
                s = row[d]
                b = best[d]
                bs = size[d]
            rest ^= low
        row[c] = s
        best[c] = b
        size[c] = bs
    return best


@njit(cache=True, nogil=True, parallel=True, serial_if=lambda ls: len(ls) == 1 or ls.size <= 2**17)
def best_parent_sets_all(ls):
    """:func:`best_parent_sets` for every variable's row, in parallel."""
    best = np.empty(ls.shape, dtype=np.int32)
    for v in prange(ls.shape[0]):
        best[v] = best_parent_sets(ls[v])
    return best


@njit(cache=True, nogil=True)
def best_sinks(bps):
    """Best network score of every variable subset and its best sink.

    ``score[W] = max_{s in W} score[W - s] + bps[s, compress(W - s, s)]``;
    ties go to the sink with the smallest index.
    """
    n_vars = bps.shape[0]
    full = 1 << n_vars
    score = np.empty(full)
    sink = np.empty(full, dtype=np.int8)
    score[0] = 0.0
    sink[0] = -1
    for w in range(1, full):
        best = -np.inf
        bs = -1
        for s in range(n_vars):
            bit = 1 << s
            if w & bit:
                u = w ^ bit
                c = (u & (bit - 1)) | ((u >> (s + 1)) << s)
                val = score[u] + bps[s, c]
                if val > best:
                    best = val
                    bs = s
        score[w] = best
        sink[w] = bs
    return score, sink
