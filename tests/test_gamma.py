"""The log rising factorial against mpmath over its whole domain."""

import math

import _reference as ref
import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from pgmpy_nml.numerics.gamma import log_rising, log_rising_array

log_rising_mp = ref.log_rising_mp  # mpmath loggamma, precision grown with a and n

EPS = 2.0**-52

A_GRID = [1e-300, 1e-18, 1e-8, 1e-3, 0.5, 1.0, 3.7, 1e3, 1e8, 1e12, 1e16, 1e20, 1e100, 1e300]
N_GRID = [0, 1, 2, 5, 10, 100, 10**4, 10**6, 10**9]


def scale(a, want):
    r"""The natural error scale :math:`\sum_w |\log(a + w)|` (= the result unless a < 1)."""
    return abs(want) - 2 * min(0.0, math.log(a))


def ulps(got, want, denom):
    """|got - want| / denom in units of 2**-52; an exact zero must be hit exactly."""
    if denom == 0:
        return 0.0 if got == 0.0 else math.inf
    return float(abs(mpmath.mpf(got) - want) / denom) / EPS


def test_grid_vs_mpmath():
    worst = 0.0
    for a in A_GRID:
        for n in N_GRID:
            got = log_rising(a, n)
            if n == 0:
                assert got == 0.0
                continue
            want = log_rising_mp(a, n)
            err = ulps(got, want, abs(want))
            worst = max(worst, err)
            assert err <= 3.0, (a, n, got, float(want))
    assert worst > 0.0  # the comparison really ran (the grid is not all exact)


@pytest.mark.parametrize("a", [1e-300, 1e-8, 0.37, 1.0, 2.5, 9.75, 10.0, 10.25, 1e3, 1e12, 1e20])
def test_small_n_vs_brute_force_product(a):
    """Independent of loggamma: the sum of the logs of the n factors, in mpmath."""
    with mpmath.workdps(40):
        for n in range(1, 40):
            want = mpmath.fsum(mpmath.log(mpmath.mpf(a) + w) for w in range(n))
            got = log_rising(a, n)
            assert ulps(got, want, scale(a, want)) <= 3.0, (a, n)
            if n == 1:
                assert got == math.log(a)


def test_regime_boundaries():
    """Around a = 10 (product / Stirling) and where a + k crosses 10."""
    below = np.nextafter(10.0, 0.0)
    for a in (below, 10.0, np.nextafter(10.0, 11.0), 9.0, 1.0 - 2**-53, 1.0 + 2**-52, 0.999):
        for n in (1, 2, 3, 9, 10, 11, 12, 1000):
            want = log_rising_mp(a, n)
            assert ulps(log_rising(a, n), want, scale(a, want)) <= 3.0, (a, n)


@settings(max_examples=300, deadline=None)
@given(
    log10_a=st.floats(-300.0, 300.0),
    n=st.one_of(
        st.integers(0, 40), st.integers(0, 10**9), st.floats(0, 9).map(lambda x: int(10**x))
    ),
)
def test_random_vs_mpmath(log10_a, n):
    a = 10.0**log10_a
    got = log_rising(a, n)
    if n == 0:
        assert got == 0.0
        return
    want = log_rising_mp(a, n)
    assert ulps(got, want, scale(a, want)) <= 4.0
    if a >= 1.0:  # nothing cancels: relative to the result itself
        assert ulps(got, want, abs(want)) <= 4.0


def test_old_lgamma_difference_fails_where_log_rising_does_not():
    """The motivating failure: lgamma(a + n) - lgamma(a) for a = 1e16, n = 5."""
    want = float(log_rising_mp(1e16, 5))
    assert abs(math.lgamma(1e16 + 5) - math.lgamma(1e16) - want) > 1.0
    assert log_rising(1e16, 5) == pytest.approx(want, rel=4 * EPS)


def test_domain_edges():
    nan = math.nan
    assert log_rising(0.0, 0) == 0.0 and log_rising(math.inf, 0) == 0.0
    assert log_rising(0.0, 3) == -math.inf
    assert log_rising(math.inf, 3) == math.inf
    assert log_rising(5e-324, 1) == math.log(5e-324)  # subnormal a
    assert log_rising(5e-324, 3) == pytest.approx(math.log(5e-324) + math.log(2), rel=4 * EPS)
    for a, n in [(-1.0, 2), (nan, 2), (nan, 0), (1.0, -1), (1.0, 2.5), (1.0, math.inf), (1.0, nan)]:
        assert math.isnan(log_rising(a, n)), (a, n)
    assert log_rising(2.5, 7.0) == log_rising(2.5, 7)  # integral floats are integers


def test_callable_from_numba_kernels():
    @njit
    def total(a, n):
        s = 0.0
        for i in range(a.shape[0]):
            s += log_rising(a[i], n[i])
        return s

    a = np.array([0.5, 1e16, 3.0])
    n = np.array([3, 5, 0])
    assert total(a, n) == log_rising(0.5, 3) + log_rising(1e16, 5)


def test_array_version_is_the_scalar_function():
    rng = np.random.default_rng(0)
    a = 10.0 ** rng.uniform(-20, 30, size=(7, 1))
    n = rng.integers(0, 10**6, size=(1, 5))
    got = log_rising_array(a, n)
    assert got.shape == (7, 5) and got.dtype == np.float64
    want = np.array([[log_rising(x, int(k)) for k in n[0]] for x in a[:, 0]])
    np.testing.assert_array_equal(got, want)
    # integer dtypes, integral floats, lists and scalars
    np.testing.assert_array_equal(log_rising_array(a, n.astype(np.int32)), want)
    np.testing.assert_array_equal(log_rising_array(a, n.astype(np.uint64)), want)
    np.testing.assert_array_equal(log_rising_array(a, n.astype(float)), want)
    assert log_rising_array(2.0, 3) == math.log(24.0)
    assert log_rising_array(2.0, 3).shape == ()
    out = log_rising_array([1.0, -1.0, 1.0], [2, 2, 1.5])
    assert out[0] == math.log(2.0) and np.isnan(out[1]) and np.isnan(out[2])
    assert log_rising_array(np.zeros((0, 3)), 2).shape == (0, 3)
