"""Interchangeable variables and the symmetry breaking of the engines over candidates.

Checked against the definitions, by brute force, on many random candidate tables with
planted symmetries:

- the classes found are those of the definition (every transposition tried on every
  family);
- the theorem of :mod:`pgmpy_nml.search.candidates._symmetry`: the best DAG whose
  topological order keeps every class in increasing order scores what the best DAG
  scores (a DP over all variable orders against one over the orders that keep them);
- the solver and A* find that optimum and prove it, from a start network too, which they
  take in its mirror image;
- the mirror image of any DAG (:func:`._families._canonical`) is a DAG over the
  candidates, in order, with the same score.
"""

import itertools
import math
import warnings

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pgmpy_nml import ExactSearch
from pgmpy_nml.search.candidates import CandidateParentSets, solve
from pgmpy_nml.search.candidates._astar import astar
from pgmpy_nml.search.candidates._families import (
    _canonical,
    _checked_families,
    _cycle_free,
    _Families,
)
from pgmpy_nml.search.candidates._symmetry import (
    REL_TOL,
    interchangeable_classes,
    precedence_arcs,
)


def _orbit(v, parents, classes):
    """Every image of the family (v, parents) under the permutations of the classes."""
    images = set()
    for perms in itertools.product(*(itertools.permutations(c) for c in classes)):
        rho = {}
        for members, perm in zip(classes, perms, strict=True):
            rho.update(zip(members, perm, strict=True))
        images.add((rho.get(v, v), tuple(sorted(rho.get(u, u) for u in parents))))
    return images


@st.composite
def symmetric_tables(draw):
    """(candidates, planted classes): random families and scores, closed under every
    permutation of the planted classes (images take the same score, up to rounding)."""
    n = draw(st.integers(3, 6))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    order = [int(v) for v in rng.permutation(n)]
    sizes = draw(st.lists(st.sampled_from([1, 2, 2, 3]), min_size=1, max_size=n))
    classes, at = [], 0
    for size in sizes:
        if at + size > n:
            break
        if size > 1:
            classes.append(sorted(order[at : at + size]))
        at += size
    jitter = draw(st.sampled_from([0.0, 0.0, 0.1, 1e4]))  # relative to REL_TOL: 1e4 breaks ties
    local = {v: {(): 0.0} for v in range(n)}
    limit = draw(st.integers(1, 3))
    for _ in range(draw(st.integers(0, 8 * n))):
        v = int(rng.integers(n))
        others = [u for u in range(n) if u != v]
        k = int(rng.integers(1, min(limit, len(others)) + 1))
        parents = tuple(sorted(int(u) for u in rng.choice(others, k, replace=False)))
        value = float(rng.normal(-100.0, 20.0))
        images = _orbit(v, parents, classes)
        if any(image in local[w] for w, image in images):
            continue  # keep every orbit at one score
        for w, image in images:
            local[w][image] = value + jitter * REL_TOL * abs(value) * float(rng.uniform(-1, 1))
    for v in range(n):  # the empty set's score, the same within a class
        local[v][()] = float(-110.0 - 10 * rng.random())
    for members in classes:
        for v in members:
            local[v][()] = local[members[0]][()]
    names = [f"X{v}" for v in range(n)]
    cands = CandidateParentSets(
        names,
        [list(local[v]) for v in range(n)],
        [list(local[v].values()) for v in range(n)],
    )
    return cands, classes, jitter


