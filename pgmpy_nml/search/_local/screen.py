"""Candidate parents of the local search: a cheap screen and a top-k cap per variable.

As in the sparse candidate algorithm (Friedman, Nachman & Pe'er, UAI 1999), each
variable's possible parents are restricted to a few candidates before the search:

- the first screen ranks every pair by its empirical mutual information
  (:func:`mutual_information`, one compiled count of each pair's table);
- a re-selection ranks, for each child ``v`` with its current parents ``P``,
  every other variable ``u`` by the score gain of adding it,
  ``S(v | P + u) - S(v | P)`` (the search's own table of one-edge changes);
- :func:`select_candidates` keeps the ``k`` best of each child (ties to the
  earlier column), adds the current and the required parents, optionally makes
  the relation symmetric (``u`` a candidate of ``v`` whenever ``v`` is one of
  ``u``, so that every kept edge can be reversed) and never keeps a forbidden
  parent.

Matrices are indexed ``[child, parent]``, positions in the data's column order.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..._validate import as_integer
from . import _kernels as _k
from . import _screen_kernels as _ck

__all__ = ["DEFAULT_K", "candidate_dict", "mutual_information", "select_candidates"]

#: Candidates per variable of ``candidates="auto"`` (see :class:`LocalSearch`).
DEFAULT_K = 10

#: Largest memory for the variables' row bitsets of the screen (else a histogram).
_BITSET_BYTES = 1 << 28


def mutual_information(codes, arities, bits=None, weights=None) -> np.ndarray:
    """``mi[u, v]``: the empirical mutual information (nats) of every pair of variables.

    Parameters
    ----------
    codes : ndarray of int, shape (n_variables, n_samples)
        Integer codes ``0 .. arity - 1`` per variable (:class:`pgmpy_nml._data.EncodedData`).
    arities : ndarray of int, shape (n_variables,)
    bits : ndarray, optional
        The variables' state bitsets (:func:`._kernels.state_bits`), if at
        hand; computed here when they fit in 256 MB, else the pairs are counted
        with a histogram over the rows.
    weights : ndarray of int64, optional
        Counted data: the count of each row (None: one per row); the pairs are
        then counted with a weighted histogram.

    Returns
    -------
    ndarray of float64, shape (n_variables, n_variables)
        Symmetric, zero on the diagonal:
        :math:`I(U;V) = \\sum_{ab} \\hat p_{ab} \\log (\\hat p_{ab} / (\\hat p_a \\hat p_b))`.
    """
    codes = np.ascontiguousarray(codes)
    arities = np.ascontiguousarray(arities, dtype=np.int64)
    n_vars, n = codes.shape
    if weights is not None:
        weights = np.ascontiguousarray(weights, dtype=np.int64)
        bits = np.zeros((0, 0, 0), dtype=np.uint64)  # popcounts cannot weigh rows
    elif bits is None or bits.shape[0] != n_vars:
        size = n_vars * max(1, int(arities.max(initial=1))) * ((n + 63) // 64) * 8
        if size <= _BITSET_BYTES and n_vars:
            bits = _k.state_bits(codes, arities)
        else:
            bits = np.zeros((0, 0, 0), dtype=np.uint64)
    if n_vars == 0 or n == 0:
        return np.zeros((n_vars, n_vars))
    if weights is None:
        weights = np.zeros(0, dtype=np.int64)
    return _ck.pair_information(codes, arities, bits, weights)


def select_candidates(
    strength: np.ndarray,
    k: int,
    forbidden: np.ndarray,
    required: np.ndarray,
    parents: np.ndarray | None = None,
    symmetric: bool = True,
) -> np.ndarray:
    """Candidate matrix ``allowed[v, u]``: may ``u`` become a parent of ``v``.

    Parameters
    ----------
    strength : ndarray, shape (n, n)
        ``strength[v, u]``: how promising ``u`` is as a parent of ``v`` (larger first).
    k : int
        Candidates per child from the ranking (ties to the earlier column).
    forbidden, required : ndarray of bool, shape (n, n)
        The expert knowledge, ``[child, parent]``: required parents are always
        candidates, forbidden ones never (they take no place in the top ``k``).
    parents : ndarray of bool, shape (n, n), optional
        Current parents: kept as candidates, and ranked outside the top ``k``.
    symmetric : bool, default True
        Also make ``v`` a candidate of ``u`` whenever ``u`` is one of ``v``
        (unless forbidden), current parents included: every edge can be reversed.
    """
    n = strength.shape[0]
    forbidden = np.asarray(forbidden, dtype=bool)
    required = np.asarray(required, dtype=bool)
    current = np.zeros((n, n), dtype=bool) if parents is None else np.asarray(parents, dtype=bool)
    allowed = np.zeros((n, n), dtype=bool)
    for v in range(n):
        eligible = ~forbidden[v] & ~current[v]
        eligible[v] = False
        pool = np.flatnonzero(eligible)
        # stable sort of the negated strengths: ties keep the column order
        order = pool[np.argsort(-strength[v, pool], kind="stable")]
        allowed[v, order[:k]] = True
    allowed |= current
    if symmetric:
        allowed |= allowed.T
    allowed &= ~forbidden
    np.fill_diagonal(allowed, False)
    return allowed | required


def as_candidate_spec(candidates, variables) -> int | np.ndarray | None:
    """Validate ``LocalSearch(candidates=...)``: None, ``k`` or a boolean ``[child, parent]``
    matrix from a mapping ``{child: parents}`` (children not listed: no candidates)."""
    if candidates is None:
        return None
    if isinstance(candidates, str):
        if candidates != "auto":
            raise ValueError(
                f"candidates must be None, 'auto', a positive integer or a mapping "
                f"{{child: parents}}, got {candidates!r}."
            )
        return DEFAULT_K
    if isinstance(candidates, Mapping):
        index = {v: i for i, v in enumerate(variables)}
        allowed = np.zeros((len(variables), len(variables)), dtype=bool)
        for child, parents in candidates.items():
            if child not in index:
                raise ValueError(f"candidates names {child!r}, which is not a column of the data.")
            if isinstance(parents, (str, bytes)) or not hasattr(parents, "__iter__"):
                raise TypeError(
                    f"candidates[{child!r}] must be a list of parent names, got {parents!r}."
                )
            for parent in parents:
                if parent not in index:
                    raise ValueError(
                        f"candidates[{child!r}] names {parent!r}, which is not a column "
                        "of the data."
                    )
                if parent == child:
                    raise ValueError(f"candidates[{child!r}] lists {child!r} itself.")
                allowed[index[child], index[parent]] = True
        return allowed
    return as_integer(candidates, "candidates", minimum=1)


def candidate_dict(allowed: np.ndarray, variables) -> dict:
    """``{child: tuple of candidate parents}`` (column order) from ``allowed[v, u]``."""
    return {
        variables[v]: tuple(variables[u] for u in np.flatnonzero(allowed[v]))
        for v in range(len(variables))
    }
