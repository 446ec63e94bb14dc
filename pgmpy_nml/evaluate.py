"""Predictive evaluation of fitted discrete Bayesian networks, as in the seeds' experiments,
and the completion of incomplete rows under them (:func:`impute`)."""

from __future__ import annotations

import math
import warnings
from typing import TYPE_CHECKING

import numpy as np

from ._counting import configuration_index, dense_ids
from ._data import encode_data
from .estimators._posterior import MissingPlan, model_tables
from .exceptions import InfiniteLossWarning, InputError, UnknownStateError
from .numerics.snml import fsnml_code_length_grouped

if TYPE_CHECKING:
    import pandas as pd
    from pgmpy.models import DiscreteBayesianNetwork

    from ._typing import Graph, RandomState, StateNames

__all__ = ["fsnml_code_length", "impute", "log_loss", "n_parameters"]

#: What :func:`log_loss` does with missing cells.
LOSS_MISSING = ("error", "marginalize")


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


def _encode_for_model(model, data, missing="error"):
    """The fitted model's nodes and CPDs, and ``data`` encoded in the CPDs' states
    (``missing="available"``: -1 for a missing cell)."""
    nodes, cpds = _fitted_cpds(model)
    names = {v: list(cpds[v].state_names[v]) for v in nodes}
    if hasattr(data, "columns"):
        absent = [v for v in nodes if v not in set(data.columns)]
        if absent:
            raise ValueError(f"The data has no column for node(s) {absent!r}.")
        data = data[nodes]
    try:
        encoded = encode_data(data, names, missing=missing)
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


def log_loss(
    model: DiscreteBayesianNetwork,
    data: pd.DataFrame,
    base: float = math.e,
    *,
    missing: str = "error",
) -> float:
    r"""Average negative log predictive probability of the rows of ``data``.

    .. math::

        \ell(\mathcal{B}, D) = -\frac{1}{|D|} \sum_{d \in D} \log_b P(d \mid \mathcal{B})
            = -\frac{1}{|D|} \sum_{d \in D} \sum_i \log_b \theta_{i, j(d), x_i(d)},

    the measure of the prediction experiments of [1]_ (lower is better). With
    ``missing="marginalize"`` a row's probability is that of its observed cells, the
    missing ones summed out exactly,

    .. math::

        P(x_O \mid \mathcal{B}) = \sum_{x_M} \prod_i \theta_{i, j(x), x_i},

    by variable elimination over the missing cells that the network's moral graph
    connects (:mod:`pgmpy_nml.estimators._posterior`); a complete row gets its usual
    term, a row with no observed cell the term 0. Its sum over the rows is the
    observed-data log-likelihood that EM maximizes (:class:`~pgmpy_nml.EMEstimator`).
    Rows with fewer observed cells have smaller losses: compare networks on the same
    rows, not a row with missing cells against a complete one.

    Parameters
    ----------
    model : pgmpy.models.DiscreteBayesianNetwork
        A fitted network (every node has a CPD).
    data : pandas.DataFrame
        Test data with a column for every node. Values must be states of the CPDs: a
        value never seen in training is fine when the state names declared it at
        fitting time (``FSNMLEstimator(state_names=...)``).
    base : float, default e
        Logarithm base: ``math.e`` for nats, ``2`` for bits.
    missing : {"error", "marginalize"}, default "error"
        Missing cells (NaN, None, pd.NA): refused, naming the columns; or summed out
        (each row's probability is that of its observed cells).

    Returns
    -------
    float
        ``inf`` when a row has probability 0 under the network.

    Warns
    -----
    InfiniteLossWarning
        When the loss is infinite, naming the first probability-0 entry (with
        ``missing="marginalize"``, the first probability-0 row). Only
        maximum-likelihood tables (pgmpy's ``DiscreteMLE``) hold zeros; this package's
        estimators never do.

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
    >>> test = pd.DataFrame({"A": [0, None], "B": [None, 1]})  # P(A=0) and P(B=1)
    >>> round(log_loss(model, test, base=2, missing="marginalize"), 4)
    1.4199

    References
    ----------
    .. [1] T. Silander, T. Roos, P. Myllymäki. "Learning locally minimax optimal
       Bayesian networks". International Journal of Approximate Reasoning 51(5),
       2010, Sec. 5.2.
    """
    loss, reason = _log_loss(model, data, base, missing)
    if reason is not None:
        warnings.warn(
            f"The log-loss is infinite: {reason} Fit the parameters with FSNMLEstimator() or "
            "a Dirichlet prior (pgmpy's DiscreteBayesianEstimator) to keep every probability "
            "positive.",
            InfiniteLossWarning,
            stacklevel=2,
        )
    return loss


def _log_loss(model, data, base=math.e, missing="error") -> tuple[float, str | None]:
    """:func:`log_loss`, and why it is infinite (None when it is finite)."""
    if not (isinstance(base, (int, float)) and base > 0 and base != 1):
        raise ValueError(f"base must be a positive number other than 1, got {base!r}.")
    if missing not in LOSS_MISSING:
        raise InputError(
            f"missing must be one of {', '.join(repr(m) for m in LOSS_MISSING)}, got {missing!r}."
        )
    if missing == "marginalize":
        return _marginal_log_loss(model, data, base)
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


