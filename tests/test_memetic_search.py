"""The memetic order search (OrderSearch): every network it returns is a DAG of candidate
families, the best network of the order it reports, never worse than its start, never
above the optimum (brute force over the orders), and on small cases the optimum."""

import math
import time
import types

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_exact_promises import candidate_sets
from test_pruning_properties import best_network

from pgmpy_nml import ExactSearch, FSNMLEstimator, OrderSearch
from pgmpy_nml.datasets import sample_network
from pgmpy_nml.exceptions import InputError
from pgmpy_nml.search.candidates import CandidateParentSets
from pgmpy_nml.search.candidates._families import _checked_families, _cycle_free
from pgmpy_nml.search.candidates._heuristics import _greedy, perturb
from pgmpy_nml.search.candidates._memetic import memetic_search, order_crossover
from pgmpy_nml.search.order import order_parent_limit


def best_of_order(fam, order, v):
    """Brute force: the best-scoring candidate of ``v`` whose parents all precede it."""
    pos = {u: i for i, u in enumerate(order)}
    allowed = [
        f
        for f in range(fam.start[v], fam.start[v + 1])
        if all(pos[p] < pos[v] for p in fam.parents[f])
    ]
    return max(fam.score[f] for f in allowed)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(candidate_sets(), st.integers(0, 5), st.integers(1, 6), st.integers(2, 6))
def test_memetic_search_is_order_optimal_and_never_above_the_optimum(
    local, seed, generations, population
):
    candidates = CandidateParentSets.from_dict(local)
    fam = _checked_families(candidates, symmetry=False)
    run = memetic_search(fam, population=population, generations=generations, seed=seed)
    assert _cycle_free(fam, run.choice)
    assert all(fam.start[v] <= f < fam.start[v + 1] for v, f in enumerate(run.choice))
    assert run.total == pytest.approx(float(fam.score[run.choice].sum()), abs=1e-9)
    assert sorted(run.order.tolist()) == list(range(fam.n))
    for v in range(fam.n):  # each family is the best one its order allows
        assert fam.score[run.choice[v]] == best_of_order(fam, run.order, v)
    optimum = best_network(local, list(local))
    assert run.total <= optimum + 1e-9 * (1 + abs(optimum))
    start = _greedy(fam)
    assert run.total >= fam.total(start) - 1e-9  # the greedy network is the first member
    history = [s for _, s in run.history]
    assert history == sorted(history) and history[-1] == run.total
    again = memetic_search(fam, population=population, generations=generations, seed=seed)
    assert np.array_equal(again.choice, run.choice)  # deterministic for a seed


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(candidate_sets(), st.integers(0, 3))
def test_memetic_search_finds_the_optimum_of_small_cases(local, seed):
    candidates = CandidateParentSets.from_dict(local)
    fam = _checked_families(candidates, symmetry=False)
    run = memetic_search(fam, population=10, generations=30, patience=5, seed=seed)
    optimum = best_network(local, list(local))
    assert run.total == pytest.approx(optimum, rel=1e-12, abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 30), st.integers(0, 2**32 - 1))
def test_order_crossover_and_perturbation_give_permutations(n, seed):
    rng = np.random.default_rng(seed)
    first, second = rng.permutation(n), rng.permutation(n)
    child = order_crossover(first, second, rng)
    assert sorted(child.tolist()) == list(range(n))
    kept = [i for i in range(n) if child[i] == first[i]]
    # the variables not in first's kept block appear in second's order
    block = set(kept)
    rest = [v for v in child if v not in {first[i] for i in block}]
    assert rest == [v for v in second if v in set(rest)]
    assert sorted(perturb(child, rng).tolist()) == list(range(n))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(candidate_sets(), st.integers(0, 3), st.data())
