"""A* and the solver side by side (``method="astar|solver"``): the same optimum as each
engine alone and as brute force, a sound bound when the time runs out, and no child
process left behind whatever stops the run."""

import subprocess
import sys
import time

import numpy as np
import pytest
from _promises import assert_sound_result
from hypothesis import HealthCheck, given, settings
from test_astar import _hard
from test_exact_promises import candidate_sets
from test_pruning_properties import best_network

from pgmpy_nml import BDeu, ExactSearch
from pgmpy_nml.exceptions import PgmpyNMLWarning
from pgmpy_nml.search.candidates import CandidateParentSets, solve
from pgmpy_nml.search.candidates import _portfolio as pf
from pgmpy_nml.search.candidates._astar import astar
from pgmpy_nml.search.candidates._families import _checked_families
from pgmpy_nml.search.candidates._heuristics import _greedy

pytest.importorskip("pyscipopt")


@pytest.fixture
def launched(monkeypatch):
    """Every child process the portfolio starts."""
    children = []
    launch = pf._launch

    def recording(*args):
        child = launch(*args)
        children.append(child)
        return child

    monkeypatch.setattr(pf, "_launch", recording)
    return children


def _all_reaped(children):
    # returncode is set only once the child was waited for: no zombie is left
    return all(child.returncode is not None for child in children)


def _against_brute_force(local, method="astar|solver", probe=0.0):
    candidates = CandidateParentSets.from_dict(local)
    optimum = best_network(local, list(local))
    result = pf.portfolio(candidates, method=method, show_progress=False, probe=probe)
    assert result.method == method and result.optimal and result.gap == 0.0
    assert result.score == pytest.approx(optimum, rel=1e-9, abs=1e-9)
    assert result.bound == result.score
    mine = {"astar|solver": "astar", "order|solver": "order search"}.get(method)
    if probe > 0:  # the probe ran first, and is reported
        mine = "astar"
        assert pf.PROBE_KEY in result.timings and pf.PROBE_KEY in result.engines
        probed = result.engines[pf.PROBE_KEY]
        assert probed["score"] <= optimum + 1e-9 and probed["bound"] >= optimum - 1e-9
        assert probed["status"] == "optimal" or len(result.engines) >= 2
    else:
        assert pf.PROBE_KEY not in result.timings
    assert result.engine.startswith("scip") or result.engine == mine
    assert_sound_result(result, candidates, optimum)
    alone = [astar(candidates, show_progress=False), solve(candidates, show_progress=False)]
    assert all(r.score == pytest.approx(result.score, rel=1e-9, abs=1e-9) for r in alone)


# each run starts two Python processes (2 s of CPU each): a few cases by default, many
# with -m slow; the combination itself is checked on many cases below, without processes
@pytest.mark.parametrize("method", list(pf.PORTFOLIOS))
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(local=candidate_sets())
def test_the_portfolio_finds_the_brute_force_optimum(method, local):
    _against_brute_force(local, method)


@pytest.mark.slow
@pytest.mark.parametrize("method", list(pf.PORTFOLIOS))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(local=candidate_sets())
def test_the_portfolio_finds_the_brute_force_optimum_many(method, local):
    _against_brute_force(local, method)


# the automatic "solver|solver" probes with A* first: a probe that proves (5 s), and one
# stopped at once, after which the bound-first solver starts as it would have without it
@pytest.mark.parametrize("probe", [5.0, 1e-9])
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(local=candidate_sets())
def test_the_probe_keeps_the_brute_force_optimum(probe, local):
    _against_brute_force(local, "solver|solver", probe)


@pytest.mark.slow
@pytest.mark.parametrize("probe", [5.0, 1e-9])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(local=candidate_sets())
def test_the_probe_keeps_the_brute_force_optimum_many(probe, local):
    _against_brute_force(local, "solver|solver", probe)


