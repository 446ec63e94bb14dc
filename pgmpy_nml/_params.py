"""Declared parameter specs: every estimator parameter checked once, at ``fit`` entry.

As scikit-learn's ``_parameter_constraints``, an estimator declares what each of its
constructor parameters may be, in a class attribute ``_parameter_specs``
(``{name: spec}``), and ``fit`` starts with :func:`validate_params`, which checks
them all, whatever method or branch then runs, and returns the values in the
types the estimator computes with. The specs reuse the argument checks of
:mod:`pgmpy_nml._validate` (one formula per concept), so a parameter refused by
an estimator is refused with the message the lower-level function would give.

The command line builds its argument types from the same specs
(:func:`argument_type`): ``spec.parse(text, flag)`` reads the text of a flag and
checks it with the same rule, the message naming the flag, so a flag and the
parameter it sets cannot disagree.

Examples
--------
>>> from pgmpy_nml._params import Integer, NoneOr, TimeLimit, validate_params
>>> Integer(minimum=1).validate(3.0, "tabu_length")
3
>>> NoneOr(Integer()).validate(None, "max_parents") is None
True
>>> TimeLimit().validate(-1, "time_limit")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pgmpy_nml.exceptions.InputError: time_limit must be a positive number or inf, got -1. ...
>>> TimeLimit().parse("inf", "--time-limit") is None
True
"""

from __future__ import annotations

import argparse
import numbers
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ._limits import CANDIDATE_METHODS
from ._validate import (
    InputError,
    as_bool,
    as_choice,
    as_gap_limit,
    as_integer,
    as_memory_size,
    as_n_jobs,
    as_real,
    as_time_limit,
    describe,
)

__all__ = [
    "EXACT_METHODS",
    "LOCAL_METHODS",
    "METHODS",
    "METHOD_OR_SEARCH",
    "AnyOf",
    "Boolean",
    "Choice",
    "GapLimit",
    "Instance",
    "Integer",
    "MemorySize",
    "NJobs",
    "NoneOr",
    "RandomState",
    "Real",
    "Rule",
    "Spec",
    "TimeLimit",
    "argument_type",
    "scip_seed",
    "validate_params",
]

#: The search selector ``method``, one vocabulary for every estimator and tool: the
#: exact engines (``"auto"`` chooses among them, :func:`~pgmpy_nml.search.choose_search`)
#: and the local searches.
EXACT_METHODS = ("auto", "dp", *CANDIDATE_METHODS)
LOCAL_METHODS = ("hill", "tabu")
METHODS = EXACT_METHODS + LOCAL_METHODS

#: Words the command line reads as "no value" (``--time-limit none``).
_NONE_WORDS = ("none", "no", "unlimited")


class Spec:
    """What one parameter may be: ``validate`` checks a value, ``parse`` a flag's text."""

    #: What a message says the value must be (``"an integer >= 1"``).
    what = "a valid value"
    #: The same for the text of a command-line flag, when it reads otherwise (no Python
    #: names: ``"none"``, not ``None``); ``what`` if empty.
    text_what = ""

    def validate(self, value: Any, name: str) -> Any:
        """``value`` in the type the estimator computes with, or ``InputError`` /
        ``TypeError`` with a message naming ``name``."""
        raise NotImplementedError

    def from_text(self, text: str) -> Any:
        """The Python value the text of a flag stands for (before the checks)."""
        return text

    def parse(self, text: str, flag: str) -> Any:
        """The text of a command-line flag, read and checked by :meth:`validate`.

        Text that is not even of the right kind (``--n-jobs abc``) gets the rule
        and the text; the message names ``flag`` either way.
        """
        rule = self.text_what or self.what
        value = self.from_text(text.strip())
        if value is _UNREADABLE:
            raise InputError(f"{flag} must be {rule}, got {text!r}.")
        try:
            return self.validate(value, flag)
        except (TypeError, ValueError):  # the library's check, in the command line's words
            raise InputError(f"{flag} must be {rule}, got {text!r}.") from None

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({fields})"


#: ``from_text``'s answer for text that cannot be the value.
_UNREADABLE = object()


