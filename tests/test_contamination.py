"""Tests for the BD / Min-BDeu / Max-BDeu numerical kernels."""

import math

import _reference as ref
import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import minimize
from scipy.special import digamma, gammaln

from pgmpy_nml.numerics.polygamma import harmonic_sums
from pgmpy_nml.scores._contamination import (
    max_bdeu_prior,
    max_bdeu_rows,
    min_bdeu_prior,
    min_bdeu_rows,
)
from pgmpy_nml.scores._dirichlet import log_bd_rows

# ---------------------------------------------------------------------------
# helpers (independent, slow reference implementations)
# ---------------------------------------------------------------------------


def bounds(beta, eps, r):
    """L, U; U = beta (eps + (1-eps)/r) evaluated as L + beta eps (exact at eps = 0, 1)."""
    lo = beta * (1 - eps) / r
    return lo, lo + beta * eps


def f_part(n, alpha):
    """alpha-dependent part f(alpha) of one row (vectorized over leading axes of alpha)."""
    n = np.asarray(n, dtype=float)
    alpha = np.asarray(alpha, dtype=float)
    m = n > 0
    return np.sum(gammaln(alpha[..., m] + n[m]) - gammaln(alpha[..., m]), axis=-1)


def d_mp(a, n):
    """d(a) = psi(a+n) - psi(a) in high precision (40 digits beyond those of a)."""
    with mpmath.workdps(40 + max(0, int(math.log10(a))) if a > 0 else 40):
        return float(mpmath.digamma(mpmath.mpf(a) + n) - mpmath.digamma(mpmath.mpf(a)))


def random_feasible(rng, r, lo, up, size):
    """Random points of A: convex combinations (Dirichlet weights) of the r vertices."""
    w = rng.dirichlet(np.full(r, 0.7), size=size)
    return lo + (up - lo) * w


def random_table(rng, q, r, nmax, p_zero=0.3):
    counts = rng.integers(0, nmax + 1, size=(q, r))
    counts[rng.random((q, r)) < p_zero] = 0
    if q > 1:
        counts[rng.integers(q)] = 0  # an all-zero row
    return counts


def assert_feasible(alpha, beta, eps):
    r = alpha.shape[1]
    lo, up = bounds(beta, eps, r)
    assert np.all(alpha >= lo) and np.all(alpha <= up)
    np.testing.assert_allclose(alpha.sum(axis=1), beta, rtol=8e-16 * r, atol=0)


def optimal_prior_case(rng, kind, q, r, sizes, p_zero, betas, eps_range):
    """A random table, beta and eps; the Min- or Max-BDeu prior (checked feasible) and
    row scores. Returns counts, beta, L, U, alpha, rows."""
    counts = random_table(rng, q, r, int(rng.choice(sizes)), p_zero=p_zero)
    beta, eps = float(rng.choice(betas)), float(rng.uniform(*eps_range))
    lo, up = bounds(beta, eps, r)
    prior, rows = (
        (min_bdeu_prior, min_bdeu_rows) if kind == "min" else (max_bdeu_prior, max_bdeu_rows)
    )
    alpha = prior(counts, beta, eps)
    assert_feasible(alpha, beta, eps)
    return counts, beta, lo, up, alpha, rows(counts, beta, eps)


def check_kkt(n, alpha, lo, up, rtol=1e-9):
    """KKT of max f: free coords share d_k = lam, at U: d_k >= lam, at L: d_k <= lam."""
    n = np.asarray(n)
    pos = n > 0
    if pos.sum() < 2:
        return
    d = np.array([d_mp(a, k) if k > 0 else 0.0 for a, k in zip(alpha, n, strict=True)])
    free = pos & (alpha > lo) & (alpha < up)
    at_up = pos & (alpha == up)
    at_lo = pos & (alpha == lo)
    assert np.all(free | at_up | at_lo | ~pos)
    assert np.all(alpha[~pos] == lo)
    if free.any():
        lam = np.median(d[free])
        np.testing.assert_allclose(d[free], lam, rtol=rtol)
    else:  # lam lies between the largest d at L and the smallest d at U
        lam = 0.5 * (d[at_up].min() + d[at_lo].max()) if at_lo.any() else d[at_up].min()
    assert np.all(d[at_up] >= lam * (1 - rtol))
    assert np.all(d[at_lo] <= lam * (1 + rtol))


# ---------------------------------------------------------------------------
# log_bd_rows
# ---------------------------------------------------------------------------


