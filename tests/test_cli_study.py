"""The study tools on the command line: learn --bootstrap, cv, --discretize, --params auto.

Through the installed console script in a subprocess, checked against the Python API
run on the same data with the same settings.
"""

import json

import numpy as np
import pandas as pd
import pytest

from pgmpy_nml.datasets import load_example_data
from pgmpy_nml.study import Discretizer, bootstrap_strength, compare_procedures

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("study-cli")
    rng = np.random.default_rng(0)
    n = 600
    z = rng.integers(0, 3, n)
    x = z + rng.normal(scale=0.5, size=n)
    y = x + rng.normal(scale=0.7, size=n)
    w = np.where((y > 1) ^ (rng.random(n) < 0.1), "hi", "lo")
    frame = pd.DataFrame({"z": z, "x": x.round(3), "y": y.round(3), "w": w})
    frame.iloc[:400].to_csv(folder / "train.csv", index=False)
    frame.iloc[400:].to_csv(folder / "test.csv", index=False)
    load_example_data().iloc[:800].to_csv(folder / "survey.csv", index=False)
    return folder


@pytest.mark.long
def test_learn_with_bootstrap_matches_the_python_api(files, cli_summary):
    out, got = cli_summary(
        "learn", files / "survey.csv", *"--score qnml --bootstrap 6 --seed 3 --params none".split()
    )
    assert "bootstrap strength over 6 resamples" in out and "averaged network" in out
    got = got["bootstrap"]
    data = pd.read_csv(files / "survey.csv", dtype=str)
    expected = bootstrap_strength(data, scoring_method="qnml", n_bootstrap=6, random_state=3)
    arcs = {(a["from"], a["to"]): (a["strength"], a["direction"]) for a in got["arcs"]}
    for u, v, s, d in expected[["from", "to", "strength", "direction"]].itertuples(index=False):
        if s > 0:
            assert arcs[(u, v)] == pytest.approx((s, d))
    assert got["threshold"] == pytest.approx(expected.attrs["threshold"])
    assert got["cpdag"] is True and got["n_resamples"] == 6 and got["replace"] is True
    out, got = cli_summary(
        "learn", files / "survey.csv", *"--bootstrap 3 --subsample --params none".split()
    )
    assert "half-size subsamples" in out
    got = got["bootstrap"]
    assert got["replace"] is False and got["sample_size"] == 400


@pytest.mark.long
def test_params_auto_follows_the_score(files, cli):
    code, out, err = cli("learn", files / "survey.csv", "--score", "bdeu", "--ess", "4")
    assert code == 0, err
    assert "parameters: auto: bdeu prior, ess 4" in out
    code, out, _ = cli("learn", files / "survey.csv", "--score", "fnml")
    assert "parameters: auto: fsnml" in out


@pytest.mark.long
def test_cv_command_matches_compare_procedures(files, cli, cli_summary):
    out, got = cli_summary(
        "cv", files / "survey.csv", *"--scores fnml qnml --folds 3 --seed 2".split()
    )
    assert "3-fold, seed 2" in out and "diff vs fnml" in out
    data = pd.read_csv(files / "survey.csv", dtype=str)
    expected = compare_procedures(data, {"fnml": "fnml", "qnml": "qnml"}, k=3, random_state=2)
    for name in ["fnml", "qnml"]:
        assert got["losses"][name] == pytest.approx(expected.results[name].folds["loss"].tolist())
        assert got["summary"][name]["diff"] == pytest.approx(expected.summary.loc[name, "diff"])
    code, out, err = cli(
        "cv",
        files / "survey.csv",
        *"--folds 3 --loss error --target T --method hill --hold-out --test-size 0.3".split(),
    )
    assert code == 0, err
    assert "error of T" in out
    code, _, err = cli("cv", files / "survey.csv", "--loss", "error")
    assert code == 2 and "--target" in err


@pytest.mark.long
def test_cv_compares_parent_limits_on_the_same_splits(files, cli, cli_summary):
    """--max-parents with several values: one procedure per score and limit, each the
    library's LearningProcedure with that limit, named by both; 'default' is no flag."""
    from pgmpy_nml import ExactSearch
    from pgmpy_nml.study import LearningProcedure

    argv = "--scores fnml bic --max-parents default 1 --folds 3 --seed 2".split()
    out, got = cli_summary("cv", files / "survey.csv", *argv)
    names = ["fnml --max-parents default", "fnml --max-parents 1"]
    names += ["bic --max-parents default", "bic --max-parents 1"]
    assert list(got["summary"]) == names and got["baseline"] == names[0]
    assert f"diff vs {names[0]}" in out and "cross-validating 4 procedure(s)" in out
    assert "each fit with --max-parents 1: exact search" in out
    assert got["procedures"]["bic --max-parents 1"] == {
        "score": "bic",
        "max_parents": 1,
        "method": "exact",
        "search": got["procedures"]["fnml --max-parents 1"]["search"],
    }
    assert got["procedures"][names[0]]["max_parents"] is None  # the DP's: no limit
    data = pd.read_csv(files / "survey.csv", dtype=str)
    expected = compare_procedures(
        data,
        {
            name: LearningProcedure(ExactSearch(max_parents=limit), scoring_method=score)
            for name, score, limit in zip(
                names, ["fnml"] * 2 + ["bic"] * 2, [None, 1] * 2, strict=True
            )
        },
        k=3,
        random_state=2,
    )
    for name in names:
        assert got["losses"][name] == pytest.approx(expected.results[name].folds["loss"].tolist())
        assert got["summary"][name]["diff_se"] == pytest.approx(
            expected.summary.loc[name, "diff_se"]
        )
    # one limit: named by the score alone, as before
    out, got = cli_summary(
        "cv", files / "survey.csv", *"--scores bic --max-parents 1 --folds 2".split()
    )
    assert list(got["summary"]) == ["bic"] and got["procedures"]["bic"]["max_parents"] == 1


