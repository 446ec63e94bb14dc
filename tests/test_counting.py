"""Family tables against a dictionary count, on every code path of the kernel."""

import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pgmpy_nml._counting import family_table, sum_nlogn
from pgmpy_nml._counting import tables as _counting
from pgmpy_nml._counting.subsets import RISING_COUNTS, RISING_SLOTS, _reduce, rising_cache
from pgmpy_nml.numerics.gamma import log_rising


def reference_rows(codes, child, parents, r):
    """Sorted rows N_j. of the observed parent configurations, by a Counter."""
    counts = Counter(
        (tuple(codes[list(parents), t]), codes[child, t]) for t in range(codes.shape[1])
    )
    rows = {}
    for (cfg, x), c in counts.items():
        rows.setdefault(cfg, [0] * r)[x] += c
    return sorted(tuple(row) for row in rows.values())


def random_codes(seed, n, arities):
    rng = np.random.default_rng(seed)
    codes = np.vstack([rng.integers(0, a, n) for a in arities]).astype(np.int32)
    # dependence so that some configurations are frequent and others absent
    codes[1] = np.where(rng.random(n) < 0.7, codes[0] % arities[1], codes[1])
    return np.ascontiguousarray(codes), np.asarray(arities, dtype=np.int64)


PATHS = {
    "direct": dict(_MIN_CELLS=1 << 16),
    "lookup": dict(_MIN_CELLS=0, _DIRECT_PER_ROW=0),
    "sort": dict(_MIN_CELLS=0, _DIRECT_PER_ROW=0, _LOOKUP_PER_ROW=0),
}


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("seed", range(4))
def test_family_table_matches_a_dictionary_count(monkeypatch, path, seed):
    for name, value in PATHS[path].items():
        monkeypatch.setattr(_counting, name, value)
    arities = [3, 2, 5, 4, 2]
    codes, ar = random_codes(seed, 300, arities)
    rng = np.random.default_rng(seed)
    for _ in range(10):
        k = rng.integers(0, 5)
        fam = rng.permutation(5)[: k + 1]
        child, parents = int(fam[0]), tuple(int(p) for p in fam[1:])
        table = family_table(codes, ar, child, parents)
        assert table.dtype == np.int64 and table.shape[1] == arities[child]
        assert table.sum() == 300 and np.all(table.sum(axis=1) > 0)
        got = sorted(tuple(row) for row in table.tolist())
        assert got == reference_rows(codes, child, parents, arities[child])
        # the parent order does not matter
        again = family_table(codes, ar, child, parents[::-1])
        assert sorted(map(tuple, again.tolist())) == got


def test_astronomical_numbers_of_configurations_are_exact():
    codes, _ = random_codes(0, 200, [3, 3, 3, 3, 3])
    ar = np.array([2**40] * 4 + [3], dtype=np.int64)  # q = 2**160 parent configurations
    table = family_table(codes, ar, 4, (0, 1, 2, 3))
    assert table.sum() == 200
    assert sorted(map(tuple, table.tolist())) == reference_rows(codes, 4, (0, 1, 2, 3), 3)


def test_sum_nlogn():
    assert sum_nlogn([[0, 1], [2, 4]]) == pytest.approx(2 * np.log(2) + 4 * np.log(4))
    assert sum_nlogn(np.zeros(3)) == 0.0


@given(
    seed=st.integers(0, 2**32 - 1),
    n_values=st.sampled_from([1, 3, RISING_SLOTS + 5]),
    n_masses=st.integers(1, 3),
)
@settings(max_examples=40, deadline=None)
def test_reduce_is_the_same_with_its_rising_cache(seed, n_values, n_masses):
    """The statistics of prior masses, computed through a :func:`rising_cache` kept
    across calls (values of ``a`` that recur, more values than slots, counts beyond
    the cached ones, both ways of summing), equal those computed without one, bit for
    bit, and the sums of ``log_rising`` over the configurations."""
    rng = np.random.default_rng(seed)
    n_rows = RISING_COUNTS + 500
    masses = rng.uniform(0.05, 20.0, n_masses)
    log_qs = np.log(rng.integers(1, 200, n_values).astype(np.float64))
    tables = np.zeros((0, n_rows + 1))
    cache, none = rising_cache(n_rows), rising_cache(0)
    hist = np.zeros(n_rows + 1, dtype=np.int64)
    for _ in range(60):
        n_obs = int(rng.integers(0, 12))
        high = int(rng.choice([30, n_rows]))  # many distinct small counts, or a few large
        counts = rng.integers(1, high + 1, n_obs).astype(np.int64)
        singles = int(rng.integers(0, 3))
        log_q = float(rng.choice(log_qs))
        with_cache = np.full((n_masses, 1), np.nan)
        without = np.full((n_masses, 1), np.nan)
        _reduce(counts, n_obs, singles, tables, masses, log_q, hist, cache, with_cache, 0)
        _reduce(counts, n_obs, singles, tables, masses, log_q, hist, none, without, 0)
        assert np.array_equal(with_cache, without)
        assert not hist.any()
        for i, m in enumerate(masses):
            a = m * math.exp(-log_q)
            terms = [log_rising(a, int(c)) for c in counts] + [log_rising(a, 1)] * singles
            assert with_cache[i, 0] == pytest.approx(math.fsum(terms), rel=1e-12, abs=1e-12)
