"""Start-up: what the first call of a fresh process costs, and where the time goes.

Six cases, each in a new interpreter, repeated in interleaved rounds (one of each per
round, and one per source tree, so that load changes hit all of them alike):

- ``python -c "import pgmpy_nml"``;
- ``pgmpy-nml --help`` (run as ``python -m pgmpy_nml --help``);
- the first ``LocalSearch("fnml").fit`` on 16 binary variables: nltcs's training split
  (16,181 rows, ``/work/shared/data/debd/nltcs.train.data.gz``; ``--debd`` names another
  folder), or 16,000 generated rows (a noisy chain) when the file is not there;
- the first ``ExactSearch("fnml").fit`` on the first 10 of those columns;
- ``pgmpy-nml`` (exact fNML search on the bundled survey data, fsNML parameters) with an
  empty kernel cache: the first run after installing a new version ("cold");
- the same with the kernels cached ("warm"): every later run.

Each case gets its own ``NUMBA_CACHE_DIR``: a folder filled by one unmeasured run of
every warm case before the rounds, and a new empty one for each cold run. Wall time and CPU
time (user + system of the child, the whole process: start-up, imports and exit) per
case, and the 1-minute load average before and after each run (the machine is
shared). For the two fits the child also reports "the call": the CPU from just
before the first use of pgmpy_nml (Python, numpy, pandas and the data already there)
to the end of ``fit``.

``--tree LABEL=PATH`` (repeatable) runs the children on the ``pgmpy_nml`` of a source
tree (``PYTHONPATH=PATH``), e.g. a ``git worktree`` of an older commit beside the
current one, interleaved round by round; the scores of the fits must agree between
trees (the table says so). ``--cases WORD ...`` keeps the cases whose name contains
one of the words (``--cases cold`` adds the two fits on an empty cache, 10-30 s each,
left out by default). ``--breakdown`` adds, for each first call on a warm cache, where
its CPU goes (one instrumented child per case and tree, run after a first child has
listed the modules the call imports):

- Python, numpy, pandas and the data (what every script has before it calls us);
- the imports the call triggers before its first kernel (pgmpy_nml, pgmpy,
  scikit-learn, SciPy, statsmodels, numba, ...), imported in the order the call
  imports them, by package (``python -X importtime`` self times, scaled to the
  phase's CPU);
- the call: the first kernel loaded from the cache (numba sets up its typing and
  target registries in it), the other kernels and signatures loaded (numba's
  ``Cache.load_overload``, timed one by one; compiles, if any, are counted), and the
  rest (the search, reading and writing);
- the same call again in the same process (the search alone);
- the interpreter's exit (the child's CPU after its last line).

``--kernels`` adds, from one cold in-process run, what each compiled kernel of the
default ``pgmpy-nml`` run costs to compile (numba's compile events).
``--compile-times PATH`` measures the reference runs of
``pgmpy_nml._compile_times`` (each fit in a fresh process on an empty cache, the
CPU of each kernel's compile) and writes that module, the table behind the
"compiling (once, about N s)" notice.

Run::

    python benchmarks/bench_startup.py                # 5 rounds, about 5 minutes
    python benchmarks/bench_startup.py --quick        # 2 rounds
    python benchmarks/bench_startup.py --breakdown    # plus where each first call's CPU goes
    python benchmarks/bench_startup.py --kernels      # plus per-kernel compile times
    python benchmarks/bench_startup.py --compile-times pgmpy_nml/_compile_times.py
    git worktree add /tmp/before <commit>
    python benchmarks/bench_startup.py --tree before=/tmp/before --tree after=. --breakdown
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

DEBD = "/work/shared/data/debd"

# The data of the two fits, defined in the child (numpy and pandas imported there).
DATA = r"""
def load_data(folder, columns):
    path = os.path.join(folder, "nltcs.train.data.gz")
    if os.path.exists(path):
        import gzip

        with gzip.open(path, "rt") as fh:
            codes = np.loadtxt(fh, delimiter=",", dtype=np.int8)
    else:  # 16,000 rows of a noisy chain of 16 binary variables
        rng = np.random.default_rng(0)
        codes = np.empty((16000, 16), dtype=np.int8)
        codes[:, 0] = rng.random(16000) < 0.3
        for j in range(1, 16):
            codes[:, j] = codes[:, j - 1] ^ (rng.random(16000) < 0.2)
    return pd.DataFrame(codes[:, :columns], columns=[f"V{j}" for j in range(columns)])
