r"""Candidate parent sets: every parent set that can be optimal, each scored once.

The first stage of exact structure learning for larger networks (GOBNILP,
CPBayes and this package's solver, :mod:`pgmpy_nml.search.candidates._solver`): for each
variable :math:`v`, the parent sets :math:`P` admissible under the parent limit
and the expert knowledge that score *strictly better* than every admissible
proper subset. No other set is ever needed: in an optimal network a family whose
parent set has a subset scoring at least as well can be replaced by that
subset, which keeps the graph acyclic and the score at least as high
(*dominance*, valid for every decomposable score).

Parent sets are visited level by level (by size). Write :math:`s(P)` for the local
score of :math:`v` with parents :math:`P`, :math:`\mathrm{best}(S) = \max_{Q \subseteq S}
s(Q)` over the admissible :math:`Q`, and :math:`U(S)` for the score's *superset bound*
of :math:`S` (:meth:`~pgmpy_nml.scores.contract.StatisticScore.superset_bound`, each
score's own proof in its docstring): :math:`s(T) \le U(S)` for every admissible
:math:`T \supsetneq S`. The rules, each with its proof:

1. *Dominance.* A set :math:`P` with :math:`s(P) \le s(Q)` for an admissible
   :math:`Q \subsetneq P` is never kept. *Proof:* in a network, replacing the
   family :math:`P` of :math:`v` by :math:`Q` removes arcs only (acyclic still),
   keeps the constraints (:math:`Q` is admissible) and does not lower the score.
2. *Closing by a bound.* A set :math:`S` whose bound is at most the best of its
   subsets, :math:`U(S) \le \mathrm{best}(S)`, is *closed*: no superset of it is
   ever generated. *Proof:* every admissible :math:`T \supsetneq S` has
   :math:`s(T) \le U(S) \le s(Q)` for some :math:`Q \subseteq S \subsetneq T`, so
   :math:`T` is dominated (rule 1).
3. *Closed sets close their supersets.* A set is generated at the next level only
   when *every* subset one smaller is scored-or-screened and open. *Proof:* a set
   with a closed subset is a superset of a closed set (rule 2); a set with a subset
   that was never generated has, by induction, a closed subset itself.
4. *Inherited bounds.* A generated set :math:`S` inherits :math:`\min_u U(S - u)`;
   if that is at most :math:`\max_u \mathrm{best}(S - u)` (the best of its proper
   subsets), :math:`S` is dropped *with its supersets*, unscored. *Proof:*
   :math:`U(S - u)` bounds every proper superset of :math:`S - u`, which includes
   :math:`S` and all its supersets, so each of those is dominated by the subset of
   :math:`S - u` that attains the best.
5. *The optimistic screen* (scores declaring ``monotone_family_statistics``, e.g.
   :math:`H(P + v) = \sum N \log N`, which never grows as :math:`P` grows): before
   counting :math:`P + v`, the formula is evaluated with each such family statistic
   replaced by its smallest value over the families :math:`P - u + v`. That is an
   upper bound on :math:`s(P)` *alone*; if it is at most the best of the proper
   subsets, :math:`P` is dominated and is neither counted nor scored, **but stays
   open**: its best is its subsets' best and its superset bound the inherited one
   (rule 4), and its supersets are still visited. *Proof:* the statistic is
   nonincreasing under inclusion, so the smallest value over the subsets is at
   least the family's own, and the formula is nondecreasing in it. It shows
   nothing about the supersets: a superset can beat every subset even when
   :math:`P` cannot. (Until 0.1.0.dev, a screened set was closed like rule 2; that
   dropped optimal parent sets of small samples, and the solver then proved a
   suboptimal network optimal. ``tests/test_pruning_properties.py`` checks the
   pipeline against the enumeration of every admissible set.)
6. *The parent limit and the expert knowledge.* Only admissible sets (at most
   ``max_parents`` parents, every required one, no forbidden one) are generated,
   and dominance compares only admissible sets. *Proof:* the optimal network
   under the constraints uses admissible families only.
7. *Ties.* Rules 2, 4 and 5 compare with a tolerance, ``1e-12`` of the magnitude
   of the scores and of the statistics they are differences of, so that a bound
   that equals a subset's score up to rounding closes the set (a constant column,
   a child with one state, a parent set that already determines the child). A
   superset better than a subset by less than that may therefore be skipped:
   the optimum over the candidates is within that rounding (about ``1e-12``
   relative per variable) of the optimum over every admissible set, which is what
   "proven optimal" means here. Dominance itself (rule 1) is strict and exact.

The bound pruning skips only sets that dominance would drop, so the candidates are
the same with or without bounds, only found faster (up to the ties of rule 7).

For scores with a contract (:mod:`pgmpy_nml.scores.contract`), every level's
needed subsets (parent sets :math:`P` and families :math:`P + v`, over all
variables) are counted once in compiled code
(:func:`~pgmpy_nml._counting.subsets.listed_subset_statistics`, the exact search's
refinement steps), and each score's own formula and bound are applied to all
sets of a variable at once. Other scores go through ``local_score``, variable by
variable, with dominance alone.

Parallelism follows joblib: by default the counting runs on all cores in
compiled threads. Under a joblib backend that is not threading (e.g.
``joblib.parallel_config(backend="dask")`` with a ``dask.distributed`` client,
or ``"loky"`` processes), the variables are split into groups, one task each,
so the work spreads over a cluster. The result does not depend on how the
work was split.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..._counting import subsets as _kernels
from ..._memory import available_memory
from ..._progress import progress_bar
from ..._validate import as_n_jobs
from ...scores.contract import Families, StatisticScore, Supersets, entropy_statistic
from ...scores.pgmpy_adapters import PgmpyScoreAdapter, contract_for
from .._dp.plans import StatisticPlan
from ..constraints import Constraints
from ._files import CandidateParentSets

if TYPE_CHECKING:
    import pandas as pd

    from ..._typing import ExpertKnowledgeLike, Score

__all__ = ["PruningReport", "candidate_parent_sets"]

#: Key of the entropy statistic the search counts for its own likelihood bound.
_H = ("pruning", "N log N")

#: Scores within this of each other, relative to the magnitude of the scores and of
#: the statistics they are differences of, count as ties for the bounds: a bound that
#: equals a subset's score up to rounding closes the set (a constant column, a child
#: with one state, a parent set that already determines the child).
_TIE = 1e-12

#: sets of a size with at most this many possible members get a direct rank -> row table
_DENSE_SLOTS = 1 << 23


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

    @property
    def n_skipped(self) -> np.ndarray:
        """Admissible sets never scored: a subset's bound proved them dominated."""
        return self.n_admissible - self.n_scored

    def to_frame(self) -> pd.DataFrame:
        """One row per variable: admissible, scored, skipped, dominated, kept."""
        import pandas as pd

        return pd.DataFrame(
            {
                "admissible": self.n_admissible,
                "scored": self.n_scored,
                "skipped by bound": self.n_skipped,
                "dominated": self.n_dominated,
                "kept": self.n_kept,
            },
            index=pd.Index(self.variables, name="variable"),
        )

    def __str__(self) -> str:
        t = self.timings
        parts = ", ".join(f"{k} {v:.2f} s" for k, v in t.items())
        return (
            f"{len(self.variables)} variables: {int(self.n_admissible.sum())} admissible parent "
            f"sets, {int(self.n_scored.sum())} scored, {int(self.n_skipped.sum())} skipped by "
            f"bounds, {int(self.n_dominated.sum())} dominated, {int(self.n_kept.sum())} kept "
            f"({self.plan} plan, {'with' if self.bounded else 'without'} bounds; {parts})"
        )


