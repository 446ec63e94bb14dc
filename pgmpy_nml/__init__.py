"""pgmpy-nml: normalized maximum likelihood scores and tools for discrete Bayesian networks.

Scores (drop-in for both of pgmpy 1.1's structure-search APIs):
:class:`FNML`, :class:`QNML`, :class:`MinBDeu`, :class:`MaxBDeu`, :class:`BDConstant`;
:func:`bdeu_sensitivity` for BDeu's dependence on its prior.
Parameters: :class:`FSNMLEstimator` (factorized sequential NML), for
``DiscreteBayesianNetwork.fit(data, estimator=...)``.
Evaluation: :func:`log_loss`, :func:`n_parameters`, :func:`fsnml_code_length`.
Numerics (:mod:`pgmpy_nml.numerics`): :mod:`~pgmpy_nml.numerics.regret` (the multinomial
NML normalizer), :mod:`~pgmpy_nml.numerics.snml` (sequential NML) and
:mod:`~pgmpy_nml.numerics.snml_bounds` (its regret bounds).
Analysis: :func:`forest_nml` (exact NML of forest-structured networks,
:mod:`pgmpy_nml.analysis.forest`), :class:`OptimalESS` / :func:`optimal_ess` (Steck's optimal
equivalent sample size, :mod:`pgmpy_nml.analysis.ess`), :func:`learning_saturation`.
Study tools (:mod:`pgmpy_nml.study`): :func:`bootstrap_strength` and
:func:`averaged_network` (bootstrap arc strength, model averaging),
:func:`cross_validate` and :func:`compare_procedures` (cross-validation of
:class:`LearningProcedure` objects), :func:`local_scores` (per-node scores),
:func:`cpdag`, :func:`discretize` / :class:`Discretizer`, :func:`compare_structures`;
:func:`default_parameter_estimator` (the parameters that match a score).
Errors and warnings (:mod:`pgmpy_nml.exceptions`): every error derives from
:class:`PgmpyNMLError` and keeps its builtin parent (``ValueError``, ``MemoryError``).
"""

from __future__ import annotations

from ._lazy import attach_stub
from ._version import __version__ as __version__  # eager: no module to load

# The public names are listed once, in ``__init__.pyi`` (scientific-python SPEC 1):
# each loads its module on first use, so ``import pgmpy_nml`` imports neither pgmpy nor
# numba and the command-line tool starts at once (``pgmpy-nml --help``).
__getattr__, __dir__, __all__ = attach_stub(__name__, __file__)
del attach_stub
