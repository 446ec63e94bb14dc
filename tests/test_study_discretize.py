"""Discretization: equal-frequency, equal-width and Hartemink's method.

References: numpy's quantiles and linspace for the first two; for Hartemink's
method, a brute-force replay of the merges (every adjacent pair of every column
tried in turn at every level, the total mutual information recomputed from scratch
with scikit-learn's ``mutual_info_score``), independent of the package's
row-term shortcut.
"""

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import mutual_info_score

from pgmpy_nml.study import Discretizer, discretize
from pgmpy_nml.study.discretize import hartemink_merges, mutual_information


def test_mutual_information_against_scikit_learn():
    rng = np.random.default_rng(0)
    x, y = rng.integers(0, 4, 300), rng.integers(0, 3, 300)
    y = np.where(rng.random(300) < 0.5, x % 3, y)
    assert mutual_information(x, y) == pytest.approx(mutual_info_score(x, y), rel=1e-12)


def test_equal_frequency_and_equal_width_cut_points():
    rng = np.random.default_rng(1)
    data = pd.DataFrame({"x": rng.gamma(2.0, size=1000), "k": rng.integers(0, 3, 1000)})
    quantile = Discretizer("quantile", n_bins=4).fit(data)
    expected = np.quantile(data["x"], [0.25, 0.5, 0.75], method="averaged_inverted_cdf")
    assert quantile.cut_points_["x"] == pytest.approx(expected, rel=1e-12)
    assert quantile.columns_ == ["x"]  # the integer column is left alone
    counts = quantile.transform(data)["x"].value_counts()
    assert counts.min() >= 249 and counts.max() <= 251
    width = Discretizer("interval", n_bins=4).fit(data)
    lo, hi = data["x"].min(), data["x"].max()
    assert width.cut_points_["x"] == pytest.approx(np.linspace(lo, hi, 5)[1:-1], rel=1e-12)


def test_test_data_are_cut_at_the_training_points():
    train = pd.DataFrame({"x": np.linspace(0, 1, 101), "y": np.arange(101) % 2})
    disc = Discretizer("quantile", n_bins=3).fit(train)
    cuts = disc.cut_points_["x"]
    test = pd.DataFrame({"x": [-5.0, cuts[0], cuts[1] - 1e-9, np.nan, 7.5], "y": [0, 1, 0, 1, 0]})
    out = disc.transform(test)
    states = disc.states_["x"]
    assert list(out["x"].cat.categories) == states and out["x"].cat.ordered
    assert out["x"].tolist()[:3] == [states[0], states[1], states[1]]
    assert pd.isna(out["x"].iloc[3]) and out["x"].iloc[4] == states[2]
    assert out["y"].equals(test["y"])
    codes = Discretizer("quantile", n_bins=3, labels="integer").fit(train).transform(test)
    assert codes["x"].tolist()[:3] == [0, 1, 1] and codes["x"].iloc[4] == 2


def brute_force_hartemink(initial, others, n_bins):
    """Replay the merges with mutual information recomputed from scratch each time."""
    current = [c.copy() for c in initial]
    kept = [list(range(int(c.max()))) for c in initial]
    bins = [int(c.max()) + 1 for c in initial]
    for level in range(max(bins), n_bins, -1):
        for i in range(len(current)):
            if bins[i] != level:
                continue
            context = [current[j] for j in range(len(current)) if j != i] + others
            totals = []
            for j in range(bins[i] - 1):
                merged = np.where(current[i] > j, current[i] - 1, current[i])
                totals.append(sum(mutual_info_score(merged, y) for y in context))
            best = int(np.argmax(totals))
            current[i] = np.where(current[i] > best, current[i] - 1, current[i])
            del kept[i][best]
            bins[i] -= 1
    return kept


@pytest.mark.parametrize("seed", range(4))
def test_hartemink_against_brute_force_merges(seed):
    rng = np.random.default_rng(seed)
    n = 400
    z = rng.integers(0, 3, n)
    x1 = z + rng.normal(scale=0.6, size=n)
    x2 = np.where(rng.random(n) < 0.5, x1, rng.normal(size=n)) + 0.3 * rng.normal(size=n)
    data = pd.DataFrame({"x1": x1, "x2": x2, "z": z})
    disc = Discretizer("hartemink", n_bins=3, initial_bins=9).fit(data)
    initial = []
    for c in ["x1", "x2"]:
        cuts = np.quantile(data[c], np.arange(1, 9) / 9, method="averaged_inverted_cdf")
        initial.append((cuts, np.searchsorted(cuts, data[c], side="right")))
    kept = brute_force_hartemink([codes for _, codes in initial], [z], 3)
    for (cuts, _), keep, c in zip(initial, kept, ["x1", "x2"], strict=True):
        assert disc.cut_points_[c] == pytest.approx(cuts[keep], rel=1e-12)
    out = disc.transform(data)
    assert out["x1"].nunique() == 3 and out["x2"].nunique() == 3