def test_log_bd_rows_matches_slow():
    rng = np.random.default_rng(0)
    for _ in range(60):
        q, r = int(rng.integers(1, 9)), int(rng.integers(1, 6))
        counts = random_table(rng, q, r, int(rng.choice([3, 50, 2000])))
        alpha = rng.gamma(0.5, 2.0, size=(q, r)) + 1e-3
        alpha[(counts == 0) & (rng.random((q, r)) < 0.3)] = 0.0  # zero prior on empty cells
        alpha[:, 0] += 1e-3  # keep row sums positive
        for a in (alpha, 0.37, rng.uniform(0.01, 3.0, size=r), np.float64(1e-9)):
            got = log_bd_rows(counts, a)
            want = ref.bd_rows(counts, a)
            assert got.shape == (q,) and got.dtype == np.float64
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-11)
            assert np.all(got[counts.sum(axis=1) == 0] == 0.0)


@pytest.mark.parametrize("alpha", [1e-300, 1e-18, 1e-8, 0.5, 1e3, 1e8, 1e16, 1e20, 1e100, 1e300])
def test_log_bd_rows_vs_mpmath_for_any_prior_mass(alpha):
    """The definition in mpmath; a float64 lgamma difference fails from alpha ~ 1e8 on.

    The row sums terms of size ~ N_k |log alpha_k| into a result of size ~ N log r, so
    the relative error grows like 1e-16 * |log alpha| (measured up to 2.5e-13 at 1e300).
    """
    rng = np.random.default_rng(8)
    counts = random_table(rng, 7, 3, 10**4)
    counts[1] = [0, 3, 2]
    weights = rng.uniform(0.2, 1.0, size=(7, 3))
    rtol = 4e-15 * (8.0 + abs(math.log(alpha)))
    for a in (np.full((7, 3), alpha), alpha * weights):
        got = log_bd_rows(counts, a)
        want = [
            float(ref.bd_row(list(row), p, exact=True)) for row, p in zip(counts, a, strict=True)
        ]
        assert np.all(got <= 0.0)
        np.testing.assert_array_equal(got[counts.sum(axis=1) == 0], 0.0)
        np.testing.assert_allclose(got, want, rtol=rtol, atol=0)


def test_log_bd_rows_degenerate_prior_and_known_value():
    # alpha = 0 on a cell with data: probability zero
    assert log_bd_rows(np.array([[1, 2]]), np.array([[0.0, 1.0]]))[0] == -np.inf
    # one observation of state k: log(alpha_k / beta)
    got = log_bd_rows(np.array([[0, 1, 0]]), np.array([[0.2, 0.3, 0.5]]))
    assert got[0] == pytest.approx(math.log(0.3), rel=1e-15)
    with pytest.raises(ValueError):
        log_bd_rows(np.array([1, 2]), 1.0)


# ---------------------------------------------------------------------------
# harmonic sums of the Max-BDeu solver
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("b", "m"),
    [
        (1.0, 1),
        (0.3, 63),
        (1e-12, 64),
        (1e-12, 65),
        (0.5, 1000),
        (7.3, 10**7),
        (1e6, 100),
        (1e8, 65),
        (123.4, 5000),
        (2.5, 200),
    ],
)
def test_harmonic_sums_vs_mpmath(b, m):
    s1, s2 = harmonic_sums(b, m)
    with mpmath.workdps(40):
        bb = mpmath.mpf(b)
        w1 = mpmath.digamma(bb + m) - mpmath.digamma(bb)
        w2 = mpmath.psi(1, bb) - mpmath.psi(1, bb + m)
    assert s1 == pytest.approx(float(w1), rel=2e-15)
    assert s2 == pytest.approx(float(w2), rel=2e-15)


# ---------------------------------------------------------------------------
# Min-BDeu
# ---------------------------------------------------------------------------


