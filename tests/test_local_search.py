"""Local search (hill climbing, tabu, restarts) against brute force and pgmpy's HillClimbSearch."""

import itertools
import subprocess
import sys
import textwrap
import warnings

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pgmpy.base import DAG
from pgmpy.causal_discovery import ExpertKnowledge
from pgmpy.causal_discovery import HillClimbSearch as PgmpyHillClimb
from pgmpy.structure_score import BDs
from sklearn.base import clone

from pgmpy_nml import (
    FNML,
    QNML,
    BDeu,
    FSNMLEstimator,
    LocalSearch,
    MaxBDeu,
    MinBDeu,
)
from pgmpy_nml.scores.pgmpy_adapters import contract_for
from pgmpy_nml.search import find_structure
from pgmpy_nml.search._local import _kernels as _k
from pgmpy_nml.search._local.engine import Engine as _Engine
from pgmpy_nml.search._local.engine import best_forest
from pgmpy_nml.search._local.rows import StatisticRows as _StatisticRows
from pgmpy_nml.search.constraints import Constraints

with warnings.catch_warnings():
    warnings.simplefilter("ignore", FutureWarning)

EPSILON = 1e-4


def search(score, **options):
    return LocalSearch(score, show_progress=False, **options).fit()


def prior_ratio(score, op):
    return score.structure_prior_ratio(op) if hasattr(score, "structure_prior_ratio") else 0.0


def best_legal_change(score, dag, constraints):
    """Brute force: the largest score change of any legal single-edge move (networkx cycles)."""
    variables = list(constraints.variables)
    index = {v: i for i, v in enumerate(variables)}
    graph = nx.DiGraph(dag)

    def local(v, parents):
        return score.local_score(v, tuple(sorted(parents, key=index.get)))

    def allowed(g):
        return nx.is_directed_acyclic_graph(g) and not constraints.violations(g)

    best = -np.inf
    for u, v in itertools.permutations(variables, 2):
        pv = set(graph.predecessors(v))
        if graph.has_edge(u, v):
            delete = local(v, pv - {u}) - local(v, pv)
            g = graph.copy()
            g.remove_edge(u, v)
            if allowed(g):
                best = max(best, delete + prior_ratio(score, "-"))
            g.add_edge(v, u)
            if allowed(g):
                pu = set(graph.predecessors(u))
                change = delete + local(u, pu | {v}) - local(u, pu)
                best = max(best, change + prior_ratio(score, "flip"))
        elif not graph.has_edge(v, u):
            g = graph.copy()
            g.add_edge(u, v)
            if allowed(g):
                best = max(best, local(v, pv | {u}) - local(v, pv) + prior_ratio(score, "+"))
    return best


def assert_local_optimum(score, result, constraints):
    dag = result.causal_graph_
    assert nx.is_directed_acyclic_graph(dag)
    assert set(dag.nodes()) == set(constraints.variables)
    assert constraints.violations(dag) == []
    assert best_legal_change(score, dag, constraints) < EPSILON
    assert result.score_ == pytest.approx(score.score(dag), rel=1e-10, abs=1e-8)


# -- the compiled local scores against the score's own local_score -------------------------
SCORE_NAMES = (
    *("fnml", "qnml", "bdeu", "bd1/2", "pgmpy-bdeu", "legacy-bdeu", "pgmpy-k2"),
    *("pgmpy-bic", "pgmpy-aic", "pgmpy-ll"),
)


@pytest.mark.long
@pytest.mark.parametrize("name", SCORE_NAMES)
@pytest.mark.parametrize(("n_rows", "bitsets"), [(60, True), (4000, True), (4000, False)])
def test_rows_of_local_scores_equal_local_score(
    name, n_rows, bitsets, monkeypatch, random_data, make_test_score
):
    """Every family one edge away, counted in bulk, equals the score's own local_score.

    60 rows send the larger families through refined configurations, 4000 rows the
    smaller ones through bitsets (or, without them, histograms) and exercise the
    lazily tabulated statistics (counts above the prefix)."""
    if not bitsets:
        monkeypatch.setattr(_StatisticRows, "BITSET_BYTES", 0)
    data = random_data(n_rows, 7, seed=4 if n_rows == 60 else n_rows, max_arity=6)
    score = make_test_score(name, data)
    rows = _StatisticRows(contract_for(score), 1)
    assert rows.bits.shape[0] == (len(data.columns) if bitsets else 0)
    variables = rows.variables
    constraints = Constraints.from_knowledge(
        variables,
        max_parents=3,
        expert_knowledge={"forbidden_edges": [("V0", "V3")], "required_edges": [("V1", "V2")]},
    )
    engine = _Engine(rows, constraints, [0.0, 0.0, 0.0], 0.0)
    rng = np.random.default_rng(1)
    n = len(variables)
    paths = set()  # which counting path each family took, by its number of cells
    for _ in range(6):
        order = rng.permutation(n)
        parents = np.zeros((n, n), dtype=np.uint8)
        for a, b in itertools.combinations(range(n), 2):
            u, v = order[a], order[b]
            if rng.random() < 0.35 and parents[v].sum() < 3:
                parents[v, u] = 1
        engine.set_parents(parents)
        table = rows.compute(np.arange(n), engine)
        for v in range(n):
            current = set(np.flatnonzero(parents[v]))
            for u in range(n):
                members = current if u == v else current ^ {u}
                legal_ever = u == v or (
                    (u in current and not constraints.required[v] & {u})
                    or (
                        u not in current
                        and u not in constraints.forbidden[v]
                        and len(current) < constraints.max_parents
                    )
                )
                if not legal_ever:
                    assert table[v, u] == -np.inf
                    continue
                expected = score.local_score(
                    variables[v], tuple(variables[w] for w in sorted(members))
                )
                assert table[v, u] == pytest.approx(expected, rel=1e-10, abs=1e-9)
                cells = rows.arities[[*members, v]].prod()
                small = cells <= _k.bitset_cells(rows.n_rows)
                paths.add(
                    "refined"
                    if cells > rows.direct_cells
                    else ("bitsets" if small and bitsets else "histogram")
                )
    expected_paths = {60: {"bitsets", "refined"}, 4000: {"bitsets", "histogram"}}[n_rows]
    assert paths == (expected_paths if bitsets else {"histogram"} | expected_paths - {"bitsets"})


