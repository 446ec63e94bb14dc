"""The argument types of the command line: argparse turns their errors into one-line
messages that name the flag (exit code 2). Only the standard library at import."""

from __future__ import annotations

import argparse
import importlib
import math
import os

from ._requests import DISCRETIZE_METHODS


def _positive_float(text):
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}")
    return value


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


_DELIMITER_NAMES = {"tab": "\t", "\\t": "\t", "space": " ", "comma": ",", "semicolon": ";"}


def _delimiter(text):
    value = _DELIMITER_NAMES.get(text.lower(), text)
    if len(value) != 1 or value in '"\r\n':
        raise argparse.ArgumentTypeError(f"must be one character (or tab, space), got {text!r}")
    return value


def delimiter_text(value: str) -> str:
    """``--delimiter``'s text for a delimiter ``_delimiter`` read: a blank by its name
    (``tab``, ``space``), any other character as it is."""
    names = (name for name, char in _DELIMITER_NAMES.items() if char == value)
    return next(names, value) if value.isspace() else value


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


#: Where the parameter specs of the command line's flags are declared (module, class).
_SPEC_OWNERS = {
    "ExactSearch": ("pgmpy_nml.search.exact", "ExactSearch"),
    "LocalSearch": ("pgmpy_nml.search.local", "LocalSearch"),
}


def spec_type(owner: str, parameter: str, flag: str, *, given: bool = False):
    """The argparse type of ``flag``: the library's parameter spec
    ``owner._parameter_specs[parameter]`` (:func:`pgmpy_nml._params.argument_type`), so the
    flag and the parameter take the same values. The spec is imported when the flag is
    read, never for ``--help`` (which must not import numpy). ``given``: a flag whose
    absence already stands for the parameter's None (or ``"auto"``) takes only the other
    values (:func:`pgmpy_nml._params.given_value_spec`)."""

    def parse(text):
        from .._params import argument_type, given_value_spec

        module, name = _SPEC_OWNERS[owner]
        spec = getattr(importlib.import_module(module), name)._parameter_specs[parameter]
        if given:
            spec = given_value_spec(spec)
        return argument_type(spec, flag)(text)

    parse.__name__ = f"{owner}.{parameter}"
    return parse


#: Extensions of data files, for the hint below.
_DATA_EXTENSIONS = (".csv", ".tsv", ".txt", ".dat", ".data", ".gz", ".zip", ".bz2", ".xz")


def _not_a_file(text: str, flag: str) -> None:
    """A flag that takes several values reads on to the next flag, so a data file given
    after it is read as one more value: say so, and where the file goes."""
    if text.lower().endswith(_DATA_EXTENSIONS) or os.path.isfile(text):
        raise argparse.ArgumentTypeError(
            f"got {text!r}, a file name: {flag} takes every value up to the next flag, so give the "
            f"data file before {flag} (or as --data {text})"
        )


def score_name(text):
    """One value of ``--scores`` (argparse then checks it is a score's name)."""
    _not_a_file(text, "--scores")
    return text


#: ``--max-parents K``: a whole number (``LocalSearch``'s ``max_parents`` spec; no flag
#: already means each search's own rule, ``"auto"``).
max_parents = spec_type("LocalSearch", "max_parents", "--max-parents", given=True)


def parent_limit(text):
    """One value of ``cv``'s ``--max-parents``: a whole number (:data:`max_parents`, as
    ``learn`` reads it), or ``default`` (None: the search's own rule, what no flag means;
    :func:`limit_text` writes it back)."""
    if text.strip().lower() == "default":
        return None
    _not_a_file(text, "--max-parents")
    try:
        return max_parents(text)
    except argparse.ArgumentTypeError:
        raise argparse.ArgumentTypeError(
            f"must be a whole number >= 0 or 'default', got {text!r}"
        ) from None


def limit_text(limit: int | None) -> str:
    """A ``--max-parents`` value as :func:`parent_limit` reads it (None: ``default``)."""
    return "default" if limit is None else str(limit)


def _time_limit(text):
    """``--time-limit``: ``ExactSearch``'s ``time_limit`` spec; no limit (``inf``) is
    ``math.inf`` here, since an absent flag (None) means ``learn``'s default limit."""
    value = spec_type("ExactSearch", "time_limit", "--time-limit")(text)
    return math.inf if value is None else value
