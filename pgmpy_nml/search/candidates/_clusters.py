r"""Cluster constraints of a DAG over candidate families: the initial ones and the cuts.

A set :math:`C` of variables is a *cluster*; in a DAG at least one member has no
parent inside :math:`C`. The solver (:mod:`._solver`, whose notes give the model)
starts with the two-variable clusters and GOBNILP's set-packing constraints, and
separates the others (:func:`_separated_clusters`): each strongly connected component
of the LP support graph is peeled greedily, the shortest cycle through each variable is
found in that graph with arc lengths one minus the arc's LP value, and every violated
cluster met is a cut. Root pricing (:mod:`._pricing`) also improves the peeling's
clusters by a local search (:func:`_local_clusters`) before it runs the sub-IP.

A family's parents here are its ``preds`` (:class:`._families._Families`): its parents
and, where a class of interchangeable variables is kept in order, the member before
its child, so the cuts also keep the classes in order.
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import connected_components, dijkstra

from ..._jit import njit
from ._families import _Families

__all__: list[str] = []

#: Smallest violation for a cluster cut to be added.
_CUT_EPS = 1e-6

#: Added to every arc's length in the search for short cycles (:func:`_cycle_clusters`),
#: so that among cycles of the same LP length the one with fewer arcs is found.
_ARC_TIE = 1e-4


def _most_violated_first(found: dict[tuple[int, ...], float]) -> list[list[int]]:
    """The clusters of ``found`` (each mapped to its violation) as lists, most violated
    first, ties in the clusters' order."""
    return [list(c) for c in sorted(found, key=lambda c: (-found[c], c))]


class _SupportGraph(NamedTuple):
    """The support of an LP solution ``x`` and its graph (:func:`_support_graph`)."""

    #: The families above ``eps``, ascending (so by child).
    rows: np.ndarray
    #: The arcs ``tail[i] -> head[i]``, one per family of ``rows`` and variable its child
    #: must come after (``preds``), ordered by family then ``tail``.
    tail: np.ndarray
    head: np.ndarray
    #: Each arc's family's value in ``x``.
    weight: np.ndarray


def _support_graph(fam: _Families, x, eps) -> _SupportGraph:
    """The support of ``x`` (families above ``eps``) and its graph's arcs, once per LP
    solution for every separation routine that reads them (their ``support=``, given
    with the same ``x`` and ``eps``)."""
    rows = np.flatnonzero(x > eps)
    k, tail = fam.arcs(rows)
    return _SupportGraph(rows, tail, fam.child[rows][k], x[rows][k])


def _support_components(fam: _Families, x, eps, support: _SupportGraph | None = None):
    """The support of ``x`` (families above ``eps``) and the strongly connected
    components of its graph (edge ``u -> v`` when some family of ``v`` with ``u`` among
    its parents is in the support): ``(support rows, n_components, label)``.
    ``support``: :func:`_support_graph`'s, if computed already."""
    n = fam.n
    rows, tail, head, _ = _support_graph(fam, x, eps) if support is None else support
    graph = csr_matrix((np.ones(tail.size), (tail, head)), shape=(n, n))
    n_comp, label = connected_components(graph, directed=True, connection="strong")
    return rows, n_comp, label


def _support_arrays(fam: _Families, x, eps, support: _SupportGraph | None = None):
    """The support of ``x`` for the numba kernels: ``(n_components, label, kernel)``,
    ``kernel`` being ``(xs, child, padded, size, own, ptr, idx)`` of the families above
    ``eps`` (``own[v]:own[v + 1]`` are ``v``'s; ``ptr``, ``idx``: :func:`_by_parent`),
    or None for an empty support. ``support``: :func:`_support_graph`'s, if computed."""
    n = fam.n
    rows, n_comp, label = _support_components(fam, x, eps, support)
    if rows.size == 0:
        return None
    child = fam.child[rows]
    padded = fam.padded[rows]
    size = fam.size[rows]
    ptr, idx = _by_parent(n, padded, size)
    own = np.searchsorted(child, np.arange(n + 1))  # the support is sorted by child
    return n_comp, label, (x[rows].astype(np.float64), child, padded, size, own, ptr, idx)


