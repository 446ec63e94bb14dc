"""What ExactSearch prints as a fact: the bound, the gap, optimality, and its settings.

- ``bound_`` is never below a network that exists (brute force over every DAG of the
  candidates), is finite after any time limit and never worse than the trivial bound
  (the sum of each variable's best candidate);
- ``time_limit=inf`` means no limit;
- ``time_limit``, ``gap_limit``, ``seed`` and ``start_dag`` are checked the same way
  whichever method runs;
- "impossible" markers (``±1e30``, ``±1e308``) in candidate scores get a clear error.
"""

import math

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from _promises import assert_sound_result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_pruning_properties import best_network

from pgmpy_nml import ExactSearch
from pgmpy_nml.datasets import sample_network
from pgmpy_nml.search.candidates import CandidateParentSets, read_score_file
from pgmpy_nml.search.candidates._scip_plugins import _sound_bound
from pgmpy_nml.search.candidates._solver import solve

pytest.importorskip("pyscipopt")


@st.composite
def candidate_sets(draw):
    """Random candidate parent sets over 3-6 variables, the empty set always among them."""
    n = draw(st.integers(3, 6))
    names = [f"X{i}" for i in range(n)]
    local = {}
    for v in names:
        others = [u for u in names if u != v]
        sets = {(): draw(st.floats(-100, -1))}
        for _ in range(draw(st.integers(0, 6))):
            size = draw(st.integers(1, min(3, n - 1)))
            parents = tuple(sorted(draw(st.permutations(others))[:size]))
            sets[parents] = draw(st.floats(-100, -1))
        local[v] = sets
    return local


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(candidate_sets(), st.sampled_from([1e-3, 0.02, None]))
def test_bound_is_never_below_a_network_that_exists(local, time_limit):
    candidates = CandidateParentSets.from_dict(local)
    optimum = best_network(local, list(local))
    result = solve(candidates, time_limit=time_limit, show_progress=False)
    assert_sound_result(result, candidates, optimum)


def test_sound_bound_from_scip_dual_bounds():
    # SCIP's "no bound yet" is +1e20 on the objective (score - offset, at most 0)
    assert _sound_bound(1e20, -100.0, -130.0) == -100.0
    assert _sound_bound(float("inf"), -100.0, -130.0) == -100.0
    assert _sound_bound(float("nan"), -100.0, -130.0) == -100.0
    assert _sound_bound(-10.0, -100.0, -130.0) == -110.0
    assert _sound_bound(5.0, -100.0, -130.0) == -100.0  # never above the trivial bound
    assert _sound_bound(-50.0, -100.0, -130.0) == -130.0  # never below the incumbent


def test_time_limited_run_reports_a_finite_honest_bound():
    from pgmpy_nml import BDeu

    _, data = sample_network("alarm", 1000, random_state=0)
    score = BDeu(data, equivalent_sample_size=10.0)
    search = ExactSearch(
        score, method="solver", max_parents=3, time_limit=0.05, show_progress=False
    ).fit()
    trivial = search.candidates_.upper_bound()
    if not search.pruning_.complete:  # scoring stopped too: what it left counts
        best = [float(s[0]) for s in search.candidates_.scores]
        trivial = math.fsum(np.maximum(best, search.pruning_.unscored_bound))
    assert math.isfinite(search.bound_) and math.isfinite(search.gap_)
    assert search.score_ <= search.bound_ <= trivial + 1e-9
    assert search.gap_ == pytest.approx((search.bound_ - search.score_) / abs(search.score_))


@pytest.mark.long
def test_cli_prints_a_finite_bound_after_a_time_limit(cli_summary, alarm_csv):
    path = alarm_csv
    out, summary = cli_summary(
        "learn",
        path,
        "--score",
        "bdeu",
        "--ess",
        "10",
        "--method",
        "exact",
        "--max-parents",
        "3",
        "--time-limit",
        "0.05",
    )
    assert "e+20" not in out and "e+15" not in out
    # finite (no placeholder); wide when the limit stopped scoring too, whose unscored
    # parent sets the bound counts
    assert math.isfinite(summary["bound"]) and math.isfinite(summary["gap"])
    assert summary["bound"] >= summary["total_score"] and not summary["optimal"]


SMALL = pd.DataFrame(
    {
        "A": [0, 1, 1, 0, 1, 0, 1, 1, 0, 0],
        "B": [0, 1, 1, 0, 1, 1, 1, 0, 0, 0],
        "C": [1, 1, 0, 0, 1, 0, 1, 1, 0, 1],
    }
)


