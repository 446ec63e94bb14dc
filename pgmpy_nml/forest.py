r"""Exact normalized maximum likelihood (NML) for Bayesian forests.

A Bayesian forest is a Bayesian network in which every node has at most one
parent. For such a structure :math:`G` over discrete variables the NML
distribution

.. math::

    P_{\mathrm{NML}}(D \mid G) = \frac{P(D \mid \hat\theta(D), G)}{\mathcal{C}(G, n)},
    \qquad
    \mathcal{C}(G, n) = \sum_{D' \in \mathcal{X}^n} P(D' \mid \hat\theta(D'), G),

can be evaluated exactly in time polynomial in the sample size :math:`n`
(for fixed arities) by passing messages from the leaves to the roots [1]_.
This module implements that algorithm, with the corrections and the faster
inner-node step described below.

**The recursion.** Write :math:`K_i` for the arity of node :math:`X_i`,
:math:`\mathrm{ch}(i)` for its children, :math:`|h|` for the sum of a count
vector, and

.. math::

    g(r) = \binom{|r|}{r_1, \dots, r_K} \prod_{l=1}^{K}
           \left(\frac{r_l}{|r|}\right)^{r_l}

for the number of sequences with counts :math:`r` times their maximized
likelihood (:math:`\sum_{|r| = m} g(r) = C(K, m)`, the multinomial
normalizer). Each non-root node :math:`X_j` sends its parent the partial
normalizer of its subtree given the parent's counts :math:`f`,

.. math::

    L_j(f) = \sum_{F \in \mathbb{N}^{K_{\mathrm{pa}(j)} \times K_j}:\ F\mathbf{1} = f}
             \ \prod_k g(F_{k\cdot}) \prod_{c \in \mathrm{ch}(j)} L_c(\mathbf{1}^\top F),

which for a leaf is :math:`L_j(f) = \prod_k C(K_j, f_k)` (paper, Eq. 20). A
root :math:`X_\rho` sums over its own count vectors,

.. math::

    \mathcal{C}_\rho(n) = \sum_{|h| = n} g(h) \prod_{c \in \mathrm{ch}(\rho)} L_c(h),
    \qquad
    \log \mathcal{C}(G, n) = \sum_{\rho\ \text{root}} \log \mathcal{C}_\rho(n),

the normalizer of a forest being the product of those of its trees (Eq. 30;
the sum over data sets factorizes because the trees share no parameters).

**Corrections to the paper.** For an inner node the paper's Eqs. (26) and
(28) and lines 13 and 17 of its Algorithm 1 weight a matrix :math:`F` by
:math:`\prod_l (f_{il}/n)^{f_{il}}`, a root's maximized likelihood, and omit
the number :math:`\prod_k \binom{f_k}{F_{k\cdot}}` of sequences with those
conditional counts; the term must be :math:`\prod_k g(F_{k\cdot})`, as above
(with the literal formulas the chain of three binary variables gets
:math:`\mathcal{C} = 22.29` at :math:`n = 3` instead of the true 38.91).
Line 20 of Algorithm 1 also drops the multinomial coefficient that Eq. (29)
has (giving 17.11). The recursion used here is checked against brute-force
summation over all data sets in the tests.

**Computation.** :math:`g(r) = \prod_l w(r_l) / w(|r|)` with
:math:`w(x) = x^x e^{-x} / x!`, so no exponential is taken in the inner
loops. Instead of listing all :math:`\binom{n + K_i K_p - 1}{K_i K_p - 1}`
matrices :math:`F` (paper, line 16; :math:`K_p` is the parent's arity), the
rows of :math:`F` are summed out one at a time, from the last to the first,

.. math::

    T_{K_p - 1}(h) = \sum_{|r| = n - |h|} g(r)\, D(h + r), \qquad
    T_{k-1}(h; m_k, \dots) = \sum_{|r| = m_k} g(r)\, T_k(h + r; m_{k+1}, \dots),

with :math:`D = \prod_c L_c` and :math:`L_j(m_1, \dots, m_{K_p}) = T_0(0; m_1,
\dots)`. As :math:`L_j` is symmetric in its arguments (permuting the parent's
states permutes the rows of :math:`F`), only sorted :math:`m_1 \le \dots \le
m_{K_p}` are computed. When all children of an inner node are leaves,
:math:`D(h) = \prod_l d(h_l)` and the sum factorizes over the *columns* of
:math:`F` instead, in :math:`O(K_i\, n^{2K_p})`; this is used when cheaper
and makes the arity of such a node almost free. A root whose children are
all leaves has the same product form and is a :math:`K`-fold convolution,
:math:`O(K n^2)` (the naive Bayes normalizer of [2]_). Values are kept as a
per-message logarithmic scale times an array normalized to its maximum, so
nothing overflows for any :math:`n`. Measured relative errors against exact
rational brute force and exact identities are below :math:`10^{-14}`.

**Cost.** Dominant terms, for an inner node of arity :math:`K_i` whose
parent has arity :math:`K_p` (exact counts in :func:`forest_cost`):

* :math:`K_p = 2`: :math:`\approx \tfrac12 \binom{n + 2K_i - 1}{2K_i - 1}
  = O(n^{2K_i - 1})`, e.g. :math:`n^3/12` for a binary node and
  :math:`n^5/240` for a ternary one;
* :math:`K_p \ge 3`: :math:`O(n^{2K_i - 1} + n^{2K_i + K_p - 3})`, the
  second term with a small constant thanks to the sorted rows;
* all children leaves: the smaller of the above and
  :math:`\approx (K_i - 2) \binom{n + 2K_p}{2K_p} + \binom{n + 2K_p - 1}{2K_p - 1}`;
* a root: :math:`\binom{n + K - 1}{K - 1} = O(n^{K-1})` if it has inner
  children, :math:`O(K n^2)` otherwise; leaves :math:`O(n)`.

The paper's direct enumeration of the matrices costs
:math:`O(n^{K_i K_p - 1})` per inner node: :math:`n^3` binary, :math:`n^8`
ternary. So the cost is polynomial in :math:`n` but exponential in the arities of the
non-leaf nodes; leaves may have any number of states.

References
----------
.. [1] H. Wettig, P. Kontkanen, P. Myllymäki. "Calculating the normalized
   maximum likelihood distribution for Bayesian forests". Proc. IADIS
   International Conference on Intelligent Systems and Agents, 2007.
.. [2] P. Kontkanen, P. Myllymäki, W. Buntine, J. Rissanen, H. Tirri. "An MDL
   framework for data clustering". In: Advances in Minimum Description Length,
   MIT Press, 2005.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ._counting import family_table, sum_nlogn
from ._data import _declared_states, _listing, encode_data
from ._jit import njit
from ._validate import as_integer
from .regret import log_regret

__all__ = [
    "DEFAULT_MAX_OPERATIONS",
    "ForestCostError",
    "forest_cost",
    "forest_log_normalizer",
    "forest_nml",
]

#: Default limit on :func:`forest_cost` (elementary multiply-adds): 10-60 s on
#: one core at the measured 1-6 ns per operation.
DEFAULT_MAX_OPERATIONS = 10**10
#: Largest working memory (bytes) the algorithm may allocate.
MAX_MEMORY_BYTES = 4 * 2**30
# Charge for one call of a compiled kernel from the Python recursion, in
# elementary operations (a few microseconds).
_CALL_OPS = 5_000
# Measured throughput, for the time quoted in the refusal message.
_OPS_PER_SECOND = 3e8


class ForestCostError(ValueError):
    """The exact forest normalizer would take too many operations or too much memory."""


# --------------------------------------------------------------------------------------
# Compiled kernels (no validation; arrays are float64 unless said otherwise)
#
# Layouts, with B = n + 1: a count vector h of length K with |h| = n is stored at
# sum_{l < K-1} h_l B^l ("simplex layout", B^(K-1) cells, the last count implied);
# a vector with |h| <= n at sum_{l < K} h_l B^l ("ball layout", B^K cells). Both
# are linear, so the cell of h + r is the cell of h plus the cell of r.
# --------------------------------------------------------------------------------------
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


# --------------------------------------------------------------------------------------
# Tables
# --------------------------------------------------------------------------------------
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


# --------------------------------------------------------------------------------------
# Structure and input checks
# --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Forest:
    nodes: tuple  # in bottom-up order (every node after all of its children)
    parent: dict  # node -> parent or None
    children: dict  # node -> tuple of children
    arity: dict  # node -> int


def _structure(model) -> tuple[tuple, dict, dict]:
    """Nodes (bottom-up), parent map and children map of a forest; clear errors otherwise."""
    if not (hasattr(model, "nodes") and hasattr(model, "predecessors")):
        raise TypeError(
            "model must be a pgmpy DAG or DiscreteBayesianNetwork (or a networkx DiGraph), "
            f"got {type(model).__name__}."
        )
    nodes = list(model.nodes())
    if not nodes:
        raise ValueError("The model has no nodes: give a forest over at least one variable.")
    parent = {}
    for v in nodes:
        pa = list(model.predecessors(v))
        if len(pa) > 1:
            raise ValueError(
                f"The model is not a forest: node {v!r} has {len(pa)} parents "
                f"({_listing(pa)}), and a Bayesian forest allows at most one parent per "
                "node. Remove edges so that every node has at most one parent, or score "
                "general DAGs with pgmpy_nml.QNML / pgmpy_nml.FNML."
            )
        if pa and pa[0] == v:
            raise ValueError(f"Node {v!r} is its own parent (a self-loop); remove that edge.")
        parent[v] = pa[0] if pa else None
    # a graph with at most one parent per node is a forest iff it has no cycle
    state = dict.fromkeys(nodes, 0)  # 0 new, 1 on the current path, 2 done
    for v in nodes:
        path = []
        u = v
        while u is not None and state[u] == 0:
            state[u] = 1
            path.append(u)
            u = parent[u]
        if u is not None and state[u] == 1:
            cycle = path[path.index(u) :]
            shown = " <- ".join(repr(x) for x in [*cycle, u])
            raise ValueError(
                f"The model has a directed cycle ({shown}); a Bayesian forest is acyclic."
            )
        for x in path:
            state[x] = 2
    children = {v: [] for v in nodes}
    for v in nodes:
        if parent[v] is not None:
            children[parent[v]].append(v)
    order = []  # iterative post-order from the roots
    for root in (v for v in nodes if parent[v] is None):
        stack = [(root, False)]
        while stack:
            v, expanded = stack.pop()
            if expanded:
                order.append(v)
                continue
            stack.append((v, True))
            stack.extend((c, False) for c in reversed(children[v]))
    return tuple(order), parent, {v: tuple(c) for v, c in children.items()}


def _arities(nodes, arities, state_names) -> dict:
    if arities is not None and state_names is not None:
        raise ValueError("Give either arities or state_names, not both.")
    if arities is None and state_names is None:
        raise ValueError(
            "The arities of the variables are needed: pass arities={variable: number of "
            "states} or state_names={variable: [states]} covering every node of the model."
        )
    source, name = (arities, "arities") if arities is not None else (state_names, "state_names")
    if not isinstance(source, Mapping):
        raise TypeError(f"{name} must be a dict keyed by variable, got {type(source).__name__}.")
    missing = [v for v in nodes if v not in source]
    if missing:
        raise ValueError(
            f"{name} has no entry for node(s) {_listing(missing)} of the model; "
            f"it covers {_listing(source)}."
        )
    if arities is not None:
        return {
            v: as_integer(arities[v], f"arities[{v!r}]", minimum=1, what=" (number of states)")
            for v in nodes
        }
    return {v: len(_declared_states(v, state_names[v])) for v in nodes}


def _forest(model, arities=None, state_names=None) -> _Forest:
    nodes, parent, children = _structure(model)
    return _Forest(nodes, parent, children, _arities(nodes, arities, state_names))


# --------------------------------------------------------------------------------------
# Cost model (mirrors the loops of the computation)
# --------------------------------------------------------------------------------------
def _n_comp(m: int, K: int) -> int:
    return math.comb(m + K - 1, K - 1)


def _n_ball(s: int, K: int) -> int:
    return math.comb(s + K, K) if s >= 0 else 0


def _is_inner(forest: _Forest, v) -> bool:
    return bool(forest.children[v])


def _inner_walk(n, Ki, Kp, visit=None, limit=None):
    """Walk the row eliminations of an inner node; count operations or run ``visit``.

    ``visit(kind, m, hmax, outer)`` is called for each kernel call; returns the
    number of elementary operations (stops early, returning a partial count,
    once it exceeds ``limit``).
    """
    ops = 0
    if Kp == 1:
        return _n_comp(n, Ki)
    hb = n - (-(-n // Kp))
    # each kernel also spends ~K + 2 operations per vector it lists (offsets, weights)
    c = Ki + 2
    ops += _CALL_OPS + sum(
        _n_comp(s, Ki) * (_n_comp(n - s, Ki) + c) + _n_comp(n - s, Ki) * c for s in range(hb + 1)
    )
    if visit is not None:
        visit("first", None, hb, ())

    def rec(k, outer, sum_outer):
        nonlocal ops
        if limit is not None and ops > limit:
            return
        top = outer[-1] if outer else None
        if k == 1:
            mmax = n // 2 if Kp == 2 else min(outer[0], n - sum_outer - top)
            ops += _n_ball(mmax, Ki) * (c + 1) + _CALL_OPS
            if visit is not None:
                visit("last", None, mmax, outer)
            return
        mk_max = n // 2 if not outer else min(outer[0], n - sum_outer - top)
        for m in range(mk_max + 1):
            t = top if outer else m
            hmax = min((k - 1) * m, n - m - sum_outer - t)
            if hmax < 0:
                break  # hmax decreases with m
            ops += _n_ball(hmax, Ki) * (_n_comp(m, Ki) + c) + _n_comp(m, Ki) * c + _CALL_OPS
            if visit is not None:
                visit("row", m, hmax, outer)
            rec(k - 1, (m, *outer), sum_outer + m)

    rec(Kp - 1, (), 0)
    ops += _n_comp(n, Kp) * Kp  # symmetrization
    return ops


def _columns_ops(n: int, Ki: int, Kp: int) -> int:
    """Operations of :func:`_columns_message`."""
    c = Kp + 2  # per listed vector
    if Ki == 1:
        ops = _n_comp(n, Kp) * c
    else:  # the first column, then pairs (previous partial sums, column)
        ops = _n_ball(n, Kp) * c + (Ki - 2) * math.comb(n + 2 * Kp, 2 * Kp)
        ops += math.comb(n + 2 * Kp - 1, 2 * Kp - 1) + (Ki - 1) * _n_ball(n, Kp) * c
    return ops + _n_ball(n, Kp) * c + _n_comp(n, Kp) * c + _CALL_OPS


def _plan(forest: _Forest, n: int, limit=None):
    """[(node, method, operations, peak bytes)] for every node, bottom-up.

    The peak memory of a node counts its working arrays and every message
    still waiting for its parent at that time (an upper bound). With a
    ``limit``, stops once the running total of operations exceeds it.
    """
    B = n + 1
    out = []
    spent = 0
    waiting = 0  # bytes of messages not yet consumed by their parents
    for v in forest.nodes:
        K = forest.arity[v]
        p = forest.parent[v]
        Kp = 1 if p is None else forest.arity[p]
        if not _is_inner(forest, v):
            # a leaf's table of log C(K, 0..n), or an isolated node's log C(K, n)
            kind = "leaf" if p is not None else "single"
            out.append((v, kind, 2 * (n + 1), waiting + 8 * (n + 1)))
            continue
        inner_ch = [c for c in forest.children[v] if _is_inner(forest, c)]
        msg_out = 8 * B ** (Kp - 1)  # this node's message to its parent
        msg_in = 8 * B ** (K - 1) * len(inner_ch)  # consumed here
        if not inner_ch and Kp == 1:
            ops = (K - 1) * (n + 1) * (n + 2) // 2 + _CALL_OPS
            out.append((v, "convolution", ops, waiting + 8 * 3 * (n + 1)))
            spent += ops
            waiting += 8
            continue
        n_simp = _n_comp(n, K)
        combine_ops = n_simp * (len(inner_ch) + K) + _CALL_OPS
        combine_mem = 8 * B ** (K - 1)  # D, in the node's simplex layout
        if Kp == 1:
            method, ops, mem = "root", combine_ops + n_simp * (K + 1), combine_mem
        else:
            left = None if limit is None else max(limit - spent - combine_ops, 0)
            method = "rows"
            lists = 8 * (K + 3) * 2 * n_simp  # count vectors listed by the kernels
            mem = combine_mem + 8 * (Kp - 1) * B**K + msg_out + lists
            if not inner_ch:
                cols = _columns_ops(n, K, Kp)
                left = cols if left is None else min(left, cols)
            ops = combine_ops + _inner_walk(n, K, Kp, limit=left)
            if not inner_ch and ops > cols:
                method, ops = "columns", cols
                lists = 8 * 2 * _n_ball(n, Kp) + 8 * (Kp + 2) * _n_comp(n, Kp)
                mem = 8 * 2 * B**Kp + msg_out + lists
        out.append((v, method, ops, waiting + mem))
        spent += ops
        waiting += msg_out - msg_in
        if limit is not None and spent > limit:
            break
    return out


def forest_cost(model, n, arities=None, *, state_names=None) -> int:
    r"""Number of elementary operations :func:`forest_log_normalizer` would perform.

    An elementary operation is one multiply-add of an inner loop; listing a
    count vector costs :math:`K + 2` of them and a call of a compiled kernel
    from Python 5000 (measured: 1-6 ns per operation). The count mirrors the
    loops of the computation exactly. With
    :math:`N(m, K) = \binom{m + K - 1}{K - 1}` count vectors of length
    :math:`K` summing to :math:`m`, per node of arity :math:`K`:

    * leaf: :math:`2(n + 1)` (its table of :math:`\log C(K, 0..n)`);
    * root (or child of a 1-state parent) with leaf children only:
      :math:`(K - 1)(n + 1)(n + 2)/2`, a :math:`K`-fold convolution;
    * other roots: :math:`N(n, K)(c + 2K + 1)` for :math:`c` inner children;
    * inner nodes under a parent of arity :math:`K_p \ge 2`: :math:`N(n, K)(c + K)`
      to combine the messages, plus the row eliminations

      .. math::

          \sum_{s=0}^{n - \lceil n / K_p \rceil} N(s, K) \bigl(N(n - s, K) + 2(K + 2)\bigr)
          + \sum_{m_k} \binom{h_{\max} + K}{K} \bigl(N(m_k, K) + K + 2\bigr) + \dots

      over the sorted row sums :math:`m_1 \le \dots \le m_{K_p}` of the
      recursion (module docstring). For :math:`K_p = 2` this is about
      :math:`\tfrac12\binom{n + 2K - 1}{2K - 1} \approx n^{2K-1} / (2 (2K-1)!)`:
      :math:`n^3/12` for a binary node, :math:`n^5/240` for a ternary one.
      If all its children are leaves, the column-wise sum costs
      :math:`(K - 2)\binom{n + 2K_p}{2K_p} + \binom{n + 2K_p - 1}{2K_p - 1}
      + (K + 1)(K_p + 2)\binom{n + K_p}{K_p}` and the cheaper way is taken.

    Parameters
    ----------
    model : pgmpy DAG, DiscreteBayesianNetwork or networkx DiGraph
        A forest: every node has at most one parent.
    n : int
        Sample size, :math:`\ge 0`.
    arities : dict, optional
        Node -> number of states (an integer :math:`\ge 1`).
    state_names : dict, optional
        Node -> list of states; instead of ``arities``.

    Returns
    -------
    int

    Examples
    --------
    >>> import networkx as nx
    >>> tree = nx.DiGraph([("A", "B"), ("B", "C")])
    >>> forest_cost(tree, 100, {"A": 2, "B": 2, "C": 2}) < 10**6
    True
    """
    n = as_integer(n, "n")
    forest = _forest(model, arities, state_names)
    return int(sum(ops for _, _, ops, _ in _plan(forest, n)))


def _check_cost(forest: _Forest, n: int, max_operations) -> dict:
    """Plan the computation; refuse it above ``max_operations`` or the memory limit."""
    if max_operations is None:
        limit = None
    else:
        if isinstance(max_operations, (bool, np.bool_)) or not isinstance(
            max_operations, (int, float, np.integer, np.floating)
        ):
            raise TypeError(f"max_operations must be a number or None, got {max_operations!r}.")
        if not max_operations > 0:
            raise ValueError(f"max_operations must be positive, got {max_operations!r}.")
        limit = None if math.isinf(max_operations) else max_operations
    costs = _plan(forest, n, limit=limit)
    total = sum(ops for _, _, ops, _ in costs)
    worst = max(costs, key=lambda c: c[2])
    v = worst[0]
    p = forest.parent[v]
    where = f"node {v!r} ({forest.arity[v]} states"
    where += f", parent {p!r} with {forest.arity[p]} states)" if p is not None else ", a root)"
    if limit is not None and total > limit:
        # count further for the message (bounded: the walks stop at the cap)
        cap = 100 * limit
        full = sum(ops for _, _, ops, _ in _plan(forest, n, limit=cap))
        needs = f"about {full:.3g}" if full <= cap else f"more than {cap:.3g}"
        raise ForestCostError(
            f"The exact forest NML at n = {n} needs {needs} elementary "
            f"operations, above max_operations = {limit:.3g} (about "
            f"{limit / _OPS_PER_SECOND:.0f} s). Most of it is at {where}: an inner node "
            "with K states under a parent costs about n^(2K-1), more under parents with 3+ "
            "states. Use fewer rows (a smaller n), merge states of the inner nodes or their "
            "parents, turn that node into a leaf, or raise max_operations (None disables "
            "the check)."
        )
    memory = max(mem for _, _, _, mem in costs)
    if memory > MAX_MEMORY_BYTES:
        v = max(costs, key=lambda c: c[3])[0]
        raise ForestCostError(
            f"The exact forest NML at n = {n} needs about {memory / 2**30:.1f} GiB of working "
            f"memory (peak at node {v!r}, {forest.arity[v]} states), above the limit of "
            f"{MAX_MEMORY_BYTES / 2**30:.0f} GiB (pgmpy_nml.forest.MAX_MEMORY_BYTES). Use a "
            "smaller n or fewer states for that node and its parent."
        )
    return {v: method for v, method, _, _ in costs}


# --------------------------------------------------------------------------------------
# The algorithm
# --------------------------------------------------------------------------------------
def _inner_message(cdesc, Ki, Kp, n, w):
    """L(f) for all f with |f| = n in the parent's simplex layout (normalization free)."""
    B = n + 1
    if Kp == 1:
        return np.array([_root_sum(cdesc, Ki, n, w)])
    buffers = [None] + [np.zeros(B**Ki) for _ in range(Kp - 1)]  # buffers[k] holds T_k
    out = np.zeros(B ** (Kp - 1))
    last = np.empty(n + 1)

    def visit(kind, m, hmax, outer):
        # outer = (m_{k+1}, ..., m_{Kp-1}) for the T_k being read
        if kind == "first":
            _first_row_sums(cdesc, Ki, n, hmax, w, buffers[Kp - 1])
        elif kind == "row":
            k = Kp - 1 - len(outer)  # eliminating row k: T_k -> T_{k-1}
            _eliminate_row(buffers[k], Ki, n, m, hmax, w, buffers[k - 1])
        else:  # "last": L at the sorted (m_1, *outer, m_Kp), m_1 = 0..hmax
            _last_row(buffers[1], Ki, n, hmax, w, last)
            _scatter_sorted(last, hmax, np.asarray(outer, dtype=np.int64), n, out)

    _inner_walk(n, Ki, Kp, visit=visit)
    return out


