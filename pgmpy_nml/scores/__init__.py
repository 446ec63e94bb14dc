"""Structure scores for discrete Bayesian networks, usable in both pgmpy search APIs."""

from ._base import DiscreteScore
from .bd import BDConstant
from .bdeu_bounds import MaxBDeu, MinBDeu, bdeu_sensitivity
from .fnml import FNML
from .qnml import QNML

__all__ = ["FNML", "QNML", "BDConstant", "DiscreteScore", "MaxBDeu", "MinBDeu", "bdeu_sensitivity"]
