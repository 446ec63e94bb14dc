"""A function evaluated once per distinct value of a large array."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd

__all__: list[str] = []


def per_distinct(values, evaluate: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """``evaluate`` applied to each distinct value of ``values`` once, in ``values``' shape.

    For arrays that repeat a few values many times (counts, numbers of parent
    configurations). Small nonnegative integers (integral floats included) index a
    table directly; other values are told apart by hashing (:func:`pandas.factorize`).
    Both take linear time, where :func:`numpy.unique` sorts: on 400,000 floats of 20
    integral values, 12 ms by sorting, 4.4 ms by hashing, 2.2 ms by the table (5
    million: 431, 72 and 33 ms).

    Parameters
    ----------
    values : array_like
        Numbers (NaN, if any, is a value like the others).
    evaluate : callable
        A 1-D array of distinct values (of ``values``' dtype) to a 1-D array of
        results of the same length.

    Returns
    -------
    numpy.ndarray
        ``evaluate``'s result for each element of ``values``, in its shape.

    Examples
    --------
    >>> import numpy as np
    >>> per_distinct(np.array([[4.0, 2.0], [4.0, 4.0]]), np.sqrt)
    array([[2.        , 1.41421356],
           [2.        , 2.        ]])
    """
    flat = np.ascontiguousarray(values).ravel()
    keys = _table_keys(flat)
    if keys is None:
        codes, distinct = pd.factorize(flat, use_na_sentinel=False)
        return np.asarray(evaluate(np.asarray(distinct)))[codes].reshape(np.shape(values))
    present = np.zeros(int(keys.max()) + 1, dtype=bool)
    present[keys] = True
    distinct = np.flatnonzero(present)
    results = np.asarray(evaluate(distinct.astype(flat.dtype)))
    table = np.empty(present.size, dtype=results.dtype)
    table[distinct] = results
    return table[keys].reshape(np.shape(values))


def _table_keys(flat: np.ndarray) -> np.ndarray | None:
    """``flat`` as int64 indices of a table of at most a few times its length, when it
    holds only such nonnegative integers (or floats equal to them); else None."""
    if flat.size == 0 or flat.dtype.kind not in "iuf":
        return None
    low, high = flat.min(), flat.max()
    if not (low >= 0 and high <= 4 * flat.size + (1 << 16)):  # NaN fails too
        return None
    keys = flat.astype(np.int64)
    if flat.dtype.kind == "f" and not np.array_equal(keys, flat):
        return None
    return keys
