r"""Numerical kernels for the BD family and the Min-BDeu / Max-BDeu scores.

Everything here works on one family's count table ``counts`` of shape ``(q, r)``:
row ``j`` is a parent configuration, column ``k`` a child state (rows may be
all-zero).  With a Dirichlet prior :math:`\alpha_j = (\alpha_{j1}, \dots, \alpha_{jr})`,
:math:`\beta_j = \sum_k \alpha_{jk}` and :math:`N_j = \sum_k N_{jk}`, the log
marginal likelihood of row ``j`` is

.. math::

    s_j(\alpha_j) = \log\Gamma(\beta_j) - \log\Gamma(\beta_j + N_j)
        + \sum_{k:\,N_{jk}>0} \bigl[\log\Gamma(\alpha_{jk} + N_{jk})
        - \log\Gamma(\alpha_{jk})\bigr].

Min-BDeu and Max-BDeu (Scanagatta, de Campos and Zaffalon, 2014) replace the
symmetric BDeu prior :math:`\beta/r` of every row by the worst (best) prior in the
:math:`\varepsilon`-contaminated set

.. math::

    A = \{\alpha : \textstyle\sum_k \alpha_k = \beta,\ L \le \alpha_k \le U\},\quad
    L = \beta\frac{1-\varepsilon}{r},\quad
    U = \beta\Bigl(\varepsilon + \frac{1-\varepsilon}{r}\Bigr),

the convex hull of the ``r`` vertices "one coordinate at ``U``, the others at
``L``".  In floating point ``U`` is evaluated as ``L + beta * epsilon`` (equal
analytically), which guarantees ``U >= L``, ``U == L`` for ``epsilon = 0`` and
``(L, U) == (0, beta)`` for ``epsilon = 1``.  The :math:`\alpha`-dependent part of :math:`s_j`,
:math:`f(\alpha) = \sum_{k:N_k>0} \sum_{w=0}^{N_k-1} \log(\alpha_k + w)`, is concave,
so the minimum is attained at a vertex (closed form, :func:`min_bdeu_prior`) and
the maximum solves a smooth concave program (:func:`max_bdeu_prior`).

References
----------
M. Scanagatta, C. P. de Campos, M. Zaffalon. "Min-BDeu and Max-BDeu scores for
learning Bayesian networks". Probabilistic Graphical Models (PGM 2014), LNCS 8754,
pp. 426-441, Section 3.
"""

from __future__ import annotations

import math

import numpy as np

from .._jit import njit
from ..numerics.gamma import log_rising

__all__ = [
    "log_bd_rows",
    "max_bdeu_prior",
    "max_bdeu_rows",
    "min_bdeu_prior",
    "min_bdeu_rows",
]


# ---------------------------------------------------------------------------
# digamma / trigamma differences for the Max-BDeu solver
# ---------------------------------------------------------------------------

#: Arguments are shifted by the recurrence to at least this value before the
#: asymptotic (Stirling) series is used; with terms up to x**-16 (digamma) and
#: x**-17 (trigamma) the truncation error is below 1e-17 relative there.
_ASYM_MIN = 10.0

#: Below this many terms, sums of 1/(a+w) and 1/(a+w)**2 are done directly.
_DIRECT_MAX = 64

#: Above this hyperparameter the Max-BDeu solver uses d(a) = n/a (see _inv_d_and_slope).
_HUGE_A = 1e100


@njit(cache=True)
def _psi_series_tail(x):
    """Stirling tail of digamma: ``psi(x) - log(x) + 1/(2x)`` for ``x >= 10``.

    ``-sum_k B_2k / (2k x^2k)``, k = 1..8.
    """
    z = 1.0 / (x * x)
    return -z * (
        1.0 / 12.0
        - z
        * (
            1.0 / 120.0
            - z
            * (
                1.0 / 252.0
                - z
                * (
                    1.0 / 240.0
                    - z
                    * (
                        1.0 / 132.0
                        - z * (691.0 / 32760.0 - z * (1.0 / 12.0 - z * (3617.0 / 8160.0)))
                    )
                )
            )
        )
    )


