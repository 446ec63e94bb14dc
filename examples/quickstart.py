"""Quickstart: learn a network with fNML and qNML in both pgmpy APIs, exactly, then use it.

Data: 5000 rows sampled from the bundled "survey" network (6 variables). Hill
climbing in the new and the legacy pgmpy API, fsNML parameters, an inference
query, the test log-loss, and the globally optimal fNML network; the true and
the learned networks are drawn side by side in ``quickstart.png``.

Run:  python examples/quickstart.py [--out DIR]      (about 10 s)

Besides the PNG it writes ``quickstart.json`` (the exact search's result, which
unlike hill climbing does not depend on set iteration order; see ``_summary.py``).
"""

import argparse
import time
import warnings
from pathlib import Path

from _summary import write_summary
from pgmpy.causal_discovery import HillClimbSearch

from pgmpy_nml import FNML, QNML, bdeu_sensitivity
from pgmpy_nml.datasets import sample_network

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--out", default="examples/output", help="folder for the PNG")
parser.add_argument("--quick", action="store_true", help="accepted for symmetry; already quick")
args = parser.parse_args()
start = time.perf_counter()

true_model, data = sample_network("survey", n_samples=5000, random_state=0)
print("true edges:          ", sorted(true_model.edges()))

# The new, scikit-learn style API (pgmpy.causal_discovery): no hyperparameter to tune.
for score in (FNML(data), QNML(data)):
    search = HillClimbSearch(scoring_method=score, return_type="dag", show_progress=False)
    dag = search.fit(data).causal_graph_
    print(f"{type(score).__name__} hill climbing: ", sorted(dag.edges()))
    learned, truth = score.score(dag), score.score(true_model)
    print(f"    score of the learned network {learned:.2f}, of the true one {truth:.2f}")

# The legacy API (pgmpy.estimators, deprecated by pgmpy) takes the same score objects.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", FutureWarning)
    from pgmpy.estimators import HillClimbSearch as LegacyHillClimbSearch

    legacy = LegacyHillClimbSearch(data).estimate(scoring_method=QNML(data), show_progress=False)
print("QNML, legacy API:    ", sorted(legacy.edges()))

# How much would BDeu's verdict on the learned graph move with its prior?
gap = bdeu_sensitivity(data, legacy, equivalent_sample_size=1.0, epsilon=0.5)
print(f"Max-BDeu - Min-BDeu of the learned graph: {gap:.2f} nats")

# fsNML parameters on the learned structure, then a pgmpy inference query.
from pgmpy.inference import VariableElimination  # noqa: E402

from pgmpy_nml import FSNMLEstimator, log_loss, n_parameters  # noqa: E402
from pgmpy_nml.models import bayesian_network  # noqa: E402

train, test = data.iloc[:4000], data.iloc[4000:]
dag = HillClimbSearch(scoring_method=FNML(train), return_type="dag", show_progress=False)
dag = dag.fit(train).causal_graph_
model = bayesian_network(dag).fit(train, estimator=FSNMLEstimator())
print(VariableElimination(model).query(["T"], evidence={"A": "young"}))
bits = log_loss(model, test, base=2)
print(f"test log-loss {bits:.3f} bits per row with {n_parameters(model)} free parameters")

# The globally optimal structure for fNML, with fsNML parameters, in one call.
from pgmpy_nml import ExactSearch  # noqa: E402

exact = ExactSearch("fnml", parameter_estimator=FSNMLEstimator(), show_progress=False).fit(train)
print("FNML exact search:   ", sorted(exact.dag_.edges()), f"score {exact.score_:.2f}")
print(VariableElimination(exact.model_).query(["E"], evidence={"T": "train"}))
exact_bits = log_loss(exact.model_, test, base=2)
print(
    f"exact fNML network: test log-loss {exact_bits:.3f} bits per row with "
    f"{n_parameters(exact.model_)} free parameters"
)

# Draw the true network next to the optimal fNML one.
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import networkx as nx  # noqa: E402

fig, axes = plt.subplots(1, 2, figsize=(10, 4.5))
layout = nx.circular_layout(sorted(true_model.nodes()))
for ax, graph, title in (
    (axes[0], true_model, "true survey network"),
    (axes[1], exact.dag_, f"exact fNML network from {len(train)} rows"),
):
    nx.draw_networkx(
        nx.DiGraph(graph),  # keeps isolated nodes
        pos=layout,
        ax=ax,
        node_color="#cde",
        node_size=900,
        arrowsize=18,
        font_size=12,
    )
    ax.set_title(title)
    ax.set_axis_off()
fig.tight_layout()
out = Path(args.out)
out.mkdir(parents=True, exist_ok=True)
fig.savefig(out / "quickstart.png", dpi=100)
print(f"figure written to {out / 'quickstart.png'}")
results = {
    "network": "survey",
    "rows": len(data),
    "train_rows": len(train),
    "true_edges": [f"{u}->{v}" for u, v in sorted(true_model.edges())],
    "exact_fnml": {
        "edges": [f"{u}->{v}" for u, v in sorted(exact.dag_.edges())],
        "score": exact.score_,
        "test_log_loss_bits": exact_bits,
        "parameters": n_parameters(exact.model_),
    },
}
seconds = time.perf_counter() - start
path = write_summary(out, "quickstart", results, quick=args.quick, seconds=seconds)
print(f"summary written to {path}")
