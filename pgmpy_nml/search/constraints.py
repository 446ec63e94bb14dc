"""Structural constraints of every search: a parent limit and pgmpy's ``ExpertKnowledge``.

One validation for all searches (the exact dynamic programming, the solver over
candidate parent sets, the local search, the command line): what is required,
what is forbidden (forbidden edges, a search space, temporal tiers), and the
largest parent set, checked together once, with messages that name the edge.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import networkx as nx
import numpy as np

from .._validate import as_integer

if TYPE_CHECKING:
    from collections.abc import Iterable

    from pgmpy.causal_discovery import ExpertKnowledge

    from .._typing import ExpertKnowledgeLike, Graph

__all__ = ["Conflict", "Constraints", "as_expert_knowledge", "check_start_dag"]


def as_expert_knowledge(expert_knowledge: ExpertKnowledgeLike | None) -> ExpertKnowledge | None:
    """``None``, a pgmpy ``ExpertKnowledge`` or a dict of its arguments -> ExpertKnowledge or None.

    A dict takes ``ExpertKnowledge``'s keyword arguments (``forbidden_edges``,
    ``required_edges``, ``temporal_order``, ``search_space``). Anything else is a
    ``TypeError``: a constraint is never ignored.
    """
    if expert_knowledge is None:
        return None
    from pgmpy.causal_discovery import ExpertKnowledge

    if isinstance(expert_knowledge, ExpertKnowledge):
        return expert_knowledge
    if isinstance(expert_knowledge, Mapping):
        allowed = {"forbidden_edges", "required_edges", "temporal_order", "search_space"}
        unknown = sorted(set(expert_knowledge) - allowed)
        if unknown:
            raise ValueError(
                f"expert_knowledge has unknown key(s) {unknown}; ExpertKnowledge takes "
                f"{sorted(allowed)}."
            )
        return ExpertKnowledge(**expert_knowledge)
    raise TypeError(
        "expert_knowledge must be a pgmpy.causal_discovery.ExpertKnowledge or a dict of its "
        f"arguments (forbidden_edges, required_edges, temporal_order, search_space), got "
        f"{type(expert_knowledge).__name__}."
    )


@dataclass(frozen=True)
class Conflict:
    """Why no DAG satisfies a set of constraints (:meth:`Constraints.conflict`).

    Attributes
    ----------
    kind : {"both", "limit", "cycle"}
        An edge both required and forbidden; a variable with more required parents
        than the limit; required edges that form a cycle.
    edges : tuple of (parent, child)
        ``"both"``: the edge; ``"limit"``: the required edges into the variable;
        ``"cycle"``: the cycle's edges in order.
    max_parents : int
        The parent limit that applied.
    """

    kind: str
    edges: tuple
    max_parents: int

    def message(self) -> str:
        """The library's words for it (the command line has its own, naming its flags)."""
        (u, v), *_ = self.edges
        if self.kind == "both":
            return (
                f"The edge {u!r} -> {v!r} is both required and forbidden (by the forbidden "
                "edges, the search space or the temporal order)."
            )
        if self.kind == "limit":
            return (
                f"No DAG satisfies the constraints: {v!r} has {len(self.edges)} required "
                f"parents, more than max_parents = {self.max_parents}."
            )
        path = " -> ".join(repr(a) for a, _ in self.edges)
        return (
            f"No DAG satisfies the constraints: the required edges form a cycle ({path} -> {u!r})."
        )


