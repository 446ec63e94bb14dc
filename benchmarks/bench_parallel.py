"""What the second core buys: ``n_jobs=2`` against ``n_jobs=1``, with the same result.

Run (about ten minutes; drawing the 10^5-row samples takes a minute once)::

    python benchmarks/bench_parallel.py                     # every case, 3 repetitions
    python benchmarks/bench_parallel.py --cases local bootstrap --reps 2
    python benchmarks/bench_parallel.py --networks alarm andes pigs

Data: ``pgmpy_nml.datasets.sample_network(name, N, random_state=0)``, drawn once and
cached as pickles (``--cache``, default a temporary folder) before any clock starts.

Every measurement runs in a fresh process (``--child``) that loads its data, warms
up in this process (a small fit of the same kind with ``n_jobs=1``: the compiled
kernels are loaded, worker processes are not started), then times one call:

- ``local``: ``LocalSearch(BDeu(data, equivalent_sample_size=1), method="hill",
  n_jobs=j)`` on alarm and andes (``--networks``) at N = 5000 and 100000; the score is
  built before the clock starts (its encoding is single-threaded and the same for
  both), its time printed beside. ``n_jobs`` is the threads of the compiled counting.
  Same result: the score and the edges.
- ``candidates``: ``candidate_parent_sets(FNML(data), max_parents=3, n_jobs=j)`` on
  alarm and hepar2, N = 1000 (threads of the compiled subset counting; the score
  built before the clock). Same result: every variable's parent sets and the bit
  patterns of their scores.
- ``bootstrap``: ``bootstrap_strength(data, method="hill", n_bootstrap=20,
  random_state=0, n_jobs=j)`` on alarm, N = 1000 (joblib's processes; fNML).
  Same result: the strength table.
- ``cv``: ``cross_validate(data, method="hill", k=5, random_state=0, n_jobs=j)`` on
  alarm, N = 1000 (joblib's processes; fNML). Same result: the losses, edges and
  parameters of the folds.

For the two joblib cases the child times the call twice: first as a script's first
call (worker processes, if the call uses them, still to start: each imports pgmpy and
loads the compiled kernels), then again (``..., started`` rows: a later call in the
same session, with the workers of the first call running).

Each process prints its wall time (``time.perf_counter``) and CPU time: its own
(``time.process_time``, every thread) plus that of its worker processes (``psutil``,
summed over the live children before and after the call). BLAS and OpenMP use one
thread; numba's threads are left at the number of cores. The machine is shared and a
second thread only helps when a core is free, so before each call the child records
the load average (1 minute) and the share of the machine's CPU busy in the preceding
0.5 s (``psutil.cpu_percent``), and the parent first waits up to ``--max-wait``
seconds (20) for the machine to be under ``--quiet-below`` % busy (30).

The repetitions run interleaved (every case and ``n_jobs`` once, then again); the
table gives the fastest wall time of each setting with its CPU time, the speed-up
``wall(n_jobs=1) / wall(n_jobs=2)``, and the load and busy share before those two
runs (the higher of each). A result that differs between ``n_jobs=1`` and
``n_jobs=2`` (or between repetitions) stops the run.
"""

from __future__ import annotations

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"  # numba's threads (the candidate counting) stay at the cores

import argparse  # noqa: E402
import hashlib  # noqa: E402
import json  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

CASES = ["local", "candidates", "bootstrap", "cv"]


def _sample(network: str, rows: int, cache: Path):
    import pandas as pd

    from pgmpy_nml.datasets import sample_network

    path = cache / f"{network}_{rows}.pkl"
    if path.exists():
        return pd.read_pickle(path)
    _, data = sample_network(network, rows, random_state=0)
    cache.mkdir(parents=True, exist_ok=True)
    data.to_pickle(path)
    return data


def _digest(*parts) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part if isinstance(part, bytes) else repr(part).encode())
    return h.hexdigest()[:16]


def _children_cpu() -> float:
    import psutil

    total = 0.0
    for child in psutil.Process().children(recursive=True):
        try:
            t = child.cpu_times()
        except psutil.NoSuchProcess:
            continue
        total += t.user + t.system
    return total


def _machine() -> dict:
    import psutil

    return {"load": os.getloadavg()[0], "busy": psutil.cpu_percent(interval=0.5)}


def _timed(call) -> dict:
    out = _machine()
    children = _children_cpu()
    cpu, wall = time.process_time(), time.perf_counter()
    digest, *extra = call()
    out.update(wall=time.perf_counter() - wall, cpu=time.process_time() - cpu)
    out.update(workers_cpu=_children_cpu() - children, digest=digest, **dict(extra))
    return out


def _local(data, n_jobs):
    from pgmpy_nml import BDeu, LocalSearch

    start = time.perf_counter()
    score = BDeu(data, equivalent_sample_size=1.0)
    built = time.perf_counter() - start

    def call():
        search = LocalSearch(score, method="hill", n_jobs=n_jobs, show_progress=False).fit()
        return (_digest(float(search.score_).hex(), sorted(search.causal_graph_.edges())),)

    return [dict(_timed(call), build=built)]


def _candidates(data, n_jobs):
    from pgmpy_nml import FNML
    from pgmpy_nml.search.candidates import candidate_parent_sets

    score = FNML(data)

    def call():
        candidates, report = candidate_parent_sets(score, max_parents=3, n_jobs=n_jobs)
        parts = [candidates.variables]
        for v in range(len(candidates.variables)):
            parts += [candidates.parent_sets[v], candidates.scores[v].tobytes()]
        return _digest(*parts), ("phases", report.timings)

    return [_timed(call)]


