"""Exact structure learning (dynamic programming over variable subsets)."""

from ._policy import SearchChoice, choose_search
from .exact import ExactSearch, ExactSearchMemoryError, find_structure, learn_exact
from .local import LocalSearch

__all__ = [
    "ExactSearch",
    "ExactSearchMemoryError",
    "LocalSearch",
    "SearchChoice",
    "choose_search",
    "find_structure",
    "learn_exact",
]
