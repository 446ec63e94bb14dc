"""Exact structure learning (dynamic programming over variable subsets)."""

from .exact import ExactSearch, ExactSearchMemoryError, learn_exact

__all__ = ["ExactSearch", "ExactSearchMemoryError", "learn_exact"]
