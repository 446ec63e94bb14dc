"""The same problem on OR-Tools CP-SAT, for comparison with the package's SCIP solver.

Not part of the package (``pip install ortools`` to run it). One Boolean per
candidate family, exactly one per variable; acyclicity by a linear order: a
Boolean ``y[u, v]`` (u before v) per pair of variables, two clauses per triple
for transitivity, and each family implies that its parents come before its
child. The two-variable cluster constraints are added as linear constraints
for the LP relaxation. The objective is integral: local scores relative to
each variable's best, times ``scale``, rounded; the returned network's score is
recomputed exactly in float, and the bound is widened by the rounding error
(at most ``n / (2 * scale)``).
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import replace

import numpy as np

from pgmpy_nml.search.candidates._clusters import _pair_clusters
from pgmpy_nml.search.candidates._families import _cycle_free, _Families, _network_result
from pgmpy_nml.search.candidates._heuristics import _greedy, _improve


def solve_cpsat(candidates, time_limit=None, n_workers=2, seed=0, scale=1e6, log=False):
    from ortools.sat.python import cp_model

    timings = {}
    start = time.perf_counter()
    fam = _Families(candidates)
    n = fam.n
    first = _greedy(fam)
    if first is not None:
        first = _improve(fam, first)
    timings["first network"] = time.perf_counter() - start

    start = time.perf_counter()
    model = cp_model.CpModel()
    b = [model.new_bool_var(f"x{f}") for f in range(len(fam))]
    for v in range(n):
        model.add_exactly_one(b[f] for f in fam.families(v))
    y = {}
    for u, v in itertools.combinations(range(n), 2):
        y[u, v] = model.new_bool_var(f"y{u}_{v}")

    def before(u, v):
        return y[u, v] if u < v else ~y[v, u]

    for f in range(len(fam)):
        v = int(fam.child[f])
        for u in fam.parents[f]:
            model.add_implication(b[f], before(u, v))
    for a, c, d in itertools.combinations(range(n), 3):
        model.add_bool_or([~y[a, c], ~y[c, d], y[a, d]])
        model.add_bool_or([y[a, c], y[c, d], ~y[a, d]])
    for _, fams in _pair_clusters(fam):
        model.add(sum(b[f] for f in fams) <= 1)
    coef = np.rint(fam.loss * scale).astype(np.int64)
    model.maximize(sum(int(c) * b[f] for f, c in enumerate(coef) if c))
    if first is not None:
        chosen = set(first.tolist())
        for f in range(len(fam)):
            model.add_hint(b[f], f in chosen)
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = int(n_workers)
    solver.parameters.random_seed = int(seed)
    solver.parameters.log_search_progress = bool(log)
    if time_limit is not None:
        solver.parameters.max_time_in_seconds = float(time_limit)
    timings["model"] = time.perf_counter() - start

    start = time.perf_counter()
    status = solver.solve(model)
    timings["search"] = time.perf_counter() - start
    name = solver.status_name(status)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        raise RuntimeError(f"CP-SAT ended with status {name}.")
    choice = np.array(
        [next(f for f in fam.families(v) if solver.boolean_value(b[f])) for v in range(n)]
    )
    assert _cycle_free(fam, choice)
    score = fam.total(choice)
    offset = math.fsum(fam.best)
    slack = n * 0.5 / scale  # rounding of the objective coefficients
    bound = max(score, solver.best_objective_bound / scale + offset + slack)
    # the bound and gap keep the rounding slack (CP-SAT's optimum is the rounded problem's)
    result = _network_result(
        fam,
        candidates,
        choice,
        bound,
        name.lower(),
        method="cp-sat",
        engine="cp-sat",
        timings=timings,
    )
    return replace(result, bound=bound, gap=(bound - score) / max(abs(score), 1e-12))
