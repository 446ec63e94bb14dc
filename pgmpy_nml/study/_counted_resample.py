"""The bootstrap of counted data: resamples drawn as counts of the distinct rows.

A resample of ``m`` rows with replacement from ``n`` rows, of which the distinct row
``t`` occurs ``w_t`` times, shows row ``t`` a ``Multinomial(m, w / n)`` number of
times (without replacement: multivariate hypergeometric). Drawing those counts
directly costs the number of distinct rows, not ``m``; :func:`learn_counted` learns
from the counted resample what the rows would give.
"""

from __future__ import annotations

import numpy as np

from .._data import EncodedData
from .._sparse import inner_fits
from ..exceptions import InputError

__all__ = ["check_counted", "counted_resample", "learn_counted"]


def counted_resample(encoded: EncodedData, m: int, replace: bool, rng) -> EncodedData:
    """A resample of ``m`` samples of counted data, as counted data: the distinct rows'
    counts ``rng.multinomial(m, weights / n)`` (with replacement) or
    ``rng.multivariate_hypergeometric(weights, m)`` (without), the rows drawn 0 times
    left out. Exactly the distribution of the rows' counts in a row-level resample."""
    weights = encoded.weights
    if weights is None:
        weights = np.ones(encoded.n_rows, dtype=np.int64)
    if replace:
        drawn = rng.multinomial(m, weights / weights.sum())
    else:
        drawn = rng.multivariate_hypergeometric(weights, m, method="marginals")
    keep = drawn > 0
    return EncodedData(
        encoded.variables,
        np.ascontiguousarray(encoded.codes[:, keep]),
        encoded.arities,
        encoded.state_names,
        encoded.index,
        0,
        drawn[keep].astype(np.int64),
    )


def check_counted(procedure) -> str:
    """The score name of ``procedure`` if it can learn from counted data (a score by name
    of this package, a search of this package); else a message saying what to give."""
    if procedure.missing == "em":
        raise InputError(
            'missing="em" draws the missing cells row by row: give a pandas DataFrame '
            "(data.compute(), or a sample of the rows), not a Dask DataFrame."
        )
    method = procedure._checked_score_spec()
    search = procedure.method
    ours = isinstance(search, str) or type(search).__module__.startswith("pgmpy_nml.")
    if not isinstance(method, str) or not ours:
        raise InputError(
            "A Dask DataFrame is bootstrapped as counted data, which this package's searches "
            "and its scores given by name take; give method='auto', 'dp', 'astar', 'solver', "
            "'hill' or 'tabu' (or a LocalSearch/ExactSearch) and scoring_method as a name, "
            "or a pandas DataFrame."
        )
    return method


def learn_counted(procedure, encoded: EncodedData):
    """The structure ``procedure`` learns from counted data (see :func:`check_counted`)."""
    from ..scores.registry import make_score

    method = check_counted(procedure)
    score = make_score(method, encoded, **(procedure.score_params or {}))
    with inner_fits():
        found = procedure.search_for(score).fit().causal_graph_
    found.add_nodes_from(encoded.variables)
    return found
