"""Candidate parent sets with their local scores, and the score-file format of exact solvers.

Exact structure learners for larger networks (GOBNILP, CPBayes, URLearning and
this package's solver) work in two stages: first, for each variable, the
parent sets that can be optimal and their local scores; then the best DAG
that picks one candidate per variable. :class:`CandidateParentSets` holds the
first stage's result, and reads and writes it in the plain-text format those
solvers share (Jaakkola et al. 2010, often called the "jkl" or "Jaakkola"
format)::

    3                      <- number of variables
    A 2                    <- a variable's name and its number of candidate sets
    -10.5 0                <- local score, number of parents, the parents
    -12.25 1 B
    B 1
    -20.0 0
    C 2
    -7.0 2 A B
    -15.5 0

Scores are natural-log local scores, higher is better (as in pgmpy; CPBayes and
URLearning negate them internally). GOBNILP matches parents to the names of the
variable lines; CPBayes reads variable "names" and parents as indices
``0 .. n-1``. :func:`write_score_file` writes either kind (``labels``);
:func:`read_score_file` reads both.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from ._rows import collector_paused, padded_rows, split_by, tuple_rows

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..._typing import ArrayLike

__all__ = ["CandidateParentSets", "read_score_file", "write_score_file"]

_INTEGER = re.compile(r"[0-9]+\Z")


class CandidateParentSets:
    r"""Per variable, the parent sets a search may choose from and their local scores.

    The exact solver (:func:`pgmpy_nml.search.candidates.solve`) picks one
    candidate per variable so that the chosen families form a DAG and the sum
    of their local scores is largest. Parent sets a search must not use (too
    many parents, forbidden or missing required edges, pruned because a subset
    scores at least as well) are simply absent.

    Parameters
    ----------
    variables : sequence of hashable
        The variable names, distinct; positions ``0 .. n-1`` in this order.
    parent_sets : sequence of sequences of sequences of int
        ``parent_sets[v]`` lists the candidate parent sets of variable ``v``,
        each a collection of variable positions (any order; stored sorted).
    scores : sequence of sequences of float
        ``scores[v][k]`` is the local score of variable ``v`` with parents
        ``parent_sets[v][k]``: finite, natural-log, higher is better.

    Attributes
    ----------
    variables : tuple
    parent_sets : tuple of tuple of tuple of int
        Per variable, its candidates sorted best first (decreasing score, then
        fewer parents, then lexicographically), so that equal inputs in any
        order give equal objects and the same solver result.
    scores : tuple of ndarray
        The matching local scores (read-only float64 arrays).

    Notes
    -----
    Every variable needs at least one candidate. The empty parent set may be
    absent (for instance when required edges give a variable parents), but a
    DAG always has a variable without parents, so the solver reports an
    instance where no variable keeps the empty set as infeasible.

    Examples
    --------
    >>> from pgmpy_nml.search.candidates import CandidateParentSets
    >>> cands = CandidateParentSets(
    ...     ["A", "B"], [[(), (1,)], [(), (0,)]], [[-10.0, -8.0], [-5.0, -6.0]]
    ... )
    >>> cands.n_candidates().tolist()
    [2, 2]
    >>> cands.parent_sets[0], cands.scores[0].tolist()
    (((1,), ()), [-8.0, -10.0])
    >>> cands.local_score("A", ["B"])
    -8.0
    """

    def __init__(
        self,
        variables: Sequence[Hashable],
        parent_sets: Sequence[Sequence[Sequence[int]]],
        scores: Sequence[ArrayLike],
    ) -> None:
        variables = tuple(variables)
        n = len(variables)
        if n == 0:
            raise ValueError("CandidateParentSets needs at least one variable.")
        if len(set(variables)) != n:
            dup = _first_repeat(variables)
            raise ValueError(f"Variable {dup!r} appears twice in variables; names must be unique.")
        if len(parent_sets) != n or len(scores) != n:
            raise ValueError(
                f"parent_sets and scores need one entry per variable ({n}); got "
                f"{len(parent_sets)} and {len(scores)}."
            )
        sets_out, scores_out = [], []
        for v in range(n):
            name = variables[v]
            sets_v = list(parent_sets[v])
            scores_v = np.asarray(scores[v], dtype=np.float64).ravel()
            if len(sets_v) != scores_v.size:
                raise ValueError(
                    f"Variable {name!r} has {len(sets_v)} parent sets but {scores_v.size} scores."
                )
            if not sets_v:
                raise ValueError(
                    f"Variable {name!r} has no candidate parent set, so no network exists; "
                    "keep at least one (usually the empty set)."
                )
            bad = ~(np.abs(scores_v) <= MAX_ABS_SCORE)  # NaN too
            if bad.any():
                k = int(np.flatnonzero(bad)[0])
                raise ValueError(
                    f"The local score of {name!r} with parent set {tuple(sets_v[k])!r} is "
                    f"{float(scores_v[k])!r}; {_SCORE_RULE}"
                )
            clean = [_parent_tuple(p, v, n, variables) for p in sets_v]
            if len(set(clean)) != len(clean):
                dup = _first_repeat(clean)
                raise ValueError(
                    f"Variable {name!r} lists the parent set "
                    f"{tuple(variables[u] for u in dup)!r} twice."
                )
            order = sorted(range(len(clean)), key=lambda k: (-scores_v[k], len(clean[k]), clean[k]))
            sets_out.append(tuple(clean[k] for k in order))
            scores_out.append(scores_v[order].copy())
        self._hold(variables, sets_out, scores_out)

    def _hold(self, variables: tuple, sets: list, scores: list, rows=None) -> None:
        """Keep the checked, sorted candidates (the scores made read-only), and their
        ``rows`` when known (:meth:`_rows`)."""
        for arr in scores:
            arr.flags.writeable = False
        self.variables = variables
        self.parent_sets = tuple(sets)
        self.scores = tuple(scores)
        self._index = {v: i for i, v in enumerate(variables)}
        for arr in rows or ():
            arr.flags.writeable = False
        self._arrays = rows

    def _rows(self) -> tuple[np.ndarray, np.ndarray]:
        """Every candidate, variable after variable in the order held, as the engines
        read them: ``(padded, size)`` of :func:`._rows.padded_rows` (read-only, built
        once)."""
        if self._arrays is None:
            padded, size = padded_rows([p for sets in self.parent_sets for p in sets])
            padded.flags.writeable = size.flags.writeable = False
            self._arrays = (padded, size)
        return self._arrays

    def __getstate__(self) -> dict:
        # the sets as arrays: pickling millions of tuples takes seconds (module _rows)
        padded, size = self._rows()
        return {"variables": self.variables, "scores": self.scores, "rows": (padded, size)}

    def __setstate__(self, state: dict) -> None:
        if "rows" not in state:  # pickled by an earlier version: the attributes
            self.__dict__.update({**state, "_arrays": None})
            return
        padded, size = state["rows"]
        self._hold(
            state["variables"],
            split_by(tuple_rows(padded, size), state["scores"]),
            list(state["scores"]),
            (padded, size),
        )

    # -- construction --------------------------------------------------------------
    @classmethod
    def _from_blocks(
        cls, variables: Sequence[Hashable], blocks: Sequence[Sequence[np.ndarray]], scores
    ) -> CandidateParentSets:
        """The same object as the constructor's, from trusted arrays, vectorized:
        ``blocks[v]`` lists arrays of parent sets (rows of increasing, distinct
        positions, not ``v``; one width per array) and ``scores[v]`` their scores in
        that order, every variable with at least one (the candidate search's output:
        millions of sets, which the constructor's checks would take a minute over)."""
        variables = tuple(variables)
        scores = [np.asarray(x, dtype=np.float64).ravel() for x in scores]
        if any(not (np.abs(x) <= MAX_ABS_SCORE).all() for x in scores):
            tuples = [[tuple(r) for b in bl for r in b.tolist()] for bl in blocks]
            return cls(variables, tuples, scores)  # its message names the bad score
        self = cls.__new__(cls)
        width = max(1, max((b.shape[1] for bl in blocks for b in bl), default=0))
        sets_out, padded_out, size_out, scores_out = [], [], [], []
        with collector_paused():  # millions of tuples (module _rows)
            for bl, sc in zip(blocks, scores, strict=True):
                padded = np.full((sc.size, width), -1, dtype=np.int64)
                length = np.empty(sc.size, dtype=np.int64)
                flat: list = []
                lo = 0
                for b in bl:
                    padded[lo : lo + len(b), : b.shape[1]] = b
                    length[lo : lo + len(b)] = b.shape[1]
                    # tuples straight from the columns (no list per row)
                    flat.extend(zip(*b.T.tolist(), strict=True) if b.shape[1] else [()] * len(b))
                    lo += len(b)
                # the constructor's order: best first, then fewer parents, lexicographic
                order = np.lexsort((*padded.T[::-1], length, -sc))
                sets_out.append(tuple(map(flat.__getitem__, order.tolist())))
                padded_out.append(padded[order])
                size_out.append(length[order])
                scores_out.append(sc[order])
        rows = (np.concatenate(padded_out), np.concatenate(size_out))
        self._hold(variables, sets_out, scores_out, rows)
        return self

    @classmethod
    def from_dict(cls, local_scores: Mapping) -> CandidateParentSets:
        """Build from ``{variable: {parents: score}}`` with parents as collections of names.

        Examples
        --------
        >>> from pgmpy_nml.search.candidates import CandidateParentSets
        >>> c = CandidateParentSets.from_dict({"A": {(): -3.0, ("B",): -1.0}, "B": {(): -2.0}})
        >>> c.to_dict()["A"]
        {('B',): -1.0, (): -3.0}
        """
        variables = list(local_scores)
        index = {v: i for i, v in enumerate(variables)}
        parent_sets, scores = [], []
        for v in variables:
            sets_v, scores_v = [], []
            for parents, value in local_scores[v].items():
                positions = []
                for p in parents:
                    if p not in index:
                        raise ValueError(
                            f"The parent {p!r} of {v!r} is not one of the variables {variables!r}."
                        )
                    positions.append(index[p])
                sets_v.append(positions)
                scores_v.append(value)
            parent_sets.append(sets_v)
            scores.append(scores_v)
        return cls(variables, parent_sets, scores)

    def to_dict(self) -> dict:
        """``{variable: {parents (tuple of names): score}}``, best candidate first."""
        return {
            v: {
                tuple(self.variables[u] for u in p): float(s)
                for p, s in zip(self.parent_sets[i], self.scores[i], strict=True)
            }
            for i, v in enumerate(self.variables)
        }

    # -- queries -------------------------------------------------------------------
    @property
    def n_variables(self) -> int:
        return len(self.variables)

    def n_candidates(self) -> np.ndarray:
        """Number of candidate parent sets of each variable (int array, variables' order)."""
        return np.array([len(p) for p in self.parent_sets], dtype=np.int64)

    def position(self, variable: Hashable) -> int:
        """Position of ``variable`` in :attr:`variables`."""
        try:
            return self._index[variable]
        except (KeyError, TypeError):
            raise ValueError(f"{variable!r} is not one of the variables.") from None

    def index(self, variable: Hashable, parents: Iterable[Hashable]) -> int:
        """Position of the candidate ``parents`` (names) among ``variable``'s candidates."""
        v = self.position(variable)
        key = tuple(sorted(self.position(p) for p in parents))
        try:
            return self.parent_sets[v].index(key)
        except ValueError:
            raise ValueError(
                f"{tuple(parents)!r} is not a candidate parent set of {variable!r}."
            ) from None

    def local_score(self, variable: Hashable, parents: Iterable[Hashable]) -> float:
        """Local score of ``variable`` with the candidate ``parents`` (names)."""
        return float(self.scores[self.position(variable)][self.index(variable, parents)])

    def score(self, parents: Mapping) -> float:
        """Total score of a network given as ``{variable: parents}`` (names), summed in order.

        Every family must be a candidate. The sum runs over the variables in
        :attr:`variables` order with math.fsum, so it is exact to the last bit
        and independent of the mapping's order.
        """
        missing = [v for v in self.variables if v not in parents]
        if missing:
            raise ValueError(f"No parent set given for {missing!r}.")
        return math.fsum(self.local_score(v, parents[v]) for v in self.variables)

    def upper_bound(self) -> float:
        """Sum of every variable's best local score: no network scores higher."""
        return math.fsum(float(s[0]) for s in self.scores)

    # -- transformations -----------------------------------------------------------
    def restrict(
        self,
        required_edges: Iterable[tuple[Hashable, Hashable]] = (),
        forbidden_edges: Iterable[tuple[Hashable, Hashable]] = (),
        max_parents: int | None = None,
    ) -> CandidateParentSets:
        """The candidates that respect expert knowledge, as a new object.

        Parameters
        ----------
        required_edges, forbidden_edges : iterable of (parent, child) names
        max_parents : int, optional
            A whole number; a float such as ``2.0`` is taken as ``2``, ``2.5`` is refused.

        Raises
        ------
        ValueError
            If a variable keeps no candidate (the constraints and the candidates
            contradict each other), or an edge names an unknown variable.

        Examples
        --------
        >>> from pgmpy_nml.search.candidates import CandidateParentSets
        >>> c = CandidateParentSets.from_dict(
        ...     {"A": {(): -3.0, ("B",): -1.0}, "B": {(): -2.0, ("A",): -2.5}}
        ... )
        >>> c.restrict(forbidden_edges=[("B", "A")]).to_dict()["A"]
        {(): -3.0}
        """
        n = self.n_variables
        required = [0] * n
        forbidden = [0] * n
        for edges, masks in ((required_edges, required), (forbidden_edges, forbidden)):
            for u, v in edges:
                masks[self.position(v)] |= 1 << self.position(u)
        for v in range(n):
            clash = required[v] & forbidden[v]
            if clash:
                u = clash.bit_length() - 1
                raise ValueError(
                    f"The edge {self.variables[u]!r} -> {self.variables[v]!r} is both "
                    "required and forbidden."
                )
        limit = n if max_parents is None else int(max_parents)
        parent_sets, scores = [], []
        for v in range(n):
            keep = []
            for k, p in enumerate(self.parent_sets[v]):
                mask = sum(1 << u for u in p)
                if (
                    len(p) <= limit
                    and mask & required[v] == required[v]
                    and not mask & forbidden[v]
                ):
                    keep.append(k)
            if not keep:
                raise ValueError(
                    f"No candidate parent set of {self.variables[v]!r} satisfies the "
                    "constraints (required and forbidden parents, max_parents)."
                )
            parent_sets.append([self.parent_sets[v][k] for k in keep])
            scores.append(self.scores[v][keep])
        return CandidateParentSets(self.variables, parent_sets, scores)

    # -- files ---------------------------------------------------------------------
    @classmethod
    def from_file(
        cls, path: str | os.PathLike, variables: Sequence[Hashable] | None = None
    ) -> CandidateParentSets:
        """Same as :func:`read_score_file`."""
        return read_score_file(path, variables=variables)

    def to_file(self, path: str | os.PathLike, labels: str = "names") -> None:
        """Same as :func:`write_score_file`."""
        write_score_file(self, path, labels=labels)

    # -- comparisons ---------------------------------------------------------------
    def __eq__(self, other):
        if not isinstance(other, CandidateParentSets):
            return NotImplemented
        return (
            self.variables == other.variables
            and self.parent_sets == other.parent_sets
            and all(np.array_equal(a, b) for a, b in zip(self.scores, other.scores, strict=True))
        )

    # defining __eq__ leaves __hash__ None: instances are unhashable

    def __repr__(self):
        counts = self.n_candidates()
        return (
            f"CandidateParentSets({self.n_variables} variables, {int(counts.sum())} candidate "
            f"parent sets, {int(counts.min())} to {int(counts.max())} per variable)"
        )


#: Largest magnitude of a local score taken as a score: ``-1e30`` or ``-1e308`` in a score
#: file are "impossible" markers, and no family of real data scores beyond this (a log
#: loss of 1e15 nats would need more than 1e14 rows); the integer program's arithmetic
#: (SCIP's infinity is 1e20, its tolerances relative) cannot mix such values with real ones.
MAX_ABS_SCORE = 1e15

_SCORE_RULE = (
    f"scores must be finite and at most {MAX_ABS_SCORE:.0e} in magnitude. Values such as "
    "-1e30 or -1e308 mark impossible parent sets in some score files: leave those parent sets "
    "out instead (a parent set that is not listed is never chosen)."
)


_H = TypeVar("_H", bound=Hashable)


def _first_repeat(items: Sequence[_H]) -> _H:
    """The first item equal to an earlier one (there must be one)."""
    seen = set()
    for item in items:
        if item in seen:
            return item
        seen.add(item)
    raise ValueError("no repeated item")


def _parent_tuple(parents, v, n, variables):
    """Validated, sorted tuple of parent positions of variable ``v``."""
    if isinstance(parents, (str, bytes)) or not isinstance(
        parents, (Sequence, set, frozenset, np.ndarray)
    ):
        raise TypeError(
            f"Parent sets of {variables[v]!r} must be collections of variable positions, "
            f"got {parents!r}."
        )
    out = []
    for p in parents:
        if isinstance(p, (bool, np.bool_)) or not isinstance(p, (int, np.integer)):
            raise TypeError(
                f"Parent sets of {variables[v]!r} must hold integer variable positions, got {p!r}."
            )
        p = int(p)
        if not 0 <= p < n:
            raise ValueError(
                f"A parent set of {variables[v]!r} holds position {p}, outside 0..{n - 1}."
            )
        if p == v:
            raise ValueError(f"A parent set of {variables[v]!r} contains the variable itself.")
        out.append(p)
    t = tuple(sorted(out))
    if len(set(t)) != len(t):
        raise ValueError(f"A parent set of {variables[v]!r} names the same parent twice: {t!r}.")
    return t


def write_score_file(
    candidates: CandidateParentSets, path: str | os.PathLike, labels: str = "names"
) -> None:
    """Write candidate parent sets in the GOBNILP / CPBayes / URLearning ("jkl") format.

    The first line is the number of variables; then, per variable, a line
    ``<label> <number of candidate sets>`` followed by one line per set:
    ``<score> <number of parents> <parent labels...>``, best set first. Scores
    are written with Python's shortest round-trip representation, so reading
    the file back gives the same floats.

    Parameters
    ----------
    candidates : CandidateParentSets
    path : str or path-like
        File to write (``"-"`` is not special).
    labels : {"names", "indices"}, default "names"
        ``"names"`` writes variable names (GOBNILP, pygobnilp; names must be
        non-empty and free of whitespace); ``"indices"`` writes positions
        ``0 .. n-1`` (what CPBayes requires; read the file back with
        ``variables=`` to restore the names).

    Examples
    --------
    >>> import os, tempfile
    >>> from pgmpy_nml.search.candidates import CandidateParentSets, write_score_file
    >>> c = CandidateParentSets.from_dict({"A": {(): -3.5, ("B",): -1.25}, "B": {(): -2.0}})
    >>> path = os.path.join(tempfile.mkdtemp(), "scores.jkl")
    >>> write_score_file(c, path)
    >>> print(open(path).read(), end="")
    2
    A 2
    -1.25 1 B
    -3.5 0
    B 1
    -2.0 0
    """
    if labels == "names":
        text = [str(v) for v in candidates.variables]
        for v, t in zip(candidates.variables, text, strict=True):
            if not t or any(c.isspace() for c in t):
                raise ValueError(
                    f"The variable name {v!r} is empty or contains whitespace, which the "
                    "score-file format cannot hold; write with labels='indices'."
                )
        if len(set(text)) != len(text):
            raise ValueError(
                "Two variables have the same name once written as text; write with "
                "labels='indices'."
            )
        if any(_INTEGER.match(t) for t in text) and not all(
            t == str(i) for i, t in enumerate(text)
        ):
            raise ValueError(
                "Some variable names are integers but not their positions 0..n-1, so a "
                "reader would take them for indices; write with labels='indices'."
            )
    elif labels == "indices":
        text = [str(i) for i in range(candidates.n_variables)]
    else:
        raise ValueError(f"labels must be 'names' or 'indices', got {labels!r}.")
    lines = [str(candidates.n_variables)]
    for v in range(candidates.n_variables):
        sets_v = candidates.parent_sets[v]
        lines.append(f"{text[v]} {len(sets_v)}")
        for p, s in zip(sets_v, candidates.scores[v], strict=True):
            lines.append(" ".join([repr(float(s)), str(len(p)), *(text[u] for u in p)]))
    with open(os.fspath(path), "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")


def read_score_file(
    path: str | os.PathLike, variables: Sequence[Hashable] | None = None
) -> CandidateParentSets:
    """Read candidate parent sets written in the GOBNILP / CPBayes / URLearning ("jkl") format.

    See :func:`write_score_file` for the layout. Blank lines and lines starting
    with ``#`` are skipped. As in GOBNILP, parents are matched to the labels of
    the variable lines. When every label is a non-negative integer (files
    written for CPBayes, or by tools that number the variables), the labels are
    indices: with ``variables`` given, the variable labelled ``i`` is named
    ``variables[i]``; otherwise the labels are kept as names (strings).

    Parameters
    ----------
    path : str or path-like
    variables : sequence, optional
        Names for an index-labelled file, one per index ``0 .. n-1``.

    Returns
    -------
    CandidateParentSets
        Variables in the order of the file's blocks.

    Raises
    ------
    ValueError
        With the line number, for a malformed file: counts that do not match,
        unknown parents, a score that is not a number, a missing block.

    Examples
    --------
    >>> import os, tempfile
    >>> from pgmpy_nml.search.candidates import read_score_file
    >>> path = os.path.join(tempfile.mkdtemp(), "cpbayes.jkl")
    >>> _ = open(path, "w").write("2\\n0 2\\n-4.5 0\\n-1.5 1 1\\n1 1\\n-2.0 0\\n")
    >>> c = read_score_file(path, variables=["rain", "wet"])
    >>> c.to_dict()
    {'rain': {('wet',): -1.5, (): -4.5}, 'wet': {(): -2.0}}
    """
    with open(os.fspath(path), encoding="utf-8") as fh:
        raw = fh.read().splitlines()
    lines = [
        (i + 1, line.split())
        for i, line in enumerate(raw)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    where = f"in {os.fspath(path)!s}"
    if not lines:
        raise ValueError(f"The score file {os.fspath(path)!s} is empty.")
    labels, blocks = _read_blocks(lines, where)
    key, names, numeric = _label_keys(labels, variables, where)
    parent_sets, scores = [], []
    for v, block in enumerate(blocks):
        sets_v, scores_v = [], []
        for lineno, score, parents in block:
            positions = []
            for t in parents:
                k = key.get(int(t) if numeric and _INTEGER.match(t) else t)
                if k is None:
                    raise ValueError(
                        f"Line {lineno} {where}: the parent {t!r} of {labels[v]!r} is not a "
                        "variable of the file."
                    )
                positions.append(k)
            sets_v.append(positions)
            scores_v.append(score)
        parent_sets.append(sets_v)
        scores.append(scores_v)
    try:
        return CandidateParentSets(names, parent_sets, scores)
    except (ValueError, TypeError) as err:
        raise ValueError(f"Invalid score file {os.fspath(path)!s}: {err}") from None


def _read_blocks(lines: list, where: str) -> tuple[list, list]:
    """The variable labels and, per variable, ``(line number, score, parent labels)`` of
    each parent set, from the file's non-blank ``lines`` (checked)."""
    pos = 0

    def take() -> tuple[int, list[str]]:  # (line number, tokens)
        nonlocal pos
        if pos >= len(lines):
            raise ValueError(f"The score file ends early {where}: a variable block is missing.")
        item = lines[pos]
        pos += 1
        return item

    lineno, tokens = take()
    if len(tokens) != 1 or not _INTEGER.match(tokens[0]) or int(tokens[0]) == 0:
        raise ValueError(
            f"Line {lineno} {where} should hold the number of variables, got {' '.join(tokens)!r}."
        )
    n = int(tokens[0])
    labels, blocks = [], []
    for _ in range(n):
        lineno, tokens = take()
        if len(tokens) != 2 or not _INTEGER.match(tokens[1]):
            raise ValueError(
                f"Line {lineno} {where} should be '<variable> <number of parent sets>', got "
                f"{' '.join(tokens)!r}."
            )
        labels.append(tokens[0])
        blocks.append([_parent_set_line(*take(), where) for _ in range(int(tokens[1]))])
    if pos != len(lines):
        raise ValueError(
            f"Line {lines[pos][0]} {where}: more content after the {n} variable blocks announced "
            "on the first line."
        )
    if len(set(labels)) != n:
        raise ValueError(f"A variable label appears twice {where}.")
    return labels, blocks


def _parent_set_line(lineno: int, tokens: list, where: str) -> tuple:
    """``(lineno, score, parent labels)`` of a line ``<score> <number of parents> <parents>``."""
    try:
        score = float(tokens[0])
        size = int(tokens[1])
    except (ValueError, IndexError):
        raise ValueError(
            f"Line {lineno} {where} should be '<score> <number of parents> <parents>', "
            f"got {' '.join(tokens)!r}."
        ) from None
    if not abs(score) <= MAX_ABS_SCORE:
        raise ValueError(f"Line {lineno} {where} has the score {tokens[0]}; {_SCORE_RULE}")
    if size != len(tokens) - 2:
        raise ValueError(
            f"Line {lineno} {where} announces {size} parents but lists "
            f"{len(tokens) - 2}: {' '.join(tokens)!r}."
        )
    return lineno, score, tokens[2:]


def _label_keys(labels: list, variables, where: str) -> tuple[dict, list, bool]:
    """How parents name variables: ``(label -> position, variable names, numeric)``;
    numeric labels are indices, named by ``variables`` when given."""
    n = len(labels)
    numeric = all(_INTEGER.match(t) for t in labels)
    if not numeric:
        if variables is not None:
            raise ValueError("variables= is for files labelled with indices; this one has names.")
        return {t: k for k, t in enumerate(labels)}, labels, False
    ids = [int(t) for t in labels]
    if len(set(ids)) != n:
        raise ValueError(f"Two variables have the same index {where}.")
    key = {i: k for k, i in enumerate(ids)}
    if variables is None:
        return key, labels, True
    variables = list(variables)
    if sorted(ids) != list(range(n)) or len(variables) != n:
        raise ValueError(
            f"variables has {len(variables)} names; the file's indices must be "
            f"0..{n - 1} and match them one to one."
        )
    return key, [variables[i] for i in ids], True
