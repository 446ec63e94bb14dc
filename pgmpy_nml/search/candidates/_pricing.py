r"""Root pricing: a Lagrangian bound over every candidate, for very many candidates.

On pathfinder with 3 parents (109 variables, fNML, N = 1000, 1,162,515 candidates) the
solver's root LP over every candidate barely moves in 600 s (14.7% from proven). Here
the LP holds a few thousand families instead, and a bound over *all* of them comes from
its duals.

The bound. Write a cluster constraint as "some member of :math:`C` has no parent in
:math:`C`", :math:`\sum_{v \in C} \sum_{P:\, P \cap C = \emptyset} x_{v,P} \ge 1`, and
measure each family by its loss, its local score minus its variable's best. For any
multipliers :math:`y_C \ge 0` of a set of clusters,

.. math::

    \text{score} \le L(y) = \sum_v \max_P \Big(\text{loss}(v, P)
    + \sum_{C \ni v,\; P \cap C = \emptyset} y_C\Big) - \sum_C y_C

for every network, relative to the trivial bound (the sum of the best scores). Proof: a
network with families :math:`P_v` satisfies each cluster constraint, so each
:math:`y_C(\sum_{v \in C} [P_v \cap C = \emptyset] - 1)` is at least 0; adding them to
its score and regrouping by variable gives :math:`\sum_v (\text{loss}(v, P_v) + w_{v,
P_v}) - \sum_C y_C`, where :math:`w_{v,P}` is the sum of the multipliers of the clusters
that contain :math:`v` and that :math:`P` avoids, and each term is at most its
variable's maximum. Keeping the term of one family :math:`(u, Q)` instead of its maximum
gives the bound of the networks that contain it: :math:`L(y)` minus the *shortfall* of
:math:`(u, Q)`, its variable's maximum minus its own adjusted value. A family whose
bound is below a network already found is in no better network, and is dropped before
the branch and cut (*fixing*).

The parents here are the families' ``preds`` (:class:`._families._Families`), and the
families that put a later member of a class of interchangeable variables first are left
out (a value of :math:`-\infty`): the bound is over the networks that keep those classes
in order, acyclic with the precedence arcs added, so every cluster constraint holds with
the ``preds``; some optimal network is among them (:mod:`._symmetry`).

The bound holds for every :math:`y \ge 0`; the work is in finding a good one. ``y`` are
the cut duals of a *restricted LP*: the LP relaxation over a subset of the families and
the clusters found so far, solved warm by HiGHS's simplex (``highspy``). Clusters are
separated on its solution (the package's peeling and shortest cycles, then a local
search from the peeling's clusters, then its sub-IP, :mod:`._clusters`) and the LP is
solved again by the dual simplex. Every :data:`EVALUATE_SECONDS` the bound is evaluated
from the LP's multipliers (:mod:`._cluster_rows`: 0.6-0.8 s on baudio's 9.6 million
families), and every family is *priced*, its adjusted value set against its variable's
best in the LP, when no cut is violated or the LP's value is closer to the first network
than :data:`PRICE_RATIO` times its distance to the bound (the families outside the LP
then matter more than the cuts still missing). The best :data:`TOP` of each variable
with a positive reduced cost join the LP, which is solved next from the same basis.
With no cut violated and no family priced in, the restricted LP's optimum is the LP
relaxation's over every family and those cuts, and equals :math:`L(y)`.

The LP solver was SoPlex (PySCIPOpt's ``LP``) until 2026-12-04. With every operation of
root pricing mirrored on HiGHS, the two solved the same LPs to the same values (to
1.5e-6), HiGHS in 22.3 s of CPU where SoPlex took 66.9 s over plants fNML p2's 385 LPs
(147,358 candidates), and in 45.3 s against 205.8 s over baudio fNML p3's 113 (9.6
million; one LP of 1,142 rows and 15,935 columns: 0.9 s against 5.9 s). Root pricing
alone, the two side by side on the two cores (tuning half, ``benchmarks/README.md``, "Root
pricing's LP by HiGHS"), the bound above the best network known: baudio fNML p3 after 300
s 0.112% (238 LPs) against 0.279% (107); pathfinder BDeu(10) p3 after 300 s 0.567%
against 2.460%; plants fNML p2 after 150 s 0.112% against 0.312%; hailfinder N = 100
qNML p3 converged to the same bound after 113 s against 143 s. The rules below were
measured with SoPlex, but for :data:`SUB_IP_SECONDS`.

When the peeling and the short cycles find no new cut, each component's cluster sub-IP
runs for :data:`SUB_IP_SECONDS`. With the LP by HiGHS the sub-IP took most of root
pricing's time at 1 s (plants fNML p2: 106 of 150 s, 108 sub-IPs giving 1,367 cuts). At
0.25 s (root pricing alone, tuning half, ``benchmarks/README.md``, "Root pricing's cluster
sub-IP"), plants converged after 58 s at 0.107% above the best network known (1 s: 0.115%
after 150 s, not converged; 0.1 s: converged after 46 s at 0.117%), pathfinder BDeu(10)
p3 after 283 s at 0.528% (1 s: 0.529% after 300 s), hailfinder N = 100 qNML p3 after 37 s
at 0.544% (1 s: after 162 s at 0.471%). Retrying for 1 s when 0.25 s found no cut kept the
loop as long as 1 s did (plants: 0.129% after 150 s). In the whole solver (the suite, 600
s, one run each) the gaps at 0.25 s were: pathfinder BDeu(10) 0.468% (1 s: 0.662%),
hailfinder qNML 0.404% (0.400%), pathfinder BDeu(1) 0.226% (0.191%), plants fNML p2
0.018% (1 s: 0.008%). The tuning rows' worst gap and their sum of gaps were lower, so
0.25 s it is.

Where the peeling and the short cycles find no new cut, a local search comes before the
sub-IP (:data:`LOCAL_SEARCH`): each cluster a peeling ends with is improved by adding or
removing one variable at a time while the violation rises
(:func:`._clusters._local_clusters`, about 10 ms a call). It found new cuts at 97% of
its calls, so the sub-IP ran a fifth as often (191 times against 979 over the rows
below). Root pricing alone (tuning half, the two side by side on the two cores, 300 s at
most; ``benchmarks/README.md``, "A local search for clusters in root pricing"), the
bound above the best network known and when it converged, without -> with it:

- pathfinder qNML p3 (60,726 candidates): 0.090%, 69 s -> 0.020%, 40 s;
- digits binarized fNML p2 (28,563): 0.103%, 30 s -> 0.067%, 24 s;
- hailfinder N = 100 qNML p3: 0.562%, 35 s -> 0.472%, 54 s;
- pathfinder fNML p3: 0.096%, 121 s -> 0.000%, 141 s (the best network known proven);
- pathfinder BDeu(1) p3: 0.410%, 118 s -> 0.292%, 164 s;
- plants fNML p2: 0.115%, 81 s -> 0.043%, 271 s (2,392 LPs against 557);
- bnetflix fNML p2 and BDeu(1) p2: 0.019%, 87 s -> 0.012%, 218 s; 0.021%, 63 s -> 0.012%,
  145 s;
- baudio BDeu(1) p2: 0.040%, 114 s -> 0.030% after 300 s, not converged;
- pathfinder BDeu(10) p3, not converged after 300 s either way: 1.017% -> 0.821%;
- alarm N = 5000 BDeu(10) p3 and barley N = 500 fNML p3: the same bound.

Where it takes longer, it is the LP: more cuts make more rounds, and at the time the
other converged its bound was further away (plants 1.49%, bnetflix fNML 0.19%). In
branch and price's separation the same local search was measured and not kept
(:data:`._scip_plugins.EXACT_SECONDS`).

*Smoothing the multipliers* (the bound also at the midpoint of the best multipliers so
far and the LP's, as Wentges's smoothing in column generation) was measured at 4b8b584
and not kept: on the tuning half it was nearer on three rows, further on two and
slower to the same bound on one (``benchmarks/README.md``, "Smoothing root pricing's
multipliers").

Two rules keep the loop moving (measured on the suite's tuning half, two runs at a time on
the two cores, 150 s each: the bound after 150 s, from the best network known). *Purging*:
every :data:`PURGE_EVERY` rounds, the cuts whose multiplier was 0 at each of the last
:data:`PURGE_AGE` such checks leave the LP (a cluster at most :data:`PURGE_TIMES` times,
then it stays, so the loop ends); separated again, they come back. Without it the LP held
every cut ever found (on pathfinder BDeu(1), 6,903 after 87 s, 263 of them with a positive
multiplier), and a round of cuts took 0.40 s of SoPlex on average (350 rounds in 150 s;
with purging 0.20 s, 625 rounds). *Pricing on a stall*: families are also priced in when
an evaluation does not improve the bound; the restricted LP's value can fall far below
the bound while families outside it hold the bound up (plants: the LP at -43,042 relative
to the trivial bound after 150 s, the bound at -39,470 since 21 s). Together:
pathfinder fNML 0.261% from the best network (1.938% before), BDeu(1) 0.755% (4.702%),
BDeu(10) 4.500% (5.346%), plants with 2 parents 0.125% (1.518%); hailfinder N = 100 qNML
(492,146 candidates, only 22 of whose 150 s are spent in SoPlex) 0.525% (0.509%). They
also hold at 9.6 million candidates (baudio, fNML, 3 parents, 450 s: 0.452% above the
best network known, 0.892% without them).

A third rule purges *columns*. At each purge of the cuts, the columns at 0 in each of
the last :data:`PURGE_COLUMNS` such checks leave the LP too, if they are not basic, so the
last solution stays optimal. The same :data:`PURGE_TIMES` limit applies, and a column
that leaves may be priced in again. The families without parents always stay: every
cluster row keeps one of them, so the LP stays feasible whatever cuts come. The rule was
measured on the tuning half, root pricing alone for 300 s beside another run, as the
bound's distance from the first network:

- pathfinder BDeu(10) p3: 483 nats against 1,134 (607 in a second run, nearly alone).
  That is 2,501 LP rounds against 239; the LP ended with 7,764 columns against 26,406,
  and SoPlex took 246 s against 276 s.
- pathfinder fNML p3: both converged, after 189 s and 192 s, at 42.8 nats against 48.9,
  with 3,200 columns against 12,499. The fixing kept 138,647 families against 172,799.

The bound-first solver alone (root pricing, then branch and price from its columns), the
two settings side by side, as the bound's distance above the best network known:

- plants fNML p2, 450 s: 0.0153% against 0.0447%;
- bnetflix fNML p2, 450 s: 0.0244% against 0.0322%;
- hailfinder N = 100 qNML p3, 300 s: the bound 0.17 nats weaker (-5,056.97 against
  -5,057.13), though root pricing took 158 s to converge against 92 s;
- nips fNML p2, 300 s (root pricing throughout): the bound 1.1 nats stronger.

The cuts stay in their ``>=`` form, though SCIP's model writes each in the sparser of its
two forms: chosen over the LP's columns, the sparser form left SoPlex's seconds unchanged
on baudio and pathfinder BDeu(10) and ended their bounds further from the best network
(0.435% against 0.409%, 4.443% against 4.220%), nearer only on pathfinder fNML (0.069%
against 0.137%) (``benchmarks/README.md``, "The tuning half's largest rows").

Fewer families per pricing round helped on one tuning row of a million candidates and
hurt on the other (root pricing alone, 300 s, two runs side by side; the bound's distance
from the first network): :data:`TOP` 50 left pathfinder BDeu(10) (1,539,826 candidates)
991 nats away against 1,221 with 200, pathfinder fNML (1,166,739) 42.2 nats and not
converged against 20.5 and converged; so it stays at 200. There SoPlex takes most of the
time: 276 of the 300 s on pathfinder BDeu(10).

The restricted LP starts from the top :data:`FIRST_TOP` families of each variable, the
first network and every family with at most :data:`SMALL` parents. Without the small
families the duals are useless: the LP puts large multipliers on clusters that families
outside it avoid, and :math:`L(y)` stays above the trivial bound; the empty and
one-parent sets limit each variable's total multiplier.

Measured on pathfinder with 3 parents (two runs at a time on the two cores, 450 s each,
from the iterated order search's network, -30,514.21): the bound ended 0.478% from that
network with :data:`PRICE_RATIO` 1 (0.663% after 385 s), 0.721% with 2, 0.857% with 0.5
and 1.17% with 0.1, against 14.7% from the solver after 600 s. Pricing only when no cut
was violated, the first cut loop had not ended after 450 s (800 LPs, 18,946 cuts: 4.96%);
pricing every 5 rounds of cuts, 3.68%; solving by the dual simplex after the families
joined, one LP took 60 s to over 160 s instead of 20 s. At 0.478%, 521,677 of the
1,162,515 families are kept. On hepar2 (2,698 candidates) the solver proves the optimum
in 23.5 s, when pricing is still 0.42% away after 60 s: so the solver prices only from
:data:`PRICING_MIN_CANDIDATES` candidates on. That was 200,000 until the suite's tuning
half (``benchmarks/bench_suite.py``, 600 s, two solvers) left its two instances between
100,000 and 200,000 candidates at 0.886% (plants with 2 parents, 147,358 candidates) and
3.259% (pathfinder BDeu(1), 158,830). Alone on one core for 150 s beside other work (load
3-4), pricing bounded them 0.75% and 2.6% from the best network, SCIP's model 4.08% and
4.2%; in the suite with pricing from 100,000 on, 0.101% and 0.427%. The tuning instance
below them, pathfinder qNML (60,726), is proven by the solver in 383 s. Once branch and
price (:mod:`._branch_price`) went on after pricing, it proved such instances sooner
too, but where a variable has only a few dozen candidates pricing's cut loop did not
converge (andes BIC): so the solver also prices from :data:`PRICING_MIN_PER_VARIABLE`
candidates per variable on (:func:`prices_root`; the figures are in
:mod:`._branch_price`'s notes). Andes (223 variables) prices badly whatever its
candidates: BDeu(10), 237,643 candidates, the bound-first solver alone for 300 s ended
2.92% above the best known network priced and 0.61% with SCIP's model over every
candidate (in 150 s of root pricing: 426 LPs, 17,575 cuts, only 6 pricing rounds, and
the bound 2,862 nats from the first network's score; with HiGHS and the 0.25 s sub-IP,
the whole solver for 600 s ended 0.620% above the best network priced, 0.550% with SCIP's
model). Nips (500 variables, 715,899 candidates, 600 s) the other way: 0.082% priced,
2.116% unpriced, whose root LP over every candidate was not solved. So above
:data:`PRICING_MAX_VARIABLES` (150) variables the solver prices only from
:data:`PRICING_MIN_CANDIDATES_MANY` (400,000) candidates on, between andes and nips; no
other instance of the tuning half has more than 109 variables.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ._cluster_rows import ClusterRows
from ._clusters import (
    _CUT_EPS,
    _cluster_families,
    _local_clusters,
    _most_violated_clusters,
    _separated_clusters,
    _support_graph,
)
from ._families import _Families

__all__: list[str] = []

#: The bound-first solver prices at its root from this many candidates on ...
PRICING_MIN_CANDIDATES = 100_000
#: ... and from this many per variable on (:func:`prices_root`) ...
PRICING_MIN_PER_VARIABLE = 100
#: ... but above this many variables only from :data:`PRICING_MIN_CANDIDATES_MANY`
#: candidates on (andes, 223 variables, prices badly; nips, 500, needs it).
PRICING_MAX_VARIABLES = 150
#: See :data:`PRICING_MAX_VARIABLES`.
PRICING_MIN_CANDIDATES_MANY = 400_000
#: Families of each variable priced into the restricted LP per round, at most.
TOP = 200
#: The restricted LP's first families: the best this many of each variable ...
FIRST_TOP = 30
#: ... and every family with at most this many parents.
SMALL = 1
#: Seconds between two evaluations of the bound during the cut loop, at least (and ten
#: times an evaluation's own).
EVALUATE_SECONDS = 10.0
#: At an evaluation, families are priced in once the restricted LP's value is this many
#: times closer to the first network than to the bound (and whenever no cut is violated).
PRICE_RATIO = 1.0
#: Whether families are also priced in when an evaluation does not improve the bound.
PRICE_ON_STALL = True
#: Every this many rounds of cuts (and at each pricing), the cuts whose multiplier was 0
#: at each of the last :data:`PURGE_AGE` such checks leave the restricted LP (0: never).
PURGE_EVERY = 5
#: See :data:`PURGE_EVERY`.
PURGE_AGE = 5
#: A cluster (a family) leaves the restricted LP at most this many times; then it stays
#: (so the loop ends: a cluster can be separated, a family priced in, only so many times).
PURGE_TIMES = 3
#: At each purge of the cuts every :data:`PURGE_EVERY` rounds, the columns at 0 in each
#: of the last this many such checks leave the restricted LP too, if not basic and not a
#: family without parents (:meth:`_RestrictedLP.purge_columns`; 0: never).
PURGE_COLUMNS = 5
#: Seconds of a component's cluster sub-IP (:func:`._clusters._most_violated_clusters`),
#: the separation tried when the peeling and the short cycles find no new cut.
SUB_IP_SECONDS = 0.25
#: Whether the local search from the peeling's clusters (:func:`._clusters._local_clusters`)
#: runs where the peeling and the short cycles find no new cut, before the sub-IP.
LOCAL_SEARCH = True
#: Reduced cost above which a family is priced in.
_PRICE_EPS = 1e-9

_NO_ROWS = np.zeros(0, dtype=np.int64)
#: HiGHS's settings for the restricted LP: silent, no presolve (each solve starts from
#: the last basis), the simplex.
_HIGHS_OPTIONS: dict[str, bool | str] = {
    "output_flag": False,
    "presolve": "off",
    "solver": "simplex",
}


def _values(fam: _Families) -> np.ndarray:
    """The families' losses, ``-inf`` for those no network in order may take."""
    return np.where(fam.out_of_order(), -np.inf, fam.loss)


