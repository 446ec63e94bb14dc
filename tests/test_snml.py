"""Tests for :mod:`pgmpy_nml.numerics.snml` and :mod:`~pgmpy_nml.numerics.snml_bounds`.

Sequential NML, fsNML parameters and the regret bounds.

The references are independent of the implementation (which uses the closed-form
weights (c+1) e(c) and, for code lengths, a telescoped log1p form of Appendix C):

* the sNML predictive distribution straight from its definition, normalizing the
  maximized likelihood of the sequence extended by each value, in exact rational
  arithmetic (small counts) or in 50-digit mpmath logarithms;
* code lengths as sums of -log of those predictive probabilities;
* the exact worst-case regret max_D R(D) by enumerating all K**N sequences (and
  by dynamic programming over count vectors for larger N);
* Theorem 6 checked on data matrices split by parent configurations by hand.

Findings about the paper that these tests document: the grouping of Theorem 5 is
(1/K) sum_k [N log((N+k)/N) + k log((N+k)/k)] (Appendix C); the bound is attained
only for N <= 1 and otherwise exceeds the exact worst case (the round-robin
sequence) by a gap converging to a positive constant, so it is tight up to O(1),
not attained; and it is concave (not "convex", Sec. 4.3) in N, which is what the
proof of Theorem 6 needs.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import mpmath as mp
import numpy as np
import pytest

from pgmpy_nml.numerics import snml
from pgmpy_nml.numerics.snml import (
    fsnml_code_length_grouped,
    fsnml_parameters,
    snml_code_length,
    snml_regret,
)
from pgmpy_nml.numerics.snml_bounds import (
    fsnml_regret_bound,
    snml_regret_bound,
    snml_regret_bound_bernoulli,
)

RNG_SEED = 20100501


# --------------------------------------------------------------------------------------
# Independent references (the definitions)
# --------------------------------------------------------------------------------------
def ml_exact(counts) -> Fraction:
    """Maximized likelihood prod_k (c_k / n)^c_k of any sequence with these counts."""
    n = sum(counts)
    out = Fraction(1)
    for c in counts:
        if c:
            out *= Fraction(c, n) ** c
    return out


def predictive_exact(counts) -> list[Fraction]:
    """sNML predictive: normalize P_hat(D, k) over the next value k (eq. 16)."""
    K = len(counts)
    ext = [ml_exact([c + (j == k) for j, c in enumerate(counts)]) for k in range(K)]
    z = sum(ext)
    return [x / z for x in ext]


def log_ml_mp(counts):
    n = sum(counts)
    return mp.fsum(c * mp.log(mp.mpf(c) / n) for c in counts if c)


def predictive_mp(counts) -> list:
    """The same in 50-digit logarithms (any counts)."""
    K = len(counts)
    logs = [log_ml_mp([c + (j == k) for j, c in enumerate(counts)]) for k in range(K)]
    top = max(logs)
    w = [mp.exp(x - top) for x in logs]
    z = mp.fsum(w)
    return [x / z for x in w]


def predictive_from_sequence(prefix, K) -> list[Fraction]:
    """Normalize the maximized likelihood of the *sequence* prefix + (k,) over k."""
    ext = []
    for k in range(K):
        seq = [*prefix, k]
        ext.append(ml_exact([seq.count(v) for v in range(K)]))
    z = sum(ext)
    return [x / z for x in ext]


def code_length_mp(seq, K):
    """-log P_sNML(D) = -sum_t log P_sNML(x_t | x_1..x_{t-1}), in mpmath."""
    counts = [0] * K
    total = mp.mpf(0)
    for x in seq:
        total -= mp.log(predictive_mp(counts)[x])
        counts[x] += 1
    return total


def bound_mp(N, K):
    """Theorem 5 in mpmath, grouped as in Appendix C."""
    N = mp.mpf(N)
    if N == 0:
        return mp.mpf(0)
    return mp.fsum(N * mp.log1p(k / N) + k * mp.log1p(N / k) for k in range(1, K)) / K


def _step_term(counts) -> float:
    """log sum_k P_hat(prefix, k) - log P_hat(prefix), from the definition (floats)."""
    n = sum(counts)

    def log_ml(cs, m):
        return math.fsum(c * math.log(c / m) for c in cs if c)

    base = log_ml(counts, n) if n else 0.0
    ext = [log_ml([c + (j == k) for j, c in enumerate(counts)], n + 1) for k in range(len(counts))]
    top = max(ext)
    return top + math.log(math.fsum(math.exp(x - top) for x in ext)) - base


def worst_case_regret_enumerated(N, K):
    """max_D R(D) over all K**N sequences (depth-first over the prefix tree)."""
    best = [-math.inf, None]

    def dfs(counts, acc, seq):
        if len(seq) == N:
            if acc > best[0]:
                best[0], best[1] = acc, tuple(seq)
            return
        step = _step_term(counts)
        for k in range(K):
            counts[k] += 1
            seq.append(k)
            dfs(counts, acc + step, seq)
            seq.pop()
            counts[k] -= 1

    dfs([0] * K, 0.0, [])
    return best[0], best[1]


def worst_case_regret_dp(N, K):
    """max_D R(D) by dynamic programming over sorted count vectors.

    R(D) is the sum of _step_term over the visited count vectors c^0 = 0, ..., c^{N-1},
    a symmetric function of each, so paths between sorted vectors suffice.
    """
    level = {(0,) * K: 0.0}
    for _ in range(N):
        nxt = {}
        for c, v in level.items():
            val = v + _step_term(list(c))
            for k in range(K):
                d = list(c)
                d[k] += 1
                key = tuple(sorted(d, reverse=True))
                if val > nxt.get(key, -math.inf):
                    nxt[key] = val
        level = nxt
    return max(level.values())


def round_robin(N, K):
    return np.arange(N) % K


def split_by_parents(data, arities, parents):
    """Per-variable list of (child sequence in row order) for each parent configuration."""
    out = []
    for i, pa in enumerate(parents):
        config = np.zeros(data.shape[0], dtype=np.int64)
        for p in pa:
            config = config * arities[p] + data[:, p]
        out.append([data[config == j, i] for j in np.unique(config)])
    return out


# --------------------------------------------------------------------------------------
# fsnml_parameters against the definition
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("K", [2, 3, 4, 5])
def test_parameters_equal_definition_exact(K):
    rng = np.random.default_rng(RNG_SEED + K)
    worst = 0.0
    for _ in range(60):
        counts = [int(c) for c in rng.integers(0, 13, size=K)]
        if rng.random() < 0.3:
            counts[int(rng.integers(K))] = 0
        want = [float(p) for p in predictive_exact(counts)]
        got = fsnml_parameters(counts)
        worst = max(worst, float(np.max(np.abs(got / np.array(want) - 1.0))))
    assert worst < 2e-15, worst


@pytest.mark.parametrize("K", [2, 3, 5])
def test_parameters_equal_definition_large_counts(K):
    rng = np.random.default_rng(RNG_SEED + 10 * K)
    mp.mp.dps = 50
    for _ in range(15):
        counts = [int(c) for c in rng.integers(0, 10 ** int(rng.integers(2, 8)), size=K)]
        want = np.array([float(p) for p in predictive_mp(counts)])
        got = fsnml_parameters(np.array(counts, dtype=np.int64))
        np.testing.assert_allclose(got, want, rtol=3e-15, atol=0)
        # float input takes the direct (non-table) path: same numbers
        np.testing.assert_allclose(fsnml_parameters(np.array(counts, float)), want, rtol=3e-15)


@pytest.mark.parametrize("K", [2, 3, 4])
def test_parameters_along_random_sequences(K):
    """Predictive of the sequence's prefix, normalizing P_hat(prefix + k) over k."""
    rng = np.random.default_rng(RNG_SEED + 100 * K)
    for _ in range(5):
        seq = [int(v) for v in rng.integers(0, K, size=15)]
        for t in range(len(seq) + 1):
            counts = np.bincount(seq[:t], minlength=K)
            want = [float(p) for p in predictive_from_sequence(seq[:t], K)]
            np.testing.assert_allclose(fsnml_parameters(counts), want, rtol=2e-15, atol=0)


