"""Where the study tools' fits run: in this process or on joblib's worker processes.

The bootstrap and cross-validation learn one network per resample or split:
independent tasks, run through joblib. joblib's default backend (loky) runs them in
worker processes, and each worker first imports pgmpy and loads the compiled
kernels, about 3 s of CPU per worker. With fits of a few hundredths of a second
that start-up is all there is: ``bootstrap_strength`` of alarm (N = 1000, 20
resamples, hill climbing) took 10.0 s with ``n_jobs=2`` against 0.74 s with one
(``benchmarks/bench_parallel.py``).

The one rule (:func:`run_tasks`): when the tasks would go to worker processes
started on this machine (joblib's ``loky`` or ``multiprocessing`` backend and more
than one worker), the first task runs here and is timed; the others run here too
when their estimated time (their number times the first one's) is under
:data:`MIN_PARALLEL_SECONDS`, and on the workers otherwise. Threads and other
backends (``joblib.parallel_config(backend="dask")``, ...) get every task as asked.
The tasks are independent and their results come back in order, so the result is
the same wherever they ran.
"""

from __future__ import annotations

import time

__all__ = ["MIN_PARALLEL_SECONDS", "run_tasks"]

#: Estimated seconds of the remaining tasks below which they run in this process
#: rather than on worker processes that still cost ~3 s each to start (twice the
#: break-even of two workers, so that the parallel runs it allows gain at least ~1.3x).
MIN_PARALLEL_SECONDS = 10.0


def _process_workers(n_jobs: int | None) -> bool:
    """Whether joblib would run ``n_jobs`` on several local worker processes."""
    from joblib import effective_n_jobs
    from joblib.parallel import BACKENDS, get_active_backend

    backend, _ = get_active_backend()
    local = tuple(BACKENDS[name] for name in ("loky", "multiprocessing") if name in BACKENDS)
    return isinstance(backend, local) and effective_n_jobs(n_jobs) > 1


def run_tasks(tasks, n_tasks: int, n_jobs: int | None, progress) -> list:
    """Run the ``n_tasks`` joblib ``tasks`` (``delayed`` calls, an iterable: joblib
    builds the later ones as workers free up) with ``n_jobs`` workers, in order,
    counting each finished one on ``progress``; returns their results.

    With local worker processes, the first task runs here, and the rest too when
    they would take less than :data:`MIN_PARALLEL_SECONDS` by its time (see the
    module notes).
    """
    from joblib import Parallel

    tasks = iter(tasks)
    results = []
    if n_tasks > 0 and _process_workers(n_jobs):
        func, args, kwargs = next(tasks)
        start = time.perf_counter()
        results.append(func(*args, **kwargs))
        progress.update()
        if (time.perf_counter() - start) * (n_tasks - 1) < MIN_PARALLEL_SECONDS:
            n_jobs = 1
    for result in Parallel(n_jobs=n_jobs, return_as="generator")(tasks):
        results.append(result)
        progress.update()
    return results
