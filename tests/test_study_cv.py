"""Cross-validation of learning procedures and their paired comparison.

References: folds checked as a partition of the rows; each fold's loss recomputed by
hand (the search, the parameter estimator and ``log_loss`` called directly); the
classification of a target against pgmpy's own exact inference (``model.predict``);
paired differences and their standard errors recomputed from the per-split losses.
"""

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from pgmpy.parameter_estimator import DiscreteBayesianEstimator

from pgmpy_nml import ExactSearch, FSNMLEstimator, log_loss
from pgmpy_nml.models import fit_network
from pgmpy_nml.scores import make_score
from pgmpy_nml.study import (
    LearningProcedure,
    compare_procedures,
    cross_validate,
    cv_splits,
    predict_target,
)


@pytest.mark.parametrize("n, k, runs", [(10, 3, 1), (57, 10, 2), (12, 12, 1)])
def test_k_fold_test_sets_partition_the_rows(n, k, runs):
    splits = cv_splits(n, "k-fold", k=k, runs=runs, random_state=1)
    assert len(splits) == k * runs
    for run in range(runs):
        tests = [test for r, _, _, test in splits if r == run]
        together = np.concatenate(tests)
        assert sorted(together.tolist()) == list(range(n))  # disjoint and covering
        assert max(map(len, tests)) - min(map(len, tests)) <= 1
    for _, _, train, test in splits:
        assert np.array_equal(np.sort(np.concatenate([train, test])), np.arange(n))
        assert not set(train.tolist()) & set(test.tolist())
    first = [t.tolist() for *_, t in cv_splits(n, "k-fold", k=k, runs=runs, random_state=1)]
    assert first == [t.tolist() for *_, t in splits]  # reproducible


def test_hold_out_splits():
    splits = cv_splits(20, "hold-out", k=4, runs=2, test_size=0.25, random_state=0)
    assert len(splits) == 8
    for _, _, train, test in splits:
        assert len(test) == 5 and len(train) == 15
        assert sorted(np.concatenate([train, test]).tolist()) == list(range(20))
    assert len(cv_splits(20, "hold-out", k=3, test_size=7)[0][3]) == 7
    with pytest.raises(ValueError, match="k-fold' or 'hold-out"):
        cv_splits(20, "loo")
    with pytest.raises(ValueError, match="at least 30 rows"):
        cv_splits(20, k=30)


def test_each_fold_is_the_procedure_run_by_hand(cancer):
    _, data = cancer
    result = cross_validate(
        data, "exact", "bdeu", k=4, random_state=3, score_params={"equivalent_sample_size": 5.0}
    )
    states = {v: sorted(data[v].unique()) for v in data.columns}
    for (_, _, train, test), row in zip(
        cv_splits(len(data), k=4, random_state=3), result.folds.itertuples(), strict=True
    ):
        part = data.iloc[train].reset_index(drop=True)
        score = make_score("bdeu", part, states, equivalent_sample_size=5.0)
        dag = ExactSearch(score, show_progress=False).fit(part).dag_
        estimator = DiscreteBayesianEstimator(prior_type="BDeu", equivalent_sample_size=5.0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            model = fit_network(dag, part, estimator, states)
        assert row.loss == pytest.approx(log_loss(model, data.iloc[test]), rel=1e-12)
        assert row.n_edges == dag.number_of_edges() and row.n_test == len(test)
    assert result.mean == pytest.approx(result.folds["loss"].mean())
    assert result.se == pytest.approx(result.folds["loss"].std(ddof=1) / 2)
    assert "log-loss" in str(result)


def test_a_state_missing_from_a_training_fold_keeps_a_probability():
    rng = np.random.default_rng(0)
    data = pd.DataFrame({"A": rng.integers(0, 2, 60), "B": rng.integers(0, 2, 60)})
    data.loc[7, "A"] = 2  # one row of a rare state: absent from 4 of the 5 training folds
    result = cross_validate(data, "exact", "fnml", k=5, random_state=0)
    assert np.isfinite(result.folds["loss"]).all()


def test_target_prediction_matches_pgmpy_inference(cancer):
    true_model, data = cancer
    model = true_model.copy()
    test = data.iloc[:60]
    for target in ["Cancer", "Smoker", "Xray"]:
        ours = predict_target(model, test, target)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            theirs = model.predict(test.drop(columns=[target]), n_jobs=1)[target]
        assert ours.astype(str).tolist() == theirs.astype(str).tolist()


def test_classification_error(cancer):
    _, data = cancer
    result = cross_validate(
        data, "exact", "qnml", k=3, loss="error", target="Xray", random_state=0, return_models=True
    )
    assert len(result.models) == 3
    for (_, _, _, test), model, row in zip(
        cv_splits(len(data), k=3, random_state=0),
        result.models,
        result.folds.itertuples(),
        strict=True,
    ):
        predicted = predict_target(model, data.iloc[test], "Xray")
        assert row.loss == pytest.approx(np.mean(predicted != data["Xray"].iloc[test]))
    with pytest.raises(ValueError, match="target"):
        cross_validate(data, loss="error")


def test_paired_comparison(cancer):
    _, data = cancer
    procedures = {
        "FNML+fsNML": "fnml",
        "QNML+fsNML": LearningProcedure("exact", "qnml", parameter_estimator=FSNMLEstimator()),
        "BDeu+Bayesian": "bdeu",
    }
    cmp = compare_procedures(data, procedures, k=2, runs=2, random_state=5)
    losses = cmp.losses
    assert list(losses.columns) == list(procedures) and len(losses) == 4
    base = losses["FNML+fsNML"]
    for name in procedures:
        d = losses[name] - base
        row = cmp.summary.loc[name]
        assert row["diff"] == pytest.approx(d.mean(), abs=1e-15)
        if name == "FNML+fsNML":
            assert row["diff"] == 0 and row["diff_se"] == 0
            continue
        assert row["diff_se"] == pytest.approx(d.std(ddof=1) / 2)
        assert row["diff_se_corrected"] == pytest.approx(math.sqrt((1 / 4 + 1) * d.var(ddof=1)))
        assert row["wins"] == pytest.approx((d < 0).mean())
        assert row["mean"] == pytest.approx(losses[name].mean())
    # the same splits for every procedure: the same number of test rows per split
    sizes = {tuple(r.folds["n_test"]) for r in cmp.results.values()}
    assert len(sizes) == 1
    with pytest.raises(ValueError, match="baseline"):
        compare_procedures(data, {"a": "fnml"}, baseline="b", k=2)
