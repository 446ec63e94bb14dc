"""``pgmpy-nml evaluate``: the log-loss of a fitted network on test data."""

from __future__ import annotations

import math

from ._common import _data_summary, _print_data
from ._cuts import _apply_cut_points
from ._io import _check_directory, _declared_states, _finish, _read_csv, _read_model


def cmd_evaluate(args):
    from ..evaluate import _log_loss, n_parameters

    _check_directory(args.json, "--json")
    model = _read_model(args.model)
    data, source, notes = _read_csv(args, use=list(model.nodes()))
    if args.cut_points:
        data = _apply_cut_points(args, data, notes)
    _declared_states(model, args.model, data, source)
    base = 2 if args.bits else math.e
    unit = "bits" if args.bits else "nats"
    loss, infinite = _log_loss(model, data, base=base)
    _print_data(source, data, notes, what="test data")
    print(f"log-loss: {loss:.4f} {unit} per row; {n_parameters(model)} free parameters")
    reasons = {}
    if infinite is not None:
        reasons["log_loss"] = f"infinite: {infinite}"
        print(
            f"  note: the log-loss is infinite: {infinite} Refit the network with "
            "fsNML parameters (pgmpy-nml fit --estimator fsnml, or learn with --params auto "
            "or fsnml), which keep every probability positive."
        )
    summary = {
        **_data_summary("evaluate", source, notes, data),
        "model": args.model,
        "log_loss": loss,
        "unit": unit,
        "n_parameters": int(n_parameters(model)),
    }
    return _finish(summary, args, reasons)
