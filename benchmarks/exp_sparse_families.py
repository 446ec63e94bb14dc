"""When does ``SparseFamilyWarning`` fire, and does a parent limit then predict better?

Run::

    python benchmarks/exp_sparse_families.py --out benchmarks/results/sparse_families.jsonl
    python benchmarks/exp_sparse_families.py --report benchmarks/results/sparse_families.jsonl

For each data set and score (fNML, qNML, BDeu(1)): the exact search without a parent
limit (does it warn?), then 5-fold cross-validation of that procedure against the same
with ``max_parents=2`` (mean log-loss per test row, nats; the difference and its
corrected standard error). The data: asia, sachs, child, survey and cancer sampled at
N = 60, 150 and 400 (seeds 0 and 1); 16 central pixels of sklearn's digits with their 17
levels and cut into 3 levels, N = 300 and 900 (two draws each); nltcs from
``../shared/data/debd`` (train split, 100 and 300 rows; skipped without it). Nothing is
tuned on it: the warning's rule (more parent configurations than rows) is a definition.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from pgmpy_nml import ExactSearch, SparseFamilyWarning
from pgmpy_nml.datasets import sample_network
from pgmpy_nml.study import LearningProcedure, compare_procedures

DEBD = Path(__file__).resolve().parents[2] / "shared" / "data" / "debd"
PIXELS = [19, 20, 27, 28, 35, 36, 43, 44, 21, 26, 29, 34, 37, 42, 45, 50]


def datasets():
    for net in ["asia", "sachs", "child", "survey", "cancer"]:
        for n in [60, 150, 400]:
            for seed in [0, 1]:
                yield f"{net} N={n} s{seed}", sample_network(net, n, random_state=seed)[1], seed
    from sklearn.datasets import load_digits

    pixels = load_digits().data.astype(int)[:, PIXELS]
    names = [f"p{c}" for c in PIXELS]
    for n in [300, 900]:
        for seed in [0, 1]:
            rows = pixels[np.random.default_rng(seed).choice(len(pixels), n, replace=False)]
            yield f"digits17x16 N={n} s{seed}", pd.DataFrame(rows, columns=names).astype(str), seed
            cut = np.digitize(rows, [4, 12])
            yield f"digits3x16 N={n} s{seed}", pd.DataFrame(cut, columns=names).astype(str), seed
    path = DEBD / "nltcs.train.data.gz"
    if not path.exists():
        print(f"skipping nltcs: {path} not found", file=sys.stderr)
        return
    full = pd.read_csv(path, header=None)
    for n in [100, 300]:
        data = full.sample(n, random_state=0).reset_index(drop=True)
        data.columns = [f"x{i}" for i in data.columns]
        yield f"nltcs N={n}", data.astype(str), 0


def run(out: Path) -> None:
    with out.open("w") as sink:
        for label, data, seed in datasets():
            for score in ["fnml", "qnml", "bdeu"]:
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always", SparseFamilyWarning)
                    search = ExactSearch(score, show_progress=False).fit(data)
                fired = [w.message for w in caught if w.category is SparseFamilyWarning]
                row = {
                    "data": label,
                    "score": score,
                    "arcs": search.dag_.number_of_edges(),
                    "fired": bool(fired),
                    "families": len(fired[0].families) if fired else 0,
                }
                procedures = {
                    "free": LearningProcedure(scoring_method=score),
                    "p2": LearningProcedure(scoring_method=score, max_parents=2),
                }
                try:
                    table = compare_procedures(data, procedures, k=5, random_state=seed).summary
                except ValueError as err:  # a table too large to fit (the package refuses)
                    row["error"] = str(err)[:160]
                else:
                    row.update(
                        free=round(float(table.loc["free", "mean"]), 4),
                        p2=round(float(table.loc["p2", "mean"]), 4),
                        diff=round(float(table.loc["p2", "diff"]), 4),
                        se=round(float(table.loc["p2", "diff_se_corrected"]), 4),
                    )
                print(json.dumps(row), flush=True)
                sink.write(json.dumps(row) + "\n")


def report(path: Path) -> None:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    failed = [r for r in rows if "error" in r]
    print(f"{len(rows)} networks; the warning fired on {sum(r['fired'] for r in rows)}")
    for r in failed:
        print(f"  not fittable ({'warned' if r['fired'] else 'quiet'}): {r['data']} {r['score']}")
    print("max_parents=2 against no limit, 5-fold log-loss (diff < 0: the limit is better)")
    print(f"{'':8}{'n':>4}{'better':>8}{'worse':>7}{'same':>6}{'better>2se':>12}{'worse>2se':>11}")
    for name, fired in [("warned", True), ("quiet", False)]:
        group = [r for r in rows if r["fired"] == fired and "error" not in r]
        better = sum(r["diff"] < 0 for r in group)
        worse = sum(r["diff"] > 0 for r in group)
        far_better = sum(r["se"] > 0 and r["diff"] < -2 * r["se"] for r in group)
        far_worse = sum(r["se"] > 0 and r["diff"] > 2 * r["se"] for r in group)
        same = len(group) - better - worse
        print(
            f"{name:8}{len(group):>4}{better:>8}{worse:>7}{same:>6}{far_better:>12}{far_worse:>11}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="run, and write the records here (JSON lines)")
    parser.add_argument("--report", type=Path, help="summarize records written by --out")
    args = parser.parse_args()
    if args.out:
        run(args.out)
        report(args.out)
    elif args.report:
        report(args.report)
    else:
        parser.error("give --out FILE (run) or --report FILE")


if __name__ == "__main__":
    main()
