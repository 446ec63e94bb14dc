"""The train/test splits of a cross-validation: drawn (:func:`cv_splits`) or the user's
(:func:`user_splits`), and their mapping under the missing-value policy.

Part of :mod:`pgmpy_nml.study.cross_validation`, which exports these functions.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .._validate import as_integer
from ..exceptions import InputError

if TYPE_CHECKING:
    from collections.abc import Hashable
    from typing import Any

    from .._typing import RandomState

__all__ = ["cv_splits", "user_splits"]


def cv_splits(
    n_samples: int,
    *,
    scheme: str = "k-fold",
    k: int = 10,
    runs: int = 1,
    test_size: int | float | None = None,
    random_state: RandomState = None,
) -> list[tuple[int, int, np.ndarray, np.ndarray]]:
    """Train and test rows of every split, drawn once from one random generator.

    Parameters
    ----------
    n_samples : int
    scheme : {"k-fold", "hold-out"}, default "k-fold"
        ``"k-fold"``: each run permutes the rows and cuts them into ``k`` folds of
        sizes differing by at most one; each fold is the test set once, so the test
        sets of a run partition the rows. ``"hold-out"``: ``k`` independent random
        splits per run, each with ``test_size`` test rows.
    k : int, default 10
    runs : int, default 1
        Repetitions with fresh permutations.
    test_size : int or float, optional
        Hold-out only: test rows (an int) or fraction of the rows (a float in (0, 1));
        default ``ceil(n_samples / k)``.
    random_state : int or numpy Generator, optional
        ``np.random.default_rng(random_state)`` draws one permutation per split
        (hold-out) or per run (k-fold), in order.

    Returns
    -------
    list of (run, fold, train, test)
        ``train`` and ``test`` are sorted int64 arrays of row positions.

    Examples
    --------
    >>> from pgmpy_nml.study import cv_splits
    >>> splits = cv_splits(10, scheme="k-fold", k=3, random_state=0)
    >>> [len(test) for _, _, _, test in splits]
    [4, 3, 3]
    >>> sorted(int(i) for _, _, _, test in splits for i in test) == list(range(10))
    True
    """
    n = as_integer(n_samples, "n_samples", 2)
    k = as_integer(k, "k", 2)
    runs = as_integer(runs, "runs", 1)
    rng = np.random.default_rng(random_state)
    splits = []
    if scheme == "k-fold":
        if k > n:
            raise InputError(f"k = {k} folds need at least {k} rows; the data have {n}.")
        for run in range(runs):
            order = rng.permutation(n)
            for fold, test in enumerate(np.array_split(order, k)):
                mask = np.ones(n, dtype=bool)
                mask[test] = False
                splits.append((run, fold, np.flatnonzero(mask), np.sort(test)))
        return splits
    if scheme != "hold-out":
        raise ValueError(f"scheme must be 'k-fold' or 'hold-out', got {scheme!r}.")
    if test_size is None:
        m = math.ceil(n / k)
    elif isinstance(test_size, float) and not float(test_size).is_integer():
        if not 0 < test_size < 1:
            raise InputError(f"A fractional test_size must be in (0, 1), got {test_size!r}.")
        m = round(test_size * n)
    else:
        m = as_integer(test_size, "test_size", 1)
    if not 1 <= m < n:
        raise InputError(f"test_size must leave at least one training row: {m} of {n} rows.")
    for run in range(runs):
        for fold in range(k):
            order = rng.permutation(n)
            splits.append((run, fold, np.sort(order[m:]), np.sort(order[:m])))
    return splits


def user_splits(
    cv: Any, data: pd.DataFrame, target: Hashable | None = None
) -> list[tuple[int, int, np.ndarray, np.ndarray]]:
    """The user's own splits, checked: a scikit-learn splitter or (train, test) index pairs.

    Parameters
    ----------
    cv : splitter or iterable of (train, test)
        An object with ``split(X, y)`` (``KFold``, ``StratifiedKFold``,
        ``RepeatedKFold``, ``TimeSeriesSplit``, ...), called as
        ``cv.split(data, data[target])`` (``y`` is None without a target; for groups,
        pass ``list(cv.split(X, y, groups))``); or an iterable of pairs of row
        positions (integer arrays, or boolean masks over the rows).
    data : pandas.DataFrame
    target : hashable, optional

    Returns
    -------
    list of (run, fold, train, test)
        Run 0, folds numbered in order; sorted int64 row positions.

    Raises
    ------
    ValueError
        A split that is not a pair, positions that are not whole numbers or lie
        outside the rows, a row repeated within a part or in both parts, an empty part.

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn.model_selection import KFold
    >>> from pgmpy_nml.study.cross_validation import user_splits
    >>> data = pd.DataFrame({"A": [0, 1, 0, 1, 1, 0]})
    >>> [test.tolist() for *_, test in user_splits(KFold(3), data)]
    [[0, 1], [2, 3], [4, 5]]
    >>> user_splits([([0, 1, 2], [2, 3])], data)
    Traceback (most recent call last):
    ...
    ValueError: cv split 0: row 2 is both a training and a test row.
    """
    n = len(data)
    if isinstance(cv, (str, bytes, Mapping, pd.DataFrame)) or not (
        callable(getattr(cv, "split", None)) or hasattr(cv, "__iter__")
    ):
        raise TypeError(
            "cv must be a scikit-learn splitter (an object with split()) or a list of "
            f"(train, test) pairs of row positions, got {type(cv).__name__}."
        )
    if callable(getattr(cv, "split", None)):
        y = data[target] if target is not None else None
        try:
            pairs = list(cv.split(data, y))
        except (TypeError, ValueError) as err:
            reason = str(err).rstrip(".")
            raise ValueError(
                f"cv.split(data, y) of {type(cv).__name__} failed ({reason}). Give the splits "
                "yourself instead: cv=list(splitter.split(X, y, groups))."
            ) from None
    else:
        pairs = list(cv)
    if not pairs:
        raise ValueError("cv gives no split: give at least one (train, test) pair.")
    splits = []
    for i, pair in enumerate(pairs):
        try:
            train, test = pair
        except (TypeError, ValueError):
            raise ValueError(
                f"cv split {i} is not a (train, test) pair: got {type(pair).__name__}."
            ) from None
        train = _positions(train, n, f"cv split {i}", "training")
        test = _positions(test, n, f"cv split {i}", "test")
        both = np.intersect1d(train, test)
        if len(both):
            raise ValueError(f"cv split {i}: row {both[0]} is both a training and a test row.")
        splits.append((0, i, train, test))
    return splits


def _positions(part, n, where, what) -> np.ndarray:
    """One part of a split as sorted, distinct row positions within ``range(n)``."""
    values = np.asarray(part)
    if values.ndim != 1:
        raise ValueError(f"{where}: the {what} rows must be a flat list of row positions.")
    if values.dtype == bool:
        if len(values) != n:
            raise ValueError(f"{where}: the {what} mask has {len(values)} entries for {n} rows.")
        values = np.flatnonzero(values)
    elif values.size and not np.issubdtype(values.dtype, np.integer):
        raise ValueError(
            f"{where}: the {what} rows must be integer row positions (0 to {n - 1}), "
            f"got {values.dtype} values such as {values[0]!r}."
        )
    values = values.astype(np.int64)
    if len(values) == 0:
        raise ValueError(f"{where} has no {what} rows.")
    outside = values[(values < 0) | (values >= n)]
    if len(outside):
        raise ValueError(
            f"{where}: {what} row {outside[0]} is outside the {n} rows (positions 0 to "
            f"{n - 1}; positions, not index labels)."
        )
    ordered = np.sort(values)
    repeated = ordered[1:][ordered[1:] == ordered[:-1]]
    if len(repeated):
        raise ValueError(f"{where}: {what} row {repeated[0]} is listed twice.")
    return ordered


def _splits(data, cv, scheme, k, runs, test_size, random_state, target, missing):
    """The splits (the user's, or drawn) of ``data``, and ``data`` under the missing policy.

    User splits index the rows of the data as given; with ``missing="drop"`` they are
    mapped to the complete rows (an incomplete row leaves its split).
    """
    from ._procedure import apply_missing_policy

    if cv is None:
        data = apply_missing_policy(data, missing)
        scheme = "k-fold" if scheme is None else scheme
        k = 10 if k is None else k
        return data, cv_splits(
            len(data),
            scheme=scheme,
            k=k,
            runs=runs,
            test_size=test_size,
            random_state=random_state,
        )
    given = [
        name
        for name, value, default in (
            ("scheme", scheme, None),
            ("k", k, None),
            ("runs", runs, 1),
            ("test_size", test_size, None),
            ("random_state", random_state, None),
        )
        if value is not default and value != default
    ]
    if given:
        raise ValueError(
            f"cv gives the splits, so {', '.join(given)} cannot be given too: drop "
            f"{'them' if len(given) > 1 else 'it'}, or leave cv=None."
        )
    splits = user_splits(cv, data, target)
    if missing == "drop":
        complete = np.flatnonzero(data.notna().all(axis=1).to_numpy())
        data = apply_missing_policy(data, missing)
        mapped = []
        for run, fold, train, test in splits:
            train = np.searchsorted(complete, np.intersect1d(train, complete))
            test = np.searchsorted(complete, np.intersect1d(test, complete))
            if len(train) == 0 or len(test) == 0:
                raise ValueError(
                    f"cv split {fold} has no complete {'training' if not len(train) else 'test'}"
                    " rows left after dropping the incomplete ones (missing='drop')."
                )
            mapped.append((run, fold, train, test))
        splits = mapped
    return data, splits
