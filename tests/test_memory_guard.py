"""The memory promise of the exact search (issue 17): a run that would not fit ends with
a clear SearchMemoryError before allocating, never an OS kill.

- the candidate search's estimate of each step (``_budget``) is at least what the
  step really allocates (traced peak), on many random problems and every score;
- with little memory available, a problem that needs more is refused before its
  large allocations, and the command line prints the advice (exit code 2);
- SCIP gets a memory limit: a search that outgrows it stops like a time limit does.
"""

from __future__ import annotations

import json
import resource
import sys
import tracemalloc
import warnings
from pathlib import Path

import numpy as np
import pytest
from _promises import assert_sound_result

from pgmpy_nml import FNML, ExactSearch
from pgmpy_nml._memory import available_memory
from pgmpy_nml.exceptions import SearchMemoryError
from pgmpy_nml.scores.registry import make_score, score_names
from pgmpy_nml.search.candidates import (
    _budget,
    _final,
    _solver,
    _tasks,
    candidate_parent_sets,
    solve,
)

#: scores scored by local_score (no bulk counting: the budget does not apply)
GENERIC = {"min-bdeu", "max-bdeu", "bds", "nal", "pnal"}
STATISTIC_SCORES = [name for name in score_names() if name not in GENERIC]


def step_peaks(score, **options) -> list[tuple[int, int]]:
    """``(estimate, traced peak)`` of every checked step of the candidate search of
    ``score``: the peak is what was allocated from the check until the next one (or
    the end of the task), above what was held at the check."""
    out: list[tuple[int, int]] = []
    state: dict = {}
    check, run = _budget.check, _tasks._Task.run

    def close():
        if state:
            out.append((state["need"], tracemalloc.get_traced_memory()[1] - state["held"]))
            state.clear()

    def spy(need, what, constraints):
        close()
        check(need, what, constraints)
        state["need"] = need
        tracemalloc.reset_peak()
        state["held"] = tracemalloc.get_traced_memory()[0]

    def spy_run(self, show_progress, deadline=None):
        run(self, show_progress, deadline)
        close()

    _budget.check, _tasks._Task.run = spy, spy_run
    tracemalloc.start()
    try:
        candidate_parent_sets(score, **options)
    finally:
        tracemalloc.stop()
        _budget.check, _tasks._Task.run = check, run
    return out


def _score(name, data):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return make_score(name, data)


@pytest.fixture(scope="module")
def warm(random_data):
    """Each score run once: one-time imports and compiled-code loading are not a step's."""
    for name in STATISTIC_SCORES:
        candidate_parent_sets(_score(name, random_data(30, 4, 0)), max_parents=2)


@pytest.mark.parametrize("seed", range(24))
def test_the_estimate_bounds_every_step(seed, random_data, warm):
    rng = np.random.default_rng(seed)
    n_vars = int(rng.integers(3, 13))
    n_rows = int(rng.choice([5, 20, 100, 1000, 5000]))
    name = STATISTIC_SCORES[seed % len(STATISTIC_SCORES)]
    max_parents = [None, None, 1, 2, 3][int(rng.integers(0, 5))]
    data = random_data(n_rows, n_vars, int(rng.integers(1 << 30)), max_arity=4)
    steps = step_peaks(_score(name, data), max_parents=max_parents)
    assert steps
    over = [(need, peak) for need, peak in steps if peak > need]
    assert not over, f"{name}, {n_vars} variables, {n_rows} rows, p={max_parents}: {over}"


@pytest.mark.long
@pytest.mark.parametrize(
    ("name", "n_vars", "n_rows", "max_parents"),
    [("fnml", 18, 20, None), ("fnml", 16, 200, None), ("qnml", 16, 50, None),
     ("bic-d", 16, 2000, None), ("bdeu", 24, 30, 3), ("k2", 40, 200, 2)],
)  # fmt: skip
def test_the_estimate_bounds_large_levels(
    name, n_vars, n_rows, max_parents, random_data, warm, monkeypatch
):
    """Levels of tens of thousands of sets, where the per-set terms dominate: level by
    level (the last one too), then with the last level compiled in blocks."""
    score = _score(name, random_data(n_rows, n_vars, 7))
    monkeypatch.setattr(_final, "ENABLED", False)
    steps = step_peaks(score, max_parents=max_parents)
    assert max(peak for _, peak in steps) > 1 << 21  # a real test of the per-set terms
    assert all(p <= n for n, p in steps), steps
    monkeypatch.setattr(_final, "ENABLED", True)
    steps = step_peaks(score, max_parents=max_parents)
    assert all(p <= n for n, p in steps), steps


def test_the_estimate_bounds_the_compiled_last_level(random_data, warm, monkeypatch):
    """Blocks of the last level smaller than its sets: the buffers and the score's arrays
    of a block stay within :func:`_final.block_bytes` (what numba allocates is not
    traced, and is counted apart)."""
    monkeypatch.setattr(_final, "BLOCK", 5000)
    score = _score("fnml", random_data(300, 30, 3, max_arity=2))
    steps = step_peaks(score, max_parents=3)
    assert max(peak for _, peak in steps) > 1 << 20
    assert all(p <= n for n, p in steps), steps


