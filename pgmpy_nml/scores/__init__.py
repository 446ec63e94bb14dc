"""Structure scores for discrete Bayesian networks, usable in both pgmpy search APIs.

Every score is built on data and answers ``local_score(variable, parents)``.
:func:`make_score` builds one by name (:func:`score_names` lists them);
:mod:`pgmpy_nml.scores.contract` says how a decomposable score declares its
per-subset statistics and local formula, which the searches use to count in bulk.
"""

from ._base import DiscreteScore
from .bd import BDConstant, BDeu
from .bdeu_bounds import MaxBDeu, MinBDeu, bdeu_sensitivity
from .contract import StatisticScore
from .fnml import FNML
from .qnml import QNML
from .registry import (
    get_score_spec,
    make_score,
    register_score,
    score_names,
    spec_for_score,
    unregister_score,
)

__all__ = [
    "FNML",
    "QNML",
    "BDConstant",
    "BDeu",
    "DiscreteScore",
    "MaxBDeu",
    "MinBDeu",
    "StatisticScore",
    "bdeu_sensitivity",
    "get_score_spec",
    "make_score",
    "register_score",
    "score_names",
    "spec_for_score",
    "unregister_score",
]
