r"""Differences of the digamma and trigamma functions, without cancellation.

:func:`harmonic_sums` returns :math:`\psi(b+m) - \psi(b) = \sum_{i<m} 1/(b+i)` and
:math:`\psi_1(b) - \psi_1(b+m) = \sum_{i<m} 1/(b+i)^2` for any :math:`b > 0` and
integer :math:`m \ge 0`: the terms directly for small :math:`m`, otherwise the
difference of two Stirling series with the leading parts differenced analytically.
The Max-BDeu solver (:mod:`pgmpy_nml.scores._contamination`) calls it from compiled
code for every cell of a count table.
"""

from __future__ import annotations

import math

from .._jit import njit

__all__ = ["harmonic_sums"]

#: Arguments are shifted by the recurrence to at least this value before the
#: asymptotic (Stirling) series is used; with terms up to x**-16 (digamma) and
#: x**-17 (trigamma) the truncation error is below 1e-17 relative there.
_ASYM_MIN = 10.0

#: Below this many terms, sums of 1/(a+w) and 1/(a+w)**2 are done directly.
_DIRECT_MAX = 64

# |B_2k| / (2k) and |B_2k| for k = 1..8: the coefficients of the two Stirling tails.
_PSI_TAIL = (
    1.0 / 12.0,
    1.0 / 120.0,
    1.0 / 252.0,
    1.0 / 240.0,
    1.0 / 132.0,
    691.0 / 32760.0,
    1.0 / 12.0,
    3617.0 / 8160.0,
)
_PSI1_TAIL = (
    1.0 / 6.0,
    1.0 / 30.0,
    1.0 / 42.0,
    1.0 / 30.0,
    5.0 / 66.0,
    691.0 / 2730.0,
    7.0 / 6.0,
    3617.0 / 510.0,
)


@njit(cache=True)
def _alternating_series(z, coefficients):  # pragma: no cover - compiled
    """``c0 - z (c1 - z (c2 - ...))`` by Horner's rule, innermost term first."""
    acc = coefficients[len(coefficients) - 1]
    for k in range(len(coefficients) - 2, -1, -1):
        acc = coefficients[k] - z * acc
    return acc


@njit(cache=True)
def _psi_series_tail(x):  # pragma: no cover - compiled
    """Stirling tail of digamma: ``psi(x) - log(x) + 1/(2x)`` for ``x >= 10``.

    ``-sum_k B_2k / (2k x^2k)``, k = 1..8.
    """
    z = 1.0 / (x * x)
    return -z * _alternating_series(z, _PSI_TAIL)


@njit(cache=True)
def _psi1_series_tail(x):  # pragma: no cover - compiled
    """Stirling tail of trigamma: ``psi1(x) - 1/x - 1/(2x^2)`` for ``x >= 10``.

    ``sum_k B_2k / x^(2k+1)``, k = 1..8.
    """
    z = 1.0 / (x * x)
    return z / x * _alternating_series(z, _PSI1_TAIL)


@njit(cache=True)
def harmonic_sums(b, m):  # pragma: no cover - compiled
    r"""Return :math:`(\sum_{i<m} 1/(b+i),\ \sum_{i<m} 1/(b+i)^2)` for ``b > 0``.

    These are :math:`\psi(b+m) - \psi(b)` and :math:`\psi_1(b) - \psi_1(b+m)`,
    evaluated without cancellation: directly for ``m <= 64``; otherwise the first
    terms are summed until the argument reaches 10 and the rest is the difference
    of the Stirling series, with the leading parts differenced analytically
    (``log1p``, ``(y-x)/(xy)``, ...), so that ``b >> m`` stays accurate too.
    """
    s1 = 0.0
    s2 = 0.0
    if m <= 0:
        return s1, s2
    if m <= _DIRECT_MAX:
        # smallest terms first
        for i in range(m - 1, -1, -1):
            v = 1.0 / (b + i)
            s1 += v
            s2 += v * v
        return s1, s2
    x = b
    left = m
    while x < _ASYM_MIN:
        v = 1.0 / x
        s1 += v
        s2 += v * v
        x += 1.0
        left -= 1
    dm = float(left)  # y - x, exact
    y = x + dm
    # digamma: log(y/x) - 1/(2y) + 1/(2x) + tail(y) - tail(x)
    s1 += math.log1p(dm / x) + 0.5 * dm / (x * y) + (_psi_series_tail(y) - _psi_series_tail(x))
    # trigamma: 1/x - 1/y + 1/(2x^2) - 1/(2y^2) + tail(x) - tail(y)
    s2 += (
        dm / (x * y)
        + 0.5 * dm * (x + y) / ((x * y) * (x * y))
        + (_psi1_series_tail(x) - _psi1_series_tail(y))
    )
    return s1, s2
