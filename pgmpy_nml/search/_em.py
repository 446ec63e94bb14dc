r"""The chains of :class:`~pgmpy_nml.StructuralEM`: draw a completion, search, fit, repeat.

Each iteration of a :class:`Chain` draws one completion of the data from the current
network (:class:`~pgmpy_nml.estimators._posterior.MissingPlan`, exact draws), builds the
score on it (encoded directly for this package's scores, as a DataFrame of categoricals
for others), runs a fresh search from the current network, and fits the tables on the
completion's counts with the M-step's formula. It then measures the new network by

.. math::

    C(G_t) = L(G_t, \theta_t) + \bigl[S(G_t; D_t) - \hat L(G_t; D_t)\bigr],

the observed-data log-likelihood (exact, a by-product of the next draw) plus the score's
complexity term on the completion (the score minus the completion's maximized
log-likelihood: the regret of fNML, :math:`-\tfrac{d}{2}\log N` for BIC, BDeu's Occam
factor): the Cheeseman-Stutz approximation of the observed-data score (Cheeseman and
Stutz 1996; Chickering and Heckerman 1997). The chain stops when :math:`C` has not
exceeded its best by ``tol`` per row for ``n_iter_no_change`` iterations; its best
network by :math:`C` is its result, and the best over the chains is the estimator's.
"""

from __future__ import annotations

import math
import time
import warnings
from collections import deque
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from .._counting import full_family_table, sum_nlogn
from .._data import EncodedData
from .._progress import progress_bar
from .._sparse import inner_fits
from ..estimators._posterior import MissingPlan
from ..estimators.em import MStep, em_tables, initial_tables, network_cpds
from ..models import bayesian_network
from ..scores.nal import PNAL
from ..scores.registry import get_score_spec, resolve_score, takes_encoded
from ._base import as_dag, fresh_search

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["Chain", "ChainResult", "Fitted", "changed_pairs", "iteration_frame"]

#: The columns of ``StructuralEM.iterations_``.
COLUMNS = (
    "chain",
    "iteration",
    "log_likelihood",
    "score",
    "criterion",
    "changed_edges",
    "n_edges",
    "seconds",
)


@dataclass(frozen=True)
class Fitted:
    """What ``StructuralEM.fit`` found (its trailing-underscore attributes)."""

    dag: Any
    model: Any
    score: float
    log_likelihood: float
    iterations: pd.DataFrame
    n_iter: int
    converged: bool
    n_missing: int
    feature_names: Any
    seconds: float


@dataclass(frozen=True)
class State:
    """One iteration's network: its DAG, parents (in the M-step's order), tables and
    criterion :math:`C` (see the module notes)."""

    chain: int
    iteration: int
    dag: Any
    parents: dict
    tables: list
    criterion: float


@dataclass(frozen=True)
class ChainResult:
    """A chain's chosen network, its quality (the mean criterion over its last
    iterations), one record per iteration, and whether it settled."""

    best: State
    quality: float
    records: list
    converged: bool


def changed_pairs(old, new) -> int:
    """Pairs of variables whose edge was added, removed or reversed from ``old`` to ``new``."""
    return len({frozenset(e) for e in set(old.edges()) ^ set(new.edges())})


def iteration_frame(records: Sequence[dict]) -> pd.DataFrame:
    """``StructuralEM.iterations_`` from one record per iteration."""
    return pd.DataFrame(list(records), columns=list(COLUMNS))