def _two_solvers_and_the_dp(random_data, automatic):
    """``"solver|solver"`` through the candidate pipeline on random data (7 variables,
    at most 2 parents), as ``method="auto"`` runs it (``automatic``) or as named, and the
    subset DP's optimum of the same data."""
    from pgmpy_nml.search.candidates._pipeline import search_candidates

    data = random_data(300, 7, 3)
    dp = ExactSearch("bdeu", method="dp", max_parents=2, show_progress=False).fit(data)
    result = search_candidates(
        BDeu(data),
        "solver|solver",
        max_parents=2,
        expert_knowledge=None,
        n_jobs=None,
        show_progress=False,
        time_limit=None,
        gap_limit=0.0,
        seed=0,
        hand_over=automatic,
    )
    return result, dp.score_


@pytest.mark.parametrize("automatic", [True, False])
def test_the_automatic_two_solvers_probe_with_a_star_first(random_data, automatic):
    """``ExactSearch(method="auto")``'s ``"solver|solver"`` (``hand_over``) runs the A*
    probe and reports it; the same method named by the user runs as named."""
    result, optimum = _two_solvers_and_the_dp(random_data, automatic)
    assert result.method == "solver|solver" and result.status == "optimal"
    assert result.score == pytest.approx(optimum, rel=1e-9)
    assert (pf.PROBE_KEY in result.timings) == automatic
    assert (pf.PROBE_KEY in result.engines) == automatic


def test_the_probe_runs_where_a_star_can_and_takes_a_share_of_the_time():
    from pgmpy_nml.search.candidates import _pipeline

    small, wide = _per_variable(20, 3), _per_variable(64, 2)
    seconds = _pipeline.ASTAR_PROBE_SECONDS
    assert _pipeline._probe_seconds(small, "solver|solver", None) == seconds
    assert _pipeline._probe_seconds(small, "solver|solver", 600.0) == seconds
    assert _pipeline._probe_seconds(small, "solver|solver", 20.0) == pytest.approx(
        _pipeline.ASTAR_PROBE_SHARE * 20.0
    )
    assert _pipeline._probe_seconds(wide, "solver|solver", 600.0) == 0.0  # 64: beyond A*
    for method in ("astar|solver", "order|solver", "solver", "astar"):
        assert _pipeline._probe_seconds(small, method, 600.0) == 0.0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(local=candidate_sets())
def test_the_bound_first_solver_finds_the_brute_force_optimum(local):
    """The second solver of ``"solver|solver"``, in this process: its SCIP settings change
    the order of the search, never its result."""
    from pgmpy_nml.search.candidates import _scip_plugins as plugins
    from pgmpy_nml.search.candidates import _solver as solver_module

    models, handlers = [], []
    real, real_plugins = solver_module._model, plugins.include_plugins

    def recording(*args):
        built = real(*args)
        models.append(built[0])
        return built

    def recording_plugins(*args):
        handlers.append(real_plugins(*args))
        return handlers[-1]

    candidates = CandidateParentSets.from_dict(local)
    optimum = best_network(local, list(local))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(solver_module, "_model", recording)
        patch.setattr(plugins, "include_plugins", recording_plugins)
        result = solver_module._solve(candidates, None, None, 0.0, 1, False, bound_first=True)
    assert result.optimal and result.score == pytest.approx(optimum, rel=1e-9, abs=1e-9)
    assert result.bound == result.score
    assert candidates.score(result.parents) == pytest.approx(result.score, rel=1e-12)
    (model,) = models
    wanted = {**solver_module.BOUND_FIRST, **solver_module.ROOT_ZEROHALF}
    assert {name: model.getParam(name) for name in wanted} == wanted
    assert [h.exact for h in handlers] == ["root"]  # the sub-IP separation at its root


