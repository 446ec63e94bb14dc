"""SCIP's model of the candidates and the solver's settings of it, shared by the branch
and cut (:mod:`._solver`) and the branch and price (:mod:`._branch_price`).

The model is described in :mod:`._solver`'s notes. This module does not import
PySCIPOpt when it is imported (:func:`_model` does when it runs).
"""

from __future__ import annotations

import numpy as np

from ._clusters import _pair_clusters, _set_packing
from ._families import _Families

__all__: list[str] = []


#: SCIP branching priority of the arrow variables (families have 0).
_ARROW_PRIORITY = 10


def _arrows(fam: _Families):
    """The ordered pairs ``(u, v)`` that some family links both ways (``u`` a parent of
    ``v`` in a family of ``v``, and ``v`` of ``u`` in one of ``u``), the families of ``v``
    with ``u`` among their parents for each, and for each family the positions of its
    arrows in the list of pairs."""
    linked = {(int(u), int(fam.child[f])) for f, ps in enumerate(fam.parents) for u in ps}
    index: dict[tuple[int, int], int] = {}
    of_family = []
    for f, parents in enumerate(fam.parents):
        v = int(fam.child[f])
        of_family.append(
            [index.setdefault((int(u), v), len(index)) for u in parents if (v, int(u)) in linked]
        )
    pairs = list(index)
    members: list[list[int]] = [[] for _ in pairs]
    for f, arrows in enumerate(of_family):
        for a in arrows:
            members[a].append(f)
    return pairs, [np.array(m) for m in members], of_family


#: SCIP settings of the portfolio's second solver (``method="solver|solver"``), which
#: works on the bound first:
#:
#: - its root cut loop goes on for as long as cluster cuts are found, instead of branching
#:   after 10 rounds that barely move the bound (SCIP's default);
#: - it then takes the open node with the best bound next (SCIP's best-first node
#:   selection, with plunging), instead of its best estimate of a network's score;
#: - its first network is improved by the iterated order search
#:   (:data:`._solver.FIRST_ORDER_SHARE`).
#:
#: Its root also separates by sub-IP (:func:`._clusters._most_violated_clusters`; the
#: plugins' ``exact_separation="root"``), cluster cuts (within
#: :data:`._scip_plugins.SUB_IP_SHARE` of the time) and, at the rounds that find no
#: cluster cut, 2-cluster cuts (:data:`._scip_plugins.K_CLUSTERS`). The cluster sub-IP,
#: measured on one core, seed 1: andes (223 variables, 17,148 candidates, fNML, N =
#: 1000, 2 parents) 0.922% from proven after 600 s (the peeling alone: 2.72% after 200
#: s); hailfinder BDeu(100), N = 1000: 0.166% against 0.178% after 300 s, and BDeu(1), N
#: = 10000: proven in 101.5 s of CPU against 113 s. At every node it made hailfinder
#: BDeu(100) 0.202% (the sub-IPs took 220 of the 300 s), and in the first solver (SCIP's
#: default root) hailfinder BDeu(1) took 137 s against 78 s: so the root of the second
#: solver only. In the portfolio (``bench_frontier.py --large``, 600 s): andes 0.919%,
#: pathfinder (109 variables, 89,504 candidates) 0.130%, against 2.36% and 0.654%
#: before.
#:
#: Measured on one core with seed 1 without it (the first solver keeps SCIP's defaults,
#: which prove the easier instances sooner; the race takes the faster):
#:
#: - hailfinder (56 variables), BDeu(100), N = 1000, 3 parents: after 300 s the default
#:   search was 4.0% from proven, the deep root 0.316%, and with best-first nodes too
#:   0.177% (0.166% after 530 s);
#: - hailfinder, BDeu(1), N = 10000: proven in 114 s of CPU (121 s with seed 0), against
#:   147-156 s (seed 1) and 86.7 s (seed 0) by default: the root ends for want of cuts;
#: - andes (223 variables, fNML, N = 1000, 2 parents): the root alone after 300 s,
#:   2.73%, against 3.41% by default;
#: - pathfinder (109 variables, 89,504 candidates, fNML, N = 1000, 2 parents): still in
#:   the root after 600 s, 1.22% from proven, the default search 1.26%.
BOUND_FIRST = {
    "separating/maxstallroundsroot": -1,
    "separating/maxroundsroot": -1,
    "nodeselection/bfs/stdpriority": 1_000_000,  # above every other node selector's
}


