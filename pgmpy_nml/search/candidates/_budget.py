r"""The memory of the candidate search, checked before each level allocates it.

A level of :class:`~pgmpy_nml.search.candidates._tasks._Task` allocates in
three steps, each checked against the memory still available before it starts
(:func:`check`; what the search already holds counts as taken, see
:func:`~pgmpy_nml._memory.available_memory`):

1. *the rows* (:func:`rows_bytes`), once the level's sets exist: their parent
   and family rows, the listing of the subsets not counted yet, the screen;
2. *the counting* (:func:`counting_bytes`), once the new subsets are known (each
   once), plus what follows it: the screen and the rows again after the parents'
   counting, the scores after the families' (:func:`scoring_bytes`): their
   statistics, bounds and the kept candidates;
3. *the advance* (:func:`advance_bytes`): every growing lattice generates the
   next level's sets from its open ones and keeps those whose subsets are all
   open. How many it generates is known before any is
   (:meth:`~pgmpy_nml.search.candidates._lattice._Lattice.next_size`), and bounds
   how many it keeps.

The last level, when compiled (:mod:`~pgmpy_nml.search.candidates._final`), is
generated in blocks of a fixed number of sets, one per thread at a time:
:func:`~pgmpy_nml.search.candidates._final.block_bytes` bounds a block, and nothing
of it is kept but the candidates.

Each function is an upper bound of what its step allocates, in 8-byte numbers,
term by term (see their notes); ``tests/test_memory_guard.py`` checks it against
the traced peak on many random problems and every score.
"""

from __future__ import annotations

import math

from ..._counting.subsets import workspace_bytes
from ..._memory import available_memory, format_bytes
from ...exceptions import SearchMemoryError
from ._lattice import _DENSE_SLOTS

__all__: list[str] = []

#: share of the memory still available that one step of the candidate search may take
MEMORY_SHARE = 0.8

#: arrays of one value per set that a score's formula (and, times the bound's cases,
#: its superset bound) may allocate at once; the scores of this package stay below
#: (tests/test_memory_guard.py)
FORMULA_ARRAYS = 16
BOUND_ARRAYS = 8

#: bytes of a step's small objects (Python lists and dicts, array headers): a step, a
#: lattice taking part in it (about 2 KB are seen, tests/test_memory_guard.py)
STEP_OVERHEAD = 256 << 10
LATTICE_OVERHEAD = 4 << 10

#: the (set, allowed parent) pairs of one block of the superset bounds (_Lattice.supersets)
BOUND_BLOCK = 1 << 20


def start_bytes(problem) -> int:
    """Bytes the start of a task allocates after counting the single variables: for
    each lattice in turn, the log-likelihood given every admissible parent (a
    counting of up to every variable: its buffers and a row of the tables)."""
    n_vars, n_rows = len(problem.arities), problem.codes.shape[1]
    max_arity = int(problem.arities.max(initial=1))
    counting = workspace_bytes(n_rows, n_vars + 2, max_arity) + 16 * (n_rows + 1)
    return counting + STEP_OVERHEAD + LATTICE_OVERHEAD * n_vars


def advance_bytes(task, sizes: dict) -> int:
    r"""Bytes the advance to the next level allocates; ``sizes[i] = (m, o)``: lattice
    ``i`` generates :math:`m` sets of :math:`w` added parents from :math:`o` open ones
    among :math:`a` allowed parents.

    Kept, every lattice at once: the sets and their subsets' rows (:math:`16 w`),
    their best subset score, inherited bound and mask (:math:`17`), a set. Meanwhile,
    one lattice at a time: the generated sets, their subsets' colex ranks and rows
    and the copies of the selection (:math:`8 \cdot 12 (w + 1)` a set) and the
    :math:`o \times a` mask of the extensions.
    """
    held = transient = 0
    for i, (m, n_open) in sizes.items():
        lat = task.lattices[i]
        w = lat.level + 1
        held += m * (16 * w + 17)
        transient = max(transient, 8 * 12 * (w + 1) * m + n_open * len(lat.allowed))
    return held + transient + STEP_OVERHEAD + LATTICE_OVERHEAD * len(sizes)


def rows_bytes(task, active) -> int:
    r"""Bytes the current level of ``task``'s ``active`` lattices allocates before its
    counting: lattice ``i`` has :math:`m` sets of :math:`s` parents, :math:`w` of them
    added, and :math:`k` statistics.

    Kept, every lattice at once: the parent rows, their copy and the family rows
    (:math:`8(3s + 1)` a set); for each of the two rows of a set (parents, family),
    its colex rank, position, sorted copy and block while the new subsets are listed
    (:math:`8 \cdot 8`); with a screen (:math:`k_m` statistics, the score's
    ``monotone_family_statistics``), its statistics and mask (:math:`8 k_m + 1`).
    Meanwhile, one lattice at a time: the ranks and lookups of one block
    (:math:`8 \cdot 6` a row) and the screen's arithmetic (:math:`8 ((w + 1) k_m +
    k + 2 s +` :data:`FORMULA_ARRAYS` :math:`)`).
    """
    problem = task.problem
    k, k_m = len(problem.keys), len(problem.monotone)
    held = transient = 0
    for i in active:
        lat = task.lattices[i]
        m, w = lat.X.shape[0], lat.level
        s = len(lat.required) + w
        held += 8 * m * (3 * s + 1) + 2 * m * 8 * 8 + (m * (8 * k_m + 1) if k_m else 0)
        screen = 8 * m * ((w + 1) * k_m + k + 2 * s + FORMULA_ARRAYS) if k_m else 0
        transient = max(transient, 2 * m * 8 * 6, screen)
    return held + transient + STEP_OVERHEAD + LATTICE_OVERHEAD * len(active)


