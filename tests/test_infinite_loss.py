"""No infinite or NaN number without a reason (issue 18, item 2).

Every score's default parameters keep every probability positive, so held-out rows
with a configuration unseen in training have a finite log-loss. Maximum-likelihood
parameters, asked for explicitly, may give an infinite log-loss: it is then explained
(``InfiniteLossWarning`` naming the probability-0 entry; a note on the command line),
never a raw numpy warning, and ``--json`` writes strict JSON (null and why).
"""

import json
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from pgmpy.models import DiscreteBayesianNetwork
from pgmpy.parameter_estimator import DiscreteMLE
from pgmpy.readwrite import BIFWriter

from pgmpy_nml import FSNMLEstimator, log_loss
from pgmpy_nml.exceptions import InfiniteLossWarning, SparseFamilyWarning
from pgmpy_nml.models import default_parameter_estimator
from pgmpy_nml.numerics.snml import fsnml_parameters
from pgmpy_nml.scores import score_names
from pgmpy_nml.study import LearningProcedure, compare_procedures, cross_validate


def _refuse(constant):
    raise ValueError(f"not strict JSON: {constant}")


def strict_json(path):
    """The file's JSON; fails on Infinity, -Infinity and NaN."""
    return json.loads(path.read_text(), parse_constant=_refuse)


@pytest.fixture(scope="module")
def sparse(random_data):
    """Few rows of dependent 3- and 4-state columns: every fold misses configurations."""
    return random_data(60, [3, 3, 3, 4, 3], seed=1)


def _hostile_split(data):
    """Train rows and test rows holding configurations the train rows never show."""
    train, test = data.iloc[:40], data.iloc[40:]
    return train.reset_index(drop=True), test.reset_index(drop=True)


@pytest.mark.parametrize("name", score_names())
def test_every_scores_default_parameters_keep_every_probability_positive(sparse, name):
    train, test = _hostile_split(sparse)
    states = {v: sorted(sparse[v].unique()) for v in sparse.columns}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # 40 rows: nal's network gives V4 four parents, 108 configurations, and says so
        warnings.simplefilter("ignore", SparseFamilyWarning)
        model = LearningProcedure("auto", scoring_method=name, state_names=states).fit(train).model_
        for cpd in model.get_cpds():
            assert (cpd.get_values() > 0).all(), (name, cpd.variable)
        assert math.isfinite(log_loss(model, test))


def test_cross_validate_with_bic_is_finite_and_quiet(sparse):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's RuntimeWarning included
        for name in ["bic", "aic", "ll"]:
            result = cross_validate(sparse, scoring_method=name, k=5, random_state=0)
            assert np.isfinite(result.folds["loss"]).all(), name
            assert math.isfinite(result.mean) and math.isfinite(result.se)


def test_maximum_likelihood_folds_warn_with_the_reason(sparse):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = cross_validate(
            sparse, scoring_method="bic", k=5, random_state=0, parameter_estimator=DiscreteMLE()
        )
    n_inf = int(np.isinf(result.folds["loss"]).sum())
    assert n_inf > 0 and math.isinf(result.mean) and math.isnan(result.se)
    assert [w.category for w in caught] == [InfiniteLossWarning]  # once, and no numpy warning
    message = str(caught[0].message)
    assert f"{n_inf} of 5 splits give an infinite log-loss" in message
    assert "probability 0" in message and "FSNMLEstimator()" in message

    procedures = {
        "fnml": "fnml",
        "bic-mle": LearningProcedure(
            "auto", scoring_method="bic", parameter_estimator=DiscreteMLE()
        ),
    }
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        comparison = compare_procedures(sparse, procedures, k=5, random_state=0)
    assert [w.category for w in caught] == [InfiniteLossWarning]
    assert "Procedure 'bic-mle'" in str(caught[0].message)
    row = comparison.summary.loc["bic-mle"]
    assert math.isinf(row["mean"]) and math.isnan(row["diff_se"]) and math.isnan(row["std"])
    assert math.isfinite(comparison.summary.loc["fnml", "mean"])


@pytest.mark.parametrize("seed", range(8))
def test_log_loss_names_a_true_probability_zero_entry(random_data, seed):
    data = random_data(50, 4, seed=seed, max_arity=4).astype(str)
    train, test = data.iloc[:20], data.iloc[20:].reset_index(drop=True)
    edges = [("V0", "V1"), ("V1", "V2"), ("V0", "V3")]
    states = {v: sorted(data[v].unique()) for v in data.columns}
    model = DiscreteBayesianNetwork(edges).fit(train, estimator=DiscreteMLE(state_names=states))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loss = log_loss(model, test)
    # a slow reference: each row's probability, cell by cell from the CPDs
    zero_rows = []
    for i, row in test.iterrows():
        p = 1.0
        for cpd in model.get_cpds():
            evidence = {v: row[v] for v in cpd.variables[1:]}
            reduced = cpd.to_factor().reduce(list({**evidence}.items()), inplace=False)
            p *= reduced.get_value(**{cpd.variable: row[cpd.variable]})
        if p == 0:
            zero_rows.append(i)
    if not zero_rows:
        assert math.isfinite(loss) and not caught
        return
    assert math.isinf(loss)
    assert [w.category for w in caught] == [InfiniteLossWarning]
    message = str(caught[0].message)
    assert f"{len(zero_rows)} of {len(test)} rows have probability 0" in message
    assert f"the first, row {zero_rows[0]}," in message


