"""Exact learning on a broad suite with a held-out half (issue 35).

Run::

    python benchmarks/bench_suite.py --list                 # the instances and their halves
    python benchmarks/bench_suite.py --quick                # 9 tuning instances, 60 s each
    python benchmarks/bench_suite.py --half tuning          # the tuning half, 600 s each
    python benchmarks/bench_suite.py --half tuning --resume --shuffle 1  # in a random order
    python benchmarks/bench_suite.py --half evaluation      # the half the policy is judged on
    python benchmarks/bench_suite.py --half tuning --report # the latest record of each so far
    python benchmarks/bench_suite.py --only alarm-n1000-fnml-p3 --time-limit 600
    python benchmarks/bench_suite.py --only plants-fnml-p2 --method "order|solver"
    python benchmarks/bench_suite.py --only andes-n1000-bdeu10-p3 --random-state 1 \
        --results benchmarks/results/seed_spread.jsonl        # another seed, kept apart

The suite (:func:`suite`, regenerated offline, 182 instances):

- **sampled networks**: every pgmpy example network of 20-60 variables (child,
  insurance, water, mildew, alarm, barley, hailfinder) at N = 100, 500, 1000 and 5000
  rows (``pgmpy_nml.datasets.sample_network``, seed 0), scores fNML, qNML, BDeu(1),
  BDeu(10) and BIC, at most 3 parents (140); hepar2 (70 variables), pathfinder (109)
  and andes (223) at N = 1000 with the five scores, 3 parents (15);
- **real data**: the binary density-estimation sets of ``../shared/data/debd`` (train
  split; skipped when the folder is absent) with fNML at 2 parents, and nltcs,
  plants and baudio also at 3 (10, plus BDeu(1) at 2 parents on the five smallest: 5);
  scikit-learn's ``digits`` (1,797 images, 64 pixels; constant pixels dropped) as
  17-level and as binarized columns, fNML and BDeu(1), 2 and 3 parents (8); and
  scikit-learn's ``wine`` and ``breast_cancer`` (real measurements, discretized into
  quantile thirds by the package's ``Discretizer``), fNML and BDeu(1) at 3 parents (4).

A fixed rule splits it in two halves: the first byte of the SHA-256 of the
instance's name, even for the **tuning** half, odd for the **evaluation** half.
Engines, thresholds and settings are chosen on the tuning half only.

Each instance runs in a fresh subprocess (after a small warm-up fit that loads the
compiled kernels) with the package's public learner, ``ExactSearch(score,
max_parents=k, time_limit=T, n_jobs=2).fit(data)`` (method ``"auto"``; scoring
included in ``T``), and prints the candidates, the engine, wall and CPU time (the
process and its children: the portfolio's second engine), proven or the gap, and
the score at 60 s (the final score when the fit ended within 60 s, else a second
fit with ``time_limit=60``) and the best known score: the best of its network, the
60 s fit's and, where the fit ended unproven, the one ``OrderSearch`` finds on the same
candidates in 60 s (the memetic order search, MINOBS style); the table reads the
score at 60 s against the best of these over every record of the instance
(:func:`best_known`). The features
a policy may read before the search (variables, rows, score, candidates, the largest
candidate list, the time to score)
are kept in the JSON lines of ``benchmarks/results/suite.jsonl``, one per instance
and run (a run appends; ``--resume`` skips instances already there for the same
time limit). The summary per half: the fraction proven within the time limit, the
geometric mean wall time (unproven instances at the limit), the worst gap, and the
load average before and after.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import subprocess
import sys
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_density import DATA as DEBD  # noqa: E402  (the density sets' folder)
from bench_density import load_split  # noqa: E402
from bench_frontier import cpu_seconds  # noqa: E402  (this process and its children)

RESULTS = HERE / "results" / "suite.jsonl"
NETWORKS = ["child", "insurance", "water", "mildew", "alarm", "barley", "hailfinder"]
LARGE_NETWORKS = ["hepar2", "pathfinder", "andes"]
ROWS = [100, 500, 1000, 5000]
SCORES = ["fnml", "qnml", "bdeu1", "bdeu10", "bic"]
DEBD_SETS = ["nltcs", "plants", "baudio", "bnetflix", "accidents", "pumsb_star", "nips"]
#: The quick development set, from the tuning half only: one of each kind, 60 s each.
QUICK = [
    "child-n1000-bdeu1-p3",
    "insurance-n500-fnml-p3",
    "water-n100-bdeu1-p3",
    "alarm-n500-bic-p3",
    "mildew-n5000-bic-p3",
    "hailfinder-n500-bdeu10-p3",
    "nltcs-fnml-p3",
    "breast_cancer-bdeu1-p3",
    "digits-binary-bdeu1-p2",
]
SCORE_AT = 60.0


@dataclass(frozen=True)
class Instance:
    name: str
    source: str  # "network", "debd", "digits", "sklearn"
    data: str  # network or data set name (digits: "digits-17" or "digits-binary")
    rows: int | None  # sampled rows (networks)
    score: str
    max_parents: int

    @property
    def half(self) -> str:
        first = hashlib.sha256(self.name.encode()).digest()[0]
        return "tuning" if first % 2 == 0 else "evaluation"


def suite(debd: Path = DEBD) -> list[Instance]:
    """Every instance of the suite, in a fixed order (the density sets only when present)."""
    out = []
    for net in NETWORKS:
        for n in ROWS:
            for s in SCORES:
                out.append(Instance(f"{net}-n{n}-{s}-p3", "network", net, n, s, 3))
    for net in LARGE_NETWORKS:
        for s in SCORES:
            out.append(Instance(f"{net}-n1000-{s}-p3", "network", net, 1000, s, 3))
    if (debd / "nltcs.train.data.gz").exists():
        for name in DEBD_SETS:
            out.append(Instance(f"{name}-fnml-p2", "debd", name, None, "fnml", 2))
        for name in DEBD_SETS[:3]:
            out.append(Instance(f"{name}-fnml-p3", "debd", name, None, "fnml", 3))
        for name in DEBD_SETS[:5]:
            out.append(Instance(f"{name}-bdeu1-p2", "debd", name, None, "bdeu1", 2))
    for kind in ("17", "binary"):
        for s in ("fnml", "bdeu1"):
            for k in (2, 3):
                out.append(Instance(f"digits-{kind}-{s}-p{k}", "digits", kind, None, s, k))
    for name in ("wine", "breast_cancer"):
        for s in ("fnml", "bdeu1"):
            out.append(Instance(f"{name}-{s}-p3", "sklearn", name, None, s, 3))
    return out


# -- the data and the score of one instance --------------------------------------------
def load_data(inst: Instance):
    import numpy as np
    import pandas as pd

    if inst.source == "network":
        from pgmpy_nml.datasets import sample_network

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            _, data = sample_network(inst.data, inst.rows, random_state=0)
        return data[sorted(data.columns)]
    if inst.source == "debd":
        rows = load_split(DEBD, inst.data, "train")
        return pd.DataFrame(rows, columns=[f"V{i}" for i in range(rows.shape[1])])
    if inst.source == "digits":
        from sklearn.datasets import load_digits

        pixels = load_digits().data.astype(np.int64)
        if inst.data == "binary":
            pixels = (pixels >= 8).astype(np.int64)
        frame = pd.DataFrame(pixels, columns=[f"p{i}" for i in range(pixels.shape[1])])
        return frame.loc[:, frame.nunique() > 1]  # a constant pixel carries nothing
    from sklearn import datasets

    from pgmpy_nml import Discretizer

    bunch = getattr(datasets, f"load_{inst.data}")(as_frame=True)
    numbers = bunch.data
    numbers.columns = [str(c).replace(" ", "_") for c in numbers.columns]
    return Discretizer("quantile", n_bins=3).fit_transform(numbers)


def make_score(name: str, data):
    from pgmpy_nml import BDeu
    from pgmpy_nml.scores.registry import make_score as registry_score

    if name.startswith("bdeu"):
        return BDeu(data, equivalent_sample_size=float(name[4:]))
    return registry_score(name, data)


# -- one instance, in a child process --------------------------------------------------
def warm_up() -> float:
    from pgmpy_nml import ExactSearch
    from pgmpy_nml.datasets import sample_network

    start = time.perf_counter()
    _, data = sample_network("asia", 200, random_state=0)
    ExactSearch("fnml", max_parents=2, method="solver", show_progress=False).fit(data)
    return time.perf_counter() - start


def run_one(inst: Instance, time_limit: float, method: str = "auto", random_state: int = 0) -> dict:
    from pgmpy_nml import ExactSearch, OrderSearch

    out: dict = {"instance": inst.name, "half": inst.half, "time_limit": time_limit}
    out["method_asked"] = method
    out["random_state"] = random_state
    out["warm_up_s"] = warm_up()
    data = load_data(inst)
    out.update(variables=data.shape[1], rows=data.shape[0], score_name=inst.score)
    out["max_parents"] = inst.max_parents
    out["max_states"] = int(data.nunique().max())
    score = make_score(inst.score, data)

    def exact(limit: float):
        return ExactSearch(
            score,
            max_parents=inst.max_parents,
            method=method,
            time_limit=limit,
            random_state=random_state,
            n_jobs=2,
            show_progress=False,
        )

    search = exact(time_limit)
    wall, cpu = time.perf_counter(), cpu_seconds()
    search.fit(data)
    out["wall_s"] = time.perf_counter() - wall
    out["cpu_s"] = cpu_seconds() - cpu
    cands = search.candidates_  # None for the subset DP (every parent set)
    counts = None if cands is None else cands.n_candidates()
    out.update(
        method=search.method_,
        status=search.status_,
        proven=bool(search.optimal_),
        gap=float(search.gap_),
        score=float(search.score_),
        bound=float(search.bound_),
        candidates=None if counts is None else int(counts.sum()),
        candidates_max=None if counts is None else int(counts.max()),
        timings={k: float(v) for k, v in search.timings_.items()},
        # two engines side by side: which found the network and which proved the bound
        engines=search.engines_,
        # False: the time limit stopped scoring (the bound counts what it left)
        scoring_complete=search.pruning_ is None or search.pruning_.complete,
    )
    if out["wall_s"] <= SCORE_AT or time_limit <= SCORE_AT:
        out["score_at_60"] = out["score"]
    else:  # the network a user stopping at 60 s would get
        early = exact(SCORE_AT).fit(data)
        out["score_at_60"] = float(early.score_)
    # the best known network: the exact engine's, the 60 s fit's or the memetic order
    # search's on the same candidates (60 s, MINOBS style), whichever is best
    out["best_known"] = max(out["score"], out["score_at_60"])
    if not out["proven"] and search.candidates_ is not None:
        order = OrderSearch(candidates=search.candidates_, time_limit=SCORE_AT, show_progress=False)
        out["order_score"] = float(order.fit().score_)
        out["best_known"] = max(out["best_known"], out["order_score"])
    return out


def run_child(
    inst: Instance, time_limit: float, method: str = "auto", random_state: int = 0
) -> dict:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", inst.name]
    cmd += ["--time-limit", str(time_limit), "--method", method]
    cmd += ["--random-state", str(random_state)]
    env = dict(os.environ, PYTHONHASHSEED=os.environ.get("PYTHONHASHSEED", "0"))
    before = os.getloadavg()
    started = time.perf_counter()
    try:  # scoring is inside the limit; the 60 s re-run and start-up on top
        proc = subprocess.run(
            cmd, capture_output=True, text=True, env=env, timeout=2 * time_limit + 300
        )
        lines = [x for x in proc.stdout.splitlines() if x.startswith("{")]
        if proc.returncode or not lines:
            result = {"instance": inst.name, "error": (proc.stderr or proc.stdout)[-600:]}
        else:
            result = json.loads(lines[-1])
    except subprocess.TimeoutExpired:
        result = {"instance": inst.name, "error": "the child ran past twice the limit"}
    result.update(
        half=inst.half,
        time_limit=time_limit,
        method_asked=method,
        random_state=random_state,
        load_before=before,
        load_after=os.getloadavg(),
        elapsed_s=time.perf_counter() - started,
        date=time.strftime("%Y-%m-%d %H:%M"),
        commit=code_commit(),
    )
    return result


def code_commit() -> str | None:
    """The git commit of the ``pgmpy_nml`` the children import (None outside a clone)."""
    import pgmpy_nml

    where = Path(pgmpy_nml.__file__).resolve().parent
    git = ["git", "-C", str(where)]
    proc = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run([*git, "status", "--porcelain", "."], capture_output=True, text=True)
    if proc.returncode:
        return None
    return proc.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")


# -- the table and the summary ---------------------------------------------------------
HEADER = (
    "| instance | half | vars | rows | candidates | engine | wall s | CPU s | proven / gap "
    "| score at 60 s (below the best known) | load before/after |\n" + "|---" * 11 + "|"
)


def row(r: dict) -> str:
    if "error" in r:
        return f"| {r['instance']} | {r['half']} | error: {r['error'][-120:]!r} |"
    proof = "proven" if r["proven"] else f"{100 * r['gap']:.3f}%"
    cands = "all" if r["candidates"] is None else f"{r['candidates']:,}"
    best = r.get("best_known", r["score"])
    at60 = (best - r["score_at_60"]) / max(abs(best), 1e-12)
    loads = f"{r['load_before'][0]:.1f}/{r['load_after'][0]:.1f}"
    return (
        f"| {r['instance']} | {r['half']} | {r['variables']} | {r['rows']} | "
        f"{cands} | {r['method']} | {r['wall_s']:.1f} | {r['cpu_s']:.1f} | "
        f"{proof} | {r['score_at_60']:.2f} ({100 * at60:.3f}%) | {loads} |"
    )


def summary(results: list[dict]) -> list[str]:
    lines = []
    for half in ("tuning", "evaluation"):
        done = [r for r in results if r["half"] == half and "error" not in r]
        errors = sum(1 for r in results if r["half"] == half and "error" in r)
        if not done:
            continue
        limit = done[0]["time_limit"]
        proven = [r for r in done if r["proven"]]
        times = [min(r["wall_s"], limit) if r["proven"] else limit for r in done]
        geo = math.exp(sum(math.log(max(t, 1e-3)) for t in times) / len(times))
        worst = max((r["gap"] for r in done), default=0.0)
        late = [
            (r.get("best_known", r["score"]) - r["score_at_60"]) / max(abs(r["score"]), 1e-12)
            for r in done
            if not r["proven"]
        ]
        lines.append(
            f"{half}: {len(proven)}/{len(done)} proven within {limit:g} s "
            f"({100 * len(proven) / len(done):.1f}%), geometric mean wall {geo:.1f} s, "
            f"worst gap {100 * worst:.3f}%"
            + (f", worst score at 60 s {100 * max(late):.3f}% below the best known" if late else "")
            + (f"; {errors} errors" if errors else "")
        )
    return lines


def records(results: Path) -> list[dict]:
    """Every record without an error in ``results``, in the order they were run."""
    if not results.exists():
        return []
    found = (json.loads(line) for line in results.read_text().splitlines())
    return [r for r in found if "error" not in r]


def previous(
    results: Path, time_limit: float, method: str, random_state: int = 0
) -> dict[str, dict]:
    """The latest record without an error of each instance in ``results`` run with
    ``time_limit``, ``method`` and ``random_state`` (records from before ``--method`` or
    ``--random-state`` existed are ``"auto"`` and 0)."""
    found: dict[str, dict] = {}
    for r in records(results):
        if (
            r.get("time_limit") == time_limit
            and r.get("method_asked", "auto") == method
            and r.get("random_state", 0) == random_state
        ):
            found[r["instance"]] = r
    return found


def best_known(results: Path) -> dict[str, float]:
    """The best network score of each instance over every record in ``results`` (any
    time limit or method: each is the score of a network that exists, the 60 s fit's
    among them)."""
    best: dict[str, float] = {}
    for r in records(results):
        score = max(r.get("best_known", r["score"]), r.get("score_at_60", -math.inf))
        best[r["instance"]] = max(score, best.get(r["instance"], -math.inf))
    return best


def against_best(r: dict, best: dict[str, float]) -> dict:
    """``r`` with its ``best_known`` the best of its own and ``best``'s (the score at 60 s
    is reported below it)."""
    if "error" in r or r["instance"] not in best:
        return r
    return {**r, "best_known": max(r.get("best_known", r["score"]), best[r["instance"]])}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="9 tuning instances, 60 s each")
    parser.add_argument("--half", choices=("tuning", "evaluation", "both"), default="both")
    parser.add_argument("--only", nargs="+", help="instances by name")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds (default 600)")
    parser.add_argument(
        "--method", default="auto", help="ExactSearch's method (default auto: the policy)"
    )
    parser.add_argument(
        "--random-state",
        type=int,
        default=0,
        help="ExactSearch's random_state (default 0): SCIP's seed and the first network's",
    )
    parser.add_argument(
        "--shuffle", type=int, metavar="SEED", help="run the instances in a random order"
    )
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--resume", action="store_true", help="skip instances already run")
    parser.add_argument("--list", action="store_true", help="print the instances and exit")
    parser.add_argument(
        "--report", action="store_true", help="the table and summary of the results so far"
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    by_name = {inst.name: inst for inst in suite()}
    if args.child:
        limit = args.time_limit or 600.0
        result = run_one(by_name[args.child], limit, args.method, args.random_state)
        print(json.dumps(result), flush=True)
        return
    todo = list(by_name.values())
    if args.quick:
        todo = [by_name[n] for n in QUICK if n in by_name]
    elif args.only:
        unknown = [n for n in args.only if n not in by_name]
        if unknown:
            parser.error(f"unknown instances {unknown}: see --list")
        todo = [by_name[n] for n in args.only]
    elif args.half != "both":
        todo = [inst for inst in todo if inst.half == args.half]
    if args.shuffle is not None:  # a run cut short is then a random sample, not the easy ones
        import random

        random.Random(args.shuffle).shuffle(todo)
    if args.list:
        halves = {h: sum(1 for i in todo if i.half == h) for h in ("tuning", "evaluation")}
        for inst in todo:
            print(f"{inst.name}  {inst.half}")
        print(
            f"{len(todo)} instances: {halves['tuning']} tuning, {halves['evaluation']} evaluation"
        )
        return
    time_limit = args.time_limit or (SCORE_AT if args.quick else 600.0)
    before = previous(args.results, time_limit, args.method, args.random_state)
    best = best_known(args.results)
    if args.report:  # the latest record of each instance asked for, and the summary
        found = [against_best(before[i.name], best) for i in todo if i.name in before]
        print(f"{len(found)} of {len(todo)} instances run at {time_limit:g} s, {args.method}")
        print(HEADER)
        for r in found:
            print(row(r))
        print()
        for line in summary(found):
            print(line)
        return
    done_before = set(before) if args.resume else set()
    print(f"{len(todo)} instances, {time_limit:g} s each; {time.strftime('%Y-%m-%d %H:%M')}")
    print(HEADER)
    results = []
    for inst in todo:
        if inst.name in done_before:
            continue
        r = run_child(inst, time_limit, args.method, args.random_state)
        args.results.parent.mkdir(exist_ok=True)
        with args.results.open("a") as fh:
            fh.write(json.dumps(r) + "\n")
        results.append(against_best(r, best))
        print(row(results[-1]), flush=True)
    print()
    for line in summary(results):
        print(line)


if __name__ == "__main__":
    main()
