"""Exact inference over missing cells (pgmpy_nml.estimators._posterior, ._buckets).

Reference: every completion of each row enumerated, its probability the product of the
CPD entries read from pgmpy's arrays (``_reference.completions``); random networks
(``random_network``) and random holes (``with_holes``), many seeds.
"""

import itertools
import math
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from _reference import completions, expected_family_counts, joint_probability
from scipy.stats import chisquare

from pgmpy_nml._data import encode_data
from pgmpy_nml.estimators import _posterior
from pgmpy_nml.estimators._posterior import MissingPlan, model_tables
from pgmpy_nml.exceptions import InputError


def states(model):
    return {v: model.get_cpds(v).state_names[v] for v in model.nodes()}


def plan_for(model, holes):
    names = states(model)
    encoded = encode_data(holes[sorted(names)], names, missing="available")
    parents, tables = model_tables(model, encoded)
    return encoded, MissingPlan(parents, encoded.arities, encoded.codes), tables


def cases(random_network, with_holes, n_cases=25, n_rows=30):
    for seed in range(n_cases):
        rng = np.random.default_rng(seed)
        model = random_network(seed, n_variables=int(rng.integers(3, 7)))
        data = model.simulate(n_rows, seed=seed, show_progress=False)
        yield model, with_holes(data, float(rng.uniform(0.1, 0.7)), seed)


def test_log_likelihood_is_the_sum_over_every_completion(random_network, with_holes):
    for model, holes in cases(random_network, with_holes):
        encoded, plan, tables = plan_for(model, holes)
        expected = [
            math.log(sum(p for _, p in completions(model, row)))
            for row in holes[list(encoded.variables)].to_dict("records")
        ]
        per_row = plan.log_likelihood(tables, per_row=True)
        np.testing.assert_allclose(per_row, expected, rtol=1e-12, atol=1e-12)
        assert plan.log_likelihood(tables) == pytest.approx(sum(expected), rel=1e-12)


def test_expected_counts_are_the_posterior_sums(random_network, with_holes):
    for model, holes in cases(random_network, with_holes, n_cases=15):
        encoded, plan, tables = plan_for(model, holes)
        counts, total = plan.expected_counts(tables)
        frame = holes[list(encoded.variables)]
        for i, v in enumerate(encoded.variables):
            cpd = model.get_cpds(v)
            reference = expected_family_counts(model, frame, v)
            table = counts[i].reshape(cpd.get_values().shape[0], -1)
            shape = [len(cpd.state_names[u]) for u in cpd.variables]
            for key, value in reference.items():
                cell = [
                    cpd.state_names[u].index(s) for u, s in zip(cpd.variables, key, strict=True)
                ]
                j = np.ravel_multi_index(cell[1:], shape[1:]) if len(shape) > 1 else 0
                assert table[cell[0], j] == pytest.approx(value, abs=1e-10)
            assert table.sum() == pytest.approx(len(holes), rel=1e-12)
        assert total == pytest.approx(plan.log_likelihood(tables), rel=1e-12)


def test_the_mode_is_a_most_probable_completion(random_network, with_holes):
    unique_modes = 0
    for model, holes in cases(random_network, with_holes):
        encoded, plan, tables = plan_for(model, holes)
        filled = plan.mode(tables)
        names = states(model)
        for t, row in enumerate(holes[list(encoded.variables)].to_dict("records")):
            probabilities = sorted((p for _, p in completions(model, row)), reverse=True)
            chosen = {v: names[v][filled[i, t]] for i, v in enumerate(encoded.variables)}
            assert joint_probability(model, chosen) == pytest.approx(probabilities[0], rel=1e-12)
            if len(probabilities) > 1 and probabilities[1] < probabilities[0] * (1 - 1e-9):
                unique_modes += 1
    assert unique_modes > 200  # most rows have one mode: the check above is not vacuous


