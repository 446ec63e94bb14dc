"""Bad input at the API: a clear error, never a wrong or silent result (issue 18, item 6).

The structure metrics on equivalence classes are checked against an independent
test of Markov equivalence (same skeleton, same v-structures, Verma and Pearl 1990)
and against pgmpy's own SHD between DAGs.
"""

import itertools
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from pgmpy.base import DAG, PDAG

from pgmpy_nml.scores import BDConstant, make_score, register_score, score_names, unregister_score
from pgmpy_nml.study import (
    LearningProcedure,
    averaged_network,
    bootstrap_strength,
    compare_procedures,
    compare_structures,
    cpdag,
    cross_validate,
    custom_strength,
    edge_precision_recall,
    moral_hamming_distance,
    structural_hamming_distance,
)


# -- register_score ------------------------------------------------------------------
@pytest.fixture
def registry_guard():
    """Whatever a test registers is gone afterwards."""
    before = set(score_names(aliases=True))
    yield
    for name in set(score_names(aliases=True)) - before:
        if name in score_names(aliases=True):
            unregister_score(name)


@pytest.mark.parametrize("name", [3, None, b"ms", ("m",)])
def test_register_score_refuses_a_name_that_is_not_a_string(registry_guard, name):
    with pytest.raises(TypeError, match="name must be a string"):
        register_score(name, BDConstant)


@pytest.mark.parametrize("name", ["", "   ", " ms"])
def test_register_score_refuses_an_empty_or_padded_name(registry_guard, name):
    before = score_names(aliases=True)
    with pytest.raises(ValueError, match="name must"):
        register_score(name, BDConstant)
    assert score_names(aliases=True) == before


def test_register_score_takes_a_bare_string_as_one_alias(registry_guard):
    spec = register_score("my-bd", BDConstant, aliases="ms")
    assert spec.aliases == ("ms",)
    assert "m" not in score_names(aliases=True) and "s" not in score_names(aliases=True)
    assert make_score("MS", pd.DataFrame({"A": [0, 1]})).__class__ is BDConstant


@pytest.mark.parametrize("aliases", [5, [3], [""], ["ok", None]])
def test_register_score_refuses_bad_aliases(registry_guard, aliases):
    before = score_names(aliases=True)
    with pytest.raises((TypeError, ValueError), match="alias"):
        register_score("my-bd", BDConstant, aliases=aliases)
    assert score_names(aliases=True) == before


@pytest.mark.parametrize("factory", [3, None, BDConstant(pd.DataFrame({"A": [0, 1]}))])
def test_register_score_refuses_a_factory_that_is_not_callable(registry_guard, factory):
    with pytest.raises(TypeError, match="factory of score 'my-bd' must be callable"):
        register_score("my-bd", factory)
    assert "my-bd" not in score_names()


def test_register_score_refuses_a_string_factory_that_names_nothing(registry_guard):
    with pytest.raises(ValueError, match='"module:name"'):
        register_score("my-bd", "BDConstant")


@pytest.mark.parametrize("returned", [3, "bdeu", None, pd.DataFrame()])
def test_a_factory_that_returns_no_score_fails_at_first_use_naming_it(registry_guard, returned):
    register_score("odd", lambda data, state_names=None: returned)
    with pytest.raises(TypeError, match=r"registered as score 'odd' returned .* not a score"):
        make_score("odd", pd.DataFrame({"A": [0, 1]}))
    # and through the tools that build scores by name
    with pytest.raises(TypeError, match="'odd'"):
        LearningProcedure("auto", scoring_method="odd").fit(
            pd.DataFrame({"A": [0, 1], "B": [1, 0]})
        )


# -- averaged_network, bootstrap_strength ----------------------------------------------
@pytest.fixture(scope="module")
def strengths():
    nets = [DAG([("A", "B"), ("B", "C")]), DAG([("A", "B")]), DAG([("A", "B"), ("C", "B")])]
    return custom_strength(nets, ["A", "B", "C"])


@pytest.mark.parametrize("threshold", [math.nan, 1.5, -0.5, math.inf, -math.inf])
def test_averaged_network_refuses_a_threshold_outside_0_1(strengths, threshold):
    with pytest.raises(ValueError, match=r"threshold must lie in \[0, 1\]"):
        averaged_network(strengths, threshold=threshold)


