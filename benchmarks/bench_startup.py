"""Start-up time of the command-line tool and the package, in fresh processes.

Four cases, each in a new interpreter, repeated and interleaved (one of each per
round, so that load changes hit all of them alike):

- ``pgmpy-nml --help``;
- ``python -c "import pgmpy_nml"``;
- ``pgmpy-nml`` (exact fNML search on the bundled survey data) with an empty
  kernel cache: the first run after installing a new version ("cold");
- the same run again with the cache it left ("warm"): every later run.

Wall time and CPU time (user + system of the child) per case, and the load
average seen during the runs. ``--kernels`` adds, from one cold in-process run,
what each compiled kernel cost to compile (numba's compile events).

Run::

    python benchmarks/bench_startup.py            # 5 rounds, about 1.5 minutes
    python benchmarks/bench_startup.py --quick    # 2 rounds
    python benchmarks/bench_startup.py --kernels  # plus per-kernel compile times
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _command_line_tool() -> list[str]:
    script = Path(sys.executable).parent / "pgmpy-nml"
    if script.exists():
        return [str(script)]
    found = shutil.which("pgmpy-nml")
    return [found] if found else [sys.executable, "-m", "pgmpy_nml"]


def _measure(argv, cache_dir: str, cwd: str) -> tuple[float, float, float]:
    """(wall, cpu, load average) of one child process."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    env["NUMBA_CACHE_DIR"] = cache_dir
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, env=env, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, max(load, os.getloadavg()[0])


def run(rounds: int) -> dict[str, list[tuple[float, float, float]]]:
    tool = _command_line_tool()
    cases = {
        "pgmpy-nml --help": [*tool, "--help"],
        "import pgmpy_nml": [sys.executable, "-c", "import pgmpy_nml"],
        "pgmpy-nml, cold cache": tool,
        "pgmpy-nml, warm cache": tool,
    }
    results = {name: [] for name in cases}
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
        for r in range(rounds):
            cache = os.path.join(tmp, f"cache-{r}")  # empty: the cold run fills it
            for name, argv in cases.items():
                results[name].append(_measure(argv, cache, tmp))
            print(f"round {r + 1}/{rounds} done", file=sys.stderr)
    return results


def report(results) -> None:
    print("| case | wall, median (min-max) | CPU, median | load average |")
    print("|---|---|---|---|")
    for name, runs in results.items():
        walls = [w for w, _, _ in runs]
        cpus = [c for _, c, _ in runs]
        loads = [x for _, _, x in runs]
        print(
            f"| {name} | {statistics.median(walls):.2f} s ({min(walls):.2f}-{max(walls):.2f}) "
            f"| {statistics.median(cpus):.2f} s | {min(loads):.1f}-{max(loads):.1f} |"
        )


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


def kernels() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-kernels-") as cache:
        env = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
        env["NUMBA_CACHE_DIR"] = cache
        print("\nCompile time of each kernel the default `pgmpy-nml` run needs (cold):\n")
        print("| kernel (with the kernels it calls) | compile |")
        print("|---|---|")
        sys.stdout.flush()
        subprocess.run([sys.executable, "-c", KERNEL_PROFILE], env=env, check=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--quick", action="store_true", help="2 rounds")
    parser.add_argument("--kernels", action="store_true", help="per-kernel compile times")
    args = parser.parse_args(argv)
    rounds = 2 if args.quick else args.rounds
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, {rounds} rounds\n")
    report(run(rounds))
    if args.kernels:
        kernels()


if __name__ == "__main__":
    main()
