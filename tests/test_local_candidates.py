"""Candidate restriction of the local search (sparse candidates): the screen against a slow
reference, the moves it allows, and its limit (every pair a candidate: the full search)."""

import itertools

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pgmpy_nml import FNML, BDeu, LocalSearch
from pgmpy_nml.scores.pgmpy_adapters import contract_for
from pgmpy_nml.search._local import _kernels as _k
from pgmpy_nml.search._local import _move_kernels as _m
from pgmpy_nml.search._local import _screen_kernels as _sk
from pgmpy_nml.search._local import screen
from pgmpy_nml.search._local.engine import Engine as _Engine
from pgmpy_nml.search._local.rows import StatisticRows as _StatisticRows

EPSILON = 1e-4


def search(score, **options):
    return LocalSearch(score, show_progress=False, **options).fit()


# -- the screen against a slow reference -------------------------------------------------------
def reference_information(data):
    """Mutual information of every pair of columns from pandas crosstabs (nats)."""
    columns = list(data.columns)
    n = len(columns)
    mi = np.zeros((n, n))
    for i, j in itertools.combinations(range(n), 2):
        p = pd.crosstab(data[columns[i]], data[columns[j]]).to_numpy() / len(data)
        outer = p.sum(axis=1, keepdims=True) * p.sum(axis=0, keepdims=True)
        nz = p > 0
        mi[i, j] = mi[j, i] = float((p[nz] * np.log(p[nz] / outer[nz])).sum())
    return mi


def reference_top_k(mi, k, forbidden=frozenset(), required=frozenset(), symmetric=False):
    """``{v: set of candidate parents}``: the k largest (ties to the earlier column) among
    the non-forbidden, then the mirror images (if symmetric) and the required parents."""
    n = len(mi)
    chosen = {}
    for v in range(n):
        pool = [u for u in range(n) if u != v and (u, v) not in forbidden]
        pool.sort(key=lambda u: (-mi[v, u], u))
        chosen[v] = set(pool[:k])
    if symmetric:
        for v in range(n):
            for u in list(chosen[v]):
                chosen[u].add(v)
    for v in range(n):
        chosen[v] = {u for u in chosen[v] if (u, v) not in forbidden}
        chosen[v] |= {u for (u, w) in required if w == v}
    return chosen


def encoded(data):
    rows = _StatisticRows(contract_for(FNML(data)), 1)
    return rows


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("bitsets", [True, False])
def test_mutual_information_equals_crosstabs(seed, bitsets, random_data):
    """Every pair, bitset popcounts (with the last row and column from the margins) or a
    histogram, against pandas crosstabs; a constant column and a duplicate included."""
    rng = np.random.default_rng(seed)
    data = random_data(int(rng.integers(20, 3000)), 9, seed=seed, max_arity=7)
    data["C"] = 1
    data["D"] = data["V2"]
    rows = encoded(data)
    bits = rows.bits if bitsets else np.zeros((0, 0, 0), dtype=np.uint64)
    ours = screen.mutual_information(rows.codes, rows.arities, bits)
    np.testing.assert_allclose(ours, reference_information(data), rtol=1e-9, atol=1e-12)
    assert np.array_equal(ours, ours.T)


@pytest.mark.parametrize("seed", range(8))
def test_top_k_equals_the_reference(seed, random_data):
    rng = np.random.default_rng(seed)
    m = int(rng.integers(3, 10))
    data = random_data(300, m, seed=seed, max_arity=4)
    data["D"] = data["V0"]  # exact ties: the earlier column wins
    n = m + 1
    mi = reference_information(data)
    pairs = [(u, v) for u, v in itertools.permutations(range(n), 2)]
    picks = rng.choice(len(pairs), size=min(4, len(pairs)), replace=False)
    forbidden = {pairs[i] for i in picks[:2]}
    required = {pairs[i] for i in picks[2:]} - forbidden
    forbid = np.zeros((n, n), dtype=bool)
    need = np.zeros((n, n), dtype=bool)
    for u, v in forbidden:
        forbid[v, u] = True
    for u, v in required:
        need[v, u] = True
    for k in (1, 2, 3, n):
        for symmetric in (False, True):
            allowed = screen.select_candidates(mi, k, forbid, need, None, symmetric)
            expected = reference_top_k(mi, k, forbidden, required, symmetric)
            assert {v: set(np.flatnonzero(allowed[v])) for v in range(n)} == expected


