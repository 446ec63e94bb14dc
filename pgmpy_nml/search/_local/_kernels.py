"""Compiled loops of the local search: family statistics of every one-edge change.

The moves themselves (closure, legality, the best move) are in :mod:`._move_kernels`.
Variables are positions in the data's column order; the network is a matrix
``parents[v, u] = 1`` iff ``u -> v``.

A family's count table is computed by popcounts of ANDed row bitsets when it
has at most :func:`bitset_cells` cells, by a histogram over the rows of mixed-radix
keys (those of the current parents computed once per child) when it has a few
more, and otherwise by the exact search's :func:`._kernels._count_step` (refine
the configurations of a variable set by one more variable);
:func:`._kernels._reduce` turns configuration counts into per-subset statistics
from tables of ``phi(N)`` and prior masses. The kernels know these tables,
never the score.

Tables may be filled lazily: an entry not computed yet is NaN. The counts of a
statistic that would read one are kept aside and the missing counts listed in
the thread's request buffer; once the caller has filled them in,
:func:`reduce_deferred` completes the statistics without counting again.

Working memory of one thread is a tuple made by :func:`new_workspace`.
One side of a family (0: its parent set, 1: the whole family), a tuple
``(tables, masses, stats, side)``.
"""

from __future__ import annotations

import numpy as np

from ..._counting.subsets import _count_step, _reduce, rising_cache
from ..._jit import njit
from ._bit_kernels import _popcount, pair_cells, state_bits

__all__ = [
    "CURRENT",
    "MINUS",
    "PLUS",
    "bitset_cells",
    "item_statistics",
    "new_workspace",
    "plan_items",
    "reduce_deferred",
    "state_bits",
    "take_requests",
    "with_lookup",
]

#: Candidate kinds of :func:`item_statistics`: the current parent set, one parent
#: more, one parent fewer.
CURRENT, PLUS, MINUS = 0, 1, 2


# -- working memory of one thread ----------------------------------------------------------
(
    _ROWS,  # (3, n): rows still sharing a configuration; two scratch, one for the parents
    _IDS,  # (3, n): their dense configuration ids
    _LOOKUP,  # configuration key -> dense id, valid where _STAMP holds the generation
    _STAMP,
    _GEN,  # (1,): the generation of _LOOKUP
    _WORK,  # (3, n): configuration counts and scratch
    _HIST,  # (n + 1,): count histogram of _reduce, all zero between calls
    _CELLS,  # full count tables, all zero between calls
    _MARKED,  # (N + 1,): counts requested since the last take_requests (N: the samples)
    _REQUEST,  # (N + 1,): those counts
    _N_REQUEST,  # (1,)
    _DEFERRED,  # reductions waiting for table entries: (col, side, n_obs, singles, counts)
    _DEFERRED_LOG_Q,  # their log_q
    _N_DEFERRED,  # (2,): used length, records
    _BASE,  # (4,): row, active rows, lone rows, complete: configurations of the parents
    _BASE_LOG_Q,  # (1,)
    _KEYS,  # (n,): configuration keys of the parents of row _KEYED[0]
    _KEYED,  # (1,)
    _PBITS,  # (bitset_cells, words): row bitsets of the configurations of those parents
    _PBITS_ROW,  # (1,): the row they belong to
    _MBITS,  # (bitset_cells, words): the same for the parents less one
    _WBITS,  # (words,): scratch bitset
    _RISING,  # _reduce's rising_cache (empty: every value computed)
) = range(23)

#: Tables of at most this many cells are counted with bitsets (one popcount pass
#: over ``n / 64`` words per cell), larger ones with a histogram over the rows: on
#: munin (N = 5000) bitsets are faster up to 1024 cells at least (the rows of the
#: children with parents: 3.9 s with 256, 3.3 s with 1024, 4.8 s with 64) ...
BITSET_CELLS = 1024
#: ... unless the configurations' bitsets of a workspace (two arrays of that many
#: bitsets) would take more than this many bytes each; never fewer than 256 cells.
BITSET_CONFIG_BYTES = 1 << 24


