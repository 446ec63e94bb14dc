"""Graphs from the flags: edges (``--edges``, ``--require``, ``--forbid``), temporal tiers,
the constraints they make (the library's :class:`~pgmpy_nml.search.constraints.Constraints`,
worded with the flags) and a given structure."""

from __future__ import annotations

from dataclasses import dataclass, field

from ._errors import UserError


def parse_edges(specs, variables, flag: str) -> list[tuple[str, str]]:
    """``["A->B,B->C", ...]`` -> ``[("A", "B"), ("B", "C"), ...]``, checked against the
    data's ``variables``."""
    edges = []
    for spec in specs or []:
        for item in spec.split(","):
            item = item.strip()
            if not item:
                continue
            if "->" not in item:
                raise UserError(f"{flag} {item!r} is not of the form PARENT->CHILD")
            u, v = (x.strip() for x in item.split("->", 1))
            for node in (u, v):
                if node not in variables:
                    raise UserError(f"{flag} {item!r} names {node!r}, which is not a data column")
            if u == v:
                raise UserError(f"{flag} {item!r}: a variable cannot be its own parent")
            edges.append((u, v))
    return edges


def parse_tiers(spec: str | None, variables) -> list[list[str]]:
    """``"A,S;E;O,R,T"`` -> ``[["A", "S"], ["E"], ["O", "R", "T"]]``."""
    if spec is None:
        return []
    tiers = [[v.strip() for v in tier.split(",") if v.strip()] for tier in spec.split(";")]
    tiers = [tier for tier in tiers if tier]
    seen: dict[str, int] = {}
    for rank, tier in enumerate(tiers):
        for v in tier:
            if v not in variables:
                raise UserError(f"--tiers names {v!r}, which is not a data column")
            if v in seen:
                raise UserError(f"--tiers puts {v!r} in tiers {seen[v] + 1} and {rank + 1}")
            seen[v] = rank
    if len(tiers) < 2:
        raise UserError("--tiers needs at least two tiers separated by ';', e.g. \"A,S;E;O,R,T\"")
    return tiers


def cycle_text(edges) -> str | None:
    """``A->B->C->A`` for a cycle among ``edges`` (None if they form none)."""
    import networkx as nx

    try:
        cycle = nx.find_cycle(nx.DiGraph(list(edges)))
    except nx.NetworkXNoCycle:
        return None
    return "->".join([cycle[0][0], *(v for _, v in cycle)])


@dataclass(frozen=True)
class Knowledge:
    """The constraints of ``--require``, ``--forbid`` and ``--tiers`` on the data's
    variables, parsed."""

    variables: list
    required: list[tuple[str, str]] = field(default_factory=list)
    forbidden: list[tuple[str, str]] = field(default_factory=list)
    tiers: list[list[str]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.required or self.forbidden or self.tiers)

    def expert_knowledge(self):
        """pgmpy's ``ExpertKnowledge`` of these constraints (None without any)."""
        from pgmpy.causal_discovery import ExpertKnowledge

        if not self:
            return None
        return ExpertKnowledge(
            required_edges=list(self.required),
            forbidden_edges=list(self.forbidden),
            temporal_order=[list(t) for t in self.tiers] or None,
        )

    def check(self, max_parents) -> None:
        """Refuse contradictory constraints up front, whatever the search: the library's
        check (``Constraints.conflict``), worded with the flags."""
        if not self.required:  # nothing required: some network (the empty one) fits
            return
        from ..search.constraints import Constraints

        conflict = Constraints.unchecked(
            self.variables, max_parents, self.expert_knowledge()
        ).conflict()
        if conflict is None:
            return
        if conflict.kind == "cycle":
            path = "->".join([conflict.edges[0][0], *(v for _, v in conflict.edges)])
            raise UserError(
                f"the required edges form a cycle ({path}): no network can have them all"
            )
        if conflict.kind == "limit":
            v = conflict.edges[0][1]
            raise UserError(
                f"--require gives {v!r} {len(conflict.edges)} parents, more than "
                f"--max-parents {max_parents}"
            )
        ((u, v),) = conflict.edges
        if (u, v) in self.forbidden:
            raise UserError(
                f"the edge {u}->{v} is both required (--require) and forbidden (--forbid)"
            )
        rank = {w: r for r, tier in enumerate(self.tiers) for w in tier}
        raise UserError(
            f"--require {u}->{v} goes against --tiers: {u!r} is in tier {rank[u] + 1}, "
            f"after {v!r} in tier {rank[v] + 1}"
        )

    def broken(self, dag, max_parents) -> str:
        """The constraints a learned DAG breaks, as text (empty if none): the library's
        ``Constraints.violations``."""
        from ..search.constraints import Constraints

        checker = Constraints.unchecked(self.variables, max_parents, self.expert_knowledge())
        return "; ".join(checker.violations(dag))


def knowledge(variables, require=(), forbid=(), tiers: str | None = None) -> Knowledge:
    """The constraints of the flags, parsed and checked against the ``variables``."""
    return Knowledge(
        list(variables),
        parse_edges(require, variables, "--require"),
        parse_edges(forbid, variables, "--forbid"),
        parse_tiers(tiers, variables),
    )


def given_structure(edges, variables, model=None):
    """The DAG of a network file (``model``) or of ``--edges``; edges that form a cycle are
    refused, naming it."""
    from pgmpy.base import DAG

    if model is not None:
        dag = DAG(model.edges())
        dag.add_nodes_from(model.nodes())
        return dag
    parsed = parse_edges(edges, variables, "--edges")
    cycle = cycle_text(parsed)
    if cycle is not None:
        raise UserError(
            f"--edges form a cycle ({cycle}): a Bayesian network is acyclic; drop or reverse "
            "one of its edges"
        )
    dag = DAG(parsed)
    dag.add_nodes_from(variables)
    return dag
