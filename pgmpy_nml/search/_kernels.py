"""Compiled loops of the exact structure search (dynamic programming over subsets).

Subsets of the ``n`` variables are bitmasks. A candidate parent set of
variable ``v`` is a mask over the other ``n - 1`` variables ("compressed"); it
expands to a full mask by inserting a zero bit at position ``v``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit, prange

__all__ = [
    "best_parent_sets",
    "best_sinks",
    "expand_masks",
    "subset_statistics",
]


@njit(cache=True, nogil=True)
def _popcount(x):
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(cache=True, nogil=True)
def _count_step(prev_ids, arity, column, out_ids, lookup, stamp, generation, counts):
    """Dense ids of ``S + x`` from those of ``S``; returns the number of configurations.

    ``counts[:n_obs]`` receives the count of each new configuration. ``lookup``
    entries are valid only where ``stamp == generation``, so nothing needs
    resetting between calls.
    """
    n_obs = 0
    for t in range(prev_ids.shape[0]):
        key = prev_ids[t] * arity + column[t]
        if stamp[key] != generation:
            stamp[key] = generation
            lookup[key] = n_obs
            counts[n_obs] = 0
            n_obs += 1
        j = lookup[key]
        out_ids[t] = j
        counts[j] += 1
    return n_obs


@njit(cache=True, nogil=True)
def _reduce(counts, n_obs, tables, bdeu_ess, log_q, hist, stats, mask):
    """Per-subset statistics from the configuration counts.

    ``stats[j, mask] = sum_c tables[j, N_c]`` for each table, then, if ``bdeu_ess > 0``,
    ``stats[-1, mask] = sum_c [lgamma(N_c + a) - lgamma(a)]`` with ``a = ess / q_S``. The
    sums run over the distinct count values (with their multiplicities in
    ``hist``, left all zero on exit), which are few.
    """
    n_tables = tables.shape[0]
    top = 0
    for c in range(n_obs):
        v = counts[c]
        hist[v] += 1
        if v > top:
            top = v
    for j in range(n_tables):
        s = 0.0
        for v in range(1, top + 1):
            if hist[v]:
                s += hist[v] * tables[j, v]
        stats[j, mask] = s
    if bdeu_ess > 0.0:
        a = bdeu_ess * math.exp(-log_q)
        la = math.lgamma(a)
        s = 0.0
        for v in range(1, top + 1):
            if hist[v]:
                s += hist[v] * (math.lgamma(v + a) - la)
        stats[n_tables, mask] = s
    for v in range(1, top + 1):
        hist[v] = 0


@njit(cache=True, nogil=True)
def _subtree(root, codes, arities, log_arities, max_size, tables, bdeu_ess, stats):
    """Statistics of ``root`` and, for a two-element root, of all its supersets that
    add only larger elements (at most ``max_size`` in all), by depth-first search
    with re-densified ids."""
    n_vars, n = codes.shape
    n_tables = tables.shape[0]
    levels = max_size + 1
    ids = np.zeros((levels, n), dtype=np.int64)
    n_obs = np.zeros(levels, dtype=np.int64)
    masks = np.zeros(levels, dtype=np.int64)
    next_x = np.zeros(levels, dtype=np.int64)
    log_q = np.zeros(levels)
    max_r = 1
    for i in range(n_vars):
        max_r = max(max_r, arities[i])
    lookup = np.zeros(n * max_r + 1, dtype=np.int64)
    stamp = np.full(n * max_r + 1, -1, dtype=np.int64)
    generation = 0
    counts = np.zeros(n, dtype=np.int64)
    hist = np.zeros(n + 1, dtype=np.int64)
    ones_stat = np.zeros(stats.shape[0])
    for j in range(n_tables):
        ones_stat[j] = n * tables[j, 1]

    # the root prefix, built element by element from the empty set
    n_obs[0] = 1
    level = 0
    rest = root
    while rest:
        low = rest & -rest
        x = 0
        while (1 << x) != low:
            x += 1
        n_obs[level + 1] = _count_step(
            ids[level], arities[x], codes[x], ids[level + 1], lookup, stamp, generation, counts
        )
        generation += 1
        masks[level + 1] = masks[level] | low
        log_q[level + 1] = log_q[level] + log_arities[x]
        level += 1
        next_x[level] = x + 1
        rest ^= low
    _reduce(counts, n_obs[level], tables, bdeu_ess, log_q[level], hist, stats, masks[level])
    base = level
    if level < 2:  # singletons: their supersets belong to the two-element roots
        return
    while level >= base:
        x = next_x[level]
        if x >= n_vars or level >= max_size:
            level -= 1
            continue
        next_x[level] = x + 1
        child = masks[level] | (1 << x)
        masks[level + 1] = child
        log_q[level + 1] = log_q[level] + log_arities[x]
        next_x[level + 1] = x + 1
        if n_obs[level] == n:
            # every row is already distinct: all counts are one, nothing to count
            n_obs[level + 1] = n
            for j in range(n_tables):
                stats[j, child] = ones_stat[j]
            if bdeu_ess > 0.0:
                a = bdeu_ess * math.exp(-log_q[level + 1])
                stats[n_tables, child] = n * (math.lgamma(1.0 + a) - math.lgamma(a))
        else:
            n_obs[level + 1] = _count_step(
                ids[level], arities[x], codes[x], ids[level + 1], lookup, stamp, generation, counts
            )
            generation += 1
            _reduce(
                counts, n_obs[level + 1], tables, bdeu_ess, log_q[level + 1], hist, stats, child
            )
        level += 1


@njit(cache=True, nogil=True, parallel=True)
def _subset_statistics_parallel(
    bins, codes, arities, log_arities, max_size, tables, bdeu_ess, stats
):
    for b in prange(bins.shape[0]):
        for i in range(bins.shape[1]):
            root = bins[b, i]
            if root > 0:
                _subtree(root, codes, arities, log_arities, max_size, tables, bdeu_ess, stats)


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


def subset_statistics(codes, arities, tables, bdeu_ess, max_size, n_threads, progress=None):
    """Statistics of every subset of at most ``max_size`` variables (the empty set too).

    For each subset ``S``: ``stats[j, S] = sum_{c in obs(S)} tables[j, N_c]``, and a
    last row ``sum_c [lgamma(N_c + a) - lgamma(a)]``, ``a = bdeu_ess / |S|``, when
    ``bdeu_ess > 0``: an array of shape ``(n_stats, 2**n)`` whose entries for larger
    subsets stay 0. The subtrees are packed into
    ``n_threads`` balanced bins; one compiled parallel call per chunk of roots, so
    that Ctrl-C is honoured between chunks and ``progress(k)`` can report them.
    """
    n_vars, n = codes.shape
    n_stats = tables.shape[0] + (1 if bdeu_ess > 0 else 0)
    stats = np.zeros((n_stats, 1 << n_vars))
    # the empty set: one configuration holding all n rows
    stats[: tables.shape[0], 0] = tables[:, n]
    if bdeu_ess > 0:
        stats[-1, 0] = math.lgamma(n + bdeu_ess) - math.lgamma(bdeu_ess)
    if max_size == 0:
        return stats
    log_arities = np.log(arities.astype(np.float64))
    roots = sorted(subset_roots(n_vars, max_size), key=lambda t: -t[1])
    n_chunks = min(len(roots), 4 * n_threads + 8)
    for part in np.array_split(np.arange(len(roots)), n_chunks):
        load = [0] * n_threads
        members = [[] for _ in range(n_threads)]
        for i in part:
            k = load.index(min(load))
            members[k].append(roots[i][0])
            load[k] += roots[i][1]
        bins = np.zeros((n_threads, max(len(m) for m in members)), dtype=np.int64)
        for k, m in enumerate(members):
            bins[k, : len(m)] = m
        _subset_statistics_parallel(
            bins, codes, arities, log_arities, max_size, tables, bdeu_ess, stats
        )
        if progress is not None:
            progress(len(part))
    return stats


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


@njit(cache=True, nogil=True, parallel=True)
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
