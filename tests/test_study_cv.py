"""Cross-validation of learning procedures and their paired comparison.

References: folds checked as a partition of the rows; each fold's loss recomputed by
hand (the search, the parameter estimator and ``log_loss`` called directly); the
classification of a target against pgmpy's own exact inference (``model.predict``);
paired differences and their standard errors recomputed from the per-split losses.
"""

import math
import re
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
    splits = cv_splits(n, scheme="k-fold", k=k, runs=runs, random_state=1)
    assert len(splits) == k * runs
    for run in range(runs):
        tests = [test for r, _, _, test in splits if r == run]
        together = np.concatenate(tests)
        assert sorted(together.tolist()) == list(range(n))  # disjoint and covering
        assert max(map(len, tests)) - min(map(len, tests)) <= 1
    for _, _, train, test in splits:
        assert np.array_equal(np.sort(np.concatenate([train, test])), np.arange(n))
        assert not set(train.tolist()) & set(test.tolist())
    first = [t.tolist() for *_, t in cv_splits(n, scheme="k-fold", k=k, runs=runs, random_state=1)]
    assert first == [t.tolist() for *_, t in splits]  # reproducible


def test_hold_out_splits():
    splits = cv_splits(20, scheme="hold-out", k=4, runs=2, test_size=0.25, random_state=0)
    assert len(splits) == 8
    for _, _, train, test in splits:
        assert len(test) == 5 and len(train) == 15
        assert sorted(np.concatenate([train, test]).tolist()) == list(range(20))
    assert len(cv_splits(20, scheme="hold-out", k=3, test_size=7)[0][3]) == 7
    with pytest.raises(ValueError, match="k-fold' or 'hold-out"):
        cv_splits(20, scheme="loo")
    with pytest.raises(ValueError, match="at least 30 rows"):
        cv_splits(20, k=30)


