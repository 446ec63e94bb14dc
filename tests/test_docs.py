"""The README's code and the examples run as written."""

import re
import runpy
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_readme_python_blocks_run_in_order(capsys):
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 2
    namespace = {}
    for block in blocks:
        exec(compile(block, "README.md", "exec"), namespace)
    assert "causal_graph_" in text and namespace["model"].check_model()


@pytest.mark.parametrize("script", ["quickstart.py"])
def test_examples_run(script, monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(sys, "argv", [script, "--out", str(tmp_path)])
    runpy.run_path(str(ROOT / "examples" / script), run_name="__main__")
    out = capsys.readouterr().out
    assert "FNML hill climbing" in out and "log-loss" in out and "exact search" in out
    assert (tmp_path / "quickstart.png").stat().st_size > 10_000
