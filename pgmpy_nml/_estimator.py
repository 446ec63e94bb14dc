"""Fitted attributes of the package's estimators, held in one result object.

An estimator's ``fit`` forgets the previous result first (``self._result = None``),
builds a new result (a frozen dataclass) and stores it at the very end; each
trailing-underscore attribute is a read-only view of a result field. Before
``fit``, or after an interrupted one, the attributes do not exist, as
scikit-learn expects, and asking for one says to call ``fit``.
"""

from __future__ import annotations

__all__ = ["fitted_attribute"]


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