def _log_normalizer(forest: _Forest, n: int, plan: dict) -> float:
    """log C(G, n) following ``plan`` (node -> method, from :func:`_check_cost`)."""
    if n == 0:
        return 0.0
    log_w = _log_w(n)
    w = np.exp(log_w)
    ns = np.arange(n + 1)
    messages = {}  # node -> (log scale, array in the parent's simplex layout)
    total = 0.0
    for v in forest.nodes:
        K = forest.arity[v]
        p = forest.parent[v]
        method = plan[v]
        if method == "leaf":
            continue
        if method == "single":
            total += log_regret(K, n)
            continue
        log_leaf = np.zeros(n + 1)
        inner = []
        for c in forest.children[v]:
            if _is_inner(forest, c):
                inner.append(messages.pop(c))
            else:
                log_leaf += log_regret(forest.arity[c], ns)
        if method == "convolution":
            value = _log_convolution_power(log_w + log_leaf, K, n) - log_w[n]
            msg = np.ones(1)
        elif method == "columns":
            Kp = forest.arity[p]
            msg = np.zeros((n + 1) ** (Kp - 1))
            value = _columns_message(log_leaf, K, Kp, n, w, msg)
        else:
            cdesc = np.zeros((n + 1) ** (K - 1))
            scale = 0.0
            for log_scale, message in inner:
                _add_log_message(cdesc, message, K, n)
                scale += log_scale
            del inner
            top = _finish_descendants(cdesc, log_leaf, K, n)
            value = scale + top
            if method == "root":
                value += math.log(_root_sum(cdesc, K, n, w))
                msg = np.ones(1)
            else:
                msg = _inner_message(cdesc, K, forest.arity[p], n, w)
        if p is None:
            total += value
            continue
        peak = msg.max()
        if not (np.isfinite(peak) and peak > 0):  # pragma: no cover - defensive
            raise FloatingPointError(f"the message of node {v!r} has maximum {peak!r}")
        msg /= peak
        messages[v] = (value + math.log(peak), msg)
    return float(total)


