r"""Two engines on two cores, the first proof wins: ``method="astar|solver"``,
``"solver|solver"`` and ``"order|solver"``.

The first engine runs in the calling process while SCIP's branch and cut
(:mod:`._solver`) searches the same candidates in a process of its own, started
at once (a fresh interpreter, ``python -m`` this module: no fork of a process
that holds numba's threads, no re-import of the caller's ``__main__``; it takes
about 2 s of CPU to start):

- ``"astar|solver"``: A* (:mod:`._astar`) beside the solver;
- ``"solver|solver"``: the solver (SCIP's defaults, in the other process) beside a
  second solver, in the calling process, that differs in its random seed (``seed + 1``)
  and works on the bound first (:data:`._scip_model.BOUND_FIRST`: the root's cut loop
  goes on while it finds cuts, and separates the most violated clusters by sub-IP too,
  then the open node with the best bound is taken next; from many candidates per
  variable its root is priced, :mod:`._pricing`). The bound-first solver is the calling
  process's because it notices the other's proof soonest: root pricing asks at every
  round, a few seconds at most, while SCIP's defaults ask only at SCIP's events, which
  a large root LP or heuristic can hold off for minutes (barley, N = 100, fNML,
  3 parents: the priced solver, then in the other process, proved after 29.9 s and the
  result came at 413 s). With ``probe`` (what ``method="auto"`` asks up to 63 variables,
  :func:`._pipeline._probe_seconds`), A* runs for a few seconds in the calling process
  before its solver: its proof ends the portfolio, else its network and bound count in
  the result and the solver starts as it would have, that much later. Branch and cut's running time
  varies from seed to seed: hailfinder (56 variables, BDeu(1), N = 10000, 3 parents)
  took 86.7, 156 and 124 s of CPU with seeds 0, 1 and 2; a race takes the faster. Where
  the default search branches too early the second gives the better bound (hailfinder,
  BDeu(100), N = 1000: 0.177% against 4.0% after 300 s; andes, 223 variables: 2.73%
  against 3.41%), and the result takes the smaller.
- ``"order|solver"``: the memetic order search (:func:`._memetic.order_engine`, which
  proves nothing: its bound is every variable's best candidate) beside the solver that
  works on the bound first, with the whole memory share (the order search holds little
  beyond the families). For very many candidates, where SCIP's model over every one is
  too large to build in the time or memory (both solvers of ``"solver|solver"`` would
  price their root then: twice the same work); ``method="auto"`` runs it there
  (:func:`._pipeline._order_instead`, with the measurements that chose it).

When the calling process's engine proves its network optimal (or reaches
``gap_limit``) the other process is killed, so an instance proven in a fraction of a
second costs no more than one engine alone; when the other process finishes first,
the calling process's engine stops at its next batch of expansions (A*: a tenth of a
second), round of root pricing or SCIP event (the solver: its next node, incumbent
or better bound, within one LP) or local search (the order search). When the time
limit runs out first, the result is *anytime honest*: the better of the two networks,
and the smaller of the two bounds.

Soundness of the combined bound: each engine's bound is a proven upper bound on
the best score over the same candidates (:func:`~pgmpy_nml.search.candidates.solve`,
:func:`~pgmpy_nml.search.candidates._astar.astar`), so their minimum is one too;
the result's bound is moreover raised to at least its network's score, so it is
never below a network that exists.

The solver's process is always ended before this returns, whatever stops the
run (a proof, the time limit, an error, ``KeyboardInterrupt``): killed if still
running, and waited for, so it is never left behind as a zombie. If the calling
process itself is killed (``SIGTERM`` from ``timeout``, ``SIGKILL``, a notebook's
kernel restarted), the solver's process notices within a second, removes the
temporary folder the two share and ends; it deletes the task's file as soon as it has
read it, and once its report is written it waits to be ended rather than exiting, so
that while the folder exists a process exists to remove it.
"""

from __future__ import annotations

import contextlib
import gc
import math
import os
import pickle
import subprocess
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from ..._memory import available_memory
from ..._progress import PeriodicLines, keep_alive, progress_bar
from ...exceptions import PgmpyNMLWarning
from . import _solver
from ._families import _checked_families, _network_result, _progress_text

if TYPE_CHECKING:
    from .._result import SearchResult
    from ._files import CandidateParentSets

__all__: list[str] = []


