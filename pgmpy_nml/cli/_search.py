"""The structure search of ``learn`` and ``cv`` from their flags: the library's policy
(:func:`~pgmpy_nml.search.choose_search`) and constraints
(:class:`~pgmpy_nml.search.constraints.Constraints`), worded with the flags."""

from __future__ import annotations

from .._limits import (
    AUTO_EXACT_MAX_VARIABLES,
    AUTO_RESTARTS,
    AUTO_SOLVER_MAX_VARIABLES,
    CANDIDATE_METHODS,
)
from ._common import UserError


def _parse_tiers(spec, variables):
    """``"A,S;E;O,R,T"`` -> ``[["A", "S"], ["E"], ["O", "R", "T"]]``."""
    if spec is None:
        return []
    tiers = [[v.strip() for v in tier.split(",") if v.strip()] for tier in spec.split(";")]
    tiers = [tier for tier in tiers if tier]
    seen: dict[str, int] = {}
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


def _check_constraints(variables, required, forbidden, tiers, max_parents):
    """Refuse contradictory constraints up front, whatever the search: the library's check
    (``Constraints.conflict``), worded with the flags."""
    if not required:  # nothing required: some network (the empty one) fits
        return
    from ..search.constraints import Constraints

    knowledge = _knowledge(required, forbidden, tiers)
    conflict = Constraints.unchecked(variables, max_parents, knowledge).conflict()
    if conflict is None:
        return
    if conflict.kind == "cycle":
        path = "->".join([conflict.edges[0][0], *(v for _, v in conflict.edges)])
        raise UserError(f"the required edges form a cycle ({path}): no network can have them all")
    if conflict.kind == "limit":
        v = conflict.edges[0][1]
        raise UserError(
            f"--require gives {v!r} {len(conflict.edges)} parents, more than "
            f"--max-parents {max_parents}"
        )
    ((u, v),) = conflict.edges
    if (u, v) in forbidden:
        raise UserError(f"the edge {u}->{v} is both required (--require) and forbidden (--forbid)")
    rank = {w: r for r, tier in enumerate(tiers) for w in tier}
    raise UserError(
        f"--require {u}->{v} goes against --tiers: {u!r} is in tier {rank[u] + 1}, "
        f"after {v!r} in tier {rank[v] + 1}"
    )


def _broken_constraints(dag, variables, required, forbidden, tiers, max_parents):
    """The constraints a learned DAG breaks, as text (empty if none): the library's
    ``Constraints.violations``."""
    from ..search.constraints import Constraints

    knowledge = _knowledge(required, forbidden, tiers)
    return "; ".join(Constraints.unchecked(variables, max_parents, knowledge).violations(dag))


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


def _choose_method(args, n_vars):
    """The search to run (``"exact"``, ``"hill"`` or ``"tabu"``), its parent limit, and the
    sentence that says what it is: the library's policy (``choose_search``) for
    ``--method`` and ``--max-parents`` (none given: its ``"auto"`` limit)."""
    from ..search import choose_search

    limit = "auto" if args.max_parents is None else args.max_parents
    choice = choose_search(n_vars, args.method, limit)
    if not choice.exact and args.method == "auto":
        return (
            choice.method,
            choice.max_parents,
            (
                f"tabu search with {_restarts(args)} random restarts "
                "(heuristic, not optimal: "
                f"{n_vars} variables are more than the {AUTO_SOLVER_MAX_VARIABLES} of --method "
                "auto's exact solver; --method exact tries it anyway)"
            ),
        )
    if not choice.exact:
        kind = "hill climbing" if choice.method == "hill" else "tabu search"
        if getattr(args, "restarts", None):
            kind += f" with {args.restarts} random restarts"
        return choice.method, choice.max_parents, f"{kind} (heuristic: a local optimum)"
    if choice.method == "dp" and choice.max_parents is None:
        return "exact", None, "exact search (globally optimal)"
    described = "exact search (proven optimal unless the time limit runs out)"
    if args.max_parents is None:
        whose = (
            f"--method {args.method}'s default"
            if args.method in CANDIDATE_METHODS
            else f"the default above {AUTO_EXACT_MAX_VARIABLES} variables"
        )
        described += (
            f", with at most {choice.max_parents} parents per variable ({whose}; set --max-parents)"
        )
    return "exact", choice.max_parents, described


def _exact_engine(args):
    """``ExactSearch``'s ``method``: the engine ``--method`` names, else ``"auto"`` (the
    exact search chooses, as ``--method exact`` and ``auto`` promise)."""
    return args.method if args.method in ("dp", *CANDIDATE_METHODS) else "auto"


def _restarts(args):
    """Random restarts of the local search: ``--restarts``, else 10 when ``--method auto``
    fell back to tabu search above its exact range (``cv`` has no ``--restarts``)."""
    given = getattr(args, "restarts", None)
    if given is not None:
        return given
    return AUTO_RESTARTS if args.method == "auto" else 0


def _make_search(args, score, method, max_parents, knowledge, show_progress, restarts=0):
    """The structure search of ``learn`` (``method``: ``"exact"``, ``"hill"`` or ``"tabu"``),
    with the search options of the command line; the bootstrap reruns the same one."""
    from ..search import ExactSearch, LocalSearch

    if method == "exact":
        return ExactSearch(
            score,
            method=_exact_engine(args),
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


def _check_time_limit(args, method):
    """``--time-limit`` stops the exact solver; refuse it where nothing would honour it."""
    if getattr(args, "time_limit", None) is not None and method != "exact":
        raise UserError(
            f"--time-limit stops the exact search, and this run uses {method} search (a "
            "local search has no time limit): drop --time-limit, or give --method exact"
        )
