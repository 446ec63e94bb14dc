"""The command line's requests: what the user asked for, read once from argparse's namespace.

Each command starts by turning its namespace into typed requests, and nothing below it
sees the namespace:

- :class:`ReadRequest`, what to read: the data file and the rules it is read by, the
  columns to cut into intervals, a network file;
- :class:`SearchRequest`, how to search: the score, the engine, its limits and the
  constraints, as the flags gave them;
- :class:`WriteRequest`, what to write: the output files by flag, with their formats
  (checked before any work by :mod:`._outputs`);
- one request per command (:class:`LearnRequest`, :class:`ScoreRequest`,
  :class:`FitRequest`, :class:`EvaluateRequest`, :class:`CvRequest`) holding those.

Only the standard library is imported here (``--help`` must answer at once).
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass

from ._errors import UserError

#: The parameter estimators of ``--params`` (besides ``auto`` and, in ``learn``, ``none``).
ESTIMATORS = ("fsnml", "mle", "bdeu", "k2")

#: The methods of ``--discretize METHOD[:BINS]``.
DISCRETIZE_METHODS = ("hartemink", "quantile", "quantile-ties", "interval")

#: Network file formats by extension (``--out``, ``--model``).
NETWORK_FORMATS = {".bif": "BIF", ".xml": "XMLBIF", ".xmlbif": "XMLBIF", ".dot": "DOT"}

#: Formats that need a fitted network (DOT draws the structure only).
FITTED_FORMATS = frozenset({"BIF", "XMLBIF"})

#: What ``--missing`` (and ``--dropna``) may ask for, and what each command offers:
#: ``available`` keeps incomplete rows for the scores of incomplete data, ``em`` for
#: structural EM (``learn``, ``cv``), EM parameters (``fit``) or the observed-data
#: log-loss (``evaluate``).
MISSING_POLICIES = ("error", "drop", "available", "em")
MISSING_CHOICES = {
    "learn": ("error", "drop", "em", "available"),
    "cv": ("error", "drop", "em", "available"),
    "score": ("error", "drop", "available"),
    "fit": ("error", "drop", "em"),
    "evaluate": ("error", "drop", "em"),
}


@dataclass(frozen=True)
class ReadRequest:
    """What to read and how.

    ``path`` is the data file (None: the bundled example data); ``delimiter``,
    ``na_values``, ``drop_columns`` and ``discrete`` are the data-file flags;
    ``missing`` is ``"error"``, ``"drop"`` or ``"available"``; ``discretize`` is
    ``(method, bins)`` or None, ``discretize_columns`` the numeric columns to cut too,
    ``cut_points`` the JSON file of an earlier run's cut points; ``states_from`` CSV files
    whose states the variables declare too; ``model`` a network
    file the command reads (``--model``). ``offers`` names the options the command has,
    for the messages (``"discretize"``, ``"cut_points"``), ``missing_choices`` the
    ``--missing`` policies that keep incomplete rows it offers, ``command`` its name."""

    path: str | None = None
    delimiter: str | None = None
    na_values: tuple[str, ...] | None = None
    missing: str = "error"
    drop_columns: tuple[str, ...] = ()
    discrete: tuple[str, ...] = ()
    discretize: tuple[str, int] | None = None
    discretize_columns: tuple[str, ...] = ()
    cut_points: str | None = None
    states_from: tuple[str, ...] = ()
    model: str | None = None
    offers: frozenset[str] = frozenset()
    missing_choices: tuple[str, ...] = ()
    command: str = "learn"

    def data_flags(self) -> list[str]:
        """The data-file flags given (they need a data file)."""
        given = [
            ("--delimiter", self.delimiter is not None),
            ("--na-values", self.na_values is not None),
            ("--dropna", self.missing == "drop"),
            ("--drop-columns", bool(self.drop_columns)),
            ("--discrete", bool(self.discrete)),
            ("--states-from", bool(self.states_from)),
        ]
        return [flag for flag, value in given if value]

    def inputs(self) -> list[tuple[str, str]]:
        """(flag, path) of every file the command reads: no output may be one of them."""
        files = [("the data file", self.path), ("--model", self.model)]
        files.append(("--cut-points", self.cut_points))
        files += [("--states-from", path) for path in self.states_from]
        return [(flag, path) for flag, path in files if path is not None]


@dataclass(frozen=True)
class SearchRequest:
    """How to search, as the flags said it (checked against the data by
    :func:`._search.plan_search`).

    ``time_limit`` None means the default limit of the exact search
    (:data:`~pgmpy_nml._limits.EXACT_TIME_LIMIT`), ``math.inf`` none; ``restarts`` None
    means the policy's (10 when ``--method auto`` falls back to tabu search)."""

    score: str = "fnml"
    ess: float = 1.0
    method: str = "auto"
    max_parents: int | None = None
    require: tuple[str, ...] = ()
    forbid: tuple[str, ...] = ()
    tiers: str | None = None
    time_limit: float | None = None
    max_memory: int | None = None
    n_jobs: int | None = None
    restarts: int | None = None
    perturb: int = 10
    tabu_length: int = 10
    seed: int | None = None


