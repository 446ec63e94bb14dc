r"""(``k``-)cluster rows over every family: which families each row holds, and their weights.

A row is a cluster :math:`C`, its :math:`k` and its form. Family :math:`(v, P)` is in it
when :math:`v \in C` and :math:`h = |P \cap C|` (``P`` the family's ``preds``) is below
:math:`k` (the ``>=`` form, :math:`\sum x \ge 1` for :math:`k = 1`) or at least :math:`k`
(the ``<=`` form). Root pricing (:mod:`._pricing`) and branch and price
(:mod:`._branch_price`) need, for multipliers :math:`y` of the rows, each family's
*weight* :math:`w(v, P) = \sum_{C \ni v} y_C\, \varphi_C(|P \cap C|)`, with
:math:`\varphi_C(h) = [(h < k_C) = \text{ge}_C]`, over millions of families at a time.

Row by row, that is one test per row and family of each member (:func:`_direct`): 2.8-7.0
s per evaluation on baudio with 3 parents (9.6 million families, 386-481 rows with a
positive multiplier, 12-18 members on average). Grouped by variable instead, a function
of :math:`|P \cap C|` is a sum over the subsets of :math:`P \cap C` (Möbius inversion on
the subsets of :math:`P`):

.. math::

    \varphi_C(|P \cap C|) = \sum_{S \subseteq P \cap C} \alpha_{C,|S|}, \qquad
    \alpha_{C,t} = \sum_{i=0}^{t} (-1)^{t-i} \binom{t}{i} \varphi_C(i),

so :math:`w(v, P) = \sum_{S \subseteq P} G_v(S)` with :math:`G_v(S) = \sum_{C \ni v,\, S
\subseteq C} y_C\, \alpha_{C,|S|}`. For each variable the terms of :math:`S` of at most
two members are tables (a number, a vector and a matrix over the variables, built from
the rows at :math:`\sum_C |C|^2` cost), and those of three members and more come from
bitsets of the variable's rows (:math:`S`'s rows are the ``and`` of its members'). On
the same evaluations: 0.6-0.8 s, the same weights to 3.4e-12. A variable whose rows
would cost more in tables than row by row (few families, large clusters), families of
five preds and more, and more than :data:`TABLE_MAX_VARIABLES` variables are counted row
by row.
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import intrinsic

from ..._jit import njit
from ._families import _Families

__all__: list[str] = []

#: Above this many variables the weights are counted row by row (the pair table of a
#: variable is a float64 matrix over all of them: 32 MB at 2,048).
TABLE_MAX_VARIABLES = 2048
#: Families with more preds than this are counted row by row (their subsets of three
#: members and more grow as 2^size).
TABLE_MAX_PREDS = 4
#: :func:`_row_weights`' methods: each variable's rows by the cheaper way, by tables
#: wherever possible, or row by row (the tests compare them).
AUTO, TABLES, ROWS = 0, 1, 2
#: How much more a (row, family) test costs, row by row, than a pair of members in the
#: tables: :data:`AUTO` counts a variable's rows in tables when the sum of their squared
#: sizes is below this many times its rows times its families. Measured
#: (``benchmarks/exp_cluster_rows.py``: 100 variables, 480 random rows of 20 or 60
#: members, families of up to 2 preds, the median of 5): the two ways cross between 3.6
#: times (230 ms in tables, 280 row by row) and 4 times (10.3 and 6.9 ms). At 1, branch
#: and price on bnetflix fNML p2 (303,107 families, 625-667 rows of 28 members on
#: average, the sum 1.3 times the product) counted every variable row by row: 0.27-0.34 s
#: per evaluation, against 0.11-0.17 s at 3 (eight evaluations recorded from its search,
#: two runs).
ROW_COST = 3


@intrinsic
def _cttz(typingctx, x):
    """The index of the lowest set bit of a nonzero uint64 (LLVM's ``cttz``)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], context.get_constant(types.boolean, False))

    return sig, codegen


@njit(cache=True)
def _rows_of_variables(ptr, members, y, n):  # pragma: no cover
    """``(first, rows)``: the rows with ``y != 0`` that hold variable ``v`` are
    ``rows[first[v]:first[v + 1]]``, in their order. Numba-compiled."""
    count = np.zeros(n + 1, np.int64)
    for c in range(y.size):
        if y[c] != 0:
            for k in range(ptr[c], ptr[c + 1]):
                count[members[k] + 1] += 1
    first = np.cumsum(count)
    rows = np.empty(first[n], np.int64)
    fill = first[:n].copy()
    for c in range(y.size):
        if y[c] != 0:
            for k in range(ptr[c], ptr[c + 1]):
                rows[fill[members[k]]] = c
                fill[members[k]] += 1
    return first, rows


@njit(cache=True)
def _mobius(ks, ge, y, top):  # pragma: no cover
    """``out[c, t] = y[c] * alpha[c, t]`` for ``t < top`` (module notes). Numba-compiled."""
    out = np.zeros((y.size, top))
    for c in range(y.size):
        binom = np.ones(top)  # row t of Pascal's triangle, built in place
        for t in range(top):
            for i in range(t - 1, 0, -1):
                binom[i] += binom[i - 1]
            alpha = 0.0
            for i in range(t + 1):
                phi = 1.0 if (i < ks[c]) == ge[c] else 0.0
                alpha += binom[i] * phi if (t - i) % 2 == 0 else -binom[i] * phi
            out[c, t] = y[c] * alpha
    return out


@njit(cache=True)
def _direct(  # pragma: no cover
    v, start, padded, size, ptr, members, ks, ge, y, rows, inside, out, smallest
):
    """``out[f] += y[c]`` for each row ``c`` of ``rows`` (all holding ``v``) and family
    ``f`` of ``v`` with at least ``smallest`` preds that is in it: row by row.
    Numba-compiled."""
    for c in rows:
        for k in range(ptr[c], ptr[c + 1]):
            inside[members[k]] = True
        for f in range(start[v], start[v + 1]):
            if size[f] < smallest:
                continue
            hits = 0
            for t in range(size[f]):
                if inside[padded[f, t]]:
                    hits += 1
                    if hits >= ks[c]:
                        break
            if (hits < ks[c]) == ge[c]:
                out[f] += y[c]
        for k in range(ptr[c], ptr[c + 1]):
            inside[members[k]] = False


@njit(cache=True)
def _tables(rows, ptr, members, ya, g1, g2, bits, local, fill):  # pragma: no cover
    """Fills (``fill``) or clears the tables of a variable's ``rows`` (``ya``:
    :func:`_mobius`): ``g1[u]`` (the subsets ``{u}``), ``g2[min, max]`` (pairs),
    ``bits[u]`` (bit ``i``: row ``rows[i]`` holds ``u``) and ``local[t - 3, i]`` (``ya``
    of row ``rows[i]``, for subsets of ``t`` members); returns ``G`` of the empty set.
    Numba-compiled."""
    g0 = 0.0
    for i in range(rows.size):
        c = rows[i]
        g0 += ya[c, 0]
        if fill:
            for t in range(3, min(ya.shape[1], 3 + local.shape[0])):
                local[t - 3, i] = ya[c, t]
        for k in range(ptr[c], ptr[c + 1]):
            a = members[k]
            if fill:
                g1[a] += ya[c, 1]
                bits[a, i >> 6] |= np.uint64(1) << np.uint64(i & 63)
            else:
                g1[a] = 0.0
                bits[a, i >> 6] = 0
            for j in range(k + 1, ptr[c + 1]):
                b = members[j]
                low, high = (a, b) if a < b else (b, a)
                g2[low, high] = g2[low, high] + ya[c, 2] if fill else 0.0
    return g0


@njit(cache=True)
def _subset_terms(preds, s, words, bits, local):  # pragma: no cover
    """The sum of ``G(S)`` over the subsets ``S`` of three and more of the ``s`` preds,
    from the bitsets of their rows. Numba-compiled."""
    w = 0.0
    for subset in range(1 << s):
        members = 0
        x = subset
        while x:
            x &= x - 1
            members += 1
        if members < 3:
            continue
        for word in range(words):
            z = ~np.uint64(0)
            for t in range(s):
                if (subset >> t) & 1:
                    z &= bits[preds[t], word]
            while z != np.uint64(0):
                w += local[members - 3, word * 64 + np.int64(_cttz(z))]  # type: ignore[call-arg]
                z &= z - np.uint64(1)
    return w


@njit(cache=True)
def _row_weights(  # pragma: no cover
    start, padded, size, ptr, members, ks, ge, y, n, out, method=AUTO
):
    """``out[f] += y[c]`` for every (``k``-)cluster row ``c`` with ``y[c] != 0`` that
    family ``f`` is in (module notes): its child is in the cluster
    (``members[ptr[c]:ptr[c + 1]]``) and its preds (``padded``, ``size``) have fewer than
    ``ks[c]`` members of it (``ge[c]``: the row's ``>=`` form) or at least ``ks[c]`` (its
    ``<=`` form). ``method``: :data:`AUTO`, :data:`TABLES` (wherever the variables and
    preds allow) or :data:`ROWS` (row by row). Numba-compiled."""
    first, rows = _rows_of_variables(ptr, members, y, n)
    inside = np.zeros(n + 1, np.bool_)  # the last entry: the padding (-1)
    tables = n <= TABLE_MAX_VARIABLES and method != ROWS
    width = min(padded.shape[1], TABLE_MAX_PREDS)
    ya = _mobius(ks, ge, y, max(width, 2) + 1)
    words = (np.max(np.diff(first)) + 63) // 64 if n else 1
    g1 = np.zeros(n if tables else 0)
    g2 = np.zeros((n, n) if tables else (0, 0))
    bits = np.zeros((n if tables else 0, words), np.uint64)
    local = np.zeros((max(width - 2, 0), words * 64))
    for v in range(n):
        mine = rows[first[v] : first[v + 1]]
        square = 0
        for c in mine:
            square += (ptr[c + 1] - ptr[c]) ** 2
        direct = ROW_COST * mine.size * (start[v + 1] - start[v])
        if not tables or (method == AUTO and square >= direct):
            _direct(v, start, padded, size, ptr, members, ks, ge, y, mine, inside, out, 0)
            continue
        g0 = _tables(mine, ptr, members, ya, g1, g2, bits, local, True)
        used = (mine.size + 63) // 64
        large = False  # a family with more preds than the tables take
        for f in range(start[v], start[v + 1]):
            s = size[f]
            if s > TABLE_MAX_PREDS:
                large = True
                continue
            w = g0
            for t in range(s):
                a = padded[f, t]
                w += g1[a]
                for r in range(t + 1, s):
                    b = padded[f, r]
                    w += g2[a, b] if a < b else g2[b, a]
            if s >= 3:
                w += _subset_terms(padded[f], s, used, bits, local)
            out[f] += w
        _tables(mine, ptr, members, ya, g1, g2, bits, local, False)
        if large:
            args = (ptr, members, ks, ge, y, mine, inside, out, TABLE_MAX_PREDS + 1)
            _direct(v, start, padded, size, *args)
    return out


@njit(cache=True)
def _row_members(child, padded, size, among, ptr, members, ks, ge, n):  # pragma: no cover
    """``(rows, families)``: every pair of a (``k``-)cluster row (as in
    :func:`_row_weights`) and a family of ``among`` that is in it. Numba-compiled."""
    inside = np.zeros(n + 1, np.bool_)  # the last entry: the padding (-1)
    rows, families = [], []
    for c in range(ptr.size - 1):
        for k in range(ptr[c], ptr[c + 1]):
            inside[members[k]] = True
        for f in among:
            if not inside[child[f]]:
                continue
            hits = 0
            for t in range(size[f]):
                if inside[padded[f, t]]:
                    hits += 1
            if (hits < ks[c]) == ge[c]:
                rows.append(c)
                families.append(f)
        for k in range(ptr[c], ptr[c + 1]):
            inside[members[k]] = False
    return np.array(rows, dtype=np.int64), np.array(families, dtype=np.int64)


class ClusterRows:
    """(``k``-)cluster rows: each a cluster (list of variables), its ``k`` and whether it
    is in its ``>=`` form (else ``<=``), kept as arrays for the compiled kernels."""

    def __init__(self, clusters=()):
        """``clusters``: rows to start with, each a cluster constraint (``k = 1``, in its
        ``>=`` form)."""
        self.clusters: list[list[int]] = []
        self.ks: list[int] = []
        self.ge: list[bool] = []
        self._arrays = None
        for cluster in clusters:
            self.append(cluster)

    def __len__(self) -> int:
        return len(self.clusters)

    def append(self, cluster, k: int = 1, ge: bool = True) -> None:
        self.clusters.append([int(v) for v in cluster])
        self.ks.append(int(k))
        self.ge.append(bool(ge))
        self._arrays = None

    def arrays(self):
        """``(ptr, members, ks, ge)``: the clusters' members ``members[ptr[c]:ptr[c +
        1]]``, built again after a row is added."""
        if self._arrays is None:
            ptr = np.zeros(len(self) + 1, dtype=np.int64)
            ptr[1:] = np.cumsum([len(c) for c in self.clusters])
            members = np.fromiter(
                (v for c in self.clusters for v in c), dtype=np.int64, count=ptr[-1]
            )
            ks = np.array(self.ks, dtype=np.int64)
            self._arrays = (ptr, members, ks, np.array(self.ge, dtype=np.bool_))
        return self._arrays

    def weights(self, fam: _Families, y, out=None) -> np.ndarray:
        """``out[f] +=`` the sum of ``y`` over the rows family ``f`` is in
        (:func:`_row_weights`; ``out`` default: zeros)."""
        out = np.zeros(len(fam)) if out is None else out
        if not len(self):
            return out
        ptr, members, ks, ge = self.arrays()
        y = np.asarray(y, dtype=np.float64)
        return _row_weights(fam.start, fam.padded, fam.size, ptr, members, ks, ge, y, fam.n, out)

    def members(self, fam: _Families, among):
        """``(rows, families)``: the rows each family of ``among`` is in
        (:func:`_row_members`)."""
        among = np.asarray(among, dtype=np.int64)
        if not len(self) or not among.size:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        ptr, members, ks, ge = self.arrays()
        args = (ptr, members, ks, ge, fam.n)
        return _row_members(fam.child, fam.padded, fam.size, among, *args)