"""

FIT = (
    r"""
import json, os, sys, time
import numpy as np
import pandas as pd
"""
    + DATA
    + r"""
data = load_data(sys.argv[1], int(sys.argv[3]))
cpu, wall = time.process_time(), time.perf_counter()
import pgmpy_nml
search = getattr(pgmpy_nml, sys.argv[2])("fnml").fit(data)
print(json.dumps({
    "call_cpu": time.process_time() - cpu,
    "call_wall": time.perf_counter() - wall,
    "score": search.score_,
}))
"""
)

# ``python BREAKDOWN case debd probe|measure [modules.json]``: one first call, instrumented.
BREAKDOWN = (
    r"""
import contextlib, importlib, io, json, os, sys, time
marks = []
def mark(label):
    marks.append((label, time.process_time(), time.perf_counter()))
mark("start")
import numpy as np
import pandas as pd
"""
    + DATA
    + r"""
case, folder, stage = sys.argv[1], sys.argv[2], sys.argv[3]
if case == "cli":
    data = None
else:
    data = load_data(folder, 16 if case == "LocalSearch" else 10)
mark("python, numpy, pandas, data")

def call():
    if case == "cli":
        import pgmpy_nml.cli as cli
        with contextlib.redirect_stdout(io.StringIO()):
            assert cli.main([]) == 0
        return None
    import pgmpy_nml
    return getattr(pgmpy_nml, case)("fnml").fit(data).score_

if stage == "probe":  # the modules the call imports before its first kernel, in order
    before = set(sys.modules)
    from numba.core import caching
    first_load = []
    _load = caching.Cache.load_overload
    def _noted_load(self, sig, target_context):
        if not first_load:
            first_load.append([m for m in sys.modules if m not in before])
        return _load(self, sig, target_context)
    caching.Cache.load_overload = _noted_load
    call()
    print(json.dumps(first_load[0] if first_load else [m for m in sys.modules if m not in before]))
    sys.exit(0)

print("--- imports ---", file=sys.stderr, flush=True)
for name in json.load(open(sys.argv[4])):
    try:
        importlib.import_module(name)
    except Exception:  # a module made by another mechanism (numba's dynamic ones)
        pass
print("--- end ---", file=sys.stderr, flush=True)
mark("imports of the call")
from numba.core import caching
loads = []
_load = caching.Cache.load_overload
def _timed_load(self, sig, target_context):
    cpu = time.process_time()
    result = _load(self, sig, target_context)
    kernel = getattr(self._py_func, "__qualname__", "?")
    module = getattr(self._py_func, "__module__", "?")
    loads.append([f"{module}.{kernel}", str(sig), time.process_time() - cpu, result is not None])
    return result
caching.Cache.load_overload = _timed_load
n_import_loads = 0
first = call()
mark("the call")
n_call_loads = len(loads)
second = call()
mark("the same call again")
print(json.dumps({
    "marks": marks,
    "loads": loads,
    "loads_at_import": n_import_loads,
    "loads_in_call": n_call_loads - n_import_loads,
    "loads_in_second_call": len(loads) - n_call_loads,
    "scores": [first, second],
}))
"""
)


def _cli() -> list[str]:
    return [sys.executable, "-m", "pgmpy_nml"]


def _env(tree: str | None, cache_dir: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env["NUMBA_CACHE_DIR"] = cache_dir
    if tree is not None:
        env["PYTHONPATH"] = os.path.abspath(tree)
    return env


def _cases(debd: str) -> dict[str, tuple[list[str], str]]:
    """name -> (argv, cache kind: 'warm' or 'cold')."""
    py = sys.executable
    return {
        "import pgmpy_nml": ([py, "-c", "import pgmpy_nml"], "warm"),
        "pgmpy-nml --help": ([*_cli(), "--help"], "warm"),
        "first LocalSearch.fit (16 binary variables)": (
            [py, "-c", FIT, debd, "LocalSearch", "16"],
            "warm",
        ),
        "first ExactSearch.fit (10 binary variables)": (
            [py, "-c", FIT, debd, "ExactSearch", "10"],
            "warm",
        ),
        "pgmpy-nml, warm cache": (_cli(), "warm"),
        "pgmpy-nml, cold cache": (_cli(), "cold"),
        "first LocalSearch.fit, cold cache": ([py, "-c", FIT, debd, "LocalSearch", "16"], "cold"),
        "first ExactSearch.fit, cold cache": ([py, "-c", FIT, debd, "ExactSearch", "10"], "cold"),
    }


def _measure(argv, env, cwd: str) -> dict:
    """CPU (user + system of the child), wall time, load averages and the child's JSON."""
    load_before = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        argv, env=env, cwd=cwd, check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    out = {"wall": wall, "cpu": cpu, "load": [load_before, os.getloadavg()[0]]}
    lines = done.stdout.decode().strip().splitlines()
    if lines and lines[-1].startswith("{"):
        out.update(json.loads(lines[-1]))
    return out


