"""Declared parameter specs (pgmpy_nml._params): one check per parameter, at fit entry,
whatever the method; keyword-only parameters; scikit-learn's estimator contract."""

import argparse
import inspect
import math
import re

import numpy as np
import pandas as pd
import pytest
from pgmpy.base import DAG
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted

from pgmpy_nml import (
    EMEstimator,
    ExactSearch,
    FSNMLEstimator,
    LocalSearch,
    OptimalESS,
    OrderSearch,
    StructuralEM,
)
from pgmpy_nml._params import (
    EXACT_METHODS,
    LOCAL_METHODS,
    METHODS,
    AnyOf,
    Boolean,
    Choice,
    GapLimit,
    Instance,
    Integer,
    MemorySize,
    NJobs,
    NoneOr,
    RandomState,
    Real,
    Rule,
    TimeLimit,
    argument_type,
    validate_params,
)
from pgmpy_nml._validate import (
    InputError,
    as_gap_limit,
    as_integer,
    as_memory_size,
    as_n_jobs,
    as_real,
    as_time_limit,
)
from pgmpy_nml.study import Discretizer, LearningProcedure


def _data(n=60, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 2, n)
    b = (a + (rng.random(n) < 0.2)) % 2
    c = rng.integers(0, 3, n)
    return pd.DataFrame({"A": a, "B": b, "C": c})


def _numbers(n=40, seed=0):
    rng = np.random.default_rng(seed)
    return pd.DataFrame({"x": rng.normal(size=n), "y": rng.normal(size=n)})


# --------------------------------------------------------------------------------------
# The specs give the messages of the _validate functions they wrap
# --------------------------------------------------------------------------------------
def _message(call):
    try:
        call()
    except (TypeError, ValueError) as exc:
        return type(exc), str(exc)
    return None


@pytest.mark.parametrize(
    ("spec", "check"),
    [
        (Integer(minimum=1), lambda v, n: as_integer(v, n, 1)),
        (Integer(maximum=10), lambda v, n: as_integer(v, n, maximum=10)),
        (Real(open_min=True), lambda v, n: as_real(v, n, low_open=True)),
        (Real(minimum=0.0, maximum=1.0), lambda v, n: as_real(v, n, high=1.0)),
        (TimeLimit(), as_time_limit),
        (GapLimit(), as_gap_limit),
        (MemorySize(), as_memory_size),
        (NJobs(), as_n_jobs),
    ],
)
@pytest.mark.parametrize(
    "value", [0, 1, -1, 3, 2.5, 1e300, math.inf, math.nan, "abc", True, None, [1], 11, 0.5]
)
def test_specs_answer_as_the_checks_they_wrap(spec, check, value):
    expected = _message(lambda: check(value, "param"))
    got = _message(lambda: spec.validate(value, "param"))
    assert got == expected
    if expected is None:
        assert spec.validate(value, "param") == check(value, "param") or value != value


def test_choice_boolean_instance_none_or():
    assert Choice(("a", "b")).validate("b", "x") == "b"
    with pytest.raises(InputError, match=r"^x must be one of 'a', 'b', got 'c'\.$"):
        Choice(("a", "b")).validate("c", "x")
    assert Boolean().validate(np.True_, "flag") is True
    with pytest.raises(TypeError, match="flag must be a bool, got 1"):
        Boolean().validate(1, "flag")
    with pytest.raises(TypeError, match=r"^x must be a mapping, got an object of type int"):
        Instance(dict, "a mapping").validate(3, "x")
    assert Instance(lambda v: hasattr(v, "keys"), "a mapping").validate({}, "x") == {}
    assert NoneOr(Integer()).validate(None, "k") is None
    with pytest.raises(InputError, match="k must be a non-negative integer, got -2"):
        NoneOr(Integer()).validate(-2, "k")


def test_any_of_says_why_the_value_failed():
    spec = AnyOf(Choice(("auto",)), NoneOr(Integer()), what="an integer, None or 'auto'")
    assert spec.validate("auto", "m") == "auto"
    assert spec.validate(None, "m") is None
    assert spec.validate(3.0, "m") == 3
    with pytest.raises(InputError, match="m must be a non-negative integer, got -1"):
        spec.validate(-1, "m")  # an integer, out of range: the integer's own message
    with pytest.raises(InputError, match=r"m must be an integer, None or 'auto', got 'many'"):
        spec.validate("many", "m")  # a name, but not the name
    with pytest.raises(TypeError, match=r"m must be an integer, None or 'auto', got an object"):
        spec.validate(object(), "m")