# -- the search honours the candidates -------------------------------------------------------
def record_moves(monkeypatch):
    moves = []
    apply = _Engine.apply

    def recording(self, kind, u, v):
        moves.append((kind, u, v, self.forbidden.copy(), self.knowledge_forbidden.copy()))
        apply(self, kind, u, v)

    monkeypatch.setattr(_Engine, "apply", recording)
    return moves


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    m=st.integers(4, 9),
    k=st.integers(1, 4),
    method=st.sampled_from(["hill", "tabu"]),
    symmetric=st.booleans(),
    rounds=st.sampled_from([1, 3]),
)
def test_no_move_adds_a_non_candidate_arc(seed, m, k, method, symmetric, rounds, random_data):
    """Every addition and reversal of every search (restarts and re-selection rounds
    included) creates only an arc whose tail is a candidate of its head; the result is
    a local optimum among the moves the candidates allow."""
    data = random_data(400, m, seed=seed, max_arity=4)
    score = BDeu(data)
    with pytest.MonkeyPatch.context() as patch:
        moves = record_moves(patch)
        result = search(
            score,
            method=method,
            candidates=k,
            candidate_rounds=rounds,
            symmetric_candidates=symmetric,
            restarts=1,
            perturb=3,
        )
    for kind, u, v, forbidden, _ in moves:
        if kind == _m.ADD:
            assert not forbidden[v, u], (u, v)
        elif kind == _m.REVERSE:
            assert not forbidden[u, v], (v, u)
    cands = result.candidates_
    variables = list(data.columns)
    assert set(cands) == set(variables)
    for u, v in result.causal_graph_.edges():
        assert u in cands[v]
    for v in variables:
        if rounds == 1:  # the first screen: at most k of its own
            assert len(cands[v]) >= min(k, m - 1)
        if symmetric:
            assert all(v in cands[u] for u in cands[v])
    assert np.all(np.diff(result.round_scores_) >= -1e-9)
    assert result.score_ == pytest.approx(result.round_scores_[-1], abs=1e-9)
    assert_candidate_local_optimum(score, result, variables)


def assert_candidate_local_optimum(score, result, variables):
    """Brute force: no legal move the candidates allow improves the score by epsilon."""
    index = {v: i for i, v in enumerate(variables)}
    graph = nx.DiGraph(result.causal_graph_)
    cands = result.candidates_

    def local(v, parents):
        return score.local_score(v, tuple(sorted(parents, key=index.get)))

    for u, v in itertools.permutations(variables, 2):
        pv = set(graph.predecessors(v))
        if graph.has_edge(u, v):
            assert local(v, pv - {u}) - local(v, pv) < EPSILON
            if u in cands.get(v, ()) and v in cands[u]:
                g = graph.copy()
                g.remove_edge(u, v)
                g.add_edge(v, u)
                if nx.is_directed_acyclic_graph(g):
                    pu = set(graph.predecessors(u))
                    change = local(v, pv - {u}) - local(v, pv) + local(u, pu | {v}) - local(u, pu)
                    assert change < EPSILON
        elif not graph.has_edge(v, u) and u in cands[v]:
            g = graph.copy()
            g.add_edge(u, v)
            if nx.is_directed_acyclic_graph(g):
                assert local(v, pv | {u}) - local(v, pv) < EPSILON


