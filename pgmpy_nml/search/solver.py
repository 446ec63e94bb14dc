"""The exact solver over candidate parent sets, for score files and candidates of your own.

:class:`~pgmpy_nml.ExactSearch` (``method="solver"``) builds the candidates from data
and calls :func:`solve`; call it directly on a
:class:`~pgmpy_nml.search.candidates.CandidateParentSets`, for example one read from a
GOBNILP, CPBayes or URLearning score file with
:func:`~pgmpy_nml.search.candidates.read_score_file`.
"""

from ._solver import SolverResult, solve

__all__ = ["SolverResult", "solve"]
