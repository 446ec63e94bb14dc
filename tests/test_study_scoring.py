"""Per-node scores, equivalence classes, structure metrics and parameters by score.

References: per-node scores summing to ``score(model)``; CPDAGs against a brute-force
grouping of every DAG on four nodes into Markov equivalence classes (same skeleton and
v-structures: an edge is directed iff it has that direction in every member); the
registry's score-equivalence flags against the scores' values on reversed arcs;
metrics on hand-worked graphs; parameters against posterior means counted by hand.
"""

import itertools
import warnings

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from pgmpy.base import DAG

from pgmpy_nml import FNML, bdeu_sensitivity, learn_exact, learning_saturation
from pgmpy_nml.datasets import sample_network
from pgmpy_nml.models import default_parameter_estimator
from pgmpy_nml.scores import make_score, score_names, spec_for_score
from pgmpy_nml.study import (
    LearningProcedure,
    compare_structures,
    cpdag,
    edge_precision_recall,
    is_score_equivalent,
    local_scores,
    moral_hamming_distance,
    structural_hamming_distance,
)


@pytest.mark.parametrize("name", score_names())
def test_local_scores_sum_to_the_model_score(asia, name):
    true_model, data = asia
    by_node = local_scores(true_model, data, scoring_method=name)
    score = make_score(name, data)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        total = score.score(true_model)
        prior = score.structure_prior(true_model)  # 0 for all but pgmpy's BDs
    assert (prior != 0) == (name == "bds")
    assert list(by_node.index) == list(true_model.nodes())
    assert by_node.sum() + prior == pytest.approx(total, rel=1e-12, abs=1e-9)
    for v in ["lung", "either"]:
        parents = tuple(true_model.predecessors(v))
        assert by_node[v] == score.local_score(v, parents)


def test_local_scores_of_a_score_object_rebuilt_on_other_data(asia):
    true_model, data = asia
    own = local_scores(true_model, scoring_method=FNML(data.iloc[:100]))
    rebuilt = local_scores(true_model, data.iloc[100:200], scoring_method=FNML(data))
    direct = local_scores(
        true_model, data.iloc[100:200], scoring_method="fnml", state_names=FNML(data).state_names
    )
    assert not np.allclose(own, rebuilt)
    assert np.allclose(rebuilt, direct, rtol=1e-12)


def markov_key(edges, nodes):
    graph = nx.DiGraph(edges)
    graph.add_nodes_from(nodes)
    skeleton = frozenset(frozenset(e) for e in edges)
    colliders = frozenset(
        (frozenset((a, b)), v)
        for v in nodes
        for a, b in itertools.combinations(sorted(graph.predecessors(v)), 2)
        if not graph.has_edge(a, b) and not graph.has_edge(b, a)
    )
    return skeleton, colliders


def test_cpdag_against_brute_force_equivalence_classes():
    nodes = ["A", "B", "C", "D"]
    pairs = list(itertools.combinations(nodes, 2))
    dags = []
    for choice in itertools.product((0, 1, 2), repeat=len(pairs)):
        edges = [(a, b) if c == 1 else (b, a) for (a, b), c in zip(pairs, choice, strict=True) if c]
        if nx.is_directed_acyclic_graph(nx.DiGraph(edges)):
            dags.append(edges)
    assert len(dags) == 543  # the number of labelled DAGs on 4 nodes
    classes = {}
    for edges in dags:
        classes.setdefault(markov_key(edges, nodes), []).append(set(edges))
    assert len(classes) == 185  # Markov equivalence classes on 4 labelled nodes
    for members in classes.values():
        directed = set.intersection(*members)
        skeleton = {frozenset(e) for e in members[0]}
        undirected = skeleton - {frozenset(e) for e in directed}
        dag = DAG(list(members[-1]))
        dag.add_nodes_from(nodes)
        result = cpdag(dag)
        assert set(result.directed_edges) == directed
        assert {frozenset(e) for e in result.undirected_edges} == undirected
        assert set(result.nodes()) == set(nodes)


def test_score_equivalence_flags_agree_with_the_scores(asia):
    _, data = asia
    forward, backward = DAG([("lung", "either")]), DAG([("either", "lung")])
    for name in score_names():
        score = make_score(name, data[["lung", "either"]])
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            same = abs(score.score(forward) - score.score(backward)) < 1e-9
        flag = is_score_equivalent(name)
        if flag:
            assert same, name
        if name in ("fnml", "bd", "k2"):
            assert flag is False and not same, name
    assert is_score_equivalent("qnml") and not is_score_equivalent("fnml")


def test_spec_for_pgmpy_and_legacy_score_objects(asia):
    from pgmpy import structure_score

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        from pgmpy.estimators import K2 as LegacyK2
        from pgmpy.estimators import BDeu as LegacyBDeu

    _, data = asia
    assert spec_for_score(structure_score.BIC(data)).name == "bic-d"
    assert spec_for_score(structure_score.BDeu(data)).name == "bdeu"
    assert spec_for_score(LegacyBDeu(data)).name == "bdeu"
    assert spec_for_score(LegacyK2(data)).name == "k2"
    assert spec_for_score(object()) is None and is_score_equivalent(object()) is None


