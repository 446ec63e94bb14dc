"""``pgmpy-nml fit``: the parameters of a given structure."""

from __future__ import annotations

from ._common import UserError, _data_summary, _edges_text, _fit, _print_data, _structure
from ._cuts import _read_study_data
from ._io import (
    _check_directory,
    _check_out_names,
    _finish,
    _output_format,
    _read_model,
    _write_network,
)


def cmd_fit(args):
    from ..evaluate import n_parameters

    if not args.model and not args.edges:
        raise UserError("give the structure with --model FILE.bif or --edges A->B,B->C")
    kind = _output_format(args.out)
    _check_directory(args.json, "--json")
    model = _read_model(args.model) if args.model else None
    use = list(model.nodes()) if model else None
    data, source, notes, cut_points = _read_study_data(args, use=use)
    _check_out_names(args.out, kind, data)
    dag = _structure(args, data, model)
    fitted = _fit(dag, data, args.estimator, args.ess)
    _print_data(source, data, notes)
    print(f"network: {_edges_text(dag)}")
    print(f"parameters: {args.estimator}, {n_parameters(fitted)} free")
    summary = {
        **_data_summary("fit", source, notes, data),
        "edges": [list(e) for e in sorted(dag.edges())],
        "estimator": args.estimator,
        "estimator_parameters": {"ess": args.ess} if args.estimator == "bdeu" else {},
        "n_parameters": int(n_parameters(fitted)),
    }
    if cut_points:
        summary["cut_points"] = cut_points
    if args.out:
        _write_network(fitted, dag, args.out, kind)
    return _finish(summary, args)
