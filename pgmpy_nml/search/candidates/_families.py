"""The candidates as flat arrays, and what the engines over them share.

:class:`_Families` holds one row per candidate family (a variable and one of its
candidate parent sets); the solver (:mod:`._solver`), A* (:mod:`._astar`) and the
primal heuristics (:mod:`._heuristics`) work on it. Here too: the checks of a
network built from families, and the :class:`~pgmpy_nml.search._result.SearchResult`
both engines return.
"""

from __future__ import annotations

import copy
import itertools
import math
import weakref

import numpy as np

from ..._progress import PeriodicLines, nested_desc
from ...models import dag_from_parents
from .._result import SearchResult
from ._files import CandidateParentSets
from ._rows import padded_rows
from ._symmetry import interchangeable_classes, precedence_arcs

__all__: list[str] = []


class _Families:
    """The candidates as flat arrays: one row per family.

    With ``symmetry``, the classes of interchangeable variables (:mod:`._symmetry`) are
    found, and the engines keep their members in increasing order: each member after
    the first must come after the one before it. ``parents`` are the families' parent
    sets, which the score and the network read; ``preds`` are what the family's child
    must come after (its parents and, for symmetry breaking, the member of its class
    before it), which acyclicity reads: ``size`` and ``padded`` describe
    ``preds``, so the cluster cuts, the heuristics and A*'s order graph all keep the
    classes in order. ``classes`` is empty without ``symmetry``.
    """

    def __init__(self, cands: CandidateParentSets, symmetry: bool = False):
        n = cands.n_variables
        counts = cands.n_candidates()
        self.n = n
        self.start = np.concatenate([[0], np.cumsum(counts)])
        self.child = np.repeat(np.arange(n), counts)
        self.score = np.concatenate(cands.scores)
        self.parents = list(itertools.chain.from_iterable(cands.parent_sets))
        self.preds = self.parents
        self.padded, self.size = cands._rows()  # read-only, shared with the candidates
        self.best = np.array([cands.scores[v][0] for v in range(n)])
        # families sorted best first within each variable (CandidateParentSets order)
        self.loss = self.score - self.best[self.child]
        self._index: dict | None = None
        self.classes: list[list[int]] = []
        if symmetry:
            self._keep_in_order(interchangeable_classes(self))

    def in_order(self) -> _Families:
        """These families (built without ``symmetry``) with their classes of
        interchangeable variables kept in order: a copy, or themselves when there is no
        class (then the two are the same)."""
        classes = interchangeable_classes(self)
        if not classes:
            return self
        fam = copy.copy(self)
        fam._index = None
        fam._keep_in_order(classes)
        return fam

    def _keep_in_order(self, classes: list[list[int]]) -> None:
        """Make each member of a class of ``classes`` come after the one before it."""
        self.classes = classes
        if not classes:
            return
        before = {v: u for u, v in precedence_arcs(classes)}
        self.preds = list(self.parents)
        rows = np.flatnonzero(np.isin(self.child, list(before))).tolist()
        for f in rows:
            self.preds[f] = tuple(sorted({*self.parents[f], before[int(self.child[f])]}))
        wider = max(0, max(len(self.preds[f]) for f in rows) - self.padded.shape[1])
        extra = np.full((len(self.preds), wider), -1, dtype=np.int64)
        self.padded = np.hstack([self.padded, extra])  # copies: the candidates' are shared
        self.size = self.size.copy()
        self._describe(rows)

    def arcs(self, rows) -> tuple[np.ndarray, np.ndarray]:
        """The arcs into the families ``rows`` (a slice or an index array): ``(k, u)``,
        one pair for each ``u`` that the child of family ``rows[k]`` must come after
        (``preds``), ordered by ``k`` then ``u``. Read from ``padded``, so a few bytes
        per arc, where a dense mask takes a byte per family and variable (362 MB over
        nips' 723,051 candidates of 500 variables)."""
        pad = self.padded[rows]
        k, slot = np.nonzero(pad >= 0)
        return k, pad[k, slot]

    def preds_mask(self, rows) -> np.ndarray:
        """Per family of ``rows`` (a slice or an index array), ``n`` booleans: the
        variables its child must come after (``preds``)."""
        k, u = self.arcs(rows)
        mask = np.zeros((len(self.size[rows]), self.n), dtype=bool)
        mask[k, u] = True
        return mask

    def _describe(self, rows) -> None:
        """Write ``size`` and ``padded`` of the families ``rows`` from their ``preds``."""
        rows = np.asarray(rows, dtype=np.int64)
        padded, size = padded_rows([self.preds[k] for k in rows.tolist()])
        self.size[rows] = size
        self.padded[rows] = -1
        self.padded[rows, : padded.shape[1]] = padded

    def __len__(self):
        return len(self.parents)

    def families(self, v):
        return range(self.start[v], self.start[v + 1])

    def total(self, choice) -> float:
        return math.fsum(float(self.score[f]) for f in choice)

    def out_of_order(self) -> np.ndarray:
        """Per family, whether one of its parents is a later member of its child's class
        (so it closes a cycle with the precedence arcs, and no engine may choose it)."""
        rank = np.full(self.n, -1, dtype=np.int64)
        klass = np.full(self.n, -1, dtype=np.int64)
        for c, members in enumerate(self.classes):
            rank[members] = np.arange(len(members))
            klass[members] = c
        out = np.zeros(len(self), dtype=bool)
        for f in np.flatnonzero(klass[self.child] >= 0):
            v = self.child[f]
            out[f] = any(klass[u] == klass[v] and rank[u] > rank[v] for u in self.parents[f])
        return out

    def index(self, v: int, parents) -> int:
        """The family of ``v`` with parent set ``parents`` (positions, any order)."""
        if self._index is None:
            pairs = zip(self.child.tolist(), self.parents, strict=True)
            self._index = {pair: f for f, pair in enumerate(pairs)}
        return self._index[v, tuple(sorted(int(u) for u in parents))]