@pytest.mark.long
@pytest.mark.parametrize(
    "method, probe", [(m, 0.0) for m in pf.PORTFOLIOS] + [("solver|solver", 5.0)]
)
@pytest.mark.parametrize("seed", range(2))
def test_stopped_by_the_time_limit_the_bound_is_sound(seed, method, probe, launched):
    cands = _hard(seed)
    optimum = solve(cands, show_progress=False).score
    result = pf.portfolio(cands, method=method, time_limit=1e-3, show_progress=False, probe=probe)
    assert_sound_result(result, cands, optimum)
    assert len(launched) == 1 and _all_reaped(launched)


def _report(choice, bound, status, engine):
    return {
        "choice": list(choice),
        "bound": bound,
        "status": status,
        "engine": engine,
        "n_cuts": 0,
        "seconds": 1.0,
    }


@pytest.mark.parametrize("seed", range(40))
def test_combining_two_reports_keeps_the_better_network_and_the_smaller_bound(seed):
    """Random pairs of honest reports (an engine's network, the greedy or the optimal one,
    and a bound at least the optimum): the combination is the better network and a bound
    that is sound, never below it nor the optimum."""
    rng = np.random.default_rng(seed)
    cands = _hard(seed % 6, n=8, k=6)
    fam = _checked_families(cands)
    best = solve(cands, show_progress=False)
    greedy = astar(cands, show_progress=False, time_limit=1e-9, group_size=1)
    networks = [[fam.start[v] + c for v, c in enumerate(r.choice)] for r in (greedy, best)]
    reports = {}
    for engine in ("astar", "solver"):
        bound = best.score + float(rng.choice([0.0, rng.uniform(0, 30)]))
        choice = networks[int(rng.integers(2))]
        reports[engine] = _report(choice, bound, "timelimit", engine)
    result = pf._combine(fam, cands, reports)
    scores = [fam.total(r["choice"]) for r in reports.values()]
    bound = min(r["bound"] for r in reports.values())
    assert result.score == max(scores)
    assert result.bound >= best.score >= result.score
    assert result.bound == pytest.approx(max(bound, max(scores)), rel=1e-12)
    assert result.optimal == (bound <= max(scores))
    assert result.method == "astar|solver"
    # each engine's own network and bound, as it reported them
    assert result.engines == {
        e: dict(score=fam.total(r["choice"]), bound=r["bound"], status="timelimit", engine=e)
        for e, r in reports.items()
    }
    # one engine proved: its network, optimal, gap 0
    result = pf._combine(
        fam, cands, {"solver": _report(networks[1], best.score, "optimal", "scip")}
    )
    assert result.optimal and result.gap == 0.0 and result.score == best.score


def test_keyboard_interrupt_ends_the_solver_process(monkeypatch, launched):
    import pgmpy_nml.search.candidates._astar as astar_module

    def interrupted(*args, **kwargs):
        time.sleep(0.2)
        raise KeyboardInterrupt

    monkeypatch.setattr(astar_module, "astar", interrupted)
    with pytest.raises(KeyboardInterrupt):
        pf.portfolio(_hard(0), show_progress=False)
    assert len(launched) == 1 and _all_reaped(launched)


def _sleeper(engine, task, out):
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])


@pytest.mark.long
def test_a_solver_that_does_not_report_in_time_is_killed(monkeypatch):
    children = []

    def launch(*args):
        children.append(_sleeper(*args))
        return children[-1]

    monkeypatch.setattr(pf, "_launch", launch)
    monkeypatch.setattr(pf, "_GRACE", 0.5)
    cands = _hard(1)
    optimum = solve(cands, show_progress=False).score
    begin = time.perf_counter()
    with pytest.warns(PgmpyNMLWarning, match="had not reported 0.5 s after the time limit"):
        result = pf.portfolio(cands, time_limit=1e-3, show_progress=False)
    assert time.perf_counter() - begin < 30
    assert result.engine == "astar" and set(result.timings) == {"astar", "portfolio"}
    assert result.bound >= optimum - 1e-9 * abs(optimum) >= result.score - 1e-9 * abs(optimum)
    assert len(children) == 1 and _all_reaped(children) and children[0].returncode != 0


