r"""Steck's analysis of the equivalent sample size (ESS) of BDeu, and its optimal value.

BDeu has one free parameter, the equivalent sample size :math:`\alpha`, and the
learned graph depends on it strongly. Steck (2008) [1]_ analyses this in two steps,
both implemented here:

* large :math:`\alpha` (Sec. 3): the uniformity measure :math:`U` of Eq. 4-5
  (:func:`uniformity`, with :func:`pair_counts` to count a pair of variables given
  a conditioning set) and the leading-order log Bayes factor of adding one edge,
  Eq. 8 of Proposition 2 (:func:`large_ess_log_bayes_factor`);
* realistic :math:`\alpha` (Sec. 4): the analytic approximation of the optimal ESS
  of a given graph, Eq. 18 (:func:`optimal_ess`), and the alternating optimization
  of graph and ESS of Sec. 4.1 (:class:`OptimalESS`). For comparison,
  :func:`marginal_likelihood_ess` maximizes the graph's BDeu marginal likelihood
  (Eq. 2) over :math:`\alpha` numerically, which is step 2 of Sec. 4.1 done exactly.

Notes on the paper
------------------
* Eq. 18 is *not* the maximizer of :math:`p(D\mid\alpha, G)`: it minimizes an
  AIC-type approximation of the test error (Eqs. 12-17). Expanding the derivative of
  Eq. 2 for :math:`\alpha/(r_i q_i) \gg 1` and :math:`\alpha \ll N` gives
  :math:`\alpha_{ML} \approx d / (2 \sum_i E_{q(\pi_i)}\mathrm{KL}(q\,\|\,\hat p(\cdot\mid\pi_i)))`,
  whereas Eq. 18 is :math:`d / \sum_i (E_{\hat p(\pi_i)}\mathrm{KL}(\hat p(\cdot\mid\pi_i)
  \,\|\,q) + E_{q(\pi_i)}\mathrm{KL}(q\,\|\,\hat p(\cdot\mid\pi_i)))`. The two agree to
  leading order only when every family's joint :math:`\hat p(x_i, \pi_i)` is close to
  uniform (then up to :math:`O(\alpha/N)`); for skewed data they differ by an amount
  that does not vanish as :math:`N \to \infty` (one binary variable with frequencies
  0.1 / 0.9: Eq. 18 gives 1.14, the maximizer 1.29).
* :math:`U` is a sum of squares (:func:`uniformity`), so it vanishes exactly when the
  *additive* interaction of :math:`\hat p(a, b\mid\pi)` vanishes. Proposition 1's
  "only if" is too strong: a dependent distribution with two skewed marginals can
  have :math:`U = 0`. One example is :math:`p(a,b) = (0.35, 0.25; 0.25, 0.15)`.
* The remainder of Eq. 9 is :math:`O(N_y^3/\alpha_y^2)`, not :math:`O(N_y^2/\alpha_y^2)`:
  the next term of :math:`\sum_k \log(1 + (k-1)/\alpha_y)` is
  :math:`-\sum_k (k-1)^2/(2\alpha_y^2)`. So the error of Eq. 8 relative to its leading
  term is :math:`O(N |A,B,\Pi| / \alpha)`.

References
----------
.. [1] H. Steck. "Learning the Bayesian network structure: Dirichlet prior versus
   data". Proceedings of the 24th Conference on Uncertainty in Artificial
   Intelligence (UAI 2008).
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

import networkx as nx
import numpy as np
from scipy.optimize import minimize_scalar
from sklearn.base import BaseEstimator

from .._counting import family_table
from .._data import EncodedData, encode_data
from .._estimator import ResultEstimator, feature_names, fitted_attribute
from .._params import (
    LOCAL_METHODS,
    METHODS,
    STATE_NAMES,
    Boolean,
    Choice,
    Integer,
    NoneOr,
    Real,
    Rule,
    validate_params,
)
from .._validate import as_real
from ..scores._dirichlet import table_log_bd_rows
from ._ess_uniformity import large_ess_log_bayes_factor, pair_counts, uniformity

if TYPE_CHECKING:
    import pandas as pd

    from .._typing import Graph, StateNames

__all__ = [
    "ESSStep",
    "OptimalESS",
    "large_ess_log_bayes_factor",
    "marginal_likelihood_ess",
    "optimal_ess",
    "pair_counts",
    "uniformity",
]


_UPDATES = ("eq18", "marginal_likelihood")


# ---------------------------------------------------------------------------
# Section 4: the optimal ESS of a graph
# ---------------------------------------------------------------------------


class _Family(NamedTuple):
    counts: np.ndarray  # (q_observed, r), rows with positive sums
    n_parent_configs: int  # q, all configurations
    arity: int  # r


def _families(enc: EncodedData, dag) -> list[_Family]:
    """Validate ``dag`` against the data and count each of its families."""
    if not (hasattr(dag, "nodes") and hasattr(dag, "predecessors") and hasattr(dag, "edges")):
        raise TypeError(
            "dag must be a pgmpy DAG / DiscreteBayesianNetwork or a networkx DiGraph, "
            f"got {type(dag).__name__}."
        )
    nodes = list(dag.nodes())
    unknown = [v for v in nodes if v not in enc.index]
    if unknown:
        raise ValueError(
            f"The graph has node(s) {unknown!r} that are not columns of the data "
            f"({list(enc.variables)!r})."
        )
    missing = [v for v in enc.variables if v not in set(nodes)]
    if missing:
        raise ValueError(
            f"The data has column(s) {missing!r} that are not nodes of the graph; Eq. 18 is "
            "over all variables: add them as isolated nodes (dag.add_nodes_from(...)) or "
            "drop the columns."
        )
    graph = nx.DiGraph()
    graph.add_nodes_from(nodes)
    graph.add_edges_from(dag.edges())
    if not nx.is_directed_acyclic_graph(graph):
        cycle = [u for u, _ in nx.find_cycle(graph)]
        raise ValueError(f"The graph has a directed cycle through {cycle!r}; it must be a DAG.")
    out = []
    for v in enc.variables:
        child, parents = enc.family(v, list(graph.predecessors(v)))
        table = family_table(enc.codes, enc.arities, child, parents)
        out.append(_Family(table, enc.configurations(parents), int(enc.arities[child])))
    return out


def _eq18_terms(families: list[_Family], n: int) -> tuple[int, float, float]:
    r"""``d_eff``, :math:`E_{\hat p}[\log \hat p(X|G)]` and :math:`E_q[\log \hat p^+(X|G)]`."""
    d_eff = 0
    e_hat = 0.0
    e_q = 0.0
    for fam in families:
        counts = fam.counts.astype(np.float64)
        n_j = counts.sum(axis=1, keepdims=True)
        pos = fam.counts > 0
        d_eff += int(pos.sum()) - fam.counts.shape[0]  # Eq. 15
        e_hat += float(np.sum(counts[pos] * np.log((counts / n_j)[pos]))) / n  # Eq. 14
        # N+ = max(N, 1), renormalized within each parent configuration; an unobserved
        # configuration thus gets the uniform distribution, log p = -log r.
        plus = np.maximum(counts, 1.0)
        log_p = np.log(plus / plus.sum(axis=1, keepdims=True))
        q_all, r = fam.n_parent_configs, fam.arity
        unobserved = 1.0 - fam.counts.shape[0] / q_all
        e_q += float(log_p.sum()) / (q_all * r) - unobserved * math.log(r)
    return d_eff, e_hat, e_q


def _eq18(families: list[_Family], n: int) -> float:
    d_eff, e_hat, e_q = _eq18_terms(families, n)
    denominator = e_hat - e_q
    if d_eff == 0:
        return 0.0
    if denominator <= 0.0:
        return math.inf
    return d_eff / denominator


def optimal_ess(data: pd.DataFrame, dag: Graph, *, state_names: StateNames | None = None) -> float:
    r"""Steck's analytic approximation of the optimal ESS of a graph (Eq. 18).

    .. math::

        \alpha^* \approx \frac{d^{\mathrm{eff}}_G}
            {E_{\hat p(X)}[\log \hat p(X\mid G)] - E_{q(X)}[\log \hat p(X\mid G)]},

    with :math:`E_{\hat p}[\log\hat p(X\mid G)] = \sum_i\sum_{x_i,\pi_i}
    \frac{N_{x_i,\pi_i}}{N}\log\frac{N_{x_i,\pi_i}}{N_{\pi_i}}` (Eq. 14, the maximum
    log-likelihood over :math:`N`), :math:`E_q` the same expectation under the uniform
    BDeu prior :math:`q(x_i,\pi_i) = 1/(|X_i||\Pi_i|)` over *all* parent
    configurations, and the effective number of parameters (Eq. 15)

    .. math::

        d^{\mathrm{eff}}_G = \sum_i \Bigl[\sum_{x_i,\pi_i} I(N_{x_i,\pi_i} > 0)
            - \sum_{\pi_i} I(N_{\pi_i} > 0)\Bigr].

    Zero cells follow the paper's rule: :math:`\max\{N_{x_i,\pi_i}, 1\}` replaces
    :math:`N_{x_i,\pi_i}` inside the logarithm of :math:`E_q`. The paper leaves two
    details open; here :math:`\hat p^+(x_i\mid\pi_i)` is renormalized,
    :math:`\max\{N_{x_i,\pi_i},1\}/\sum_{x}\max\{N_{x,\pi_i},1\}`, so an unobserved
    parent configuration gets the uniform distribution (:math:`N_{\pi_i} = 0` would
    otherwise give :math:`\log(1/0)`). This keeps the denominator non-negative:
    it is :math:`\sum_i \{E_{\hat p(\pi_i)} \mathrm{KL}(\hat p\,\|\,q) +
    E_{q(\pi_i)} \mathrm{KL}(q\,\|\,\hat p^+)\}`. :math:`E_{\hat p}` needs no
    correction (zero cells have weight 0).

    Eq. 18 minimizes an AIC-type estimate of the test error; it is not the
    maximizer of the graph's BDeu marginal likelihood (compare
    :func:`marginal_likelihood_ess`), which it approximates only when the
    conditional distributions are close to uniform.

    Parameters
    ----------
    data : pandas.DataFrame
        Discrete data, one column per variable.
    dag : pgmpy DAG, DiscreteBayesianNetwork or networkx DiGraph
        The graph :math:`G`, over exactly the columns of ``data``.
    state_names : dict, optional
        Variable -> list of states; declared, unobserved states count in
        :math:`|X_i|` and :math:`|\Pi_i|`.

    Returns
    -------
    float
        :math:`\alpha^*`. It is ``inf`` if every conditional is exactly uniform, and
        ``0.0`` if :math:`d^{\mathrm{eff}}_G = 0` (every observed parent
        configuration shows a single child state).

    References
    ----------
    .. [1] H. Steck. "Learning the Bayesian network structure: Dirichlet prior versus
       data". UAI 2008, Sec. 4.2, Eq. 12-18.

    Examples
    --------
    One binary variable with frequencies 0.45 / 0.55: the optimal ESS is large,
    because the data are close to the uniform prior.

    >>> import pandas as pd
    >>> from pgmpy.base import DAG
    >>> data = pd.DataFrame({"A": [0] * 45 + [1] * 55})
    >>> dag = DAG()
    >>> dag.add_node("A")
    >>> round(optimal_ess(data, dag), 2)
    99.67
    """
    enc = encode_data(data, state_names)
    return _eq18(_families(enc, dag), enc.n_samples)


def _log_marginal_likelihood(families: list[_Family], alpha: float) -> float:
    """BDeu log marginal likelihood (Eq. 2) of a graph from its family tables."""
    total = 0.0
    for fam in families:
        a = alpha / (fam.n_parent_configs * fam.arity)
        total += float(table_log_bd_rows(fam.counts, a).sum())
    return total


def _argmax_alpha(families: list[_Family], bounds: tuple[float, float]) -> float:
    lo, hi = math.log(bounds[0]), math.log(bounds[1])
    n_grid = max(9, math.ceil(12 * (hi - lo) / math.log(10)) + 1)
    grid = np.linspace(lo, hi, n_grid)
    values = np.array([_log_marginal_likelihood(families, math.exp(t)) for t in grid])
    best = int(np.argmax(values))
    if best in (0, n_grid - 1):
        side = "lower" if best == 0 else "upper"
        warnings.warn(
            f"The BDeu marginal likelihood of this graph is maximal at the {side} bound "
            f"alpha = {bounds[best > 0]:g} of the search interval {bounds}; the maximizer "
            "may lie beyond it. Widen bounds.",
            RuntimeWarning,
            stacklevel=3,
        )
        return float(bounds[best > 0])
    res = minimize_scalar(
        lambda t: -_log_marginal_likelihood(families, math.exp(t)),
        bounds=(grid[best - 1], grid[best + 1]),
        method="bounded",
        options={"xatol": 1e-10},
    )
    return float(math.exp(res.x))


def _check_bounds(bounds) -> tuple[float, float]:
    try:
        lo, hi = bounds
    except (TypeError, ValueError):
        raise TypeError(f"bounds must be a pair (low, high), got {bounds!r}.") from None
    lo = as_real(lo, "bounds[0]", low_open=True)
    hi = as_real(hi, "bounds[1]", low_open=True)
    if not lo < hi:
        raise ValueError(f"bounds must satisfy low < high, got {bounds!r}.")
    return lo, hi


def marginal_likelihood_ess(
    data: pd.DataFrame,
    dag: Graph,
    *,
    state_names: StateNames | None = None,
    bounds: tuple[float, float] = (1e-3, 1e5),
) -> float:
    r"""The ESS that maximizes the graph's BDeu marginal likelihood, numerically.

    .. math::

        \hat\alpha = \arg\max_{\alpha} \log p(D\mid\alpha, G),

    with :math:`p(D\mid\alpha,G)` of Eq. 2 (the BDeu score, computed with
    :func:`pgmpy_nml.scores._dirichlet.log_bd_rows`). This is step 2 of
    Steck's Sec. 4.1 solved exactly; :func:`optimal_ess` (Eq. 18) approximates it.
    The maximum is located on a log-spaced grid (12 points per decade) and refined
    by bounded Brent search on :math:`\log\alpha`.

    Parameters
    ----------
    data : pandas.DataFrame
        Discrete data, one column per variable.
    dag : pgmpy DAG, DiscreteBayesianNetwork or networkx DiGraph
        The graph, over exactly the columns of ``data``.
    state_names : dict, optional
        Variable -> list of states.
    bounds : (float, float), default (1e-3, 1e5)
        Search interval for :math:`\alpha`. If the maximum is at a bound (the
        likelihood is monotone there), that bound is returned with a
        ``RuntimeWarning``.

    Returns
    -------
    float

    References
    ----------
    .. [1] H. Steck. "Learning the Bayesian network structure: Dirichlet prior versus
       data". UAI 2008, Eq. 2 and Sec. 4.1.

    Examples
    --------
    Near-uniform data: close to Eq. 18 (99.67).

    >>> import pandas as pd
    >>> from pgmpy.base import DAG
    >>> dag = DAG()
    >>> dag.add_node("A")
    >>> data = pd.DataFrame({"A": [0] * 4500 + [1] * 5500})
    >>> round(marginal_likelihood_ess(data, dag), 1), round(optimal_ess(data, dag), 1)
    (101.0, 99.7)
    """
    bounds = _check_bounds(bounds)
    enc = encode_data(data, state_names)
    return _argmax_alpha(_families(enc, dag), bounds)


class ESSStep(NamedTuple):
    r"""One round of :class:`OptimalESS`: a graph, the ESS computed from it, and their score.

    Attributes
    ----------
    alpha : float
        The ESS computed from ``dag`` (Eq. 18, or the marginal-likelihood maximizer).
    dag : pgmpy.base.DAG
        The graph of the round: BIC-optimal in round 0, then optimal for BDeu with
        the previous round's ``alpha``.
    score : float
        :math:`\log p(D\mid\alpha, G)`, the BDeu log marginal likelihood (Eq. 2) of
        this ``alpha`` and ``dag``.

    Examples
    --------
    >>> from pgmpy.base import DAG
    >>> step = ESSStep(alpha=2.5, dag=DAG([("A", "B")]), score=-1234.5)
    >>> step.alpha, sorted(step.dag.edges())
    (2.5, [('A', 'B')])
    """

    alpha: float
    dag: object
    score: float


class OptimalESS(ResultEstimator, BaseEstimator):
    r"""Joint optimization of graph and ESS by coordinate ascent (Steck 2008, Sec. 4.1).

    Steck's Eq. 11 maximizes :math:`p(D\mid\alpha, G)` over both the graph and the
    equivalent sample size. The coordinate ascent starts from the BIC-optimal graph
    :math:`G_0`, sets :math:`\alpha_0 = \alpha^*(G_0)`, and then repeats, for
    :math:`k = 1, 2, \dots`,

    1. :math:`G_k = \arg\max_G p(D\mid\alpha_{k-1}, G)` (BDeu structure search),
    2. :math:`\alpha_k = \alpha^*(G_k)` (Eq. 18, :func:`optimal_ess`),

    until :math:`|\alpha_k - \alpha_{k-1}| < \mathrm{tol}` (the paper uses 0.1).
    Because Eq. 18 depends only on the graph, a repeated graph gives a repeated
    :math:`\alpha`, i.e. a fixed point. With ``update="marginal_likelihood"``, step 2
    maximizes :math:`p(D\mid\alpha, G_k)` numerically instead
    (:func:`marginal_likelihood_ess`), the exact coordinate ascent of Eq. 11.

    Parameters
    ----------
    method : str, default "auto"
        Structure search of both steps: :class:`pgmpy_nml.ExactSearch` with that
        method (``"dp"``, ``"astar"``, ``"solver"``, ``"astar|solver"``,
        ``"solver|solver"``: the global optimum), or :class:`pgmpy_nml.LocalSearch`
        (``"hill"``, ``"tabu"``: a local optimum, warm-started from the previous graph);
        ``"auto"``: the exact search up to
        ``AUTO_EXACT_MAX_VARIABLES`` (20) variables, hill climbing beyond
        (:func:`~pgmpy_nml.search.choose_search` with ``repeated=True``).
    tol : float, default 0.1
        Convergence threshold on :math:`|\alpha_k - \alpha_{k-1}|`.
    max_iter : int, default 20
        Largest number of BDeu structure searches (rounds after :math:`G_0`).
    update : {"eq18", "marginal_likelihood"}, default "eq18"
        How :math:`\alpha_k` is computed from :math:`G_k`.
    max_parents : int, optional
        Largest parent set of the searches.
        A whole number; a float such as ``2.0`` is taken as ``2``, ``2.5`` is refused.
    state_names : dict, optional
        Variable -> list of states; declared, unobserved states count.
    bounds : (float, float), default (1e-3, 1e5)
        Search interval of ``update="marginal_likelihood"``.
    show_progress : bool, default False
        Progress bars of the structure searches.

    Attributes
    ----------
    alpha_ : float
        The final ESS :math:`\alpha_k`.
    dag_ : pgmpy.base.DAG
        The final graph :math:`G_k`, optimal (for an exact method) for BDeu with
        :math:`\alpha_{k-1}`, which is within ``tol`` of ``alpha_``.
    causal_graph_ : pgmpy.base.DAG
        The same graph, under the name pgmpy's searches use.
    score_ : float
        :math:`\log p(D\mid\alpha_k, G_k)`, the BDeu log marginal likelihood.
    history_ : list of ESSStep
        ``(alpha, dag, score)`` of rounds 0 (the BIC graph), 1, ..., ``n_iter_``.
    n_iter_ : int
        Number of BDeu structure searches (the paper's :math:`k` in Table 1).
    converged_ : bool
        Whether the tolerance was met within ``max_iter`` rounds (otherwise a
        ``RuntimeWarning`` is issued).
    method_ : str
        The search used: ``"dp"``, ``"astar"`` or ``"solver"`` (an exact search with
        that engine; ``method="auto"`` records the one the policy chose), ``"hill"`` or
        ``"tabu"``.
    n_features_in_ : int
        The number of columns of the data.
    feature_names_in_ : ndarray of object
        The data's columns, in order.

    Notes
    -----
    BDeu is :class:`pgmpy_nml.BDeu` (the textbook score, declared unobserved states
    included); the initial graph maximizes BIC. A scikit-learn estimator:
    ``get_params``, ``set_params`` and ``sklearn.base.clone`` work.

    References
    ----------
    .. [1] H. Steck. "Learning the Bayesian network structure: Dirichlet prior versus
       data". UAI 2008, Sec. 4.1 (Eq. 11), Sec. 4.2 (Eq. 18) and Sec. 4.3.

    Examples
    --------
    >>> from pgmpy_nml.datasets import sample_network
    >>> from pgmpy_nml.analysis.ess import OptimalESS
    >>> _, data = sample_network("cancer", 2000, random_state=0)
    >>> est = OptimalESS("dp").fit(data)
    >>> est.converged_, est.n_iter_, round(est.alpha_, 2)
    (True, 1, 2.14)
    >>> [round(step.alpha, 2) for step in est.history_]
    [2.14, 2.14]
    """

    _parameter_specs = {
        "method": Choice(METHODS),
        "tol": Real(open_min=True),
        "max_iter": Integer(minimum=1),
        "update": Choice(_UPDATES),
        "max_parents": NoneOr(Integer()),
        "state_names": STATE_NAMES,
        "bounds": Rule(lambda value, name: _check_bounds(value), "a pair (low, high)"),
        "show_progress": Boolean(),
    }

    def __init__(
        self,
        method: str = "auto",
        *,
        tol: float = 0.1,
        max_iter: int = 20,
        update: str = "eq18",
        max_parents: int | None = None,
        state_names: StateNames | None = None,
        bounds: tuple[float, float] = (1e-3, 1e5),
        show_progress: bool = False,
    ) -> None:
        self.method = method
        self.tol = tol
        self.max_iter = max_iter
        self.update = update
        self.max_parents = max_parents
        self.state_names = state_names
        self.bounds = bounds
        self.show_progress = show_progress

    # -- checks ---------------------------------------------------------------------
    def _check_params(self, n_vars: int) -> tuple[str, float, int, str, tuple[float, float]]:
        params = validate_params(self)
        bounds = params["bounds"]
        method = params["method"]
        if method == "auto":  # the one policy, in its rule for tools that search many times
            from ..search import choose_search

            method = choose_search(n_vars, "auto", params["max_parents"], repeated=True).method
        return method, params["tol"], params["max_iter"], params["update"], bounds

    # -- the two steps --------------------------------------------------------------
    def _structure(self, data, score, method: str, start):
        from ..search import find_structure

        return find_structure(
            score,
            data,
            method,
            max_parents=self.max_parents,
            start_dag=start if method in LOCAL_METHODS else None,
            show_progress=self.show_progress,
        )

    alpha_ = fitted_attribute("alpha", "float: the final ESS.")
    dag_ = fitted_attribute("dag", "pgmpy.base.DAG: the final graph.")
    causal_graph_ = fitted_attribute("dag", "Alias of ``dag_``, as in pgmpy's searches.")
    score_ = fitted_attribute("score", "float: its BDeu log marginal likelihood.")
    history_ = fitted_attribute("history", "list of ESSStep: every round.")
    n_iter_ = fitted_attribute("n_iter", "int: number of BDeu structure searches.")
    converged_ = fitted_attribute("converged", "bool: whether the tolerance was met.")
    method_ = fitted_attribute("method", "str: the search used (a value of ``method``).")

    def fit(self, data: pd.DataFrame) -> OptimalESS:
        """Alternate BDeu structure search and the ESS update until the ESS settles.

        Parameters
        ----------
        data : pandas.DataFrame
            Discrete data, one column per variable, no missing values.

        Returns
        -------
        self
        """
        self._result = None
        enc = encode_data(data, self.state_names)
        search, tol, max_iter, update, bounds = self._check_params(enc.n_variables)
        names = {v: list(s) for v, s in enc.state_names.items()}

        def new_alpha(dag, k):
            families = _families(enc, dag)
            if update == "eq18":
                alpha = _eq18(families, enc.n_samples)
            else:
                alpha = _argmax_alpha(families, bounds)
            if not (math.isfinite(alpha) and alpha > 0):
                why = (
                    "every conditional distribution is exactly uniform"
                    if alpha > 0
                    else "every observed parent configuration shows a single child state"
                )
                raise ValueError(
                    f"Eq. 18 gives alpha = {alpha} for the graph of round {k} "
                    f"(edges {sorted(dag.edges())!r}): {why}, so no finite positive ESS "
                    "is optimal."
                )
            return alpha, _log_marginal_likelihood(families, alpha)

        from ..scores import BDeu, make_score

        dag = self._structure(data, make_score("bic", data, state_names=names), search, None)
        alpha, score = new_alpha(dag, 0)
        history = [ESSStep(alpha, dag, score)]
        converged = False
        k = 0
        for k in range(1, max_iter + 1):
            bdeu = BDeu(data, equivalent_sample_size=alpha, state_names=names)
            dag = self._structure(data, bdeu, search, dag)
            new, score = new_alpha(dag, k)
            history.append(ESSStep(new, dag, score))
            step, alpha = abs(new - alpha), new
            if step < tol:
                converged = True
                break
        if not converged:
            warnings.warn(
                f"OptimalESS did not converge in max_iter = {max_iter} rounds: the last "
                f"ESS values were {[round(s.alpha, 4) for s in history[-3:]]}. Increase "
                "max_iter or tol.",
                RuntimeWarning,
                stacklevel=2,
            )
        self._result = _ESSResult(
            alpha, dag, score, history, k, converged, search, feature_names(data.columns)
        )
        return self


@dataclass(frozen=True)
class _ESSResult:
    alpha: float
    dag: object
    score: float
    history: list
    n_iter: int
    converged: bool
    method: str
    feature_names: Any