def _peelings(fam: _Families, x, eps, multi, support: _SupportGraph | None = None):
    """Each peeling of :func:`_violated_clusters`: ``(violation, cluster mask, kernel)``
    (``kernel``: :func:`_support_arrays`), violated or not."""
    arrays = _support_arrays(fam, x, eps, support)
    if arrays is None:
        return
    n_comp, label, kernel = arrays
    for c in range(n_comp):
        members = np.flatnonzero(label == c)
        if members.size < 2:
            continue
        viols, masks = _peel(fam.n, members, multi, *kernel)
        for viol, inside in zip(viols.tolist(), masks, strict=True):
            yield viol, inside, kernel


def _violated_clusters(fam: _Families, x, eps=_CUT_EPS, multi=True, support=None):
    """Clusters whose constraint ``x`` violates by more than ``eps`` (sorted lists of variables).

    Each strongly connected component of the support graph of ``x`` (edge
    ``u -> v`` when some family of ``v`` with ``u`` among its parents has
    positive value) is peeled one variable at a time, removing the variable
    with the least value on families that have a parent in the cluster, and
    the most violated cluster met is kept. With ``multi``, the peeling is
    repeated with each variable of the component held in the cluster, which
    gives up to one cut per variable instead of one per component. ``support``:
    :func:`_support_graph`'s, if computed already.
    """
    found: dict[tuple[int, ...], float] = {}
    for viol, inside, _ in _peelings(fam, x, eps, multi, support):
        if viol > eps:
            found.setdefault(tuple(np.flatnonzero(inside).tolist()), viol)
    return _most_violated_first(found)


def _local_clusters(fam: _Families, x, eps=_CUT_EPS, support=None):
    """Violated clusters of a local search from the peeling's: each cluster a peeling
    of :func:`_violated_clusters` (with ``multi``) ends with, violated or not, is
    improved by adding or removing one variable at a time (:func:`_climb`); those
    violated by more than ``eps``, sorted lists of variables, most violated first.

    The separation between the peeling and the sub-IP
    (:func:`_most_violated_clusters`), for the rounds where the peeling and the short
    cycles find no new cluster; measured in :mod:`._pricing`'s notes. ``support``:
    :func:`_support_graph`'s, if computed already."""
    found: dict[tuple[int, ...], float] = {}
    starts: set[tuple[int, ...]] = set()
    for _, inside, kernel in _peelings(fam, x, eps, True, support):
        start = tuple(np.flatnonzero(inside).tolist())
        if start in starts:
            continue
        starts.add(start)
        viol = _climb(fam.n, inside, *kernel)
        if viol > eps:
            found.setdefault(tuple(np.flatnonzero(inside).tolist()), viol)
    return _most_violated_first(found)


def _separated_clusters(fam: _Families, x, eps=_CUT_EPS, support=None):
    """The violated clusters of the greedy peeling (:func:`_violated_clusters`) and then
    those of the shortest cycles (:func:`_cycle_clusters`) not already among them, both
    from one :func:`_support_graph` (``support``, if computed already)."""
    if support is None:
        support = _support_graph(fam, x, eps)
    clusters = _violated_clusters(fam, x, eps, support=support)
    met = set(map(tuple, clusters))
    cycles = _cycle_clusters(fam, x, eps, support=support)
    return clusters + [c for c in cycles if tuple(c) not in met]