@pytest.mark.parametrize(
    ("code", "said"),
    [
        ("raise SystemExit(3)", "ended with exit code 3"),
        ("import os; os.kill(os.getpid(), 9)", "signal 9"),
    ],
)
def test_a_solver_process_that_dies_is_reported(monkeypatch, code, said):
    """A solver process that ends without its result (killed by the system for its
    memory, say): the portfolio returns the other engine's result, with its own bound,
    and says so."""
    children = []

    def launch(*args):
        children.append(subprocess.Popen([sys.executable, "-c", code]))
        return children[-1]

    monkeypatch.setattr(pf, "_launch", launch)
    cands = _hard(1)
    optimum = solve(cands, show_progress=False).score
    with pytest.warns(PgmpyNMLWarning, match=said):
        result = pf.portfolio(cands, method="order|solver", time_limit=5, show_progress=False)
    assert result.engine == "order search"
    assert result.bound >= optimum - 1e-9 * abs(optimum) >= result.score - 1e-9 * abs(optimum)
    assert _all_reaped(children)


@pytest.mark.long
def test_a_first_proof_by_the_solver_stops_astar(monkeypatch, tmp_path):
    """The solver's process ends first with a proof: A* stops at its next batch."""
    import pgmpy_nml.search.candidates._astar as astar_module

    cands = _hard(2)
    fam = _checked_families(cands)
    best = solve(cands, show_progress=False)
    proof = _report(
        [fam.start[v] + c for v, c in enumerate(best.choice)], best.score, "optimal", "fake"
    )
    children = []

    def launch(engine, task, out):  # a solver that proves at once
        code = f"import pickle; pickle.dump({proof!r}, open({out!r}, 'wb'))"
        children.append(subprocess.Popen([sys.executable, "-c", code]))
        return children[-1]

    statuses = []
    real = astar_module.astar

    def slow_astar(*args, **kwargs):  # the simple heuristic: far from a proof for a while
        result = real(*args, group_size=1, **kwargs)
        statuses.append(result.status)
        return result

    monkeypatch.setattr(pf, "_launch", launch)
    monkeypatch.setattr(astar_module, "astar", slow_astar)
    result = pf.portfolio(cands, show_progress=False)
    assert result.optimal and result.score == best.score
    assert statuses in (["stopped"], ["optimal"])  # A* may have been faster than Python
    if statuses == ["stopped"]:
        assert result.engine == "fake"
    assert _all_reaped(children)


@pytest.mark.parametrize("ended", ["timelimit", "memorylimit", "gaplimit"])
def test_a_stopped_engine_reports_why_the_other_ended(ended):
    """The engine stopped because the other ended has the better network: the result's
    status is the other's (why the run ended), never ``"stopped"``."""
    cands = _hard(1, n=8, k=6)
    fam = _checked_families(cands)
    best = solve(cands, show_progress=False)
    good = [fam.start[v] + c for v, c in enumerate(best.choice)]
    worse = [int(f) for f in _greedy(fam)]
    if fam.total(worse) == fam.total(good):
        pytest.skip("the greedy network is optimal here")
    bound = best.score + 5.0
    for mine in ("astar", "solver"):
        reports = {
            mine: _report(good, bound, "stopped", "scip"),
            "solver (second)": _report(worse, bound, ended, "scip"),
        }
        result = pf._combine(fam, cands, reports, "solver|solver")
        assert result.score == best.score and result.status == ended and not result.optimal


