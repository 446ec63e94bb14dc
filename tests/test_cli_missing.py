"""Missing values on the command line (issue 18, item 4): ``--missing available``.

Through the installed console script on an R-style CSV (``write.csv``: a row-names
column, quoted strings, ``NA``), checked against the Python API on the same data.
"""

import json
import math

import numpy as np
import pandas as pd
import pytest
from pgmpy.readwrite import BIFReader

from pgmpy_nml.datasets import sample_network
from pgmpy_nml.scores import make_score

pytestmark = pytest.mark.integration


def write_r_csv(frame, path):
    """What R's write.csv writes: "" over the row names, quoted strings, bare NA."""
    lines = ['"",' + ",".join(f'"{c}"' for c in frame.columns)]
    for i, row in enumerate(frame.itertuples(index=False), 1):
        cells = ["NA" if pd.isna(v) else f'"{v}"' for v in row]
        lines.append(f'"{i}",' + ",".join(cells))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def incomplete(tmp_path_factory):
    folder = tmp_path_factory.mktemp("missing-cli")
    _, data = sample_network("asia", 400, random_state=0)
    holes = data.astype(object).mask(np.random.default_rng(1).random(data.shape) < 0.08)
    path = folder / "asia_na.csv"
    write_r_csv(holes, path)
    return path, holes.astype(object).where(holes.notna(), None)


@pytest.mark.parametrize("command", [["learn"], ["score", "--edges", "lung->either"], ["cv"]])
def test_the_refusal_names_dropna_and_missing_available(cli, incomplete, command):
    path, holes = incomplete
    n_incomplete = int(holes.isna().any(axis=1).sum())
    extra = ["--folds", "2"] if command == ["cv"] else []
    code, _, err = cli(command[0], path, *command[1:], *extra)
    assert code == 2
    assert f"{n_incomplete} of 400 rows have missing values" in err
    assert "--dropna" in err and "--missing available" in err and "pnal" in err


@pytest.mark.long
@pytest.mark.parametrize("command", ["fit", "evaluate"])
def test_commands_offer_what_they_can_do_with_incomplete_rows(cli, incomplete, tmp_path, command):
    """fit and evaluate take --missing em (EM parameters, the observed-data log-loss),
    never --missing available, which is for the scores of incomplete data."""
    path, _ = incomplete
    model = tmp_path / "m.bif"
    code, _, err = cli("learn", path, "--dropna", "--out", model)
    assert code == 0, err
    code, _, err = cli(command, path, "--model", model)
    assert code == 2 and "--dropna" in err and "--missing em" in err
    assert "--missing available" not in err


@pytest.mark.long
def test_learn_with_pnal_keeps_every_row_and_matches_the_api(cli_summary, incomplete, tmp_path):
    from pgmpy_nml import ExactSearch

    path, holes = incomplete
    model = tmp_path / "pnal.bif"
    out, summary = cli_summary(
        "learn",
        path,
        "--score",
        "pnal",
        "--missing",
        "available",
        "--params",
        "mle",
        "--out",
        model,
    )
    n_incomplete = int(holes.isna().any(axis=1).sum())
    assert "400 rows" in out
    assert f"kept {n_incomplete} of 400 rows with a missing value (--missing available)" in out
    assert summary["n_samples"] == 400
    search = ExactSearch(make_score("pnal", holes), show_progress=False).fit(holes)
    assert summary["edges"] == [list(e) for e in sorted(search.causal_graph_.edges())]
    assert summary["total_score"] == pytest.approx(search.score_, rel=1e-9)
    # maximum-likelihood parameters counted on each family's complete rows
    fitted = BIFReader(str(model)).get_model()
    assert fitted.check_model()
    for cpd in fitted.get_cpds():
        child, parents = cpd.variable, list(cpd.variables[1:])
        rows = holes[[child, *parents]].dropna()
        table = (
            rows.groupby(parents)[child].value_counts(normalize=True)
            if parents
            else (rows[child].value_counts(normalize=True))
        )
        for key, p in table.items():
            key = key if isinstance(key, tuple) else (key,)
            state = key[-1]
            assignment = {child: state, **dict(zip(parents, key[:-1], strict=True))}
            assert cpd.get_value(**assignment) == pytest.approx(p, abs=1e-6)


@pytest.mark.long
def test_score_with_pnal_and_nal_matches_the_api(cli_summary, incomplete):
    path, holes = incomplete
    _, summary = cli_summary(
        "score",
        path,
        "--edges",
        "lung->either,tub->either",
        "--scores",
        "pnal",
        "nal",
        "--missing",
        "available",
    )
    for name in ("pnal", "nal"):
        score = make_score(name, holes)
        assert summary["local_scores"][name]["either"] == pytest.approx(
            score.local_score("either", ("lung", "tub")), rel=1e-12
        )
        assert summary["local_scores"][name]["asia"] == pytest.approx(
            score.local_score("asia", ()), rel=1e-12
        )


