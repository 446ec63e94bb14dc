"""What the structure searches share: the score they optimize and the network they fit.

:class:`ExactSearch` and :class:`LocalSearch` take the same ``scoring_method``
(a registered name or a score object), the same ``fit(data=None)`` contract and
the same ``parameter_estimator``; the steps live here once.
"""

from __future__ import annotations

import pandas as pd
from sklearn.base import BaseEstimator

from .._estimator import ResultEstimator, fitted_attribute
from .._frames import is_dask_frame
from .._sparse import warn_sparse
from .._validate import as_n_jobs
from ..exceptions import InputError
from ..models import fit_network
from ..scores.registry import resolve_score

__all__ = ["as_dag", "fresh_search"]


def as_dag(graph, columns):
    """A pgmpy DAG from a search result: a DAG as is, a PDAG through a consistent extension;
    every column a node."""
    from pgmpy.base import DAG, PDAG

    if isinstance(graph, PDAG):
        graph = graph.to_dag() if graph.undirected_edges else DAG(graph.directed_edges)
    dag = DAG(graph.edges())
    dag.add_nodes_from(columns)
    return dag


def fresh_search(template, score, *, start_dag=None, **settings):
    """A new search of ``template``'s class and parameters that optimizes ``score``.

    The tools that refit one search many times (the study tools, structural EM) build
    each search here: from the template's parameters (shallow: scikit-learn's ``clone``
    would try to clone a score object bound to data, which it cannot), its
    ``scoring_method`` replaced by ``score`` (None: kept), ``settings`` (``n_jobs``,
    ``max_parents``, ...) set, and ``start_dag`` set where the search takes one (a warm
    start; ignored otherwise).

    Raises
    ------
    ValueError
        For a setting the search has no parameter for.
    """
    params = template.get_params(deep=False)
    if score is not None and "scoring_method" in params:
        params["scoring_method"] = score
    for key, value in settings.items():
        if key not in params:
            raise ValueError(
                f"{key}={value!r} is for the search, but {type(template).__name__} has no "
                f"{key} parameter: leave {key}=None."
            )
        params[key] = value
    if start_dag is not None and "start_dag" in params:
        params["start_dag"] = start_dag
    return type(template)(**params)


class _StructureSearch(ResultEstimator, BaseEstimator):
    """Base of the searches: resolves ``scoring_method`` and fits the learned network.

    A subclass's ``fit`` stores a result with the fields ``dag`` and ``model``
    (see :mod:`pgmpy_nml._estimator`), read by the attributes below.
    """

    dag_ = fitted_attribute("dag", "Alias of ``causal_graph_``.")
    model_ = fitted_attribute(
        "model", "DiscreteBayesianNetwork or None: the fitted network (with parameter_estimator)."
    )

    def _resolve_score(self, data: pd.DataFrame | None):
        """The score object, bound to the data ``fit`` learns from."""
        if self.parameter_estimator is not None and is_dask_frame(data):
            raise InputError(
                "parameter_estimator fits the network on a pandas DataFrame, but fit() got a "
                "Dask DataFrame (counted where it lives): learn the structure without "
                "parameter_estimator, then fit the parameters with pgmpy_nml.models.fit_network "
                "on a pandas DataFrame (data.compute() or a sample)."
            )
        return resolve_score(self.scoring_method, data)

    def _threads(self) -> int:
        return as_n_jobs(self.n_jobs)

    def _fitted_model(self, dag, score, data: pd.DataFrame | None):
        """The network ``dag`` fitted by ``parameter_estimator`` (None without one).

        Every search's ``fit`` ends here with the network it found: it first warns
        (:class:`~pgmpy_nml.exceptions.SparseFamilyWarning`) if a family has more parent
        configurations than the data have rows."""
        warn_sparse(dag, getattr(score, "state_names", None), getattr(score, "n_samples", None))
        if self.parameter_estimator is None:
            return None
        fit_data = data if data is not None else score.data
        names = getattr(score, "state_names", None)
        return fit_network(dag, fit_data, self.parameter_estimator, names)
