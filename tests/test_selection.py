"""The README's test command stays a quick check of everything (issue 34, item 6):
``python -m pytest`` leaves out the tests marked ``long`` and ``slow`` (``conftest.py``),
so every test module must keep tests outside them (the package's doctests all run)."""

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
OPT_IN = {"long", "slow"}


def _marks(decorators) -> set[str]:
    """The ``pytest.mark.X`` names among decorators (or a ``pytestmark`` value)."""
    found = set()
    for node in decorators:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Attribute):
                if sub.value.attr == "mark":
                    found.add(sub.attr)
    return found


def quick_tests(path: Path) -> list[str]:
    """The test functions of a test module that ``python -m pytest`` runs."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    module_marks: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets
        ):
            module_marks |= _marks([node.value])
    if module_marks & OPT_IN:
        return []
    return [
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef)
        and node.name.startswith("test")
        and not _marks(node.decorator_list) & OPT_IN
    ]


@pytest.mark.parametrize("path", sorted(TESTS.glob("test_*.py")), ids=lambda p: p.name)
def test_every_test_module_keeps_quick_tests(path):
    assert quick_tests(path), f"{path.name}: every test is long or slow"


def test_the_opt_in_markers_are_declared_and_deselected():
    config = (TESTS.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert all(f'"{marker}: ' in config for marker in OPT_IN)  # declared markers
    text = (TESTS.parent / "conftest.py").read_text(encoding="utf-8")
    assert 'OPT_IN = ("long", "slow")' in text
