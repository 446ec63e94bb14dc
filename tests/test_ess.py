"""Steck (UAI 2008): uniformity measure, large-ESS Bayes factor, Eq. 18 and Sec. 4.1."""

import itertools
import math
import warnings

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pgmpy.base import DAG
from pgmpy.structure_score import BIC

from pgmpy_nml import ExactSearch, MinBDeu
from pgmpy_nml._data import encode_data
from pgmpy_nml.analysis.ess import (
    ESSStep,
    OptimalESS,
    _eq18_terms,
    _families,
    large_ess_log_bayes_factor,
    marginal_likelihood_ess,
    optimal_ess,
    pair_counts,
    uniformity,
)
from pgmpy_nml.datasets import load_network, sample_network
from pgmpy_nml.scores._dirichlet import log_bd_rows

# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------


def frame(counts, columns):
    """A DataFrame whose contingency table over ``columns`` is ``counts``."""
    counts = np.asarray(counts)
    cells = np.indices(counts.shape).reshape(counts.ndim, -1)
    rows = np.repeat(cells, counts.ravel(), axis=1)
    return pd.DataFrame(rows.T, columns=columns)


def eq4(p, q_all=None):
    """U by Eq. 4, literally: sum p(a,b,pi) (|ABPi| p(abpi) - |APi| p(api) - ...)."""
    p = np.asarray(p, dtype=float)
    p = p / p.sum()
    q, ra, rb = p.shape
    q_all = q if q_all is None else q_all
    total = 0.0
    for j, a, b in itertools.product(range(q), range(ra), range(rb)):
        total += p[j, a, b] * (
            q_all * ra * rb * p[j, a, b]
            - q_all * ra * p[j, a, :].sum()
            - q_all * rb * p[j, :, b].sum()
            + q_all * p[j].sum()
        )
    return total


def eq5_conditional(p):
    """U by the first line of Eq. 5 (conditional probabilities)."""
    p = np.asarray(p, dtype=float)
    p = p / p.sum()
    q, ra, rb = p.shape
    total = 0.0
    for j in range(q):
        pj = p[j].sum()
        if pj == 0:
            continue
        c = p[j] / pj
        inner = c * (ra * rb * c - ra * c.sum(1, keepdims=True) - rb * c.sum(0, keepdims=True) + 1)
        total += pj**2 * inner.sum()
    return q * total


def eq5_squares(p):
    """U by the second line of Eq. 5 (sums of squared probabilities)."""
    p = np.asarray(p, dtype=float)
    p = p / p.sum()
    q, ra, rb = p.shape
    return (
        q * ra * rb * (p**2).sum()
        - q * ra * (p.sum(2) ** 2).sum()
        - q * rb * (p.sum(1) ** 2).sum()
        + q * (p.sum((1, 2)) ** 2).sum()
    )


def exact_log_bayes_factor(table, alpha, q_all=None):
    """Eq. 7: BDeu(A | Pi + B) - BDeu(A | Pi) from the (pi, a, b) table, via log_bd_rows."""
    table = np.asarray(table)
    q, ra, rb = table.shape
    q_all = q if q_all is None else q_all
    plus = table.transpose(0, 2, 1).reshape(q * rb, ra)  # rows (pi, b), columns a
    minus = table.sum(axis=2)  # rows pi, columns a
    return float(
        log_bd_rows(plus, alpha / (q_all * rb * ra)).sum()
        - log_bd_rows(minus, alpha / (q_all * ra)).sum()
    )


@pytest.fixture(scope="module")
def survey():
    return sample_network("survey", 500, random_state=1)[1]


tables = st.tuples(
    st.integers(1, 3), st.integers(2, 3), st.integers(2, 4), st.integers(0, 2**31 - 1)
).map(
    lambda t: (
        np.random.default_rng(t[3]).integers(0, 6, size=t[:3]) * (1 + t[3] % 3)
        + np.eye(1, t[0] * t[1] * t[2], dtype=int).reshape(t[:3])
    )  # never all zero
)