@njit(cache=True)
def _psi1_series_tail(x):
    """Stirling tail of trigamma: ``psi1(x) - 1/x - 1/(2x^2)`` for ``x >= 10``.

    ``sum_k B_2k / x^(2k+1)``, k = 1..8.
    """
    z = 1.0 / (x * x)
    return (
        z
        / x
        * (
            1.0 / 6.0
            - z
            * (
                1.0 / 30.0
                - z
                * (
                    1.0 / 42.0
                    - z
                    * (
                        1.0 / 30.0
                        - z
                        * (
                            5.0 / 66.0
                            - z * (691.0 / 2730.0 - z * (7.0 / 6.0 - z * (3617.0 / 510.0)))
                        )
                    )
                )
            )
        )
    )


@njit(cache=True)
def _harmonic_sums(b, m):
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


@njit(cache=True)
def _inv_d_and_slope(a, n):
    r"""Return ``h(a) = 1 / d(a)`` and ``h'(a)`` for a cell with count ``n >= 1``.

    :math:`d(a) = \psi(a+n) - \psi(a) = \sum_{w<n} 1/(a+w)` is the derivative of
    the cell's term of ``f``.  Written as :math:`d = 1/a + R_1`,
    :math:`-d' = 1/a^2 + R_2` with :math:`R_{1,2}` sums over ``w >= 1``:
    :math:`h = a / (1 + a R_1)`, :math:`h' = (1 + a^2 R_2) / (1 + a R_1)^2`,
    which is finite and smooth down to ``a = 0`` (``h(0) = 0``, ``h'(0) = 1``).
    ``h`` is increasing and concave (a harmonic mean of ``a + w``).

    For ``a > 1e100`` both :math:`a R_1 = \sum_{w=1}^{n-1} a/(a+w)` and
    :math:`a^2 R_2` equal ``n - 1`` to double precision (relative corrections
    ``n/a < 1e-80``), so ``h = a/n`` and ``h' = 1/n`` are returned: the sums of
    ``1/(a+w)**2`` underflow and ``a * a`` overflows from ``a ~ 1e154`` on.
    """
    if a > _HUGE_A:
        return a / n, 1.0 / n
    r1, r2 = _harmonic_sums(a + 1.0, n - 1)
    den = 1.0 + a * r1
    return a / den, (1.0 + a * a * r2) / (den * den)


@njit(cache=True)
def _invert_h(t, n, a0, a_safe, hi):
    """Solve ``h(a) = t`` by Newton from the left; return ``(a, 1 / h'(a))``.

    ``h = 1/d`` is concave increasing, so its tangent lies above the graph and
    Newton started at a point with ``h(a0) <= t`` increases monotonically to the
    root without overshoot (the same as Newton on the convex decreasing ``d`` from
    the left, but nearly linear both for ``a -> 0`` and ``a -> inf``, so 1-3
    steps suffice).  ``a0`` is a cheap guess; if it turns out to lie right of the
    root the iteration restarts from ``a_safe``, a guaranteed lower bound.  ``hi``
    bounds the root from above.  Newton's error after a step of relative size
    ``s`` is at most about ``s**2`` here (``a |h''| / h' <= 2``), so iteration
    stops once ``s <= 1e-8``.
    """
    a = a0
    ha, dh = _inv_d_and_slope(a, n)
    if ha > t and a0 > a_safe:
        a = a_safe
        ha, dh = _inv_d_and_slope(a, n)
    for _ in range(200):
        diff = t - ha
        if diff <= 0.0:
            break
        a_new = min(a + diff / dh, hi)
        if not (a_new > a):
            break
        if a_new - a <= 1e-8 * a_new:
            return a_new, 1.0 / dh
        a = a_new
        ha, dh = _inv_d_and_slope(a, n)
    return a, 1.0 / dh


# rows of the per-row workspace used by _max_bdeu_row
_W_HLO, _W_HUP, _W_ALO, _W_A, _W_SLOPE, _W_TANC, _W_AANC, _W_SANC = range(8)