def _cycle_clusters(fam: _Families, x, eps=_CUT_EPS, support=None):
    r"""Violated clusters made of the variables of a short directed cycle of the LP
    support graph: at most one per variable, sorted lists, most violated first.

    The arc :math:`u \to v` has the weight :math:`w_{uv} = \sum_{P \ni u} x_{v,P}` (at
    most 1: the values of :math:`v`'s families sum to 1) and the length
    :math:`1 - w_{uv}`. For the variables :math:`C` of a directed cycle of length
    :math:`L`, every member :math:`v` has its predecessor :math:`u` on the cycle in
    :math:`C`, so the families of :math:`v` with a parent in :math:`C` take at least
    :math:`w_{uv}`, and the violation of :math:`C` is at least
    :math:`\sum_{(u, v)} w_{uv} - (|C| - 1) = 1 - L`: a cycle shorter than 1 gives a
    violated cluster.

    Why it is needed: the greedy peeling returns one cluster per strongly connected
    component, which for an integer LP solution with cycles is the whole component
    (violated by exactly 1, as each of its cycles is). On andes (223 variables, 65,318
    candidates, fNML, N = 1000, 3 parents) the root's first LP solutions were integer,
    with one component of 199 variables: each round added that component (the sub-IP's
    best is no better) and the LP moved on to another network with cycles, so the bound
    rose by about 0.1 a round, -90,293 after 80 s. The shortest cycles gave 114 cuts at
    the first round (most on three variables) and -94,452 after 83 s.

    The shortest cycle through each variable ``v`` is the shortest path from ``v`` to a
    predecessor ``u`` plus the arc ``u -> v`` (Dijkstra from every variable up to length
    1, over the arcs shorter than 1, each lengthened by :data:`_ARC_TIE` to prefer fewer
    arcs); the violation of its cluster is then computed exactly and kept above ``eps``.
    ``support``: :func:`_support_graph`'s, if computed already.
    """
    n = fam.n
    _, arc_tail, arc_head, arc_value = _support_graph(fam, x, eps) if support is None else support
    weight = np.zeros((n, n))  # summed over the families of each arc
    np.add.at(weight, (arc_tail, arc_head), arc_value)
    tail, head = np.nonzero(weight > eps)
    length = 1.0 - np.minimum(weight[tail, head], 1.0) + _ARC_TIE
    short = length < 1.0
    tail, head, length = tail[short], head[short], length[short]
    if tail.size == 0:
        return []
    graph = csr_matrix((length, (tail, head)), shape=(n, n))
    # paths of length 1 or more close no cycle shorter than 1: not searched (2.2-2.4 times
    # faster on nips, 500 variables)
    dist, pred = dijkstra(graph, directed=True, return_predecessors=True, limit=1.0)
    cycle = dist[head, tail] + length  # through the arc tail -> head, back from head
    done = np.zeros(n, dtype=bool)
    found: dict[tuple[int, ...], float] = {}
    nonzero = np.flatnonzero(x)
    for k in np.argsort(cycle, kind="stable"):
        if cycle[k] >= 1.0:
            break
        u, v = int(tail[k]), int(head[k])
        if done[v]:
            continue
        done[v] = True
        path = [u]
        while path[-1] != v:
            path.append(int(pred[v, path[-1]]))
        cluster = tuple(sorted(path))
        if cluster not in found:
            viol = _violation(fam, x, cluster, nonzero)
            if viol > eps:
                found[cluster] = viol
    return _most_violated_first(found)


@njit(cache=True)
def _by_parent(n, parents, size):
    """The support's families by parent, as compressed rows: those with parent ``u``
    are ``idx[ptr[u]:ptr[u + 1]]``."""
    ptr = np.zeros(n + 1, dtype=np.int64)
    for s in range(size.size):
        for t in range(size[s]):
            ptr[parents[s, t] + 1] += 1
    for u in range(n):
        ptr[u + 1] += ptr[u]
    fill = ptr[:-1].copy()
    idx = np.empty(ptr[n], dtype=np.int64)
    for s in range(size.size):
        for t in range(size[s]):
            u = parents[s, t]
            idx[fill[u]] = s
            fill[u] += 1
    return ptr, idx


