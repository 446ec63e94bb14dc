"""The command-line tool: every subcommand, its files, and its error handling."""

import json
import subprocess
import sys

import pandas as pd
import pytest
from pgmpy.readwrite import BIFReader

from pgmpy_nml.cli import main
from pgmpy_nml.datasets import load_example_data


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_no_command_learns_from_the_bundled_data(capsys):
    code, out, err = run(capsys)
    assert code == 0 and err == ""
    assert "bundled example data" in out and "exact search" in out and "edges (" in out


def test_learn_score_fit_evaluate_round_trip(capsys, tmp_path):
    data = load_example_data()
    train, test = tmp_path / "train.csv", tmp_path / "test.csv"
    data.iloc[:2000].to_csv(train, index=False)
    data.iloc[2000:].to_csv(test, index=False)
    bif, summary = tmp_path / "m.bif", tmp_path / "m.json"
    code, out, _ = run(
        capsys,
        "learn",
        "--data",
        str(train),
        "--score",
        "qnml",
        "--max-parents",
        "2",
        "--forbid",
        "T->R",
        "--out",
        str(bif),
        "--json",
        str(summary),
    )
    assert code == 0, out
    facts = json.loads(summary.read_text())
    assert facts["n_samples"] == 2000 and facts["score"] == "qnml"
    assert ["T", "R"] not in facts["edges"]
    assert sum(facts["local_scores"].values()) == pytest.approx(facts["total_score"], rel=1e-12)
    model = BIFReader(str(bif)).get_model()
    assert sorted(map(list, model.edges())) == sorted(facts["edges"])

    code, out, _ = run(
        capsys, "score", "--data", str(train), "--model", str(bif), "--scores", "fnml", "qnml"
    )
    assert code == 0 and "total" in out
    code, out, _ = run(
        capsys, "score", "--data", str(train), "--model", str(bif), "--json", str(summary)
    )
    totals = json.loads(summary.read_text())["total_scores"]
    assert totals["qnml"] == pytest.approx(facts["total_score"], rel=1e-12)

    fitted = tmp_path / "f.xml"
    code, out, _ = run(
        capsys,
        "fit",
        "--data",
        str(train),
        "--edges",
        "A->E,S->E",
        "--estimator",
        "mle",
        "--out",
        str(fitted),
    )
    assert code == 0 and fitted.exists()

    code, out, _ = run(
        capsys,
        "evaluate",
        "--data",
        str(test),
        "--model",
        str(bif),
        "--bits",
        "--json",
        str(summary),
    )
    assert code == 0 and "bits per row" in out
    assert 0 < json.loads(summary.read_text())["log_loss"] < 20


def test_hill_climbing_and_required_edges(capsys, tmp_path):
    code, out, _ = run(capsys, "learn", "--method", "hill", "--require", "A->T", "--params", "none")
    assert code == 0 and "A->T" in out and "hill search" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["learn", "--data", "/no/such.csv"], "no such data file"),
        (["score"], "give the network to score"),
        (["fit", "--edges", "A->Z"], "'Z', which is not a data column"),
        (["fit", "--edges", "A-E"], "not of the form PARENT->CHILD"),
        (["evaluate", "--model", "/no/such.bif"], "no such network file"),
        (["learn", "--params", "none", "--out", "x.bif"], "--out writes a fitted network"),
    ],
)
def test_user_errors_are_one_line_with_exit_code_2(capsys, argv, message):
    code, _, err = run(capsys, *argv)
    assert code == 2
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_bad_data_files(capsys, tmp_path):
    missing = tmp_path / "missing.csv"
    missing.write_text("A,B\n1,2\n1,\n")
    code, _, err = run(capsys, "learn", "--data", str(missing))
    assert code == 2 and "missing values in column(s) 'B' (1 row)" in err
    continuous = tmp_path / "cont.csv"
    pd.DataFrame({"A": [0.5, 1.25, 2.0], "B": ["x", "y", "x"]}).to_csv(continuous, index=False)
    code, _, err = run(capsys, "learn", "--data", str(continuous))
    assert code == 2 and "'A'" in err and "looks continuous" in err


def test_help_and_module_entry_point():
    for argv in (
        ["--help"],
        ["learn", "--help"],
        ["score", "--help"],
        ["fit", "--help"],
        ["evaluate", "--help"],
    ):
        with pytest.raises(SystemExit) as exit_info:
            main(argv)
        assert exit_info.value.code == 0
    result = subprocess.run(
        [sys.executable, "-m", "pgmpy_nml", "fit", "--edges", "A->B"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "'B', which is not a data column" in result.stderr