def test_random_state_takes_seeds_and_generators():
    spec = RandomState()
    rng = np.random.default_rng(0)
    sequence = np.random.SeedSequence(1)
    assert spec.validate(None, "r") is None
    assert spec.validate(rng, "r") is rng and spec.validate(sequence, "r") is sequence
    assert spec.validate(np.int64(7), "r") == 7 and spec.validate(3.0, "r") == 3
    for bad in (-1, 1.5):
        with pytest.raises(InputError, match="random_state must be a non-negative integer"):
            spec.validate(bad, "random_state")
    for bad in ("x", True, [1]):
        with pytest.raises(TypeError, match="random_state must be None, an integer >= 0"):
            spec.validate(bad, "random_state")


def test_n_jobs_none_means_one_worker():
    assert as_n_jobs(None) == 1 and NJobs().validate(None, "n_jobs") == 1
    assert NJobs().validate(-1, "n_jobs") >= 1


@pytest.mark.parametrize(
    ("spec", "text", "value"),
    [
        (Integer(minimum=1), "3", 3),
        (Integer(), "4.0", 4),
        (Real(open_min=True), "0.25", 0.25),
        (TimeLimit(), "inf", None),
        (TimeLimit(), "none", None),
        (TimeLimit(), "60", 60.0),
        (GapLimit(), "0.01", 0.01),
        (MemorySize(), "8G", 8 * 2**30),
        (MemorySize(), "500m", 500 * 2**20),
        (MemorySize(), "1e9", 1e9),
        (NJobs(), "-1", as_n_jobs(-1)),
        (NJobs(), "none", 1),
        (NoneOr(Integer()), "none", None),
        (NoneOr(Integer()), "2", 2),
        (Choice(("hill", "tabu")), "tabu", "tabu"),
        (Boolean(), "yes", True),
        (RandomState(), "5", 5),
        (AnyOf(Choice(("auto",)), NoneOr(Integer()), what="x"), "auto", "auto"),
        (AnyOf(Choice(("auto",)), NoneOr(Integer()), what="x"), "3", 3),
    ],
)
def test_parse_reads_the_command_line_text(spec, text, value):
    assert spec.parse(text, "--flag") == value


@pytest.mark.parametrize(
    ("spec", "text"),
    [
        (Integer(minimum=1), "abc"),
        (Integer(minimum=1), "0"),
        (Real(open_min=True), "-1"),
        (TimeLimit(), "soon"),
        (TimeLimit(), "0"),
        (GapLimit(), "-0.5"),
        (MemorySize(), "lots"),
        (MemorySize(), "0G"),
        (NJobs(), "0"),
        (NJobs(), "two"),
        (Choice(("hill", "tabu")), "annealing"),
        (Boolean(), "maybe"),
        (RandomState(), "-3"),
        (AnyOf(Choice(("auto",)), NoneOr(Integer()), what="an integer or 'auto'"), "many"),
    ],
)
def test_parse_names_the_flag_in_every_refusal(spec, text):
    with pytest.raises((TypeError, ValueError)) as caught:
        spec.parse(text, "--the-flag")
    assert str(caught.value).startswith("--the-flag must")
    parser = argparse.ArgumentParser(exit_on_error=False)
    parser.add_argument("--the-flag", type=argument_type(spec, "--the-flag"))
    with pytest.raises(argparse.ArgumentError) as caught:  # argparse names the flag, once
        parser.parse_args(["--the-flag", text])
    assert str(caught.value).startswith("argument --the-flag: must")
    assert str(caught.value).count("--the-flag") == 1


