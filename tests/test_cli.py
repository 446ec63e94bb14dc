"""The command-line tool: every subcommand, its files, and its error handling."""

import json
import re
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from pgmpy.readwrite import BIFReader

from pgmpy_nml._limits import (
    AUTO_EXACT_MAX_VARIABLES,
    AUTO_SOLVER_MAX_VARIABLES,
    SOLVER_DEFAULT_MAX_PARENTS,
)
from pgmpy_nml._version import __version__
from pgmpy_nml.cli import main
from pgmpy_nml.datasets import load_example_data

# the command line through the real console script: end-to-end (deselect with -m "not integration")
pytestmark = pytest.mark.integration


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
    assert code == 0 and "A->T" in out and "hill climbing (heuristic" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["learn", "--data", "/no/such.csv"], "no such data file"),
        (["score"], "give the network to score"),
        (["fit", "--edges", "A->Z"], "'Z', which is not a data column"),
        (["fit", "--edges", "A-E"], "not of the form PARENT->CHILD"),
        (["evaluate", "--model", "/no/such.bif"], "no such network file"),
        (["learn", "--params", "none", "--out", "x.bif"], "--out x.bif writes a fitted network"),
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
    assert code == 2 and "1 of 2 rows have missing values (empty cells) in 'B' (1)" in err
    continuous = tmp_path / "cont.csv"
    pd.DataFrame({"A": [0.5, 1.25, 2.0], "B": ["x", "y", "x"]}).to_csv(continuous, index=False)
    code, _, err = run(capsys, "learn", "--data", str(continuous))
    assert code == 2 and "'A'" in err and "looks continuous" in err


@pytest.mark.long
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


