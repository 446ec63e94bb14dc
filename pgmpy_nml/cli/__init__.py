"""The ``pgmpy-nml`` command-line tool.

Subcommands: ``learn`` (structure, then parameters; ``--bootstrap B`` adds arc
strengths), ``score`` (a given network, several scores side by side), ``fit``
(parameters of a given structure), ``evaluate`` (log-loss of a fitted network on
test data) and ``cv`` (cross-validation of learning procedures side by side).
``--discretize`` cuts continuous columns into intervals, and ``evaluate
--cut-points`` cuts test data at the same points. Every command reads a
CSV file of discrete data (``pgmpy_nml._csv`` reads and checks it) and writes
files that pgmpy reads back: BIF or XMLBIF networks, Graphviz DOT structures and
a JSON summary. Without a data file the bundled example data set is used, so
``pgmpy-nml`` alone shows the main job.

One module per command (``learn``, ``cv``, ``score``, ``fit``, ``evaluate``), the
parser (``_parser``), the argument types (``_argtypes``), the files (``_io``: data,
networks, staged outputs, the JSON summary), the cutting of continuous columns
(``_cuts``), the search from the flags (``_search``: the library's policy and
constraints) and what they share (``_common``: :class:`UserError`, ...).

Building the parser imports nothing beyond the standard library, so ``--help``
and ``--version`` answer at once; pandas, pgmpy and numba load when a command runs.
"""

from __future__ import annotations

import shlex
import sys
import warnings

from ._common import UserError
from ._io import _check_outputs, _discard_staged
from ._parser import build_parser

__all__ = ["build_parser", "main"]


def _is_input_error(err) -> bool:
    """Whether ``err`` reports a mistake in the input, to show as one line with exit code 2.

    The command line's own :class:`UserError`, the library's :class:`InputError`, memory
    and file errors, and a ``ValueError`` that the package raised itself (a check with a
    message for the user, wherever it lives). A ``ValueError`` raised inside numpy,
    pandas, pgmpy or another library is a bug of ours (we passed it something wrong)."""
    from .._validate import InputError

    if isinstance(err, (UserError, InputError, MemoryError, OSError)):
        return True
    frame = err.__traceback__
    while frame is not None and frame.tb_next is not None:
        frame = frame.tb_next
    module = frame.tb_frame.f_globals.get("__name__", "") if frame is not None else ""
    return module == "pgmpy_nml" or module.startswith("pgmpy_nml.")


def _internal_error(prog, err, argv) -> int:
    """Report a bug in one line with what to report; exit code 1."""
    words = " ".join(str(err).split())
    command = shlex.join(["pgmpy-nml", *(sys.argv[1:] if argv is None else argv)])
    print(
        f"{prog}: internal error ({type(err).__name__}: {words}); please report it with "
        f"the command: {command}",
        file=sys.stderr,
    )
    return 1


def main(argv=None):
    """Run the command line; returns the exit code (0 success, 2 user error, 1 internal error)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        print(
            "No command given: learning a network from the bundled example data "
            "(see pgmpy-nml --help)."
        )
        args = parser.parse_args(["learn"])
    prog = f"pgmpy-nml {args.command}"
    try:
        _check_outputs(args)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            args.func(args)
    # input errors: the command line's own checks, and the library's input validation
    # (every other ValueError is a bug, reported below as one)
    except (UserError, MemoryError, OSError, ValueError) as err:
        if not _is_input_error(err):
            return _internal_error(prog, err, argv)
        print(f"{prog}: error: {' '.join(str(err).split())}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except Exception as err:  # a bug: still one line, with what to report
        return _internal_error(prog, err, argv)
    finally:
        _discard_staged()  # a failed command leaves no file behind (after success: none left)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
