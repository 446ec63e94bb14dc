"""Candidate parent sets: every bound against brute force, the candidates against
brute-force dominance and against the exact subset search."""

import itertools
import math
import warnings

import _reference as ref
import numpy as np
import pytest
from _probes import _family_bounds
from hypothesis import given, settings
from hypothesis import strategies as st
from pgmpy.structure_score import AIC, BIC, K2, BDeu, LogLikelihood

from pgmpy_nml import FNML, QNML, BDConstant, ExactSearch, MinBDeu
from pgmpy_nml import BDeu as TextbookBDeu
from pgmpy_nml.datasets import sample_network
from pgmpy_nml.numerics.regret import log_regret
from pgmpy_nml.scores.bd import bd_cells_bound, bd_superset_bound
from pgmpy_nml.scores.fnml import fnml_superset_bound
from pgmpy_nml.scores.pgmpy_adapters import contract_for
from pgmpy_nml.search._dp import _kernels as _dp_kernels
from pgmpy_nml.search._dp.plans import StatisticPlan
from pgmpy_nml.search.candidates import CandidateParentSets, _budget, _lattice, _tasks
from pgmpy_nml.search.candidates._pruning import PruningReport, candidate_parent_sets

BOUNDED = {
    "fnml": lambda d, s: FNML(d, state_names=s),
    "qnml": lambda d, s: QNML(d, state_names=s),
    "bdeu": lambda d, s: TextbookBDeu(d, equivalent_sample_size=1.0, state_names=s),
    "bd1/2": lambda d, s: BDConstant(d, alpha=0.5, state_names=s),
    "pgmpy-bic": lambda d, s: BIC(d, state_names=s),
    "pgmpy-aic": lambda d, s: AIC(d, state_names=s),
    "pgmpy-ll": lambda d, s: LogLikelihood(d, state_names=s),
    "pgmpy-k2": lambda d, s: K2(d, state_names=s),
    "pgmpy-bdeu": lambda d, s: BDeu(d, equivalent_sample_size=1.0, state_names=s),
    "pgmpy-bdeu-ess5": lambda d, s: BDeu(d, equivalent_sample_size=5.0, state_names=s),
}


