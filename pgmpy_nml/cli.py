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

Building the parser imports nothing beyond the standard library, so ``--help``
and ``--version`` answer at once; pandas, pgmpy and numba load when a command runs.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import shlex
import sys
import tempfile
import time
import warnings
from pathlib import Path

from ._limits import (
    AUTO_EXACT_MAX_VARIABLES,
    AUTO_SOLVER_MAX_VARIABLES,
    EXACT_TIME_LIMIT,
    ID_MIN_DISTINCT,
    MAX_WHOLE_NUMBER_STATES,
    SOLVER_DEFAULT_MAX_PARENTS,
)
from ._version import __version__

__all__ = ["main"]


def _score_names():
    """Every name the score registry accepts (canonical names and aliases)."""
    from .scores.registry import score_names

    return score_names(aliases=True)


def _score_help(default):
    from .scores.registry import score_names

    return f"{', '.join(score_names())} (aliases: bic, aic, ll, bdj); default {default}"


ESTIMATORS = ["fsnml", "mle", "bdeu", "k2"]
DISCRETIZE_METHODS = ["hartemink", "quantile", "quantile-ties", "interval"]
#: Output formats by file extension.
NETWORK_FORMATS = {".bif": "BIF", ".xml": "XMLBIF", ".xmlbif": "XMLBIF", ".dot": "DOT"}
#: Formats that need a fitted network (DOT draws the structure only).
FITTED_FORMATS = {"BIF", "XMLBIF"}


class UserError(Exception):
    """A mistake in the command line or the files: one line, exit code 2."""


# -- argument types (argparse turns their errors into one-line messages) -----------
def _positive_float(text):
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}")
    return value


def _time_limit(text):
    """Seconds (a positive number), or ``inf`` / ``none`` for no limit (``math.inf``)."""
    if text.strip().lower() in ("inf", "none", "no", "unlimited"):
        return math.inf
    return _positive_float(text)


def _non_negative_int(text):
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 0, got {text!r}")
    return value


def _whole_number_at_least(minimum, what=""):
    """An argparse type: a whole number >= ``minimum`` (argparse names the flag)."""

    def parse(text):
        try:
            value = int(text)
        except ValueError:
            value = minimum - 1
        if value < minimum:
            raise argparse.ArgumentTypeError(
                f"must be a whole number >= {minimum}{what}, got {text!r}"
            )
        return value

    parse.__name__ = f"whole number >= {minimum}"
    return parse


