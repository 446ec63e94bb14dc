r"""Discretization of continuous columns at the input boundary (bnlearn's ``discretize()``).

Three methods as in bnlearn, and a tie-aware equal-frequency one:

- ``"quantile"``: equal-frequency intervals; ``"interval"``: equal-width intervals
  (the cut points of scikit-learn's ``KBinsDiscretizer``, ties handled as bnlearn's
  users expect: a value is never split from itself, and no interval is empty);
- ``"quantile-ties"``: the most nearly equal-frequency intervals whose cut points
  lie between distinct values (:func:`tied_quantile_cuts`): a tied value is never
  split, and a column with many ties (a spike at zero) still gets
  ``min(n_bins, distinct values)`` intervals where ``"quantile"`` would merge them;
- ``"hartemink"``: Hartemink's information-preserving discretization (bnlearn's
  default for learning networks): start from many equal-frequency intervals and
  repeatedly merge, in each continuous column, the two adjacent intervals whose
  merge loses the least total mutual information with all the other columns,
  down to the requested number of intervals.

The learned cut points are kept (``cut_points_``), so test data are discretized
with the same intervals: ``Discretizer().fit(train).transform(test)``.
"""

from __future__ import annotations

import itertools
import math
import warnings
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
import pandas as pd
from scipy.special import xlogy
from sklearn.base import BaseEstimator, TransformerMixin

from .._estimator import ResultEstimator, feature_names, fitted_attribute
from .._params import COLUMNS, Choice, Integer, NoneOr, validate_params
from ._intervals import _kbins, tied_quantile_cuts

if TYPE_CHECKING:
    from collections.abc import Hashable, Mapping, Sequence
    from typing import Any

    from .._typing import ArrayLike

__all__ = [
    "Discretizer",
    "discretize",
    "hartemink_merges",
    "mutual_information",
    "tied_quantile_cuts",
]

METHODS = ("hartemink", "quantile", "quantile-ties", "interval")


def mutual_information(x: ArrayLike, y: ArrayLike) -> float:
    r"""Empirical mutual information of two integer-coded columns, in nats.

    .. math::

        I(X; Y) = \frac{1}{N} \Bigl[\sum_{xy} N_{xy} \log N_{xy}
            - \sum_x N_x \log N_x - \sum_y N_y \log N_y + N \log N\Bigr].

    Examples
    --------
    >>> import numpy as np
    >>> from pgmpy_nml.study.discretize import mutual_information
    >>> round(mutual_information(np.array([0, 0, 1, 1]), np.array([0, 0, 1, 1])), 6)
    0.693147
    """
    x = np.asarray(x, dtype=np.int64)
    y = np.asarray(y, dtype=np.int64)
    table = _table(x, y, int(x.max()) + 1, int(y.max()) + 1)
    return _mi_from_table(table)


def _table(x, y, bx, by):
    return np.bincount(x * by + y, minlength=bx * by).reshape(bx, by).astype(np.float64)


def _mi_from_table(table) -> float:
    n = table.sum()
    return float(
        (
            xlogy(table, table).sum()
            - xlogy(table.sum(1), table.sum(1)).sum()
            - xlogy(table.sum(0), table.sum(0)).sum()
            + xlogy(n, n)
        )
        / n
    )


def _row_terms(rows):
    """``sum_y N_xy log N_xy - N_x log N_x`` of each row of a contingency table."""
    totals = rows.sum(axis=1)
    return xlogy(rows, rows).sum(axis=1) - xlogy(totals, totals)


def _merge_losses(x, n_bins, others) -> np.ndarray:
    """N times the total mutual information lost by merging bins j and j+1, for every j.

    ``x``: codes 0..n_bins-1 of the column; ``others``: (codes, n_states) of every
    other column. Merging two rows of a contingency table changes only their terms
    of the mutual information, so the loss of each merge is a difference of row terms.
    """
    loss = np.zeros(n_bins - 1)
    for y, r in others:
        table = _table(x, y, n_bins, r)
        merged = table[:-1] + table[1:]
        loss += _row_terms(table[:-1]) + _row_terms(table[1:]) - _row_terms(merged)
    return loss


