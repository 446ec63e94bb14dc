"""Data beyond one machine: a Dask DataFrame counted where it lives.

:func:`count_dask` agrees on every column's states first (declared, a
categorical's known categories, or the distinct values of the column, computed
in one pass over the data), then counts each partition's distinct rows on the
worker that holds it (:func:`pgmpy_nml._counted.count_data`) and merges the
counted partitions on the driver. Only distinct rows and their counts travel.
Dask is imported here only, when a Dask DataFrame is given.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

import numpy as np
import pandas as pd

from ._counted import _merge, code_dtype, count_data
from ._data import (
    EncodedData,
    _check_discrete,
    _declared_states,
    _listing,
    _observed_states,
)
from .exceptions import InputError

__all__ = ["count_dask"]


def _agreed_states(ddf, state_names: Mapping) -> dict:
    """Every column's states, agreed before any partition is counted."""
    import dask

    names: dict = {}
    pending = {}
    for name in ddf.columns:
        if name in state_names:
            names[name] = _declared_states(name, state_names[name])
            continue
        dtype = ddf[name].dtype
        if isinstance(dtype, pd.CategoricalDtype) and ddf[name].cat.known:
            names[name] = list(dtype.categories)
        elif isinstance(dtype, pd.CategoricalDtype):
            pending[name] = ddf[name].cat.as_known()
        else:
            pending[name] = ddf[name].dropna().drop_duplicates()
    if pending:
        found = dask.compute(*pending.values())
        for name, values in zip(pending, found, strict=True):
            if isinstance(values.dtype, pd.CategoricalDtype):
                names[name] = list(values.dtype.categories)
            else:
                values = pd.Series(values.to_numpy(), name=name)
                _check_discrete(name, values)
                names[name] = _observed_states(name, values)
    return {name: names[name] for name in ddf.columns}


def _count_partition(part: pd.DataFrame, states: dict, missing: str):
    """``(codes, weights, n_dropped, seconds)`` of one partition, its codes compact."""
    start = time.process_time()
    if len(part) == 0:
        codes = np.zeros((part.shape[1], 0), dtype=np.uint8)
        return codes, np.zeros(0, dtype=np.int64), 0, 0.0
    counted = count_data(part, states, missing)
    dtype = code_dtype(int(max(len(s) for s in states.values())))
    codes = counted.codes.astype(dtype)
    return codes, counted.weights, counted.n_dropped, time.process_time() - start


def count_dask(
    ddf, state_names: Mapping | None = None, missing: str = "error", timings: dict | None = None
) -> EncodedData:
    """A Dask DataFrame as counted data: partitions counted where they live, merged here.

    Parameters
    ----------
    ddf : dask.dataframe.DataFrame
        Discrete data, as a pandas DataFrame for :func:`~pgmpy_nml._data.encode_data`.
        Inside a ``dask.distributed.Client`` the partitions are counted on its
        workers, else on Dask's default scheduler.
    state_names : dict, optional
    missing : {"error", "drop"}, default "error"
    timings : dict, optional
        Filled with ``"states"`` (seconds to agree on the states), ``"counting"``
        (CPU seconds the workers spent counting, summed), ``"compute"`` (wall
        seconds from submitting the counting to holding every counted partition:
        counting plus transfer plus scheduling) and ``"merge"`` (the driver's
        merge), and the sizes ``"rows"``, ``"partition_rows"`` (distinct rows
        per partition, summed: what travelled) and ``"distinct"``.

    Returns
    -------
    EncodedData
        Counted data (with ``weights``): the same as
        :func:`~pgmpy_nml._counted.count_data` of the whole data.
    """
    import dask

    if missing not in ("error", "drop"):
        raise InputError(
            f'A Dask DataFrame is counted, which needs complete rows: missing must be "error" '
            f'or "drop", got {missing!r}.'
        )
    timings = {} if timings is None else timings
    if state_names is None:
        state_names = {}
    if not isinstance(state_names, Mapping):
        raise TypeError(
            f"state_names must be a dict mapping variables to lists of states, "
            f"got {type(state_names).__name__}."
        )
    columns = list(ddf.columns)
    if not columns:
        raise InputError("data has no columns: give one column per variable.")
    if len(set(columns)) != len(columns):
        raise InputError("data has duplicated column names.")
    unknown = [v for v in state_names if v not in columns]
    if unknown:
        raise InputError(
            f"state_names names variable(s) {_listing(unknown)} that are not columns of the "
            f"data ({_listing(columns)})."
        )
    start = time.perf_counter()
    states = _agreed_states(ddf, state_names)
    timings["states"] = time.perf_counter() - start
    start = time.perf_counter()
    tasks = [dask.delayed(_count_partition)(part, states, missing) for part in ddf.to_delayed()]
    parts = dask.compute(*tasks)
    timings["compute"] = time.perf_counter() - start
    timings["counting"] = float(sum(p[3] for p in parts))
    n_samples = int(sum(int(p[1].sum()) for p in parts))
    if n_samples == 0:
        raise InputError(
            f"data has no rows (columns {_listing(columns)}): scores need at least one sample."
        )
    start = time.perf_counter()
    variables = tuple(columns)
    arities = np.array([len(states[v]) for v in variables], dtype=np.int64)
    codes, weights = _merge([(p[0], p[1]) for p in parts if len(p[1])], arities)
    timings["merge"] = time.perf_counter() - start
    timings["rows"] = n_samples
    timings["partition_rows"] = int(sum(len(p[1]) for p in parts))
    timings["distinct"] = len(weights)
    index = {v: i for i, v in enumerate(variables)}
    n_dropped = int(sum(p[2] for p in parts))
    return EncodedData(variables, codes, arities, states, index, n_dropped, weights)
