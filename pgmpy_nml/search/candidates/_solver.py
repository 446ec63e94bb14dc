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
  a cut; so is the cluster of the shortest cycle through each variable, with arc
  lengths one minus the arc's LP value (:func:`._clusters._cycle_clusters`: a cycle
  shorter than 1 is a violated cluster). The peeling alone gives one cluster per
  component, the whole component when the LP solution is an integer network with
  cycles: on andes with 3 parents (223 variables, 65,318 candidates, fNML, N = 1000)
  its root moved by about 0.1 a round, 4.29% from proven after 600 s in the
  portfolio. The portfolio's second solver (``bound_first``) also solves at its root
  GOBNILP's sub-IP for the most violated cluster of each component
  (:func:`._clusters._most_violated_clusters`), which finds clusters the peeling
  misses: after 600 s andes' gap went from 2.36% to 0.919%, pathfinder's from
  0.654% to 0.130% (:data:`._scip_model.BOUND_FIRST`). At every node it made hailfinder slower,
  and in SCIP's default search too. Each cut is written in the sparser of its two
  equivalent forms.

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

Interchangeable variables (:mod:`._symmetry`: swapping them maps the candidates
onto themselves with the same scores, as duplicated data columns do) are kept in
increasing order: each member of a class must come after the one before it, which
the cluster constraints, the heuristics and the feasibility check read as one more
parent (``_Families.preds``), and the families that would put a later member first
are fixed at 0. Some optimal network is in order (the proof is in
:mod:`._symmetry`), and the search no longer proves each mirror image apart: on
hailfinder's three duplicated pairs (56 variables, BDeu(100), N = 1000, 4,438
candidates) the bound-first solver alone proves the optimum in 305 s of CPU, where
it was still 0.16% from proven after 600 s. The arrow variables stay those of the
families' own parents.

A sink-finding primal heuristic guided by the LP solution (after GOBNILP's
``heur_sinks``: the variable placed last is the one whose placement destroys
the least LP value, and it takes its best-scoring allowed family) and a
family-swap local search turn LP solutions into networks, during the root cut
loop and at every node; before the search, the same heuristic without LP
values gives the first network (the portfolio's bound-first solver improves it by
the iterated order search first). SCIP closes the gap by branch and cut. When a
limit stops it first, an iterated order-based local search
(:func:`._heuristics._order_search`, after Teyssier and Koller 2005; a second or
two) improves the best network found, for the same proven bound.

On very many candidates (:data:`._pricing.PRICING_MIN_CANDIDATES`, a million on
pathfinder with 3 parents) SCIP's root LP over every family barely moves; there, and
from :data:`._pricing.PRICING_MIN_PER_VARIABLE` candidates per variable on (above
:data:`._pricing.PRICING_MAX_VARIABLES` variables, only from
:data:`._pricing.PRICING_MIN_CANDIDATES_MANY` candidates on:
:func:`._pricing.prices_root`), the bound-first solver prices its root instead
(:mod:`._pricing`): an LP over a few thousand families and the clusters separated on it
gives multipliers, and from them a Lagrangian bound over every family, and the families
no network above the first one can take are dropped. If the time limit leaves time after
that, SCIP's branch and price (:mod:`._branch_price`) searches the families kept from
the LP's families and cuts, and the result's bound is the smaller of the two.

Numerics: the objective is handed to SCIP relative to each variable's best
local score (all coefficients <= 0, the optimum near 0), which keeps SCIP's
relative tolerances tight. SCIP's optimality is within its tolerances (about
1e-9 relative, 1e-6 absolute on the objective); the returned score is always
recomputed exactly from the float local scores, and the bound is the larger of
SCIP's dual bound and that score.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..._memory import available_memory
from ..._params import RandomState, scip_seed
from ..._progress import keep_alive, progress_bar
from ..._validate import as_gap_limit, as_time_limit
from ._clusters import _cluster_row
from ._families import (
    _checked_families,
    _cycle_free,
    _Families,
    _gap,
    _initial_choice,
    _network_result,
    show_status,
)
from ._heuristics import ORDER_ROUNDS, _greedy, _improve, _order_search
from ._pricing import prices_root, root_pricing
from ._scip_model import _STATUS, BOUND_FIRST, ROOT_ZEROHALF, _model

if TYPE_CHECKING:
    from .._result import SearchResult
    from ._files import CandidateParentSets

__all__ = ["solve"]


