"""Bootstrap arc strength, the Scutari-Nagarajan threshold and model averaging.

References: a bootstrap recomputed by hand (the documented resamples, a brute-force
search over every DAG on three nodes with the independent fNML of
``tests/_reference.py``, arcs counted with a Counter), the L1 threshold from its
definition by numerical integration, and constructed strengths whose threshold is
worked out in the comments.
"""

import itertools
import math
from collections import Counter

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from _reference import fnml as reference_fnml
from pgmpy.base import DAG

from pgmpy_nml.datasets import sample_network
from pgmpy_nml.study import (
    LearningProcedure,
    averaged_network,
    bootstrap_strength,
    custom_strength,
    plot_strength,
    strength_threshold,
)


def all_dags(nodes):
    """Every DAG on ``nodes`` (as edge tuples), by brute force over the 3**pairs choices."""
    pairs = list(itertools.combinations(nodes, 2))
    for choice in itertools.product((0, 1, 2), repeat=len(pairs)):
        edges = [(a, b) if c == 1 else (b, a) for (a, b), c in zip(pairs, choice, strict=True) if c]
        if nx.is_directed_acyclic_graph(nx.DiGraph(edges)):
            yield tuple(edges)


def best_dag_by_brute_force(data, states):
    nodes = list(data.columns)
    scored = []
    for edges in all_dags(nodes):
        graph = nx.DiGraph(edges)
        graph.add_nodes_from(nodes)
        total = sum(reference_fnml(data, v, sorted(graph.predecessors(v)), states) for v in nodes)
        scored.append((float(total), edges))
    best = max(total for total, _ in scored)
    return {frozenset(edges) for total, edges in scored if total > best - 1e-9}


@pytest.fixture(scope="module")
def tiny():
    rng = np.random.default_rng(7)
    a = rng.choice(3, 40, p=[0.5, 0.3, 0.2])
    b = np.where(rng.random(40) < 0.85, a % 2, 1 - a % 2)
    c = np.where(rng.random(40) < 0.5, b, rng.integers(0, 3, 40))
    return pd.DataFrame({"A": a, "B": b, "C": c})


def test_bootstrap_matches_a_hand_computed_one(tiny):
    n_boot, seed = 6, 11
    strength, networks = bootstrap_strength(
        tiny, scoring_method="fnml", n_bootstrap=n_boot, random_state=seed, return_networks=True
    )
    # the documented resamples, learned by brute force over all 25 DAGs on 3 nodes
    rows = np.random.default_rng(seed).integers(0, len(tiny), size=(n_boot, len(tiny)))
    states = {v: sorted(tiny[v].unique().tolist()) for v in tiny.columns}
    arcs = Counter()
    unique = 0
    for b, r in enumerate(rows):
        optima = best_dag_by_brute_force(tiny.iloc[r].reset_index(drop=True), states)
        assert frozenset(networks[b].edges()) in optima
        unique += len(optima) == 1
        arcs.update(next(iter(optima)) if len(optima) == 1 else networks[b].edges())
    assert unique == n_boot  # no tie-breaking involved: the optimum is unique every time
    assert strength.attrs["cpdag"] is False  # fNML is not score equivalent
    for row in strength.itertuples(index=False):
        u, v = row[0], row[1]
        both = arcs[(u, v)] + arcs[(v, u)]
        assert row.strength == pytest.approx(both / n_boot, abs=1e-15)
        assert row.direction == pytest.approx(arcs[(u, v)] / both if both else 0.0, abs=1e-15)


@pytest.mark.parametrize("workers", [False, True])
def test_resamples_do_not_depend_on_the_number_of_workers(workers, monkeypatch):
    from pgmpy_nml.study import _workers

    # short fits stay in this process; a zero threshold sends them to the workers
    if workers:
        monkeypatch.setattr(_workers, "MIN_PARALLEL_SECONDS", 0.0)
    _, data = sample_network("cancer", 300, random_state=3)
    one = bootstrap_strength(data, scoring_method="qnml", n_bootstrap=4, random_state=5, n_jobs=1)
    two = bootstrap_strength(data, scoring_method="qnml", n_bootstrap=4, random_state=5, n_jobs=2)
    pd.testing.assert_frame_equal(one, two)
    assert one.attrs["cpdag"] is True  # qNML is score equivalent: classes are counted