def _test_size(text):
    """``--test-size``: a count of rows (a whole number >= 1) or a fraction in (0, 1)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0 and (value < 1 or value.is_integer())):
        raise argparse.ArgumentTypeError(
            f"must be a number of test rows (a whole number >= 1) or a fraction between 0 "
            f"and 1, got {text!r}"
        )
    return value if value < 1 else int(value)


def _n_jobs(text):
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value == 0 or value < -1:
        raise argparse.ArgumentTypeError(f"must be a number of threads >= 1 or -1, got {text!r}")
    return value


_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def _memory_size(text):
    number = text.strip().upper().removesuffix("B").removesuffix("I")
    unit = number[-1:] if number[-1:] in _UNITS else ""
    try:
        value = float(number[: len(number) - len(unit)]) * _UNITS[unit]
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a size such as 8G or 500M, got {text!r}")
    return value


_DELIMITER_NAMES = {"tab": "\t", "\\t": "\t", "space": " ", "comma": ",", "semicolon": ";"}


def _delimiter(text):
    value = _DELIMITER_NAMES.get(text.lower(), text)
    if len(value) != 1 or value in '"\r\n':
        raise argparse.ArgumentTypeError(f"must be one character (or tab, space), got {text!r}")
    return value


def _discretization(text):
    """``METHOD[:BINS]`` -> ``(method, bins)``, e.g. ``quantile:4``."""
    method, _, bins = text.partition(":")
    method = method.strip().lower()
    if method not in DISCRETIZE_METHODS:
        raise argparse.ArgumentTypeError(
            f"must be METHOD[:BINS] with METHOD one of {', '.join(DISCRETIZE_METHODS)}, "
            f"got {text!r}"
        )
    try:
        n_bins = int(bins) if bins else 3
    except ValueError:
        n_bins = 0
    if n_bins < 2:
        raise argparse.ArgumentTypeError(f"BINS must be a whole number >= 2, got {text!r}")
    return method, n_bins


def _comma_list(text):
    """``"A, B,"`` -> ``("A", "B")``; ``""`` -> ``()``."""
    return tuple(item.strip() for item in text.split(",") if item.strip())


# -- input ------------------------------------------------------------------------
def _csv_options(args):
    from ._csv import CsvOptions

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


def _missing_policy(args):
    """``error``, ``drop`` (--dropna or --missing drop) or ``available`` (--missing available)."""
    chosen = getattr(args, "missing", None)
    if args.dropna and chosen not in (None, "drop"):
        raise UserError(f"--dropna and --missing {chosen} contradict each other: give one")
    return "drop" if args.dropna else (chosen or "error")


def _check_missing_scores(args, data, names, flag):
    """With --missing available and missing cells, every score must take incomplete data
    (the parameters of every --params count each family on its complete rows)."""
    if _missing_policy(args) != "available" or not data.isna().to_numpy().any():
        return
    from .scores import get_score_spec

    takes = [n for n in _score_names() if _takes_missing(get_score_spec(n))]
    refused = [n for n in names if not _takes_missing(get_score_spec(n))]
    if refused:
        raise UserError(
            f"--missing available keeps rows with missing values, which only the scores for "
            f"incomplete data take ({', '.join(takes)}); {flag} {refused[0]} refuses them: use "
            f"{flag} {takes[-1]}, or drop those rows with --dropna"
        )


def _takes_missing(spec):
    """Whether a registered score scores incomplete data (each family on its complete rows)."""
    return getattr(spec.load(), "_missing", "error") == "available"


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
        from .datasets import load_example_data

        data = load_example_data()
        if use is not None:
            absent = [v for v in use if v not in data.columns]
            if absent:
                raise UserError(f"the bundled example data have no column {absent[0]!r}")
            data = data[list(use)]
        return data, "bundled example data (3000 rows of the survey network)", []
    from ._csv import read_data

    table = read_data(path, _csv_options(args), use=use)
    return table.data, table.path, table.notes


def _print_data(source, data, notes, what="data"):
    print(f"{what}: {source}; {len(data)} rows, {data.shape[1]} variables")
    for note in notes:
        print(f"  note: {note}")


def _continuous_columns(data, decimal_comma):
    """The columns the CSV checks call continuous, as floats (the one test of the reader)."""

    from ._csv import _column_problem

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


def _read_study_data(args, use=None):
    """The data as strings, cut with --discretize or --cut-points; also the cut points."""
    data, source, notes = _read_csv(args, use=use)
    cut_points = {}
    named = tuple(getattr(args, "discretize_columns", None) or ())
    absent = [c for c in named if c not in data.columns]
    if absent:
        raise UserError(
            f"--discretize-columns names {absent[0]!r}, which is not a column of the data used"
        )
    discretize = getattr(args, "discretize", None)
    if discretize and getattr(args, "cut_points", None):
        raise UserError(
            "give --discretize (learn new cut points) or --cut-points (reuse saved ones), not both"
        )
    if getattr(args, "cut_points", None):
        return _apply_cut_points(args, data, notes), source, notes, cut_points
    if discretize or named:
        from .study import Discretizer

        if not discretize:
            discretize = ("hartemink", 3)
            notes.append("--discretize-columns without --discretize: cut with hartemink:3")
        columns = _continuous_columns(data, _decimal_comma(args, notes))
        for name in named:
            if name not in columns:
                columns[name] = _numbers(data[name], name, _decimal_comma(args, notes))
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
                    raise UserError(f"--discretize: {err}{fix}") from None
            for w in caught:
                text = str(w.message)
                if issubclass(w.category, UserWarning) and "single value" not in text:
                    notes.append(
                        "--discretize: "
                        + text.replace("method='quantile-ties'", "--discretize quantile-ties")
                    )
            data = _cut(data, discretizer, columns, notes)
            cut_points = {c: [float(x) for x in discretizer.cut_points_[c]] for c in columns}
    return data, source, notes, cut_points


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


def _decimal_comma(args, notes):
    """Whether decimals may be written with a comma: the fields are not comma-delimited."""
    if args.delimiter is not None:
        return args.delimiter != ","
    return any(note.startswith("fields are delimited by ") for note in notes)


def _read_model(path):
    file = Path(path)
    if not file.is_file():
        raise UserError(f"no such network file: {path}")
    kind = NETWORK_FORMATS.get(file.suffix.lower())
    if kind not in FITTED_FORMATS:
        raise UserError(
            f"network file {path}: unknown extension {file.suffix!r}; give a .bif or .xml file"
        )
    from ._network_files import read_network

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


def _parse_edges(specs, variables, flag):
    edges = []
    for spec in specs or []:
        for item in spec.split(","):
            item = item.strip()
            if not item:
                continue
            if "->" not in item:
                raise UserError(f"{flag} {item!r} is not of the form PARENT->CHILD")
            u, v = (x.strip() for x in item.split("->", 1))
            for node in (u, v):
                if node not in variables:
                    raise UserError(f"{flag} {item!r} names {node!r}, which is not a data column")
            if u == v:
                raise UserError(f"{flag} {item!r}: a variable cannot be its own parent")
            edges.append((u, v))
    return edges


def _parse_tiers(spec, variables):
    """``"A,S;E;O,R,T"`` -> ``[["A", "S"], ["E"], ["O", "R", "T"]]``."""
    if spec is None:
        return []
    tiers = [[v.strip() for v in tier.split(",") if v.strip()] for tier in spec.split(";")]
    tiers = [tier for tier in tiers if tier]
    seen = {}
    for rank, tier in enumerate(tiers):
        for v in tier:
            if v not in variables:
                raise UserError(f"--tiers names {v!r}, which is not a data column")
            if v in seen:
                raise UserError(f"--tiers puts {v!r} in tiers {seen[v] + 1} and {rank + 1}")
            seen[v] = rank
    if len(tiers) < 2:
        raise UserError("--tiers needs at least two tiers separated by ';', e.g. \"A,S;E;O,R,T\"")
    return tiers


def _structure(args, data, model=None):
    """A DAG from a network file or from --edges."""
    from pgmpy.base import DAG

    if model is not None:
        dag = DAG(model.edges())
        dag.add_nodes_from(model.nodes())
        return dag
    dag = DAG(_parse_edges(args.edges, list(data.columns), "--edges"))
    dag.add_nodes_from(data.columns)
    return dag


def _score(name, data, ess, state_names=None):
    """The score ``name`` built on ``data``: the one place the command line builds scores."""
    from .scores import get_score_spec, make_score

    params = {}
    if "equivalent_sample_size" in get_score_spec(name).params:
        params["equivalent_sample_size"] = ess
    return make_score(name, data, state_names=state_names, **params)


def _score_parameters(score):
    """The parameters a score was built with (for the JSON summary)."""
    names = {"equivalent_sample_size": "ess", "alpha": "alpha", "epsilon": "epsilon"}
    return {key: float(getattr(score, attr)) for attr, key in names.items() if hasattr(score, attr)}


def _estimator(name, ess, incomplete=False):
    """The estimator of --params ``name``; ``incomplete``: the data keep missing cells
    (--missing available), which fsNML then counts family by family."""
    if name == "fsnml":
        from .estimators import FSNMLEstimator

        return FSNMLEstimator(missing="available" if incomplete else "error")
    from pgmpy.parameter_estimator import DiscreteBayesianEstimator, DiscreteMLE

    if name == "mle":
        return DiscreteMLE()
    if name == "k2":
        return DiscreteBayesianEstimator(prior_type="K2")
    return DiscreteBayesianEstimator(prior_type="BDeu", equivalent_sample_size=ess)


def _fit(dag, data, estimator_name, ess, score=None):
    """Fit ``dag``; ``"auto"`` takes the score's own prior (default_parameter_estimator)."""
    from .models import default_parameter_estimator, fit_network

    if estimator_name == "auto":
        estimator = default_parameter_estimator(score)
    else:
        estimator = _estimator(estimator_name, ess, bool(data.isna().to_numpy().any()))
    return fit_network(dag, data, estimator)


def _estimator_label(name, score):
    """What ``--params`` chose, in words (``auto`` says which prior)."""
    if name != "auto":
        return name
    from .models import default_parameter_estimator

    estimator = default_parameter_estimator(score)
    kind = type(estimator).__name__
    if kind == "FSNMLEstimator":
        return "auto: fsnml"
    if kind == "DiscreteMLE":
        return "auto: mle"
    prior = estimator.prior_type
    if prior == "BDeu":
        return f"auto: bdeu prior, ess {estimator.equivalent_sample_size:g}"
    if prior == "dirichlet":
        return f"auto: dirichlet prior, pseudo-count {estimator.pseudo_counts:g}"
    return f"auto: {prior.lower()} prior"


