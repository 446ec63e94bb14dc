"""Branch and price (:mod:`pgmpy_nml.search.candidates._branch_price`) against brute force.

Its bound is a promise over every kept family, most of which are not in SCIP's model
when it starts: a reduced cost with a wrong sign, a row that misses a new column's
coefficient or a node pruned before it was priced would be a false proof. On many random
candidate tables (3-6 variables, with planted classes of interchangeable variables),
against every variable order enumerated, from a random few families and random cluster
rows:

- the search proves the best network in order, and its network is acyclic;
- with only the families of some networks kept (a subset that holds the best one), it
  proves the best network over them;
- at every pricing round, the reduced costs it computes for the families in the model are
  those of SCIP's LP (each objective less the duals of the rows SCIP has, times the
  coefficients SCIP holds there).
"""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from test_pricing import _in_order_bests
from test_symmetry import symmetric_tables

from pgmpy_nml.search.candidates import _branch_price, _solver
from pgmpy_nml.search.candidates._families import _checked_families, _cycle_free
from pgmpy_nml.search.candidates._heuristics import _greedy, _improve

TOL = 1e-6


def _start(fam, data):
    """A random few families (each with probability 0.1-0.5) and random clusters."""
    share = data.draw(st.sampled_from([0.1, 0.25, 0.5]))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31 - 1)))
    families = np.flatnonzero(rng.random(len(fam)) < share)
    cuts = [
        sorted(rng.choice(fam.n, int(rng.integers(2, fam.n + 1)), replace=False).tolist())
        for _ in range(data.draw(st.integers(0, 3)))
    ]
    return families, cuts


def _search(fam, first, kept, families, cuts):
    choice, bound, status, _, pricer = _branch_price.branch_and_price(
        fam, first, kept, families, cuts, None, 0.0, 1, None, None, None
    )
    assert _cycle_free(fam, choice)
    event(f"pricing rounds {min(pricer.rounds, 5)}+, Farkas {pricer.farkas_rounds > 0}")
    event(f"a cut's row back in the LP: {pricer.columns.n_again > 0}")
    return choice, bound, status


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(table=symmetric_tables(), data=st.data())
def test_branch_and_price_proves_the_best_network_from_a_few_families(table, data):
    cands, _, _ = table
    fam = _checked_families(cands)
    best, _ = _in_order_bests(cands, fam.classes)
    first = _improve(fam, _greedy(fam))
    families, cuts = _start(fam, data)
    kept = np.ones(len(fam), dtype=bool)
    choice, bound, status = _search(fam, first, kept, families, cuts)
    offset = math.fsum(fam.best)
    assert status == "optimal"
    assert fam.total(choice) - offset == pytest.approx(best, abs=TOL)
    assert bound >= best + offset - TOL


@settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(table=symmetric_tables(), data=st.data())
def test_branch_and_price_over_kept_families_proves_their_best(table, data):
    """Kept: the families of the first network, of the best one and of random networks;
    the bound is then over the networks of kept families."""
    cands, _, _ = table
    fam = _checked_families(cands)
    first = _improve(fam, _greedy(fam))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31 - 1)))
    kept = np.zeros(len(fam), dtype=bool)
    kept[first] = True
    for _ in range(data.draw(st.integers(0, 4))):  # random acyclic networks: sinks in turn
        kept[_greedy(fam, weights=rng.random(len(fam)))] = True
    kept |= rng.random(len(fam)) < data.draw(st.sampled_from([0.0, 0.3]))
    sub_best = _best_over(fam, kept)
    families, cuts = _start(fam, data)
    choice, bound, status = _search(fam, first, kept, families[kept[families]], cuts)
    assert status == "optimal"
    assert np.all(kept[choice])
    assert fam.total(choice) == pytest.approx(sub_best, abs=TOL)
    assert bound >= sub_best - TOL


