"""Each score works unchanged in both of pgmpy 1.1's structure-search APIs."""

import warnings

import numpy as np
import pandas as pd
import pytest
from pgmpy.causal_discovery import GES as NewGES
from pgmpy.causal_discovery import HillClimbSearch as NewHillClimb

with warnings.catch_warnings():
    warnings.simplefilter("ignore", FutureWarning)
    from pgmpy.estimators import GES, ExhaustiveSearch, HillClimbSearch, MmhcEstimator

SCORE_NAMES = ("fnml", "qnml", "bd1/2", "min-bdeu", "max-bdeu")


@pytest.fixture(scope="module")
def chain_data():
    """A -> B -> C with strong dependence, plus an independent D."""
    rng = np.random.default_rng(0)
    n = 2000
    a = rng.integers(0, 2, n)
    b = np.where(rng.random(n) < 0.85, a, 1 - a)
    c = np.where(rng.random(n) < 0.85, b, rng.integers(0, 3, n))
    d = rng.integers(0, 2, n)
    return pd.DataFrame({"A": a, "B": b, "C": c, "D": d})


def skeleton(dag):
    return {frozenset(e) for e in dag.edges()}


TRUE_SKELETON = {frozenset("AB"), frozenset("BC")}


@pytest.mark.parametrize("name", SCORE_NAMES)
def test_legacy_hill_climb(chain_data, name, make_test_score):
    score = make_test_score(name, chain_data)
    dag = HillClimbSearch(chain_data).estimate(scoring_method=score, show_progress=False)
    assert skeleton(dag) == TRUE_SKELETON


@pytest.mark.parametrize("name", SCORE_NAMES)
def test_new_hill_climb(chain_data, name, make_test_score):
    score = make_test_score(name, chain_data)
    est = NewHillClimb(scoring_method=score, show_progress=False).fit(chain_data)
    assert skeleton(est.causal_graph_) == TRUE_SKELETON


@pytest.mark.parametrize("name", ["fnml", "qnml"])
def test_ges_both_apis(chain_data, name, make_test_score):
    score = make_test_score(name, chain_data)
    legacy = GES(chain_data).estimate(scoring_method=score, debug=False)
    new = NewGES(scoring_method=score).fit(chain_data).causal_graph_
    for graph in (legacy, new):
        assert {frozenset(e) for e in graph.edges()} == TRUE_SKELETON


@pytest.mark.parametrize("name", SCORE_NAMES)
def test_legacy_exhaustive_search(chain_data, name, make_test_score):
    small = chain_data[["A", "B", "C"]]
    score = make_test_score(name, small)
    best = ExhaustiveSearch(small, scoring_method=score).estimate()
    assert skeleton(best) == TRUE_SKELETON
    # the search's optimum is the best total score over all DAGs
    all_scores = [score.score(d) for d in ExhaustiveSearch(small, scoring_method=score).all_dags()]
    assert score.score(best) == pytest.approx(max(all_scores))


@pytest.mark.parametrize("name", ["fnml", "qnml"])
def test_legacy_mmhc(chain_data, name, make_test_score):
    score = make_test_score(name, chain_data)
    dag = MmhcEstimator(chain_data).estimate(scoring_method=score)
    assert skeleton(dag) <= TRUE_SKELETON | {frozenset("AC")}
    assert frozenset("AB") in skeleton(dag)


def test_scores_are_instances_of_both_base_classes(chain_data, make_test_score):
    from pgmpy.structure_score import BaseStructureScore

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        from pgmpy.estimators import StructureScore

    for name in SCORE_NAMES:
        score = make_test_score(name, chain_data)
        assert isinstance(score, BaseStructureScore) and isinstance(score, StructureScore)


@pytest.mark.parametrize("network", ["earthquake", "survey"])
@pytest.mark.parametrize("name", SCORE_NAMES)
def test_recovers_a_classic_network(network, name, make_test_score, network_sample):
    """Hill climbing on 20000 samples of a bundled network finds every true edge.

    Greedy search can stop in a local optimum with an extra edge around a
    v-structure, and pgmpy breaks ties by set iteration order (which varies with
    the interpreter's hash seed), so at most one extra edge is allowed.
    """
    model, data = network_sample(network, 20000, seed=42)
    score = make_test_score(name, data)
    learned = NewHillClimb(scoring_method=score, return_type="dag", show_progress=False).fit(data)
    learned = learned.causal_graph_
    assert skeleton(model) <= skeleton(learned)
    assert len(skeleton(learned) - skeleton(model)) <= 1
    # the score itself prefers the truth to what the greedy search found
    assert score.score(model) >= score.score(learned) - 0.5
