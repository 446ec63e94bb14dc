"""Fixtures shared by several test files.

* ``random_data``: random discrete data with dependence between the columns;
* ``make_test_score``: the scores of this package and of pgmpy (new and legacy API) by
  a short name, for the tests that run every kind of score through a search;
* ``network_sample``: samples of the bundled networks, drawn once per session; ``asia``
  and ``cancer``: the small samples the study tests share;
* ``random_network``: a random fitted network with random CPDs; ``with_holes``: data with
  cells missing completely at random (the tests of incomplete data);
* ``cli``: the installed console script run as a subprocess; ``cli_summary`` runs it
  with ``--json`` and returns the summary it writes;
* ``compiled_last_level`` (automatic): the candidate search compiles its last level on
  data of any width in this process, so that the tests' small data take that path too
  (the package does from 100 variables on, or where memory requires:
  ``pgmpy_nml.search.candidates._final.ready``; ``tests/test_final_level.py`` tests the
  rule and compares the two paths).

The slow independent references (brute force, mpmath) live in ``_reference.py``.
"""

import functools
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from pgmpy.structure_score import AIC, BIC, K2, LogLikelihood
from pgmpy.structure_score import BDeu as PgmpyBDeu

from pgmpy_nml import FNML, QNML, BDConstant, BDeu, MaxBDeu, MinBDeu
from pgmpy_nml.datasets import sample_network
from pgmpy_nml.search.candidates import _final

with warnings.catch_warnings():
    warnings.simplefilter("ignore", FutureWarning)
    from pgmpy.estimators import BDeu as LegacyBDeu


