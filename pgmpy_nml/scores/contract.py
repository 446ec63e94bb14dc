r"""The score contract: per-subset statistics plus one local formula.

Most decomposable scores of discrete Bayesian networks are differences of
statistics of variable *subsets*. Write :math:`\mathrm{obs}(S)` for the joint
configurations of a subset :math:`S` seen in the data, :math:`N_c` for their
counts and :math:`|S|` for the number of possible configurations. A *statistic*
is

.. math::

    T(S) = \sum_{c \in \mathrm{obs}(S)} \varphi(N_c, |S|),

and a score's local score of child :math:`v` with parents :math:`P` is a formula
in :math:`T(P \cup \{v\})`, :math:`T(P)`, the child's arity :math:`r`, the number
of parent configurations :math:`q = |P|` and the sample size. For example
(natural logarithms, :math:`H(S) = \sum_c N_c \log N_c`):

- log-likelihood: :math:`H(P + v) - H(P)`;
- fNML: :math:`H(P + v) - H(P) - \sum_{c \in \mathrm{obs}(P)} \log C(r, N_c)`;
- BDeu: :math:`G(P + v) - G(P)`, :math:`G(S) = \sum_c \log\Gamma(N_c + a_S) -
  \log\Gamma(a_S)`, :math:`a_S = \alpha / |S|`.

A score that declares its statistics (:meth:`StatisticScore.statistics`) and its
formula (:meth:`StatisticScore.local_from_statistics`) gets both drivers from
this module: one family at a time (``local_score``, used by pgmpy's searches and
by :func:`family_statistics` here) and all subsets at once (the exact search,
whose compiled counting kernels evaluate the same :class:`Statistic` objects).
The formula is written once, elementwise, and serves both.

Two kinds of statistic cover every score of the package, and the counting
kernels know only these two kinds, not the scores:

- :class:`CountStatistic`: :math:`\varphi(N_c)` depends on the count only
  (e.g. :math:`N \log N`, :math:`\log C(r, N)`, :math:`\log\Gamma(N + a) -
  \log\Gamma(a)` for a fixed :math:`a`);
- :class:`PriorStatistic`: :math:`\varphi = \log\Gamma(N_c + m/|S|) -
  \log\Gamma(m/|S|)`, a Dirichlet prior mass :math:`m` spread evenly over the
  configurations of the subset (BDeu).

Scores that are not of this form (Min-BDeu and Max-BDeu optimize a prior per
parent configuration) implement ``_score_table`` on the family's count table
instead, and the exact search evaluates them family by family.

A score may also own an upper bound on the local score of every *superset* of a
parent set (:meth:`StatisticScore.superset_bound`, from the same statistics plus
what :class:`Supersets` knows of the supersets), which lets the search for
candidate parent sets (:mod:`pgmpy_nml.search.candidates._pruning`) skip whole branches.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from scipy.special import xlogy

from ..numerics.gamma import log_rising_array
from ._base import DiscreteScore

if TYPE_CHECKING:
    from typing import Any

    from .._typing import FloatOrArray


__all__ = [
    "CountStatistic",
    "Families",
    "PriorStatistic",
    "Statistic",
    "StatisticScore",
    "Supersets",
    "entropy_statistic",
    "family_statistics",
    "observed_statistic",
    "penalized_superset_bound",
]


class Statistic:
    """A per-subset statistic :math:`T(S) = \\sum_{c \\in obs(S)} \\varphi(N_c, |S|)`."""

    label: str = ""

    def evaluate(self, counts: np.ndarray, n_configs: float) -> float:
        """:math:`T` of one subset from the positive counts of its observed configurations."""
        raise NotImplementedError


class CountStatistic(Statistic):
    r""":math:`T(S) = \sum_{c \in obs(S)} \varphi(N_c)`, with :math:`\varphi(0) = 0`.

    Parameters
    ----------
    phi : callable
        Vectorized: an int64 array of counts :math:`\ge 1` to a float array. A
        module-level function or a ``functools.partial`` of one keeps the score
        picklable (for process and cluster workers).
    label : str
        A short name for messages and reprs.

    Values of :math:`\varphi` are memoized in a lazily filled array for counts up
    to ``DENSE_LIMIT`` (shared by every family a score evaluates); larger counts
    are evaluated directly. :meth:`dense` gives the whole table for the compiled
    all-subsets kernels.
    """

    #: counts above this are evaluated one by one (keeps the memo <= 16 MB)
    DENSE_LIMIT = 1 << 21

    def __init__(self, phi: Callable[[np.ndarray], np.ndarray], label: str = "") -> None:
        self.phi = phi
        self.label = label
        # phi(0), phi(1), ... with NaN where not yet computed, and one NaN past the end
        # (see evaluate): the memo of counts 0 .. len - 2
        self._memo = np.full(1, np.nan)

    def __repr__(self) -> str:
        return f"CountStatistic({self.label or self.phi!r})"

    def values(self, counts: np.ndarray) -> np.ndarray:
        """:math:`\\varphi` of each count (int64 array of counts >= 0)."""
        counts = np.asarray(counts, dtype=np.int64)
        if counts.size == 0:
            return np.zeros(0)
        top = int(counts.max())
        if top > self.DENSE_LIMIT:
            out = np.empty(counts.shape)
            large = counts > self.DENSE_LIMIT
            out[large] = self._phi(counts[large])
            out[~large] = self.values(counts[~large])
            return out
        n_memo = self._memo.shape[0] - 1
        if top >= n_memo:  # grow by doubling: O(1) per count, amortized
            size = min(max(top + 1, 2 * n_memo, 64), self.DENSE_LIMIT + 1)
            memo = np.full(size + 1, np.nan)
            memo[:n_memo] = self._memo[:n_memo]
            memo[0] = 0.0
            self._memo = memo
        values = self._memo[counts]
        missing = np.isnan(values)
        if missing.any():
            todo = np.unique(counts[missing])
            self._memo[todo] = self._phi(todo)
            values = self._memo[counts]
        return values

    def _phi(self, counts: np.ndarray) -> np.ndarray:
        values = np.asarray(self.phi(counts), dtype=np.float64)
        return np.where(counts == 0, 0.0, values)

    def evaluate(self, counts: np.ndarray, n_configs: float | None = None) -> float:
        # Fast path (one family's local_score): every count already memoized. A count
        # not yet known, or past the memo (clipped onto the trailing NaN), makes the sum
        # NaN, and the general path fills the memo.
        if isinstance(counts, np.ndarray) and counts.dtype.kind in "iu":
            total = float(self._memo.take(counts, mode="clip").sum())
            if total == total:
                return total
        return float(self.values(counts).sum())

    def dense(self, n: int) -> np.ndarray:
        """:math:`\\varphi(0), \\dots, \\varphi(n)` as one float64 array."""
        return self.values(np.arange(n + 1, dtype=np.int64))


def entropy_statistic() -> CountStatistic:
    r""":math:`H(S) = \sum_{c \in obs(S)} N_c \log N_c`, the statistic of every likelihood."""
    return CountStatistic(_n_log_n, "N log N")


def _n_log_n(counts):
    return xlogy(counts, counts)


def observed_statistic() -> CountStatistic:
    r""":math:`|obs(S)|`, the number of observed configurations of a subset."""
    return CountStatistic(_is_observed, "observed")


def _is_observed(counts):
    return (counts > 0).astype(np.float64)


class PriorStatistic(Statistic):
    r"""BDeu's :math:`G(S) = \sum_c [\log\Gamma(N_c + a_S) - \log\Gamma(a_S)]`, :math:`a_S = m/|S|`.

    The Dirichlet normalizing terms of a prior of total mass ``m`` spread evenly
    over the :math:`|S|` configurations of the subset (BDeu's :math:`G(S)`),
    evaluated with the stable :func:`pgmpy_nml.numerics.gamma.log_rising`.

    Parameters
    ----------
    mass : float
        The prior mass :math:`m > 0` (BDeu's equivalent sample size).
    """

    def __init__(self, mass: float, label: str = "") -> None:
        self.mass = float(mass)
        self.label = label or f"prior mass {self.mass:g}"

    def __repr__(self) -> str:
        return f"PriorStatistic({self.mass!r})"

    def evaluate(self, counts: np.ndarray, n_configs: float) -> float:
        a = self.mass / float(n_configs)
        return float(log_rising_array(a, np.asarray(counts, dtype=np.float64)).sum())


def check_statistic_kinds(statistics: Mapping[str, Statistic], driver: str) -> None:
    """Raise ``TypeError`` unless every statistic is a :class:`CountStatistic` or a
    :class:`PriorStatistic`, the two kinds the bulk drivers (``driver``) count."""
    unknown = [
        s for s in statistics.values() if not isinstance(s, (CountStatistic, PriorStatistic))
    ]
    if unknown:
        raise TypeError(
            f"Statistics {unknown!r} are neither CountStatistic nor PriorStatistic; the "
            f"{driver} counts only these two kinds."
        )


@dataclass(frozen=True)
class Families:
    """The statistics of one or many families of one child, as a score's formula sees them.

    Scalars for one family (``local_score``); equal-shaped arrays for many (the
    exact search passes all parent sets of a child at once).

    Attributes
    ----------
    child : hashable
        The child variable.
    child_arity : int
        Its number of states :math:`r`, declared-but-unobserved ones included.
    n_parent_configs : int, float or ndarray
        :math:`q`, the number of *possible* parent configurations (1 without parents).
    n_parents : int or ndarray
        Number of parents.
    n_samples : int
        Rows of the data.
    family, parents : Mapping
        Statistic key -> :math:`T(P \\cup \\{v\\})` and :math:`T(P)`. Values are
        computed on first access, so a formula pays only for what it reads.
    """

    child: Hashable
    child_arity: int
    n_parent_configs: FloatOrArray
    n_parents: int | np.ndarray
    n_samples: int
    family: Mapping
    parents: Mapping


@dataclass(frozen=True)
class Supersets:
    r"""What is known of every proper superset of the parent sets of a :class:`Families` view.

    A score's :meth:`StatisticScore.superset_bound` bounds the local score of the
    child for every admissible parent set :math:`P' \supsetneq P` (within the
    parent limit and the expert knowledge) from the statistics of :math:`P` and
    :math:`P + v` and these three facts about :math:`P'`. Scalars or arrays
    shaped like the :class:`Families` view's.

    Attributes
    ----------
    n_parent_configs_min : float or ndarray
        :math:`q(P') \ge` this: :math:`q(P)` times the smallest arity that can be added.
    n_parent_configs_max : float or ndarray
        :math:`q(P') \le` this (``inf`` when nothing smaller is known).
    log_likelihood_max : float or ndarray
        :math:`H(P' + v) - H(P') \le` this (and it is :math:`\le 0`): the
        log-likelihood of the child given any superset. The search takes the
        smaller of the log-likelihood given every admissible parent at once
        (refining the parent configurations never lowers the likelihood) and
        :math:`\mathrm{LL}(P) + N \sum_u H(u)` over the largest empirical
        entropies of the variables that can still be added (the gain
        :math:`N\, I(v; Q \mid P) \le N H(Q) \le N \sum_{u \in Q} H(u)`).
    cases : tuple of two ndarrays, optional
        ``(log_likelihood_max, n_parent_configs_min)``, each shaped (sets, cases): every
        admissible :math:`P' \supsetneq P` satisfies *both* inequalities of at least one
        case (a case with ``-inf`` holds for no superset). The search gives one case
        per arity :math:`r` of the parents that can be added alone (:math:`\mathrm{LL}
        \le \min(\mathrm{LL}_{\mathrm{top}}, \mathrm{LL}(P) + \max_u N H(u))` over
        those parents :math:`u` of arity :math:`r`, :math:`q' = q(P)\, r`) and one per
        number :math:`k \ge 2` of added parents (the :math:`k` largest gains, the
        :math:`k` smallest arities), so that a score whose penalty grows with
        :math:`q'` can pair each gain with its own penalty. None: not known.
    """

    n_parent_configs_min: FloatOrArray
    n_parent_configs_max: FloatOrArray
    log_likelihood_max: FloatOrArray
    cases: tuple | None = None


def penalized_superset_bound(
    supersets: Supersets, penalty: Callable[[FloatOrArray], FloatOrArray]
) -> FloatOrArray:
    r"""The superset bound of a score :math:`\mathrm{LL}(v \mid P) - \mathrm{pen}(q(P))`
    whose penalty is nondecreasing in the number of parent configurations (BIC, AIC,
    qNML; elementwise).

    .. math::

        s(v \mid P') \le \min\Bigl(\mathrm{LL}_{\max} - \mathrm{pen}(q_{\min}),\;
            \max_c \bigl[\mathrm{LL}_c - \mathrm{pen}(q_c)\bigr]\Bigr)

    over the cases :math:`c` of ``supersets.cases`` (the first term alone when they
    are not known). *Proof.* Every admissible :math:`P' \supsetneq P` has
    :math:`\mathrm{LL}(v \mid P') \le \mathrm{LL}_{\max}` and :math:`q(P') \ge
    q_{\min}`; and for some case :math:`c`, :math:`\mathrm{LL}(v \mid P') \le
    \mathrm{LL}_c` and :math:`q(P') \ge q_c` (:class:`Supersets`). The penalty is
    nondecreasing, so :math:`s(v \mid P')` is at most :math:`\mathrm{LL}_c -
    \mathrm{pen}(q_c)` for that case, hence at most the largest over the cases, and
    at most the first term likewise. :math:`\square` The cases pair a parent's
    likelihood gain with its own penalty: a parent of many states that could explain
    the child no longer lends its gain to a parent of two states.

    Parameters
    ----------
    supersets : Supersets
    penalty : callable
        Numbers of parent configurations (float arrays, ``>= 1``) to penalties.
    """
    bound = supersets.log_likelihood_max - penalty(supersets.n_parent_configs_min)
    if supersets.cases is None:
        return bound
    ll, q = supersets.cases
    holds = ll > -np.inf
    per_case = np.where(holds, ll - penalty(np.where(holds, q, 1.0)), -np.inf)
    return np.minimum(bound, per_case.max(axis=1))


class _LazyStatistics(Mapping):
    """Statistic key -> value for one subset, computed on first access."""

    def __init__(self, statistics: Mapping, counts: np.ndarray, n_configs):
        self._statistics = statistics
        self._counts = counts
        self._n_configs = n_configs
        self._values: dict = {}

    def __getitem__(self, key):
        value = self._values.get(key)
        if value is None:
            value = self._statistics[key].evaluate(self._counts, self._n_configs)
            self._values[key] = value
        return value

    def __iter__(self):
        return iter(self._statistics)

    def __len__(self) -> int:
        return len(self._statistics)


def family_statistics(
    score: StatisticScore, child: Hashable, table: np.ndarray, q: int, n_parents: int
) -> Families:
    """The :class:`Families` view of one family from its count table.

    Parameters
    ----------
    score : StatisticScore
    child : hashable
        The child variable.
    table : ndarray of int64, shape (q_observed, r)
        Counts over the observed parent configurations (see
        :func:`pgmpy_nml._counting.family_table`).
    q : int
        Number of possible parent configurations.
    n_parents : int
    """
    statistics = score.statistics()
    r = table.shape[1]
    cells = table.ravel()  # empty cells add 0 to every statistic (phi(0) = 0, G's too)
    rows = table.sum(axis=1)
    return Families(
        child=child,
        child_arity=r,
        n_parent_configs=q,
        n_parents=n_parents,
        n_samples=score.n_samples,
        family=_LazyStatistics(statistics, cells, q * r),
        parents=_LazyStatistics(statistics, rows, q),
    )


class StatisticScore(DiscreteScore):
    """A decomposable score given by per-subset statistics and one local formula.

    Subclasses implement :meth:`statistics` and :meth:`local_from_statistics`;
    ``local_score`` and the exact search's all-subsets path both call that one
    formula. Optionally they implement :meth:`superset_bound` (with any extra
    statistics it reads in :meth:`bound_statistics`), which the search for
    candidate parent sets uses to stop enumerating supersets early.
    """

    def statistics(self) -> Mapping[Any, Statistic]:
        """Every statistic the formula may read, by key (one object per key, reused)."""
        raise NotImplementedError

    def local_from_statistics(self, families: Families) -> FloatOrArray:
        """The local score(s) of ``families``; elementwise for arrays."""
        raise NotImplementedError

    def bound_statistics(self) -> Mapping[Any, Statistic]:
        """Statistics that only :meth:`superset_bound` reads, by key (none by default).

        The candidate search counts them beside :meth:`statistics`; the exact
        subset search, which needs no bound, does not.
        """
        return {}

    def monotone_family_statistics(self) -> tuple:
        """Keys of family statistics the local score is nondecreasing in (none by default).

        Each such statistic never increases when its subset grows (as
        :math:`H = \\sum_c N_c \\log N_c`: splitting a count never raises it), and
        the formula reads no other family statistic. The candidate search then
        bounds the score of :math:`v \\mid P` before counting :math:`P + v`, by
        evaluating the formula with each such statistic replaced by its
        smallest value over the families :math:`P - u + v`.
        """
        return ()

    def superset_bound(self, families: Families, supersets: Supersets) -> FloatOrArray | None:
        r"""Upper bound(s) on the local score of every proper superset of each family's parents.

        For each family (child :math:`v`, parents :math:`P`) of ``families``, a
        value :math:`\ge s(v \mid P')` for every admissible :math:`P' \supsetneq P`;
        elementwise for arrays. ``None`` (the default) means the score has no
        bound, and the candidate search prunes by dominance alone.
        """
        return None

    def _score_family(self, child: int, parents: tuple[int, ...]) -> float:
        table = self._family_table(child, parents)
        q = self._encoded.configurations(parents)
        families = family_statistics(self, self._encoded.variables[child], table, q, len(parents))
        return float(self.local_from_statistics(families))
