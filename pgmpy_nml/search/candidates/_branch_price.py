r"""Branch and price over the families root pricing kept.

Root pricing (:mod:`._pricing`) ends with an LP over a few thousand families whose
optimum, once no family outside it has a positive reduced cost, is the LP relaxation's
over every family. Its fixing drops the families in no network above the first one, but
near a gap of a few tenths of a percent it keeps nearly all of them: on pathfinder
BDeu(1) (109 variables, N = 1000, 3 parents; the suite's tuning half) 158,787 of 158,830,
a SCIP model of 128,722 columns and 4.9 million nonzeros whose dual simplex ran at 196
iterations a second, against about 3,500 in the restricted LP.

Here SCIP's model starts from the restricted LP's families and its cuts instead, and a
SCIP *pricer* adds the other kept families at every node where they could raise the LP:
column generation inside the branch and cut (branch and price; Barnhart et al. 1998).
A family's reduced cost comes from the duals of the rows it would be in,

.. math::

    \bar c_{v,P} = -\text{loss}(v, P) - \pi_v - \sum_{C \ni v:\, (v, P) \in C}
    \mu_C + \sum_{u \in P,\, (u, v) \text{ an arrow}} \lambda_{u \to v}

in SCIP's minimization of the negated score: :math:`\pi_v` of "one family per
variable", :math:`\mu_C` of the (``k``-)cluster rows (:class:`._cluster_rows.ClusterRows`
says which families a row holds) and :math:`\lambda` of the arrow rows :math:`a_{u \to
v} - \sum_{P \ni u} x_{v,P} = 0`. The families with :math:`\bar c < 0` (the :data:`TOP`
most negative of each variable) join the LP; when none is left, the LP's optimum is
that over every kept family, and SCIP's node bound holds for them all. An infeasible
node LP (after a branching) is priced the same way from SoPlex's Farkas proof, with a
zero objective.

So every row a family can be in must learn its coefficient when the family joins: the
model's rows and root pricing's cluster rows are modifiable linear constraints, and the
handler's cuts are modifiable LP rows (:class:`PricedAcyclicity`). Not constraints:
after a separation round that adds constraints SCIP does not price again, and it cut
off nodes on LP values it had not priced (the brute-force tests' random tables: a wrong
optimum on 4 of 60, and still on 1 of 1,500 once the handler reported the constraints
as added). GOBNILP's set-packing rows are left out. SCIP's presolving is off (its
reductions assume every column is known).

SCIP's own separators stay on, and their cuts hold for the families priced later. Its
Chvátal-Gomory, {0, 1/2} and MIR separators skip modifiable rows, so they never combine a
row a family could join later. The rows left to them are the arrow pairs (:math:`a_{u \to
v} + a_{v \to u} \le 1`, over arrow variables, all in the model from the start), the
objective cutoff and their own earlier cuts. Every objective coefficient,
:math:`-\text{loss}(v, P)`, is nonnegative, so the cutoff over the families in the model
is implied by the one over all kept families. Each of those rows therefore holds for the
part of every better network that is in the model (its families there, and its arrows),
and so does a cut combined from them and rounded over the model's variables; a family
priced later has a zero coefficient in it. Checked against the subset DP with SCIP's
separators aggressive at every node (``tests/test_branch_price.py``): on 1,038 random
tables they found 71 cuts (69 by aggregation, 2 Gomory), and every proof was right.

Sound: SCIP's bound is over the networks of kept families, and every network above the
first one takes only kept families (the fixing); the first network is a solution of the
model.

Measured with the bound-first solver alone, 600 s on one core beside another run
(``benchmarks/exp_solver_cuts.py``; tuning half): pathfinder BDeu(1) ended 0.2771% above
the best network known, against 0.4596% with SCIP's model over every kept family. With
root pricing forced on smaller instances, branch and price proved hailfinder BDeu(10), N
= 5000 (3,573 candidates) in 165.6 s (branch and cut: 175.9 s) and pathfinder qNML
(60,726) in 61.4 s (188.1 s), but left andes BIC at 1.84% (0.12%), whose pricing did not
converge. With more of the tuning half (one core each, two runs side by side), root
pricing and branch and price proved pathfinder BIC (12,272 candidates, 113 per variable)
in 6.2 s against 14.8 s, digits binarized BDeu(1) with 2 parents (21,446; 397) in 198.6
s against 432.2 s and fNML (28,563; 529) in 235.4 s against 317.9 s, but barley N = 500
fNML (16,840; 351) in 17.8 s against 7.2 s. Andes BIC has 47 candidates per variable,
hailfinder 64: so the bound-first solver also prices from
:data:`._pricing.PRICING_MIN_PER_VARIABLE` (100) candidates per variable on
(:func:`._pricing.prices_root`). The portfolio's other solver keeps SCIP's model over
every candidate, so a loss like barley's costs the pair little. In the suite (600 s, both
cores) it proved five rows of the evaluation half sooner (hepar2 BDeu(10) in 394 s, was
588 s), but left andes qNML and fNML (206 and 293 candidates per variable) further from
proven, 0.749% and 0.481% (were 0.499% and 0.410%): on andes, each pricing round moves
the LP's solution and the separation finds new clusters (root pricing stopped after 60
s, branch and price's root took 106,472 cuts and no branching in 235 s on andes BIC).
Andes BDeu(10) on the tuning half prices badly too, at 1,066 candidates per variable, so
above :data:`._pricing.PRICING_MAX_VARIABLES` variables the solver prices only from
:data:`._pricing.PRICING_MIN_CANDIDATES_MANY` candidates on (the figures are in
:mod:`._pricing`'s notes). In the suite that gave andes BDeu(10) 0.600% (was 0.786%),
qNML 0.496% and fNML 0.421%.

SCIP's reduced-cost fixing does not run with a pricer, so a family here is never fixed
by its reduced cost. Fixing by the root's (once the root LP is optimal over every kept
family, a family whose reduced cost exceeds the incumbent's value minus the LP's is in no
better network: dropped from pricing, or fixed at 0 in the tree by a propagator) was
tried and left out. It was sound on 291 random tables against the subset DP, and on
plants fNML with 2 parents (tuning half; branch and price from one recorded root
pricing, two runs side by side) it dropped 63,000-81,000 of the 93,978 kept families and
fixed 5,700-9,500 columns, but the bound ended no nearer the best network known: after
150 s 0.0739% and 0.1105% against 0.0509% and 0.0612% (seeds 1, 2; fixing only before
the node LPs 0.0490%, dropping only 0.0589%), after 450 s 0.0328% against 0.0208% and
0.0307% (two runs as it is). There the search is the root's cut loop: 1 node after 150
s, 5-11 after 450 s, 30% of the time in the cluster sub-IPs; fixing does not raise the
root LP's value, and changes which solutions the cuts are separated on. Ending that loop
sooner is worse: with SCIP's stall limit of 10 rounds at the root (its default), 0.0913%
after 450 s (25 nodes); 30 rounds, 0.0826%. :data:`._scip_plugins.SUB_IP_SHARE` 0.5
instead of 0.25 left it at 0.0292% (the sub-IPs took 121 s against 131 s: the share
did not bind). On bnetflix fNML with 2 parents (tuning half, 300 s) the root was still
the only node at the end, and the sub-IPs took 179 of the 300 s (89 calls of 2 s): they
run at every round where the peeling and the shortest cycles find nothing, which the
share does not limit.
"""

