"""``pgmpy-nml score``: a given network scored on data, per node and in total."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import _outputs
from ._cuts import read_study_data
from ._graphs import given_structure
from ._inputs import Data, model_states, read_model
from ._report import edges_text, table
from ._requests import ScoreRequest, score_request
from ._scores import check_missing_scores, make_score, score_parameters

if TYPE_CHECKING:
    import argparse


def cmd_score(args: argparse.Namespace) -> dict:
    return score(score_request(args))


def score(request: ScoreRequest) -> dict:
    _outputs.check_outputs(request.write, request.read.inputs())
    model = read_model(request.read.model) if request.read.model else None
    use = list(model.nodes()) if model else None
    data = read_study_data(request.read, use=use)
    dag = given_structure(request.edges, data.variables, model)
    frame = data.frame[list(dag.nodes())]
    states = data.states
    if model is not None:
        assert request.read.model is not None
        states = model_states(model, request.read.model, data)
    data = Data(frame, data.source, data.notes, states, data.cut_points)
    names = list(request.scores)
    if request.read.missing == "available":
        check_missing_scores(data, names, "--scores")
    scores = {name: make_score(name, data, request.ess) for name in names}
    nodes = list(frame.columns)
    per_node = {
        name: {v: float(s.local_score(v, tuple(sorted(dag.predecessors(v))))) for v in nodes}
        for name, s in scores.items()
    }
    totals = {name: sum(values.values()) for name, values in per_node.items()}
    data.print()
    print(f"network: {edges_text(dag)}")
    rows = [
        [v, ",".join(sorted(dag.predecessors(v))) or "-"] + [f"{per_node[n][v]:.3f}" for n in names]
        for v in nodes
    ]
    rows.append(["total", ""] + [f"{totals[n]:.3f}" for n in names])
    print(table(["node", "parents", *names], rows))
    summary = {
        **data.summary("score"),
        "edges": [list(e) for e in sorted(dag.edges())],
        "score_parameters": {name: score_parameters(s) for name, s in scores.items()},
        "local_scores": per_node,
        "total_scores": totals,
    }
    if data.cut_points:
        summary["cut_points"] = data.cut_points
    return _outputs.finish(summary, request.write)
