r"""A first network for the exact engines when the time limit stopped scoring, or scoring
took long.

When the candidate search ends at its share of the time limit
(:data:`._pipeline.SCORING_SHARE`), some variables' largest parent sets were never
scored, and the engines search candidates that lack them: on andes (223 variables,
N = 1000, 3 parents) with a 60 s limit, the network they found in the 15 s left was
0.59% (BIC) and 0.99% (BDeu(10)) below the best known, while the compiled hill
climbing of :class:`~pgmpy_nml.LocalSearch` (same score, parent limit and expert
knowledge) found one 0.089% below it in 0.4 s (``benchmarks/README.md``, "A first
network when scoring stops early").

Restarted from perturbed networks (iterated local search, ``restarts`` of
:class:`~pgmpy_nml.LocalSearch`) for 30% of the time left instead of one climb, it found
better still, and so did the engines from it. Tuning half, 60 s, the suite's settings
(one run each): andes BDeu(10) 0.137% below the best known with one climb, 0.051%,
0.045% and 0.031% with restarts for 10%, 30% and 60% of the time left; andes BIC 0.038%,
0.004%, 0.002% and 0.004%.

So, then, a hill climbing with restarts runs first (:data:`SEED_SHARE` of the time left;
the estimator, :class:`~pgmpy_nml.ExactSearch`, gives it as a function of its time
limit), the families of its network that are not candidates join the candidates with
their local scores (unless a candidate subset scores at least as well), and the network
is the engines' start. Sound: the added sets are admissible parent sets with their
own scores, so the best network over the candidates is still a network, and the bound
over what scoring left (:func:`._pipeline._counting_unscored`) holds over more
candidates as over fewer (it bounds every admissible set either way).

When scoring completed, the engines' own first networks (greedy, then the iterated
order search) can start far below: in the suite at 600 s, andes's networks (scoring
91-104 s, complete) ended below those of the same instance at 60 s, where scoring
stopped and the climb ran (BIC by 0.020%, BDeu(10) by 0.019%, qNML by 0.027%). So a
climb also runs after a scoring that completed, for :data:`CLIMB_SHARE` of scoring's
seconds (cheap beside it), when that gives at least :data:`CLIMB_MIN_SECONDS`: the
climb's first descent from the empty network is not stopped by its time limit and
takes up to a second (0.4-0.8 s on andes), which would slow the many instances proven
in a few seconds. Tuning half, andes at ``time_limit=200`` (scoring complete in
95-112 s; one run each, alternating, load 1.9-2.0): BIC -95,758.29 -> -95,734.28,
BDeu(10) -95,273.17 -> -95,144.35, above the best network the suite had known
(-95,177.73); the climbs took 9.5 and 10.6 s. When scoring completed, every pruned
family is dominated by a candidate subset, so no family joins the candidates.
"""

from __future__ import annotations

import time

import numpy as np

from ._files import CandidateParentSets

__all__: list[str] = []

#: share of the time left after scoring that the hill climbing (with restarts) takes
SEED_SHARE = 0.3
#: after a scoring that completed: the hill climbing's seconds as a share of scoring's
CLIMB_SHARE = 0.1
#: ... and the fewest seconds that share must give for a climb to run at all
CLIMB_MIN_SECONDS = 1.0


def spans(candidates: CandidateParentSets) -> list[slice]:
    """Each variable's rows in ``candidates._rows()`` (the rows the engines read), in the
    variables' order."""
    ends = np.cumsum(candidates.n_candidates()).tolist()
    return [slice(lo, hi) for lo, hi in zip([0, *ends[:-1]], ends, strict=True)]


def candidate_subsets(rows: np.ndarray, parents) -> np.ndarray:
    """Which of a variable's candidates (``rows``: their padded rows, best first) are
    subsets of ``parents`` (positions), as a boolean mask over them (no loop over
    millions of tuples)."""
    return np.asarray(np.isin(rows, [*parents, -1]).all(axis=1))


