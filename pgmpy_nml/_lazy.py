"""Lazy public names read from a package's ``__init__.pyi`` (scientific-python SPEC 1),
and heavy imports with Python's cyclic garbage collector paused.

The first use of a public name imports its module, and with it pgmpy, scikit-learn,
SciPy, statsmodels (through pgmpy) and numba: about 2,500 modules and 200,000
objects the collector tracks. While they pile up, its full passes walk the heap
again and again, a fifth of the import's CPU (0.3-0.4 s on the project's 2-core
machine, ``benchmarks/bench_startup.py``). :func:`gc_paused` switches it off for
such a block and back on after (only if it was on); the objects those imports
create live as long as the modules do, so there is next to nothing to collect.
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Callable, Iterator

import lazy_loader

__all__ = ["attach_stub", "gc_paused"]

_lock = threading.Lock()
_depth = 0  # blocks inside gc_paused, all threads together
_was_enabled = False  # the collector's state when the outermost block began


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Run the block with the cyclic garbage collector off (nested blocks and threads
    share one pause; the collector's state before the outermost block is restored).

    Only for blocks that create objects which stay alive (imports, loading compiled
    kernels): cyclic garbage made inside waits for the collector's next pass.

    Examples
    --------
    >>> import gc
    >>> with gc_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()


def attach_stub(package: str, init_file: str) -> tuple[Callable, Callable, list[str]]:
    """``__getattr__``, ``__dir__`` and ``__all__`` for ``package`` from its stub.

    :func:`lazy_loader.attach_stub` reads the ``from .module import name`` lines of the
    ``.pyi`` next to ``init_file`` (dotted modules included) and loads each name's
    module on first use (with the garbage collector paused, :func:`gc_paused`);
    unknown names raise Python's usual ``AttributeError``.

    Examples
    --------
    >>> import pgmpy_nml
    >>> getattr_, dir_, names = attach_stub("pgmpy_nml", pgmpy_nml.__file__)
    >>> getattr_("log_loss").__module__, "log_loss" in dir_() and "log_loss" in names
    ('pgmpy_nml.evaluate', True)
    >>> getattr_("nope")
    Traceback (most recent call last):
    ...
    AttributeError: module 'pgmpy_nml' has no attribute 'nope'
    """
    load, dir_, names = lazy_loader.attach_stub(package, init_file)

    def __getattr__(name: str):
        if name not in names:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        with gc_paused():
            return load(name)

    return __getattr__, dir_, names