def test_min_prior_closed_form_and_brute_force():
    rng = np.random.default_rng(2)
    for _ in range(40):
        q, r = int(rng.integers(1, 7)), int(rng.integers(2, 7))
        counts, _, lo, up, alpha, vals = optimal_prior_case(
            rng, "min", q, r, [4, 100, 1000], 0.15, [0.05, 1.0, 4.0], (0.05, 0.95)
        )
        np.testing.assert_array_equal(vals, log_bd_rows(counts, alpha))
        for j in range(q):
            kstar = min(range(r), key=lambda k, j=j: (counts[j, k], k))  # paper: argmin N_jk
            expect = np.full(r, lo)
            expect[kstar] = up
            np.testing.assert_array_equal(alpha[j], expect)
            # all r vertices of A
            verts = np.full((r, r), lo) + (up - lo) * np.eye(r)
            vv = ref.bd_rows(np.repeat(counts[j : j + 1], r, axis=0), verts)
            assert abs(vals[j] - vv.min()) <= 1e-12 * max(1.0, abs(vv.min()))
            # random points of A are never better (i.e. lower)
            pts = random_feasible(rng, r, lo, up, 200)
            assert vals[j] <= log_bd_rows(np.repeat(counts[j : j + 1], 200, 0), pts).min() + 1e-12


def test_min_prior_ties_take_smallest_index():
    alpha = min_bdeu_prior(np.array([[5, 2, 2, 7], [3, 3, 3, 3], [0, 0, 1, 0]]), 2.0, 0.5)
    assert list(np.argmax(alpha, axis=1)) == [1, 0, 0]


# ---------------------------------------------------------------------------
# Max-BDeu against a generic optimizer
# ---------------------------------------------------------------------------


def _scipy_max(n, beta, lo, up, starts):
    n = np.asarray(n, dtype=float)
    m = n > 0

    def obj(a):
        return -f_part(n, a)

    def grad(a):
        g = np.zeros_like(a)
        g[m] = -(digamma(a[m] + n[m]) - digamma(a[m]))
        return g

    best = None
    cons = [{"type": "eq", "fun": lambda a: a.sum() - beta, "jac": lambda a: np.ones_like(a)}]
    for x0 in starts:
        res = minimize(
            obj,
            x0,
            jac=grad,
            method="SLSQP",
            bounds=[(lo, up)] * len(n),
            constraints=cons,
            options={"ftol": 1e-12, "maxiter": 500},
        )
        if res.success and (best is None or res.fun < best.fun):
            best = res
    return best


def test_max_prior_vs_scipy_optimizer():
    rng = np.random.default_rng(3)
    n_cmp = 0
    for _ in range(45):
        r = int(rng.integers(2, 7))
        q = 4
        counts, beta, lo, up, alpha, vals = optimal_prior_case(
            rng, "max", q, r, [3, 30, 1000], 0.2, [0.2, 1.0, 5.0], (0.1, 0.9)
        )
        np.testing.assert_allclose(vals, ref.bd_rows(counts, alpha), rtol=1e-12, atol=1e-12)
        for j in range(q):
            n = counts[j]
            check_kkt(n, alpha[j], lo, up)
            pts = random_feasible(rng, r, lo, up, 300)
            ours = f_part(n, alpha[j])
            assert ours >= f_part(n, pts).max() - 1e-12 * max(1.0, abs(ours))
            if (n > 0).sum() < 2:
                continue
            starts = [np.full(r, beta / r), *random_feasible(rng, r, lo, up, 2)]
            res = _scipy_max(n, beta, lo, up, starts)
            assert res is not None
            assert ours >= -res.fun - 1e-9
            if -res.fun >= ours - 1e-9:  # optimizer reached the optimum: same point
                np.testing.assert_allclose(res.x, alpha[j], atol=1e-5)
                n_cmp += 1
    assert n_cmp > 60


def test_max_prior_kkt_wide_range():
    rng = np.random.default_rng(4)
    for beta in (1e-12, 1e-3, 1.0, 50.0, 1e16 / 6, 1e20, 1e100, 1e200, 1e300):
        for eps in (1e-9, 0.01, 0.5, 1.0):
            counts = random_table(rng, 6, 4, 10**5, p_zero=0.25)
            counts[0] = [1, 1, 1, 10**7]
            alpha = max_bdeu_prior(counts, beta, eps)
            assert_feasible(alpha, beta, eps)
            lo, up = bounds(beta, eps, 4)
            for j in range(6):
                check_kkt(counts[j], alpha[j], lo, up, rtol=1e-11)


# ---------------------------------------------------------------------------
# ordering and epsilon -> 0
# ---------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    data=st.data(),
    r=st.integers(2, 5),
    q=st.integers(1, 4),
    beta=st.floats(1e-3, 20.0),
    eps=st.floats(0.0, 1.0),
)
def test_min_le_bdeu_le_max(data, r, q, beta, eps):
    cells = st.integers(0, 40)
    counts = np.array(
        data.draw(st.lists(st.lists(cells, min_size=r, max_size=r), min_size=q, max_size=q))
    )
    bdeu = log_bd_rows(counts, beta / r)
    lo_v = min_bdeu_rows(counts, beta, eps)
    hi_v = max_bdeu_rows(counts, beta, eps)
    tol = 1e-12 * np.maximum(1.0, np.abs(bdeu))
    assert np.all(lo_v <= bdeu + tol)
    assert np.all(bdeu <= hi_v + tol)
    assert_feasible(max_bdeu_prior(counts, beta, eps), beta, eps)


