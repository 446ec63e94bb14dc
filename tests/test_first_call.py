"""The first call of a fresh process: what it loads from the kernel cache, the garbage
collector paused over the heavy imports (``_lazy.gc_paused``), and the one line said
before numba compiles (``_compiling``).

Counts and events only, never timings (those are ``benchmarks/bench_startup.py``'s).
The tests in fresh interpreters are ``long`` (``python -m pytest -m long``).
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import subprocess
import sys
import types

import numba
import pytest

from pgmpy_nml import _compile_times, _compiling, _lazy

# A child that counts every kernel signature numba looks up in the cache (loaded or,
# on a cold cache, compiled) while a first LocalSearch.fit and then a first
# ExactSearch.fit run on 16 (8) binary variables, and after them fits on the same
# data in other column types.
LOADS = """
import json
import numpy as np
import pandas as pd
from numba.core import caching

loads = []
_load = caching.Cache.load_overload
def counted(self, sig, target_context):
    loads.append(f"{self._py_func.__module__}.{self._py_func.__qualname__}")
    return _load(self, sig, target_context)
caching.Cache.load_overload = counted

import pgmpy_nml
from pgmpy_nml import ExactSearch, LocalSearch
at_import = list(loads)
rng = np.random.default_rng(0)
codes = np.empty((4000, 16), dtype=np.int8)
codes[:, 0] = rng.random(4000) < 0.3
for j in range(1, 16):
    codes[:, j] = codes[:, j - 1] ^ (rng.random(4000) < 0.2)
data = pd.DataFrame(codes, columns=[f"V{j}" for j in range(16)])
LocalSearch("fnml", show_progress=False).fit(data)
local = loads[len(at_import):]
ExactSearch("fnml", show_progress=False).fit(data.iloc[:, :8])
exact = loads[len(at_import) + len(local):]
seen = len(loads)
for other in (data.astype("int64"), data.astype("category"), data.astype(str)):
    LocalSearch("fnml", show_progress=False).fit(other)
    ExactSearch("fnml", show_progress=False).fit(other.iloc[:, :8])
print(json.dumps({"import": at_import, "local": local, "exact": exact,
                  "other_types": loads[seen:]}))
"""


def _child_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env.update(extra)
    if "NUMBA_CACHE_DIR" in os.environ and "NUMBA_CACHE_DIR" not in extra:
        env["NUMBA_CACHE_DIR"] = os.environ["NUMBA_CACHE_DIR"]  # the run's own cache
    return env


def _child(code: str, **env) -> subprocess.CompletedProcess:
    out = subprocess.run(
        [sys.executable, "-c", code], env=_child_env(**env), capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr[-3000:]
    return out


@pytest.mark.long  # a fresh interpreter that imports pgmpy
def test_a_first_search_loads_a_few_kernels_one_signature_each():
    """8 kernels for the local search, 4 for the exact one (one shared): none at import,
    none twice, and data of other column types reuse them (one dtype for the codes)."""
    result = json.loads(_child(LOADS).stdout.strip().splitlines()[-1])
    assert result["import"] == []
    local, exact = result["local"], result["exact"]
    assert 1 <= len(local) <= 10, local
    assert 1 <= len(exact) <= 6, exact
    for loads in (local, exact):
        assert len(set(loads)) == len(loads), f"a kernel with two signatures: {loads}"
        assert all(name.startswith("pgmpy_nml.") for name in loads)
    assert result["other_types"] == []


# A child that records the collections the garbage collector starts while the first
# public name (or the search package, as the command line imports it) loads.
COLLECTIONS = """
import gc, json, sys
import pgmpy_nml
started = []
gc.callbacks.append(lambda phase, info: started.append(info["generation"])
                    if phase == "start" else None)
{target}
print(json.dumps({{"collections": started, "enabled": gc.isenabled(),
                   "loaded": [m in sys.modules for m in ("pgmpy", "sklearn", "scipy", "numba")]}}))
