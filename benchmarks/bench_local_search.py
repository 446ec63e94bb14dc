"""Local search: LocalSearch against pyAgrum's greedy hill climbing and pgmpy's HillClimbSearch.

Run (pyAgrum lives in a separate environment; it is not a dependency)::

    python3 -m venv /work/venv-bench
    /work/venv-bench/bin/pip install pyAgrum -e .
    /work/venv-bench/bin/python benchmarks/bench_local_search.py            # about 15 minutes
    /work/venv-bench/bin/python benchmarks/bench_local_search.py --quick    # child and alarm

Data: forward samples (``seed=0``, columns sorted by name, values as strings) of
pgmpy's offline example networks (the BIF files shipped in
``pgmpy/utils/example_models``): child (20 variables), insurance (27), alarm (37),
hailfinder (56), win95pts (76), with N = 5000 and 50,000; andes (223) with
N = 10,000.

1. Against pyAgrum (C++) ``BNLearner.useGreedyHillClimbing()`` on one thread
   (``setNumberOfThreads(1)``), from the DataFrame to the DAG, on the same data
   with the same score: BDeu with equivalent sample size 1 (pyAgrum's
   ``useScoreBDeu()``, ours ``BDeu``) and BIC (``useScoreBIC()``, ours pgmpy's
   ``BIC``). pyAgrum reports scores in bits; the objectives agree up to that
   factor, so both searches climb the same landscape (ties and tie-breaking
   aside). ``LocalSearch(n_jobs=1)``, score construction included. Both DAGs
   are scored with our BDeu / pgmpy's BIC.
2. Against pgmpy's ``pgmpy.causal_discovery.HillClimbSearch`` (its defaults:
   tabu list of 100, epsilon 1e-4; DAG result) with the *same score object*
   (a fresh instance per run, built before the clock starts, so that no cache
   carries over): ``fit`` only, FNML, QNML, BDeu.
3. Greedy against tabu search with restarts (``method="tabu", tabu_length=30,
   max_non_improving=30, restarts=20, perturb=10, random_state=0``), fNML, qNML and
   BDeu, N = 5000: scores and the structural Hamming distance (SHD: missing,
   extra and reversed edges) to the true network.
4. andes, N = 10,000, greedy fNML, on one thread and on all cores.
5. The cost of a repeated (cached) ``local_score`` call of this package's scores.

Each comparison runs its competitors interleaved in one process (after a
warm-up run that loads the compiled kernels), repeated; it reports the
fastest CPU time (``time.process_time``: the process's CPU seconds, all threads)
and the fastest wall time, and prints the load average (``os.getloadavg``) at
each network. On a busy machine compare CPU times and ratios.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import time
import timeit
import warnings

import pgmpy

from pgmpy_nml import FNML, QNML, BDeu, LocalSearch

try:
    import pyagrum as gum
except ImportError:  # pragma: no cover - depends on the environment
    try:
        import pyAgrum as gum
    except ImportError:
        gum = None

NETWORKS = ["child", "insurance", "alarm", "hailfinder", "win95pts"]
TABU = {
    "method": "tabu",
    "tabu_length": 30,
    "max_non_improving": 30,
    "restarts": 20,
    "perturb": 10,
    "random_state": 0,
}


def load(name):
    from pgmpy.readwrite import BIFReader

    path = os.path.join(os.path.dirname(pgmpy.__file__), "utils", "example_models")
    with open(os.path.join(path, f"{name}.bif.gz"), "rb") as fh:
        return BIFReader(string=gzip.decompress(fh.read()).decode("utf-8")).get_model()


def sample(model, n_rows):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        data = model.simulate(n_rows, seed=0, show_progress=False)
    return data[sorted(data.columns)].astype(str)


def shd(learned, true):
    """Structural Hamming distance: missing, extra and reversed edges (a reversal counts 1)."""
    a, b = set(learned.edges()), set(true.edges())
    pairs = {frozenset(e) for e in a | b}
    return sum(
        1
        for p in pairs
        if {e for e in a if frozenset(e) == p} != {e for e in b if frozenset(e) == p}
    )


def timed(run):
    """(result, cpu seconds, wall seconds) of ``run()``."""
    cpu, wall = time.process_time(), time.perf_counter()
    out = run()
    return out, time.process_time() - cpu, time.perf_counter() - wall


def fastest(times):
    return min(t[0] for t in times), min(t[1] for t in times)


def load_average():
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


# -- the competitors ---------------------------------------------------------------------
def ours(score_factory, data, **options):
    def run():
        return LocalSearch(score_factory(data), show_progress=False, n_jobs=1, **options).fit()

    return run


def ours_given(score, **options):
    def run():
        return LocalSearch(score, show_progress=False, n_jobs=1, **options).fit()

    return run


def agrum(data, score):
    def run():
        learner = gum.BNLearner(data)
        learner.useGreedyHillClimbing()
        learner.setNumberOfThreads(1)
        learner.useScoreBDeu() if score == "bdeu" else learner.useScoreBIC()
        dag = learner.learnDAG()
        import networkx as nx

        graph = nx.DiGraph()
        graph.add_nodes_from(data.columns)
        graph.add_edges_from((learner.nameFromId(u), learner.nameFromId(v)) for u, v in dag.arcs())
        return graph

    return run


def pgmpy_hill(score, data):
    from pgmpy.causal_discovery import HillClimbSearch

    def run():
        search = HillClimbSearch(score, return_type="dag", show_progress=False)
        return search.fit(data).causal_graph_

    return run


def pgmpy_bic(data):
    from pgmpy.structure_score import BIC

    return BIC(data)


# -- the sections ------------------------------------------------------------------------
def versus_agrum(networks, sizes, repeats, results):
    if gum is None:
        print("\n(pyAgrum is not installed here: section 1 skipped)")
        return
    print(f"\n## 1. against pyAgrum {gum.__version__} greedy hill climbing, one thread")
    print("| network | N | score | pyAgrum CPU (wall) | ours CPU (wall) | CPU ratio | ", end="")
    print("pyAgrum edges / score | ours edges / score |")
    print("|---|---|---|---|---|---|---|---|")
    for name in networks:
        model = load(name)
        for n_rows in sizes:
            data = sample(model, n_rows)
            for score_name, factory in (("bdeu", BDeu), ("bic", pgmpy_bic)):
                ours(factory, data)()  # warm-up
                t_agrum, t_ours = [], []
                for _ in range(repeats):
                    g, cpu, wall = timed(agrum(data, score_name))
                    t_agrum.append((cpu, wall))
                    r, cpu, wall = timed(ours(factory, data))
                    t_ours.append((cpu, wall))
                scorer = factory(data)
                a, o = fastest(t_agrum), fastest(t_ours)
                row = {
                    "network": name,
                    "N": n_rows,
                    "score": score_name,
                    "agrum_cpu": a[0],
                    "agrum_wall": a[1],
                    "ours_cpu": o[0],
                    "ours_wall": o[1],
                    "agrum_edges": g.number_of_edges(),
                    "ours_edges": r.causal_graph_.number_of_edges(),
                    "agrum_score": scorer.score(g),
                    "ours_score": r.score_,
                }
                results["agrum"].append(row)
                print(
                    f"| {name} | {n_rows} | {score_name} | {a[0]:.3f} s ({a[1]:.3f}) | "
                    f"{o[0]:.3f} s ({o[1]:.3f}) | {a[0] / o[0]:.1f}x | "
                    f"{row['agrum_edges']} / {row['agrum_score']:.1f} | "
                    f"{row['ours_edges']} / {row['ours_score']:.1f} |",
                    flush=True,
                )
        print(f"<!-- {name}: {load_average()} -->", flush=True)


def versus_pgmpy(networks, sizes, repeats, results):
    print("\n## 2. against pgmpy's HillClimbSearch with the same score object")
    print("| network | N | score | pgmpy CPU (wall) | ours CPU (wall) | CPU ratio | ", end="")
    print("pgmpy score | ours score |")
    print("|---|---|---|---|---|---|---|---|")
    for name in networks:
        model = load(name)
        for n_rows in sizes:
            data = sample(model, n_rows)
            for score_name, factory in (("fnml", FNML), ("qnml", QNML), ("bdeu", BDeu)):
                ours(factory, data)()  # warm-up
                t_pgmpy, t_ours = [], []
                for k in range(repeats):
                    if k == 0 or n_rows <= 5000:
                        g, cpu, wall = timed(pgmpy_hill(factory(data), data))
                        t_pgmpy.append((cpu, wall))
                    r, cpu, wall = timed(ours_given(factory(data)))
                    t_ours.append((cpu, wall))
                p, o = fastest(t_pgmpy), fastest(t_ours)
                row = {
                    "network": name,
                    "N": n_rows,
                    "score": score_name,
                    "pgmpy_cpu": p[0],
                    "pgmpy_wall": p[1],
                    "ours_cpu": o[0],
                    "ours_wall": o[1],
                    "pgmpy_score": factory(data).score(g),
                    "ours_score": r.score_,
                }
                results["pgmpy"].append(row)
                print(
                    f"| {name} | {n_rows} | {score_name} | {p[0]:.3f} s ({p[1]:.3f}) | "
                    f"{o[0]:.3f} s ({o[1]:.3f}) | {p[0] / o[0]:.1f}x | "
                    f"{row['pgmpy_score']:.1f} | {row['ours_score']:.1f} |",
                    flush=True,
                )
        print(f"<!-- {name}: {load_average()} -->", flush=True)


def greedy_versus_tabu(networks, results):
    print("\n## 3. greedy against tabu search with restarts, N = 5000")
    print(f"tabu settings: {TABU}")
    print("| network | score | greedy score (SHD) | tabu+restarts score (SHD) | gain | ", end="")
    print("greedy CPU | tabu+restarts CPU |")
    print("|---|---|---|---|---|---|---|")
    for name in networks:
        model = load(name)
        data = sample(model, 5000)
        for score_name, factory in (("fnml", FNML), ("qnml", QNML), ("bdeu", BDeu)):
            greedy, g_cpu, _ = timed(ours_given(factory(data)))
            tabu, t_cpu, _ = timed(ours_given(factory(data), **TABU))
            row = {
                "network": name,
                "score": score_name,
                "greedy_score": greedy.score_,
                "greedy_shd": shd(greedy.causal_graph_, model),
                "tabu_score": tabu.score_,
                "tabu_shd": shd(tabu.causal_graph_, model),
                "greedy_cpu": g_cpu,
                "tabu_cpu": t_cpu,
            }
            results["tabu"].append(row)
            print(
                f"| {name} | {score_name} | {row['greedy_score']:.1f} ({row['greedy_shd']}) | "
                f"{row['tabu_score']:.1f} ({row['tabu_shd']}) | "
                f"{row['tabu_score'] - row['greedy_score']:+.1f} | {g_cpu:.3f} s | "
                f"{t_cpu:.3f} s |",
                flush=True,
            )


def andes(results):
    print("\n## 4. andes (223 variables), N = 10,000, greedy fNML")
    model = load("andes")
    data = sample(model, 10_000)
    for n_jobs in (1, -1):
        search, cpu, wall = timed(
            lambda n_jobs=n_jobs: LocalSearch(FNML(data), show_progress=False, n_jobs=n_jobs).fit()
        )
        row = {
            "n_jobs": n_jobs,
            "cpu": cpu,
            "wall": wall,
            "moves": search.n_iter_,
            "edges": search.causal_graph_.number_of_edges(),
            "shd": shd(search.causal_graph_, model),
        }
        results["andes"].append(row)
        print(
            f"n_jobs={n_jobs}: {wall:.1f} s wall, {cpu:.1f} s CPU, {row['moves']} moves, "
            f"{row['edges']} edges (true 338), SHD {row['shd']}; {load_average()}",
            flush=True,
        )


def cached_calls(results):
    print("\n## 5. a repeated (cached) local_score call")
    data = sample(load("child"), 5000)
    score = FNML(data)
    v = list(data.columns)
    for label, parents in (("list of 2", [v[1], v[2]]), ("tuple of 3", (v[3], v[4], v[5]))):
        score.local_score(v[0], parents)
        per_call = min(timeit.repeat(lambda p=parents: score.local_score(v[0], p), number=20_000))
        ns = per_call / 20_000 * 1e9
        results["cached"].append({"parents": label, "ns": ns})
        print(f"FNML.local_score(child, {label}): {ns:.0f} ns per call")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="child and alarm, N = 5000")
    parser.add_argument("--networks", default=",".join(NETWORKS))
    parser.add_argument("--sizes", default="5000,50000")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sections", default="1,2,3,4,5")
    parser.add_argument("--json", default=None, help="write the results to this file")
    args = parser.parse_args()
    networks = args.networks.split(",")
    sizes = [int(s) for s in args.sizes.split(",")]
    sections = set(args.sections.split(","))
    if args.quick:
        networks, sizes, sections = ["child", "alarm"], [5000], sections - {"4"}
    print(f"# bench_local_search ({load_average()}, {os.cpu_count()} cores)")
    results = {"agrum": [], "pgmpy": [], "tabu": [], "andes": [], "cached": []}
    if "1" in sections:
        versus_agrum(networks, sizes, args.repeats, results)
    if "2" in sections:
        versus_pgmpy(networks, sizes, args.repeats, results)
    if "3" in sections:
        greedy_versus_tabu(networks, results)
    if "4" in sections:
        andes(results)
    if "5" in sections:
        cached_calls(results)
    print(f"\n# done ({load_average()})")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(results, fh, indent=1)


if __name__ == "__main__":
    main()