class Chain:
    """One chain of stochastic structural EM on ``encoded`` (codes -1 where missing).

    ``owner`` is the :class:`~pgmpy_nml.StructuralEM` (its score and settings),
    ``template`` the search to rebuild on every completion, ``estimator`` the parameter
    estimator (None: fsNML), ``frame_search`` whether the search needs a DataFrame (a
    search other than this package's), ``seed`` the chain's random seed and ``index``
    its number.
    """

    def __init__(
        self, owner, settings: dict, encoded: EncodedData, template, estimator, frame_search
    ):
        self.owner = owner
        self.settings = settings
        self.encoded = encoded
        self.template = template
        self.estimator = estimator
        self.frame_search = frame_search
        self.mstep = MStep(estimator)
        self.variables = list(encoded.variables)

    # -- one iteration's pieces ------------------------------------------------------------
    def _parents(self, dag) -> dict:
        return {v: self.mstep.parent_order(dag.predecessors(v)) for v in self.variables}

    def plan(self, parents: dict) -> MissingPlan:
        index = self.encoded.index
        order = [tuple(index[p] for p in parents[v]) for v in self.variables]
        return MissingPlan(order, self.encoded.arities, self.encoded.codes)

    def _completion(self, codes: np.ndarray) -> EncodedData:
        enc = self.encoded
        return EncodedData(enc.variables, codes, enc.arities, enc.state_names, enc.index)

    def _frame(self, codes: np.ndarray) -> pd.DataFrame:
        """The completion as a DataFrame of categoricals (the declared states kept)."""
        names = self.encoded.state_names
        return pd.DataFrame(
            {
                v: pd.Categorical.from_codes(codes[i], categories=pd.Index(names[v], dtype=object))
                for i, v in enumerate(self.variables)
            }
        )

    def score(self, codes: np.ndarray):
        """The score on a completion: encoded for this package's scores by name, else on
        a DataFrame (pgmpy's scores, score objects, pgmpy's searches)."""
        method = self.owner.scoring_method
        params = self.owner.score_params
        if (
            isinstance(method, str)
            and not self.frame_search
            and takes_encoded(get_score_spec(method).load())
        ):
            return resolve_score(method, self._completion(codes), None, params)
        names = self.encoded.state_names if isinstance(method, str) else None
        return resolve_score(method, self._frame(codes), names, params, bind="rebind")

    def search(self, score, start):
        """The network a fresh search finds on the score's completion, from ``start``."""
        search = fresh_search(self.template, score, start_dag=start)
        data = getattr(score, "data", None) if self.frame_search else None
        with inner_fits():
            search.fit(data)
        return as_dag(search.causal_graph_, self.variables)

    def counts(self, parents: dict, codes: np.ndarray) -> list[np.ndarray]:
        """Each family's counts ``(q, r)`` in a completion."""
        enc = self.encoded
        return [
            full_family_table(codes, enc.arities, enc.index[v], [enc.index[p] for p in parents[v]])
            for v in self.variables
        ]

    def m_step(self, dag, counts: list[np.ndarray]) -> list:
        """The tables of ``dag`` from a completion's counts (the M-step's formula)."""
        names = self.encoded.state_names
        return [
            self.mstep.table(c.T.astype(float), self.mstep.pseudo_counts(dag, names, v))
            for c, v in zip(counts, self.variables, strict=True)
        ]

    @staticmethod
    def score_value(score, dag) -> float:
        """The score of ``dag`` in nats of the whole data (a per-row score such as PNAL
        times :math:`N`)."""
        value = float(score.score(dag))
        return value * score.n_samples if isinstance(score, PNAL) else value

    # -- the chain -------------------------------------------------------------------------
    def run(self, start, seed, index: int, bar) -> ChainResult:
        """Iterate from ``start`` until the stopping rule or ``max_iter``."""
        settings = self.settings
        rng = np.random.default_rng(seed)
        n_rows = self.encoded.n_rows
        dag = as_dag(start, self.variables)
        plan = self.plan(self._parents(dag))
        codes, _ = plan.sample(initial_tables(plan), rng)
        records: list[dict] = []
        window: deque = deque(maxlen=settings["n_completions"])
        drawn: deque = deque([[codes, None]], maxlen=settings["n_completions"])
        best = -math.inf
        stale, converged = 0, False
        for t in range(1, settings["max_iter"] + 1):
            tick = time.perf_counter()
            score = self.score(codes)
            drawn[-1][1] = score
            new = self.search(score, dag)
            parents = self._parents(new)
            counts = self.counts(parents, codes)
            tables = self.m_step(new, counts)
            value = self.score_value(score, new)
            complexity = value - _completion_loglik(counts)  # the score's S - L-hat
            plan = self.plan(parents)
            codes, log_likelihood = plan.sample(tables, rng)
            drawn.append([codes, None])
            criterion = log_likelihood + complexity
            window.append(State(index, t, new, parents, tables, criterion))
            changed = changed_pairs(dag, new)
            dag = new
            records.append(
                dict(
                    zip(
                        COLUMNS,
                        (
                            index,
                            t,
                            log_likelihood,
                            value,
                            criterion,
                            changed,
                            new.number_of_edges(),
                            time.perf_counter() - tick,
                        ),
                        strict=True,
                    )
                )
            )
            bar.update(1)
            bar.set_postfix_str(
                f"{'' if settings['n_init'] == 1 else f'chain {index + 1}, '}iteration {t}: "
                f"log-likelihood {log_likelihood:.6g} ({log_likelihood / n_rows:.4f} per "
                f"row), {changed} edges changed"
            )
            if criterion > best + settings["tol"] * n_rows:
                stale = 0
            else:
                stale += 1
            best = max(best, criterion)
            if stale >= settings["n_iter_no_change"]:
                converged = True
                break
        states = list(window)
        chosen = self.choose(states, list(drawn))
        quality = float(np.mean([s.criterion for s in states]))
        return ChainResult(chosen, quality, records, converged)

    def choose(self, window: list[State], drawn: list) -> State:
        """The network of ``window`` with the largest average score over the completions
        drawn from the networks of ``window`` (ties to the later iteration)."""
        scores = []
        for entry in drawn[-len(window) :]:
            if entry[1] is None:
                entry[1] = self.score(entry[0])
            scores.append(entry[1])
        latest: dict = {}
        for state in window:
            latest[frozenset(state.dag.edges())] = state
        values = {
            key: float(np.mean([s.score(state.dag) for s in scores]))
            for key, state in latest.items()
        }
        key = max(latest, key=lambda k: (values[k], latest[k].iteration))
        return latest[key]

    def fit_parameters(self, chosen: State) -> tuple[Any, float]:
        """The chosen network with EM's parameters (exact E-step), and their observed-data
        log-likelihood; without a parameter estimator, no network and the chain's."""
        plan = self.plan(chosen.parents)
        if self.estimator is None:
            return None, float(plan.log_likelihood(chosen.tables))
        enc = self.encoded
        pseudo = [self.mstep.pseudo_counts(chosen.dag, enc.state_names, v) for v in self.variables]
        result = em_tables(
            plan,
            self.mstep,
            pseudo,
            init=chosen.tables,
            max_iter=self.settings["em_max_iter"],
            tol=self.settings["em_tol"],
        )
        parents = [chosen.parents[v] for v in self.variables]
        model = bayesian_network(chosen.dag)
        model.add_cpds(*network_cpds(self.variables, parents, result.tables, enc))
        return model, result.log_likelihood


