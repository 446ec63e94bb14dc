"""Parent sets as arrays and back: the two forms the candidates travel in.

The engines read parent sets as rows of positions padded with -1 (``padded``) with
their sizes (``size``); :class:`~._files.CandidateParentSets` holds them as tuples.
Converting millions of sets one by one in Python takes tens of seconds (9,597,500 sets
of baudio with three parents: 13 s per conversion), so both directions are vectorized
here, once, for the candidates object, its pickle and the engines' families.
"""

from __future__ import annotations

import contextlib
import gc
import itertools

import numpy as np

__all__: list[str] = []


def padded_rows(sets) -> tuple[np.ndarray, np.ndarray]:
    """The parent sets ``sets`` (a sequence of tuples of positions) as ``(padded, size)``:
    row ``k`` of ``padded`` holds ``sets[k]`` then -1 (at least one column), ``size[k]``
    its length.

    Examples
    --------
    >>> padded, size = padded_rows([(), (2,), (0, 3)])
    >>> padded.tolist(), size.tolist()
    ([[-1, -1], [2, -1], [0, 3]], [0, 1, 2])
    """
    size = np.fromiter(map(len, sets), dtype=np.int64, count=len(sets))
    width = max(1, int(size.max(initial=0)))
    flat = np.fromiter(itertools.chain.from_iterable(sets), dtype=np.int64, count=int(size.sum()))
    padded = np.full((len(sets), width), -1, dtype=np.int64)
    row = np.repeat(np.arange(len(sets)), size)
    slot = np.arange(flat.size) - np.repeat(np.cumsum(size) - size, size)
    padded[row, slot] = flat
    return padded, size


def tuple_rows(padded: np.ndarray, size: np.ndarray) -> list[tuple[int, ...]]:
    """The rows of ``padded`` as tuples of their first ``size`` entries (the inverse of
    :func:`padded_rows`), built a column at a time for each size, with the cyclic
    garbage collector paused (tuples of integers hold no cycle; otherwise each of its
    passes walks the millions already built: half the time).

    Examples
    --------
    >>> tuple_rows(*padded_rows([(), (2,), (0, 3)]))
    [(), (2,), (0, 3)]
    """
    with collector_paused():
        return _tuple_rows(padded, size)


@contextlib.contextmanager
def collector_paused():
    """Pause Python's cyclic garbage collector inside the block (then restore it)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _tuple_rows(padded: np.ndarray, size: np.ndarray) -> list[tuple[int, ...]]:
    pieces, where = [], []
    for length in np.unique(size).tolist():
        rows = np.flatnonzero(size == length)
        columns = padded[rows, :length].T.tolist()
        pieces.append(zip(*columns, strict=True) if length else itertools.repeat((), rows.size))
        where.append(rows)
    grouped = list(itertools.chain.from_iterable(pieces))  # by size, then by row
    at = np.empty(len(size), dtype=np.int64)
    if where:
        at[np.concatenate(where)] = np.arange(len(size))
    return list(map(grouped.__getitem__, at.tolist()))


def split_by(sets: list, scores) -> list[tuple]:
    """``sets`` (every variable's, one after the other) cut into one tuple per variable,
    as long as its ``scores``.

    Examples
    --------
    >>> split_by([(), (1,), ()], [[-1.0, -2.0], [-3.0]])
    [((), (1,)), ((),)]
    """
    ends = np.cumsum([len(x) for x in scores]).tolist()
    return [tuple(sets[lo:hi]) for lo, hi in zip([0, *ends[:-1]], ends, strict=True)]
