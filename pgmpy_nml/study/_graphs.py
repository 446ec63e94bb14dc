"""What the structure tools accept as a network, and equivalence classes of PDAGs.

The metrics and :func:`~pgmpy_nml.study.cpdag` take a pgmpy ``DAG``, ``PDAG`` or
``DiscreteBayesianNetwork``, a networkx ``DiGraph``, or a list of ``(parent, child)``
edges; :func:`as_graph` turns each into a pgmpy ``DAG`` or ``PDAG`` and refuses
anything else with a ``TypeError``. A PDAG stands for the Markov equivalence class
of its consistent extensions (Dor and Tarsi 1992): :func:`consistent_extension`
finds one or says that there is none.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

    from pgmpy.base import DAG, PDAG

__all__ = ["as_graph", "consistent_extension", "is_pdag"]


def is_pdag(graph: Any) -> bool:
    """Whether ``graph`` is a partially directed graph (pgmpy's ``PDAG``)."""
    return hasattr(graph, "undirected_edges") and hasattr(graph, "directed_edges")


def as_graph(graph: Any, name: str) -> DAG | PDAG:
    """``graph`` as a pgmpy ``DAG`` (or the ``PDAG`` itself); refuses other objects.

    Parameters
    ----------
    graph : pgmpy DAG, PDAG or DiscreteBayesianNetwork, networkx DiGraph, or list of edges
        A list (or other iterable) of ``(parent, child)`` pairs gives the DAG of those
        edges, with only the nodes they name.
    name : str
        The argument's name, for the messages.

    Returns
    -------
    pgmpy.base.DAG or pgmpy.base.PDAG

    Examples
    --------
    >>> from pgmpy_nml.study._graphs import as_graph
    >>> sorted(as_graph([("A", "B"), ("B", "C")], "dag").edges())
    [('A', 'B'), ('B', 'C')]
    """
    from pgmpy.base import DAG

    if is_pdag(graph):
        return graph
    if hasattr(graph, "edges") and hasattr(graph, "nodes"):
        if not getattr(graph, "is_directed", lambda: True)():
            raise TypeError(
                f"{name} is an undirected graph; give a DAG, or a pgmpy PDAG for an "
                "equivalence class (undirected edges as PDAG(undirected_ebunch=...))."
            )
        edges, nodes = list(graph.edges()), list(graph.nodes())
    elif isinstance(graph, Iterable) and not isinstance(graph, (str, bytes, dict)):
        edges = list(graph)
        if not all(isinstance(e, (tuple, list)) and len(e) == 2 for e in edges):
            raise TypeError(
                f"{name} must be a DAG, a PDAG or a list of (parent, child) edges; the list "
                "holds something that is not a pair."
            )
        edges = [tuple(e) for e in edges]
        nodes = [v for e in edges for v in e]
    else:
        raise TypeError(
            f"{name} must be a pgmpy DAG, PDAG or DiscreteBayesianNetwork, a networkx "
            f"DiGraph or a list of (parent, child) edges, got {type(graph).__name__}."
        )
    try:
        dag = DAG(edges)
    except ValueError as err:
        raise ValueError(f"{name} is not acyclic: {' '.join(str(err).split())}") from None
    dag.add_nodes_from(nodes)
    return dag


def _parents(directed_edges) -> dict:
    """Child -> set of parents."""
    parents: dict = {}
    for u, v in directed_edges:
        parents.setdefault(v, set()).add(u)
    return parents


def consistent_extension(pdag: PDAG, name: str = "the PDAG") -> DAG:
    """A DAG of the equivalence class a PDAG stands for; ``ValueError`` if there is none.

    A consistent extension (Dor and Tarsi 1992) orients every undirected edge so
    that the result is acyclic, keeps every directed edge, and has exactly the
    v-structures of the PDAG. pgmpy's ``PDAG.to_dag()`` proposes the orientation;
    the three conditions are then checked here, since it returns a graph even
    when no extension exists.

    Examples
    --------
    >>> from pgmpy.base import PDAG
    >>> from pgmpy_nml.study._graphs import consistent_extension
    >>> chain = PDAG(directed_ebunch=[], undirected_ebunch=[("A", "B"), ("B", "C")])
    >>> len(consistent_extension(chain).edges())
    2
    """
    import networkx as nx
    from pgmpy.base import DAG

    directed = {tuple(e) for e in pdag.directed_edges}
    undirected = {frozenset(e) for e in pdag.undirected_edges}
    skeleton = {frozenset(e) for e in directed} | undirected
    if directed or undirected:
        proposal = pdag.to_dag()
        edges = set(proposal.edges())
    else:
        edges = set()
    adjacent = skeleton.__contains__

    def colliders(arcs):  # unshielded colliders a -> child <- b
        found = set()
        for child, pa in _parents(arcs).items():
            pa = sorted(pa, key=str)
            for i, a in enumerate(pa):
                for b in pa[i + 1 :]:
                    if not adjacent(frozenset((a, b))):
                        found.add((frozenset((a, b)), child))
        return found

    graph = nx.DiGraph(list(edges))
    ok = (
        nx.is_directed_acyclic_graph(graph)
        and {frozenset(e) for e in edges} == skeleton
        and len(edges) == len(skeleton)
        and directed <= edges
        and colliders(edges) == colliders(directed)
    )
    if not ok:
        raise ValueError(
            f"{name} stands for no Markov equivalence class: its undirected edges cannot be "
            "oriented without a directed cycle or a new v-structure (it has no consistent "
            "extension). Give a CPDAG, e.g. pgmpy_nml.study.cpdag(dag)."
        )
    dag = DAG(sorted(edges, key=str))
    dag.add_nodes_from(pdag.nodes())
    return dag