def lagrangian(fam: _Families, cuts, y, values=None):
    """``(L(y), adjusted, best)`` (module notes): the bound relative to the trivial one,
    each family's adjusted value (its loss plus the multipliers of the clusters it
    avoids) and each variable's largest. ``cuts`` are clusters (lists of variables),
    ``y`` their multipliers (negative ones count as 0); ``values``: :func:`_values`."""
    values = _values(fam) if values is None else values
    y = np.maximum(np.asarray(y, dtype=np.float64), 0.0)
    adjusted = ClusterRows(cuts).weights(fam, y, out=np.array(values, dtype=np.float64))
    best = np.maximum.reduceat(adjusted, fam.start[:-1])
    return math.fsum(best) - math.fsum(y), adjusted, best


def family_bounds(fam: _Families, bound: float, adjusted, best) -> np.ndarray:
    """Per family, ``bound`` minus its shortfall: no network with it scores higher
    (relative to the trivial bound; module notes)."""
    return bound - (best[fam.child] - adjusted)


def _margin(fam: _Families) -> float:
    """Rounding allowance of the bounds: the sums above run over a hundred-odd maxima of
    a few thousand multipliers each, every term below the trivial bound's magnitude."""
    return 1e-9 * (1.0 + float(np.abs(fam.best).sum()))


