"""Structure search: the exact search (subset DP, or A* and branch and cut over candidate
parent sets) and the compiled local search (hill climbing, tabu), as scikit-learn estimators;
:func:`find_structure` chooses between them; every engine returns one :class:`SearchResult`."""

from ..exceptions import SearchMemoryError as ExactSearchMemoryError  # noqa: F401  (see below)
from ._find import find_structure
from ._result import SearchResult
from .exact import ExactSearch, learn_exact
from .local import LocalSearch

# ExactSearchMemoryError is gone from the API (pgmpy_nml.exceptions.SearchMemoryError);
# the name stays here, unlisted, only until the command line (being split into cli/)
# imports SearchMemoryError. Remove it then.
__all__ = ["ExactSearch", "LocalSearch", "SearchResult", "find_structure", "learn_exact"]
