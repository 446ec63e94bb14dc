"""Compiled counting of every variable subset: the statistics of all parent sets at once.

Subsets of the ``n`` variables are bitmasks (or, in :func:`listed_subset_statistics`,
rows of increasing indices ranked by :func:`colex_ranks`). The subset dynamic
programming, the candidate pruning and the local search all count through here.
"""

from __future__ import annotations

import math

import numpy as np
from numba import prange

from .._jit import njit
from ..numerics.gamma import log_rising

__all__ = [
    "colex_ranks",
    "listed_subset_statistics",
    "rising_bytes",
    "rising_cache",
    "subset_roots",
    "subset_statistics",
    "workspace_bytes",
]


@njit(cache=True, nogil=True)
def _popcount(x):
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(cache=True, nogil=True)
def _count_step(
    rows, ids, m, arity, column, out_rows, out_ids, lookup, stamp, generation, work, weights
):
    """Refine the configurations of ``S`` by one more variable.

    Only *active* rows are kept: ``rows[:m]`` with dense configuration ids
    ``ids[:m]``. A row alone in its configuration stays alone in every superset,
    so, once enough rows are alone, they leave the active set (and are counted
    as singletons from then on).

    ``weights`` (int64) is each row's count in counted data (distinct rows, see
    :class:`pgmpy_nml._data.EncodedData`), or empty for one per row. With weights a
    row adds its weight, and rows never leave the active set (a lone distinct row
    is a configuration of count ``weights[row]``, not one).

    Returns ``(n_obs, m_new, new_singles)``: ``work[0, :n_obs]`` holds the count
    of every configuration of ``S + x`` among the active rows, ``out_rows[:m_new]``
    and ``out_ids[:m_new]`` the rows still sharing a configuration, with dense ids.
    ``lookup`` entries are valid only where ``stamp == generation``.
    """
    counts = work[0]
    label = work[1]
    relabel = work[2]
    weighted = weights.shape[0] > 0
    n_obs = 0
    for t in range(m):
        key = ids[t] * arity + column[rows[t]]
        if stamp[key] != generation:
            stamp[key] = generation
            lookup[key] = n_obs
            counts[n_obs] = 0
            n_obs += 1
        j = lookup[key]
        label[t] = j
        counts[j] += weights[rows[t]] if weighted else 1
    shared = 0
    if not weighted:
        for j in range(n_obs):
            if counts[j] > 1:
                shared += 1
    if weighted or 4 * (n_obs - shared) < m:
        # keep every row: counted rows always (a lone row may weigh more than one); else
        # when few rows became alone (a lone row just counts as a configuration of count
        # one), which saves the compaction pass
        for t in range(m):
            out_rows[t] = rows[t]
            out_ids[t] = label[t]
        return n_obs, m, 0
    shared = 0
    for j in range(n_obs):
        if counts[j] > 1:
            relabel[j] = shared
            shared += 1
        else:
            relabel[j] = -1
    m_new = 0
    for t in range(m):
        j = relabel[label[t]]
        if j >= 0:
            out_rows[m_new] = rows[t]
            out_ids[m_new] = j
            m_new += 1
    return n_obs, m_new, n_obs - shared


#: Slots of :func:`rising_cache`: values of the prior mass per configuration ``a`` ...
RISING_SLOTS = 64
#: ... each with its log rising factorials of the counts below this.
RISING_COUNTS = 4096


@njit(cache=True, nogil=True)
def rising_cache(n_rows):
    """A cache of :func:`_reduce`'s log rising factorials ``log_rising(a, N)`` for data
    of ``n_rows`` rows (an empty one, ``n_rows = 0``, computes every value): one slot
    per value of ``a`` (:data:`RISING_SLOTS`, reused in turn), counts ``N`` below
    :data:`RISING_COUNTS`. Its values are those :func:`~pgmpy_nml.numerics.gamma.log_rising`
    returns, so the statistics are the same with or without it, only faster where a
    few values of ``a`` recur (the sets of one size of binary variables: one value of
    ``a`` per size; 24 ns a call, about twenty calls a set for BDeu)."""
    slots = RISING_SLOTS if n_rows > 0 else 0
    n_counts = min(n_rows + 1, RISING_COUNTS) if n_rows > 0 else 0
    return (
        np.full(slots, np.nan),  # each slot's a (NaN: unused)
        np.zeros((slots, n_counts)),  # the values
        np.zeros((slots, n_counts), dtype=np.int64),  # valid where equal to the slot's stamp
        np.zeros(slots + 1, dtype=np.int64),  # each slot's stamp; last: the slot to reuse next
    )


