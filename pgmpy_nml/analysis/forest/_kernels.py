"""Compiled kernels of the exact forest normalizer (no validation; float64 arrays).

Layouts, with B = n + 1: a count vector h of length K with |h| = n is stored at
sum_{l < K-1} h_l B^l ("simplex layout", B^(K-1) cells, the last count implied);
a vector with |h| <= n at sum_{l < K} h_l B^l ("ball layout", B^K cells). Both
are linear, so the cell of h + r is the cell of h plus the cell of r. The
recursion they serve is described in :mod:`pgmpy_nml.analysis.forest`.
"""

from __future__ import annotations

import math

import numpy as np

from ..._jit import njit


@njit(cache=True, nogil=True)
def _n_compositions(m, K):  # pragma: no cover - compiled
    """binom(m + K - 1, K - 1): the number of count vectors of length K summing to m."""
    c = 1
    for j in range(1, K):
        c = c * (m + j) // j
    return c


@njit(cache=True, nogil=True)
def _compositions(m, K):  # pragma: no cover - compiled
    """All count vectors of length K summing to m, shape (binom(m+K-1, K-1), K)."""
    count = _n_compositions(m, K)
    out = np.empty((count, K), dtype=np.int64)
    c = np.zeros(K, dtype=np.int64)
    s = 0
    for t in range(count):
        for j in range(K - 1):
            out[t, j] = c[j]
        out[t, K - 1] = m - s
        j = 0
        while j < K - 1:  # odometer on the first K - 1 counts, their sum <= m
            if s < m:
                c[j] += 1
                s += 1
                break
            s -= c[j]
            c[j] = 0
            j += 1
    return out


@njit(cache=True, nogil=True)
def _offsets(comps, B, n_coords):  # pragma: no cover - compiled
    """Cell of each row of ``comps`` using its first ``n_coords`` counts (strides B^l)."""
    out = np.zeros(comps.shape[0], dtype=np.int64)
    for t in range(comps.shape[0]):
        o = 0
        st = 1
        for j in range(n_coords):
            o += comps[t, j] * st
            st *= B
        out[t] = o
    return out


@njit(cache=True, nogil=True)
def _g_weights(comps, w, m):  # pragma: no cover - compiled
    """g(r) = prod_l w(r_l) / w(m) for each row r of ``comps`` (all with |r| = m)."""
    out = np.empty(comps.shape[0])
    inv = 1.0 / w[m]
    for t in range(comps.shape[0]):
        p = inv
        for j in range(comps.shape[1]):
            p *= w[comps[t, j]]
        out[t] = p
    return out


@njit(cache=True, nogil=True)
def _first_row_sums(cdesc, K, n, hmax, w, out):  # pragma: no cover - compiled
    """out[ball(h)] = sum_{|r| = n - |h|} g(r) cdesc[simplex(h + r)] for |h| <= hmax."""
    B = n + 1
    for s in range(hmax + 1):
        R = _compositions(n - s, K)
        r_off = _offsets(R, B, K - 1)
        r_w = _g_weights(R, w, n - s)
        H = _compositions(s, K)
        h_ball = _offsets(H, B, K)
        h_simp = _offsets(H, B, K - 1)
        nr = R.shape[0]
        for t in range(H.shape[0]):
            base = h_simp[t]
            acc = 0.0
            for u in range(nr):
                acc += r_w[u] * cdesc[base + r_off[u]]
            out[h_ball[t]] = acc


@njit(cache=True, nogil=True)
def _eliminate_row(T, K, n, m, hmax, w, out):  # pragma: no cover - compiled
    """out[ball(h)] = sum_{|r| = m} g(r) T[ball(h + r)] for |h| <= hmax."""
    B = n + 1
    R = _compositions(m, K)
    r_off = _offsets(R, B, K)
    r_w = _g_weights(R, w, m)
    nr = R.shape[0]
    for s in range(hmax + 1):
        H = _compositions(s, K)
        h_ball = _offsets(H, B, K)
        for t in range(H.shape[0]):
            base = h_ball[t]
            acc = 0.0
            for u in range(nr):
                acc += r_w[u] * T[base + r_off[u]]
            out[base] = acc


@njit(cache=True, nogil=True)
def _last_row(T, K, n, mmax, w, out):  # pragma: no cover - compiled
    """out[m] = sum_{|r| = m} g(r) T[ball(r)] for m = 0..mmax."""
    B = n + 1
    for m in range(mmax + 1):
        R = _compositions(m, K)
        r_off = _offsets(R, B, K)
        r_w = _g_weights(R, w, m)
        acc = 0.0
        for u in range(R.shape[0]):
            acc += r_w[u] * T[r_off[u]]
        out[m] = acc