@pytest.mark.parametrize("method", ["dp", "solver"])
def test_infinite_time_limit_means_no_limit(method):
    search = ExactSearch("fnml", method=method, time_limit=float("inf"), show_progress=False)
    reference = ExactSearch("fnml", method=method, show_progress=False).fit(SMALL)
    assert search.fit(SMALL).score_ == reference.score_
    assert search.optimal_


BAD_SETTINGS = [
    ({"time_limit": -1}, ValueError, "time_limit"),
    ({"time_limit": 0}, ValueError, "time_limit"),
    ({"time_limit": "abc"}, TypeError, "time_limit"),
    ({"time_limit": float("nan")}, ValueError, "time_limit"),
    ({"gap_limit": -0.5}, ValueError, "gap_limit"),
    ({"gap_limit": "x"}, TypeError, "gap_limit"),
    ({"gap_limit": float("nan")}, ValueError, "gap_limit"),
    ({"random_state": -1}, ValueError, "random_state"),
    ({"random_state": 0.5}, ValueError, "random_state"),
    ({"random_state": "1"}, TypeError, "random_state"),
    ({"start_dag": [("A", "B"), ("B", "C"), ("C", "A")]}, ValueError, "cycle"),
    ({"start_dag": "A"}, TypeError, "start_dag"),
    ({"start_dag": [("A", "Z")]}, ValueError, "'Z'"),
    ({"start_dag": [("A",)]}, TypeError, "pairs"),
    ({"start_dag": [("A", "A")]}, ValueError, "self-loop"),
    ({"start_dag": nx.Graph([("A", "B")])}, TypeError, "directed"),
    ({"start_dag": nx.DiGraph([("A", "B")])}, ValueError, "missing ['C']"),
    ({"start_dag": {"B": "A"}}, TypeError, "collection"),
    (
        {"start_dag": [("A", "B")], "expert_knowledge": {"forbidden_edges": [("A", "B")]}},
        ValueError,
        "forbidden edge 'A' -> 'B'",
    ),
    (
        {"start_dag": [("B", "A")], "expert_knowledge": {"required_edges": [("A", "B")]}},
        ValueError,
        "cycle",
    ),
]


@pytest.mark.parametrize(("params", "error", "words"), BAD_SETTINGS)
def test_settings_are_checked_the_same_way_by_every_method(params, error, words):
    messages = set()
    for method in ("dp", "solver", "auto"):
        with pytest.raises(error) as info:
            ExactSearch("fnml", method=method, show_progress=False, **params).fit(SMALL)
        assert words in str(info.value), str(info.value)
        messages.add(str(info.value))
    assert len(messages) == 1


def _graph(edges):
    graph = nx.DiGraph(edges)
    graph.add_nodes_from(SMALL.columns)
    return graph


@pytest.mark.parametrize(
    "start_dag",
    [[("A", "B")], {"B": ["A"], "C": []}, _graph([]), _graph([("C", "A"), ("A", "B")])],
    ids=["edges", "dict", "empty-graph", "graph"],
)
def test_start_dag_forms(start_dag):
    for method in ("dp", "solver"):
        search = ExactSearch("fnml", method=method, start_dag=start_dag, show_progress=False)
        assert search.fit(SMALL).optimal_


@pytest.mark.parametrize("marker", [-1e30, 1e30, -1e308, 1e308, float("nan"), -float("inf")])
def test_impossible_markers_are_refused_with_a_clear_error(marker, tmp_path):
    with pytest.raises(ValueError, match="impossible parent sets"):
        CandidateParentSets.from_dict({"A": {(): -3.0, ("B",): marker}, "B": {(): -2.0}})
    path = tmp_path / "scores.jkl"
    path.write_text(f"2\nA 2\n-3.0 0\n{marker!r} 1 B\nB 1\n-2.0 0\n")
    with pytest.raises(ValueError, match=r"Line 4 .*impossible parent sets"):
        read_score_file(path)


def test_large_but_real_scores_still_solve():
    # the largest magnitudes real data reach are far below the marker threshold
    local = {"A": {(): -4.0e9, ("B",): -3.5e9}, "B": {(): -2.0e9}}
    result = solve(CandidateParentSets.from_dict(local), show_progress=False)
    assert result.optimal and result.score == pytest.approx(-5.5e9)
    assert np.isfinite(result.bound)
