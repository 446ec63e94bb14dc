"""The command line's output files: every path checked before the work, every file staged
and put in place together when the command succeeds, and the strict JSON summary.

Where an output lands (:class:`Destination`):

- a symbolic link is followed: its target is written, the link stays;
- a regular file (or a new one) is written next to its target and renamed onto it when
  the command succeeds, so a failure never leaves a partial file, and an existing file
  keeps its permissions;
- anything else that exists (a device such as ``/dev/null``, a named pipe, a terminal,
  ``/dev/stdout``) is written directly, after the work: it cannot be replaced, and a
  rename would put a regular file in its place. Its errors (``/dev/full``: no space left
  on device) are the user's, exit code 2.

No output may be a file the command reads (the data, ``--model``, ``--cut-points``), by
any spelling or link of it, nor another output: refused before any work, nothing
written.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from .._version import __version__
from ._errors import UserError
from ._requests import Output, WriteRequest

#: Paths written directly whatever they resolve to: the system's device and process
#: folders (``/dev/stdout`` resolves to a pipe or a terminal of ``/proc``).
_DIRECT_PREFIXES = ("/dev/", "/proc/")


@dataclass(frozen=True)
class Destination:
    """Where an output's bytes go: ``target``, the path with every link followed, and
    whether it is written ``direct``\\ ly (not a regular file, see the module notes)."""

    target: str
    direct: bool


def destination(path: str) -> Destination:
    """The :class:`Destination` of an output path (module notes)."""
    given = os.path.abspath(path)
    if given.startswith(_DIRECT_PREFIXES) and os.path.exists(given):
        return Destination(given, True)
    target = os.path.realpath(path)
    try:
        mode = os.stat(target).st_mode
    except OSError:  # not there (or a parent is not a folder): a new regular file
        return Destination(target, False)
    return Destination(target, not stat.S_ISREG(mode) and not stat.S_ISDIR(mode))


def _same_file(a: str, b: str) -> bool:
    """Whether two paths name one file: one spelling after the links, or one inode (a
    hard link)."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _check_writable(output: Output) -> None:
    """Refuse, before any work, an output path that cannot be written (exit 2)."""
    flag, path = output.flag, output.path
    if os.path.isdir(path):
        raise UserError(f"{flag} {path} is a directory: give a file name")
    where = destination(path)
    if where.direct:
        if not os.access(where.target, os.W_OK):
            raise UserError(f"{flag} {path}: cannot write to {where.target} (permission denied)")
        return
    directory = os.path.dirname(where.target)
    if not os.path.isdir(directory):
        parent = os.path.dirname(path) or "."
        raise UserError(f"{flag} {path}: the directory {parent} does not exist")
    try:  # the one test that holds for every user and file system: write a file there
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".pgmpy-nml.", suffix=".tmp"):
            pass
    except OSError as err:
        reason = err.strerror or type(err).__name__
        raise UserError(f"{flag} {path}: cannot write in {directory} ({reason})") from None
    if os.path.exists(where.target) and not os.access(where.target, os.W_OK):
        raise UserError(f"{flag} {path}: the file exists and is not writable")


def check_outputs(write: WriteRequest, inputs: list[tuple[str, str]]) -> None:
    """Every output of the command checked before the work: writable, not a file the
    command reads (``inputs``: (what, path)), not another output (module notes)."""
    for output in write.outputs:
        _check_writable(output)
    regular = [o for o in write.outputs if not destination(o.path).direct]
    for output in regular:
        for what, path in inputs:
            if os.path.exists(path) and _same_file(output.path, path):
                name = path if what == "the data file" else f"{what} {path}"
                raise UserError(
                    f"{output.flag} {output.path} is {name}, which this command reads: "
                    "writing there would destroy it; give another file"
                )
    for i, first in enumerate(regular):
        for second in regular[i + 1 :]:
            if _same_file(first.path, second.path) or (
                destination(first.path).target == destination(second.path).target
            ):
                raise UserError(
                    f"{first.flag} and {second.flag} both name the same file ({first.path}): "
                    "give two files"
                )


@dataclass
class _Staged:
    temporary: str
    output: Output
    message: str
    folder: str | None  # a private folder to remove (direct outputs)


#: Files written by this run, not yet in place. They are put in place together when the
#: command succeeds (:func:`commit`), and deleted otherwise (:func:`discard`).
_STAGED: list[_Staged] = []


