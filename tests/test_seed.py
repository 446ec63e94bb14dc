"""The first network of the exact engines when scoring stopped early or took long (``_seed``).

``with_families`` must give the object the constructor gives for the merged lists (the
same order, scores and rows, which the engines read); ``seeded`` must add only families
that beat every candidate subset, with their own scores, and hand the engines a start at
least as good as the hill climbing's network, over candidates that hold it.
"""

import itertools
import math
from unittest.mock import patch

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_scoring_time_limit import _ticking

from pgmpy_nml import FNML, BDeu, ExactSearch, LocalSearch
from pgmpy_nml.search.candidates import (
    CandidateParentSets,
    _pipeline,
    _seed,
    candidate_parent_sets,
)
from pgmpy_nml.search.candidates._pipeline import _start_network
from pgmpy_nml.search.candidates._seed import seeded, with_families


@st.composite
def lists_and_additions(draw):
    """Random candidate lists (scores with ties) and, per variable, new sets to add."""
    n = draw(st.integers(2, 6))
    sets, scores, added = [], [], {}
    for v in range(n):
        others = [u for u in range(n) if u != v]
        every = [c for k in range(min(3, n - 1) + 1) for c in itertools.combinations(others, k)]
        chosen = draw(st.lists(st.sampled_from(every), min_size=1, unique=True))
        values = st.sampled_from([-3.0, -2.0, -2.0, -1.5, -1.0])
        sets.append(chosen)
        scores.append([draw(values) for _ in chosen])
        rest = [c for c in every if c not in chosen]
        if rest and draw(st.booleans()):
            new = draw(st.lists(st.sampled_from(rest), min_size=1, unique=True))
            added[v] = [(tuple(draw(st.permutations(p))), draw(values)) for p in new]
    return n, sets, scores, added


@settings(max_examples=300, deadline=None)
@given(lists_and_additions())
def test_with_families_is_the_constructor_over_the_merged_lists(case):
    n, sets, scores, added = case
    names = [f"X{v}" for v in range(n)]
    before = CandidateParentSets(names, sets, scores)
    merged_sets = [list(sets[v]) + [p for p, _ in added.get(v, [])] for v in range(n)]
    merged_scores = [list(scores[v]) + [s for _, s in added.get(v, [])] for v in range(n)]
    expected = CandidateParentSets(names, merged_sets, merged_scores)
    got = with_families(before, added)
    assert got.parent_sets == expected.parent_sets
    for a, b in zip(got.scores, expected.scores, strict=True):
        assert np.array_equal(a, b)
    padded, size = got._rows()
    want_padded, want_size = expected._rows()
    assert np.array_equal(size, want_size)
    width = max(padded.shape[1], want_padded.shape[1])

    def widened(x):
        return np.pad(x, ((0, 0), (0, width - x.shape[1])), constant_values=-1)

    assert np.array_equal(widened(padded), widened(want_padded))
    assert got.to_dict() == expected.to_dict()


def _data(seed: int, n_vars: int, n_rows: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    cols = {"V0": rng.integers(0, 2, n_rows)}
    for v in range(1, n_vars):
        parent = cols[f"V{int(rng.integers(0, v))}"]
        noise = rng.integers(0, 3, n_rows)
        cols[f"V{v}"] = np.where(rng.random(n_rows) < 0.7, parent % 3, noise)
    return pd.DataFrame(cols)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(3, 7), st.sampled_from(["fnml", "bdeu"]))
def test_seeded_adds_the_hill_climbing_families_that_beat_their_candidate_subsets(
    seed, n_vars, kind
):
    """The candidates of one parent at most (as if scoring had stopped there), seeded
    with the hill climbing at two: the start network scores at least the climb's, every
    family of it is a candidate, and each added set beats every candidate subset."""
    data = _data(seed, n_vars, 60 + 20 * n_vars)
    score = FNML(data) if kind == "fnml" else BDeu(data, equivalent_sample_size=1.0)
    few, _ = candidate_parent_sets(score, max_parents=1)
    climb = LocalSearch(score, method="hill", max_parents=2, show_progress=False).fit()
    out, dag, _ = seeded(score, few, lambda seconds: climb.dag_, None)
    assert sorted(dag.edges()) == sorted(climb.dag_.edges())
    start = _start_network(out, dag)
    total = math.fsum(out.local_score(v, start[v]) for v in out.variables)
    assert total >= climb.score_ - 1e-9 * (1 + abs(climb.score_))
    for v in out.variables:
        before = few.to_dict()[v]
        after = out.to_dict()[v]
        assert set(before) <= set(after)
        for parents in set(after) - set(before):
            assert after[parents] == score.local_score(v, parents)
            subsets = [p for p in before if set(p) <= set(parents)]
            assert all(after[parents] > before[p] for p in subsets)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(3, 6), st.integers(0, 2**31 - 1))
