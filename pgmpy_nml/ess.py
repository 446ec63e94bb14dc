"""Steck's optimal equivalent sample size: moved to :mod:`pgmpy_nml.analysis.ess`."""

from ._moved import forward

__all__, __getattr__, __dir__ = forward(__name__, "pgmpy_nml.analysis.ess")
