"""The candidate search with the superset bounds of an earlier commit, against today's.

Run (from the clone)::

    python benchmarks/exp_supersets.py --against 9974c50 --scores qnml,fnml,bdeu10

For each score, ``candidate_parent_sets`` on the suite's andes instance (``bench_suite``:
andes, N = 1000, 3 parents, 2 cores) runs twice in fresh processes, alternating: once
with ``_Lattice.supersets`` as it was in the commit ``--against`` (its ``_lattice.py``,
loaded beside today's package) and once as it is now. Each line gives the wall and CPU
seconds, the search's own timings, the load average before the run and a checksum of
the candidates' scores (the two must be equal: the bounds are the same).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def one(name: str, old_source: str | None) -> dict:
    import bench_suite as bs

    from pgmpy_nml.search.candidates import _lattice, candidate_parent_sets

    if old_source:  # the earlier commit's supersets, on today's lattice
        module = "pgmpy_nml.search.candidates._lattice_before"
        spec = importlib.util.spec_from_file_location(module, old_source)
        old = importlib.util.module_from_spec(spec)
        sys.modules[module] = old
        spec.loader.exec_module(old)
        _lattice._Lattice.supersets = old._Lattice.supersets
    inst = {i.name: i for i in bs.suite()}[name]
    data = bs.load_data(inst)
    score = bs.make_score(inst.score, data)
    load = os.getloadavg()[0]
    wall, cpu = time.perf_counter(), time.process_time()
    cands, report = candidate_parent_sets(score, max_parents=inst.max_parents, n_jobs=2)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    digest = hashlib.sha1(b"".join(s.tobytes() for s in cands.scores)).hexdigest()[:12]
    return {
        "instance": name,
        "supersets": "before" if old_source else "now",
        "wall s": round(wall, 1),
        "CPU s": round(cpu, 1),
        "load": round(load, 2),
        "candidates": int(cands.n_candidates().sum()),
        "scored": int(report.n_scored.sum()),
        "timings": {k: round(v, 1) for k, v in report.timings.items()},
        "scores sha1": digest,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="9974c50", help="the earlier commit")
    parser.add_argument("--scores", default="qnml,fnml,bdeu10")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--one", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one[0], args.one[1] or None)))
        return
    path = "pgmpy_nml/search/candidates/_lattice.py"
    source = subprocess.run(
        ["git", "show", f"{args.against}:{path}"], capture_output=True, text=True, check=True
    ).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as stream:
        stream.write(source)
    try:
        for _ in range(args.repeats):
            for score in args.scores.split(","):
                for old in (stream.name, ""):
                    name = f"andes-n1000-{score}-p3"
                    run = [sys.executable, __file__, "--one", name, old]
                    out = subprocess.run(run, capture_output=True, text=True, check=True)
                    print(out.stdout.strip().splitlines()[-1], flush=True)
    finally:
        os.unlink(stream.name)


if __name__ == "__main__":
    main()