def test_each_fold_is_the_procedure_run_by_hand(cancer):
    _, data = cancer
    result = cross_validate(
        data,
        scoring_method="bdeu",
        k=4,
        random_state=3,
        score_params={"equivalent_sample_size": 5.0},
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
    result = cross_validate(data, scoring_method="fnml", k=5, random_state=0)
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
        data,
        scoring_method="qnml",
        k=3,
        loss="error",
        target="Xray",
        random_state=0,
        return_models=True,
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
        "QNML+fsNML": LearningProcedure(
            "auto", scoring_method="qnml", parameter_estimator=FSNMLEstimator()
        ),
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


# -- the user's own splits, model size, the search's threads, table sizes --------------
from sklearn.model_selection import KFold, StratifiedKFold  # noqa: E402

from pgmpy_nml import n_parameters  # noqa: E402
from pgmpy_nml.models import check_table_sizes  # noqa: E402
from pgmpy_nml.study.cross_validation import user_splits  # noqa: E402


def test_a_scikit_learn_splitter_gives_the_same_folds_as_its_pairs(cancer):
    _, data = cancer
    data = data.iloc[:240]
    splitter = KFold(4, shuffle=True, random_state=2)
    pairs = list(splitter.split(data))
    by_splitter = cross_validate(data, scoring_method="fnml", cv=splitter)
    by_pairs = cross_validate(
        data, scoring_method="fnml", cv=[(list(a), list(b)) for a, b in pairs]
    )
    assert by_splitter.folds["loss"].tolist() == by_pairs.folds["loss"].tolist()
    for (train, test), row in zip(pairs, by_splitter.folds.itertuples(), strict=True):
        assert row.n_train == len(train) and row.n_test == len(test)
        part = data.iloc[train].reset_index(drop=True)
        states = {v: sorted(data[v].unique()) for v in data.columns}
        dag = ExactSearch(make_score("fnml", part, states), show_progress=False).fit(part).dag_
        model = fit_network(dag, part, FSNMLEstimator(), states)
        assert row.loss == pytest.approx(log_loss(model, data.iloc[test]), rel=1e-12)
        assert row.n_parameters == n_parameters(model)
    # a stratified splitter gets the target as y
    strat = cross_validate(
        data, scoring_method="fnml", cv=StratifiedKFold(3), loss="error", target="Xray"
    )
    assert len(strat.folds) == 3
    cmp = compare_procedures(data, {"f": "fnml", "q": "qnml"}, cv=pairs)
    assert cmp.losses.shape == (4, 2)
    assert cmp.results["f"].folds["loss"].tolist() == by_splitter.folds["loss"].tolist()


@pytest.mark.parametrize(
    ("cv", "message"),
    [
        ([([0, 1, 2], [2, 3])], "row 2 is both a training and a test row"),
        ([([0, 1, 1], [3])], "training row 1 is listed twice"),
        ([([0, 1], [600])], "test row 600 is outside the 400 rows"),
        ([([0, -1], [3])], "training row -1 is outside"),
        ([([0.5, 1.0], [3])], "must be integer row positions"),
        ([([0, 1], [])], "has no test rows"),
        ([([0, 1],)], "is not a \\(train, test\\) pair"),
        ([], "gives no split"),
        ([(np.ones(10, bool), [3])], "mask has 10 entries for 400 rows"),
    ],
)
def test_bad_user_splits_are_refused_by_name(cancer, cv, message):
    _, data = cancer
    with pytest.raises(ValueError, match=message):
        user_splits(cv, data)


def test_user_splits_with_other_split_settings_or_a_non_splitter(cancer):
    _, data = cancer
    with pytest.raises(ValueError, match="cannot be given too"):
        cross_validate(data, cv=KFold(3), k=5)
    with pytest.raises(ValueError, match="random_state cannot"):
        compare_procedures(data, {"f": "fnml"}, cv=KFold(3), random_state=0)
    with pytest.raises(TypeError, match="scikit-learn splitter"):
        cross_validate(data, cv="5-fold")
    with pytest.raises(ValueError, match=r"cv.split\(data, y\) of StratifiedKFold failed"):
        cross_validate(data, cv=StratifiedKFold(3))  # needs y: no target given


def test_user_splits_follow_dropped_rows():
    rng = np.random.default_rng(1)
    data = pd.DataFrame({"A": rng.integers(0, 2, 40), "B": rng.integers(0, 2, 40)}).astype(float)
    data.loc[[3, 25], "A"] = np.nan
    pairs = [(np.arange(20, 40), np.arange(0, 20)), (np.arange(0, 20), np.arange(20, 40))]
    with pytest.warns(UserWarning, match="2"):
        result = cross_validate(data, scoring_method="fnml", cv=pairs, missing="drop")
    assert result.folds["n_test"].tolist() == [19, 19]
    assert result.folds["n_train"].tolist() == [19, 19]


def test_compare_procedures_records_model_size(cancer):
    _, data = cancer
    cmp = compare_procedures(data, {"f": "fnml", "b": "bdeu"}, k=3, random_state=0)
    for name, result in cmp.results.items():
        sizes = result.folds["n_parameters"]
        assert (sizes >= 5).all()  # five variables, at least one parameter each
        assert cmp.summary.loc[name, "mean_parameters"] == pytest.approx(sizes.mean())
    refit = cross_validate(data, scoring_method="fnml", k=3, random_state=0, return_models=True)
    assert refit.folds["n_parameters"].tolist() == [n_parameters(m) for m in refit.models]
    assert refit.folds["n_parameters"].tolist() == cmp.results["f"].folds["n_parameters"].tolist()


def test_the_search_threads_are_set_through_the_procedure(cancer):
    _, data = cancer
    procedure = LearningProcedure("auto", n_jobs=1)
    assert procedure.search_for(None).n_jobs == 1
    assert LearningProcedure("tabu", n_jobs=2).search_for(None).n_jobs == 2
    assert LearningProcedure(ExactSearch(n_jobs=4), n_jobs=1).search_for(None).n_jobs == 1
    assert procedure.fresh().get_params()["n_jobs"] == 1
    one = LearningProcedure("auto", n_jobs=1).fit(data).dag_
    assert sorted(one.edges()) == sorted(LearningProcedure("auto").fit(data).dag_.edges())
    with pytest.raises(ValueError, match="n_jobs"):
        LearningProcedure("auto", n_jobs=0).fit(data)  # reaches the search's own check

    class NoThreads:
        def get_params(self, deep=False):
            return {}

        def fit(self, data):
            return self

    with pytest.raises(ValueError, match="has no n_jobs parameter"):
        LearningProcedure(NoThreads(), n_jobs=2).search_for(None)


def brute_force_largest_table(arities, max_parents, limit_states=20):
    """The largest CPD over every child and every set of many-state parents."""
    import itertools

    many = [v for v, r in arities.items() if r > limit_states]
    best = 0
    for child, r in arities.items():
        others = [v for v in many if v != child]
        for k in range(0, min(max_parents, len(others)) + 1):
            for parents in itertools.combinations(others, k):
                best = max(best, r * math.prod(arities[p] for p in parents))
    return best


@pytest.mark.parametrize("seed", range(30))
def test_table_size_check_against_brute_force(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 8))
    arities = {f"v{i}": int(rng.choice([2, 3, 5, 21, 40, 150, 400])) for i in range(n)}
    max_parents = int(rng.integers(0, n))
    worst = brute_force_largest_table(arities, max_parents)
    if worst > 50_000_000:
        with pytest.raises(ValueError, match=f"{worst:,} cells") as err:
            check_table_sizes(arities, max_parents)
        suggested = re.search(r"max_parents=(\d+)", str(err.value))
        if suggested:
            k = int(suggested.group(1))
            assert brute_force_largest_table(arities, k) <= 50_000_000
            assert brute_force_largest_table(arities, k + 1) > 50_000_000
    else:
        check_table_sizes(arities, max_parents)


