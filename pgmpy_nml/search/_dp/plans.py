"""How the exact search gets every local score of a score: a plan per kind of score.

A :class:`StatisticPlan` serves every score with a contract
(:mod:`pgmpy_nml.scores.contract`: this package's statistic scores and pgmpy's
adapted ones): it counts every variable subset once, in compiled code, into the
statistics the score declares, and applies the score's own formula to all
parent sets of a variable at once. A :class:`GenericPlan` serves any other
decomposable score through its ``local_score``, family by family, with joblib.
"""

from __future__ import annotations

import time

import numpy as np

from ..._counting import subsets as _kernels
from ..._data import EncodedData
from ...scores.contract import CountStatistic, Families, PriorStatistic, check_statistic_kinds
from ...scores.pgmpy_adapters import contract_for

__all__ = ["GenericPlan", "Plan", "StatisticPlan", "make_plan"]


def popcounts(bits: int) -> np.ndarray:
    """Number of set bits of every mask ``0 .. 2**bits - 1`` (int8)."""
    counts = np.zeros(1, dtype=np.int8)
    for _ in range(bits):
        counts = np.concatenate([counts, counts + 1])
    return counts


class Plan:
    """What the exact search needs from a score.

    Attributes
    ----------
    variables : list
        The variables, in the order of the search's bitmasks.
    n_samples : int
    n_stats : int
        Per-subset statistics kept in memory (0 for the generic path).
    kind : str
        ``"statistics"`` or ``"generic"``, reported by the search.
    """

    kind = ""
    variables: list
    n_samples: int
    n_stats = 0

    def local_scores(self, max_parents, n_threads, n_jobs, progress, timings) -> np.ndarray:
        """``ls[v, c]``: local score of ``v`` for its parent set with compressed mask ``c``.

        Parent sets larger than ``max_parents`` are left ``-inf``; ``progress(k)``
        reports work done in :meth:`work` units; ``timings`` gets the seconds of
        each phase.
        """
        raise NotImplementedError

    def work(self, max_parents: int) -> float:
        """Units of :meth:`local_scores` work (what it reports to ``progress``)."""
        raise NotImplementedError

    def cost(self, max_parents: int) -> float:
        """Rough single-core seconds of :meth:`local_scores`, for progress bars."""
        raise NotImplementedError


