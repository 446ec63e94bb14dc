"""Many rows: hill climbing on 10^6 and 10^7 rows, counted data, Dask partitions.

Run (about ten minutes with the 10^7-row sample cached; drawing it takes five)::

    python benchmarks/bench_scale.py                        # alarm, 10^6 and 10^7 rows
    python benchmarks/bench_scale.py --rows 1000000 --no-dask
    python benchmarks/bench_scale.py --cache /tmp/samples   # keep the samples as pickles

Data: ``pgmpy_nml.datasets.sample_network("alarm", N, random_state=0)`` (pandas categorical
columns, one byte per cell), drawn or read from the cache before any clock starts.
Each fit runs in a fresh process (``--child``) with one thread (numba, BLAS and
OpenMP thread counts set to 1 before anything is imported): it loads the data,
resets the resident-set high-water mark (``/proc/self/clear_refs``) and fits
``LocalSearch(BDeu(data, equivalent_sample_size=1), method="hill")``, the score built
inside the timed region. It prints the CPU time (``time.process_time``) beside the
wall time, the data's own memory (``DataFrame.memory_usage(deep=True)``) and the
fit's extra peak memory: ``VmHWM`` after the fit less ``VmRSS`` before it (Linux).

- ``counted``: the package's default (data of at least 2^17 rows with at most half
  of them distinct are held as distinct rows with counts);
- ``rows``: the same fit with counting switched off (the row-by-row path of
  earlier versions: every cell as an int32 code, row bitsets);
- ``dask``: the data written as ``--partitions`` Parquet files, read with
  ``dask.dataframe.read_parquet`` on a ``LocalCluster`` of two single-threaded
  worker processes; the partitions are counted on the workers, the counts merged on
  the driver, one driver searches. The split: the workers' counting (CPU, summed),
  the compute call's wall time (reading, counting, transfer, scheduling), the
  driver's merge (states agreed, partitions recoded and merged) and the search.
- ``pyagrum``: pyAgrum's greedy hill climbing (BDeu(1), one thread, no in-degree limit)
  on the same sample (samples of at most ``--agrum-rows`` rows), in its own process,
  stopped after ``--agrum-timeout`` seconds; skipped unless ``import pyagrum`` works
  (it is not a dependency: install it in a benchmark environment, see the README).
  The table gives the CPU ratio pyAgrum / ours from the same run.

``--network random5000`` is a generated network of 5,000 variables
(:func:`random_network_sample`: in-degree at most 3, arities 2-4, parents among the
50 variables before each one, Dirichlet(1) tables)::

    python benchmarks/bench_scale.py --network random5000 --rows 5000 --candidates auto

Every run prints the load average (1 minute) before it: the machine is shared.
"""

from __future__ import annotations

import os

for _name in ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"

import argparse  # noqa: E402
import json  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402