@njit(cache=True, nogil=True)
def _rising_slot(cache, a):
    """The slot of ``a`` in ``cache`` (a new stamp when it takes a slot); -1 if none."""
    keys, _, _, stamp = cache
    slots = keys.shape[0]
    if slots == 0:
        return -1
    for k in range(slots):
        if keys[k] == a:
            return k
    k = stamp[slots]
    stamp[slots] = (k + 1) % slots
    keys[k] = a
    stamp[k] += 1
    return k


@njit(cache=True, nogil=True)
def _reduce(counts, n_obs, singles, tables, masses, log_q, hist, rising, stats, mask):
    """Per-subset statistics from the configuration counts.

    ``stats[j, mask] = sum_c tables[j, N_c]`` for each table, then, for each prior
    mass ``m = masses[i]``, ``stats[n_tables + i, mask] = sum_c log_rising(m / q_S, N_c)``
    (:class:`~pgmpy_nml.scores.contract.PriorStatistic`), over the configurations
    counted in ``counts[:n_obs]`` plus ``singles`` more of count one. The sums run
    over the distinct count values (with multiplicities in ``hist``, left all zero
    on exit), which are few; or, when the configurations are fewer than a quarter
    of the largest count (or a count is beyond ``hist``, as in counted data),
    straight over the configurations. ``rising``: a :func:`rising_cache` of the
    log rising factorials (``rising_cache(0)`` for none).
    """
    n_tables = tables.shape[0]
    top = 1 if singles else 0
    for c in range(n_obs):
        if counts[c] > top:
            top = counts[c]
    # straight over the configurations, or over the distinct counts
    direct = 4 * n_obs < top or top >= hist.shape[0]  # (counted data: counts beyond hist)
    if direct:
        for j in range(n_tables):
            s = singles * tables[j, 1] if singles else 0.0
            for c in range(n_obs):
                s += tables[j, counts[c]]
            stats[j, mask] = s
    else:
        hist[1] += singles
        for c in range(n_obs):
            hist[counts[c]] += 1
        for j in range(n_tables):
            s = 0.0
            for v in range(1, top + 1):
                if hist[v]:
                    s += hist[v] * tables[j, v]
            stats[j, mask] = s
    # the terms (count, times): directly the singles then each configuration, else the
    # distinct counts; each log rising factorial from the cache when it holds it (the
    # lookups are written out here: a call per term, taking its arrays, costs 20 ns)
    _, values, valid, stamp = rising
    for i in range(masses.shape[0]):
        a = masses[i] * math.exp(-log_q)
        slot = _rising_slot(rising, a)
        mark = stamp[slot] if slot >= 0 else 0
        s = 0.0
        for k in range(n_obs + 1 if direct else top):
            if direct:
                count, times = (1, singles) if k == 0 else (counts[k - 1], 1)
            else:
                count, times = k + 1, hist[k + 1]
            if times == 0:
                continue
            if slot < 0 or count >= values.shape[1]:
                term = log_rising(a, count)
            else:
                if valid[slot, count] != mark:
                    values[slot, count] = log_rising(a, count)
                    valid[slot, count] = mark
                term = values[slot, count]
            s += times * term
        stats[n_tables + i, mask] = s
    if not direct:
        for v in range(1, top + 1):
            hist[v] = 0


@njit(cache=True, nogil=True)
def _workspace(n, levels, max_r, weighted):
    """Buffers of a depth-first refinement over ``levels - 1`` added variables of ``n`` rows.

    Level 0 is the empty set (every row in its one configuration). Per level:
    ``rows``/``ids`` the rows still sharing a configuration and their dense ids,
    ``active`` how many, ``singles`` how many rows are alone already, ``log_q``
    the log of the number of possible configurations. ``weighted``: counted data,
    whose rows all stay active.
    """
    rows = np.zeros((levels, n), dtype=np.int64)
    ids = np.zeros((levels, n), dtype=np.int64)
    active = np.zeros(levels, dtype=np.int64)
    singles = np.zeros(levels, dtype=np.int64)
    log_q = np.zeros(levels)
    lookup = np.zeros(n * max_r + 1, dtype=np.int64)
    stamp = np.full(n * max_r + 1, -1, dtype=np.int64)
    work = np.zeros((3, n), dtype=np.int64)
    hist = np.zeros(n + 1, dtype=np.int64)
    for t in range(n):
        rows[0, t] = t
    active[0] = n if n > 1 or weighted else 0
    singles[0] = n - active[0]
    return rows, ids, active, singles, log_q, lookup, stamp, work, hist


