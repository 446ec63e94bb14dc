"""Counting kernels: contingency tables of a family from integer codes.

Everything a local score needs comes from one table per family: ``N_jk``, the
number of rows with parent configuration ``j`` and child state ``k``, over the
*observed* parent configurations only (unobserved ones contribute nothing to
any score here, and there may be 2**60 of them).

The configuration id of ``S + v`` is ``id(S) * r_v + x_v``; while the number
of configurations is small it indexes a lookup array directly (one compiled
pass over the rows), otherwise ids are re-densified with a sort after each
variable, so arbitrarily large products of arities never overflow.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from scipy.special import xlogy

__all__ = ["family_table", "sum_nlogn"]

# A direct lookup array is used while the parent configurations number at most
# this many per row of data (plus a constant), so its cost stays O(N).
_DENSE_PER_ROW = 4
_DENSE_MIN = 1 << 16


@njit(cache=True, nogil=True)
def _dense_table(codes, child, parents, strides, n_parent_configs, child_arity):
    """Family table when the parent configurations fit a lookup array."""
    n = codes.shape[1]
    lookup = np.full(n_parent_configs, -1, dtype=np.int64)
    row_of = np.empty(n, dtype=np.int64)
    n_obs = 0
    for t in range(n):
        key = 0
        for a in range(parents.shape[0]):
            key += codes[parents[a], t] * strides[a]
        j = lookup[key]
        if j < 0:
            j = n_obs
            lookup[key] = j
            n_obs += 1
        row_of[t] = j
    table = np.zeros((n_obs, child_arity), dtype=np.int64)
    for t in range(n):
        table[row_of[t], codes[child, t]] += 1
    return table


def _dense_ids(codes: np.ndarray, idx, arities) -> tuple[np.ndarray, int]:
    """Re-densified joint configuration ids of the variables ``idx`` (sort based)."""
    ids = np.zeros(codes.shape[1], dtype=np.int64)
    n_ids = 1
    for i in idx:
        r = int(arities[i])
        if n_ids * r >= 2**62:
            _, ids = np.unique(ids, return_inverse=True)
            n_ids = int(ids.max()) + 1
        ids = ids * r + codes[i]
        n_ids *= r
    uniq, ids = np.unique(ids, return_inverse=True)
    return ids.astype(np.int64, copy=False), len(uniq)


def family_table(codes: np.ndarray, arities: np.ndarray, child: int, parents) -> np.ndarray:
    """Counts ``N_jk`` of one family over its observed parent configurations.

    Parameters
    ----------
    codes : ndarray of int32, shape (n_variables, n_samples)
    arities : ndarray of int64, shape (n_variables,)
    child : int
        Position of the child variable.
    parents : sequence of int
        Positions of the parents (any order; the table's rows are in an
        unspecified but deterministic order).

    Returns
    -------
    ndarray of int64, shape (n_observed_parent_configurations, r_child)
        Every row has a positive sum; with no parents there is one row.
    """
    parents = np.asarray(parents, dtype=np.int64)
    r = int(arities[child])
    n = codes.shape[1]
    q = 1
    for p in parents:
        q *= int(arities[p])
    if q <= _DENSE_PER_ROW * n + _DENSE_MIN:
        strides = np.ones(len(parents), dtype=np.int64)
        for a in range(len(parents) - 2, -1, -1):
            strides[a] = strides[a + 1] * arities[parents[a + 1]]
        return _dense_table(codes, child, parents, strides, q, r)
    ids, n_obs = _dense_ids(codes, parents, arities)
    flat = np.bincount(ids * r + codes[child], minlength=n_obs * r)
    return flat.reshape(n_obs, r)


def sum_nlogn(counts) -> float:
    """``H = sum_c N_c log N_c`` over the cells of ``counts`` (``0 log 0 = 0``)."""
    counts = np.asarray(counts, dtype=np.float64)
    return float(xlogy(counts, counts).sum())
