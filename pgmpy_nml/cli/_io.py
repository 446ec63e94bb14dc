"""The command line's files: reading the data and the networks, checking every output
path before the work, staging the outputs and putting them in place together (atomically)
when the command succeeds, and the strict JSON summary."""

from __future__ import annotations

import itertools
import json
import math
import os
import tempfile
from pathlib import Path

from .._version import __version__
from ._common import FITTED_FORMATS, NETWORK_FORMATS, UserError, _missing_policy


def _csv_options(args):
    from .._csv import CsvOptions

    missing = _missing_policy(args)
    return CsvOptions(
        delimiter=args.delimiter,
        na_values=args.na_values,
        dropna=missing == "drop",
        drop_columns=args.drop_columns,
        discrete=args.discrete,
        keep_continuous=bool(
            getattr(args, "discretize", None)
            or getattr(args, "discretize_columns", None)
            or getattr(args, "cut_points", None)
        ),
        keep_missing=missing == "available",
        can_keep_missing=hasattr(args, "missing"),
        **_cut_options(args),
    )


def _cut_options(args):
    """The columns to cut (named, or in the --cut-points file) and how a command cuts."""
    columns = tuple(getattr(args, "discretize_columns", None) or ())
    if getattr(args, "cut_points", None):
        columns += tuple(c for c in _load_cut_points(args.cut_points) if c not in columns)
    where = "--cut-points SUMMARY.json (the JSON summary of the learn run that cut it)"
    if not hasattr(args, "discretize"):
        return {"cut_columns": columns, "cut_hint": where}
    other = f"where learn cut with {where}" if hasattr(args, "cut_points") else ""
    return {"cut_columns": columns, "cut_alternative": other}


def _load_cut_points(path):
    """The ``column -> cut points`` object of a --cut-points file (a summary or the object),
    checked: a list of increasing finite numbers per column."""
    path = Path(path)
    try:
        saved = json.loads(path.read_text(encoding="utf-8"))
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


def _data_path(args):
    if args.data_file and args.data and args.data_file != args.data:
        raise UserError(f"two data files given ({args.data_file} and --data {args.data}): give one")
    return args.data_file or args.data


def _read_csv(args, use=None):
    """The data as strings, the source's description and the notes on how it was read."""
    path = _data_path(args)
    if path is None:
        given = [
            flag
            for flag, value in (
                ("--delimiter", args.delimiter),
                ("--na-values", args.na_values is not None),
                ("--dropna", args.dropna),
                ("--drop-columns", args.drop_columns),
                ("--discrete", args.discrete),
            )
            if value
        ]
        if given:
            raise UserError(f"{', '.join(given)} need(s) a data file: give one, e.g. data.csv")
        from ..datasets import load_example_data

        data = load_example_data()
        if use is not None:
            absent = [v for v in use if v not in data.columns]
            if absent:
                raise UserError(f"the bundled example data have no column {absent[0]!r}")
            data = data[list(use)]
        return data, "bundled example data (3000 rows of the survey network)", []
    from .._csv import read_data

    table = read_data(path, _csv_options(args), use=use)
    return table.data, table.path, table.notes


def _read_model(path):
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


def _declared_states(model, model_path, data, source):
    """The network's states of each variable; refuses data values it does not declare."""
    states = {}
    for v in model.nodes():
        states[v] = [str(s) for s in model.get_cpds(v).state_names[v]]
        extra = sorted(set(data[v].dropna().unique()) - set(states[v]))
        if extra:
            shown = ", ".join(repr(x) for x in extra[:3]) + (" ..." if len(extra) > 3 else "")
            raise UserError(
                f"{source}: column {v!r} has value(s) {shown} that the network {model_path} "
                f"does not declare (its states: {', '.join(states[v])})"
            )
    return states


def _output_format(path, fitted=True, flag="--out"):
    """The format of an output file from its extension; refuses unknown ones up front."""
    if path is None:
        return None
    file = Path(path)
    kind = NETWORK_FORMATS.get(file.suffix.lower())
    if kind is None:
        known = ", ".join(NETWORK_FORMATS)
        raise UserError(f"{flag} {path}: unknown extension {file.suffix!r}; use one of {known}")
    if not fitted and kind in FITTED_FORMATS:
        raise UserError(
            f"{flag} {path} writes a fitted network, and --params none fits none: drop "
            f"--params none, or write the structure with {flag} FILE.dot"
        )
    _check_directory(path, flag)
    return kind


def _check_directory(path, flag):
    """Refuse, before any work, an output path that cannot be written (exit 2)."""
    if path is None:
        return
    file = Path(path)
    if file.is_dir():
        raise UserError(f"{flag} {path} is a directory: give a file name")
    directory = file.resolve().parent
    if not directory.is_dir():
        raise UserError(f"{flag} {path}: the directory {file.parent} does not exist")
    try:  # the one test that holds for every user and file system: write a file there
        with tempfile.NamedTemporaryFile(dir=directory, prefix=f".{file.name}.", suffix=".tmp"):
            pass
    except OSError as err:
        reason = err.strerror or type(err).__name__
        raise UserError(f"{flag} {path}: cannot write in {directory} ({reason})") from None
    if file.exists() and not os.access(file, os.W_OK):
        raise UserError(f"{flag} {path}: the file exists and is not writable")


