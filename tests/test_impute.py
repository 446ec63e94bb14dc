"""impute() and log_loss(missing="marginalize") against every completion enumerated
(``_reference``) and against pgmpy's own inference (VariableElimination)."""

import math
import warnings

import numpy as np
import pandas as pd
import pytest
from _reference import completions, is_missing, joint_probability, observed_log_likelihood

from pgmpy_nml import InfiniteLossWarning, impute, log_loss


def cases(random_network, with_holes, n_cases=20, n_rows=25):
    for seed in range(n_cases):
        rng = np.random.default_rng(seed)
        model = random_network(1000 + seed, n_variables=int(rng.integers(2, 6)))
        data = model.simulate(n_rows, seed=seed, show_progress=False)
        yield model, data, with_holes(data, float(rng.uniform(0.05, 0.7)), seed)


def test_marginal_log_loss_is_the_observed_data_likelihood(random_network, with_holes):
    for model, data, holes in cases(random_network, with_holes):
        reference = observed_log_likelihood(model, holes)
        assert log_loss(model, holes, missing="marginalize") == pytest.approx(
            -reference.mean(), rel=1e-12
        )
        assert log_loss(model, holes, base=2, missing="marginalize") == pytest.approx(
            -reference.mean() / math.log(2), rel=1e-12
        )
        # complete rows: the usual log-loss
        assert log_loss(model, data, missing="marginalize") == pytest.approx(
            log_loss(model, data), rel=1e-12
        )


def test_log_loss_refuses_missing_cells_unless_asked(random_network, with_holes):
    model, _, holes = next(cases(random_network, with_holes))
    with pytest.raises(ValueError, match="missing values"):
        log_loss(model, holes)
    with pytest.raises(ValueError, match="missing must be one of 'error', 'marginalize'"):
        log_loss(model, holes, missing="drop")


def test_a_row_of_probability_zero_makes_the_loss_infinite(random_network):
    model = random_network(7, n_variables=3)
    cpd = model.get_cpds("V1")
    values = cpd.get_values().copy()
    values[0, :] = 0.0
    cpd.values = (values / values.sum(axis=0)).reshape(cpd.cardinality)
    rows = pd.DataFrame({"V0": [None, None], "V1": [1, 0], "V2": [None, None]})
    with pytest.warns(InfiniteLossWarning, match="1 of 2 rows have probability 0"):
        assert log_loss(model, rows, missing="marginalize") == math.inf


def test_impute_gives_a_most_probable_completion(random_network, with_holes):
    for model, _, holes in cases(random_network, with_holes):
        filled = impute(model, holes)
        assert filled.notna().all(axis=None)
        observed = holes.notna()
        assert (filled[observed] == holes[observed]).sum().sum() == observed.sum().sum()
        for t, row in enumerate(holes.to_dict("records")):
            best = max(p for _, p in completions(model, row))
            chosen = filled.iloc[t].to_dict()
            assert joint_probability(model, chosen) == pytest.approx(best, rel=1e-12)


def test_impute_agrees_with_pgmpys_map_query(random_network, with_holes):
    from pgmpy.inference import VariableElimination

    checked = 0
    for model, _, holes in cases(random_network, with_holes, n_cases=6, n_rows=6):
        filled = impute(model, holes)
        inference = VariableElimination(model)
        for t, row in enumerate(holes.to_dict("records")):
            missing = [v for v in row if is_missing(row[v])]
            if not missing:
                continue
            evidence = {v: row[v] for v in row if v not in missing}
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                theirs = inference.map_query(missing, evidence=evidence, show_progress=False)
            ours = filled.iloc[t].to_dict()
            assert joint_probability(model, {**row, **theirs}) == pytest.approx(
                joint_probability(model, ours), rel=1e-12
            )
            checked += 1
    assert checked > 10


def test_sampled_completions_are_reproducible_and_possible(random_network, with_holes):
    for model, _, holes in cases(random_network, with_holes, n_cases=8):
        one = impute(model, holes, method="sample", random_state=3)
        assert one.equals(impute(model, holes, method="sample", random_state=3))
        for t in range(len(holes)):
            assert joint_probability(model, one.iloc[t].to_dict()) > 0


def test_impute_keeps_column_types(network_sample, with_holes):
    from pgmpy_nml import FSNMLEstimator
    from pgmpy_nml.models import fit_network

    true_model, data = network_sample("asia", 300, 1)
    model = fit_network(true_model, data, FSNMLEstimator())
    holes = data.mask(np.random.default_rng(0).random(data.shape) < 0.2)  # categoricals
    filled = impute(model, holes)
    assert all(isinstance(filled[c].dtype, pd.CategoricalDtype) for c in filled.columns)
    assert filled.notna().all(axis=None)
    numbers = data.apply(lambda c: c.cat.codes).astype(float)
    numbers = numbers.mask(np.random.default_rng(1).random(numbers.shape) < 0.2)
    model = fit_network(true_model, data.apply(lambda c: c.cat.codes), FSNMLEstimator())
    filled = impute(model, numbers.assign(extra="x"))
    assert list(filled.columns) == [*numbers.columns, "extra"]
    assert all(filled[c].dtype.kind in "if" for c in numbers.columns)
    with pytest.raises(ValueError, match="method must be one of 'mode', 'sample'"):
        impute(model, numbers, method="mean")