@njit(cache=True)
def _max_bdeu_row(nrow, beta, lo, up, out, idx, nn, w):
    """Maximize ``f`` over the contaminated set for one row; write into ``out``.

    KKT: with a multiplier ``lam > 0``, ``alpha_k = clip(d_k^{-1}(lam), L, U)`` for
    ``N_k > 0`` and ``alpha_k = L`` for ``N_k = 0``.  We parametrize by
    ``t = 1/lam``: ``alpha_k(t) = clip(h_k^{-1}(t), L, U)`` with ``h_k = 1/d_k``
    is non-decreasing in ``t``, and ``S(t) = sum_k alpha_k(t) = mass`` is solved by
    Newton safeguarded by a bracket ``[t_lo, t_hi]`` (bisection when a step leaves
    it or does not halve).  Inner inversions are Newton from the left, started at
    the tangent prediction from the last solution of that coordinate
    (``h_k^{-1}`` is convex, so the tangent under-estimates it) and falling back
    to ``alpha_k(t_lo)``.  A final linearized step spreads the residual mass over
    the free coordinates, and everything is clipped to ``[L, U]``.
    ``w`` is an (8, r) workspace.
    """
    r = nrow.shape[0]
    npos = 0
    for k in range(r):
        if nrow[k] > 0:
            idx[npos] = k
            nn[npos] = nrow[k]
            npos += 1
    if r == 1:
        out[0] = beta
        return
    if npos == 0 or not (up > lo):
        sym = min(max(beta / r, lo), up)
        for k in range(r):
            out[k] = sym
        return
    for k in range(r):
        out[k] = lo
    if npos == 1:
        out[idx[0]] = up
        return

    hlo = w[_W_HLO]
    hup = w[_W_HUP]
    alo = w[_W_ALO]
    acur = w[_W_A]
    slope = w[_W_SLOPE]
    t_anc = w[_W_TANC]
    a_anc = w[_W_AANC]
    s_anc = w[_W_SANC]

    mass = beta - (r - npos) * lo  # to be shared by the cells with N_k > 0
    # Bracket: S(t) = npos*L <= mass for t <= min h_k(L), S(t) = npos*U > mass for
    # t >= max h_k(U).  Anchors (t, a, da/dt) on each h_k^{-1} at the symmetric point
    # give the start: one Newton step of the all-free system from there.
    t_lo = np.inf
    t_hi = 0.0
    sym = mass / npos
    num = 0.0
    den = 0.0
    for i in range(npos):
        hlo[i] = _inv_d_and_slope(lo, nn[i])[0] if lo > 0.0 else 0.0
        hup[i] = _inv_d_and_slope(up, nn[i])[0]
        t_lo = min(t_lo, hlo[i])
        t_hi = max(t_hi, hup[i])
        alo[i] = lo
        hs, dhs = _inv_d_and_slope(sym, nn[i])
        t_anc[i] = hs
        a_anc[i] = sym
        s_anc[i] = 1.0 / dhs
        num += hs * s_anc[i]
        den += s_anc[i]
    t = num / den
    if not (t_lo < t < t_hi):
        t = 0.5 * (t_lo + t_hi)
    step_old = t_hi - t_lo
    eps = 2.220446049250313e-16
    for _ in range(300):
        s = 0.0
        ds = 0.0
        for i in range(npos):
            if t <= hlo[i]:
                a = lo
                slope[i] = 0.0
            elif t >= hup[i]:
                a = up
                slope[i] = 0.0
            else:
                a0 = max(alo[i], a_anc[i] + (t - t_anc[i]) * s_anc[i])
                a, sl = _invert_h(t, nn[i], min(a0, up), alo[i], up)
                a = min(max(a, lo), up)
                slope[i] = sl
                t_anc[i] = t
                a_anc[i] = a
                s_anc[i] = sl
            acur[i] = a
            s += a
            ds += slope[i]
        g = s - mass
        # a relative mass residual of 1e-10 is removed to second order by the
        # final linearized step below
        if abs(g) <= 4.0 * eps * mass or (ds > 0.0 and abs(g) <= 1e-10 * mass):
            break
        if g < 0.0:
            t_lo = t
            for i in range(npos):
                alo[i] = acur[i]
        else:
            t_hi = t
        if not (t_hi - t_lo > 2.0 * eps * t_hi):
            break
        t_new = t - g / ds if ds > 0.0 else -1.0
        step = abs(t_new - t)
        if not (t_lo < t_new < t_hi) or step > 0.5 * step_old:
            t_new = 0.5 * (t_lo + t_hi)
            step = 0.5 * (t_hi - t_lo)
        step_old = step
        t = t_new

    # Final step: alpha_k(t + dt) ~ alpha_k + dt * slope_k on the free coordinates,
    # with dt chosen to restore the mass exactly; then clip to [L, U] exactly.
    s = 0.0
    wsum = 0.0
    for i in range(npos):
        s += acur[i]
        if lo < acur[i] < up:
            wsum += slope[i]
    res = mass - s
    if res != 0.0 and wsum > 0.0:
        dt = res / wsum
        for i in range(npos):
            if lo < acur[i] < up:
                acur[i] = min(max(acur[i] + dt * slope[i], lo), up)
    for i in range(npos):
        out[idx[i]] = acur[i]


