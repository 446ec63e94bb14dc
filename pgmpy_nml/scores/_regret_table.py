"""Memoized ``log C(K, n)`` for the many small counts a score asks about."""

from __future__ import annotations

import numpy as np

from ..regret import _log_regret_many, log_regret

__all__ = ["RegretTable"]


class RegretTable:
    """``log C(K, n)`` for ``0 <= n <= n_max``, computed once per ``(K, n)``.

    fNML needs ``sum_j log C(r, N_ij)`` for every observed parent configuration
    ``j`` of every family: a handful of arities ``r`` and counts below the
    sample size. One lazily filled array per arity makes each lookup O(1).
    Pairs with large ``K`` (qNML collapses parent sets) are memoized one by one.
    """

    #: counts above this are looked up one by one (keeps each array <= 16 MB)
    DENSE_LIMIT = 1 << 21

    def __init__(self, n_max: int):
        self.n_max = min(int(n_max), self.DENSE_LIMIT)
        self._tables: dict[int, np.ndarray] = {}
        self._single_memo: dict[tuple[int, int], float] = {}

    def sum(self, K: int, counts: np.ndarray) -> float:
        """``sum_c log C(K, counts[c])`` for an int64 array of non-negative counts."""
        large = counts > self.n_max
        if large.any():
            rest = sum(self.single(K, int(n)) for n in counts[large])
            return rest + self.sum(K, counts[~large])
        table = self._tables.get(K)
        if table is None:
            table = np.full(self.n_max + 1, np.nan)
            self._tables[K] = table
        values = table[counts]
        missing = np.isnan(values)
        if missing.any():
            todo = np.unique(counts[missing])
            table[todo] = _log_regret_many(float(K), todo.astype(np.int64))
            values = table[counts]
        return float(values.sum())

    def single(self, K: int, n: int) -> float:
        """``log C(K, n)`` for one pair (K may be astronomically large)."""
        value = self._single_memo.get((K, n))
        if value is None:
            value = self._single_memo[K, n] = log_regret(K, n)
        return value
