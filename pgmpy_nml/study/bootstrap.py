r"""Bootstrap arc strength and model averaging (bnlearn's ``boot.strength``).

For :math:`B` bootstrap resamples of the data a network is learned with the same
procedure; the *strength* of a pair of nodes is the fraction of networks with an
arc between them, in either direction, and the *direction* of an arc is the
fraction of those in which it points that way (Friedman, Goldszmidt and Wyner
1999; Imoto et al. 2002). An undirected edge (of a CPDAG) counts half in each
direction. The averaged network keeps the arcs stronger than a threshold; by
default the threshold of Scutari and Nagarajan (2013), estimated from the
strengths themselves (:func:`strength_threshold`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from .._frames import encode_frame, is_dask_frame
from .._sparse import inner_fits
from .._validate import as_bool, as_integer, as_real

if TYPE_CHECKING:
    import os
    from collections.abc import Hashable, Mapping, Sequence
    from typing import Any

    from matplotlib.axes import Axes

    from .._typing import (
        ArrayLike,
        Graph,
        LearnedGraph,
        RandomState,
        ScoringMethod,
        SearchLike,
        StateNames,
    )
    from ._procedure import LearningProcedure

__all__ = [
    "averaged_network",
    "bootstrap_strength",
    "custom_strength",
    "plot_strength",
    "strength_threshold",
]

_REFERENCES = """
    References
    ----------
    .. [1] M. Scutari, R. Nagarajan. "Identifying significant edges in graphical models
       of molecular networks". Artificial Intelligence in Medicine 57(3), 2013, 207-217.
    .. [2] N. Friedman, M. Goldszmidt, A. Wyner. "Data analysis with Bayesian networks:
       a bootstrap approach". UAI 1999.