def test_validate_params_lists_every_bad_parameter():
    params = validate_params(LocalSearch(tabu_length=3.0, epsilon=0))
    assert params["tabu_length"] == 3 and isinstance(params["tabu_length"], int)
    with pytest.raises(InputError, match=r"^tabu_length must be an integer >= 1, got 0$"):
        validate_params(LocalSearch(tabu_length=0))
    with pytest.raises(InputError) as caught:
        validate_params(LocalSearch(tabu_length=0, restarts=-1, epsilon="x"))
    message = str(caught.value)
    assert message.startswith("LocalSearch has 3 invalid parameters:")
    for name in ("tabu_length", "restarts", "epsilon"):
        assert f"{name} must" in message
    with pytest.raises(TypeError, match="has 2 invalid parameters"):
        validate_params(LocalSearch(epsilon="x", show_progress="yes"))


# --------------------------------------------------------------------------------------
# Every estimator, every declared parameter, every method: refused at fit, by name
# --------------------------------------------------------------------------------------
def _fsnml_fit(est):
    data = _data()
    return est.fit(DAG([("A", "B")]), data[["A", "B"]])


def _holes():
    data = _data().astype(object)
    data.iloc[::7, 0] = None
    return data


def _em_fit(est):
    return est.fit(DAG([("A", "B")]), _holes()[["A", "B"]])


#: class -> (factory of an estimator with a method (None: no method), fit, methods)
ESTIMATORS = {
    ExactSearch: (
        lambda m: ExactSearch("qnml", method=m, show_progress=False),
        lambda e: e.fit(_data()),
        EXACT_METHODS,
    ),
    LocalSearch: (
        lambda m: LocalSearch("qnml", method=m, show_progress=False),
        lambda e: e.fit(_data()),
        LOCAL_METHODS,
    ),
    OrderSearch: (
        lambda m: OrderSearch("qnml", generations=2, show_progress=False),
        lambda e: e.fit(_data()),
        (None,),
    ),
    LearningProcedure: (
        lambda m: LearningProcedure(m, scoring_method="qnml"),
        lambda e: e.fit(_data()),
        METHODS,
    ),
    OptimalESS: (lambda m: OptimalESS(m), lambda e: e.fit(_data()), METHODS),
    Discretizer: (lambda m: Discretizer(), lambda e: e.fit(_numbers()), (None,)),
    FSNMLEstimator: (lambda m: FSNMLEstimator(), _fsnml_fit, (None,)),
    EMEstimator: (lambda m: EMEstimator(), _em_fit, (None,)),
    StructuralEM: (
        lambda m: StructuralEM("qnml", method=m, max_iter=2, show_progress=False),
        lambda e: e.fit(_holes()),
        METHODS,
    ),
}


def _bad_values(spec):
    """Values ``spec`` must refuse, derived from the spec (a new parameter is covered)."""
    if isinstance(spec, NoneOr):
        return _bad_values(spec.spec)
    if isinstance(spec, Integer):
        return [spec.minimum - 1, 2.5, "abc"]
    if isinstance(spec, Real):
        return ["abc"] + ([spec.minimum - 1.0] if spec.minimum is not None else [])
    if isinstance(spec, Choice):
        return ["no-such-value"]
    if isinstance(spec, Boolean):
        return ["yes", 1]
    if isinstance(spec, (TimeLimit, GapLimit, MemorySize)):
        return [-1, "abc"]
    if isinstance(spec, NJobs):
        return [0, "abc"]
    if isinstance(spec, RandomState):
        return [-1, "abc", 1.5]
    if isinstance(spec, Rule):
        return ["abc", 3]
    if isinstance(spec, (AnyOf, Instance)):
        return [object()]
    raise AssertionError(f"no bad values known for {spec!r}: teach tests/test_params.py")


def _good_value(spec, default):
    """A value other than the default that ``spec`` accepts (the default if none is known)."""
    if isinstance(spec, NoneOr):
        return None if default is not None else _good_value(spec.spec, default)
    if isinstance(spec, Integer):
        return spec.minimum + 2
    if isinstance(spec, Real):
        return (spec.minimum or 0.0) + 0.5
    if isinstance(spec, Choice):
        return next((v for v in spec.values if v != default), default)
    if isinstance(spec, Boolean):
        return not default
    if isinstance(spec, TimeLimit):
        return 60.0
    if isinstance(spec, GapLimit):
        return 0.01
    if isinstance(spec, MemorySize):
        return 4e9
    if isinstance(spec, NJobs):
        return 2
    if isinstance(spec, RandomState):
        return 12
    return default


