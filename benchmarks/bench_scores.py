"""Speed of the local scores and of hill climbing, against pgmpy's own BDeu.

Run:  python benchmarks/bench_scores.py [--quick]

Prints, from one run on the same data and the same families, the time per
*uncached* local score of FNML, QNML, BD1/2, Min-BDeu and Max-BDeu and of
pgmpy's BDeu (N = 10**3 and 10**5 rows, 0 to 3 parents), the ratios, and a
full hill-climbing run (pgmpy.causal_discovery.HillClimbSearch) with FNML
against one with pgmpy's BDeu. Compilation is warmed up first and reported
separately. Timings are wall-clock medians over repeats.
"""

from __future__ import annotations

import argparse
import statistics
import time
import warnings

import numpy as np
import pandas as pd

import pgmpy_nml
from pgmpy_nml import FNML, QNML, BDConstant, MaxBDeu, MinBDeu
from pgmpy_nml.datasets import sample_network

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from pgmpy.causal_discovery import HillClimbSearch
    from pgmpy.structure_score import BDeu


def random_data(n, m=8, seed=0):
    rng = np.random.default_rng(seed)
    arities = rng.integers(2, 5, m)
    cols = {}
    for i in range(m):
        x = rng.integers(0, arities[i], n)
        if i:
            parent = cols[f"X{rng.integers(0, i)}"]
            x = np.where(rng.random(n) < 0.5, parent % arities[i], x)
        cols[f"X{i}"] = x
    return pd.DataFrame(cols)


def families(columns, per_size=15, seed=1):
    rng = np.random.default_rng(seed)
    out = []
    for k in range(4):
        for _ in range(per_size):
            chosen = rng.choice(columns, k + 1, replace=False).tolist()
            out.append((chosen[0], tuple(chosen[1:])))
    return out


def per_call(score, fams, repeats):
    """Median seconds per uncached local score over the families."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        for var, parents in fams:
            score._local_score(var, parents)
        times.append((time.perf_counter() - start) / len(fams))
    return statistics.median(times)


def bench_local_scores(quick):
    print("## Local scores (uncached), seconds per call; ratio = pgmpy BDeu / ours")
    print(f"{'N':>8} {'parents':>7} {'score':>10} {'per call':>10} {'ratio':>8}")
    sizes = [10**3, 10**4] if quick else [10**3, 10**5]
    for n in sizes:
        data = random_data(n)
        cols = list(data.columns)
        ours = {
            "FNML": FNML(data),
            "QNML": QNML(data),
            "BD1/2": BDConstant(data, alpha=0.5),
            "MinBDeu": MinBDeu(data),
            "MaxBDeu": MaxBDeu(data),
        }
        pgmpy_bdeu = BDeu(data, equivalent_sample_size=1.0)
        for k in range(4):
            fams = [f for f in families(cols) if len(f[1]) == k]
            for score in ours.values():  # warm-up: compile and fill regret tables
                per_call(score, fams, 1)
            ref = per_call(pgmpy_bdeu, fams, 2 if quick else 3)
            print(f"{n:>8} {k:>7} {'pgmpy BDeu':>10} {ref:>10.2e} {'1.0':>8}")
            for name, score in ours.items():
                t = per_call(score, fams, 3 if quick else 5)
                print(f"{n:>8} {k:>7} {name:>10} {t:>10.2e} {ref / t:>8.1f}")


def bench_hill_climbing(quick):
    print("\n## Hill climbing (pgmpy.causal_discovery.HillClimbSearch), seconds")
    for network, n in [("child", 2000)] if quick else [("child", 5000), ("child", 50000)]:
        _, data = sample_network(network, n, random_state=0)
        results = {}
        for name, make in (
            ("pgmpy BDeu", lambda d: BDeu(d, equivalent_sample_size=1.0)),
            ("FNML", FNML),
            ("QNML", QNML),
        ):
            start = time.perf_counter()
            score = make(data)
            search = HillClimbSearch(scoring_method=score, return_type="dag", show_progress=False)
            est = search.fit(data)
            results[name] = time.perf_counter() - start
            edges = est.causal_graph_.number_of_edges()
            print(f"{network} N={n:<6} {name:>10}: {results[name]:7.2f} s ({edges} edges)")
        base = results["pgmpy BDeu"]
        for name in ("FNML", "QNML"):
            ratio = base / results[name]
            print(f"{network} N={n:<6} speed-up of {name} over pgmpy BDeu: {ratio:.1f}x")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, for a smoke run")
    args = parser.parse_args()
    print(f"pgmpy-nml {pgmpy_nml.__version__}")
    start = time.perf_counter()
    FNML(random_data(50)).local_score("X1", ["X0"])
    MaxBDeu(random_data(50)).local_score("X1", ["X0"])
    print(f"first call (numba compile or cache load): {time.perf_counter() - start:.2f} s\n")
    bench_local_scores(args.quick)
    bench_hill_climbing(args.quick)


if __name__ == "__main__":
    main()
