"""Root pricing (:mod:`pgmpy_nml.search.candidates._pricing`) against brute force.

The bound and the fixing are promises: a bound below a network that exists, or a family
dropped from a network above the first one, is a false proof. On many random candidate
tables (3-6 variables, with planted classes of interchangeable variables), against every
variable order enumerated:

- for random clusters and random multipliers, ``L(y)`` is never below the best network,
  and no family's bound is below the best network that contains it;
- root pricing's bound is never below the best network; its fixing keeps every family of
  every network above the first one; once it has priced every family in (with no cut
  purged from its LP), its bound is the LP relaxation over every family and its cuts
  (HiGHS, by SciPy), also when it purged columns, and it is never below that LP's value
  over the cuts it returns;
- purging the restricted LP's idle columns keeps its optimum, and it stays feasible
  whatever clusters are added after;
- the solver that prices at its root proves the optimum the brute force finds.
"""

import itertools
import math
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog
from test_symmetry import symmetric_tables

from pgmpy_nml.search.candidates import _pricing, _solver
from pgmpy_nml.search.candidates._families import _checked_families
from pgmpy_nml.search.candidates._heuristics import _greedy, _improve

TOL = 1e-7

#: A purge age no run reaches: cuts never leave the LP.
NEVER = 10**9


def _in_order_bests(cands, classes):
    """``(best, per_family)``, relative to the trivial bound: the best network whose
    graph, with each class's members in increasing order, is acyclic, and per family
    (flat, in the candidates' order) the best such network that contains it (``-inf``
    when none does). By every variable order: a network is acyclic with the precedence
    arcs exactly when some order puts every parent, and every member before in a
    class, before its child."""
    n = cands.n_variables
    best_of = [float(s[0]) for s in cands.scores]
    sets = [[frozenset(p) for p in cands.parent_sets[v]] for v in range(n)]
    loss = [np.asarray(cands.scores[v], dtype=float) - best_of[v] for v in range(n)]
    before = {}
    for members in classes:
        for a, b in itertools.pairwise(sorted(members)):
            before[b] = a
    per_family = [np.full(len(sets[v]), -np.inf) for v in range(n)]
    best = -np.inf
    for order in itertools.permutations(range(n)):
        position = {v: k for k, v in enumerate(order)}
        if any(position[before[b]] > position[b] for b in before):
            continue
        allowed = [
            np.array([all(position[u] < position[v] for u in p) for p in sets[v]]) for v in range(n)
        ]
        top = [float(np.max(np.where(allowed[v], loss[v], -np.inf))) for v in range(n)]
        total = math.fsum(top)
        best = max(best, total)
        for v in range(n):
            others = total - top[v]
            here = np.where(allowed[v], loss[v] + others, -np.inf)
            per_family[v] = np.maximum(per_family[v], here)
    return best, np.concatenate(per_family)


@st.composite
def clusters_and_multipliers(draw, n):
    k = draw(st.integers(0, 8))
    cuts, y = [], []
    for _ in range(k):
        size = draw(st.integers(2, n))
        cuts.append(sorted(draw(st.permutations(range(n)))[:size]))
        y.append(draw(st.sampled_from([0.0, 0.0, 1.0, 5.0, 30.0, 200.0])) * draw(st.floats(0, 1)))
    return cuts, y


@pytest.mark.long
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=symmetric_tables(), data=st.data())
def test_the_lagrangian_bound_is_never_below_a_network_and_nor_is_a_familys(table, data):
    cands, _, _ = table
    fam = _checked_families(cands)
    cuts, y = data.draw(clusters_and_multipliers(fam.n))
    best, per_family = _in_order_bests(cands, fam.classes)
    bound, adjusted, top = _pricing.lagrangian(fam, cuts, y)
    assert bound >= best - TOL
    bounds = _pricing.family_bounds(fam, bound, adjusted, top)
    reachable = np.isfinite(per_family)
    assert np.all(bounds[reachable] >= per_family[reachable] - TOL)
    # y = 0: each variable's best family that no later member of its class is a parent
    # of, and each family's bound its loss plus the other variables' best
    zero, adjusted0, top0 = _pricing.lagrangian(fam, cuts, np.zeros(len(cuts)))
    later = {v: set(c[k + 1 :]) for c in fam.classes for k, v in enumerate(c)}
    own = np.array(
        [
            max(
                s - cands.scores[v][0]
                for p, s in zip(cands.parent_sets[v], cands.scores[v], strict=True)
                if not later.get(v, set()) & set(p)
            )
            for v in range(fam.n)
        ]
    )
    assert zero == pytest.approx(math.fsum(own), abs=TOL)
    finite = np.isfinite(adjusted0)
    expected = fam.loss + math.fsum(own) - own[fam.child]
    assert np.allclose(_pricing.family_bounds(fam, zero, adjusted0, top0)[finite], expected[finite])
    assert np.array_equal(finite, ~fam.out_of_order())


