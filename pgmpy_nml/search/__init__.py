"""Structure search: the exact search (subset DP, or A* and branch and cut over candidate
parent sets) and the compiled local search (hill climbing, tabu), as scikit-learn estimators;
:func:`find_structure` chooses between them; every engine returns one :class:`SearchResult`."""

from ._find import find_structure
from ._result import SearchResult
from .exact import ExactSearch, ExactSearchMemoryError, learn_exact
from .local import LocalSearch

__all__ = [
    "ExactSearch",
    "ExactSearchMemoryError",
    "LocalSearch",
    "SearchResult",
    "find_structure",
    "learn_exact",
]
