"""End-to-end exact learning at scale: what a user runs, against hill climbing and tabu search.

Run::

    python benchmarks/bench_exact_at_scale.py                  # the 28 targets, 600 s each
    python benchmarks/bench_exact_at_scale.py --quick          # insurance N=1000, BDeu
    python benchmarks/bench_exact_at_scale.py --networks alarm --sizes 5000 --scores fnml
    python benchmarks/bench_exact_at_scale.py --check-dp       # solver vs subset DP, <= 22 vars

Targets (issue 12): data from ``pgmpy.utils.get_example_model(name).simulate(N,
seed=2026)`` (bundled with pgmpy, offline); insurance (27 variables), water
(32) and alarm (37) at N = 1000 and 5000, hailfinder (56) at N = 1000; scores
fNML, qNML, the package's textbook ``BDeu`` (ESS 1) and pgmpy's BIC
(``make_score("bic", data)``); parent limit 3: 28 instances.

Each instance runs in a fresh subprocess, which

1. loads the compiled kernels with a small warm-up fit (asia, 200 rows; timed
   apart: a user's first fit in a process pays it once);
2. runs the package's public exact learner,
   ``ExactSearch(score, max_parents=3, method="solver", time_limit=...).fit(data)``,
   timing it whole (wall and process CPU, all threads) and reading its phases
   (``timings_``: candidate parent sets, solver; ``pruning_.timings``: compiled
   counting, local scores, bounds and dominance, summed over parallel tasks),
   the candidates (``pruning_.n_kept``: in all and the largest per variable),
   ``optimal_``, ``gap_``, ``score_`` and the peak resident set so far
   (``VmHWM``);
3. with the same score object, pgmpy's greedy
   ``pgmpy.causal_discovery.HillClimbSearch(score, max_indegree=3,
   return_type="dag")`` (unless ``--skip-hill``) and the package's
   ``LocalSearch(score, method="tabu", max_parents=3, restarts=10, perturb=10,
   tabu_length=30, max_non_improving=30, random_state=0)``.

Every network is scored the same way, as the sum of its local scores under the
one score object, and compared with the true network
(``pgmpy_nml.study.structural_hamming_distance`` against
``get_example_model(name)``). The parent prints a markdown table row per
instance with the load average before and after it, and rewrites the JSON file
(``--json``) after every instance, so that a partial run is usable. The known
hardest instance, alarm N = 5000 with fNML, runs last. The data's columns are
sorted by name and the children run with ``PYTHONHASHSEED=0`` (unless set), so that
the local searches' tie-breaking, and with it their results, repeat from run to run.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench_pruning import make  # noqa: E402  (the four scores, as bench_pruning builds them)
from bench_solver import SEED, cpu_seconds, peak_rss_mb, sample  # noqa: E402

# cheapest first (bench_solver's times), so that a partial run covers the most instances
TARGETS = [
    ("water", 1000),
    ("water", 5000),
    ("insurance", 1000),
    ("hailfinder", 1000),
    ("alarm", 1000),
    ("insurance", 5000),
    ("alarm", 5000),
]
SCORE_NAMES = ["fnml", "qnml", "bdeu", "bic"]
HARDEST = ("alarm", 5000, "fnml")
DP_NETWORKS = ["asia", "cancer", "earthquake", "sachs", "survey", "child"]
DEFAULT_JSON = os.path.join(HERE, "results", "exact_at_scale.json")
DEFAULT_DP_JSON = os.path.join(HERE, "results", "exact_at_scale_check_dp.json")


def network_score(score, dag) -> float:
    """Sum of the local scores of ``dag``'s families under ``score``."""
    return float(sum(score.local_score(v, tuple(sorted(dag.predecessors(v)))) for v in dag.nodes()))


def sample_sorted(name, n):
    """``bench_solver.sample`` with the columns sorted by name.

    pgmpy's ``simulate`` returns the columns in an order that changes from process to
    process (hash order of the node names); the local searches break ties by column
    order, so without sorting their results would not be reproducible.
    """
    data = sample(name, n)
    return data[sorted(data.columns)]


