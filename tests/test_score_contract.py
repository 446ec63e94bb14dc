"""A new decomposable score is one class plus one registry line (issue: score contract).

The score below exists only in this file: an AIC with a custom penalty weight. The
exact search counts it in bulk (its statistics), pgmpy's hill climbing and the
package's tools take it by name once registered, and both drivers of the contract
(one family at a time, all subsets at once) give the same values.
"""

import itertools
import math

import numpy as np
import pandas as pd
import pytest
from pgmpy.causal_discovery import HillClimbSearch

from pgmpy_nml import ExactSearch
from pgmpy_nml.datasets import sample_network
from pgmpy_nml.scores import make_score, register_score, score_names, unregister_score
from pgmpy_nml.scores.contract import Families, StatisticScore, entropy_statistic


class WeightedAIC(StatisticScore):
    """Log-likelihood minus ``weight`` free parameters: ``H(P+v) - H(P) - weight q (r - 1)``.

    Examples
    --------
    >>> 1
    1
    """

    _tags = {"name": "weighted-aic", "supported_datatype": "discrete", "default_for": None}

    def __init__(self, data, weight=1.0, state_names=None):
        self.weight = weight
        super().__init__(data, state_names=state_names)
        self._statistics = {"H": entropy_statistic()}

    def statistics(self):
        return self._statistics

    def local_from_statistics(self, families: Families):
        ll = families.family["H"] - families.parents["H"]
        return ll - self.weight * families.n_parent_configs * (families.child_arity - 1)


def score_states(data, column):
    """The states pgmpy-nml declares for a column: a Categorical's categories, else the values."""
    values = data[column]
    return list(values.cat.categories) if hasattr(values, "cat") else sorted(values.unique())


def direct(data, child, parents, weight):
    """The definition: sum_jk N_jk log(N_jk / N_j) - weight q (r - 1), from pandas counts."""
    r = len(score_states(data, child))
    q = math.prod(len(score_states(data, p)) for p in parents)
    groups = data.groupby(list(parents), observed=True)[child] if parents else [(0, data[child])]
    ll = 0.0
    for _, column in groups:
        counts = column.value_counts().to_numpy()
        counts = counts[counts > 0]
        ll += float((counts * np.log(counts / counts.sum())).sum())
    return ll - weight * q * (r - 1)


@pytest.fixture(scope="module")
def data():
    return sample_network("asia", 2000, random_state=3)[1].iloc[:, :6]


@pytest.fixture
def registered():
    register_score("weighted-aic", WeightedAIC, replace=True)
    yield
    unregister_score("weighted-aic")


def test_local_score_matches_the_definition(data):
    score = WeightedAIC(data, weight=0.7)
    columns = list(data.columns)
    for child in columns:
        others = [c for c in columns if c != child]
        for parents in itertools.chain.from_iterable(
            itertools.combinations(others, k) for k in range(3)
        ):
            expected = direct(data, child, parents, 0.7)
            assert score.local_score(child, parents) == pytest.approx(expected, rel=1e-12)


def test_exact_search_counts_it_in_bulk_and_agrees_with_local_score(data):
    score = WeightedAIC(data, weight=0.7)
    search = ExactSearch(score, show_progress=False).fit()
    assert search.plan_ == "statistics"
    assert score.score(search.causal_graph_) == pytest.approx(search.score_, rel=1e-12)
    # the bulk driver reproduces every local score: the generic path agrees
    generic = ExactSearch(_NoContract(score), show_progress=False).fit()
    assert generic.plan_ == "generic"
    assert generic.score_ == pytest.approx(search.score_, rel=1e-12)


class _NoContract:
    """The same score seen only through local_score (forces the generic path)."""

    def __init__(self, score):
        self.local_score = score.local_score
        self.variables = score.variables
        self.data = score.data


def test_registry_cli_names_and_pgmpy_hill_climbing(data, registered):
    assert "weighted-aic" in score_names()
    score = make_score("weighted-aic", data, weight=2.0)
    assert isinstance(score, WeightedAIC) and score.weight == 2.0
    by_name = ExactSearch("weighted-aic", show_progress=False).fit(data)
    assert by_name.score_ == pytest.approx(
        ExactSearch(WeightedAIC(data), show_progress=False).fit().score_, rel=1e-12
    )
    hc = HillClimbSearch(scoring_method=score, return_type="dag", show_progress=False).fit(data)
    assert score.score(hc.causal_graph_) <= (
        ExactSearch(score, show_progress=False).fit().score_ + 1e-9
    )
    with pytest.raises(ValueError, match="takes the parameter"):
        make_score("weighted-aic", data, ess=3)


def test_unknown_names_list_the_registry(data):
    with pytest.raises(ValueError, match="fnml"):
        make_score("no-such-score", pd.DataFrame({"A": [0, 1]}))


def test_count_statistic_memo_gives_the_direct_sum_in_any_order():
    """evaluate's memoized fast path (one family of local_score) against phi summed directly:
    counts first seen, seen again, beyond the memo, zeros, empty, and non-integer input."""
    statistic = entropy_statistic()
    rng = np.random.default_rng(0)
    arrays = [rng.integers(0, top, size) for top, size in [(5, 7), (50, 3), (5, 7), (3000, 4)]]
    arrays += [np.zeros(3, dtype=np.int64), np.zeros(0, dtype=np.int64), np.array([1, 2, 4000])]
    for counts in arrays + arrays[::-1]:
        direct = _sum_n_log_n(counts)
        assert statistic.evaluate(counts) == pytest.approx(direct, rel=1e-12, abs=1e-12)
        assert statistic.evaluate(counts.astype(float)) == pytest.approx(direct, rel=1e-12)
    big = np.array([statistic.DENSE_LIMIT + 5, 3])
    assert statistic.evaluate(big) == pytest.approx(_sum_n_log_n(big), rel=1e-12)


def _sum_n_log_n(counts):
    return math.fsum(float(c) * math.log(c) for c in counts if c > 0)
