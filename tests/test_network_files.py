"""Network files read back to the network that was written (issue 18, item 1).

Every output format (BIF, XMLBIF, DOT) is written with hostile variable and state names
and read back with pgmpy's readers (and the command line's own reading path): the same
variables, edges, states (names and order) and probabilities, or a refusal before
anything is written that names the variable, the state, the format and a way out.
States that are all numbers are ordered as numbers, in files and in fitted tables.
"""

import csv
import json
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pgmpy.base import DAG
from pgmpy.factors.discrete import TabularCPD
from pgmpy.models import DiscreteBayesianNetwork
from pgmpy.parameter_estimator import DiscreteMLE
from pgmpy.readwrite import BIFReader, XMLBIFReader

from pgmpy_nml import FNML, FSNMLEstimator, log_loss
from pgmpy_nml._data import encode_data
from pgmpy_nml._network_files import read_network, write_network
from pgmpy_nml.exceptions import NetworkFileError
from pgmpy_nml.models import fit_network

#: The names of the issue, and more that files and parsers trip on.
HOSTILE = [
    "it's",
    "<=50K",
    ">50K",
    "St. Louis",
    "Self-emp",
    "1.5",
    "yes (1)",
    "no, 0",
    "a/b",
    "é",
    "日本語",
    "Ünïcödé ß",
    " lead",
    "trail ",
    'q"uote',
    "a b",
    "(x",
    "x)",
    "{x",
    "x}",
    "x;",
    "a|b",
    "//c",
    "/*c*/",
    "table",
    "table1",
    "default-x",
    "a\tb",
    "a\nb",
    "a\rb",
    "a\x01b",
    "",
    "[1]",
    "a&b",
    "<b>",
    "&amp;",
    "100%",
    "a\\b",
    "x\\",
    "NaN",
]
#: Names of the issue that a format must keep (not refuse).
KEPT = {
    "XMLBIF": [
        *["St. Louis", "Self-emp", "1.5", "it's", "a/b", "<=50K", ">50K", "yes (1)", "no, 0"],
        *["é", "日本語", " lead", "trail ", 'q"uote', "a\tb", "a\nb", "a\rb", "<b>", "&amp;"],
    ],
    "BIF": ["it's", "<=50K", ">50K", "St. Louis", "Self-emp", "1.5", "a/b", "é", "日本語"],
}
#: ... and names it must refuse (pgmpy's reader would change or fail on them).
REFUSED = {
    "XMLBIF": ["", "a\x01b"],
    "BIF": ["yes (1)", "no, 0", " lead", "trail ", 'q"uote', "x)", "x}", "//c", "a\tb", ""],
}


def _network(states, edges, seed=0):
    """A fitted network: ``states`` {variable: states}, random probabilities."""
    rng = np.random.default_rng(seed)
    model = DiscreteBayesianNetwork(edges)
    model.add_nodes_from(states)
    for v in states:
        parents = sorted(model.get_parents(v))
        q = math.prod(len(states[p]) for p in parents)
        values = rng.dirichlet(np.ones(len(states[v])), size=q).T
        model.add_cpds(
            TabularCPD(
                v,
                len(states[v]),
                values,
                evidence=parents or None,
                evidence_card=[len(states[p]) for p in parents] or None,
                state_names={u: list(states[u]) for u in [v, *parents]},
            )
        )
    return model


def _assert_same(model, back):
    """The independent check of a round trip: variables, edges, states, probabilities."""
    assert sorted(back.nodes()) == sorted(map(str, model.nodes()))
    assert sorted(back.edges()) == sorted((str(u), str(v)) for u, v in model.edges())
    for cpd in model.get_cpds():
        theirs = back.get_cpds(str(cpd.variable))
        assert list(theirs.variables) == [str(v) for v in cpd.variables]
        for v in cpd.variables:
            assert list(theirs.state_names[str(v)]) == [str(s) for s in cpd.state_names[v]]
        np.testing.assert_array_equal(theirs.get_values(), cpd.get_values())


