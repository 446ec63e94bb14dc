"""Every local score against a direct, slow implementation of its paper's formula."""

import itertools
import math
import warnings

import _reference as ref
import networkx as nx
import numpy as np
import pandas as pd
import pytest
from pgmpy.base import DAG
from pgmpy.structure_score import K2, BDeu

from pgmpy_nml import FNML, QNML, BDConstant, MaxBDeu, MinBDeu, bdeu_sensitivity

ARITIES = {"A": 2, "B": 3, "C": 2, "D": 4}
EXTRA = {"B": 1, "D": 2}  # declared states that never occur in the data


DECLARED = {v: list(range(ARITIES[v] + EXTRA.get(v, 0))) for v in ARITIES}


@pytest.fixture(scope="module")
def dataset(random_data):
    """``dataset(n, seed, declare_extra=True)``: random data over ARITIES and its
    state_names (DECLARED, with unobserved states, or None)."""

    def make(n, seed, declare_extra=True):
        return random_data(n, ARITIES, seed), (DECLARED if declare_extra else None)

    return make


FAMILIES = [
    (child, parents)
    for child in ARITIES
    for k in range(4)
    for parents in itertools.combinations([v for v in ARITIES if v != child], k)
]


def families(seed, count=12):
    rng = np.random.default_rng(seed)
    return [FAMILIES[i] for i in rng.choice(len(FAMILIES), count, replace=False)]


CASES = [(1, 0), (7, 1), (40, 2), (150, 3)]


@pytest.mark.parametrize(("n", "seed"), CASES)
@pytest.mark.parametrize("declare_extra", [False, True])
def test_fnml_matches_definition(n, seed, declare_extra, dataset):
    df, names = dataset(n, seed, declare_extra)
    score = FNML(df, state_names=names)
    for child, parents in families(seed):
        expected = ref.fnml(df, child, parents, names)
        assert score.local_score(child, list(parents)) == pytest.approx(
            expected, rel=1e-10, abs=1e-10
        )


@pytest.mark.parametrize(("n", "seed"), CASES)
@pytest.mark.parametrize("declare_extra", [False, True])
def test_qnml_matches_definition(n, seed, declare_extra, dataset):
    df, names = dataset(n, seed, declare_extra)
    score = QNML(df, state_names=names)
    for child, parents in families(seed + 10):
        expected = ref.qnml(df, child, parents, names)
        assert score.local_score(child, parents) == pytest.approx(expected, rel=1e-10, abs=1e-10)


@pytest.mark.parametrize(("n", "seed"), CASES)
@pytest.mark.parametrize("alpha", [0.5, 1.0, 3.7])
def test_bd_constant_matches_definition(n, seed, alpha, dataset):
    df, names = dataset(n, seed)
    score = BDConstant(df, alpha=alpha, state_names=names)
    for child, parents in families(seed + 20):
        expected = ref.bd_constant(df, child, parents, alpha, names)
        assert score.local_score(child, parents) == pytest.approx(expected, rel=1e-10, abs=1e-10)


def test_bd_constant_one_is_pgmpy_k2(dataset):
    # Only where every parent configuration occurs: pgmpy 1.1's K2 adds lgamma(r) for
    # unobserved parent configurations too, which is wrong for r >= 3 (see the reference).
    df, _ = dataset(3000, 5, declare_extra=False)
    ours, theirs = BDConstant(df, alpha=1), K2(df)
    for child, parents in families(5):
        assert ours.local_score(child, parents) == pytest.approx(
            theirs.local_score(child, parents), rel=1e-10
        )


@pytest.mark.parametrize(("n", "seed"), CASES)
@pytest.mark.parametrize(("ess", "eps"), [(1.0, 0.5), (10.0, 0.2), (0.3, 0.9)])
def test_min_bdeu_is_the_minimum_over_the_contaminated_set(n, seed, ess, eps, dataset):
    df, names = dataset(n, seed)
    score = MinBDeu(df, equivalent_sample_size=ess, epsilon=eps, state_names=names)
    for child, parents in families(seed + 30, 8):
        expected = ref.contaminated_bdeu(df, child, parents, ess, eps, min, names)
        assert score.local_score(child, parents) == pytest.approx(expected, rel=1e-10, abs=1e-10)


@pytest.mark.parametrize(("n", "seed"), CASES)
@pytest.mark.parametrize(("ess", "eps"), [(1.0, 0.5), (10.0, 0.2), (0.3, 1.0)])
def test_bdeu_bounds_bracket_bdeu(n, seed, ess, eps, dataset):
    df, names = dataset(n, seed)
    low = MinBDeu(df, equivalent_sample_size=ess, epsilon=min(eps, 0.99), state_names=names)
    high = MaxBDeu(df, equivalent_sample_size=ess, epsilon=eps, state_names=names)
    for child, parents in families(seed + 40, 8):
        bdeu = ref.bdeu(df, child, parents, ess, names)
        best_vertex = ref.contaminated_bdeu(df, child, parents, ess, eps, max, names)
        assert low.local_score(child, parents) <= bdeu + 1e-9
        assert high.local_score(child, parents) >= max(bdeu, best_vertex) - 1e-9


