"""SCIP plugins of the solver: the acyclicity constraint handler, the sink heuristic and
the progress line.

This module imports PySCIPOpt when it is imported (its classes subclass
PySCIPOpt's); :func:`~pgmpy_nml.search.candidates.solve` imports it when it runs,
so that importing :mod:`pgmpy_nml.search.candidates` does not load SCIP.
"""

from __future__ import annotations

import math
import time

import numpy as np
from pyscipopt import (
    SCIP_EVENTTYPE,
    SCIP_HEURTIMING,
    SCIP_LPSOLSTAT,
    SCIP_RESULT,
    SCIP_STAGE,
    Conshdlr,
    Eventhdlr,
    Heur,
    quicksum,
)

from ._clusters import (
    _CUT_EPS,
    _cluster_row,
    _most_violated_clusters,
    _separated_clusters,
    _support_graph,
    _violated_clusters,
)
from ._families import _cycle_free, show_status
from ._heuristics import _greedy, _improve

__all__: list[str] = []


def include_plugins(
    model, fam, xvars, avars, arrows_of, bar=None, offset=0.0, exact_separation=None, conshdlr=None
) -> Acyclicity:
    """Add the acyclicity handler (with its one constraint; ``exact_separation``: see
    :class:`Acyclicity`; ``conshdlr``: one of its subclasses to add instead), the sink
    heuristic and, with a progress ``bar``, the progress line to ``model``; returns the
    handler (it counts the cuts)."""
    if conshdlr is None:
        conshdlr = Acyclicity(fam, xvars, avars, exact_separation)
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
    model.includeHeur(
        Sinks(fam, conshdlr, arrows_of),
        "sinks",
        "sink-finding on the LP solution",
        "S",
        priority=100000,
        freq=1,
        timingmask=SCIP_HEURTIMING.AFTERLPNODE | SCIP_HEURTIMING.DURINGLPLOOP,
    )
    if bar is not None:
        model.includeEventhdlr(Progress(bar, offset), "progress", "progress line")
    return conshdlr


