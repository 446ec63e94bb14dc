"""pgmpy's own discrete scores in the score contract, value for value.

pgmpy's ``BDeu``, ``K2``, ``BIC``, ``AIC`` and ``LogLikelihood`` (the
``pgmpy.structure_score`` classes and the legacy ``pgmpy.estimators`` ones) are
differences of subset statistics too, so the package's searches can count them
in bulk. :func:`contract_for` wraps an instance in an adapter that declares its
statistics and formula, reproducing pgmpy's values exactly, quirks included (the
search optimizes the score object it was given). All pgmpy specifics live here.
"""

from __future__ import annotations

import importlib
import math
import warnings
from typing import TYPE_CHECKING

import numpy as np
from scipy.special import gammaln

from .._data import encode_data
from .bd import (
    bd_cells_bound,
    bd_local,
    bd_superset_bound,
    constant_prior_statistics,
)
from .contract import (
    Families,
    PriorStatistic,
    StatisticScore,
    Supersets,
    entropy_statistic,
    observed_statistic,
    penalized_superset_bound,
)

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", category=FutureWarning, module=r"pgmpy(\.|$)")
    from pgmpy import estimators as _legacy
from pgmpy import structure_score as _new

if TYPE_CHECKING:
    from .._typing import FloatOrArray, Score

__all__ = ["PgmpyScoreAdapter", "contract_for"]


class PgmpyScoreAdapter:
    """A pgmpy score seen through the contract of :class:`~.contract.StatisticScore`.

    Attributes
    ----------
    score : pgmpy score
        The wrapped instance.
    encoded : EncodedData
        Its data, encoded with its own state names.
    """

    def __init__(self, score: Score) -> None:
        self.score = score
        self.encoded = encode_data(score.data, {v: list(s) for v, s in score.state_names.items()})
        self._statistics = self._declare()

    @property
    def n_samples(self) -> int:
        return self.encoded.n_samples

    def __getstate__(self):
        # pgmpy's scores hold an lru_cache wrapper that pickle refuses; the adapter's
        # statistics and formula need only what _declare read, so the wrapped score
        # stays behind when the adapter travels to process or cluster workers
        state = self.__dict__.copy()
        state["score"] = None
        return state

    def _declare(self) -> dict:
        raise NotImplementedError

    def statistics(self) -> dict:
        return self._statistics

    def local_from_statistics(self, families: Families) -> FloatOrArray:
        raise NotImplementedError

    def bound_statistics(self) -> dict:
        """Statistics only :meth:`superset_bound` reads (see :class:`~.contract.StatisticScore`)."""
        return {}

    def monotone_family_statistics(self) -> tuple:
        """See :class:`~.contract.StatisticScore` (none by default)."""
        return ()

    def superset_bound(self, families: Families, supersets: Supersets) -> FloatOrArray | None:
        """Bound on the score of every proper superset (see :class:`~.contract.StatisticScore`)."""
        return None


class _Penalized(PgmpyScoreAdapter):
    """Log-likelihood minus a penalty of (q, r, N): ``LogLikelihood``, ``BIC``, ``AIC``."""

    def _declare(self):
        return {"H": entropy_statistic()}

    def penalty(self, q, r, n):
        return 0.0

    def local_from_statistics(self, families: Families):
        ll = families.family["H"] - families.parents["H"]
        return ll - self.penalty(families.n_parent_configs, families.child_arity, self.n_samples)

    def monotone_family_statistics(self):
        """``("H",)``: the score grows with :math:`H(P + v)` and reads no other family statistic."""
        return ("H",)

    def superset_bound(self, families: Families, supersets: Supersets):
        r"""``LL_max - penalty(q_min)``: the log-likelihood is at most ``LL_max`` and the
        penalty grows with the number of parent configurations ``q' >= q_min``; and at
        most the largest ``LL_c - penalty(q_c)`` over the cases of the supersets
        (:func:`~.contract.penalized_superset_bound`, which has the proof).

        This contains the parent-count limits of de Campos and Ji (2011, Theorem 4 and
        its corollaries) that follow from the sample size. With :math:`w` the penalty
        per free parameter (:math:`\log(N)/2` for BIC, 1 for AIC) and :math:`H(v)`
        the child's empirical entropy (nats), a parent set is a candidate only if

        .. math::

            w (r - 1) (q(P) - 1) < N H(v) \le N \log r,

        and the search closes every set :math:`S` with :math:`w (r - 1) (q_{\min}(S)
        - 1) \ge N H(v)`, so no superset of it is scored. *Proof.* The score of the
        empty set is :math:`-N H(v) - w (r - 1)`, and :math:`\mathrm{LL}(P) \le 0`:
        a set with :math:`w (r - 1) q(P) \ge N H(v) + w (r - 1)` scores at most the
        empty set, which dominates it. The bound of :math:`S` is at most :math:`0 -
        w (r - 1) q_{\min}(S)` (``LL_max`` :math:`\le 0`), at most the score of the
        empty set :math:`\subseteq S` under the same condition: :math:`S` is closed
        (rule 2 of :mod:`pgmpy_nml.search.candidates._lattice`). With :math:`H(v) \le \log r`,
        an :math:`r`-ary child never has more than :math:`1 + 2 N \log r / ((r - 1)
        \log N)` parent configurations under BIC. :math:`\square`
        """
        r, n = families.child_arity, self.n_samples
        return penalized_superset_bound(supersets, lambda q: self.penalty(q, r, n))