# -- constraints ------------------------------------------------------------------
def _check_constraints(required, forbidden, tiers, max_parents):
    """Refuse contradictory constraints up front, whatever the search."""
    import networkx as nx

    clash = sorted(set(required) & set(forbidden))
    if clash:
        u, v = clash[0]
        raise UserError(f"the edge {u}->{v} is both required (--require) and forbidden (--forbid)")
    graph = nx.DiGraph(required)
    try:
        cycle = nx.find_cycle(graph)
    except nx.NetworkXNoCycle:
        cycle = None
    if cycle:
        path = "->".join([cycle[0][0], *(v for _, v in cycle)])
        raise UserError(f"the required edges form a cycle ({path}): no network can have them all")
    rank = {v: r for r, tier in enumerate(tiers) for v in tier}
    for u, v in required:
        if u in rank and v in rank and rank[u] > rank[v]:
            raise UserError(
                f"--require {u}->{v} goes against --tiers: {u!r} is in tier {rank[u] + 1}, "
                f"after {v!r} in tier {rank[v] + 1}"
            )
    if max_parents is not None:
        for v in graph.nodes():
            if graph.in_degree(v) > max_parents:
                raise UserError(
                    f"--require gives {v!r} {graph.in_degree(v)} parents, more than "
                    f"--max-parents {max_parents}"
                )


def _broken_constraints(dag, required, forbidden, tiers, max_parents):
    """The constraints a learned DAG breaks, as text (empty if none)."""
    edges = set(dag.edges())
    broken = [f"misses required {u}->{v}" for u, v in required if (u, v) not in edges]
    broken += [f"has forbidden {u}->{v}" for u, v in forbidden if (u, v) in edges]
    rank = {v: r for r, tier in enumerate(tiers) for v in tier}
    broken += [
        f"has {u}->{v} against --tiers"
        for u, v in edges
        if u in rank and v in rank and rank[u] > rank[v]
    ]
    if max_parents is not None:
        broken += [
            f"gives {v!r} {dag.in_degree(v)} parents"
            for v in dag.nodes()
            if dag.in_degree(v) > max_parents
        ]
    return "; ".join(broken)


def _knowledge(required, forbidden, tiers, label=None):
    from pgmpy.causal_discovery import ExpertKnowledge

    label = label or {}

    def relabel(edges):
        return [(label.get(u, u), label.get(v, v)) for u, v in edges]

    if not (required or forbidden or tiers):
        return None
    return ExpertKnowledge(
        required_edges=relabel(required),
        forbidden_edges=relabel(forbidden),
        temporal_order=[[label.get(v, v) for v in tier] for tier in tiers] or None,
    )


# -- search -----------------------------------------------------------------------
def _choose_method(args, n_vars):
    """The search to run, its parent limit, and the sentence that says what it is."""
    if args.method in ("hill", "tabu"):
        kind = "hill climbing" if args.method == "hill" else "tabu search"
        if getattr(args, "restarts", None):
            kind += f" with {args.restarts} random restarts"
        return args.method, args.max_parents, f"{kind} (heuristic: a local optimum)"
    from .search.exact import choose_exact

    exact, limit = choose_exact(
        n_vars, "auto", "auto" if args.max_parents is None else args.max_parents
    )
    if exact == "dp" and limit is None:
        return "exact", None, "exact search (globally optimal)"
    if args.method == "auto" and n_vars > AUTO_SOLVER_MAX_VARIABLES:
        return (
            "tabu",
            args.max_parents,
            (
                f"tabu search with {getattr(args, 'restarts', None) or 10} random restarts "
                "(heuristic, not optimal: "
                f"{n_vars} variables are more than the {AUTO_SOLVER_MAX_VARIABLES} of --method "
                "auto's exact solver; --method exact tries it anyway)"
            ),
        )
    described = "exact search (proven optimal unless the time limit runs out)"
    if args.max_parents is None:
        described += (
            f", with at most {limit} parents per variable (the default above "
            f"{AUTO_EXACT_MAX_VARIABLES} variables; set --max-parents)"
        )
    return "exact", limit, described


def _make_search(args, score, method, max_parents, knowledge, show_progress, restarts=0):
    """The structure search of ``learn`` (``method``: ``"exact"``, ``"hill"`` or ``"tabu"``),
    with the search options of the command line; the bootstrap reruns the same one."""
    from .search import ExactSearch, LocalSearch

    if method == "exact":
        return ExactSearch(
            score,
            max_parents=max_parents,
            expert_knowledge=knowledge,
            max_memory=args.max_memory,
            n_jobs=-1 if args.n_jobs is None else args.n_jobs,
            show_progress=show_progress,
            time_limit=args.time_limit,
        )
    return LocalSearch(
        score,
        method=method,
        max_parents=max_parents,
        expert_knowledge=knowledge,
        restarts=restarts,
        perturb=args.perturb,
        tabu_length=args.tabu_length,
        random_state=0 if args.seed is None else args.seed,
        n_jobs=args.n_jobs,
        show_progress=show_progress,
    )


def _exact_search(args, data, knowledge, max_parents):
    from .search import ExactSearchMemoryError

    score = _score(args.score, data, args.ess)
    # progress on stderr: a bar on a terminal, a line every 10 s in a log or a pipe
    search = _make_search(args, score, "exact", max_parents, knowledge, True)
    default_limit = args.time_limit is None
    search.set_params(time_limit=EXACT_TIME_LIMIT if default_limit else args.time_limit)
    try:
        search.fit(data)
    except ExactSearchMemoryError as err:
        reason = " ".join(str(err).split()).replace("max_memory", "--max-memory")
        raise UserError(
            f"{reason} Allow more with --max-memory SIZE, set --max-parents (the exact solver "
            "handles a parent limit on many variables), or use --method tabu for a heuristic "
            "network."
        ) from None
    except MemoryError as err:
        raise UserError(f"{err} Set --max-parents, or use --method tabu.") from None
    if search.optimal_:
        proof = f"proven optimal ({search.method_})"
    elif default_limit:
        proof = (
            f"not proven optimal: gap {100 * search.gap_:.3g}% to the bound {search.bound_:.4f} "
            f"when the default time limit of {EXACT_TIME_LIMIT:g} s ran out; search longer with "
            "--time-limit SECONDS (or --time-limit inf), or lower --max-parents"
        )
    else:
        proof = (
            f"not proven optimal: gap {100 * search.gap_:.3g}% to the bound {search.bound_:.4f} "
            "when --time-limit ran out; search longer with a larger --time-limit"
        )
    search_info = {
        "exact_method": search.method_,
        "optimal": bool(search.optimal_),
        "gap": float(search.gap_),
        "bound": float(search.bound_),
    }
    if search.pruning_ is not None:
        search_info["candidate_parent_sets"] = int(search.pruning_.n_kept.sum())
    return search.causal_graph_, score, proof, search_info


def _local_search(args, data, knowledge, max_parents, method):
    score = _score(args.score, data, args.ess)
    restarts = args.restarts if args.restarts is not None else (10 if args.method == "auto" else 0)
    search = _make_search(
        args, score, method, max_parents, knowledge, sys.stderr.isatty(), restarts
    )
    search.fit(data)
    info = {"optimal": False, "restarts": restarts, "iterations": int(search.n_iter_)}
    return search.causal_graph_, score, "a local optimum (heuristic)", info


# -- output -----------------------------------------------------------------------
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
    from ._data import _observed_states
    from ._network_files import NetworkFileError, check_names

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
    from ._network_files import NetworkFileError, write_network

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
        nulls = {}
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