def _definition_classes(cands):
    """Classes by the definition: every transposition on every family, then components."""
    n = cands.n_variables
    table = {
        (v, p): float(s)
        for v in range(n)
        for p, s in zip(cands.parent_sets[v], cands.scores[v], strict=True)
    }
    linked = {v for (v, p) in table if p} | {u for (_, p) in table for u in p}
    graph = {v: set() for v in linked}
    for a, b in itertools.combinations(sorted(linked), 2):
        sigma = {a: b, b: a}
        ok = True
        for (v, p), s in table.items():
            image = (sigma.get(v, v), tuple(sorted(sigma.get(u, u) for u in p)))
            other = table.get(image)
            if other is None or abs(other - s) > REL_TOL * max(1.0, abs(s), abs(other)):
                ok = False
                break
        if ok:
            graph[a].add(b)
            graph[b].add(a)
    seen, classes = set(), []
    for v in sorted(graph):
        if v in seen:
            continue
        stack, comp = [v], set()
        while stack:
            u = stack.pop()
            if u not in comp:
                comp.add(u)
                stack.extend(graph[u] - comp)
        seen |= comp
        if len(comp) > 1:
            classes.append(sorted(comp))
    return classes


def _best(cands, precedence=()):
    """The best DAG score over ``cands`` by a DP over variable orders; with
    ``precedence`` arcs ``(u, v)``, only over orders that put ``u`` before ``v``."""
    n = cands.n_variables
    before = {}
    for u, v in precedence:
        before.setdefault(v, set()).add(u)
    masks = [
        [(sum(1 << u for u in p), float(s)) for p, s in zip(sets, scores, strict=True)]
        for sets, scores in zip(cands.parent_sets, cands.scores, strict=True)
    ]
    best = [-math.inf] * (1 << n)
    best[0] = 0.0
    for mask in range(1, 1 << n):
        for v in range(n):
            bit = 1 << v
            rest = mask ^ bit
            if not mask & bit or best[rest] == -math.inf:
                continue
            if any(not rest >> u & 1 for u in before.get(v, ())):
                continue
            family = max((s for p, s in masks[v] if p & ~rest == 0), default=-math.inf)
            best[mask] = max(best[mask], best[rest] + family)
    return best[-1]


def _random_dag(cands, rng):
    """A random DAG over the candidates: a random order, each variable a random
    candidate within it (the empty set is always one)."""
    n = cands.n_variables
    order = rng.permutation(n)
    position = np.empty(n, dtype=int)
    position[order] = np.arange(n)
    fam = _Families(cands)
    choice = []
    for v in range(n):
        fits = [
            f for f in fam.families(v) if all(position[u] < position[v] for u in fam.parents[f])
        ]
        choice.append(int(rng.choice(fits)))
    return np.array(choice)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(symmetric_tables())
def test_classes_are_those_of_the_definition(case):
    cands, planted, jitter = case
    found = interchangeable_classes(_Families(cands))
    assert found == _definition_classes(cands)
    linked = {u for sets in cands.parent_sets for p in sets for u in p}
    linked |= {v for v, sets in enumerate(cands.parent_sets) if any(sets)}
    if jitter <= 0.1:  # within the tolerance: every planted class that takes part is found
        for members in planted:
            if set(members) <= linked:
                assert any(set(members) <= set(c) for c in found)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(symmetric_tables())
def test_keeping_the_classes_in_order_loses_nothing(case):
    cands, _, _ = case
    arcs = precedence_arcs(interchangeable_classes(_Families(cands)))
    everything = _best(cands)
    assert _best(cands, arcs) == pytest.approx(everything, rel=1e-10)


