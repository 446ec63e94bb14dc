"""Root pricing alone, on one core: the Lagrangian bound over time (issue 17).

The bound-first solver prices its root from 100,000 candidates on
(:mod:`pgmpy_nml.search.candidates._pricing`, whose notes give the method and its
proof); this script runs that root pricing alone, from the network of the iterated
order search (``--instance``: the solver's greedy first network), and prints every
better bound with its time, so that its settings can be compared. The figures are in
``benchmarks/README.md`` ("Root pricing for many candidates", "Root pricing: idle cuts
leave the LP").

Run::

    python benchmarks/exp_root_pricing.py                      # pathfinder, p3, 450 s
    python benchmarks/exp_root_pricing.py --price-ratio 0      # price only between cut loops
    python benchmarks/exp_root_pricing.py --network hepar2 --seconds 60
    # an instance of bench_suite.py, as before idle cuts were purged
    python benchmarks/exp_root_pricing.py --instance plants-fnml-p2 --seconds 150 \
        --purge-every 0 --no-stall-pricing
    # on counts, not the clock: the same bound in every run
    python benchmarks/exp_root_pricing.py --instance plants-fnml-p2 --seconds 300 \
        --evaluate-rounds 100 --sub-ip no-lp

``--evaluate-rounds K`` and ``--sub-ip`` make the loop depend on counts only, so two runs
give the same bound (``benchmarks/README.md``, "Root pricing on counts"). This script
patches the package for them, as an experiment: the pricing module's clock counts LP
rounds (an evaluation every ``K`` of them instead of every ``--evaluate-every`` seconds;
``--seconds`` still counts real time), and the cluster sub-IPs (SCIP models named
``cluster``) stop at the end of their first LP (``first-lp``) or solve no LP and stop
after their root node (``no-lp``), instead of after ``--sub-ip-seconds``; with ``a+b``,
the sub-IPs of ``b`` run where those of ``a`` find no new cluster. The last line sums up
the local searches for clusters (``--no-local-search``: none, as before they came in)
and the cluster sub-IPs: SCIP's status, nodes, LP iterations, solutions and seconds.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bench_solver import peak_rss_mb  # noqa: E402


def fnml_families(network, n, parents):
    """The candidate families (fNML, at most ``parents`` parents) of
    ``sample_network(network, n, random_state=0)``, which the experiments start from."""
    from pgmpy_nml import FNML
    from pgmpy_nml.datasets import sample_network
    from pgmpy_nml.search.candidates import candidate_parent_sets
    from pgmpy_nml.search.candidates._families import _checked_families

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, data = sample_network(network, n, random_state=0)
    candidates, _ = candidate_parent_sets(FNML(data), max_parents=parents)
    return _checked_families(candidates)


def suite_families(name):
    """The candidate families of ``bench_suite.py``'s instance ``name``, its candidates
    and the best network known for it in ``results/suite.jsonl`` (None if not run)."""
    import bench_suite

    from pgmpy_nml.search.candidates import candidate_parent_sets
    from pgmpy_nml.search.candidates._families import _checked_families

    instance = {i.name: i for i in bench_suite.suite()}[name]
    score = bench_suite.make_score(instance.score, bench_suite.load_data(instance))
    candidates, _ = candidate_parent_sets(score, max_parents=instance.max_parents)
    best = bench_suite.best_known(bench_suite.RESULTS).get(name)
    return _checked_families(candidates), candidates, best


def _on_counts(pricing, evaluate_rounds: int | None, sub_ip: str, seconds: float) -> list:
    """Patch ``pricing`` (the module) and PySCIPOpt so that root pricing depends on counts
    only (module notes); ``seconds``: the real time limit. Returns the list that will hold
    each cluster sub-IP's ``(status, nodes, LP iterations, solutions, seconds)``, and
    each local search for clusters' ``("local", 0, 0, clusters found, seconds)``."""
    import types

    import pyscipopt

    modes = sub_ip.split("+")  # each sub-IP mode in turn while no new cluster is found
    mode = [modes[0]]
    records: list[tuple] = []
    if evaluate_rounds is not None:
        rounds = [0]
        unit = pricing.EVALUATE_SECONDS / evaluate_rounds
        real_deadline = time.perf_counter() + seconds
        solve = pricing._RestrictedLP.solve

        def counted(lp, _seconds):
            rounds[0] += 1
            left = real_deadline - time.perf_counter()
            return (False, 0.0, None, None) if left <= 0 else solve(lp, left)

        pricing.time = types.SimpleNamespace(perf_counter=lambda: rounds[0] * unit)
        pricing._RestrictedLP.solve = counted
    if len(modes) > 1:
        new_clusters = pricing._new_clusters

        def in_turn(fam, x, known, sub_ip_seconds, local_search):
            for mode[0] in modes:
                new = new_clusters(fam, x, known, sub_ip_seconds, local_search)
                if new:
                    break
            return new

        pricing._new_clusters = in_turn
    local_clusters = pricing._local_clusters

    def recorded(fam, x, **kwargs):
        start = time.perf_counter()
        found = local_clusters(fam, x, **kwargs)
        records.append(("local", 0, 0, len(found), time.perf_counter() - start))
        return found

    pricing._local_clusters = recorded

    class FirstLP(pyscipopt.Eventhdlr):
        def eventinit(self):
            self.model.catchEvent(pyscipopt.SCIP_EVENTTYPE.LPSOLVED, self)

        def eventexit(self):
            self.model.dropEvent(pyscipopt.SCIP_EVENTTYPE.LPSOLVED, self)

        def eventexec(self, event):
            self.model.interruptSolve()

    class Model(pyscipopt.Model):
        def optimize(self):
            if self.getProbName() != "cluster":
                return super().optimize()
            if mode[0] != "clock":
                self.setRealParam("limits/time", 60.0)  # a safety net, never reached
                if mode[0] == "no-lp":
                    self.setIntParam("lp/solvefreq", -1)
                    self.setLongintParam("limits/nodes", 1)
                else:
                    self.includeEventhdlr(FirstLP(), "first LP", "stops at the first LP")
            start = time.perf_counter()
            super().optimize()
            took = time.perf_counter() - start
            stats = (self.getNNodes(), self.getNLPIterations(), self.getNSols(), took)
            records.append((self.getStatus(), *stats))

    pyscipopt.Model = Model
    return records


