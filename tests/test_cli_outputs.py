"""The command line to the last byte (issue 18, item 7): output paths checked before the
work and written atomically, flag values refused by argparse naming the flag, input
errors (exit 2) told apart from internal ones (exit 1), and cv's --time-limit and
restarts doing what they say. Through the installed console script, except where a
fault must be injected into the running command."""

import json
import os
import stat
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pgmpy_nml import cli as cli_module
from pgmpy_nml.cli import _outputs as cli_outputs
from pgmpy_nml.cli import cv as cli_cv
from pgmpy_nml.cli._requests import search_request
from pgmpy_nml.cli._search import plan_search
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

    monkeypatch.setattr(cli_outputs, "_strict_json", broken)  # the JSON fails after the work
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
@pytest.mark.long
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


@pytest.mark.long
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


@pytest.mark.long
def test_the_librarys_input_errors_still_exit_2(data, cli):
    # cv_splits' own check, deep in the library, is an input error
    one_line_error(cli("cv", data, "--folds", "500", "--scores", "fnml"), "need at least 500 rows")


# -- cv's search options ----------------------------------------------------------------
@pytest.mark.long
def test_cv_time_limit_reaches_the_exact_search(data, cli_summary):
    _, facts = cli_summary("cv", data, "--scores", "fnml", "--folds", "2", "--time-limit", "30")
    assert facts["time_limit"] == 30.0
    args = cli_module.build_parser().parse_args(["cv", "--time-limit", "30"])
    search = cli_cv.cv_search(plan_search(search_request(args), [f"V{i}" for i in range(30)]))
    assert search.time_limit == 30.0 and search.max_parents == 3
    from pgmpy_nml.study import LearningProcedure

    procedure = LearningProcedure(search, scoring_method="qnml")
    fresh = procedure.search_for(procedure.score_for(pd.read_csv(data, dtype=str)))
    assert fresh.time_limit == 30.0 and type(fresh.scoring_method).__name__ == "QNML"


@pytest.mark.long
def test_cv_above_64_variables_runs_the_restarts_it_promises(cli_summary, tmp_path):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.choice(["a", "b"], (40, 66)), columns=[f"V{i}" for i in range(66)])
    frame.to_csv(tmp_path / "wide.csv", index=False)
    out, facts = cli_summary(
        "cv", tmp_path / "wide.csv", "--scores", "bic", "--folds", "2", "--max-parents", "1"
    )
    # a search run once a split: 10 restarts (learn alone runs 1000)
    assert "hill climbing with 10 order-based restarts" in out
    assert facts["method"] == "hill" and facts["restarts"] == 10
    args = cli_module.build_parser().parse_args(["cv", "--max-parents", "1", "--seed", "7"])
    wide = [f"V{i}" for i in range(66)]
    search = cli_cv.cv_search(plan_search(search_request(args), wide, repeated=True))
    assert (search.restarts, search.random_state, search.method) == (10, 7, "hill")
    assert search.time_limit == 300.0 and search.perturbation == "order"
    learn_args = cli_module.build_parser().parse_args(["learn"])
    assert plan_search(search_request(learn_args), wide).restarts == 1000


# -- learn's notes ------------------------------------------------------------------------
@pytest.mark.long
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


# -- outputs never replace an input, a device or a link (issue 34, item 1) ---------------
@pytest.fixture
def run(capsys):
    """The command line in this process (no interpreter to start: milliseconds for a
    refusal): ``run(*argv)`` -> (exit code, stdout, stderr)."""

    def run(*argv):
        code = cli_module.main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture
def model_file(data, run, tmp_path):
    """A fitted network of the survey data (BIF)."""
    model = tmp_path / "m.bif"
    code, _, err = run("fit", data, "--edges", "A->E,S->E", "--out", model)
    assert code == 0, err
    return model


def _spellings(path, tmp_path):
    """Other names of the file ``path``: ./ and ../ spellings, a symbolic link, a hard link."""
    link = tmp_path / f"link-{path.name}"
    link.symlink_to(path)
    hard = tmp_path / f"hard-{path.name}"
    hard.hardlink_to(path)
    dotted = path.parent / "." / ".." / path.parent.name / path.name
    return [path, dotted, link, hard]


