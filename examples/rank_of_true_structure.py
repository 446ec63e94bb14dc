"""Rank of the generating structure among all 5-node DAGs (seed 000, Sec. 5.1, Fig. 2).

Reproduces, scaled down, the model-selection experiment of Silander, Roos &
Myllymäki, "Learning locally minimax optimal Bayesian networks" (IJAR 2010),
Sec. 5.1: random 5-node networks (7 edges, as in the paper's Fig. 2; ``--edges 4``
for the sparse case), every variable with 2, 3 or 4 values, parameters drawn by
two schemes,

* "BDeu(1) scheme": theta_ij ~ Dir(1/(r_i q_i), ..., 1/(r_i q_i)), exactly the
  prior that BDeu with equivalent sample size 1 assumes;
* "Dir(1/2) scheme": theta_ij ~ Dir(1/2, ..., 1/2), independently for every
  parent configuration (the same structures and arities as the first scheme),

and, for growing prefixes of each sampled data set of 1000 rows, the rank of
the generating DAG among ALL 29,281 DAGs on 5 nodes under BDeu(1), fNML, qNML,
BD1/2 (all alpha_ijk = 1/2), BIC and AIC (lower is better; rank 1 = best).

How: the 29,281 DAGs are enumerated once, as 5 parent-set bit masks each (all
120 variable orders x all subsets of each variable's predecessors,
deduplicated). Every score is decomposable, so for one data set it needs only
the 5 x 16 local scores (each variable given each subset of the other four),
and the score of every DAG is a sum of 5 table look-ups (numpy). fNML, qNML and
BD1/2 come from this package's score objects (``local_score``); BDeu(1), BIC
and AIC from textbook formulas in numpy on the same counts (pgmpy's own scores
take milliseconds per family; the script checks the formulas against pgmpy's
``BDeu``, ``BIC`` and ``AIC`` on a data set where every state occurs - with
declared but unseen child states pgmpy's BDeu departs from the textbook, and
small samples here are full of those). The arities are always the generating
network's, also when a value does not occur in a small sample.

Ranks and ties: rank = 1 + the number of DAGs with a strictly higher score
(within a relative tolerance of 1e-9), i.e. ties are resolved in favour of the
generating DAG ("optimistic" rank). For the score-equivalent scores (BDeu, qNML,
BIC, AIC) every Markov-equivalent DAG ties with the truth, so the optimistic
rank counts equivalence classes' members above it, not the class itself; the
summary also prints the pessimistic rank (ties counted against the truth) at
the largest sample size. fNML and BD1/2 are not score equivalent.

Scaled down to run in under two minutes on a 2-core machine: the paper used
100 structures x 100 data sets of 1000 rows per scheme (10,000 repetitions per
point); here 25 structures x 4 data sets = 100 repetitions per scheme and
sample size (sample sizes 10, 20, 50, 100, 200, 500, 1000, nested prefixes), so
the quartiles are rougher than the paper's. Data are sampled by ancestral
sampling in numpy (seeded).

Run (from the repository root, with matplotlib installed):

    python examples/rank_of_true_structure.py              # about 1 minute
    python examples/rank_of_true_structure.py --quick      # smoke run, about 10 s
    python examples/rank_of_true_structure.py --edges 4    # the sparse networks
    python examples/rank_of_true_structure.py --out DIR    # where to save the PNG

It prints the median rank per score and sample size for both schemes and saves
``rank_of_true_structure.png`` (one panel per scheme: median rank and quartiles
against the sample size, both axes logarithmic) and ``rank_of_true_structure.json``,
the summary the docs quote (see ``_summary.py``).
"""

from __future__ import annotations

import argparse
import itertools
import math
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from _summary import write_summary
from scipy.special import gammaln

from pgmpy_nml import FNML, QNML, BDConstant

N_NODES = 5
N_DAGS_5 = 29281  # OEIS A003024
NAMES = [f"X{i}" for i in range(N_NODES)]
SCORES = ["BDeu(1)", "fNML", "qNML", "BD1/2", "BIC", "AIC"]
COLORS = {
    "BDeu(1)": "tab:blue",
    "fNML": "tab:red",
    "qNML": "tab:purple",
    "BD1/2": "tab:orange",
    "BIC": "tab:green",
    "AIC": "tab:brown",
}
SCHEMES = {
    "bdeu": "BDeu(1) scheme: θ_ij ~ Dir(1/(r_i q_i), …)",
    "half": "Dir(1/2) scheme: θ_ij ~ Dir(1/2, …, 1/2)",
}
FULL = {"networks": 25, "datasets": 4, "sizes": [10, 20, 50, 100, 200, 500, 1000]}
QUICK = {"networks": 3, "datasets": 1, "sizes": [10, 100, 1000]}
REL_TOL = 1e-9