class Acyclicity(Conshdlr):
    """Cluster constraints, added lazily.

    Each separation round adds the clusters of the greedy peeling and of the shortest
    cycles (:func:`._clusters._separated_clusters`) and, with ``exact_separation``
    (``"root"`` at the root node, ``"always"`` at every node), those of the sub-IP
    (:func:`._clusters._most_violated_clusters`; at the rounds where the others found
    some, only while the sub-IPs have taken less than :data:`SUB_IP_SHARE` of the solving
    time), and where no cluster cut was found, the ``k``-cluster cuts of their own
    sub-IPs (:data:`K_CLUSTERS`). A sub-IP stops after :data:`EXACT_SECONDS` or at the
    search's own time limit, whichever comes first."""

    def __init__(self, fam, xvars, avars, exact_separation=None):
        if exact_separation not in (None, "root", "always"):
            raise ValueError(
                f"exact_separation: None, 'root' or 'always', not {exact_separation!r}"
            )
        self.fam = fam
        self.xvars = xvars
        self.avars = avars
        self.exact = exact_separation
        self.tvars = None
        self.tavars = None
        self.n_cuts = 0
        self.n_exact_cuts = 0  # of them, those only the sub-IP found
        self.n_k_cuts = 0  # of them, the k-cluster cuts (k > 1)
        self.sub_ip_seconds = 0.0  # wall seconds in the cluster sub-IPs (k = 1)
        self.n_sub_ips = 0

    def _values(self, solution=None):
        """The family variables' values in ``solution`` (None: the current LP or pseudo
        solution)."""
        model = self.model
        return np.array([model.getSolVal(solution, v) for v in self.xvars])

    def _lp_values(self):
        """The family variables' values in the current LP solution (only where one is
        solved: separation, LP enforcement, the heuristic after an LP). Read from the
        columns: 4 times faster than :meth:`_values`, which pathfinder's 89,504
        families made a tenth of the root's time."""
        return np.array([v.getLPSol() for v in self._transformed()])

    def _choice(self, values):
        fam = self.fam
        return np.array(
            [fam.start[v] + int(np.argmax(values[fam.families(v)])) for v in range(fam.n)]
        )

    def _transformed(self):
        if self.tvars is None:
            self.tvars = [self.model.getTransformedVar(v) for v in self.xvars]
        return self.tvars

    def available(self) -> np.ndarray:
        """Per family, whether a network may take it: not fixed at 0 globally."""
        return np.array([t.getUbGlobal() > 0.5 for t in self._transformed()])

    def arrow_vars(self):
        if self.tavars is None:
            self.tavars = [self.model.getTransformedVar(a) for a in self.avars]
        return self.tavars

    def _add_clusters(self, clusters, as_cuts, k=1):
        model = self.model
        tvars = self._transformed()
        added = 0
        for cluster in clusters:
            # sum over families with a parent (k parents) inside <= |C| - k, or, the same
            # given one family per variable, sum over the others >= k: the sparser
            fams, lhs, rhs = _cluster_row(self.fam, cluster, k)
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

    def _chosen(self, solution):
        """The family of each variable in ``solution``: its first family (best first) at
        more than 0.5, else its largest value. Where a variable's values sum to 1 (the
        model's own rows, which SCIP checks too), that is the family of the largest value,
        as :meth:`_choice` reads it. SCIP checks integrality before this handler, so the
        family at 1 is found after a few values: on pathfinder (109 variables, 89,504
        candidates) reading all of them made the check 35 ms, a tenth of the root's time."""
        fam, model, xvars = self.fam, self.model, self.xvars
        choice = np.empty(fam.n, dtype=np.int64)
        for v in range(fam.n):
            values = []
            for f in fam.families(v):
                values.append(model.getSolVal(solution, xvars[f]))
                if values[-1] > 0.5:  # the others read are at most 0.5: it is the largest
                    break
            choice[v] = fam.start[v] + int(np.argmax(values))
        return choice

    def conscheck(
        self, constraints, solution, checkintegrality, checklprows, printreason, completely
    ):
        ok = _cycle_free(self.fam, self._chosen(solution))
        return {"result": SCIP_RESULT.FEASIBLE if ok else SCIP_RESULT.INFEASIBLE}

    def _enforce(self, lp, as_cuts=False):
        """Enforcement on the LP (``lp``) or pseudo solution: its cycles' clusters as
        constraints, or as cuts (``as_cuts``, LP only)."""
        values = self._lp_values() if lp else self._values()
        if _cycle_free(self.fam, self._choice(values)):
            return {"result": SCIP_RESULT.FEASIBLE}
        clusters = _violated_clusters(self.fam, np.round(values), multi=False)
        if clusters and self._add_clusters(clusters, as_cuts=as_cuts):
            return {"result": SCIP_RESULT.SEPARATED if as_cuts else SCIP_RESULT.CONSADDED}
        return {"result": SCIP_RESULT.INFEASIBLE}

    def consenfolp(self, constraints, nusefulconss, solinfeasible):
        return self._enforce(lp=True)

    def consenfops(self, constraints, nusefulconss, solinfeasible, objinfeasible):
        return self._enforce(lp=False)

    def _sub_ip_seconds(self):
        model = self.model
        left = model.getParam("limits/time") - model.getSolvingTime()
        return min(EXACT_SECONDS, max(left, 1e-3))

    def _sub_ip_affordable(self) -> bool:
        """Whether the cluster sub-IPs have taken less than :data:`SUB_IP_SHARE` of the
        solving time so far (always at 1 or more)."""
        if SUB_IP_SHARE >= 1.0:  # they never take more than the solving time
            return True
        return self.sub_ip_seconds < SUB_IP_SHARE * self.model.getSolvingTime()

    def conssepalp(self, constraints, nusefulconss):
        values = self._lp_values()
        support = _support_graph(self.fam, values, _CUT_EPS)
        clusters = _separated_clusters(self.fam, values, support=support)
        exact_here = self.exact == "always" or (self.exact == "root" and self.model.getDepth() == 0)
        added = 0  # k-cluster cuts
        if exact_here and (not clusters or self._sub_ip_affordable()):
            met = set(map(tuple, clusters))
            start = time.perf_counter()
            exact = _most_violated_clusters(
                self.fam, values, time_limit=self._sub_ip_seconds(), support=support
            )
            self.sub_ip_seconds += time.perf_counter() - start
            self.n_sub_ips += 1
            exact = [c for c in exact if tuple(c) not in met]
            self.n_exact_cuts += len(exact)
            clusters += exact
            if not clusters:  # the k-cluster sub-IPs are slower: only once none is left
                added = self._add_k_clusters(values, support)
        if clusters and self._add_clusters(clusters, as_cuts=True):
            return {"result": SCIP_RESULT.SEPARATED}
        return {"result": SCIP_RESULT.SEPARATED if added else SCIP_RESULT.DIDNOTFIND}

    def _add_k_clusters(self, values, support) -> int:
        """The most violated ``k``-cluster cut of each component by sub-IP, for each ``k``
        of :data:`K_CLUSTERS`: how many were added (counted in ``n_k_cuts`` too).
        ``support``: the round's :func:`._clusters._support_graph`."""
        added = 0
        for k in K_CLUSTERS:
            found = _most_violated_clusters(
                self.fam, values, time_limit=self._sub_ip_seconds(), k=k, support=support
            )
            added += self._add_clusters(found, as_cuts=True, k=k)
        self.n_k_cuts += added
        return added

    def conslock(self, constraint, locktype, nlockspos, nlocksneg):
        # choosing a family with parents can close a cycle; dropping one never does
        for f, var in enumerate(self.xvars):
            if self.fam.size[f]:
                self.model.addVarLocksType(var, locktype, nlocksneg, nlockspos)


