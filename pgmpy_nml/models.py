"""From a learned structure to a fitted pgmpy network, in one place.

:func:`default_parameter_estimator` is the one mapping from a structure score to
the parameter estimator that matches it (the score's own prior); the searches,
the command line and the study tools take their default from it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Hashable, Iterable, Mapping
    from typing import Any

    import pandas as pd
    from pgmpy.base import DAG
    from pgmpy.models import DiscreteBayesianNetwork
    from pgmpy.parameter_estimator import DiscreteParameterEstimator

    from ._typing import Graph, ScoringMethod, StateNames

__all__ = [
    "bayesian_network",
    "check_table_sizes",
    "dag_from_parents",
    "default_parameter_estimator",
    "fit_network",
]


def default_parameter_estimator(
    scoring_method: ScoringMethod = "fnml", state_names: StateNames | None = None, **params: Any
) -> DiscreteParameterEstimator:
    r"""The parameter estimator that matches a structure score: its own prior, else fsNML.

    The score's registration says which (``ScoreSpec.parameter_estimator``,
    :func:`~pgmpy_nml.scores.register_score`); the table shows the registered scores'.

    ========================================  ===========================================
    score                                     parameters
    ========================================  ===========================================
    ``fnml``, ``qnml``, unknown scores        :class:`~pgmpy_nml.FSNMLEstimator` (fsNML)
    ``bic-d``, ``aic-d``, ``ll-d``            fsNML (these scores have no prior)
    ``bdeu`` (ESS :math:`\alpha`)             BDeu posterior mean: pseudo-count
                                              :math:`\alpha / (q_i r_i)` per cell
    ``min-bdeu``, ``max-bdeu``, ``bds``       the same BDeu prior (the centre of their
                                              prior set; pgmpy has no BDs estimator)
    ``bd`` (hyperparameter :math:`a`)          Dirichlet, pseudo-count :math:`a` per cell
    ``k2``                                    Dirichlet, pseudo-count 1 per cell (K2)
    ``nal``, ``pnal``                         fsNML on the rows complete on each family
                                              (``FSNMLEstimator(missing="available")``)
    ========================================  ===========================================

    Every default keeps every probability positive, so a held-out row never gets
    probability 0. The likelihood-based scores (BIC, AIC, log-likelihood, NAL, PNAL)
    have no prior to borrow; their natural plug-in, maximum likelihood, gives
    probability 0 to every configuration unseen in training, and one such test row
    makes the held-out log-loss infinite (in cross-validation, most folds of a
    small data set). fsNML needs no hyperparameter and tends to maximum likelihood
    as the counts grow (:math:`\theta_{ijk} \propto e(N_{ijk})(N_{ijk} + 1)`). Pass
    ``DiscreteMLE()`` explicitly for maximum-likelihood tables;
    :func:`~pgmpy_nml.log_loss` then warns when a test row has probability 0.

    Parameters
    ----------
    scoring_method : str or score object, default "fnml"
        A registered name (its parameters in ``params``) or a score object (its
        ``equivalent_sample_size`` or ``alpha`` is used; pgmpy's scores too).
    state_names : dict, optional
        Declared states, handed to the estimator so they reach the fitted CPDs.
    **params
        The score's parameters when ``scoring_method`` is a name
        (``equivalent_sample_size``, ``alpha``).

    Returns
    -------
    pgmpy DiscreteParameterEstimator

    Examples
    --------
    >>> from pgmpy_nml.models import default_parameter_estimator
    >>> type(default_parameter_estimator("qnml")).__name__
    'FSNMLEstimator'
    >>> est = default_parameter_estimator("bdeu", equivalent_sample_size=10)
    >>> est.prior_type, est.equivalent_sample_size
    ('BDeu', 10.0)
    >>> est = default_parameter_estimator("bd", alpha=0.5)
    >>> est.prior_type, est.pseudo_counts
    ('dirichlet', 0.5)
    """
    from .scores.registry import spec_for_score

    spec = spec_for_score(scoring_method)
    kind = spec.parameter_estimator if spec is not None else "fsnml"
    if spec is not None and isinstance(scoring_method, str):  # a name has a spec or raised
        unknown = sorted(set(params) - set(spec.params))
        if unknown:
            raise ValueError(
                f"Score {spec.name!r} takes the parameter(s) {', '.join(spec.params) or 'none'}, "
                f"not {', '.join(unknown)}."
            )
        values = {**spec.params, **params}
    else:
        values = {
            key: getattr(scoring_method, key)
            for key in ("equivalent_sample_size", "alpha")
            if hasattr(scoring_method, key)
        }
        if spec is not None and spec.name == "k2":
            values = {}
    return _parameter_estimator(kind, state_names, values)


def _parameter_estimator(
    kind: str, state_names: StateNames | None = None, values: Mapping[str, Any] | None = None
) -> DiscreteParameterEstimator:
    """The estimator ``kind`` (one of ``scores.registry.PARAMETER_ESTIMATORS``, what a
    score's spec declares) with the score's ``values`` (``equivalent_sample_size``,
    ``alpha``): the one place the package builds them by name (the command line's
    ``--params`` and ``--estimator`` too)."""
    values = values or {}
    names = dict(state_names) if state_names else None
    if kind.startswith("fsnml"):
        from .estimators import FSNMLEstimator

        missing = "available" if kind == "fsnml-available" else "error"
        return FSNMLEstimator(state_names=names, missing=missing)
    from pgmpy.parameter_estimator import DiscreteBayesianEstimator, DiscreteMLE

    if kind == "mle":
        return DiscreteMLE(state_names=names)
    if kind == "k2":
        return DiscreteBayesianEstimator(state_names=names, prior_type="K2")
    if kind == "dirichlet":
        if "alpha" not in values:
            raise ValueError(
                "The Dirichlet parameters take the score's pseudo-count alpha, and the score "
                "has none: give it an alpha parameter, or declare another parameter_estimator."
            )
        return DiscreteBayesianEstimator(
            state_names=names, prior_type="dirichlet", pseudo_counts=float(values["alpha"])
        )
    if kind == "bdeu":  # BDeu's default ESS, 1, for a score without one
        return DiscreteBayesianEstimator(
            state_names=names,
            prior_type="BDeu",
            equivalent_sample_size=float(values.get("equivalent_sample_size", 1.0)),
        )
    raise ValueError(f"unknown parameter estimator {kind!r}")


def dag_from_parents(
    parents: Mapping[Hashable, Iterable[Hashable]], nodes: Iterable[Hashable]
) -> DAG:
    """The pgmpy ``DAG`` in which each node ``v`` has the parents ``parents[v]``.

    Every search builds its learned network here: the nodes come first, in the order
    of ``nodes`` (isolated ones included), then the edges, child by child in the order
    of ``parents`` and, within a child, in the order of its parents.

    Parameters
    ----------
    parents : mapping
        Node -> iterable of its parents; a node missing from it has none. The parent
        sets must be acyclic (a search's result is); they are not checked again.
    nodes : iterable
        Every node of the network, in order.

    Returns
    -------
    pgmpy.base.DAG

    Examples
    --------
    >>> from pgmpy_nml.models import dag_from_parents
    >>> dag = dag_from_parents({"B": ["A"], "C": ["A", "B"]}, ["A", "B", "C", "D"])
    >>> list(dag.nodes()), sorted(dag.edges())
    (['A', 'B', 'C', 'D'], [('A', 'B'), ('A', 'C'), ('B', 'C')])
    """
    from pgmpy.base import DAG

    dag = DAG()
    dag.add_nodes_from(nodes)
    dag.add_edges_from((p, v) for v, ps in parents.items() for p in ps)
    return dag


def bayesian_network(dag: Graph) -> DiscreteBayesianNetwork:
    """A ``DiscreteBayesianNetwork`` with the nodes and edges of ``dag`` (isolated nodes kept).

    Parameters
    ----------
    dag : pgmpy DAG or networkx DiGraph

    Returns
    -------
    pgmpy.models.DiscreteBayesianNetwork
        Unfitted.

    Examples
    --------
    >>> from pgmpy.base import DAG
    >>> from pgmpy_nml.models import bayesian_network
    >>> dag = DAG([("A", "B")])
    >>> dag.add_node("C")
    >>> sorted(bayesian_network(dag).nodes())
    ['A', 'B', 'C']
    """
    from pgmpy.models import DiscreteBayesianNetwork

    model = DiscreteBayesianNetwork(dag.edges())
    model.add_nodes_from(dag.nodes())
    return model


def fit_network(
    dag: Graph,
    data: pd.DataFrame,
    estimator: DiscreteParameterEstimator | None = None,
    state_names: StateNames | None = None,
) -> DiscreteBayesianNetwork:
    """Fit the parameters of ``dag`` on ``data``.

    Parameters
    ----------
    dag : pgmpy DAG or networkx DiGraph
    data : pandas.DataFrame
        A column for every node (other columns are ignored).
    estimator : pgmpy DiscreteParameterEstimator, optional
        Default :class:`~pgmpy_nml.FSNMLEstimator`. It is not modified.
    state_names : dict, optional
        Declared states (e.g. the score's), used where ``estimator`` declares none,
        so that states declared for learning are states of the fitted CPDs too.
        Undeclared states are in the order of the scores (``encode_data``): sorted,
        and text that is all numbers by its numbers (``"1", "2", "10"``).

    Returns
    -------
    pgmpy.models.DiscreteBayesianNetwork
        Fitted.

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy.base import DAG
    >>> from pgmpy_nml.models import fit_network
    >>> data = pd.DataFrame({"A": ["x", "y", "y"], "B": [0, 1, 1]})
    >>> model = fit_network(DAG([("A", "B")]), data, state_names={"A": ["x", "y", "z"]})
    >>> model.get_cpds("A").state_names["A"]
    ['x', 'y', 'z']
    >>> model = fit_network(DAG([("A", "B")]), data.assign(B=["10", "2", "1"]))
    >>> model.get_cpds("B").state_names["B"]
    ['1', '2', '10']
    """
    from sklearn.base import clone

    if estimator is None:
        from .estimators import FSNMLEstimator

        estimator = FSNMLEstimator()
    from .estimators.fsnml import check_cpd_cells

    nodes = list(dag.nodes())
    declared = {v: list(s) for v, s in (state_names or {}).items() if v in nodes}
    if "state_names" in estimator.get_params():
        declared.update(estimator.get_params()["state_names"] or {})
        declared.update(_default_states(data, [v for v in nodes if v not in declared]))
        if declared:
            estimator = clone(estimator).set_params(state_names=declared)
    # every estimator, pgmpy's too, builds whole tables: refuse one too large up front
    arity = state_counts(data, nodes, declared)
    for v in nodes:
        check_cpd_cells(v, arity[v], math.prod(arity[p] for p in dag.predecessors(v)))
    return bayesian_network(dag).fit(data[nodes], estimator=estimator)


def check_table_sizes(arities: Mapping[Hashable, int], max_parents: int | None = None) -> None:
    r"""Refuse, before a search, data whose many-state columns could make an unfittable CPD.

    A CPD of a variable with :math:`r` states and parents with :math:`r_1, \dots, r_k`
    states has :math:`r \prod_j r_j` cells, and parameters are fitted only up to
    ``MAX_CPD_CELLS`` (50,000,000) cells. Scores such as fNML charge only for the parent
    configurations that occur, so a search on few rows can pick a family whose table is
    far larger than the data. This check looks at the columns with more than
    ``MAX_WHOLE_NUMBER_STATES`` (20) states (typically whole-number measurements that
    were not discretized): if some variable with up to ``max_parents`` of them as
    parents would exceed the limit, it raises before any search runs, naming the
    columns and the fixes. Families of columns with fewer states are not checked (a
    search rarely gives them the many parents that would be needed).

    Parameters
    ----------
    arities : dict
        Variable -> number of states.
    max_parents : int, optional
        The search's parent limit (none: every other variable).
        A whole number; a float such as ``2.0`` is taken as ``2``, ``2.5`` is refused.

    Raises
    ------
    ValueError
        Naming the largest such family, its size and three ways out: discretize the
        columns, a parent limit that keeps every such table under the limit, or
        structure learning without parameters.

    Examples
    --------
    >>> from pgmpy_nml.models import check_table_sizes
    >>> check_table_sizes({"a": 3, "b": 4, "c": 2})
    >>> arities = {"insulin": 186, "glucose": 136, "age": 52, "skin": 51, "y": 2}
    >>> check_table_sizes(arities, max_parents=2)
    >>> check_table_sizes(arities)
    Traceback (most recent call last):
    ...
    ValueError: The columns 'insulin' (186 states), 'glucose' (136), 'age' (52), 'skin' (51) ...
    """
    from ._limits import MAX_WHOLE_NUMBER_STATES
    from .estimators.fsnml import MAX_CPD_CELLS

    sizes = {v: int(r) for v, r in arities.items()}
    many = sorted(
        (v for v, r in sizes.items() if r > MAX_WHOLE_NUMBER_STATES), key=lambda v: -sizes[v]
    )
    if max_parents is not None:
        from ._validate import as_integer

        max_parents = as_integer(max_parents, "max_parents")
    limit = len(sizes) - 1 if max_parents is None else min(max_parents, len(sizes) - 1)

    def worst(k):
        """The largest CPD with at most k many-state parents: (cells, child, parents)."""
        best: tuple[int, Hashable, tuple[Hashable, ...]] = (0, None, ())
        for v, r in sizes.items():
            parents = tuple(p for p in many if p != v)[:k]
            cells = r * math.prod(sizes[p] for p in parents)
            best = max(best, (cells, v, parents), key=lambda t: t[0])
        return best

    cells, child, parents = worst(limit)
    if cells <= MAX_CPD_CELLS:
        return
    fits = max(k for k in range(limit + 1) if worst(k)[0] <= MAX_CPD_CELLS)
    listed = ", ".join(
        f"{v!r} ({sizes[v]}{' states' if i == 0 else ''})" for i, v in enumerate(many)
    )
    family = ", ".join(repr(p) for p in parents)
    ways = [f"cut them into intervals (pgmpy_nml.study.Discretizer(columns={many!r}))"]
    if fits:
        ways.append(f"limit the parents (max_parents={fits} keeps these tables under the limit)")
    ways.append("learn the structure only (parameter_estimator=None)")
    raise ValueError(
        f"The columns {listed} have more than {MAX_WHOLE_NUMBER_STATES} states each: a "
        f"network where {child!r} had the parents {family} would need a CPD of {cells:,} "
        f"cells, more than the {MAX_CPD_CELLS:,} that parameters can be fitted for, and the "
        "search could choose it. Checked before the search: " + "; or ".join(ways) + "."
    )


def state_counts(data: pd.DataFrame, columns, state_names: Mapping | None = None) -> dict:
    """Each column's number of states: its declared states where ``state_names`` gives
    them, else the distinct values observed (missing cells not counted)."""
    names = state_names or {}
    return {c: len(names[c]) if c in names else int(data[c].nunique()) for c in columns}


def _default_states(data: pd.DataFrame, nodes: list) -> dict:
    """The package's state order for ``nodes`` where it differs from pgmpy's plain sort:
    columns of numbers written as text (``"1", "2", "10"``, see ``_data._state_order``)."""
    import pandas as pd

    from ._data import _observed_states

    states = {}
    for v in nodes:
        column = data[v].dropna()
        if isinstance(column.dtype, pd.CategoricalDtype):
            continue  # pgmpy's estimators keep their own handling of categories
        ours = _observed_states(v, column)
        if ours != sorted(ours):
            states[v] = ours
    return states
