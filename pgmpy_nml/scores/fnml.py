"""Factorized normalized maximum likelihood (fNML)."""

from __future__ import annotations

from functools import partial

from ..regret import _log_regret_many
from .contract import CountStatistic, Families, StatisticScore, entropy_statistic

__all__ = ["FNML", "fnml_local"]


def fnml_local(h_family, h_parents, regret_sum):
    """The fNML local score from per-subset statistics.

    ``fNML(i | P) = [H(P + i) - H(P)] - sum_{j in obs(P)} log C(r_i, N_ij)``, where
    ``H(S) = sum_c N_c log N_c`` over the observed configurations of ``S``. Works
    elementwise on arrays, so bulk drivers share this one formula.
    """
    return (h_family - h_parents) - regret_sum


class FNML(StatisticScore):
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
        self._statistics = {"H": entropy_statistic()}
        for r in sorted({int(r) for r in self.encoded.arities}):
            self._statistics["regret", r] = _regret_statistic(r)

    def statistics(self):
        """``H`` (``N log N``) and, per child arity ``r``, ``("regret", r)`` (``log C(r, N)``)."""
        return self._statistics

    def local_from_statistics(self, families: Families):
        return fnml_local(
            families.family["H"],
            families.parents["H"],
            families.parents["regret", families.child_arity],
        )


def _regret_statistic(r: int) -> CountStatistic:
    """``sum_{c in obs(S)} log C(r, N_c)``."""
    return CountStatistic(partial(_log_regret_counts, float(r)), f"log C({r}, N)")


def _log_regret_counts(r: float, counts):
    return _log_regret_many(r, counts)