def test_memetic_search_never_uses_a_blocked_family_and_never_loses_its_start(local, seed, data):
    candidates = CandidateParentSets.from_dict(local)
    fam = _checked_families(candidates, symmetry=False)
    blocked = np.array(data.draw(st.lists(st.booleans(), min_size=len(fam), max_size=len(fam))))
    blocked[[len(p) == 0 for p in fam.parents]] = False  # some DAG stays possible
    start = _greedy(fam, available=~blocked)
    run = memetic_search(fam, generations=3, population=4, seed=seed, blocked=blocked, start=start)
    assert not blocked[run.choice].any()
    assert run.total >= fam.total(start) - 1e-9


def test_memetic_search_needs_a_stopping_rule():
    candidates = CandidateParentSets.from_dict({"A": {(): -1.0}, "B": {(): -2.0}})
    fam = _checked_families(candidates, symmetry=False)
    with pytest.raises(ValueError, match="generations, a deadline, max_restarts or stop"):
        memetic_search(fam)
    run = memetic_search(fam, max_restarts=2, patience=1)
    assert run.stalled and run.restarts == 2 and run.total == -3.0


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(candidate_sets(), st.integers(0, 3), st.integers(1, 40))
def test_memetic_search_ends_when_told_and_keeps_its_first_member(local, seed, calls):
    """``stop`` alone is a stopping rule: after ``calls`` calls it says stop, and the
    search ends at its next look with a network at least as good as its start (the first
    member is computed even when told to stop at once)."""
    candidates = CandidateParentSets.from_dict(local)
    fam = _checked_families(candidates, symmetry=False)
    asked = []

    def stop():
        asked.append(1)
        return len(asked) >= calls

    run = memetic_search(fam, seed=seed, stop=stop)
    assert _cycle_free(fam, run.choice) and run.local_searches >= 1
    assert run.total >= fam.total(_greedy(fam)) - 1e-9
    assert len(asked) == calls  # not asked again once it said stop
    assert run.local_searches <= calls + 1  # a local search after each "go on", then none
    past = memetic_search(fam, seed=seed, deadline=time.perf_counter() - 1.0)
    assert past.local_searches == 1 and past.total == run.history[0][1]  # the start only


def test_order_parent_limit_counts_the_parent_sets_before_pruning():
    assert order_parent_limit(16) is None  # 16 * 2**15 sets
    for n in (19, 40, 69, 163, 500):
        k = order_parent_limit(n)
        sets = n * sum(math.comb(n - 1, j) for j in range(k + 1))
        more = n * sum(math.comb(n - 1, j) for j in range(k + 2))
        assert sets <= 3_000_000 < more or k == 1
    assert order_parent_limit(69) == 2 and order_parent_limit(500) == 1


# -- the estimator ----------------------------------------------------------------------
@pytest.fixture(scope="module")
def asia():
    return sample_network("asia", 2000, random_state=0)[1]


def test_order_search_meets_the_exact_optimum_on_a_small_network(asia):
    exact = ExactSearch("fnml", show_progress=False).fit(asia)
    found = OrderSearch("fnml", show_progress=False).fit(asia)
    assert found.score_ == pytest.approx(exact.score_, rel=1e-12)
    assert found.method_ == "order" and found.status_ == "stalled"
    assert found.max_parents_ is None and found.n_iter_ >= 20
    assert set(found.causal_graph_.nodes()) == set(asia.columns)
    assert list(found.feature_names_in_) == list(asia.columns)
    assert found.history_.shape[1] == 2 and found.history_[-1, 1] == found.score_
    assert set(found.timings_) == {"candidate parent sets", "order search"}
    assert not hasattr(found, "bound_")  # a search, not a proof: no bound is claimed