def workspace_bytes(n: int, levels: int, max_r: int) -> int:
    """Bytes of one :func:`_workspace` (a counting thread's buffers), with its
    :func:`rising_cache`."""
    buffers = 8 * (2 * levels * n + 3 * levels + 2 * (n * max_r + 1) + 3 * n + n + 1)
    return buffers + rising_bytes(n)


def rising_bytes(n_rows: int) -> int:
    """Bytes of a :func:`rising_cache` for ``n_rows`` rows."""
    return 16 * RISING_SLOTS * min(n_rows + 1, RISING_COUNTS) + 8 * (2 * RISING_SLOTS + 1)


@njit(cache=True, nogil=True)
def _descend(level, x, codes, arities, log_arities, space, generation, weights):
    """Refine level ``level`` of ``space`` by variable ``x`` into level ``level + 1``.

    Returns the number of configurations counted in ``work[0]`` (among the rows
    active at ``level``; ``singles[level]`` more are alone).
    """
    rows, ids, active, singles, log_q, lookup, stamp, work, _ = space
    n_obs, m_new, new_singles = _count_step(
        rows[level],
        ids[level],
        active[level],
        arities[x],
        codes[x],
        rows[level + 1],
        ids[level + 1],
        lookup,
        stamp,
        generation,
        work,
        weights,
    )
    log_q[level + 1] = log_q[level] + log_arities[x]
    active[level + 1] = m_new
    singles[level + 1] = singles[level] + new_singles
    return n_obs


@njit(cache=True, nogil=True)
def _max_arity(arities):
    max_r = 1
    for i in range(arities.shape[0]):
        max_r = max(max_r, arities[i])
    return max_r


@njit(cache=True, nogil=True)
def _subtree(root, codes, arities, log_arities, max_size, tables, masses, stats, weights):
    """Statistics of ``root`` and, for a two-element root, of all its supersets that
    add only larger elements (at most ``max_size`` in all), by depth-first search
    refining the configurations of the rows that still share one."""
    n_vars, n = codes.shape
    levels = max_size + 1
    space = _workspace(n, levels, _max_arity(arities), weights.shape[0] > 0)
    singles, log_q, work, hist = space[3], space[4], space[7], space[8]
    rising = rising_cache(0)  # a root's sets are too few to reuse its values
    masks = np.zeros(levels, dtype=np.int64)
    next_x = np.zeros(levels, dtype=np.int64)
    generation = 0

    size = _popcount(root)
    level = 0
    x = 0
    while True:
        if level < size:
            # build the root prefix, its elements in increasing order
            while not (root >> x) & 1:
                x += 1
        else:
            if size < 2:  # singletons: their supersets belong to two-element roots
                return
            x = next_x[level]
            if x >= n_vars or level >= max_size:
                level -= 1
                if level < size:
                    return
                continue
            next_x[level] = x + 1
        n_obs = _descend(level, x, codes, arities, log_arities, space, generation, weights)
        generation += 1
        masks[level + 1] = masks[level] | (1 << x)
        level += 1
        next_x[level] = x + 1
        if level >= size:  # the root itself and everything below it
            _reduce(
                work[0],
                n_obs,
                singles[level - 1],
                tables,
                masses,
                log_q[level],
                hist,
                rising,
                stats,
                masks[level],
            )
        x += 1