class _RestrictedLP:
    """The LP relaxation over some families (columns) and the clusters found so far
    (rows, ``>= 1`` form), maximized by HiGHS's simplex, warm from one solve to the next
    (module notes: 3.0 and 4.5 times SoPlex's speed on these LPs)."""

    def __init__(self, fam: _Families):
        import highspy
        from highspy._core import _Highs

        self.fam = fam
        # highspy.Highs() writes HiGHS's banner to the C stdout, whatever the options, by
        # setting up its Python callbacks; the class under it writes nothing while
        # output_flag is off (set before anything can log)
        self.lp = _Highs()
        for option, value in _HIGHS_OPTIONS.items():
            self.lp.setOptionValue(option, value)
        self.lp.changeObjectiveSense(highspy.ObjSense.kMaximize)
        self._basic = highspy.HighsBasisStatus.kBasic
        self._optimal = highspy.HighsModelStatus.kOptimal
        self._add_rows([[] for _ in range(fam.n)], lower=1.0, upper=1.0)
        self.cols = np.zeros(0, dtype=np.int64)  # family of each column
        self.column = np.full(len(fam), -1, dtype=np.int64)  # column of each family, or -1
        self.cuts: list[list[int]] = []
        self.idle = np.zeros(0, dtype=np.int64)  # checks in a row each cut's dual was 0
        self.left: dict[tuple[int, ...], int] = {}  # times each cluster left the LP
        self.x = np.zeros(0)  # the columns' values at the last optimal solve
        self.idle_cols = np.zeros(0, dtype=np.int64)  # checks in a row each column was 0
        self.cols_left: dict[int, int] = {}  # times each family left the LP

    @staticmethod
    def _packed(vectors: list[list[int]]):
        """``vectors`` (each a list of indices, coefficients 1) as HiGHS's packed arrays."""
        sizes = np.fromiter(map(len, vectors), dtype=np.int32, count=len(vectors))
        starts = np.zeros(len(vectors), dtype=np.int32)
        np.cumsum(sizes[:-1], out=starts[1:])
        index = np.fromiter(itertools.chain.from_iterable(vectors), dtype=np.int32)
        return starts, index, np.ones(index.size)

    def _add_rows(self, rows: list[list[int]], lower: float, upper: float) -> None:
        starts, index, ones = self._packed(rows)
        m = len(rows)
        self.lp.addRows(m, np.full(m, lower), np.full(m, upper), index.size, starts, index, ones)

    def add_families(self, families) -> None:
        fam = self.fam
        families = np.unique(np.asarray(families, dtype=np.int64))
        families = families[self.column[families] < 0]
        if not families.size:
            return
        position = {int(f): j for j, f in enumerate(families)}
        entries = [[int(fam.child[f])] for f in families]
        for k, cluster in enumerate(self.cuts):
            _, avoiding = _cluster_families(fam, cluster, among=families)
            for f in avoiding:
                entries[position[int(f)]].append(fam.n + k)
        starts, index, ones = self._packed(entries)
        m = families.size
        self.lp.addCols(
            m, fam.loss[families], np.zeros(m), np.ones(m), index.size, starts, index, ones
        )
        self.column[families] = np.arange(self.cols.size, self.cols.size + m)
        self.cols = np.concatenate([self.cols, families])
        self.idle_cols = np.concatenate([self.idle_cols, np.zeros(m, dtype=np.int64)])

    def add_cuts(self, clusters) -> None:
        among = np.sort(self.cols)
        rows = []
        for cluster in clusters:
            _, avoiding = _cluster_families(self.fam, cluster, among=among)
            rows.append(self.column[avoiding].tolist())
        self._add_rows(rows, lower=1.0, upper=math.inf)
        self.cuts.extend(list(map(int, c)) for c in clusters)
        self.idle = np.concatenate([self.idle, np.zeros(len(rows), dtype=np.int64)])

    def purge(self, y, age: int, times: int, columns: int = 0) -> list[list[int]]:
        """Counts the cuts whose multiplier ``y`` (of the last solve) is 0, and removes
        from the LP those that have been 0 at ``age`` checks in a row and have left it
        fewer than ``times`` times before; returns them. With ``columns``, first purges
        the columns (:meth:`purge_columns` with that age)."""
        self.purge_columns(columns, times)
        self.idle = np.where(y > _PRICE_EPS, 0, self.idle + 1)
        drop = np.flatnonzero(self.idle >= age) if age > 0 else _NO_ROWS
        keys = [tuple(self.cuts[k]) for k in drop]
        below = [self.left.get(key, 0) < times for key in keys]
        drop = drop[np.array(below, dtype=bool)]
        if not drop.size:
            return []
        for key in itertools.compress(keys, below):
            self.left[key] = self.left.get(key, 0) + 1
        rows = (self.fam.n + drop).astype(np.int32)
        self.lp.deleteRows(rows.size, rows)
        keep = np.ones(len(self.cuts), dtype=bool)
        keep[drop] = False
        dropped = [self.cuts[k] for k in drop]
        self.cuts = [c for c, k in zip(self.cuts, keep, strict=True) if k]
        self.idle = self.idle[keep]
        return dropped

    def purge_columns(self, age: int, times: int) -> None:
        """Counts the columns at 0 in the last solve (those added since it are not
        counted), and removes from the LP those that have been 0 at ``age`` checks in a
        row, are not basic, have a parent and have left it fewer than ``times`` times
        before. Removing columns at 0 outside the basis keeps the last solution optimal.
        The families without parents stay, so every cluster row keeps a column and the LP
        stays feasible: of a cluster's members, one not in a class of interchangeable
        variables, or the first of its class in the cluster, has an empty family whose
        ``preds`` avoid the cluster (module notes)."""
        if age <= 0 or not self.x.size:
            return
        m = self.x.size
        self.idle_cols[:m] = np.where(self.x > _PRICE_EPS, 0, self.idle_cols[:m] + 1)
        self.x = np.zeros(0)  # counted once: nothing more to count until the next solve
        drop = np.flatnonzero(self.idle_cols[:m] >= age)
        if not drop.size:
            return
        families = self.cols[drop]
        status = self.lp.getBasis().col_status
        parents = self.fam.parents
        ok = np.array([status[j] != self._basic for j in drop.tolist()], dtype=bool)
        ok &= np.array(
            [len(parents[f]) > 0 and self.cols_left.get(f, 0) < times for f in families.tolist()],
            dtype=bool,
        )
        drop, families = drop[ok], families[ok]
        if not drop.size:
            return
        for f in families.tolist():
            self.cols_left[f] = self.cols_left.get(f, 0) + 1
        self.lp.deleteCols(drop.size, drop.astype(np.int32))
        keep = np.ones(self.cols.size, dtype=bool)
        keep[drop] = False
        self.column[families] = -1
        self.cols = self.cols[keep]
        self.column[self.cols] = np.arange(self.cols.size)
        self.idle_cols = self.idle_cols[keep]

    def solve(self, seconds: float | None):
        """``(optimal, value, x over every family, y)``; ``y`` are the cut multipliers
        (HiGHS's duals of ``>=`` rows of a maximization are at most 0). HiGHS's dual
        simplex, its default, from the last basis, also after families joined."""
        lp = self.lp
        # HiGHS's time limit counts from the object's creation, not from this solve
        limit = math.inf if seconds is None else lp.getRunTime() + max(float(seconds), 1e-3)
        lp.setOptionValue("time_limit", limit)
        lp.run()
        if lp.getModelStatus() != self._optimal:
            return False, lp.getInfo().objective_function_value, None, None
        solution = lp.getSolution()
        self.x = np.array(solution.col_value)
        x = np.zeros(len(self.fam))
        x[self.cols] = self.x
        y = np.maximum(-np.array(solution.row_dual)[self.fam.n :], 0.0)
        return True, lp.getInfo().objective_function_value, x, y


