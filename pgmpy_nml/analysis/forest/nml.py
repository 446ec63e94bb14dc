r"""The leaves-to-roots recursion of the exact forest NML, and the two functions that run it.

The algorithm, its corrections to the paper and its cost are described in
:mod:`pgmpy_nml.analysis.forest`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from ..._counting import family_table, sum_nlogn
from ..._data import encode_data
from ..._validate import as_integer
from ...numerics.regret import log_regret
from ._kernels import (
    _add_log_message,
    _columns_message,
    _eliminate_row,
    _finish_descendants,
    _first_row_sums,
    _last_row,
    _log_convolution_power,
    _log_w,
    _root_sum,
    _scatter_sorted,
)
from ._structure import _Forest, _forest, _is_inner, _model_nodes_in
from .cost import DEFAULT_MAX_OPERATIONS, _check_cost, _inner_walk

if TYPE_CHECKING:
    from collections.abc import Hashable, Mapping

    import pandas as pd

    from ..._typing import Graph, StateNames

__all__ = ["forest_log_normalizer", "forest_nml"]


def _inner_message(cdesc, Ki, Kp, n, w):
    """L(f) for all f with |f| = n in the parent's simplex layout (normalization free)."""
    B = n + 1
    if Kp == 1:
        return np.array([_root_sum(cdesc, Ki, n, w)])
    buffers = [None] + [np.zeros(B**Ki) for _ in range(Kp - 1)]  # buffers[k] holds T_k
    out = np.zeros(B ** (Kp - 1))
    last = np.empty(n + 1)

    def visit(kind, m, hmax, outer):
        # outer = (m_{k+1}, ..., m_{Kp-1}) for the T_k being read
        if kind == "first":
            _first_row_sums(cdesc, Ki, n, hmax, w, buffers[Kp - 1])
        elif kind == "row":
            k = Kp - 1 - len(outer)  # eliminating row k: T_k -> T_{k-1}
            _eliminate_row(buffers[k], Ki, n, m, hmax, w, buffers[k - 1])
        else:  # "last": L at the sorted (m_1, *outer, m_Kp), m_1 = 0..hmax
            _last_row(buffers[1], Ki, n, hmax, w, last)
            _scatter_sorted(last, hmax, np.asarray(outer, dtype=np.int64), n, out)

    _inner_walk(n, Ki, Kp, visit=visit)
    return out


def _log_normalizer(forest: _Forest, n: int, plan: dict) -> float:
    """log C(G, n) following ``plan`` (node -> method, from :func:`_check_cost`)."""
    if n == 0:
        return 0.0
    log_w = _log_w(n)
    w = np.exp(log_w)
    ns = np.arange(n + 1)
    # node -> (log scale, array in the parent's simplex layout)
    messages: dict[Hashable, tuple[float, np.ndarray]] = {}
    total = 0.0
    for v in forest.nodes:
        K = forest.arity[v]
        p = forest.parent[v]
        method = plan[v]
        if method == "leaf":
            continue
        if method == "single":
            total += float(log_regret(K, n))
            continue
        log_leaf = np.zeros(n + 1)
        inner = []
        for c in forest.children[v]:
            if _is_inner(forest, c):
                inner.append(messages.pop(c))
            else:
                log_leaf += log_regret(forest.arity[c], ns)
        if method == "convolution":
            value = _log_convolution_power(log_w + log_leaf, K, n) - log_w[n]
            msg = np.ones(1)
        elif method == "columns":
            Kp = forest.arity[p]
            msg = np.zeros((n + 1) ** (Kp - 1))
            value = _columns_message(log_leaf, K, Kp, n, w, msg)
        else:
            cdesc = np.zeros((n + 1) ** (K - 1))
            scale = 0.0
            for log_scale, message in inner:
                _add_log_message(cdesc, message, K, n)
                scale += log_scale
            del inner
            top = _finish_descendants(cdesc, log_leaf, K, n)
            value = scale + top
            if method == "root":
                value += math.log(_root_sum(cdesc, K, n, w))
                msg = np.ones(1)
            else:
                msg = _inner_message(cdesc, K, forest.arity[p], n, w)
        if p is None:
            total += value
            continue
        peak = msg.max()
        if not (np.isfinite(peak) and peak > 0):  # pragma: no cover - defensive
            raise FloatingPointError(f"the message of node {v!r} has maximum {peak!r}")
        msg /= peak
        messages[v] = (value + math.log(peak), msg)
    return float(total)


