"""What a structure search found: one result type for every engine (DP, A*, solver, hill, tabu).

In the spirit of scipy's ``OptimizeResult``: the fields every search has first, then
those of exact and of local search (None where they do not apply). The estimators
store one in ``_result`` at the end of ``fit`` and read their trailing-underscore
attributes from it (:mod:`pgmpy_nml._estimator`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["SearchResult"]


@dataclass(frozen=True)
class SearchResult:
    """The network a search found, its score and how it was found.

    Attributes
    ----------
    method : str
        The engine that ran: ``"dp"``, ``"astar"``, ``"solver"``, ``"astar+solver"``
        (A* handed its best network to the solver), ``"hill"`` or ``"tabu"``.
    dag : pgmpy.base.DAG
        The network, every variable a node.
    score : float
        Its score (the sum of its local scores, plus a structure prior if any).
    model : pgmpy.models.DiscreteBayesianNetwork or None
        The network with fitted parameters (None without a parameter estimator).
    timings : dict
        Seconds per phase.
    plan : str
        How local scores were computed (``"statistics"``, ``"generic"``, ...).
    max_parents : int or None
        The parent limit that applied.
    bound, gap : float or None
        Exact search: a proven upper bound on the best score, and
        ``(bound - score) / |score|`` (0 when optimal). None for local search.
    memory_estimate : int or None
        Exact search (subset DP): the bytes the run was estimated to need.
    candidates : object
        Exact search: the :class:`~pgmpy_nml.search.candidates.CandidateParentSets`
        searched (None for the DP). Local search: ``{variable: [candidate parents]}``
        when candidates were restricted, else None.
    pruning : object
        Exact search: the :class:`~pgmpy_nml.search.candidates.PruningReport`.
    n_iter : int or None
        Local search: moves made.
    history, restart_scores, round_scores : ndarray or None
        Local search: the score after every move, at the end of each restart, and at
        the end of each candidate round.
    limit_scores : dict or None
        Local search with ``max_parents="auto"`` on wide data: the held-out
        log-likelihood per row of each parent limit tried (None: no choice was made).
    variables : tuple or None
        The engines over candidate parent sets (:func:`~pgmpy_nml.search.candidates.solve`,
        A*): the variable names, as in the candidates.
    parents : dict or None
        Those engines: ``{variable: tuple of parent names}``, the chosen family of each
        variable.
    choice : tuple of int or None
        Those engines: per variable, the index of its chosen candidate in
        ``candidates.parent_sets[v]``.
    status : str or None
        Those engines: the final status (``"optimal"``, ``"timelimit"``,
        ``"gaplimit"``, ``"memorylimit"``, ...).
    engine : str or None
        Those engines: ``"scip <version>"``, ``"astar"`` or, where the bound-first solver's
        root pricing alone gave the network and bound, ``"root pricing (scip <version>)"``.
    n_cuts : int or None
        The solver: cluster constraints added during the search (0 for A*).
    engines : dict or None
        Two engines side by side (``method="solver|solver"``, ...): per engine (the names
        of ``timings``), ``{"score": ..., "bound": ..., "status": ..., "engine": ...}``,
        its own network's score, its proven bound over the candidates, its status and
        what it ran; which engine found the network and which proved the bound. None for
        one engine; an engine that had not reported when the other proved its network is
        absent.
    interchangeable : tuple of tuple or None
        Those engines: the classes of interchangeable variables (names), which swapping
        maps the candidates onto themselves with the same scores, as duplicated data
        columns do; the network is one of the equally good ones that permute each
        class, the one whose topological order keeps the class in column order
        (:mod:`~pgmpy_nml.search.candidates._symmetry`). Empty when there are none.
    feature_names : ndarray or None
        The data's columns, in order (``feature_names_in_``).

    Examples
    --------
    Every search stores one; the pipeline's :func:`~pgmpy_nml.search.candidates.solve`
    returns one:

    >>> from pgmpy_nml.search.candidates import CandidateParentSets, solve
    >>> cands = CandidateParentSets.from_dict(
    ...     {"A": {(): -10.0, ("B",): -8.0}, "B": {(): -5.0, ("A",): -4.5}}
    ... )
    >>> result = solve(cands, show_progress=False)
    >>> result.method, result.score, result.optimal, sorted(result.dag.edges())
    ('solver', -13.0, True, [('B', 'A')])
    """

    method: str
    dag: Any
    score: float
    model: Any = None
    timings: dict | None = None
    plan: str | None = None
    max_parents: int | None = None
    bound: float | None = None
    gap: float | None = None
    memory_estimate: int | None = None
    candidates: Any = None
    pruning: Any = None
    n_iter: int | None = None
    history: Any = None
    restart_scores: Any = None
    round_scores: Any = None
    limit_scores: dict | None = None
    variables: tuple | None = None
    parents: dict | None = None
    choice: tuple | None = None
    status: str | None = None
    engine: str | None = None
    n_cuts: int | None = None
    engines: dict | None = None
    interchangeable: tuple | None = None
    feature_names: Any = None

    @property
    def optimal(self) -> bool:
        """True when the network is proven optimal (an exact search with gap 0: its bound
        is not above its score)."""
        return self.gap is not None and self.gap == 0.0