@njit(cache=True)
def _peel(n, members, multi, xs, child, parents, size, own, ptr, idx):
    """The greedy peelings of one component (see :func:`_violated_clusters`):
    ``(viols, masks)``, the largest violation met by each and its cluster as a mask.
    Row 0 is the peeling that may remove any member; with ``multi``, row ``1 + i`` is
    the one that never removes ``members[i]`` (``members`` sorted).

    ``inner[v]`` is the value on ``v``'s families (``own[v]:own[v + 1]`` of the support)
    with a parent in the cluster. Removing ``r`` takes one parent inside from each
    family with ``r`` among its parents (``ptr``, ``idx``: :func:`_by_parent`), and
    only the members left with a family at none have ``inner`` summed again, in the
    same order as ever (so the sums, hence the clusters, are those of summing every
    ``inner`` afresh at each step, which cost the members times the support).

    The peeling that keeps ``v`` removes the same members as the first one until the
    first one removes ``v``; so it goes on from a copy of the first one's state at that
    step, and the member the first one never removes has the first one's peeling. That
    halves the steps of the ``len(members) + 1`` peelings (on nips, 500 variables, the
    peelings took three quarters of root pricing).

    A peeling stops where no cluster left to it can beat its best (:func:`_peel_bound`),
    and a peeling that keeps ``v`` is not started where none of its clusters could; the
    members it has left are the cluster's, in increasing order, in ``alive[:k]``."""
    inside = np.zeros(n, dtype=np.bool_)
    for m in members:
        inside[m] = True
    count = np.zeros(xs.size, dtype=np.int64)
    inner = np.zeros(n)
    for m in members:
        for s in range(own[m], own[m + 1]):
            for t in range(size[s]):
                if inside[parents[s, t]]:
                    count[s] += 1
            if count[s] > 0:
                inner[m] += xs[s]
    rows = members.size + 1 if multi else 1
    viols = np.full(rows, -np.inf)
    masks = np.zeros((rows, n), dtype=np.bool_)
    alive = members.copy()
    scratch = np.zeros(n, dtype=np.int64)  # for _peel_remove
    best = masks[0]
    best[:] = inside
    best_viol = -np.inf
    k = members.size
    while k >= 2:
        viol, r, top, second, pos = _peel_scan(alive, k, -1, inner)
        if viol > best_viol + 1e-12:
            best[:] = inside
            best_viol = viol
        if _peel_bound(top, second, pos, k) <= best_viol:
            break  # no cluster left beats the best, so neither does any peeling to come
        if multi:  # the peeling that keeps r, from here
            i = 1 + np.searchsorted(members, r)
            kept = masks[i]
            kept[:] = best
            viols[i] = best_viol
            # ``top``, the largest, is another member's too: ``r`` has the smallest
            if _peel_bound(inner[r], top, pos, k) > best_viol:
                viols[i] = _peel_on(
                    alive[:k].copy(), r, k, inside.copy(), count.copy(), inner.copy(), kept,
                    best_viol, xs, child, own, ptr, idx, scratch,
                )  # fmt: skip
        k = _peel_remove(r, alive, k, inside, count, inner, xs, child, own, ptr, idx, scratch)
    viols[0] = best_viol
    if multi:  # the members never removed
        for i in range(members.size):
            if inside[members[i]]:
                viols[1 + i] = best_viol
                masks[1 + i] = best
    return viols, masks


@njit(cache=True)
def _peel_on(
    alive, keep, k, inside, count, inner, best, best_viol, xs, child, own, ptr, idx, scratch
):
    """Goes on with a peeling of :func:`_peel` (never removing ``keep``) from its state
    with ``k`` members inside; ``best`` is updated in place; returns the largest violation."""
    while k >= 2:
        viol, r, top, _, pos = _peel_scan(alive, k, keep, inner)
        if viol > best_viol + 1e-12:
            best[:] = inside
            best_viol = viol
        if _peel_bound(inner[keep], top, pos, k) <= best_viol:
            break
        k = _peel_remove(r, alive, k, inside, count, inner, xs, child, own, ptr, idx, scratch)
    return best_viol


@njit(cache=True)
def _peel_scan(alive, k, keep, inner):
    """One pass over a peeling's ``k`` members in increasing order: ``(viol, r, top,
    second, pos)``, its violation now (their ``inner`` summed in that order), the member
    it removes next (the first of the smallest ``inner``, not ``keep``), the two largest
    ``inner`` of the members but ``keep``, and all members' ``inner`` above 1 summed."""
    viol = -(k - 1.0)
    r = -1
    top = second = -np.inf
    pos = 0.0
    for j in range(k):
        v = alive[j]
        a = inner[v]
        viol += a
        if a > 1.0:
            pos += a - 1.0
        if v == keep:
            continue
        if r < 0 or a < inner[r]:
            r = v
        if a > top:
            second = top
            top = a
        elif a > second:
            second = a
    return viol, r, top, second, pos