@njit(cache=True, nogil=True)
def _listed_statistics(
    subsets, sizes, codes, arities, log_arities, tables, masses, stats, lo, hi, weights, total
):
    """Statistics of the listed subsets ``lo .. hi - 1`` into ``stats[:, i]``.

    ``subsets[i, :sizes[i]]`` holds subset ``i``'s variables in increasing order;
    the list is sorted lexicographically, so that consecutive subsets share the
    refinement of their common prefix (each subset costs one refinement step
    per element beyond the prefix it shares with its predecessor). ``total`` is
    the number of samples (the sum of ``weights`` for counted data).
    """
    n = codes.shape[1]
    n_tables = tables.shape[0]
    levels = 1
    for i in range(lo, hi):
        levels = max(levels, sizes[i] + 1)
    space = _workspace(n, levels, _max_arity(arities), weights.shape[0] > 0)
    singles, log_q, work, hist = space[3], space[4], space[7], space[8]
    rising = rising_cache(n if masses.shape[0] else 0)
    generation = 0
    depth = 0  # the workspace holds the refinements of subsets[prev, :depth]
    prev = -1
    for i in range(lo, hi):
        size = sizes[i]
        if size == 0:  # the empty set: one configuration of all the samples
            for j in range(n_tables):
                stats[j, i] = tables[j, total]
            for j in range(masses.shape[0]):
                stats[n_tables + j, i] = log_rising(masses[j], total)
            continue
        shared = 0
        if prev >= 0:
            while shared < min(depth, size) and subsets[prev, shared] == subsets[i, shared]:
                shared += 1
        shared = min(shared, size - 1)  # the last step is taken again for its counts
        n_obs = 0
        for level in range(shared, size):
            n_obs = _descend(
                level, subsets[i, level], codes, arities, log_arities, space, generation, weights
            )
            generation += 1
        _reduce(
            work[0], n_obs, singles[size - 1], tables, masses, log_q[size], hist, rising, stats, i
        )
        depth = size
        prev = i


@njit(cache=True, nogil=True, parallel=True)
def _listed_statistics_parallel(
    bounds, subsets, sizes, codes, arities, log_arities, tables, masses, stats, weights, total
):
    for b in prange(bounds.shape[0] - 1):
        _listed_statistics(
            subsets,
            sizes,
            codes,
            arities,
            log_arities,
            tables,
            masses,
            stats,
            bounds[b],
            bounds[b + 1],
            weights,
            total,
        )


def _as_weights(weights, n_rows: int) -> tuple[np.ndarray, int]:
    """``(weights, total)`` for the kernels: an int64 array (empty: one per row) and the
    number of samples."""
    if weights is None:
        return np.zeros(0, dtype=np.int64), int(n_rows)
    weights = np.ascontiguousarray(weights, dtype=np.int64)
    return weights, int(weights.sum())


