"""``pgmpy-nml learn``: a network's structure, then its parameters; ``--bootstrap B``
adds arc strengths and the averaged network."""

from __future__ import annotations

import shlex
import sys
import time
from typing import TYPE_CHECKING

from .._sparse import sparse_families, sparse_text
from . import _outputs
from ._argtypes import delimiter_text, limit_text
from ._cuts import read_study_data
from ._errors import UserError
from ._report import edges_text, table
from ._requests import LearnRequest, ReadRequest, learn_request
from ._scores import (
    check_missing_scores,
    estimator_label,
    fit,
    make_score,
    score_parameters,
)
from ._scores import estimator as _estimator
from ._search import Plan, announce, make_search, plan_search, run_exact, run_local

if TYPE_CHECKING:
    import argparse

    import pandas as pd

    from ._inputs import Data


def cmd_learn(args: argparse.Namespace) -> dict:
    return learn(learn_request(args))


def learn(request: LearnRequest) -> dict:
    """Read, search, fit, write: the whole command."""
    _outputs.check_outputs(request.write, request.read.inputs())
    data = read_study_data(request.read)
    if request.read.missing == "available":
        check_missing_scores(data, [request.search.score], "--score")
    _outputs.check_names(request.write.get("--out"), data.states)
    em = request.read.missing == "em" and bool(data.frame.isna().to_numpy().any())
    # searched many times over: each resample, each structure step of structural EM
    plan = plan_search(request.search, data.variables, repeated=bool(request.bootstrap) or em)
    data.print()
    if em:
        score = None
        dag, summary, model = _learn_by_em(request, plan, data)
    else:
        score = make_score(request.search.score, data, request.search.ess)
        dag, summary = _learn_structure(plan, score, data)
    summary = {**data.summary("learn"), "missing": request.read.missing, **summary}
    summary["sparse_families"] = _sparse_note(dag, data, request)
    if data.cut_points:
        summary["cut_points"] = data.cut_points
    averaged = None
    if request.bootstrap:
        summary["bootstrap"], averaged = _bootstrap(request, plan, score, data, dag)
    if request.params != "none":
        from ..evaluate import n_parameters

        label = estimator_label(request.params, request.search.score, request.search.ess)
        if em:
            label += f", by EM over {summary['em']['n_missing']} missing cells"
        else:
            model = fit(dag, data, request.params, request.search.ess, request.search.score)
        summary["parameters"] = label
        summary["n_parameters"] = int(n_parameters(model))
        print(f"parameters: {summary['parameters']}, {summary['n_parameters']} free")
    else:
        model = None
    _write_networks(request, (model, dag), averaged, data, em)
    if request.bootstrap:  # which file holds which of the two networks
        summary["bootstrap"]["networks_written"] = {
            "learned": request.write.path("--out"),
            "averaged": request.write.path("--out-averaged"),
        }
    return _outputs.finish(summary, request.write)


def _learn_structure(plan: Plan, score, data: Data):
    """Run the search; the learned DAG and the summary's fields about it."""
    request = plan.request
    announce(plan, f"learning the structure: {request.score} score")
    start = time.perf_counter()
    if plan.exact:
        dag, proof, search_info = run_exact(plan, score, data.frame)
    else:
        dag, proof, search_info = run_local(plan, score, data.frame, sys.stderr.isatty())
    seconds = time.perf_counter() - start
    broken = plan.knowledge.broken(dag, plan.max_parents)
    if broken:
        raise UserError(
            f"the {plan.kind} search returned a network that breaks the constraints ({broken}); "
            "please report this, and use --method exact meanwhile"
        )
    local = {v: float(score.local_score(v, tuple(sorted(dag.predecessors(v))))) for v in dag}
    total = sum(local.values())
    print(f"edges ({dag.number_of_edges()}): {edges_text(dag)}")
    print(f"{request.score} score: {total:.4f} ({proof}; {seconds:.1f} s)")
    for members in search_info.get("interchangeable", []):
        print(
            f"note: {', '.join(map(str, members))} are interchangeable (swapping them leaves "
            "every score as it is, as duplicated columns do): each ordering of them gives a "
            "network as good as this one, which keeps them in column order"
        )
    summary = {
        "variables": data.variables,
        "score": request.score,
        "score_parameters": score_parameters(score),
        "method": plan.kind,
        "max_parents": plan.max_parents,
        **search_info,  # a local search's max_parents: the limit its own rule chose
        "search": plan.described,
        "required": [list(e) for e in plan.knowledge.required],
        "forbidden": [list(e) for e in plan.knowledge.forbidden],
        "tiers": plan.knowledge.tiers,
        "seed": request.seed,
        "edges": [list(e) for e in sorted(dag.edges())],
        "total_score": float(total),
        "local_scores": local,
        "seconds": seconds,
    }
    return dag, summary