def solve(
    candidates: CandidateParentSets,
    *,
    time_limit: float | None = None,
    initial: Mapping[Hashable, Iterable[Hashable]] | Sequence[Iterable[Hashable]] | None = None,
    n_threads: int | None = None,
    show_progress: bool = True,
    gap_limit: float = 0.0,
    random_state: int | np.random.Generator | np.random.SeedSequence | None = 0,
) -> SearchResult:
    r"""The highest-scoring DAG that takes one candidate parent set per variable.

    Integer programming over the candidates (GOBNILP's model, see the module
    notes) on SCIP through PySCIPOpt: a greedy first network, then branch and
    cut until the network is proven optimal or ``time_limit`` runs out.

    Parameters
    ----------
    candidates : CandidateParentSets
    time_limit : float, optional
        Seconds for the search (the first network and building the model
        included: on 1.2 million candidates the model takes a minute); without it
        the search runs until optimal.
        When it runs out, the best network so far is returned with a proven
        upper bound and the gap. So is it when SCIP's search would outgrow the
        memory available (``status="memorylimit"``): SCIP's memory limit is set to
        what the model holds plus 80% of the memory still available.
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
    random_state : int, numpy Generator or SeedSequence, or None, default 0
        SCIP's random seed shift (``scip_seed``: an integer of any size modulo
        2**31, SCIP's range; None: SCIP's default, 0; a Generator or SeedSequence: one
        draw from it), the rule of ``ExactSearch(random_state=...)``. The same input
        and settings give the same network (SCIP is deterministic); a run cut by
        ``time_limit`` depends on the machine's speed.

    Returns
    -------
    SearchResult
        With ``method="solver"``, the network (``dag``, and ``parents``, ``choice``
        per variable), its ``score``, the proven ``bound`` and ``gap``, ``optimal``,
        SCIP's final ``status``, ``engine`` (``"scip <version>"``), ``timings``
        (seconds: ``"first network"``, ``"model"``, ``"search"``), ``n_cuts`` (cluster
        constraints added during the search) and the ``candidates``.

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
    time_limit = as_time_limit(time_limit)
    gap_limit = as_gap_limit(gap_limit)
    seed = scip_seed(RandomState().validate(random_state, "random_state"))
    return _solve(candidates, initial, time_limit, gap_limit, seed, show_progress)


def _solve(
    candidates,
    initial,
    time_limit,
    gap_limit,
    seed,
    show_progress,
    stop=None,
    bound_first=False,
    memory_share=None,
    label="exact search",
    display=None,
) -> SearchResult:
    """:func:`solve` with checked settings. The portfolio (:mod:`._portfolio`) also
    passes ``stop`` (a call without arguments, polled at SCIP's events at most every
    :data:`._scip_plugins._STOP_POLL` seconds: when it returns True the search ends like at a time
    limit, with status ``"stopped"``), ``bound_first`` (SCIP's settings
    :data:`._scip_model.BOUND_FIRST`), ``memory_share`` (of the memory available, for SCIP's search;
    by default :data:`_SCIP_MEMORY_SHARE`, half of it each when two solvers share the
    machine) and ``label``, the progress lines' name, or ``display``, where to report
    instead of a display of its own (the portfolio's one line for both engines; left
    open)."""
    bar = _progress_bar(show_progress, label) if display is None else display
    try:
        # lines at their period from the start: the first network, the model (a minute on
        # a million candidates) and SCIP's search, within one long LP too
        with keep_alive(bar):
            return _branch_and_cut(
                candidates,
                initial,
                time_limit,
                gap_limit,
                seed,
                bar,
                stop,
                bound_first,
                _SCIP_MEMORY_SHARE if memory_share is None else memory_share,
            )
    finally:
        if bar is not None and display is None:
            bar.close()


#: Whether the bound-first solver's branch and cut after root pricing prices the kept
#: families at its nodes (:mod:`._branch_price`) instead of taking them all as columns.
BRANCH_AND_PRICE = True


def _branch_and_cut(
    candidates,
    initial,
    time_limit,
    gap_limit,
    seed,
    bar,
    stop,
    bound_first,
    memory_share,
    pricing=True,
    clusters=(),
) -> SearchResult:
    """:func:`_solve`, showing its progress on ``bar`` (or None). With ``bound_first``
    and enough candidates (:func:`._pricing.prices_root`), the root is priced
    first (:func:`_priced`; not with ``pricing=False``); ``clusters`` are cluster
    constraints the model starts with."""
    from pyscipopt import quicksum

    from . import _scip_plugins as plugins

    timings = {}
    begin = start = time.perf_counter()
    fam = _checked_families(candidates)
    first = _first_network(fam, candidates, initial)
    if bound_first and first is not None:
        first = _order_search(
            fam,
            first,
            seed=seed,
            rounds=ORDER_ROUNDS,
            deadline=start + _first_order_seconds(time_limit),
        )
    timings["first network"] = time.perf_counter() - start
    if bar is not None and first is not None:
        show_status(bar, fam.total(first), candidates.upper_bound())
    if pricing and first is not None:
        too_large = _model_limit(len(fam), time_limit, memory_share)
        if too_large or (bound_first and prices_root(len(fam), fam.n)):
            args = (time_limit, gap_limit, seed, bar, stop, memory_share, timings)
            return _priced(fam, candidates, first, begin, *args)

    start = time.perf_counter()
    offset = math.fsum(fam.best)
    model, xvars, avars, arrows_of = _model(fam, time_limit, gap_limit, seed)
    for k, cluster in enumerate(clusters):
        fams, lhs, rhs = _cluster_row(fam, cluster)
        expr = quicksum(xvars[f] for f in fams)
        model.addCons(expr <= rhs if lhs is None else expr >= lhs, name=f"priced{k}")
    conshdlr = plugins.include_plugins(
        model, fam, xvars, avars, arrows_of, bar, offset, "root" if bound_first else None
    )
    settings = {**BOUND_FIRST, **ROOT_ZEROHALF} if bound_first else {}
    plugins.start_search(model, stop, settings, first, xvars, avars, arrows_of)
    timings["model"] = time.perf_counter() - start
    if time_limit is not None:  # the limit covers the first network and the model too
        spent = timings["first network"] + timings["model"]
        model.setRealParam("limits/time", max(time_limit - spent, 1e-3))
    model.setRealParam("limits/memory", _memory_limit_mb(model, memory_share))

    start = time.perf_counter()
    model.optimizeNogil()  # SCIP without the GIL: keep_alive's thread can run
    timings["search"] = time.perf_counter() - start
    status, choice = _solution(model, fam, xvars, time_limit)
    if status not in ("optimal", "stopped"):  # a better network for the same bound
        # (not when the portfolio's other engine has finished: no time to spend)
        choice = _after_search(fam, choice, seed, timings)
    score = fam.total(choice)
    bound = plugins._sound_bound(model.getDualbound(), offset, score, model.infinity())
    result = _network_result(
        fam,
        candidates,
        choice,
        bound,
        status,
        method="solver",
        engine=f"scip {_scip_version()}",
        timings=timings,
        n_cuts=conshdlr.n_cuts,
    )
    if bar is not None:  # the display's last line is the result's
        show_status(bar, result.score, result.bound, model.getNNodes())
    return result


def _priced(
    fam, candidates, first, begin, time_limit, gap_limit, seed, bar, stop, memory_share, timings
) -> SearchResult:
    """The bound-first solver on very many candidates: root pricing (:mod:`._pricing`)
    from the first network, then, if time is left, branch and price over the families it
    kept (:data:`BRANCH_AND_PRICE`; else branch and cut over them all), starting from its
    cuts. ``begin``: when the search began (``time_limit`` counts from it).

    Sound: pricing's bound holds for every network; a network above the first one takes
    only kept families, so the search over them bounds it, and the first network is
    among them; the result's bound is the smaller of the two."""
    offset = math.fsum(fam.best)
    score = fam.total(first)
    deadline = None if time_limit is None else begin + time_limit
    # the order search's seconds at the end, when the time limit stops the pricing
    reserve = 0.0 if time_limit is None else _first_order_seconds(time_limit)

    def report(bound):
        if bar is not None:
            show_status(bar, score, bound + offset)

    start = time.perf_counter()
    priced = root_pricing(
        fam, first, None if deadline is None else deadline - reserve, report, stop
    )
    timings["root pricing"] = time.perf_counter() - start
    choice, bound = np.asarray(first), priced.bound + offset
    engine, n_cuts = f"root pricing (scip {_scip_version()})", priced.n_cuts
    # whether SCIP's model over the kept families would fit in the memory and time left
    limit = _model_limit(int(priced.kept.sum()), _left(deadline), memory_share)
    out_of_time = deadline is not None and time.perf_counter() >= deadline - reserve
    if priced.bound <= priced.incumbent:  # compared as computed, relative to the best
        status = "optimal"
    elif _gap(score, bound) <= gap_limit:
        status = "gaplimit"
    elif stop is not None and stop():
        status = "stopped"
    elif BRANCH_AND_PRICE and not out_of_time:
        from ._branch_price import priced_search

        memory = functools.partial(_memory_limit_mb, share=memory_share)
        args = (_left(deadline), gap_limit, seed, bar, stop, memory, timings)
        choice, sub_bound, status, sub_cuts = priced_search(fam, priced, first, *args)
        if status not in ("optimal", "stopped"):  # as after _branch_and_cut's search
            choice = _after_search(fam, choice, seed, timings)
        bound, n_cuts = min(bound, sub_bound), n_cuts + sub_cuts
        engine = f"root pricing, branch and price (scip {_scip_version()})"
    elif out_of_time or limit:
        # a better network for the same bound, as after SCIP's limit, in the time kept
        # for it (another seed than the first network's: the same would repeat its kicks);
        # also when the kept families are too many for SCIP's model in the memory or the
        # time left
        status = limit or "timelimit"
        choice = _last_order_search(fam, choice, seed + 1, deadline, timings)
    else:  # branch and cut over the kept families, from the cuts
        args = (deadline, gap_limit, seed, bar, stop, memory_share, timings)
        choice, sub_bound, status, sub_engine, sub_cuts = _kept_search(
            fam, candidates, priced, first, *args
        )
        bound, engine, n_cuts = min(bound, sub_bound), sub_engine or engine, n_cuts + sub_cuts
    result = _network_result(
        fam,
        candidates,
        choice,
        bound,
        status,
        method="solver",
        engine=engine,
        timings=timings,
        n_cuts=n_cuts,
    )
    if bar is not None:  # the display's last line is the result's
        show_status(bar, result.score, result.bound)
    return result