def test_an_output_never_replaces_an_input(run, data, model_file, tmp_path):
    """The data file, --model and --cut-points, by any spelling or link, as --json or --out:
    refused (exit 2) before the work, every file as it was."""
    test_csv = tmp_path / "test.csv"
    test_csv.write_bytes(data.read_bytes())
    cuts = tmp_path / "cuts.json"
    cuts.write_text(json.dumps({"x": [0.5]}))
    before = {p: p.read_bytes() for p in (test_csv, model_file, cuts)}
    for name in _spellings(test_csv, tmp_path):
        for argv in (
            ["learn", test_csv, "--method", "hill", "--json", name],
            ["learn", test_csv, "--method", "hill", "--out", name.with_suffix(".bif")],
            ["score", test_csv, "--edges", "A->E", "--json", name],
            ["cv", test_csv, "--scores", "bic", "--folds", "2", "--json", name],
        ):
            if str(argv[-1]).endswith(".bif") and not Path(argv[-1]).exists():
                continue  # a .bif spelling of the CSV is another file
            err = one_line_error(run(*argv), "which this command reads")
            assert "learning the structure" not in err
    for name in _spellings(model_file, tmp_path):
        for flag in ("--json", "--out"):
            if flag == "--out":
                argv = ["fit", test_csv, "--model", model_file, "--out", name]
            else:
                argv = ["evaluate", test_csv, "--model", model_file, "--json", name]
            one_line_error(run(*argv), f"{flag} {name} is --model {model_file}")
    one_line_error(
        run("evaluate", test_csv, "--model", model_file, "--cut-points", cuts, "--json", cuts),
        f"is --cut-points {cuts}",
    )
    assert {p: p.read_bytes() for p in before} == before


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="mknod needs root")
def test_a_device_is_written_directly_and_stays_a_device(run, data, tmp_path):
    """Device nodes of the test's own (the numbers of /dev/null and /dev/full on Linux):
    written in place, never replaced by a regular file; a full device is the user's error
    (exit 2, "No space left on device")."""
    null, full, network = tmp_path / "null", tmp_path / "full", tmp_path / "null.bif"
    for node, minor in ((null, 3), (full, 7), (network, 3)):
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
    code, out, err = run("learn", data, "--method", "hill", "--json", null, "--out", network)
    assert code == 0, err
    assert "summary written to" in out and "network written to" in out
    assert stat.S_ISCHR(null.stat().st_mode) and stat.S_ISCHR(network.stat().st_mode)
    result = run("learn", data, "--method", "hill", "--json", full)
    one_line_error(result, "No space left on device")
    assert "summary written" not in result[1]
    assert stat.S_ISCHR(full.stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["full", "null", "null.bif"]


def test_a_link_is_followed_and_kept(run, data, tmp_path):
    """--json LINK writes the link's target and leaves the link; a dangling link creates its
    target."""
    target = tmp_path / "real.json"
    target.write_text("old")
    link = tmp_path / "summary.json"
    link.symlink_to(target)
    dangling = tmp_path / "net.bif"
    dangling.symlink_to(tmp_path / "networks.bif")
    code, _, err = run("learn", data, "--method", "hill", "--json", link, "--out", dangling)
    assert code == 0, err
    assert link.is_symlink() and dangling.is_symlink()
    assert json.loads(target.read_text())["command"] == "learn"
    assert (tmp_path / "networks.bif").read_text().startswith("network")


def test_a_named_pipe_is_written_directly(run, data, tmp_path):
    """A FIFO (a reader's end, as with process substitution) gets the summary and stays a
    FIFO."""
    import threading

    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_text()), daemon=True)
    reader.start()
    code, _, err = run("learn", data, "--method", "hill", "--json", fifo)
    reader.join(timeout=60)
    assert code == 0, err
    assert json.loads(received[0])["command"] == "learn"
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_an_existing_output_keeps_its_permissions(run, data, tmp_path):
    summary = tmp_path / "summary.json"
    summary.write_text("{}")
    summary.chmod(0o600)
    code, _, err = run("learn", data, "--method", "hill", "--json", summary)
    assert code == 0, err
    assert stat.S_IMODE(summary.stat().st_mode) == 0o600
    assert json.loads(summary.read_text())["command"] == "learn"


def _portfolio_folders(folder):
    return sorted(folder.glob("pgmpy-nml-portfolio-*"))


@pytest.mark.long
@pytest.mark.parametrize("sig", ["SIGTERM", "SIGKILL"])
def test_a_stopped_portfolio_leaves_no_folder(network_sample, tmp_path, sig):
    """``timeout`` sends SIGTERM; a SIGKILL gives the process no chance at all: the solver's
    process removes the folder the two shared (and ends) within seconds either way."""
    import signal
    import subprocess
    import sys
    import time

    _, frame = network_sample("hailfinder", 1000, 0)
    path = tmp_path / "hail.csv"
    frame.to_csv(path, index=False)
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    argv = [sys.executable, "-m", "pgmpy_nml", "learn", str(path), "--score", "bdeu"]
    argv += ["--ess", "100", "--method", "solver|solver", "--time-limit", "300"]
    process = subprocess.Popen(
        argv,
        env={**os.environ, "TMPDIR": str(scratch)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 240
        while not _portfolio_folders(scratch):
            assert process.poll() is None, "ended before the portfolio started"
            assert time.monotonic() < deadline, "the portfolio never started"
            time.sleep(0.2)
        time.sleep(2)  # the solver's process is up and working
        process.send_signal(getattr(signal, sig))
        process.wait(timeout=60)
        deadline = time.monotonic() + 30
        while _portfolio_folders(scratch) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not _portfolio_folders(scratch), list(scratch.rglob("*"))
    finally:
        if process.poll() is None:
            process.kill()


def test_a_large_bif_file_says_its_round_trip_check_is_slow(tmp_path, capsys, monkeypatch):
    """pgmpy's BIF reader takes tens of seconds on hundreds of thousands of probabilities
    (plants: 37 s): learn says so before it checks, and names XMLBIF; small files do not."""
    data = load_example_data().iloc[:500]
    data.to_csv(tmp_path / "d.csv", index=False)
    argv = ["learn", str(tmp_path / "d.csv"), "--method", "hill"]
    assert cli_module.main([*argv, "--out", str(tmp_path / "a.bif")]) == 0
    assert "pgmpy's BIF reader checks" not in capsys.readouterr().out
    monkeypatch.setattr(cli_outputs, "BIF_SLOW_CHECK", 10)
    assert cli_module.main([*argv, "--out", str(tmp_path / "b.bif")]) == 0
    out = capsys.readouterr().out
    assert f"writing {tmp_path / 'b.bif'}: pgmpy's BIF reader checks that the file reads" in out
    assert "--out FILE.xml" in out
    assert cli_module.main([*argv, "--out", str(tmp_path / "c.xml")]) == 0
    assert "reader checks" not in capsys.readouterr().out