def _bootstrap(data, n_jobs):
    from pgmpy_nml.study import bootstrap_strength

    def call():
        frame = bootstrap_strength(
            data, method="hill", n_bootstrap=20, random_state=0, n_jobs=n_jobs
        )
        return (_digest(frame.to_csv().encode()),)

    return [_timed(call), _timed(call)]


def _cv(data, n_jobs):
    from pgmpy_nml.study import cross_validate

    def call():
        result = cross_validate(data, method="hill", k=5, random_state=0, n_jobs=n_jobs)
        folds = result.folds.drop(columns="seconds")
        return (_digest(folds.to_csv().encode()),)

    return [_timed(call), _timed(call)]


def _warm_up(case: str) -> None:
    """The same kind of call, small and with one worker: loads the compiled kernels."""
    from pgmpy_nml import FNML, BDeu, LocalSearch
    from pgmpy_nml.datasets import sample_network
    from pgmpy_nml.search.candidates import candidate_parent_sets
    from pgmpy_nml.study import bootstrap_strength, cross_validate

    _, small = sample_network("asia", 1000, random_state=0)
    if case == "local":
        LocalSearch(BDeu(small), method="hill", n_jobs=2, show_progress=False).fit()
    elif case == "candidates":
        candidate_parent_sets(FNML(small), max_parents=3, n_jobs=2)
    elif case == "bootstrap":
        bootstrap_strength(small, method="hill", n_bootstrap=2, random_state=0, n_jobs=1)
    else:
        cross_validate(small, method="hill", k=2, random_state=0, n_jobs=1)


RUNNERS = {"local": _local, "candidates": _candidates, "bootstrap": _bootstrap, "cv": _cv}


def child(args) -> None:
    data = _sample(args.network, args.rows, args.cache)
    _warm_up(args.case)
    print(json.dumps(RUNNERS[args.case](data, args.n_jobs)))


def targets(args) -> list:
    out = []
    if "local" in args.cases:
        out += [("local", net, n) for n in (5000, 100000) for net in args.networks]
    if "candidates" in args.cases:
        out += [("candidates", net, 1000) for net in ("alarm", "hepar2")]
    out += [(case, "alarm", 1000) for case in ("bootstrap", "cv") if case in args.cases]
    return out


def wait_quiet(args) -> None:
    """Wait (at most ``--max-wait`` s) until under ``--quiet-below`` % of the CPU is busy."""
    import psutil

    deadline = time.monotonic() + args.max_wait
    while psutil.cpu_percent(interval=1.0) >= args.quiet_below and time.monotonic() < deadline:
        pass


def run_child(args, case, network, rows, n_jobs) -> list:
    wait_quiet(args)
    command = [sys.executable, __file__, "--child", "--case", case, "--network", network]
    command += ["--rows", str(rows), "--n-jobs", str(n_jobs), "--cache", str(args.cache)]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{case} {network} {rows} n_jobs={n_jobs}:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _row(label, runs) -> str:
    one, two = min(runs[1], key=lambda r: r["wall"]), min(runs[2], key=lambda r: r["wall"])
    load, busy = max(one["load"], two["load"]), max(one["busy"], two["busy"])

    def cell(r):
        cpu = r["cpu"] + r["workers_cpu"]
        return f"{r['wall']:.2f} s ({cpu:.2f})"

    built = f" (score built in {one['build']:.2f} s)" if "build" in one else ""
    return (
        f"| {label}{built} | {cell(one)} | {cell(two)} | {one['wall'] / two['wall']:.2f} | "
        f"{load:.1f} ({busy:.0f}%) |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="+", default=CASES, choices=CASES)
    parser.add_argument("--networks", nargs="+", default=["alarm", "andes"])
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--quiet-below", type=float, default=30.0, help="busy %% to wait for")
    parser.add_argument("--max-wait", type=float, default=20.0, help="seconds, per run")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--case", help=argparse.SUPPRESS)
    parser.add_argument("--network", help=argparse.SUPPRESS)
    parser.add_argument("--rows", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--n-jobs", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args)
        return
    if args.cache is None:
        args.cache = Path(tempfile.mkdtemp(prefix="bench_parallel_"))
    work = targets(args)
    for _, network, rows in work:
        _sample(network, rows, args.cache)
    runs: dict = {}
    for rep in range(args.reps):
        for case, network, rows in work:
            for n_jobs in (1, 2):
                for i, out in enumerate(run_child(args, case, network, rows, n_jobs)):
                    key = (case, network, rows, i)
                    runs.setdefault(key, {1: [], 2: []})[n_jobs].append(out)
                    print(f"# rep {rep} {key} n_jobs={n_jobs}: {json.dumps(out)}", flush=True)
    print("\n| case | n_jobs=1 wall (CPU) | n_jobs=2 wall (CPU) | speed-up | load (busy) |")
    print("|---|---|---|---|---|")
    for (case, network, rows, i), by_jobs in runs.items():
        digests = {r["digest"] for j in (1, 2) for r in by_jobs[j]}
        if len(digests) != 1:
            sys.exit(f"{case} {network} N={rows}: the results differ: {sorted(digests)}")
        label = f"{case} {network} N={rows}" + (", started" if i else "")
        print(_row(label, by_jobs), flush=True)


if __name__ == "__main__":
    main()
