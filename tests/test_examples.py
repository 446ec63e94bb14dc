"""The example scripts run and summarize themselves; the docs quote those summaries.

Every script in ``examples/`` writes ``<name>.png`` and ``<name>.json`` (see
``examples/_summary.py``); the full runs' files are committed in ``docs/images/``
(``python examples/regenerate.py``). Here:

* the quick runs (``--quick``, what CI can afford) still work and write a summary
  with the same schema as the committed full run (integration tests);
* each committed summary belongs to the PNG beside it (its SHA-256), so a figure
  cannot be regenerated without its numbers or the other way round;
* every number the docs quote from a summary (the README and ``docs/**/*.md``, today
  ``docs/guide/examples.md`` and ``docs/guide/study.md``) equals it, as written, and
  the docs' words about those results hold for the committed numbers;
* ``-m slow``: the full runs reproduce the committed summaries.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import runpy
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
IMAGES = ROOT / "docs" / "images"


def _load_example_module(name):
    """``examples/<name>.py`` as module ``name`` (the examples import each other by name)."""
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


summary_tools = _load_example_module("_summary")
_regenerate = _load_example_module("regenerate")
#: the examples whose figures the docs show: those ``examples/regenerate.py`` runs
NAMES = _regenerate.EXAMPLES
#: every page that may quote a summary (the pages ``regenerate.py --update-docs`` rewrites)
DOCS = "\n\n".join(page.read_text(encoding="utf-8") for page in _regenerate.PAGES)
#: the page that shows the figures, each with a paragraph that quotes its summary
EXAMPLES_PAGE = (ROOT / "docs" / "guide" / "examples.md").read_text(encoding="utf-8")


def committed(name):
    return json.loads((IMAGES / f"{name}.json").read_text(encoding="utf-8"))


def results(name):
    return committed(name)["results"]


def schema(value):
    """The shape of a summary: dict keys and list/scalar leaves; ``by_*`` dicts by value."""
    if isinstance(value, dict):
        return {
            key: _data_keyed(item) if key.startswith("by_") else schema(item)
            for key, item in value.items()
        }
    return "list" if isinstance(value, list) else "value"


def _data_keyed(mapping):
    shapes = [schema(item) for item in mapping.values()]
    assert shapes and all(shape == shapes[0] for shape in shapes), mapping.keys()
    return {"<any key>": shapes[0]}


def run_example(name, argv, monkeypatch, capsys):
    """Run ``examples/<name>.py`` in this process (pgmpy and the kernels load once)."""
    monkeypatch.syspath_prepend(str(EXAMPLES))
    monkeypatch.setattr(sys, "argv", [f"{name}.py", *argv])
    runpy.run_path(str(EXAMPLES / f"{name}.py"), run_name="__main__")
    return capsys.readouterr().out


# What each quick run must print, besides its summary.
PRINTS = {
    "quickstart": ["FNML hill climbing", "QNML, legacy API", "log-loss", "FNML exact search"],
    "rank_of_true_structure": [
        "among all 29281 DAGs on 5 nodes",
        "Ties resolved optimistically",
        "median rank of the true structure (optimistic)",
    ],
    "prediction_and_parsimony": [
        "Predictive log-loss, nats per test vector",
        "Free parameters of the learned network (median [quartiles] over splits)",
        "generating network:",
    ],
    "min_max_bdeu": ["Network sachs", "Accuracy score", "Hamming distance", "relative gap"],
    "optimal_ess": ["alternating procedure (Eq. 18): alpha", "held-out grid: best alpha"],
    "bootstrap_strength": ["fNML, bootstrap: threshold", "qNML, bootstrap: threshold"],
}


@pytest.mark.long
@pytest.mark.integration
@pytest.mark.parametrize("name", NAMES)
def test_quick_run_writes_figure_and_summary(name, tmp_path, monkeypatch, capsys):
    out = run_example(name, ["--quick", "--out", str(tmp_path)], monkeypatch, capsys)
    for text in PRINTS[name]:
        assert text in out
    png, summary = tmp_path / f"{name}.png", json.loads((tmp_path / f"{name}.json").read_text())
    assert png.stat().st_size > 10_000
    assert summary["mode"] == "quick" and summary["script"] == f"examples/{name}.py"
    assert summary["figure_sha256"] == hashlib.sha256(png.read_bytes()).hexdigest()
    assert schema(summary) == schema(committed(name))


def test_committed_summaries_belong_to_their_figures():
    assert sorted(path.stem for path in IMAGES.glob("*.png")) == sorted(NAMES)
    assert sorted(path.stem for path in IMAGES.glob("*.json")) == sorted(NAMES)
    for name in NAMES:
        summary = committed(name)
        assert summary["mode"] == "full", f"{name}.json comes from a --quick run"
        assert summary["script"] == f"examples/{name}.py"
        png = IMAGES / summary["figure"]
        assert summary["figure_sha256"] == hashlib.sha256(png.read_bytes()).hexdigest(), (
            f"{png.name} was not drawn by the run that wrote {name}.json: "
            "run python examples/regenerate.py"
        )
        shown = f"](../images/{name}.png)", f"`docs/images/{name}.png`"  # figure, or table
        assert any(text in EXAMPLES_PAGE for text in shown), name


def test_quoted_numbers_equal_the_summaries():
    quotes = summary_tools.quotes(DOCS)
    assert len(quotes) >= 15
    wrong = []
    for match in quotes:
        value = summary_tools.lookup(results(match["name"]), match["path"])
        expected = summary_tools.written_like(match["number"], value)
        if expected != match["number"]:
            wrong.append(f"{match['name']}:{match['path']}: docs {match['number']}, {expected}")
    assert not wrong, "; ".join(wrong) + " (python examples/regenerate.py --update-docs)"


@pytest.mark.parametrize(
    "name", ["rank_of_true_structure", "prediction_and_parsimony", "min_max_bdeu", "optimal_ess"]
)
def test_each_figure_paragraph_quotes_its_summary(name):
    """The paragraph under a result figure says what it shows with the figure's numbers."""
    after = EXAMPLES_PAGE.split(f"](../images/{name}.png)", 1)[1]
    paragraph = after.strip().split("\n\n", 1)[0]
    assert {m["name"] for m in summary_tools.quotes(paragraph)} == {name}
    assert len(summary_tools.quotes(paragraph)) >= 3