#: SCIP settings the bound-first solver adds in branch and cut: SCIP's {0,
#: 1/2}-Chvátal-Gomory separator (zerohalf; Caprara and Fischetti 1996) runs at every
#: round of the root's cut loop, not only the first 20, and adds up to 1,000 cuts a
#: round, not 100. It combines the rows (one family per variable, set packing, the
#: arrows, the cluster cuts) into cuts that no cluster constraint gives. Not in branch
#: and price (:mod:`._branch_price`), where it would find nothing: SCIP's zerohalf
#: separator skips modifiable rows, and every row a priced family can join is one (a
#: Chvátal-Gomory cut computed before a family joins may not hold for it).
#: Measured with ``benchmarks/exp_zerohalf.py``: the bound-first solver alone in branch
#: and cut, 300 s on one core (seed 1), two runs side by side, as the bound's distance
#: above the best network known (tuning half, N = 1000 or 500, 3 parents):
#:
#: - andes BIC (223 variables, 10,393 candidates): **0.046%**, still in its root, against
#:   0.122% (the root left at 191 s at 0.163%);
#: - andes BDeu(10) (237,643 candidates; both in the root): 0.760% against 0.764%;
#: - barley qNML (48 variables, 22,938 candidates), which the portfolio prices (so
#:   unchanged there): root 0.202% against 0.220%, 0.182% against 0.192% after 300 s;
#:   with SCIP's Gomory cuts at every root round too, 0.188%.
#:
#: In the suite (600 s, both cores; ``benchmarks/README.md``): andes BIC 0.101% ->
#: 0.047%, andes BDeu(10) 0.557% -> 0.686% (one run; its records since ea7471a
#: 0.557-0.648%), the proven rows within what a run spreads. That BDeu(10) move is
#: within what the seed spreads: on the same code seeds 0, 1 and 2 gave 0.689%, 0.581%
#: and 0.533%, and without zerohalf (seed 0) 0.660%. Andes BIC's gain holds over seeds:
#: 0.047%, 0.040% and 0.047% at seeds 0, 1 and 2, against 0.101% (seed 0, 7bbcb17),
#: 0.124% and 0.101% without zerohalf.
ROOT_ZEROHALF = {
    "separating/zerohalf/maxroundsroot": -1,
    "separating/zerohalf/maxsepacutsroot": 1000,
}


def _model(fam: _Families, time_limit, gap_limit, seed):
    """SCIP's model of the candidates (see the module notes), without the plugins:
    ``(model, family variables, arrow variables, arrows of each family)``."""
    from pyscipopt import Model, quicksum

    from . import _scip_plugins as plugins

    model = Model("bnsl")
    plugins.scip_settings(model, time_limit, gap_limit, seed)
    # a family that puts a later member of its child's class before the child is never
    # in a network that keeps the classes in order: fixed at 0
    out = fam.out_of_order()
    xvars = [
        model.addVar(name=f"x{f}", vtype="B", obj=float(fam.loss[f]), ub=0.0 if out[f] else 1.0)
        for f in range(len(fam))
    ]
    model.setMaximize()
    for v in range(fam.n):
        model.addCons(quicksum(xvars[f] for f in fam.families(v)) == 1, name=f"one{v}")
    for (u, v), fams in _pair_clusters(fam):
        model.addCons(quicksum(xvars[f] for f in fams) <= 1, name=f"pair{u}_{v}")
    for key, fams in _set_packing(fam):
        model.addCons(quicksum(xvars[f] for f in fams) <= 1, name=f"pack{key}")
    avars, _, arrows_of = _add_arrows(model, fam, xvars)
    return model, xvars, avars, arrows_of


def _add_arrows(model, fam: _Families, xvars, arrows=None, modifiable=False):
    """The arrow variables, branched on first (see the module notes): their rows, and
    ``a(u -> v) + a(v -> u) <= 1``. ``arrows``: :func:`_arrows`'s (default: computed);
    ``xvars`` may hold None for families outside the model (branch and price, whose
    arrow rows are ``modifiable``). Returns the arrow variables, their rows and the
    arrows of each family."""
    from pyscipopt import quicksum

    pairs, arrow_fams, arrows_of = _arrows(fam) if arrows is None else arrows
    avars, rows = [], []
    for (u, v), fams in zip(pairs, arrow_fams, strict=True):
        a = model.addVar(name=f"a{u}_{v}", vtype="B", obj=0.0)
        expr = a - quicksum(xvars[f] for f in fams if xvars[f] is not None)
        rows.append(model.addCons(expr == 0, name=f"arrow{u}_{v}", modifiable=modifiable))
        model.chgVarBranchPriority(a, _ARROW_PRIORITY)
        avars.append(a)
    position = {pair: k for k, pair in enumerate(pairs)}
    for (u, v), k in position.items():
        if u < v and (v, u) in position:
            model.addCons(avars[k] + avars[position[v, u]] <= 1, name=f"arrows{u}_{v}")
    return avars, rows, arrows_of


#: SCIP's statuses in the package's words (A*'s and the solver's results say the same)
_STATUS = {"memlimit": "memorylimit", "userinterrupt": "stopped"}
