r"""Sequential NML (sNML) and factorized sequential NML (fsNML) for categorical data.

For a categorical variable with :math:`K` values, the *sequential* NML model
normalizes the maximized likelihood one observation at a time ([1]_, Sec. 4.2,
eq. 16; Roos and Rissanen [2]_, after the last-step minimax algorithm of
Takimoto and Warmuth [3]_):

.. math::

    P_{\mathrm{sNML}}(D) = \prod_{n=1}^{N}
        \frac{\hat P(d_n, D^{n-1})}{\sum_{d'} \hat P(d', D^{n-1})},
    \qquad \hat P(D) = \prod_{k=1}^{K} \left(\frac{N_k}{N}\right)^{N_k}.

After observing the counts :math:`c = (c_1, \dots, c_K)` the predictive
distribution of the next value is a "spiced-up" Laplace rule of succession

.. math::

    P_{\mathrm{sNML}}(k \mid c) = \frac{e(c_k)\,(c_k + 1)}
        {\sum_{k'} e(c_{k'})\,(c_{k'} + 1)}, \qquad
    e(0) = 1,\quad e(m) = \left(\frac{m+1}{m}\right)^{m} \uparrow e,

and *factorized sequential* NML (Sec. 4.3) uses it as the parameters
:math:`\theta_{ijk}` of a Bayesian network, one parent configuration at a time
(:func:`fsnml_parameters`). The regret :math:`\log \hat P(D) - \log
P_{\mathrm{sNML}}(D)` (:func:`snml_regret`, which depends on the order of the
data) is bounded by Theorems 4–6 of the paper, in :mod:`pgmpy_nml.numerics.snml_bounds`.

References
----------
.. [1] T. Silander, T. Roos and P. Myllymäki, "Learning locally minimax
   optimal Bayesian networks", International Journal of Approximate
   Reasoning 51(5):544–557, 2010.
.. [2] T. Roos and J. Rissanen, "On sequentially normalized maximum likelihood
   models", Workshop on Information Theoretic Methods in Science and
   Engineering (WITMSE-08), 2008.
.. [3] E. Takimoto and M. Warmuth, "The last-step minimax algorithm", Proc.
   11th International Conference on Algorithmic Learning Theory (ALT), pp.
   279–290, 2000.
"""

from __future__ import annotations

import decimal
import math
from typing import TYPE_CHECKING

import numpy as np

from .._jit import njit
from .._validate import as_code_sequence, as_count_array, as_integer, as_integer_vector
from .summation import neumaier_add

if TYPE_CHECKING:
    from .._typing import ArrayLike

__all__ = [
    "fsnml_code_length_grouped",
    "fsnml_parameters",
    "snml_code_length",
    "snml_regret",
]

_E = math.e
# Counts up to this value use high-precision constants for g(c) - g(0).
_G_EXACT_MAX = 64
# Terms of the alternating series of c log1p(1/c) - 1 used for c > _G_EXACT_MAX.
_G_SERIES_TERMS = 14


# --------------------------------------------------------------------------------------
# Compiled kernels
# --------------------------------------------------------------------------------------
@njit(cache=True, nogil=True)
def _segment(codes, lo, hi, km1, gt, counts):  # pragma: no cover - compiled
    r"""Regret and :math:`\sum_k N_k \log(N/N_k)` of ``codes[lo:hi]`` (no checks).

    ``codes`` are int64 in ``0..len(counts)-1``, ``counts`` is all zeros on
    entry and on exit, ``km1 = K - 1`` (a float; ``K`` may exceed
    ``len(counts)`` when values were relabelled) and ``gt[c] = g(c) - g(0)``
    for ``c = 0..hi-lo`` with ``g(c) = (c+1)(e - e(c))``.

    By Appendix C of [1] the regret is :math:`\sum_{n=1}^{N} \log(D_n / (n\,e(n-1)))`
    with :math:`D_n = \sum_k (c_k+1) e(c_k)` the sNML normalizer before the
    :math:`n`-th item. Since :math:`(c+1)e(c) = e\,(c+1) - g(c)` and
    :math:`e - g(0) = 1`, with :math:`t = n - 1` and :math:`S = \sum_k gt(c_k)`,

    .. math::

        \frac{D_n}{n\,e(n-1)} = 1 + \frac{(K-1) + gt(t) - S}{e\,t + 1 - gt(t)},

    a ratio of well-conditioned quantities (``gt`` lies in ``(-0.36, 0]``), so
    every term is a ``log1p`` of a small, accurately known number. ``S``
    changes only in the coordinate just observed; it is kept as a compensated
    running sum, and so is the total.
    """
    s = 0.0  # sum_k gt(c_k) (gt(0) = 0), with Neumaier compensation s_c
    s_c = 0.0
    total = 0.0
    total_c = 0.0
    for t in range(hi - lo):
        num = km1 + gt[t] - (s + s_c)
        den = _E * t + 1.0 - gt[t]
        total, total_c = neumaier_add(total, total_c, math.log1p(num / den))
        x = codes[lo + t]
        c = counts[x]
        counts[x] = c + 1
        s, s_c = neumaier_add(s, s_c, gt[c + 1] - gt[c])
    n = float(hi - lo)
    ent = 0.0
    for t in range(lo, hi):
        x = codes[t]
        c = counts[x]
        if c > 0:
            ent += c * math.log(n / c)
            counts[x] = 0
    return total + total_c, ent