@pytest.mark.parametrize("seed", range(6))
def test_fsnml_counts_each_family_on_its_observed_rows(random_data, seed):
    rng = np.random.default_rng(seed)
    data = random_data(80, [2, 3, 3, 2], seed=seed).astype(object)
    holes = data.mask(rng.random(data.shape) < 0.2)
    edges = [("V0", "V1"), ("V1", "V2"), ("V0", "V2")]
    model = DiscreteBayesianNetwork(edges)
    model.add_node("V3")
    states = {v: sorted(data[v].unique()) for v in data.columns}
    with pytest.raises(ValueError, match="missing values"):
        model.copy().fit(holes, estimator=FSNMLEstimator(state_names=states))
    model.fit(holes, estimator=FSNMLEstimator(state_names=states, missing="available"))
    for cpd in model.get_cpds():
        family = [cpd.variable, *cpd.variables[1:]]
        rows = holes[family].dropna()
        parents = cpd.variables[1:]
        configs = pd.MultiIndex.from_product([states[p] for p in parents]) if parents else [()]
        counts = np.zeros((len(configs), len(states[cpd.variable])))
        for j, config in enumerate(configs):
            config = config if isinstance(config, tuple) else (config,)
            mask = np.ones(len(rows), dtype=bool)
            for p, value in zip(parents, config, strict=True):
                mask &= (rows[p] == value).to_numpy()
            for k, s in enumerate(states[cpd.variable]):
                counts[j, k] = ((rows[cpd.variable] == s).to_numpy() & mask).sum()
        expected = fsnml_parameters(counts.astype(np.int64)).T
        np.testing.assert_allclose(cpd.get_values(), expected, rtol=1e-12)
    assert default_parameter_estimator("pnal").missing == "available"


# -- the command line -------------------------------------------------------------
@pytest.fixture(scope="module")
def sparse_csv(sparse, tmp_path_factory):
    folder = tmp_path_factory.mktemp("infinite")
    sparse.to_csv(folder / "all.csv", index=False)
    train, test = _hostile_split(sparse)
    train.to_csv(folder / "train.csv", index=False)
    test.to_csv(folder / "test.csv", index=False)
    return folder


DISCRETE = ("--discrete", "V0,V1,V2,V3,V4")


@pytest.mark.long
@pytest.mark.integration
def test_cv_explains_infinite_losses_and_writes_strict_json(sparse_csv, cli, tmp_path):
    summary = tmp_path / "cv.json"
    argv = ["cv", sparse_csv / "all.csv", *DISCRETE, "--scores", "fnml", "bic", "--folds", "5"]
    code, out, err = cli(*argv, "--params", "mle", "--json", summary)
    assert code == 0, err
    assert "Warning" not in err and "RuntimeWarning" not in err, err
    assert "note: bic:" in out and "infinite log-loss" in out and "--params auto or fsnml" in out
    facts = strict_json(summary)
    assert facts["summary"]["bic"]["mean"] is None
    why = facts["null_values"]["summary.bic.mean"]
    assert why["value"] == "inf" and "probability 0" in why["reason"]
    assert facts["null_values"]["summary.bic.se"]["value"] == "nan"
    assert any(path.startswith("losses.bic[") for path in facts["null_values"])
    # the default parameters of bic keep every probability positive: all finite
    code, out, err = cli(*argv, "--json", summary)
    assert code == 0, err
    facts = strict_json(summary)
    assert "null_values" not in facts and "note:" not in out
    assert all(math.isfinite(x) for x in facts["losses"]["bic"])


@pytest.mark.long
@pytest.mark.integration
def test_evaluate_explains_an_infinite_log_loss(sparse_csv, cli, tmp_path):
    train = pd.read_csv(sparse_csv / "train.csv")
    states = {v: sorted(pd.read_csv(sparse_csv / "all.csv")[v].unique()) for v in train.columns}
    model = DiscreteBayesianNetwork([("V0", "V1"), ("V1", "V2"), ("V2", "V3"), ("V3", "V4")])
    model.fit(train, estimator=DiscreteMLE(state_names=states))
    BIFWriter(model).write(str(tmp_path / "mle.bif"))
    summary = tmp_path / "e.json"
    code, out, err = cli(
        "evaluate",
        sparse_csv / "test.csv",
        *DISCRETE,
        "--model",
        tmp_path / "mle.bif",
        "--json",
        summary,
    )
    assert code == 0, err
    assert "log-loss: inf nats per row" in out and "probability 0" in out
    assert "fit --params fsnml" in out and "Warning" not in err
    facts = strict_json(summary)
    assert facts["log_loss"] is None
    assert facts["null_values"]["log_loss"]["value"] == "inf"
    assert "probability 0" in facts["null_values"]["log_loss"]["reason"]
