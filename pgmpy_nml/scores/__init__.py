"""Structure scores for discrete Bayesian networks, usable in both pgmpy search APIs.

Every score is built on data and answers ``local_score(variable, parents)``.
:func:`make_score` builds one by name (:func:`score_names` lists them);
:mod:`pgmpy_nml.scores.contract` says how a decomposable score declares its
per-subset statistics and local formula, which the searches use to count in bulk.
"""

from __future__ import annotations

from .._lazy import attach_stub

# The public names are listed once, in ``__init__.pyi``; each loads its module on first
# use (the score classes import pgmpy, the registry does not).
__getattr__, __dir__, __all__ = attach_stub(__name__, __file__)
del attach_stub