def forest_log_normalizer(
    model,
    n,
    arities=None,
    *,
    state_names=None,
    max_operations=DEFAULT_MAX_OPERATIONS,
) -> float:
    r"""Exact :math:`\log \mathcal{C}(G, n)`, the NML normalizer of a Bayesian forest.

    .. math::

        \mathcal{C}(G, n) = \sum_{D \in \mathcal{X}^n}
            \prod_{i} \prod_{k, l} \left(\frac{N_{ikl}(D)}{N_{ik}(D)}\right)^{N_{ikl}(D)},

    the sum of the maximized likelihood over all :math:`\prod_i K_i^n` data
    sets of :math:`n` rows, :math:`N_{ikl}` the number of rows with
    :math:`X_i = l` and parent state :math:`k` (roots: :math:`N_{ik} = n`).
    Computed by the leaves-to-roots recursion of [1]_ (corrected, see
    :mod:`pgmpy_nml.forest`): exactly, up to floating-point rounding (relative
    error about :math:`10^{-13}`), and for any :math:`n` without overflow. A
    single node gives :math:`\log C(K, n)`, an edge :math:`X \to Y` gives
    :math:`\log C(K_X K_Y, n)`, and a forest the sum over its trees.

    Cost: polynomial in :math:`n`, exponential in the arities of non-leaf
    nodes; about :math:`n^{2K - 1} / (2(2K-1)!)` multiply-adds for an inner
    node with :math:`K` states under a binary parent (see :func:`forest_cost`).
    The cost is estimated first and the call refused above ``max_operations``.

    Parameters
    ----------
    model : pgmpy DAG, DiscreteBayesianNetwork or networkx DiGraph
        The forest: every node has at most one parent, no cycles.
    n : int
        Number of rows, :math:`\ge 0` (:math:`\mathcal{C} = 1` at :math:`n = 0`,
        :math:`\prod_i K_i` at :math:`n = 1`).
    arities : dict, optional
        Node -> number of states, covering every node (extra keys are ignored).
    state_names : dict, optional
        Node -> list of states (declared, possibly unobserved); instead of
        ``arities``.
    max_operations : int, float or None, default DEFAULT_MAX_OPERATIONS
        Refuse (:class:`ForestCostError`) when :func:`forest_cost` exceeds
        this (about a minute per :math:`2 \cdot 10^{10}`); ``None`` disables.

    Returns
    -------
    float
        Natural logarithm of :math:`\mathcal{C}(G, n)`.

    Raises
    ------
    ValueError
        For a node with two or more parents, a cycle, missing arities.
    ForestCostError
        If the computation exceeds ``max_operations`` or the memory limit.

    Examples
    --------
    >>> import networkx as nx
    >>> from pgmpy_nml.regret import log_regret
    >>> edge = nx.DiGraph([("A", "B")])
    >>> c = forest_log_normalizer(edge, 50, {"A": 2, "B": 3})
    >>> bool(abs(c - log_regret(6, 50)) < 1e-12)
    True
    >>> round(forest_log_normalizer(nx.DiGraph([("A", "B"), ("B", "C")]), 3,
    ...                             {"A": 2, "B": 2, "C": 2}), 10)   # log 38.9135...
    3.6613432963

    References
    ----------
    .. [1] H. Wettig, P. Kontkanen, P. Myllymäki. "Calculating the normalized
       maximum likelihood distribution for Bayesian forests". Proc. IADIS
       International Conference on Intelligent Systems and Agents, 2007.
    """
    n = as_integer(n, "n")
    forest = _forest(model, arities, state_names)
    plan = _check_cost(forest, n, max_operations)
    return _log_normalizer(forest, n, plan)