from __future__ import annotations

import math
import time

import numpy as np
from pyscipopt import SCIP_PARAMSETTING, SCIP_RESULT, Pricer, quicksum

from ._cluster_rows import ClusterRows
from ._clusters import _cluster_row
from ._families import _Families
from ._scip_model import _STATUS, BOUND_FIRST, _add_arrows, _arrows
from ._scip_plugins import Acyclicity

__all__: list[str] = []

#: Families of each variable that join the LP per pricing round, at most.
TOP = 10
#: Reduced cost below which a family joins.
_EPS = 1e-9


class Columns:
    """The families in SCIP's model and the modifiable rows they are in, shared by the
    pricer and the constraint handler. Holds the original variables and constraints
    until :meth:`transform` (SCIP's transformed problem) replaces them."""

    def __init__(self, fam: _Families, kept, arrows_of):
        self.fam = fam
        #: families the pricer may add
        self.kept = np.asarray(kept, dtype=bool) & ~fam.out_of_order()
        self.column = np.full(len(fam), -1, dtype=np.int64)  # column of each family
        self.families: list[int] = []  # family of each column
        self.vars: list = []  # variable of each column
        self.variable: list = [None] * len(fam)  # of each family (None outside the model)
        self.one: list = []  # "one family" row of each variable
        self.arrow_rows: list = []
        self.arrows_of = arrows_of
        counts = np.fromiter(map(len, arrows_of), dtype=np.int64, count=len(fam))
        self.arrow_owner = np.repeat(np.arange(len(fam)), counts)
        self.arrow_flat = np.fromiter(
            (a for arrows in arrows_of for a in arrows), dtype=np.int64, count=counts.sum()
        )
        self.rows = ClusterRows()  # the cluster rows' clusters, k and forms
        self.conss: list = []  # each a modifiable constraint, or a row (``is_row``)
        self.is_row: list[bool] = []
        self.index: dict = {}  # (sorted cluster, k): its position in conss
        self.n_priced = 0  # families added by the pricer
        self.n_again = 0  # cuts whose row went back to the LP

    def transform(self, model) -> None:
        self.vars = [model.getTransformedVar(v) for v in self.vars]
        for f, var in zip(self.families, self.vars, strict=True):
            self.variable[f] = var
        self.one = [model.getTransformedCons(c) for c in self.one]
        self.arrow_rows = [model.getTransformedCons(c) for c in self.arrow_rows]
        self.conss = [model.getTransformedCons(c) for c in self.conss]  # no rows yet

    def add_cluster(self, model, cluster, k=1, as_cut=False) -> bool:
        """The (``k``-)cluster row of ``cluster`` over the model's families, in the sparser
        of its forms: a modifiable constraint, or with ``as_cut`` a modifiable row added
        to the LP as a cut (SCIP prices again after a round of cuts, not after a round
        that added constraints: a node could be cut off on an LP value that was not
        priced). A cut separated again goes back to the LP as the row it was (SCIP's cut
        pool, which would keep it, takes no modifiable rows), which has learnt the
        coefficients of the families priced in since. Returns whether the LP gains a
        row (not when the cut's row is in it already)."""
        key = (tuple(sorted(int(v) for v in cluster)), k)
        j = self.index.get(key)
        if as_cut and j is not None and self.is_row[j]:
            row = self.conss[j]
            if row.getLPPos() < 0:
                model.addCut(row, forcecut=True)
                self.n_again += 1
                return True
            return False
        fams, lhs, rhs = _cluster_row(self.fam, cluster, k)
        fams = fams[self.column[fams] >= 0]
        name = f"cluster{len(self.conss)}"
        self.index[key] = len(self.conss)
        if as_cut:
            row = model.createEmptyRowUnspec(
                name=name, lhs=lhs, rhs=rhs, local=False, modifiable=True, removable=True
            )
            model.cacheRowExtensions(row)
            for f in fams.tolist():
                model.addVarToRow(row, self.variable[f], 1.0)
            model.flushRowExtensions(row)
            model.addCut(row, forcecut=True)
            self.conss.append(row)
        else:
            expr = quicksum(self.variable[f] for f in fams)
            cons = expr <= rhs if lhs is None else expr >= lhs
            self.conss.append(model.addCons(cons, name=name, modifiable=True, removable=True))
        self.is_row.append(as_cut)
        self.rows.append(cluster, k, lhs is not None)
        return True

    def _duals(self, model, dual, farkas: bool) -> np.ndarray:
        """The cluster rows' duals (Farkas multipliers), 0 for rows outside the LP;
        ``dual`` reads a constraint's."""
        out = np.zeros(len(self.conss))
        for j, (cons, is_row) in enumerate(zip(self.conss, self.is_row, strict=True)):
            if not is_row:
                out[j] = dual(cons)
            elif cons.getLPPos() >= 0:
                out[j] = cons.getDualfarkas() if farkas else model.getRowDualSol(cons)
        return out

    def add_families(self, model, families, transformed: bool) -> None:
        """New columns: ``families`` (not in the model yet) with their coefficients in
        every row. ``transformed``: SCIP is solving (the pricer's variables)."""
        fam = self.fam
        families = np.asarray(families, dtype=np.int64)
        new = []
        out = fam.out_of_order()  # fixed at 0, as in :func:`._scip_model._model`
        for f in families.tolist():
            loss = float(fam.loss[f])
            # in the transformed problem SCIP minimizes the negated score
            var = model.addVar(
                name=f"x{f}",
                vtype="B",
                obj=-loss if transformed else loss,
                ub=0.0 if out[f] else 1.0,
                pricedVar=transformed,
            )
            self.column[f] = len(self.vars)
            self.families.append(f)
            self.vars.append(var)
            self.variable[f] = var
            new.append(var)
        if not transformed:  # the rows are built from the columns
            return
        for f, var in zip(families.tolist(), new, strict=True):
            model.addConsCoeff(self.one[int(fam.child[f])], var, 1.0)
            for a in self.arrows_of[f]:
                model.addConsCoeff(self.arrow_rows[a], var, -1.0)
        rows, members = self.rows.members(fam, families)
        for j, f in zip(rows.tolist(), members.tolist(), strict=True):
            if self.is_row[j]:
                model.addVarToRow(self.conss[j], self.variable[f], 1.0)
            else:
                model.addConsCoeff(self.conss[j], self.variable[f], 1.0)
        self.n_priced += families.size

    def reduced_costs(self, model, farkas: bool) -> np.ndarray:
        """Each family's reduced cost in SCIP's minimization, from the current LP's duals
        (``farkas``: its Farkas proof, with a zero objective)."""
        dual = model.getDualfarkasLinear if farkas else model.getDualsolLinear
        fam = self.fam
        pi = np.array([dual(c) for c in self.one])
        lam = np.array([dual(c) for c in self.arrow_rows])
        mu = self._duals(model, dual, farkas)
        weights = pi[fam.child]
        self.rows.weights(fam, mu, out=weights)
        weights -= np.bincount(self.arrow_owner, weights=lam[self.arrow_flat], minlength=len(fam))
        return (0.0 if farkas else -fam.loss) - weights

    def priced_in(self, reduced, top: int = TOP) -> np.ndarray:
        """The kept families outside the model with a negative reduced cost, the ``top``
        most negative of each variable."""
        fam = self.fam
        chosen = np.flatnonzero(self.kept & (self.column < 0) & (reduced < -_EPS))
        chosen = chosen[np.lexsort((reduced[chosen], fam.child[chosen]))]
        child = fam.child[chosen]
        return chosen[np.arange(chosen.size) - np.searchsorted(child, child) < top]