@pytest.mark.parametrize(
    ("network", "options"),
    [
        ("child", {}),
        ("child", {"method": "tabu", "restarts": 3, "perturb": 4, "random_state": 2}),
        ("alarm", {"max_parents": 2}),
        ("alarm", {"method": "tabu", "tabu_length": 20}),
        ("insurance", {"expert_knowledge": True}),
    ],
)
def test_every_pair_a_candidate_is_the_full_search(network, options, network_sample):
    """k >= n - 1: the same moves, the same network, the same score as without candidates
    (the sparse move scan visits the moves in the full scan's order)."""
    _, data = network_sample(network, 1500, seed=5)
    options = dict(options)
    if options.pop("expert_knowledge", False):
        names = list(data.columns)
        options["expert_knowledge"] = {
            "forbidden_edges": [(names[0], names[1]), (names[3], names[2])],
            "required_edges": [(names[4], names[5])],
        }
    score = BDeu(data)
    full = search(score, **options)
    n = len(data.columns)
    for k in (n - 1, n + 5):
        restricted = search(score, candidates=k, **options)
        assert set(restricted.causal_graph_.edges()) == set(full.causal_graph_.edges())
        assert restricted.score_ == full.score_
        np.testing.assert_array_equal(restricted.history_, full.history_)
    assert full.candidates_ is None
    np.testing.assert_array_equal(full.round_scores_, [full.score_])


def test_required_edges_are_candidates_and_kept_forbidden_never(network_sample):
    _, data = network_sample("alarm", 2000, seed=1)
    names = list(data.columns)
    required = [(names[0], names[9]), (names[20], names[3])]
    forbidden = [(names[1], names[2]), (names[2], names[1])]
    knowledge = {"required_edges": required, "forbidden_edges": forbidden}
    score = BDeu(data)
    mi = screen.mutual_information(*_codes(score))
    top = mi[2].argmax()  # the strongest partner of names[2]: forbid it
    forbidden.append((names[top], names[2]))
    for rounds in (1, 2):
        result = search(score, candidates=2, candidate_rounds=rounds, expert_knowledge=knowledge)
        assert set(required) <= set(result.causal_graph_.edges())
        for u, v in required:
            assert u in result.candidates_[v]
        for u, v in forbidden:
            assert u not in result.candidates_[v]
            assert not result.causal_graph_.has_edge(u, v)


def _codes(score):
    rows = _StatisticRows(contract_for(score), 1)
    return rows.codes, rows.arities, rows.bits


@pytest.mark.parametrize("method", ["hill", "tabu"])
def test_reselection_rounds_never_lower_the_score(method, network_sample):
    """Each round starts from the last result with its parents among the candidates:
    the round scores never decrease, and more rounds end at least as high."""
    _, data = network_sample("alarm", 3000, seed=2)
    score = BDeu(data, equivalent_sample_size=1.0)
    one = search(score, method=method, candidates=2, candidate_rounds=1)
    more = search(score, method=method, candidates=2, candidate_rounds=4)
    default = search(score, method=method, candidates=2)  # two rounds: one re-selection
    assert len(one.round_scores_) == 1
    np.testing.assert_array_equal(default.round_scores_, more.round_scores_[:2])
    assert len(more.round_scores_) >= 2
    assert more.round_scores_[0] == pytest.approx(one.score_, abs=1e-9)
    assert np.all(np.diff(more.round_scores_) >= -1e-9)
    assert more.score_ >= one.score_ - 1e-9
    assert more.score_ == pytest.approx(score.score(more.causal_graph_), rel=1e-10)
    assert more.timings_["candidate screen"] > 0


def test_user_candidate_sets(network_sample):
    _, data = network_sample("asia", 2000, seed=0)
    names = list(data.columns)
    given = {names[1]: [names[0]], names[2]: [names[0], names[1]]}
    result = search(BDeu(data), candidates=given, symmetric_candidates=False)
    assert result.candidates_ == {
        v: tuple(u for u in names if u in given.get(v, ())) for v in names
    }
    assert set(result.causal_graph_.edges()) <= {(u, v) for v in given for u in given[v]}
    both = search(BDeu(data), candidates=given)  # symmetric: the mirror images too
    assert names[2] in both.candidates_[names[0]]


def test_generic_path_takes_candidates(network_sample):
    """Scores without a contract encode the data for the screen: the same result."""

    class Hidden:
        def __init__(self, score):
            self._score = score
            self.variables = list(score.variables)
            self.data = score.data
            self.state_names = score.state_names

        def local_score(self, variable, parents):
            return self._score.local_score(variable, parents)

    _, data = network_sample("child", 1000, seed=1)
    score = FNML(data)
    fast = search(score, candidates=3)
    slow = search(Hidden(score), candidates=3)
    assert slow.plan_ == "generic"
    assert slow.candidates_ == fast.candidates_
    assert set(slow.causal_graph_.edges()) == set(fast.causal_graph_.edges())


