"""fsNML parameters in pgmpy, predictive evaluation and the prequential code length."""

import math
import os
import tempfile
import warnings

import numpy as np
import pandas as pd
import pytest
from pgmpy.base import DAG
from pgmpy.factors.discrete import TabularCPD
from pgmpy.inference import BeliefPropagation, VariableElimination
from pgmpy.models import DiscreteBayesianNetwork
from pgmpy.readwrite import BIFReader, BIFWriter, XMLBIFReader, XMLBIFWriter

from pgmpy_nml import (
    FNML,
    FSNMLEstimator,
    UnknownStateError,
    fsnml_code_length,
    log_loss,
    n_parameters,
)
from pgmpy_nml._data import encode_data
from pgmpy_nml.datasets import sample_network
from pgmpy_nml.numerics.snml import snml_code_length
from pgmpy_nml.numerics.snml_bounds import fsnml_regret_bound


def e(n):
    return 1.0 if n == 0 else ((n + 1) / n) ** n


def by_hand(counts):
    w = [e(n) * (n + 1) for n in counts]
    return [x / sum(w) for x in w]


@pytest.fixture
def small():
    data = pd.DataFrame(
        {
            "A": ["a", "a", "b", "b", "b", "a", "b"],
            "B": [0, 0, 1, 1, 0, 0, 1],
            "C": ["x", "y", "y", "y", "x", "x", "y"],
        }
    )
    return data


def test_cpd_values_by_hand(small):
    names = {"B": [0, 1, 2], "A": ["a", "b", "c"]}
    model = DiscreteBayesianNetwork([("A", "B"), ("B", "C")])
    model.fit(small, estimator=FSNMLEstimator(state_names=names))
    cpd_b = model.get_cpds("B")
    assert cpd_b.variables == ["B", "A"]
    assert cpd_b.state_names == {"B": [0, 1, 2], "A": ["a", "b", "c"]}
    # A = a: B counts (3, 0, 0); A = b: (1, 3, 0); A = c never observed: uniform
    expected = np.array([by_hand([3, 0, 0]), by_hand([1, 3, 0]), [1 / 3] * 3]).T
    np.testing.assert_allclose(cpd_b.get_values(), expected, rtol=1e-14)
    # parent configuration order: B's declared states, then C's sorted observed states
    cpd_c = model.get_cpds("C")
    expected = np.array([by_hand([3, 1]), by_hand([0, 3]), by_hand([0, 0])]).T
    np.testing.assert_allclose(cpd_c.get_values(), expected, rtol=1e-14)
    for cpd in model.get_cpds():
        values = cpd.get_values()
        assert np.all(values > 0) and np.all(np.isfinite(values))
        np.testing.assert_allclose(values.sum(axis=0), 1.0, rtol=1e-14)
    assert model.check_model()


def test_estimator_api_matches_pgmpy_conventions(small):
    est = FSNMLEstimator()
    assert est.fit(DAG([("A", "B")]), small) is est
    assert [cpd.variable for cpd in est.parameters_] == ["A", "B"]
    assert est.state_names_["A"] == ["a", "b"]
    with pytest.raises(ValueError, match="does not support `sample_weight`"):
        FSNMLEstimator().fit(DAG([("A", "B")]), small, sample_weight=np.ones(len(small)))
    with pytest.raises(ValueError, match=r"not present in the dataset: \{'Z'\}"):
        FSNMLEstimator().fit(DAG([("A", "Z")]), small)
    with pytest.raises(ValueError, match="missing values"):
        FSNMLEstimator().fit(DAG([("A", "B")]), small.assign(B=[0, None, 1, 1, 0, 0, 1]))
    with pytest.raises(ValueError, match="neither model nodes nor columns"):
        FSNMLEstimator(state_names={"Q": [0]}).fit(DAG([("A", "B")]), small)
    # columns the model does not use are not inspected (they may be anything)
    FSNMLEstimator().fit(DAG([("A", "B")]), small.assign(D=np.linspace(0, 1, len(small))))