def test_parameters_closed_forms():
    np.testing.assert_allclose(fsnml_parameters([1, 0]), [0.8, 0.2], rtol=1e-15)
    np.testing.assert_array_equal(fsnml_parameters([0, 0, 0, 0]), np.full(4, 0.25))
    np.testing.assert_array_equal(fsnml_parameters([7]), [1.0])
    # equal counts -> uniform; more counts -> larger probability
    np.testing.assert_allclose(fsnml_parameters([5, 5, 5]), np.full(3, 1 / 3), rtol=1e-15)
    p = fsnml_parameters([0, 1, 2, 10, 2**40])
    assert np.all(np.diff(p) > 0)
    # weights (m+1) e(m) approach e (m + 1/2) from below
    big = fsnml_parameters([10**12, 0])
    assert big[1] == pytest.approx(1 / (math.e * (10**12 + 0.5) + 1), rel=1e-12)


def test_parameters_of_fractional_counts():
    """Expected counts (EM): weights (m + 1)(1 + 1/m)^m in mpmath, continuous at 0, the
    integral values unchanged; fractional counts refused unless asked for."""
    rng = np.random.default_rng(RNG_SEED + 7)
    mp.mp.dps = 40
    for _ in range(40):
        counts = rng.exponential(3.0, size=int(rng.integers(2, 6))) * (rng.random() < 0.9)
        counts[rng.random(len(counts)) < 0.2] = 0.0
        weights = [
            (mp.mpf(c) + 1) * (1 + 1 / mp.mpf(c)) ** mp.mpf(c) if c > 0 else mp.mpf(1)
            for c in counts
        ]
        want = np.array([float(w / mp.fsum(weights)) for w in weights])
        np.testing.assert_allclose(fsnml_parameters(counts, fractional=True), want, rtol=5e-15)
    table = rng.integers(0, 9, size=(6, 3))
    np.testing.assert_array_equal(
        fsnml_parameters(table.astype(float), fractional=True), fsnml_parameters(table)
    )
    tiny = fsnml_parameters([1e-12, 0.0], fractional=True)
    np.testing.assert_allclose(tiny, [0.5, 0.5], rtol=1e-10)  # e(m) -> 1 as m -> 0
    with pytest.raises(ValueError, match="non-negative integers"):
        fsnml_parameters([0.5, 1.0])
    with pytest.raises(ValueError, match="finite and non-negative"):
        fsnml_parameters([-0.5, 1.0], fractional=True)