def test_rows_with_declared_unobserved_states_and_constant_column(random_data):
    data = random_data(300, 5, seed=3, max_arity=4)
    data["V4"] = 0  # a constant column: arity 1 unless states are declared
    names = {"V0": [0, 1, 2, 3, 4, 5], "V4": [0, 1]}
    for score in (FNML(data, state_names=names), QNML(data), BDeu(data, state_names=names)):
        result = search(score)
        assert_local_optimum(score, result, Constraints.from_knowledge(list(data.columns)))


# -- the same search as pgmpy's HillClimbSearch ---------------------------------------------
@pytest.mark.parametrize(
    ("network", "n_rows", "options"),
    [
        ("asia", 3000, {}),
        ("sachs", 2000, {}),
        ("child", 2000, {}),
        ("child", 2000, {"max_parents": 1}),
        ("sachs", 2000, {"expert_knowledge": "forbid"}),
    ],
)
def test_greedy_equals_pgmpy_hill_climbing_under_fnml(network, n_rows, options, network_sample):
    """fNML is not score equivalent, so no orientation ties: both searches take the same
    moves (pgmpy without its tabu list, i.e. plain greedy) and end in the same DAG. Both
    start from the empty network (given: with one parent each, ours would start from
    the best forest)."""
    _, data = network_sample(network, n_rows, seed=7)
    options = dict(options)
    knowledge = None
    if options.pop("expert_knowledge", None):
        knowledge = ExpertKnowledge(forbidden_edges=[(data.columns[0], data.columns[1])])
    ours = search(FNML(data), expert_knowledge=knowledge, start_dag=[], **options)
    theirs = PgmpyHillClimb(
        FNML(data),
        tabu_length=0,
        max_indegree=options.get("max_parents"),
        expert_knowledge=knowledge,
        return_type="dag",
        show_progress=False,
    ).fit(data)
    assert set(ours.causal_graph_.edges()) == set(theirs.causal_graph_.edges())
    assert ours.score_ == pytest.approx(FNML(data).score(theirs.causal_graph_), rel=1e-12)
    assert ours.n_iter_ >= ours.causal_graph_.number_of_edges()


@pytest.mark.long
@pytest.mark.parametrize("score_class", [QNML, BDeu])
def test_score_equivalent_scores_reach_a_local_optimum_at_least_as_good_with_restarts(
    score_class, network_sample
):
    """With score-equivalent scores the first moves tie (u -> v or v -> u); pgmpy breaks
    those ties in set order, we by column order. Tabu search with restarts from the same
    start beats or equals pgmpy's result here, and greedy is a true local optimum."""
    _, data = network_sample("child", 2000, seed=3)
    score = score_class(data)
    greedy = search(score)
    assert_local_optimum(score, greedy, Constraints.from_knowledge(list(data.columns)))
    theirs = PgmpyHillClimb(score_class(data), return_type="dag", show_progress=False).fit(data)
    tabu = search(score, method="tabu", tabu_length=20, restarts=8, perturb=4, random_state=0)
    assert tabu.score_ >= max(greedy.score_, score.score(theirs.causal_graph_)) - 1e-9


# -- constraints, parent limit, local optimality (property-based) --------------------------
@st.composite
def problems(draw):
    """(n_rows, m, seed) of ``random_data``, the knowledge on its columns V0.., options."""
    m = draw(st.integers(3, 6))
    n_rows = draw(st.sampled_from([20, 80, 400]))
    seed = draw(st.integers(0, 10_000))
    names = [f"V{i}" for i in range(m)]
    pairs = [(u, v) for u, v in itertools.permutations(names, 2)]
    forbidden = draw(st.lists(st.sampled_from(pairs), max_size=4, unique=True))
    # required edges from a random order: never a cycle
    order = draw(st.permutations(names))
    forward = [(u, v) for u, v in pairs if order.index(u) < order.index(v)]
    required = draw(st.lists(st.sampled_from(forward), max_size=2, unique=True))
    required = [e for e in required if e not in forbidden]
    max_parents = draw(st.sampled_from([None, 1, 2]))
    if max_parents is not None:
        counts = {v: sum(1 for _, w in required if w == v) for v in names}
        max_parents = max(max_parents, *counts.values())
    tiers = draw(st.sampled_from([None, "two"]))
    knowledge = {"forbidden_edges": forbidden, "required_edges": required}
    if tiers:
        early = [v for v in names if v not in {b for _, b in required}][:1]
        if early:
            late = [v for v in names if v not in early]
            knowledge["temporal_order"] = [early, late]
    score = draw(st.sampled_from(["fnml", "qnml", "bdeu", "min-bdeu"]))
    method = draw(st.sampled_from(["hill", "tabu"]))
    return (n_rows, m, seed), knowledge, max_parents, score, method


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_every_result_is_a_legal_local_optimum(random_data, problem):
    sizes, knowledge, max_parents, score_name, method = problem
    data = random_data(*sizes, max_arity=3)
    from pgmpy_nml import make_score

    score = make_score(score_name, data)
    try:
        constraints = Constraints.from_knowledge(list(data.columns), max_parents, knowledge)
    except ValueError:
        with pytest.raises(ValueError):
            search(score, max_parents=max_parents, expert_knowledge=knowledge)
        return
    result = search(
        score, method=method, max_parents=max_parents, expert_knowledge=knowledge, restarts=1
    )
    assert_local_optimum(score, result, constraints)
    for k, v in result.causal_graph_.in_degree():
        assert v <= constraints.max_parents, k


