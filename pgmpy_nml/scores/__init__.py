"""Structure scores for discrete Bayesian networks, usable in both pgmpy search APIs.

Every score is built on data and answers ``local_score(variable, parents)``.
:func:`make_score` builds one by name (:func:`score_names` lists them);
:mod:`pgmpy_nml.scores.contract` says how a decomposable score declares its
per-subset statistics and local formula, which the searches use to count in bulk.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import registry as _registry
from .registry import *  # noqa: F403  (the registry's functions, listed in its __all__)

# The score classes load on first use (PEP 562), like the package's top level: the
# registry (the command line's --help lists its names) must not import pgmpy.
_LAZY = {
    "DiscreteScore": "_base",
    "BDConstant": "bd",
    "BDeu": "bd",
    "MaxBDeu": "bdeu_bounds",
    "MinBDeu": "bdeu_bounds",
    "bdeu_sensitivity": "bdeu_bounds",
    "StatisticScore": "contract",
    "FNML": "fnml",
    "QNML": "qnml",
}


if TYPE_CHECKING:  # what the lazy names are, for type checkers (py.typed)
    from typing import Any

    from ._base import DiscreteScore as DiscreteScore
    from .bd import BDConstant as BDConstant
    from .bd import BDeu as BDeu
    from .bdeu_bounds import MaxBDeu as MaxBDeu
    from .bdeu_bounds import MinBDeu as MinBDeu
    from .bdeu_bounds import bdeu_sensitivity as bdeu_sensitivity
    from .contract import StatisticScore as StatisticScore
    from .fnml import FNML as FNML
    from .qnml import QNML as QNML

__all__ = [*_LAZY, *_registry.__all__]


def __getattr__(name: str) -> Any:
    import importlib

    if name in _LAZY:
        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
