"""Factorized normalized maximum likelihood (fNML)."""

from __future__ import annotations

import numpy as np

from .._counting import sum_nlogn
from ._base import DiscreteScore
from ._regret_table import RegretTable

__all__ = ["FNML", "fnml_local"]


def fnml_local(h_family, h_parents, regret_sum):
    """The fNML local score from per-subset statistics.

    ``fNML(i | P) = [H(P + i) - H(P)] - sum_{j in obs(P)} log C(r_i, N_ij)``, where
    ``H(S) = sum_c N_c log N_c`` over the observed configurations of ``S``. Works
    elementwise on arrays, so bulk drivers share this one formula.
    """
    return (h_family - h_parents) - regret_sum


class FNML(DiscreteScore):
    r"""Factorized NML score: parameter free, decomposable, consistent.

    The local score of variable :math:`X_i` with parents :math:`G_i` is the log
    of the NML distribution of the data column given the parents' columns,

    .. math::

        S_{\mathrm{fNML}}(X_i \mid G_i) = \sum_{j=1}^{q_i} \sum_{k=1}^{r_i}
            N_{ijk} \log \frac{N_{ijk}}{N_{ij}}
            \;-\; \sum_{j=1}^{q_i} \log \mathcal{C}(r_i, N_{ij}),

    where :math:`\mathcal{C}(r, n)` is the normalizer of the :math:`r`-ary
    multinomial NML distribution for :math:`n` samples (Theorem 1 of [1]_;
    :func:`pgmpy_nml.regret.log_regret`), computed exactly. Parent configurations
    that never occur contribute nothing (:math:`\mathcal{C}(r, 0) = 1`), while
    declared but unobserved *child* states raise :math:`r_i` and so the penalty.

    fNML is not score equivalent: Markov-equivalent DAGs can score differently.
    Use :class:`QNML` where that matters.

    Parameters
    ----------
    data : pandas.DataFrame
        Discrete data, one column per variable, no missing values.
    state_names : dict, optional
        Variable -> list of its states; unobserved declared states count.

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy_nml import FNML
    >>> data = pd.DataFrame({"A": [0, 0, 1, 1, 1], "B": [0, 0, 1, 1, 0]})
    >>> score = FNML(data)
    >>> round(score.local_score("B", ["A"]), 4)
    -3.8867
    >>> round(score.local_score("B", []), 4)
    -4.6208

    References
    ----------
    .. [1] T. Silander, T. Roos, P. Myllymäki. "Learning locally minimax optimal
       Bayesian networks". International Journal of Approximate Reasoning 51(5),
       2010, Sec. 3.3. (First presented as "Factorized normalized maximum
       likelihood criterion for learning Bayesian network structures", PGM 2008.)
    """

    _tags = {
        "name": "fnml",
        "supported_datatype": "discrete",
        "default_for": None,
        "is_parameteric": False,
    }

    def __init__(self, data, state_names=None):
        super().__init__(data, state_names=state_names)
        self._regret = RegretTable(self.n_samples)

    def _score_table(self, table: np.ndarray, n_parent_configs: int) -> float:
        parent_counts = table.sum(axis=1)
        return fnml_local(
            sum_nlogn(table),
            sum_nlogn(parent_counts),
            self._regret.sum(table.shape[1], parent_counts),
        )