# -- the search space -------------------------------------------------------------------
def all_dags(n=N_NODES):
    """Every DAG on ``n`` nodes as an ``(n_dags, n)`` array of parent bit masks."""
    pairs = [(a, b) for a in range(n) for b in range(a + 1, n)]  # positions a < b in an order
    subsets = (np.arange(1 << len(pairs))[:, None] >> np.arange(len(pairs))) & 1
    blocks = []
    for order in itertools.permutations(range(n)):
        masks = np.zeros((len(subsets), n), dtype=np.int64)
        for e, (a, b) in enumerate(pairs):
            masks[:, order[b]] |= subsets[:, e] << order[a]
        blocks.append(masks)
    return np.unique(np.concatenate(blocks), axis=0)


def parents_of(mask):
    return [u for u in range(N_NODES) if (mask >> u) & 1]


def families():
    """(child, parent mask) for every child and every subset of the other nodes."""
    return [
        (v, mask) for v in range(N_NODES) for mask in range(1 << N_NODES) if not (mask >> v) & 1
    ]


# -- networks and data ------------------------------------------------------------------
def edge_counts(dags):
    bits = (dags[:, :, None] >> np.arange(N_NODES)) & 1
    return bits.sum(axis=(1, 2))


def random_network(dags, n_edges, rng):
    """A DAG drawn uniformly among those with ``n_edges`` edges, and random arities."""
    candidates = np.flatnonzero(edge_counts(dags) == n_edges)
    masks = dags[rng.choice(candidates)]
    arities = rng.choice([2, 3, 4], size=N_NODES)
    return masks, arities


def random_parameters(masks, arities, scheme, rng):
    """CPTs (one ``(q_i, r_i)`` array per node) drawn by one of the paper's schemes."""
    cpts = []
    for v in range(N_NODES):
        r = int(arities[v])
        q = int(np.prod([arities[u] for u in parents_of(masks[v])]))
        alpha = 1.0 / (r * q) if scheme == "bdeu" else 0.5
        cpts.append(rng.dirichlet(np.full(r, alpha), size=q))
    return cpts


def topological_order(masks):
    order, done = [], 0
    while len(order) < N_NODES:
        for v in range(N_NODES):
            if not (done >> v) & 1 and (int(masks[v]) & ~done) == 0:
                order.append(v)
                done |= 1 << v
    return order


def parent_index(codes, arities, parents):
    """Row-wise index of the parents' joint configuration, and the number of them."""
    idx = np.zeros(len(codes), dtype=np.int64)
    q = 1
    for u in parents:
        idx = idx * int(arities[u]) + codes[:, u]
        q *= int(arities[u])
    return idx, q


def sample(masks, arities, cpts, n, rng):
    """Ancestral sampling: an ``(n, 5)`` array of value codes."""
    codes = np.zeros((n, N_NODES), dtype=np.int64)
    for v in topological_order(masks):
        j, _ = parent_index(codes, arities, parents_of(masks[v]))
        cumulative = np.cumsum(cpts[v], axis=1)[j]
        codes[:, v] = np.minimum((rng.random((n, 1)) > cumulative).sum(axis=1), arities[v] - 1)
    return codes


# -- local scores -----------------------------------------------------------------------
def counts_table(codes, arities, v, mask):
    j, q = parent_index(codes, arities, parents_of(mask))
    r = int(arities[v])
    return np.bincount(j * r + codes[:, v], minlength=q * r).reshape(q, r)


def textbook_scores(counts, n):
    """BDeu (ESS 1), BIC and AIC of one family from its ``(q, r)`` count table."""
    q, r = counts.shape
    n_j = counts.sum(axis=1)
    nz = counts[counts > 0]
    log_lik = float((nz * np.log(nz)).sum() - (n_j[n_j > 0] * np.log(n_j[n_j > 0])).sum())
    a_j, a_jk = 1.0 / q, 1.0 / (q * r)
    bdeu = float(
        (gammaln(a_j) - gammaln(a_j + n_j)).sum() + (gammaln(a_jk + counts) - gammaln(a_jk)).sum()
    )
    k = q * (r - 1)
    return {"BDeu(1)": bdeu, "BIC": log_lik - 0.5 * math.log(n) * k, "AIC": log_lik - k}


