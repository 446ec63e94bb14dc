"""One policy per decision (issue 19): the choice of search (``choose_search``) and the
score's default parameters (declared on its registry spec), asked by every caller: the
exact search, the command line, OptimalESS, learning_saturation and the study tools."""

import json
import os
import re

import numpy as np
import pandas as pd
import pytest

from pgmpy_nml._limits import (
    AUTO_EXACT_MAX_VARIABLES,
    AUTO_SOLVER_MAX_VARIABLES,
    SOLVER_DEFAULT_MAX_PARENTS,
)
from pgmpy_nml._validate import as_n_jobs
from pgmpy_nml.search import ExactSearch, choose_search
from pgmpy_nml.search._policy import (
    ASTAR_AUTO_MAX_VARIABLES,
    DP_ALWAYS_MAX_VARIABLES,
    EXACT_MAX_VARIABLES,
)

SIZES = [1, 2, 10, 15, 16, 19, 20, 21, 30, 31, 32, 40, 41, 55, 56, 63, 64, 65, 100]
METHODS = [
    "auto",
    "exact",
    "dp",
    "astar",
    "solver",
    "astar|solver",
    "solver|solver",
    "hill",
    "tabu",
]
LIMITS = ["auto", None, 0, 2, 5]
CORES = [1, 2, 8]


def reference(n, method, max_parents, repeated=False, cores=1):
    """The policy as the documentation states it, case by case."""
    if method == "auto":
        if repeated:
            method = "exact" if n <= 20 else "hill"
        else:
            method = "exact" if n <= 64 else "hill"
    if method == "exact":
        unlimited = max_parents in ("auto", None)
        if n <= 15 or (unlimited and n <= 20):
            method = "dp"
        else:
            method = "astar" if n <= 40 else "solver"
            if cores >= 2:  # two engines side by side, the first proof wins
                method = {"astar": "astar|solver", "solver": "solver|solver"}[method]
    if (method == "dp" and n > 31) or (method in ("astar", "astar|solver") and n > 63):
        return ValueError
    if max_parents == "auto":
        max_parents = 3 if method in ("astar", "solver", "astar|solver", "solver|solver") else None
    return (method, max_parents)


def test_the_thresholds_are_the_documented_ones():
    assert (DP_ALWAYS_MAX_VARIABLES, AUTO_EXACT_MAX_VARIABLES) == (15, 20)
    assert (ASTAR_AUTO_MAX_VARIABLES, AUTO_SOLVER_MAX_VARIABLES) == (40, 64)
    assert (EXACT_MAX_VARIABLES, SOLVER_DEFAULT_MAX_PARENTS) == (31, 3)


@pytest.mark.parametrize("repeated", [False, True])
@pytest.mark.parametrize("cores", CORES)
def test_choose_search_on_a_grid(repeated, cores):
    for n in SIZES:
        for method in METHODS:
            for limit in LIMITS:
                want = reference(n, method, limit, repeated, cores)
                if want is ValueError:
                    with pytest.raises(ValueError, match="at most"):
                        choose_search(n, method, limit, repeated=repeated, cores=cores)
                    continue
                got = choose_search(n, method, limit, repeated=repeated, cores=cores)
                assert tuple(got) == want, (n, method, limit, repeated, cores)
                exact = ("dp", "astar", "solver", "astar|solver", "solver|solver")
                assert got.exact == (got.method in exact)


def test_choose_search_spot_values_and_refusals():
    assert choose_search(20) == ("dp", None) and choose_search(21) == ("astar", 3)
    assert choose_search(64) == ("solver", 3) and choose_search(65) == ("hill", None)
    assert choose_search(65, "exact") == ("solver", 3)
    assert choose_search(21, repeated=True) == ("hill", None)
    assert choose_search(70, max_parents=2) == ("hill", 2)
    with pytest.raises(ValueError, match="method must be one of"):
        choose_search(5, "greedy")
    with pytest.raises(ValueError, match="max_parents must be one of 'auto'"):
        choose_search(5, max_parents="three")
    with pytest.raises(ValueError, match="max_parents"):
        choose_search(5, max_parents=-1)
    assert choose_search(21, cores=2) == ("astar|solver", 3) and choose_search(21) == ("astar", 3)
    assert choose_search(40, cores=2) == ("astar|solver", 3)
    assert choose_search(41, cores=2) == ("solver|solver", 3) and choose_search(20, cores=2) == (
        "dp",
        None,
    )
    assert choose_search(25, max_parents=2, cores=2) == ("astar|solver", 2)
    with pytest.raises(ValueError, match="cores"):
        choose_search(30, cores=0)