def stage(output: Output, write, message: str) -> None:
    """Write an output through ``write(temporary path)``; in place on success (module
    notes), then ``message`` is printed."""
    where = destination(output.path)
    folder = None
    if where.direct:
        folder = tempfile.mkdtemp(prefix="pgmpy-nml-output-")
        directory = folder
    else:
        directory = os.path.dirname(where.target)
    name = os.path.basename(where.target)
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=f".{name}.", suffix=".tmp")
    os.close(handle)
    _STAGED.append(_Staged(temporary, output, message, folder))
    write(temporary)
    if not where.direct:
        if os.path.exists(where.target):  # an existing file keeps its permissions
            mode = stat.S_IMODE(os.stat(where.target).st_mode)
        else:  # those of a file written directly
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(temporary, mode)


def commit() -> None:
    """Put every staged file in place, in the order written, and say so."""
    while _STAGED:
        staged = _STAGED[0]
        where = destination(staged.output.path)
        if where.direct:
            with open(staged.temporary, "rb") as source, open(where.target, "wb") as sink:
                shutil.copyfileobj(source, sink)
            _remove(_STAGED.pop(0))
        else:
            os.replace(staged.temporary, where.target)
            _STAGED.pop(0)
        print(staged.message)


def _remove(staged: _Staged) -> None:
    Path(staged.temporary).unlink(missing_ok=True)
    if staged.folder is not None:
        shutil.rmtree(staged.folder, ignore_errors=True)


def discard() -> None:
    """Delete every staged file not put in place (a failed or interrupted command)."""
    while _STAGED:
        _remove(_STAGED.pop())


#: A BIF file with this many probabilities or more gets a note before its round-trip
#: check: pgmpy's pyparsing reader took 37 s to read back the 283,902 of plants (69
#: binary variables, up to 17 parents; 2026-11-29, load 2), its XMLBIF reader 0.09 s.
BIF_SLOW_CHECK = 50_000


def write_network(model, dag, output: Output, what: str = "network") -> None:
    """Stage a network file (BIF, XMLBIF from the fitted ``model``, DOT from ``dag``),
    read back before it is kept (nothing is written if it would not read back the same)."""
    from .._network_files import NetworkFileError
    from .._network_files import write_network as write_file

    if output.kind == "BIF":
        size = sum(cpd.values.size for cpd in model.get_cpds())
        if size >= BIF_SLOW_CHECK:
            print(
                f"writing {output.path}: pgmpy's BIF reader checks that the file reads back, "
                f"which can take a minute for {size:,} probabilities (an XMLBIF file, "
                "--out FILE.xml, is checked in about a second)",
                flush=True,
            )

    def write(temporary):
        try:
            write_file(dag if output.kind == "DOT" else model, temporary, output.kind)
        except NetworkFileError as err:
            raise UserError(f"{output.flag} {output.path}: {err}") from None

    stage(output, write, f"{what} written to {output.path} ({output.kind})")


def check_names(output: Output | None, states: dict) -> None:
    """Refuse, before the work, a variable or state name that the ``output``'s format
    cannot hold (``states``: variable -> its states, as they will be written)."""
    if output is None or output.kind == "JSON":
        return
    from .._network_files import NetworkFileError
    from .._network_files import check_names as check

    names = dict.fromkeys(states) if output.kind == "DOT" else states
    try:
        check(output.kind, names)
    except NetworkFileError as err:
        raise UserError(f"{output.flag} {output.path}: {err}") from None


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


def finish(summary: dict, write: WriteRequest, reasons: dict | None = None) -> dict:
    """Write the JSON summary if asked, and put every output file in place; return the
    summary.

    The JSON is strict (``allow_nan=False``): an infinite or undefined number is
    written as ``null``, and ``null_values`` says, for each, what it was and why
    (``reasons``: JSON path or prefix -> why).
    """
    output = write.get("--json")
    if output is not None:
        nulls: dict[str, dict[str, str]] = {}
        summary = _strict_json({"pgmpy_nml_version": __version__, **summary}, reasons or {}, nulls)
        if nulls:
            summary["null_values"] = nulls
        text = json.dumps(summary, indent=2, default=_json_value, allow_nan=False) + "\n"
        stage(
            output,
            lambda temporary: Path(temporary).write_text(text, encoding="utf-8"),
            f"summary written to {output.path}",
        )
    commit()
    return summary
