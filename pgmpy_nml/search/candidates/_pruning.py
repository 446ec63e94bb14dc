r"""Candidate parent sets: every parent set that can be optimal, each scored once.

The first stage of exact structure learning for larger networks (GOBNILP,
CPBayes and this package's solver, :mod:`pgmpy_nml.search.candidates._solver`): for each
variable :math:`v`, the parent sets :math:`P` admissible under the parent limit
and the expert knowledge that score *strictly better* than every admissible
proper subset. No other set is ever needed: in an optimal network a family whose
parent set has a subset scoring at least as well can be replaced by that
subset, which keeps the graph acyclic and the score at least as high
(*dominance*, valid for every decomposable score).

The pruning rules, each with its proof, are stated in
:mod:`pgmpy_nml.search.candidates._lattice`, with the code that applies them; the
compiled counting and the tasks are in :mod:`pgmpy_nml.search.candidates._tasks`.

Parallelism follows joblib: by default the counting runs on all cores in
compiled threads. Under a joblib backend that is not threading (e.g.
``joblib.parallel_config(backend="dask")`` with a ``dask.distributed`` client,
or ``"loky"`` processes), the variables are split into groups, one task each,
so the work spreads over a cluster. The result does not depend on how the
work was split.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..._progress import keep_alive, progress_bar
from ..._validate import as_n_jobs, as_time_limit
from ...scores.pgmpy_adapters import contract_for
from ..constraints import Constraints
from . import _lattice
from ._files import CandidateParentSets
from ._tasks import _generic_task, _GenericProblem, _statistic_task, _StatisticProblem

if TYPE_CHECKING:
    import pandas as pd

    from ..._typing import ExpertKnowledgeLike, Score

__all__ = ["PruningReport", "candidate_parent_sets"]


@dataclass(frozen=True)
class PruningReport:
    """What the search for candidate parent sets did, per variable.

    Attributes
    ----------
    variables : tuple
        Variable names, in the order of the score's variables.
    n_admissible : ndarray of int
        Parent sets allowed by the parent limit and the expert knowledge.
    n_scored : ndarray of int
        Parent sets whose local score was computed.
    n_dominated : ndarray of int
        Scored sets dropped because a proper admissible subset scores at least as well.
        (Sets a subset's bound or an optimistic score showed dominated before
        they were scored count in :attr:`n_skipped`.)
    n_kept : ndarray of int
        Candidate parent sets kept (``n_scored - n_dominated``).
    timings : dict
        Seconds: ``"counting"`` (compiled counting of subsets; statistics plan
        only), ``"scoring"`` (local scores from statistics, or ``local_score`` calls),
        ``"bounds and dominance"`` (bounds, dominance, the next level's sets),
        summed over parallel tasks, and ``"total"`` (wall clock of the whole run).
    plan : str
        ``"statistics"`` (bulk counting) or ``"generic"`` (``local_score``).
    bounded : bool
        Whether the score has a superset bound (else dominance alone prunes).
    n_tasks : int
        Parallel tasks the variables were split into (1: one shared counting).
    n_counted : int
        Variable subsets (parent sets and families) counted, over all tasks.
    unscored_bound : ndarray of float or None
        When ``time_limit`` stopped the search: per variable, an upper bound on the
        local score of every admissible parent set left unscored and not shown
        dominated (``-inf`` where nothing was left; ``inf`` for a score without a
        superset bound); None when nothing was left anywhere (:attr:`complete`).

    Examples
    --------
    >>> from pgmpy_nml import QNML
    >>> from pgmpy_nml.datasets import sample_network
    >>> from pgmpy_nml.search.candidates import candidate_parent_sets
    >>> _, data = sample_network("asia", 1000, random_state=0)
    >>> _, report = candidate_parent_sets(QNML(data), max_parents=2)
    >>> frame = report.to_frame()
    >>> int(frame.loc["either", "admissible"])
    29
    >>> bool((frame["kept"] == frame["scored"] - frame["dominated"]).all())
    True
    """

    variables: tuple
    n_admissible: np.ndarray
    n_scored: np.ndarray
    n_dominated: np.ndarray
    n_kept: np.ndarray
    timings: dict
    plan: str
    bounded: bool
    n_tasks: int = 1
    n_counted: int = 0
    unscored_bound: np.ndarray | None = None

    @property
    def complete(self) -> bool:
        """Whether every parent set that can be optimal is among the candidates (the
        search was not stopped by its time limit with sets left)."""
        return self.unscored_bound is None

    @property
    def n_skipped(self) -> np.ndarray:
        """Admissible sets never scored: a subset's bound proved them dominated (or,
        where :attr:`complete` is False, the time limit left them)."""
        return self.n_admissible - self.n_scored

    def to_frame(self) -> pd.DataFrame:
        """One row per variable: admissible, scored, skipped, dominated, kept (and,
        where the time limit stopped the search, ``unscored bound``)."""
        import pandas as pd

        columns = {
            "admissible": self.n_admissible,
            "scored": self.n_scored,
            "skipped by bound": self.n_skipped,
            "dominated": self.n_dominated,
            "kept": self.n_kept,
        }
        if self.unscored_bound is not None:
            columns["unscored bound"] = self.unscored_bound
        return pd.DataFrame(columns, index=pd.Index(self.variables, name="variable"))

    def __str__(self) -> str:
        t = self.timings
        parts = ", ".join(f"{k} {v:.2f} s" for k, v in t.items())
        text = (
            f"{len(self.variables)} variables: {int(self.n_admissible.sum())} admissible parent "
            f"sets, {int(self.n_scored.sum())} scored, {int(self.n_skipped.sum())} skipped by "
            f"bounds, {int(self.n_dominated.sum())} dominated, {int(self.n_kept.sum())} kept "
            f"({self.plan} plan, {'with' if self.bounded else 'without'} bounds; {parts})"
        )
        if not self.complete:
            text += f"; {self.incomplete_text()}"
        return text

    def incomplete_text(self) -> str:
        """What the time limit left unscored, in words ("" when nothing)."""
        if self.unscored_bound is None:
            return ""
        left = int((~np.isneginf(self.unscored_bound)).sum())
        return (
            f"the time limit stopped the search with parent sets of {left} of "
            f"{len(self.variables)} variables unscored (their bound counts them)"
        )


def candidate_parent_sets(
    score: Score,
    *,
    max_parents: int | None = None,
    expert_knowledge: ExpertKnowledgeLike | None = None,
    n_jobs: int | None = None,
    show_progress: bool = False,
    time_limit: float | None = None,
) -> tuple[CandidateParentSets, PruningReport]:
    r"""The parent sets of every variable that can be optimal, with their local scores.

    For each variable :math:`v`, the admissible parent sets :math:`P` (at most
    ``max_parents`` parents, every required parent, no forbidden one) with

    .. math::

        s(v \mid P) > s(v \mid Q) \quad \text{for every admissible } Q \subsetneq P.

    Replacing every family of an optimal network (under the same constraints)
    whose parent set is dominated by its best admissible subset gives a network
    at least as good, still acyclic and made of candidates: the best network
    over the candidates is optimal. Admissible supersets of a set whose
    score's bound shows them dominated are never scored (see the module notes;
    bounds treat scores equal up to rounding, 1e-12 of the magnitude of the
    statistics, as ties).

    Parameters
    ----------
    score : score object
        A decomposable score built on the data: this package's scores, pgmpy's
        (``BDeu``, ``K2``, ``BIC``, ``AIC``, ``LogLikelihood``, either API), or
        any object with ``local_score(variable, parents)`` and ``variables``.
    max_parents : int, optional
        Largest parent set (none by default: the bounds alone stop the search;
        scores without a bound then enumerate every parent set, which is only
        feasible for few variables).
        A whole number; a float such as ``2.0`` is taken as ``2``, ``2.5`` is refused.
    expert_knowledge : pgmpy.causal_discovery.ExpertKnowledge or dict, optional
        Required and forbidden edges, a search space, temporal tiers. With
        required parents, dominance compares only sets that contain them.
    n_jobs : int, optional
        Threads of the compiled counting (None: 1, unless a ``joblib.parallel_config``
        sets it; -1 all cores, -2 all but one), or workers of a
        joblib backend set with ``joblib.parallel_config`` (Dask, loky), over
        which the variables are split. For scores without a contract,
        ``local_score`` runs in that many processes (default: joblib's, 1).
    show_progress : bool, default False
        A progress bar over levels (or tasks).
    time_limit : float, optional
        Seconds after which the search stops between levels (or between blocks of a
        level), never before each variable's smallest admissible set is scored. The
        candidates are then those found so far, and ``report.unscored_bound`` bounds,
        per variable, every admissible set left unscored (``report.complete`` says
        whether any was left); :class:`~pgmpy_nml.ExactSearch` adds that to its bound.

    Returns
    -------
    candidates : CandidateParentSets
        In the score's variable order; parent positions refer to it.
    report : PruningReport
        Counts per variable and timings.

    Examples
    --------
    >>> from pgmpy_nml import FNML
    >>> from pgmpy_nml.datasets import sample_network
    >>> from pgmpy_nml.search.candidates import candidate_parent_sets
    >>> _, data = sample_network("asia", 2000, random_state=0)
    >>> candidates, report = candidate_parent_sets(FNML(data), max_parents=2)
    >>> int(report.n_admissible.sum()), int(report.n_kept.sum())
    (232, 101)
    >>> import math
    >>> math.isclose(candidates.local_score("either", ["lung", "tub"]),
    ...              FNML(data).local_score("either", ["lung", "tub"]), rel_tol=1e-12)
    True

    References
    ----------
    .. [1] C. P. de Campos, Q. Ji. "Efficient structure learning of Bayesian
       networks using constraints". JMLR 12, 2011.
    .. [2] M. Teyssier, D. Koller. "Ordering-based search: a simple and effective
       algorithm for learning Bayesian networks". UAI 2005 (dominance).
    """
    from joblib import Parallel, delayed, effective_n_jobs
    from joblib.parallel import get_active_backend

    start = time.perf_counter()
    time_limit = as_time_limit(time_limit, "time_limit")
    deadline = None if time_limit is None else _lattice._clock() + time_limit
    contract = contract_for(score)
    if contract is None:
        if not hasattr(score, "local_score") or not hasattr(score, "variables"):
            raise TypeError(
                "score must be a score object with local_score(variable, parents) and "
                f"variables, got {type(score).__name__}."
            )
        variables = tuple(score.variables)
    else:
        variables = tuple(contract.encoded.variables)
    constraints = Constraints.from_knowledge(variables, max_parents, expert_knowledge)
    as_n_jobs(n_jobs)  # the checks; joblib takes n_jobs as it is

    if contract is None:
        generic = _GenericProblem(score, constraints)
        # the worker processes need the score: one that cannot be pickled (pgmpy's BDs
        # caches a bound method) is scored in this process
        jobs = n_jobs if effective_n_jobs(n_jobs) == 1 or _picklable(generic) else 1
        runner = Parallel(n_jobs=jobs, prefer="processes", return_as="generator")
        calls = [delayed(_generic_task)(generic, [v], deadline) for v in range(len(variables))]
        results = _run(runner, calls, show_progress)
        plan, bounded, n_tasks = "generic", False, len(calls)
    else:
        problem = _StatisticProblem(contract, constraints)
        backend, _ = get_active_backend(prefer="threads")
        jobs = n_jobs  # None: 1, or the n_jobs of a joblib.parallel_config
        order = problem.internal_order()
        if getattr(backend, "uses_threads", False):
            # one task: every subset counted once, on compiled threads
            results = [
                _statistic_task(problem, order, effective_n_jobs(jobs), show_progress, deadline)
            ]
            n_tasks = 1
        else:
            # a task per group of variables, for the backend's workers
            n_groups = min(len(variables), max(1, 2 * effective_n_jobs(jobs)))
            runner = Parallel(n_jobs=jobs, return_as="generator")
            calls = [
                delayed(_statistic_task)(problem, order[g::n_groups], 1, False, deadline)
                for g in range(n_groups)
            ]
            results = _run(runner, calls, show_progress)
            n_tasks = n_groups
        plan, bounded = "statistics", problem.bounded
    return _assemble(variables, results, plan, bounded, n_tasks, start)


def _picklable(value) -> bool:
    """Whether ``value`` can travel to a worker process."""
    import pickle

    try:
        pickle.dumps(value)
    except Exception:  # PicklingError, TypeError, AttributeError: anything that stops it
        return False
    return True


def _run(runner, calls, show_progress) -> list:
    """Run joblib ``calls`` through ``runner``; results in call order."""
    out = []
    with (
        progress_bar(show_progress, "candidate sets", total=len(calls), leave=False) as bar,
        keep_alive(bar),
    ):
        for result in runner(calls):
            out.append(result)
            bar.update(1)
    return out


def _assemble(variables, results, plan, bounded, n_tasks, start) -> tuple:
    n = len(variables)
    parent_sets: list = [None] * n  # every variable's is filled in below
    scores: list = [None] * n
    counts = np.zeros((4, n), dtype=np.int64)
    unscored = np.full(n, -np.inf)
    timings = {"counting": 0.0, "scoring": 0.0, "bounds and dominance": 0.0}
    n_counted = sum(task.get("counted", 0) for task in results)
    for task in results:
        for name, seconds in task["timings"].items():
            timings[name] += seconds
        for child in task["children"]:
            v = child["variable"]
            parent_sets[v] = child["parent_sets"]
            scores[v] = child["scores"]
            counts[:, v] = child["admissible"], child["scored"], child["dominated"], child["kept"]
            unscored[v] = child["unscored"]
    candidates = CandidateParentSets._from_blocks(variables, parent_sets, scores)
    if plan == "generic":
        del timings["counting"]
    timings["total"] = time.perf_counter() - start
    report = PruningReport(
        variables=variables,
        n_admissible=counts[0],
        n_scored=counts[1],
        n_dominated=counts[2],
        n_kept=counts[3],
        timings=timings,
        plan=plan,
        bounded=bounded,
        n_tasks=n_tasks,
        n_counted=n_counted,
        unscored_bound=None if np.isneginf(unscored).all() else unscored,
    )
    return candidates, report
