"""The root's cut loop with and without the shortest-cycle cuts (issue 17).

Each separation round of the solver adds the clusters of the greedy peeling (one per
strongly connected component of the LP's support graph) and those of the shortest
cycle through each variable (:func:`pgmpy_nml.search.candidates._clusters._cycle_clusters`,
whose notes give the method and its proof). This script runs the bound-first solver's
root node alone (SCIP, one core, the portfolio's second solver's settings) on the same
candidates twice, without the cycles and with them, and prints the bound after each
round of cuts (at most one line a second), so that the two can be compared. The
figures are in ``benchmarks/README.md`` ("Cycle cuts").

Run::

    python benchmarks/exp_cycle_cuts.py                       # andes p3, 120 s each
    python benchmarks/exp_cycle_cuts.py --network hepar2 --parents 2 --seconds 30
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from exp_root_pricing import fnml_families  # noqa: E402


def root_cut_loop(fam, seconds, cycles):
    """The bound-first solver's root on ``fam`` for ``seconds``: prints a line per round
    of cuts (at most one a second) and returns ``(bound, rounds, cuts)``."""
    from pgmpy_nml.search.candidates import _clusters, _solver
    from pgmpy_nml.search.candidates import _scip_plugins as plugins

    offset = math.fsum(fam.best)
    model, xvars, avars, arrows_of = _solver._model(fam, seconds, 0.0, 1)
    handler = plugins.include_plugins(model, fam, xvars, avars, arrows_of, None, offset, "root")
    for name, value in _solver.BOUND_FIRST.items():
        model.setParam(name, value)
    model.setLongintParam("limits/nodes", 1)
    separate = handler.conssepalp
    rounds, shown = [0], [-math.inf]
    begin = time.perf_counter()

    def logged(constraints, nusefulconss):
        result = separate(constraints, nusefulconss)
        rounds[0] += 1
        now = time.perf_counter() - begin
        if now - shown[0] >= 1.0:
            shown[0] = now
            print(
                f"  {now:6.1f} s  round {rounds[0]:4d}  bound {model.getDualbound() + offset:.2f}"
                f"  network {model.getPrimalbound() + offset:.2f}  cuts {handler.n_cuts}",
                flush=True,
            )
        return result

    handler.conssepalp = logged
    original = _clusters._cycle_clusters
    if not cycles:
        _clusters._cycle_clusters = lambda *args, **kwargs: []
    try:
        model.optimize()
    finally:
        _clusters._cycle_clusters = original
    return model.getDualbound() + offset, rounds[0], handler.n_cuts


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--network", default="andes")
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--parents", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=120.0, help="for each root")
    args = parser.parse_args(argv)

    print(f"load average at start: {os.getloadavg()}", flush=True)
    start = time.perf_counter()
    fam = fnml_families(args.network, args.n, args.parents)
    print(
        f"{args.network} p{args.parents} N={args.n}: {len(fam)} candidates, trivial bound "
        f"{math.fsum(fam.best):.2f}, scoring {time.perf_counter() - start:.1f} s",
        flush=True,
    )
    for cycles in (False, True):
        print("peeling and sub-IP" + (", and the shortest cycles" if cycles else " only"))
        cpu = time.process_time()
        bound, rounds, cuts = root_cut_loop(fam, args.seconds, cycles)
        print(
            f"  after {args.seconds:.0f} s ({time.process_time() - cpu:.0f} s of CPU): bound "
            f"{bound:.2f}, {rounds} rounds, {cuts} cuts; load {os.getloadavg()}",
            flush=True,
        )


if __name__ == "__main__":
    main()