def hartemink_merges(
    initial_codes: Sequence[np.ndarray],
    initial_bins: Sequence[int],
    others: Sequence[tuple[np.ndarray, int]],
    n_bins: int,
) -> list[np.ndarray]:
    """Hartemink's merging of adjacent intervals, on integer-coded columns.

    Parameters
    ----------
    initial_codes : list of int ndarray
        The initial interval (0, 1, ...) of every row, one array per column to
        discretize.
    initial_bins : list of int
        The number of initial intervals of each column.
    others : list of (int ndarray, int)
        Codes and number of states of every other (discrete) column.
    n_bins : int
        The number of intervals to reach.

    Returns
    -------
    list of int ndarray
        For each column, the positions (among its initial inner cut points) of the
        cut points that are kept; the final interval of a row is the number of kept
        cut points at or below its initial interval boundary.

    Notes
    -----
    As bnlearn does, the number of intervals goes down one level at a time, from
    the largest initial number to ``n_bins``; at each level every column with that
    many intervals merges one adjacent pair, in column order, the pair whose merge
    keeps the largest total mutual information with all the other columns (their
    current intervals for discretized columns). Ties go to the first pair.
    """
    kept = [np.arange(b - 1) for b in initial_bins]
    current = [c.copy() for c in initial_codes]
    bins = list(initial_bins)
    for level in range(max(bins, default=0), n_bins, -1):
        for i in range(len(current)):
            if bins[i] != level:
                continue
            context = [(current[j], bins[j]) for j in range(len(current)) if j != i] + list(others)
            j = int(np.argmin(_merge_losses(current[i], bins[i], context)))
            current[i] = np.where(current[i] > j, current[i] - 1, current[i])
            kept[i] = np.delete(kept[i], j)
            bins[i] -= 1
    return kept


def _codes(values, cuts):
    """Interval of each value: ``[c_{j}, c_{j+1})`` with ``c_0 = -inf``, ``c_k+1 = inf``."""
    return np.searchsorted(cuts, values, side="right")


def _labels(cuts) -> list[str]:
    edges = [-math.inf, *cuts, math.inf]
    labels = []
    for a, b in itertools.pairwise(edges):
        left = "(-inf" if a == -math.inf else f"[{a:.4g}"
        right = "inf)" if b == math.inf else f"{b:.4g})"
        labels.append(f"{left}, {right}")
    return labels


def _looks_continuous(column: pd.Series) -> bool:
    if not pd.api.types.is_float_dtype(column.dtype):
        return False
    values = column.to_numpy(dtype=float)
    values = values[np.isfinite(values)]
    return bool(len(values) and np.any(values != np.round(values)))


def _present(column: pd.Series) -> np.ndarray:
    """The non-missing values of a numeric column, as floats."""
    values = column.to_numpy(dtype=float, na_value=np.nan)
    return values[~np.isnan(values)]


def _check_values(name, column: pd.Series) -> None:
    """A column to cut has values, all finite (a cut point cannot separate an infinity)."""
    values = _present(column)
    if len(values) == 0:
        raise ValueError(f"Column {name!r} has no values to discretize.")
    infinite = values[np.isinf(values)]
    if len(infinite):
        raise ValueError(
            f"Column {name!r} holds {len(infinite)} infinite value(s) ({infinite[0]:g}): "
            "intervals need finite values (an equal-width or quantile cut next to an "
            "infinity puts every finite value in one interval). Replace them with NaN "
            "(missing) or a finite value, or drop those rows."
        )


def _fewer_intervals(name, values, cuts, n_bins, method) -> str | None:
    """Why column ``name`` got fewer than ``n_bins`` intervals, or None if it did not."""
    got = len(cuts) + 1
    if got >= n_bins:
        return None
    distinct, counts = np.unique(values, return_counts=True)
    if len(distinct) == 1:
        return (
            f"Column {name!r} holds a single value ({distinct[0]:g}) in every row: it "
            "cannot be cut and becomes one interval, a variable with one state (it carries "
            "no information; drop the column to leave it out)."
        )
    if len(distinct) < n_bins:
        return (
            f"Column {name!r} is cut into {got} intervals instead of {n_bins}: it has only "
            f"{len(distinct)} distinct values."
        )
    if method == "interval":
        why = "equal-width intervals between the extreme values would be empty"
    else:
        top = int(np.argmax(counts))
        why = (
            f"it has {len(distinct)} distinct values, but ties (the value {distinct[top]:g} "
            f"alone holds {counts[top]} of {len(values)} rows) put equal-frequency cuts on the "
            "same value"
        )
    into = "1 interval (a constant variable)" if got == 1 else f"{got} intervals"
    return (
        f"Column {name!r} is cut into {into} instead of {n_bins}: {why}. "
        f"method='quantile-ties' gives {min(n_bins, len(distinct))} intervals without "
        "splitting a tied value."
    )


