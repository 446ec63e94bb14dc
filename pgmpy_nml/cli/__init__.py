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

Each command turns argparse's namespace into a typed request once, at its top
(``_requests``: what to read, how to search, what to write), and works from it. One
module per command (``learn``, ``cv``, ``score``, ``fit``, ``evaluate``); under them the
parser (``_parser``) and its argument types (``_argtypes``), the requests, the input
files (``_inputs``: the data, cut points, network files), the cutting of continuous
columns (``_cuts``), the output files (``_outputs``: checked before the work, staged,
the JSON summary), the graphs of the flags (``_graphs``: edges, tiers, constraints),
the scores and estimators by name (``_scores``), the search (``_search``: the library's
policy, said up front), what the commands print (``_report``) and the user's mistake
(``_errors``: :class:`UserError`).

Building the parser imports nothing beyond the standard library, so ``--help``
and ``--version`` answer at once; pandas, pgmpy and numba load when a command runs.
"""

from __future__ import annotations

import shlex
import sys
import warnings

from ..exceptions import SparseFamilyWarning
from ._errors import UserError
from ._outputs import discard
from ._parser import build_parser

__all__ = ["build_parser", "main", "run"]


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
    """Run the command line; returns the exit code (0 success, 2 user error, 1 internal error,
    130 interrupted)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        print(
            "No command given: learning a network from the bundled example data "
            "(see pgmpy-nml --help)."
        )
        args = parser.parse_args(["learn"])
    prog = f"pgmpy-nml {args.command}"
    for old, new in getattr(args, "renamed", []):
        print(f"{prog}: note: {old} is now called {new}; {old} will go", file=sys.stderr)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            # `learn` says it as a note, with the command line's flags
            warnings.simplefilter("ignore", SparseFamilyWarning)
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
        discard()  # a failed command leaves no file behind (after success: none left)
    return 0


def run() -> int:
    """The console script: :func:`main`, then the process's objects frozen for its exit.

    pgmpy and its dependencies leave about 200,000 tracked objects, and the garbage
    collector's last passes over them at exit took 0.6 s of CPU, a fifth of a warm
    command (``benchmarks/bench_startup.py``); frozen, they are left to the exit. Only
    the command's own process does this (``main`` called from Python never does): the
    outputs are closed by then and nothing of the command is finalized at exit."""
    import gc

    code = main()
    sys.stdout.flush()
    sys.stderr.flush()
    gc.freeze()
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(run())