@pytest.mark.parametrize("n_jobs", [1, 2, None])
def test_exact_search_asks_the_policy(n_jobs):
    cores = as_n_jobs(n_jobs)
    for n in SIZES:
        for limit in LIMITS:
            for method in ("auto", "dp", "astar", "solver", "astar|solver", "solver|solver"):
                search = ExactSearch("fnml", method=method, max_parents=limit, n_jobs=n_jobs)
                policy = "exact" if method == "auto" else method
                want = reference(n, policy, limit, cores=cores)
                if want is ValueError:
                    with pytest.raises(ValueError, match="at most"):
                        _exact_choice(search, n)
                    continue
                assert _exact_choice(search, n) == want
            # the command line's auto and ExactSearch's agree wherever auto is exact
            auto = choose_search(n, "auto", limit)
            if auto.exact and cores == 1:
                assert _exact_choice(ExactSearch(max_parents=limit, n_jobs=1), n) == tuple(auto)
    with pytest.raises(
        ValueError,
        match=re.escape(
            "method must be one of 'auto', 'dp', 'astar', 'solver', 'astar|solver', 'solver|solver'"
        ),
    ):
        _exact_choice(ExactSearch(method="hill"), 5)


def _exact_choice(search, n):
    """What ``search.fit`` would run on ``n`` variables: its parameters checked as at ``fit``
    entry, then its settings (the policy's choice)."""
    from pgmpy_nml._params import validate_params

    settings = search._settings(validate_params(search), [f"V{i}" for i in range(n)])
    return settings["method"], settings["max_parents"]


def test_a_fit_runs_what_the_policy_chose(random_data):
    data = random_data(200, 6, 3)
    for limit in ("auto", None, 2):
        search = ExactSearch("qnml", max_parents=limit, show_progress=False).fit(data)
        assert (search.method_, search.max_parents_) == tuple(choose_search(6, "exact", limit))


@pytest.mark.parametrize(
    "argv",
    [
        ["learn"],
        ["learn", "--max-parents", "2"],
        ["learn", "--method", "exact"],
        ["learn", "--method", "astar"],
        ["learn", "--method", "dp", "--max-parents", "2"],
        ["cv"],
        ["cv", "--method", "solver"],
    ],
)
def test_the_command_lines_auto_is_the_policy(argv):
    from pgmpy_nml.cli import build_parser
    from pgmpy_nml.cli._requests import search_request
    from pgmpy_nml.cli._search import exact_engine, plan_search

    request = search_request(build_parser().parse_args(argv))
    limit = "auto" if request.max_parents is None else request.max_parents
    engine = request.method if request.method in ("dp", "astar", "solver") else "auto"
    assert exact_engine(request) == engine  # the engine ExactSearch is told to run
    for n in SIZES:
        variables = [f"V{i}" for i in range(n)]
        try:
            choice = choose_search(n, request.method, limit)
        except ValueError as err:  # an engine beyond its size: the same refusal
            with pytest.raises(ValueError, match=re.escape(str(err))):
                plan_search(request, variables)
            continue
        plan = plan_search(request, variables)
        assert plan.kind == ("exact" if choice.exact else choice.method), (argv, n)
        assert plan.max_parents == choice.max_parents
        assert ("heuristic" in plan.described) == (not choice.exact)
        if choice.exact:  # the engine said up front is the one ExactSearch runs
            cores = os.cpu_count() or 1
            method = "exact" if request.method in ("auto", "exact") else request.method
            assert plan.engine == choose_search(n, method, limit, cores=cores).method


