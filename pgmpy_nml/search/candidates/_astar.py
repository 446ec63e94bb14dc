r"""The best DAG over candidate parent sets by best-first (A*) search over the order graph.

The second exact engine beside the integer program of :mod:`._solver`, after
URLearning (Yuan, Malone and Wu 2011; Yuan and Malone 2012, 2013). A node of
the *order graph* is a set :math:`U` of variables placed first, in some order;
placing :math:`v \notin U` next costs (here: earns) its best candidate whose
parents lie in :math:`U`,

.. math::

    s(v, U) = \max \{ s(v, P) : P \text{ a candidate of } v,\ P \subseteq U \},

and :math:`g(U)`, the best score of placing :math:`U` first, is the best path
from :math:`\emptyset` to :math:`U`; the best network is the best path to the
full set. Scores are maximized (log scores, higher is better).

A* expands the open node of largest :math:`f(U) = g(U) + h(U)`, where
:math:`h(U)` is an upper bound on what the variables not in :math:`U` can still
add (admissible) that never drops by more than a step earns (consistent), so a
node's :math:`g` is final when it is expanded and the first full set expanded is
optimal. The heuristic is a *static pattern database* (Yuan and Malone 2012):
the variables are partitioned into as few groups of at most ``group_size``
as can be, of balanced sizes; in each
group, every subset :math:`R` of its variables not yet placed gets, by a
dynamic program over the group's subsets, the best score of placing :math:`R`
when the variables outside the group are all available as parents,

.. math::

    h_G(R) = \max_{v \in R} \bigl[ s(v, V \setminus R) + h_G(R \setminus \{v\}) \bigr],
    \qquad h(U) = \sum_G h_G(G \setminus U).

Groups of one variable give the simple bound :math:`\sum_{v \notin U} \max_P
s(v, P)`. The partition joins, heaviest first, the pairs of variables that
lose the most score when one may not be the other's parent (a size-capped
Kruskal), then packs what is left into full groups.

When the best candidate of some :math:`v \notin U` fits in :math:`U`, only the
successor :math:`U \cup \{v\}` is generated: some optimal order places
:math:`v` next (Yuan, Malone and Wu 2011).

Anytime: stopped by ``time_limit`` or by the memory limit, the search returns
the better of the greedy network of :mod:`._heuristics` and a completion of the
best open node, with the bound :math:`\max f` over the open nodes (every
network passes through an open node; no bound below that network). Sums of
floats are rounded: the bound is widened by a few units in the last place of
the scores' sum, and the returned score is recomputed exactly (math.fsum).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ..._counting.subsets import _popcount
from ..._jit import njit
from ..._limits import ASTAR_MAX_VARIABLES
from ..._memory import available_memory
from ..._progress import progress_bar
from ..._validate import as_gap_limit, as_integer, as_memory_size, as_time_limit
from ._families import (
    _checked_families,
    _Families,
    _gap,
    _initial_choice,
    _network_result,
    show_status,
)
from ._heuristics import _greedy, _improve, _order_search
from ._pattern_database import _h, _Heuristic

if TYPE_CHECKING:
    from .._result import SearchResult
    from ._files import CandidateParentSets

__all__ = ["astar"]

#: Default largest group of the pattern database (a table of 2**size floats per group, and
#: size * 2**size floats while it is built).
DEFAULT_GROUP_SIZE = 20
#: Bytes of one node of the hash table (key, g, h, last variable, closed flag) at full load,
#: and of one entry of the open list (f, key).
_SLOT_BYTES = 8 + 8 + 8 + 1 + 1
_HEAP_BYTES = 16
_MAX_LOAD = 0.7
_HASH = np.uint64(0x9E3779B97F4A7C15)

# kernel return codes
_BUDGET, _GOAL, _EMPTY, _FULL = 0, 1, 2, 3


# -- the search ---------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _slot(keys, mask):
    """Slot of ``mask`` in the table, or the empty slot where it would go (keys hold ~mask)."""
    cap = keys.size
    bits = 0
    while (1 << bits) < cap:
        bits += 1
    i = np.int64((np.uint64(mask) * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(64 - bits))
    key = ~mask
    while keys[i] != 0 and keys[i] != key:
        i += 1
        if i == cap:
            i = 0
    return i


@njit(cache=True, nogil=True)
def _above(f1, m1, f2, m2):
    """Whether open entry 1 comes before entry 2: larger f, then more variables placed."""
    if f1 != f2:
        return f1 > f2
    return _popcount(m1) > _popcount(m2)


@njit(cache=True, nogil=True)
def _push(hf, hm, size, f, m):
    i = size
    hf[i] = f
    hm[i] = m
    while i > 0:
        p = (i - 1) >> 1
        if not _above(hf[i], hm[i], hf[p], hm[p]):
            break
        hf[i], hf[p] = hf[p], hf[i]
        hm[i], hm[p] = hm[p], hm[i]
        i = p
    return size + 1


@njit(cache=True, nogil=True)
def _sift_down(hf, hm, size, i):
    while True:
        a = 2 * i + 1
        if a >= size:
            break
        b = a + 1
        c = b if b < size and _above(hf[b], hm[b], hf[a], hm[a]) else a
        if not _above(hf[c], hm[c], hf[i], hm[i]):
            break
        hf[i], hf[c] = hf[c], hf[i]
        hm[i], hm[c] = hm[c], hm[i]
        i = c


@njit(cache=True, nogil=True)
def _pop(hf, hm, size):
    size -= 1
    hf[0] = hf[size]
    hm[0] = hm[size]
    _sift_down(hf, hm, size, 0)
    return size


@njit(cache=True, nogil=True)
def _best_fit(v, placed, start, pmask):
    """The best candidate of ``v`` with every parent in ``placed``, or -1."""
    for f in range(start[v], start[v + 1]):
        if pmask[f] & ~placed == 0:
            return f
    return -1


@njit(cache=True, nogil=True)
def _valid_top(hf, hm, state, keys, g, h, closed):
    """Drop stale and closed entries from the top; the slot of the top node, or -1."""
    while state[0] > 0:
        m = hm[0]
        s = _slot(keys, m)
        if closed[s] == 0 and hf[0] >= g[s] + h[s]:
            return s
        state[0] = _pop(hf, hm, state[0])
    return -1


@njit(cache=True, nogil=True)
def _expand(
    budget,
    n,
    start,
    pmask,
    score,
    members,
    sizes,
    offsets,
    tables,
    keys,
    g,
    h,
    last,
    closed,
    hf,
    hm,
    state,
):
    """Expand up to ``budget`` nodes. ``state``: heap size, nodes, expansions, goal slot."""
    full = np.int64(-1) if n == 64 else (np.int64(1) << n) - 1
    cap = keys.size
    for _ in range(budget):
        s = _valid_top(hf, hm, state, keys, g, h, closed)
        if s < 0:
            return _EMPTY
        u = ~keys[s]
        if u == full:
            state[3] = s
            return _GOAL
        if state[1] + n > _MAX_LOAD * cap or state[0] + n > hf.size:
            return _FULL
        state[0] = _pop(hf, hm, state[0])
        closed[s] = 1
        state[2] += 1
        base = g[s]
        # a variable whose best candidate fits: some optimal order places it next
        only = -1
        for v in range(n):
            if not (u >> v) & 1 and start[v] < start[v + 1]:
                if pmask[start[v]] & ~u == 0:
                    only = v
                    break
        for v in range(n):
            if (u >> v) & 1 or (only >= 0 and v != only):
                continue
            f = _best_fit(v, u, start, pmask)
            if f < 0:
                continue
            m = u | (np.int64(1) << v)
            value = base + score[f]
            t = _slot(keys, m)
            if keys[t] == 0:
                keys[t] = ~m
                g[t] = value
                h[t] = _h(m, members, sizes, offsets, tables)
                last[t] = v
                closed[t] = 0
                state[1] += 1
            elif closed[t] == 0 and value > g[t]:
                g[t] = value
                last[t] = v
            else:
                continue
            if h[t] > -np.inf:
                state[0] = _push(hf, hm, state[0], g[t] + h[t], m)
    return _BUDGET


@njit(cache=True)
def _rehash(keys, g, h, last, closed, keys2, g2, h2, last2, closed2):
    for i in range(keys.size):
        if keys[i] != 0:
            t = _slot(keys2, ~keys[i])
            keys2[t] = keys[i]
            g2[t] = g[i]
            h2[t] = h[i]
            last2[t] = last[i]
            closed2[t] = closed[i]


@njit(cache=True)
def _compact(hf, hm, size, keys, g, h, closed):
    """Keep the live entries of the open list (not closed, not stale); a heap again."""
    k = 0
    for i in range(size):
        s = _slot(keys, hm[i])
        if closed[s] == 0 and hf[i] >= g[s] + h[s]:
            hf[k] = hf[i]
            hm[k] = hm[i]
            k += 1
    for i in range(k // 2 - 1, -1, -1):
        _sift_down(hf, hm, k, i)
    return k


@njit(cache=True)
def _path(mask, keys, last, start, pmask):
    """The candidate (global index) of each variable of ``mask`` on its best path; -1 else."""
    n = start.size - 1
    choice = np.full(n, -1, dtype=np.int64)
    while mask != 0:
        v = last[_slot(keys, mask)]
        mask ^= np.int64(1) << v
        choice[v] = _best_fit(v, mask, start, pmask)
    return choice


class _Search:
    """The search's arrays, grown by doubling within a memory limit."""

    def __init__(self, n, capacity, heap_capacity):
        self.n = n
        self._tables(capacity)
        self.hf = np.empty(heap_capacity)
        self.hm = np.empty(heap_capacity, dtype=np.int64)
        self.state = np.zeros(4, dtype=np.int64)

    def _tables(self, capacity):
        self.keys = np.zeros(capacity, dtype=np.int64)
        self.g = np.empty(capacity)
        self.h = np.empty(capacity)
        self.last = np.empty(capacity, dtype=np.int8)
        self.closed = np.empty(capacity, dtype=np.int8)

    @property
    def nbytes(self):
        return self.keys.size * _SLOT_BYTES + self.hf.size * _HEAP_BYTES

    def grow(self, limit) -> bool:
        """Make room for one more expansion; False when that would pass ``limit`` bytes."""
        st = self.state
        if st[1] + self.n > _MAX_LOAD * self.keys.size:
            if self.nbytes + 2 * self.keys.size * _SLOT_BYTES > limit:  # old and new tables
                return False
            old = (self.keys, self.g, self.h, self.last, self.closed)
            self._tables(2 * self.keys.size)
            _rehash(*old, self.keys, self.g, self.h, self.last, self.closed)
        if st[0] + self.n > self.hf.size:
            st[0] = _compact(self.hf, self.hm, st[0], self.keys, self.g, self.h, self.closed)
            if 2 * (st[0] + self.n) > self.hf.size:
                if self.nbytes + 2 * self.hf.size * _HEAP_BYTES > limit:
                    return False
                self.hf = np.concatenate([self.hf, np.empty(self.hf.size)])
                self.hm = np.concatenate([self.hm, np.empty(self.hm.size, dtype=np.int64)])
        return True

    def expand(self, budget, fam, pmask, heur):
        return _expand(
            budget,
            self.n,
            fam.start,
            pmask,
            fam.score,
            heur.members,
            heur.sizes,
            heur.offsets,
            heur.tables,
            self.keys,
            self.g,
            self.h,
            self.last,
            self.closed,
            self.hf,
            self.hm,
            self.state,
        )

    def top(self):
        """Slot of the best open node, or -1 when the open list is empty."""
        return _valid_top(self.hf, self.hm, self.state, self.keys, self.g, self.h, self.closed)