def test_draws_follow_the_posterior(random_network, with_holes):
    """Chi-square tests of 4000 draws per row against the exact posterior; the p-values of
    many rows must look uniform (none tiny)."""
    p_values = []
    for seed in range(8):
        model = random_network(100 + seed, n_variables=5)
        base = with_holes(model.simulate(3, seed=seed, show_progress=False), 0.6, seed)
        repeated = pd.concat([base] * 4000, ignore_index=True)
        encoded, plan, tables = plan_for(model, repeated)
        drawn, _ = plan.sample(tables, np.random.default_rng(seed))
        names = states(model)
        for t, row in enumerate(base[list(encoded.variables)].to_dict("records")):
            comps = completions(model, row)
            missing = list(comps[0][0])
            if not missing:
                continue
            seen = Counter(
                tuple(names[v][drawn[encoded.index[v], k]] for v in missing)
                for k in range(t, len(repeated), len(base))
            )
            total = sum(p for _, p in comps)
            expected = np.array([p / total * 4000 for _, p in comps])
            observed = np.array([seen.get(tuple(c.values()), 0) for c, _ in comps])
            assert observed[expected == 0].sum() == 0
            big = expected >= 5
            if big.sum() > 1:
                f_obs = np.append(observed[big], observed[~big].sum())
                f_exp = np.append(expected[big], expected[~big].sum())
                keep = f_exp > 0
                p_values.append(chisquare(f_obs[keep], f_exp[keep]).pvalue)
    assert len(p_values) > 10
    assert min(p_values) > 1e-4


def test_repeated_and_fully_missing_rows_and_a_long_chain():
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork

    # a chain of 9 variables: one row missing all of them is one component of 9
    names = [f"X{i}" for i in range(9)]
    model = DiscreteBayesianNetwork([(names[i], names[i + 1]) for i in range(8)])
    rng = np.random.default_rng(0)
    model.add_cpds(TabularCPD("X0", 2, [[0.3], [0.7]], state_names={"X0": [0, 1]}))
    for a, b in itertools.pairwise(names):
        model.add_cpds(
            TabularCPD(
                b,
                2,
                rng.dirichlet([1, 1], 2).T,
                evidence=[a],
                evidence_card=[2],
                state_names={a: [0, 1], b: [0, 1]},
            )
        )
    rows = pd.DataFrame(
        [
            [None] * 9,
            [0, None, 1, None, None, 0, None, 1, None],
            [0, None, 1, None, None, 0, None, 1, None],
        ],
        columns=names,
    )
    _, plan, tables = plan_for(model, rows)
    assert len(plan._weights) == 2  # two distinct incomplete rows, one of them twice
    ll = plan.log_likelihood(tables, per_row=True)
    expected = [math.log(sum(p for _, p in completions(model, r))) for r in rows.to_dict("records")]
    np.testing.assert_allclose(ll, expected, rtol=1e-12, atol=1e-14)
    assert ll[0] == pytest.approx(0.0, abs=1e-12)  # nothing observed: probability 1


def test_probability_zero_rows(random_network):
    model = random_network(3, n_variables=3)
    cpd = model.get_cpds("V0")
    values = cpd.get_values().copy()
    values[0, :] = 0.0  # state 0 of V0 impossible
    cpd.values = (values / values.sum(axis=0)).reshape(cpd.cardinality)
    rows = pd.DataFrame({"V0": [0, None], "V1": [None, None], "V2": [None, 0]})
    _, plan, tables = plan_for(model, rows)
    ll = plan.log_likelihood(tables, per_row=True)
    assert ll[0] == -math.inf and np.isfinite(ll[1])
    with pytest.raises(InputError, match="Row 0 has probability 0"):
        plan.sample(tables, np.random.default_rng(0))


def test_a_component_too_large_is_refused_before_computing(random_network, monkeypatch):
    model = random_network(4, n_variables=5, edge_probability=1.0)
    rows = pd.DataFrame({v: [None] for v in sorted(model.nodes())})
    monkeypatch.setattr(_posterior, "MAX_BUCKET_CELLS", 4)
    with pytest.raises(InputError, match="too dense for that many missing cells"):
        plan_for(model, rows)


def test_a_column_with_no_value_needs_declared_states():
    rows = pd.DataFrame({"A": [None, None], "B": [0, 1]})
    with pytest.raises(InputError, match="declare its states in state_names"):
        encode_data(rows, missing="available")
    encoded = encode_data(rows, {"A": ["x", "y"]}, missing="available")
    assert encoded.codes[0].tolist() == [-1, -1] and encoded.arities.tolist() == [2, 2]
