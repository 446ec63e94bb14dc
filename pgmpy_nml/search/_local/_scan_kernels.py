"""Compiled move scan of the local search with a cache of every child's best addition.

:func:`cached_best_move` returns exactly the move of :func:`._move_kernels.best_move`
(the definition: every legal move scanned in the order *add < delete < reverse*,
then tail, then head, a later move replacing the best so far only if its change is
larger by more than ``rtol * max(1, |best|)``), but reads only a few rows of the
local-score table per step instead of all ``n^2`` pairs.

The cache, per child ``v`` (arrays held by the :class:`~.engine.Engine`):

- ``bound[v]``: the largest change of an addition ``x -> v`` that is legal apart from
  acyclicity (no edge between ``x`` and ``v``, not forbidden, ``v`` below the parent
  limit, ``|change| >= neutral``). It depends only on row ``v`` of the table and the
  edges at ``v``, so it is recomputed only for the children a move touched
  (``stale[v]``); ``has_nan[v]``: such an addition has a NaN change.
- ``value[v]``: an upper bound of the change of every legal addition to ``v``; if
  ``exact[v]``, it is the change of the legal addition ``arg[v] -> v`` and so the
  largest. After an addition elsewhere, the legal additions to ``v`` only lose
  members (the closure only grows), so ``value[v]`` stays a bound and stays exact as
  long as ``arg[v] -> v`` is still legal (checked each step, O(1)). After a deletion
  or a reversal moves can become legal again: ``value`` is reset to ``bound``
  (``reset``).

**Why the result is the definition's.** Let ``M`` be the largest change of a legal,
non-tabu move (``-inf``: none) and ``B = band_rtol * max(1, |M|)``. The scan visits
children by descending ``value`` (and the present edges by their deletion and
reversal changes), scans a child's row exactly, and stops when the next bound is
below ``M - B``: every legal move with a change ``>= M - B`` is then collected
(bounds are upper bounds, ``M`` only grows). Sorted by change, the collected moves
are cut at the first gap wider than ``2 * rtol * max(1, |.|)`` from the top (or
above ``M - B`` when there is none); ``S`` is the set above the cut. In the
definition's scan, the first member ``y`` of ``S`` replaces whatever is the best so
far (a move below the gap, whose change plus its tolerance is still below ``y``'s),
and no move outside ``S`` replaces anything afterwards (its change is below ``y``'s,
and the best only grows); the members of ``S`` are compared with each other exactly
as in the definition. So the definition's scan restricted to ``S``, in scan order,
returns its move. When the values fail the assumptions (a NaN change, no finite
``M``, a chain of near-ties spanning the band, more collected moves than the buffer
holds), the definition's full scan is run instead.
"""

from __future__ import annotations

import numpy as np

from ..._jit import njit
from ._move_kernels import ADD, DELETE, REVERSE, _is_tabu, _moved_hash, best_move, is_legal

__all__ = ["BAND_RTOL", "cached_best_move", "row_bound"]

#: Relative width of the band of changes below the best that the scan collects.
BAND_RTOL = 1e-7


@njit(cache=True, nogil=True)
def _band_floor(m, band_rtol):
    """``M - B``: the lowest change the scan must collect (``-inf`` when ``M`` is)."""
    if m == -np.inf:
        return -np.inf
    return m - band_rtol * max(1.0, abs(m))


@njit(cache=True, nogil=True)
def _beats(high, low, rtol):
    """Whether ``high`` exceeds ``low`` plus its tie tolerance with a factor 2 to spare
    (so rounding cannot matter)."""
    return high > low + 2.0 * rtol * max(1.0, abs(low), abs(high))


@njit(cache=True, nogil=True)
def row_bound(v, parents, n_parents, local, forbidden, max_parents, offsets, neutral):
    """``(bound, has_nan)`` of child ``v``: the largest change of an addition ``x -> v``
    legal apart from acyclicity, and whether such an addition has a NaN change."""
    n = parents.shape[0]
    best = -np.inf
    nan = False
    if n_parents[v] >= max_parents:
        return best, nan
    for x in range(n):
        if x == v or parents[v, x] or parents[x, v] or forbidden[v, x]:
            continue
        d = local[v, x] - local[v, v] + offsets[ADD]
        if d != d:
            nan = True
        elif abs(d) >= neutral and d > best:
            best = d
    return best, nan


