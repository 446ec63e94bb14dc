"""Parameter EM with missing cells anywhere (pgmpy_nml.EMEstimator).

References: on complete data, the complete-data estimators themselves (this package's
FSNMLEstimator, pgmpy's DiscreteMLE and DiscreteBayesianEstimator); on incomplete data,
the observed-data log-likelihood and the expected counts by enumerating every completion
of every row (``_reference``), never the package's inference.
"""

import math

import numpy as np
import pytest
from _reference import expected_family_counts, observed_log_likelihood
from hypothesis import given, settings
from hypothesis import strategies as st
from pgmpy.base import DAG
from pgmpy.parameter_estimator import DiscreteBayesianEstimator, DiscreteMLE

from pgmpy_nml import EMEstimator, FSNMLEstimator
from pgmpy_nml.models import bayesian_network

M_STEPS = {
    "fsnml": FSNMLEstimator,
    "mle": DiscreteMLE,
    "k2": lambda: DiscreteBayesianEstimator(prior_type="K2"),
    "bdeu": lambda: DiscreteBayesianEstimator(prior_type="BDeu", equivalent_sample_size=3),
    "dirichlet": lambda: DiscreteBayesianEstimator(prior_type="dirichlet", pseudo_counts=0.5),
}


def structure(model):
    """The model's DAG, isolated nodes included."""
    dag = DAG(model.edges())
    dag.add_nodes_from(model.nodes())
    return dag


def fitted(model, data, estimator):
    return bayesian_network(structure(model)).fit(data, estimator=estimator)


@pytest.mark.parametrize("name", list(M_STEPS))
def test_on_complete_data_em_is_the_complete_data_estimator(name, random_network):
    for seed in range(6):
        model = random_network(seed, n_variables=5)
        data = model.simulate(200, seed=seed, show_progress=False)
        direct = fitted(model, data, M_STEPS[name]())
        em_fit = EMEstimator(m_step_estimator=M_STEPS[name]()).fit(structure(model), data)
        assert em_fit.converged_ and em_fit.n_iter_ <= 2
        by_em = {cpd.variable: cpd for cpd in em_fit.parameters_}
        for cpd in direct.get_cpds():
            other = by_em[cpd.variable]
            assert other.variables == cpd.variables
            assert other.state_names == cpd.state_names
            assert np.array_equal(other.get_values(), cpd.get_values())  # exactly


def log_prior(model, name):
    """sum alpha log theta of the Dirichlet M-steps (alpha from the prior's definition)."""
    total = 0.0
    for cpd in model.get_cpds():
        values = cpd.get_values()
        if name == "k2":
            alpha = np.ones_like(values)
        elif name == "bdeu":
            alpha = np.full_like(values, 3.0 / values.size)
        elif name == "dirichlet":
            alpha = np.full_like(values, 0.5)
        else:
            return 0.0
        total += float(np.sum(alpha * np.log(values)))
    return total


def em_objectives(model, holes, name, steps):
    """The objective after 1..steps M-steps, each run from scratch and evaluated by
    enumerating the completions of every row."""
    out = []
    for k in range(1, steps + 1):
        est = EMEstimator(m_step_estimator=M_STEPS[name](), max_iter=k, tol=0.0)
        fit = fitted(model, holes, est)
        out.append(observed_log_likelihood(fit, holes).sum() + log_prior(fit, name))
    return np.array(out)