# -- tabu search, restarts, seeds ------------------------------------------------------------
@pytest.mark.parametrize("network", ["sachs", "child"])
def test_tabu_and_restarts_never_end_below_greedy(network, network_sample):
    _, data = network_sample(network, 1500, seed=11)
    score = FNML(data)
    greedy = search(score)
    tabu = search(score, method="tabu", tabu_length=15)
    restarts = search(score, restarts=4, perturb=5, random_state=1)
    both = search(score, method="tabu", restarts=3, perturb=5, random_state=1)
    for other in (tabu, restarts, both):
        assert other.score_ >= greedy.score_ - 1e-9
        assert other.restart_scores_[0] >= greedy.score_ - 1e-9
        assert other.score_ == pytest.approx(other.restart_scores_.max(), abs=1e-6)
    assert len(restarts.restart_scores_) == 5
    assert restarts.history_[0] == pytest.approx(score.score(_empty(data)))


def _empty(data):
    dag = DAG()
    dag.add_nodes_from(data.columns)
    return dag


def test_tabu_search_moves_through_worse_networks_and_returns_the_best(network_sample):
    _, data = network_sample("child", 1000, seed=2)
    score = QNML(data)
    greedy = search(score)
    tabu = search(score, method="tabu", tabu_length=30, max_non_improving=25)
    history = tabu.history_
    assert np.any(np.diff(history) < 0), "tabu search never accepted a worse network"
    assert tabu.score_ == pytest.approx(history.max(), abs=1e-6)
    assert tabu.score_ >= greedy.score_ - 1e-9


def reference_order_kick(net, n, perturb, rng):
    """The order-based perturbation from its definition: a topological order of ``net``
    by number of ancestors (networkx), ties in the order of ``rng.permutation(n)``;
    ``perturb`` variables each taken out at a random place and put back at a random
    place; the edges against the new order deleted."""
    graph = nx.DiGraph(list(net))
    graph.add_nodes_from(range(n))
    ancestors = [len(nx.ancestors(graph, v)) for v in range(n)]
    tie = rng.permutation(n)
    order = sorted(range(n), key=lambda v: (ancestors[v], tie[v]))
    for _ in range(min(perturb, n)):
        x = order.pop(int(rng.integers(len(order))))
        order.insert(int(rng.integers(len(order) + 1)), x)
    position = {v: i for i, v in enumerate(order)}
    return frozenset((u, v) for u, v in net if position[u] < position[v])


def reference_tabu(
    score, variables, max_parents, tabu_length, max_non_improving, epsilon,
    restarts=0, perturb=0, seed=0, perturbation="moves",
):  # fmt: skip
    """Slow tabu search from the empty network, from the definition: score every legal
    add/delete/reverse neighbour with ``local_score``, skip those among the last
    ``tabu_length`` visited networks (and additions and deletions that change the score
    by less than ``epsilon``) and those that change the edge between a pair of variables
    one of the last ``tabu_length`` moves that lowered the score by more than ``epsilon``
    changed, unless they beat the best network so far by ``epsilon``; move to the best
    (even if worse; ties to the first in the order add < delete < reverse, tail, head),
    stop after ``max_non_improving`` moves
    without a new best. Then ``restarts`` times: apply ``perturb`` random legal moves
    (uniform, drawn with ``seed``) to the best network so far and search again.
    Returns the score after every move and perturbation, and the best network."""
    n = len(variables)
    cache = {}

    def local(v, parents):
        key = (v, parents)
        if key not in cache:
            cache[key] = score.local_score(
                variables[v], tuple(variables[w] for w in sorted(parents))
            )
        return cache[key]

    def total(net):
        return sum(local(v, frozenset(u for u, w in net if w == v)) for v in range(n))

    def acyclic(net):
        return nx.is_directed_acyclic_graph(nx.DiGraph(list(net)))

    def neighbours(net):
        indegree = [sum(1 for _, w in net if w == v) for v in range(n)]
        for u, v in itertools.permutations(range(n), 2):  # add u -> v
            if (u, v) not in net and (v, u) not in net and indegree[v] < max_parents:
                yield 0, u, v, net | {(u, v)}
        for u, v in itertools.permutations(range(n), 2):  # delete u -> v
            if (u, v) in net:
                yield 1, u, v, net - {(u, v)}
        for u, v in itertools.permutations(range(n), 2):  # reverse u -> v
            if (u, v) in net and indegree[u] < max_parents:
                yield 2, u, v, (net - {(u, v)}) | {(v, u)}

    scores = []

    def climb(current):
        best_net, best_score = current, total(current)
        visited = [current]
        moved = []  # the pair of variables each move that lowered the score changed
        stale = 0
        while True:
            tabu = set(visited[-tabu_length:])
            frozen = set(moved[-tabu_length:])
            start = total(current)
            chosen, chosen_delta = None, -np.inf
            for kind, u, v, net in neighbours(current):
                if net in tabu or not acyclic(net):
                    continue
                delta = total(net) - start
                if kind != 2 and abs(delta) < epsilon:
                    continue
                if {u, v} in frozen and not start + delta > best_score + epsilon:
                    continue
                if chosen is None or delta > chosen_delta + 1e-9 * max(1.0, abs(chosen_delta)):
                    chosen, chosen_delta, pair = net, delta, frozenset((u, v))
            if chosen is None:
                return best_net, best_score
            current = chosen
            visited.append(current)
            if chosen_delta < -epsilon:
                moved.append(pair)
            scores.append(total(current))
            if scores[-1] > best_score + epsilon:
                best_net, best_score, stale = current, scores[-1], 0
            else:
                stale += 1
                if stale >= max_non_improving:
                    return best_net, best_score

    scores.append(total(frozenset()))
    best_net, best_score = climb(frozenset())
    rng = np.random.default_rng(seed)
    for _ in range(restarts):
        current = best_net
        if perturbation == "order":
            current = reference_order_kick(current, n, perturb, rng)
        else:
            for _ in range(perturb):
                moves = [net for *_, net in neighbours(current) if acyclic(net)]
                current = moves[rng.integers(len(moves))]
            assert current != best_net or perturb == 0
        scores.append(total(current))
        net, value = climb(current)
        if value > best_score + 1e-9 * max(1.0, abs(best_score)):
            best_net, best_score = net, value
    return scores, {(variables[u], variables[v]) for u, v in best_net}


