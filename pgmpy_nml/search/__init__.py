"""Structure search: the exact search (subset DP, or A* and branch and cut over candidate
parent sets), the compiled local search (hill climbing, tabu) and the memetic order search
over candidate parent sets (:class:`OrderSearch`), as scikit-learn estimators;
:func:`find_structure` chooses between them; every engine returns one :class:`SearchResult`.
:class:`StructuralEM` runs either on completions of data with missing cells."""

from .._lazy import gc_paused

with gc_paused():  # pgmpy, scikit-learn, SciPy and numba come in here (see _lazy)
    from ._find import find_structure
    from ._policy import SearchChoice, choose_search
    from ._result import SearchResult
    from .exact import ExactSearch, learn_exact
    from .local import LocalSearch
    from .order import OrderSearch
    from .structural_em import StructuralEM

__all__ = [
    "ExactSearch",
    "LocalSearch",
    "OrderSearch",
    "SearchChoice",
    "SearchResult",
    "StructuralEM",
    "choose_search",
    "find_structure",
    "learn_exact",
]
