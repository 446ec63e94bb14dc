"""Exact NML of Bayesian forests against brute force and independent references.

References used here share no code with :mod:`pgmpy_nml.analysis.forest`:

* ``brute_force``: literally every data set of ``n`` rows, exact rational arithmetic;
* ``brute_force_by_type``: the same sum grouped by the multiset of rows (checked
  equal to the literal one), exact, for somewhat larger cases;
* ``direct_recursion``: the (corrected) leaves-to-root recursion with every
  conditional frequency matrix listed explicitly, as in the paper's Algorithm 1,
  in 40-digit mpmath;
* ``naive_bayes``: the closed-form naive Bayes normalizer of Kontkanen et al.
"""

import functools
import itertools
import math
from fractions import Fraction

import _reference as ref
import mpmath
import networkx as nx
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pgmpy.base import DAG
from pgmpy.models import DiscreteBayesianNetwork

from pgmpy_nml import QNML, ForestCostError
from pgmpy_nml.analysis.forest import (
    DEFAULT_MAX_OPERATIONS,
    forest_cost,
    forest_log_normalizer,
    forest_nml,
)
from pgmpy_nml.analysis.forest._structure import _forest
from pgmpy_nml.analysis.forest.cost import _inner_walk, _plan
from pgmpy_nml.analysis.forest.nml import _log_normalizer
from pgmpy_nml.numerics.regret import log_regret

REL = 1e-10


def graph(edges, nodes=()):
    g = nx.DiGraph()
    g.add_nodes_from(nodes)
    g.add_edges_from(edges)
    return g


# --------------------------------------------------------------------------------------
# References
# --------------------------------------------------------------------------------------
def _max_likelihood(rows, nodes, parent):
    """Exact maximized likelihood of a data set (list of row tuples) under a forest."""
    idx = {v: i for i, v in enumerate(nodes)}
    p = Fraction(1)
    for v in nodes:
        pa = parent.get(v)
        joint, marg = {}, {}
        for row in rows:
            k = row[idx[pa]] if pa is not None else 0
            joint[k, row[idx[v]]] = joint.get((k, row[idx[v]]), 0) + 1
            marg[k] = marg.get(k, 0) + 1
        for (k, _), c in joint.items():
            p *= Fraction(c, marg[k]) ** c
    return p


def brute_force(edges, arities, n):
    """C(G, n) summing over every one of the prod(K)^n data sets (exact)."""
    nodes = list(arities)
    parent = {b: a for a, b in edges}
    configs = list(itertools.product(*(range(arities[v]) for v in nodes)))
    return sum(
        (_max_likelihood(rows, nodes, parent) for rows in itertools.product(configs, repeat=n)),
        Fraction(0),
    )


def brute_force_by_type(edges, arities, n):
    """The same sum, grouping the data sets by their multiset of rows (exact)."""
    nodes = list(arities)
    parent = {b: a for a, b in edges}
    configs = list(itertools.product(*(range(arities[v]) for v in nodes)))
    total = Fraction(0)
    for counts in ref.compositions(n, len(configs)):
        rows = [cfg for cfg, c in zip(configs, counts, strict=True) for _ in range(c)]
        n_orderings = math.factorial(n)
        for c in counts:
            n_orderings //= math.factorial(c)
        total += n_orderings * _max_likelihood(rows, nodes, parent)
    return total


def log_fraction(x):
    return math.log(x.numerator) - math.log(x.denominator)


def direct_recursion(edges, arities, n):
    """Corrected Algorithm 1 with explicit matrices, 40 digits; returns log C."""
    parent = {b: a for a, b in edges}
    children = {v: [b for a, b in edges if a == v] for v in arities}

    @functools.cache
    def g(r):  # multinomial(|r|; r) * prod (r_l / |r|)^r_l
        m = sum(r)
        out = mpmath.factorial(m)
        for x in r:
            out /= mpmath.factorial(x)
            if x:
                out *= (mpmath.mpf(x) / m) ** x
        return out

    memo = {}

    def message(j, f):  # L_j(f): sum over matrices F with row sums f
        key = (j, f)
        if key not in memo:
            total = mpmath.mpf(0)
            for F in itertools.product(*(list(ref.compositions(fk, arities[j])) for fk in f)):
                col = tuple(sum(r[i] for r in F) for i in range(arities[j]))
                term = mpmath.fprod(g(r) for r in F)
                for c in children[j]:
                    term *= message(c, col)
                total += term
            memo[key] = total
        return memo[key]

    log_c = mpmath.mpf(0)
    for root in (v for v in arities if v not in parent):
        s = mpmath.fsum(
            g(h) * mpmath.fprod(message(c, h) for c in children[root])
            for h in ref.compositions(n, arities[root])
        )
        log_c += mpmath.log(s)
    return log_c