@pytest.mark.parametrize(
    ("source", "score_name", "tabu_length", "max_non_improving"),
    [
        ("asia", "bdeu", 10, 10),
        ("asia", "fnml", 3, 12),
        ("child", "qnml", 10, 15),
        ("child", "pgmpy-bic", 30, 30),
        ("random", "fnml", 5, 20),
        ("random", "bdeu", 1, 8),
        ("constant", "qnml", 30, 30),
        ("constant", "pgmpy-bic", 10, 10),
    ],
)
def test_tabu_trajectory_equals_a_slow_reference(
    source, score_name, tabu_length, max_non_improving, network_sample, random_data,
    make_test_score,
):  # fmt: skip
    """Move by move, the compiled tabu search takes the reference's path: the same
    score after every move (through worse networks), and ends in the same network.
    A constant column makes every edge at it score-neutral: the search must not
    spend its non-improving moves on them."""
    if source == "random":
        data = random_data(400, 7, seed=8)
    elif source == "constant":
        _, data = network_sample("asia", 600, seed=7)
        data = data[sorted(data.columns)[:7]].assign(Const="yes")
    else:
        _, data = network_sample(source, 600, seed=7)
        data = data[sorted(data.columns)[:9]]
    score = make_test_score(score_name, data)
    options = {"tabu_length": tabu_length, "max_non_improving": max_non_improving}
    ours = search(score, method="tabu", max_parents=2, **options)
    scores, best = reference_tabu(
        score, list(data.columns), 2, tabu_length, max_non_improving, EPSILON
    )
    assert np.any(np.diff(scores) < EPSILON), "the search never went past a local optimum"
    np.testing.assert_allclose(ours.history_, scores, rtol=1e-10, atol=1e-8)
    assert set(ours.causal_graph_.edges()) == best
    assert ours.score_ == pytest.approx(max(scores), abs=1e-8)


@pytest.mark.parametrize(
    ("score_name", "perturb", "seed"), [("bdeu", 3, 3), ("fnml", 1, 3), ("pgmpy-bic", 6, 4)]
)
def test_restarts_follow_the_slow_reference(
    score_name, perturb, seed, network_sample, make_test_score
):
    """Restarts perturb the best network so far by ``perturb`` random legal moves and
    search again: the same scores after every move and perturbation as the reference.
    (With BIC a restart ends below the best, so the next one must go back to it.)"""
    _, data = network_sample("child", 600, seed=7)
    data = data[sorted(data.columns)[:8]]
    score = make_test_score(score_name, data)
    options = {"tabu_length": 10, "max_non_improving": 10, "restarts": 4, "perturb": perturb}
    options["perturbation"] = "moves"
    ours = search(score, method="tabu", max_parents=2, random_state=seed, **options)
    scores, best = reference_tabu(
        score, list(data.columns), 2, epsilon=EPSILON, seed=seed, **options
    )
    np.testing.assert_allclose(ours.history_, scores, rtol=1e-10, atol=1e-8)
    assert set(ours.causal_graph_.edges()) == best
    ends = ours.restart_scores_
    if score_name == "pgmpy-bic":
        assert any(ends[k] < ends[:k].max() - 1 for k in range(1, len(ends)))


@pytest.mark.parametrize(
    ("score_name", "method", "perturb", "seed"),
    [("bdeu", "hill", 2, 0), ("fnml", "tabu", 3, 1), ("pgmpy-bic", "hill", 8, 2)],
)
def test_order_restarts_follow_the_slow_reference(
    score_name, method, perturb, seed, network_sample, make_test_score
):
    """Order-based restarts: a topological order of the best network so far, ``perturb``
    variables moved in it, the edges against the new order deleted, the search again.
    Tabu search: the same score after every move and perturbation as the reference;
    hill climbing: the same score at the end of every climb as a slow greedy climb."""
    _, data = network_sample("child", 600, seed=7)
    data = data[sorted(data.columns)[:8]]
    score = make_test_score(score_name, data)
    options = {"restarts": 5, "perturb": perturb, "perturbation": "order"}
    tabu = {"tabu_length": 10, "max_non_improving": 10} if method == "tabu" else {}
    ours = search(score, method=method, max_parents=2, random_state=seed, **options, **tabu)
    if method == "tabu":
        scores, best = reference_tabu(
            score, list(data.columns), 2, epsilon=EPSILON, seed=seed, **options, **tabu
        )
        np.testing.assert_allclose(ours.history_, scores, rtol=1e-10, atol=1e-8)
        assert set(ours.causal_graph_.edges()) == best
    else:
        ends = reference_hill_restarts(score, list(data.columns), 2, seed=seed, **options)
        np.testing.assert_allclose(ours.restart_scores_, ends, rtol=1e-10, atol=1e-8)
    assert ours.score_ == pytest.approx(ours.restart_scores_.max(), abs=1e-8)