def _model_nodes_in(model, encoded) -> None:
    _structure(model)  # structural errors first
    unknown = [v for v in model.nodes() if v not in encoded.index]
    if unknown:
        raise ValueError(
            f"The model has node(s) {_listing(unknown)} that are not columns of the data "
            f"({_listing(encoded.variables)})."
        )


def forest_nml(data, model, state_names=None, *, max_operations=DEFAULT_MAX_OPERATIONS) -> float:
    r"""Exact NML score :math:`\log P_{\mathrm{NML}}(D \mid G)` of data under a Bayesian forest.

    .. math::

        \log P_{\mathrm{NML}}(D \mid G)
          = \sum_i \sum_{k, l} N_{ikl} \log \frac{N_{ikl}}{N_{ik}}
            - \log \mathcal{C}(G, N),

    the maximized log-likelihood (natural log) minus the exact log normalizer
    of :func:`forest_log_normalizer`, with :math:`N` the number of rows and
    the arities from the data (declared states in ``state_names`` count even
    if unobserved). Higher is better; :math:`-\log P_{\mathrm{NML}}` is the
    stochastic complexity in nats. For a forest whose trees have at most two
    nodes it equals the qNML score (:class:`pgmpy_nml.QNML`), otherwise it is
    the exact NML that qNML and fNML approximate.

    Parameters
    ----------
    data : pandas.DataFrame
        Discrete data; every node of ``model`` must be a column (other columns
        are ignored).
    model : pgmpy DAG, DiscreteBayesianNetwork or networkx DiGraph
        A forest: every node has at most one parent.
    state_names : dict, optional
        Variable -> list of its states.
    max_operations : int, float or None
        See :func:`forest_log_normalizer`.

    Returns
    -------
    float

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy.base import DAG
    >>> from pgmpy_nml import QNML
    >>> data = pd.DataFrame({"A": [0, 1, 1, 0, 1, 1], "B": [0, 1, 1, 1, 0, 1],
    ...                      "C": [1, 1, 0, 0, 1, 0]})
    >>> dag = DAG([("A", "B")]); dag.add_node("C")
    >>> bool(abs(forest_nml(data, dag) - QNML(data).score(dag)) < 1e-10)
    True
    >>> chain = DAG([("A", "B"), ("B", "C")])
    >>> round(forest_nml(data, chain), 6)
    -14.590763

    References
    ----------
    .. [1] H. Wettig, P. Kontkanen, P. Myllymäki. "Calculating the normalized
       maximum likelihood distribution for Bayesian forests". Proc. IADIS
       International Conference on Intelligent Systems and Agents, 2007.
    """
    encoded = encode_data(data, state_names)
    _model_nodes_in(model, encoded)
    arities = {v: int(encoded.arities[encoded.index[v]]) for v in model.nodes()}
    forest = _forest(model, arities=arities)
    n = encoded.n_samples
    plan = _check_cost(forest, n, max_operations)
    loglik = 0.0
    for v in forest.nodes:
        child = encoded.index[v]
        parents = () if forest.parent[v] is None else (encoded.index[forest.parent[v]],)
        table = family_table(encoded.codes, encoded.arities, child, parents)
        loglik += sum_nlogn(table) - sum_nlogn(table.sum(axis=1))
    return float(loglik - _log_normalizer(forest, n, plan))
