"""Counting kernels: contingency tables of a family from integer codes.

Everything a local score needs comes from one table per family: ``N_jk``, the
number of rows with parent configuration ``j`` and child state ``k``, over the
*observed* parent configurations only (unobserved ones contribute nothing to
any score here, and there may be 2**60 of them).

The configuration id of ``S + v`` is ``id(S) * r_v + x_v``; while a family's
cells are few it indexes a full table directly (compiled passes over the
rows), while its parent configurations are few it goes through a lookup
array, and otherwise ids are re-densified with a sort whenever they would
overflow, so arbitrarily large products of arities are handled exactly.
"""

from __future__ import annotations

import math

import numpy as np

from .._jit import njit

__all__ = [
    "configuration_index",
    "dense_ids",
    "family_table",
    "full_family_table",
    "sum_nlogn",
]

# Families with at most this many cells per row of data (plus a constant) are
# counted straight into a full (q, r) table; with more, parent configurations
# are first re-densified through a lookup array, up to _LOOKUP_PER_ROW per row.
_DIRECT_PER_ROW = 2
_LOOKUP_PER_ROW = 4
_MIN_CELLS = 1 << 16
_SPLIT = 4  # independent sub-histograms, to break store-to-load dependencies


@njit(cache=True, nogil=True)
def _parent_keys(codes, arities, parents, scale):
    """Mixed-radix key of each row's parent configuration, times ``scale``.

    Computed one column at a time, which the compiler vectorizes.
    """
    n = codes.shape[1]
    keys = np.zeros(n, dtype=np.int64)
    stride = scale
    for a in range(parents.shape[0] - 1, -1, -1):
        row = codes[parents[a]]
        for t in range(n):
            keys[t] += row[t] * stride
        stride *= arities[parents[a]]
    return keys


@njit(cache=True, nogil=True)
def _full_table(codes, arities, parents, child, n_parent_configs, child_arity, weights):
    """Counts over ALL parent configurations, in mixed-radix order (first parent slowest).

    ``weights``: each row's count (counted data), or empty for one per row."""
    child_codes = codes[child]
    n_cells = n_parent_configs * child_arity
    if weights.shape[0]:
        full = np.zeros(n_cells, dtype=np.int64)
        keys = _parent_keys(codes, arities, parents, child_arity)
        for t in range(keys.shape[0]):
            full[keys[t] + child_codes[t]] += weights[t]
        return full.reshape(n_parent_configs, child_arity)
    # independent sub-histograms break the store-to-load dependency of repeated cells
    split = np.zeros((_SPLIT, n_cells), dtype=np.int64)
    if parents.shape[0] == 0:
        for t in range(child_codes.shape[0]):
            split[t % _SPLIT, child_codes[t]] += 1
    else:
        keys = _parent_keys(codes, arities, parents, child_arity)
        for t in range(keys.shape[0]):
            split[t % _SPLIT, keys[t] + child_codes[t]] += 1
    full = split[0]
    for c in range(1, _SPLIT):
        full += split[c]
    return full.reshape(n_parent_configs, child_arity)


@njit(cache=True, nogil=True)
def _direct_table(codes, arities, parents, child, n_parent_configs, child_arity, weights):
    """Family table through a full (q, r) histogram, without its all-zero rows."""
    full = _full_table(codes, arities, parents, child, n_parent_configs, child_arity, weights)
    observed = np.zeros(n_parent_configs, dtype=np.bool_)
    for j in range(n_parent_configs):
        for k in range(child_arity):
            if full[j, k]:
                observed[j] = True
                break
    return full[observed]


@njit(cache=True, nogil=True)
def _lookup_table(codes, arities, parents, child, n_parent_configs, child_arity, weights):
    """Family table over observed parent configurations via a lookup array."""
    keys = _parent_keys(codes, arities, parents, 1)
    lookup = np.zeros(n_parent_configs, dtype=np.int64)
    for t in range(keys.shape[0]):
        lookup[keys[t]] = 1
    n_obs = 0
    for key in range(n_parent_configs):
        if lookup[key]:
            lookup[key] = n_obs
            n_obs += 1
    table = np.zeros((n_obs, child_arity), dtype=np.int64)
    child_codes = codes[child]
    weighted = weights.shape[0] > 0
    for t in range(keys.shape[0]):
        table[lookup[keys[t]], child_codes[t]] += weights[t] if weighted else 1
    return table


def configuration_index(codes: np.ndarray, arities: np.ndarray, columns) -> np.ndarray:
    """Mixed-radix index of each row's configuration of ``columns``, the first slowest.

    The column order of pgmpy's ``TabularCPD`` (evidence in order, the first one
    varying slowest). The product of the arities must fit in int64, as it does for
    any table that can be held in memory; use :func:`dense_ids` otherwise.
    """
    columns = np.asarray(list(columns), dtype=np.int64)
    return _parent_keys(codes, np.asarray(arities, dtype=np.int64), columns, 1)


def dense_ids(codes: np.ndarray, idx, arities) -> tuple[np.ndarray, int]:
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


def _weights(weights) -> np.ndarray:
    if weights is None:
        return np.zeros(0, dtype=np.int64)
    return np.ascontiguousarray(weights, dtype=np.int64)


def family_table(
    codes: np.ndarray, arities: np.ndarray, child: int, parents, weights=None
) -> np.ndarray:
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
    weights : ndarray of int64, optional
        Counted data (:class:`pgmpy_nml._data.EncodedData`): each row's count
        (None: one per row).

    Returns
    -------
    ndarray of int64, shape (n_observed_parent_configurations, r_child)
        Every row has a positive sum; with no parents there is one row.
    """
    r = int(arities[child])
    n = codes.shape[1]
    q = math.prod(int(arities[p]) for p in parents)
    w = _weights(weights)
    if q <= _LOOKUP_PER_ROW * n + _MIN_CELLS:
        parents = np.array(parents, dtype=np.int64)
        if q * r <= _DIRECT_PER_ROW * n + _MIN_CELLS:
            return _direct_table(codes, arities, parents, child, q, r, w)
        return _lookup_table(codes, arities, parents, child, q, r, w)
    ids, n_obs = dense_ids(codes, parents, arities)
    flat = np.bincount(ids * r + codes[child], weights=weights, minlength=n_obs * r)
    return flat.astype(np.int64, copy=False).reshape(n_obs, r)


@njit(cache=True, nogil=True)
def _sum_nlogn(counts):
    total = 0.0
    for c in counts:
        if c > 1:
            total += c * math.log(c)
    return total


def full_family_table(
    codes: np.ndarray, arities: np.ndarray, child: int, parents, weights=None
) -> np.ndarray:
    """Counts ``N_jk`` over *all* parent configurations, for conditional probability tables.

    Rows follow pgmpy's ``TabularCPD`` column order: the configurations of
    ``parents`` in mixed radix, the first parent varying slowest.

    Returns
    -------
    ndarray of int64, shape (q, r_child)
    """
    r = int(arities[child])
    q = math.prod(int(arities[p]) for p in parents)
    parents = np.array(parents, dtype=np.int64)
    return _full_table(codes, arities, parents, child, q, r, _weights(weights))


def sum_nlogn(counts) -> float:
    """``H = sum_c N_c log N_c`` over the cells of ``counts`` (``0 log 0 = 0``)."""
    return float(_sum_nlogn(np.ravel(np.asarray(counts, dtype=np.int64))))