@pytest.fixture(scope="module")
def fitted():
    true_model, data = sample_network("cancer", 3000, random_state=3)
    model = DiscreteBayesianNetwork(true_model.edges())
    model.fit(data, estimator=FSNMLEstimator())
    return model, data


def test_fitted_model_works_with_pgmpy_inference_and_sampling(fitted):
    model, data = fitted
    assert model.check_model()
    ve = VariableElimination(model).query(["Cancer"], evidence={"Smoker": "True"})
    bp = BeliefPropagation(model).query(["Cancer"], evidence={"Smoker": "True"})
    np.testing.assert_allclose(ve.values, bp.values, rtol=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sample = model.simulate(50, seed=0, show_progress=False)
        predicted = model.predict(data.drop(columns=["Cancer"]).iloc[:20], n_jobs=1)
    assert set(sample.columns) == set(data.columns) and len(sample) == 50
    assert set(predicted["Cancer"]) <= set(model.get_cpds("Cancer").state_names["Cancer"])


def test_bif_and_xmlbif_round_trip(fitted):
    model, _ = fitted
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.bif")
        BIFWriter(model).write_bif(path)
        back = BIFReader(path).get_model()
        xml = os.path.join(tmp, "m.xml")
        XMLBIFWriter(model).write_xmlbif(xml)
        back_xml = XMLBIFReader(xml).get_model()
    for other in (back, back_xml):
        for cpd in model.get_cpds():
            theirs = other.get_cpds(cpd.variable)
            assert theirs.state_names[cpd.variable] == [
                str(s) for s in cpd.state_names[cpd.variable]
            ]
            np.testing.assert_allclose(theirs.get_values(), cpd.get_values(), atol=1e-6)


def test_posterior_equals_hand_built_cpds(small):
    model = DiscreteBayesianNetwork([("A", "B"), ("B", "C")]).fit(small, estimator=FSNMLEstimator())
    hand = DiscreteBayesianNetwork([("A", "B"), ("B", "C")])
    hand.add_cpds(
        TabularCPD("A", 2, [[v] for v in by_hand([3, 4])], state_names={"A": ["a", "b"]}),
        TabularCPD(
            "B",
            2,
            np.array([by_hand([3, 0]), by_hand([1, 3])]).T,
            evidence=["A"],
            evidence_card=[2],
            state_names={"B": [0, 1], "A": ["a", "b"]},
        ),
        TabularCPD(
            "C",
            2,
            np.array([by_hand([3, 1]), by_hand([0, 3])]).T,
            evidence=["B"],
            evidence_card=[2],
            state_names={"C": ["x", "y"], "B": [0, 1]},
        ),
    )
    for evidence in ({"C": "x"}, {"C": "y"}, {}):
        ours = VariableElimination(model).query(["A"], evidence=evidence)
        theirs = VariableElimination(hand).query(["A"], evidence=evidence)
        np.testing.assert_allclose(ours.values, theirs.values, rtol=1e-13)


def test_log_loss_against_pgmpy_joint_inference(small):
    names = {"C": ["x", "y", "z"]}
    model = DiscreteBayesianNetwork([("A", "B"), ("A", "C")])
    model.fit(small, estimator=FSNMLEstimator(state_names=names))
    test = pd.DataFrame(
        {"A": ["b", "a", "a"], "B": [1, 0, 1], "C": ["z", "x", "y"]}
    )  # z never seen
    joint = VariableElimination(model).query(["A", "B", "C"], joint=True)
    direct = []
    for row in test.itertuples(index=False):
        direct.append(-math.log(joint.get_value(A=row.A, B=row.B, C=row.C)))
    assert log_loss(model, test) == pytest.approx(np.mean(direct), rel=1e-12)
    assert log_loss(model, test, base=2) == pytest.approx(np.mean(direct) / math.log(2), rel=1e-12)
    with pytest.raises(ValueError, match=r"'B' has values not in .*declare every possible state"):
        log_loss(model, test.assign(B=[0, 1, 5]))
    with pytest.raises(ValueError, match="no CPD"):
        log_loss(DiscreteBayesianNetwork([("A", "B")]), test)
    with pytest.raises(ValueError, match="base must be"):
        log_loss(model, test, base=1)


def test_unknown_states_raise_a_typed_error(small):
    model = DiscreteBayesianNetwork([("A", "B")]).fit(small, estimator=FSNMLEstimator())
    test = pd.DataFrame({"A": ["a", "b", "c"], "B": [0, 5, 5]})
    with pytest.raises(UnknownStateError) as info:
        log_loss(model, test)
    error = info.value
    assert isinstance(error, ValueError)
    assert error.variable == "A" and error.values == ["c"] and "c" not in error.states
    assert "declare every possible state" in str(error)
    with pytest.raises(UnknownStateError, match="'B' has values not in"):
        encode_data(pd.DataFrame({"B": [0, 5]}), {"B": [0, 1]})


def test_fsnml_beats_nothing_but_is_finite_on_unseen_states():
    rng = np.random.default_rng(0)
    train = pd.DataFrame({"A": rng.integers(0, 2, 30), "B": rng.integers(0, 2, 30)})
    test = pd.DataFrame({"A": [0, 1, 2], "B": [1, 2, 3]})
    names = {"A": [0, 1, 2], "B": [0, 1, 2, 3]}
    model = DiscreteBayesianNetwork([("A", "B")]).fit(train, estimator=FSNMLEstimator(names))
    assert math.isfinite(log_loss(model, test))


def test_n_parameters(fitted, small):
    model, data = fitted
    # cancer: 5 binary nodes; Cancer has 2 parents (4 configs), Xray/Dyspnoea 1 each
    assert n_parameters(model) == 1 + 1 + 4 + 2 + 2
    assert n_parameters(DAG(model.edges()), data) == 10
    assert n_parameters(DAG([("A", "B")]), small, state_names={"B": [0, 1, 2, 3]}) == 1 + 2 * 3


def test_code_length_is_the_sum_of_univariate_snml_codes(small):
    dag = DAG([("A", "B"), ("A", "C")])
    dag.add_node("C")
    expected = snml_code_length(np.array([0, 0, 1, 1, 1, 0, 1]), 2)  # A
    for a in ("a", "b"):
        rows = small[small.A == a]
        expected += snml_code_length(rows.B.to_numpy(), 2)
        expected += snml_code_length((rows.C == "y").astype(int).to_numpy(), 2)
    assert fsnml_code_length(dag, small) == pytest.approx(expected, rel=1e-13)
    assert fsnml_code_length(dag, small, base=2) == pytest.approx(expected / math.log(2), rel=1e-13)


@pytest.mark.long
@pytest.mark.parametrize("seed", range(5))
def test_code_length_regret_within_theorem_6(seed):
    true_model, data = sample_network("survey", 400, random_state=seed)
    dag = DAG(true_model.edges())
    score = FNML(data)
    # log P_hat(D | G) = sum of family log-likelihoods = fNML + regret terms; recompute directly
    loglik = 0.0
    for v in dag.nodes():
        table = score._family_table(
            score._encoded.index[v], tuple(score._encoded.index[p] for p in dag.predecessors(v))
        )
        nj = table.sum(axis=1, keepdims=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            loglik += float(np.nansum(table * np.log(table / nj)))
    regret = fsnml_code_length(dag, data) - (-loglik)
    enc = score._encoded
    arities = [int(enc.arities[enc.index[v]]) for v in dag.nodes()]
    configs = [enc.configurations(enc.index[p] for p in dag.predecessors(v)) for v in dag.nodes()]
    assert 0 < regret <= fsnml_regret_bound(arities, configs, len(data))
