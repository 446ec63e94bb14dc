"""Data beyond one machine: a Dask DataFrame counted where it lives.

:func:`count_dask` counts each partition's distinct rows on the worker that
holds it (:func:`pgmpy_nml._counted.count_data`, against the partition's own
states where none are declared), in one pass over the data. The driver then
agrees on every column's states (declared, a categorical's categories, or the
values any partition saw, ordered as for a pandas DataFrame), recodes the
partitions' distinct rows to them and merges them. Only distinct rows, their
counts and the states travel.
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
    check_state_names,
)
from .exceptions import InputError

__all__ = ["count_dask"]


def _count_partition(part: pd.DataFrame, declared: dict, missing: str):
    """``(codes, weights, states, n_dropped, seconds)`` of one partition: its distinct
    rows (codes compact, against the partition's own states where none are declared)."""
    start = time.process_time()
    if len(part) == 0:
        return None
    counted = count_data(part, declared, missing)
    dtype = code_dtype(int(counted.arities.max()))
    codes = counted.codes.astype(dtype)
    seconds = time.process_time() - start
    return codes, counted.weights, counted.state_names, counted.n_dropped, seconds


def _union(parts: list, name) -> list:
    """The values of ``name`` seen in any partition, each once, in order of appearance."""
    seen: dict = {}
    for part in parts:
        for value in part[2][name]:
            seen.setdefault(value, None)
    return list(seen)


def _agreed_states(ddf, parts: list, declared: Mapping) -> dict:
    """Every column's states over all partitions: declared, a categorical's categories
    (known, or their union in partition order, as Dask's ``cat.as_known``), or the
    observed values in the order of :func:`~pgmpy_nml._data.encode_data`."""
    names = {}
    for name in ddf.columns:
        dtype = ddf[name].dtype
        if name in declared:
            names[name] = list(declared[name])
        elif isinstance(dtype, pd.CategoricalDtype) and ddf[name].cat.known:
            names[name] = list(dtype.categories)
        elif isinstance(dtype, pd.CategoricalDtype):
            names[name] = _union(parts, name)
        else:
            values = pd.Series(_union(parts, name), dtype=object)
            _check_discrete(name, values)
            names[name] = _observed_states(name, values)
    return names


def _recode(part, states: dict, variables) -> np.ndarray:
    """A partition's codes against the agreed ``states`` (int32)."""
    codes = part[0].astype(np.int32)
    for i, name in enumerate(variables):
        local = part[2][name]
        if local != states[name]:
            position = pd.Index(states[name]).get_indexer(local).astype(np.int32)
            codes[i] = position[codes[i]]
    return codes


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
        Filled with ``"counting"`` (CPU seconds the workers spent counting,
        summed), ``"compute"`` (wall seconds from submitting the counting to
        holding every counted partition: reading, counting, transfer and
        scheduling) and ``"merge"`` (the driver's agreeing on the states, recoding
        and merge), and the sizes ``"rows"``, ``"partition_rows"`` (distinct rows
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
    columns = list(ddf.columns)
    if not columns:
        raise InputError("data has no columns: give one column per variable.")
    if len(set(columns)) != len(columns):
        raise InputError("data has duplicated column names.")
    state_names = check_state_names(state_names, columns)
    for name in state_names:
        _declared_states(name, state_names[name])
    start = time.perf_counter()
    declared = {k: list(v) for k, v in state_names.items()}
    tasks = [dask.delayed(_count_partition)(part, declared, missing) for part in ddf.to_delayed()]
    parts = [p for p in dask.compute(*tasks) if p is not None]
    timings["compute"] = time.perf_counter() - start
    timings["counting"] = float(sum(p[4] for p in parts))
    if not parts:
        raise InputError(
            f"data has no rows (columns {_listing(columns)}): scores need at least one sample."
        )
    start = time.perf_counter()
    variables = tuple(columns)
    states = _agreed_states(ddf, parts, declared)
    arities = np.array([len(states[v]) for v in variables], dtype=np.int64)
    recoded = [(_recode(p, states, variables), p[1]) for p in parts]
    codes, weights = _merge(recoded, arities)
    timings["merge"] = time.perf_counter() - start
    timings["rows"] = int(weights.sum())
    timings["partition_rows"] = int(sum(len(p[1]) for p in parts))
    timings["distinct"] = len(weights)
    index = {v: i for i, v in enumerate(variables)}
    n_dropped = int(sum(p[3] for p in parts))
    return EncodedData(variables, codes, arities, states, index, n_dropped, weights)