@njit(cache=True, nogil=True)
def _advance(c, m):  # pragma: no cover - compiled
    """Step ``c`` (length K, summing to m) to the next count vector; False after the last.

    The order is that of :func:`_compositions`; after the last vector ``c`` is
    back at the first, (0, ..., 0, m).
    """
    K = c.shape[0]
    s = m - c[K - 1]
    j = 0
    while j < K - 1:
        if s < m:
            c[j] += 1
            c[K - 1] = m - s - 1
            return True
        s -= c[j]
        c[j] = 0
        j += 1
    c[K - 1] = m
    return False


@njit(cache=True, nogil=True)
def _simplex_offset(c, B):  # pragma: no cover - compiled
    o = 0
    st = 1
    for j in range(c.shape[0] - 1):
        o += c[j] * st
        st *= B
    return o


@njit(cache=True, nogil=True)
def _root_sum(cdesc, K, n, w):  # pragma: no cover - compiled
    """sum_{|h| = n} g(h) cdesc[simplex(h)]."""
    B = n + 1
    c = np.zeros(K, dtype=np.int64)
    c[K - 1] = n
    acc = 0.0
    while True:
        p = cdesc[_simplex_offset(c, B)]
        for j in range(K):
            p *= w[c[j]]
        acc += p
        if not _advance(c, n):
            break
    return acc / w[n]


@njit(cache=True, nogil=True)
def _add_log_message(acc, msg, K, n):  # pragma: no cover - compiled
    """acc[simplex(h)] += log msg[simplex(h)] for every h with |h| = n."""
    B = n + 1
    c = np.zeros(K, dtype=np.int64)
    c[K - 1] = n
    while True:
        o = _simplex_offset(c, B)
        acc[o] += math.log(msg[o])
        if not _advance(c, n):
            break


@njit(cache=True, nogil=True)
def _finish_descendants(acc, log_leaf, K, n):  # pragma: no cover - compiled
    """acc (log of the messages) -> exp(acc + sum_l log_leaf[h_l] - top), in place.

    Only cells with |h| = n are touched; returns ``top``, the maximum.
    """
    B = n + 1
    c = np.zeros(K, dtype=np.int64)
    c[K - 1] = n
    top = -np.inf
    while True:
        o = _simplex_offset(c, B)
        v = acc[o]
        for j in range(K):
            v += log_leaf[c[j]]
        acc[o] = v
        if v > top:
            top = v
        if not _advance(c, n):
            break
    while True:
        o = _simplex_offset(c, B)
        acc[o] = math.exp(acc[o] - top)
        if not _advance(c, n):
            break
    return top


@njit(cache=True, nogil=True)
def _scatter_sorted(vals, mmax, outer, n, out):  # pragma: no cover - compiled
    """Write vals[m1] to every permutation of the sorted (m1, *outer, n - m1 - sum(outer)).

    ``out`` is in the parent's simplex layout (Kp = len(outer) + 2 counts).
    """
    B = n + 1
    Kp = outer.shape[0] + 2
    rest = n
    for j in range(outer.shape[0]):
        rest -= outer[j]
    t = np.empty(Kp, dtype=np.int64)
    idx = np.empty(Kp, dtype=np.int64)
    for m1 in range(mmax + 1):
        t[0] = m1
        for j in range(outer.shape[0]):
            t[j + 1] = outer[j]
        t[Kp - 1] = rest - m1
        # Heap's algorithm over the positions (duplicates rewrite the same cell)
        for j in range(Kp):
            idx[j] = 0
        out[_simplex_offset(t, B)] = vals[m1]
        i = 1
        while i < Kp:
            if idx[i] < i:
                if i % 2 == 0:
                    t[0], t[i] = t[i], t[0]
                else:
                    t[idx[i]], t[i] = t[i], t[idx[i]]
                out[_simplex_offset(t, B)] = vals[m1]
                idx[i] += 1
                i = 1
            else:
                idx[i] = 0
                i += 1


