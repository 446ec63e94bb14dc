"""The README's code runs as written (the examples: tests/test_examples.py)."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.integration


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
