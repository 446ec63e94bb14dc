"""The command line's input files: the data (a CSV file or the bundled example data), the
cut points of an earlier run, and network files."""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._errors import UserError
from ._requests import FITTED_FORMATS, NETWORK_FORMATS, ReadRequest

#: The ``--missing`` policies that keep incomplete rows.
KEEPING = ("available", "em")

#: What a command does with the incomplete rows a policy keeps (the reading's note).
KEPT_FOR = {
    **{
        (command, "available"): "each family is scored on the rows where it is complete"
        for command in ("learn", "cv", "score")
    },
    ("learn", "em"): "structural EM learns from every row, filling the missing cells in "
    "from the network (valid when they are missing at random)",
    ("cv", "em"): "each split is learned by structural EM, and test rows are scored on "
    "their observed cells",
    ("fit", "em"): "EM fits the parameters on every row (valid when values are missing at random)",
    ("evaluate", "em"): "each row is scored on its observed cells, the missing ones summed out",
}

#: The same, as the refusal of incomplete rows offers it.
KEEP_TO = {
    **{
        (command, "available"): "to keep them for a score for incomplete data (pnal, nal)"
        for command in ("learn", "cv", "score")
    },
    ("learn", "em"): "to learn from every row (structural EM; values missing at random)",
    ("cv", "em"): "to learn each split from every row (structural EM)",
    ("fit", "em"): "to fit the parameters by EM on every row",
    ("evaluate", "em"): "to score each row on its observed cells",
}

if TYPE_CHECKING:
    import pandas as pd


@dataclass
class Data:
    """The data a command works on: ``frame`` (strings; NaN for the missing cells kept by
    ``--missing available``), where it came from (``source``), the ``notes`` on how it was
    read, the ``states`` of each variable (the file's, also those only dropped rows held),
    and the ``cut_points`` of the columns cut into intervals."""

    frame: pd.DataFrame
    source: str
    notes: list[str] = field(default_factory=list)
    states: dict[Any, list] = field(default_factory=dict)
    cut_points: dict[Any, list[float]] = field(default_factory=dict)
    dropped_states: dict[Any, list] = field(default_factory=dict)

    @property
    def variables(self) -> list:
        return list(self.frame.columns)

    def summary(self, command: str) -> dict:
        """The first fields of every command's JSON summary: the command and its data."""
        return {
            "command": command,
            "data": self.source,
            "data_notes": self.notes,
            "n_samples": len(self.frame),
        }

    def print(self, what: str = "data") -> None:
        print(f"{what}: {self.source}; {len(self.frame)} rows, {self.frame.shape[1]} variables")
        for note in self.notes:
            print(f"  note: {note}")


def _csv_options(request: ReadRequest, cut_columns: tuple):
    from .._csv import CsvOptions

    where = "--cut-points SUMMARY.json (the JSON summary of the learn run that cut it)"
    if "discretize" in request.offers:
        cut = {"cut_alternative": f"where learn cut with {where}"}
        if "cut_points" not in request.offers:
            cut = {}
    else:
        cut = {"cut_hint": where}
    return CsvOptions(
        delimiter=request.delimiter,
        na_values=request.na_values,
        dropna=request.missing == "drop",
        drop_columns=request.drop_columns,
        discrete=request.discrete,
        keep_continuous=bool(request.discretize or request.discretize_columns or cut_columns),
        keep_missing=request.missing if request.missing in KEEPING else "",
        kept_note=KEPT_FOR.get((request.command, request.missing), ""),
        missing_advice=tuple(
            f"--missing {m} {KEEP_TO[request.command, m]}" for m in request.missing_choices
        ),
        cut_columns=tuple(request.discretize_columns)
        + tuple(c for c in cut_columns if c not in request.discretize_columns),
        **cut,
    )


def read_csv(request: ReadRequest, use: list | None = None) -> Data:
    """The data as strings, the source's description, the notes on how it was read and the
    file's states; ``use``: only these columns (a network's variables)."""
    if request.path is None:
        from .._data import _observed_states
        from ..datasets import load_example_data

        frame = load_example_data()
        if use is not None:
            absent = [v for v in use if v not in frame.columns]
            if absent:
                raise UserError(f"the bundled example data have no column {absent[0]!r}")
            frame = frame[list(use)]
        states = {c: _observed_states(c, frame[c]) for c in frame.columns}
        return Data(frame, "bundled example data (3000 rows of the survey network)", [], states)
    from .._csv import read_data

    cut_columns = tuple(load_cut_points(request.cut_points)) if request.cut_points else ()
    options = _csv_options(request, cut_columns)
    table = read_data(request.path, options, use=use)
    data = Data(table.data, table.path, table.notes, table.states, {}, table.dropped_states)
    for path in request.states_from:
        _declare_states_from(data, path, options)
    return data


