"""CandidateParentSets: validation, queries and the GOBNILP / CPBayes score-file format."""

import itertools
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pgmpy_nml.search.candidates import CandidateParentSets, read_score_file, write_score_file


def small():
    return CandidateParentSets.from_dict(
        {
            "A": {(): -10.5, ("B",): -12.25},
            "B": {(): -20.0},
            "C": {("A", "B"): -7.0, (): -15.5, ("A",): -7.0},
        }
    )


def random_candidates(n, seed, with_empty=0.8):
    rng = np.random.default_rng(seed)
    parent_sets, scores = [], []
    for v in range(n):
        others = [u for u in range(n) if u != v]
        sets_v = set()
        if rng.random() < with_empty:
            sets_v.add(())
        for _ in range(rng.integers(1, 6)):
            k = int(rng.integers(1, min(3, n - 1) + 1))
            sets_v.add(tuple(sorted(rng.choice(others, k, replace=False).tolist())))
        sets_v = sorted(sets_v)
        parent_sets.append(sets_v)
        scores.append(-rng.gamma(2.0, 50.0, len(sets_v)) * 1.0001)
    return CandidateParentSets([f"X{i}" for i in range(n)], parent_sets, scores)


# -- the data structure ------------------------------------------------------------------
def test_canonical_order_best_first_then_fewer_parents():
    c = small()
    assert c.parent_sets[2] == ((0,), (0, 1), ())  # tie at -7.0: fewer parents first
    assert c.scores[2].tolist() == [-7.0, -7.0, -15.5]
    assert c.n_candidates().tolist() == [2, 1, 3]
    assert c.local_score("C", ["B", "A"]) == -7.0
    assert c.index("A", ["B"]) == 1
    assert c.upper_bound() == -10.5 - 20.0 - 7.0


def test_equal_whatever_the_input_order():
    a = CandidateParentSets(["x", "y"], [[(), (1,)], [(0,), ()]], [[-1.0, -2.0], [-3.0, -4.0]])
    b = CandidateParentSets(["x", "y"], [[[1], []], [[], [0]]], [[-2.0, -1.0], [-4.0, -3.0]])
    assert a == b
    assert a != CandidateParentSets(["x", "y"], [[()], [()]], [[-1.0], [-4.0]])


def test_scores_are_read_only():
    c = small()
    with pytest.raises(ValueError):
        c.scores[0][0] = 1.0


def test_total_score_of_a_network():
    c = small()
    assert c.score({"A": (), "B": [], "C": ("A",)}) == -10.5 - 20.0 - 7.0
    with pytest.raises(ValueError, match="No parent set given"):
        c.score({"A": ()})
    with pytest.raises(ValueError, match="not a candidate"):
        c.score({"A": (), "B": ("A",), "C": ()})


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((["a", "a"], [[()], [()]], [[0.0], [0.0]]), "appears twice"),
        (([], [], []), "at least one variable"),
        ((["a", "b"], [[()]], [[0.0]]), "one entry per variable"),
        ((["a", "b"], [[()], []], [[0.0], []]), "no candidate parent set"),
        ((["a", "b"], [[(0,)], [()]], [[0.0], [0.0]]), "the variable itself"),
        ((["a", "b"], [[(2,)], [()]], [[0.0], [0.0]]), "outside 0..1"),
        ((["a", "b"], [[(1, 1)], [()]], [[0.0], [0.0]]), "same parent twice"),
        ((["a", "b"], [[(1,), [1]], [()]], [[0.0, 1.0], [0.0]]), "twice"),
        ((["a", "b"], [[()], [()]], [[np.nan], [0.0]]), "must be finite"),
        ((["a", "b"], [[()], [()]], [[-np.inf], [0.0]]), "must be finite"),
        ((["a", "b"], [[(), (1,)], [()]], [[0.0], [0.0]]), "2 parent sets but 1 scores"),
    ],
)
def test_validation(args, message):
    with pytest.raises(ValueError, match=message):
        CandidateParentSets(*args)


def test_parent_types():
    with pytest.raises(TypeError, match="integer variable positions"):
        CandidateParentSets(["a", "b"], [[("b",)], [()]], [[0.0], [0.0]])
    with pytest.raises(TypeError, match="collections"):
        CandidateParentSets(["a", "b"], [[1], [()]], [[0.0], [0.0]])


def test_empty_set_may_be_absent():
    c = CandidateParentSets(["a", "b"], [[(1,)], [()]], [[-1.0], [-2.0]])
    assert c.parent_sets[0] == ((1,),)


def test_from_dict_unknown_parent():
    with pytest.raises(ValueError, match="not one of the variables"):
        CandidateParentSets.from_dict({"A": {("Z",): 0.0}})


