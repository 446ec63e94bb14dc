"""Cutting continuous columns: ``--discretize`` learns the cut points, ``--cut-points``
reuses an earlier run's (:class:`~pgmpy_nml.study.Discretizer` does the cutting)."""

from __future__ import annotations

import shlex
import warnings
from collections.abc import Hashable

from ._errors import UserError
from ._inputs import Data, load_cut_points, read_csv
from ._requests import ReadRequest


def read_study_data(request: ReadRequest, use: list | None = None) -> Data:
    """The data as strings, cut with --discretize or --cut-points (the cut points learned
    by --discretize in ``cut_points``; the states of a cut column are its intervals)."""
    read = read_csv(request, use=use)
    data, notes = read.frame, read.notes
    cut_points: dict[Hashable, list[float]] = {}
    named = request.discretize_columns
    absent = [c for c in named if c not in data.columns]
    if absent:
        raise UserError(
            f"--discretize-columns names {absent[0]!r}, which is not a column of the data used"
        )
    discretize = request.discretize
    if request.cut_points:
        cuts = load_cut_points(request.cut_points)
        return _with_cut(read, apply_cut_points(request, data, notes), cuts, {})
    if discretize or named:
        from ..study import Discretizer

        if not discretize:
            discretize = ("hartemink", 3)
            notes.append("--discretize-columns without --discretize: cut with hartemink:3")
        columns = _continuous_columns(data, _decimal_comma(request, notes))
        for name in named:
            if name not in columns:
                columns[name] = _numbers(data[name], name, _decimal_comma(request, notes))
        if not columns:
            notes.append("--discretize: no column looks continuous; nothing was cut")
        else:
            method, n_bins = discretize
            frame = data.assign(**columns)
            discretizer = Discretizer(
                method, n_bins=n_bins, columns=list(columns), labels="integer"
            )
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", UserWarning)
                try:
                    discretizer.fit(frame)
                except ValueError as err:
                    fix = ""
                    if "infinite" in str(err):
                        fix = (
                            " Here: declare the token missing and drop its rows, e.g. "
                            "--na-values NA,NaN,?,inf,-inf --dropna"
                        )
                    words = str(err).replace("data.dropna()", "--dropna")
                    words = words.replace(
                        "method='quantile', 'quantile-ties' or 'interval'",
                        "--discretize quantile, quantile-ties or interval",
                    )
                    words = words.replace("method='quantile'", "--discretize quantile")
                    raise UserError(f"--discretize: {words}{fix}") from None
            for w in caught:
                text = str(w.message)
                if issubclass(w.category, UserWarning) and "single value" not in text:
                    notes.append(
                        "--discretize: "
                        + text.replace("method='quantile-ties'", "--discretize quantile-ties")
                    )
            data = _cut(data, discretizer, columns, notes)
            cut_points = {c: [float(x) for x in discretizer.cut_points_[c]] for c in columns}
    return _with_cut(read, data, cut_points, cut_points)


def _with_cut(read: Data, frame, cuts: dict, learned: dict) -> Data:
    """``read`` with its ``frame`` cut at ``cuts`` (column -> cut points); ``learned``, the
    cut points that --discretize learned (for the summary). A cut column's states are its
    intervals, ``"0"`` to ``str(len(cut points))``, whether data fall in each or not."""
    from .._csv import dropped_states_note

    states = dict(read.states)
    for column, points in cuts.items():
        if column in frame.columns:
            states[column] = [str(i) for i in range(len(points) + 1)]
    dropped = {c: s for c, s in read.dropped_states.items() if c not in cuts}
    note = dropped_states_note(dropped)
    if note is not None:  # after the notes on the reading, before those on the cutting
        first_cut = next((i for i, n in enumerate(read.notes) if " cut at " in n), None)
        read.notes.insert(len(read.notes) if first_cut is None else first_cut, note)
    return Data(frame, read.source, read.notes, states, learned, dropped)


def _continuous_columns(data, decimal_comma):
    """The columns the CSV checks call continuous, as floats (the one test of the reader)."""

    from .._csv import _column_problem

    found = {}
    for name in data.columns:
        values = data[name]
        problem = _column_problem(values[values.notna()], decimal_comma=decimal_comma)
        if problem and problem[0] == "continuous":
            numbers, strays = _parse_numbers(values, decimal_comma)
            if len(strays):
                raise UserError(
                    f"column {name!r} looks continuous but holds {strays[0]!r}, which is not a "
                    "number: fix it, or declare it missing with --na-values"
                )
            found[name] = numbers
    return found


def _cut(data, discretizer, columns, notes):
    """Cut ``columns`` (floats) with a fitted discretizer; states are the interval numbers."""
    out = discretizer.transform(data.assign(**columns)[list(columns)])
    data = data.copy()
    for name in columns:
        data[name] = out[name].astype("Int64").astype(str)
        cuts = ", ".join(f"{c:.4g}" for c in discretizer.cut_points_[name])
        if cuts:
            notes.append(f"column {name!r} cut at {cuts}: states 0, 1, ... are intervals")
        else:
            notes.append(
                f"column {name!r} is not cut (one value in every row when the cut points were "
                f"learned): it is a variable with the single state 0, which carries no "
                f"information; --drop-columns {shlex.quote(str(name))} leaves it out"
            )
    return data


def _parse_numbers(values, decimal_comma):
    """A text column as floats (NaN where not a number), and its distinct non-numbers."""
    import pandas as pd

    text = values.str.replace(",", ".", regex=False) if decimal_comma else values
    numbers = pd.to_numeric(text, errors="coerce")
    return numbers, values[numbers.isna() & values.notna()].unique()


def _numbers(values, name, decimal_comma):
    """A column named in --discretize-columns as floats; a non-number is a user error."""
    numbers, strays = _parse_numbers(values, decimal_comma)
    if len(strays):
        raise UserError(
            f"--discretize-columns: column {name!r} holds {strays[0]!r}, which is not a number; "
            "only numbers can be cut (declare it missing with --na-values, or leave the column "
            "out of --discretize-columns)"
        )
    return numbers


def _decimal_comma(request: ReadRequest, notes) -> bool:
    """Whether decimals may be written with a comma: the fields are not comma-delimited."""
    if request.delimiter is not None:
        return request.delimiter != ","
    return any(note.startswith("fields are delimited by ") for note in notes)


def apply_cut_points(request: ReadRequest, data, notes):
    """``--cut-points FILE``: cut the data where an earlier run cut its training data."""
    from ..study import Discretizer

    assert request.cut_points is not None
    cuts = load_cut_points(request.cut_points)
    unknown = [c for c in cuts if c not in data.columns]
    if unknown:
        raise UserError(f"the cut points name column {unknown[0]!r}, which the test data lack")
    columns = _continuous_columns(data[list(cuts)], _decimal_comma(request, notes))
    import pandas as pd

    for c in cuts:  # a column of whole numbers is not "continuous", but is cut all the same
        if c not in columns:
            columns[c] = pd.to_numeric(data[c], errors="coerce")
    discretizer = Discretizer.from_cut_points(cuts, labels="integer")
    return _cut(data, discretizer, columns, notes)