"""


@pytest.mark.long  # a fresh interpreter that imports pgmpy
@pytest.mark.parametrize("target", ["pgmpy_nml.LocalSearch", "import pgmpy_nml.search"])
def test_the_heavy_imports_run_without_collections(target):
    """pgmpy, scikit-learn, SciPy and numba come in with the collector off (it walked the
    growing heap again and again, 0.3-0.4 s of CPU), and it is on again after."""
    out = _child(COLLECTIONS.format(target=target))
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert all(result["loaded"])
    # before: 578 collections, 4 of them full; now the one pass when it is back on
    assert len(result["collections"]) <= 1 and 2 not in result["collections"]
    assert result["enabled"]


def test_gc_paused_nests_and_restores_the_collector():
    assert gc.isenabled()
    with _lazy.gc_paused():
        assert not gc.isenabled()
        with _lazy.gc_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer block still runs
    assert gc.isenabled()
    with pytest.raises(RuntimeError), _lazy.gc_paused():
        raise RuntimeError("inside")
    assert gc.isenabled()
    gc.disable()
    try:
        with _lazy.gc_paused():
            pass
        assert not gc.isenabled()  # off before: left off
    finally:
        gc.enable()


REGRET = "from pgmpy_nml.numerics.regret import log_regret; print(log_regret(3, 100))"


@pytest.mark.long  # a fresh interpreter that imports pgmpy
def test_an_empty_cache_says_compiling_once_and_a_warm_one_says_nothing(tmp_path):
    cache = tmp_path / "cache"
    cold = _child(REGRET, NUMBA_CACHE_DIR=str(cache))
    notices = [line for line in cold.stderr.splitlines() if "compiling (once, about" in line]
    assert len(notices) == 1, cold.stderr
    assert notices[0].startswith("pgmpy-nml: compiling (once, about ")
    assert str(cache / "pgmpy-nml") in notices[0]
    warm = _child(REGRET, NUMBA_CACHE_DIR=str(cache))
    assert warm.stderr == ""
    assert warm.stdout == cold.stdout


@pytest.fixture
def fresh_kernel(tmp_path, monkeypatch):
    """A kernel no cache has seen (its own source file, an empty cache folder), and a
    process that has not announced a compile yet."""
    monkeypatch.setattr(numba.config, "CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setitem(_compiling._state, "announced", False)
    monkeypatch.setitem(_compiling._state, "show", True)
    src = tmp_path / "src"
    src.mkdir()
    name = f"_first_call_{tmp_path.name.replace('-', '_')}"
    code = "from pgmpy_nml._jit import njit\n\n@njit\ndef triple(x):\n    return 3 * x\n"
    (src / f"{name}.py").write_text(code)
    monkeypatch.syspath_prepend(str(src))
    yield importlib.import_module(name).triple
    sys.modules.pop(name, None)


def test_the_notice_names_the_search_and_comes_once(fresh_kernel, capsys):
    with _compiling.announced("local search"):
        assert fresh_kernel(2) == 6  # compiled: the notice
        assert fresh_kernel(2.0) == 6.0  # another signature: compiled, said already
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("pgmpy-nml: compiling (once, about ")
    assert "the numba kernels of the local search" in lines[0]


def test_a_quiet_search_compiles_silently_and_so_does_what_follows(fresh_kernel, capsys):
    class Search:
        show_progress = False

        @_compiling.announced("local search")
        def fit(self, x):
            return fresh_kernel(x)

    assert Search().fit(2) == 6
    assert fresh_kernel(2.0) == 6.0  # outside a search after a quiet one: quiet too
    assert capsys.readouterr().err == ""
    Search.show_progress = True
    assert Search().fit(True) == 3  # a search that shows progress: said
    assert "compiling (once" in capsys.readouterr().err


def test_a_kernel_outside_any_search_is_announced_as_the_calls(fresh_kernel, capsys):
    assert fresh_kernel(1) == 3
    err = capsys.readouterr().err
    assert "compiling (once, about 2 s): the numba kernels this call needs" in err


def test_the_estimate_adds_the_missing_kernels_of_the_runs_that_apply(monkeypatch):
    module = types.ModuleType("_fake_kernels")
    module.loaded = types.SimpleNamespace(overloads={"sig": object()})
    module.missing = types.SimpleNamespace(overloads={})
    module.running = types.SimpleNamespace(overloads={})
    monkeypatch.setitem(sys.modules, "_fake_kernels", module)

    def running():
        pass

    def unknown():
        pass

    running.__module__ = unknown.__module__ = "_fake_kernels"
    running.__qualname__, unknown.__qualname__ = "running", "unknown"
    tables = {
        "search": [
            {"_fake_kernels.running": 5.0, "_fake_kernels.loaded": 7.0, "_fake_kernels.missing": 3},
            {"_fake_kernels.missing": 4.0, "_not_imported.kernel": 100.0},  # does not apply
        ]
    }
    monkeypatch.setattr(_compile_times, "SECONDS", tables)
    assert _compiling.estimate_seconds("search", running) == 5.0 + 3.0
    assert _compiling.estimate_seconds(None, running) == 5.0 + 3.0  # the runs naming it
    unknown_seconds = _compiling.UNKNOWN_KERNEL_SECONDS
    assert _compiling.estimate_seconds("search", unknown) == unknown_seconds + 5.0 + 3.0
    assert _compiling.estimate_seconds(None, unknown) == unknown_seconds
    assert [_compiling._about(s) for s in (0.3, 7.4, 28.8, 200)] == [
        "about 1 s",
        "about 7 s",
        "about 30 s",
        "about 3 min",
    ]


def test_the_reference_table_names_kernels_that_exist():
    """Regenerate it (benchmarks/bench_startup.py --compile-times) when kernels change."""
    assert set(_compile_times.SECONDS) == {"local search", "exact search"}
    for runs in _compile_times.SECONDS.values():
        assert runs
        for run in runs:
            for name, seconds in run.items():
                module_name, _, attribute = name.rpartition(".")
                module = importlib.import_module(module_name)
                kernel = getattr(module, attribute, None)
                assert kernel is not None and hasattr(kernel, "py_func"), name
                assert seconds > 0
