r"""The most adverse and most favourable priors of Min-BDeu and Max-BDeu, per row.

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
the maximum solves a smooth concave program (:func:`max_bdeu_prior`). The row values
themselves are :func:`pgmpy_nml.scores._dirichlet.log_bd_rows`.

References
----------
M. Scanagatta, C. P. de Campos, M. Zaffalon. "Min-BDeu and Max-BDeu scores for
learning Bayesian networks". Probabilistic Graphical Models (PGM 2014), LNCS 8754,
pp. 426-441, Section 3.
"""

from __future__ import annotations

import numpy as np

from .._jit import njit
from .._validate import as_count_array
from ..numerics.polygamma import harmonic_sums
from ._dirichlet import table_log_bd_rows

__all__ = [
    "max_bdeu_prior",
    "max_bdeu_rows",
    "min_bdeu_prior",
    "min_bdeu_rows",
    "table_max_bdeu_prior",
    "table_max_bdeu_rows",
    "table_min_bdeu_prior",
    "table_min_bdeu_rows",
]

#: Above this hyperparameter the Max-BDeu solver uses d(a) = n/a (see _inv_d_and_slope).
_HUGE_A = 1e100


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
    r1, r2 = harmonic_sums(a + 1.0, n - 1)
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


# size: one compiled (numba) kernel: the KKT solve of one row stays inline for speed
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


def _bounds(beta, epsilon, r):
    beta = float(beta)
    epsilon = float(epsilon)
    lo = beta * (1.0 - epsilon) / r
    # U = beta (eps + (1-eps)/r) written as L + beta*eps: guarantees U >= L in floating
    # point, U == L for eps = 0 and (L, U) == (0, beta) for eps = 1.
    up = lo + beta * epsilon
    return beta, lo, up


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
    return table_min_bdeu_prior(as_count_array(counts, ndim=2), beta, epsilon)


def table_min_bdeu_prior(counts: np.ndarray, beta: float, epsilon: float) -> np.ndarray:
    """:func:`min_bdeu_prior` of a count table the package made itself (no checks)."""
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
    return table_max_bdeu_prior(as_count_array(counts, ndim=2), beta, epsilon)


def table_max_bdeu_prior(counts: np.ndarray, beta: float, epsilon: float) -> np.ndarray:
    """:func:`max_bdeu_prior` of a count table the package made itself (no checks)."""
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
    return table_min_bdeu_rows(as_count_array(counts, ndim=2), beta, epsilon)


def max_bdeu_rows(counts, beta, epsilon):
    r"""Per-row Max-BDeu value :math:`\max_{\alpha_j\in A} s_j(\alpha_j)`.

    ``log_bd_rows(counts, max_bdeu_prior(counts, beta, epsilon))``; see
    :func:`max_bdeu_prior` for the parameters. Never below :func:`min_bdeu_rows`.

    Examples
    --------
    >>> import numpy as np
    >>> counts = np.array([[3, 1, 1], [0, 2, 5]])
    >>> np.round(max_bdeu_rows(counts, 1.5, 0.5), 6)
    array([-6.447592, -5.793841])
    >>> bool((max_bdeu_rows(counts, 1.5, 0.5) >= min_bdeu_rows(counts, 1.5, 0.5)).all())
    True
    """
    return table_max_bdeu_rows(as_count_array(counts, ndim=2), beta, epsilon)


def table_min_bdeu_rows(table: np.ndarray, beta: float, epsilon: float) -> np.ndarray:
    """:func:`min_bdeu_rows` of a count table the package made itself (no checks)."""
    return table_log_bd_rows(table, table_min_bdeu_prior(table, beta, epsilon))


def table_max_bdeu_rows(table: np.ndarray, beta: float, epsilon: float) -> np.ndarray:
    """:func:`max_bdeu_rows` of a count table the package made itself (no checks)."""
    return table_log_bd_rows(table, table_max_bdeu_prior(table, beta, epsilon))
