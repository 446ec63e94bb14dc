"""Local structure search: greedy hill climbing and tabu search, with restarts and perturbation."""

from __future__ import annotations

import itertools
import math
import time
from collections import deque
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import numpy as np
from pgmpy.structure_score import BaseStructureScore

from .._estimator import feature_names, fitted_attribute
from .._params import (
    EXPERT_KNOWLEDGE,
    LOCAL_METHODS,
    PARAMETER_ESTIMATOR,
    SCORING_METHOD,
    START_DAG,
    AnyOf,
    Boolean,
    Choice,
    Instance,
    Integer,
    NJobs,
    NoneOr,
    RandomState,
    Real,
    validate_params,
)
from ..scores.contract import CountStatistic, Families, check_statistic_kinds
from ..scores.pgmpy_adapters import contract_for
from ._base import _StructureSearch
from ._local import _kernels as _k
from ._local import _screen_kernels as _sk
from ._local import screen as _screen
from ._result import SearchResult
from .constraints import Constraints, check_start_dag

if TYPE_CHECKING:
    import pandas as pd
    from pgmpy.parameter_estimator import DiscreteParameterEstimator

    from .._typing import ExpertKnowledgeLike, Graph, ScoringMethod

__all__ = ["LocalSearch"]

#: Ties: a move replaces the best so far only if its change is larger by more than this
#: (relative to the change, at least absolute), so changes equal up to rounding tie.
TIE_RTOL = 1e-9

#: The structure-prior operation names of pgmpy's ``structure_prior_ratio``, by move kind.
_PRIOR_OPERATIONS = ("+", "-", "flip")

#: Bytes of local-score rows kept for parent sets met before.
_ROW_CACHE_BYTES = 1 << 28

#: Searches of ``candidate_rounds=None`` with top-k candidates (one re-selection).
_DEFAULT_ROUNDS = 2

#: Fixed seed of the network hashes (tabu list): independent of the user's seed.
_HASH_SEED = 0x5EED_7AB0


class _Recorder(Mapping):
    """Statistic key -> a dummy array, remembering which keys a formula reads."""

    def __init__(self, keys):
        self._keys = list(keys)
        self.read: set = set()

    def __getitem__(self, key):
        if key not in self._keys:
            raise KeyError(key)
        self.read.add(key)
        return np.ones(1)

    def __iter__(self):
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