def test_hartemink_keeps_the_informative_boundaries():
    # x is a noisy copy of a three-state z: merging must keep cuts near 0.5 and 1.5
    rng = np.random.default_rng(3)
    z = rng.integers(0, 3, 3000)
    data = pd.DataFrame({"x": z + rng.uniform(-0.45, 0.45, 3000), "z": z})
    out = discretize(data, method="hartemink", n_bins=3, initial_bins=30)
    table = pd.crosstab(out["x"], out["z"]).to_numpy()
    assert np.trace(table) > 0.98 * len(z)  # the intervals recover z up to the initial cuts
    got = Discretizer("hartemink", n_bins=3, initial_bins=30).fit(data).cut_points_["x"]
    assert got == pytest.approx([0.5, 1.5], abs=0.1)
    codes = hartemink_merges([np.array([0, 1, 2, 3])], [4], [(np.array([0, 0, 1, 1]), 2)], 2)
    assert codes[0].tolist() == [1]  # keeps the cut between the two halves


def test_discretizer_input_checks():
    data = pd.DataFrame({"x": [0.5, 1.5, 2.5, np.nan], "s": ["a", "b", "a", "b"]})
    with pytest.raises(ValueError, match="method must be"):
        Discretizer("kmeans").fit(data)
    with pytest.raises(ValueError, match="not numeric"):
        Discretizer("quantile", columns=["s"]).fit(data)
    with pytest.raises(ValueError, match="missing values"):
        Discretizer("hartemink").fit(data)
    with pytest.raises(AttributeError, match="call fit"):
        Discretizer().transform(data)
    with pytest.warns(UserWarning, match="2 intervals instead of 3"):
        Discretizer("quantile", n_bins=3).fit(pd.DataFrame({"x": [0.5] * 5 + [1.5] * 5}))
    out = Discretizer("quantile", n_bins=2).fit_transform(data)
    assert pd.isna(out["x"].iloc[3])  # missing stays missing


@pytest.mark.parametrize(
    "holes, named",
    [
        ({"s": [2]}, "'s' (1 row)"),  # only a discrete column the method conditions on
        ({"x": [0, 4]}, "'x' (2 rows)"),  # only the column to cut
        ({"x": [1], "s": [3, 5]}, "'x' (1 row), 's' (2 rows)"),
    ],
)
def test_hartemink_refuses_missing_values_naming_each_column(holes, named):
    """Hartemink's method conditions on every other column, so any missing cell stops it;
    the message names each incomplete column with its count and what does work: dropping
    the rows, or the methods that cut on the observed values (which then fit)."""
    data = pd.DataFrame({"x": np.linspace(0.0, 1.0, 8), "s": ["a", "b"] * 4})
    for column, rows in holes.items():
        data.loc[rows, column] = np.nan
    with pytest.raises(ValueError) as caught:
        Discretizer("hartemink", n_bins=2, columns=["x"]).fit(data)
    message = str(caught.value)
    assert "needs complete rows" in message and f"missing values in {named} out of 8" in message
    assert "data.dropna()" in message and "method='quantile'" in message
    assert "StructuralEM" not in message  # not the advice for a search's data
    for method in ("quantile", "quantile-ties", "interval"):
        assert len(Discretizer(method, n_bins=2, columns=["x"]).fit(data).cut_points_["x"]) == 1
    complete = Discretizer("hartemink", n_bins=2, columns=["x"]).fit(data.dropna())
    assert set(complete.cut_points_) == {"x"}


# -- no empty interval, honest warnings, the tie-aware method ---------------------------
import itertools  # noqa: E402
import warnings  # noqa: E402

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from pgmpy_nml.study.discretize import tied_quantile_cuts  # noqa: E402


def brute_force_balanced(counts, k):
    """Smallest sum of squared group totals over every split into k contiguous groups."""
    m = len(counts)
    best = None
    for starts in itertools.combinations(range(1, m), k - 1):
        edges = [0, *starts, m]
        total = sum(sum(counts[a:b]) ** 2 for a, b in itertools.pairwise(edges))
        best = total if best is None else min(best, total)
    return best


tied_columns = st.lists(st.integers(-3, 12), min_size=1, max_size=60).map(
    lambda xs: np.array(xs, dtype=float) / 2
)


@pytest.mark.long
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tied_columns, st.integers(2, 9))
def test_tied_quantile_cuts_never_split_a_tie_and_are_most_balanced(values, k):
    cuts = tied_quantile_cuts(values, k)
    distinct, counts = np.unique(values, return_counts=True)
    want = min(k, len(distinct))
    assert len(cuts) == max(want - 1, 0)
    assert np.all(np.diff(cuts) > 0)
    # no cut on a value: a tied value is never split, and every interval holds a value
    assert not np.isin(cuts, distinct).any()
    codes = np.searchsorted(cuts, values, side="right")
    assert len(np.unique(codes)) == want
    for v in distinct:
        assert len(np.unique(codes[values == v])) == 1
    if want >= 2:
        sizes = np.bincount(codes, minlength=want)
        assert int((sizes.astype(np.int64) ** 2).sum()) == brute_force_balanced(
            counts.tolist(), want
        )