def test_undirected_edges_count_half_in_each_direction():
    chain = DAG([("A", "B"), ("B", "C")])  # its class: A - B - C, both undirected
    collider = DAG([("A", "B"), ("C", "B")])  # a v-structure: stays directed
    s = custom_strength([chain, collider], ["A", "B", "C"], cpdag=True)
    got = {(r[0], r[1]): (r.strength, r.direction) for r in s.itertuples(index=False)}
    # A-B: chain gives 1/2 each way, collider A->B: p(A->B) = (1/2 + 1)/2 = 3/4
    assert got["A", "B"] == pytest.approx((1.0, 0.75))
    assert got["B", "A"] == pytest.approx((1.0, 0.25))
    assert got["A", "C"] == (0.0, 0.0)
    weighted = custom_strength([chain, collider], ["A", "B", "C"], weights=[3, 1])
    got = {(r[0], r[1]): r.strength for r in weighted.itertuples(index=False)}
    assert got["B", "C"] == pytest.approx(1.0) and got["A", "C"] == 0.0
    assert weighted.loc[
        (weighted["from"] == "B") & (weighted["to"] == "C"), "direction"
    ].item() == (pytest.approx(0.75))


def l1_threshold_by_integration(values, grid=20001):
    """The definition, numerically: argmin_t of the integral of |F(x) - t| on [0, 1]."""
    values = np.sort(np.asarray(values, dtype=float))
    x = (np.arange(grid) + 0.5) / grid  # midpoints of a fine grid of [0, 1]
    ecdf = np.searchsorted(values, x, side="right") / len(values)
    ts = np.linspace(0, 1, 4001)
    loss = np.array([np.abs(ecdf - t).mean() for t in ts])
    t_hat = ts[np.argmin(loss)]
    return t_hat, values[max(math.ceil(t_hat * len(values) - 1e-9), 1) - 1]


def test_threshold_of_a_constructed_example():
    # 10 pairs: six never found, one at 0.2, one at 0.6, two always found.
    # F = 0.6 on [0, 0.2), 0.7 on [0.2, 0.6), 0.8 on [0.6, 1): interval weights 0.2, 0.4,
    # 0.4. The weighted median of (0.6, 0.7, 0.8) with those weights: cumulative
    # 0.2, 0.6 -> t = 0.7, and the 0.7 quantile of the strengths is the 7th smallest,
    # 0.2: arcs stronger than 0.2 (the 0.6 and the two 1.0) are significant.
    values = [0, 0, 0, 0, 0, 0, 0.2, 0.6, 1, 1]
    assert strength_threshold(values) == 0.2
    assert l1_threshold_by_integration(values)[1] == 0.2
    # a flat minimum: F = 0.5 on [0, 0.5), 0.75 on [0.5, 1); weights 0.5, 0.5, so every
    # t in [0.5, 0.75] is optimal; the midpoint 0.625 gives the 3rd smallest, 0.5
    assert strength_threshold([0, 0, 0.5, 1]) == 0.5


@pytest.mark.parametrize("seed", range(8))
def test_threshold_agrees_with_the_definition_integrated_numerically(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(5, 40))
    values = np.round(np.where(rng.random(n) < 0.6, 0.0, rng.random(n)), 2)
    values[rng.random(n) < 0.2] = 1.0
    _, expected = l1_threshold_by_integration(values)
    got = strength_threshold(values)
    # where the minimum is flat the midpoint rule may pick the neighbouring knot
    # of the grid's choice; otherwise the two agree exactly
    knots = np.unique(values)
    if got != expected:
        assert abs(np.searchsorted(knots, got) - np.searchsorted(knots, expected)) == 1
    else:
        assert got == expected


def test_averaged_network_avoids_cycles_and_keeps_ties_undirected():
    nets = [DAG([("A", "B"), ("B", "C"), ("C", "A")][:2]), DAG([("B", "C"), ("C", "A")])]
    nets += [DAG([("C", "A"), ("A", "B")])]
    s = custom_strength(nets, ["A", "B", "C"])
    # every pair has strength 2/3 and one direction: A->B, B->C, C->A form a cycle
    avg = averaged_network(s, threshold=0.5)
    assert nx.is_directed_acyclic_graph(avg) and avg.number_of_edges() == 2
    assert avg.graph["threshold"] == 0.5
    tie = custom_strength([DAG([("A", "B")]), DAG([("B", "A")])], ["A", "B"])
    pdag = averaged_network(tie, threshold=0.5, return_type="pdag")
    assert len(pdag.undirected_edges) == 1 and not pdag.directed_edges
    assert averaged_network(tie, threshold=0.5).number_of_edges() == 1
    assert averaged_network(tie, threshold=1.0).number_of_edges() == 1  # strength 1 always
    empty = averaged_network(custom_strength([DAG()], ["A", "B"]))
    assert sorted(empty.nodes()) == ["A", "B"] and empty.number_of_edges() == 0