class _BIC(_Penalized):
    def penalty(self, q, r, n):
        return 0.5 * math.log(n) * q * (r - 1)


class _AIC(_Penalized):
    def penalty(self, q, r, n):
        return q * (r - 1)


class _K2(PgmpyScoreAdapter):
    """pgmpy 1.1's K2.

    pgmpy adds ``lgamma(r)`` for *every* parent configuration but subtracts
    ``lgamma(N_j + r)`` for the observed ones only, so each unobserved parent
    configuration adds ``lgamma(r_v)`` to the textbook K2 (BD with alpha 1, which
    is :class:`~pgmpy_nml.BDConstant`).
    """

    def _declare(self):
        return {
            "observed": observed_statistic(),
            **constant_prior_statistics(1.0, self.encoded.arities),
        }

    def local_from_statistics(self, families: Families):
        r = families.child_arity
        textbook = bd_local(families.family["G"], families.parents["G", r])
        unobserved = families.n_parent_configs - families.parents["observed"]
        return textbook + unobserved * math.lgamma(r)

    def superset_bound(self, families: Families, supersets: Supersets):
        """The textbook bound (:func:`~.bd.bd_superset_bound`) plus the most pgmpy's extra
        ``lgamma(r)`` per unobserved parent configuration can add: at most
        ``q_max - |obs(P)|`` of them (``|obs(P')| >= |obs(P)|``); infinite, so no
        pruning, when ``r >= 3`` and the number of configurations is unbounded."""
        r = families.child_arity
        textbook = bd_superset_bound(
            families.family["observed"],
            r,
            supersets.log_likelihood_max,
            bd_cells_bound(families.family["G"], families.family["G", r]),
        )
        extra = math.lgamma(r)
        if extra <= 0.0:  # r <= 2
            return textbook
        q_max = np.asarray(supersets.n_parent_configs_max, dtype=np.float64)
        return textbook + extra * (q_max - families.parents["observed"])


class _BDeu(PgmpyScoreAdapter):
    """pgmpy 1.1's BDeu.

    With parents, pgmpy's counts drop the child states never seen in the data
    while its normalization still counts them, which subtracts
    ``lgamma(ess / (q r))`` once per such state and observed parent
    configuration. Without declared-but-unseen states this is the textbook BDeu
    (:class:`~pgmpy_nml.BDeu`).
    """

    def _declare(self):
        self.ess = float(self.score.equivalent_sample_size)
        enc = self.encoded
        self._unseen = {
            v: int(enc.arities[i]) - len(np.unique(enc.codes[i]))
            for i, v in enumerate(enc.variables)
        }
        return {"G": PriorStatistic(self.ess), "observed": observed_statistic()}

    def local_from_statistics(self, families: Families):
        value = bd_local(families.family["G"], families.parents["G"])
        unseen = self._unseen[families.child]
        if not unseen:
            return value
        q, r = families.n_parent_configs, families.child_arity
        extra = families.parents["observed"] * unseen * gammaln(self.ess / (q * r))
        # without parents pgmpy counts every child state
        return value - np.where(np.asarray(families.n_parents) > 0, extra, 0.0)

    def superset_bound(self, families: Families, supersets: Supersets):
        """The textbook bound (:func:`~.bd.bd_superset_bound`) plus the most pgmpy's quirk
        can add: a proper superset subtracts ``|obs(P')| u lgamma(ess / (q' r))``
        (``u`` unseen child states), which is positive only where
        ``1 < ess / (q' r) < 2`` and then at most ``N u 0.1215`` (``-min lgamma``)."""
        r = families.child_arity
        bound = bd_superset_bound(families.family["observed"], r, supersets.log_likelihood_max)
        unseen = self._unseen[families.child]
        if not unseen:
            return bound
        x_max = self.ess / (np.asarray(supersets.n_parent_configs_min, dtype=np.float64) * r)
        return bound + np.where(x_max > 1.0, self.n_samples * unseen * _MINUS_MIN_LGAMMA, 0.0)


#: ``-min_x lgamma(x)`` over x > 0 (the minimum is at x = 1.4616...), rounded up
_MINUS_MIN_LGAMMA = 0.12148629053585


_ADAPTERS: dict[type, type[PgmpyScoreAdapter]] = {}
for _module in (_new, _legacy):
    _ADAPTERS[_module.BDeu] = _BDeu
    _ADAPTERS[_module.K2] = _K2
    _ADAPTERS[_module.BIC] = _BIC
    _ADAPTERS[_module.AIC] = _AIC
_ADAPTERS[_new.LogLikelihood] = _Penalized
_ADAPTERS[importlib.import_module("pgmpy.estimators.StructureScore").LogLikeliHood] = _Penalized


def contract_for(score: Score) -> StatisticScore | PgmpyScoreAdapter | None:
    """The score-contract view of ``score``, or None if it has none.

    This package's statistic scores are their own contract; pgmpy's ``BDeu``,
    ``K2``, ``BIC``, ``AIC`` and ``LogLikelihood`` (exact types, both APIs) get an
    adapter; any other score (Min-BDeu, Max-BDeu, subclasses of pgmpy's scores,
    your own) has none and is evaluated through its ``local_score``.
    """
    if isinstance(score, StatisticScore):
        return score
    adapter = _ADAPTERS.get(type(score))
    return adapter(score) if adapter is not None else None