def test_parameters_shapes():
    rng = np.random.default_rng(RNG_SEED)
    table = rng.integers(0, 9, size=(7, 3))
    table[2] = 0
    theta = fsnml_parameters(table)
    assert theta.shape == (7, 3) and theta.dtype == np.float64
    np.testing.assert_allclose(theta.sum(axis=1), 1.0, rtol=0, atol=4e-16)
    for j in range(7):
        np.testing.assert_array_equal(theta[j], fsnml_parameters(table[j]))
    np.testing.assert_array_equal(theta[2], np.full(3, 1 / 3))
    cube = rng.integers(0, 5, size=(2, 4, 5)).astype(np.uint8)
    out = fsnml_parameters(cube)
    assert out.shape == (2, 4, 5)
    np.testing.assert_array_equal(out[1, 2], fsnml_parameters(cube[1, 2].astype(int)))
    np.testing.assert_array_equal(fsnml_parameters(table.astype(float)), theta)
    assert fsnml_parameters(np.zeros((0, 3), dtype=int)).shape == (0, 3)
    # a large table takes the lookup path; same numbers as row by row
    big = rng.integers(0, 30, size=(5000, 4))
    np.testing.assert_array_equal(fsnml_parameters(big)[17], fsnml_parameters(big[17]))
    np.testing.assert_array_equal(fsnml_parameters(big), fsnml_parameters(big.astype(float)))
    np.testing.assert_allclose(fsnml_parameters(big).sum(axis=1), 1.0, rtol=0, atol=5e-16)


# --------------------------------------------------------------------------------------
# Code lengths and regret
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize("K", [2, 3, 4, 5])
def test_code_length_equals_sum_of_direct_predictives(K):
    rng = np.random.default_rng(RNG_SEED + 1000 * K)
    mp.mp.dps = 40
    for n in [1, 2, 5, 17, 40]:
        seq = [int(v) for v in rng.integers(0, K, size=n)]
        want = code_length_mp(seq, K)
        assert snml_code_length(seq, K) == pytest.approx(float(want), rel=1e-14)
        want_regret = log_ml_mp([seq.count(v) for v in range(K)]) + want
        assert snml_regret(seq, K) == pytest.approx(float(want_regret), rel=1e-13, abs=1e-15)


def test_code_length_matches_stepwise_fractions():
    seq = [0, 2, 2, 1, 0, 2, 2, 2]
    counts = [0, 0, 0]
    p = Fraction(1)
    for x in seq:
        p *= predictive_exact(counts)[x]
        counts[x] += 1
    assert snml_code_length(seq, 3) == pytest.approx(-math.log(p), rel=1e-15)
    assert snml_regret(seq, 3) == pytest.approx(math.log(ml_exact(counts) / p), rel=1e-14)


