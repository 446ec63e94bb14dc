"""Smoke run of the bootstrap-strength example."""

import runpy
import sys
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "bootstrap_strength.py"


@pytest.mark.integration
def test_bootstrap_strength_example_quick(monkeypatch, capsys, tmp_path):
    pytest.importorskip("matplotlib")
    monkeypatch.setattr(sys, "argv", [str(EXAMPLE), "--quick", "--out", str(tmp_path)])
    runpy.run_path(str(EXAMPLE), run_name="__main__")
    out = capsys.readouterr().out
    assert "fNML, bootstrap: threshold" in out and "qNML, bootstrap: threshold" in out
    assert (tmp_path / "bootstrap_strength.png").stat().st_size > 20_000