@pytest.mark.long
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(symmetric_tables(), st.integers(0, 2**31 - 1))
def test_the_engines_prove_the_brute_force_optimum(case, seed):
    cands, _, _ = case
    optimum = _best(cands)
    start = _random_dag(cands, np.random.default_rng(seed))
    initial = {
        cands.variables[v]: tuple(cands.variables[u] for u in cands.parent_sets[v][k])
        for v, k in enumerate(start - _Families(cands).start[:-1])
    }
    # SCIP proves optimality within its tolerances (about 1e-9 relative, 1e-6 absolute
    # on the objective, as the solver's notes say): with scores jittered by 1e-6 a network
    # 5.7e-8 below the optimum of -526.548 was once proven (Python 3.13 leg of the CI);
    # A* adds only a few ulps of rounding
    for result, rel, abs_ in (
        (solve(cands, show_progress=False), 1e-9, 1e-6),
        (solve(cands, show_progress=False, initial=initial), 1e-9, 1e-6),
        (astar(cands, show_progress=False), 1e-10, 0.0),
        (astar(cands, show_progress=False, initial=initial), 1e-10, 0.0),
    ):
        assert result.optimal
        assert result.score == pytest.approx(optimum, rel=rel, abs=abs_)
        assert result.bound >= optimum - 1e-9 * abs(optimum)
        assert result.interchangeable == tuple(
            tuple(cands.variables[v] for v in c) for c in interchangeable_classes(_Families(cands))
        )


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(symmetric_tables(), st.integers(0, 2**31 - 1))
def test_the_mirror_image_keeps_the_classes_in_order(case, seed):
    cands, _, _ = case
    fam = _checked_families(cands)
    rng = np.random.default_rng(seed)
    for _ in range(5):
        choice = _random_dag(cands, rng)
        image = _canonical(fam, choice)
        assert _cycle_free(fam, image)  # a DAG with every class in order
        assert fam.total(image) == pytest.approx(fam.total(choice), rel=1e-10)
        assert sorted(fam.child[image]) == list(range(fam.n))


def test_a_cycle_has_no_mirror_image():
    cands = CandidateParentSets.from_dict(
        {"A": {(): -5.0, ("B",): -4.0}, "B": {(): -5.0, ("A",): -4.0}}
    )
    fam = _checked_families(cands)
    assert fam.classes == [[0, 1]]
    assert _canonical(fam, np.array([0, 2])) is None  # A <- B and B <- A
    with pytest.raises(ValueError, match="not a DAG"):
        solve(cands, initial={"A": ("B",), "B": ("A",)}, show_progress=False)


def test_the_families_out_of_order_are_those_of_a_later_member():
    cands = CandidateParentSets.from_dict(
        {
            "A": {(): -5.0, ("B",): -4.0, ("C",): -4.0, ("D",): -4.5},
            "B": {(): -5.0, ("A",): -4.0, ("C",): -4.0, ("D",): -4.5},
            "C": {(): -5.0, ("A",): -4.0, ("B",): -4.0, ("D",): -4.5},
            "D": {(): -3.0, ("A",): -2.0, ("B",): -2.0, ("C",): -2.0},
        }
    )
    fam = _checked_families(cands)
    assert fam.classes == [[0, 1, 2]]
    out = {
        (cands.variables[fam.child[f]], fam.parents[f]) for f in np.flatnonzero(fam.out_of_order())
    }
    assert out == {("A", (1,)), ("A", (2,)), ("B", (2,))}
    # B must follow A, C must follow B: their precedence parents, never their score
    assert [fam.preds[f] for f in fam.families(1)] == [(0,), (0, 2), (0, 3), (0,)]
    assert fam.parents[fam.start[1]] == (0,)
    result = solve(cands, show_progress=False)
    assert result.optimal and result.score == pytest.approx(_best(cands))


def test_scores_apart_by_more_than_rounding_are_not_interchangeable():
    def table(delta):
        return CandidateParentSets.from_dict(
            {
                "A": {(): -5.0, ("C",): -4.0},
                "B": {(): -5.0, ("C",): -4.0 * (1 + delta)},
                "C": {(): -9.0, ("A",): -8.0, ("B",): -8.0},
            }
        )

    assert interchangeable_classes(_Families(table(0.0))) == [[0, 1]]
    assert interchangeable_classes(_Families(table(0.5 * REL_TOL))) == [[0, 1]]
    assert interchangeable_classes(_Families(table(100 * REL_TOL))) == []


def test_constant_columns_are_left_alone():
    """Variables in no family (constant columns): nothing to order, no class."""
    cands = CandidateParentSets.from_dict(
        {"A": {(): -1.0}, "B": {(): -1.0}, "C": {(): -9.0, ("D",): -8.0}, "D": {(): -9.0}}
    )
    assert interchangeable_classes(_Families(cands)) == []
    assert _checked_families(cands).preds is _checked_families(cands).parents