def _uncut_numeric(data, columns, n_bins) -> list:
    """Numeric columns left out by the default choice that have more than ``n_bins`` values."""
    return [
        c
        for c in data.columns
        if c not in columns
        and pd.api.types.is_numeric_dtype(data[c].dtype)
        and not pd.api.types.is_bool_dtype(data[c].dtype)
        and data[c].nunique() > n_bins
    ]


class Discretizer(ResultEstimator, TransformerMixin, BaseEstimator):
    """Discretize continuous columns, keeping the cut points for new data.

    A scikit-learn transformer: ``fit`` learns the cut points of every
    continuous column, ``transform`` maps any data (training or test) through
    them; the other columns pass through unchanged. Missing values (NaN) stay
    missing.

    Parameters
    ----------
    method : {"hartemink", "quantile", "quantile-ties", "interval"}, default "hartemink"
        Equal-frequency (``"quantile"``) or equal-width (``"interval"``) intervals,
        or Hartemink's information-preserving merging of equal-frequency intervals
        (the method bnlearn recommends for learning networks); ``"quantile-ties"``:
        equal-frequency intervals that never split a tied value and still give
        ``min(n_bins, distinct values)`` intervals (:func:`tied_quantile_cuts`).
        Hartemink's method measures each column against every other column, so it
        refuses data with a missing value in any column (naming them); the others
        cut each column on its observed values.
    n_bins : int, default 3
        Intervals per column. No interval is ever empty: a column gets fewer where
        it has fewer distinct values, where ties put quantile cuts on one value, or
        where equal-width intervals would be empty, always with a warning that says
        which. A column with a single value stays one interval (warned too), and
        infinite values are refused.
    initial_bins : int, optional
        Hartemink only: the equal-frequency intervals to start from (bnlearn's
        ``ibreaks``); default ``max(20, 4 * n_bins)``.
    columns : list, optional
        The columns to discretize; default every float column with non-integer
        values (the columns the scores would refuse as continuous). Numeric columns
        of whole numbers with more than ``n_bins`` distinct values are then left
        uncut with a warning that names them: list them here to cut them too.
    labels : {"interval", "integer"}, default "interval"
        Output states: interval strings such as ``"[0.5, 1.2)"`` in an ordered
        pandas Categorical, or the integers 0, 1, ...

    Attributes
    ----------
    cut_points_ : dict
        Column -> increasing inner cut points; interval ``j`` is
        ``[c_j, c_{j+1})`` with ``c_0 = -inf`` and a last ``c = inf``.
    columns_ : list
        The discretized columns.
    states_ : dict
        Column -> its output states, in interval order.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from pgmpy_nml.study import Discretizer
    >>> train = pd.DataFrame({"x": [0.1, 0.4, 0.35, 0.8, 0.9, 0.05], "y": [0, 0, 0, 1, 1, 0]})
    >>> disc = Discretizer("quantile", n_bins=2).fit(train)
    >>> disc.cut_points_["x"].round(3).tolist()
    [0.375]
    >>> disc.transform(pd.DataFrame({"x": [0.2, 5.0], "y": [1, 0]}))["x"].tolist()
    ['(-inf, 0.375)', '[0.375, inf)']

    References
    ----------
    .. [1] A. J. Hartemink. "Principled computational methods for the validation and
       discovery of genetic regulatory networks". PhD thesis, MIT, 2001.
    .. [2] M. Scutari. "Learning Bayesian networks with the bnlearn R package". Journal
       of Statistical Software 35(3), 2010 (``discretize()``).
    """

    _parameter_specs = {
        "method": Choice(METHODS),
        "n_bins": Integer(minimum=2),
        "initial_bins": NoneOr(Integer(minimum=2)),
        "columns": COLUMNS,
        "labels": Choice(("interval", "integer")),
    }

    def __init__(
        self,
        method: str = "hartemink",
        *,
        n_bins: int = 3,
        initial_bins: int | None = None,
        columns: Sequence[Hashable] | None = None,
        labels: str = "interval",
    ) -> None:
        self.method = method
        self.n_bins = n_bins
        self.initial_bins = initial_bins
        self.columns = columns
        self.labels = labels

    cut_points_ = fitted_attribute("cut_points", "dict: column -> inner cut points.")
    columns_ = fitted_attribute("columns", "list: the discretized columns.")
    states_ = fitted_attribute("states", "dict: column -> output states in interval order.")

    def _check(self, data):
        if not isinstance(data, pd.DataFrame):
            raise TypeError(f"data must be a pandas DataFrame, got {type(data).__name__}.")
        n_bins = validate_params(self)["n_bins"]
        if self.columns is None:
            columns = [c for c in data.columns if _looks_continuous(data[c])]
            uncut = _uncut_numeric(data, columns, n_bins)
            if uncut:
                counts = ", ".join(f"{c!r} ({data[c].nunique()})" for c in uncut)
                warnings.warn(
                    f"Left uncut, as discrete variables with one state per value: the numeric "
                    f"columns {counts} (distinct values in brackets), because they hold whole "
                    "numbers only and the default cuts only columns with fractions. To cut "
                    f"them too, give the columns to cut: columns={[*columns, *uncut]!r}.",
                    UserWarning,
                    stacklevel=3,
                )
        else:
            columns = list(self.columns)
            unknown = [c for c in columns if c not in data.columns]
            if unknown:
                raise ValueError(f"columns {unknown!r} are not columns of the data.")
            bad = [c for c in columns if not pd.api.types.is_numeric_dtype(data[c].dtype)]
            if bad:
                raise ValueError(f"columns {bad!r} are not numeric: only numbers can be cut.")
        return n_bins, columns

    def fit(self, data: pd.DataFrame, y: Any = None) -> Discretizer:
        """Learn the cut points of the continuous columns of ``data``.

        Parameters
        ----------
        data : pandas.DataFrame
        y : ignored

        Returns
        -------
        self
        """
        self._result = None
        n_bins, columns = self._check(data)
        for c in columns:
            _check_values(c, data[c])
        if self.method == "hartemink":
            cuts = self._hartemink(data, columns, n_bins) if columns else {}
        else:
            cuts = {}
            for c in columns:
                values = _present(data[c])
                if self.method == "quantile-ties":
                    cuts[c] = tied_quantile_cuts(values, n_bins)
                else:
                    strategy = "uniform" if self.method == "interval" else "quantile"
                    cuts[c] = _kbins(values, n_bins, strategy)
        for c in columns:
            message = _fewer_intervals(c, _present(data[c]), cuts[c], n_bins, self.method)
            if message:
                warnings.warn(message, UserWarning, stacklevel=2)
        states = {
            c: _labels(cuts[c]) if self.labels == "interval" else list(range(len(cuts[c]) + 1))
            for c in columns
        }
        self._result = _Cuts(cuts, columns, states, feature_names(data.columns))
        return self

    def _hartemink(self, data, columns, n_bins):
        from .._data import encode_data, missing_cells

        initial = validate_params(self)["initial_bins"] or max(20, 4 * n_bins)
        if initial < n_bins:
            raise ValueError(f"initial_bins ({initial}) must be at least n_bins ({n_bins}).")
        where = missing_cells(data)
        if where:
            raise ValueError(
                "Hartemink's method needs complete rows (it cuts each column by what it "
                f"says about every other column): missing values in {where} out of "
                f"{len(data)} rows. Drop those rows first (data.dropna()), or use "
                "method='quantile', 'quantile-ties' or 'interval', which cut each column "
                "on its observed values."
            )
        rest = [c for c in data.columns if c not in columns]
        try:
            encoded = encode_data(data[rest]) if rest else None
        except ValueError as err:
            raise ValueError(
                f"{err} Hartemink's method uses every other column as discrete; list the "
                "continuous ones in columns= to discretize them too."
            ) from None
        others = []
        if encoded is not None:
            others = [
                (encoded.codes[i].astype(np.int64), int(encoded.arities[i]))
                for i in range(encoded.n_variables)
            ]
        initial_cuts, codes, bins = [], [], []
        for c in columns:
            values = data[c].to_numpy(dtype=float)
            cuts = _kbins(values, initial, "quantile") if np.ptp(values) > 0 else np.empty(0)
            initial_cuts.append(cuts)
            codes.append(_codes(values, cuts).astype(np.int64))
            bins.append(len(cuts) + 1)
        kept = hartemink_merges(codes, bins, others, n_bins)
        return {c: initial_cuts[i][kept[i]] for i, c in enumerate(columns)}

    @classmethod
    def from_cut_points(
        cls, cut_points: Mapping[Hashable, Sequence[float]], labels: str = "interval"
    ) -> Discretizer:
        """A fitted Discretizer with the given cut points (e.g. saved from another fit).

        Parameters
        ----------
        cut_points : dict
            Column -> increasing inner cut points (``cut_points_`` of a fit).
        labels : {"interval", "integer"}, default "interval"

        Returns
        -------
        Discretizer

        Examples
        --------
        >>> import pandas as pd
        >>> from pgmpy_nml.study import Discretizer
        >>> disc = Discretizer.from_cut_points({"x": [0.5, 2.0]})
        >>> disc.transform(pd.DataFrame({"x": [0.1, 1.0, 3.0]}))["x"].tolist()
        ['(-inf, 0.5)', '[0.5, 2)', '[2, inf)']
        """
        cuts = {}
        for column, given in cut_points.items():
            points = np.asarray(given, dtype=float).ravel()
            if not (np.all(np.isfinite(points)) and np.all(np.diff(points) > 0)):
                raise ValueError(f"The cut points of {column!r} must increase strictly.")
            cuts[column] = points
        disc = cls("quantile", n_bins=max([len(c) + 1 for c in cuts.values()] + [2]), labels=labels)
        validate_params(disc)  # labels
        states = {
            c: _labels(p) if labels == "interval" else list(range(len(p) + 1))
            for c, p in cuts.items()
        }
        disc._result = _Cuts(cuts, list(cuts), states)
        return disc

    def transform(self, data: pd.DataFrame) -> pd.DataFrame:
        """Map the continuous columns of ``data`` to their intervals.

        Parameters
        ----------
        data : pandas.DataFrame
            With every column that was discretized at ``fit``.

        Returns
        -------
        pandas.DataFrame
            A copy; discretized columns hold ordered Categoricals of interval labels
            (or integer codes), NaN where the value was missing.
        """
        result = self.__dict__.get("_result")
        if result is None:
            raise AttributeError("This Discretizer has no cut points yet: call fit().")
        missing = [c for c in result.columns if c not in data.columns]
        if missing:
            raise ValueError(f"The data has no column(s) {missing!r} that were discretized.")
        out = data.copy()
        for c in result.columns:
            values = data[c].to_numpy(dtype=float)
            codes = _codes(values, result.cut_points[c])
            states = result.states[c]
            nan = np.isnan(values)
            if self.labels == "integer":
                column = pd.array(codes, dtype="Int64")
                column[nan] = pd.NA
                out[c] = column
            else:
                codes = np.where(nan, -1, codes)
                out[c] = pd.Categorical.from_codes(codes, categories=states, ordered=True)
        return out