def _edges_text(dag):
    edges = sorted(dag.edges())
    return ", ".join(f"{u}->{v}" for u, v in edges) if edges else "(no edges)"


def _table(header, rows):
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows, strict=True)]
    lines = ["  ".join(str(x).rjust(w) for x, w in zip(header, widths, strict=True))]
    lines += ["  ".join(str(x).rjust(w) for x, w in zip(row, widths, strict=True)) for row in rows]
    return "\n".join(lines)


# -- commands ---------------------------------------------------------------------
def _data_summary(command, source, notes, data) -> dict:
    """The first fields of every command's JSON summary: the command and its data."""
    return {"command": command, "data": source, "data_notes": notes, "n_samples": len(data)}


def cmd_learn(args):
    kind = _output_format(args.out, fitted=args.params != "none")
    averaged_kind = _check_out_averaged(args)
    _check_directory(args.json, "--json")
    data, source, notes, cut_points = _read_study_data(args)
    _check_missing_scores(args, data, [args.score], "--score")
    _check_out_names(args.out, kind, data)
    variables = list(data.columns)
    required = _parse_edges(args.require, variables, "--require")
    forbidden = _parse_edges(args.forbid, variables, "--forbid")
    tiers = _parse_tiers(args.tiers, variables)
    _check_constraints(required, forbidden, tiers, args.max_parents)
    method, max_parents, described = _choose_method(args, len(variables))
    _check_time_limit(args, method)
    _print_data(source, data, notes)
    print(f"learning the structure: {args.score} score, {described}", flush=True)
    start = time.perf_counter()
    knowledge = _knowledge(required, forbidden, tiers)
    if method == "exact":
        dag, score, proof, search_info = _exact_search(args, data, knowledge, max_parents)
    else:
        dag, score, proof, search_info = _local_search(args, data, knowledge, max_parents, method)
    seconds = time.perf_counter() - start
    broken = _broken_constraints(dag, required, forbidden, tiers, max_parents)
    if broken:
        raise UserError(
            f"the {method} search returned a network that breaks the constraints ({broken}); "
            "please report this, and use --method exact meanwhile"
        )
    local = {v: float(score.local_score(v, tuple(sorted(dag.predecessors(v))))) for v in dag}
    total = sum(local.values())
    print(f"edges ({dag.number_of_edges()}): {_edges_text(dag)}")
    print(f"{args.score} score: {total:.4f} ({proof}; {seconds:.1f} s)")
    summary = {
        **_data_summary("learn", source, notes, data),
        "variables": variables,
        "score": args.score,
        "score_parameters": _score_parameters(score),
        "method": method,
        **search_info,
        "search": described,
        "max_parents": max_parents,
        "required": [list(e) for e in required],
        "forbidden": [list(e) for e in forbidden],
        "tiers": tiers,
        "seed": args.seed,
        "edges": [list(e) for e in sorted(dag.edges())],
        "total_score": float(total),
        "local_scores": local,
        "seconds": seconds,
    }
    if cut_points:
        summary["cut_points"] = cut_points
    averaged = None
    if args.bootstrap:
        summary["bootstrap"], averaged = _bootstrap(
            args, data, method, max_parents, score, required, forbidden, tiers, dag
        )
    model = None
    if args.params != "none":
        from .evaluate import n_parameters

        model = _fit(dag, data, args.params, args.ess, score)
        summary["parameters"] = _estimator_label(args.params, score)
        summary["n_parameters"] = int(n_parameters(model))
        print(f"parameters: {summary['parameters']}, {summary['n_parameters']} free")
    if args.out:
        what = "network"
        if args.bootstrap:  # two networks: say which one this is
            what = "learned network"
            if not args.out_averaged:
                what += " (not the averaged one: --out-averaged FILE writes that)"
        _write_network(model, dag, args.out, kind, what)
    if args.out_averaged:
        fitted = None
        if args.params != "none":
            fitted = _fit(averaged, data, args.params, args.ess, score)
        what = (
            f"averaged network ({averaged.number_of_edges()} arcs of strength above "
            f"{averaged.graph['threshold']:.3f})"
        )
        _write_network(fitted, averaged, args.out_averaged, averaged_kind, what)
    if args.bootstrap:  # which file holds which of the two networks
        summary["bootstrap"]["networks_written"] = {
            "learned": args.out,
            "averaged": args.out_averaged,
        }
    return _finish(summary, args)


def _check_out_averaged(args):
    """``--out-averaged FILE``: its format; it needs --bootstrap and a file other than --out."""
    if args.out_averaged is None:
        return None
    if not args.bootstrap:
        raise UserError(
            "--out-averaged writes the averaged network of the bootstrap: add --bootstrap B "
            "(e.g. --bootstrap 200), or write the learned network with --out"
        )
    if args.out is not None and Path(args.out).resolve() == Path(args.out_averaged).resolve():
        raise UserError(
            f"--out and --out-averaged both name {args.out}: give the two networks two files"
        )
    return _output_format(args.out_averaged, fitted=args.params != "none", flag="--out-averaged")


def _bootstrap(args, data, method, max_parents, score, required, forbidden, tiers, dag):
    """``learn --bootstrap B``: arc strengths over B resamples with the same search."""
    from .study import LearningProcedure, averaged_network, bootstrap_strength

    knowledge = _knowledge(required, forbidden, tiers)
    search = _make_search(args, score, method, max_parents, knowledge, False, args.restarts or 0)
    seed = 0 if args.seed is None else args.seed
    kind = "half-size subsamples without replacement" if args.subsample else "resamples"
    print(f"bootstrap: learning {args.bootstrap} {kind} (seed {seed})", flush=True)
    if not args.subsample and args.score == "fnml":
        print(
            "  note: a bootstrap resample repeats about a third of its rows, and fnml fits "
            "repeated rows with extra parents; --subsample avoids repeats"
        )
    start = time.perf_counter()
    # an equivalence class may hold DAGs that break required or forbidden edges: with
    # constraints, count the DAGs the search returned
    constrained = bool(required or forbidden or tiers)
    strength = bootstrap_strength(
        data,
        method=LearningProcedure(search),
        n_bootstrap=args.bootstrap,
        replace=not args.subsample,
        random_state=seed,
        cpdag=False if constrained else "auto",
        missing="available" if _missing_policy(args) == "available" else "error",
        show_progress=True,
    )
    seconds = time.perf_counter() - start
    threshold = strength.attrs["threshold"]
    averaged = averaged_network(strength)
    shown = strength[(strength["strength"] > 0) & (strength["direction"] >= 0.5)]
    shown = shown.sort_values(["strength", "direction"], ascending=False)
    rows = [
        [
            f"{u}->{v}",
            f"{st:.3f}",
            f"{d:.3f}",
            _arc_in(dag, u, v) or "",
            _arc_in(averaged, u, v) or "",
        ]
        for u, v, st, d in shown[["from", "to", "strength", "direction"]].itertuples(index=False)
    ]
    print(
        f"bootstrap strength over {args.bootstrap} resamples ({seconds:.1f} s); threshold "
        f"{threshold:.3f} (Scutari-Nagarajan); "
        + ("equivalence classes counted" if strength.attrs["cpdag"] else "DAGs counted")
    )
    if rows:
        print(_table(["arc", "strength", "direction", "learned", "averaged"], rows))
        print(
            "  learned, averaged: yes = the network has this arc; reversed = it has the arc "
            "the other way; blank = neither"
        )
    print(f"averaged network ({averaged.number_of_edges()} edges): {_edges_text(averaged)}")
    info = {
        "n_resamples": args.bootstrap,
        "replace": not args.subsample,
        "sample_size": strength.attrs["sample_size"],
        "seed": seed,
        "threshold": threshold,
        "cpdag": strength.attrs["cpdag"],
        "arcs": [
            {
                "from": u,
                "to": v,
                "strength": float(st),
                "direction": float(d),
                "learned": _arc_in(dag, u, v) or "no",
                "averaged": _arc_in(averaged, u, v) or "no",
            }
            for u, v, st, d in strength[["from", "to", "strength", "direction"]].itertuples(
                index=False
            )
            if st > 0
        ],
        "averaged_edges": [list(e) for e in sorted(averaged.edges())],
        "seconds": seconds,
    }
    return info, averaged