def test_long_sequence_accuracy():
    """A few thousand steps: every term is a small log1p, so nothing drifts."""
    mp.mp.dps = 30
    rng = np.random.default_rng(RNG_SEED)
    K = 3
    seq = [int(v) for v in rng.choice(K, size=3000, p=[0.6, 0.3, 0.1])]
    counts = [0] * K
    reg = mp.mpf(0)
    for x in seq:
        reg += mp.log(mp.fsum(mp.exp(t) for t in _ext_logs(counts)) / mp.exp(_mp_log_ml(counts)))
        counts[x] += 1
    assert snml_regret(seq, K) == pytest.approx(float(reg), rel=1e-14)
    code = reg - log_ml_mp(counts)
    assert snml_code_length(seq, K) == pytest.approx(float(code), rel=1e-14)


def _mp_log_ml(counts):
    return log_ml_mp(counts) if sum(counts) else mp.mpf(0)


def _ext_logs(counts):
    return [log_ml_mp([c + (j == k) for j, c in enumerate(counts)]) for k in range(len(counts))]


def test_regret_depends_on_order_but_ml_does_not():
    a = [0, 0, 0, 1, 1, 1]
    b = [0, 1, 0, 1, 0, 1]
    assert snml_regret(a, 2) < snml_regret(b, 2)
    # same counts, same log P_hat: the code lengths differ by the regret difference
    assert snml_code_length(b, 2) - snml_code_length(a, 2) == pytest.approx(
        snml_regret(b, 2) - snml_regret(a, 2), rel=1e-13
    )


def test_degenerate_sequences():
    assert snml_code_length([], 3) == 0.0 and snml_regret([], 3) == 0.0
    assert snml_code_length([0, 0, 0], 1) == 0.0
    assert snml_regret([2], 5) == pytest.approx(math.log(5), rel=1e-15)
    assert snml_code_length([2], 5) == pytest.approx(math.log(5), rel=1e-15)
    # integral floats, numpy and Python ints are all accepted
    seq = [0, 1, 1, 0, 2]
    ref = snml_code_length(seq, 3)
    assert snml_code_length(np.array(seq, dtype=float), 3) == ref
    assert snml_code_length(np.array(seq, dtype=np.uint8), np.int64(3)) == ref


def test_huge_K_relabelled():
    """K far above N: values are relabelled; compare with the definition (unseen
    values all have the same extended maximized likelihood, so group them)."""
    mp.mp.dps = 40
    K = 10**9
    seq = [5, 123456, 5, 999999999, 5]
    want = mp.mpf(0)
    counts: dict[int, int] = {}
    for x in seq:
        seen = list(counts.values())
        n = sum(seen)
        ext_seen = [log_ml_mp([c + (j == i) for j, c in enumerate(seen)]) for i in range(len(seen))]
        ext_new = log_ml_mp([*seen, 1])
        z = mp.fsum(mp.exp(v) for v in ext_seen) + (K - len(seen)) * mp.exp(ext_new)
        mine = ext_seen[list(counts).index(x)] if x in counts else ext_new
        want -= mine - mp.log(z)
        counts[x] = counts.get(x, 0) + 1
        assert n + 1 == sum(counts.values())
    assert snml_code_length(seq, K) == pytest.approx(float(want), rel=1e-14)
    assert snml_code_length([3, 70000], 70001) == pytest.approx(
        math.log(70001) + math.log(70004), rel=1e-14
    )


def test_gt_table_accuracy():
    mp.mp.dps = 40
    table = snml._gt_table(2_000_000)
    for c in [0, 1, 2, 7, 63, 64, 65, 66, 100, 12345, 2_000_000]:
        g = (c + 1) * (mp.e - (mp.mpf(c + 1) / c) ** c) if c else mp.e - 1
        want = g - (mp.e - 1)
        assert table[c] == pytest.approx(float(want), rel=2e-15, abs=1e-300)


def test_grouped_code_length_is_sum_over_groups():
    rng = np.random.default_rng(RNG_SEED)
    n = 400
    seq = rng.integers(0, 3, size=n)
    groups = rng.choice([0, 4, 9, 10**12], size=n, p=[0.5, 0.3, 0.15, 0.05])
    want = math.fsum(snml_code_length(seq[groups == g], 3) for g in np.unique(groups))
    assert fsnml_code_length_grouped(groups, seq, 3) == pytest.approx(want, rel=1e-14)
    assert fsnml_code_length_grouped(np.zeros(n, int), seq, 3) == pytest.approx(
        snml_code_length(seq, 3), rel=1e-14
    )
    # every row its own group: each costs log K
    assert fsnml_code_length_grouped(np.arange(n), seq, 3) == pytest.approx(n * math.log(3))
    assert fsnml_code_length_grouped([], [], 3) == 0.0