class _Cuts(NamedTuple):
    cut_points: dict
    columns: list
    states: dict
    feature_names: Any = None  # None: made from cut points, no data seen


def discretize(
    data: pd.DataFrame, *, method: str = "hartemink", n_bins: int = 3, **options: Any
) -> pd.DataFrame:
    """Discretize the continuous columns of ``data`` (bnlearn's ``discretize()``).

    ``Discretizer(method, n_bins=n_bins, **options).fit_transform(data)``; keep the
    :class:`Discretizer` instead to discretize test data with the same cut points.

    Parameters
    ----------
    data : pandas.DataFrame
    method : {"hartemink", "quantile", "quantile-ties", "interval"}, default "hartemink"
    n_bins : int, default 3
    **options
        ``initial_bins``, ``columns``, ``labels``: see :class:`Discretizer`.

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> from pgmpy_nml.study import discretize
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(size=500)
    >>> data = pd.DataFrame({"x": x, "y": x + rng.normal(size=500), "z": rng.integers(0, 2, 500)})
    >>> out = discretize(data, method="hartemink", n_bins=3)
    >>> out["x"].nunique(), out["y"].nunique(), out["z"].equals(data["z"])
    (3, 3, True)
    """
    return Discretizer(method, n_bins=n_bins, **options).fit_transform(data)
