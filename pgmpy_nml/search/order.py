"""Memetic search over variable orders on candidate parent sets (MINOBS style).

The estimator: its parameters, their checks and ``fit``. The search itself is
:func:`pgmpy_nml.search.candidates._memetic.memetic_search`; the candidates are the
exact engines' (:func:`~pgmpy_nml.search.candidates.candidate_parent_sets`) or the
user's (a :class:`~pgmpy_nml.search.candidates.CandidateParentSets`, read from a
GOBNILP / CPBayes score file, say).
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from .._compiling import announced
from .._estimator import feature_names, fitted_attribute
from .._params import (
    EXPERT_KNOWLEDGE,
    PARAMETER_ESTIMATOR,
    SCORING_METHOD,
    START_DAG,
    AnyOf,
    Boolean,
    Choice,
    Instance,
    Integer,
    NJobs,
    NoneOr,
    RandomState,
    Real,
    TimeLimit,
    validate_params,
)
from .._progress import progress_bar
from ..exceptions import InputError
from ._base import _StructureSearch
from .candidates._files import CandidateParentSets

if TYPE_CHECKING:
    import pandas as pd
    from pgmpy.parameter_estimator import DiscreteParameterEstimator

    from .._typing import ExpertKnowledgeLike, Graph, ScoringMethod
    from ._result import SearchResult

__all__ = ["ORDER_AUTO_PARENT_SETS", "OrderSearch", "order_parent_limit"]

#: ``max_parents="auto"``: the largest limit ``k`` whose parent sets of at most ``k``
#: parents number at most this many before pruning (:func:`order_parent_limit`). Scoring
#: them is most of the work: plants (69 variables, 17,412 rows) has 157,000 sets of at
#: most 2 parents, 5.6 s, and 3.6 million of at most 3, 80 s (2026-11-29).
ORDER_AUTO_PARENT_SETS = 3_000_000


def order_parent_limit(n_vars: int, budget: int = ORDER_AUTO_PARENT_SETS) -> int | None:
    """The parent limit of ``OrderSearch(max_parents="auto")`` for ``n_vars`` variables.

    The largest ``k`` whose parent sets of at most ``k`` parents,
    ``n_vars * sum(C(n_vars - 1, j) for j <= k)``, number at most ``budget`` (at least 1;
    None when every parent set fits).

    Examples
    --------
    >>> order_parent_limit(16), order_parent_limit(69), order_parent_limit(500)
    (None, 2, 1)
    """
    sets = 0
    for k in range(n_vars):
        sets += n_vars * math.comb(n_vars - 1, k)
        if sets > budget:
            return max(k - 1, 1)
    return None


class OrderSearch(_StructureSearch):
    r"""Memetic search over variable orders on candidate parent sets (MINOBS style).

    Two stages, as in the exact engines over candidates and in MINOBS (Lee and van Beek
    2017): first, for each variable, the parent sets that can be optimal and their local
    scores (every set of at most ``max_parents`` parents, pruned by the proven rules of
    :func:`~pgmpy_nml.search.candidates.candidate_parent_sets`, or the ``candidates``
    given); then a search over the orders of the variables. An order :math:`\pi` gives
    each variable its best candidate whose parents all come before it, so its network

    .. math:: G(\pi) = \arg\max_{G \text{ consistent with } \pi} \sum_v s(v, \mathrm{Pa}_G(v))

    is a DAG, and the best network over the candidates is :math:`G(\pi)` for some order.
    A population of orders, each a local optimum of the insertion neighbourhood (one
    variable moved elsewhere, the best move first; Teyssier and Koller 2005), breeds
    children by order crossover and perturbation, each taken to its local optimum; the
    best distinct networks survive, and when the best has not improved for ``patience``
    generations all but it are replaced by new random local optima.

    Unlike hill climbing over edges, one move of the order changes many families at
    once (a parent swapped for another at a full parent limit included), so under a
    parent limit it reaches far better optima. Measured 2026-11-29 with fNML: on nltcs
    (16 variables) at 3 parents it found the optimum (-98,819.18, which
    :class:`ExactSearch` proves) in under a second, where ``LocalSearch(max_parents=3,
    restarts=1000)`` stops at -99,394.06; on plants (69 variables, 2 parents, 147,358
    candidates; ``benchmarks/bench_density.py --order``) -243,942 against -246,341. It
    is not a proof: for one, use :class:`ExactSearch` on the same candidates.

    Parameters
    ----------
    scoring_method : str or score object, default "fnml"
        As in :class:`ExactSearch` (unused when ``candidates`` are given).
    max_parents : int, None or "auto", default "auto"
        The parent limit of the candidates; ``"auto"``: the largest limit whose parent
        sets number at most :data:`ORDER_AUTO_PARENT_SETS` before pruning
        (:func:`order_parent_limit`: no limit up to 18 variables, 9 to 4 from 19 to 38, 3
        up to 65, 2 up to 182, else 1).
    candidates : CandidateParentSets, optional
        Search these candidates instead of scoring the data (a score file of GOBNILP,
        CPBayes or MINOBS: :func:`~pgmpy_nml.search.candidates.read_score_file`).
    expert_knowledge : pgmpy ExpertKnowledge or mapping, optional
        Required and forbidden edges, as in :class:`ExactSearch` (not with
        ``candidates``, which already say what is allowed).
    population : int, default 20
        Orders kept from one generation to the next.
    patience : int, default 20
        Generations without a better network before the diversity restart.
    max_restarts : int or None, default 5
        Stop after this many diversity restarts in a row that found no better network
        (``patience * (max_restarts + 1)`` generations without one; None: only
        ``time_limit`` and ``generations`` stop the search).
    generations : int, optional
        Stop after this many generations (None: no such limit).
    time_limit : float or None, default 60
        Seconds for the whole fit, scoring included: scoring stops at three quarters
        of it, leaving parent sets it had not reached out of the search (the first
        local optimum is always computed, however long it takes). At least one of ``time_limit``,
        ``generations`` and ``max_restarts`` must be set.
    start_dag : pgmpy DAG, optional
        A network to start from: each family becomes its best candidate subset and its
        order the first member, so the network found is never worse.
    random_state : int, numpy Generator or None, default 0
        Seed of the random orders, crossovers and perturbations.
    parameter_estimator : pgmpy parameter estimator class, optional
        Fit the network's parameters (``model_``), as in :class:`ExactSearch`.
    n_jobs : int or None, default None
        Threads of the candidate scoring.
    show_progress : bool, default True
        Progress of the scoring and of the generations (best score, generation,
        restarts), as periodic lines when output goes to a file or a pipe.

    Attributes
    ----------
    causal_graph_ : pgmpy.base.DAG
    score_ : float
    method_ : str
        ``"order"``.
    status_ : str
        Why the search stopped: ``"stalled"`` (``max_restarts``), ``"timelimit"`` or
        ``"generations"``.
    max_parents_ : int or None
    candidates_ : CandidateParentSets
    history_ : ndarray, shape (k, 2)
        Seconds since the search began and the best score, each time it improved (the
        anytime curve).
    n_iter_ : int
        Generations bred.
    timings_ : dict
    model_ : DiscreteBayesianNetwork or None

    References
    ----------
    Lee, C. and van Beek, P. (2017). Metaheuristics for score-and-search Bayesian
    network structure learning. Canadian Conference on Artificial Intelligence.
    Teyssier, M. and Koller, D. (2005). Ordering-based search: a simple and effective
    algorithm for learning Bayesian networks. UAI.

    Examples
    --------
    >>> from pgmpy_nml import OrderSearch
    >>> from pgmpy_nml.datasets import sample_network
    >>> true_model, data = sample_network("asia", 2000, random_state=0)
    >>> search = OrderSearch("fnml", show_progress=False).fit(data)
    >>> search.method_, search.status_, search.max_parents_
    ('order', 'stalled', None)
    """

    _parameter_specs = {
        "scoring_method": SCORING_METHOD,
        "max_parents": AnyOf(
            Choice(("auto",)), NoneOr(Integer()), what="a non-negative integer, None or 'auto'"
        ),
        "candidates": NoneOr(Instance(CandidateParentSets, "a CandidateParentSets")),
        "expert_knowledge": EXPERT_KNOWLEDGE,
        "population": Integer(minimum=2),
        "patience": Integer(minimum=1),
        "max_restarts": NoneOr(Integer()),
        "generations": NoneOr(Integer(minimum=1)),
        "mutation": Real(minimum=0.0, maximum=1.0),
        "time_limit": TimeLimit(),
        "start_dag": START_DAG,
        "random_state": RandomState(),
        "parameter_estimator": PARAMETER_ESTIMATOR,
        "n_jobs": NJobs(),
        "show_progress": Boolean(),
    }

    def __init__(
        self,
        scoring_method: ScoringMethod = "fnml",
        *,
        max_parents: int | str | None = "auto",
        candidates: CandidateParentSets | None = None,
        expert_knowledge: ExpertKnowledgeLike | None = None,
        population: int = 20,
        patience: int = 20,
        max_restarts: int | None = 5,
        generations: int | None = None,
        mutation: float = 0.5,
        time_limit: float | None = 60.0,
        start_dag: Graph | None = None,
        random_state: int | None = 0,
        parameter_estimator: DiscreteParameterEstimator | None = None,
        n_jobs: int | None = None,
        show_progress: bool = True,
    ) -> None:
        self.scoring_method = scoring_method
        self.max_parents = max_parents
        self.candidates = candidates
        self.expert_knowledge = expert_knowledge
        self.population = population
        self.patience = patience
        self.max_restarts = max_restarts
        self.generations = generations
        self.mutation = mutation
        self.time_limit = time_limit
        self.start_dag = start_dag
        self.random_state = random_state
        self.parameter_estimator = parameter_estimator
        self.n_jobs = n_jobs
        self.show_progress = show_progress

    causal_graph_ = fitted_attribute("dag", "pgmpy.base.DAG: the best network found.")
    score_ = fitted_attribute("score", "float: its score, the sum of its local scores.")
    method_ = fitted_attribute("method", 'str: "order".')
    status_ = fitted_attribute(
        "status", 'str: "stalled", "timelimit" or "generations", why the search stopped.'
    )
    max_parents_ = fitted_attribute(
        "max_parents", "int or None: the parent limit of the candidates (None: no limit)."
    )
    candidates_ = fitted_attribute("candidates", "CandidateParentSets: the candidates searched.")
    history_ = fitted_attribute(
        "history", "ndarray (k, 2): seconds since the search began and the best score."
    )
    n_iter_ = fitted_attribute("n_iter", "int: generations bred.")
    timings_ = fitted_attribute("timings", "dict: seconds of the scoring and of the search.")

    def _check(self, settings: dict, data) -> None:
        """Refuse a fit that cannot be done, before any work."""
        if all(settings[k] is None for k in ("time_limit", "generations", "max_restarts")):
            raise InputError(
                "OrderSearch needs a stopping rule: set time_limit (seconds), generations or "
                "max_restarts."
            )
        if self.candidates is not None and self.expert_knowledge is not None:
            raise InputError(
                "expert_knowledge applies when OrderSearch scores the data; the candidates "
                "given already say which parent sets are allowed: drop the sets that break "
                "it from the candidates, or pass the data instead of candidates."
            )
        if self.candidates is not None and self.parameter_estimator is not None and data is None:
            raise InputError(
                "parameter_estimator fits the network on data: pass the data to fit() "
                "(the candidates carry only scores)."
            )
        if self.candidates is not None and data is not None:
            differ = set(map(str, data.columns)) ^ set(map(str, self.candidates.variables))
            if differ:
                raise InputError(
                    "the data's columns and the candidates' variables differ in "
                    f"{sorted(differ)[:10]!r}: pass the data the candidates were scored on."
                )

    def _candidates(self, data, settings: dict, timings: dict):
        """The candidates searched, the limit that applied and the score (None when given)."""
        from .candidates._pipeline import SCORING_SHARE, _note
        from .candidates._pruning import candidate_parent_sets

        if self.candidates is not None:
            sizes = [len(p) for sets in self.candidates.parent_sets for p in sets]
            return self.candidates, max(sizes, default=0), None
        score = self._resolve_score(data)
        limit = settings["max_parents"]
        if limit == "auto":
            limit = order_parent_limit(len(score.variables))
        begun = time.perf_counter()
        seconds = settings["time_limit"]
        candidates, report = candidate_parent_sets(
            score,
            max_parents=limit,
            expert_knowledge=self.expert_knowledge,
            n_jobs=self.n_jobs,
            show_progress=self.show_progress,
            time_limit=None if seconds is None else SCORING_SHARE * seconds,
        )
        if self.show_progress and not report.complete:
            _note("candidate parent sets", report.incomplete_text())
        timings["candidate parent sets"] = time.perf_counter() - begun
        return candidates, limit, score

    def _model(self, dag, score, data):
        """The network fitted by ``parameter_estimator`` (None without one)."""
        if score is not None:
            return self._fitted_model(dag, score, data)
        if self.parameter_estimator is None:
            return None
        from ..models import fit_network  # given candidates: the parameters from the data

        return fit_network(dag, data, self.parameter_estimator, None)

    @announced("order search")  # "compiling (once, about N s)" on an empty cache
    def fit(self, data: pd.DataFrame | None = None) -> OrderSearch:
        """Score the candidates (unless given) and search the orders.

        Parameters
        ----------
        data : pandas.DataFrame, optional
            The data to learn from, as in :meth:`ExactSearch.fit`. With ``candidates``
            it is only needed for ``parameter_estimator``.

        Returns
        -------
        self
        """
        from .candidates._families import _checked_families, _initial_choice, _network_result
        from .candidates._memetic import memetic_search
        from .candidates._pipeline import _start_network

        self._result = None
        started = time.perf_counter()
        settings = validate_params(self)
        self._check(settings, data)
        deadline = None if settings["time_limit"] is None else started + settings["time_limit"]
        timings: dict[str, float] = {}
        candidates, limit, score = self._candidates(data, settings, timings)
        fam = _checked_families(candidates, symmetry=False)
        start = None
        if self.start_dag is not None:
            initial = _start_network(candidates, self.start_dag)
            start = _initial_choice(fam, candidates, initial)
        begun = time.perf_counter()
        bar = progress_bar(self.show_progress, "order search", unit=" generations")

        def report(run) -> None:
            bar.update(1)
            bar.set_postfix_str(
                f"score {run.total:.6g}  local optima {run.local_searches}  "
                f"restarts {run.restarts}",
                refresh=False,
            )

        try:
            with bar:
                run = memetic_search(
                    fam,
                    population=settings["population"],
                    generations=settings["generations"],
                    patience=settings["patience"],
                    max_restarts=settings["max_restarts"],
                    mutation=settings["mutation"],
                    deadline=deadline,
                    seed=np.random.default_rng(settings["random_state"]),
                    start=start,
                    report=report,
                )
        except KeyboardInterrupt:
            raise KeyboardInterrupt("OrderSearch interrupted; nothing was fitted.") from None
        timings["order search"] = time.perf_counter() - begun
        done = settings["generations"] is not None and run.generations >= settings["generations"]
        status = "stalled" if run.stalled else "generations" if done else "timelimit"
        result: SearchResult = _network_result(
            fam, candidates, run.choice, -np.inf, status, method="order"
        )
        self._result = replace(
            result,
            bound=None,
            gap=None,
            model=self._model(result.dag, score, data),
            timings=timings,
            max_parents=limit,
            n_iter=run.generations,
            history=np.array(run.history, dtype=np.float64).reshape(-1, 2),
            feature_names=feature_names(candidates.variables),
        )
        return self