def test_cv_refuses_two_limits_that_are_the_same_search(cli, tmp_path):
    # above 20 variables the exact solver's default limit is 3: the same search as 3
    rng = np.random.default_rng(0)
    wide = pd.DataFrame(rng.choice(["a", "b"], (30, 22)), columns=[f"V{i}" for i in range(22)])
    wide.to_csv(tmp_path / "wide.csv", index=False)
    code, _, err = cli("cv", tmp_path / "wide.csv", "--max-parents", "3", "default")
    assert code == 2, err
    assert "--max-parents 3 and default are the same search on these 22 variables" in err


@pytest.mark.parametrize(
    ("argv", "n_vars", "used"),
    [
        ("--max-parents 0 default 1", 12, [0, None, 1]),  # the DP's default: no limit
        ("--method hill --max-parents 0 default 1", 12, [0, "auto", 1]),  # 0 is a limit
        ("--max-parents default 2", 30, [3, 2]),  # the solver's default above 20
        ("--method hill --max-parents 3", 30, [3]),
    ],
)
def test_cv_plans_one_search_per_limit(argv, n_vars, used):
    from pgmpy_nml.cli import build_parser
    from pgmpy_nml.cli import cv as cli_cv
    from pgmpy_nml.cli._requests import cv_request

    request = cv_request(build_parser().parse_args(["cv", *argv.split()]))
    plans = cli_cv.cv_plans(request, [f"V{i}" for i in range(n_vars)])
    assert list(plans) == list(request.limits)
    assert [cli_cv._limit_used(p, k) for k, p in plans.items()] == used


@pytest.mark.long
def test_discretize_and_evaluate_with_the_same_cut_points(files, cli):
    summary, bif = files / "learn.json", files / "net.bif"
    code, out, err = cli(
        "learn",
        files / "train.csv",
        *"--discretize quantile:3 --out".split(),
        bif,
        "--json",
        summary,
    )
    assert code == 0, err
    cuts = json.loads(summary.read_text())["cut_points"]
    train = pd.read_csv(files / "train.csv")
    expected = Discretizer("quantile", n_bins=3, columns=["x", "y"]).fit(train).cut_points_
    assert set(cuts) == {"x", "y"}
    for c in cuts:
        assert cuts[c] == pytest.approx(expected[c].tolist())
    code, out, err = cli("evaluate", files / "test.csv", "--model", bif, "--cut-points", summary)
    assert code == 0, err
    assert "log-loss" in out
    code, _, err = cli("evaluate", files / "test.csv", "--model", bif)
    assert code == 2 and "looks continuous" in err
    code, _, err = cli("learn", files / "train.csv", "--discretize", "kmeans")
    assert code == 2 and "METHOD[:BINS]" in err
    code, out, err = cli(
        "learn", files / "train.csv", "--discretize", "hartemink:2", "--params", "none"
    )
    assert code == 0, err
    assert "column 'x' cut at" in out


# -- continuous data through every command ---------------------------------------------
@pytest.fixture(scope="module")
def wine_like(tmp_path_factory):
    """A continuous column, a whole-number measurement that looks like an identifier
    (like wine's proline: 60 distinct values in 100 rows), a constant, a class."""
    folder = tmp_path_factory.mktemp("continuous-cli")
    rng = np.random.default_rng(4)
    n = 150
    target = rng.integers(0, 2, n)
    proline = (400 + 600 * target + rng.integers(0, 90, n) * 5).astype(float)
    frame = pd.DataFrame(
        {
            "alcohol": (12 + target + rng.normal(scale=0.5, size=n)).round(2),
            "proline": proline,
            "target": target,
        }
    )
    frame.iloc[:100].to_csv(folder / "train.csv", index=False)
    frame.iloc[100:].to_csv(folder / "test.csv", index=False)
    return folder


