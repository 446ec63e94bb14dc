"""Long work talks: periodic progress lines where stderr is not a terminal."""

import io
import json
import time

import pandas as pd
import pytest

from pgmpy_nml import ExactSearch
from pgmpy_nml._progress import PeriodicLines, progress_bar
from pgmpy_nml._progress import keep_alive as _progress_keep_alive
from pgmpy_nml.datasets import sample_network


def test_periodic_lines_say_elapsed_share_and_postfix():
    out = io.StringIO()
    bar = PeriodicLines("scoring", total=4, every=0.0, stream=out)
    bar.update(1)
    bar.set_postfix_str("score -3")
    bar.update(3)
    bar.close()
    bar.close()  # once only
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("scoring: 0:00:00 elapsed, 25%, about")
    assert lines[-1] == "scoring: 0:00:00 elapsed, 100%, score -3 (done)"
    assert len(lines) == 4


def test_quiet_runs_print_nothing():
    out = io.StringIO()
    with PeriodicLines("x", every=60.0, stream=out) as bar:
        bar.update(5)
    assert out.getvalue() == ""


def test_progress_bar_picks_lines_off_a_terminal(monkeypatch, capsys):
    monkeypatch.setenv("PGMPY_NML_PROGRESS_SECONDS", "0")
    bar = progress_bar(True, "exact search", total=None)
    assert isinstance(bar, PeriodicLines) and bar.every == 0.0
    bar.set_postfix_str("gap 1%")
    bar.close()
    assert "exact search" in capsys.readouterr().err
    assert not isinstance(progress_bar(False, "x"), PeriodicLines)


@pytest.mark.long
def test_exact_search_talks_in_a_log(monkeypatch, capsys):
    monkeypatch.setenv("PGMPY_NML_PROGRESS_SECONDS", "0")
    _, data = sample_network("alarm", 300, random_state=0)
    search = ExactSearch("bdeu", max_parents=2, time_limit=3, show_progress=True).fit(data)
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("exact search")]
    assert lines, err
    last = lines[-1]
    assert last.endswith("(done)") and "bound" in last and "gap" in last
    # the last line agrees with the result
    gap = float(last.split("gap ")[1].split("%")[0])
    assert gap == pytest.approx(100 * search.gap_, abs=1e-4)


@pytest.mark.long
def test_default_parent_limit_agrees_with_the_command_line(cli):
    from pgmpy_nml.search import choose_search

    _, data = sample_network("alarm", 200, random_state=0)
    data = data.iloc[:, :30]
    search = ExactSearch("fnml", time_limit=5, n_jobs=1, show_progress=False).fit(data)
    assert (search.method_, search.max_parents_) == ("astar", 3)  # two cores: "astar|solver"
    assert choose_search(30, "exact") == ("astar", 3)
    assert choose_search(56, "exact") == ("solver", 3)
    assert choose_search(20, "exact") == ("dp", None)
    code, out, _ = cli("learn", "--help")
    assert code == 0
    text = " ".join(out.split())
    assert "3 for the exact solver above 20 variables" in text
    assert "600 s" in text


@pytest.mark.long
def test_cli_learn_prints_progress_lines_and_a_default_time_limit(cli, alarm_csv):
    path = alarm_csv
    code, out, err = cli(
        "learn",
        path,
        "--score",
        "bdeu",
        "--ess",
        "10",
        "--time-limit",
        "6",
        env={"PGMPY_NML_PROGRESS_SECONDS": "0.2"},
    )
    assert code == 0, err
    lines = [line for line in err.splitlines() if line.startswith("exact search")]
    assert lines and "gap" in lines[-1] and lines[-1].endswith("(done)"), err
    assert any(line.startswith("candidate sets") for line in err.splitlines()), err
    # the last progress line and the summary agree (proven or not: how far the search
    # gets in 6 s depends on the machine)
    gap_line = float(lines[-1].split("gap ")[1].split("%")[0])
    if "not proven optimal" in out:
        assert "larger --time-limit" in out
        gap_summary = float(out.split("gap ")[1].split("%")[0])
        assert gap_line == pytest.approx(gap_summary, rel=1e-2, abs=1e-3)
    else:
        assert "proven optimal" in out and gap_line == 0.0


@pytest.mark.long
def test_time_limit_flag_takes_inf(cli, tmp_path):
    data = pd.DataFrame({"A": [0, 1, 1, 0] * 5, "B": [0, 1, 1, 1] * 5})
    path = tmp_path / "d.csv"
    data.to_csv(path, index=False)
    code, out, err = cli("learn", path, "--time-limit", "inf")
    assert code == 0, err
    assert "proven optimal" in out


@pytest.mark.long
def test_default_time_limit_says_how_to_go_further(monkeypatch, capsys, alarm_csv):
    from pgmpy_nml import cli
    from pgmpy_nml.cli import _search

    path = alarm_csv
    monkeypatch.setattr(_search, "EXACT_TIME_LIMIT", 0.5)  # not even A*'s bound tables fit
    code = cli.main(["learn", str(path), "--score", "bdeu", "--ess", "10", "--params", "none"])
    out = capsys.readouterr().out
    assert code == 0
    assert "when the default time limit of 0.5 s ran out" in out
    assert "--time-limit SECONDS (or --time-limit inf)" in out


def _progress_gaps(lines):
    """The gap (in %) of each progress line."""
    return [float(line.split("gap ")[1].split("%")[0]) for line in lines]