@dataclass(frozen=True)
class _Pair:
    """One portfolio: the engine in the calling process and how each side's solver runs
    (:func:`._solver._solve`'s ``bound_first`` and ``memory_share``)."""

    #: The calling process's engine, ``"astar"``, ``"order"`` or ``"solver"``.
    mine: str
    #: The progress line's name for the two.
    both: str
    #: The solver process's name in the result's ``timings``.
    theirs: str
    #: The calling process's name there (None: ``mine``).
    my_key: str | None = None
    #: The two engines' names on the progress line (the calling process's first).
    names: tuple[str, str] = ("A*", "solver")
    #: Added to ``seed`` for the calling process's solver (``mine == "solver"``).
    my_seed_shift: int = 0
    #: The calling process's solver settings (``mine == "solver"``).
    my_solver: dict = field(default_factory=dict)
    #: The solver process's settings.
    their_solver: dict = field(default_factory=lambda: {"bound_first": False, "memory_share": None})


#: Two solvers share the memory SCIP may take (A* beside one takes its own share).
_HALF_SCIP_MEMORY = _solver._SCIP_MEMORY_SHARE / 2

#: The portfolios, by ``method``.
PORTFOLIOS = {
    "astar|solver": _Pair("astar", "A* and the solver", "solver"),
    "solver|solver": _Pair(
        "solver",
        "two solvers",
        "solver",
        my_key="solver (second)",
        names=("solver 2", "solver 1"),
        my_seed_shift=1,
        my_solver={"bound_first": True, "memory_share": _HALF_SCIP_MEMORY},
        their_solver={"bound_first": False, "memory_share": _HALF_SCIP_MEMORY},
    ),
    "order|solver": _Pair(
        "order",
        "the order search and the solver",
        "solver",
        names=("order search", "solver"),
        their_solver={"bound_first": True, "memory_share": None},
    ),
}
#: The A* probe's name in the result's ``timings`` and ``engines`` (:func:`_probe`).
PROBE_KEY = "astar (probe)"
#: The statuses that end the portfolio at once.
PROOFS = ("optimal", "gaplimit")
#: From this many candidates on, a full garbage collection runs before the engines start
#: (:func:`settle`).
GC_MIN_CANDIDATES = 100_000

#: Seconds a child may take beyond the time limit to report: its start (Python, numpy,
#: numba's cached kernels: 2 s of CPU, 5-10 s on a loaded machine), its last batch of work
#: and its report. A child that is not done by then is killed.
_GRACE = 60.0
#: Share of the memory A* may take beside the solver (alone: 80%).
_ASTAR_MEMORY_SHARE = 0.5
#: The A* probe's wall time, at most, in multiples of its CPU seconds (:func:`_probe`).
_PROBE_WALL = 4.0
#: Seconds between two looks at the children.
_POLL = 0.05


