"""The local searches that drive an :class:`~.engine.Engine`.

- :func:`climb`: one greedy hill climb or tabu search from the engine's network;
- :func:`_search`: a climb, then perturbed restarts from the best network so far;
- :func:`run`: the candidate rounds (one without candidates), each such a search,
  with the candidates of a round chosen by :func:`_round_candidates`
  (:mod:`.screen`).

``settings`` is the dictionary of checked parameters that
:class:`~pgmpy_nml.LocalSearch` builds (``tabu``, ``epsilon``, ``tabu_length``,
``max_non_improving``, ``max_iter``, ``restarts``, ``perturb``, ``rng``,
``candidate_rounds``, ``symmetric_candidates``).
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field

import numpy as np

from . import screen as _screen

__all__ = ["TIE_RTOL", "Run", "candidate_rounds", "climb", "perturb", "run", "tabu_hashes"]

#: Ties: a move replaces the best so far only if its change is larger by more than this
#: (relative to the change, at least absolute), so changes equal up to rounding tie.
TIE_RTOL = 1e-9

#: Searches of ``candidate_rounds=None`` with top-k candidates (one re-selection).
DEFAULT_ROUNDS = 2


@dataclass
class Run:
    """What the searches of :func:`run` did."""

    n_iter: int = 0
    history: list[float] = field(default_factory=list)
    restart_scores: list[float] = field(default_factory=list)
    round_scores: list[float] = field(default_factory=list)
    allowed: np.ndarray | None = None
    screen_seconds: float = 0.0

    def timings(self, engine, elapsed: float) -> dict:
        """Seconds per part of a fit that took ``elapsed`` seconds in all."""
        return {
            "local scores": engine.row_seconds,
            "candidate screen": self.screen_seconds,
            "rest of the search": elapsed - engine.row_seconds - self.screen_seconds,
            "rows computed": engine.rows_computed,
        }


def candidate_rounds(rounds: int | None, spec) -> int:
    """The number of candidate rounds: ``rounds`` (None: the default for ``spec``),
    checked against the candidate spec of :func:`.screen.as_candidate_spec`."""
    if rounds is None:
        return DEFAULT_ROUNDS if isinstance(spec, int) else 1
    if rounds > 1 and not isinstance(spec, int):
        given = "no candidates" if spec is None else "a mapping of candidates"
        raise ValueError(
            f"candidate_rounds > 1 re-selects the top k candidates after each search: "
            f"it needs candidates as an integer or 'auto', got {given}."
        )
    return rounds


def tabu_hashes(engine, visited, frozen) -> np.ndarray:
    """The tabu list of the move scan: the hashes of the recently visited networks, and
    of every network one move on a frozen pair of variables away from the current one
    (an edge ``a -> b`` or ``b -> a`` added, deleted or reversed: the current hash with
    ``keys[a, b]``, ``keys[b, a]`` or both XOR-ed in), so the scan skips those moves."""
    hashes = np.array(visited, dtype=np.int64)
    if not frozen:
        return hashes
    a, b = np.array(frozen, dtype=np.int64).T
    forward, backward = engine.keys[a, b], engine.keys[b, a]
    h = engine.hash
    moved = np.concatenate([h ^ forward, h ^ backward, h ^ forward ^ backward])
    return np.concatenate([hashes, moved.astype(np.int64)])


def climb(engine, settings, record) -> int:
    """One search from the engine's network; leaves the best network found in it.

    Greedy (``settings["tabu"]`` False): the best move while it gains ``epsilon``.
    Tabu: always the best move that is not tabu, and the best network seen at the end.
    A move is tabu when it leads to one of the last ``tabu_length`` networks visited,
    or changes the edge between a pair of variables that one of the last
    ``tabu_length`` moves that lowered the score (by more than ``epsilon``) changed
    (the pair is frozen), unless that gives a network better than the best so far by
    ``epsilon`` (aspiration). Returns the number of moves; ``record(total)`` is called
    after each.
    """
    tabu_mode = settings["tabu"]
    epsilon = settings["epsilon"]
    engine.refresh()
    best_total = engine.total()
    best_state = None  # None: the current network is the best so far
    length = settings["tabu_length"]
    visited = deque([engine.hash], maxlen=length)
    frozen: deque = deque(maxlen=length)
    no_tabu = np.zeros(0, dtype=np.int64)
    # tabu search: no additions or deletions that leave the score unchanged (see
    # LocalSearch's docstring); greedy search takes no move below epsilon anyway
    neutral = epsilon if tabu_mode else 0.0
    stale = moves = 0
    while moves < settings["max_iter"]:
        if not tabu_mode:
            kind, u, v, delta = engine.best(no_tabu, TIE_RTOL, neutral)
            if kind < 0 or delta < epsilon:
                break
        else:
            # the best move to a network not visited lately; if it makes a new best, it is
            # taken even on a frozen pair (aspiration), else the best move off them
            kind, u, v, delta = engine.best(np.array(visited, dtype=np.int64), TIE_RTOL, neutral)
            if frozen and not (kind >= 0 and delta > best_total + epsilon - engine.total()):
                tabu = tabu_hashes(engine, visited, frozen)
                kind, u, v, delta = engine.best(tabu, TIE_RTOL, neutral)
            if kind < 0:
                break
            if best_state is None:
                best_state = engine.snapshot()  # about to leave the best network
        engine.apply(kind, u, v)
        engine.refresh()
        moves += 1
        current = engine.total()
        record(current)
        if not tabu_mode:
            continue
        visited.append(engine.hash)
        if delta < -epsilon:  # a move down: the pair may not be undone for a while
            frozen.append((u, v))
        if current > best_total + epsilon:
            best_total, best_state, stale = current, None, 0
        else:
            stale += 1
            if stale >= settings["max_non_improving"]:
                break
    if best_state is not None:
        engine.restore(best_state)
    return moves


def perturb(engine, settings, rng) -> None:
    """The kick before a restart: ``settings["perturb"]`` random legal moves (drawn one
    at a time among all legal moves), or with ``settings["perturbation"] == "order"``
    that many variables moved in a topological order of the network, the edges the new
    order contradicts deleted (:meth:`.engine.Engine.order_kick`)."""
    if settings["perturbation"] == "order":
        engine.order_kick(rng, settings["perturb"])
        return
    for _ in range(settings["perturb"]):
        moves = engine.legal_moves()
        if not len(moves):
            break
        kind, u, v = (int(x) for x in moves[rng.integers(len(moves))])
        engine.apply(kind, u, v)


def _search(engine, settings, bar, history, method: str):
    """A climb, then ``restarts`` climbs from the best network so far perturbed by
    ``perturb`` random legal moves; leaves the best network in the engine.

    Returns the moves made and the score each climb ended with.
    """

    def record(total):
        history.append(total)
        bar.update(1)
        bar.set_postfix_str(f"score {total:.4f}", refresh=False)

    engine.refresh()
    history.append(engine.total())
    n_iter = climb(engine, settings, record)
    best_total, best_state = engine.total(), engine.snapshot()
    ends = [best_total]
    rng = settings["rng"]
    deadline = settings.get("deadline")
    for k in range(settings["restarts"]):
        if deadline is not None and time.perf_counter() >= deadline:
            break
        bar.set_description(f"{method} restart {k + 1}/{settings['restarts']}")
        engine.restore(best_state)
        perturb(engine, settings, rng)
        engine.refresh()
        history.append(engine.total())
        n_iter += climb(engine, settings, record)
        total = engine.total()
        ends.append(total)
        if total > best_total + TIE_RTOL * max(1.0, abs(best_total)):
            best_total, best_state = total, engine.snapshot()
    engine.restore(best_state)
    return n_iter, ends


def run(engine, rows, spec, settings, method: str, show_progress: bool) -> Run:
    """The searches of a fit under a progress bar: one search without candidates (``spec``
    None), else up to ``candidate_rounds`` searches, each with the candidates chosen for
    it, stopping early when the candidates or the network no longer change."""
    from tqdm.auto import tqdm

    bar = tqdm(desc=f"{method} search", disable=not show_progress, unit=" moves", leave=True)
    out = Run()
    with bar:
        for round_ in range(settings["candidate_rounds"]):
            if round_:
                bar.set_description(
                    f"{method} search, candidate round {round_ + 1}/{settings['candidate_rounds']}"
                )
            if spec is not None:
                begun = time.perf_counter()
                chosen = _round_candidates(spec, rows, engine, round_, settings)
                out.screen_seconds += time.perf_counter() - begun
                if out.allowed is not None and np.array_equal(chosen, out.allowed):
                    break  # the same candidates: the same search again
                out.allowed = chosen
                engine.restrict(chosen)
            moves, ends = _search(engine, settings, bar, out.history, method)
            out.n_iter += moves
            out.restart_scores += ends
            out.round_scores.append(engine.total())
            if spec is None or (round_ and moves == 0):
                break
    return out


def _round_candidates(spec, rows, engine, round_: int, settings) -> np.ndarray:
    """The candidate matrix ``allowed[v, u]`` of a round: the first from the mutual
    information (or the user's sets), later ones from the score gains given the
    current parents (which stay candidates), required parents always."""
    forbidden = engine.knowledge_forbidden != 0
    required = engine.required != 0
    symmetric = settings["symmetric_candidates"]
    if not isinstance(spec, int):  # the user's candidate sets
        return _screen.select_candidates(
            np.zeros(forbidden.shape), 0, forbidden, required, spec, symmetric
        )
    if round_ == 0:
        strength = _screen.mutual_information(*rows.screen_data())
        return _screen.select_candidates(strength, spec, forbidden, required, None, symmetric)
    current = engine.parents != 0
    gains = engine.gains()
    return _screen.select_candidates(gains, spec, forbidden, required, current, symmetric)
