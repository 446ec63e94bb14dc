"""The compiled last level of the candidate search (:mod:`pgmpy_nml.search.candidates._final`).

On many random data sets, every kind of score, with and without expert knowledge and
counted data, and each way of counting (bitsets, walks over the rows):

- the candidates equal those of the level-by-level search (which the brute force of
  ``test_pruning_properties.py`` checks), except sets the level-by-level search's
  optimistic screen leaves out as ties, which must be ties;
- every candidate's score equals the score's own ``local_score``.

The popcount, the bitsets and a base's configurations from its prefix's bitsets are
checked against their definitions.
"""

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numba import njit

from pgmpy_nml import FNML, QNML, BDConstant, BDeu
from pgmpy_nml._counted import count_data
from pgmpy_nml.exceptions import SearchMemoryError
from pgmpy_nml.search.candidates import _final, candidate_parent_sets


def _pgmpy(name):
    def make(data):
        from pgmpy.structure_score import BIC, K2
        from pgmpy.structure_score import BDeu as PgmpyBDeu

        kinds = {"pgmpy-bic": BIC, "pgmpy-k2": K2}
        if name == "pgmpy-bdeu":
            return PgmpyBDeu(data, equivalent_sample_size=1.0)
        return kinds[name](data)

    return make


SCORES = {
    "fnml": FNML,
    "qnml": QNML,
    "bdeu-ess0.1": lambda d: BDeu(d, equivalent_sample_size=0.1),
    "bdeu-ess10": lambda d: BDeu(d, equivalent_sample_size=10.0),
    "bd1/2": lambda d: BDConstant(d, alpha=0.5),
    "pgmpy-bic": _pgmpy("pgmpy-bic"),
    "pgmpy-k2": _pgmpy("pgmpy-k2"),
    "pgmpy-bdeu": _pgmpy("pgmpy-bdeu"),
}
OURS = {"fnml", "qnml", "bdeu-ess0.1", "bdeu-ess10", "bd1/2"}


@njit
def _popcounts(words):
    out = np.empty(words.shape[0], dtype=np.int64)
    for i in range(words.shape[0]):
        out[i] = _final._ctpop(words[i])
    return out


def test_popcount_counts_the_set_bits():
    rng = np.random.default_rng(0)
    words = rng.integers(0, 2**63, 1000, dtype=np.int64).view(np.uint64)
    words[:3] = [0, 1, np.uint64(2**64 - 1)]
    expected = [bin(int(w)).count("1") for w in words]
    assert _popcounts(words).tolist() == expected


