"""The candidate pipeline end to end, as :class:`~pgmpy_nml.ExactSearch` runs it.

The candidate parent sets (:func:`~pgmpy_nml.search.candidates.candidate_parent_sets`),
then the best network over them: A* (``method="astar"``), SCIP's branch and cut
(``"solver"``) or two engines side by side on two cores, the first proof winning
(``"astar|solver"``, ``"solver|solver"`` and ``"order|solver"``, :mod:`._portfolio`).
When the method was chosen automatically, two solvers over very many candidates
(:func:`_too_many`), or where the bound-first one prices its root over many candidates
(:func:`_order_instead`), are ``"order|solver"``, the other ``"solver|solver"`` runs
A* for a few seconds first (:func:`_probe_seconds`), and when A* runs out of
memory branch and cut goes on from A*'s best network (``"astar+solver"``), and the
smaller of the two proven bounds holds. One time limit covers every stage: scoring
stops at :data:`SCORING_SHARE` of it, the engines then start from a hill climbing's
network (:mod:`._seed`; also after a long scoring that completed), and their bound counts
the parent sets scoring left unscored (:func:`_counting_unscored`).
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from ..._limits import ASTAR_MAX_VARIABLES
from ..._progress import PeriodicLines, nested_desc
from . import _solver
from ._astar import astar
from ._families import _gap, _last_line
from ._portfolio import _HALF_SCIP_MEMORY, PORTFOLIOS, portfolio, settle
from ._pricing import prices_root
from ._pruning import candidate_parent_sets
from ._seed import candidate_subsets, climb_seconds, seeded, spans
from ._solver import _left, solve

if TYPE_CHECKING:
    from .._result import SearchResult
    from ._files import CandidateParentSets

__all__ = ["search_candidates"]

#: share of the time limit the candidate search may take; the rest is the engines'
#: (which always find a network, however little is left)
SCORING_SHARE = 0.75

#: From this many candidates on, where the bound-first solver prices its root, the
#: automatic ``"solver|solver"`` is ``"order|solver"`` (:func:`_order_instead`).
ORDER_MIN_CANDIDATES = 100_000
#: Seconds of A* the automatic ``"solver|solver"`` runs in the calling process before its
#: bound-first solver (:func:`_probe_seconds`), and the largest share of the time limit
#: they may take.
ASTAR_PROBE_SECONDS = 2.0
ASTAR_PROBE_SHARE = 0.1


def search_candidates(
    score,
    method: str,
    *,
    max_parents,
    expert_knowledge,
    n_jobs,
    show_progress: bool,
    time_limit: float | None,
    gap_limit: float,
    seed: int,
    start_dag=None,
    max_memory: float | None = None,
    hand_over: bool = False,
    climb=None,
) -> SearchResult:
    """The best network over the candidates of ``score`` by ``method`` (``"astar"``,
    ``"solver"``, ``"astar|solver"``, ``"solver|solver"`` or ``"order|solver"``), with its
    proven bound; ``hand_over`` (the method was chosen automatically): branch and cut goes
    on when A* runs out of memory, and two solvers over very many candidates are
    ``"order|solver"`` (:func:`_order_instead`); ``climb(seconds)``: a hill climbing's
    network within ``seconds``, the engines' start when no ``start_dag`` was given and the
    time limit stopped scoring or scoring took long (:func:`._seed.climb_seconds`). The
    settings are checked ones (``ExactSearch._settings``).

    The result's ``method`` is the engine that finished (``"astar+solver"`` after a
    hand-over), ``timings`` the seconds of each stage, ``plan`` and ``pruning`` the
    candidate search's.
    """
    timings = {}
    start = time.perf_counter()
    deadline = None if time_limit is None else start + time_limit
    candidates, report = candidate_parent_sets(
        score,
        max_parents=max_parents,
        expert_knowledge=expert_knowledge,
        n_jobs=n_jobs,
        show_progress=show_progress,
        time_limit=None if time_limit is None else SCORING_SHARE * time_limit,
    )
    timings["candidate parent sets"] = time.perf_counter() - start
    if show_progress and not report.complete:
        _note("candidate parent sets", report.incomplete_text())
    scoring = timings["candidate parent sets"]
    seconds = climb_seconds(report.complete, scoring, _left(deadline))
    if start_dag is None and climb is not None and seconds is not None:
        candidates, start_dag, timings["hill climbing"] = seeded(score, candidates, climb, seconds)
        if show_progress:
            _note("hill climbing", f"the engines' first network, {timings['hill climbing']:.1f} s")
    settle(candidates)  # within the time limit, not after the engines' deadline
    begun = time.perf_counter()
    initial = None if start_dag is None else _start_network(candidates, start_dag)
    result = _engines(
        candidates,
        report,
        method,
        time_limit=_left(deadline),  # after the start network, also counted
        initial=initial,
        show_progress=show_progress,
        gap_limit=gap_limit,
        seed=seed,
        max_memory=max_memory,
        hand_over=hand_over,
        timings=timings,
    )
    if report.unscored_bound is None:  # complete
        return result
    bound = _counting_unscored(result.bound, candidates, report.unscored_bound)
    result = replace(
        result,
        bound=bound,
        gap=_gap(result.score, bound),
        status="timelimit" if bound > result.score else result.status,
    )
    if show_progress:
        _last_line(
            "exact search (with the unscored parent sets)", result, time.perf_counter() - begun
        )
    return result


def _engines(
    candidates,
    report,
    method,
    *,
    time_limit,
    initial,
    show_progress,
    gap_limit,
    seed,
    max_memory,
    hand_over,
    timings,
):
    """The best network over ``candidates`` by ``method`` with the settings of
    :func:`search_candidates` (``time_limit``: what scoring left of it)."""
    first = None
    if hand_over and _order_instead(candidates, method, time_limit):
        method = "order|solver"
    if method in PORTFOLIOS:
        both = portfolio(
            candidates,
            method=method,
            time_limit=time_limit,
            initial=initial,
            show_progress=show_progress,
            gap_limit=gap_limit,
            seed=seed,
            max_memory=max_memory,
            probe=_probe_seconds(candidates, method, time_limit) if hand_over else 0.0,
        )
        timings.update(both.timings or {})
        return _finish(both, method, both.bound, timings, report)
    if method == "astar":
        start = time.perf_counter()
        first = astar(
            candidates,
            time_limit=time_limit,
            initial=initial,
            show_progress=show_progress,
            gap_limit=gap_limit,
            max_memory=max_memory,
        )
        timings["astar"] = time.perf_counter() - start
        if first.status != "memorylimit" or not hand_over:
            return _finish(first, "astar", first.bound, timings, report)
        # A* ran out of memory: branch and cut goes on from its best network
        initial = first.parents
        time_limit = _remaining(time_limit, timings["astar"])
    start = time.perf_counter()
    solved = solve(
        candidates,
        time_limit=time_limit,
        initial=initial,
        show_progress=show_progress,
        gap_limit=gap_limit,
        random_state=seed,
    )
    timings["solver"] = time.perf_counter() - start
    if first is None:
        return _finish(solved, "solver", solved.bound, timings, report)
    # both bounds are proven (an exact engine always sets one): the smaller holds
    bound = max(solved.score, min(b for b in (solved.bound, first.bound) if b is not None))
    result = _finish(solved, "astar+solver", bound, timings, report)
    if show_progress:
        seconds = timings["astar"] + timings["solver"]
        _last_line("exact search (A* then the solver)", result, seconds)
    return result


def _order_instead(candidates: CandidateParentSets, method: str, time_limit) -> bool:
    """Whether the automatic ``method`` over ``candidates`` becomes ``"order|solver"``:
    ``"solver|solver"`` over too many candidates for SCIP's model (:func:`_too_many`),
    or from :data:`ORDER_MIN_CANDIDATES` candidates on where the bound-first solver
    prices its root (:func:`._pricing.prices_root`). ``"astar|solver"`` stays: its
    solver prices its root over too many candidates by itself (:func:`._solver._solve`),
    so nothing is done twice, and A* proves what it proves beside it. On mildew (35
    variables, N = 100, BDeu(1), 5 parents, 1,364,502 candidates; ``bench_frontier.py``)
    ``"astar|solver"`` proved the optimum in 17.2 and 16.8 s, ``"order|solver"`` in
    42.1 and 40.4 s (two runs each, interleaved, scoring included).

    There the first solver, SCIP over every candidate, never gave the final bound on
    the suite's tuning half (``benchmarks/bench_suite.py``, 600 s, both cores; eight
    such rows, 147,358-1,166,739 candidates): branch and price's was the tighter on
    all eight. With the order search in its place the final gap fell on all seven
    unproven rows (hailfinder N=100 qNML p3 0.503% to 0.420%, pathfinder N=1000
    BDeu(1) p3 0.334% to 0.303%, nips 0.089% to 0.076%, baudio BDeu(1) 0.036% to
    0.016%, bnetflix fNML 0.025% to 0.008%, BDeu(1) 0.014% to 0.011%, plants 0.060% to
    0.006%; fNML at 2 parents unless said), the network at 60 s was as close to the best
    known or closer on six of seven (nips 0.017% against 0.015%), and pathfinder fNML
    p3 stayed proven (500.4 s against 430.8 s). Andes (223 variables) does not price
    its root and keeps two solvers.
    """
    if method != "solver|solver":
        return False
    if _too_many(candidates, time_limit):
        return True
    n = int(candidates.n_candidates().sum())
    return n >= ORDER_MIN_CANDIDATES and prices_root(n, candidates.n_variables)


def _probe_seconds(candidates: CandidateParentSets, method: str, time_limit) -> float:
    """Seconds of A* before the bound-first solver of the automatic ``"solver|solver"``
    (:func:`._portfolio._probe`): :data:`ASTAR_PROBE_SECONDS`, at most
    :data:`ASTAR_PROBE_SHARE` of ``time_limit``, where A* can run (at most 63 variables);
    0 otherwise.

    Chosen on the benchmark suite's tuning half (``benchmarks/bench_suite.py``, its 23
    rows of 48-61 variables that ran two solvers): A* alone for 15 s proved 5 of them,
    barley N = 500 qNML p3 in 0.73 s, which two solvers had left 0.113% from proven after
    600 s; the four others the solvers prove in seconds too. On the rest A* ended
    0.002-5.1% from proven: a longer probe buys nothing there, and costs its seconds."""
    if method != "solver|solver" or candidates.n_variables > ASTAR_MAX_VARIABLES:
        return 0.0
    if time_limit is None:
        return ASTAR_PROBE_SECONDS
    return min(ASTAR_PROBE_SECONDS, ASTAR_PROBE_SHARE * time_limit)


def _too_many(candidates: CandidateParentSets, time_limit: float | None) -> bool:
    """Whether the automatic ``"solver|solver"`` over ``candidates`` is
    ``"order|solver"``: when SCIP's model over every candidate would not fit in the
    memory share or half the time of its first solver (:func:`._solver._model_limit`),
    which would then price its root as the second does, twice the same work. The
    memetic order search (:mod:`._memetic`) then finds the networks beside the
    bound-first solver.

    On baudio with 3 parents (9,597,500 candidates) the first solver's model passed
    18 GB unfinished after 120 s; ``"order|solver"`` ended at its limit, 0.370% from
    proven. Below this size, :func:`_order_instead` decides.
    """
    n = int(candidates.n_candidates().sum())
    return _solver._model_limit(n, time_limit, _HALF_SCIP_MEMORY) is not None


def _remaining(time_limit: float | None, spent: float) -> float | None:
    """What is left of ``time_limit`` after ``spent`` seconds (at least a millisecond)."""
    return None if time_limit is None else max(time_limit - spent, 1e-3)


def _finish(
    result: SearchResult, method: str, bound: float | None, timings, report
) -> SearchResult:
    return replace(
        result,
        method=method,
        bound=bound,
        gap=_gap(result.score, bound),
        timings=timings,
        plan=report.plan,
        pruning=report,
    )


def _note(desc: str, text: str) -> None:
    """One line of the progress display: ``desc: text``."""
    line = PeriodicLines(nested_desc(desc), every=0.0)
    line.postfix = text
    line.close()


def _counting_unscored(
    bound: float | None, candidates: CandidateParentSets, unscored: np.ndarray
) -> float:
    r"""A proven bound over every network, from ``bound`` over the candidates and
    ``unscored[v]``, an upper bound on the local score of each parent set of :math:`v`
    a stopped candidate search left unscored (:attr:`PruningReport.unscored_bound`).

    The smaller of two bounds, with :math:`b_v` the best candidate's score of
    :math:`v`, :math:`r_v` its smallest candidate's (the required parents alone, always
    scored) and :math:`u_v` = ``unscored[v]``:

    .. math::

        \sum_v \max(b_v, u_v) \qquad \text{and} \qquad
        \text{bound} + \sum_v \max(0, u_v - r_v).

    *Proof:* the first ignores acyclicity. For the second, take an optimal network and
    give each variable whose family was left unscored its required parents alone: that
    removes arcs only, so the network is still acyclic, admissible and over the
    candidates (up to dominance), hence scores at most ``bound``, and it lost at most
    :math:`u_v - r_v` per family changed.
    """
    best = np.array([float(s[0]) for s in candidates.scores])  # best first
    smallest = np.array(
        [
            float(s[int(np.argmin([len(p) for p in sets]))])
            for sets, s in zip(candidates.parent_sets, candidates.scores, strict=True)
        ]
    )
    trivial = math.fsum(np.maximum(best, unscored))
    if bound is None:
        return trivial
    return min(trivial, bound + math.fsum(np.maximum(0.0, unscored - smallest)))


def _start_network(candidates: CandidateParentSets, dag) -> dict:
    """A first network for the engines from ``dag``: each family by its best candidate
    subset.

    Dropping parents keeps a DAG acyclic, and a pruned family is dominated by a
    candidate subset of it, so the start is never worse than ``dag`` itself.
    """
    index = {v: i for i, v in enumerate(candidates.variables)}
    unknown = set(dag.nodes()) ^ set(index)
    if unknown:
        raise ValueError(
            "start_dag must have exactly the data's variables; it differs in "
            f"{sorted(unknown, key=str)!r}."
        )
    chosen = {}
    padded, _ = candidates._rows()
    rows = spans(candidates)
    for v in candidates.variables:
        have = [index[u] for u in dag.predecessors(v)]
        subsets = candidate_subsets(padded[rows[index[v]]], have)
        if not subsets.any():
            raise ValueError(
                f"start_dag gives {v!r} the parents {sorted(dag.predecessors(v))!r}, which break "
                "the constraints (a required parent is missing)."
            )
        best = candidates.parent_sets[index[v]][int(np.argmax(subsets))]  # best first
        chosen[v] = tuple(candidates.variables[u] for u in best)
    return chosen
