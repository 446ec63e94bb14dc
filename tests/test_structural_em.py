"""StructuralEM and missing="em" in the study tools.

References: on complete data, the complete-data learner itself (the same search and
score, then the parameter estimator: LearningProcedure, LocalSearch, ExactSearch), many
random data sets; on incomplete data, the observed-data log-likelihood by enumerating
every completion (``_reference``) and the structure's score on its completions
recomputed by the score itself.
"""

import io
import math
import warnings
from contextlib import redirect_stderr

import numpy as np
import pandas as pd
import pytest
from _reference import observed_log_likelihood
from pgmpy.causal_discovery import ExpertKnowledge
from pgmpy.parameter_estimator import DiscreteBayesianEstimator

from pgmpy_nml import (
    FNML,
    ExactSearch,
    FSNMLEstimator,
    InputError,
    LocalSearch,
    StructuralEM,
    log_loss,
)
from pgmpy_nml.study import LearningProcedure, bootstrap_strength, compare_procedures
from pgmpy_nml.study import cross_validate as cv


def same_network(a, b):
    assert sorted(a.edges()) == sorted(b.edges())
    cpds = {c.variable: c for c in b.get_cpds()}
    for cpd in a.get_cpds():
        other = cpds[cpd.variable]
        assert cpd.variables == other.variables and cpd.state_names == other.state_names
        assert np.array_equal(cpd.get_values(), other.get_values())


@pytest.mark.parametrize(
    ("method", "scoring", "estimator"),
    [
        ("hill", "fnml", "auto"),
        ("tabu", "qnml", "auto"),
        ("hill", "bdeu", "auto"),
        ("hill", "bic-d", FSNMLEstimator()),
        ("auto", "fnml", DiscreteBayesianEstimator(prior_type="K2")),
    ],
)
def test_complete_data_gives_the_complete_data_learner(random_data, method, scoring, estimator):
    for seed in range(4):
        data = random_data(300, 6, seed)
        learner = LearningProcedure(method, scoring_method=scoring, parameter_estimator=estimator)
        expected = learner.fit(data)
        sem = StructuralEM(
            scoring, method=method, parameter_estimator=estimator, show_progress=False
        ).fit(data)
        assert sem.n_iter_ == 0 and sem.n_missing_ == 0 and len(sem.iterations_) == 0
        same_network(sem.model_, expected.model_)
        assert sem.log_likelihood_ == pytest.approx(-log_loss(expected.model_, data) * len(data))


def test_complete_data_with_a_search_object_and_a_start(random_data):
    data = random_data(400, 6, 11)
    start = [("V0", "V1")]
    search = LocalSearch("fnml", method="tabu", restarts=2, start_dag=start, show_progress=False)
    expected = search.fit(data).causal_graph_
    sem = StructuralEM(
        "fnml",
        method=LocalSearch(method="tabu", restarts=2, show_progress=False),
        start_dag=start,
        show_progress=False,
    )
    assert sorted(sem.fit(data).causal_graph_.edges()) == sorted(expected.edges())


@pytest.fixture(scope="module")
def incomplete(network_sample):
    true_model, data = network_sample("cancer", 1500, 2)
    holes = data.mask(np.random.default_rng(4).random(data.shape) < 0.25)
    return true_model, data, holes


def test_on_incomplete_data_the_reported_quantities_are_exact(incomplete):
    _, _, holes = incomplete
    sem = StructuralEM("fnml", show_progress=False, random_state=1).fit(holes)
    assert sem.n_missing_ == int(holes.isna().sum().sum()) and sem.n_iter_ >= 1
    assert list(sem.iterations_.columns) == [
        "chain",
        "iteration",
        "log_likelihood",
        "score",
        "criterion",
        "changed_edges",
        "n_edges",
        "seconds",
    ]
    assert sorted(sem.iterations_["chain"].unique()) == [0, 1, 2]
    assert sem.model_.check_model()
    # the observed-data log-likelihood of the fitted network: every completion enumerated
    assert sem.log_likelihood_ == pytest.approx(
        observed_log_likelihood(sem.model_, holes).sum(), rel=1e-10
    )
    assert all(np.all(c.get_values() > 0) for c in sem.model_.get_cpds())  # fsNML
    same = StructuralEM("fnml", show_progress=False, random_state=1).fit(holes)
    same_network(same.model_, sem.model_)  # reproducible
    pd.testing.assert_frame_equal(
        same.iterations_.drop(columns="seconds"), sem.iterations_.drop(columns="seconds")
    )


