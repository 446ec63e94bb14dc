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
    )
    gap = (priced.bound - network) / abs(network + offset)
    print(
        f"after {time.perf_counter() - begin:.0f} s ({time.process_time() - cpu:.0f} s of CPU):"
        f" bound {priced.bound + offset:.2f}, gap {gap:.3%}{from_best(priced.bound)}; "
        f"{priced.rounds} LPs, {priced.pricings} pricings; seconds "
        + ", ".join(f"{step} {s:.0f}" for step, s in priced.seconds.items())
        + "; "
        f"{priced.columns.size} families in the last LP ({priced.columns_dropped} purged), "
        f"{priced.n_cuts} cuts added; "
        f"{int(priced.kept.sum())} of "
        f"{len(fam)} families kept; peak {peak_rss_mb():.0f} MB; load {os.getloadavg()}",
        flush=True,
    )


if __name__ == "__main__":
    main()
