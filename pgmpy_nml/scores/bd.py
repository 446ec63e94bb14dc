"""Bayesian Dirichlet score with a constant hyperparameter."""

from __future__ import annotations

import math

import numpy as np

from ._base import DiscreteScore
from ._contamination import log_bd_rows

__all__ = ["BDConstant"]


class BDConstant(DiscreteScore):
    r"""Bayesian Dirichlet score with every hyperparameter equal: :math:`\alpha_{ijk} = a`.

    .. math::

        S_{\mathrm{BD}}(X_i \mid G_i) = \sum_{j=1}^{q_i} \left[
            \log\frac{\Gamma(r_i a)}{\Gamma(r_i a + N_{ij})}
            + \sum_{k=1}^{r_i} \log\frac{\Gamma(a + N_{ijk})}{\Gamma(a)} \right].

    ``alpha=1`` is the K2 score; ``alpha=0.5`` (the default) is the BD1/2 score of
    the experiments in [1]_, which bnlearn calls ``"bdj"`` (Jeffreys' prior per
    parent configuration). Unlike BDeu, the prior does not shrink with the
    number of parent configurations, so the score is not score equivalent.

    Parameters
    ----------
    data : pandas.DataFrame
        Discrete data, one column per variable, no missing values.
    alpha : float, default 0.5
        The hyperparameter :math:`a > 0` of every Dirichlet cell.
    state_names : dict, optional
        Variable -> list of its states; unobserved declared states count.

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy_nml import BDConstant
    >>> data = pd.DataFrame({"A": [0, 0, 1, 1, 1], "B": [0, 0, 1, 1, 0]})
    >>> round(BDConstant(data, alpha=0.5).local_score("B", ["A"]), 4)
    -3.7534

    References
    ----------
    .. [1] T. Silander, T. Roos, P. Myllymäki. "Learning locally minimax optimal
       Bayesian networks". International Journal of Approximate Reasoning 51(5),
       2010, Sec. 3.2 and 5.
    .. [2] G. F. Cooper, E. Herskovits. "A Bayesian method for the induction of
       probabilistic networks from data". Machine Learning 9, 1992 (K2, a = 1).
    """

    _tags = {
        "name": "bd-constant",
        "supported_datatype": "discrete",
        "default_for": None,
        "is_parameteric": True,
    }

    def __init__(self, data, alpha=0.5, state_names=None):
        if not isinstance(alpha, (int, float, np.integer, np.floating)) or isinstance(alpha, bool):
            raise TypeError(f"alpha must be a positive number, got {alpha!r}.")
        if not (math.isfinite(alpha) and alpha > 0):
            raise ValueError(f"alpha must be a finite number > 0, got {alpha!r}.")
        self.alpha = float(alpha)
        super().__init__(data, state_names=state_names)

    def _score_table(self, table: np.ndarray, n_parent_configs: int) -> float:
        return float(log_bd_rows(table, self.alpha).sum())