@njit(cache=True)
def _max_bdeu_kernel(counts, beta, lo, up, out):
    q, r = counts.shape
    idx = np.empty(r, np.int64)
    nn = np.empty(r, np.int64)
    w = np.empty((8, r))
    for j in range(q):
        _max_bdeu_row(counts[j], beta, lo, up, out[j], idx, nn, w)
    return out


# ---------------------------------------------------------------------------
# public API
# ---------------------------------------------------------------------------


def _as_counts(counts):
    counts = np.asarray(counts)
    if counts.ndim != 2:
        raise ValueError(f"counts must be a 2-D (q, r) table, got shape {counts.shape}")
    if counts.dtype.kind not in "biu" and not np.array_equal(counts, np.floor(counts)):
        raise ValueError("counts must be non-negative integers (a table of counts N_jk)")
    return counts


def _bounds(beta, epsilon, r):
    beta = float(beta)
    epsilon = float(epsilon)
    lo = beta * (1.0 - epsilon) / r
    # U = beta (eps + (1-eps)/r) written as L + beta*eps: guarantees U >= L in floating
    # point, U == L for eps = 0 and (L, U) == (0, beta) for eps = 1.
    up = lo + beta * epsilon
    return beta, lo, up


@njit(cache=True, nogil=True)
def _log_bd_rows_kernel(counts, alpha, out):
    """``out[j] = sum_k lr(alpha_jk, N_jk) - lr(beta_j, N_j)``, ``lr`` = :func:`log_rising`."""
    q, r = counts.shape
    for j in range(q):
        nj = 0
        bj = 0.0
        cells = 0.0
        for k in range(r):
            bj += alpha[j, k]
            if counts[j, k] > 0:
                nj += counts[j, k]
                cells += log_rising(alpha[j, k], counts[j, k])
        out[j] = cells - log_rising(bj, nj) if nj > 0 else 0.0
    return out


