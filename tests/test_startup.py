"""Start-up: a cheap ``import pgmpy_nml``, and compiled kernels cached outside the package.

The kernels' cache must never be written next to the installed sources (pip does
not know those files, and a leftover ``site-packages/pgmpy_nml/`` shadows a later
install); it lives in a per-user cache folder keyed by the sources' content. These
tests run a copy of the package in fresh interpreters, as an installed copy would.
"""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import pgmpy_nml
from pgmpy_nml import _jit

PACKAGE = Path(pgmpy_nml.__file__).resolve().parent
HEAVY = {"pgmpy", "numba", "numpy", "pandas", "scipy", "sklearn", "torch"}

# Run in a child: compile (or load) one kernel, report where the package came from
# and whether the kernel came from the disk cache.
KERNEL_RUN = """
import json, sys
import pgmpy_nml.numerics.regret as regret
value = regret.log_regret(3, 100)
kernel = regret._log_regret_scalar
print(json.dumps({
    "file": regret.__file__,
    "value": value,
    "hits": sum(kernel.stats.cache_hits.values()),
    "misses": sum(kernel.stats.cache_misses.values()),
}))
"""


def _copy_package(dest: Path) -> Path:
    """A copy of the package's sources (as pip would install them) under ``dest``."""
    shutil.copytree(PACKAGE, dest / "pgmpy_nml", ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def _tree(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def _child_env(site: Path, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "XDG_"))}
    env.update(PYTHONPATH=str(site), PYTHONDONTWRITEBYTECODE="1", **extra)
    return env


def _run(code: str, env: dict, cwd: Path) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=cwd, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.long
@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="XDG cache folder: Linux")
def test_kernels_cache_in_the_user_cache_not_next_to_the_sources(tmp_path):
    site = _copy_package(tmp_path / "site")
    before = _tree(site)
    cache_home = tmp_path / "cache-home"
    env = _child_env(site, XDG_CACHE_HOME=str(cache_home))

    first = _run(KERNEL_RUN, env, tmp_path)
    assert first["file"].startswith(str(site))  # the copy ran, not the checkout
    assert _tree(site) == before, "the kernels' cache was written into the package"
    index = sorted((cache_home / "pgmpy-nml").rglob("*.nbi"))
    assert any("pgmpy_nml.numerics.regret-" in str(p) for p in index)
    assert first["misses"] == 1 and first["hits"] == 0

    # a second process loads the kernel from the cache instead of compiling it
    second = _run(KERNEL_RUN, env, tmp_path)
    assert second["hits"] == 1 and second["misses"] == 0
    assert second["value"] == first["value"]

    # a reinstall (same content, other path, new timestamps) reuses the cache too
    other = _copy_package(tmp_path / "reinstalled")
    third = _run(KERNEL_RUN, _child_env(other, XDG_CACHE_HOME=str(cache_home)), tmp_path)
    assert third["file"].startswith(str(other))
    assert third["hits"] == 1 and third["misses"] == 0


@pytest.mark.long
def test_numba_cache_dir_is_respected(tmp_path):
    site = _copy_package(tmp_path / "site")
    before = _tree(site)
    env = _child_env(site, NUMBA_CACHE_DIR=str(tmp_path / "numba-cache"))
    _run(KERNEL_RUN, env, tmp_path)
    assert _tree(site) == before
    assert list((tmp_path / "numba-cache" / "pgmpy-nml").rglob("*.nbi"))


@pytest.mark.long
def test_unwritable_cache_folder_falls_back_without_touching_the_package(tmp_path):
    site = _copy_package(tmp_path / "site")
    before = _tree(site)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")  # no folder can be made below a file, even by root
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = _child_env(site, NUMBA_CACHE_DIR=str(blocker / "cache"), TMPDIR=str(temp))
    result = _run(KERNEL_RUN, env, tmp_path)
    assert result["value"] > 0
    assert _tree(site) == before
    assert list(temp.rglob("*.nbi"))  # the temporary folder took the cache

    env["TMPDIR"] = str(blocker)  # nothing writable: compile in memory, still no writes
    result = _run(KERNEL_RUN, env, tmp_path)
    assert result["value"] > 0 and _tree(site) == before


def _all_kernel_caches():
    """(name, numba cache object) of every compiled kernel and ufunc of the package."""
    from numba.core.dispatcher import Dispatcher
    from numba.np.ufunc.ufuncbuilder import UFuncDispatcher

    for info in pkgutil.walk_packages(pgmpy_nml.__path__, "pgmpy_nml."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            label = f"{info.name}.{name}"
            func = getattr(obj, "py_func", None)
            ufunc = getattr(obj, "_dispatcher", None)  # numba's DUFunc (vectorize)
            if isinstance(ufunc, UFuncDispatcher) and ufunc.py_func.__module__ == module.__name__:
                yield label + " (ufunc)", ufunc.cache
            if getattr(func, "__module__", None) != module.__name__:
                continue  # not a kernel, or imported from elsewhere
            if isinstance(obj, Dispatcher):
                yield label, obj._cache
            elif isinstance(obj, _jit._SerialOrParallel):
                yield label + " (serial)", obj.serial._cache
                yield label + " (parallel)", obj.parallel._cache


def test_every_kernel_uses_the_package_cache():
    """A kernel decorated with numba's own njit would cache next to the sources."""
    assert _jit.CACHE_MODE == "pgmpy-nml", "numba internals changed: _jit fell back"
    caches = list(_all_kernel_caches())
    assert len(caches) >= 30
    for name, cache in caches:
        assert type(cache).__name__ == "_PackageFunctionCache", name
        assert Path(cache.cache_path).is_relative_to(_jit.cache_root()), name


def test_editing_a_callee_moves_its_callers_cache(tmp_path, monkeypatch):
    """A kernel inlines the kernels it calls: their sources are part of its cache key."""
    import numba

    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "cache"))
    src = tmp_path / "src"
    src.mkdir()
    callee = "from pgmpy_nml._jit import njit\n\n@njit\ndef f(x):\n    return x + {}\n"
    caller = (
        "from pgmpy_nml._jit import njit\nfrom _startup_callee import f\n\n"
        "@njit\ndef g(x):\n    return 2 * f(x)\n"
    )
    (src / "_startup_caller.py").write_text(caller)
    monkeypatch.syspath_prepend(str(src))
    folders, values = [], []
    for step in (1, 2):
        (src / "_startup_callee.py").write_text(callee.format(step))
        for name in ("_startup_callee", "_startup_caller"):
            sys.modules.pop(name, None)
        module = importlib.import_module("_startup_caller")
        folders.append(module.g._cache.cache_path)
        values.append(module.g(1))
    for name in ("_startup_callee", "_startup_caller"):
        sys.modules.pop(name, None)
    assert values == [4, 6]
    assert folders[0] != folders[1]
    assert all(Path(f).is_relative_to(tmp_path / "cache" / "pgmpy-nml") for f in folders)