@pytest.mark.parametrize("threshold", ["0.5", True, [0.5]])
def test_averaged_network_refuses_a_threshold_that_is_not_a_number(strengths, threshold):
    with pytest.raises(TypeError, match="threshold must be"):
        averaged_network(strengths, threshold=threshold)


@pytest.mark.parametrize("threshold", [0, 0.0, 0.5, 1, np.float64(0.4)])
def test_averaged_network_takes_thresholds_in_0_1(strengths, threshold):
    graph = averaged_network(strengths, threshold=threshold)
    assert graph.graph["threshold"] == float(threshold)


@pytest.mark.parametrize("flag", ["False", "True", 0, 1, None, "no"])
def test_bootstrap_strength_refuses_replace_that_is_not_a_bool(cancer, flag):
    _, data = cancer
    with pytest.raises(TypeError, match="replace must be a bool"):
        bootstrap_strength(data, scoring_method="qnml", n_bootstrap=2, replace=flag)


@pytest.mark.long
def test_bootstrap_strength_takes_numpy_bools(cancer):
    _, data = cancer
    s = bootstrap_strength(data, scoring_method="qnml", n_bootstrap=2, replace=np.False_)
    assert s.attrs["replace"] is False and s.attrs["sample_size"] == len(data) // 2


# -- unknown score names --------------------------------------------------------------
VALID = "one of: aic-d, bd, bdeu"


@pytest.mark.parametrize(
    "run",
    [
        lambda d: LearningProcedure("auto", scoring_method="nope").fit(d),
        lambda d: LearningProcedure("hill", scoring_method="nope").fit(d),
        lambda d: cross_validate(d, scoring_method="nope", k=2),
        lambda d: cross_validate(d, method=LearningProcedure("tabu", scoring_method="nope"), k=2),
        lambda d: compare_procedures(d, {"fnml": "fnml", "bad": "nope"}, k=2),
        lambda d: compare_procedures(
            d, {"bad": LearningProcedure("auto", scoring_method="nope")}, k=2
        ),
        lambda d: bootstrap_strength(d, scoring_method="nope", n_bootstrap=2),
    ],
)
def test_an_unknown_score_name_lists_the_valid_ones(cancer, run):
    _, data = cancer
    with pytest.raises(ValueError, match=f"Unknown scoring_method 'nope'.*{VALID}") as err:
        run(data)
    assert "NoneType" not in str(err.value)


# -- structure metrics with PDAGs and edge lists --------------------------------------
def random_dag(rng, nodes, p):
    order = rng.permutation(nodes)
    edges = [
        (order[i], order[j])
        for i, j in itertools.combinations(range(len(order)), 2)
        if rng.random() < p
    ]
    dag = DAG(edges)
    dag.add_nodes_from(nodes)
    return dag


def v_structures(dag):
    """Unshielded colliders, straight from the definition."""
    found = set()
    for c in dag.nodes():
        parents = sorted(dag.predecessors(c))
        for a, b in itertools.combinations(parents, 2):
            if not (dag.has_edge(a, b) or dag.has_edge(b, a)):
                found.add((a, c, b))
    return found


def markov_equivalent(d1, d2):
    skeleton = {frozenset(e) for e in d1.edges()} == {frozenset(e) for e in d2.edges()}
    return skeleton and v_structures(d1) == v_structures(d2)


NODES = list("ABCDEF")


@pytest.mark.parametrize("seed", range(40))
def test_shd_of_equivalence_classes_is_zero_exactly_for_equivalent_dags(seed):
    rng = np.random.default_rng(seed)
    d1 = random_dag(rng, NODES, 0.4)
    # a random member of d1's class half the time, an unrelated DAG otherwise
    d2 = cpdag(d1).to_dag() if seed % 2 else random_dag(rng, NODES, 0.4)
    d2.add_nodes_from(NODES)
    for a, b in ((d1, cpdag(d2)), (cpdag(d1), d2), (cpdag(d1), cpdag(d2))):
        shd = structural_hamming_distance(a, b)
        assert (shd == 0) == markov_equivalent(d1, d2)
        assert shd == structural_hamming_distance(b, a)  # symmetric
        result = compare_structures(a, b)
        assert result["shd"] == shd
        # the moral graph is the class's: that of the DAGs themselves
        assert result["moral_hamming"] == moral_hamming_distance(d1, d2)