def log_bd_rows(counts, alpha):
    r"""Per-row Bayesian-Dirichlet log marginal likelihood.

    .. math::

        s_j = \log\Gamma(\beta_j) - \log\Gamma(\beta_j + N_j)
            + \sum_{k:\,N_{jk}>0}\bigl[\log\Gamma(\alpha_{jk}+N_{jk})
            - \log\Gamma(\alpha_{jk})\bigr],
        \qquad \beta_j = \sum_k \alpha_{jk},\ N_j = \sum_k N_{jk}.

    Cells with :math:`N_{jk} = 0` contribute exactly zero (so :math:`\alpha_{jk} = 0`
    is allowed there) and all-zero rows give exactly ``0.0``.  A cell with
    :math:`N_{jk} > 0` and :math:`\alpha_{jk} = 0` gives ``-inf`` (a degenerate
    Dirichlet puts no mass on that state).

    Parameters
    ----------
    counts : array_like of int, shape (q, r)
        Count table :math:`N_{jk}`; row ``j`` = parent configuration, column ``k``
        = child state.
    alpha : float or array_like, broadcastable to (q, r)
        Dirichlet hyper-parameters :math:`\alpha_{jk} \ge 0` with positive row sums.
        A scalar ``a`` means :math:`\alpha_{jk} = a`; BDeu with equivalent sample
        size ``ess`` is ``alpha = ess / (q * r)``.

    Returns
    -------
    numpy.ndarray of float64, shape (q,)
        :math:`s_j` for every row (natural log).

    Notes
    -----
    Every Gamma ratio is the log rising factorial
    :func:`pgmpy_nml.numerics.gamma.log_rising`, accurate to a few ulps for any
    hyperparameter (a difference of ``lgamma`` values loses everything once
    :math:`\alpha \gtrsim 10^{16}`).  What remains is the conditioning of the
    sum itself: its terms have size about :math:`N_{jk}|\log\alpha_{jk}|` and
    :math:`s_j` about :math:`N_j \log r`, so the relative error grows like
    ``1e-16 * |log alpha|`` (measured against mpmath: below 5e-14 for
    :math:`10^{-8} \le \alpha \le 10^{20}`, 2.5e-13 at :math:`10^{300}`).  As
    :math:`\beta_j \to \infty` with fixed proportions, :math:`s_j` tends to
    :math:`\sum_k N_{jk}\log(\alpha_{jk}/\beta_j)`, the log-likelihood of the row
    under the prior mean.

    Examples
    --------
    >>> import numpy as np
    >>> counts = np.array([[3, 1], [0, 0], [2, 0]])
    >>> np.round(log_bd_rows(counts, 0.5), 6)  # alpha_jk = 0.5 in every cell
    array([-3.242592,  0.      , -0.980829])
    >>> round(float(log_bd_rows([[2, 3]], 1e20)[0]), 12)  # 5 log(1/2): prior mean likelihood
    -3.4657359028
    """
    counts = _as_counts(counts)
    q, r = counts.shape
    a = np.ascontiguousarray(np.broadcast_to(np.asarray(alpha, dtype=np.float64), (q, r)))
    counts = np.ascontiguousarray(counts, dtype=np.int64)  # one compiled signature
    return _log_bd_rows_kernel(counts, a, np.empty(q))


def min_bdeu_prior(counts, beta, epsilon):
    r"""Most adversarial prior in the :math:`\varepsilon`-contaminated set, per row.

    Closed form (Scanagatta et al. 2014, Sec. 3): with
    :math:`k^* = \arg\min_k N_{jk}` (ties -> smallest ``k``),

    .. math::

        \alpha_{jk^*} = U = \beta\Bigl(\varepsilon + \frac{1-\varepsilon}{r}\Bigr),
        \qquad \alpha_{jk} = L = \beta\frac{1-\varepsilon}{r}\ (k \ne k^*).

    It minimizes :math:`s_j` over :math:`A` because :math:`f` is concave (minimum at
    a vertex) and moving the extra mass :math:`U - L` onto cell ``k`` raises
    :math:`f` by :math:`\sum_{w<N_k}\log\frac{U+w}{L+w}`, increasing in
    :math:`N_k`.  All-zero rows get the ``k* = 0`` vertex (their value is 0 for any
    prior).  For ``epsilon = 1`` (``L = 0``) any row with data has value ``-inf``.

    Parameters
    ----------
    counts : array_like of int, shape (q, r)
        Count table.
    beta : float
        Prior mass per row, :math:`\beta = \mathrm{ess}/q > 0`.
    epsilon : float
        Contamination, ``0 <= epsilon <= 1`` (0 gives the BDeu prior
        :math:`\beta/r`).

    Returns
    -------
    numpy.ndarray of float64, shape (q, r)

    Examples
    --------
    >>> import numpy as np
    >>> min_bdeu_prior(np.array([[3, 1, 1], [0, 2, 5]]), beta=1.5, epsilon=0.5)
    array([[0.25, 1.  , 0.25],
           [1.  , 0.25, 0.25]])
    """
    counts = _as_counts(counts)
    q, r = counts.shape
    beta, lo, up = _bounds(beta, epsilon, r)
    alpha = np.full((q, r), lo)
    alpha[np.arange(q), np.argmin(counts, axis=1)] = up
    return alpha


