"""Every code block of the README and of the docs runs as written, on its own.

* every ```python block runs alone: a fresh namespace, an empty working folder, so each
  brings its own imports and data (the README's first example also prints no warning);
* the ```bash blocks of ``pgmpy-nml`` commands run in document order, in one folder per
  document, on the CSV files that document names (written here: samples of the survey
  network, clean, and as R's ``write.csv`` leaves them, with a row-names column, ``NA``
  cells and a continuous column);
* every other ```bash block is a command for the reader (installing, testing, building
  the docs, benchmarks), recognized by its prefix and never run here;
* the README stays a front door: the Set-up block ``.ci/run`` runs, a short page, links
  that resolve.

The example scripts and the numbers the docs quote from them: tests/test_examples.py.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: every Markdown page: the README and the docs (the build folder excluded)
PAGES = [README, *sorted(p for p in (ROOT / "docs").rglob("*.md") if "_build" not in p.parts)]
FENCE = re.compile(r"^```(?P<lang>[\w{}-]*)[^\n]*\n(?P<code>.*?)^```[ \t]*$", re.M | re.S)
#: bash commands shown for the reader to run, never run by this test
READER_COMMANDS = (
    "pip install",
    "python -m pytest",
    "python -m sphinx",
    "python benchmarks/",
    "python examples/",
    "pre-commit",
)

pytestmark = pytest.mark.integration


def blocks(path, lang):
    """``(line, code)`` of every fenced block of ``lang`` in ``path``."""
    text = path.read_text(encoding="utf-8")
    return [
        (text.count("\n", 0, match.start()) + 1, match["code"])
        for match in FENCE.finditer(text)
        if match["lang"] == lang
    ]


def commands(code):
    """The shell commands of a block: continuation lines joined, comments and blanks out."""
    joined = re.sub(r"\\\n\s*", " ", code)
    return [c for c in (line.split(" #", 1)[0].strip() for line in joined.splitlines()) if c]


def page_name(path):
    return path.relative_to(ROOT).as_posix()


PYTHON_BLOCKS = [
    pytest.param(path, line, code, id=f"{page_name(path)}:{line}")
    for path in PAGES
    for line, code in blocks(path, "python")
]


def test_every_page_is_found():
    names = {page_name(path) for path in PAGES}
    assert {"README.md", "docs/cli.md", "docs/benchmarks.md", "docs/design.md"} <= names
    assert len(PYTHON_BLOCKS) >= 15


@pytest.mark.parametrize(("path", "line", "code"), PYTHON_BLOCKS)
def test_python_block_runs_on_its_own(path, line, code, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a block that writes files writes them here
    source = "\n" * (line) + code  # tracebacks give the page's line numbers
    exec(compile(source, str(path), "exec"), {"__name__": "__main__"})


def test_readme_first_example_prints_no_warning(tmp_path):
    """The first block, which most readers run first, shows no warning: in a fresh
    interpreter with Python's default filters, as they run it (in this process pgmpy's
    modules are imported already, and a warning given at import time would never show)."""
    _, code = blocks(README, "python")[0]
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert "Warning" not in done.stderr, done.stderr


#: pgmpy's modules whose first import prints that warning
PGMPY_IMPORT = re.compile(r"^(?:from|import) pgmpy\.(?:inference|estimators)\b", re.M)
NML_IMPORT = re.compile(r"^(?:from|import) pgmpy_nml\b", re.M)


@pytest.mark.parametrize(("path", "line", "code"), PYTHON_BLOCKS)
def test_python_block_imports_pgmpy_nml_first(path, line, code):
    """pgmpy 1.1 prints a FutureWarning the first time its legacy estimators module is
    imported (``pgmpy.inference`` imports it too); ``pgmpy_nml``'s import silences it, so
    a block that imports both imports ``pgmpy_nml`` first (the README's first block is
    run in a fresh interpreter above)."""
    pgmpy, ours = PGMPY_IMPORT.search(code), NML_IMPORT.search(code)
    if pgmpy and ours:
        assert ours.start() < pgmpy.start(), f"{page_name(path)}:{line}"


# -- the command-line recipes ------------------------------------------------------------
def _survey(n_rows, seed):
    from pgmpy_nml.datasets import sample_network

    return sample_network("survey", n_samples=n_rows, random_state=seed)[1]


def _raw(frame, seed):
    """``frame`` as a real file has it: a continuous column, 2% of cells missing."""
    rng = np.random.default_rng(seed)
    raw = frame.astype(object)
    hours = 38 + 6 * (frame["O"] == "self") + 4 * (frame["E"] == "uni")
    raw["hours"] = np.round(hours + rng.normal(0, 5, len(frame)), 1)
    return raw.mask(rng.random(raw.shape) < 0.02)


def write_r_csv(frame, path):
    """``frame`` written as R's ``write.csv`` writes it: quoted row names and text, bare
    ``NA`` and numbers."""

    def cell(value):
        if value is None or (isinstance(value, float) and np.isnan(value)):
            return "NA"
        return f'"{value}"' if isinstance(value, str) else repr(value)

    lines = [",".join(['""', *(f'"{name}"' for name in frame.columns)])]
    for number, row in enumerate(frame.itertuples(index=False), start=1):
        lines.append(",".join([f'"{number}"', *(cell(value) for value in row)]))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_files(folder, names):
    """The CSV files a page's commands read, by name: survey samples, clean or raw."""
    train, test = _survey(3000, 0), _survey(1000, 1)
    frames = {
        "train": train,
        "test": test,
        "raw train": _raw(train.iloc[:1000], 2),
        "raw test": _raw(test.iloc[:300], 3),
    }
    for file_name, what in names.items():
        if what.startswith("raw"):
            write_r_csv(frames[what], folder / file_name)
        else:
            frames[what].to_csv(folder / file_name, index=False)


