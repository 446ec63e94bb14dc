"""Probes into the package's internals for tests: what a search computes on the way.

Unlike ``_reference.py`` (independent implementations), these call the package's own
private machinery, to check intermediate quantities (bounds) against references.
"""

import numpy as np

from pgmpy_nml.scores.pgmpy_adapters import contract_for
from pgmpy_nml.search.candidates._tasks import _StatisticProblem, _Task
from pgmpy_nml.search.constraints import Constraints


def _family_bounds(score, variable, parent_sets, max_parents=None, expert_knowledge=None):
    """``(scores, bounds)`` of ``variable`` with each of ``parent_sets`` (names, one size,
    admissible), computed as the search computes them; ``bounds`` is None without a bound
    or room to grow. The candidate search's own code on chosen sets."""
    contract = contract_for(score)
    variables = tuple(contract.encoded.variables)
    constraints = Constraints.from_knowledge(variables, max_parents, expert_knowledge)
    problem = _StatisticProblem(contract, constraints)
    v = variables.index(variable)
    task = _Task(problem, [v], 1)
    lat = task.lattices[0]
    where = {int(u): k for k, u in enumerate(lat.allowed)}
    required = {int(u) for u in lat.required}
    rows = []
    for parents in parent_sets:
        internal = {int(problem.to_internal[variables.index(u)]) for u in parents}
        if not required <= internal:
            raise ValueError(f"{parents!r} lacks a required parent of {variable!r}.")
        rows.append(sorted(where[u] for u in internal - required))
    sizes = {len(r) for r in rows}
    if len(sizes) != 1:
        raise ValueError("parent_sets must all have the same size.")
    lat.X = np.array(rows, dtype=np.int64).reshape(len(rows), sizes.pop())
    lat.level = lat.X.shape[1]
    parents = lat.parents()
    fams = lat.families(parents)
    task.store.ensure([parents, fams])
    return task.evaluate(0, parents, fams)[:2]
