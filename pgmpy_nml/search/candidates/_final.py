r"""The last level of the candidate search, generated, counted and scored in compiled blocks.

At the last level (parent sets of ``max_parents`` parents) nothing is kept but the
candidates: no set of it has supersets to bound, to index or to generate. On many
variables that level is most of the work: andes (223 variables) with 3 parents has
401 million parent sets of size 3, which the level-by-level arrays of
:class:`~pgmpy_nml.search.candidates._lattice._Lattice` could not hold.

Here each variable's last level is streamed in blocks straight from its open sets of
the level before (:meth:`~pgmpy_nml.search.candidates._lattice._Lattice.advance`'s
rules, compiled: a set is generated when every subset one smaller is open, and
dropped, unscored, when the smallest bound of those subsets is at most the best of
them, rule 4 of :mod:`._lattice`). Each generated set :math:`P` is counted with its
family :math:`P + v` in one pass: the configurations of the family are those of the
child and the base set :math:`B` (counted once per base by refining those of its
parents but the last, computed once for the consecutive bases that share them) refined
by the added variable :math:`x`, and the parents' configurations are their sums over
the child's states. For few configurations the rows of each configuration of the child
and the base are a bitset and a count is a popcount of an ``and``; otherwise the
rows are walked, except those alone in their configuration of the base, which are
alone in every configuration of a superset and count as one each. When every added
variable counts by bitsets (binary data), the base's own configurations are found by
bitsets too, from those of its parents but the last, without a pass over the rows.
The statistics are those :func:`~pgmpy_nml._counting.subsets.listed_subset_statistics`
gives (the same sums over the same configurations; ``tests/test_final_level.py``
compares them, and the whole search with the level-by-level one).

The level-by-level search counts each set of variables once for all the children it is
a family or a parent set of, this path once per child; so the search takes this path on
:data:`MIN_VARIABLES` variables or more, where the level-by-level arrays grow too
large, and on fewer only where they would not fit in memory (:func:`ready` gives the
figures).

The score's formula and dominance (rule 1) then run on each block, vectorized. The
optimistic screen (rule 5) is not applied: it only spares counting, which is cheap
here, and a set it would have skipped is scored and dropped by dominance (or kept,
when it beats its subsets by less than rule 7's tie).
"""

from __future__ import annotations

import itertools
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import types
from numba.extending import intrinsic

from ..._counting.subsets import _reduce, rising_bytes, rising_cache
from ..._jit import njit
from ..._memory import available_memory
from . import _budget, _lattice
from ._lattice import _TIE, passed

__all__: list[str] = []

#: parent sets of one block of a variable's last level (the buffers are sized for it)
BLOCK = 1 << 20

_NONE = np.zeros(0, dtype=np.int64)

#: an added variable is counted by bitsets when (configurations x (its states - 1) x
#: (words + 1)) is below this many times the rows to walk (tests set 0 and inf to take
#: each way)
BIT_COST = 1.0

#: share of the available memory the bitsets of the data may take (else rows are walked)
BITSETS_SHARE = 0.1

#: whether the search may take this path (tests compare it with the level-by-level one)
ENABLED = True

#: whether the log rising factorials of prior statistics (BDeu's, BD's) come from a
#: cache (:func:`~pgmpy_nml._counting.subsets.rising_cache`; the same values, faster:
#: andes with 3 parents, BDeu(10), N = 1000, scored in 256 s of CPU against 448 s,
#: ``benchmarks/bench_last_level.py --score bdeu10``)
RISING_CACHE = True

#: the last level is compiled on this many variables or more (else only where the
#: level-by-level one would not fit in memory; see :func:`ready`)
MIN_VARIABLES = 100


