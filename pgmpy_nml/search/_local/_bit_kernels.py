"""Compiled row bitsets of the variables' states, and the count table of a pair from them.

Shared by the family counting of :mod:`._kernels` and the mutual-information
screen of :mod:`._screen_kernels`. A variable's state bitsets are those of
:func:`state_bits` (row ``t`` in bit ``t % 64`` of word ``t // 64``).
"""

from __future__ import annotations

import numpy as np

from ..._jit import njit

__all__ = ["pair_cells", "state_bits"]


@njit(cache=True, nogil=True, inline="always")
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


@njit(cache=True, nogil=True)
def pair_cells(bits, u, v, r_u, r_v, marginals, cells):
    """``cells[a * r_v + b]``: the rows with ``u`` in state ``a`` and ``v`` in state ``b``.

    Only the cells of the first ``r_u - 1`` by ``r_v - 1`` states are popcounts of
    ANDed bitsets (those of an empty state of either are skipped); the last row and
    column follow from the marginal counts ``marginals[x, a]`` (rows with ``x`` in
    state ``a``).
    """
    words = bits.shape[2]
    for a in range(r_u):
        rest = marginals[u, a]
        for b in range(r_v - 1):
            c = 0
            if rest and marginals[v, b]:
                if a < r_u - 1:
                    for i in range(words):
                        c += _popcount(bits[u, a, i] & bits[v, b, i])
                else:  # the last state of u: the column's remainder
                    c = marginals[v, b]
                    for a2 in range(r_u - 1):
                        c -= cells[a2 * r_v + b]
            cells[a * r_v + b] = c
            rest -= c
        cells[a * r_v + r_v - 1] = rest


@njit(cache=True, nogil=True)
def state_bits(codes, arities):
    """``bits[i, a]``: the rows where variable ``i`` is in state ``a``, as a bitset
    (``uint64`` words, row ``t`` in bit ``t % 64`` of word ``t // 64``).

    An empty array turns the bitset counting of :func:`._kernels.item_statistics` off."""
    n_vars, n = codes.shape
    bits = np.zeros((n_vars, max(1, arities.max()), (n + 63) // 64), dtype=np.uint64)
    for i in range(n_vars):
        for t in range(n):
            bits[i, codes[i, t], t >> 6] |= np.uint64(1) << np.uint64(t & 63)
    return bits