@dataclass
class PricedRoot:
    """What root pricing proved (scores relative to the trivial bound)."""

    #: A proven upper bound on every network that keeps the classes in order.
    bound: float
    #: Per family, whether a network scoring above ``incumbent`` may contain it.
    kept: np.ndarray
    #: The score the fixing compares with (the first network's).
    incumbent: float
    #: The clusters whose multiplier is positive at the best bound.
    cuts: list
    #: Whether the restricted LP reached the LP relaxation's optimum over every family.
    converged: bool
    #: Rounds of cuts, pricings, and the cuts added to the LP (a cut purged and separated
    #: again counts again).
    rounds: int
    pricings: int
    n_cuts: int
    #: The families of the last restricted LP (its columns).
    columns: np.ndarray
    #: Columns purged from the restricted LP (a family purged again counts again).
    columns_dropped: int
    #: Wall seconds per step: ``"lp"`` (HiGHS), ``"separation"``, ``"bound"`` (the
    #: Lagrangian evaluations), ``"pricing"`` (choosing the families and adding them),
    #: ``"cuts"`` (adding and purging them, and purging columns).
    seconds: dict[str, float]


class _Seconds(dict[str, float]):
    """Wall seconds per step; ``with seconds("lp"): ...`` adds the block's."""

    @contextlib.contextmanager
    def __call__(self, step: str):
        start = time.perf_counter()
        try:
            yield
        finally:
            self[step] = self.get(step, 0.0) + time.perf_counter() - start


