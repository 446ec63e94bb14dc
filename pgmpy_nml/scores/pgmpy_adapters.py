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

import numpy as np
from scipy.special import gammaln

from .._data import encode_data
from .bd import bd_local, constant_prior_statistics
from .contract import CountStatistic, Families, PriorStatistic, StatisticScore, entropy_statistic

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", category=FutureWarning, module=r"pgmpy(\.|$)")
    from pgmpy import estimators as _legacy
from pgmpy import structure_score as _new

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

    def __init__(self, score):
        self.score = score
        self.encoded = encode_data(score.data, {v: list(s) for v, s in score.state_names.items()})
        self._statistics = self._declare()

    @property
    def n_samples(self) -> int:
        return self.encoded.n_samples

    def _declare(self) -> dict:
        raise NotImplementedError

    def statistics(self) -> dict:
        return self._statistics

    def local_from_statistics(self, families: Families):
        raise NotImplementedError


def _observed_statistic() -> CountStatistic:
    """Number of observed configurations of a subset."""
    return CountStatistic(_is_observed, "observed")


def _is_observed(counts):
    return (counts > 0).astype(np.float64)


class _Penalized(PgmpyScoreAdapter):
    """Log-likelihood minus a penalty of (q, r, N): ``LogLikelihood``, ``BIC``, ``AIC``."""

    def _declare(self):
        return {"H": entropy_statistic()}

    def penalty(self, q, r, n):
        return 0.0

    def local_from_statistics(self, families: Families):
        ll = families.family["H"] - families.parents["H"]
        return ll - self.penalty(families.n_parent_configs, families.child_arity, self.n_samples)


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
            "observed": _observed_statistic(),
            **constant_prior_statistics(1.0, self.encoded.arities),
        }

    def local_from_statistics(self, families: Families):
        r = families.child_arity
        textbook = bd_local(families.family["G"], families.parents["G", r])
        unobserved = families.n_parent_configs - families.parents["observed"]
        return textbook + unobserved * math.lgamma(r)


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
        return {"G": PriorStatistic(self.ess), "observed": _observed_statistic()}

    def local_from_statistics(self, families: Families):
        value = bd_local(families.family["G"], families.parents["G"])
        unseen = self._unseen[families.child]
        if not unseen:
            return value
        q, r = families.n_parent_configs, families.child_arity
        extra = families.parents["observed"] * unseen * gammaln(self.ess / (q * r))
        # without parents pgmpy counts every child state
        return value - np.where(np.asarray(families.n_parents) > 0, extra, 0.0)


_ADAPTERS: dict[type, type[PgmpyScoreAdapter]] = {}
for _module in (_new, _legacy):
    _ADAPTERS[_module.BDeu] = _BDeu
    _ADAPTERS[_module.K2] = _K2
    _ADAPTERS[_module.BIC] = _BIC
    _ADAPTERS[_module.AIC] = _AIC
_ADAPTERS[_new.LogLikelihood] = _Penalized
_ADAPTERS[importlib.import_module("pgmpy.estimators.StructureScore").LogLikeliHood] = _Penalized


def contract_for(score):
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
