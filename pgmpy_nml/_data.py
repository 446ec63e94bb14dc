"""The input boundary: one place that turns a DataFrame into integer codes.

Every public entry point of pgmpy-nml hands its data to :func:`encode_data`
and its ``(variable, parents)`` queries to :meth:`EncodedData.family`. All
input checks live here, so a mistake gets the same clear message wherever it
is made, and the numerical kernels behind can trust what they are given.
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from functools import cached_property

import numpy as np
import pandas as pd

from .exceptions import InputError, UnknownStateError

__all__ = ["EncodedData", "encode_data"]

_MAX_LISTED = 5  # how many offending values or columns an error message lists


def _listing(items, limit: int = _MAX_LISTED) -> str:
    """``'a', 'b', 'c' and 2 more`` for error messages."""
    items = list(items)
    shown = ", ".join(repr(x) for x in items[:limit])
    if len(items) > limit:
        shown += f" and {len(items) - limit} more"
    return shown


@dataclass(frozen=True)
class EncodedData:
    """Discrete data as integer codes, with arities and state names.

    Attributes
    ----------
    variables : tuple
        Column names, in the order of the DataFrame.
    codes : numpy.ndarray of int32, shape (n_variables, n_samples)
        ``codes[i, t]`` is the position of row ``t``'s value of variable ``i`` in
        ``state_names[variables[i]]``. Each variable's codes are contiguous.
    arities : numpy.ndarray of int64, shape (n_variables,)
        Number of states of each variable, declared-but-unobserved ones included.
    state_names : dict
        Variable -> list of its states (declared order, a Categorical's categories, or
        sorted observed values; text that is all numbers sorted by its numbers).
    weights : numpy.ndarray of int64, shape (n_rows,), or None
        *Counted data* (:func:`pgmpy_nml._counted.count_data`): the columns of
        ``codes`` are distinct rows and ``weights[t] >= 1`` is how many samples
        row ``t`` stands for. None: one sample per column. Every score here
        depends on the data only through counts of configurations, so counting
        weighted rows gives the same counts as the rows they stand for; code that
        reads ``codes`` must add ``weights`` (or refuse counted data, see
        :meth:`require_rows`).
    """

    variables: tuple
    codes: np.ndarray
    arities: np.ndarray
    state_names: dict
    index: dict = field(repr=False)
    n_dropped: int = 0
    weights: np.ndarray | None = field(default=None, repr=False)

    @cached_property
    def n_samples(self) -> int:
        """Number of samples: the columns of ``codes``, or the sum of ``weights``."""
        if self.weights is None:
            return int(self.codes.shape[1])
        return int(self.weights.sum())

    @property
    def n_rows(self) -> int:
        """Columns of ``codes``: the samples, or the distinct rows of counted data."""
        return int(self.codes.shape[1])

    @property
    def counted(self) -> bool:
        """Whether the data are counted (distinct rows with ``weights``)."""
        return self.weights is not None

    def require_rows(self, what: str) -> None:
        """Refuse counted data in ``what``, which reads ``codes`` one sample per column."""
        if self.weights is not None:
            raise InputError(
                f"{what} needs the data row by row, but got counted data ({self.n_rows} "
                f"distinct rows standing for {self.n_samples} samples). Give it a pandas "
                "DataFrame instead (for a Dask DataFrame: data.compute())."
            )

    @property
    def n_variables(self) -> int:
        return int(self.codes.shape[0])

    def configurations(self, idx: Iterable[int]) -> int:
        """Number of joint configurations of the variables ``idx`` (exact, never overflows)."""
        return math.prod(int(self.arities[i]) for i in idx)

    def variable_index(self, variable: Hashable) -> int:
        """Position of ``variable``; a clear ``ValueError`` for an unknown name."""
        try:
            return self.index[variable]
        except (KeyError, TypeError):
            raise InputError(
                f"Unknown variable {variable!r}: the data has columns {_listing(self.variables)}."
            ) from None

    def family(self, variable: Hashable, parents) -> tuple[int, tuple[int, ...]]:
        """Validate a ``(variable, parents)`` query and return positions.

        Parents may be any iterable (pgmpy passes lists or tuples). The parent
        positions come back sorted, so that every ordering of the same parent
        set maps to one key.
        """
        child = self.variable_index(variable)
        if parents is None:
            parents = ()
        elif isinstance(parents, (str, bytes)) or not isinstance(parents, Iterable):
            raise TypeError(
                f"parents of {variable!r} must be a list or tuple of variable names, "
                f"got {parents!r}; write [{parents!r}] for a single parent."
            )
        parents = list(parents)
        idx = [self.variable_index(p) for p in parents]
        if child in idx:
            raise InputError(f"Variable {variable!r} is listed among its own parents {parents!r}.")
        if len(set(idx)) != len(idx):
            dup = sorted({repr(p) for p, i in zip(parents, idx, strict=True) if idx.count(i) > 1})
            raise InputError(
                f"Parents of {variable!r} contain duplicates ({', '.join(dup)}): {parents!r}."
            )
        return child, tuple(sorted(idx))


MISSING_POLICIES = ("error", "drop", "available")


def missing_cells(data: pd.DataFrame) -> str:
    """The columns of ``data`` with missing values, each with its count (``"'b' (17 rows),
    'c' (1 row)"``); empty when every cell is present."""
    # column by column: a whole-frame isna() would copy the data once more as booleans
    counts = [(col, int(data[col].isna().sum())) for col in data.columns]
    return ", ".join(f"{col!r} ({n} row{'s' if n > 1 else ''})" for col, n in counts if n)


def _check_frame(data, missing="error") -> None:
    if not isinstance(data, pd.DataFrame):
        hint = ""
        if isinstance(data, np.ndarray):
            hint = " Wrap the array first: pd.DataFrame(array, columns=[...names...])."
        raise TypeError(
            f"data must be a pandas DataFrame with one column per variable, "
            f"got {type(data).__name__}.{hint}"
        )
    if data.shape[1] == 0:
        raise InputError("data has no columns: give one column per variable.")
    if data.shape[0] == 0:
        raise InputError(
            f"data has no rows (columns {_listing(data.columns)}): scores need at least one sample."
        )
    if not data.columns.is_unique:
        dup = data.columns[data.columns.duplicated()].unique()
        raise InputError(f"data has duplicated column names: {_listing(dup)}.")
    if missing not in MISSING_POLICIES:
        raise InputError(
            f"missing must be one of {', '.join(repr(m) for m in MISSING_POLICIES)}, got "
            f"{missing!r}."
        )
    if missing != "error":
        return
    where = missing_cells(data)
    if where:
        raise InputError(
            f"data has missing values in column(s) {where}"
            + f" out of {len(data)} rows. pgmpy-nml never drops rows silently: learn from the "
            'complete rows (data.dropna(); the study tools take missing="drop" and report '
            'how many), with a score for incomplete data ("pnal", missing="available"), or '
            "from every row with StructuralEM (values missing at random)."
        )


# Kinds of values that must never be mixed in one variable: ``True == 1`` and
# ``hash(True) == hash(1)`` in Python, so a bool and a number would silently merge
# into one state, and numbers and strings cannot be ordered together.
_KIND_OF_INFERRED = {
    "boolean": "bool",
    "integer": "number",
    "floating": "number",
    "mixed-integer-float": "number",
    "decimal": "number",
    "string": "str",
}


def _value_kind(value) -> str:
    if isinstance(value, (bool, np.bool_)):
        return "bool"
    if isinstance(value, (int, float, np.integer, np.floating)):
        return "number"
    if isinstance(value, str):
        return "str"
    return type(value).__name__


def _kinds(values) -> set:
    """The kinds of ``values`` (a Series or a list): 'bool', 'number', 'str' or a type name."""
    if isinstance(values, pd.Series):
        dtype = values.dtype
        if isinstance(dtype, pd.CategoricalDtype):
            return _kinds(list(dtype.categories))
        if pd.api.types.is_bool_dtype(dtype):
            return {"bool"}
        if pd.api.types.is_numeric_dtype(dtype):
            return {"number"}
        if pd.api.types.is_string_dtype(dtype) and not pd.api.types.is_object_dtype(dtype):
            return {"str"}
    inferred = pd.api.types.infer_dtype(values, skipna=True)
    if inferred in _KIND_OF_INFERRED:
        return {_KIND_OF_INFERRED[inferred]}
    return {_value_kind(v) for v in values}


def _check_kinds(name, column: pd.Series) -> set:
    """The one kind of the column's values; a clear error if it mixes kinds."""
    kinds = _kinds(column)
    if len(kinds) > 1:
        merge = " (True and 1 would be one state)" if {"bool", "number"} <= kinds else ""
        raise InputError(
            f"Column {name!r} mixes value types ({', '.join(sorted(kinds))}){merge}; convert "
            f"it to one type, e.g. data[{name!r}].astype(str)."
        )
    return kinds


def _check_discrete(name, column: pd.Series) -> None:
    dtype = column.dtype
    if isinstance(dtype, pd.CategoricalDtype) or pd.api.types.is_bool_dtype(dtype):
        return
    if pd.api.types.is_integer_dtype(dtype):
        return
    numeric = pd.api.types.is_float_dtype(dtype)
    if pd.api.types.is_object_dtype(dtype):
        numeric = _check_kinds(name, column) == {"number"}
    if numeric:
        values = column.to_numpy(dtype=float)
        fractional = values[values != np.round(values)]
        if len(fractional) or not np.all(np.isfinite(values)):
            example = fractional[:3] if len(fractional) else values[~np.isfinite(values)][:3]
            raise InputError(
                f"Column {name!r} looks continuous (float values such as "
                f"{', '.join(f'{v:g}' for v in example)}); the scores of pgmpy-nml are for "
                "discrete data. Discretize it first, e.g. "
                f"data[{name!r}] = pd.cut(data[{name!r}], bins=3, labels=False)."
            )
        return
    if pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype):
        return
    raise InputError(
        f"Column {name!r} has dtype {dtype}, which is not a discrete type; convert it to "
        "integers, strings or a pandas Categorical first."
    )


