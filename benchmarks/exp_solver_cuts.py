"""The bound-first solver alone on one core, with or without its root's extra cuts.

Runs the portfolio's second solver (``bound_first``: SCIP's branch and cut with the
sub-IP separation at its root) on an instance of ``bench_suite.py`` for ``--seconds``,
and prints its bound's distance above the best network known (``results/suite.jsonl``),
the cuts it added and SCIP's nodes; ``--stats FILE`` writes SCIP's statistics (where
the time went). The candidates are saved under ``--cache`` (default: the system's
temporary directory), so that runs of the same instance skip the scoring. The figures
are in ``benchmarks/README.md`` ("2-cluster cuts at the bound-first solver's root",
"Branch and price after root pricing", "The local search in branch and price's
separation, from one root"). Root pricing stops on the clock, so two runs of the solver
start branch and price from different roots: ``--save-root`` and ``--root`` compare
settings of branch and price from one.

Run two settings side by side, one per core::

    python benchmarks/exp_solver_cuts.py --instance barley-n500-qnml-p3 --k-clusters
    python benchmarks/exp_solver_cuts.py --instance barley-n500-qnml-p3 --no-k-clusters
    # at the rounds where the peeling and the cycles found cuts, the cluster sub-IP only
    # while the sub-IPs have taken less than a quarter of the time (0: never there)
    python benchmarks/exp_solver_cuts.py --instance andes-n1000-bic-p3 --sub-ip-share 0.25
    # after root pricing (100,000 candidates or more), SCIP's model over every family it
    # kept instead of branch and price
    python benchmarks/exp_solver_cuts.py --instance pathfinder-n1000-bdeu1-p3 --no-branch-and-price
    # branch and price alone, from one root pricing: save the root once, then run two
    # settings side by side from it (here branch and price's separation with and without
    # the local search for clusters, which only this script adds)
    python benchmarks/exp_solver_cuts.py --instance plants-fnml-p2 --seconds 600 \
        --save-root /tmp/plants.root
    python benchmarks/exp_solver_cuts.py --instance plants-fnml-p2 --seconds 450 \
        --root /tmp/plants.root --local-search
    python benchmarks/exp_solver_cuts.py --instance plants-fnml-p2 --seconds 450 \
        --root /tmp/plants.root
    # any of SCIP's parameters
    python benchmarks/exp_solver_cuts.py --instance barley-n500-qnml-p3 \\
        --param branching/relpscost/maxreliable=1
"""

from __future__ import annotations

import argparse
import math
import os
import pickle
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def candidates_of(name: str, cache: str):
    """The candidates of ``bench_suite.py``'s instance ``name`` (from ``cache`` when saved
    there before) and its best known score over every record (None if not run)."""
    import bench_suite

    from pgmpy_nml.search.candidates import CandidateParentSets

    best = bench_suite.best_known(bench_suite.RESULTS).get(name)
    path = os.path.join(cache, f"{name}.candidates")
    if os.path.exists(path):
        return CandidateParentSets.from_file(path), best
    from exp_root_pricing import suite_families

    _, candidates, _ = suite_families(name)
    candidates.to_file(path)
    return candidates, best


def _param(text: str):
    """``(name, value)`` of a ``NAME=VALUE`` argument; the value as an int, a float or a
    bool where it reads as one."""
    name, _, value = text.partition("=")
    for kind in (int, float):
        try:
            return name, kind(value)
        except ValueError:
            pass
    return name, {"true": True, "false": False}.get(value.lower(), value)


class _RootSaved(Exception):
    """Root pricing is over and saved (``--save-root``)."""


def _saving_root(solver, path: str) -> None:
    """Patch ``solver`` (the module) so that its root pricing is saved to ``path`` (the
    candidate families, the first network and the :class:`PricedRoot`), then stops the
    run with :class:`_RootSaved`."""
    real = solver.root_pricing

    def saving(fam, first, *args, **kwargs):
        start = time.perf_counter()
        priced = real(fam, first, *args, **kwargs)
        with open(path, "wb") as out:
            pickle.dump((fam, first, priced), out)
        print(
            f"root pricing saved to {path} after {time.perf_counter() - start:.1f} s: bound "
            f"{priced.bound + math.fsum(fam.best):.2f}, converged {priced.converged}, "
            f"{len(priced.cuts)} cuts, {int(priced.kept.sum()):,} families kept",
            flush=True,
        )
        raise _RootSaved

    solver.root_pricing = saving