#: page -> the files its commands read (names as the page uses them)
DATA_FILES = {
    "README.md": {"data.csv": "raw train", "test.csv": "raw test"},
    "docs/cli.md": {
        "train.csv": "train",
        "test.csv": "test",
        "raw.csv": "raw train",
        "raw_test.csv": "raw test",
    },
    "docs/guide/missing.md": {"raw.csv": "raw train", "raw_test.csv": "raw test"},
}


def _is_cli_block(code):
    return all(command.startswith("pgmpy-nml ") for command in commands(code))


CLI_PAGES = [path for path in PAGES if any(_is_cli_block(c) for _, c in blocks(path, "bash"))]


def test_every_bash_block_is_a_recipe_or_a_command_for_the_reader():
    odd = [
        f"{page_name(path)}:{line}: {command}"
        for path in PAGES
        for line, code in blocks(path, "bash")
        if not _is_cli_block(code)
        for command in commands(code)
        if not command.startswith(READER_COMMANDS)
    ]
    assert not odd, odd
    assert {page_name(path) for path in CLI_PAGES} == set(DATA_FILES)


@pytest.mark.parametrize(
    "path",
    [  # the README's recipe in the quick selection, the docs' pages with -m long
        p if p.name == "README.md" else pytest.param(p, marks=pytest.mark.long) for p in CLI_PAGES
    ],
    ids=page_name,
)
def test_command_line_recipes_run(path, tmp_path):
    """The page's pgmpy-nml commands, in order, each block with ``bash -e``."""
    write_files(tmp_path, DATA_FILES[page_name(path)])
    # the console script of this interpreter, wherever it is installed
    prelude = f'pgmpy-nml() {{ "{sys.executable}" -m pgmpy_nml "$@"; }}\n'
    for line, code in blocks(path, "bash"):
        if not _is_cli_block(code):
            continue
        done = subprocess.run(
            ["bash", "-e", "-o", "pipefail", "-c", prelude + code],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, f"{page_name(path)}:{line}\n{done.stdout}\n{done.stderr}"
    if page_name(path) == "README.md":  # the recipe's outputs, and its notes on the file
        assert (tmp_path / "m.bif").exists() and (tmp_path / "m.json").exists()


def test_r_style_file_is_what_the_readme_promises(tmp_path):
    """The README's recipe meets a row-names column, NA cells and a continuous column."""
    write_files(tmp_path, {"data.csv": "raw train"})
    lines = (tmp_path / "data.csv").read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith('"",') and lines[1].startswith('"1",')
    assert any(",NA" in line for line in lines) and re.search(r",\d+\.\d", lines[1])


# -- the README as a front door ----------------------------------------------------------
README_TEXT = README.read_text(encoding="utf-8")


def test_readme_setup_block_is_what_ci_runs():
    """``.ci/run`` runs the two commands of the Set-up block, the second the tests."""
    block = re.search(r"^## Set-up\n.*?```bash\n(.*?)```", README_TEXT, flags=re.S | re.M)
    assert commands(block.group(1)) == [
        "pip install . && pgmpy-nml",
        'pip install -e ".[test]" && python -m pytest',
    ]


def test_readme_is_short_and_says_what_a_newcomer_asks():
    lines = len(README_TEXT.splitlines())
    assert lines <= 200, f"{lines} lines: the README is the front door, move detail to docs/"
    for text in (
        "## Set-up",
        "## A first example",
        "pgmpy-nml learn data.csv --dropna --discretize",
        "## Which score",
        "600 s",
        "python -m pytest -m long",
        "a few minutes",
        "python -m sphinx -E -W -b html docs docs/_build",
    ):
        assert text in README_TEXT, text


def test_readme_links_resolve():
    headings = {
        re.sub(r"[^\w\- ]", "", title.lower()).replace(" ", "-")
        for title in re.findall(r"^#+ (.+)$", README_TEXT, flags=re.M)
    }
    links = re.findall(r"\]\(([^)\s]+)\)", README_TEXT)
    assert any(link.startswith("docs/") for link in links)
    for link in links:
        if link.startswith(("http://", "https://")):
            continue
        if link.startswith("#"):
            assert link[1:] in headings, link
        else:
            assert (ROOT / link.split("#", 1)[0]).exists(), link
