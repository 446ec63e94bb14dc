"""``pgmpy-nml learn``: a network's structure, then its parameters; ``--bootstrap B``
adds arc strengths and the averaged network."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from .._limits import EXACT_TIME_LIMIT
from ._common import (
    UserError,
    _check_missing_scores,
    _data_summary,
    _edges_text,
    _estimator_label,
    _fit,
    _missing_policy,
    _parse_edges,
    _print_data,
    _score,
    _score_parameters,
    _table,
)
from ._cuts import _read_study_data
from ._io import _check_directory, _check_out_names, _finish, _output_format, _write_network
from ._search import (
    _broken_constraints,
    _check_constraints,
    _check_time_limit,
    _choose_method,
    _knowledge,
    _make_search,
    _parse_tiers,
    _restarts,
)

if TYPE_CHECKING:
    import pandas as pd


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
    _check_constraints(variables, required, forbidden, tiers, args.max_parents)
    method, max_parents, described = _choose_method(args, len(variables))
    _check_time_limit(args, method)
    _print_data(source, data, notes)
    constraints = (required, forbidden, tiers)
    dag, score, summary = _learn_structure(args, data, method, max_parents, described, constraints)
    summary = {**_data_summary("learn", source, notes, data), **summary}
    if cut_points:
        summary["cut_points"] = cut_points
    averaged = None
    if args.bootstrap:
        summary["bootstrap"], averaged = _bootstrap(
            args, data, method, max_parents, score, *constraints, dag
        )
    model = None
    if args.params != "none":
        from ..evaluate import n_parameters

        model = _fit(dag, data, args.params, args.ess, score)
        summary["parameters"] = _estimator_label(args.params, score)
        summary["n_parameters"] = int(n_parameters(model))
        print(f"parameters: {summary['parameters']}, {summary['n_parameters']} free")
    _write_networks(args, (model, dag, kind), (averaged, averaged_kind), data, score)
    if args.bootstrap:  # which file holds which of the two networks
        summary["bootstrap"]["networks_written"] = {
            "learned": args.out,
            "averaged": args.out_averaged,
        }
    return _finish(summary, args)


def _learn_structure(args, data, method, max_parents, described, constraints):
    """Run the search; the learned DAG, its score and the summary's fields about it."""
    required, forbidden, tiers = constraints
    variables = list(data.columns)
    print(f"learning the structure: {args.score} score, {described}", flush=True)
    start = time.perf_counter()
    knowledge = _knowledge(required, forbidden, tiers)
    if method == "exact":
        dag, score, proof, search_info = _exact_search(args, data, knowledge, max_parents)
    else:
        dag, score, proof, search_info = _local_search(args, data, knowledge, max_parents, method)
    seconds = time.perf_counter() - start
    broken = _broken_constraints(dag, variables, required, forbidden, tiers, max_parents)
    if broken:
        raise UserError(
            f"the {method} search returned a network that breaks the constraints ({broken}); "
            "please report this, and use --method exact meanwhile"
        )
    local = {v: float(score.local_score(v, tuple(sorted(dag.predecessors(v))))) for v in dag}
    total = sum(local.values())
    print(f"edges ({dag.number_of_edges()}): {_edges_text(dag)}")
    print(f"{args.score} score: {total:.4f} ({proof}; {seconds:.1f} s)")
    for members in search_info.get("interchangeable", []):
        print(
            f"note: {', '.join(map(str, members))} are interchangeable (swapping them leaves "
            "every score as it is, as duplicated columns do): each ordering of them gives a "
            "network as good as this one, which keeps them in column order"
        )
    summary = {
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
    return dag, score, summary


def _write_networks(args, learned, averaged, data, score):
    """Stage ``--out`` (the learned network) and ``--out-averaged`` (the bootstrap's):
    ``learned`` is ``(fitted model, dag, format)``, ``averaged`` ``(dag, format)``."""
    model, dag, kind = learned
    if args.out:
        what = "network"
        if args.bootstrap:  # two networks: say which one this is
            what = "learned network"
            if not args.out_averaged:
                what += " (not the averaged one: --out-averaged FILE writes that)"
        _write_network(model, dag, args.out, kind, what)
    if args.out_averaged:
        averaged, averaged_kind = averaged
        fitted = None
        if args.params != "none":
            fitted = _fit(averaged, data, args.params, args.ess, score)
        what = (
            f"averaged network ({averaged.number_of_edges()} arcs of strength above "
            f"{averaged.graph['threshold']:.3f})"
        )
        _write_network(fitted, averaged, args.out_averaged, averaged_kind, what)


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


def _exact_search(args, data, knowledge, max_parents):
    from ..exceptions import SearchMemoryError

    score = _score(args.score, data, args.ess)
    # progress on stderr: a bar on a terminal, a line every 10 s in a log or a pipe
    search = _make_search(args, score, "exact", max_parents, knowledge, True)
    default_limit = args.time_limit is None
    search.set_params(time_limit=EXACT_TIME_LIMIT if default_limit else args.time_limit)
    try:
        search.fit(data)
    except SearchMemoryError as err:
        if err.limit_parameter != "max_memory":  # the pruning: only a smaller problem helps
            raise UserError(f"{err} Set --max-parents, or use --method tabu.") from None
        reason = " ".join(str(err).split()).replace("max_memory", "--max-memory")
        raise UserError(
            f"{reason} Allow more with --max-memory SIZE, set --max-parents (the exact solver "
            "handles a parent limit on many variables), or use --method tabu for a heuristic "
            "network."
        ) from None
    except MemoryError as err:
        raise UserError(f"{err} Set --max-parents, or use --method tabu.") from None
    gap = f"gap {100 * search.gap_:.3g}% to the bound {search.bound_:.4f}"
    if search.optimal_:
        proof = f"proven optimal ({search.method_})"
    elif search.status_ == "memorylimit":
        proof = (
            f"not proven optimal: {gap} when the search reached the memory available; "
            "lower --max-parents, or run where there is more memory"
        )
    elif default_limit:
        proof = (
            f"not proven optimal: {gap} when the default time limit of {EXACT_TIME_LIMIT:g} s "
            "ran out; search longer with --time-limit SECONDS (or --time-limit inf), or lower "
            "--max-parents"
        )
    else:
        proof = (
            f"not proven optimal: {gap} when --time-limit ran out; search longer with a larger "
            "--time-limit"
        )
    search_info = {
        "exact_method": search.method_,
        "status": search.status_,
        "optimal": bool(search.optimal_),
        "gap": float(search.gap_),
        "bound": float(search.bound_),
    }
    if search.pruning_ is not None:
        search_info["candidate_parent_sets"] = int(search.pruning_.n_kept.sum())
    if search.interchangeable_:
        search_info["interchangeable"] = [list(c) for c in search.interchangeable_]
    return search.causal_graph_, score, proof, search_info


def _local_search(args, data, knowledge, max_parents, method):
    score = _score(args.score, data, args.ess)
    restarts = _restarts(args)
    search = _make_search(
        args, score, method, max_parents, knowledge, sys.stderr.isatty(), restarts
    )
    search.fit(data)
    info = {"optimal": False, "restarts": restarts, "iterations": int(search.n_iter_)}
    return search.causal_graph_, score, "a local optimum (heuristic)", info


def _bootstrap(args, data, method, max_parents, score, required, forbidden, tiers, dag):
    """``learn --bootstrap B``: arc strengths over B resamples with the same search."""
    from ..study import LearningProcedure, averaged_network, bootstrap_strength

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
    strength: pd.DataFrame = bootstrap_strength(  # return_networks=False: the frame alone
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
    averaged = averaged_network(strength)
    _print_strength(args, strength, dag, averaged, seconds)
    info = {
        "n_resamples": args.bootstrap,
        "replace": not args.subsample,
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


def _print_strength(args, strength, dag, averaged, seconds):
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


def _arc_in(graph, u, v):
    """``"yes"`` if ``graph`` has the arc ``u->v``, ``"reversed"`` if it has ``v->u``, else None."""
    if graph.has_edge(u, v):
        return "yes"
    return "reversed" if graph.has_edge(v, u) else None
