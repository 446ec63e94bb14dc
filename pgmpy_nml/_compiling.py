"""One line on stderr before numba compiles: "compiling (once, about N s)".

The first call after installing or upgrading the package (or numba, or Python)
finds none of the compiled kernels it needs in the cache (:mod:`pgmpy_nml._jit`)
and compiles them: 10-30 s of CPU on the project's 2-core machine for the first
``pgmpy-nml`` or ``LocalSearch.fit``, twice that on slower ones. Every later call
loads them in a few milliseconds each. So that the wait is not silent, the cache
calls :func:`before_compiling` when it has to compile a kernel, and the first
time in a process (and never on a warm cache) it writes::

    pgmpy-nml: compiling (once, about 25 s): the numba kernels of the local search;
    later runs load them from /home/me/.cache/pgmpy-nml

The estimate is the CPU time the kernels still missing from the cache took to
compile on the project's machine (:data:`pgmpy_nml._compile_times.SECONDS`,
written by ``python benchmarks/bench_startup.py --compile-times``): those of the
running search (:func:`announced`), plus the kernel being compiled; outside a
search, that kernel and the other missing ones it was measured with.

It respects quiet use: a search with ``show_progress=False`` compiles silently, and
so does anything after it outside a search (the last ``show_progress`` given is
the default), e.g. the parameters the command line fits after a quiet search.
"""

from __future__ import annotations

import functools
import os
import sys
import threading
from typing import TYPE_CHECKING

from . import _compile_times

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["announced", "before_compiling", "estimate_seconds"]

#: Seconds assumed for a kernel the table does not know (a median kernel compiles in
#: about 1 s on the project's machine; a new one is more likely to be large).
UNKNOWN_KERNEL_SECONDS = 2.0

_lock = threading.Lock()
_contexts: list[tuple[str | None, bool]] = []  # (what runs, show?), innermost last
_state = {"announced": False, "show": True}  # "show": the last show_progress given


class announced:
    """Context manager and decorator: compiles inside are announced as ``label``'s.

    As a decorator of an estimator's ``fit``, ``show`` is read from the estimator's
    ``show_progress`` at each call.

    Parameters
    ----------
    label : str or None
        What runs, as the notice names it ("local search"), and the entry of
        :data:`pgmpy_nml._compile_times.SECONDS` the estimate reads.
    show : bool, default True
        False: compile silently (and make silence the default outside a search).

    Examples
    --------
    >>> with announced("local search", show=False):
    ...     pass  # a kernel compiled here would say nothing
    """

    def __init__(self, label: str | None, show: bool = True) -> None:
        self.label = label
        self.show = bool(show)

    def __enter__(self) -> announced:
        with _lock:
            _contexts.append((self.label, self.show))
            _state["show"] = self.show
        return self

    def __exit__(self, *exc) -> None:
        entry = (self.label, self.show)
        with _lock:
            for i in range(len(_contexts) - 1, -1, -1):  # the innermost such entry
                if _contexts[i] == entry:
                    del _contexts[i]
                    break

    def __call__(self, fit: Callable) -> Callable:
        label = self.label

        @functools.wraps(fit)
        def fit_announced(estimator, *args, **kwargs):
            with announced(label, getattr(estimator, "show_progress", True)):
                return fit(estimator, *args, **kwargs)

        return fit_announced


def _kernel_name(py_func) -> str:
    """``module.function``; a serial twin (:mod:`pgmpy_nml._jit`) goes by its kernel's name."""
    return f"{py_func.__module__}.{py_func.__qualname__}".removesuffix("_serial")


def _module_loaded(name: str) -> bool:
    return name.rpartition(".")[0] in sys.modules


def _is_cached(name: str) -> bool:
    """The kernel (either twin of a pair) was compiled or loaded in this process, or is
    in the cache on disk (any signature)."""
    module_name, _, attribute = name.rpartition(".")
    found = getattr(sys.modules.get(module_name), attribute, None)
    for dispatcher in (getattr(found, "serial", found), getattr(found, "parallel", None)):
        if dispatcher is None:
            continue
        if getattr(dispatcher, "overloads", None):
            return True
        cache_file = getattr(getattr(dispatcher, "_cache", None), "_cache_file", None)
        index = getattr(cache_file, "_index_path", None)
        if index and os.path.exists(index):
            return True
    return False


def estimate_seconds(label: str | None, py_func) -> float:
    """CPU seconds the kernels still to compile took on the project's machine.

    ``py_func``'s kernel (about to compile) plus the kernels of ``label``'s reference
    runs that apply (every module they compile kernels of is loaded: the exact
    search's runs over candidate parent sets apply once their modules are) and that
    are neither in the cache nor loaded. Outside a search, the runs that compiled
    ``py_func``'s kernel.

    Examples
    --------
    >>> from pgmpy_nml.search._local._kernels import item_statistics
    >>> estimate_seconds("local search", item_statistics.py_func) > 5
    True
    """
    name = _kernel_name(py_func)
    runs = [run for runs in _compile_times.SECONDS.values() for run in runs]
    own = max((run[name] for run in runs if name in run), default=UNKNOWN_KERNEL_SECONDS)
    if label in _compile_times.SECONDS:
        runs = _compile_times.SECONDS[label]
    else:
        runs = [run for run in runs if name in run]
    missing: dict[str, float] = {}
    for run in runs:
        if all(_module_loaded(kernel) for kernel in run):
            for kernel, seconds in run.items():
                if kernel != name and not _is_cached(kernel):
                    missing[kernel] = max(missing.get(kernel, 0.0), seconds)
    return own + sum(missing.values())


def _about(seconds: float) -> str:
    if seconds < 9.5:
        return f"about {max(1, round(seconds))} s"
    if seconds < 90:
        return f"about {5 * round(seconds / 5)} s"
    return f"about {round(seconds / 60)} min"


def before_compiling(py_func, cache_folder) -> None:
    """Called by the cache when ``py_func``'s kernel is about to be compiled: write the
    notice if it is the first compile of the process and compiling is not silent
    (``cache_folder``: where the compiled kernels go, for the notice)."""
    with _lock:
        if _state["announced"]:
            return
        label, show = _contexts[-1] if _contexts else (None, _state["show"])
        if not show:
            return
        _state["announced"] = True
    what = f"of the {label}" if label else "this call needs"
    print(
        f"pgmpy-nml: compiling (once, {_about(estimate_seconds(label, py_func))}): the "
        f"numba kernels {what}; later runs load them from {cache_folder}",
        file=sys.stderr,
        flush=True,
    )