@njit(cache=True)
def _peel_bound(first, second, pos, k):
    """A bound on the violation of every cluster a peeling of ``k`` members ``A`` has
    left, plus a margin for the rounding of ``k`` sums of ``k`` terms.

    Such a cluster ``S`` has at least two members (one of them the kept member, if
    any), and its violation is ``1 + sum_{v in S} (inner_S(v) - 1)`` with ``inner_S(v)
    <= inner_A(v)`` (``inner`` falls only when members leave). So it is at most
    ``first + second - 1``, the kept member's ``inner`` and the largest of the others'
    (with none kept, the two largest), plus the other members' ``inner`` above 1
    (``pos`` sums it over all members, ``first`` and ``second`` included)."""
    rest = pos - max(first - 1.0, 0.0) - max(second - 1.0, 0.0)
    return first + second - 1.0 + rest + 1e-9 + 2.3e-16 * k * k


@njit(cache=True)
def _peel_remove(r, alive, k, inside, count, inner, xs, child, own, ptr, idx, dirty):
    """Removes ``r`` from a peeling's cluster (``alive[:k]``) and updates ``count`` and
    ``inner`` (``dirty``: scratch of the variables' size); returns the members left."""
    inside[r] = False
    at = np.searchsorted(alive[:k], r)
    for t in range(at, k - 1):
        alive[t] = alive[t + 1]
    m = 0  # the members whose inner is summed again: dirty[:m] (a child's families are
    # consecutive in ``idx``, so a member is there once)
    for j in range(ptr[r], ptr[r + 1]):
        s = idx[j]
        c = child[s]
        if inside[c]:
            count[s] -= 1
            if count[s] == 0 and (m == 0 or dirty[m - 1] != c):
                dirty[m] = c
                m += 1
    for j in range(m):
        c = dirty[j]
        total = 0.0
        for f in range(own[c], own[c + 1]):
            if count[f] > 0:
                total += xs[f]
        inner[c] = total
    return k - 1


@njit(cache=True)
def _climb(n, inside, xs, child, parents, size, own, ptr, idx):
    """Best-improvement local search over the clusters (see :func:`_local_clusters`),
    from ``inside`` (a mask, changed in place into the cluster it ends at): add or
    remove the variable that raises the violation most, while one raises it by more
    than 1e-9 and the cluster keeps two members; returns the last violation.

    With ``count[s]`` the parents of support family ``s`` inside the cluster, adding
    ``u`` gains ``u``'s families with a parent inside, and the members' families with
    ``u`` among their parents and none inside, less 1; removing ``u`` loses ``u``'s
    families with a parent inside, and the members' families whose one parent inside
    is ``u``, and gains 1. Each move raises the violation, so no cluster comes twice."""
    count = np.zeros(xs.size, dtype=np.int64)
    for s in range(xs.size):
        for t in range(size[s]):
            if inside[parents[s, t]]:
                count[s] += 1
    k = 0
    viol = 1.0
    for v in range(n):
        if inside[v]:
            k += 1
            viol -= 1.0
            for s in range(own[v], own[v + 1]):
                if count[s] > 0:
                    viol += xs[s]
    gain = np.zeros(n)
    while True:
        for u in range(n):  # u's own families, then its role as a parent
            g = 0.0
            for s in range(own[u], own[u + 1]):
                if count[s] > 0:
                    g += xs[s]
            gain[u] = -g + 1.0 if inside[u] else g - 1.0
        for u in range(n):
            for j in range(ptr[u], ptr[u + 1]):
                s = idx[j]
                if inside[child[s]]:
                    if inside[u] and count[s] == 1:
                        gain[u] -= xs[s]
                    elif not inside[u] and count[s] == 0:
                        gain[u] += xs[s]
        best, r = 1e-9, -1
        for u in range(n):
            if gain[u] > best and not (inside[u] and k <= 2):
                best, r = gain[u], u
        if r < 0:
            return viol
        viol += best
        add = not inside[r]
        inside[r] = add
        k += 1 if add else -1
        for j in range(ptr[r], ptr[r + 1]):
            count[idx[j]] += 1 if add else -1


