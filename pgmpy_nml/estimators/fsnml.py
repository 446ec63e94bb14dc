"""Factorized sequential NML (fsNML) parameters as a pgmpy parameter estimator."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from pgmpy.factors.discrete import TabularCPD
from pgmpy.parameter_estimator.base import DiscreteParameterEstimator

from .._counting import full_family_table
from .._data import encode_data
from .._params import STATE_NAMES, Choice, validate_params
from ..exceptions import InputError
from ..numerics.snml import fsnml_parameters

if TYPE_CHECKING:
    import pandas as pd
    from pgmpy.models import DiscreteBayesianNetwork

    from .._typing import ArrayLike

__all__ = ["FSNMLEstimator"]

#: Largest conditional probability table (cells) the estimator builds.
MAX_CPD_CELLS = 50_000_000


def check_cpd_cells(node, r: int, q: int) -> None:
    """Refuse a CPD of ``r`` states by ``q`` parent configurations over ``MAX_CPD_CELLS``."""
    if q * r > MAX_CPD_CELLS:
        raise InputError(
            f"The CPD of {node!r} would have {q * r:,} cells ({r} states x {q:,} parent "
            f"configurations), more than {MAX_CPD_CELLS:,}: reduce the parents of this node "
            "(for a learned network, set the search's max_parents) or the number of states."
        )


def _model_data(model, data, state_names, missing_values="error"):
    """Encode the model's columns of ``data`` (all checks at this boundary)."""
    if getattr(model, "latents", None):
        raise ValueError(
            f"The model has latent variables {sorted(model.latents, key=str)!r}; fsNML "
            "parameters need every variable observed."
        )
    nodes = list(model.nodes())
    if not nodes:
        raise ValueError("The model has no nodes.")
    columns = set(getattr(data, "columns", ()))
    missing = [v for v in nodes if v not in columns]
    if missing and hasattr(data, "columns"):
        raise ValueError(
            f"The model has node(s) {missing!r} that are not columns of the data "
            f"({list(data.columns)!r})."
        )
    names = dict(state_names or {})
    unknown = [v for v in names if v not in columns and v not in nodes]
    if unknown:
        raise ValueError(
            f"state_names names variable(s) {unknown!r} that are neither model nodes nor "
            "columns of the data."
        )
    names = {v: s for v, s in names.items() if v in nodes}
    if hasattr(data, "columns"):
        data = data[nodes]
    return encode_data(data, names, missing=missing_values)


class FSNMLEstimator(DiscreteParameterEstimator):
    r"""Factorized sequential NML parameters: Laplace's rule of succession, spiced up.

    For variable :math:`X_i` in parent configuration :math:`j`, the parameter is
    the sequential NML predictive probability of the next value given the
    counts so far (Sec. 4.3 of [1]_):

    .. math::

        \theta_{ijk} = \frac{e(N_{ijk})\,(N_{ijk} + 1)}
                            {\sum_{k'=1}^{r_i} e(N_{ijk'})\,(N_{ijk'} + 1)},
        \qquad e(0) = 1,\quad e(n) = \Big(\frac{n+1}{n}\Big)^{n} \to e.

    Each factor is minimax optimal for the regret of predicting the next entry,
    and for any data the regret of the whole table against the maximum
    likelihood is bounded (Theorem 6 of [1]_,
    :func:`pgmpy_nml.numerics.snml_bounds.fsnml_regret_bound`).
    Unobserved parent configurations get the uniform distribution; declared but
    unobserved states get the positive probability the formula gives them (no
    zeros, no NaN). It is the natural companion of the :class:`~pgmpy_nml.FNML`
    score and needs no hyperparameter.

    Parameters
    ----------
    state_names : dict, optional
        Variable -> list of states. Declared states that never occur in the data
        get a row in the CPD, so that test data may contain them.
    missing : {"error", "available"}, default "error"
        Missing values (NaN, None) in the data: refused, or ``"available"``: each
        CPD is counted on the rows where its variable and its parents are all
        observed (the counting of the node-average likelihood scores ``"nal"`` and
        ``"pnal"``, and of pgmpy's own estimators).

    Attributes
    ----------
    parameters_ : list of pgmpy.factors.discrete.TabularCPD
        One CPD per node, in the order of ``model.nodes()``, carrying the state names.
    state_names_ : dict
        Variable -> list of states used for the CPDs.

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy.models import DiscreteBayesianNetwork
    >>> from pgmpy_nml import FSNMLEstimator
    >>> data = pd.DataFrame({"A": ["a", "a", "b", "b", "b"], "B": [0, 0, 1, 1, 0]})
    >>> model = DiscreteBayesianNetwork([("A", "B")]).fit(data, estimator=FSNMLEstimator())
    >>> print(model.get_cpds("B").values.round(4))
    [[0.871  0.3721]
     [0.129  0.6279]]

    References
    ----------
    .. [1] T. Silander, T. Roos, P. Myllymäki. "Learning locally minimax optimal
       Bayesian networks". International Journal of Approximate Reasoning 51(5),
       2010, Sec. 4.
    """

    _tags = {"supports_latent_variables": False, "supports_weighted_data": False}

    _parameter_specs = {
        "state_names": STATE_NAMES,
        "missing": Choice(("error", "available")),
    }

    def __init__(self, state_names: dict | None = None, *, missing: str = "error") -> None:
        super().__init__(state_names=state_names)
        self.missing = missing

    def fit(
        self,
        model: DiscreteBayesianNetwork,
        data: pd.DataFrame,
        sample_weight: ArrayLike | None = None,
    ) -> FSNMLEstimator:
        """Compute the fsNML CPDs of ``model`` from ``data``.

        Parameters
        ----------
        model : pgmpy.base.DAG or pgmpy.models.DiscreteBayesianNetwork
        data : pandas.DataFrame
            Discrete data with a column for every node; complete unless
            ``missing="available"``.
        sample_weight : None
            Not supported: fsNML is defined for counts of whole rows.

        Returns
        -------
        self
        """
        validate_params(self)
        model, _ = self._validate_inputs(model, data, sample_weight=sample_weight)
        encoded = _model_data(model, data, self.state_names, self.missing)
        parameters = []
        for node in model.nodes():
            parents = sorted(model.get_parents(node), key=str)
            child = encoded.index[node]
            parent_idx = [encoded.index[p] for p in parents]
            q = encoded.configurations(parent_idx)
            r = int(encoded.arities[child])
            check_cpd_cells(node, r, q)
            codes = encoded.codes
            if self.missing == "available":  # the rows that observe the whole family
                codes = codes[:, (codes[[child, *parent_idx]] >= 0).all(axis=0)]
            counts = full_family_table(codes, encoded.arities, child, parent_idx)
            theta = fsnml_parameters(counts)
            parameters.append(
                TabularCPD(
                    variable=node,
                    variable_card=r,
                    values=np.ascontiguousarray(theta.T),
                    evidence=parents or None,
                    evidence_card=[int(encoded.arities[i]) for i in parent_idx] or None,
                    state_names={v: list(encoded.state_names[v]) for v in [node, *parents]},
                )
            )
        self._model = model
        self.state_names_ = {v: list(s) for v, s in encoded.state_names.items()}
        self.parameters_ = self._sort_parameters(parameters)
        self._is_fitted = True  # skbase's is_fitted
        return self

    def __sklearn_is_fitted__(self) -> bool:
        """Fitted once ``fit`` computed the CPDs (scikit-learn's ``check_is_fitted``)."""
        return "parameters_" in self.__dict__

    def __sklearn_tags__(self):
        from .._estimator import sklearn_tags

        return sklearn_tags()