def _kept_search(
    fam, candidates, priced, first, deadline, gap_limit, seed, bar, stop, share, timings
):
    """:func:`_branch_and_cut` over the families root pricing kept (``priced``), from its
    cuts and the first network: ``(choice, bound, status, engine, cuts added)``, the
    choice in global family indices; its seconds are added to ``timings``."""
    names = candidates.variables
    start_dag = {names[v]: [names[u] for u in fam.parents[f]] for v, f in enumerate(first)}
    sub = _branch_and_cut(
        _kept_candidates(fam, candidates, priced.kept),
        start_dag,
        _left(deadline),
        gap_limit,
        seed,
        bar,
        stop,
        True,
        share,
        pricing=False,
        clusters=priced.cuts,
    )
    # the solver's results always have these
    assert sub.choice is not None and sub.bound is not None and sub.status is not None
    # the kept candidates keep the order of the families: the k-th kept family of v
    choice = np.array(
        [
            fam.start[v] + np.flatnonzero(priced.kept[fam.families(v)])[k]
            for v, k in enumerate(sub.choice)
        ]
    )
    timings.update({k: t for k, t in (sub.timings or {}).items() if k != "first network"})
    return choice, sub.bound, sub.status, sub.engine, sub.n_cuts or 0


def _after_search(fam, choice, seed, timings):
    """The order search's default rounds, then the local search, from the network a
    search that a limit stopped ended with (a second or less on andes)."""
    start = time.perf_counter()
    choice = _improve(fam, _order_search(fam, choice, seed=seed))
    timings["order search"] = time.perf_counter() - start
    return choice


