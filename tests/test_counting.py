"""Family tables against a dictionary count, on every code path of the kernel."""

from collections import Counter

import numpy as np
import pytest

from pgmpy_nml._counting import family_table, sum_nlogn
from pgmpy_nml._counting import tables as _counting


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
