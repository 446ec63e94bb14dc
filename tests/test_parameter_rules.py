"""One rule per parameter, wherever it is taken (issue 34, item 5): ``max_parents`` is a
whole number everywhere alike (2.0 is 2, 2.5 is refused with the same message); a time
limit too large for SCIP is no limit, for every engine; ``random_state`` of any size is
one seed for ``solve`` and ``ExactSearch``."""

import warnings

import numpy as np
import pandas as pd
import pytest

from pgmpy_nml import FNML, ExactSearch, LocalSearch, learning_saturation
from pgmpy_nml.analysis.ess import OptimalESS
from pgmpy_nml.exceptions import InputError
from pgmpy_nml.models import check_table_sizes
from pgmpy_nml.search import choose_search, find_structure
from pgmpy_nml.search.candidates import candidate_parent_sets, solve
from pgmpy_nml.study import LearningProcedure, bootstrap_strength, cross_validate


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(0)
    frame = pd.DataFrame(rng.integers(0, 2, (200, 4)), columns=list("ABCD"))
    frame["B"] = np.where(rng.random(200) < 0.8, frame["A"], frame["B"])
    return frame.astype(str)


#: Every public callable that takes ``max_parents``, on the data.
CALLS = {
    "ExactSearch": lambda d, m: ExactSearch("fnml", max_parents=m, show_progress=False).fit(d),
    "LocalSearch": lambda d, m: LocalSearch("fnml", max_parents=m, show_progress=False).fit(d),
    "find_structure": lambda d, m: find_structure(FNML(d), d, max_parents=m),
    "choose_search": lambda d, m: choose_search(4, "auto", m),
    "candidate_parent_sets": lambda d, m: candidate_parent_sets(FNML(d), max_parents=m),
    "bootstrap_strength": lambda d, m: bootstrap_strength(d, max_parents=m, n_bootstrap=2),
    "cross_validate": lambda d, m: cross_validate(d, max_parents=m, k=2),
    "LearningProcedure": lambda d, m: LearningProcedure("hill", max_parents=m).fresh().fit(d),
    "OptimalESS": lambda d, m: OptimalESS(max_parents=m).fit(d),
    "learning_saturation": lambda d, m: learning_saturation(d, [100, 200], max_parents=m),
    "check_table_sizes": lambda d, m: check_table_sizes({"A": 2, "B": 2}, max_parents=m),
}


@pytest.mark.parametrize("name", CALLS)
def test_max_parents_is_a_whole_number_everywhere_alike(name, data):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        CALLS[name](data, 2.0)  # a float with a whole value is that number
        CALLS[name](data, np.int64(1))
        with pytest.raises(
            InputError, match=r"max_parents must be a non-negative integer, got 2\.5"
        ):
            CALLS[name](data, 2.5)
        with pytest.raises(InputError, match="max_parents must be a non-negative integer"):
            CALLS[name](data, -1)


def test_a_whole_float_gives_the_integers_result(data):
    a = ExactSearch("fnml", max_parents=1, show_progress=False).fit(data)
    b = ExactSearch("fnml", max_parents=1.0, show_progress=False).fit(data)
    assert sorted(a.dag_.edges()) == sorted(b.dag_.edges()) and b.max_parents_ == 1


@pytest.mark.parametrize("method", ["dp", "astar", "solver", "astar|solver", "solver|solver"])
@pytest.mark.parametrize("limit", [1e19, 1e20, 1e30, float(2**63)])
def test_a_limit_scip_cannot_take_is_no_limit(data, method, limit):
    """SCIP takes at most 1e20 s (its infinity): from there on a limit is no limit, for
    every engine alike, never a crash inside SCIP."""
    search = ExactSearch("fnml", method=method, time_limit=limit, max_parents=2)
    search.set_params(show_progress=False).fit(data)
    assert search.optimal_


@pytest.mark.parametrize("seed", [0, 7, 2**31 - 1, 2**31, 2**40, 2**64 + 3])
def test_any_seed_is_one_seed_for_solve_and_exact_search(data, seed):
    """The same rule in both places: an integer of any size, taken modulo 2**31 (SCIP's C
    int), so that equal seeds modulo 2**31 run the same search."""
    candidates, _ = candidate_parent_sets(FNML(data), max_parents=2)
    direct = solve(candidates, random_state=seed, show_progress=False)
    fitted = ExactSearch("fnml", method="solver", max_parents=2, random_state=seed)
    fitted.set_params(show_progress=False).fit(data)
    assert direct.optimal and fitted.optimal_
    assert direct.parents == {v: tuple(sorted(fitted.dag_.predecessors(v))) for v in data}
    for bad in (-1, 1.5, "seed"):
        with pytest.raises((InputError, TypeError), match="random_state"):
            solve(candidates, random_state=bad, show_progress=False)
