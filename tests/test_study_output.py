"""Bootstrap output that says what it means, and progress of long study commands
(issue 18, item 5).

The CLI tests run the installed console script with stderr captured (not a
terminal) and check its table, files and progress lines against the JSON summary
and the networks read back with pgmpy.
"""

import io
import itertools
import re

import pytest
from pgmpy.readwrite import BIFReader, XMLBIFReader

from pgmpy_nml._progress import Progress
from pgmpy_nml.study import bootstrap_strength, compare_procedures, cross_validate


# -- the progress mechanism -------------------------------------------------------------
class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


@pytest.mark.parametrize("interval", [1.0, 7.5, 30.0])
def test_progress_prints_a_line_at_start_end_and_every_interval(interval):
    clock, out = Clock(), io.StringIO()
    total, step = 120, 0.9  # one unit every 0.9 s
    with Progress(total, "bootstrap", "resamples", file=out, interval=interval, clock=clock) as p:
        for _ in range(total):
            clock.now += step
            p.update()
    lines = out.getvalue().splitlines()
    assert lines[0] == "bootstrap: 0/120 resamples"
    assert lines[-1] == "bootstrap: 120/120 resamples (100%), 0:01:48 elapsed"
    # a line as soon as an interval has passed since the last one, never sooner
    times = [0.0]
    for line in lines[1:-1]:
        done = int(re.match(r"bootstrap: (\d+)/120 resamples", line).group(1))
        times.append(done * step)
        assert "elapsed, about" in line and "left" in line
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert gaps and all(interval - 1e-9 <= g < interval + step for g in gaps)
    assert total * step - times[-1] < interval + step  # the last interval too


def test_progress_estimates_the_time_left():
    clock, out = Clock(), io.StringIO()
    p = Progress(4, "cv", "fits", file=out, interval=0, clock=clock)
    clock.now = 60.0
    p.update()
    assert (
        out.getvalue().splitlines()[-1] == "cv: 1/4 fits (25%), 0:01:00 elapsed, about 0:03:00 left"
    )


def test_progress_shows_nothing_when_told_not_to():
    out = io.StringIO()
    with Progress(3, "bootstrap", "resamples", show=False, file=out, interval=0) as p:
        p.update(3)
    assert out.getvalue() == ""


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_draws_a_bar_on_a_terminal():
    out = Terminal()
    with Progress(3, "bootstrap", "resamples", file=out, interval=0) as p:
        p.update(3)
    text = out.getvalue()
    assert "\r" in text and "3/3" in text and "bootstrap: 0/3 resamples\n" not in text


def test_study_tools_report_progress_on_stderr(cancer, capsys):
    _, data = cancer
    bootstrap_strength(
        data, scoring_method="qnml", n_bootstrap=3, random_state=0, show_progress=True
    )
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "bootstrap: 0/3 resamples" and err[-1].startswith("bootstrap: 3/3 resamples")
    cross_validate(data, scoring_method="qnml", k=2, random_state=0, show_progress=True)
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "cross-validation: 0/2 fits" and err[-1].startswith("cross-validation: 2/2")
    compare_procedures(data, {"a": "qnml", "b": "bdeu"}, k=2, show_progress=True)
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "cross-validation (2 procedures x 2 splits): 0/4 fits"
    bootstrap_strength(data, scoring_method="qnml", n_bootstrap=2, random_state=0)
    assert capsys.readouterr().err == ""  # silent by default


@pytest.mark.parametrize("flag", ["yes", 1, None])
def test_show_progress_must_be_a_bool(cancer, flag):
    _, data = cancer
    with pytest.raises(TypeError, match="show_progress must be a bool"):
        bootstrap_strength(data, n_bootstrap=2, show_progress=flag)
    with pytest.raises(TypeError, match="show_progress must be a bool"):
        cross_validate(data, k=2, show_progress=flag)


# -- the command line -----------------------------------------------------------------
@pytest.fixture(scope="module")
def iris(tmp_path_factory):
    from sklearn.datasets import load_iris

    frame = load_iris(as_frame=True).frame
    frame.columns = ["Sepal.Length", "Sepal.Width", "Petal.Length", "Petal.Width", "Species"]
    path = tmp_path_factory.mktemp("iris") / "iris.csv"
    frame.to_csv(path, index=False)
    return path


def read_edges(path):
    """The edges of a written network: pgmpy's readers, or the arcs of a DOT file."""
    if path.suffix == ".dot":
        return sorted(re.findall(r'^  "(.+?)" -> "(.+?)";$', path.read_text(), re.M))
    reader = BIFReader if path.suffix == ".bif" else XMLBIFReader
    return sorted(reader(str(path)).get_model().edges())