def test_eps_zero_is_bdeu_and_small_eps_converges():
    rng = np.random.default_rng(5)
    counts = random_table(rng, 12, 3, 200)
    beta = 0.7
    bdeu = log_bd_rows(counts, beta / 3)
    for prior in (min_bdeu_prior, max_bdeu_prior):
        np.testing.assert_allclose(prior(counts, beta, 0.0), beta / 3, rtol=1e-15)
    np.testing.assert_allclose(min_bdeu_rows(counts, beta, 0.0), bdeu, rtol=1e-14)
    np.testing.assert_allclose(max_bdeu_rows(counts, beta, 0.0), bdeu, rtol=1e-14)
    gaps = []
    for eps in (1e-3, 1e-6):
        lo_v, hi_v = min_bdeu_rows(counts, beta, eps), max_bdeu_rows(counts, beta, eps)
        assert np.all(lo_v <= bdeu + 1e-12) and np.all(bdeu <= hi_v + 1e-12)
        gaps.append(np.max(hi_v - lo_v))
    assert gaps[0] < 0.1 and gaps[1] < 1e-4 and gaps[1] < 2e-3 * gaps[0]


# ---------------------------------------------------------------------------
# edge cases
# ---------------------------------------------------------------------------


def _mp_max_r2(n1, n2, beta, lo, up):
    """Exact 2-state maximizer: root of h_1(a) = h_2(beta - a), h = 1/d (high precision).

    h_k = 1 / (psi(a + n_k) - psi(a)) is increasing with h_k(0) = 0, so
    G(a) = h_1(a) - h_2(beta - a) is increasing on the feasible interval of alpha_1.
    """
    dps = 60 + max(0, int(math.log10(beta)))  # a + n_k exact, 60 digits to spare
    with mpmath.workdps(dps):
        b = mpmath.mpf(beta)

        def h(a, n):
            return mpmath.mpf(0) if a == 0 else 1 / (mpmath.digamma(a + n) - mpmath.digamma(a))

        def g(a):
            return h(a, n1) - h(b - a, n2)

        a_min = max(mpmath.mpf(lo), b - mpmath.mpf(up))
        a_max = min(mpmath.mpf(up), b - mpmath.mpf(lo))
        if g(a_min) >= 0:
            return float(a_min)
        if g(a_max) <= 0:
            return float(a_max)
        for _ in range(max(400, 4 * dps)):  # bisection: slow but certain
            mid = (a_min + a_max) / 2
            if g(mid) < 0:
                a_min = mid
            else:
                a_max = mid
        return float((a_min + a_max) / 2)


@pytest.mark.parametrize(
    ("n1", "n2", "beta", "eps"),
    [
        (3, 5, 1.0, 0.5),
        (1, 10**7, 1.0, 0.5),
        (10**7, 2 * 10**7, 1.0, 1.0),
        (2, 9, 1e-12, 0.8),
        (40, 7, 1.0 / 2**60, 0.5),
        (10**7, 1, 1.0 / 2**60, 1.0),
        (5, 5, 3.0, 1.0),
        (700, 100, 1e3, 0.3),
        # huge prior mass: alpha_k ~ N_k t - (N_k - 1)/2; from 1e154 on 1/alpha**2 underflows
        (3, 5, 1e16, 0.5),
        (1, 10**7, 1e20, 1.0),
        (10**6, 10**6 + 1, 1e20, 0.5),
        (700, 100, 1e100, 0.3),
        (3, 5, 1e200, 1.0),
        (10**7, 2, 1e300, 0.5),
        (2, 2, 1e300, 0.5),
    ],
)
def test_max_prior_two_states_exact(n1, n2, beta, eps):
    lo, up = bounds(beta, eps, 2)
    alpha = max_bdeu_prior(np.array([[n1, n2]]), beta, eps)
    assert_feasible(alpha, beta, eps)
    want = _mp_max_r2(n1, n2, beta, lo, up)
    assert alpha[0, 0] == pytest.approx(want, rel=1e-13)
    assert np.isfinite(max_bdeu_rows(np.array([[n1, n2]]), beta, eps)[0])