# ---------------------------------------------------------------------------
# the uniformity measure U (Sec. 3.1)
# ---------------------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(tables)
def test_uniformity_equals_the_three_forms_of_eq4_and_eq5(table):
    u = uniformity(table)
    for other in (eq4(table), eq5_conditional(table), eq5_squares(table)):
        assert u == pytest.approx(other, rel=1e-9, abs=1e-12)


@settings(max_examples=80, deadline=None)
@given(tables)
def test_uniformity_is_symmetric_and_non_negative(table):
    u = uniformity(table)
    assert u >= 0.0
    assert uniformity(table.transpose(0, 2, 1)) == pytest.approx(u, rel=1e-12, abs=1e-15)
    # counts and probabilities give the same U
    assert uniformity(table / table.sum()) == pytest.approx(u, rel=1e-12, abs=1e-15)


def test_uniformity_zero_set_of_proposition_1():
    rng = np.random.default_rng(0)
    # independence with a uniform marginal in every configuration: U = 0
    tables = []
    for _ in range(20):
        q, ra, rb = rng.integers(1, 4), rng.integers(2, 4), rng.integers(2, 5)
        p_pi = rng.dirichlet(np.ones(q))
        t = np.empty((q, ra, rb))
        for j in range(q):
            skew = rng.dirichlet(np.ones(rb))
            if rng.random() < 0.5:
                t[j] = np.outer(np.full(ra, 1 / ra), skew)  # A uniform in this configuration
            else:
                t[j] = np.outer(rng.dirichlet(np.ones(ra)), np.full(rb, 1 / rb))  # B uniform
            t[j] *= p_pi[j]
        tables.append(t)
        assert uniformity(t) == pytest.approx(0.0, abs=1e-14)
    # independence with both marginals skewed: U > 0; without Pi it is the product
    # (|A| sum p_a^2 - 1)(|B| sum p_b^2 - 1) of the two marginal terms
    pa, pb = np.array([0.7, 0.2, 0.1]), np.array([0.9, 0.1])
    expected = (3 * (pa**2).sum() - 1) * (2 * (pb**2).sum() - 1)
    assert uniformity(np.outer(pa, pb)) == pytest.approx(expected, rel=1e-12)
    assert expected > 0.05
    # dependence with uniform marginals: U > 0 (perfect correlation: U = 1)
    assert uniformity(np.eye(2) / 2) == pytest.approx(1.0)
    # a configuration with p(pi) = 0 does not matter, but |Pi| does
    t = np.stack([np.outer(pa, pb), np.zeros((3, 2))])
    assert uniformity(t) == pytest.approx(uniformity(t[:1], n_parent_configs=2))
    assert uniformity(t[:1], n_parent_configs=2) == pytest.approx(2 * expected)


def test_uniformity_zero_set_is_additivity_not_independence():
    """Proposition 1's "only if" fails: U = 0 for this dependent, doubly skewed table."""
    p = np.array([[0.35, 0.25], [0.25, 0.15]])
    pa, pb = p.sum(1), p.sum(0)
    assert not np.allclose(p, np.outer(pa, pb))  # dependent ...
    assert not np.allclose(pa, 0.5) and not np.allclose(pb, 0.5)  # ... both skewed
    assert uniformity(p) == pytest.approx(0.0, abs=1e-15)
    assert eq4(p[None]) == pytest.approx(0.0, abs=1e-15)  # also by the paper's own Eq. 4
    # in general: U = 0 exactly for additive p(a,b|pi) = p(a|pi)/|B| + p(b|pi)/|A| - 1/|AB|
    rng = np.random.default_rng(1)
    for _ in range(20):
        ra, rb = rng.integers(2, 5, size=2)
        da, db = rng.uniform(-1, 1, ra), rng.uniform(-1, 1, rb)
        add = (
            1 / (ra * rb)
            + 0.1 / (ra * rb) * (da - da.mean())[:, None]
            + 0.1 / (ra * rb) * (db - db.mean())
        )
        assert add.min() > 0 and add.sum() == pytest.approx(1.0)
        assert uniformity(add) == pytest.approx(0.0, abs=1e-14)
        bumped = add.copy()
        bumped[0, 0] += 0.01
        bumped[0, 1] -= 0.01
        bumped[1, 0] -= 0.01
        bumped[1, 1] += 0.01  # a pure interaction: marginals unchanged
        assert uniformity(bumped) > 1e-4


