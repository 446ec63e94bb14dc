"""The README's code runs as written (the examples: tests/test_examples.py)."""

import re
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.integration


def test_readme_quickstart_prints_no_warning():
    """The first block, which most readers run first, shows no warning (pgmpy's
    FutureWarning for its legacy API is acknowledged and silenced there)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.findall(r"```python\n(.*?)```", text, flags=re.S)[0]
    assert "LegacyHillClimbSearch" in block and "FutureWarning" in block
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exec(compile(block, "README.md", "exec"), {})
    assert not caught, [str(w.message) for w in caught]


def test_readme_python_blocks_run_in_order(capsys):
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 2
    namespace = {}
    for block in blocks:
        exec(compile(block, "README.md", "exec"), namespace)
    assert "causal_graph_" in text and namespace["model"].check_model()
    # learning_saturation's gap means something only for learned graphs with edges
    assert (namespace["curve"]["n_edges"] > 0).all()
