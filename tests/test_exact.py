"""Exact structure search against exhaustive and brute-force references."""

import itertools
import warnings

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from pgmpy.base import DAG
from pgmpy.causal_discovery import ExpertKnowledge
from pgmpy.causal_discovery import HillClimbSearch as NewHillClimb
from pgmpy.inference import VariableElimination
from pgmpy.structure_score import K2, BDeu

from pgmpy_nml import (
    FNML,
    QNML,
    ExactSearch,
    FSNMLEstimator,
    MaxBDeu,
    MinBDeu,
    SearchMemoryError,
    learn_exact,
)
from pgmpy_nml._counting import subsets as _kernels
from pgmpy_nml.datasets import sample_network
from pgmpy_nml.search._dp import _kernels as _dp_kernels

with warnings.catch_warnings():
    warnings.simplefilter("ignore", FutureWarning)
    from pgmpy.estimators import BDeu as LegacyBDeu
    from pgmpy.estimators import ExhaustiveSearch


#: every kind of score: ours (the min/max-bdeu ones through the generic path) and pgmpy's
SCORE_NAMES = (
    *("fnml", "qnml", "bd1/2", "pgmpy-bdeu", "legacy-bdeu", "pgmpy-k2", "pgmpy-bic"),
    *("pgmpy-aic", "pgmpy-ll", "min-bdeu", "max-bdeu"),
)


def fit(score, **kwargs):
    return ExactSearch(score, show_progress=False, **kwargs).fit()


@pytest.mark.parametrize("name", SCORE_NAMES)
@pytest.mark.parametrize(("m", "seed"), [(3, 0), (4, 1)])
def test_same_optimum_as_pgmpy_exhaustive_search(name, m, seed, random_data, make_test_score):
    if name == "legacy-bdeu" and m > 3:
        pytest.skip("pgmpy's legacy scores take 2 ms a call: 3 variables are enough")
    data = random_data(60, m, seed)
    score = make_test_score(name, data)
    result = fit(score)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # pgmpy's enumeration of every DAG (its estimate() takes legacy scores only)
        exhaustive = ExhaustiveSearch(data, scoring_method=LegacyBDeu(data), use_cache=False)
        best = max(score.score(dag) for dag in exhaustive.all_dags())
    assert result.score_ == pytest.approx(best, rel=1e-10, abs=1e-9)
    assert score.score(result.dag_) == pytest.approx(result.score_, rel=1e-10, abs=1e-9)


def brute_force_over_orders(score, variables, max_parents=None):
    """max over all orders of the sum of the best parent sets among predecessors."""
    limit = len(variables) - 1 if max_parents is None else max_parents
    best = {}
    for v in variables:
        others = [u for u in variables if u != v]
        for k in range(len(others) + 1):
            for allowed in itertools.combinations(others, k):
                best[v, frozenset(allowed)] = max(
                    score.local_score(v, tuple(p))
                    for j in range(min(k, limit) + 1)
                    for p in itertools.combinations(allowed, j)
                )
    return max(
        sum(best[v, frozenset(order[:i])] for i, v in enumerate(order))
        for order in itertools.permutations(variables)
    )


@pytest.mark.parametrize(
    ("name", "m", "seed", "max_parents"),
    [("fnml", 6, 2, None), ("qnml", 6, 3, None), ("pgmpy-bdeu", 6, 4, 2), ("fnml", 7, 5, 2)],
)
def test_same_optimum_as_brute_force_over_orders(
    name, m, seed, max_parents, random_data, make_test_score
):
    data = random_data(300, m, seed)
    score = make_test_score(name, data)
    result = fit(score, max_parents=max_parents)
    expected = brute_force_over_orders(score, list(data.columns), max_parents)
    assert result.score_ == pytest.approx(expected, rel=1e-11)
    assert score.score(result.dag_) == pytest.approx(result.score_, rel=1e-11)
    if max_parents is not None:
        assert max(dict(result.dag_.in_degree()).values()) <= max_parents


@pytest.mark.parametrize("name", ["fnml", "qnml", "pgmpy-bic"])
def test_never_below_hill_climbing(name, make_test_score):
    _, data = sample_network("child", 500, random_state=0)
    data = data.iloc[:, :12]
    score = make_test_score(name, data)
    exact = fit(score)
    hc = NewHillClimb(scoring_method=score, return_type="dag", show_progress=False).fit(data)
    assert exact.score_ >= score.score(hc.causal_graph_) - 1e-9
    assert score.score(exact.dag_) == pytest.approx(exact.score_, rel=1e-12)