@pytest.mark.parametrize(
    ("options", "error", "match"),
    [
        ({"candidates": 0}, ValueError, "candidates"),
        ({"candidates": 1.5}, ValueError, "candidates"),
        ({"candidates": "all"}, ValueError, "'auto'"),
        ({"candidates": True}, TypeError, "candidates"),
        ({"candidates": {"nope": ["V0"]}}, ValueError, "not a column"),
        ({"candidates": {"V0": ["nope"]}}, ValueError, "not a column"),
        ({"candidates": {"V0": "V1"}}, TypeError, "list of parent names"),
        ({"candidates": {"V0": ["V0"]}}, ValueError, "itself"),
        ({"candidates": {"V0": ["V1"]}, "candidate_rounds": 2}, ValueError, "mapping"),
        ({"candidate_rounds": 0}, ValueError, "candidate_rounds"),
        ({"candidate_rounds": 2}, ValueError, "no candidates"),
        ({"candidates": 3, "symmetric_candidates": 1}, TypeError, "symmetric_candidates"),
    ],
)
def test_bad_candidate_settings_are_refused_clearly(options, error, match, random_data):
    data = random_data(50, 3, seed=0, max_arity=3)
    with pytest.raises(error, match=match):
        search(FNML(data), **options)


# -- the compiled pieces -------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(5))
def test_closure_after_additions_equals_the_full_closure(seed):
    rng = np.random.default_rng(seed)
    n = 12
    parents = np.zeros((n, n), dtype=np.uint8)
    reach = np.zeros((n, n), dtype=np.uint8)
    full = np.zeros((n, n), dtype=np.uint8)
    for _ in range(40):
        u, v = rng.choice(n, 2, replace=False)
        if parents[v, u] or parents[u, v] or reach[v, u]:
            continue
        parents[v, u] = 1
        _sk.reach_add(reach, u, v)
        assert _m.reachability(parents, full)
        np.testing.assert_array_equal(reach, full)


def _reference_best_move(parents, local, forbidden, max_parents, offsets, rtol, neutral, heads):
    """The move scan written from its definition: every (kind, tail, head) in the order of
    the tie rule, legality checked on the network after the move (a DAG, no forbidden
    addition, at most ``max_parents``), ``heads[u]`` the heads an addition may take."""
    n = parents.shape[0]
    best, found = -np.inf, (-1, -1, -1)
    for kind in range(3):
        for u in range(n):
            for v in range(n):
                present = bool(parents[v, u])
                if u == v or present != (kind != _m.ADD) or (kind == _m.ADD and v not in heads[u]):
                    continue
                after = parents.copy()
                if kind == _m.ADD:
                    d = local[v, u] - local[v, v]
                    after[v, u] = 1
                elif kind == _m.DELETE:
                    d = local[v, u] - local[v, v]
                    after[v, u] = 0
                else:
                    d = local[v, u] - local[v, v] + local[u, v] - local[u, u]
                    after[v, u], after[u, v] = 0, 1
                d += offsets[kind]
                if kind != _m.REVERSE and abs(d) < neutral:
                    continue
                if found[0] >= 0 and d <= best + rtol * max(1.0, abs(best)):
                    continue
                if kind != _m.DELETE and (forbidden[v, u] if kind == _m.ADD else forbidden[u, v]):
                    continue
                if after.sum(axis=1).max() > max_parents:
                    continue
                if not nx.is_directed_acyclic_graph(
                    nx.DiGraph(np.argwhere(after)[:, ::-1].tolist())
                ):
                    continue
                best, found = d, (kind, u, v)
    return (*found, best)