def _lp_value(fam, cuts):
    """The LP relaxation over every family (in order) and the clusters ``cuts``."""
    out = fam.out_of_order()
    rows, rhs = [], []
    for cluster in cuts:
        inside = np.zeros(fam.n, dtype=bool)
        inside[cluster] = True
        avoid = np.array(
            [
                inside[fam.child[f]] and not any(inside[u] for u in fam.preds[f])
                for f in range(len(fam))
            ]
        )
        rows.append(-avoid.astype(float))
        rhs.append(-1.0)
    eq = np.zeros((fam.n, len(fam)))
    eq[fam.child, np.arange(len(fam))] = 1.0
    bounds = [(0.0, 0.0 if out[f] else 1.0) for f in range(len(fam))]
    res = linprog(
        -fam.loss,
        A_ub=np.array(rows) if rows else None,
        b_ub=np.array(rhs) if rhs else None,
        A_eq=eq,
        b_eq=np.ones(fam.n),
        bounds=bounds,
        method="highs",
    )
    assert res.status == 0
    return -res.fun


@pytest.mark.long
@pytest.mark.parametrize(
    "first_top, small, top, every, ratio, purge_every, purge_age, purge_times, columns, stall, "
    "sub_ip, local",
    [
        (30, 1, 200, 10.0, 0.5, 5, 5, 3, 5, True, 0.25, True),
        (1, 0, 1, 0.0, 0.0, 1, 1, 3, 1, True, 0.25, True),
        (2, -1, 1, 0.0, 1e9, 0, 0, 0, 0, False, 1.0, False),
        (1, 0, 1, 0.0, 1e9, 1, 1, 2, 0, False, 0.25, True),
        (1, 1, 2, 0.0, 0.5, 2, 1, 1, 2, True, 0.25, False),
        (9, 2, 9, 0.0, 1e9, 1, NEVER, 3, 1, False, 0.25, True),
        # a sub-IP cut off before it finds anything: the bound holds on the greedy cuts
        (30, 1, 200, 0.0, 1.0, 0, 0, 0, 0, True, 1e-4, False),
        (30, 1, 200, 0.0, 1.0, 0, 0, 0, 0, True, 1e-4, True),
    ],
)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=symmetric_tables())
def test_root_pricing_bounds_every_network_and_keeps_every_better_one(
    table,
    first_top,
    small,
    top,
    every,
    ratio,
    purge_every,
    purge_age,
    purge_times,
    columns,
    stall,
    sub_ip,
    local,
):
    cands, _, _ = table
    fam = _checked_families(cands)
    first = _improve(fam, _greedy(fam))
    best, per_family = _in_order_bests(cands, fam.classes)
    priced = _pricing.root_pricing(
        fam,
        first,
        top=top,
        first_top=first_top,
        small=small,
        evaluate_every=every,
        price_ratio=ratio,
        purge_every=purge_every,
        purge_age=purge_age,
        purge_times=purge_times,
        purge_columns=columns,
        price_on_stall=stall,
        sub_ip_seconds=sub_ip,
        local_search=local,
    )
    event(f"columns dropped: {min(priced.columns_dropped, 1)}, converged: {priced.converged}")
    incumbent = math.fsum(fam.loss[first])
    assert priced.incumbent == incumbent
    assert best - TOL <= priced.bound <= 0.0 + TOL
    assert priced.bound >= incumbent
    # fixing: a family in a network above the first one is kept
    assert np.all(priced.kept[per_family > incumbent + TOL])
    assert np.all(priced.kept[first])
    value = _lp_value(fam, priced.cuts)
    assert value <= priced.bound + TOL  # weak duality, whatever the cuts
    if priced.converged and not (purge_every and purge_age < NEVER):
        # and equal to it, up to the LP solver's tolerances (its duals' reduced costs):
        # with SoPlex, 1.4e-6 at most over 1,500 random tables, on values of 10-100 (with
        # cuts purged, the best multipliers may be those of an earlier LP, whose cuts were
        # not all the last's; the last row purges columns at every round and cuts never:
        # the bound is the LP's over every family whatever columns left)
        assert priced.bound - _pricing._margin(fam) <= value + 1e-6 * (1 + abs(value))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=symmetric_tables(), data=st.data())