@pytest.mark.parametrize("cls", [MinBDeu, MaxBDeu])
@pytest.mark.parametrize("declare_extra", [False, True])
def test_bdeu_bounds_equal_bdeu_as_epsilon_vanishes(cls, declare_extra, dataset):
    df, names = dataset(150, 7, declare_extra)
    pgmpy_bdeu = BDeu(df, equivalent_sample_size=2.0)
    for child, parents in families(7, 8):
        # pgmpy 1.1's BDeu is wrong for declared but unobserved child states (it
        # subtracts lgamma(alpha/(q r)) for cells it never adds): use the definition there.
        if declare_extra:
            bdeu = ref.bdeu(df, child, parents, 2.0, names)
        else:
            bdeu = pgmpy_bdeu.local_score(child, parents)
        at_zero = cls(df, equivalent_sample_size=2.0, epsilon=0.0, state_names=names)
        assert at_zero.local_score(child, parents) == pytest.approx(bdeu, rel=1e-10)
        gaps = [
            abs(
                cls(df, equivalent_sample_size=2.0, epsilon=e, state_names=names).local_score(
                    child, parents
                )
                - bdeu
            )
            for e in (0.1, 1e-3, 1e-6)
        ]
        assert gaps[0] >= gaps[1] >= gaps[2]
        assert gaps[2] < 1e-4 * max(1.0, abs(bdeu))


def test_min_bdeu_prior_is_the_papers_closed_form(dataset):
    df, names = dataset(150, 8)
    score = MinBDeu(df, equivalent_sample_size=3.0, epsilon=0.4, state_names=names)
    counts, alpha = score.optimal_prior("D", ["A", "B"])
    q, r = 2 * 4, 6  # declared configurations of A, B; declared states of D
    beta = 3.0 / q
    lo, hi = beta * 0.6 / r, beta * (0.4 + 0.6 / r)
    assert counts.shape == alpha.shape and counts.shape[1] == r
    for row, prior in zip(counts, alpha, strict=True):
        expected = np.full(r, lo)
        expected[np.argmin(row)] = hi
        np.testing.assert_allclose(prior, expected, rtol=1e-14)
        assert prior.sum() == pytest.approx(beta, rel=1e-14)


def test_max_bdeu_prior_is_feasible_and_optimal(dataset):
    df, names = dataset(150, 9)
    score = MaxBDeu(df, equivalent_sample_size=3.0, epsilon=0.4, state_names=names)
    counts, alpha = score.optimal_prior("D", ("B",))
    beta = 3.0 / 4
    lo, hi = beta * 0.6 / 6, beta * (0.4 + 0.6 / 6)
    assert np.all(alpha >= lo - 1e-15) and np.all(alpha <= hi + 1e-15)
    np.testing.assert_allclose(alpha.sum(axis=1), beta, rtol=1e-12)
    rng = np.random.default_rng(0)
    for row, prior in zip(counts, alpha, strict=True):
        best = ref.bd({(): row}, lambda cfg, k, prior=prior: prior[k])
        for _ in range(200):  # random feasible priors never beat it
            w = rng.dirichlet(np.ones(6))
            other = lo + (hi - lo) * w
            assert ref.bd({(): row}, lambda cfg, k, other=other: other[k]) <= best + 1e-10


def test_bdeu_sensitivity_is_max_minus_min(dataset):
    df, names = dataset(300, 11)
    dag = DAG([("A", "B"), ("B", "D"), ("C", "D")])
    gap = bdeu_sensitivity(df, dag, equivalent_sample_size=1.0, epsilon=0.5, state_names=names)
    expected = MaxBDeu(df, state_names=names).score(dag) - MinBDeu(df, state_names=names).score(dag)
    assert gap == pytest.approx(expected, rel=1e-12)
    assert gap > 0
    assert bdeu_sensitivity(df, dag, epsilon=0.0, state_names=names) == pytest.approx(0.0, abs=1e-9)
    # more data, less sensitivity per sample (the learning-saturation signal)
    big, _ = dataset(3000, 11)
    assert bdeu_sensitivity(big, dag) / 3000 < bdeu_sensitivity(big.iloc[:300], dag) / 300


def covered_edge_reversals(dag):
    """DAGs Markov equivalent to ``dag``: reverse a covered edge (Chickering 1995)."""
    for x, y in dag.edges():
        if set(dag.predecessors(y)) == set(dag.predecessors(x)) | {x}:
            other = dag.copy()
            other.remove_edge(x, y)
            other.add_edge(y, x)
            yield other


