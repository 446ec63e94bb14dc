"""``pgmpy-nml score``: a given network scored on data, per node and in total."""

from __future__ import annotations

from ._common import (
    UserError,
    _check_missing_scores,
    _data_summary,
    _edges_text,
    _print_data,
    _score,
    _score_parameters,
    _structure,
    _table,
)
from ._cuts import _read_study_data
from ._io import _check_directory, _declared_states, _finish, _read_model


def cmd_score(args):
    if not args.model and not args.edges:
        raise UserError("give the network to score with --model FILE.bif or --edges A->B,B->C")
    _check_directory(args.json, "--json")
    model = _read_model(args.model) if args.model else None
    use = list(model.nodes()) if model else None
    data, source, notes, cut_points = _read_study_data(args, use=use)
    dag = _structure(args, data, model)
    data = data[list(dag.nodes())]
    states = _declared_states(model, args.model, data, source) if model else None
    names = args.scores or ["fnml", "qnml", "bdeu", "bic"]
    _check_missing_scores(args, data, names, "--scores")
    scores = {name: _score(name, data, args.ess, states) for name in names}
    nodes = list(data.columns)
    per_node = {
        name: {v: float(s.local_score(v, tuple(sorted(dag.predecessors(v))))) for v in nodes}
        for name, s in scores.items()
    }
    totals = {name: sum(values.values()) for name, values in per_node.items()}
    _print_data(source, data, notes)
    print(f"network: {_edges_text(dag)}")
    rows = [
        [v, ",".join(sorted(dag.predecessors(v))) or "-"] + [f"{per_node[n][v]:.3f}" for n in names]
        for v in nodes
    ]
    rows.append(["total", ""] + [f"{totals[n]:.3f}" for n in names])
    print(_table(["node", "parents", *names], rows))
    summary = {
        **_data_summary("score", source, notes, data),
        "edges": [list(e) for e in sorted(dag.edges())],
        "score_parameters": {name: _score_parameters(s) for name, s in scores.items()},
        "local_scores": per_node,
        "total_scores": totals,
    }
    if cut_points:
        summary["cut_points"] = cut_points
    return _finish(summary, args)
