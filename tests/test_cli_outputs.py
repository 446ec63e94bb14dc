"""The command line to the last byte (issue 18, item 7): output paths checked before the
work and written atomically, flag values refused by argparse naming the flag, input
errors (exit 2) told apart from internal ones (exit 1), and cv's --time-limit and
restarts doing what they say. Through the installed console script, except where a
fault must be injected into the running command."""

import json

import numpy as np
import pandas as pd
import pytest

from pgmpy_nml import cli as cli_module
from pgmpy_nml.cli import _io as cli_io
from pgmpy_nml.cli import cv as cli_cv
from pgmpy_nml.datasets import load_example_data
from pgmpy_nml.exceptions import InputError

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    folder = tmp_path_factory.mktemp("outputs")
    load_example_data().iloc[:300].to_csv(folder / "survey.csv", index=False)
    return folder / "survey.csv"


def one_line_error(result, *fragments, code=2):
    got, _, err = result
    assert got == code, result
    assert err.count("\n") == 1 and "Traceback" not in err, err
    for fragment in fragments:
        assert fragment in err, (fragment, err)
    return err


# -- output paths ---------------------------------------------------------------------
@pytest.mark.parametrize("flag", ["--json", "--out"])
def test_unwritable_outputs_are_refused_before_the_work(data, cli, tmp_path, flag):
    a_file = tmp_path / "plain.txt"
    a_file.write_text("x")
    other = "--out" if flag == "--json" else "--json"
    other_path = tmp_path / ("net.bif" if other == "--out" else "s.json")
    suffix = ".json" if flag == "--json" else ".bif"
    for bad, reason in [
        (f"/proc/summary{suffix}", "cannot write in /proc"),  # not writable, even for root
        (a_file / f"x{suffix}", "does not exist"),  # its directory is a file
        (tmp_path, "is a directory"),
    ]:
        result = cli("learn", data, "--method", "hill", flag, bad, other, other_path)
        one_line_error(result, f"{flag} {bad}", reason)
        assert "learning the structure" not in result[1]  # refused before the work
        assert not other_path.exists()
    same = tmp_path / "same.bif"
    one_line_error(cli("learn", data, "--out", same, "--json", same), "name the same file")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain.txt"]


def test_outputs_are_written_together_or_not_at_all(data, tmp_path, monkeypatch, capsys):
    out, summary = tmp_path / "net.bif", tmp_path / "summary.json"
    argv = ["learn", str(data), "--method", "hill", "--out", str(out), "--json", str(summary)]

    def broken(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(cli_io, "_strict_json", broken)  # the JSON fails after the work
    assert cli_module.main(argv) == 2
    assert "No space left on device" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []  # no network, no temporary file

    monkeypatch.undo()
    out.write_text("an older network")
    assert cli_module.main(argv) == 0
    assert "network written to" in capsys.readouterr().out
    assert out.read_text().startswith("network") and json.loads(summary.read_text())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["net.bif", "summary.json"]


# -- flag values ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["learn", "--method", "tabu", "--tabu-length", "0"], "argument --tabu-length: must be"),
        (["cv", "--folds", "1"], "argument --folds: must be a whole number >= 2"),
        (["cv", "--runs", "0"], "argument --runs: must be a whole number >= 1"),
        (["cv", "--hold-out", "--test-size", "2.5"], "argument --test-size: must be"),
        (["cv", "--method", "hill", "--time-limit", "5"], "--time-limit stops the exact search"),
        (["learn", "--method", "tabu", "--time-limit", "5"], "drop --time-limit"),
    ],
)
def test_flag_values_are_refused_naming_the_flag(cli, tmp_path, argv, fragment):
    one_line_error(cli(*argv, cwd=tmp_path), fragment)
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize(
    ("cut_points", "fragment"),
    [
        ({"x": {"a": 1}}, "column 'x' must be a list of finite numbers"),
        ({"cut_points": {"x": [0.5, "a"]}}, "column 'x' must be a list of finite numbers"),
        ({"x": [1.0, 0.5]}, "column 'x' must increase"),
        ([0.5, 1.0], "holds no cut points"),
    ],
)
def test_evaluate_cut_points_of_the_wrong_shape_are_user_errors(
    cli, tmp_path, cut_points, fragment
):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"x": rng.normal(size=40).round(3), "w": rng.choice(["a", "b"], 40)})
    frame.to_csv(tmp_path / "test.csv", index=False)
    (tmp_path / "net.bif").write_text(
        "network n {\n}\nvariable x {\n  type discrete [ 2 ] { 0, 1 };\n}\n"
        "variable w {\n  type discrete [ 2 ] { a, b };\n}\n"
        "probability ( x ) {\n  table 0.5, 0.5;\n}\nprobability ( w ) {\n  table 0.5, 0.5;\n}\n"
    )
    (tmp_path / "cuts.json").write_text(json.dumps(cut_points))
    result = cli(
        "evaluate",
        tmp_path / "test.csv",
        "--model",
        tmp_path / "net.bif",
        "--cut-points",
        tmp_path / "cuts.json",
    )
    one_line_error(result, "--cut-points", fragment)
    assert "internal error" not in result[2]


