"""Progress of a counted task on stderr: a bar on a terminal, periodic lines elsewhere.

A tqdm bar redraws one line with carriage returns, which a log file or a CI
console (stderr not a terminal) shows as nothing or as one garbled line. There,
:class:`Progress` prints a plain line when the task starts, at most every
``interval`` seconds while it runs, and when it ends::

    bootstrap: 0/200 resamples
    bootstrap: 37/200 resamples (18%), 0:01:00 elapsed, about 0:04:24 left
    bootstrap: 200/200 resamples (100%), 0:05:21 elapsed

This is the one place that decides between the two; long study tools (bootstrap,
cross-validation) report through it.
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import TextIO

__all__ = ["PROGRESS_INTERVAL", "Progress", "run_counted"]

#: Seconds between two progress lines when stderr is not a terminal.
PROGRESS_INTERVAL = 30.0


def _clock(seconds: float) -> str:
    seconds = round(seconds)
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


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
    interval : float, default :data:`PROGRESS_INTERVAL`
        Seconds between two lines when ``file`` is not a terminal.
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
        interval: float = PROGRESS_INTERVAL,
        file: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total, self.desc, self.unit = int(total), desc, unit
        self.show, self.interval, self.clock = bool(show), float(interval), clock
        self.file = sys.stderr if file is None else file
        self.done = 0
        self._bar = None
        self._start = self._last = clock()
        if not self.show:
            return
        if _is_terminal(self.file):
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
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _is_terminal(file) -> bool:
    try:
        return bool(file.isatty())
    except (AttributeError, ValueError):
        return False


def run_counted(tasks, n_jobs: int | None, progress: Progress) -> list:
    """Run joblib ``tasks`` (``delayed`` calls) with ``n_jobs`` workers, in order,
    counting each finished one on ``progress``; returns their results."""
    from joblib import Parallel

    results = []
    for result in Parallel(n_jobs=n_jobs, return_as="generator")(tasks):
        results.append(result)
        progress.update()
    return results
