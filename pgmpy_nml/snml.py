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
data) is bounded by Theorems 4–6 of the paper (:func:`snml_regret_bound_bernoulli`,
:func:`snml_regret_bound`, :func:`fsnml_regret_bound`).

About the bounds (checked numerically in ``tests/test_snml.py``): the exact
worst-case regret :math:`\max_D R(D)` is attained by the round-robin sequence
``0, 1, ..., K-1, 0, 1, ...`` (which keeps the counts as equal as integers
allow at every step). Theorem 5's bound equals it for :math:`N \le 1` only;
for :math:`N \ge 2` it is strictly larger, by a gap that increases to a
constant (about 0.0395 nats for :math:`K = 2`, 0.0815 for :math:`K = 3`,
0.165 for :math:`K = 5`). So the bound is tight up to a bounded additive
constant, not attained as Sec. 4.3 of the paper suggests ("the proof of Thm. 5
in Appendix C actually shows that the bound ... is tight"). The step of the
proof of Theorem 6 that spreads :math:`N` evenly over the parent
configurations needs the bound to be *concave* in :math:`N` (the paper says
"convex"); it is concave, so Theorem 6 holds as stated.

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
import numbers

import numpy as np

from ._jit import njit
from ._validate import as_integer

__all__ = [
    "fsnml_code_length_grouped",
    "fsnml_parameters",
    "fsnml_regret_bound",
    "snml_code_length",
    "snml_regret",
    "snml_regret_bound",
    "snml_regret_bound_bernoulli",
]

_E = math.e
# Below this N (or N / q) the bound is evaluated in a logarithmic form that
# cannot overflow (k / N would).
_TINY = 1e-280
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
        term = math.log1p(num / den)
        y = total + term
        if abs(total) >= abs(term):
            total_c += (total - y) + term
        else:
            total_c += (term - y) + total
        total = y
        x = codes[lo + t]
        c = counts[x]
        counts[x] = c + 1
        d = gt[c + 1] - gt[c]
        y = s + d
        if abs(s) >= abs(d):
            s_c += (s - y) + d
        else:
            s_c += (d - y) + s
        s = y
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
        y = reg + r
        reg_c += (reg - y) + r if abs(reg) >= abs(r) else (r - y) + reg
        reg = y
        y = ent + h
        ent_c += (ent - y) + h if abs(ent) >= h else (h - y) + ent
        ent = y
    return reg + reg_c, ent + ent_c


@njit(cache=True, nogil=True)
def _bound_kernel(n, k_max):  # pragma: no cover - compiled
    r"""Theorem 5: :math:`\frac1K \sum_{k=1}^{K-1} [N\log\frac{N+k}{N} + k\log\frac{N+k}{k}]`.

    ``n`` is a float :math:`\ge 0`, ``k_max = K`` an int :math:`\ge 1` (no
    checks). Positive terms, compensated sum.
    """
    if n <= 0.0 or k_max <= 1:
        return 0.0
    total = 0.0
    comp = 0.0
    log_n = math.log(n)
    for k in range(1, k_max):
        kf = float(k)
        if n >= _TINY:
            first = n * math.log1p(kf / n)
        else:  # k / n would overflow; N log((N+k)/N) = N (log(N+k) - log N)
            first = n * (math.log(kf + n) - log_n)
        term = first + kf * math.log1p(n / kf)
        y = total + term
        if abs(total) >= abs(term):
            comp += (total - y) + term
        else:
            comp += (term - y) + total
        total = y
    return (total + comp) / float(k_max)


@njit(cache=True, nogil=True)
def _bound_many(ns, k_max):  # pragma: no cover - compiled
    """:func:`_bound_kernel` over a 1-D float64 array of sample sizes."""
    out = np.empty(ns.shape[0], dtype=np.float64)
    for i in range(ns.shape[0]):
        out[i] = _bound_kernel(ns[i], k_max)
    return out


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


# --------------------------------------------------------------------------------------
# Validation helpers
# --------------------------------------------------------------------------------------
def _check_real(value, name: str) -> float:
    """A finite real ``>= 0`` as a float."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a non-negative real number, got the boolean {value!r}")
    if not isinstance(value, numbers.Real):
        raise TypeError(
            f"{name} must be a non-negative real number, got an object of type "
            f"{type(value).__name__}"
        )
    try:
        vf = float(value)
    except OverflowError:
        raise ValueError(f"{name} must be a finite non-negative real number, got {value}") from None
    if not math.isfinite(vf) or vf < 0.0:
        raise ValueError(f"{name} must be a finite non-negative real number, got {vf!r}")
    return vf


def _as_real_array(values, name: str) -> np.ndarray:
    """Array-like of finite reals ``>= 0`` as float64."""
    arr = np.asarray(values)
    if arr.dtype.kind == "b":
        raise TypeError(f"{name} must contain non-negative real numbers, got a boolean array")
    if arr.dtype.kind == "O":
        return np.array([_check_real(v, name) for v in arr.ravel()], dtype=np.float64).reshape(
            arr.shape
        )
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must contain non-negative real numbers, got dtype {arr.dtype}")
    out = arr.astype(np.float64)
    bad = ~np.isfinite(out) | (out < 0)
    if bad.any():
        raise ValueError(
            f"{name} must contain finite non-negative real numbers, "
            f"found {out[bad].flat[0].item()!r}"
        )
    return out


def _as_counts(counts) -> np.ndarray:
    """Validate a count array of shape (..., K), K >= 1 (returned as an int or float64 array)."""
    try:
        arr = np.asarray(counts)
    except (ValueError, TypeError) as exc:
        raise TypeError(f"counts must be an array-like of non-negative integers: {exc}") from exc
    kind = arr.dtype.kind
    if kind == "b":
        raise TypeError("counts must contain non-negative integers, got a boolean array")
    if kind == "O":
        try:
            arr = np.array(
                [as_integer(v, "each count", 0) for v in arr.ravel()], dtype=np.float64
            ).reshape(arr.shape)
        except (TypeError, ValueError) as exc:
            raise type(exc)(f"invalid entry in counts: {exc}") from exc
        except OverflowError:
            raise ValueError("counts are too large for float64") from None
        kind = "f"
    elif kind not in "iuf":
        raise TypeError(f"counts must be an array-like of non-negative integers, got {arr.dtype}")
    if arr.ndim == 0:
        raise ValueError(
            "counts must have at least one dimension (the last axis runs over the K values)"
        )
    if arr.shape[-1] == 0:
        raise ValueError(f"counts must have at least one value on the last axis, shape {arr.shape}")
    if kind in "iu":
        if arr.size and arr.min() < 0:
            idx = tuple(int(i) for i in np.argwhere(arr < 0)[0])
            raise ValueError(
                f"counts must be non-negative integers, found {arr[idx].item()!r} at index {idx}"
            )
        return arr
    out = arr.astype(np.float64)
    if out.size:
        bad = ~np.isfinite(out) | (out < 0) | (out != np.floor(out))
        if bad.any():
            idx = tuple(int(i) for i in np.argwhere(bad)[0])
            raise ValueError(
                f"counts must be non-negative integers, found {arr[idx].item()!r} at index {idx}"
            )
    return out


def _as_sequence(sequence, K: int) -> np.ndarray:
    """Validate a 1-D sequence of values in 0..K-1 and return it as int64."""
    try:
        arr = np.asarray(sequence)
    except (ValueError, TypeError) as exc:
        raise TypeError(f"sequence must be a 1-D array-like of integers: {exc}") from exc
    if arr.ndim != 1:
        raise ValueError(f"sequence must be one-dimensional, got an array of shape {arr.shape}")
    kind = arr.dtype.kind
    if kind == "b":
        raise TypeError("sequence must contain integers in 0..K-1, got a boolean array")
    if arr.size == 0:
        return np.zeros(0, dtype=np.int64)
    if kind == "O":
        vals = []
        for t, v in enumerate(arr):
            try:
                v = as_integer(v, "each value", 0)
            except (TypeError, ValueError) as exc:
                raise type(exc)(f"invalid value at position {t} of sequence: {exc}") from None
            if v >= K:
                raise ValueError(
                    f"sequence values must lie in 0..{K - 1} (K = {K}), found {v} at position {t}"
                )
            vals.append(v)
        return np.array(vals, dtype=np.int64)
    if kind == "f":
        bad = ~np.isfinite(arr) | (arr != np.floor(arr))
        if bad.any():
            t = int(np.flatnonzero(bad)[0])
            raise ValueError(
                f"sequence must contain integers in 0..{K - 1}, found {arr[t].item()!r} "
                f"at position {t}"
            )
    elif kind not in "iu":
        raise TypeError(f"sequence must be a 1-D array-like of integers, got dtype {arr.dtype}")
    bad = (arr < 0) | (arr >= min(K, 2**63 - 1))
    if bad.any():
        t = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"sequence values must lie in 0..{K - 1} (K = {K}), found {arr[t].item()!r} "
            f"at position {t}"
        )
    return arr.astype(np.int64)


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
def fsnml_parameters(counts):
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

    Parameters
    ----------
    counts : array_like of int, shape (..., K)
        Non-negative integer counts (floats with integral values accepted);
        the last axis runs over the :math:`K \ge 1` values of the variable.

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
        non-integral or non-finite values.

    References
    ----------
    .. [1] T. Silander, T. Roos and P. Myllymäki, "Learning locally minimax
       optimal Bayesian networks", International Journal of Approximate
       Reasoning 51(5):544–557, 2010, Sec. 4.3.

    Examples
    --------
    >>> import numpy as np
    >>> from pgmpy_nml.snml import fsnml_parameters
    >>> fsnml_parameters([1, 0])  # weights 2 e(1) = 4 and 1
    array([0.8, 0.2])
    >>> theta = fsnml_parameters(np.array([[3, 1, 0], [0, 0, 0]]))  # a (q, r) table
    >>> np.round(theta, 6)
    array([[0.654731, 0.276215, 0.069054],
           [0.333333, 0.333333, 0.333333]])
    >>> theta.sum(axis=1)
    array([1., 1.])
    """
    m = _as_counts(counts)
    if m.size == 0:
        return np.zeros(m.shape, dtype=np.float64)
    if m.dtype.kind in "iu" and int(m.max()) < max(m.size // 2, 1024):
        # Typical count tables repeat small values: evaluate each weight once.
        w = _snml_weights(np.arange(int(m.max()) + 1, dtype=np.float64))[m]
    else:
        w = _snml_weights(m.astype(np.float64, copy=False))
    return w / w.sum(axis=-1, keepdims=True)


def _snml_weights(m: np.ndarray) -> np.ndarray:
    """``(m + 1) e(m)`` with ``e(m) = exp(m log1p(1/m))``, ``e(0) = 1`` (float64 counts)."""
    # For m = 0 the exponent is 0 * log1p(1) = 0; for m >= 1, max(m, 1) = m.
    return (m + 1.0) * np.exp(m * np.log1p(1.0 / np.maximum(m, 1.0)))


def snml_regret(sequence, K):
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
    >>> from pgmpy_nml.snml import snml_regret
    >>> import math
    >>> math.isclose(snml_regret([0, 0], 2), math.log(2.5))  # (1/1) * (5/4) / (1/2)
    True
    >>> round(snml_regret([0, 1, 0, 1], 2), 6), round(snml_regret([0, 0, 1, 1], 2), 6)
    (1.211755, 1.180006)
    """
    K = as_integer(K, "K", 1)
    return _run(_as_sequence(sequence, K), None, K)[0]


def snml_code_length(sequence, K):
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
    >>> from pgmpy_nml.snml import snml_code_length
    >>> # P(0) = 1/2, P(1 | 0) = 1 / (4 + 1), P(1 | 0, 1) = 1/2
    >>> math.isclose(snml_code_length([0, 1, 1], 2), math.log(20))
    True
    """
    K = as_integer(K, "K", 1)
    regret, ml_code_length = _run(_as_sequence(sequence, K), None, K)
    return regret + ml_code_length


def fsnml_code_length_grouped(groups, sequence, K):
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
    >>> from pgmpy_nml.snml import fsnml_code_length_grouped, snml_code_length
    >>> total = fsnml_code_length_grouped([0, 1, 0, 1, 0], [0, 1, 1, 1, 0], 2)
    >>> math.isclose(total, snml_code_length([0, 1, 0], 2) + snml_code_length([1, 1], 2))
    True
    """
    K = as_integer(K, "K", 1)
    seq = _as_sequence(sequence, K)
    try:
        grp = np.asarray(groups)
    except (ValueError, TypeError) as exc:
        raise TypeError(f"groups must be a 1-D array-like of integers: {exc}") from exc
    if grp.ndim != 1:
        raise ValueError(f"groups must be one-dimensional, got an array of shape {grp.shape}")
    if grp.shape[0] != seq.shape[0]:
        raise ValueError(
            f"groups and sequence must have the same length, got {grp.shape[0]} and {seq.shape[0]}"
        )
    if grp.size and grp.dtype.kind not in "iu":
        if grp.dtype.kind == "b":
            raise TypeError("groups must contain integers, got a boolean array")
        grp = _as_sequence(grp, 2**62)
    if grp.size and grp.min() < 0:
        t = int(np.flatnonzero(grp < 0)[0])
        raise ValueError(f"groups must be non-negative, found {grp[t].item()} at position {t}")
    return float(sum(_run(seq, grp, K)))


def snml_regret_bound_bernoulli(N):
    r"""Theorem 4 of [1]_ (Takimoto & Warmuth [2]_): sNML regret bound for binary data.

    For every binary sequence :math:`D` of length :math:`N`,

    .. math::

        R_{\mathrm{sNML}}(D, N, 2) \le \frac12 \log(N + 1) + \frac12 .

    This is the relaxed bound of :func:`snml_regret_bound` for :math:`K = 2`
    (as stated, it is :math:`1/2` at :math:`N = 0`, where the regret is 0).

    Parameters
    ----------
    N : float or array_like of float
        Sample size(s), finite and :math:`\ge 0`.

    Returns
    -------
    float or numpy.ndarray
        The bound in nats (a float for scalar ``N``).

    Raises
    ------
    TypeError
        If ``N`` is not real (booleans rejected).
    ValueError
        If ``N`` is negative, NaN or infinite.

    References
    ----------
    .. [1] T. Silander, T. Roos and P. Myllymäki, "Learning locally minimax
       optimal Bayesian networks", International Journal of Approximate
       Reasoning 51(5):544–557, 2010, Theorem 4.
    .. [2] E. Takimoto and M. Warmuth, "The last-step minimax algorithm",
       Proc. ALT 2000, pp. 279–290.

    Examples
    --------
    >>> from pgmpy_nml.snml import snml_regret_bound_bernoulli
    >>> round(snml_regret_bound_bernoulli(99), 6)  # log(100) / 2 + 1/2
    2.802585
    >>> snml_regret_bound_bernoulli([0, 1])
    array([0.5       , 0.84657359])
    """
    if np.ndim(N) == 0:
        return 0.5 * math.log1p(_check_real(N, "N")) + 0.5
    return 0.5 * np.log1p(_as_real_array(N, "N")) + 0.5


def snml_regret_bound(N, K, relaxed=False):
    r"""Theorem 5 of [1]_: upper bound on the sNML regret of categorical data.

    For every sequence :math:`D` of length :math:`N` over :math:`K` values,

    .. math::

        R_{\mathrm{sNML}}(D, N, K) \le \bar R(N, K) =
            \frac{1}{K} \sum_{k=1}^{K-1} \left[ N \log\frac{N+k}{N}
                                               + k \log\frac{N+k}{k} \right]

    (the :math:`1/K` applies to both terms, as the proof in Appendix C shows:
    the bound is :math:`\log \prod_{k=1}^{K-1} ((N+k)/N)^{N/K} ((N+k)/k)^{k/K}`),
    with :math:`\bar R(0, K) = 0` and :math:`\bar R(1, K) = \log K`. Using
    :math:`((N+k)/N)^N \le e^k` and :math:`((N+k)/k)^k \le
    ((N+K-1)/(K-1))^{K-1}` gives the relaxed bound (``relaxed=True``)

    .. math::

        R_{\mathrm{sNML}}(D, N, K) \le (K - 1) \left[ \frac{K-1}{K}
            \log\left(\frac{N}{K-1} + 1\right) + \frac12 \right],

    which for :math:`K = 2` is Theorem 4 (:func:`snml_regret_bound_bernoulli`).

    The proof replaces the counts by their real-valued average
    :math:`(n-1)/K` at every step, so the bound is attained only for
    :math:`N \le 1`; the exact worst case (round-robin order) stays below it
    by a gap that converges to a constant (about 0.039 nats for
    :math:`K = 2`). :math:`\bar R(N, K)` is increasing and concave in
    :math:`N`, which Theorem 6 (:func:`fsnml_regret_bound`) relies on.

    Parameters
    ----------
    N : float or array_like of float
        Sample size(s), finite and :math:`\ge 0`; non-integral values are
        allowed (Theorem 6 evaluates the bound at :math:`N / q_i`).
    K : int
        Number of categories, an integer :math:`\ge 1`. The cost is
        :math:`O(K)` per value of ``N``.
    relaxed : bool, default False
        Return the relaxed bound instead.

    Returns
    -------
    float or numpy.ndarray
        The bound in nats (a float for scalar ``N``).

    Raises
    ------
    TypeError
        If ``N`` or ``K`` is not numeric, or ``relaxed`` is not a bool.
    ValueError
        If ``N`` is negative or not finite, or ``K`` is not an integer ``>= 1``.

    References
    ----------
    .. [1] T. Silander, T. Roos and P. Myllymäki, "Learning locally minimax
       optimal Bayesian networks", International Journal of Approximate
       Reasoning 51(5):544–557, 2010, Theorem 5 and Appendix C.

    Examples
    --------
    >>> import math
    >>> from pgmpy_nml.snml import snml_regret_bound
    >>> math.isclose(snml_regret_bound(1, 3), math.log(3))
    True
    >>> round(snml_regret_bound(100, 2), 6), round(snml_regret_bound(100, 2, relaxed=True), 6)
    (2.805077, 2.80756)
    >>> snml_regret_bound([0, 10.5], 4)
    array([0.        , 4.01111447])
    """
    K = as_integer(K, "K", 1)
    if not isinstance(relaxed, (bool, np.bool_)):
        raise TypeError(f"relaxed must be a bool, got {relaxed!r}")
    scalar = np.ndim(N) == 0
    ns = np.array([_check_real(N, "N")]) if scalar else _as_real_array(N, "N")
    if relaxed:
        km1 = float(K - 1)
        out = km1 * ((km1 / K) * np.log1p(ns / max(km1, 1.0)) + 0.5)
    else:
        out = _bound_many(np.ascontiguousarray(ns.ravel()), K).reshape(ns.shape)
    return float(out[0]) if scalar else out


def _family_bound(N: float, q: int, r: int) -> float:
    r""":math:`q\,\bar R(N/q, r)` for a Python int ``q >= 1`` of any size (no checks)."""
    if N == 0.0 or r == 1:
        return 0.0
    if q.bit_length() <= 1000:
        qf = float(q)
        x = N / qf
        if x >= _TINY:
            return qf * float(_bound_kernel(x, r))
    # x = N/q below 1e-280: q Rbar(x, r) = (N/r) sum_k [log1p(k/x) + (k/x) log1p(x/k)]
    # = (N/r) sum_k [log k - log x + 1] + O(x), and log x = log N - log q exactly enough.
    log_inv_x = math.log(q) - math.log(N)
    return N / r * (math.lgamma(r) + (r - 1) * (log_inv_x + 1.0))


def fsnml_regret_bound(arities, parent_configurations, N):
    r"""Theorem 6 of [1]_: regret bound of fsNML for a Bayesian network structure.

    For every :math:`N \times m` data matrix :math:`D`,

    .. math::

        R_{\mathrm{fsNML}}(D, N, G) = \log \hat P(D \mid G) - \log P_{\mathrm{fsNML}}(D \mid G)
          \le \sum_{i=1}^{m} q_i\, \bar R\!\left(\frac{N}{q_i}, r_i\right),

    with :math:`\bar R` the bound of Theorem 5 (:func:`snml_regret_bound`),
    :math:`r_i` the arity of :math:`X_i` and :math:`q_i` its number of parent
    configurations. The regret splits into the sNML regrets of the
    sequences :math:`D_i^{G_i = j}` (sizes :math:`N_{ij}`, :math:`\sum_j
    N_{ij} = N`); as :math:`\bar R` is concave in :math:`N` with
    :math:`\bar R(0) = 0`, :math:`\sum_j \bar R(N_{ij}) \le q_i \bar R(N/q_i)`.
    The bound holds as written also when :math:`q_i > N`; for
    :math:`q_i \to \infty` its term grows like
    :math:`\frac{N}{r_i}[\log (r_i - 1)! + (r_i - 1)(\log(q_i/N) + 1)]`,
    which is used when :math:`N / q_i < 10^{-280}` (``q_i`` may be a Python
    int of any size).

    Parameters
    ----------
    arities : int or array_like of int
        :math:`r_i \ge 1`, one per variable.
    parent_configurations : int or array_like of int
        :math:`q_i \ge 1` (products of the parents' arities), same length as
        ``arities``; arbitrarily large Python ints are accepted.
    N : float
        Number of rows, finite and :math:`\ge 0`.

    Returns
    -------
    float
        The bound in nats.

    Raises
    ------
    TypeError
        If an argument is not numeric (booleans rejected).
    ValueError
        If an arity or parent-configuration count is not an integer ``>= 1``,
        the two have different lengths, or ``N`` is negative or not finite.

    References
    ----------
    .. [1] T. Silander, T. Roos and P. Myllymäki, "Learning locally minimax
       optimal Bayesian networks", International Journal of Approximate
       Reasoning 51(5):544–557, 2010, Theorem 6.

    Examples
    --------
    >>> from pgmpy_nml.snml import fsnml_regret_bound, snml_regret_bound
    >>> # X1 -> X2 with r = (2, 3): q = (1, 2)
    >>> b = fsnml_regret_bound([2, 3], [1, 2], 100)
    >>> round(b, 6)
    11.737867
    >>> import math
    >>> math.isclose(b, snml_regret_bound(100, 2) + 2 * snml_regret_bound(50, 3))
    True
    >>> round(fsnml_regret_bound([2], [2**3000], 10), 3)  # q >> N
    10390.695
    """
    Nf = _check_real(N, "N")
    r_list = _int_list(arities, "arities")
    q_list = _int_list(parent_configurations, "parent_configurations")
    if len(r_list) != len(q_list):
        raise ValueError(
            f"arities and parent_configurations must have the same length, got "
            f"{len(r_list)} and {len(q_list)}"
        )
    return math.fsum(_family_bound(Nf, q, r) for r, q in zip(r_list, q_list, strict=True))


def _int_list(values, name: str) -> list[int]:
    """Scalar or 1-D array-like of integers >= 1 as a list of Python ints."""
    if isinstance(values, (list, tuple)):
        items = list(values)
    else:
        arr = np.asarray(values, dtype=object) if np.ndim(values) else None
        if arr is None:
            items = [values]
        elif arr.ndim != 1:
            raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
        else:
            items = list(arr)
    out = []
    for i, v in enumerate(items):
        if np.ndim(v) != 0:
            raise ValueError(f"{name} must be one-dimensional, entry {i} is {v!r}")
        try:
            out.append(as_integer(v, f"{name}[{i}]", 1))
        except (TypeError, ValueError) as exc:
            raise type(exc)(str(exc)) from None
    return out
