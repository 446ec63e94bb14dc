"""Candidate restriction of LocalSearch: time and score against the unrestricted search.

Run (a few minutes; munin's unrestricted search alone takes about 25 s per repetition)::

    python benchmarks/bench_local_candidates.py                 # alarm andes pigs link munin
    python benchmarks/bench_local_candidates.py --networks alarm andes --reps 2
    python benchmarks/bench_local_candidates.py --networks munin --configs "k=30, 1 round" \
        --no-reversed

Data: ``pgmpy_nml.datasets.sample_network(name, 5000, random_state=0)`` (forward samples of
pgmpy's offline BIF files, columns sorted by name), drawn before any clock starts.
Score: ``BDeu(data, equivalent_sample_size=1.0)``, built inside the timed region.
Search: ``LocalSearch(method="hill", n_jobs=1)`` with the settings in ``CONFIGS``
(``None``: the unrestricted search). One thread: the numba, BLAS and OpenMP thread
counts are set to 1 before anything is imported.

Each network: a warm-up fit (loads the compiled kernels), then ``--reps``
repetitions in which the settings run interleaved; the table gives the fastest CPU
time (``time.process_time``) and the fastest wall time, the score, its relative
difference to the unrestricted search's score, ``(unrestricted - score) /
|unrestricted|`` (positive: lower), the number of edges, and the load average
(``os.getloadavg``, 1 minute) before the network's runs. The last line of each
network is one unrestricted run on the columns in reverse order: how far greedy
hill climbing itself moves when only its tie-breaking (column order) changes.
"""

from __future__ import annotations

import os

for _name in ("NUMBA_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_name] = "1"

import argparse  # noqa: E402
import time  # noqa: E402

from pgmpy_nml import BDeu, LocalSearch  # noqa: E402
from pgmpy_nml.datasets import sample_network  # noqa: E402

NETWORKS = ["alarm", "andes", "pigs", "link", "munin"]
CONFIGS = {
    "unrestricted": {},
    "k=5, 1 round": {"candidates": 5, "candidate_rounds": 1},
    "k=10, 1 round": {"candidates": 10, "candidate_rounds": 1},
    "k=30, 1 round": {"candidates": 30, "candidate_rounds": 1},
    "k=5, 2 rounds": {"candidates": 5, "candidate_rounds": 2},
    "k=10, 2 rounds (auto)": {"candidates": "auto"},
    "k=20, 2 rounds": {"candidates": 20, "candidate_rounds": 2},
}


def fit(data, options):
    cpu, wall = time.process_time(), time.perf_counter()
    search = LocalSearch(
        BDeu(data, equivalent_sample_size=1.0),
        method="hill",
        n_jobs=1,
        show_progress=False,
        **options,
    ).fit()
    return time.process_time() - cpu, time.perf_counter() - wall, search


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--networks", nargs="+", default=NETWORKS)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--n", type=int, default=5000)
    parser.add_argument(
        "--configs", nargs="+", default=list(CONFIGS), help="labels of CONFIGS to run"
    )
    parser.add_argument(
        "--no-reversed", action="store_true", help="skip the run on the columns reversed"
    )
    args = parser.parse_args()
    configs = {label: CONFIGS[label] for label in ["unrestricted", *args.configs]}
    print(
        "| network | variables | candidates | CPU (wall) | score | vs unrestricted | edges | load |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for name in args.networks:
        _, data = sample_network(name, args.n, random_state=0)
        fit(data.iloc[:200], {"candidates": 3})  # warm-up: load the compiled kernels
        load = os.getloadavg()[0]
        best = {label: (float("inf"), float("inf"), None) for label in configs}
        for _ in range(args.reps):
            for label, options in configs.items():
                cpu, wall, search = fit(data, options)
                old_cpu, old_wall, _ = best[label]
                best[label] = (min(cpu, old_cpu), min(wall, old_wall), search)
        reference = best["unrestricted"][2].score_
        for label, (cpu, wall, search) in best.items():
            relative = (reference - search.score_) / abs(reference)
            print(
                f"| {name} | {data.shape[1]} | {label} | {cpu:.2f} s ({wall:.2f}) | "
                f"{search.score_:.1f} | {100 * relative:+.3f}% | "
                f"{search.causal_graph_.number_of_edges()} | {load:.1f} |",
                flush=True,
            )
        if args.no_reversed:
            continue
        cpu, wall, search = fit(data[list(data.columns)[::-1]], {})
        relative = (reference - search.score_) / abs(reference)
        print(
            f"| {name} | {data.shape[1]} | unrestricted, columns reversed (1 run) | "
            f"{cpu:.2f} s ({wall:.2f}) | {search.score_:.1f} | {100 * relative:+.3f}% | "
            f"{search.causal_graph_.number_of_edges()} | {os.getloadavg()[0]:.1f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