def _best_over(fam, kept):
    """The best network in order of the ``kept`` families, by the subset DP over their
    table (the others at ``-inf``)."""
    from test_solver import dp_optimum

    from pgmpy_nml.search.candidates import CandidateParentSets

    names = [f"X{v}" for v in range(fam.n)]
    out = fam.out_of_order()
    sets, scores = [], []
    for v in range(fam.n):
        best: dict[tuple, float] = {}  # two families may have the same preds
        for f in fam.families(v):
            if kept[f] and not out[f]:
                key = tuple(sorted(fam.preds[f]))
                best[key] = max(best.get(key, -math.inf), float(fam.score[f]))
        sets.append(list(best))
        scores.append(list(best.values()))
    return dp_optimum(CandidateParentSets(names, sets, scores))


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(table=symmetric_tables(), data=st.data())
def test_the_reduced_costs_are_scips(table, data):
    cands, _, _ = table
    fam = _checked_families(cands)
    first = _improve(fam, _greedy(fam))
    compared = []
    real = _branch_price.FamilyPricer._price

    def checked(self, farkas):
        model, columns = self.model, self.columns
        if not farkas:
            mine = columns.reduced_costs(model, farkas=False)[columns.families]
            np.testing.assert_allclose(mine, _lp_reduced_costs(model, columns.vars), atol=1e-6)
            compared.append(len(mine))
        return real(self, farkas)

    families, cuts = _start(fam, data)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_branch_price.FamilyPricer, "_price", checked)
        _search_plain(fam, first, families, cuts)
    assert compared


def _lp_reduced_costs(model, variables) -> np.ndarray:
    """Each variable's reduced cost in SCIP's minimization from SCIP's own LP: its
    objective less every LP row's dual times its coefficient there (the rows SCIP has,
    whoever added them). Not ``getVarRedcost``: after some degenerate LPs, all of whose
    duals are 0, SCIP reports 0 there for a column at its bound whose objective is not
    (about 1 random table in a few thousand)."""
    index = {v.name: k for k, v in enumerate(variables)}
    out = np.array([v.getObj() for v in variables])
    for row in model.getLPRowsData():
        dual = model.getRowDualSol(row)
        for col, coef in zip(row.getCols(), row.getVals(), strict=True):
            k = index.get(col.getVar().name)
            if k is not None:
                out[k] -= dual * coef
    return out


def _search_plain(fam, first, families, cuts):
    return _branch_price.branch_and_price(
        fam, first, np.ones(len(fam), dtype=bool), families, cuts, None, 0.0, 1, None, None, None
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=symmetric_tables())
def test_the_bound_first_solver_prices_after_root_pricing(table):
    """Root pricing stopped at once (every family kept, the trivial bound): the solver's
    branch and price proves the optimum."""
    from pgmpy_nml.search.candidates import _pricing

    cands, _, _ = table
    fam = _checked_families(cands)
    best, _ = _in_order_bests(cands, fam.classes)
    best += math.fsum(fam.best)

    def at_once(fam, first, deadline=None, report=None, stop=None):
        return _pricing.root_pricing(fam, first, deadline=0.0)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_pricing, "PRICING_MIN_CANDIDATES", 0)
        patch.setattr(_solver, "root_pricing", at_once)
        result = _solver._solve(cands, None, None, 0.0, 1, False, bound_first=True)
    assert result.optimal and result.score == pytest.approx(best, abs=TOL)
    assert result.bound >= best - TOL
    # unless the first network was the trivial bound's (every variable its best family)
    assert "branch and price" in result.engine or result.bound == math.fsum(fam.best)


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(table=symmetric_tables(), data=st.data())
def test_an_infeasible_node_lp_is_priced_by_farkas(table, data):
    """An arrow ``u -> v`` forced in, which the first network lacks: the first LP is
    infeasible until Farkas pricing brings a family of ``v`` with ``u``; the search then
    proves the best network with that arrow."""
    from pgmpy_nml.search.candidates._scip_model import _arrows

    cands, _, _ = table
    fam = _checked_families(cands)
    pairs, arrow_fams, _ = _arrows(fam)
    out = fam.out_of_order()
    usable = [k for k, fams in enumerate(arrow_fams) if not np.all(out[fams])]
    if not usable:
        return
    k = data.draw(st.sampled_from(usable))
    u, v = pairs[k]
    kept = np.ones(len(fam), dtype=bool)
    kept[fam.families(v)] = False
    kept[arrow_fams[k]] = True  # v's families with u
    best = _best_over(fam, kept)
    if not math.isfinite(best):
        return  # no network in order has the arrow
    first = _improve(fam, _greedy(fam))
    if kept[first[v]]:
        return  # the first network has the arrow: nothing to price
    real = _branch_price.priced_model

    def forced(model, *args):
        avars = real(model, *args)
        model.chgVarLb(avars[k], 1.0)
        return avars

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_branch_price, "priced_model", forced)
        # the first network (refused: it lacks the arrow) is the model's only families
        choice, bound, status, _, pricer = _branch_price.branch_and_price(
            fam, first, np.ones(len(fam), dtype=bool), first, [], None, 0.0, 1, None, None, None
        )
    assert status == "optimal" and u in fam.parents[choice[v]]
    assert fam.total(choice) == pytest.approx(best, abs=TOL)
    assert bound >= best - TOL
    event(f"Farkas rounds {min(pricer.farkas_rounds, 3)}+")