def test_serial_twins_give_the_parallel_kernels_results(monkeypatch):
    from pgmpy_nml._counting import subsets
    from pgmpy_nml.search._dp import _kernels

    rng = np.random.default_rng(3)
    ls = np.round(rng.normal(size=(3, 2**9)), 1)  # many ties
    kernel = _kernels.best_parent_sets_all
    serial, parallel = ls.copy(), ls.copy()
    assert np.array_equal(kernel.serial(serial), kernel.parallel(parallel))
    assert np.array_equal(serial, parallel)

    n_vars, n = 7, 300
    codes = np.ascontiguousarray(rng.integers(0, 3, size=(n_vars, n)), dtype=np.int32)
    arities = np.full(n_vars, 3, dtype=np.int64)
    c = np.arange(n + 1, dtype=np.float64)
    tables = np.vstack([c * np.log(np.maximum(c, 1)), np.sqrt(c)])
    kernel = subsets._subset_statistics_parallel
    results = []
    for serial in (True, False):
        monkeypatch.setattr(kernel, "_serial_if", lambda *args, serial=serial: serial)
        results.append(subsets.subset_statistics(codes, arities, tables, [1.0], n_vars, 2))
    assert kernel.serial.signatures and kernel.parallel.signatures  # both twins ran
    assert np.array_equal(results[0], results[1]) and np.count_nonzero(results[0]) > 100


def test_serial_if_picks_the_twin():
    from pgmpy_nml.search._dp import _kernels

    kernel = _kernels.best_parent_sets_all
    assert kernel._serial_if(np.zeros((2, 8)))
    assert not kernel._serial_if(np.zeros((2, 2**20)))
    with pytest.raises(ValueError, match="parallel=True"):
        _jit.njit(serial_if=lambda x: True)(lambda x: x)


def test_import_is_cheap_and_help_imports_nothing_heavy():
    code = (
        "import runpy, sys\n"
        "import pgmpy_nml\n"
        "after_import = sorted(m for m in sys.modules if m.split('.')[0] in HEAVY)\n"
        "sys.argv = ['pgmpy-nml', '--help']\n"
        "try:\n"
        "    runpy.run_module('pgmpy_nml', run_name='__main__')\n"
        "except SystemExit as stop:\n"
        "    assert stop.code in (0, None), stop.code\n"
        "after_help = sorted(m for m in sys.modules if m.split('.')[0] in HEAVY)\n"
        "print(repr((after_import, after_help)))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", f"HEAVY = {HEAVY!r}\n" + code],
        capture_output=True,
        text=True,
        check=True,
    )
    after_import, after_help = eval(out.stdout.strip().splitlines()[-1])
    assert after_import == [], f"import pgmpy_nml imports {after_import[:5]}"
    assert after_help == [], f"pgmpy-nml --help imports {after_help[:5]}"


@pytest.mark.long
def test_importing_the_api_prints_no_warnings():
    out = subprocess.run(
        [
            sys.executable,
            "-W",
            "always",
            "-c",
            "from pgmpy_nml import *\nimport pgmpy_nml.search, pgmpy_nml.datasets",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stderr == "" and out.stdout == ""


@pytest.mark.long
def test_every_module_imports_under_python_OO():
    # python -OO strips docstrings: code that extends a __doc__ must cope with None
    code = (
        "import importlib, pkgutil, pgmpy_nml\n"
        "for m in pkgutil.walk_packages(pgmpy_nml.__path__, 'pgmpy_nml.'):\n"
        "    if not m.name.endswith('__main__'):\n"
        "        importlib.import_module(m.name)\n"
        "print('imported')\n"
    )
    out = subprocess.run([sys.executable, "-OO", "-c", code], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "imported", out.stderr[-2000:]


def test_lazy_attributes_match_all_and_dir():
    names = set(pgmpy_nml.__all__)
    assert {"__version__", "study", "ExactSearch", "PgmpyNMLError"} <= names
    assert names <= set(dir(pgmpy_nml))
    for name in sorted(names):
        assert getattr(pgmpy_nml, name) is not None
    namespace = {}
    exec("from pgmpy_nml import *", namespace)
    assert names <= set(namespace)
    from pgmpy_nml import FNML
    from pgmpy_nml.scores import FNML as direct

    assert FNML is direct
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        pgmpy_nml.nope  # noqa: B018