class FamilyPricer(Pricer):
    """Adds the kept families with a negative reduced cost (module notes)."""

    def __init__(self, columns: Columns):
        self.columns = columns
        self.rounds = 0
        self.farkas_rounds = 0  # of them, on an infeasible LP
        self.seconds = 0.0  # wall seconds in the pricing rounds

    def pricerinit(self):
        self.columns.transform(self.model)

    def _price(self, farkas: bool):
        start = time.perf_counter()
        columns = self.columns
        new = columns.priced_in(columns.reduced_costs(self.model, farkas))
        if new.size:
            columns.add_families(self.model, new, transformed=True)
        self.rounds += 1
        self.farkas_rounds += farkas
        self.seconds += time.perf_counter() - start
        return {"result": SCIP_RESULT.SUCCESS}

    def pricerredcost(self):
        return self._price(farkas=False)

    def pricerfarkas(self):
        return self._price(farkas=True)


class PricedAcyclicity(Acyclicity):
    """The acyclicity handler over the model's families only: values of the others are
    0, and its cluster cuts are modifiable LP rows (:meth:`Columns.add_cluster`)."""

    def __init__(self, columns: Columns, avars, exact_separation=None):
        super().__init__(columns.fam, columns.vars, avars, exact_separation)
        self.columns = columns

    def _spread(self, values) -> np.ndarray:
        out = np.zeros(len(self.fam))
        out[self.columns.families] = values
        return out

    def _values(self, solution=None):
        model = self.model
        return self._spread([model.getSolVal(solution, v) for v in self.columns.vars])

    def _lp_values(self):
        return self._spread([v.getLPSol() for v in self.columns.vars])

    def _transformed(self):
        return self.columns.variable

    def available(self) -> np.ndarray:
        out = np.zeros(len(self.fam), dtype=bool)
        out[self.columns.families] = [v.getUbGlobal() > 0.5 for v in self.columns.vars]
        return out

    def _chosen(self, solution):
        return self._choice(self._values(solution))

    def _add_clusters(self, clusters, as_cuts, k=1):
        added = sum(self.columns.add_cluster(self.model, c, k, as_cut=as_cuts) for c in clusters)
        self.n_cuts += added
        return added

    def consenfolp(self, constraints, nusefulconss, solinfeasible):
        # cuts, not constraints (:meth:`Columns.add_cluster`)
        return self._enforce(lp=True, as_cuts=True)

    def conslock(self, constraint, locktype, nlockspos, nlocksneg):
        # the model's first families; the pricer's have no locks of this handler, so
        # SCIP's dual reductions, which read them, are off (presolving and dual fixing)
        for f, var in zip(self.columns.families, self.columns.vars, strict=True):
            if self.fam.size[f]:
                self.model.addVarLocksType(var, locktype, nlocksneg, nlockspos)