def test_seeded_adds_exactly_the_families_that_beat_their_candidate_subsets(seed, n_vars, dag_seed):
    """Any network as the climb's (so that its families may be candidates, dominated
    by a candidate subset, or neither): a family joins the candidates exactly when it is
    none and scores above every candidate subset, and the start scores at least the
    network's own score (each family replaced by its best candidate subset)."""
    import networkx as nx

    data = _data(seed, n_vars, 50 + 10 * n_vars)
    score = BDeu(data, equivalent_sample_size=1.0)
    few, _ = candidate_parent_sets(score, max_parents=1)
    rng = np.random.default_rng(dag_seed)
    order = list(rng.permutation(list(data.columns)))
    dag = nx.DiGraph()
    dag.add_nodes_from(data.columns)
    for k, v in enumerate(order):
        for u in rng.permutation(order[:k])[: int(rng.integers(0, 3))]:
            dag.add_edge(u, v)
    out, got, _ = seeded(score, few, lambda seconds: dag, 10.0)
    assert got is dag
    own = math.fsum(score.local_score(v, tuple(sorted(dag.predecessors(v)))) for v in dag)
    start = _start_network(out, dag)
    assert math.fsum(out.local_score(v, start[v]) for v in out.variables) >= own - 1e-9 * (
        1 + abs(own)
    )
    for v in out.variables:
        before, after = few.to_dict()[v], out.to_dict()[v]
        parents = tuple(sorted(dag.predecessors(v)))
        value = score.local_score(v, parents)
        subsets = [before[p] for p in before if set(p) <= set(parents)]
        should_join = parents not in before and value > max(subsets, default=-math.inf)
        assert set(after) - set(before) == ({parents} if should_join else set())
        if should_join:
            assert after[parents] == value


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**31 - 1), st.integers(4, 7), st.integers(0, 6))
def test_an_exact_search_whose_scoring_stopped_is_at_least_its_hill_climbing(seed, n_vars, ticks):
    """The whole estimator, its scoring stopped by the clock of
    ``test_scoring_time_limit`` (one tick per look): when scoring stopped, the hill
    climbing ran and the network returned scores at least as well as its network."""
    data = _data(seed, n_vars, 40 + 10 * n_vars)
    score = FNML(data)
    with _ticking(compiled_last=False):
        search = ExactSearch(
            score,
            max_parents=2,
            method="solver",
            time_limit=(ticks + 0.5) / _pipeline.SCORING_SHARE,
            show_progress=False,
        ).fit()
    assert ("hill climbing" in search.timings_) == (not search.pruning_.complete)
    if not search.pruning_.complete:
        climb = LocalSearch(score, method="hill", max_parents=2, show_progress=False).fit()
        assert search.score_ >= climb.score_ - 1e-9 * (1 + abs(climb.score_))


@settings(max_examples=20, deadline=None)
@given(
    st.integers(0, 2**31 - 1),
    st.integers(3, 7),
    st.sampled_from(["fnml", "bdeu"]),
    st.sampled_from([None, 30.0]),
)
def test_after_a_long_scoring_that_completed_the_climb_runs_and_the_proof_stands(
    seed, n_vars, kind, time_limit
):
    """Scoring that completed but took long (here: any scoring, the least seconds set to
    0): the hill climbing runs, the network returned scores at least as well as the
    climb's, and it is still the optimum the subset DP finds."""
    data = _data(seed, n_vars, 30 + 10 * n_vars)
    score = FNML(data) if kind == "fnml" else BDeu(data, equivalent_sample_size=1.0)
    with patch.object(_seed, "CLIMB_MIN_SECONDS", 0.0):
        search = ExactSearch(
            score, max_parents=2, method="solver", time_limit=time_limit, show_progress=False
        ).fit()
    assert search.pruning_.complete and "hill climbing" in search.timings_
    climb = LocalSearch(score, method="hill", max_parents=2, show_progress=False).fit()
    assert search.score_ >= climb.score_ - 1e-9 * (1 + abs(climb.score_))
    optimum = ExactSearch(score, max_parents=2, method="dp", show_progress=False).fit()
    assert search.score_ == pytest.approx(optimum.score_, rel=1e-9, abs=1e-9)
    assert search.status_ == "optimal"


def test_the_climb_seconds_rule():
    """A climb after a scoring that completed gets a tenth of scoring's seconds (bounded
    by the share of the time left), and none below a second; after a stopped scoring,
    the share of the time left."""

    def rule(complete, scoring, time_limit):
        left = _pipeline._remaining(time_limit, scoring)
        return _seed.climb_seconds(complete, scoring, left)

    assert rule(True, 9.0, None) is None
    assert rule(True, 20.0, None) == pytest.approx(2.0)
    assert rule(True, 20.0, 600.0) == pytest.approx(2.0)
    assert rule(True, 100.0, 110.0) == pytest.approx(3.0)
    assert rule(False, 45.0, 60.0) == pytest.approx(4.5)
    # scoring past the time limit: a climb still gets a positive limit (one descent)
    assert rule(False, 61.0, 60.0) == pytest.approx(_seed.SEED_SHARE * 1e-3)
    assert rule(True, 70.0, 60.0) == pytest.approx(_seed.SEED_SHARE * 1e-3)


def test_a_climb_with_the_least_seconds_runs():
    """What :func:`climb_seconds` gives when nothing is left is a time limit the
    estimator's climb accepts."""
    data = _data(0, 4, 60)
    climb = ExactSearch(FNML(data), max_parents=2, show_progress=False)._climb(
        FNML(data), {"max_parents": 2, "seed": 0}
    )
    seconds = _seed.climb_seconds(False, 61.0, _pipeline._remaining(60.0, 61.0))
    assert set(climb(seconds).nodes()) == set(data.columns)