@pytest.mark.parametrize(
    ("network", "n"), [("earthquake", 20000), ("survey", 20000), ("cancer", 50000)]
)
def test_recovers_known_networks(network, n):
    model, data = sample_network(network, n, random_state=7)
    learned = fit(QNML(data)).dag_
    # qNML is score equivalent: the optimum is a Markov equivalence class
    assert set(learned.to_pdag().edges()) == set(DAG(model.edges()).to_pdag().edges())


def test_constraints_are_respected(random_data):
    data = random_data(400, 6, 8)
    free = fit(FNML(data)).dag_
    edge = next(iter(free.edges()))
    required = ("V5", "V0") if not free.has_edge("V5", "V0") else ("V4", "V1")
    knowledge = ExpertKnowledge(required_edges=[required], forbidden_edges=[edge])
    constrained = fit(FNML(data), expert_knowledge=knowledge)
    assert constrained.dag_.has_edge(*required) and not constrained.dag_.has_edge(*edge)
    assert constrained.score_ <= fit(FNML(data)).score_ + 1e-9
    tiers = ExpertKnowledge(temporal_order=[["V3", "V4", "V5"], ["V0", "V1", "V2"]])
    tiered = fit(FNML(data), expert_knowledge=tiers).dag_
    late = {"V0", "V1", "V2"}
    assert not any(u in late and v not in late for u, v in tiered.edges())
    space = ExpertKnowledge(search_space=[("V0", "V1"), ("V1", "V2"), ("V0", "V2")])
    assert set(fit(FNML(data), expert_knowledge=space).dag_.edges()) <= set(space.search_space)
    with pytest.raises(ValueError, match="No DAG satisfies the constraints"):
        fit(
            FNML(data),
            expert_knowledge=ExpertKnowledge(required_edges=[("V0", "V1"), ("V1", "V0")]),
        )
    with pytest.raises(ValueError, match="both required and forbidden"):
        fit(
            FNML(data),
            expert_knowledge=ExpertKnowledge(
                required_edges=[("V0", "V1")], forbidden_edges=[("V0", "V1")]
            ),
        )
    with pytest.raises(ValueError, match="'Q', which is not a variable"):
        fit(FNML(data), expert_knowledge=ExpertKnowledge(required_edges=[("Q", "V1")]))


def test_parent_limit_and_constraints_with_the_generic_path(random_data):
    data = random_data(200, 5, 9)
    result = fit(
        MaxBDeu(data),
        max_parents=1,
        expert_knowledge=ExpertKnowledge(forbidden_edges=[("V0", "V1")]),
    )
    assert max(dict(result.dag_.in_degree()).values()) <= 1
    assert not result.dag_.has_edge("V0", "V1")
    assert MaxBDeu(data).score(result.dag_) == pytest.approx(result.score_, rel=1e-12)


def test_deterministic_and_thread_count_independent(random_data):
    data = random_data(500, 9, 10)
    runs = [ExactSearch("fnml", n_jobs=j, show_progress=False).fit(data) for j in (1, 2, 2)]
    assert all(sorted(r.dag_.edges()) == sorted(runs[0].dag_.edges()) for r in runs)
    assert all(r.score_ == runs[0].score_ for r in runs)


def test_parameters_and_inference_on_the_result():
    _, data = sample_network("cancer", 5000, random_state=11)
    search = ExactSearch("fnml", parameter_estimator=FSNMLEstimator(), show_progress=False).fit(
        data
    )
    fitted = search.model_
    assert fitted.check_model() and set(fitted.nodes()) == set(data.columns)
    posterior = VariableElimination(fitted).query(["Cancer"], evidence={"Smoker": "True"})
    assert posterior.values.sum() == pytest.approx(1.0)
    assert set(search.timings_) == {
        "subset statistics",
        "local scores",
        "best parent sets",
        "best sinks",
    }
    one_call = learn_exact(data, "fnml", show_progress=False)
    assert sorted(one_call.edges()) == sorted(search.dag_.edges())


def test_memory_is_estimated_and_refused_before_allocating(random_data):
    data = random_data(50, 8, 12)
    with pytest.raises(
        SearchMemoryError,
        match=r"8 variables needs about .* more than the limit of .*7 variables: about",
    ):
        ExactSearch("fnml", max_memory=10_000, show_progress=False).fit(data)
    ok = ExactSearch("fnml", show_progress=False).fit(data)
    assert 0 < ok.memory_estimate_ < 50 * 2**20