@pytest.mark.parametrize("n_rows", [1, 63, 64, 65, 300])
def test_bitsets_mark_each_rows_state(n_rows):
    rng = np.random.default_rng(n_rows)
    arities = np.array([2, 3, 5], dtype=np.int64)
    codes = np.stack([rng.integers(0, r, n_rows) for r in arities]).astype(np.int32)
    bits = _final.bitsets(codes, arities)
    assert bits.shape == (3, 5, (n_rows + 63) // 64) and bits.dtype == np.uint64
    for u in range(3):
        for s in range(5):
            rows = [t for t in range(n_rows) if (int(bits[u, s, t // 64]) >> (t % 64)) & 1]
            assert rows == np.flatnonzero(codes[u] == s).tolist()
        # no bit beyond the last row
        assert not any(int(bits[u, s, -1]) >> (n_rows % 64 or 64) for s in range(5))


def _rows_of(words, n_rows):
    return frozenset(t for t in range(n_rows) if (int(words[t // 64]) >> (t % 64)) & 1)


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_rows=st.sampled_from([1, 2, 5, 63, 64, 65, 200]),
    n_first=st.integers(0, 2),
)
def test_a_bases_configurations_by_bitsets_are_those_of_its_rows(seed, n_rows, n_first):
    """``_bits_by`` (a base's configurations from its prefix's bitsets, without the
    rows) against their definition: the distinct (child, parents) values of the rows
    and, for each, its rows and the distinct parents' value it has."""
    rng = np.random.default_rng(seed)
    n_vars = n_first + 2
    arities = rng.integers(1, 5, n_vars).astype(np.int64)
    codes = np.stack([rng.integers(0, r, n_rows) for r in arities]).astype(np.int32)
    child, first, last = 0, np.arange(1, n_first + 1), n_first + 1
    n_ids = max(n_rows, int(arities.max()))
    n_cells = n_ids * int(arities.max()) + 1
    lookup, stamp = np.zeros(n_cells, np.int64), np.full(n_cells, -1, np.int64)
    prefix = (np.zeros(n_rows, np.int64), np.zeros(n_rows, np.int64))
    n_prefix = _final._prefix(child, first, codes, arities, *prefix, lookup, stamp, 0)
    empty = np.zeros((0, (n_rows + 63) // 64), np.uint64)
    sizes = np.zeros(n_ids + 1, np.int64)
    prefix_bits = _final._prefix_bits(
        prefix, n_prefix, (empty, empty, np.zeros(n_ids + 1, np.int64)), sizes
    )
    arity = int(arities[last])
    rows_of = np.zeros((n_prefix[0] * arity, empty.shape[1]), np.uint64)
    joint_size, par_of = np.zeros(n_ids + 1, np.int64), np.zeros(n_ids + 1, np.int64)
    index = np.zeros(n_cells, np.int64)
    bits = _final.bitsets(codes, arities)
    n_joint, n_par = _final._bits_by(
        last, arity, bits, prefix_bits, n_prefix, rows_of, joint_size, par_of, index
    )
    values = [tuple(codes[[child, *first, last], t]) for t in range(n_rows)]
    expected = {v: frozenset(t for t in range(n_rows) if values[t] == v) for v in set(values)}
    assert (n_joint, n_par) == (len(expected), len({v[1:] for v in expected}))
    found = {_rows_of(rows_of[g], n_rows): g for g in range(n_joint)}
    assert set(found) == set(expected.values())
    assert [joint_size[found[rows]] for rows in expected.values()] == [
        len(rows) for rows in expected.values()
    ]
    # two configurations have the same parents' configuration iff the same parents' value
    parents_of = {v: par_of[found[rows]] for v, rows in expected.items()}
    for v in expected:
        for w in expected:
            assert (parents_of[v] == parents_of[w]) == (v[1:] == w[1:])
    assert set(parents_of.values()) == set(range(n_par))


@st.composite
def cases(draw):
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    n_vars = draw(st.integers(3, 7))
    n_rows = draw(st.sampled_from([1, 2, 5, 30, 200, 700]))
    arities = rng.integers(2, draw(st.integers(2, 5)) + 1, n_vars)
    cols = {}
    for i in range(n_vars):
        x = rng.integers(0, arities[i], n_rows)
        if i:  # dependence: a noisy copy of an earlier column, some exact copies
            parent = cols[f"V{int(rng.integers(0, i))}"]
            x = np.where(rng.random(n_rows) < draw(st.sampled_from([0.5, 0.9, 1.0])), parent, x)
            x = x % arities[i]
        cols[f"V{i}"] = x
    data = pd.DataFrame(cols)
    name = draw(st.sampled_from(sorted(SCORES)))
    max_parents = draw(st.integers(1, n_vars - 1))
    knowledge = None
    if draw(st.booleans()):
        pairs = [(f"V{a}", f"V{b}") for a in range(n_vars) for b in range(n_vars) if a != b]
        picked = draw(st.lists(st.sampled_from(pairs), min_size=1, max_size=4, unique=True))
        knowledge = {"forbidden_edges": picked}
    counted = name in OURS and n_rows > 1 and draw(st.booleans())
    bit_cost = draw(st.sampled_from([0.0, 1.0, math.inf]))
    # 0: the data's bitsets are never built, as when they would not fit in memory
    bitsets_share = draw(st.sampled_from([0.0, _final.BITSETS_SHARE]))
    n_jobs = draw(st.sampled_from([1, 2]))
    return data, name, max_parents, knowledge, counted, (bit_cost, bitsets_share), n_jobs


def _candidates(score, max_parents, knowledge, n_jobs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        found, report = candidate_parent_sets(
            score, max_parents=max_parents, expert_knowledge=knowledge, n_jobs=n_jobs
        )
    return found.to_dict(), report


@pytest.mark.long
@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(case=cases())
def test_last_level_keeps_what_the_level_by_level_search_keeps(case):
    data, name, max_parents, knowledge, counted, (bit_cost, bitsets_share), n_jobs = case
    score = SCORES[name](count_data(data) if counted else data)
    calls = []
    run = _final.run
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_final, "run", lambda *a: calls.append(1) or run(*a))
        patch.setattr(_final, "BIT_COST", bit_cost)
        patch.setattr(_final, "BITSETS_SHARE", bitsets_share)
        patch.setattr(_final, "ENABLED", False)
        old, _ = _candidates(score, max_parents, knowledge, n_jobs)
        assert not calls
        patch.setattr(_final, "ENABLED", True)
        new, report = _candidates(score, max_parents, knowledge, n_jobs)
    if not calls:  # the bounds closed every set before the last level
        assert new == old
    assert int(report.n_kept.sum()) == sum(len(sets) for sets in new.values())
    reference = SCORES[name](data)
    for v, sets in new.items():
        assert set(old[v]) <= set(sets)
        for parents, value in sets.items():
            expected = reference.local_score(v, parents)
            assert value == pytest.approx(expected, rel=1e-10, abs=1e-9), (v, parents)
            if parents not in old[v]:  # the screen's ties only
                best = max(reference.local_score(v, q) for q in old[v] if set(q) < set(parents))
                assert value <= best + 1e-9 * (1 + abs(best)), (v, parents, value, best)


@pytest.mark.parametrize("bit_cost", [0.0, 1.0, math.inf])
def test_andes_like_last_level_is_compiled(bit_cost, monkeypatch, random_data):
    """Binary columns, few configurations: the case the bitsets are for, both ways."""
    data = random_data(500, [2] * 8, seed=3)
    monkeypatch.setattr(_final, "BIT_COST", bit_cost)
    calls = []
    run = _final.run
    monkeypatch.setattr(_final, "run", lambda *a: calls.append(1) or run(*a))
    found, report = candidate_parent_sets(FNML(data), max_parents=3, n_jobs=2)
    assert calls and int(report.n_scored.sum()) > 8 * math.comb(7, 3) // 2
    reference = FNML(data)
    for v, sets in found.to_dict().items():
        for parents, value in sets.items():
            assert value == pytest.approx(reference.local_score(v, parents), rel=1e-12)


def test_the_last_level_checks_its_memory(monkeypatch, random_data):
    data = random_data(100, 5, seed=1)
    monkeypatch.setattr(_final, "block_bytes", lambda task, n_sets: 1 << 60)
    with pytest.raises(SearchMemoryError, match="last level"):
        candidate_parent_sets(FNML(data), max_parents=2)


def test_the_last_level_is_compiled_on_many_variables_or_where_memory_requires(
    monkeypatch, random_data
):
    """The rule of ``_final.ready``: below ``MIN_VARIABLES`` variables the last level is
    compiled only when the level-by-level sets would take over half the memory the search
    may use; at ``MIN_VARIABLES`` or more, always. The candidates include the
    level-by-level ones (and may add ties, as the property test above checks)."""
    data = random_data(300, [2, 3, 2, 4, 2, 3, 2], seed=5)
    calls = []
    run = _final.run
    monkeypatch.setattr(_final, "run", lambda *a: calls.append(1) or run(*a))
    monkeypatch.setattr(_final, "MIN_VARIABLES", 8)
    level_by_level, _ = candidate_parent_sets(FNML(data), max_parents=3)
    assert not calls
    monkeypatch.setattr(_final, "MIN_VARIABLES", 7)
    compiled, _ = candidate_parent_sets(FNML(data), max_parents=3)
    assert calls == [1]
    monkeypatch.setattr(_final, "MIN_VARIABLES", 8)
    monkeypatch.setattr(_final, "available_memory", lambda: 1 << 10)
    tight, _ = candidate_parent_sets(FNML(data), max_parents=3)
    assert calls == [1, 1]
    for v, sets in level_by_level.to_dict().items():
        assert set(sets) <= set(compiled.to_dict()[v]) and set(sets) <= set(tight.to_dict()[v])