# -- input errors and internal errors ----------------------------------------------------
_BUILD_PARSER = cli_module.build_parser  # the real one, before any test patches it


def run_command_as(func, data, monkeypatch, capsys, code):
    """Run ``learn`` with every command's work replaced by ``func``; check the exit code,
    return stderr."""
    parser = _BUILD_PARSER

    def patched():
        built = parser()
        for action in built._subparsers._group_actions:
            for sub in action.choices.values():
                sub.set_defaults(func=func)
        return built

    monkeypatch.setattr(cli_module, "build_parser", patched)
    assert cli_module.main(["learn", str(data)]) == code
    return capsys.readouterr().err


def test_a_library_check_is_an_input_error_and_a_numpy_failure_a_bug(data, monkeypatch, capsys):
    import numpy as np

    def numpy_failure(args):
        np.ones(2) + np.ones(3)  # a bug of ours: a ValueError raised inside numpy

    def library_check(args):
        from pgmpy_nml.search import choose_search

        choose_search(40, "dp")  # a ValueError the package raises with a message

    cases = [(numpy_failure, 1, "internal error (ValueError"), (library_check, 2, "at most 31")]
    for func, code, fragment in cases:
        err = run_command_as(func, data, monkeypatch, capsys, code)
        assert fragment in err and err.count("\n") == 1


def test_only_input_errors_exit_2(data, monkeypatch, capsys):
    def bug(args):
        raise ValueError("operands could not be broadcast together")

    def bad_input(args):
        raise InputError("k must be an integer >= 2, got 1")

    for func, code, fragment in [(bug, 1, "internal error"), (bad_input, 2, "error: k must")]:
        err = run_command_as(func, data, monkeypatch, capsys, code)
        assert fragment in err and err.count("\n") == 1
        if code == 1:
            assert "please report it" in err and "ValueError" in err


def test_the_librarys_input_errors_still_exit_2(data, cli):
    # cv_splits' own check, deep in the library, is an input error
    one_line_error(cli("cv", data, "--folds", "500", "--scores", "fnml"), "need at least 500 rows")


# -- cv's search options ----------------------------------------------------------------
def test_cv_time_limit_reaches_the_exact_search(data, cli_summary):
    _, facts = cli_summary("cv", data, "--scores", "fnml", "--folds", "2", "--time-limit", "30")
    assert facts["time_limit"] == 30.0
    args = cli_module.build_parser().parse_args(["cv", "--time-limit", "30"])
    search = cli_cv._cv_search(args, "exact", 3, 0)
    assert search.time_limit == 30.0 and search.max_parents == 3
    from pgmpy_nml.study import LearningProcedure

    procedure = LearningProcedure(search, scoring_method="qnml")
    fresh = procedure.search_for(procedure.score_for(pd.read_csv(data, dtype=str)))
    assert fresh.time_limit == 30.0 and type(fresh.scoring_method).__name__ == "QNML"


def test_cv_above_64_variables_runs_the_restarts_it_promises(cli_summary, tmp_path):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.choice(["a", "b"], (40, 66)), columns=[f"V{i}" for i in range(66)])
    frame.to_csv(tmp_path / "wide.csv", index=False)
    out, facts = cli_summary(
        "cv", tmp_path / "wide.csv", "--scores", "bic", "--folds", "2", "--max-parents", "1"
    )
    assert "tabu search with 10 random restarts" in out
    assert facts["method"] == "tabu" and facts["restarts"] == 10
    args = cli_module.build_parser().parse_args(["cv"])
    search = cli_cv._cv_search(args, "tabu", 1, 7)
    assert (search.restarts, search.random_state, search.method) == (10, 7, "tabu")


# -- learn's notes ------------------------------------------------------------------------
def test_learn_names_interchangeable_columns(cli_summary, tmp_path):
    """A column copied under other state names: the exact search says the two are
    interchangeable, in the summary and the JSON; a search without them says nothing."""
    frame = load_example_data().iloc[:300].copy()
    frame["E2"] = frame["E"].map({"high": "h", "uni": "u"})
    frame.to_csv(tmp_path / "copied.csv", index=False)
    out, facts = cli_summary("learn", tmp_path / "copied.csv", "--method", "solver")
    assert "note: E, E2 are interchangeable" in out
    assert facts["interchangeable"] == [["E", "E2"]]
    assert facts["optimal"]
    out, facts = cli_summary(
        "learn", tmp_path / "copied.csv", "--drop-columns", "E2", "--method", "solver"
    )
    assert "interchangeable" not in out and "interchangeable" not in facts