@njit(cache=True, nogil=True)
def _push(found_d, found_key, count, d, key):
    """Append ``(d, key)`` to the collected moves; ``count`` -1 when the buffer is full."""
    if count < 0 or count >= found_d.shape[0]:
        return -1
    found_d[count] = d
    found_key[count] = key
    return count + 1


@njit(cache=True, nogil=True)
def _scan_row(v, m, band_rtol, state, tabu, network_hash, neutral, found_d, found_key, count):
    """Every legal addition to ``v``: ``(largest change, its tail, M, count)``, the
    non-tabu ones with a change ``>= M - B`` appended to the collected moves."""
    parents, n_parents, reach, local, forbidden, max_parents, offsets, keys = state
    n = parents.shape[0]
    row_max = -np.inf
    row_arg = -1
    if n_parents[v] >= max_parents:
        return row_max, row_arg, m, count
    for x in range(n):
        if x == v or parents[v, x] or parents[x, v] or forbidden[v, x] or reach[v, x]:
            continue
        d = local[v, x] - local[v, v] + offsets[ADD]
        if abs(d) < neutral:
            continue
        if row_arg < 0 or d > row_max:
            row_max, row_arg = d, x
        if d < _band_floor(m, band_rtol):
            continue
        if tabu.shape[0] and _is_tabu(_moved_hash(ADD, x, v, network_hash, keys), tabu):
            continue
        count = _push(found_d, found_key, count, d, (ADD * n + x) * n + v)
        if d > m:
            m = d
    return row_max, row_arg, m, count


@njit(cache=True, nogil=True)
def _refresh_rows(state, neutral, bound, has_nan, value, arg, exact, stale, reset):
    """Bring the cache up to date; returns whether some change is NaN."""
    parents, n_parents, reach, local, forbidden, max_parents, offsets = state[:7]
    n = parents.shape[0]
    any_nan = False
    for v in range(n):
        if stale[v]:
            b, nan = row_bound(
                v, parents, n_parents, local, forbidden, max_parents, offsets, neutral
            )
            bound[v], has_nan[v], stale[v] = b, nan, 0
            value[v], exact[v] = b, 0
        elif reset:
            value[v], exact[v] = bound[v], 0
        elif exact[v] and arg[v] >= 0:
            x = arg[v]
            if parents[x, v] or reach[v, x]:  # an addition elsewhere closed a cycle
                exact[v] = 0
        any_nan = any_nan or has_nan[v]
    return any_nan


@njit(cache=True, nogil=True)
def _edge_changes(edges, local, offsets, n):
    """Deletion and reversal changes of the present edges (NaN: some change is)."""
    n_edges = edges.shape[0]
    changes = np.empty(2 * n_edges)
    nan = False
    for e in range(n_edges):
        u, v = edges[e] // n, edges[e] % n
        d = local[v, u] - local[v, v]
        changes[e] = d + offsets[DELETE]
        changes[n_edges + e] = d + (local[u, v] - local[u, u]) + offsets[REVERSE]
        nan = nan or changes[e] != changes[e] or changes[n_edges + e] != changes[n_edges + e]
    return changes, nan


@njit(cache=True, nogil=True)
def _start_floor(n, tabu, network_hash, keys, value, arg, exact):
    """A change some legal non-tabu addition reaches (``-inf``: none known): the
    largest exact ``value`` whose addition is not tabu."""
    m = -np.inf
    for v in range(n):
        if exact[v] and arg[v] >= 0 and value[v] > m:
            if tabu.shape[0] and _is_tabu(_moved_hash(ADD, arg[v], v, network_hash, keys), tabu):
                continue
            m = value[v]
    return m