class StatisticPlan(Plan):
    """All subsets counted once into the statistics of a score contract.

    The variables are taken in decreasing order of empirical entropy: counting adds
    variables in index order and drops rows once they are alone in their
    configuration, so splitting the rows early saves work (about a fifth on
    typical data).
    """

    kind = "statistics"

    def __init__(self, contract, extra_statistics=None):
        """``extra_statistics``: more statistics to count beside the score's (by key;
        the score's own win on a shared key), e.g. those of its superset bound."""
        self.contract = contract
        enc = contract.encoded
        entropy = []
        for row in enc.codes:
            p = np.bincount(row, weights=enc.weights) / enc.n_samples
            p = p[p > 0]
            entropy.append(-(p * np.log(p)).sum())
        order = np.argsort(-np.array(entropy), kind="stable")
        variables = tuple(enc.variables[i] for i in order)
        self.encoded = EncodedData(
            variables,
            np.ascontiguousarray(enc.codes[order]),
            enc.arities[order],
            enc.state_names,
            {v: k for k, v in enumerate(variables)},
            weights=enc.weights,
        )
        self.variables = list(variables)
        self.n_samples = enc.n_samples
        statistics = dict(contract.statistics())
        for key, statistic in (extra_statistics or {}).items():
            statistics.setdefault(key, statistic)
        check_statistic_kinds(statistics, "exact search")
        self._count_keys = [k for k, s in statistics.items() if isinstance(s, CountStatistic)]
        self._prior_keys = [k for k, s in statistics.items() if isinstance(s, PriorStatistic)]
        self._statistics = statistics
        self.n_stats = len(statistics)

    #: rough seconds to count one subset, per row of data
    COST_PER_SUBSET_ROW = 3e-9

    def work(self, max_parents: int) -> float:
        n_vars = len(self.variables)
        subsets = sum(size for _, size in _kernels.subset_roots(n_vars, max_parents + 1))
        return float(subsets)

    def cost(self, max_parents: int) -> float:
        return self.work(max_parents) * self.COST_PER_SUBSET_ROW * self.n_samples

    def count_arrays(self) -> tuple[list, np.ndarray, np.ndarray]:
        """``(keys, tables, masses)`` for the counting kernels.

        ``tables[j, c]`` is the j-th count statistic's ``phi(c)`` for ``c = 0 .. N``,
        ``masses`` the prior statistics' masses; the kernels' rows of statistics
        follow ``keys``: the count statistics, then the prior statistics.
        """
        n = self.n_samples
        tables = np.array([self._statistics[k].dense(n) for k in self._count_keys])
        tables = tables.reshape(len(self._count_keys), n + 1)
        masses = np.array([self._statistics[k].mass for k in self._prior_keys], dtype=np.float64)
        return self._count_keys + self._prior_keys, tables, masses

    def local_scores(self, max_parents, n_threads, n_jobs, progress, timings):
        start = time.perf_counter()
        enc = self.encoded
        n_vars = enc.n_variables
        n = enc.n_samples
        keys, tables, masses = self.count_arrays()
        stats = _kernels.subset_statistics(
            enc.codes,
            enc.arities,
            tables,
            masses,
            max_parents + 1,
            n_threads,
            progress,
            weights=enc.weights,
        )
        timings["subset statistics"] = time.perf_counter() - start
        start = time.perf_counter()
        rows = dict(zip(keys, stats, strict=True))
        q = np.ones(1)
        for r in enc.arities:
            q = np.concatenate([q, q * float(r)])
        sizes = popcounts(n_vars)
        ls = np.empty((n_vars, 2 ** (n_vars - 1)))
        for v in range(n_vars):

            def split(x, v=v):
                # subsets as (high bits, bit v, low bits): bit v set = family
                blocks = x.reshape(-1, 2, 1 << v)
                return blocks[:, 1, :], blocks[:, 0, :]

            family, parents = {}, {}
            for key, row in rows.items():
                family[key], parents[key] = split(row)
            families = Families(
                child=enc.variables[v],
                child_arity=int(enc.arities[v]),
                n_parent_configs=split(q)[1],
                n_parents=split(sizes)[1],
                n_samples=n,
                family=family,
                parents=parents,
            )
            values = self.contract.local_from_statistics(families)
            ls[v] = np.broadcast_to(values, np.shape(families.n_parent_configs)).reshape(-1)
        ls[:, popcounts(n_vars - 1) > max_parents] = -np.inf
        timings["local scores"] = time.perf_counter() - start
        return ls


class GenericPlan(Plan):
    """Every family through the score's ``local_score``, one variable per joblib task."""

    kind = "generic"

    def __init__(self, score):
        self.score = score
        self.variables = list(score.variables)
        data = getattr(score, "data", None)
        self.n_samples = len(data) if data is not None else int(score.n_samples)

    #: rough seconds of one ``local_score`` call
    COST_PER_FAMILY = 5e-5

    def work(self, max_parents: int) -> float:
        return float(len(self.variables))

    def cost(self, max_parents: int) -> float:
        n_vars = len(self.variables)
        families = int((popcounts(n_vars - 1) <= max_parents).sum())
        return n_vars * families * self.COST_PER_FAMILY

    def local_scores(self, max_parents, n_threads, n_jobs, progress, timings):
        from joblib import Parallel, delayed

        start = time.perf_counter()
        score, variables = self.score, self.variables
        n_vars = len(variables)
        sizes = popcounts(n_vars - 1)
        wanted = np.flatnonzero(sizes <= max_parents)

        def row(v):
            out = np.full(2 ** (n_vars - 1), -np.inf)
            others = [u for u in variables if u != variables[v]]
            for c in wanted:
                parents = tuple(others[b] for b in range(n_vars - 1) if (c >> b) & 1)
                out[c] = score.local_score(variables[v], parents)
            return out

        rows = []
        for r in Parallel(n_jobs=n_jobs, prefer="threads", return_as="generator")(
            delayed(row)(v) for v in range(n_vars)
        ):
            rows.append(r)
            progress(1)
        timings["local scores"] = time.perf_counter() - start
        return np.array(rows)


def make_plan(score) -> Plan:
    """The cheapest plan for ``score``: its statistics if it has a contract, else generic."""
    contract = contract_for(score)
    if contract is not None:
        return StatisticPlan(contract)
    return GenericPlan(score)
