"""SCIP's zerohalf cuts at the bound-first solver's root: with and without them.

Run::

    python benchmarks/exp_zerohalf.py --instance andes-n1000-bic-p3 --seconds 300
    python benchmarks/exp_zerohalf.py --instance andes-n1000-bic-p3 --seconds 300 --without

The bound-first solver (the portfolio's second, ``_scip_model.BOUND_FIRST``) alone, in
branch and cut (never root pricing) on one core, over the candidates of one instance of
``bench_suite.py``; ``--without`` leaves out ``_scip_model.ROOT_ZEROHALF``, ``--set
name=value`` adds SCIP settings. Prints the nodes, the bound and the network every 15 s
or so (at SCIP's events), the root's bound when the root is left, and at the end the
status, the wall and CPU time, the network, the bound and its distance above the network.
Run two side by side for a comparison under the same load.

``--pricing`` runs the solver as the portfolio does on instances with many candidates:
root pricing, then branch and price (:mod:`pgmpy_nml.search.candidates._branch_price`),
where ``--set`` applies to the branch and price. The end line adds the nodes and the
LP iterations of the last SCIP model, and those of its strong branching::

    python benchmarks/exp_zerohalf.py --instance plants-fnml-p2 --seconds 600 --pricing \
        --set branching/relpscost/maxreliable=0 branching/relpscost/minreliable=0
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_suite import load_data, make_score, suite

from pgmpy_nml.search.candidates import _scip_plugins, _solver, candidate_parent_sets


def _value(text: str):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return {"True": True, "False": False}.get(text, text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--instance", default="andes-n1000-bic-p3")
    parser.add_argument("--seconds", type=float, default=300.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--without", action="store_true", help="no ROOT_ZEROHALF")
    parser.add_argument("--set", nargs="*", default=[], help="SCIP settings name=value")
    parser.add_argument("--pricing", action="store_true", help="root pricing first")
    args = parser.parse_args()
    from pyscipopt import SCIP_EVENTTYPE, Eventhdlr

    inst = next(i for i in suite() if i.name == args.instance)
    data = load_data(inst)
    start = time.perf_counter()
    cands, _ = candidate_parent_sets(make_score(inst.score, data), max_parents=inst.max_parents)
    print(
        f"{inst.name}: {int(cands.n_candidates().sum()):,} candidates, scored in "
        f"{time.perf_counter() - start:.1f} s; load {os.getloadavg()}",
        flush=True,
    )
    if args.without:
        _solver.ROOT_ZEROHALF = {}
    extra = dict(item.split("=", 1) for item in args.set)
    offset = cands.upper_bound()  # the objective is the score minus this
    clock = {"begin": time.perf_counter(), "last": 0.0, "root": None, "model": None}

    class Log(Eventhdlr):
        def eventinit(self):
            self.model.catchEvent(SCIP_EVENTTYPE.NODESOLVED | SCIP_EVENTTYPE.LPSOLVED, self)

        def eventexec(self, event):
            model, now = self.model, time.perf_counter() - clock["begin"]
            if clock["root"] is None and model.getNNodes() > 1:
                clock["root"] = now
                print(
                    f"root left at {now:.1f} s, its bound {model.getDualboundRoot() + offset:.2f}",
                    flush=True,
                )
            if now - clock["last"] >= 15:
                clock["last"] = now
                print(
                    f"{now:6.1f} s  nodes {model.getNNodes():6d}  bound "
                    f"{model.getDualbound() + offset:.2f}  network "
                    f"{model.getPrimalbound() + offset:.2f}",
                    flush=True,
                )

    plain = _scip_plugins.start_search

    def start_search(model, stop, settings, *rest):
        settings = {**settings, **{k: _value(v) for k, v in extra.items()}}
        print("settings:", settings, flush=True)
        model.includeEventhdlr(Log(), "log", "the experiment's lines")
        clock["model"] = model
        plain(model, stop, settings, *rest)

    _scip_plugins.start_search = start_search
    cpu = time.process_time()
    clock["begin"] = time.perf_counter()
    result = _solver._branch_and_cut(
        cands, None, args.seconds, 0.0, args.seed, None, None, True, 0.8, pricing=args.pricing
    )
    model = clock["model"]
    lps = "no SCIP model"
    if model is not None:
        lps = (
            f"nodes {model.getNNodes()}, LP iterations {model.getNLPIterations():,}, of them "
            f"strong branching {model.getNStrongbranchLPIterations():,}"
        )
    above = 100 * (result.bound - result.score) / abs(result.score)
    print(
        f"end: {result.status}, {time.perf_counter() - clock['begin']:.1f} s wall, "
        f"{time.process_time() - cpu:.1f} s CPU; {lps}; network {result.score:.3f}, bound "
        f"{result.bound:.3f} ({above:.4f}% above it); root left at {clock['root']} s; "
        f"load {os.getloadavg()}",
        flush=True,
    )


if __name__ == "__main__":
    main()