def _check_outputs(args):
    """Every output path of the command (``--out``, ``--json``), checked before the work."""
    outputs = [("--out", getattr(args, "out", None)), ("--json", getattr(args, "json", None))]
    for flag, path in outputs:
        _check_directory(path, flag)
    given = [(flag, Path(path).resolve()) for flag, path in outputs if path is not None]
    if len(given) == 2 and given[0][1] == given[1][1]:
        raise UserError(f"--out and --json name the same file ({args.out}): give two files")


#: Files written by this run, not yet in place: (temporary file, destination, message).
#: They are moved into place together when the command succeeds, and deleted otherwise.
_STAGED: list = []


def _stage(path, write, message):
    """Write a file through ``write(temporary path)`` next to ``path``; in place on success.

    The temporary file is in the destination's directory, so the final ``os.replace``
    is atomic: a failure never leaves a partial or a stale half of the outputs.
    """
    file = Path(path)
    handle, temporary = tempfile.mkstemp(
        dir=file.resolve().parent, prefix=f".{file.stem}.", suffix=f"{file.suffix}.tmp"
    )
    os.close(handle)
    _STAGED.append((temporary, path, message))
    write(temporary)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(temporary, 0o666 & ~umask)  # the permissions of a file written directly


def _commit_staged():
    """Move every staged file into place, in the order written, and say so."""
    while _STAGED:
        temporary, path, message = _STAGED.pop(0)
        os.replace(temporary, path)
        print(message)


def _discard_staged():
    while _STAGED:
        Path(_STAGED.pop()[0]).unlink(missing_ok=True)


def _check_out_names(path, kind, data):
    """Refuse, before the work, a name that the --out format cannot hold (the states of
    the written network are the data's values)."""
    if kind is None:
        return
    from .._data import _observed_states
    from .._network_files import NetworkFileError, check_names

    if kind == "DOT":
        names = dict.fromkeys(data.columns)
    else:
        names = {v: _observed_states(v, data[v].dropna()) for v in data.columns}
    try:
        check_names(kind, names)
    except NetworkFileError as err:
        raise UserError(f"--out {path}: {err}") from None


def _write_network(model, dag, path, kind, what="network"):
    """Write the network if it reads back the same (checked; nothing otherwise), put in
    place with the JSON summary when the command succeeds."""
    from .._network_files import NetworkFileError, write_network

    def write(temporary):
        try:
            write_network(dag if kind == "DOT" else model, temporary, kind)
        except NetworkFileError as err:
            raise UserError(f"--out {path}: {err}") from None

    _stage(path, write, f"{what} written to {path} ({kind})")


def _json_value(value):
    import numpy as np

    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"cannot write {type(value).__name__} to JSON")


#: Why a number of the JSON summary is not finite, when the command does not say.
_NON_FINITE = "not a finite number, which JSON cannot represent"


def _strict_json(value, reasons, nulls, path=""):
    """``value`` with every non-finite number replaced by null, each recorded in ``nulls``
    (JSON path -> the value and why: the longest prefix of the path in ``reasons``)."""
    import numpy as np

    if isinstance(value, dict):
        return {
            k: _strict_json(v, reasons, nulls, f"{path}.{k}" if path else str(k))
            for k, v in value.items()
        }
    if isinstance(value, (list, tuple, np.ndarray)):
        return [_strict_json(v, reasons, nulls, f"{path}[{i}]") for i, v in enumerate(value)]
    if isinstance(value, (float, np.floating)) and not math.isfinite(value):
        keys = [k for k in reasons if path == k or path.startswith((f"{k}.", f"{k}["))]
        reason = reasons[max(keys, key=len)] if keys else _NON_FINITE
        nulls[path] = {"value": str(float(value)), "reason": reason}
        return None
    return value


def _finish(summary, args, reasons=None):
    """Write the JSON summary if asked, and put every output file in place; return the summary.

    The JSON is strict (``allow_nan=False``): an infinite or undefined number is
    written as ``null``, and ``null_values`` says, for each, what it was and why
    (``reasons``: JSON path or prefix -> why).
    """
    if args.json:
        nulls: dict[str, dict[str, str]] = {}
        summary = _strict_json({"pgmpy_nml_version": __version__, **summary}, reasons or {}, nulls)
        if nulls:
            summary["null_values"] = nulls
        text = json.dumps(summary, indent=2, default=_json_value, allow_nan=False) + "\n"
        _stage(
            args.json,
            lambda temporary: Path(temporary).write_text(text, encoding="utf-8"),
            f"summary written to {args.json}",
        )
    _commit_staged()
    return summary