@pytest.mark.long
def test_a_first_proof_in_the_other_process_stops_the_calling_process_solver(monkeypatch):
    """``"solver|solver"``: the other process reports first; the calling process's solver
    (the bound-first one) stops at its next SCIP event, long before its own proof."""
    import pgmpy_nml.search.candidates._solver as solver_module

    cands = _hard(0, n=80, k=200)
    fam = _checked_families(cands)
    choice = [int(f) for f in _greedy(fam)]
    report = _report(choice, fam.total(choice), "optimal", "fake")  # stands for a proof
    children = []

    def launch(engine, task, out):  # a second solver that reports after a second
        code = f"import pickle, time; time.sleep(1); pickle.dump({report!r}, open({out!r}, 'wb'))"
        children.append(subprocess.Popen([sys.executable, "-c", code]))
        return children[-1]

    statuses = []
    real = solver_module._solve

    def recording(*args, **kwargs):
        result = real(*args, **kwargs)
        statuses.append(result.status)
        return result

    monkeypatch.setattr(pf, "_launch", launch)
    monkeypatch.setattr(solver_module, "_solve", recording)
    begin = time.perf_counter()
    result = pf.portfolio(cands, method="solver|solver", show_progress=False)
    assert time.perf_counter() - begin < 30
    assert statuses == ["stopped"] and result.method == "solver|solver"
    assert set(result.timings) == {"solver", "solver (second)", "portfolio"}
    assert _all_reaped(children)


@pytest.mark.long
def test_the_solver_stopped_returns_its_network_and_a_sound_bound():
    from pgmpy_nml.search.candidates._solver import _solve

    for seed in range(3):
        cands = _hard(seed)
        optimum = solve(cands, show_progress=False).score
        calls = []

        def stop(calls=calls):
            calls.append(1)
            return len(calls) > 2

        result = _solve(cands, None, None, 0.0, 0, False, stop=stop)
        assert result.status in ("stopped", "optimal") and calls
        assert result.bound >= optimum - 1e-9 * abs(optimum) >= result.score - 1e-9 * abs(optimum)
        assert cands.score(result.parents) == pytest.approx(result.score, rel=1e-12)


@pytest.mark.long
def test_the_second_solver_has_another_seed_and_works_on_the_bound_first(monkeypatch):
    """``"solver|solver"``: the bound-first solver, seeded ``seed + 1``, in the calling
    process (it notices the other's proof soonest: root pricing asks at every round), SCIP's
    defaults with ``seed`` in the other; each with half of SCIP's memory share."""
    import pickle

    import pgmpy_nml.search.candidates._solver as solver_module

    settings = []
    launch, solve = pf._launch, solver_module._solve

    def recording(engine, task, out):
        with open(task, "rb") as stream:
            settings.append(pickle.load(stream)[1])
        return launch(engine, task, out)

    def solving(candidates, initial, time_limit, gap_limit, seed, *args, **kwargs):
        settings.append(dict(kwargs, seed=seed, mine=True))
        return solve(candidates, initial, time_limit, gap_limit, seed, *args, **kwargs)

    monkeypatch.setattr(pf, "_launch", recording)
    monkeypatch.setattr(solver_module, "_solve", solving)
    cands = _hard(1)
    result = pf.portfolio(cands, method="solver|solver", show_progress=False, seed=4)
    assert set(result.timings) <= {"solver", "solver (second)", "portfolio"}
    pf.portfolio(cands, method="astar|solver", show_progress=False, seed=4)
    share = pytest.approx(0.5 * solver_module._SCIP_MEMORY_SHARE)  # two solvers share it
    facts = [(s["seed"], s["bound_first"], s["memory_share"], "mine" in s) for s in settings]
    assert facts == [(4, False, share, False), (5, True, share, True), (4, False, None, False)]


def test_an_error_in_a_child_reaches_the_caller(launched):
    # A and B each need the other as a parent: no DAG (A* says so, the solver is killed)
    cycle = CandidateParentSets.from_dict(
        {"A": {("B",): -1.0}, "B": {("A",): -1.0}, "C": {(): -1.0}}
    )
    with pytest.raises(ValueError, match="No DAG can be built"):
        pf.portfolio(cycle, show_progress=False)
    assert _all_reaped(launched)