def regret_2f0(K, n):
    """C(K, n) = sum_k n! / ((n-k)! n^k) binom(K-2+k, k) (Mononen-Myllymaki), mpmath."""
    if K == 1 or n == 0:
        return mpmath.mpf(1)
    term, total = mpmath.mpf(1), mpmath.mpf(1)
    for k in range(1, n + 1):
        term *= mpmath.mpf(n - k + 1) / n * (K - 2 + k) / k
        total += term
    return total


def naive_bayes(root_arity, leaf_arities, n):
    """log of sum_h multinomial(n; h) prod (h_k/n)^h_k prod_leaves prod_k C(K_leaf, h_k)."""
    regrets = {K: [regret_2f0(K, m) for m in range(n + 1)] for K in set(leaf_arities)}
    leaves = [mpmath.fprod(regrets[K][x] for K in leaf_arities) for x in range(n + 1)]
    total = mpmath.mpf(0)
    for h in ref.compositions(n, root_arity):
        term = mpmath.factorial(n)
        for x in h:
            term *= leaves[x] / mpmath.factorial(x)
            if x:
                term *= (mpmath.mpf(x) / n) ** x
        total += term
    return mpmath.log(total)


def relerr(got, want):
    want = float(want)
    return abs(got - want) / max(abs(want), 1e-300)


# --------------------------------------------------------------------------------------
# Brute force
# --------------------------------------------------------------------------------------
CHAIN = [("A", "B"), ("B", "C")]
LITERAL = [  # (edges, arities, n): every data set listed, at most ~5000 of them
    ([], {"A": 3}, 4),
    ([("A", "B")], {"A": 2, "B": 2}, 4),
    ([("A", "B")], {"A": 2, "B": 3}, 3),
    (CHAIN, {"A": 2, "B": 2, "C": 2}, 3),
    (CHAIN, {"A": 2, "B": 3, "C": 2}, 2),
    ([("A", "B"), ("A", "C")], {"A": 2, "B": 2, "C": 2}, 3),
    ([("A", "B"), ("B", "C"), ("B", "D")], {"A": 2, "B": 2, "C": 2, "D": 2}, 3),
    ([("A", "B"), ("C", "D")], {"A": 2, "B": 2, "C": 2, "D": 2}, 3),
    ([("A", "B")], {"A": 2, "B": 2, "C": 3}, 3),  # a tree and an isolated node
]
BY_TYPE = [  # (edges, arities, n)
    (CHAIN, {"A": 2, "B": 2, "C": 2}, 6),
    (CHAIN, {"A": 3, "B": 3, "C": 2}, 3),
    (CHAIN, {"A": 3, "B": 2, "C": 3}, 3),
    (CHAIN, {"A": 2, "B": 3, "C": 2}, 4),
    (CHAIN, {"A": 4, "B": 2, "C": 2}, 3),
    (CHAIN, {"A": 3, "B": 3, "C": 3}, 2),
    (CHAIN, {"A": 1, "B": 2, "C": 2}, 4),
    (CHAIN, {"A": 2, "B": 1, "C": 3}, 4),
    ([("A", "B"), ("A", "C"), ("A", "D")], {"A": 3, "B": 2, "C": 2, "D": 2}, 3),
    ([("A", "B"), ("A", "C"), ("A", "D")], {"A": 2, "B": 2, "C": 3, "D": 2}, 4),
    ([("A", "B"), ("B", "C"), ("B", "D")], {"A": 3, "B": 2, "C": 2, "D": 2}, 3),
    ([("A", "B"), ("B", "C"), ("C", "D")], {"A": 2, "B": 2, "C": 2, "D": 2}, 5),
]