def candidate_parent_sets(
    score: Score,
    *,
    max_parents: int | None = None,
    expert_knowledge: ExpertKnowledgeLike | None = None,
    n_jobs: int | None = None,
    show_progress: bool = False,
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
        problem = _GenericProblem(score, constraints)
        runner = Parallel(n_jobs=n_jobs, prefer="processes", return_as="generator")
        calls = [delayed(_generic_task)(problem, [v]) for v in range(len(variables))]
        results = _run(runner, calls, show_progress)
        plan, bounded, n_tasks = "generic", False, len(calls)
    else:
        problem = _StatisticProblem(contract, constraints)
        backend, _ = get_active_backend(prefer="threads")
        jobs = n_jobs  # None: 1, or the n_jobs of a joblib.parallel_config
        order = problem.internal_order()
        if getattr(backend, "uses_threads", False):
            # one task: every subset counted once, on compiled threads
            results = [_statistic_task(problem, order, effective_n_jobs(jobs), show_progress)]
            n_tasks = 1
        else:
            # a task per group of variables, for the backend's workers
            n_groups = min(len(variables), max(1, 2 * effective_n_jobs(jobs)))
            runner = Parallel(n_jobs=jobs, return_as="generator")
            calls = [
                delayed(_statistic_task)(problem, order[g::n_groups], 1, False)
                for g in range(n_groups)
            ]
            results = _run(runner, calls, show_progress)
            n_tasks = n_groups
        plan, bounded = "statistics", problem.bounded
    return _assemble(variables, results, plan, bounded, n_tasks, start)


def _run(runner, calls, show_progress) -> list:
    """Run joblib ``calls`` through ``runner``; results in call order."""
    out = []
    with progress_bar(show_progress, "candidate sets", total=len(calls), leave=False) as bar:
        for result in runner(calls):
            out.append(result)
            bar.update(1)
    return out


def _assemble(variables, results, plan, bounded, n_tasks, start) -> tuple:
    n = len(variables)
    parent_sets = [None] * n
    scores = [None] * n
    counts = np.zeros((4, n), dtype=np.int64)
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
    candidates = CandidateParentSets(variables, parent_sets, scores)
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
    )
    return candidates, report


