"""Globally optimal Bayesian network structures: the :class:`ExactSearch` estimator.

A thin layer over its engines: the subset dynamic programming
(:mod:`pgmpy_nml.search._dp.dp`) and the candidate pipeline, candidate parent sets
then A* or SCIP's branch and cut (:mod:`pgmpy_nml.search.candidates._pipeline`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from .._compiling import announced
from .._estimator import feature_names, fitted_attribute
from .._memory import available_memory
from .._params import (
    EXACT_METHODS,
    EXPERT_KNOWLEDGE,
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
    scip_seed,
    validate_params,
)
from .._sparse import inner_fits
from .._validate import as_memory_size
from ..models import dag_from_parents
from ..scores.registry import make_score
from ._base import _StructureSearch
from ._dp.dp import check_memory, optimal_network
from ._dp.plans import make_plan
from ._policy import EXACT_MAX_VARIABLES, choose_search
from ._result import SearchResult
from .constraints import Constraints, check_start_dag

if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

    import pandas as pd
    from pgmpy.models import DiscreteBayesianNetwork
    from pgmpy.parameter_estimator import DiscreteParameterEstimator

    from .._typing import ExpertKnowledgeLike, Graph, ScoringMethod, StateNames

__all__ = [
    "EXACT_MAX_VARIABLES",
    "ExactSearch",
    "learn_exact",
]

#: restarts of the hill climbing that gives the engines their first network: as many as
#: its seconds allow (``_climb``)
_UNTIL_THE_TIME_LIMIT = 10**9


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
    - ``"astar|solver"``: A* and the solver side by side on two cores, the solver
      in a process of its own (:mod:`pgmpy_nml.search.candidates._portfolio`); the
      first proof wins and the other engine is stopped. When ``time_limit`` runs
      out first, the better network of the two and the smaller of their proven
      bounds.
    - ``"solver|solver"``: two solvers side by side the same way, the second with
      another random seed and a root cut loop that goes on while it finds cuts:
      branch and cut's time varies from seed to seed, and on networks too large to
      prove the deeper root often gives the better bound. From 100,000 candidates
      on, or 100 per variable (above 150 variables, only from 400,000 candidates
      on), the second prices its root instead: a Lagrangian
      bound over every family from an LP over a few thousand of them
      (:mod:`pgmpy_nml.search.candidates._pricing`), then branch and price. The first
      solver too when SCIP's model over every candidate would not fit in its share of
      the memory or in half the time limit (about 8 kB and 35 microseconds per candidate).
    - ``"order|solver"``: the memetic order search (:class:`~pgmpy_nml.OrderSearch`'s,
      MINOBS style) finds the networks while the solver of ``"solver|solver"`` that
      works on the bound first proves the bound: for many candidates, where an
      order search finds better networks than branch and cut and the bound comes
      from the second solver's pricing.
    - ``"auto"`` (default): the DP up to 15 variables, and up to 20 without a
      parent limit; up to 40 variables ``"astar|solver"`` with two cores or more
      (``n_jobs``; neither engine wins on every data set there) and A* alone on
      one core (branch and cut goes on from its best network if A* runs out of
      memory); and the solver beyond (``"solver|solver"`` on two cores, the second solver
      after 2 s of A*'s CPU up to 63 variables: A*'s proof ends the search), by default with
      at most 3 parents per variable (``max_parents="auto"``, the command line's
      rule too: :func:`~pgmpy_nml.search.choose_search`). It runs ``"order|solver"``
      in place of ``"solver|solver"`` when the first solver's model over every
      candidate would not fit in half the solver's share of the memory or in half the
      time limit (on 24 GB, about a million candidates), and from 100,000 candidates
      on where the second solver prices its root (there the first never gave the
      bound on the benchmark suite's tuning half); ``"astar|solver"`` stays (its
      solver prices its root by itself over that many candidates).

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
    method : str, default "auto"
        ``"auto"``, ``"dp"``, ``"astar"``, ``"solver"``, ``"astar|solver"``,
        ``"solver|solver"`` or ``"order|solver"``: see above; ``method_`` says which
        ran. With ``max_parents="auto"``, ``"auto"`` takes the DP up to 20 variables, A*
        (beside the solver, on two cores or more) up to 40 and the solver (two, on two
        cores or more) beyond (:func:`~pgmpy_nml.search.choose_search`), and the
        order search beside the solver in place of two solvers when SCIP's model
        would not fit.
    max_parents : int, None or "auto", default "auto"
        Largest parent set considered; ``None`` for no limit. ``"auto"`` (the
        command line's default too): no limit when the subset DP runs, and
        ``3`` (GOBNILP's default, :data:`~pgmpy_nml._limits.SOLVER_DEFAULT_MAX_PARENTS`) when the
        solver runs, whose candidate parent sets are otherwise bounded by the
        scores' bounds alone and can exhaust the memory on 30-60 variables.
        ``max_parents_`` says which limit applied. For the DP, a limit cuts the
        counting work; the memory of the search itself does not shrink.
        A whole number; a float such as ``2.0`` is taken as ``2``, ``2.5`` is refused.
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
        cores, -2 all but one, None one (scikit-learn's meaning). With two cores or more,
        ``method="auto"`` may run two engines side by side (see above).
    show_progress : bool, default True
        Progress on a terminal: one bar for the DP, its phases weighted by their
        cost; for the solver, the scoring levels, then the incumbent, the bound
        and the gap.
    time_limit : float, optional
        Seconds for the solver (scoring included); without it (or with ``inf``)
        the solver runs until the network is proven optimal. The DP, which
        cannot stop early, checks it and ignores it. Scoring the candidate parent
        sets stops at three quarters of it (baudio, 100 variables, 15,000 rows, 3
        parents, takes about 48 s to score on 2 cores): the engines then search the
        candidates found so far, and ``bound_`` counts the parent sets left unscored,
        through the bound of their scored subsets (``pruning_``'s ``unscored_bound``).
        Without ``start_dag`` the engines start from a hill climbing's network (with
        restarts, ``LocalSearch(method="hill")``): for 30% of the time left when scoring
        stopped early, and for a tenth of scoring's time when scoring completed in 10 s
        or more (``timings_["hill climbing"]``). The engines' first networks cannot be
        interrupted, nor can root pricing's evaluation of its bound over every family:
        over millions of candidates the fit can end a second or so past the limit
        (baudio, 9.6 million candidates, with ``time_limit=60``: 60.8-61.2 s).
    start_dag : pgmpy DAG, networkx DiGraph, dict or list of edges, optional
        A first network for the solver (for instance a local search's result):
        a DAG over the data's variables, ``{child: parents}`` or a list of
        ``(parent, child)`` edges; the required edges are added, and it must be
        acyclic and within the constraints. Each family is replaced by its best
        candidate subset. The DP checks it and ignores it.
    gap_limit : float, default 0
        The solver stops once ``(bound - score) / |score|`` is at most this
        (0: proven optimal). The DP checks it and ignores it.
    random_state : int, numpy Generator or SeedSequence, or None, default 0
        The solver's random seed (SCIP's seed shift, the rule of
        :func:`~pgmpy_nml.search.candidates.solve`: an integer of any size modulo
        2**31; None: SCIP's default; a Generator: one draw from it), also the
        perturbations of the hill climbing that gives the engines their first network.
        The DP checks it and ignores it.

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
        ``"dp"``, ``"solver"``, ``"astar"``, ``"astar|solver"``, ``"solver|solver"``,
        ``"order|solver"`` (two engines side by side; ``timings_`` per engine), or
        ``"astar+solver"`` when ``method="auto"``'s A* ran out of memory and branch and
        cut went on from its best network (``bound_`` is then the smaller of the two proven bounds).
    max_parents_ : int or None
        The parent limit that applied (see ``max_parents="auto"``).
    bound_ : float
        A proven upper bound on the optimal score (``score_`` when optimal).
    gap_ : float
        ``(bound_ - score_) / |score_|``: 0 when proven optimal.
    optimal_ : bool
        ``gap_ == 0``.
    status_ : str
        Why the search ended: ``"optimal"``, ``"timelimit"``, ``"gaplimit"`` (``gap_limit``
        reached) or ``"memorylimit"`` (A* or SCIP at its memory limit: the best network
        found and a proven bound).
    engines_ : dict or None
        Two engines side by side (``method_`` with a ``|``): per engine (the names of
        ``timings_``), ``{"score", "bound", "status", "engine"}``, its own network's score,
        its proven bound over ``candidates_``, its status and what it ran, which shows
        which engine found the network and which proved the bound. None for one engine.
    candidates_ : CandidateParentSets or None
        The solver's candidate parent sets (write them in GOBNILP's format with
        ``candidates_.to_file(path)``).
    pruning_ : PruningReport or None
        Candidates per variable after pruning, and the scoring times.
    interchangeable_ : tuple of tuple or None
        The engines over candidate parent sets (None for the DP): the classes of
        interchangeable variables, which swapping leaves every candidate and its score
        as it is (data columns equal up to a renaming of their states do this). Each
        permutation of a class gives a network as good as ``causal_graph_``; the one
        returned keeps each class in column order (no member is an ancestor of an
        earlier one). The engines search only such networks, which on hailfinder's
        three duplicated pairs makes the proof several times faster.
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
        'str: "dp", "solver", "astar", "astar|solver", "solver|solver", "order|solver" (two '
        'engines side by side) or "astar+solver" (A* out of memory, then branch and cut), '
        "the method that ran.",
    )
    max_parents_ = fitted_attribute(
        "max_parents", "int or None: the parent limit that applied (None: no limit)."
    )
    bound_ = fitted_attribute("bound", "float: a proven upper bound on the optimal score.")
    gap_ = fitted_attribute("gap", "float: ``(bound_ - score_) / |score_|``; 0 when optimal.")
    status_ = fitted_attribute(
        "status",
        'str: why the search ended: "optimal", "timelimit", "gaplimit" (``gap_limit`` '
        'reached) or "memorylimit" (A* or SCIP at its memory limit; the best network found '
        "and a proven bound).",
    )
    optimal_ = property(
        lambda self: self.gap_ == 0.0, doc="bool: whether ``causal_graph_`` is proven optimal."
    )
    engines_ = fitted_attribute(
        "engines",
        "dict or None: two engines side by side: each one's score, bound, status and engine.",
    )
    candidates_ = fitted_attribute(
        "candidates", "CandidateParentSets or None: the solver's candidate parent sets."
    )
    pruning_ = fitted_attribute(
        "pruning", "PruningReport or None: candidates per variable and the scoring times."
    )
    interchangeable_ = fitted_attribute(
        "interchangeable",
        "tuple of tuple or None: the classes of interchangeable variables (engines over "
        "candidate parent sets).",
    )

    # -- the steps of fit -----------------------------------------------------------------
    def _memory_limit(self) -> float:
        if self.max_memory is None:
            return 0.9 * available_memory()
        return as_memory_size(self.max_memory, "max_memory")

    def _settings(self, params: dict, variables) -> dict:
        """The parameters (checked at ``fit`` entry, whichever method then runs), with the
        method and the parent limit chosen (:func:`~pgmpy_nml.search.choose_search`:
        ``"auto"`` here is its best exact engine, ``method="exact"``), the constraints and
        the start network checked, for the data."""
        settings = dict(params)
        method = "exact" if settings["method"] == "auto" else settings["method"]
        choice = choose_search(
            len(variables), method, settings["max_parents"], cores=self._threads()
        )
        constraints = Constraints.from_knowledge(
            variables, choice.max_parents, self.expert_knowledge
        )
        start_dag = settings["start_dag"]
        settings.update(
            method=choice.method,
            max_parents=choice.max_parents,
            constraints=constraints,
            seed=scip_seed(settings["random_state"]),
            start_dag=None if start_dag is None else check_start_dag(start_dag, constraints),
        )
        return settings

    def _fit_dp(self, score, method, settings) -> SearchResult:
        """The subset DP (:mod:`pgmpy_nml.search._dp.dp`)."""
        plan = make_plan(score)
        variables = plan.variables
        constraints = Constraints.from_knowledge(
            variables, settings["max_parents"], self.expert_knowledge
        )
        n_threads = self._threads()
        need = check_memory(plan, n_threads, self._memory_limit())
        timings: dict[str, float] = {}
        n_jobs = 1 if self.n_jobs is None else self.n_jobs
        total, parents = optimal_network(
            plan, constraints, n_threads, n_jobs, self.show_progress, timings
        )
        dag = dag_from_parents(
            {variables[v]: [variables[u] for u in members] for v, members in enumerate(parents)},
            variables,
        )
        return SearchResult(
            method="dp",
            dag=dag,
            score=total,
            timings=timings,
            plan=plan.kind,
            bound=total,
            gap=0.0,
            memory_estimate=need,
            status="optimal",
        )

    def _fit_candidates(self, score, method, settings) -> SearchResult:
        """Candidate parent sets, then A* or the solver
        (:mod:`pgmpy_nml.search.candidates._pipeline`)."""
        from .candidates._pipeline import search_candidates

        return search_candidates(
            score,
            method,
            max_parents=settings["max_parents"],
            expert_knowledge=self.expert_knowledge,
            n_jobs=self.n_jobs,
            show_progress=self.show_progress,
            time_limit=settings["time_limit"],
            gap_limit=settings["gap_limit"],
            seed=settings["seed"],
            start_dag=settings["start_dag"],
            max_memory=None if self.max_memory is None else self._memory_limit(),
            hand_over=self.method == "auto",
            climb=self._climb(score, settings),
        )

    def _climb(self, score, settings):
        """``climb(seconds)``: the network of a hill climbing with the same score, parent
        limit and expert knowledge, restarted from perturbed networks until ``seconds``
        have passed (None: one climb); the engines' start
        (:func:`pgmpy_nml.search.candidates._seed.climb_seconds`)."""
        from .local import LocalSearch

        def climb(seconds: float | None):
            search = LocalSearch(
                score,
                method="hill",
                max_parents=settings["max_parents"],
                expert_knowledge=self.expert_knowledge,
                restarts=0 if seconds is None else _UNTIL_THE_TIME_LIMIT,
                random_state=settings["seed"],
                time_limit=seconds,
                n_jobs=self.n_jobs,
                show_progress=False,
            )
            with inner_fits():  # the exact search warns once, on its result
                return search.fit().dag_

        return climb

    @announced("exact search")  # "compiling (once, about N s)" on an empty cache
    def fit(self, data: pd.DataFrame | None = None) -> ExactSearch:
        """Learn the optimal structure.

        Parameters
        ----------
        data : pandas.DataFrame, optional
            The data to learn from. May be omitted when ``scoring_method`` is a
            score object (its data are used); if given, it must be the data the
            score was built on. A Dask DataFrame is counted where it lives (each
            partition's distinct rows and their counts, merged here; a score of this
            package by name), with the same result as the data in memory.

        Returns
        -------
        self
        """
        self._result = None
        params = validate_params(self)  # every parameter, whatever method then runs
        score = self._resolve_score(data)
        settings = self._settings(params, list(score.variables))
        method, max_parents = settings["method"], settings["max_parents"]
        try:
            fit = self._fit_dp if method == "dp" else self._fit_candidates
            result = fit(score, method, settings)
        except KeyboardInterrupt:
            raise KeyboardInterrupt("ExactSearch interrupted; nothing was fitted.") from None
        model = self._fitted_model(result.dag, score, data)
        self._result = replace(
            result,
            model=model,
            max_parents=max_parents,
            feature_names=feature_names(score.variables),
        )
        return self


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
