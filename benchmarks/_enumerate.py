"""All parent sets up to a limit with their local scores, and dominance pruning.

A stand-in for the package's pruning engine (not part of the package): counts
every variable subset of at most ``max_parents + 1`` variables once, in
compiled code, and evaluates the package's own local-score formulas
(``pgmpy_nml.search._plans``, the same ones ``ExactSearch`` uses) on those
counts. Then a parent set is dropped when one of its proper subsets scores at
least as well (it can never be the optimal choice: swapping in the subset
keeps the network acyclic and does not lower the score).
"""

from __future__ import annotations

import itertools
import math
import warnings

import numpy as np
from numba import njit, prange

from pgmpy_nml import FNML, QNML
from pgmpy_nml.search._plans import plan_for
from pgmpy_nml.search.candidates import CandidateParentSets

with warnings.catch_warnings():
    warnings.simplefilter("ignore", FutureWarning)
    from pgmpy.structure_score import BIC, BDeu

SCORES = {
    "fnml": FNML,
    "qnml": QNML,
    "bdeu": lambda data: BDeu(data, equivalent_sample_size=1.0),
    "bic": BIC,
}


@njit(cache=True, parallel=True)
def _subset_stats(codes, arities, subsets, sizes, tables, bdeu_ess, log_q, out):
    """``out[j, s] = sum_c tables[j, N_c]`` over the observed configurations of subset s
    (and ``sum_c lgamma(N_c + a) - lgamma(a)``, ``a = ess / q_s``, in the last row)."""
    n_rows = codes.shape[1]
    n_tables = tables.shape[0]
    for s in prange(subsets.shape[0]):
        k = sizes[s]
        keys = np.zeros(n_rows, dtype=np.int64)
        for t in range(k):
            col = codes[subsets[s, t]]
            r = arities[subsets[s, t]]
            for i in range(n_rows):
                keys[i] = keys[i] * r + col[i]
        keys.sort()
        acc = np.zeros(n_tables + 1)
        a = bdeu_ess * math.exp(-log_q[s]) if bdeu_ess > 0 else 1.0
        la = math.lgamma(a)
        run = 1
        for i in range(1, n_rows + 1):
            if i < n_rows and keys[i] == keys[i - 1]:
                run += 1
                continue
            for j in range(n_tables):
                acc[j] += tables[j, run]
            if bdeu_ess > 0:
                acc[n_tables] += math.lgamma(run + a) - la
            run = 1
        for j in range(n_tables):
            out[j, s] = acc[j]
        if bdeu_ess > 0:
            out[n_tables, s] = acc[n_tables]


def all_parent_sets(data, score_name, max_parents=3):
    """Local scores of every variable for every parent set of at most ``max_parents``.

    Returns ``(variables, parent_sets, scores)``: per variable the list of parent
    tuples (empty set first) and the float array of their local scores.
    """
    score = SCORES[score_name](data)
    plan = plan_for(score)
    enc = plan.encoded
    n = enc.n_variables
    subsets = [()]
    for k in range(1, max_parents + 2):
        subsets.extend(itertools.combinations(range(n), k))
    index = {s: i for i, s in enumerate(subsets)}
    padded = np.zeros((len(subsets), max_parents + 1), dtype=np.int64)
    sizes = np.array([len(s) for s in subsets], dtype=np.int64)
    for i, s in enumerate(subsets):
        padded[i, : len(s)] = s
    log_ar = np.log(enc.arities.astype(np.float64))
    log_q = np.array([log_ar[list(s)].sum() for s in subsets])
    stats = np.zeros((plan.n_stats, len(subsets)))
    _subset_stats(
        np.ascontiguousarray(enc.codes, dtype=np.int64),
        enc.arities.astype(np.int64),
        padded,
        sizes,
        plan.tables,
        plan.bdeu_ess,
        log_q,
        stats,
    )
    q = np.exp(log_q).round()  # products of arities, exact as floats here
    parent_sets, scores = [], []
    for v in range(n):
        others = [u for u in range(n) if u != v]
        sets_v = [()]
        for k in range(1, max_parents + 1):
            sets_v.extend(itertools.combinations(others, k))
        fam_idx = np.array([index[tuple(sorted((*p, v)))] for p in sets_v])
        par_idx = np.array([index[p] for p in sets_v])

        def split(x, fam_idx=fam_idx, par_idx=par_idx):
            return x[fam_idx], x[par_idx]

        parent_sets.append(sets_v)
        scores.append(np.asarray(plan.local(v, stats, q, split), dtype=np.float64))
    return list(enc.variables), parent_sets, scores


def prune_dominated(variables, parent_sets, scores):
    """Drop every parent set that some proper subset scores at least as well as.

    ``parent_sets[v]`` must contain every subset of each of its sets (as
    :func:`all_parent_sets` gives). Returns a :class:`CandidateParentSets`.
    """
    kept_sets, kept_scores = [], []
    for sets_v, scores_v in zip(parent_sets, scores, strict=True):
        masks = np.array([sum(1 << u for u in p) for p in sets_v], dtype=np.int64)
        order = np.argsort(masks)
        sorted_masks = masks[order]
        best_sub = np.full(len(sets_v), -np.inf)  # best score of a proper subset
        by_size = sorted(range(len(sets_v)), key=lambda k: len(sets_v[k]))
        sizes = np.array([len(p) for p in sets_v])
        for size in range(1, sizes.max() + 1 if len(sets_v) else 1):
            ks = np.array([k for k in by_size if sizes[k] == size])
            if ks.size == 0:
                continue
            for j in range(size):
                bit = np.array([1 << sets_v[k][j] for k in ks], dtype=np.int64)
                sub = np.searchsorted(sorted_masks, masks[ks] & ~bit)
                sub = order[sub]
                best_sub[ks] = np.maximum(best_sub[ks], np.maximum(scores_v[sub], best_sub[sub]))
        keep = scores_v > best_sub
        kept_sets.append([p for p, k in zip(sets_v, keep, strict=True) if k])
        kept_scores.append(scores_v[keep])
    return CandidateParentSets(variables, kept_sets, kept_scores)


def candidates(data, score_name, max_parents=3):
    """Pruned candidate parent sets of ``data`` for one score."""
    return prune_dominated(*all_parent_sets(data, score_name, max_parents))