def test_candidates_without_a_dag_are_refused_and_the_child_ended(launched):
    # no variable keeps the empty set: refused while the other process starts
    none = CandidateParentSets.from_dict({"A": {("B",): -1.0}, "B": {("A",): -1.0}})
    with pytest.raises(ValueError, match="No DAG can be built"):
        pf.portfolio(none, method="order|solver", show_progress=False)
    assert _all_reaped(launched)


def test_exact_search_runs_the_portfolio(random_data):
    data = random_data(300, 7, 3)
    both = ExactSearch("bdeu", method="astar|solver", max_parents=2, show_progress=False)
    both = both.fit(data)
    dp = ExactSearch("bdeu", method="dp", max_parents=2, show_progress=False).fit(data)
    assert both.method_ == "astar|solver" and both.optimal_
    assert both.score_ == pytest.approx(dp.score_, rel=1e-9)
    assert {"candidate parent sets", "portfolio"} <= set(both.timings_)
    two = ExactSearch("bdeu", method="solver|solver", max_parents=2, show_progress=False)
    two = two.fit(data)
    assert two.method_ == "solver|solver" and two.optimal_
    assert two.score_ == pytest.approx(dp.score_, rel=1e-9)
    for search in (both, two):  # who found the network, who proved it
        engines = search.engines_
        assert engines and set(engines) <= set(search.timings_)
        assert max(e["score"] for e in engines.values()) == search.score_
        assert all(e["score"] <= e["bound"] + 1e-9 * abs(e["bound"]) for e in engines.values())
        assert any(e["status"] == "optimal" for e in engines.values())
    assert dp.engines_ is None


@pytest.mark.parametrize("automatic", [True, False])
def test_very_many_candidates_take_the_order_search_beside_the_solver(
    random_data, monkeypatch, automatic
):
    """When SCIP's model over every candidate would not fit (here: never), the automatic
    method's portfolio is the order search beside the bound-first solver, with the same
    optimum; a portfolio the user named is kept."""
    from pgmpy_nml.search.candidates import _solver
    from pgmpy_nml.search.candidates._pipeline import _too_many

    monkeypatch.setattr(_solver, "_model_limit", lambda *args: "memorylimit")
    result, optimum = _two_solvers_and_the_dp(random_data, automatic)
    assert result.method == ("order|solver" if automatic else "solver|solver")
    assert result.status == "optimal" and result.score == pytest.approx(optimum, rel=1e-9)
    if automatic:
        assert {"order", "solver", "portfolio"} <= set(result.timings)
    monkeypatch.undo()
    assert not _too_many(CandidateParentSets.from_dict({"A": {(): -1.0}}), 600.0)
    many = {f"X{i}": {(): -1.0, **{(f"X{j}",): -0.5 for j in range(i)}} for i in range(450)}
    many = CandidateParentSets.from_dict(many)  # 101,475 candidates: 812 MB at 8 kB each
    monkeypatch.setattr(_solver, "available_memory", lambda: 10**9)  # 40%: 400 MB
    assert _too_many(many, None) and _too_many(many, 6.0)
    monkeypatch.setattr(_solver, "available_memory", lambda: 4 * 10**9)  # 40%: 1.6 GB
    assert not _too_many(many, None) and _too_many(many, 6.0)  # 3.6 s: over half of 6 s


def _per_variable(n_variables, each):
    """``n_variables`` variables with ``each`` candidates apiece: the empty set and
    ``each - 1`` sets of one or two of the others."""
    from itertools import chain, combinations, islice

    names = [f"X{i}" for i in range(n_variables)]
    local = {}
    for child in names:
        others = [v for v in names if v != child]
        sets = islice(chain(combinations(others, 1), combinations(others, 2)), each - 1)
        local[child] = {(): -1.0, **{s: -1.0 + 1e-4 * (k + 1) for k, s in enumerate(sets)}}
    return CandidateParentSets.from_dict(local)


