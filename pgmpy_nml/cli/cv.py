"""``pgmpy-nml cv``: whole learning procedures (search, score, parameters) cross-validated
on the same splits and compared pairwise."""

from __future__ import annotations

import math
import time
import warnings
from dataclasses import replace
from typing import TYPE_CHECKING

from . import _outputs
from ._argtypes import limit_text
from ._cuts import read_study_data
from ._errors import UserError
from ._report import table
from ._requests import CvRequest, cv_request
from ._scores import check_missing_scores, estimator
from ._search import Plan, announce, make_search, plan_search

if TYPE_CHECKING:
    import argparse

    from ._inputs import Data


def cmd_cv(args: argparse.Namespace) -> dict:
    return cv(cv_request(args))


def cv(request: CvRequest) -> dict:
    _outputs.check_outputs(request.write, request.read.inputs())
    data = read_study_data(request.read)
    if request.target is not None and request.target not in data.variables:
        raise UserError(f"--target {request.target!r} is not a column of the data")
    plans = cv_plans(request, data.variables)
    plan = plans[request.limits[0]]  # the baseline's
    names = list(request.scores)
    if request.read.missing == "available":
        check_missing_scores(data, names, "--scores")
    procedures, described = _cv_procedures(request, plans)
    data.print()
    scheme = (
        (f"{request.folds} random hold-out splits" if request.hold_out else f"{request.folds}-fold")
        + (f", {request.runs} runs" if request.runs > 1 else "")
        + f", seed {request.seed}"
    )
    print(
        f"cross-validating {len(procedures)} procedure(s), parameters {request.params}; "
        f"{scheme}; "
        f"loss {request.loss}" + (f" of {request.target}" if request.target else ""),
        flush=True,
    )
    if request.read.missing == "em":
        print(
            "  each fit: structural EM on the training rows; test rows scored on their "
            "observed cells, the missing ones summed out",
            flush=True,
        )
    steps = " (its structure steps)" if request.read.missing == "em" else ""
    said = None
    for limit, each in plans.items():
        which = f" with --max-parents {limit_text(limit)}" if len(plans) > 1 else ""
        # the engine and limits lines once where they are the same for the next limit
        details = (each.kind, each.engine, each.limits_text())
        announce(each, "  each fit" + steps + which, details=details != said)
        said = details
    start = time.perf_counter()
    comparison, infinite = _compare(request, data, procedures)
    seconds = time.perf_counter() - start
    _print_comparison(request, comparison, infinite, seconds)
    summary_table = comparison.summary
    summary = {
        **data.summary("cv"),
        "method": plan.kind,
        "search": plan.described,
        "time_limit": plan.time_limit if plan.exact else None,
        "restarts": plan.restarts if not plan.exact else None,
        "scheme": "hold-out" if request.hold_out else "k-fold",
        "folds": request.folds,
        "runs": request.runs,
        "seed": request.seed,
        "loss": request.loss,
        "target": request.target,
        "missing": request.read.missing,
        "parameters": request.params,
        "baseline": comparison.baseline,
        "procedures": described,
        "summary": {
            name: {k: float(v) for k, v in r.items()} for name, r in summary_table.iterrows()
        },
        "losses": {name: r.folds["loss"].tolist() for name, r in comparison.results.items()},
        "seconds": seconds,
    }
    if data.cut_points:
        summary["cut_points"] = data.cut_points
    reasons = {
        f"{part}.{name}": note for name, note in infinite.items() for part in ("summary", "losses")
    }
    if infinite:  # another procedure's difference from an infinite baseline
        reasons["summary"] = " ".join(infinite.values())
    return _outputs.finish(summary, request.write, reasons)


