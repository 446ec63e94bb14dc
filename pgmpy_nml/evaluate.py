"""Predictive evaluation of fitted discrete Bayesian networks, as in the seeds' experiments."""

from __future__ import annotations

import math
import warnings
from typing import TYPE_CHECKING

import numpy as np

from ._counting import configuration_index, dense_ids
from ._data import encode_data
from .exceptions import InfiniteLossWarning, UnknownStateError
from .numerics.snml import fsnml_code_length_grouped

if TYPE_CHECKING:
    import pandas as pd
    from pgmpy.models import DiscreteBayesianNetwork

    from ._typing import Graph, StateNames

__all__ = ["fsnml_code_length", "log_loss", "n_parameters"]


def _fitted_cpds(model):
    nodes = list(model.nodes())
    cpds = {cpd.variable: cpd for cpd in model.get_cpds()} if hasattr(model, "get_cpds") else {}
    missing = [v for v in nodes if v not in cpds]
    if missing:
        raise ValueError(
            f"The model has no CPD for node(s) {missing!r}: fit it first, e.g. "
            "model.fit(data, estimator=FSNMLEstimator())."
        )
    return nodes, cpds


def _encode_for_model(model, data):
    """The fitted model's nodes and CPDs, and ``data`` encoded in the CPDs' states."""
    nodes, cpds = _fitted_cpds(model)
    names = {v: list(cpds[v].state_names[v]) for v in nodes}
    if hasattr(data, "columns"):
        missing = [v for v in nodes if v not in set(data.columns)]
        if missing:
            raise ValueError(f"The data has no column for node(s) {missing!r}.")
        data = data[nodes]
    try:
        encoded = encode_data(data, names)
    except UnknownStateError as err:
        raise UnknownStateError(
            f"{err} The model's CPDs do not know these states: declare every possible state "
            "when fitting, e.g. FSNMLEstimator(state_names={...}).",
            err.variable,
            err.values,
            err.states,
        ) from None
    return nodes, cpds, encoded


def _cpd_log_prob(cpd, encoded, codes: np.ndarray) -> np.ndarray:
    """log P(x_v | x_pa) under ``cpd`` for every row of ``codes`` (``encoded``'s layout)."""
    values = np.asarray(cpd.get_values(), dtype=float)  # (r, q), first evidence slowest
    evidence = [encoded.index[p] for p in cpd.variables[1:]]
    config = configuration_index(codes, encoded.arities, evidence)
    with np.errstate(divide="ignore"):
        return np.log(values[codes[encoded.index[cpd.variable]], config])


def log_loss(model: DiscreteBayesianNetwork, data: pd.DataFrame, base: float = math.e) -> float:
    r"""Average negative log predictive probability of the rows of ``data``.

    .. math::

        \ell(\mathcal{B}, D) = -\frac{1}{|D|} \sum_{d \in D} \log_b P(d \mid \mathcal{B})
            = -\frac{1}{|D|} \sum_{d \in D} \sum_i \log_b \theta_{i, j(d), x_i(d)},

    the measure of the prediction experiments of [1]_ (lower is better).

    Parameters
    ----------
    model : pgmpy.models.DiscreteBayesianNetwork
        A fitted network (every node has a CPD).
    data : pandas.DataFrame
        Test data with a column for every node, no missing values. Values must be
        states of the CPDs: a value never seen in training is fine when the state
        names declared it at fitting time (``FSNMLEstimator(state_names=...)``).
    base : float, default e
        Logarithm base: ``math.e`` for nats, ``2`` for bits.

    Returns
    -------
    float
        ``inf`` when a row has probability 0 under the network.

    Warns
    -----
    InfiniteLossWarning
        When the loss is infinite, naming the first probability-0 entry. Only
        maximum-likelihood tables (pgmpy's ``DiscreteMLE``) hold zeros; this
        package's estimators never do.

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy.models import DiscreteBayesianNetwork
    >>> from pgmpy_nml import FSNMLEstimator, log_loss
    >>> train = pd.DataFrame({"A": [0, 0, 1, 1], "B": [0, 0, 1, 0]})
    >>> model = DiscreteBayesianNetwork([("A", "B")])
    >>> model = model.fit(train, estimator=FSNMLEstimator(state_names={"B": [0, 1, 2]}))
    >>> round(log_loss(model, pd.DataFrame({"A": [0, 1], "B": [2, 1]}), base=2), 4)
    3.1496

    References
    ----------
    .. [1] T. Silander, T. Roos, P. Myllymäki. "Learning locally minimax optimal
       Bayesian networks". International Journal of Approximate Reasoning 51(5),
       2010, Sec. 5.2.
    """
    loss, reason = _log_loss(model, data, base)
    if reason is not None:
        warnings.warn(
            f"The log-loss is infinite: {reason} Fit the parameters with FSNMLEstimator() or "
            "a Dirichlet prior (pgmpy's DiscreteBayesianEstimator) to keep every probability "
            "positive.",
            InfiniteLossWarning,
            stacklevel=2,
        )
    return loss