def _completion_loglik(counts: list[np.ndarray]) -> float:
    """The maximized log-likelihood of a completion's family counts."""
    return sum(sum_nlogn(c) - sum_nlogn(c.sum(axis=1)) for c in counts)


def run_chains(chain: Chain, start, settings: dict) -> tuple[State, list, bool]:
    """``n_init`` chains from ``start`` (seeds spawned from ``random_state``; in parallel
    over ``n_jobs`` processes); the best network by the criterion, every record, and
    whether every chain settled."""
    seeds = np.random.SeedSequence(_entropy(settings["random_state"])).spawn(settings["n_init"])
    total = settings["max_iter"] * settings["n_init"]
    bar = progress_bar(settings["show_progress"], "structural EM", total=total, unit=" it")
    with bar:
        if settings["n_init"] > 1 and settings["n_jobs"] > 1:
            from joblib import Parallel, delayed

            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", category=UserWarning, module="joblib")
                results = Parallel(n_jobs=settings["n_jobs"])(
                    delayed(_run_one)(chain, start, seed, i) for i, seed in enumerate(seeds)
                )
            for result in results:
                for record in result.records:
                    bar.update(1)
                    bar.set_postfix_str(
                        f"chain {record['chain'] + 1}, iteration {record['iteration']}: "
                        f"log-likelihood {record['log_likelihood']:.6g}"
                    )
        else:
            results = [chain.run(start, seed, i, bar) for i, seed in enumerate(seeds)]
    best = max(results, key=lambda r: (r.quality, -r.best.chain)).best
    records = [record for r in results for record in r.records]
    return best, records, all(r.converged for r in results)


def _run_one(chain: Chain, start, seed, index: int) -> ChainResult:
    """One chain in a worker process (no progress display there)."""
    return chain.run(start, seed, index, progress_bar(False, ""))


def _entropy(random_state) -> Any:
    """A ``SeedSequence`` entropy from ``random_state`` (a Generator gives one draw)."""
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(2**63))
    if isinstance(random_state, np.random.SeedSequence):
        return random_state.entropy
    return random_state