def _plan(model, data) -> tuple:
    """``data`` encoded in the model's states (-1 for a missing cell), its
    :class:`~pgmpy_nml.estimators._posterior.MissingPlan` and the model's tables."""
    _, _, encoded = _encode_for_model(model, data, missing="available")
    parents, tables = model_tables(model, encoded)
    return encoded, MissingPlan(parents, encoded.arities, encoded.codes), tables


def _marginal_log_loss(model, data, base) -> tuple[float, str | None]:
    """:func:`log_loss` of the rows' observed cells."""
    encoded, plan, tables = _plan(model, data)
    per_row = plan.log_likelihood(tables, per_row=True)
    loss = float(-per_row.mean() / math.log(base))
    zero = np.flatnonzero(np.isneginf(per_row))
    if not len(zero):
        return loss, None
    row = data.index[zero[0]] if hasattr(data, "index") else int(zero[0])
    return loss, (
        f"{len(zero)} of {encoded.n_samples} rows have probability 0 under the network "
        f"given their observed cells (the first is row {row}). Maximum-likelihood "
        "parameters give probability 0 to every configuration their training data lack."
    )


IMPUTE_METHODS = ("mode", "sample")


def impute(
    model: DiscreteBayesianNetwork,
    data: pd.DataFrame,
    *,
    method: str = "mode",
    random_state: RandomState = None,
) -> pd.DataFrame:
    r"""Fill the missing cells of each row from its posterior under a fitted network.

    For a row with observed cells :math:`x_O` and missing cells :math:`M`, the posterior
    is :math:`P(x_M \mid x_O) \propto \prod_i \theta_{i, j(x), x_i}`, computed exactly
    by variable elimination over the missing cells that the network's moral graph
    connects (groups of missing cells that it does not connect are independent given
    :math:`x_O`, and are filled independently).

    - ``method="mode"``: the most probable completion,
      :math:`\arg\max_{x_M} P(x_M \mid x_O)` (the joint mode, the most probable
      explanation, not the mode of each cell alone); among equally probable completions
      a deterministic one (max-product elimination, then the first state of each
      variable given those chosen after it).
    - ``method="sample"``: one draw from :math:`P(x_M \mid x_O)` per row (each row
      independently), as multiple imputation and stochastic EM use.

    Missing-at-random data keep their meaning: the posterior conditions on what was
    observed, as the network models it.

    Parameters
    ----------
    model : pgmpy.models.DiscreteBayesianNetwork
        A fitted network with every probability of an observed row positive (this
        package's estimators never give 0).
    data : pandas.DataFrame
        A column for every node; missing cells as NaN, None or pd.NA. Other columns are
        returned unchanged.
    method : {"mode", "sample"}, default "mode"
    random_state : int, numpy Generator or None
        Seed of ``method="sample"`` (ignored by ``"mode"``).

    Returns
    -------
    pandas.DataFrame
        A copy of ``data`` with every missing cell of a node's column filled with a
        state of its CPD.

    Raises
    ------
    ValueError
        For a row whose observed cells have probability 0 under the network.

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy.models import DiscreteBayesianNetwork
    >>> from pgmpy_nml import FSNMLEstimator, impute
    >>> train = pd.DataFrame({"A": [0, 0, 0, 1, 1, 1], "B": [0, 0, 1, 1, 1, 1]})
    >>> model = DiscreteBayesianNetwork([("A", "B")]).fit(train, estimator=FSNMLEstimator())
    >>> rows = pd.DataFrame({"A": [None, 1, None], "B": [0, None, None]})
    >>> impute(model, rows).astype(int).values.tolist()
    [[0, 0], [1, 1], [1, 1]]
    >>> bool(impute(model, rows, method="sample", random_state=0).notna().all(axis=None))
    True
    """
    from ._params import Choice, RandomState

    Choice(IMPUTE_METHODS).validate(method, "method")
    seed = RandomState().validate(random_state, "random_state")
    encoded, plan, tables = _plan(model, data)
    if method == "mode":
        filled = plan.mode(tables)
    else:
        filled, _ = plan.sample(tables, np.random.default_rng(seed))
    out = data.copy()
    for i, v in enumerate(encoded.variables):
        holes = encoded.codes[i] < 0
        if holes.any():
            states = np.empty(len(encoded.state_names[v]), dtype=object)
            states[:] = encoded.state_names[v]
            out[v] = _filled(data[v], holes, states[filled[i, holes]])
    return out


def _filled(column: pd.Series, holes: np.ndarray, values: np.ndarray) -> pd.Series:
    """``column`` with ``values`` in the cells ``holes``: a Categorical stays one when the
    values are among its categories; other columns take the values' types (integers that
    a missing cell had made floats become integers only if every value is one)."""
    import pandas as pd

    cells = column.to_numpy(dtype=object, copy=True)
    cells[holes] = values
    dtype = column.dtype
    if isinstance(dtype, pd.CategoricalDtype) and set(values) <= set(dtype.categories):
        return pd.Series(pd.Categorical(cells, dtype=dtype), index=column.index, name=column.name)
    return pd.Series(cells, index=column.index, name=column.name).infer_objects()


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
