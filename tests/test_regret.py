"""Tests for :mod:`pgmpy_nml.numerics.regret` (multinomial NML normalizer log C(K, n)).

References used here are independent of the implementation (which sums the
2F0 representation in float64 with multiplicative term updates):

* brute-force enumeration of the definition in exact rational arithmetic;
* the Lagrange-inversion sum C = n!/n^n K/n sum_j binom(K+j, j) n^(n-1-j)/(n-1-j)!
  in mpmath (n <= ~2e4), from tests/_reference.py;
* mpmath quadrature of C = Gamma(K-1)^-1 int_0^inf y^(K-2) e^-y (1 + y/n)^n dy
  (any n; working precision grows with log10(K + n));
* for K >> n^2, the closed form t_n = Gamma(K-1+n)/(Gamma(K-1) n^n) of the
  dominant last term times a short mpmath correction sum;
* mpmath.hyp2f0(-n, K-1; -1/n) for small n.
"""

from __future__ import annotations

import doctest
import math
from fractions import Fraction
from math import comb, factorial

import mpmath as mp
import numpy as np
import pytest
from _reference import compositions, log_regret_lagrange
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.special import gammaln

import pgmpy_nml.numerics.regret as regret_module
from pgmpy_nml.numerics.regret import (
    _log_regret_many,
    _log_regret_recurrence,
    _log_regret_scalar,
    _log_regret_sum,
    log_regret,
    log_regret_szpankowski,
    regret,
)

REL_TOL = 1e-9  # the accuracy contract of log_regret


# --------------------------------------------------------------------------------------
# Independent references
# --------------------------------------------------------------------------------------
def brute_force_C(K: int, n: int) -> Fraction:
    """C(K, n) from the definition, exactly (0^0 = 1)."""
    if n == 0:
        return Fraction(1)
    total = Fraction(0)
    for ks in compositions(n, K):
        coef = factorial(n)
        prob = Fraction(1)
        for k in ks:
            coef //= factorial(k)
            prob *= Fraction(k, n) ** k
        total += coef * prob
    return total


def ref_quad(K: int, n: int) -> mp.mpf:
    """log C via quadrature of the Gamma-type integral, centred on its peak."""
    if n == 0 or K == 1:
        return mp.mpf(0)
    dps = 40 + int(2 * math.log10(float(K) + n))
    with mp.workdps(dps):
        Km, nm = mp.mpf(K), mp.mpf(n)
        a = Km - 2

        def f(y):
            r = -y + nm * mp.log1p(y / nm)
            return r + a * mp.log(y) if a != 0 else r

        y_star = (a + mp.sqrt(a * a + 4 * nm * a)) / 2  # f'(y*) = 0
        if y_star == 0:
            sigma = mp.sqrt(nm)
        else:
            sigma = 1 / mp.sqrt(a / y_star**2 + 1 / (nm * (1 + y_star / nm) ** 2))
        f_star = f(y_star) if y_star > 0 else mp.mpf(0)

        def g(u):
            y = y_star + sigma * u
            if y <= 0:
                return mp.mpf(0) if a != 0 else mp.mpf(1)
            return mp.exp(f(y) - f_star)

        lo = max(-y_star / sigma, mp.mpf(-60))
        pts = [lo] + [u for u in (-40, -20, -10, -5, -2, 0, 2, 5, 10, 20, 40) if u > lo]
        integral = mp.quad(g, [*pts, mp.inf])
        lg = mp.loggamma(Km - 1) if K > 2 else 0
        return f_star + mp.log(sigma) + mp.log(integral) - lg


def ref_top(K: int, n: int) -> mp.mpf:
    """log C for K >> n^2: closed form of the last term times a correction sum."""
    assert n >= 1 and K > 1e6 * n * n
    dps = 40 + int(math.log10(float(K)))
    with mp.workdps(dps):
        Km, nm = mp.mpf(K), mp.mpf(n)
        log_tn = mp.loggamma(Km - 1 + nm) - mp.loggamma(Km - 1) - nm * mp.log(nm)
        s = term = mp.mpf(1)
        for i in range(1, n + 1):  # t_{n-i} / t_n
            term = term * nm * (nm - i + 1) / (i * (Km - 1 + nm - i))
            s += term
            if term < mp.mpf(10) ** (-dps):
                break
        return log_tn + mp.log(s)