def settle(candidates: CandidateParentSets) -> None:
    """Pays, before the engines over ``candidates`` start (in the calling process and in
    the solver's), two costs their result would otherwise pay after the deadline: pgmpy's
    graphs for its DAG (1.8 s to import in a fresh process), and the first full garbage
    collection after the parent sets were built, which visits each of them (0.4-1.2 s on
    baudio's 9.6 million; it then leaves them untracked; below
    :data:`GC_MIN_CANDIDATES` it takes milliseconds wherever it falls)."""
    import pgmpy.base  # noqa: F401

    if int(candidates.n_candidates().sum()) >= GC_MIN_CANDIDATES:
        gc.collect()


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
    probe: float = 0.0,
) -> SearchResult:
    """The best network over ``candidates`` by two engines at once (module notes):
    ``method`` is ``"astar|solver"``, ``"solver|solver"`` or ``"order|solver"``.

    ``probe`` > 0: the calling process first runs A* for at most that many seconds
    (:func:`_probe`); its proof ends the portfolio, else its engine starts as it would
    have without the probe, and the probe's network and bound are kept for the result.

    The settings are checked ones, as the engines take them; ``max_memory`` caps
    A*'s tables (by default half the memory available, the other half left to the
    solver). The result's ``method`` is ``method``, ``engine`` the engine whose
    network it is, ``timings`` each engine's seconds (``"astar"``, ``"order"`` or
    ``"solver (second)"``, the bound-first solver of ``"solver|solver"``, for the calling
    process's, ``"solver"`` for the other's) and ``"portfolio"`` (the whole). Progress
    is one line for the two (:class:`_Race`).
    """
    pair = PORTFOLIOS[method]
    begin = time.perf_counter()
    deadline = None if time_limit is None else time.time() + time_limit  # all included
    settings = {
        "deadline": deadline,
        "initial": initial,
        "show_progress": show_progress,
        "gap_limit": gap_limit,
        "seed": seed,
        **pair.their_solver,
    }
    with tempfile.TemporaryDirectory(prefix="pgmpy-nml-portfolio-") as folder:
        task = os.path.join(folder, "task.pkl")
        settings["status"] = os.path.join(folder, "status")
        with open(task, "wb") as stream:
            pickle.dump((candidates, settings), stream, protocol=pickle.HIGHEST_PROTOCOL)
        out = os.path.join(folder, "solver")
        child = _launch("solver", task, out)
        race = _Race(show_progress, f"exact search ({pair.both})", pair.names, settings["status"])
        result = None
        try:
            fam = _checked_families(candidates)  # while the other process starts and reads
            with keep_alive(race):
                first = None
                if probe > 0:
                    first = _probe(candidates, race, child, out, probe, max_memory, settings)
                if first is not None and (first.status in PROOFS or _finished(child, out)):
                    mine, reports = first, {}  # proven, or the other process has finished
                else:  # from the same start as without the probe: the same search, later
                    mine = _my_engine(
                        pair, candidates, race, child, out, seed, max_memory, settings
                    )
                    reports = {pair.my_key or pair.mine: _report(fam, mine)}
                if first is not None:
                    reports[PROBE_KEY] = _report(fam, first)
                if mine.status not in PROOFS:  # the other's turn: finished, or its deadline
                    theirs = _wait(child, out, deadline)
                    if theirs is not None:
                        reports[pair.theirs] = theirs
                    else:
                        _warn_no_report(pair, child)
            result = _combine(fam, candidates, reports, method)
        finally:
            _end(child)
            race.close(result)
    timings = dict(result.timings or {})
    timings["portfolio"] = time.perf_counter() - begin
    return replace(result, timings=timings)


def _probe(candidates, race, child, out, seconds, max_memory, settings):
    """A* in the calling process for at most ``seconds`` of its CPU time (so that a
    loaded machine does not cut it short; at most :data:`_PROBE_WALL` times as many
    seconds of wall time, and within the deadline), from ``settings``' start network,
    reporting on ``race`` as ``"A*"``. Its end is a stop (status ``"stopped"``, no final
    local search): at that limit or when the child has finished. None when it stopped
    before it had any network."""
    end = time.time() + _PROBE_WALL * seconds
    if settings["deadline"] is not None:
        end = min(end, settings["deadline"])
    cpu_end = time.thread_time() + seconds
    names, race.names = race.names, ("A*", race.names[1])
    try:
        return _astar_here(
            candidates,
            race,
            settings,
            max_memory,
            stop=lambda: (
                time.thread_time() >= cpu_end or time.time() >= end or _finished(child, out)
            ),
        )
    except RuntimeError:  # stopped before any network (no start given): the engine's turn
        return None
    finally:
        race.names = names


def _astar_here(candidates, race, settings, max_memory, stop, time_limit=None):
    """A* in the calling process, beside the other process's engine: from ``settings``'
    start network and gap limit, with ``max_memory`` (by default
    :data:`_ASTAR_MEMORY_SHARE` of the memory available), stopped by ``stop()`` or
    ``time_limit``, reporting on ``race``."""
    from ._astar import astar

    if max_memory is None:
        max_memory = _ASTAR_MEMORY_SHARE * available_memory()
    return astar(
        candidates,
        time_limit=time_limit,
        initial=settings["initial"],
        gap_limit=settings["gap_limit"],
        max_memory=max_memory,
        stop=stop,
        display=race,
    )