def test_two_solvers_over_many_priced_candidates_become_the_order_search(monkeypatch):
    """The automatic ``"solver|solver"`` is ``"order|solver"`` from
    ``ORDER_MIN_CANDIDATES`` candidates on, where the bound-first solver prices its
    root or has too many candidates for SCIP's model; below either threshold, and for
    ``"astar|solver"`` whatever the candidates (its solver prices by itself), it stays."""
    from pgmpy_nml.search.candidates import _pipeline
    from pgmpy_nml.search.candidates._pricing import PRICING_MIN_PER_VARIABLE

    monkeypatch.setattr(_pipeline, "ORDER_MIN_CANDIDATES", 1_500)
    each = PRICING_MIN_PER_VARIABLE  # 20 x 100 = 2,000: the solver prices (per variable)
    priced, unpriced = _per_variable(20, each), _per_variable(20, each - 1)
    assert int(priced.n_candidates().sum()) == 2_000
    assert _pipeline._order_instead(priced, "solver|solver", 600.0)
    assert not _pipeline._order_instead(priced, "astar|solver", 600.0)
    assert not _pipeline._order_instead(priced, "solver", 600.0)
    assert not _pipeline._order_instead(unpriced, "solver|solver", 600.0)  # 1,980: no pricing
    monkeypatch.setattr(_pipeline, "ORDER_MIN_CANDIDATES", 2_001)
    assert not _pipeline._order_instead(priced, "solver|solver", 600.0)
    monkeypatch.setattr(_pipeline, "_too_many", lambda *args: True)
    assert _pipeline._order_instead(unpriced, "solver|solver", 600.0)
    assert not _pipeline._order_instead(unpriced, "astar|solver", 600.0)
    assert not _pipeline._order_instead(unpriced, "solver", 600.0)


