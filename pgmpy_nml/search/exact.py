"""Globally optimal Bayesian network structures by dynamic programming over subsets."""

from __future__ import annotations

import os
import time
import warnings

import numpy as np
from pgmpy.base import DAG
from pgmpy.models import DiscreteBayesianNetwork

from ..scores import FNML, QNML, BDConstant, MaxBDeu, MinBDeu
from ..scores._base import DiscreteScore
from . import _kernels
from ._plans import plan_for

__all__ = ["ExactSearch", "ExactSearchMemoryError", "find_structure", "learn_exact"]

#: The exact search keeps n * 2**(n-1) local scores: beyond this it is hopeless.
MAX_VARIABLES = 31


class ExactSearchMemoryError(MemoryError):
    """The run would need more memory than allowed; nothing was allocated."""


def _score_factories():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=FutureWarning, module=r"pgmpy(\.|$)")
        from pgmpy.structure_score import AIC, BIC, K2, BDeu, LogLikelihood
    return {
        "fnml": FNML,
        "qnml": QNML,
        "bd": lambda d: BDConstant(d, alpha=0.5),
        "bdj": lambda d: BDConstant(d, alpha=0.5),
        "min-bdeu": MinBDeu,
        "max-bdeu": MaxBDeu,
        "bdeu": lambda d: BDeu(d, equivalent_sample_size=1.0),
        "k2": K2,
        "bic": BIC,
        "bic-d": BIC,
        "aic": AIC,
        "aic-d": AIC,
        "ll": LogLikelihood,
        "ll-d": LogLikelihood,
    }