def with_families(candidates: CandidateParentSets, added: dict) -> CandidateParentSets:
    """``candidates`` with the parent sets ``added[v]`` (lists of ``(positions, score)``,
    none of them a candidate yet) joined to variable ``v``'s, in the constructor's order
    (best first, then fewer parents, then lexicographic); the other variables' sets,
    scores and rows are shared, not rebuilt."""
    padded, size = candidates._rows()
    width = max([padded.shape[1]] + [len(p) for sets in added.values() for p, _ in sets])
    if width > padded.shape[1]:
        padded = np.pad(padded, ((0, 0), (0, width - padded.shape[1])), constant_values=-1)
    sets_out, scores_out, padded_out, size_out = [], [], [], []
    for v, span in enumerate(spans(candidates)):
        sets, scores = candidates.parent_sets[v], candidates.scores[v]
        rows, lengths = padded[span], size[span]
        if added.get(v):
            new = [tuple(sorted(int(u) for u in p)) for p, _ in added[v]]
            extra = np.full((len(new), width), -1, dtype=np.int64)
            for k, p in enumerate(new):
                extra[k, : len(p)] = p
            rows = np.concatenate([rows, extra])
            lengths = np.concatenate([lengths, [len(p) for p in new]]).astype(np.int64)
            scores = np.concatenate([scores, [float(s) for _, s in added[v]]])
            order = np.lexsort((*rows.T[::-1], lengths, -scores))
            everything = [*sets, *new]
            sets = tuple(everything[k] for k in order.tolist())
            rows, lengths, scores = rows[order], lengths[order], scores[order]
        sets_out.append(sets)
        scores_out.append(np.array(scores, dtype=np.float64))
        padded_out.append(rows)
        size_out.append(lengths)
    out = CandidateParentSets.__new__(CandidateParentSets)
    arrays = (np.concatenate(padded_out), np.concatenate(size_out))
    out._hold(candidates.variables, sets_out, scores_out, arrays)
    return out


def climb_seconds(complete: bool, scoring: float, left: float | None) -> float | None:
    """The seconds of the hill climbing that gives the engines their first network, after
    ``scoring`` seconds of a candidate search that was ``complete`` or not, with ``left``
    seconds of the time limit left (``_solver._left``; None: no limit); None: no
    climb (module notes).

    - scoring stopped early: :data:`SEED_SHARE` of the time left;
    - scoring completed: :data:`CLIMB_SHARE` of its seconds (at most :data:`SEED_SHARE`
      of the time left), if that is at least :data:`CLIMB_MIN_SECONDS`.

    >>> climb_seconds(False, 45.0, 15.0), climb_seconds(True, 90.0, 510.0)
    (4.5, 9.0)
    >>> climb_seconds(True, 2.0, 598.0) is None, climb_seconds(True, 90.0, 10.0)
    (True, 3.0)
    """
    if not complete:
        return None if left is None else SEED_SHARE * left
    seconds = CLIMB_SHARE * scoring
    if seconds < CLIMB_MIN_SECONDS:
        return None
    return seconds if left is None else min(seconds, SEED_SHARE * left)


def seeded(score, candidates: CandidateParentSets, climb, seconds: float | None):
    """``(candidates, dag, took)``: the candidates with the families of the network
    ``dag = climb(seconds)`` of a hill climbing (:func:`climb_seconds`; None: one
    climb) added where they beat every candidate subset, and the seconds it took
    (module notes). ``score`` gives the added families' scores."""
    begun = time.perf_counter()
    dag = climb(seconds)
    names = candidates.variables
    index = {v: i for i, v in enumerate(names)}
    padded, size = candidates._rows()
    added: dict[int, list] = {}
    for i, (v, span) in enumerate(zip(names, spans(candidates), strict=True)):
        parents = sorted(index[u] for u in dag.predecessors(v))
        subset = candidate_subsets(padded[span], parents)
        if (subset & (size[span] == len(parents))).any():
            continue  # a candidate already
        best = float(candidates.scores[i][subset].max(initial=-np.inf))
        own = float(score.local_score(v, tuple(names[u] for u in parents)))
        if own > best:
            added[i] = [(tuple(parents), own)]
    out = with_families(candidates, added) if added else candidates
    return out, dag, time.perf_counter() - begun
