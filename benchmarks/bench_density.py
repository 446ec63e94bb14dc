"""Density estimation on the binary benchmark: test log-likelihood per row, ours beside peers.

Run (from the clone; the data live in ``../shared/data/debd``, see its README)::

    python benchmarks/bench_density.py                      # all seven sets, ours and pgmpy's
    python3 -m venv /tmp/debd-agrum && /tmp/debd-agrum/bin/pip install pyagrum
    python benchmarks/bench_density.py --pyagrum /tmp/debd-agrum/bin/python   # with pyAgrum
    python benchmarks/bench_density.py --sets nltcs plants --rounds 3 --learners hill-fnml empty
    python benchmarks/bench_density.py --grid --sets plants   # scores x parameters (item 3)
    python benchmarks/bench_density.py --anytime --sets pumsb_star   # score per CPU second
    python benchmarks/bench_density.py --limits     # parent limits on training sets cut short

The data: seven binary density-estimation sets with fixed train / valid / test splits
(``nltcs`` 16 variables ... ``nips`` 500 variables and 400 training rows). Without the
folder (``--data``) the script says so and exits 0.

Each learner learns a DAG on the training rows, in a fresh process (``--child``, after a
warm-up fit on 200 rows of the same set that loads the compiled kernels; pyAgrum runs in
its own interpreter through ``_pyagrum_density.py``, pgmpy in this one), which reports
the CPU seconds (``time.process_time``: the process's, all threads) and wall seconds of
the structure search alone. The parameters are then fitted on the training rows by every
estimator of ``ESTIMATORS`` (fsNML, Dirichlet with pseudo-count 0.1 ... 5 per cell, the
binary states declared, so a value absent from training is no error), and one evaluator,
:func:`log_likelihood`, gives the average log-likelihood per row (natural log, higher is
better) of the valid and test rows. It is checked against pgmpy's own
``get_state_probability`` on a small case at every start (:func:`check_evaluator`).

The valid split is used only for what a user would choose: each learner's parameter
estimator (the one with the best valid log-likelihood), and the grid's score and parent
limit. Learners run interleaved (round after round over sets and learners); the table
gives the fastest CPU and wall time over the rounds (the networks do not change: every
learner is deterministic), and the load average (``os.getloadavg``) when the set began.

Peers: pyAgrum's greedy hill climbing and tabu search with BDeu and BIC (one thread,
no in-degree limit), pgmpy's Chow-Liu tree (``TreeSearch``, its default root) and pgmpy's
hill climbing with its BDeu (``pgmpy.causal_discovery.HillClimbSearch``, stopped after
``--timeout`` seconds). WinMine's published figures (Gens & Domingos, ICML 2013, Table 1;
the same in Rooshenas & Lowd, ICML 2014) are printed beside them; WinMine learns
decision-tree tables, not full tables, and no figure of it on nips is published.
Results go to ``benchmarks/results/density.jsonl`` (one line per run).
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
DATA = HERE.parent.parent / "shared" / "data" / "debd"
RESULTS = HERE / "results" / "density.jsonl"
SETS = ["nltcs", "plants", "baudio", "bnetflix", "accidents", "pumsb_star", "nips"]

#: WinMine's test log-likelihood per row (Gens & Domingos 2013, Table 1); nips: none.
WINMINE = {
    "nltcs": -6.025,
    "plants": -12.647,
    "baudio": -40.501,
    "bnetflix": -57.025,
    "accidents": -26.320,
    "pumsb_star": -21.721,
}

#: Parameter estimators every network is evaluated with: fsNML and Dirichlet(alpha).
ESTIMATORS = [
    "fsnml",
    "dirichlet:0.1",
    "dirichlet:0.5",
    "dirichlet:1",
    "dirichlet:2",
    "dirichlet:5",
]


# -- data and the evaluator ------------------------------------------------------------
def load_split(folder: Path, name: str, split: str) -> np.ndarray:
    """The rows of one split as an ``int8`` array (rows x variables)."""
    with gzip.open(folder / f"{name}.{split}.data.gz", "rt") as fh:
        return np.loadtxt(fh, delimiter=",", dtype=np.int8, ndmin=2)


def column_names(n: int) -> list[str]:
    return [f"V{i}" for i in range(n)]


def as_frame(rows: np.ndarray):
    import pandas as pd

    return pd.DataFrame(rows, columns=column_names(rows.shape[1]))


def _configurations(rows: np.ndarray, parents) -> np.ndarray:
    """Each row's parent configuration as one integer (binary columns; any number of
    parents: over 62 they are hashed row-wise, which only the distinct ids matter for)."""
    if not len(parents):
        return np.zeros(len(rows), dtype=np.int64)
    block = np.ascontiguousarray(rows[:, parents], dtype=np.uint8)
    if len(parents) <= 62:
        return block.astype(np.int64) @ (np.int64(1) << np.arange(len(parents), dtype=np.int64))
    packed = np.packbits(block, axis=1)
    _, ids = np.unique(packed, axis=0, return_inverse=True)
    return ids.reshape(-1).astype(np.int64)


def table_parameters(counts: np.ndarray, estimator: str) -> np.ndarray:
    """Each row of ``counts`` (a parent configuration's counts of the child's two states)
    turned into probabilities: fsNML (the package's formula) or Dirichlet(alpha) per cell."""
    if estimator == "fsnml":
        from pgmpy_nml.numerics.snml import fsnml_parameters

        return np.asarray(fsnml_parameters(counts), dtype=np.float64)
    kind, _, alpha = estimator.partition(":")
    if kind != "dirichlet":
        raise ValueError(f"unknown estimator {estimator!r}")
    a = float(alpha)
    return (counts + a) / (counts.sum(axis=1, keepdims=True) + counts.shape[1] * a)


def log_likelihood(parents, train: np.ndarray, rows: np.ndarray, estimator="fsnml") -> float:
    r"""Average log-likelihood per row of ``rows`` under the network with these parent sets,
    its tables fitted on ``train`` (every variable binary, states 0 and 1 declared),

    .. math:: \frac{1}{|D|} \sum_{d \in D} \sum_i \log \hat\theta_{i, j(d), x_i(d)},

    with :math:`\hat\theta` of ``estimator`` from the training counts of each family (a
    parent configuration never seen in training gets the estimator's value at zero
    counts, 1/2). The one evaluator of every learner of this benchmark.
    """
    total = 0.0
    for v, pa in enumerate(parents):
        pa = sorted(int(u) for u in pa)
        keys_train = _configurations(train, pa)
        keys_rows = _configurations(rows, pa)
        keys, inverse = np.unique(np.concatenate([keys_train, keys_rows]), return_inverse=True)
        ids_train, ids_rows = inverse[: len(train)], inverse[len(train) :]
        counts = np.zeros((len(keys), 2))
        np.add.at(counts, (ids_train, train[:, v].astype(np.int64)), 1.0)
        theta = table_parameters(counts, estimator)
        total += float(np.log(theta[ids_rows, rows[:, v].astype(np.int64)]).sum())
    return total / len(rows)


def check_evaluator(seed: int = 0) -> float:
    """:func:`log_likelihood` against pgmpy's ``get_state_probability`` (the product of
    the CPDs' entries) on networks fitted by pgmpy with the package's ``FSNMLEstimator``
    and pgmpy's Dirichlet estimator: 300 random training rows of 6 binary variables, one
    of them constant in training and not in the test rows. Returns the largest absolute
    difference per row; raises if it exceeds 1e-9."""
    import pandas as pd
    from pgmpy.models import DiscreteBayesianNetwork
    from pgmpy.parameter_estimator import DiscreteBayesianEstimator

    from pgmpy_nml import FSNMLEstimator

    rng = np.random.default_rng(seed)
    n = 6
    train = (rng.random((300, n)) < rng.uniform(0.2, 0.8, n)).astype(np.int8)
    train[:, 1] = train[:, 0] ^ (rng.random(300) < 0.1)
    train[:, 5] = 0  # constant in training
    test = (rng.random((40, n)) < 0.5).astype(np.int8)
    parents = [[], [0], [0, 1], [2], [1, 3], [4]]
    names = column_names(n)
    states = {v: [0, 1] for v in names}
    edges = [(names[u], names[v]) for v, pa in enumerate(parents) for u in pa]
    worst = 0.0
    for estimator in ("fsnml", "dirichlet:0.5", "dirichlet:2"):
        model = DiscreteBayesianNetwork(edges)
        if estimator == "fsnml":
            fitter = FSNMLEstimator(state_names=states)
        else:
            fitter = DiscreteBayesianEstimator(
                prior_type="dirichlet",
                pseudo_counts=float(estimator.split(":")[1]),
                state_names=states,
            )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model.fit(pd.DataFrame(train, columns=names), estimator=fitter)
        reference = np.mean(
            [
                math.log(model.get_state_probability(dict(zip(names, map(int, row), strict=True))))
                for row in test
            ]
        )
        worst = max(worst, abs(reference - log_likelihood(parents, train, test, estimator)))
    if worst > 1e-9:
        raise AssertionError(f"the evaluator differs from pgmpy's likelihood by {worst:g}")
    return worst


# -- the learners ----------------------------------------------------------------------
def _local(scoring="fnml", **settings):
    """An unfitted :class:`~pgmpy_nml.LocalSearch` on one thread, quiet."""

    def build(frame):
        from pgmpy_nml import LocalSearch

        score = _score(scoring, frame)
        return LocalSearch(score, show_progress=False, n_jobs=1, **settings)

    return build


def _score(scoring, frame):
    """A score by name, ``"bdeu:ESS"`` for BDeu with that equivalent sample size."""
    if isinstance(scoring, str) and scoring.startswith("bdeu:"):
        from pgmpy_nml import BDeu

        return BDeu(frame, equivalent_sample_size=float(scoring.split(":")[1]))
    return scoring


def _exact(scoring="fnml"):
    """An unfitted :class:`~pgmpy_nml.ExactSearch` (the subset DP, no parent limit)."""

    def build(frame):
        from pgmpy_nml import ExactSearch

        return ExactSearch(_score(scoring, frame), method="dp", show_progress=False)

    return build


#: The README's recipe: fNML, hill climbing with 1,000 order-based restarts (the default
#: perturbation), the default parent limit ("auto": none unless the data are wide). A
#: count, not a time limit, so that the network is the same on every machine.
RECIPE = {"restarts": 1000}

#: This package's learners: name -> (what it is, a builder of the unfitted estimator).
#: The "recipe" ones are the recipe with another score: a user picks among them on the
#: valid split (the summary's second column).
OURS = {
    "recipe": (
        "LocalSearch('fnml', restarts=1000)",
        _local("fnml", **RECIPE),
    ),
    "recipe-qnml": ("the recipe with qNML", _local("qnml", **RECIPE)),
    "recipe-bdeu1": ("the recipe with BDeu(1)", _local("bdeu:1", **RECIPE)),
    "recipe-bdeu10": ("the recipe with BDeu(10)", _local("bdeu:10", **RECIPE)),
    "hill-fnml": (
        "LocalSearch('fnml', max_parents=None): hill climbing, no limit",
        _local("fnml", max_parents=None),
    ),
    "tabu-fnml": (
        "LocalSearch('fnml', method='tabu', max_parents=None)",
        _local("fnml", method="tabu", max_parents=None),
    ),
    "exact-fnml": ("ExactSearch('fnml', method='dp'): up to 20 variables", _exact("fnml")),
}

#: The exact learners run only up to this many variables (the subset DP's range in seconds).
EXACT_MAX_VARIABLES = 20

#: The peers: name -> (what it is, how it runs).
PEERS = {
    "agrum-greedy-bdeu": ("pyAgrum greedy hill climbing, BDeu", ("pyagrum", "greedy", "bdeu")),
    "agrum-greedy-bic": ("pyAgrum greedy hill climbing, BIC", ("pyagrum", "greedy", "bic")),
    "agrum-tabu-bdeu": ("pyAgrum tabu search, BDeu", ("pyagrum", "tabu", "bdeu")),
    "agrum-tabu-bic": ("pyAgrum tabu search, BIC", ("pyagrum", "tabu", "bic")),
    "pgmpy-chowliu": ("pgmpy TreeSearch (Chow-Liu tree)", ("pgmpy", "chowliu")),
    "pgmpy-hc-bdeu": ("pgmpy HillClimbSearch, its BDeu", ("pgmpy", "hc")),
    "empty": ("no edges (reference)", ("none",)),
}


def learner_names() -> list[str]:
    return [*OURS, *PEERS]


def _parents_from_edges(edges, n: int) -> list[list[int]]:
    parents: list[list[int]] = [[] for _ in range(n)]
    for u, v in edges:
        parents[int(str(v)[1:])].append(int(str(u)[1:]))
    return [sorted(p) for p in parents]


def _learn_pgmpy(kind: str, frame):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if kind == "chowliu":
            from pgmpy.estimators import TreeSearch

            dag = TreeSearch(frame, n_jobs=1).estimate(
                estimator_type="chow-liu", show_progress=False
            )
        else:
            from pgmpy.causal_discovery import HillClimbSearch
            from pgmpy.structure_score import BDeu

            search = HillClimbSearch(BDeu(frame), return_type="dag", show_progress=False)
            dag = search.fit(frame).causal_graph_
    return list(dag.edges())


def child(learner: str, name: str, folder: Path) -> dict:
    """One learner on one set's training rows (``--child``): its parents and times."""
    train = load_split(folder, name, "train")
    frame = as_frame(train)
    n = train.shape[1]
    if learner.startswith("exact") and n > EXACT_MAX_VARIABLES:
        return {"skipped": f"more than {EXACT_MAX_VARIABLES} variables"}
    if learner in OURS:
        build = OURS[learner][1]
        small = as_frame(train[:60, :12])  # warm-up: load the kernels (the "auto" limit's too)
        build(small).fit(small)
        search = build(frame)
        cpu, wall = time.process_time(), time.perf_counter()
        search.fit(frame)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        edges = list(search.dag_.edges())
    else:
        kind = PEERS[learner][1]
        cpu, wall = time.process_time(), time.perf_counter()
        edges = _learn_pgmpy(kind[1], frame) if kind[0] == "pgmpy" else []
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return {"parents": _parents_from_edges(edges, n), "cpu": cpu, "wall": wall}


def run_learner(learner, name, folder, pyagrum, timeout, workdir) -> dict:
    """``learner`` on set ``name`` in a fresh process: ``{"parents", "cpu", "wall"}``, or
    ``{"skipped": why}`` (no pyAgrum, or stopped after ``timeout`` seconds)."""
    kind = PEERS.get(learner, (None, ("ours",)))[1]
    if kind[0] == "pyagrum":
        if not pyagrum:
            return {"skipped": "no --pyagrum"}
        csv = Path(workdir) / f"{name}.train.csv"
        if not csv.exists():
            as_frame(load_split(folder, name, "train")).to_csv(csv, index=False)
        command = [pyagrum, str(HERE / "_pyagrum_density.py"), str(csv), kind[1], kind[2]]
    else:
        command = [sys.executable, __file__, "--child", learner, "--set", name, "--data", folder]
    try:
        done = subprocess.run(
            [str(c) for c in command],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            env={**os.environ, "PYTHONHASHSEED": "0"},  # pgmpy's searches iterate over sets
        )
    except subprocess.TimeoutExpired:
        return {"skipped": f"stopped after {timeout:g} s"}
    if done.returncode:
        raise RuntimeError(f"{learner} on {name} failed:\n{done.stderr[-3000:]}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    if "skipped" in out:
        return out
    if "edges" in out:  # pyAgrum's
        n = load_split(folder, name, "valid").shape[1]
        out["parents"] = _parents_from_edges(out.pop("edges"), n)
    return out


# -- evaluation and the tables ---------------------------------------------------------
def evaluate(parents, splits) -> dict:
    """Valid and test log-likelihood per row under every estimator, the estimator a user
    would pick (best on valid) and its test figure."""
    train, valid, test = splits
    valid_ll = {e: log_likelihood(parents, train, valid, e) for e in ESTIMATORS}
    chosen = max(ESTIMATORS, key=lambda e: valid_ll[e])
    return {
        "edges": int(sum(map(len, parents))),
        "max_parents": int(max(map(len, parents), default=0)),
        "valid": valid_ll,
        "test_fsnml": log_likelihood(parents, train, test, "fsnml"),
        "chosen": chosen,
        "test": log_likelihood(parents, train, test, chosen),
    }


def _fmt(x, digits=3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def print_set_table(name, shape, rows, load) -> None:
    print(f"\n### {name} ({shape[1]} variables, {shape[0]:,} training rows; load {load})\n")
    print(
        "| learner | edges | max parents | search CPU s | wall s | parameters (on valid) |", end=""
    )
    print(" valid LL | test LL, fsNML | test LL |")
    print("|---|---|---|---|---|---|---|---|---|")
    for learner, row in rows.items():
        if "skipped" in row:
            print(f"| {learner} | | | | | {row['skipped']} | | | |")
            continue
        print(
            f"| {learner} | {row['edges']} | {row['max_parents']} | {_fmt(row['cpu'], 2)} | "
            f"{_fmt(row['wall'], 2)} | {row['chosen']} | {_fmt(row['valid'][row['chosen']])} | "
            f"{_fmt(row['test_fsnml'])} | **{_fmt(row['test'])}** |"
        )


def print_summary(results, recipe: str) -> None:
    """Per set: our recipe, the recipe with the score a user picks on the valid split
    (among the learners named ``recipe*``), the best peer, WinMine, and the goal."""
    print(f"\n### The goal: `{recipe}` against the best peer and WinMine (test LL per row)\n")
    print("| set | recipe (fNML) | CPU s | score best on valid | its test LL | CPU s | ", end="")
    print("best peer | its test LL | WinMine | beats every peer | >= WinMine |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, rows in results.items():
        ours = rows.get(recipe)
        peers = {k: r for k, r in rows.items() if k in PEERS and "test" in r}
        variants = {k: r for k, r in rows.items() if k.startswith(recipe) and "test" in r}
        if ours is None or "test" not in ours or not peers:
            continue
        pick = max(variants, key=lambda k: variants[k]["valid"][variants[k]["chosen"]])
        best = max(peers, key=lambda k: peers[k]["test"])
        wm = WINMINE.get(name)
        top = variants[pick]["test"]
        beats = "yes" if top > peers[best]["test"] else "no"
        winmine = "n/a" if wm is None else ("yes" if top >= wm else "no")
        print(
            f"| {name} | {_fmt(ours['test'])} | {_fmt(ours['cpu'], 1)} | {pick} | {_fmt(top)} | "
            f"{_fmt(variants[pick]['cpu'], 1)} | {best} | {_fmt(peers[best]['test'])} | "
            f"{_fmt(wm)} | {beats} | {winmine} |"
        )


# -- item 3: scores and parameters; item 2: the searches' score per CPU second ----------
#: The scores of the grid (``--grid``): names for :func:`_score`.
GRID_SCORES = ["fnml", "qnml", "bdeu:1", "bdeu:10", "bdeu:100", "bic-d"]
#: The grid's search: the recipe's, with fewer restarts (it runs once per score).
GRID_SEARCH = {"restarts": 500, "time_limit": 50.0}


def _fit_timed(search, frame):
    cpu, wall = time.process_time(), time.perf_counter()
    search.fit(frame)
    return search, time.process_time() - cpu, time.perf_counter() - wall


def _parents_of(search, n) -> list[list[int]]:
    return _parents_from_edges(search.dag_.edges(), n)


def grid(args) -> None:
    """Each score of :data:`GRID_SCORES` with the recipe's search, each network under every
    estimator: the valid and test log-likelihood per row (item 3 of issue 37)."""
    from pgmpy_nml import LocalSearch

    stamp, command = time.strftime("%Y-%m-%d %H:%M"), " ".join(sys.argv)
    for name in args.sets:
        splits = tuple(load_split(args.data, name, s) for s in ("train", "valid", "test"))
        frame = as_frame(splits[0])
        n = splits[0].shape[1]
        load = load_average()
        print(f"\n### {name}: scores x parameters (load {load}; {GRID_SEARCH})\n")
        print("| score | max parents | edges | CPU s | valid LL, fsNML | valid LL, best ", end="")
        print("| its estimator | test LL, fsNML | test LL (estimator on valid) |")
        print("|---|---|---|---|---|---|---|---|---|")
        best = None
        for scoring in GRID_SCORES:
            search = LocalSearch(
                _score(scoring, frame), show_progress=False, n_jobs=1, **GRID_SEARCH
            )
            search, cpu, _ = _fit_timed(search, frame)
            row = evaluate(_parents_of(search, n), splits)
            v_best = row["valid"][row["chosen"]]
            print(
                f"| {scoring} | {search.max_parents_} | {row['edges']} | {cpu:.1f} | "
                f"{row['valid']['fsnml']:.3f} | {v_best:.3f} | {row['chosen']} | "
                f"{row['test_fsnml']:.3f} | {row['test']:.3f} |"
            )
            row.update(set=name, score=scoring, cpu=cpu, date=stamp, load=load, command=command)
            write_result({"grid": True, **row}, args.results)
            if best is None or v_best > best[1]:
                best = (scoring, v_best, row["test"])
        print(f"\nchosen on valid: {best[0]} (valid {best[1]:.3f}, test {best[2]:.3f})")


#: The searches compared per CPU second (``--anytime``): name -> LocalSearch settings
#: ("n": the number of variables; "R": each count of ANYTIME_RESTARTS).
ANYTIME = {
    "hill": {},
    "tabu (defaults: 30, 300)": {"method": "tabu"},
    "tabu (n, 5n)": {"method": "tabu", "tabu_length": "n", "max_non_improving": "5n"},
    "hill + random-move restarts": {"perturbation": "moves", "restarts": "R"},
    "hill + order restarts": {"restarts": "R"},
    "tabu (30, 300) + order restarts": {"method": "tabu", "restarts": "R"},
}
#: The restart counts of the anytime curves.
ANYTIME_RESTARTS = [10, 30, 100, 300, 1000, 3000]


def _anytime_runs(frame, n: int) -> list:
    """Every search of :data:`ANYTIME` on ``frame``: (label, restarts, search, CPU s)."""
    from pgmpy_nml import ExactSearch, LocalSearch

    runs = []
    for label, settings in ANYTIME.items():
        counts = ANYTIME_RESTARTS if settings.get("restarts") == "R" else [0]
        for count in counts:
            sizes = {"n": n, "5n": 5 * n}
            options = {k: sizes.get(v, v) for k, v in settings.items() if k != "restarts"}
            if count:
                options["restarts"] = count
            search = LocalSearch("fnml", max_parents=None, show_progress=False, n_jobs=1)
            search.set_params(**options)
            search, cpu, _ = _fit_timed(search, frame)
            runs.append((label, count, search, cpu))
    if n <= EXACT_MAX_VARIABLES:
        search, cpu, _ = _fit_timed(ExactSearch("fnml", method="dp", show_progress=False), frame)
        runs.append(("exact (subset DP)", 0, search, cpu))
    return runs


def anytime(args) -> None:
    """Score per CPU second of the local searches (fNML, no parent limit, one thread):
    each search of :data:`ANYTIME`, those with restarts at every count of
    :data:`ANYTIME_RESTARTS` (the runs share their first restarts: the same seed), with
    the score gained per row over hill climbing and the test log-likelihood (fsNML);
    the exact DP where it finishes (item 2 of issue 37)."""
    stamp, command = time.strftime("%Y-%m-%d %H:%M"), " ".join(sys.argv)
    for name in args.sets:
        splits = tuple(load_split(args.data, name, s) for s in ("train", "valid", "test"))
        n_rows, n = splits[0].shape
        load = load_average()
        print(f"\n### {name}: score per CPU second (fNML; load {load})\n")
        print("| search | restarts | CPU s | score gain per row over hill | test LL, fsNML |")
        print("|---|---|---|---|---|")
        runs = _anytime_runs(as_frame(splits[0]), n)
        base = runs[0][2].score_
        for label, count, search, cpu in runs:
            gain = (search.score_ - base) / n_rows
            test = log_likelihood(_parents_of(search, n), splits[0], splits[2], "fsnml")
            print(f"| {label} | {count} | {cpu:.2f} | {gain:.4f} | {test:.3f} |")
            record = {"anytime": True, "set": name, "search": label, "restarts": count}
            record.update(cpu=cpu, gain_per_row=gain, test_fsnml=test, date=stamp)
            write_result({**record, "load": load, "command": command}, args.results)


#: The parent limits compared on training sets cut short (``--limits``), and the cuts.
LIMITS = (1, 2, 3, 5, None)
LIMIT_ROWS = (50, 100, 150, 200, 400, 800, 1600, 3200, 6400)


def limits(args) -> None:
    """Hill climbing with fNML and each parent limit of :data:`LIMITS` on the first
    ``N`` rows of a fixed shuffle of each set's training rows, for each ``N`` of
    :data:`LIMIT_ROWS` (and the whole set): the valid log-likelihood per row with the
    estimator best on valid, and the limit that wins it. The evidence behind
    ``LocalSearch``'s ``AUTO_ROWS_PER_VARIABLE``."""
    from pgmpy_nml import LocalSearch

    stamp, command = time.strftime("%Y-%m-%d %H:%M"), " ".join(sys.argv)
    for name in args.sets:
        train, valid = (load_split(args.data, name, s) for s in ("train", "valid"))
        n = train.shape[1]
        shuffled = train[np.random.default_rng(0).permutation(len(train))]
        load = load_average()
        print(f"\n### {name} ({n} variables): parent limits on cut training sets (load {load})\n")
        print("| rows | rows per variable | " + " | ".join(f"limit {k}" for k in LIMITS), end="")
        print(" | best | loss without a limit |")
        print("|---|---|" + "---|" * len(LIMITS) + "---|---|")
        for rows in [r for r in LIMIT_ROWS if r < len(train)] + [len(train)]:
            part = shuffled[:rows]
            frame = as_frame(part)
            scores = {}
            for limit in LIMITS:
                search = LocalSearch("fnml", max_parents=limit, show_progress=False, n_jobs=1)
                parents = _parents_of(search.fit(frame), n)
                scores[limit] = max(log_likelihood(parents, part, valid, e) for e in ESTIMATORS)
            best = max(LIMITS, key=lambda k: scores[k])
            loss = (scores[best] - scores[None]) / abs(scores[best])
            print(
                f"| {rows} | {rows / n:.2f} | "
                + " | ".join(f"{scores[k]:.3f}" for k in LIMITS)
                + f" | {best} | {100 * loss:.2f}% |"
            )
            record = {"limits": True, "set": name, "rows": rows, "date": stamp, "load": load}
            record["valid"] = {str(k): v for k, v in scores.items()}
            write_result({**record, "best": str(best), "command": command}, args.results)


#: ``--order``: the seconds of each search (scoring included) and the curve's marks.
ORDER_SECONDS = 60.0
ORDER_MARKS = (1, 2, 5, 10, 20, 30, 60)


def _best_at(history, seconds: float) -> float:
    """The best score of an anytime ``history`` (seconds, score) by ``seconds``."""
    reached = [score for t, score in history if t <= seconds]
    return max(reached) if reached else float("nan")


def order(args) -> None:
    """The memetic order search over candidate parent sets (``OrderSearch``, MINOBS
    style) against hill climbing with order restarts at the same parent limit (the one
    ``OrderSearch(max_parents="auto")`` picks), fNML, one thread, :data:`ORDER_SECONDS`
    each: the training score, CPU, test log-likelihood (estimator on valid) and the
    anytime curve of the order search (best score after each mark, scoring included);
    item 2 of issue 37. The recipe's figures to compare with come from the main run."""
    from pgmpy_nml import LocalSearch, OrderSearch, make_score

    stamp, command = time.strftime("%Y-%m-%d %H:%M"), " ".join(sys.argv)
    for name in args.sets:
        splits = tuple(load_split(args.data, name, s) for s in ("train", "valid", "test"))
        n_rows, n = splits[0].shape
        frame = as_frame(splits[0])
        load = load_average()
        score = make_score("fnml", frame)
        memetic = OrderSearch(score, time_limit=ORDER_SECONDS, show_progress=False, n_jobs=1)
        memetic, memetic_cpu, memetic_wall = _fit_timed(memetic, frame)
        limit = memetic.max_parents_
        local = LocalSearch(
            score,
            max_parents=limit,
            restarts=1000,
            time_limit=ORDER_SECONDS,
            n_jobs=1,
            show_progress=False,
        )
        local, local_cpu, local_wall = _fit_timed(local, frame)
        scoring = memetic.timings_["candidate parent sets"]
        print(
            f"\n### {name} ({n} variables, {n_rows} rows): order search at limit {limit} "
            f"(load {load})\n"
        )
        print(
            f"{sum(memetic.candidates_.n_candidates()):,} candidates scored in {scoring:.1f} s; "
            f"{memetic.n_iter_} generations, status {memetic.status_}\n"
        )
        print("| search | score per row | CPU s | wall s | edges | test LL (estimator on valid) |")
        print("|---|---|---|---|---|---|")
        rows = {}
        for label, search, c, w in (
            ("OrderSearch", memetic, memetic_cpu, memetic_wall),
            ("LocalSearch, 1000 order restarts", local, local_cpu, local_wall),
        ):
            row = evaluate(_parents_of(search, n), splits)
            rows[label] = row
            print(
                f"| {label} | {search.score_ / n_rows:.4f} | {c:.1f} | {w:.1f} | "
                f"{row['edges']} | {row['test']:.3f} |"
            )
        curve = [_best_at(memetic.history_, t - scoring) / n_rows for t in ORDER_MARKS]
        print(
            "\norder search, best score per row after (s, scoring included): "
            + ", ".join(f"{t}: {c:.4f}" for t, c in zip(ORDER_MARKS, curve, strict=True))
        )
        record = {"order": True, "set": name, "limit": limit, "date": stamp, "load": load}
        record.update(
            candidates=int(sum(memetic.candidates_.n_candidates())),
            scoring=scoring,
            generations=memetic.n_iter_,
            status=memetic.status_,
            order_score=memetic.score_,
            order_cpu=memetic_cpu,
            order_test=rows["OrderSearch"]["test"],
            local_score=local.score_,
            local_cpu=local_cpu,
            local_test=rows["LocalSearch, 1000 order restarts"]["test"],
            curve=dict(zip(map(str, ORDER_MARKS), curve, strict=True)),
            command=command,
        )
        write_result(record, args.results)


def load_average() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def write_result(record: dict, path: Path = RESULTS) -> None:
    path.parent.mkdir(exist_ok=True)
    with path.open("a") as fh:
        fh.write(json.dumps(record) + "\n")


def compare(args) -> dict:
    """The interleaved runs of the learners on the sets, the per-set tables, the summary."""
    stamp = time.strftime("%Y-%m-%d %H:%M")
    command = "python benchmarks/bench_density.py " + " ".join(sys.argv[1:])
    results: dict = {}
    with tempfile.TemporaryDirectory() as workdir:
        for name in args.sets:
            splits = tuple(load_split(args.data, name, s) for s in ("train", "valid", "test"))
            load = load_average()
            runs: dict = {learner: [] for learner in args.learners}
            for _ in range(args.rounds):
                for learner in args.learners:
                    runs[learner].append(
                        run_learner(learner, name, args.data, args.pyagrum, args.timeout, workdir)
                    )
            rows = {}
            for learner, done in runs.items():
                if any("skipped" in r for r in done):
                    rows[learner] = next(r for r in done if "skipped" in r)
                    continue
                if any(r["parents"] != done[0]["parents"] for r in done):
                    print(f"note: {learner} learned different networks in different rounds")
                row = evaluate(done[0]["parents"], splits)
                row.update(cpu=min(r["cpu"] for r in done), wall=min(r["wall"] for r in done))
                rows[learner] = row
                record = {k: v for k, v in row.items()}
                record.update(set=name, learner=learner, date=stamp, load=load, command=command)
                record.update(rounds=args.rounds, cpus=[r["cpu"] for r in done])
                write_result(record, args.results)
            results[name] = rows
            print_set_table(name, splits[0].shape, rows, load)
    print_summary(results, args.recipe)
    print(f"\n{stamp}; load average at the end {load_average()}; {command}")
    return results


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--data", type=Path, default=DATA, help="the folder of the .data.gz files")
    parser.add_argument("--sets", nargs="+", default=SETS, choices=SETS)
    parser.add_argument("--learners", nargs="+", default=learner_names(), choices=learner_names())
    parser.add_argument("--recipe", default="recipe", help="our learner the summary judges")
    parser.add_argument("--rounds", type=int, default=1, help="interleaved repeats (timing)")
    parser.add_argument("--pyagrum", help="a Python where pyAgrum is installed (its own venv)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per peer run")
    parser.add_argument("--results", type=Path, default=RESULTS, help="JSON lines appended here")
    parser.add_argument("--grid", action="store_true", help="scores x parameters (item 3)")
    parser.add_argument("--anytime", action="store_true", help="score per CPU second (item 2)")
    parser.add_argument("--limits", action="store_true", help="parent limits on cut training sets")
    parser.add_argument("--order", action="store_true", help="OrderSearch against hill climbing")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--set", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child, args.set, args.data)))
        return
    if not (args.data / "nltcs.train.data.gz").exists():
        print(f"No density-estimation data in {args.data}: nothing to run (see --data).")
        return
    worst = check_evaluator()
    print(f"evaluator checked against pgmpy: largest difference {worst:.1e} nats per row")
    if args.grid:
        grid(args)
    elif args.anytime:
        anytime(args)
    elif args.limits:
        limits(args)
    elif args.order:
        order(args)
    else:
        compare(args)


if __name__ == "__main__":
    main()