def test_move_scan_against_its_definition_on_random_tables():
    """The full scan and the candidate-restricted one (compiled twins: one shared helper made
    the scan 4x slower, andes 0.59 -> 2.4 s) both return the move the definition gives,
    ties (coarse local scores) and the neutral zone included."""
    rng = np.random.default_rng(0)
    n = 7
    for trial in range(150):
        order = rng.permutation(n)
        parents = np.zeros((n, n), dtype=np.uint8)
        for a, b in itertools.combinations(range(n), 2):
            if rng.random() < 0.25 and parents[order[b]].sum() < 3:
                parents[order[b], order[a]] = 1
        local = np.round(rng.normal(size=(n, n)), 1)  # coarse values: many ties
        reach = np.zeros((n, n), dtype=np.uint8)
        _m.reachability(parents, reach)
        n_parents = parents.sum(axis=1).astype(np.int64)
        forbidden = (rng.random((n, n)) < 0.1).astype(np.uint8)
        required = np.zeros((n, n), dtype=np.uint8)
        keys = rng.integers(-(2**62), 2**62, size=(n, n))
        tabu = np.zeros(0, dtype=np.int64)
        neutral = 0.05 * (trial % 2)
        state = (parents, n_parents, reach, local, forbidden, required, 3, np.zeros(3), keys)
        state += (np.int64(0), tabu, 1e-9, neutral)
        edges = np.sort(np.array([u * n + v for v, u in np.argwhere(parents)], dtype=np.int64))
        listed = rng.random((n, n)) < 0.5  # listed[u, v]: u -> v may be added
        tails, heads = np.nonzero(listed & ~np.eye(n, dtype=bool))
        add_start = np.searchsorted(tails, np.arange(n + 1)).astype(np.int64)
        full = _m.best_move(*state)
        sparse = _sk.best_move_restricted(*state, add_start, heads.astype(np.int64), edges)
        for got, allowed in (
            (full, [set(range(n))] * n),
            (sparse, [set(np.flatnonzero(row)) for row in listed]),
        ):
            want = _reference_best_move(
                parents, local, forbidden, 3, np.zeros(3), 1e-9, neutral, allowed
            )
            assert got[:3] == want[:3]
            assert got[3] == pytest.approx(want[3]) or (np.isinf(got[3]) and np.isinf(want[3]))


def test_a_score_without_data_is_refused_clearly(network_sample):
    _, data = network_sample("cancer", 300, seed=0)
    score = FNML(data)

    class NoData:
        variables = list(score.variables)

        def local_score(self, variable, parents):
            return score.local_score(variable, parents)

    assert search(NoData(), candidates=None).plan_ == "generic"
    with pytest.raises(TypeError, match=r"no \.data"):
        search(NoData(), candidates=2)


def test_progress_bar_names_the_candidate_round(capsys, network_sample):
    _, data = network_sample("cancer", 500, seed=0)
    LocalSearch(FNML(data), candidates=2, candidate_rounds=2, show_progress=True).fit()
    assert "candidate round 2/2" in capsys.readouterr().err


@pytest.mark.parametrize("method", ["hill", "tabu"])
def test_non_candidate_pairs_are_never_counted(method, monkeypatch, network_sample):
    """Every family the search counts (one round) is the current one, one parent fewer,
    or one candidate more: the pairs left out cost nothing."""
    _, data = network_sample("alarm", 1000, seed=3)
    planned = []
    plan = _Engine.plan

    def recording(self, children, log_arities, log_direct_cells):
        result = plan(self, children, log_arities, log_direct_cells)
        planned.append((np.array(children), result, self.parents.copy()))
        return result

    monkeypatch.setattr(_Engine, "plan", recording)
    result = search(BDeu(data), method=method, candidates=3, candidate_rounds=1, restarts=1)
    names = list(data.columns)
    allowed = {(names.index(u), names.index(v)) for v in names for u in result.candidates_[v]}
    first_pass = 0  # the empty start: every child's candidates, nothing else
    seen = 0
    for children, (_, _, item_row, item_u, item_kind, _, _), parents in planned:
        for r, u, kind in zip(item_row, item_u, item_kind, strict=True):
            v = children[r]
            if kind == _k.PLUS:
                assert (u, v) in allowed
                first_pass += seen < len(names)
            elif kind == _k.MINUS:
                assert parents[v, u]
        seen += len(children)
    assert first_pass == len(allowed) < len(names) * (len(names) - 1) // 3