def _fixing(fam: _Families, first, incumbent: float, bound: float, adjusted, best):
    """``(bound, kept)``: the bound with its rounding allowance (never above the trivial
    one), and whether each family may be in a network above ``incumbent`` (the first
    network's families always are), from an evaluation (:func:`lagrangian`)."""
    kept = family_bounds(fam, bound, adjusted, best) >= incumbent - 2 * _margin(fam)
    kept[first] = True
    return min(bound + _margin(fam), 0.0), kept


def _seconds_left(deadline: float | None) -> float | None:
    """Seconds until ``deadline`` (``time.perf_counter()``), None for none."""
    return None if deadline is None else deadline - time.perf_counter()


def _new_clusters(fam: _Families, x, known, sub_ip_seconds: float, local_search: bool) -> list:
    """Clusters violated by the LP solution ``x`` and not in ``known``: those separated,
    else (with ``local_search``) those of the local search, else the most violated (each
    component's sub-IP for ``sub_ip_seconds``), all from one support graph."""
    support = _support_graph(fam, x, _CUT_EPS)
    new = [c for c in _separated_clusters(fam, x, support=support) if tuple(c) not in known]
    if not new and local_search:
        new = [c for c in _local_clusters(fam, x, support=support) if tuple(c) not in known]
    if new:
        return new
    found = _most_violated_clusters(fam, x, time_limit=sub_ip_seconds, support=support)
    return [c for c in found if tuple(c) not in known]


