"""Local structure search: greedy hill climbing and tabu search, with restarts and perturbation.

The estimator: its parameters, their checks and ``fit``. The engine it drives is in
:mod:`pgmpy_nml.search._local` (``rows``: local scores of one-edge changes; ``engine``:
the network and its moves; ``climb``: the searches; ``screen``: candidate parents).
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .._compiling import announced
from .._estimator import feature_names, fitted_attribute
from .._params import (
    EXPERT_KNOWLEDGE,
    LOCAL_METHODS,
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
from .._sparse import inner_fits
from ..estimators import FSNMLEstimator
from ..evaluate import log_loss
from ..exceptions import InputError
from ..models import fit_network
from ..scores._binding import rebind_score
from ._base import _StructureSearch
from ._local import climb
from ._local import screen as _screen
from ._local.engine import best_forest, start_engine, start_parents, to_dag
from ._local.rows import make_rows
from ._result import SearchResult
from .constraints import Constraints

if TYPE_CHECKING:
    from pgmpy.parameter_estimator import DiscreteParameterEstimator

    from .._typing import ExpertKnowledgeLike, Graph, ScoringMethod

__all__ = ["AUTO_LIMITS", "AUTO_ROWS_PER_VARIABLE", "LocalSearch"]

#: ``max_parents="auto"``: data with fewer rows than this per variable are wide, and get
#: a parent limit chosen on held-out rows. Measured on the density-estimation benchmark's
#: training sets cut to 50-6,400 rows (``docs/benchmarks.md``; hill climbing, fNML, the
#: valid rows' log-likelihood with the parameters best on them): with fewer rows than
#: variables a limit of 1-3 parents won by 2-6% (bnetflix, baudio, plants, accidents,
#: pumsb_star at 50-150 rows; nips by 4%), with 1-2.2 rows per variable by 1-2.3%,
#: with 2-8 by up to 2% (none on accidents), and from 8 up the network without a
#: limit was within 0.5% of the best limit's. The choice costs up to four more searches, which
#: on thousands of variables take minutes (bench_scale's 5,000 variables and 5,000
#: rows: 195 s each): only where the rows are fewer than the variables is it the
#: default; elsewhere give the limit (chosen on held-out rows of your own) or None.
AUTO_ROWS_PER_VARIABLE = 1
#: The parent limits ``max_parents="auto"`` chooses among on wide data (None: no limit).
AUTO_LIMITS = (1, 2, 3, 5, None)
#: The share of the rows ``max_parents="auto"`` holds out (every fifth of a fixed shuffle).
AUTO_HOLDOUT = 5

#: How a restart perturbs the best network (:func:`._local.climb.perturb`).
PERTURBATIONS = ("order", "moves")


class LocalSearch(_StructureSearch):
    r"""Greedy hill climbing or tabu search over DAGs, compiled, for any decomposable score.

    Starting from an empty network (or ``start_dag``), each step applies the best
    single-edge change (add, delete or reverse an edge) that keeps the network
    acyclic and within the constraints. A move on the edge :math:`u \to v`
    changes only the families of :math:`v` (and of :math:`u` for a reversal), so
    its score change is a difference of local scores,

    .. math::

        \Delta = S(v \mid P_v \triangle \{u\}) - S(v \mid P_v)
                 \;[ + S(u \mid P_u \cup \{v\}) - S(u \mid P_u) \text{ for a reversal}],

    kept in a table of every child's one-edge changes that is recomputed only
    for the children whose parents changed. For scores with a contract
    (:mod:`pgmpy_nml.scores.contract`: this package's FNML, QNML, BDeu and
    BDConstant; pgmpy's BDeu, K2, BIC, AIC and LogLikelihood) one compiled call
    counts all of a child's candidate families, and the score's formula turns
    their statistics into local scores at once; any other score (Min-BDeu,
    Max-BDeu, pgmpy's BDs, your own) goes through its ``local_score``
    (``plan_`` says which). Move selection, acyclicity (a transitive-closure
    matrix) and constraints are compiled with numba; each step reads only the
    rows of the children a move touched and those whose cached best addition a
    move made illegal (a cache of every child's best addition), and takes the
    move a scan of all ``n^2`` pairs would take, tie-breaking included.

    - ``method="hill"``: greedy hill climbing; stops when no move improves the
      score by at least ``epsilon``.
    - ``method="tabu"``: tabu search [1]_: always applies the best move that is
      not tabu, even if it lowers the score, stops after ``max_non_improving``
      consecutive moves without a new best and returns the best network seen. A
      move is tabu if it leads to one of the last ``tabu_length`` networks visited
      (bnlearn's ``tabu`` list), or if it changes the edge between a pair of
      variables that one of the last ``tabu_length`` moves *down* (by more than
      ``epsilon``) changed, so that a step down is not undone at once; a tabu move
      that gives a network better than the best so far is taken (aspiration).
      With bnlearn's list alone the search toggled a few edges of near-zero change
      back and forth (on the plants data, 69 variables, fNML, every one of the 30
      moves after the optimum changed the score by less than 0.11 nats, on 8 pairs
      of variables) and stopped where it began: with bnlearn's rule and its 10
      networks and 10 moves, tabu search ended 0-5 nats above hill climbing on the
      six large density-estimation sets with fNML. With the pairs frozen and the
      default 30 networks and 300 moves it ended 16-282 nats above (plants 173,
      audio 282, pumsb_star 34; 1.3-1.8 times the CPU of hill climbing), and on 15
      classic cases (child, alarm, insurance, hailfinder, win95pts; qNML, BDeu,
      fNML) never lower than bnlearn's rule, equal in 11 (``docs/benchmarks.md``).
      It never adds or deletes an edge that changes the score by less than
      ``epsilon`` (either way), such as any edge at a column with a single observed
      value: there are many such moves, none changes the fit, and at a local
      optimum they would be preferred to every move that lowers the score.
      Reversals that keep the score (of a covered edge under a score-equivalent
      score) are still taken: they walk the equivalence class, which opens other
      moves.
    - ``restarts``, ``perturb``, ``perturbation``: iterated local search. After
      each search, the best network found so far is perturbed and searched again;
      the best network of all searches wins. ``perturbation="order"`` (the
      default) moves ``perturb`` random variables to random places in a
      topological order of the network and deletes the edges the new order
      contradicts, so the next search starts from a network consistent with
      another order, as the order-based searches do [4]_ [5]_, but keeps the
      network's other edges; ``"moves"`` applies ``perturb`` random legal moves
      (bnlearn's ``hc(restart=, perturb=)``), after which the search mostly climbs
      back. Measured on the density-estimation benchmark
      (``benchmarks/bench_density.py``, fNML, hill climbing inside, one thread):
      30 s of order-based restarts raised the score by 0.09 nats per row on plants
      (69 variables), 0.15 on audio (100) and 0.19 on pumsb_star (163), against
      0.02 with random moves on plants; see ``docs/benchmarks.md``.
      ``time_limit`` stops the restarts (none begins after it).
    - ``candidates``: the sparse candidate algorithm [3]_. Each variable may gain
      parents only among its candidates, screened by mutual information with a
      top-``k`` cap and re-selected from the score gains given the current
      parents after each search (``candidate_rounds``); the pairs left out are
      never counted nor scanned, which is where the full search spends its
      ``n^2`` cost. Measured with ``benchmarks/bench_local_candidates.py``
      (hill climbing, BDeu(1), N = 5000, one thread, CPU seconds), ``"auto"``
      against the full search: alarm 0.05 s / 0.04 s, score 0.28% higher;
      andes 0.31 s / 0.38 s, 0.03% higher; pigs 1.0 s / 1.5 s, 0.09% higher;
      link 2.3 s / 5.6 s, 1.7% higher; munin 4.9 s / 9.6 s, 0.51% lower. The
      restricted search takes another path to another local optimum, up to
      0.5% apart here, about as far as the full search itself moves when only
      its tie-breaking changes (columns reversed: 0.04-2.3%); not within 0.1%
      on every network, so the full search (``candidates=None``) stays the
      default. Without re-selection (``candidate_rounds=1``) munin takes 1.4 s
      but ends 2.2% lower, and link 21% lower: there many parents matter only
      jointly with others, which no pairwise screen sees.

    Tie-breaking is deterministic and independent of the process (no hashing
    of names): among moves whose score changes are equal up to a relative
    ``1e-9``, the first in the order *add < delete < reverse*, then by the
    position of the edge's tail :math:`u`, then of its head :math:`v`, in the
    data's column order. For a score-equivalent score the first edge of a
    tied pair therefore points from the earlier column to the later one.

    Parameters
    ----------
    scoring_method : str or score object, default "fnml"
        A score instance built on the data, or a name of
        :func:`pgmpy_nml.scores.score_names` with default parameters.
    method : {"hill", "tabu"}, default "hill"
    max_parents : int, None or "auto", default "auto"
        Largest parent set; None: no limit. A whole number; a float such as ``2.0``
        is taken as ``2``, ``2.5`` is refused. ``"auto"``: no limit unless the data
        are wide, with fewer rows than variables (:data:`AUTO_ROWS_PER_VARIABLE`;
        nips: 500 variables, 400 rows); there the limit among
        :data:`AUTO_LIMITS` whose network, learned by hill climbing on four fifths
        of the rows, predicts the other fifth best (held-out log-likelihood with the
        ``parameter_estimator``'s tables, fsNML without one; tried in increasing order
        until one does worse than the one before), ties to the smaller.
        Where the rows are few, every score here overfits without a limit (fNML and
        qNML most: on nips hill climbing with fNML gave 2,810 edges and up to 16
        parents, -318 nats per test row against -282 for a forest); ``max_parents_``
        and ``limit_scores_`` say what was chosen and why.
    expert_knowledge : pgmpy.causal_discovery.ExpertKnowledge or dict, optional
        Required edges, forbidden edges, search space and temporal tiers.
    start_dag : pgmpy DAG, networkx DiGraph, dict or list of edges, optional
        The network to start from (default: no edges): a DAG over the data's
        variables, ``{child: parents}`` or a list of ``(parent, child)`` edges.
        Required edges are added to it; it must be acyclic and satisfy the other
        constraints (the same check as :class:`~pgmpy_nml.ExactSearch`'s).
    tabu_length : int, default 30
        Tabu search: how many recently visited networks may not be revisited, and for
        how many moves the pair of variables of a move down stays frozen.
    max_non_improving : int, optional
        Tabu search: consecutive moves without a new best score before it
        stops (default ``10 * tabu_length``; bnlearn's ``max.tabu`` is
        ``tabu_length``, after which the search rarely leaves the first optimum).
    restarts : int, default 0
        Number of perturbed restarts after the first search.
    perturb : int, default 10
        The size of the kick before each restart: variables moved in the order
        (``perturbation="order"``) or random legal moves (``"moves"``). With random
        moves bnlearn's default is 1, after which the search mostly climbs straight
        back: with 10 restarts of tabu search on 24 networks, sample sizes and
        scores (27-56 variables, 10 seeds each), 10 moves ended higher than 1 in 78
        of 240 runs and lower in 3 (0-179 nats higher on average), for a median
        0.04 s of CPU per fit instead of 0.02 s.
    perturbation : {"order", "moves"}, default "order"
        How a restart perturbs the best network (see above).
    time_limit : float, optional
        Seconds (wall clock, from the start of ``fit``) after which no restart
        begins; None or ``inf``: all ``restarts`` run. A search stopped by it depends
        on the machine's speed: give ``restarts`` alone for a reproducible result.
    random_state : int, numpy Generator or None, default 0
        Seed of the perturbations (None: fresh entropy, not reproducible).
        Without restarts the search uses no randomness at all.
    max_iter : int, default 1000000
        Largest number of moves of each search.
    epsilon : float, default 1e-4
        Smallest score change that counts as an improvement (pgmpy's default);
        tabu search takes no addition or deletion that changes the score by less.
    parameter_estimator : pgmpy DiscreteParameterEstimator, optional
        If given (e.g. :class:`~pgmpy_nml.FSNMLEstimator`), the learned network
        is fitted and returned in ``model_``.
    n_jobs : int or None, default None
        Threads of the compiled counting (None: 1; -1 all cores, -2 all but one).
        They pay off only for large data sets whose families have many cells:
        small families are counted with bitsets in microseconds.
    show_progress : bool, default True
        A progress bar with the number of moves and the current score.
    candidates : None, "auto", int or dict, default None
        Candidate parents (the sparse candidate algorithm [3]_, bnlearn's
        two-phase learners): ``None`` searches every pair of variables. An integer
        ``k`` keeps, for each variable, the ``k`` others with the largest
        empirical mutual information (ties to the earlier column; one compiled
        pass over every pair's count table); ``"auto"`` is ``k = 10``. A dict
        ``{child: parents}`` gives the sets (children not listed get none).
        Required parents are always candidates, forbidden ones never. Only
        additions ``u -> v`` with ``u`` a candidate of ``v`` are counted and
        scanned; deletions are always possible, the reversal of ``u -> v`` when
        ``v`` is a candidate of ``u``.
    candidate_rounds : int, optional
        Searches with re-selected candidates (top-``k`` candidates only; default
        2, i.e. one re-selection, and 1 otherwise). After each search every
        variable's candidates become its current parents plus the ``k`` others
        whose addition would raise its local score most given those parents (one
        pass over every pair, as costly as the first pass of the full search),
        and the search continues from the result; it stops early when the
        candidates or the network no longer change. The score never decreases
        from round to round (``round_scores_``).
    symmetric_candidates : bool, default True
        Make ``v`` a candidate of ``u`` whenever ``u`` is one of ``v`` (current
        parents included), so that every edge can be reversed.

    Attributes
    ----------
    causal_graph_ : pgmpy.base.DAG
        The best network found, with every variable as a node.
    dag_ : pgmpy.base.DAG
        The same, under the name :class:`~pgmpy_nml.ExactSearch` also uses.
    score_ : float
        Its score: the sum of its local scores plus the score's structure prior
        (``scoring_method.score(causal_graph_)``, up to rounding).
    n_iter_ : int
        Moves made by the searches (perturbations not counted).
    history_ : ndarray
        The score of the current network: at the start (of each candidate round),
        after every move of the searches, and after each perturbation (its random
        moves together).
    restart_scores_ : ndarray
        The score each search ended with (the first search, then each restart;
        round after round with ``candidate_rounds``).
    model_ : pgmpy.models.DiscreteBayesianNetwork or None
        The fitted network, when ``parameter_estimator`` was given.
    timings_ : dict
        Seconds spent computing local scores, selecting candidates and in the rest
        of the search.
    plan_ : str
        ``"statistics"`` (compiled counting) or ``"generic"`` (``local_score``).
    candidates_ : dict or None
        Each variable's candidate parents (a tuple, in column order) in the last
        round; None for the full search.
    round_scores_ : ndarray
        The score at the end of each candidate round (one entry without candidates).
    method_ : str
        The search that ran: ``"hill"`` or ``"tabu"`` (as
        :class:`~pgmpy_nml.ExactSearch`'s ``method_`` names its engine).
    n_features_in_ : int
        The number of columns of the data.
    feature_names_in_ : ndarray of object
        The data's columns, in order.

    Examples
    --------
    >>> from pgmpy_nml import FNML, LocalSearch
    >>> from pgmpy_nml.datasets import sample_network
    >>> true_model, data = sample_network("asia", 5000, random_state=0)
    >>> search = LocalSearch("fnml", show_progress=False).fit(data)
    >>> search.causal_graph_.number_of_nodes(), search.plan_
    (8, 'statistics')
    >>> tabu = LocalSearch("fnml", method="tabu", restarts=5, perturb=3, show_progress=False)
    >>> bool(tabu.fit(data).score_ >= search.score_ - 1e-9)
    True
    >>> sparse = LocalSearch("fnml", candidates=3, candidate_rounds=1, show_progress=False)
    >>> sparse.fit(data).candidates_["lung"]  # three by mutual information, mirror images
    ('bronc', 'either', 'smoke', 'xray')
    >>> bool(sparse.score_ >= search.score_)  # another path, here to a higher optimum
    True

    References
    ----------
    .. [1] D. Koller, N. Friedman. Probabilistic Graphical Models, MIT Press, 2009,
       Sec. 18.4.3 (local search, tabu lists, random restarts).
    .. [2] M. Scutari. "Learning Bayesian networks with the bnlearn R package".
       Journal of Statistical Software 35(3), 2010 (``hc``, ``tabu``).
    .. [3] N. Friedman, I. Nachman, D. Pe'er. "Learning Bayesian network structure
       from massive datasets: the 'sparse candidate' algorithm". UAI 1999.
    .. [4] M. Teyssier, D. Koller. "Ordering-based search: a simple and effective
       algorithm for learning Bayesian networks". UAI 2005.
    .. [5] C. Lee, P. van Beek. "Metaheuristics for score-and-search Bayesian network
       structure learning". Canadian Conference on AI 2017 (MINOBS).
    """

    _parameter_specs = {
        "scoring_method": SCORING_METHOD,
        "method": Choice(LOCAL_METHODS),
        "max_parents": AnyOf(
            Choice(("auto",)), NoneOr(Integer()), what="a non-negative integer, None or 'auto'"
        ),
        "expert_knowledge": EXPERT_KNOWLEDGE,
        "start_dag": START_DAG,
        "tabu_length": Integer(minimum=1),
        "max_non_improving": NoneOr(Integer(minimum=1)),
        "restarts": Integer(),
        "perturb": Integer(),
        "perturbation": Choice(PERTURBATIONS),
        "time_limit": TimeLimit(),
        "random_state": RandomState(),
        "max_iter": Integer(),
        "epsilon": Real(),
        "parameter_estimator": PARAMETER_ESTIMATOR,
        "n_jobs": NJobs(),
        "show_progress": Boolean(),
        "candidates": NoneOr(
            AnyOf(
                Choice(("auto",)),
                Integer(minimum=1),
                Instance(Mapping, "a mapping {child: parents}"),
                what="None, 'auto', a positive integer or a mapping {child: parents}",
            )
        ),
        "candidate_rounds": NoneOr(Integer(minimum=1)),
        "symmetric_candidates": Boolean(),
    }

    def __init__(
        self,
        scoring_method: ScoringMethod = "fnml",
        *,
        method: str = "hill",
        max_parents: int | str | None = "auto",
        expert_knowledge: ExpertKnowledgeLike | None = None,
        start_dag: Graph | None = None,
        tabu_length: int = 30,
        max_non_improving: int | None = None,
        restarts: int = 0,
        perturb: int = 10,
        perturbation: str = "order",
        time_limit: float | None = None,
        random_state: int | np.random.Generator | None = 0,
        max_iter: int = 1_000_000,
        epsilon: float = 1e-4,
        parameter_estimator: DiscreteParameterEstimator | None = None,
        n_jobs: int | None = None,
        show_progress: bool = True,
        candidates: int | str | Mapping | None = None,
        candidate_rounds: int | None = None,
        symmetric_candidates: bool = True,
    ) -> None:
        self.scoring_method = scoring_method
        self.method = method
        self.max_parents = max_parents
        self.expert_knowledge = expert_knowledge
        self.start_dag = start_dag
        self.tabu_length = tabu_length
        self.max_non_improving = max_non_improving
        self.restarts = restarts
        self.perturb = perturb
        self.perturbation = perturbation
        self.time_limit = time_limit
        self.random_state = random_state
        self.max_iter = max_iter
        self.epsilon = epsilon
        self.parameter_estimator = parameter_estimator
        self.n_jobs = n_jobs
        self.show_progress = show_progress
        self.candidates = candidates
        self.candidate_rounds = candidate_rounds
        self.symmetric_candidates = symmetric_candidates

    causal_graph_ = fitted_attribute("dag", "pgmpy.base.DAG: the best network found.")
    method_ = fitted_attribute("method", 'str: the search that ran, "hill" or "tabu".')
    score_ = fitted_attribute("score", "float: its score (local scores plus structure prior).")
    n_iter_ = fitted_attribute("n_iter", "int: moves made by the searches.")
    history_ = fitted_attribute("history", "ndarray: the score after every move.")
    restart_scores_ = fitted_attribute(
        "restart_scores", "ndarray: the score each search (first, then restarts) ended with."
    )
    timings_ = fitted_attribute("timings", "dict: seconds per part of the search.")
    plan_ = fitted_attribute(
        "plan", 'str: "statistics" (compiled counting) or "generic" (local_score).'
    )
    candidates_ = fitted_attribute(
        "candidates", "dict or None: each variable's candidate parents in the last round."
    )
    round_scores_ = fitted_attribute(
        "round_scores", "ndarray: the score at the end of each candidate round."
    )
    method_ = fitted_attribute("method", 'str: the search that ran, "hill" or "tabu".')

    max_parents_ = fitted_attribute(
        "max_parents", "int or None: the parent limit that applied (None: no limit)."
    )
    limit_scores_ = fitted_attribute(
        "limit_scores",
        'dict or None: max_parents="auto" on wide data: each limit\'s held-out log-likelihood.',
    )

    # -- the parent limit of max_parents="auto" --------------------------------------------
    def _auto_limit(self, score, data, settings) -> tuple[int | None, dict | None]:
        """``max_parents="auto"``: no limit (and no scores) unless the data are wide; then
        the limit of :data:`AUTO_LIMITS` whose hill-climbed network on four fifths of the
        rows gives the other fifth the largest log-likelihood per row (ties to the
        smaller limit), with every such log-likelihood. The limits are tried in
        increasing order until one does worse than the one before (on wide data the
        larger limits only overfit more, and cost most)."""
        frame = data if data is not None else getattr(score, "data", None)
        if not isinstance(frame, pd.DataFrame):  # a Dask DataFrame: counted, not held out
            return None, None
        n_rows, n_vars = frame.shape
        if n_rows >= AUTO_ROWS_PER_VARIABLE * n_vars or n_rows < 2 * AUTO_HOLDOUT:
            return None, None
        shuffled = np.random.default_rng(0).permutation(n_rows)
        held = np.sort(shuffled[: n_rows // AUTO_HOLDOUT])
        kept = np.sort(shuffled[n_rows // AUTO_HOLDOUT :])
        train, test = frame.iloc[kept], frame.iloc[held]
        part = rebind_score(score, train)
        states = getattr(score, "state_names", None)
        estimator = self.parameter_estimator or FSNMLEstimator(
            state_names=None if states is None else dict(states)
        )
        scores: dict = {}
        for limit in AUTO_LIMITS:
            try:
                with inner_fits():  # the search warns once, on the network it returns
                    search = LocalSearch(
                        part,
                        max_parents=limit,
                        expert_knowledge=self.expert_knowledge,
                        epsilon=settings["epsilon"],
                        n_jobs=self.n_jobs,
                        show_progress=False,
                    ).fit(train)
            except ValueError:  # required edges beyond this limit
                continue
            try:
                model = fit_network(search.dag_, train, estimator, states)
            except InputError:  # a table too large to fit: larger limits only grow it
                if not scores:
                    raise
                break
            scores[limit] = -log_loss(model, test)
            if len(scores) > 1 and scores[limit] < list(scores.values())[-2]:
                break  # worse than the smaller limit: larger ones overfit more
        best = max(scores, key=lambda k: (scores[k], -AUTO_LIMITS.index(k)))
        return best, scores

    # -- checks ---------------------------------------------------------------------------
    def _settings(self) -> dict:
        """Every parameter checked once, at ``fit`` entry, before any work."""
        settings = validate_params(self)
        if settings["max_non_improving"] is None:
            settings["max_non_improving"] = 10 * settings["tabu_length"]
        settings.update(
            tabu=settings["method"] == "tabu", rng=np.random.default_rng(settings["random_state"])
        )
        return settings

    @announced("local search")  # "compiling (once, about N s)" on an empty cache
    def fit(self, data: pd.DataFrame | None = None) -> LocalSearch:
        """Learn a structure by local search.

        Parameters
        ----------
        data : pandas.DataFrame, optional
            The data to learn from, as in :meth:`ExactSearch.fit`: optional when
            ``scoring_method`` is a score object (which brings its data), and
            then only the data that score was built on. Large data with many
            repeated rows are counted (each distinct row once, with its count), and
            a Dask DataFrame is counted partition by partition where it lives
            (a score of this package by name); the network and score are those of
            the rows.

        Returns
        -------
        self
        """
        self._result = None
        started = time.perf_counter()
        settings = self._settings()
        if settings["time_limit"] is not None:
            settings["deadline"] = started + settings["time_limit"]
        score = self._resolve_score(data)
        limit, limit_scores, limit_seconds = settings["max_parents"], None, 0.0
        if limit == "auto":
            begun = time.perf_counter()
            limit, limit_scores = self._auto_limit(score, data, settings)
            limit_seconds = time.perf_counter() - begun
        rows = make_rows(score, settings["n_jobs"])
        variables = rows.variables
        constraints = Constraints.from_knowledge(variables, limit, self.expert_knowledge)
        start = start_parents(constraints, self.start_dag)
        spec = _screen.as_candidate_spec(self.candidates, variables)
        settings["candidate_rounds"] = climb.candidate_rounds(settings["candidate_rounds"], spec)
        engine = start_engine(rows, score, constraints, start)
        free = not any(constraints.required) and not any(constraints.forbidden)
        if limit == 1 and self.start_dag is None and spec is None and free:
            # one parent each: start from the best forest (exact for score-equivalent scores)
            engine = start_engine(rows, score, constraints, best_forest(engine.gains()))
        try:
            run = climb.run(engine, rows, spec, settings, self.method, self.show_progress)
        except KeyboardInterrupt:
            raise KeyboardInterrupt("LocalSearch interrupted; nothing was fitted.") from None
        finally:
            rows.close()
        dag = to_dag(engine.parents, variables)
        total = engine.total()
        model = self._fitted_model(dag, score, data)
        allowed = None if run.allowed is None else _screen.candidate_dict(run.allowed, variables)
        timings = run.timings(engine, time.perf_counter() - started - limit_seconds)
        if limit_scores is not None:
            timings["parent limit"] = limit_seconds
        self._result = SearchResult(
            method=self.method,
            dag=dag,
            score=total,
            model=model,
            timings=timings,
            plan=rows.kind,
            max_parents=limit,
            limit_scores=limit_scores,
            candidates=allowed,
            n_iter=run.n_iter,
            history=np.array(run.history),
            restart_scores=np.array(run.restart_scores),
            round_scores=np.array(run.round_scores),
            feature_names=feature_names(variables),
        )
        return self
