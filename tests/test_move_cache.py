"""The cached move scan (:mod:`pgmpy_nml.search._local._scan_kernels`) returns the move of
the full scan (:func:`pgmpy_nml.search._local._move_kernels.best_move`, itself checked
against its definition in ``test_local_candidates.py``) at every step of random move
sequences, and whole searches take the same moves with and without it."""

from __future__ import annotations

import numpy as np
import pytest

from pgmpy_nml import BDeu, LocalSearch
from pgmpy_nml.search._local import _move_kernels as _m
from pgmpy_nml.search._local import _scan_kernels as _sc
from pgmpy_nml.search._local.climb import tabu_hashes
from pgmpy_nml.search._local.engine import Engine
from pgmpy_nml.search.constraints import Constraints


class _TableRows:
    """Local scores drawn at random per (child, parent set): coarse values (many exact
    ties), near-ties a fraction of the tie tolerance apart (chains of them), and now
    and then ``-inf`` or NaN."""

    def __init__(self, n, seed, nan=False):
        self.variables = [f"X{i}" for i in range(n)]
        self.seed = seed
        self.nan = nan

    def compute(self, children, engine):
        n = len(self.variables)
        out = np.full((len(children), n), -np.inf)
        for r, v in enumerate(children):
            key = (self.seed, int(v), *np.flatnonzero(engine.parents[v]).tolist())
            rng = np.random.default_rng(abs(hash(key)) % 2**32)
            scale = 10.0 ** rng.integers(0, 4)  # |changes| below and above 1
            row = np.round(rng.normal(size=n), 1) * scale
            row += rng.choice([0.0, 0.0, 0.4e-9, 0.8e-9, 1.6e-9], size=n) * max(1.0, scale)
            row[rng.random(n) < 0.03] = -np.inf
            if self.nan and rng.random() < 0.05:
                row[rng.integers(n)] = np.nan
            out[r] = row
            out[r, engine.forbidden[v] != 0] = -np.inf
        return out


def _engine(rng, n, nan):
    names = [f"X{i}" for i in range(n)]
    pairs = [(names[a], names[b]) for a in range(n) for b in range(n) if a != b]
    picks = rng.permutation(len(pairs))
    forbidden = [pairs[i] for i in picks[:2]]
    required = [pairs[picks[2]]] if rng.random() < 0.5 else []
    knowledge = {"forbidden_edges": forbidden, "required_edges": required}
    constraints = Constraints.from_knowledge(names, int(rng.integers(2, n)), knowledge)
    offsets = rng.choice([0.0, 0.0, -0.5, 0.3], size=3)
    engine = Engine(_TableRows(n, int(rng.integers(1 << 30)), nan), constraints, offsets, 0.0)
    start = np.zeros((n, n), dtype=np.uint8)
    for v in range(n):
        start[v, list(constraints.required[v])] = 1
    engine.set_parents(start)
    return engine


def _full_scan(engine, tabu, neutral):
    engine.use_move_cache = False
    try:
        return engine.best(tabu, 1e-9, neutral)
    finally:
        del engine.use_move_cache


@pytest.mark.parametrize("seed", range(40))
def test_cached_scan_is_the_full_scan_along_random_move_sequences(seed):
    """Every step: the cache's move equals the full scan's, with tabu lists, the neutral
    zone, candidate restrictions, restores, deletions and reversals between the steps."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 12))
    engine = _engine(rng, n, nan=seed % 5 == 0)
    neutral = float(rng.choice([0.0, 0.05]))
    snapshot = None
    for _ in range(60):
        engine.refresh()
        tabu = np.zeros(0, dtype=np.int64)
        if rng.random() < 0.3:  # some of the neighbours' hashes are tabu
            moves = engine.legal_moves()
            tabu = np.array(
                [_m._moved_hash(k, u, v, engine.hash, engine.keys) for k, u, v in moves[::2]],
                dtype=np.int64,
            )
        cached = engine.best(tabu, 1e-9, neutral)
        full = _full_scan(engine, tabu, neutral)
        assert cached[:3] == full[:3]
        assert cached[3] == full[3] or (np.isnan(cached[3]) and np.isnan(full[3]))
        draw = rng.random()
        if draw < 0.05:
            allowed = rng.random((n, n)) < 0.6
            engine.restrict(allowed)
        elif draw < 0.1:
            snapshot = engine.snapshot()
        elif draw < 0.15 and snapshot is not None:
            engine.restore(snapshot)
        else:
            moves = engine.legal_moves()
            if not len(moves):
                break
            if cached[0] >= 0 and draw < 0.6:
                kind, u, v = cached[:3]
            else:
                kind, u, v = (int(x) for x in moves[rng.integers(len(moves))])
            engine.apply(kind, u, v)


def _closure(parents):
    n = parents.shape[0]
    reach = parents.T.astype(bool).copy()  # reach[a, b]: an edge a -> b
    for k in range(n):
        reach |= reach[:, [k]] & reach[[k], :]
    return reach


@pytest.mark.parametrize("seed", range(30))
def test_order_kicks_and_frozen_pairs_keep_the_state_and_the_cache_right(seed):
    """Order kicks (edges against a perturbed topological order deleted at once) keep the
    engine's state what it would be built from scratch (closure, hash, parent counts,
    edge list, structure prior) and its required edges; the cached scan still returns
    the full scan's move, with frozen pairs of variables in the tabu list."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 12))
    engine = _engine(rng, n, nan=False)
    for _ in range(40):
        engine.refresh()
        if rng.random() < 0.25:
            before = engine.parents.copy()
            prior = engine.prior
            deleted = engine.order_kick(rng, int(rng.integers(1, n + 1)))
            assert not np.any(engine.parents & ~before), "an order kick only deletes"
            assert int(before.sum()) - int(engine.parents.sum()) == deleted
            assert np.all(engine.parents[engine.required != 0])
            assert engine.prior == pytest.approx(prior + deleted * engine.offsets[_m.DELETE])
            h = np.int64(0)
            for v, u in zip(*np.nonzero(engine.parents), strict=True):
                h ^= engine.keys[u, v]
            assert engine.hash == h
            np.testing.assert_array_equal(engine.reach != 0, _closure(engine.parents))
            np.testing.assert_array_equal(engine.n_parents, engine.parents.sum(axis=1))
            tails, heads = np.nonzero(engine.parents.T)
            np.testing.assert_array_equal(engine.edges, np.sort(tails * n + heads))
            order = engine.topological_order(rng)
            position = np.argsort(order)
            heads, tails = np.nonzero(engine.parents)
            assert np.all(position[tails] < position[heads])
            continue
        moves = engine.legal_moves()
        frozen = [tuple(m[1:]) for m in moves[rng.random(len(moves)) < 0.2]]
        tabu = tabu_hashes(engine, [engine.hash], frozen)
        cached = engine.best(tabu, 1e-9, 0.0)
        assert cached[:3] == _full_scan(engine, tabu, 0.0)[:3]
        frozen_pairs = {frozenset(p) for p in frozen}
        assert cached[0] < 0 or frozenset(cached[1:3]) not in frozen_pairs
        if not len(moves):
            break
        kind, u, v = (int(x) for x in moves[rng.integers(len(moves))])
        engine.apply(kind, u, v)