def test_many_state_columns_fail_before_the_search(monkeypatch):
    rng = np.random.default_rng(0)
    n = 400
    data = pd.DataFrame(
        {
            name: rng.permutation(np.arange(n) % r)
            for name, r in [("insulin", 186), ("glucose", 136), ("age", 52), ("skin", 51), ("y", 2)]
        }
    )

    def no_search(self, data):
        raise AssertionError("the search ran")

    monkeypatch.setattr(ExactSearch, "fit", no_search)
    with pytest.raises(ValueError) as err:
        LearningProcedure("auto").fit(data)
    message = str(err.value)
    assert "'insulin' (186 states), 'glucose' (136), 'age' (52), 'skin' (51)" in message
    assert "Discretizer(columns=['insulin', 'glucose', 'age', 'skin'])" in message
    assert "max_parents=2" in message and "parameter_estimator=None" in message
    with pytest.raises(ValueError, match="Checked before the search"):
        cross_validate(data, scoring_method="fnml", k=2, random_state=0)
    with pytest.raises(AssertionError, match="the search ran"):  # a fitting limit passes
        LearningProcedure("auto", max_parents=2).fit(data)
    with pytest.raises(AssertionError, match="the search ran"):  # structure only passes
        LearningProcedure("auto", parameter_estimator=None).fit(data)


def test_a_parent_limit_applies_to_a_procedure_too(random_data):
    """cross_validate applies max_parents to a LearningProcedure, as bootstrap_strength
    does (it used to drop it silently)."""
    from pgmpy_nml.study import LearningProcedure, cross_validate

    data = random_data(200, 5, 3)
    procedure = LearningProcedure("hill", scoring_method="ll")  # LL adds every parent it can
    limited = cross_validate(
        data, method=procedure, max_parents=1, k=2, random_state=0, return_models=True
    )
    free = cross_validate(data, method=procedure, k=2, random_state=0, return_models=True)
    in_degree = lambda models: max(max(dict(m.in_degree()).values()) for m in models)  # noqa: E731
    assert in_degree(limited.models) <= 1 < in_degree(free.models)


@pytest.mark.parametrize("workers", [False, True])
def test_folds_do_not_depend_on_the_number_of_workers(cancer, workers, monkeypatch):
    from pgmpy_nml.study import _workers

    # short fits stay in this process; a zero threshold sends them to the workers
    if workers:
        monkeypatch.setattr(_workers, "MIN_PARALLEL_SECONDS", 0.0)
    _, data = cancer
    one = cross_validate(data, method="hill", k=4, random_state=2, n_jobs=1)
    two = cross_validate(data, method="hill", k=4, random_state=2, n_jobs=2)
    columns = ["run", "fold", "n_train", "n_test", "loss", "n_edges", "n_parameters"]
    pd.testing.assert_frame_equal(one.folds[columns], two.folds[columns])
    cmp_one = compare_procedures(data, {"a": "fnml", "b": "qnml"}, k=2, random_state=1, n_jobs=1)
    cmp_two = compare_procedures(data, {"a": "fnml", "b": "qnml"}, k=2, random_state=1, n_jobs=2)
    pd.testing.assert_frame_equal(cmp_one.summary, cmp_two.summary)


def test_a_procedure_with_the_searches_default_parent_limit_fits():
    """LocalSearch's and ExactSearch's default max_parents="auto" (the search decides)
    passes the procedure's table-size check, which reads it as no limit (the command
    line's cv --method hill was an internal error)."""
    from pgmpy_nml import ExactSearch, LocalSearch
    from pgmpy_nml.datasets import load_example_data
    from pgmpy_nml.study import LearningProcedure

    data = load_example_data().iloc[:400]
    for search in (
        LocalSearch("fnml", show_progress=False),
        ExactSearch("fnml", show_progress=False),
    ):
        assert search.max_parents == "auto"
        fitted = LearningProcedure(search).fit(data)
        assert set(fitted.model_.nodes()) == set(data.columns)
