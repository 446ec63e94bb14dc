"""From a learned structure to a fitted pgmpy network, in one place."""

from __future__ import annotations

__all__ = ["bayesian_network", "fit_network"]


def bayesian_network(dag):
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


def fit_network(dag, data, estimator=None, state_names=None):
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
    """
    from sklearn.base import clone

    if estimator is None:
        from .estimators import FSNMLEstimator

        estimator = FSNMLEstimator()
    nodes = list(dag.nodes())
    if state_names and "state_names" in estimator.get_params():
        declared = {v: list(s) for v, s in state_names.items() if v in nodes}
        declared.update(estimator.get_params()["state_names"] or {})
        estimator = clone(estimator).set_params(state_names=declared)
    return bayesian_network(dag).fit(data[nodes], estimator=estimator)
