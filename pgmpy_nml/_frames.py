"""How the scores hold a data frame: row by row, as counted rows, or counted where it lives.

:func:`encode_frame` is the one policy: a Dask DataFrame is counted partition by
partition (:mod:`pgmpy_nml._dask`), a large pandas DataFrame with many repeated rows
is counted in chunks (:mod:`pgmpy_nml._counted`), other data are encoded row by row
(:func:`pgmpy_nml._data.encode_data`).
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from . import _counted
from ._counted import count_data
from ._dask import count_dask
from ._data import EncodedData, encode_data

__all__ = ["encode_frame", "is_dask_frame"]


def is_dask_frame(data) -> bool:
    """Whether ``data`` is a Dask DataFrame (without importing Dask)."""
    return type(data).__module__.split(".")[0] == "dask" and hasattr(data, "to_delayed")


def encode_frame(data, state_names: Mapping | None = None, missing: str = "error") -> EncodedData:
    """The data as the scores hold them: one policy for every score of the package.

    A Dask DataFrame is counted partition by partition where it lives
    (:func:`pgmpy_nml._dask.count_dask`). A pandas DataFrame of at least
    :data:`~pgmpy_nml._counted.COUNT_MIN_ROWS` complete rows is counted in chunks
    (:func:`~pgmpy_nml._counted.count_data`) and kept counted if
    :func:`~pgmpy_nml._counted.worth_counting`; otherwise, and for smaller data, it
    is encoded row by row (:func:`~pgmpy_nml._data.encode_data`). Either way every
    score, network and tie-break comes out the same.
    """
    if is_dask_frame(data):
        return count_dask(data, state_names, missing)
    if (
        missing == "error"
        and isinstance(data, pd.DataFrame)
        and len(data) >= _counted.COUNT_MIN_ROWS
    ):
        counted = count_data(data, state_names, missing)
        if _counted.worth_counting(counted.n_samples, counted.n_rows):
            return counted
    return encode_data(data, state_names, missing)