def test_quotes_are_parsed_and_written_as_in_the_docs():
    text = "alpha 7.45<!-- optimal_ess: by_network.sachs.eq18_alpha --> or 2,345<!--x:a.0-->%"
    found = summary_tools.quotes(text)
    assert [(m["number"], m["name"], m["path"]) for m in found] == [
        ("7.45", "optimal_ess", "by_network.sachs.eq18_alpha"),
        ("2,345", "x", "a.0"),
    ]
    assert summary_tools.written_like("7.45", 7.4549) == "7.45"
    assert summary_tools.written_like("7.45", 7.4551) == "7.46"
    assert summary_tools.written_like("2,345", 12345.4) == "12,345"
    assert summary_tools.lookup({"a": [1, {"b": 2.5}]}, "a.1.b") == 2.5
    with pytest.raises(KeyError, match="no 'c'"):
        summary_tools.lookup({"a": {"b": 1}}, "a.c")
    with pytest.raises(TypeError, match="not a number"):
        summary_tools.lookup({"a": [1, 2]}, "a")


# -- the docs' words about the results, checked against the committed numbers -------------
def test_examples_run_in_under_two_minutes():
    assert "runs in under two minutes here" in EXAMPLES_PAGE
    for name in NAMES:
        assert committed(name)["seconds"] < 120, name


def claim(text):
    """The docs still make this statement (a changed sentence needs a changed check)."""
    assert " ".join(text.split()) in " ".join(DOCS.split()), text


def test_rank_of_true_structure_claims():
    claim("at 1000 samples every score but BIC")
    claim("ranks it first (median)")
    half = results("rank_of_true_structure")["by_scheme"]["half"]["by_size"]
    assert {s: m for s, m in half["1000"]["median"].items() if m != 1} == {
        "BIC": half["1000"]["median"]["BIC"]
    }
    claim("Under the BDeu(1) scheme BDeu(1) ranks it best from 20 samples on and fNML second")
    bdeu = results("rank_of_true_structure")["by_scheme"]["bdeu"]["by_size"]
    for n, ranks in bdeu.items():
        order = sorted(ranks["median"], key=ranks["median"].get)
        if int(n) >= 20:
            assert order[:2] == ["BDeu(1)", "fNML"], (n, ranks["median"])
        else:
            assert order[0] != "BDeu(1)", "then it would be best from 10 samples on"


