"""The state of a local search: the network, its closure, the local-score table, the moves.

:class:`Engine` holds the network as a parent matrix with its transitive closure
(:mod:`._move_kernels`) and the table ``local[v, u]`` of every child's one-edge
changes, whose rows come from :mod:`.rows`; :func:`start_engine` builds one at a
start network. The searches that drive it are in :mod:`.climb`.
"""

from __future__ import annotations

import time

import numpy as np
from pgmpy.structure_score import BaseStructureScore

from ...models import dag_from_parents
from ..constraints import Constraints, check_start_dag
from . import _kernels as _k
from . import _move_kernels as _m
from . import _scan_kernels as _sc
from . import _screen_kernels as _sk

__all__ = ["Engine", "best_forest", "start_engine", "start_parents", "to_dag"]

#: The structure-prior operation names of pgmpy's ``structure_prior_ratio``, by move kind.
PRIOR_OPERATIONS = ("+", "-", "flip")

#: Bytes of local-score rows kept for parent sets met before.
ROW_CACHE_BYTES = 1 << 28

#: Fixed seed of the network hashes (tabu list): independent of the user's seed.
HASH_SEED = 0x5EED_7AB0


def start_parents(constraints: Constraints, start_dag) -> np.ndarray:
    """The start network as a parent matrix: ``start_dag`` (None: no edges, else checked
    by :func:`~pgmpy_nml.search.constraints.check_start_dag`) with the required edges added."""
    variables = constraints.variables
    n = len(variables)
    parents = np.zeros((n, n), dtype=np.uint8)
    for v in range(n):
        parents[v, list(constraints.required[v])] = 1
    if start_dag is None:
        return parents
    index = {v: i for i, v in enumerate(variables)}
    for u, v in check_start_dag(start_dag, constraints).edges():
        parents[index[v], index[u]] = 1
    return parents


def start_engine(rows, score, constraints: Constraints, start) -> Engine:
    """An :class:`Engine` over ``rows`` at the parent matrix ``start``, with the score's
    structure prior (its value at ``start`` and its change per move kind)."""
    offsets = [_prior_ratio(score, op) for op in PRIOR_OPERATIONS]
    engine = Engine(rows, constraints, offsets, _structure_prior(score, rows.variables, start))
    engine.set_parents(start)
    return engine


