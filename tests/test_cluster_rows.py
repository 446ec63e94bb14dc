"""The cluster rows' weights (:mod:`pgmpy_nml.search.candidates._cluster_rows`) against
their definition.

Root pricing's bound and branch and price's reduced costs add, to each family, the
multipliers of the (``k``-)cluster rows it is in. The compiled kernel counts them in
tables of subsets (Möbius inversion) or row by row; on random families (up to six preds,
so both the tables and the row-by-row rest of large families are used) and random rows
(``k`` of 1-3, both forms, zero and nonzero multipliers), each method gives what the
definition gives, summed in Python.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pgmpy_nml.search.candidates import _cluster_rows
from pgmpy_nml.search.candidates._cluster_rows import AUTO, ROWS, TABLES


def _random_case(rng):
    """``(start, padded, size, ptr, members, ks, ge, y, n)``: families of each variable
    (random preds of 0-6 others, sometimes thousands per variable) and random rows."""
    n = int(rng.integers(1, 15))
    width = int(rng.integers(1, 7))
    per_variable = rng.integers(1, 3000 if rng.random() < 0.2 else 40, n)
    start = np.concatenate([[0], np.cumsum(per_variable)]).astype(np.int64)
    padded = np.full((start[-1], width), -1, dtype=np.int64)
    size = np.zeros(start[-1], dtype=np.int64)
    for v in range(n):
        others = np.array([u for u in range(n) if u != v], dtype=np.int64)
        for f in range(start[v], start[v + 1]):
            s = int(rng.integers(0, min(width, n - 1) + 1))
            padded[f, :s] = rng.choice(others, s, replace=False)
            size[f] = s
    n_rows = int(rng.integers(0, 30))
    largest = int(rng.integers(1, n + 1))
    clusters = [
        rng.choice(n, int(rng.integers(1, largest + 1)), replace=False) for _ in range(n_rows)
    ]
    ptr = np.concatenate([[0], np.cumsum([len(c) for c in clusters])]).astype(np.int64)
    members = np.concatenate(clusters).astype(np.int64) if clusters else np.zeros(0, np.int64)
    ks = rng.integers(1, 4, n_rows).astype(np.int64)
    ge = rng.random(n_rows) < 0.5
    y = rng.normal(size=n_rows) * (rng.random(n_rows) < 0.7)
    return start, padded, size, ptr, members, ks, ge, y, n


def _by_definition(start, padded, size, ptr, members, ks, ge, y, n):
    """Each family's weight, row by row and family by family, in Python."""
    out = np.zeros(start[-1])
    for c in range(y.size):
        cluster = set(members[ptr[c] : ptr[c + 1]].tolist())
        for v in cluster:
            for f in range(start[v], start[v + 1]):
                hits = len(cluster & set(padded[f, : size[f]].tolist()))
                if (hits < ks[c]) == ge[c]:
                    out[f] += y[c]
    return out


def _check(seed):
    case = _random_case(np.random.default_rng(seed))
    want = _by_definition(*case)
    for method in (AUTO, TABLES, ROWS):
        got = _cluster_rows._row_weights(*case, np.zeros(want.size), method)
        np.testing.assert_allclose(got, want, atol=1e-9, err_msg=f"method {method}")


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_each_method_gives_the_weights_of_the_definition(seed):
    _check(seed)


@pytest.mark.slow
def test_each_method_gives_the_weights_of_the_definition_on_thousands_of_cases():
    for seed in range(3000):
        _check(seed)