def test_bad_settings(random_data):
    data = random_data(50, 4, 13)
    with pytest.raises(ValueError, match="Unknown scoring_method 'nope'"):
        ExactSearch("nope").fit(data)
    with pytest.raises(TypeError, match="score object with local_score"):
        ExactSearch(42).fit(data)
    with pytest.raises(ValueError, match="max_parents must be"):
        ExactSearch("fnml", max_parents=-1).fit(data)
    with pytest.raises(ValueError, match="was built on columns"):
        ExactSearch(FNML(data[["V0", "V1"]])).fit(data)
    with pytest.raises(ValueError, match="missing values"):
        ExactSearch("fnml").fit(data.assign(V0=[None] + [0] * 49))
    with pytest.raises(ValueError, match="needs data"):
        ExactSearch("fnml").fit()


def test_interrupt_leaves_nothing_fitted(monkeypatch, random_data):
    data = random_data(100, 5, 14)
    search = ExactSearch("fnml", show_progress=False).fit(data)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(_dp_kernels, "best_sinks", interrupted)
    with pytest.raises(KeyboardInterrupt, match="nothing was fitted"):
        search.fit(data)
    assert not hasattr(search, "dag_") and not hasattr(search, "score_")


def test_subset_statistics_against_direct_counts(random_data):
    data = random_data(80, 6, 15)
    score = FNML(data)
    enc = score._encoded
    tables = np.vstack([np.arange(81) ** 2, np.sqrt(np.arange(81))]).astype(float)
    stats = _kernels.subset_statistics(enc.codes, enc.arities, tables, 0.7, 4, 2)
    for mask in range(64):
        members = [i for i in range(6) if mask >> i & 1]
        if len(members) > 4:
            assert np.all(stats[:, mask] == 0)
            continue
        counts = data.iloc[:, members].value_counts().to_numpy() if members else np.array([80])
        q = float(np.prod([enc.arities[i] for i in members])) if members else 1.0
        from scipy.special import gammaln

        expected = [
            (counts**2).sum(),
            np.sqrt(counts).sum(),
            (gammaln(counts + 0.7 / q) - gammaln(0.7 / q)).sum(),
        ]
        np.testing.assert_allclose(stats[:, mask], expected, rtol=1e-12)
    assert nx.is_directed_acyclic_graph(fit(score).dag_)


@pytest.mark.long
def test_generic_path_runs_on_joblib_process_workers(random_data):
    """The generic path honours joblib's backend, as Dask or Ray users would set it."""
    from joblib import parallel_config

    data = random_data(120, 4, 16)
    serial = fit(MinBDeu(data), n_jobs=1)
    with parallel_config(backend="loky"):
        spread = fit(MinBDeu(data), n_jobs=2)
    assert spread.score_ == serial.score_
    assert sorted(spread.dag_.edges()) == sorted(serial.dag_.edges())


@pytest.mark.long
@pytest.mark.parametrize("cls", [BDeu, K2, LegacyBDeu])
def test_pgmpy_scores_reproduced_with_declared_unseen_states(cls, random_data):
    """pgmpy's own values (quirks with unseen states included) are what the search optimizes."""
    data = random_data(40, 4, 17)
    names = {c: [*sorted(data[c].unique().tolist()), 7, 8] for c in ("V1", "V3")}
    names.update({c: sorted(data[c].unique().tolist()) for c in ("V0", "V2")})
    score = cls(data, state_names=names)
    result = fit(score)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exhaustive = ExhaustiveSearch(data, scoring_method=LegacyBDeu(data), use_cache=False)
        best = max(score.score(dag) for dag in exhaustive.all_dags())
    assert result.score_ == pytest.approx(best, rel=1e-10)
    assert score.score(result.dag_) == pytest.approx(result.score_, rel=1e-10)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["fnml", "legacy-bdeu"])
def test_same_optimum_as_pgmpy_exhaustive_search_on_five_variables(
    name, random_data, make_test_score
):
    """pgmpy's ExhaustiveSearch scores all 29281 DAGs (about 20-40 s): run with -m slow."""
    data = random_data(200, 5, 21)
    score = make_test_score(name, data)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        best = ExhaustiveSearch(data, scoring_method=score).estimate()
    assert fit(score).score_ == pytest.approx(score.score(best), rel=1e-10)