def check_em_never_decreases(random_network, with_holes, seed, n_vars, fraction, name):
    model = random_network(seed, n_variables=n_vars)
    data = model.simulate(40, seed=seed, show_progress=False)
    holes = with_holes(data, fraction, seed)
    objectives = em_objectives(model, holes, name, steps=5)
    assert np.all(np.diff(objectives) >= -1e-9 * np.abs(objectives[:-1])), objectives


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    n_vars=st.integers(2, 4),
    fraction=st.floats(0.05, 0.6),
    name=st.sampled_from(["mle", "k2", "bdeu", "dirichlet"]),
)
def test_em_never_decreases_its_objective(random_network, with_holes, seed, n_vars, fraction, name):
    """Maximum likelihood: the observed-data log-likelihood; a Dirichlet posterior mean:
    the log-likelihood plus sum alpha log theta (Dempster, Laird and Rubin 1977)."""
    check_em_never_decreases(random_network, with_holes, seed, n_vars, fraction, name)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    n_vars=st.integers(2, 6),
    fraction=st.floats(0.01, 0.9),
    name=st.sampled_from(["mle", "k2", "bdeu", "dirichlet"]),
)
def test_em_never_decreases_its_objective_many_cases(
    random_network, with_holes, seed, n_vars, fraction, name
):
    check_em_never_decreases(random_network, with_holes, seed, n_vars, fraction, name)


def reference_m_step(model, holes, cpd):
    """Maximum likelihood of the expected counts of ``cpd``'s family under ``model``,
    the E-step by enumerating every completion (uniform where a parent configuration has
    no expected count)."""
    values = cpd.get_values()
    shape = [len(cpd.state_names[u]) for u in cpd.variables]
    table = np.zeros(values.shape)
    for key, value in expected_family_counts(model, holes, cpd.variable).items():
        cell = [cpd.state_names[u].index(s) for u, s in zip(cpd.variables, key, strict=True)]
        table[cell[0], np.ravel_multi_index(cell[1:], shape[1:]) if cell[1:] else 0] += value
    table[:, table.sum(axis=0) == 0] = 1.0
    return table / table.sum(axis=0)


def test_each_em_step_is_the_m_step_of_the_exact_expected_counts(random_network, with_holes):
    for seed in range(5):
        model = random_network(seed, n_variables=4)
        holes = with_holes(model.simulate(60, seed=seed, show_progress=False), 0.3, seed)
        for k in (1, 4):
            before = fitted(
                model, holes, EMEstimator(m_step_estimator=DiscreteMLE(), max_iter=k, tol=0)
            )
            em = EMEstimator(m_step_estimator=DiscreteMLE(), max_iter=k + 1, tol=0.0)
            after = fitted(model, holes, em)
            for cpd in before.get_cpds():
                np.testing.assert_allclose(
                    after.get_cpds(cpd.variable).get_values(),
                    reference_m_step(before, holes, cpd),
                    rtol=1e-10,
                    atol=1e-12,
                )
            em.fit(structure(model), holes)
            reference_ll = observed_log_likelihood(after, holes).sum()
            assert em.log_likelihood_ == pytest.approx(reference_ll, rel=1e-12)


@pytest.mark.long
def test_every_row_counts_where_pgmpys_em_drops_incomplete_rows(network_sample, with_holes):
    """30% of the cells missing in cancer's five columns leaves 17% of the rows complete;
    EM's P(Smoker) is near its frequency before the holes were made, and EM's observed-data
    log-likelihood is higher than that of the complete rows' MLE."""
    true_model, data = network_sample("cancer", 3000, 0)
    holes = with_holes(data, 0.3, 1)
    em = fitted(true_model, holes, EMEstimator(m_step_estimator=DiscreteMLE()))
    complete = fitted(true_model, holes.dropna(), DiscreteMLE())
    smoker = em.get_cpds("Smoker")
    before = float((data["Smoker"] == "True").mean())
    assert smoker.get_values()[smoker.state_names["Smoker"].index("True"), 0] == pytest.approx(
        before, abs=0.01
    )
    assert (
        observed_log_likelihood(em, holes).sum()
        > observed_log_likelihood(complete, holes).sum() + 1.0
    )


def test_refusals(random_network):
    model = random_network(0, n_variables=3)
    data = model.simulate(20, seed=0, show_progress=False)
    with pytest.raises(TypeError, match="The M-step takes FSNMLEstimator"):
        EMEstimator(m_step_estimator=EMEstimator()).fit(structure(model), data)
    latent = structure(model)
    latent.latents = {"V0"}
    with pytest.raises(ValueError, match="latent"):
        EMEstimator().fit(latent, data)
    assert math.isfinite(EMEstimator().fit(structure(model), data).log_likelihood_)