#: A number written as text (as a CSV file holds it): ``1``, ``-2.5``, ``1e3``, ``.5``.
_NUMBER_TEXT = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def _state_order(states: list) -> list:
    """``states`` sorted: by value, and text that is all numbers by its number.

    ``["1", "10", "2"]`` -> ``["1", "2", "10"]`` (ties such as ``"1"`` and ``"1.0"`` by
    their text); other values keep Python's order, as pgmpy sorts them.
    """
    if states and all(isinstance(s, str) and _NUMBER_TEXT.fullmatch(s) for s in states):
        return sorted(states, key=lambda s: (Decimal(s), s))
    return sorted(states)


def _observed_states(name, column: pd.Series) -> list:
    """A Categorical's categories (used or not, in their order), else the observed values
    in order (:func:`_state_order`: text that is all numbers by its number)."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        return list(column.dtype.categories)
    values = column.unique()
    try:
        return _state_order(values.tolist())
    except TypeError:
        kinds = sorted({type(v).__name__ for v in values})
        raise InputError(
            f"Column {name!r} mixes value types ({', '.join(kinds)}), which cannot be ordered "
            f"into states; convert it to one type, e.g. data[{name!r}].astype(str)."
        ) from None


def _declared_states(name, states) -> list:
    if isinstance(states, (str, bytes)) or not isinstance(states, Iterable):
        raise TypeError(f"state_names[{name!r}] must be a list of states, got {states!r}.")
    states = list(states)
    if not states:
        raise InputError(f"state_names[{name!r}] is empty: a variable needs at least one state.")
    seen = pd.Index(states)
    if not seen.is_unique:
        raise InputError(
            f"state_names[{name!r}] lists a state twice: {_listing(seen[seen.duplicated()])}."
        )
    return states


def _codes(name, column: pd.Series, states: list, declared: bool) -> np.ndarray:
    if declared and {"bool", "number"} <= _kinds(column) | _kinds(states):
        raise InputError(
            f"Column {name!r} and state_names[{name!r}] = {states!r} mix booleans and "
            "numbers, and True and 1 would be one state; use one type for both."
        )
    if isinstance(column.dtype, pd.CategoricalDtype):
        # each category looked up once, not each cell (a cell's category code -1 is missing)
        lookup = pd.Index(states).get_indexer(column.cat.categories)
        categories = column.cat.codes.to_numpy()
        codes = np.where(categories >= 0, lookup[categories], -1)
    else:
        # each distinct value looked up once: hashing the column (pd.factorize) is 5-9x
        # faster than looking up every cell, most with pandas 3's Arrow-backed strings
        # (alarm, 50,000 rows, 37 columns: 0.30 s -> 0.03 s); missing cells stay -1
        found, distinct = pd.factorize(column)
        lookup = pd.Index(states).get_indexer(distinct)
        codes = np.where(found >= 0, lookup[found] if len(lookup) else -1, -1)
    if declared and (codes < 0).any():
        bad = pd.unique(column.to_numpy()[codes < 0])
        n_bad = int((codes < 0).sum())
        raise UnknownStateError(
            f"Column {name!r} has values not in state_names[{name!r}] = {states!r}: "
            f"{_listing(bad)} ({n_bad} row{'s' if n_bad > 1 else ''}). Add them to "
            "state_names or fix the data (mind the type: 1 and '1' are different states).",
            name,
            list(bad),
            list(states),
        )
    return codes


def _drop_incomplete(data):
    """The complete rows of ``data`` and how many were dropped, with a warning that says so."""
    complete = data.notna().all(axis=1)
    n_dropped = int((~complete).sum())
    if n_dropped == len(data):
        worst = data.isna().sum().sort_values(ascending=False)
        raise InputError(
            f"Every one of the {len(data)} rows has a missing value (most in "
            f'{_listing(worst.index[:3])}), so missing="drop" leaves nothing; drop those '
            'columns or learn with a score for incomplete data ("pnal", missing="available").'
        )
    if n_dropped:
        import warnings

        warnings.warn(
            f'missing="drop": dropped {n_dropped} of {len(data)} rows with a missing value '
            f"(complete-case analysis on the other {len(data) - n_dropped}).",
            UserWarning,
            stacklevel=3,
        )
    return data[complete], n_dropped


def check_state_names(state_names, columns) -> Mapping:
    """``state_names`` checked against the data's ``columns`` (None: no declared states):
    a mapping whose keys are all columns."""
    if state_names is None:
        return {}
    if not isinstance(state_names, Mapping):
        raise TypeError(
            f"state_names must be a dict mapping variables to lists of states, "
            f"got {type(state_names).__name__}."
        )
    unknown = [v for v in state_names if v not in columns]
    if unknown:
        raise InputError(
            f"state_names names variable(s) {_listing(unknown)} that are not columns of the "
            f"data ({_listing(columns)})."
        )
    return state_names


def encode_data(data, state_names: Mapping | None = None, missing: str = "error") -> EncodedData:
    """Validate a DataFrame of discrete data and encode it as integer codes.

    Parameters
    ----------
    data : pandas.DataFrame
        One column per variable, one row per sample, no missing values. Columns
        may hold integers, strings, booleans, categoricals, or floats whose values
        are all whole numbers.
    state_names : dict, optional
        Variable -> list of its states. Declared states that never occur in the
        data still count in the variable's arity (and so in every regret and
        prior). A pandas Categorical column not listed declares its categories,
        used or not, in their order; other columns not listed get their sorted
        observed values, as in pgmpy, except that text that is all numbers is sorted
        by its numbers (``"1", "2", "10"``, not ``"1", "10", "2"``).
    missing : {"error", "drop", "available"}, default "error"
        What to do with missing values (NaN, None, pd.NA): refuse them with a
        message that names the columns; ``"drop"`` the incomplete rows, with a
        warning that reports how many (``n_dropped``); keep every row with code -1
        for a missing cell (``"available"``, for the scores that use the rows
        complete on each family, such as :class:`~pgmpy_nml.scores.nal.PNAL`).

    Returns
    -------
    EncodedData

    Raises
    ------
    TypeError
        If ``data`` is not a DataFrame or ``state_names`` is not a mapping of lists.
    ValueError
        For empty data, missing values, continuous columns, columns that mix value
        types (strings and numbers, or booleans and numbers: ``True == 1`` in
        Python, so they would merge into one state), observed values absent from
        ``state_names``, or ``state_names`` entries for variables the data does
        not have.

    Examples
    --------
    >>> import pandas as pd
    >>> enc = encode_data(pd.DataFrame({"A": ["y", "n", "y"], "B": [0, 1, 1]}),
    ...                   state_names={"B": [0, 1, 2]})
    >>> enc.codes.tolist(), enc.arities.tolist()
    ([[1, 0, 1], [0, 1, 1]], [2, 3])
    >>> encode_data(pd.DataFrame({"A": ["y", None, "n"]}), missing="available").codes.tolist()
    [[1, -1, 0]]
    """
    _check_frame(data, missing)
    n_dropped = 0
    if missing == "drop":
        data, n_dropped = _drop_incomplete(data)
    state_names = check_state_names(state_names, data.columns)
    variables = tuple(data.columns)
    codes = np.empty((len(variables), len(data)), dtype=np.int32)
    names = {}
    for i, name in enumerate(variables):
        column = data[name]
        present = None
        if missing == "available":
            present = column.notna().to_numpy()
            if present.all():
                present = None
            elif not present.any() and name not in state_names:
                raise InputError(
                    f"Column {name!r} has no values: every row is missing (declare its "
                    "states in state_names to keep it)."
                )
            else:
                column = column[present]
        _check_discrete(name, column)
        declared = name in state_names
        if declared:
            states = _declared_states(name, state_names[name])
        else:
            states = _observed_states(name, column)
        if len(states) > np.iinfo(np.int32).max:
            raise InputError(f"Variable {name!r} has {len(states)} states, more than supported.")
        if present is None:
            codes[i] = _codes(name, column, states, declared)
        else:
            codes[i] = -1
            codes[i, present] = _codes(name, column, states, declared)
        names[name] = states
    arities = np.array([len(names[v]) for v in variables], dtype=np.int64)
    index = {v: i for i, v in enumerate(variables)}
    return EncodedData(variables, codes, arities, names, index, n_dropped)