def test_a_chain_of_near_ties_across_the_band_falls_back_to_the_full_scan():
    """Changes spaced below the tie tolerance all the way down the band: no gap to cut
    at, so the full scan decides (and the cached scan returns its move)."""
    n = 40
    rng = np.random.default_rng(1)
    engine = _engine(rng, n, nan=False)
    engine.refresh()
    step = 0.9e-9 * 1e3
    engine.local[:, :] = 0.0
    for v in range(n):
        engine.local[v, :] = 1e3 - step * ((v * n + np.arange(n)) % 200)
        engine.local[v, v] = 0.0
    engine._stale()
    assert step * 199 > _sc.BAND_RTOL * 1e3  # the chain is longer than the band
    tabu = np.zeros(0, dtype=np.int64)
    assert engine.best(tabu, 1e-9, 0.0) == _full_scan(engine, tabu, 0.0)


def _moves(monkeypatch, cache, data, options):
    moves = []
    apply = Engine.apply

    def recording(self, kind, u, v):
        moves.append((kind, u, v))
        apply(self, kind, u, v)

    monkeypatch.setattr(Engine, "apply", recording)
    monkeypatch.setattr(Engine, "use_move_cache", cache)
    result = LocalSearch(BDeu(data), show_progress=False, random_state=0, **options).fit()
    monkeypatch.undo()
    return moves, result.score_, sorted(result.causal_graph_.edges())


OPTIONS = [
    {"method": "hill"},
    {"method": "tabu", "tabu_length": 5, "max_non_improving": 8},
    {"method": "hill", "candidates": 2},
    {"method": "hill", "candidates": "auto", "restarts": 2, "perturb": 3},
    {"method": "tabu", "candidates": 3, "candidate_rounds": 3},
    {"method": "hill", "max_parents": 2, "restarts": 2},
]


@pytest.mark.parametrize("seed", range(60))
def test_whole_searches_take_the_same_moves_with_and_without_the_cache(
    seed, monkeypatch, random_data
):
    """Same moves in the same order, same network, same score: hill and tabu, candidates,
    restarts, required and forbidden edges, and tied columns (copies of another)."""
    rng = np.random.default_rng(seed)
    m = int(rng.integers(4, 10))
    data = random_data(int(rng.choice([60, 300])), m, seed=seed, max_arity=3)
    for copy in range(int(rng.integers(0, 3))):  # identical columns: exact ties
        data[f"C{copy}"] = data[f"V{rng.integers(m)}"]
    options = dict(OPTIONS[seed % len(OPTIONS)])
    if seed % 3 == 0:
        options["expert_knowledge"] = {
            "required_edges": [("V0", "V1")],
            "forbidden_edges": [("V2", "V3"), ("V3", "V2")],
        }
    without = _moves(monkeypatch, False, data, options)
    with_cache = _moves(monkeypatch, True, data, options)
    assert with_cache == without
    assert len(without[0]) > 0


def test_the_cache_decides_almost_every_step(network_sample, monkeypatch):
    """On a real search the full scan runs only where the cache cannot decide (here: never
    more than once, the last step of a greedy search with no legal move left at most)."""
    _, data = network_sample("alarm", 1000, seed=0)
    engines = []
    init = Engine.__init__

    def keep(self, *args):
        init(self, *args)
        engines.append(self)

    monkeypatch.setattr(Engine, "__init__", keep)
    result = LocalSearch(BDeu(data), show_progress=False).fit()
    assert result.n_iter_ > 30
    assert engines[0].full_scans <= 1