def reference(K: int, n: int) -> mp.mpf:
    if n == 0 or K == 1:
        return mp.mpf(0)
    if K > 1e6 * n * n:
        return ref_top(K, n)
    return ref_quad(K, n)


def rel_err(value: float, ref) -> float:
    ref = float(ref)
    if ref == 0.0:
        return abs(value)
    return abs(value - ref) / abs(ref)


# --------------------------------------------------------------------------------------
# Exact small cases
# --------------------------------------------------------------------------------------
BRUTE_CASES = [(K, n) for K in range(1, 6) for n in range(0, 9)] + [
    (7, 5),
    (6, 6),
    (8, 4),
    (10, 3),
]


@pytest.mark.parametrize(("K", "n"), BRUTE_CASES)
def test_matches_brute_force_enumeration(K, n):
    exact = brute_force_C(K, n)
    expected = math.log(exact)
    got = log_regret(K, n)
    assert isinstance(got, float)
    if expected == 0.0:
        assert got == 0.0
    else:
        assert got == pytest.approx(expected, rel=1e-12, abs=0)
    assert regret(K, n) == pytest.approx(float(exact), rel=1e-12)


def test_representations_agree_exactly_with_definition():
    """Representations (a) and (b) are exact identities (rational arithmetic)."""
    for K in range(1, 6):
        for n in range(1, 8):
            brute = brute_force_C(K, n)
            rep_a = sum(
                Fraction(factorial(n), factorial(n - k) * n**k)
                * (comb(K - 2 + k, k) if K >= 2 else int(k == 0))
                for k in range(n + 1)
            )
            rep_b = Fraction(factorial(n), n**n) * Fraction(K, n)
            rep_b *= sum(
                Fraction(comb(K + j, j) * n ** (n - 1 - j), factorial(n - 1 - j)) for j in range(n)
            )
            assert rep_a == brute
            assert rep_b == brute


def test_special_values():
    assert log_regret(1, 0) == 0.0
    for n in (0, 1, 2, 17, 10**4, 10**7):
        assert log_regret(1, n) == 0.0  # C(1, n) = 1
    for K in (1, 2, 3, 10, 256, 2**20, 2**40, 2**60, 10**200):
        assert log_regret(K, 0) == 0.0  # C(K, 0) = 1
        assert log_regret(K, 1) == pytest.approx(math.log(K), rel=1e-15)  # C(K, 1) = K
    # C(2, 2) = 5/2, C(3, 2) = 9/2, C(2, 3) = 26/9
    assert log_regret(2, 2) == pytest.approx(math.log(2.5), rel=1e-15)
    assert log_regret(3, 2) == pytest.approx(math.log(4.5), rel=1e-15)
    assert log_regret(2, 3) == pytest.approx(math.log(26 / 9), rel=1e-15)
    # C(3, n) = C(2, n) + n (recurrence with C(1, n) = 1)
    for n in (5, 1000, 10**6):
        assert math.exp(log_regret(3, n)) == pytest.approx(math.exp(log_regret(2, n)) + n, 1e-13)


# --------------------------------------------------------------------------------------
# Recurrence C(K+2, n) = C(K+1, n) + n/K C(K, n)
# --------------------------------------------------------------------------------------
def _recurrence_residual(K: int, ns: np.ndarray) -> np.ndarray:
    ns = np.asarray(ns, dtype=np.int64)
    l0, l1, l2 = (log_regret(K + d, ns) for d in range(3))
    with np.errstate(divide="ignore"):
        rhs = np.logaddexp(l1, np.log(ns / K) + l0)
    rhs = np.where(ns == 0, 0.0, rhs)
    return np.abs(l2 - rhs) / np.maximum(np.abs(rhs), 1e-300)


def test_recurrence_grid():
    ns = np.unique(np.concatenate([np.arange(0, 60), np.geomspace(60, 2000, 80).astype(int)]))
    worst = 0.0
    for K in range(1, 49):
        res = _recurrence_residual(K, ns)
        worst = max(worst, float(res[ns > 0].max()))
    assert worst < 1e-13


@settings(max_examples=60, deadline=None)
@given(K=st.integers(1, 10**6), n=st.integers(0, 20_000))
def test_recurrence_property(K, n):
    assert _recurrence_residual(K, np.array([n]))[0] < 1e-12


