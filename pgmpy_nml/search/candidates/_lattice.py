r"""The pruning rules of the candidate parent sets, with their proofs; the lattice applies them.

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

8. *A search stopped early* (its time limit, :func:`passed`) leaves some admissible
   sets unscored. It stops between levels, between the variables of a level, or between
   blocks of the last level, never before the first level (the required parents
   alone) is scored, and each variable then has :attr:`_Lattice.unscored`, an upper
   bound on the score of every admissible set that was never scored nor shown
   dominated: the largest superset bound of the open sets of the last level recorded
   (or of the inherited bounds of the sets generated but not yet scored). *Proof:*
   every such set is a proper superset of an open set of the last level recorded
   (rules 2-4: a set with a closed subset is dominated), whose bound covers it. Scores
   without a superset bound leave it infinite.

:class:`_Lattice` walks the admissible parent sets of one variable level by level
and applies rules 1-4, 6 and 7 (and the verdict of rule 5, whose optimistic scores
:class:`~pgmpy_nml.search.candidates._tasks._Task` computes from the counts);
the last level (sets of ``max_parents`` parents, when no parent is required) of data
with many variables, or where memory requires, is generated, counted and scored in
compiled blocks by
:mod:`~pgmpy_nml.search.candidates._final`, which applies rules 1, 4, 6 and 7 the
same way (and not rule 5, which only spares counting);
:func:`~pgmpy_nml.search.candidates._pruning.candidate_parent_sets` is the public
entry.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from ..._counting import subsets as _kernels
from ...scores.contract import Supersets
from ..constraints import Constraints

__all__: list[str] = []

#: Scores within this of each other, relative to the magnitude of the scores and of
#: the statistics they are differences of, count as ties for the bounds: a bound that
#: equals a subset's score up to rounding closes the set (a constant column, a child
#: with one state, a parent set that already determines the child).
_TIE = 1e-12

#: sets of a size with at most this many possible members get a direct rank -> row table
_DENSE_SLOTS = 1 << 23

_NO_KEYS = np.zeros(0, dtype=np.int64)

#: the clock of the time limit: seconds, the same in every process (tests replace it)
_clock = time.time


def passed(deadline: float | None) -> bool:
    """Whether the time limit of a candidate search, ``deadline`` (a time of
    :data:`_clock`, None: none), has passed."""
    return deadline is not None and _clock() > deadline


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
    X: np.ndarray = field(init=False)  # (m, level) positions into allowed, lex order
    subsets: np.ndarray = field(init=False, repr=False)  # (m, level): rows of the subsets
    best_sub: np.ndarray = field(init=False)  # best score of a proper subset
    inherited: np.ndarray = field(init=False)  # smallest superset bound of a subset
    slot: np.ndarray | None = field(default=None)  # colex rank of the last recorded X -> its row
    keys: np.ndarray = field(init=False, repr=False)  # or, for too many possible sets, sorted ranks
    key_order: np.ndarray = field(init=False, repr=False)  # and the rows in that order
    best: np.ndarray = field(init=False, repr=False)  # best score over subsets (the set included)
    bound: np.ndarray = field(init=False, repr=False)  # upper bound on every proper superset
    open: np.ndarray = field(init=False, repr=False)
    monotone_family: dict = field(init=False, repr=False)  # the last recorded level's, screening
    to_score: np.ndarray = field(init=False)  # rows not shown dominated by the screen
    optimistic_family: dict | None = field(default=None)  # the screen's upper statistics, all rows
    kept_sets: list = field(default_factory=list)  # arrays of the kept sets, a level each
    kept_scores: list = field(default_factory=list)  # and their scores
    n_scored: int = 0
    n_dominated: int = 0
    unscored: float = -math.inf  # bound on the sets a stopped search left (rule 8)
    recorded: bool = False  # whether the current level's scores are recorded
    _parents: np.ndarray | None = field(default=None, repr=False)
    _parents_of: np.ndarray | None = field(default=None, repr=False)

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
        self.kept_sets.append(self.parents()[keep])  # arrays: 8 bytes a parent, not a tuple
        self.kept_scores.append(scores[keep])
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
        self.recorded = True
        if self.can_grow():
            self.open = ~(bound <= self.best + (_TIE * np.abs(self.best) + self.tol_abs))
        else:
            self.open = np.zeros(m, dtype=bool)
        if not self.open.any():  # no next level: advance needs no index of this one
            self.slot, self.keys, self.key_order = None, _NO_KEYS, _NO_KEYS
            return
        keys = _kernels.colex_ranks(self.X, self.binom)
        n_possible = math.comb(len(self.allowed), self.level)
        if n_possible <= _DENSE_SLOTS:
            self.slot = np.full(n_possible, -1, dtype=np.int64)
            self.slot[keys] = np.arange(m)
        else:
            self.slot = None
            self.key_order = np.argsort(keys, kind="stable")
            self.keys = keys[self.key_order]

    def finish(self, kept_sets: list, kept_scores: list, n_scored: int, n_dominated: int):
        """Record the last level, found elsewhere (:mod:`._final`): its kept sets and
        scores (arrays) and how many sets were scored and dominated."""
        self.kept_sets.extend(kept_sets)
        self.kept_scores.extend(kept_scores)
        self.n_scored += n_scored
        self.n_dominated += n_dominated
        self.level += 1
        self.X = np.zeros((0, self.level), dtype=np.int64)
        self.open = np.zeros(0, dtype=bool)
        self.slot, self.keys, self.key_order = None, _NO_KEYS, _NO_KEYS

    def next_size(self) -> tuple[int, int]:
        """``(sets, open)``: how many sets :meth:`advance` generates (before its tests
        drop any) from how many open ones, counted before anything is allocated."""
        if not self.open.any():
            return 0, 0
        last = self.X[self.open, -1] if self.level else np.full(1, -1)
        return int((len(self.allowed) - 1 - last).sum()), int(last.shape[0])

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
        self.recorded = False
        self._select(~self._dominated(self.inherited))
        return self.X.shape[0] > 0

    def stop(self) -> None:
        """End the search of this lattice where it is (a time limit): record in
        :attr:`unscored` the bound on every set it leaves (rule 8)."""
        if self.recorded:
            left = self.bound[self.open]
        else:  # generated, not yet scored: the bounds they inherit cover them
            left = self.inherited
        self.unscored = float(left.max()) if left.size else -math.inf
        self.X = np.zeros((0, self.level), dtype=np.int64)
        self.open = np.zeros(0, dtype=bool)
        self.recorded = True

    def supersets(self, arities, gains, log_likelihood, ll_top) -> Supersets:
        """What bounds the proper supersets of this level's scored sets (see
        :class:`Supersets`).

        A superset adds parents from outside the set, so each figure is a largest or
        smallest value over the allowed parents outside it (:func:`_best_outside`). A set
        has only ``level`` members, so those values are among the first ``k + level``
        parents of one global order, and no array of sets by allowed parents is formed.
        The cases pair a parent's gain with its own penalty. Parents of one arity share
        a penalty, so one case per arity, with the largest gain among its parents, gives
        the same bound as one case per parent (``tests/test_superset_cases.py``)."""
        sets = self.X if self.to_score.all() else self.X[self.to_score]
        a = len(self.allowed)
        room = min(self.max_extra, a) - self.level  # parents that can still be added
        every = np.arange(a)
        ar = arities[self.allowed].astype(np.float64)
        g = np.asarray(gains, dtype=np.float64)[self.allowed]
        # exact products (floats: exact below 2**53)
        q = np.prod(arities[self.required].astype(np.float64)) * np.prod(ar[sets], axis=1)
        smallest = _best_outside(sets, every, ar, room, largest=False)
        q_max = q * np.prod(_best_outside(sets, every, ar, room, largest=True), axis=1)
        top_gains = np.cumsum(_best_outside(sets, every, g, room, largest=True), axis=1)
        ll = np.asarray(log_likelihood, dtype=np.float64)
        ll_top = float(ll_top)
        # one case per arity r of a parent that can be added alone: its largest gain
        ll_cases, q_cases = [], []
        for r in np.unique(ar):
            of_r = np.flatnonzero(ar == r)
            best = _best_outside(sets, of_r, g[of_r], 1, largest=True)[:, 0]
            ll_cases.append(np.where(best > -np.inf, np.minimum(ll_top, ll + best), -np.inf))
            q_cases.append(q * r)
        # k >= 2 parents added: the k largest gains, the k smallest arities
        small = np.cumprod(smallest, axis=1)
        for k in range(2, room + 1):
            ll_cases.append(np.minimum(ll_top, ll + top_gains[:, k - 1]))
            q_cases.append(q * small[:, k - 1])
        cases = (np.stack(ll_cases, axis=1), np.stack(q_cases, axis=1))
        ll_max = np.minimum(ll_top, ll + top_gains[:, -1])
        return Supersets(q * smallest[:, 0], q_max, ll_max, cases)

    def result(self) -> dict:
        """The kept sets (``"parent_sets"``: arrays of rows, one width each; the
        lattice's positions) and their scores (one array, in that order), the counts."""
        blocks = [b for b in self.kept_sets if len(b)]
        return {
            "parent_sets": blocks,
            "scores": np.concatenate([np.zeros(0), *self.kept_scores]),
            "admissible": self.n_admissible,
            "scored": self.n_scored,
            "dominated": self.n_dominated,
            "kept": sum(len(b) for b in blocks),
            "unscored": self.unscored,
        }


def _best_outside(X, positions, values, k: int, largest: bool) -> np.ndarray:
    """For each row of ``X`` (positions of a set), the ``k`` largest (``largest``) or
    smallest of ``values`` (those of the positions ``positions``) outside the set, in
    that order; ``-inf`` (``inf``) where fewer than ``k`` are outside. Shape (rows,
    ``min(k, len(positions))``).

    A set has ``X.shape[1]`` members, so the ``k`` best outside it are among the
    ``k + X.shape[1]`` best of all: only those are compared with the members."""
    values = np.asarray(values, dtype=np.float64)
    take = np.argsort(-values if largest else values, kind="stable")[: k + X.shape[1]]
    inside = (X[:, :, None] == np.asarray(positions)[take][None, None, :]).any(axis=1)
    fill = -np.inf if largest else np.inf
    best = np.where(inside, fill, values[take][None, :])
    best = -np.sort(-best, axis=1) if largest else np.sort(best, axis=1)
    return best[:, :k]


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
