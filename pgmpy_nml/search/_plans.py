"""How each supported score becomes per-subset statistics plus one local formula.

A *plan* says which per-subset statistics the exact search must count (tables
of ``f(N_c)`` summed over the observed configurations of a subset, see
:func:`pgmpy_nml.search._kernels.subset_statistics`) and how a local score
follows from the statistics of the family ``P + v`` and of the parents ``P``,
for all parent sets of ``v`` at once. The formulas are the score modules' own
(``fnml_local``, ``qnml_local``), applied elementwise.
"""

from __future__ import annotations

import importlib
import math
import warnings

import numpy as np
from scipy.special import gammaln, xlogy

from .._data import EncodedData, encode_data
from ..regret import _log_regret_many, log_regret
from ..scores import FNML, QNML, BDConstant
from ..scores.fnml import fnml_local
from ..scores.qnml import qnml_local

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", category=FutureWarning, module=r"pgmpy(\.|$)")
    from pgmpy import estimators as _legacy
from pgmpy import structure_score as _new

__all__ = ["Plan", "plan_for"]


class Plan:
    """Per-subset statistics and the local-score formula of one score.

    Attributes
    ----------
    encoded : EncodedData
        The score's data (its state names define the arities).
    tables : ndarray, shape (n_tables, N + 1)
        ``tables[j, c]`` is the summand for a configuration seen ``c`` times.
    bdeu_ess : float
        > 0 adds the BDeu statistic with ``a = ess / |S|`` as the last column.
    """

    def __init__(self, encoded, tables, local, bdeu_ess=0.0):
        self.encoded = encoded
        self.tables = np.ascontiguousarray(np.atleast_2d(tables), dtype=np.float64)
        if self.tables.size == 0:
            self.tables = np.zeros((0, encoded.n_samples + 1))
        self.bdeu_ess = float(bdeu_ess)
        self._local = local

    def reordered(self):
        """The same plan over the variables sorted by decreasing empirical entropy.

        Counting adds variables in index order and drops rows once they are
        alone in their configuration, so splitting the rows early (high-entropy
        variables first) saves work: about a fifth on typical data.
        """
        enc = self.encoded
        entropy = []
        for row in enc.codes:
            p = np.bincount(row) / enc.n_samples
            p = p[p > 0]
            entropy.append(-(p * np.log(p)).sum())
        order = np.argsort(-np.array(entropy), kind="stable")
        variables = tuple(enc.variables[i] for i in order)
        encoded = EncodedData(
            variables,
            np.ascontiguousarray(enc.codes[order]),
            enc.arities[order],
            enc.state_names,
            {v: k for k, v in enumerate(variables)},
        )
        local = self._local
        return Plan(
            encoded,
            self.tables,
            lambda v, stats, q, split: local(int(order[v]), stats, q, split),
            self.bdeu_ess,
        )

    @property
    def n_stats(self) -> int:
        return self.tables.shape[0] + (1 if self.bdeu_ess > 0 else 0)

    def local(self, v, stats, q, split):
        """Local scores of ``v`` for all its parent sets at once.

        ``stats`` are the subset statistics (one row per statistic) and ``q[S]``
        the number of configurations of subset ``S``; ``split(x)`` turns any
        per-subset array into ``(x[P + v], x[P])`` over all parent sets ``P`` of
        ``v`` (views, in the order of the compressed parent masks).
        """
        return self._local(v, stats, q, split)


def _n_log_n(n):
    c = np.arange(n + 1, dtype=np.float64)
    return xlogy(c, c)


def _log_regret_table(r, n):
    return _log_regret_many(float(r), np.arange(n + 1, dtype=np.int64))


def _gamma_table(a, n):
    c = np.arange(n + 1, dtype=np.float64)
    return gammaln(c + a) - gammaln(a)


def _ll_plan(encoded, penalty):
    """Log-likelihood minus a penalty depending on (q, r, N) only."""
    n = encoded.n_samples
    arities = encoded.arities

    def local(v, stats, q, split):
        h_fam, h_par = split(stats[0])
        return (h_fam - h_par) - penalty(split(q)[1], int(arities[v]), n)

    return Plan(encoded, _n_log_n(n)[None, :], local)


def _fnml_plan(encoded):
    n = encoded.n_samples
    arities = [int(r) for r in encoded.arities]
    distinct = sorted(set(arities))
    column = {r: 1 + i for i, r in enumerate(distinct)}
    tables = [_n_log_n(n)] + [_log_regret_table(r, n) for r in distinct]

    def local(v, stats, q, split):
        h_fam, h_par = split(stats[0])
        return fnml_local(h_fam, h_par, split(stats[column[arities[v]]])[1])

    return Plan(encoded, np.array(tables), local)