def _log_loss(model, data, base=math.e) -> tuple[float, str | None]:
    """:func:`log_loss`, and why it is infinite (None when it is finite)."""
    if not (isinstance(base, (int, float)) and base > 0 and base != 1):
        raise ValueError(f"base must be a positive number other than 1, got {base!r}.")
    nodes, cpds, encoded = _encode_for_model(model, data)
    total = np.zeros(encoded.n_samples)
    first = None  # (row, node) of the first probability-0 entry
    for node in nodes:
        log_prob = _cpd_log_prob(cpds[node], encoded, encoded.codes)
        zero = np.flatnonzero(np.isneginf(log_prob))
        if len(zero) and (first is None or zero[0] < first[0]):
            first = (int(zero[0]), node)
        total += log_prob
    loss = float(-total.mean() / math.log(base))
    if first is None:
        return loss, None
    position, node = first
    row = data.index[position] if hasattr(data, "index") else position
    n_zero = int(np.isneginf(total).sum())
    return loss, (
        f"{n_zero} of {encoded.n_samples} rows have probability 0 "
        f"under the network (the first, row {row}, has {_event(cpds[node], encoded, position)}). "
        "Maximum-likelihood parameters give probability 0 to every configuration their "
        "training data lack."
    )


def _event(cpd, encoded, row) -> str:
    """``P(X='x' | A='a') = 0`` for ``cpd`` at ``row`` of ``encoded``."""

    def value(v):
        state = encoded.state_names[v][encoded.codes[encoded.index[v], row]]
        return f"{v}={getattr(state, 'item', lambda: state)()!r}"  # numpy scalars as Python

    parents = ", ".join(value(p) for p in cpd.variables[1:])
    return f"P({value(cpd.variable)}{' | ' + parents if parents else ''}) = 0"


def n_parameters(
    model: Graph, data: pd.DataFrame | None = None, state_names: StateNames | None = None
) -> int:
    r"""Number of free parameters :math:`\sum_i q_i (r_i - 1)` of a discrete network.

    Parameters
    ----------
    model : pgmpy DiscreteBayesianNetwork or DAG
        With CPDs, their cardinalities are used; a bare structure needs ``data``
        (and optionally ``state_names``) for the arities.
    data : pandas.DataFrame, optional
    state_names : dict, optional

    Returns
    -------
    int
        Exact, however large.

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy.base import DAG
    >>> from pgmpy_nml import n_parameters
    >>> data = pd.DataFrame({"A": [0, 1, 2], "B": [0, 1, 1]})
    >>> n_parameters(DAG([("A", "B")]), data)
    5
    """
    nodes = list(model.nodes())
    if data is None:
        _, cpds = _fitted_cpds(model)
        card = {}
        for cpd in cpds.values():
            card.update(dict(zip(cpd.variables, cpd.cardinality, strict=True)))
    else:
        encoded = encode_data(data[nodes], {v: s for v, s in (state_names or {}).items()})
        card = {v: int(encoded.arities[encoded.index[v]]) for v in nodes}
    return sum((card[v] - 1) * math.prod(card[p] for p in model.predecessors(v)) for v in nodes)


def fsnml_code_length(
    model: Graph, data: pd.DataFrame, state_names: StateNames | None = None, base: float = math.e
) -> float:
    r"""Sequential (prequential) code length of ``data`` under fsNML for a structure.

    Each data column is coded row by row, within each parent configuration, with
    the univariate sequential NML predictive distribution given the counts so far
    (Sec. 4.3 of [1]_):

    .. math::

        L_{\mathrm{fsNML}}(D \mid G) = -\log P_{\mathrm{fsNML}}(D \mid G)
            = \sum_{i=1}^{m} \sum_{j=1}^{q_i} -\log P_{\mathrm{sNML}}(D_i^{G_i = j}).

    It is a proper code length (a prequential score of the structure), and its
    regret against the maximized likelihood is bounded by Theorem 6 of [1]_
    (:func:`pgmpy_nml.numerics.snml_bounds.fsnml_regret_bound`). It depends on the row order.

    Parameters
    ----------
    model : pgmpy DAG or DiscreteBayesianNetwork
        Only the structure is used.
    data : pandas.DataFrame
        Complete discrete data with a column for every node, in coding order.
    state_names : dict, optional
        Declared states count in the arity ``r_i``.
    base : float, default e
        ``2`` for bits.

    Returns
    -------
    float

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy.base import DAG
    >>> from pgmpy_nml import fsnml_code_length
    >>> data = pd.DataFrame({"A": [0, 0, 1, 1], "B": [0, 0, 1, 1]})
    >>> round(fsnml_code_length(DAG([("A", "B")]), data, base=2), 4)
    8.3462

    References
    ----------
    .. [1] T. Silander, T. Roos, P. Myllymäki. "Learning locally minimax optimal
       Bayesian networks". International Journal of Approximate Reasoning 51(5), 2010.
    """
    nodes = list(model.nodes())
    encoded = encode_data(data[nodes], dict(state_names or {}))
    total = 0.0
    for node in nodes:
        child = encoded.index[node]
        parents = [encoded.index[p] for p in model.predecessors(node)]
        groups, _ = dense_ids(encoded.codes, parents, encoded.arities)
        total += fsnml_code_length_grouped(
            groups, encoded.codes[child].astype(np.int64), int(encoded.arities[child])
        )
    return total / math.log(base)