def test_order_search_on_given_candidates_and_a_start(asia):
    first = OrderSearch("fnml", max_parents=1, generations=2, show_progress=False).fit(asia)
    assert first.max_parents_ == 1 and first.status_ == "generations"
    assert max(dict(first.causal_graph_.in_degree()).values()) <= 1
    again = OrderSearch(candidates=first.candidates_, generations=2, show_progress=False).fit()
    assert again.score_ == first.score_
    assert again.max_parents_ == 1
    exact = ExactSearch("fnml", show_progress=False).fit(asia)
    started = OrderSearch(
        "fnml", max_parents=2, generations=1, start_dag=exact.causal_graph_, show_progress=False
    ).fit(asia)
    assert started.score_ >= exact.score_ - 1e-9  # the optimum has at most 2 parents here
    fitted = OrderSearch(
        candidates=first.candidates_,
        generations=1,
        parameter_estimator=FSNMLEstimator(),
        show_progress=False,
    ).fit(asia)
    assert set(fitted.model_.nodes()) == set(asia.columns)


def test_order_search_refuses_what_it_cannot_do(asia):
    with pytest.raises(InputError, match="stopping rule"):
        OrderSearch(time_limit=None, max_restarts=None).fit(asia)
    first = OrderSearch("fnml", max_parents=1, generations=1, show_progress=False).fit(asia)
    with pytest.raises(InputError, match="already say which parent sets"):
        OrderSearch(candidates=first.candidates_, expert_knowledge={"forbidden_edges": []}).fit()
    with pytest.raises(InputError, match="pass the data"):
        OrderSearch(candidates=first.candidates_, parameter_estimator=FSNMLEstimator()).fit()
    with pytest.raises(InputError, match="differ in \\['asia'\\]"):
        OrderSearch(candidates=first.candidates_).fit(asia.drop(columns="asia"))
    with pytest.raises(ValueError, match="population"):
        OrderSearch(population=1).fit(asia)


def test_order_search_stops_at_its_time_limit():
    data = sample_network("alarm", 1000, random_state=0)[1]
    begun = time.perf_counter()
    found = OrderSearch(
        "bic", max_parents=2, time_limit=3.0, max_restarts=None, show_progress=False
    ).fit(data)
    assert found.status_ == "timelimit"
    assert time.perf_counter() - begun < 3.0 + 10.0  # the last generation and the result
    assert found.score_ == pytest.approx(
        sum(
            found.candidates_.scores[v][k]
            for v, k in enumerate(found._result.choice)  # the families chosen
        )
    )


def test_order_search_runs_inside_the_study_tools_and_structural_em(asia):
    from pgmpy_nml import StructuralEM, bootstrap_strength, cross_validate

    search = OrderSearch("fnml", generations=2, show_progress=False)
    result = cross_validate(asia, method=search, scoring_method="qnml", max_parents=1, k=3)
    assert len(result.folds) == 3 and np.isfinite(result.mean)
    strength = bootstrap_strength(asia, method=search, n_bootstrap=3)
    assert len(strength) > 0 and strength["strength"].between(0, 1).all()
    holes = asia.mask(np.random.default_rng(0).random(asia.shape) < 0.1)
    em = StructuralEM("fnml", method=search, max_iter=2, show_progress=False).fit(holes)
    assert set(em.causal_graph_.nodes()) == set(asia.columns)


def test_memetic_search_begins_no_local_search_it_expects_to_end_past_the_deadline(monkeypatch):
    """On a clock where each local search takes one second, a deadline 3.5 s away allows
    three: the fourth would end at 4 s (it used to begin at 3 s and end past the deadline,
    1.7 s past it on baudio's 9.6 million candidates)."""
    from pgmpy_nml.search.candidates import _memetic

    candidates = CandidateParentSets.from_dict(
        {"a": {(): -1.0}, "b": {(): -2.0, ("a",): -1.0}, "c": {(): -3.0, ("b",): -2.0}}
    )
    fam = _checked_families(candidates, symmetry=False)
    clock = [100.0]
    kernel = _memetic._order_kernel

    def one_second(*args):
        clock[0] += 1.0
        return kernel(*args)

    monkeypatch.setattr(_memetic, "_order_kernel", one_second)
    monkeypatch.setattr(_memetic, "time", types.SimpleNamespace(perf_counter=lambda: clock[0]))
    run = memetic_search(fam, seed=0, deadline=103.5)
    assert run.local_searches == 3 and clock[0] <= 103.5
