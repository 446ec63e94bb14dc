"""The candidates as flat arrays, and what the engines over them share.

:class:`_Families` holds one row per candidate family (a variable and one of its
candidate parent sets); the solver (:mod:`._solver`), A* (:mod:`._astar`) and the
primal heuristics (:mod:`._heuristics`) work on it. Here too: the checks of a
network built from families, and the :class:`~pgmpy_nml.search._result.SearchResult`
both engines return.
"""

from __future__ import annotations

import math

import numpy as np

from ..._progress import PeriodicLines
from ...models import dag_from_parents
from .._result import SearchResult
from ._files import CandidateParentSets

__all__: list[str] = []


class _Families:
    """The candidates as flat arrays: one row per family."""

    def __init__(self, cands: CandidateParentSets):
        n = cands.n_variables
        counts = cands.n_candidates()
        self.n = n
        self.start = np.concatenate([[0], np.cumsum(counts)])
        self.child = np.repeat(np.arange(n), counts)
        self.score = np.concatenate(cands.scores)
        self.parents = [p for sets in cands.parent_sets for p in sets]
        self.size = np.array([len(p) for p in self.parents], dtype=np.int64)
        f = len(self.parents)
        self.pmask = np.zeros((f, n), dtype=bool)
        self.padded = np.full((f, max(1, int(self.size.max()))), -1, dtype=np.int64)
        for k, p in enumerate(self.parents):
            self.pmask[k, list(p)] = True
            self.padded[k, : len(p)] = p
        self.best = np.array([cands.scores[v][0] for v in range(n)])
        # families sorted best first within each variable (CandidateParentSets order)
        self.loss = self.score - self.best[self.child]

    def __len__(self):
        return len(self.parents)

    def families(self, v):
        return range(self.start[v], self.start[v + 1])

    def total(self, choice) -> float:
        return math.fsum(float(self.score[f]) for f in choice)


def _cycle_free(fam: _Families, choice) -> bool:
    indeg = np.array([len(fam.parents[choice[v]]) for v in range(fam.n)])
    children: list[list[int]] = [[] for _ in range(fam.n)]
    for v in range(fam.n):
        for p in fam.parents[choice[v]]:
            children[p].append(v)
    stack = [v for v in range(fam.n) if indeg[v] == 0]
    seen = 0
    while stack:
        u = stack.pop()
        seen += 1
        for c in children[u]:
            indeg[c] -= 1
            if indeg[c] == 0:
                stack.append(c)
    return seen == fam.n


def _gap(score, bound):
    if bound <= score:
        return 0.0
    return (bound - score) / max(abs(score), 1e-12)


def _progress_text(score, bound, nodes):
    gap = 100 * _gap(score, bound)
    return f"score {score:.6g}  bound {bound:.6g}  gap {gap:.4f}%  nodes {nodes}"


def _last_line(desc: str, result: SearchResult, seconds: float) -> None:
    """The progress display's last line when engines were combined (the portfolio, A*
    then the solver): the combined result, whose bound is the smaller of the engines'
    (each engine's own lines said how far that engine got, not what they proved together)."""
    line = PeriodicLines(desc, every=0.0)
    line.start -= seconds
    text = _progress_text(result.score, result.bound, 0).rsplit("  nodes", 1)[0]
    line.postfix = f"{text}  network by {result.engine}"
    line.close()


def _initial_choice(fam: _Families, cands: CandidateParentSets, initial):
    """Global family indices of a user-given network, checked."""
    if isinstance(initial, dict):
        missing = [v for v in cands.variables if initial.get(v) is None]
        if missing:
            raise ValueError(f"initial gives no parent set for {missing!r}.")
        items = [initial[v] for v in cands.variables]
    else:
        items = list(initial)
        if len(items) != fam.n:
            raise ValueError(
                f"initial needs one parent set per variable ({fam.n}), got {len(items)}."
            )
    picked = []
    for v, parents in zip(cands.variables, items, strict=True):
        try:
            k = cands.index(v, parents)
        except ValueError as err:
            raise ValueError(f"initial: {err}") from None
        picked.append(fam.start[cands.position(v)] + k)
    choice = np.array(picked, dtype=np.int64)
    if not _cycle_free(fam, choice):
        raise ValueError("initial is not a DAG: its parent sets form a directed cycle.")
    return choice


def _checked_families(candidates: CandidateParentSets) -> _Families:
    """The candidates as families, refused when no DAG can be built from them."""
    if not isinstance(candidates, CandidateParentSets):
        raise TypeError(
            f"candidates must be a CandidateParentSets, got {type(candidates).__name__}."
        )
    fam = _Families(candidates)
    if not np.any(fam.size == 0):
        raise ValueError(
            "No DAG can be built from these candidates: no variable keeps the empty parent "
            "set, but every DAG has a variable without parents."
        )
    return fam


def _network_result(fam: _Families, candidates, choice, bound, status, **fields) -> SearchResult:
    """The :class:`SearchResult` of an engine over the candidates: the network ``choice``
    (global family indices), its exact score, the proven ``bound`` and the gap."""
    score = fam.total(choice)
    optimal = status == "optimal"
    bound = score if optimal else max(float(bound), score)
    variables = candidates.variables
    parents = {
        variables[v]: tuple(variables[p] for p in fam.parents[choice[v]]) for v in range(fam.n)
    }
    dag = dag_from_parents(parents, variables)
    return SearchResult(
        dag=dag,
        score=score,
        bound=bound,
        gap=0.0 if optimal else _gap(score, bound),
        candidates=candidates,
        variables=variables,
        parents=parents,
        choice=tuple(int(choice[v] - fam.start[v]) for v in range(fam.n)),
        status=status,
        **fields,
    )
