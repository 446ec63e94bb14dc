"""pyAgrum's structure learners for ``bench_density.py``, run with pyAgrum's own Python.

Not part of the package and never imported by it: ``bench_density.py --pyagrum PYTHON``
runs this file with that interpreter (a virtual environment where ``pip install pyagrum``
worked; pyAgrum is never a dependency of pgmpy-nml)::

    PYTHON _pyagrum_density.py train.csv {greedy,tabu} {bdeu,bic}

It reads the training rows (a CSV file with a header), learns a DAG on one thread with no
in-degree limit, and prints one JSON line: the edges (column names), the CPU seconds
(``time.process_time``) and wall seconds of the learning alone (the CSV read included,
as pyAgrum reads the file in ``BNLearner``), and pyAgrum's version. Both searches use
pyAgrum's defaults otherwise: ``useGreedyHillClimbing()``, ``useLocalSearchWithTabuList()``
(a tabu list of 100, at most 2 consecutive score decreases), BDeu with pyAgrum's prior weight 1.
"""

from __future__ import annotations

import json
import sys
import time

import pyagrum as gum


def main(path: str, algorithm: str, score: str) -> None:
    started_wall, started_cpu = time.perf_counter(), time.process_time()
    learner = gum.BNLearner(path)
    learner.setNumberOfThreads(1)
    if algorithm == "greedy":
        learner.useGreedyHillClimbing()
    elif algorithm == "tabu":
        learner.useLocalSearchWithTabuList()
    else:
        raise SystemExit(f"unknown algorithm {algorithm!r}")
    if score == "bdeu":
        learner.useScoreBDeu()
    elif score == "bic":
        learner.useScoreBIC()
    else:
        raise SystemExit(f"unknown score {score!r}")
    learner.setMaxIndegree(100_000)
    dag = learner.learnDAG()
    edges = [[learner.nameFromId(u), learner.nameFromId(v)] for u, v in dag.arcs()]
    print(
        json.dumps(
            {
                "edges": edges,
                "cpu": time.process_time() - started_cpu,
                "wall": time.perf_counter() - started_wall,
                "version": gum.__version__,
            }
        )
    )


if __name__ == "__main__":
    main(*sys.argv[1:4])
