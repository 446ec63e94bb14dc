"""Smoke tests of the seed-000 example scripts: their --quick runs print and plot.

Both scripts run in this process (runpy), so pgmpy and the compiled kernels are
imported once; together they take well under 40 s.
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run_example(script, out, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", [script, "--quick", "--out", str(out)])
    runpy.run_path(str(EXAMPLES / script), run_name="__main__")
    return capsys.readouterr().out


def test_rank_of_true_structure(tmp_path, monkeypatch, capsys):
    out = run_example("rank_of_true_structure.py", tmp_path, monkeypatch, capsys)
    png = tmp_path / "rank_of_true_structure.png"
    assert png.is_file() and png.stat().st_size > 10_000
    assert "among all 29281 DAGs on 5 nodes" in out
    assert "Ties resolved optimistically" in out
    assert out.count("median rank of the true structure (optimistic)") == 2
    for score in ("BDeu(1)", "fNML", "qNML", "BD1/2", "BIC", "AIC"):
        assert f"    {score}" in out  # one quartile line per score and scheme
    assert f"saved figure: {png}" in out


def test_prediction_and_parsimony(tmp_path, monkeypatch, capsys):
    out = run_example("prediction_and_parsimony.py", tmp_path, monkeypatch, capsys)
    png = tmp_path / "prediction_and_parsimony.png"
    assert png.is_file() and png.stat().st_size > 10_000
    assert "Predictive log-loss, nats per test vector" in out
    assert "Free parameters of the learned network" in out
    for method in ("fNML + fsNML", "qNML + fsNML", "BDeu(1) + exp", "BD1/2 + exp"):
        assert method in out
    assert "generating network:" in out
    assert f"saved figure: {png}" in out
