"""Steck's uniformity measure and the large-ESS Bayes factor (Sec. 3 of [1]_).

Part of :mod:`pgmpy_nml.analysis.ess`, which exports these functions.

References
----------
.. [1] H. Steck. "Learning the Bayesian network structure: Dirichlet prior versus
   data". Proceedings of the 24th Conference on Uncertainty in Artificial
   Intelligence (UAI 2008).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from .._counting import dense_ids
from .._data import encode_data
from .._validate import as_integer, as_real

if TYPE_CHECKING:
    from collections.abc import Hashable, Sequence

    import pandas as pd

    from .._typing import ArrayLike, StateNames

__all__ = ["large_ess_log_bayes_factor", "pair_counts", "uniformity"]


# ---------------------------------------------------------------------------
# Section 3: the uniformity measure and the large-ESS Bayes factor
# ---------------------------------------------------------------------------


def _pair_table(counts, n_parent_configs) -> tuple[np.ndarray, float, int]:
    """Validate a (q, r_A, r_B) or (r_A, r_B) table; return it 3-D, its total and |Pi|."""
    table = np.asarray(counts)
    if table.dtype == object or not (
        np.issubdtype(table.dtype, np.number) or table.dtype == np.bool_
    ):
        raise TypeError(f"counts must be a numeric array, got dtype {table.dtype}.")
    if table.ndim == 2:
        table = table[None]
    if table.ndim != 3:
        raise ValueError(
            "counts must be a 3-D table N[pi, a, b] (parent configuration, state of A, "
            f"state of B), or 2-D N[a, b] when there is no conditioning set; got shape "
            f"{np.shape(counts)}."
        )
    if 0 in table.shape:
        raise ValueError(f"counts has an empty axis: shape {np.shape(counts)}.")
    table = table.astype(np.float64)
    if not np.all(np.isfinite(table)) or (table < 0).any():
        raise ValueError("counts must be finite and non-negative.")
    total = float(table.sum())
    if total <= 0:
        raise ValueError("counts sum to zero: U needs at least one observation.")
    q_rows = table.shape[0]
    if n_parent_configs is None:
        q_all = q_rows
    else:
        q_all = as_integer(n_parent_configs, "n_parent_configs", minimum=1)
        if q_all < q_rows:
            raise ValueError(
                f"n_parent_configs = {q_all} is smaller than the {q_rows} rows of counts; it "
                "must count every configuration of the conditioning set, observed or not."
            )
    return table, total, q_all


def uniformity(counts: ArrayLike, n_parent_configs: int | None = None) -> float:
    r"""The uniformity measure :math:`U(p(A, B \mid \Pi))` of Steck (2008), Eq. 4-5.

    For the joint distribution :math:`p(a, b, \pi)` of two variables :math:`A, B` and
    a conditioning set :math:`\Pi` (Eq. 4)

    .. math::

        U = \sum_{a,b,\pi} p(a,b,\pi)\bigl(|A,B,\Pi|\,p(a,b,\pi) - |A,\Pi|\,p(a,\pi)
            - |B,\Pi|\,p(b,\pi) + |\Pi|\,p(\pi)\bigr),

    where :math:`|\cdot|` is the number of joint states. It is computed in the
    equivalent sum-of-squares form

    .. math::

        U = |A,B,\Pi| \sum_{a,b,\pi} \Bigl(p(a,b,\pi) - \frac{p(a,\pi)}{|B|}
            - \frac{p(b,\pi)}{|A|} + \frac{p(\pi)}{|A||B|}\Bigr)^2 \ge 0,

    so :math:`U = 0` exactly when every :math:`p(a, b\mid\pi)` with :math:`p(\pi) > 0`
    is additive, :math:`p(a,b\mid\pi) = p(a\mid\pi)/|B| + p(b\mid\pi)/|A| - 1/(|A||B|)`.
    Among independent distributions that means one marginal is uniform
    (Proposition 1); dependent additive distributions also give 0.

    :math:`U` depends on the *joint* :math:`p(a,b,\pi)`, not only on the conditional:
    the paper's :math:`U(p(A,B\mid\Pi))` weighs configuration :math:`\pi` by
    :math:`|\Pi|\,p(\pi)^2`. In Proposition 2, :math:`A` is the child, :math:`B` the
    candidate parent and :math:`\Pi` the other parents, and the table is the child's
    family table under :math:`G^+`. :math:`U` is symmetric in :math:`A` and :math:`B`.

    Parameters
    ----------
    counts : array_like, shape (q, r_A, r_B) or (r_A, r_B)
        Counts (or probabilities) ``N[pi, a, b]``. Rows of unobserved configurations
        of :math:`\Pi` may be left out if ``n_parent_configs`` is given. A 2-D table
        means :math:`\Pi = \emptyset`. Declared but unobserved states of :math:`A`
        and :math:`B` must be present as zero columns, since they count in
        :math:`|A|` and :math:`|B|`.
    n_parent_configs : int, optional
        :math:`|\Pi|`, the number of all configurations of :math:`\Pi`. Defaults to
        the number of rows of ``counts``.

    Returns
    -------
    float
        :math:`U \ge 0`.

    See Also
    --------
    pair_counts : the table of a pair of variables in a DataFrame.
    large_ess_log_bayes_factor : Proposition 2, where :math:`U` is used.

    References
    ----------
    .. [1] H. Steck. "Learning the Bayesian network structure: Dirichlet prior versus
       data". UAI 2008, Sec. 3.1, Eq. 4-5 and Proposition 1.

    Examples
    --------
    Independent, equally skewed binary variables (Sec. 3.3 with z = 0.1): U is the
    product of the two marginal terms, 0.64 * 0.64.

    >>> round(uniformity([[81, 9], [9, 1]]), 6)
    0.4096

    One uniform marginal gives 0, as does this dependent but additive table:

    >>> uniformity([[0.3, 0.3], [0.2, 0.2]]), round(uniformity([[35, 25], [25, 15]]), 12)
    (0.0, 0.0)
    """
    table, total, q_all = _pair_table(counts, n_parent_configs)
    _, r_a, r_b = table.shape
    p = table / total
    p_a = p.sum(axis=2, keepdims=True)
    p_b = p.sum(axis=1, keepdims=True)
    p_pi = p_a.sum(axis=1, keepdims=True)
    interaction = p - p_a / r_b - p_b / r_a + p_pi / (r_a * r_b)
    return float(q_all * r_a * r_b * np.sum(interaction * interaction))


def large_ess_log_bayes_factor(
    counts: ArrayLike, equivalent_sample_size: float, n_parent_configs: int | None = None
) -> float:
    r"""Leading-order BDeu log Bayes factor of one edge for a large ESS (Proposition 2).

    For graphs :math:`G^+` and :math:`G^-` that differ only in the edge
    :math:`A \leftarrow B`, with :math:`\Pi` the parents of :math:`A` in :math:`G^-`,
    Steck's Eq. 8 reads, for :math:`\alpha \gg N`,

    .. math::

        \log\frac{p(D\mid\alpha, G^+)}{p(D\mid\alpha, G^-)}
            \approx \frac{N}{2\alpha}\bigl(N\,U(\hat p(A,B\mid\Pi)) - d_F\bigr),
        \qquad d_F = |\Pi|\,(|A|-1)(|B|-1),

    with :math:`U` from :func:`uniformity` and :math:`d_F` *not* corrected for zero
    cells (footnote 1). The exact value is Eq. 7, the difference of the two BDeu
    family scores of :math:`A`. The remainder is :math:`O(N^3 |A,B,\Pi|^2/\alpha^2)`
    (the paper's :math:`O(N^2/\alpha^2)` understates it; see the module notes), so the
    error relative to the leading term shrinks like :math:`N|A,B,\Pi|/\alpha`.
    The expression is symmetric in :math:`A` and :math:`B`, as Eq. 7 is.

    Parameters
    ----------
    counts : array_like of int, shape (q, r_A, r_B) or (r_A, r_B)
        Counts ``N[pi, a, b]`` as for :func:`uniformity`; :math:`N` is their sum.
    equivalent_sample_size : float
        :math:`\alpha > 0`.
    n_parent_configs : int, optional
        :math:`|\Pi|` (all configurations); defaults to the number of rows.

    Returns
    -------
    float
        The approximate log Bayes factor (natural log); positive favours the edge.

    References
    ----------
    .. [1] H. Steck. "Learning the Bayesian network structure: Dirichlet prior versus
       data". UAI 2008, Sec. 3.2, Eq. 7-10 and Corollary 1.

    Examples
    --------
    Independent but skewed data (Sec. 3.3): at a large ESS the edge is favoured,
    since N U - d_F = 100 * 0.4096 - 1 > 0.

    >>> round(large_ess_log_bayes_factor([[81, 9], [9, 1]], 10_000), 6)
    0.1998
    """
    alpha = as_real(equivalent_sample_size, "equivalent_sample_size", low_open=True)
    table, total, q_all = _pair_table(counts, n_parent_configs)
    _, r_a, r_b = table.shape
    u = uniformity(table, q_all)
    d_f = q_all * (r_a - 1) * (r_b - 1)
    return float(total / (2.0 * alpha) * (total * u - d_f))


def pair_counts(
    data: pd.DataFrame,
    a: Hashable,
    b: Hashable,
    given: Sequence[Hashable] = (),
    state_names: StateNames | None = None,
) -> tuple[np.ndarray, int]:
    r"""Counts ``N[pi, a, b]`` of two variables and a conditioning set, from data.

    Parameters
    ----------
    data : pandas.DataFrame
        Discrete data, one column per variable.
    a, b : hashable
        The two variables (for Proposition 2: the child and the candidate parent).
    given : list or tuple, default ()
        The conditioning set :math:`\Pi` (the other parents of ``a``).
    state_names : dict, optional
        Variable -> list of states; declared, unobserved states count.

    Returns
    -------
    counts : ndarray of int64, shape (q_observed, r_a, r_b)
        One row per *observed* configuration of ``given`` (a single row if empty).
    n_parent_configs : int
        :math:`|\Pi|`, the number of all configurations of ``given``.

    Examples
    --------
    >>> import pandas as pd
    >>> data = pd.DataFrame({"A": [0, 0, 1, 1], "B": [0, 1, 1, 1], "C": [0, 0, 0, 1]})
    >>> counts, q = pair_counts(data, "A", "B", given=["C"], state_names={"C": [0, 1, 2]})
    >>> counts.tolist(), q
    ([[[1, 1], [0, 1]], [[0, 0], [0, 1]]], 3)
    """
    enc = encode_data(data, state_names)
    if not isinstance(given, Iterable) or isinstance(given, (str, bytes)):
        raise TypeError(
            f"given must be a list or tuple of variable names, got {given!r}; "
            f"write [{given!r}] for a single variable."
        )
    given = list(given)
    a_idx, _ = enc.family(a, given)
    b_idx, _ = enc.family(b, given)
    if a_idx == b_idx:
        raise ValueError(f"a and b must be two different variables, got {a!r} twice.")
    g_idx = [enc.variable_index(v) for v in given]
    ids, n_obs = dense_ids(enc.codes, g_idx, enc.arities)
    r_a, r_b = int(enc.arities[a_idx]), int(enc.arities[b_idx])
    cell = (ids * r_a + enc.codes[a_idx]) * r_b + enc.codes[b_idx]
    counts = np.bincount(cell, minlength=n_obs * r_a * r_b).reshape(n_obs, r_a, r_b)
    return counts.astype(np.int64, copy=False), enc.configurations(g_idx)
