"""SparseFamilyWarning: a learned family with more parent configurations than rows.

The check against a count by enumeration on random graphs; the warning once per fit from
every search (pointing at the caller's line), never from the study tools' inner fits;
the command line's note and summary field.
"""

from __future__ import annotations

import itertools
import re
import shlex
import warnings

import networkx as nx
import numpy as np
import pandas as pd
import pytest

from pgmpy_nml import ExactSearch, LocalSearch, OrderSearch, SparseFamilyWarning, StructuralEM
from pgmpy_nml._sparse import sparse_families
from pgmpy_nml.exceptions import InputError
from pgmpy_nml.study import bootstrap_strength, cross_validate


@pytest.fixture(scope="module")
def independent():
    """240 rows of 12 independent uniform four-state variables: without a parent limit
    fNML's optimum has families of 4-6 parents (256-4,096 configurations)."""
    rng = np.random.default_rng(0)
    return pd.DataFrame(rng.integers(0, 4, size=(240, 12)), columns=[f"v{i}" for i in range(12)])


def _sparse_warnings(fit):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fit()
    return [w for w in caught if issubclass(w.category, SparseFamilyWarning)]


@pytest.mark.parametrize("seed", range(40))
def test_families_match_a_count_of_the_configurations(seed):
    rng = np.random.default_rng(seed)
    n_nodes = int(rng.integers(2, 9))
    order = list(rng.permutation(n_nodes))
    dag = nx.DiGraph()
    dag.add_nodes_from(order)
    for i, j in itertools.combinations(range(n_nodes), 2):
        if rng.random() < 0.5:
            dag.add_edge(order[i], order[j])
    arities = {v: int(rng.integers(1, 6)) for v in order}
    n_rows = int(rng.integers(1, 200))
    found = {f.variable: f for f in sparse_families(dag, arities, n_rows)}
    for v in order:
        parents = sorted(dag.predecessors(v))
        seen = sum(1 for _ in itertools.product(*(range(arities[p]) for p in parents)))
        if parents and seen > n_rows:
            assert found[v].configurations == seen
            assert sorted(found[v].parents) == parents
        else:
            assert v not in found
    sizes = [f.configurations for f in sparse_families(dag, arities, n_rows)]
    assert sizes == sorted(sizes, reverse=True)


@pytest.mark.parametrize("method", ["dp", "astar", "solver"])
def test_exact_search_warns_once_naming_the_largest_family(independent, method):
    """Once: not for the hill climbing that seeds the engines over candidates (whose
    default limit, 3 parents, gives no arc here: 4 gives 28)."""
    limit = None if method == "dp" else 4
    search = ExactSearch("fnml", method=method, max_parents=limit)
    caught = _sparse_warnings(lambda: search.fit(independent))
    assert len(caught) == 1
    warning = caught[0]
    assert warning.filename == __file__  # the user's line, not the package's
    families = warning.message.families
    largest = families[0]
    assert largest.configurations == 4 ** len(largest.parents) > 240
    assert warning.message.n_rows == 240
    text = str(warning.message)
    assert f"{largest.variable!r} given {len(largest.parents)} parents" in text
    assert "max_parents" in text and "compare_procedures" in text


def test_the_warning_lists_every_family_of_the_learned_network(independent):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SparseFamilyWarning)
        dag = ExactSearch("fnml").fit(independent).dag_
    caught = _sparse_warnings(lambda: ExactSearch("fnml").fit(independent))
    listed = {(f.variable, frozenset(f.parents)) for f in caught[0].message.families}
    expected = {
        (v, frozenset(dag.predecessors(v)))
        for v in dag.nodes()
        if 4 ** dag.in_degree(v) > len(independent)
    }
    assert listed == expected and listed


@pytest.mark.parametrize(
    "search",
    [
        ExactSearch("fnml", max_parents=2),
        ExactSearch("bic"),
        LocalSearch("fnml"),  # max_parents="auto" holds rows out: no parents here
    ],
    ids=["exact-p2", "exact-bic", "local-auto"],
)
def test_no_warning_when_no_family_outnumbers_the_rows(independent, search):
    assert not _sparse_warnings(lambda: search.fit(independent))


@pytest.mark.parametrize("kind", ["local", "order"])
def test_every_search_warns(independent, kind):
    if kind == "local":  # hill climbing from the empty graph adds no single arc here
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", SparseFamilyWarning)
            start = ExactSearch("fnml").fit(independent).dag_
        search = LocalSearch("fnml", max_parents=None, start_dag=start, show_progress=False)
    else:
        search = OrderSearch("fnml", max_parents=5, random_state=0, time_limit=5)
    caught = _sparse_warnings(lambda: search.fit(independent))
    assert len(caught) == 1 and caught[0].filename == __file__


def test_study_tools_do_not_warn_from_their_inner_fits(independent):
    """Cross-validation and the bootstrap judge the networks on other rows."""
    assert not _sparse_warnings(
        lambda: cross_validate(independent, scoring_method="fnml", k=3, random_state=0)
    )
    assert not _sparse_warnings(
        lambda: bootstrap_strength(
            independent, scoring_method="fnml", n_bootstrap=2, random_state=0
        )
    )


def test_structural_em_warns_once_on_its_result(independent):
    data = independent.astype(float)
    data.iloc[::7, 0] = np.nan
    sem = StructuralEM("fnml", method="dp", max_iter=2, n_init=1, random_state=0)
    caught = _sparse_warnings(lambda: sem.fit(data))
    assert len(caught) == 1
    dag = sem.causal_graph_
    assert {f.variable for f in caught[0].message.families} == {
        v for v in dag.nodes() if 4 ** dag.in_degree(v) > len(data)
    }


