"""The ``pgmpy-nml`` command-line tool.

Subcommands: ``learn`` (structure, then parameters), ``score`` (a given network,
several scores side by side), ``fit`` (parameters of a given structure) and
``evaluate`` (log-loss of a fitted network on test data). Every command reads
CSV files (all columns as strings, one row per sample) and writes files that
pgmpy reads back: BIF networks and a JSON summary. Without ``--data`` the bundled
example data set is used, so ``pgmpy-nml`` alone shows the main job.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import warnings
from pathlib import Path

__all__ = ["main"]

SCORE_NAMES = ["fnml", "qnml", "bd", "min-bdeu", "max-bdeu", "bdeu", "k2", "bic", "aic", "ll"]
ESTIMATORS = ["fsnml", "mle", "bdeu", "k2"]


class UserError(Exception):
    """A mistake in the command line or the files: one line, exit code 2."""


# -- input ------------------------------------------------------------------------
def _read_csv(path):
    import pandas as pd

    from .datasets import load_example_data

    if path is None:
        return load_example_data(), "bundled example data (3000 rows of the survey network)"
    file = Path(path)
    if not file.is_file():
        raise UserError(f"no such data file: {path}")
    try:
        data = pd.read_csv(file, dtype=str, keep_default_na=False, na_values=[""])
    except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError) as err:
        raise UserError(f"cannot read {path} as CSV: {err}") from None
    for column in data.columns:
        numbers = pd.to_numeric(data[column], errors="coerce")
        fractional = numbers[numbers.notna() & (numbers != numbers.round())]
        if numbers.notna().all() and len(fractional):
            examples = ", ".join(data[column][fractional.index[:3]])
            raise UserError(
                f"column {column!r} of {path} looks continuous (values such as {examples}); "
                "the scores are for discrete data: discretize it first"
            )
    return data, str(path)


def _read_model(path):
    from pgmpy.readwrite import BIFReader, XMLBIFReader

    file = Path(path)
    if not file.is_file():
        raise UserError(f"no such network file: {path}")
    try:
        if file.suffix.lower() in (".xml", ".xmlbif"):
            return XMLBIFReader(str(file)).get_model()
        return BIFReader(str(file)).get_model()
    except Exception as err:  # pgmpy's parsers raise many kinds
        raise UserError(f"cannot read the network {path}: {err}") from None


def _parse_edges(specs, variables):
    edges = []
    for spec in specs or []:
        for item in spec.split(","):
            item = item.strip()
            if not item:
                continue
            if "->" not in item:
                raise UserError(f"edge {item!r} is not of the form PARENT->CHILD")
            u, v = (x.strip() for x in item.split("->", 1))
            for node in (u, v):
                if node not in variables:
                    raise UserError(f"edge {item!r} names {node!r}, which is not a data column")
            edges.append((u, v))
    return edges


def _structure(args, data):
    """A DAG from --model (BIF) or --edges."""
    from pgmpy.base import DAG

    if args.model:
        model = _read_model(args.model)
        missing = [v for v in model.nodes() if v not in data.columns]
        if missing:
            raise UserError(f"the network's nodes {missing} are not columns of the data")
        dag = DAG(model.edges())
        dag.add_nodes_from(model.nodes())
        return dag
    dag = DAG(_parse_edges(args.edges, list(data.columns)))
    dag.add_nodes_from(data.columns)
    return dag


def _score(name, data, ess):
    from .scores import get_score_spec, make_score

    params = {}
    if "equivalent_sample_size" in get_score_spec(name).params:
        params["equivalent_sample_size"] = ess
    return make_score(name, data, **params)


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


# -- output -----------------------------------------------------------------------
def _write_bif(model, path):
    from pgmpy.readwrite import BIFWriter, XMLBIFWriter

    if Path(path).suffix.lower() in (".xml", ".xmlbif"):
        XMLBIFWriter(model).write_xmlbif(str(path))
    else:
        BIFWriter(model).write_bif(str(path))


def _finish(summary, args):
    """Write the JSON summary if asked; return the summary."""
    if args.json:
        Path(args.json).write_text(
            json.dumps(summary, indent=2, default=float) + "\n", encoding="utf-8"
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
    from pgmpy.causal_discovery import ExpertKnowledge

    from .search import find_structure

    data, source = _read_csv(args.data)
    variables = list(data.columns)
    required = _parse_edges(args.require, variables)
    forbidden = _parse_edges(args.forbid, variables)
    score = _score(args.score, data, args.ess)
    method = args.method
    if method == "auto":
        method = "exact" if len(variables) <= 20 else "hill"
    print(f"data: {source}; {len(data)} rows, {len(variables)} variables")
    print(f"learning the structure: {args.score} score, {method} search", flush=True)
    knowledge = ExpertKnowledge(required_edges=required, forbidden_edges=forbidden)
    start = time.perf_counter()
    dag = find_structure(
        score,
        data,
        method,
        max_parents=args.max_parents,
        expert_knowledge=knowledge if (required or forbidden) else None,
        show_progress=sys.stderr.isatty(),
    )
    seconds = time.perf_counter() - start
    local = {v: float(score.local_score(v, tuple(sorted(dag.predecessors(v))))) for v in dag}
    total = sum(local.values())
    print(f"edges ({dag.number_of_edges()}): {_edges_text(dag)}")
    print(f"{args.score} score: {total:.4f}")
    summary = {
        "command": "learn",
        "data": source,
        "n_samples": len(data),
        "variables": variables,
        "score": args.score,
        "method": method,
        "max_parents": args.max_parents,
        "edges": [list(e) for e in sorted(dag.edges())],
        "total_score": float(total),
        "local_scores": local,
        "seconds": seconds,
    }
    if args.params != "none":
        from .evaluate import n_parameters

        model = _fit(dag, data, args.params, args.ess)
        summary["parameters"] = args.params
        summary["n_parameters"] = n_parameters(model)
        print(f"parameters: {args.params}, {summary['n_parameters']} free")
        if args.out:
            _write_bif(model, args.out)
            print(f"network written to {args.out}")
    elif args.out:
        raise UserError("--out writes a fitted network: drop --params none, or use --json")
    return _finish(summary, args)


def cmd_score(args):
    data, source = _read_csv(args.data)
    if not args.model and not args.edges:
        raise UserError("give the network to score with --model FILE.bif or --edges A->B,B->C")
    dag = _structure(args, data)
    data = data[list(dag.nodes())]
    names = args.scores or ["fnml", "qnml", "bdeu", "bic"]
    scores = {name: _score(name, data, args.ess) for name in names}
    nodes = list(data.columns)
    per_node = {
        name: {v: float(s.local_score(v, tuple(sorted(dag.predecessors(v))))) for v in nodes}
        for name, s in scores.items()
    }
    totals = {name: sum(values.values()) for name, values in per_node.items()}
    print(f"data: {source}; {len(data)} rows; network: {_edges_text(dag)}")
    rows = [
        [v, ",".join(sorted(dag.predecessors(v))) or "-"] + [f"{per_node[n][v]:.3f}" for n in names]
        for v in nodes
    ]
    rows.append(["total", ""] + [f"{totals[n]:.3f}" for n in names])
    print(_table(["node", "parents", *names], rows))
    summary = {
        "command": "score",
        "data": source,
        "n_samples": len(data),
        "edges": [list(e) for e in sorted(dag.edges())],
        "local_scores": per_node,
        "total_scores": totals,
    }
    return _finish(summary, args)


def cmd_fit(args):
    from .evaluate import n_parameters

    data, source = _read_csv(args.data)
    if not args.model and not args.edges:
        raise UserError("give the structure with --model FILE.bif or --edges A->B,B->C")
    dag = _structure(args, data)
    model = _fit(dag, data, args.estimator, args.ess)
    print(f"data: {source}; {len(data)} rows; network: {_edges_text(dag)}")
    print(f"parameters: {args.estimator}, {n_parameters(model)} free")
    summary = {
        "command": "fit",
        "data": source,
        "n_samples": len(data),
        "edges": [list(e) for e in sorted(dag.edges())],
        "estimator": args.estimator,
        "n_parameters": n_parameters(model),
    }
    if args.out:
        _write_bif(model, args.out)
        print(f"network written to {args.out}")
    return _finish(summary, args)


def cmd_evaluate(args):
    from .evaluate import log_loss, n_parameters

    data, source = _read_csv(args.data)
    model = _read_model(args.model)
    base = 2 if args.bits else math.e
    unit = "bits" if args.bits else "nats"
    loss = log_loss(model, data, base=base)
    print(f"test data: {source}; {len(data)} rows")
    print(f"log-loss: {loss:.4f} {unit} per row; {n_parameters(model)} free parameters")
    summary = {
        "command": "evaluate",
        "data": source,
        "n_samples": len(data),
        "model": args.model,
        "log_loss": loss,
        "unit": unit,
        "n_parameters": n_parameters(model),
    }
    return _finish(summary, args)


# -- parser -----------------------------------------------------------------------
def build_parser():
    parser = argparse.ArgumentParser(
        prog="pgmpy-nml",
        description="NML-family scores, fsNML parameters and exact structure learning for "
        "discrete Bayesian networks (a pgmpy plugin). Without a command: learn a network "
        "from the bundled example data.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def data_arg(p, what="the data"):
        p.add_argument(
            "--data", metavar="CSV", help=f"CSV file of {what} (default: bundled example data)"
        )

    def ess_arg(p):
        p.add_argument(
            "--ess",
            type=float,
            default=1.0,
            help="equivalent sample size for BDeu-type scores and estimators (default 1)",
        )

    learn = sub.add_parser("learn", help="learn a network (structure and parameters) from data")
    data_arg(learn)
    learn.add_argument("--score", choices=SCORE_NAMES, default="fnml", help="default fnml")
    learn.add_argument(
        "--method",
        choices=["auto", "exact", "hill"],
        default="auto",
        help="exact search (optimal; auto up to 20 variables) or hill climbing",
    )
    learn.add_argument("--max-parents", type=int, default=None, metavar="K")
    learn.add_argument("--require", action="append", metavar="A->B[,C->D]", help="required edges")
    learn.add_argument("--forbid", action="append", metavar="A->B[,C->D]", help="forbidden edges")
    learn.add_argument(
        "--params",
        choices=[*ESTIMATORS, "none"],
        default="fsnml",
        help="parameter estimator (default fsnml)",
    )
    ess_arg(learn)
    learn.add_argument("--out", metavar="BIF", help="write the fitted network (.bif or .xml)")
    learn.add_argument("--json", metavar="FILE", help="write a JSON summary")
    learn.set_defaults(func=cmd_learn)

    score = sub.add_parser("score", help="score a given network, per node and in total")
    data_arg(score)
    score.add_argument("--model", metavar="BIF", help="the network (.bif or .xml)")
    score.add_argument("--edges", action="append", metavar="A->B[,C->D]", help="or its edges")
    score.add_argument(
        "--scores", nargs="+", choices=SCORE_NAMES, help="default: fnml qnml bdeu bic"
    )
    ess_arg(score)
    score.add_argument("--json", metavar="FILE", help="write a JSON summary")
    score.set_defaults(func=cmd_score)

    fit = sub.add_parser("fit", help="fit the parameters of a given structure")
    data_arg(fit)
    fit.add_argument("--model", metavar="BIF", help="the structure (.bif or .xml)")
    fit.add_argument("--edges", action="append", metavar="A->B[,C->D]", help="or its edges")
    fit.add_argument("--estimator", choices=ESTIMATORS, default="fsnml", help="default fsnml")
    ess_arg(fit)
    fit.add_argument("--out", metavar="BIF", help="write the fitted network (.bif or .xml)")
    fit.add_argument("--json", metavar="FILE", help="write a JSON summary")
    fit.set_defaults(func=cmd_fit)

    evaluate = sub.add_parser("evaluate", help="log-loss of a fitted network on test data")
    data_arg(evaluate, "the test data")
    evaluate.add_argument("--model", metavar="BIF", required=True, help="the fitted network")
    evaluate.add_argument("--bits", action="store_true", help="report bits instead of nats")
    evaluate.add_argument("--json", metavar="FILE", help="write a JSON summary")
    evaluate.set_defaults(func=cmd_evaluate)
    return parser


def main(argv=None):
    """Run the command line; returns the exit code (0 success, 2 user error)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        print(
            "No command given: learning a network from the bundled example data "
            "(see pgmpy-nml --help)."
        )
        args = parser.parse_args(["learn"])
    from .search import ExactSearchMemoryError

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            args.func(args)
    except (UserError, ValueError, ExactSearchMemoryError, OSError) as err:
        print(f"pgmpy-nml {args.command}: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"pgmpy-nml {args.command}: interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
