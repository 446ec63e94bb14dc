"""Exact structure learning (dynamic programming over variable subsets)."""

from .exact import ExactSearch, ExactSearchMemoryError, find_structure, learn_exact

__all__ = ["ExactSearch", "ExactSearchMemoryError", "find_structure", "learn_exact"]