@pytest.mark.parametrize(("edges", "arities", "n"), LITERAL)
def test_against_literal_brute_force(edges, arities, n):
    want = log_fraction(brute_force(edges, arities, n))
    got = forest_log_normalizer(graph(edges, arities), n, arities)
    assert relerr(got, want) < REL


@pytest.mark.parametrize(("edges", "arities", "n"), BY_TYPE)
def test_against_brute_force_by_type(edges, arities, n):
    want = log_fraction(brute_force_by_type(edges, arities, n))
    got = forest_log_normalizer(graph(edges, arities), n, arities)
    assert relerr(got, want) < REL


def test_grouping_by_type_is_the_literal_sum():
    edges, arities = CHAIN, {"A": 2, "B": 3, "C": 2}
    assert brute_force(edges, arities, 3) == brute_force_by_type(edges, arities, 3)


@settings(max_examples=15, deadline=None)
@given(
    data=st.data(),
    arities=st.lists(st.integers(1, 3), min_size=1, max_size=4),
    n=st.integers(0, 3),
)
def test_random_forests_against_brute_force(data, arities, n):
    if math.prod(arities) > 24:
        arities = [min(k, 2) for k in arities]
    nodes = [f"X{i}" for i in range(len(arities))]
    edges = []
    for i in range(1, len(nodes)):  # parent among earlier nodes, or a new root
        p = data.draw(st.integers(-1, i - 1))
        if p >= 0:
            edges.append((nodes[p], nodes[i]))
    ar = dict(zip(nodes, arities, strict=True))
    want = log_fraction(brute_force_by_type(edges, ar, n))
    got = forest_log_normalizer(graph(edges, nodes), n, ar)
    assert abs(got - want) <= REL * max(abs(want), 1.0)


def test_paper_formulas_as_printed_are_wrong():
    """The module's claim: literal Eqs. (26)/(28) give 22.29 (17.11 with line 20), not 38.91."""
    n = 3

    def literal_inner(f_a):  # L_B(f_A) = sum_F C_B(n | col sums), C_B = prod (f/n)^f L_C
        total = Fraction(0)
        for F in itertools.product(*(list(ref.compositions(m, 2)) for m in f_a)):
            col = [F[0][i] + F[1][i] for i in range(2)]
            c_b = math.prod(Fraction(x, n) ** x for x in col)
            c_b *= math.prod(brute_force([], {"C": 2}, x) if x else 1 for x in col)
            total += c_b
        return total

    eq29 = sum(
        Fraction(math.comb(n, f[0])) * math.prod(Fraction(x, n) ** x for x in f) * literal_inner(f)
        for f in ref.compositions(n, 2)
    )
    line20 = sum(
        math.prod(Fraction(x, n) ** x for x in f) * literal_inner(f) for f in ref.compositions(n, 2)
    )
    truth = brute_force(CHAIN, {"A": 2, "B": 2, "C": 2}, n)
    assert round(float(truth), 2) == 38.91
    assert round(float(eq29), 2) == 22.29
    assert round(float(line20), 2) == 17.11
    got = forest_log_normalizer(graph(CHAIN), n, {"A": 2, "B": 2, "C": 2})
    assert relerr(got, log_fraction(truth)) < 1e-14


# --------------------------------------------------------------------------------------
# Independent references at larger n
# --------------------------------------------------------------------------------------
TREE10 = [(0, 1), (0, 2), (1, 3), (1, 4), (2, 5), (2, 6), (3, 7), (5, 8), (6, 9)]


@pytest.mark.parametrize(
    ("edges", "arities", "n"),
    [
        (TREE10, dict.fromkeys(range(10), 2), 16),
        (TREE10, {i: (3 if i in (0, 1) else 2) for i in range(10)}, 8),
        (CHAIN, {"A": 3, "B": 3, "C": 2}, 10),
        (CHAIN, {"A": 2, "B": 4, "C": 3}, 6),
        ([("A", "B"), ("B", "C"), ("B", "D"), ("E", "F")], dict.fromkeys("ABCDEF", 2), 25),
    ],
)
def test_against_direct_recursion(edges, arities, n):
    want = direct_recursion(edges, arities, n)
    got = forest_log_normalizer(graph(edges, arities), n, arities)
    assert relerr(got, want) < REL


