"""Which structure search runs, and with which parent limit: the one ``"auto"`` policy.

:func:`choose_search` is the only place that decides. :class:`~pgmpy_nml.ExactSearch`
(``method="auto"``), the command line (``pgmpy-nml learn --method auto``, ``cv``,
``--bootstrap``), :class:`~pgmpy_nml.analysis.ess.OptimalESS` and
:func:`~pgmpy_nml.learning_saturation` (``method="auto"``) all ask it, so the same
data get the same search everywhere. The thresholds it reads that the command line's
``--help`` also quotes live in :mod:`pgmpy_nml._limits` (importable without numpy);
the ones only this policy reads are below.
"""

from __future__ import annotations

from typing import NamedTuple

from .._limits import (
    ASTAR_MAX_VARIABLES,
    AUTO_EXACT_MAX_VARIABLES,
    AUTO_SOLVER_MAX_VARIABLES,
    CANDIDATE_METHODS,
    SOLVER_DEFAULT_MAX_PARENTS,
)
from .._validate import as_choice, as_integer

__all__ = [
    "ASTAR_AUTO_MAX_VARIABLES",
    "DP_ALWAYS_MAX_VARIABLES",
    "EXACT_MAX_VARIABLES",
    "EXACT_METHODS",
    "LOCAL_METHODS",
    "SEARCH_METHODS",
    "SearchChoice",
    "choose_search",
]

#: The subset DP keeps n * 2**(n-1) local scores: beyond this it is hopeless.
EXACT_MAX_VARIABLES = 31
#: The exact choice takes the A* search over the candidates up to this many variables and
#: SCIP's branch and cut above; with two cores or more, A* and branch and cut side by side
#: (``"astar|solver"``, the first proof wins) up to here. Measured (benchmarks/bench_astar.py
#: and bench_frontier.py, 2026-11-24, max 3 parents): A* proved insurance, water, alarm and
#: mildew (27-37 variables) with fNML, qNML and BDeu(1-100) at N = 100-10000 in 0.1-127 s
#: against SCIP's 0.5-289 s (3 of them not proven by SCIP in 300 s); but on the first 40
#: variables of hailfinder (BDeu(1), N = 10000, 847 candidates) SCIP proved in 16 s and A*
#: was 1.7% from proven when its 6 GB cap stopped it at 148 s. Which engine wins depends
#: on the data, not on the size alone: where a second core exists, both run. Above 40
#: variables the pattern database has three groups or more and is weak: on hailfinder's
#: first 45 and its 56 variables A* was 1.7% and 3.5% from proven after 130 and 300 s
#: (12 GB), SCIP proved in 41 and 187 s, so the solver runs above, beside a second,
#: differently seeded solver that works on the bound first where a second core exists
#: (``"solver|solver"``, :mod:`~pgmpy_nml.search.candidates._portfolio`). Which engine
#: wins still depends on the data there: barley (48 variables, N = 500, qNML) is proven by
#: A* in under a second and by neither solver in 600 s, so ``ExactSearch(method="auto")``
#: runs A* for 2 s of CPU before the calling process's solver up to 63 variables
#: (:func:`~pgmpy_nml.search.candidates._pipeline._probe_seconds`).
ASTAR_AUTO_MAX_VARIABLES = 40
#: The exact choice always takes the subset DP up to this many variables (well under a
#: second).
DP_ALWAYS_MAX_VARIABLES = 15

#: The exact engines, each globally optimal (the solver, A* and their portfolio anytime,
#: with a gap).
EXACT_METHODS = ("dp", *CANDIDATE_METHODS)
#: The local searches (a local optimum).
LOCAL_METHODS = ("hill", "tabu")
#: Every ``method`` :func:`choose_search` takes.
SEARCH_METHODS = ("auto", "exact", *EXACT_METHODS, *LOCAL_METHODS)