def _last_order_search(fam, choice, seed, deadline, timings):
    """The iterated order search from ``choice`` until ``deadline`` (its first local
    search always; :data:`ORDER_ROUNDS` rounds at most), then the local search: a better
    network for the bound the search ended with. (It used to go on for a second at least,
    past the deadline when the search had reached it.)"""
    start = time.perf_counter()
    choice = _order_search(fam, choice, seed=seed, rounds=ORDER_ROUNDS, deadline=deadline)
    choice = _improve(fam, choice)
    timings["order search"] = time.perf_counter() - start
    return choice


def _left(deadline: float | None) -> float | None:
    """Seconds until ``deadline`` (a :func:`time.perf_counter` reading), at least a
    millisecond; None without one."""
    return None if deadline is None else max(deadline - time.perf_counter(), 1e-3)


def _kept_candidates(fam, candidates, kept) -> CandidateParentSets:
    """The candidates of the families ``kept`` (a mask), in the same order."""
    from ._files import CandidateParentSets

    parent_sets, scores = [], []
    for v in range(fam.n):
        rows = fam.start[v] + np.flatnonzero(kept[fam.families(v)])
        parent_sets.append([candidates.parent_sets[v][f - fam.start[v]] for f in rows])
        scores.append(fam.score[rows])
    return CandidateParentSets(candidates.variables, parent_sets, scores)