def reference_hill_restarts(score, variables, max_parents, restarts, perturb, seed, perturbation):
    """Slow greedy hill climbing with order-based restarts (:func:`reference_order_kick`):
    the score each climb ends with."""
    assert perturbation == "order"
    n = len(variables)
    cache = {}

    def total(net):
        out = 0.0
        for v in range(n):
            parents = tuple(sorted(u for u, w in net if w == v))
            if (v, parents) not in cache:
                names = tuple(variables[u] for u in parents)
                cache[v, parents] = score.local_score(variables[v], names)
            out += cache[v, parents]
        return out

    def climb(net):
        while True:
            start, chosen, chosen_delta = total(net), None, -np.inf
            indegree = [sum(1 for _, w in net if w == v) for v in range(n)]
            moves = []
            for u, v in itertools.permutations(range(n), 2):
                if (u, v) not in net and (v, u) not in net and indegree[v] < max_parents:
                    moves.append(net | {(u, v)})
            moves += [net - {e} for e in sorted(net)]
            moves += [
                (net - {(u, v)}) | {(v, u)} for u, v in sorted(net) if indegree[u] < max_parents
            ]
            for candidate in moves:
                if not nx.is_directed_acyclic_graph(nx.DiGraph(list(candidate))):
                    continue
                delta = total(candidate) - start
                if chosen is None or delta > chosen_delta + 1e-9 * max(1.0, abs(chosen_delta)):
                    chosen, chosen_delta = candidate, delta
            if chosen is None or chosen_delta < EPSILON:
                return net
            net = frozenset(chosen)

    best = climb(frozenset())
    ends = [total(best)]
    rng = np.random.default_rng(seed)
    for _ in range(restarts):
        net = climb(reference_order_kick(best, n, perturb, rng))
        ends.append(total(net))
        if ends[-1] > total(best) + 1e-9 * max(1.0, abs(total(best))):
            best = net
    return ends


@pytest.mark.long
def test_same_seed_same_network_even_in_other_processes(network_sample):
    code = textwrap.dedent(
        """
        from pgmpy_nml import LocalSearch, QNML
        from pgmpy_nml.datasets import sample_network
        _, data = sample_network("child", 1000, random_state=5)
        search = LocalSearch(QNML(data), method="tabu", restarts=3, perturb=6, random_state=42,
                             show_progress=False).fit()
        print(sorted(search.causal_graph_.edges()), round(search.score_, 6))
        """
    )
    outputs = set()
    for hash_seed in ("0", "1"):
        run = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env={**__import__("os").environ, "PYTHONHASHSEED": hash_seed},
            check=True,
        )
        outputs.add(run.stdout)
    assert len(outputs) == 1
    _, data = network_sample("child", 1000, seed=5)
    here = search(QNML(data), method="tabu", restarts=3, perturb=6, random_state=42)
    assert str(sorted(here.causal_graph_.edges())) in outputs.pop()


def test_time_limit_stops_the_restarts_not_the_first_search(network_sample):
    _, data = network_sample("child", 800, seed=4)
    score = FNML(data)
    greedy = search(score)
    cut = search(score, restarts=50, perturb=3, time_limit=1e-9)
    assert len(cut.restart_scores_) == 1 and cut.score_ == pytest.approx(greedy.score_)
    full = search(score, restarts=5, perturb=3, time_limit=float("inf"))
    assert len(full.restart_scores_) == 6
    assert full.score_ >= greedy.score_ - 1e-9


def test_perturbations_depend_on_the_seed_only(network_sample):
    _, data = network_sample("child", 800, seed=4)
    score = FNML(data)
    runs = [search(score, restarts=3, perturb=8, random_state=s).history_ for s in (0, 0, 1)]
    np.testing.assert_array_equal(runs[0], runs[1])
    assert len(runs[0]) != len(runs[2]) or not np.array_equal(runs[0], runs[2])


def test_ties_go_to_the_edge_from_the_earlier_column():
    rng = np.random.default_rng(0)
    a = rng.integers(0, 2, 500)
    b = np.where(rng.random(500) < 0.9, a, 1 - a)
    for columns in (["A", "B"], ["B", "A"]):
        data = pd.DataFrame({"A": a, "B": b})[columns]
        result = search(QNML(data))
        assert list(result.causal_graph_.edges()) == [tuple(columns)]


# -- the generic path (scores without a contract) -------------------------------------------
class HiddenContract:
    """A score seen only through local_score, as any user-written score would be."""

    def __init__(self, score):
        self._score = score
        self.variables = list(score.variables)
        self.data = score.data
        self.state_names = score.state_names

    def local_score(self, variable, parents):
        return self._score.local_score(variable, parents)


