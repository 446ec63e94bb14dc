"""Per-node scores and equivalence classes.

:func:`local_scores` is bnlearn's ``score(..., by.node = TRUE)``; :func:`cpdag`
is bnlearn's ``cpdag()`` and pgmpy's ``DAG.to_pdag()``; :func:`is_score_equivalent`
says for which scores the equivalence class is all a search can learn.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

import pandas as pd

if TYPE_CHECKING:
    from typing import Any

    from pgmpy.base import PDAG

    from .._typing import Graph, ScoringMethod, StateNames

__all__ = ["cpdag", "is_score_equivalent", "local_scores"]


def _score_object(scoring_method, data, state_names, params):
    from ..scores.registry import resolve_score

    return resolve_score(
        scoring_method, data, state_names, params, bind="rebind", caller="local_scores()"
    )


def local_scores(
    model: Graph,
    data: pd.DataFrame | None = None,
    *,
    scoring_method: ScoringMethod = "fnml",
    state_names: StateNames | None = None,
    **params: Any,
) -> pd.Series:
    r"""The local score of every node of a model, as a pandas Series (bnlearn's ``by.node``).

    .. math::

        S(\mathcal{G}, D) = \sum_i S(X_i \mid G_i),

    so the Series sums to the model's score (``score.score(model)``) for every
    decomposable score of this package and of pgmpy, less the score's structure
    prior, which is not a node's (zero for all but pgmpy's ``BDs``).

    Parameters
    ----------
    model : pgmpy DAG, DiscreteBayesianNetwork or networkx DiGraph
        Its nodes must be columns of the data.
    data : pandas.DataFrame, optional
        Needed when ``scoring_method`` is a name; with a score object, the score is
        rebuilt on ``data`` if given, else its own data are used.
    scoring_method : str or score object, default "fnml"
        A name of :func:`~pgmpy_nml.scores.score_names` or any score object with
        ``local_score(variable, parents)`` (pgmpy's included).
    state_names : dict, optional
        Declared states, for a score given by name.
    **params
        The parameters of a score given by name (``equivalent_sample_size``, ...).

    Returns
    -------
    pandas.Series
        Indexed by node, in the model's node order, named after the score.

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy.base import DAG
    >>> from pgmpy_nml import BDeu
    >>> from pgmpy_nml.study import local_scores
    >>> data = pd.DataFrame({"A": [0, 0, 1, 1, 1], "B": [0, 0, 1, 1, 0]})
    >>> by_node = local_scores(DAG([("A", "B")]), data, scoring_method="bdeu")
    >>> by_node.round(4).to_dict()
    {'A': -4.4466, 'B': -4.0535}
    >>> bool(abs(by_node.sum() - BDeu(data).score(DAG([("A", "B")]))) < 1e-12)
    True
    """
    score = _score_object(scoring_method, data, state_names, params)
    nodes = list(model.nodes())
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=FutureWarning, module=r"pgmpy(\.|$)")
        values = [float(score.local_score(v, tuple(model.predecessors(v)))) for v in nodes]
    name = scoring_method if isinstance(scoring_method, str) else type(score).__name__
    return pd.Series(values, index=pd.Index(nodes, name="node"), name=name, dtype=float)


def is_score_equivalent(scoring_method: ScoringMethod) -> bool | None:
    """Whether a score gives Markov-equivalent DAGs the same value.

    Read from the score registry (:func:`~pgmpy_nml.scores.get_score_spec`): qNML,
    BDeu, BIC, AIC and the log-likelihood are score equivalent; fNML, BD with a
    constant hyperparameter (and K2), BDs and Min-/Max-BDeu are not. For a score
    equivalent score only the equivalence class (:func:`cpdag`) of a learned DAG is
    supported by the data; the directions within it are the search's tie-breaking.

    Parameters
    ----------
    scoring_method : str or score object

    Returns
    -------
    bool or None
        None for a score the registry does not know.

    Examples
    --------
    >>> from pgmpy_nml.study import is_score_equivalent
    >>> is_score_equivalent("qnml"), is_score_equivalent("fnml"), is_score_equivalent("bic")
    (True, False, True)
    """
    from ..scores.registry import spec_for_score

    spec = spec_for_score(scoring_method)
    return None if spec is None else spec.score_equivalent


def cpdag(dag: Graph) -> PDAG:
    """The equivalence class of a DAG as its CPDAG (completed partially directed graph).

    Edges that have the same direction in every DAG of the Markov equivalence
    class (the same skeleton and v-structures, Verma and Pearl 1990) stay
    directed; the others become undirected. Computed with pgmpy's
    ``DAG.to_pdag()`` (Chickering 2002), which pgmpy's
    ``HillClimbSearch(return_type="pdag")`` returns too; isolated nodes are kept.

    Parameters
    ----------
    dag : pgmpy DAG, networkx DiGraph (acyclic), list of (parent, child) edges, or PDAG
        A PDAG gives the CPDAG of the class it stands for (of a consistent
        extension; ``ValueError`` if it has none). Anything else is a ``TypeError``.

    Returns
    -------
    pgmpy.base.PDAG
        ``directed_edges`` and ``undirected_edges`` (each undirected edge once).

    Examples
    --------
    >>> from pgmpy.base import DAG
    >>> from pgmpy_nml.study import cpdag
    >>> collider = cpdag(DAG([("A", "C"), ("B", "C")]))
    >>> sorted(collider.directed_edges), sorted(collider.undirected_edges)
    ([('A', 'C'), ('B', 'C')], [])
    >>> chain = cpdag(DAG([("A", "B"), ("B", "C")]))
    >>> sorted(chain.directed_edges), len(chain.undirected_edges)
    ([], 2)
    """
    from pgmpy.base import PDAG

    from ._graphs import as_graph, consistent_extension, is_pdag

    graph = as_graph(dag, "dag")
    if is_pdag(graph):
        graph = consistent_extension(graph, "dag")
    if graph.number_of_edges() == 0:
        result = PDAG()
    else:
        result = graph.to_pdag()
    result.add_nodes_from(graph.nodes())
    return result
