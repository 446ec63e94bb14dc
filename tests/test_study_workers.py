"""Where the study tools' fits run (pgmpy_nml.study._workers): this process or workers.

Tasks report the process and thread they ran on; the rule is checked on both sides
of its threshold, with joblib's default process backend and with threads.
"""

import os
import threading
import time

import pytest
from joblib import delayed, parallel_config

from pgmpy_nml._progress import Progress
from pgmpy_nml.study import _workers
from pgmpy_nml.study._workers import run_tasks


def _where(i, seconds=0.0):
    time.sleep(seconds)
    return i, os.getpid(), threading.get_ident()


def _run(n, n_jobs, seconds=0.0):
    with Progress(n, "test", "tasks", show=False) as progress:
        out = run_tasks((delayed(_where)(i, seconds) for i in range(n)), n, n_jobs, progress)
        assert progress.done == n
    assert [i for i, _, _ in out] == list(range(n))  # every task, in order
    return out


def test_short_tasks_stay_in_this_process():
    # n_jobs=2 on joblib's processes: 8 tasks of microseconds would wait ~3 s per
    # worker start-up, so all of them run here
    out = _run(8, 2)
    assert {pid for _, pid, _ in out} == {os.getpid()}


def test_long_tasks_go_to_worker_processes(monkeypatch):
    # the first task runs here and is timed; the rest, estimated above the threshold,
    # go to the workers
    monkeypatch.setattr(_workers, "MIN_PARALLEL_SECONDS", 0.05)
    out = _run(6, 2, seconds=0.02)
    assert out[0][1] == os.getpid()
    assert all(pid != os.getpid() for _, pid, _ in out[1:])


def test_the_estimate_is_the_first_task_times_the_others(monkeypatch):
    # 5 others x 0.02 s = 0.1 s: under a 0.15 s threshold, here; over 0.08 s, workers
    monkeypatch.setattr(_workers, "MIN_PARALLEL_SECONDS", 0.15)
    assert {pid for _, pid, _ in _run(6, 2, seconds=0.02)} == {os.getpid()}
    monkeypatch.setattr(_workers, "MIN_PARALLEL_SECONDS", 0.08)
    assert len({pid for _, pid, _ in _run(6, 2, seconds=0.02)}) > 1


@pytest.mark.parametrize("n_jobs", [None, 1])
def test_one_worker_runs_everything_here_without_timing(n_jobs):
    out = _run(3, n_jobs)
    assert {pid for _, pid, _ in out} == {os.getpid()}


def test_threads_and_other_backends_get_every_task_as_asked():
    main = threading.get_ident()
    with parallel_config(backend="threading", n_jobs=2):
        out = _run(4, None)
    assert all(ident != main for _, _, ident in out)  # none ran on the calling thread


def test_no_tasks():
    assert _run(0, 2) == []
