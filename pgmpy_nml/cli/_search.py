"""The structure search of ``learn`` and ``cv``, planned from a :class:`SearchRequest`: the
library's policy (:func:`~pgmpy_nml.search.choose_search`) and constraints, worded with
the flags, said up front (which engine, which limits, how to change them), and run."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .._limits import (
    AUTO_EXACT_MAX_VARIABLES,
    AUTO_REPEATED_RESTARTS,
    AUTO_RESTARTS,
    AUTO_SOLVER_MAX_VARIABLES,
    CANDIDATE_METHODS,
    EXACT_TIME_LIMIT,
    LOCAL_TIME_LIMIT,
)
from ._errors import UserError
from ._graphs import Knowledge, knowledge
from ._requests import SearchRequest

#: The exact engines in words (what ``choose_search`` picked).
ENGINES = {
    "dp": "dynamic programming over variable subsets",
    "astar": "A* over candidate parent sets (then branch and cut if A* runs out of memory)",
    "solver": "branch and cut (SCIP) over candidate parent sets",
    "astar|solver": "A* and branch and cut side by side on two cores, the first proof wins",
    "solver|solver": "two branch and cuts side by side on two cores, the first proof wins",
    "order|solver": "an order search for the network beside branch and cut for the bound",
}


@dataclass(frozen=True)
class Plan:
    """The search to run: ``kind`` (``"exact"``, ``"hill"`` or ``"tabu"``), the exact
    ``engine`` ``choose_search`` picked (None for a local search), the parent limit
    (None for a local search without ``--max-parents``: its own rule), the sentence that
    says what it is, the time limit (``math.inf``: none; ``default_limit``: the default
    one; for a local search, after which no restart begins), the restarts of a local
    search and the constraints."""

    kind: str
    engine: str | None
    max_parents: int | None
    described: str
    time_limit: float
    default_limit: bool
    restarts: int
    knowledge: Knowledge
    request: SearchRequest

    @property
    def exact(self) -> bool:
        return self.kind == "exact"

    def limits_text(self) -> str:
        """The limits of the search and the flags that change them, for the first lines."""
        if not self.exact:
            if not self.restarts:
                return "no time limit: a local search stops at its local optimum"
            if math.isinf(self.time_limit):
                return f"all {self.restarts} restarts run (no time limit)"
            whose = "the default; " if self.default_limit else ""
            return (
                f"no restart begins after {self.time_limit:g} s ({whose}--time-limit SECONDS, "
                "or inf, and --restarts N to change)"
            )
        if self.engine == "dp":
            return (
                "no time limit: the subset DP runs to the optimum, which takes seconds up "
                "to about 20 variables (a memory estimate refuses it before it starts if "
                "it would not fit)"
            )
        if math.isinf(self.time_limit):
            return "no time limit (--time-limit inf): runs until proven optimal"
        whose = "the default; " if self.default_limit else ""
        return (
            f"stops after {self.time_limit:g} s ({whose}--time-limit SECONDS, or inf, to "
            "change) with the best network found and a proven bound on the optimum"
        )


def _cores(request: SearchRequest) -> int:
    from .._validate import as_n_jobs

    return as_n_jobs(-1 if request.n_jobs is None else request.n_jobs, "--n-jobs")


def restarts(request: SearchRequest, repeated: bool = False) -> int:
    """Restarts of the local search (order-based: LocalSearch's default perturbation):
    ``--restarts``, else :data:`~pgmpy_nml._limits.AUTO_RESTARTS` when ``--method auto``
    climbs hills above its exact range (:data:`~pgmpy_nml._limits.AUTO_REPEATED_RESTARTS`
    for a search run many times over)."""
    if request.restarts is not None:
        return request.restarts
    if request.method != "auto":
        return 0
    return AUTO_REPEATED_RESTARTS if repeated else AUTO_RESTARTS


def _described(request: SearchRequest, choice, n_vars: int, n_restarts: int) -> str:
    """The sentence that says which search runs (``n_restarts``: a local search's)."""
    if not choice.exact and request.method == "auto":
        return (
            f"hill climbing with {n_restarts} order-based restarts (heuristic, not "
            f"optimal: {n_vars} variables are more than the {AUTO_SOLVER_MAX_VARIABLES} of "
            "--method auto's exact solver; --method exact tries it anyway)"
        )
    if not choice.exact:
        kind = "hill climbing" if choice.method == "hill" else "tabu search"
        if n_restarts:
            kind += f" with {n_restarts} order-based restarts"
        return f"{kind} (heuristic: a local optimum)"
    if choice.method == "dp" and choice.max_parents is None:
        return "exact search (globally optimal)"
    described = "exact search (proven optimal unless the time limit runs out)"
    if request.max_parents is None:
        whose = (
            f"--method {request.method}'s default"
            if request.method in CANDIDATE_METHODS
            else f"the default above {AUTO_EXACT_MAX_VARIABLES} variables"
        )
        described += (
            f", with at most {choice.max_parents} parents per variable ({whose}; set --max-parents)"
        )
    return described


def plan_search(request: SearchRequest, variables: list, repeated: bool = False) -> Plan:
    """The search for the data's ``variables``: the constraints parsed and checked, the
    method chosen by the library's policy, the time limit checked against it.
    ``repeated``: the search runs many times over (``cv``, ``--bootstrap``, ``--missing
    em``), where ``--method auto`` restarts a local search fewer times."""
    from ..search import choose_search

    constraints = knowledge(variables, request.require, request.forbid, request.tiers)
    constraints.check(request.max_parents)
    limit = "auto" if request.max_parents is None else request.max_parents
    choice = choose_search(len(variables), request.method, limit)
    kind = "exact" if choice.exact else choice.method
    n_restarts = 0 if choice.exact else restarts(request, repeated)
    if request.time_limit is not None and kind != "exact" and not n_restarts:
        raise UserError(
            f"--time-limit stops the exact search and the restarts of a local search, and "
            f"this run uses {kind} search without restarts (it stops at its local optimum): "
            "drop --time-limit, add --restarts N, or give --method exact"
        )
    default_time = EXACT_TIME_LIMIT if choice.exact else LOCAL_TIME_LIMIT
    engine = None
    if choice.exact:
        method = request.method if request.method in ("dp", *CANDIDATE_METHODS) else "exact"
        engine = choose_search(len(variables), method, limit, cores=_cores(request)).method
    return Plan(
        kind=kind,
        engine=engine,
        max_parents=choice.max_parents,
        described=_described(request, choice, len(variables), n_restarts),
        time_limit=default_time if request.time_limit is None else request.time_limit,
        default_limit=request.time_limit is None,
        restarts=n_restarts,
        knowledge=constraints,
        request=request,
    )


def exact_engine(request: SearchRequest) -> str:
    """``ExactSearch``'s ``method``: the engine ``--method`` names, else ``"auto"`` (the
    exact search chooses, as ``--method exact`` and ``auto`` promise)."""
    return request.method if request.method in ("dp", *CANDIDATE_METHODS) else "auto"


def announce(plan: Plan, what: str, details: bool = True) -> None:
    """The first lines of a search: what runs (``what`` says for what), the engine, its
    limits and the flags that change them (``details=False``: the first line alone, when
    the lines before said the rest)."""
    print(f"{what}: {plan.described}", flush=True)
    if not details:
        return
    if plan.exact:
        assert plan.engine is not None
        engine = ENGINES[plan.engine]
        if "|" in plan.engine and exact_engine(plan.request) == "auto":
            engine += (
                f"; when branch and cut's model over every candidate parent set would not "
                f"fit, {ENGINES['order|solver']}"
            )
        print(f"  engine: {engine} (--method to choose)", flush=True)
    print(f"  limits: {plan.limits_text()}", flush=True)


def make_search(plan: Plan, score, show_progress: bool, knowledge=True):
    """The estimator of the plan (an ``ExactSearch`` or a ``LocalSearch``) on ``score``;
    ``knowledge=False`` leaves the constraints out (a template the study tools rebind)."""
    from ..search import ExactSearch, LocalSearch

    request = plan.request
    expert = plan.knowledge.expert_knowledge() if knowledge else None
    if plan.exact:
        return ExactSearch(
            score,
            method=exact_engine(request),
            max_parents=plan.max_parents,
            expert_knowledge=expert,
            max_memory=request.max_memory,
            n_jobs=-1 if request.n_jobs is None else request.n_jobs,
            show_progress=show_progress,
            time_limit=None if math.isinf(plan.time_limit) else plan.time_limit,
        )
    return LocalSearch(
        score,
        method=plan.kind,
        # no --max-parents: the local search's own rule, a limit chosen on held-out rows
        # only where the rows are fewer than the variables (LocalSearch's "auto")
        max_parents="auto" if request.max_parents is None else plan.max_parents,
        expert_knowledge=expert,
        restarts=plan.restarts,
        time_limit=None if math.isinf(plan.time_limit) or not plan.restarts else plan.time_limit,
        perturb=request.perturb,
        tabu_length=request.tabu_length,
        random_state=0 if request.seed is None else request.seed,
        n_jobs=request.n_jobs,
        show_progress=show_progress,
    )


def run_exact(plan: Plan, score, frame) -> tuple:
    """The exact search on ``frame``: the DAG, the sentence on its proof and the summary's
    fields about the search."""
    from ..exceptions import SearchMemoryError

    # progress on stderr: a bar on a terminal, a line every 10 s in a log or a pipe
    search = make_search(plan, score, True)
    try:
        search.fit(frame)
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
    info = {
        "exact_method": search.method_,
        "status": search.status_,
        "optimal": bool(search.optimal_),
        "gap": float(search.gap_),
        "bound": float(search.bound_),
        "time_limit": plan.time_limit,
    }
    if search.pruning_ is not None:
        info["candidate_parent_sets"] = int(search.pruning_.n_kept.sum())
    if search.engines_:  # two engines: which found the network, which proved the bound
        info["engines"] = search.engines_
    if search.interchangeable_:
        info["interchangeable"] = [list(c) for c in search.interchangeable_]
    return search.causal_graph_, proof_text(plan, search), info


def proof_text(plan: Plan, search) -> str:
    """What the exact search proved, and how to go further when it stopped early."""
    gap = f"gap {100 * search.gap_:.3g}% to the bound {search.bound_:.4f}"
    if search.optimal_:
        return f"proven optimal ({search.method_})"
    if search.status_ == "memorylimit":
        return (
            f"not proven optimal: {gap} when the search reached the memory available; "
            "lower --max-parents, or run where there is more memory"
        )
    if plan.default_limit:
        return (
            f"not proven optimal: {gap} when the default time limit of {plan.time_limit:g} s "
            "ran out; search longer with --time-limit SECONDS (or --time-limit inf), or lower "
            "--max-parents"
        )
    return (
        f"not proven optimal: {gap} when --time-limit ran out; search longer with a larger "
        "--time-limit"
    )


def run_local(plan: Plan, score, frame, show_progress: bool) -> tuple:
    """The local search on ``frame``: the DAG, what it is and the summary's fields."""
    search = make_search(plan, score, show_progress)
    search.fit(frame)
    ran = len(search.restart_scores_) - 1  # the first search, then each restart
    info = {"optimal": False, "restarts": ran, "iterations": int(search.n_iter_)}
    info["max_parents"] = search.max_parents_
    what = "a local optimum (heuristic)"
    if plan.request.max_parents is None and search.max_parents_ is not None:
        what += (
            f"; at most {search.max_parents_} parent(s) per variable, chosen on held-out rows "
            "since the rows are fewer than the variables (--max-parents K sets it)"
        )
    if ran < plan.restarts:
        what += f"; {ran} of {plan.restarts} restarts ran before the {plan.time_limit:g} s limit"
    return search.causal_graph_, what, info