def test_the_criterion_is_the_likelihood_plus_the_complexity_term(incomplete):
    """With BIC the score's complexity term on any completion is -(d/2) log N, d the free
    parameters of the network (recomputed here); with the log-likelihood score it is 0."""
    from pgmpy_nml import n_parameters

    _, data, holes = incomplete
    states = {c: sorted(data[c].unique().tolist()) for c in data.columns}
    sem = StructuralEM("bic-d", state_names=states, show_progress=False, max_iter=6).fit(holes)
    row = sem.iterations_[sem.iterations_["criterion"] == sem.score_].iloc[0]
    d = n_parameters(sem.causal_graph_, data, states)
    assert row["criterion"] - row["log_likelihood"] == pytest.approx(
        -0.5 * d * math.log(len(holes)), rel=1e-9
    )
    plain = StructuralEM("ll-d", state_names=states, show_progress=False, max_iter=3).fit(holes)
    it = plain.iterations_
    np.testing.assert_allclose(it["criterion"], it["log_likelihood"], rtol=1e-12)


@pytest.mark.long
def test_structural_em_uses_the_incomplete_rows(network_sample):
    """child, 20% of the cells missing: 1% of the rows are complete. Learning from them
    alone is far worse on held-out rows than structural EM."""
    true_model, data = network_sample("child", 1500, 5)
    test = network_sample("child", 1000, 6)[1]
    holes = data.mask(np.random.default_rng(0).random(data.shape) < 0.2)
    sem = StructuralEM("fnml", show_progress=False).fit(holes)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dropped = LearningProcedure("hill", missing="drop", state_names=_states(data))
        dropped.fit(holes)
    truth = log_loss(true_model, test)
    assert log_loss(sem.model_, test) - truth < 0.5 * (log_loss(dropped.model_, test) - truth)


def _states(data):
    return {c: sorted(data[c].dropna().unique().tolist()) for c in data.columns}


def test_expert_knowledge_and_a_search_object(incomplete):
    _, _, holes = incomplete
    knowledge = ExpertKnowledge(
        required_edges=[("Pollution", "Xray")], forbidden_edges=[("Cancer", "Dyspnoea")]
    )
    for method in ("tabu", ExactSearch(time_limit=30, show_progress=False)):
        sem = StructuralEM(
            "qnml", method=method, expert_knowledge=knowledge, show_progress=False, max_iter=4
        ).fit(holes)
        edges = set(sem.causal_graph_.edges())
        assert ("Pollution", "Xray") in edges and ("Cancer", "Dyspnoea") not in edges
    with pytest.raises(ValueError, match="has no max_parents parameter"):
        StructuralEM(method=FSNMLEstimator(), max_parents=2, show_progress=False).fit(holes)


def test_scores_of_pgmpy_and_score_objects(incomplete):
    _, _, holes = incomplete
    by_name = StructuralEM("bic-d", show_progress=False, max_iter=3).fit(holes)
    assert by_name.model_.check_model()
    complete = holes.dropna()
    obj = StructuralEM(FNML(complete), show_progress=False, max_iter=3).fit(holes)
    named = StructuralEM("fnml", show_progress=False, max_iter=3).fit(holes)
    assert sorted(obj.causal_graph_.edges()) == sorted(named.causal_graph_.edges())


