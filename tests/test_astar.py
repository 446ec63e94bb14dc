"""The A* search over the order graph (search/_astar.py): its optimum is the optimum, its
bound is a bound, whatever stops it."""

import itertools
import math

import numpy as np
import pytest
from _promises import assert_sound_result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pgmpy_nml.search.candidates import CandidateParentSets
from pgmpy_nml.search.candidates._astar import astar
from pgmpy_nml.search.candidates._families import _Families
from pgmpy_nml.search.candidates._pattern_database import _partition
from pgmpy_nml.search.candidates._solver import solve


def reference_optimum(cands):
    """Best network score by a plain dynamic program over orders (pure Python, independent).

    best(S) = max over the last variable v of S of best(S - v) + the best score of v
    with all its parents in S - v.
    """
    n = cands.n_variables
    families = [
        [(set(p), float(s)) for p, s in zip(cands.parent_sets[v], cands.scores[v], strict=True)]
        for v in range(n)
    ]
    best = {frozenset(): 0.0}
    for size in range(1, n + 1):
        for subset in itertools.combinations(range(n), size):
            s = frozenset(subset)
            top = -math.inf
            for v in subset:
                rest = s - {v}
                fits = [score for parents, score in families[v] if parents <= rest]
                if fits and best[rest] > -math.inf:
                    top = max(top, best[rest] + max(fits))
            best[s] = top
    return best[frozenset(range(n))]


@st.composite
def instances(draw, min_vars=3, max_vars=12):
    """Random candidates: the empty set always a candidate, except for some variables
    (as with required edges), which keep only parent sets with a given parent."""
    n = draw(st.integers(min_vars, max_vars))
    required = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    if all(required):
        required[0] = False
    parent_sets, scores = [], []
    for v in range(n):
        others = [u for u in range(n) if u != v]
        k = draw(st.integers(1, 6))
        sets = {()} if not required[v] else set()
        must = draw(st.sampled_from(others)) if required[v] else None
        for _ in range(k):
            size = draw(st.integers(0, min(3, n - 1)))
            p = set(draw(st.lists(st.sampled_from(others), min_size=size, max_size=size)))
            if must is not None:
                p.add(must)
            if p:
                sets.add(tuple(sorted(p)))
        if not sets:
            sets.add((must,))
        sets = sorted(sets)
        values = draw(
            st.lists(
                st.floats(-50, -0.5, allow_nan=False).map(lambda x: round(x, 3)),
                min_size=len(sets),
                max_size=len(sets),
            )
        )
        parent_sets.append(sets)
        scores.append(values)
    return CandidateParentSets(list(range(n)), parent_sets, scores)


def _check_network(cands, result):
    """A DAG of candidates whose score is the reported one."""
    parents = {v: p for v, p in result.parents.items()}
    assert result.dag.number_of_nodes() == cands.n_variables
    import networkx as nx

    assert nx.is_directed_acyclic_graph(result.dag)
    assert result.score == cands.score(parents)


@pytest.mark.long
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(instances(), st.sampled_from([1, 2, 5, 16]))
def test_optimum_is_the_reference_and_the_solvers(cands, group_size):
    ref = reference_optimum(cands)
    if ref == -math.inf:
        with pytest.raises(ValueError, match="No DAG can be built"):
            astar(cands, show_progress=False, group_size=group_size)
        return
    result = astar(cands, show_progress=False, group_size=group_size)
    assert result.optimal and result.status == "optimal" and result.engine == "astar"
    assert result.gap == 0.0 and result.bound == result.score
    assert result.score == pytest.approx(ref, rel=1e-12, abs=1e-9)
    _check_network(cands, result)
    scip = solve(cands, show_progress=False)
    assert scip.score == pytest.approx(result.score, rel=1e-9, abs=1e-6)


def _hard(seed, n=30, k=30):
    """Random dense candidates that A* cannot finish in one batch of expansions."""
    rng = np.random.default_rng(seed)
    parent_sets, scores = [], []
    for v in range(n):
        others = [u for u in range(n) if u != v]
        sets = {()}
        while len(sets) < k:
            size = int(rng.integers(1, 4))
            sets.add(tuple(sorted(rng.choice(others, size, replace=False).tolist())))
        sets = sorted(sets)
        parent_sets.append(sets)
        scores.append([-100.0 + (rng.uniform(-5, 20) if p else 0.0) for p in sets])
    return CandidateParentSets(list(range(n)), parent_sets, scores)


