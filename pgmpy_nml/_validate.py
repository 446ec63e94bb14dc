"""Scalar argument checks shared by the numerical modules."""

from __future__ import annotations

import math
import numbers

import numpy as np

__all__ = ["as_integer"]


def as_integer(value, name: str, minimum: int = 0, what: str = "") -> int:
    """Validate a scalar integer and return it as a Python int (exact, any size).

    Accepts Python and numpy integers, 0-d arrays and floats with an integral
    value; rejects booleans, NaN, infinities, fractions and non-numbers with a
    message naming ``name``, the rule and the offending value. ``what`` is a
    short gloss added to the message for values below ``minimum``.
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
            raise ValueError(f"{name} must be {kind}, got NaN")
        if not math.isfinite(as_float) or as_float != math.floor(as_float):
            raise ValueError(f"{name} must be {kind}, got {as_float!r}")
        value = int(as_float)
    else:
        raise TypeError(f"{name} must be {kind}, got an object of type {type(value).__name__}")
    if value < minimum:
        raise ValueError(f"{name} must be {kind}{what}, got {shown!r}")
    return value