@dataclass(frozen=True)
class Output:
    """One output file: the flag that names it, its path and its format (``"BIF"``,
    ``"XMLBIF"``, ``"DOT"`` or ``"JSON"``)."""

    flag: str
    path: str
    kind: str


@dataclass(frozen=True)
class WriteRequest:
    """The output files of a command, by flag (checked by :func:`._outputs.check_outputs`
    before any work)."""

    outputs: tuple[Output, ...] = ()

    def get(self, flag: str) -> Output | None:
        return next((o for o in self.outputs if o.flag == flag), None)

    def path(self, flag: str) -> str | None:
        output = self.get(flag)
        return None if output is None else output.path


@dataclass(frozen=True)
class LearnRequest:
    """``pgmpy-nml learn``: read, search, fit the parameters (``params``; ``"none"``: no
    parameters), ``bootstrap`` resamples (0: none; ``subsample``: half-size subsamples
    without replacement), write."""

    read: ReadRequest
    search: SearchRequest
    write: WriteRequest
    params: str = "auto"
    bootstrap: int = 0
    subsample: bool = False


@dataclass(frozen=True)
class ScoreRequest:
    """``pgmpy-nml score``: the network of ``read.model`` or ``edges`` scored by
    ``scores`` (``ess`` for the BDeu-type ones)."""

    read: ReadRequest
    write: WriteRequest
    edges: tuple[str, ...] = ()
    scores: tuple[str, ...] = ("fnml", "qnml", "bdeu", "bic")
    ess: float = 1.0


@dataclass(frozen=True)
class FitRequest:
    """``pgmpy-nml fit``: the parameters (``params``) of the structure of ``read.model``
    or ``edges``."""

    read: ReadRequest
    write: WriteRequest
    edges: tuple[str, ...] = ()
    params: str = "fsnml"
    ess: float = 1.0


@dataclass(frozen=True)
class EvaluateRequest:
    """``pgmpy-nml evaluate``: the log-loss of the network ``read.model`` on the data."""

    read: ReadRequest
    write: WriteRequest
    bits: bool = False


@dataclass(frozen=True)
class CvRequest:
    """``pgmpy-nml cv``: one procedure per score of ``scores`` and parent limit of
    ``limits`` (None: the search's own rule), with ``search`` and ``params``, on the same
    splits. ``search.max_parents`` is the first limit."""

    read: ReadRequest
    search: SearchRequest
    write: WriteRequest
    scores: tuple[str, ...] = ("fnml", "qnml", "bdeu")
    limits: tuple[int | None, ...] = (None,)
    params: str = "auto"
    folds: int = 10
    runs: int = 1
    hold_out: bool = False
    test_size: float | int | None = None
    loss: str = "log-loss"
    target: str | None = None
    seed: int = 0


# -- from argparse's namespace ----------------------------------------------------------
def _missing(args: argparse.Namespace) -> str:
    """``error``, ``drop`` (--dropna or --missing drop) or ``available``."""
    chosen = getattr(args, "missing", None)
    if args.dropna and chosen not in (None, "drop"):
        raise UserError(f"--dropna and --missing {chosen} contradict each other: give one")
    return "drop" if args.dropna else (chosen or "error")


def read_request(args: argparse.Namespace) -> ReadRequest:
    """The data file and how to read it (every command)."""
    if args.data_file and args.data and args.data_file != args.data:
        raise UserError(f"two data files given ({args.data_file} and --data {args.data}): give one")
    offers = {name for name in ("discretize", "cut_points") if hasattr(args, name)}
    keeping = [m for m in MISSING_CHOICES.get(args.command, ()) if m in ("em", "available")]
    request = ReadRequest(
        path=args.data_file or args.data,
        delimiter=args.delimiter,
        na_values=args.na_values,
        missing=_missing(args),
        drop_columns=tuple(args.drop_columns),
        discrete=tuple(args.discrete),
        discretize=getattr(args, "discretize", None),
        discretize_columns=tuple(getattr(args, "discretize_columns", None) or ()),
        cut_points=getattr(args, "cut_points", None),
        states_from=tuple(getattr(args, "states_from", None) or ()),
        model=getattr(args, "model", None),
        offers=frozenset(offers),
        missing_choices=tuple(keeping),
        command=args.command,
    )
    if request.path is None and request.data_flags():
        flags = ", ".join(request.data_flags())
        raise UserError(f"{flags} need(s) a data file: give one, e.g. data.csv")
    if request.discretize and request.cut_points:
        raise UserError(
            "give --discretize (learn new cut points) or --cut-points (reuse saved ones), not both"
        )
    return request