def local_score_tables(codes, arities):
    """``{score: (5, 32) array}`` of local scores; entry [v, mask] = score(v | mask)."""
    n = len(codes)
    frame = pd.DataFrame(codes, columns=NAMES)
    states = {NAMES[v]: list(range(int(arities[v]))) for v in range(N_NODES)}
    package = {
        "fNML": FNML(frame, state_names=states),
        "qNML": QNML(frame, state_names=states),
        "BD1/2": BDConstant(frame, alpha=0.5, state_names=states),
    }
    tables = {s: np.full((N_NODES, 1 << N_NODES), np.nan) for s in SCORES}
    for v, mask in families():
        for name, value in textbook_scores(counts_table(codes, arities, v, mask), n).items():
            tables[name][v, mask] = value
        parents = tuple(NAMES[u] for u in parents_of(mask))
        for name, score in package.items():
            tables[name][v, mask] = score.local_score(NAMES[v], parents)
    return tables


def check_against_pgmpy(rng):
    """The numpy BDeu/BIC/AIC equal pgmpy's on data where every state occurs."""
    import warnings

    from pgmpy.structure_score import AIC, BIC, BDeu

    arities = np.array([2, 3, 4, 2, 3])
    codes = np.column_stack([rng.integers(0, r, 300) for r in arities])
    frame = pd.DataFrame(codes, columns=NAMES)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = {"BDeu(1)": BDeu(frame, equivalent_sample_size=1.0), "BIC": BIC(frame)}
        ours["AIC"] = AIC(frame)
        for v, mask in [(0, 0), (1, 0b00101), (2, 0b11011), (4, 0b00011)]:
            mine = textbook_scores(counts_table(codes, arities, v, mask), len(codes))
            for name, score in ours.items():
                theirs = score.local_score(NAMES[v], tuple(NAMES[u] for u in parents_of(mask)))
                if not math.isclose(mine[name], theirs, rel_tol=1e-9, abs_tol=1e-9):
                    raise AssertionError(f"{name}({v}|{mask:05b}): {mine[name]} vs pgmpy {theirs}")


# -- ranks ------------------------------------------------------------------------------
def ranks(tables, flat_index, true_index):
    """Optimistic and pessimistic rank of DAG ``true_index`` under each score table.

    ``flat_index[g, v] = 32 * v + mask`` looks up node v's local score in DAG g.
    """
    stacked = np.stack([tables[name].ravel() for name in SCORES])
    totals = stacked[:, flat_index].sum(axis=2)  # (n_scores, n_dags)
    truth = totals[:, true_index : true_index + 1]
    tol = REL_TOL * np.maximum(1.0, np.abs(truth))
    optimistic = 1 + np.count_nonzero(totals > truth + tol, axis=1)
    pessimistic = np.count_nonzero(totals >= truth - tol, axis=1)
    return optimistic, pessimistic


def run(config, n_edges, seed):
    rng = np.random.default_rng(seed)
    check_against_pgmpy(rng)
    dags = all_dags()
    assert len(dags) == N_DAGS_5, len(dags)
    index_of = {tuple(row): i for i, row in enumerate(dags.tolist())}
    flat_index = dags + (1 << N_NODES) * np.arange(N_NODES)
    sizes = config["sizes"]
    shape = (len(SCHEMES), len(SCORES), len(sizes), config["networks"] * config["datasets"])
    optimistic = np.zeros(shape, dtype=np.int64)
    pessimistic = np.zeros(shape, dtype=np.int64)
    for net in range(config["networks"]):
        masks, arities = random_network(dags, n_edges, rng)
        true_index = index_of[tuple(masks.tolist())]
        for s, scheme in enumerate(SCHEMES):
            cpts = random_parameters(masks, arities, scheme, rng)
            for d in range(config["datasets"]):
                rep = net * config["datasets"] + d
                codes = sample(masks, arities, cpts, max(sizes), rng)
                for k, n in enumerate(sizes):
                    tables = local_score_tables(codes[:n], arities)
                    optimistic[s, :, k, rep], pessimistic[s, :, k, rep] = ranks(
                        tables, flat_index, true_index
                    )
    return optimistic, pessimistic


