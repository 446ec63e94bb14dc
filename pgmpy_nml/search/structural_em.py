"""Structural EM: a network's structure and parameters from data with missing cells.

The estimator (its parameters, checks and ``fit``); the chain it runs, one completion,
search and M-step per iteration, is in :mod:`pgmpy_nml.search._em`.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
from sklearn.base import BaseEstimator

from .._data import encode_data
from .._estimator import ResultEstimator, feature_names, fitted_attribute
from .._frames import is_dask_frame
from .._params import (
    EXPERT_KNOWLEDGE,
    METHOD_OR_SEARCH,
    PARAMETER_ESTIMATOR,
    SCORING_METHOD,
    START_DAG,
    STATE_NAMES,
    AnyOf,
    Boolean,
    Choice,
    Instance,
    Integer,
    NJobs,
    NoneOr,
    RandomState,
    Real,
    validate_params,
)
from .._sparse import inner_fits, warn_sparse
from ..exceptions import InputError
from ..models import check_table_sizes, default_parameter_estimator, fit_network
from ..scores.registry import resolve_score
from . import _em
from ._base import as_dag, fresh_search
from ._find import named_search
from .constraints import Constraints, check_start_dag
from .exact import ExactSearch
from .local import LocalSearch

if TYPE_CHECKING:
    import pandas as pd
    from pgmpy.parameter_estimator import DiscreteParameterEstimator

    from .._typing import ExpertKnowledgeLike, Graph, ScoringMethod, SearchLike, StateNames

__all__ = ["StructuralEM"]


class StructuralEM(ResultEstimator, BaseEstimator):
    r"""Structure and parameters from data with missing cells (valid when missing at random).

    Structural EM [1]_ [2]_ alternates between completing the data under the current
    network and learning a network from the completed data, with any score and any
    search of this package. Each iteration :math:`t`:

    1. **E-step, stochastic**: one completion :math:`D_t` of the data, every incomplete
       row's missing cells :math:`x_M` drawn from their exact posterior under the
       current network, :math:`P(x_M \mid x_O;\, G_{t-1}, \theta_{t-1})` (batched
       variable elimination over the missing cells that the network's moral graph
       connects; exact draws, not a Markov chain);
    2. **structure step**: :math:`G_t` maximizes the score :math:`S(G; D_t)` (the
       search given by ``method``; a local search starts from :math:`G_{t-1}`);
    3. **parameter step**: :math:`\theta_t` is the parameter estimator's formula on
       :math:`D_t`'s counts.

    This is the stochastic EM of Celeux and Diebolt [3]_ (data augmentation [4]_) in
    Friedman's structural EM: the structure step maximizes
    :math:`Q(G) = E[S(G; D_{obs}, X_M) \mid D_{obs};\, G_{t-1}, \theta_{t-1}]`, the
    expected complete-data score [2]_, estimated by one draw. **Why draws rather than
    Friedman's expected counts**: the regrets of fNML and qNML,
    :math:`\log C(r, N_j)`, are defined for whole counts (a sum over the count vectors
    of :math:`N_j` draws) and expected counts are fractional; BDeu's Gamma functions
    take fractions, but the score of the expected counts is not the expected score
    (Friedman's approximation). A completion has whole counts, so every score
    (fNML, qNML, BDeu, BIC, Min/Max-BDeu, a score of your own) is computed exactly on
    it, by the compiled counting and searches of complete data; the randomness of one
    draw is the price, and it shrinks as :math:`N` grows.

    After each iteration the chain measures the new network by the Cheeseman-Stutz
    approximation of its observed-data score [6]_,

    .. math::

        C(G_t) = L(G_t, \theta_t) + \bigl[S(G_t; D_t) - \hat L(G_t; D_t)\bigr],

    the observed-data log-likelihood :math:`L = \sum_{rows} \log P(x_O)` (exact, a
    by-product of the next draw) plus the score's complexity term on the completion
    (the score minus the completion's maximized log-likelihood: fNML's regret, BIC's
    :math:`-\tfrac{d}{2}\log N`, BDeu's Occam factor). A chain stops when :math:`C`
    has not exceeded its best by ``tol`` per row for ``n_iter_no_change`` iterations,
    or after ``max_iter``; its result is the network, among those of its last
    ``n_completions`` iterations, with the largest average score over its last
    ``n_completions`` completions (a many-draw estimate of :math:`Q`; ties to the later
    iteration). Chains started from the same network with other draws can settle in
    different local optima (on alarm, N = 2000, 20% missing, one chain's result was
    6 to 23 edges from the truth depending on the seed, with :math:`C` ordered the same
    way), so ``n_init`` chains run (in parallel over ``n_jobs`` processes) and the one
    with the largest mean :math:`C` over its last ``n_completions`` iterations wins
    (several short runs, as Biernacki et al. [7]_ advise for EM). The winner's
    parameters are then fitted by EM with the exact E-step
    (:class:`~pgmpy_nml.EMEstimator`, the M-step of ``parameter_estimator``, from the
    chain's parameters), so every probability stays positive with fsNML or a Dirichlet
    prior.

    One completion per step has a cost beyond its noise: imputed cells carry the
    dependencies of the network that drew them, so an edge, once added, partly supports
    itself, and the chains settle around networks somewhat denser than the
    complete-data learner's (hailfinder, N = 2000, 20% missing: 75 edges against 64;
    started from the complete data's own network the chain still grew to 82). Measured
    against dropping rows and PNAL in ``benchmarks/bench_missing.py``.

    Under missingness at random (a cell's chance of being missing depends only on
    observed values) the posterior of the missing cells, and so the whole procedure,
    ignores the missingness mechanism [5]_; when the chance depends on the missing value
    itself no method that ignores the mechanism is valid. On data without a missing
    cell it is the complete-data learner: one search on the data from ``start_dag``,
    parameters by ``parameter_estimator`` (no EM, no randomness).

    Parameters
    ----------
    scoring_method : str or score object, default "fnml"
        A registered score name (:func:`~pgmpy_nml.scores.score_names`, with
        ``score_params``) or a score object, rebuilt on every completion.
    method : str or search object, default "hill"
        ``"hill"``, ``"tabu"``: :class:`~pgmpy_nml.LocalSearch`; ``"auto"``, ``"dp"``,
        ``"astar"``, ``"solver"``, ...: :class:`~pgmpy_nml.ExactSearch`. Or a search
        object (``ExactSearch(time_limit=60)``, ``LocalSearch(restarts=5)``, pgmpy's
        searches): a new one is built from its parameters for every completion, with the
        score of that completion and, where it takes one, ``start_dag`` the current
        network.
    score_params : dict, optional
        Parameters of a score given by name (e.g. ``{"equivalent_sample_size": 10}``).
    max_parents : int, optional
        Parent limit (set on a search object, which must have the parameter).
    expert_knowledge : pgmpy.causal_discovery.ExpertKnowledge or dict, optional
        Required and forbidden edges, search space, tiers: for every search (set on a
        search object, which must take it).
    start_dag : pgmpy DAG, networkx DiGraph, dict or list of edges, optional
        The first network (default: none but the required edges): its parameters from
        each family's complete rows give the first completion.
    parameter_estimator : "auto", None or pgmpy DiscreteParameterEstimator, default "auto"
        The M-step: ``"auto"`` the score's own
        (:func:`~pgmpy_nml.models.default_parameter_estimator`: fsNML for fNML and qNML,
        BDeu's posterior mean for BDeu), :class:`~pgmpy_nml.FSNMLEstimator`, pgmpy's
        ``DiscreteBayesianEstimator`` or ``DiscreteMLE``. None: no ``model_`` (the chain
        uses fsNML).
    state_names : dict, optional
        Declared states (default: the observed values).
    max_iter : int, default 30
        Most iterations.
    tol : float, default 1e-3
        Nats per row by which the observed-data log-likelihood must exceed its best to
        count as an improvement.
    n_iter_no_change : int, default 3
        Iterations without improvement before the chain stops.
    n_completions : int, default 5
        Completions (and networks) of a chain's last iterations that choose its result
        and measure its mean criterion.
    n_init : int, default 3
        Chains (the best by the criterion wins). One costs a third (alarm,
        N = 10,000, 20% missing: 12 s of CPU for one, 33 s for three).
    em_max_iter : int, default 100
        Most iterations of the final parameter EM.
    em_tol : float, default 1e-6
        Its tolerance (nats per row, as :class:`~pgmpy_nml.EMEstimator`'s ``tol``).
    random_state : int, numpy Generator or None, default 0
        Seed of the draws (None: fresh entropy, not reproducible).
    n_jobs : int or None, default None
        Processes that run the chains side by side (None: one; -1 all cores). Each
        chain's draws, searches and fits run on one core; a search object keeps its
        own ``n_jobs``.
    show_progress : bool, default True
        Progress on stderr (a bar on a terminal, lines in a log): the iteration, the
        observed-data log-likelihood and the number of edges changed.

    Attributes
    ----------
    causal_graph_ : pgmpy.base.DAG
        The learned structure, every variable a node.
    dag_ : pgmpy.base.DAG
        The same (as the searches name it).
    model_ : pgmpy.models.DiscreteBayesianNetwork or None
        The network with the parameters of the final EM.
    score_ : float
        The criterion :math:`C` of the structure (above; complete data: its score).
    log_likelihood_ : float
        The observed-data log-likelihood of ``model_`` (nats; without a parameter
        estimator, of the chain's parameters).
    iterations_ : pandas.DataFrame
        One row per iteration of each chain: ``chain``, ``iteration``,
        ``log_likelihood`` (of that iteration's network and parameters), ``score`` (of
        the network on its completion), ``criterion`` (:math:`C`), ``changed_edges``
        (pairs of variables whose edge was added, removed or reversed), ``n_edges``,
        ``seconds``. Empty on complete data.
    n_iter_ : int
        Iterations run, over all chains (0 on complete data).
    converged_ : bool
        Whether the stopping rule ended every chain (not ``max_iter``).
    n_missing_ : int
        Missing cells in the data.
    n_features_in_ : int
    feature_names_in_ : ndarray of object

    Examples
    --------
    >>> import numpy as np
    >>> from pgmpy_nml import LocalSearch, StructuralEM
    >>> from pgmpy_nml.datasets import sample_network
    >>> from pgmpy_nml.study import cpdag, structural_hamming_distance
    >>> true_model, data = sample_network("child", 1000, random_state=0)
    >>> holes = data.mask(np.random.default_rng(0).random(data.shape) < 0.2)  # 20% missing
    >>> len(holes.dropna())  # complete rows
    11
    >>> sem = StructuralEM("fnml", show_progress=False).fit(holes)
    >>> sem.converged_, sem.model_.check_model()
    (True, True)
    >>> drop = LocalSearch("fnml", show_progress=False).fit(holes.dropna())
    >>> truth = cpdag(true_model)  # edges to the truth: structural EM, the complete rows
    >>> [structural_hamming_distance(truth, cpdag(g.causal_graph_)) for g in (sem, drop)]
    [4, 37]

    References
    ----------
    .. [1] N. Friedman. "Learning belief networks in the presence of missing values and
       hidden variables". ICML 1997.
    .. [2] N. Friedman. "The Bayesian structural EM algorithm". UAI 1998.
    .. [3] G. Celeux, J. Diebolt. "The SEM algorithm: a probabilistic teacher algorithm
       derived from the EM algorithm for the mixture problem". Computational Statistics
       Quarterly 2, 1985.
    .. [4] M. A. Tanner, W. H. Wong. "The calculation of posterior distributions by data
       augmentation". Journal of the American Statistical Association 82, 1987.
    .. [5] D. B. Rubin. "Inference and missing data". Biometrika 63(3), 1976.
    .. [6] P. Cheeseman, J. Stutz. "Bayesian classification (AutoClass): theory and
       results". Advances in Knowledge Discovery and Data Mining, 1996; D. M.
       Chickering, D. Heckerman. "Efficient approximations for the marginal likelihood
       of Bayesian networks with hidden variables". Machine Learning 29, 1997.
    .. [7] C. Biernacki, G. Celeux, G. Govaert. "Choosing starting values for the EM
       algorithm for getting the highest likelihood in multivariate Gaussian mixture
       models". Computational Statistics & Data Analysis 41, 2003.
    .. [8] M. Scutari. bnlearn's ``structural.em`` (R package bnlearn).
    """

    _parameter_specs = {
        "scoring_method": SCORING_METHOD,
        "method": METHOD_OR_SEARCH,
        "score_params": NoneOr(Instance(Mapping, "a dict of the score's parameters")),
        "max_parents": NoneOr(Integer()),
        "expert_knowledge": EXPERT_KNOWLEDGE,
        "start_dag": START_DAG,
        "parameter_estimator": AnyOf(
            Choice(("auto",)),
            PARAMETER_ESTIMATOR,
            what="'auto', None or a pgmpy parameter estimator instance",
        ),
        "state_names": STATE_NAMES,
        "max_iter": Integer(minimum=1),
        "tol": Real(minimum=0.0),
        "n_iter_no_change": Integer(minimum=1),
        "n_completions": Integer(minimum=1),
        "n_init": Integer(minimum=1),
        "em_max_iter": Integer(minimum=1),
        "em_tol": Real(minimum=0.0),
        "random_state": RandomState(),
        "n_jobs": NJobs(),
        "show_progress": Boolean(),
    }

    def __init__(
        self,
        scoring_method: ScoringMethod = "fnml",
        *,
        method: SearchLike = "hill",
        score_params: Mapping[str, Any] | None = None,
        max_parents: int | None = None,
        expert_knowledge: ExpertKnowledgeLike | None = None,
        start_dag: Graph | None = None,
        parameter_estimator: DiscreteParameterEstimator | str | None = "auto",
        state_names: StateNames | None = None,
        max_iter: int = 30,
        tol: float = 1e-3,
        n_iter_no_change: int = 3,
        n_completions: int = 5,
        n_init: int = 3,
        em_max_iter: int = 100,
        em_tol: float = 1e-6,
        random_state: int | np.random.Generator | None = 0,
        n_jobs: int | None = None,
        show_progress: bool = True,
    ) -> None:
        self.scoring_method = scoring_method
        self.method = method
        self.score_params = score_params
        self.max_parents = max_parents
        self.expert_knowledge = expert_knowledge
        self.start_dag = start_dag
        self.parameter_estimator = parameter_estimator
        self.state_names = state_names
        self.max_iter = max_iter
        self.tol = tol
        self.n_iter_no_change = n_iter_no_change
        self.n_completions = n_completions
        self.n_init = n_init
        self.em_max_iter = em_max_iter
        self.em_tol = em_tol
        self.random_state = random_state
        self.n_jobs = n_jobs
        self.show_progress = show_progress

    causal_graph_ = fitted_attribute("dag", "pgmpy.base.DAG: the learned structure.")
    dag_ = fitted_attribute("dag", "Alias of ``causal_graph_``.")
    model_ = fitted_attribute("model", "DiscreteBayesianNetwork or None: the fitted network.")
    score_ = fitted_attribute("score", "float: its criterion C (complete data: its score).")
    log_likelihood_ = fitted_attribute(
        "log_likelihood", "float: the observed-data log-likelihood of the fitted network."
    )
    iterations_ = fitted_attribute("iterations", "pandas.DataFrame: one row per iteration.")
    n_iter_ = fitted_attribute("n_iter", "int: iterations run.")
    converged_ = fitted_attribute("converged", "bool: whether the stopping rule ended it.")
    n_missing_ = fitted_attribute("n_missing", "int: missing cells in the data.")

    # -- the pieces ------------------------------------------------------------------------
    def _estimator(self) -> Any:
        """The parameter estimator (``"auto"``: the score's own), or None."""
        estimator = self.parameter_estimator
        if not isinstance(estimator, str):
            return estimator
        if isinstance(self.scoring_method, str):
            return default_parameter_estimator(self.scoring_method, **(self.score_params or {}))
        return default_parameter_estimator(self.scoring_method)

    def _template(self, settings: dict) -> Any:
        """The search to rebuild on every completion."""
        given = {
            key: settings[key]
            for key in ("max_parents", "expert_knowledge")
            if settings[key] is not None
        }
        if isinstance(self.method, str):
            return named_search(
                self.method, n_jobs=None, show_progress=False, parameter_estimator=None, **given
            )
        template = fresh_search(self.method, None, **given)
        if "parameter_estimator" in template.get_params(deep=False):
            template.set_params(parameter_estimator=None)  # the parameters are fitted here
        return template

    def _start(self, variables) -> Any:
        """The first network: ``start_dag`` with the required edges (checked once)."""
        constraints = Constraints.from_knowledge(variables, self.max_parents, self.expert_knowledge)
        return check_start_dag(self.start_dag if self.start_dag is not None else [], constraints)

    def _check_data(self, data) -> None:
        if is_dask_frame(data):
            raise InputError(
                "StructuralEM draws the missing cells of every row: it needs the rows in "
                "memory, not a Dask DataFrame. Give it a pandas DataFrame (data.compute(), or "
                "a sample of the rows)."
            )

    def fit(self, data: pd.DataFrame) -> StructuralEM:
        """Learn the structure and the parameters from ``data``.

        Parameters
        ----------
        data : pandas.DataFrame
            Discrete data, one column per variable; missing cells as NaN, None or pd.NA.

        Returns
        -------
        self
        """
        self._result = None
        settings = validate_params(self)
        self._check_data(data)
        encoded = encode_data(data, self.state_names, missing="available")
        estimator = self._estimator()
        template = self._template(settings)
        check_table_sizes(
            {v: int(r) for v, r in zip(encoded.variables, encoded.arities, strict=True)},
            settings["max_parents"],
        )
        start = self._start(list(encoded.variables))
        columns = feature_names(data.columns)
        if not (encoded.codes < 0).any():
            result = self._complete(data, template, estimator, columns)
        else:
            frame_search = not isinstance(template, (ExactSearch, LocalSearch))
            chain = _em.Chain(self, settings, encoded, template, estimator, frame_search)
            started = time.perf_counter()
            best, records, converged = _em.run_chains(chain, start, settings)
            model, log_likelihood = chain.fit_parameters(best)
            result = _em.Fitted(
                dag=best.dag,
                model=model,
                score=best.criterion,
                log_likelihood=log_likelihood,
                iterations=_em.iteration_frame(records),
                n_iter=len(records),
                converged=converged,
                n_missing=int((encoded.codes < 0).sum()),
                feature_names=columns,
                seconds=time.perf_counter() - started,
            )
        warn_sparse(result.dag, encoded.state_names, encoded.n_samples)
        self._result = result
        return self

    def _complete(self, data, template, estimator, columns) -> _em.Fitted:
        """No missing cell: the complete-data learner (one search, then the parameters)."""
        started = time.perf_counter()
        score = resolve_score(
            self.scoring_method, data, self.state_names, self.score_params, bind="rebind"
        )
        search = fresh_search(template, score, start_dag=self.start_dag)
        with inner_fits():
            search.fit(data)
        dag = as_dag(search.causal_graph_, data.columns)
        model = None
        log_likelihood = float("nan")
        if estimator is not None:
            names = self.state_names or getattr(score, "state_names", None)
            model = fit_network(dag, data, estimator, names)
            from ..evaluate import log_loss

            log_likelihood = -log_loss(model, data) * len(data)
        return _em.Fitted(
            dag=dag,
            model=model,
            score=float(score.score(dag)),
            log_likelihood=log_likelihood,
            iterations=_em.iteration_frame([]),
            n_iter=0,
            converged=True,
            n_missing=0,
            feature_names=columns,
            seconds=time.perf_counter() - started,
        )