def test_parameters_by_a_dirichlet_prior_or_none(incomplete):
    _, _, holes = incomplete
    sem = StructuralEM(
        "bdeu",
        score_params={"equivalent_sample_size": 5},
        em_tol=1e-10,
        em_max_iter=500,
        show_progress=False,
    )
    sem.fit(holes)
    expected = DiscreteBayesianEstimator(prior_type="BDeu", equivalent_sample_size=5)
    from pgmpy_nml import EMEstimator
    from pgmpy_nml.models import bayesian_network

    refit = bayesian_network(sem.causal_graph_).fit(
        holes, estimator=EMEstimator(m_step_estimator=expected, tol=1e-10, max_iter=500)
    )
    for cpd in sem.model_.get_cpds():
        np.testing.assert_allclose(
            cpd.get_values(), refit.get_cpds(cpd.variable).get_values(), atol=1e-4
        )
    bare = StructuralEM(parameter_estimator=None, show_progress=False, max_iter=3).fit(holes)
    assert bare.model_ is None and math.isfinite(bare.log_likelihood_)
    with pytest.raises(TypeError, match="The M-step takes"):
        StructuralEM(parameter_estimator=EMEstimator(), show_progress=False).fit(holes)


def test_progress_lines(incomplete, monkeypatch):
    _, _, holes = incomplete
    monkeypatch.setenv("PGMPY_NML_PROGRESS_SECONDS", "0")
    err = io.StringIO()
    with redirect_stderr(err):
        StructuralEM(show_progress=True, max_iter=3, n_iter_no_change=5).fit(holes)
    lines = [x for x in err.getvalue().splitlines() if x.startswith("structural EM")]
    assert len(lines) >= 3
    assert "iteration 3: log-likelihood" in lines[-1] and "edges changed" in lines[-1]


def test_refusals(incomplete):
    _, _, holes = incomplete
    dd = pytest.importorskip("dask.dataframe")
    with pytest.raises(InputError, match="not a Dask DataFrame"):
        StructuralEM(show_progress=False).fit(dd.from_pandas(holes, npartitions=2))
    with pytest.raises(ValueError, match="start_dag has a directed cycle"):
        StructuralEM(start_dag=[("Xray", "Cancer"), ("Cancer", "Xray")]).fit(holes)


def test_study_tools_take_structural_em(incomplete):
    _, _, holes = incomplete
    procedure = LearningProcedure("hill", missing="em")
    fitted = procedure.fit(holes)
    assert fitted.model_.check_model() and set(fitted.dag_.nodes()) == set(holes.columns)
    result = cv(holes, method="hill", k=3, missing="em", random_state=0)
    assert result.folds["n_test"].sum() == len(holes)  # every test row, marginalized
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        both = compare_procedures(
            holes,
            {
                "em": LearningProcedure("hill"),
                "drop": LearningProcedure("hill", missing="drop"),
                "pnal": LearningProcedure("hill", scoring_method="pnal", missing="available"),
            },
            k=3,
            missing="em",
            random_state=0,
        )
    assert (both.results["em"].folds["n_test"] == both.results["drop"].folds["n_test"]).all()
    error = cv(holes, method="hill", k=3, missing="em", loss="error", target="Cancer")
    assert error.folds["n_test"].sum() == holes["Cancer"].notna().sum()
    strength = bootstrap_strength(holes, method="hill", n_bootstrap=2, missing="em")
    assert len(strength) == 20
    with pytest.raises(ValueError, match="missing must be one of"):
        cv(holes, k=3, missing="impute")


@pytest.mark.long
def test_chains_in_parallel_give_the_same_result(incomplete):
    _, _, holes = incomplete
    one = StructuralEM(show_progress=False, max_iter=4, random_state=3).fit(holes)
    two = StructuralEM(show_progress=False, max_iter=4, random_state=3, n_jobs=2).fit(holes)
    same_network(one.model_, two.model_)
    pd.testing.assert_frame_equal(
        one.iterations_.drop(columns="seconds"), two.iterations_.drop(columns="seconds")
    )