# --------------------------------------------------------------------------------------
# Theorems 4 and 5: univariate regret bounds
# --------------------------------------------------------------------------------------
ENUMERATION = [(2, 10), (3, 7), (4, 5)]


@pytest.mark.parametrize(("K", "n_max"), ENUMERATION)
def test_bound_holds_for_all_sequences(K, n_max):
    """Every sequence of every length N <= n_max: R(D) <= bound; max attained by round robin."""
    for N in range(1, n_max + 1):
        regrets = [snml_regret(seq, K) for seq in itertools.product(range(K), repeat=N)]
        worst = max(regrets)
        bound = snml_regret_bound(N, K)
        assert worst <= bound + 1e-12, (N, K, worst, bound)
        assert worst == pytest.approx(snml_regret(round_robin(N, K), K), rel=1e-14)
        if K == 2:
            assert worst <= snml_regret_bound_bernoulli(N)
        assert worst <= snml_regret_bound(N, K, relaxed=True)


@pytest.mark.parametrize(("K", "N"), [(2, 8), (3, 6), (4, 4)])
def test_worst_case_enumeration_reference(K, N):
    """The test helper (enumeration from the definition) agrees with the implementation."""
    worst, arg = worst_case_regret_enumerated(N, K)
    assert worst == pytest.approx(snml_regret(list(arg), K), rel=1e-13)
    assert worst == pytest.approx(snml_regret(round_robin(N, K), K), rel=1e-13)
    assert worst == pytest.approx(worst_case_regret_dp(N, K), rel=1e-13)


@pytest.mark.parametrize(("K", "N"), [(2, 60), (3, 25), (4, 12)])
def test_round_robin_is_the_worst_case_beyond_enumeration(K, N):
    assert worst_case_regret_dp(N, K) == pytest.approx(snml_regret(round_robin(N, K), K), rel=1e-13)


@pytest.mark.parametrize("K", [2, 3, 4, 5, 8])
def test_bound_tightness_claim(K):
    """Sec. 4.3 says the proof of Theorem 5 "shows that the bound is tight".

    What is true: the bound equals the worst-case regret (log K) at N = 1 only; for
    N >= 2 the worst case (round robin) is strictly below it, and the gap increases
    to a positive constant (it is tight up to O(1), and in ratio as N -> oo, but never
    attained).
    """
    assert snml_regret_bound(1, K) == pytest.approx(math.log(K), rel=1e-15)
    assert snml_regret(round_robin(1, K), K) == pytest.approx(math.log(K), rel=1e-15)
    gaps = [
        snml_regret_bound(N, K) - snml_regret(round_robin(N, K), K)
        for N in [2, 10, 100, 1000, 10_000, 100_000]
    ]
    assert gaps[0] > 0.03
    assert np.all(np.diff(gaps) > -1e-12)  # non-decreasing
    assert abs(gaps[-1] - gaps[-2]) < 1e-8  # converged
    bound = snml_regret_bound(100_000, K)
    assert gaps[-1] / bound < 0.01
    if K == 2:
        assert gaps[-1] == pytest.approx(0.0394694, abs=1e-6)
        assert gaps[0] == pytest.approx(math.log(4 * 1.5**1.5 / math.sqrt(0.5) / 5 / 2), rel=1e-9)


def test_bound_grouping_matches_appendix_product():
    """The bound is log prod_k ((N+k)/N)^(N/K) ((N+k)/k)^(k/K) (last line of Appendix C),
    i.e. the 1/K multiplies both terms of the sum; and the product telescopes from
    prod_n (n-1)^(n-1)/n^n (n+K-1) e((n-1)/K)."""
    mp.mp.dps = 40
    for K in [2, 3, 5]:
        for N in [1, 2, 3, 7, 20]:
            tele = mp.fsum(
                ((n - 1) * mp.log(n - 1) if n > 1 else 0)
                - n * mp.log(n)
                + mp.log(n + K - 1)
                + (((n - 1) / mp.mpf(K)) * mp.log(1 + K / mp.mpf(n - 1)) if n > 1 else 0)
                for n in range(1, N + 1)
            )
            assert snml_regret_bound(N, K) == pytest.approx(float(tele), rel=1e-14)
            assert snml_regret_bound(N, K) == pytest.approx(float(bound_mp(N, K)), rel=1e-14)
            # the other reading, 1/K only on the first term, is a different number
            other = sum(N * math.log1p(k / N) / K + k * math.log1p(N / k) for k in range(1, K))
            assert abs(other - snml_regret_bound(N, K)) > 0.1