def test_scikit_learn_estimator_protocol(random_data):
    from sklearn.base import clone

    data = random_data(80, 4, 30)
    search = ExactSearch("qnml", max_parents=2, show_progress=False)
    assert search.get_params()["max_parents"] == 2
    assert search.set_params(max_parents=1) is search and search.max_parents == 1
    twin = clone(search)
    assert twin.get_params() == search.get_params() and not hasattr(twin, "causal_graph_")
    with pytest.raises(AttributeError, match="call fit"):
        _ = search.score_
    search.fit(data)
    assert search.causal_graph_ is search.dag_
    assert max(dict(search.causal_graph_.in_degree()).values()) <= 1
    assert search.plan_ == "statistics"


def test_expert_knowledge_as_a_dict_is_never_ignored(random_data):
    data = random_data(200, 4, 31)
    free = fit(FNML(data))
    u, v = next(iter(free.dag_.edges()))
    as_dict = fit(FNML(data), expert_knowledge={"forbidden_edges": [(u, v)]})
    assert not as_dict.dag_.has_edge(u, v)
    with pytest.raises(ValueError, match="unknown key"):
        fit(FNML(data), expert_knowledge={"forbiden_edges": [(u, v)]})
    with pytest.raises(TypeError, match="ExpertKnowledge"):
        fit(FNML(data), expert_knowledge=[(u, v)])


def test_a_score_bound_to_other_data_is_refused(random_data):
    data = random_data(200, 4, 32)
    with pytest.raises(ValueError, match="was built on"):
        ExactSearch(FNML(data.iloc[:50]), show_progress=False).fit(data)
    shuffled = data.assign(V0=data["V0"].to_numpy()[::-1])
    with pytest.raises(ValueError, match="other values"):
        ExactSearch(FNML(data), show_progress=False).fit(shuffled)
    # the same data, or none, is fine
    assert ExactSearch(FNML(data), show_progress=False).fit(data.copy()).score_ == pytest.approx(
        ExactSearch(FNML(data), show_progress=False).fit().score_
    )


def test_declared_states_reach_the_fitted_model():
    data = pd.DataFrame({"A": list("xyxyxy") * 10, "B": list("uuvvuv") * 10})
    score = FNML(data, state_names={"A": ["x", "y", "z"]})
    model = learn_exact(data, score, show_progress=False)
    assert model.get_cpds("A").state_names["A"] == ["x", "y", "z"]
    from pgmpy_nml import log_loss

    assert np.isfinite(log_loss(model, pd.DataFrame({"A": ["z"], "B": ["u"]})))


@pytest.mark.parametrize(
    ("setting", "error", "message"),
    [
        ({"n_jobs": 0}, ValueError, "n_jobs"),
        ({"n_jobs": "2"}, TypeError, "n_jobs"),
        ({"max_memory": "1GB"}, TypeError, "max_memory"),
        ({"max_memory": float("nan")}, ValueError, "max_memory"),
        ({"max_memory": -5}, ValueError, "max_memory"),
    ],
)
def test_bad_resource_settings_name_the_parameter(setting, error, message, random_data):
    with pytest.raises(error, match=message):
        ExactSearch("fnml", show_progress=False, **setting).fit(random_data(30, 3, 33))


@pytest.mark.parametrize(
    ("name", "max_parents", "knowledge"),
    [
        ("fnml", 2, None),
        ("qnml", 3, None),
        ("bd1/2", 2, {"forbidden_edges": [("V0", "V1")], "required_edges": [("V2", "V5")]}),
        ("pgmpy-bic", None, {"temporal_order": [["V0", "V1", "V2"], ["V3", "V4", "V5", "V6"]]}),
        ("min-bdeu", 2, None),
    ],
)
def test_solver_and_subset_dp_find_the_same_optimum(
    name, max_parents, knowledge, random_data, make_test_score
):
    data = random_data(400, 7, 40)
    score = make_test_score(name, data)
    options = dict(max_parents=max_parents, expert_knowledge=knowledge, show_progress=False)
    dp = ExactSearch(score, method="dp", **options).fit()
    solver = ExactSearch(score, method="solver", **options).fit()
    assert dp.method_ == "dp" and solver.method_ == "solver"
    assert solver.optimal_ and solver.gap_ == 0.0 and solver.bound_ >= solver.score_
    assert solver.score_ == pytest.approx(dp.score_, rel=1e-12)
    assert score.score(solver.causal_graph_) == pytest.approx(solver.score_, rel=1e-12)
    assert solver.candidates_.n_candidates().sum() >= len(data.columns)
    if knowledge:
        from pgmpy_nml.search.constraints import Constraints

        limits = Constraints.from_knowledge(list(data.columns), max_parents, knowledge)
        assert limits.violations(solver.causal_graph_) == []


