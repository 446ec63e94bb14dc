"""Cut points of one column from its values: equal-frequency and equal-width intervals
with no empty interval, and the tie-aware equal-frequency cuts
(:func:`tied_quantile_cuts`). :class:`~pgmpy_nml.study.discretize.Discretizer` applies
them to the columns it cuts."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .._jit import njit
from .._validate import as_integer

if TYPE_CHECKING:
    from .._typing import ArrayLike

__all__ = ["tied_quantile_cuts"]


def _kbins(values, n_bins, strategy):
    """Inner cut points of equal-frequency or equal-width intervals.

    The ``j / n_bins`` quantiles (the averaged inverted empirical CDF, as
    scikit-learn's ``KBinsDiscretizer``) or the equally spaced points between the
    minimum and the maximum. Repeated cut points are merged and cuts that would
    leave an interval without a value are dropped (:func:`_occupied`), so a column
    with many ties gets fewer intervals but keeps every distinct value it can separate.
    """
    probs = np.arange(1, n_bins) / n_bins
    lo, hi = float(values.min()), float(values.max())
    if strategy == "quantile":
        cuts = np.quantile(values, probs, method="averaged_inverted_cdf")
    else:
        cuts = lo + probs * (hi - lo)
    return _occupied(values, np.unique(cuts))


def _occupied(values, cuts):
    """The increasing ``cuts`` without those that would leave an interval empty.

    A cut is kept when some value lies between it and the last kept cut; the
    last kept cut goes if no value lies at or above it. Every interval of the
    result ``(-inf, c_1), [c_1, c_2), ..., [c_k, inf)`` then holds a value.
    """
    kept = []
    low = -math.inf
    ordered = np.sort(values)
    for c in cuts:
        below = np.searchsorted(ordered, c, side="left")
        if below > np.searchsorted(ordered, low, side="left"):
            kept.append(c)
            low = c
    if kept and ordered[-1] < kept[-1]:
        kept.pop()
    return np.asarray(kept, dtype=float)


@njit
def _balanced_partition(counts, k):  # pragma: no cover - compiled
    """Split a sequence of counts into ``k`` contiguous nonempty groups, sum of squared
    group totals smallest (the leftmost optimum); returns the ``k - 1`` group starts.

    ``best_j(i) = min_l best_{j-1}(l) + (S_i - S_l)^2`` over the prefix sums ``S``;
    the cost is convex in ``S_i - S_l``, so the matrix is Monge and the leftmost
    optimal ``l`` never decreases with ``i``: each level is a divide-and-conquer
    pass, ``O(k m log m)`` in all.
    """
    m = counts.shape[0]
    prefix = np.zeros(m + 1, dtype=np.int64)
    for i in range(m):
        prefix[i + 1] = prefix[i] + counts[i]
    big = np.iinfo(np.int64).max
    prev = np.full(m + 1, big, dtype=np.int64)
    for i in range(1, m + 1):
        prev[i] = prefix[i] * prefix[i]
    choice = np.zeros((k + 1, m + 1), dtype=np.int64)
    stack = np.empty((4 * (m + 2) + 64, 4), dtype=np.int64)
    for j in range(2, k + 1):
        cur = np.full(m + 1, big, dtype=np.int64)
        top = 0
        stack[0, 0], stack[0, 1], stack[0, 2], stack[0, 3] = j, m, j - 1, m - 1
        top = 1
        while top > 0:
            top -= 1
            lo, hi, opt_lo, opt_hi = stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3]
            if lo > hi:
                continue
            mid = (lo + hi) // 2
            best, arg = big, opt_lo
            for start in range(opt_lo, min(mid - 1, opt_hi) + 1):
                if prev[start] == big:
                    continue
                d = prefix[mid] - prefix[start]
                value = prev[start] + d * d
                if value < best:
                    best, arg = value, start
            cur[mid] = best
            choice[j, mid] = arg
            stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3] = mid + 1, hi, arg, opt_hi
            top += 1
            stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3] = lo, mid - 1, opt_lo, arg
            top += 1
        prev = cur
    starts = np.zeros(k - 1, dtype=np.int64)
    i = m
    for j in range(k, 1, -1):
        i = choice[j, i]
        starts[j - 2] = i
    return starts


def tied_quantile_cuts(values: ArrayLike, n_bins: int) -> np.ndarray:
    r"""Tie-aware equal-frequency cut points: never inside a tied value.

    The distinct values :math:`u_1 < \dots < u_m` (with :math:`c_i` rows each) are
    split into :math:`k = \min(n_{bins}, m)` runs of consecutive values whose row
    counts :math:`s_1, \dots, s_k` are as equal as possible, minimizing
    :math:`\sum_g s_g^2` (equivalently :math:`\sum_g (s_g - N/k)^2`); each cut
    point is the midpoint :math:`(u_i + u_{i+1}) / 2` between two runs. Every
    interval holds at least one distinct value, a tied value is never split, and
    on data without ties whose size is a multiple of :math:`k` the intervals hold
    :math:`N/k` rows each, as ordinary quantiles. Among equally balanced splits the
    one with the earliest cuts is taken.

    Parameters
    ----------
    values : array_like of float
        Finite values (NaN is not allowed here; :class:`Discretizer` removes it).
    n_bins : int
        Intervals wanted (at least 2).

    Returns
    -------
    numpy.ndarray
        ``min(n_bins, m) - 1`` increasing inner cut points.

    Examples
    --------
    A spike at zero: quantiles put every cut at 0 and leave one interval; the
    tie-aware cuts keep the zeros together and split the rest evenly.

    >>> import numpy as np
    >>> from pgmpy_nml.study.discretize import tied_quantile_cuts
    >>> x = np.array([0.0] * 13 + [1.0, 2.0, 3.0, 4.0, 5.0])
    >>> np.quantile(x, [1 / 3, 2 / 3], method="averaged_inverted_cdf").tolist()
    [0.0, 0.0]
    >>> tied_quantile_cuts(x, 3).tolist()
    [0.5, 2.5]
    """
    n_bins = as_integer(n_bins, "n_bins", 2)
    values = np.asarray(values, dtype=float).ravel()
    if values.size == 0 or not np.all(np.isfinite(values)):
        raise ValueError("tied_quantile_cuts needs finite values (at least one).")
    distinct, counts = np.unique(values, return_counts=True)
    k = min(n_bins, len(distinct))
    if k < 2:
        return np.empty(0)
    starts = _balanced_partition(counts.astype(np.int64), k)
    return (distinct[starts - 1] + distinct[starts]) / 2
