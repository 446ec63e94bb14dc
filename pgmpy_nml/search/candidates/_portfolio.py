r"""Two exact engines on two cores, the first proof wins: ``method="astar|solver"`` and
``method="solver|solver"``.

The first engine runs in the calling process while SCIP's branch and cut
(:mod:`._solver`) searches the same candidates in a process of its own, started
at once (a fresh interpreter, ``python -m`` this module: no fork of a process
that holds numba's threads, no re-import of the caller's ``__main__``; it takes
about 2 s of CPU to start):

- ``"astar|solver"``: A* (:mod:`._astar`) beside the solver;
- ``"solver|solver"``: the solver (SCIP's defaults) beside a second solver that differs
  in its random seed (``seed + 1``) and works on the bound first
  (:data:`._solver.BOUND_FIRST`: the root's cut loop goes on while it finds cuts, and
  separates the most violated clusters by sub-IP too, then the open node with the best
  bound is taken next). Branch and cut's running time
  varies from seed to seed: hailfinder (56 variables, BDeu(1), N = 10000, 3 parents)
  took 86.7, 156 and 124 s of CPU with seeds 0, 1 and 2; a race takes the faster. Where
  the default search branches too early the second gives the better bound (hailfinder,
  BDeu(100), N = 1000: 0.177% against 4.0% after 300 s; andes, 223 variables: 2.73%
  against 3.41%), and the result takes the smaller.

When the calling process's engine proves its network optimal (or reaches
``gap_limit``) the other process is killed, so an instance proven in a fraction of a
second costs no more than one engine alone; when the other process finishes first,
the calling process's engine stops at its next batch of expansions (A*: a tenth of a
second) or SCIP event (the solver: its next node, incumbent or better bound, within
one LP). When the time limit runs out first, the result is *anytime honest*: the
better of the two networks, and the smaller of the two bounds.

Soundness of the combined bound: each engine's bound is a proven upper bound on
the best score over the same candidates (:func:`~pgmpy_nml.search.candidates.solve`,
:func:`~pgmpy_nml.search.candidates._astar.astar`), so their minimum is one too;
the result's bound is moreover raised to at least its network's score, so it is
never below a network that exists.

The solver's process is always ended before this returns, whatever stops the
run (a proof, the time limit, an error, ``KeyboardInterrupt``): killed if still
running, and waited for, so it is never left behind as a zombie. If the calling
process itself is killed, the solver's process notices within a second and ends.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from ..._memory import available_memory
from . import _solver
from ._families import _checked_families, _last_line, _network_result

if TYPE_CHECKING:
    from .._result import SearchResult
    from ._files import CandidateParentSets

__all__: list[str] = []


@dataclass(frozen=True)
class _Pair:
    """One portfolio: the engine in the calling process and how each side's solver runs
    (:func:`._solver._solve`'s ``bound_first``, ``memory_share`` and ``label``)."""

    #: The calling process's engine, ``"astar"`` or ``"solver"``.
    mine: str
    #: The last progress line's name for the two.
    both: str
    #: The solver process's name in the result's ``timings``.
    theirs: str
    #: Added to ``seed`` for the solver process.
    seed_shift: int = 0
    #: The calling process's solver settings (``mine == "solver"``).
    my_solver: dict = field(default_factory=dict)
    #: The solver process's settings.
    their_solver: dict = field(
        default_factory=lambda: {
            "bound_first": False,
            "memory_share": None,
            "label": "exact search",
        }
    )


#: Two solvers share the memory SCIP may take (A* beside one takes its own share).
_HALF_SCIP_MEMORY = _solver._SCIP_MEMORY_SHARE / 2

#: The portfolios, by ``method``.
PORTFOLIOS = {
    "astar|solver": _Pair("astar", "A* and the solver", "solver"),
    "solver|solver": _Pair(
        "solver",
        "two solvers",
        "solver (second)",
        seed_shift=1,
        my_solver={"memory_share": _HALF_SCIP_MEMORY, "label": "exact search (solver 1)"},
        their_solver={
            "bound_first": True,
            "memory_share": _HALF_SCIP_MEMORY,
            "label": "exact search (solver 2)",
        },
    ),
}
#: The statuses that end the portfolio at once.
PROOFS = ("optimal", "gaplimit")
#: Seconds a child may take beyond the time limit to report: its start (Python, numpy,
#: numba's cached kernels: 2 s of CPU, 5-10 s on a loaded machine), its last batch of work
#: and its report. A child that is not done by then is killed.
_GRACE = 60.0
#: Share of the memory A* may take beside the solver (alone: 80%).
_ASTAR_MEMORY_SHARE = 0.5
#: Seconds between two looks at the children.
_POLL = 0.05


def portfolio(
    candidates: CandidateParentSets,
    *,
    method: str = "astar|solver",
    time_limit: float | None = None,
    initial=None,
    show_progress: bool = True,
    gap_limit: float = 0.0,
    seed: int = 0,
    max_memory: float | None = None,
) -> SearchResult:
    """The best network over ``candidates`` by two engines at once (module notes):
    ``method`` is ``"astar|solver"`` or ``"solver|solver"``.

    The settings are checked ones, as the engines take them; ``max_memory`` caps
    A*'s tables (by default half the memory available, the other half left to the
    solver). The result's ``method`` is ``method``, ``engine`` the engine whose
    network it is, ``timings`` each engine's seconds (``"astar"`` or ``"solver"``
    for the calling process's, ``"solver (second)"`` for the other's) and
    ``"portfolio"`` (the whole).
    """
    from ._astar import astar

    pair = PORTFOLIOS[method]
    begin = time.perf_counter()
    fam = _checked_families(candidates)
    deadline = None if time_limit is None else time.time() + time_limit
    settings = {
        "deadline": deadline,
        "initial": initial,
        "show_progress": show_progress,
        "gap_limit": gap_limit,
        "seed": seed + pair.seed_shift,
        **pair.their_solver,
    }
    with tempfile.TemporaryDirectory(prefix="pgmpy-nml-portfolio-") as folder:
        task = os.path.join(folder, "task.pkl")
        with open(task, "wb") as stream:
            pickle.dump((candidates, settings), stream, protocol=pickle.HIGHEST_PROTOCOL)
        out = os.path.join(folder, "solver")
        child = _launch("solver", task, out)
        try:
            if pair.mine == "astar":
                if max_memory is None:
                    max_memory = _ASTAR_MEMORY_SHARE * available_memory()
                mine = astar(
                    candidates,
                    time_limit=time_limit,
                    initial=initial,
                    show_progress=show_progress,
                    gap_limit=gap_limit,
                    max_memory=max_memory,
                    stop=lambda: child.poll() is not None,
                )
            else:
                mine = _solver._solve(
                    candidates,
                    initial,
                    time_limit,
                    gap_limit,
                    seed,
                    show_progress,
                    stop=lambda: child.poll() is not None,
                    **pair.my_solver,
                )
            reports = {pair.mine: _report(fam, mine)}
            if mine.status not in PROOFS:  # the other's turn: finished, or until its deadline
                theirs = _wait(child, out, deadline)
                if theirs is not None:
                    reports[pair.theirs] = theirs
        finally:
            _end(child)
    result = _combine(fam, candidates, reports, method)
    timings = dict(result.timings or {})
    timings["portfolio"] = time.perf_counter() - begin
    if show_progress:
        _last_line(f"exact search ({pair.both})", result, timings["portfolio"])
    return replace(result, timings=timings)


def _launch(engine: str, task: str, out: str) -> subprocess.Popen:
    """A child process that runs ``engine`` on the task and writes its report to ``out``."""
    return subprocess.Popen(
        [sys.executable, "-m", __name__, engine, task, out, str(os.getpid())],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        env=os.environ.copy(),
    )


def _wait(child: subprocess.Popen, out: str, deadline: float | None) -> dict | None:
    """The child's report once it ends (None if it died without one, e.g. killed by the
    system for its memory, or did not end by the deadline and its grace); its error,
    re-raised, if it failed."""
    while child.poll() is None:
        if deadline is not None and time.time() > deadline + _GRACE:
            return None  # killed by the caller
        time.sleep(_POLL)
    if not os.path.exists(out):
        return None
    with open(out, "rb") as stream:
        report = pickle.load(stream)
    if "error" in report:
        raise report["error"]
    return report


def _end(child: subprocess.Popen) -> None:
    """Kill the child if it still runs, and wait for it (no zombie)."""
    if child.poll() is None:
        child.kill()
    try:
        child.wait(timeout=30)
    except subprocess.TimeoutExpired:  # pragma: no cover - a kill is not refused
        child.kill()
        child.wait()


def _report(fam, result) -> dict:
    """What the portfolio keeps of an engine's result (global family indices)."""
    return {
        "choice": [int(fam.start[v] + c) for v, c in enumerate(result.choice)],
        "status": result.status,
        "bound": float(result.bound),
        "engine": result.engine,
        "n_cuts": result.n_cuts,
        "seconds": sum(result.timings.values()),
    }


def _combine(fam, candidates, reports: dict, method: str = "astar|solver") -> SearchResult:
    """One result from the engines' reports: the better network, the smaller bound, and
    why the run ended: ``"optimal"`` when a proof holds, else the status of the engine
    that ended it (an engine ``"stopped"`` only because the other one had ended, at its
    time or memory limit, say)."""
    best = max(reports.values(), key=lambda r: fam.total(r["choice"]))
    score = fam.total(best["choice"])
    bound = min(r["bound"] for r in reports.values())
    ended = [r["status"] for r in reports.values() if r["status"] != "stopped"]
    if best["status"] == "optimal" or bound <= score:
        status, bound = "optimal", score
    else:
        status = ended[0] if ended else best["status"]
    timings = {e: r["seconds"] for e, r in reports.items()}
    result = _network_result(
        fam,
        candidates,
        np.asarray(best["choice"]),
        max(bound, score),
        status,
        method=method,
        engine=best["engine"],
        timings=timings,
        n_cuts=sum(r["n_cuts"] or 0 for r in reports.values()),
    )
    return result


# -- the child ----------------------------------------------------------------------------
class _Lines:
    """stderr as a non-terminal, so that the child writes plain progress lines (a second
    tqdm bar redrawn in place by another process would garble A*'s)."""

    def __init__(self, stream):
        self._stream = stream

    def isatty(self) -> bool:
        return False

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _run_solver(candidates, settings: dict) -> dict:
    deadline = settings["deadline"]
    time_limit = None if deadline is None else max(deadline - time.time(), 1e-3)
    result = _solver._solve(
        candidates,
        settings["initial"],
        time_limit,
        settings["gap_limit"],
        settings["seed"],
        settings["show_progress"],
        bound_first=settings["bound_first"],
        memory_share=settings["memory_share"],
        label=settings["label"],
    )
    return _report(_checked_families(candidates), result)


def _orphan_watch(parent: int, every: float = 1.0) -> None:
    """End this process when its parent (the process id ``parent``) is gone (killed, a
    notebook's kernel restarted): a solver without a time limit would otherwise hold a
    core for ever. The id comes from the parent itself, on the command line: a parent
    killed while this process was still starting (its imports take seconds on a loaded
    machine) has already handed it to another process, so ``os.getppid()`` read here
    would name that one and the watch would never end it."""
    while os.getppid() == parent:
        time.sleep(every)
    os._exit(1)


def _child_main(engine: str, task: str, out: str, parent: str) -> int:
    import threading

    threading.Thread(target=_orphan_watch, args=(int(parent),), daemon=True).start()
    sys.stderr = _Lines(sys.stderr)
    try:
        with open(task, "rb") as stream:
            candidates, settings = pickle.load(stream)
        try:
            report = _run_solver(candidates, settings)
        except Exception as error:  # handed to the parent, which raises it
            report = {"error": error}
        partial = out + ".part"
        with open(partial, "wb") as stream:
            pickle.dump(report, stream, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(partial, out)  # the parent never reads half a report
    except KeyboardInterrupt:  # Ctrl-C reaches the whole group: the parent reports it
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(_child_main(*sys.argv[1:5]))