def test_pair_counts_orients_and_counts_like_the_family_table(survey):
    data = survey
    counts, q = pair_counts(data, "T", "O", given=["E", "R"])
    enc = encode_data(data)
    assert q == enc.arities[enc.index["E"]] * enc.arities[enc.index["R"]]
    assert counts.shape[1:] == (enc.arities[enc.index["T"]], enc.arities[enc.index["O"]])
    assert counts.sum() == len(data)
    # the (a, b) cells agree with a crosstab within each configuration of the given set
    for _, grp in data.groupby(["E", "R"], observed=True):
        table = pd.crosstab(grp["T"], grp["O"]).to_numpy()
        assert any(np.array_equal(table, c) for c in counts)


# ---------------------------------------------------------------------------
# Proposition 2: leading-order Bayes factor for a large ESS
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_proposition_2_relative_error_shrinks_like_n_over_alpha(seed):
    rng = np.random.default_rng(seed)
    shape = (int(rng.integers(1, 4)), int(rng.integers(2, 4)), int(rng.integers(2, 4)))
    table = rng.multinomial(150, rng.dirichlet(np.ones(np.prod(shape)))).reshape(shape)
    n = table.sum()
    errors = []
    for k in (1, 2, 3):
        alpha = n * 10.0**k
        approx = large_ess_log_bayes_factor(table, alpha)
        exact = exact_log_bayes_factor(table, alpha)
        errors.append(abs(exact - approx) / abs(approx))
    # one decade of alpha: the relative error drops about tenfold
    assert errors[0] > 5 * errors[1] > 25 * errors[2]
    assert errors[2] < 0.01


def test_proposition_2_remainder_is_cubic_in_n_not_quadratic():
    """Eq. 9's remainder is O(N^3 / alpha^2): doubling the counts multiplies it by ~8."""
    rng = np.random.default_rng(3)
    table = rng.multinomial(200, rng.dirichlet(np.ones(12))).reshape(2, 2, 3)
    alpha = 2e5
    remainders = [
        exact_log_bayes_factor(m * table, alpha) - large_ess_log_bayes_factor(m * table, alpha)
        for m in (1, 2)
    ]
    assert 7.0 < remainders[1] / remainders[0] < 9.0
    # and second order in 1/alpha: alpha^2 * remainder is stable
    r10 = exact_log_bayes_factor(table, 10 * alpha) - large_ess_log_bayes_factor(table, 10 * alpha)
    assert 100 * r10 == pytest.approx(remainders[0], rel=0.05)


def test_proposition_2_on_data_matches_minbdeu_score_differences(survey):
    data = survey
    counts, q = pair_counts(data, "T", "O", given=["E"])
    n = len(data)
    previous = math.inf
    for k in (1, 2, 3):
        alpha = n * 10.0**k
        score = MinBDeu(data, equivalent_sample_size=alpha, epsilon=0.0)
        exact = score.local_score("T", ["E", "O"]) - score.local_score("T", ["E"])
        # Eq. 7 is symmetric in A and B (score equivalence of BDeu)
        swapped = score.local_score("O", ["E", "T"]) - score.local_score("O", ["E"])
        assert swapped == pytest.approx(exact, rel=1e-7, abs=1e-9)
        assert exact_log_bayes_factor(counts, alpha, q) == pytest.approx(exact, abs=1e-8)
        approx = large_ess_log_bayes_factor(counts, alpha, n_parent_configs=q)
        rel = abs(exact - approx) / abs(approx)
        assert rel < previous / 5
        previous = rel
    assert previous < 0.02