@pytest.mark.parametrize("score_class", [FNML, MinBDeu, MaxBDeu])
def test_generic_path_reaches_a_local_optimum(score_class, network_sample):
    _, data = network_sample("sachs", 1500, seed=1)
    score = score_class(data)
    hidden = HiddenContract(score)
    result = search(hidden)
    assert result.plan_ == "generic"
    assert_local_optimum(score, result, Constraints.from_knowledge(list(data.columns)))
    if score_class is FNML:
        fast = search(score)
        assert fast.plan_ == "statistics"
        assert set(fast.causal_graph_.edges()) == set(result.causal_graph_.edges())


@pytest.mark.long
def test_generic_path_with_a_structure_prior(network_sample):
    """pgmpy's BDs adds log-prior ratios to add and delete moves: the search adds them to
    its changes (the brute-force check includes them) and to the reported score."""
    _, data = network_sample("child", 2000, seed=1)
    score = BDs(data, equivalent_sample_size=5)
    result = search(score, max_parents=2)
    assert result.plan_ == "generic"
    constraints = Constraints.from_knowledge(list(data.columns), max_parents=2)
    assert_local_optimum(score, result, constraints)
    assert score.structure_prior(result.causal_graph_) != 0


# -- start network, parameters, estimator conventions ---------------------------------------
def test_start_dag_is_used_and_checked(network_sample):
    _, data = network_sample("asia", 2000, seed=0)
    score = FNML(data)
    start = search(score).causal_graph_
    again = search(score, start_dag=start)
    assert again.n_iter_ == 0
    assert set(again.causal_graph_.edges()) == set(start.edges())
    u, v = next(iter(start.edges()))
    with pytest.raises(ValueError, match="forbidden edge"):
        search(score, start_dag=start, expert_knowledge={"forbidden_edges": [(u, v)]})
    with pytest.raises(ValueError, match="exactly the variables"):
        search(score, start_dag=DAG([("asia", "tub")]))
    with pytest.raises(ValueError, match="cycle"):
        search(score, start_dag=start, expert_knowledge={"required_edges": [(v, u)]})
    with pytest.raises(TypeError, match="start_dag"):
        search(score, start_dag="asia")
    # a list of edges (or a dict of parents) is a start network, as for ExactSearch
    edges = search(score, start_dag=list(start.edges()))
    assert set(edges.causal_graph_.edges()) == set(start.edges())


def test_required_edges_are_added_to_the_start_and_kept(network_sample):
    _, data = network_sample("asia", 2000, seed=0)
    names = list(data.columns)
    required = [(names[0], names[1]), (names[2], names[1])]
    result = search(FNML(data), expert_knowledge={"required_edges": required}, method="tabu")
    assert set(required) <= set(result.causal_graph_.edges())


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"method": "annealing"}, ValueError),
        ({"tabu_length": 0}, ValueError),
        ({"max_non_improving": 0}, ValueError),
        ({"restarts": -1}, ValueError),
        ({"perturb": 1.5}, ValueError),
        ({"epsilon": -1.0}, ValueError),
        ({"epsilon": "small"}, TypeError),
        ({"random_state": "x"}, TypeError),
        ({"max_parents": -1}, ValueError),
        ({"n_jobs": 0}, ValueError),
    ],
)
def test_bad_settings_are_refused_clearly(options, error, random_data):
    data = random_data(50, 3, seed=0, max_arity=4)
    with pytest.raises(error):
        search(FNML(data), **options)


def test_estimator_conventions_and_fitted_model(network_sample):
    _, data = network_sample("cancer", 1000, seed=0)
    est = LocalSearch("qnml", method="tabu", restarts=1, parameter_estimator=FSNMLEstimator())
    assert clone(est).get_params()["method"] == "tabu"
    with pytest.raises(AttributeError, match="call fit"):
        est.score_  # noqa: B018
    est.set_params(show_progress=False).fit(data)
    assert est.model_.check_model()
    assert set(est.model_.edges()) == set(est.dag_.edges())
    assert est.timings_["local scores"] >= 0
    assert est.history_[-1] <= est.score_ + 1e-9
    with pytest.raises(ValueError, match="fit\\(\\) needs data"):
        LocalSearch("fnml").fit()


@pytest.mark.parametrize("method", ["hill", "tabu"])
def test_method_says_which_search_ran(network_sample, method):
    from sklearn.exceptions import NotFittedError
    from sklearn.utils.validation import check_is_fitted

    _, data = network_sample("cancer", 500, seed=0)
    est = LocalSearch("fnml", method=method, show_progress=False)
    with pytest.raises(AttributeError, match="no method_ yet: call fit"):
        est.method_  # noqa: B018
    with pytest.raises(NotFittedError):
        check_is_fitted(est)
    assert est.fit(data).method_ == method
    check_is_fitted(est)


def test_max_iter_limits_the_moves(network_sample):
    _, data = network_sample("child", 1000, seed=0)
    result = search(FNML(data), max_iter=3)
    assert result.n_iter_ == 3
    assert result.causal_graph_.number_of_edges() == 3


def test_progress_bar_shows_the_score(capsys, network_sample):
    _, data = network_sample("cancer", 500, seed=0)
    LocalSearch(FNML(data), show_progress=True).fit()
    err = capsys.readouterr().err
    assert "hill search" in err and "score" in err