def cv_plans(request: CvRequest, variables: list) -> dict[int | None, Plan]:
    """The search of each ``--max-parents`` value (a search run once a split); refuses
    two values that plan the same search (``default`` and the limit it stands for)."""
    plans: dict[int | None, Plan] = {}
    seen: dict[tuple, int | None] = {}
    for limit in request.limits:
        plan = plan_search(replace(request.search, max_parents=limit), variables, repeated=True)
        key = (plan.kind, plan.engine, _limit_used(plan, limit))
        if key in seen:
            raise UserError(
                f"--max-parents {limit_text(seen[key])} and {limit_text(limit)} are the same "
                f"search on these {len(variables)} variables ({plan.described}): give one"
            )
        seen[key] = limit
        plans[limit] = plan
    return plans


def cv_search(plan: Plan):
    """The search every split runs: a template with the plan's options (the procedures
    rebind its score); an exact one has the plan's time limit and shows its progress."""
    return make_search(plan, "fnml", show_progress=plan.exact, knowledge=False)


def _limit_used(plan: Plan, limit: int | None) -> int | str | None:
    """The parent limit a plan's search applies for the ``--max-parents`` value ``limit``
    (None: the default): the exact search's (None: no limit), or ``"auto"`` for a local
    search's own rule (a limit chosen on held-out rows where the rows are few)."""
    return plan.max_parents if plan.exact or limit is not None else "auto"


def _cv_procedures(request: CvRequest, plans: dict[int | None, Plan]):
    """One learning procedure per ``--scores`` name and ``--max-parents`` value (named by
    the score alone when there is one value), with ``--params`` and ``--ess``; and what
    each is, for the summary."""
    from ..scores import get_score_spec
    from ..study import LearningProcedure

    procedures, described = {}, {}
    for name in request.scores:
        params = {}
        if "equivalent_sample_size" in get_score_spec(name).params:
            params["equivalent_sample_size"] = request.search.ess
        for limit, plan in plans.items():
            label = name if len(plans) == 1 else f"{name} --max-parents {limit_text(limit)}"
            chosen = "auto"  # each procedure its own estimator, as its own search
            if request.params != "auto":
                chosen = estimator(request.params, request.search.ess)
            procedures[label] = LearningProcedure(
                cv_search(plan),
                scoring_method=name,
                score_params=params,
                parameter_estimator=chosen,
            )
            described[label] = {
                "score": name,
                "max_parents": _limit_used(plan, limit),
                "method": plan.kind,
                "search": plan.described,
            }
    return procedures, described


def _compare(request: CvRequest, data: Data, procedures):
    """Cross-validate the procedures; the comparison, and why a log-loss is infinite."""
    from ..evaluate import InfiniteLossWarning
    from ..study import compare_procedures

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", InfiniteLossWarning)
        comparison = compare_procedures(
            data.frame,
            procedures,
            scheme="hold-out" if request.hold_out else "k-fold",
            k=request.folds,
            runs=request.runs,
            test_size=request.test_size,
            loss=request.loss,
            target=request.target,
            random_state=request.seed,
            state_names=data.states or None,
            missing=_kept(request.read.missing),
            show_progress=True,
        )
    for warning in caught:  # other warnings go on to stderr as before
        if not issubclass(warning.category, InfiniteLossWarning):
            warnings.warn_explicit(
                warning.message, warning.category, warning.filename, warning.lineno
            )
    return comparison, _infinite_notes(comparison, caught, request.params)


def _print_comparison(request: CvRequest, comparison, infinite, seconds):
    """The table of the procedures' losses and their differences from the baseline."""
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
        for name, r in comparison.summary.iterrows()
    ]
    unit = "nats per test row" if request.loss == "log-loss" else "misclassified fraction"
    print(f"{request.loss} ({unit}; lower is better), {seconds:.1f} s:")
    print(
        table(
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


def _infinite_notes(comparison, caught, params: str):
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
                f"{params} allows probability 0; --params auto or fsnml keeps every "
                "probability positive."
            )
    return notes


def _kept(missing: str) -> str:
    """The study tools' policy for ``--missing``: incomplete rows kept (``available``,
    ``em``) or not there any more (``error``, and ``drop``, which the reading did)."""
    return missing if missing in ("available", "em") else "error"