class SearchChoice(NamedTuple):
    """The search :func:`choose_search` picked.

    Attributes
    ----------
    method : str
        ``"dp"``, ``"astar"``, ``"solver"``, ``"astar|solver"``, ``"solver|solver"``,
        ``"order|solver"`` (exact: two engines side by side) or ``"hill"``, ``"tabu"`` (local).
    max_parents : int or None
        The parent limit that applies (None: no limit).

    Examples
    --------
    >>> from pgmpy_nml.search import choose_search
    >>> choice = choose_search(36)
    >>> choice.method, choice.max_parents, choice.exact
    ('astar', 3, True)
    >>> method, max_parents = choose_search(36, "tabu")
    >>> method, max_parents
    ('tabu', None)
    """

    method: str
    max_parents: int | None

    @property
    def exact(self) -> bool:
        """Whether the picked search is exact (globally optimal)."""
        return self.method in EXACT_METHODS


def choose_search(
    n_vars: int,
    method: str = "auto",
    max_parents: int | str | None = "auto",
    *,
    repeated: bool = False,
    cores: int = 1,
) -> SearchChoice:
    """The search and the parent limit for ``n_vars`` variables: the one ``"auto"`` policy.

    - ``method="exact"``: the best exact engine for the size. The subset DP up to
      15 variables (:data:`DP_ALWAYS_MAX_VARIABLES`), and up to 20
      (:data:`~pgmpy_nml._limits.AUTO_EXACT_MAX_VARIABLES`) when no parent limit
      applies (``max_parents`` ``None`` or ``"auto"``); above, the A* search over
      the candidate parent sets up to 40 variables (:data:`ASTAR_AUTO_MAX_VARIABLES`;
      SCIP's branch and cut takes over, from A*'s best network, if A* runs out of
      memory) and SCIP's branch and cut beyond. With ``cores`` >= 2, two engines side by
      side, the first proof wins: up to 40 variables A* and branch and cut
      (``"astar|solver"``) instead of A* alone, since neither wins on every data set
      (see :data:`ASTAR_AUTO_MAX_VARIABLES`); above, two differently seeded branch and
      cuts (``"solver|solver"``, the second with a deeper root cut loop; see
      :mod:`~pgmpy_nml.search.candidates._portfolio`) instead of one. This is
      ``ExactSearch(method="auto")``, which, once the candidates are known, runs A*
      for 2 s of CPU before the bound-first solver of ``"solver|solver"`` up to 63 variables
      (its proof ends the search), and runs the
      order search beside the bound-first solver (``"order|solver"``) when SCIP's model
      over every candidate would not fit in the memory or the time, and in place of
      two solvers from 100,000 candidates on where the bound-first solver prices its
      root.
    - ``method="auto"``: that exact choice up to 64 variables
      (:data:`~pgmpy_nml._limits.AUTO_SOLVER_MAX_VARIABLES`, the range of the field's
      benchmark instances) and hill climbing above (the command line adds
      :data:`~pgmpy_nml._limits.AUTO_RESTARTS` order-based restarts: on the
      density-estimation benchmark they bought more score per CPU second than tabu
      search, ``benchmarks/bench_density.py --anytime``). With ``repeated=True``,
      for a tool that runs the search many times over (the rounds of
      :class:`~pgmpy_nml.analysis.ess.OptimalESS`, the sample sizes of
      :func:`~pgmpy_nml.learning_saturation`): the exact choice only up to 20
      variables, where it takes seconds, and hill climbing above.
    - ``"dp"``, ``"astar"``, ``"solver"``, ``"astar|solver"``, ``"solver|solver"``,
      ``"order|solver"``, ``"hill"``, ``"tabu"``:
      that search, checked against its size limit.
    - ``max_parents="auto"``: no limit for the DP and the local searches (whose
      estimator applies its own ``"auto"`` rule), 3
      (:data:`~pgmpy_nml._limits.SOLVER_DEFAULT_MAX_PARENTS`, GOBNILP's default) for
      A* and the solver (and both side by side); an integer or ``None`` (no limit) is
      used as given.

    Parameters
    ----------
    n_vars : int
        Number of variables.
    method : {"auto", "exact", "dp", "astar", "solver", "astar|solver", "solver|solver", \
"order|solver", "hill", "tabu"}, default "auto"
    max_parents : int, None or "auto", default "auto"
        A whole number; a float such as ``2.0`` is taken as ``2``, ``2.5`` is refused.
    repeated : bool, default False
        The cheaper ``"auto"`` rule of the tools that search many times (see above).
    cores : int, default 1
        The cores the search may use; with two or more the exact choice may run two
        engines side by side (see above).

    Returns
    -------
    SearchChoice
        ``(method, max_parents)``; ``.exact`` says whether the method is exact.

    Raises
    ------
    ValueError
        For an unknown method, or an explicit one beyond its size limit (the subset
        DP at most 31 variables, A* and ``"astar|solver"`` at most 63).

    Examples
    --------
    >>> from pgmpy_nml.search import choose_search
    >>> choose_search(12), choose_search(36)
    (SearchChoice(method='dp', max_parents=None), SearchChoice(method='astar', max_parents=3))
    >>> tuple(choose_search(18, max_parents=2)), tuple(choose_search(56, "exact"))
    (('astar', 2), ('solver', 3))
    >>> tuple(choose_search(70)), tuple(choose_search(25, repeated=True))
    (('hill', None), ('hill', None))
    >>> tuple(choose_search(36, cores=2)), tuple(choose_search(45, "exact", cores=2))
    (('astar|solver', 3), ('solver|solver', 3))
    """
    as_choice(method, "method", SEARCH_METHODS)
    auto_limit = isinstance(max_parents, str)
    limit: int | None = None
    if auto_limit:
        as_choice(max_parents, "max_parents", ("auto",))
    elif max_parents is not None:
        limit = as_integer(max_parents, "max_parents")
    cores = as_integer(cores, "cores", minimum=1)
    if method == "auto":
        if repeated:
            method = "exact" if n_vars <= AUTO_EXACT_MAX_VARIABLES else "hill"
        else:
            method = "exact" if n_vars <= AUTO_SOLVER_MAX_VARIABLES else "hill"
    if method == "exact":
        small = n_vars <= DP_ALWAYS_MAX_VARIABLES
        unlimited = (auto_limit or limit is None) and n_vars <= AUTO_EXACT_MAX_VARIABLES
        if small or unlimited:
            method = "dp"
        else:
            method = _candidate_engine(n_vars, cores)
    if method == "dp" and n_vars > EXACT_MAX_VARIABLES:
        raise ValueError(
            f"The subset dynamic programming handles at most {EXACT_MAX_VARIABLES} "
            f"variables (it keeps n * 2**(n-1) local scores); the data has {n_vars}. Use "
            "method='solver' (with a parent limit, max_parents=3 say) or a local search."
        )
    if method in ("astar", "astar|solver") and n_vars > ASTAR_MAX_VARIABLES:
        raise ValueError(
            f"The A* search ({method!r}) handles at most {ASTAR_MAX_VARIABLES} variables (sets of "
            f"variables are bits of a 64-bit integer); the data has {n_vars}. Use "
            "method='solver'."
        )
    if auto_limit:
        limit = SOLVER_DEFAULT_MAX_PARENTS if method in CANDIDATE_METHODS else None
    return SearchChoice(method, limit)


def _candidate_engine(n_vars: int, cores: int) -> str:
    """The engine over candidate parent sets for ``n_vars`` variables on ``cores`` cores
    (see the measurements at :data:`ASTAR_AUTO_MAX_VARIABLES`)."""
    if n_vars > ASTAR_AUTO_MAX_VARIABLES:
        return "solver|solver" if cores >= 2 else "solver"
    return "astar|solver" if cores >= 2 else "astar"