def _declare_states_from(data: Data, path: str, options) -> None:
    """``--states-from PATH``: the variables also declare the states PATH holds (read as
    the data, with every row: only its values matter), with a note naming them. The
    states of a column cut into intervals are set later (its intervals)."""
    from dataclasses import replace

    from .._csv import read_data
    from .._data import _state_order

    other = read_data(
        path,
        replace(options, dropna=True, keep_missing="", keep_continuous=True),
        use=data.variables,
    )
    added = {}
    for column, states in data.states.items():
        known = set(states)
        new = [s for s in other.states.get(column, ()) if s not in known]
        if new:
            data.states[column] = _state_order([*states, *new])
            added[column] = new
    if not added:
        data.notes.append(f"--states-from {path}: no state beyond the data's")
        return
    shown = "; ".join(f"{c}: {', '.join(map(str, s))}" for c, s in list(added.items())[:3])
    more = f"; ... ({len(added)} columns)" if len(added) > 3 else ""
    data.notes.append(
        f"--states-from {path}: declared {sum(map(len, added.values()))} state(s) the data "
        f"do not hold ({shown}{more}); they get positive probability from fsNML or a prior"
    )


def load_cut_points(path: str) -> dict:
    """The ``column -> cut points`` object of a --cut-points file (a summary or the object),
    checked: a list of increasing finite numbers per column."""
    file = Path(path)
    try:
        saved = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise UserError(f"--cut-points: cannot read the cut points in {path}: {err}") from None
    cuts = saved.get("cut_points", saved) if isinstance(saved, dict) else None
    if not isinstance(cuts, dict) or not cuts:
        raise UserError(
            f"--cut-points {path} holds no cut points: give the JSON summary of a learn run with "
            "--discretize, or a JSON object of column -> list of cut points"
        )
    for column, points in cuts.items():
        if not (
            isinstance(points, list)
            and all(
                isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
                for x in points
            )
        ):
            raise UserError(
                f"--cut-points {path}: the cut points of column {column!r} must be a list of "
                f"finite numbers, got {json.dumps(points)[:80]}"
            )
        if any(b <= a for a, b in itertools.pairwise(points)):
            raise UserError(
                f"--cut-points {path}: the cut points of column {column!r} must increase, "
                f"got {json.dumps(points)[:80]}"
            )
    return cuts


def read_model(path: str):
    """A fitted network from a BIF or XMLBIF file, checked to be complete."""
    file = Path(path)
    if not file.is_file():
        raise UserError(f"no such network file: {path}")
    kind = NETWORK_FORMATS.get(file.suffix.lower())
    if kind not in FITTED_FORMATS:
        raise UserError(
            f"network file {path}: unknown extension {file.suffix!r}; give a .bif or .xml file"
        )
    from .._network_files import read_network

    try:
        model = read_network(file, kind)
    except Exception as err:  # pgmpy's parsers raise many kinds
        reason = " ".join(str(err).split())[:200] or type(err).__name__
        raise UserError(f"{path} is not a valid {kind} network file: {reason}") from None
    if model.number_of_nodes() == 0:
        raise UserError(f"{path} is not a valid {kind} network file: it declares no variables")
    # BIF and XMLBIF state the edges in the probability blocks: a variable without one
    # means a truncated or misspelt file, not a variable without parents
    missing = [v for v in model.nodes() if model.get_cpds(v) is None]
    if missing:
        raise UserError(
            f"{path} is not a complete {kind} network file: no probability table for "
            f"{', '.join(map(repr, missing[:3]))}{' ...' if len(missing) > 3 else ''} "
            "(truncated or misspelt?)"
        )
    return model


def model_states(model, model_path: str, data: Data) -> dict:
    """The network's states of each variable; refuses data values it does not declare."""
    states = {}
    for v in model.nodes():
        states[v] = [str(s) for s in model.get_cpds(v).state_names[v]]
        extra = sorted(set(data.frame[v].dropna().unique()) - set(states[v]))
        if extra:
            shown = ", ".join(repr(x) for x in extra[:3]) + (" ..." if len(extra) > 3 else "")
            raise UserError(
                f"{data.source}: column {v!r} has value(s) {shown} that the network "
                f"{model_path} does not declare (its states: {', '.join(states[v])}); "
                f"learn or fit it with --states-from {data.source} to declare them"
            )
    return states