def _arc_in(graph, u, v):
    """``"yes"`` if ``graph`` has the arc ``u->v``, ``"reversed"`` if it has ``v->u``, else None."""
    if graph.has_edge(u, v):
        return "yes"
    return "reversed" if graph.has_edge(v, u) else None


def _rebuild_params(score):
    from .study._procedure import _score_params

    params = _score_params(score)
    params.pop("data", None)
    params.pop("state_names", None)
    return params


def cmd_cv(args):
    from .study import LearningProcedure, compare_procedures

    _check_directory(args.json, "--json")
    data, source, notes, cut_points = _read_study_data(args)
    variables = list(data.columns)
    if args.loss == "error" and args.target is None:
        raise UserError("--loss error needs the variable to predict: --target NAME")
    if args.target is not None and args.target not in variables:
        raise UserError(f"--target {args.target!r} is not a column of the data")
    method, max_parents, described = _choose_method(args, len(variables))
    _check_time_limit(args, method)
    seed = 0 if args.seed is None else args.seed
    search = _cv_search(args, method, max_parents, seed)
    names = args.scores or ["fnml", "qnml", "bdeu"]
    if len(set(names)) != len(names):
        raise UserError("--scores lists a score twice")
    _check_missing_scores(args, data, names, "--scores")
    procedures = {}
    for name in names:
        params = {}
        from .scores import get_score_spec

        if "equivalent_sample_size" in get_score_spec(name).params:
            params["equivalent_sample_size"] = args.ess
        estimator = "auto"
        if args.params != "auto":
            estimator = _estimator(args.params, args.ess)
        procedures[name] = LearningProcedure(
            search,
            scoring_method=name,
            score_params=params,
            parameter_estimator=estimator,
            max_parents=max_parents if isinstance(search, str) else None,
            n_jobs=-1 if search == "auto" else None,
        )
    _print_data(source, data, notes)
    scheme = (
        (f"{args.folds} random hold-out splits" if args.hold_out else f"{args.folds}-fold")
        + (f", {args.runs} runs" if args.runs > 1 else "")
        + f", seed {seed}"
    )
    print(
        f"cross-validating {len(names)} procedure(s): {described}, parameters {args.params}; "
        f"{scheme}; loss {args.loss}" + (f" of {args.target}" if args.target else ""),
        flush=True,
    )
    start = time.perf_counter()
    from .evaluate import InfiniteLossWarning

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", InfiniteLossWarning)
        comparison = compare_procedures(
            data,
            procedures,
            scheme="hold-out" if args.hold_out else "k-fold",
            k=args.folds,
            runs=args.runs,
            test_size=args.test_size,
            loss=args.loss,
            target=args.target,
            random_state=seed,
            missing="available" if _missing_policy(args) == "available" else "error",
            show_progress=True,
        )
    for warning in caught:  # other warnings go on to stderr as before
        if not issubclass(warning.category, InfiniteLossWarning):
            warnings.warn_explicit(
                warning.message, warning.category, warning.filename, warning.lineno
            )
    infinite = _infinite_notes(comparison, caught, args)
    seconds = time.perf_counter() - start
    table = comparison.summary
    baseline = comparison.baseline
    rows = [
        [
            name,
            _number(r["mean"], ".4f"),
            _number(r["se"], ".4f"),
            "-" if name == baseline else _number(r["diff"], "+.4f"),
            "-" if name == baseline else _number(r["diff_se"], ".4f"),
            "-" if name == baseline else _number(r["diff_se_corrected"], ".4f"),
            "-" if name == baseline else f"{r['wins']:.2f}",
            f"{r['mean_edges']:.1f}",
        ]
        for name, r in table.iterrows()
    ]
    unit = "nats per test row" if args.loss == "log-loss" else "misclassified fraction"
    print(f"{args.loss} ({unit}; lower is better), {seconds:.1f} s:")
    print(
        _table(
            [
                "procedure",
                "mean",
                "se",
                f"diff vs {baseline}",
                "se(diff)",
                "se corrected",
                "wins",
                "edges",
            ],
            rows,
        )
    )
    for note in infinite.values():
        print(f"  note: {note}")
    summary = {
        **_data_summary("cv", source, notes, data),
        "method": method,
        "search": described,
        "time_limit": args.time_limit,
        "restarts": getattr(search, "restarts", 0 if method != "exact" else None),
        "scheme": "hold-out" if args.hold_out else "k-fold",
        "folds": args.folds,
        "runs": args.runs,
        "seed": seed,
        "loss": args.loss,
        "target": args.target,
        "parameters": args.params,
        "baseline": baseline,
        "summary": {name: {k: float(v) for k, v in r.items()} for name, r in table.iterrows()},
        "losses": {name: r.folds["loss"].tolist() for name, r in comparison.results.items()},
        "seconds": seconds,
    }
    if cut_points:
        summary["cut_points"] = cut_points
    reasons = {
        f"{part}.{name}": note for name, note in infinite.items() for part in ("summary", "losses")
    }
    if infinite:  # another procedure's difference from an infinite baseline
        reasons["summary"] = " ".join(infinite.values())
    return _finish(summary, args, reasons)


def _number(value, spec):
    """A table cell: ``inf`` for an infinite value, ``n/a`` for an undefined one (nan)."""
    return "n/a" if math.isnan(value) else format(value, spec)


