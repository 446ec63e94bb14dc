"""A score object and the data it is built on: rebuild it on other data, or check it is.

A score object is bound to the data it was built on. The searches take a score object
only for the data they fit (:func:`check_same_data`); the study tools refit one
procedure on many data sets and rebuild the score on each (:func:`rebind_score`).
:func:`~pgmpy_nml.scores.resolve_score` chooses between them.
"""

from __future__ import annotations

import inspect
import warnings
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

    from .._typing import Score

__all__ = ["check_same_data", "rebind_score"]


def _score_params(score) -> dict:
    """Constructor arguments of a score object, ``data`` included."""
    if hasattr(score, "get_params"):
        try:
            return dict(score.get_params(deep=False))
        except (AttributeError, TypeError):
            pass
    signature = inspect.signature(type(score).__init__)
    params = {}
    for name, parameter in signature.parameters.items():
        if name == "self" or parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        if hasattr(score, name):
            params[name] = getattr(score, name)
    return params


def rebind_score(score: Score, data: pd.DataFrame) -> Score:
    """A score of the same class and parameters as ``score``, built on ``data``.

    The declared states of ``score`` (its ``state_names``, which for the scores of
    this package and of pgmpy cover every variable) are kept, so a resample that
    misses a state still scores with the full arity.

    Parameters
    ----------
    score : score object
        A score of this package or of pgmpy (either API), or any score whose
        constructor takes ``data`` and keeps its other arguments as attributes.
    data : pandas.DataFrame

    Returns
    -------
    score object

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy_nml import BDeu
    >>> from pgmpy_nml.study import rebind_score
    >>> score = BDeu(pd.DataFrame({"A": [0, 1, 2]}), equivalent_sample_size=4)
    >>> other = rebind_score(score, pd.DataFrame({"A": [0, 0]}))
    >>> other.equivalent_sample_size, other.state_names["A"], len(other.data)
    (4.0, [0, 1, 2], 2)
    """
    if getattr(score, "data", None) is data:
        return score
    params = _score_params(score)
    if "data" not in params and "data" not in inspect.signature(type(score).__init__).parameters:
        raise TypeError(
            f"Cannot rebuild the score {type(score).__name__} on new data: its constructor "
            "takes no `data`. Give the score by name, or a score class that takes data."
        )
    params["data"] = data
    names = params.get("state_names")
    if names:
        params["state_names"] = {v: list(s) for v, s in names.items() if v in data.columns}
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=FutureWarning, module=r"pgmpy(\.|$)")
        return type(score)(**params)


def check_same_data(score: Score, data: pd.DataFrame) -> None:
    """A score object must be built on the data ``fit`` gets (or ``fit`` gets none)."""
    import numpy as np

    theirs = getattr(score, "data", None)
    if theirs is None or theirs is data:
        return
    shape = getattr(data, "shape", None)
    if shape != theirs.shape or list(data.columns) != list(theirs.columns):
        raise ValueError(
            f"The score was built on columns {list(theirs.columns)!r} ({len(theirs)} rows), but "
            f"fit() got {list(data.columns)!r} ({len(data)} rows): build the score on the data "
            "you fit, or call fit() without data to learn from the score's data."
        )
    same = theirs.equals(data) or np.array_equal(
        theirs.to_numpy(dtype=object), data.to_numpy(dtype=object)
    )
    if not same:
        raise ValueError(
            "The score was built on other values than the data fit() got (same shape and "
            "columns): build the score on the data you fit, or call fit() without data."
        )
