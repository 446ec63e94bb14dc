"""``per_distinct`` against evaluating every element."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from pgmpy_nml.numerics._distinct import per_distinct


@given(
    st.lists(st.sampled_from([1.0, 2.0, 3.0, 6.0, 2.0**53, np.nan, -0.0]), max_size=60),
    st.sampled_from([(-1,), (3, -1), (-1, 2)]),
)
def test_per_distinct_equals_evaluating_every_element(values, shape):
    values = np.array(values + [1.0] * (-len(values) % 6))  # a multiple of 6 elements
    values = values.reshape(shape) if values.size else values
    seen = []

    def evaluate(distinct):
        seen.append(distinct.copy())
        return distinct * 3.0 + 1.0

    out = per_distinct(values, evaluate)
    assert out.shape == values.shape
    np.testing.assert_array_equal(out, values * 3.0 + 1.0)  # NaN where NaN
    assert len(seen) == 1 and len(seen[0]) == len(np.unique(values.ravel(), equal_nan=True))


def test_per_distinct_of_integers_keeps_their_dtype():
    counts = np.array([5, 0, 5, 7, 0], dtype=np.int64)
    out = per_distinct(counts, lambda ns: (ns.dtype == np.int64) * ns.astype(np.float64))
    np.testing.assert_array_equal(out, counts.astype(np.float64))