#: The ``k`` of the ``k``-cluster cuts (:func:`._clusters._cluster_families`; Cussens
#: 2011) that the exact separation adds, each by its own sub-IP, where it runs and once
#: no cluster cut is left. Measured with the sub-IP at every round, the bound-first
#: solver alone, 300 s on one core, beside another run, as the bound's distance above
#: the best network known: barley (48 variables, 22,938 candidates, qNML, N = 500, 3
#: parents; tuning half) 0.2015% without, 0.1510% with (56 cuts, of 8-14 variables; with
#: them at every root round, the root's bound was 16% nearer the network); andes BIC
#: (223 variables, 10,393 candidates, N = 1000) 0.1468% against 0.1493% (one cut, still
#: in the root). At every node the sub-IPs took 165 of barley's 300 s (0.2085%); at
#: every round of the root, 240 of andes' (0.1463%). 3-cluster cuts: none violated on
#: barley.
K_CLUSTERS = (2,)

#: At the rounds where the peeling and the shortest cycles found cuts, the exact
#: separation's cluster sub-IP runs only while the sub-IPs have taken less than this
#: share of the solving time (at the others, always; 0: only there; 1: at every round).
#: Measured like :data:`K_CLUSTERS` (tuning half), two runs side by side, as the bound's
#: distance above the best network known after 300 s, against every round:
#:
#: - andes BIC, where at every round the sub-IPs took 192-241 of the 300 s (0.8-0.9 s
#:   each): 0.1235% and 0.1187% (seeds 1 and 2) against 0.1464% and 0.1318% (at 0.1:
#:   0.1389%);
#: - barley: 0.1472% against 0.1510% (an earlier run);
#: - pathfinder qNML, whose sub-IPs take 14% of its time: the same search (158 sub-IPs),
#:   proven at the root in 188.1 s against 203.0 s;
#: - hailfinder BDeu(10), N = 5000: proven in 175.9 s against 198.9 s.
#:
#: At 0, andes was at 0.1293% (1,197 LP rounds instead of 292), but pathfinder still in
#: its root after 450 s (0.0086%); letting SCIP choose among the cuts instead of forcing
#: them into the LP made andes and barley worse (0.2164% and 0.1638%).
SUB_IP_SHARE = 0.25

