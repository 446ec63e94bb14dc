"""Families whose parent configurations outnumber the rows: where a score can fit noise.

With fewer rows than parent configurations, most configurations are seen once or never,
and fNML, qNML and BDeu can all reward parents that only separate the rows (the scores
guide's "Small samples" section: 240 rows of 12 independent four-state variables give
31-40 arcs without a parent limit, none with two). The searches warn, once per fit, with
:class:`~pgmpy_nml.exceptions.SparseFamilyWarning`; the command line prints the same
finding as a note. One check and one wording, here.
"""

from __future__ import annotations

import math
import sys
import warnings
from collections.abc import Hashable, Mapping
from contextlib import contextmanager
from types import FrameType
from typing import NamedTuple

from .exceptions import SparseFamilyWarning

__all__ = ["SparseFamily", "inner_fits", "sparse_families", "sparse_text", "warn_sparse"]


class SparseFamily(NamedTuple):
    """A variable, its parents and their number of joint configurations."""

    variable: Hashable
    parents: tuple
    configurations: int


def sparse_families(dag, arities: Mapping[Hashable, int], n_rows: float) -> list[SparseFamily]:
    """The families of ``dag`` with more parent configurations than ``n_rows``.

    A family's parent configurations are the product of its parents' arities (declared
    states, seen or not). Sorted by configurations, the largest first, then by name.
    """
    found = []
    for variable in dag.nodes():
        parents = tuple(sorted(dag.predecessors(variable), key=str))
        configurations = math.prod(int(arities[p]) for p in parents)
        if parents and configurations > n_rows:
            found.append(SparseFamily(variable, parents, configurations))
    return sorted(found, key=lambda f: (-f.configurations, str(f.variable)))


def sparse_text(families: list[SparseFamily], n_rows: float) -> str:
    """What was found, in one sentence: how many families, the largest one."""
    largest = families[0]
    many = len(families) > 1
    return (
        f"{len(families)} {'families have' if many else 'family has'} more parent "
        f"configurations than the {_rows(n_rows)} rows ({'the largest: ' if many else ''}"
        f"{largest.variable!r} given {len(largest.parents)} parents, "
        f"{largest.configurations:,} configurations), so most configurations are seen once "
        "or never and the parents may only fit noise"
    )


def warn_sparse(dag, state_names: Mapping | None, n_rows: float | None) -> None:
    """Warn if a family of ``dag`` has more parent configurations than ``n_rows``.

    Nothing to say without the states or the number of rows (a score this package did
    not build). The warning points at the user's line: the first caller outside the
    package."""
    if not state_names or n_rows is None:
        return
    families = sparse_families(dag, {v: len(s) for v, s in state_names.items()}, n_rows)
    if not families:
        return
    warning = SparseFamilyWarning(
        f"In the learned network, {sparse_text(families, n_rows)}: fNML, qNML and BDeu can "
        "all do this on small samples (see the scores guide, 'Small samples'). Set "
        "max_parents (e.g. 2) and compare the two procedures' held-out log-loss with "
        "pgmpy_nml.study.compare_procedures."
    )
    warning.families, warning.n_rows = families, n_rows
    warnings.warn(warning, stacklevel=_outside_level())


def _outside_level() -> int:
    """``warnings.warn``'s stacklevel, called from here, of the first frame outside the
    package (past the end of the stack, which ``warnings`` accepts, when there is none)."""
    frame: FrameType | None
    frame, level = sys._getframe(2), 2  # level 1: warn_sparse, the function calling warn
    while frame is not None and frame.f_globals.get("__name__", "").startswith("pgmpy_nml"):
        frame, level = frame.f_back, level + 1
    return level


def _rows(n_rows: float) -> str:
    return f"{int(n_rows):,}" if float(n_rows).is_integer() else f"{n_rows:,.1f}"


@contextmanager
def inner_fits():
    """Around a fit that a tool repeats (a cross-validation split, a bootstrap resample,
    a structure step of structural EM): pgmpy's FutureWarnings and the
    :class:`~pgmpy_nml.exceptions.SparseFamilyWarning` silenced. Cross-validation and the
    bootstrap judge the networks on other rows; structural EM warns once, on its result."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=FutureWarning, module=r"pgmpy(\.|$)")
        warnings.simplefilter("ignore", SparseFamilyWarning)
        yield
