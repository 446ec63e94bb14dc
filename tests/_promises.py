"""What an exact search's result promises, stopped or proven, checked in one place.

Every engine over candidate parent sets (the solver, A*, the portfolios) returns a
:class:`~pgmpy_nml.search.SearchResult` that promises: a DAG of candidates whose score
is the exact sum of its families; a finite bound, no lower than that score and no
higher than the trivial bound (every variable with its best candidate); the gap the two
define, 0 when proven; and, against the optimum found independently (brute force, the
DP), a network no better and a bound no lower.
"""

import math

import networkx as nx
import pytest


def assert_sound_result(result, candidates, optimum=None):
    """Check ``result``'s promises over ``candidates`` (and ``optimum``, if given)."""
    assert nx.is_directed_acyclic_graph(result.dag)
    assert result.dag.number_of_nodes() == candidates.n_variables
    assert result.score == pytest.approx(candidates.score(dict(result.parents)), rel=1e-12)
    assert math.isfinite(result.bound)
    assert result.score <= result.bound <= candidates.upper_bound() + 1e-9
    if result.optimal:
        assert result.gap == 0.0
    else:
        assert result.gap == pytest.approx((result.bound - result.score) / abs(result.score))
    if optimum is not None:
        tol = 1e-9 * (1 + abs(optimum))
        assert result.score <= optimum + tol
        assert result.bound >= optimum - tol
        if result.optimal:
            assert result.score == pytest.approx(optimum, rel=1e-9)