#: share of the memory still available that SCIP's search may take (the rest: the order
#: search, the result and the other processes)
_SCIP_MEMORY_SHARE = 0.8


#: What SCIP's model over every candidate takes per candidate (its columns, the arrows'
#: rows, the cluster cuts' data) when built, measured on nips (500 variables, fNML, 2
#: parents, 715,899 candidates): 20.1 s and 5.05 GB at peak, the machine loaded; rounded up.
MODEL_BYTES_PER_CANDIDATE = 8_000
MODEL_SECONDS_PER_CANDIDATE = 3.5e-5


def _model_limit(n_candidates: int, time_limit, memory_share: float) -> str | None:
    """What stops SCIP's model over ``n_candidates`` candidates from being built:
    ``"memorylimit"`` when it would take more than ``memory_share`` of the memory
    available, ``"timelimit"`` when more than half of ``time_limit`` seconds, else None.
    Such a model is not built: the solver prices its root first (:func:`_priced`), whose
    LP holds only the families it prices in. Building cannot be interrupted: on baudio
    (100 variables, fNML, 3 parents, 9,597,500 candidates) it had not ended after 120 s
    and 18 GB."""
    if n_candidates * MODEL_BYTES_PER_CANDIDATE > memory_share * available_memory():
        return "memorylimit"
    if time_limit is not None and n_candidates * MODEL_SECONDS_PER_CANDIDATE > time_limit / 2:
        return "timelimit"
    return None


def _memory_limit_mb(model, share: float = _SCIP_MEMORY_SHARE) -> float:
    """SCIP's ``limits/memory`` (MB): what SCIP holds now (the model) plus a share of the
    memory still available (:func:`~pgmpy_nml._memory.available_memory`, which counts
    what this process already holds as taken). A search that outgrows it stops like a
    time limit does (status ``"memorylimit"``: the best network, a proven bound, the gap)
    instead of being killed by the system."""
    held = model.getMemUsed() + model.getMemExternEstim()
    return (held + share * available_memory()) / 2**20


def _scip_version() -> str:
    import pyscipopt

    return pyscipopt.__version__


def _first_network(fam: _Families, candidates: CandidateParentSets, initial):
    """The network the search starts from: ``initial`` (checked), else the greedy sinks
    improved by local search; None when the greedy finds none.

    Not the iterated order search: a better first network made SCIP's default search
    slower. On hailfinder (56 variables, BDeu(1), N = 10000) SCIP proved the optimum in
    830 nodes from the greedy network, in 1237 from the order search's (0.004% from
    optimal), and had not proven it after 400 s from the optimal network itself. The
    bound-first solver (:data:`._scip_model.BOUND_FIRST`), whose root and best-first nodes do not
    follow the incumbent, starts from the order search's network
    (:data:`FIRST_ORDER_SHARE`).
    """
    if initial is not None:
        return _initial_choice(fam, candidates, initial)
    first = _greedy(fam)
    return None if first is None else _improve(fam, first)


#: Share of the time limit the bound-first solver (:data:`._scip_model.BOUND_FIRST`) spends on the
#: iterated order search for its first network, and the seconds at most (also with no
#: time limit). From a better network the root's bound rises faster (likely SCIP's
#: fixing by reduced cost, which a better incumbent strengthens): on andes (223
#: variables, 17,148 candidates, fNML, N = 1000, 2 parents) the root's bound after 240 s
#: was -94,642 from the order search's network (-96,051.5; 2000 rounds, 7.5 s) and
#: -94,323 from the greedy one (-96,373.7), the two run side by side; in the portfolio,
#: 0.874% from proven after 600 s, against 1.29% before.
FIRST_ORDER_SHARE = 0.02
FIRST_ORDER_SECONDS = 15.0


def _first_order_seconds(time_limit) -> float:
    """Seconds of the bound-first solver's order search (:data:`FIRST_ORDER_SHARE`)."""
    if time_limit is None:
        return FIRST_ORDER_SECONDS
    return min(FIRST_ORDER_SECONDS, FIRST_ORDER_SHARE * float(time_limit))


def _progress_bar(show_progress: bool, label: str = "exact search"):
    """The progress line named ``label`` (None without progress)."""
    if not show_progress:
        return None
    return progress_bar(True, label, total=None, bar_format="{desc}: {elapsed} {postfix}")


def _solution(model, fam: _Families, xvars, time_limit):
    """SCIP's final status and its best network (global family indices), checked."""
    status = _STATUS.get(model.getStatus(), model.getStatus())
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
    return status, choice
