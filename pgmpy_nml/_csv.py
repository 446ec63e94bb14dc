"""Discrete data from real CSV files, for the command line.

One place for what real files bring: R's and pandas' missing-value tokens,
delimiters other than a comma, R's row-names column, empty or duplicated
header names, identifier columns, and numeric columns that are really
continuous. Every problem is a one-line :class:`CsvError` that names the file,
the columns, the counts and the command-line flag that resolves it; every
choice made for the user (a detected delimiter, dropped rows, ignored row
names) comes back as a note to print.

The result is a DataFrame of strings without missing values (unless the
command keeps them, as NaN, for the scores of incomplete data); the checks that
every DataFrame gets (types, declared states) stay in :func:`pgmpy_nml._data.encode_data`,
the package's input boundary.
"""

from __future__ import annotations

import csv
import io
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ._data import _observed_states
from ._limits import ID_MIN_DISTINCT, MAX_WHOLE_NUMBER_STATES
from .exceptions import CsvError

__all__ = ["DEFAULT_NA_VALUES", "CsvOptions", "Table", "dropped_states_note", "read_data"]

#: Cells that mean "missing" unless ``--na-values`` says otherwise: R writes ``NA``,
#: pandas writes empty cells (always missing) and UCI files use ``?``.
DEFAULT_NA_VALUES = ("NA", "NaN", "?")
#: Delimiters tried, in this order, when none is given.
DELIMITERS = (",", ";", "\t", "|", " ", ":")

_SNIFF_CHARS = 1 << 16
_MAX_LISTED = 3


@dataclass(frozen=True)
class CsvOptions:
    """How to read the files (the command line's data flags).

    Parameters
    ----------
    delimiter : str, optional
        The field delimiter; detected among ``, ; TAB | space`` when not given.
    na_values : tuple of str, optional
        Cells that mean a missing value (empty cells always do); default
        :data:`DEFAULT_NA_VALUES`. An empty tuple leaves only empty cells missing.
    dropna : bool, default False
        Drop rows with a missing value (and report how many) instead of refusing them.
    drop_columns : tuple of str
        Columns to ignore.
    discrete : tuple of str
        Columns to keep as discrete variables even if they look continuous or
        like an identifier.
    keep_continuous : bool, default False
        Let continuous-looking columns through (``--discretize`` cuts them next).
    cut_columns : tuple of str
        Columns that will be cut into intervals (``--discretize-columns``, or the
        columns of ``--cut-points``): not checked here, whatever they look like.
    cut_hint : str
        How to cut a continuous column with the command at hand, for the messages.
    cut_alternative : str
        Another way the command can cut, for the messages (e.g. ``--cut-points``).
    keep_missing : str, default ""
        Keep rows with missing values, the missing cells as NaN: the ``--missing``
        policy that keeps them (``"available"``, ``"em"``), "" to refuse or drop them.
    kept_note : str
        What the command does with the rows it keeps (the note says it).
    missing_advice : tuple of str
        The command's other ways with incomplete rows, for the refusal
        (``"--missing em to ..."``).
    """

    delimiter: str | None = None
    na_values: tuple | None = None
    dropna: bool = False
    drop_columns: tuple = ()
    discrete: tuple = ()
    keep_continuous: bool = False
    cut_columns: tuple = ()
    cut_hint: str = "--discretize METHOD[:BINS]"
    cut_alternative: str = ""
    keep_missing: str = ""
    kept_note: str = ""
    missing_advice: tuple = ()


@dataclass
class Table:
    """A data file read into discrete variables.

    Attributes
    ----------
    data : pandas.DataFrame
        One string column per variable; no missing values unless
        ``keep_missing`` kept them (as NaN).
    path : str
    delimiter : str
    notes : list of str
        The choices made while reading, one sentence each (for the user).
    states : dict
        Column -> the values the file holds in it (missing cells aside), in the package's
        order of states: the states the file declares, also those that only rows dropped
        by ``dropna`` held (a learned network keeps them, with positive probability).
    dropped_states : dict
        Column -> the values that only rows dropped by ``dropna`` held (for the reader
        to name, once it knows which columns stay states and which are cut).
    """

    data: pd.DataFrame
    path: str
    delimiter: str
    notes: list = field(default_factory=list)
    states: dict = field(default_factory=dict)
    dropped_states: dict = field(default_factory=dict)