def test_restrict():
    c = small()
    r = c.restrict(required_edges=[("A", "C")], forbidden_edges=[("B", "C")])
    assert r.to_dict()["C"] == {("A",): -7.0}
    assert r.to_dict()["A"] == c.to_dict()["A"]
    assert c.restrict(max_parents=1).n_candidates().tolist() == [2, 1, 2]
    with pytest.raises(ValueError, match="No candidate parent set of 'B'"):
        c.restrict(required_edges=[("A", "B")])
    with pytest.raises(ValueError, match="both required and forbidden"):
        c.restrict(required_edges=[("A", "C")], forbidden_edges=[("A", "C")])
    with pytest.raises(ValueError, match="not one of the variables"):
        c.restrict(forbidden_edges=[("Q", "C")])


# -- the file format ---------------------------------------------------------------------
def test_written_file_is_the_jkl_format(tmp_path):
    path = tmp_path / "s.jkl"
    small().to_file(path)
    assert path.read_text() == (
        "3\nA 2\n-10.5 0\n-12.25 1 B\nB 1\n-20.0 0\nC 3\n-7.0 1 A\n-7.0 2 A B\n-15.5 0\n"
    )
    write_score_file(small(), path, labels="indices")
    assert path.read_text() == (
        "3\n0 2\n-10.5 0\n-12.25 1 1\n1 1\n-20.0 0\n2 3\n-7.0 1 0\n-7.0 2 0 1\n-15.5 0\n"
    )


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("labels", ["names", "indices"])
def test_round_trip_is_exact(tmp_path, seed, labels):
    c = random_candidates(7, seed)
    # awkward floats: many digits, tiny and huge magnitudes
    scores = [s * np.pi * 10.0 ** (seed - 2) for s in c.scores]
    c = CandidateParentSets(c.variables, c.parent_sets, scores)
    path = tmp_path / "r.jkl"
    c.to_file(path, labels=labels)
    back = read_score_file(path, variables=c.variables if labels == "indices" else None)
    assert back == c
    assert all(np.array_equal(a, b) for a, b in zip(back.scores, c.scores, strict=True))


def test_hand_written_gobnilp_file(tmp_path):
    # names, blank lines, comments, parents in any order, sets in any order
    path = tmp_path / "g.jkl"
    path.write_text(
        "# made by hand\n3\nrain 2\n-4.5 0\n-1.5 2 wet  sprinkler\n\n"
        "sprinkler 1\n-2 0\nwet 3\n-9.25 0\n-3e0 1 rain\n-0.5 2 sprinkler rain\n"
    )
    c = read_score_file(path)
    assert c.variables == ("rain", "sprinkler", "wet")
    assert c.to_dict() == {
        "rain": {("sprinkler", "wet"): -1.5, (): -4.5},
        "sprinkler": {(): -2.0},
        "wet": {("rain", "sprinkler"): -0.5, ("rain",): -3.0, (): -9.25},
    }


def test_hand_written_cpbayes_file_with_indices(tmp_path):
    # CPBayes reads "<id> <count>" and parents as ids; blocks need not be in id order
    path = tmp_path / "c.jkl"
    path.write_text("3\n2 2\n-1.0 1 0\n-2.0 0\n0 1\n-3.0 0\n1 2\n-4.0 2 0 2\n-5.0 0\n")
    c = read_score_file(path)
    assert c.variables == ("2", "0", "1")
    # parents are listed in the order of the variables (file order): "2" before "0"
    assert c.to_dict()["1"] == {("2", "0"): -4.0, (): -5.0}
    named = read_score_file(path, variables=["a", "b", "c"])
    assert named.variables == ("c", "a", "b")
    assert named.to_dict() == {
        "c": {("a",): -1.0, (): -2.0},
        "a": {(): -3.0},
        "b": {("c", "a"): -4.0, (): -5.0},
    }
    with pytest.raises(ValueError, match="match them one to one"):
        read_score_file(path, variables=["a", "b"])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("x\n", "number of variables"),
        ("2\nA 1\n-1.0 0\n", "ends early"),
        ("1\nA 1\n-1.0 1\n", "announces 1 parents but lists 0"),
        ("1\nA 1\n-1.0 0 B\n", "announces 0 parents but lists 1"),
        ("2\nA 1\n-1.0 1 Z\nB 1\n0 0\n", "parent 'Z' of 'A' is not a variable"),
        ("1\nA 1\nabc 0\n", "should be '<score>"),
        ("1\nA one\n", "should be '<variable> <number of parent sets>'"),
        ("1\nA 1\n-1.0 0\nB 1\n", "more content"),
        ("2\nA 1\n-1.0 0\nA 1\n-1.0 0\n", "appears twice"),
        ("1\nA 1\nnan 0\n", "must be finite"),
        ("2\nA 1\n-1.0 1 A\nB 1\n0 0\n", "the variable itself"),
    ],
)
def test_malformed_files(tmp_path, text, message):
    path = tmp_path / "bad.jkl"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        read_score_file(path)