@pytest.mark.parametrize("score", ["bdeu", "fnml", "qnml", "bic", "k2"])
def test_duplicated_columns_end_to_end(score):
    """A column copied with its states renamed: the exact search reports the pair, and
    the solver and A* reach the DP's optimum."""
    rng = np.random.default_rng(3)
    n = 400
    a = rng.integers(0, 3, n)
    b = (a + (rng.random(n) < 0.3)) % 3
    c = rng.integers(0, 2, n) ^ (b == 1)
    data = pd.DataFrame({"A": a, "B": b, "C": c, "A2": np.array([2, 0, 1])[a], "D": b % 2})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dp = ExactSearch(score, method="dp", max_parents=2, show_progress=False).fit(data)
        for method in ("solver", "astar"):
            search = ExactSearch(score, method=method, max_parents=2, show_progress=False)
            search.fit(data)
            assert search.score_ == pytest.approx(dp.score_, rel=1e-10)
            assert search.optimal_
            assert search.interchangeable_ == (("A", "A2"),)
            assert "A" not in nx.descendants(search.causal_graph_, "A2")  # A2 follows A


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(symmetric_tables())
def test_the_arrays_describe_parents_and_precedence(case):
    """``preds`` are the parents plus the class member before the child, and ``size``,
    ``preds_mask`` and ``padded`` say the same, family by family."""
    cands, _, _ = case
    fam = _checked_families(cands)
    before = {v: u for u, v in precedence_arcs(fam.classes)}
    for f, parents in enumerate(fam.parents):
        v = int(fam.child[f])
        expect = set(parents) | ({before[v]} if v in before else set())
        assert set(fam.preds[f]) == expect and list(fam.preds[f]) == sorted(expect)
        assert fam.size[f] == len(expect)
        assert set(np.flatnonzero(fam.preds_mask([f])[0]).tolist()) == expect
        assert fam.padded[f, : len(expect)].tolist() == sorted(expect)
        assert (fam.padded[f, len(expect) :] == -1).all()
        assert parents == cands.parent_sets[v][f - fam.start[v]]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(symmetric_tables())
def test_the_families_arrays_are_their_definition(case):
    """The engines' arrays (built from the candidates' rows, vectorized) say what each
    family's child must come after, by the definition: its parents and, with symmetry,
    the member of its class before it. The families kept in order from plain ones
    (what ``_checked_families`` does, one build per candidates object) equal those built
    in order, and the plain ones are left as they were."""
    cands, _, _ = case
    plain = _Families(cands)
    direct = _Families(cands, symmetry=True)
    derived = plain.in_order()
    before = {v: u for u, v in precedence_arcs(direct.classes)}
    for fam, ordered in ((plain, False), (direct, True), (derived, True)):
        assert fam.classes == (direct.classes if ordered else [])
        for f in range(len(fam)):
            v = int(fam.child[f])
            want = set(fam.parents[f]) | ({before[v]} if ordered and v in before else set())
            assert tuple(sorted(want)) == tuple(fam.preds[f])
            assert fam.size[f] == len(want)
            assert set(np.flatnonzero(fam.preds_mask([f])[0]).tolist()) == want
            row = fam.padded[f].tolist()
            assert row[: len(want)] == sorted(want) and all(x == -1 for x in row[len(want) :])
        backwards = np.arange(len(fam))[::-1]  # arcs follow the rows asked, in their order
        k, u = fam.arcs(backwards)
        want_arcs = [(i, p) for i, f in enumerate(backwards.tolist()) for p in fam.preds[f]]
        assert list(zip(k.tolist(), u.tolist(), strict=True)) == want_arcs
        assert np.array_equal(fam.preds_mask(slice(1, None)), fam.preds_mask(backwards[-2::-1]))
    for name in ("size", "padded", "score", "start", "child"):
        assert np.array_equal(getattr(direct, name), getattr(derived, name))
    assert (derived is plain) == (not direct.classes)
    assert _checked_families(cands) is _checked_families(cands)
