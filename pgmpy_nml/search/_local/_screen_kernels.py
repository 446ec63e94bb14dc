"""Compiled loops of the candidate-restricted local search (see :mod:`.screen`).

- :func:`pair_information`: the empirical mutual information of every pair of
  variables, each pair's count table counted once (popcounts of ANDed row
  bitsets, or a histogram over the rows when there are no bitsets);
- :func:`best_move_restricted`: :func:`._move_kernels.best_move` scanning only
  the additions allowed by the candidate sets and the edges present, in the
  same order and with the same tie rule;
- :func:`reach_add`: the transitive closure after adding one edge, in place.
"""

from __future__ import annotations

import numpy as np

from ..._jit import njit
from ._bit_kernels import pair_cells
from ._move_kernels import ADD, REVERSE, _is_tabu, _moved_hash, is_legal, move_delta

__all__ = ["best_move_restricted", "pair_information", "reach_add"]


@njit(cache=True, nogil=True)
def _xlogx(x):
    return x * np.log(x) if x > 0 else 0.0


@njit(cache=True, nogil=True)
def pair_information(codes, arities, bits, weights):
    """``mi[u, v]``: the empirical mutual information of variables ``u`` and ``v`` (nats).

    .. math:: I(U; V) = \\frac{1}{N} \\Big(\\sum_{ab} n_{ab} \\log n_{ab}
       - \\sum_a n_a \\log n_a - \\sum_b n_b \\log n_b + N \\log N\\Big)

    ``bits`` are the variables' state bitsets of :func:`._kernels.state_bits`
    (an empty array: count with a histogram over the rows instead). With bitsets
    the cells are those of :func:`._bit_kernels.pair_cells` (popcounts, the last
    row and column from the marginal counts). The diagonal is 0.
    Counted data: ``weights`` holds each row's count (and ``bits`` is empty); an
    empty array is one per row.
    """
    n_vars, n_rows = codes.shape
    weighted = weights.shape[0] > 0
    n = n_rows
    if weighted:
        n = 0
        for t in range(n_rows):
            n += weights[t]
    max_arity = max(1, arities.max())
    marginal = np.zeros((n_vars, max_arity), dtype=np.int64)
    entropy_part = np.zeros(n_vars)
    for i in range(n_vars):
        for t in range(n_rows):
            marginal[i, codes[i, t]] += weights[t] if weighted else 1
        for a in range(arities[i]):
            entropy_part[i] += _xlogx(float(marginal[i, a]))
    total = _xlogx(float(n))
    mi = np.zeros((n_vars, n_vars))
    cells = np.zeros(max_arity * max_arity, dtype=np.int64)
    use_bits = bits.shape[0] > 0
    for u in range(n_vars):
        r_u = arities[u]
        for v in range(u + 1, n_vars):
            r_v = arities[v]
            if use_bits:
                pair_cells(bits, u, v, r_u, r_v, marginal, cells)
            else:
                for c in range(r_u * r_v):
                    cells[c] = 0
                row_u, row_v = codes[u], codes[v]
                for t in range(n_rows):
                    cells[row_u[t] * r_v + row_v[t]] += weights[t] if weighted else 1
            joint = 0.0
            for c in range(r_u * r_v):
                joint += _xlogx(float(cells[c]))
            value = (joint - entropy_part[u] - entropy_part[v] + total) / n
            mi[u, v] = value
            mi[v, u] = value
    return mi


@njit(cache=True, nogil=True)
def reach_add(reach, u, v):
    """In place: the transitive closure ``reach`` after adding the edge ``u -> v``
    (``u`` and every ancestor of it now reach ``v`` and everything ``v`` reaches)."""
    n = reach.shape[0]
    for a in range(n):
        if (a == u or reach[a, u]) and not reach[a, v]:
            reach[a, v] = 1
            for b in range(n):
                reach[a, b] |= reach[v, b]


@njit(cache=True, nogil=True)
def best_move_restricted(
    parents,
    n_parents,
    reach,
    local,
    forbidden,
    required,
    max_parents,
    offsets,
    keys,
    network_hash,
    tabu,
    rtol,
    neutral,
    add_start,
    add_head,
    edges,
):
    """:func:`._move_kernels.best_move` over a sparse set of moves.

    Additions ``u -> v`` only for the heads ``add_head[add_start[u]:add_start[u + 1]]``
    of each tail ``u`` (ascending); deletions and reversals of the present edges
    ``edges`` (keys ``u * n + v``, ascending). The scan order (kind, tail, head)
    and the tie rule are :func:`best_move`'s, so with every pair listed both
    return the same move. The two scans share their test of a move line for line: a
    shared compiled helper (even ``inline="always"``) or one scan over listed heads for
    both made hill climbing on andes 1.3-4x slower (0.56 s -> 0.73-2.4 s of CPU), so
    they stay twins, each checked against the definition by ``tests/
    test_local_candidates.py::test_move_scan_against_its_definition_on_random_tables``.
    """
    n = parents.shape[0]
    best = -np.inf
    bk, bu, bv = -1, -1, -1
    for kind in range(3):
        n_items = n if kind == ADD else edges.shape[0]
        for item in range(n_items):
            if kind == ADD:
                u = item
                lo, hi = add_start[u], add_start[u + 1]
            else:
                u = edges[item] // n
                lo, hi = 0, 1
            for j in range(lo, hi):
                if kind == ADD:
                    v = add_head[j]
                    if u == v or parents[v, u]:
                        continue
                else:
                    v = edges[item] % n
                d = move_delta(kind, u, v, local, offsets)
                if kind != REVERSE and abs(d) < neutral:
                    continue
                if bk >= 0 and d <= best + rtol * max(1.0, abs(best)):
                    continue
                if not is_legal(
                    kind, u, v, parents, n_parents, reach, forbidden, required, max_parents
                ):
                    continue
                if tabu.shape[0] and _is_tabu(_moved_hash(kind, u, v, network_hash, keys), tabu):
                    continue
                best = d
                bk, bu, bv = kind, u, v
    return bk, bu, bv, best
