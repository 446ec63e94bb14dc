"""pgmpy-nml: normalized maximum likelihood scores and tools for discrete Bayesian networks.

Scores (drop-in for both of pgmpy 1.1's structure-search APIs):
:class:`FNML`, :class:`QNML`, :class:`MinBDeu`, :class:`MaxBDeu`, :class:`BDConstant`;
:func:`bdeu_sensitivity` for BDeu's dependence on its prior; :mod:`pgmpy_nml.regret`
for the multinomial NML normalizer.
"""

from . import regret
from .scores import FNML, QNML, BDConstant, MaxBDeu, MinBDeu, bdeu_sensitivity

__version__ = "0.1.0.dev0"

__all__ = [
    "FNML",
    "QNML",
    "BDConstant",
    "MaxBDeu",
    "MinBDeu",
    "__version__",
    "bdeu_sensitivity",
    "regret",
]
