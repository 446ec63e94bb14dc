"""The learning-saturation curve of Min-/Max-BDeu gaps."""

import pytest

from pgmpy_nml import FNML, bdeu_sensitivity, learning_saturation
from pgmpy_nml.datasets import sample_network


@pytest.fixture(scope="module")
def survey():
    return sample_network("survey", 6000, random_state=5)[1]


def test_curve_falls_and_matches_the_sensitivity_of_each_learned_network(survey):
    curve = learning_saturation(survey, [100, 400, 1600, 6000], max_parents=3)
    assert curve["n_samples"].tolist() == [100, 400, 1600, 6000]
    assert curve["relative_gap"].is_monotonic_decreasing
    assert curve["gap_per_sample"].iloc[-1] < curve["gap_per_sample"].iloc[0]
    assert (curve["gap"] > 0).all() and (curve["max_bdeu"] > curve["min_bdeu"]).all()
    for row in curve.itertuples():
        subset = survey.iloc[: row.n_samples]
        assert row.gap == pytest.approx(bdeu_sensitivity(subset, row.dag), rel=1e-12)
        assert max(dict(row.dag.in_degree()).values(), default=0) <= 3


def test_other_scores_searches_and_subsampling(survey):
    exact = learning_saturation(survey, [300], scoring_method="fnml", method="auto")
    hill = learning_saturation(survey, [300], scoring_method=FNML, method="hill")
    assert (
        FNML(survey.iloc[:300]).score(exact["dag"][0])
        >= FNML(survey.iloc[:300]).score(hill["dag"][0]) - 1e-9
    )
    a = learning_saturation(survey, [500], shuffle=True, random_state=1)
    b = learning_saturation(survey, [500], shuffle=True, random_state=1)
    assert a["gap"][0] == b["gap"][0]


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (dict(sample_sizes=[0]), "each sample size must be an integer >= 1"),
        (dict(sample_sizes=[10**6]), "exceed the 6000 rows"),
        (dict(sample_sizes=[]), "sample_sizes is empty"),
        (dict(sample_sizes=[10], method="greedy"), "method must be"),
        (dict(sample_sizes=[10], scoring_method="nope"), "Unknown scoring_method 'nope'"),
        (dict(sample_sizes=[10], epsilon=1.0), r"epsilon must lie in \[0, 1\)"),
    ],
)
def test_bad_arguments(survey, kwargs, match):
    with pytest.raises(ValueError, match=match):
        learning_saturation(survey, **kwargs)
