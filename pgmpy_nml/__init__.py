"""pgmpy-nml: NML-family scores and tools for discrete Bayesian networks in pgmpy."""

__version__ = "0.1.0.dev0"