def _write_or_refuse(model, kind, path):
    """Write ``model``; a refusal must name the format and a way out, and leave no file."""
    path.unlink(missing_ok=True)
    try:
        write_network(model, path, kind)
    except NetworkFileError as err:
        assert not path.exists()
        assert err.format == kind and kind in str(err)
        assert "instead" in str(err) or "rename" in str(err)  # a way out
        return err
    _assert_same(model, read_network(path, kind))  # the command line's reading path
    return None


def _contexts(name):
    """``name`` as every kind of name a file holds: a state of a variable with several
    states and parents, the only state of a variable, a root's name, a child's name."""
    other = "zz" if name != "zz" else "yy"
    yield "state", _network({"P": [name, other], "C": ["c0", "c1"]}, [("P", "C")]), name
    yield "single state", _network({"P": [name], "C": ["c0", "c1"]}, [("P", "C")]), name
    if name not in ("P", "C"):
        yield "root name", _network({name: ["a", "b"], "C": ["c", "d"]}, [(name, "C")]), name
        yield "child name", _network({"P": ["a", "b"], name: ["c", "d"]}, [("P", name)]), name


@pytest.mark.parametrize("kind", ["BIF", "XMLBIF"])
@pytest.mark.parametrize("name", HOSTILE, ids=repr)
def test_a_hostile_name_reads_back_or_is_refused_before_writing(kind, name, tmp_path):
    for role, model, shown in _contexts(name):
        err = _write_or_refuse(model, kind, tmp_path / f"m.{kind.lower()}")
        if err is not None:
            assert repr(shown) in str(err), (role, str(err))
            assert err.variable is not None
        if role == "state" and name in KEPT[kind]:
            assert err is None, (role, str(err))
        if role in ("state", "root name") and name in REFUSED[kind]:
            assert err is not None, role


def test_bif_refusal_names_the_state_the_variable_and_xmlbif(tmp_path):
    model = _network({"answer": ["no, 0", "yes (1)"], "C": ["a", "b"]}, [("answer", "C")])
    with pytest.raises(NetworkFileError) as caught:
        write_network(model, tmp_path / "m.bif", "BIF")
    message = str(caught.value)
    assert "'no, 0'" in message and "'answer'" in message and "BIF" in message
    assert "XMLBIF" in message and ".xml" in message
    assert not (tmp_path / "m.bif").exists()
    write_network(model, tmp_path / "m.xml", "XMLBIF")  # the way out works
    _assert_same(model, XMLBIFReader(str(tmp_path / "m.xml")).get_model())


def test_xmlbif_keeps_the_states_pgmpy_renames_and_merges(tmp_path):
    # pgmpy's XMLBIFWriter writes St_Louis and merges <=50K and >50K into _50K
    states = {"city": ["St. Louis", "Self-emp", "1.5", "it's", "a/b"], "income": ["<=50K", ">50K"]}
    model = _network(states, [("city", "income")])
    write_network(model, tmp_path / "m.xml", "XMLBIF")
    back = XMLBIFReader(str(tmp_path / "m.xml")).get_model()
    _assert_same(model, back)
    assert back.get_cpds("income").state_names["city"] == states["city"]


def test_a_whole_network_of_hostile_names(tmp_path):
    """All the names at once (interactions: comments across variables, case)."""
    for kind in ("BIF", "XMLBIF"):
        kept = [n for n in HOSTILE if n not in REFUSED[kind] and n not in ("", "a\x01b")]
        states = {f"V{i}": [n, f"other{i}"] for i, n in enumerate(kept)}
        edges = [(f"V{i}", f"V{i + 1}") for i in range(0, len(kept) - 1, 2)]
        model = _network(states, edges, seed=1)
        path = tmp_path / f"all.{kind.lower()}"
        err = _write_or_refuse(model, kind, path)
        if kind == "XMLBIF":
            assert err is None, str(err)
        if err is None:  # pgmpy's own readers, as they are
            reader = BIFReader if kind == "BIF" else XMLBIFReader
            _assert_same(model, reader(str(path)).get_model())
    model = _network({"A": ["x", "y"], "a": ["x", "y"]}, [("A", "a")])
    err = _write_or_refuse(model, "BIF", tmp_path / "case.bif")
    assert err is not None and "case" in str(err)
    model = _network({"A": ["/*", "y"], "B": ["*/", "y"]}, [("A", "B")])
    assert _write_or_refuse(model, "BIF", tmp_path / "comment.bif") is not None


