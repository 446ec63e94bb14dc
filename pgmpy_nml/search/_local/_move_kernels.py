"""Compiled moves of the local search: the network's closure, legal moves, the best move.

The network is held as a matrix ``parents[v, u] = 1`` iff ``u -> v``, with its
transitive closure ``reach[a, b] = 1`` iff a directed path ``a -> ... -> b``
exists, which makes the acyclicity check of a move O(1) (adding) or O(parents)
(reversing). Variables are positions in the data's column order. The local
scores the moves are judged by come from :mod:`._kernels`.
"""

from __future__ import annotations

import numpy as np

from ..._jit import njit

__all__ = [
    "ADD",
    "DELETE",
    "REVERSE",
    "best_move",
    "is_legal",
    "legal_moves",
    "move_delta",
    "reachability",
]

#: Move kinds, in the order of the tie-breaking rule.
ADD, DELETE, REVERSE = 0, 1, 2


# -- the network: closure, legality, moves -----------------------------------------------
@njit(cache=True, nogil=True)
def reachability(parents, reach):
    """In place: ``reach[a, b] = 1`` iff a directed path ``a -> ... -> b`` exists.

    Returns False (and leaves ``reach`` partial) if ``parents`` has a cycle.
    Processes the variables sinks first, in O(n^2 + n * edges).
    """
    n = parents.shape[0]
    out_degree = np.zeros(n, dtype=np.int64)
    for v in range(n):
        for u in range(n):
            if parents[v, u]:
                out_degree[u] += 1
    # reverse topological order: repeatedly take a variable whose children are all done
    order = np.empty(n, dtype=np.int64)
    done = 0
    for v in range(n):
        if out_degree[v] == 0:
            order[done] = v
            done += 1
    head = 0
    while head < done:
        v = order[head]
        head += 1
        for u in range(n):
            if parents[v, u]:
                out_degree[u] -= 1
                if out_degree[u] == 0:
                    order[done] = u
                    done += 1
    if done < n:
        return False
    reach[:, :] = 0
    for i in range(n):
        a = order[i]
        for c in range(n):
            if parents[c, a]:
                reach[a, c] = 1
                for b in range(n):
                    if reach[c, b]:
                        reach[a, b] = 1
    return True


@njit(cache=True, nogil=True)
def is_legal(kind, u, v, parents, n_parents, reach, forbidden, required, max_parents):
    """Whether move ``kind`` on the edge ``u -> v`` keeps a DAG within the constraints.

    ADD ``u -> v``: no edge between them, not forbidden, ``v`` below the parent limit,
    no path ``v -> ... -> u``. DELETE ``u -> v``: present and not required. REVERSE
    ``u -> v`` to ``v -> u``: present, not required, ``v -> u`` not forbidden, ``u``
    below the limit, and no other path ``u -> ... -> w -> v`` (``w`` another parent
    of ``v``), which would close a cycle.
    """
    if u == v:
        return False
    if kind == ADD:
        return (
            not parents[v, u]
            and not parents[u, v]
            and not forbidden[v, u]
            and n_parents[v] < max_parents
            and not reach[v, u]
        )
    if not parents[v, u] or required[v, u]:
        return False
    if kind == DELETE:
        return True
    if forbidden[u, v] or n_parents[u] >= max_parents:
        return False
    n = parents.shape[0]
    for w in range(n):
        if w != u and parents[v, w] and reach[u, w]:
            return False
    return True


@njit(cache=True, nogil=True)
def move_delta(kind, u, v, local, offsets):
    """Score change of a move from the local-score table.

    ``local[v, v]`` is the local score of ``v`` with its current parents and
    ``local[v, u]`` the one with ``u`` toggled; ``offsets[kind]`` is the score's
    structure-prior ratio of the move.
    """
    d = local[v, u] - local[v, v]
    if kind == REVERSE:
        d += local[u, v] - local[u, u]
    return d + offsets[kind]


@njit(cache=True, nogil=True)
def _is_tabu(h, tabu):
    for i in range(tabu.shape[0]):
        if tabu[i] == h:
            return True
    return False


@njit(cache=True, nogil=True)
def _moved_hash(kind, u, v, h, keys):
    h = h ^ keys[u, v]
    if kind == REVERSE:
        h = h ^ keys[v, u]
    return h


@njit(cache=True, nogil=True)
def best_move(
    parents,
    n_parents,
    reach,
    local,
    forbidden,
    required,
    max_parents,
    offsets,
    keys,
    network_hash,
    tabu,
    rtol,
    neutral,
):
    """The best legal move and its score change: ``(kind, u, v, delta)``, kind -1 if none.

    Moves are scanned in the order of the tie-breaking rule (kind: add, delete,
    reverse; then the tail ``u``; then the head ``v``); a later move replaces the
    best so far only if its change is larger by more than ``rtol`` (relative, at
    least absolute ``rtol``), so ties up to rounding go to the first. A move whose
    resulting network's hash (``network_hash`` with ``keys`` of the toggled
    edges XOR-ed in) is in ``tabu`` is skipped, and so is an addition or deletion
    whose change is smaller than ``neutral`` in absolute value (0: none is).
    """
    n = parents.shape[0]
    best = -np.inf
    bk, bu, bv = -1, -1, -1
    for kind in range(3):
        for u in range(n):
            for v in range(n):
                if u == v:
                    continue
                if kind == ADD:
                    if parents[v, u]:
                        continue
                elif not parents[v, u]:
                    continue
                d = move_delta(kind, u, v, local, offsets)
                if kind != REVERSE and abs(d) < neutral:
                    continue
                if bk >= 0 and d <= best + rtol * max(1.0, abs(best)):
                    continue
                if not is_legal(
                    kind, u, v, parents, n_parents, reach, forbidden, required, max_parents
                ):
                    continue
                if tabu.shape[0] and _is_tabu(_moved_hash(kind, u, v, network_hash, keys), tabu):
                    continue
                best = d
                bk, bu, bv = kind, u, v
    return bk, bu, bv, best


@njit(cache=True, nogil=True)
def legal_moves(parents, n_parents, reach, forbidden, required, max_parents):
    """Every legal move as an array of ``(kind, u, v)`` rows, in the scan order."""
    n = parents.shape[0]
    out = np.empty((3 * n * n, 3), dtype=np.int64)
    k = 0
    for kind in range(3):
        for u in range(n):
            for v in range(n):
                if is_legal(
                    kind, u, v, parents, n_parents, reach, forbidden, required, max_parents
                ):
                    out[k, 0] = kind
                    out[k, 1] = u
                    out[k, 2] = v
                    k += 1
    return out[:k]
