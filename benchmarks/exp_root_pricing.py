"""Experiment (issue 17): a Lagrangian bound for many candidates, by row and column generation.

Not a benchmark and not part of the package: the measurement behind the next step for
pathfinder with 3 parents (109 variables, fNML, N = 1000, 1,162,515 candidates), where
the solver's root LP over every candidate barely moves in 600 s (14.7% from proven).
The figures are in ``benchmarks/README.md`` ("Root pricing for many candidates").

Run::

    python benchmarks/exp_root_pricing.py                      # pathfinder, p3, 780 s
    python benchmarks/exp_root_pricing.py --network hepar2 --seconds 120

Method. Families are relative to their variable's best (``loss <= 0``). For cluster
constraints written as "some member of C has no parent in C",
``sum_{v in C} sum_{P: P cap C empty} x_{v,P} >= 1``, and any multipliers ``y >= 0``,
every network satisfies

.. math::

    \\text{score} \\le L(y) = \\sum_v \\max_{P} \\Big(\\text{loss}(v,P)
    + \\sum_{C \\ni v,\\, P \\cap C = \\emptyset} y_C\\Big) - \\sum_C y_C,

and a network with family ``(v, P)`` scores at most ``L(y)`` minus the shortfall of
``(v, P)`` from its variable's maximum: families below the best network found can be
dropped. The parents here are the families' ``preds`` and the families that put
a later member of a class of interchangeable variables first are left out, so the bound
is over the networks that keep those classes in order, among which some optimal one is
(:mod:`pgmpy_nml.search.candidates._symmetry`).

The bound holds for every ``y >= 0``; the work is in finding a good one. Here
``y`` are the cut duals of a restricted LP (a subset of the families, solved warm by
SCIP's LP interface, SoPlex): cluster cuts are separated on it (the package's peeling,
then its sub-IP) until none is violated, then every family is priced against ``y`` and
the best ``--top`` of each variable with a positive reduced cost join the LP. The
restricted LP starts from the top 30 families of each variable, the first network (the
iterated order search) and, with ``--small``, every family with at most that many
parents (its ``preds``, as everywhere here: a later member of a class of interchangeable
variables counts the member before it, so its empty parent set has one): without those,
the duals of the restricted LP put large multipliers on clusters that families outside
it avoid, and ``L(y)`` stays above the trivial bound.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench_solver import peak_rss_mb  # noqa: E402


def _kernels():
    from numba import njit

    @njit
    def cut_weights(start, padded, size, ptr, members, y, n, out):
        """``out[f] += y_C`` for every cut ``C`` with ``y_C > 0`` that family ``f``'s
        child is in and its parents avoid."""
        inside = np.zeros(n + 1, np.bool_)  # the last entry: the padding (-1)
        for c in range(y.size):
            if y[c] <= 0:
                continue
            for k in range(ptr[c], ptr[c + 1]):
                inside[members[k]] = True
            for k in range(ptr[c], ptr[c + 1]):
                v = members[k]
                for f in range(start[v], start[v + 1]):
                    hit = False
                    for t in range(size[f]):
                        if inside[padded[f, t]]:
                            hit = True
                            break
                    if not hit:
                        out[f] += y[c]
            for k in range(ptr[c], ptr[c + 1]):
                inside[members[k]] = False
        return out

    return cut_weights


def lagrangian(fam, value, cuts, y, cut_weights):
    """``(L(y), adjusted family values, per-variable maxima)``."""
    ptr = np.zeros(len(cuts) + 1, np.int64)
    ptr[1:] = np.cumsum([len(c) for c in cuts])
    members = np.array([v for c in cuts for v in c], np.int64)
    w = np.zeros(len(fam))
    if cuts:
        cut_weights(fam.start, fam.padded, fam.size, ptr, members, y, fam.n, w)
    adjusted = value + w
    best = np.maximum.reduceat(adjusted, fam.start[:-1])
    return math.fsum(best) - math.fsum(y), adjusted, best


class RestrictedLP:
    """The LP over a subset of the families and the cuts found so far (SoPlex, warm)."""

    def __init__(self, fam):
        from pyscipopt import LP

        self.fam = fam
        self.lp = LP("restricted", sense="maximize")
        self.lp.addRows([[] for _ in range(fam.n)], lhss=[1.0] * fam.n, rhss=[1.0] * fam.n)
        self.cols: list[int] = []
        self.cuts: list[list[int]] = []
        self._inside = np.zeros(fam.n + 1, dtype=bool)

    def _avoiding(self, families, cluster):
        # positions in ``families`` of those whose child is in ``cluster`` and whose preds
        # avoid it: ``_clusters._cluster_families`` over a subset, which here stays a few
        # thousand families where the whole candidate set is a million
        fam, inside = self.fam, self._inside
        inside[:] = False
        inside[cluster] = True
        return np.flatnonzero(inside[fam.child[families]] & ~inside[fam.padded[families]].any(1))

    def add_families(self, families):
        families = np.asarray(families, dtype=np.int64)
        entries = [[(int(self.fam.child[f]), 1.0)] for f in families]
        for k, cluster in enumerate(self.cuts):
            for j in self._avoiding(families, cluster):
                entries[j].append((self.fam.n + k, 1.0))
        m = len(families)
        objs = [float(self.fam.loss[f]) for f in families]
        self.lp.addCols(entries, objs=objs, lbs=[0.0] * m, ubs=[1.0] * m)
        self.cols.extend(int(f) for f in families)

    def add_cuts(self, clusters):
        cols = np.array(self.cols)
        rows = [[(int(j), 1.0) for j in self._avoiding(cols, c)] for c in clusters]
        inf = self.lp.infinity()
        self.lp.addRows(rows, lhss=[1.0] * len(rows), rhss=[inf] * len(rows))
        self.cuts.extend(clusters)

    def solve(self):
        value = self.lp.solve(dual=True)
        x = np.zeros(len(self.fam))
        x[np.array(self.cols)] = self.lp.getPrimal()
        duals = np.array(self.lp.getDual())[self.fam.n :]
        return value, x, duals


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--network", default="pathfinder")
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--parents", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=780.0, help="for the bound")
    parser.add_argument("--top", type=int, default=200, help="families priced in per round")
    parser.add_argument(
        "--small", type=int, default=1, help="first LP: the families with at most this many preds"
    )
    args = parser.parse_args(argv)

    from pgmpy_nml import FNML
    from pgmpy_nml.datasets import sample_network
    from pgmpy_nml.search.candidates import candidate_parent_sets
    from pgmpy_nml.search.candidates._clusters import _most_violated_clusters, _violated_clusters
    from pgmpy_nml.search.candidates._families import _checked_families
    from pgmpy_nml.search.candidates._heuristics import (
        ORDER_ROUNDS,
        _greedy,
        _improve,
        _order_search,
    )

    cut_weights = _kernels()
    print(f"load average at start: {os.getloadavg()}", flush=True)
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, data = sample_network(args.network, args.n, random_state=0)
    candidates, _ = candidate_parent_sets(FNML(data), max_parents=args.parents)
    fam = _checked_families(candidates)
    out = fam.out_of_order()
    value = np.where(out, -np.inf, fam.loss)
    first = _improve(fam, _greedy(fam))
    deadline = time.perf_counter() + 15
    first = _order_search(fam, first, seed=0, rounds=ORDER_ROUNDS, deadline=deadline)
    network = math.fsum(fam.loss[first])
    absolute = math.fsum(fam.best)
    print(
        f"{args.network} p{args.parents} N={args.n}: {len(fam)} candidates, first network "
        f"{network + absolute:.2f}, scoring and first network {time.perf_counter() - start:.1f} s",
        flush=True,
    )

    chosen = np.zeros(len(fam), dtype=bool)
    for v in range(fam.n):
        chosen[fam.start[v] : min(fam.start[v + 1], fam.start[v] + 30)] = True
    if args.small >= 0:
        chosen |= fam.size <= args.small
    chosen[out] = False
    chosen[first] = True
    lp = RestrictedLP(fam)
    lp.add_families(np.flatnonzero(chosen))
    known: set[tuple[int, ...]] = set()
    best_bound, best_y = 0.0, np.zeros(0)
    begin, lp_seconds, round_ = time.perf_counter(), 0.0, 0
    while time.perf_counter() - begin < args.seconds:
        round_ += 1
        while True:
            t = time.perf_counter()
            lp_value, x, duals = lp.solve()
            lp_seconds += time.perf_counter() - t
            new = [c for c in _violated_clusters(fam, x) if tuple(c) not in known]
            if not new:
                new = [c for c in _most_violated_clusters(fam, x) if tuple(c) not in known]
            if not new or time.perf_counter() - begin > args.seconds:
                break
            known.update(map(tuple, new))
            lp.add_cuts(new)
        y = np.maximum(-duals, 0.0)  # SoPlex's duals of >= rows of a maximization are <= 0
        bound, adjusted, _ = lagrangian(fam, value, lp.cuts, y, cut_weights)
        if bound < best_bound:
            best_bound, best_y = bound, y
        inside = np.full(len(fam), -np.inf)
        inside[lp.cols] = adjusted[lp.cols]
        restricted = np.maximum.reduceat(inside, fam.start[:-1])
        # L(y) over the restricted families is the LP's value: the duals' sign is right
        assert abs(math.fsum(restricted) - math.fsum(y) - lp_value) < 1e-6 * (1 + abs(lp_value))
        reduced = adjusted - restricted[fam.child]
        priced = np.flatnonzero((reduced > 1e-9) & ~chosen)
        priced = priced[np.lexsort((-reduced[priced], fam.child[priced]))]
        child = fam.child[priced]
        priced = priced[np.arange(priced.size) - np.searchsorted(child, child) < args.top]
        chosen[priced] = True
        if priced.size:
            lp.add_families(priced)
        gap = (best_bound - network) / abs(network + absolute)
        print(
            f"round {round_}: {time.perf_counter() - begin:.0f} s (LP {lp_seconds:.0f} s), "
            f"{len(lp.cols)} families, {len(lp.cuts)} cuts, restricted LP "
            f"{lp_value + absolute:.2f}, L(y) {bound + absolute:.2f}, best "
            f"{best_bound + absolute:.2f}, gap {gap:.3%}, priced in {priced.size}",
            flush=True,
        )
        if not priced.size and not new:
            break
    bound, adjusted, best = lagrangian(fam, value, lp.cuts, best_y, cut_weights)
    kept = bound - (best[fam.child] - adjusted) >= network - 1e-6
    kept[first] = True
    print(
        f"bound {bound + absolute:.2f}: {int(kept.sum())} of {len(fam)} families can be in a "
        f"network above the first one; peak {peak_rss_mb():.0f} MB; load {os.getloadavg()}",
        flush=True,
    )


if __name__ == "__main__":
    main()