@dataclass(frozen=True)
class Constraints:
    """Per-variable required and forbidden parents, and the parent limit.

    Build it with :meth:`from_knowledge`. Variables are positions in ``variables``.

    Attributes
    ----------
    variables : tuple
    max_parents : int
        Largest parent set (``n - 1`` when unlimited).
    required : tuple of frozenset
        ``required[v]``: the parents ``v`` must have.
    forbidden : tuple of frozenset
        ``forbidden[v]``: the variables that may not be parents of ``v``.
    """

    variables: tuple
    max_parents: int
    required: tuple
    forbidden: tuple

    @classmethod
    def from_knowledge(
        cls,
        variables: Sequence[Hashable],
        max_parents: int | None = None,
        expert_knowledge: ExpertKnowledgeLike | None = None,
    ) -> Constraints:
        """Validate a parent limit and expert knowledge against ``variables``.

        Raises
        ------
        ValueError
            For an unknown variable, a negative limit, an edge both required and
            forbidden, required edges that form a cycle, or a variable with more
            required parents than the limit (:meth:`conflict` says which).
        TypeError
            For a limit that is not an integer or knowledge of the wrong type.
        """
        constraints = cls.unchecked(variables, max_parents, expert_knowledge)
        conflict = constraints.conflict()
        if conflict is not None:
            raise ValueError(conflict.message())
        return constraints

    @classmethod
    def unchecked(
        cls,
        variables: Sequence[Hashable],
        max_parents: int | None = None,
        expert_knowledge: ExpertKnowledgeLike | None = None,
    ) -> Constraints:
        """The constraints as given, without the check that some DAG satisfies them:
        for a front end that words :meth:`conflict` in its own terms (the command line
        names its flags). The variables, the limit and the knowledge's type are checked."""
        variables = tuple(variables)
        n = len(variables)
        if max_parents is None:
            limit = max(n - 1, 0)
        else:
            limit = min(as_integer(max_parents, "max_parents"), max(n - 1, 0))
        index = {v: i for i, v in enumerate(variables)}
        required: list[set[int]] = [set() for _ in range(n)]
        forbidden: list[set[int]] = [set() for _ in range(n)]
        ek = as_expert_knowledge(expert_knowledge)
        if ek is not None:

            def position(u, what):
                if u not in index:
                    raise ValueError(f"{what} names {u!r}, which is not a variable of the data.")
                return index[u]

            for u, v in ek.forbidden_edges:
                forbidden[position(v, "A forbidden edge")].add(position(u, "A forbidden edge"))
            for u, v in ek.required_edges:
                required[position(v, "A required edge")].add(position(u, "A required edge"))
            if ek.search_space:
                allowed: list[set[int]] = [set() for _ in range(n)]
                for u, v in ek.search_space:
                    allowed[position(v, "The search space")].add(position(u, "The search space"))
                for v in range(n):
                    forbidden[v] |= set(range(n)) - allowed[v] - {v}
            tiers = ek.temporal_ordering or {}
            for u, tu in tiers.items():
                for w, tw in tiers.items():
                    if tu > tw:
                        forbidden[position(w, "The temporal order")].add(
                            position(u, "The temporal order")
                        )
        return cls(
            variables,
            limit,
            tuple(frozenset(s) for s in required),
            tuple(frozenset(s) for s in forbidden),
        )

    def conflict(self) -> Conflict | None:
        """Why no DAG satisfies the constraints, or None: the first of, variable by
        variable, an edge both required and forbidden or more required parents than the
        limit, then a cycle of required edges (from the earliest variable on it)."""
        variables, n = self.variables, len(self.variables)
        for v in range(n):
            clash = self.required[v] & self.forbidden[v]
            if clash:
                return Conflict("both", ((variables[min(clash)], variables[v]),), self.max_parents)
            if len(self.required[v]) > self.max_parents:
                edges = tuple((variables[u], variables[v]) for u in sorted(self.required[v]))
                return Conflict("limit", edges, self.max_parents)
        graph = nx.DiGraph()
        graph.add_nodes_from(range(n))  # the search starts from the first variable
        graph.add_edges_from((u, v) for v in range(n) for u in sorted(self.required[v]))
        try:
            cycle = nx.find_cycle(graph)
        except nx.NetworkXNoCycle:
            return None
        return Conflict("cycle", tuple((variables[u], variables[v]) for u, v in cycle), -1)

    @property
    def is_empty(self) -> bool:
        """No required or forbidden edge and no parent limit below ``n - 1``."""
        n = len(self.variables)
        return self.max_parents >= n - 1 and not any(self.required) and not any(self.forbidden)

    def allows(self, v: int, parents: Iterable[int]) -> bool:
        """Whether ``parents`` (positions) is an admissible parent set of ``v``."""
        parents = set(parents)
        return (
            len(parents) <= self.max_parents
            and self.required[v] <= parents
            and not (parents & self.forbidden[v])
            and v not in parents
        )

    def masks(self) -> tuple[np.ndarray, np.ndarray]:
        """Bitmasks ``(forbidden, required)`` per variable (int64; at most 63 variables)."""
        n = len(self.variables)
        if n > 63:
            raise ValueError("Bitmask constraints hold at most 63 variables.")
        forbidden = np.array([sum(1 << u for u in s) for s in self.forbidden], dtype=np.int64)
        required = np.array([sum(1 << u for u in s) for s in self.required], dtype=np.int64)
        return forbidden.reshape(n), required.reshape(n)

    def violations(self, dag: Graph) -> list[str]:
        """The constraints ``dag`` (over the variable names) breaks, one line each."""
        index = {v: i for i, v in enumerate(self.variables)}
        found = []
        for name in self.variables:
            v = index[name]
            parents = {index[u] for u in dag.predecessors(name)}
            for u in sorted(self.required[v] - parents):
                found.append(f"required edge {self.variables[u]!r} -> {name!r} is missing")
            for u in sorted(parents & self.forbidden[v]):
                found.append(f"forbidden edge {self.variables[u]!r} -> {name!r} is present")
            if len(parents) > self.max_parents:
                found.append(f"{name!r} has {len(parents)} parents, more than {self.max_parents}")
        return found


