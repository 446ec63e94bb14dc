"""examples/min_max_bdeu.py (seed 004, Min-/Max-BDeu experiments) runs in its quick mode."""

import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "examples" / "min_max_bdeu.py"


def test_min_max_bdeu_quick(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr(sys, "argv", [SCRIPT.name, "--quick", "--out", str(tmp_path)])
    runpy.run_path(str(SCRIPT), run_name="__main__")
    out = capsys.readouterr().out
    for line in ("Network sachs", "Accuracy score", "Hamming distance", "relative gap", "Saved"):
        assert line in out
    assert "Saturation sets in" in out or "Saturation: relative gap never" in out
    for score in ("Min-BDeu", "BDeu", "Max-BDeu", "Empty"):
        assert score in out
    # one table row per sample size, with four (accuracy, Hamming, arcs) cells
    rows = [
        line for line in out.splitlines() if line.split("|")[0].strip() in {"20", "160", "1280"}
    ]
    assert len(rows) == 3 and all(row.count("|") == 4 for row in rows)
    assert (tmp_path / "min_max_bdeu.png").stat().st_size > 10_000
