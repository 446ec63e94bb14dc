"""Exact NML of Bayesian forests: moved to :mod:`pgmpy_nml.analysis.forest`."""

from ._moved import forward

__all__, __getattr__, __dir__ = forward(__name__, "pgmpy_nml.analysis.forest")