@pytest.mark.parametrize(
    ("root", "leaves", "n"),
    [(2, [2, 2, 2], 120), (3, [2, 3, 4], 30), (4, [2], 20), (2, [5, 5], 60), (3, [], 25)],
)
def test_naive_bayes_formula(root, leaves, n):
    names = [f"L{j}" for j in range(len(leaves))]
    arities = {"R": root, **dict(zip(names, leaves, strict=True))}
    got = forest_log_normalizer(graph([("R", v) for v in names], ["R"]), n, arities)
    assert relerr(got, naive_bayes(root, leaves, n)) < REL


def test_reference_regrets_agree():
    for K, n in [(1, 5), (2, 7), (3, 12), (5, 20)]:
        assert mpmath.almosteq(regret_2f0(K, n), ref.regret(K, n), rel_eps=1e-30)


@pytest.mark.parametrize("K", [1, 2, 3, 7, 50])
@pytest.mark.parametrize("n", [0, 1, 2, 17, 1000])
def test_single_node_is_the_multinomial_regret(K, n):
    got = forest_log_normalizer(graph([], ["X"]), n, {"X": K})
    assert got == pytest.approx(log_regret(K, n), rel=1e-14, abs=1e-15)


IDENTITY = [(2, 2, 1000), (2, 3, 120), (3, 2, 80), (3, 3, 40), (4, 2, 30), (5, 2, 16)]


@pytest.mark.parametrize(
    ("ka", "kb", "n", "method"),
    [(*case, m) for case in IDENTITY for m in ("rows", "columns")]
    + [(2, 6, 60, "columns"), (2, 3, 1, "rows"), (3, 2, 2, "columns")],
)
def test_inner_node_methods_against_an_identity(ka, kb, n, method):
    """A -> B -> C with a one-state C is the edge A -> B: log C(ka kb, n), via B's message."""
    forest = _forest(graph(CHAIN), {"A": ka, "B": kb, "C": 1})
    plan = {v: m for v, m, _, _ in _plan(forest, n)}
    assert method == "columns" or _inner_walk(n, kb, ka) < 2e8  # keeps the test fast
    plan["B"] = method
    assert _log_normalizer(forest, n, plan) == pytest.approx(log_regret(ka * kb, n), rel=1e-13)


def test_inner_node_methods_agree_with_leaf_children():
    arities = {"A": 2, "B": 3, "C": 2, "D": 4}
    forest = _forest(graph([("A", "B"), ("B", "C"), ("B", "D")]), arities)
    values = []
    for method in ("rows", "columns"):
        plan = {v: m for v, m, _, _ in _plan(forest, 80)}
        plan["B"] = method
        values.append(_log_normalizer(forest, 80, plan))
    assert values[0] == pytest.approx(values[1], rel=1e-13)


@pytest.mark.parametrize("n", [1, 5, 300])
def test_forest_is_the_sum_of_its_trees(n):
    """The sum over data sets factorizes over components (brute force: LITERAL above)."""
    t1 = [("A", "B"), ("B", "C"), ("B", "D")]
    t2 = [("E", "F")]
    ar = {"A": 2, "B": 2, "C": 3, "D": 2, "E": 3, "F": 2, "G": 4}
    whole = forest_log_normalizer(graph(t1 + t2, ar), n, ar)
    parts = (
        forest_log_normalizer(graph(t1), n, ar)
        + forest_log_normalizer(graph(t2), n, ar)
        + log_regret(4, n)
    )
    assert whole == pytest.approx(parts, rel=1e-13)
    # ... and the product holds exactly: brute force on two 2-node trees
    both = brute_force([("A", "B"), ("C", "D")], {"A": 2, "B": 2, "C": 2, "D": 3}, 3)
    first = brute_force([("A", "B")], {"A": 2, "B": 2}, 3)
    second = brute_force([("C", "D")], {"C": 2, "D": 3}, 3)
    assert both == first * second


def test_no_overflow_for_large_n():
    arities = dict.fromkeys(range(10), 2)
    a = forest_log_normalizer(graph(TREE10), 500, arities)
    b = forest_log_normalizer(graph(TREE10), 3000, dict.fromkeys(range(10), 1) | {9: 2, 6: 2})
    assert np.isfinite(a) and 40 < a < 80
    assert b == pytest.approx(log_regret(4, 3000), rel=1e-13)  # 6 -> 9 is the only real edge
    star = graph([("R", i) for i in range(150)])
    big = forest_log_normalizer(star, 300, {"R": 2, **dict.fromkeys(range(150), 4)})
    assert big > 709  # C itself would overflow a float64
    assert big == pytest.approx(float(naive_bayes(2, [4] * 150, 300)), rel=1e-11)