class Engine:
    """The search state: the network, its closure, the local-score table and the moves.

    ``local[v, v]`` is the local score of ``v`` with its current parents and
    ``local[v, u]`` the one with ``u`` added to or removed from them; a move
    marks the children whose parent set changed, and only their rows are
    recomputed (or taken from a cache of rows by parent set). :meth:`best` scans
    the moves from a cache of every child's best addition
    (:mod:`._scan_kernels`), which the moves mark stale (``_stale``) and reset.
    """

    def __init__(self, rows, constraints: Constraints, offsets, prior):
        n = len(constraints.variables)
        self.rows = rows
        self.n = n
        self.max_parents = int(constraints.max_parents)
        self.forbidden = np.zeros((n, n), dtype=np.uint8)
        self.required = np.zeros((n, n), dtype=np.uint8)
        for v in range(n):
            self.forbidden[v, list(constraints.forbidden[v])] = 1
            self.required[v, list(constraints.required[v])] = 1
        # the constraints' forbidden edges; ``forbidden`` adds the non-candidates to them
        self.knowledge_forbidden = self.forbidden.copy()
        # candidate additions by tail (None: all)
        self.add_start: np.ndarray | None = None
        self.add_head: np.ndarray | None = None
        self.edges = np.zeros(0, dtype=np.int64)  # keys u * n + v of the edges, ascending
        self.offsets = np.asarray(offsets, dtype=np.float64)
        self.keys = np.random.default_rng(HASH_SEED).integers(
            np.iinfo(np.int64).min, np.iinfo(np.int64).max, size=(n, n), dtype=np.int64
        )
        self.parents = np.zeros((n, n), dtype=np.uint8)
        self.n_parents = np.zeros(n, dtype=np.int64)
        self.reach = np.zeros((n, n), dtype=np.uint8)
        self.local = np.full((n, n), -np.inf)
        self.dirty = np.ones(n, dtype=bool)
        self.hash = np.int64(0)
        self.prior = float(prior)
        self._cache: dict = {}
        self._cache_limit = max(1, ROW_CACHE_BYTES // (8 * n))
        self.row_seconds = 0.0
        self.rows_computed = 0
        # the move scan's cache (:mod:`._scan_kernels`): rows bound, value; arg, exact,
        # stale, has_nan; every row stale until the first scan
        self._scan_f = np.full((2, n), -np.inf)
        self._scan_i = np.zeros((4, n), dtype=np.int64)
        self._scan_i[2] = 1
        self._scan_reset = True
        self.full_scans = 0  # scans the cache left to the definition's full scan

    #: Whether :meth:`best` scans from the cache (False: every pair, the definition).
    use_move_cache = True

    def _stale(self, *children) -> None:
        """The move cache's rows of ``children`` (all if none given) must be recomputed."""
        if children:
            self._scan_i[2, list(children)] = 1
        else:
            self._scan_i[2] = 1

    # -- state ---------------------------------------------------------------------------
    def set_parents(self, parents) -> None:
        self.parents[:, :] = parents
        self.n_parents[:] = self.parents.sum(axis=1)
        if not _m.reachability(self.parents, self.reach):
            raise ValueError("The start network has a cycle.")
        h = np.int64(0)
        for v, u in zip(*np.nonzero(self.parents), strict=True):
            h ^= self.keys[u, v]
        self.hash = h
        self._set_edges()
        self.dirty[:] = True
        self._stale()

    def _set_edges(self) -> None:
        tails, heads = np.nonzero(self.parents.T)
        self.edges = (tails * self.n + heads).astype(np.int64)

    def restrict(self, allowed) -> None:
        """Allow additions ``u -> v`` only where ``allowed[v, u]`` (and the constraints
        allow). Non-candidates are never counted nor scanned; cached rows and the
        local-score table are dropped."""
        self.forbidden[:, :] = self.knowledge_forbidden | ~np.asarray(allowed, dtype=bool)
        tails, heads = np.nonzero(self.forbidden.T == 0)
        keep = tails != heads
        tails, heads = tails[keep], heads[keep]
        self.add_start = np.searchsorted(tails, np.arange(self.n + 1)).astype(np.int64)
        self.add_head = heads.astype(np.int64)
        self._cache.clear()
        self.local[:, :] = -np.inf
        self.dirty[:] = True
        self._stale()

    def gains(self) -> np.ndarray:
        """``gains[v, u]``: the change of ``v``'s local score if ``u`` were added to its
        parents (every pair the constraints allow, candidates or not; else ``-inf``)."""
        restricted = self.forbidden.copy()
        self.forbidden[:, :] = self.knowledge_forbidden
        try:
            table = self.rows.compute(np.arange(self.n, dtype=np.int64), self)
        finally:
            self.forbidden[:, :] = restricted
        gains = table - np.diag(table)[:, None]
        gains[self.parents != 0] = -np.inf
        np.fill_diagonal(gains, -np.inf)
        return gains

    def snapshot(self):
        return (self.parents.copy(), self.local.copy(), self.hash, self.prior)

    def restore(self, snap) -> None:
        parents, local, h, prior = snap
        self.parents[:, :] = parents
        self.local[:, :] = local
        self.n_parents[:] = parents.sum(axis=1)
        _m.reachability(self.parents, self.reach)
        self.hash, self.prior = h, prior
        self._set_edges()
        self.dirty[:] = False
        self._stale()

    def total(self) -> float:
        return float(np.trace(self.local)) + self.prior

    # -- local scores --------------------------------------------------------------------
    def plan(self, children, log_arities, log_direct_cells):
        """The candidate families of the children: :func:`._kernels.plan_items`."""
        return _k.plan_items(
            np.ascontiguousarray(children, dtype=np.int64),
            self.parents,
            self.n_parents,
            self.forbidden,
            self.required,
            self.max_parents,
            log_arities,
            log_direct_cells,
        )

    def refresh(self) -> None:
        """Bring the rows of the children whose parents changed up to date."""
        todo = np.flatnonzero(self.dirty)
        if not len(todo):
            return
        self._stale(*todo)
        missing = []
        for v in todo:
            row = self._cache.get((int(v), self.parents[v].tobytes()))
            if row is None:
                missing.append(v)
            else:
                self.local[v] = row
        if missing:
            start = time.perf_counter()
            children = np.array(missing, dtype=np.int64)
            values = self.rows.compute(children, self)
            self.row_seconds += time.perf_counter() - start
            self.rows_computed += len(missing)
            if len(self._cache) + len(missing) > self._cache_limit:
                self._cache.clear()
            for r, v in enumerate(missing):
                self.local[v] = values[r]
                self._cache[int(v), self.parents[v].tobytes()] = values[r]
        self.dirty[:] = False

    # -- moves ---------------------------------------------------------------------------
    def best(self, tabu, rtol, neutral=0.0):
        state: tuple = (self.parents, self.n_parents, self.reach, self.local, self.forbidden)
        state += (self.required, self.max_parents, self.offsets, self.keys, self.hash)
        if self.use_move_cache:
            cache = (self._scan_f, self._scan_i, self._scan_reset, _sc.BAND_RTOL)
            kind, u, v, delta, full = _sc.cached_best_move(
                *state, tabu, rtol, neutral, self.edges, *cache
            )
            self._scan_reset = False
            self.full_scans += bool(full)
        elif self.add_start is None:
            kind, u, v, delta = _m.best_move(*state, tabu, rtol, neutral)
        else:  # candidates: scan only their additions and the present edges
            kind, u, v, delta = _sk.best_move_restricted(
                *state, tabu, rtol, neutral, self.add_start, self.add_head, self.edges
            )
        return int(kind), int(u), int(v), float(delta)

    def legal_moves(self):
        return _m.legal_moves(
            self.parents,
            self.n_parents,
            self.reach,
            self.forbidden,
            self.required,
            self.max_parents,
        )

    def topological_order(self, rng) -> np.ndarray:
        """An order of the variables in which every parent comes before its children:
        by number of ancestors (each child has more than any of its ancestors), ties in
        random order (``rng``)."""
        ancestors = self.reach.sum(axis=0, dtype=np.int64)
        return np.lexsort((rng.permutation(self.n), ancestors))

    def delete_edges(self, tails, heads) -> None:
        """Delete the edges ``tails[i] -> heads[i]`` (present, not required) at once: a
        subgraph of a DAG within the constraints is one, so no check is needed."""
        tails = np.asarray(tails, dtype=np.int64)
        heads = np.asarray(heads, dtype=np.int64)
        if not len(tails):
            return
        self.parents[heads, tails] = 0
        self.n_parents[:] = self.parents.sum(axis=1)
        self.hash ^= np.bitwise_xor.reduce(self.keys[tails, heads])
        self.prior += len(tails) * float(self.offsets[_m.DELETE])
        self.dirty[heads] = True
        self._stale(*np.union1d(tails, heads).tolist())
        self._scan_reset = True  # additions can be legal again
        _m.reachability(self.parents, self.reach)
        self._set_edges()

    def order_kick(self, rng, k: int) -> int:
        """Move ``k`` variables of a topological order of the network to random places
        and delete the edges (not required) the new order contradicts: the perturbation
        of the order-based restarts. Returns the number of edges deleted."""
        order = list(self.topological_order(rng))
        for _ in range(min(k, self.n)):
            x = order.pop(int(rng.integers(len(order))))
            order.insert(int(rng.integers(len(order) + 1)), x)
        position = np.empty(self.n, dtype=np.int64)
        position[np.array(order, dtype=np.int64)] = np.arange(self.n)
        heads, tails = np.nonzero(self.parents)
        against = (position[tails] > position[heads]) & (self.required[heads, tails] == 0)
        self.delete_edges(tails[against], heads[against])
        return int(against.sum())

    def apply(self, kind: int, u: int, v: int) -> None:
        if kind == _m.ADD:
            self.parents[v, u] = 1
            self.n_parents[v] += 1
        else:
            self.parents[v, u] = 0
            self.n_parents[v] -= 1
        self.hash ^= self.keys[u, v]
        self.dirty[v] = True
        self._stale(u, v)
        self._scan_reset = self._scan_reset or kind != _m.ADD
        if kind == _m.REVERSE:
            self.parents[u, v] = 1
            self.n_parents[u] += 1
            self.hash ^= self.keys[v, u]
            self.dirty[u] = True
        self.prior += float(self.offsets[kind])
        if kind == _m.ADD:
            _sk.reach_add(self.reach, u, v)
            key = u * self.n + v
            self.edges = np.insert(self.edges, np.searchsorted(self.edges, key), key)
        else:
            _m.reachability(self.parents, self.reach)
            self._set_edges()


def best_forest(gains) -> np.ndarray:
    """The parent matrix of the best forest for the one-parent score changes ``gains``.

    ``gains[v, u]`` is the change of ``v``'s local score when ``u`` becomes its only
    parent (``-inf`` where it may not). A network in which every variable has at most
    one parent is a forest, and its score is that of the empty network plus the gains
    of its edges. The forest here is the maximum spanning forest of the symmetric
    weights ``(gains[v, u] + gains[u, v]) / 2`` over the pairs where both are positive
    (Kruskal's, by scipy), each tree directed away from the root that makes the sum of
    its directed gains largest (the roots compared in one pass: moving the root from
    ``p`` to its child ``c`` flips one edge). For a score-equivalent score
    (``gains[v, u] == gains[u, v]``: qNML, BDeu, BIC) it is the best network with at
    most one parent per variable (the Chow-Liu argument); for fNML a close start.

    Returns
    -------
    ndarray of uint8, shape (n, n)
        ``parents[v, u] = 1`` iff ``u -> v``.
    """
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import (
        breadth_first_order,
        connected_components,
        minimum_spanning_tree,
    )

    gains = np.asarray(gains, dtype=np.float64)
    n = gains.shape[0]
    with np.errstate(invalid="ignore"):
        weights = (gains + gains.T) / 2.0
    usable = (gains > 0) & (gains.T > 0) & np.isfinite(weights)
    np.fill_diagonal(usable, False)
    tree = minimum_spanning_tree(csr_matrix(np.where(usable, -weights, 0.0)))
    tree = tree + tree.T
    parents = np.zeros((n, n), dtype=np.uint8)
    _, labels = connected_components(tree, directed=False)
    for members in np.split(np.argsort(labels, kind="stable"), np.cumsum(np.bincount(labels))):
        if len(members) < 2:
            continue
        first = int(members[0])
        order, pred = breadth_first_order(tree, first, directed=False)
        # total directed gain with each member as the root, from the first one's
        total = np.zeros(n)
        total[first] = sum(gains[v, pred[v]] for v in order[1:])
        for v in order[1:]:
            p = pred[v]
            total[v] = total[p] - gains[v, p] + gains[p, v]
        root = order[int(np.argmax(total[order]))]
        order, pred = breadth_first_order(tree, root, directed=False)
        for v in order[1:]:
            parents[v, pred[v]] = 1
    return parents


def _prior_ratio(score, operation: str) -> float:
    ratio = getattr(score, "structure_prior_ratio", None)
    return float(ratio(operation)) if ratio is not None else 0.0


def to_dag(parents, variables):
    """The pgmpy DAG of the parent matrix (``parents[v, u] = 1`` iff ``u -> v``), every
    variable a node."""
    rows = {
        variables[v]: [variables[u] for u in np.flatnonzero(row)] for v, row in enumerate(parents)
    }
    return dag_from_parents(rows, variables)


def _structure_prior(score, variables, parents) -> float:
    prior = getattr(score, "structure_prior", None)
    if prior is None or getattr(prior, "__func__", None) is BaseStructureScore.structure_prior:
        return 0.0  # pgmpy's default: a uniform prior, log 0
    return float(prior(to_dag(parents, variables)))