def test_names_the_format_cannot_hold(tmp_path):
    c = CandidateParentSets(["has space", "b"], [[()], [()]], [[0.0], [0.0]])
    with pytest.raises(ValueError, match="labels='indices'"):
        c.to_file(tmp_path / "x.jkl")
    c.to_file(tmp_path / "x.jkl", labels="indices")
    assert read_score_file(tmp_path / "x.jkl", variables=c.variables) == c
    numeric = CandidateParentSets([5, 7], [[()], [()]], [[0.0], [0.0]])
    with pytest.raises(ValueError, match="take them for indices"):
        numeric.to_file(tmp_path / "y.jkl")
    with pytest.raises(ValueError, match="labels must be"):
        c.to_file(tmp_path / "x.jkl", labels="ids")


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 6), st.integers(0, 2**31 - 1), st.booleans())
def test_the_fast_construction_is_the_checked_one(n, seed, ties):
    """``CandidateParentSets._from_blocks`` (the candidate search's arrays) builds the
    object the checked constructor builds from the same sets as tuples, in any block
    order and with tied scores (the order then goes by size, then lexicographically)."""
    rng = np.random.default_rng(seed)
    blocks, scores, tuples = [], [], []
    for v in range(n):
        others = [u for u in range(n) if u != v]
        by_width = {}
        for k in range(min(len(others), 3) + 1):
            sets = [c for c in itertools.combinations(others, k) if rng.random() < 0.7]
            if k == 0 or sets:
                sets = sets or [()]
                by_width[k] = np.array(sets, dtype=np.int64).reshape(len(sets), k)
        widths = list(by_width)
        rng.shuffle(widths)
        bl = [by_width[k] for k in widths]
        m = sum(len(b) for b in bl)
        sc = rng.integers(-3, 0, m).astype(float) if ties else rng.normal(-10, 3, m)
        blocks.append(bl)
        scores.append(sc)
        tuples.append([tuple(r) for b in bl for r in b.tolist()])
    names = [f"X{i}" for i in range(n)]
    fast = CandidateParentSets._from_blocks(names, blocks, scores)
    checked = CandidateParentSets(names, tuples, scores)
    assert fast == checked
    assert fast.parent_sets == checked.parent_sets
    assert all(not s.flags.writeable for s in fast.scores)
    assert fast.local_score("X0", []) == checked.local_score("X0", [])
    for a, b in zip(fast._rows(), checked._rows(), strict=True):
        assert np.array_equal(a, b)
    _assert_rows_are_the_sets(fast)
    copy = pickle.loads(pickle.dumps(fast))
    assert copy == fast
    assert copy.parent_sets == fast.parent_sets
    assert all(not s.flags.writeable for s in copy.scores)
    _assert_rows_are_the_sets(copy)


def _assert_rows_are_the_sets(c):
    """The engines' arrays (``_rows``) hold the candidates' tuples, one row each, -1 after."""
    padded, size = c._rows()
    sets = [p for s in c.parent_sets for p in s]
    assert padded.shape[0] == len(sets) == size.size
    assert padded.shape[1] == max(1, max(map(len, sets)))
    for row, k, p in zip(padded.tolist(), size.tolist(), sets, strict=True):
        assert k == len(p)
        assert tuple(row[:k]) == p
        assert all(x == -1 for x in row[k:])
    assert not padded.flags.writeable


@pytest.mark.parametrize("seed", range(20))
def test_pickling_keeps_the_candidates(seed):
    """A pickle (how the portfolio hands candidates to its solver process) carries the
    sets as arrays; the copy equals the original, down to every tuple."""
    c = random_candidates(2 + seed % 7, seed)
    copy = pickle.loads(pickle.dumps(c))
    assert copy == c
    assert copy.parent_sets == c.parent_sets
    assert copy.variables == c.variables
    _assert_rows_are_the_sets(c)
    _assert_rows_are_the_sets(copy)
    first = [c.variables[u] for u in c.parent_sets[0][-1]]
    assert copy.local_score(c.variables[0], first) == c.local_score(c.variables[0], first)


def test_the_fast_construction_refuses_a_bad_score_as_the_checked_one():
    blocks = [[np.zeros((1, 0), dtype=np.int64)], [np.zeros((1, 0), dtype=np.int64)]]
    with pytest.raises(ValueError, match="local score of 'b'"):
        CandidateParentSets._from_blocks(["a", "b"], blocks, [[-1.0], [np.nan]])