@pytest.fixture(scope="session", autouse=True)
def compiled_last_level():
    """The compiled last level on every width of data (see the module notes)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_final, "MIN_VARIABLES", 0)
        yield


def _random_data(n, arities, seed, max_arity=3):
    """``n`` rows of discrete columns, each copying an earlier column (mod its arity) in
    60% of the rows and uniform otherwise.

    ``arities`` is a sequence of arities (columns ``V0, V1, ...``), a dict
    ``{column: arity}``, or a number of columns whose arities are drawn from
    ``2..max_arity``. The same ``seed`` gives the same data.
    """
    rng = np.random.default_rng(seed)
    if isinstance(arities, int):
        arities = rng.integers(2, max_arity + 1, arities)
    if not isinstance(arities, dict):
        arities = {f"V{i}": r for i, r in enumerate(arities)}
    cols = {}
    for i, (name, r) in enumerate(arities.items()):
        x = rng.integers(0, r, n)
        if i:
            parent = cols[list(cols)[rng.integers(0, i)]]
            x = np.where(rng.random(n) < 0.6, parent % r, x)
        cols[name] = x
    return pd.DataFrame(cols)


@pytest.fixture(scope="session")
def random_data():
    """``random_data(n, arities, seed, max_arity=3)``: see :func:`_random_data`."""
    return _random_data


#: name -> factory(data) of every kind of score the searches take.
SCORES = {
    "fnml": FNML,
    "qnml": QNML,
    "bdeu": lambda d: BDeu(d, equivalent_sample_size=3.0),
    "bd1/2": lambda d: BDConstant(d, alpha=0.5),
    "min-bdeu": MinBDeu,
    "max-bdeu": MaxBDeu,
    "pgmpy-bdeu": lambda d: PgmpyBDeu(d, equivalent_sample_size=2.0),
    "legacy-bdeu": lambda d: LegacyBDeu(d, equivalent_sample_size=2.0),
    "pgmpy-k2": K2,
    "pgmpy-bic": BIC,
    "pgmpy-aic": AIC,
    "pgmpy-ll": LogLikelihood,
}


def _random_network(seed, n_variables=5, max_arity=3, max_parents=3, edge_probability=0.5):
    """A fitted DiscreteBayesianNetwork over ``V0..V{n-1}``: a random DAG (each edge of a
    random order with ``edge_probability``, at most ``max_parents`` parents), arities
    ``2..max_arity``, each CPD column drawn from a Dirichlet(0.7) (some entries small)."""
    from pgmpy.factors.discrete import TabularCPD
    from pgmpy.models import DiscreteBayesianNetwork

    rng = np.random.default_rng(seed)
    names = [f"V{i}" for i in range(n_variables)]
    order = [names[i] for i in rng.permutation(n_variables)]
    arity = {v: int(rng.integers(2, max_arity + 1)) for v in names}
    parents = {v: [] for v in names}
    for j, child in enumerate(order):
        for parent in order[:j]:
            if len(parents[child]) < max_parents and rng.random() < edge_probability:
                parents[child].append(parent)
    model = DiscreteBayesianNetwork([(p, v) for v in names for p in parents[v]])
    model.add_nodes_from(names)
    for v in names:
        ps = parents[v]
        q = int(np.prod([arity[p] for p in ps])) if ps else 1
        values = rng.dirichlet(np.full(arity[v], 0.7), size=q).T
        model.add_cpds(
            TabularCPD(
                v,
                arity[v],
                values,
                evidence=ps or None,
                evidence_card=[arity[p] for p in ps] or None,
                state_names={u: list(range(arity[u])) for u in [v, *ps]},
            )
        )
    return model


@pytest.fixture(scope="session")
def random_network():
    """``random_network(seed, n_variables=5, max_arity=3, max_parents=3,
    edge_probability=0.5)``: a random fitted network (see :func:`_random_network`)."""
    return _random_network


def _with_holes(data, fraction, seed):
    """``data`` as objects with each cell missing (None) with probability ``fraction``."""
    mask = np.random.default_rng(seed).random(data.shape) < fraction
    return data.astype(object).mask(mask)


@pytest.fixture(scope="session")
def with_holes():
    """``with_holes(data, fraction, seed)``: cells missing completely at random."""
    return _with_holes


@pytest.fixture(scope="session")
def make_test_score():
    """``make_test_score(name, data)``: the score ``SCORES[name]`` on ``data``."""
    return lambda name, data: SCORES[name](data)


@functools.cache
def _network_sample(name, n, seed):
    return sample_network(name, n, random_state=seed)


@pytest.fixture(scope="session")
def network_sample():
    """``network_sample(name, n, seed)`` -> ``(model, data)`` of ``sample_network``.

    Drawn once per session for each argument tuple; each call returns fresh copies.
    """

    def sample(name, n, seed):
        model, data = _network_sample(name, n, seed)
        return model.copy(), data.copy()

    return sample


@pytest.fixture(scope="session")
def asia(network_sample):
    """(model, data): 800 rows of the asia network (seed 3)."""
    return network_sample("asia", 800, seed=3)


@pytest.fixture(scope="session")
def cancer(network_sample):
    """(model, data): 400 rows of the cancer network (seed 4)."""
    return network_sample("cancer", 400, seed=4)


@pytest.fixture(scope="session")
def alarm_csv(network_sample, tmp_path_factory):
    """Path of a CSV file of 1000 rows of the alarm network (seed 0), for CLI runs."""
    _, data = network_sample("alarm", 1000, seed=0)
    path = tmp_path_factory.mktemp("alarm") / "alarm.csv"
    data.to_csv(path, index=False)
    return path


SCRIPT = Path(sys.executable).with_name("pgmpy-nml")


def _run_cli(*argv, env=None, cwd=None):
    """Run the installed console script (``python -m pgmpy_nml`` if it is not on disk)
    with PYTHONHASHSEED=0; ``env`` adds to (or overrides) the environment.
    Returns (exit code, stdout, stderr)."""
    command = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "pgmpy_nml"]
    result = subprocess.run(
        [*command, *map(str, argv)],
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONHASHSEED": "0", **(env or {})},
        cwd=cwd,
    )
    return result.returncode, result.stdout, result.stderr


@pytest.fixture(scope="session")
def cli():
    """``cli(*argv, env=None, cwd=None)`` -> ``(code, stdout, stderr)`` of the console script."""
    return _run_cli


@pytest.fixture(scope="session")
def cli_summary(tmp_path_factory):
    """``cli_summary(*argv, env=None, cwd=None)`` -> ``(stdout, summary)``: the console
    script run with ``--json FILE``; it must succeed, ``summary`` is FILE's content."""

    def run(*argv, **options):
        summary = tmp_path_factory.mktemp("summary") / "summary.json"
        code, out, err = _run_cli(*argv, "--json", summary, **options)
        assert code == 0, err
        return out, json.loads(summary.read_text())

    return run
