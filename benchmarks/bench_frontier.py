"""The frontier of exact learning: the BNSL-2016 families, end to end, beside the published times.

Run::

    python benchmarks/bench_frontier.py                    # the instances of issue 17's table
    python benchmarks/bench_frontier.py --quick            # three small instances, a few minutes
    python benchmarks/bench_frontier.py --all              # the whole grid (420 instances)
    python benchmarks/bench_frontier.py --all --networks alarm --sizes 1000 \\
        --scores bdeu100,bic --parents 3 --method solver --time-limit 300

Families (issue 17, section 2): data from pgmpy's networks alarm (37 variables),
insurance (27), water (32), hailfinder (56) and mildew (35),
``pgmpy_nml.datasets.sample_network(name, N, random_state=0)`` (bundled with pgmpy,
offline), N in {100, 1000, 10000}; scores BDeu with equivalent sample size 0.1,
1, 10 and 100 (the package's textbook ``BDeu``), pgmpy's BIC
(``make_score("bic", data)``), fNML and qNML; parent limits 2 to 5. ``--all``
takes the whole grid, the default the instances of the issue's table (those of
the BNSL-2016 benchmark with a published figure, and those the issue reports
for this package); ``--networks``, ``--sizes``, ``--scores`` and ``--parents``
filter either list.

Each instance runs in a fresh subprocess which loads the compiled kernels with a
small warm-up fit (asia, 200 rows; timed apart), then fits
``ExactSearch(score, max_parents=p, method=--method, time_limit=--time-limit)``
and reports: the time in the candidate parent sets (scoring, ``timings_``), in
the search (the other phases), the whole fit's wall and CPU seconds (all
threads), ``optimal_``, ``gap_``, the candidates (``pruning_.n_kept``) and the
engine that ran (``method_``). The parent prints a markdown row per instance,
with the candidates of the BNSL-2016 benchmark's own sample and its best
published time (:data:`PUBLISHED`) where the issue's table gives them, the ratio
of that time to our wall time, and the load average before and after; it
rewrites the JSON file (``benchmarks/results/frontier.json``, or
``frontier_quick.json`` with ``--quick``) after every instance. The published
times exclude scoring and were measured on other machines; ours include it.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench_exact_at_scale import fmt_s, loads, write_json  # noqa: E402
from bench_solver import peak_rss_mb  # noqa: E402


def cpu_seconds():
    """CPU seconds of this process and of its waited-for children (the portfolio's solver
    process, method "astar|solver")."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


NETWORKS = ["alarm", "insurance", "water", "hailfinder", "mildew"]
SIZES = [100, 1000, 10000]
SCORE_NAMES = ["bdeu0.1", "bdeu1", "bdeu10", "bdeu100", "bic", "fnml", "qnml"]
PARENT_LIMITS = [2, 3, 4, 5]
#: seed of ``sample_network``, as in the issue's figures
SEED = 0

#: The BNSL-2016 benchmark (B. Malone, K. Kangas, M. Järvisalo, M. Koivisto,
#: P. Myllymäki, "Empirical hardness of finding optimal Bayesian network structures:
#: algorithm selection and runtime prediction", Machine Learning 107, 2018; runtimes as
#: in the aslib scenario "BNSL-2016": 8 exact solvers, 7200 s limit, scoring excluded),
#: the instances quoted in the table of issue 17: (network, N, score, parent limit) ->
#: (candidate parent sets of the benchmark's sample, best ILP s, CPBayes s, A* s);
#: None = not solved within 7200 s.
PUBLISHED = {
    ("alarm", 10000, "bdeu1", 3): (6473, 146.5, 639.0, 516.0),
    ("hailfinder", 10000, "bdeu1", 3): (3768, 85.7, None, None),
    ("alarm", 10000, "bdeu10", 3): (9613, 1415.0, None, None),
    ("alarm", 1000, "bdeu100", 3): (142178, None, None, 115.0),
    ("insurance", 1000, "bdeu100", 3): (17553, 1740.0, 161.0, 38.0),
    ("water", 1000, "bdeu100", 3): (24492, None, 18.5, None),
    ("hailfinder", 1000, "bdeu100", 3): (4174, 4124.0, None, None),
    ("mildew", 100, "bdeu1", 5): (1347598, None, 2256.0, 523.0),
}
PUBLISHED_SOLVERS = ("ILP", "CPBayes", "A*")

#: the instances the issue reports for this package without a published figure
REPORTED = [
    ("alarm", 10000, "bic", 3),
]

QUICK = [
    ("insurance", 1000, "bdeu1", 2),
    ("water", 1000, "bic", 3),
    ("insurance", 1000, "bdeu100", 3),
]