def test_bound_values_and_real_N():
    mp.mp.dps = 40
    for K in [1, 2, 3, 7, 40]:
        assert snml_regret_bound(0, K) == 0.0
        for N in [1e-300, 1e-20, 0.37, 1, 2.5, 100, 1e6, 1e15]:
            assert snml_regret_bound(N, K) == pytest.approx(float(bound_mp(N, K)), rel=2e-14)
    np.testing.assert_allclose(
        snml_regret_bound([[0, 1], [2.5, 100]], 3),
        [[0.0, math.log(3)], [float(bound_mp(2.5, 3)), float(bound_mp(100, 3))]],
        rtol=1e-14,
    )


def test_relaxed_bound_and_theorem_4():
    Ns = np.concatenate([[0.0], np.logspace(-3, 9, 60)])
    for K in [1, 2, 3, 4, 6, 10, 50]:
        tight = snml_regret_bound(Ns, K)
        relaxed = snml_regret_bound(Ns, K, relaxed=True)
        assert np.all(relaxed >= tight - 1e-12 * np.abs(tight))
        for N in [0.5, 3, 1000]:
            km1 = K - 1
            want = km1 * (km1 / K * math.log(N / max(km1, 1) + 1) + 0.5) if K > 1 else 0.0
            assert snml_regret_bound(N, K, relaxed=True) == pytest.approx(want, rel=1e-14)
    np.testing.assert_allclose(
        snml_regret_bound(Ns, 2, relaxed=True), snml_regret_bound_bernoulli(Ns), rtol=1e-15
    )
    assert snml_regret_bound_bernoulli(0) == 0.5
    assert snml_regret_bound_bernoulli(99) == pytest.approx(0.5 * math.log(100) + 0.5)


def test_theorem_4_on_random_and_adversarial_binary_sequences():
    rng = np.random.default_rng(RNG_SEED)
    for N in [1, 2, 5, 50, 500, 5000]:
        for p in [0.5, 0.1, 0.01]:
            seq = (rng.random(N) < p).astype(int)
            assert snml_regret(seq, 2) <= snml_regret_bound_bernoulli(N)
            assert snml_regret(seq, 2) <= snml_regret_bound(N, 2)
        assert snml_regret(round_robin(N, 2), 2) <= snml_regret_bound(N, 2)


@pytest.mark.parametrize("K", [2, 3, 5, 10])
def test_bound_on_random_sequences(K):
    rng = np.random.default_rng(RNG_SEED + K)
    for N in [3, 30, 300, 3000]:
        for alpha in [0.1, 1.0, 10.0]:
            seq = rng.choice(K, size=N, p=rng.dirichlet(np.full(K, alpha)))
            assert snml_regret(seq, K) <= snml_regret_bound(N, K)
        assert snml_regret(round_robin(N, K), K) <= snml_regret_bound(N, K)


def test_bound_is_increasing_and_concave_in_N():
    """Sec. 4.3 calls it "convex"; the proof of Theorem 6 needs (and has) concavity."""
    N = np.linspace(0, 60, 601)
    for K in [2, 3, 6]:
        b = snml_regret_bound(N, K)
        assert np.all(np.diff(b) > 0)
        assert np.all(np.diff(b, 2) < 1e-12)


# --------------------------------------------------------------------------------------
# Theorem 6: fsNML on networks
# --------------------------------------------------------------------------------------
ARITIES = [2, 3, 2, 4, 3, 2]
PARENTS = [[], [0], [0, 1], [1, 2], [0, 2, 3], [0, 1, 2, 3, 4]]  # q = 1, 2, 6, 6, 16, 144


def _q(arities, parents):
    return [math.prod(arities[p] for p in pa) for pa in parents]


def _network_regret(data, arities, parents):
    return math.fsum(
        snml_regret(sub, arities[i])
        for i, subs in enumerate(split_by_parents(data, arities, parents))
        for sub in subs
    )


def _sample(rng, n, arities, parents, alpha):
    """Forward-sample a random network with Dirichlet(alpha) CPTs."""
    data = np.zeros((n, len(arities)), dtype=np.int64)
    for i, pa in enumerate(parents):
        config = np.zeros(n, dtype=np.int64)
        for p in pa:
            config = config * arities[p] + data[:, p]
        q = math.prod(arities[p] for p in pa)
        cpt = rng.dirichlet(np.full(arities[i], alpha), size=q)
        u = rng.random(n)[:, None]
        data[:, i] = (u > np.cumsum(cpt[config], axis=1)).sum(axis=1).clip(max=arities[i] - 1)
    return data