def priced_model(model, columns: Columns, families, cuts, arrows) -> list:
    """SCIP's model over ``families`` (the restricted LP's): their variables, "one
    family per variable", the arrows (:func:`._scip_model._arrows`'s ``arrows``, their
    rows modifiable) and the cluster rows of ``cuts``; presolving and dual fixing off.
    Returns the arrow variables."""
    fam = columns.fam
    families = np.unique(np.asarray(families, dtype=np.int64))
    columns.add_families(model, families, transformed=False)
    xvars = columns.variable
    model.setMaximize()
    for v in range(fam.n):
        expr = quicksum(xvars[f] for f in fam.families(v) if xvars[f] is not None)
        columns.one.append(model.addCons(expr == 1, name=f"one{v}", modifiable=True))
    avars, columns.arrow_rows, _ = _add_arrows(model, fam, xvars, arrows, modifiable=True)
    for cluster in cuts:
        columns.add_cluster(model, cluster)
    model.setPresolve(SCIP_PARAMSETTING.OFF)
    model.setIntParam("propagating/dualfix/freq", -1)
    return avars


def branch_and_price(
    fam: _Families, first, kept, families, cuts, time_limit, gap_limit, seed, bar, stop, memory
):
    """The bound-first solver's branch and cut over the ``kept`` families, priced
    (module notes) from ``families`` and the cluster rows of ``cuts``, from the network
    ``first`` (global family indices): ``(choice, bound, status, handler, pricer)``, the
    bound and SCIP's status as :func:`._solver._branch_and_cut` reads them. ``memory``:
    SCIP's ``limits/memory`` in MB from its model (None: SCIP's default)."""
    from pyscipopt import Model

    from . import _scip_plugins as plugins

    start = time.perf_counter()
    model = Model("bnsl-priced")
    plugins.scip_settings(model, time_limit, gap_limit, seed)
    arrows = _arrows(fam)
    columns = Columns(fam, kept, arrows[2])
    avars = priced_model(model, columns, np.union1d(families, first), cuts, arrows)
    arrows_of = arrows[2]
    pricer = FamilyPricer(columns)
    model.includePricer(pricer, "families", "the kept families by reduced cost")
    offset = math.fsum(fam.best)
    conshdlr = PricedAcyclicity(columns, avars, "root")
    plugins.include_plugins(model, fam, None, avars, arrows_of, bar, offset, conshdlr=conshdlr)
    plugins.start_search(model, stop, BOUND_FIRST, first, columns.variable, avars, arrows_of)
    if time_limit is not None:  # the limit covers building the model too
        left = time_limit - (time.perf_counter() - start)
        model.setRealParam("limits/time", max(left, 1e-3))
    if memory is not None:  # SCIP's memory limit (MB) from its model
        model.setRealParam("limits/memory", memory(model))
    model.optimizeNogil()
    status = _STATUS.get(model.getStatus(), model.getStatus())
    choice = conshdlr._choice(conshdlr._values(model.getBestSol()))
    score = fam.total(choice)
    bound = plugins._sound_bound(model.getDualbound(), offset, score, model.infinity())
    return choice, bound, status, conshdlr, pricer


def priced_search(
    fam: _Families, priced, first, time_limit, gap_limit, seed, bar, stop, memory, timings
):
    """:func:`branch_and_price` after root pricing (``priced``, a
    :class:`._pricing.PricedRoot`) from its first network ``first``: ``(choice, bound,
    status, cuts added)``; its seconds are added to ``timings``."""
    start = time.perf_counter()
    args = (time_limit, gap_limit, seed, bar, stop, memory)
    choice, bound, status, handler, _ = branch_and_price(
        fam, first, priced.kept, priced.columns, priced.cuts, *args
    )
    timings["search"] = time.perf_counter() - start
    return choice, bound, status, handler.n_cuts