def run(trees: dict[str | None, str | None], rounds: int, debd: str, tmp: str, only=None) -> dict:
    """{(tree label, case): [runs]} over ``rounds`` interleaved rounds (the cases whose
    name contains one of ``only``, or all)."""
    cases = {
        name: case
        for name, case in _cases(debd).items()
        if (any(word in name for word in only) if only else not name.endswith("fit, cold cache"))
    }
    results: dict = {(label, name): [] for label in trees for name in cases}
    for label, tree in trees.items():  # fill each tree's warm cache (not measured)
        warm = os.path.join(tmp, f"{label}-warm")
        for argv, kind in cases.values():
            if kind == "warm":
                subprocess.run(argv, env=_env(tree, warm), cwd=tmp, check=True, capture_output=True)
    for r in range(rounds):
        for label, tree in trees.items():
            for i, (name, (argv, kind)) in enumerate(cases.items()):
                folder = f"{label}-warm" if kind == "warm" else f"{label}-cold-{r}-{i}"
                cache = os.path.join(tmp, folder)
                results[(label, name)].append(_measure(argv, _env(tree, cache), tmp))
        print(f"round {r + 1}/{rounds} done", file=sys.stderr)
    return results


def _span(values) -> str:
    return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"


def report(results: dict) -> None:
    print("| case | tree | CPU, median (min-max) | wall, median (min-max) | the call: CPU | load |")
    print("|---|---|---|---|---|---|")
    for (label, name), runs in results.items():
        cpus = [r["cpu"] for r in runs]
        walls = [r["wall"] for r in runs]
        loads = [x for r in runs for x in r["load"]]
        call = [r["call_cpu"] for r in runs if "call_cpu" in r]
        call_text = f"{_span(call)} s" if call else ""
        print(
            f"| {name} | {label or 'installed'} | {_span(cpus)} s | {_span(walls)} s "
            f"| {call_text} | {min(loads):.1f}-{max(loads):.1f} |"
        )
    scores: dict = {}
    for (_, name), runs in results.items():
        for r in runs:
            if "score" in r:
                scores.setdefault(name, set()).add(round(r["score"], 9))
    for name, values in scores.items():
        same = "the same in every run and tree" if len(values) == 1 else "DIFFERENT"
        print(f"\n{name}: score {sorted(values)} ({same})")


def _import_shares(stderr: str) -> dict[str, int]:
    """Self time (microseconds) by top-level package of the imports between the markers."""
    shares: dict[str, int] = {}
    inside = False
    for line in stderr.splitlines():
        if line.startswith("--- imports"):
            inside = True
        elif line.startswith("--- end"):
            inside = False
        elif inside and line.startswith("import time:") and "self [us]" not in line:
            self_us, _, name = line.split(":", 1)[1].split("|")
            top = name.strip().split(".")[0]
            shares[top] = shares.get(top, 0) + int(self_us)
    return shares


