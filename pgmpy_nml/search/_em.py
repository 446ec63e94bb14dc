"""The chain of :class:`~pgmpy_nml.StructuralEM`: draw a completion, search, fit, repeat.

One :class:`Chain` per ``fit``. Each iteration draws one completion of the data from the
current network (:class:`~pgmpy_nml.estimators._posterior.MissingPlan`, exact draws),
builds the score on it (encoded directly for this package's scores, as a DataFrame of
categoricals for others), runs a fresh search from the current network, and fits the
tables on the completion's counts with the M-step's formula. The completions and
networks of the last iterations choose the result; EM with the exact E-step fits its
parameters.
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

from .._counting import full_family_table
from .._data import EncodedData
from .._progress import progress_bar
from ..estimators._posterior import MissingPlan
from ..estimators.em import MStep, em_tables, initial_tables, network_cpds
from ..models import bayesian_network
from ..scores.registry import get_score_spec, resolve_score, takes_encoded
from ._base import as_dag, fresh_search

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["Chain", "Fitted", "changed_pairs", "iteration_frame"]

#: The columns of ``StructuralEM.iterations_``.
COLUMNS = ("iteration", "log_likelihood", "changed_edges", "n_edges", "score", "seconds")


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


@dataclass
class _State:
    """One iteration's network: its DAG, parents (in the M-step's order) and tables."""

    iteration: int
    dag: Any
    parents: dict
    tables: list


def changed_pairs(old, new) -> int:
    """Pairs of variables whose edge was added, removed or reversed from ``old`` to ``new``."""
    return len({frozenset(e) for e in set(old.edges()) ^ set(new.edges())})


def iteration_frame(records: Sequence[dict]) -> pd.DataFrame:
    """``StructuralEM.iterations_`` from one record per iteration."""
    return pd.DataFrame(list(records), columns=list(COLUMNS))


class Chain:
    """Stochastic structural EM on ``encoded`` (codes -1 where missing) for ``owner``.

    ``owner`` is the :class:`~pgmpy_nml.StructuralEM` (its score and settings),
    ``template`` the search to rebuild on every completion, ``estimator`` the parameter
    estimator (None: fsNML in the chain, no fitted model), ``frame_search`` whether the
    search needs a DataFrame (a search other than this package's).
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
        self.rng = np.random.default_rng(settings["random_state"])

    # -- one iteration's pieces ------------------------------------------------------------
    def _parents(self, dag) -> dict:
        return {v: self.mstep.parent_order(dag.predecessors(v)) for v in self.variables}

    def _plan(self, parents: dict) -> MissingPlan:
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
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", category=FutureWarning, module=r"pgmpy(\.|$)")
            search.fit(data)
        return as_dag(search.causal_graph_, self.variables)

    def m_step(self, dag, parents: dict, codes: np.ndarray) -> list:
        """The tables of ``dag`` from a completion's counts (the M-step's formula)."""
        enc = self.encoded
        tables = []
        for v in self.variables:
            counts = full_family_table(
                codes, enc.arities, enc.index[v], [enc.index[p] for p in parents[v]]
            )
            pseudo = self.mstep.pseudo_counts(dag, enc.state_names, v)
            tables.append(self.mstep.table(counts.T.astype(float), pseudo))
        return tables

    # -- the chain -------------------------------------------------------------------------
    def run(self, start, columns) -> Fitted:
        """Iterate until the stopping rule or ``max_iter``; choose; fit by EM."""
        settings = self.settings
        started = time.perf_counter()
        n_rows = self.encoded.n_rows
        dag = as_dag(start, self.variables)
        parents = self._parents(dag)
        plan = self._plan(parents)
        codes, log_likelihood = plan.sample(initial_tables(plan), self.rng)
        window: deque = deque(maxlen=settings["n_completions"])
        drawn: deque = deque([[codes, None]], maxlen=settings["n_completions"])
        records: list[dict] = []
        best, stale, converged = -math.inf, 0, False
        bar = progress_bar(
            settings["show_progress"], "structural EM", total=settings["max_iter"], unit=" it"
        )
        with bar:
            for t in range(1, settings["max_iter"] + 1):
                tick = time.perf_counter()
                score = self.score(codes)
                drawn[-1][1] = score
                new = self.search(score, dag)
                parents = self._parents(new)
                tables = self.m_step(new, parents, codes)
                plan = self._plan(parents)
                codes, log_likelihood = plan.sample(tables, self.rng)
                drawn.append([codes, None])
                window.append(_State(t, new, parents, tables))
                changed = changed_pairs(dag, new)
                dag = new
                records.append(
                    dict(
                        zip(
                            COLUMNS,
                            (
                                t,
                                log_likelihood,
                                changed,
                                new.number_of_edges(),
                                float(score.score(new)),
                                time.perf_counter() - tick,
                            ),
                            strict=True,
                        )
                    )
                )
                bar.update(1)
                bar.set_postfix_str(
                    f"iteration {t}: log-likelihood {log_likelihood:.6g} "
                    f"({log_likelihood / n_rows:.4f} per row), {changed} edges changed"
                )
                if log_likelihood > best + settings["tol"] * n_rows:
                    best, stale = log_likelihood, 0
                else:
                    stale += 1
                if stale >= settings["n_iter_no_change"]:
                    converged = True
                    break
        chosen, mean_score = self.choose(list(window), list(drawn))
        model, log_likelihood = self.fit_parameters(chosen)
        return Fitted(
            dag=chosen.dag,
            model=model,
            score=mean_score,
            log_likelihood=log_likelihood,
            iterations=iteration_frame(records),
            n_iter=len(records),
            converged=converged,
            n_missing=int((self.encoded.codes < 0).sum()),
            feature_names=columns,
            seconds=time.perf_counter() - started,
        )

    def choose(self, window: list[_State], drawn: list) -> tuple[_State, float]:
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
        return latest[key], values[key]

    def fit_parameters(self, chosen: _State) -> tuple[Any, float]:
        """The chosen network with EM's parameters (exact E-step), and their observed-data
        log-likelihood; without a parameter estimator, no network and the chain's."""
        plan = self._plan(chosen.parents)
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