def bitset_cells(n_samples: int) -> int:
    """The largest table counted with bitsets for ``n_samples`` rows (see ``BITSET_CELLS``)."""
    words = (n_samples + 63) // 64
    return max(256, min(BITSET_CELLS, BITSET_CONFIG_BYTES // (8 * words)))


def new_workspace(
    n_samples: int, direct_cells: int, bitsets: bool = True, total: int | None = None
) -> tuple:
    """Working memory of one thread for :func:`item_statistics` (see the ``_ROWS``... names).

    ``n_samples`` rows of data; ``total`` the largest count (counted data: the sum
    of the rows' weights; default ``n_samples``). Without the lookup tables of
    refined configurations: see :func:`with_lookup`."""
    n = n_samples
    top = n if total is None else int(total)
    words = (n + 63) // 64
    configs = bitset_cells(n) if bitsets else 0
    return (
        np.zeros((3, n), dtype=np.int64),
        np.zeros((3, n), dtype=np.int64),
        np.zeros(0, dtype=np.int64),
        np.zeros(0, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.zeros((3, n), dtype=np.int64),
        np.zeros(n + 1, dtype=np.int64),
        np.zeros(direct_cells, dtype=np.int64),
        np.zeros(top + 1, dtype=np.uint8),
        np.zeros(top + 1, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.zeros(max(2 * n, 1 << 16), dtype=np.int64),
        np.zeros(max(2 * n, 1 << 14)),
        np.zeros(2, dtype=np.int64),
        np.zeros(4, dtype=np.int64),
        np.zeros(1),
        np.zeros(n, dtype=np.int64),
        np.zeros(1, dtype=np.int64),
        np.zeros((configs, words), dtype=np.uint64),
        np.zeros(1, dtype=np.int64),
        np.zeros((configs, words), dtype=np.uint64),
        np.zeros(words, dtype=np.uint64),
        rising_cache(0),
    )


def with_lookup(ws, size: int) -> tuple:
    """``ws`` with lookup tables of ``size`` entries for refining configurations
    (``n_samples * max_arity + 1``; they are needed only for families with many cells)."""
    if ws[_LOOKUP].shape[0] >= size:
        return ws
    lookup = np.zeros(size, dtype=np.int64)
    stamp = np.full(size, -1, dtype=np.int64)
    return (*ws[:_LOOKUP], lookup, stamp, *ws[_STAMP + 1 :])


def take_requests(ws) -> np.ndarray:
    """The counts the kernels requested in this workspace, and clear the list."""
    n_request = int(ws[_N_REQUEST][0])
    counts = ws[_REQUEST][:n_request].copy()
    ws[_MARKED][counts] = 0
    ws[_N_REQUEST][0] = 0
    return counts


# -- statistics of the families one edge away --------------------------------------------
@njit(cache=True, nogil=True, inline="always")
def _reduce_side(counts, n_obs, singles, log_q, side, col, ws):
    """:func:`._kernels._reduce` into column ``col`` of one side.

    If its tables are unknown (NaN) at some counts, those counts are requested
    and the reduction is deferred: the counts are kept in the thread's
    ``deferred`` buffer for :func:`reduce_deferred`. Returns False only if the
    buffer is full (the family must then be counted again).
    """
    tables, masses, stats, side_id = side
    hist, marked, request, n_request = ws[_HIST], ws[_MARKED], ws[_REQUEST], ws[_N_REQUEST]
    ok = True
    for c in range(n_obs):
        x = counts[c]
        for j in range(tables.shape[0]):
            if np.isnan(tables[j, x]):
                ok = False
                if not marked[x]:
                    marked[x] = 1
                    request[n_request[0]] = x
                    n_request[0] += 1
                break
    if ok:
        _reduce(counts, n_obs, singles, tables, masses, log_q, hist, ws[_RISING], stats, col)
        return True
    deferred, deferred_log_q, n_deferred = ws[_DEFERRED], ws[_DEFERRED_LOG_Q], ws[_N_DEFERRED]
    start = n_deferred[0]
    record = n_deferred[1]
    if start + 4 + n_obs > deferred.shape[0] or record >= deferred_log_q.shape[0]:
        return False
    deferred[start] = col
    deferred[start + 1] = side_id
    deferred[start + 2] = n_obs
    deferred[start + 3] = singles
    for c in range(n_obs):
        deferred[start + 4 + c] = counts[c]
    deferred_log_q[record] = log_q
    n_deferred[0] = start + 4 + n_obs
    n_deferred[1] = record + 1
    return True


@njit(cache=True, nogil=True)
def reduce_deferred(ws, side_parents, side_family):
    """The reductions :func:`_reduce_side` deferred, now that the tables are filled."""
    deferred, deferred_log_q = ws[_DEFERRED], ws[_DEFERRED_LOG_Q]
    n_deferred, hist = ws[_N_DEFERRED], ws[_HIST]
    start = 0
    for record in range(n_deferred[1]):
        col = deferred[start]
        n_obs = deferred[start + 2]
        singles = deferred[start + 3]
        counts = deferred[start + 4 : start + 4 + n_obs]
        side = side_parents if deferred[start + 1] == 0 else side_family
        log_q = deferred_log_q[record]
        _reduce(counts, n_obs, singles, side[0], side[1], log_q, hist, ws[_RISING], side[2], col)
        start += 4 + n_obs
    n_deferred[0] = 0
    n_deferred[1] = 0


@njit(cache=True, nogil=True)
def _step(rows, ids, m, x, arities, codes, rows_out, ids_out, ws, weights):
    """Refine ``m`` active rows by variable ``x``: ``(n_obs, m_new, new_singles)``."""
    lookup, stamp, gen, work = ws[_LOOKUP], ws[_STAMP], ws[_GEN], ws[_WORK]
    out = _count_step(
        rows, ids, m, arities[x], codes[x], rows_out, ids_out, lookup, stamp, gen[0], work, weights
    )
    gen[0] += 1
    return out


@njit(cache=True, nogil=True)
def _refine(
    codes,
    arities,
    log_arities,
    members,
    skip,
    rows_out,
    ids_out,
    rows_tmp,
    ids_tmp,
    ws,
    side,
    col,
    weights,
):
    """Configurations of ``members`` (without ``skip``), refined from the empty set.

    Leaves the rows still sharing a configuration in ``rows_out[:m]`` with dense
    ids in ``ids_out[:m]``, writes the set's statistics to column ``col`` of the
    side, and returns ``(m, singles, log_q, complete)``: the active rows, the rows
    alone in their configuration, the log of the number of possible
    configurations, and whether the statistics could be written.
    """
    n = codes.shape[1]
    work = ws[_WORK]
    k = 0
    for a in range(members.shape[0]):
        if members[a] != skip:
            k += 1
    # ping-pong between the two buffers so that the last step writes rows_out
    if k % 2 == 0:
        src_r, src_i, dst_r, dst_i = rows_out, ids_out, rows_tmp, ids_tmp
    else:
        src_r, src_i, dst_r, dst_i = rows_tmp, ids_tmp, rows_out, ids_out
    weighted = weights.shape[0] > 0
    m = n if n > 1 or weighted else 0
    singles = n - m
    total = m
    for t in range(m):
        src_r[t] = t
        src_i[t] = 0
        if weighted:
            total += weights[t] - 1
    # the empty set: one configuration holding the active rows
    n_obs = 1 if m > 0 else 0
    work[0, 0] = total
    before = singles
    log_q = 0.0
    for a in range(members.shape[0]):
        x = members[a]
        if x == skip:
            continue
        n_obs, m_new, new_singles = _step(
            src_r, src_i, m, x, arities, codes, dst_r, dst_i, ws, weights
        )
        before = singles
        singles += new_singles
        m = m_new
        log_q += log_arities[x]
        src_r, src_i, dst_r, dst_i = dst_r, dst_i, src_r, src_i
    ok = _reduce_side(work[0], n_obs, before, log_q, side, col, ws)
    return m, singles, log_q, ok


@njit(cache=True, nogil=True)
def _keys_into(keys, codes, arities, members, skip):
    """Mixed-radix key of every row's configuration of ``members`` without ``skip``
    (as :func:`pgmpy_nml._counting.tables._parent_keys`, into a buffer); returns the
    number of configurations."""
    n = codes.shape[1]
    for t in range(n):
        keys[t] = 0
    stride = 1
    for a in range(members.shape[0] - 1, -1, -1):
        x = members[a]
        if x == skip:
            continue
        row = codes[x]
        for t in range(n):
            keys[t] += row[t] * stride
        stride *= arities[x]
    return stride


@njit(cache=True, nogil=True)
def _histogram(keys, key_scale, codes_u, u_scale, codes_v, n_cells, cells, weights):
    """Count ``keys * key_scale + codes_u * u_scale + codes_v`` into ``cells``.

    Small tables are counted into four interleaved copies (summed by the
    caller's scan), which breaks the store-to-load dependency of repeated
    cells; returns the number of copies used. Counted data (``weights`` not
    empty) add each row's weight, in one copy.
    """
    n = codes_v.shape[0]
    if weights.shape[0]:
        for t in range(n):
            cells[keys[t] * key_scale + codes_u[t] * u_scale + codes_v[t]] += weights[t]
        return 1
    split = 4 if 4 * n_cells <= cells.shape[0] else 1
    if split == 4:
        c1, c2, c3 = n_cells, 2 * n_cells, 3 * n_cells
        t = 0
        while t + 4 <= n:
            cells[keys[t] * key_scale + codes_u[t] * u_scale + codes_v[t]] += 1
            cells[c1 + keys[t + 1] * key_scale + codes_u[t + 1] * u_scale + codes_v[t + 1]] += 1
            cells[c2 + keys[t + 2] * key_scale + codes_u[t + 2] * u_scale + codes_v[t + 2]] += 1
            cells[c3 + keys[t + 3] * key_scale + codes_u[t + 3] * u_scale + codes_v[t + 3]] += 1
            t += 4
        for rest in range(t, n):
            cells[keys[rest] * key_scale + codes_u[rest] * u_scale + codes_v[rest]] += 1
    else:
        for t in range(n):
            cells[keys[t] * key_scale + codes_u[t] * u_scale + codes_v[t]] += 1
    return split


@njit(cache=True, nogil=True)
def _config_bits(out, bits, arities, members, skip, n):
    """Bitsets of the configurations of ``members`` without ``skip`` into ``out``
    (mixed radix, the last member fastest); returns their number."""
    words = out.shape[1]
    for i in range(words):
        out[0, i] = ~np.uint64(0)
    if n & 63:
        out[0, words - 1] = (np.uint64(1) << np.uint64(n & 63)) - np.uint64(1)
    q = 1
    for m in range(members.shape[0]):
        x = members[m]
        if x == skip:
            continue
        r = arities[x]
        # expand in place, from the last configuration down (out[j] is read before
        # any write lands on it)
        for j in range(q - 1, -1, -1):
            for a in range(r - 1, -1, -1):
                target = j * r + a
                for i in range(words):
                    out[target, i] = out[j, i] & bits[x, a, i]
        q *= r
    return q


@njit(cache=True, nogil=True)
def _bit_counts(configs, q, u_bits, r_u, v_bits, r_v, cells, scratch):
    """``cells[(j * r_u + a) * r_v + b]`` = rows in configuration ``j``, state ``a`` of
    ``u`` (``r_u = 0``: no ``u``) and state ``b`` of ``v``: popcounts of ANDs.

    The rows of ``(j, a)`` are collected in ``scratch`` once, with their number;
    empty ones are skipped, and the last state of ``v`` gets the remainder."""
    words = configs.shape[1]
    n_a = max(r_u, 1)
    for j in range(q):
        for a in range(n_a):
            rows = np.uint64(0)
            if r_u:
                for i in range(words):
                    w = configs[j, i] & u_bits[a, i]
                    scratch[i] = w
                    rows += _popcount(w)
            else:
                for i in range(words):
                    w = configs[j, i]
                    scratch[i] = w
                    rows += _popcount(w)
            base = (j * n_a + a) * r_v
            rest = rows
            for b in range(r_v - 1):
                total = np.uint64(0)
                if rest:
                    for i in range(words):
                        total += _popcount(scratch[i] & v_bits[b, i])
                cells[base + b] = total
                rest -= total
            cells[base + r_v - 1] = rest


@njit(cache=True, nogil=True, inline="always")
def _direct_statistics(
    codes,
    arities,
    log_arities,
    bits,
    marginals,
    members,
    kind,
    u,
    v,
    r,
    ws,
    side_parents,
    side_family,
    col,
    weights,
):
    """Statistics of ``S`` and ``S + v`` from a full count table of ``S + v``.

    ``S`` is ``members`` (CURRENT), ``members + u`` (PLUS) or ``members - u``
    (MINUS); the table must fit in the thread's ``cells`` (all zero on entry and
    on exit). Tables of at most :func:`bitset_cells` cells are counted from the
    variables' state bitsets ``bits``, larger ones with a histogram over the rows
    (and every table of counted data, whose rows weigh their ``weights``: the
    caller gives no bitsets then); with bitsets, a table of ``v`` alone or of a
    pair ``u, v`` (``S`` empty or ``{u}``) comes from the ``marginals`` counts and
    :func:`._bit_kernels.pair_cells`.
    The keys and configuration bitsets of ``members`` are computed once per row
    ``r`` and kept in the workspace. Returns whether both statistics could be
    written.
    """
    work, cells, keys, keyed = ws[_WORK], ws[_CELLS], ws[_KEYS], ws[_KEYED]
    log_q = 0.0
    q = 1
    for a in range(members.shape[0]):
        log_q += log_arities[members[a]]
        q *= arities[members[a]]
    r_v = arities[v]
    child = codes[v]
    n = child.shape[0]
    split = 1
    if kind == MINUS:
        n_cells = q // arities[u] * r_v
    elif kind == PLUS:
        n_cells = q * arities[u] * r_v
    else:
        n_cells = q * r_v
    k = members.shape[0]
    pair = kind == PLUS and k == 0  # S = {u}
    alone = kind != PLUS and k == (1 if kind == MINUS else 0)  # S empty
    if bits.shape[0] and (alone or (pair and n_cells <= ws[_PBITS].shape[0])):
        if pair:  # S = {u}
            pair_cells(bits, u, v, arities[u], r_v, marginals, cells)
            q, log_q = arities[u], log_arities[u]
        else:  # S empty: the marginal counts of v
            cells[:r_v] = marginals[v, :r_v]
            q, log_q = 1, 0.0
    elif n_cells <= ws[_PBITS].shape[0] and bits.shape[0]:
        if kind == MINUS:
            q = _config_bits(ws[_MBITS], bits, arities, members, u, n)
            log_q -= log_arities[u]
            _bit_counts(ws[_MBITS], q, bits[v], 0, bits[v], r_v, cells, ws[_WBITS])
        else:
            configs = ws[_PBITS]
            if ws[_PBITS_ROW][0] != r:
                _config_bits(configs, bits, arities, members, -1, n)
                ws[_PBITS_ROW][0] = r
            if kind == PLUS:
                _bit_counts(configs, q, bits[u], arities[u], bits[v], r_v, cells, ws[_WBITS])
                q *= arities[u]
                log_q += log_arities[u]
            else:
                _bit_counts(configs, q, bits[v], 0, bits[v], r_v, cells, ws[_WBITS])
    elif kind == MINUS:
        scratch = work[2]
        q = _keys_into(scratch, codes, arities, members, u)
        log_q -= log_arities[u]
        split = _histogram(scratch, r_v, child, 0, child, q * r_v, cells, weights)
    else:
        if keyed[0] != r:
            _keys_into(keys, codes, arities, members, -1)
            keyed[0] = r
        if kind == PLUS:
            r_u = arities[u]
            split = _histogram(keys, r_u * r_v, codes[u], r_v, child, q * r_u * r_v, cells, weights)
            q *= r_u
            log_q += log_arities[u]
        else:
            split = _histogram(keys, r_v, child, 0, child, q * r_v, cells, weights)
    family = work[0]
    parents = work[1]
    n_family = 0
    n_parents = 0
    for j in range(q):
        row = 0
        for c in range(j * r_v, (j + 1) * r_v):
            x = cells[c]
            cells[c] = 0
            for h in range(1, split):
                x += cells[h * n_cells + c]
                cells[h * n_cells + c] = 0
            if x:
                family[n_family] = x
                n_family += 1
                row += x
        if row:
            parents[n_parents] = row
            n_parents += 1
    ok = _reduce_side(parents, n_parents, 0, log_q, side_parents, col, ws)
    ok_family = _reduce_side(family, n_family, 0, log_q + log_arities[v], side_family, col, ws)
    return ok and ok_family


@njit(cache=True, nogil=True)
def item_statistics(
    codes,
    arities,
    log_arities,
    bits,
    marginals,
    children,
    members,
    n_members,
    item_row,
    item_u,
    item_kind,
    item_direct,
    ws,
    side_parents,
    side_family,
    complete,
    weights,
):
    """Statistics of the families one parent away from the current ones.

    Row ``r`` is child ``v = children[r]`` with parents ``P = members[r, :n_members[r]]``.
    For each item ``(r, u, kind)`` (grouped by row): the statistics of the parent set
    ``S`` (``P`` for kind CURRENT, ``P + u`` for PLUS, ``P - u`` for MINUS) go to
    column ``r * n_vars + u`` (``u = v`` for CURRENT) of the parents' side, those of
    ``S + v`` to the same column of the family's side; ``complete[i]`` is False if
    they could not be written (see :func:`_reduce_side`).

    An item with ``item_direct`` counts ``S + v`` into a full table (one pass over
    the data after the mixed-radix keys). The others refine configurations: the
    configurations of ``P`` once per row (kept in the workspace), then by ``u``
    and ``v`` for PLUS, by ``v`` for CURRENT; MINUS refines ``P - u`` from scratch.

    ``weights``: each row's count for counted data (then ``bits`` must be empty),
    or an empty array for one per row; ``marginals[x, a]``: the rows where variable
    ``x`` is in state ``a`` (read with bitsets only).
    """
    n_vars = codes.shape[0]
    rows, ids, work = ws[_ROWS], ws[_IDS], ws[_WORK]
    base = ws[_BASE]  # (row, active rows, lone rows, complete) of the configurations of P
    base_log_q = ws[_BASE_LOG_Q]
    base[0] = -1
    ws[_KEYED][0] = -1  # no row's parent keys or bitsets computed yet
    ws[_PBITS_ROW][0] = -1
    for i in range(item_row.shape[0]):
        r = item_row[i]
        u = item_u[i]
        v = children[r]
        col = r * n_vars + u
        kind = item_kind[i]
        plist = members[r, : n_members[r]]
        if item_direct[i]:
            complete[i] = _direct_statistics(
                codes, arities, log_arities, bits, marginals, plist, kind, u, v, r, ws,
                side_parents, side_family, col, weights,
            )  # fmt: skip
            continue
        if kind == MINUS:
            m1, s1, lq, ok = _refine(
                codes, arities, log_arities, plist, u, rows[0], ids[0], rows[1], ids[1], ws,
                side_parents, col, weights,
            )  # fmt: skip
            n2, _, _ = _step(rows[0], ids[0], m1, v, arities, codes, rows[1], ids[1], ws, weights)
            singles = s1
        else:
            if base[0] != r:
                m0, s0, lq0, ok0 = _refine(
                    codes, arities, log_arities, plist, -1, rows[2], ids[2], rows[0], ids[0],
                    ws, side_parents, r * n_vars + v, weights,
                )  # fmt: skip
                base[0], base[1], base[2], base[3] = r, m0, s0, ok0
                base_log_q[0] = lq0
            m0, s0, lq = base[1], base[2], base_log_q[0]
            if kind == CURRENT:
                ok = base[3] != 0
                n2, _, _ = _step(
                    rows[2], ids[2], m0, v, arities, codes, rows[1], ids[1], ws, weights
                )
                singles = s0
            else:
                n1, m1, s1 = _step(
                    rows[2], ids[2], m0, u, arities, codes, rows[0], ids[0], ws, weights
                )
                lq += log_arities[u]
                ok = _reduce_side(work[0], n1, s0, lq, side_parents, col, ws)
                n2, _, _ = _step(
                    rows[0], ids[0], m1, v, arities, codes, rows[1], ids[1], ws, weights
                )
                singles = s0 + s1
        ok_family = _reduce_side(work[0], n2, singles, lq + log_arities[v], side_family, col, ws)
        complete[i] = ok and ok_family


@njit(cache=True, nogil=True)
def plan_items(
    children,
    parents,
    n_parents,
    forbidden,
    required,
    max_parents,
    log_arities,
    log_direct_cells,
):
    """The items of :func:`item_statistics` for the rows of ``children``.

    Row ``r``: the current family of ``v = children[r]`` (kind CURRENT, ``u = v``)
    and every change that can ever be legal with this parent set: removing a
    parent that is not required (MINUS), adding a variable that is not
    forbidden while below the parent limit (PLUS); in order of ``u``. An item is
    *direct* when the full table of ``S + v`` has at most
    ``exp(log_direct_cells)`` cells.

    Returns ``(members, n_members, item_row, item_u, item_kind, item_direct,
    row_start)``; the items of row ``r`` are ``row_start[r]:row_start[r + 1]``.
    """
    n_rows = children.shape[0]
    n = parents.shape[0]
    n_members = np.zeros(n_rows, dtype=np.int64)
    n_items = 0
    for r in range(n_rows):
        v = children[r]
        room = n_parents[v] < max_parents
        for u in range(n):
            if parents[v, u]:
                n_members[r] += 1
            if u == v:
                n_items += 1
            elif parents[v, u]:
                n_items += not required[v, u]
            else:
                n_items += room and not forbidden[v, u]
    members = np.zeros((n_rows, max(1, n_members.max())), dtype=np.int64)
    item_row = np.empty(n_items, dtype=np.int64)
    item_u = np.empty(n_items, dtype=np.int64)
    item_kind = np.empty(n_items, dtype=np.int64)
    item_direct = np.empty(n_items, dtype=np.bool_)
    row_start = np.empty(n_rows + 1, dtype=np.int64)
    i = 0
    for r in range(n_rows):
        row_start[r] = i
        v = children[r]
        room = n_parents[v] < max_parents
        k = 0
        log_q = 0.0
        for u in range(n):
            if parents[v, u]:
                members[r, k] = u
                k += 1
                log_q += log_arities[u]
        for u in range(n):
            if u == v:
                kind = CURRENT
                log_cells = log_q
            elif parents[v, u]:
                if required[v, u]:
                    continue
                kind = MINUS
                log_cells = log_q - log_arities[u]
            else:
                if not room or forbidden[v, u]:
                    continue
                kind = PLUS
                log_cells = log_q + log_arities[u]
            item_row[i] = r
            item_u[i] = u
            item_kind[i] = kind
            item_direct[i] = log_cells + log_arities[v] <= log_direct_cells
            i += 1
    row_start[n_rows] = i
    return members, n_members, item_row, item_u, item_kind, item_direct, row_start