def _first_columns(fam: _Families, first, values, first_top: int, small: int) -> np.ndarray:
    """The restricted LP's first families: the best ``first_top`` of each variable, those
    with at most ``small`` parents and the first network's (none out of order)."""
    n_parents = np.fromiter(map(len, fam.parents), dtype=np.int64, count=len(fam))
    rank = np.arange(len(fam)) - fam.start[fam.child]
    chosen = ((rank < first_top) | (n_parents <= small)) & np.isfinite(values)
    chosen[first] = True
    return np.flatnonzero(chosen)


def _priced_in(fam: _Families, lp: _RestrictedLP, adjusted, top: int) -> np.ndarray:
    """The families outside the LP whose adjusted value is above their variable's best
    in it (a positive reduced cost), the ``top`` largest of each variable."""
    inside = np.full(len(fam), -np.inf)
    inside[lp.cols] = adjusted[lp.cols]
    restricted = np.maximum.reduceat(inside, fam.start[:-1])
    reduced = adjusted - restricted[fam.child]
    priced = np.flatnonzero((reduced > _PRICE_EPS) & (lp.column < 0))
    priced = priced[np.lexsort((-reduced[priced], fam.child[priced]))]
    child = fam.child[priced]
    return priced[np.arange(priced.size) - np.searchsorted(child, child) < top]