def make_score(name, data, state_names=None):
    factory = BOUNDED[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return factory(data, state_names)


def with_unseen_state(data, unseen=True):
    """state_names declaring one more state (99) than each column shows, or None."""
    return {c: [*sorted(set(data[c])), 99] for c in data} if unseen else None


def subsets(items, sizes=None):
    items = list(items)
    sizes = range(len(items) + 1) if sizes is None else sizes
    for k in sizes:
        yield from itertools.combinations(items, k)


# -- every bound against brute force over all supersets --------------------------------------


@pytest.mark.long
@pytest.mark.parametrize("name", sorted(BOUNDED))
@pytest.mark.parametrize(
    ("n", "arities", "unseen", "max_parents"),
    [
        (12, (2, 3, 1, 2, 4), False, None),
        (80, (3, 2, 2, 4, 2), True, None),
        (400, (2, 4, 3, 2, 3), False, 2),
        (7, (4, 4, 3, 3, 2), True, 3),
    ],
)
def test_bound_never_below_any_superset(name, n, arities, unseen, max_parents, random_data):
    data = random_data(n, arities, seed=n + len(name))
    names = with_unseen_state(data, unseen)
    score = make_score(name, data, names)
    variables = list(data.columns)
    limit = len(variables) - 1 if max_parents is None else max_parents
    checked = 0
    for v in variables:
        others = [u for u in variables if u != v]
        local = {p: score.local_score(v, tuple(p)) for p in subsets(others, range(limit + 1))}
        for size in range(limit):
            sets = list(itertools.combinations(others, size))
            values, bounds = _family_bounds(score, v, sets, max_parents=max_parents)
            for p, value, bound in zip(
                sets, values, np.broadcast_to(bounds, len(sets)), strict=True
            ):
                assert value == pytest.approx(local[p], rel=1e-10, abs=1e-9)
                best = max(local[q] for q in local if set(p) < set(q))
                assert best <= bound + 1e-9 * (1 + abs(bound)), (v, p, best, bound)
                checked += 1
    assert checked > 0


DIRICHLET = {
    "bdeu-0.1": lambda d, s: TextbookBDeu(d, equivalent_sample_size=0.1, state_names=s),
    "bdeu-10": lambda d, s: TextbookBDeu(d, equivalent_sample_size=10.0, state_names=s),
    "bdeu-100": lambda d, s: TextbookBDeu(d, equivalent_sample_size=100.0, state_names=s),
    "k2": lambda d, s: BDConstant(d, alpha=1.0, state_names=s),
    "bd-3": lambda d, s: BDConstant(d, alpha=3.0, state_names=s),
    "pgmpy-bdeu-100": lambda d, s: BDeu(d, equivalent_sample_size=100.0, state_names=s),
    "pgmpy-k2": lambda d, s: K2(d, state_names=s),
}


def brute_force_bound_check(score, data, max_parents):
    """Every bound of every set (sizes below the limit) against every admissible proper
    superset; returns (sets checked, sets whose bound beats the per-cell -log r)."""
    variables = list(data.columns)
    limit = len(variables) - 1 if max_parents is None else max_parents
    checked = sharper = 0
    for v in variables:
        others = [u for u in variables if u != v]
        local = {p: score.local_score(v, tuple(p)) for p in subsets(others, range(limit + 1))}
        for size in range(limit):
            sets = list(itertools.combinations(others, size))
            _, bounds = _family_bounds(score, v, sets, max_parents=max_parents)
            for p, bound in zip(sets, np.broadcast_to(bounds, len(sets)), strict=True):
                best = max(local[q] for q in local if set(p) < set(q))
                assert best <= bound + 1e-9 * (1 + abs(bound)), (v, p, best, bound)
                cells = data.groupby([*p, v]).size().shape[0]
                r = len(score.state_names[v])  # declared states, unseen ones included
                sharper += bool(bound < -cells * math.log(r) - 1e-9)
                checked += 1
    return checked, sharper


@pytest.mark.long
@pytest.mark.parametrize("name", sorted(DIRICHLET))
@pytest.mark.parametrize("n", [5, 30, 300, 3000])
@pytest.mark.parametrize("max_parents", [None, 1, 2])
def test_dirichlet_bounds_against_every_superset(name, n, max_parents, random_data):
    """BD/BDeu/K2 bounds (BD and K2 with the per-cell bound of Correia et al.) over every
    superset: many seeds, small and large samples, declared-but-unseen states, parent
    limits."""
    checked = sharper = 0
    for seed in range(6):
        data = random_data(n, (2, 3, 4, 2, 3), seed=100 * seed + n)
        names = with_unseen_state(data, unseen=seed % 2 == 1)
        score = DIRICHLET[name](data, names)
        c, s = brute_force_bound_check(score, data, max_parents)
        checked, sharper = checked + c, sharper + s
    assert checked > 0
    if n >= 30 and name in ("k2", "bd-3", "pgmpy-k2"):  # constant a: the per-cell bound
        assert sharper > 0, "the per-cell bound never beat -log r per cell"


@pytest.mark.long
@pytest.mark.parametrize("name", ["pgmpy-bic", "pgmpy-aic"])
def test_parent_count_limits_from_the_sample_size(name, monkeypatch, random_data):
    """de Campos & Ji (2011): under BIC/AIC a candidate has w (r - 1)(q - 1) < N H(v),
    and no set is scored that has a subset one smaller with w (r - 1)(q m - 1) >= N H(v)
    (m the smallest arity): such a subset is closed."""
    scored = []
    record = _lattice._Lattice.record

    def spy(self, scores, bounds, monotone_family=None):
        scored.append((self.child, self.parents()[self.to_score].copy()))
        record(self, scores, bounds, monotone_family)

    monkeypatch.setattr(_lattice._Lattice, "record", spy)
    checked = 0
    for seed, n in itertools.product(range(8), [8, 20, 60, 200]):
        scored.clear()
        data = random_data(n, (2, 4, 3, 4, 2, 3), seed=seed)
        score = make_score(name, data)
        candidates, _ = candidate_parent_sets(score)
        arity = {c: data[c].nunique() for c in data}
        m = min(arity.values())
        w = 0.5 * math.log(n) if name == "pgmpy-bic" else 1.0

        def limit(v, arity=arity, data=data, w=w, n=n):
            p = data[v].value_counts(normalize=True).to_numpy()
            return 1 + n * float(-(p * np.log(p)).sum()) / (w * (arity[v] - 1))

        for v, sets in candidates.to_dict().items():
            if arity[v] < 2:  # a constant child: every set scores 0
                continue
            for parents in sets:
                q = math.prod(arity[u] for u in parents)
                assert q < limit(v) + 1e-9, (v, parents, q, limit(v))
                checked += 1
        order = StatisticPlan(contract_for(score)).variables
        for child, rows in scored:
            v = order[child]
            for row in rows.tolist():
                if len(row) < 1 or arity[v] < 2:
                    continue
                # every subset one smaller was open: its q times m is below the limit
                qs = [math.prod(arity[order[u]] for u in row if u != x) for x in row]
                assert max(qs) * m < limit(v) + 1e-9, (v, row)
    assert checked > 0


@pytest.mark.long
@pytest.mark.parametrize("name", ["pgmpy-bic", "pgmpy-aic", "qnml"])
def test_cases_pair_each_gain_with_its_penalty(name, monkeypatch):
    """The per-parent cases of the penalized bounds spare scoring work (fewer sets
    scored than with LL_max - penalty(q_min) alone) and keep the same candidates."""
    _, data = sample_network("water", 1000, random_state=0)
    with_cases, report = candidate_parent_sets(make_score(name, data), max_parents=3)
    supersets = _lattice._Lattice.supersets

    def without_cases(self, *args):
        found = supersets(self, *args)
        return type(found)(
            found.n_parent_configs_min, found.n_parent_configs_max, found.log_likelihood_max
        )

    monkeypatch.setattr(_lattice._Lattice, "supersets", without_cases)
    alone, alone_report = candidate_parent_sets(make_score(name, data), max_parents=3)
    assert with_cases == alone
    assert report.n_scored.sum() < alone_report.n_scored.sum()


@pytest.mark.parametrize("name", ["fnml", "qnml", "pgmpy-bic", "pgmpy-ll"])
def test_optimistic_screen_bounds_every_screened_set(name, monkeypatch, random_data):
    """The screen's optimistic score (the family's N log N taken from the subsets'
    families) is never below the set's score; recorded over a whole run."""
    data = random_data(90, (2, 3, 2, 4, 2), seed=6)
    names = with_unseen_state(data)
    data["copy"] = data["V3"]  # adds nothing to a family with V3: the screen is exact there
    names["copy"] = names["V3"]
    score = make_score(name, data, names)
    seen = []
    screen = _lattice._Lattice.screen

    def record(self, upper, optimistic_family):
        seen.append((self.child, self.parents().copy(), np.array(upper, dtype=float)))
        screen(self, upper, optimistic_family)

    monkeypatch.setattr(_lattice._Lattice, "screen", record)
    candidate_parent_sets(score)
    order = StatisticPlan(contract_for(score)).variables  # the search's internal order
    assert sum(len(u) for _, _, u in seen) > 30
    for child, parents, upper in seen:
        for p, bound in zip(parents.tolist(), upper, strict=True):
            value = score.local_score(order[child], tuple(order[u] for u in p))
            assert value <= bound + 1e-9 * (1 + abs(bound))


@pytest.mark.parametrize("name", ["fnml", "qnml", "bdeu", "pgmpy-bic"])
def test_bound_respects_forbidden_parents(name, random_data):
    data = random_data(150, (2, 3, 2, 3, 2), seed=3)
    score = make_score(name, data)
    forbidden = [("V0", "V4"), ("V2", "V4")]
    sets = [(), ("V1",), ("V3",)]
    allowed = ["V1", "V3"]
    for size in (0, 1):
        group = [p for p in sets if len(p) == size]
        _, bounds = _family_bounds(
            score, "V4", group, expert_knowledge={"forbidden_edges": forbidden}
        )
        for p, bound in zip(group, np.broadcast_to(bounds, len(group)), strict=True):
            for q in subsets(allowed):
                if set(p) < set(q):
                    assert score.local_score("V4", tuple(q)) <= bound + 1e-9


def test_bounds_are_informative(random_data):
    """Sparse data: every score with a bound closes some sets (the bound is not +inf)."""
    data = random_data(40, (4, 4, 4, 3, 3, 4), seed=5)
    for name in ["fnml", "qnml", "bdeu", "bd1/2", "pgmpy-bic", "pgmpy-bdeu"]:
        _, report = candidate_parent_sets(make_score(name, data))
        assert report.bounded
        assert report.n_skipped.sum() > 0, name


# -- the lemmas behind the fNML, BD and qNML bounds, on hypothesis-generated tables ---------


def brute_regret(r, m):
    """C(r, m) by enumerating all r**m sequences."""
    total = 0.0
    for seq in itertools.product(range(r), repeat=m):
        counts = np.bincount(seq, minlength=r)
        total += math.prod((c / m) ** c for c in counts if c)
    return total if m else 1.0


@pytest.mark.parametrize("r", [1, 2, 3])
def test_regret_lemmas_by_enumeration(r):
    c = {m: brute_regret(r, m) for m in range(0, 7)}
    for m in range(1, 7):
        assert math.log(c[m]) == pytest.approx(log_regret(r, m), abs=1e-12)
    for a, b in itertools.product(range(1, 4), repeat=2):
        assert c[a + b] <= c[a] * c[b] * (1 + 1e-12)  # subadditivity
    for m in range(1, 7):  # splitting a group of m rows into blocks of any sizes
        for blocks in itertools.product(range(1, m + 1), repeat=2):
            if sum(blocks) != m:
                continue
            rhs = math.prod((k / m) ** k * c[k] for k in blocks)
            assert rhs <= c[m] * (1 + 1e-12)


def _nml_code(values, r):
    """log P_NML of a group's child values: LL - log C(r, m)."""
    m = len(values)
    counts = np.bincount(values, minlength=r)
    ll = sum(k * math.log(k / m) for k in counts if k)
    return ll - log_regret(r, m)


tables = st.integers(2, 4).flatmap(
    lambda r: st.tuples(
        st.just(r),
        st.lists(
            st.lists(st.tuples(st.integers(0, r - 1), st.integers(0, 3)), min_size=1, max_size=7),
            min_size=1,
            max_size=4,
        ),
    )
)


@pytest.mark.long
@settings(max_examples=300, deadline=None)
@given(tables)
def test_fnml_bound_over_every_refinement(table):
    """Configurations of P as lists of (child value, part): fNML of the refined table is
    at most the bound from the coarse one, whatever the refinement."""
    r, configs = table
    regret_cells = regret_parents = refined = 0.0
    for rows in configs:
        values = np.array([x for x, _ in rows])
        regret_parents += log_regret(r, len(values))
        for k in np.unique(values):
            regret_cells += log_regret(r, int((values == k).sum()))
        for part in {p for _, p in rows}:
            refined += _nml_code(np.array([x for x, p in rows if p == part]), r)
    assert refined <= fnml_superset_bound(regret_cells, regret_parents, 0.0) + 1e-9


@pytest.mark.long
@settings(max_examples=300, deadline=None)
@given(tables, st.floats(0.01, 20.0), st.integers(0, 40))
def test_bd_bound_over_every_refinement(table, ess, extra_configs):
    r, configs = table
    cells = 0
    bdeu = ll = 0.0
    parts = [(i, p) for i, rows in enumerate(configs) for p in {p for _, p in rows}]
    q = len(parts) + extra_configs
    for i, p in parts:
        values = np.array([x for x, part in configs[i] if part == p])
        counts = np.bincount(values, minlength=r)
        bdeu += ref.bd_row(counts.tolist(), [ess / (q * r)] * r)  # Dirichlet-multinomial
        ll += sum(k * math.log(k / len(values)) for k in counts if k)
    for rows in configs:
        cells += len({x for x, _ in rows})
    assert bdeu <= bd_superset_bound(cells, r, np.inf) + 1e-9
    assert bdeu <= bd_superset_bound(cells, r, ll) + 1e-9


@pytest.mark.long
@settings(max_examples=400, deadline=None)
@given(tables, st.floats(0.001, 200.0), st.floats(1.0, 50.0))
def test_bd_cells_bound_over_every_refinement(table, a_low, stretch):
    """Any refinement of the table, scored with any per-cell hyperparameter a' >= a_low,
    is at most the per-cell bound at a_low (the three steps of bd_cells_bound's proof)."""
    r, configs = table
    a = a_low * stretch
    refined = g_cells = g_cells_r = 0.0
    for rows in configs:
        values = np.array([x for x, _ in rows])
        for k in np.unique(values):
            n_k = int((values == k).sum())
            g_cells += math.lgamma(a_low + n_k) - math.lgamma(a_low)
            g_cells_r += math.lgamma(r * a_low + n_k) - math.lgamma(r * a_low)
        for part in {p for _, p in rows}:
            counts = np.bincount([x for x, p in rows if p == part], minlength=r)
            refined += ref.bd_row(counts.tolist(), [a] * r)
    bound = bd_cells_bound(g_cells, g_cells_r)
    assert refined <= bound + 1e-9 * (1 + abs(bound))
    cells = sum(len({x for x, _ in rows}) for rows in configs)
    assert bound <= -cells * math.log(r) + 1e-9  # never weaker than -log r per cell


@pytest.mark.parametrize("n", [1, 5, 60, 1000])
@pytest.mark.parametrize("r", [2, 3, 5])
def test_qnml_penalty_nondecreasing(n, r):
    delta = [log_regret(q * r, n) - log_regret(q, n) for q in range(1, 300)]
    assert np.all(np.diff(delta) >= -1e-9 * np.abs(delta[1:]))


# -- candidates against brute-force dominance -------------------------------------------------


def brute_candidates(score, variables, max_parents, required=None, forbidden=None):
    """{variable: {parents: (score, margin)}}: every admissible set, with its margin over
    its best admissible proper subset (+inf for the smallest admissible set)."""
    required = required or {}
    forbidden = forbidden or {}
    out = {}
    for v in variables:
        req = set(required.get(v, ()))
        pool = [u for u in variables if u != v and u not in req and u not in forbidden.get(v, ())]
        sets = [
            tuple(sorted(req | set(x))) for x in subsets(pool, range(max_parents - len(req) + 1))
        ]
        local = {p: score.local_score(v, tuple(p)) for p in sets}
        out[v] = {
            p: (
                local[p],
                local[p] - max((local[q] for q in sets if set(q) < set(p)), default=-math.inf),
            )
            for p in sets
        }
    return out


def assert_matches_brute(candidates, brute, exact):
    for v, sets in brute.items():
        kept = candidates.to_dict()[v]
        for p, (value, margin) in sets.items():
            if exact or abs(margin) > 1e-6:  # bounds close sets at ties up to rounding
                assert (p in kept) == (margin > 0), (v, p, margin)
            if p in kept:
                assert kept[p] == pytest.approx(value, rel=1e-10, abs=1e-9)
        assert set(kept) <= set(sets)


@pytest.mark.parametrize("name", ["fnml", "qnml", "bdeu", "pgmpy-bic", "pgmpy-k2", "pgmpy-ll"])
@pytest.mark.parametrize("max_parents", [None, 2])
def test_candidates_are_exactly_the_undominated_sets(name, max_parents, random_data):
    data = random_data(60, (2, 3, 2, 4, 2, 3), seed=11)
    names = with_unseen_state(data, unseen=(name == "fnml"))
    score = make_score(name, data, names)
    variables = list(data.columns)
    limit = len(variables) - 1 if max_parents is None else max_parents
    candidates, report = candidate_parent_sets(score, max_parents=max_parents)
    assert_matches_brute(candidates, brute_candidates(score, variables, limit), exact=False)
    assert np.array_equal(report.n_kept, candidates.n_candidates())


@pytest.mark.parametrize("name", ["fnml", "qnml", "bdeu", "pgmpy-bic", "pgmpy-ll"])
def test_ties_are_dominated(name, random_data):
    """A constant column changes no count: every set with it ties with the set without it."""
    data = random_data(50, (2, 3, 2, 2), seed=8)
    data["C"] = 0
    candidates, report = candidate_parent_sets(make_score(name, data))
    for v, sets in candidates.to_dict().items():
        assert all("C" not in p for p in sets), v
    assert list(candidates.to_dict()["C"]) == [()]
    # a one-state child scores 0 with any parents: its bound (0) closes the empty set
    assert report.n_scored[list(data.columns).index("C")] == 1


def test_generic_path_matches_brute_force_exactly(random_data):
    data = random_data(50, (2, 3, 2, 2, 3), seed=2)
    score = MinBDeu(data, equivalent_sample_size=1.0, epsilon=0.5)
    candidates, report = candidate_parent_sets(score, max_parents=3)
    assert report.plan == "generic" and not report.bounded
    assert np.array_equal(report.n_scored, report.n_admissible)
    brute = brute_candidates(score, list(data.columns), 3)
    assert_matches_brute(candidates, brute, exact=True)


def test_required_parents_compare_only_admissible_sets(random_data):
    data = random_data(80, (2, 3, 2, 3, 2), seed=4)
    score = FNML(data)
    knowledge = {
        "required_edges": [("V0", "V3"), ("V1", "V3")],
        "forbidden_edges": [("V4", "V3"), ("V2", "V0")],
    }
    candidates, report = candidate_parent_sets(score, max_parents=3, expert_knowledge=knowledge)
    brute = brute_candidates(
        score,
        list(data.columns),
        3,
        required={"V3": ["V0", "V1"]},
        forbidden={"V3": ["V4"], "V0": ["V2"]},
    )
    assert_matches_brute(candidates, brute, exact=False)
    assert all({"V0", "V1"} <= set(p) for p in candidates.to_dict()["V3"])
    # the smallest admissible set is always kept
    assert ("V0", "V1") in candidates.to_dict()["V3"]
    assert report.n_admissible[3] == 2  # {V0, V1}, and with V2 (V4 is forbidden)
    assert report.n_admissible[0] == sum(math.comb(3, k) for k in range(4))


# -- the candidates contain an optimal network ------------------------------------------------


def best_network_score(candidates: CandidateParentSets) -> float:
    """Best DAG over the candidates by the subset DP, non-candidates at -inf."""
    n = candidates.n_variables
    ls = np.full((n, 2 ** (n - 1)), -np.inf)
    for v in range(n):
        for p, s in zip(candidates.parent_sets[v], candidates.scores[v], strict=True):
            mask = sum(1 << (u if u < v else u - 1) for u in p)
            ls[v, mask] = s
    _dp_kernels.best_parent_sets_all(ls)
    score, _ = _dp_kernels.best_sinks(ls)
    return float(score[-1])


KNOWLEDGE = [
    None,
    {"forbidden_edges": [("either", "lung"), ("tub", "either")]},
    {"required_edges": [("smoke", "bronc"), ("xray", "dysp")]},
    {"temporal_order": [["asia", "smoke"], ["tub", "lung", "bronc"], ["either", "xray", "dysp"]]},
]


@pytest.mark.long
@pytest.mark.parametrize("knowledge", KNOWLEDGE)
@pytest.mark.parametrize("name", ["fnml", "qnml", "bdeu", "pgmpy-bic"])
def test_candidates_contain_an_optimal_network(name, knowledge):
    _, data = sample_network("asia", 400, random_state=1)
    score = make_score(name, data)
    search = ExactSearch(score, max_parents=2, expert_knowledge=knowledge, show_progress=False)
    search.fit()
    candidates, report = candidate_parent_sets(score, max_parents=2, expert_knowledge=knowledge)
    assert best_network_score(candidates) == pytest.approx(search.score_, rel=1e-12, abs=1e-9)
    assert report.n_kept.sum() < report.n_admissible.sum()


@pytest.mark.long
def test_candidates_contain_an_optimal_network_without_parent_limit():
    _, data = sample_network("asia", 3000, random_state=2)
    for name in ["fnml", "qnml", "bdeu", "pgmpy-bic"]:
        score = make_score(name, data)
        optimum = ExactSearch(score, show_progress=False).fit().score_
        candidates, report = candidate_parent_sets(score)
        assert best_network_score(candidates) == pytest.approx(optimum, rel=1e-12, abs=1e-9)
        assert report.n_skipped.sum() > 0  # the bounds stop the enumeration


def test_solver_over_candidates_is_optimal():
    pytest.importorskip("pyscipopt")
    from pgmpy_nml.search.candidates import solve

    _, data = sample_network("asia", 1000, random_state=3)
    score = FNML(data)
    optimum = ExactSearch(score, max_parents=3, show_progress=False).fit().score_
    candidates, _ = candidate_parent_sets(score, max_parents=3)
    result = solve(candidates, show_progress=False)
    assert result.optimal
    assert result.score == pytest.approx(optimum, rel=1e-9)


# -- determinism, parallel runs, the report ---------------------------------------------------


def test_deterministic_and_independent_of_threads():
    _, data = sample_network("child", 500, random_state=0)
    score = QNML(data)
    first, report = candidate_parent_sets(score, max_parents=2, n_jobs=1)
    second, _ = candidate_parent_sets(score, max_parents=2, n_jobs=2)
    third, _ = candidate_parent_sets(QNML(data), max_parents=2)
    assert first == second == third
    assert isinstance(report, PruningReport)
    assert np.array_equal(report.n_scored - report.n_dominated, report.n_kept)
    assert np.all(report.n_scored <= report.n_admissible)
    assert report.n_admissible.sum() == 20 * (1 + 19 + math.comb(19, 2))
    frame = report.to_frame()
    assert list(frame.columns) == ["admissible", "scored", "skipped by bound", "dominated", "kept"]
    assert set(report.timings) == {"counting", "scoring", "bounds and dominance", "total"}
    assert "kept" in str(report)


def test_dask_local_cluster_gives_identical_candidates():
    distributed = pytest.importorskip(
        "distributed", reason="dask.distributed is not installed (pip install 'dask[distributed]')"
    )
    from joblib import parallel_config

    _, data = sample_network("child", 300, random_state=4)
    score = FNML(data)
    local, local_report = candidate_parent_sets(score, max_parents=2)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
        parallel_config(backend="dask"),
    ):
        remote, report = candidate_parent_sets(score, max_parents=2)
    assert report.n_tasks > 1 and local_report.n_tasks == 1
    assert remote == local
    assert np.array_equal(report.n_scored, local_report.n_scored)