def _alive(pid):
    """Whether process ``pid`` runs (a zombie counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _orphaned_solver(tmp_path, before_kill):
    """A parent process launches the portfolio's solver process on a hard instance (about
    12 s alone), ``before_kill(pid, out)`` runs, the parent is killed outright (SIGKILL,
    as when a notebook's kernel restarts), and the solver's process id and report path
    are returned. The parent is killed whatever happens."""
    import pickle
    import signal

    task, out = tmp_path / "task.pkl", tmp_path / "solver"
    settings = {"deadline": None, "initial": None, "show_progress": False, "gap_limit": 0.0}
    settings.update(seed=0, bound_first=False, memory_share=None)
    with open(task, "wb") as stream:  # a hard instance: the solver runs for long
        pickle.dump((_hard(0, n=60, k=150), settings), stream)
    code = (
        "import sys, time; from pgmpy_nml.search.candidates import _portfolio as pf; "
        f"child = pf._launch('solver', {str(task)!r}, {str(out)!r}); "
        "print(child.pid, flush=True); time.sleep(600)"
    )
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        pid = int(parent.stdout.readline())
        before_kill(pid, out)
    finally:
        parent.send_signal(signal.SIGKILL)
        parent.wait()
    return pid, out


def _ends_by_itself(pid, out, seconds):
    deadline = time.time() + seconds
    while _alive(pid) and time.time() < deadline:
        time.sleep(0.2)
    assert not _alive(pid)
    assert not out.exists()  # it ended by itself, not by finishing its search


@pytest.mark.long
def test_the_solver_process_ends_when_its_parent_is_killed(tmp_path):
    """A parent killed outright cannot kill its child: the child watches for it and ends
    by itself."""

    def solving(pid, out):
        time.sleep(3)
        assert _alive(pid) and not out.exists()  # still solving

    _ends_by_itself(*_orphaned_solver(tmp_path, solving), seconds=20)


@pytest.mark.long
def test_the_solver_process_ends_when_its_parent_dies_while_it_starts(tmp_path):
    """A parent killed before its child has even imported its modules: the child learns
    its parent's id from the command line, not from ``os.getppid()`` (by then the
    process it was handed to), and ends."""
    _ends_by_itself(*_orphaned_solver(tmp_path, lambda pid, out: None), seconds=60)


def test_the_last_progress_line_is_the_combined_result(capsys, monkeypatch):
    """Each engine prints its own lines; the last one is the portfolio's, and agrees with
    the result (issue 17: the display's last line and the summary agree)."""
    monkeypatch.setenv("PGMPY_NML_PROGRESS_SECONDS", "0")
    cands = _hard(3)
    result = pf.portfolio(cands, time_limit=0.5, show_progress=True)
    lines = [line for line in capsys.readouterr().err.splitlines() if "exact search" in line]
    last = lines[-1]
    assert last.startswith("exact search (A* and the solver)") and last.endswith(")")
    assert float(last.split("gap ")[1].split("%")[0]) == pytest.approx(100 * result.gap, abs=1e-4)
    assert f"network by {result.engine}" in last


@pytest.mark.long
def test_two_solvers_speak_in_one_line(capfd, monkeypatch):
    """``"solver|solver"``: one line for the two (issue 34: they printed interleaved lines
    on two clocks), with the best network and the best bound of both and which solver
    has each, and the other process writes none; the last line is the combined result."""
    monkeypatch.setenv("PGMPY_NML_PROGRESS_SECONDS", "0")
    cands = _hard(0, n=60, k=150)  # about 12 s for one solver: both report before the limit
    result = pf.portfolio(cands, method="solver|solver", time_limit=4.0, show_progress=True)
    lines = [line for line in capfd.readouterr().err.splitlines() if "exact search" in line]
    assert all(line.startswith("exact search (two solvers): ") for line in lines), lines
    assert not any("nodes" in line for line in lines)
    named = [line for line in lines if "(best network: solver" in line]
    assert named and all("best bound: solver " in line for line in named)
    last = lines[-1]
    assert last.startswith("exact search (two solvers)")
    assert float(last.split("gap ")[1].split("%")[0]) == pytest.approx(100 * result.gap, abs=1e-4)


def test_the_one_line_takes_the_best_of_both_engines(tmp_path):
    """The line's numbers: the better network and the smaller bound, whichever engine has
    each (the other process's from its status file), and the gap between them."""
    status = tmp_path / "status"
    race = pf._Race(False, "exact search (A* and the solver)", ("A*", "solver"), str(status))
    assert race.text() == "starting both engines"
    race.report(-105.0, -96.0)
    assert race.text().endswith("(best network: A*; best bound: A*)")
    status.write_text(f"{-101.0!r} {-95.0!r}")
    race._read_at = -float("inf")  # read now
    text = race.text()
    assert text.startswith("score -101  bound -96  gap 4.9505%")
    assert text.endswith("(best network: solver; best bound: A*)")
    status.write_text("half a line")  # being replaced: the last numbers stay
    race._read_at = -float("inf")
    assert race.text() == text
    writer = pf._Status(str(tmp_path / "other"))
    writer.report(-7.5, -7.25)
    assert (tmp_path / "other").read_text().split() == ["-7.5", "-7.25"]


@pytest.mark.parametrize("stage", ["INITSOLVE", "EXITSOLVE", "PRESOLVING", "SOLVING"])
@pytest.mark.parametrize("finished", [False, True])
def test_the_stop_handler_interrupts_only_where_scip_takes_it(stage, finished):
    """SCIP refuses an interrupt while it initializes the solve (an error that ended a
    whole run on pathfinder with 3 parents): the handler then waits for the next event."""
    from pyscipopt import SCIP_STAGE

    from pgmpy_nml.search.candidates import _scip_plugins as plugins

    class Model:
        interrupted = 0

        def getStage(self):
            return getattr(SCIP_STAGE, stage)

        def interruptSolve(self):
            self.interrupted += 1

    asked, model = [], Model()
    takes = stage in ("PRESOLVING", "SOLVING")
    assert plugins._interrupt_if(model, lambda: asked.append(1) or finished) is takes
    assert len(asked) == int(takes)
    assert model.interrupted == int(takes and finished)