def _cases():
    for cls, (_, _, methods) in ESTIMATORS.items():
        for name, spec in cls._parameter_specs.items():
            for bad in _bad_values(spec):
                for method in methods if name != "method" else (methods[0],):
                    shown = re.sub(r" at 0x[0-9a-f]+", "", repr(bad))  # the same in each run
                    case = f"{cls.__name__}-{name}-{shown}-{method}"
                    yield pytest.param(cls, name, bad, method, id=case)


@pytest.mark.parametrize(("cls", "name", "bad", "method"), list(_cases()))
def test_a_bad_parameter_fails_at_fit_naming_it_whatever_the_method(cls, name, bad, method):
    make, fit, _ = ESTIMATORS[cls]
    est = make(method).set_params(**{name: bad})  # the constructor never checks
    with pytest.raises((TypeError, ValueError), match=rf"(^|: ){re.escape(name)}\b"):
        fit(est)
    assert not hasattr(est, "feature_names_in_")


@pytest.mark.parametrize("cls", list(ESTIMATORS))
def test_every_parameter_is_declared_and_good_values_pass(cls):
    make, _, methods = ESTIMATORS[cls]
    est = make(methods[0])
    declared = set(cls._parameter_specs)
    assert declared == set(est.get_params(deep=False)), "declare a spec for every parameter"
    validate_params(est)  # the defaults pass
    for name, spec in cls._parameter_specs.items():
        good = _good_value(spec, getattr(est, name))
        validate_params(clone(est).set_params(**{name: good}))


@pytest.mark.parametrize("cls", list(ESTIMATORS))
def test_every_parameter_after_the_first_is_keyword_only(cls):
    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]
    assert parameters[0].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in parameters[1:])


@pytest.mark.parametrize(
    "function",
    [
        "pgmpy_nml.study.bootstrap_strength",
        "pgmpy_nml.study.cross_validate",
        "pgmpy_nml.study.compare_procedures",
        "pgmpy_nml.study.averaged_network",
        "pgmpy_nml.study.cv_splits",
        "pgmpy_nml.study.local_scores",
        "pgmpy_nml.learning_saturation",
        "pgmpy_nml.optimal_ess",
        "pgmpy_nml.search.find_structure",
        "pgmpy_nml.search.candidates.solve",
        "pgmpy_nml.search.candidates.candidate_parent_sets",
        "pgmpy_nml.datasets.sample_network",
    ],
)
def test_public_functions_take_options_by_keyword(function):
    import importlib

    module, name = function.rsplit(".", 1)
    parameters = inspect.signature(getattr(importlib.import_module(module), name)).parameters
    kinds = [p.kind for p in parameters.values()]
    assert inspect.Parameter.KEYWORD_ONLY in kinds
    positional = [p for p in parameters.values() if p.kind is p.POSITIONAL_OR_KEYWORD]
    assert len(positional) <= 3, [p.name for p in positional]
    assert not {"seed", "search", "procedure"} & set(parameters), "one vocabulary"


# --------------------------------------------------------------------------------------
# scikit-learn's contract
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("cls", [c for c in ESTIMATORS if c not in (FSNMLEstimator, EMEstimator)])
def test_fitted_estimators_know_their_columns(cls):
    make, fit, methods = ESTIMATORS[cls]
    est = make(methods[-1] if cls is not OptimalESS else "dp")
    with pytest.raises(NotFittedError):
        check_is_fitted(est)
    with pytest.raises(AttributeError, match="call fit"):
        est.feature_names_in_  # noqa: B018
    fit(est)
    check_is_fitted(est)
    columns = ["x", "y"] if cls is Discretizer else ["A", "B", "C"]
    assert isinstance(est.feature_names_in_, np.ndarray)
    assert est.feature_names_in_.tolist() == columns and est.n_features_in_ == len(columns)
    if cls in (ExactSearch, LocalSearch, OptimalESS):
        assert est.method_ in (*METHODS, "astar+solver")