def _cv_command(request: LearnRequest, smaller: int) -> str:
    """The ``cv`` command that compares this run's parent limit with ``smaller``: on its
    data file, read as it was read, with its score and search method (``cv`` has no
    --require, --forbid or --tiers)."""
    search = request.search
    words = ["pgmpy-nml", "cv", *_data_flags(request.read), "--scores", search.score]
    if search.ess != 1:
        words += ["--ess", f"{search.ess:g}"]
    if search.method != "auto":
        words += ["--method", search.method]
    words += ["--max-parents", limit_text(search.max_parents), str(smaller)]
    return "`" + " ".join(shlex.quote(word) for word in words) + "`"


def _data_flags(read: ReadRequest) -> list[str]:
    """The data file and the flags that read it as ``read`` did, as words of a ``cv``
    command (which has no ``--states-from``: its fits use the states the file shows)."""
    words = [] if read.path is None else [read.path]
    if read.delimiter is not None:
        words += ["--delimiter", delimiter_text(read.delimiter)]
    if read.na_values is not None:
        words += ["--na-values", ",".join(read.na_values)]
    words += {"drop": ["--dropna"], "error": []}.get(read.missing, ["--missing", read.missing])
    for flag, columns in [
        ("--drop-columns", read.drop_columns),
        ("--discrete", read.discrete),
        ("--discretize-columns", read.discretize_columns),
    ]:
        if columns:
            words += [flag, ",".join(columns)]
    if read.discretize is not None:
        words += ["--discretize", f"{read.discretize[0]}:{read.discretize[1]}"]
    return words


def _sparse_note(dag, data: Data, request: LearnRequest) -> list[dict]:
    """Print a note on the families with more parent configurations than rows (the
    library's SparseFamilyWarning, said as a note), with the ``cv`` command that compares
    this run's ``--max-parents`` with a smaller one; the summary's list of them."""
    from ..models import state_counts

    n_rows = len(data.frame)
    families = sparse_families(dag, state_counts(data.frame, data.variables, data.states), n_rows)
    if families:
        most = len(families[0].parents)
        fewer = (
            "compare the held-out log-loss with a smaller parent limit: "
            + _cv_command(request, min(most - 1, 2))
            if most > 1
            else "a parent with more states than rows is close to an identifier: "
            "consider --drop-columns or --discretize"
        )
        guide = "docs: scores guide, 'Small samples'"
        print(f"note: {sparse_text(families, n_rows)}; {fewer} ({guide})")
    return [
        {"variable": f.variable, "parents": list(f.parents), "configurations": f.configurations}
        for f in families
    ]


def _learn_by_em(request: LearnRequest, plan: Plan, data: Data):
    """``--missing em``: structure and parameters by structural EM, the planned search in
    each structure step; the DAG, the summary's fields and the fitted network (None with
    ``--params none``)."""
    from ..scores import get_score_spec
    from ..search import StructuralEM

    name = request.search.score
    params = {}
    if "equivalent_sample_size" in get_score_spec(name).params:
        params["equivalent_sample_size"] = request.search.ess
    estimator = "auto" if request.params == "auto" else None
    if request.params not in ("auto", "none"):
        estimator = _estimator(request.params, request.search.ess)
    sem = StructuralEM(
        name,
        method=make_search(plan, name, False),
        score_params=params or None,
        state_names=data.states or None,
        parameter_estimator=estimator,
        random_state=0 if plan.request.seed is None else plan.request.seed,
        n_jobs=plan.request.n_jobs,
        show_progress=True,
    )
    missing = int(data.frame.isna().to_numpy().sum())
    print(
        f"learning the structure: {name} score by structural EM over {missing} missing cells "
        f"(up to {sem.max_iter} iterations, {sem.n_init} chains; valid when values are "
        "missing at random)",
        flush=True,
    )
    announce(plan, "  each structure step")
    start = time.perf_counter()
    sem.fit(data.frame)
    seconds = time.perf_counter() - start
    dag = sem.causal_graph_
    print(f"edges ({dag.number_of_edges()}): {edges_text(dag)}")
    state = "converged" if sem.converged_ else f"stopped after {sem.max_iter} iterations"
    print(
        f"{name} score: {sem.score_:.4f} (its average over the last completions; "
        f"structural EM {state} after {sem.n_iter_} iterations, observed-data "
        f"log-likelihood {sem.log_likelihood_:.4f}; {seconds:.1f} s)"
    )
    summary = {
        "variables": data.variables,
        "score": name,
        "score_parameters": {"ess": request.search.ess} if params else {},
        "method": plan.kind,
        "optimal": False,
        "search": f"structural EM; each structure step: {plan.described}",
        "max_parents": plan.max_parents,
        "required": [list(e) for e in plan.knowledge.required],
        "forbidden": [list(e) for e in plan.knowledge.forbidden],
        "tiers": plan.knowledge.tiers,
        "seed": plan.request.seed,
        "edges": [list(e) for e in sorted(dag.edges())],
        "total_score": float(sem.score_),
        "em": {
            "n_missing": missing,
            "iterations": int(sem.n_iter_),
            "converged": bool(sem.converged_),
            "log_likelihood": float(sem.log_likelihood_),
        },
        "seconds": seconds,
    }
    return dag, summary, sem.model_


