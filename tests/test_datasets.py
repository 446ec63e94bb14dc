"""The classic networks come from pgmpy's own offline files; sampling is reproducible."""

import warnings
from pathlib import Path

import pytest

import pgmpy_nml
from pgmpy_nml.datasets import available_networks, load_example_data, load_network, sample_network

PACKAGE = Path(pgmpy_nml.__file__).resolve().parent


def test_package_ships_no_copies_of_pgmpys_networks():
    assert sorted(p.name for p in (PACKAGE / "data").iterdir()) == ["survey.csv"]
    names = set(available_networks())
    assert {"asia", "cancer", "child", "earthquake", "sachs", "survey", "alarm"} <= names
    assert "ecoli70" not in names  # Gaussian networks are not discrete examples


@pytest.mark.long
@pytest.mark.parametrize("name", ["asia", "survey", "child"])
def test_load_network_is_pgmpys_example_model(name):
    from pgmpy.utils import get_example_model

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # deprecated in pgmpy 1.1
        reference = get_example_model(name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # ours warns about nothing
        model = load_network(name)
    assert sorted(model.edges()) == sorted(reference.edges())
    assert sorted(model.nodes()) == sorted(reference.nodes())
    for node in model.nodes():
        assert model.get_cpds(node) == reference.get_cpds(node)


def test_sample_network_is_reproducible_for_a_seed():
    model, first = sample_network("survey", 300, random_state=7)
    _, again = sample_network("survey", 300, random_state=7)
    _, other = sample_network("survey", 300, random_state=8)
    assert first.equals(again) and not first.equals(other)
    assert list(first.columns) == sorted(model.nodes())


def test_unknown_network_names_the_available_ones():
    with pytest.raises(ValueError, match=r"available networks are .*alarm.*survey"):
        load_network("survey2")


def test_example_data_is_shipped():
    data = load_example_data()
    assert data.shape == (3000, 6) and data.notna().all().all()
