r"""The best DAG over candidate parent sets, proven optimal by integer programming (SCIP).

The model is GOBNILP's (Jaakkola et al. 2010; Cussens 2011; Bartlett and
Cussens 2017). One binary variable :math:`x_{v,P}` per candidate family (variable
:math:`v` with parent set :math:`P`) and

.. math::

    \max \sum_{v,P} s(v, P)\, x_{v,P} \quad \text{s.t.} \quad
    \sum_P x_{v,P} = 1 \;\; \forall v, \qquad
    \sum_{v \in C} \sum_{P:\, P \cap C \neq \emptyset} x_{v,P} \le |C| - 1
    \;\; \forall C \subseteq V,\ |C| \ge 2.

The second family, the *cluster constraints*, says that in every set :math:`C`
of variables at least one has no parent inside :math:`C`: exactly acyclicity.
There are :math:`2^n` of them, so the initial model has only the two-element
ones and GOBNILP's *set-packing* constraints (of a set of 3 or 4 variables, at
most one has all the others as parents); the others are added when needed by
a SCIP constraint handler:

* for an integer solution (enforcement), every strongly connected component of
  its graph is a violated cluster;
* for a fractional LP solution (separation), each strongly connected component
  of the LP support graph is peeled greedily, removing the variable with the
  least LP value on families with a parent in the cluster, once as it is and
  once with each of its variables held in, and every violated cluster met is
  a cut (GOBNILP solves a sub-IP for the most violated cluster instead; here a
  sub-IP made the whole search slower). Each cut is written in the sparser of
  its two equivalent forms.

SCIP branches first (a higher branching priority) on *arrow* variables
:math:`a_{u \to v} = \sum_{P \ni u} x_{v,P}` (an equality row each, and
:math:`a_{u \to v} + a_{v \to u} \le 1`; GOBNILP's edge variables), one per
ordered pair whose both directions are candidate arrows, the pairs where the
search must decide which way the edge goes. Fixing an arrow splits the
families of :math:`v` into those with :math:`u` and those without, where
fixing one family to 0 barely moves the bound. On alarm (37 variables, 8276
candidates, fNML, N = 5000) family branching was still 0.27% apart after
300 s of CPU; arrow branching proves the optimum in 80-91 s (435-516 nodes,
two seeds). Arrows for every linked pair (one-way ones too) enlarge the LP and
made the root up to 2.5 times slower on smaller instances, to no benefit.

A sink-finding primal heuristic guided by the LP solution (after GOBNILP's
``heur_sinks``: the variable placed last is the one whose placement destroys
the least LP value, and it takes its best-scoring allowed family) and a
family-swap local search turn LP solutions into networks, during the root cut
loop and at every node; before the search, the same heuristic without LP
values gives the first network. SCIP closes the gap by branch and cut.

Numerics: the objective is handed to SCIP relative to each variable's best
local score (all coefficients <= 0, the optimum near 0), which keeps SCIP's
relative tolerances tight. SCIP's optimality is within its tolerances (about
1e-9 relative, 1e-6 absolute on the objective); the returned score is always
recomputed exactly from the float local scores, and the bound is the larger of
SCIP's dual bound and that score.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components

from ..._jit import njit
from ..._progress import progress_bar
from ..._validate import as_gap_limit, as_integer, as_time_limit
from ._files import CandidateParentSets

if TYPE_CHECKING:
    from pgmpy.base import DAG

__all__ = ["SolverResult", "solve"]

#: Smallest violation for a cluster cut to be added.
_CUT_EPS = 1e-6
#: SCIP branching priority of the arrow variables (families have 0).
_ARROW_PRIORITY = 10


@dataclass(frozen=True)
class SolverResult:
    """The network found by :func:`solve`, with its proof status.

    Attributes
    ----------
    variables : tuple
        Variable names, as in the candidates.
    parents : dict
        ``{variable: tuple of parent names}``: the chosen family of each variable.
    choice : tuple of int
        Per variable, the index of its chosen candidate in
        ``candidates.parent_sets[v]``.
    score : float
        The network's score: the sum of its local scores (math.fsum), exact.
    bound : float
        A proven upper bound on the best score over all DAGs built from the
        candidates (``bound >= score``).
    gap : float
        ``(bound - score) / max(|score|, 1e-12)``; 0 when optimal.
    optimal : bool
        True when the engine proved that no network scores higher (within its
        tolerances, see the module notes).
    status : str
        The engine's final status (``"optimal"``, ``"timelimit"``, ...).
    engine : str
        ``"scip <version>"``.
    timings : dict
        Seconds per phase: ``"model"``, ``"first network"``, ``"search"``.
    n_cuts : int
        Cluster constraints added during the search.
    """

    variables: tuple
    parents: dict
    choice: tuple
    score: float
    bound: float
    gap: float
    optimal: bool
    status: str
    engine: str
    timings: dict = field(default_factory=dict)
    n_cuts: int = 0

    def to_dag(self) -> DAG:
        """The network as a pgmpy ``DAG`` with every variable as a node."""
        from pgmpy.base import DAG

        dag = DAG()
        dag.add_nodes_from(self.variables)
        dag.add_edges_from((p, v) for v in self.variables for p in self.parents[v])
        return dag


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


# -- networks from scores (and LP values) -----------------------------------------------
def _greedy(fam: _Families, weights=None, available=None):
    """A DAG by choosing sinks one at a time; ``None`` if the candidates block it.

    The variable placed last among those left (the sink) may take any parents
    among the others left, and gets its best-scoring allowed family. The sink
    is the variable whose removal costs the others the least (their best
    allowed families lose it as a possible parent); with LP values as
    ``weights`` (in the spirit of GOBNILP's sink heuristic), it is the variable
    whose placement destroys the least LP value (on the allowed families of
    the others that have it as a parent), the cost breaking ties. Families
    where ``available`` is False are never chosen.
    """
    blocked = np.zeros(len(fam), dtype=np.int64)
    if available is not None:
        blocked[~np.asarray(available, dtype=bool)] = 1
    w = np.zeros(len(fam)) if weights is None else np.asarray(weights, dtype=np.float64)
    choice, ok = _greedy_kernel(
        fam.start, fam.child, fam.padded, fam.size, fam.score, w, weights is not None, blocked
    )
    return choice if ok else None


@njit(cache=True)
def _greedy_kernel(start, child, parents, size, score, weights, use_weights, blocked):
    n = start.size - 1
    n_fam = parents.shape[0]
    left = np.ones(n, dtype=np.bool_)
    choice = np.full(n, -1, dtype=np.int64)
    best_f = np.zeros(n, dtype=np.int64)
    cost = np.zeros(n)
    lost = np.zeros(n)
    for _ in range(n):
        for v in range(n):
            if not left[v]:
                continue
            b = -1
            for f in range(start[v], start[v + 1]):
                if blocked[f] == 0:
                    b = f
                    break
            if b < 0:
                return choice, False
            best_f[v] = b
        cost[:] = 0.0
        for u in range(n):
            if not left[u]:
                continue
            f = best_f[u]
            for j in range(size[f]):
                p = parents[f, j]
                g = -1
                for h in range(f + 1, start[u + 1]):  # best first: the next allowed without p
                    if blocked[h] != 0:
                        continue
                    has = False
                    for t in range(size[h]):
                        if parents[h, t] == p:
                            has = True
                            break
                    if not has:
                        g = h
                        break
                if g < 0:
                    cost[p] = np.inf
                else:
                    cost[p] += score[f] - score[g]
        if use_weights:
            lost[:] = 0.0
            for f in range(n_fam):
                if blocked[f] == 0 and left[child[f]] and weights[f] > 0.0:
                    for t in range(size[f]):
                        lost[parents[f, t]] += weights[f]
            for v in range(n):
                lost[v] = math.floor(lost[v] * 1e6 + 0.5)  # compare to 1e-6
        sink = -1
        for v in range(n):
            if not left[v]:
                continue
            if sink < 0:
                sink = v
            elif use_weights and lost[v] != lost[sink]:
                if lost[v] < lost[sink]:
                    sink = v
            elif cost[v] < cost[sink]:
                sink = v
        if not cost[sink] < np.inf:
            return choice, False
        choice[sink] = best_f[sink]
        left[sink] = False
        for f in range(n_fam):
            for t in range(size[f]):
                if parents[f, t] == sink:
                    blocked[f] += 1
    return choice, True


def _descendants(fam: _Families, choice, v):
    children = [[] for _ in range(fam.n)]
    for u in range(fam.n):
        for p in fam.parents[choice[u]]:
            children[p].append(u)
    seen = {v}
    stack = [v]
    while stack:
        for c in children[stack.pop()]:
            if c not in seen:
                seen.add(c)
                stack.append(c)
    return seen


def _improve(fam: _Families, choice, available=None):
    """Local search: switch one variable at a time to a better family that keeps the DAG."""
    choice = np.array(choice, dtype=np.int64)
    improved = True
    while improved:
        improved = False
        for v in range(fam.n):
            current = choice[v]
            if current == fam.start[v]:
                continue  # already its best candidate
            desc = _descendants(fam, choice, v)
            for f in range(fam.start[v], current):  # better candidates, best first
                if available is not None and not available[f]:
                    continue
                if not any(p in desc for p in fam.parents[f]):
                    choice[v] = f
                    improved = True
                    break
    return choice


def _cycle_free(fam: _Families, choice) -> bool:
    indeg = np.array([len(fam.parents[choice[v]]) for v in range(fam.n)])
    children = [[] for _ in range(fam.n)]
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


# -- cluster cuts ---------------------------------------------------------------------
def _violated_clusters(fam: _Families, x, eps=_CUT_EPS, multi=True):
    """Clusters whose constraint ``x`` violates by more than ``eps`` (sorted lists of variables).

    Each strongly connected component of the support graph of ``x`` (edge
    ``u -> v`` when some family of ``v`` with ``u`` among its parents has
    positive value) is peeled one variable at a time, removing the variable
    with the least value on families that have a parent in the cluster, and
    the most violated cluster met is kept. With ``multi``, the peeling is
    repeated with each variable of the component held in the cluster, which
    gives up to one cut per variable instead of one per component.
    """
    n = fam.n
    support = np.flatnonzero(x > eps)
    if support.size == 0:
        return []
    xs = x[support].astype(np.float64)
    child = fam.child[support]
    padded = fam.padded[support]
    size = fam.size[support]
    rows, cols = np.nonzero(fam.pmask[support])
    graph = csr_matrix((np.ones(rows.size), (cols, child[rows])), shape=(n, n))
    n_comp, label = connected_components(graph, directed=True, connection="strong")

    found = {}
    for c in range(n_comp):
        members = np.flatnonzero(label == c)
        if members.size < 2:
            continue
        starts = [-1, *members.tolist()] if multi else [-1]
        for keep in starts:
            viol, inside = _peel(n, members, keep, xs, child, padded, size)
            if viol > eps:
                found.setdefault(tuple(np.flatnonzero(inside).tolist()), viol)
    return [list(c) for c in sorted(found, key=lambda c: (-found[c], c))]


@njit(cache=True)
def _peel(n, members, keep, xs, child, parents, size):
    """Greedy peeling of one cluster (see :func:`_violated_clusters`): the largest
    violation met and its cluster as a mask. ``keep`` (or -1) is never removed."""
    inside = np.zeros(n, dtype=np.bool_)
    for m in members:
        inside[m] = True
    n_sup = xs.size
    count = np.zeros(n_sup, dtype=np.int64)
    fam_in = np.zeros(n_sup, dtype=np.bool_)
    for s in range(n_sup):
        fam_in[s] = inside[child[s]]
        for t in range(size[s]):
            if inside[parents[s, t]]:
                count[s] += 1
    inner = np.zeros(n)
    best_viol = -np.inf
    best = inside.copy()
    k = members.size
    while k >= 2:
        inner[:] = 0.0
        for s in range(n_sup):
            if fam_in[s] and count[s] > 0:
                inner[child[s]] += xs[s]
        viol = -(k - 1.0)
        for v in range(n):
            if inside[v]:
                viol += inner[v]
        if viol > best_viol + 1e-12:
            best_viol = viol
            best[:] = inside
        r = -1
        for v in range(n):
            if inside[v] and v != keep and (r < 0 or inner[v] < inner[r]):
                r = v
        inside[r] = False
        for s in range(n_sup):
            if child[s] == r:
                fam_in[s] = False
            for t in range(size[s]):
                if parents[s, t] == r:
                    count[s] -= 1
        k -= 1
    return best_viol, best


def _pair_clusters(fam: _Families):
    """The two-variable cluster constraints that can bind: ``((u, v), families)`` where
    ``families`` are those of ``v`` containing ``u`` and of ``u`` containing ``v``."""
    out = []
    for u in range(fam.n):
        with_u = np.flatnonzero(fam.pmask[:, u])
        for v in range(u + 1, fam.n):
            a = with_u[fam.child[with_u] == v]
            if a.size == 0:
                continue
            rng = slice(fam.start[u], fam.start[u + 1])
            b = fam.start[u] + np.flatnonzero(fam.pmask[rng, v])
            if b.size:
                out.append(((u, v), np.concatenate([a, b])))
    return out


def _set_packing(fam: _Families):
    """GOBNILP's set-packing constraints on 3 and 4 variables: ``(S, families)``.

    In a DAG at most one variable of a set ``S`` has all the others of ``S``
    as parents (the last of ``S`` in a topological order), so the families
    ``(v, P)`` with ``v`` in ``S`` and ``S - {v}`` inside ``P`` sum to at most 1.
    Only sets met by families of two or more variables are returned (the
    others follow from one family per variable).
    """
    groups = {}
    for f, parents in enumerate(fam.parents):
        if len(parents) < 2:
            continue
        v = int(fam.child[f])
        for k in (2, 3):
            for others in itertools.combinations(parents, k):
                groups.setdefault(tuple(sorted((v, *others))), []).append(f)
    out = []
    for key in sorted(groups):
        fams = np.array(groups[key])
        if np.unique(fam.child[fams]).size >= 2:
            out.append((key, fams))
    return out


def _arrows(fam: _Families):
    """The ordered pairs ``(u, v)`` that some family links both ways (``u`` a parent of
    ``v`` in a family of ``v``, and ``v`` of ``u`` in one of ``u``), the families of ``v``
    with ``u`` among their parents for each, and for each family the positions of its
    arrows in the list of pairs."""
    linked = {(int(u), int(fam.child[f])) for f, ps in enumerate(fam.parents) for u in ps}
    index = {}
    of_family = []
    for f, parents in enumerate(fam.parents):
        v = int(fam.child[f])
        of_family.append(
            [index.setdefault((int(u), v), len(index)) for u in parents if (v, int(u)) in linked]
        )
    pairs = list(index)
    members = [[] for _ in pairs]
    for f, arrows in enumerate(of_family):
        for a in arrows:
            members[a].append(f)
    return pairs, [np.array(m) for m in members], of_family


def _cluster_families(fam: _Families, cluster):
    """Families whose child is in ``cluster``: those with a parent in it, and the others."""
    inside = np.zeros(fam.n, dtype=bool)
    inside[cluster] = True
    mine = inside[fam.child]
    hit = fam.pmask[:, cluster].any(axis=1)
    return np.flatnonzero(mine & hit), np.flatnonzero(mine & ~hit)


# -- the SCIP model -------------------------------------------------------------------
def _scip_plugins():
    from pyscipopt import SCIP_EVENTTYPE, SCIP_RESULT, Conshdlr, Eventhdlr, Heur, quicksum

    class Acyclicity(Conshdlr):
        """Cluster constraints, added lazily."""

        def __init__(self, fam, xvars, avars):
            self.fam = fam
            self.xvars = xvars
            self.avars = avars
            self.tvars = None
            self.tavars = None
            self.n_cuts = 0

        def _values(self, solution=None):
            model = self.model
            return np.array([model.getSolVal(solution, v) for v in self.xvars])

        def _choice(self, values):
            fam = self.fam
            return np.array(
                [fam.start[v] + int(np.argmax(values[fam.families(v)])) for v in range(fam.n)]
            )

        def _transformed(self):
            if self.tvars is None:
                self.tvars = [self.model.getTransformedVar(v) for v in self.xvars]
            return self.tvars

        def arrow_vars(self):
            if self.tavars is None:
                self.tavars = [self.model.getTransformedVar(a) for a in self.avars]
            return self.tavars

        def _add_clusters(self, clusters, as_cuts):
            model = self.model
            tvars = self._transformed()
            added = 0
            for cluster in clusters:
                # sum over families with a parent inside <= |C| - 1, or, the same given
                # one family per variable, sum over those without >= 1: the sparser
                inner, outer = _cluster_families(self.fam, cluster)
                fams, lhs, rhs = (
                    (inner, None, len(cluster) - 1)
                    if inner.size <= outer.size
                    else (outer, 1, None)
                )
                if as_cuts:
                    row = model.createEmptyRowUnspec(
                        name=f"cluster{self.n_cuts}", lhs=lhs, rhs=rhs, local=False, removable=True
                    )
                    model.cacheRowExtensions(row)
                    for f in fams:
                        model.addVarToRow(row, tvars[f], 1.0)
                    model.flushRowExtensions(row)
                    model.addCut(row, forcecut=True)
                    model.addPoolCut(row)
                else:
                    expr = quicksum(tvars[f] for f in fams)
                    model.addCons(
                        expr <= rhs if lhs is None else expr >= lhs,
                        name=f"cluster{self.n_cuts}",
                        removable=False,
                    )
                self.n_cuts += 1
                added += 1
            return added

        def conscheck(
            self, constraints, solution, checkintegrality, checklprows, printreason, completely
        ):
            values = self._values(solution)
            ok = _cycle_free(self.fam, self._choice(values))
            return {"result": SCIP_RESULT.FEASIBLE if ok else SCIP_RESULT.INFEASIBLE}

        def _enforce(self, solution=None):
            values = self._values(solution)
            if _cycle_free(self.fam, self._choice(values)):
                return {"result": SCIP_RESULT.FEASIBLE}
            clusters = _violated_clusters(self.fam, np.round(values), multi=False)
            if clusters and self._add_clusters(clusters, as_cuts=False):
                return {"result": SCIP_RESULT.CONSADDED}
            return {"result": SCIP_RESULT.INFEASIBLE}

        def consenfolp(self, constraints, nusefulconss, solinfeasible):
            return self._enforce()

        def consenfops(self, constraints, nusefulconss, solinfeasible, objinfeasible):
            return self._enforce()

        def conssepalp(self, constraints, nusefulconss):
            values = self._values()
            clusters = _violated_clusters(self.fam, values)
            if clusters and self._add_clusters(clusters, as_cuts=True):
                return {"result": SCIP_RESULT.SEPARATED}
            return {"result": SCIP_RESULT.DIDNOTFIND}

        def conslock(self, constraint, locktype, nlockspos, nlocksneg):
            # choosing a family with parents can close a cycle; dropping one never does
            for f, var in enumerate(self.xvars):
                if self.fam.size[f]:
                    self.model.addVarLocksType(var, locktype, nlocksneg, nlockspos)

    class Sinks(Heur):
        """GOBNILP's sink heuristic on the LP solution, then local search."""

        def __init__(self, fam, conshdlr, arrows_of):
            self.fam = fam
            self.conshdlr = conshdlr
            self.arrows_of = arrows_of
            self.last = None

        def heurexec(self, heurtiming, nodeinfeasible):
            from pyscipopt import SCIP_LPSOLSTAT

            model = self.model
            if model.getLPSolstat() != SCIP_LPSOLSTAT.OPTIMAL:
                return {"result": SCIP_RESULT.DIDNOTRUN}
            values = self.conshdlr._values()
            key = np.round(values, 4).tobytes()
            if key == self.last:
                return {"result": SCIP_RESULT.DIDNOTRUN}
            self.last = key
            tvars = self.conshdlr._transformed()
            available = np.array([t.getUbGlobal() > 0.5 for t in tvars])
            choice = _greedy(self.fam, weights=values, available=available)
            if choice is None:
                return {"result": SCIP_RESULT.DIDNOTFIND}
            choice = _improve(self.fam, choice, available)
            sol = model.createSol(self)
            _set_network(model, sol, choice, tvars, self.conshdlr.arrow_vars(), self.arrows_of)
            accepted = model.trySol(sol, printreason=False)
            return {"result": SCIP_RESULT.FOUNDSOL if accepted else SCIP_RESULT.DIDNOTFIND}

    class Progress(Eventhdlr):
        """Incumbent, bound and gap on a tqdm line, at most twice a second."""

        def __init__(self, bar, offset):
            self.bar = bar
            self.offset = offset
            self.last = 0.0

        def eventinit(self):
            self.model.catchEvent(SCIP_EVENTTYPE.BESTSOLFOUND, self)
            self.model.catchEvent(SCIP_EVENTTYPE.NODESOLVED, self)

        def eventexit(self):
            self.model.dropEvent(SCIP_EVENTTYPE.BESTSOLFOUND, self)
            self.model.dropEvent(SCIP_EVENTTYPE.NODESOLVED, self)

        def eventexec(self, event):
            now = time.perf_counter()
            if now - self.last < 0.5:
                return {}
            self.last = now
            model = self.model
            if model.getNSols() == 0:
                return {}
            self.bar.set_postfix_str(_model_progress(model, self.offset))
            return {}

    return Acyclicity, Sinks, Progress


def _set_network(model, sol, choice, xvars, avars, arrows_of):
    """Write a network (one family per variable) into ``sol``: its families and arrows."""
    for f in choice:
        model.setSolVal(sol, xvars[f], 1.0)
        for a in arrows_of[f]:
            model.setSolVal(sol, avars[a], 1.0)


def _gap(score, bound):
    if bound <= score:
        return 0.0
    return (bound - score) / max(abs(score), 1e-12)


def _sound_bound(dual: float, offset: float, score: float, infinity: float = 1e20) -> float:
    """The proven upper bound on the network score from SCIP's dual bound on the objective.

    The objective is the network score minus ``offset`` (the sum of every variable's
    best candidate), so it is at most 0 and ``offset`` itself is a proven bound (the
    *trivial* one). SCIP reports no dual bound as ``+infinity`` (1e20) before its
    first LP: the bound is then the trivial one, never ``1e20 + offset``. A network
    that exists (the incumbent ``score``) is never above it.
    """
    if not dual < infinity:  # no bound yet (or NaN)
        dual = 0.0
    return max(score, offset + min(dual, 0.0))


def _model_progress(model, offset: float) -> str:
    """The progress text (incumbent, sound bound, gap, nodes) of a running SCIP model."""
    score = model.getPrimalbound() + offset
    bound = _sound_bound(model.getDualbound(), offset, score, model.infinity())
    return _progress_text(score, bound, model.getNNodes())


def _progress_text(score, bound, nodes):
    gap = 100 * _gap(score, bound)
    return f"score {score:.6g}  bound {bound:.6g}  gap {gap:.4f}%  nodes {nodes}"


def _initial_choice(fam: _Families, cands: CandidateParentSets, initial):
    """Global family indices of a user-given network, checked."""
    if isinstance(initial, dict):
        items = [initial.get(v) for v in cands.variables]
        missing = [v for v, p in zip(cands.variables, items, strict=True) if p is None]
        if missing:
            raise ValueError(f"initial gives no parent set for {missing!r}.")
    else:
        items = list(initial)
        if len(items) != fam.n:
            raise ValueError(
                f"initial needs one parent set per variable ({fam.n}), got {len(items)}."
            )
    choice = []
    for v, parents in zip(cands.variables, items, strict=True):
        try:
            k = cands.index(v, parents)
        except ValueError as err:
            raise ValueError(f"initial: {err}") from None
        choice.append(fam.start[cands.position(v)] + k)
    choice = np.array(choice, dtype=np.int64)
    if not _cycle_free(fam, choice):
        raise ValueError("initial is not a DAG: its parent sets form a directed cycle.")
    return choice


def solve(
    candidates: CandidateParentSets,
    *,
    time_limit: float | None = None,
    initial: Mapping[Hashable, Iterable[Hashable]] | Sequence[Iterable[Hashable]] | None = None,
    n_threads: int | None = None,
    show_progress: bool = True,
    gap_limit: float = 0.0,
    random_state: int = 0,
) -> SolverResult:
    r"""The highest-scoring DAG that takes one candidate parent set per variable.

    Integer programming over the candidates (GOBNILP's model, see the module
    notes) on SCIP through PySCIPOpt: a greedy first network, then branch and
    cut until the network is proven optimal or ``time_limit`` runs out.

    Parameters
    ----------
    candidates : CandidateParentSets
    time_limit : float, optional
        Seconds for the search; without it the search runs until optimal.
        When it runs out, the best network so far is returned with a proven
        upper bound and the gap.
    initial : dict or sequence, optional
        A DAG to start from: ``{variable: parents}`` (names) or one parent
        collection per variable in ``candidates.variables`` order; every family
        must be a candidate. Without it, a greedy network is the start.
    n_threads : int, optional
        Accepted for interface symmetry; SCIP's search is single-threaded.
    show_progress : bool, default True
        A tqdm line with the incumbent score, the bound, the gap and the nodes.
    gap_limit : float, default 0
        Stop once ``(bound - score) / |score|`` is at most this.
    random_state : int, default 0
        SCIP's random seed shift. The same input and settings give the same
        network (SCIP is deterministic); a run cut by ``time_limit`` depends on
        the machine's speed.

    Returns
    -------
    SolverResult

    Raises
    ------
    ValueError
        When no DAG can be built from the candidates (every variable needs
        parents, or required parents force a cycle), or ``initial`` is invalid.
    RuntimeError
        When ``time_limit`` ran out before any network was found.

    Examples
    --------
    >>> from pgmpy_nml.search.candidates import CandidateParentSets
    >>> from pgmpy_nml.search.candidates import solve
    >>> cands = CandidateParentSets.from_dict({
    ...     "A": {(): -10.0, ("B",): -7.0},
    ...     "B": {(): -9.0, ("A",): -5.0},
    ...     "C": {(): -4.0, ("A", "B"): -1.0},
    ... })
    >>> result = solve(cands, show_progress=False)
    >>> result.parents, result.score, result.optimal, result.gap
    ({'A': (), 'B': ('A',), 'C': ('A', 'B')}, -16.0, True, 0.0)
    """
    import pyscipopt
    from pyscipopt import Model, quicksum

    if not isinstance(candidates, CandidateParentSets):
        raise TypeError(
            f"candidates must be a CandidateParentSets, got {type(candidates).__name__}."
        )
    time_limit = as_time_limit(time_limit)
    gap_limit = as_gap_limit(gap_limit)
    seed = as_integer(random_state, "random_state")
    timings = {}
    start = time.perf_counter()
    fam = _Families(candidates)
    if not np.any(fam.size == 0):
        raise ValueError(
            "No DAG can be built from these candidates: no variable keeps the empty parent "
            "set, but every DAG has a variable without parents."
        )
    if initial is not None:
        first = _initial_choice(fam, candidates, initial)
    else:
        first = _greedy(fam)
        if first is not None:
            first = _improve(fam, first)
    timings["first network"] = time.perf_counter() - start

    start = time.perf_counter()
    offset = math.fsum(fam.best)
    model = Model("bnsl")
    model.hideOutput(True)
    model.setIntParam("randomization/randomseedshift", int(seed))
    if time_limit is not None:
        model.setRealParam("limits/time", float(time_limit))
    model.setRealParam("limits/gap", float(gap_limit))
    # keep every family variable a column of its own: the cuts and the heuristic use them
    model.setBoolParam("presolving/donotaggr", True)
    model.setBoolParam("presolving/donotmultaggr", True)
    # SCIP's aggregation (c-MIR) separator found no cut on these models and took a third
    # of the root's time on insurance (27 variables, 3029 candidates, qNML, N = 5000)
    model.setIntParam("separating/aggregation/freq", -1)
    xvars = [model.addVar(name=f"x{f}", vtype="B", obj=float(fam.loss[f])) for f in range(len(fam))]
    model.setMaximize()
    for v in range(fam.n):
        model.addCons(quicksum(xvars[f] for f in fam.families(v)) == 1, name=f"one{v}")
    for (u, v), fams in _pair_clusters(fam):
        model.addCons(quicksum(xvars[f] for f in fams) <= 1, name=f"pair{u}_{v}")
    for key, fams in _set_packing(fam):
        model.addCons(quicksum(xvars[f] for f in fams) <= 1, name=f"pack{key}")
    pairs, arrow_fams, arrows_of = _arrows(fam)
    avars = []
    for (u, v), fams in zip(pairs, arrow_fams, strict=True):
        a = model.addVar(name=f"a{u}_{v}", vtype="B", obj=0.0)
        model.addCons(a == quicksum(xvars[f] for f in fams), name=f"arrow{u}_{v}")
        model.chgVarBranchPriority(a, _ARROW_PRIORITY)
        avars.append(a)
    position = {pair: k for k, pair in enumerate(pairs)}
    for (u, v), k in position.items():
        if u < v and (v, u) in position:
            model.addCons(avars[k] + avars[position[v, u]] <= 1, name=f"arrows{u}_{v}")
    Acyclicity, Sinks, Progress = _scip_plugins()
    conshdlr = Acyclicity(fam, xvars, avars)
    model.includeConshdlr(
        conshdlr,
        "acyclicity",
        "cluster constraints of a DAG",
        sepapriority=100,
        enfopriority=-100,
        chckpriority=-100,
        sepafreq=1,
        needscons=True,
    )
    model.addPyCons(model.createCons(conshdlr, "dag", initial=False, separate=True))
    from pyscipopt import SCIP_HEURTIMING

    model.includeHeur(
        Sinks(fam, conshdlr, arrows_of),
        "sinks",
        "sink-finding on the LP solution",
        "S",
        priority=100000,
        freq=1,
        timingmask=SCIP_HEURTIMING.AFTERLPNODE | SCIP_HEURTIMING.DURINGLPLOOP,
    )
    if first is not None:
        sol = model.createSol()
        _set_network(model, sol, first, xvars, avars, arrows_of)
        model.addSol(sol)
    bar = None
    if show_progress:
        bar = progress_bar(
            True, "exact search", total=None, bar_format="{desc}: {elapsed} {postfix}"
        )
        if first is not None:
            score0 = fam.total(first)
            bar.set_postfix_str(_progress_text(score0, candidates.upper_bound(), 0))
        model.includeEventhdlr(Progress(bar, offset), "progress", "progress line")
    timings["model"] = time.perf_counter() - start

    start = time.perf_counter()
    try:
        model.optimize()
        if bar is not None and model.getNSols():
            bar.set_postfix_str(_model_progress(model, offset))  # the last line: the result's
    finally:
        if bar is not None:
            bar.close()
    timings["search"] = time.perf_counter() - start
    status = model.getStatus()
    if status == "infeasible":
        raise ValueError(
            "No DAG can be built from these candidates: every choice of one parent set per "
            "variable contains a directed cycle (check required edges)."
        )
    if model.getNSols() == 0:
        raise RuntimeError(
            f"No network was found within the time limit ({time_limit} s); raise time_limit."
        )
    best = model.getBestSol()
    values = np.array([model.getSolVal(best, x) for x in xvars])
    choice = np.array(
        [fam.start[v] + int(np.argmax(values[fam.families(v)])) for v in range(fam.n)]
    )
    if not _cycle_free(fam, choice):  # pragma: no cover - SCIP's check guarantees it
        raise RuntimeError("SCIP returned a network with a cycle; please report this.")
    score = fam.total(choice)
    optimal = status == "optimal"
    dual = model.getDualbound()
    bound = score if optimal else _sound_bound(dual, offset, score, model.infinity())
    variables = candidates.variables
    parents = {
        variables[v]: tuple(variables[p] for p in fam.parents[choice[v]]) for v in range(fam.n)
    }
    return SolverResult(
        variables=variables,
        parents=parents,
        choice=tuple(int(choice[v] - fam.start[v]) for v in range(fam.n)),
        score=score,
        bound=float(bound),
        gap=0.0 if optimal else _gap(score, bound),
        optimal=optimal,
        status=status,
        engine=f"scip {pyscipopt.__version__}",
        timings=timings,
        n_cuts=conshdlr.n_cuts,
    )