def _most_violated_clusters(fam: _Families, x, eps=_CUT_EPS, time_limit=1.0, k=1, support=None):
    r"""The most violated cluster of each strongly connected component of the support
    graph of ``x``, by a sub-IP (GOBNILP's separation, Bartlett and Cussens 2017):
    sorted lists of variables, each violated by more than ``eps``, most violated first.
    With ``k`` above 1, the same for the ``k``-cluster constraints
    (:func:`_cluster_families`).

    For a component :math:`K`, with a binary :math:`I_v` per member (:math:`v \in C`)
    and :math:`y_f \in [0, 1]` per family :math:`f = (v, P)` of the support with
    :math:`v \in K` and at least :math:`k` parents in :math:`K`,

    .. math::

        \max \sum_f x_f\, y_f - \sum_{v \in K} I_v \quad \text{s.t.} \quad
        y_f \le I_v, \quad k\, y_f \le \sum_{u \in P \cap K} I_u, \quad
        \sum_{v \in K} I_v \ge k + 1,

    with :math:`y_f` binary when :math:`k > 1` (so that it is 0 below :math:`k`
    parents inside). At integer :math:`I`, :math:`y_f = 1` exactly on the families of
    :math:`C` with at least :math:`k` parents in :math:`C`, so the objective is the
    violation of :math:`C` minus :math:`k`, and only solutions above
    :math:`-k + \epsilon` are kept (SCIP's objective limit); every solution SCIP found
    above it gives a cut, its violation checked on all of ``x``.

    Why the components suffice for ``k = 1``: if a cluster :math:`C` meets two, let
    :math:`C_1` be its part in a component that no support edge from the rest of
    :math:`C` enters. The families of :math:`C_1`'s members with a parent in :math:`C`
    have it in :math:`C_1`, and each other member has at most 1 on families with a
    parent in :math:`C`, so the violation of :math:`C` is at most that of :math:`C_1`.
    For ``k`` above 1 that part may have :math:`k` members or fewer, where the argument
    fails: the search within each component is then a restriction (its clusters are
    violated, but one across components can be more so).

    A component's sub-IP stops after ``time_limit`` seconds with the solutions it has.
    The peeling (:func:`_violated_clusters`) misses clusters the sub-IP finds: on andes
    (223 variables, 17,148 candidates, fNML, N = 1000, 2 parents) the solver's root
    with both was 0.922% from proven after 600 s, with the peeling alone 2.72% after
    200 s and 2.36% after 600 s (two solvers). ``support``: :func:`_support_graph`'s,
    if computed already.
    """
    from pyscipopt import Model, quicksum

    _, n_comp, label = _support_components(fam, x, eps, support)
    found: dict[tuple[int, ...], float] = {}
    nonzero = np.flatnonzero(x)
    for c in range(n_comp):
        members = np.flatnonzero(label == c)
        if members.size < k + 1:
            continue
        rows, _ = _cluster_families(fam, members, among=nonzero, k=k)
        rows = rows[x[rows] > eps]  # those of the support
        if rows.size == 0:
            continue
        model = Model("cluster")
        model.hideOutput(True)
        model.setRealParam("limits/time", max(float(time_limit), 1e-3))
        member = {int(v): model.addVar(vtype="B", obj=-1.0) for v in members}
        for f in rows:
            y = model.addVar(lb=0.0, ub=1.0, obj=float(x[f]), vtype="C" if k == 1 else "B")
            model.addCons(y <= member[int(fam.child[f])])
            model.addCons(k * y <= quicksum(member[u] for u in fam.preds[f] if u in member))
        model.addCons(quicksum(member.values()) >= k + 1)
        model.setMaximize()
        model.setObjlimit(-k + eps)
        model.optimize()
        for sol in model.getSols():
            cluster = [v for v, var in member.items() if model.getSolVal(sol, var) > 0.5]
            viol = _violation(fam, x, cluster, nonzero, k)
            if viol > eps:
                found.setdefault(tuple(cluster), viol)
    return _most_violated_first(found)