def _order(n: int, parents) -> list[int] | None:
    """A topological order of the graph in which ``parents[v]`` must come before ``v``,
    or None when it has a directed cycle."""
    indeg = [len(p) for p in parents]
    children: list[list[int]] = [[] for _ in range(n)]
    for v in range(n):
        for p in parents[v]:
            children[p].append(v)
    stack = [v for v in range(n) if indeg[v] == 0]
    order = []
    while stack:
        u = stack.pop()
        order.append(u)
        for c in children[u]:
            indeg[c] -= 1
            if indeg[c] == 0:
                stack.append(c)
    return order if len(order) == n else None


def _cycle_free(fam: _Families, choice) -> bool:
    """Whether the families ``choice`` (one per variable) form a DAG that keeps every
    class of interchangeable variables in order (``preds``)."""
    return _order(fam.n, [fam.preds[f] for f in choice]) is not None


def _canonical(fam: _Families, choice):
    """The mirror image of the DAG ``choice`` that keeps every class in order, or None
    when ``choice`` has a directed cycle.

    The proof in :mod:`._symmetry`: in a topological order of the DAG, the ``j``-th
    member met of a class takes the place of the class's ``j``-th member (its family
    relabelled the same way), which gives a DAG over the candidates with the same score
    (up to the rounding :mod:`._symmetry` allows) in which every class is in order.
    """
    order = _order(fam.n, [fam.parents[f] for f in choice])
    if order is None or not fam.classes:
        return None if order is None else np.asarray(choice, dtype=np.int64)
    position = np.empty(fam.n, dtype=np.int64)
    position[order] = np.arange(fam.n)
    rho = np.arange(fam.n)
    for members in fam.classes:
        rho[sorted(members, key=lambda v: position[v])] = members
    image = np.empty(fam.n, dtype=np.int64)
    for v in range(fam.n):
        image[rho[v]] = fam.index(int(rho[v]), rho[list(fam.parents[choice[v]])])
    return image


def _gap(score, bound):
    if bound <= score:
        return 0.0
    return (bound - score) / max(abs(score), 1e-12)


def _progress_text(score, bound, nodes=None):
    """``score S  bound B  gap G%`` (and ``nodes N`` where the engine counts nodes)."""
    gap = 100 * _gap(score, bound)
    text = f"score {score:.6g}  bound {bound:.6g}  gap {gap:.4f}%"
    return text if nodes is None else f"{text}  nodes {nodes}"


def show_status(bar, score, bound, nodes=None) -> None:
    """An engine's incumbent ``score`` and proven ``bound`` (and its ``nodes``) on its
    progress display: the one way the engines report. A display that takes the numbers
    (``report(score, bound, nodes)``: the portfolio's, which shows both engines on one
    line) gets them; any other bar gets the text."""
    report = getattr(bar, "report", None)
    if report is not None:
        report(score, bound, nodes)
    else:
        bar.set_postfix_str(_progress_text(score, bound, nodes))


def _last_line(desc: str, result: SearchResult, seconds: float) -> None:
    """The progress display's last line when engines were combined (the portfolio, A*
    then the solver): the combined result, whose bound is the smaller of the engines'
    (each engine's own lines said how far that engine got, not what they proved together)."""
    line = PeriodicLines(nested_desc(desc), every=0.0)
    line.start -= seconds
    text = _progress_text(result.score, result.bound)
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
    choice = _canonical(fam, np.array(picked, dtype=np.int64))
    if choice is None:
        raise ValueError("initial is not a DAG: its parent sets form a directed cycle.")
    return choice


#: The families last built from a candidates object, by ``symmetry``: ``(weak reference
#: to the candidates, families)``. The portfolio, the engine it runs and the result
#: read the same candidates one after the other (A* then the solver too); on mildew's
#: 1,364,502 candidates each build takes about a second. The families are never changed
#: once built.
_LAST: dict[bool, tuple] = {}


def _checked_families(candidates: CandidateParentSets, symmetry: bool = True) -> _Families:
    """The candidates as families, with their classes of interchangeable variables kept
    in order (:mod:`._symmetry`; not with ``symmetry=False``), refused when no DAG can
    be built from them. The same candidates object twice in a row gives the same
    families (:data:`_LAST`)."""
    if not isinstance(candidates, CandidateParentSets):
        raise TypeError(
            f"candidates must be a CandidateParentSets, got {type(candidates).__name__}."
        )
    last = _LAST.get(symmetry)
    if last is not None and last[0]() is candidates:
        return last[1]
    last = _LAST.get(False)
    if last is not None and last[0]() is candidates:
        fam = last[1]
    else:
        fam = _Families(candidates)
        if not np.any(fam.size == 0):
            raise ValueError(
                "No DAG can be built from these candidates: no variable keeps the empty "
                "parent set, but every DAG has a variable without parents."
            )
        _LAST[False] = (weakref.ref(candidates), fam)
    if symmetry:
        fam = fam.in_order()
        _LAST[True] = (weakref.ref(candidates), fam)
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
        interchangeable=tuple(tuple(variables[v] for v in c) for c in fam.classes),
        **fields,
    )