def test_edge_cases():
    # r = 1: the only prior is beta; score is 0 whatever the data
    c1 = np.array([[0], [5], [10**7]])
    for prior in (min_bdeu_prior, max_bdeu_prior):
        np.testing.assert_array_equal(prior(c1, 0.3, 0.5), 0.3)
    np.testing.assert_allclose(max_bdeu_rows(c1, 0.3, 0.5), 0.0, atol=1e-6)
    np.testing.assert_allclose(min_bdeu_rows(c1, 0.3, 0.5), 0.0, atol=1e-6)

    # all-zero rows: symmetric prior for max, value exactly 0 for both
    c0 = np.zeros((3, 4), dtype=np.int64)
    np.testing.assert_array_equal(max_bdeu_prior(c0, 1.0, 0.5), 0.25)
    assert np.all(max_bdeu_rows(c0, 1.0, 0.5) == 0.0) and np.all(min_bdeu_rows(c0, 1.0, 0.5) == 0.0)

    # a single non-zero cell: max puts U there (value 0 when eps = 1)
    cs = np.array([[0, 0, 9, 0]])
    lo, up = bounds(2.0, 0.4, 4)
    np.testing.assert_array_equal(max_bdeu_prior(cs, 2.0, 0.4), [[lo, lo, up, lo]])
    assert max_bdeu_rows(cs, 2.0, 1.0)[0] == 0.0

    # eps = 1 (L = 0): empty cells get exactly 0, others positive; Min-BDeu degenerates
    ce = np.array([[0, 3, 1, 0], [2, 2, 2, 2], [0, 0, 0, 4]])
    a = max_bdeu_prior(ce, 1.0, 1.0)
    assert_feasible(a, 1.0, 1.0)
    assert np.all(a[ce == 0] == 0.0) and np.all(a[ce > 0] > 0.0)
    np.testing.assert_allclose(a[1], 0.25, rtol=1e-14)  # symmetric counts, symmetric optimum
    assert np.all(np.isfinite(max_bdeu_rows(ce, 1.0, 1.0)))
    assert np.all(min_bdeu_rows(ce, 1.0, 1.0) == -np.inf)

    # tiny beta and huge counts: still feasible, KKT, and at least the BDeu value
    rng = np.random.default_rng(6)
    ch = rng.integers(0, 10**7, size=(20, 3))
    ch[:5] = rng.integers(0, 3, size=(5, 3))
    for beta in (1e-12, 10.0 / 2**60):
        for eps in (0.5, 1.0):
            a = max_bdeu_prior(ch, beta, eps)
            assert_feasible(a, beta, eps)
            lo, up = bounds(beta, eps, 3)
            for j in (0, 3, 7, 19):
                check_kkt(ch[j], a[j], lo, up, rtol=1e-11)
            bdeu = log_bd_rows(ch, beta / 3)
            assert np.all(max_bdeu_rows(ch, beta, eps) >= bdeu - 1e-9 * np.abs(bdeu))
            assert np.all(min_bdeu_rows(ch, beta, 0.5) <= bdeu + 1e-9 * np.abs(bdeu))


def test_input_shape_checks_and_dtypes():
    with pytest.raises(ValueError):
        max_bdeu_prior(np.array([1, 2, 3]), 1.0, 0.5)
    with pytest.raises(ValueError):
        min_bdeu_prior(np.zeros((2, 2, 2), dtype=int), 1.0, 0.5)
    a = max_bdeu_prior([[1, 2], [3, 0]], 1.0, 0.5)  # lists and int32 are accepted
    b = max_bdeu_prior(np.array([[1, 2], [3, 0]], dtype=np.int32), 1.0, 0.5)
    np.testing.assert_array_equal(a, b)
    empty = np.zeros((0, 3), dtype=int)
    assert max_bdeu_prior(empty, 1.0, 0.5).shape == (0, 3)
    assert min_bdeu_rows(empty, 1.0, 0.5).shape == max_bdeu_rows(empty, 1.0, 0.5).shape == (0,)
    # non-contiguous input
    big = np.random.default_rng(7).integers(0, 9, size=(4, 6))
    np.testing.assert_array_equal(
        max_bdeu_prior(big.T, 1.0, 0.5), max_bdeu_prior(big.T.copy(), 1.0, 0.5)
    )