def test_command_line_says_it_as_a_note(cli, cli_summary, independent, tmp_path):
    path = tmp_path / "independent.csv"
    independent.to_csv(path, index=False)
    code, _, err = cli("learn", path, "--params", "none")
    assert code == 0 and "SparseFamilyWarning" not in err  # a note, not a raw warning
    out, summary = cli_summary("learn", path, "--params", "none")
    families = summary["sparse_families"]
    assert families and families[0]["configurations"] == 4096
    largest = families[0]
    assert (
        f"note: {len(families)} families have more parent configurations than the 240 rows "
        f"(the largest: {largest['variable']!r} given {len(largest['parents'])} parents, "
        "4,096 configurations)"
    ) in out
    # the note's advice is a command that runs: the two limits on the same splits
    advice = re.search(r"`(pgmpy-nml cv [^`]*)`", out)
    assert advice is not None
    argv = shlex.split(advice.group(1))
    assert argv[2:] == [str(path), "--scores", "fnml", "--max-parents", "default", "2"]
    out, summary = cli_summary(*argv[1:], "--folds", "2")
    assert set(summary["summary"]) == {"fnml --max-parents default", "fnml --max-parents 2"}
    out, summary = cli_summary("learn", path, "--params", "none", "--max-parents", "2")
    assert summary["sparse_families"] == [] and "note:" not in out


@pytest.mark.long
def test_the_notes_cv_command_reads_the_data_as_learn_did(cli_summary, independent, tmp_path):
    """Semicolons, a row-names column, NA cells, a dropped column, a numeric column cut:
    the advised command carries the flags, reads the same rows and the same score."""
    frame = independent.copy()
    frame.iloc[::9, 2] = np.nan
    frame["ID"] = range(len(frame))
    frame["level"] = np.random.default_rng(2).normal(size=len(frame)).round(3)
    path = tmp_path / "sparse data.csv"  # a blank: the command quotes it
    frame.to_csv(path, sep=";", na_rep="NA")
    flags = "--delimiter ; --dropna --drop-columns ID --discretize quantile:2"
    flags += " --score bdeu --ess 2 --method dp"
    learned_out, learned = cli_summary("learn", path, "--params", "none", *flags.split())
    assert learned["sparse_families"]
    advice = re.search(r"`(pgmpy-nml cv [^`]*)`", learned_out)
    assert advice is not None
    argv = shlex.split(advice.group(1))
    assert argv[2] == str(path)
    assert argv[-7:] == ["--ess", "2", "--method", "dp", "--max-parents", "default", "2"]
    _, got = cli_summary(*argv[1:], "--folds", "2")
    assert got["n_samples"] == learned["n_samples"] == 240 - 27
    assert got["data_notes"] == learned["data_notes"] and got["cut_points"] == learned["cut_points"]
    assert set(got["procedures"]) == {"bdeu --max-parents default", "bdeu --max-parents 2"}


# -- a saturated family can also be too large to fit: refused before any table is built ----
@pytest.fixture(scope="module")
def many_states():
    rng = np.random.default_rng(1)
    return pd.DataFrame(rng.integers(0, 17, (300, 8)), columns=list("ABCDEFGH")).astype(str)


@pytest.mark.parametrize("estimator", ["fnml", "bdeu", "mle"])
def test_fit_network_refuses_a_table_over_the_limit_with_any_estimator(many_states, estimator):
    """Cross-validating BDeu on 300 rows of 16 pixel columns with 17 levels learned a
    family of 7 parents; pgmpy's estimator then asked numpy for 52 GiB."""
    from pgmpy.base import DAG
    from pgmpy.parameter_estimator import DiscreteMLE

    from pgmpy_nml.models import default_parameter_estimator, fit_network

    chosen = DiscreteMLE() if estimator == "mle" else None
    chosen = chosen or default_parameter_estimator(estimator)
    dag = DAG([(p, "H") for p in "ABCDEFG"])
    cells = 17 * 17**7
    with pytest.raises(InputError, match=f"'H' would have {cells:,} cells .*max_parents"):
        fit_network(dag, many_states, chosen)


def test_the_table_limit_is_exact(many_states, monkeypatch):
    from pgmpy.base import DAG

    from pgmpy_nml.estimators import fsnml
    from pgmpy_nml.models import default_parameter_estimator, fit_network

    monkeypatch.setattr(fsnml, "MAX_CPD_CELLS", 17**3)
    estimator = default_parameter_estimator("bdeu")
    model = fit_network(DAG([("A", "H"), ("B", "H")]), many_states, estimator)
    assert model.get_cpds("H").get_values().size == 17**3
    with pytest.raises(InputError, match=f"{17**4:,} cells"):
        fit_network(DAG([("A", "H"), ("B", "H"), ("C", "H")]), many_states, estimator)


def test_command_line_refuses_the_table_in_flags(cli, many_states, tmp_path):
    path = tmp_path / "many.csv"
    many_states.to_csv(path, index=False)
    edges = ",".join(f"{p}->H" for p in "ABCDEFG")
    code, _, err = cli(
        "fit",
        path,
        "--edges",
        edges,
        "--params",
        "bdeu",
        "--discrete",
        ",".join("ABCDEFGH"),
        "--out",
        tmp_path / "net.bif",
    )
    assert code == 2 and "Traceback" not in err
    assert f"'H' would have {17**8:,} cells" in err
    assert "learn with --max-parents; --params none writes the structure alone" in err
    assert not (tmp_path / "net.bif").exists()
