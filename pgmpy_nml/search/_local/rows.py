"""Local scores of every one-edge change of a child: the rows of the search's table.

:class:`StatisticRows` counts a child's candidate families in one compiled call
(:mod:`._kernels`) and turns their statistics into local scores with the score's
formula (scores with a contract, :mod:`pgmpy_nml.scores.contract`);
:class:`GenericRows` asks the score's ``local_score`` family by family (any other
score). :func:`make_rows` picks one. Both fill ``out[r, u]`` with the local score of
child ``children[r]`` with ``u`` toggled in its parents (``u == v``: its current
parents) and ``-inf`` where the move is never legal.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from ..._counted import maybe_count
from ..._data import EncodedData, encode_data
from ..._validate import as_n_jobs
from ...scores.contract import CountStatistic, Families, check_statistic_kinds
from ...scores.pgmpy_adapters import contract_for
from . import _kernels as _k

__all__ = ["GenericRows", "StatisticRows", "make_rows"]


def make_rows(score, n_jobs):
    """The rows of ``score``: compiled counting if it has a contract, else ``local_score``.

    ``n_jobs`` (threads of the counting, None: 1) is read only for the compiled path.
    """
    contract = contract_for(score)
    if contract is None:
        return GenericRows(score, list(score.variables))
    return StatisticRows(contract, 1 if n_jobs is None else as_n_jobs(n_jobs))


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


class StatisticRows:
    """Local scores of a child's one-edge changes from the score's per-subset statistics.

    For a batch of children, a compiled kernel counts every family one parent
    away from the current one (:func:`._kernels.item_statistics`, on
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
    #: counting work (families x data rows) each thread must get, else a call stays on
    #: one: about 0.35 ms of bitset counting (0.7 ns per family and row, andes), against
    #: 15-40 us to hand a call to the pool's threads (2,000,000 before: andes at
    #: N = 5000, 1.1e6 per call, never used the second thread)
    THREAD_WORK = 500_000

    def __init__(self, contract, n_threads: int):
        self.contract = contract
        enc = contract.encoded
        enc = maybe_count(enc)  # many repeated rows: count each distinct row once
        self.variables = list(enc.variables)
        self.codes = np.ascontiguousarray(enc.codes)
        # counted data: the distinct rows' counts (popcounts of row bitsets cannot
        # weigh rows, so the kernels then count with weighted histograms)
        self.weights = np.zeros(0, dtype=np.int64) if enc.weights is None else enc.weights
        self.arities = np.ascontiguousarray(enc.arities, dtype=np.int64)
        self.arity_float = self.arities.astype(np.float64)
        self.log_arities = np.log(self.arity_float)
        n_vars, n_rows = self.codes.shape
        n = enc.n_samples
        self.n_samples = n
        self.n_rows = n_rows
        statistics = contract.statistics()
        check_statistic_kinds(statistics, "local search")
        self.statistics = statistics
        self.keys = list(statistics)
        self.count_keys = [k for k in self.keys if isinstance(statistics[k], CountStatistic)]
        weights = enc.weights
        marginals = np.unique(
            np.concatenate(
                [np.bincount(row, weights).astype(np.int64) for row in self.codes] + [[n]]
            )
        )
        self.table = {k: self._tabulate(k, marginals) for k in self.count_keys}
        self._sides: dict = {}
        self._signatures: dict = {}
        self.n_threads = n_threads
        # working memory of the compiled kernels, one per thread, kept across calls
        self.direct_cells = 2 * n_rows + 64
        max_arity = int(self.arities.max())
        self.lookup_size = n_rows * max_arity + 1
        # row bitsets of every variable's states, unless they would take too much memory
        bitsets = n_vars * max_arity * ((n_rows + 63) // 64) * 8 <= self.BITSET_BYTES
        bitsets = bitsets and not enc.counted
        if bitsets:
            self.bits = _k.state_bits(self.codes, self.arities)
            # rows per state of each variable: tables of one variable or a pair from them
            self.marginals = np.zeros((n_vars, max_arity), dtype=np.int64)
            for i, row in enumerate(self.codes):
                self.marginals[i, : self.arities[i]] = np.bincount(row, minlength=self.arities[i])
        else:
            self.marginals = np.zeros((0, 0), dtype=np.int64)
            self.bits = np.zeros((0, 0, 0), dtype=np.uint64)
        self.workspaces = [
            _k.new_workspace(n_rows, self.direct_cells, bitsets, total=n) for _ in range(n_threads)
        ]
        self.batch = 32  # children per compiled call
        self._pool: ThreadPoolExecutor | None = None

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

    def screen_data(self):
        """``(codes, arities, bits, weights)`` of the data for the candidate screen."""
        return self.codes, self.arities, self.bits, (self.weights if len(self.weights) else None)

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
        common: tuple = (self.codes, self.arities, self.log_arities, self.bits, self.marginals)
        common += (children, members)
        common += (n_members,)
        weights = self.weights
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
                _k.item_statistics(*common, *chunk, ws, *sides, complete[todo][part], weights)

            # threads only where the counting outweighs handing it to them
            n_todo = len(range(len(item_row))[todo])
            threads = min(self.n_threads, max(1, n_todo * self.n_rows // self.THREAD_WORK))
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


class GenericRows:
    """Local scores of a child's one-edge changes through the score's ``local_score``."""

    kind = "generic"

    def __init__(self, score, variables):
        self.score = score
        self.variables = list(variables)

    def close(self) -> None:
        pass

    def screen_data(self):
        """``(codes, arities, None, weights)`` of the data for the candidate screen: the
        score's own encoding (this package's scores: counted data too), else its data
        encoded with its state names."""
        encoded = getattr(self.score, "encoded", None)
        if isinstance(encoded, EncodedData):
            index = [encoded.index[v] for v in self.variables]
            return encoded.codes[index], encoded.arities[index], None, encoded.weights
        data = getattr(self.score, "data", None)
        if data is None:
            raise TypeError(
                f"candidates= screens the data, but the score {type(self.score).__name__} has "
                f"no .data; give a score built on a DataFrame, or candidates=None."
            )
        names = getattr(self.score, "state_names", None)
        encoded = encode_data(data, None if names is None else dict(names))
        index = [encoded.index[v] for v in self.variables]
        return encoded.codes[index], encoded.arities[index], None, None

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
