"""One entry to every structure search: :func:`find_structure`.

It sits above both estimators (:class:`~pgmpy_nml.ExactSearch`,
:class:`~pgmpy_nml.LocalSearch`), so that neither imports the other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .._params import EXACT_METHODS, METHODS
from .._validate import as_choice
from .exact import ExactSearch
from .local import LocalSearch

if TYPE_CHECKING:
    import pandas as pd
    from pgmpy.base import DAG

    from .._typing import ExpertKnowledgeLike, Graph, Score

__all__ = ["find_structure", "named_search"]


def named_search(method: str, scoring_method: Any = "fnml", **settings: Any) -> Any:
    """The unfitted search called ``method``: :class:`ExactSearch` for an exact method,
    :class:`~pgmpy_nml.LocalSearch` for ``"hill"`` and ``"tabu"``, with ``settings``.

    Examples
    --------
    >>> from pgmpy_nml.search._find import named_search
    >>> type(named_search("tabu", max_parents=2)).__name__
    'LocalSearch'
    """
    as_choice(method, "method", METHODS)
    if method in EXACT_METHODS:
        return ExactSearch(scoring_method, method=method, **settings)
    return LocalSearch(scoring_method, method=method, **settings)


def find_structure(
    score: Score,
    data: pd.DataFrame | None,
    method: str = "auto",
    *,
    max_parents: int | str | None = "auto",
    expert_knowledge: ExpertKnowledgeLike | None = None,
    start_dag: Graph | None = None,
    show_progress: bool = False,
    **options: Any,
) -> DAG:
    """The best DAG for ``score``: an exact search, hill climbing or tabu search.

    The one place where the package's tools (command line, ESS, saturation)
    choose between the globally optimal :class:`ExactSearch` and the local
    search :class:`~pgmpy_nml.LocalSearch` (a local optimum, optionally started
    from ``start_dag``).

    Parameters
    ----------
    score : score object
        Built on ``data``.
    data : pandas.DataFrame
    method : str, default "auto"
        An exact method (:class:`ExactSearch`'s ``method``: ``"auto"``, ``"dp"``,
        ``"astar"``, ``"solver"``, ``"astar|solver"``, ``"solver|solver"``,
        ``"order|solver"``; ``"auto"``
        chooses among them) or a local search (:class:`~pgmpy_nml.LocalSearch`'s:
        ``"hill"``, ``"tabu"``).
    max_parents : int, None or "auto", default "auto"
        The largest parent set (None: no limit). A whole number; a float such as
        ``2.0`` is taken as ``2``, ``2.5`` is refused. ``"auto"``: each search's own
        rule, as its estimator's default: for an exact method
        :func:`~pgmpy_nml.search.choose_search`'s (no limit for the DP, 3 parents for
        A* and the solver), for hill climbing and tabu search none unless the data
        have fewer rows than variables, where a limit chosen on held-out rows
        (:class:`~pgmpy_nml.LocalSearch`'s ``max_parents``).
    expert_knowledge : pgmpy ExpertKnowledge, optional
    start_dag : pgmpy DAG, optional
        Local search only.
    show_progress : bool, default False
    **options
        Local search only: more :class:`~pgmpy_nml.LocalSearch` settings
        (``restarts``, ``perturb``, ``tabu_length``, ``max_non_improving``,
        ``random_state``, ``n_jobs``, ...).

    Returns
    -------
    pgmpy.base.DAG

    Examples
    --------
    >>> from pgmpy_nml import QNML
    >>> from pgmpy_nml.datasets import sample_network
    >>> from pgmpy_nml.search import find_structure
    >>> _, data = sample_network("cancer", 1000, random_state=0)
    >>> exact = find_structure(QNML(data), data)
    >>> hill = find_structure(QNML(data), data, "hill")
    >>> QNML(data).score(exact) >= QNML(data).score(hill) - 1e-9
    True
    """
    as_choice(method, "method", METHODS)
    settings = {"max_parents": max_parents, "expert_knowledge": expert_knowledge}
    if method in EXACT_METHODS:
        if options:
            raise ValueError(f"Options {sorted(options)} are for the local search, not {method!r}.")
        search = named_search(method, score, show_progress=show_progress, **settings)
        return search.fit(data).dag_
    search = named_search(
        method, score, start_dag=start_dag, show_progress=show_progress, **settings, **options
    )
    return search.fit(data).causal_graph_
