"""The thin adapter between this package's scores and pgmpy's structure search.

pgmpy 1.1 has two structure-search APIs side by side, and each checks the type
of the score it is given: the legacy ``pgmpy.estimators`` searches want a
``pgmpy.estimators.StructureScore``, the new ``pgmpy.causal_discovery`` ones a
``pgmpy.structure_score.BaseStructureScore``. :class:`DiscreteScore` is both,
so every score here works unchanged in either.
"""

from __future__ import annotations

import warnings
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np
from pgmpy.structure_score import BaseStructureScore

from .._counting import family_table
from .._data import EncodedData
from .._frames import encode_frame, is_dask_frame

if TYPE_CHECKING:
    from collections.abc import Hashable, Iterable

    import pandas as pd

    from .._typing import Graph, StateNames

with warnings.catch_warnings():
    # Importing the legacy base class makes pgmpy announce its deprecation; our
    # users asked for neither the legacy module nor the warning.
    warnings.filterwarnings("ignore", category=FutureWarning, module=r"pgmpy(\.|$)")
    from pgmpy.estimators import StructureScore as _LegacyStructureScore

__all__ = ["DiscreteScore"]

_CACHE_SIZE = 1 << 17


def score_tags(name: str | None, *, parametric: bool = False) -> dict:
    """pgmpy's tags of a discrete structure score (``_tags``): its registry name and kind.

    pgmpy spells the last key ``is_parameteric``; keep its spelling.
    """
    return {
        "name": name,
        "supported_datatype": "discrete",
        "default_for": None,
        "is_parameteric": parametric,
    }


class DiscreteScore(BaseStructureScore, _LegacyStructureScore):
    """Base class of the decomposable scores of pgmpy-nml.

    It validates and encodes the data once (see :func:`pgmpy_nml._data.encode_data`),
    accepts parents as a list or a tuple in any order, caches local scores by
    parent *set*, and counts each family with a compiled kernel. A subclass only
    says how a family's count table becomes a local score, in
    :meth:`_score_table`.

    Parameters
    ----------
    data : pandas.DataFrame, dask.dataframe.DataFrame or EncodedData
        Discrete data, one column per variable, no missing values. Large data
        frames with many repeated rows are held as counted data (distinct rows
        with counts, :func:`pgmpy_nml._counted.encode_frame`), a Dask DataFrame is
        counted partition by partition where it lives; either gives the same
        local scores as the rows. Data already encoded
        (:class:`pgmpy_nml._data.EncodedData`) are taken as they are. ``data``
        is None for the last two.
    state_names : dict, optional
        Variable -> list of states. Declared states that never occur in the data
        count in the variable's arity.
    """

    _tags = score_tags(None)

    #: the input boundary's missing-value policy (:func:`~pgmpy_nml._data.encode_data`):
    #: "error" for every score but those written for incomplete data ("available")
    _missing = "error"

    def __init__(self, data: pd.DataFrame, state_names: StateNames | None = None) -> None:
        # skbase's BaseObject.__init__ would chain into the legacy base's
        # __init__(data); set up its flags directly instead.
        self._init_flags(flag_attr_name="_tags")
        self._init_flags(flag_attr_name="_config")
        if isinstance(data, EncodedData):
            if state_names is not None:
                raise ValueError(
                    "state_names are for a DataFrame; encoded data carry their own states."
                )
            encoded = data
            data = None
        else:
            encoded = encode_frame(data, state_names, missing=self._missing)
            if is_dask_frame(data):
                data = None  # counted where it lives: the score holds the counts only
        self.data = data
        self.dtypes = None
        self.variables = list(encoded.variables)
        self.state_names = encoded.state_names
        self._encoded = encoded
        self._reset_caches()

    def _reset_caches(self) -> None:
        self._cached_local_score = lru_cache(maxsize=_CACHE_SIZE)(self._score_family)
        self._seen: dict = {}

    @property
    def n_samples(self) -> int:
        """Number of rows of the data."""
        return self._encoded.n_samples

    @property
    def encoded(self) -> EncodedData:
        """The validated data as integer codes, arities and state names."""
        return self._encoded

    def local_score(self, variable: Hashable, parents: Iterable[Hashable] = ()) -> float:
        """Local score of ``variable`` given ``parents`` (list or tuple, any order).

        A repeated query costs one dictionary lookup: the first call validates the
        names and maps every ordering of a parent set to one cached value.
        """
        kind = type(parents)
        if kind is tuple:
            key = (variable, parents)
        elif kind is list:
            key = (variable, tuple(parents))
        else:
            key = None
        if key is not None:
            try:
                return self._seen[key]
            except (KeyError, TypeError):  # new query, or unhashable names
                pass
        child, parent_idx = self._encoded.family(variable, parents)
        value = self._cached_local_score(child, parent_idx)
        if key is not None:
            if len(self._seen) >= _CACHE_SIZE:
                self._seen.clear()
            self._seen[key] = value
        return value

    def _local_score(self, variable, parents) -> float:
        child, parent_idx = self._encoded.family(variable, parents)
        return self._score_family(child, parent_idx)

    def _family_table(self, child: int, parents: tuple[int, ...]) -> np.ndarray:
        enc = self._encoded
        return family_table(enc.codes, enc.arities, child, parents, enc.weights)

    def _score_family(self, child: int, parents: tuple[int, ...]) -> float:
        table = self._family_table(child, parents)
        return float(self._score_table(table, self._encoded.configurations(parents)))

    def _score_table(self, table: np.ndarray, n_parent_configs: int) -> float:
        """Local score from the family's counts over observed parent configurations.

        ``table`` has shape ``(q_observed, r)``; ``n_parent_configs`` is the
        number of *possible* parent configurations ``q`` (a Python int, exact).
        """
        raise NotImplementedError

    def score(self, model: Graph) -> float:
        """Total score of a model: the sum of its nodes' local scores.

        Parameters
        ----------
        model : pgmpy DAG or DiscreteBayesianNetwork (or any networkx DiGraph)
            Every node must be a column of the data.
        """
        unknown = [v for v in model.nodes() if v not in self._encoded.index]
        if unknown:
            raise ValueError(
                f"The model has node(s) {unknown!r} that are not columns of the data "
                f"({self.variables!r})."
            )
        total = sum(self.local_score(v, tuple(model.predecessors(v))) for v in model.nodes())
        return float(total + self.structure_prior(model))

    def __getstate__(self):
        # the cache wraps a bound method: rebuild it instead of pickling it, so
        # that scores travel to joblib's process, Dask or Ray workers
        state = self.__dict__.copy()
        state.pop("_cached_local_score", None)
        state.pop("_seen", None)
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._reset_caches()

    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other
