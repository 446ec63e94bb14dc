"""Quotient normalized maximum likelihood (qNML)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..numerics._distinct import per_distinct
from ..numerics.regret import log_regret
from ._base import score_tags
from .contract import (
    Families,
    StatisticScore,
    Supersets,
    entropy_statistic,
    penalized_superset_bound,
)

if TYPE_CHECKING:
    from collections.abc import Hashable, Mapping
    from typing import Any

    import pandas as pd

    from .._typing import FloatOrArray, StateNames
    from .contract import Statistic

__all__ = ["QNML", "qnml_local"]


def qnml_local(
    h_family: FloatOrArray,
    h_parents: FloatOrArray,
    log_regret_family: FloatOrArray,
    log_regret_parents: FloatOrArray,
) -> FloatOrArray:
    """The qNML local score from per-subset statistics.

    ``qNML(i | P) = [H(P + i) - log C(q r, N)] - [H(P) - log C(q, N)]``: the
    log-ratio of the one-dimensional NML codes of the collapsed family and the
    collapsed parent set (the ``N log N`` terms cancel). Works elementwise.
    """
    return (h_family - log_regret_family) - (h_parents - log_regret_parents)


class QNML(StatisticScore):
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
    sign error; see :mod:`pgmpy_nml.numerics.regret`). Markov-equivalent DAGs get equal
    scores, and the score equals the exact NML of the data for every network
    made of fully connected components.

    Parameters
    ----------
    data : pandas.DataFrame
        Discrete data, one column per variable, no missing values.
    state_names : dict, optional
        Variable -> list of its states; unobserved declared states count.

    Notes
    -----
    **Small samples: limit the parents.** The complexity term
    :math:`\log \mathcal{C}(q_i r_i, N) - \log \mathcal{C}(q_i, N)` rises with
    :math:`q_i` but never exceeds :math:`N \log r_i`, its limit when every row has a
    parent configuration of its own. Once the parent configurations outnumber the
    rows, each further parent therefore costs less and less (with :math:`N = 384`
    and ternary variables: 86 nats for the 5th parent, 243 to 729 family
    configurations; 33 for the 8th; under 2 from the 11th on), while the maximized
    likelihood keeps rising towards 0 as the rows are split finer. A child that is
    nearly uniform already has a likelihood close to :math:`-N \log r_i` without
    parents, so on small samples a saturated family can outscore the empty one: on
    384 rows of seven independent uniform ternary variables the qNML-optimal DAG
    has 10-11 arcs and a child with 5 or 6 parents, where fNML learns the empty
    graph (``tests/test_caveats.py``); a child with 5 parents, 729 family
    configurations from 384 rows, was also seen on real data. Give the search a
    parent limit when :math:`N` is small next to the number of parent
    configurations: ``ExactSearch(QNML(data), max_parents=2)``, or ``max_indegree``
    of pgmpy's ``HillClimbSearch``. On the binary density-estimation benchmark
    (``docs/benchmarks.md``, "Density estimation"), qNML predicted about as well as
    fNML where the rows are many per variable (audio, netflix: within 0.01 nats per
    row) and worse on the sparse sets (accidents, pumsb_star: 0.3 nats per row);
    on nips (500 variables, 400 rows) hill climbing without a limit gave it 2,337
    edges and up to 9 parents, -318 nats per test row against -281 for a forest,
    which :class:`~pgmpy_nml.LocalSearch`'s default ``max_parents="auto"`` finds.

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

    Five independent parents of an independent uniform child, from 384 rows:

    >>> import numpy as np
    >>> rows = np.random.default_rng(0).integers(0, 3, size=(384, 6))
    >>> noise = pd.DataFrame(rows, columns=list("ABCDEG"))
    >>> noise_score = QNML(noise)
    >>> gain = noise_score.local_score("G", list("ABCDE")) - noise_score.local_score("G", [])
    >>> bool(gain > 0)
    True

    References
    ----------
    .. [1] T. Silander, J. Leppä-aho, E. Jääsaari, T. Roos. "Quotient normalized
       maximum likelihood criterion for learning Bayesian network structures".
       AISTATS 2018.
    """

    _tags = score_tags("qnml")

    def __init__(self, data: pd.DataFrame, state_names: StateNames | None = None) -> None:
        super().__init__(data, state_names=state_names)
        self._statistics = {"H": entropy_statistic()}
        self._log_c_memo: dict = {}

    def statistics(self) -> Mapping[Any, Statistic]:
        """``H`` (``N log N``); the regrets depend on ``|S|`` and ``N`` only."""
        return self._statistics

    def local_from_statistics(self, families: Families) -> FloatOrArray:
        q = families.n_parent_configs
        return qnml_local(
            families.family["H"],
            families.parents["H"],
            self._log_c(q * families.child_arity),
            self._log_c(q),
        )

    def monotone_family_statistics(self) -> tuple[Hashable, ...]:
        """``("H",)``: the score grows with :math:`H(P + v)` and reads no other family statistic."""
        return ("H",)

    def superset_bound(self, families: Families, supersets: Supersets) -> FloatOrArray:
        r"""Upper bound on the qNML local score of every proper superset of each family's parents.

        With :math:`\Delta(q) = \log \mathcal{C}(q r, N) - \log \mathcal{C}(q, N)` the
        qNML penalty of :math:`q` parent configurations, so that
        :math:`S_{\mathrm{qNML}}(v \mid P) = \mathrm{LL}(v \mid P) - \Delta(q_P)`,

        .. math::

            S_{\mathrm{qNML}}(v \mid P') \le \mathrm{LL}_{\max} - \Delta(q_{\min})
            \quad \text{for every proper superset } P' \supsetneq P,

        with :math:`\mathrm{LL}_{\max}` = ``supersets.log_likelihood_max`` and
        :math:`q_{\min}` = ``supersets.n_parent_configs_min`` (:math:`q_P` times the
        smallest arity that can be added, so :math:`q_{P'} \ge q_{\min}`).

        *Proof.* It suffices that :math:`\Delta` is nondecreasing in :math:`q` (the
        regularity of Suzuki's quotient scores). For :math:`n \ge 1`,
        :math:`\mathcal{C}(K, n)` is a polynomial in :math:`K` with nonnegative
        coefficients and no constant term: with :math:`B(z) = \sum_{m \ge 0}
        m^m z^m / m!` (:math:`0^0 = 1`), the multinomial theorem gives
        :math:`\mathcal{C}(K, n) = (n! / n^n)\,[z^n]\, B(z)^K = (n!/n^n)\,[z^n]
        \exp(K \log B(z))`, and :math:`\log B = -\log(1 - T) = \sum_{m \ge 1} T^m / m`
        has nonnegative coefficients because the tree function :math:`T(z) =
        \sum_{m \ge 1} m^{m-1} z^m / m!` does (Kontkanen and Myllymäki 2007). So
        :math:`f(x) = \log \mathcal{C}(e^x, n) = \log \sum_j c_j e^{j x}` with
        :math:`c_j \ge 0` is a log-sum-exp of linear functions of :math:`x`, hence
        convex, and :math:`\Delta(q) = f(\log q + \log r) - f(\log q)` -- the
        increment of a convex function over an interval of fixed length -- is
        nondecreasing in :math:`q`. The log-likelihood of :math:`P'` is at most
        :math:`\mathrm{LL}_{\max}` by definition of the latter. :math:`\square`

        The bound is then :func:`~.contract.penalized_superset_bound`, which also pairs
        each parent that can be added with its own penalty. The tests check both the
        monotonicity of :math:`\Delta` and the bound against every superset by brute
        force.
        """
        r = families.child_arity

        def penalty(q):
            q = float(q) if np.ndim(q) == 0 else np.asarray(q, dtype=np.float64)
            return self._log_c(q * r) - self._log_c(q)

        return penalized_superset_bound(supersets, penalty)

    def _log_c(self, n_configs: FloatOrArray) -> FloatOrArray:
        """``log C(K, N)`` for one ``K`` or an array of them (few distinct values), memoized.

        ``K`` comes as an exact int for one family and as integral floats (exact below
        2**53, the nearest float above) for the exact search's arrays.
        """
        memo = self._log_c_memo
        if isinstance(n_configs, (int, float, np.number)):
            value = memo.get(n_configs)
            if value is None:
                value = memo[n_configs] = log_regret(n_configs, self.n_samples)
            return value
        return per_distinct(n_configs, lambda ks: np.array([self._log_c(float(k)) for k in ks]))