def test_prediction_and_parsimony_claims():
    res = results("prediction_and_parsimony")
    claim("On data from *sachs* (10 random splits, a test half of 2000 rows)")
    assert (res["network"], res["splits"], res["test_rows"]) == ("sachs", 10, 2000)
    by_size = res["by_size"]
    claim("about as well as BD1/2, within 0.15 nats per test vector at every training size")
    for row in by_size.values():
        assert abs(row["log_loss_mean"]["fNML"] - row["log_loss_mean"]["BD1/2"]) < 0.15
    claim("and much better than BDeu(1) from few rows")
    for n in ("25", "50"):
        assert by_size[n]["log_loss_mean"]["BDeu(1)"] - by_size[n]["log_loss_mean"]["fNML"] > 0.5

    def fewest(n):
        medians = by_size[n]["parameters_median"]
        return sorted(m for m, v in medians.items() if v == min(medians.values()))

    claim("No score is the most parsimonious at every size")
    claim("from 25 and 50 rows qNML learns the fewest parameters")
    assert fewest("25") == fewest("50") == ["qNML"]
    claim("from 100 to 500 rows BDeu(1) does")
    assert fewest("100") == fewest("200") == fewest("500") == ["BDeu(1)"]
    claim("from 2000 rows all four learn the generating network's")
    assert set(by_size["2000"]["parameters_median"].values()) == {res["generating"]["parameters"]}
    assert list(by_size) == ["25", "50", "100", "200", "500", "1000", "2000"]


def test_min_max_bdeu_claims():
    res = results("min_max_bdeu")
    claim("On *child* data")
    assert res["network"] == "child"
    by_size = res["by_size"]
    claim("Min-BDeu learns sparser and better-predicting networks than BDeu from 20 to 80 rows")
    claim("and Max-BDeu denser and worse ones")
    for n in ("20", "40", "80"):
        arcs, accuracy = by_size[n]["arcs"], by_size[n]["accuracy"]
        assert arcs["Min-BDeu"] < arcs["BDeu"] < arcs["Max-BDeu"], n
        assert accuracy["Min-BDeu"] < accuracy["BDeu"] < accuracy["Max-BDeu"], n  # lower: better
    claim("from 320 rows on the three scores learn the same network")
    for n in ("320", "1280", "5120"):
        for metric in ("arcs", "hamming", "accuracy"):
            values = by_size[n][metric]
            assert values["Min-BDeu"] == values["BDeu"] == values["Max-BDeu"], (n, metric)
    claim("At N = 20 every learned network predicts worse than the empty one")
    accuracy = by_size["20"]["accuracy"]
    assert min(accuracy[s] for s in ("Min-BDeu", "BDeu", "Max-BDeu")) > accuracy["Empty"]
    claim("The relative Max-Min gap falls with the sample size in step with BDeu's accuracy")
    gaps = [row["relative_gap_percent"] for row in by_size.values()]
    bdeu = [row["accuracy"]["BDeu"] for row in by_size.values()]
    assert gaps == sorted(gaps, reverse=True) and bdeu == sorted(bdeu, reverse=True)
    assert list(by_size) == ["20", "40", "80", "320", "1280", "5120"]


def test_optimal_ess_claims():
    res = results("optimal_ess")
    claim("From 500 training rows, Steck's alternating procedure chooses an ESS of")
    claim("The best points of the 13-point held-out grid are")
    assert len(res["grid"]) == 13
    assert {row["n_train"] for row in res["by_network"].values()} == {500}
    assert list(res["by_network"]) == ["asia", "sachs"]


def test_bootstrap_strength_claims():
    res = results("bootstrap_strength")
    claim("on *sachs* (1000 rows)")
    assert (res["network"], res["rows"]) == ("sachs", 1000)
    claim("Use `replace=False` (half-size subsamples without replacement) with fNML")
    claim("qNML is not misled")
    procedures = res["by_procedure"]
    assert procedures["fnml_bootstrap"]["false_pairs_at_strength_1"] > 0
    for key in ("fnml_subsamples", "qnml_bootstrap"):
        assert procedures[key]["false_pairs_at_strength_1"] == 0
        assert procedures[key]["shd"] < procedures["fnml_bootstrap"]["shd"]


@pytest.mark.integration
@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_full_run_reproduces_the_committed_summary(name, tmp_path, monkeypatch, capsys):
    run_example(name, ["--out", str(tmp_path)], monkeypatch, capsys)
    fresh = json.loads((tmp_path / f"{name}.json").read_text())
    assert fresh["mode"] == "full"
    assert _approx(fresh["results"]) == results(name)


def _approx(value):
    """``value`` with every float compared to six significant digits (the summaries')."""
    if isinstance(value, dict):
        return {key: _approx(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_approx(item) for item in value]
    if isinstance(value, float):
        return pytest.approx(value, rel=2e-6, abs=1e-12)
    return value


def test_summary_values_are_plain_json():
    np = pytest.importorskip("numpy")
    plain = summary_tools.plain({"a": np.float64(1 / 3), 2: (np.int64(4), np.bool_(True))})
    assert plain == {"a": 0.333333, "2": [4, True]}
    assert json.loads(summary_tools.dumps(plain)) == plain
    with pytest.raises(ValueError, match="not finite"):
        summary_tools.plain(float("nan"))
    assert re.search(r"\[4, true\]", summary_tools.dumps(plain))
