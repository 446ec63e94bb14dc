"""Type aliases of the public API's annotations (for type checkers and readers).

Every module writes ``from __future__ import annotations``, so annotations are
never evaluated at run time: importing this module costs nothing, and the pgmpy,
pandas and networkx names below are imported for type checkers only.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    import networkx as nx
    import numpy as np
    from pgmpy.base import DAG, PDAG
    from pgmpy.causal_discovery import ExpertKnowledge
    from pgmpy.estimators import StructureScore
    from pgmpy.models import DiscreteBayesianNetwork
    from pgmpy.structure_score import BaseStructureScore

__all__ = [
    "ArrayLike",
    "ExpertKnowledgeLike",
    "FloatOrArray",
    "Graph",
    "LearnedGraph",
    "RandomState",
    "Score",
    "ScoringMethod",
    "SearchLike",
    "StateNames",
]

#: Anything ``numpy.asarray`` takes.
ArrayLike: TypeAlias = Any
#: A float for scalar arguments, an array (elementwise) for array arguments.
FloatOrArray: TypeAlias = "float | np.ndarray"
#: Variable -> its states, in order (declared states count even when unobserved).
StateNames: TypeAlias = Mapping[Hashable, Sequence[Hashable]]
#: A structure score object of either pgmpy API (this package's scores are both).
Score: TypeAlias = "BaseStructureScore | StructureScore"
#: A registered score name (:func:`pgmpy_nml.scores.score_names`) or a score object.
ScoringMethod: TypeAlias = "str | Score"
#: A directed graph over the variables: pgmpy's DAG or a networkx DiGraph.
Graph: TypeAlias = "DAG | nx.DiGraph | DiscreteBayesianNetwork"
#: pgmpy's ``ExpertKnowledge``, or a dict of its arguments.
ExpertKnowledgeLike: TypeAlias = "ExpertKnowledge | Mapping[str, Any]"
#: A seed for ``numpy.random.default_rng``.
RandomState: TypeAlias = "int | np.random.Generator | None"
#: A search name (``"exact"``, ``"hill"``, ``"tabu"``) or a search object with
#: ``fit(data)`` and a fitted ``causal_graph_``.
SearchLike: TypeAlias = "str | Any"
#: What :func:`pgmpy_nml.study.averaged_network` and the searches return.
LearnedGraph: TypeAlias = "DAG | PDAG"
