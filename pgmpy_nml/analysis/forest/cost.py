"""The cost model of the exact forest normalizer: operations and memory, before any work.

:func:`forest_cost` counts the elementary operations by walking the same loops as
the computation (:func:`_inner_walk` drives both), so a call can be refused before
it starts rather than after an hour.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ..._validate import as_integer, as_real
from ...exceptions import ForestCostError
from ._structure import _Forest, _forest, _is_inner

if TYPE_CHECKING:
    from collections.abc import Hashable, Mapping

    from ..._typing import Graph, StateNames

__all__ = ["DEFAULT_MAX_OPERATIONS", "MAX_MEMORY_BYTES", "forest_cost"]

#: Default limit on :func:`forest_cost` (elementary multiply-adds): 10-60 s on
#: one core at the measured 1-6 ns per operation.
DEFAULT_MAX_OPERATIONS = 10**10
#: Largest working memory (bytes) the algorithm may allocate.
MAX_MEMORY_BYTES = 4 * 2**30
# Charge for one call of a compiled kernel from the Python recursion, in
# elementary operations (a few microseconds).
_CALL_OPS = 5_000
# Measured throughput, for the time quoted in the refusal message.
_OPS_PER_SECOND = 3e8


def _n_comp(m: int, K: int) -> int:
    return math.comb(m + K - 1, K - 1)


def _n_ball(s: int, K: int) -> int:
    return math.comb(s + K, K) if s >= 0 else 0


def _inner_walk(n, Ki, Kp, visit=None, limit=None):
    """Walk the row eliminations of an inner node; count operations or run ``visit``.

    ``visit(kind, m, hmax, outer)`` is called for each kernel call; returns the
    number of elementary operations (stops early, returning a partial count,
    once it exceeds ``limit``).
    """
    ops = 0
    if Kp == 1:
        return _n_comp(n, Ki)
    hb = n - (-(-n // Kp))
    # each kernel also spends ~K + 2 operations per vector it lists (offsets, weights)
    c = Ki + 2
    ops += _CALL_OPS + sum(
        _n_comp(s, Ki) * (_n_comp(n - s, Ki) + c) + _n_comp(n - s, Ki) * c for s in range(hb + 1)
    )
    if visit is not None:
        visit("first", None, hb, ())

    def rec(k, outer, sum_outer):
        nonlocal ops
        if limit is not None and ops > limit:
            return
        top = outer[-1] if outer else None
        if k == 1:
            mmax = n // 2 if Kp == 2 else min(outer[0], n - sum_outer - top)
            ops += _n_ball(mmax, Ki) * (c + 1) + _CALL_OPS
            if visit is not None:
                visit("last", None, mmax, outer)
            return
        mk_max = n // 2 if not outer else min(outer[0], n - sum_outer - top)
        for m in range(mk_max + 1):
            t = top if outer else m
            hmax = min((k - 1) * m, n - m - sum_outer - t)
            if hmax < 0:
                break  # hmax decreases with m
            ops += _n_ball(hmax, Ki) * (_n_comp(m, Ki) + c) + _n_comp(m, Ki) * c + _CALL_OPS
            if visit is not None:
                visit("row", m, hmax, outer)
            rec(k - 1, (m, *outer), sum_outer + m)

    rec(Kp - 1, (), 0)
    ops += _n_comp(n, Kp) * Kp  # symmetrization
    return ops


def _columns_ops(n: int, Ki: int, Kp: int) -> int:
    """Operations of :func:`_columns_message`."""
    c = Kp + 2  # per listed vector
    if Ki == 1:
        ops = _n_comp(n, Kp) * c
    else:  # the first column, then pairs (previous partial sums, column)
        ops = _n_ball(n, Kp) * c + (Ki - 2) * math.comb(n + 2 * Kp, 2 * Kp)
        ops += math.comb(n + 2 * Kp - 1, 2 * Kp - 1) + (Ki - 1) * _n_ball(n, Kp) * c
    return ops + _n_ball(n, Kp) * c + _n_comp(n, Kp) * c + _CALL_OPS


def _plan(forest: _Forest, n: int, limit=None):
    """[(node, method, operations, peak bytes)] for every node, bottom-up.

    The peak memory of a node counts its working arrays and every message
    still waiting for its parent at that time (an upper bound). With a
    ``limit``, stops once the running total of operations exceeds it.
    """
    B = n + 1
    out = []
    spent = 0
    waiting = 0  # bytes of messages not yet consumed by their parents
    for v in forest.nodes:
        K = forest.arity[v]
        p = forest.parent[v]
        Kp = 1 if p is None else forest.arity[p]
        if not _is_inner(forest, v):
            # a leaf's table of log C(K, 0..n), or an isolated node's log C(K, n)
            kind = "leaf" if p is not None else "single"
            out.append((v, kind, 2 * (n + 1), waiting + 8 * (n + 1)))
            continue
        inner_ch = [c for c in forest.children[v] if _is_inner(forest, c)]
        msg_out = 8 * B ** (Kp - 1)  # this node's message to its parent
        msg_in = 8 * B ** (K - 1) * len(inner_ch)  # consumed here
        if not inner_ch and Kp == 1:
            ops = (K - 1) * (n + 1) * (n + 2) // 2 + _CALL_OPS
            out.append((v, "convolution", ops, waiting + 8 * 3 * (n + 1)))
            spent += ops
            waiting += 8
            continue
        n_simp = _n_comp(n, K)
        combine_ops = n_simp * (len(inner_ch) + K) + _CALL_OPS
        combine_mem = 8 * B ** (K - 1)  # D, in the node's simplex layout
        if Kp == 1:
            method, ops, mem = "root", combine_ops + n_simp * (K + 1), combine_mem
        else:
            left = None if limit is None else max(limit - spent - combine_ops, 0)
            method = "rows"
            lists = 8 * (K + 3) * 2 * n_simp  # count vectors listed by the kernels
            mem = combine_mem + 8 * (Kp - 1) * B**K + msg_out + lists
            if not inner_ch:
                cols = _columns_ops(n, K, Kp)
                left = cols if left is None else min(left, cols)
            ops = combine_ops + _inner_walk(n, K, Kp, limit=left)
            if not inner_ch and ops > cols:
                method, ops = "columns", cols
                lists = 8 * 2 * _n_ball(n, Kp) + 8 * (Kp + 2) * _n_comp(n, Kp)
                mem = 8 * 2 * B**Kp + msg_out + lists
        out.append((v, method, ops, waiting + mem))
        spent += ops
        waiting += msg_out - msg_in
        if limit is not None and spent > limit:
            break
    return out


def forest_cost(
    model: Graph,
    n: int,
    arities: Mapping[Hashable, int] | None = None,
    *,
    state_names: StateNames | None = None,
) -> int:
    r"""Number of elementary operations :func:`forest_log_normalizer` would perform.

    An elementary operation is one multiply-add of an inner loop; listing a
    count vector costs :math:`K + 2` of them and a call of a compiled kernel
    from Python 5000 (measured: 1-6 ns per operation). The count mirrors the
    loops of the computation exactly. With
    :math:`N(m, K) = \binom{m + K - 1}{K - 1}` count vectors of length
    :math:`K` summing to :math:`m`, per node of arity :math:`K`:

    * leaf: :math:`2(n + 1)` (its table of :math:`\log C(K, 0..n)`);
    * root (or child of a 1-state parent) with leaf children only:
      :math:`(K - 1)(n + 1)(n + 2)/2`, a :math:`K`-fold convolution;
    * other roots: :math:`N(n, K)(c + 2K + 1)` for :math:`c` inner children;
    * inner nodes under a parent of arity :math:`K_p \ge 2`: :math:`N(n, K)(c + K)`
      to combine the messages, plus the row eliminations

      .. math::

          \sum_{s=0}^{n - \lceil n / K_p \rceil} N(s, K) \bigl(N(n - s, K) + 2(K + 2)\bigr)
          + \sum_{m_k} \binom{h_{\max} + K}{K} \bigl(N(m_k, K) + K + 2\bigr) + \dots

      over the sorted row sums :math:`m_1 \le \dots \le m_{K_p}` of the
      recursion (module docstring). For :math:`K_p = 2` this is about
      :math:`\tfrac12\binom{n + 2K - 1}{2K - 1} \approx n^{2K-1} / (2 (2K-1)!)`:
      :math:`n^3/12` for a binary node, :math:`n^5/240` for a ternary one.
      If all its children are leaves, the column-wise sum costs
      :math:`(K - 2)\binom{n + 2K_p}{2K_p} + \binom{n + 2K_p - 1}{2K_p - 1}
      + (K + 1)(K_p + 2)\binom{n + K_p}{K_p}` and the cheaper way is taken.

    Parameters
    ----------
    model : pgmpy DAG, DiscreteBayesianNetwork or networkx DiGraph
        A forest: every node has at most one parent.
    n : int
        Sample size, :math:`\ge 0`.
    arities : dict, optional
        Node -> number of states (an integer :math:`\ge 1`).
    state_names : dict, optional
        Node -> list of states; instead of ``arities``.

    Returns
    -------
    int

    Examples
    --------
    >>> import networkx as nx
    >>> tree = nx.DiGraph([("A", "B"), ("B", "C")])
    >>> forest_cost(tree, 100, {"A": 2, "B": 2, "C": 2}) < 10**6
    True
    """
    n = as_integer(n, "n")
    forest = _forest(model, arities, state_names)
    return int(sum(ops for _, _, ops, _ in _plan(forest, n)))


def _check_cost(forest: _Forest, n: int, max_operations) -> dict:
    """Plan the computation; refuse it above ``max_operations`` or the memory limit."""
    limit = None
    if max_operations is not None:
        limit = as_real(max_operations, "max_operations", low_open=True, allow_inf=True)
        limit = None if math.isinf(limit) else limit
    costs = _plan(forest, n, limit=limit)
    total = sum(ops for _, _, ops, _ in costs)
    worst = max(costs, key=lambda c: c[2])
    v = worst[0]
    p = forest.parent[v]
    where = f"node {v!r} ({forest.arity[v]} states"
    where += f", parent {p!r} with {forest.arity[p]} states)" if p is not None else ", a root)"
    if limit is not None and total > limit:
        # count further for the message (bounded: the walks stop at the cap)
        cap = 100 * limit
        full = sum(ops for _, _, ops, _ in _plan(forest, n, limit=cap))
        needs = f"about {full:.3g}" if full <= cap else f"more than {cap:.3g}"
        raise ForestCostError(
            f"The exact forest NML at n = {n} needs {needs} elementary "
            f"operations, above max_operations = {limit:.3g} (about "
            f"{limit / _OPS_PER_SECOND:.0f} s). Most of it is at {where}: an inner node "
            "with K states under a parent costs about n^(2K-1), more under parents with 3+ "
            "states. Use fewer rows (a smaller n), merge states of the inner nodes or their "
            "parents, turn that node into a leaf, or raise max_operations (None disables "
            "the check)."
        )
    memory = max(mem for _, _, _, mem in costs)
    if memory > MAX_MEMORY_BYTES:
        v = max(costs, key=lambda c: c[3])[0]
        raise ForestCostError(
            f"The exact forest NML at n = {n} needs about {memory / 2**30:.1f} GiB of working "
            f"memory (peak at node {v!r}, {forest.arity[v]} states), above the limit of "
            f"{MAX_MEMORY_BYTES / 2**30:.0f} GiB "
            "(pgmpy_nml.analysis.forest.cost.MAX_MEMORY_BYTES). Use a smaller n or fewer "
            "states for that node and its parent."
        )
    return {v: method for v, method, _, _ in costs}
