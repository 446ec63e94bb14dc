"""The input boundary: encoding and every error a user can run into."""

import numpy as np
import pandas as pd
import pytest

from pgmpy_nml._data import encode_data
from pgmpy_nml.scores import FNML


@pytest.fixture
def df():
    return pd.DataFrame(
        {"A": [0, 1, 1, 0], "B": ["x", "y", "y", "y"], "C": [True, False, True, True]}
    )


def test_codes_follow_sorted_states_like_pgmpy(df):
    enc = encode_data(df)
    assert enc.variables == ("A", "B", "C")
    assert enc.state_names == {"A": [0, 1], "B": ["x", "y"], "C": [False, True]}
    assert enc.codes.tolist() == [[0, 1, 1, 0], [0, 1, 1, 1], [1, 0, 1, 1]]
    assert enc.codes.dtype == np.int32 and enc.codes.flags.c_contiguous
    assert enc.arities.tolist() == [2, 2, 2]


def test_declared_unobserved_states_count_in_arity(df):
    enc = encode_data(df, state_names={"B": ["z", "y", "x"], "A": [0, 1, 2, 3]})
    assert enc.arities.tolist() == [4, 3, 2]
    assert enc.codes[1].tolist() == [2, 1, 1, 1]  # declared order is kept
    assert enc.state_names["B"] == ["z", "y", "x"]


def test_categorical_and_integral_float_columns():
    data = pd.DataFrame(
        {
            "A": pd.Categorical(["lo", "hi", "lo"]),
            "B": [1.0, 2.0, 1.0],
            "C": np.array([3, 1, 2], dtype=np.int8),
        }
    )
    enc = encode_data(data)
    assert enc.state_names["A"] == ["hi", "lo"]
    assert enc.state_names["B"] == [1.0, 2.0]
    assert enc.codes.tolist() == [[1, 0, 1], [0, 1, 0], [2, 0, 1]]


def test_huge_arity_products_do_not_overflow():
    n = 50
    rng = np.random.default_rng(0)
    states = list(range(2**13))
    data = pd.DataFrame({c: rng.integers(0, 8, n) for c in "ABCDEF"})
    enc = encode_data(data, state_names={c: states for c in "ABCDEF"})
    q = enc.configurations(range(6))
    assert q == 2**78  # exact Python int, no wrap-around


@pytest.mark.parametrize(
    ("data", "error", "match"),
    [
        (np.zeros((3, 2)), TypeError, r"pandas DataFrame.*pd.DataFrame\(array"),
        ([[0, 1]], TypeError, "got list"),
        (pd.DataFrame(), ValueError, "no columns"),
        (pd.DataFrame({"A": []}), ValueError, "no rows"),
        (
            pd.DataFrame({"A": [0, None, 1, None], "B": [1, 1, None, 0]}),
            ValueError,
            r"missing values in column\(s\) 'A' \(2 rows\), 'B' \(1 row\) out of 4 rows.*dropna",
        ),
        (pd.DataFrame({"A": [0.5, 1.25, 2.0]}), ValueError, r"'A' looks continuous.*0.5.*pd.cut"),
        (pd.DataFrame({"A": [0, "a", 1]}), ValueError, r"mixes value types \(number, str\)"),
        (pd.DataFrame({"A": pd.to_datetime(["2020-01-01"])}), ValueError, "not a discrete type"),
        (pd.DataFrame([[0, 1]], columns=["A", "A"]), ValueError, "duplicated column names: 'A'"),
    ],
)
def test_bad_data_is_refused_with_a_clear_message(data, error, match):
    with pytest.raises(error, match=match):
        encode_data(data)


@pytest.mark.parametrize(
    ("state_names", "error", "match"),
    [
        ({"B": ["x"]}, ValueError, r"'B' has values not in state_names\['B'\].*'y' \(3 rows\)"),
        ({"A": ["0", "1"]}, ValueError, r"1 and '1' are different"),
        ({"Z": [0, 1]}, ValueError, r"variable\(s\) 'Z' that are not columns"),
        ({"A": []}, ValueError, "is empty"),
        ({"A": [0, 1, 1]}, ValueError, "lists a state twice: 1"),
        ({"A": "01"}, TypeError, "must be a list of states"),
        ([("A", [0, 1])], TypeError, "state_names must be a dict"),
    ],
)
def test_bad_state_names_are_refused(df, state_names, error, match):
    with pytest.raises(error, match=match):
        encode_data(df, state_names=state_names)


def test_family_queries_are_validated(df):
    enc = encode_data(df)
    assert enc.family("C", ["B", "A"]) == (2, (0, 1))
    assert enc.family("C", ("A", "B")) == (2, (0, 1))
    assert enc.family("A", None) == (0, ())
    with pytest.raises(
        ValueError, match=r"Unknown variable 'Q': the data has columns 'A', 'B', 'C'"
    ):
        enc.family("Q", [])
    with pytest.raises(ValueError, match=r"Unknown variable 'Q'"):
        enc.family("A", ["Q"])
    with pytest.raises(ValueError, match="'A' is listed among its own parents"):
        enc.family("A", ["B", "A"])
    with pytest.raises(ValueError, match=r"contain duplicates \('B'\)"):
        enc.family("A", ["B", "C", "B"])
    with pytest.raises(TypeError, match=r"write \['B'\]"):
        enc.family("A", "B")


