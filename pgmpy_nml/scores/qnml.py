"""Quotient normalized maximum likelihood (qNML)."""

from __future__ import annotations

import numpy as np

from .._counting import sum_nlogn
from ._base import DiscreteScore
from ._regret_table import RegretTable

__all__ = ["QNML", "qnml_local"]


def qnml_local(h_family, h_parents, log_regret_family, log_regret_parents):
    """The qNML local score from per-subset statistics.

    ``qNML(i | P) = [H(P + i) - log C(q r, N)] - [H(P) - log C(q, N)]``: the
    log-ratio of the one-dimensional NML codes of the collapsed family and the
    collapsed parent set (the ``N log N`` terms cancel). Works elementwise.
    """
    return (h_family - log_regret_family) - (h_parents - log_regret_parents)


class QNML(DiscreteScore):
    r"""Quotient NML score: parameter free, decomposable and score equivalent.

    Each set of columns is coded as one collapsed categorical variable with the
    product of the arities as its number of values, and the local score is the
    quotient of the NML code of the family and that of the parents [1]_:

    .. math::

        S_{\mathrm{qNML}}(X_i \mid G_i)
          = \log \frac{P^1_{\mathrm{NML}}(D_{\{i\} \cup G_i})}{P^1_{\mathrm{NML}}(D_{G_i})}
          = \sum_{j,k} N_{ijk} \log \frac{N_{ijk}}{N_{ij}}
            - \log \mathcal{C}(q_i r_i, N) + \log \mathcal{C}(q_i, N),

    with :math:`q_i` the number of *possible* parent configurations (declared,
    unobserved states included) and :math:`\mathcal{C}` the multinomial NML
    normalizer, evaluated exactly even for :math:`q_i r_i` of :math:`2^{60}` and
    beyond (the asymptotic formula printed in [1]_ is badly off there, and has a
    sign error; see :mod:`pgmpy_nml.regret`). Markov-equivalent DAGs get equal
    scores, and the score equals the exact NML of the data for every network
    made of fully connected components.

    Parameters
    ----------
    data : pandas.DataFrame
        Discrete data, one column per variable, no missing values.
    state_names : dict, optional
        Variable -> list of its states; unobserved declared states count.

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy_nml import QNML
    >>> data = pd.DataFrame({"A": [0, 0, 1, 1, 1], "B": [0, 0, 1, 1, 0]})
    >>> score = QNML(data)
    >>> a_to_b = score.local_score("A", []) + score.local_score("B", ["A"])
    >>> b_to_a = score.local_score("B", []) + score.local_score("A", ["B"])
    >>> bool(abs(a_to_b - b_to_a) < 1e-12)
    True

    References
    ----------
    .. [1] T. Silander, J. Leppä-aho, E. Jääsaari, T. Roos. "Quotient normalized
       maximum likelihood criterion for learning Bayesian network structures".
       AISTATS 2018.
    """

    _tags = {
        "name": "qnml",
        "supported_datatype": "discrete",
        "default_for": None,
        "is_parameteric": False,
    }

    def __init__(self, data, state_names=None):
        super().__init__(data, state_names=state_names)
        self._regret = RegretTable(self.n_samples)

    def _score_table(self, table: np.ndarray, n_parent_configs: int) -> float:
        n = self.n_samples
        q, r = n_parent_configs, table.shape[1]
        return qnml_local(
            sum_nlogn(table),
            sum_nlogn(table.sum(axis=1)),
            self._regret.single(q * r, n),
            self._regret.single(q, n),
        )