def test_learning_with_return_type_pdag(asia):
    _, data = asia
    fitted = LearningProcedure("auto", scoring_method="qnml", return_type="pdag").fit(data)
    assert type(fitted.causal_graph_).__name__ == "PDAG"
    expected = cpdag(fitted.dag_)
    assert set(fitted.causal_graph_.directed_edges) == set(expected.directed_edges)
    assert fitted.model_.check_model()


def test_structure_metrics_on_worked_examples():
    nodes = ["A", "B", "C", "D"]

    def dag(edges):
        g = DAG(edges)
        g.add_nodes_from(nodes)
        return g

    truth = dag([("A", "C"), ("B", "C"), ("C", "D")])
    learned = dag([("C", "A"), ("B", "C"), ("B", "D")])
    # SHD: A-C reversed (1), C->D missing (1), B->D extra (1)
    assert structural_hamming_distance(truth, learned) == 3
    assert structural_hamming_distance(truth, learned, reversal_penalty=2) == 4
    # moral graphs: truth {AC, BC, CD, AB}, learned {AC, BC, BD}: differ on CD, AB, BD
    assert moral_hamming_distance(truth, learned) == 3
    assert moral_hamming_distance(truth, dag([("C", "A"), ("C", "B"), ("D", "C")])) == 1  # AB
    r = edge_precision_recall(truth, learned)
    assert (r["precision"], r["recall"], r["true_positives"]) == (1 / 3, 1 / 3, 1)
    r = edge_precision_recall(truth, learned, directed=False)
    assert (r["precision"], r["recall"]) == (2 / 3, 2 / 3)
    assert np.isnan(edge_precision_recall(truth, dag([]))["precision"])
    summary = compare_structures(truth, learned)
    assert summary["shd"] == 3 and summary["n_edges"] == 3 and summary["n_true_edges"] == 3
    with pytest.raises(ValueError, match="same nodes"):
        structural_hamming_distance(truth, DAG([("A", "B")]))


def test_parameters_follow_the_scores_prior():
    data = pd.DataFrame({"A": [0, 0, 1, 1, 1, 1, 0, 1], "B": [0, 1, 1, 1, 1, 0, 0, 1]})
    states = {"A": [0, 1], "B": [0, 1, 2]}  # B's state 2 is declared, never seen
    ess, alpha = 6.0, 0.5
    cases = {
        "bdeu": ({"equivalent_sample_size": ess}, "BDeu"),
        "bd": ({"alpha": alpha}, "dirichlet"),
        "qnml": ({}, "FSNML"),
    }
    for name, (params, kind) in cases.items():
        model = learn_exact(
            data,
            name,
            state_names=states,
            score_params=params,
            show_progress=False,
            expert_knowledge={"required_edges": [("A", "B")]},
        )
        cpd = model.get_cpds("B")
        assert cpd.state_names["B"] == [0, 1, 2]  # declared states reach the parameters
        values = cpd.get_values()  # (r, q)
        for j, a in enumerate([0, 1]):
            counts = np.array([((data.A == a) & (data.B == b)).sum() for b in [0, 1, 2]])
            if kind == "BDeu":  # pseudo-count ess / (q r) per cell
                expected = (counts + ess / 6) / (counts.sum() + ess / 2)
            elif kind == "dirichlet":  # pseudo-count alpha per cell
                expected = (counts + alpha) / (counts.sum() + 3 * alpha)
            else:
                assert type(default_parameter_estimator(name)).__name__ == "FSNMLEstimator"
                continue
            assert values[:, j] == pytest.approx(expected, rel=1e-12)
    k2 = default_parameter_estimator("k2")
    assert k2.prior_type == "K2"
    # the likelihood scores have no prior: fsNML, never maximum likelihood's zeros
    for name in ["bic", "aic", "ll", "nal", "pnal"]:
        estimator = default_parameter_estimator(name)
        assert type(estimator).__name__ == "FSNMLEstimator"
        assert estimator.missing == ("available" if "nal" in name else "error")
    with pytest.raises(ValueError, match="takes the parameter"):
        default_parameter_estimator("fnml", alpha=1)


def test_sensitivity_relative_gap_and_paired_accuracy_curve():
    true_model, data = sample_network("survey", 3000, random_state=8)
    _, test = sample_network("survey", 2000, random_state=9)
    dag = true_model
    gap = bdeu_sensitivity(data, dag)
    relative = bdeu_sensitivity(data, dag, relative=True)
    from pgmpy_nml import MinBDeu

    assert relative == pytest.approx(gap / abs(MinBDeu(data).score(dag)), rel=1e-12)
    curve = learning_saturation(
        data, [100, 3000], test_data=test, true_model=true_model, max_parents=2
    )
    assert {"test_log_loss", "accuracy"} <= set(curve.columns)
    # accuracy is the percent excess of the learned network's test log-loss over the truth's
    from pgmpy_nml import log_loss

    truth = log_loss(true_model, test)
    for row in curve.itertuples():
        assert row.accuracy == pytest.approx(100 * (row.test_log_loss - truth) / truth)
    assert curve["accuracy"].iloc[-1] < curve["accuracy"].iloc[0]
    assert curve["relative_gap"].iloc[-1] < curve["relative_gap"].iloc[0]
