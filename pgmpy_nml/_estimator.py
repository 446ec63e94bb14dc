"""Fitted attributes of the package's estimators, held in one result object.

An estimator's ``fit`` forgets the previous result first (``self._result = None``),
builds a new result (a frozen dataclass) and stores it at the very end; each
trailing-underscore attribute is a read-only view of a result field. Before
``fit``, or after an interrupted one, the attributes do not exist, as
scikit-learn expects, and asking for one says to call ``fit``.
"""

from __future__ import annotations

import numpy as np

__all__ = ["ResultEstimator", "feature_names", "fitted_attribute", "sklearn_tags"]


class fitted_attribute:
    """A read-only attribute that reads ``field`` of the estimator's ``_result``."""

    def __init__(self, field: str, doc: str = ""):
        self.field = field
        self.__doc__ = doc
        self.name = field + "_"

    def __set_name__(self, owner, name: str) -> None:
        self.name = name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        result = obj.__dict__.get("_result")
        if result is None:
            raise AttributeError(f"This {type(obj).__name__} has no {self.name} yet: call fit().")
        return getattr(result, self.field)


class _seen_columns(fitted_attribute):
    """``feature_names_in_``: absent (AttributeError) when ``fit`` saw no data."""

    def __get__(self, obj, owner=None):
        value = super().__get__(obj, owner)
        if obj is not None and value is None:
            raise AttributeError(f"This {type(obj).__name__} saw no data: no {self.name}.")
        return value


class ResultEstimator:
    """Mixin: fitted when ``fit`` stored its result (scikit-learn's ``check_is_fitted``).

    scikit-learn looks for trailing-underscore attributes in the instance's
    ``__dict__``; the package keeps them in ``_result`` instead, so it answers
    through ``__sklearn_is_fitted__``.
    """

    feature_names_in_ = _seen_columns(
        "feature_names", "ndarray of object: the columns of the data ``fit`` saw, in order."
    )

    @property
    def n_features_in_(self) -> int:
        """int: the number of columns of the data ``fit`` saw."""
        return len(self.feature_names_in_)

    def __sklearn_is_fitted__(self) -> bool:
        return self.__dict__.get("_result") is not None


def feature_names(columns) -> np.ndarray:
    """The ``feature_names_in_`` of data with these columns (scikit-learn's type)."""
    return np.asarray(list(columns), dtype=object)


def sklearn_tags():
    """scikit-learn's default tags (``__sklearn_tags__``, scikit-learn >= 1.6), for the
    classes with ``fit`` that do not derive from scikit-learn's ``BaseEstimator``."""
    from sklearn.utils import Tags, TargetTags

    return Tags(estimator_type=None, target_tags=TargetTags(required=False))
