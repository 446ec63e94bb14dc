"""Old import paths of modules that moved: each forwards to the module that holds the code.

``pgmpy_nml.regret``, ``pgmpy_nml.snml``, ``pgmpy_nml.forest``, ``pgmpy_nml.ess`` and
``pgmpy_nml.saturation`` predate the ``numerics`` / ``analysis`` layout; they stay
importable with the same names (public and private) through :func:`forward`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType

__all__ = ["forward"]


def forward(name: str, *homes: str) -> tuple[list[str], Callable, Callable]:
    """``__all__``, ``__getattr__`` and ``__dir__`` for module ``name`` serving ``homes``.

    The public names are the union of the homes' ``__all__``; every other attribute
    is looked up in the homes in order.

    Examples
    --------
    >>> names, getattr_, _ = forward("old", "pgmpy_nml.numerics.regret")
    >>> names
    ['log_regret', 'log_regret_szpankowski', 'regret']
    >>> getattr_("N_MAX") == 2**53
    True
    """
    modules: list[ModuleType] = [importlib.import_module(home) for home in homes]
    public = sorted({n for module in modules for n in module.__all__})

    def __getattr__(attribute: str):
        for module in modules:
            if hasattr(module, attribute):
                return getattr(module, attribute)
        raise AttributeError(f"module {name!r} has no attribute {attribute!r}")

    def __dir__() -> list[str]:
        return sorted({n for module in modules for n in dir(module)})

    return public, __getattr__, __dir__