@pytest.mark.long
def test_cli_solver_talks_during_the_root_and_ends_with_the_summary_gap(cli, alarm_csv, tmp_path):
    # alarm, N = 1000, fNML, 3 parents: SCIP's root cut loop takes longer than the 5 s
    # limit; before, nothing was printed there unless the incumbent changed, and the last
    # line was written before the order search improved the network
    summary = tmp_path / "summary.json"
    code, out, err = cli(
        "learn",
        alarm_csv,
        "--method",
        "solver",
        "--score",
        "fnml",
        "--max-parents",
        "3",
        "--time-limit",
        "5",
        "--params",
        "none",
        "--json",
        summary,
        env={"PGMPY_NML_PROGRESS_SECONDS": "0.2"},
    )
    assert code == 0, err
    lines = [line for line in err.splitlines() if line.startswith("exact search")]
    assert lines and lines[-1].endswith("(done)"), err
    root = [line for line in lines[:-1] if line.endswith("nodes 1")]  # the root's node
    assert len(root) >= 3, err
    assert all("score" in line and "bound" in line for line in root)
    assert len({line.split("elapsed")[0] for line in root}) >= 2, err  # over time
    assert all(gap > 0 for gap in _progress_gaps(root)), err
    result = json.loads(summary.read_text())
    assert not result["optimal"] and "not proven optimal" in out
    (gap_line,) = _progress_gaps(lines[-1:])
    assert gap_line == pytest.approx(100 * result["gap"], abs=1e-4)
    bound_line = float(lines[-1].split("bound ")[1].split()[0])
    assert bound_line == pytest.approx(result["bound"], rel=1e-5)  # 6 significant digits


class _Bar:
    def __init__(self):
        self.texts = []

    def set_postfix_str(self, text):
        self.texts.append(text)


def test_solver_progress_handler_updates_at_most_every_period():
    from pyscipopt import Model

    from pgmpy_nml.search.candidates._scip_plugins import Progress

    model = Model()
    model.hideOutput(True)
    x = model.addVar(vtype="B", obj=1.0)
    model.setMaximize()
    model.addCons(x <= 1)
    model.optimize()
    now = [0.0]
    bar = _Bar()
    handler = Progress(bar, offset=-3.0, every=0.5, clock=lambda: now[0])
    handler.model = model
    for t in (0.0, 0.1, 0.4, 0.49, 0.5, 0.7, 1.2, 1.3, 5.0):
        now[0] = t
        handler.eventexec(None)
    assert len(bar.texts) == 4  # at 0, 0.5, 1.2 and 5.0
    assert bar.texts[0].startswith("score -2  bound -2  gap 0.0000%  nodes ")


def test_solver_lines_keep_coming_while_scip_is_busy(monkeypatch):
    # a callback that takes a while (as one long LP does): no event, yet lines at the period
    from test_solver import random_candidates

    from pgmpy_nml import _progress
    from pgmpy_nml.search.candidates import _scip_plugins, solve

    stream = io.StringIO()
    monkeypatch.setattr("sys.stderr", stream)
    monkeypatch.setattr(_progress, "_interactive", lambda stream: False)
    monkeypatch.setattr(_progress, "BEAT", 0.05)
    monkeypatch.setenv("PGMPY_NML_PROGRESS_SECONDS", "0.1")
    during = []
    heurexec = _scip_plugins.Sinks.heurexec

    def slow(self, *args):
        if not during:
            before = len(stream.getvalue().splitlines())
            time.sleep(0.8)
            during.append(len(stream.getvalue().splitlines()) - before)
        return heurexec(self, *args)

    monkeypatch.setattr(_scip_plugins.Sinks, "heurexec", slow)
    result = solve(random_candidates(12, 3, per_var=10), show_progress=True)
    assert during and during[0] >= 3, stream.getvalue()
    last = stream.getvalue().splitlines()[-1]
    assert last.endswith("(done)") and f"score {result.score:.6g}" in last


def test_keep_alive_leaves_quiet_and_closed_bars_alone():
    out = io.StringIO()
    with _progress_keep_alive(None) as bar:
        assert bar is None
    lines = PeriodicLines("x", every=0.0, stream=out)
    lines.close()
    with _progress_keep_alive(lines, beat=0.01):
        time.sleep(0.05)
    assert out.getvalue().count("\n") == 1  # the close's line only


@pytest.mark.long
def test_a_star_then_solver_ends_with_the_combined_line(monkeypatch, capsys):
    # A* stopped by its memory cap, then SCIP from its network: the last line is the
    # combined result (the smaller of the two proven bounds), not the solver's own
    monkeypatch.setattr("pgmpy_nml._progress._interactive", lambda stream: False)
    monkeypatch.setenv("PGMPY_NML_PROGRESS_SECONDS", "0")
    _, data = sample_network("alarm", 1000, random_state=0)
    search = ExactSearch(
        "bdeu", max_parents=2, max_memory=3e5, n_jobs=1, time_limit=60, show_progress=True
    ).fit(data.iloc[:, :24])
    assert search.method_ == "astar+solver"
    last = capsys.readouterr().err.splitlines()[-1]
    assert last.startswith("exact search (A* then the solver): ") and last.endswith("(done)")
    (gap,) = _progress_gaps([last])
    assert gap == pytest.approx(100 * search.gap_, abs=1e-4)
    assert f"bound {search.bound_:.6g}" in last and f"score {search.score_:.6g}" in last