def test_search_methods_are_reported():
    data = _data()
    assert LocalSearch("qnml", method="tabu", show_progress=False).fit(data).method_ == "tabu"
    assert ExactSearch("qnml", show_progress=False).fit(data).method_ == "dp"
    assert OptimalESS("hill", max_iter=3).fit(data).method_ == "hill"


def test_discretizer_from_cut_points_saw_no_columns():
    disc = Discretizer.from_cut_points({"x": [0.0]})
    check_is_fitted(disc)
    with pytest.raises(AttributeError, match="saw no data"):
        disc.n_features_in_  # noqa: B018


@pytest.mark.parametrize("cls", list(ESTIMATORS))
def test_clone_round_trips_every_parameter(cls):
    make, _, methods = ESTIMATORS[cls]
    est = make(methods[0])
    changed = {
        name: _good_value(spec, getattr(est, name)) for name, spec in cls._parameter_specs.items()
    }
    est.set_params(**changed)
    copy = clone(est)
    assert copy is not est
    params = copy.get_params(deep=False)
    for name, value in changed.items():
        assert params[name] == value or params[name] is value, name


def test_every_public_estimator_declares_its_parameters_and_is_tested_here():
    import pgmpy_nml
    import pgmpy_nml.study

    public = {getattr(pgmpy_nml, n) for n in pgmpy_nml.__all__}
    public |= {getattr(pgmpy_nml.study, n) for n in pgmpy_nml.study.__all__}
    estimators = {c for c in public if inspect.isclass(c) and hasattr(c, "fit")}
    estimators = {c for c in estimators if hasattr(c, "get_params")}
    assert estimators, "no estimator found"
    missing = {c.__name__ for c in estimators if "_parameter_specs" not in vars(c)}
    assert not missing, f"declare _parameter_specs on {sorted(missing)}"
    untested = {c.__name__ for c in estimators} - {c.__name__ for c in ESTIMATORS}
    assert not untested, f"add {sorted(untested)} to ESTIMATORS in tests/test_params.py"


# -- the command line's flags read with the same specs ----------------------------------
CLI_FLAGS = [  # (flag, owner, parameter, given): the flags whose type is a library spec
    ("--restarts", "LocalSearch", "restarts", False),
    ("--perturb", "LocalSearch", "perturb", False),
    ("--tabu-length", "LocalSearch", "tabu_length", False),
    ("--max-parents", "LocalSearch", "max_parents", True),
    ("--seed", "LocalSearch", "random_state", False),
    ("--n-jobs", "ExactSearch", "n_jobs", False),
    ("--max-memory", "ExactSearch", "max_memory", True),
    ("--time-limit", "ExactSearch", "time_limit", False),
]
TEXTS = ["0", "1", "3", "-1", "-2", "2.5", "4.0", "1e3", "x", "", "inf", "none", "8G", "500M"]


@pytest.mark.parametrize("flag,owner,parameter,given", CLI_FLAGS, ids=[f[0] for f in CLI_FLAGS])
def test_a_flag_takes_what_its_parameter_takes(flag, owner, parameter, given):
    """The flag's argparse type accepts a text exactly when the library's spec accepts the
    value the text stands for, and gives the value the spec gives (``--time-limit inf``
    is no limit either way)."""
    from pgmpy_nml._params import given_value_spec
    from pgmpy_nml.cli import build_parser

    parser = build_parser()
    sub = "cv" if flag == "--seed" else "learn"
    action = next(
        a
        for a in parser._subparsers._group_actions[0].choices[sub]._actions
        if flag in a.option_strings
    )
    estimator = {"ExactSearch": ExactSearch, "LocalSearch": LocalSearch}[owner]
    spec = estimator._parameter_specs[parameter]
    if given:
        spec = given_value_spec(spec)
    for text in TEXTS:
        try:
            want = spec.validate(spec.from_text(text), parameter)
        except (TypeError, ValueError, AttributeError):
            want = "refused"
        if flag == "--time-limit" and want is None:
            want = math.inf  # the command line's "no limit"; an absent flag is its default
        try:
            got = action.type(text)
        except argparse.ArgumentTypeError as err:
            assert flag not in str(err)  # argparse names the flag once
            got = "refused"
        assert got == want, (flag, text, got, want)
