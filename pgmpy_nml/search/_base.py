"""What the structure searches share: the score they optimize and the network they fit.

:class:`ExactSearch` and :class:`LocalSearch` take the same ``scoring_method``
(a registered name or a score object), the same ``fit(data=None)`` contract and
the same ``parameter_estimator``; the steps live here once.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator

from .._estimator import ResultEstimator, fitted_attribute
from .._validate import as_n_jobs
from ..models import fit_network
from ..scores.registry import get_score_spec, make_score

__all__: list[str] = []


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
        method = self.scoring_method
        if isinstance(method, str):
            if data is None:
                raise ValueError("fit() needs data when scoring_method is a score name.")
            get_score_spec(method, argument="scoring_method")
            return make_score(method, data)
        if not hasattr(method, "local_score"):
            raise TypeError(
                f"scoring_method must be a score name or a score object with local_score(), "
                f"got {type(method).__name__}."
            )
        if data is not None:
            _check_same_data(method, data)
        return method

    def _threads(self) -> int:
        return as_n_jobs(self.n_jobs)

    def _fitted_model(self, dag, score, data: pd.DataFrame | None):
        """The network ``dag`` fitted by ``parameter_estimator`` (None without one)."""
        if self.parameter_estimator is None:
            return None
        fit_data = data if data is not None else score.data
        names = getattr(score, "state_names", None)
        return fit_network(dag, fit_data, self.parameter_estimator, names)


def _check_same_data(score, data: pd.DataFrame) -> None:
    """A score object must be built on the data ``fit`` gets (or ``fit`` gets none)."""
    theirs = getattr(score, "data", None)
    if theirs is None or theirs is data:
        return
    shape = getattr(data, "shape", None)
    if shape != theirs.shape or list(data.columns) != list(theirs.columns):
        raise ValueError(
            f"The score was built on columns {list(theirs.columns)!r} ({len(theirs)} rows), but "
            f"fit() got {list(data.columns)!r} ({len(data)} rows): build the score on the data "
            "you fit, or call fit() without data to learn from the score's data."
        )
    same = theirs.equals(data) or np.array_equal(
        theirs.to_numpy(dtype=object), data.to_numpy(dtype=object)
    )
    if not same:
        raise ValueError(
            "The score was built on other values than the data fit() got (same shape and "
            "columns): build the score on the data you fit, or call fit() without data."
        )