@intrinsic
def _ctpop(typingctx, x):
    """The processor's population count of a uint64 (LLVM's ``ctpop``)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


def bitsets(codes: np.ndarray, arities: np.ndarray) -> np.ndarray:
    """``out[u, s, w]``: bit ``t % 64`` of word ``t // 64`` is set when row ``t`` has
    state ``s`` of variable ``u`` (uint64, shape (n_vars, max arity, words); the bytes
    are packed in little-endian order, so only little-endian machines use them)."""
    n_vars, n = codes.shape
    words = (n + 63) // 64
    out = np.zeros((n_vars, int(arities.max(initial=1)), words), dtype=np.uint64)
    bytes_view = out.view(np.uint8).reshape(n_vars, out.shape[1], words * 8)
    for u in range(n_vars):
        for s in range(int(arities[u])):
            packed = np.packbits(codes[u] == s, bitorder="little")
            bytes_view[u, s, : len(packed)] = packed
    return out


def bitsets_bytes(problem) -> int:
    """Bytes of :func:`bitsets` of the problem's data."""
    n_vars, n = problem.codes.shape
    return 8 * n_vars * int(problem.arities.max(initial=1)) * ((n + 63) // 64)


@njit(cache=True, nogil=True)
def _refine(ids, column, arity, n_rows, lookup, stamp, generation, out):
    """Dense ids of the configurations of the rows ``ids`` refined by ``column``, into
    ``out`` (may be ``ids``); how many."""
    n_new = 0
    for t in range(n_rows):
        key = ids[t] * arity + column[t]
        if stamp[key] != generation:
            stamp[key] = generation
            lookup[key] = n_new
            n_new += 1
        out[t] = lookup[key]
    return n_new


@njit(cache=True, nogil=True)
def _find(rank, keys, key_order):
    """Row of the set of colex rank ``rank`` by binary search in the sorted ``keys``
    (``key_order`` the rows), -1 if none."""
    lo, hi = 0, keys.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if keys[mid] < rank:
            lo = mid + 1
        else:
            hi = mid
    return key_order[lo] if lo < keys.shape[0] and keys[lo] == rank else -1


@njit(cache=True, nogil=True)
def _prefix(child, parents, codes, arities, joint, par, lookup, stamp, gen):
    """Dense configurations of the rows for ``child + parents`` (``joint``) and for
    ``parents`` alone (``par``); returns ``(n_joint, n_par)``. Uses ``2 len(parents)``
    generations of ``stamp`` from ``gen`` on."""
    n_rows = codes.shape[1]
    for t in range(n_rows):
        joint[t] = codes[child, t]
        par[t] = 0
    n_joint, n_par = arities[child], 1
    for u in parents:
        n_joint = _refine(joint, codes[u], arities[u], n_rows, lookup, stamp, gen, joint)
        n_par = _refine(par, codes[u], arities[u], n_rows, lookup, stamp, gen + 1, par)
        gen += 2
    return n_joint, n_par


@njit(cache=True, nogil=True)
def _configurations(last, codes, arities, prefix, n_prefix, joint, par, par_of, lookup, stamp, gen):
    """Dense configurations of the rows for ``child + base`` (``joint``) and for the
    base alone (``par``), the base's configuration of each joint one (``par_of``);
    returns ``(n_joint, n_par)``. The base is the parents of ``prefix`` (its
    configurations ``(prefix_joint, prefix_par)``, ``n_prefix`` how many of each, from
    :func:`_prefix`) and ``last`` (-1: none). Uses 2 generations of ``stamp`` at
    ``gen``."""
    prefix_joint, prefix_par = prefix
    n_rows = codes.shape[1]
    if last < 0:
        n_joint, n_par = n_prefix
        for t in range(n_rows):
            joint[t] = prefix_joint[t]
            par[t] = prefix_par[t]
    else:
        column, arity = codes[last], arities[last]
        n_joint = _refine(prefix_joint, column, arity, n_rows, lookup, stamp, gen, joint)
        n_par = _refine(prefix_par, column, arity, n_rows, lookup, stamp, gen + 1, par)
    for t in range(n_rows):
        par_of[joint[t]] = par[t]
    return n_joint, n_par


@njit(cache=True, nogil=True)
def _shared_rows(par, n_par, weights, out, size):
    """The rows that share their configuration ``par`` with another row, into ``out``;
    how many. Every row of counted data (``weights``: a distinct row may stand for
    several samples). ``size`` is a buffer of ``n_par`` counts or more."""
    n_rows = par.shape[0]
    if weights.shape[0] > 0:
        for t in range(n_rows):
            out[t] = t
        return n_rows
    for g in range(n_par):
        size[g] = 0
    for t in range(n_rows):
        size[par[t]] += 1
    n = 0
    for t in range(n_rows):
        if size[par[t]] > 1:
            out[n] = t
            n += 1
    return n


@njit(cache=True, nogil=True)
def _fill_bits(n_joint, joint, rows_of, joint_size):
    """The rows of each joint configuration as a bitset, and how many."""
    for g in range(n_joint):
        joint_size[g] = 0
        for w in range(rows_of.shape[1]):
            rows_of[g, w] = 0
    for t in range(joint.shape[0]):
        rows_of[joint[t], t >> 6] |= np.uint64(1) << np.uint64(t & 63)
        joint_size[joint[t]] += 1


@njit(cache=True, nogil=True)
def _prefix_bits(prefix, n_prefix, prefix_bits, sizes):
    """The rows of each joint and parent configuration of the prefix (``prefix``,
    ``n_prefix`` from :func:`_prefix`) as bitsets, and the parent configuration of each
    joint one, in ``prefix_bits`` (grown if needed, returned); ``sizes``: a buffer of
    ``n_prefix[0]`` or more."""
    joint_bits, par_bits, prefix_par_of = prefix_bits
    (prefix_joint, prefix_par), (n_joint, n_par) = prefix, n_prefix
    words = joint_bits.shape[1]
    if joint_bits.shape[0] < n_joint:
        joint_bits = np.zeros((n_joint, words), dtype=np.uint64)
    if par_bits.shape[0] < n_par:
        par_bits = np.zeros((n_par, words), dtype=np.uint64)
    _fill_bits(n_joint, prefix_joint, joint_bits, sizes)
    _fill_bits(n_par, prefix_par, par_bits, sizes)
    for t in range(prefix_joint.shape[0]):
        prefix_par_of[prefix_joint[t]] = prefix_par[t]
    return joint_bits, par_bits, prefix_par_of


@njit(cache=True, nogil=True)
def _bits_by(last, arity, bits, prefix_bits, n_prefix, rows_of, joint_size, par_of, index):
    """:func:`_configurations` and :func:`_fill_bits` by bitsets, without walking the
    rows: each configuration of the prefix (``prefix_bits = (joint_bits, par_bits,
    prefix_par_of)``, the rows of each of its joint and parent configurations and the
    parent configuration of each joint one; ``n_prefix`` how many of each) and each
    of the ``arity`` states of ``last`` that share a row are a configuration of the base.
    Returns ``(n_joint, n_par)``; ``index`` is a buffer of ``n_prefix[1] * arity`` or
    more. The configurations are numbered in another order than
    :func:`_configurations`'s, which the statistics do not depend on."""
    joint_bits, par_bits, prefix_par_of = prefix_bits
    n_prefix_joint, n_prefix_par = n_prefix
    words = bits.shape[2]
    n_par = 0
    for g in range(n_prefix_par):
        for s in range(arity):
            index[g * arity + s] = -1
            for w in range(words):
                if par_bits[g, w] & bits[last, s, w]:
                    index[g * arity + s] = n_par
                    n_par += 1
                    break
    n_joint = 0
    for g in range(n_prefix_joint):
        for s in range(arity):
            c = 0
            for w in range(words):
                both = joint_bits[g, w] & bits[last, s, w]
                rows_of[n_joint, w] = both
                c += _ctpop(both)  # type: ignore[call-arg]
            if c:
                joint_size[n_joint] = c
                par_of[n_joint] = index[prefix_par_of[g] * arity + s]
                n_joint += 1
    return n_joint, n_par


# size: the loop over one base's extensions is one function, so that no call (which
# takes a reference to each array it is passed) runs per parent set
@njit(cache=True, nogil=True)
def _extend(cand, row, lattice, data, space, rows_of, base, out, n_out):
    """Every extension ``cand[:-1] + x`` of the base ``X[row]``, generated (the subsets
    one smaller all open, their bounds not showing it dominated: rule 4), counted with
    its family and written to ``out`` from column ``n_out``; returns the next column.

    ``base = (child, allowed, n_joint, n_par, log_q, use_bits, all_bits, bit_cost, tie,
    tol_abs, rows, singles)``: the child, its allowed parents, how many configurations
    ``child + base`` and ``base`` have (in ``space``) and the log of the base's;
    whether ``rows_of`` holds the bitsets of the joint configurations, whether every
    added variable counts by them (else the :data:`BIT_COST` decides, for each); the
    rules' tolerances; and, to count by walking, the rows that share their
    configuration of the base with another row (``singles`` more are alone in theirs,
    so in every configuration of a superset: each counts as one).
    """
    is_open, best, bound, slot, keys, key_order, binom = lattice
    codes, arities, log_arities, tables, masses, weights, bits = data
    joint, par_of, cells, par_cells, nonzero, joint_size, hist, rising = space
    child, allowed, n_joint, n_par, log_q, use_bits, all_bits, bit_cost, tie, tol_abs = base[:10]
    rows, singles = base[10:]
    words = rows_of.shape[1]
    out_x, out_best, out_family, out_par = out
    level = cand.shape[0] - 1
    weighted = weights.shape[0] > 0
    for x in range(cand[level - 1] + 1 if level else 0, allowed.shape[0]):
        cand[level] = x
        # the subsets one smaller (the one without x is ``row``): open, best, bound
        best_sub, inherited, ok = best[row], bound[row], True
        for drop in range(level):
            rank, at = 0, 0
            for i in range(level + 1):
                if i != drop:
                    rank += binom[cand[i], at + 1]
                    at += 1
            r = slot[rank] if slot.shape[0] > 0 else _find(rank, keys, key_order)
            if r < 0 or not is_open[r]:
                ok = False
                break
            best_sub = max(best_sub, best[r])
            if not (bound[r] >= inherited):  # NaN propagates, as in numpy's min
                inherited = bound[r]
        if not ok or inherited <= best_sub + (tie * abs(best_sub) + tol_abs):
            continue
        # cells[g * r + s]: joint configuration g with u = s
        u = allowed[x]
        r_u = arities[u]
        # bitsets when a few configurations cost less than a walk over the rows
        by_bits = all_bits or (
            use_bits and n_joint * (r_u - 1) * (words + 1) < bit_cost * rows.shape[0]
        )
        alone = 0 if by_bits else singles  # the bitsets count every row
        if by_bits:
            for g in range(n_joint):
                rest = joint_size[g]
                for s in range(r_u - 1):
                    c = 0
                    for w in range(words):
                        c += _ctpop(rows_of[g, w] & bits[u, s, w])  # type: ignore[call-arg]
                    cells[g * r_u + s] = c
                    rest -= c
                cells[g * r_u + r_u - 1] = rest
        else:
            column = codes[u]
            for t in rows:
                cells[joint[t] * r_u + column[t]] += weights[t] if weighted else 1
        # the family's statistics, then the parents' (sums over the child's states)
        n_nonzero = 0
        for c in range(n_joint * r_u):
            count = cells[c]
            if count:
                nonzero[n_nonzero] = count
                n_nonzero += 1
                par_cells[par_of[c // r_u] * r_u + c % r_u] += count
                cells[c] = 0
        log_q_parents = log_q + log_arities[u]
        log_q_family = log_q_parents + log_arities[child]
        _reduce(
            nonzero, n_nonzero, alone, tables, masses, log_q_family, hist, rising, out_family, n_out
        )
        n_nonzero = 0
        for c in range(n_par * r_u):
            count = par_cells[c]
            if count:
                nonzero[n_nonzero] = count
                n_nonzero += 1
                par_cells[c] = 0
        _reduce(
            nonzero, n_nonzero, alone, tables, masses, log_q_parents, hist, rising, out_par, n_out
        )
        out_x[n_out] = cand
        out_best[n_out] = best_sub
        n_out += 1
    return n_out


@njit(cache=True, nogil=True)
def _bit_rules(n_joint, n_par, max_arity, words, bit_cost, n_rows):
    """For a base of ``n_joint`` and ``n_par`` configurations: whether its bitsets are
    worth building (a binary variable added would count faster by them), and whether
    every added variable (of ``max_arity`` states or fewer) then counts by them
    (:func:`_extend`'s rule) however many rows would be walked: at least ``n_rows -
    n_par`` (a row alone in its configuration of the base is not walked, and at most
    ``n_par`` are)."""
    use_bits = n_joint * (words + 1) < bit_cost * n_rows
    every = n_joint * (max_arity - 1) * (words + 1) < bit_cost * (n_rows - n_par)
    return use_bits, use_bits and every


@njit(cache=True, nogil=True)
def _base(last, arity, data, configurations, work, space, rows_of, limits, gen):
    """The configurations of a base: its prefix's (``configurations = (prefix,
    n_prefix, prefix_bits)``, :func:`_prefix` and :func:`_prefix_bits`) refined by the
    ``arity`` states of ``last`` (-1: none), as bitsets from the prefix's when they are
    there (``limits[3]``) and every added variable would count by them, else by the
    rows (``joint`` and ``par``); ``rows_of`` grown if needed. Returns ``(rows_of,
    n_joint, n_par, use_bits, all_bits)``: whether ``rows_of`` holds the bitsets, and
    whether every added variable counts by them (:func:`_bit_rules`)."""
    codes, arities, _, _, _, _, bits = data
    prefix, n_prefix, prefix_bits = configurations
    joint, par, lookup, stamp, index = work
    has_bits, max_allowed, bit_cost, by_prefix = limits
    n_rows, words = codes.shape[1], bits.shape[2]
    if by_prefix and n_prefix[0] * arity * (words + 1) < bit_cost * n_rows:
        if rows_of.shape[0] < n_prefix[0] * arity:
            rows_of = np.zeros((n_prefix[0] * arity, words), dtype=np.uint64)
        n_joint, n_par = _bits_by(
            last, arity, bits, prefix_bits, n_prefix, rows_of, space[5], space[1], index
        )
        if _bit_rules(n_joint, n_par, max_allowed, words, bit_cost, n_rows)[1]:
            return rows_of, n_joint, n_par, True, True
    # the rows' configurations, and the bitsets if a binary variable added would count
    # faster by them (and the data's are there: not for counted data, nor where they
    # would not fit)
    n_joint, n_par = _configurations(
        last, codes, arities, prefix, n_prefix, joint, par, space[1], lookup, stamp, gen
    )
    use_bits, all_bits = _bit_rules(n_joint, n_par, max_allowed, words, bit_cost, n_rows)
    if not has_bits:
        return rows_of, n_joint, n_par, False, False
    if use_bits:
        if rows_of.shape[0] < n_joint:
            rows_of = np.zeros((n_joint, words), dtype=np.uint64)
        _fill_bits(n_joint, joint, rows_of, space[5])
    return rows_of, n_joint, n_par, use_bits, all_bits


@njit(cache=True, nogil=True)
def _block(X, lattice, allowed, child, bases, data, tie, tol_abs, bit_cost, cached, out):
    """The last level generated from the open rows ``bases`` of ``X`` (positions into
    ``allowed``, level ``L``), each set counted with its family; returns how many.

    ``lattice = (open, best, bound, slot, keys, key_order, binom)`` of level ``L``
    (``slot``: colex rank -> row, -1 if none; when it is empty, the sorted ``keys``
    and their rows ``key_order``); ``data = (codes, arities, log_arities, tables,
    masses, weights, bits)``; ``out = (out_x, out_best, out_family, out_parents)``:
    set ``k`` is ``out_x[k]`` (positions), the best score of its proper subsets
    ``out_best[k]``, its family's statistics ``out_family[:, k]`` and its own
    ``out_parents[:, k]``. ``cached``: whether the prior statistics' log rising
    factorials come from a cache (:data:`RISING_CACHE`).
    """
    codes, arities, log_arities, _, masses, weights, bits = data
    n_rows = codes.shape[1]
    level = X.shape[1]
    max_r = 1
    for u in range(arities.shape[0]):
        max_r = max(max_r, arities[u])
    n_ids = max(n_rows, max_r)  # configurations of a subset: at most one per row (or state)
    n_cells = n_ids * max_r + 1
    joint, par = np.zeros(n_rows, dtype=np.int64), np.zeros(n_rows, dtype=np.int64)
    lookup, stamp = np.zeros(n_cells, dtype=np.int64), np.full(n_cells, -1, dtype=np.int64)
    space = (
        joint,
        np.zeros(n_ids + 1, dtype=np.int64),  # par_of
        np.zeros(n_cells, dtype=np.int64),  # cells
        np.zeros(n_cells, dtype=np.int64),  # par_cells
        np.zeros(n_cells, dtype=np.int64),  # nonzero
        np.zeros(n_ids + 1, dtype=np.int64),  # joint_size
        np.zeros(n_rows + 1, dtype=np.int64),  # hist
        rising_cache(n_rows if cached and masses.shape[0] else 0),
    )
    words = bits.shape[2]
    rows_of = np.zeros((0, words), dtype=np.uint64)
    walked, par_size = np.arange(n_rows), np.zeros(n_ids + 1, dtype=np.int64)
    max_allowed = 1
    for u in allowed:
        max_allowed = max(max_allowed, arities[u])
    cand = np.zeros(level + 1, dtype=np.int64)
    # the configurations of the base's first parents (all but its last), shared by the
    # consecutive bases that have them (the rows of X are sorted); as bitsets too, when
    # the bases' would count by them (then theirs come from these, without the rows)
    prefix = (np.zeros(n_rows, dtype=np.int64), np.zeros(n_rows, dtype=np.int64))
    empty = np.zeros((0, words), dtype=np.uint64)
    prefix_bits = (empty, empty, np.zeros(n_ids + 1, dtype=np.int64))
    work = (joint, par, lookup, stamp, np.zeros(n_cells, dtype=np.int64))  # index
    has_bits = bits.shape[0] > 0 and weights.shape[0] == 0  # not for counted data
    n_first = max(level - 1, 0)
    first = np.full(n_first, -1, dtype=np.int64)
    n_prefix = (0, 0)
    by_prefix = False
    generation = 0
    n_out = 0
    for b in range(bases.shape[0]):
        row = bases[b]
        parents = allowed[X[row]]
        if b == 0 or not np.array_equal(X[row, :n_first], first):
            first[:] = X[row, :n_first]
            n_prefix = _prefix(
                child, parents[:n_first], codes, arities, *prefix, lookup, stamp, generation
            )
            generation += 2 * n_first
            # (a base has at least the prefix's n_prefix[0] joint configurations)
            by_prefix = level > 0 and has_bits
            by_prefix &= n_prefix[0] * max(max_allowed - 1, 1) * (words + 1) < bit_cost * n_rows
            if by_prefix:
                prefix_bits = _prefix_bits(prefix, n_prefix, prefix_bits, par_size)
        last = parents[level - 1] if level else -1
        log_q = 0.0
        for u in parents:
            log_q += log_arities[u]
        arity = arities[last] if level else 1
        limits = (has_bits, max_allowed, bit_cost, by_prefix)
        configurations = (prefix, n_prefix, prefix_bits)
        rows_of, n_joint, n_par, use_bits, all_bits = _base(
            last, arity, data, configurations, work, space, rows_of, limits, generation
        )
        generation += 2
        n_walked = n_rows if all_bits else _shared_rows(par, n_par, weights, walked, par_size)
        singles = n_rows - n_walked
        cand[:level] = X[row]
        rows = walked[:n_walked]
        settings = (use_bits, all_bits, bit_cost, tie, tol_abs, rows, singles)
        base = (child, allowed, n_joint, n_par, log_q, *settings)
        n_out = _extend(cand, row, lattice, data, space, rows_of, base, out, n_out)
    return n_out


def ready(task, growing, deadline: float | None = None, per_set: float = 0.0) -> bool:
    """Whether :func:`run` takes the next level of the ``growing`` lattices: it is their
    last, with no required parents (the family rows are the added ones), and the data
    have :data:`MIN_VARIABLES` variables or more, or the level-by-level search's sets of
    that level would take over half the memory it may use, or would not be done by the
    search's ``deadline`` at ``per_set`` seconds a set (the level before's pace): this
    path can stop between blocks, the level-by-level one only after the whole level.

    Why not always: the level-by-level search counts each set of variables once for
    every child it is a family or a parent set of, this path once per child. On few
    variables that sharing wins: hailfinder (56 variables, BDeu(1), 3 parents) counted
    396,604 sets level by level and 2,933,439 here, 5.9 s against 11.7 s at N = 1000 and
    20.5 s against 55 s at N = 10000; alarm (37 variables, N = 10000) 4.1 s against 6.0 s.
    On many variables this path wins: andes (223 variables, fNML, N = 1000) with 2
    parents took 6.9 s level by level against 1.3 s here, pathfinder (109 variables) with
    3 parents 39.6 s against 22.8 s, and 4.55 GB against 0.85 GB
    (``benchmarks/bench_last_level.py``)."""
    lattices = [task.lattices[i] for i in growing]
    last = (
        ENABLED
        and bool(lattices)
        and all(
            not len(lat.required) and lat.level + 1 == min(lat.max_extra, len(lat.allowed))
            for lat in lattices
        )
    )
    if not last or len(task.problem.arities) >= MIN_VARIABLES:
        return last
    sizes = {i: task.lattices[i].next_size() for i in growing}
    if deadline is not None:
        n_sets = sum(m for m, _ in sizes.values())
        if _lattice._clock() + per_set * n_sets > deadline:
            return True
    room = _budget.MEMORY_SHARE * available_memory()
    return _budget.advance_bytes(task, sizes) > room / 2


def _last(lat, rows: np.ndarray) -> np.ndarray:
    """The last position of each row of ``lat``'s level (-1 at level 0)."""
    return lat.X[rows, -1] if lat.level else np.full(len(rows), -1)


def _blocks(lat) -> list:
    """The open rows of ``lat`` in blocks of at most :data:`BLOCK` generated sets (or
    one row's)."""
    rows = np.flatnonzero(lat.open)
    sizes = len(lat.allowed) - 1 - _last(lat, rows)
    ends = np.cumsum(sizes)
    cuts = [0]
    while cuts[-1] < len(rows):
        lo = cuts[-1]
        start = ends[lo - 1] if lo else 0
        hi = int(np.searchsorted(ends, start + BLOCK, side="right"))
        cuts.append(max(hi, lo + 1))
    return [rows[lo:hi] for lo, hi in itertools.pairwise(cuts)]


def block_bytes(task, n_sets: int) -> int:
    """Bytes of one thread's block of ``n_sets`` parent sets: its buffers, the
    workspace of the compiled counting and the score's arrays."""
    problem = task.problem
    k = len(problem.keys)
    n_rows, max_r = problem.codes.shape[1], int(problem.arities.max(initial=1))
    n_ids = max(n_rows, max_r)
    width = max(lat.level for lat in task.lattices) + 1
    per_set = 8 * (width + 1 + 2 * k) + 8 * (2 * width + 2 * k + _budget.FORMULA_ARRAYS + 2)
    n_cells = n_ids * max_r + 1
    # the three bitsets (rows_of and the prefix's): at most BIT_COST words a row each
    # (_block's rules), and at most a bitset a cell
    bit_words = min(max(1.0, float(BIT_COST)) * n_rows, n_cells * ((n_rows + 63) // 64))
    arrays = 7 * n_rows + 5 * n_ids + 6 * n_cells + 3 * int(bit_words)
    workspace = 8 * arrays + rising_bytes(n_rows)
    return n_sets * per_set + workspace + _budget.STEP_OVERHEAD


def _block_size(lat) -> int:
    """Sets of ``lat``'s largest block (at most :data:`BLOCK`)."""
    rows = np.flatnonzero(lat.open)
    return int(min(BLOCK, (len(lat.allowed) - 1 - _last(lat, rows)).sum()))


def _last_level(task, i: int, data: tuple, deadline: float | None = None) -> tuple:
    """Lattice ``i``'s last level, block by block until ``deadline`` (then the bases of
    the blocks left bound what they would have scored, rule 8 of :mod:`._lattice`);
    ``(counting s, scoring s, scored)``."""
    lat, k = task.lattices[i], len(task.problem.keys)
    blocks = _blocks(lat)
    cap = _block_size(lat) + len(lat.allowed)  # a block ends after the row reaching BLOCK
    out = (
        np.empty((cap, lat.level + 1), dtype=np.int64),
        np.empty(cap),
        np.zeros((k, cap)),
        np.zeros((k, cap)),
    )
    if lat.slot is not None:
        index = (lat.slot, _NONE, _NONE)
    else:
        index = (_NONE, lat.keys, lat.key_order)
    lattice = (lat.open, lat.best, lat.bound, *index, lat.binom)
    X = lat.X if lat.level else np.zeros((lat.X.shape[0], 0), dtype=np.int64)
    kept_sets, kept_scores, n_scored, n_dominated = [], [], 0, 0
    counting = scoring = 0.0
    unscored = -np.inf
    for b, bases in enumerate(blocks):
        if passed(deadline):
            unscored = float(lat.bound[np.concatenate(blocks[b:])].max())
            break
        t0 = time.perf_counter()
        settings = (_TIE, lat.tol_abs, float(BIT_COST), bool(RISING_CACHE))
        n = _block(X, lattice, lat.allowed, lat.child, bases, data, *settings, out)
        t1 = time.perf_counter()
        parents = lat.allowed[out[0][:n]]
        _, scores = task.score_counted(i, parents, out[2][:, :n], out[3][:, :n])
        keep = scores > out[1][:n]
        kept_sets.append(parents[keep])
        kept_scores.append(scores[keep])
        n_scored += n
        n_dominated += n - int(keep.sum())
        counting += t1 - t0
        scoring += time.perf_counter() - t1
    lat.finish(kept_sets, kept_scores, n_scored, n_dominated)
    lat.unscored = unscored
    return counting, scoring, n_scored


def run(task, growing, n_threads: int, deadline: float | None = None) -> None:
    """Generate, count, score and keep the last level of the ``growing`` lattices, one
    lattice per thread at a time, until ``deadline`` (see :func:`_last_level`)."""
    problem = task.problem
    n_threads = max(1, min(int(n_threads), len(growing)))
    codes = np.ascontiguousarray(problem.codes)
    arities = problem.arities
    weights, with_bits = _NONE, False
    if problem.weights is not None:  # counted data: rows of many samples, walked
        weights = np.ascontiguousarray(problem.weights, dtype=np.int64)
    else:
        with_bits = sys.byteorder == "little"
        with_bits &= bitsets_bytes(problem) <= BITSETS_SHARE * available_memory()
    largest = max(_block_size(task.lattices[i]) for i in growing) + problem.codes.shape[0]
    _budget.check(
        n_threads * block_bytes(task, largest) + with_bits * bitsets_bytes(problem),
        f"the last level of {len(growing)} variables, in blocks of up to {largest} parent sets",
        problem.constraints,
    )
    bits = bitsets(codes, arities) if with_bits else np.zeros((0, 1, 1), np.uint64)
    data = (
        codes,
        arities,
        np.log(arities.astype(np.float64)),
        np.ascontiguousarray(problem.tables),
        np.ascontiguousarray(problem.masses, dtype=np.float64).reshape(-1),
        weights,
        bits,
    )
    if n_threads == 1:
        results = [_last_level(task, i, data, deadline) for i in growing]
    else:
        with ThreadPoolExecutor(n_threads) as pool:
            results = list(pool.map(lambda i: _last_level(task, i, data, deadline), growing))
    task.store.seconds += sum(r[0] for r in results)  # summed over threads, as tasks are
    task.seconds["scoring"] += sum(r[1] for r in results)
    task.store.n_counted += 2 * sum(r[2] for r in results)  # each set and its family