_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=8)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    names=st.lists(_TEXT, min_size=1, max_size=3, unique=True),
    states=st.lists(st.lists(_TEXT, min_size=1, max_size=3, unique=True), min_size=3, max_size=3),
    kind=st.sampled_from(["BIF", "XMLBIF"]),
)
def test_random_unicode_names_read_back_or_are_refused(names, states, kind, tmp_path):
    variables = [*names, "P", "C"][:3]
    if len(set(variables)) < 3:
        variables = ["A", "P", "C"]
    model = _network(dict(zip(variables, states, strict=True)), [(variables[0], variables[1])])
    err = _write_or_refuse(model, kind, tmp_path / f"m.{kind.lower()}")
    if err is not None:  # a refusal by name (the rules), never a failed round trip
        assert err.variable is not None and repr(err.variable) in str(err), str(err)
        assert err.state is None or repr(err.state) in str(err)
    if kind == "XMLBIF":  # XMLBIF keeps any text but an empty one and control characters
        everything = [*variables, *(s for group in states for s in group)]
        holdable = all(
            n and all((c >= " " or c in "\t\n\r") and c not in "\ufffe\uffff" for c in n)
            for n in everything
        )
        assert (err is None) == holdable, str(err)


# -- DOT: the structure, read as Graphviz reads quoted names --------------------------
def _graphviz_names(text):
    """The quoted names of a DOT file as Graphviz's lexer reads them (scan.l: inside
    quotes ``\\"`` is a quote, a backslash before a line break continues the line,
    every other character stands for itself), in order of appearance."""
    names, i = [], 0
    while (i := text.find('"', i)) >= 0:
        i += 1
        name = []
        while text[i] != '"':
            if text[i] == "\\" and text[i + 1] == '"':
                name.append('"')
                i += 2
            elif text[i] == "\\" and text[i + 1] == "\n":
                i += 2
            else:
                name.append(text[i])
                i += 1
        names.append("".join(name))
        i += 1
    return names


@pytest.mark.parametrize("name", HOSTILE, ids=repr)
def test_dot_keeps_every_name_graphviz_can_read_back(name, tmp_path):
    dag = DAG([("A", name)] if name != "A" else [("A", "B")])
    path = tmp_path / "m.dot"
    try:
        write_network(dag, path, "DOT")
    except NetworkFileError as err:
        assert name.endswith("\\") and not path.exists() and repr(name) in str(err)
        return
    names = _graphviz_names(
        path.read_bytes().decode("utf-8")
    )  # as Graphviz: no newline translation
    assert names == [*map(str, dag.nodes()), *(x for e in sorted(dag.edges()) for x in e)]


# -- states that are numbers ---------------------------------------------------------
def test_number_states_are_ordered_as_numbers_in_tables_and_files(tmp_path):
    rng = np.random.default_rng(0)
    n = pd.Series(rng.choice(["1", "2", "10", "-3", "2.5"], 400))
    data = pd.DataFrame({"n": n, "x": np.where(n.isin(["10", "2.5"]), "hi", "lo")})
    data.loc[rng.random(400) < 0.2, "x"] = "mid"
    order = ["-3", "1", "2", "2.5", "10"]
    assert encode_data(data).state_names["n"] == order
    assert encode_data(pd.DataFrame({"m": ["a10", "a2"]})).state_names["m"] == ["a10", "a2"]
    dag = DAG([("n", "x")])
    for estimator in (FSNMLEstimator(), DiscreteMLE()):
        model = fit_network(dag, data, estimator)
        assert model.get_cpds("n").state_names["n"] == order
        assert model.get_cpds("x").state_names["n"] == order
        # the probabilities follow their states: the same as declaring string order
        strings = fit_network(dag, data, estimator, state_names={"n": sorted(order)})
        ours, theirs = model.get_cpds("x"), strings.get_cpds("x")
        for state in order:
            np.testing.assert_allclose(
                ours.get_values()[:, order.index(state)],
                theirs.get_values()[:, sorted(order).index(state)],
            )
        assert log_loss(model, data) == pytest.approx(log_loss(strings, data), rel=1e-12)
    assert FNML(data).state_names["n"] == order
    write_network(model, tmp_path / "m.bif", "BIF")
    assert "{ -3, 1, 2, 2.5, 10 }" in (tmp_path / "m.bif").read_text()


