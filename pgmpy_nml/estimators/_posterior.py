r"""Exact inference over the missing cells of data rows under a discrete Bayesian network.

Under a network with conditional probability tables :math:`\theta`, the probability of
a row's observed cells is the sum of the joint over its missing cells :math:`M`,

.. math::

    P(x_O) = \sum_{x_M} \prod_i \theta_i(x_i \mid x_{\mathrm{pa}(i)}),

and the posterior :math:`P(x_M \mid x_O)` is that product over :math:`Z = P(x_O)`.
A table all of whose variables are observed is a constant. The others connect the
missing cells along the network's moral graph; each connected set of missing cells
(a *component*) is independent of the others given the observed cells, so
:math:`\log P(x_O)` is the sum of the constants' logarithms and of one
:math:`\log Z_C` per component, and the posterior is a product over components.

:class:`MissingPlan` finds the components of every row at once (connected components
of a graph over the missing cells), groups the components of all rows by their
variables, and runs the batched bucket elimination of :mod:`._buckets` on each group:
the observed-data log-likelihood, exact draws from the posterior (stochastic EM,
multiple imputation), the most probable completion (imputation) and the expected
counts of every family (EM's E-step). Identical incomplete rows are computed once and
weighted by their number. The plan depends only on the structure and on which cells
are missing; the parameters are given to each call, so EM reuses one plan.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..exceptions import InputError
from . import _buckets

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["MissingPlan", "model_tables"]

#: Largest bucket (cells per row) exact inference builds: 2**24 float64, 128 MB.
MAX_BUCKET_CELLS = 1 << 24
#: Cells of the arrays computed at once (rows of a group are split to stay near it).
_CHUNK_CELLS = 1 << 20


def model_tables(model, encoded) -> tuple[list[tuple[int, ...]], list[np.ndarray]]:
    """The parents (in each CPD's evidence order) and tables ``(r, q)`` of a fitted model,
    as positions in ``encoded``, whose codes follow the CPDs' states."""
    parents, tables = [], []
    for v in encoded.variables:
        cpd = model.get_cpds(v)
        evidence = [encoded.index[p] for p in cpd.variables[1:]]
        values = np.asarray(cpd.get_values(), dtype=float)
        q = math.prod(int(encoded.arities[p]) for p in evidence)
        if values.shape != (int(encoded.arities[encoded.index[v]]), q):
            raise InputError(
                f"The CPD of {v!r} has shape {values.shape}, but its variable and parents "
                "have other numbers of states in the network: check the model's CPDs "
                "(model.check_model())."
            )
        parents.append(tuple(evidence))
        tables.append(values)
    return parents, tables


@dataclass(frozen=True)
class _Group:
    """Components with the same variables: their rows (distinct incomplete rows), the
    elimination schedule, and per factor its family and cells (rows x scope configs)."""

    variables: np.ndarray
    rows: np.ndarray
    schedule: _buckets.Schedule
    factors: tuple[tuple[int, np.ndarray, tuple[int, ...]], ...]


class MissingPlan:
    """The components of every row's missing cells under one structure, ready for inference.

    Parameters
    ----------
    parents : sequence of tuple of int
        Per variable, its parents' positions, in the order of its table's columns
        (pgmpy's: the first parent varies slowest).
    arities : ndarray of int
    codes : ndarray of int, shape (n_variables, n_rows)
        The data's codes, -1 for a missing cell.

    Notes
    -----
    A table is an array ``(r, q)``; cell ``(k, j)`` is at ``k * q + j`` of its
    flattened form, the family's configuration index.
    """

    def __init__(self, parents: Sequence[tuple[int, ...]], arities, codes: np.ndarray) -> None:
        self.parents = [tuple(int(p) for p in ps) for ps in parents]
        self.arities = np.asarray(arities, dtype=np.int64)
        self.codes = np.asarray(codes)
        n_vars, self.n_rows = self.codes.shape
        self.sizes = []
        self.strides = []
        children: list[list[int]] = [[] for _ in range(n_vars)]
        for v, ps in enumerate(self.parents):
            radix = [int(self.arities[p]) for p in ps]
            strides = [math.prod(radix[i + 1 :]) for i in range(len(ps))]
            q = math.prod(radix)
            self.strides.append(np.array([q, *strides], dtype=np.int64))
            self.sizes.append(int(self.arities[v]) * q)
            for p in ps:
                children[p].append(v)
        self.children = children
        missing = self.codes < 0
        self.n_missing = int(missing.sum())
        self._observed = [self._observed_family(v, missing) for v in range(n_vars)]
        self._observed_counts = [
            np.bincount(flat, minlength=size).astype(float)
            for (_, flat), size in zip(self._observed, self.sizes, strict=True)
        ]
        incomplete = np.flatnonzero(missing.any(axis=0))
        self._incomplete = incomplete
        if len(incomplete):
            first, inverse, counts = _unique_columns(self.codes[:, incomplete])
            self._distinct = np.ascontiguousarray(self.codes[:, incomplete[first]])
            self._inverse = inverse.ravel()
            self._weights = counts.astype(float)
        else:
            self._distinct = np.zeros((n_vars, 0), dtype=self.codes.dtype)
            self._inverse = np.zeros(0, dtype=np.int64)
            self._weights = np.zeros(0)
        order = np.argsort(self._inverse, kind="stable")
        self._originals = incomplete[order]  # original rows, grouped by distinct row
        self._starts = np.searchsorted(self._inverse[order], np.arange(len(self._weights)))
        self._layouts: dict = {}
        self._groups = self._build_groups()

    # -- construction ----------------------------------------------------------------------
    def _members(self, v: int) -> tuple[int, ...]:
        return (v, *self.parents[v])

    def _observed_family(self, v: int, missing: np.ndarray):
        """The rows where family ``v`` is observed, and each one's cell of its table."""
        members = list(self._members(v))
        rows = np.flatnonzero(~missing[members].any(axis=0))
        flat = np.zeros(len(rows), dtype=np.int64)
        for u, stride in zip(members, self.strides[v], strict=True):
            flat += self.codes[u, rows].astype(np.int64) * stride
        return rows, flat

    def _moral_edges(self) -> list[tuple[int, int]]:
        edges = set()
        for v, ps in enumerate(self.parents):
            family = sorted((v, *ps))
            for i, u in enumerate(family):
                for w in family[i + 1 :]:
                    edges.add((u, w))
        return sorted(edges)

    def _components(self):
        """Per component of missing cells: its distinct row, and its variables (a boolean
        matrix, one row per component)."""
        from scipy.sparse import coo_matrix
        from scipy.sparse.csgraph import connected_components

        distinct = self._distinct
        n_vars, n_distinct = distinct.shape
        missing = distinct < 0
        source, target = [], []
        for u, w in self._moral_edges():
            rows = np.flatnonzero(missing[u] & missing[w])
            source.append(rows * n_vars + u)
            target.append(rows * n_vars + w)
        size = n_distinct * n_vars
        src = np.concatenate(source) if source else np.zeros(0, dtype=np.int64)
        dst = np.concatenate(target) if target else np.zeros(0, dtype=np.int64)
        graph = coo_matrix((np.ones(len(src), dtype=np.int8), (src, dst)), shape=(size, size))
        _, labels = connected_components(graph, directed=False)
        cells = np.flatnonzero(missing.T.ravel())  # node d * n_vars + v of each missing cell
        _, component = np.unique(labels[cells], return_inverse=True)
        n_components = int(component.max()) + 1 if len(cells) else 0
        membership = np.zeros((n_components, n_vars), dtype=bool)
        membership[component, cells % n_vars] = True
        row = np.zeros(n_components, dtype=np.int64)
        row[component] = cells // n_vars
        return row, membership

    def _build_groups(self) -> list[_Group]:
        if not len(self._weights):
            return []
        row, membership = self._components()
        first, group, _ = _unique_columns(np.packbits(membership, axis=1).T)
        keys = first
        order = np.argsort(group, kind="stable")
        bounds = np.searchsorted(group[order], np.arange(len(keys) + 1))
        groups = []
        for g in range(len(keys)):
            variables = np.flatnonzero(membership[order[bounds[g]]])
            rows = row[order[bounds[g] : bounds[g + 1]]]
            groups.extend(self._group(variables, rows))
        return groups

    def _group(self, variables: np.ndarray, rows: np.ndarray) -> list[_Group]:
        """The groups of components with these ``variables`` in these rows (split in
        chunks of about ``_CHUNK_CELLS`` cells)."""
        local = {int(v): i for i, v in enumerate(variables)}
        families = sorted(set(local) | {c for v in local for c in self.children[v]})
        scopes = []
        for f in families:
            scopes.append(tuple(sorted(local[u] for u in self._members(f) if u in local)))
        arities = [int(self.arities[v]) for v in variables]
        sched = _buckets.schedule(tuple(arities), tuple(scopes))
        if sched.largest > MAX_BUCKET_CELLS:
            names = ", ".join(str(int(v)) for v in variables)
            raise InputError(
                f"Exact inference over the missing cells of a row (variables at positions "
                f"{names}) needs a table of {sched.largest:,} cells, more than "
                f"{MAX_BUCKET_CELLS:,}: the network is too dense for that many missing "
                "cells in one row. Limit the parents (max_parents), or drop the rows with "
                "the most missing cells."
            )
        per_chunk = max(1, _CHUNK_CELLS // sched.largest)
        layouts = [
            self._layout(f, tuple(u for u in self._members(f) if u in local)) for f in families
        ]
        out = []
        for start in range(0, len(rows), per_chunk):
            chunk = rows[start : start + per_chunk]
            factors = []
            for f, (outside, outside_strides, grid, shape) in zip(families, layouts, strict=True):
                offset = outside_strides @ self._distinct[outside[:, None], chunk[None, :]]
                factors.append((f, offset[:, None] + grid[None, :], shape))
            out.append(_Group(variables, chunk, sched, tuple(factors)))
        return out

    def _layout(self, f: int, inside: tuple[int, ...]) -> tuple:
        """Family ``f`` with its members ``inside`` missing: the observed members and their
        strides, the cells of the missing members' configurations (sorted by position, the
        first slowest) and their shape. Cached: many groups share a family's layout."""
        key = (f, tuple(sorted(inside)))
        layout = self._layouts.get(key)
        if layout is not None:
            return layout
        members, strides = self._members(f), self.strides[f]
        outside = [i for i, u in enumerate(members) if u not in inside]
        scope = key[1]
        stride_of = {u: strides[i] for i, u in enumerate(members)}
        shape = tuple(int(self.arities[u]) for u in scope)
        grid = np.zeros(shape, dtype=np.int64)
        for axis, u in enumerate(scope):
            ramp = np.arange(shape[axis], dtype=np.int64) * stride_of[u]
            grid = grid + ramp.reshape([-1 if a == axis else 1 for a in range(len(shape))])
        layout = (
            np.array([members[i] for i in outside], dtype=np.int64),
            strides[outside],
            grid.ravel(),
            shape,
        )
        self._layouts[key] = layout
        return layout

    # -- inference -------------------------------------------------------------------------
    def _forward(self, tables, op: str = "sum"):
        """For each group: the group, its buckets and messages, and ``log Z`` per row."""
        flat = [np.ascontiguousarray(t, dtype=float).ravel() for t in tables]
        for group in self._groups:
            n = len(group.rows)
            factors = [flat[f][cells].reshape((n, *shape)) for f, cells, shape in group.factors]
            psi, messages, log_z = _buckets.forward(group.schedule, factors, op)
            yield group, psi, messages, log_z

    def _observed_log_likelihood(self, tables, per_row: bool):
        total = 0.0
        rows_ll = np.zeros(self.n_rows) if per_row else None
        for (rows, flat), counts, table in zip(
            self._observed, self._observed_counts, tables, strict=True
        ):
            with np.errstate(divide="ignore"):
                logs = np.log(np.ascontiguousarray(table, dtype=float).ravel())
            used = counts > 0
            total += float(np.dot(counts[used], logs[used]))
            if rows_ll is not None:
                np.add.at(rows_ll, rows, logs[flat])
        return total, rows_ll

    def log_likelihood(self, tables, per_row: bool = False):
        """:math:`\\sum_t \\log P(x_{O_t})`, or the array of the rows' terms (``per_row``)."""
        total, rows_ll = self._observed_log_likelihood(tables, per_row)
        distinct_ll = np.zeros(len(self._weights))
        for group, _, _, log_z in self._forward(tables):
            distinct_ll[group.rows] += log_z
        if rows_ll is not None:
            rows_ll[self._incomplete] += distinct_ll[self._inverse]
            return rows_ll
        return total + _weighted_sum(distinct_ll, self._weights)

    def expected_counts(self, tables) -> tuple[list[np.ndarray], float]:
        """EM's E-step: each family's expected counts :math:`E[N_{ijk} \\mid D_{obs}]`
        (flat, as the tables), and the observed-data log-likelihood."""
        counts = [c.copy() for c in self._observed_counts]
        total, _ = self._observed_log_likelihood(tables, False)
        distinct_ll = np.zeros(len(self._weights))
        for group, psi, messages, log_z in self._forward(tables):
            distinct_ll[group.rows] += log_z
            weights = self._weights[group.rows]
            bucket = _buckets.beliefs(group.schedule, psi, messages)
            marginals = _buckets.factor_marginals(group.schedule, bucket)
            for (f, cells, _), marginal in zip(group.factors, marginals, strict=True):
                mass = marginal.reshape(len(group.rows), -1) * weights[:, None]
                counts[f] += np.bincount(
                    cells.ravel(), weights=mass.ravel(), minlength=self.sizes[f]
                )
        return counts, total + _weighted_sum(distinct_ll, self._weights)

    def _originals_of(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The original rows behind distinct rows ``rows``, and for each the position of its
        distinct row in ``rows``."""
        sizes = self._weights[rows].astype(np.int64)
        local = np.repeat(np.arange(len(rows)), sizes)
        first = np.repeat(self._starts[rows] - np.cumsum(sizes) + sizes, sizes)
        return self._originals[first + np.arange(int(sizes.sum()))], local

    def _check_possible(self, log_z: np.ndarray, group: _Group) -> None:
        if np.isneginf(log_z).any():
            d = group.rows[int(np.flatnonzero(np.isneginf(log_z))[0])]
            row = int(self._originals_of(np.array([d]))[0][0])
            raise InputError(
                f"Row {row} has probability 0 under the network given its observed cells: "
                "there is no completion to draw. Fit the parameters with a prior that keeps "
                "every probability positive (FSNMLEstimator, a Dirichlet prior)."
            )

    def sample(self, tables, rng: np.random.Generator) -> tuple[np.ndarray, float]:
        """One completion of every row drawn from the posterior (each copy of a repeated
        row drawn independently), and the observed-data log-likelihood."""
        completed = self.codes.copy()
        total, _ = self._observed_log_likelihood(tables, False)
        distinct_ll = np.zeros(len(self._weights))
        for group, psi, _, log_z in self._forward(tables):
            self._check_possible(log_z, group)
            distinct_ll[group.rows] += log_z
            originals, local = self._originals_of(group.rows)
            uniforms = rng.random((len(local), len(group.variables)))
            values = _buckets.sample(group.schedule, psi, local, uniforms)
            completed[group.variables[:, None], originals[None, :]] = values.T
        return completed, total + _weighted_sum(distinct_ll, self._weights)

    def mode(self, tables) -> np.ndarray:
        """The most probable completion of every row (the joint mode of its missing cells)."""
        completed = self.codes.copy()
        for group, psi, _, log_z in self._forward(tables, op="max"):
            self._check_possible(log_z, group)
            values = _buckets.traceback(group.schedule, psi)
            originals, local = self._originals_of(group.rows)
            completed[group.variables[:, None], originals[None, :]] = values[local].T
        return completed


def _unique_columns(array: np.ndarray):
    """The distinct columns of a 2-D integer array: the first column of each (in the order
    of the sorted columns' bytes), each column's distinct one, and how many each has."""
    columns = np.ascontiguousarray(array.T)
    keys = columns.view(np.dtype((np.void, columns.dtype.itemsize * columns.shape[1]))).ravel()
    _, first, inverse, counts = np.unique(
        keys, return_index=True, return_inverse=True, return_counts=True
    )
    return first, inverse.ravel(), counts


def _weighted_sum(values: np.ndarray, weights: np.ndarray) -> float:
    """``sum(values * weights)`` with ``-inf`` where a value is ``-inf`` (no ``nan``)."""
    if not len(values):
        return 0.0
    if np.isneginf(values).any():
        return -math.inf
    return float(np.dot(values, weights))