def counting_bytes(store, n_new: int, width: int, sizes) -> int:
    r"""Bytes the store allocates to count ``n_new`` new subsets of up to ``width``
    variables (of ``sizes``) and keep their :math:`k` statistics.

    The subsets' rows, padded and sorted, their sizes, order and inverse
    (:math:`8(2 w + 4)` a subset); their statistics three times (the counting's,
    the gathered, the table's: :math:`24 k`); the copy of every stored table a
    new column joins (:math:`8 k + 48` a stored subset: statistics, sparse ranks
    and columns, their sort) and the direct rank tables of new sizes
    (:math:`8 \binom{n}{s}`); the compiled counting's buffers, per thread.
    """
    problem = store.problem
    k, n_vars = len(problem.keys), len(problem.arities)
    need = n_new * (8 * (2 * width + 4) + 24 * k)
    need += sum(t.stats.shape[1] * (8 * k + 48) for t in store.by_size.values())
    for size in sizes:
        if size not in store.by_size and math.comb(n_vars, size) <= _DENSE_SLOTS:
            need += 8 * math.comb(n_vars, size)
    n_rows, max_arity = problem.codes.shape[1], int(problem.arities.max(initial=1))
    need += store.n_threads * workspace_bytes(n_rows, width + 1, max_arity)
    return need + STEP_OVERHEAD


def scoring_bytes(task, active) -> int:
    r"""Bytes the scores and bounds of the current level of ``task``'s ``active``
    lattices allocate, once counted: lattice ``i`` has :math:`m` sets of :math:`s`
    parents, :math:`w` of them added, :math:`a` allowed parents, :math:`k`
    statistics and :math:`c` cases of the superset bound (none at the last level).

    Kept, every lattice at once: the recorded screen statistics (:math:`8 k_m`, the
    score's ``monotone_family_statistics``), bests and masks (:math:`9`), the kept
    sets and scores (:math:`8(s + 1)`, as if every set were kept), and the
    direct rank table of a level that grows (:math:`8 \binom{a}{w}`). Meanwhile,
    one lattice at a time: the statistics gathered (:math:`16 k`), the parents'
    configurations (:math:`16 s`), the formula's arrays (:data:`FORMULA_ARRAYS`),
    the bound's cases (:math:`8 (2 +` :data:`BOUND_ARRAYS` :math:`) c` a set) and one
    block of the bounds (at most :data:`BOUND_BLOCK` (set, parent) pairs, 16 arrays).
    """
    problem = task.problem
    k, n_monotone = len(problem.keys), len(problem.monotone)
    held = transient = 0
    for i in active:
        lat = task.lattices[i]
        m, w, a = lat.X.shape[0], lat.level, len(lat.allowed)
        s = len(lat.required) + w
        grows = lat.can_grow()
        held += 8 * m * (n_monotone + 1 + s + 1) + m
        if grows and math.comb(a, w) <= _DENSE_SLOTS:
            held += 8 * math.comb(a, w)
        n_cases = a + max(min(lat.max_extra, a) - w - 1, 0) if grows and problem.bounded else 0
        block = 8 * 16 * min(m * a, max(a, BOUND_BLOCK)) if n_cases else 0
        per_set = 2 * k + 2 * s + FORMULA_ARRAYS + (2 + BOUND_ARRAYS) * n_cases
        transient = max(transient, 8 * m * per_set + block)
    return held + transient + STEP_OVERHEAD + LATTICE_OVERHEAD * len(active)


def check(need: int, what: str, constraints) -> None:
    """Raise :class:`~pgmpy_nml.exceptions.SearchMemoryError` when a step that would
    allocate ``need`` bytes (for ``what``) does not fit in its share of the memory
    still available; the advice depends on the parent limit of ``constraints``."""
    room = MEMORY_SHARE * available_memory()
    if need > room:
        need_text, room_text = format_bytes(need), format_bytes(room)
        if need_text == room_text:  # close: say how far apart
            need_text, room_text = f"{need / 2**20:.0f} MB", f"{room / 2**20:.0f} MB"
        limit = constraints.max_parents
        if limit < len(constraints.variables) - 1:
            advice = f"Give max_parents a value below {limit}"
        else:
            advice = "Give max_parents (3 or 4 is usual)"
        raise SearchMemoryError(
            f"The candidate search would need about {need_text} for {what}, and "
            f"{room_text} is available to it: the score's bounds do not stop the "
            f"enumeration on these data. {advice}, or learn on fewer variables."
        )