@pytest.mark.long
def test_score_a_saved_network_on_incomplete_data(cli, incomplete, tmp_path):
    path, _ = incomplete
    model = tmp_path / "m.bif"
    assert cli("learn", path, "--score", "pnal", "--missing", "available", "--out", model)[0] == 0
    code, out, err = cli(
        "score", path, "--model", model, "--scores", "pnal", "--missing", "available"
    )
    assert code == 0, err
    assert "total" in out


@pytest.mark.long
def test_cv_with_pnal_keeps_the_rows(cli_summary, incomplete):
    path, holes = incomplete
    out, summary = cli_summary(
        "cv",
        path,
        "--scores",
        "pnal",
        "nal",
        "--missing",
        "available",
        "--folds",
        "3",
        "--params",
        "bdeu",
    )
    assert summary["n_samples"] == 400
    complete = int(holes.notna().all(axis=1).sum())
    assert "kept" in out
    for losses in summary["losses"].values():
        assert len(losses) == 3 and all(math.isfinite(x) for x in losses)
    assert complete > 0


@pytest.mark.long
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["learn", "--score", "bic"], "--score bic refuses them: use --score pnal"),
        (["score", "--edges", "lung->either", "--scores", "pnal", "fnml"], "--scores fnml"),
        (["cv", "--scores", "pnal", "qnml"], "--scores qnml refuses them"),
        (["learn", "--score", "pnal", "--dropna"], "--dropna and --missing available contradict"),
    ],
)
def test_missing_available_refuses_what_cannot_take_incomplete_rows(cli, incomplete, argv, message):
    path, _ = incomplete
    code, _, err = cli(argv[0], path, *argv[1:], "--missing", "available")
    assert code == 2 and message in err, err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.long
def test_fsnml_parameters_count_each_family_on_its_complete_rows(cli_summary, incomplete):
    from pgmpy_nml import FSNMLEstimator
    from pgmpy_nml.models import fit_network

    path, holes = incomplete
    model = incomplete[0].parent / "fsnml.bif"
    _, summary = cli_summary(
        "learn",
        path,
        "--score",
        "pnal",
        "--missing",
        "available",
        "--params",
        "fsnml",
        "--out",
        model,
    )
    fitted = BIFReader(str(model)).get_model()
    edges = [tuple(e) for e in summary["edges"]]
    from pgmpy.base import DAG

    dag = DAG(edges)
    dag.add_nodes_from(holes.columns)
    reference = fit_network(dag, holes, FSNMLEstimator(missing="available"))
    for cpd in reference.get_cpds():
        got = fitted.get_cpds(cpd.variable)
        assert np.allclose(
            np.sort(got.get_values().ravel()), np.sort(cpd.get_values().ravel()), atol=1e-6
        )


@pytest.mark.long
def test_missing_drop_is_dropna(cli_summary, incomplete):
    path, _ = incomplete
    _, s1 = cli_summary("learn", path, "--dropna", "--params", "none")
    _, s2 = cli_summary("learn", path, "--missing", "drop", "--params", "none")
    assert s1["edges"] == s2["edges"] and s1["n_samples"] == s2["n_samples"] < 400


@pytest.mark.long
def test_bootstrap_keeps_the_rows_too(cli_summary, incomplete):
    from pgmpy_nml.study import bootstrap_strength

    path, holes = incomplete
    _, summary = cli_summary(
        "learn", path, "--score", "pnal", "--missing", "available", "--bootstrap", "3",
        "--params", "none",
    )  # fmt: skip
    expected = bootstrap_strength(
        holes, scoring_method="pnal", n_bootstrap=3, random_state=0, missing="available"
    )
    got = {(a["from"], a["to"]): a["strength"] for a in summary["bootstrap"]["arcs"]}
    for u, v, s in expected[["from", "to", "strength"]].itertuples(index=False):
        assert got.get((u, v), 0.0) == pytest.approx(s)


# -- --missing em: structural EM, EM parameters, the observed-data log-loss (issue 36) --
@pytest.fixture
def run(capsys):
    """The command line in this process: ``run(*argv)`` -> (exit code, stdout, stderr)."""
    from pgmpy_nml.cli import main

    def run(*argv):
        code = main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err

    return run


def _read(path):
    from pgmpy_nml._network_files import read_network

    return read_network(path, "BIF")