def max_bdeu_prior(counts, beta, epsilon):
    r"""Most favourable prior in the :math:`\varepsilon`-contaminated set, per row.

    Solves, for every row, the concave program

    .. math::

        \max_{\alpha}\ \sum_{k:\,N_k>0}\ \sum_{w=0}^{N_k-1}\log(\alpha_k + w)
        \quad\text{s.t.}\quad \sum_k\alpha_k=\beta,\ L\le\alpha_k\le U,

    exactly through its KKT conditions: there is :math:`\lambda > 0` with
    :math:`\alpha_k = \mathrm{clip}(d_k^{-1}(\lambda), L, U)` for :math:`N_k > 0`,
    where :math:`d_k(a) = \psi(a+N_k) - \psi(a) = \sum_{w<N_k} 1/(a+w)`, and
    :math:`\alpha_k = L` for :math:`N_k = 0`.  The monotone 1-D equation
    :math:`\sum_k \alpha_k(\lambda) = \beta` is solved by bracketed Newton in
    :math:`t = 1/\lambda`, each :math:`d_k^{-1}` by monotone Newton from the left
    on the concave increasing :math:`1/d_k` (one compiled numba pass over all rows).
    The result satisfies ``L <= alpha <= U`` exactly and
    :math:`\sum_k\alpha_{jk} = \beta` to rounding, with about 1e-15 relative accuracy.

    Special cases: ``r == 1`` gives ``beta``; ``epsilon == 0`` and all-zero rows
    give the symmetric prior :math:`\beta/r`; a row with a single non-zero cell
    gets the vertex with ``U`` on that cell.

    Parameters
    ----------
    counts : array_like of int, shape (q, r)
        Count table.
    beta : float
        Prior mass per row, :math:`\beta = \mathrm{ess}/q > 0`.
    epsilon : float
        Contamination, ``0 <= epsilon <= 1``.

    Returns
    -------
    numpy.ndarray of float64, shape (q, r)

    Examples
    --------
    >>> import numpy as np
    >>> a = max_bdeu_prior(np.array([[3, 1, 1], [0, 2, 5]]), beta=1.5, epsilon=0.5)
    >>> np.round(a, 6)
    array([[0.679989, 0.410006, 0.410006],
           [0.25    , 0.488502, 0.761498]])
    >>> a.sum(axis=1)
    array([1.5, 1.5])
    """
    counts = _as_counts(counts)
    q, r = counts.shape
    beta, lo, up = _bounds(beta, epsilon, r)
    out = np.empty((q, r))
    counts = np.ascontiguousarray(counts, dtype=np.int64)  # one compiled signature
    return _max_bdeu_kernel(counts, beta, lo, up, out)


def min_bdeu_rows(counts, beta, epsilon):
    r"""Per-row Min-BDeu value :math:`\min_{\alpha_j\in A} s_j(\alpha_j)`.

    ``log_bd_rows(counts, min_bdeu_prior(counts, beta, epsilon))``; see
    :func:`min_bdeu_prior` for the parameters.

    Examples
    --------
    >>> import numpy as np
    >>> np.round(min_bdeu_rows(np.array([[3, 1, 1], [0, 2, 5]]), 1.5, 0.5), 6)
    array([-7.521859, -8.559847])
    """
    return log_bd_rows(counts, min_bdeu_prior(counts, beta, epsilon))


def max_bdeu_rows(counts, beta, epsilon):
    r"""Per-row Max-BDeu value :math:`\max_{\alpha_j\in A} s_j(\alpha_j)`.

    ``log_bd_rows(counts, max_bdeu_prior(counts, beta, epsilon))``; see
    :func:`max_bdeu_prior` for the parameters.

    Examples
    --------
    >>> import numpy as np
    >>> np.round(max_bdeu_rows(np.array([[3, 1, 1], [0, 2, 5]]), 1.5, 0.5), 6)
    array([-6.447592, -5.793841])
    """
    return log_bd_rows(counts, max_bdeu_prior(counts, beta, epsilon))
