r"""Distances between a learned structure and a reference one, as the seeds' experiments use.

- :func:`structural_hamming_distance`: arcs to add, remove or reverse (pgmpy's
  ``pgmpy.metrics.SHD``);
- :func:`moral_hamming_distance`: pairs of nodes on which the two moral graphs
  disagree (seed 004's edge-discovery measure, Scanagatta et al. 2014);
- :func:`edge_precision_recall`: the fraction of learned arcs that are true, and
  of true arcs that are learned, with or without direction;
- :func:`compare_structures`: all of them in one dict.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pgmpy.base import PDAG

    from .._typing import Graph

__all__ = [
    "compare_structures",
    "edge_precision_recall",
    "moral_hamming_distance",
    "structural_hamming_distance",
]


def _nodes(true_dag, learned_dag):
    nodes = set(true_dag.nodes())
    if nodes != set(learned_dag.nodes()):
        extra = sorted(map(str, set(learned_dag.nodes()) ^ nodes))
        raise ValueError(
            "The two networks must have the same nodes (isolated ones included); they differ "
            f"on {extra}. Add the missing nodes with add_nodes_from()."
        )
    return nodes


def _graphs(true_dag, learned_dag):
    """Both networks as pgmpy graphs on the same nodes; ``classes``: either is a PDAG.

    An edge list names no isolated node, so it gets the other network's nodes. When
    either network is a PDAG, both become CPDAGs (:func:`~pgmpy_nml.study.cpdag`),
    so that equivalence classes are compared with equivalence classes.
    """
    from ._graphs import as_graph, consistent_extension, is_pdag
    from .scoring import cpdag

    true, learned = as_graph(true_dag, "true_dag"), as_graph(learned_dag, "learned_dag")
    if not hasattr(true_dag, "edges"):
        true.add_nodes_from(learned.nodes())
    if not hasattr(learned_dag, "edges"):
        learned.add_nodes_from(true.nodes())
    _nodes(true, learned)
    classes = is_pdag(true) or is_pdag(learned)
    if classes:
        true, learned = (
            cpdag(consistent_extension(g, name) if is_pdag(g) else g)
            for g, name in ((true, "true_dag"), (learned, "learned_dag"))
        )
    return true, learned, classes


def _marks(graph) -> dict[frozenset, tuple | None]:
    """Each adjacent pair -> its arc ``(u, v)``, or None for an undirected edge."""
    from ._graphs import is_pdag

    if not is_pdag(graph):
        return {frozenset(e): tuple(e) for e in graph.edges()}
    marks: dict[frozenset, tuple | None] = {frozenset(e): tuple(e) for e in graph.directed_edges}
    marks.update({frozenset(e): None for e in graph.undirected_edges})
    return marks


_ABSENT = "absent"


def structural_hamming_distance(
    true_dag: Graph, learned_dag: Graph | PDAG, reversal_penalty: float = 1
) -> int:
    """Arcs to add, delete or reverse to turn ``learned_dag`` into ``true_dag`` (SHD).

    Over every pair of nodes: 0 if the two networks agree on it, 1 for an arc in
    one only, ``reversal_penalty`` (1, or 2 as one deletion plus one addition) for
    an arc reversed; between two DAGs this is pgmpy's ``pgmpy.metrics.SHD``. When
    either network is a PDAG, both are compared as equivalence classes (their
    CPDAGs, :func:`~pgmpy_nml.study.cpdag`), as bnlearn's ``shd`` does: an
    undirected edge is one edge, and an edge undirected in one and directed in
    the other costs 1.

    Parameters
    ----------
    true_dag, learned_dag : pgmpy DAG, PDAG, DiscreteBayesianNetwork, nx DiGraph or edge list
        On the same nodes (an edge list takes the other network's nodes).
    reversal_penalty : {1, 2}, default 1

    Returns
    -------
    int

    Examples
    --------
    >>> from pgmpy.base import DAG
    >>> from pgmpy_nml.study import cpdag, structural_hamming_distance
    >>> learned = DAG([("B", "A")])
    >>> learned.add_node("C")
    >>> structural_hamming_distance(DAG([("A", "B"), ("B", "C")]), learned)
    2
    >>> chain = DAG([("A", "B"), ("B", "C")])
    >>> structural_hamming_distance(chain, cpdag(DAG([("C", "B"), ("B", "A")])))  # same class
    0
    """
    from .._validate import as_choice

    as_choice(reversal_penalty, "reversal_penalty", (1, 2))
    true, learned, _ = _graphs(true_dag, learned_dag)
    a, b = _marks(true), _marks(learned)
    distance = 0
    for pair in a.keys() | b.keys():
        x, y = a.get(pair, _ABSENT), b.get(pair, _ABSENT)
        if x == y:
            continue
        if x is _ABSENT or y is _ABSENT or x is None or y is None:
            distance += 1  # an extra or missing edge, or directed against undirected
        else:
            distance += int(reversal_penalty)
    return distance


def _moral_edges(dag) -> set:
    edges = {frozenset(e) for e in dag.edges()}
    for v in dag.nodes():
        parents = list(dag.predecessors(v))
        for i, a in enumerate(parents):
            for b in parents[i + 1 :]:
                edges.add(frozenset((a, b)))
    return edges


def moral_hamming_distance(true_dag: Graph, learned_dag: Graph) -> int:
    r"""Pairs of nodes adjacent in one moral graph but not in the other.

    The moral graph links every parent to its child and every two parents of a
    common child, without directions; the distance counts the symmetric
    difference of the two edge sets,
    :math:`|E_m(\mathcal G) \,\triangle\, E_m(\mathcal G')|`, the dissimilarity of
    Fig. 3 of Scanagatta, de Campos and Zaffalon (PGM 2014). Markov-equivalent
    DAGs have equal moral graphs, so the distance ignores directions that the
    data cannot tell apart.

    Parameters
    ----------
    true_dag, learned_dag : pgmpy DAG, PDAG, DiscreteBayesianNetwork, nx DiGraph or edge list
        On the same nodes. A PDAG's moral graph is that of any DAG of its class.

    Returns
    -------
    int

    Examples
    --------
    >>> from pgmpy.base import DAG
    >>> from pgmpy_nml.study import moral_hamming_distance
    >>> collider = DAG([("A", "C"), ("B", "C")])
    >>> chain = DAG([("A", "C"), ("C", "B")])
    >>> moral_hamming_distance(collider, chain)  # the collider marries A and B
    1
    """
    from ._graphs import consistent_extension, is_pdag

    true, learned, _ = _graphs(true_dag, learned_dag)
    true, learned = (consistent_extension(g) if is_pdag(g) else g for g in (true, learned))
    return len(_moral_edges(true) ^ _moral_edges(learned))


def edge_precision_recall(
    true_dag: Graph, learned_dag: Graph | PDAG, directed: bool = True
) -> dict:
    r"""Precision, recall and F1 of the learned arcs against the true ones.

    .. math::

        \mathrm{precision} = \frac{|E \cap E^*|}{|E|}, \qquad
        \mathrm{recall} = \frac{|E \cap E^*|}{|E^*|}, \qquad
        F_1 = \frac{2 \cdot \mathrm{precision} \cdot \mathrm{recall}}
                   {\mathrm{precision} + \mathrm{recall}},

    with :math:`E` the learned and :math:`E^*` the true arcs, directed or (with
    ``directed=False``) as unordered pairs (the skeletons). A ratio with an empty
    denominator is NaN. When either network is a PDAG, both are compared as
    equivalence classes (CPDAGs): an undirected edge is one element of :math:`E`,
    and it matches only the same undirected edge.

    Parameters
    ----------
    true_dag, learned_dag : pgmpy DAG, PDAG, DiscreteBayesianNetwork, nx DiGraph or edge list
    directed : bool, default True

    Returns
    -------
    dict
        ``precision``, ``recall``, ``f1``, ``true_positives``, ``n_learned``, ``n_true``.

    Examples
    --------
    >>> from pgmpy.base import DAG
    >>> from pgmpy_nml.study import edge_precision_recall
    >>> truth = DAG([("A", "B"), ("B", "C")])
    >>> learned = DAG([("A", "B"), ("C", "B"), ("A", "C")])
    >>> r = edge_precision_recall(truth, learned)
    >>> round(r["precision"], 4), r["recall"]
    (0.3333, 0.5)
    >>> edge_precision_recall(truth, learned, directed=False)["recall"]
    1.0
    """

    from .._validate import as_bool

    directed = as_bool(directed, "directed")
    true, learned, _ = _graphs(true_dag, learned_dag)

    def arcs(graph):  # an arc as (u, v), an undirected edge (and a skeleton pair) as a set
        marks = _marks(graph)
        return {m if directed and m is not None else p for p, m in marks.items()}

    true_arcs, learned_arcs = arcs(true), arcs(learned)
    hits = len(true_arcs & learned_arcs)
    precision = hits / len(learned_arcs) if learned_arcs else math.nan
    recall = hits / len(true_arcs) if true_arcs else math.nan
    if math.isnan(precision) or math.isnan(recall) or precision + recall == 0:
        f1 = math.nan if (math.isnan(precision) or math.isnan(recall)) else 0.0
    else:
        f1 = 2 * precision * recall / (precision + recall)
    return {
        "precision": precision,
        "recall": recall,
        "f1": f1,
        "true_positives": hits,
        "n_learned": len(learned_arcs),
        "n_true": len(true_arcs),
    }


def compare_structures(true_dag: Graph, learned_dag: Graph | PDAG) -> dict:
    """SHD, moral Hamming distance and arc/skeleton precision and recall, in one dict.

    Parameters
    ----------
    true_dag, learned_dag : pgmpy DAG, PDAG, DiscreteBayesianNetwork, nx DiGraph or edge list
        On the same nodes (an edge list takes the other network's nodes). With a
        PDAG, equivalence classes are compared (see :func:`structural_hamming_distance`).

    Returns
    -------
    dict
        ``shd`` (:func:`structural_hamming_distance`), ``moral_hamming``
        (:func:`moral_hamming_distance`), ``precision``, ``recall``, ``f1`` (arcs),
        ``skeleton_precision``, ``skeleton_recall`` (:func:`edge_precision_recall`),
        ``n_edges`` and ``n_true_edges``.

    Examples
    --------
    >>> from pgmpy.base import DAG
    >>> from pgmpy_nml.study import compare_structures
    >>> r = compare_structures(DAG([("A", "B")]), DAG([("B", "A")]))
    >>> r["shd"], r["moral_hamming"], r["precision"], r["skeleton_recall"]
    (1, 0, 0.0, 1.0)
    """
    true_dag, learned_dag, _ = _graphs(true_dag, learned_dag)  # checked once, for all four
    directed = edge_precision_recall(true_dag, learned_dag, directed=True)
    skeleton = edge_precision_recall(true_dag, learned_dag, directed=False)
    return {
        "shd": structural_hamming_distance(true_dag, learned_dag),
        "moral_hamming": moral_hamming_distance(true_dag, learned_dag),
        "precision": directed["precision"],
        "recall": directed["recall"],
        "f1": directed["f1"],
        "skeleton_precision": skeleton["precision"],
        "skeleton_recall": skeleton["recall"],
        "n_edges": directed["n_learned"],
        "n_true_edges": directed["n_true"],
    }
