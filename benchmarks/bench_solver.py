"""Exact learning over candidate parent sets: SCIP (the package's engine) against CP-SAT.

Run::

    python benchmarks/bench_solver.py                    # every target, SCIP, 600 s limit
    python benchmarks/bench_solver.py --quick            # insurance N=1000 only, a smoke run
    python benchmarks/bench_solver.py --time-limit 240 --cpsat --cpsat-time-limit 120
    python benchmarks/bench_solver.py --check-dp         # solver vs subset DP, <= 22 variables

Targets (issue 12): data sampled from pgmpy's offline example networks
(``pgmpy.utils.get_example_model(name).simulate(N, seed=SEED)``), parent limit
3, scores fNML, qNML, BDeu (ESS 1) and BIC; insurance (27 variables), water
(32) and alarm (37) at N = 1000 and 5000, hailfinder (56) at N = 1000.

Each instance runs in a fresh subprocess that reports its own peak resident
set (``VmHWM``) and CPU time. Phases:

1. *scores*: :func:`pgmpy_nml.search.candidates.candidate_parent_sets` with a parent
   limit of 3 (compiled counting and the package's local-score formulas; the
   score's superset bounds skip what they can), less its last phase;
2. *pruning*: that last phase, bounds and dominance (a parent set goes when a
   proper subset scores at least as well);
3. *solve*: :func:`pgmpy_nml.search.candidates.solve` (SCIP through PySCIPOpt),
   and with ``--cpsat`` OR-Tools CP-SAT on the same candidates
   (``benchmarks/_cpsat.py``; ``pip install ortools``), read back from the
   score file the SCIP run wrote (the round trip is exact).

``--check-dp`` compares the solver's optimum with ``ExactSearch`` (the subset
DP, same parent limit) on every instance with at most 22 variables: the
bundled networks (asia, cancer, earthquake, sachs, survey, child) and random
data of 10, 15 and 20 variables, for the four scores.

Times are wall clock on whatever the machine is doing; CPU time and the load
average are printed beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

SEED = 2026
TARGETS = [
    ("insurance", 1000),
    ("water", 1000),
    ("alarm", 1000),
    ("insurance", 5000),
    ("water", 5000),
    ("alarm", 5000),
    ("hailfinder", 1000),
]
SCORE_NAMES = ["fnml", "qnml", "bdeu", "bic"]


def peak_rss_mb():
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def sample(name, n):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        from pgmpy.utils import get_example_model

        return get_example_model(name).simulate(n, seed=SEED, show_progress=False)


def run_one(args):
    """Child process: one instance, one engine; prints a JSON line."""
    from pgmpy_nml.search.candidates import read_score_file, solve

    out = {"network": args.network, "n": args.n, "score": args.score, "engine": args.engine}
    path = args.file
    if args.engine == "scip":
        from bench_pruning import make

        from pgmpy_nml.search.candidates import candidate_parent_sets

        data = sample(args.network, args.n)
        cands, report = candidate_parent_sets(make(args.score, data), max_parents=3, n_jobs=-1)
        pruning = report.timings["bounds and dominance"]
        out["t_scores"] = report.timings["total"] - pruning
        out["t_pruning"] = pruning
        out["n_all"] = int(report.n_admissible.sum())
        cands.to_file(path)
        cpu0 = cpu_seconds()
        t = time.perf_counter()
        result = solve(cands, time_limit=args.time_limit, show_progress=False)
    else:
        from _cpsat import solve_cpsat

        cands = read_score_file(path)
        cpu0 = cpu_seconds()
        t = time.perf_counter()
        result = solve_cpsat(cands, time_limit=args.time_limit, n_workers=2)
    out["t_solve"] = time.perf_counter() - t
    out["cpu_solve"] = cpu_seconds() - cpu0
    out["variables"] = cands.n_variables
    out["candidates"] = int(cands.n_candidates().sum())
    out["best"] = result.score
    out["bound"] = result.bound
    out["gap"] = result.gap
    out["optimal"] = result.status == "optimal"  # the engine's own proof
    out["timings"] = result.timings
    out["peak_mb"] = peak_rss_mb()
    print(json.dumps(out), flush=True)


def child(network, n, score, engine, time_limit, path):
    cmd = [
        sys.executable,
        os.path.abspath(__file__),
        "--one",
        network,
        str(n),
        score,
        engine,
        "--time-limit",
        str(time_limit),
        "--file",
        path,
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode or not lines:
        return {"error": (proc.stderr or proc.stdout)[-400:]}
    return json.loads(lines[-1])


def fmt_time(s):
    return f"{s:.1f}" if s < 100 else f"{s:.0f}"


def targets_table(args):
    print(f"load average at start: {os.getloadavg()}", flush=True)
    rows = []
    instances = [("insurance", 1000)] if args.quick else TARGETS
    if args.networks:
        instances = [(net, n) for net, n in instances if net in args.networks.split(",")]
    if args.sizes:
        instances = [(net, n) for net, n in instances if str(n) in args.sizes.split(",")]
    scores = ["bdeu"] if args.quick else (args.scores or ",".join(SCORE_NAMES)).split(",")
    header = (
        "| network | N | score | variables | sets (all) | candidates | scores s | pruning s "
        "| SCIP s (CPU) | SCIP result | peak MB |"
    )
    if args.cpsat:
        header += " CP-SAT s (CPU) | CP-SAT result |"
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    with tempfile.TemporaryDirectory() as tmp:
        for network, n in instances:
            for score in scores:
                path = os.path.join(tmp, f"{network}_{n}_{score}.jkl")
                r = child(network, n, score, "scip", args.time_limit, path)
                if "error" in r:
                    print(f"| {network} | {n} | {score} | error: {r['error']!r} |", flush=True)
                    continue
                status = "optimal" if r["optimal"] else f"gap {100 * r['gap']:.3f}%"
                line = (
                    f"| {network} | {n} | {score} | {r['variables']} | {r['n_all']} | "
                    f"{r['candidates']} | {r['t_scores']:.1f} | {r['t_pruning']:.1f} | "
                    f"{fmt_time(r['t_solve'])} ({fmt_time(r['cpu_solve'])}) | {status} | "
                    f"{r['peak_mb']:.0f} |"
                )
                if args.cpsat and (not args.cpsat_n or n == args.cpsat_n):
                    c = child(network, n, score, "cpsat", args.cpsat_time_limit, path)
                    if "error" in c:
                        line += " error | |"
                    else:
                        same = abs(c["best"] - r["best"]) <= 1e-6 * abs(r["best"])
                        cs = "optimal" if c["optimal"] else f"gap {100 * c['gap']:.3f}%"
                        cs += "" if same or not (r["optimal"] and c["optimal"]) else " (DIFFERS)"
                        line += f" {fmt_time(c['t_solve'])} ({fmt_time(c['cpu_solve'])}) | {cs} |"
                elif args.cpsat:
                    line += " | |"
                print(line, flush=True)
                rows.append(r)
    solved = [r for r in rows if r["optimal"]]
    times = sorted(r["t_solve"] for r in rows)
    if rows:
        print(
            f"\nSCIP: {len(solved)}/{len(rows)} proven optimal; solve time median "
            f"{times[len(times) // 2]:.1f} s, max {times[-1]:.1f} s"
        )
    print(f"load average at end: {os.getloadavg()}", flush=True)


def check_dp(args):
    """The solver's optimum against ExactSearch's on every instance with <= 22 variables."""
    from bench_pruning import make
    from bench_scores import random_data

    from pgmpy_nml import ExactSearch
    from pgmpy_nml.datasets import available_networks, sample_network
    from pgmpy_nml.search.candidates import candidate_parent_sets, solve

    datasets = [
        (name, sample_network(name, 2000, random_state=SEED)[1]) for name in available_networks()
    ]
    datasets += [(f"random{m}", random_data(1000, m, SEED)) for m in (10, 15, 20)]
    print("| data | variables | score | candidates | solver | subset DP | difference |")
    print("|---|---|---|---|---|---|---|")
    worst = 0.0
    for name, data in datasets:
        if data.shape[1] > 22:
            continue
        for score_name in SCORE_NAMES:
            cands, _ = candidate_parent_sets(make(score_name, data), max_parents=3, n_jobs=-1)
            result = solve(cands, show_progress=False)
            dp = ExactSearch(
                make(score_name, data), max_parents=3, method="dp", show_progress=False
            )
            dp.fit(data)
            diff = result.score - dp.score_
            worst = max(worst, abs(diff) / abs(dp.score_))
            print(
                f"| {name} | {data.shape[1]} | {score_name} | {int(cands.n_candidates().sum())} | "
                f"{result.score:.6f} | {dp.score_:.6f} | {diff:.1e} |",
                flush=True,
            )
    print(f"\nlargest relative difference: {worst:.1e}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--time-limit", type=float, default=600.0)
    parser.add_argument("--cpsat", action="store_true", help="also run OR-Tools CP-SAT")
    parser.add_argument("--cpsat-time-limit", type=float, default=600.0)
    parser.add_argument("--cpsat-n", type=int, default=0, help="CP-SAT only at this N")
    parser.add_argument("--networks", help="comma-separated subset of the target networks")
    parser.add_argument("--sizes", help="comma-separated subset of the sample sizes")
    parser.add_argument("--scores", help="comma-separated subset of fnml,qnml,bdeu,bic")
    parser.add_argument("--check-dp", action="store_true")
    parser.add_argument("--one", nargs=4, metavar=("NETWORK", "N", "SCORE", "ENGINE"))
    parser.add_argument("--file")
    args = parser.parse_args()
    if args.one:
        args.network, n, args.score, args.engine = args.one
        args.n = int(n)
        run_one(args)
    elif args.check_dp:
        check_dp(args)
    else:
        targets_table(args)


if __name__ == "__main__":
    main()