def _my_engine(pair, candidates, race, child, out, seed, max_memory, settings):
    """The calling process's engine of the portfolio, reporting on ``race`` and stopped
    when the child has finished."""
    from ._memetic import order_engine

    deadline = settings["deadline"]
    time_limit = None if deadline is None else max(deadline - time.time(), 1e-3)
    if pair.mine == "order":
        return order_engine(
            candidates,
            time_limit=time_limit,
            initial=settings["initial"],
            seed=seed,
            stop=lambda: _finished(child, out),
            display=race,
        )
    if pair.mine == "astar":
        stop = lambda: _finished(child, out)  # noqa: E731 - as the other engines' stop
        return _astar_here(candidates, race, settings, max_memory, stop, time_limit)
    return _solver._solve(
        candidates,
        settings["initial"],
        time_limit,
        settings["gap_limit"],
        seed + pair.my_seed_shift,
        False,
        stop=lambda: _finished(child, out),
        display=race,
        **pair.my_solver,
    )


class _Race:
    """The portfolio's one progress line: the best network of the two engines and who
    found it, the best bound and who proved it, the gap, on one clock (the portfolio's).

    The calling process's engine reports here (:func:`._families.show_status`); the
    other process writes its latest numbers to the file ``status`` (:class:`_Status`),
    read at most every :data:`_STATUS_READ` seconds. The last line is the combined
    result's (:meth:`close`)."""

    disable = False

    def __init__(self, show: bool, desc: str, names: tuple[str, str], status: str) -> None:
        self.bar = None
        if show:
            self.bar = progress_bar(
                True, desc, total=None, bar_format="{desc}: {elapsed} {postfix}"
            )
        self.names = names
        self.status = status
        self.numbers: dict[str, tuple[float, float]] = {}
        self._read_at = -math.inf

    def report(self, score: float, bound: float, nodes=None) -> None:
        self.numbers[self.names[0]] = (float(score), float(bound))
        self._show()

    def set_postfix_str(self, text: str = "", refresh: bool = True) -> None:
        self._show()

    def refresh(self) -> None:
        self._show()

    def update(self, n: float = 1) -> None:
        pass

    def _read(self) -> None:
        now = time.monotonic()
        if now - self._read_at < _STATUS_READ:
            return
        self._read_at = now
        try:
            with open(self.status, encoding="utf-8") as stream:
                score, bound = (float(x) for x in stream.read().split())
        except (OSError, ValueError):
            return  # not written yet, or being replaced
        self.numbers[self.names[1]] = (score, bound)

    def text(self) -> str:
        """``score S  bound B  gap G%  (best network: E; best bound: F)``."""
        self._read()
        if not self.numbers:
            return "starting both engines"
        leader = max(self.numbers, key=lambda name: self.numbers[name][0])
        prover = min(self.numbers, key=lambda name: self.numbers[name][1])
        score, bound = self.numbers[leader][0], self.numbers[prover][1]
        return (
            f"{_progress_text(score, max(bound, score))}  (best network: {leader}; "
            f"best bound: {prover})"
        )

    def _show(self) -> None:
        if self.bar is not None:
            self.bar.set_postfix_str(self.text())

    def close(self, result: SearchResult | None = None) -> None:
        """The last line: the combined ``result`` (whose engine found the network)."""
        if self.bar is None:
            return
        if result is not None:
            text = _progress_text(result.score, result.bound)
            self.bar.set_postfix_str(f"{text}  network by {result.engine}")
            if isinstance(self.bar, PeriodicLines):
                self.bar.every = 0.0  # the result's line, even when no other was due
        self.bar.close()


#: Seconds between two reads of the other process's numbers, and between two writes.
_STATUS_READ = 0.5


class _Status:
    """The solver process's progress display: its latest incumbent and bound written to
    the file ``path`` (replaced whole, at most every :data:`_STATUS_READ` seconds), for
    the calling process's one line (:class:`_Race`)."""

    disable = False

    def __init__(self, path: str) -> None:
        self.path = path
        self.latest: tuple[float, float] | None = None
        self.written: tuple[float, float] | None = None
        self._at = -math.inf

    def report(self, score: float, bound: float, nodes=None) -> None:
        self.latest = (float(score), float(bound))
        self.refresh()

    def refresh(self) -> None:
        if self.latest is None or self.latest == self.written:
            return
        now = time.monotonic()
        if now - self._at < _STATUS_READ:
            return
        self._at = now
        partial = self.path + ".part"
        with open(partial, "w", encoding="utf-8") as stream:
            stream.write(f"{self.latest[0]!r} {self.latest[1]!r}")
        os.replace(partial, self.path)
        self.written = self.latest

    def set_postfix_str(self, text: str = "", refresh: bool = True) -> None:
        pass

    def update(self, n: float = 1) -> None:
        pass

    def close(self) -> None:
        pass


