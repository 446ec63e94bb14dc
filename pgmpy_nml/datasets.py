"""Classic discrete Bayesian networks, data sampled from them, and the example data.

The networks are the bnlearn repository's, as BIF files that pgmpy itself ships
(``pgmpy/utils/example_models/*.bif.gz``, what ``pgmpy.utils.get_example_model``
reads): nothing is downloaded, so examples and tests run offline. This package
ships only what pgmpy lacks: the example data set ``survey.csv``.
"""

from __future__ import annotations

import gzip
import warnings
from importlib import resources
from typing import TYPE_CHECKING

import numpy as np

from ._params import RandomState

if TYPE_CHECKING:
    from ._typing import RandomState as RandomStateLike

__all__ = [
    "EXAMPLE_DATA",
    "available_networks",
    "load_example_data",
    "load_network",
    "sample_network",
]

#: The bundled example data set: 3000 rows sampled from the survey network (seed 2026).
EXAMPLE_DATA = "survey.csv"


def _network_folder():
    """pgmpy's own folder of bnlearn BIF files (pgmpy 1.1.x ships them)."""
    return resources.files("pgmpy") / "utils" / "example_models"


def available_networks() -> list[str]:
    """Names of the discrete networks available offline (those pgmpy ships).

    asia, cancer, earthquake, sachs and survey (small), alarm, barley, child,
    insurance, mildew and water (medium), hailfinder, hepar2 and win95pts
    (large), and the very large andes, diabetes, link, munin*, pathfinder, pigs.

    Examples
    --------
    >>> from pgmpy_nml.datasets import available_networks
    >>> {"alarm", "asia", "child", "survey"} <= set(available_networks())
    True
    """
    return sorted(
        p.name.removesuffix(".bif.gz")
        for p in _network_folder().iterdir()
        if p.name.endswith(".bif.gz")
    )


def load_network(name: str):
    """A classic network of the bnlearn repository as a pgmpy ``DiscreteBayesianNetwork``.

    Read from the BIF file that pgmpy ships (offline); the same model as
    ``pgmpy.utils.get_example_model(name)``, without its deprecation warning.

    Parameters
    ----------
    name : str
        One of :func:`available_networks` (e.g. asia, cancer, child, earthquake,
        sachs, survey, alarm, insurance).

    Examples
    --------
    >>> from pgmpy_nml.datasets import load_network
    >>> sorted(load_network("cancer").edges())[:2]
    [('Cancer', 'Dyspnoea'), ('Cancer', 'Xray')]
    """
    from pgmpy.readwrite import BIFReader

    names = available_networks()
    if name not in names:
        raise ValueError(f"Unknown network {name!r}; available networks are {', '.join(names)}.")
    path = _network_folder() / f"{name}.bif.gz"
    with path.open("rb") as fh:
        text = gzip.decompress(fh.read()).decode("utf-8")
    return BIFReader(string=text).get_model()


def sample_network(name: str, n_samples: int, *, random_state: RandomStateLike = 0):
    """Sample a data set from a classic network (forward sampling).

    Parameters
    ----------
    name : str
        A network of :func:`available_networks`.
    n_samples : int
        Number of rows.
    random_state : int, numpy Generator or None, default 0
        Seed of pgmpy's sampler, for reproducible data (a Generator: one draw
        from it; None: fresh entropy).

    Returns
    -------
    model : DiscreteBayesianNetwork
        The generating network.
    data : pandas.DataFrame
        ``n_samples`` rows, one categorical column per node.

    Examples
    --------
    >>> from pgmpy_nml.datasets import sample_network
    >>> model, data = sample_network("survey", 100, random_state=1)
    >>> data.shape
    (100, 6)
    """
    seed = RandomState().validate(random_state, "random_state")
    if isinstance(seed, (np.random.Generator, np.random.SeedSequence)):
        seed = int(np.random.default_rng(seed).integers(2**31))
    model = load_network(name)
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=FutureWarning, module=r"pgmpy(\.|$)")
        data = model.simulate(int(n_samples), seed=seed, show_progress=False)
    return model, data[sorted(data.columns)]


def load_example_data():
    """The bundled example data: 3000 rows sampled from the survey network.

    Six variables (A: age, S: sex, E: education, O: occupation, R: residence,
    T: travel), read as strings exactly as the command-line tool reads CSV files.

    Examples
    --------
    >>> from pgmpy_nml.datasets import load_example_data
    >>> data = load_example_data()
    >>> data.shape, list(data.columns)
    ((3000, 6), ['A', 'E', 'O', 'R', 'S', 'T'])
    """
    import pandas as pd

    path = resources.files("pgmpy_nml") / "data" / EXAMPLE_DATA
    with path.open("rb") as fh:
        return pd.read_csv(fh, dtype=str, keep_default_na=False, na_values=[""])