@njit(cache=True, nogil=True)
def _choose(found_d, found_key, count, m, rtol, band_rtol, n):
    """The definition's move among the collected ones (see the module docstring):
    ``(kind, u, v, delta)``, kind -2 if the values fail the assumptions."""
    if count < 0 or not np.isfinite(m):
        return -2, -1, -1, -np.inf
    floor = _band_floor(m, band_rtol)
    by_change = np.argsort(-found_d[:count])
    cut = -1
    for i in range(count):
        d = found_d[by_change[i]]
        if d < floor:
            break
        below = floor
        if i + 1 < count and found_d[by_change[i + 1]] >= floor:
            below = found_d[by_change[i + 1]]
        if _beats(d, below, rtol):
            cut = i + 1
            break
    if cut < 0:
        return -2, -1, -1, -np.inf
    chosen = by_change[:cut]
    order = np.argsort(found_key[chosen])
    best = -np.inf
    bk, bu, bv = -1, -1, -1
    for i in range(cut):
        j = chosen[order[i]]
        d = found_d[j]
        if bk >= 0 and d <= best + rtol * max(1.0, abs(best)):
            continue
        best = d
        key = found_key[j]
        bk, bu, bv = key // (n * n), (key // n) % n, key % n
    return bk, bu, bv, best


# size: one scan over two kinds of items that share M and the collected moves
@njit(cache=True, nogil=True)
def cached_best_move(
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
    edges,
    cache_f,
    cache_i,
    reset,
    band_rtol,
):
    """:func:`._move_kernels.best_move` from the cache (see the module docstring).

    ``cache_f`` holds the rows ``bound, value`` and ``cache_i`` the rows ``arg,
    exact, stale, has_nan`` (updated in place); ``reset``: a deletion or reversal
    happened since the last call. ``edges``: the present edges (keys ``u * n + v``).
    Returns ``(kind, u, v, delta, full)``, ``full`` True if the full scan decided.
    """
    n = parents.shape[0]
    state = (parents, n_parents, reach, local, forbidden, max_parents, offsets, keys)
    bound, value = cache_f[0], cache_f[1]
    arg, exact, stale, has_nan = cache_i[0], cache_i[1], cache_i[2], cache_i[3]
    nan = _refresh_rows(state, neutral, bound, has_nan, value, arg, exact, stale, reset)
    changes, edge_nan = _edge_changes(edges, local, offsets, n)
    if not (nan or edge_nan):
        n_edges = edges.shape[0]
        m = _start_floor(n, tabu, network_hash, keys, value, arg, exact)
        # the items: children (by value) and the edges' deletions and reversals
        floor = _band_floor(m, band_rtol)
        items = np.empty(n + 2 * n_edges, dtype=np.int64)
        item_bound = np.empty(n + 2 * n_edges)
        k = 0
        for i in range(n + 2 * n_edges):
            b = value[i] if i < n else changes[i - n]
            if b >= floor and b > -np.inf:
                items[k], item_bound[k] = i, b
                k += 1
        ranked = np.argsort(-item_bound[:k])
        found_d = np.empty(4 * n + 2 * n_edges + 64)
        found_key = np.empty(found_d.shape[0], dtype=np.int64)
        count = 0
        for r in range(k):
            i = items[ranked[r]]
            if item_bound[ranked[r]] < _band_floor(m, band_rtol):
                break
            if i < n:
                row = _scan_row(
                    i, m, band_rtol, state, tabu, network_hash, neutral, found_d, found_key, count
                )
                value[i], arg[i], m, count = row
                exact[i] = 1
                continue
            e = (i - n) % n_edges
            kind = DELETE if i - n < n_edges else REVERSE
            u, v = edges[e] // n, edges[e] % n
            d = changes[i - n]
            if kind == DELETE and abs(d) < neutral:
                continue
            legal = is_legal(kind, u, v, *state[:3], forbidden, required, max_parents)
            if not legal:
                continue
            if tabu.shape[0] and _is_tabu(_moved_hash(kind, u, v, network_hash, keys), tabu):
                continue
            count = _push(found_d, found_key, count, d, (kind * n + u) * n + v)
            m = max(m, d)
        kind, u, v, d = _choose(found_d, found_key, count, m, rtol, band_rtol, n)
        if kind != -2:
            return kind, u, v, d, False
    definition = (*state[:5], required, max_parents, offsets, keys, network_hash)
    kind, u, v, d = best_move(*definition, tabu, rtol, neutral)
    return kind, u, v, d, True
