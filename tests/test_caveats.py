"""Caveats the README and the docstrings warn about, shown as they are.

Each test reproduces the behaviour the documentation describes, so that the text
stays true: if one of them starts failing (pgmpy fixes its bug, a score changes),
the warning has to change with it.
"""

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from pgmpy.models import DiscreteBayesianNetwork

from pgmpy_nml import (
    FNML,
    QNML,
    ExactSearch,
    FSNMLEstimator,
    SparseFamilyWarning,
    bdeu_sensitivity,
    learning_saturation,
)
from pgmpy_nml.datasets import sample_network
from pgmpy_nml.numerics.regret import log_regret

with warnings.catch_warnings():  # pgmpy.inference imports pgmpy's deprecated estimators
    warnings.simplefilter("ignore", FutureWarning)
    from pgmpy.inference import BeliefPropagation, VariableElimination


# -- qNML: the penalty for one more parent vanishes when q r >> N ---------------------------
def qnml_penalty(q, r, n):
    """qNML complexity term of a family, q parent configurations: log C(qr, n) - log C(q, n)."""
    return log_regret(q * r, n) - log_regret(q, n)


def test_qnml_penalty_is_bounded_by_n_log_r_so_extra_parents_become_free():
    n, r = 384, 3
    penalties = [qnml_penalty(3**p, r, n) for p in range(16)]  # 0 ... 15 ternary parents
    steps = np.diff(penalties)
    assert np.all(steps > 0) and penalties[-1] < n * math.log(r)  # rising, bounded by N log r
    # the 5th parent (243 -> 729 family configurations, from 384 rows) still costs 86 nats,
    assert steps[4] == pytest.approx(86.4, abs=0.1)
    # but each further parent costs less, and once q r >> N^2 next to nothing
    assert np.all(np.diff(steps[5:]) < 0)
    assert steps[10] < 2 and steps[14] < 0.03  # q r = 3**12 = 531441 and 3**16
    assert n * math.log(r) - penalties[-1] < 0.02


@pytest.fixture(scope="module")
def independent():
    """384 rows of 7 independent, uniform, ternary variables: the true graph is empty."""
    rng = np.random.default_rng(0)
    return pd.DataFrame(rng.integers(0, 3, (384, 7)).astype(str), columns=list("ABCDEFG"))


def test_qnml_prefers_a_saturated_family_on_small_samples_of_uniform_children(independent):
    score = QNML(independent)
    parents = ["A", "B", "C", "D", "E"]  # 243 configurations, 729 with the child
    assert score.local_score("G", parents) > score.local_score("G", []) + 20
    assert FNML(independent).local_score("G", parents) < FNML(independent).local_score("G", [])


def test_a_parent_limit_keeps_qnml_from_saturating(independent):
    with pytest.warns(SparseFamilyWarning):
        free = ExactSearch("qnml", show_progress=False).fit(independent).dag_
    assert free.number_of_edges() >= 10 and max(d for _, d in free.in_degree()) >= 5
    limited = ExactSearch("qnml", max_parents=2, show_progress=False).fit(independent).dag_
    assert limited.number_of_edges() == 0
    assert ExactSearch("fnml", show_progress=False).fit(independent).dag_.number_of_edges() == 0


# -- fNML and BDeu saturate too: a configuration seen once costs log r ---------------------
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_without_a_parent_limit_fnml_and_bdeu_saturate_small_samples_of_uniform_children(seed):
    """240 rows of 12 independent, uniform, four-state variables (docs/guide/scores.md,
    "Small samples"): the true graph is empty, BIC finds it, fNML, qNML and BDeu(1)
    without a parent limit fill families; with at most 2 parents fNML and BDeu learn
    none."""
    rng = np.random.default_rng(seed)
    data = pd.DataFrame(rng.integers(0, 4, (240, 12)).astype(str), columns=list("ABCDEFGHIJKL"))

    def dag(score, max_parents=None):
        return ExactSearch(score, max_parents=max_parents, show_progress=False).fit(data).dag_

    with pytest.warns(SparseFamilyWarning, match="more parent configurations than the 240"):
        free = dag("fnml")  # the searches say so (tests/test_sparse_families.py)
    assert free.number_of_edges() >= 30 and max(d for _, d in free.in_degree()) >= 5
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SparseFamilyWarning)
        assert dag("qnml").number_of_edges() >= 30 and dag("bdeu").number_of_edges() >= 30
    assert dag("bic").number_of_edges() == 0
    assert dag("fnml", 2).number_of_edges() == 0 and dag("bdeu", 2).number_of_edges() == 0
    assert dag("qnml", 2).number_of_edges() <= 2
    # a configuration seen once: fNML's regret log C(r, 1) = log r, the uniform code's cost
    assert log_regret(4, 1) == pytest.approx(math.log(4))


# -- pgmpy: BeliefPropagation fails when the moral graph is disconnected --------------------
@pytest.mark.parametrize(
    ("edges", "message"),
    [
        # an isolated node beside a chain (chordal moral graph)
        ([("A", "B"), ("B", "C")], "No sepset found between these two edges"),
        # an isolated node beside a 4-cycle in the moral graph (needs triangulation)
        (
            [("A", "B"), ("B", "C"), ("C", "D"), ("A", "E"), ("E", "D")],
            # Python's wording of min() on nothing changed in 3.12
            r"min\(\) (arg is an empty sequence|iterable argument is empty)",
        ),
    ],
)
@pytest.mark.parametrize("estimator", ["mle", "fsnml"])
def test_pgmpy_belief_propagation_fails_on_an_isolated_node(edges, message, estimator):
    """pgmpy 1.1 bug (pgmpy issues #1028, #1222): VariableElimination is the way around it."""
    rng = np.random.default_rng(1)
    data = pd.DataFrame(rng.integers(0, 2, (300, 6)), columns=list("ABCDEF"))
    model = DiscreteBayesianNetwork(edges)
    model.add_node("F")  # isolated, as learned networks often have
    if estimator == "fsnml":
        model.fit(data[list(model.nodes())], estimator=FSNMLEstimator())
    else:
        model.fit(data[list(model.nodes())])
    with pytest.raises(ValueError, match=message):
        BeliefPropagation(model)

    answer = VariableElimination(model).query(["C"], evidence={"A": 0, "F": 1})
    connected = model.copy()
    connected.remove_node("F")  # without the isolated node BeliefPropagation works
    expected = BeliefPropagation(connected).query(["C"], evidence={"A": 0})
    np.testing.assert_allclose(answer.values, expected.values, rtol=1e-12)
    marginal_f = VariableElimination(model).query(["F"]).values
    np.testing.assert_allclose(marginal_f, model.get_cpds("F").values, rtol=1e-12)


# -- learning_saturation: an empty learned graph measures only the marginals ----------------
def test_saturation_gap_of_empty_graphs_is_the_marginals_and_stays_flat():
    """The docstring's numbers: survey's first 100-500 rows, BDeu(1) learns no edge."""
    data = sample_network("survey", 5000, random_state=0)[1]
    curve = learning_saturation(data, [100, 250, 500], max_parents=3)
    assert curve["n_edges"].tolist() == [0, 0, 0]
    assert curve["gap"].between(5.3, 5.6).all()  # "about 5.4 nats at every size"
    # so the relative gap falls like 1/n with nothing learned
    ratio = curve["relative_gap"] * curve["n_samples"]
    assert ratio.max() / ratio.min() < 1.2
    empty = DiscreteBayesianNetwork()
    empty.add_nodes_from(data.columns)
    assert curve["gap"][0] == pytest.approx(bdeu_sensitivity(data.iloc[:100], empty), rel=1e-12)