@njit(cache=True, nogil=True)
def _grouped_kernel(codes, starts, n_values, km1, gt):  # pragma: no cover - compiled
    """Summed regret and ML code length over the segments ``codes[starts[i]:starts[i+1]]``."""
    counts = np.zeros(n_values, dtype=np.int64)
    reg = 0.0
    reg_c = 0.0
    ent = 0.0
    ent_c = 0.0
    for i in range(starts.shape[0] - 1):
        r, h = _segment(codes, starts[i], starts[i + 1], km1, gt, counts)
        reg, reg_c = neumaier_add(reg, reg_c, r)
        ent, ent_c = neumaier_add(ent, ent_c, h)
    return reg + reg_c, ent + ent_c


# --------------------------------------------------------------------------------------
# g(c) = (c + 1)(e - e(c)), accurately
# --------------------------------------------------------------------------------------
def _g_exact_table(c_max: int) -> np.ndarray:
    """``g(c) - g(0)`` for ``c = 0..c_max`` from 50-digit decimal arithmetic."""
    ctx = decimal.Context(prec=50)
    e = ctx.exp(decimal.Decimal(1))
    g0 = e - 1
    out = np.zeros(c_max + 1, dtype=np.float64)
    for c in range(1, c_max + 1):
        ec = ctx.divide(decimal.Decimal((c + 1) ** c), decimal.Decimal(c**c))
        out[c] = float(ctx.subtract(ctx.multiply(c + 1, e - ec), g0))
    return out


_GT_EXACT = _g_exact_table(_G_EXACT_MAX)
# The largest table computed so far (read only by the kernels), up to _GT_CACHE_MAX entries.
_GT_CACHE = [_GT_EXACT]
_GT_CACHE_MAX = 1 << 22


def _gt_table(c_max: int) -> np.ndarray:
    r"""``g(c) - g(0)`` for ``c = 0..c_max``, where :math:`g(c) = (c+1)(e - e(c))`.

    For :math:`c > 64`, :math:`e - e(c) = -e\,\mathrm{expm1}(h)` with
    :math:`h = c \log(1 + 1/c) - 1 = \sum_{j \ge 1} (-1)^j x^j / (j+1)`,
    :math:`x = 1/c`, summed by Horner's rule (14 terms: truncation below
    :math:`10^{-25}` relative), so no cancellation occurs anywhere.
    """
    cached = _GT_CACHE[0]
    if c_max < cached.shape[0]:
        return cached[: c_max + 1]
    c = np.arange(_G_EXACT_MAX + 1, c_max + 1, dtype=np.float64)
    x = 1.0 / c
    poly = np.zeros_like(x)
    for j in range(_G_SERIES_TERMS, 0, -1):
        poly = (-1.0) ** j / (j + 1) + x * poly
    h = x * poly
    g = (c + 1.0) * (-_E * np.expm1(h))
    table = np.concatenate([_GT_EXACT, g - (_E - 1.0)])
    if table.shape[0] <= _GT_CACHE_MAX:
        _GT_CACHE[0] = table
    return table