def _sub_ip_summary(records: list) -> str:
    """One line on the cluster sub-IPs that :func:`_on_counts` recorded."""
    import collections

    import numpy as np

    searches = [r for r in records if r[0] == "local"]
    records = [r for r in records if r[0] != "local"]
    line = ""
    if searches:
        found = [r[3] for r in searches]
        line = (
            f"{len(searches)} local searches for clusters, {sum(f > 0 for f in found)} "
            f"finding some ({sum(found)} in all), {sum(r[4] for r in searches):.1f} s; "
        )
    if not records:
        return line + "no cluster sub-IP ran"
    status = collections.Counter(r[0] for r in records)
    nodes, iterations, solutions, seconds = np.array([r[1:] for r in records], dtype=float).T
    return line + (
        f"{len(records)} cluster sub-IPs ({dict(status)}): medians {np.median(nodes):.0f} "
        f"nodes, {np.median(iterations):.0f} LP iterations, {np.median(solutions):.0f} "
        f"solutions, {np.median(seconds):.3f} s; {seconds.sum():.1f} s in all"
    )


def main(argv=None):
    from pgmpy_nml.search.candidates import _pricing

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--network", default="pathfinder")
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--parents", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=450.0, help="for the pricing")
    parser.add_argument("--price-ratio", type=float, default=_pricing.PRICE_RATIO)
    parser.add_argument("--evaluate-every", type=float, default=_pricing.EVALUATE_SECONDS)
    parser.add_argument("--top", type=int, default=_pricing.TOP)
    parser.add_argument("--instance", help="an instance of bench_suite.py instead")
    parser.add_argument("--purge-every", type=int, default=_pricing.PURGE_EVERY)
    parser.add_argument("--purge-age", type=int, default=_pricing.PURGE_AGE)
    parser.add_argument("--purge-times", type=int, default=_pricing.PURGE_TIMES)
    parser.add_argument(
        "--purge-columns", type=int, default=_pricing.PURGE_COLUMNS, help="0: keep every column"
    )
    parser.add_argument(
        "--no-stall-pricing", action="store_true", help="price only by --price-ratio"
    )
    parser.add_argument(
        "--sub-ip-seconds",
        type=float,
        default=_pricing.SUB_IP_SECONDS,
        help="a component's cluster sub-IP",
    )
    parser.add_argument(
        "--evaluate-rounds", type=int, help="evaluate every this many LPs, not seconds"
    )
    parser.add_argument(
        "--sub-ip",
        choices=("clock", "first-lp", "no-lp", "no-lp+first-lp"),
        default="clock",
        help="how a cluster sub-IP stops (clock: after --sub-ip-seconds; a+b: b where a "
        "finds no new cluster)",
    )
    parser.add_argument(
        "--no-local-search",
        action="store_true",
        help="no local search for clusters between the peeling and the sub-IP",
    )
    args = parser.parse_args(argv)

    from pgmpy_nml.search.candidates._heuristics import (
        ORDER_ROUNDS,
        _greedy,
        _improve,
        _order_search,
    )

    print(f"load average at start: {os.getloadavg()}", flush=True)
    start = time.perf_counter()
    best_known = None
    if args.instance:
        from pgmpy_nml.search.candidates._solver import _first_network

        fam, candidates, best_known = suite_families(args.instance)
        first = _first_network(fam, candidates, None)
        label = args.instance
    else:
        fam = fnml_families(args.network, args.n, args.parents)
        first = _improve(fam, _greedy(fam))
        deadline = time.perf_counter() + 15
        first = _order_search(fam, first, seed=0, rounds=ORDER_ROUNDS, deadline=deadline)
        label = f"{args.network} p{args.parents} N={args.n}"
    offset = math.fsum(fam.best)
    network = math.fsum(fam.loss[first])
    print(
        f"{label}: {len(fam)} candidates, first network {network + offset:.2f}, best known "
        f"{best_known}, scoring and first network {time.perf_counter() - start:.1f} s",
        flush=True,
    )

    def from_best(bound):
        if best_known is None:
            return ""
        return f", {(bound + offset - best_known) / abs(best_known):.3%} above the best known"

    # after the scoring and the first network, which count on the real clock
    sub_ips = _on_counts(_pricing, args.evaluate_rounds, args.sub_ip, args.seconds)
    begin = time.perf_counter()
    cpu = time.process_time()

    def report(bound):
        gap = (bound - network) / abs(network + offset)
        print(
            f"{time.perf_counter() - begin:6.0f} s: bound {bound + offset:.2f}, gap {gap:.3%}"
            + from_best(bound),
            flush=True,
        )

    priced = _pricing.root_pricing(
        fam,
        first,
        deadline=begin + args.seconds,
        report=report,
        evaluate_every=args.evaluate_every,
        price_ratio=args.price_ratio,
        top=args.top,
        purge_every=args.purge_every,
        purge_age=args.purge_age,
        purge_times=args.purge_times,
        purge_columns=args.purge_columns,
        price_on_stall=not args.no_stall_pricing,
        sub_ip_seconds=args.sub_ip_seconds,
        local_search=not args.no_local_search,
    )
    gap = (priced.bound - network) / abs(network + offset)
    steps = ", ".join(f"{step} {s:.0f}" for step, s in priced.seconds.items())
    if args.evaluate_rounds is not None:  # the module's clock counted LPs
        steps = "not timed (the clock counted LPs)"
    print(
        f"after {time.perf_counter() - begin:.0f} s ({time.process_time() - cpu:.0f} s of CPU):"
        f" bound {priced.bound + offset:.2f}, gap {gap:.3%}{from_best(priced.bound)}; "
        f"{priced.rounds} LPs, {priced.pricings} pricings; seconds {steps}; "
        f"{priced.columns.size} families in the last LP ({priced.columns_dropped} purged), "
        f"{priced.n_cuts} cuts added; "
        f"{int(priced.kept.sum())} of "
        f"{len(fam)} families kept; peak {peak_rss_mb():.0f} MB; load {os.getloadavg()}",
        flush=True,
    )
    print(_sub_ip_summary(sub_ips), flush=True)


if __name__ == "__main__":
    main()