@njit(cache=True, nogil=True)
def _columns_message(log_leaf, Ki, Kp, n, w, out):  # pragma: no cover - compiled
    """Message of a node whose children are all leaves, summed column by column.

    With D(h) = prod_l exp(log_leaf[h_l]) the sum over matrices F with row sums f
    factorizes over the Ki columns: L(f) = prod_k 1/w(f_k) * P_Ki(f), where
    P_l(p) = sum_c P_{l-1}(p - c) phi(|c|) prod_k w(c_k) over column vectors c of
    length Kp. phi(x) = exp(log_leaf[x] - lam x - c0) is tilted so that phi <= 1
    and phi(n / Ki) ~ 1 (the tilt cancels: the columns sum to n). Writes L / scale
    to ``out`` (parent's simplex layout) and returns log(scale).
    """
    B = n + 1
    x1 = min(n // Ki, n - 1)
    lam = log_leaf[x1 + 1] - log_leaf[x1]
    c0 = -np.inf
    for x in range(n + 1):
        v = log_leaf[x] - lam * x
        if v > c0:
            c0 = v
    size = 1
    for _ in range(Kp):
        size *= B
    # column vectors c with |c| <= n, layer by layer
    n_c = _n_compositions(n, Kp + 1)
    c_off = np.empty(n_c, dtype=np.int64)
    c_w = np.empty(n_c)
    c_start = np.empty(n + 2, dtype=np.int64)
    pos = 0
    for t in range(n + 1):
        c_start[t] = pos
        C = _compositions(t, Kp)
        offs = _offsets(C, B, Kp)
        phi = math.exp(log_leaf[t] - lam * t - c0)
        for u in range(C.shape[0]):
            p = phi
            for k in range(Kp):
                p *= w[C[u, k]]
            c_off[pos] = offs[u]
            c_w[pos] = p
            pos += 1
    c_start[n + 1] = pos
    prev = np.zeros(size)
    for u in range(n_c if Ki > 1 else 0):
        prev[c_off[u]] = c_w[u]
    if Ki == 1:
        prev[0] = 1.0
    for col in range(2 if Ki > 1 else 1, Ki + 1):
        cur = np.zeros(size)
        for s in range(n + 1):
            Q = _compositions(s, Kp)
            q_off = _offsets(Q, B, Kp)
            lo = c_start[n - s] if col == Ki else 0
            hi = c_start[n - s + 1]
            for t in range(Q.shape[0]):
                pq = prev[q_off[t]]
                if pq == 0.0:
                    continue
                base = q_off[t]
                for u in range(lo, hi):
                    cur[base + c_off[u]] += pq * c_w[u]
        prev = cur
    F = _compositions(n, Kp)
    f_ball = _offsets(F, B, Kp)
    f_simp = _offsets(F, B, Kp - 1)
    for t in range(F.shape[0]):
        v = prev[f_ball[t]]
        for k in range(Kp):
            v /= w[F[t, k]]
        out[f_simp[t]] = v
    return Ki * c0 + lam * n


@njit(cache=True, nogil=True)
def _log_convolution_power(lw, K, n):  # pragma: no cover - compiled
    """log of (v * v * ... * v)[n] (K factors, v = exp(lw)), in log space."""
    if K == 1:
        return lw[n]
    cur = lw.copy()
    tmp = np.empty(n + 1)
    for step in range(K - 1):
        lo = n if step == K - 2 else 0  # the last convolution is needed at n only
        new = np.full(n + 1, -np.inf)
        for x in range(lo, n + 1):
            top = -np.inf
            for y in range(x + 1):
                v = cur[y] + lw[x - y]
                tmp[y] = v
                if v > top:
                    top = v
            acc = 0.0
            for y in range(x + 1):
                acc += math.exp(tmp[y] - top)
            new[x] = top + math.log(acc)
        cur = new
    return cur[n]


def _log_w(n: int) -> np.ndarray:
    """log w(x) = x log x - x - log x!, x = 0..n, accurate to ~1e-16 absolute.

    Direct for x < 30; for larger x the Stirling series
    ``-log(2 pi x)/2 - 1/(12x) + 1/(360x^3) - ...`` avoids the cancellation.
    """
    x = np.arange(n + 1, dtype=np.float64)
    out = np.zeros(n + 1)
    small = min(n + 1, 30)
    for k in range(1, small):
        out[k] = k * math.log(k) - k - math.lgamma(k + 1)
    if n >= 30:
        xs = x[30:]
        inv = 1.0 / xs
        inv2 = inv * inv
        mu = inv * (
            1 / 12 - inv2 * (1 / 360 - inv2 * (1 / 1260 - inv2 * (1 / 1680 - inv2 * (1 / 1188))))
        )
        out[30:] = -0.5 * np.log(2 * math.pi * xs) - mu
    return out