# -- the lattice of one variable's parent sets ----------------------------------------------


def _binomials(n: int, depth: int) -> np.ndarray:
    """``B[x, t] = C(x, t)`` for ``x <= n``, ``t <= depth`` (int64, for colex ranks)."""
    table = np.zeros((n + 1, depth + 1), dtype=np.int64)
    for x in range(n + 1):
        for t in range(depth + 1):
            c = math.comb(x, t)
            if c >= 2**63:
                raise ValueError(
                    f"Too many parent sets to index ({x} variables choose {t}); give "
                    "max_parents a smaller value."
                )
            table[x, t] = c
    return table


def _insert(rows: np.ndarray, value: int) -> np.ndarray:
    """Rows of increasing integers with ``value`` (in none of them) inserted in order."""
    m, s = rows.shape
    at = (rows < value).sum(axis=1)[:, None]
    column = np.arange(s + 1)[None, :]
    out = np.empty((m, s + 1), dtype=np.int64)
    out[:, :s] = rows
    out[:, s] = value
    shifted = np.empty_like(out)
    shifted[:, 1:] = rows
    shifted[:, 0] = value
    out = np.where(column < at, out, np.where(column == at, value, shifted))
    return out


def _drop_one_ranks(rows: np.ndarray, binom: np.ndarray) -> np.ndarray:
    """Colex ranks of each row without its i-th element, shape (m, s)."""
    m, s = rows.shape
    kept_below = binom[rows, np.arange(1, s + 1)]  # element t stays at position t
    shifted = binom[rows, np.arange(0, s)]  # element t moves to position t - 1
    below = np.zeros((m, s + 1), dtype=np.int64)
    np.cumsum(kept_below, axis=1, out=below[:, 1:])
    above = np.zeros((m, s + 1), dtype=np.int64)
    above[:, :s] = np.cumsum(shifted[:, ::-1], axis=1)[:, ::-1]
    return below[:, :s] + above[:, 1:]