def test_corollary_1_skewed_independent_data_favour_the_edge_at_large_ess():
    """Sec. 3.3: N = 100, p(A) = p(B) = (0.9, 0.1), independent; U = 0.64^2."""
    skewed = np.array([[81, 9], [9, 1]])
    uniform = np.array([[25, 25], [25, 25]])
    assert uniformity(skewed) == pytest.approx(0.64**2)
    for alpha in (1e4, 1e5):
        assert exact_log_bayes_factor(skewed[None], alpha) > 0
        assert exact_log_bayes_factor(uniform[None], alpha) < 0
        assert large_ess_log_bayes_factor(uniform, alpha) == pytest.approx(-100 / (2 * alpha))
    # at a small ESS the same data favour independence
    assert exact_log_bayes_factor(skewed[None], 1.0) < 0


# ---------------------------------------------------------------------------
# Eq. 18: the optimal ESS of a given graph
# ---------------------------------------------------------------------------


def test_eq18_by_hand_on_a_2x2_table():
    n_ab = np.array([[30, 10], [5, 15]])
    data = frame(n_ab, ["A", "B"])
    n, n_a = n_ab.sum(), n_ab.sum(1)
    d_eff = (2 - 1) + (4 - 2)
    e_hat = (
        sum(x * math.log(x / n) for x in n_a)
        + sum(n_ab[a, b] * math.log(n_ab[a, b] / n_a[a]) for a in range(2) for b in range(2))
    ) / n
    e_q = (
        sum(math.log(x / n) for x in n_a) / 2
        + sum(math.log(n_ab[a, b] / n_a[a]) for a in range(2) for b in range(2)) / 4
    )
    expected = d_eff / (e_hat - e_q)
    assert optimal_ess(data, DAG([("A", "B")])) == pytest.approx(expected, rel=1e-12)
    # the reversed edge: same d_eff and maximum likelihood, a different E_q term
    n_b = n_ab.sum(0)
    e_q_rev = (
        sum(math.log(x / n) for x in n_b) / 2
        + sum(math.log(n_ab[a, b] / n_b[b]) for a in range(2) for b in range(2)) / 4
    )
    assert optimal_ess(data, DAG([("B", "A")])) == pytest.approx(
        d_eff / (e_hat - e_q_rev), rel=1e-12
    )


def test_eq18_zero_cells_and_unobserved_parent_configurations():
    """N+ = max(N, 1), renormalized per parent configuration; unobserved ones are uniform."""
    n_ab = np.array([[20, 0], [7, 13]])
    data = frame(n_ab, ["A", "B"])
    names = {"A": [0, 1, 2]}  # state 2 of A is declared but never observed
    n = 40
    d_eff = (2 - 1) + (3 - 2)  # positive cells minus observed configurations
    e_hat = (20 * math.log(0.5) * 2 + 7 * math.log(7 / 20) + 13 * math.log(13 / 20)) / n
    e_q_a = (2 * math.log(20 / 41) + math.log(1 / 41)) / 3
    e_q_b = (
        math.log(20 / 21)
        + math.log(1 / 21)
        + math.log(7 / 20)
        + math.log(13 / 20)
        + 2 * math.log(1 / 2)  # the unobserved configuration A = 2
    ) / 6
    expected = d_eff / (e_hat - e_q_a - e_q_b)
    got = optimal_ess(data, DAG([("A", "B")]), state_names=names)
    assert got == pytest.approx(expected, rel=1e-12)


@st.composite
def data_and_dag(draw):
    n_vars = draw(st.integers(2, 4))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    arities = rng.integers(2, 4, n_vars)
    n = draw(st.integers(3, 60))
    cols = [f"X{i}" for i in range(n_vars)]
    values = rng.integers(0, arities, size=(n, n_vars))
    data = pd.DataFrame(values, columns=cols)
    names = {
        c: list(range(int(r) + int(rng.integers(0, 2)))) for c, r in zip(cols, arities, strict=True)
    }
    dag = DAG()
    dag.add_nodes_from(cols)
    for i, j in itertools.combinations(range(n_vars), 2):
        if rng.random() < 0.6:
            dag.add_edge(cols[i], cols[j])
    return data, dag, names