@pytest.mark.parametrize("name", sorted(BOUNDED))
def test_tasks_travel_to_process_workers(name, random_data):
    """What a task needs pickles (process and cluster workers), pgmpy's scores too,
    and gives the same candidates after the trip."""
    import pickle

    from pgmpy_nml.search.constraints import Constraints

    data = random_data(40, (2, 3, 2), seed=9)
    score = make_score(name, data)
    contract = contract_for(score)
    constraints = Constraints.from_knowledge(tuple(contract.encoded.variables), 2)
    problem = _tasks._StatisticProblem(contract, constraints)
    travelled = pickle.loads(pickle.dumps(problem))
    order = problem.internal_order()
    here = _tasks._statistic_task(problem, order, 1, False)["children"]
    there = _tasks._statistic_task(travelled, order, 1, False)["children"]
    for a, b in zip(here, there, strict=True):
        assert [x.tolist() for x in a["parent_sets"]] == [x.tolist() for x in b["parent_sets"]]
        assert a["scores"].tolist() == b["scores"].tolist()


def test_refuses_a_level_that_would_not_fit_in_memory(monkeypatch, random_data):
    data = random_data(30, (2, 2, 2, 2), seed=1)
    monkeypatch.setattr(_budget, "available_memory", lambda: 0)
    with pytest.raises(MemoryError, match="max_parents"):
        candidate_parent_sets(FNML(data))


def test_input_errors(random_data):
    data = random_data(20, (2, 2, 2), seed=0)
    with pytest.raises(ValueError, match="n_jobs"):
        candidate_parent_sets(FNML(data), n_jobs=0)
    with pytest.raises(TypeError, match="local_score"):
        candidate_parent_sets(object())
    with pytest.raises(ValueError, match="not a variable"):
        candidate_parent_sets(FNML(data), expert_knowledge={"forbidden_edges": [("X", "V0")]})
    with pytest.raises(ValueError, match="more than max_parents"):
        candidate_parent_sets(
            FNML(data),
            max_parents=1,
            expert_knowledge={"required_edges": [("V0", "V2"), ("V1", "V2")]},
        )