@settings(max_examples=60, deadline=None)
@given(K=st.integers(1, 2**50), n=st.integers(0, 5_000))
def test_monotone_property(K, n):
    here = log_regret(K, n)
    assert log_regret(K + 1, n) >= here
    assert log_regret(K, n + 1) >= here
    if n >= 1 and K < 2**40:
        assert log_regret(K + 1, n) > here
    if K >= 2:
        assert log_regret(K, n + 1) > here


def test_monotone_grids():
    for K in (2, 3, 10, 256, 2**40):
        vals = log_regret(K, np.arange(0, 3000))
        assert np.all(np.diff(vals) > 0)
    for n in (1, 2, 50, 1000):
        vals = np.array([log_regret(K, n) for K in range(1, 400)])
        assert np.all(np.diff(vals) > 0)


# --------------------------------------------------------------------------------------
# High-precision references
# --------------------------------------------------------------------------------------
LAGRANGE_CASES = [
    (2, 20_000),
    (3, 5_000),
    (10, 1_000),
    (256, 100),  # K >> n
    (1000, 1000),  # K ~ n
    (2**20, 20_000),
    (2**60, 1000),  # K >> n
    (10**200, 50),
]


@pytest.mark.parametrize(("K", "n"), LAGRANGE_CASES)
def test_against_lagrange_sum(K, n):
    ref = log_regret_lagrange(K, n, dps=30 + int(math.log10(K)))
    assert rel_err(log_regret(K, n), ref) <= REL_TOL


REFERENCE_CASES = [
    (2, 10**5),
    (2, 10**6),
    (2, 10**7),
    (3, 10**5),
    (3, 10**7),
    (10, 10**6),
    (10, 10**7),
    (256, 100),
    (256, 10**5),
    (256, 10**7),
    (1000, 1000),
    (1000, 10**7),
    (2**20, 10**6),
    (2**20, 10**7),
    (2**40, 10**5),
    (2**40, 10**7),
    (2**60, 1000),
    (2**60, 10**7),
    (10**200, 1),
    (10**200, 1000),
    (10**200, 10**7),
]


@pytest.mark.long
@pytest.mark.parametrize(("K", "n"), REFERENCE_CASES)
def test_against_mpmath_reference(K, n):
    assert rel_err(log_regret(K, n), reference(K, n)) <= REL_TOL


@pytest.mark.slow
@pytest.mark.parametrize("K", [2, 3, 10, 256, 1000, 2**20, 2**40, 2**60, 10**200])
@pytest.mark.parametrize("n", [1, 2, 3, 10, 100, 1000, 10**4, 10**5, 10**6, 10**7])
def test_against_mpmath_reference_full_grid(K, n):
    ref = reference(K, n)
    got = log_regret(K, n)
    assert rel_err(got, ref) <= REL_TOL
    # in practice the error is far below the contract
    assert abs(got - float(ref)) <= 1e-13 * max(1.0, abs(float(ref)))
    if n <= 20_000:
        assert rel_err(got, log_regret_lagrange(K, n, dps=30 + int(math.log10(K)))) <= REL_TOL


@pytest.mark.long
def test_references_agree_with_each_other():
    """Guard against a broken reference: quad, Lagrange sum and hyp2f0 agree."""
    for K, n in [(2, 3000), (10, 2000), (256, 300), (2**40, 500)]:
        assert abs(ref_quad(K, n) - log_regret_lagrange(K, n, dps=40)) < mp.mpf(10) ** -25
    assert abs(ref_top(2**60, 1000) - log_regret_lagrange(2**60, 1000, dps=50)) < mp.mpf(10) ** -25
    with mp.workdps(30):
        for K, n in [(3, 40), (10, 500), (50, 1000)]:
            hyp = mp.log(mp.hyp2f0(-n, K - 1, -mp.mpf(1) / n))
            assert abs(hyp - log_regret_lagrange(K, n, dps=30)) < mp.mpf(10) ** -20
            assert rel_err(log_regret(K, n), hyp) <= 1e-13


def test_accuracy_well_beyond_contract():
    """Typical errors are a few ulp; flag regressions long before 1e-9."""
    for K, n in [(2, 10**7), (3, 10**6), (256, 10**5), (2**60, 10**5), (10**200, 10**5)]:
        assert rel_err(log_regret(K, n), reference(K, n)) <= 1e-14