def search_request(args: argparse.Namespace) -> SearchRequest:
    """The structure search of ``learn`` and ``cv`` (with ``cv``'s first parent limit)."""
    limit = args.max_parents
    return SearchRequest(
        score=getattr(args, "score", None) or "fnml",
        ess=args.ess,
        method=args.method,
        max_parents=limit[0] if isinstance(limit, list) else limit,
        require=tuple(getattr(args, "require", None) or ()),
        forbid=tuple(getattr(args, "forbid", None) or ()),
        tiers=getattr(args, "tiers", None),
        time_limit=args.time_limit,
        max_memory=getattr(args, "max_memory", None),
        n_jobs=getattr(args, "n_jobs", None),
        restarts=getattr(args, "restarts", None),
        perturb=getattr(args, "perturb", 10),
        tabu_length=getattr(args, "tabu_length", 10),
        seed=args.seed,
    )


def _output_kind(flag: str, path: str, fitted: bool) -> str:
    """The format of an output file from its extension; refuses unknown ones."""
    if os.path.isdir(path):
        raise UserError(f"{flag} {path} is a directory: give a file name")
    if flag == "--json":
        return "JSON"
    suffix = os.path.splitext(path)[1].lower()
    kind = NETWORK_FORMATS.get(suffix)
    if kind is None:
        known = ", ".join(NETWORK_FORMATS)
        raise UserError(f"{flag} {path}: unknown extension {suffix!r}; use one of {known}")
    if not fitted and kind in FITTED_FORMATS:
        raise UserError(
            f"{flag} {path} writes a fitted network, and --params none fits none: drop "
            f"--params none, or write the structure with {flag} FILE.dot"
        )
    return kind


def write_request(args: argparse.Namespace, fitted: bool = True) -> WriteRequest:
    """The output files (``--out``, ``--out-averaged``, ``--json``) with their formats;
    ``fitted``: the networks written have parameters (not ``--params none``)."""
    outputs = []
    for flag in ("--out", "--out-averaged", "--json"):
        path = getattr(args, flag[2:].replace("-", "_"), None)
        if path is not None:
            outputs.append(Output(flag, str(path), _output_kind(flag, str(path), fitted)))
    return WriteRequest(tuple(outputs))


def learn_request(args: argparse.Namespace) -> LearnRequest:
    if args.out_averaged is not None and not args.bootstrap:
        raise UserError(
            "--out-averaged writes the averaged network of the bootstrap: add --bootstrap B "
            "(e.g. --bootstrap 200), or write the learned network with --out"
        )
    return LearnRequest(
        read=read_request(args),
        search=search_request(args),
        write=write_request(args, fitted=args.params != "none"),
        params=args.params,
        bootstrap=args.bootstrap,
        subsample=args.subsample,
    )


def _structure_given(args: argparse.Namespace, what: str) -> tuple[str, ...]:
    if not args.model and not args.edges:
        raise UserError(f"give the {what} with --model FILE.bif or --edges A->B,B->C")
    return tuple(args.edges or ())


def score_request(args: argparse.Namespace) -> ScoreRequest:
    edges = _structure_given(args, "network to score")
    return ScoreRequest(
        read=read_request(args),
        write=write_request(args),
        edges=edges,
        scores=tuple(args.scores or ScoreRequest.scores),
        ess=args.ess,
    )


def fit_request(args: argparse.Namespace) -> FitRequest:
    edges = _structure_given(args, "structure")
    return FitRequest(
        read=read_request(args),
        write=write_request(args),
        edges=edges,
        params=args.params,
        ess=args.ess,
    )


def evaluate_request(args: argparse.Namespace) -> EvaluateRequest:
    return EvaluateRequest(read=read_request(args), write=write_request(args), bits=args.bits)


def cv_request(args: argparse.Namespace) -> CvRequest:
    scores = tuple(args.scores or CvRequest.scores)
    if len(set(scores)) != len(scores):
        raise UserError("--scores lists a score twice")
    if args.loss == "error" and args.target is None:
        raise UserError("--loss error needs the variable to predict: --target NAME")
    limits = tuple(args.max_parents)
    if len(set(limits)) != len(limits):
        raise UserError("--max-parents lists a limit twice")
    return CvRequest(
        read=read_request(args),
        search=search_request(args),
        write=write_request(args),
        scores=scores,
        limits=limits,
        params=args.params,
        folds=args.folds,
        runs=args.runs,
        hold_out=args.hold_out,
        test_size=args.test_size,
        loss=args.loss,
        target=args.target,
        seed=0 if args.seed is None else args.seed,
    )
