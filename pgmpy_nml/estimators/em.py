r"""Parameters by EM from data with missing cells anywhere: :class:`EMEstimator`.

pgmpy's ``DiscreteEM`` (``ExpectationMaximization``) is EM for *latent* variables: it
drops every row with a missing cell in an observed column. Here every row counts, its
missing cells summed out exactly (:mod:`._posterior`), and the M-step is the formula of
a complete-data estimator of this package or pgmpy (:class:`MStep`), so that on complete
data EM gives exactly that estimator's parameters.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
from pgmpy.factors.discrete import TabularCPD
from pgmpy.parameter_estimator.base import DiscreteParameterEstimator

from .._params import PARAMETER_ESTIMATOR, STATE_NAMES, Boolean, Integer, Real, validate_params
from .._progress import progress_bar
from ..numerics.snml import fsnml_parameters
from ._posterior import MissingPlan
from .fsnml import FSNMLEstimator, _model_data, check_cpd_cells

if TYPE_CHECKING:
    from collections.abc import Hashable, Sequence

    import pandas as pd
    from pgmpy.models import DiscreteBayesianNetwork

    from .._data import EncodedData
    from .._typing import ArrayLike

__all__ = [
    "EMEstimator",
    "EMResult",
    "MStep",
    "em_tables",
    "initial_tables",
    "network_cpds",
    "table_shapes",
]


class MStep:
    r"""A complete-data parameter estimator's formula, applied to (expected) counts.

    ========================================  ==========================================
    estimator                                 :math:`\theta_{ijk}` from counts :math:`N`
    ========================================  ==========================================
    :class:`~pgmpy_nml.FSNMLEstimator`        :math:`\propto e(N_{ijk})(N_{ijk}+1)`
                                              (fractional counts: the same formula)
    pgmpy's ``DiscreteMLE``                   :math:`N_{ijk} / N_{ij}` (uniform where
                                              :math:`N_{ij} = 0`)
    pgmpy's ``DiscreteBayesianEstimator``     :math:`(N_{ijk} + \alpha_{ijk}) /
    (``K2``, ``BDeu``, ``dirichlet``)         (N_{ij} + \alpha_{ij})`, its own
                                              pseudo-counts :math:`\alpha`
    ========================================  ==========================================

    Each is computed as the estimator computes it (pgmpy's normalization, this package's
    :func:`~pgmpy_nml.numerics.snml.fsnml_parameters`), and with the parents in the order
    the estimator gives its CPDs, so whole counts give its parameters exactly.
    """

    def __init__(self, estimator: Any = None) -> None:
        from pgmpy.parameter_estimator import DiscreteBayesianEstimator, DiscreteMLE

        if estimator is None:
            estimator = FSNMLEstimator()
        if isinstance(estimator, FSNMLEstimator):
            kind = "fsnml"
        elif isinstance(estimator, DiscreteBayesianEstimator):
            kind = "dirichlet"
        elif isinstance(estimator, DiscreteMLE):
            kind = "mle"
        else:
            raise TypeError(
                "The M-step takes FSNMLEstimator, pgmpy's DiscreteMLE or pgmpy's "
                f"DiscreteBayesianEstimator (K2, BDeu, dirichlet), got {type(estimator).__name__}."
            )
        self.estimator = estimator
        self.kind = kind

    def parent_order(self, parents) -> list:
        """The parents in the order of the estimator's CPDs."""
        if self.kind == "fsnml":
            return sorted(parents, key=str)
        try:
            return sorted(parents)
        except TypeError:
            return sorted(parents, key=str)

    def pseudo_counts(self, model, state_names, node) -> np.ndarray | None:
        """The Dirichlet pseudo-counts ``(r, q)`` of ``node`` (None for the others)."""
        if self.kind != "dirichlet":
            return None
        from pgmpy.parameter_estimator import DiscreteBayesianEstimator

        est = self.estimator
        pseudo, *_ = DiscreteBayesianEstimator._resolve_pseudo_counts(
            model=model,
            state_names=state_names,
            node=node,
            prior_type=est.prior_type,
            equivalent_sample_size=est.equivalent_sample_size,
            pseudo_counts=est.pseudo_counts,
        )
        return np.asarray(pseudo, dtype=float)

    def table(self, counts: np.ndarray, pseudo: np.ndarray | None = None) -> np.ndarray:
        """The table ``(r, q)`` from counts ``(r, q)`` (whole or expected)."""
        if self.kind == "fsnml":
            return np.ascontiguousarray(fsnml_parameters(counts.T, fractional=True).T)
        values = counts + pseudo if pseudo is not None else np.array(counts, dtype=float)
        values[:, (values == 0).all(axis=0)] = 1.0  # no data, no prior: uniform
        return values / values.sum(axis=0)  # pgmpy's TabularCPD.normalize

    @staticmethod
    def log_prior(table: np.ndarray, pseudo: np.ndarray | None) -> float:
        r""":math:`\sum \alpha_{ijk} \log \theta_{ijk}`: the log-density (up to a constant) of
        the Dirichlet(:math:`\alpha + 1`) prior whose mode the Dirichlet M-step is."""
        if pseudo is None:
            return 0.0
        used = pseudo > 0
        with np.errstate(divide="ignore"):
            return float(np.sum(pseudo[used] * np.log(table[used])))


@dataclass(frozen=True)
class EMResult:
    """What :func:`em_tables` found: the tables ``(r, q)``, their observed-data
    log-likelihood, the objective after each M-step (``history[0]``: the start), the
    number of M-steps and whether the objective settled within ``tol``."""

    tables: list
    log_likelihood: float
    history: np.ndarray
    n_iter: int
    converged: bool


def table_shapes(plan: MissingPlan) -> list[tuple[int, int]]:
    """``(r, q)`` of each variable's table in ``plan``."""
    return [
        (int(plan.arities[v]), size // int(plan.arities[v])) for v, size in enumerate(plan.sizes)
    ]


def initial_tables(plan: MissingPlan) -> list[np.ndarray]:
    """EM's start: the fsNML table of each family's complete rows (available-case counts;
    positive, deterministic)."""
    return [
        MStep().table(counts.reshape(shape))
        for counts, shape in zip(plan._observed_counts, table_shapes(plan), strict=True)
    ]


def em_tables(
    plan: MissingPlan,
    mstep: MStep,
    pseudo: Sequence[np.ndarray | None],
    *,
    init: Sequence[np.ndarray] | None = None,
    max_iter: int = 100,
    tol: float = 1e-6,
    show_progress: bool = False,
) -> EMResult:
    r"""EM over the plan's rows: E-step :math:`\bar N = E[N \mid D_{obs}, \theta]`, M-step
    ``mstep`` on :math:`\bar N`, until the objective (the observed-data log-likelihood,
    plus :meth:`MStep.log_prior` for a Dirichlet M-step) changes by at most ``tol`` per
    row, or after ``max_iter`` M-steps. ``init``: the starting tables (default: the
    fsNML tables of each family's complete rows, positive and deterministic)."""
    shapes = table_shapes(plan)
    tables = [np.asarray(t, dtype=float) for t in (init or initial_tables(plan))]

    def objective(log_likelihood):
        return log_likelihood + sum(
            mstep.log_prior(t, a) for t, a in zip(tables, pseudo, strict=True)
        )

    counts, log_likelihood = plan.expected_counts(tables)
    history = [objective(log_likelihood)]
    converged, n_iter = False, 0
    bar = progress_bar(show_progress, "EM", total=max_iter, unit=" iterations")
    with bar:
        while n_iter < max_iter:
            tables = [
                mstep.table(c.reshape(shape), a)
                for c, shape, a in zip(counts, shapes, pseudo, strict=True)
            ]
            counts, log_likelihood = plan.expected_counts(tables)
            history.append(objective(log_likelihood))
            n_iter += 1
            bar.update(1)
            bar.set_postfix_str(f"log-likelihood {log_likelihood:.6g}")
            if abs(history[-1] - history[-2]) <= tol * max(plan.n_rows, 1):
                converged = True
                break
    return EMResult(tables, log_likelihood, np.array(history), n_iter, converged)


def _shape(encoded: EncodedData, v, parents) -> tuple[int, int]:
    """``(r, q)``: the states of ``v`` and the configurations of ``parents``."""
    r = int(encoded.arities[encoded.index[v]])
    return r, math.prod(int(encoded.arities[encoded.index[p]]) for p in parents)


def network_cpds(
    variables: Sequence[Hashable],
    parents: Sequence[Sequence[Hashable]],
    tables: Sequence[np.ndarray],
    encoded: EncodedData,
) -> list[TabularCPD]:
    """The ``TabularCPD`` of each variable: table ``(r, q)``, its parents in that order."""
    cpds = []
    for v, ps, table in zip(variables, parents, tables, strict=True):
        ps = list(ps)
        cpds.append(
            TabularCPD(
                variable=v,
                variable_card=_shape(encoded, v, ps)[0],
                values=np.ascontiguousarray(table),
                evidence=ps or None,
                evidence_card=[int(encoded.arities[encoded.index[p]]) for p in ps] or None,
                state_names={u: list(encoded.state_names[u]) for u in [v, *ps]},
            )
        )
    return cpds


class EMEstimator(DiscreteParameterEstimator):
    r"""Parameters by EM from data with missing cells anywhere (valid when missing at random).

    Each iteration takes the expected counts of every family given the observed cells
    of every row (the E-step, exact: the missing cells of a row are summed out by
    variable elimination over the components the network's moral graph gives them),

    .. math::

        \bar N_{ijk} = \sum_{t} P\bigl(X_i = k, \mathrm{Pa}_i = j \bigm| x_{O_t};
            \theta^{(s)}\bigr),

    and applies a complete-data estimator's formula to them (the M-step,
    :class:`MStep`): fsNML, :math:`\theta_{ijk} \propto e(\bar N_{ijk})(\bar N_{ijk}+1)`
    (:class:`~pgmpy_nml.FSNMLEstimator`, the default), maximum likelihood
    :math:`\bar N_{ijk} / \bar N_{ij}` (pgmpy's ``DiscreteMLE``) or a Dirichlet posterior
    mean :math:`(\bar N_{ijk} + \alpha_{ijk}) / (\bar N_{ij} + \alpha_{ij})` (pgmpy's
    ``DiscreteBayesianEstimator``: K2, BDeu, dirichlet). On complete data the first
    E-step gives the counts, and the parameters are exactly that estimator's.

    With maximum likelihood each iteration never decreases the observed-data
    log-likelihood :math:`L(\theta) = \sum_t \log P(x_{O_t}; \theta)` [1]_; with a
    Dirichlet posterior mean it never decreases
    :math:`L(\theta) + \sum \alpha_{ijk} \log \theta_{ijk}` (the M-step is the mode of the
    posterior under a Dirichlet(:math:`\alpha + 1`) prior). The fsNML table maximizes no
    objective of the E-step, so EM with it is a fixed-point iteration without that
    guarantee; it starts where the other two start and keeps every probability
    positive. Under missingness at random (the chance that a cell is missing depends
    only on observed values) :math:`L` is the likelihood of the data, the mechanism
    being ignorable [2]_; under missingness that depends on the missing value itself it
    is not.

    pgmpy's ``DiscreteEM`` drops every row with a missing cell in an observed column
    (it is EM for latent variables); this estimator uses them.

    Parameters
    ----------
    state_names : dict, optional
        Variable -> list of states (default: the M-step estimator's, else the observed
        values).
    m_step_estimator : pgmpy parameter estimator, optional
        The complete-data estimator whose formula is the M-step (default
        :class:`~pgmpy_nml.FSNMLEstimator`).
    max_iter : int, default 100
        Most M-steps.
    tol : float, default 1e-6
        EM stops when the objective (above) changes by at most ``tol`` per row.
    show_progress : bool, default False
        A progress display with the log-likelihood (``pgmpy_nml._progress``).

    Attributes
    ----------
    parameters_ : list of pgmpy.factors.discrete.TabularCPD
        One CPD per node, in the order of ``model.nodes()``.
    state_names_ : dict
        Variable -> list of states of the CPDs.
    log_likelihood_ : float
        The observed-data log-likelihood of ``parameters_`` (natural log).
    history_ : ndarray
        The objective at the start and after each M-step.
    n_iter_ : int
        M-steps made.
    converged_ : bool
        Whether the objective settled within ``tol`` (else ``max_iter`` stopped it).

    Examples
    --------
    >>> import numpy as np
    >>> from pgmpy.models import DiscreteBayesianNetwork
    >>> from pgmpy_nml import EMEstimator
    >>> from pgmpy_nml.datasets import sample_network
    >>> true_model, data = sample_network("cancer", 2000, random_state=0)
    >>> holes = data.mask(np.random.default_rng(0).random(data.shape) < 0.3)  # 30% missing
    >>> model = DiscreteBayesianNetwork(true_model.edges()).fit(holes, estimator=EMEstimator())
    >>> cpd = model.get_cpds("Smoker")  # the truth: 0.7, 0.3
    >>> cpd.state_names["Smoker"], cpd.values.round(2).tolist()
    (['False', 'True'], [0.7, 0.3])
    >>> from pgmpy.parameter_estimator import DiscreteMLE
    >>> em = EMEstimator(m_step_estimator=DiscreteMLE()).fit(model, holes)
    >>> em.converged_, bool(np.all(np.diff(em.history_) >= 0))  # never decreases
    (True, True)

    References
    ----------
    .. [1] A. P. Dempster, N. M. Laird, D. B. Rubin. "Maximum likelihood from incomplete
       data via the EM algorithm". Journal of the Royal Statistical Society B 39(1), 1977.
    .. [2] D. B. Rubin. "Inference and missing data". Biometrika 63(3), 1976.
    .. [3] S. L. Lauritzen. "The EM algorithm for graphical association models with
       missing data". Computational Statistics & Data Analysis 19(2), 1995.
    """

    _tags = {"supports_latent_variables": False, "supports_weighted_data": False}

    _parameter_specs = {
        "state_names": STATE_NAMES,
        "m_step_estimator": PARAMETER_ESTIMATOR,
        "max_iter": Integer(minimum=1),
        "tol": Real(minimum=0.0),
        "show_progress": Boolean(),
    }

    def __init__(
        self,
        state_names: dict | None = None,
        *,
        m_step_estimator: Any = None,
        max_iter: int = 100,
        tol: float = 1e-6,
        show_progress: bool = False,
    ) -> None:
        super().__init__(state_names=state_names)
        self.m_step_estimator = m_step_estimator
        self.max_iter = max_iter
        self.tol = tol
        self.show_progress = show_progress

    def fit(
        self,
        model: DiscreteBayesianNetwork,
        data: pd.DataFrame,
        sample_weight: ArrayLike | None = None,
    ) -> EMEstimator:
        """Compute the CPDs of ``model`` by EM from ``data`` (NaN for a missing cell).

        Parameters
        ----------
        model : pgmpy.base.DAG or pgmpy.models.DiscreteBayesianNetwork
        data : pandas.DataFrame
            A column for every node; missing cells as NaN, None or pd.NA.
        sample_weight : None
            Not supported.

        Returns
        -------
        self
        """
        settings = validate_params(self)
        model, _ = self._validate_inputs(model, data, sample_weight=sample_weight)
        mstep = MStep(self.m_step_estimator)
        names = self.state_names
        if names is None:
            names = getattr(mstep.estimator, "state_names", None)
        encoded = _model_data(model, data, names, "available")
        variables = list(encoded.variables)
        parents = [mstep.parent_order(model.get_parents(v)) for v in variables]
        for v, ps in zip(variables, parents, strict=True):
            check_cpd_cells(v, *_shape(encoded, v, ps))
        plan = MissingPlan(
            [tuple(encoded.index[p] for p in ps) for ps in parents], encoded.arities, encoded.codes
        )
        pseudo = [mstep.pseudo_counts(model, encoded.state_names, v) for v in variables]
        result = em_tables(
            plan,
            mstep,
            pseudo,
            max_iter=settings["max_iter"],
            tol=settings["tol"],
            show_progress=settings["show_progress"],
        )
        self._model = model
        self.state_names_ = {v: list(s) for v, s in encoded.state_names.items()}
        self.log_likelihood_ = result.log_likelihood
        self.history_ = result.history
        self.n_iter_ = result.n_iter
        self.converged_ = result.converged
        cpds = network_cpds(variables, parents, result.tables, encoded)
        self.parameters_ = self._sort_parameters(cpds)
        self._is_fitted = True  # skbase's is_fitted
        return self

    def __sklearn_is_fitted__(self) -> bool:
        """Fitted once ``fit`` computed the CPDs (scikit-learn's ``check_is_fitted``)."""
        return "parameters_" in self.__dict__

    def __sklearn_tags__(self):
        from .._estimator import sklearn_tags

        return sklearn_tags()