def test_purging_columns_keeps_the_optimum_and_the_lp_feasible(table, data):
    """Columns at 0 outside the basis leave the restricted LP: its optimum is unchanged,
    its column bookkeeping matches HiGHS's, and with the families without parents kept,
    it stays feasible whatever clusters are added after."""
    cands, _, _ = table
    fam = _checked_families(cands)
    lp = _pricing._RestrictedLP(fam)
    lp.add_families(np.flatnonzero(np.isfinite(_pricing._values(fam))))
    cuts, _ = data.draw(clusters_and_multipliers(fam.n))
    lp.add_cuts(cuts)
    optimal, value, x, _ = lp.solve(None)
    assert optimal
    before = lp.cols.copy()
    lp.purge_columns(age=1, times=3)
    dropped = np.setdiff1d(before, lp.cols)
    event(f"dropped: {min(dropped.size, 1)}")
    assert lp.lp.getNumCol() == lp.cols.size
    assert np.array_equal(lp.column[lp.cols], np.arange(lp.cols.size))
    assert np.all(lp.column[dropped] == -1)
    assert np.all(x[dropped] == 0.0)
    assert all(len(fam.parents[f]) > 0 for f in dropped)
    optimal, again, _, _ = lp.solve(None)
    assert optimal and again == pytest.approx(value, abs=1e-6 * (1 + abs(value)))
    more, _ = data.draw(clusters_and_multipliers(fam.n))
    lp.add_cuts(more)
    optimal, _, x, _ = lp.solve(None)
    assert optimal
    # the LP's solution satisfies every cluster with the families in it
    for cluster in cuts + more:
        _, avoiding = _pricing._cluster_families(fam, cluster)
        assert avoiding.size == 0 or x[avoiding].sum() >= 1 - 1e-6
    lp.add_families(dropped)  # they come back, each at the end
    assert lp.lp.getNumCol() == lp.cols.size == before.size


@pytest.mark.long
@pytest.mark.parametrize("seconds", [None, 0.0])
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=symmetric_tables())
def test_the_solver_that_prices_its_root_proves_the_optimum(table, seconds):
    """All candidates priced (the threshold at 0): with no time limit the optimum and its
    proof; with no time at all for pricing, a sound bound."""
    cands, _, _ = table
    fam = _checked_families(cands)
    best, _ = _in_order_bests(cands, fam.classes)
    best += math.fsum(fam.best)
    with pytest.MonkeyPatch.context() as patch:  # not beyond this test
        patch.setattr(_pricing, "PRICING_MIN_CANDIDATES", 0)
        result = _solver._solve(
            cands, None, seconds, 0.0, 1, False, bound_first=True, memory_share=None
        )
    assert result.bound >= best - 1e-6
    assert result.score <= best + 1e-6
    assert result.bound >= result.score
    if seconds is None:
        assert result.optimal and result.score == pytest.approx(best, abs=1e-6)
        assert "root pricing" in result.timings