#: Seconds a sub-IP of the exact separation (:class:`Acyclicity`) may take at most; on
#: andes (223 variables, 17,148 candidates) one took 32 ms on average.
#:
#: In branch and price over 100,000+ candidates every sub-IP reaches it: on plants fNML
#: p2 (tuning half, 147,358 candidates) one component of 67-68 variables and 485-498
#: families of the support, 2-4 nodes, 1.5 of the 2 s in strong branching; the sub-IPs
#: took 76-85 of 150 s of branch and price. Branching by inference instead (reliability
#: and pseudo-cost branching off) searches 100-200 nodes and finds clusters 4-5 times
#: as violated (on 12 recorded LP solutions: 0.23-0.33 for the most violated on average,
#: against 0.06-0.07), but the bound does not follow. Branch and price for 150 s from
#: the same root pricing, seeds 1 and 2, as the bound's distance above the best network
#: known: plants 0.0481% and 0.0502% as it is, 0.0610% and 0.0687% by inference (at 1 s:
#: 0.0613% as it is, 0.0710% by inference); bnetflix fNML p2 (303,107 candidates)
#: 0.0385% and 0.0387% as it is, 0.0346% and 0.0337% by inference (at 1 s: 0.0340% and
#: 0.0293%). One row each way, so neither changed.
#:
#: A local search finds far more violated clusters than the sub-IP, and it is much
#: faster. From a start, it takes the best move (add or remove one member) while one
#: raises the violation, the gains of every move summed again after each move. On the
#: LP solutions where the sub-IP ran (41 on plants, 40 on bnetflix, recorded in branch
#: and price's root), started from each peeling's cluster it found clusters violated by
#: 0.16-0.38 in 3-9 ms; started from the whole component, 0.18-0.27 on plants, with
#: about 50 of the component's 68 variables. The sub-IP, in its 2 s, found 0.006-0.19.
#: (Each violation is checked on the LP solution by :func:`._clusters._violation`.) In
#: branch and price the bound did not follow on plants. Each run below is 150 s of
#: branch and price from the same root pricing, the bound's distance above the best
#: network known:
#:
#: - From the peelings, in the sub-IP's place (the sub-IP only where it too found
#:   nothing): plants 0.0743% and 0.0747% (seeds 1, 2; 347-349 LP rounds), against
#:   0.0657% and 0.0598% as it is (143-149 rounds). bnetflix 0.0318%, against 0.0375%.
#: - Its clusters added to the sub-IP's: plants 0.0692%, bnetflix 0.0334%.
#: - At every round: plants 0.0724%, bnetflix 0.0317%.
#: - On plants only, in the sub-IP's place:
#:   - from the whole component, and from it minus each member (never added back): 0.0841%;
#:   - those and the peelings: 0.0752%;
#:   - from the whole component's starts, with every violated cluster met on the way:
#:     the 30 most violated, 0.0851%; 30 spread over the violations, 0.0855%;
#:   - of those and the peelings, the most violated cluster only: 0.0806% (532 rounds,
#:     543 cuts); the three most violated: 0.0762%.
#:
#: So the number of cuts is not the cause: the sub-IP's weaker clusters raise plants'
#: bound more per round. On bnetflix every variant's LP solutions also led the sink
#: heuristic to a network of -877,500.5. That is 155 nats better than the best known
#: before, -877,655.1, and the run as it is found -877,662.3. One tuning row each way,
#: as with branching by inference, so the separation is unchanged.
#:
#: Re-measured on 2026-12-07 from the root that has the local search, branch and price
#: alone for 400 s from one saved root pricing per row, the local search where the
#: peeling and the short cycles find nothing (then the sub-IP within
#: :data:`SUB_IP_SHARE`), seeds 1 and 2: plants 0.0194% and 0.0187% against 0.0141% and
#: 0.0174% as it is, baudio BDeu(1) p2 0.0223% and 0.0158% against 0.0076% and 0.0071%,
#: bnetflix fNML p2 0.0022% and 0.0024% either way (``benchmarks/README.md``, "The local
#: search in branch and price's separation, from one root"). Not kept.
EXACT_SECONDS = 2.0


