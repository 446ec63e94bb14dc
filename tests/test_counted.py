"""Counted data (distinct rows with counts): every counting path gives what the rows give.

The promise: a data set held as its distinct rows plus a count per row yields the same
counts, statistics, local scores, networks and scores as the rows themselves
(:mod:`pgmpy_nml._counted`). Checked here on random data with random repetition
counts (zero repeats included), declared states that never occur, single rows, and
families that take every kernel path (bitsets off, histograms, refined configurations,
lookup and sort-based family tables).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

import pgmpy_nml._counted as counted_module
from pgmpy_nml import BDeu, ExactSearch, LocalSearch
from pgmpy_nml._counted import (
    code_dtype,
    count_data,
    count_encoded,
    expand,
    worth_counting,
)
from pgmpy_nml._counting import family_table, full_family_table
from pgmpy_nml._counting.subsets import listed_subset_statistics, subset_statistics
from pgmpy_nml._data import EncodedData, encode_data
from pgmpy_nml._frames import encode_frame
from pgmpy_nml.exceptions import InputError, UnknownStateError
from pgmpy_nml.scores import make_score
from pgmpy_nml.search._local.screen import mutual_information
from pgmpy_nml.search.candidates import candidate_parent_sets

OURS = ["fnml", "qnml", "bdeu", "bd1/2", "min-bdeu", "max-bdeu"]
PGMPY = ["pgmpy-bdeu", "legacy-bdeu", "pgmpy-k2", "pgmpy-bic", "pgmpy-aic", "pgmpy-ll"]


def _weighted(seed, n_vars=None, max_arity=4):
    """``(codes, arities, weights)``: a few rows (repeats among them too), weights >= 1,
    arities with declared states that never occur."""
    rng = np.random.default_rng(seed)
    n_vars = n_vars or int(rng.integers(1, 6))
    n_rows = int(rng.choice([1, 2, 5, 30, 80]))
    observed = rng.integers(1, max_arity + 1, n_vars)
    arities = (observed + rng.integers(0, 2, n_vars)).astype(np.int64)
    codes = np.stack([rng.integers(0, r, n_rows) for r in observed]).astype(np.int32)
    weights = rng.integers(1, 6, n_rows).astype(np.int64)
    if rng.random() < 0.3:
        weights[rng.integers(0, n_rows)] = int(rng.integers(50, 300))
    return np.ascontiguousarray(codes), arities, weights


def _tables(n):
    counts = np.arange(n + 1, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        nlogn = np.where(counts > 0, counts * np.log(np.maximum(counts, 1)), 0.0)
    return np.array([nlogn, np.sqrt(counts)])


@pytest.mark.parametrize("seed", range(40))
def test_subset_statistics_weighted_equal_expanded(seed):
    codes, arities, weights = _weighted(seed)
    expanded = np.ascontiguousarray(np.repeat(codes, weights, axis=1))
    n = int(weights.sum())
    tables, masses = _tables(n), np.array([1.0, 3.5])
    max_size = codes.shape[0]
    ours = subset_statistics(codes, arities, tables, masses, max_size, 1, weights=weights)
    rows = subset_statistics(expanded, arities, tables, masses, max_size, 1)
    np.testing.assert_allclose(ours, rows, rtol=1e-12, atol=1e-9)
    rng = np.random.default_rng(seed)
    subsets = sorted(
        tuple(sorted(rng.choice(codes.shape[0], size=rng.integers(0, max_size + 1), replace=False)))
        for _ in range(12)
    )
    width = max(1, max(len(s) for s in subsets))
    listed = np.full((len(subsets), width), -1, dtype=np.int64)
    for i, s in enumerate(subsets):
        listed[i, : len(s)] = s
    sizes = np.array([len(s) for s in subsets], dtype=np.int64)
    ours = listed_subset_statistics(listed, sizes, codes, arities, tables, masses, weights=weights)
    rows = listed_subset_statistics(listed, sizes, expanded, arities, tables, masses)
    np.testing.assert_allclose(ours, rows, rtol=1e-12, atol=1e-9)


def _sorted_rows(table):
    return sorted(map(tuple, np.asarray(table).tolist()))


@pytest.mark.parametrize("seed", range(30))
def test_family_tables_and_information_weighted_equal_expanded(seed):
    codes, arities, weights = _weighted(seed, n_vars=4, max_arity=3 if seed % 3 else 60)
    expanded = np.ascontiguousarray(np.repeat(codes, weights, axis=1))
    rng = np.random.default_rng(seed)
    for _ in range(5):
        child = int(rng.integers(0, 4))
        parents = tuple(int(p) for p in rng.permutation([p for p in range(4) if p != child])[:3])
        parents = parents[: int(rng.integers(0, 4))]
        ours = family_table(codes, arities, child, parents, weights)
        rows = family_table(expanded, arities, child, parents)
        assert _sorted_rows(ours) == _sorted_rows(rows)
        if math.prod(int(arities[p]) for p in parents) <= 10**5:
            np.testing.assert_array_equal(
                full_family_table(codes, arities, child, parents, weights),
                full_family_table(expanded, arities, child, parents),
            )
    np.testing.assert_allclose(
        mutual_information(codes, arities, weights=weights),
        mutual_information(expanded, arities),
        rtol=1e-10,
        atol=1e-12,
    )


def _repeated_frame(seed, random_data):
    """A data frame with repeated rows: random base rows, each 0-4 times (one at least)."""
    rng = np.random.default_rng(seed)
    base = random_data(int(rng.integers(5, 60)), int(rng.integers(2, 7)), seed, max_arity=4)
    reps = rng.integers(0, 5, len(base))
    reps[rng.integers(0, len(base))] += 1
    return base.loc[np.repeat(np.arange(len(base)), reps)].reset_index(drop=True)


def _edges(search):
    return sorted(search.causal_graph_.edges())


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("name", OURS)
def test_local_search_counted_equals_rows(seed, name, random_data, make_test_score):
    data = _repeated_frame(seed, random_data)
    rows = encode_data(data)
    counted = count_data(data)
    assert counted.n_samples == len(data) and counted.n_rows <= len(data)
    for method in ("hill", "tabu"):
        a = LocalSearch(make_test_score(name, rows), method=method, show_progress=False).fit()
        b = LocalSearch(make_test_score(name, counted), method=method, show_progress=False)
        b.fit()
        assert _edges(a) == _edges(b)
        assert b.score_ == pytest.approx(a.score_, rel=1e-12, abs=1e-9)
        np.testing.assert_allclose(b.history_, a.history_, rtol=1e-12, atol=1e-9)
    # the candidate screen (mutual information of weighted rows) and its re-selection
    a = LocalSearch(make_test_score(name, rows), candidates=2, show_progress=False).fit()
    b = LocalSearch(make_test_score(name, counted), candidates=2, show_progress=False).fit()
    assert a.candidates_ == b.candidates_ and _edges(a) == _edges(b)
    for v in rows.variables:
        others = [u for u in rows.variables if u != v][:2]
        assert make_test_score(name, counted).local_score(v, others) == pytest.approx(
            make_test_score(name, rows).local_score(v, others), rel=1e-12, abs=1e-9
        )


@pytest.fixture
def count_always(monkeypatch):
    """Counting switched on for any data with a repeated row (the local search's rows)."""
    monkeypatch.setattr(counted_module, "COUNT_MIN_ROWS", 0)
    monkeypatch.setattr(counted_module, "worth_counting", lambda n, d: d < n)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("name", PGMPY)
def test_local_search_counts_pgmpy_scores_rows(seed, name, random_data, make_test_score, request):
    data = _repeated_frame(seed, random_data)
    a = LocalSearch(make_test_score(name, data), show_progress=False).fit()
    request.getfixturevalue("count_always")
    b = LocalSearch(make_test_score(name, data), candidates=2, show_progress=False).fit()
    c = LocalSearch(make_test_score(name, data), show_progress=False).fit()
    assert b.plan_ == c.plan_ == "statistics"
    assert _edges(a) == _edges(c)
    assert c.score_ == pytest.approx(a.score_, rel=1e-12, abs=1e-9)
    del b  # the screen of candidates ran on counted rows (mutual information weighted)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("name", ["fnml", "qnml", "bdeu", "bd1/2"])
def test_candidate_sets_and_exact_search_counted_equal_rows(
    seed, name, random_data, make_test_score
):
    data = _repeated_frame(seed, random_data)
    rows, counted = encode_data(data), count_data(data)
    cands_rows, _ = candidate_parent_sets(make_test_score(name, rows), max_parents=2)
    cands_counted, _ = candidate_parent_sets(make_test_score(name, counted), max_parents=2)
    assert cands_rows.to_dict().keys() == cands_counted.to_dict().keys()
    for v, sets in cands_rows.to_dict().items():
        other = cands_counted.to_dict()[v]
        assert sets.keys() == other.keys()
        for parents, value in sets.items():
            assert other[parents] == pytest.approx(value, rel=1e-12, abs=1e-9)
    a = ExactSearch(make_test_score(name, rows), show_progress=False).fit()
    b = ExactSearch(make_test_score(name, counted), show_progress=False).fit()
    assert _edges(a) == _edges(b)
    assert b.score_ == pytest.approx(a.score_, rel=1e-12, abs=1e-9)


def _mixed_frame(seed, n):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 3, n)
    return pd.DataFrame(
        {
            "int": a,
            "text": np.where(rng.random(n) < 0.7, a, rng.integers(0, 3, n)).astype(str),
            "cat": pd.Categorical(rng.choice(["x", "y"], n), categories=["y", "x", "unused"]),
            "flag": rng.random(n) < 0.3,
            "num": (rng.integers(0, 2, n) * 10).astype(float),
        }
    )


