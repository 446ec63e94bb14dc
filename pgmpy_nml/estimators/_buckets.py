r"""Batched bucket elimination: exact posteriors over a few discrete variables, many rows at once.

The missing cells of a data row that a network's moral graph connects form a
*component*; given the row's observed cells, its posterior is a product of factors
(the network's conditional probability tables with the observed values plugged in)
over the component's variables only. Rows whose components have the same variables
share the factors' scopes, so one elimination schedule serves them all, and every
operation below works on arrays whose first axis runs over those rows.

For variables :math:`x_1, \dots, x_k` of arities :math:`r_j` and factors
:math:`\phi_f(x_{S_f})` (one array per factor, shape ``(n, *r[S_f])``):

- :func:`schedule` chooses an elimination order greedily (the variable whose bucket
  has the fewest cells first, ties to the lower index) and records the buckets;
- :func:`forward` eliminates: bucket :math:`x` multiplies the factors and messages
  that mention :math:`x` into :math:`\psi_x(U_x)` and sends
  :math:`m_x(U_x \setminus x) = \sum_x \psi_x` (or :math:`\max_x`) to the bucket of
  the first variable of :math:`U_x \setminus x` eliminated after it. Each
  :math:`\psi_x` is divided by its largest entry per row (the logarithms add up), so
  nothing underflows. What is left is :math:`\log Z = \log \sum_x \prod_f \phi_f`
  per row (the log-probability of the row's observed cells), or, with ``max``, the
  log-probability of the most probable completion;
- :func:`sample` draws exactly from the posterior
  :math:`P(x) = \prod_f \phi_f / Z`: in reverse order of elimination, :math:`x` from
  :math:`\psi_x` given the variables of :math:`U_x \setminus x`, which are drawn
  already (backward sampling);
- :func:`traceback` is the same with the maximizing state (the most probable
  completion; among equally probable states the first);
- :func:`beliefs` calibrates the buckets (Hugin's downward pass,
  :math:`\beta_x = \psi_x \cdot \sum_{U_p \setminus (U_x \setminus x)} \beta_p / m_x`,
  :math:`0/0 = 0`), so that each :math:`\beta_x` is the posterior of :math:`U_x`;
  :func:`factor_marginals` sums them down to each factor's scope.

References: R. Dechter, "Bucket elimination: a unifying framework for reasoning",
Artificial Intelligence 113, 1999; D. Koller and N. Friedman, *Probabilistic
Graphical Models*, MIT Press 2009, Sec. 9.3, 10.2-10.3 (calibration) and 12.1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

__all__ = ["Schedule", "beliefs", "factor_marginals", "forward", "sample", "schedule", "traceback"]


@dataclass(frozen=True)
class Step:
    """One bucket: the variable it eliminates, its scope, what it multiplies, where its
    message goes (the index of that step, -1 when the message is a number per row)."""

    var: int
    scope: tuple[int, ...]
    inputs: tuple[int, ...]
    message: tuple[int, ...]
    parent: int


@dataclass(frozen=True)
class Schedule:
    """The buckets of one set of variables and factor scopes (see :func:`schedule`).

    ``home[f]`` is the step whose bucket holds factor ``f``; a factor id ``>= len(scopes)``
    is the message of step ``id - len(scopes)``.
    """

    arities: tuple[int, ...]
    scopes: tuple[tuple[int, ...], ...]
    steps: tuple[Step, ...]
    home: tuple[int, ...]

    @property
    def largest(self) -> int:
        """Cells of the largest bucket (per row)."""
        return max(math.prod(self.arities[u] for u in step.scope) for step in self.steps)


@lru_cache(maxsize=1 << 14)
def schedule(arities: tuple[int, ...], scopes: tuple[tuple[int, ...], ...]) -> Schedule:
    """The buckets of variables ``0..k-1`` (``arities``) for factors with ``scopes``.

    Each scope is a sorted tuple of variables; every variable must be in some scope.
    Schedules are cached: the components of many rows share them.
    The order is greedy: the variable whose bucket has the fewest cells goes first
    (ties to the lower index), which is exact and, on the small components of
    missing cells, as good as any order.
    """
    arities = tuple(int(r) for r in arities)
    scopes = tuple(tuple(s) for s in scopes)
    active = {f: set(s) for f, s in enumerate(scopes)}
    remaining = set(range(len(arities)))
    steps: list[Step] = []
    parent = {}
    home = [-1] * len(scopes)
    while remaining:
        best = None
        for v in sorted(remaining):
            union = set().union(*(s for s in active.values() if v in s)) or {v}
            cells = math.prod(arities[u] for u in union)
            if best is None or cells < best[0]:
                best = (cells, v, union)
        assert best is not None
        _, var, union = best
        inputs = tuple(sorted(f for f, s in active.items() if var in s))
        index = len(steps)
        for f in inputs:
            del active[f]
            if f < len(scopes):
                home[f] = index
            else:
                parent[f - len(scopes)] = index
        message = tuple(sorted(union - {var}))
        if message:
            active[len(scopes) + index] = set(message)
        steps.append(Step(var, tuple(sorted(union)), inputs, message, -1))
        remaining.discard(var)
    steps = [
        Step(s.var, s.scope, s.inputs, s.message, parent.get(i, -1)) for i, s in enumerate(steps)
    ]
    return Schedule(arities, scopes, tuple(steps), tuple(home))


def _expand(array: np.ndarray, scope, target, arities) -> np.ndarray:
    """``array`` (rows, *scope) with singleton axes for the variables of ``target`` it lacks
    (both sorted), ready to broadcast."""
    shape = (array.shape[0], *(arities[u] if u in scope else 1 for u in target))
    return array.reshape(shape)


def forward(sched: Schedule, factors, op: str = "sum"):
    """Eliminate every variable: ``(psi, messages, log_z)``.

    ``factors[f]`` has shape ``(n, *arities[scopes[f]])`` and holds non-negative
    values. ``psi[s]`` is bucket ``s``'s product (scaled by a positive number per
    row), ``messages[s]`` the message it sent, ``log_z`` (shape ``(n,)``) the log of
    the sum (``op="sum"``) or of the maximum (``op="max"``) of the product of the
    factors over every configuration; ``-inf`` where that is 0.
    """
    arities, n_factors = sched.arities, len(sched.scopes)
    n = factors[0].shape[0] if factors else 0
    values = dict(enumerate(factors))
    scope_of = dict(enumerate(sched.scopes))
    log_z = np.zeros(n)
    psi, messages = [], []
    reduce = np.sum if op == "sum" else np.max
    for index, step in enumerate(sched.steps):
        product = None
        for f in step.inputs:
            term = _expand(values.pop(f), scope_of[f], step.scope, arities)
            product = term if product is None else product * term
        if product is None:  # a variable no factor mentions: uniform
            product = np.ones((n, arities[step.var]))
        peak = product.reshape(n, -1).max(axis=1)
        peak = np.where(peak > 0, peak, 1.0)
        product = product / peak.reshape((n,) + (1,) * len(step.scope))
        with np.errstate(divide="ignore"):
            log_z += np.log(peak)
        message = reduce(product, axis=1 + step.scope.index(step.var))
        psi.append(product)
        messages.append(message)
        if step.message:
            values[n_factors + index] = message
            scope_of[n_factors + index] = step.message
        else:
            with np.errstate(divide="ignore"):
                log_z += np.log(message)
    return psi, messages, log_z


def _conditional(sched: Schedule, psi, index: int, rows, values) -> np.ndarray:
    """Bucket ``index``'s product as a function of its variable, the others set to
    ``values`` (one row of it per entry of ``rows``): shape ``(len(rows), r)``."""
    step = sched.steps[index]
    table = np.moveaxis(psi[index], 1 + step.scope.index(step.var), -1)
    where = (rows, *(values[:, u] for u in step.scope if u != step.var))
    return table[where]


def sample(sched: Schedule, psi, rows: np.ndarray, uniforms: np.ndarray) -> np.ndarray:
    """Draws from the posterior: ``values[i]`` for row ``rows[i]`` of the batch.

    ``psi`` from :func:`forward` with ``op="sum"``; ``uniforms`` has shape
    ``(len(rows), k)``, entries in ``[0, 1)``, one per variable (inverse transform
    sampling: the first state whose cumulative weight exceeds ``u`` times the total).
    """
    values = np.zeros((len(rows), len(sched.arities)), dtype=np.int64)
    for index in range(len(sched.steps) - 1, -1, -1):
        var = sched.steps[index].var
        weights = _conditional(sched, psi, index, rows, values)
        cumulative = np.cumsum(weights, axis=1)
        threshold = uniforms[:, var] * cumulative[:, -1]
        drawn = (cumulative <= threshold[:, None]).sum(axis=1)
        values[:, var] = np.minimum(drawn, weights.shape[1] - 1)
    return values


def traceback(sched: Schedule, psi) -> np.ndarray:
    """The most probable configuration of each row (``psi`` from ``op="max"``); among
    equally probable states of a variable given those chosen after it, the first."""
    n = psi[0].shape[0] if psi else 0
    rows = np.arange(n)
    values = np.zeros((n, len(sched.arities)), dtype=np.int64)
    for index in range(len(sched.steps) - 1, -1, -1):
        var = sched.steps[index].var
        values[:, var] = np.argmax(_conditional(sched, psi, index, rows, values), axis=1)
    return values


def _normalized(table: np.ndarray) -> np.ndarray:
    n = table.shape[0]
    total = table.reshape(n, -1).sum(axis=1)
    total = np.where(total > 0, total, 1.0)
    return table / total.reshape((n,) + (1,) * (table.ndim - 1))


def beliefs(sched: Schedule, psi, messages) -> list[np.ndarray]:
    """The posterior of each bucket's scope, per row (each sums to 1; 0 where the row
    has probability 0). ``psi`` and ``messages`` from :func:`forward` with ``op="sum"``."""
    arities = sched.arities
    out: list[np.ndarray] = [np.empty(0)] * len(sched.steps)
    for index in range(len(sched.steps) - 1, -1, -1):
        step = sched.steps[index]
        belief = psi[index]
        if step.parent >= 0:
            above = sched.steps[step.parent]
            axes = tuple(1 + i for i, u in enumerate(above.scope) if u not in step.message)
            marginal = out[step.parent].sum(axis=axes) if axes else out[step.parent]
            sent = messages[index]
            ratio = np.divide(marginal, sent, out=np.zeros_like(marginal), where=sent > 0)
            belief = belief * _expand(ratio, step.message, step.scope, arities)
        out[index] = _normalized(belief)
    return out


def factor_marginals(sched: Schedule, bucket_beliefs) -> list[np.ndarray]:
    """The posterior of each factor's scope, per row: shape ``(n, *arities[scope])``."""
    out = []
    for f, scope in enumerate(sched.scopes):
        step = sched.steps[sched.home[f]]
        axes = tuple(1 + i for i, u in enumerate(step.scope) if u not in scope)
        belief = bucket_beliefs[sched.home[f]]
        out.append(belief.sum(axis=axes) if axes else belief)
    return out