@pytest.mark.parametrize("n", [1, 7, 60, 400])
def test_theorem_6_on_random_networks(n):
    rng = np.random.default_rng(RNG_SEED + n)
    q = _q(ARITIES, PARENTS)
    bound = fsnml_regret_bound(ARITIES, q, n)
    for alpha in [0.05, 1.0, 50.0]:
        data = _sample(rng, n, ARITIES, PARENTS, alpha)
        assert _network_regret(data, ARITIES, PARENTS) <= bound
        uniform = rng.integers(0, ARITIES, size=(n, len(ARITIES)))
        assert _network_regret(uniform, ARITIES, PARENTS) <= bound


def test_theorem_6_adversarial_balanced_data():
    """Every parent configuration N/q times, child values round robin within each."""
    arities, parents = [3, 2], [[], [0]]
    n = 60
    x0 = np.arange(n) % 3
    x1 = np.zeros(n, dtype=np.int64)
    for j in range(3):
        rows = np.flatnonzero(x0 == j)
        x1[rows] = np.arange(rows.size) % 2
    data = np.column_stack([x0, x1])
    regret = _network_regret(data, arities, parents)
    bound = fsnml_regret_bound(arities, [1, 3], n)
    assert regret <= bound
    assert regret == pytest.approx(
        snml_regret(round_robin(60, 3), 3) + 3 * snml_regret(round_robin(20, 2), 2), rel=1e-14
    )
    assert bound - regret < 0.0815 + 3 * 0.0395  # within the per-family tightness gaps


def test_fsnml_code_length_row_and_column_order_agree():
    """Fig. 1: fsNML normalizes entry by entry; coding rows one after another with the
    fsNML parameters of the data so far gives the per-family sNML code lengths."""
    rng = np.random.default_rng(RNG_SEED)
    n = 80
    data = _sample(rng, n, ARITIES, PARENTS, 0.5)
    q = _q(ARITIES, PARENTS)
    tables = [np.zeros((qi, r), dtype=np.int64) for qi, r in zip(q, ARITIES, strict=True)]
    row_order = 0.0
    for row in data:
        for i, pa in enumerate(PARENTS):
            j = 0
            for p in pa:
                j = j * ARITIES[p] + row[p]
            row_order -= math.log(fsnml_parameters(tables[i][j])[row[i]])
            tables[i][j, row[i]] += 1
    by_family = math.fsum(
        snml_code_length(sub, ARITIES[i])
        for i, subs in enumerate(split_by_parents(data, ARITIES, PARENTS))
        for sub in subs
    )
    assert row_order == pytest.approx(by_family, rel=1e-13)
    grouped = 0.0
    for i, pa in enumerate(PARENTS):
        config = np.zeros(n, dtype=np.int64)
        for p in pa:
            config = config * ARITIES[p] + data[:, p]
        grouped += fsnml_code_length_grouped(config, data[:, i], ARITIES[i])
    assert grouped == pytest.approx(by_family, rel=1e-13)
    # regret = code length + log P_hat(D | G), bounded by Theorem 6
    log_ml = 0.0
    for t in tables:
        nj = t.sum(axis=1, keepdims=True)
        pos = t > 0
        log_ml += float(np.sum(t[pos] * np.log(t[pos] / np.broadcast_to(nj, t.shape)[pos])))
    assert by_family + log_ml == pytest.approx(_network_regret(data, ARITIES, PARENTS), rel=1e-12)
    assert by_family + log_ml <= fsnml_regret_bound(ARITIES, q, n)


def test_fsnml_regret_bound_values():
    mp.mp.dps = 60

    def ref(r, q, n):
        x = mp.mpf(n) / q
        return q * bound_mp(x, r)

    for r, q, n in [
        (2, 1, 100),
        (3, 2, 100),
        (3, 7, 5),
        (4, 10**5, 30),
        (3, 10**275, 10),
        (3, 10**285, 10),
        (5, 2**1023, 1000),
        (2, 2**3000, 10),
        (3, 3**5000, 2.5),
    ]:
        got = fsnml_regret_bound([r], [q], n)
        assert got == pytest.approx(float(ref(r, q, n)), rel=1e-13), (r, q)
    assert fsnml_regret_bound([2, 3], [1, 2], 100) == pytest.approx(
        snml_regret_bound(100, 2) + 2 * snml_regret_bound(50, 3), rel=1e-15
    )
    assert fsnml_regret_bound([2, 3], [4, 5], 0) == 0.0
    assert fsnml_regret_bound([1, 1], [3, 10**400], 50) == 0.0
    assert fsnml_regret_bound(3, 1, 10) == pytest.approx(snml_regret_bound(10, 3), rel=1e-15)
    assert fsnml_regret_bound(np.array([2, 3]), np.array([1, 2]), np.int64(100)) == (
        fsnml_regret_bound([2, 3], [1, 2], 100)
    )
    # increasing in q (more parent configurations, more regret)
    vals = [fsnml_regret_bound([3], [q], 100) for q in [1, 2, 10, 100, 10**4, 10**30, 10**400]]
    assert np.all(np.diff(vals) > 0)