def test_the_study_tools_auto_is_the_policy(monkeypatch):
    from pgmpy_nml.analysis import ess, saturation

    rng = np.random.default_rng(0)
    for n in (3, AUTO_EXACT_MAX_VARIABLES, AUTO_EXACT_MAX_VARIABLES + 1, 30):
        for limit in (None, 2):
            choice = choose_search(n, "auto", limit, repeated=True)
            want = choice.method
            assert ess.OptimalESS(max_parents=limit)._check_params(n)[0] == want
            seen = []

            def record(score, data, search, seen=seen, **options):
                seen.append(search)

            monkeypatch.setattr(saturation, "find_structure", record)
            subset = pd.DataFrame(rng.integers(0, 2, (20, n)), columns=[f"V{i}" for i in range(n)])
            saturation._learn(subset, "bic", "auto", limit)
            assert seen == [want], (n, limit)


# -- the score -> parameters map, declared on the registry's spec ----------------------
@pytest.fixture
def registered():
    from pgmpy_nml.scores import FNML, register_score, unregister_score

    class K2Parameters(FNML):
        """fNML, declared to take K2's parameters (a test score)."""

    class BDeuParameters(FNML):
        """fNML with an ESS, declared to take BDeu's parameters (a test score)."""

        def __init__(self, data, equivalent_sample_size=1.0, state_names=None):
            self.equivalent_sample_size = equivalent_sample_size
            super().__init__(data, state_names=state_names)

    register_score("fnml-k2", K2Parameters, params={}, parameter_estimator="k2", replace=True)
    register_score("fnml-bdeu", BDeuParameters, parameter_estimator="bdeu", replace=True)
    yield
    unregister_score("fnml-k2")
    unregister_score("fnml-bdeu")


def test_the_default_parameters_come_from_the_spec(registered):
    from pgmpy_nml.models import default_parameter_estimator
    from pgmpy_nml.scores import get_score_spec, make_score

    assert get_score_spec("fnml-k2").parameter_estimator == "k2"
    assert default_parameter_estimator("fnml-k2").prior_type == "K2"
    est = default_parameter_estimator("fnml-bdeu", equivalent_sample_size=4)
    assert (est.prior_type, est.equivalent_sample_size) == ("BDeu", 4.0)
    data = pd.DataFrame({"A": ["a", "b"] * 5, "B": ["x", "y", "y", "x", "x"] * 2})
    assert default_parameter_estimator(make_score("fnml-k2", data)).prior_type == "K2"
    # the built-in scores: what the documentation's table says
    expected = {"fnml": "fsnml", "qnml": "fsnml", "bic": "fsnml", "bdeu": "bdeu", "bds": "bdeu"}
    expected.update({"min-bdeu": "bdeu", "bd": "dirichlet", "k2": "k2", "nal": "fsnml-available"})
    for name, kind in expected.items():
        assert get_score_spec(name).parameter_estimator == kind


def test_a_registration_names_a_known_estimator():
    from pgmpy_nml.scores import FNML, register_score, score_names

    with pytest.raises(ValueError, match="parameter_estimator must be one of 'fsnml'"):
        register_score("fnml-x", FNML, parameter_estimator="laplace")
    assert "fnml-x" not in score_names()


def test_the_command_line_takes_the_parameters_from_the_spec(registered, tmp_path, capsys):
    from pgmpy_nml.cli import build_parser, main

    rng = np.random.default_rng(1)
    pd.DataFrame(rng.choice(["a", "b"], (200, 3)), columns=["A", "B", "C"]).to_csv(
        tmp_path / "d.csv", index=False
    )
    for name, label in [("fnml-k2", "auto: k2 prior"), ("fnml-bdeu", "auto: bdeu prior, ess 7")]:
        summary = tmp_path / f"{name}.json"
        argv = ["learn", str(tmp_path / "d.csv"), "--score", name, "--ess", "7"]
        assert main([*argv, "--out", str(tmp_path / "n.bif"), "--json", str(summary)]) == 0
        assert f"parameters: {label}" in capsys.readouterr().out
        assert json.loads(summary.read_text())["parameters"] == label
    helps = " ".join(
        build_parser()._subparsers._group_actions[0].choices["learn"].format_help().split()
    )
    assert "the K2 prior for fnml-k2, k2" in helps