@pytest.mark.parametrize(
    ("K", "n"), [(2, 10**6), (3, 10**5), (40, 10**4), (500, 1000), (10**5, 10**6), (10**6, 10**6)]
)
def test_both_algorithms_agree(K, n):
    """The direct 2F0 sum (used for K > n) and C(2, n) + recurrence (K <= n)."""
    direct = _log_regret_sum(float(K), n)
    via_recurrence = _log_regret_recurrence(float(K), n)
    assert direct == pytest.approx(via_recurrence, rel=1e-14)
    assert log_regret(K, n) == via_recurrence


def test_accuracy_at_the_algorithm_switch():
    for n in (1000, 10**6):
        for K in (n - 1, n, n + 1, 2 * n):
            assert rel_err(log_regret(K, n), reference(K, n)) <= 1e-14


def test_huge_python_int_K():
    # Python ints above 2**63 are accepted and rounded to float64.
    assert log_regret(2**64 + 1, 10) == log_regret(float(2**64), 10)
    assert log_regret(10**300, 3) == pytest.approx(float(reference(10**300, 3)), rel=1e-14)
    assert np.isfinite(log_regret(10**305, 10**4))
    assert np.isfinite(log_regret(1e305, 10**4))


# --------------------------------------------------------------------------------------
# Vectorization
# --------------------------------------------------------------------------------------
def test_vectorized_shapes_and_types():
    out = log_regret(3, [[0, 1, 2], [3, 4, 5]])
    assert isinstance(out, np.ndarray)
    assert out.dtype == np.float64
    assert out.shape == (2, 3)
    assert log_regret(3, np.array([], dtype=np.int64)).shape == (0,)
    assert log_regret(3, []).shape == (0,)
    assert isinstance(log_regret(3, 5), float)
    assert isinstance(log_regret(3, np.int64(5)), float)
    assert isinstance(log_regret(3, np.array(5)), float)
    assert isinstance(log_regret(np.int32(3), 5.0), float)
    assert log_regret(3.0, 5) == log_regret(3, 5) == log_regret(np.uint8(3), np.uint16(5))
    assert log_regret(3, (1, 2)).shape == (2,)
    np.testing.assert_array_equal(
        log_regret(3, np.array([1, 2], dtype=np.uint8)), log_regret(3, [1.0, 2.0])
    )
    assert isinstance(regret(2, 3), float)
    assert regret(2, np.array([[0, 3]])).shape == (1, 2)
    assert regret(2**40, 100) == math.inf


@pytest.mark.parametrize("K", [2, 3, 7, 256, 2**60])
def test_scalar_and_array_agree(K):
    rng = np.random.default_rng(K % 1000)
    ns = np.concatenate([rng.integers(0, 5000, size=300), [0, 1, 2, 10**6]])  # repeats
    arr = log_regret(K, ns)
    assert np.array_equal(arr, [log_regret(K, int(n)) for n in ns])
    assert np.array_equal(arr, _log_regret_many(float(K), ns.astype(np.int64)))
    assert np.array_equal(log_regret(K, ns[:10]), arr[:10])  # small-array path
    assert log_regret(K, 777) == _log_regret_scalar(float(K), 777)


def test_many_kernel_contract():
    ns = np.arange(0, 1000, dtype=np.int64)
    out = _log_regret_many(3.0, ns)
    assert out.dtype == np.float64
    assert out.shape == ns.shape
    assert _log_regret_many(3.0, np.empty(0, dtype=np.int64)).shape == (0,)