def breakdown_case(case: str, tree: str | None, debd: str, tmp: str, label: str) -> dict:
    warm = os.path.join(tmp, f"{label}-warm")
    env = _env(tree, warm)
    probe = subprocess.run(
        [sys.executable, "-c", BREAKDOWN, case, debd, "probe"],
        env=env,
        cwd=tmp,
        check=True,
        capture_output=True,
        text=True,
    )
    modules = os.path.join(tmp, f"{label}-{case}-modules.json")
    Path(modules).write_text(probe.stdout.strip().splitlines()[-1])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", BREAKDOWN, case, debd, "measure", modules],
        env=env,
        cwd=tmp,
        check=True,
        capture_output=True,
        text=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = json.loads(done.stdout.strip().splitlines()[-1])
    out["process_cpu"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    out["imports"] = _import_shares(done.stderr)
    out["n_modules"] = len(json.loads(Path(modules).read_text()))
    return out


GROUPS = {  # top-level package -> what the table calls it
    "pgmpy_nml": "pgmpy_nml",
    "pgmpy": "pgmpy",
    "sklearn": "scikit-learn",
    "scipy": "SciPy",
    "statsmodels": "statsmodels (through pgmpy)",
    "patsy": "statsmodels (through pgmpy)",
    "formulaic": "statsmodels (through pgmpy)",
    "numba": "numba, llvmlite",
    "llvmlite": "numba, llvmlite",
    "networkx": "networkx",
}


def report_breakdown(case: str, label: str | None, b: dict) -> None:
    marks = {name: (cpu, wall) for name, cpu, wall in b["marks"]}
    order = [name for name, _, _ in b["marks"]]
    print(f"\n#### {case} ({label or 'installed'}): where the CPU of a first call goes\n")
    print("| part | CPU |")
    print("|---|---|")
    previous = 0.0
    for name in order:
        cpu = marks[name][0]
        if name == "start":
            print(f"| interpreter start-up | {cpu:.2f} s |")
        else:
            print(f"| {name} | {cpu - previous:.2f} s |")
            if name == "imports of the call":
                shares = b["imports"]
                total = sum(shares.values()) or 1
                grouped: dict[str, int] = {}
                others = sorted((k for k in shares if k not in GROUPS), key=lambda k: -shares[k])
                for top, us in shares.items():
                    key = GROUPS.get(top, "other")
                    grouped[key] = grouped.get(key, 0) + us
                phase = cpu - previous
                for key, us in sorted(grouped.items(), key=lambda kv: -kv[1]):
                    named = f" (most: {', '.join(others[:4])})" if key == "other" else ""
                    print(f"| - {key}{named} | {phase * us / total:.2f} s |")
            if name == "the call":
                n = b["loads_in_call"]
                loads = b["loads"][:n]
                hits = sum(1 for *_, hit in loads if hit)
                first = loads[0][2] if loads else 0.0
                rest = sum(c for _, _, c, _ in loads[1:])
                print(f"| - the first kernel load (numba sets itself up in it) | {first:.2f} s |")
                print(
                    f"| - loading the other {max(len(loads) - 1, 0)} kernel signatures "
                    f"({len({k for k, *_ in loads})} kernels in all, {hits} of {len(loads)} "
                    f"found in the cache) | {rest:.2f} s |"
                )
                print(f"| - the rest of the call | {cpu - previous - first - rest:.2f} s |")
        previous = cpu
    print(f"| the interpreter's exit | {b['process_cpu'] - previous:.2f} s |")
    print(f"| **the whole process** | **{b['process_cpu']:.2f} s** |")
    print(
        f"\n{b['n_modules']} modules imported by the call before its first kernel; "
        "kernels loaded by the call:\n"
    )
    print("| kernel | signature | CPU |")
    print("|---|---|---|")
    n = b["loads_in_call"]
    for kernel, sig, cpu, hit in b["loads"][:n]:
        sig = sig if len(sig) < 70 else sig[:67] + "..."
        print(f"| {kernel} | `{sig}` | {cpu * 1000:.1f} ms{'' if hit else ' (compiled)'} |")


KERNEL_PROFILE = r"""
import contextlib, io, sys, time
from numba.core import event

with event.install_recorder("numba:compile") as recorder:
    import pgmpy_nml.cli as cli
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()):
        cli.main([])
    total = time.perf_counter() - start
stack, rows = [], []
for ts, ev in recorder.buffer:
    if ev.is_start:
        stack.append(ts)
    else:
        began = stack.pop()
        if not stack:  # top level: includes the kernels it calls
            name = getattr(ev.data["dispatcher"], "__qualname__", "?")
            rows.append((ts - began, name))
for seconds, name in sorted(rows, reverse=True):
    print(f"| {name} | {seconds:.2f} s |")
print(f"| all compiling | {sum(s for s, _ in rows):.2f} s |")
print(f"| whole run (after imports) | {total:.2f} s |")
"""


def kernels(tree: str | None) -> None:
    with tempfile.TemporaryDirectory(prefix="bench-kernels-") as cache:
        print("\nCompile time of each kernel the default `pgmpy-nml` run needs (cold):\n")
        print("| kernel (with the kernels it calls) | compile |")
        print("|---|---|")
        sys.stdout.flush()
        subprocess.run([sys.executable, "-c", KERNEL_PROFILE], env=_env(tree, cache), check=True)


# ``python COMPILE_TIMES debd class score columns method``: one fit on an empty cache;
# prints the CPU seconds each top-level kernel took to compile (with the ones it calls).
COMPILE_TIMES = (
    r"""
import json, os, sys, time
import numpy as np
import pandas as pd
"""
    + DATA
    + r"""
from numba.core import event

class Timer(event.Listener):
    def __init__(self):
        self.depth, self.start, self.rows = 0, 0.0, {}

    def on_start(self, ev):
        if self.depth == 0:
            self.start = time.process_time()
        self.depth += 1

    def on_end(self, ev):
        self.depth -= 1
        if self.depth == 0:
            f = ev.data["dispatcher"].py_func
            name = f"{f.__module__}.{f.__qualname__}"
            self.rows[name] = self.rows.get(name, 0.0) + time.process_time() - self.start

timer = Timer()
event.register("numba:compile", timer)
folder, cls, score, columns, method = sys.argv[1:6]
data = load_data(folder, int(columns))
import pgmpy_nml
options = {} if method == "-" else {"method": method}
getattr(pgmpy_nml, cls)(score, show_progress=False, **options).fit(data)
print(json.dumps(timer.rows))
"""
)

#: The reference runs of each entry of ``pgmpy_nml._compile_times.SECONDS``.
REFERENCE_RUNS = {
    "local search": [("LocalSearch", "fnml", 16, "-"), ("LocalSearch", "bdeu", 16, "-")],
    "exact search": [
        ("ExactSearch", "fnml", 10, "-"),
        ("ExactSearch", "bdeu", 10, "-"),
        ("ExactSearch", "fnml", 10, "astar"),
        ("ExactSearch", "fnml", 10, "solver"),
    ],
}


def _call_text(cls: str, score: str, method: str) -> str:
    return f"{cls}({score!r}{'' if method == '-' else f', method={method!r}'})"


def compile_times(path: Path, tree: str | None, debd: str) -> None:
    """Measure each reference run on an empty cache; write the table module to ``path``."""
    tables: dict[str, list[dict[str, float]]] = {}
    loads = []
    for label, runs in REFERENCE_RUNS.items():
        for cls, score, columns, method in runs:
            with tempfile.TemporaryDirectory(prefix="bench-compile-") as cache:
                loads.append(os.getloadavg()[0])
                done = subprocess.run(
                    [sys.executable, "-c", COMPILE_TIMES, debd, cls, score, str(columns), method],
                    env=_env(tree, cache),
                    cwd=cache,
                    check=True,
                    capture_output=True,
                    text=True,
                )
            rows = json.loads(done.stdout.strip().splitlines()[-1])
            print(
                f"{label}: {cls}({score!r}, method={method}), {columns} columns: "
                f"{sum(rows.values()):.1f} s in {len(rows)} kernels",
                file=sys.stderr,
            )
            table: dict[str, float] = {}
            for kernel, seconds in rows.items():  # a serial twin under its kernel's name
                kernel = kernel.removesuffix("_serial")
                table[kernel] = table.get(kernel, 0.0) + seconds
            tables.setdefault(label, []).append(table)
    cpu = "unknown processor"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    runs = "; ".join(
        f"{label!r}: " + ", ".join(_call_text(c, sc, m) for c, sc, _, m in items)
        for label, items in REFERENCE_RUNS.items()
    )
    lines = [
        '"""Reference compile times of the package\'s kernels (generated: do not edit by hand).',
        "",
        "CPU seconds numba took to compile each kernel (with the kernels it calls) on an",
        "empty cache, in a fresh process per run, for the estimate of",
        ":mod:`pgmpy_nml._compiling`. Written by::",
        "",
        "    python benchmarks/bench_startup.py --compile-times pgmpy_nml/_compile_times.py",
        "",
        *textwrap.wrap(
            f"on {time.strftime('%Y-%m-%d')}, {os.cpu_count()} cores ({cpu}), 1-minute load "
            f"average {min(loads):.1f}-{max(loads):.1f}, on 16 (local search) or 10 (exact "
            f"search) binary variables of nltcs. Runs: {runs}.",
            width=88,
        ),
        '"""',
        "",
        "#: entry -> its reference runs -> kernel (a serial twin under its kernel's name) -> s",
        "SECONDS: dict[str, list[dict[str, float]]] = {",
    ]
    for label, table_runs in tables.items():
        lines.append(f"    {json.dumps(label)}: [")
        for (cls, score, _, method), table in zip(REFERENCE_RUNS[label], table_runs, strict=True):
            lines.append(f"        {{  # {_call_text(cls, score, method)}")
            for kernel, seconds in sorted(table.items(), key=lambda kv: -kv[1]):
                lines.append(f"            {json.dumps(kernel)}: {seconds:.2f},")
            lines.append("        },")
        lines.append("    ],")
    lines.append("}")
    path.write_text("\n".join(lines) + "\n")
    print(f"wrote {path}", file=sys.stderr)


def _trees(specs: list[str]) -> dict[str | None, str | None]:
    if not specs:
        return {None: None}
    trees: dict[str | None, str | None] = {}
    for spec in specs:
        label, sep, path = spec.partition("=")
        if not sep or not os.path.isdir(os.path.join(path, "pgmpy_nml")):
            raise SystemExit(f"--tree {spec!r}: give LABEL=PATH, PATH holding pgmpy_nml/")
        trees[label] = path
    return trees


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="0: the breakdown alone")
    parser.add_argument("--quick", action="store_true", help="2 rounds")
    parser.add_argument("--tree", action="append", default=[], metavar="LABEL=PATH")
    parser.add_argument("--debd", default=DEBD, help="folder of nltcs.train.data.gz")
    parser.add_argument("--breakdown", action="store_true", help="where a first call's CPU goes")
    parser.add_argument("--kernels", action="store_true", help="per-kernel compile times")
    parser.add_argument("--json", type=Path, default=None, help="write the runs here")
    parser.add_argument(
        "--cases", nargs="+", default=None, help="only the cases whose name contains one of these"
    )
    parser.add_argument(
        "--compile-times",
        type=Path,
        default=None,
        metavar="PATH",
        help="measure the reference compile times and write them as pgmpy_nml/_compile_times.py",
    )
    args = parser.parse_args(argv)
    rounds = 2 if args.quick else args.rounds
    trees = _trees(args.tree)
    if args.compile_times is not None:
        compile_times(args.compile_times, next(iter(trees.values())), args.debd)
        return
    nltcs = os.path.exists(os.path.join(args.debd, "nltcs.train.data.gz"))
    print(
        f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, {rounds} rounds, "
        f"{time.strftime('%Y-%m-%d %H:%M')}, data: {'nltcs' if nltcs else 'generated'}\n"
    )
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
        results = run(trees, rounds, args.debd, tmp, args.cases)
        if rounds:
            report(results)
        details = {}
        if args.breakdown:
            for label, tree in trees.items():
                for case in ("LocalSearch", "ExactSearch", "cli"):
                    b = breakdown_case(case, tree, args.debd, tmp, str(label))
                    details[f"{label}:{case}"] = b
                    report_breakdown(case, label, b)
    if args.json is not None:
        runs = {f"{label}:{name}": r for (label, name), r in results.items()}
        args.json.write_text(json.dumps({"runs": runs, "breakdown": details}, indent=1))
    if args.kernels:
        for tree in trees.values():
            kernels(tree)


if __name__ == "__main__":
    main()
