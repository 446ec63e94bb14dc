"""numba's ``njit`` and ``vectorize`` with this package's on-disk cache of compiled kernels.

Every compiled kernel of the package is decorated with :func:`njit` (or
:func:`vectorize`) from here: numba's decorator, always cached, except *where*
the cache lives and *what* keeps it fresh:

- never next to the sources: numba's default for ``cache=True`` writes
  ``__pycache__/*.nbi, *.nbc`` into the installed package, which fails on a
  read-only site-packages and leaves files behind that ``pip uninstall`` does not
  know (a leftover ``site-packages/pgmpy_nml/`` then shadows a later install);
- in ``$NUMBA_CACHE_DIR/pgmpy-nml`` when that variable is set, otherwise in the
  user's cache folder (``$XDG_CACHE_HOME/pgmpy-nml`` or ``~/.cache/pgmpy-nml``
  on Linux, ``~/Library/Caches/pgmpy-nml`` on macOS, ``%LOCALAPPDATA%\\pgmpy-nml``
  on Windows), falling back to the temporary folder, and to no disk cache at all
  if nothing is writable;
- one folder per module, numba version and *content* (sha256) of the module's
  source and of the modules whose kernels it calls: reinstalling the same
  sources (any path, any virtualenv) reuses the compiled kernels, editing a
  callee recompiles its callers, and two versions side by side never evict
  each other.

Only this package's functions are affected: numba's global configuration and
other libraries' caches are left alone.

Loading a kernel from the cache runs with Python's garbage collector paused
(:func:`pgmpy_nml._lazy.gc_paused`); a kernel missing from it makes
:func:`pgmpy_nml._compiling.before_compiling` say "compiling (once, about N s)"
on stderr, once per process, before numba compiles.

numba internals relied on (present from numba 0.59 to at least 0.68):
``numba.core.caching._CacheLocator``, ``CompileResultCacheImpl._locator_classes``,
``FunctionCache._impl_class``, ``Cache.load_overload`` (None on a miss) and
``Cache._py_func``, ``Dispatcher._cache`` and, for :func:`vectorize`,
``numba.np.ufunc.decorators.Vectorize`` with its ``UFuncDispatcher.cache``. If
any of them is missing, the decorators quietly fall back to numba's own
``cache=True`` (:data:`CACHE_MODE` says which is in force; a test checks it).
"""

from __future__ import annotations

import functools
import hashlib
import os
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

import numba

from ._compiling import before_compiling
from ._lazy import gc_paused

__all__ = ["CACHE_MODE", "cache_root", "njit", "vectorize"]


def _platform_cache_home() -> Path:
    """The per-user cache folder of the platform (no third-party helper needed)."""
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser(r"~\AppData\Local")
        return Path(base)
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches"
    base = os.environ.get("XDG_CACHE_HOME", "")
    return Path(base) if os.path.isabs(base) else Path.home() / ".cache"


def cache_root() -> Path:
    """Folder of this package's compiled kernels (its content may be deleted at any time).

    ``$NUMBA_CACHE_DIR/pgmpy-nml`` if ``NUMBA_CACHE_DIR`` is set (numba reads it at
    import), otherwise ``pgmpy-nml`` in the platform's per-user cache folder.

    Returns
    -------
    pathlib.Path
        The folder; it is created only when a kernel is first compiled.

    Examples
    --------
    >>> from pgmpy_nml._jit import cache_root
    >>> cache_root().name
    'pgmpy-nml'
    """
    configured = getattr(numba.config, "CACHE_DIR", "") or ""
    base = Path(configured) if configured else _platform_cache_home()
    return base / "pgmpy-nml"


@functools.cache
def _file_digest(path: str, mtime_ns: int, size: int) -> str:
    # mtime and size only refresh this memo within a process; the key is the content
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


def _module_file(module_name: str) -> str | None:
    module = sys.modules.get(module_name)
    path = getattr(module, "__file__", None)
    return path if path and os.path.isfile(path) else None


def _kernel_modules(module_name: str) -> list[str]:
    """``module_name`` and, transitively, the modules of the kernels its globals hold.

    A kernel inlines the kernels it calls, so its cache must go stale when theirs
    do. Read from the module's globals when its first kernel is decorated: the
    imports at the top of the module have run by then.
    """
    seen = {module_name}
    todo = [module_name]
    while todo:
        module = sys.modules.get(todo.pop())
        values = list(vars(module).values()) if module is not None else []
        for obj in values:
            func = getattr(obj, "py_func", None)
            dep = getattr(func, "__module__", None)
            if dep and dep not in seen and isinstance(func, types.FunctionType):
                seen.add(dep)
                todo.append(dep)
    return sorted(seen)