def _launch(engine: str, task: str, out: str) -> subprocess.Popen:
    """A child process that runs ``engine`` on the task and writes its report to ``out``."""
    return subprocess.Popen(
        [sys.executable, "-m", __name__, engine, task, out, str(os.getpid())],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        env=os.environ.copy(),
    )


def _finished(child: subprocess.Popen, out: str) -> bool:
    """Whether the child is done: its report is there (it then waits to be ended), or it
    ended without one."""
    return os.path.exists(out) or child.poll() is not None


def _wait(child: subprocess.Popen, out: str, deadline: float | None) -> dict | None:
    """The child's report once written (None if it died without one, e.g. killed by the
    system for its memory, or wrote none by the deadline and its grace); its error,
    re-raised, if it failed."""
    while not _finished(child, out):
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


def _warn_no_report(pair: _Pair, child: subprocess.Popen) -> None:
    """Say that the child ended, or was ended at its grace, without its result."""
    code = child.poll()
    if code is None:
        how = f"had not reported {_GRACE:g} s after the time limit and was stopped"
    elif code < 0:
        how = f"was killed by signal {-code} (9: often the system, short of memory)"
    else:
        how = f"ended with exit code {code}"
    warnings.warn(
        f"The portfolio's {pair.theirs} process {how} without its result: the result is "
        f"the {pair.names[0]}'s alone, with its bound.",
        PgmpyNMLWarning,
        stacklevel=2,
    )


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
    time or memory limit, say). ``engines``: each engine's own score, bound, status and
    engine."""
    engines = {
        e: {
            "score": float(fam.total(r["choice"])),
            "bound": float(r["bound"]),
            "status": r["status"],
            "engine": r["engine"],
        }
        for e, r in reports.items()
    }
    name = max(engines, key=lambda e: engines[e]["score"])  # the better network
    best, score = reports[name], engines[name]["score"]
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
    return replace(result, engines=engines)


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
    status = _Status(settings["status"]) if settings["show_progress"] else None
    result = _solver._solve(
        candidates,
        settings["initial"],
        time_limit,
        settings["gap_limit"],
        settings["seed"],
        False,
        bound_first=settings["bound_first"],
        memory_share=settings["memory_share"],
        display=status,
    )
    return _report(_checked_families(candidates), result)


def _orphan_watch(parent: int, files: list[str], every: float = 1.0) -> None:
    """End this process when its parent (the process id ``parent``) is gone (killed, a
    notebook's kernel restarted), removing the ``files`` the two shared and then their
    folder if nothing else is in it: a solver without a time limit would otherwise hold
    a core for ever, and the parent cannot clean up any more. The id comes from the
    parent itself, on the command line: a parent killed while this process was still
    starting (its imports take seconds on a loaded machine) has already handed it to
    another process, so ``os.getppid()`` read here would name that one and the watch
    would never end it."""
    while os.getppid() == parent:
        time.sleep(every)
    for path in files:
        with contextlib.suppress(OSError):
            os.unlink(path)
    with contextlib.suppress(OSError):  # only an empty folder: never anything else's
        os.rmdir(os.path.dirname(files[0]))
    os._exit(1)


def _child_main(engine: str, task: str, out: str, parent: str) -> int:
    import threading

    shared = [task, out, out + ".part"]
    shared += [os.path.join(os.path.dirname(task), f"status{end}") for end in ("", ".part")]
    watch = threading.Thread(target=_orphan_watch, args=(int(parent), shared), daemon=True)
    watch.start()
    sys.stderr = _Lines(sys.stderr)
    try:
        with open(task, "rb") as stream:
            candidates, settings = pickle.load(stream)
        os.unlink(task)  # read: nothing of it is needed on disk any more
        settle(candidates)
        try:
            report = _run_solver(candidates, settings)
        except Exception as error:  # handed to the parent, which raises it
            report = {"error": error}
        del candidates
        partial = out + ".part"
        with open(partial, "wb") as stream:
            pickle.dump(report, stream, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(partial, out)  # the parent never reads half a report
        watch.join()  # until the parent ends this process (or is gone: the folder goes)
    except KeyboardInterrupt:  # Ctrl-C reaches the whole group: the parent reports it
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(_child_main(*sys.argv[1:5]))