def _against_the_dp(seeds, n_variables):
    """Branch and price from a fifth of the families of random tables (``n_variables(seed)``
    variables, up to 8 parent sets each) against the subset DP: the tables checked and
    how many cuts' rows went back to the LP."""
    from test_solver import dp_optimum, random_candidates

    checked = again = 0
    for seed in seeds:
        cands = random_candidates(n_variables(seed), seed, per_var=8)
        best = dp_optimum(cands)
        fam = _checked_families(cands)
        first = _greedy(fam)
        if not math.isfinite(best) or first is None:
            continue
        rng = np.random.default_rng(seed)
        families = np.flatnonzero(rng.random(len(fam)) < 0.2)
        choice, bound, status, _, pricer = _search_plain(fam, first, families, [])
        assert _cycle_free(fam, choice) and status == "optimal", seed
        assert fam.total(choice) == pytest.approx(best, rel=1e-9, abs=1e-6), seed
        assert bound >= best - 1e-6 * (1 + abs(best)), seed
        again += pricer.columns.n_again
        checked += 1
    return checked, again


@pytest.mark.long
def test_branch_and_price_matches_the_dp_on_thousands_of_tables():
    """2,000 random tables of 4-12 variables (up to 8 parent sets each), from a fifth of
    the families: the proven optimum is the subset DP's, every time."""
    checked, _ = _against_the_dp(range(2000), lambda seed: 4 + seed % 9)
    assert checked > 1500


def test_cuts_whose_rows_left_the_lp_go_back_as_those_rows():
    """With SCIP dropping every idle row at once, the cuts separated again are the rows
    they were, with the coefficients of the families priced in since: the proven optimum
    is still the subset DP's (120 random tables of 6-12 variables, from a fifth of the
    families), and some rows did go back."""
    from pgmpy_nml.search.candidates import _scip_plugins

    settings_of = _scip_plugins.scip_settings

    def aging(model, *args):
        settings_of(model, *args)
        model.setIntParam("lp/rowagelimit", 0)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_scip_plugins, "scip_settings", aging)
        checked, again = _against_the_dp(range(120), lambda seed: 6 + seed % 7)
    assert checked > 80 and again > 0


#: SCIP's separators run at every node in :func:`_scips_cuts_everywhere`.
SCIP_SEPARATORS = ("aggregation", "gomory", "zerohalf", "impliedbounds", "flower", "rlt")


def _scips_cuts_everywhere(tmp_path, seeds):
    """Branch and price with SCIP's own separators aggressive at every node, from a fifth
    of the families of the random tables of ``seeds``, against the subset DP: the tables
    checked and the cuts SCIP's separators found."""
    from pyscipopt import SCIP_PARAMSETTING
    from test_solver import _separator_cuts

    from pgmpy_nml.search.candidates import _scip_plugins

    models = []
    real = _scip_plugins.start_search

    def aggressive(model, *args):
        real(model, *args)
        model.setSeparating(SCIP_PARAMSETTING.AGGRESSIVE)
        for name in SCIP_SEPARATORS:
            model.setIntParam(f"separating/{name}/freq", 1)
        models.append(model)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_scip_plugins, "start_search", aggressive)
        checked, _ = _against_the_dp(seeds, lambda seed: 4 + seed % 9)
    found = sum(
        sum(_separator_cuts(model, SCIP_SEPARATORS, tmp_path / f"{k}.txt", "FoundCuts").values())
        for k, model in enumerate(models)
    )
    return checked, found


def test_scips_own_cuts_hold_for_the_families_priced_later(tmp_path):
    """SCIP's separators stay on in branch and price (module notes): they skip the rows a
    priced family can join, and a cut from the objective cutoff holds for a family
    priced later (its objective is nonnegative). With them aggressive at every node the
    proven optimum is still the subset DP's (60 random tables of 4-12 variables, 1,000
    more in the long run), and they did find cuts (5 here; 71 in all, 69 by aggregation)."""
    checked, found = _scips_cuts_everywhere(tmp_path, range(60))
    assert checked > 40 and found > 0


@pytest.mark.long
def test_scips_own_cuts_hold_for_the_families_priced_later_many(tmp_path):
    checked, found = _scips_cuts_everywhere(tmp_path, range(60, 1060))
    assert checked > 700 and found > 10