# --------------------------------------------------------------------------------------
# Input validation
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("K", "n", "exc", "match"),
    [
        (0, 10, ValueError, r"K must be an integer >= 1.*got 0"),
        (-3, 10, ValueError, r"K must be an integer >= 1.*got -3"),
        (2.5, 10, ValueError, r"K must be an integer >= 1, got 2\.5"),
        (0.0, 10, ValueError, r"K must be an integer >= 1.*got 0\.0"),
        (float("nan"), 10, ValueError, r"K must be an integer >= 1, got NaN"),
        (float("inf"), 10, ValueError, r"K must be an integer >= 1, got inf"),
        (10**400, 10, ValueError, r"K must be at most"),
        ("3", 10, TypeError, r"K must be an integer >= 1, got an object of type str"),
        (True, 10, TypeError, r"boolean"),
        ([2, 3], 10, TypeError, r"K must be an integer >= 1, got an object of type list"),
        (3, -1, ValueError, r"n must be a non-negative integer.*got -1"),
        (3, 2.5, ValueError, r"n must be a non-negative integer, got 2\.5"),
        (3, float("nan"), ValueError, r"got NaN"),
        (3, float("inf"), ValueError, r"got inf"),
        (3, 2**60, ValueError, r"at most 2\*\*53"),
        (3, "10", TypeError, r"n must be a non-negative integer.*str"),
        (3, True, TypeError, r"boolean"),
        (3, [1, -2], ValueError, r"found -2"),
        (3, [1.0, 1.5], ValueError, r"non-integral value 1\.5"),
        (3, np.array([3.0, np.nan]), ValueError, r"found NaN"),
        (3, np.array([True, False]), TypeError, r"boolean"),
        (3, [2**70], ValueError, r"at most 2\*\*53"),
        (3, ["a", "b"], TypeError, r"dtype"),
        (3, [[1], [1, 2]], TypeError, r"array-like of integers"),
    ],
)
def test_invalid_arguments(K, n, exc, match):
    for function in (log_regret, log_regret_szpankowski):
        with pytest.raises(exc, match=match):
            function(K, n)


# --------------------------------------------------------------------------------------
# Szpankowski asymptotic expansion
# --------------------------------------------------------------------------------------
def _szpankowski_naive(K: int, n: float, sign: float) -> float:
    """Textbook form; sign=+1 is the misprinted variant."""
    lr = gammaln(K / 2) - gammaln((K - 1) / 2)
    r = math.exp(lr)
    return (
        (K - 1) / 2 * math.log(n / 2)
        + 0.5 * math.log(math.pi)
        - gammaln(K / 2)
        + math.sqrt(2) * K * r / (3 * math.sqrt(n))
        + (3 + K * (K - 2) * (2 * K + 1)) / (36 * n)
        + sign * K * K * r * r / (9 * n)
    )


@pytest.mark.parametrize("K", range(2, 11))
def test_szpankowski_accurate_for_small_K(K):
    for n in (1000, 10**4, 10**5, 10**6):
        err = abs(log_regret_szpankowski(K, n) - log_regret(K, n))
        # measured: 7.2e-5 at K=10, n=1000, decaying like n^-1.5
        assert err < 8e-5 * (1000 / n) ** 1.5
        assert err < 1e-4


def test_szpankowski_matches_textbook_formula():
    for K in range(2, 30):
        for n in (10, 1000, 10**6):
            assert log_regret_szpankowski(K, n) == pytest.approx(
                _szpankowski_naive(K, n, -1.0), rel=1e-12, abs=1e-9
            )


def test_szpankowski_plus_sign_is_a_typo():
    for K in range(2, 11):
        for n in (100, 1000, 10**5):
            exact = log_regret(K, n)
            err_minus = abs(_szpankowski_naive(K, n, -1.0) - exact)
            err_plus = abs(_szpankowski_naive(K, n, +1.0) - exact)
            assert err_plus > 100 * err_minus
    exact = log_regret(256, 100)
    assert abs(_szpankowski_naive(256, 100, +1.0) - exact) > 1e4


def test_szpankowski_useless_for_large_K():
    # K >> n: the (correct-sign) expansion is off by several nats (7.3 measured) ...
    assert abs(log_regret_szpankowski(256, 100) - log_regret(256, 100)) > 5.0
    assert abs(log_regret_szpankowski(256, 10) - log_regret(256, 10)) > 50.0
    # ... and by orders of magnitude for qNML-sized K.
    assert log_regret_szpankowski(2**40, 10**4) > 100 * log_regret(2**40, 10**4)


def test_szpankowski_edge_cases():
    assert log_regret_szpankowski(1, 100) == 0.0
    assert log_regret_szpankowski(5, 0) == 0.0
    out = log_regret_szpankowski(4, [[0, 10], [100, 1000]])
    assert out.shape == (2, 2)
    assert out.dtype == np.float64
    assert out[0, 0] == 0.0
    assert out[1, 1] == log_regret_szpankowski(4, 1000)
    assert isinstance(log_regret_szpankowski(4, 1000), float)
    big = log_regret_szpankowski(2**40, np.array([10, 10**7]))
    assert np.all(np.isfinite(big))
    assert not np.isnan(log_regret_szpankowski(10**250, 10))


# --------------------------------------------------------------------------------------
# Documentation
# --------------------------------------------------------------------------------------
def test_docstring_examples():
    result = doctest.testmod(regret_module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0