class Sinks(Heur):
    """GOBNILP's sink heuristic on the LP solution, then local search."""

    def __init__(self, fam, conshdlr, arrows_of):
        self.fam = fam
        self.conshdlr = conshdlr
        self.arrows_of = arrows_of
        self.last = None

    def heurexec(self, heurtiming, nodeinfeasible):

        model = self.model
        if model.getLPSolstat() != SCIP_LPSOLSTAT.OPTIMAL:
            return {"result": SCIP_RESULT.DIDNOTRUN}
        values = self.conshdlr._lp_values()
        key = np.round(values, 4).tobytes()
        if key == self.last:
            return {"result": SCIP_RESULT.DIDNOTRUN}
        self.last = key
        tvars = self.conshdlr._transformed()
        available = self.conshdlr.available()
        choice = _greedy(self.fam, weights=values, available=available)
        if choice is None:
            return {"result": SCIP_RESULT.DIDNOTFIND}
        choice = _improve(self.fam, choice, available)
        sol = model.createSol(self)
        _set_network(model, sol, choice, tvars, self.conshdlr.arrow_vars(), self.arrows_of)
        accepted = model.trySol(sol, printreason=False)
        return {"result": SCIP_RESULT.FOUNDSOL if accepted else SCIP_RESULT.DIDNOTFIND}


#: Seconds between two updates of the progress display by the event handler (a bar is
#: redrawn at most this often; the plain lines of a log keep their own, longer period).
REFRESH = 0.5

#: The events that update the progress display: a new incumbent, a solved node and a
#: better dual bound. The last fires after every LP of the root's cut loop that raises
#: the bound (many minutes on large instances, where no node is solved and often no
#: incumbent found); SCIP's LPSOLVED fires only once a node's cut loop is over.
_EVENTS = ("BESTSOLFOUND", "NODESOLVED", "DUALBOUNDIMPROVED")


class _Throttled(Eventhdlr):
    """An event handler that acts (:meth:`act`) on SCIP's :data:`_EVENTS` at most every
    ``every`` seconds (``clock``: seconds as a float, for tests); a call within ``every``
    seconds of the last action returns at once (one clock reading), so the events cost
    nothing measurable."""

    def __init__(self, every, clock=time.perf_counter):
        self.every = every
        self.clock = clock
        self.last = -math.inf

    def eventinit(self):
        for name in _EVENTS:
            self.model.catchEvent(getattr(SCIP_EVENTTYPE, name), self)

    def eventexit(self):
        for name in _EVENTS:
            self.model.dropEvent(getattr(SCIP_EVENTTYPE, name), self)

    def eventexec(self, event):
        now = self.clock()
        if now - self.last >= self.every and self.act():
            self.last = now
        return {}

    def act(self) -> bool:  # pragma: no cover - every subclass defines it
        """Do the handler's work; False when there was nothing to do yet (the next event
        tries again)."""
        raise NotImplementedError


class Progress(_Throttled):
    """Incumbent, sound bound and gap on the progress display, at most every ``every``
    seconds.

    SCIP calls it on every new incumbent, solved node and better dual bound (after an
    LP of the root's cut loop, too). Between events,
    :func:`~pgmpy_nml._progress.keep_alive` keeps the lines coming.
    """

    def __init__(self, bar, offset, every=REFRESH, clock=time.perf_counter):
        super().__init__(every, clock)
        self.bar = bar
        self.offset = offset

    def act(self) -> bool:
        if self.model.getNSols() == 0:
            return False
        show_status(self.bar, *_model_status(self.model, self.offset))
        return True


