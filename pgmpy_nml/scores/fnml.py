"""Factorized normalized maximum likelihood (fNML)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from ..numerics.regret import _log_regret_many
from ._base import score_tags
from .contract import CountStatistic, Families, StatisticScore, Supersets, entropy_statistic

if TYPE_CHECKING:
    from collections.abc import Hashable, Mapping
    from typing import Any

    import pandas as pd

    from .._typing import FloatOrArray, StateNames
    from .contract import Statistic

__all__ = ["FNML", "fnml_local", "fnml_superset_bound"]


def fnml_local(
    h_family: FloatOrArray, h_parents: FloatOrArray, regret_sum: FloatOrArray
) -> FloatOrArray:
    """The fNML local score from per-subset statistics.

    ``fNML(i | P) = [H(P + i) - H(P)] - sum_{j in obs(P)} log C(r_i, N_ij)``, where
    ``H(S) = sum_c N_c log N_c`` over the observed configurations of ``S``. Works
    elementwise on arrays, so bulk drivers share this one formula.
    """
    return (h_family - h_parents) - regret_sum


def fnml_superset_bound(
    regret_cells: FloatOrArray, regret_parents: FloatOrArray, log_likelihood_max: FloatOrArray
) -> FloatOrArray:
    r"""Upper bound on fNML(v | P') for every superset P' of P (elementwise).

    ``min(-sum_{c in obs(P+v)} log C(r, N_c), LL_max - sum_{j in obs(P)} log C(r, N_j))``:
    ``regret_cells`` is the regret statistic of the family ``P + v``,
    ``regret_parents`` that of ``P`` and ``log_likelihood_max`` bounds the
    log-likelihood given any superset. The proof is in :meth:`FNML.superset_bound`.
    """
    return np.minimum(-regret_cells, log_likelihood_max - regret_parents)


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
    :func:`pgmpy_nml.numerics.regret.log_regret`), computed exactly. Parent configurations
    that never occur contribute nothing (:math:`\mathcal{C}(r, 0) = 1`), while
    declared but unobserved *child* states raise :math:`r_i` and so the penalty.

    fNML is not score equivalent: Markov-equivalent DAGs can score differently.
    Use :class:`QNML` where that matters.

    Where it is safe: with many rows per variable it predicted best of the scores
    measured on the binary density-estimation benchmark (``docs/benchmarks.md``,
    "Density estimation": the best valid log-likelihood on 4 of 7 sets, within
    0.04 nats per row of the best on two others). Where the rows are few it memorizes: a
    balanced binary child split into one-row parent configurations keeps a
    log-likelihood of 0 and pays :math:`\log 2` per row in regret, as much as
    without parents, and search finds such splits (nips, 500 variables and 400
    rows: 2,810 edges, up to 16 parents, -318 nats per test row against -281 for
    a forest). Limit the parents there (:class:`~pgmpy_nml.LocalSearch`'s
    default ``max_parents="auto"`` chooses a limit on held-out rows where the rows
    are fewer than the variables) or choose the score on held-out data.

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

    _tags = score_tags("fnml")

    def __init__(self, data: pd.DataFrame, state_names: StateNames | None = None) -> None:
        super().__init__(data, state_names=state_names)
        self._statistics: dict[Hashable, Statistic] = {"H": entropy_statistic()}
        for r in sorted({int(r) for r in self.encoded.arities}):
            self._statistics["regret", r] = _regret_statistic(r)

    def statistics(self) -> Mapping[Any, Statistic]:
        """``H`` (``N log N``) and, per child arity ``r``, ``("regret", r)`` (``log C(r, N)``)."""
        return self._statistics

    def local_from_statistics(self, families: Families) -> FloatOrArray:
        return fnml_local(
            families.family["H"],
            families.parents["H"],
            families.parents["regret", families.child_arity],
        )

    def monotone_family_statistics(self) -> tuple[Hashable, ...]:
        """``("H",)``: the score grows with :math:`H(P + v)` and reads no other family statistic."""
        return ("H",)

    def superset_bound(self, families: Families, supersets: Supersets) -> FloatOrArray:
        r"""Upper bound on the fNML local score of every superset of each family's parents.

        For a child :math:`v` of arity :math:`r` and parents :math:`P \subseteq P'`,

        .. math::

            S_{\mathrm{fNML}}(v \mid P') \le \min\Bigl(
                -\sum_{(j,k) \in \mathrm{obs}(P + v)} \log \mathcal{C}(r, N_{jk}),\;
                \mathrm{LL}_{\max} - \sum_{j \in \mathrm{obs}(P)} \log \mathcal{C}(r, N_j)
            \Bigr),

        where :math:`\mathrm{LL}_{\max}` is ``supersets.log_likelihood_max``. Both
        terms are statistics the search counts anyway (the regret statistic of
        the family and of the parents).

        *Proof.* Write :math:`\log P_{\mathrm{NML}}(D) = \mathrm{LL}(D) - \log
        \mathcal{C}(r, |D|)` for the one-variable NML code of the child's values in a
        group of rows :math:`D`; the fNML score of :math:`P'` is the sum of
        :math:`\log P_{\mathrm{NML}}` over the groups of rows of its observed
        configurations, and the configurations of :math:`P'` partition those of
        :math:`P`. Two facts about :math:`\mathcal{C}(r, n) = \sum_{x \in [r]^n}
        \max_\theta P(x \mid \theta)`:

        1. *Subadditivity*: :math:`\mathcal{C}(r, a + b) \le \mathcal{C}(r, a)\,
           \mathcal{C}(r, b)`, because :math:`\max_\theta P(yz \mid \theta) \le
           \max_\theta P(y \mid \theta) \max_\theta P(z \mid \theta)` for every
           :math:`y \in [r]^a, z \in [r]^b`.
        2. *Splitting by value*: for a group of :math:`m` rows with child counts
           :math:`m_1, \dots, m_r`, :math:`\mathcal{C}(r, m) \ge \prod_k (m_k / m)^{m_k}
           \mathcal{C}(r, m_k)`. Expand the right side over count vectors
           :math:`h^k` of :math:`r`-ary sequences of length :math:`m_k`: it is
           :math:`\sum_{h^1, \dots} \prod_k \binom{m_k}{h^k} \prod_{k,i} (h^k_i / m)^{h^k_i}`.
           Grouping the terms by :math:`h = \sum_k h^k`, each product of powers is
           at most :math:`\prod_i (h_i / m)^{h_i}` (as :math:`h^k_i \le h_i`) and
           :math:`\sum \prod_k \binom{m_k}{h^k} = \binom{m}{h}` (Vandermonde:
           sequences of type :math:`h` counted by the types of fixed blocks), so the
           sum is at most :math:`\sum_h \binom{m}{h} \prod_i (h_i/m)^{h_i} =
           \mathcal{C}(r, m)`. Taking logs,
           :math:`\log P_{\mathrm{NML}}(D) \le -\sum_{k: m_k > 0} \log \mathcal{C}(r, m_k)`.

        Take any partition of the rows of a configuration :math:`j` of :math:`P`
        (the one :math:`P'` induces). By fact 2 each group's code is at most
        that of its rows split by child value; merging the pieces of equal value
        across groups raises it again by fact 1. So the rows of :math:`j`
        contribute at most :math:`-\sum_k \log \mathcal{C}(r, N_{jk})`, and summing
        over :math:`j` gives the first term. For the second, fact 1 shows that
        the regret :math:`\sum_{j'} \log \mathcal{C}(r, N_{j'})` of :math:`P'` is at
        least that of :math:`P` (each :math:`N_j` splits into the :math:`N_{j'}`),
        while its log-likelihood is at most :math:`\mathrm{LL}_{\max}`. :math:`\square`

        The first term is attained when a superset splits every parent
        configuration exactly by the child's value; it is always below the
        naive bound :math:`0 - \sum_j \log \mathcal{C}(r, N_j)` (fact 1). The
        tests check the bound against every superset by brute force.
        """
        r = families.child_arity
        return fnml_superset_bound(
            families.family["regret", r],
            families.parents["regret", r],
            supersets.log_likelihood_max,
        )


def _regret_statistic(r: int) -> CountStatistic:
    """``sum_{c in obs(S)} log C(r, N_c)``."""
    return CountStatistic(partial(_log_regret_counts, float(r)), f"log C({r}, N)")


def _log_regret_counts(r: float, counts):
    return _log_regret_many(r, counts)