# -- through the console script ---------------------------------------------------
@pytest.fixture(scope="module")
def hostile_csv(tmp_path_factory):
    """A CSV with the issue's state names, a column of numbers, and hostile headers."""
    rng = np.random.default_rng(7)
    n = 400
    answer = rng.choice(["yes (1)", "no, 0"], n)
    income = np.where(rng.random(n) < 0.8, np.where(answer == "yes (1)", "<=50K", ">50K"), ">50K")
    frame = pd.DataFrame(
        {
            "answer": answer,
            "income": income,
            "city": rng.choice(["St. Louis", "Self-emp", "it's", "a/b", "Zürich"], n),
            "n": np.where(income == ">50K", rng.choice(["1", "2"], n), rng.choice(["2", "10"], n)),
        }
    )
    path = tmp_path_factory.mktemp("hostile") / "hostile.csv"
    frame.to_csv(path, index=False, quoting=csv.QUOTE_NONNUMERIC)
    return path, pd.read_csv(path, dtype=str)


@pytest.mark.integration
def test_cli_refuses_bif_before_the_search_and_writes_nothing(hostile_csv, tmp_path, cli):
    path, _ = hostile_csv
    out = tmp_path / "m.bif"
    code, stdout, err = cli("learn", path, "--out", out, "--json", tmp_path / "s.json")
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert f"--out {out}" in err and "BIF" in err and "'answer'" in err and "'no, 0'" in err
    assert "XMLBIF" in err and ".xml" in err
    assert "learning the structure" not in stdout  # before the work
    assert not out.exists() and not (tmp_path / "s.json").exists()


@pytest.mark.long
@pytest.mark.integration
@pytest.mark.parametrize("suffix", [".xml", ".xmlbif"])
def test_cli_learn_out_then_evaluate_gives_the_in_memory_log_loss(
    hostile_csv, tmp_path, cli, cli_summary, suffix
):
    path, data = hostile_csv
    out = tmp_path / f"m{suffix}"
    _, learned = cli_summary("learn", path, "--out", out)
    back = XMLBIFReader(str(out)).get_model()
    for v in data.columns:
        assert set(back.get_cpds(v).state_names[v]) == set(data[v])
    assert back.get_cpds("n").state_names["n"] == ["1", "2", "10"]
    assert back.get_cpds("income").state_names["income"] == ["<=50K", ">50K"]
    # the in-memory network: the same structure, fitted as learn fits it (fnml -> fsNML)
    dag = DAG([tuple(e) for e in learned["edges"]])
    dag.add_nodes_from(data.columns)
    model = fit_network(dag, data, FSNMLEstimator())
    _assert_same(model, back)
    _, evaluated = cli_summary("evaluate", path, "--model", out)
    assert math.isfinite(evaluated["log_loss"])
    assert evaluated["log_loss"] == pytest.approx(log_loss(model, data), rel=1e-12)
    # the file is a structure for score and fit too, and fit writes it back the same
    _, scored = cli_summary("score", path, "--model", out)
    assert all(math.isfinite(t) for t in scored["total_scores"].values())
    refit = tmp_path / "refit.xml"
    cli_summary("fit", path, "--model", out, "--out", refit)
    _assert_same(model, XMLBIFReader(str(refit)).get_model())


