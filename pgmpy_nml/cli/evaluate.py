"""``pgmpy-nml evaluate``: the log-loss of a fitted network on test data."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from . import _outputs
from ._cuts import apply_cut_points
from ._inputs import model_states, read_csv, read_model
from ._requests import EvaluateRequest, evaluate_request

if TYPE_CHECKING:
    import argparse


def cmd_evaluate(args: argparse.Namespace) -> dict:
    return evaluate(evaluate_request(args))


def evaluate(request: EvaluateRequest) -> dict:
    from ..evaluate import _log_loss, n_parameters

    _outputs.check_outputs(request.write, request.read.inputs())
    assert request.read.model is not None  # argparse requires --model
    model = read_model(request.read.model)
    data = read_csv(request.read, use=list(model.nodes()))
    if request.read.cut_points:
        data.frame = apply_cut_points(request.read, data.frame, data.notes)
    model_states(model, request.read.model, data)
    base = 2 if request.bits else math.e
    unit = "bits" if request.bits else "nats"
    em = request.read.missing == "em"
    loss, infinite = _log_loss(model, data.frame, base, "marginalize" if em else "error")
    data.print(what="test data")
    observed = " (each row's observed cells, the missing ones summed out)" if em else ""
    print(f"log-loss{observed}: {loss:.4f} {unit} per row; {n_parameters(model)} free parameters")
    reasons = {}
    if infinite is not None:
        reasons["log_loss"] = f"infinite: {infinite}"
        print(
            f"  note: the log-loss is infinite: {infinite} Refit the network with "
            "fsNML parameters (pgmpy-nml fit --params fsnml, or learn with --params auto "
            "or fsnml), which keep every probability positive."
        )
    summary = {
        **data.summary("evaluate"),
        "model": request.read.model,
        "missing": request.read.missing,
        "log_loss": loss,
        "unit": unit,
        "n_parameters": int(n_parameters(model)),
    }
    return _outputs.finish(summary, request.write, reasons)