def _number(text: str) -> Any:
    """``int`` or ``float`` of the text, or ``_UNREADABLE``."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            continue
    return _UNREADABLE


class Integer(Spec):
    """An integer in ``[minimum, maximum]`` (:func:`~pgmpy_nml._validate.as_integer`).

    Examples
    --------
    >>> Integer(minimum=1).validate(0, "restarts")
    Traceback (most recent call last):
    ...
    pgmpy_nml.exceptions.InputError: restarts must be an integer >= 1, got 0
    """

    def __init__(self, minimum: int = 0, maximum: int | None = None, what: str = ""):
        self.minimum = minimum
        self.maximum = maximum
        self.gloss = what
        kind = "a non-negative integer" if minimum == 0 else f"an integer >= {minimum}"
        self.what = kind + what
        self.text_what = f"a whole number >= {minimum}{what}"

    def validate(self, value: Any, name: str) -> int:
        return as_integer(value, name, self.minimum, self.gloss, maximum=self.maximum)

    def from_text(self, text: str) -> Any:
        return _number(text)


class Real(Spec):
    """A real number in a range (:func:`~pgmpy_nml._validate.as_real`).

    Examples
    --------
    >>> Real(minimum=0.0, open_min=True).validate(0.5, "tol")
    0.5
    """

    def __init__(
        self,
        minimum: float | None = 0.0,
        maximum: float | None = None,
        *,
        open_min: bool = False,
        open_max: bool = False,
        allow_inf: bool = False,
        hint: str = "",
    ):
        self.minimum = minimum
        self.maximum = maximum
        self.open_min = open_min
        self.open_max = open_max
        self.allow_inf = allow_inf
        self.hint = hint

    @property
    def what(self) -> str:  # type: ignore[override]
        low, high = self.minimum, self.maximum
        if high is not None:
            left, right = "(" if self.open_min else "[", ")" if self.open_max else "]"
            return f"a number in {left}{low:g}, {high:g}{right}"
        if low is None:
            return "a real number"
        return f"a number {'>' if self.open_min else '>='} {low:g}"

    def validate(self, value: Any, name: str) -> float:
        return as_real(
            value,
            name,
            low=self.minimum,
            high=self.maximum,
            low_open=self.open_min,
            high_open=self.open_max,
            allow_inf=self.allow_inf,
            hint=self.hint,
        )

    def from_text(self, text: str) -> Any:
        return _number(text)


class Boolean(Spec):
    """``True`` or ``False`` (:func:`~pgmpy_nml._validate.as_bool`; 0 and 1 are refused)."""

    what = "true or false"

    def validate(self, value: Any, name: str) -> bool:
        return as_bool(value, name)

    def from_text(self, text: str) -> Any:
        words = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}
        return words.get(text.lower(), _UNREADABLE)


class Choice(Spec):
    """One of ``values`` (:func:`~pgmpy_nml._validate.as_choice`).

    Examples
    --------
    >>> Choice(("hill", "tabu")).parse("greedy", "--search")
    Traceback (most recent call last):
    ...
    pgmpy_nml.exceptions.InputError: --search must be one of 'hill', 'tabu', got 'greedy'.
    """

    def __init__(self, values: Sequence):
        self.values = tuple(values)
        self.what = "one of " + ", ".join(repr(v) for v in self.values)

    def validate(self, value: Any, name: str) -> Any:
        return as_choice(value, name, self.values)


class Instance(Spec):
    """An instance of ``types`` (a type or a tuple of types), else ``TypeError``.

    ``what`` says, in a message, what the value must be. ``types`` may also hold
    a callable ``test(value) -> bool`` for what ``isinstance`` cannot say (an object
    with a ``local_score`` method, say).

    Examples
    --------
    >>> Instance(str, "a score name").validate(3, "scoring_method")
    Traceback (most recent call last):
    ...
    TypeError: scoring_method must be a score name, got an object of type int (3).
    """

    def __init__(self, types: Any, what: str):
        self.types = types if isinstance(types, tuple) else (types,)
        self.what = what

    def _accepts(self, value: Any) -> bool:
        for kind in self.types:
            if isinstance(kind, type):
                if isinstance(value, kind):
                    return True
            elif kind(value):
                return True
        return False

    def validate(self, value: Any, name: str) -> Any:
        if not self._accepts(value):
            raise TypeError(f"{name} must be {self.what}, got {describe(value)}.")
        return value


class Rule(Spec):
    """A value checked by ``check(value, name)``, which returns it normalized or raises.

    For a parameter whose rule is a function of its own (a pair of bounds, say).
    """

    def __init__(self, check: Callable[[Any, str], Any], what: str):
        self.check = check
        self.what = what

    def validate(self, value: Any, name: str) -> Any:
        return self.check(value, name)


class NoneOr(Spec):
    """``None``, or a value of ``spec`` (``none`` on the command line)."""

    def __init__(self, spec: Spec):
        self.spec = spec

    @property
    def what(self) -> str:  # type: ignore[override]
        return f"{self.spec.what} or None"

    @property
    def text_what(self) -> str:  # type: ignore[override]
        return f"{self.spec.text_what or self.spec.what}, or none"

    def validate(self, value: Any, name: str) -> Any:
        return None if value is None else self.spec.validate(value, name)

    def from_text(self, text: str) -> Any:
        return None if text.lower() in _NONE_WORDS else self.spec.from_text(text)


class AnyOf(Spec):
    """A value of any of ``specs``, the first that accepts it.

    If none does, the message is that of a spec whose kind the value had but
    whose rule it broke (``max_parents must be a non-negative integer, got -1``),
    or, when the value is of no accepted kind, ``what`` (a ``TypeError``).

    Examples
    --------
    >>> spec = AnyOf(Choice(("auto",)), NoneOr(Integer()), what="an integer, None or 'auto'")
    >>> spec.validate("auto", "max_parents"), spec.validate(2.0, "max_parents")
    ('auto', 2)
    >>> spec.validate(-1, "max_parents")
    Traceback (most recent call last):
    ...
    pgmpy_nml.exceptions.InputError: max_parents must be a non-negative integer, got -1
    """

    def __init__(self, *specs: Spec, what: str):
        self.specs = specs
        self.what = what

    def validate(self, value: Any, name: str) -> Any:
        refused, chosen_wrong = None, False
        for spec in self.specs:
            try:
                return spec.validate(value, name)
            except TypeError:
                continue
            except ValueError as exc:  # the right kind, a wrong value
                if isinstance(spec, Choice):  # a name, but not one of the names?
                    chosen_wrong = chosen_wrong or isinstance(value, str)
                elif refused is None:
                    refused = exc
        if refused is not None:
            raise refused
        if chosen_wrong:
            raise InputError(f"{name} must be {self.what}, got {value!r}.")
        raise TypeError(f"{name} must be {self.what}, got {describe(value)}.")

    def from_text(self, text: str) -> Any:
        for spec in self.specs:
            value = spec.from_text(text)
            if value is _UNREADABLE:
                continue
            try:
                spec.validate(value, "value")
            except (TypeError, ValueError):
                continue
            return value
        for spec in self.specs:  # none accepts it: let validate say why
            value = spec.from_text(text)
            if value is not _UNREADABLE:
                return value
        return _UNREADABLE


class TimeLimit(Spec):
    """Seconds, or None (or ``inf``) for no limit (:func:`~pgmpy_nml._validate.as_time_limit`)."""

    what = "a positive number of seconds, inf or none"
    text_what = "a positive number of seconds, or inf (no limit)"

    def validate(self, value: Any, name: str) -> float | None:
        return as_time_limit(value, name)

    def from_text(self, text: str) -> Any:
        return None if text.lower() in _NONE_WORDS else _number(text)


class GapLimit(Spec):
    """A relative gap ``>= 0`` (:func:`~pgmpy_nml._validate.as_gap_limit`)."""

    what = "a relative gap >= 0"

    def validate(self, value: Any, name: str) -> float:
        return as_gap_limit(value, name)

    def from_text(self, text: str) -> Any:
        return _number(text)


#: Multipliers of the command line's memory sizes (``8G``, ``500M``).
_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30, "T": 2**40}


class MemorySize(Spec):
    """A positive number of bytes (:func:`~pgmpy_nml._validate.as_memory_size`); on the
    command line also with a unit, ``8G`` or ``500M``."""

    what = "a size such as 8G or 500M"

    def validate(self, value: Any, name: str) -> float:
        return as_memory_size(value, name)

    def from_text(self, text: str) -> Any:
        number = text.upper().removesuffix("B").removesuffix("I")
        unit = number[-1:] if number[-1:] in _UNITS else ""
        value = _number(number[: len(number) - len(unit)])
        return value if value is _UNREADABLE else value * _UNITS[unit]


class NJobs(Spec):
    """scikit-learn's ``n_jobs``: None is 1, -1 every core (:func:`~pgmpy_nml._validate.as_n_jobs`).

    ``validate`` returns the number of workers.
    """

    what = "a number of workers >= 1, -1 for all cores, or None"
    text_what = "a number of threads >= 1, or -1 for all cores (-2 all but one, ...)"

    def validate(self, value: Any, name: str) -> int:
        return as_n_jobs(value, name)

    def from_text(self, text: str) -> Any:
        if text.lower() in _NONE_WORDS:
            return None
        try:
            return int(text)
        except ValueError:
            return _UNREADABLE


def scip_seed(random_state: Any) -> int:
    """SCIP's seed shift from a checked ``random_state`` (:class:`RandomState`): the
    integer itself modulo 2**31 (SCIP takes a C int), 0 for None (SCIP's default), one
    draw from a numpy Generator or SeedSequence. The one rule of
    :func:`~pgmpy_nml.search.candidates.solve` and ``ExactSearch``.

    Examples
    --------
    >>> scip_seed(7), scip_seed(2**31 + 7), scip_seed(None)
    (7, 7, 0)
    """
    if random_state is None:
        return 0
    if isinstance(random_state, np.random.SeedSequence):
        return int(random_state.generate_state(1)[0] % 2**31)
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(2**31))
    return int(random_state) % 2**31


class RandomState(Spec):
    """A seed for ``numpy.random.default_rng``: None, an integer >= 0, a numpy
    ``Generator`` or ``SeedSequence``; returned as given.

    Examples
    --------
    >>> RandomState().validate(-1, "random_state")
    Traceback (most recent call last):
    ...
    pgmpy_nml.exceptions.InputError: random_state must be a non-negative integer, got -1
    """

    what = "None, an integer >= 0, or a numpy Generator or SeedSequence"
    text_what = "a whole number >= 0"

    def validate(self, value: Any, name: str) -> Any:
        if value is None or isinstance(value, (np.random.Generator, np.random.SeedSequence)):
            return value
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
            raise TypeError(f"{name} must be {self.what}, got {describe(value)}.")
        return as_integer(value, name)  # as every integer parameter: 3.0 is 3, 0.5 refused

    def from_text(self, text: str) -> Any:
        try:
            return int(text)
        except ValueError:
            return _UNREADABLE


def validate_params(estimator: Any) -> dict:
    """Every parameter ``estimator._parameter_specs`` declares, checked: ``{name: value}``.

    The values come back in the types the estimator computes with (the estimator
    itself is not changed). Every parameter is checked before any error is raised:
    one bad parameter raises its own message; several raise one ``InputError`` (a
    ``TypeError`` if every one is of a wrong type) with a message per parameter,
    each naming it.

    Examples
    --------
    >>> from pgmpy_nml import LocalSearch
    >>> validate_params(LocalSearch(tabu_length=0, restarts=-1))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pgmpy_nml.exceptions.InputError: LocalSearch has 2 invalid parameters: tabu_length ...
    """
    specs: Mapping[str, Spec] = type(estimator)._parameter_specs
    values, errors = {}, []
    for name, spec in specs.items():
        try:
            values[name] = spec.validate(getattr(estimator, name), name)
        except (TypeError, ValueError) as exc:
            errors.append(exc)
    if len(errors) == 1:
        raise errors[0]
    if errors:
        kind = TypeError if all(isinstance(e, TypeError) for e in errors) else InputError
        listed = "; ".join(str(e).rstrip(".") for e in errors)
        raise kind(f"{type(estimator).__name__} has {len(errors)} invalid parameters: {listed}")
    return values


def given_value_spec(spec: Spec) -> Spec:
    """The spec of a flag whose absence already stands for the parameter's default
    choices (None, ``"auto"``): the values left when the flag is given. ``NoneOr(S)`` and
    ``AnyOf(Choice, NoneOr(S))`` give ``S``; any other spec is itself.

    Examples
    --------
    >>> spec = AnyOf(Choice(("auto",)), NoneOr(Integer()), what="an integer, None or 'auto'")
    >>> given_value_spec(spec).what
    'a non-negative integer'
    """
    if isinstance(spec, AnyOf):
        inner = [s for s in spec.specs if not isinstance(s, Choice)]
        if len(inner) == 1:
            spec = inner[0]
    return spec.spec if isinstance(spec, NoneOr) else spec


def argument_type(spec: Spec, flag: str) -> Callable[[str], Any]:
    """An argparse ``type=`` that reads a flag's text with ``spec`` (:meth:`Spec.parse`).

    Its errors become argparse's one-line usage errors (exit code 2).

    Examples
    --------
    >>> import argparse
    >>> parser = argparse.ArgumentParser()
    >>> _ = parser.add_argument("--restarts", type=argument_type(Integer(), "--restarts"))
    >>> parser.parse_args(["--restarts", "3"]).restarts
    3
    """

    def parse(text: str) -> Any:
        try:
            return spec.parse(text, flag)
        except (TypeError, ValueError) as exc:  # argparse names the flag itself
            message = str(exc).removeprefix(f"{flag} ").rstrip(".")
            raise argparse.ArgumentTypeError(message) from None

    parse.__name__ = spec.what  # argparse shows it in "invalid <name> value"
    return parse


# --------------------------------------------------------------------------------------
# Parameters several estimators share (the deeper checks, against the data, stay where
# the data are: the score registry, Constraints, check_start_dag)
# --------------------------------------------------------------------------------------
def _has_local_score(value: Any) -> bool:
    return hasattr(value, "local_score")


def _is_expert_knowledge(value: Any) -> bool:
    return hasattr(value, "forbidden_edges") and hasattr(value, "required_edges")


def _is_graph_like(value: Any) -> bool:  # an iterable that is not a string
    return not isinstance(value, (str, bytes)) and hasattr(value, "__iter__")


def _is_parameter_estimator(value: Any) -> bool:
    return not isinstance(value, type) and hasattr(value, "get_params") and hasattr(value, "fit")


#: ``scoring_method``: a registered score name (the registry checks it) or a score object.
SCORING_METHOD = Instance(
    (str, _has_local_score), "a score name or a score object with local_score()"
)
#: ``expert_knowledge``: pgmpy's ``ExpertKnowledge`` or a dict of its arguments.
EXPERT_KNOWLEDGE = NoneOr(
    Instance(
        (Mapping, _is_expert_knowledge),
        "a pgmpy.causal_discovery.ExpertKnowledge or a dict of its arguments",
    )
)
#: ``start_dag``: a graph, ``{child: parents}`` or a list of edges.
START_DAG = NoneOr(
    Instance(
        _is_graph_like,
        "a pgmpy DAG, a networkx DiGraph, a dict {child: parents} or a list of "
        "(parent, child) edges",
    )
)
#: ``parameter_estimator``: an instance (``FSNMLEstimator()``), not a class.
PARAMETER_ESTIMATOR = NoneOr(
    Instance(
        _is_parameter_estimator, "a pgmpy parameter estimator instance such as FSNMLEstimator()"
    )
)
#: ``columns``: a list of column names (None: the estimator's default).
COLUMNS = NoneOr(Instance(_is_graph_like, "a list of column names"))
#: ``state_names``: ``{variable: states}``.
STATE_NAMES = NoneOr(Instance(Mapping, "a dict {variable: list of states}"))


def _is_search(value: Any) -> bool:
    return hasattr(value, "fit") and not isinstance(value, type)


#: ``method`` of the tools that run a search: a method name, or a search object to rebuild
#: per fit (its parameters are the template).
METHOD_OR_SEARCH = AnyOf(
    Choice(METHODS),
    Instance(_is_search, "a search object"),
    what="one of " + ", ".join(repr(m) for m in METHODS) + ", or a search object with "
    "fit(data) and causal_graph_",
)