def test_learn_missing_em_is_structural_em(run, incomplete, tmp_path):
    """The network and parameters of StructuralEM with the command's search, on the rows
    as read (R's file: row names, quotes, NA)."""
    from pgmpy_nml import StructuralEM
    from pgmpy_nml.search import ExactSearch

    path, holes = incomplete
    out, summary = tmp_path / "em.bif", tmp_path / "em.json"
    code, stdout, err = run("learn", path, "--missing", "em", "--out", out, "--json", summary)
    assert code == 0, err
    assert "structural EM over" in stdout and "valid when values are missing at random" in stdout
    facts = json.loads(summary.read_text())
    search = ExactSearch("fnml", show_progress=False, n_jobs=-1)
    api = StructuralEM("fnml", method=search, show_progress=False).fit(holes)
    assert facts["edges"] == [list(e) for e in sorted(api.causal_graph_.edges())]
    assert facts["em"]["n_missing"] == int(holes.isna().to_numpy().sum())
    assert facts["em"]["log_likelihood"] == pytest.approx(api.log_likelihood_, rel=1e-9)
    model = _read(out)
    for cpd in api.model_.get_cpds():
        ours = model.get_cpds(cpd.variable)
        np.testing.assert_allclose(ours.get_values(), cpd.get_values(), rtol=1e-6, atol=1e-9)
        assert (ours.get_values() > 0).all()


def test_missing_em_with_hartemink_says_what_works_in_flags(run, tmp_path):
    """Hartemink's cuts need complete rows; with --missing em the refusal names the
    incomplete columns and the flags that work (--dropna, or a --discretize method that
    cuts on the observed values), not the Python API's words, and that method runs."""
    _, data = sample_network("asia", 300, random_state=3)
    data = data.astype(object)
    data["dose"] = np.random.default_rng(4).normal(size=len(data))
    data.loc[[5, 9, 11], "smoke"] = None
    path = tmp_path / "with_dose.csv"
    write_r_csv(data, path)
    code, _, err = run("learn", path, "--missing", "em", "--discretize", "hartemink:3")
    assert code == 2
    assert "'smoke' (3 rows) out of 300 rows" in err
    assert "(--dropna)" in err and "--discretize quantile, quantile-ties or interval" in err
    assert "method=" not in err and "data.dropna()" not in err and "columns=" not in err
    out = tmp_path / "em.bif"
    code, stdout, err = run(
        "learn", path, "--missing", "em", "--discretize", "quantile:3", "--out", out
    )
    assert code == 0, err
    assert "structural EM over 3 missing cells" in stdout
    code, _, err = run("learn", path, "--dropna", "--discretize", "hartemink:3")
    assert code == 0, err


def test_missing_em_on_complete_rows_is_the_complete_data_learner(run, tmp_path):
    _, data = sample_network("asia", 300, random_state=2)
    path = tmp_path / "complete.csv"
    data.to_csv(path, index=False)
    outputs = {}
    for flags in ([], ["--missing", "em"]):
        out = tmp_path / f"m{len(flags)}.bif"
        code, _, err = run("learn", path, *flags, "--out", out)
        assert code == 0, err
        outputs[len(flags)] = out.read_text()
    assert outputs[0] == outputs[2]


def test_fit_and_evaluate_missing_em_match_the_api(run, incomplete, tmp_path):
    from pgmpy.base import DAG

    from pgmpy_nml import EMEstimator, log_loss
    from pgmpy_nml.models import fit_network

    path, holes = incomplete
    out = tmp_path / "f.bif"
    edges = "smoke->lung,lung->either,either->xray,bronc->dysp,either->dysp"
    code, stdout, err = run("fit", path, "--edges", edges, "--missing", "em", "--out", out)
    assert code == 0, err
    assert "by EM over" in stdout
    dag = DAG([tuple(e.split("->")) for e in edges.split(",")])
    dag.add_nodes_from(holes.columns)
    api = fit_network(dag, holes, EMEstimator())
    model = _read(out)
    for cpd in api.get_cpds():
        np.testing.assert_allclose(
            model.get_cpds(cpd.variable).get_values(), cpd.get_values(), rtol=1e-6, atol=1e-9
        )
    code, stdout, err = run(
        "evaluate", path, "--model", out, "--missing", "em", "--json", tmp_path / "e.json"
    )
    assert code == 0, err
    facts = json.loads((tmp_path / "e.json").read_text())
    assert facts["log_loss"] == pytest.approx(log_loss(model, holes, missing="marginalize"))
    assert "observed cells, the missing ones summed out" in stdout


def test_cv_missing_em_is_compare_procedures(run, incomplete, tmp_path):
    from pgmpy_nml.study import LearningProcedure, compare_procedures

    path, holes = incomplete
    summary = tmp_path / "cv.json"
    argv = ["cv", path, "--missing", "em", "--scores", "fnml", "bic", "--folds", "2"]
    code, _, err = run(*argv, "--method", "hill", "--json", summary)
    assert code == 0, err
    facts = json.loads(summary.read_text())
    procedures = {n: LearningProcedure("hill", scoring_method=n) for n in ("fnml", "bic")}
    api = compare_procedures(holes, procedures, k=2, random_state=0, missing="em")
    for name, result in api.results.items():
        np.testing.assert_allclose(facts["losses"][name], result.folds["loss"], rtol=1e-9)
