"""The A* search over the order graph against the integer program (SCIP), same candidates.

Run::

    python benchmarks/bench_astar.py                          # every instance, 300 s each
    python benchmarks/bench_astar.py --only insurance --time-limit 60
    python benchmarks/bench_astar.py --engines astar --max-memory 6e9

Instances (issue 17, "The frontier"): data from
``pgmpy_nml.datasets.sample_network(name, N, random_state=0)``, candidates from
:func:`pgmpy_nml.search.candidates.candidate_parent_sets` with BDeu (ESS ``E``) and
at most 3 parents: insurance, water, alarm and hailfinder at N = 1000, ESS 100,
and alarm at N = 10000, ESS 1. The candidates are computed once per instance
and kept as a score file (``--cache``, in the temporary folder by default; the
round trip is exact); each engine then runs in a fresh subprocess, which reports
its wall and CPU time and peak resident set (``VmHWM``). Scoring time is not in the engines' times.

Times are wall clock on whatever the machine is doing: CPU time and the load
average are printed beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

INSTANCES = [
    ("insurance", 1000, 100.0),
    ("water", 1000, 100.0),
    ("alarm", 1000, 100.0),
    ("alarm", 10000, 1.0),
    ("hailfinder", 1000, 100.0),
]


def _peak_rss_mb():
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def _cpu():
    t = os.times()
    return t.user + t.system


def candidates_file(cache, name, n, ess):
    """The instance's candidates as a score file, computed on first use."""
    path = os.path.join(cache, f"{name}_N{n}_bdeu{ess:g}_p3.jkl")
    if not os.path.exists(path):
        from pgmpy_nml import BDeu
        from pgmpy_nml.datasets import sample_network
        from pgmpy_nml.search.candidates import candidate_parent_sets

        _, data = sample_network(name, n, random_state=0)
        cands, _ = candidate_parent_sets(
            BDeu(data, equivalent_sample_size=ess), max_parents=3, n_jobs=-1
        )
        cands.to_file(path + ".tmp", labels="indices")
        os.replace(path + ".tmp", path)
    return path


def child(path, engine, time_limit, max_memory):
    """One engine on one score file, in this process: a JSON line on stdout."""
    from pgmpy_nml.search.candidates import CandidateParentSets, read_score_file, solve
    from pgmpy_nml.search.candidates._astar import astar

    cands = read_score_file(path)
    # compile (or load) the kernels outside the measured time
    tiny = CandidateParentSets.from_dict({"a": {(): -1.0, ("b",): -0.5}, "b": {(): -1.0}})
    (astar if engine == "astar" else solve)(tiny, show_progress=False)
    wall, cpu = time.perf_counter(), _cpu()
    if engine == "astar":
        res = astar(cands, time_limit=time_limit, show_progress=False, max_memory=max_memory)
    else:
        res = solve(cands, time_limit=time_limit, show_progress=False)
    out = {
        "wall": time.perf_counter() - wall,
        "cpu": _cpu() - cpu,
        "score": res.score,
        "bound": res.bound,
        "gap": res.gap,
        "status": res.status,
        "rss_mb": _peak_rss_mb(),
        "candidates": int(cands.n_candidates().sum()),
        "variables": cands.n_variables,
    }
    print(json.dumps(out))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time-limit", type=float, default=300.0)
    parser.add_argument("--engines", default="astar,scip")
    parser.add_argument("--only", default=None, help="network name(s), comma-separated")
    parser.add_argument("--max-memory", type=float, default=6e9, help="A*'s tables, bytes")
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "pgmpy-nml-astar"))
    parser.add_argument("--child", nargs=2, metavar=("PATH", "ENGINE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child[0], args.child[1], args.time_limit, args.max_memory)
        return
    os.makedirs(args.cache, exist_ok=True)
    only = None if args.only is None else set(args.only.split(","))
    header = (
        f"{'instance':<28} {'cands':>7} {'engine':<6} {'status':<12} {'wall s':>7} "
        f"{'cpu s':>7} {'gap %':>8} {'score':>13} {'RSS MB':>7} {'load':>5}"
    )
    print(header, flush=True)
    for name, n, ess in INSTANCES:
        if only is not None and name not in only:
            continue
        label = f"{name} N={n} BDeu({ess:g}) p3"
        start = time.perf_counter()
        path = candidates_file(args.cache, name, n, ess)
        if time.perf_counter() - start > 1:
            print(f"# {label}: candidates in {time.perf_counter() - start:.1f} s", flush=True)
        for engine in args.engines.split(","):
            cmd = [sys.executable, __file__, "--child", path, engine]
            cmd += ["--time-limit", str(args.time_limit), "--max-memory", str(args.max_memory)]
            proc = subprocess.run(cmd, capture_output=True, text=True)
            load = os.getloadavg()[0]
            if proc.returncode:
                err = (proc.stderr.strip().splitlines() or ["?"])[-1]
                print(f"{label:<28} {'':>7} {engine:<6} failed: {err}", flush=True)
                continue
            r = json.loads(proc.stdout.strip().splitlines()[-1])
            print(
                f"{label:<28} {r['candidates']:>7} {engine:<6} {r['status']:<12} "
                f"{r['wall']:>7.1f} {r['cpu']:>7.1f} {100 * r['gap']:>8.4f} {r['score']:>13.4f} "
                f"{r['rss_mb']:>7.0f} {load:>5.2f}",
                flush=True,
            )


if __name__ == "__main__":
    main()
