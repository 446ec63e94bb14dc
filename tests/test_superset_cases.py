"""What the candidate search knows of a set's supersets (``_Lattice.supersets``),
against enumerating every superset, and its cases against one case per parent."""

import itertools
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pgmpy_nml.scores.contract import penalized_superset_bound
from pgmpy_nml.search.candidates._lattice import _Lattice


@st.composite
def levels(draw):
    """A lattice's level: allowed parents (arities, gains), required arities, the
    parent limit, the level's sets, their log-likelihoods and the cap."""
    a = draw(st.integers(1, 7))
    arities = np.array(draw(st.lists(st.integers(1, 4), min_size=a + 2, max_size=a + 2)))
    # gains N H(u) >= 0, with ties
    gains = np.array(
        draw(st.lists(st.sampled_from([0.0, 1.5, 3.0, 7.25]), min_size=a + 2, max_size=a + 2))
    )
    max_extra = draw(st.integers(1, a + 1))
    level = draw(st.integers(0, min(max_extra, a) - 1))  # a level that can grow
    every = list(itertools.combinations(range(a), level))
    picked = draw(st.lists(st.sampled_from(every), min_size=1, max_size=6, unique=True))
    # the rows scored at this level (the figures are those of these rows alone)
    to_score = np.array(draw(st.lists(st.booleans(), min_size=len(picked), max_size=len(picked))))
    to_score[draw(st.integers(0, len(picked) - 1))] = True
    n = int(to_score.sum())
    ll = np.array(draw(st.lists(st.floats(-50, 0), min_size=n, max_size=n)))
    return SimpleNamespace(
        X=np.array(picked, dtype=np.int64).reshape(len(picked), level),
        to_score=to_score,
        allowed=np.arange(2, a + 2),  # positions 0 and 1 are the required parents
        required=np.arange(draw(st.integers(0, 2))),
        max_extra=max_extra,
        level=level,
        arities=arities,
        gains=gains,
        ll=ll,
        ll_top=draw(st.sampled_from([0.0, -5.0, -20.0])),
    )


def scored(lat):
    """The level's sets that were scored (the rows the figures are for)."""
    return lat.X[lat.to_score]


def supersets_of(lat, row):
    """Every admissible proper superset of scored set ``row``: the parents added (positions)."""
    outside = [u for u in range(len(lat.allowed)) if u not in set(scored(lat)[row])]
    room = min(lat.max_extra, len(lat.allowed)) - lat.level
    for k in range(1, room + 1):
        yield from itertools.combinations(outside, k)


def check_figures_are_those_of_the_supersets(lat):
    """q_min and q_max are the fewest and most configurations of a superset, ll_max the
    largest likelihood bound of one (the gains are nonnegative, so all of them add up)."""
    out = _Lattice.supersets(lat, lat.arities, lat.gains, lat.ll, lat.ll_top)
    ar, g = lat.arities[lat.allowed], lat.gains[lat.allowed]
    base = np.prod(lat.arities[lat.required])
    for row, members in enumerate(scored(lat)):
        q = base * np.prod(ar[members])
        qs = [q * np.prod(ar[list(added)]) for added in supersets_of(lat, row)]
        lls = [
            min(lat.ll_top, lat.ll[row] + g[list(added)].sum()) for added in supersets_of(lat, row)
        ]
        assert out.n_parent_configs_min[row] == min(qs)
        assert out.n_parent_configs_max[row] == max(qs)
        assert out.log_likelihood_max[row] == max(lls)


def check_every_superset_meets_a_case(lat):
    """Each superset's likelihood bound and configurations meet both inequalities of at
    least one case (the contract of ``Supersets.cases``)."""
    ll_cases, q_cases = _Lattice.supersets(lat, lat.arities, lat.gains, lat.ll, lat.ll_top).cases
    ar, g = lat.arities[lat.allowed], lat.gains[lat.allowed]
    base = np.prod(lat.arities[lat.required])
    for row, members in enumerate(scored(lat)):
        q = base * np.prod(ar[members])
        for added in supersets_of(lat, row):
            ll = min(lat.ll_top, lat.ll[row] + g[list(added)].sum())
            q_super = q * np.prod(ar[list(added)])
            assert np.any((ll <= ll_cases[row]) & (q_super >= q_cases[row]))


def per_parent_bound(lat, penalty):
    """The bound with one case per parent added alone (the search's before it grouped
    the parents by arity), by loops."""
    ar, g = lat.arities[lat.allowed].astype(float), lat.gains[lat.allowed]
    base = float(np.prod(lat.arities[lat.required]))
    room = min(lat.max_extra, len(lat.allowed)) - lat.level
    out = []
    for row, members in enumerate(scored(lat)):
        q = base * np.prod(ar[members])
        outside = [u for u in range(len(lat.allowed)) if u not in set(members)]
        gains = sorted(g[outside], reverse=True)
        small = np.cumprod(sorted(ar[outside]))
        ll_max = min(lat.ll_top, lat.ll[row] + sum(gains[:room]))
        bound = ll_max - penalty(q * min(ar[outside]))
        cases = [min(lat.ll_top, lat.ll[row] + g[u]) - penalty(q * ar[u]) for u in outside]
        cases += [
            min(lat.ll_top, lat.ll[row] + sum(gains[:k])) - penalty(q * small[k - 1])
            for k in range(2, room + 1)
        ]
        out.append(min(bound, max(cases)))
    return np.array(out)


def check_cases_by_arity_bound_as_one_case_per_parent(lat):
    """The same bound, to the last bit, as one case per parent (a penalty that grows
    with the configurations, as qNML's and BIC's)."""

    def penalty(q):
        return 2.5 * np.log(q) + 0.3 * q

    supersets = _Lattice.supersets(lat, lat.arities, lat.gains, lat.ll, lat.ll_top)
    np.testing.assert_array_equal(
        penalized_superset_bound(supersets, penalty), per_parent_bound(lat, penalty)
    )


def check(lat):
    check_figures_are_those_of_the_supersets(lat)
    check_every_superset_meets_a_case(lat)
    check_cases_by_arity_bound_as_one_case_per_parent(lat)


@settings(max_examples=400, deadline=None)
@given(lat=levels())
def test_supersets(lat):
    check(lat)


@pytest.mark.slow
@settings(max_examples=5000, deadline=None)
@given(lat=levels())
def test_supersets_many(lat):
    check(lat)