@pytest.mark.long
def test_a_whole_number_measurement_is_cut_by_name_and_reused_everywhere(wine_like, cli, tmp_path):
    train, test = wine_like / "train.csv", wine_like / "test.csv"
    code, _, err = cli("learn", train, "--discretize", "quantile:3", "--params", "none")
    assert code == 2
    for way in ("--discretize-columns proline", "--drop-columns proline", "--discrete proline"):
        assert way in err
    bif, summary = tmp_path / "net.bif", tmp_path / "learn.json"
    code, out, err = cli(
        "learn",
        train,
        *"--discretize quantile:3 --discretize-columns proline".split(),
        "--out",
        bif,
        "--json",
        summary,
    )
    assert code == 0, err
    learned = json.loads(summary.read_text())
    assert len(learned["cut_points"]["proline"]) == 2 and "column 'proline' cut at" in out
    data = pd.read_csv(train)
    expected = (
        Discretizer("quantile", n_bins=3, columns=["alcohol", "proline"]).fit(data).cut_points_
    )
    assert learned["cut_points"]["proline"] == pytest.approx(expected["proline"].tolist())
    # score and fit on the raw CSV: with the saved cut points, or cutting it again alike
    scored = {}
    for way in (
        ["--cut-points", summary],
        ["--discretize", "quantile:3", "--discretize-columns", "proline"],
    ):
        score_json = tmp_path / "score.json"
        code, _, err = cli(
            "score", train, "--model", bif, "--scores", "fnml", *way, "--json", score_json
        )
        assert code == 0, err
        scored[way[0]] = json.loads(score_json.read_text())["total_scores"]["fnml"]
    assert scored["--cut-points"] == pytest.approx(learned["total_score"], rel=1e-12)
    assert scored["--discretize"] == pytest.approx(learned["total_score"], rel=1e-12)
    fit_json = tmp_path / "fit.json"
    code, _, err = cli(
        "fit",
        train,
        "--model",
        bif,
        "--cut-points",
        summary,
        "--out",
        tmp_path / "refit.bif",
        "--json",
        fit_json,
    )
    assert code == 0, err
    assert json.loads(fit_json.read_text())["n_parameters"] == learned["n_parameters"]
    code, out, err = cli("evaluate", test, "--model", bif, "--cut-points", summary)
    assert code == 0 and "log-loss:" in out, err
    # without the cut points, evaluate and score name the flags that cut
    code, _, err = cli("evaluate", test, "--model", bif)
    assert code == 2 and "--cut-points SUMMARY.json" in err
    code, _, err = cli("score", train, "--model", bif)
    assert code == 2 and "--discretize METHOD[:BINS]" in err and "--cut-points" in err
    code, _, err = cli(
        "fit", train, "--model", bif, "--cut-points", summary, "--discretize", "quantile"
    )
    assert code == 2 and "not both" in err


def test_the_continuous_column_error_suggests_discretize(wine_like, cli):
    code, _, err = cli("learn", wine_like / "train.csv", "--drop-columns", "proline")
    assert code == 2 and "--discretize METHOD[:BINS]" in err and "'alcohol'" in err
    code, _, err = cli("learn", wine_like / "train.csv")
    assert code == 2 and "--discretize METHOD[:BINS] --discretize-columns proline" in err


@pytest.mark.long
def test_discretize_keeps_its_promises_on_the_command_line(cli, tmp_path):
    rng = np.random.default_rng(1)
    frame = pd.DataFrame(
        {
            "x": rng.normal(size=60).round(3),
            "c": [2.5] * 60,
            "two": rng.choice([0.5, 1.5], 60),
            "y": rng.integers(0, 2, 60),
        }
    )
    frame.to_csv(tmp_path / "d.csv", index=False)
    summary = tmp_path / "s.json"
    code, out, err = cli(
        "learn",
        tmp_path / "d.csv",
        "--discretize",
        "quantile:10",
        "--params",
        "none",
        "--json",
        summary,
    )
    assert code == 0, err
    assert "(no cut)" not in out
    assert "column 'c' is not cut" in out and "single state 0" in out
    assert "--drop-columns c" in out
    assert "'two' is cut into 2 intervals instead of 10: it has only 2 distinct values" in out
    cuts = json.loads(summary.read_text())["cut_points"]
    assert len(cuts["two"]) == 1 and cuts["c"] == [] and len(cuts["x"]) == 9
    text = frame.astype(str)
    text.loc[3, "x"] = "inf"
    text.to_csv(tmp_path / "inf.csv", index=False)
    code, _, err = cli(
        "learn", tmp_path / "inf.csv", "--discretize", "interval", "--params", "none"
    )
    assert code == 2 and "'x' holds 1 infinite value(s)" in err and "--na-values" in err
    code, _, err = cli(
        "learn", tmp_path / "d.csv", "--discretize", "quantile", "--discretize-columns", "nope"
    )
    assert code == 2 and "--discretize-columns names 'nope'" in err
    frame.assign(s=["a", "b"] * 30).to_csv(tmp_path / "s.csv", index=False)
    code, _, err = cli(
        "learn", tmp_path / "s.csv", "--discretize", "quantile", "--discretize-columns", "s"
    )
    assert code == 2 and "column 's' holds 'a', which is not a number" in err
