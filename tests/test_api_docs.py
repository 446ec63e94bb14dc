"""Every public object has a numpydoc docstring with an example (run by --doctest-modules)."""

import inspect

import pytest

import pgmpy_nml
from pgmpy_nml import datasets, exceptions, search, study
from pgmpy_nml.analysis import ess as analysis_ess
from pgmpy_nml.analysis import forest as analysis_forest
from pgmpy_nml.analysis import saturation as analysis_saturation
from pgmpy_nml.numerics import regret as numerics_regret
from pgmpy_nml.numerics import snml as numerics_snml
from pgmpy_nml.numerics import snml_bounds

MODULES = [
    pgmpy_nml,
    datasets,
    search,
    study,
    numerics_regret,
    numerics_snml,
    snml_bounds,
    analysis_forest,
    analysis_ess,
    analysis_saturation,
    exceptions,
]

NO_EXAMPLE_NEEDED = {"__version__", "EXAMPLE_DATA"}


def public_objects():
    for module in MODULES:
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if name in NO_EXAMPLE_NEEDED or not (inspect.isclass(obj) or inspect.isfunction(obj)):
                continue  # modules and constants
            if inspect.isclass(obj) and issubclass(obj, Exception):
                continue  # raised, not called: its message is its documentation
            yield f"{module.__name__}.{name}", obj


@pytest.mark.parametrize(
    ("name", "obj"), list(public_objects()), ids=lambda x: x if isinstance(x, str) else ""
)
def test_public_object_has_a_numpydoc_docstring_with_an_example(name, obj):
    doc = inspect.getdoc(obj) or ""
    assert len(doc) > 80, f"{name} has no real docstring"
    assert "Examples\n--------" in doc and ">>> " in doc, f"{name} has no example"
    if callable(obj) and not inspect.isclass(obj):
        params = [
            p
            for p in inspect.signature(obj).parameters
            if p not in ("self", "args", "kwargs", "options")
        ]
        if params:
            assert "Parameters\n----------" in doc, f"{name} does not document its parameters"