# -- report -----------------------------------------------------------------------------
def summarize(optimistic, pessimistic, config, n_edges):
    sizes = config["sizes"]
    reps = optimistic.shape[-1]
    print(
        f"Rank of the generating structure among all {N_DAGS_5} DAGs on 5 nodes "
        f"({n_edges} edges, arities in {{2,3,4}}; 1 = best)."
    )
    print(
        f"Scaled down: {config['networks']} random structures x {config['datasets']} data "
        f"set(s) = {reps} repetitions per scheme and sample size (the paper: 100 x 100)."
    )
    print("Ties resolved optimistically (Markov-equivalent DAGs tie for BDeu, qNML, BIC, AIC).")
    for s, label in enumerate(SCHEMES.values()):
        print(f"\n{label}: median rank of the true structure (optimistic)")
        print("  n       " + "".join(f"{name:>9}" for name in SCORES))
        for k, n in enumerate(sizes):
            medians = np.median(optimistic[s, :, k], axis=1)
            print(f"  {n:<8}" + "".join(f"{m:>9.1f}" for m in medians))
        q1, q3 = np.percentile(optimistic[s, :, -1], [25, 75], axis=1)
        worst = np.median(pessimistic[s, :, -1], axis=1)
        print(f"  at n = {sizes[-1]}: quartiles (optimistic) and median pessimistic rank")
        for c, name in enumerate(SCORES):
            print(f"    {name:<8} [{q1[c]:.0f}, {q3[c]:.0f}]   pessimistic median {worst[c]:.0f}")


def results(optimistic, pessimistic, config, n_edges):
    """Median and quartiles of the optimistic rank per scheme and size (``_summary.py``)."""
    by_scheme = {}
    for s, scheme in enumerate(SCHEMES):
        q1, median, q3 = np.percentile(optimistic[s], [25, 50, 75], axis=2)
        by_size = {
            n: {
                "median": dict(zip(SCORES, median[:, k], strict=True)),
                "q1": dict(zip(SCORES, q1[:, k], strict=True)),
                "q3": dict(zip(SCORES, q3[:, k], strict=True)),
            }
            for k, n in enumerate(config["sizes"])
        }
        worst = np.median(pessimistic[s, :, -1], axis=1)
        by_scheme[scheme] = {
            "label": SCHEMES[scheme],
            "by_size": by_size,
            "pessimistic_median_at_largest": dict(zip(SCORES, worst, strict=True)),
        }
    return {
        "dags": N_DAGS_5,
        "edges": n_edges,
        "structures": config["networks"],
        "datasets": config["datasets"],
        "repetitions": optimistic.shape[-1],
        "by_scheme": by_scheme,
    }


def plot(optimistic, config, n_edges, path):
    sizes = config["sizes"]
    fig, axes = plt.subplots(1, 2, figsize=(12, 5), sharey=True)
    for s, (ax, label) in enumerate(zip(axes, SCHEMES.values(), strict=True)):
        for c, name in enumerate(SCORES):
            q1, med, q3 = np.percentile(optimistic[s, c], [25, 50, 75], axis=1)
            line = "--" if name == "BD1/2" else "-"  # BD1/2 often overlaps fNML
            ax.plot(sizes, med, marker="o", ls=line, color=COLORS[name], label=name, lw=1.8, ms=4)
            ax.fill_between(sizes, q1, q3, color=COLORS[name], alpha=0.12, lw=0)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_ylim(0.8, N_DAGS_5 * 1.3)
        ax.set_title(label, fontsize=11)
        ax.set_xlabel("sample size N")
        ax.grid(True, which="major", alpha=0.3)
    axes[0].set_ylabel("optimistic rank of the generating DAG\n(median; shaded: quartiles)")
    axes[1].legend(title="score", loc="upper right", fontsize=9)
    reps = optimistic.shape[-1]
    fig.suptitle(
        f"Rank of the true structure among all {N_DAGS_5} 5-node DAGs, {n_edges}-edge networks "
        f"({reps} repetitions per point; lower is better)",
        fontsize=12,
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small smoke run (3 networks)")
    parser.add_argument("--out", default=str(Path(__file__).parent / "output"), help="output dir")
    parser.add_argument("--edges", type=int, default=7, choices=[4, 7], help="edges per network")
    parser.add_argument("--seed", type=int, default=0, help="seed of networks and data")
    args = parser.parse_args(argv)
    config = QUICK if args.quick else FULL
    start = time.perf_counter()
    optimistic, pessimistic = run(config, args.edges, args.seed)
    summarize(optimistic, pessimistic, config, args.edges)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "rank_of_true_structure.png"
    plot(optimistic, config, args.edges, path)
    print(f"\nsaved figure: {path}")
    summary = results(optimistic, pessimistic, config, args.edges)
    seconds = time.perf_counter() - start
    path = write_summary(out, path.stem, summary, quick=args.quick, seconds=seconds)
    print(f"summary written to {path}")
    print(f"done in {seconds:.1f} s")


if __name__ == "__main__":
    main()