@pytest.mark.long
@pytest.mark.integration
def test_cli_bif_round_trip_of_names_bif_can_hold(tmp_path, cli, cli_summary):
    rng = np.random.default_rng(3)
    a = rng.choice(["St. Louis", "Self-emp", "<=50K"], 300)
    frame = pd.DataFrame({"a": a, "b": np.where(a == "<=50K", "1.5", rng.choice(["10", "2"], 300))})
    path = tmp_path / "d.csv"
    frame.to_csv(path, index=False)
    out = tmp_path / "m.bif"
    _, learned = cli_summary("learn", path, "--discrete", "b", "--out", out, "--params", "mle")
    back = BIFReader(str(out)).get_model()
    assert back.get_cpds("b").state_names["b"] == ["1.5", "2", "10"]
    dag = DAG([tuple(e) for e in learned["edges"]])
    dag.add_nodes_from(frame.columns)
    model = fit_network(dag, frame, DiscreteMLE())
    _assert_same(model, back)
    _, evaluated = cli_summary("evaluate", path, "--discrete", "b", "--model", out)
    assert evaluated["log_loss"] == pytest.approx(log_loss(model, frame), rel=1e-12)


@pytest.mark.long
@pytest.mark.integration
def test_cli_dot_and_json_keep_hostile_column_names(tmp_path, cli, cli_summary):
    names = ['q"uote', "a\\b", "St. Louis", "x)"]
    rng = np.random.default_rng(5)
    first = rng.choice(["u", "v"], 200)
    frame = pd.DataFrame({names[0]: first, names[1]: first, names[2]: first, names[3]: first})
    path = tmp_path / "d.csv"
    frame.to_csv(path, index=False)
    out = tmp_path / "m.dot"
    _, learned = cli_summary("learn", path, "--out", out, "--params", "none")
    assert learned["variables"] == names  # the JSON summary keeps them
    text = out.read_text(encoding="utf-8")
    read = _graphviz_names(text)
    assert read[: len(names)] == names
    edges = [tuple(read[i : i + 2]) for i in range(len(names), len(read), 2)]
    assert sorted(edges) == sorted(tuple(e) for e in learned["edges"])
    code, _, err = cli("learn", path, "--out", tmp_path / "m.bif")
    assert code == 2 and "variable name" in err and not (tmp_path / "m.bif").exists()
    assert json.loads(json.dumps(learned))["variables"] == names


#: Every kind of blank a name may begin or end with (Unicode's white space).
_BLANKS = [" ", "\t", "\n", "\r", "\x0b", "\x0c", "\xa0", "\u1680", "\u2003", "\u2028", "\u3000"]


@pytest.mark.parametrize("blank", _BLANKS, ids=repr)
@pytest.mark.parametrize("where", ["leading", "trailing", "both"])
def test_a_state_with_blanks_at_its_ends_is_kept_or_refused_by_name(blank, where, tmp_path):
    """Issue 34: a state that begins or ends with a blank is refused by BIF (its reader
    strips it), naming the state and the way out, and kept exactly by XMLBIF, as pgmpy's
    own readers read the files."""
    name = {"leading": blank + "a", "trailing": "a" + blank, "both": blank + "a" + blank}[where]
    model = _network({"P": [name, "b"], "C": ["c", "d"]}, [("P", "C")])
    with pytest.raises(NetworkFileError) as caught:
        write_network(model, tmp_path / "m.bif", "BIF")
    assert caught.value.state == name and repr(name) in str(caught.value)
    assert ".xml" in str(caught.value) and not (tmp_path / "m.bif").exists()
    err = _write_or_refuse(model, "XMLBIF", tmp_path / "m.xml")
    if err is None:
        back = XMLBIFReader(str(tmp_path / "m.xml")).get_model()
        assert back.get_cpds("P").state_names["P"] == [name, "b"]
    else:  # only a character XML cannot hold at all
        assert "control character" in str(err) and err.state == name