def forest_log_normalizer(
    model: Graph,
    n: int,
    arities: Mapping[Hashable, int] | None = None,
    *,
    state_names: StateNames | None = None,
    max_operations: float | None = DEFAULT_MAX_OPERATIONS,
) -> float:
    r"""Exact :math:`\log \mathcal{C}(G, n)`, the NML normalizer of a Bayesian forest.

    .. math::

        \mathcal{C}(G, n) = \sum_{D \in \mathcal{X}^n}
            \prod_{i} \prod_{k, l} \left(\frac{N_{ikl}(D)}{N_{ik}(D)}\right)^{N_{ikl}(D)},

    the sum of the maximized likelihood over all :math:`\prod_i K_i^n` data
    sets of :math:`n` rows, :math:`N_{ikl}` the number of rows with
    :math:`X_i = l` and parent state :math:`k` (roots: :math:`N_{ik} = n`).
    Computed by the leaves-to-roots recursion of [1]_ (corrected, see
    :mod:`pgmpy_nml.analysis.forest`): exactly, up to floating-point rounding (relative
    error about :math:`10^{-13}`), and for any :math:`n` without overflow. A
    single node gives :math:`\log C(K, n)`, an edge :math:`X \to Y` gives
    :math:`\log C(K_X K_Y, n)`, and a forest the sum over its trees.

    Cost: polynomial in :math:`n`, exponential in the arities of non-leaf
    nodes; about :math:`n^{2K - 1} / (2(2K-1)!)` multiply-adds for an inner
    node with :math:`K` states under a binary parent (see :func:`forest_cost`).
    The cost is estimated first and the call refused above ``max_operations``.

    Parameters
    ----------
    model : pgmpy DAG, DiscreteBayesianNetwork or networkx DiGraph
        The forest: every node has at most one parent, no cycles.
    n : int
        Number of rows, :math:`\ge 0` (:math:`\mathcal{C} = 1` at :math:`n = 0`,
        :math:`\prod_i K_i` at :math:`n = 1`).
    arities : dict, optional
        Node -> number of states, covering every node (extra keys are ignored).
    state_names : dict, optional
        Node -> list of states (declared, possibly unobserved); instead of
        ``arities``.
    max_operations : int, float or None, default DEFAULT_MAX_OPERATIONS
        Refuse (:class:`ForestCostError`) when :func:`forest_cost` exceeds
        this (about a minute per :math:`2 \cdot 10^{10}`); ``None`` disables.

    Returns
    -------
    float
        Natural logarithm of :math:`\mathcal{C}(G, n)`.

    Raises
    ------
    ValueError
        For a node with two or more parents, a cycle, missing arities.
    ForestCostError
        If the computation exceeds ``max_operations`` or the memory limit.

    Examples
    --------
    >>> import networkx as nx
    >>> from pgmpy_nml.numerics.regret import log_regret
    >>> edge = nx.DiGraph([("A", "B")])
    >>> c = forest_log_normalizer(edge, 50, {"A": 2, "B": 3})
    >>> bool(abs(c - log_regret(6, 50)) < 1e-12)
    True
    >>> round(forest_log_normalizer(nx.DiGraph([("A", "B"), ("B", "C")]), 3,
    ...                             {"A": 2, "B": 2, "C": 2}), 10)   # log 38.9135...
    3.6613432963

    References
    ----------
    .. [1] H. Wettig, P. Kontkanen, P. Myllymäki. "Calculating the normalized
       maximum likelihood distribution for Bayesian forests". Proc. IADIS
       International Conference on Intelligent Systems and Agents, 2007.
    """
    n = as_integer(n, "n")
    forest = _forest(model, arities, state_names)
    plan = _check_cost(forest, n, max_operations)
    return _log_normalizer(forest, n, plan)


def forest_nml(
    data: pd.DataFrame,
    model: Graph,
    state_names: StateNames | None = None,
    *,
    max_operations: float | None = DEFAULT_MAX_OPERATIONS,
) -> float:
    r"""Exact NML score :math:`\log P_{\mathrm{NML}}(D \mid G)` of data under a Bayesian forest.

    .. math::

        \log P_{\mathrm{NML}}(D \mid G)
          = \sum_i \sum_{k, l} N_{ikl} \log \frac{N_{ikl}}{N_{ik}}
            - \log \mathcal{C}(G, N),

    the maximized log-likelihood (natural log) minus the exact log normalizer
    of :func:`forest_log_normalizer`, with :math:`N` the number of rows and
    the arities from the data (declared states in ``state_names`` count even
    if unobserved). Higher is better; :math:`-\log P_{\mathrm{NML}}` is the
    stochastic complexity in nats. For a forest whose trees have at most two
    nodes it equals the qNML score (:class:`pgmpy_nml.QNML`), otherwise it is
    the exact NML that qNML and fNML approximate.

    Parameters
    ----------
    data : pandas.DataFrame
        Discrete data; every node of ``model`` must be a column (other columns
        are ignored).
    model : pgmpy DAG, DiscreteBayesianNetwork or networkx DiGraph
        A forest: every node has at most one parent.
    state_names : dict, optional
        Variable -> list of its states.
    max_operations : int, float or None
        See :func:`forest_log_normalizer`.

    Returns
    -------
    float

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy.base import DAG
    >>> from pgmpy_nml import QNML
    >>> data = pd.DataFrame({"A": [0, 1, 1, 0, 1, 1], "B": [0, 1, 1, 1, 0, 1],
    ...                      "C": [1, 1, 0, 0, 1, 0]})
    >>> dag = DAG([("A", "B")]); dag.add_node("C")
    >>> bool(abs(forest_nml(data, dag) - QNML(data).score(dag)) < 1e-10)
    True
    >>> chain = DAG([("A", "B"), ("B", "C")])
    >>> round(forest_nml(data, chain), 6)
    -14.590763

    References
    ----------
    .. [1] H. Wettig, P. Kontkanen, P. Myllymäki. "Calculating the normalized
       maximum likelihood distribution for Bayesian forests". Proc. IADIS
       International Conference on Intelligent Systems and Agents, 2007.
    """
    encoded = encode_data(data, state_names)
    _model_nodes_in(model, encoded)
    arities = {v: int(encoded.arities[encoded.index[v]]) for v in model.nodes()}
    forest = _forest(model, arities=arities)
    n = encoded.n_samples
    plan = _check_cost(forest, n, max_operations)
    loglik = 0.0
    for v in forest.nodes:
        child = encoded.index[v]
        parents = () if forest.parent[v] is None else (encoded.index[forest.parent[v]],)
        table = family_table(encoded.codes, encoded.arities, child, parents)
        loglik += sum_nlogn(table) - sum_nlogn(table.sum(axis=1))
    return float(loglik - _log_normalizer(forest, n, plan))