"""


def _edge_lists(graph):
    """``(directed, undirected)`` edges of a DAG, a PDAG or a networkx graph."""
    directed = getattr(graph, "directed_edges", None)
    undirected = getattr(graph, "undirected_edges", None)
    if directed is not None and undirected is not None:
        return list(directed), list(undirected)
    if getattr(graph, "is_directed", lambda: True)():
        return list(graph.edges()), []
    return [], list(graph.edges())


def custom_strength(
    networks: Sequence[Graph],
    nodes: Sequence[Hashable],
    *,
    weights: ArrayLike | None = None,
    cpdag: bool = False,
) -> pd.DataFrame:
    r"""Arc strength and direction from a list of networks (bnlearn's ``custom.strength``).

    With weights :math:`w_b` (default 1) normalized to sum to one, and
    :math:`a_b(u, v) = 1` for an arc :math:`u \to v` of network :math:`b`,
    :math:`1/2` for an undirected edge :math:`u - v`, 0 otherwise:

    .. math::

        p(u \to v) = \sum_b w_b\, a_b(u, v), \qquad
        \mathrm{strength}(u, v) = p(u \to v) + p(v \to u), \qquad
        \mathrm{direction}(u \to v) = p(u \to v) / \mathrm{strength}(u, v)

    (direction 0 where the strength is 0).

    Parameters
    ----------
    networks : sequence of pgmpy DAG, PDAG or networkx graphs
    nodes : sequence
        Every node; the rows follow this order.
    weights : sequence of float, optional
    cpdag : bool, default False
        Replace each DAG by its equivalence class (:func:`~pgmpy_nml.study.cpdag`)
        before counting, as bnlearn's ``cpdag = TRUE``.

    Returns
    -------
    pandas.DataFrame
        Columns ``from``, ``to``, ``strength``, ``direction``: one row per ordered
        pair of distinct nodes. ``attrs["nodes"]`` and ``attrs["n_networks"]`` hold
        the nodes and the number of networks, ``attrs["threshold"]`` the
        :func:`strength_threshold` of the strengths.

    Examples
    --------
    >>> from pgmpy.base import DAG
    >>> from pgmpy_nml.study import custom_strength
    >>> nets = [DAG([("A", "B")]), DAG([("A", "B")]), DAG([("B", "A")]), DAG()]
    >>> s = custom_strength(nets, ["A", "B"])
    >>> s.round(4).values.tolist()
    [['A', 'B', 0.75, 0.6667], ['B', 'A', 0.75, 0.3333]]
    """
    nodes = list(nodes)
    if len(set(nodes)) != len(nodes):
        raise ValueError("nodes lists a node twice.")
    index = {v: i for i, v in enumerate(nodes)}
    networks = list(networks)
    if not networks:
        raise ValueError("networks is empty: give at least one network.")
    if weights is None:
        w = np.ones(len(networks))
    else:
        w = np.asarray(weights, dtype=float)
        if w.shape != (len(networks),) or not np.all(np.isfinite(w)) or (w < 0).any():
            raise ValueError("weights must be one non-negative finite number per network.")
    if w.sum() <= 0:
        raise ValueError("weights sum to zero.")
    n = len(nodes)
    p = np.zeros((n, n))
    for weight, graph in zip(w, networks, strict=True):
        if cpdag:
            from .scoring import cpdag as to_cpdag

            graph = to_cpdag(graph)
        directed, undirected = _edge_lists(graph)
        for u, v in directed:
            p[_position(index, u), _position(index, v)] += 2 * weight
        for u, v in undirected:
            i, j = _position(index, u), _position(index, v)
            p[i, j] += weight
            p[j, i] += weight
    # in half-arc units until here, so that unweighted counts stay whole numbers and
    # the divisions below give the closest doubles to the exact fractions
    both = p + p.T
    strength = both / (2 * w.sum())
    direction = np.divide(p, both, out=np.zeros_like(p), where=both > 0)
    rows, cols = np.nonzero(~np.eye(n, dtype=bool))
    frame = pd.DataFrame(
        {
            "from": [nodes[i] for i in rows],
            "to": [nodes[j] for j in cols],
            "strength": np.clip(strength[rows, cols], 0.0, 1.0),
            "direction": np.clip(direction[rows, cols], 0.0, 1.0),
        }
    )
    frame.attrs["nodes"] = nodes
    frame.attrs["n_networks"] = len(networks)
    frame.attrs["threshold"] = strength_threshold(frame)
    return frame


def _position(index, node):
    try:
        return index[node]
    except KeyError:
        raise ValueError(f"A network has the node {node!r}, which is not in nodes.") from None


def _pair_strengths(strength) -> np.ndarray:
    """One strength per unordered pair (the frame lists each pair in both directions)."""
    if not isinstance(strength, pd.DataFrame):
        return np.asarray(strength, dtype=float).ravel()
    if not {"from", "to", "strength"} <= set(strength.columns):
        raise ValueError("strength must have the columns from, to and strength.")
    seen, keep = set(), []
    for i, pair in enumerate(zip(strength["from"], strength["to"], strict=True)):
        key = frozenset(pair)
        if key not in seen:
            seen.add(key)
            keep.append(i)
    return strength["strength"].to_numpy(dtype=float)[keep]


def strength_threshold(strength: pd.DataFrame) -> float:
    r"""The significance threshold of arc strengths of Scutari and Nagarajan (2013).

    Let :math:`\hat F` be the empirical distribution function of the strengths
    of all pairs of nodes. A network whose every arc is either always or never
    found has strengths 0 and 1 only; its distribution function is
    :math:`\tilde F_t(x) = t` on :math:`[0, 1)` for the fraction :math:`t` of
    absent arcs. The estimated fraction is the closest such step function in
    :math:`L_1`,

    .. math::

        \hat t = \arg\min_{t \in [0, 1]} \int_0^1 |\hat F(x) - t|\, dx,

    and the threshold is the :math:`\hat t` quantile of the strengths,
    :math:`\hat F^{-1}(\hat t) = \min\{x : \hat F(x) \ge \hat t\}`: arcs
    stronger than it are significant. Because :math:`\hat F` is a step function,
    the integral is :math:`\sum_k \ell_k |F_k - t|` over the intervals between
    consecutive distinct strengths (lengths :math:`\ell_k`, values :math:`F_k`),
    and :math:`\hat t` is its weighted median, found exactly; where the minimum is
    attained on a whole interval, its midpoint is taken (the minimizer bnlearn's
    ``inclusion.threshold`` finds numerically).

    Parameters
    ----------
    strength : pandas.DataFrame or array_like
        The result of :func:`bootstrap_strength` or :func:`custom_strength` (each
        pair counted once), or the strengths themselves, in ``[0, 1]``.

    Returns
    -------
    float
        0 when there are no strengths.

    Examples
    --------
    >>> from pgmpy_nml.study import strength_threshold
    >>> strength_threshold([0.0, 0.0, 0.0, 0.1, 0.9, 1.0])
    0.1
    """
    values = _pair_strengths(strength)
    if values.size == 0:
        return 0.0
    if np.any(~np.isfinite(values)) or values.min() < 0 or values.max() > 1:
        raise ValueError("Strengths must be numbers in [0, 1].")
    knots = np.unique(values)
    n = values.size
    # intervals [a_k, a_{k+1}) of [0, 1] on which F is constant, and its value there
    left = np.unique(np.concatenate([[0.0], knots[knots < 1.0]]))
    right = np.append(left[1:], 1.0)
    lengths = right - left
    heights = np.searchsorted(np.sort(values), left, side="right") / n
    t_hat = _weighted_median_midpoint(heights, lengths)
    # the t-quantile, type 1: the smallest strength x with F(x) >= t
    sorted_values = np.sort(values)
    position = max(math.ceil(t_hat * n - 1e-12), 1)
    return float(sorted_values[min(position, n) - 1])


def _weighted_median_midpoint(values, weights) -> float:
    """Midpoint of the minimizers of ``sum_k weights_k |values_k - t|`` over t."""
    keep = weights > 0
    values, weights = values[keep], weights[keep]
    order = np.argsort(values, kind="stable")
    values, weights = values[order], weights[order]
    total = weights.sum()
    below = np.cumsum(weights)  # weight at or below values[k]
    # the objective's slope just right of values[k] is below[k] - (total - below[k])
    slope = 2 * below - total
    tol = 1e-12 * total
    k = int(np.argmax(slope >= -tol))
    if abs(slope[k]) <= tol and k + 1 < len(values):
        return 0.5 * (values[k] + values[k + 1])  # flat between two values: midpoint
    return float(values[k])


def averaged_network(
    strength: pd.DataFrame, *, threshold: float | None = None, return_type: str = "dag"
) -> LearnedGraph:
    """The averaged network: the arcs whose strength exceeds the threshold.

    A pair of nodes is kept if its strength is above ``threshold`` (or equals 1),
    in the direction whose ``direction`` is above one half; a pair whose two
    directions are equally supported is undirected (``return_type="pdag"``) or
    oriented so as to avoid cycles (``"dag"``). Arcs are added from the strongest
    down, and an arc that would close a directed cycle with stronger ones is
    left out, as in bnlearn's ``averaged.network``.

    Parameters
    ----------
    strength : pandas.DataFrame
        From :func:`bootstrap_strength` or :func:`custom_strength`.
    threshold : float, optional
        In ``[0, 1]``; default: ``strength.attrs["threshold"]``, the threshold of
        :func:`strength_threshold`.
    return_type : {"dag", "pdag"}, default "dag"

    Returns
    -------
    pgmpy.base.DAG or pgmpy.base.PDAG
        With every node of ``strength.attrs["nodes"]``; ``graph["threshold"]`` holds
        the threshold used.

    Examples
    --------
    >>> from pgmpy.base import DAG
    >>> from pgmpy_nml.study import averaged_network, custom_strength
    >>> nets = [DAG([("A", "B"), ("B", "C")]), DAG([("A", "B")]), DAG([("A", "B"), ("C", "B")])]
    >>> s = custom_strength(nets, ["A", "B", "C"])
    >>> sorted(averaged_network(s, threshold=0.5).edges())
    [('A', 'B'), ('B', 'C')]
    """
    from pgmpy.base import DAG, PDAG

    if return_type not in ("dag", "pdag"):
        raise ValueError(f"return_type must be 'dag' or 'pdag', got {return_type!r}.")
    if threshold is None:
        threshold = strength.attrs.get("threshold")
        if threshold is None:
            threshold = strength_threshold(strength)
    threshold = as_real(
        threshold, "threshold", low=0.0, high=1.0, hint=" A strength is a fraction of networks."
    )
    nodes = strength.attrs.get("nodes") or list(dict.fromkeys([*strength["from"], *strength["to"]]))
    has_direction = "direction" in strength.columns
    rank = {v: i for i, v in enumerate(nodes)}
    chosen = {}
    for row in strength.itertuples(index=False):
        u, v, s = row[0], row[1], float(row.strength)
        if not (s > threshold or s >= 1.0):
            continue
        d = float(row.direction) if has_direction else 0.5
        key = frozenset((u, v))
        if d > 0.5:
            chosen[key] = (s, d, (u, v), False)
        elif d == 0.5 and key not in chosen:
            pair = (u, v) if rank[u] < rank[v] else (v, u)
            chosen[key] = (s, d, pair, True)
    ordered = sorted(
        chosen.values(),
        key=lambda item: (-item[0], -item[1], rank[item[2][0]], rank[item[2][1]]),
    )
    import networkx as nx

    graph = nx.DiGraph()
    graph.add_nodes_from(nodes)
    directed, undirected = [], []
    for _, _, (u, v), tie in ordered:
        if tie and return_type == "pdag":
            undirected.append((u, v))
            continue
        for a, b in ((u, v), (v, u)) if tie else ((u, v),):
            if not nx.has_path(graph, b, a):
                graph.add_edge(a, b)
                directed.append((a, b))
                break
    if return_type == "pdag":
        result = PDAG(directed_ebunch=directed, undirected_ebunch=undirected)
    else:
        result = DAG(directed)
    result.add_nodes_from(nodes)
    result.graph["threshold"] = threshold
    return result


def bootstrap_strength(
    data: pd.DataFrame,
    *,
    method: SearchLike | LearningProcedure = "auto",
    scoring_method: ScoringMethod | None = None,
    n_bootstrap: int = 200,
    sample_size: int | float | None = None,
    replace: bool = True,
    cpdag: bool | str = "auto",
    score_params: Mapping[str, Any] | None = None,
    max_parents: int | None = None,
    state_names: StateNames | None = None,
    missing: str = "error",
    n_jobs: int | None = None,
    random_state: RandomState = None,
    return_networks: bool = False,
    show_progress: bool = False,
) -> pd.DataFrame | tuple[pd.DataFrame, list[LearnedGraph]]:
    r"""Bootstrap arc strengths and directions of a learning procedure (bnlearn's boot.strength).

    Resample ``sample_size`` rows with replacement ``n_bootstrap`` times, learn a
    network from each with the same search and score, and summarize the networks
    with :func:`custom_strength`. The resamples are drawn up front,
    ``np.random.default_rng(random_state).integers(0, n, size=(n_bootstrap,
    sample_size))`` (row ``b`` is resample ``b``), so results do not depend on
    ``n_jobs``. Every resample is scored with the states of the whole data, so a
    resample that misses a rare state keeps its arity.

    A resample drawn with replacement repeats about a third of its rows. Scores
    that charge per *observed* parent configuration (fNML, and BDeu or BD with a
    small prior) can fit repeated rows with large parent sets, so their bootstrap
    strengths overstate such arcs; qNML, whose penalty counts every possible
    configuration, is much less affected. ``replace=False`` draws subsamples without
    replacement instead (``sample_size`` rows, by default half the data, from
    ``rng.permutation(n)[:sample_size]`` per resample): the m-out-of-n bootstrap,
    with no repeated rows.

    The networks are learned in parallel with joblib: ``n_jobs`` processes, or any
    backend set with ``joblib.parallel_config`` (``"dask"`` with a
    ``dask.distributed`` client spreads them over a cluster). With joblib's process
    backends the first resample is learned here and timed, and the others go to the
    workers (about 3 s each to start) only if they would take over 10 s here.

    A Dask DataFrame is counted where it lives (each partition's distinct rows
    and their counts, merged on the driver) and resampled as counts: resample
    ``b`` gives the distinct rows the counts
    ``rng.multinomial(sample_size, counts / n)`` (with ``replace=False``,
    ``rng.multivariate_hypergeometric(counts, sample_size)``), which is exactly
    the distribution of the rows' counts in a resample of rows, at a cost that
    grows with the distinct rows rather than with ``sample_size``. The random
    stream differs from the row-level draw, so the same ``random_state`` gives
    other resamples than for the same data as a pandas DataFrame (the same in
    distribution). The search must be this package's (by name, ``ExactSearch`` or
    ``LocalSearch``) with a score of this package given by name.

    Parameters
    ----------
    data : pandas.DataFrame or dask.dataframe.DataFrame
        Complete discrete data.
    method : str, search object or LearningProcedure, default "auto"
        A method name (``"auto"``, ``"dp"``, ``"astar"``, ``"solver"``: the exact
        search; ``"hill"``, ``"tabu"``: the local search), a search object or a
        procedure.
        See :class:`~pgmpy_nml.study.LearningProcedure`; any search with
        ``fit(data)`` and ``causal_graph_`` (pgmpy's ``HillClimbSearch`` and ``GES``,
        this package's searches) is rebuilt for every resample.
    scoring_method : str or score object, optional
        Default ``"fnml"`` for a method given by name; a score object is rebuilt on
        every resample.
    n_bootstrap : int, default 200
        :math:`B`, the number of resamples.
    sample_size : int, optional
        Rows per resample; default the number of rows of ``data`` (half of them
        with ``replace=False``).
    replace : bool, default True
        Resample with replacement (the bootstrap) or subsample without it.
    cpdag : bool or "auto", default "auto"
        Count each learned network's equivalence class instead of the DAG. "auto":
        for score-equivalent scores (:func:`~pgmpy_nml.study.is_score_equivalent`:
        qNML, BDeu, BIC, ...), where directions within a class are only the search's
        tie-breaking; not for fNML, BD, K2, ... whose values tell directions apart.
        With required or forbidden edges, pass False: a class may hold DAGs that
        break them.
    score_params : dict, optional
        Parameters of a score given by name.
    max_parents : int, optional
        Parent limit of a search given by name (``2.0`` is taken as 2, ``2.5`` refused).
    state_names : dict, optional
        Declared states (default: the states of ``data``).
    missing : {"error", "drop", "available", "em"}, default "error"
        Missing values: refused; incomplete rows dropped once, before resampling
        (with a warning that says how many); kept for a score that handles them
        (``"pnal"``), or for structural EM (``"em"``, :class:`~pgmpy_nml.StructuralEM`).
    n_jobs : int, optional
        joblib workers (None: one unless set by ``parallel_config``; see above).
    random_state : int or numpy Generator, optional
    return_networks : bool, default False
        Also return the learned networks.
    show_progress : bool, default False
        Report the finished resamples on stderr: a progress bar on a terminal,
        otherwise a line every 10 seconds (and at the start and the end).

    Returns
    -------
    strength : pandas.DataFrame
        As :func:`custom_strength`: ``from``, ``to``, ``strength``, ``direction`` for
        every ordered pair; ``attrs`` holds ``threshold`` (:func:`strength_threshold`),
        ``nodes``, ``n_networks``, ``sample_size`` and ``cpdag``.
    networks : list of pgmpy DAG or PDAG
        The learned structures (PDAGs from a search that returns them), only with
        ``return_networks=True``.

    Examples
    --------
    >>> from pgmpy_nml.datasets import sample_network
    >>> from pgmpy_nml.study import averaged_network, bootstrap_strength
    >>> true_model, data = sample_network("cancer", 1000, random_state=0)
    >>> s = bootstrap_strength(data, scoring_method="fnml", n_bootstrap=10, random_state=1)
    >>> list(s.columns), len(s)
    (['from', 'to', 'strength', 'direction'], 20)
    >>> s.set_index(["from", "to"]).loc[("Cancer", "Xray")].tolist()  # strength, direction
    [1.0, 1.0]
    >>> ("Cancer", "Xray") in averaged_network(s).edges()
    True
    """
    from joblib import delayed

    from .._data import encode_data
    from .._progress import Progress
    from ._counted_resample import check_counted, counted_resample, learn_counted
    from ._procedure import apply_missing_policy, as_procedure, boundary_missing, score_of
    from ._workers import run_tasks
    from .scoring import is_score_equivalent

    replace = as_bool(replace, "replace")
    return_networks = as_bool(return_networks, "return_networks")
    show_progress = as_bool(show_progress, "show_progress")
    counted = is_dask_frame(data)
    if counted:
        encoded = encode_frame(data, state_names, missing=boundary_missing(missing))
        n = encoded.n_samples
    else:
        data = apply_missing_policy(data, missing)
        encoded = encode_data(data, state_names, missing=boundary_missing(missing))
        n = len(data)
    n_bootstrap = as_integer(n_bootstrap, "n_bootstrap", 1)
    if sample_size is None:
        m = n if replace else max(n // 2, 1)
    else:
        m = as_integer(sample_size, "sample_size", 1)
    if not replace and m > n:
        raise ValueError(f"A subsample without replacement has at most {n} rows, not {m}.")
    procedure = as_procedure(method, scoring_method, score_params)
    settings: dict[str, Any] = {
        "parameter_estimator": None,
        "missing": missing if missing in ("available", "em") else "error",
    }
    if procedure.state_names is None:
        settings["state_names"] = encoded.state_names
    if max_parents is not None:
        settings["max_parents"] = max_parents
    procedure.set_params(**settings)
    if cpdag == "auto":
        cpdag = bool(is_score_equivalent(_score_label(score_of(procedure))))
    elif not isinstance(cpdag, bool):
        raise ValueError(f"cpdag must be True, False or 'auto', got {cpdag!r}.")
    rng = np.random.default_rng(random_state)
    if counted:
        check_counted(procedure)
        resamples = [counted_resample(encoded, m, replace, rng) for _ in range(n_bootstrap)]
        jobs = (delayed(learn_counted)(procedure, r) for r in resamples)
    else:
        if replace:
            rows = rng.integers(0, n, size=(n_bootstrap, m))
        else:
            rows = np.array([rng.permutation(n)[:m] for _ in range(n_bootstrap)])
        jobs = (delayed(_learn_structure)(procedure, data.iloc[r]) for r in rows)
    kind = "resamples" if replace else "subsamples"
    with Progress(n_bootstrap, "bootstrap", kind, show=show_progress) as progress:
        networks = run_tasks(jobs, n_bootstrap, n_jobs, progress)
    frame = custom_strength(networks, list(encoded.variables), cpdag=cpdag)
    frame.attrs.update({"sample_size": m, "replace": bool(replace), "cpdag": cpdag})
    return (frame, networks) if return_networks else frame


def _score_label(method):
    return method if method is not None else "unknown"


def _learn_structure(procedure, data):
    with inner_fits():
        return procedure.fresh().fit(data.reset_index(drop=True)).causal_graph_


def _draw_arcs(ax, layout_graph, pos, avg, reference, pair_strength) -> None:
    """The arcs of ``avg`` (width and label by strength; red if not in ``reference``) and,
    dotted, the arcs of ``reference`` that ``avg`` misses."""
    import networkx as nx

    true_pairs = set()
    if reference is not None:
        true_pairs = {frozenset(e) for e in reference.edges()}
        missed = [
            (u, v)
            for u, v in reference.edges()
            if frozenset((u, v)) not in {frozenset(e) for e in avg.edges()}
        ]
        nx.draw_networkx_edges(
            layout_graph,
            pos,
            edgelist=missed,
            ax=ax,
            style="dotted",
            edge_color="0.6",
            arrows=True,
            arrowstyle="-|>",
            node_size=900,
        )
    for u, v in avg.edges():
        s = pair_strength.get(frozenset((u, v)), 0.0)
        color = "#1f4e99" if (reference is None or frozenset((u, v)) in true_pairs) else "#c0392b"
        nx.draw_networkx_edges(
            layout_graph,
            pos,
            edgelist=[(u, v)],
            ax=ax,
            width=0.5 + 5.5 * s,
            alpha=0.35 + 0.65 * s,
            edge_color=color,
            arrows=True,
            arrowstyle="-|>",
            arrowsize=12 + 8 * s,
            node_size=900,
        )
        x = 0.5 * (pos[u][0] + pos[v][0])
        y = 0.5 * (pos[u][1] + pos[v][1])
        ax.text(
            x,
            y,
            f"{s:.2f}",
            fontsize=8,
            ha="center",
            va="center",
            color=color,
            bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.8},
        )


def plot_strength(
    strength: pd.DataFrame,
    reference: Graph | None = None,
    *,
    threshold: float | None = None,
    ax: Axes | None = None,
    pos: Mapping[Hashable, tuple[float, float]] | None = None,
    path: str | os.PathLike | None = None,
    title: str | None = None,
) -> Axes:
    """Draw the averaged network with arc widths by strength (bnlearn's ``strength.plot``).

    Every pair stronger than ``threshold`` is drawn, with width and opacity growing
    with its strength and its direction from :func:`averaged_network`. With a
    ``reference`` network (e.g. the true one), arcs of the reference are drawn in
    dark blue, the others in red, and reference arcs below the threshold as grey
    dotted lines.

    Parameters
    ----------
    strength : pandas.DataFrame
        From :func:`bootstrap_strength` or :func:`custom_strength`.
    reference : pgmpy DAG or networkx DiGraph, optional
    threshold : float, optional
        Default: the strength's threshold (:func:`strength_threshold`).
    ax : matplotlib Axes, optional
    pos : dict, optional
        Node positions; default a layout of the reference (or of the averaged network).
    path : str or path, optional
        Save the figure there (PNG by the suffix).
    title : str, optional

    Returns
    -------
    matplotlib Axes

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from pgmpy.base import DAG
    >>> from pgmpy_nml.study import custom_strength, plot_strength
    >>> nets = [DAG([("A", "B"), ("B", "C")]), DAG([("A", "B")]), DAG([("B", "A"), ("A", "C")])]
    >>> s = custom_strength(nets, ["A", "B", "C"])
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder) / "strength.png"
    ...     ax = plot_strength(s, reference=DAG([("A", "B"), ("B", "C")]), path=path)
    ...     path.stat().st_size > 1000
    True
    """
    import matplotlib

    if ax is None and path is not None:
        matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt
    import networkx as nx

    if threshold is None:
        threshold = strength.attrs.get("threshold", strength_threshold(strength))
    avg = averaged_network(strength, threshold=threshold, return_type="dag")
    nodes = strength.attrs.get("nodes") or list(avg.nodes())
    pair_strength = {
        frozenset((u, v)): float(s)
        for u, v, s in zip(strength["from"], strength["to"], strength["strength"], strict=True)
    }
    if ax is None:
        fig, ax = plt.subplots(figsize=(7, 6))
    else:
        fig = ax.figure.figure  # the root figure: a subfigure has no savefig
    layout_graph = nx.DiGraph()
    layout_graph.add_nodes_from(nodes)
    layout_graph.add_edges_from((reference if reference is not None else avg).edges())
    if pos is None:
        pos = nx.kamada_kawai_layout(layout_graph.to_undirected()) if len(nodes) > 1 else None
        if pos is None:
            pos = {v: (0.0, 0.0) for v in nodes}
    _draw_arcs(ax, layout_graph, pos, avg, reference, pair_strength)
    nx.draw_networkx_nodes(
        layout_graph, pos, ax=ax, node_size=900, node_color="#f3f3f3", edgecolors="0.3"
    )
    nx.draw_networkx_labels(layout_graph, pos, ax=ax, font_size=9)
    n_networks = strength.attrs.get("n_networks")
    label = title or (
        f"averaged network: strength > {threshold:.2f}"
        + (f" over {n_networks} networks" if n_networks else "")
    )
    ax.set_title(label, fontsize=10)
    ax.set_axis_off()
    if path is not None:
        fig.savefig(path, dpi=120, bbox_inches="tight")
    return ax


for _f in (bootstrap_strength, strength_threshold, averaged_network, custom_strength):
    if _f.__doc__ is not None:  # None under python -OO
        _f.__doc__ += _REFERENCES
del _f
