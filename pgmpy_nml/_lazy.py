"""Lazy public names read from a package's ``__init__.pyi`` (scientific-python SPEC 1)."""

from __future__ import annotations

from collections.abc import Callable

import lazy_loader

__all__ = ["attach_stub"]


def attach_stub(package: str, init_file: str) -> tuple[Callable, Callable, list[str]]:
    """``__getattr__``, ``__dir__`` and ``__all__`` for ``package`` from its stub.

    :func:`lazy_loader.attach_stub` reads the ``from .module import name`` lines of the
    ``.pyi`` next to ``init_file`` (dotted modules included) and loads each name's
    module on first use; unknown names raise Python's usual ``AttributeError``.

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
        return load(name)

    return __getattr__, dir_, names