# --------------------------------------------------------------------------------------
# The NML score and qNML
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_qnml_equals_nml_for_fully_connected_components(seed):
    rng = np.random.default_rng(seed)
    arities = {"A": 2, "B": 3, "C": 4, "D": 2, "E": 3, "F": 2, "G": 3}
    n = int(rng.integers(20, 400))
    data = pd.DataFrame({v: rng.integers(0, k, size=n) for v, k in arities.items()})
    state_names = {"F": [0, 1, 2]}  # an unobserved declared state counts
    dag = DAG([("A", "B"), ("D", "C"), ("F", "G")])  # edges: fully connected components
    dag.add_node("E")  # and an isolated node
    got = forest_nml(data, dag, state_names=state_names)
    want = QNML(data, state_names=state_names).score(dag)
    assert got == pytest.approx(want, rel=1e-11, abs=1e-9)
    assert got != pytest.approx(forest_nml(data, dag), rel=1e-6)  # the extra state matters


def test_nml_is_log_likelihood_minus_normalizer():
    rng = np.random.default_rng(5)
    data = pd.DataFrame({v: rng.integers(0, 2, size=40) for v in "ABCD"})
    model = DAG([("A", "B"), ("B", "C"), ("B", "D")])
    ll = sum(ref.log_likelihood(ref.counts(data, v, list(model.predecessors(v)))) for v in "ABCD")
    norm = forest_log_normalizer(model, 40, dict.fromkeys("ABCD", 2))
    assert forest_nml(data, model) == pytest.approx(ll - norm, rel=1e-12)


def test_nml_sums_to_one_over_all_data_sets():
    """P_NML is a distribution: sum over all data sets of exp(forest_nml) is 1."""
    states = {v: [0, 1] for v in "ABC"}
    model = DAG(CHAIN)
    configs = list(itertools.product([0, 1], repeat=3))
    total = 0.0
    for rows in itertools.product(configs, repeat=3):
        data = pd.DataFrame(list(rows), columns=list("ABC"))
        total += math.exp(forest_nml(data, model, state_names=states))
    assert total == pytest.approx(1.0, rel=1e-12)


def test_accepts_pgmpy_models_and_ignores_other_columns():
    data = pd.DataFrame({"A": [0, 1, 1, 0], "B": [1, 1, 0, 0], "Z": [5, 6, 7, 8]})
    bn = DiscreteBayesianNetwork([("A", "B")])
    assert forest_nml(data, bn) == pytest.approx(forest_nml(data, DAG([("A", "B")])))
    assert forest_nml(data, nx.DiGraph([("A", "B")])) == forest_nml(data, bn)
    arities = forest_log_normalizer(bn, 4, {"A": 2, "B": 2, "Z": 9})
    names = forest_log_normalizer(bn, 4, state_names={"A": ["x", "y"], "B": [0, 1]})
    assert arities == names == pytest.approx(log_regret(4, 4))


# --------------------------------------------------------------------------------------
# Edge cases and errors
# --------------------------------------------------------------------------------------
def test_n_zero_and_one():
    g = graph(TREE10)
    arities = {i: 2 + i % 3 for i in range(10)}
    assert forest_log_normalizer(g, 0, arities) == 0.0
    assert forest_log_normalizer(g, 1, arities) == pytest.approx(
        sum(math.log(k) for k in arities.values()), rel=1e-14
    )
    one_row = pd.DataFrame({"A": [1], "B": [0]})
    assert forest_nml(one_row, DAG([("A", "B")])) == 0.0  # arities 1: one possible data set
    sn = {"A": [0, 1], "B": [0, 1, 2]}
    assert forest_nml(one_row, DAG([("A", "B")]), state_names=sn) == pytest.approx(-math.log(6))