def test_any_search_object_is_refit_on_each_resample():
    from pgmpy.causal_discovery import HillClimbSearch
    from pgmpy.structure_score import BIC

    _, data = sample_network("cancer", 400, random_state=2)
    # the score object is bound to the full data; each resample must get its own
    search = HillClimbSearch(scoring_method=BIC(data), return_type="dag", show_progress=False)
    _, nets = bootstrap_strength(
        data, method=search, n_bootstrap=3, random_state=0, return_networks=True
    )
    rows = np.random.default_rng(0).integers(0, len(data), size=(3, len(data)))
    for r, net in zip(rows, nets, strict=True):
        resample = data.iloc[r].reset_index(drop=True)
        fresh = HillClimbSearch(
            scoring_method=BIC(resample), return_type="dag", show_progress=False
        )
        assert set(net.edges()) == set(fresh.fit(resample).causal_graph_.edges())
    procedure = LearningProcedure(
        "hill", scoring_method="bdeu", score_params={"equivalent_sample_size": 5}
    )
    s = bootstrap_strength(data, method=procedure, n_bootstrap=2, random_state=0)
    assert len(s) == 20 and s.attrs["cpdag"] is True


def test_plot_writes_a_png(tmp_path):
    pytest.importorskip("matplotlib")
    true_model, data = sample_network("cancer", 500, random_state=1)
    s = bootstrap_strength(data, scoring_method="fnml", n_bootstrap=3, random_state=0)
    path = tmp_path / "strength.png"
    plot_strength(s, reference=true_model, path=path)
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_on_an_axes_of_a_subfigure_saves_the_whole_figure(tmp_path):
    plt = pytest.importorskip("matplotlib.pyplot")
    nets = [DAG([("A", "B"), ("B", "C")]), DAG([("A", "B")]), DAG([("B", "A"), ("A", "C")])]
    s = custom_strength(nets, ["A", "B", "C"])
    figure = plt.figure()
    left, _ = figure.subfigures(1, 2)
    ax = left.subplots()
    path = tmp_path / "strength.png"
    assert plot_strength(s, ax=ax, path=path) is ax
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    plt.close(figure)


def test_bad_arguments_say_what_to_do():
    _, data = sample_network("cancer", 50, random_state=1)
    with pytest.raises(ValueError, match="cpdag must be"):
        bootstrap_strength(data, n_bootstrap=1, cpdag="yes")
    with pytest.raises(ValueError, match="n_bootstrap"):
        bootstrap_strength(data, n_bootstrap=0)
    with pytest.raises(ValueError, match="method must be one of"):
        bootstrap_strength(data, method="annealing", n_bootstrap=1)
    with pytest.raises(ValueError, match="not in nodes"):
        custom_strength([DAG([("A", "Z")])], ["A", "B"])
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        strength_threshold([0.5, 1.5])


def test_subsamples_without_replacement(tiny):
    from pgmpy_nml import FNML, ExactSearch

    s, nets = bootstrap_strength(
        tiny,
        scoring_method="fnml",
        n_bootstrap=3,
        replace=False,
        random_state=4,
        return_networks=True,
    )
    assert s.attrs["sample_size"] == len(tiny) // 2 and s.attrs["replace"] is False
    rng = np.random.default_rng(4)
    for net in nets:
        rows = rng.permutation(len(tiny))[: len(tiny) // 2]
        part = tiny.iloc[rows].reset_index(drop=True)
        names = {v: sorted(tiny[v].unique().tolist()) for v in tiny.columns}
        expected = ExactSearch(FNML(part, state_names=names), show_progress=False).fit(part).dag_
        assert set(net.edges()) == set(expected.edges())
    with pytest.raises(ValueError, match="at most 40 rows"):
        bootstrap_strength(tiny, n_bootstrap=1, replace=False, sample_size=41)


def test_a_search_returning_pdags_and_joblib_backends():
    from joblib import parallel_config
    from pgmpy.causal_discovery import HillClimbSearch

    _, data = sample_network("cancer", 300, random_state=6)
    search = HillClimbSearch(scoring_method="bic-d", show_progress=False)  # returns PDAGs
    with parallel_config(backend="threading", n_jobs=2):
        s, nets = bootstrap_strength(
            data, method=search, n_bootstrap=3, random_state=1, cpdag=False, return_networks=True
        )
    assert all(type(net).__name__ == "PDAG" for net in nets)
    again = custom_strength(nets, list(data.columns))
    pd.testing.assert_series_equal(s["strength"], again["strength"])