def _available_memory() -> int:
    """Bytes of memory available now (MemAvailable on Linux), or the physical total."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def _gb(n_bytes: float) -> str:
    return f"{n_bytes / 2**30:.1f} GB" if n_bytes >= 2**28 else f"{n_bytes / 2**20:.0f} MB"


def memory_estimate(n_vars: int, n_stats: int, n_samples: int, n_threads: int) -> dict:
    """Peak bytes of each part of an exact search on ``n_vars`` variables."""
    subsets = 2**n_vars
    parent_sets = 2 ** max(n_vars - 1, 0)
    return {
        "subset statistics": subsets * (n_stats + 1) * 8,
        "local scores and best parent sets": n_vars * parent_sets * (8 + 4),
        "best sinks": subsets * 9,
        "working arrays": parent_sets * (2 * n_stats * 8 + 3 * 8 + 2)
        + n_threads * n_vars * n_samples * 8 * 2,
    }


class ExactSearch:
    r"""Globally optimal DAG for a decomposable score, by dynamic programming over subsets.

    The algorithm of Silander and Myllymäki [1]_: (1) local scores of every
    variable for every candidate parent set, (2) the best parent set of every
    variable within every candidate set, (3) the best sink of every variable
    subset, (4) the optimal order and the network. Its cost is
    :math:`O(n^2 2^n)` time and :math:`O(n 2^n)` memory, independent of the
    score: up to about 25-30 variables.

    For this package's FNML, QNML and BDConstant scores and pgmpy's BDeu, K2,
    BIC, AIC and LogLikelihood (both the ``pgmpy.structure_score`` and the legacy
    ``pgmpy.estimators`` classes), each variable subset is counted once, in
    compiled code on all cores, and the local scores follow from per-subset
    statistics (e.g. ``fNML(v | P) = H(P + v) - H(P) - sum_j log C(r_v, N_j)``).
    Any other decomposable score (Min-BDeu, Max-BDeu, your own) is evaluated
    family by family through its ``local_score`` with joblib, whose Dask or
    Ray backends (``joblib.parallel_config``) can spread it over a cluster.

    Parameters
    ----------
    scoring_method : str or score object, default "fnml"
        A score instance built on the data to learn from (its data and state
        names are used), or one of ``"fnml"``, ``"qnml"``, ``"bd"`` (BD with
        alpha 1/2), ``"min-bdeu"``, ``"max-bdeu"``, ``"bdeu"`` (pgmpy's, ESS 1),
        ``"k2"``, ``"bic"``, ``"aic"``, ``"ll"``.
    max_parents : int, optional
        Largest parent set considered (no limit by default). Limits the counting
        work; the memory of the search itself does not shrink.
    expert_knowledge : pgmpy.causal_discovery.ExpertKnowledge, optional
        Required edges, forbidden edges, a search space (white list of edges)
        and temporal tiers (no edge from a later tier to an earlier one).
    parameter_estimator : pgmpy DiscreteParameterEstimator, optional
        If given (e.g. :class:`~pgmpy_nml.FSNMLEstimator`), the learned
        structure is fitted and returned in ``model_``.
    max_memory : int or float, optional
        Bytes the run may use; by default 90% of the memory available when
        ``fit`` starts. A run that needs more is refused before allocating.
    n_jobs : int, optional
        Threads for the compiled phases (default: all cores) and workers for the
        generic path (default: 1).
    show_progress : bool, default True
        Progress bars for the long phases.

    Attributes
    ----------
    dag_ : pgmpy.base.DAG
        The optimal structure, with every variable as a node.
    score_ : float
        Its score (the sum of its local scores).
    model_ : pgmpy.models.DiscreteBayesianNetwork
        The fitted network, when ``parameter_estimator`` was given.
    timings_ : dict
        Seconds spent in each phase.
    memory_estimate_ : int
        Bytes the run was estimated to need.

    Notes
    -----
    Ties are broken deterministically: among equally good parent sets within a
    candidate set the one with fewer parents wins (then the first met in
    subset order), and among equally good sinks the variable that comes first
    in the search's internal order (decreasing empirical entropy for the fast
    path, which makes counting cheaper; the data's column order otherwise, and
    among equal entropies). The same data and settings always give the same DAG.

    Examples
    --------
    >>> from pgmpy_nml import ExactSearch, FSNMLEstimator
    >>> from pgmpy_nml.datasets import sample_network
    >>> true_model, data = sample_network("earthquake", 5000, seed=0)
    >>> search = ExactSearch("fnml", parameter_estimator=FSNMLEstimator(), show_progress=False)
    >>> search = search.fit(data)
    >>> sorted(search.dag_.edges()) == sorted(true_model.edges())
    True
    >>> search.model_.check_model()
    True

    References
    ----------
    .. [1] T. Silander, P. Myllymäki. "A simple approach for finding the globally
       optimal Bayesian network structure". UAI 2006.
    """

    def __init__(
        self,
        scoring_method="fnml",
        max_parents=None,
        expert_knowledge=None,
        parameter_estimator=None,
        max_memory=None,
        n_jobs=None,
        show_progress=True,
    ):
        self.scoring_method = scoring_method
        self.max_parents = max_parents
        self.expert_knowledge = expert_knowledge
        self.parameter_estimator = parameter_estimator
        self.max_memory = max_memory
        self.n_jobs = n_jobs
        self.show_progress = show_progress

    # -- input checks ---------------------------------------------------------------
    def _score(self, data):
        method = self.scoring_method
        if isinstance(method, str):
            factories = _score_factories()
            key = method.lower()
            if key not in factories:
                raise ValueError(
                    f"Unknown scoring_method {method!r}; use a score object or one of "
                    f"{sorted(factories)}."
                )
            return factories[key](data)
        if not hasattr(method, "local_score"):
            raise TypeError(
                f"scoring_method must be a score name or a score object with local_score(), "
                f"got {type(method).__name__}."
            )
        variables = list(getattr(method, "variables", []))
        if data is not None and variables and set(variables) != set(data.columns):
            raise ValueError(
                f"The score was built on columns {variables!r}, but fit() got "
                f"{list(data.columns)!r}: build the score on the same data."
            )
        return method

    def _max_parents(self, n_vars):
        k = self.max_parents
        if k is None:
            return n_vars - 1
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 0:
            raise ValueError(f"max_parents must be a non-negative integer or None, got {k!r}.")
        return min(int(k), n_vars - 1)

    def _constraints(self, variables):
        """Per variable: masks of forbidden and of required parents."""
        n = len(variables)
        index = {v: i for i, v in enumerate(variables)}
        forbidden = np.zeros(n, dtype=np.int64)
        required = np.zeros(n, dtype=np.int64)
        ek = self.expert_knowledge
        if ek is None:
            return forbidden, required

        def position(u, what):
            if u not in index:
                raise ValueError(f"{what} names {u!r}, which is not a variable of the data.")
            return index[u]

        for u, v in getattr(ek, "forbidden_edges", ()):
            forbidden[position(v, "A forbidden edge")] |= 1 << position(u, "A forbidden edge")
        for u, v in getattr(ek, "required_edges", ()):
            required[position(v, "A required edge")] |= 1 << position(u, "A required edge")
        space = getattr(ek, "search_space", None)
        if space:
            allowed = np.zeros(n, dtype=np.int64)
            for u, v in space:
                allowed[position(v, "The search space")] |= 1 << position(u, "The search space")
            forbidden |= ~allowed & ((1 << n) - 1)
        tiers = getattr(ek, "temporal_ordering", {}) or {}
        for u, tu in tiers.items():
            for v, tv in tiers.items():
                if tu > tv:
                    forbidden[position(v, "The temporal order")] |= 1 << position(
                        u, "The temporal order"
                    )
        clash = required & forbidden
        if clash.any():
            v = int(np.flatnonzero(clash)[0])
            u = int(clash[v]).bit_length() - 1
            raise ValueError(
                f"The edge {variables[u]!r} -> {variables[v]!r} is both required and forbidden "
                "(by the forbidden edges, the search space or the temporal order)."
            )
        return forbidden, required

    # -- the phases -----------------------------------------------------------------
    def _progress(self, total, desc):
        from tqdm.auto import tqdm

        return tqdm(total=total, desc=desc, disable=not self.show_progress, leave=False)

    def _threads(self):
        if self.n_jobs is None or self.n_jobs < 0:
            return os.cpu_count() or 1
        return max(1, int(self.n_jobs))

    def _local_scores_fast(self, plan, k, n_threads, timings):
        enc = plan.encoded
        n_vars = enc.n_variables
        start = time.perf_counter()
        roots = len(_kernels.subset_roots(n_vars, k + 1))
        with self._progress(roots, "counting subsets") as bar:
            stats = _kernels.subset_statistics(
                enc.codes, enc.arities, plan.tables, plan.bdeu_ess, k + 1, n_threads, bar.update
            )
        timings["subset statistics"] = time.perf_counter() - start
        start = time.perf_counter()
        q = np.ones(1)
        for r in enc.arities:
            q = np.concatenate([q, q * float(r)])
        ls = np.empty((n_vars, 2 ** (n_vars - 1)))
        with self._progress(n_vars, "local scores") as bar:
            for v in range(n_vars):

                def split(x, v=v):
                    # subsets as (high bits, bit v, low bits): bit v set = family
                    blocks = x.reshape(-1, 2, 1 << v)
                    return blocks[:, 1, :], blocks[:, 0, :]

                ls[v] = plan.local(v, stats, q, split).reshape(-1)
                bar.update(1)
        timings["local scores"] = time.perf_counter() - start
        return ls

    def _local_scores_generic(self, score, variables, k, timings):
        from joblib import Parallel, delayed

        n_vars = len(variables)
        start = time.perf_counter()
        sizes = _popcounts(n_vars - 1)
        if isinstance(score, DiscreteScore):
            encoded = score._encoded
            order = [encoded.index[v] for v in variables]

            def family_score(v, parents):
                return score._score_family(order[v], tuple(sorted(order[p] for p in parents)))
        else:

            def family_score(v, parents):
                return score.local_score(variables[v], tuple(variables[p] for p in parents))

        def row(v):
            out = np.full(2 ** (n_vars - 1), -np.inf)
            others = [u for u in range(n_vars) if u != v]
            for c in np.flatnonzero(sizes <= k):
                parents = [others[b] for b in range(n_vars - 1) if (c >> b) & 1]
                out[c] = family_score(v, parents)
            return out

        n_jobs = 1 if self.n_jobs is None else self.n_jobs
        with self._progress(n_vars, "local scores (generic)") as bar:
            rows = []
            for r in Parallel(n_jobs=n_jobs, prefer="threads", return_as="generator")(
                delayed(row)(v) for v in range(n_vars)
            ):
                rows.append(r)
                bar.update(1)
        timings["local scores"] = time.perf_counter() - start
        return np.array(rows)

    def fit(self, data=None):
        """Learn the optimal structure.

        Parameters
        ----------
        data : pandas.DataFrame, optional
            The data to learn from. May be omitted when ``scoring_method`` is a
            score object (its data are used).

        Returns
        -------
        self
        """
        for attr in ("dag_", "score_", "model_", "timings_", "memory_estimate_"):
            self.__dict__.pop(attr, None)
        if data is None and isinstance(self.scoring_method, str):
            raise ValueError("fit() needs data when scoring_method is a score name.")
        score = self._score(data)
        plan = plan_for(score)
        if plan is not None:
            plan = plan.reordered()
        variables = list(plan.encoded.variables) if plan else list(score.variables)
        n_vars = len(variables)
        if n_vars > MAX_VARIABLES:
            raise ValueError(
                f"ExactSearch handles at most {MAX_VARIABLES} variables (it keeps "
                f"n * 2**(n-1) local scores); the data has {n_vars}. Use hill climbing, "
                "or learn a subset of the variables."
            )
        k = self._max_parents(n_vars)
        forbidden, required = self._constraints(variables)
        n_threads = self._threads()
        n_samples = plan.encoded.n_samples if plan else len(score.data)
        parts = memory_estimate(n_vars, plan.n_stats if plan else 0, n_samples, n_threads)
        need = sum(parts.values())
        limit = self.max_memory if self.max_memory is not None else 0.9 * _available_memory()
        if need > limit:
            detail = ", ".join(f"{name} {_gb(b)}" for name, b in parts.items())
            fewer = sum(
                memory_estimate(n_vars - 1, plan.n_stats if plan else 0, n_samples, 1).values()
            )
            raise ExactSearchMemoryError(
                f"ExactSearch on {n_vars} variables needs about {_gb(need)} ({detail}), more "
                f"than the limit of {_gb(limit)} (max_memory; by default 90% of the memory "
                f"available now). Each variable fewer halves the need ({n_vars - 1} variables: "
                f"about {_gb(fewer)}); raise max_memory only if that much will be free."
            )
        timings = {}
        try:
            if plan is not None:
                ls = self._local_scores_fast(plan, k, n_threads, timings)
            else:
                ls = self._local_scores_generic(score, variables, k, timings)
            start = time.perf_counter()
            _apply_constraints(ls, k, forbidden, required)
            best = np.empty(ls.shape, dtype=np.int32)
            with self._progress(n_vars, "best parent sets") as bar:
                for v0 in range(0, n_vars, n_threads):
                    best[v0 : v0 + n_threads] = _kernels.best_parent_sets_all(
                        ls[v0 : v0 + n_threads]
                    )
                    bar.update(min(n_threads, n_vars - v0))
            timings["best parent sets"] = time.perf_counter() - start
            start = time.perf_counter()
            network_score, sink = _kernels.best_sinks(ls)
            timings["best sinks"] = time.perf_counter() - start
        except KeyboardInterrupt:
            raise KeyboardInterrupt("ExactSearch interrupted; nothing was fitted.") from None
        full = (1 << n_vars) - 1
        if not np.isfinite(network_score[full]):
            raise ValueError(
                "No DAG satisfies the constraints: the required edges form a cycle, or a "
                "variable needs more required parents than max_parents allows."
            )
        dag = DAG()
        dag.add_nodes_from(variables)
        w = full
        while w:
            s = int(sink[w])
            rest = w ^ (1 << s)
            c = (rest & ((1 << s) - 1)) | ((rest >> (s + 1)) << s)
            parents = int(best[s, c])
            for b in range(n_vars - 1):
                if (parents >> b) & 1:
                    dag.add_edge(variables[b if b < s else b + 1], variables[s])
            w = rest
        self.dag_ = dag
        self.score_ = float(network_score[full])
        self.timings_ = timings
        self.memory_estimate_ = int(need)
        if self.parameter_estimator is not None:
            model = DiscreteBayesianNetwork(dag.edges())
            model.add_nodes_from(dag.nodes())
            fit_data = data if data is not None else score.data
            self.model_ = model.fit(fit_data, estimator=self.parameter_estimator)
        return self


def _popcounts(bits):
    counts = np.zeros(1, dtype=np.int8)
    for _ in range(bits):
        counts = np.concatenate([counts, counts + 1])
    return counts


def _apply_constraints(ls, k, forbidden, required):
    """-inf for parent sets that break the parent limit or the expert knowledge."""
    n_vars = ls.shape[0]
    sizes = _popcounts(n_vars - 1)
    too_big = sizes > k
    for v in range(n_vars):
        row = ls[v]
        row[too_big] = -np.inf
        if forbidden[v] or required[v]:
            full = _kernels.expand_masks(n_vars, v)
            if forbidden[v]:
                row[(full & forbidden[v]) != 0] = -np.inf
            if required[v]:
                row[(full & required[v]) != required[v]] = -np.inf


def learn_exact(data, scoring_method="fnml", parameter_estimator=None, **options):
    """Learn the optimal network and fit its parameters in one call.

    Parameters
    ----------
    data : pandas.DataFrame
    scoring_method : str or score object, default "fnml"
    parameter_estimator : pgmpy DiscreteParameterEstimator, optional
        Default :class:`~pgmpy_nml.FSNMLEstimator`.
    **options
        Any other :class:`ExactSearch` setting (``max_parents``,
        ``expert_knowledge``, ``show_progress``, ...).

    Returns
    -------
    pgmpy.models.DiscreteBayesianNetwork
        Fitted, ready for pgmpy's inference and sampling.

    Examples
    --------
    >>> from pgmpy_nml import learn_exact
    >>> from pgmpy_nml.datasets import sample_network
    >>> _, data = sample_network("cancer", 2000, seed=1)
    >>> model = learn_exact(data, "qnml", show_progress=False)
    >>> type(model).__name__, model.check_model()
    ('DiscreteBayesianNetwork', True)
    """
    if parameter_estimator is None:
        from ..estimators import FSNMLEstimator

        parameter_estimator = FSNMLEstimator()
    search = ExactSearch(scoring_method, parameter_estimator=parameter_estimator, **options)
    return search.fit(data).model_


def find_structure(
    score,
    data,
    method="exact",
    max_parents=None,
    expert_knowledge=None,
    start_dag=None,
    show_progress=False,
):
    """The best DAG for ``score``: exact search, or pgmpy's hill climbing.

    The one place where the package's tools (command line, ESS, saturation)
    choose between the globally optimal :class:`ExactSearch` and pgmpy's
    ``HillClimbSearch`` (a local optimum, optionally started from ``start_dag``).

    Parameters
    ----------
    score : score object
        Built on ``data``.
    data : pandas.DataFrame
    method : {"exact", "hill"}
    max_parents : int, optional
    expert_knowledge : pgmpy ExpertKnowledge, optional
    start_dag : pgmpy DAG, optional
        Hill climbing only.
    show_progress : bool, default False

    Returns
    -------
    pgmpy.base.DAG

    Examples
    --------
    >>> from pgmpy_nml import QNML
    >>> from pgmpy_nml.datasets import sample_network
    >>> from pgmpy_nml.search import find_structure
    >>> _, data = sample_network("cancer", 1000, seed=0)
    >>> exact = find_structure(QNML(data), data, "exact")
    >>> hill = find_structure(QNML(data), data, "hill")
    >>> QNML(data).score(exact) >= QNML(data).score(hill) - 1e-9
    True
    """
    if method == "exact":
        search = ExactSearch(
            score,
            max_parents=max_parents,
            expert_knowledge=expert_knowledge,
            show_progress=show_progress,
        )
        return search.fit(data).dag_
    if method != "hill":
        raise ValueError(f"method must be 'exact' or 'hill', got {method!r}.")
    from pgmpy.causal_discovery import HillClimbSearch

    search = HillClimbSearch(
        scoring_method=score,
        start_dag=start_dag,
        max_indegree=max_parents,
        expert_knowledge=expert_knowledge,
        return_type="dag",
        show_progress=show_progress,
    )
    return search.fit(data).causal_graph_