def _infinite_notes(comparison, caught, args):
    """Procedure -> why its cross-validated log-loss is infinite, and the way out."""
    from .evaluate import InfiniteLossWarning

    reasons = {}
    for warning in caught:
        if issubclass(warning.category, InfiniteLossWarning):
            name = getattr(warning.message, "procedure", None)
            if name is not None:
                reasons[name] = warning.message.reason
    notes = {}
    for name, result in comparison.results.items():
        losses = result.folds["loss"].to_numpy(dtype=float)
        n_inf = int((losses == math.inf).sum())
        if n_inf:
            why = reasons.get(name, "a test row has probability 0 under the fitted parameters.")
            notes[name] = (
                f"{name}: {n_inf} of {len(losses)} splits give an infinite log-loss, so its "
                f"mean is inf and its standard errors n/a; in the first, {why} --params "
                f"{args.params} allows probability 0; --params auto or fsnml keeps every "
                "probability positive."
            )
    return notes


def _cv_search(args, method, max_parents, seed):
    """The search every split of ``cv`` runs: a name, or a template with the options."""
    if method == "exact":
        if args.time_limit is None:
            return "auto"
        from .search import ExactSearch

        return ExactSearch(
            "fnml", max_parents=max_parents, time_limit=args.time_limit, show_progress=False
        )
    restarts = 10 if args.method == "auto" else 0  # what _choose_method promises
    if not restarts:
        return method
    from .search import LocalSearch

    return LocalSearch(
        "fnml",
        method=method,
        max_parents=max_parents,
        restarts=restarts,
        random_state=seed,
        show_progress=False,
    )


def _check_time_limit(args, method):
    """``--time-limit`` stops the exact solver; refuse it where nothing would honour it."""
    if getattr(args, "time_limit", None) is not None and method != "exact":
        raise UserError(
            f"--time-limit stops the exact search, and this run uses {method} search (a "
            "local search has no time limit): drop --time-limit, or give --method exact"
        )


def cmd_score(args):
    if not args.model and not args.edges:
        raise UserError("give the network to score with --model FILE.bif or --edges A->B,B->C")
    _check_directory(args.json, "--json")
    model = _read_model(args.model) if args.model else None
    use = list(model.nodes()) if model else None
    data, source, notes, cut_points = _read_study_data(args, use=use)
    dag = _structure(args, data, model)
    data = data[list(dag.nodes())]
    states = _declared_states(model, args.model, data, source) if model else None
    names = args.scores or ["fnml", "qnml", "bdeu", "bic"]
    _check_missing_scores(args, data, names, "--scores")
    scores = {name: _score(name, data, args.ess, states) for name in names}
    nodes = list(data.columns)
    per_node = {
        name: {v: float(s.local_score(v, tuple(sorted(dag.predecessors(v))))) for v in nodes}
        for name, s in scores.items()
    }
    totals = {name: sum(values.values()) for name, values in per_node.items()}
    _print_data(source, data, notes)
    print(f"network: {_edges_text(dag)}")
    rows = [
        [v, ",".join(sorted(dag.predecessors(v))) or "-"] + [f"{per_node[n][v]:.3f}" for n in names]
        for v in nodes
    ]
    rows.append(["total", ""] + [f"{totals[n]:.3f}" for n in names])
    print(_table(["node", "parents", *names], rows))
    summary = {
        **_data_summary("score", source, notes, data),
        "edges": [list(e) for e in sorted(dag.edges())],
        "score_parameters": {name: _score_parameters(s) for name, s in scores.items()},
        "local_scores": per_node,
        "total_scores": totals,
    }
    if cut_points:
        summary["cut_points"] = cut_points
    return _finish(summary, args)


def cmd_fit(args):
    from .evaluate import n_parameters

    if not args.model and not args.edges:
        raise UserError("give the structure with --model FILE.bif or --edges A->B,B->C")
    kind = _output_format(args.out)
    _check_directory(args.json, "--json")
    model = _read_model(args.model) if args.model else None
    use = list(model.nodes()) if model else None
    data, source, notes, cut_points = _read_study_data(args, use=use)
    _check_out_names(args.out, kind, data)
    dag = _structure(args, data, model)
    fitted = _fit(dag, data, args.estimator, args.ess)
    _print_data(source, data, notes)
    print(f"network: {_edges_text(dag)}")
    print(f"parameters: {args.estimator}, {n_parameters(fitted)} free")
    summary = {
        **_data_summary("fit", source, notes, data),
        "edges": [list(e) for e in sorted(dag.edges())],
        "estimator": args.estimator,
        "estimator_parameters": {"ess": args.ess} if args.estimator == "bdeu" else {},
        "n_parameters": int(n_parameters(fitted)),
    }
    if cut_points:
        summary["cut_points"] = cut_points
    if args.out:
        _write_network(fitted, dag, args.out, kind)
    return _finish(summary, args)


def _apply_cut_points(args, data, notes):
    """``evaluate --cut-points FILE``: cut the test data where training was cut."""
    from .study import Discretizer

    cuts = _load_cut_points(args.cut_points)
    unknown = [c for c in cuts if c not in data.columns]
    if unknown:
        raise UserError(f"the cut points name column {unknown[0]!r}, which the test data lack")
    columns = _continuous_columns(data[list(cuts)], _decimal_comma(args, notes))
    import pandas as pd

    for c in cuts:  # a column of whole numbers is not "continuous", but is cut all the same
        if c not in columns:
            columns[c] = pd.to_numeric(data[c], errors="coerce")
    discretizer = Discretizer.from_cut_points(cuts, labels="integer")
    return _cut(data, discretizer, columns, notes)


def cmd_evaluate(args):
    from .evaluate import _log_loss, n_parameters

    _check_directory(args.json, "--json")
    model = _read_model(args.model)
    data, source, notes = _read_csv(args, use=list(model.nodes()))
    if args.cut_points:
        data = _apply_cut_points(args, data, notes)
    _declared_states(model, args.model, data, source)
    base = 2 if args.bits else math.e
    unit = "bits" if args.bits else "nats"
    loss, infinite = _log_loss(model, data, base=base)
    _print_data(source, data, notes, what="test data")
    print(f"log-loss: {loss:.4f} {unit} per row; {n_parameters(model)} free parameters")
    reasons = {}
    if infinite is not None:
        reasons["log_loss"] = f"infinite: {infinite}"
        print(
            f"  note: the log-loss is infinite: {infinite} Refit the network with "
            "fsNML parameters (pgmpy-nml fit --estimator fsnml, or learn with --params auto "
            "or fsnml), which keep every probability positive."
        )
    summary = {
        **_data_summary("evaluate", source, notes, data),
        "model": args.model,
        "log_loss": loss,
        "unit": unit,
        "n_parameters": int(n_parameters(model)),
    }
    return _finish(summary, args, reasons)


# -- parser -----------------------------------------------------------------------
class _Parser(argparse.ArgumentParser):
    """argparse, with every error on one line (exit code 2)."""

    def error(self, message):
        message = " ".join(message.split())
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


