"""The first call of a fresh process: what it loads from the kernel cache, and the garbage
collector paused over the heavy imports (``_lazy.gc_paused``).

Counts and events only, never timings (those are ``benchmarks/bench_startup.py``'s).
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys

import pytest

from pgmpy_nml import _lazy

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