def _write_networks(request: LearnRequest, learned, averaged, data: Data, em: bool) -> None:
    """Stage ``--out`` (the learned network: ``(fitted model, dag)``) and
    ``--out-averaged`` (the bootstrap's averaged DAG)."""
    model, dag = learned
    out = request.write.get("--out")
    if out is not None:
        what = "network"
        if request.bootstrap:  # two networks: say which one this is
            what = "learned network"
            if request.write.get("--out-averaged") is None:
                what += " (not the averaged one: --out-averaged FILE writes that)"
        _outputs.write_network(model, dag, out, what)
    out_averaged = request.write.get("--out-averaged")
    if out_averaged is not None:
        fitted = None
        if request.params != "none":
            fitted = fit(
                averaged, data, request.params, request.search.ess, request.search.score, em
            )
        what = (
            f"averaged network ({averaged.number_of_edges()} arcs of strength above "
            f"{averaged.graph['threshold']:.3f})"
        )
        _outputs.write_network(fitted, averaged, out_averaged, what)


def _bootstrap(request: LearnRequest, plan: Plan, score, data: Data, dag):
    """``learn --bootstrap B``: arc strengths over B resamples with the same search."""
    from ..scores import get_score_spec
    from ..study import LearningProcedure, averaged_network, bootstrap_strength

    if score is None:  # --missing em: the procedure builds the score on each completion
        name = plan.request.score
        params = {}
        if "equivalent_sample_size" in get_score_spec(name).params:
            params["equivalent_sample_size"] = plan.request.ess
        procedure = LearningProcedure(
            make_search(plan, name, False), scoring_method=name, score_params=params
        )
    else:
        procedure = LearningProcedure(make_search(plan, score, False))
    seed = 0 if plan.request.seed is None else plan.request.seed
    kind = "half-size subsamples without replacement" if request.subsample else "resamples"
    print(f"bootstrap: learning {request.bootstrap} {kind} (seed {seed})", flush=True)
    print(f"  each: {plan.described}; {plan.limits_text()}", flush=True)
    if not request.subsample and plan.request.score == "fnml":
        print(
            "  note: a bootstrap resample repeats about a third of its rows, and fnml fits "
            "repeated rows with extra parents; --subsample avoids repeats"
        )
    start = time.perf_counter()
    # an equivalence class may hold DAGs that break required or forbidden edges: with
    # constraints, count the DAGs the search returned
    strength: pd.DataFrame = bootstrap_strength(  # return_networks=False: the frame alone
        data.frame,
        method=procedure,
        n_bootstrap=request.bootstrap,
        replace=not request.subsample,
        random_state=seed,
        cpdag=False if plan.knowledge else "auto",
        state_names=data.states or None,
        missing=request.read.missing if request.read.missing in ("available", "em") else "error",
        show_progress=True,
    )
    seconds = time.perf_counter() - start
    averaged = averaged_network(strength)
    _print_strength(request.bootstrap, strength, dag, averaged, seconds)
    info = {
        "n_resamples": request.bootstrap,
        "replace": not request.subsample,
        "sample_size": strength.attrs["sample_size"],
        "seed": seed,
        "threshold": strength.attrs["threshold"],
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


def _print_strength(n_resamples: int, strength, dag, averaged, seconds: float) -> None:
    """The bootstrap's table of arcs, with whether the learned and averaged networks have them."""
    threshold = strength.attrs["threshold"]
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
        f"bootstrap strength over {n_resamples} resamples ({seconds:.1f} s); threshold "
        f"{threshold:.3f} (Scutari-Nagarajan); "
        + ("equivalence classes counted" if strength.attrs["cpdag"] else "DAGs counted")
    )
    if rows:
        print(table(["arc", "strength", "direction", "learned", "averaged"], rows))
        print(
            "  learned, averaged: yes = the network has this arc; reversed = it has the arc "
            "the other way; blank = neither"
        )
    print(f"averaged network ({averaged.number_of_edges()} edges): {edges_text(averaged)}")


def _arc_in(graph, u, v):
    """``"yes"`` if ``graph`` has the arc ``u->v``, ``"reversed"`` if it has ``v->u``, else None."""
    if graph.has_edge(u, v):
        return "yes"
    return "reversed" if graph.has_edge(v, u) else None
