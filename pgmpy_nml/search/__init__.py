"""Exact structure learning (dynamic programming over variable subsets)."""

from .exact import ExactSearch, ExactSearchMemoryError, find_structure, learn_exact
from .local import LocalSearch

__all__ = ["ExactSearch", "ExactSearchMemoryError", "LocalSearch", "find_structure", "learn_exact"]