_DATA_EPILOG = (
    "Data files: one column per variable, one row per sample, a header of unique names; "
    "the delimiter (, ; tab | space) is detected. Cells NA, NaN, ? and empty cells are "
    "missing values: such rows are refused unless --dropna drops them (learn, score and cv: "
    "or --missing available keeps them for the scores pnal and nal). R's row-names "
    "column is ignored. A column that looks continuous (decimals, or more than "
    f"{MAX_WHOLE_NUMBER_STATES} distinct whole numbers) or like an identifier (at least "
    f"{ID_MIN_DISTINCT} distinct values, more than one per two rows) is refused: drop it "
    "with --drop-columns, or keep it with --discrete."
)


def _data_args(parser, what="the data"):
    group = parser.add_argument_group("data file")
    group.add_argument(
        "data_file",
        nargs="?",
        metavar="CSV",
        help=f"CSV file of {what} (default: the bundled example data)",
    )
    group.add_argument("--data", metavar="CSV", help="the same, as an option")
    group.add_argument(
        "--delimiter",
        type=_delimiter,
        metavar="CHAR",
        help="field delimiter, e.g. ';' or tab (default: detected)",
    )
    group.add_argument(
        "--na-values",
        type=_comma_list,
        metavar="A,B",
        help="cells that mean a missing value, replacing the default NA,NaN,? (empty cells "
        "are always missing; --na-values '' reads NA as a state)",
    )
    group.add_argument(
        "--dropna", action="store_true", help="drop rows with a missing value, and say how many"
    )
    group.add_argument(
        "--drop-columns", type=_comma_list, default=(), metavar="A,B", help="columns to ignore"
    )
    group.add_argument(
        "--discrete",
        type=_comma_list,
        default=(),
        metavar="A,B",
        help="keep these columns as variables even if they look continuous or like an ID",
    )


def _missing_arg(parser):
    parser.add_argument(
        "--missing",
        choices=["error", "drop", "available"],
        help="rows with missing values: refuse them (error, the default), drop them (drop, "
        "as --dropna), or keep them (available) for the scores of incomplete data, pnal and "
        "nal, which score each family on the rows where it is complete (assumes values "
        "missing completely at random)",
    )


def _discretize_arg(parser):
    parser.add_argument(
        "--discretize",
        type=_discretization,
        metavar="METHOD[:BINS]",
        help="cut the continuous columns into BINS intervals (default 3): hartemink "
        "(information-preserving), quantile (equal frequency), quantile-ties (equal "
        "frequency, never splitting a tied value) or interval (equal width); no interval is "
        "left empty; the cut points go to the JSON summary, for evaluate --cut-points",
    )
    parser.add_argument(
        "--discretize-columns",
        type=_comma_list,
        default=(),
        metavar="A,B",
        help="also cut these numeric columns (whole numbers, or ones that look like "
        "identifiers, e.g. a count or a concentration); with --discretize's METHOD[:BINS], "
        "hartemink:3 without it",
    )


def _cut_points_arg(parser):
    parser.add_argument(
        "--cut-points",
        metavar="JSON",
        help="instead of --discretize: cut the columns where an earlier run cut them, with "
        "its JSON summary (learn --discretize) or a JSON object column -> cut points",
    )


def _method_arg(parser):
    parser.add_argument(
        "--method",
        choices=["auto", "exact", "hill", "tabu"],
        default="auto",
        help=f"exact (globally optimal: subset DP, or integer programming over candidate "
        f"parent sets with --max-parents, default {SOLVER_DEFAULT_MAX_PARENTS} above "
        f"{AUTO_EXACT_MAX_VARIABLES} variables), hill climbing or tabu search (heuristic); "
        f"auto: exact up to {AUTO_SOLVER_MAX_VARIABLES} variables, tabu with restarts above",
    )
    parser.add_argument(
        "--time-limit",
        type=_time_limit,
        metavar="SECONDS",
        help="stop the exact solver after this long and report the best network with its "
        f"proven gap to the optimum (learn's default: {EXACT_TIME_LIMIT:g} s; 'inf' runs until "
        "proven optimal)",
    )


def _local_search_args(parser):
    parser.add_argument(
        "--restarts",
        type=_non_negative_int,
        metavar="N",
        help="random restarts of the local search from the best network, perturbed "
        "(default 0; 10 when --method auto picks tabu search)",
    )
    parser.add_argument(
        "--perturb",
        type=_non_negative_int,
        default=10,
        metavar="K",
        help="random edge changes before each restart (default 10)",
    )
    parser.add_argument(
        "--tabu-length",
        type=_whole_number_at_least(1),
        default=10,
        metavar="L",
        help="networks tabu search remembers, and non-improving steps it allows (default 10)",
    )


def _ess_arg(parser):
    parser.add_argument(
        "--ess",
        type=_positive_float,
        default=1.0,
        help="equivalent sample size (> 0) of the BDeu-type scores and estimator (default 1)",
    )


def _max_parents_arg(parser):
    parser.add_argument(
        "--max-parents",
        type=_non_negative_int,
        default=None,
        metavar="K",
        help="largest number of parents of a variable (default: no limit for the exact "
        f"search up to {AUTO_EXACT_MAX_VARIABLES} variables and for hill climbing and tabu "
        f"search; {SOLVER_DEFAULT_MAX_PARENTS} for the exact solver above "
        f"{AUTO_EXACT_MAX_VARIABLES} variables)",
    )


def _structure_args(parser, what):
    """``--model`` or ``--edges``: the given structure (``what`` names it in the help)."""
    parser.add_argument("--model", metavar="BIF", help=f"the {what} (.bif or .xml)")
    parser.add_argument("--edges", action="append", metavar="A->B[,C->D]", help="or its edges")


def _output_args(parser, network=True):
    """``--out`` (the network, when the command writes one) and ``--json`` (the summary)."""
    if network:
        parser.add_argument(
            "--out",
            metavar="FILE",
            help="write the network: .bif, .xml (XMLBIF) or .dot (structure)",
        )
    parser.add_argument("--json", metavar="FILE", help="write a JSON summary")


def _command(sub, name, func, what="the data", **texts):
    """A subcommand running ``func``: its data-file options (``what`` names the data) and help."""
    parser = sub.add_parser(name, epilog=_DATA_EPILOG, **texts)
    _data_args(parser, what)
    parser.set_defaults(func=func)
    return parser