def _qnml_plan(encoded):
    n = encoded.n_samples
    memo = {}

    def log_c(q):
        """``log C(|S|, N)`` of every subset; subsets share few distinct ``|S|``."""
        if "all" not in memo:
            uniq, inverse = np.unique(q, return_inverse=True)
            # integral floats, exact below 2**53 and the nearest float above
            memo["all"] = np.array([log_regret(float(k), n) for k in uniq])[inverse]
        return memo["all"]

    def local(v, stats, q, split):
        return qnml_local(*split(stats[0]), *split(log_c(q)))

    return Plan(encoded, _n_log_n(n)[None, :], local)


def _bd_constant_plan(encoded, a):
    """BD with alpha_ijk = a: ``G_a(P + v) - G_{r a}(P)``."""
    n = encoded.n_samples
    arities = [int(r) for r in encoded.arities]
    distinct = sorted(set(arities))
    column = {r: 1 + i for i, r in enumerate(distinct)}
    tables = [_gamma_table(a, n)] + [_gamma_table(r * a, n) for r in distinct]

    def local(v, stats, q, split):
        return split(stats[0])[0] - split(stats[column[arities[v]]])[1]

    return Plan(encoded, np.array(tables), local)


def _observed_table(n):
    """Summand counting the observed configurations of a subset."""
    return (np.arange(n + 1) > 0).astype(np.float64)


def _pgmpy_k2_plan(encoded):
    """pgmpy 1.1's K2, value for value.

    pgmpy adds ``lgamma(r)`` for *every* parent configuration but subtracts
    ``lgamma(N_j + r)`` for the observed ones only, so each unobserved parent
    configuration adds ``lgamma(r_v)`` to the textbook K2 (BD with alpha 1, which
    is :class:`~pgmpy_nml.BDConstant`). The search reproduces the score object
    it is given.
    """
    base = _bd_constant_plan(encoded, 1.0)
    arities = [int(r) for r in encoded.arities]
    observed = base.tables.shape[0]
    tables = np.vstack([base.tables, _observed_table(encoded.n_samples)])

    def local(v, stats, q, split):
        extra = (split(q)[1] - split(stats[observed])[1]) * math.lgamma(arities[v])
        return base.local(v, stats, q, split) + extra

    return Plan(encoded, tables, local)


def _pgmpy_bdeu_plan(encoded, ess):
    """pgmpy 1.1's BDeu, value for value.

    With parents, pgmpy's counts drop the child states never seen in the data
    while its normalization still counts them, which subtracts
    ``lgamma(ess / (q r))`` once per such state and observed parent
    configuration. Without declared-but-unseen states this is the textbook BDeu.
    """
    arities = [int(r) for r in encoded.arities]
    unseen = [r - len(np.unique(encoded.codes[i])) for i, r in enumerate(arities)]
    tables = _observed_table(encoded.n_samples)[None, :]

    def local(v, stats, q, split):
        g_fam, g_par = split(stats[-1])
        value = g_fam - g_par
        if unseen[v]:
            q_par = split(q)[1]
            extra = split(stats[0])[1] * unseen[v] * gammaln(ess / (q_par * arities[v]))
            extra.flat[0] = 0.0  # no parents: pgmpy counts every child state there
            value = value - extra
        return value

    return Plan(encoded, tables, local, bdeu_ess=ess)


def _bic_penalty(q, r, n):
    return 0.5 * math.log(n) * q * (r - 1)


def _aic_penalty(q, r, n):
    return q * (r - 1)


def _zero_penalty(q, r, n):
    return 0.0


def _pgmpy_encoded(score):
    return encode_data(score.data, {v: list(s) for v, s in score.state_names.items()})


_PGMPY = {}
for _module in (_new, _legacy):
    _PGMPY[_module.BDeu] = lambda s: _pgmpy_bdeu_plan(
        _pgmpy_encoded(s), float(s.equivalent_sample_size)
    )
    _PGMPY[_module.K2] = lambda s: _pgmpy_k2_plan(_pgmpy_encoded(s))
    _PGMPY[_module.BIC] = lambda s: _ll_plan(_pgmpy_encoded(s), _bic_penalty)
    _PGMPY[_module.AIC] = lambda s: _ll_plan(_pgmpy_encoded(s), _aic_penalty)
_PGMPY[_new.LogLikelihood] = lambda s: _ll_plan(_pgmpy_encoded(s), _zero_penalty)
_PGMPY[importlib.import_module("pgmpy.estimators.StructureScore").LogLikeliHood] = lambda s: (
    _ll_plan(_pgmpy_encoded(s), _zero_penalty)
)


def plan_for(score):
    """The fast plan of ``score``, or None when it needs the generic path."""
    kind = type(score)
    if kind is FNML:
        return _fnml_plan(score._encoded)
    if kind is QNML:
        return _qnml_plan(score._encoded)
    if kind is BDConstant:
        return _bd_constant_plan(score._encoded, score.alpha)
    if kind in _PGMPY:
        return _PGMPY[kind](score)
    return None
