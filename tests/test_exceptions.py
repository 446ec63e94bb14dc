"""One error taxonomy (pgmpy_nml.exceptions), one score resolution, one DAG builder."""

import ast
import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from pgmpy.base import DAG

import pgmpy_nml
from pgmpy_nml import FNML, ExactSearch, exceptions
from pgmpy_nml.models import dag_from_parents
from pgmpy_nml.scores import BDeu, resolve_score
from pgmpy_nml.search.candidates import _budget, candidate_parent_sets

PACKAGE = Path(pgmpy_nml.__file__).resolve().parent

BUILTIN_PARENT = {
    "InputError": ValueError,
    "UnknownStateError": ValueError,
    "CsvError": ValueError,
    "NetworkFileError": ValueError,
    "ForestCostError": ValueError,
    "SearchMemoryError": MemoryError,
}


def test_every_error_derives_from_the_base_and_keeps_its_builtin_parent():
    errors = {n for n in exceptions.__all__ if n.endswith("Error") and n != "PgmpyNMLError"}
    assert errors == set(BUILTIN_PARENT)
    for name, builtin in BUILTIN_PARENT.items():
        cls = getattr(exceptions, name)
        assert issubclass(cls, exceptions.PgmpyNMLError) and issubclass(cls, builtin), name
        assert cls.__module__ == "pgmpy_nml.exceptions"
        assert getattr(pgmpy_nml, name) is cls  # exported at the top level
    assert issubclass(exceptions.InfiniteLossWarning, exceptions.PgmpyNMLWarning)
    assert issubclass(exceptions.PgmpyNMLWarning, UserWarning)
    assert not hasattr(pgmpy_nml, "ExactSearchMemoryError")


def test_error_and_warning_classes_are_defined_only_in_exceptions():
    elsewhere = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name in ("exceptions.py", "cli.py") or "cli" in path.relative_to(PACKAGE).parts:
            continue  # the command line's UserError is its own (it exits with code 2)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and node.name.endswith(("Error", "Warning")):
                elsewhere.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name}")
    assert not elsewhere, "define errors in pgmpy_nml/exceptions.py:\n" + "\n".join(elsewhere)


def test_the_exact_search_and_the_pruning_raise_the_same_memory_error(monkeypatch, random_data):
    data = random_data(50, 8, 12)
    with pytest.raises(exceptions.SearchMemoryError, match="more than the limit") as dp:
        ExactSearch("fnml", max_memory=10_000, show_progress=False).fit(data)
    assert dp.value.limit_parameter == "max_memory"  # raising max_memory would allow it
    small = random_data(30, (2, 2, 2, 2), seed=1)
    monkeypatch.setattr(_budget, "available_memory", lambda: 0)
    with pytest.raises(exceptions.SearchMemoryError, match="max_parents") as pruning:
        candidate_parent_sets(FNML(small))
    assert pruning.value.limit_parameter is None  # its limit is the memory available


def test_input_errors_are_caught_as_value_errors_and_as_the_base():
    from pgmpy_nml._validate import as_integer

    for catch in (ValueError, exceptions.InputError, exceptions.PgmpyNMLError):
        with pytest.raises(catch, match="K must be an integer >= 1"):
            as_integer(0, "K", minimum=1)


# -- resolve_score ---------------------------------------------------------------------
@pytest.fixture
def data():
    rng = np.random.default_rng(3)
    return pd.DataFrame({c: rng.integers(0, 3, 40) for c in "ABC"})


@pytest.mark.parametrize("name", ["fnml", "QNML", "bdeu", "bic", "k2", "bd"])
def test_resolve_score_builds_a_name_on_the_data(data, name):
    score = resolve_score(name, data)
    assert score.data.equals(data) and hasattr(score, "local_score")


def test_resolve_score_takes_parameters_and_states_for_a_name(data):
    names = {c: [0, 1, 2, 3] for c in "ABC"}
    score = resolve_score("bdeu", data, names, {"equivalent_sample_size": 7})
    assert score.equivalent_sample_size == 7 and score.state_names["A"] == [0, 1, 2, 3]
    with pytest.raises(ValueError, match="takes the parameter"):
        resolve_score("bdeu", data, params={"ess": 7})


def test_resolve_score_refusals(data):
    with pytest.raises(ValueError, match=r"Unknown scoring_method 'nope'.*one of: "):
        resolve_score("nope", data)
    with pytest.raises(ValueError, match=r"fit\(\) needs data"):
        resolve_score("fnml", None)
    with pytest.raises(ValueError, match=r"local_scores\(\) needs data"):
        resolve_score("fnml", None, caller="local_scores()")
    with pytest.raises(TypeError, match="with local_score"):
        resolve_score(3, data)
    score = FNML(data)
    with pytest.raises(ValueError, match="are for a score given by name"):
        resolve_score(score, data, params={"x": 1})
    with pytest.raises(ValueError, match="are for a score given by name"):
        resolve_score(score, data, state_names={"A": [0, 1, 2]})
    with pytest.raises(ValueError, match="bind must be"):
        resolve_score(score, data, bind="other")


def test_resolve_score_checks_or_rebinds_an_object(data):
    score = BDeu(data, equivalent_sample_size=4)
    assert resolve_score(score, data) is score
    assert resolve_score(score, None) is score
    other = data.iloc[:20]
    with pytest.raises(ValueError, match="was built on"):
        resolve_score(score, other)
    rebound = resolve_score(score, other, bind="rebind")
    assert type(rebound) is BDeu and rebound.data is other
    assert rebound.equivalent_sample_size == 4
    assert rebound.state_names == score.state_names  # declared states kept


# -- dag_from_parents ------------------------------------------------------------------
def _old_build(parents, nodes):
    """The searches' construction before dag_from_parents (nodes, then edges child by child)."""
    dag = DAG()
    dag.add_nodes_from(nodes)
    for v in parents:
        dag.add_edges_from((p, v) for p in parents[v])
    return dag


@pytest.mark.parametrize("seed", range(30))
def test_dag_from_parents_is_the_searches_construction(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 9))
    nodes = [f"X{i}" for i in rng.permutation(n)]
    parents = {}
    for i, v in enumerate(nodes):  # parents among the earlier nodes: acyclic
        chosen = [u for u in nodes[:i] if rng.random() < 0.4]
        if chosen or rng.random() < 0.5:
            parents[v] = list(rng.permutation(chosen)) if chosen else []
    order = list(parents)
    rng.shuffle(order)
    parents = {v: parents[v] for v in order}
    dag = dag_from_parents(parents, nodes)
    old = _old_build(parents, nodes)
    assert list(dag.nodes()) == list(old.nodes()) == nodes
    assert list(dag.edges()) == list(old.edges())
    for v in nodes:
        assert sorted(dag.get_parents(v)) == sorted(parents.get(v, []))


def test_every_module_that_builds_a_learned_dag_uses_the_builder():
    copies = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "cli.py" or path.name == "models.py":
            continue
        text = path.read_text(encoding="utf-8")
        for line, (a, b) in enumerate(itertools.pairwise(text.splitlines()), 1):
            if a.strip().endswith("= DAG()") and "add_nodes_from" in b:
                copies.append(f"{path.relative_to(PACKAGE)}:{line}")
    assert not copies, "build the DAG with pgmpy_nml.models.dag_from_parents:\n" + "\n".join(copies)