# --------------------------------------------------------------------------------------
# Input validation
# --------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("call", "exc", "match"),
    [
        (lambda: fsnml_parameters([1, -2]), ValueError, r"non-negative integers, found -2"),
        (lambda: fsnml_parameters([1.5, 2]), ValueError, r"found 1\.5 at index \(0,\)"),
        (lambda: fsnml_parameters([np.nan, 2]), ValueError, r"found nan"),
        (lambda: fsnml_parameters([[1, 2], [3, np.inf]]), ValueError, r"index \(1, 1\)"),
        (lambda: fsnml_parameters([True, False]), TypeError, r"boolean"),
        (lambda: fsnml_parameters(["a", "b"]), TypeError, r"non-negative integers"),
        (lambda: fsnml_parameters(3), ValueError, r"at least one dimension"),
        (lambda: fsnml_parameters(np.zeros((2, 0))), ValueError, r"last axis"),
        (lambda: fsnml_parameters([[1, 2], [3]]), TypeError, r"array-like"),
        (lambda: snml_code_length([0, 3], 3), ValueError, r"0\.\.2 \(K = 3\), found 3 at pos"),
        (lambda: snml_regret([0, -1], 3), ValueError, r"found -1 at position 1"),
        (lambda: snml_regret([0, 1.5], 3), ValueError, r"found 1\.5 at position 1"),
        (lambda: snml_regret([[0, 1]], 3), ValueError, r"one-dimensional"),
        (lambda: snml_regret([True], 3), TypeError, r"boolean"),
        (lambda: snml_regret(["x"], 3), TypeError, r"integers"),
        (lambda: snml_regret([0], 0), ValueError, r"K must be an integer >= 1, got 0"),
        (lambda: snml_regret([0], 2.5), ValueError, r"K must be an integer >= 1, got 2\.5"),
        (lambda: snml_regret([0], True), TypeError, r"K must be .* boolean"),
        (lambda: snml_regret([0], "2"), TypeError, r"type str"),
        (lambda: snml_code_length([0, 10**30], 5), ValueError, r"found 10{30} at position 1"),
        (lambda: fsnml_code_length_grouped([0], [0, 1], 2), ValueError, r"same length, got 1"),
        (lambda: fsnml_code_length_grouped([0, -4], [0, 1], 2), ValueError, r"found -4 at"),
        (lambda: fsnml_code_length_grouped([0, 1], [0, 2], 2), ValueError, r"found 2 at"),
        (lambda: snml_regret_bound(-1, 2), ValueError, r"N must be a finite non-negative"),
        (lambda: snml_regret_bound(np.inf, 2), ValueError, r"got inf"),
        (lambda: snml_regret_bound([1, np.nan], 2), ValueError, r"found nan"),
        (lambda: snml_regret_bound(3, 0), ValueError, r"K must be an integer >= 1, got 0"),
        (lambda: snml_regret_bound(3, 2, relaxed="yes"), TypeError, r"relaxed must be a bool"),
        (lambda: snml_regret_bound("3", 2), TypeError, r"N must be a non-negative real"),
        (lambda: snml_regret_bound_bernoulli(-0.5), ValueError, r"got -0\.5"),
        (lambda: snml_regret_bound_bernoulli(True), TypeError, r"boolean"),
        (lambda: fsnml_regret_bound([2, 3], [1], 10), ValueError, r"same length, got 2 and 1"),
        (lambda: fsnml_regret_bound([2, 0], [1, 1], 10), ValueError, r"arities\[1\] .* got 0"),
        (
            lambda: fsnml_regret_bound([2], [2.5], 10),
            ValueError,
            r"parent_configurations\[0\] must be an integer >= 1, got 2\.5",
        ),
        (lambda: fsnml_regret_bound([2], [1], -3), ValueError, r"N must be .* got -3"),
        (lambda: fsnml_regret_bound([[2]], [1], 3), ValueError, r"one-dimensional"),
    ],
)
def test_input_validation(call, exc, match):
    with pytest.raises(exc, match=match):
        call()
