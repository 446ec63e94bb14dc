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

from ._version import __version__

# Lazy attributes (PEP 562): ``import pgmpy_nml`` imports neither pgmpy nor numba, so
# the command-line tool starts at once (``pgmpy-nml --help``); each name below loads its
# module on first use. Keep this table and ``__all__`` in step (a test checks it).
_LAZY = {
    "OptimalESS": "ess",
    "optimal_ess": "ess",
    "FSNMLEstimator": "estimators",
    "fsnml_code_length": "evaluate",
    "log_loss": "evaluate",
    "n_parameters": "evaluate",
    "forest_log_normalizer": "forest",
    "forest_nml": "forest",
    "default_parameter_estimator": "models",
    "learning_saturation": "saturation",
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


def __getattr__(name):
    import importlib

    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    if name in _LAZY:
        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value  # later look-ups skip this function
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
