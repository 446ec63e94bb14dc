"""BD-type scores over the whole range of prior masses, against mpmath definitions.

With a float64 ``lgamma(a + N) - lgamma(a)`` these scores lost all precision as the
prior grew (BDConstant at alpha = 1e16 came out as -64 instead of -3.47, Min/Max-BDeu
at ESS = 1e16 as +80); every check here failed then.
"""

import math

import _reference as ref
import numpy as np
import pandas as pd
import pytest

from pgmpy_nml import BDConstant, MaxBDeu, MinBDeu

PRIORS = [1e-8, 1e-3, 0.5, 1.0, 1e3, 1e8, 1e12, 1e16, 1e20]
NAMES = {"A": [0, 1], "B": [0, 1, 2, 3], "C": [0, 1], "D": [0, 1, 2, 3, 4]}  # some unobserved
FAMILIES = [("A", ()), ("D", ("B",)), ("C", ("A", "B")), ("B", ("A", "C", "D"))]


def make_data(n=150, seed=3):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"A": rng.integers(0, 2, n), "B": rng.integers(0, 3, n)})
    df["C"] = np.where(rng.random(n) < 0.7, df["A"], rng.integers(0, 2, n))
    df["D"] = np.where(rng.random(n) < 0.6, df["B"], rng.integers(0, 4, n))
    return df


DF = make_data()


def rtol(prior):
    """Sums of terms ~ N log(prior) into a result ~ N log r: error ~ 1e-16 |log prior|."""
    return 4e-15 * (8.0 + abs(math.log(prior)))


@pytest.mark.parametrize("alpha", PRIORS)
def test_bd_constant_vs_mpmath(alpha):
    score = BDConstant(DF, alpha=alpha, state_names=NAMES)
    for child, parents in FAMILIES:
        want = float(ref.bd_constant(DF, child, parents, alpha, NAMES, exact=True))
        got = score.local_score(child, parents)
        assert got <= 0.0
        assert got == pytest.approx(want, rel=rtol(alpha), abs=0)


def first_order_excess(child, parents, alpha):
    """BD with constant alpha = -N log r + E / alpha + O(1/alpha^2), per family:
    E = sum_j [sum_k N_jk (N_jk - 1) - N_j (N_j - 1) / r] / 2 (expand log1p(w / alpha))."""
    table = ref.counts(DF, child, parents, NAMES)
    r = len(NAMES[child])
    total = 0.0
    for row in table.values():
        nj = sum(row)
        total += (sum(x * (x - 1) for x in row) - nj * (nj - 1) / r) / 2
    return total


def test_bd_constant_tends_to_the_uniform_likelihood():
    """As alpha grows the prior mean (uniform) is all that counts: -N log r per family."""
    n = len(DF)
    for child, parents in FAMILIES:
        limit = -n * math.log(len(NAMES[child]))
        big = BDConstant(DF, alpha=1e20, state_names=NAMES).local_score(child, parents)
        assert big == pytest.approx(limit, rel=rtol(1e20))
        # the approach is the first-order term E / alpha, resolved to 1e-5 relative:
        # it is 1e-4 of the score at alpha = 1e8 and the error must stay far below
        for alpha in (1e6, 1e8):
            got = BDConstant(DF, alpha=alpha, state_names=NAMES).local_score(child, parents)
            excess = first_order_excess(child, parents, alpha)
            assert (got - limit) * alpha == pytest.approx(excess, rel=2e-5 * (1e8 / alpha))


@pytest.mark.long
@pytest.mark.parametrize("ess", PRIORS)
@pytest.mark.parametrize("eps", [0.5, 0.1])
def test_min_bdeu_and_max_bdeu_vs_mpmath(ess, eps):
    low = MinBDeu(DF, equivalent_sample_size=ess, epsilon=eps, state_names=NAMES)
    high = MaxBDeu(DF, equivalent_sample_size=ess, epsilon=eps, state_names=NAMES)
    tol = rtol(ess)
    for child, parents in FAMILIES:
        bdeu = float(ref.bdeu(DF, child, parents, ess, NAMES, exact=True))
        lo_v = low.local_score(child, parents)
        hi_v = high.local_score(child, parents)
        # Min-BDeu is exact: the best vertex of the contaminated set
        want_min = float(
            ref.contaminated_bdeu(DF, child, parents, ess, eps, min, NAMES, exact=True)
        )
        assert lo_v == pytest.approx(want_min, rel=tol, abs=0)
        # Max-BDeu is the BD value of its prior (in mpmath), at least every vertex's
        counts, alpha = high.optimal_prior(child, parents)
        at_prior = sum(
            ref.bd_row(list(row), p, exact=True) for row, p in zip(counts, alpha, strict=True)
        )
        assert hi_v == pytest.approx(float(at_prior), rel=tol, abs=0)
        best_vertex = float(
            ref.contaminated_bdeu(DF, child, parents, ess, eps, max, NAMES, exact=True)
        )
        slack = tol * abs(bdeu)
        assert lo_v <= bdeu + slack and bdeu <= hi_v + slack and best_vertex <= hi_v + slack
        assert lo_v < 0.0 and hi_v < 0.0  # log-probabilities of 150 rows


@pytest.mark.parametrize("eps", [0.5, 0.1, 1.0])
def test_max_bdeu_tends_to_the_best_prior_mean_likelihood(eps):
    """As the ESS grows, Max-BDeu -> max over the contaminated prior means p of
    sum N_k log p_k, and Min-BDeu -> the same at the vertex on argmin N_k."""
    r_of = {c: len(NAMES[c]) for c in NAMES}
    for child, parents in FAMILIES:
        limit = float(ref.max_bdeu_limit_mp(DF, child, parents, eps, NAMES))
        got = MaxBDeu(DF, equivalent_sample_size=1e20, epsilon=eps, state_names=NAMES)
        assert got.local_score(child, parents) == pytest.approx(limit, rel=1e-13)
        if eps == 1.0:
            continue
        r = r_of[child]
        lo, hi = (1 - eps) / r, eps + (1 - eps) / r
        want = 0.0
        for row in ref.counts(DF, child, parents, NAMES).values():
            k_star = int(np.argmin(row))
            want += sum(x * math.log(hi if k == k_star else lo) for k, x in enumerate(row) if x)
        low = MinBDeu(DF, equivalent_sample_size=1e20, epsilon=eps, state_names=NAMES)
        assert low.local_score(child, parents) == pytest.approx(want, rel=1e-13)