def _content_key(py_func, py_file: str) -> str:
    """sha256 over the sources of the kernel's module and of the modules it calls into."""
    files = {os.path.abspath(py_file)}
    for name in _kernel_modules(py_func.__module__):
        path = _module_file(name)
        if path:
            files.add(os.path.abspath(path))
    digest = hashlib.sha256()
    for path in sorted(files):
        st = os.stat(path)
        digest.update(_file_digest(path, st.st_mtime_ns, st.st_size).encode())
    return digest.hexdigest()


_WRITABLE: set[str] = set()  # cache folders already checked in this process


def _user_tag() -> str:
    getuid = getattr(os, "getuid", None)
    return str(getuid()) if getuid else (os.environ.get("USERNAME") or "user")


try:  # numba internals; see the module docstring
    from numba.core.caching import (
        CompileResultCacheImpl as _CompileResultCacheImpl,
    )
    from numba.core.caching import FunctionCache as _FunctionCache
    from numba.core.caching import _CacheLocator
    from numba.core.dispatcher import Dispatcher as _Dispatcher

    class _PackageCacheLocator(_CacheLocator):
        """Cache files of a module's kernels, keyed by the content of their sources."""

        def __init__(self, py_func, py_file, root: Path, key: str):
            self._lineno = py_func.__code__.co_firstlineno
            self._stamp = key
            folder = f"{py_func.__module__}-{key[:16]}"
            self._cache_path = str(root / f"numba-{numba.__version__}" / folder)

        def ensure_cache_path(self):
            os.makedirs(self._cache_path, exist_ok=True)
            if self._cache_path not in _WRITABLE:  # try a file once per process
                tempfile.TemporaryFile(dir=self._cache_path).close()
                _WRITABLE.add(self._cache_path)

        def get_cache_path(self):
            return self._cache_path

        def get_source_stamp(self):
            return self._stamp

        def get_disambiguator(self):
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func, py_file):
            if not os.path.isfile(py_file):
                return None  # e.g. defined in a doctest or an interactive session
            key = _content_key(py_func, py_file)
            fallback = Path(tempfile.gettempdir()) / f"pgmpy-nml-{_user_tag()}"
            for root in (cache_root(), fallback):
                locator = cls(py_func, py_file, root, key)
                try:
                    locator.ensure_cache_path()
                except OSError:
                    continue
                return locator
            return None  # nothing writable: numba raises, _attach keeps the NullCache

    class _PackageCacheImpl(_CompileResultCacheImpl):
        # numba infers this list as constructors (py_func, py_file); it calls only the
        # classmethod from_function, which ours has: the inferred type is wrong.
        _locator_classes = [_PackageCacheLocator]  # type: ignore[list-item]

    class _PackageFunctionCache(_FunctionCache):
        _impl_class = _PackageCacheImpl

        def load_overload(self, sig, target_context):
            """numba's load, with the collector paused (the first load of a process also
            sets up numba's typing and target registries: 0.2-0.4 s, a third of it the
            collector's, ``_lazy.gc_paused``); a miss means numba compiles next, which
            :func:`pgmpy_nml._compiling.before_compiling` announces."""
            with gc_paused():
                result = super().load_overload(sig, target_context)
            if result is None:
                before_compiling(self._py_func, cache_root())
            return result

    #: Which cache is in force: "pgmpy-nml" (this module's) or "numba-default" (fallback).
    CACHE_MODE = "pgmpy-nml"
except (ImportError, AttributeError, TypeError):  # pragma: no cover - future numba
    CACHE_MODE = "numba-default"  # the classes above are then undefined: check CACHE_MODE


def _attach(dispatcher, attribute: str) -> bool:
    """Give a dispatcher this package's cache; False if numba's internals changed."""
    if CACHE_MODE != "pgmpy-nml" or not hasattr(dispatcher, attribute):
        return False  # pragma: no cover - future numba
    try:
        setattr(dispatcher, attribute, _PackageFunctionCache(dispatcher.py_func))
    except RuntimeError:  # no writable folder anywhere: compile in memory
        pass
    return True


def _compile(func, sigs, options):
    if CACHE_MODE != "pgmpy-nml":  # pragma: no cover - future numba
        return numba.njit(sigs, cache=True, **options)(func)
    disp = numba.njit(**options)(func)
    if not isinstance(disp, _Dispatcher):  # NUMBA_DISABLE_JIT: the plain function
        return disp
    _attach(disp, "_cache")
    if sigs:  # eager, as numba.njit(sigs) does, but after the cache is attached
        from numba.core import typeinfer

        with typeinfer.register_dispatcher(disp):
            for sig in sigs:
                disp.compile(sig)
        disp.disable_compile()
    return disp


