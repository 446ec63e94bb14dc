"""Argument checks, in one place: scalars, arrays of counts and codes, choices, resources.

The DataFrame boundary (:mod:`pgmpy_nml._data`) checks data; this module checks every
other argument of the public API. Each function returns the value in the type the
caller computes with (a Python ``int`` of any size, a ``float``, a numpy array) or
raises ``TypeError`` (wrong kind of object) or ``ValueError`` (right kind, value out of
range). Messages follow the boundary's style: they name the argument, state the rule,
show the offending value and, where it helps, say what to do::

    epsilon must lie in [0, 1], got 1.5.
    K must be an integer >= 1 (number of categories), got 0
    counts must be non-negative integers, found -2 at index (1,)

``owner`` (a class name) is put in front when the check guards a constructor argument,
so that a message read far from the call still says whose argument it was.
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from .exceptions import InputError

__all__ = [
    "as_bool",
    "as_choice",
    "as_code_sequence",
    "as_count_array",
    "as_gap_limit",
    "as_integer",
    "as_integer_array",
    "as_integer_list",
    "as_integer_vector",
    "as_memory_size",
    "as_n_jobs",
    "as_real",
    "as_real_array",
    "as_time_limit",
    "describe",
]


def describe(value: Any) -> str:
    """How a message shows an argument of the wrong type: ``the boolean True``, ``None``, ..."""
    if isinstance(value, (bool, np.bool_)):
        return f"the boolean {value!r}"
    if value is None:
        return "None"
    shown = repr(value)
    kind = f"an object of type {type(value).__name__}"
    return f"{kind} ({shown})" if len(shown) <= 40 else kind


def _prefix(owner: str | None) -> str:
    return f"{owner}: " if owner else ""


# --------------------------------------------------------------------------------------
# Scalars
# --------------------------------------------------------------------------------------
def as_integer(
    value: Any, name: str, minimum: int = 0, what: str = "", *, maximum: float | None = None
) -> int:
    """Validate a scalar integer and return it as a Python int (exact, any size).

    Accepts Python and numpy integers, 0-d arrays and floats with an integral
    value; rejects booleans, NaN, infinities, fractions and non-numbers with a
    message naming ``name``, the rule and the offending value. ``what`` is a
    short gloss added to the message for values out of range; ``maximum`` is an
    optional upper bound (a float bound is compared with the value rounded to
    float64, the value the caller will compute with).

    Examples
    --------
    >>> as_integer(3.0, "n")
    3
    >>> as_integer(0, "K", minimum=1, what=" (number of categories)")
    Traceback (most recent call last):
    ...
    pgmpy_nml.exceptions.InputError: K must be an integer >= 1 (number of categories), got 0
    """
    kind = "a non-negative integer" if minimum == 0 else f"an integer >= {minimum}"
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be {kind}, got the boolean {value!r}")
    shown = value
    if isinstance(value, numbers.Integral):
        value = int(value)
    elif isinstance(value, numbers.Real):
        as_float = float(value)
        if math.isnan(as_float):
            raise InputError(f"{name} must be {kind}, got NaN")
        if not math.isfinite(as_float) or as_float != math.floor(as_float):
            raise InputError(f"{name} must be {kind}, got {as_float!r}")
        value = int(as_float)
    else:
        raise TypeError(f"{name} must be {kind}, got an object of type {type(value).__name__}")
    if value < minimum:
        raise InputError(f"{name} must be {kind}{what}, got {shown!r}")
    if maximum is not None and _above(value, maximum):
        big = f"an integer of about 2**{value.bit_length()}" if value > 10**30 else repr(value)
        raise InputError(f"{name} must be at most {_show_bound(maximum)}{what}, got {big}")
    return value


def _above(value: int, maximum: float) -> bool:
    """``value > maximum``; against a float bound, after rounding ``value`` to float64."""
    if isinstance(maximum, float):
        return (float(value) if value.bit_length() <= 1020 else math.inf) > maximum
    return value > maximum


def _show_bound(bound: float) -> str:
    """``2**53`` for a large power of two, ``1e+305`` for a float."""
    if isinstance(bound, int) and bound > 2**20 and bound & (bound - 1) == 0:
        return f"2**{bound.bit_length() - 1}"
    return f"{bound:g}" if isinstance(bound, float) else str(bound)


def _real_rule(low, high, low_open, high_open, allow_inf) -> tuple[str, str]:
    """(what a wrong type is told it must be, what a wrong value is told it must do)."""
    if high is None and low == 0:
        noun = "a positive number" if low_open else "a non-negative real number"
        if allow_inf:
            return noun, f"be {noun} or inf"
        return noun, "be a finite number > 0" if low_open else f"be a finite {noun[2:]}"
    if high is None and low is None:
        return "a real number", "be a real number" if allow_inf else "be a finite real number"
    if high is None:
        op = ">" if low_open else ">="
        return f"a number {op} {low:g}", f"be a {'' if allow_inf else 'finite '}number {op} {low:g}"
    left = "(" if low_open else "["
    right = ")" if high_open else "]"
    return "a number", f"lie in {left}{low:g}, {high:g}{right}"


def as_real(
    value: Any,
    name: str,
    *,
    low: float | None = 0.0,
    high: float | None = None,
    low_open: bool = False,
    high_open: bool = False,
    allow_inf: bool = False,
    owner: str | None = None,
    hint: str = "",
) -> float:
    """Validate a real scalar in a range and return it as a float.

    The range is ``[low, high]``, with ``low_open`` / ``high_open`` excluding an end
    and ``None`` for no bound; NaN is always refused, infinities unless
    ``allow_inf``. Booleans and non-numbers raise ``TypeError``. ``hint`` is appended
    to the message (say what to do).

    Examples
    --------
    >>> as_real(2, "alpha", low_open=True)
    2.0
    >>> as_real(0, "alpha", low_open=True, owner="BDConstant")
    Traceback (most recent call last):
    ...
    pgmpy_nml.exceptions.InputError: BDConstant: alpha must be a finite number > 0, got 0.
    >>> as_real(1.5, "epsilon", high=1.0)
    Traceback (most recent call last):
    ...
    pgmpy_nml.exceptions.InputError: epsilon must lie in [0, 1], got 1.5.
    """
    noun, rule = _real_rule(low, high, low_open, high_open, allow_inf)
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value.item()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{_prefix(owner)}{name} must be {noun}, got {describe(value)}.{hint}")
    try:
        number = float(value)
    except OverflowError:  # a huge Python int
        number = -math.inf if value < 0 else math.inf  # numbers.Real declares only <, <=
    ok = not math.isnan(number) and (allow_inf or math.isfinite(number))
    if ok and low is not None:
        ok = number > low if low_open else number >= low
    if ok and high is not None:
        ok = number < high if high_open else number <= high
    if not ok:
        raise InputError(f"{_prefix(owner)}{name} must {rule}, got {value!r}.{hint}")
    return number


def as_bool(value: Any, name: str) -> bool:
    """A Python or numpy boolean, as ``bool`` (``0`` and ``1`` are refused).

    Examples
    --------
    >>> as_bool(True, "relaxed")
    True
    """
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {value!r}")
    return bool(value)


def as_choice(value: Any, name: str, choices: Sequence, *, owner: str | None = None) -> Any:
    """``value`` if it is one of ``choices``; otherwise a message that lists them.

    Examples
    --------
    >>> as_choice("tabu", "method", ("hill", "tabu"))
    'tabu'
    >>> as_choice("greedy", "method", ("hill", "tabu"))
    Traceback (most recent call last):
    ...
    pgmpy_nml.exceptions.InputError: method must be one of 'hill', 'tabu', got 'greedy'.
    """
    try:
        known = value in choices
    except TypeError:  # unhashable value and a set of choices
        known = False
    if not known:
        listed = ", ".join(repr(c) for c in choices)
        raise InputError(f"{_prefix(owner)}{name} must be one of {listed}, got {value!r}.")
    return value


# --------------------------------------------------------------------------------------
# Resources
# --------------------------------------------------------------------------------------
def as_n_jobs(value: Any, name: str = "n_jobs") -> int:
    """Number of worker threads from scikit-learn's ``n_jobs`` convention.

    ``None`` means one worker (scikit-learn's meaning), a positive integer that
    many workers, ``-1`` every core, ``-2`` all but one, and so on (never fewer
    than one).

    Examples
    --------
    >>> as_n_jobs(2), as_n_jobs(None)
    (2, 1)
    >>> as_n_jobs(-1) == (os.cpu_count() or 1)
    True
    """
    cores = os.cpu_count() or 1
    if value is None:
        return 1
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer or None, got {value!r}.")
    if value == 0:
        raise InputError(f"{name} must be a positive number of workers, -1 for all cores, or None.")
    return int(value) if int(value) > 0 else max(1, cores + 1 + int(value))


def as_memory_size(value: Any, name: str = "max_memory") -> float:
    """A positive, finite number of bytes, as a float.

    Examples
    --------
    >>> as_memory_size(8e9)
    8000000000.0
    """
    return as_real(value, name, low_open=True, hint=" Give a number of bytes, e.g. 8e9 for 8 GB.")


#: Time limits of at least this many seconds (3e12 years; SCIP's infinity, the largest
#: limit it takes) mean no limit.
NO_TIME_LIMIT_FROM = 1e20


def as_time_limit(value: Any, name: str = "time_limit") -> float | None:
    """A positive number of seconds, or ``None`` for no limit (``inf``, and any limit of
    :data:`NO_TIME_LIMIT_FROM` seconds or more, mean no limit too).

    Examples
    --------
    >>> as_time_limit(60)
    60.0
    >>> as_time_limit(None) is None
    True
    >>> as_time_limit(float("inf")) is None, as_time_limit(1e30) is None
    (True, True)
    """
    if value is None:
        return None
    hint = " Give a number of seconds, or None for no limit."
    seconds = as_real(value, name, low_open=True, allow_inf=True, hint=hint)
    return None if seconds >= NO_TIME_LIMIT_FROM else seconds


def as_gap_limit(value: Any, name: str = "gap_limit") -> float:
    """A relative gap at which an exact search may stop: a number ``>= 0`` (0: optimal).

    Examples
    --------
    >>> as_gap_limit(0.01)
    0.01
    """
    return as_real(value, name, hint=" Give a relative gap such as 0.01, or 0 for optimal.")


# --------------------------------------------------------------------------------------
# Arrays
# --------------------------------------------------------------------------------------
def as_real_array(values: Any, name: str) -> np.ndarray:
    """An array-like of finite reals ``>= 0``, as float64 (any shape).

    Examples
    --------
    >>> as_real_array([0, 2.5], "N")
    array([0. , 2.5])
    """
    arr = np.asarray(values)
    if arr.dtype.kind == "b":
        raise TypeError(f"{name} must contain non-negative real numbers, got a boolean array")
    if arr.dtype.kind == "O":
        return np.array([as_real(v, name) for v in arr.ravel()], dtype=np.float64).reshape(
            arr.shape
        )
    if arr.dtype.kind not in "iuf":
        raise TypeError(f"{name} must contain non-negative real numbers, got dtype {arr.dtype}")
    out = arr.astype(np.float64)
    bad = ~np.isfinite(out) | (out < 0)
    if bad.any():
        raise InputError(
            f"{name} must contain finite non-negative real numbers, "
            f"found {out[bad].flat[0].item()!r}"
        )
    return out


def as_integer_array(
    values: Any, name: str, minimum: int = 0, what: str = "", *, maximum: int | None = None
) -> np.ndarray:
    """An array-like of integers in ``[minimum, maximum]``, as int64 (any shape).

    Floats with integral values are accepted; booleans, NaN, fractions and
    non-numbers are refused, as by :func:`as_integer` for each entry.

    Examples
    --------
    >>> as_integer_array([3, 4.0], "n")
    array([3, 4])
    >>> as_integer_array([1, -2], "n", what=" (sample sizes)")
    Traceback (most recent call last):
    ...
    pgmpy_nml.exceptions.InputError: n must contain non-negative integers (sample sizes), found -2
    """
    kind = "non-negative integers" if minimum == 0 else f"integers >= {minimum}"
    try:
        arr = np.asarray(values)
    except (ValueError, TypeError) as exc:  # ragged input etc.
        raise TypeError(f"{name} must be an integer or an array-like of integers: {exc}") from exc
    dtype = arr.dtype.kind
    if dtype == "b":
        raise TypeError(f"{name} must contain {kind}, got a boolean array")
    if arr.size == 0 and dtype in "iufO":
        return arr.astype(np.int64)
    if dtype == "O":
        try:
            ints = [as_integer(v, name, minimum, what, maximum=maximum) for v in arr.ravel()]
        except (TypeError, ValueError) as exc:
            raise (InputError if isinstance(exc, ValueError) else type(exc))(
                f"invalid entry in {name}: {exc}"
            ) from exc
        return np.array(ints, dtype=np.int64).reshape(arr.shape)
    if dtype not in "iuf":
        raise TypeError(
            f"{name} must be an integer or an array-like of integers, got dtype {arr.dtype}"
        )
    if dtype == "f":
        if np.isnan(arr).any():
            raise InputError(f"{name} must contain {kind}, found NaN")
        bad = ~np.isfinite(arr) | (arr != np.floor(arr))
        if bad.any():
            raise InputError(
                f"{name} must contain {kind}, found the non-integral value "
                f"{arr[bad].flat[0].item()!r}"
            )
    low, high = arr.min(), arr.max()
    if low < minimum:
        raise InputError(f"{name} must contain {kind}{what}, found {low.item()!r}")
    if maximum is not None and high > maximum:
        raise InputError(f"{name} must be at most {_show_bound(maximum)}, found {high.item()!r}")
    return arr.astype(np.int64, copy=False)


def as_count_array(
    counts: Any, name: str = "counts", *, ndim: int | None = None, integral: bool = True
) -> np.ndarray:
    """An array of non-negative integer counts whose last axis is not empty.

    Integer arrays come back as they are, other input as float64 with integral
    values (floats such as ``3.0`` are counts too). ``ndim`` fixes the number of
    axes, e.g. 2 for a family's ``(q, r)`` table. ``integral=False`` also takes
    fractional counts (expected counts, as EM's E-step gives): finite and
    non-negative.

    Examples
    --------
    >>> as_count_array([[3, 1], [0, 2]], ndim=2).tolist()
    [[3, 1], [0, 2]]
    >>> as_count_array([1, -2])
    Traceback (most recent call last):
    ...
    pgmpy_nml.exceptions.InputError: counts must be non-negative integers, found -2 at index (1,)
    """
    try:
        arr = np.asarray(counts)
    except (ValueError, TypeError) as exc:
        raise TypeError(f"{name} must be an array-like of non-negative integers: {exc}") from exc
    kind = arr.dtype.kind
    if kind == "b":
        raise TypeError(f"{name} must contain non-negative integers, got a boolean array")
    if kind == "O":
        try:
            arr = np.array(
                [as_integer(v, "each count", 0) for v in arr.ravel()], dtype=np.float64
            ).reshape(arr.shape)
        except (TypeError, ValueError) as exc:
            raise (InputError if isinstance(exc, ValueError) else type(exc))(
                f"invalid entry in {name}: {exc}"
            ) from exc
        except OverflowError:
            raise InputError(f"{name} are too large for float64") from None
        kind = "f"
    elif kind not in "iuf":
        raise TypeError(f"{name} must be an array-like of non-negative integers, got {arr.dtype}")
    if ndim is not None and arr.ndim != ndim:
        raise InputError(f"{name} must be a {ndim}-D table, got shape {arr.shape}")
    if arr.ndim == 0:
        raise InputError(
            f"{name} must have at least one dimension (the last axis runs over the K values)"
        )
    if arr.shape[-1] == 0:
        raise InputError(f"{name} must have at least one value on the last axis, shape {arr.shape}")
    if kind in "iu":
        out, bad = arr, (arr < 0) if arr.size and arr.min() < 0 else None
    else:
        out = arr.astype(np.float64)
        bad = ~np.isfinite(out) | (out < 0) if out.size else None
        if integral and bad is not None:
            bad |= out != np.floor(out)
    if bad is not None and bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        found = arr[idx].item()
        what = "non-negative integers" if integral else "finite and non-negative"
        raise InputError(f"{name} must be {what}, found {found!r} at index {idx}")
    return out


def as_integer_vector(values: Any, name: str) -> np.ndarray:
    """``values`` as a one-dimensional array, its entries still to check (meant: integers).

    Examples
    --------
    >>> as_integer_vector([[0, 1]], "groups")
    Traceback (most recent call last):
    ...
    pgmpy_nml.exceptions.InputError: groups must be one-dimensional, got an array of shape (1, 2)
    """
    try:
        arr = np.asarray(values)
    except (ValueError, TypeError) as exc:
        raise TypeError(f"{name} must be a 1-D array-like of integers: {exc}") from exc
    if arr.ndim != 1:
        raise InputError(f"{name} must be one-dimensional, got an array of shape {arr.shape}")
    return arr


def as_code_sequence(sequence: Any, K: int, name: str = "sequence") -> np.ndarray:
    """A 1-D sequence of codes in ``0..K-1``, as int64.

    Examples
    --------
    >>> as_code_sequence([0, 2, 1], 3)
    array([0, 2, 1])
    >>> as_code_sequence([0, 3], 3)
    Traceback (most recent call last):
    ...
    pgmpy_nml.exceptions.InputError: sequence values must lie in 0..2 (K = 3), found 3 at position 1
    """
    arr = as_integer_vector(sequence, name)
    kind = arr.dtype.kind
    if kind == "b":
        raise TypeError(f"{name} must contain integers in 0..K-1, got a boolean array")
    if arr.size == 0:
        return np.zeros(0, dtype=np.int64)
    out_of_range = f"{name} values must lie in 0..{K - 1} (K = {K}), found {{}} at position {{}}"
    if kind == "O":
        vals = []
        for t, v in enumerate(arr):
            try:
                v = as_integer(v, "each value", 0)
            except (TypeError, ValueError) as exc:
                raise type(exc)(f"invalid value at position {t} of {name}: {exc}") from None
            if v >= K:
                raise InputError(out_of_range.format(v, t))
            vals.append(v)
        return np.array(vals, dtype=np.int64)
    if kind == "f":
        bad = ~np.isfinite(arr) | (arr != np.floor(arr))
        if bad.any():
            t = int(np.flatnonzero(bad)[0])
            raise InputError(
                f"{name} must contain integers in 0..{K - 1}, found {arr[t].item()!r} "
                f"at position {t}"
            )
    elif kind not in "iu":
        raise TypeError(f"{name} must be a 1-D array-like of integers, got dtype {arr.dtype}")
    bad = (arr < 0) | (arr >= min(K, 2**63 - 1))
    if bad.any():
        t = int(np.flatnonzero(bad)[0])
        raise InputError(out_of_range.format(repr(arr[t].item()), t))
    return arr.astype(np.int64)


def as_integer_list(values: Any, name: str, minimum: int = 1) -> list[int]:
    """A scalar or 1-D array-like of integers ``>= minimum``, as a list of Python ints.

    Python ints of any size pass unchanged (a number of parent configurations may
    exceed every fixed-width type).

    Examples
    --------
    >>> as_integer_list([2, 3.0], "arities")
    [2, 3]
    >>> as_integer_list(4, "arities")
    [4]
    """
    if isinstance(values, (list, tuple)):
        items = list(values)
    else:
        arr = np.asarray(values, dtype=object) if np.ndim(values) else None
        if arr is None:
            items = [values]
        elif arr.ndim != 1:
            raise InputError(f"{name} must be one-dimensional, got shape {arr.shape}")
        else:
            items = list(arr)
    out = []
    for i, v in enumerate(items):
        if np.ndim(v) != 0:
            raise InputError(f"{name} must be one-dimensional, entry {i} is {v!r}")
        out.append(as_integer(v, f"{name}[{i}]", minimum))
    return out
