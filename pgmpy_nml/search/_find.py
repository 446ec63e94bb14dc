"""One entry to every structure search: :func:`find_structure`.

It sits above both estimators (:class:`~pgmpy_nml.ExactSearch`,
:class:`~pgmpy_nml.LocalSearch`), so that neither imports the other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._params import EXACT_METHODS, METHODS
from .._validate import as_choice
from .exact import ExactSearch
from .local import LocalSearch

if TYPE_CHECKING:
    from typing import Any

    import pandas as pd
    from pgmpy.base import DAG

    from .._typing import ExpertKnowledgeLike, Graph, Score

__all__ = ["find_structure"]


def find_structure(
    score: Score,
    data: pd.DataFrame | None,
    method: str = "auto",
    *,
    max_parents: int | None = None,
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
        ``"astar"``, ``"solver"``, ``"astar|solver"``, ``"solver|solver"``; ``"auto"``
        chooses among them) or a local search (:class:`~pgmpy_nml.LocalSearch`'s:
        ``"hill"``, ``"tabu"``).
    max_parents : int, optional
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
    if method in EXACT_METHODS:
        if options:
            raise ValueError(f"Options {sorted(options)} are for the local search, not {method!r}.")
        search = ExactSearch(
            score,
            method=method,
            max_parents=max_parents,
            expert_knowledge=expert_knowledge,
            show_progress=show_progress,
        )
        return search.fit(data).dag_
    search = LocalSearch(
        score,
        method=method,
        max_parents=max_parents,
        expert_knowledge=expert_knowledge,
        start_dag=start_dag,
        show_progress=show_progress,
        **options,
    )
    return search.fit(data).causal_graph_