class _SerialOrParallel:
    """A ``parallel=True`` kernel with a serial twin used for small calls.

    numba needs seconds more to compile a ``prange`` loop in parallel than
    serially, and threads only pay off on large inputs: small calls run (and, the
    first time, compile) the serial twin; large ones the parallel kernel. Both
    compile the same Python function (``prange`` is ``range`` when serial), so
    they give identical results. Call it from Python, not from other kernels.
    """

    def __init__(self, func, sigs, options, serial_if):
        self.py_func = func
        self._serial_if = serial_if
        self.parallel = _compile(func, sigs, {**options, "parallel": True})
        twin = types.FunctionType(
            func.__code__, func.__globals__, func.__name__, func.__defaults__, func.__closure__
        )
        twin.__qualname__ = func.__qualname__ + "_serial"  # its own cache files
        twin.__module__ = func.__module__
        twin.__doc__ = func.__doc__
        self.serial = _compile(twin, sigs, {**options, "parallel": False})
        functools.update_wrapper(self, func)

    def __call__(self, *args):
        kernel = self.serial if self._serial_if(*args) else self.parallel
        return kernel(*args)


def njit(*args, serial_if=None, **options):
    """numba's ``njit``, cached in this package's cache folder (see the module docstring).

    Takes numba's arguments (signatures, ``nogil``, ``parallel``, ...); ``cache``
    is implied, and ``cache=False`` is refused. With ``parallel=True``,
    ``serial_if(*call_args) -> bool`` picks a serial twin for calls too small to
    gain from threads, so that they never compile the parallel kernel.

    Parameters
    ----------
    *args
        The function, or signatures as for ``numba.njit``.
    serial_if : callable, optional
        Only with ``parallel=True``: decides per call whether to run serially.
    **options
        numba's compile options.

    Returns
    -------
    Dispatcher or decorator
        As ``numba.njit``.

    Examples
    --------
    >>> from pgmpy_nml._jit import njit
    >>> @njit(nogil=True)
    ... def double(x):
    ...     return 2 * x
    >>> double(21)
    42
    """
    if options.pop("cache", True) is not True:
        raise ValueError("pgmpy_nml kernels are always cached; do not pass cache=False")
    if serial_if is not None and not options.get("parallel"):
        raise ValueError("serial_if is only meaningful with parallel=True")
    if len(args) == 1 and isinstance(args[0], types.FunctionType):
        return njit(serial_if=serial_if, **options)(args[0])
    sigs = None
    if args:
        sigs = args[0] if isinstance(args[0], list) else list(args)

    def decorate(func):
        if serial_if is not None:
            return _SerialOrParallel(func, sigs, options, serial_if)
        return _compile(func, sigs, options)

    return decorate


def vectorize(signatures, **options):
    """numba's ``vectorize`` with explicit signatures, cached like :func:`njit`.

    Parameters
    ----------
    signatures : list of str
        The ufunc's signatures (compiled, or loaded from the cache, at decoration).
    **options
        numba's options (``identity``, ``nopython``, ...); ``cache`` is implied.

    Returns
    -------
    decorator
        Turning a scalar function into a NumPy ufunc.

    Examples
    --------
    >>> from pgmpy_nml._jit import vectorize
    >>> @vectorize(["float64(float64)"])
    ... def half(x):
    ...     return x / 2
    >>> print(half(3.0))
    1.5
    """
    if isinstance(signatures, str):
        signatures = [signatures]
    if not isinstance(signatures, list) or not signatures:
        raise TypeError("vectorize needs a list of signatures, e.g. ['float64(float64)']")
    if options.pop("cache", True) is not True:
        raise ValueError("pgmpy_nml kernels are always cached; do not pass cache=False")

    def decorate(func):
        try:
            from numba.np.ufunc.decorators import Vectorize

            vec: Any = Vectorize(func, **options)  # Vectorize.__new__ returns a DUFunc
            disp = getattr(vec, "_dispatcher", None) or getattr(vec, "nb_func", None)
        except (ImportError, AttributeError, TypeError):  # pragma: no cover - future numba
            disp = None
        if disp is None or not _attach(disp, "cache"):  # pragma: no cover - future numba
            return numba.vectorize(signatures, cache=True, **options)(func)
        for sig in signatures:
            vec.add(sig)
        vec.disable_compile()
        return vec.build_ufunc()

    return decorate