def _with_local_search(plugins, found: list) -> None:
    """Patch ``plugins`` (the module) so that where the peeling and the short cycles find
    no cluster, the separation takes those of the local search
    (:func:`._clusters._local_clusters`), as root pricing does; how many it found at each
    call is appended to ``found``. At the root, the sub-IP then runs only within
    :data:`._scip_plugins.SUB_IP_SHARE`."""
    from pgmpy_nml.search.candidates._clusters import _local_clusters

    separated = plugins._separated_clusters

    def with_local(fam, x, *args, **kwargs):
        clusters = separated(fam, x, *args, **kwargs)
        if not clusters:
            clusters = _local_clusters(fam, x, support=kwargs.get("support"))
            found.append(len(clusters))
        return clusters

    plugins._separated_clusters = with_local


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instance", required=True, help="an instance of bench_suite.py")
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument(
        "--k-clusters", action=argparse.BooleanOptionalAction, default=True, help="2-cluster cuts"
    )
    parser.add_argument(
        "--sub-ip-share",
        type=float,
        default=None,
        help="the cluster sub-IP's share of the time at busy rounds (default: the package's)",
    )
    parser.add_argument(
        "--branch-and-price",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="after root pricing, price the kept families at the nodes (else all are columns)",
    )
    parser.add_argument(
        "--local-search",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="the local search for clusters in the separation where the peeling and the "
        "short cycles find none (patched in: the package has it in root pricing only)",
    )
    parser.add_argument(
        "--save-root", metavar="FILE", help="save root pricing to FILE and stop there"
    )
    parser.add_argument(
        "--root",
        metavar="FILE",
        help="branch and price alone for --seconds, from the root pricing saved in FILE",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cache", default=tempfile.gettempdir())
    parser.add_argument("--stats", help="write SCIP's statistics to this file")
    parser.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a SCIP parameter of the model (repeatable), e.g. branching/relpscost/maxreliable=1",
    )
    args = parser.parse_args(argv)

    from pgmpy_nml.search.candidates import _branch_price, _solver
    from pgmpy_nml.search.candidates import _scip_plugins as plugins

    start = time.perf_counter()
    candidates, best = candidates_of(args.instance, args.cache)
    print(
        f"{args.instance}: {int(candidates.n_candidates().sum()):,} candidates, best known "
        f"{best}, scoring or loading {time.perf_counter() - start:.1f} s, "
        f"load average {os.getloadavg()}",
        flush=True,
    )
    plugins.K_CLUSTERS = (2,) if args.k_clusters else ()
    if args.sub_ip_share is not None:
        plugins.SUB_IP_SHARE = args.sub_ip_share
    local_found: list[int] = []
    if args.local_search:
        _with_local_search(plugins, local_found)
    if args.save_root:
        _saving_root(_solver, args.save_root)
    params = [_param(p) for p in args.param]
    models, handlers = [], []
    build, include = _solver._model, plugins.include_plugins

    def model(*a, **k):
        models.append(build(*a, **k))
        for name, value in params:
            models[-1][0].setParam(name, value)
        return models[-1]

    def plugins_of(*a, **k):
        handlers.append(include(*a, **k))
        return handlers[-1]

    real_priced = _branch_price.priced_model

    priced: list = []  # branch and price's columns

    def priced_model(model, columns, *a, **k):  # branch and price's model
        models.append((model,))
        priced.append(columns)
        for name, value in params:
            model.setParam(name, value)
        return real_priced(model, columns, *a, **k)

    pricers: list = []

    class Recorded(_branch_price.FamilyPricer):
        def __init__(self, *a):
            super().__init__(*a)
            pricers.append(self)

    _branch_price.FamilyPricer = Recorded  # type: ignore[misc]
    _solver._model, plugins.include_plugins = model, plugins_of
    _branch_price.priced_model = priced_model
    _solver.BRANCH_AND_PRICE = args.branch_and_price
    wall, cpu = time.perf_counter(), time.process_time()
    if args.root:
        with open(args.root, "rb") as saved:
            fam, first, priced_root = pickle.load(saved)
        timings: dict[str, float] = {}
        choice, bound, status, n_cuts = _branch_price.priced_search(
            fam, priced_root, first, args.seconds, 0.0, args.seed, None, None, None, timings
        )
        score = fam.total(choice)
        bound = min(bound, priced_root.bound + math.fsum(fam.best))
        gap = (bound - score) / abs(score)
    else:
        try:
            result = _solver._solve(
                candidates, None, args.seconds, 0.0, args.seed, False, bound_first=True
            )
        except _RootSaved:
            return
        status, score, bound, gap = result.status, result.score, result.bound, result.gap
        timings, n_cuts = result.timings or {}, result.n_cuts
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    seconds = {k: round(t, 1) for k, t in timings.items()}
    above = ""
    if best is not None:
        above = f", {(bound - best) / abs(best):.4%} above the best known"
    print(
        f"k-clusters {args.k_clusters}, sub-IP share {plugins.SUB_IP_SHARE}, "
        f"local search {args.local_search}, parameters {params}"
        + (f", from {args.root}" if args.root else "")
        + f": {status} after {wall:.1f} s ({cpu:.1f} s of CPU), score {score:.2f}, "
        f"bound {bound:.2f}, gap {gap:.4%}{above}; cuts {n_cuts} "
        f"(2-cluster {sum(h.n_k_cuts for h in handlers)}; local search {sum(local_found)} "
        f"in {sum(f > 0 for f in local_found)} of {len(local_found)} calls), "
        f"{sum(h.n_sub_ips for h in handlers)} sub-IPs in "
        f"{sum(h.sub_ip_seconds for h in handlers):.1f} s, "
        f"nodes {models[-1][0].getNNodes() if models else 0}; "
        + (
            f"branch and price: {priced[-1].n_priced} families priced in, "
            f"{len(priced[-1].families)} columns, {priced[-1].n_again} cuts' rows back, "
            f"{pricers[-1].rounds} pricing rounds "
            f"({pricers[-1].farkas_rounds} Farkas) in {pricers[-1].seconds:.1f} s; "
            if priced
            else ""
        )
        + f"seconds {seconds}; "
        f"load average {os.getloadavg()}",
        flush=True,
    )
    if args.stats and models:
        models[-1][0].writeStatistics(args.stats)


if __name__ == "__main__":
    main()
