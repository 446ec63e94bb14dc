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
    out = discretize(data, "hartemink", n_bins=3, initial_bins=30)
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