def test_root_pricing_writes_nothing_to_the_terminal():
    """HiGHS, which solves the restricted LP, writes its banner to the C stdout the
    first time a process logs with output on; root pricing keeps it off from the start.
    A fresh process, since the banner is written once per process."""
    code = """
import numpy as np
from pgmpy_nml import FNML
from pgmpy_nml.search.candidates import candidate_parent_sets
from pgmpy_nml.search.candidates._families import _checked_families
from pgmpy_nml.search.candidates._heuristics import _greedy, _improve
from pgmpy_nml.search.candidates._pricing import root_pricing
import pandas as pd
rng = np.random.default_rng(0)
data = pd.DataFrame(rng.integers(0, 2, size=(200, 6)), columns=list("abcdef"))
fam = _checked_families(candidate_parent_sets(FNML(data), max_parents=2)[0])
priced = root_pricing(fam, _improve(fam, _greedy(fam)))
assert priced.rounds > 0
"""
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "" and result.stderr == ""


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=symmetric_tables(), above=st.booleans())
def test_the_bound_first_solver_prices_from_enough_candidates_per_variable(table, above):
    """With the total's threshold out of reach, the root is priced exactly when the
    candidates per variable reach :data:`PRICING_MIN_PER_VARIABLE`; the optimum either
    way."""
    cands, _, _ = table
    fam = _checked_families(cands)
    best, _ = _in_order_bests(cands, fam.classes)
    best += math.fsum(fam.best)
    # the largest threshold the table reaches (at least 1: every variable has the empty set)
    reached = len(fam) // fam.n
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_pricing, "PRICING_MIN_CANDIDATES", len(fam) + 1)
        patch.setattr(_pricing, "PRICING_MIN_CANDIDATES_MANY", len(fam) + 1)
        patch.setattr(_pricing, "PRICING_MIN_PER_VARIABLE", reached if above else reached + 1)
        assert _pricing.prices_root(len(fam), fam.n) == above
        result = _solver._solve(cands, None, None, 0.0, 1, False, bound_first=True)
    assert ("root pricing" in result.timings) == above
    assert result.optimal and result.score == pytest.approx(best, abs=1e-6)


@settings(max_examples=300, deadline=None)
@given(
    n_candidates=st.integers(1, 2_000_000),
    n_variables=st.integers(1, 1_000),
    thresholds=st.tuples(*(st.integers(1, 1_000_000) for _ in range(4))),
)
def test_the_pricing_rule_is_the_documented_one(n_candidates, n_variables, thresholds):
    """:func:`prices_root` against its definition, spelt out: every candidate count from
    ``PRICING_MIN_CANDIDATES_MANY`` on; else, on at most ``PRICING_MAX_VARIABLES``
    variables, from ``PRICING_MIN_CANDIDATES`` or ``PRICING_MIN_PER_VARIABLE`` per
    variable on."""
    many, max_variables, total, per_variable = thresholds
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_pricing, "PRICING_MIN_CANDIDATES_MANY", many)
        patch.setattr(_pricing, "PRICING_MAX_VARIABLES", max_variables)
        patch.setattr(_pricing, "PRICING_MIN_CANDIDATES", total)
        patch.setattr(_pricing, "PRICING_MIN_PER_VARIABLE", per_variable)
        got = _pricing.prices_root(n_candidates, n_variables)
    few_enough = n_variables <= max_variables
    expected = n_candidates >= many or (
        few_enough and (n_candidates >= total or n_candidates / n_variables >= per_variable)
    )
    assert got == expected


def test_the_suites_instances_price_as_measured():
    """The tuning rows the rule was chosen on (``benchmarks/README.md``): andes (223
    variables) unpriced at 10,393 and 237,643 candidates, nips (500) priced at 715,899,
    plants, pathfinder and digits priced, hailfinder N = 5000 BDeu(10) not."""
    assert not _pricing.prices_root(10_393, 223)
    assert not _pricing.prices_root(237_643, 223)
    assert _pricing.prices_root(715_899, 500)
    assert _pricing.prices_root(147_358, 69)
    assert _pricing.prices_root(158_830, 109)
    assert _pricing.prices_root(12_272, 109)
    assert _pricing.prices_root(28_563, 54)
    assert not _pricing.prices_root(3_573, 56)


@settings(max_examples=100, deadline=None)
@given(table=symmetric_tables(), data=st.data())
def test_the_families_of_a_cluster_among_some_are_those_of_all_they_hold(table, data):
    from pgmpy_nml.search.candidates._clusters import _cluster_families

    fam = _checked_families(table[0])
    cluster = sorted(data.draw(st.permutations(range(fam.n)))[: data.draw(st.integers(1, fam.n))])
    among = np.flatnonzero(data.draw(st.lists(st.booleans(), min_size=len(fam), max_size=len(fam))))
    inner, outer = _cluster_families(fam, cluster)
    some_inner, some_outer = _cluster_families(fam, cluster, among=among)
    assert np.array_equal(some_inner, np.intersect1d(inner, among))
    assert np.array_equal(some_outer, np.intersect1d(outer, among))
    for f in some_outer:  # by the definition: its child inside, no pred inside
        assert fam.child[f] in cluster and not set(fam.preds[f]) & set(cluster)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=symmetric_tables(), kept_too_many=st.booleans())