def test_a_problem_that_does_not_fit_is_refused_before_allocating(monkeypatch, random_data):
    """With 200 MB in all (what the search holds is no longer available, as on a real
    machine), a search whose bounds do not stop it is refused at the step that would
    not fit, and never holds more than there is."""
    score = FNML(random_data(20, 24, 0, max_arity=2))  # weak bounds, no parent limit
    total = 200 << 20
    steps = []
    check = _budget.check

    def spy(need, what, constraints):
        steps.append(need)
        check(need, what, constraints)

    monkeypatch.setattr(_budget, "check", spy)
    tracemalloc.start()
    try:
        monkeypatch.setattr(
            _budget, "available_memory", lambda: total - tracemalloc.get_traced_memory()[0]
        )
        with pytest.raises(SearchMemoryError, match="max_parents") as err:
            candidate_parent_sets(score)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(steps) > 10 and steps[-1] > _budget.MEMORY_SHARE * (total - peak) / 2
    assert peak < total  # refused before the step that would not fit allocated
    assert err.value.limit_parameter is None  # only a smaller problem helps
    message = str(err.value)
    assert "parent sets of size" in message and "is available to it" in message
    assert "Give max_parents (3 or 4 is usual)" in message  # no limit was given


def test_the_exact_search_passes_the_refusal_on(monkeypatch, random_data):
    monkeypatch.setattr(_budget, "available_memory", lambda: 0)
    data = random_data(20, 8, 0)
    search = ExactSearch("fnml", method="solver", max_parents=3, show_progress=False)
    with pytest.raises(SearchMemoryError, match="max_parents"):
        search.fit(data)


def test_available_memory_counts_the_address_space_limit():
    import subprocess

    code = (
        "import resource\n"
        "from pgmpy_nml._memory import available_memory\n"
        "resource.setrlimit(resource.RLIMIT_AS, (3 << 30, resource.RLIM_INFINITY))\n"
        "print(available_memory())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert 0 < int(out.stdout) < 3 << 30
    assert available_memory() > 0


@pytest.mark.long
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc")
def test_the_cli_prints_the_advice_when_the_pruning_would_not_fit(tmp_path, random_data):
    """Under ``ulimit -v``, the console script refuses with the advice, exit code 2 (no
    raw MemoryError, no kill)."""
    import subprocess

    random_data(10, 100, 0, max_arity=2).to_csv(tmp_path / "data.csv", index=False)
    script = Path(sys.executable).with_name("pgmpy-nml")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "pgmpy_nml"]
    # the interpreter, numpy, numba and pgmpy take about 2-3 GB of address space; the
    # parent sets of size 3 need about 4 GB more
    limit = 5 << 30

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    result = subprocess.run(
        [*command, "learn", tmp_path / "data.csv", "--method", "solver", "--max-parents", "4"],
        capture_output=True,
        text=True,
        timeout=600,
        preexec_fn=cap,
    )
    assert result.returncode == 2, result.stderr[-2000:]
    message = result.stderr.strip().splitlines()[-1]
    assert "candidate search would need" in message and "below 4" in message
    assert "--max-parents" in message and "Traceback" not in result.stderr


def test_scip_stops_at_its_memory_limit_with_a_sound_bound(monkeypatch, random_data):
    candidates, _ = candidate_parent_sets(FNML(random_data(300, 12, 3)), max_parents=2)
    monkeypatch.setattr(_solver, "available_memory", lambda: 0)  # SCIP gets what it holds
    result = solve(candidates, show_progress=False)
    assert result.status == "memorylimit"
    assert result.optimal is False
    assert_sound_result(result, candidates)


def test_scip_gets_a_memory_limit(monkeypatch, random_data):
    seen = {}
    original = _solver._memory_limit_mb

    def spy(model, share):
        seen["limit"] = original(model, share)
        seen["share"] = share
        return seen["limit"]

    monkeypatch.setattr(_solver, "_memory_limit_mb", spy)
    candidates, _ = candidate_parent_sets(FNML(random_data(200, 6, 1)), max_parents=2)
    result = solve(candidates, show_progress=False)
    assert result.optimal
    assert 0 < seen["limit"] <= available_memory() / 2**20 + 1024
    assert seen["share"] == _solver._SCIP_MEMORY_SHARE


def test_exact_search_and_the_cli_say_the_search_ended_on_memory(
    monkeypatch, random_data, tmp_path, capsys
):
    """``status_`` says why the search ended, and ``learn`` gives the advice that fits a
    memory limit (it said "when --time-limit ran out" before)."""
    from pgmpy_nml.cli import main

    data = random_data(300, 12, 3)
    dp = ExactSearch("fnml", method="dp", max_parents=2, show_progress=False).fit(data)
    assert dp.status_ == "optimal"
    monkeypatch.setattr(_solver, "available_memory", lambda: 0)
    search = ExactSearch("fnml", method="solver", max_parents=2, show_progress=False).fit(data)
    assert search.status_ == "memorylimit" and not search.optimal_
    path = tmp_path / "data.csv"
    data.to_csv(path, index=False)
    summary = tmp_path / "summary.json"
    code = main(
        ["learn", str(path), "--method", "solver", "--max-parents", "2", "--json", str(summary)]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "reached the memory available" in out and "ran out" not in out
    assert json.loads(summary.read_text())["status"] == "memorylimit"
