"""``pgmpy-nml cv``: whole learning procedures (search, score, parameters) cross-validated
on the same splits and compared pairwise."""

from __future__ import annotations

import math
import time
import warnings

from ._common import (
    UserError,
    _check_missing_scores,
    _data_summary,
    _estimator,
    _missing_policy,
    _print_data,
    _table,
)
from ._cuts import _read_study_data
from ._io import _check_directory, _finish
from ._search import _check_time_limit, _choose_method, _exact_engine, _restarts


def cmd_cv(args):
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
    procedures = _cv_procedures(args, names, search, max_parents)
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
    comparison, infinite = _compare(args, data, procedures, seed)
    seconds = time.perf_counter() - start
    _print_comparison(args, comparison, infinite, seconds)
    table = comparison.summary
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
        "baseline": comparison.baseline,
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


def _cv_procedures(args, names, search, max_parents):
    """One learning procedure per ``--scores`` name, with ``--params`` and ``--ess``."""
    from ..scores import get_score_spec
    from ..study import LearningProcedure

    procedures = {}
    for name in names:
        params = {}
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
    return procedures


def _compare(args, data, procedures, seed):
    """Cross-validate the procedures; the comparison, and why a log-loss is infinite."""
    from ..evaluate import InfiniteLossWarning
    from ..study import compare_procedures

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
    return comparison, _infinite_notes(comparison, caught, args)


def _print_comparison(args, comparison, infinite, seconds):
    """The table of the procedures' losses and their differences from the baseline."""
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


def _number(value, spec):
    """A table cell: ``inf`` for an infinite value, ``n/a`` for an undefined one (nan)."""
    return "n/a" if math.isnan(value) else format(value, spec)


def _infinite_notes(comparison, caught, args):
    """Procedure -> why its cross-validated log-loss is infinite, and the way out."""
    from ..evaluate import InfiniteLossWarning

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
        engine = _exact_engine(args)  # "auto": the exact search chooses its engine
        if args.time_limit is None:
            return engine
        from ..search import ExactSearch

        return ExactSearch(
            "fnml",
            method=engine,
            max_parents=max_parents,
            time_limit=args.time_limit,
            show_progress=False,
        )
    restarts = _restarts(args)  # what _choose_method promises
    if not restarts:
        return method
    from ..search import LocalSearch

    return LocalSearch(
        "fnml",
        method=method,
        max_parents=max_parents,
        restarts=restarts,
        random_state=seed,
        show_progress=False,
    )