def _pair_clusters(fam: _Families):
    """The two-variable cluster constraints that can bind: ``((u, v), families)`` where
    ``families`` are those of ``v`` containing ``u`` and of ``u`` containing ``v``, each
    part ascending; the pairs in order. From the arcs, sorted by pair, part and family
    (on nips, 723,051 candidates of 500 variables: 0.2-0.6 s of CPU, against 1.2-3.3 s
    with the families of each pair's two variables filtered by child, pair by pair)."""
    f, p = fam.arcs(slice(None))
    if f.size == 0:
        return []
    c = fam.child[f]
    lo, hi = np.minimum(p, c), np.maximum(p, c)
    part = p > c  # False: a family of hi containing lo; True: of lo containing hi
    pair = lo.astype(np.int64) * fam.n + hi
    order = np.argsort(2 * pair + part, kind="stable")  # the arcs come by family
    f, lo, hi, part, pair = f[order], lo[order], hi[order], part[order], pair[order]
    first = np.flatnonzero(np.r_[True, pair[1:] != pair[:-1]])
    last = np.r_[first[1:], f.size] - 1
    both = ~part[first] & part[last]  # the pair's first arc is of hi's, its last of lo's
    return [
        ((int(lo[a]), int(hi[a])), f[a : b + 1])
        for a, b in zip(first[both].tolist(), last[both].tolist(), strict=True)
    ]


def _set_packing(fam: _Families):
    """GOBNILP's set-packing constraints on 3 and 4 variables: ``(S, families)``.

    In a DAG at most one variable of a set ``S`` has all the others of ``S``
    as parents (the last of ``S`` in a topological order; parents are ``preds``
    here, see the module notes), so the families
    ``(v, P)`` with ``v`` in ``S`` and ``S - {v}`` inside ``P`` sum to at most 1.
    Only sets met by families of two or more variables are returned (the
    others follow from one family per variable).
    """
    groups: dict[tuple[int, ...], list[int]] = {}
    for f, parents in enumerate(fam.preds):
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


def _cluster_families(fam: _Families, cluster, among=None, k=1):
    r"""Families whose child is in ``cluster``: those with a parent in it (with ``k``, at
    least ``k`` parents), and the others (each in increasing order); with ``among``
    (increasing family indices), only those of ``among``.

    The ``k``-cluster constraint of a cluster :math:`C` with :math:`|C| > k` (Cussens
    2011) is

    .. math::

        \sum_{v \in C} \sum_{P:\, |P \cap C| \ge k} x_{v,P} \le |C| - k:

    in a topological order of a DAG, the :math:`j`-th member of :math:`C` has at most
    :math:`j - 1` parents in :math:`C`, so the first :math:`k` have fewer than
    :math:`k`. For :math:`k = 1` it is the cluster constraint, and GOBNILP's
    set-packing constraints (:func:`_set_packing`) are those with :math:`|C| = k + 1`.

    The parents are read from the padded parent lists of the cluster's own families, not
    from the families-by-variables mask: on pathfinder's 89,504 candidates the mask took
    5 ms a cut, a tenth of the root's time. Root pricing (:mod:`._pricing`) passes the few
    thousand families of its restricted LP as ``among``, out of a million candidates."""
    inside = np.zeros(fam.n + 1, dtype=bool)  # the last entry: the padding (-1)
    inside[np.asarray(cluster, dtype=np.int64)] = True
    if among is None:
        rows = np.flatnonzero(inside[fam.child])
    else:
        among = np.asarray(among, dtype=np.int64)
        rows = among[inside[fam.child[among]]]
    if k == 1:
        hit = inside[fam.padded[rows]].any(axis=1)
    else:
        hit = inside[fam.padded[rows]].sum(axis=1) >= k
    return rows[hit], rows[~hit]


def _violation(fam: _Families, x, cluster, nonzero=None, k=1) -> float:
    """How much ``x`` violates the (``k``-)cluster constraint of ``cluster``: its value on
    the families of the cluster's members with a parent (``k`` parents) inside, minus
    ``|C| - k``. ``nonzero``: the families where ``x`` is not 0 (``np.flatnonzero(x)``),
    to look only at those instead of every family of the members."""
    inner, _ = _cluster_families(fam, cluster, among=nonzero, k=k)
    return float(x[inner].sum()) - (len(cluster) - k)


def _cluster_row(fam: _Families, cluster, k=1):
    """The (``k``-)cluster constraint of ``cluster`` in the sparser of its two equivalent
    forms (given one family per variable): ``(families, lhs, rhs)``, either the families
    with a parent (``k`` parents) inside summing to at most ``|C| - k`` (``lhs`` None) or
    the others summing to at least ``k`` (``rhs`` None)."""
    inner, outer = _cluster_families(fam, cluster, k=k)
    if inner.size <= outer.size:
        return inner, None, len(cluster) - k
    return outer, k, None
