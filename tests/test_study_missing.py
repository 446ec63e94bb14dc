"""Missing values: the input boundary's policy and the node-average likelihood scores.

References: NAL and PNAL recomputed family by family from the rows pandas keeps with
``dropna`` on the family's columns, counted with the dictionaries of
``tests/_reference.py``; on complete data, PNAL times n equals pgmpy's BIC.
"""

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from _reference import counts, log_likelihood
from pgmpy.base import DAG

from pgmpy_nml import ExactSearch
from pgmpy_nml._data import encode_data
from pgmpy_nml.datasets import sample_network
from pgmpy_nml.scores import make_score
from pgmpy_nml.scores.nal import NAL, PNAL
from pgmpy_nml.study import LearningProcedure, bootstrap_strength, cross_validate


@pytest.fixture(scope="module")
def incomplete():
    true_model, data = sample_network("asia", 600, random_state=5)
    mask = np.random.default_rng(2).random(data.shape) < 0.1
    return true_model, data, data.astype(object).mask(mask)


def test_policies_at_the_boundary(incomplete):
    _, data, holes = incomplete
    with pytest.raises(ValueError, match='missing="drop"'):
        encode_data(holes)
    n_complete = int(holes.notna().all(axis=1).sum())
    with pytest.warns(UserWarning, match=f"dropped {len(holes) - n_complete} of {len(holes)} rows"):
        dropped = encode_data(holes, missing="drop")
    assert dropped.n_samples == n_complete and dropped.n_dropped == len(holes) - n_complete
    kept = encode_data(holes, missing="available")
    assert kept.n_samples == len(holes) and kept.n_dropped == 0
    assert np.array_equal(kept.codes < 0, holes.isna().to_numpy().T)
    full = encode_data(data)
    observed = ~holes.isna().to_numpy().T
    assert np.array_equal(kept.codes[observed], full.codes[observed])
    with pytest.raises(ValueError, match="missing must be one of"):
        encode_data(data, missing="impute")
    with pytest.raises(ValueError, match="every row is missing"):
        encode_data(pd.DataFrame({"A": [None, None], "B": [0, 1]}), missing="available")
    with pytest.raises(ValueError, match="leaves nothing"):
        encode_data(pd.DataFrame({"A": [None, 1], "B": [0, None]}), missing="drop")


def reference_nal(data, child, parents, penalty):
    local = data[[child, *parents]].dropna()
    states = {v: sorted(data[v].dropna().unique().tolist()) for v in data.columns}
    table = counts(local, child, list(parents), states)
    q = math.prod(len(states[p]) for p in parents)
    free = q * (len(states[child]) - 1)
    return log_likelihood(table) / len(local) - penalty * free / len(data)


@pytest.mark.parametrize("family", [("lung", []), ("either", ["lung", "tub"]), ("dysp", ["bronc"])])
def test_nal_and_pnal_against_the_rows_complete_on_each_family(incomplete, family):
    _, _, holes = incomplete
    child, parents = family
    n = len(holes)
    assert NAL(holes).local_score(child, parents) == pytest.approx(
        reference_nal(holes, child, parents, 0.0), rel=1e-12
    )
    assert PNAL(holes).local_score(child, parents) == pytest.approx(
        reference_nal(holes, child, parents, 0.5 * math.log(n)), rel=1e-12
    )
    assert PNAL(holes, penalty=3.0).local_score(child, parents) == pytest.approx(
        reference_nal(holes, child, parents, 3.0), rel=1e-12
    )


def test_on_complete_data_pnal_is_bic_per_row(incomplete):
    from pgmpy.structure_score import BIC

    _, data, _ = incomplete
    bic, pnal = BIC(data), make_score("pnal", data)
    for child, parents in [("lung", ("smoke",)), ("either", ("lung", "tub")), ("asia", ())]:
        assert pnal.local_score(child, parents) * len(data) == pytest.approx(
            bic.local_score(child, parents), rel=1e-12
        )


def test_a_family_never_observed_together_is_never_chosen():
    data = pd.DataFrame({"A": [0, 1, None, None], "B": [None, None, 0, 1], "C": [0, 1, 0, 1]})
    assert NAL(data).local_score("A", ["B"]) == -math.inf
    dag = ExactSearch(make_score("pnal", data), show_progress=False).fit(data).dag_
    assert not dag.has_edge("B", "A") and not dag.has_edge("A", "B")


def test_learning_with_missing_values(incomplete):
    _, _, holes = incomplete
    learned = LearningProcedure("auto", scoring_method="pnal", missing="available").fit(holes)
    assert learned.model_.check_model()  # pgmpy's estimators count each family's rows
    assert set(learned.model_.nodes()) == set(holes.columns)
    with pytest.raises(ValueError, match="missing values"):
        LearningProcedure("auto", scoring_method="fnml").fit(holes)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dropped = LearningProcedure("auto", scoring_method="fnml", missing="drop").fit(holes)
    assert any("dropped" in str(w.message) for w in caught)
    complete = holes.dropna().reset_index(drop=True)
    names = encode_data(complete).state_names
    direct = ExactSearch(make_score("fnml", complete, names), show_progress=False).fit(complete)
    assert set(dropped.dag_.edges()) == set(direct.dag_.edges())


def test_study_tools_take_the_policy(incomplete):
    _, _, holes = incomplete
    s = bootstrap_strength(
        holes, scoring_method="pnal", n_bootstrap=2, missing="available", random_state=0
    )
    assert len(s) == 56 and s.attrs["cpdag"] is False
    with pytest.warns(UserWarning, match="dropped"):
        cv = cross_validate(holes, scoring_method="qnml", k=3, missing="drop", random_state=0)
    assert cv.folds["n_test"].sum() == holes.notna().all(axis=1).sum()
    cv = cross_validate(holes, scoring_method="pnal", k=3, missing="available", random_state=0)
    # only the complete test rows are evaluated
    assert cv.folds["n_test"].sum() == holes.notna().all(axis=1).sum()
    assert cv.folds["n_train"].sum() == 2 * len(holes)


def test_local_scores_with_missing_values(incomplete):
    from pgmpy_nml.study import local_scores

    true_model, _, holes = incomplete
    by_node = local_scores(DAG(true_model.edges()), holes, scoring_method="nal")
    for v in ["lung", "either"]:
        parents = sorted(true_model.predecessors(v))
        assert by_node[v] == pytest.approx(reference_nal(holes, v, parents, 0.0), rel=1e-12)
