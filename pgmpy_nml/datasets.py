"""Classic discrete Bayesian networks bundled with the package, and data sampled from them.

The networks are read from BIF files shipped inside the package (no download),
so examples and tests run offline.
"""

from __future__ import annotations

import gzip
import warnings
from importlib import resources

__all__ = [
    "EXAMPLE_DATA",
    "available_networks",
    "load_example_data",
    "load_network",
    "sample_network",
]

#: The bundled example data set: 3000 rows sampled from the survey network (seed 2026).
EXAMPLE_DATA = "survey.csv"


def available_networks() -> list[str]:
    """Names of the bundled networks.

    Examples
    --------
    >>> from pgmpy_nml.datasets import available_networks
    >>> "survey" in available_networks()
    True
    """
    folder = resources.files("pgmpy_nml") / "data"
    return sorted(
        p.name.removesuffix(".bif.gz") for p in folder.iterdir() if p.name.endswith(".bif.gz")
    )


def load_network(name: str):
    """A bundled classic network as a pgmpy ``DiscreteBayesianNetwork``.

    Parameters
    ----------
    name : str
        One of :func:`available_networks` (asia, cancer, child, earthquake,
        sachs, survey), from the bnlearn repository's BIF files.

    Examples
    --------
    >>> from pgmpy_nml.datasets import load_network
    >>> sorted(load_network("cancer").edges())[:2]
    [('Cancer', 'Dyspnoea'), ('Cancer', 'Xray')]
    """
    from pgmpy.readwrite import BIFReader

    names = available_networks()
    if name not in names:
        raise ValueError(f"Unknown network {name!r}; bundled networks are {names}.")
    path = resources.files("pgmpy_nml") / "data" / f"{name}.bif.gz"
    with path.open("rb") as fh:
        text = gzip.decompress(fh.read()).decode("utf-8")
    return BIFReader(string=text).get_model()


def sample_network(name: str, n_samples: int, seed: int | None = 0):
    """Sample a data set from a bundled network (forward sampling).

    Parameters
    ----------
    name : str
        A bundled network, see :func:`available_networks`.
    n_samples : int
        Number of rows.
    seed : int or None, default 0
        Seed of pgmpy's sampler, for reproducible data.

    Returns
    -------
    model : DiscreteBayesianNetwork
        The generating network.
    data : pandas.DataFrame
        ``n_samples`` rows, one categorical column per node.

    Examples
    --------
    >>> from pgmpy_nml.datasets import sample_network
    >>> model, data = sample_network("survey", 100, seed=1)
    >>> data.shape
    (100, 6)
    """
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