@pytest.mark.long
@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("stop", ["time", "memory"])
def test_stopped_early_the_bound_is_a_bound(seed, stop):
    cands = _hard(seed)
    optimum = solve(cands, show_progress=False).score
    if stop == "time":
        result = astar(cands, time_limit=1e-9, show_progress=False, group_size=1)
        expected = "timelimit"
    else:
        result = astar(cands, max_memory=2e5, show_progress=False, group_size=1)
        expected = "memorylimit"
    assert result.status == expected and not result.optimal
    assert_sound_result(result, cands, optimum)
    full = astar(cands, show_progress=False)
    assert full.optimal and full.score == pytest.approx(optimum, rel=1e-9)


def test_pattern_database_is_tighter_than_the_simple_bound():
    cands = _hard(0)
    simple = astar(cands, time_limit=1e-9, show_progress=False, group_size=1)
    groups = astar(cands, time_limit=1e-9, show_progress=False, group_size=11)
    assert groups.bound < simple.bound


@pytest.mark.parametrize("group_size", [1, 8, 16])
def test_deterministic(group_size):
    cands = _hard(3, n=16, k=8)
    a = astar(cands, show_progress=False, group_size=group_size)
    b = astar(cands, show_progress=False, group_size=group_size)
    assert a.parents == b.parents and a.choice == b.choice and a.score == b.score


def test_partition_covers_the_variables_once():
    cands = _hard(1, n=40, k=6)
    for size in (1, 5, 13, 40):
        groups = _partition(_Families(cands), size)
        assert sorted(v for g in groups for v in g) == list(range(40))
        assert max(len(g) for g in groups) <= size


def test_refusals():
    no_root = CandidateParentSets.from_dict({"a": {("b",): -1.0}, "b": {("a",): -1.0}})
    with pytest.raises(ValueError, match="no variable keeps the empty parent set"):
        astar(no_root, show_progress=False)
    cycle = CandidateParentSets.from_dict(
        {"a": {("b",): -1.0}, "b": {("c",): -1.0}, "c": {("b",): -1.0}, "d": {(): -1.0}}
    )
    with pytest.raises(ValueError, match="directed cycle"):
        astar(cycle, show_progress=False)
    wide = CandidateParentSets(list(range(64)), [[()]] * 64, [[-1.0]] * 64)
    with pytest.raises(ValueError, match="at most 63 variables"):
        astar(wide, show_progress=False)
    with pytest.raises(TypeError, match="CandidateParentSets"):
        astar({"a": {(): -1.0}}, show_progress=False)
    small = CandidateParentSets.from_dict({"a": {(): -1.0}})
    with pytest.raises(ValueError, match="group_size"):
        astar(small, group_size=0, show_progress=False)


def test_sixty_three_variables():
    n = 63
    parent_sets = [[(), ((v + 1) % n,)] for v in range(n)]
    scores = [[-2.0, -1.0]] * n  # a cycle of preferred parents: one variable goes without
    cands = CandidateParentSets(list(range(n)), parent_sets, scores)
    result = astar(cands, show_progress=False)
    assert result.optimal and result.score == -(n - 1) - 2.0


def test_initial_network_kept_when_stopped():
    cands = _hard(2)
    start = solve(cands, show_progress=False)
    result = astar(cands, time_limit=1e-9, initial=start.parents, show_progress=False, group_size=1)
    assert result.score >= start.score and result.bound >= start.score


@pytest.mark.long
def test_exact_search_method_astar():
    from pgmpy_nml import ExactSearch
    from pgmpy_nml.datasets import sample_network
    from pgmpy_nml.search import choose_search

    assert choose_search(30, "astar") == ("astar", 3)
    with pytest.raises(ValueError, match="at most 63 variables"):
        choose_search(64, "astar")
    _, data = sample_network("asia", 2000, random_state=0)
    fits = {
        m: ExactSearch("bdeu", method=m, max_parents=2, show_progress=False).fit(data)
        for m in ("astar", "solver")
    }
    assert fits["astar"].method_ == "astar" and fits["astar"].optimal_
    assert fits["astar"].score_ == pytest.approx(fits["solver"].score_, rel=1e-12)