def _run(seq: np.ndarray, groups, K: int) -> tuple[float, float]:
    """(summed sNML regret, summed -log ML) over the groups (validated input)."""
    n = seq.shape[0]
    if n == 0 or K == 1:
        return 0.0, 0.0
    if K <= max(1 << 16, 4 * n):
        codes, n_values = seq, K
    else:  # relabel the values seen, so that the count array stays small
        uniq, inverse = np.unique(seq, return_inverse=True)
        codes, n_values = inverse.astype(np.int64).ravel(), int(uniq.shape[0])
    if groups is None:
        starts = np.array([0, n], dtype=np.int64)
        longest = n
    else:
        order = np.argsort(groups, kind="stable")
        codes = codes[order]
        sorted_groups = groups[order]
        starts = np.concatenate(
            ([0], np.flatnonzero(sorted_groups[1:] != sorted_groups[:-1]) + 1, [n])
        ).astype(np.int64)
        longest = int(np.diff(starts).max())
    reg, ml = _grouped_kernel(
        np.ascontiguousarray(codes, dtype=np.int64),
        starts,
        n_values,
        float(K - 1),
        _gt_table(longest),
    )
    return float(reg), float(ml)


# --------------------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------------------
def fsnml_parameters(counts: ArrayLike, *, fractional: bool = False) -> np.ndarray:
    r"""sNML predictive distributions (fsNML parameters) from count vectors.

    For each count vector :math:`c = (c_1, \dots, c_K)` on the last axis,

    .. math::

        \theta_k = P_{\mathrm{sNML}}(k \mid c)
          = \frac{\hat P(c + \mathbf{1}_k)}{\sum_{k'} \hat P(c + \mathbf{1}_{k'})}
          = \frac{e(c_k)\,(c_k + 1)}{\sum_{k'=1}^{K} e(c_{k'})\,(c_{k'} + 1)},
        \qquad e(0) = 1,\ e(m) = \left(1 + \frac1m\right)^{m},

    where :math:`\hat P(c) = \prod_k (c_k / n)^{c_k}` is the maximized
    likelihood of any sequence with counts :math:`c`. Applied to a family's
    :math:`(q, r)` table of counts :math:`N_{ijk}` this gives the fsNML
    parameters :math:`\theta_{ijk}` of Sec. 4.3 of [1]_. An all-zero vector
    gives the uniform distribution; a value seen :math:`m` times gets weight
    :math:`(m+1)e(m)`, between :math:`m + 1` and :math:`e\,(m + 1/2)`.

    :math:`e(m)` is evaluated as ``exp(m * log1p(1/m))`` (relative error a
    few ulp for every :math:`m`); each parameter is accurate to about
    :math:`10^{-15}` relative.

    With ``fractional=True`` the counts may be any non-negative reals, such as the
    expected counts of EM's E-step: :math:`e(m) = (1 + 1/m)^m` is continuous on
    :math:`m \ge 0` (:math:`e(m) \to 1` as :math:`m \to 0`), so the same formula
    extends them, and equals the integral one where the counts are whole.

    Parameters
    ----------
    counts : array_like of int, shape (..., K)
        Non-negative integer counts (floats with integral values accepted);
        the last axis runs over the :math:`K \ge 1` values of the variable.
    fractional : bool, default False
        Accept fractional counts (finite and non-negative).

    Returns
    -------
    numpy.ndarray of float64, shape (..., K)
        Each last-axis vector sums to one.

    Raises
    ------
    TypeError
        If ``counts`` is not numeric (booleans are rejected).
    ValueError
        If ``counts`` is 0-d, has an empty last axis, or contains negative,
        non-integral (unless ``fractional``) or non-finite values.

    References
    ----------
    .. [1] T. Silander, T. Roos and P. Myllymäki, "Learning locally minimax
       optimal Bayesian networks", International Journal of Approximate
       Reasoning 51(5):544–557, 2010, Sec. 4.3.

    Examples
    --------
    >>> import numpy as np
    >>> from pgmpy_nml.numerics.snml import fsnml_parameters
    >>> fsnml_parameters([1, 0])  # weights 2 e(1) = 4 and 1
    array([0.8, 0.2])
    >>> theta = fsnml_parameters(np.array([[3, 1, 0], [0, 0, 0]]))  # a (q, r) table
    >>> np.round(theta, 6)
    array([[0.654731, 0.276215, 0.069054],
           [0.333333, 0.333333, 0.333333]])
    >>> theta.sum(axis=1)
    array([1., 1.])
    >>> fsnml_parameters([0.5, 0.0], fractional=True).round(6)  # weights 1.5 sqrt(3), 1
    array([0.722074, 0.277926])
    """
    m = as_count_array(counts, integral=not fractional)
    if m.size == 0:
        return np.zeros(m.shape, dtype=np.float64)
    if m.dtype.kind in "iu" and int(m.max()) < max(m.size // 2, 1024):
        # Typical count tables repeat small values: evaluate each weight once.
        w = _snml_weights(np.arange(int(m.max()) + 1, dtype=np.float64))[m]
    else:
        w = _snml_weights(m.astype(np.float64, copy=False))
    return w / w.sum(axis=-1, keepdims=True)


def _snml_weights(m: np.ndarray) -> np.ndarray:
    """``(m + 1) e(m)`` with ``e(m) = exp(m log1p(1/m))``, ``e(0) = 1`` (float64 counts,
    whole or fractional)."""
    # For m = 0 the exponent is 0 * log1p(1) = 0 (m is replaced by 1 inside the log only).
    return (m + 1.0) * np.exp(m * np.log1p(1.0 / np.where(m > 0, m, 1.0)))


def snml_regret(sequence: ArrayLike, K: int) -> float:
    r"""Regret of the sNML model on an integer sequence, in nats.

    .. math::

        R_{\mathrm{sNML}}(D, N, K) = \log \hat P(D) - \log P_{\mathrm{sNML}}(D)
          = \sum_{n=1}^{N} \log \frac{\sum_{k=1}^{K} (c_{k,n-1} + 1)\,e(c_{k,n-1})}
                                     {n\,e(n-1)},

    where :math:`c_{k,n-1}` counts value :math:`k` among the first
    :math:`n - 1` items and :math:`\hat P(D) = \prod_k (N_k/N)^{N_k}` (proof of
    Theorem 5 in Appendix C of [1]_). Unlike the NML regret, it depends on the
    order of the sequence; its maximum over all sequences of length
    :math:`N` is attained by the round-robin order and is bounded by
    :func:`snml_regret_bound`.

    Computed in one compiled pass in :math:`O(N)` (the normalizer changes
    only in the coordinate just observed), every term as a ``log1p`` of a
    well-conditioned ratio: accurate to a few ulp per term.

    Parameters
    ----------
    sequence : array_like of int, shape (N,)
        Values in ``0..K-1``, in the order they are coded.
    K : int
        Number of categories, an integer :math:`\ge 1` (any size).

    Returns
    -------
    float
        The regret in nats (0 for an empty sequence or :math:`K = 1`).

    Raises
    ------
    TypeError
        If ``sequence`` or ``K`` is not integer-valued (booleans rejected).
    ValueError
        If ``K < 1``, ``sequence`` is not 1-D, or a value lies outside ``0..K-1``.

    References
    ----------
    .. [1] T. Silander, T. Roos and P. Myllymäki, "Learning locally minimax
       optimal Bayesian networks", International Journal of Approximate
       Reasoning 51(5):544–557, 2010, Sec. 4.2 and Appendix C.

    Examples
    --------
    >>> from pgmpy_nml.numerics.snml import snml_regret
    >>> import math
    >>> math.isclose(snml_regret([0, 0], 2), math.log(2.5))  # (1/1) * (5/4) / (1/2)
    True
    >>> round(snml_regret([0, 1, 0, 1], 2), 6), round(snml_regret([0, 0, 1, 1], 2), 6)
    (1.211755, 1.180006)
    """
    K = as_integer(K, "K", 1)
    return _run(as_code_sequence(sequence, K), None, K)[0]


def snml_code_length(sequence: ArrayLike, K: int) -> float:
    r"""sNML code length :math:`-\log P_{\mathrm{sNML}}(D)` of an integer sequence, in nats.

    .. math::

        -\log P_{\mathrm{sNML}}(D) = -\sum_{t=1}^{N}
            \log P_{\mathrm{sNML}}(x_t \mid c(x_1, \dots, x_{t-1}))
          = R_{\mathrm{sNML}}(D) + \sum_{k=1}^{K} N_k \log\frac{N}{N_k},

    with the predictive probabilities of :func:`fsnml_parameters`. The
    numerators telescope per value,
    :math:`\prod_{m=0}^{N_k-1} (m+1)e(m) = N_k^{N_k}`, which gives the second
    form: the regret of :func:`snml_regret` plus the maximized-likelihood code
    length :math:`-\log \hat P(D)`.

    Parameters
    ----------
    sequence : array_like of int, shape (N,)
        Values in ``0..K-1``.
    K : int
        Number of categories, an integer :math:`\ge 1`.

    Returns
    -------
    float
        The code length in nats (0 for an empty sequence).

    Raises
    ------
    TypeError, ValueError
        As :func:`snml_regret`.

    References
    ----------
    .. [1] T. Silander, T. Roos and P. Myllymäki, "Learning locally minimax
       optimal Bayesian networks", International Journal of Approximate
       Reasoning 51(5):544–557, 2010, eq. (16).
    .. [2] T. Roos and J. Rissanen, "On sequentially normalized maximum
       likelihood models", WITMSE-08, 2008.

    Examples
    --------
    >>> import math
    >>> from pgmpy_nml.numerics.snml import snml_code_length
    >>> # P(0) = 1/2, P(1 | 0) = 1 / (4 + 1), P(1 | 0, 1) = 1/2
    >>> math.isclose(snml_code_length([0, 1, 1], 2), math.log(20))
    True
    """
    K = as_integer(K, "K", 1)
    regret, ml_code_length = _run(as_code_sequence(sequence, K), None, K)
    return regret + ml_code_length


def fsnml_code_length_grouped(groups: ArrayLike, sequence: ArrayLike, K: int) -> float:
    r"""Summed sNML code lengths of the subsequences of ``sequence`` with equal ``groups``.

    .. math::

        \sum_{j} -\log P_{\mathrm{sNML}}\bigl(D^{(j)}\bigr), \qquad
        D^{(j)} = (x_t : \mathrm{groups}_t = j) \text{ in the original order}.

    With ``groups`` the parent configuration of each row and ``sequence`` the
    child's values, this is one family's term of the fsNML code length
    :math:`-\log P_{\mathrm{fsNML}}(D \mid G) = \sum_i \sum_j -\log
    P_{\mathrm{sNML}}(D_i^{G_i = j})` (Sec. 4.3 of [1]_); each term is
    :func:`snml_code_length`. One stable sort and one compiled pass.

    Parameters
    ----------
    groups : array_like of int, shape (N,)
        Non-negative integer group labels (any values, need not be dense).
    sequence : array_like of int, shape (N,)
        Values in ``0..K-1``.
    K : int
        Number of categories (the child's arity), an integer :math:`\ge 1`.

    Returns
    -------
    float
        The summed code length in nats.

    Raises
    ------
    TypeError
        If an argument is not integer-valued (booleans rejected).
    ValueError
        If ``K < 1``, an input is not 1-D, the lengths differ, a group label is
        negative or a value lies outside ``0..K-1``.

    References
    ----------
    .. [1] T. Silander, T. Roos and P. Myllymäki, "Learning locally minimax
       optimal Bayesian networks", International Journal of Approximate
       Reasoning 51(5):544–557, 2010, Sec. 4.3.

    Examples
    --------
    >>> import math
    >>> from pgmpy_nml.numerics.snml import fsnml_code_length_grouped, snml_code_length
    >>> total = fsnml_code_length_grouped([0, 1, 0, 1, 0], [0, 1, 1, 1, 0], 2)
    >>> math.isclose(total, snml_code_length([0, 1, 0], 2) + snml_code_length([1, 1], 2))
    True
    """
    K = as_integer(K, "K", 1)
    seq = as_code_sequence(sequence, K)
    grp = as_integer_vector(groups, "groups")
    if grp.shape[0] != seq.shape[0]:
        raise ValueError(
            f"groups and sequence must have the same length, got {grp.shape[0]} and {seq.shape[0]}"
        )
    if grp.size and grp.dtype.kind not in "iu":
        if grp.dtype.kind == "b":
            raise TypeError("groups must contain integers, got a boolean array")
        grp = as_code_sequence(grp, 2**62, "groups")
    if grp.size and grp.min() < 0:
        t = int(np.flatnonzero(grp < 0)[0])
        raise ValueError(f"groups must be non-negative, found {grp[t].item()} at position {t}")
    return float(sum(_run(seq, grp, K)))
