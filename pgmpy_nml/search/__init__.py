"""Exact structure learning (dynamic programming over variable subsets)."""

from ..exceptions import SearchMemoryError as ExactSearchMemoryError  # noqa: F401  (see below)
from .exact import ExactSearch, find_structure, learn_exact
from .local import LocalSearch

# ExactSearchMemoryError is gone from the API (pgmpy_nml.exceptions.SearchMemoryError);
# the name stays here, unlisted, only until the command line (being split into cli/)
# imports SearchMemoryError. Remove it then.
__all__ = ["ExactSearch", "LocalSearch", "find_structure", "learn_exact"]