def check_start_dag(dag: Graph | Iterable | Mapping, constraints: Constraints) -> nx.DiGraph:
    """A search's first network, validated once for every search: the DAG with the
    required edges added.

    Parameters
    ----------
    dag : pgmpy DAG, networkx DiGraph, dict or sequence of edges
        A graph whose nodes are exactly the data's variables, ``{child: parents}``, or
        a list of ``(parent, child)`` edges over the data's variables (the others
        start without parents).
    constraints : Constraints

    Returns
    -------
    networkx.DiGraph
        Every variable as a node, the given edges and the required ones.

    Raises
    ------
    TypeError
        For anything else (a string, a number, edges that are not pairs).
    ValueError
        For unknown or missing variables, a directed cycle, or an edge the constraints
        forbid, a parent set above the limit; the message names the edge.

    Examples
    --------
    >>> from pgmpy_nml.search.constraints import Constraints, check_start_dag
    >>> c = Constraints.from_knowledge(["A", "B", "C"], None, None)
    >>> sorted(check_start_dag([("A", "B")], c).edges())
    [('A', 'B')]
    >>> check_start_dag([("A", "B"), ("B", "A")], c)
    Traceback (most recent call last):
    ...
    ValueError: start_dag has a directed cycle (with the required edges added): A -> B -> A.
    """
    variables = list(constraints.variables)
    known = set(variables)
    graph = nx.DiGraph()
    graph.add_nodes_from(variables)
    if isinstance(dag, nx.Graph):
        if not isinstance(dag, nx.DiGraph):
            raise TypeError("start_dag must be directed (a pgmpy DAG or a networkx DiGraph).")
        nodes = set(dag.nodes())
        if nodes != known:
            raise ValueError(
                "start_dag must have exactly the variables of the data as nodes; "
                f"missing {sorted(known - nodes, key=str)!r}, "
                f"unknown {sorted(nodes - known, key=str)!r}."
            )
        edges = list(dag.edges())
    elif isinstance(dag, Mapping):
        edges = []
        for child, parents in dag.items():
            if isinstance(parents, (str, bytes)) or not hasattr(parents, "__iter__"):
                raise TypeError(
                    f"start_dag as a dict maps each variable to a collection of parents; "
                    f"{child!r} maps to {parents!r}."
                )
            edges.extend((u, child) for u in parents)
    elif isinstance(dag, (str, bytes)) or not hasattr(dag, "__iter__"):
        raise TypeError(
            "start_dag must be a pgmpy DAG, a networkx DiGraph, a dict {child: parents} or a "
            f"list of (parent, child) edges, got {type(dag).__name__}."
        )
    else:
        edges = list(dag)
        for edge in edges:
            if isinstance(edge, (str, bytes)) or not hasattr(edge, "__len__") or len(edge) != 2:
                raise TypeError(f"start_dag as a list holds (parent, child) pairs, got {edge!r}.")
    unknown = sorted({x for edge in edges for x in edge} - known, key=str)
    if unknown:
        raise ValueError(f"start_dag names variables the data does not have: {unknown!r}.")
    for u, v in edges:
        if u == v:
            raise ValueError(f"start_dag has a self-loop on {u!r}.")
    graph.add_edges_from(edges)
    graph.add_edges_from(
        (variables[u], variables[v]) for v in range(len(variables)) for u in constraints.required[v]
    )
    try:
        cycle = nx.find_cycle(graph)
    except nx.NetworkXNoCycle:
        cycle = None
    if cycle:
        path = " -> ".join(str(u) for u, _ in cycle) + f" -> {cycle[0][0]}"
        raise ValueError(f"start_dag has a directed cycle (with the required edges added): {path}.")
    problems = constraints.violations(graph)
    if problems:
        raise ValueError(
            "start_dag (with the required edges added) breaks the constraints: "
            + "; ".join(problems)
            + "."
        )
    return graph