class Stop(_Throttled):
    """Interrupt SCIP when ``stop()`` returns True (the portfolio: the other engine has
    finished), asked at most every ``every`` seconds at a new incumbent, a solved node or
    a better dual bound. The search then ends like at a time limit: the best network so
    far and a proven bound (status ``"stopped"``).

    Only while SCIP presolves or solves: in its other stages (initializing the solve,
    which its events can reach) SCIP refuses an interrupt with an error that ends the
    whole search (pathfinder, qNML, 3 parents, 60,726 candidates, when the other engine
    had finished first); there the next event asks again."""

    def __init__(self, stop, every, clock=time.perf_counter):
        super().__init__(every, clock)
        self.stop = stop

    def act(self) -> bool:
        return _interrupt_if(self.model, self.stop)


#: The stages in which SCIP takes an interrupt (:class:`Stop`).
INTERRUPTIBLE = (SCIP_STAGE.PRESOLVING, SCIP_STAGE.SOLVING)


def _interrupt_if(model, stop) -> bool:
    """Interrupt ``model`` if ``stop()`` says so; False (ask again at the next event)
    when SCIP is in a stage that refuses an interrupt, where ``stop`` is not asked."""
    if model.getStage() not in INTERRUPTIBLE:
        return False
    if stop():
        model.interruptSolve()
    return True


def scip_settings(model, time_limit, gap_limit, seed) -> None:
    """The solver's settings of a new SCIP ``model`` (see :func:`._scip_model._model`)."""
    model.hideOutput(True)
    model.setIntParam("randomization/randomseedshift", int(seed) % 2**31)  # a C int
    if time_limit is not None:
        model.setRealParam("limits/time", float(time_limit))
    model.setRealParam("limits/gap", float(gap_limit))
    # keep every family variable a column of its own: the cuts and the heuristic use them
    model.setBoolParam("presolving/donotaggr", True)
    model.setBoolParam("presolving/donotmultaggr", True)
    # SCIP's aggregation (c-MIR) separator found no cut on these models and took a third
    # of the root's time on insurance (27 variables, 3029 candidates, qNML, N = 5000)
    model.setIntParam("separating/aggregation/freq", -1)
    # nor did its clique separator (the cliques of these models are their set-packing
    # rows, already in the LP), which took 40% of andes' root (80 of 200 s; 223 variables,
    # 17,148 candidates, fNML, N = 1000, 2 parents) and 10% of pathfinder's
    model.setIntParam("separating/clique/freq", -1)


#: Seconds between two calls of the portfolio's ``stop``.
_STOP_POLL = 0.05


def start_search(model, stop, settings, first, xvars, avars, arrows_of) -> None:
    """What the branch and cut and the branch and price add before SCIP solves: the
    :class:`Stop` handler for ``stop`` (None: none), SCIP's ``settings`` (a dict) and the
    network ``first`` as a first solution (None: none)."""
    if stop is not None:
        model.includeEventhdlr(Stop(stop, _STOP_POLL), "stop", "the portfolio's stop")
    for name, value in settings.items():
        model.setParam(name, value)
    if first is not None:
        sol = model.createSol()
        _set_network(model, sol, first, xvars, avars, arrows_of)
        model.addSol(sol)


def _set_network(model, sol, choice, xvars, avars, arrows_of):
    """Write a network (one family per variable) into ``sol``: its families and arrows."""
    for f in choice:
        model.setSolVal(sol, xvars[f], 1.0)
        for a in arrows_of[f]:
            model.setSolVal(sol, avars[a], 1.0)


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


def _model_status(model, offset: float) -> tuple[float, float, int]:
    """The incumbent, the sound bound and the nodes of a running SCIP model."""
    score = model.getPrimalbound() + offset
    bound = _sound_bound(model.getDualbound(), offset, score, model.infinity())
    return score, bound, model.getNNodes()
