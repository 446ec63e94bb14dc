"""The ``pgmpy-nml`` command-line tool.

Subcommands: ``learn`` (structure, then parameters), ``score`` (a given network,
several scores side by side), ``fit`` (parameters of a given structure) and
``evaluate`` (log-loss of a fitted network on test data). Every command reads a
CSV file of discrete data (``pgmpy_nml._csv`` reads and checks it) and writes
files that pgmpy reads back: BIF or XMLBIF networks, Graphviz DOT structures and
a JSON summary. Without a data file the bundled example data set is used, so
``pgmpy-nml`` alone shows the main job.

Building the parser imports nothing beyond the standard library, so ``--help``
and ``--version`` answer at once; pandas, pgmpy and numba load when a command runs.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import shlex
import sys
import time
import warnings
from pathlib import Path

from ._limits import AUTO_EXACT_MAX_VARIABLES, ID_MIN_DISTINCT, MAX_WHOLE_NUMBER_STATES
from ._version import __version__

__all__ = ["main"]

SCORE_NAMES = ["fnml", "qnml", "bd", "min-bdeu", "max-bdeu", "bdeu", "k2", "bic", "aic", "ll"]
ESTIMATORS = ["fsnml", "mle", "bdeu", "k2"]
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


def _non_negative_int(text):
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 0, got {text!r}")
    return value


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


def _comma_list(text):
    """``"A, B,"`` -> ``("A", "B")``; ``""`` -> ``()``."""
    return tuple(item.strip() for item in text.split(",") if item.strip())


# -- input ------------------------------------------------------------------------
def _csv_options(args):
    from ._csv import CsvOptions

    return CsvOptions(
        delimiter=args.delimiter,
        na_values=args.na_values,
        dropna=args.dropna,
        drop_columns=args.drop_columns,
        discrete=args.discrete,
    )


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


def _read_model(path):
    file = Path(path)
    if not file.is_file():
        raise UserError(f"no such network file: {path}")
    kind = NETWORK_FORMATS.get(file.suffix.lower())
    if kind not in FITTED_FORMATS:
        raise UserError(
            f"network file {path}: unknown extension {file.suffix!r}; give a .bif or .xml file"
        )
    from pgmpy.readwrite import BIFReader, XMLBIFReader

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if kind == "XMLBIF":
                model = XMLBIFReader(str(file)).get_model()
            else:
                model = BIFReader(str(file)).get_model()
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
        extra = sorted(set(data[v].unique()) - set(states[v]))
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


def _estimator(name, ess):
    if name == "fsnml":
        from .estimators import FSNMLEstimator

        return FSNMLEstimator()
    from pgmpy.parameter_estimator import DiscreteBayesianEstimator, DiscreteMLE

    if name == "mle":
        return DiscreteMLE()
    if name == "k2":
        return DiscreteBayesianEstimator(prior_type="K2")
    return DiscreteBayesianEstimator(prior_type="BDeu", equivalent_sample_size=ess)


def _fit(dag, data, estimator_name, ess):
    from pgmpy.models import DiscreteBayesianNetwork

    model = DiscreteBayesianNetwork(dag.edges())
    model.add_nodes_from(dag.nodes())
    return model.fit(data[list(dag.nodes())], estimator=_estimator(estimator_name, ess))


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
def _exact_needs(n_vars, n_samples):
    """What an exact search on ``n_vars`` variables would need, as text."""
    from .search.exact import EXACT_MAX_VARIABLES as MAX_VARIABLES
    from .search.exact import memory_estimate

    if n_vars > MAX_VARIABLES:
        return (
            f"the exact search handles at most {MAX_VARIABLES} variables: select some with "
            "--drop-columns"
        )
    need = sum(memory_estimate(n_vars, 1, n_samples, 1).values())
    return (
        f"--method exact would need about {need / 2**30:.1f} GB of memory (see --max-memory), "
        "and its time doubles with each variable"
    )


def _choose_method(args, n_vars, n_samples):
    """The search to run and the sentence that says what it is."""
    if args.method == "hill":
        return "hill", "hill climbing (heuristic: a local optimum, not necessarily optimal)"
    if n_vars <= AUTO_EXACT_MAX_VARIABLES:
        return "exact", "exact search (globally optimal)"
    if args.method == "exact":
        from .search.exact import EXACT_MAX_VARIABLES as MAX_VARIABLES

        if n_vars > MAX_VARIABLES:
            raise UserError(f"--method exact: {_exact_needs(n_vars, n_samples)}")
        return "exact", "exact search (globally optimal)"
    return "hill", (
        f"hill climbing (heuristic, not optimal: {n_vars} variables are more than the "
        f"{AUTO_EXACT_MAX_VARIABLES} of --method auto's exact search; "
        f"{_exact_needs(n_vars, n_samples)})"
    )


def _exact_search(args, data, required, forbidden, tiers):
    from .search import ExactSearch, ExactSearchMemoryError

    score = _score(args.score, data, args.ess)
    search = ExactSearch(
        score,
        max_parents=args.max_parents,
        expert_knowledge=_knowledge(required, forbidden, tiers),
        max_memory=args.max_memory,
        n_jobs=args.n_jobs,
        show_progress=sys.stderr.isatty(),
    )
    try:
        dag = search.fit(data).dag_
    except ExactSearchMemoryError as err:
        reason = " ".join(str(err).split()).replace("max_memory", "--max-memory")
        raise UserError(
            f"{reason} Allow more with --max-memory SIZE, or use --method hill for a "
            "heuristic network."
        ) from None
    local = {v: float(score.local_score(v, tuple(sorted(dag.predecessors(v))))) for v in dag}
    return dag, local, score


def _hill_climb(args, data, required, forbidden, tiers):
    """pgmpy's hill climbing with reproducible tie-breaking.

    pgmpy picks the best move by iterating over a set of candidate edges, so among
    equally good moves (common with score-equivalent scores) the winner depends on
    Python's string hashing, which changes from run to run. The search therefore
    runs on integer labels (whose hashes are fixed): the column order without
    ``--seed``, a permutation drawn from ``--seed`` with it.
    """
    from pgmpy.base import DAG

    from .search import find_structure

    variables = list(data.columns)
    labels = list(range(len(variables)))
    if args.seed is not None:
        random.Random(args.seed).shuffle(labels)
    label = dict(zip(variables, labels, strict=True))
    name = dict(zip(labels, variables, strict=True))
    coded = data.rename(columns=label)
    score = _score(args.score, coded, args.ess)
    found = find_structure(
        score,
        coded,
        "hill",
        max_parents=args.max_parents,
        expert_knowledge=_knowledge(required, forbidden, tiers, label),
        show_progress=sys.stderr.isatty(),
    )
    dag = DAG([(name[u], name[v]) for u, v in found.edges()])
    dag.add_nodes_from(variables)
    local = {
        v: float(score.local_score(label[v], tuple(sorted(label[p] for p in dag.predecessors(v)))))
        for v in variables
    }
    return dag, local, score


# -- output -----------------------------------------------------------------------
def _output_format(path, fitted=True):
    """The format of an output file from its extension; refuses unknown ones up front."""
    if path is None:
        return None
    file = Path(path)
    kind = NETWORK_FORMATS.get(file.suffix.lower())
    if kind is None:
        known = ", ".join(NETWORK_FORMATS)
        raise UserError(f"--out {path}: unknown extension {file.suffix!r}; use one of {known}")
    if not fitted and kind in FITTED_FORMATS:
        raise UserError(
            f"--out {path} writes a fitted network, and --params none fits none: drop "
            "--params none, or write the structure with --out FILE.dot"
        )
    _check_directory(path, "--out")
    return kind


def _check_directory(path, flag):
    if path is not None and not Path(path).resolve().parent.is_dir():
        raise UserError(f"{flag} {path}: the directory {Path(path).parent} does not exist")


def _dot(dag):
    def quote(name):
        return '"' + str(name).replace("\\", "\\\\").replace('"', '\\"') + '"'

    lines = ["digraph network {"]
    lines += [f"  {quote(v)};" for v in dag.nodes()]
    lines += [f"  {quote(u)} -> {quote(v)};" for u, v in sorted(dag.edges())]
    return "\n".join([*lines, "}"]) + "\n"


def _write_network(model, dag, path, kind):
    if kind == "DOT":
        Path(path).write_text(_dot(dag), encoding="utf-8")
    elif kind == "XMLBIF":
        from pgmpy.readwrite import XMLBIFWriter

        XMLBIFWriter(model).write(str(path))
    else:
        from pgmpy.readwrite import BIFWriter

        BIFWriter(model).write(str(path))
    print(f"network written to {path} ({kind})")


def _json_value(value):
    import numpy as np

    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, np.ndarray):
        return value.tolist()
    raise TypeError(f"cannot write {type(value).__name__} to JSON")


def _finish(summary, args):
    """Write the JSON summary if asked; return the summary."""
    if args.json:
        summary = {"pgmpy_nml_version": __version__, **summary}
        Path(args.json).write_text(
            json.dumps(summary, indent=2, default=_json_value) + "\n", encoding="utf-8"
        )
        print(f"summary written to {args.json}")
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
def cmd_learn(args):
    kind = _output_format(args.out, fitted=args.params != "none")
    _check_directory(args.json, "--json")
    data, source, notes = _read_csv(args)
    variables = list(data.columns)
    required = _parse_edges(args.require, variables, "--require")
    forbidden = _parse_edges(args.forbid, variables, "--forbid")
    tiers = _parse_tiers(args.tiers, variables)
    _check_constraints(required, forbidden, tiers, args.max_parents)
    method, described = _choose_method(args, len(variables), len(data))
    _print_data(source, data, notes)
    print(f"learning the structure: {args.score} score, {described}", flush=True)
    start = time.perf_counter()
    search = _exact_search if method == "exact" else _hill_climb
    dag, local, score = search(args, data, required, forbidden, tiers)
    seconds = time.perf_counter() - start
    broken = _broken_constraints(dag, required, forbidden, tiers, args.max_parents)
    if broken:
        raise UserError(
            f"the {method} search returned a network that breaks the constraints ({broken}); "
            "please report this, and use --method exact meanwhile"
        )
    total = sum(local.values())
    print(f"edges ({dag.number_of_edges()}): {_edges_text(dag)}")
    print(f"{args.score} score: {total:.4f}")
    summary = {
        "command": "learn",
        "data": source,
        "data_notes": notes,
        "n_samples": len(data),
        "variables": variables,
        "score": args.score,
        "score_parameters": _score_parameters(score),
        "method": method,
        "optimal": method == "exact",
        "search": described,
        "max_parents": args.max_parents,
        "required": [list(e) for e in required],
        "forbidden": [list(e) for e in forbidden],
        "tiers": tiers,
        "seed": args.seed,
        "edges": [list(e) for e in sorted(dag.edges())],
        "total_score": float(total),
        "local_scores": local,
        "seconds": seconds,
    }
    model = None
    if args.params != "none":
        from .evaluate import n_parameters

        model = _fit(dag, data, args.params, args.ess)
        summary["parameters"] = args.params
        summary["n_parameters"] = int(n_parameters(model))
        print(f"parameters: {args.params}, {summary['n_parameters']} free")
    if args.out:
        _write_network(model, dag, args.out, kind)
    return _finish(summary, args)


def cmd_score(args):
    if not args.model and not args.edges:
        raise UserError("give the network to score with --model FILE.bif or --edges A->B,B->C")
    _check_directory(args.json, "--json")
    model = _read_model(args.model) if args.model else None
    data, source, notes = _read_csv(args, use=list(model.nodes()) if model else None)
    dag = _structure(args, data, model)
    data = data[list(dag.nodes())]
    states = _declared_states(model, args.model, data, source) if model else None
    names = args.scores or ["fnml", "qnml", "bdeu", "bic"]
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
        "command": "score",
        "data": source,
        "data_notes": notes,
        "n_samples": len(data),
        "edges": [list(e) for e in sorted(dag.edges())],
        "score_parameters": {name: _score_parameters(s) for name, s in scores.items()},
        "local_scores": per_node,
        "total_scores": totals,
    }
    return _finish(summary, args)


def cmd_fit(args):
    from .evaluate import n_parameters

    if not args.model and not args.edges:
        raise UserError("give the structure with --model FILE.bif or --edges A->B,B->C")
    kind = _output_format(args.out)
    _check_directory(args.json, "--json")
    model = _read_model(args.model) if args.model else None
    data, source, notes = _read_csv(args, use=list(model.nodes()) if model else None)
    dag = _structure(args, data, model)
    fitted = _fit(dag, data, args.estimator, args.ess)
    _print_data(source, data, notes)
    print(f"network: {_edges_text(dag)}")
    print(f"parameters: {args.estimator}, {n_parameters(fitted)} free")
    summary = {
        "command": "fit",
        "data": source,
        "data_notes": notes,
        "n_samples": len(data),
        "edges": [list(e) for e in sorted(dag.edges())],
        "estimator": args.estimator,
        "estimator_parameters": {"ess": args.ess} if args.estimator == "bdeu" else {},
        "n_parameters": int(n_parameters(fitted)),
    }
    if args.out:
        _write_network(fitted, dag, args.out, kind)
    return _finish(summary, args)


def cmd_evaluate(args):
    from .evaluate import log_loss, n_parameters

    _check_directory(args.json, "--json")
    model = _read_model(args.model)
    data, source, notes = _read_csv(args, use=list(model.nodes()))
    _declared_states(model, args.model, data, source)
    base = 2 if args.bits else math.e
    unit = "bits" if args.bits else "nats"
    loss = log_loss(model, data, base=base)
    _print_data(source, data, notes, what="test data")
    print(f"log-loss: {loss:.4f} {unit} per row; {n_parameters(model)} free parameters")
    summary = {
        "command": "evaluate",
        "data": source,
        "data_notes": notes,
        "n_samples": len(data),
        "model": args.model,
        "log_loss": loss,
        "unit": unit,
        "n_parameters": int(n_parameters(model)),
    }
    return _finish(summary, args)


# -- parser -----------------------------------------------------------------------
class _Parser(argparse.ArgumentParser):
    """argparse, with every error on one line (exit code 2)."""

    def error(self, message):
        message = " ".join(message.split())
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


_DATA_EPILOG = (
    "Data files: one column per variable, one row per sample, a header of unique names; "
    "the delimiter (, ; tab | space) is detected. Cells NA, NaN, ? and empty cells are "
    "missing values: such rows are refused unless --dropna drops them. R's row-names "
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


def _ess_arg(parser):
    parser.add_argument(
        "--ess",
        type=_positive_float,
        default=1.0,
        help="equivalent sample size (> 0) of the BDeu-type scores and estimator (default 1)",
    )


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

    learn = sub.add_parser(
        "learn",
        help="learn a network (structure and parameters) from data",
        description="Learn a network's structure, then its parameters, from a CSV file.",
        epilog=_DATA_EPILOG,
    )
    _data_args(learn)
    search = learn.add_argument_group("structure search")
    search.add_argument("--score", choices=SCORE_NAMES, default="fnml", help="default fnml")
    search.add_argument(
        "--method",
        choices=["auto", "exact", "hill"],
        default="auto",
        help=f"exact search (globally optimal) or hill climbing (heuristic); auto: exact up "
        f"to {AUTO_EXACT_MAX_VARIABLES} variables",
    )
    search.add_argument(
        "--max-parents",
        type=_non_negative_int,
        default=None,
        metavar="K",
        help="largest number of parents of a variable (default: no limit)",
    )
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
    search.add_argument(
        "--seed",
        type=_non_negative_int,
        metavar="N",
        help="hill climbing breaks ties between equally good moves in a variable order "
        "drawn from this seed (default: the column order); the exact search has no "
        "randomness. Every run with the same data and options gives the same network",
    )
    learn.add_argument(
        "--params",
        choices=[*ESTIMATORS, "none"],
        default="fsnml",
        help="parameter estimator (default fsnml)",
    )
    _ess_arg(learn)
    learn.add_argument(
        "--out", metavar="FILE", help="write the network: .bif, .xml (XMLBIF) or .dot (structure)"
    )
    learn.add_argument("--json", metavar="FILE", help="write a JSON summary")
    learn.set_defaults(func=cmd_learn)

    score = sub.add_parser(
        "score",
        help="score a given network, per node and in total",
        description="Score a given network on data, per node and in total.",
        epilog=_DATA_EPILOG,
    )
    _data_args(score)
    score.add_argument("--model", metavar="BIF", help="the network (.bif or .xml)")
    score.add_argument("--edges", action="append", metavar="A->B[,C->D]", help="or its edges")
    score.add_argument(
        "--scores", nargs="+", choices=SCORE_NAMES, help="default: fnml qnml bdeu bic"
    )
    _ess_arg(score)
    score.add_argument("--json", metavar="FILE", help="write a JSON summary")
    score.set_defaults(func=cmd_score)

    fit = sub.add_parser(
        "fit",
        help="fit the parameters of a given structure",
        description="Fit the parameters of a given structure.",
        epilog=_DATA_EPILOG,
    )
    _data_args(fit)
    fit.add_argument("--model", metavar="BIF", help="the structure (.bif or .xml)")
    fit.add_argument("--edges", action="append", metavar="A->B[,C->D]", help="or its edges")
    fit.add_argument("--estimator", choices=ESTIMATORS, default="fsnml", help="default fsnml")
    _ess_arg(fit)
    fit.add_argument(
        "--out", metavar="FILE", help="write the network: .bif, .xml (XMLBIF) or .dot (structure)"
    )
    fit.add_argument("--json", metavar="FILE", help="write a JSON summary")
    fit.set_defaults(func=cmd_fit)

    evaluate = sub.add_parser(
        "evaluate",
        help="log-loss of a fitted network on test data",
        description="Average negative log-probability of test rows under a fitted network.",
        epilog=_DATA_EPILOG,
    )
    _data_args(evaluate, "the test data")
    evaluate.add_argument("--model", metavar="BIF", required=True, help="the fitted network")
    evaluate.add_argument("--bits", action="store_true", help="report bits instead of nats")
    evaluate.add_argument("--json", metavar="FILE", help="write a JSON summary")
    evaluate.set_defaults(func=cmd_evaluate)
    return parser


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
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            args.func(args)
    except (UserError, ValueError, MemoryError, OSError) as err:
        print(f"{prog}: error: {' '.join(str(err).split())}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{prog}: interrupted", file=sys.stderr)
        return 130
    except Exception as err:  # a bug: still one line, with what to report
        words = " ".join(str(err).split())
        print(
            f"{prog}: internal error ({type(err).__name__}: {words}); please report it with "
            f"the command: {shlex.join(['pgmpy-nml', *(sys.argv[1:] if argv is None else argv)])}",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