@settings(max_examples=60, deadline=None)
@given(data_and_dag())
def test_eq18_denominator_is_non_negative(case):
    """Paper: H(q) - H(p) + KL(q || p) >= 0; holds with the renormalized N+ rule."""
    data, dag, names = case
    enc = encode_data(data, names)
    d_eff, e_hat, e_q = _eq18_terms(_families(enc, dag), enc.n_samples)
    assert e_hat - e_q >= -1e-12
    assert d_eff >= 0
    alpha = optimal_ess(data, dag, state_names=names)
    assert alpha >= 0 and not math.isnan(alpha)


def near_uniform_data(scale):
    return frame(np.array([[520, 480], [450, 550]]) * scale, ["A", "B"])


def test_eq18_approaches_the_marginal_likelihood_optimum_for_near_uniform_data():
    """Near-uniform families: Eq. 18 = argmax_alpha p(D | alpha, G) up to O(alpha / N)."""
    dag = DAG([("A", "B")])
    gaps = []
    for scale in (10, 40, 160):  # N = 20_000, 80_000, 320_000; same frequencies
        data = near_uniform_data(scale)
        eq18, ml = optimal_ess(data, dag), marginal_likelihood_ess(data, dag)
        gaps.append(abs(eq18 - ml) / ml)
    assert gaps[0] > 3 * gaps[1] > 9 * gaps[2]
    assert gaps[2] < 0.005


