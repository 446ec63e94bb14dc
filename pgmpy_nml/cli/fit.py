"""``pgmpy-nml fit``: the parameters of a given structure."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import _outputs
from ._cuts import read_study_data
from ._graphs import given_structure
from ._inputs import read_model
from ._report import edges_text
from ._requests import FitRequest, fit_request
from ._scores import fit as fit_parameters

if TYPE_CHECKING:
    import argparse


def cmd_fit(args: argparse.Namespace) -> dict:
    return fit(fit_request(args))


def fit(request: FitRequest) -> dict:
    from ..evaluate import n_parameters

    _outputs.check_outputs(request.write, request.read.inputs())
    model = read_model(request.read.model) if request.read.model else None
    use = list(model.nodes()) if model else None
    data = read_study_data(request.read, use=use)
    _outputs.check_names(request.write.get("--out"), data.states)
    dag = given_structure(request.edges, data.variables, model)
    em = request.read.missing == "em"
    fitted = fit_parameters(dag, data, request.params, request.ess, em=em)
    data.print()
    print(f"network: {edges_text(dag)}")
    missing = int(data.frame.isna().to_numpy().sum())
    how = f" by EM over {missing} missing cells" if em and missing else ""
    print(f"parameters: {request.params}{how}, {n_parameters(fitted)} free")
    summary = {
        **data.summary("fit"),
        "edges": [list(e) for e in sorted(dag.edges())],
        "missing": request.read.missing,
        "estimator": request.params,
        "estimator_parameters": {"ess": request.ess} if request.params == "bdeu" else {},
        "n_parameters": int(n_parameters(fitted)),
    }
    if data.cut_points:
        summary["cut_points"] = data.cut_points
    out = request.write.get("--out")
    if out is not None:
        _outputs.write_network(fitted, dag, out)
    return _outputs.finish(summary, request.write)
