"""pgmpy-nml: normalized maximum likelihood scores and tools for discrete Bayesian networks.

Scores (drop-in for both of pgmpy 1.1's structure-search APIs):
:class:`FNML`, :class:`QNML`, :class:`MinBDeu`, :class:`MaxBDeu`, :class:`BDConstant`;
:func:`bdeu_sensitivity` for BDeu's dependence on its prior.
Parameters: :class:`FSNMLEstimator` (factorized sequential NML), for
``DiscreteBayesianNetwork.fit(data, estimator=...)``.
Evaluation: :func:`log_loss`, :func:`n_parameters`, :func:`fsnml_code_length`.
Numerics (:mod:`pgmpy_nml.numerics`): :mod:`~pgmpy_nml.numerics.regret` (the multinomial
NML normalizer), :mod:`~pgmpy_nml.numerics.snml` (sequential NML) and
:mod:`~pgmpy_nml.numerics.snml_bounds` (its regret bounds); ``pgmpy_nml.regret`` and
``pgmpy_nml.snml`` are their first names.
Analysis: :func:`forest_nml` (exact NML of forest-structured networks,
:mod:`pgmpy_nml.analysis.forest`), :class:`OptimalESS` / :func:`optimal_ess` (Steck's optimal
equivalent sample size, :mod:`pgmpy_nml.analysis.ess`), :func:`learning_saturation`.
Study tools (:mod:`pgmpy_nml.study`): :func:`bootstrap_strength` and
:func:`averaged_network` (bootstrap arc strength, model averaging),
:func:`cross_validate` and :func:`compare_procedures` (cross-validation of
:class:`LearningProcedure` objects), :func:`local_scores` (per-node scores),
:func:`cpdag`, :func:`discretize` / :class:`Discretizer`, :func:`compare_structures`;
:func:`default_parameter_estimator` (the parameters that match a score).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._version import __version__

# Lazy attributes (PEP 562): ``import pgmpy_nml`` imports neither pgmpy nor numba, so
# the command-line tool starts at once (``pgmpy-nml --help``); each name below loads its
# module on first use. Keep this table and ``__all__`` in step (a test checks it).
_LAZY = {
    "OptimalESS": "analysis.ess",
    "optimal_ess": "analysis.ess",
    "FSNMLEstimator": "estimators",
    "fsnml_code_length": "evaluate",
    "log_loss": "evaluate",
    "n_parameters": "evaluate",
    "forest_log_normalizer": "analysis.forest",
    "forest_nml": "analysis.forest",
    "default_parameter_estimator": "models",
    "UnknownStateError": "_data",
    "learning_saturation": "analysis.saturation",
    "FNML": "scores",
    "QNML": "scores",
    "BDConstant": "scores",
    "BDeu": "scores",
    "MaxBDeu": "scores",
    "MinBDeu": "scores",
    "bdeu_sensitivity": "scores",
    "make_score": "scores",
    "score_names": "scores",
    "ExactSearch": "search",
    "ExactSearchMemoryError": "search",
    "LocalSearch": "search",
    "learn_exact": "search",
    "Discretizer": "study",
    "LearningProcedure": "study",
    "averaged_network": "study",
    "bootstrap_strength": "study",
    "compare_procedures": "study",
    "compare_structures": "study",
    "cpdag": "study",
    "cross_validate": "study",
    "discretize": "study",
    "local_scores": "study",
}
_SUBMODULES = {"ess", "forest", "regret", "snml", "study"}


if TYPE_CHECKING:  # what the lazy names are, for type checkers (py.typed)
    from typing import Any

    from . import ess as ess
    from . import forest as forest
    from . import regret as regret
    from . import snml as snml
    from . import study as study
    from ._data import UnknownStateError as UnknownStateError
    from .analysis.ess import OptimalESS as OptimalESS
    from .analysis.ess import optimal_ess as optimal_ess
    from .analysis.forest import forest_log_normalizer as forest_log_normalizer
    from .analysis.forest import forest_nml as forest_nml
    from .analysis.saturation import learning_saturation as learning_saturation
    from .estimators import FSNMLEstimator as FSNMLEstimator
    from .evaluate import fsnml_code_length as fsnml_code_length
    from .evaluate import log_loss as log_loss
    from .evaluate import n_parameters as n_parameters
    from .models import default_parameter_estimator as default_parameter_estimator
    from .scores import FNML as FNML
    from .scores import QNML as QNML
    from .scores import BDConstant as BDConstant
    from .scores import BDeu as BDeu
    from .scores import MaxBDeu as MaxBDeu
    from .scores import MinBDeu as MinBDeu
    from .scores import bdeu_sensitivity as bdeu_sensitivity
    from .scores import make_score as make_score
    from .scores import score_names as score_names
    from .search import ExactSearch as ExactSearch
    from .search import ExactSearchMemoryError as ExactSearchMemoryError
    from .search import LocalSearch as LocalSearch
    from .search import learn_exact as learn_exact
    from .study import Discretizer as Discretizer
    from .study import LearningProcedure as LearningProcedure
    from .study import averaged_network as averaged_network
    from .study import bootstrap_strength as bootstrap_strength
    from .study import compare_procedures as compare_procedures
    from .study import compare_structures as compare_structures
    from .study import cpdag as cpdag
    from .study import cross_validate as cross_validate
    from .study import discretize as discretize
    from .study import local_scores as local_scores

__all__ = [
    "FNML",
    "QNML",
    "BDConstant",
    "BDeu",
    "Discretizer",
    "ExactSearch",
    "ExactSearchMemoryError",
    "FSNMLEstimator",
    "LearningProcedure",
    "LocalSearch",
    "MaxBDeu",
    "MinBDeu",
    "OptimalESS",
    "UnknownStateError",
    "__version__",
    "averaged_network",
    "bdeu_sensitivity",
    "bootstrap_strength",
    "compare_procedures",
    "compare_structures",
    "cpdag",
    "cross_validate",
    "default_parameter_estimator",
    "discretize",
    "ess",
    "forest",
    "forest_log_normalizer",
    "forest_nml",
    "fsnml_code_length",
    "learn_exact",
    "learning_saturation",
    "local_scores",
    "log_loss",
    "make_score",
    "n_parameters",
    "optimal_ess",
    "regret",
    "score_names",
    "snml",
    "study",
]


def __getattr__(name: str) -> Any:
    import importlib

    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    if name in _LAZY:
        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value  # later look-ups skip this function
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
