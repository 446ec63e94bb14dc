"""The cluster separation's time on root pricing's LP solutions (issue 35).

Runs root pricing on an instance of ``bench_suite.py`` for ``--seconds``, keeps about
``--solutions`` of the LP solutions its separation saw, then times each separation routine
of :mod:`pgmpy_nml.search.candidates._clusters` on them (the peeling, the short cycles, the
two together, the local search), twice, and the solver's two-variable cluster rows three
times. With ``--against COMMIT``, that module as it was in the commit
(loaded beside today's package, as ``exp_supersets.py`` does) is timed beside it,
interleaved, and both must return the same clusters::

    python benchmarks/exp_separation.py --instance nips-fnml-p2 --seconds 60 --against 9e815ef

The figures are in ``benchmarks/README.md`` ("The peelings share their steps").
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

ROUTINES = ("_violated_clusters", "_cycle_clusters", "_separated_clusters", "_local_clusters")


def _before(commit: str):
    """``_clusters.py`` as it was in ``commit``, imported beside today's package (its
    relative imports resolve there) from a file of its own (so its own numba cache)."""
    source = subprocess.run(
        ["git", "show", f"{commit}:pgmpy_nml/search/candidates/_clusters.py"],
        cwd=HERE, check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    path = os.path.join(tempfile.mkdtemp(), f"_clusters_{commit}.py")
    with open(path, "w") as f:
        f.write(source)
    name = f"pgmpy_nml.search.candidates._clusters_{commit}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def main(argv=None):
    from exp_root_pricing import suite_families

    from pgmpy_nml.search.candidates import _clusters, _pricing
    from pgmpy_nml.search.candidates._heuristics import _greedy, _improve

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instance", default="nips-fnml-p2")
    parser.add_argument("--seconds", type=float, default=60.0, help="of root pricing")
    parser.add_argument("--solutions", type=int, default=40)
    parser.add_argument("--against", help="a commit whose _clusters.py is timed beside this one")
    args = parser.parse_args(argv)

    fam, _, _ = suite_families(args.instance)
    seen = []
    separate = _pricing._new_clusters

    def recorded(fam_, x, *rest):
        seen.append(x.copy())
        return separate(fam_, x, *rest)

    _pricing._new_clusters = recorded
    first = _improve(fam, _greedy(fam))
    _pricing.root_pricing(fam, first, deadline=time.perf_counter() + args.seconds)
    _pricing._new_clusters = separate
    xs = seen[:: max(1, len(seen) // args.solutions)]
    print(
        f"{args.instance}: {fam.n} variables, {len(fam):,} candidates; {len(xs)} of the "
        f"{len(seen)} LP solutions of {args.seconds:.0f} s of root pricing; load "
        f"{tuple(round(v, 2) for v in os.getloadavg())}",
        flush=True,
    )
    modules = [("this", _clusters)]
    if args.against:
        modules.append((args.against, _before(args.against)))
        if not hasattr(fam, "pmask"):  # the dense mask _clusters.py read until 2026-12-07
            fam.pmask = fam.preds_mask(slice(None))
    for _, module in modules:  # compile outside the timings
        for routine in ROUTINES:
            getattr(module, routine)(fam, xs[0])
    for rep in range(2):
        found = {}
        for label, module in modules:
            cells = []
            for routine in ROUTINES:
                wall, cpu = time.perf_counter(), time.process_time()
                out = [getattr(module, routine)(fam, x) for x in xs]
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                found.setdefault(routine, {})[label] = out
                cells.append(
                    f"{routine} {1000 * wall / len(xs):.1f} ms ({1000 * cpu / len(xs):.1f} CPU), "
                    f"{sum(map(len, out))} clusters"
                )
            print(f"rep {rep}, {label}: " + "; ".join(cells), flush=True)
        if args.against:
            same = all(f["this"] == f[args.against] for f in found.values())
            print(f"the same clusters: {same}", flush=True)
            if not same:
                sys.exit(1)
    _time_pairs(fam, modules, args.against)
    print(f"load {tuple(round(v, 2) for v in os.getloadavg())}")


def _time_pairs(fam, modules, against) -> None:
    """Time the solver's two-variable cluster rows (``_pair_clusters``) of each module,
    three times, interleaved; with ``against``, both must give the same rows."""
    import numpy as np

    for rep in range(3):
        rows, cells = {}, []
        for label, module in modules:
            wall, cpu = time.perf_counter(), time.process_time()
            rows[label] = module._pair_clusters(fam)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            cells.append(f"{label} {cpu:.2f} s CPU ({wall:.2f} s wall)")
        line = f"two-variable rows, rep {rep}: {len(rows['this']):,} pairs; " + ", ".join(cells)
        if against:
            same = len(rows["this"]) == len(rows[against]) and all(
                a[0] == b[0] and np.array_equal(a[1], b[1])
                for a, b in zip(rows["this"], rows[against], strict=True)
            )
            line += f"; the same rows: {same}"
            if not same:
                print(line, flush=True)
                sys.exit(1)
        print(line, flush=True)


if __name__ == "__main__":
    main()