def test_scores_validate_at_the_boundary(df):
    score = FNML(df)
    with pytest.raises(ValueError, match="listed among its own parents"):
        score.local_score("A", ["A"])
    with pytest.raises(ValueError, match="Unknown variable"):
        score.local_score("nope", [])
    with pytest.raises(ValueError, match="missing values"):
        FNML(df.assign(A=[0, 1, None, 1]))


def test_nothing_is_dropped_silently():
    # every row reaches the counts: the empty-parent table sums to N
    data = pd.DataFrame({"A": [0, 1, 1, 2, 2, 2]})
    enc = encode_data(data)
    assert np.bincount(enc.codes[0]).tolist() == [1, 2, 3]


def test_categorical_categories_are_the_declared_states():
    # unused categories count in the arity, and the categories' order is the states' order
    column = pd.Categorical(["lo", "hi", "lo"], categories=["lo", "mid", "hi"], ordered=True)
    enc = encode_data(pd.DataFrame({"A": column, "B": [0, 1, 1]}))
    assert enc.state_names["A"] == ["lo", "mid", "hi"]
    assert enc.arities.tolist() == [3, 2]
    assert enc.codes[0].tolist() == [0, 2, 0]
    # the arity reaches the scores: fNML's regret grows with the unused state
    observed_only = pd.DataFrame({"A": ["lo", "hi", "lo"], "B": [0, 1, 1]})
    assert FNML(pd.DataFrame({"A": column, "B": [0, 1, 1]})).local_score("A", []) < FNML(
        observed_only
    ).local_score("A", [])
    # explicit state_names still win over the categories
    enc = encode_data(pd.DataFrame({"A": column}), state_names={"A": ["hi", "lo"]})
    assert enc.state_names["A"] == ["hi", "lo"] and enc.codes[0].tolist() == [1, 0, 1]


@pytest.mark.parametrize(
    "values",
    [
        [1, True, 1, 0],
        [True, 1.0, False],
        [np.int64(0), np.True_, 1],
    ],
)
def test_booleans_and_numbers_never_merge(values):
    data = pd.DataFrame({"A": pd.Series(values, dtype=object)})
    with pytest.raises(ValueError, match=r"'A' mixes value types \(bool, number\).*True and 1"):
        encode_data(data)


def test_booleans_against_numeric_state_names_are_refused():
    data = pd.DataFrame({"A": [True, False, True]})
    with pytest.raises(ValueError, match=r"mix booleans and numbers.*True and 1"):
        encode_data(data, state_names={"A": [0, 1]})
    # the same type on both sides is fine
    assert encode_data(data, state_names={"A": [False, True]}).codes[0].tolist() == [1, 0, 1]


def test_object_columns_of_floats_are_checked_as_continuous():
    data = pd.DataFrame({"A": pd.Series([0.5, 1.25, 2], dtype=object)})
    with pytest.raises(ValueError, match="'A' looks continuous"):
        encode_data(data)
    whole = pd.DataFrame({"A": pd.Series([1.0, 2, 1], dtype=object)})
    assert encode_data(whole).arities.tolist() == [2]


@pytest.mark.parametrize("seed", range(40))
def test_categorical_columns_encode_as_their_values_do(seed):
    """A Categorical column is encoded from its categories (each looked up once), which must
    give the codes of the same values in an object column: unused categories, categories in
    any order, declared states in another order, missing cells kept as -1."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 60))
    pool = ["a", "b", "c", "d", 1, 2, 3.5][: int(rng.integers(2, 5))]
    values = rng.choice(np.array(pool, dtype=object), n)
    categories = list(rng.permutation(np.array([*pool, "unused"], dtype=object)))
    frame = pd.DataFrame(
        {
            "C": pd.Categorical(values, categories=categories),
            "D": pd.Categorical(rng.integers(0, 3, n)),
        }
    )
    plain = frame.astype(object)
    plain["C"] = pd.Categorical(values, categories=categories).astype(object)
    encoded = encode_data(frame)
    assert encoded.state_names["C"] == categories  # a Categorical declares its categories
    reference = encode_data(plain, state_names={"C": categories, "D": encoded.state_names["D"]})
    np.testing.assert_array_equal(encoded.codes, reference.codes)
    shuffled = list(rng.permutation(np.array(categories, dtype=object)))
    np.testing.assert_array_equal(
        encode_data(frame, state_names={"C": shuffled}).codes,
        encode_data(plain, state_names={"C": shuffled, "D": encoded.state_names["D"]}).codes,
    )
    holes = frame.copy()
    hole = rng.random(n) < 0.3
    hole[0] = False  # a column with no value left is refused (tested elsewhere)
    holes.loc[hole, "C"] = np.nan
    got = encode_data(holes, missing="available").codes[0]
    missing = holes["C"].isna().to_numpy()
    assert (got[missing] == -1).all()
    np.testing.assert_array_equal(got[~missing], encoded.codes[0][~missing])