def prices_root(n_candidates: int, n_variables: int) -> bool:
    """Whether the bound-first solver prices its root: from
    :data:`PRICING_MIN_CANDIDATES_MANY` candidates on; and, on at most
    :data:`PRICING_MAX_VARIABLES` variables, from :data:`PRICING_MIN_CANDIDATES` or from
    :data:`PRICING_MIN_PER_VARIABLE` per variable on (module notes)."""
    if n_candidates >= PRICING_MIN_CANDIDATES_MANY:
        return True
    return n_variables <= PRICING_MAX_VARIABLES and (
        n_candidates >= PRICING_MIN_CANDIDATES
        or n_candidates >= PRICING_MIN_PER_VARIABLE * n_variables
    )


def root_pricing(
    fam: _Families,
    first,
    deadline: float | None = None,
    report: Callable[[float], None] | None = None,
    stop: Callable[[], bool] | None = None,
    *,
    evaluate_every: float = EVALUATE_SECONDS,
    price_ratio: float = PRICE_RATIO,
    top: int = TOP,
    first_top: int = FIRST_TOP,
    small: int = SMALL,
    purge_every: int = PURGE_EVERY,
    purge_age: int = PURGE_AGE,
    purge_times: int = PURGE_TIMES,
    purge_columns: int = PURGE_COLUMNS,
    price_on_stall: bool = PRICE_ON_STALL,
    sub_ip_seconds: float = SUB_IP_SECONDS,
    local_search: bool = LOCAL_SEARCH,
) -> PricedRoot:
    """The Lagrangian bound by row and column generation (module notes), from the first
    network ``first`` (global family indices) until the LP over every family is solved,
    ``deadline`` (``time.perf_counter()`` seconds) passes or ``stop()`` is true.
    ``report(bound)`` is called with every better bound. Each keyword defaults to the
    module's constant of its name in capitals (``evaluate_every``: :data:`EVALUATE_SECONDS`)."""
    values = _values(fam)
    incumbent = math.fsum(fam.loss[first])
    lp = _RestrictedLP(fam)
    lp.add_families(_first_columns(fam, first, values, first_top, small))
    known: set[tuple[int, ...]] = set()
    # the best multipliers, their clusters and evaluation (y = 0: the trivial bound)
    best_bound, best_y, best_cuts, best_arrays = 0.0, np.zeros(0), [], None
    rounds = pricings = n_cuts = 0
    seconds = _Seconds(lp=0.0, separation=0.0, bound=0.0, pricing=0.0, cuts=0.0)
    converged = False
    evaluated, every = time.perf_counter(), evaluate_every

    def out_of_time():
        return (deadline is not None and time.perf_counter() >= deadline) or bool(stop and stop())

    def purge(y, columns=0):
        if purge_every > 0:  # purged cuts (families) may be separated (priced in) again
            with seconds("cuts"):
                known.difference_update(map(tuple, lp.purge(y, purge_age, purge_times, columns)))

    while not out_of_time():
        with seconds("lp"):
            optimal, lp_value, x, y = lp.solve(_seconds_left(deadline))
        rounds += 1
        if not optimal:  # HiGHS's time limit (the deadline)
            break
        with seconds("separation"):
            new = _new_clusters(fam, x, known, sub_ip_seconds, local_search)
        if not new or out_of_time() or time.perf_counter() - evaluated >= every:
            # the bound from this LP's multipliers (of lp.cuts, without the new ones)
            t = time.perf_counter()
            bound, adjusted, top_values = lagrangian(fam, lp.cuts, y, values)
            evaluated = time.perf_counter()
            seconds["bound"] += evaluated - t
            every = max(evaluate_every, 10 * (evaluated - t))
            stalled = price_on_stall and bound >= best_bound
            if bound < best_bound:
                positive = y > 0
                best_bound, best_y = bound, y[positive]
                best_cuts = [c for c, p in zip(lp.cuts, positive, strict=True) if p]
                best_arrays = (adjusted, top_values)
                if report is not None:
                    report(min(best_bound + _margin(fam), 0.0))
            if best_bound <= incumbent:
                break
            if not new or stalled or lp_value - incumbent <= price_ratio * (bound - lp_value):
                pricings += 1
                with seconds("pricing"):
                    priced = _priced_in(fam, lp, adjusted, top)
                    lp.add_families(priced)
                if priced.size:
                    purge(y)
                    continue  # the primal simplex next: the cuts again on its solution
                if not new:
                    converged = True
                    break
        if purge_every > 0 and rounds % purge_every == 0:
            purge(y, columns=purge_columns)
        if new:
            known.update(map(tuple, new))
            with seconds("cuts"):
                lp.add_cuts(new)
            n_cuts += len(new)
    if best_arrays is None:  # no evaluation improved on the trivial bound
        best_bound, *best_arrays = lagrangian(fam, best_cuts, best_y, values)
    bound, kept = _fixing(fam, first, incumbent, best_bound, *best_arrays)
    return PricedRoot(
        bound=max(bound, incumbent),
        kept=kept,
        incumbent=incumbent,
        cuts=best_cuts,
        converged=converged,
        rounds=rounds,
        pricings=pricings,
        n_cuts=n_cuts,
        columns=lp.cols.copy(),
        columns_dropped=sum(lp.cols_left.values()),
        seconds=dict(seconds),
    )
