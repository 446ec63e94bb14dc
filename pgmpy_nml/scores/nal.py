r"""Node-average likelihood: a score for data with missing values (Balov 2013).

With missing values, the rows complete on *all* variables may be few, and
dropping the others wastes what they say about the families they do cover. The
node-average likelihood scores each family on the rows complete on that family
(the child and its parents), and averages per row so that families seen on
different numbers of rows are comparable:

.. math::

    \mathrm{NAL}(X_i \mid G_i) = \frac{1}{n_i} \sum_{j, k} N^{(i)}_{ijk}
        \log \frac{N^{(i)}_{ijk}}{N^{(i)}_{ij}},

with :math:`n_i` and :math:`N^{(i)}` counted on the :math:`n_i` rows where
:math:`X_i` and all of :math:`G_i` are observed (:math:`-\infty` when there are
none). The log-likelihood favours every added parent, so structure learning uses
the penalized form

.. math::

    \mathrm{PNAL}(X_i \mid G_i) = \mathrm{NAL}(X_i \mid G_i)
        - \frac{\lambda}{n}\, q_i (r_i - 1),

with :math:`n` the number of rows and :math:`\lambda` the penalty (default
:math:`\tfrac12 \log n`, so that on complete data PNAL is BIC divided by
:math:`n`). Balov proves the penalized score consistent when values are missing
completely at random (MCAR): whether a cell is missing depends on nothing in the
data. Under MAR or MNAR (missingness that depends on observed or unobserved
values) the locally complete rows are a biased sample and so is the score.
bnlearn calls the two scores ``nal`` and ``pnal`` (its ``k`` is our penalty).

References
----------
.. [1] N. Balov. "Consistent model selection of discrete Bayesian networks from
   incomplete data". Electronic Journal of Statistics 7, 2013, 1047-1077.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from .._counting import family_table, sum_nlogn
from .._validate import as_real
from ._base import DiscreteScore, score_tags

if TYPE_CHECKING:
    import pandas as pd

    from .._typing import StateNames

__all__ = ["NAL", "PNAL"]


class PNAL(DiscreteScore):
    r"""Penalized node-average likelihood, for structure learning with missing values.

    The local score of child :math:`X_i` with parents :math:`G_i` is its average
    log-likelihood per row over the rows complete on the family, minus
    :math:`\lambda q_i (r_i - 1) / n` (see :mod:`pgmpy_nml.scores.nal`). Missing
    cells (NaN, None, pd.NA) are kept: each family uses the rows where it is
    observed. Assumes values are missing completely at random.

    Parameters
    ----------
    data : pandas.DataFrame
        Discrete data, missing values allowed.
    penalty : float, optional
        :math:`\lambda \ge 0`; default :math:`\tfrac12 \log n` (BIC's, per row).
    state_names : dict, optional

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy_nml.scores.nal import PNAL
    >>> data = pd.DataFrame({"A": [0, 0, 1, 1, None, 1], "B": [0, 0, 1, 1, 1, None]})
    >>> score = PNAL(data)
    >>> # the 4 rows where A and B are seen fit perfectly; the penalty is log(6)/2 * 2 / 6
    >>> round(score.local_score("B", ["A"]), 4)
    -0.2986
    """

    _tags = score_tags("pnal")
    _missing = "available"

    def __init__(
        self,
        data: pd.DataFrame,
        penalty: float | None = None,
        state_names: StateNames | None = None,
    ) -> None:
        super().__init__(data, state_names=state_names)
        self._encoded.require_rows(type(self).__name__)
        if penalty is None:
            penalty = 0.5 * math.log(self.n_samples) if self.n_samples > 1 else 0.0
        self.penalty = as_real(penalty, "penalty", owner="PNAL")

    def _score_family(self, child: int, parents: tuple[int, ...]) -> float:
        enc = self._encoded
        family = [child, *parents]
        codes = enc.codes[family]
        complete = (codes >= 0).all(axis=0)
        n_local = int(complete.sum())
        if n_local == 0:
            return -math.inf  # no row shows this family: never choose it
        if n_local < codes.shape[1]:
            codes = np.ascontiguousarray(codes[:, complete])
        table = family_table(codes, enc.arities[family], 0, tuple(range(1, len(family))))
        loglik = sum_nlogn(table) - sum_nlogn(table.sum(axis=1))
        free = enc.configurations(parents) * (int(enc.arities[child]) - 1)
        return loglik / n_local - self.penalty * free / self.n_samples


class NAL(PNAL):
    r"""Node-average likelihood: the average log-likelihood of each family on its complete rows.

    :class:`PNAL` without its penalty. Like the log-likelihood it prefers every
    added parent, so use it to compare given networks on incomplete data and
    :class:`PNAL` to learn one.

    Parameters
    ----------
    data : pandas.DataFrame
        Discrete data, missing values allowed.
    state_names : dict, optional

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy_nml.scores.nal import NAL
    >>> data = pd.DataFrame({"A": [0, 0, 1, 1, None, 1], "B": [0, 0, 1, 1, 1, None]})
    >>> round(NAL(data).local_score("A", []), 4)  # A = 0, 0, 1, 1, 1 where it is seen
    -0.673
    """

    _tags = score_tags("nal")

    def __init__(self, data: pd.DataFrame, state_names: StateNames | None = None) -> None:
        super().__init__(data, penalty=0.0, state_names=state_names)