@pytest.mark.long
@pytest.mark.integration
def test_bootstrap_table_says_when_the_learned_arc_is_reversed(cli, iris, tmp_path):
    summary = tmp_path / "s.json"
    code, out, err = cli(
        "learn", iris, "--discretize", "quantile:3", "--score", "qnml", "--bootstrap", "20",
        "--json", summary,
    )  # fmt: skip
    assert code == 0, err
    import json

    got = json.loads(summary.read_text())
    learned = {tuple(e) for e in got["edges"]}
    averaged = {tuple(e) for e in got["bootstrap"]["averaged_edges"]}
    marks = set()
    for arc in got["bootstrap"]["arcs"]:
        u, v = arc["from"], arc["to"]
        for field, edges in (("learned", learned), ("averaged", averaged)):
            expected = "yes" if (u, v) in edges else "reversed" if (v, u) in edges else "no"
            assert arc[field] == expected
        marks.add(arc["learned"])
    assert "reversed" in marks  # the case of the issue: the strongest arc learned the other way
    rows = {}
    for line in out.splitlines():
        m = re.match(
            r"\s*(\S+->\S+)\s+([\d.]+)\s+([\d.]+)\s*(yes|reversed)?\s*(yes|reversed)?$", line
        )
        if m:
            rows[m.group(1)] = (m.group(4) or "no", m.group(5) or "no")
    by_arc = {
        f"{a['from']}->{a['to']}": (a["learned"], a["averaged"]) for a in got["bootstrap"]["arcs"]
    }
    assert rows and all(by_arc[arc] == marks for arc, marks in rows.items())
    assert "reversed = it has the arc the other way" in out


@pytest.mark.long
@pytest.mark.integration
@pytest.mark.parametrize("suffix", [".bif", ".xml", ".dot"])
def test_out_and_out_averaged_write_the_two_networks_labelled(cli_summary, iris, tmp_path, suffix):
    learned, averaged = tmp_path / f"learned{suffix}", tmp_path / f"averaged{suffix}"
    out, got = cli_summary(
        "learn", iris, "--discretize", "quantile:3", "--score", "qnml", "--bootstrap", "10",
        "--seed", "2", "--out", learned, "--out-averaged", averaged,
    )  # fmt: skip
    assert f"learned network written to {learned}" in out
    assert f"averaged network ({len(got['bootstrap']['averaged_edges'])} arcs of strength" in out
    assert f"written to {averaged}" in out
    written = got["bootstrap"]["networks_written"]
    assert written == {"learned": str(learned), "averaged": str(averaged)}
    for path, edges in ((learned, got["edges"]), (averaged, got["bootstrap"]["averaged_edges"])):
        assert read_edges(path) == sorted(map(tuple, edges))


@pytest.mark.long
@pytest.mark.integration
def test_out_with_bootstrap_says_it_is_the_learned_network(cli, iris, tmp_path):
    target = tmp_path / "n.bif"
    code, out, err = cli(
        "learn", iris, "--discretize", "quantile:3", "--bootstrap", "3", "--out", target
    )
    assert code == 0, err
    assert "learned network (not the averaged one: --out-averaged FILE writes that)" in out
    # without --bootstrap there is one network, as before
    code, out, _ = cli("learn", iris, "--discretize", "quantile:3", "--out", target)
    assert code == 0 and f"network written to {target} (BIF)" in out


@pytest.mark.integration
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--out-averaged", "a.bif"],
            "--out-averaged writes the averaged network of the bootstrap",
        ),
        (["--bootstrap", "2", "--out", "a.bif", "--out-averaged", "a.bif"], "both name"),
        (
            ["--bootstrap", "2", "--out-averaged", "a.txt"],
            "--out-averaged a.txt: unknown extension",
        ),
        (["--bootstrap", "2", "--params", "none", "--out-averaged", "a.bif"], "FILE.dot"),
        (["--bootstrap", "2", "--out-averaged", "nodir/a.bif"], "--out-averaged nodir/a.bif: the"),
    ],
)
def test_out_averaged_mistakes_are_one_line_naming_the_flag(cli, iris, tmp_path, argv, message):
    code, out, err = cli("learn", iris, "--discretize", "quantile:3", *argv, cwd=tmp_path)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1, err
    assert "learning the structure" not in out  # refused before the work
    assert not list(tmp_path.iterdir())


@pytest.mark.long
@pytest.mark.integration
def test_long_study_commands_print_progress_lines_when_stderr_is_not_a_terminal(cli, iris):
    code, _, err = cli("learn", iris, "--discretize", "quantile:3", "--bootstrap", "4")
    assert code == 0, err
    lines = err.splitlines()
    assert "bootstrap: 0/4 resamples" in lines
    assert any(line.startswith("bootstrap: 4/4 resamples (100%)") for line in lines)
    assert "\r" not in err
    code, _, err = cli("cv", iris, "--discretize", "quantile:3", "--folds", "2", "--scores",
                       "qnml", "bdeu")  # fmt: skip
    assert code == 0, err
    lines = err.splitlines()
    assert lines[0] == "cross-validation (2 procedures x 2 splits): 0/4 fits"
    assert lines[-1].startswith("cross-validation (2 procedures x 2 splits): 4/4 fits (100%)")
