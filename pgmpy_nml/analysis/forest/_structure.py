"""What the exact forest normalizer accepts: a forest, the arities of its nodes."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass

from ..._data import _declared_states, _listing
from ..._validate import as_integer


@dataclass(frozen=True)
class _Forest:
    nodes: tuple  # in bottom-up order (every node after all of its children)
    parent: dict  # node -> parent or None
    children: dict  # node -> tuple of children
    arity: dict  # node -> int


def _structure(model) -> tuple[tuple, dict, dict]:
    """Nodes (bottom-up), parent map and children map of a forest; clear errors otherwise."""
    if not (hasattr(model, "nodes") and hasattr(model, "predecessors")):
        raise TypeError(
            "model must be a pgmpy DAG or DiscreteBayesianNetwork (or a networkx DiGraph), "
            f"got {type(model).__name__}."
        )
    nodes = list(model.nodes())
    if not nodes:
        raise ValueError("The model has no nodes: give a forest over at least one variable.")
    parent = {}
    for v in nodes:
        pa = list(model.predecessors(v))
        if len(pa) > 1:
            raise ValueError(
                f"The model is not a forest: node {v!r} has {len(pa)} parents "
                f"({_listing(pa)}), and a Bayesian forest allows at most one parent per "
                "node. Remove edges so that every node has at most one parent, or score "
                "general DAGs with pgmpy_nml.QNML / pgmpy_nml.FNML."
            )
        if pa and pa[0] == v:
            raise ValueError(f"Node {v!r} is its own parent (a self-loop); remove that edge.")
        parent[v] = pa[0] if pa else None
    # a graph with at most one parent per node is a forest iff it has no cycle
    state = dict.fromkeys(nodes, 0)  # 0 new, 1 on the current path, 2 done
    for v in nodes:
        path = []
        u = v
        while u is not None and state[u] == 0:
            state[u] = 1
            path.append(u)
            u = parent[u]
        if u is not None and state[u] == 1:
            cycle = path[path.index(u) :]
            shown = " <- ".join(repr(x) for x in [*cycle, u])
            raise ValueError(
                f"The model has a directed cycle ({shown}); a Bayesian forest is acyclic."
            )
        for x in path:
            state[x] = 2
    children: dict[Hashable, list[Hashable]] = {v: [] for v in nodes}
    for v in nodes:
        if parent[v] is not None:
            children[parent[v]].append(v)
    order = []  # iterative post-order from the roots
    for root in (v for v in nodes if parent[v] is None):
        stack = [(root, False)]
        while stack:
            v, expanded = stack.pop()
            if expanded:
                order.append(v)
                continue
            stack.append((v, True))
            stack.extend((c, False) for c in reversed(children[v]))
    return tuple(order), parent, {v: tuple(c) for v, c in children.items()}


def _arities(nodes, arities, state_names) -> dict:
    if arities is not None and state_names is not None:
        raise ValueError("Give either arities or state_names, not both.")
    if arities is None and state_names is None:
        raise ValueError(
            "The arities of the variables are needed: pass arities={variable: number of "
            "states} or state_names={variable: [states]} covering every node of the model."
        )
    source, name = (arities, "arities") if arities is not None else (state_names, "state_names")
    if not isinstance(source, Mapping):
        raise TypeError(f"{name} must be a dict keyed by variable, got {type(source).__name__}.")
    missing = [v for v in nodes if v not in source]
    if missing:
        raise ValueError(
            f"{name} has no entry for node(s) {_listing(missing)} of the model; "
            f"it covers {_listing(source)}."
        )
    if arities is not None:
        return {
            v: as_integer(arities[v], f"arities[{v!r}]", minimum=1, what=" (number of states)")
            for v in nodes
        }
    return {v: len(_declared_states(v, state_names[v])) for v in nodes}


def _forest(model, arities=None, state_names=None) -> _Forest:
    nodes, parent, children = _structure(model)
    return _Forest(nodes, parent, children, _arities(nodes, arities, state_names))


def _is_inner(forest: _Forest, v) -> bool:
    return bool(forest.children[v])


def _model_nodes_in(model, encoded) -> None:
    _structure(model)  # structural errors first
    unknown = [v for v in model.nodes() if v not in encoded.index]
    if unknown:
        raise ValueError(
            f"The model has node(s) {_listing(unknown)} that are not columns of the data "
            f"({_listing(encoded.variables)})."
        )