@dataclass
class _Lattice:
    """The admissible parent sets of one child, level by level: ``R + X`` with ``X`` a
    set of ``allowed`` (positions into it), ``R`` the required parents.

    A level's sets are those whose every subset one smaller is *open*. Before a
    set is scored, two cheap tests may show it dominated:

    - the smallest superset bound of its subsets bounds the set *and every
      superset of it*, so a set it shows dominated is dropped with its
      supersets (closed);
    - for scores that allow it, its score with an optimistic family statistic
      (:meth:`screen`) bounds the set *alone*: a set it shows dominated is not
      counted or scored, but stays open (its best is its subsets' best, its
      superset bound the inherited one), since a superset can still beat
      every subset. (Closing it here was a bug: it dropped optimal parent
      sets and let the solver prove a suboptimal network optimal.)
    """

    child: int
    required: np.ndarray  # positions of the required parents, increasing
    allowed: np.ndarray  # positions that may be added, increasing
    max_extra: int  # largest |X|
    binom: np.ndarray
    tol_abs: float = 0.0
    level: int = 0
    X: np.ndarray = field(default=None)  # (m, level) positions into allowed, lex order
    subsets: np.ndarray = field(default=None)  # (m, level): rows of X's subsets one smaller
    best_sub: np.ndarray = field(default=None)  # best score of a proper subset
    inherited: np.ndarray = field(default=None)  # smallest superset bound of a subset
    slot: np.ndarray = field(default=None)  # colex rank of the last recorded X -> its row
    keys: np.ndarray = field(default=None)  # or, for too many possible sets, sorted ranks
    key_order: np.ndarray = field(default=None)  # and the rows in that order
    best: np.ndarray = field(default=None)  # best score over subsets (the set included)
    bound: np.ndarray = field(default=None)  # upper bound on every proper superset
    open: np.ndarray = field(default=None)
    monotone_family: dict = field(default=None)  # the last recorded level's, for screening
    to_score: np.ndarray = field(default=None)  # rows not shown dominated by the screen
    optimistic_family: dict = field(default=None)  # the screen's upper statistics, all rows
    kept_sets: list = field(default_factory=list)
    kept_scores: list = field(default_factory=list)
    n_scored: int = 0
    n_dominated: int = 0
    _parents: np.ndarray = field(default=None, repr=False)
    _parents_of: np.ndarray = field(default=None, repr=False)

    def __post_init__(self):
        self.X = np.zeros((1, 0), dtype=np.int64)
        self.best_sub = np.full(1, -np.inf)
        self.inherited = np.full(1, np.inf)
        self.to_score = np.ones(1, dtype=bool)

    @property
    def n_admissible(self) -> int:
        a = len(self.allowed)
        return sum(math.comb(a, s) for s in range(self.max_extra + 1))

    def can_grow(self) -> bool:
        return self.level < min(self.max_extra, len(self.allowed))

    def parents(self) -> np.ndarray:
        """Parent sets of this level (rows of increasing positions)."""
        if self._parents is None or self._parents_of is not self.X:
            rows = self.allowed[self.X]
            for u in self.required:
                rows = _insert(rows, u)
            self._parents, self._parents_of = rows, self.X
        return self._parents

    def families(self, parents: np.ndarray) -> np.ndarray:
        return _insert(parents, self.child)

    def _dominated(self, upper: np.ndarray) -> np.ndarray:
        """Rows whose score is at most that of a proper subset (up to a tie)."""
        return upper <= self.best_sub + (_TIE * np.abs(self.best_sub) + self.tol_abs)

    def _select(self, rows: np.ndarray) -> None:
        self.X = self.X[rows]
        self.subsets = self.subsets[rows]
        self.best_sub = self.best_sub[rows]
        self.inherited = self.inherited[rows]
        self.to_score = np.ones(self.X.shape[0], dtype=bool)
        self.optimistic_family = None

    def screen(self, upper: np.ndarray, optimistic_family: dict) -> None:
        """Leave unscored the sets whose score is at most ``upper``, when that shows them
        dominated; they stay open (see the class notes). ``optimistic_family``: the
        upper statistics ``upper`` was computed from (they bound the next level's)."""
        self.to_score = ~self._dominated(np.asarray(upper, dtype=np.float64))
        self.optimistic_family = optimistic_family

    def scored_parents(self) -> np.ndarray:
        """The parent sets of this level that are to be counted and scored."""
        parents = self.parents()
        return parents if self.to_score.all() else parents[self.to_score]

    def record(self, scores: np.ndarray, bounds, monotone_family: dict | None = None) -> None:
        """Record the scores (and superset bounds) of this level's scored sets; keep the
        undominated ones, close the hopeless ones. Sets the screen left unscored are
        dominated: their best is their subsets' best, their bound the inherited one."""
        mask = self.to_score
        m = mask.shape[0]
        scored = np.asarray(scores, dtype=np.float64)
        self.n_scored += int(mask.sum())
        scores = np.full(m, -np.inf)
        scores[mask] = scored
        keep = mask & (scores > self.best_sub)
        self.n_dominated += int(mask.sum() - keep.sum())
        self.kept_sets.extend(map(tuple, self.parents()[keep].tolist()))
        self.kept_scores.extend(scores[keep].tolist())
        self.best = np.where(mask, np.maximum(scores, self.best_sub), self.best_sub)
        if monotone_family is not None:
            full = {}
            for k, values in monotone_family.items():
                if self.optimistic_family is None:
                    full[k] = np.broadcast_to(np.asarray(values, dtype=np.float64), (m,))
                else:
                    full[k] = np.array(self.optimistic_family[k], dtype=np.float64)
                    full[k][mask] = values
            self.monotone_family = full
        bound = self.inherited
        if bounds is not None:
            # NaN (no information) counts as no bound
            full_bounds = np.full(m, np.nan)
            full_bounds[mask] = np.broadcast_to(
                np.asarray(bounds, dtype=np.float64), (int(mask.sum()),)
            )
            bound = np.fmin(bound, full_bounds)
        self.bound = bound
        if self.can_grow():
            self.open = ~(bound <= self.best + (_TIE * np.abs(self.best) + self.tol_abs))
        else:
            self.open = np.zeros(m, dtype=bool)
        keys = _kernels.colex_ranks(self.X, self.binom)
        n_possible = math.comb(len(self.allowed), self.level)
        if n_possible <= _DENSE_SLOTS:
            self.slot = np.full(n_possible, -1, dtype=np.int64)
            self.slot[keys] = np.arange(m)
        else:
            self.slot = None
            self.key_order = np.argsort(keys, kind="stable")
            self.keys = keys[self.key_order]

    def advance(self) -> bool:
        """Move to the next level: the sets whose every subset one smaller is open and
        whose subsets' bounds do not already show them dominated."""
        if not self.open.any():
            return False
        a = len(self.allowed)
        base = self.X[self.open]
        last = base[:, -1] if self.level else np.full(base.shape[0], -1)
        rows, add = np.nonzero(np.arange(a)[None, :] > last[:, None])
        cand = np.concatenate([base[rows], add[:, None]], axis=1)
        drop = _drop_one_ranks(cand, self.binom)
        if self.slot is not None:
            index = self.slot[drop]  # row of the previous level, -1 if none
            found = index >= 0
        else:
            pos = np.minimum(np.searchsorted(self.keys, drop), len(self.keys) - 1)
            found = self.keys[pos] == drop
            index = self.key_order[pos]
        ok = (found & self.open[index]).all(axis=1)
        self.X = cand[ok]
        self.subsets = index[ok]
        self.best_sub = self.best[self.subsets].max(axis=1)
        self.inherited = self.bound[self.subsets].min(axis=1)
        self.level += 1
        self._select(~self._dominated(self.inherited))
        return self.X.shape[0] > 0

    def supersets(self, arities, gains, log_likelihood, ll_top) -> Supersets:
        """What bounds the proper supersets of this level's scored sets (see
        :class:`Supersets`)."""
        sets = self.X if self.to_score.all() else self.X[self.to_score]
        m, a = sets.shape[0], len(self.allowed)
        room = min(self.max_extra, a) - self.level  # parents that can still be added
        q_min, q_max, gain = np.empty(m), np.empty(m), np.empty(m)
        # the cases (see Supersets.cases): one per parent added alone, one per k >= 2
        n_cases = a + max(room - 1, 0)
        ll_cases, q_cases = np.empty((m, n_cases)), np.empty((m, n_cases))
        ll_top = float(ll_top)
        step = max(1, (1 << 20) // max(a, 1))  # rows per block of (rows, allowed) matrices
        for lo in range(0, m, step):
            X = sets[lo : lo + step]
            member = np.zeros((X.shape[0], a), dtype=bool)
            member[np.arange(X.shape[0])[:, None], X] = True
            ar = np.where(member, np.nan, arities[self.allowed][None, :].astype(np.float64))
            # exact products (floats: exact below 2**53)
            q = np.prod(arities[self.required].astype(np.float64)) * np.prod(
                arities[self.allowed][X].astype(np.float64), axis=1
            )
            q_min[lo : lo + step] = q * np.nanmin(ar, axis=1)
            top = -np.sort(-np.nan_to_num(ar, nan=1.0), axis=1)[:, :room]
            q_max[lo : lo + step] = q * np.prod(top, axis=1)
            g = np.where(member, 0.0, gains[self.allowed][None, :])
            top_gains = np.cumsum(-np.sort(-g, axis=1)[:, :room], axis=1)
            gain[lo : lo + step] = top_gains[:, -1]
            # P + u for each u not in P: its own gain and its own arity
            ll = log_likelihood[lo : lo + step, None]
            ll_cases[lo : lo + step, :a] = np.where(member, -np.inf, np.minimum(ll_top, ll + g))
            q_cases[lo : lo + step, :a] = np.where(
                member, np.inf, q[:, None] * arities[self.allowed][None, :]
            )
            # k >= 2 parents added: the k largest gains, the k smallest arities
            if room > 1:
                small = np.cumprod(np.sort(np.nan_to_num(ar, nan=np.inf), axis=1), axis=1)
                ll_cases[lo : lo + step, a:] = np.minimum(ll_top, ll + top_gains[:, 1:room])
                q_cases[lo : lo + step, a:] = q[:, None] * small[:, 1:room]
        ll_max = np.minimum(ll_top, log_likelihood + gain)
        return Supersets(q_min, q_max, ll_max, (ll_cases, q_cases))

    def result(self) -> dict:
        return {
            "parent_sets": self.kept_sets,
            "scores": self.kept_scores,
            "admissible": self.n_admissible,
            "scored": self.n_scored,
            "dominated": self.n_dominated,
            "kept": len(self.kept_scores),
        }


def _lattices(constraints: Constraints, children, position, binom, tol_abs=0.0) -> list:
    """One lattice per child; ``position[i]`` maps constraint positions to the task's."""
    n = len(constraints.variables)
    out = []
    for v in children:
        required = sorted(position[u] for u in constraints.required[v])
        banned = set(constraints.forbidden[v]) | set(constraints.required[v]) | {v}
        allowed = sorted(position[u] for u in range(n) if u not in banned)
        out.append(
            _Lattice(
                child=position[v],
                required=np.array(required, dtype=np.int64),
                allowed=np.array(allowed, dtype=np.int64),
                max_extra=constraints.max_parents - len(required),
                binom=binom,
                tol_abs=tol_abs,
            )
        )
    return out


# -- scores with a contract: bulk counting -------------------------------------------------


class _StatisticProblem:
    """Everything a task needs, picklable: the data in counting order, the score's
    statistics and formula, the constraints."""

    def __init__(self, contract, constraints: Constraints):
        extra = dict(contract.bound_statistics())
        extra[_H] = entropy_statistic()
        plan = StatisticPlan(contract, extra_statistics=extra)
        self.contract = contract
        self.constraints = constraints
        self.keys, self.tables, self.masses = plan.count_arrays()
        self.codes = plan.encoded.codes
        self.arities = plan.encoded.arities.astype(np.int64)
        self.n_samples = plan.n_samples
        # internal (counting) position of each score position, and back
        self.to_internal = np.array([plan.encoded.index[v] for v in constraints.variables])
        self.to_score = np.empty_like(self.to_internal)
        self.to_score[self.to_internal] = np.arange(len(self.to_internal))
        # the base classes' superset_bound returns None: no bound
        self.bounded = type(contract).superset_bound not in (
            StatisticScore.superset_bound,
            PgmpyScoreAdapter.superset_bound,
        )
        self.monotone = tuple(contract.monotone_family_statistics())
        n = self.n_samples
        self.tol_abs = _TIE * (n * math.log(n + 1.0) + 1.0)

    def internal_order(self) -> list:
        """Score positions in counting order (decreasing entropy)."""
        return [int(v) for v in self.to_score]


class _SizeTable:
    """Statistics of the counted subsets of one size, found by colex rank."""

    def __init__(self, n_possible: int, n_stats: int):
        self.slot = np.full(n_possible, -1, dtype=np.int64) if n_possible <= _DENSE_SLOTS else None
        self.ranks = np.zeros(0, dtype=np.int64)  # sorted (sparse tables only)
        self.columns = np.zeros(0, dtype=np.int64)
        self.stats = np.zeros((n_stats, 0))

    def find(self, ranks: np.ndarray) -> np.ndarray:
        """Column of each rank, -1 where not counted."""
        if self.slot is not None:
            return self.slot[ranks]
        if not len(self.ranks):
            return np.full(len(ranks), -1, dtype=np.int64)
        pos = np.minimum(np.searchsorted(self.ranks, ranks), len(self.ranks) - 1)
        return np.where(self.ranks[pos] == ranks, self.columns[pos], -1)

    def add(self, ranks: np.ndarray, stats: np.ndarray) -> None:
        columns = np.arange(self.stats.shape[1], self.stats.shape[1] + len(ranks))
        self.stats = np.concatenate([self.stats, stats], axis=1)
        if self.slot is not None:
            self.slot[ranks] = columns
        else:
            ranks = np.concatenate([self.ranks, ranks])
            columns = np.concatenate([self.columns, columns])
            order = np.argsort(ranks, kind="stable")
            self.ranks, self.columns = ranks[order], columns[order]


class _Store:
    """Statistics of counted subsets, by size and colex rank (a sparse table)."""

    def __init__(self, problem: _StatisticProblem, binom, n_threads: int):
        self.problem = problem
        self.binom = binom
        self.n_threads = n_threads
        self.by_size: dict = {}
        self.seconds = 0.0
        self.n_counted = 0

    def _table(self, size: int) -> _SizeTable:
        table = self.by_size.get(size)
        if table is None:
            n_possible = math.comb(len(self.problem.arities), size)
            table = _SizeTable(n_possible, len(self.problem.keys))
            self.by_size[size] = table
        return table

    def ensure(self, blocks) -> None:
        """Count the subsets of ``blocks`` (arrays of rows of one size) not counted yet."""
        start = time.perf_counter()
        merged: dict = {}  # size -> (ranks, rows) still to count
        for rows in blocks:
            if rows.shape[0] == 0:
                continue
            size = rows.shape[1]
            ranks = _kernels.colex_ranks(rows, self.binom)
            new = self._table(size).find(ranks) < 0
            if size in merged:
                r0, w0 = merged[size]
                ranks, rows = np.concatenate([r0, ranks[new]]), np.concatenate([w0, rows[new]])
            else:
                ranks, rows = ranks[new], rows[new]
            merged[size] = (ranks, rows)
        merged = {size: _unique_rows(*pair) for size, pair in merged.items() if len(pair[0])}
        if merged:
            width = max(max(merged), 1)
            all_rows = np.full((sum(len(r) for r, _ in merged.values()), width), -1)
            sizes = np.empty(all_rows.shape[0], dtype=np.int64)
            at = 0
            for size, (ranks, rows) in merged.items():
                all_rows[at : at + len(ranks), :size] = rows
                sizes[at : at + len(ranks)] = size
                at += len(ranks)
            order = np.lexsort(all_rows.T[::-1])
            p = self.problem
            stats = _kernels.listed_subset_statistics(
                all_rows[order],
                sizes[order],
                p.codes,
                p.arities,
                p.tables,
                p.masses,
                self.n_threads,
            )
            back = np.empty_like(order)
            back[order] = np.arange(len(order))
            at = 0
            for size, (ranks, _) in merged.items():
                self._table(size).add(ranks, stats[:, back[at : at + len(ranks)]])
                at += len(ranks)
            self.n_counted += len(order)
        self.seconds += time.perf_counter() - start

    def get(self, rows: np.ndarray) -> np.ndarray:
        """Statistics of counted subsets (rows of one size): shape (n_stats, m)."""
        if rows.shape[0] == 0:
            return np.zeros((len(self.problem.keys), 0))
        table = self.by_size[rows.shape[1]]
        return table.stats[:, table.find(_kernels.colex_ranks(rows, self.binom))]

    def forget_below(self, size: int) -> None:
        for s in [s for s in self.by_size if s < size]:
            del self.by_size[s]


def _unique_rows(ranks: np.ndarray, rows: np.ndarray):
    ranks, first = np.unique(ranks, return_index=True)
    return ranks, rows[first]


class _Task:
    """The candidate search of some children, sharing one store of counted subsets."""

    def __init__(self, problem: _StatisticProblem, children, n_threads: int):
        self.problem = problem
        n_vars = len(problem.arities)
        n = problem.n_samples
        self.h = problem.keys.index(_H)
        constraints = problem.constraints
        self.binom = _binomials(n_vars, max(min(constraints.max_parents + 1, n_vars), 1))
        self.store = _Store(problem, self.binom, n_threads)
        self.lattices = _lattices(
            constraints, children, problem.to_internal, self.binom, problem.tol_abs
        )
        self.seconds = {"scoring": 0.0, "bounds and dominance": 0.0}
        # N H(u) of each variable, bounding the likelihood gain of adding it
        singles = np.arange(n_vars, dtype=np.int64)[:, None]
        self.store.ensure([singles, np.zeros((1, 0), dtype=np.int64)])
        self.gains = n * math.log(n) - self.store.get(singles)[self.h]
        # the log-likelihood given every admissible parent at once
        start = time.perf_counter()
        self.ll_top = []
        for lat in self.lattices:
            top = np.sort(np.concatenate([lat.required, lat.allowed]))[None, :]
            fam = lat.families(top)
            h_top, h_fam = _kernels.listed_subset_statistics(
                np.concatenate([np.pad(top, ((0, 0), (0, 1)), constant_values=-1), fam]),
                np.array([top.shape[1], fam.shape[1]]),
                problem.codes,
                problem.arities,
                problem.tables[[self.h]],
                np.zeros(0),
            )[0]
            self.ll_top.append(min(0.0, h_fam - h_top))
        self.store.seconds += time.perf_counter() - start

    def _families(self, i: int, parents: np.ndarray, family: dict, parent_stats) -> Families:
        problem, lat = self.problem, self.lattices[i]
        arities = problem.arities
        return Families(
            child=problem.constraints.variables[problem.to_score[lat.child]],
            child_arity=int(arities[lat.child]),
            # exact below 2**53, the nearest float above
            n_parent_configs=np.prod(arities[parents].astype(np.float64), axis=1),
            n_parents=parents.shape[1],
            n_samples=problem.n_samples,
            family=family,
            parents=dict(zip(problem.keys, parent_stats, strict=True)),
        )

    def evaluate(self, i: int, parents: np.ndarray, families_rows: np.ndarray):
        """Local scores and superset bounds (or None) of lattice ``i``'s current sets."""
        problem, lat = self.problem, self.lattices[i]
        start = time.perf_counter()
        family_stats = self.store.get(families_rows)
        parent_stats = self.store.get(parents)
        family = dict(zip(problem.keys, family_stats, strict=True))
        families = self._families(i, parents, family, parent_stats)
        scores = problem.contract.local_from_statistics(families)
        scores = np.broadcast_to(scores, (parents.shape[0],))
        mid = time.perf_counter()
        bounds = None
        if problem.bounded and lat.can_grow():
            ll = family_stats[self.h] - parent_stats[self.h]
            supersets = lat.supersets(problem.arities, self.gains, ll, self.ll_top[i])
            bounds = problem.contract.superset_bound(families, supersets)
        self.seconds["scoring"] += mid - start
        self.seconds["bounds and dominance"] += time.perf_counter() - mid
        return scores, bounds, {k: family[k] for k in problem.monotone}

    def screen(self, i: int, parents: np.ndarray) -> None:
        r"""Leave unscored the sets of lattice ``i`` that an optimistic score shows
        dominated, before their families are counted: each monotone family statistic
        (see ``monotone_family_statistics``) of ``P + v`` is at most that of every
        ``P - u + v`` (counted, or itself bounded so, at the previous level), so the
        formula with the smallest of those is at least :math:`s(v \mid P)`. This shows
        ``P`` dominated, not its supersets: they are still visited."""
        lat, keys = self.lattices[i], self.problem.monotone
        if not keys or lat.level == 0 or parents.shape[0] == 0:
            return
        start = time.perf_counter()
        m = parents.shape[0]
        family = {k: lat.monotone_family[k][lat.subsets].min(axis=1) for k in keys}
        families = self._families(i, parents, family, self.store.get(parents))
        upper = np.broadcast_to(self.problem.contract.local_from_statistics(families), (m,))
        lat.screen(upper, family)
        self.seconds["bounds and dominance"] += time.perf_counter() - start

    #: bytes per parent set of a level: statistics of the set and its family, rows, scores
    BYTES_PER_SET = 256

    def _check_memory(self, active) -> None:
        """Refuse a level that would not fit in memory (weak bounds, no parent limit)."""

        lattices = self.lattices
        n_sets = sum(lattices[i].X.shape[0] for i in active)
        per_set = self.BYTES_PER_SET + 16 * len(self.problem.keys)
        need = n_sets * per_set
        limit = 0.5 * available_memory()
        if need > limit:
            size = max(len(lattices[i].required) + lattices[i].level for i in active)
            raise MemoryError(
                f"The candidate search would need about {need / 2**30:.1f} GB for the "
                f"{n_sets} parent sets of size {size} it has left to score (half the memory "
                f"available is {limit / 2**30:.1f} GB): the score's bounds do not stop the "
                "enumeration on these data. Give max_parents (3 or 4 is usual)."
            )

    def run(self, show_progress: bool) -> None:
        lattices = self.lattices
        active = list(range(len(lattices)))
        bar = progress_bar(show_progress, "candidate sets", leave=False, unit=" levels")
        while active:
            self._check_memory(active)
            if self.problem.monotone:
                self.store.ensure([lattices[i].parents() for i in active])
                for i in active:
                    self.screen(i, lattices[i].parents())
            sets = {i: lattices[i].scored_parents() for i in active}
            sets = {i: (p, lattices[i].families(p)) for i, p in sets.items()}
            self.store.ensure([block for pair in sets.values() for block in pair])
            still = []
            for i in active:
                scores, bounds, monotone = self.evaluate(i, *sets[i])
                start = time.perf_counter()
                lattices[i].record(scores, bounds, monotone)
                if lattices[i].advance():
                    still.append(i)
                self.seconds["bounds and dominance"] += time.perf_counter() - start
            active = still
            if active:
                smallest = min(len(lattices[i].required) + lattices[i].level for i in active)
                self.store.forget_below(smallest)
            bar.update(1)
        bar.close()


def _statistic_task(problem: _StatisticProblem, children, n_threads, show_progress) -> dict:
    """Candidate parent sets of ``children`` (score positions), sharing one counting."""
    task = _Task(problem, children, n_threads)
    task.run(show_progress)
    out = []
    for v, lat in zip(children, task.lattices, strict=True):
        res = lat.result()
        res["variable"] = v
        res["parent_sets"] = [
            tuple(sorted(int(problem.to_score[u]) for u in p)) for p in res["parent_sets"]
        ]
        out.append(res)
    return {
        "children": out,
        "timings": {**task.seconds, "counting": task.store.seconds},
        "counted": task.store.n_counted,
    }


def _family_bounds(score, variable, parent_sets, max_parents=None, expert_knowledge=None):
    """``(scores, bounds)`` of ``variable`` with each of ``parent_sets`` (names, one size,
    admissible), computed as the search computes them; ``bounds`` is None without a bound
    or room to grow. For tests and inspection."""
    contract = contract_for(score)
    variables = tuple(contract.encoded.variables)
    constraints = Constraints.from_knowledge(variables, max_parents, expert_knowledge)
    problem = _StatisticProblem(contract, constraints)
    v = variables.index(variable)
    task = _Task(problem, [v], 1)
    lat = task.lattices[0]
    where = {int(u): k for k, u in enumerate(lat.allowed)}
    required = {int(u) for u in lat.required}
    rows = []
    for parents in parent_sets:
        internal = {int(problem.to_internal[variables.index(u)]) for u in parents}
        if not required <= internal:
            raise ValueError(f"{parents!r} lacks a required parent of {variable!r}.")
        rows.append(sorted(where[u] for u in internal - required))
    sizes = {len(r) for r in rows}
    if len(sizes) != 1:
        raise ValueError("parent_sets must all have the same size.")
    lat.X = np.array(rows, dtype=np.int64).reshape(len(rows), sizes.pop())
    lat.level = lat.X.shape[1]
    parents = lat.parents()
    fams = lat.families(parents)
    task.store.ensure([parents, fams])
    return task.evaluate(0, parents, fams)[:2]


# -- scores without a contract: local_score, dominance only ---------------------------------


class _GenericProblem:
    def __init__(self, score, constraints: Constraints):
        self.score = score
        self.constraints = constraints


def _generic_task(problem: _GenericProblem, children) -> dict:
    constraints = problem.constraints
    variables = constraints.variables
    n_vars = len(variables)
    binom = _binomials(n_vars, max(min(constraints.max_parents + 1, n_vars), 1))
    identity = np.arange(n_vars)
    seconds = {"scoring": 0.0, "bounds and dominance": 0.0}
    out = []
    for v, lat in zip(children, _lattices(constraints, children, identity, binom), strict=True):
        while True:
            start = time.perf_counter()
            parents = lat.parents()
            scores = np.array(
                [
                    problem.score.local_score(variables[v], tuple(variables[u] for u in p))
                    for p in parents.tolist()
                ],
                dtype=np.float64,
            )
            mid = time.perf_counter()
            lat.record(scores, None)
            grows = lat.advance()
            seconds["scoring"] += mid - start
            seconds["bounds and dominance"] += time.perf_counter() - mid
            if not grows:
                break
        res = lat.result()
        res["variable"] = v
        out.append(res)
    return {"children": out, "timings": seconds}