@pytest.mark.long
def test_auto_chooses_the_dp_for_few_variables_and_a_star_with_a_parent_limit(random_data):
    small = random_data(200, 6, 41)
    assert ExactSearch("fnml", show_progress=False).fit(small).method_ == "dp"
    _, child = sample_network("child", 1000, random_state=4)
    search = ExactSearch("qnml", max_parents=2, n_jobs=1, show_progress=False).fit(child)
    assert search.method_ == "astar" and search.optimal_
    assert search.memory_estimate_ is None and search.pruning_.n_kept.sum() > 20
    dp = ExactSearch("qnml", max_parents=2, method="dp", show_progress=False).fit(child)
    assert search.score_ == pytest.approx(dp.score_, rel=1e-12)
    # two cores: A* beside the solver (choose_search's cores)
    both = ExactSearch("qnml", max_parents=2, n_jobs=2, show_progress=False).fit(child)
    assert both.method_ == "astar|solver" and both.optimal_
    assert both.score_ == pytest.approx(dp.score_, rel=1e-12)


def test_solver_time_limit_start_dag_and_bad_settings(random_data):
    _, child = sample_network("child", 2000, random_state=5)
    score = FNML(child)
    hc = NewHillClimb(scoring_method=score, return_type="dag", show_progress=False).fit(child)
    started = ExactSearch(
        score, max_parents=2, method="solver", start_dag=hc.causal_graph_, show_progress=False
    ).fit()
    assert started.optimal_ and started.score_ >= score.score(hc.causal_graph_) - 1e-9
    quick = ExactSearch(
        score, max_parents=3, method="solver", time_limit=1e-3, show_progress=False
    ).fit()
    assert quick.bound_ >= quick.score_ and quick.gap_ >= 0.0
    assert quick.optimal_ == (quick.gap_ == 0.0)
    with pytest.raises(ValueError, match="method must be"):
        ExactSearch(score, method="greedy").fit()
    with pytest.raises(ValueError, match="time_limit"):
        ExactSearch(score, method="solver", time_limit=-1).fit()
    with pytest.raises(ValueError, match="subset dynamic programming handles at most"):
        ExactSearch("fnml", method="dp").fit(random_data(20, 32, 42))


def test_one_progress_bar_that_moves_by_phase_and_ends_full(monkeypatch, capsys, random_data):
    """The bar advances through the phases in steps (not 0% for most of the run, then
    done) and leaves a final, full line on the terminal."""
    from tqdm import tqdm

    seen = []

    class Recording(tqdm):
        def update(self, n=1):
            super().update(n)
            seen.append(self.n / self.total)

    monkeypatch.setattr("tqdm.auto.tqdm", Recording)
    monkeypatch.setattr("pgmpy_nml._progress._interactive", lambda stream: True)  # a terminal
    ExactSearch("fnml", show_progress=True).fit(random_data(300, 12, 50))
    assert len(seen) >= 5 and seen == sorted(seen)
    assert seen[-1] == pytest.approx(1.0)
    assert 0.0 < seen[0] < 0.9  # the first chunk of counting is not the whole bar
    final = capsys.readouterr().err.rstrip("\n").split("\r")[-1]  # what stays on screen
    assert final.startswith("exact search") and "100%" in final


@pytest.mark.long
def test_auto_hands_over_to_branch_and_cut_when_a_star_runs_out_of_memory():
    """method="auto": A* stopped by its memory cap, then SCIP from its best network;
    the bound is the smaller of the two proven ones."""
    _, data = sample_network("alarm", 1000, random_state=0)
    data = data.iloc[:, :24]
    options = dict(max_parents=2, show_progress=False)
    handed = ExactSearch("bdeu", max_memory=3e5, n_jobs=1, **options).fit(data)
    solver = ExactSearch("bdeu", method="solver", **options).fit(data)
    assert handed.method_ == "astar+solver"
    assert handed.optimal_ and handed.score_ == pytest.approx(solver.score_, rel=1e-12)
    assert handed.bound_ >= handed.score_
    # on two cores the solver runs beside A* from the start, and proves it
    both = ExactSearch("bdeu", max_memory=3e5, n_jobs=2, **options).fit(data)
    assert both.method_ == "astar|solver" and both.optimal_
    assert both.score_ == pytest.approx(solver.score_, rel=1e-12)
    # asked for by name, A* reports its own stop instead
    alone = ExactSearch("bdeu", method="astar", max_memory=3e5, **options).fit(data)
    assert alone.method_ == "astar" and not alone.optimal_
    assert alone.bound_ >= solver.score_ - 1e-9 * abs(solver.score_)