def _names(items, limit: int = _MAX_LISTED) -> str:
    items = list(items)
    shown = ", ".join(repr(x) for x in items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


def _flag_value(names) -> str:
    """Column names as one shell word for a flag such as ``--drop-columns``."""
    return shlex.quote(",".join(names))


def _records(text: str, delimiter: str) -> list:
    reader = csv.reader(io.StringIO(text), delimiter=delimiter, skipinitialspace=True)
    try:
        return [row for row in reader if row]
    except csv.Error:
        return []


def _sniff(text: str) -> str | None:
    """The first delimiter that splits the header and the rows consistently.

    A header one field shorter than the rows (R's write.table leaves the row
    names' column out) is accepted only if no delimiter fits exactly.
    """
    shapes = {}
    for delimiter in DELIMITERS:
        rows = _records(text, delimiter)
        widths = {len(r) for r in rows[1:]}
        if rows and len(widths) <= 1:
            shapes[delimiter] = (len(rows[0]), widths.pop() if widths else len(rows[0]))
    for exact in (True, False):
        for delimiter, (header, width) in shapes.items():
            if width > 1 and header == (width if exact else width - 1):
                return delimiter
    return None


def _head(path: Path, label: str) -> str:
    try:
        with path.open(encoding="utf-8-sig", newline="") as fh:
            text = fh.read(_SNIFF_CHARS)
            if fh.read(1):  # cut at the last complete line
                text = text[: text.rfind("\n") + 1] or text
    except UnicodeDecodeError as err:
        raise CsvError(
            f"{label} is not UTF-8 text (byte {err.object[err.start]:#x} at position "
            f"{err.start}); save it as UTF-8"
        ) from None
    if not text.strip():
        raise CsvError(f"{label} is empty")
    return text


def _read_body(path: Path, label: str, delimiter: str) -> pd.DataFrame:
    try:
        body = pd.read_csv(
            path,
            sep=delimiter,
            header=None,
            skiprows=1,
            dtype=str,
            na_filter=False,
            skipinitialspace=True,
            skip_blank_lines=True,
            encoding="utf-8-sig",
        )
    except pd.errors.EmptyDataError:
        raise CsvError(f"{label} has a header but no data rows") from None
    except (pd.errors.ParserError, UnicodeDecodeError, ValueError) as err:
        reason = " ".join(str(err).split()).removeprefix("Error tokenizing data. C error: ")
        raise CsvError(
            f"cannot read {label} with delimiter {delimiter!r}: {reason}; "
            "fix the file or give the delimiter with --delimiter"
        ) from None
    return body.apply(lambda column: column.str.strip())


def _header(text: str, delimiter: str) -> list:
    rows = _records(text, delimiter)
    return [name.strip() for name in rows[0]] if rows else []


def _check_header(names, body, label, notes):
    """Match the header to the rows: R's row names, empty and duplicated names."""
    width = body.shape[1]
    if width == len(names) + 1:
        notes.append(
            "the header has one name fewer than the rows: ignored the first field of "
            "every row (row names, as R's write.table writes them)"
        )
        body = body.iloc[:, 1:]
    elif width != len(names):
        raise CsvError(
            f"{label}: the header has {len(names)} fields but the rows have {width}; "
            "fix the file or give the delimiter with --delimiter"
        )
    if names and names[0] == "" and body.iloc[:, 0].is_unique:
        notes.append("ignored the unnamed first column (row names: a different value in every row)")
        names, body = names[1:], body.iloc[:, 1:]
    empty = [i + 1 for i, name in enumerate(names) if name == ""]
    if empty:
        which = ", ".join(map(str, empty[:_MAX_LISTED]))
        raise CsvError(
            f"{label}: column{'s' if len(empty) > 1 else ''} {which} of the header "
            f"{'have' if len(empty) > 1 else 'has'} no name; give every column a name"
        )
    seen = pd.Index(names)
    if not seen.is_unique:
        dups = seen[seen.duplicated()].unique()
        positions = {name: [str(i + 1) for i, n in enumerate(names) if n == name] for name in dups}
        where = "; ".join(
            f"{name!r} in columns {', '.join(positions[name])}" for name in dups[:_MAX_LISTED]
        )
        raise CsvError(f"{label}: duplicated column names ({where}); rename them")
    body.columns = names
    return body.reset_index(drop=True)


def _check_single_column(data, label, delimiter, text):
    """A file that reads as one column is refused when another character looks like its
    delimiter: one of :data:`DELIMITERS` that splits the header, or any other punctuation
    found as often in the header as in every line (``a:b:c``)."""
    if data.shape[1] != 1:
        return
    lines = [line for line in text.splitlines() if line.strip()]
    first = lines[0]
    others = [d for d in DELIMITERS if d != delimiter and len(_header(first, d)) > 1]
    if not others:
        others = [
            c
            for c in dict.fromkeys(first)
            if not (c.isalnum() or c.isspace() or c in "\"'_-.")
            and all(line.count(c) == first.count(c) for line in lines[:200])
        ]
    if others:
        raise CsvError(
            f"{label} reads as a single column {data.columns[0]!r} with delimiter "
            f"{delimiter!r}; its fields look delimited by {others[0]!r}: give it with "
            f"--delimiter {shlex.quote(others[0])}"
        )


def _known(columns, names, label, flag):
    unknown = [c for c in names if c not in columns]
    if unknown:
        raise CsvError(
            f"{flag} names {_names(unknown)}, not a column of {label} "
            f"(columns: {_names(columns, 8)})"
        )


def _column_problem(values: pd.Series, decimal_comma: bool):
    """Why a column (its non-missing values) cannot be a discrete variable, or None."""
    n = len(values)
    if n == 0:
        return "empty", "has no values (every row is missing)"
    distinct = values.nunique()
    numbers = pd.to_numeric(
        values.str.replace(",", ".", regex=False) if decimal_comma else values, errors="coerce"
    )
    is_number = numbers.notna()
    if 2 * int(is_number.sum()) > n:  # mostly numbers: a stray token does not hide it
        found = numbers[is_number]
        fractional = values[is_number][(found != found.round()).to_numpy()]
        if len(fractional):
            detail = f"decimal values such as {_names(fractional.unique()[:3])}"
            strays = values[~is_number].unique()
            if len(strays):
                detail += f", and {_names(strays)} that is not a number"
            return "continuous", f"looks continuous ({detail})"
        if distinct >= ID_MIN_DISTINCT and 2 * distinct > n:
            return "id", f"looks like an identifier ({distinct} distinct values in {n} rows)"
        if found.nunique() > MAX_WHOLE_NUMBER_STATES:
            return "continuous", (
                f"looks continuous ({found.nunique()} distinct whole numbers from "
                f"{found.min():g} to {found.max():g})"
            )
        return None
    if distinct >= ID_MIN_DISTINCT and 2 * distinct > n:
        return "id", f"looks like an identifier ({distinct} distinct values in {n} rows)"
    return None


def _check_columns(data, missing, label, delimiter, discrete, keep_continuous=False, options=None):
    options = options or CsvOptions()
    problems = []
    for name in data.columns:
        if name in discrete or name in options.cut_columns:
            continue
        problem = _column_problem(data[name][~missing[name]], decimal_comma=delimiter != ",")
        if problem and not (keep_continuous and problem[0] == "continuous"):
            problems.append((name, *problem))
    if not problems:
        return
    names = [name for name, _, _ in problems]
    ids = [
        name
        for name, kind, _ in problems
        if kind == "id" and _mostly_numbers(data[name][~missing[name]], delimiter != ",")
    ]
    numeric = [name for name, kind, _ in problems if kind == "continuous" or name in ids]
    if len(problems) == 1:
        name, kind, why = problems[0]
        flag = _flag_value([name])
        cut = _cut_fix(ids, options, 1)
        if kind == "empty":
            fix = f"drop it with --drop-columns {flag}"
        elif kind == "id" and not numeric:
            fix = f"drop it with --drop-columns {flag}, or keep it with --discrete {flag}"
        elif kind == "id":
            fix = (
                f"drop it with --drop-columns {flag}; or, if it is a measurement, {cut}; or "
                f"keep its values as states with --discrete {flag}"
            )
        else:
            fix = (
                f"{cut}; drop it with --drop-columns {flag}; or keep its values as states "
                f"with --discrete {flag}"
            )
        raise CsvError(f"{label}: column {name!r} {why}; {fix}")
    listed = "; ".join(f"{name!r} {why}" for name, _, why in problems[:_MAX_LISTED])
    more = f"; and {len(problems) - _MAX_LISTED} more" if len(problems) > _MAX_LISTED else ""
    cut = f"{_cut_fix(ids, options, len(numeric))}; " if numeric else ""
    raise CsvError(
        f"{label}: {len(problems)} columns cannot be discrete variables: {listed}{more}; "
        f"{cut}drop them with --drop-columns {_flag_value(names)}, or keep them as variables "
        f"with --discrete {_flag_value(names)}"
    )


def _mostly_numbers(values: pd.Series, decimal_comma: bool) -> bool:
    text = values.str.replace(",", ".", regex=False) if decimal_comma else values
    return 2 * int(pd.to_numeric(text, errors="coerce").notna().sum()) > len(values)


def _cut_fix(ids, options, n_numeric) -> str:
    """How to cut numeric columns into intervals with the command at hand.

    Continuous-looking columns are found by ``--discretize`` itself; columns that
    look like identifiers (``ids``) must be named with ``--discretize-columns``.
    """
    what = "it" if n_numeric == 1 else "the numeric ones"
    if options.cut_hint.startswith("--cut-points"):
        return f"cut {what} where training cut with {options.cut_hint}"
    named = f" --discretize-columns {_flag_value(ids)}" if ids else ""
    other = f" (or {options.cut_alternative})" if options.cut_alternative else ""
    return f"cut {what} into intervals with {options.cut_hint}{named}{other}"


def _handle_missing(data, missing, label, tokens, options, notes):
    rows = missing.any(axis=1)
    n_rows, n_missing = len(data), int(rows.sum())
    if not n_missing:
        return data
    if options.keep_missing:
        how = f": {options.kept_note}" if options.kept_note else ""
        notes.append(
            f"kept {n_missing} of {n_rows} rows with a missing value (--missing "
            f"{options.keep_missing}){how}"
        )
        return data.mask(missing)
    if options.dropna:
        if n_missing == n_rows:
            worst = missing.sum().sort_values(ascending=False)
            raise CsvError(
                f"{label}: every one of the {n_rows} rows has a missing value, so --dropna "
                f"leaves nothing; drop the emptiest columns first, e.g. --drop-columns "
                f"{_flag_value(worst.index[:2])}"
            )
        notes.append(f"dropped {n_missing} of {n_rows} rows with a missing value (--dropna)")
        return data[~rows.to_numpy()].reset_index(drop=True)
    counts = missing.sum()
    counts = counts[counts > 0].sort_values(ascending=False, kind="stable")
    found = sorted({v for v in data.to_numpy()[missing.to_numpy()] if isinstance(v, str)})
    what = ", ".join(f"{t!r}" if t else "empty cells" for t in found)
    per_column = ", ".join(f"{c!r} ({n})" for c, n in counts.iloc[:_MAX_LISTED].items())
    if len(counts) > _MAX_LISTED:
        per_column += f" and {len(counts) - _MAX_LISTED} more columns"
    keep = "".join(f", or {advice}" for advice in options.missing_advice)
    raise CsvError(
        f"{label}: {n_missing} of {n_rows} rows have missing values ({what}) in "
        f"{per_column}; add --dropna to drop those rows{keep}, or set the missing-value "
        f"tokens with --na-values (now {','.join(tokens) or 'none'})"
    )


def read_data(path, options: CsvOptions | None = None, use=None) -> Table:
    """Read a CSV file of discrete data, checking everything a real file can get wrong.

    Parameters
    ----------
    path : str or Path
    options : CsvOptions, optional
    use : list of str, optional
        The columns the command needs (e.g. a network's nodes); the others are
        ignored without checks. Default: every column not dropped.

    Returns
    -------
    Table

    Raises
    ------
    CsvError
        One line naming the file, the problem and the flag that fixes it.
    """
    options = options or CsvOptions()
    label = str(path)
    file = Path(path)
    if not file.is_file():
        raise CsvError(f"no such data file: {label}")
    text = _head(file, label)
    notes = []
    delimiter = options.delimiter or _sniff(text) or ","
    if options.delimiter is None and delimiter != ",":
        notes.append(f"fields are delimited by {delimiter!r} (detected; --delimiter to change)")
    data = _check_header(_header(text, delimiter), _read_body(file, label, delimiter), label, notes)
    _check_single_column(data, label, delimiter, text)

    _known(data.columns, options.drop_columns, label, "--drop-columns")
    _known(data.columns, options.discrete, label, "--discrete")
    data = data.drop(columns=list(options.drop_columns))
    if use is not None:
        absent = [c for c in use if c not in data.columns]
        if absent:
            raise CsvError(
                f"{label} has no column {_names(absent)}, which the network needs "
                f"(columns: {_names(data.columns, 8)})"
            )
        unused = [c for c in data.columns if c not in use]
        if unused:
            notes.append(f"ignored the columns the network does not use: {_names(unused)}")
        data = data[list(use)]
    if data.shape[1] == 0:
        raise CsvError(f"{label}: no columns left to use")

    tokens = DEFAULT_NA_VALUES if options.na_values is None else tuple(options.na_values)
    missing = data.isna() | data.isin(set(tokens) | {""})
    _check_columns(
        data,
        missing,
        label,
        delimiter,
        set(options.discrete),
        options.keep_continuous,
        options,
    )
    states = {c: _observed_states(c, data[c][~missing[c]]) for c in data.columns}
    data = _handle_missing(data, missing, label, tokens, options, notes)
    dropped = {c: [s for s in states[c] if s not in set(data[c])] for c in data.columns}
    return Table(
        data=data,
        path=label,
        delimiter=delimiter,
        notes=notes,
        states=states,
        dropped_states={c: s for c, s in dropped.items() if s},
    )


def dropped_states_note(dropped: dict) -> str | None:
    """The note that names the states only dropped rows held (None if there are none)."""
    if not dropped:
        return None
    listed = "; ".join(f"{c!r}: {_names(s)}" for c, s in list(dropped.items())[:_MAX_LISTED])
    more = ""
    if len(dropped) > _MAX_LISTED:
        more = f"; and {len(dropped) - _MAX_LISTED} more columns"
    return (
        "states that only the dropped rows hold are kept as states of their variables (no "
        f"row used has them: the parameters give them what an unseen state gets) ({listed}{more})"
    )