#: ``--large``: issue 17's larger networks, 2-3 parents at N = 1000 (fNML).
LARGE = [(net, 1000, "fnml", p) for net in ("hepar2", "pathfinder", "andes") for p in (2, 3)]


def best_published(key):
    """``(seconds, solver)`` of the fastest published solver, or None if none finished."""
    entry = PUBLISHED.get(key)
    if entry is None:
        return None
    finished = [(t, s) for t, s in zip(entry[1:], PUBLISHED_SOLVERS, strict=True) if t is not None]
    return min(finished) if finished else None


def make(name, data):
    """The score ``name`` (``bdeu<ess>``, ``bic``, ``fnml``, ``qnml``) on ``data``."""
    from pgmpy_nml import FNML, QNML, BDeu
    from pgmpy_nml.scores.registry import make_score

    if name.startswith("bdeu"):
        return BDeu(data, equivalent_sample_size=float(name[4:]))
    if name == "bic":
        return make_score("bic", data)  # pgmpy's BIC, through its adapter
    if name == "fnml":
        return FNML(data)
    if name == "qnml":
        return QNML(data)
    raise ValueError(f"unknown score {name!r}; choose from {', '.join(SCORE_NAMES)}")


def warm_up() -> float:
    """Load the compiled kernels (a process's first fit pays this once)."""
    from pgmpy_nml import ExactSearch
    from pgmpy_nml.datasets import sample_network

    start = time.perf_counter()
    _, data = sample_network("asia", 200, random_state=SEED)
    ExactSearch(make("bdeu1", data), max_parents=2, show_progress=False).fit(data)
    return time.perf_counter() - start


def run_one(args):
    """Child process: one instance; prints one JSON line."""
    from pgmpy_nml import ExactSearch
    from pgmpy_nml.datasets import sample_network

    out = {"network": args.network, "n": args.n, "score": args.score, "max_parents": args.p}
    out["warm_up_s"] = warm_up()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, data = sample_network(args.network, args.n, random_state=SEED)
    score = make(args.score, data)
    out["variables"] = data.shape[1]
    search = ExactSearch(
        score,
        max_parents=args.p,
        method=args.method,
        time_limit=args.time_limit,
        show_progress=False,
    )
    wall, cpu = time.perf_counter(), cpu_seconds()
    search.fit(data)
    out["wall_s"] = time.perf_counter() - wall
    out["cpu_s"] = cpu_seconds() - cpu
    timings = {k: float(v) for k, v in search.timings_.items()}
    out["timings"] = timings
    out["scoring_s"] = timings.get("candidate parent sets", float("nan"))
    if "portfolio" in timings:  # the engines ran side by side: the portfolio's own time
        out["search_s"] = timings["portfolio"]
    else:
        out["search_s"] = sum(v for k, v in timings.items() if k != "candidate parent sets")
    out["engine"] = search.method_
    out["optimal"] = bool(search.optimal_)
    out["gap"] = float(search.gap_)
    out["score_value"] = float(search.score_)
    out["bound"] = float(search.bound_)
    report = getattr(search, "pruning_", None)
    if report is not None:
        out["candidates"] = int(report.n_kept.sum())
        out["scored"] = int(report.n_scored.sum())
    out["peak_mb"] = peak_rss_mb()
    print(json.dumps(out), flush=True)


def child(key, args):
    network, n, score, p = key
    cmd = [sys.executable, os.path.abspath(__file__), "--one", network, str(n), score, str(p)]
    cmd += ["--time-limit", str(args.time_limit), "--method", args.method]
    # a run that does not stop after its limit is a finding: kill it well after, say so
    deadline = 2 * args.time_limit + 600
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, check=False, timeout=deadline)
    except subprocess.TimeoutExpired:
        return {"error": f"still running {deadline:.0f} s after the start (limit ignored?)"}
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode or not lines:
        return {"error": (proc.stderr or proc.stdout)[-800:]}
    return json.loads(lines[-1])


def instances(args):
    if args.quick:
        todo = list(QUICK)
    elif args.large:
        todo = list(LARGE)
    elif args.all:
        todo = list(itertools.product(NETWORKS, SIZES, SCORE_NAMES, PARENT_LIMITS))
    else:
        todo = list(PUBLISHED) + REPORTED
    if args.networks:
        todo = [t for t in todo if t[0] in args.networks.split(",")]
    if args.sizes:
        todo = [t for t in todo if str(t[1]) in args.sizes.split(",")]
    if args.scores:
        todo = [t for t in todo if t[2] in args.scores.split(",")]
    if args.parents:
        todo = [t for t in todo if str(t[3]) in args.parents.split(",")]
    return todo


