"""A candidate search stopped by its time limit, against brute force.

The search stops between levels (or between blocks of the compiled last level) when
its clock passes the deadline. Here the clock is a counter, one tick per look, so a
drawn limit stops the search at every possible point on random data (the cases of
``test_pruning_properties``, every registered score, with and without a parent
limit and expert knowledge). Each case checks the promise of rule 8 of
``_lattice``: every admissible parent set the search neither kept nor showed
dominated by a kept subset scores at most the variable's ``unscored_bound``, each
kept set is scored right and beats its subsets; and the bound the exact search
reports over a stopped scoring (``_counting_unscored``) is never below the best
network over *every* admissible parent set.
"""

import contextlib
import math
from unittest.mock import patch

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_pruning_properties import all_scores, best_network, build_score, cases, tolerance

from pgmpy_nml import ExactSearch
from pgmpy_nml.search.candidates import _final, _lattice, _pipeline, _seed, candidate_parent_sets


class _Ticks:
    """A clock that moves one second each time it is read."""

    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@contextlib.contextmanager
def _ticking(compiled_last: bool):
    """The ticking clock, and the compiled last level on or off; the hill climbing's
    restarts (when scoring stopped) take a hundredth of the time left, not seconds."""
    with (
        patch.object(_lattice, "_clock", _Ticks()),
        patch.object(_final, "ENABLED", compiled_last),
        patch.object(_seed, "SEED_SHARE", 0.01),
    ):
        yield


def _stopped_search(score, max_parents, knowledge, ticks: int, compiled_last: bool):
    with _ticking(compiled_last):
        return candidate_parent_sets(
            score, max_parents=max_parents, expert_knowledge=knowledge, time_limit=ticks + 0.5
        )


def check_stopped(case, ticks: int, compiled_last: bool, engine: str | None = None):
    data, key, max_parents, limit, knowledge, required, forbidden = case
    score = build_score(key, data)
    variables = list(data.columns)
    n_rows = len(data)
    everything = all_scores(score, variables, limit, required, forbidden)
    candidates, report = _stopped_search(score, max_parents, knowledge, ticks, compiled_last)
    kept = candidates.to_dict()
    unscored = np.full(len(variables), -np.inf) if report.complete else report.unscored_bound
    for j, v in enumerate(variables):
        smallest = min(everything[v], key=len)
        assert smallest in kept[v], "the required parents alone are always scored"
        for p, value in kept[v].items():
            assert value == pytest.approx(everything[v][p], rel=1e-10, abs=1e-9)
            subsets = [everything[v][q] for q in everything[v] if set(q) < set(p)]
            # beats its subsets (up to the rounding of two ways of computing a score)
            assert value > max(subsets, default=-math.inf) - tolerance(value, n_rows), (key, v, p)
        for p, value in everything[v].items():
            covered = max((s for q, s in kept[v].items() if set(q) <= set(p)), default=-math.inf)
            tol = tolerance(value, n_rows)
            # kept, dominated by a kept subset, or under the bound of what was left
            assert value <= max(covered, unscored[j]) + tol, (key, v, p, value, unscored[j])
    optimum = best_network(everything, variables)
    over_kept = best_network(kept, variables)
    bound = _pipeline._counting_unscored(over_kept, candidates, unscored)
    assert bound >= optimum - tolerance(optimum, n_rows), (key, bound, optimum)
    if report.complete:
        assert over_kept == pytest.approx(optimum, rel=1e-9, abs=tolerance(0.0, n_rows))
    if engine is not None:
        check_engine(score, case, ticks, compiled_last, engine, optimum, report.complete)


def check_engine(score, case, ticks, compiled_last, engine, optimum, complete):
    """The whole exact search over the stopped scoring: its network exists and scores what
    it says, its bound holds, and it claims a proof only where scoring was complete."""
    data, key, max_parents, _, knowledge, *_ = case
    n_rows = len(data)
    search = ExactSearch(
        score,
        method=engine,
        max_parents=max_parents,
        expert_knowledge=knowledge,
        time_limit=(ticks + 0.5) / _pipeline.SCORING_SHARE,  # scoring: the same ticks
        n_jobs=1,  # the ticking clock is this process's
        show_progress=False,
    )
    with _ticking(compiled_last):
        search.fit()
    families = {v: tuple(sorted(search.causal_graph_.predecessors(v))) for v in data.columns}
    assert search.score_ == pytest.approx(
        math.fsum(score.local_score(v, p) for v, p in families.items()), rel=1e-9, abs=1e-6
    )
    tol = tolerance(optimum, n_rows)
    assert search.score_ <= optimum + tol
    assert search.bound_ >= optimum - tol, (key, search.bound_, optimum)
    assert search.pruning_.complete == complete
    if search.optimal_:
        assert search.score_ == pytest.approx(optimum, rel=1e-9, abs=tol)
    if not complete and search.bound_ > search.score_:
        assert search.status_ == "timelimit"


_SETTINGS = dict(
    deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)


@settings(max_examples=60, **_SETTINGS)
@given(cases(), st.integers(0, 12), st.booleans())
def test_a_stopped_search_bounds_what_it_left(case, ticks, compiled_last):
    check_stopped(case, ticks, compiled_last)


@settings(max_examples=8, **_SETTINGS)
@given(cases(), st.integers(0, 8), st.booleans(), st.sampled_from(["solver", "astar"]))
def test_the_exact_search_over_a_stopped_scoring_keeps_its_promises(
    case, ticks, compiled_last, engine
):
    check_stopped(case, ticks, compiled_last, engine)


@pytest.mark.slow
@settings(max_examples=3000, **_SETTINGS)
@given(cases(), st.integers(0, 12), st.booleans())
def test_a_stopped_search_bounds_what_it_left_thousands(case, ticks, compiled_last):
    check_stopped(case, ticks, compiled_last)


@pytest.mark.slow
@settings(max_examples=300, **_SETTINGS)
@given(cases(), st.integers(0, 8), st.booleans(), st.sampled_from(["solver", "astar"]))
def test_the_exact_search_over_a_stopped_scoring_keeps_its_promises_hundreds(
    case, ticks, compiled_last, engine
):
    check_stopped(case, ticks, compiled_last, engine)


def test_the_bound_over_unscored_sets_by_hand():
    """Two variables, each with candidates {(): r, (other,): b}; what a stopped search
    left of ``A`` scores at most ``u``. The bound is the smaller of the trivial one and
    the engines' bound plus ``u - r`` (the family given back its required parents)."""
    from pgmpy_nml.search.candidates import CandidateParentSets

    cands = CandidateParentSets(
        ("A", "B"), [[(1,), ()], [(0,), ()]], [[-10.0, -12.0], [-20.0, -21.0]]
    )
    unscored = np.array([-11.0, -np.inf])
    # trivial: max(-10, -11) + (-20) = -30; engines' bound -31 + max(0, -11 - -12) = -30
    assert _pipeline._counting_unscored(-31.0, cands, unscored) == -30.0
    assert _pipeline._counting_unscored(-32.0, cands, unscored) == -31.0
    assert _pipeline._counting_unscored(-32.0, cands, np.array([-5.0, -np.inf])) == -25.0
    assert _pipeline._counting_unscored(-32.0, cands, np.array([np.inf, -np.inf])) == math.inf
