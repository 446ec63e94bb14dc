"""The candidate-parent-set pipeline: exact structure learning on larger networks.

Exact learners for more variables than the subset DP can hold (GOBNILP, CPBayes,
URLearning and this package) work in two stages:

1. :func:`candidate_parent_sets`: for each variable, the parent sets that can be
   optimal and their local scores, found with proven pruning bounds
   (:class:`PruningReport` says what was pruned);
2. a search for the best network that picks one candidate per variable:
   :func:`solve` (SCIP's branch and cut with cluster cuts) or the A* search over the
   order graph that :class:`~pgmpy_nml.ExactSearch` runs with ``method="astar"``.

:class:`CandidateParentSets` holds the first stage's result, and reads and writes
the score files those solvers share (:func:`read_score_file`,
:func:`write_score_file`), so each stage also runs on its own. The second stage
returns a :class:`~pgmpy_nml.search._result.SearchResult`, the result type of every
search of the package:

>>> from pgmpy_nml.search.candidates import CandidateParentSets, solve
>>> cands = CandidateParentSets.from_dict(
...     {"A": {(): -10.0, ("B",): -8.0}, "B": {(): -5.0, ("A",): -4.5}}
... )
>>> result = solve(cands, show_progress=False)
>>> result.score, result.optimal, sorted(result.dag.edges())
(-13.0, True, [('B', 'A')])
"""

from ._files import CandidateParentSets, read_score_file, write_score_file
from ._pruning import PruningReport, candidate_parent_sets
from ._solver import solve

__all__ = [
    "CandidateParentSets",
    "PruningReport",
    "candidate_parent_sets",
    "read_score_file",
    "solve",
    "write_score_file",
]
