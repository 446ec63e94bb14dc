"""Candidate parent sets on the target networks: how many survive, and how long scoring takes.

Run::

    python benchmarks/bench_pruning.py            # the targets of the exact-learning issue
    python benchmarks/bench_pruning.py --quick    # insurance, N = 1000 only
    python benchmarks/bench_pruning.py --networks alarm --sizes 5000 --scores fnml

For each network (insurance 27 variables, water 32, alarm 37 at N = 1000 and
5000; hailfinder 56 at N = 1000), data from
``pgmpy.utils.get_example_model(name).simulate(N, seed=0)`` (bundled with pgmpy,
offline), and each score (fNML, qNML, BDeu with ESS 1, BIC: pgmpy's, through
its adapter) it runs :func:`pgmpy_nml.search.candidates.candidate_parent_sets`
with ``max_parents=3`` on all cores and prints one table row: admissible
parent sets, sets scored, sets skipped because a bound showed them dominated,
candidates kept (in all, and the largest per variable), then wall time, CPU
time (all threads) and the phases of the report (compiled counting, local
scores from statistics, bounds and dominance). One run per row, after a
warm-up that loads the compiled kernels; the load average is printed before
and after, since the machine is shared.

With ``--solve`` it also hands the candidates to the exact solver
(:func:`pgmpy_nml.search.candidates.solve`, SCIP, ``--time-limit`` seconds) and adds
its wall time and whether it proved the network optimal: the whole pipeline
of the exact-learning targets.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings

TARGETS = [
    ("insurance", 1000),
    ("insurance", 5000),
    ("water", 1000),
    ("water", 5000),
    ("alarm", 1000),
    ("alarm", 5000),
    ("hailfinder", 1000),
]
SCORES = ["fnml", "qnml", "bdeu", "bic"]


def make(name, data):
    from pgmpy_nml import FNML, QNML, BDeu
    from pgmpy_nml.scores.registry import make_score

    if name == "fnml":
        return FNML(data)
    if name == "qnml":
        return QNML(data)
    if name == "bdeu":
        return BDeu(data, equivalent_sample_size=1.0)
    if name == "bic":
        return make_score("bic", data)  # pgmpy's BIC
    raise ValueError(name)


def sample(network, n):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from pgmpy.utils import get_example_model

        model = get_example_model(network)
        return model.simulate(n, seed=0, show_progress=False)


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f}"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="insurance, N = 1000 only")
    parser.add_argument("--networks", nargs="*", help="subset of the target networks")
    parser.add_argument("--sizes", nargs="*", type=int, help="subset of the sample sizes")
    parser.add_argument("--scores", nargs="*", choices=SCORES, default=SCORES)
    parser.add_argument("--max-parents", type=int, default=3)
    parser.add_argument("--n-jobs", type=int, default=None)
    parser.add_argument("--solve", action="store_true", help="also run the exact solver")
    parser.add_argument("--time-limit", type=float, default=600.0, help="solver seconds")
    args = parser.parse_args(argv)

    from pgmpy_nml.search.candidates import candidate_parent_sets

    targets = [("insurance", 1000)] if args.quick else TARGETS
    if args.networks:
        targets = [t for t in targets if t[0] in args.networks]
    if args.sizes:
        targets = [t for t in targets if t[1] in args.sizes]

    print(f"{load()}; {os.cpu_count()} cores; max_parents = {args.max_parents}", flush=True)
    start = time.perf_counter()
    candidate_parent_sets(make("fnml", sample("asia", 100)), max_parents=2)
    print(f"warm-up (loading the compiled kernels): {time.perf_counter() - start:.2f} s")
    print()
    solver = "solver | optimal |" if args.solve else ""
    print(
        "| network | N | score | admissible | scored | skipped by bounds | kept | max per "
        f"variable | wall | CPU | counting | local scores | bounds and dominance | {solver}"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|" + "---|" * (2 * args.solve))
    for network, n in targets:
        data = sample(network, n)
        for name in args.scores:
            score = make(name, data)
            wall, cpu = time.perf_counter(), time.process_time()
            candidates, report = candidate_parent_sets(
                score, max_parents=args.max_parents, n_jobs=args.n_jobs
            )
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            t = report.timings
            solved = ""
            if args.solve:
                from pgmpy_nml.search.candidates import solve

                begin = time.perf_counter()
                result = solve(candidates, time_limit=args.time_limit, show_progress=False)
                solved = f" {time.perf_counter() - begin:.1f} s | {result.optimal} |"
            print(
                f"| {network} ({data.shape[1]}) | {n} | {name} | {report.n_admissible.sum()} | "
                f"{report.n_scored.sum()} | {report.n_skipped.sum()} | "
                f"{report.n_kept.sum()} | {candidates.n_candidates().max()} | {wall:.2f} s | "
                f"{cpu:.2f} s | {t['counting']:.2f} | {t['scoring']:.2f} | "
                f"{t['bounds and dominance']:.2f} |{solved}",
                flush=True,
            )
    print()
    print(load())


if __name__ == "__main__":
    sys.exit(main())
