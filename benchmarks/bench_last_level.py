"""The candidate search's last level: compiled blocks against the level-by-level arrays.

Run::

    python benchmarks/bench_last_level.py                    # andes p2, pathfinder p3, andes p3
    python benchmarks/bench_last_level.py --instances andes:2 --repeats 3
    # BDeu's log rising factorials with and without their cache, one thread
    python benchmarks/bench_last_level.py --instances andes:3 --score bdeu10 --compare cache \
        --n-jobs 1

``candidate_parent_sets(score, max_parents=p, n_jobs=2)`` (fNML unless ``--score``, a
name of ``bench_suite.make_score``) on ``sample_network(name, 1000, random_state=0)``,
with the last level compiled (``pgmpy_nml.search.candidates._final``, the default) and
without it (``_final.ENABLED = False``: the level-by-level search of the package
before), or (``--compare cache``) compiled, with the prior statistics' log rising
factorials from their cache and without it (``_final.RISING_CACHE``). Each run is a
fresh subprocess (so that its peak memory is its own) after a warm-up that compiles the
kernels; the two ways alternate, repeat after repeat, and each row gives the wall and
CPU seconds, the peak resident memory, the candidates, the sets scored and the load
average before the run. A refusal by the memory check is reported as such.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench_solver import peak_rss_mb  # noqa: E402

WAYS = {
    "level": {"0": "level by level", "1": "compiled"},
    "cache": {"0": "compiled, no cache", "1": "compiled, cached"},
}


def one(name: str, parents: int, compare: str, on: bool, score: str, n_jobs: int) -> dict:
    import resource
    import warnings

    from bench_suite import make_score

    from pgmpy_nml.datasets import sample_network
    from pgmpy_nml.exceptions import SearchMemoryError
    from pgmpy_nml.search.candidates import _final, candidate_parent_sets

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, data = sample_network(name, 1000, random_state=0)
        _, warm = sample_network("asia", 200, random_state=0)
    _final.ENABLED = on or compare == "cache"
    _final.RISING_CACHE = on or compare == "level"
    candidate_parent_sets(make_score(score, warm), max_parents=2, n_jobs=n_jobs)  # compile
    usage = resource.getrusage(resource.RUSAGE_SELF)
    cpu = usage.ru_utime + usage.ru_stime
    start = time.perf_counter()
    out = {"network": name, "parents": parents, "way": WAYS[compare]["1" if on else "0"]}
    try:
        scoring = make_score(score, data)
        _, report = candidate_parent_sets(scoring, max_parents=parents, n_jobs=n_jobs)
        out.update(kept=int(report.n_kept.sum()), scored=int(report.n_scored.sum()))
    except SearchMemoryError as error:
        out["refused"] = str(error).split(":")[0]
    usage = resource.getrusage(resource.RUSAGE_SELF)
    out["wall_s"] = time.perf_counter() - start
    out["cpu_s"] = usage.ru_utime + usage.ru_stime - cpu
    out["peak_mb"] = peak_rss_mb()
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instances", default="andes:2,pathfinder:3,andes:3")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--score", default="fnml", help="fnml, qnml, bic, bdeu1, bdeu10, ...")
    parser.add_argument("--compare", choices=sorted(WAYS), default="level")
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        name, parents, on = args.one.split(":")
        way = (args.compare, on == "1", args.score, args.n_jobs)
        print(json.dumps(one(name, int(parents), *way)))
        return
    print(f"score {args.score}, {args.n_jobs} thread(s)")
    print("| network | p | last level | wall s (CPU) | peak | candidates | scored | load |")
    print("|---|---|---|---|---|---|---|---|")
    options = ["--score", args.score, "--compare", args.compare, "--n-jobs", str(args.n_jobs)]
    for item in args.instances.split(","):
        name, parents = item.split(":")
        for _ in range(args.repeats):
            for on in ("0", "1"):
                load = os.getloadavg()[0]
                done = subprocess.run(
                    [sys.executable, __file__, "--one", f"{name}:{parents}:{on}", *options],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                r = json.loads(done.stdout.strip().splitlines()[-1])
                way = r["way"]
                kept = f"{r['kept']:,}" if "kept" in r else r["refused"]
                scored = f"{r['scored']:,}" if "scored" in r else "-"
                print(
                    f"| {name} | {parents} | {way} | {r['wall_s']:.1f} ({r['cpu_s']:.1f}) | "
                    f"{r['peak_mb'] / 1024:.2f} GB | {kept} | {scored} | {load:.1f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