HEADER = (
    "| network (vars) | N | score | p | candidates: ours / BNSL-2016 | scoring s | search s "
    "| wall s (CPU) | result | engine | best published s (solver) | published / ours "
    "| load before -> after |"
)


def row(key, r):
    network, n, score, p = key
    if "error" in r:
        return f"| {network} | {n} | {score} | {p} | error: {r['error'][-200:]!r} |"
    published = PUBLISHED.get(key)
    theirs = f"{published[0]:,}" if published else "-"
    best = best_published(key)
    if published is None:
        best_text, ratio = "-", "-"
    elif best is None:
        best_text, ratio = "> 7200 (all)", "-"
    else:
        best_text = f"{best[0]:g} ({best[1]})"
        ratio = f"{best[0] / r['wall_s']:.2g}" if r["optimal"] else "-"
    status = "optimal" if r["optimal"] else f"gap {100 * r['gap']:.3g}%"
    ours = f"{r['candidates']:,}" if "candidates" in r else "-"
    engine = r["engine"].replace("|", "\\|")  # "astar|solver" inside a Markdown table
    return (
        f"| {network} ({r['variables']}) | {n} | {score} | {p} | {ours} / {theirs} | "
        f"{fmt_s(r['scoring_s'])} | {fmt_s(r['search_s'])} | {fmt_s(r['wall_s'])} "
        f"({fmt_s(r['cpu_s'])}) | {status} | {engine} | {best_text} | {ratio} | "
        f"{loads(r['load_before'])} -> {loads(r['load_after'])} |"
    )


def table(args):
    todo = instances(args)
    if not todo:
        sys.exit("bench_frontier: no instance matches the filters")
    name = "frontier_quick" if args.quick else "frontier_large" if args.large else "frontier"
    path = args.json or os.path.join(HERE, "results", f"{name}.json")
    start_load = os.getloadavg()
    print(
        f"{len(todo)} instances, method {args.method!r}, time limit {args.time_limit:g} s, "
        f"{os.cpu_count()} cores; load average at start {start_load[0]:.2f} "
        f"{start_load[1]:.2f} {start_load[2]:.2f}\n"
    )
    print(HEADER)
    print("|" + "---|" * HEADER.count(" | ") + "---|")
    results = []
    for key in todo:
        before = os.getloadavg()
        r = child(key, args)
        r["load_before"], r["load_after"] = before[:2], os.getloadavg()[:2]
        r["key"] = list(key)
        if key in PUBLISHED:
            r["published"] = dict(
                zip(("candidates", *PUBLISHED_SOLVERS), PUBLISHED[key], strict=True)
            )
        results.append(r)
        print(row(key, r), flush=True)
        write_json(
            path,
            {
                "method": args.method,
                "time_limit": args.time_limit,
                "load_at_start": start_load,
                "instances": results,
            },
        )
    end_load = os.getloadavg()
    ok = [r for r in results if "error" not in r]
    print(
        f"\nproven optimal: {sum(r['optimal'] for r in ok)}/{len(results)} "
        f"(errors: {len(results) - len(ok)}); load average at end {end_load[0]:.2f} "
        f"{end_load[1]:.2f} {end_load[2]:.2f}; results in {os.path.relpath(path)}"
    )
    write_json(
        path,
        {
            "method": args.method,
            "time_limit": args.time_limit,
            "load_at_start": start_load,
            "load_at_end": end_load,
            "instances": results,
        },
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="three small instances")
    parser.add_argument("--all", action="store_true", help="the whole grid of the families")
    parser.add_argument(
        "--large", action="store_true", help="hepar2, pathfinder, andes: N=1000 fNML p2, p3"
    )
    parser.add_argument("--networks", help=f"comma-separated subset of {','.join(NETWORKS)}")
    parser.add_argument("--sizes", help="comma-separated subset of 100,1000,10000")
    parser.add_argument("--scores", help=f"comma-separated subset of {','.join(SCORE_NAMES)}")
    parser.add_argument("--parents", help="comma-separated subset of the parent limits 2,3,4,5")
    parser.add_argument("--method", default="auto", help='ExactSearch method (default "auto")')
    parser.add_argument("--time-limit", type=float, default=600.0, help="seconds per instance")
    parser.add_argument("--json", help="results file (default: benchmarks/results/)")
    parser.add_argument(
        "--one", nargs=4, metavar=("NETWORK", "N", "SCORE", "P"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.one:
        args.network, n, args.score, p = args.one
        args.n, args.p = int(n), int(p)
        run_one(args)
    else:
        table(args)


if __name__ == "__main__":
    main()