def build_parser():
    parser = _Parser(
        prog="pgmpy-nml",
        description="NML-family scores, fsNML parameters and exact structure learning for "
        "discrete Bayesian networks (a pgmpy plugin). Without a command: learn a network "
        "from the bundled example data.",
        epilog="Run pgmpy-nml COMMAND --help for a command's options.",
    )
    parser.add_argument("--version", action="version", version=f"pgmpy-nml {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    learn = _command(
        sub,
        "learn",
        cmd_learn,
        help="learn a network (structure and parameters) from data",
        description="Learn a network's structure, then its parameters, from a CSV file.",
    )
    search = learn.add_argument_group("structure search")
    search.add_argument(
        "--score", choices=_score_names(), default="fnml", metavar="NAME", help=_score_help("fnml")
    )
    _method_arg(search)
    _max_parents_arg(search)
    search.add_argument("--require", action="append", metavar="A->B[,C->D]", help="required edges")
    search.add_argument("--forbid", action="append", metavar="A->B[,C->D]", help="forbidden edges")
    search.add_argument(
        "--tiers",
        metavar="'A,S;E;O,R,T'",
        help="temporal tiers separated by ';' (variables by ','): no edge from a later tier "
        "into an earlier one; variables not listed are free",
    )
    search.add_argument(
        "--max-memory",
        type=_memory_size,
        metavar="SIZE",
        help="memory the exact search may use, e.g. 8G (default: 90%% of what is free)",
    )
    search.add_argument(
        "--n-jobs",
        type=_n_jobs,
        metavar="N",
        help="threads of the exact search (default and -1: all cores)",
    )
    _local_search_args(search)
    search.add_argument(
        "--seed",
        type=_non_negative_int,
        metavar="N",
        help="seed of the local search's random restarts and of --bootstrap (default 0); "
        "ties between equally good moves go to the earlier column. The exact search has no "
        "randomness. Every run with the same data and options gives the same network",
    )
    learn.add_argument(
        "--params",
        choices=["auto", *ESTIMATORS, "none"],
        default="auto",
        help="parameter estimator; auto (default): the score's own prior (BDeu's for bdeu, "
        "BD's for bd, K2's for k2, fsnml for the others: fnml, qnml and the likelihood "
        "scores bic, aic, ll, nal, pnal, whose mle would give unseen combinations "
        "probability 0)",
    )
    learn.add_argument(
        "--bootstrap",
        type=_non_negative_int,
        default=0,
        metavar="B",
        help="also learn B bootstrap resamples with the same search and report each arc's "
        "strength and direction and the averaged network (seed: --seed, default 0)",
    )
    learn.add_argument(
        "--subsample",
        action="store_true",
        help="with --bootstrap: learn half-size subsamples drawn without replacement "
        "instead of resamples with replacement (advised for fnml, which fits repeated rows)",
    )
    _discretize_arg(learn)
    _missing_arg(learn)
    _ess_arg(learn)
    _output_args(learn)
    learn.add_argument(
        "--out-averaged",
        metavar="FILE",
        help="with --bootstrap: write the averaged network (the arcs above the strength "
        "threshold, parameters as --params) to FILE: .bif, .xml or .dot; --out writes the "
        "learned one",
    )

    score = _command(
        sub,
        "score",
        cmd_score,
        help="score a given network, per node and in total",
        description="Score a given network on data, per node and in total.",
    )
    _structure_args(score, "network")
    score.add_argument(
        "--scores",
        nargs="+",
        choices=_score_names(),
        metavar="NAME",
        help=_score_help("fnml qnml bdeu bic"),
    )
    _missing_arg(score)
    _ess_arg(score)
    _discretize_arg(score)
    _cut_points_arg(score)
    _output_args(score, network=False)

    fit = _command(
        sub,
        "fit",
        cmd_fit,
        help="fit the parameters of a given structure",
        description="Fit the parameters of a given structure.",
    )
    _structure_args(fit, "structure")
    fit.add_argument("--estimator", choices=ESTIMATORS, default="fsnml", help="default fsnml")
    _ess_arg(fit)
    _discretize_arg(fit)
    _cut_points_arg(fit)
    _output_args(fit)

    evaluate = _command(
        sub,
        "evaluate",
        cmd_evaluate,
        "the test data",
        help="log-loss of a fitted network on test data",
        description="Average negative log-probability of test rows under a fitted network.",
    )
    evaluate.add_argument("--model", metavar="BIF", required=True, help="the fitted network")
    evaluate.add_argument("--bits", action="store_true", help="report bits instead of nats")
    evaluate.add_argument(
        "--cut-points",
        metavar="JSON",
        help="cut continuous test columns where training was cut: the JSON summary of "
        "learn --discretize (or a JSON object column -> cut points)",
    )
    _output_args(evaluate, network=False)

    cv = _command(
        sub,
        "cv",
        cmd_cv,
        help="cross-validate learning procedures (search + score + parameters) side by side",
        description="Cross-validate whole learning procedures on the same splits and compare "
        "them pairwise: each split learns the structure and the parameters on its training "
        "rows and measures the loss on its test rows.",
    )
    procedure = cv.add_argument_group("procedures")
    procedure.add_argument(
        "--scores",
        nargs="+",
        choices=_score_names(),
        metavar="NAME",
        help="one procedure per score, the first the baseline: " + _score_help("fnml qnml bdeu"),
    )
    _method_arg(procedure)
    _max_parents_arg(procedure)
    procedure.add_argument(
        "--params",
        choices=["auto", *ESTIMATORS],
        default="auto",
        help="parameter estimator; auto (default): each score's own prior",
    )
    _ess_arg(procedure)
    _discretize_arg(procedure)
    _missing_arg(procedure)
    splits = cv.add_argument_group("splits and loss")
    splits.add_argument(
        "--folds",
        type=_whole_number_at_least(2, " (each fold is the test set once)"),
        default=10,
        metavar="K",
        help="folds, or hold-out splits with --hold-out (at least 2; default 10)",
    )
    splits.add_argument(
        "--runs",
        type=_whole_number_at_least(1),
        default=1,
        metavar="R",
        help="repetitions (default 1)",
    )
    splits.add_argument(
        "--hold-out",
        action="store_true",
        help="K random train/test splits instead of K folds (see --test-size)",
    )
    splits.add_argument(
        "--test-size",
        type=_test_size,
        metavar="N",
        help="hold-out test rows: a count, or a fraction below 1 (default: rows / K)",
    )
    splits.add_argument(
        "--loss",
        choices=["log-loss", "error"],
        default="log-loss",
        help="log-loss (nats per test row, default) or classification error of --target",
    )
    splits.add_argument("--target", metavar="VARIABLE", help="the variable --loss error predicts")
    splits.add_argument(
        "--seed", type=_non_negative_int, metavar="N", help="seed of the splits (default 0)"
    )
    _output_args(cv, network=False)
    return parser


def _is_input_error(err) -> bool:
    """Whether ``err`` reports a mistake in the input, to show as one line with exit code 2.

    The command line's own :class:`UserError`, the library's :class:`InputError`, memory
    and file errors, and a ``ValueError`` that the package raised itself (a check with a
    message for the user, wherever it lives). A ``ValueError`` raised inside numpy,
    pandas, pgmpy or another library is a bug of ours (we passed it something wrong)."""
    from ._validate import InputError

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
