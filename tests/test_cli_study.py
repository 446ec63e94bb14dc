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


def test_learn_with_bootstrap_matches_the_python_api(files, cli_summary):
    out, got = cli_summary(
        "learn", files / "survey.csv", *"--score qnml --bootstrap 6 --seed 3 --params none".split()
    )
    assert "bootstrap strength over 6 resamples" in out and "averaged network" in out
    got = got["bootstrap"]
    data = pd.read_csv(files / "survey.csv", dtype=str)
    expected = bootstrap_strength(data, "exact", "qnml", n_bootstrap=6, random_state=3)
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


def test_params_auto_follows_the_score(files, cli):
    code, out, err = cli("learn", files / "survey.csv", "--score", "bdeu", "--ess", "4")
    assert code == 0, err
    assert "parameters: auto: bdeu prior, ess 4" in out
    code, out, _ = cli("learn", files / "survey.csv", "--score", "fnml")
    assert "parameters: auto: fsnml" in out


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
    expected = Discretizer("quantile", 3, columns=["x", "y"]).fit(train).cut_points_
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