def test_a_model_too_large_for_the_memory_is_priced_instead(table, kept_too_many):
    """The first solver (SCIP's defaults) over candidates whose model would not fit in the
    memory prices its root first, like the bound-first one: the optimum and its proof when
    the kept families fit; when they do not either, a sound bound and status
    ``"memorylimit"`` (the network the order search found)."""
    cands, _, _ = table
    fam = _checked_families(cands)
    best, _ = _in_order_bests(cands, fam.classes)
    best += math.fsum(fam.best)

    calls = []

    def limit(n, time_limit, share):  # every candidate (the first call): too many; the
        calls.append(n)  # families pricing kept (later calls, maybe all): fit or not
        return "memorylimit" if len(calls) == 1 or kept_too_many else None

    with pytest.MonkeyPatch.context() as patch:  # whatever the pricing rule says
        patch.setattr(_pricing, "PRICING_MIN_CANDIDATES_MANY", len(fam) + 1)
        patch.setattr(_pricing, "PRICING_MAX_VARIABLES", 0)
        patch.setattr(_solver, "_model_limit", limit)
        result = _solver._solve(cands, None, None, 0.0, 1, False, memory_share=None)
    event(f"{result.status}, kept too many: {kept_too_many}")
    assert "root pricing" in result.timings and calls[0] == len(fam)
    assert best - 1e-6 <= result.bound and result.score <= best + 1e-6
    assert result.bound >= result.score
    assert cands.score(result.parents) == pytest.approx(result.score, rel=1e-12)
    if result.status != "optimal":  # root pricing alone did not prove it
        assert kept_too_many and result.status == "memorylimit"
    elif not kept_too_many:
        assert result.score == pytest.approx(best, abs=1e-6)


def test_the_model_limit_counts_memory_then_time(monkeypatch):
    monkeypatch.setattr(_solver, "available_memory", lambda: 8_000 * 1_000_000)
    assert _solver._model_limit(1_000_000, None, 0.5) == "memorylimit"
    assert _solver._model_limit(400_000, None, 0.5) is None
    assert _solver._model_limit(400_000, 20.0, 0.5) == "timelimit"  # 14 s > half of 20 s
    assert _solver._model_limit(400_000, 30.0, 0.5) is None


@settings(max_examples=100, deadline=None)
@given(table=symmetric_tables(), data=st.data())
def test_cluster_rows_hold_the_families_of_their_definition(table, data):
    """``ClusterRows``: the families each row holds (a family of a member with fewer than
    ``k`` preds inside in the ``>=`` form, at least ``k`` in the ``<=`` form) and the
    weights they add up, against :func:`_cluster_families`."""
    from pgmpy_nml.search.candidates._clusters import _cluster_families

    fam = _checked_families(table[0])
    rows = _pricing.ClusterRows()
    expected = []
    for _ in range(data.draw(st.integers(0, 5))):
        size = data.draw(st.integers(1, fam.n))
        cluster = sorted(data.draw(st.permutations(range(fam.n)))[:size])
        k, ge = data.draw(st.integers(1, 3)), data.draw(st.booleans())
        rows.append(cluster, k, ge)
        inner, outer = _cluster_families(fam, cluster, k=k)
        expected.append(set((outer if ge else inner).tolist()))
    among = np.flatnonzero(data.draw(st.lists(st.booleans(), min_size=len(fam), max_size=len(fam))))
    found, families = rows.members(fam, among)
    assert set(zip(found.tolist(), families.tolist(), strict=True)) == {
        (j, f) for j, held in enumerate(expected) for f in among.tolist() if f in held
    }
    y = np.array([data.draw(st.floats(-2, 2)) for _ in expected])
    want = np.zeros(len(fam))
    for j, held in enumerate(expected):
        want[list(held)] += y[j]
    np.testing.assert_allclose(rows.weights(fam, y), want, atol=1e-12)
