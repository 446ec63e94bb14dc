"""The statistics of counted variable subsets, found by size and colex rank.

The candidate search (:mod:`~pgmpy_nml.search.candidates._tasks`) counts the
parent sets and families of each level once, in compiled code
(:func:`~pgmpy_nml._counting.subsets.listed_subset_statistics`), and keeps their
statistics here until no later level needs them.
"""

from __future__ import annotations

import math
import time

import numpy as np

from ..._counting import subsets as _kernels
from . import _budget
from ._lattice import _DENSE_SLOTS

__all__: list[str] = []


class _SizeTable:
    """Statistics of the counted subsets of one size, found by colex rank."""

    def __init__(self, n_possible: int, n_stats: int):
        self.slot = np.full(n_possible, -1, dtype=np.int64) if n_possible <= _DENSE_SLOTS else None
        self.ranks = np.zeros(0, dtype=np.int64)  # sorted (sparse tables only)
        self.columns = np.zeros(0, dtype=np.int64)
        self.stats = np.zeros((n_stats, 0))

    def find(self, ranks: np.ndarray) -> np.ndarray:
        """Column of each rank, -1 where not counted."""
        if self.slot is not None:
            return self.slot[ranks]
        if not len(self.ranks):
            return np.full(len(ranks), -1, dtype=np.int64)
        pos = np.minimum(np.searchsorted(self.ranks, ranks), len(self.ranks) - 1)
        return np.where(self.ranks[pos] == ranks, self.columns[pos], -1)

    def add(self, ranks: np.ndarray, stats: np.ndarray) -> None:
        columns = np.arange(self.stats.shape[1], self.stats.shape[1] + len(ranks))
        self.stats = np.concatenate([self.stats, stats], axis=1)
        if self.slot is not None:
            self.slot[ranks] = columns
        else:
            ranks = np.concatenate([self.ranks, ranks])
            columns = np.concatenate([self.columns, columns])
            order = np.argsort(ranks, kind="stable")
            self.ranks, self.columns = ranks[order], columns[order]


class _Store:
    """Statistics of counted subsets, by size and colex rank (a sparse table).

    ``problem`` is the task's ``_StatisticProblem`` (:mod:`._tasks`): the data in
    counting order and the statistics to count.
    """

    def __init__(self, problem, binom, n_threads: int):
        self.problem = problem
        self.binom = binom
        self.n_threads = n_threads
        self.by_size: dict = {}
        self.seconds = 0.0
        self.n_counted = 0

    def _table(self, size: int) -> _SizeTable:
        table = self.by_size.get(size)
        if table is None:
            n_possible = math.comb(len(self.problem.arities), size)
            table = _SizeTable(n_possible, len(self.problem.keys))
            self.by_size[size] = table
        return table

    def ensure(self, blocks, then: int = 0, what: str = "") -> None:
        """Count the subsets of ``blocks`` (arrays of rows of one size) not counted yet.

        Once the new subsets are known, and before they are counted, the memory of
        their counting plus ``then`` bytes (what the caller allocates after it, for
        ``what``) is checked (:func:`._budget.counting_bytes`)."""
        start = time.perf_counter()
        merged = self._new_subsets(blocks)
        if merged:
            n_new = sum(len(r) for r, _ in merged.values())
            width = max(max(merged), 1)
            _budget.check(
                _budget.counting_bytes(self, n_new, width, set(merged)) + then,
                f"{what or 'the variables'} ({n_new} new subsets of up to {width} "
                "variables to count)",
                self.problem.constraints,
            )
            all_rows = np.full((n_new, width), -1)
            sizes = np.empty(n_new, dtype=np.int64)
            at = 0
            for size, (ranks, rows) in merged.items():
                all_rows[at : at + len(ranks), :size] = rows
                sizes[at : at + len(ranks)] = size
                at += len(ranks)
            order = np.lexsort(all_rows.T[::-1])
            p = self.problem
            stats = _kernels.listed_subset_statistics(
                all_rows[order],
                sizes[order],
                p.codes,
                p.arities,
                p.tables,
                p.masses,
                self.n_threads,
                weights=p.weights,
            )
            back = np.empty_like(order)
            back[order] = np.arange(len(order))
            at = 0
            for size, (ranks, _) in merged.items():
                self._table(size).add(ranks, stats[:, back[at : at + len(ranks)]])
                at += len(ranks)
            self.n_counted += len(order)
        self.seconds += time.perf_counter() - start

    def _new_subsets(self, blocks) -> dict:
        """``{size: (ranks, rows)}`` of the subsets of ``blocks`` not counted yet, each
        once; no row is copied before it is known to be new and the first of its rank."""
        listed: dict = {}  # size -> [(rows, ranks of the new ones, their positions)]
        for rows in blocks:
            if rows.shape[0] == 0:
                continue
            size = rows.shape[1]
            ranks = _kernels.colex_ranks(rows, self.binom)
            new = np.flatnonzero(self._table(size).find(ranks) < 0)
            listed.setdefault(size, []).append((rows, ranks[new], new))
        merged = {}
        for size, parts in listed.items():
            ranks, first = np.unique(np.concatenate([r for _, r, _ in parts]), return_index=True)
            if not len(ranks):
                continue
            offsets = np.cumsum([0] + [len(r) for _, r, _ in parts])
            block = np.searchsorted(offsets, first, side="right") - 1
            by_block = np.argsort(block, kind="stable")
            cuts = np.searchsorted(block[by_block], np.arange(len(parts) + 1))
            rows = np.empty((len(ranks), size), dtype=np.int64)
            for b, (block_rows, _, new) in enumerate(parts):
                here = by_block[cuts[b] : cuts[b + 1]]
                rows[here] = block_rows[new[first[here] - offsets[b]]]
            merged[size] = (ranks, rows)
        return merged

    def get(self, rows: np.ndarray) -> np.ndarray:
        """Statistics of counted subsets (rows of one size): shape (n_stats, m)."""
        if rows.shape[0] == 0:
            return np.zeros((len(self.problem.keys), 0))
        table = self.by_size[rows.shape[1]]
        return table.stats[:, table.find(_kernels.colex_ranks(rows, self.binom))]

    def forget_below(self, size: int) -> None:
        for s in [s for s in self.by_size if s < size]:
            del self.by_size[s]