def true_model(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pgmpy.utils import get_example_model

        return get_example_model(name)


def warm_up() -> float:
    """Load the compiled kernels of both searches (a process's first fit pays this once)."""
    from pgmpy_nml import ExactSearch, LocalSearch

    start = time.perf_counter()
    data = sample_sorted("asia", 200)
    score = make("fnml", data)
    ExactSearch(score, max_parents=2, method="solver", show_progress=False).fit(data)
    LocalSearch(score, method="tabu", max_parents=2, show_progress=False).fit(data)
    return time.perf_counter() - start


def timed_fit(search, data, out, prefix):
    """Fit ``search``; record its wall and CPU seconds as ``{prefix}_wall_s``/``_cpu_s``."""
    wall, cpu = time.perf_counter(), cpu_seconds()
    search.fit(data)
    out[f"{prefix}_wall_s"] = time.perf_counter() - wall
    out[f"{prefix}_cpu_s"] = cpu_seconds() - cpu


def record_network(dag, score, truth, out, prefix, score_key="score"):
    """The network's score (sum of local scores), edges and SHD to ``truth``."""
    from pgmpy_nml.study import structural_hamming_distance

    out[f"{prefix}_{score_key}"] = network_score(score, dag)
    out[f"{prefix}_edges"] = dag.number_of_edges()
    out[f"{prefix}_shd"] = int(structural_hamming_distance(truth, dag))


def run_one(args):
    """Child process: one instance; prints one JSON line."""
    from pgmpy_nml import ExactSearch, LocalSearch

    out = {"network": args.network, "n": args.n, "score_name": args.score}
    out["warm_up_s"] = warm_up()
    out["peak_mb_before"] = peak_rss_mb()
    start = time.perf_counter()
    data = sample_sorted(args.network, args.n)
    score = make(args.score, data)
    out["data_s"] = time.perf_counter() - start
    out["variables"] = data.shape[1]
    truth = true_model(args.network)

    # 1. the exact learner, end to end
    search = ExactSearch(
        score, max_parents=3, method="solver", time_limit=args.time_limit, show_progress=False
    )
    timed_fit(search, data, out, "exact")
    out["peak_mb_exact"] = peak_rss_mb()
    report = search.pruning_
    out["method"] = search.method_
    out["plan"] = report.plan
    out["timings"] = dict(search.timings_)
    out["pruning_timings"] = dict(report.timings)
    out["admissible"] = int(report.n_admissible.sum())
    out["scored"] = int(report.n_scored.sum())
    out["candidates"] = int(report.n_kept.sum())
    out["candidates_max"] = int(search.candidates_.n_candidates().max())
    out["optimal"] = bool(search.optimal_)
    out["gap"] = float(search.gap_)
    out["score"] = float(search.score_)
    out["bound"] = float(search.bound_)
    record_network(search.causal_graph_, score, truth, out, "exact", score_key="rescored")
    out["true_score"] = network_score(score, truth)
    out["true_edges"] = truth.number_of_edges()

    # 2. pgmpy's greedy hill climbing with the same score object
    if not args.skip_hill:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from pgmpy.causal_discovery import HillClimbSearch

            hill = HillClimbSearch(score, max_indegree=3, return_type="dag", show_progress=False)
            timed_fit(hill, data, out, "hill")
        record_network(hill.causal_graph_, score, truth, out, "hill")

    # 3. the package's tabu search with restarts, same score object
    tabu = LocalSearch(
        score,
        method="tabu",
        max_parents=3,
        restarts=10,
        perturb=10,
        tabu_length=30,
        max_non_improving=30,
        random_state=0,
        show_progress=False,
    )
    timed_fit(tabu, data, out, "tabu")
    record_network(tabu.causal_graph_, score, truth, out, "tabu")
    out["peak_mb"] = peak_rss_mb()
    print(json.dumps(out), flush=True)


def child(network, n, score, args):
    cmd = [sys.executable, os.path.abspath(__file__), "--one", network, str(n), score]
    cmd += ["--time-limit", str(args.time_limit)]
    if args.skip_hill:
        cmd.append("--skip-hill")
    # pgmpy's HillClimbSearch breaks ties in set order: fix the hash seed to repeat it
    env = dict(os.environ, PYTHONHASHSEED=os.environ.get("PYTHONHASHSEED", "0"))
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode or not lines:
        return {"error": (proc.stderr or proc.stdout)[-800:]}
    return json.loads(lines[-1])


def instances(args):
    targets = [("insurance", 1000)] if args.quick else TARGETS
    if args.networks:
        targets = [t for t in targets if t[0] in args.networks.split(",")]
    if args.sizes:
        targets = [t for t in targets if str(t[1]) in args.sizes.split(",")]
    scores = ["bdeu"] if args.quick else (args.scores or ",".join(SCORE_NAMES)).split(",")
    todo = [(net, n, s) for net, n in targets for s in scores]
    # the known hardest instance last: everything else is in before it starts
    return sorted(todo, key=lambda t: t == HARDEST)


def fmt_s(s):
    return f"{s:.2f}" if s < 10 else f"{s:.1f}" if s < 100 else f"{s:.0f}"


def loads(pair):
    return f"{pair[0]:.1f}/{pair[1]:.1f}"


HEADER = (
    "| network | N | score | candidates (max per var) | scoring s | solver s | wall s (CPU) "
    "| peak MB | result | optimal score | opt - HC (SHD) | opt - tabu (SHD) | SHD opt "
    "| HC s (CPU) | tabu s (CPU) | load before/after |"
)


def row(r):
    t = r["timings"]
    status = "optimal" if r["optimal"] else f"gap {100 * r['gap']:.3f}%"
    hill = "-"
    hill_t = "-"
    if "hill_score" in r:
        hill = f"{r['score'] - r['hill_score']:.1f} ({r['hill_shd']})"
        hill_t = f"{fmt_s(r['hill_wall_s'])} ({fmt_s(r['hill_cpu_s'])})"
    return (
        f"| {r['network']} ({r['variables']}) | {r['n']} | {r['score_name']} | "
        f"{r['candidates']} ({r['candidates_max']}) | {fmt_s(t['candidate parent sets'])} | "
        f"{fmt_s(t['solver'])} | {fmt_s(r['exact_wall_s'])} ({fmt_s(r['exact_cpu_s'])}) | "
        f"{r['peak_mb_exact']:.0f} | {status} | {r['score']:.1f} | {hill} | "
        f"{r['score'] - r['tabu_score']:.1f} ({r['tabu_shd']}) | {r['exact_shd']} | {hill_t} | "
        f"{fmt_s(r['tabu_wall_s'])} ({fmt_s(r['tabu_cpu_s'])}) | "
        f"{loads(r['load_before'])} -> {loads(r['load_after'])} |"
    )


def write_json(path, payload):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as fh:
        json.dump(payload, fh, indent=1)
    os.replace(tmp, path)


def median(xs):
    return statistics.median(xs) if xs else math.nan


def summary(rows):
    ok = [r for r in rows if "error" not in r]
    if not ok:
        return
    solved = [r for r in ok if r["optimal"]]
    walls = [r["exact_wall_s"] for r in ok]
    cpus = [r["exact_cpu_s"] for r in ok]
    scoring = sum(r["timings"]["candidate parent sets"] for r in ok)
    solver = sum(r["timings"]["solver"] for r in ok)
    peaks = [r["peak_mb_exact"] for r in ok]
    print(f"\nproven optimal: {len(solved)}/{len(ok)} (errors: {len(rows) - len(ok)})")
    print(
        f"end-to-end wall: median {median(walls):.1f} s, max {max(walls):.1f} s; "
        f"CPU: median {median(cpus):.1f} s, max {max(cpus):.1f} s"
    )
    print(
        f"time in candidate parent sets {scoring:.1f} s, in the solver {solver:.1f} s "
        f"({100 * scoring / max(scoring + solver, 1e-9):.1f}% scoring)"
    )
    print(f"peak RSS (after the exact fit): {min(peaks):.0f}-{max(peaks):.0f} MB")
    for key, name in (("hill", "pgmpy HillClimbSearch"), ("tabu", "LocalSearch tabu")):
        diffs = [r["score"] - r[f"{key}_score"] for r in ok if f"{key}_score" in r]
        shds = [r[f"{key}_shd"] for r in ok if f"{key}_shd" in r]
        if diffs:
            print(
                f"optimal - {name}: median {median(diffs):.1f}, range {min(diffs):.1f} to "
                f"{max(diffs):.1f}; SHD median {median(shds)}, range {min(shds)}-{max(shds)}"
            )
    shds = [r["exact_shd"] for r in ok]
    print(f"SHD of the optimal network: median {median(shds)}, range {min(shds)}-{max(shds)}")


def targets_table(args):
    todo = instances(args)
    meta = {
        "date_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
        "cores": os.cpu_count(),
        "time_limit": args.time_limit,
        "seed": SEED,
        "argv": sys.argv[1:],
    }
    print(f"{len(todo)} instances; load average {os.getloadavg()}; {os.cpu_count()} cores")
    print(HEADER)
    print("|" + "---|" * (HEADER.count("|") - 1), flush=True)
    rows = []
    for network, n, score in todo:
        before = os.getloadavg()
        start = time.perf_counter()
        r = child(network, n, score, args)
        r.update(network=network, n=n, score_name=score, load_before=before)
        r["load_after"] = os.getloadavg()
        r["subprocess_s"] = time.perf_counter() - start
        rows.append(r)
        if "error" in r:
            print(f"| {network} | {n} | {score} | error: {r['error']!r} |", flush=True)
        else:
            print(row(r), flush=True)
        write_json(args.json or DEFAULT_JSON, {"meta": meta, "instances": rows})
    summary(rows)
    print(f"load average at end: {os.getloadavg()}", flush=True)


def check_dp(args):
    """ExactSearch's subset DP against its solver on every instance with <= 22 variables."""
    from bench_scores import random_data

    from pgmpy_nml import ExactSearch
    from pgmpy_nml.datasets import sample_network

    datasets = [(name, sample_network(name, 2000, random_state=SEED)[1]) for name in DP_NETWORKS]
    datasets += [(f"random{m}", random_data(1000, m, SEED)) for m in (10, 15, 20)]
    print(f"load average {os.getloadavg()}")
    print("| data | variables | score | solver | subset DP | rel. difference | solver s | DP s |")
    print("|---|---|---|---|---|---|---|---|")
    worst = 0.0
    results = []
    for name, data in datasets:
        if data.shape[1] > 22:
            continue
        for score_name in SCORE_NAMES:
            score = make(score_name, data)
            fits = {}
            for method in ("solver", "dp"):
                search = ExactSearch(score, max_parents=3, method=method, show_progress=False)
                start = time.perf_counter()
                search.fit(data)
                fits[method] = (search, time.perf_counter() - start)
            solver, dp = fits["solver"][0], fits["dp"][0]
            rel = abs(solver.score_ - dp.score_) / abs(dp.score_)
            worst = max(worst, rel)
            results.append(
                {
                    "data": name,
                    "variables": data.shape[1],
                    "score": score_name,
                    "solver": solver.score_,
                    "solver_optimal": bool(solver.optimal_),
                    "dp": dp.score_,
                    "relative_difference": rel,
                    "solver_s": fits["solver"][1],
                    "dp_s": fits["dp"][1],
                }
            )
            flag = "" if solver.optimal_ else " (solver not proven optimal)"
            print(
                f"| {name} | {data.shape[1]} | {score_name} | {solver.score_:.6f}{flag} | "
                f"{dp.score_:.6f} | {rel:.1e} | {fits['solver'][1]:.2f} | {fits['dp'][1]:.2f} |",
                flush=True,
            )
    print(f"\n{len(results)} instances; largest relative difference: {worst:.1e}")
    print(f"load average {os.getloadavg()}")
    write_json(args.json or DEFAULT_DP_JSON, {"instances": results, "largest": worst})


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="insurance N=1000, BDeu only")
    parser.add_argument("--networks", help="comma-separated subset of the target networks")
    parser.add_argument("--sizes", help="comma-separated subset of the sample sizes")
    parser.add_argument("--scores", help="comma-separated subset of fnml,qnml,bdeu,bic")
    parser.add_argument("--time-limit", type=float, default=600.0, help="ExactSearch seconds")
    parser.add_argument("--skip-hill", action="store_true", help="no pgmpy HillClimbSearch")
    parser.add_argument("--check-dp", action="store_true", help="solver vs DP, <= 22 variables")
    parser.add_argument("--json", help="results file (default: benchmarks/results/)")
    parser.add_argument("--one", nargs=3, metavar=("NETWORK", "N", "SCORE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        args.network, n, args.score = args.one
        args.n = int(n)
        run_one(args)
    elif args.check_dp:
        check_dp(args)
    else:
        targets_table(args)


if __name__ == "__main__":
    main()
