"""Smoke run of the seed-002 example (optimal ESS vs. a held-out grid)."""

import runpy
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "optimal_ess.py"


def test_optimal_ess_example_quick(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(sys, "argv", [str(EXAMPLE), "--quick", "--out", str(tmp_path)])
    runpy.run_path(str(EXAMPLE), run_name="__main__")
    out = capsys.readouterr().out
    assert "alternating procedure (Eq. 18): alpha" in out and "held-out grid: best alpha" in out
    assert (tmp_path / "optimal_ess.png").stat().st_size > 20_000
