r"""Upper bounds on the regret of sNML and fsNML: Theorems 4–6 of Silander et al. [1]_.

The regret :math:`R_{\mathrm{sNML}}(D) = \log \hat P(D) - \log P_{\mathrm{sNML}}(D)`
of the sequential NML model (:mod:`pgmpy_nml.numerics.snml`) depends on the order of
the data; its worst case over all sequences of length :math:`N` is bounded by
:func:`snml_regret_bound_bernoulli` (Theorem 4, binary data, after Takimoto and
Warmuth [2]_), :func:`snml_regret_bound` (Theorem 5, :math:`K` values) and, for a
whole network under factorized sequential NML, :func:`fsnml_regret_bound` (Theorem 6).

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
.. [2] E. Takimoto and M. Warmuth, "The last-step minimax algorithm", Proc.
   11th International Conference on Algorithmic Learning Theory (ALT), pp.
   279–290, 2000.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .._jit import njit
from .._validate import as_bool, as_integer, as_integer_list, as_real, as_real_array
from .summation import neumaier_add

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .._typing import ArrayLike, FloatOrArray

__all__ = ["fsnml_regret_bound", "snml_regret_bound", "snml_regret_bound_bernoulli"]

# Below this N (or N / q) the bound is evaluated in a logarithmic form that
# cannot overflow (k / N would).
_TINY = 1e-280


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
        total, comp = neumaier_add(total, comp, first + kf * math.log1p(n / kf))
    return (total + comp) / float(k_max)


@njit(cache=True, nogil=True)
def _bound_many(ns, k_max):  # pragma: no cover - compiled
    """:func:`_bound_kernel` over a 1-D float64 array of sample sizes."""
    out = np.empty(ns.shape[0], dtype=np.float64)
    for i in range(ns.shape[0]):
        out[i] = _bound_kernel(ns[i], k_max)
    return out


def snml_regret_bound_bernoulli(N: ArrayLike) -> FloatOrArray:
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
    >>> from pgmpy_nml.numerics.snml_bounds import snml_regret_bound_bernoulli
    >>> round(snml_regret_bound_bernoulli(99), 6)  # log(100) / 2 + 1/2
    2.802585
    >>> snml_regret_bound_bernoulli([0, 1])
    array([0.5       , 0.84657359])
    """
    if np.ndim(N) == 0:
        return 0.5 * math.log1p(as_real(N, "N")) + 0.5
    return 0.5 * np.log1p(as_real_array(N, "N")) + 0.5


def snml_regret_bound(N: ArrayLike, K: int, relaxed: bool = False) -> FloatOrArray:
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
    >>> from pgmpy_nml.numerics.snml_bounds import snml_regret_bound
    >>> math.isclose(snml_regret_bound(1, 3), math.log(3))
    True
    >>> round(snml_regret_bound(100, 2), 6), round(snml_regret_bound(100, 2, relaxed=True), 6)
    (2.805077, 2.80756)
    >>> snml_regret_bound([0, 10.5], 4)
    array([0.        , 4.01111447])
    """
    K = as_integer(K, "K", 1)
    relaxed = as_bool(relaxed, "relaxed")
    scalar = np.ndim(N) == 0
    ns = np.array([as_real(N, "N")]) if scalar else as_real_array(N, "N")
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


def fsnml_regret_bound(
    arities: Sequence[int], parent_configurations: Sequence[int], N: int
) -> float:
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
    >>> from pgmpy_nml.numerics.snml_bounds import fsnml_regret_bound, snml_regret_bound
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
    Nf = as_real(N, "N")
    r_list = as_integer_list(arities, "arities")
    q_list = as_integer_list(parent_configurations, "parent_configurations")
    if len(r_list) != len(q_list):
        raise ValueError(
            f"arities and parent_configurations must have the same length, got "
            f"{len(r_list)} and {len(q_list)}"
        )
    return math.fsum(_family_bound(Nf, q, r) for r, q in zip(r_list, q_list, strict=True))