def listed_subset_statistics(
    subsets, sizes, codes, arities, tables, masses, n_threads=1, weights=None
):
    """Statistics of the listed variable subsets, as :func:`subset_statistics` counts them.

    Parameters
    ----------
    subsets : ndarray of int64, shape (m, width)
        Row ``i`` holds subset ``i``'s variables in increasing order in its first
        ``sizes[i]`` entries; rows sorted lexicographically (shared prefixes are
        refined once).
    sizes : ndarray of int64, shape (m,)
    codes, arities : the encoded data (``arities`` int64)
    tables : ndarray, shape (n_tables, n + 1)
        ``tables[j, c]``: phi_j(c) of each count statistic.
    masses : ndarray
        The prior masses of the prior statistics.
    n_threads : int
        Compiled threads; the list is cut into that many consecutive chunks.
    weights : ndarray of int64, optional
        Counted data: the count of each (distinct) row, ``tables`` then up to their
        sum (None: one per row).

    Returns
    -------
    ndarray, shape (n_tables + len(masses), m)
        ``out[j, i] = sum_c tables[j, N_c]`` over the observed configurations
        ``c`` of subset ``i``, then one row ``sum_c log_rising(m / |S|, N_c)`` per
        mass: the same values as :func:`subset_statistics`, whatever the list.
    """
    m = subsets.shape[0]
    masses = np.ascontiguousarray(masses, dtype=np.float64).reshape(-1)
    stats = np.zeros((tables.shape[0] + masses.shape[0], m))
    if m == 0:
        return stats
    log_arities = np.log(arities.astype(np.float64))
    subsets = np.ascontiguousarray(subsets, dtype=np.int64).reshape(m, -1)
    if subsets.shape[1] == 0:
        subsets = np.zeros((m, 1), dtype=np.int64)
    sizes = np.ascontiguousarray(sizes, dtype=np.int64)
    weights, total = _as_weights(weights, codes.shape[1])
    n_chunks = max(1, min(int(n_threads), m // 64))
    data = (codes, arities, log_arities, tables, masses, stats)
    if n_chunks == 1:
        _listed_statistics(subsets, sizes, *data, 0, m, weights, total)
    else:
        bounds = np.linspace(0, m, n_chunks + 1).astype(np.int64)
        _listed_statistics_parallel(bounds, subsets, sizes, *data, weights, total)
    return stats


@njit(  # small inputs (< 2**27 row-subset steps, or one thread) run a serial twin
    cache=True,
    nogil=True,
    parallel=True,
    serial_if=lambda bins, codes, *_: len(bins) == 1 or codes.size << len(codes) < 2**27,
)
def _subset_statistics_parallel(
    bins, codes, arities, log_arities, max_size, tables, masses, stats, weights
):
    for b in prange(bins.shape[0]):
        for i in range(bins.shape[1]):
            root = bins[b, i]
            if root > 0:
                _subtree(
                    root, codes, arities, log_arities, max_size, tables, masses, stats, weights
                )


def subset_roots(n_vars: int, max_size: int) -> list[tuple[int, int]]:
    """Subtree roots with their number of subsets: every singleton ``{x}`` alone,
    and every pair ``{x, y}`` with all supersets adding elements above ``y``."""
    roots = [(1 << x, 1) for x in range(n_vars)]
    if max_size >= 2:
        for x in range(n_vars):
            for y in range(x + 1, n_vars):
                above = n_vars - 1 - y
                size = sum(math.comb(above, k) for k in range(max_size - 1))
                roots.append(((1 << x) | (1 << y), size))
    return roots


def _chunks_of_equal_work(work, n_chunks):
    """Consecutive index ranges of ``work`` with about equal sums (at least one item each)."""
    target = sum(work) / max(n_chunks, 1)
    chunks, current, load = [], [], 0.0
    for i, w in enumerate(work):
        current.append(i)
        load += w
        if load >= target:
            chunks.append(current)
            current, load = [], 0.0
    if current:
        chunks.append(current)
    return chunks


def subset_statistics(
    codes, arities, tables, masses, max_size, n_threads, progress=None, weights=None
):
    """Statistics of every subset of at most ``max_size`` variables (the empty set too).

    For each subset ``S``: ``stats[j, S] = sum_{c in obs(S)} tables[j, N_c]`` for the
    rows of ``tables``, then one row ``sum_c log_rising(m / |S|, N_c)`` per prior mass
    ``m`` of ``masses``: an array of shape ``(len(tables) + len(masses), 2**n)`` whose
    entries for larger subsets stay 0. The subtrees are packed into
    ``n_threads`` balanced bins; one compiled parallel call per chunk of roots, so
    that Ctrl-C is honoured between chunks and ``progress(k)`` can report the ``k``
    subsets each chunk counted. ``weights``: counted data, as in
    :func:`listed_subset_statistics`.
    """
    n_vars = codes.shape[0]
    weights, n = _as_weights(weights, codes.shape[1])
    masses = np.ascontiguousarray(masses, dtype=np.float64).reshape(-1)
    n_stats = tables.shape[0] + masses.shape[0]
    stats = np.zeros((n_stats, 1 << n_vars))
    # the empty set: one configuration holding all n samples
    stats[: tables.shape[0], 0] = tables[:, n]
    for i, m in enumerate(masses):
        stats[tables.shape[0] + i, 0] = log_rising(m, n)
    if max_size == 0:
        return stats
    log_arities = np.log(arities.astype(np.float64))
    roots = sorted(subset_roots(n_vars, max_size), key=lambda t: -t[1])
    for part in _chunks_of_equal_work([size for _, size in roots], 4 * n_threads + 8):
        load = [0] * n_threads
        members: list[list[int]] = [[] for _ in range(n_threads)]
        for i in part:
            k = load.index(min(load))
            members[k].append(roots[i][0])
            load[k] += roots[i][1]
        bins = np.zeros((n_threads, max(len(m) for m in members)), dtype=np.int64)
        for k, m in enumerate(members):
            bins[k, : len(m)] = m
        _subset_statistics_parallel(
            bins, codes, arities, log_arities, max_size, tables, masses, stats, weights
        )
        if progress is not None:
            progress(sum(roots[i][1] for i in part))
    return stats


@njit(cache=True, nogil=True)
def colex_ranks(rows, binom):
    """Colex rank ``sum_t C(rows[i, t], t + 1)`` of each row of increasing integers.

    Unique among the sets of one size (the combinatorial number system);
    ``binom[x, t] = C(x, t)``.
    """
    m, s = rows.shape
    out = np.zeros(m, dtype=np.int64)
    for i in range(m):
        r = 0
        for t in range(s):
            r += binom[rows[i, t], t + 1]
        out[i] = r
    return out