# -- the real console script on real-looking files ---------------------------------
def one_line_error(result, *fragments):
    code, _, err = result
    assert code == 2, result
    assert err.count("\n") == 1 and err.startswith("pgmpy-nml"), err
    assert "Traceback" not in err and "usage:" not in err
    for fragment in fragments:
        assert fragment in err, (fragment, err)
    return err


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Small files as R, pandas and European spreadsheets write them."""
    from test_csv import breast_cancer, r_votes

    root = tmp_path_factory.mktemp("csv")
    rng = np.random.default_rng(0)

    def write(name, text):
        (root / name).write_text(text, encoding="utf-8")
        return root / name

    paths = {
        "votes": write("HouseVotes84.csv", r_votes(n=40, seed=0)),
        "cancer": write("BreastCancer.csv", breast_cancer(n=60, seed=0)),
        "semicolon": write(
            "semicolon.csv",
            "A;B;C\n"
            + "".join(f"{'xy'[i % 2]};{'uv'[i % 3 > 0]};{'pq'[i % 5 > 1]}\n" for i in range(30)),
        ),
        "european": write(
            "european.csv",
            "G;W\n" + "".join(f"{'xy'[i % 2]};{60 + i},{i % 10}\n" for i in range(30)),
        ),
        "write_table": write(
            "write_table.txt",
            '"A" "B"\n'
            + "".join(f'"{i + 1}" "{"xy"[i % 2]}" "{"uv"[i % 3 > 0]}"\n' for i in range(30)),
        ),
        "duplicated": write("duplicated.csv", "A,B,A\nx,u,p\ny,v,q\nx,v,q\n"),
        "unnamed": write("unnamed.csv", "A,,C\nx,u,p\ny,v,q\n"),
        "age": write(
            "age.csv", "age,G\n" + "".join(f"{17 + i % 40},{'xy'[i % 2]}\n" for i in range(80))
        ),
        "stray": write(
            "stray.csv",
            "X,G\n"
            + "".join(
                f"{'oops' if i == 4 else f'{rng.normal():.3f}'},{'xy'[i % 2]}\n" for i in range(30)
            ),
        ),
        "garbage_bif": write("garbage.bif", "this is not a network\n"),
        "unfitted_bif": write(
            "unfitted.bif",
            "network x {\n}\nvariable A {\n  type discrete [ 2 ] { a, b };\n}\n",
        ),
        "wide": write(
            "wide.csv",
            ",".join(f"V{i}" for i in range(21))
            + "\n"
            + "".join(",".join(rng.choice(["a", "b"], 21)) + "\n" for _ in range(100)),
        ),
    }
    survey = load_example_data().iloc[:1500]
    paths["survey"] = root / "survey.csv"
    survey.to_csv(paths["survey"], index=False)
    paths["unknown_value"] = root / "unknown_value.csv"
    survey.assign(A=survey["A"].where(survey.index != 3, "zzz")).to_csv(
        paths["unknown_value"], index=False
    )
    from pgmpy.models import DiscreteBayesianNetwork
    from pgmpy.readwrite import BIFWriter

    fitted = DiscreteBayesianNetwork([("A", "E"), ("S", "E"), ("E", "O"), ("E", "R"), ("R", "T")])
    BIFWriter(fitted.fit(survey)).write(str(root / "fitted.bif"))
    text = (root / "fitted.bif").read_text()
    paths["truncated_bif"] = write("truncated.bif", text[: len(text) // 2])
    # a chain A -> B -> C whose edges pgmpy's hill climbing can orient either way (ties)
    a = rng.integers(0, 2, 300)
    b = a ^ (rng.random(300) < 0.1)
    c = b ^ (rng.random(300) < 0.2)
    paths["ties"] = root / "ties.csv"
    pd.DataFrame({"A": a, "B": b.astype(int), "C": c.astype(int)}).to_csv(
        paths["ties"], index=False
    )
    return paths


def test_version_flag(cli):
    code, out, err = cli("--version")
    assert code == 0 and out.strip() == f"pgmpy-nml {__version__}" and err == ""


def test_help_and_version_import_no_heavy_packages():
    probe = (
        "import sys, contextlib, io\n"
        "import pgmpy_nml.cli as c\n"
        "for argv in (['--help'], ['--version'], ['learn', '--help'], ['score', '--help'],\n"
        "             ['fit', '--help'], ['evaluate', '--help']):\n"
        "    with contextlib.redirect_stdout(io.StringIO()):\n"
        "        try:\n"
        "            c.main(argv)\n"
        "        except SystemExit:\n"
        "            pass\n"
        "print(sorted(m for m in ('pgmpy', 'numba', 'pandas') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]", (
        "pgmpy-nml --help / --version imported "
        f"{result.stdout.strip()}: the parser must stay standard-library only, and "
        "pgmpy_nml/__init__.py must import its submodules lazily"
    )


def test_na_cells_are_missing_values_not_states(files, cli):
    err = one_line_error(cli("learn", files["votes"]), "missing values ('NA')", "'V1' (")
    assert "--dropna" in err and "--na-values" in err and "dropna()" not in err


@pytest.mark.long
def test_dropna_reports_the_rows_and_r_row_names_are_ignored(files, tmp_path, cli):
    summary = tmp_path / "s.json"
    code, out, err = cli("learn", files["votes"], "--dropna", "--params", "none", "--json", summary)
    assert code == 0, err
    facts = json.loads(summary.read_text())
    dropped = 40 - facts["n_samples"]
    assert dropped > 0 and f"dropped {dropped} of 40 rows with a missing value (--dropna)" in out
    assert facts["variables"] == ["Class", "V1", "V2"] and "row names" in out


@pytest.mark.long
def test_na_values_can_make_na_a_state(files, tmp_path, cli):
    summary = tmp_path / "s.json"
    code, _, err = cli(
        "learn", files["votes"], "--na-values", "", "--params", "none", "--json", summary
    )
    assert code == 0, err
    assert json.loads(summary.read_text())["n_samples"] == 40


@pytest.mark.long
def test_identifier_column_dropped_or_declared(files, tmp_path, cli):
    summary = tmp_path / "s.json"
    code, _, err = cli(
        "learn", "--data", files["cancer"], "--drop-columns", "Id", "--dropna", "--json", summary
    )
    assert code == 0, err
    assert json.loads(summary.read_text())["variables"] == ["Cl.thickness", "Bare.nuclei", "Class"]
    code, _, err = cli("learn", files["cancer"], "--discrete", "Id", "--dropna", "--params", "none")
    assert code == 0, err


@pytest.mark.long
@pytest.mark.parametrize(
    ("name", "options", "fragments"),
    [
        pytest.param(
            "cancer",
            ["--dropna"],
            ["column 'Id' looks like an identifier", "--drop-columns Id", "--discrete Id"],
            id="identifier-column",
        ),
        pytest.param(
            "age",
            [],
            [
                "column 'age' looks continuous (40 distinct whole numbers from 17 to 56)",
                "--drop-columns age",
            ],
            id="integer-coded-continuous-column",
        ),
        pytest.param(
            "stray", [], ["column 'X' looks continuous", "'oops'"], id="stray-token-in-numbers"
        ),
        pytest.param(
            "semicolon",
            ["--delimiter", ","],
            ["single column 'A;B;C'", "--delimiter ';'"],
            id="wrong-delimiter-not-a-one-column-network",
        ),
        pytest.param(
            "european", [], ["column 'W' looks continuous", "'61,1'"], id="european-decimal-commas"
        ),
        pytest.param(
            "duplicated",
            [],
            ["duplicated column names ('A' in columns 1, 3)"],
            id="duplicated-header-names",
        ),
        pytest.param("unnamed", [], ["column 2 of the header has no name"], id="empty-header-name"),
    ],
)
def test_file_problems_are_one_line_errors(files, cli, name, options, fragments):
    one_line_error(cli("learn", files[name], *options), *fragments)


@pytest.mark.long
@pytest.mark.parametrize(
    ("name", "variables", "note"),
    [
        pytest.param("semicolon", ["A", "B", "C"], "delimited by ';'", id="semicolon-sniffed"),
        pytest.param("write_table", ["A", "B"], "one name fewer than the rows", id="r-write-table"),
    ],
)
def test_file_dialects_are_read_and_reported(files, tmp_path, cli, name, variables, note):
    summary = tmp_path / "s.json"
    code, out, err = cli("learn", files[name], "--params", "none", "--json", summary)
    assert code == 0, err
    assert json.loads(summary.read_text())["variables"] == variables
    assert note in out


@pytest.mark.long
def test_data_file_as_positional_argument(files, cli):
    code, out, err = cli("learn", files["survey"], "--params", "none", "--max-parents", "1")
    assert code == 0, err
    assert f"data: {files['survey']}; 1500 rows, 6 variables" in out
    one_line_error(cli("learn", files["survey"], "--data", files["votes"]), "two data files given")


@pytest.mark.long
@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (
            ["fit", "--estimator", "bdeu", "--ess", "nan", "--edges", "A->E"],
            "--ess: must be a positive number, got 'nan'",
        ),
        (["learn", "--score", "bdeu", "--ess", "-1"], "--ess: must be a positive number, got '-1'"),
        (["score", "--edges", "A->E", "--ess", "0"], "--ess: must be a positive number, got '0'"),
        (["learn", "--max-parents", "-1"], "--max-parents: must be a whole number >= 0, got '-1'"),
        (["learn", "--require", "A->E,E->O,O->A"], "the required edges form a cycle (A->E->O->A)"),
        (
            ["learn", "--require", "A->E", "--forbid", "A->E", "--method", "hill"],
            "the edge A->E is both required (--require) and forbidden (--forbid)",
        ),
        (
            ["learn", "--require", "A->E,S->E", "--max-parents", "1", "--method", "hill"],
            "--require gives 'E' 2 parents, more than --max-parents 1",
        ),
        (["learn", "--tiers", "A,S;E", "--require", "E->A"], "--require E->A goes against --tiers"),
        (["learn", "--tiers", "A;Z"], "--tiers names 'Z', which is not a data column"),
        (["learn", "--require", "A->A"], "a variable cannot be its own parent"),
        (["learn", "--score", "nope"], "invalid choice: 'nope'"),
        (["learn", "--max-memory", "1K"], "--max-memory"),
        (["learn", "--n-jobs", "0"], "--n-jobs: must be a number of threads"),
        (["learn", "--out", "network.txt"], "unknown extension '.txt'"),
        (
            ["learn", "--params", "none", "--out", "network.bif"],
            "write the structure with --out FILE.dot",
        ),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        # a data file after a flag of several values is read as one: said so
        (
            ["cv", "--scores", "fnml", "bic", "data.csv"],
            "--scores: got 'data.csv', a file name: --scores takes every value up to the next "
            "flag, so give the data file before --scores (or as --data data.csv)",
        ),
        (["score", "--scores", "fnml", "my data.TSV"], "give the data file before --scores"),
        (["cv", "--max-parents", "default", "2", "x.csv"], "give the data file before --max"),
        (["cv", "--max-parents", "2.5"], "--max-parents: must be a whole number >= 0 or 'default'"),
        (["cv", "--max-parents", "2", "2"], "--max-parents lists a limit twice"),
        (
            ["learn", "--dropna", "--drop-columns", "A"],
            "--dropna, --drop-columns need(s) a data file",
        ),
    ],
)
def test_command_line_mistakes_are_one_line(argv, fragment, tmp_path, cli):
    one_line_error(cli(*argv, cwd=tmp_path), fragment)
    assert not list(tmp_path.iterdir())  # nothing written


@pytest.mark.long
def test_hill_climbing_honours_every_constraint(files, cli_summary):
    out, facts = cli_summary(
        "learn",
        files["survey"],
        *"--method hill --max-parents 1 --require S->E --forbid E->O,E->R".split(),
        *"--tiers A,S;E;O,R,T --params none".split(),
    )
    edges = {tuple(e) for e in facts["edges"]}
    tier = {"A": 0, "S": 0, "E": 1, "O": 2, "R": 2, "T": 2}
    assert ("S", "E") in edges and not edges & {("E", "O"), ("E", "R")}
    assert all(tier[u] <= tier[v] for u, v in edges)
    children = [v for _, v in edges]
    assert len(children) == len(set(children))  # at most one parent each
    assert "hill climbing (heuristic" in out


@pytest.mark.long
def test_hill_climbing_is_reproducible_whatever_the_hash_seed(files, cli_summary):
    # pgmpy breaks ties between equally good moves in string-hash order, which changes
    # from run to run; the same command must still give the same network
    def edges(hash_seed, *options):
        _, facts = cli_summary(
            "learn",
            files["ties"],
            *"--method hill --score qnml --params none".split(),
            *options,
            env={"PYTHONHASHSEED": hash_seed},
        )
        return str(facts["edges"]), facts["seed"]

    assert len({edges(h) for h in ("1", "3", "5")}) == 1
    assert {edges(h, "--seed", "7") for h in ("1", "3")} == {(edges("5", "--seed", "7")[0], 7)}


@pytest.mark.long
@pytest.mark.parametrize("method", ["solver", "astar", "astar|solver", "solver|solver"])
def test_a_named_engine_reports_its_own_parent_limit(files, cli, method):
    """On few variables the limit comes from the engine, not from the variable count (the
    line said "the default above 20 variables" for 8). The portfolios are reachable by
    name, as in the Python API, and the summary says which ran."""
    code, out, err = cli(
        "learn", files["votes"], "--dropna", "--method", method, "--params", "none"
    )
    assert code == 0, err
    assert (
        f"with at most {SOLVER_DEFAULT_MAX_PARENTS} parents per variable (--method {method}'s "
        "default; set --max-parents)"
    ) in out
    assert f"proven optimal ({method})" in out


def test_every_search_method_of_the_library_is_a_cli_choice():
    """``learn`` and ``cv`` share the argument; the CLI's parser does not import the
    search policy (``--help`` answers at once), so this keeps the two lists in step."""
    import argparse

    from pgmpy_nml.cli._parser import _method_arg
    from pgmpy_nml.search._policy import SEARCH_METHODS

    parser = argparse.ArgumentParser()
    _method_arg(parser)
    assert sorted(parser._option_string_actions["--method"].choices) == sorted(SEARCH_METHODS)


@pytest.mark.long
def test_above_the_dp_the_exact_solver_runs_with_a_reported_parent_limit(files, tmp_path, cli):
    summary = tmp_path / "s.json"
    code, out, err = cli("learn", files["wide"], "--params", "none", "--json", summary)
    assert code == 0, err
    assert (
        f"exact search (proven optimal unless the time limit runs out), with at most "
        f"{SOLVER_DEFAULT_MAX_PARENTS} parents per variable (the default above "
        f"{AUTO_EXACT_MAX_VARIABLES} variables; set --max-parents)"
    ) in out
    # the policy's engine for 21 variables on all of this machine's cores (two or more: A* beside
    # the solver)
    from pgmpy_nml._validate import as_n_jobs
    from pgmpy_nml.search import choose_search

    engine = choose_search(21, "exact", cores=as_n_jobs(-1)).method  # the CLI: all cores
    assert f"proven optimal ({engine})" in out
    facts = json.loads(summary.read_text())
    assert facts["method"] == "exact" and facts["optimal"] is True and facts["gap"] == 0.0
    assert facts["exact_method"] == engine and facts["max_parents"] == SOLVER_DEFAULT_MAX_PARENTS
    if "|" in engine:  # each engine's own network and bound
        engines = facts["engines"]
        assert set(engines) <= set(engine.split("|")) | {"solver (second)"}
        assert max(e["score"] for e in engines.values()) == pytest.approx(facts["total_score"])


@pytest.mark.long
def test_time_limit_reports_the_gap_and_many_variables_say_heuristic(tmp_path, cli):
    rng = np.random.default_rng(7)
    n_vars = AUTO_SOLVER_MAX_VARIABLES + 1
    columns = {f"V{i}": rng.choice(["a", "b", "c"], 300) for i in range(n_vars)}
    for i in range(1, n_vars):  # a chain of noisy copies, so that there is structure
        keep = rng.random(300) < 0.7
        columns[f"V{i}"] = np.where(keep, columns[f"V{i - 1}"], columns[f"V{i}"])
    path = tmp_path / "many.csv"
    pd.DataFrame(columns).to_csv(path, index=False)
    summary = tmp_path / "s.json"
    code, out, err = cli("learn", path, "--params", "none", "--json", summary)
    assert code == 0, err
    assert f"{n_vars} variables are more than the {AUTO_SOLVER_MAX_VARIABLES}" in out
    assert "hill climbing with 1000 order-based restarts (heuristic, not optimal" in out
    assert "no restart begins after 300 s (the default; --time-limit SECONDS" in out
    facts = json.loads(summary.read_text())
    assert facts["optimal"] is False and facts["method"] == "hill"
    assert facts["restarts"] == 1000  # all ran, well within the default limit
    code, out, err = cli(
        "learn", path, "--params", "none", "--restarts", "1000000", "--time-limit", "1"
    )
    assert code == 0, err
    assert "no restart begins after 1 s (--time-limit SECONDS" in out
    assert re.search(
        r"a local optimum \(heuristic\); \d+ of 1000000 restarts ran before the 1 s", out
    )
    code, out, err = cli(
        "learn",
        path,
        "--method",
        "exact",
        "--max-parents",
        "2",
        "--time-limit",
        "0.01",
        "--params",
        "none",
        "--json",
        summary,
    )
    assert code == 0, err
    facts = json.loads(summary.read_text())
    assert facts["bound"] >= facts["total_score"] - 1e-6
    if facts["optimal"]:
        assert "proven optimal (solver)" in out  # above 40 variables: branch and cut
    else:
        assert f"gap {100 * facts['gap']:.3g}% to the bound" in out


@pytest.mark.long
def test_output_format_follows_the_extension_and_json_records_the_run(files, tmp_path, cli):
    dot, bif, summary = tmp_path / "m.dot", tmp_path / "m.xml", tmp_path / "s.json"
    code, out, err = cli(
        "learn", files["survey"], "--score", "bdeu", "--ess", "5", "--out", dot, "--json", summary
    )
    assert code == 0, err
    facts = json.loads(summary.read_text())
    text = dot.read_text()
    assert text.startswith("digraph") and f"network written to {dot} (DOT)" in out
    assert all(f'"{u}" -> "{v}";' in text for u, v in facts["edges"])
    assert facts["pgmpy_nml_version"] == __version__
    assert facts["score"] == "bdeu" and facts["score_parameters"] == {"ess": 5.0}
    assert isinstance(facts["n_parameters"], int)
    assert f'"n_parameters": {facts["n_parameters"]}\n' in summary.read_text()  # not 13.0
    code, _, err = cli("fit", files["survey"], "--edges", "A->E", "--out", bif)
    assert code == 0, err
    assert bif.read_text().lstrip().startswith("<?xml")
    code, _, err = cli("learn", files["survey"], "--params", "none", "--out", dot)
    assert code == 0, err


@pytest.mark.long
def test_bad_network_files_say_the_network_is_bad(files, cli):
    for command in ("evaluate", "score"):
        one_line_error(
            cli(command, files["survey"], "--model", files["garbage_bif"]),
            f"{files['garbage_bif']} is not a valid BIF network file",
        )
    one_line_error(
        cli("evaluate", files["survey"], "--model", files["unfitted_bif"]),
        "unfitted.bif is not a complete BIF network file: no probability table for 'A'",
    )
    one_line_error(  # pgmpy reads the first half and would score a network without edges
        cli("score", files["survey"], "--model", files["truncated_bif"]),
        "truncated.bif is not a complete BIF network file: no probability table for",
    )
    one_line_error(
        cli("evaluate", files["unknown_value"], "--model", files["survey"].parent / "fitted.bif"),
        "column 'A' has value(s) 'zzz' that the network",
    )
    one_line_error(
        cli("evaluate", files["survey"], "--model", files["votes"]), "unknown extension '.csv'"
    )


def test_one_auto_exact_threshold_everywhere():
    from pgmpy_nml.analysis import ess, saturation
    from pgmpy_nml.search import choose_search

    # the threshold the docs quote is where the one policy (choose_search) switches, in the
    # rule of the tools that search many times (tests/test_search_policy.py: every caller)
    n = AUTO_EXACT_MAX_VARIABLES
    assert choose_search(n, repeated=True).exact and not choose_search(n + 1, repeated=True).exact
    for doc in (ess.OptimalESS.__doc__, saturation.learning_saturation.__doc__):
        assert f"``AUTO_EXACT_MAX_VARIABLES`` ({AUTO_EXACT_MAX_VARIABLES}) variables" in doc


def test_exact_search_honours_tiers(capsys, tmp_path):
    summary = tmp_path / "s.json"
    tiers = {"E": 0, "O": 1, "A": 1, "S": 2, "R": 2, "T": 3}
    spec = "E;O,A;S,R;T"
    code, out, err = run(
        capsys, "learn", "--tiers", spec, "--params", "none", "--json", str(summary)
    )
    assert code == 0, err
    facts = json.loads(summary.read_text())
    assert facts["tiers"] == [["E"], ["O", "A"], ["S", "R"], ["T"]] and facts["optimal"] is True
    assert facts["edges"] and all(tiers[u] <= tiers[v] for u, v in facts["edges"])
    # without the tiers the optimum has O->E, which the tiers forbid
    code, out, _ = run(capsys, "learn", "--params", "none")
    assert "O->E" in out


def test_a_local_search_on_wide_data_says_the_parent_limit_it_chose(tmp_path, cli_summary):
    """Fewer rows than variables: the local search's own rule picks a parent limit on
    held-out rows, and learn says so (and records it) instead of a silent limit."""
    rng = np.random.default_rng(5)
    frame = pd.DataFrame(rng.integers(0, 2, (30, 40)), columns=[f"V{i}" for i in range(40)])
    frame.to_csv(tmp_path / "wide.csv", index=False)
    out, facts = cli_summary("learn", tmp_path / "wide.csv", "--method", "hill", "--params", "none")
    limit = facts["max_parents"]
    assert limit in (1, 2, 3, 5)
    assert f"at most {limit} parent(s) per variable, chosen on held-out rows" in out
    out, _ = cli_summary("learn", tmp_path / "wide.csv", "--method", "hill", "--restarts", "3")
    assert "hill climbing with 3 order-based restarts (heuristic" in out  # what runs