@pytest.mark.long
@pytest.mark.parametrize("seed", range(5))
def test_chunked_counting_equals_whole_encoding(seed):
    data = _mixed_frame(seed, 500)
    declared = {"int": [0, 1, 2, 3], "cat": ["unused", "x", "y", "z"]}
    for names in (None, declared):
        whole = count_encoded(encode_data(data, names))
        for chunk in (1, 7, 64, 499, 500, 10**6):
            ours = count_data(data, names, chunk_rows=chunk)
            assert ours.state_names == whole.state_names
            assert ours.variables == whole.variables
            np.testing.assert_array_equal(ours.arities, whole.arities)
            np.testing.assert_array_equal(ours.codes, whole.codes)
            np.testing.assert_array_equal(ours.weights, whole.weights)
            assert ours.codes.dtype == np.int32 and ours.weights.dtype == np.int64
        rows = encode_data(data, names).codes
        back = expand(ours).codes
        assert sorted(map(tuple, rows.T.tolist())) == sorted(map(tuple, back.T.tolist()))


def test_code_dtype_and_packing_beyond_64_bits():
    assert [code_dtype(r) for r in (1, 256, 257, 65536, 65537)] == [
        np.uint8,
        np.uint8,
        np.uint16,
        np.uint16,
        np.uint32,
    ]
    rng = np.random.default_rng(0)
    # 30 columns of 300 states: 247 bits, four 64-bit keys per row
    data = pd.DataFrame(rng.integers(0, 300, (400, 30)) // 7 * 7)
    data = pd.concat([data, data.iloc[:50]], ignore_index=True)
    ours = count_data(data, chunk_rows=33)
    assert ours.n_rows == len(data.drop_duplicates()) and ours.n_samples == len(data)
    np.testing.assert_array_equal(ours.codes, count_encoded(encode_data(data)).codes)


def test_counting_checks_as_the_boundary():
    data = pd.DataFrame({"A": [0, 1, None], "B": ["x", "y", "x"]})
    with pytest.raises(InputError, match="missing values in column"):
        count_data(data)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert count_data(data, missing="drop").n_dropped == 1
    with pytest.raises(InputError, match="complete rows"):
        count_data(data, missing="available")
    with pytest.raises(UnknownStateError):
        count_data(data.dropna(), {"B": ["x"]})
    cat = pd.DataFrame({"B": pd.Categorical(["x", "y"])})
    with pytest.raises(UnknownStateError):
        count_data(cat, {"B": ["x"]})
    assert count_data(cat, {"B": ["y", "x", "w"]}).codes.tolist() == [[0, 1]]


def test_scores_that_need_rows_refuse_counted_data():
    data = pd.DataFrame({"A": [0, 1, 1, 1], "B": [1, 1, 0, 0]})
    counted = count_data(data)
    with pytest.raises(ValueError, match="pgmpy's"):
        make_score("bic", counted)
    with pytest.raises(InputError, match="counted data"):
        make_score("pnal", counted)
    with pytest.raises(ValueError, match="encoded data carry their own states"):
        BDeu(counted, state_names={"A": [0, 1]})


def test_large_frames_are_counted_when_it_pays(random_data, monkeypatch):
    n = counted_module.COUNT_MIN_ROWS
    data = random_data(n, 6, 1)
    assert worth_counting(n, 100) and not worth_counting(n, n // 2 + 1)
    assert not worth_counting(n - 1, 1)
    encoded = encode_frame(data)
    assert encoded.counted and encoded.n_samples == n
    unique = pd.DataFrame(np.arange(n) % 1000 + np.arange(n) // 1000 * 1000, columns=["id"])
    assert not encode_frame(unique).counted  # every row distinct: rows it is
    search = LocalSearch("bdeu", show_progress=False).fit(data)
    monkeypatch.setattr(counted_module, "COUNT_MIN_ROWS", 1 << 62)
    assert not encode_frame(data).counted
    rows = LocalSearch("bdeu", show_progress=False).fit(data)
    assert _edges(search) == _edges(rows)
    assert search.score_ == pytest.approx(rows.score_, rel=1e-12)


def test_encoded_data_counts():
    enc = count_data(pd.DataFrame({"A": [1, 1, 1, 0]}))
    assert isinstance(enc, EncodedData) and enc.counted
    assert (enc.n_rows, enc.n_samples) == (2, 4)
    assert not expand(enc).counted and expand(enc).n_samples == 4
    with pytest.raises(InputError, match="distinct rows standing for 4 samples"):
        enc.require_rows("this tool")
