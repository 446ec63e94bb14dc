"""pgmpy-nml: normalized maximum likelihood scores and tools for discrete Bayesian networks.

Scores (drop-in for both of pgmpy 1.1's structure-search APIs):
:class:`FNML`, :class:`QNML`, :class:`MinBDeu`, :class:`MaxBDeu`, :class:`BDConstant`;
:func:`bdeu_sensitivity` for BDeu's dependence on its prior.
Parameters: :class:`FSNMLEstimator` (factorized sequential NML), for
``DiscreteBayesianNetwork.fit(data, estimator=...)``.
Evaluation: :func:`log_loss`, :func:`n_parameters`, :func:`fsnml_code_length`.
Numerics: :mod:`pgmpy_nml.regret` (the multinomial NML normalizer) and
:mod:`pgmpy_nml.snml` (sequential NML and its regret bounds).
Analysis: :func:`forest_nml` (exact NML of forest-structured networks,
:mod:`pgmpy_nml.forest`), :class:`OptimalESS` / :func:`optimal_ess` (Steck's optimal equivalent
sample size, :mod:`pgmpy_nml.ess`), :func:`learning_saturation`.
Study tools (:mod:`pgmpy_nml.study`): :func:`bootstrap_strength` and
:func:`averaged_network` (bootstrap arc strength, model averaging),
:func:`cross_validate` and :func:`compare_procedures` (cross-validation of
:class:`LearningProcedure` objects), :func:`local_scores` (per-node scores),
:func:`cpdag`, :func:`discretize` / :class:`Discretizer`, :func:`compare_structures`;
:func:`default_parameter_estimator` (the parameters that match a score).
"""

from . import ess, forest, regret, snml, study
from ._version import __version__
from .ess import OptimalESS, optimal_ess
from .estimators import FSNMLEstimator
from .evaluate import fsnml_code_length, log_loss, n_parameters
from .forest import forest_log_normalizer, forest_nml
from .models import default_parameter_estimator
from .saturation import learning_saturation
from .scores import (
    FNML,
    QNML,
    BDConstant,
    BDeu,
    MaxBDeu,
    MinBDeu,
    bdeu_sensitivity,
    make_score,
    score_names,
)
from .search import ExactSearch, ExactSearchMemoryError, LocalSearch, learn_exact
from .study import (
    Discretizer,
    LearningProcedure,
    averaged_network,
    bootstrap_strength,
    compare_procedures,
    compare_structures,
    cpdag,
    cross_validate,
    discretize,
    local_scores,
)

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
