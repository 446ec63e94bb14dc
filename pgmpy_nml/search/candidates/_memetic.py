"""A memetic search over variable orders (after MINOBS, Lee and van Beek 2017).

An order of the variables gives each variable its best candidate parent set whose
parents all come before it; the best network of an order is therefore a DAG, and the
best network overall is the best network of some order. The search keeps a population
of orders, each a local optimum of the insertion neighbourhood (one variable moved to
another place: :func:`._heuristics._order_kernel`, Teyssier and Koller 2005), and in
each generation:

1. breeds one child per member: two parents drawn by binary tournament, an order
   crossover (a random block of the first parent kept in place, the other variables in
   the second parent's order), and with probability ``mutation`` a perturbation
   (:func:`._heuristics.perturb`: :data:`._heuristics.ORDER_KICK` variables moved);
2. takes each child to its local optimum;
3. keeps the ``population`` best distinct networks of parents and children.

When the best network has not improved for ``patience`` generations, every member
but the best is replaced by a new local optimum from a random order (MINOBS's
restart for diversity). The search stops at a deadline, after ``generations``
generations or after ``max_restarts`` restarts in a row that found no better network.
Deterministic for a given seed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from ._families import _Families
from ._heuristics import _greedy, _order_kernel, _topological_order, perturb

__all__: list[str] = []


@dataclass
class MemeticRun:
    """What :func:`memetic_search` found: the best network and how the search went."""

    choice: np.ndarray  #: per variable, the row of its chosen family in the _Families
    order: np.ndarray  #: an order the network is consistent with
    total: float  #: the network's score (sum of its families' local scores)
    generations: int = 0  #: generations bred
    local_searches: int = 0  #: local optima computed (members and children)
    restarts: int = 0  #: diversity restarts
    stalled: bool = False  #: stopped by ``max_restarts`` restarts without a better network
    stopped: bool = False  #: stopped because ``stop()`` said so
    #: (seconds since the start, best score) each time the best network improved
    history: list = field(default_factory=list)


class _Member:
    __slots__ = ("choice", "key", "order", "total")

    def __init__(self, choice, order, total):
        self.choice, self.order, self.total = choice, order, total
        self.key = choice.tobytes()


def order_crossover(first: np.ndarray, second: np.ndarray, rng) -> np.ndarray:
    """A random block ``first[i:j]`` kept at its place, the other variables filling the
    remaining places in ``second``'s order (OX1, the order crossover)."""
    n = len(first)
    i, j = sorted(int(x) for x in rng.integers(0, n + 1, size=2))
    kept = np.zeros(n, dtype=bool)
    kept[first[i:j]] = True
    rest = second[~kept[second]]
    child = np.empty(n, dtype=np.int64)
    child[i:j] = first[i:j]
    child[:i] = rest[:i]
    child[j:] = rest[i:]
    return child