@pytest.mark.parametrize(
    "score_class, counted, method",
    [
        (FNML, False, "hill"),  # fNML defers large counts: requests from both threads
        (QNML, False, "tabu"),
        (BDeu, False, "hill"),
        (FNML, True, "hill"),  # counted data: weighted histograms
        (BDeu, True, "tabu"),
    ],
)
def test_threads_give_the_same_network(score_class, counted, method, network_sample, monkeypatch):
    import pgmpy_nml._counted as counted_module

    _, data = network_sample("child", 3000, seed=0)
    if counted:  # repeated rows counted once, however few rows
        monkeypatch.setattr(counted_module, "COUNT_MIN_ROWS", 0)
        monkeypatch.setattr(counted_module, "worth_counting", lambda n, d: d < n)
    runs = []
    # every call on two threads (THREAD_WORK 1), then the default split
    for work in (1, _StatisticRows.THREAD_WORK):
        monkeypatch.setattr(_StatisticRows, "THREAD_WORK", work)
        calls = []
        original = _StatisticRows._run

        def spy(self, task, n_items, threads, original=original, calls=calls):
            calls.append(threads)
            return original(self, task, n_items, threads)

        monkeypatch.setattr(_StatisticRows, "_run", spy)
        one = search(score_class(data), method=method, n_jobs=1)
        two = search(score_class(data), method=method, n_jobs=2)
        monkeypatch.setattr(_StatisticRows, "_run", original)
        if work == 1:
            assert calls.count(2) == len(calls) // 2  # every call of the n_jobs=2 fit
        assert set(one.causal_graph_.edges()) == set(two.causal_graph_.edges())
        assert one.score_ == two.score_  # the same counts, the same arithmetic
        np.testing.assert_array_equal(one.history_, two.history_)
        runs.append(two.score_)
    assert runs[0] == runs[1]


def test_find_structure_runs_both_local_searches(network_sample):
    _, data = network_sample("cancer", 1000, seed=0)
    score = QNML(data)
    hill = find_structure(score, data, "hill")
    tabu = find_structure(score, data, "tabu", restarts=2, perturb=2)
    assert score.score(tabu) >= score.score(hill) - 1e-9
    with pytest.raises(ValueError, match="local search"):
        find_structure(score, data, "auto", restarts=2)
    with pytest.raises(ValueError, match="'tabu'"):
        find_structure(score, data, "annealing")


@pytest.mark.parametrize("seed", range(30))
def test_pair_tables_from_popcounts_equal_the_general_counting(seed, monkeypatch, make_test_score):
    """Rows of children with no parent or one (tables of one variable or a pair, from the
    marginal counts and pair popcounts) equal those of the histogram counting within
    1e-9 relative: random arities, constant columns, unobserved states, sizes around
    the 64-row words."""
    rng = np.random.default_rng(seed)
    n_rows = int(rng.choice([1, 2, 63, 64, 65, 700]))
    n_vars = int(rng.integers(2, 8))
    arities = rng.integers(1, 7, n_vars)
    data = pd.DataFrame({f"V{i}": rng.integers(0, r, n_rows) for i, r in enumerate(arities)})
    names = {c: list(range(int(arities[i]) + int(rng.integers(0, 2)))) for i, c in enumerate(data)}
    name = ["bdeu", "fnml", "pgmpy-bic", "qnml"][seed % 4]
    score = make_test_score(name, data) if name != "bdeu" else BDeu(data, state_names=names)
    parents = np.zeros((n_vars, n_vars), dtype=np.uint8)
    for v in range(1, n_vars):  # one parent each: removing it leaves v alone
        parents[v, rng.integers(v)] = 1
    tables = []
    for bitsets in (True, False):
        if not bitsets:
            monkeypatch.setattr(_StatisticRows, "BITSET_BYTES", 0)
        rows = _StatisticRows(contract_for(score), 1)
        assert (rows.bits.shape[0] > 0) == bitsets
        engine = _Engine(rows, Constraints.from_knowledge(rows.variables), [0.0] * 3, 0.0)
        found = [rows.compute(np.arange(n_vars), engine)]
        engine.set_parents(parents)
        found.append(rows.compute(np.arange(n_vars), engine))
        tables.append(found)
    for fast, general in zip(*tables, strict=True):
        assert np.array_equal(np.isfinite(fast), np.isfinite(general))
        finite = np.isfinite(general)
        np.testing.assert_allclose(fast[finite], general[finite], rtol=1e-9, atol=1e-9)


