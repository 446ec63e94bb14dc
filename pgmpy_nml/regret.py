"""The multinomial NML normalizer C(K, n): moved to :mod:`pgmpy_nml.numerics.regret`."""

from ._moved import forward

__all__, __getattr__, __dir__ = forward(__name__, "pgmpy_nml.numerics.regret")