def test_eq18_is_not_the_marginal_likelihood_optimum_for_skewed_data():
    """p(A) = (0.1, 0.9): Eq. 18 = 1.138 for every N, the argmax tends to 1.294."""
    dag = DAG()
    dag.add_node("A")
    for n in (10_000, 1_000_000):
        counts = np.array([n // 10, n - n // 10])
        data = frame(counts, ["A"])
        eq18, ml = optimal_ess(data, dag), marginal_likelihood_ess(data, dag)
        assert eq18 == pytest.approx(1.1378, abs=1e-3)
        assert ml == pytest.approx(1.294, abs=2e-3)


def test_marginal_likelihood_ess_is_a_stationary_point(survey):
    data = survey
    dag = DAG(load_network("survey").edges())
    alpha = marginal_likelihood_ess(data, dag)

    def f(a):
        return MinBDeu(data, equivalent_sample_size=a, epsilon=0.0).score(dag)

    h = 1e-4 * alpha
    assert abs(f(alpha + h) - f(alpha - h)) / (2 * h) < 1e-4
    assert f(alpha) > f(0.8 * alpha) and f(alpha) > f(1.25 * alpha)
    with pytest.warns(RuntimeWarning, match="upper bound"):
        assert marginal_likelihood_ess(data, dag, bounds=(0.01, 0.5)) == 0.5


# ---------------------------------------------------------------------------
# Sec. 4.1: alternating optimization
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def survey_fit(survey):
    return OptimalESS("auto").fit(survey)


def bdeu(data, alpha, names=None):
    return MinBDeu(data, equivalent_sample_size=alpha, epsilon=0.0, state_names=names)


def test_alternating_optimization_converges_to_a_fixed_point(survey, survey_fit):
    est = survey_fit
    assert est.converged_ and est.method_ == "dp"  # "auto": the policy's exact engine
    alphas = [step.alpha for step in est.history_]
    assert len(alphas) == est.n_iter_ + 1 >= 3  # it did move before settling
    assert abs(alphas[-1] - alphas[-2]) < est.tol
    assert all(abs(b - a) >= est.tol for a, b in itertools.pairwise(alphas[:-1]))
    assert est.alpha_ == alphas[-1] and est.dag_ is est.history_[-1].dag
    # round 0 is the BIC-optimal graph
    bic = BIC(survey)
    assert bic.score(est.history_[0].dag) == pytest.approx(
        ExactSearch(bic, show_progress=False).fit(survey).score_, abs=1e-8
    )
    # every round's alpha is Eq. 18 of its graph, and its score is BDeu at that alpha
    for step in est.history_:
        assert isinstance(step, ESSStep)
        assert step.alpha == pytest.approx(optimal_ess(survey, step.dag), rel=1e-12)
        assert step.score == pytest.approx(bdeu(survey, step.alpha).score(step.dag), abs=1e-8)
    # every round's graph is optimal for the previous round's alpha, and the final
    # graph is optimal for the final alpha
    for prev, step in itertools.pairwise(est.history_):
        best = ExactSearch(bdeu(survey, prev.alpha), show_progress=False).fit(survey)
        assert bdeu(survey, prev.alpha).score(step.dag) == pytest.approx(best.score_, abs=1e-8)
    best = ExactSearch(bdeu(survey, est.alpha_), show_progress=False).fit(survey)
    assert est.score_ == pytest.approx(best.score_, abs=1e-8)


def test_alternating_optimization_with_hill_climbing_and_auto(survey, survey_fit):
    hill = OptimalESS("hill").fit(survey)
    assert hill.converged_ and hill.method_ == "hill"
    assert abs(hill.history_[-1].alpha - hill.history_[-2].alpha) < hill.tol
    assert hill.alpha_ == pytest.approx(optimal_ess(survey, hill.dag_), rel=1e-12)
    assert hill.score_ <= survey_fit.score_ + 1e-8 or hill.alpha_ != survey_fit.alpha_
    auto = OptimalESS(max_iter=1, tol=100.0).fit(survey)
    assert auto.method_ == "dp" and auto.n_iter_ == 1  # "auto": the policy's choice


def test_exact_coordinate_ascent_never_decreases_the_marginal_likelihood(survey):
    est = OptimalESS("auto", update="marginal_likelihood").fit(survey)
    assert est.converged_
    scores = [step.score for step in est.history_]
    assert all(b >= a - 1e-9 for a, b in itertools.pairwise(scores))
    assert est.alpha_ == pytest.approx(marginal_likelihood_ess(survey, est.dag_), rel=1e-6)


def test_alternating_optimization_with_declared_unobserved_states(survey):
    names = {c: [*survey[c].cat.categories, "never"] if c == "E" else None for c in survey}
    names = {c: s for c, s in names.items() if s is not None}
    est = OptimalESS("auto", state_names=names).fit(survey)
    assert est.converged_
    assert est.alpha_ == pytest.approx(optimal_ess(survey, est.dag_, state_names=names))
    best = ExactSearch(bdeu(survey, est.alpha_, names), show_progress=False).fit(survey)
    assert bdeu(survey, est.alpha_, names).score(est.dag_) == pytest.approx(best.score_, abs=1e-8)


def test_not_converging_warns(survey):
    with pytest.warns(RuntimeWarning, match="did not converge"):
        est = OptimalESS("auto", max_iter=1, tol=1e-6).fit(survey)
    assert not est.converged_ and est.n_iter_ == 1 and len(est.history_) == 2


# ---------------------------------------------------------------------------
# input validation
# ---------------------------------------------------------------------------


def test_uniformity_and_bayes_factor_validation():
    with pytest.raises(ValueError, match="3-D table"):
        uniformity(np.ones(4))
    with pytest.raises(ValueError, match="non-negative"):
        uniformity([[1, -1], [1, 1]])
    with pytest.raises(ValueError, match="non-negative"):
        uniformity([[1, np.nan], [1, 1]])
    with pytest.raises(ValueError, match="sum to zero"):
        uniformity(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="empty axis"):
        uniformity(np.zeros((0, 2, 2)))
    with pytest.raises(TypeError, match="numeric"):
        uniformity([["a", "b"], ["c", "d"]])
    with pytest.raises(ValueError, match="smaller than"):
        uniformity(np.ones((3, 2, 2)), n_parent_configs=2)
    with pytest.raises(ValueError, match="n_parent_configs"):
        uniformity(np.ones((2, 2)), n_parent_configs=0)
    for bad in (0, -1.0, math.inf, math.nan):
        with pytest.raises(ValueError, match="equivalent_sample_size"):
            large_ess_log_bayes_factor([[1, 2], [3, 4]], bad)
    for bad in (True, "10", None):
        with pytest.raises(TypeError, match="equivalent_sample_size"):
            large_ess_log_bayes_factor([[1, 2], [3, 4]], bad)


def test_pair_counts_validation(survey):
    with pytest.raises(ValueError, match="two different variables"):
        pair_counts(survey, "A", "A")
    with pytest.raises(TypeError, match="given must be a list"):
        pair_counts(survey, "A", "E", given="S")
    with pytest.raises(ValueError, match="Unknown variable"):
        pair_counts(survey, "A", "nope")
    with pytest.raises(ValueError, match="among its own parents"):
        pair_counts(survey, "A", "E", given=["A"])


def test_graph_validation(survey):
    full = DAG()
    full.add_nodes_from(survey.columns)
    with pytest.raises(ValueError, match="not nodes of the graph"):
        optimal_ess(survey, DAG([("A", "E")]))
    extra = full.copy()
    extra.add_node("Z")
    with pytest.raises(ValueError, match="not columns of the data"):
        optimal_ess(survey, extra)
    cyclic = nx.DiGraph([("A", "E"), ("E", "A")])
    cyclic.add_nodes_from(survey.columns)
    with pytest.raises(ValueError, match="cycle"):
        optimal_ess(survey, cyclic)
    with pytest.raises(ValueError, match="cycle"):
        marginal_likelihood_ess(survey, cyclic)
    with pytest.raises(TypeError, match="dag must be"):
        optimal_ess(survey, [("A", "E")])
    with pytest.raises(TypeError, match="DataFrame"):
        optimal_ess(survey.to_numpy(), full)
    for bad in ((1.0,), (0.0, 1.0), (5.0, 1.0)):
        with pytest.raises((TypeError, ValueError), match="bounds"):
            marginal_likelihood_ess(survey, full, bounds=bad)


@pytest.mark.parametrize(
    ("params", "error", "match"),
    [
        ({"method": "greedy"}, ValueError, "method must be one of"),
        ({"update": "eq17"}, ValueError, "update must be one of"),
        ({"tol": 0}, ValueError, "tol"),
        ({"tol": "0.1"}, TypeError, "tol"),
        ({"max_iter": 0}, ValueError, "max_iter"),
        ({"max_iter": 2.5}, ValueError, "max_iter"),
        ({"max_parents": -1}, ValueError, "max_parents"),
        ({"bounds": (1.0, 0.5)}, ValueError, "bounds"),
    ],
)
def test_optimal_ess_estimator_validation(survey, params, error, match):
    est = OptimalESS(**params)
    with pytest.raises(error, match=match):
        est.fit(survey)
    assert not hasattr(est, "alpha_")


def test_degenerate_data_give_a_clear_error():
    # exactly uniform and independent: Eq. 18 is infinite
    data = pd.DataFrame({"A": [0, 1] * 50, "B": [0, 0, 1, 1] * 25})
    assert optimal_ess(data, DAG([("A", "B")])) == math.inf
    with pytest.raises(ValueError, match="exactly uniform"):
        OptimalESS("auto").fit(data)
    # constant columns: no free parameter is fitted (d_eff = 0), so Eq. 18 is 0
    const = pd.DataFrame({"A": [0] * 10, "B": [1] * 10})
    graph = DAG()
    graph.add_nodes_from(["A", "B"])
    assert optimal_ess(const, graph) == 0.0
    with pytest.raises(ValueError, match="single child state"):
        OptimalESS("auto").fit(const)
    # a declared, unobserved state of A makes the prior non-uniform relative to the data
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert optimal_ess(data, DAG([("A", "B")]), state_names={"A": [0, 1, 2]}) > 0
