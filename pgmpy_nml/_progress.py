"""Progress of long work on stderr: a tqdm bar on a terminal, periodic plain lines anywhere else.

A bar redrawn in place is right on a terminal (and tqdm's widget in a notebook),
but in a log file, a pipe or a batch job it is either silent or a heap of carriage
returns. :func:`progress_bar` gives the same object in both cases: on a terminal
or in a notebook the tqdm bar, otherwise a :class:`PeriodicLines` that writes one
complete line every ``every`` seconds (10 by default) and, if it wrote any, a last
line when the work ends, so the last line always agrees with the result.
Counted tasks (bootstrap resamples, cross-validation splits) report through
:class:`Progress`, which says how many units are done::

    bootstrap: 0/200 resamples
    bootstrap: 37/200 resamples (18%), 0:01:00 elapsed, about 0:04:24 left
    bootstrap: 200/200 resamples (100%), 0:05:21 elapsed

Work inside a counted task (each fit of a cross-validation or a bootstrap) shows its
own progress under the task's: its lines say which unit they belong to
(``cross-validation 2/10: exact search: 0:00:10 elapsed, ...``) and its bar is
cleared when it ends (:func:`nested_desc`).

This is the one place that decides between a bar and lines (:func:`_interactive`)
and sets the period (10 s; the environment variable ``PGMPY_NML_PROGRESS_SECONDS``
overrides it). Work that calls the display only now and then (a solver in compiled
code, one long level of counting) runs inside :func:`keep_alive`, which refreshes it
from a thread, so that the lines keep coming at their period.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
import weakref
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "PROGRESS_INTERVAL",
    "PeriodicLines",
    "Progress",
    "keep_alive",
    "nested_desc",
    "progress_bar",
]

#: Seconds between two progress lines when the output is not a terminal (the
#: environment variable ``PGMPY_NML_PROGRESS_SECONDS`` overrides it).
PERIOD = 10.0


def _period() -> float:
    text = os.environ.get("PGMPY_NML_PROGRESS_SECONDS")
    try:
        value = float(text) if text else PERIOD
    except ValueError:
        return PERIOD
    return value if value >= 0 else PERIOD


#: The period of :class:`Progress` (kept as a name for the study tools).
PROGRESS_INTERVAL = PERIOD


def _interactive(stream: TextIO) -> bool:
    """A terminal, or a Jupyter kernel (where tqdm.auto draws a widget)."""
    try:
        if stream.isatty():
            return True
    except (AttributeError, ValueError):
        return False
    return "ipykernel" in sys.modules


def _clock(seconds: float) -> str:
    seconds = round(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


class PeriodicLines:
    """tqdm's calls (``update``, ``set_postfix_str``, ``close``, a context manager)
    answered with one plain line every ``every`` seconds.

    Parameters
    ----------
    desc : str
        What runs (the start of every line).
    total : float, optional
        The amount of work, for a percentage and an estimate of the time left.
    every : float, default 10
        Seconds between lines.
    stream : file, default sys.stderr

    Examples
    --------
    >>> import io
    >>> out = io.StringIO()
    >>> bar = PeriodicLines("exact search", every=0.0, stream=out)
    >>> bar.set_postfix_str("score -10  bound -9  gap 10%")
    >>> bar.close()
    >>> out.getvalue().splitlines()[-1].split(", ", 1)[1]
    'score -10  bound -9  gap 10% (done)'
    """

    def __init__(
        self,
        desc: str,
        total: float | None = None,
        every: float = PERIOD,
        stream: TextIO | None = None,
        unit: str = "",
    ) -> None:
        self.desc = desc
        self.total = total
        self.every = every
        self.stream = sys.stderr if stream is None else stream
        self.unit = unit
        self.n = 0.0
        self.postfix = ""
        self.start = time.monotonic()
        self.last = self.start
        self.lines = 0
        self.closed = False
        self._lock = threading.Lock()  # keep_alive's thread ticks too

    def _text(self, done: bool = False) -> str:
        elapsed = time.monotonic() - self.start
        parts = [f"{self.desc}: {_clock(elapsed)} elapsed"]
        if self.total:
            fraction = min(self.n / self.total, 1.0)
            text = f"{100 * fraction:.0f}%"
            if 0 < fraction < 1 and not done:
                text += f", about {_clock(elapsed * (1 - fraction) / fraction)} left"
            parts.append(text)
        elif self.unit and self.n:
            parts.append(f"{self.n:g}{self.unit}")
        if self.postfix:
            parts.append(self.postfix)
        return ", ".join(parts) + (" (done)" if done else "")

    def _write(self, done: bool = False) -> None:
        print(self._text(done), file=self.stream, flush=True)
        self.lines += 1
        self.last = time.monotonic()

    def _tick(self) -> None:
        with self._lock:
            if not self.closed and time.monotonic() - self.last >= self.every:
                self._write()

    def update(self, n: float = 1) -> None:
        self.n += n
        self._tick()

    def set_postfix_str(self, text: str = "", refresh: bool = True) -> None:
        self.postfix = text
        self._tick()

    def set_description(self, desc: str | None = None, refresh: bool = True) -> None:
        self.desc = desc or ""

    def refresh(self) -> None:
        """A line if the period has passed since the last one (what the latest
        ``set_postfix_str`` said, with the time elapsed now)."""
        self._tick()

    def close(self) -> None:
        with self._lock:
            if self.closed:
                return
            self.closed = True
            if self.lines or self.every <= 0:  # say how it ended, if anything was said
                self._write(done=True)

    def __enter__(self) -> PeriodicLines:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


#: Seconds between two refreshes by :func:`keep_alive` (a bar's elapsed time; a line is
#: still written only once its period has passed).
BEAT = 1.0


@contextlib.contextmanager
def keep_alive(bar, beat: float | None = None):
    """Refresh ``bar`` (a tqdm bar, :class:`PeriodicLines` or None) every ``beat`` seconds
    (default :data:`BEAT`) from a daemon thread while the block runs.

    For work that updates the display only when something changes (the solver's
    events): in a log the periodic lines keep coming, each with the latest values
    (still true: an incumbent stays a network that exists, a proven bound stays
    proven) and the time elapsed. The thread runs only while the work releases the
    GIL (compiled code without it, numpy, SCIP's ``optimizeNogil``).

    Examples
    --------
    >>> import io, time
    >>> out = io.StringIO()
    >>> bar = PeriodicLines("solver", every=0.05, stream=out)
    >>> bar.set_postfix_str("gap 5%")
    >>> with keep_alive(bar, beat=0.01):
    ...     time.sleep(0.3)  # no call to the bar: the thread writes the lines
    >>> bar.close()
    >>> len(out.getvalue().splitlines()) > 2
    True
    """
    if bar is None or getattr(bar, "disable", False):
        yield bar
        return
    done = threading.Event()
    beat = BEAT if beat is None else beat

    def beat_until_done() -> None:
        while not done.wait(beat):
            bar.refresh()

    thread = threading.Thread(target=beat_until_done, name="pgmpy-nml progress", daemon=True)
    thread.start()
    try:
        yield bar
    finally:
        done.set()
        thread.join()


#: The counted tasks shown in this process, innermost last (:class:`Progress`), held
#: weakly: a display nobody closed is forgotten with its object.
_RUNNING: list[weakref.ref[Progress]] = []


def _running() -> Progress | None:
    """The innermost counted task still under way (shown, not closed, not all done)."""
    _RUNNING[:] = [ref for ref in _RUNNING if ref() is not None]
    for ref in reversed(_RUNNING):
        task = ref()
        if task is not None and task.done < task.total:
            return task
    return None


def nested_desc(desc: str) -> str:
    """``desc`` prefixed with the counted task it runs in and which unit of it, e.g.
    ``"cross-validation 2/10: exact search"`` (``desc`` itself outside any task).

    Examples
    --------
    >>> import io
    >>> with Progress(10, "bootstrap", "resamples", file=io.StringIO()) as task:
    ...     task.update()
    ...     nested_desc("exact search")
    'bootstrap 2/10: exact search'
    >>> nested_desc("exact search")
    'exact search'
    """
    task = _running()
    if task is None:
        return desc
    return f"{task.desc} {task.done + 1}/{task.total}: {desc}"


def progress_bar(show: bool, desc: str, *, every: float | None = None, **tqdm_options: Any):
    """A progress display for ``desc``: tqdm on a terminal or in a notebook, periodic
    lines on stderr otherwise, nothing at all when ``show`` is false. Inside a counted
    task, ``desc`` names the task's unit (:func:`nested_desc`) and the bar is cleared
    when it closes.

    ``tqdm_options`` (``total``, ``unit``, ``bar_format``, ``leave``, ...) go to tqdm;
    the periodic lines take ``total`` and ``unit``.
    """
    from tqdm.auto import tqdm

    if not show:
        return tqdm(disable=True, **tqdm_options)
    nested = _running() is not None
    desc = nested_desc(desc)
    if _interactive(sys.stderr):
        if nested:
            tqdm_options.setdefault("leave", False)
        return tqdm(desc=desc, **tqdm_options)
    return PeriodicLines(
        desc,
        total=tqdm_options.get("total"),
        every=_period() if every is None else every,
        unit=tqdm_options.get("unit", ""),
    )


class Progress:
    """Counts finished units of a task and shows them on ``file`` (default stderr).

    Parameters
    ----------
    total : int
        Units of work (resamples, splits).
    desc : str
        What runs, e.g. ``"bootstrap"``.
    unit : str
        What a unit is, plural (``"resamples"``).
    show : bool, default True
        False: nothing is shown.
    interval : float, optional
        Seconds between two lines when ``file`` is not a terminal (default: 10, or
        ``PGMPY_NML_PROGRESS_SECONDS``).
    file : file object, optional
        Default ``sys.stderr``.
    clock : callable, optional
        Seconds as a float (default ``time.monotonic``), for tests.

    Examples
    --------
    >>> import io
    >>> out = io.StringIO()  # not a terminal: lines
    >>> with Progress(3, "bootstrap", "resamples", file=out, interval=0) as progress:
    ...     for _ in range(3):
    ...         progress.update()
    >>> print(out.getvalue().splitlines()[0])
    bootstrap: 0/3 resamples
    >>> out.getvalue().splitlines()[-1].startswith("bootstrap: 3/3 resamples (100%)")
    True
    """

    def __init__(
        self,
        total: int,
        desc: str,
        unit: str,
        *,
        show: bool = True,
        interval: float | None = None,
        file: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total, self.desc, self.unit = int(total), desc, unit
        self.show, self.clock = bool(show), clock
        self.interval = _period() if interval is None else float(interval)
        self.file = sys.stderr if file is None else file
        self.done = 0
        self._bar = None
        self._start = self._last = clock()
        if not self.show:
            return
        _RUNNING.append(weakref.ref(self))
        if _interactive(self.file):
            from tqdm.auto import tqdm

            self._bar = tqdm(total=self.total, desc=desc, unit=f" {unit}", file=self.file)
        else:
            self._line()

    def _line(self) -> None:
        text = f"{self.desc}: {self.done}/{self.total} {self.unit}"
        if self.done:
            elapsed = self.clock() - self._start
            text += f" ({100 * self.done / max(self.total, 1):.0f}%), {_clock(elapsed)} elapsed"
            if self.done < self.total:
                left = elapsed / self.done * (self.total - self.done)
                text += f", about {_clock(left)} left"
        print(text, file=self.file, flush=True)

    def update(self, n: int = 1) -> None:
        """``n`` more units are done."""
        self.done += n
        if not self.show:
            return
        if self._bar is not None:
            self._bar.update(n)
            return
        now = self.clock()
        if self.done >= self.total or now - self._last >= self.interval:
            self._last = now
            self._line()

    def close(self) -> None:
        _RUNNING[:] = [ref for ref in _RUNNING if ref() not in (None, self)]
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