def memetic_search(
    fam: _Families,
    *,
    population: int = 20,
    generations: int | None = None,
    patience: int = 20,
    max_restarts: int | None = None,
    mutation: float = 0.5,
    deadline: float | None = None,
    seed: int | np.random.Generator = 0,
    blocked=None,
    start=None,
    report: Callable[[MemeticRun], None] | None = None,
    stop: Callable[[], bool] | None = None,
) -> MemeticRun:
    """The best network found over the candidates ``fam`` by the memetic order search.

    Parameters
    ----------
    fam : _Families
        The candidates (without symmetry: every order is allowed).
    population : int
        Orders kept from one generation to the next (at least 2).
    generations : int, optional
        Generations at most (None: no limit; at least one of ``generations``,
        ``deadline``, ``max_restarts`` and ``stop`` must be set).
    patience : int
        Generations without a better network before the diversity restart.
    max_restarts : int, optional
        Stop after this many diversity restarts in a row without a better network.
    mutation : float
        Probability that a child is perturbed after the crossover.
    deadline : float, optional
        A :func:`time.perf_counter` reading; once the first population has a member
        (the first member is always computed), no local search begins that would end
        after it if it took as long as the last one.
    seed : int or numpy Generator
        The generator's seed (or the generator).
    blocked : ndarray of bool, optional
        Families never chosen.
    start : ndarray of int, optional
        One family row per variable forming a DAG: its topological order is the first
        member (the network returned is then never worse than it).
    report : callable, optional
        Called with the run so far after every generation (progress).
    stop : callable, optional
        Called without arguments before each local search once the first population has
        a member; when it returns True the search ends as at the deadline (the exact
        portfolio's: the other engine has finished).
    """
    if generations is None and deadline is None and max_restarts is None and stop is None:
        raise ValueError("memetic_search needs generations, a deadline, max_restarts or stop")
    began = time.perf_counter()
    rng = np.random.default_rng(seed)
    bl = np.zeros(len(fam), dtype=np.bool_) if blocked is None else np.asarray(blocked, bool)
    args = (fam.start, fam.padded, fam.size, fam.score)
    run = MemeticRun(choice=np.zeros(0, dtype=np.int64), order=np.zeros(0), total=-np.inf)
    last = [0.0]  # the last local search's seconds

    def climb(order) -> _Member | None:
        t = time.perf_counter()
        choice, final, ok = _order_kernel(*args, np.asarray(order, dtype=np.int64), bl)
        last[0] = time.perf_counter() - t
        run.local_searches += 1
        if not ok:  # some variable has no allowed family in this order
            return None
        member = _Member(choice.copy(), final.copy(), fam.total(choice))
        if member.total > run.total:
            run.choice, run.order, run.total = member.choice, member.order, member.total
            run.history.append((time.perf_counter() - began, member.total))
        return member

    def late() -> bool:
        # no local search is started that would end past the deadline if it took as long
        # as the last one (on baudio, 9.6 million candidates, one takes up to 1.7 s)
        if deadline is not None and time.perf_counter() + last[0] >= deadline:
            return True
        # once stop() said so it is never asked again
        run.stopped = run.stopped or (stop is not None and bool(stop()))
        return run.stopped

    def random_members(k: int, first: bool = False) -> list[_Member]:
        """``k`` local optima from random orders (``first``: the first population's, whose
        first member is computed even past the deadline)."""
        out: list[_Member] = []
        for _ in range(50 * k):  # orders where some variable has no family are redrawn
            if len(out) == k or ((out or not first) and late()):
                break
            m = climb(rng.permutation(fam.n))
            if m is not None:
                out.append(m)
        return out

    initial = []
    if start is None:
        start = _greedy(fam, available=None if blocked is None else ~bl)
    if start is not None:
        m = climb(_topological_order(fam, np.asarray(start, dtype=np.int64)))
        if m is not None:
            initial.append(m)
    fill = random_members(population - len(initial), first=not initial)
    members = _distinct(initial + fill, population)
    if not members:
        raise ValueError("no order of the variables gives every variable an allowed candidate")
    stale = fruitless = 0
    while generations is None or run.generations < generations:
        if late():
            break
        best_before = run.total
        children = _breed(members, population, mutation, rng, climb, late)
        members = _distinct(members + children, population)
        run.generations += 1
        if run.total > best_before:
            stale = fruitless = 0
        else:
            stale += 1
        if stale >= patience:
            if max_restarts is not None and fruitless >= max_restarts:
                run.stalled = True
                break
            members = _distinct(members[:1] + random_members(population - 1), population)
            run.restarts += 1
            fruitless += 1
            stale = 0
        if report is not None:
            report(run)
    return run


def _breed(members, population, mutation, rng, climb, late) -> list[_Member]:
    """A generation's children: ``population`` order crossovers of tournament winners,
    each perturbed with probability ``mutation`` (always when both parents are the same),
    taken to their local optimum by ``climb``; none begun once ``late()``."""
    children = []
    for _ in range(population):
        if late():
            break
        a, b = _tournament(members, rng), _tournament(members, rng)
        child = order_crossover(a.order, b.order, rng)
        if rng.random() < mutation or a is b:
            child = perturb(child, rng)
        m = climb(child)
        if m is not None:
            children.append(m)
    return children


def _tournament(members: list[_Member], rng) -> _Member:
    """The better of two members drawn at random (binary tournament)."""
    a = members[int(rng.integers(len(members)))]
    b = members[int(rng.integers(len(members)))]
    return a if a.total >= b.total else b


def _distinct(members: list[_Member], k: int) -> list[_Member]:
    """The ``k`` best members with distinct networks, best first."""
    seen: set = set()
    out = []
    for m in sorted(members, key=lambda m: -m.total):
        if m.key not in seen:
            seen.add(m.key)
            out.append(m)
            if len(out) == k:
                break
    return out


def order_engine(candidates, *, time_limit, initial, seed, stop, display):
    """The memetic search as the exact portfolio's incumbent engine
    (``method="order|solver"``, :mod:`._portfolio`): a network over ``candidates`` found
    by :func:`memetic_search` until ``time_limit`` runs out or ``stop()`` says the other
    engine has finished, reported on ``display``. It proves nothing: its bound is the
    trivial one, every variable's best candidate (:meth:`CandidateParentSets.upper_bound`,
    a bound on every network), so the portfolio's bound is the solver's.

    Its status is ``"stopped"`` when ``stop`` ended it, else ``"timelimit"``.
    """
    from ._families import _checked_families, _initial_choice, _network_result, show_status

    began = time.perf_counter()
    fam = _checked_families(candidates, symmetry=False)  # every order, no class order
    bound = candidates.upper_bound()
    start = None if initial is None else _initial_choice(fam, candidates, initial)
    deadline = None if time_limit is None else began + time_limit

    def report(run: MemeticRun) -> None:
        if display is not None:
            show_status(display, run.total, bound)

    run = memetic_search(fam, deadline=deadline, seed=seed, start=start, report=report, stop=stop)
    report(run)
    return _network_result(
        fam,
        candidates,
        run.choice,
        bound,
        "stopped" if run.stopped else "timelimit",
        method="order",
        engine="order search",
        timings={"order search": time.perf_counter() - began},
        n_cuts=0,
    )