@pytest.mark.parametrize("seed", range(40))
def test_an_undirected_edge_counts_once(seed):
    rng = np.random.default_rng(100 + seed)
    dag = random_dag(rng, NODES, 0.5)
    klass = cpdag(dag)
    for truth in (dag, klass):
        r = edge_precision_recall(truth, klass)
        assert r["n_learned"] == r["n_true"] == dag.number_of_edges()
        if dag.number_of_edges():
            assert r["precision"] == r["recall"] == r["f1"] == 1.0
    both = compare_structures(dag, klass)
    assert both["n_edges"] == both["n_true_edges"] == dag.number_of_edges()
    assert both["shd"] == 0


@pytest.mark.parametrize("seed", range(40))
def test_shd_between_dags_is_pgmpys(seed):
    from pgmpy.metrics import SHD

    rng = np.random.default_rng(200 + seed)
    d1, d2 = random_dag(rng, NODES, 0.35), random_dag(rng, NODES, 0.35)
    for penalty in (1, 2):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            expected = SHD(edge_reverse_penalty=penalty).evaluate(d1, d2)
        assert structural_hamming_distance(d1, d2, reversal_penalty=penalty) == expected


def test_classes_compared_edge_by_edge():
    chain = DAG([("A", "B"), ("B", "C")])  # class A - B - C
    collider = DAG([("A", "B"), ("C", "B")])  # its own class
    assert structural_hamming_distance(chain, cpdag(collider)) == 2  # two marks differ
    r = edge_precision_recall(cpdag(chain), cpdag(collider))
    assert (r["true_positives"], r["precision"]) == (0, 0.0)
    assert edge_precision_recall(cpdag(chain), cpdag(collider), directed=False)["precision"] == 1
    # a reversed arc between classes costs the reversal penalty
    v1 = DAG([("A", "C"), ("B", "C"), ("C", "D")])
    v2 = DAG([("A", "C"), ("B", "C"), ("D", "C")])
    assert structural_hamming_distance(cpdag(v1), cpdag(v2)) == 1  # compelled C->D vs D->C
    assert structural_hamming_distance(cpdag(v1), cpdag(v2), reversal_penalty=2) == 2


def test_a_pdag_without_a_consistent_extension_is_refused():
    square = PDAG(undirected_ebunch=[("A", "B"), ("B", "C"), ("C", "D"), ("D", "A")])
    cycle = PDAG(directed_ebunch=[("A", "B"), ("B", "C"), ("C", "A")])
    truth = DAG([("A", "B")])
    truth.add_nodes_from("ABCD")
    for bad in (square, cycle):
        bad.add_nodes_from("ABCD")
        with pytest.raises(ValueError, match="learned_dag stands for no Markov equivalence"):
            structural_hamming_distance(truth, bad)
        with pytest.raises(ValueError, match="no Markov equivalence class"):
            cpdag(bad)


def test_edge_lists_work_everywhere():
    truth, learned = [("A", "B"), ("B", "C")], [("B", "A"), ("B", "C")]
    r = compare_structures(truth, learned)
    expected = compare_structures(DAG(truth), DAG(learned))
    assert r == expected and r["shd"] == 1
    klass = cpdag([("A", "B"), ("B", "C")])
    assert sorted(map(sorted, klass.undirected_edges)) == [["A", "B"], ["B", "C"]]
    # an edge list takes the other network's isolated nodes
    full = DAG(truth)
    full.add_node("D")
    assert compare_structures(full, learned)["shd"] == 1
    assert structural_hamming_distance(learned, full) == 1


@pytest.mark.parametrize("bad", [3, "AB", None, [("A",)], [("A", "B", "C")], {"A": "B"}])
def test_cpdag_and_compare_structures_refuse_other_objects_clearly(bad):
    with pytest.raises(TypeError, match=r"DAG, .*PDAG.* list of \(parent, child\) edges"):
        cpdag(bad)
    with pytest.raises(TypeError, match="learned_dag must be"):
        compare_structures(DAG([("A", "B")]), bad)


def test_a_cyclic_edge_list_is_refused():
    with pytest.raises(ValueError, match="true_dag is not acyclic"):
        compare_structures([("A", "B"), ("B", "A")], [("A", "B")])