def astar(
    candidates: CandidateParentSets,
    time_limit: float | None = None,
    initial: Mapping[Hashable, Iterable[Hashable]] | Sequence[Iterable[Hashable]] | None = None,
    show_progress: bool = True,
    gap_limit: float = 0.0,
    max_memory: float | None = None,
    group_size: int = DEFAULT_GROUP_SIZE,
    stop: Callable[[], bool] | None = None,
    display: Any = None,
) -> SearchResult:
    r"""The highest-scoring DAG over candidate parent sets, by A* search over the order graph.

    See the module notes for the method (URLearning's search with a static
    pattern-database heuristic). Deterministic: the same candidates and
    settings give the same network; a run cut by ``time_limit`` depends on the
    machine's speed.

    Parameters
    ----------
    candidates : CandidateParentSets
        At most 63 variables.
    time_limit : float, optional
        Seconds for the whole run (the first network and the heuristic's tables
        included; a batch of expansions may pass it by a tenth of a second);
        without it the search runs until optimal (or out of memory). When it
        runs out, the best network found is returned with a proven upper bound
        and the gap.
    initial : dict or sequence, optional
        A DAG to start from, as for :func:`~pgmpy_nml.search.candidates.solve`: the
        network returned when the search stops early, unless it finds a better one.
    show_progress : bool, default True
        A progress line with the incumbent score, the bound, the gap and the
        nodes expanded.
    gap_limit : float, default 0
        Stop once ``(bound - score) / |score|`` is at most this.
    max_memory : int or float, optional
        Bytes the search's tables may take (e.g. ``4e9``); by default 80% of
        the memory available when the search starts. When the next growth would
        pass it, the search stops like at the time limit (``status`` is
        ``"memorylimit"``).
    group_size : int, default 20
        Largest group of the pattern database (1: the simple bound, the sum of
        the remaining variables' best scores); the variables are split into as
        few groups as this allows, of balanced sizes. Each group takes a table
        of ``2**size`` floats (``size * 2**size`` while it is built).
    stop : callable, optional
        Asked between two batches of expansions (about ten times a second); when it
        returns True the search stops like at the time limit, with ``status``
        ``"stopped"`` (the portfolio, :mod:`._portfolio`, stops A* so when the other
        engine has finished).
    display : progress display, optional
        Where to report instead of a progress bar of its own (the portfolio's one line
        for both engines), left open; ``show_progress`` is then ignored.

    Returns
    -------
    SearchResult
        As :func:`~pgmpy_nml.search.candidates.solve`'s, with ``method`` and
        ``engine`` ``"astar"`` and ``status`` one of ``"optimal"``,
        ``"timelimit"``, ``"gaplimit"``, ``"memorylimit"`` (``"stopped"`` by ``stop``);
        ``n_cuts`` is 0.

    Raises
    ------
    ValueError
        When no DAG can be built from the candidates, or there are more than 63
        variables.
    RuntimeError
        When the search stopped before any network was found.

    Examples
    --------
    >>> from pgmpy_nml.search.candidates import CandidateParentSets
    >>> from pgmpy_nml.search.candidates._astar import astar
    >>> cands = CandidateParentSets.from_dict({
    ...     "A": {(): -10.0, ("B",): -7.0},
    ...     "B": {(): -9.0, ("A",): -5.0},
    ...     "C": {(): -4.0, ("A", "B"): -1.0},
    ... })
    >>> result = astar(cands, show_progress=False)
    >>> result.parents, result.score, result.optimal, result.engine
    ({'A': (), 'B': ('A',), 'C': ('A', 'B')}, -16.0, True, 'astar')
    """
    begin = time.perf_counter()
    fam = _checked_families(candidates)
    time_limit = as_time_limit(time_limit)
    gap_limit = as_gap_limit(gap_limit)
    group_size = as_integer(group_size, "group_size", minimum=1)
    limit = (
        0.8 * available_memory() if max_memory is None else as_memory_size(max_memory, "max_memory")
    )
    n = fam.n
    if n > ASTAR_MAX_VARIABLES:
        raise ValueError(
            f"The A* search handles at most {ASTAR_MAX_VARIABLES} variables (sets of variables "
            f"are bits of a 64-bit integer); the candidates have {n}. Use the solver."
        )
    timings = {}
    pmask = _parent_masks(fam)
    first = _first_network(fam, candidates, initial)
    timings["first network"] = time.perf_counter() - begin

    begin = time.perf_counter()
    # as few groups as the size allows, of balanced sizes: on alarm (37 variables, BDeu
    # ESS 100, N = 1000), groups of 16, 16 and 5 ran out of 6 GB, 19 and 18 proved it in 10 s
    n_groups = -(-n // group_size)
    heur = _Heuristic(fam, pmask, -(-n // n_groups))
    timings["heuristic"] = time.perf_counter() - begin
    # the bound is widened by the rounding of sums of n scores (a few ulps of the total)
    slack = 4 * n * np.finfo(float).eps * math.fsum(abs(s) for s in fam.score[fam.start[:-1]])
    search = _start(n, heur, limit)

    inc_score = fam.total(first) if first is not None else -math.inf
    bar = display
    if display is None:
        bar = progress_bar(
            show_progress,
            "exact search (A*)",
            total=None,
            bar_format="{desc}: {elapsed} {postfix}",
        )
    if time_limit is not None:  # the limit covers the first network and the heuristic too
        time_limit = max(time_limit - timings["first network"] - timings["heuristic"], 1e-9)
    try:
        status, bound = _run(
            search,
            fam,
            pmask,
            heur,
            (time_limit, gap_limit, limit, stop),
            slack,
            inc_score,
            bar,
            timings,
        )
        choice = _final_network(search, fam, pmask, status, first)
        score = fam.total(choice)
        bound = score if status == "optimal" else max(bound, score)
        show_status(bar, score, bound, int(search.state[2]))
    finally:
        if display is None:
            bar.close()
    return _network_result(
        fam,
        candidates,
        choice,
        bound,
        status,
        method="astar",
        engine="astar",
        timings=timings,
        n_cuts=0,
    )


def _parent_masks(fam: _Families) -> np.ndarray:
    """Each family's parent set, with the variable it must follow for symmetry breaking
    (``preds``), as a bitmask (int64)."""
    pmask = np.zeros(len(fam), dtype=np.int64)
    for f, parents in enumerate(fam.preds):
        for p in parents:
            pmask[f] |= np.int64(1) << p
    return pmask


def _first_network(fam: _Families, candidates: CandidateParentSets, initial):
    """The greedy sinks improved by local search, or ``initial`` (checked) when it is at
    least as good; None when neither exists."""
    first = _greedy(fam)
    if first is not None:
        first = _improve(fam, first)
    if initial is not None:
        given = _initial_choice(fam, candidates, initial)
        if first is None or fam.total(given) >= fam.total(first):
            first = given
    return first


def _start(n: int, heur: _Heuristic, limit: float) -> _Search:
    """The search's tables, sized for the memory ``limit``, with the empty set open."""
    # start small enough for the limit (a quarter of it), then double when needed
    capacity = 1 << 16
    while capacity > 128 and capacity * (_SLOT_BYTES + _HEAP_BYTES / 4) > limit / 4:
        capacity //= 2
    search = _Search(n, capacity=capacity, heap_capacity=max(capacity // 4, 2 * n + 2))
    h0 = _h(np.int64(0), heur.members, heur.sizes, heur.offsets, heur.tables)
    if not h0 > -np.inf:
        raise ValueError(
            "No DAG can be built from these candidates: every choice of one parent set per "
            "variable contains a directed cycle (check required edges)."
        )
    slot = _slot(search.keys, np.int64(0))
    search.keys[slot] = ~np.int64(0)
    search.g[slot], search.h[slot], search.last[slot], search.closed[slot] = 0.0, h0, -1, 0
    search.state[1] = 1
    search.state[0] = _push(search.hf, search.hm, 0, h0, np.int64(0))
    return search


def _final_network(search: _Search, fam: _Families, pmask, status: str, incumbent):
    """The network returned: the optimal path, or after an early stop the better of the
    incumbent and a completion of the best open node, improved by the iterated order
    search (:func:`._heuristics._order_search`, a second or two)."""
    if status == "optimal":
        return _path(np.int64((1 << fam.n) - 1), search.keys, search.last, fam.start, pmask)
    done = _complete_top(search, fam, pmask)
    if done is not None and (incumbent is None or fam.total(done) > fam.total(incumbent)):
        incumbent = done
    if incumbent is None:
        raise RuntimeError(
            f"The A* search stopped ({status}) before any network was found; raise "
            "time_limit or max_memory, or use the solver."
        )
    if status == "stopped":  # the portfolio's other engine finished: no time to spend
        return incumbent
    return _improve(fam, _order_search(fam, incumbent))  # never worse than the incumbent


def _run(search, fam, pmask, heur, limits, slack, inc_score, bar, timings):
    """Expand until the goal, a limit (``limits``: time, gap, memory, the ``stop`` call) or
    an empty open list: (status, bound)."""
    time_limit, gap_limit, limit, stop = limits
    budget = 256
    begin = time.perf_counter()
    try:
        while True:
            code = search.expand(budget, fam, pmask, heur)
            elapsed = time.perf_counter() - begin
            if code == _GOAL:
                return "optimal", None
            if code == _EMPTY:
                raise ValueError(
                    "No DAG can be built from these candidates: every choice of one parent set "
                    "per variable contains a directed cycle (check required edges)."
                )
            if search.top() < 0:
                continue  # the open list is empty: the next call says so
            bound = float(search.hf[0]) + slack  # the open list's top: its largest f
            if gap_limit > 0 and _gap(inc_score, bound) <= gap_limit:
                return "gaplimit", bound
            if time_limit is not None and elapsed >= time_limit:
                return "timelimit", bound
            if stop is not None and stop():
                return "stopped", bound
            if code == _FULL and not search.grow(limit):
                return "memorylimit", bound
            rate = search.state[2] / max(elapsed, 1e-6)  # about a tenth of a second per call
            budget = int(min(max(256, 0.1 * rate), 1 << 22))
            show_status(bar, inc_score, max(bound, inc_score), search.state[2])
    finally:
        timings["search"] = time.perf_counter() - begin


def _complete_top(search, fam, pmask):
    """A network through the best open node: its best path, then the greedy sinks."""
    top = search.top()
    if top < 0:
        return None
    placed = _path(~search.keys[top], search.keys, search.last, fam.start, pmask)
    available = np.ones(len(fam), dtype=bool)
    for v in np.flatnonzero(placed >= 0):
        available[fam.start[v] : fam.start[v + 1]] = False
        available[placed[v]] = True
    done = _greedy(fam, available=available)
    return None if done is None else _improve(fam, done)
