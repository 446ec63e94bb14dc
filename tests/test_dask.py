"""Dask DataFrames: counted where they live, merged on the driver, one driver searches.

The result must be the in-memory one on the same data: the same network and the same
score. Checked on a real ``dask.distributed.LocalCluster`` (threads, two workers) with
four to seven partitions.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("dask.distributed")

from pgmpy_nml import BDeu, ExactSearch, FSNMLEstimator, LocalSearch  # noqa: E402
from pgmpy_nml._counted import count_data  # noqa: E402
from pgmpy_nml._dask import count_dask  # noqa: E402
from pgmpy_nml.exceptions import InputError  # noqa: E402
from pgmpy_nml.scores import make_score  # noqa: E402
from pgmpy_nml.search.candidates import candidate_parent_sets  # noqa: E402
from pgmpy_nml.study import bootstrap_strength  # noqa: E402
from pgmpy_nml.study._counted_resample import counted_resample  # noqa: E402


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    )
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


def _frame(seed, random_data, n=3000):
    """Repeated rows, a categorical with an unused category and a text column."""
    data = random_data(n, 6, seed, max_arity=3)
    data["V1"] = pd.Categorical(data["V1"], categories=[2, 1, 0, 7])
    data["V2"] = data["V2"].map({0: "lo", 1: "mid", 2: "hi"})
    return data


def _edges(search):
    return sorted(search.causal_graph_.edges())


@pytest.mark.parametrize("seed", range(3))
def test_local_search_on_dask_is_the_in_memory_search(client, seed, random_data):
    data = _frame(seed, random_data)
    ddf = dd.from_pandas(data, npartitions=4 + seed)
    assert ddf.npartitions >= 4
    for name in ("bdeu", "fnml", "qnml"):
        ours = LocalSearch(name, show_progress=False).fit(ddf)
        rows = LocalSearch(name, show_progress=False).fit(data)
        counted = LocalSearch(make_score(name, count_data(data)), show_progress=False).fit()
        assert _edges(ours) == _edges(rows) == _edges(counted)
        assert ours.score_ == counted.score_  # the same distinct rows in the same order
        assert ours.score_ == pytest.approx(rows.score_, rel=1e-12)
    tabu = dict(method="tabu", restarts=2, candidates=3, show_progress=False)
    assert _edges(LocalSearch("bdeu", **tabu).fit(ddf)) == _edges(
        LocalSearch("bdeu", **tabu).fit(data)
    )


def test_counting_partitions_equals_counting_the_frame(client, random_data):
    data = _frame(5, random_data)
    declared = {"V0": [0, 1, 2, 3], "V1": [7, 2, 1, 0]}
    # unknown categories (each partition has its own): their union, as Dask's as_known
    unknown = dd.from_pandas(data, npartitions=5)
    unknown["V1"] = unknown["V1"].cat.as_unknown()
    for names in (None, declared):
        for ddf in (dd.from_pandas(data, npartitions=7), unknown):
            timings: dict = {}
            ours = count_dask(ddf, names, timings=timings)
            whole = count_data(data, names)
            if names is None and ddf is unknown:
                assert set(ours.state_names["V1"]) == {2, 1, 0, 7}
                continue
            assert ours.state_names == whole.state_names
            np.testing.assert_array_equal(ours.codes, whole.codes)
            np.testing.assert_array_equal(ours.weights, whole.weights)
            assert timings["rows"] == len(data) and timings["distinct"] == whole.n_rows
    bad = data.astype({"V3": float})
    bad.loc[3, "V3"] = np.nan
    with pytest.raises(InputError, match="missing values"):
        count_dask(dd.from_pandas(bad, npartitions=4))


def test_candidate_sets_and_exact_search_on_dask(client, random_data):
    data = _frame(7, random_data)
    ddf = dd.from_pandas(data, npartitions=4)
    ours, _ = candidate_parent_sets(BDeu(ddf), max_parents=2)
    rows, _ = candidate_parent_sets(BDeu(data), max_parents=2)
    assert ours.to_dict().keys() == rows.to_dict().keys()
    for v, sets in rows.to_dict().items():
        assert ours.to_dict()[v].keys() == sets.keys()
        for parents, value in sets.items():
            assert ours.to_dict()[v][parents] == pytest.approx(value, rel=1e-12)
    a = ExactSearch("fnml", show_progress=False).fit(ddf)
    b = ExactSearch("fnml", show_progress=False).fit(data)
    assert _edges(a) == _edges(b) and a.score_ == pytest.approx(b.score_, rel=1e-12)


def test_dask_refusals(client, random_data):
    ddf = dd.from_pandas(_frame(1, random_data, n=200), npartitions=4)
    with pytest.raises(ValueError, match="pgmpy's"):
        LocalSearch("bic", show_progress=False).fit(ddf)
    with pytest.raises(InputError, match="parameter_estimator"):
        LocalSearch("fnml", parameter_estimator=FSNMLEstimator(), show_progress=False).fit(ddf)
    with pytest.raises(InputError, match="complete rows"):
        make_score("pnal", ddf)


def test_counted_resamples_have_the_row_bootstrap_distribution(random_data):
    """Multinomial (hypergeometric) counts of the distinct rows: the expected counts of
    resampling rows, and the same spread, within a few standard errors."""
    data = random_data(60, 2, 0, max_arity=2)
    counted = count_data(data)
    weights, n = counted.weights, counted.n_samples
    rng = np.random.default_rng(0)
    draws = 3000
    for replace, m in ((True, n), (True, 25), (False, 30)):
        ours = np.zeros((draws, counted.n_rows))
        rows = np.zeros((draws, counted.n_rows))
        # the distinct row of each data row
        lookup = {tuple(c): i for i, c in enumerate(counted.codes.T.tolist())}
        of_row = np.array([lookup[tuple(r)] for r in data.to_numpy().tolist()])
        for b in range(draws):
            sample = counted_resample(counted, m, replace, rng)
            position = [lookup[tuple(c)] for c in sample.codes.T.tolist()]
            ours[b, position] = sample.weights
            picked = rng.integers(0, n, m) if replace else rng.permutation(n)[:m]
            rows[b] = np.bincount(of_row[picked], minlength=counted.n_rows)
        expected = m * weights / n
        se = rows.std(axis=0) / np.sqrt(draws) + 1e-12
        assert np.all(np.abs(ours.mean(axis=0) - expected) < 5 * se + 1e-9)
        assert np.all(np.abs(rows.mean(axis=0) - expected) < 5 * se + 1e-9)
        np.testing.assert_allclose(ours.std(axis=0), rows.std(axis=0), rtol=0.1, atol=0.02)
        assert (ours.sum(axis=1) == m).all()


def test_bootstrap_on_dask(client, random_data):
    data = _frame(3, random_data, n=1500)
    ddf = dd.from_pandas(data, npartitions=4)
    options = dict(n_bootstrap=6, random_state=2, return_networks=True)
    ours, networks = bootstrap_strength(ddf, method="hill", scoring_method="bdeu", **options)
    assert list(ours.columns) == ["from", "to", "strength", "direction"]
    assert len(networks) == 6 and all(set(g.nodes()) == set(data.columns) for g in networks)
    # resample b of the counted draw, learned from its rows as a pandas DataFrame: the same
    rng = np.random.default_rng(2)
    counted = count_data(data)
    sample = counted_resample(counted, counted.n_samples, True, rng)
    rows = np.repeat(sample.codes, sample.weights, axis=1)
    states = [np.asarray(counted.state_names[v], dtype=object) for v in counted.variables]
    frame = pd.DataFrame({v: states[i][rows[i]] for i, v in enumerate(counted.variables)})
    learned = LocalSearch(
        make_score("bdeu", frame, state_names=counted.state_names), show_progress=False
    ).fit()
    assert sorted(learned.causal_graph_.edges()) == sorted(networks[0].edges())
    plain, _ = bootstrap_strength(data, method="hill", scoring_method="bdeu", **options)
    assert plain.shape == ours.shape  # the same pairs; another random stream
    with pytest.raises(InputError, match="bootstrapped as counted data"):
        bootstrap_strength(ddf, method="hill", scoring_method=BDeu(data), n_bootstrap=2)


@pytest.mark.long
def test_import_does_not_import_dask():
    code = (
        "import sys, pgmpy_nml\n"
        "from pgmpy_nml import LocalSearch, bootstrap_strength, BDeu\n"
        "import pgmpy_nml._counted, pgmpy_nml.search.local, pgmpy_nml.study.bootstrap\n"
        "assert not any(m == 'dask' or m.startswith('dask.') for m in sys.modules)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
