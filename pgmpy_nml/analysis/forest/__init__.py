r"""Exact normalized maximum likelihood (NML) for Bayesian forests.

A Bayesian forest is a Bayesian network in which every node has at most one
parent. For such a structure :math:`G` over discrete variables the NML
distribution

.. math::

    P_{\mathrm{NML}}(D \mid G) = \frac{P(D \mid \hat\theta(D), G)}{\mathcal{C}(G, n)},
    \qquad
    \mathcal{C}(G, n) = \sum_{D' \in \mathcal{X}^n} P(D' \mid \hat\theta(D'), G),

can be evaluated exactly in time polynomial in the sample size :math:`n`
(for fixed arities) by passing messages from the leaves to the roots [1]_.
This module implements that algorithm, with the corrections and the faster
inner-node step described below.

**The recursion.** Write :math:`K_i` for the arity of node :math:`X_i`,
:math:`\mathrm{ch}(i)` for its children, :math:`|h|` for the sum of a count
vector, and

.. math::

    g(r) = \binom{|r|}{r_1, \dots, r_K} \prod_{l=1}^{K}
           \left(\frac{r_l}{|r|}\right)^{r_l}

for the number of sequences with counts :math:`r` times their maximized
likelihood (:math:`\sum_{|r| = m} g(r) = C(K, m)`, the multinomial
normalizer). Each non-root node :math:`X_j` sends its parent the partial
normalizer of its subtree given the parent's counts :math:`f`,

.. math::

    L_j(f) = \sum_{F \in \mathbb{N}^{K_{\mathrm{pa}(j)} \times K_j}:\ F\mathbf{1} = f}
             \ \prod_k g(F_{k\cdot}) \prod_{c \in \mathrm{ch}(j)} L_c(\mathbf{1}^\top F),

which for a leaf is :math:`L_j(f) = \prod_k C(K_j, f_k)` (paper, Eq. 20). A
root :math:`X_\rho` sums over its own count vectors,

.. math::

    \mathcal{C}_\rho(n) = \sum_{|h| = n} g(h) \prod_{c \in \mathrm{ch}(\rho)} L_c(h),
    \qquad
    \log \mathcal{C}(G, n) = \sum_{\rho\ \text{root}} \log \mathcal{C}_\rho(n),

the normalizer of a forest being the product of those of its trees (Eq. 30;
the sum over data sets factorizes because the trees share no parameters).

**Corrections to the paper.** For an inner node the paper's Eqs. (26) and
(28) and lines 13 and 17 of its Algorithm 1 weight a matrix :math:`F` by
:math:`\prod_l (f_{il}/n)^{f_{il}}`, a root's maximized likelihood, and omit
the number :math:`\prod_k \binom{f_k}{F_{k\cdot}}` of sequences with those
conditional counts; the term must be :math:`\prod_k g(F_{k\cdot})`, as above
(with the literal formulas the chain of three binary variables gets
:math:`\mathcal{C} = 22.29` at :math:`n = 3` instead of the true 38.91).
Line 20 of Algorithm 1 also drops the multinomial coefficient that Eq. (29)
has (giving 17.11). The recursion used here is checked against brute-force
summation over all data sets in the tests.

**Computation.** :math:`g(r) = \prod_l w(r_l) / w(|r|)` with
:math:`w(x) = x^x e^{-x} / x!`, so no exponential is taken in the inner
loops. Instead of listing all :math:`\binom{n + K_i K_p - 1}{K_i K_p - 1}`
matrices :math:`F` (paper, line 16; :math:`K_p` is the parent's arity), the
rows of :math:`F` are summed out one at a time, from the last to the first,

.. math::

    T_{K_p - 1}(h) = \sum_{|r| = n - |h|} g(r)\, D(h + r), \qquad
    T_{k-1}(h; m_k, \dots) = \sum_{|r| = m_k} g(r)\, T_k(h + r; m_{k+1}, \dots),

with :math:`D = \prod_c L_c` and :math:`L_j(m_1, \dots, m_{K_p}) = T_0(0; m_1,
\dots)`. As :math:`L_j` is symmetric in its arguments (permuting the parent's
states permutes the rows of :math:`F`), only sorted :math:`m_1 \le \dots \le
m_{K_p}` are computed. When all children of an inner node are leaves,
:math:`D(h) = \prod_l d(h_l)` and the sum factorizes over the *columns* of
:math:`F` instead, in :math:`O(K_i\, n^{2K_p})`; this is used when cheaper
and makes the arity of such a node almost free. A root whose children are
all leaves has the same product form and is a :math:`K`-fold convolution,
:math:`O(K n^2)` (the naive Bayes normalizer of [2]_). Values are kept as a
per-message logarithmic scale times an array normalized to its maximum, so
nothing overflows for any :math:`n`. Measured relative errors against exact
rational brute force and exact identities are below :math:`10^{-14}`.

**Cost.** Dominant terms, for an inner node of arity :math:`K_i` whose
parent has arity :math:`K_p` (exact counts in :func:`forest_cost`):

* :math:`K_p = 2`: :math:`\approx \tfrac12 \binom{n + 2K_i - 1}{2K_i - 1}
  = O(n^{2K_i - 1})`, e.g. :math:`n^3/12` for a binary node and
  :math:`n^5/240` for a ternary one;
* :math:`K_p \ge 3`: :math:`O(n^{2K_i - 1} + n^{2K_i + K_p - 3})`, the
  second term with a small constant thanks to the sorted rows;
* all children leaves: the smaller of the above and
  :math:`\approx (K_i - 2) \binom{n + 2K_p}{2K_p} + \binom{n + 2K_p - 1}{2K_p - 1}`;
* a root: :math:`\binom{n + K - 1}{K - 1} = O(n^{K-1})` if it has inner
  children, :math:`O(K n^2)` otherwise; leaves :math:`O(n)`.

The paper's direct enumeration of the matrices costs
:math:`O(n^{K_i K_p - 1})` per inner node: :math:`n^3` binary, :math:`n^8`
ternary. So the cost is polynomial in :math:`n` but exponential in the arities of the
non-leaf nodes; leaves may have any number of states.

References
----------
.. [1] H. Wettig, P. Kontkanen, P. Myllymäki. "Calculating the normalized
   maximum likelihood distribution for Bayesian forests". Proc. IADIS
   International Conference on Intelligent Systems and Agents, 2007.
.. [2] P. Kontkanen, P. Myllymäki, W. Buntine, J. Rissanen, H. Tirri. "An MDL
   framework for data clustering". In: Advances in Minimum Description Length,
   MIT Press, 2005.
"""

from .cost import DEFAULT_MAX_OPERATIONS, MAX_MEMORY_BYTES, forest_cost
from .nml import forest_log_normalizer, forest_nml

__all__ = [
    "DEFAULT_MAX_OPERATIONS",
    "MAX_MEMORY_BYTES",
    "forest_cost",
    "forest_log_normalizer",
    "forest_nml",
]