def _status(field: str) -> int:
    """A ``/proc/self/status`` field in bytes (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no {field} in /proc/self/status")


def random_network_sample(n_variables: int, rows: int, *, seed: int = 0, max_parents: int = 3):
    """A sample of a random network of ``n_variables`` (the issue's 5,000-variable case).

    Variables ``X0000 .. `` in topological order; arities uniform in 2..4; variable ``j``
    draws its in-degree uniformly in ``0 .. min(j, max_parents)`` and its parents
    uniformly among the 50 variables before it (local structure, as in tiled copies
    of a real network); each row of each conditional probability table is drawn from a
    Dirichlet(1, ..., 1). ``rows`` forward samples, pandas categorical columns (one byte
    per cell). Returns the data and the true number of edges.
    """
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
    arity = rng.integers(2, 5, n_variables)
    codes = np.empty((n_variables, rows), dtype=np.uint8)
    n_edges = 0
    for j in range(n_variables):
        k = int(rng.integers(0, min(j, max_parents) + 1))
        parents = rng.choice(np.arange(max(0, j - 50), j), size=k, replace=False)
        n_edges += k
        config = np.zeros(rows, dtype=np.int64)
        for p in parents:
            config = config * arity[p] + codes[p]
        q = int(np.prod(arity[parents])) if k else 1
        cumulative = np.cumsum(rng.dirichlet(np.ones(arity[j]), size=q), axis=1)
        draw = rng.random(rows)
        codes[j] = np.minimum((draw[:, None] > cumulative[config]).sum(axis=1), arity[j] - 1)
    columns = {
        f"X{j:04d}": pd.Categorical.from_codes(codes[j], categories=range(arity[j]))
        for j in range(n_variables)
    }
    return pd.DataFrame(columns), n_edges


def _sample(network: str, rows: int, cache: Path | None):
    import pandas as pd

    from pgmpy_nml.datasets import sample_network

    path = None if cache is None else cache / f"{network}_{rows}.pkl"
    if path is not None and path.exists():
        return pd.read_pickle(path)
    if network.startswith("random"):  # random5000: a generated network of 5,000 variables
        data, _ = random_network_sample(int(network[len("random") :]), rows)
    else:
        _, data = sample_network(network, rows, random_state=0)
    if path is not None:
        cache.mkdir(parents=True, exist_ok=True)
        data.to_pickle(path)
    return data


def child(args) -> None:
    """One fit in this process; prints one JSON line."""
    import pgmpy_nml._counted as counted
    from pgmpy_nml import BDeu, LocalSearch

    data = _sample(args.network, args.rows, args.cache)
    if args.mode == "rows":
        counted.COUNT_MIN_ROWS = 1 << 62  # counting off: every cell a code
    out = {"data_bytes": int(data.memory_usage(deep=True).sum())}
    timings: dict = {}
    cluster = client = None
    if args.mode == "dask":
        import dask.dataframe as dd
        from dask.distributed import Client, LocalCluster

        folder = Path(tempfile.mkdtemp(prefix="bench_scale_"))
        dd.from_pandas(data, npartitions=args.partitions).to_parquet(folder)
        del data
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True)
        client = Client(cluster)
        data = dd.read_parquet(folder, categories=None)
        from pgmpy_nml import _dask, _frames

        def count_dask(*a, **k):
            return _dask.count_dask(*a, **{**k, "timings": timings})

        _frames.count_dask = count_dask  # the policy's reference: record the split
    # warm-up: load the compiled kernels
    LocalSearch("bdeu", show_progress=False, n_jobs=1).fit(_sample("asia", 1000, None))
    load = os.getloadavg()[0]
    Path("/proc/self/clear_refs").write_text("5")  # reset VmHWM to the current RSS
    rss = _status("VmRSS")
    cpu, wall = time.process_time(), time.perf_counter()
    score = BDeu(data, equivalent_sample_size=1.0)
    built = time.perf_counter() - wall
    search = LocalSearch(
        score, method="hill", n_jobs=1, show_progress=False, candidates=args.candidates
    ).fit()
    out.update(
        cpu=time.process_time() - cpu,
        wall=time.perf_counter() - wall,
        build=built,
        extra_peak=_status("VmHWM") - rss,
        distinct=score.encoded.n_rows,
        counted=score.encoded.counted,
        score=search.score_,
        edges=search.causal_graph_.number_of_edges(),
        load=load,
        dask=timings,
    )
    if client is not None:
        client.close()
        cluster.close()
    print(json.dumps(out))


def run_child(args, mode: str, rows: int) -> dict | None:
    """One fit (``mode``: rows, counted, dask or pyagrum) in a fresh process; its JSON line,
    or None when pyAgrum is missing or ran past ``--agrum-timeout``."""
    command = [sys.executable, __file__, "--child", "--mode", mode, "--rows", str(rows)]
    command += ["--network", args.network, "--partitions", str(args.partitions)]
    if args.cache is not None:
        command += ["--cache", str(args.cache)]
    if args.candidates is not None:
        command += ["--candidates", str(args.candidates)]
    timeout = args.agrum_timeout if mode == "pyagrum" else None
    try:
        done = subprocess.run(command, capture_output=True, text=True, check=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"timeout": timeout}
    lines = done.stdout.strip().splitlines()
    return json.loads(lines[-1]) if lines else None


def agrum_child(args) -> None:
    """pyAgrum's greedy hill climbing (BDeu(1), one thread) on the same sample; one JSON line
    (nothing when pyAgrum is not installed here: it is not a dependency)."""
    try:
        import pyagrum as gum
    except ImportError:
        try:
            import pyAgrum as gum
        except ImportError:
            return
    data = _sample(args.network, args.rows, args.cache).astype(str)
    load = os.getloadavg()[0]
    Path("/proc/self/clear_refs").write_text("5")
    rss = _status("VmRSS")
    cpu, wall = time.process_time(), time.perf_counter()
    learner = gum.BNLearner(data)
    learner.useGreedyHillClimbing()
    learner.setNumberOfThreads(1)
    learner.useScoreBDeu()
    learner.setMaxIndegree(len(data.columns))
    dag = learner.learnDAG()
    out = dict(
        cpu=time.process_time() - cpu,
        wall=time.perf_counter() - wall,
        extra_peak=_status("VmHWM") - rss,
        edges=dag.sizeArcs(),
        load=load,
        version=gum.__version__,
    )
    print(json.dumps(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--network", default="alarm")
    parser.add_argument("--rows", type=int, nargs="+", default=[10**6, 10**7])
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--no-dask", action="store_true")
    parser.add_argument("--modes", nargs="+", default=None, choices=["rows", "counted", "dask"])
    parser.add_argument(
        "--candidates",
        type=lambda t: t if t == "auto" else int(t),
        default=None,
        help="LocalSearch(candidates=...): auto or k (default: the full search)",
    )
    parser.add_argument(
        "--agrum-rows",
        type=int,
        default=10**6,
        help="run pyAgrum on the samples of at most this many rows (default 10^6)",
    )
    parser.add_argument("--agrum-timeout", type=float, default=900.0, help="seconds (900)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--mode", default="counted", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        args.rows = args.rows[0]
        (agrum_child if args.mode == "pyagrum" else child)(args)
        return
    modes = args.modes or ["rows", "counted"] + ([] if args.no_dask else ["dask"])
    print(f"## {args.network}: hill climbing, BDeu(1), one thread, a fresh process per fit")
    print(
        "| rows | path | CPU (wall) s | data | extra peak | distinct rows | edges | score | load |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for rows in args.rows:
        ours = None
        for mode in modes:
            r = run_child(args, mode, rows)
            ours = ours or r
            print(
                f"| {rows:.0e} | {mode} | {r['cpu']:.1f} ({r['wall']:.1f}) | "
                f"{r['data_bytes'] / 1e9:.2f} GB | {r['extra_peak'] / 1e9:.2f} GB | "
                f"{r['distinct']:,} | {r['edges']} | {r['score']:.1f} | {r['load']:.2f} |"
            )
            if r["dask"]:
                t = r["dask"]
                search = r["wall"] - r["build"]
                print(
                    f"|  | dask split | counting {t['counting']:.1f} s CPU on the workers, "
                    f"compute call {t['compute']:.1f} s wall (read, count, send), merge "
                    f"{t['merge']:.2f} s, search {search:.1f} s; {t['partition_rows']:,} "
                    f"distinct rows sent from {args.partitions} partitions |  |  |  |  |  |  |"
                )
        if rows <= args.agrum_rows:
            _print_agrum(run_child(args, "pyagrum", rows), ours, modes[0], rows)


def _print_agrum(r: dict | None, ours: dict, mode: str, rows: int) -> None:
    """pyAgrum's line of the table and the CPU ratio against our first fit of the same rows."""
    if r is None:
        print(f"| {rows:.0e} | pyAgrum | not installed here (not a dependency): skipped |")
    elif "timeout" in r:
        print(
            f"| {rows:.0e} | pyAgrum | still running after {r['timeout']:.0f} s: stopped "
            f"(ours: {ours['cpu']:.1f} s CPU, over {r['timeout'] / ours['cpu']:.0f}x faster) |"
        )
    else:
        print(
            f"| {rows:.0e} | pyAgrum {r['version']} | {r['cpu']:.1f} ({r['wall']:.1f}) | | "
            f"{r['extra_peak'] / 1e9:.2f} GB | | {r['edges']} | (bits) | {r['load']:.2f} |"
        )
        print(f"|  | CPU ratio pyAgrum / ours ({mode}) | {r['cpu'] / ours['cpu']:.1f}x | |")


if __name__ == "__main__":
    main()