def test_bitset_tables_grow_with_the_memory_they_take():
    """Up to 1024 cells by bitsets while a workspace's configuration bitsets stay within
    16 MB each; at a million rows back to 256 (the workspace no larger than before)."""
    assert _k.bitset_cells(5000) == 1024
    assert _k.bitset_cells(10**6) == 256
    for n in (1, 64, 5000, 50_000, 10**6):
        ws = _k.new_workspace(n, 2 * n + 64)
        assert ws[_k._PBITS].shape[0] == ws[_k._MBITS].shape[0] == _k.bitset_cells(n)
        assert ws[_k._PBITS].nbytes <= max(1 << 24, 256 * 8 * ((n + 63) // 64))


# -- the parent limit of max_parents="auto", the forest start ----------------------------------
@settings(max_examples=200, deadline=None)
@given(st.integers(1, 5), st.integers(0, 2**32 - 1), st.booleans())
def test_best_forest_is_the_best_network_with_one_parent_each(n, seed, symmetric):
    """Brute force over every network with at most one parent per variable: for symmetric
    gains (a score-equivalent score) the forest is the best; for any gains it is a forest
    whose edges all have positive gains both ways."""
    rng = np.random.default_rng(seed)
    gains = np.round(rng.normal(size=(n, n)), 1)
    if symmetric:
        gains = (gains + gains.T) / 2
    np.fill_diagonal(gains, -np.inf)
    parents = best_forest(gains)
    assert parents.sum(axis=1).max(initial=0) <= 1
    edges = [(int(u), int(v)) for v, u in zip(*np.nonzero(parents), strict=True)]
    assert nx.is_directed_acyclic_graph(nx.DiGraph(edges))
    heads, tails = np.nonzero(parents)
    assert np.all(gains[heads, tails] > 0) and np.all(gains[tails, heads] > 0)
    value = float(gains[heads, tails].sum())
    best = 0.0
    for choice in itertools.product(range(-1, n), repeat=n):
        edges = [(c, v) for v, c in enumerate(choice) if c >= 0]
        if any(c == v for c, v in edges):
            continue
        graph = nx.DiGraph(edges)
        if nx.is_directed_acyclic_graph(graph):
            best = max(best, sum(gains[v, c] for c, v in edges))
    assert value <= best + 1e-9
    if symmetric:
        assert value == pytest.approx(best, abs=1e-9)


def test_with_one_parent_each_the_search_starts_from_the_best_forest(network_sample):
    """BDeu is score equivalent: with max_parents=1 the search returns the best forest,
    which the brute-force best forest of its own one-parent gains confirms, and which
    plain hill climbing from the empty network can miss."""
    _, data = network_sample("alarm", 1000, seed=1)
    score = BDeu(data)
    found = search(score, max_parents=1)
    variables = list(data.columns)
    base = {v: score.local_score(v, ()) for v in variables}
    gains = np.array(
        [[score.local_score(v, (u,)) - base[v] if u != v else -np.inf for u in variables]
         for v in variables]
    )  # fmt: skip
    heads, tails = np.nonzero(best_forest(gains))
    expected = sum(base.values()) + gains[heads, tails].sum()
    assert found.score_ == pytest.approx(expected, rel=1e-12)
    assert found.score_ >= search(score, max_parents=1, start_dag=[]).score_ - 1e-9


def test_auto_limit_holds_out_rows_only_on_wide_data(network_sample):
    """max_parents="auto": no limit and no choice with many rows per variable; on wide
    data a limit chosen by held-out log-likelihood (checked against the package's own
    fit_network and log_loss on the same split), ties and stops as documented."""
    from pgmpy_nml import log_loss
    from pgmpy_nml.models import fit_network
    from pgmpy_nml.search.local import AUTO_HOLDOUT, AUTO_LIMITS

    _, data = network_sample("alarm", 2000, seed=2)
    tall = search(FNML(data))
    assert tall.max_parents_ is None and tall.limit_scores_ is None
    wide = data.iloc[:30]  # 37 variables, 30 rows
    found = search(FNML(wide))
    scores = found.limit_scores_
    assert list(scores) == list(AUTO_LIMITS[: len(scores)])
    assert found.max_parents_ == max(scores, key=lambda k: (scores[k], -AUTO_LIMITS.index(k)))
    values = list(scores.values())
    assert all(b >= a for a, b in itertools.pairwise(values[:-1]))  # rose until the stop
    assert len(values) == len(AUTO_LIMITS) or values[-1] < values[-2]
    shuffled = np.random.default_rng(0).permutation(len(wide))
    held = np.sort(shuffled[: len(wide) // AUTO_HOLDOUT])
    kept = np.sort(shuffled[len(wide) // AUTO_HOLDOUT :])
    train, test = wide.iloc[kept], wide.iloc[held]
    limit = found.max_parents_
    dag = search(FNML(train), max_parents=limit).causal_graph_
    states = FNML(wide).state_names
    model = fit_network(dag, train, FSNMLEstimator(state_names=states), states)
    assert scores[limit] == pytest.approx(-log_loss(model, test), rel=1e-12)
    assert max(len(list(found.causal_graph_.predecessors(v))) for v in wide.columns) <= (
        limit if limit is not None else len(wide.columns)
    )


def test_find_structure_takes_each_search_s_own_default_limit(network_sample):
    """find_structure's max_parents="auto": the local search's held-out choice on wide
    data (the same network as LocalSearch's default), the exact search's policy else."""
    _, data = network_sample("alarm", 2000, seed=2)
    wide = data.iloc[:30]
    dag = find_structure(FNML(wide), wide, "hill")
    assert set(dag.edges()) == set(search(FNML(wide)).causal_graph_.edges())
    assert set(find_structure(FNML(wide), wide, "hill", max_parents=None).edges()) == set(
        search(FNML(wide), max_parents=None).causal_graph_.edges()
    )


@pytest.mark.long
def test_fifteen_hundred_binary_variables_in_a_laptop_s_memory():
    """Issue 37's scale: 1,500 binary variables and 3,000 rows (conftest's random data),
    the default search with order-based restarts, in a fresh process; its peak resident
    memory stays under 4 GB, and the network is a DAG over every variable. Then 600
    variables and 400 rows (fewer rows than variables): the parent limit is chosen."""
    code = textwrap.dedent(
        """
        import resource, sys
        sys.path.insert(0, "tests")
        import networkx as nx
        from conftest import _random_data
        from pgmpy_nml import LocalSearch
        for n, rows, restarts in ((1500, 3000, 5), (600, 400, 5)):
            data = _random_data(rows, [2] * n, seed=1)
            search = LocalSearch("fnml", restarts=restarts, n_jobs=1, show_progress=False)
            dag = search.fit(data).causal_graph_
            assert dag.number_of_nodes() == n and nx.is_directed_acyclic_graph(dag)
            print(n, rows, dag.number_of_edges(), search.max_parents_)
        print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
        """
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd="."
    )
    lines = run.stdout.split()
    peak_kb = int(lines[-1])
    assert peak_kb < 4 * 1024 * 1024, f"peak {peak_kb / 2**20:.2f} GB"
    assert lines[3] == "None"  # 2 rows per variable: no limit
    assert lines[7] in {"1", "2", "3", "5"}  # fewer rows than variables: a limit
