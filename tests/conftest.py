"""Fixtures shared by several test files.

* ``random_data``: random discrete data with dependence between the columns;
* ``network_sample``: samples of pgmpy's example networks, drawn once per session;
* ``cli``: the installed console script run as a subprocess.

The slow independent references (brute force, mpmath) live in ``_reference.py``.
"""

import functools
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pgmpy_nml.datasets import sample_network


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


@functools.cache
def _network_sample(name, n, seed):
    return sample_network(name, n, seed=seed)


@pytest.fixture(scope="session")
def network_sample():
    """``network_sample(name, n, seed)`` -> ``(model, data)`` of ``sample_network``.

    Drawn once per session for each argument tuple; each call returns fresh copies.
    """

    def sample(name, n, seed):
        model, data = _network_sample(name, n, seed)
        return model.copy(), data.copy()

    return sample


SCRIPT = Path(sys.executable).with_name("pgmpy-nml")


def _run_cli(*argv, env=None, cwd=None):
    """Run the installed console script (``python -m pgmpy_nml`` if it is not on disk);
    ``env`` adds to the environment. Returns (exit code, stdout, stderr)."""
    command = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "pgmpy_nml"]
    result = subprocess.run(
        [*command, *map(str, argv)],
        capture_output=True,
        text=True,
        timeout=600,
        env=None if env is None else {**os.environ, **env},
        cwd=cwd,
    )
    return result.returncode, result.stdout, result.stderr


@pytest.fixture(scope="session")
def cli():
    """``cli(*argv, env=None, cwd=None)`` -> ``(code, stdout, stderr)`` of the console script."""
    return _run_cli