def test_tied_quantile_cuts_are_the_quantiles_without_ties():
    rng = np.random.default_rng(7)
    x = rng.normal(size=600)
    cuts = tied_quantile_cuts(x, 4)
    sizes = np.bincount(np.searchsorted(cuts, x, side="right"))
    assert sizes.tolist() == [150, 150, 150, 150]
    ordered = np.sort(x)
    assert cuts == pytest.approx((ordered[[149, 299, 449]] + ordered[[150, 300, 450]]) / 2)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tied_columns,
    st.sampled_from(["quantile", "interval", "hartemink", "quantile-ties"]),
    st.integers(2, 10),
)
def test_no_method_leaves_an_interval_empty(values, method, k):
    data = pd.DataFrame({"x": values, "z": np.arange(len(values)) % 2})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        disc = Discretizer(method, n_bins=k, initial_bins=max(k, 12), columns=["x"]).fit(data)
    codes = np.searchsorted(disc.cut_points_["x"], values, side="right")
    n_intervals = len(disc.states_["x"])
    assert np.bincount(codes, minlength=n_intervals).min() >= 1
    if n_intervals < k:  # fewer intervals than asked for is always said
        assert any(
            "instead of" in str(w.message) or "single value" in str(w.message) for w in caught
        )
    if method == "quantile-ties":
        assert n_intervals == min(k, len(np.unique(values)))


def test_two_values_and_ten_bins_give_two_states_with_the_reason():
    data = pd.DataFrame({"x": [0.5] * 50 + [1.5] * 50, "z": [0, 1] * 50})
    for method in ("quantile", "hartemink", "interval", "quantile-ties"):
        with pytest.warns(UserWarning, match="2 intervals instead of 10: it has only 2 distinct"):
            out = Discretizer(method, n_bins=10, columns=["x"]).fit_transform(data)
        assert out["x"].value_counts().to_dict() == {"(-inf, 1)": 50, "[1, inf)": 50} or (
            method == "interval" and out["x"].value_counts().tolist() == [50, 50]
        )
        assert len(out["x"].cat.categories) == 2


def test_ties_warning_names_the_tie_not_too_few_values():
    # 34 distinct values, 176 of 214 rows at zero (Glass's Ba)
    x = np.concatenate([np.zeros(176), np.arange(1, 34) / 10, [0.1, 0.2, 0.3, 0.4, 0.5]])
    data = pd.DataFrame({"Ba": x})
    with pytest.warns(UserWarning) as caught:
        disc = Discretizer("quantile", n_bins=3).fit(data)
    message = str(caught[0].message)
    assert "34 distinct values" in message and "176 of 214 rows" in message
    assert "into 1 interval (a constant variable)" in message
    assert "quantile-ties" in message and "too few" not in message
    assert len(disc.cut_points_["Ba"]) < 2
    ties = Discretizer("quantile-ties", n_bins=3).fit(data)
    assert len(ties.states_["Ba"]) == 3
    sizes = ties.transform(data)["Ba"].value_counts(sort=False).tolist()
    assert sizes[0] == 176 and sum(sizes) == 214 and abs(sizes[1] - sizes[2]) <= 2


def test_infinite_values_are_refused_and_constant_columns_said():
    data = pd.DataFrame({"x": [0.5, 1.5, 2.5, np.inf], "c": [3.5] * 4})
    for method in ("interval", "quantile", "hartemink", "quantile-ties"):
        with pytest.raises(ValueError, match=r"'x' holds 1 infinite value\(s\) \(inf\)"):
            Discretizer(method, columns=["x"]).fit(data)
    with pytest.warns(UserWarning, match=r"'c' holds a single value \(3.5\) in every row"):
        disc = Discretizer("interval", columns=["c"]).fit(data)
    assert disc.states_["c"] == ["(-inf, inf)"]
    # transform places an infinity in the outer intervals
    fitted = Discretizer("quantile", n_bins=2, columns=["x"]).fit(data.iloc[:3])
    out = fitted.transform(pd.DataFrame({"x": [-np.inf, np.inf]}))["x"].tolist()
    assert out == fitted.states_["x"][:1] + fitted.states_["x"][-1:]


def test_whole_number_columns_left_uncut_are_named():
    rng = np.random.default_rng(2)
    data = pd.DataFrame(
        {
            "x": rng.normal(size=200),
            "proline": rng.integers(300, 1700, 200).astype(float),
            "count": rng.integers(0, 12, 200),
            "flag": rng.integers(0, 2, 200),
        }
    )
    with pytest.warns(UserWarning, match="Left uncut") as caught:
        disc = Discretizer("quantile", n_bins=3).fit(data)
    message = str(caught[0].message)
    assert "'proline'" in message and "'count' (12)" in message and "'flag'" not in message
    assert "columns=['x', 'proline', 'count']" in message
    assert disc.columns_ == ["x"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        named = Discretizer("quantile", n_bins=3, columns=["x", "proline", "count"]).fit(data)
    assert all(len(named.states_[c]) == 3 for c in ["x", "proline", "count"])
