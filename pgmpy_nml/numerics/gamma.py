r"""The log rising factorial :math:`\log\Gamma(a+n) - \log\Gamma(a)`, accurate for every ``a > 0``.

.. math::

    \operatorname{lr}(a, n) = \log\frac{\Gamma(a + n)}{\Gamma(a)}
        = \log\bigl(a (a+1) \cdots (a+n-1)\bigr)
        = \sum_{w=0}^{n-1} \log(a + w),
    \qquad a > 0,\ n = 0, 1, 2, \dots

is the building block of every Bayesian-Dirichlet score: a cell with count
:math:`N_{jk}` and hyperparameter :math:`\alpha_{jk}` contributes
:math:`\operatorname{lr}(\alpha_{jk}, N_{jk})` and a row with :math:`N_j`
observations and prior mass :math:`\beta_j` contributes
:math:`\log\Gamma(\beta_j) - \log\Gamma(\beta_j + N_j) = -\operatorname{lr}(\beta_j, N_j)`.

Evaluated as a difference of two ``lgamma`` values it loses all precision once
``a`` is large: ``lgamma(a)`` is about ``a log a`` and the difference about
``n log a``, so ``1e-16 * a log a`` of rounding error swamps it (``a = 1e16``,
``n = 5`` gives 128.0 instead of 184.2).  Here it is
evaluated in two steps, each without cancellation:

1. the factors :math:`a, a+1, \dots` below 10 (at most ten, only when
   ``a < 10``) are multiplied and their product logged once;
2. the remaining :math:`m` factors, from :math:`b \ge 10` on, come from the
   difference of Stirling's series written with ``log1p``,

   .. math::

       \log\frac{\Gamma(b+m)}{\Gamma(b)} = m\log b + b\,g(m/b)
           - \tfrac12 \operatorname{log1p}(m/b) + \sigma(b+m) - \sigma(b),

   with :math:`g(x) = (1+x)\operatorname{log1p}(x) - x \ge 0` and
   :math:`\sigma(x) = \sum_{k=1}^{8} B_{2k} / (2k(2k-1)x^{2k-1})` (truncation
   error below 2e-18 for :math:`x \ge 10`, [1]_).  The first two terms are
   non-negative and the last three are small beside :math:`m\log b`, so this step
   is accurate to about 2 ulps for any :math:`b` up to ``1e308`` and any ``m``.

The result is then accurate to a few ulps relative to the result whenever
``a >= 1`` (all factors are at least 1, nothing cancels).  For ``a < 1`` the
first factor contributes a negative ``log a`` that can cancel against the
rest, and the error is a few ulps of :math:`\sum_w |\log(a+w)| = \operatorname{lr}(a, n) - 2\log a`
(which equals the result unless it is near one of its zeros).  Measured
against mpmath (``tests/test_gamma.py``) over ``a`` from 1e-300 to 1e300 and
``n`` up to 1e9: at most 2.5 ulps of that scale.

``n`` must be an integer (an integral float is accepted, exact below
:math:`2^{53}`); real non-integral ``n``, which the scores never need, gives
``nan``.  Outside the domain the functions follow ``scipy.special``: ``nan`` for
``a < 0``, ``n < 0``, non-integral or non-finite ``n`` or a NaN argument; the
limits ``lr(0, n) = -inf`` for ``n >= 1``, ``lr(inf, n) = inf`` for ``n >= 1``
and ``lr(a, 0) = 0.0`` exactly.

:func:`log_rising` is a numba function, callable from Python and from other
compiled code; :func:`log_rising_array` applies the same function to
broadcast numpy arrays.

References
----------
.. [1] NIST Digital Library of Mathematical Functions, Eq. 5.11.1 (Stirling's
   series) and 5.11.10 (its error bound), https://dlmf.nist.gov/5.11
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .._jit import njit

if TYPE_CHECKING:
    from .._typing import ArrayLike

__all__ = ["log_rising", "log_rising_array"]

#: Factors below this value are multiplied directly; from it on Stirling's series
#: (8 terms) is accurate to 2e-18 absolute.
_STIRLING_MIN = 10.0

# B_2k / (2k (2k - 1)), k = 1..8 (Bernoulli numbers B_2 = 1/6, ..., B_16 = -3617/510).
_S1 = 1.0 / 12.0
_S2 = -1.0 / 360.0
_S3 = 1.0 / 1260.0
_S4 = -1.0 / 1680.0
_S5 = 1.0 / 1188.0
_S6 = -691.0 / 360360.0
_S7 = 1.0 / 156.0
_S8 = -3617.0 / 122400.0


@njit(cache=True, nogil=True)
def _stirling_sigma(x):  # pragma: no cover - compiled
    r""":math:`\log\Gamma(x) - (x - \tfrac12)\log x + x - \tfrac12\log 2\pi` for ``x >= 10``."""
    z = 1.0 / (x * x)
    poly = _S1 + z * (_S2 + z * (_S3 + z * (_S4 + z * (_S5 + z * (_S6 + z * (_S7 + z * _S8))))))
    return poly / x


@njit(cache=True, nogil=True)
def _log_rising_large(b, m):  # pragma: no cover - compiled
    """``log Gamma(b + m) - log Gamma(b)`` for ``b >= 10`` and integral ``m >= 1`` (floats)."""
    if m == 1.0:
        return math.log(b)
    x = m / b
    lx = math.log1p(x)
    small = b * ((1.0 + x) * lx - x) - 0.5 * lx + (_stirling_sigma(b + m) - _stirling_sigma(b))
    return m * math.log(b) + small


@njit(cache=True, nogil=True)
def log_rising(a, n):  # pragma: no cover - compiled
    r"""Log rising factorial :math:`\log\Gamma(a+n) - \log\Gamma(a) = \sum_{w<n}\log(a+w)`.

    Accurate to a few ulps over the whole domain (see the module docstring for
    the method and the error bound); a numba function, so it can be called from
    other compiled kernels as well as from Python.

    Parameters
    ----------
    a : float
        :math:`a \ge 0` (``a = 0`` gives the limit ``-inf`` for ``n >= 1``).
    n : int or float
        Integer :math:`n \ge 0`, below :math:`2^{53}`.

    Returns
    -------
    float
        ``0.0`` for ``n = 0``; ``nan`` outside the domain (negative or NaN ``a``,
        negative, non-integral or non-finite ``n``).

    Examples
    --------
    >>> from pgmpy_nml.numerics.gamma import log_rising
    >>> round(log_rising(0.5, 3), 12)  # log(0.5 * 1.5 * 2.5)
    0.628608659422
    >>> round(log_rising(1e16, 5), 10)  # 5 log(1e16) + 10/1e16
    184.2068074395
    >>> round(log_rising(1e300, 10**9), 2)  # 1e9 log(1e300)
    690775527898.21
    """
    nf = float(n)
    if not (a >= 0.0 and nf >= 0.0) or nf != math.floor(nf) or nf == math.inf:
        return math.nan
    if nf == 0.0:
        return 0.0
    if a == 0.0:
        return -math.inf
    if a == math.inf:
        return math.inf
    if a >= _STIRLING_MIN:
        return _log_rising_large(a, nf)
    prod = a
    k = 1.0
    while k < nf:
        b = a + k
        if b >= _STIRLING_MIN:
            return math.log(prod) + _log_rising_large(b, nf - k)
        prod *= b
        k += 1.0
    return math.log(prod)


@njit(cache=True, nogil=True)
def _log_rising_loop(a, n, out):  # pragma: no cover - compiled
    for i in range(out.shape[0]):
        out[i] = log_rising(a[i], n[i])
    return out


def log_rising_array(a: ArrayLike, n: ArrayLike) -> np.ndarray:
    r"""Vectorized :func:`log_rising`: :math:`\log\Gamma(a+n) - \log\Gamma(a)` elementwise.

    Parameters
    ----------
    a : array_like of float
        :math:`a \ge 0`.
    n : array_like of int (or of integral floats)
        :math:`n \ge 0`; broadcast against ``a``.

    Returns
    -------
    numpy.ndarray of float64
        The broadcast shape of ``a`` and ``n`` (a numpy scalar if both are
        scalars). Entries outside the domain are ``nan`` as in :func:`log_rising`.

    Examples
    --------
    >>> import numpy as np
    >>> from pgmpy_nml.numerics.gamma import log_rising_array
    >>> np.round(log_rising_array([1.0, 0.5, 1e20], [[3], [0]]), 6)
    array([[  1.791759,   0.628609, 138.155106],
           [  0.      ,   0.      ,   0.      ]])
    """
    a = np.asarray(a, dtype=np.float64)
    n = np.asarray(n)
    if n.dtype.kind in "biu" and not (n.dtype.kind == "u" and n.dtype.itemsize == 8):
        n = n.astype(np.int64)
    else:
        n = n.astype(np.float64)
    shape = np.broadcast_shapes(a.shape, n.shape)
    # plain arrays for the compiled loop (numba warns on views of a broadcast)
    a_b, n_b = (x if x.shape == shape else np.broadcast_to(x, shape).copy() for x in (a, n))
    out = np.empty(shape, dtype=np.float64)
    _log_rising_loop(a_b.ravel(), n_b.ravel(), out.reshape(-1))
    return out[()]