def random_dag(seed, p=0.5):
    rng = np.random.default_rng(seed)
    order = list(rng.permutation(list(ARITIES)))
    dag = nx.DiGraph()
    dag.add_nodes_from(order)
    for i, j in itertools.combinations(range(len(order)), 2):
        if rng.random() < p:
            dag.add_edge(order[i], order[j])
    return dag


def total(score, dag):
    return sum(score.local_score(v, list(dag.predecessors(v))) for v in dag.nodes())


@pytest.mark.parametrize("seed", range(6))
def test_qnml_and_bdeu_are_score_equivalent(seed, dataset):
    df, names = dataset(120, seed)
    scores = [
        QNML(df, state_names=names),
        MinBDeu(df, equivalent_sample_size=2.0, epsilon=0.0, state_names=names),
    ]
    checked = 0
    for s in range(seed * 10, seed * 10 + 10):
        dag = random_dag(s)
        for other in covered_edge_reversals(dag):
            assert nx.is_directed_acyclic_graph(other)
            for score in scores:
                assert total(score, dag) == pytest.approx(total(score, other), rel=1e-11, abs=1e-9)
            checked += 1
    assert checked > 0


def test_fnml_is_not_score_equivalent(dataset):
    df, names = dataset(200, 3)
    score = FNML(df, state_names=names)
    forward = score.local_score("A", []) + score.local_score("D", ["A"])
    backward = score.local_score("D", []) + score.local_score("A", ["D"])
    assert abs(forward - backward) > 0.1  # A -> D and D -> A are Markov equivalent


@pytest.mark.parametrize("cls", [FNML, QNML, BDConstant, MinBDeu, MaxBDeu])
def test_parents_as_list_or_tuple_in_any_order(cls, dataset):
    df, names = dataset(60, 4)
    score = cls(df, state_names=names)
    a = score.local_score("D", ["A", "C", "B"])
    assert score.local_score("D", ("B", "A", "C")) == a
    assert score._local_score("D", ["C", "B", "A"]) == pytest.approx(a, rel=1e-13)
    assert score.local_score("A", []) == score.local_score("A", ()) == score.local_score("A")
    dag = DAG([("A", "D"), ("B", "D"), ("C", "D")])
    expected = a + sum(score.local_score(v, []) for v in "ABC")
    assert score.score(dag) == pytest.approx(expected, rel=1e-13)


def test_score_refuses_models_with_unknown_nodes(dataset):
    df, _ = dataset(20, 0)
    with pytest.raises(ValueError, match=r"node\(s\) \['Z'\] that are not columns"):
        FNML(df).score(DAG([("A", "Z")]))


@pytest.mark.parametrize(
    ("factory", "error", "match"),
    [
        (lambda df: BDConstant(df, alpha=0), ValueError, "alpha must be a finite number > 0"),
        (lambda df: BDConstant(df, alpha="1"), TypeError, "alpha must be a positive number"),
        (
            lambda df: MinBDeu(df, equivalent_sample_size=-1),
            ValueError,
            "equivalent_sample_size must be",
        ),
        (lambda df: MaxBDeu(df, epsilon=1.5), ValueError, r"epsilon must lie in \[0, 1\]"),
        (lambda df: MinBDeu(df, epsilon=1.0), ValueError, r"\[0, 1\).*-inf"),
        (lambda df: MinBDeu(df, epsilon=None), TypeError, "epsilon must be a number"),
    ],
)
def test_bad_score_parameters(factory, error, match, dataset):
    df, _ = dataset(10, 0)
    with pytest.raises(error, match=match):
        factory(df)


def test_huge_collapsed_arity_is_exact_and_finite():
    # qNML with K = q * r = 2**64: the regret is still finite and exact
    rng = np.random.default_rng(1)
    df = pd.DataFrame({c: rng.integers(0, 3, 30) for c in "ABCDE"})
    names = {c: list(range(2**16)) for c in "ABCD"}
    names["E"] = list(range(2**16))
    score = QNML(df, state_names=names)
    value = score.local_score("E", ["A", "B", "C"])
    assert math.isfinite(value)
    assert value == pytest.approx(ref.qnml_large_k(df, "E", ["A", "B", "C"], 2**16), rel=1e-9)


def test_import_prints_no_warnings():
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-W", "always", "-c", "import pgmpy_nml"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stderr == "" and out.stdout == ""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        FNML(pd.DataFrame({"A": [0, 1]})).local_score("A", [])


@pytest.mark.parametrize("cls", [FNML, QNML, MaxBDeu])
def test_scores_pickle_for_joblib_workers(cls, dataset):
    import pickle

    df, names = dataset(50, 1)
    score = cls(df, state_names=names)
    value = score.local_score("D", ["A", "B"])
    clone = pickle.loads(pickle.dumps(score))
    assert clone.local_score("D", ["A", "B"]) == value
    assert clone.local_score("D", ("B", "A")) == value