class _StatisticRows:
    """Local scores of a child's one-edge changes from the score's per-subset statistics.

    For a batch of children, a compiled kernel counts every family one parent
    away from the current one (:func:`._local_kernels.item_statistics`, on
    threads if asked) into the statistics the score's formula reads for that
    child (found once per child by a probe), and the formula
    (``local_from_statistics``) turns each child's statistics into its row of
    local scores at once.

    The tables ``phi(0), ..., phi(N)`` of count statistics are computed whole when
    that is cheap (e.g. ``N log N``) and otherwise on demand (e.g. the exact
    ``log C(r, N)`` of fNML, which would cost about a second per arity at N =
    50,000): the small counts, the variables' marginal counts and ``N`` up front,
    the others when a family needs them (the kernels defer those families'
    reductions and request the counts).
    """

    kind = "statistics"

    #: counts 0, 1, ... of a count statistic are tabulated up front for about this long
    EAGER_SECONDS = 0.00025
    #: in blocks doubling from this size
    PREFIX = 256
    #: largest memory for the variables' row bitsets (else small tables use histograms)
    BITSET_BYTES = 1 << 28

    def __init__(self, contract, n_threads: int):
        self.contract = contract
        enc = contract.encoded
        self.variables = list(enc.variables)
        self.codes = np.ascontiguousarray(enc.codes)
        self.arities = np.ascontiguousarray(enc.arities, dtype=np.int64)
        self.arity_float = self.arities.astype(np.float64)
        self.log_arities = np.log(self.arity_float)
        n_vars, n = self.codes.shape
        self.n_samples = n
        statistics = contract.statistics()
        check_statistic_kinds(statistics, "local search")
        self.statistics = statistics
        self.keys = list(statistics)
        self.count_keys = [k for k in self.keys if isinstance(statistics[k], CountStatistic)]
        marginals = np.unique(np.concatenate([np.bincount(row) for row in self.codes] + [[n]]))
        self.table = {k: self._tabulate(k, marginals) for k in self.count_keys}
        self._sides: dict = {}
        self._signatures: dict = {}
        self.n_threads = n_threads
        # working memory of the compiled kernels, one per thread, kept across calls
        self.direct_cells = 2 * n + 64
        max_arity = int(self.arities.max())
        self.lookup_size = n * max_arity + 1
        # row bitsets of every variable's states, unless they would take too much memory
        bitsets = n_vars * max_arity * ((n + 63) // 64) * 8 <= self.BITSET_BYTES
        if bitsets:
            self.bits = _k.state_bits(self.codes, self.arities)
        else:
            self.bits = np.zeros((0, 0, 0), dtype=np.uint64)
        self.workspaces = [
            _k.new_workspace(n, self.direct_cells, bitsets) for _ in range(n_threads)
        ]
        self.batch = 32  # children per compiled call
        self._pool = None

    # -- tables of count statistics --------------------------------------------------------
    def _phi(self, key, counts) -> np.ndarray:
        """``phi`` of the count statistic ``key`` at ``counts`` (all >= 1)."""
        return np.asarray(self.statistics[key].phi(counts), dtype=np.float64)

    def _tabulate(self, key, marginals):
        """``phi(0..N)`` whole if that is cheap, else the counts up to a prefix that fits
        the time budget, the marginal counts and ``N``, and NaN for the others."""
        n = self.n_samples
        table = np.full(n + 1, np.nan)
        table[0] = 0.0
        spent = 0.0
        top = 0
        while top < n and spent < self.EAGER_SECONDS:
            block = np.arange(top + 1, min(n, max(2 * top, self.PREFIX)) + 1)
            start = time.perf_counter()
            table[block] = self._phi(key, block)
            spent += time.perf_counter() - start
            top = int(block[-1])
        missing = marginals[np.isnan(table[marginals])]
        table[missing] = self._phi(key, missing)
        return table

    def _fill(self, keys, counts) -> None:
        """Tabulate the count statistics ``keys`` at ``counts`` (in the stacked copies too)."""
        for key in keys:
            table = self.table.get(key)
            if table is None:
                continue
            missing = counts[np.isnan(table[counts])]
            if len(missing):
                table[missing] = self._phi(key, missing)
                for stacked_keys, (tables, _) in self._sides.items():
                    for j, k in enumerate(stacked_keys):
                        if k == key:
                            tables[j, missing] = table[missing]

    def _side(self, keys):
        """``(tables, masses)`` of the statistics ``keys`` of one side (kept and reused)."""
        side = self._sides.get(keys)
        if side is None:
            count = [k for k in keys if k in self.table]
            tables = np.array([self.table[k] for k in count]).reshape(
                len(count), self.n_samples + 1
            )
            masses = [self.statistics[k].mass for k in keys if k not in self.table]
            side = (tables, np.array(masses, dtype=np.float64))
            self._sides[keys] = side
        return side

    # -- which statistics a child's formula reads ------------------------------------------
    def _signature(self, v: int):
        """The statistic keys the formula reads for child ``v``: (family keys, parent keys),
        each count statistics first (the order of the kernels' output rows)."""
        signature = self._signatures.get(v)
        if signature is None:
            family, parents = _Recorder(self.keys), _Recorder(self.keys)
            probe = Families(
                child=self.variables[v],
                child_arity=int(self.arities[v]),
                n_parent_configs=np.full(1, 2.0),
                n_parents=np.ones(1, dtype=np.int64),
                n_samples=self.n_samples,
                family=family,
                parents=parents,
            )
            try:
                with np.errstate(all="ignore"):
                    self.contract.local_from_statistics(probe)
                read = (family.read, parents.read)
            except Exception:  # any surprise: compute every statistic
                read = (set(self.keys), set(self.keys))
            signature = tuple(self._ordered(keys) for keys in read)
            self._signatures[v] = signature
        return signature

    def _ordered(self, keys):
        keys = set(keys)
        counted = [k for k in self.count_keys if k in keys]
        return tuple(counted + [k for k in self.keys if k in keys and k not in self.table])

    # -- threads -----------------------------------------------------------------------------
    def _run(self, task, n_items: int, threads: int) -> None:
        """``task(ws, part)`` on ``threads`` contiguous slices of ``range(n_items)``."""
        if threads <= 1 or n_items < 2:
            task(self.workspaces[0], slice(0, n_items))
            return
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.n_threads)
        bounds = np.linspace(0, n_items, min(threads, n_items) + 1).astype(int)
        futures = [
            self._pool.submit(task, self.workspaces[c], slice(lo, hi))
            for c, (lo, hi) in enumerate(itertools.pairwise(bounds))
        ]
        for future in futures:
            future.result()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown()
            self._pool = None

    def _requests(self) -> np.ndarray:
        """The counts the kernels asked for since the last call (and reset the lists)."""
        found = [c for c in map(_k.take_requests, self.workspaces) if len(c)]
        if len(found) > 1:
            return np.unique(np.concatenate(found))
        return found[0] if found else np.zeros(0, dtype=np.int64)

    # -- local scores ------------------------------------------------------------------------
    def compute(self, children, engine):
        """Rows of local scores of the children's one-edge changes (``-inf``: never legal)."""
        out = np.empty((len(children), len(self.variables)))
        groups: dict = {}
        for r, v in enumerate(children):
            groups.setdefault(self._signature(int(v)), []).append(r)
        for signature, rows in groups.items():
            for start in range(0, len(rows), self.batch):
                part = rows[start : start + self.batch]
                out[part] = self._batch(children[part], engine, signature)
        return out

    def _batch(self, children, engine, signature):
        n_vars = len(self.variables)
        n_rows = len(children)
        children = np.ascontiguousarray(children, dtype=np.int64)
        # full count tables where S + v has few cells, refined configurations elsewhere
        plan = engine.plan(children, self.log_arities, math.log(self.direct_cells) - 1e-9)
        members, n_members, item_row, item_u, item_kind, item_direct, row_start = plan
        if not item_direct.all():  # some families have many cells: refine configurations
            self.workspaces = [_k.with_lookup(ws, self.lookup_size) for ws in self.workspaces]
        family_keys, parent_keys = signature
        stats_parents = np.zeros((len(parent_keys), n_rows * n_vars))
        stats_family = np.zeros((len(family_keys), n_rows * n_vars))
        common = (self.codes, self.arities, self.log_arities, self.bits, children, members)
        common += (n_members,)
        items = (item_row, item_u, item_kind, item_direct)
        complete = np.zeros(len(item_row), dtype=bool)
        todo = slice(0, len(item_row))
        for _ in range(3):
            sides = (
                (*self._side(parent_keys), stats_parents, 0),
                (*self._side(family_keys), stats_family, 1),
            )

            def count(ws, part, sides=sides, todo=todo):
                chunk = tuple(x[todo][part] for x in items)
                _k.item_statistics(*common, *chunk, ws, *sides, complete[todo][part])

            # threads only where the counting outweighs their start-up
            n_todo = len(range(len(item_row))[todo])
            threads = min(self.n_threads, max(1, n_todo * self.n_samples // 2_000_000))
            self._run(count, n_todo, threads)
            requested = self._requests()
            if len(requested):
                self._fill(set(family_keys) | set(parent_keys), requested)
                sides = (
                    (*self._side(parent_keys), stats_parents, 0),
                    (*self._side(family_keys), stats_family, 1),
                )
                for ws in self.workspaces:
                    _k.reduce_deferred(ws, *sides)
            if complete.all():
                break
            # deferred buffers overflowed: count the rest again, now that more is tabulated
            first = int(np.argmin(complete))
            todo = slice(first, len(item_row))
            complete[todo] = False
        else:
            raise RuntimeError("The count tables stayed incomplete after refilling them.")
        out = np.full((n_rows, n_vars), -np.inf)
        arity = self.arity_float
        for r, v in enumerate(children):
            cols = slice(r * n_vars, (r + 1) * n_vars)
            step = np.where(engine.parents[v] != 0, -1, 1)
            step[v] = 0
            q_current = math.prod(float(self.arities[u]) for u in members[r, : n_members[r]])
            families = Families(
                child=self.variables[v],
                child_arity=int(self.arities[v]),
                n_parent_configs=np.where(step < 0, q_current / arity, q_current * arity**step),
                n_parents=n_members[r] + step,
                n_samples=self.n_samples,
                family={k: stats_family[i, cols] for i, k in enumerate(family_keys)},
                parents={k: stats_parents[i, cols] for i, k in enumerate(parent_keys)},
            )
            try:
                values = self.contract.local_from_statistics(families)
            except KeyError:
                full = (self._ordered(self.keys), self._ordered(self.keys))
                if signature == full:
                    raise
                # the probe missed a statistic the formula reads: compute them all
                self._signatures[int(v)] = full
                out[r] = self._batch(children[r : r + 1], engine, full)[0]
                continue
            us = item_u[row_start[r] : row_start[r + 1]]
            out[r, us] = np.broadcast_to(values, (n_vars,))[us]
        return out


class _GenericRows:
    """Local scores of a child's one-edge changes through the score's ``local_score``."""

    kind = "generic"

    def __init__(self, score, variables):
        self.score = score
        self.variables = list(variables)

    def close(self) -> None:
        pass

    def compute(self, children, engine):
        """Rows of local scores of the children's one-edge changes (``-inf``: never legal)."""
        variables = self.variables
        plan = engine.plan(children, np.zeros(len(variables)), 0.0)
        members, n_members, item_row, item_u = plan[:4]
        out = np.full((len(children), len(variables)), -np.inf)
        for r, u in zip(item_row.tolist(), item_u.tolist(), strict=True):
            v = int(children[r])
            current = set(members[r, : n_members[r]].tolist())
            parents = current if u == v else current ^ {u}
            out[r, u] = self.score.local_score(
                variables[v], tuple(variables[w] for w in sorted(parents))
            )
        return out


class _Engine:
    """The search state: the network, its closure, the local-score table and the moves.

    ``local[v, v]`` is the local score of ``v`` with its current parents and
    ``local[v, u]`` the one with ``u`` added to or removed from them; a move
    marks the children whose parent set changed, and only their rows are
    recomputed (or taken from a cache of rows by parent set).
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
        self.add_start = self.add_head = None  # candidate additions by tail (None: all)
        self.edges = np.zeros(0, dtype=np.int64)  # keys u * n + v of the edges, ascending
        self.offsets = np.asarray(offsets, dtype=np.float64)
        self.keys = np.random.default_rng(_HASH_SEED).integers(
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
        self._cache_limit = max(1, _ROW_CACHE_BYTES // (8 * n))
        self.row_seconds = 0.0
        self.rows_computed = 0

    # -- state ---------------------------------------------------------------------------
    def set_parents(self, parents) -> None:
        self.parents[:, :] = parents
        self.n_parents[:] = self.parents.sum(axis=1)
        if not _k.reachability(self.parents, self.reach):
            raise ValueError("The start network has a cycle.")
        h = np.int64(0)
        for v, u in zip(*np.nonzero(self.parents), strict=True):
            h ^= self.keys[u, v]
        self.hash = h
        self._set_edges()
        self.dirty[:] = True

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
        _k.reachability(self.parents, self.reach)
        self.hash, self.prior = h, prior
        self._set_edges()
        self.dirty[:] = False

    def total(self) -> float:
        return float(np.trace(self.local)) + self.prior

    # -- local scores --------------------------------------------------------------------
    def plan(self, children, log_arities, log_direct_cells):
        """The candidate families of the children: :func:`._local_kernels.plan_items`."""
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
        state = (self.parents, self.n_parents, self.reach, self.local, self.forbidden)
        state += (self.required, self.max_parents, self.offsets, self.keys, self.hash)
        if self.add_start is None:
            kind, u, v, delta = _k.best_move(*state, tabu, rtol, neutral)
        else:  # candidates: scan only their additions and the present edges
            kind, u, v, delta = _sk.best_move_restricted(
                *state, tabu, rtol, neutral, self.add_start, self.add_head, self.edges
            )
        return int(kind), int(u), int(v), float(delta)

    def legal_moves(self):
        return _k.legal_moves(
            self.parents,
            self.n_parents,
            self.reach,
            self.forbidden,
            self.required,
            self.max_parents,
        )

    def apply(self, kind: int, u: int, v: int) -> None:
        if kind == _k.ADD:
            self.parents[v, u] = 1
            self.n_parents[v] += 1
        else:
            self.parents[v, u] = 0
            self.n_parents[v] -= 1
        self.hash ^= self.keys[u, v]
        self.dirty[v] = True
        if kind == _k.REVERSE:
            self.parents[u, v] = 1
            self.n_parents[u] += 1
            self.hash ^= self.keys[v, u]
            self.dirty[u] = True
        self.prior += float(self.offsets[kind])
        if kind == _k.ADD:
            _sk.reach_add(self.reach, u, v)
            key = u * self.n + v
            self.edges = np.insert(self.edges, np.searchsorted(self.edges, key), key)
        else:
            _k.reachability(self.parents, self.reach)
            self._set_edges()


class LocalSearch(_StructureSearch):
    r"""Greedy hill climbing or tabu search over DAGs, compiled, for any decomposable score.

    Starting from an empty network (or ``start_dag``), each step applies the best
    single-edge change (add, delete or reverse an edge) that keeps the network
    acyclic and within the constraints. A move on the edge :math:`u \to v`
    changes only the families of :math:`v` (and of :math:`u` for a reversal), so
    its score change is a difference of local scores,

    .. math::

        \Delta = S(v \mid P_v \triangle \{u\}) - S(v \mid P_v)
                 \;[ + S(u \mid P_u \cup \{v\}) - S(u \mid P_u) \text{ for a reversal}],

    kept in a table of every child's one-edge changes that is recomputed only
    for the children whose parents changed. For scores with a contract
    (:mod:`pgmpy_nml.scores.contract`: this package's FNML, QNML, BDeu and
    BDConstant; pgmpy's BDeu, K2, BIC, AIC and LogLikelihood) one compiled call
    counts all of a child's candidate families, and the score's formula turns
    their statistics into local scores at once; any other score (Min-BDeu,
    Max-BDeu, pgmpy's BDs, your own) goes through its ``local_score``
    (``plan_`` says which). Move selection, acyclicity (a transitive-closure
    matrix) and constraints are compiled with numba.

    - ``method="hill"``: greedy hill climbing; stops when no move improves the
      score by at least ``epsilon``.
    - ``method="tabu"``: tabu search as bnlearn's ``tabu``: always applies the
      best move to a network not among the last ``tabu_length`` visited, even
      if it lowers the score, and stops after ``max_non_improving``
      consecutive moves without a new best; returns the best network seen.
      Unlike bnlearn, it never adds or deletes an edge that changes the score
      by less than ``epsilon`` (either way), such as any edge at a column with
      a single observed value: there are many such moves, none changes the fit,
      and at a local optimum they would be preferred to every move that lowers
      the score, so the search would spend its ``max_non_improving`` moves on
      them without leaving the optimum's score (on insurance, N = 1000, whose
      ``Theft`` column is constant, tabu search without restarts then ended at
      the greedy score under fNML, qNML, BDeu and BIC). Reversals that keep the score (of a
      covered edge under a score-equivalent score) are still taken: they walk
      the equivalence class, which opens other moves.
    - ``restarts``, ``perturb``: as bnlearn's ``hc(restart=, perturb=)``:
      after each search, perturb the best network found so far by ``perturb``
      random legal moves (drawn with ``random_state``) and search again; the best
      network of all searches wins.
    - ``candidates``: the sparse candidate algorithm [3]_. Each variable may gain
      parents only among its candidates, screened by mutual information with a
      top-``k`` cap and re-selected from the score gains given the current
      parents after each search (``candidate_rounds``); the pairs left out are
      never counted nor scanned, which is where the full search spends its
      ``n^2`` cost. Measured with ``benchmarks/bench_local_candidates.py``
      (hill climbing, BDeu(1), N = 5000, one thread, CPU seconds), ``"auto"``
      against the full search: alarm 0.03 s / 0.02 s, score 0.28% higher;
      andes 0.27 s / 0.41 s, 0.03% higher; pigs 1.1 s / 2.1 s, 0.09% higher;
      link 3.0 s / 10.7 s, 1.7% higher; munin 6.4 s / 25.7 s, 0.51% lower. The
      restricted search takes another path to another local optimum, up to
      0.5% apart here, about as far as the full search itself moves when only
      its tie-breaking changes (columns reversed: 0.04-2.3%); not within 0.1%
      on every network, so the full search (``candidates=None``) stays the
      default. Without re-selection (``candidate_rounds=1``) munin takes 1.4 s
      but ends 2.2% lower, and link 21% lower: there many parents matter only
      jointly with others, which no pairwise screen sees.

    Tie-breaking is deterministic and independent of the process (no hashing
    of names): among moves whose score changes are equal up to a relative
    ``1e-9``, the first in the order *add < delete < reverse*, then by the
    position of the edge's tail :math:`u`, then of its head :math:`v`, in the
    data's column order. For a score-equivalent score the first edge of a
    tied pair therefore points from the earlier column to the later one.

    Parameters
    ----------
    scoring_method : str or score object, default "fnml"
        A score instance built on the data, or a name of
        :func:`pgmpy_nml.scores.score_names` with default parameters.
    method : {"hill", "tabu"}, default "hill"
    max_parents : int, optional
        Largest parent set (no limit by default).
    expert_knowledge : pgmpy.causal_discovery.ExpertKnowledge or dict, optional
        Required edges, forbidden edges, search space and temporal tiers.
    start_dag : pgmpy DAG, networkx DiGraph, dict or list of edges, optional
        The network to start from (default: no edges): a DAG over the data's
        variables, ``{child: parents}`` or a list of ``(parent, child)`` edges.
        Required edges are added to it; it must be acyclic and satisfy the other
        constraints (the same check as :class:`~pgmpy_nml.ExactSearch`'s).
    tabu_length : int, default 10
        Tabu search: how many recently visited networks may not be revisited.
    max_non_improving : int, optional
        Tabu search: consecutive moves without a new best score before it
        stops (default ``tabu_length``, bnlearn's ``max.tabu``).
    restarts : int, default 0
        Number of perturbed restarts after the first search.
    perturb : int, default 10
        Random moves applied to the best network before each restart. bnlearn's
        default is 1, after which the search mostly climbs straight back: with
        10 restarts of tabu search on 24 networks, sample sizes and scores (27-56
        variables, 10 seeds each), 10 moves ended higher than 1 in 78 of 240
        runs and lower in 3 (0-179 nats higher on average), for a median 0.04 s
        of CPU per fit instead of 0.02 s.
    random_state : int, numpy Generator or None, default 0
        Seed of the perturbations (None: fresh entropy, not reproducible).
        Without restarts the search uses no randomness at all.
    max_iter : int, default 1000000
        Largest number of moves of each search.
    epsilon : float, default 1e-4
        Smallest score change that counts as an improvement (pgmpy's default);
        tabu search takes no addition or deletion that changes the score by less.
    parameter_estimator : pgmpy DiscreteParameterEstimator, optional
        If given (e.g. :class:`~pgmpy_nml.FSNMLEstimator`), the learned network
        is fitted and returned in ``model_``.
    n_jobs : int or None, default None
        Threads of the compiled counting (None: 1; -1 all cores, -2 all but one).
        They pay off only for large data sets whose families have many cells:
        small families are counted with bitsets in microseconds.
    show_progress : bool, default True
        A progress bar with the number of moves and the current score.
    candidates : None, "auto", int or dict, default None
        Candidate parents (the sparse candidate algorithm [3]_, bnlearn's
        two-phase learners): ``None`` searches every pair of variables. An integer
        ``k`` keeps, for each variable, the ``k`` others with the largest
        empirical mutual information (ties to the earlier column; one compiled
        pass over every pair's count table); ``"auto"`` is ``k = 10``. A dict
        ``{child: parents}`` gives the sets (children not listed get none).
        Required parents are always candidates, forbidden ones never. Only
        additions ``u -> v`` with ``u`` a candidate of ``v`` are counted and
        scanned; deletions are always possible, the reversal of ``u -> v`` when
        ``v`` is a candidate of ``u``.
    candidate_rounds : int, optional
        Searches with re-selected candidates (top-``k`` candidates only; default
        2, i.e. one re-selection, and 1 otherwise). After each search every
        variable's candidates become its current parents plus the ``k`` others
        whose addition would raise its local score most given those parents (one
        pass over every pair, as costly as the first pass of the full search),
        and the search continues from the result; it stops early when the
        candidates or the network no longer change. The score never decreases
        from round to round (``round_scores_``).
    symmetric_candidates : bool, default True
        Make ``v`` a candidate of ``u`` whenever ``u`` is one of ``v`` (current
        parents included), so that every edge can be reversed.

    Attributes
    ----------
    causal_graph_ : pgmpy.base.DAG
        The best network found, with every variable as a node.
    dag_ : pgmpy.base.DAG
        The same, under the name :class:`~pgmpy_nml.ExactSearch` also uses.
    score_ : float
        Its score: the sum of its local scores plus the score's structure prior
        (``scoring_method.score(causal_graph_)``, up to rounding).
    n_iter_ : int
        Moves made by the searches (perturbations not counted).
    history_ : ndarray
        The score of the current network: at the start (of each candidate round),
        after every move of the searches, and after each perturbation (its random
        moves together).
    restart_scores_ : ndarray
        The score each search ended with (the first search, then each restart;
        round after round with ``candidate_rounds``).
    model_ : pgmpy.models.DiscreteBayesianNetwork or None
        The fitted network, when ``parameter_estimator`` was given.
    timings_ : dict
        Seconds spent computing local scores, selecting candidates and in the rest
        of the search.
    plan_ : str
        ``"statistics"`` (compiled counting) or ``"generic"`` (``local_score``).
    candidates_ : dict or None
        Each variable's candidate parents (a tuple, in column order) in the last
        round; None for the full search.
    round_scores_ : ndarray
        The score at the end of each candidate round (one entry without candidates).
    method_ : str
        The search that ran, ``"hill"`` or ``"tabu"``.
    n_features_in_ : int
        The number of columns of the data.
    feature_names_in_ : ndarray of object
        The data's columns, in order.

    Examples
    --------
    >>> from pgmpy_nml import FNML, LocalSearch
    >>> from pgmpy_nml.datasets import sample_network
    >>> true_model, data = sample_network("asia", 5000, random_state=0)
    >>> search = LocalSearch("fnml", show_progress=False).fit(data)
    >>> search.causal_graph_.number_of_nodes(), search.plan_
    (8, 'statistics')
    >>> tabu = LocalSearch("fnml", method="tabu", restarts=5, perturb=3, show_progress=False)
    >>> bool(tabu.fit(data).score_ >= search.score_ - 1e-9)
    True
    >>> sparse = LocalSearch("fnml", candidates=3, candidate_rounds=1, show_progress=False)
    >>> sparse.fit(data).candidates_["lung"]  # three by mutual information, mirror images
    ('bronc', 'either', 'smoke', 'xray')
    >>> bool(sparse.score_ >= search.score_)  # another path, here to a higher optimum
    True

    References
    ----------
    .. [1] D. Koller, N. Friedman. Probabilistic Graphical Models, MIT Press, 2009,
       Sec. 18.4.3 (local search, tabu lists, random restarts).
    .. [2] M. Scutari. "Learning Bayesian networks with the bnlearn R package".
       Journal of Statistical Software 35(3), 2010 (``hc``, ``tabu``).
    .. [3] N. Friedman, I. Nachman, D. Pe'er. "Learning Bayesian network structure
       from massive datasets: the 'sparse candidate' algorithm". UAI 1999.
    """

    _parameter_specs = {
        "scoring_method": SCORING_METHOD,
        "method": Choice(LOCAL_METHODS),
        "max_parents": NoneOr(Integer()),
        "expert_knowledge": EXPERT_KNOWLEDGE,
        "start_dag": START_DAG,
        "tabu_length": Integer(minimum=1),
        "max_non_improving": NoneOr(Integer(minimum=1)),
        "restarts": Integer(),
        "perturb": Integer(),
        "random_state": RandomState(),
        "max_iter": Integer(),
        "epsilon": Real(),
        "parameter_estimator": PARAMETER_ESTIMATOR,
        "n_jobs": NJobs(),
        "show_progress": Boolean(),
        "candidates": NoneOr(
            AnyOf(
                Choice(("auto",)),
                Integer(minimum=1),
                Instance(Mapping, "a mapping {child: parents}"),
                what="None, 'auto', a positive integer or a mapping {child: parents}",
            )
        ),
        "candidate_rounds": NoneOr(Integer(minimum=1)),
        "symmetric_candidates": Boolean(),
    }

    def __init__(
        self,
        scoring_method: ScoringMethod = "fnml",
        *,
        method: str = "hill",
        max_parents: int | None = None,
        expert_knowledge: ExpertKnowledgeLike | None = None,
        start_dag: Graph | None = None,
        tabu_length: int = 10,
        max_non_improving: int | None = None,
        restarts: int = 0,
        perturb: int = 10,
        random_state: int | np.random.Generator | None = 0,
        max_iter: int = 1_000_000,
        epsilon: float = 1e-4,
        parameter_estimator: DiscreteParameterEstimator | None = None,
        n_jobs: int | None = None,
        show_progress: bool = True,
        candidates: int | str | Mapping | None = None,
        candidate_rounds: int | None = None,
        symmetric_candidates: bool = True,
    ) -> None:
        self.scoring_method = scoring_method
        self.method = method
        self.max_parents = max_parents
        self.expert_knowledge = expert_knowledge
        self.start_dag = start_dag
        self.tabu_length = tabu_length
        self.max_non_improving = max_non_improving
        self.restarts = restarts
        self.perturb = perturb
        self.random_state = random_state
        self.max_iter = max_iter
        self.epsilon = epsilon
        self.parameter_estimator = parameter_estimator
        self.n_jobs = n_jobs
        self.show_progress = show_progress
        self.candidates = candidates
        self.candidate_rounds = candidate_rounds
        self.symmetric_candidates = symmetric_candidates

    causal_graph_ = fitted_attribute("dag", "pgmpy.base.DAG: the best network found.")
    method_ = fitted_attribute("method", 'str: the search that ran, "hill" or "tabu".')
    score_ = fitted_attribute("score", "float: its score (local scores plus structure prior).")
    n_iter_ = fitted_attribute("n_iter", "int: moves made by the searches.")
    history_ = fitted_attribute("history", "ndarray: the score after every move.")
    restart_scores_ = fitted_attribute(
        "restart_scores", "ndarray: the score each search (first, then restarts) ended with."
    )
    timings_ = fitted_attribute("timings", "dict: seconds per part of the search.")
    plan_ = fitted_attribute(
        "plan", 'str: "statistics" (compiled counting) or "generic" (local_score).'
    )
    candidates_ = fitted_attribute(
        "candidates", "dict or None: each variable's candidate parents in the last round."
    )
    round_scores_ = fitted_attribute(
        "round_scores", "ndarray: the score at the end of each candidate round."
    )

    # -- checks ---------------------------------------------------------------------------
    def _settings(self) -> dict:
        """Every parameter checked once, at ``fit`` entry, before any work."""
        settings = validate_params(self)
        if settings["max_non_improving"] is None:
            settings["max_non_improving"] = settings["tabu_length"]
        settings.update(
            tabu=settings["method"] == "tabu", rng=np.random.default_rng(settings["random_state"])
        )
        return settings

    def _start(self, constraints: Constraints) -> np.ndarray:
        """The start network as a parent matrix, with the required edges added."""
        variables = constraints.variables
        n = len(variables)
        parents = np.zeros((n, n), dtype=np.uint8)
        for v in range(n):
            parents[v, list(constraints.required[v])] = 1
        if self.start_dag is None:
            return parents
        index = {v: i for i, v in enumerate(variables)}
        for u, v in check_start_dag(self.start_dag, constraints).edges():
            parents[index[v], index[u]] = 1
        return parents

    # -- the search ----------------------------------------------------------------------
    def _climb(self, engine, settings, record):
        """One search from the engine's network; leaves the best network found in it."""
        tabu_mode = settings["tabu"]
        epsilon = settings["epsilon"]
        engine.refresh()
        best_total = engine.total()
        best_state = None  # None: the current network is the best so far
        visited = deque([engine.hash], maxlen=settings["tabu_length"])
        no_tabu = np.zeros(0, dtype=np.int64)
        # tabu search: no additions or deletions that leave the score unchanged (see the
        # class docstring); greedy search takes no move below epsilon anyway
        neutral = epsilon if tabu_mode else 0.0
        stale = moves = 0
        while moves < settings["max_iter"]:
            tabu = np.array(visited, dtype=np.int64) if tabu_mode else no_tabu
            kind, u, v, delta = engine.best(tabu, TIE_RTOL, neutral)
            if kind < 0 or (not tabu_mode and delta < epsilon):
                break
            if tabu_mode and best_state is None:
                best_state = engine.snapshot()  # about to leave the best network
            engine.apply(kind, u, v)
            engine.refresh()
            moves += 1
            current = engine.total()
            record(current)
            if not tabu_mode:
                continue
            visited.append(engine.hash)
            if current > best_total + epsilon:
                best_total, best_state, stale = current, None, 0
            else:
                stale += 1
                if stale >= settings["max_non_improving"]:
                    break
        if best_state is not None:
            engine.restore(best_state)
        return moves

    def _search(self, engine, settings, bar, history):
        def record(total):
            history.append(total)
            bar.update(1)
            bar.set_postfix_str(f"score {total:.4f}", refresh=False)

        engine.refresh()
        history.append(engine.total())
        n_iter = self._climb(engine, settings, record)
        best_total, best_state = engine.total(), engine.snapshot()
        ends = [best_total]
        rng = settings["rng"]
        for k in range(settings["restarts"]):
            bar.set_description(f"{self.method} restart {k + 1}/{settings['restarts']}")
            engine.restore(best_state)
            for _ in range(settings["perturb"]):
                moves = engine.legal_moves()
                if not len(moves):
                    break
                kind, u, v = (int(x) for x in moves[rng.integers(len(moves))])
                engine.apply(kind, u, v)
            engine.refresh()
            history.append(engine.total())
            n_iter += self._climb(engine, settings, record)
            total = engine.total()
            ends.append(total)
            if total > best_total + TIE_RTOL * max(1.0, abs(best_total)):
                best_total, best_state = total, engine.snapshot()
        engine.restore(best_state)
        return n_iter, ends

    def fit(self, data: pd.DataFrame | None = None) -> LocalSearch:
        """Learn a structure by local search.

        Parameters
        ----------
        data : pandas.DataFrame, optional
            The data to learn from, as in :meth:`ExactSearch.fit`: optional when
            ``scoring_method`` is a score object (which brings its data), and
            then only the data that score was built on.

        Returns
        -------
        self
        """
        self._result = None
        started = time.perf_counter()
        settings = self._settings()
        score = self._resolve_score(data)
        contract = contract_for(score)
        if contract is not None:
            rows = _StatisticRows(contract, settings["n_jobs"])
        else:
            rows = _GenericRows(score, list(score.variables))
        variables = rows.variables
        constraints = Constraints.from_knowledge(
            variables, settings["max_parents"], self.expert_knowledge
        )
        start = self._start(constraints)
        offsets = [_prior_ratio(score, op) for op in _PRIOR_OPERATIONS]
        spec = _screen.as_candidate_spec(self.candidates, variables)
        if settings["candidate_rounds"] is None:
            settings["candidate_rounds"] = _DEFAULT_ROUNDS if isinstance(spec, int) else 1
        if settings["candidate_rounds"] > 1 and not isinstance(spec, int):
            given = "no candidates" if spec is None else "a mapping of candidates"
            raise ValueError(
                f"candidate_rounds > 1 re-selects the top k candidates after each search: "
                f"it needs candidates as an integer or 'auto', got {given}."
            )
        engine = _Engine(rows, constraints, offsets, _structure_prior(score, variables, start))
        engine.set_parents(start)
        history: list[float] = []
        from tqdm.auto import tqdm

        bar = tqdm(
            desc=f"{self.method} search",
            disable=not self.show_progress,
            unit=" moves",
            leave=True,
        )
        screen_seconds = 0.0
        allowed = None
        round_scores = []
        n_iter, ends = 0, []
        try:
            with bar:
                for round_ in range(settings["candidate_rounds"]):
                    if round_:
                        bar.set_description(
                            f"{self.method} search, candidate round "
                            f"{round_ + 1}/{settings['candidate_rounds']}"
                        )
                    if spec is not None:
                        begun = time.perf_counter()
                        chosen = self._candidates(spec, rows, engine, round_, settings)
                        screen_seconds += time.perf_counter() - begun
                        if allowed is not None and np.array_equal(chosen, allowed):
                            break  # the same candidates: the same search again
                        allowed = chosen
                        engine.restrict(allowed)
                    moves, round_ends = self._search(engine, settings, bar, history)
                    n_iter += moves
                    ends += round_ends
                    round_scores.append(engine.total())
                    if spec is None or (round_ and moves == 0):
                        break
        except KeyboardInterrupt:
            raise KeyboardInterrupt("LocalSearch interrupted; nothing was fitted.") from None
        finally:
            rows.close()
        dag = _to_dag(engine.parents, variables)
        total = engine.total()
        model = self._fitted_model(dag, score, data)
        elapsed = time.perf_counter() - started
        timings = {
            "local scores": engine.row_seconds,
            "candidate screen": screen_seconds,
            "rest of the search": elapsed - engine.row_seconds - screen_seconds,
            "rows computed": engine.rows_computed,
        }
        self._result = SearchResult(
            method=self.method,
            dag=dag,
            score=total,
            model=model,
            timings=timings,
            plan=rows.kind,
            max_parents=self.max_parents,
            candidates=None if allowed is None else _screen.candidate_dict(allowed, variables),
            n_iter=n_iter,
            history=np.array(history),
            restart_scores=np.array(ends),
            round_scores=np.array(round_scores),
            feature_names=feature_names(variables),
        )
        return self

    def _candidates(self, spec, rows, engine, round_: int, settings) -> np.ndarray:
        """The candidate matrix ``allowed[v, u]`` of a round: the first from the mutual
        information (or the user's sets), later ones from the score gains given the
        current parents (which stay candidates), required parents always."""
        forbidden = engine.knowledge_forbidden != 0
        required = engine.required != 0
        symmetric = settings["symmetric_candidates"]
        if not isinstance(spec, int):  # the user's candidate sets
            return _screen.select_candidates(
                np.zeros(forbidden.shape), 0, forbidden, required, spec, symmetric
            )
        if round_ == 0:
            strength = _screen.mutual_information(*_screen_data(rows))
            return _screen.select_candidates(strength, spec, forbidden, required, None, symmetric)
        current = engine.parents != 0
        gains = engine.gains()
        return _screen.select_candidates(gains, spec, forbidden, required, current, symmetric)


def _screen_data(rows):
    """``(codes, arities, bits)`` of the data for the screen (the generic path encodes
    the score's data with its state names)."""
    if isinstance(rows, _StatisticRows):
        return rows.codes, rows.arities, rows.bits
    from .._data import encode_data

    data = getattr(rows.score, "data", None)
    if data is None:
        raise TypeError(
            f"candidates= screens the data, but the score {type(rows.score).__name__} has "
            f"no .data; give a score built on a DataFrame, or candidates=None."
        )
    names = getattr(rows.score, "state_names", None)
    encoded = encode_data(data, None if names is None else dict(names))
    index = [encoded.index[v] for v in rows.variables]
    return encoded.codes[index], encoded.arities[index], None


def _prior_ratio(score, operation: str) -> float:
    ratio = getattr(score, "structure_prior_ratio", None)
    return float(ratio(operation)) if ratio is not None else 0.0


def _to_dag(parents, variables):
    from pgmpy.base import DAG

    dag = DAG()
    dag.add_nodes_from(variables)
    dag.add_edges_from((variables[u], variables[v]) for v, u in np.argwhere(parents))
    return dag


def _structure_prior(score, variables, parents) -> float:
    prior = getattr(score, "structure_prior", None)
    if prior is None or getattr(prior, "__func__", None) is BaseStructureScore.structure_prior:
        return 0.0  # pgmpy's default: a uniform prior, log 0
    return float(prior(_to_dag(parents, variables)))
