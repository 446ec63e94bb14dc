"""Globally optimal Bayesian network structures by dynamic programming over subsets."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np

from .._estimator import feature_names, fitted_attribute
from .._limits import ASTAR_MAX_VARIABLES, AUTO_EXACT_MAX_VARIABLES, SOLVER_DEFAULT_MAX_PARENTS
from .._memory import available_memory, format_bytes
from .._params import (
    EXACT_METHODS,
    EXPERT_KNOWLEDGE,
    METHODS,
    PARAMETER_ESTIMATOR,
    SCORING_METHOD,
    START_DAG,
    AnyOf,
    Boolean,
    Choice,
    GapLimit,
    Integer,
    MemorySize,
    NJobs,
    NoneOr,
    RandomState,
    TimeLimit,
    validate_params,
)
from .._progress import progress_bar
from .._validate import as_choice, as_integer, as_memory_size
from ..scores.registry import make_score
from ._base import _StructureSearch
from ._dp import _kernels
from ._dp.plans import make_plan, popcounts
from ._result import SearchResult
from .constraints import Constraints, check_start_dag

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    import pandas as pd
    from pgmpy.base import DAG
    from pgmpy.models import DiscreteBayesianNetwork
    from pgmpy.parameter_estimator import DiscreteParameterEstimator

    from .._typing import ExpertKnowledgeLike, Graph, Score, ScoringMethod, StateNames

__all__ = [
    "EXACT_MAX_VARIABLES",
    "ExactSearch",
    "ExactSearchMemoryError",
    "choose_exact",
    "find_structure",
    "learn_exact",
]

#: The subset DP keeps n * 2**(n-1) local scores: beyond this it is hopeless.
EXACT_MAX_VARIABLES = 31
#: method="auto" takes the A* search over the candidates up to this many variables and
#: SCIP's branch and cut above. Measured (benchmarks/bench_astar.py, 2026-11-24, max 3
#: parents): A* proved insurance, water and alarm (27-37 variables) with fNML, qNML and
#: BDeu(1-100) at N = 1000-10000 in 0.1-19 s against SCIP's 0.5-289 s (3 of them not
#: proven by SCIP in 300 s); its pattern database takes two groups of at most 20.
ASTAR_AUTO_MAX_VARIABLES = 40
#: method="auto" always takes the subset DP up to this many variables (well under a second).
DP_ALWAYS_MAX_VARIABLES = 15


def choose_exact(n_vars: int, method: str = "auto", max_parents="auto") -> tuple:
    """The exact method and the parent limit for ``n_vars`` variables: one policy for
    :class:`ExactSearch` and the command line.

    - ``method="auto"``: the subset DP up to 15 variables; up to 20
      (:data:`~pgmpy_nml._limits.AUTO_EXACT_MAX_VARIABLES`) when no parent limit
      applies (``max_parents`` ``None`` or ``"auto"``); above, the A* search over
      the candidate parent sets up to 40 variables (:data:`ASTAR_AUTO_MAX_VARIABLES`;
      SCIP's branch and cut takes over, from A*'s best network, if A* runs out of
      memory) and SCIP's branch and cut beyond.
    - ``max_parents="auto"``: no limit for the DP, 3
      (:data:`~pgmpy_nml._limits.SOLVER_DEFAULT_MAX_PARENTS`) for the solver and
      for ``"astar"`` (the A* search over the same candidates).

    Returns
    -------
    (method, max_parents) : (str, int or None)

    Examples
    --------
    >>> from pgmpy_nml.search.exact import choose_exact
    >>> choose_exact(12), choose_exact(36), choose_exact(18, max_parents=2)
    (('dp', None), ('astar', 3), ('astar', 2))
    >>> choose_exact(56)
    ('solver', 3)
    """
    as_choice(method, "method", ("auto", "dp", "solver", "astar"))
    auto_limit = isinstance(max_parents, str)
    if auto_limit:
        as_choice(max_parents, "max_parents", ("auto",))
    elif max_parents is not None:
        max_parents = as_integer(max_parents, "max_parents")
    if method == "auto":
        small = n_vars <= DP_ALWAYS_MAX_VARIABLES
        unlimited = (auto_limit or max_parents is None) and n_vars <= AUTO_EXACT_MAX_VARIABLES
        if small or unlimited:
            method = "dp"
        else:
            method = "astar" if n_vars <= ASTAR_AUTO_MAX_VARIABLES else "solver"
    if method == "dp" and n_vars > EXACT_MAX_VARIABLES:
        raise ValueError(
            f"The subset dynamic programming handles at most {EXACT_MAX_VARIABLES} "
            f"variables (it keeps n * 2**(n-1) local scores); the data has {n_vars}. Use "
            "method='solver' (with a parent limit, max_parents=3 say) or a local search."
        )
    if method == "astar" and n_vars > ASTAR_MAX_VARIABLES:
        raise ValueError(
            f"The A* search handles at most {ASTAR_MAX_VARIABLES} variables (sets of "
            f"variables are bits of a 64-bit integer); the data has {n_vars}. Use "
            "method='solver'."
        )
    if auto_limit:
        max_parents = None if method == "dp" else SOLVER_DEFAULT_MAX_PARENTS
    return method, max_parents


class ExactSearchMemoryError(MemoryError):
    """The run would need more memory than allowed; nothing was allocated."""


def memory_estimate(n_vars: int, n_stats: int, n_samples: int, n_threads: int) -> dict:
    """Peak bytes of each part of an exact search on ``n_vars`` variables."""
    subsets = 2**n_vars
    parent_sets = 2 ** max(n_vars - 1, 0)
    return {
        "subset statistics": subsets * (n_stats + 1) * 8,
        "local scores and best parent sets": n_vars * parent_sets * (8 + 4),
        "best sinks": subsets * 9,
        "working arrays": parent_sets * (2 * n_stats * 8 + 3 * 8 + 2)
        + n_threads * n_vars * n_samples * 8 * 2,
    }


#: Seconds (on one core, roughly) of one best-parent-set step (a parent set times a
#: member) and one best-sink step (a subset times a member), for the progress bar.
_COST_PARENT_STEP, _COST_SINK_STEP = 2e-9, 2e-9


class ExactSearch(_StructureSearch):
    r"""Globally optimal DAG for a decomposable score: subset DP, or integer programming.

    Two exact methods, chosen by ``method``:

    - ``"dp"``, dynamic programming over variable subsets (Silander and
      Myllymäki [1]_): (1) local scores of every variable for every parent set,
      (2) the best parent set of every variable within every candidate set, (3)
      the best sink of every variable subset, (4) the optimal order and the
      network. :math:`O(n^2 2^n)` time and :math:`O(n 2^n)` memory whatever the
      data: fast up to about 20 variables, impossible beyond 26-30.
    - ``"solver"``, for real networks of 30-60 variables: the parent sets that can
      be optimal (:func:`pgmpy_nml.search.candidates.candidate_parent_sets`: every
      admissible set scored once, in bulk, skipping supersets that each score's
      proven bound rules out, and dropping sets a subset dominates), then the
      best DAG over them by branch and cut on SCIP (GOBNILP's integer program,
      :mod:`pgmpy_nml.search.candidates._solver`). Anytime: with ``time_limit`` it returns the
      best network found, a proven upper bound (``bound_``) and the relative gap
      (``gap_``; 0 when proven optimal, see ``optimal_``). Use a parent limit
      (``max_parents=3`` is usual): without one, the candidates are bounded by
      the scores' bounds alone.
    - ``"astar"``: the same candidates, then best-first (A*) search over the
      order graph (URLearning's, :mod:`pgmpy_nml.search.candidates._astar`), at most 63
      variables; anytime like the solver, ``time_limit`` and ``gap_limit`` apply
      and ``max_memory`` caps its tables (it stops, with the gap, when full).
    - ``"auto"`` (default): the DP up to 15 variables, and up to 20 without a
      parent limit; A* up to 40 variables (branch and cut goes on from its best
      network if A* runs out of memory) and the solver beyond, by default with
      at most 3 parents per variable (``max_parents="auto"``, the command line's
      rule too: :func:`choose_exact`).

    For every score with a contract (:mod:`pgmpy_nml.scores.contract`: this
    package's FNML, QNML, BDeu and BDConstant, and pgmpy's BDeu, K2, BIC, AIC and
    LogLikelihood, from both the ``pgmpy.structure_score`` and the legacy
    ``pgmpy.estimators`` APIs), each variable subset is counted once, in
    compiled code on all cores, and the local scores follow from per-subset
    statistics (e.g. ``fNML(v | P) = H(P + v) - H(P) - sum_j log C(r_v, N_j)``).
    Any other decomposable score (Min-BDeu, Max-BDeu, your own) is evaluated
    family by family through its ``local_score`` with joblib, whose Dask or
    Ray backends (``joblib.parallel_config``) can spread it over a cluster.
    ``plan_`` says which path a run took.

    A scikit-learn estimator, like pgmpy's ``pgmpy.causal_discovery`` searches:
    ``get_params``, ``set_params`` and ``sklearn.base.clone`` work, every parameter
    after ``scoring_method`` is keyword-only and checked when ``fit`` starts
    (whichever method then runs), and ``fit`` sets ``causal_graph_``,
    ``n_features_in_`` and ``feature_names_in_``.

    Parameters
    ----------
    scoring_method : str or score object, default "fnml"
        A score instance built on the data to learn from (its data and state
        names are used), or a name of :func:`pgmpy_nml.scores.score_names`
        (``"fnml"``, ``"qnml"``, ``"bdeu"``, ``"bd"``, ``"k2"``, ``"min-bdeu"``,
        ``"max-bdeu"``, ``"bic-d"``, ``"aic-d"``, ``"ll-d"``, ``"bds"``; aliases
        ``"bic"``, ``"aic"``, ``"ll"``, ``"bdj"``) with its default parameters.
    method : {"auto", "dp", "astar", "solver"}, default "auto"
        See above; ``method_`` says which ran. With ``max_parents="auto"``,
        ``"auto"`` takes the DP up to 20 variables, A* up to 40 and the solver
        beyond (:func:`choose_exact`).
    max_parents : int, None or "auto", default "auto"
        Largest parent set considered; ``None`` for no limit. ``"auto"`` (the
        command line's default too): no limit when the subset DP runs, and
        ``3`` (GOBNILP's default, :data:`SOLVER_DEFAULT_MAX_PARENTS`) when the
        solver runs, whose candidate parent sets are otherwise bounded by the
        scores' bounds alone and can exhaust the memory on 30-60 variables.
        ``max_parents_`` says which limit applied. For the DP, a limit cuts the
        counting work; the memory of the search itself does not shrink.
    expert_knowledge : pgmpy.causal_discovery.ExpertKnowledge or dict, optional
        Required edges, forbidden edges, a search space (white list of edges)
        and temporal tiers (no edge from a later tier to an earlier one); a dict
        holds ``ExpertKnowledge``'s arguments.
    parameter_estimator : pgmpy DiscreteParameterEstimator, optional
        If given (e.g. :class:`~pgmpy_nml.FSNMLEstimator`), the learned
        structure is fitted and returned in ``model_``. It gets the score's
        declared states (``state_names``) unless it declares its own, so states
        declared for learning are states of the fitted model.
    max_memory : int or float, optional
        Bytes the run may use; by default 90% of the memory available when
        ``fit`` starts. A run that needs more is refused before allocating.
    n_jobs : int or None, default -1
        Threads for the compiled phases and workers for the generic path: -1 all
        cores, -2 all but one, None one (scikit-learn's meaning).
    show_progress : bool, default True
        Progress on a terminal: one bar for the DP, its phases weighted by their
        cost; for the solver, the scoring levels, then the incumbent, the bound
        and the gap.
    time_limit : float, optional
        Seconds for the solver (scoring included); without it (or with ``inf``)
        the solver runs until the network is proven optimal. The DP, which
        cannot stop early, checks it and ignores it.
    start_dag : pgmpy DAG, networkx DiGraph, dict or list of edges, optional
        A first network for the solver (for instance a local search's result):
        a DAG over the data's variables, ``{child: parents}`` or a list of
        ``(parent, child)`` edges; the required edges are added, and it must be
        acyclic and within the constraints. Each family is replaced by its best
        candidate subset. The DP checks it and ignores it.
    gap_limit : float, default 0
        The solver stops once ``(bound - score) / |score|`` is at most this
        (0: proven optimal). The DP checks it and ignores it.
    random_state : int, numpy Generator or None, default 0
        The solver's random seed (SCIP's seed shift; None: SCIP's default, a
        Generator: one draw from it). The DP checks it and ignores it.

    Attributes
    ----------
    causal_graph_ : pgmpy.base.DAG
        The optimal structure, with every variable as a node.
    dag_ : pgmpy.base.DAG
        The same, under the package's earlier name.
    score_ : float
        Its score (the sum of its local scores).
    model_ : pgmpy.models.DiscreteBayesianNetwork
        The fitted network, when ``parameter_estimator`` was given.
    timings_ : dict
        Seconds spent in each phase.
    memory_estimate_ : int or None
        Bytes the DP was estimated to need (None for the solver).
    plan_ : str
        ``"statistics"`` (subsets counted in bulk) or ``"generic"`` (``local_score``).
    method_ : str
        ``"dp"``, ``"solver"``, ``"astar"``, or ``"astar+solver"`` when
        ``method="auto"``'s A* ran out of memory and branch and cut went on from
        its best network (``bound_`` is then the smaller of the two proven bounds).
    max_parents_ : int or None
        The parent limit that applied (see ``max_parents="auto"``).
    bound_ : float
        A proven upper bound on the optimal score (``score_`` when optimal).
    gap_ : float
        ``(bound_ - score_) / |score_|``: 0 when proven optimal.
    optimal_ : bool
        ``gap_ == 0``.
    candidates_ : CandidateParentSets or None
        The solver's candidate parent sets (write them in GOBNILP's format with
        ``candidates_.to_file(path)``).
    pruning_ : PruningReport or None
        Candidates per variable after pruning, and the scoring times.
    n_features_in_ : int
        The number of columns of the data.
    feature_names_in_ : ndarray of object
        The data's columns, in order.

    Notes
    -----
    Both methods are deterministic: the same data and settings give the same
    DAG. Among equally scoring networks, the DP prefers, within a candidate set,
    the parent set with fewer parents (then the first met in subset order), and
    among equally good sinks the variable that comes first in the search's
    internal order (decreasing empirical entropy for the bulk path, which makes
    counting cheaper; the data's column order otherwise, and among equal
    entropies). The solver keeps, per variable, only parent sets strictly better
    than all their subsets (so it too never adds a parent that does not improve
    the score) and returns the optimum SCIP's deterministic branch and cut meets
    first; where several networks tie, the two methods may return different
    ones, with the same score. A solver run cut short by ``time_limit`` depends
    on the machine's speed.

    Examples
    --------
    >>> from pgmpy_nml import ExactSearch, FSNMLEstimator
    >>> from pgmpy_nml.datasets import sample_network
    >>> true_model, data = sample_network("earthquake", 5000, random_state=0)
    >>> search = ExactSearch("fnml", parameter_estimator=FSNMLEstimator(), show_progress=False)
    >>> search = search.fit(data)
    >>> sorted(search.dag_.edges()) == sorted(true_model.edges())
    True
    >>> search.model_.check_model()
    True

    References
    ----------
    .. [1] T. Silander, P. Myllymäki. "A simple approach for finding the globally
       optimal Bayesian network structure". UAI 2006.
    """

    _parameter_specs = {
        "scoring_method": SCORING_METHOD,
        "method": Choice(EXACT_METHODS),
        "max_parents": AnyOf(
            Choice(("auto",)), NoneOr(Integer()), what="a non-negative integer, None or 'auto'"
        ),
        "expert_knowledge": EXPERT_KNOWLEDGE,
        "parameter_estimator": PARAMETER_ESTIMATOR,
        "max_memory": NoneOr(MemorySize()),
        "n_jobs": NJobs(),
        "show_progress": Boolean(),
        "time_limit": TimeLimit(),
        "start_dag": START_DAG,
        "gap_limit": GapLimit(),
        "random_state": RandomState(),
    }

    def __init__(
        self,
        scoring_method: ScoringMethod = "fnml",
        *,
        method: str = "auto",
        max_parents: int | str | None = "auto",
        expert_knowledge: ExpertKnowledgeLike | None = None,
        parameter_estimator: DiscreteParameterEstimator | None = None,
        max_memory: int | str | None = None,
        n_jobs: int | None = -1,
        show_progress: bool = True,
        time_limit: float | None = None,
        start_dag: Graph | None = None,
        gap_limit: float = 0.0,
        random_state: int | None = 0,
    ) -> None:
        self.scoring_method = scoring_method
        self.method = method
        self.max_parents = max_parents
        self.expert_knowledge = expert_knowledge
        self.parameter_estimator = parameter_estimator
        self.max_memory = max_memory
        self.n_jobs = n_jobs
        self.show_progress = show_progress
        self.time_limit = time_limit
        self.start_dag = start_dag
        self.gap_limit = gap_limit
        self.random_state = random_state

    causal_graph_ = fitted_attribute("dag", "pgmpy.base.DAG: the optimal structure.")
    score_ = fitted_attribute("score", "float: its score, the sum of its local scores.")
    timings_ = fitted_attribute("timings", "dict: seconds spent in each phase.")
    memory_estimate_ = fitted_attribute(
        "memory_estimate", "int: bytes the run was estimated to need."
    )
    plan_ = fitted_attribute(
        "plan", 'str: "statistics" (bulk counting) or "generic" (family by family).'
    )
    method_ = fitted_attribute(
        "method",
        'str: "dp", "solver", "astar" or "astar+solver" (A* out of memory, then branch and '
        "cut), the method that ran.",
    )
    max_parents_ = fitted_attribute(
        "max_parents", "int or None: the parent limit that applied (None: no limit)."
    )
    bound_ = fitted_attribute("bound", "float: a proven upper bound on the optimal score.")
    gap_ = fitted_attribute("gap", "float: ``(bound_ - score_) / |score_|``; 0 when optimal.")
    optimal_ = property(
        lambda self: self.gap_ == 0.0, doc="bool: whether ``causal_graph_`` is proven optimal."
    )
    candidates_ = fitted_attribute(
        "candidates", "CandidateParentSets or None: the solver's candidate parent sets."
    )
    pruning_ = fitted_attribute(
        "pruning", "PruningReport or None: candidates per variable and the scoring times."
    )

    # -- the steps of fit -----------------------------------------------------------------
    def _memory_limit(self) -> float:
        if self.max_memory is None:
            return 0.9 * available_memory()
        return as_memory_size(self.max_memory, "max_memory")

    def _check_memory(self, plan, n_threads) -> int:
        n_vars = len(plan.variables)
        parts = memory_estimate(n_vars, plan.n_stats, plan.n_samples, n_threads)
        need = sum(parts.values())
        limit = self._memory_limit()
        if need > limit:
            detail = ", ".join(f"{name} {format_bytes(b)}" for name, b in parts.items())
            fewer = sum(memory_estimate(n_vars - 1, plan.n_stats, plan.n_samples, 1).values())
            raise ExactSearchMemoryError(
                f"ExactSearch on {n_vars} variables needs about {format_bytes(need)} ({detail}), "
                f"more than the limit of {format_bytes(limit)} (max_memory; by default 90% of the "
                f"memory available now). Each variable fewer halves the need ({n_vars - 1} "
                f"variables: about {format_bytes(fewer)}); raise max_memory only if that much "
                "will be free."
            )
        return int(need)

    def _progress(self, total):
        return progress_bar(
            self.show_progress,
            "exact search",
            total=total,
            leave=True,
            unit="",
            bar_format="{l_bar}{bar}| {percentage:3.0f}% [{elapsed}<{remaining}]",
        )

    def _optimal_network(self, plan, constraints, n_threads, timings):
        """Local scores, best parent sets, best sinks: the optimal parent set of every variable.

        One progress bar for the three phases, each weighted by its estimated cost.
        """
        n_vars = len(plan.variables)
        k = constraints.max_parents
        cost = {
            "local scores": plan.cost(k) / n_threads,
            "best parent sets": _COST_PARENT_STEP * n_vars * 2 ** (n_vars - 2) * (n_vars - 1),
            "best sinks": _COST_SINK_STEP * 2**n_vars * n_vars,
        }
        per_unit = cost["local scores"] / max(plan.work(k), 1)
        with self._progress(sum(cost.values())) as bar:
            n_jobs = 1 if self.n_jobs is None else self.n_jobs
            ls = plan.local_scores(
                k, n_threads, n_jobs, lambda done: bar.update(done * per_unit), timings
            )
            start = time.perf_counter()
            _apply_constraints(ls, constraints)
            best = np.empty(ls.shape, dtype=np.int32)
            for v0 in range(0, n_vars, n_threads):
                block = slice(v0, v0 + n_threads)
                best[block] = _kernels.best_parent_sets_all(ls[block])
                bar.update(cost["best parent sets"] * len(best[block]) / n_vars)
            timings["best parent sets"] = time.perf_counter() - start
            start = time.perf_counter()
            network_score, sink = _kernels.best_sinks(ls)
            bar.update(cost["best sinks"])
            timings["best sinks"] = time.perf_counter() - start
        full = (1 << n_vars) - 1
        if not np.isfinite(network_score[full]):
            raise ValueError(
                "No DAG satisfies the constraints: the required edges form a cycle, or a "
                "variable needs more required parents than max_parents allows."
            )
        return float(network_score[full]), _parents_from_sinks(sink, best, n_vars)

    def _settings(self, params: dict, variables) -> dict:
        """The parameters (checked at ``fit`` entry, whichever method then runs), with the
        method and the constraints chosen, and the start network checked, for the data."""
        settings = dict(params)
        method, max_parents = choose_exact(
            len(variables), settings["method"], settings["max_parents"]
        )
        constraints = Constraints.from_knowledge(variables, max_parents, self.expert_knowledge)
        start_dag = settings["start_dag"]
        settings.update(
            method=method,
            max_parents=max_parents,
            constraints=constraints,
            seed=_solver_seed(settings["random_state"]),
            start_dag=None if start_dag is None else check_start_dag(start_dag, constraints),
        )
        return settings

    def _fit_dp(self, score, settings, timings) -> tuple:
        plan = make_plan(score)
        variables = plan.variables
        constraints = Constraints.from_knowledge(
            variables, settings["max_parents"], self.expert_knowledge
        )
        n_threads = self._threads()
        need = self._check_memory(plan, n_threads)
        total, parents = self._optimal_network(plan, constraints, n_threads, timings)
        from pgmpy.base import DAG

        dag = DAG()
        dag.add_nodes_from(variables)
        for v, members in enumerate(parents):
            dag.add_edges_from((variables[u], variables[v]) for u in members)
        return dag, total, total, need, plan.kind, None, None

    def _fit_solver(self, score, settings, timings) -> tuple:
        from .candidates import candidate_parent_sets, solve

        time_limit = settings["time_limit"]
        start = time.perf_counter()
        candidates, report = candidate_parent_sets(
            score,
            max_parents=settings["max_parents"],
            expert_knowledge=self.expert_knowledge,
            n_jobs=self.n_jobs,
            show_progress=self.show_progress,
        )
        timings["candidate parent sets"] = time.perf_counter() - start
        if time_limit is not None:
            time_limit = max(time_limit - timings["candidate parent sets"], 1e-3)
        start_dag = settings["start_dag"]
        initial = None if start_dag is None else _initial_choice(candidates, start_dag)
        start = time.perf_counter()
        result = None
        if settings["method"] == "astar":
            from .candidates._astar import astar

            max_memory = None if self.max_memory is None else self._memory_limit()
            result = astar(
                candidates,
                time_limit=time_limit,
                initial=initial,
                show_progress=self.show_progress,
                gap_limit=settings["gap_limit"],
                max_memory=max_memory,
            )
            timings["astar"] = time.perf_counter() - start
            if result.status != "memorylimit" or self.method != "auto":
                return (
                    result.to_dag(),
                    result.score,
                    result.bound,
                    None,
                    report.plan,
                    candidates,
                    report,
                )
            # "auto": A* ran out of memory; branch and cut goes on from its best network
            settings["method"] = "astar+solver"
            initial = result.parents
            if time_limit is not None:
                time_limit = max(time_limit - timings["astar"], 1e-3)
        start = time.perf_counter()
        solved = solve(
            candidates,
            time_limit=time_limit,
            initial=initial,
            show_progress=self.show_progress,
            gap_limit=settings["gap_limit"],
            random_state=settings["seed"],
        )
        timings["solver"] = time.perf_counter() - start
        bound = solved.bound
        if result is not None:  # both bounds are proven: the smaller holds
            bound = max(solved.score, min(bound, result.bound))
        return solved.to_dag(), solved.score, bound, None, report.plan, candidates, report

    def fit(self, data: pd.DataFrame | None = None) -> ExactSearch:
        """Learn the optimal structure.

        Parameters
        ----------
        data : pandas.DataFrame, optional
            The data to learn from. May be omitted when ``scoring_method`` is a
            score object (its data are used); if given, it must be the data the
            score was built on.

        Returns
        -------
        self
        """
        self._result = None
        params = validate_params(self)  # every parameter, whatever method then runs
        score = self._resolve_score(data)
        settings = self._settings(params, list(score.variables))
        method, max_parents = settings["method"], settings["max_parents"]
        timings = {}
        try:
            fit = self._fit_dp if method == "dp" else self._fit_solver
            dag, total, bound, need, plan, candidates, report = fit(score, settings, timings)
        except KeyboardInterrupt:
            raise KeyboardInterrupt("ExactSearch interrupted; nothing was fitted.") from None
        model = self._fitted_model(dag, score, data)
        gap = (bound - total) / max(abs(total), 1e-12) if bound > total else 0.0
        self._result = SearchResult(
            method=settings["method"],  # "astar+solver" when A* handed over to branch and cut
            dag=dag,
            score=total,
            model=model,
            timings=timings,
            plan=plan,
            max_parents=max_parents,
            bound=bound,
            gap=gap,
            memory_estimate=need,
            candidates=candidates,
            pruning=report,
            feature_names=feature_names(score.variables),
        )
        return self


def _solver_seed(random_state) -> int:
    """SCIP's seed shift from ``random_state``: the integer itself, 0 for None (SCIP's
    default), a draw from a numpy Generator or SeedSequence."""
    if random_state is None:
        return 0
    if isinstance(random_state, np.random.SeedSequence):
        return int(random_state.generate_state(1)[0] % 2**31)
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(2**31))
    return int(random_state) % 2**31


def _initial_choice(candidates, dag) -> dict:
    """A first network for the solver from ``dag``: each family by its best candidate subset.

    Dropping parents keeps a DAG acyclic, and a pruned family is dominated by a
    candidate subset of it, so the start is never worse than ``dag`` itself.
    """
    index = {v: i for i, v in enumerate(candidates.variables)}
    unknown = set(dag.nodes()) ^ set(index)
    if unknown:
        raise ValueError(
            f"start_dag must have exactly the data's variables; it differs in {sorted(unknown)!r}."
        )
    chosen = {}
    for v in candidates.variables:
        have = {index[u] for u in dag.predecessors(v)}
        subsets = [p for p in candidates.parent_sets[index[v]] if set(p) <= have]
        if not subsets:
            raise ValueError(
                f"start_dag gives {v!r} the parents {sorted(dag.predecessors(v))!r}, which break "
                "the constraints (a required parent is missing)."
            )
        chosen[v] = tuple(candidates.variables[u] for u in subsets[0])  # best first
    return chosen


def _parents_from_sinks(sink, best, n_vars) -> list[list[int]]:
    """The optimal parents of every variable, following the best sinks from the full set."""
    parents = [[] for _ in range(n_vars)]
    w = (1 << n_vars) - 1
    while w:
        s = int(sink[w])
        rest = w ^ (1 << s)
        c = (rest & ((1 << s) - 1)) | ((rest >> (s + 1)) << s)
        chosen = int(best[s, c])
        parents[s] = [b if b < s else b + 1 for b in range(n_vars - 1) if (chosen >> b) & 1]
        w = rest
    return parents


def _apply_constraints(ls, constraints) -> None:
    """-inf for parent sets that break the parent limit or the expert knowledge."""
    n_vars = ls.shape[0]
    too_big = popcounts(n_vars - 1) > constraints.max_parents
    forbidden, required = constraints.masks()
    for v in range(n_vars):
        row = ls[v]
        row[too_big] = -np.inf
        if forbidden[v] or required[v]:
            full = _kernels.expand_masks(n_vars, v)
            if forbidden[v]:
                row[(full & forbidden[v]) != 0] = -np.inf
            if required[v]:
                row[(full & required[v]) != required[v]] = -np.inf


def learn_exact(
    data: pd.DataFrame,
    scoring_method: ScoringMethod = "fnml",
    *,
    parameter_estimator: DiscreteParameterEstimator | None = None,
    state_names: StateNames | None = None,
    score_params: Mapping[str, Any] | None = None,
    **options: Any,
) -> DiscreteBayesianNetwork:
    """Learn the optimal network and fit its parameters in one call.

    Parameters
    ----------
    data : pandas.DataFrame
    scoring_method : str or score object, default "fnml"
    parameter_estimator : pgmpy DiscreteParameterEstimator, optional
        By default the score's own prior
        (:func:`~pgmpy_nml.models.default_parameter_estimator`): fsNML for fNML and
        qNML, the BDeu or BD Dirichlet prior for those scores, ...
    state_names : dict, optional
        Declared states, for a score given by name; they reach the fitted CPDs.
    score_params : dict, optional
        The parameters of a score given by name (e.g. ``{"equivalent_sample_size": 10}``).
    **options
        Any other :class:`ExactSearch` setting (``max_parents``,
        ``expert_knowledge``, ``show_progress``, ...).

    Returns
    -------
    pgmpy.models.DiscreteBayesianNetwork
        Fitted, ready for pgmpy's inference and sampling.

    Examples
    --------
    >>> from pgmpy_nml import learn_exact
    >>> from pgmpy_nml.datasets import sample_network
    >>> _, data = sample_network("cancer", 2000, random_state=1)
    >>> model = learn_exact(data, "qnml", show_progress=False)
    >>> type(model).__name__, model.check_model()
    ('DiscreteBayesianNetwork', True)
    """
    from ..models import default_parameter_estimator

    if isinstance(scoring_method, str):
        scoring_method = make_score(scoring_method, data, state_names, **(score_params or {}))
    elif state_names is not None or score_params:
        raise ValueError(
            "state_names and score_params are for a score given by name; a score object "
            "carries its own."
        )
    if parameter_estimator is None:
        parameter_estimator = default_parameter_estimator(scoring_method)
    search = ExactSearch(scoring_method, parameter_estimator=parameter_estimator, **options)
    return search.fit(data).model_


def find_structure(
    score: Score,
    data: pd.DataFrame | None,
    method: str = "auto",
    *,
    max_parents: int | None = None,
    expert_knowledge: ExpertKnowledgeLike | None = None,
    start_dag: Graph | None = None,
    show_progress: bool = False,
    **options: Any,
) -> DAG:
    """The best DAG for ``score``: an exact search, hill climbing or tabu search.

    The one place where the package's tools (command line, ESS, saturation)
    choose between the globally optimal :class:`ExactSearch` and the local
    search :class:`~pgmpy_nml.LocalSearch` (a local optimum, optionally started
    from ``start_dag``).

    Parameters
    ----------
    score : score object
        Built on ``data``.
    data : pandas.DataFrame
    method : {"auto", "dp", "astar", "solver", "hill", "tabu"}, default "auto"
        An exact method (:class:`ExactSearch`'s ``method``; ``"auto"`` chooses
        among them) or a local search (:class:`~pgmpy_nml.LocalSearch`'s).
    max_parents : int, optional
    expert_knowledge : pgmpy ExpertKnowledge, optional
    start_dag : pgmpy DAG, optional
        Local search only.
    show_progress : bool, default False
    **options
        Local search only: more :class:`~pgmpy_nml.LocalSearch` settings
        (``restarts``, ``perturb``, ``tabu_length``, ``max_non_improving``,
        ``random_state``, ``n_jobs``, ...).

    Returns
    -------
    pgmpy.base.DAG

    Examples
    --------
    >>> from pgmpy_nml import QNML
    >>> from pgmpy_nml.datasets import sample_network
    >>> from pgmpy_nml.search import find_structure
    >>> _, data = sample_network("cancer", 1000, random_state=0)
    >>> exact = find_structure(QNML(data), data)
    >>> hill = find_structure(QNML(data), data, "hill")
    >>> QNML(data).score(exact) >= QNML(data).score(hill) - 1e-9
    True
    """
    as_choice(method, "method", METHODS)
    if method in EXACT_METHODS:
        if options:
            raise ValueError(f"Options {sorted(options)} are for the local search, not {method!r}.")
        search = ExactSearch(
            score,
            method=method,
            max_parents=max_parents,
            expert_knowledge=expert_knowledge,
            show_progress=show_progress,
        )
        return search.fit(data).dag_
    from .local import LocalSearch

    search = LocalSearch(
        score,
        method=method,
        max_parents=max_parents,
        expert_knowledge=expert_knowledge,
        start_dag=start_dag,
        show_progress=show_progress,
        **options,
    )
    return search.fit(data).causal_graph_
