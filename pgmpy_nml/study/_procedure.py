"""A whole learning procedure (structure search, score, parameters), refit on any data.

Bootstrap and cross-validation refit one procedure on many data sets. Two things
make that subtle, and this module handles both in one place:

- a score object is bound to the data it was built on, and pgmpy's searches use
  a given score object as it is, whatever data ``fit`` gets. :func:`rebind_score`
  rebuilds a score of the same class and parameters on the new data;
- the states of every variable must be the same in every refit (a resample or a
  training fold may miss a rare state that the test fold has), so the tools declare
  the states of the whole data once and hand them to the score and the parameter
  estimator of every refit.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import TYPE_CHECKING

from sklearn.base import BaseEstimator

from .._estimator import ResultEstimator, feature_names, fitted_attribute
from .._params import (
    METHOD_OR_SEARCH,
    PARAMETER_ESTIMATOR,
    SCORING_METHOD,
    STATE_NAMES,
    AnyOf,
    Choice,
    Instance,
    Integer,
    NJobs,
    NoneOr,
    validate_params,
)

if TYPE_CHECKING:
    from typing import Any

    import pandas as pd
    from pgmpy.parameter_estimator import DiscreteParameterEstimator

    from .._typing import Score, ScoringMethod, SearchLike, StateNames

__all__ = ["LearningProcedure", "as_procedure", "score_of"]

#: The study tools' missing-value policies: the input boundary's
#: (:data:`pgmpy_nml._data.MISSING_POLICIES`) and structural EM.
PROCEDURE_MISSING = ("error", "drop", "available", "em")


def _registered(name) -> bool:
    from ..scores.registry import _LOOKUP

    return isinstance(name, str) and name.lower() in _LOOKUP


class LearningProcedure(ResultEstimator, BaseEstimator):
    """A structure search with a score, then a parameter estimator: one learning procedure.

    A scikit-learn estimator: the bootstrap and cross-validation tools copy it
    (:meth:`fresh`) and call ``fit`` on every resample or training fold, so the
    score is always built on the data being fitted. (``sklearn.base.clone`` works
    too, unless a parameter holds a score object, which scikit-learn cannot clone.)

    Parameters
    ----------
    method : str or search object, default "auto"
        ``"auto"``, ``"dp"``, ``"astar"``, ``"solver"``, ``"astar|solver"``,
        ``"solver|solver"``: :class:`~pgmpy_nml.ExactSearch` with that ``method``
        (globally optimal; ``"auto"`` chooses the engine); ``"hill"``,
        ``"tabu"``: :class:`~pgmpy_nml.LocalSearch` (a local optimum). Or any search object with
        ``fit(data)`` and a fitted ``causal_graph_`` (this package's searches, pgmpy's
        ``HillClimbSearch``, ``GES``, ...): a new one is built from its parameters for
        every fit, and its ``scoring_method`` parameter, if it has one, gets the score
        built on that data.
    scoring_method : str or score object, optional
        A registered score name (:func:`~pgmpy_nml.scores.score_names`; default
        ``"fnml"`` for a search given by name) or a score object, which is rebuilt
        on each data set (:func:`rebind_score`). None with a search object: the
        search's own ``scoring_method``.
    score_params : dict, optional
        Parameters of a score given by name (e.g. ``{"equivalent_sample_size": 10}``).
    parameter_estimator : "auto", None or pgmpy DiscreteParameterEstimator, default "auto"
        ``"auto"``: the score's own prior
        (:func:`~pgmpy_nml.models.default_parameter_estimator`); None: structure only.
    state_names : dict, optional
        Declared states, for the score and the parameter estimator. The study tools
        set the states of the whole data here, so every refit has the same states.
    max_parents : int, optional
        Parent limit of a search given by name.
        A whole number; a float such as ``2.0`` is taken as ``2``, ``2.5`` is refused.
    missing : {"error", "drop", "available", "em"}, default "error"
        Missing values: refused; the incomplete rows dropped (with a warning that
        says how many); kept, for a score that handles them (``"pnal"``, which
        counts each family on its complete rows; see :mod:`pgmpy_nml.scores.nal`); or
        ``"em"``: structural EM (:class:`~pgmpy_nml.StructuralEM`) with this
        procedure's search, score and parameter estimator, valid when values are missing
        at random (its ``n_jobs`` then runs the chains in processes; the study tools
        evaluate test rows with their missing cells summed out).
    return_type : {"dag", "pdag"}, default "dag"
        ``"pdag"`` returns the learned structure's equivalence class (CPDAG) in
        ``causal_graph_``, as pgmpy's ``HillClimbSearch(return_type="pdag")``; meant
        for score-equivalent scores (:func:`~pgmpy_nml.study.is_score_equivalent`).
        Parameters are fitted on the DAG either way.
    n_jobs : int, optional
        Threads of a search given by name (``n_jobs`` of :class:`~pgmpy_nml.ExactSearch`
        or :class:`~pgmpy_nml.LocalSearch`: None one, -1 all cores); with a search
        object, set on its own ``n_jobs`` when given. Not the workers over
        splits or resamples of the study tools (their own ``n_jobs``): with both, the
        threads multiply.

    Notes
    -----
    When parameters are fitted, ``fit`` first checks that no network the search may
    return needs a CPD too large to fit (:func:`~pgmpy_nml.models.check_table_sizes`,
    for columns with many states), so such data fail before the search with the
    columns named, not after it.

    Attributes
    ----------
    causal_graph_ : pgmpy.base.DAG or pgmpy.base.PDAG
        The learned structure: a PDAG with ``return_type="pdag"`` or when the search
        returns one (pgmpy's ``HillClimbSearch`` by default), else the DAG.
    dag_ : pgmpy.base.DAG
        The learned DAG (a consistent extension when the search returned a PDAG).
    model_ : pgmpy.models.DiscreteBayesianNetwork or None
        The fitted network.
    n_features_in_ : int
        The number of columns of the data.
    feature_names_in_ : ndarray of object
        The data's columns, in order.

    Examples
    --------
    >>> from pgmpy_nml.datasets import sample_network
    >>> from pgmpy_nml.study import LearningProcedure
    >>> _, data = sample_network("cancer", 1000, random_state=0)
    >>> procedure = LearningProcedure(
    ...     "auto", scoring_method="bdeu", score_params={"equivalent_sample_size": 5}
    ... )
    >>> model = procedure.fit(data).model_
    >>> type(model.get_cpds()[0]).__name__, model.check_model()
    ('TabularCPD', True)
    """

    _parameter_specs = {
        "method": METHOD_OR_SEARCH,
        "scoring_method": NoneOr(SCORING_METHOD),
        "score_params": NoneOr(Instance(Mapping, "a dict of the score's parameters")),
        "parameter_estimator": AnyOf(
            Choice(("auto",)),
            PARAMETER_ESTIMATOR,
            what="'auto', None or a pgmpy parameter estimator instance",
        ),
        "state_names": STATE_NAMES,
        "max_parents": NoneOr(Integer()),
        "missing": Choice(PROCEDURE_MISSING),
        "return_type": Choice(("dag", "pdag")),
        "n_jobs": NJobs(),
    }

    def __init__(
        self,
        method: SearchLike = "auto",
        *,
        scoring_method: ScoringMethod | None = None,
        score_params: Mapping[str, Any] | None = None,
        parameter_estimator: DiscreteParameterEstimator | str | None = "auto",
        state_names: StateNames | None = None,
        max_parents: int | None = None,
        missing: str = "error",
        return_type: str = "dag",
        n_jobs: int | None = None,
    ) -> None:
        self.method = method
        self.scoring_method = scoring_method
        self.score_params = score_params
        self.parameter_estimator = parameter_estimator
        self.state_names = state_names
        self.max_parents = max_parents
        self.missing = missing
        self.return_type = return_type
        self.n_jobs = n_jobs

    causal_graph_ = fitted_attribute("graph", "pgmpy DAG or PDAG: the learned structure.")
    dag_ = fitted_attribute("dag", "pgmpy DAG: the learned DAG.")
    model_ = fitted_attribute("model", "DiscreteBayesianNetwork or None: the fitted network.")

    # -- the pieces ------------------------------------------------------------------------
    def _score_spec(self):
        """The score to build on each data set: a name, a score object, or None."""
        method = self.scoring_method
        if method is None and isinstance(self.method, str):
            method = "fnml"
        elif method is None and _has_params(self.method) and not isinstance(self.method, str):
            method = self.method.get_params().get("scoring_method")
        return method

    def _checked_score_spec(self):
        """:meth:`_score_spec`, refusing a name that no search of this package knows."""
        method = self._score_spec()
        if isinstance(method, str) and isinstance(self.method, str) and not _registered(method):
            from ..scores.registry import get_score_spec

            get_score_spec(method, "scoring_method")  # raises, listing the valid names
        return method

    def score_for(self, data: pd.DataFrame) -> Score:
        """The score of this procedure built on ``data`` (None if the search owns it)."""
        method = self._checked_score_spec()
        if method is None:
            return None
        if isinstance(method, str) and not _registered(method):
            return None  # a name only the search itself knows (e.g. pgmpy's "bic-d")
        from ..scores.registry import resolve_score

        names = self.state_names if isinstance(method, str) else None
        return resolve_score(method, data, names, self.score_params, bind="rebind")

    def search_for(self, score: Score) -> Any:
        """A fresh search object that optimizes ``score``."""
        search = self.method
        if isinstance(search, str):
            from ..search._find import named_search

            return named_search(
                search, score, max_parents=self.max_parents, n_jobs=self.n_jobs, show_progress=False
            )
        if not hasattr(search, "fit"):
            raise TypeError(
                "method must be a method name or a search object with fit(data) and "
                f"causal_graph_, got {type(search).__name__}."
            )
        from ..search._base import fresh_search

        settings = {} if self.n_jobs is None else {"n_jobs": self.n_jobs}
        return fresh_search(search, score, **settings)

    def fresh(self) -> LearningProcedure:
        """An unfitted copy with the same parameters (shared, never modified by ``fit``)."""
        return type(self)(**self.get_params(deep=False))

    def fit(self, data: pd.DataFrame) -> LearningProcedure:
        """Learn the structure, and the parameters unless ``parameter_estimator`` is None.

        Parameters
        ----------
        data : pandas.DataFrame

        Returns
        -------
        self
        """
        self._result = None
        validate_params(self)  # every parameter, before any work
        columns = feature_names(data.columns)
        if self.missing == "em":
            self._result = self._fit_em(data, columns)
            return self
        data = apply_missing_policy(data, self.missing)
        score = self.score_for(data)
        search = self.search_for(score)
        if self.parameter_estimator is not None:
            self._check_table_sizes(data, score, search)
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", category=FutureWarning, module=r"pgmpy(\.|$)")
            search.fit(data)
        found = search.causal_graph_
        from ..search._base import as_dag

        dag = as_dag(found, data.columns)
        if self.return_type == "pdag":
            from .scoring import cpdag

            graph = cpdag(dag)
        elif hasattr(found, "undirected_edges"):
            graph = found  # a search that returns a PDAG (pgmpy's default) keeps it
            graph.add_nodes_from(data.columns)
        else:
            graph = dag
        model = None
        estimator = self.parameter_estimator
        if estimator is not None:
            from ..models import default_parameter_estimator, fit_network

            if isinstance(estimator, str):
                if estimator != "auto":
                    raise ValueError(
                        f"parameter_estimator must be 'auto', None or a pgmpy estimator, got "
                        f"{estimator!r}."
                    )
                method = self._score_spec() if score is None else score
                if method is None or (isinstance(method, str) and not _registered(method)):
                    method = "fnml"  # a score only the search knows: the package's default
                params = (self.score_params or {}) if isinstance(method, str) else {}
                estimator = default_parameter_estimator(method, **params)
            names = self.state_names
            if names is None and score is not None:
                names = getattr(score, "state_names", None)
            model = fit_network(dag, data, estimator, names)
        self._result = _Fitted(graph, dag, model, columns)
        return self

    def _fit_em(self, data: pd.DataFrame, columns) -> _Fitted:
        """``missing="em"``: structural EM with this procedure's pieces."""
        from ..search import StructuralEM

        scoring = self._checked_score_spec()
        named = isinstance(self.method, str)
        sem = StructuralEM(
            "fnml" if scoring is None else scoring,
            method=self.method,
            score_params=self.score_params if isinstance(scoring, str) else None,
            max_parents=self.max_parents if named else None,
            parameter_estimator=self.parameter_estimator,
            state_names=self.state_names,
            n_jobs=self.n_jobs,
            show_progress=False,
        )
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", category=FutureWarning, module=r"pgmpy(\.|$)")
            sem.fit(data)
        dag = sem.causal_graph_
        graph = dag
        if self.return_type == "pdag":
            from .scoring import cpdag

            graph = cpdag(dag)
        return _Fitted(graph, dag, sem.model_, columns)

    def _check_table_sizes(self, data, score, search) -> None:
        """Refuse data whose many-state columns could make an unfittable CPD (before search)."""
        from ..models import check_table_sizes, state_counts

        names = self.state_names or getattr(score, "state_names", None)
        arities = state_counts(data, data.columns, names)
        limit = self.max_parents
        if limit is None and _has_params(search):
            limit = search.get_params(deep=False).get("max_parents")
        if isinstance(limit, str):  # "auto": the search decides; check as if unlimited
            limit = None
        check_table_sizes(arities, limit)


class _Fitted:
    __slots__ = ("dag", "feature_names", "graph", "model")

    def __init__(self, graph, dag, model, feature_names):
        self.graph, self.dag, self.model = graph, dag, model
        self.feature_names = feature_names


def boundary_missing(missing: str) -> str:
    """The input boundary's policy under a study policy (``"em"`` keeps every cell, as
    ``"available"`` does)."""
    return "available" if missing == "em" else missing


def apply_missing_policy(data: pd.DataFrame, missing: str) -> pd.DataFrame:
    """``data`` under a missing-value policy: as is, or its complete rows (reported)."""
    from .._data import _drop_incomplete

    if missing not in PROCEDURE_MISSING:
        raise ValueError(
            f"missing must be one of {', '.join(repr(m) for m in PROCEDURE_MISSING)}, got "
            f"{missing!r}."
        )
    if missing == "drop" and data.isna().to_numpy().any():
        data, _ = _drop_incomplete(data)
        data = data.reset_index(drop=True)
    return data


def _has_params(obj) -> bool:
    return hasattr(obj, "get_params")


def as_procedure(method="auto", scoring_method=None, score_params=None, **settings):
    """A :class:`LearningProcedure` from a procedure, a search object or a method name.

    A :class:`LearningProcedure` is copied (:meth:`LearningProcedure.fresh`) and
    given ``settings``; anything else builds one from the arguments.

    Examples
    --------
    >>> from pgmpy_nml.study._procedure import as_procedure
    >>> as_procedure("hill", "qnml", max_parents=2).get_params()["max_parents"]
    2
    """
    if isinstance(method, LearningProcedure):
        if scoring_method is not None or score_params:
            raise ValueError("Give the score inside the LearningProcedure, not beside it.")
        procedure = method.fresh()
        if settings:
            procedure.set_params(**settings)
    else:
        procedure = LearningProcedure(
            method, scoring_method=scoring_method, score_params=score_params, **settings
        )
    validate_params(procedure)  # a bad parameter or an unknown score name fails here,
    procedure._checked_score_spec()  # before any work
    return procedure


def score_of(procedure: LearningProcedure):
    """The score name or object a procedure learns with (None if only its search knows).

    Examples
    --------
    >>> from pgmpy_nml.study import LearningProcedure
    >>> from pgmpy_nml.study._procedure import score_of
    >>> score_of(LearningProcedure()), score_of(LearningProcedure("hill", scoring_method="bdeu"))
    ('fnml', 'bdeu')
    """
    return procedure._score_spec()
