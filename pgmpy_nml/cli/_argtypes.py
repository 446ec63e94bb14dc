"""The argument types of the command line: argparse turns their errors into one-line
messages that name the flag (exit code 2). Only the standard library at import."""

from __future__ import annotations

import argparse
import math

from ._common import DISCRETIZE_METHODS


def _positive_float(text):
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}")
    return value


def _time_limit(text):
    """Seconds (a positive number), or ``inf`` / ``none`` for no limit (``math.inf``)."""
    if text.strip().lower() in ("inf", "none", "no", "unlimited"):
        return math.inf
    return _positive_float(text)


def _non_negative_int(text):
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 0, got {text!r}")
    return value


def _whole_number_at_least(minimum, what=""):
    """An argparse type: a whole number >= ``minimum`` (argparse names the flag)."""

    def parse(text):
        try:
            value = int(text)
        except ValueError:
            value = minimum - 1
        if value < minimum:
            raise argparse.ArgumentTypeError(
                f"must be a whole number >= {minimum}{what}, got {text!r}"
            )
        return value

    parse.__name__ = f"whole number >= {minimum}"
    return parse


def _test_size(text):
    """``--test-size``: a count of rows (a whole number >= 1) or a fraction in (0, 1)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0 and (value < 1 or value.is_integer())):
        raise argparse.ArgumentTypeError(
            f"must be a number of test rows (a whole number >= 1) or a fraction between 0 "
            f"and 1, got {text!r}"
        )
    return value if value < 1 else int(value)


def _n_jobs(text):
    """``--n-jobs``: scikit-learn's ``n_jobs``, checked by the library's rule (``as_n_jobs``)."""
    from .._validate import as_n_jobs

    try:
        value = int(text)
        as_n_jobs(value, "--n-jobs")
    except (TypeError, ValueError):
        raise argparse.ArgumentTypeError(
            f"must be a number of threads >= 1, or -1 for all cores (-2 all but one, ...), "
            f"got {text!r}"
        ) from None
    return value


_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


def _memory_size(text):
    """``--max-memory``: bytes with a unit (8G, 500M), checked by the library's rule
    (``as_memory_size``)."""
    from .._validate import as_memory_size

    number = text.strip().upper().removesuffix("B").removesuffix("I")
    unit = number[-1:] if number[-1:] in _UNITS else ""
    try:
        return as_memory_size(float(number[: len(number) - len(unit)]) * _UNITS[unit])
    except (TypeError, ValueError):
        raise argparse.ArgumentTypeError(
            f"must be a size such as 8G or 500M, got {text!r}"
        ) from None


_DELIMITER_NAMES = {"tab": "\t", "\\t": "\t", "space": " ", "comma": ",", "semicolon": ";"}


def _delimiter(text):
    value = _DELIMITER_NAMES.get(text.lower(), text)
    if len(value) != 1 or value in '"\r\n':
        raise argparse.ArgumentTypeError(f"must be one character (or tab, space), got {text!r}")
    return value


def _discretization(text):
    """``METHOD[:BINS]`` -> ``(method, bins)``, e.g. ``quantile:4``."""
    method, _, bins = text.partition(":")
    method = method.strip().lower()
    if method not in DISCRETIZE_METHODS:
        raise argparse.ArgumentTypeError(
            f"must be METHOD[:BINS] with METHOD one of {', '.join(DISCRETIZE_METHODS)}, "
            f"got {text!r}"
        )
    try:
        n_bins = int(bins) if bins else 3
    except ValueError:
        n_bins = 0
    if n_bins < 2:
        raise argparse.ArgumentTypeError(f"BINS must be a whole number >= 2, got {text!r}")
    return method, n_bins


def _comma_list(text):
    """``"A, B,"`` -> ``("A", "B")``; ``""`` -> ``()``."""
    return tuple(item.strip() for item in text.split(",") if item.strip())