def test_refuses_non_forests():
    with pytest.raises(ValueError, match=r"node 'C' has 2 parents \('A', 'B'\)"):
        forest_log_normalizer(graph([("A", "C"), ("B", "C")]), 5, dict.fromkeys("ABC", 2))
    data = pd.DataFrame({v: [0, 1, 0] for v in "ABC"})
    with pytest.raises(ValueError, match="at most one parent"):
        forest_nml(data, DAG([("A", "C"), ("B", "C")]))
    with pytest.raises(ValueError, match="directed cycle"):
        forest_log_normalizer(graph([("A", "B"), ("B", "A")]), 5, dict.fromkeys("AB", 2))
    with pytest.raises(ValueError, match="self-loop"):
        forest_log_normalizer(graph([("A", "A")]), 5, {"A": 2})
    with pytest.raises(TypeError, match="DiGraph"):
        forest_log_normalizer(nx.Graph([("A", "B")]), 5, dict.fromkeys("AB", 2))
    with pytest.raises(ValueError, match="no nodes"):
        forest_log_normalizer(nx.DiGraph(), 5, {})


def test_refuses_expensive_computations():
    g = graph([("A", "B"), ("B", "C")])
    arities = {"A": 3, "B": 4, "C": 2}
    assert forest_cost(g, 400, arities) > DEFAULT_MAX_OPERATIONS
    with pytest.raises(ForestCostError) as err:
        forest_log_normalizer(g, 400, arities)
    msg = str(err.value)
    assert "max_operations = 1e+10" in msg and "node 'B' (4 states" in msg
    assert "parent 'A' with 3 states" in msg and "smaller n" in msg and "merge states" in msg
    cost = forest_cost(g, 30, arities)
    with pytest.raises(ForestCostError, match="elementary operations"):
        forest_log_normalizer(g, 30, arities, max_operations=cost - 1)
    assert np.isfinite(forest_log_normalizer(g, 30, arities, max_operations=cost))
    assert np.isfinite(forest_log_normalizer(g, 30, arities, max_operations=None))
    data = pd.DataFrame({"A": [0, 1, 2] * 100, "B": [0, 1, 2, 3] * 75, "C": [0, 1] * 150})
    with pytest.raises(ForestCostError, match="n = 300"):
        forest_nml(data, DAG([("A", "B"), ("B", "C")]))
    with pytest.raises(ValueError, match="positive"):
        forest_log_normalizer(g, 3, arities, max_operations=0)


def test_cost_grows_like_the_documented_powers():
    ratio = forest_cost(graph(CHAIN), 800, dict.fromkeys("ABC", 2)) / forest_cost(
        graph(CHAIN), 400, dict.fromkeys("ABC", 2)
    )
    assert 6 < ratio < 8.5  # n^3 for a binary inner node
    big = {"A": 2, "B": 3, "C": 3, "D": 2}
    tree = graph([("A", "B"), ("B", "C"), ("C", "D")])
    ratio = forest_cost(tree, 200, big) / forest_cost(tree, 100, big)
    assert 20 < ratio < 40  # n^5 for a ternary inner node under a ternary parent (sorted rows)


def test_unknown_and_missing_variables():
    data = pd.DataFrame({"A": [0, 1, 1], "B": [1, 0, 1]})
    with pytest.raises(ValueError, match=r"node\(s\) 'Q' that are not columns"):
        forest_nml(data, DAG([("A", "Q")]))
    with pytest.raises(ValueError, match=r"arities has no entry for node\(s\) 'B'"):
        forest_log_normalizer(graph([("A", "B")]), 3, {"A": 2})
    with pytest.raises(ValueError, match="state_names has no entry"):
        forest_log_normalizer(graph([("A", "B")]), 3, state_names={"A": [0, 1]})
    with pytest.raises(ValueError, match="not both"):
        forest_log_normalizer(graph([("A", "B")]), 3, {"A": 2, "B": 2}, state_names={})
    with pytest.raises(ValueError, match="arities of the variables are needed"):
        forest_log_normalizer(graph([("A", "B")]), 3)
    with pytest.raises(ValueError, match="number of states"):
        forest_log_normalizer(graph([("A", "B")]), 3, {"A": 0, "B": 2})
    with pytest.raises(ValueError, match="n must be a non-negative integer"):
        forest_log_normalizer(graph([("A", "B")]), -1, {"A": 2, "B": 2})
    with pytest.raises(ValueError, match="state_names"):
        forest_nml(data, DAG([("A", "B")]), state_names={"Q": [0, 1]})
