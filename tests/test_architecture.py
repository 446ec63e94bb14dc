"""Guard rails of the package's architecture (CONTRIBUTING.md, "How the package is layered").

- no import cycle between modules, imports inside functions included;
- the layer order inside ``search/``;
- the public list (``__init__.pyi``) is ``__all__`` and every name in it resolves;
- every public estimator passes scikit-learn's ``check_is_fitted`` after ``fit`` only;
- no module over 700 lines and no function over 80, unless a ``# size: <reason>`` says why.
"""

import ast
import importlib
import inspect
import pkgutil
import re
import warnings
from pathlib import Path

import networkx as nx
import numpy as np
import pandas as pd
import pytest
from pgmpy.base import DAG
from sklearn.exceptions import NotFittedError
from sklearn.utils.validation import check_is_fitted

import pgmpy_nml
from pgmpy_nml.study import LearningProcedure

PACKAGE = Path(pgmpy_nml.__file__).resolve().parent

MAX_MODULE_LINES = 700
MAX_FUNCTION_LINES = 80
SIZE_REASON = re.compile(r"^\s*# size: \S")


# -- the import graph ------------------------------------------------------------------
def _module_files():
    """Dotted module name -> file, for every module of the package."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


MODULES = _module_files()


def _is_type_checking(node) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _runtime_nodes(tree, type_checking=False):
    """Every node that can run: ``if TYPE_CHECKING:`` bodies are left out (never executed)
    unless ``type_checking`` (what a type checker reads)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child) and not type_checking:
                stack.extend(child.orelse)
                continue
            stack.append(child)


def imports_of(module: str, type_checking: bool = False) -> set[tuple[str, int]]:
    """(imported module of the package, line) of every import in ``module``.

    Top-level and function-level imports, relative and absolute; ``from . import x``
    and ``from .pkg import x`` mean the module ``x`` when there is one, else ``pkg``.
    ``type_checking``: the imports under ``if TYPE_CHECKING:`` too.
    """
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in _runtime_nodes(tree, type_checking):
        if isinstance(node, ast.Import):
            for alias in node.names:
                name = alias.name
                while name and name not in MODULES:
                    name = name.rpartition(".")[0]
                if name.startswith("pgmpy_nml"):
                    found.add((name, node.lineno))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                base = ".".join([*base, *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            if base.split(".")[0] != "pgmpy_nml":
                continue
            for alias in node.names:
                target = f"{base}.{alias.name}"
                found.add((target if target in MODULES else base, node.lineno))
    return found


def import_graph(type_checking: bool = False) -> nx.DiGraph:
    graph = nx.DiGraph()
    graph.add_nodes_from(MODULES)
    for module in MODULES:
        for target, line in imports_of(module, type_checking):
            if target != module:
                graph.add_edge(module, target, line=line)
    return graph


def test_the_walk_sees_function_level_relative_and_absolute_imports():
    edges = import_graph()
    # analysis.ess imports ..search inside a method; numerics.snml imports .._validate at the top
    assert edges.has_edge("pgmpy_nml.analysis.ess", "pgmpy_nml.search")
    assert edges.has_edge("pgmpy_nml.numerics.snml", "pgmpy_nml._validate")
    # "from . import _kernels" is the module _kernels, not the package
    assert edges.has_edge("pgmpy_nml.search._dp.dp", "pgmpy_nml.search._dp._kernels")
    # TYPE_CHECKING imports never run: evaluate names pgmpy's network only for type hints
    assert not any(t.startswith("pgmpy.") for t, _ in imports_of("pgmpy_nml.evaluate"))


@pytest.mark.parametrize("type_checking", [False, True], ids=["runtime", "with-type-only"])
def test_no_import_cycles_between_modules(type_checking):
    """No cycle, not even through an import that only a type checker reads (such a cycle
    ties two modules as much as a runtime one: neither can move without the other)."""
    graph = import_graph(type_checking)
    cycles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    described = []
    for members in cycles:
        cycle = nx.find_cycle(graph.subgraph(members))
        described.append(
            " -> ".join(f"{u} (line {graph.edges[u, v]['line']})" for u, v in cycle)
            + f" -> {cycle[0][0]}"
        )
    assert not cycles, "import cycles:\n" + "\n".join(described)


# -- layers inside search/ -------------------------------------------------------------
#: What each part of search/ may import from search/ (CONTRIBUTING.md): the estimators on
#: top, the engines' packages under them, the shared pieces at the bottom.
_BOTTOM = {"_base", "_policy", "_result", "constraints"}
SEARCH_MAY_IMPORT = {
    "_find": {"exact", "local", *_BOTTOM},  # chooses between the two estimators
    # structural EM runs the searches on completions; its chain (_em) gets them built
    "structural_em": {"structural_em", "_em", "_find", "exact", "local", *_BOTTOM},
    "_em": {"_em", *_BOTTOM},
    "exact": {"exact", "local", "candidates", "_dp", "_local", *_BOTTOM},
    "local": {"exact", "local", "candidates", "_dp", "_local", *_BOTTOM},
    "order": {"order", "candidates", *_BOTTOM},  # the memetic search over candidates
    "candidates": {"candidates", "_dp", *_BOTTOM},
    "_dp": {"_dp", *_BOTTOM},
    "_local": {"_local", *_BOTTOM},
    **{part: set(_BOTTOM) for part in _BOTTOM},
}


def test_every_part_of_search_has_a_place():
    parts = {m.split(".")[2] for m in MODULES if m.startswith("pgmpy_nml.search.")}
    assert parts == set(SEARCH_MAY_IMPORT), "give the new part a place in SEARCH_MAY_IMPORT"


def test_layer_order_inside_search():
    violations = []
    for module in MODULES:
        if not module.startswith("pgmpy_nml.search."):
            continue
        part = module.split(".")[2]
        for target, line in imports_of(module):
            if target == "pgmpy_nml.search":
                violations.append(f"{module}:{line} imports the search package")
            elif target.startswith("pgmpy_nml.search."):
                if target.split(".")[2] not in SEARCH_MAY_IMPORT[part]:
                    violations.append(f"{module}:{line} imports {target}")
    assert not violations, "\n".join(violations)


# -- the public list -------------------------------------------------------------------
def stub_names(package) -> set[str]:
    """The names that ``package``'s ``__init__.pyi`` imports (what lazy_loader attaches)."""
    stub = Path(package.__file__).with_suffix(".pyi")
    names = set()
    for node in ast.parse(stub.read_text(encoding="utf-8")).body:
        assert isinstance(node, ast.ImportFrom) and node.level == 1, ast.dump(node)
        for alias in node.names:
            assert alias.asname in (None, alias.name), f"{alias.name} re-exported as another name"
            names.add(alias.name)
    return names


@pytest.mark.parametrize("package", ["pgmpy_nml", "pgmpy_nml.scores"])
def test_the_stub_is_the_public_list_and_every_name_resolves(package):
    module = importlib.import_module(package)
    names = stub_names(module)
    assert set(module.__all__) == names
    assert names <= set(dir(module))
    for name in sorted(names):
        assert getattr(module, name) is not None, name
    namespace = {}
    exec(f"from {package} import *", namespace)
    assert names <= set(namespace)
    with pytest.raises(AttributeError, match=f"module '{package}' has no attribute 'nope'"):
        module.nope  # noqa: B018


def test_every_error_of_the_package_is_exported():
    from pgmpy_nml import exceptions

    assert set(exceptions.__all__) <= set(pgmpy_nml.__all__)


# -- check_is_fitted -------------------------------------------------------------------
def fitted_cases():
    """Class -> (unfitted instance, a callable that fits it on tiny data)."""
    from pgmpy_nml import (
        Discretizer,
        EMEstimator,
        ExactSearch,
        FSNMLEstimator,
        LocalSearch,
        OptimalESS,
        OrderSearch,
        StructuralEM,
    )

    rng = np.random.default_rng(0)
    data = pd.DataFrame({c: rng.integers(0, 2, 60) for c in "ABC"})
    numbers = pd.DataFrame({"x": rng.normal(size=60), "y": rng.normal(size=60)})
    holes = data.mask(rng.random(data.shape) < 0.2)
    return {
        ExactSearch: (lambda: ExactSearch("bdeu", show_progress=False), lambda e: e.fit(data)),
        LocalSearch: (lambda: LocalSearch("bdeu", show_progress=False), lambda e: e.fit(data)),
        OrderSearch: (lambda: OrderSearch("bdeu", show_progress=False), lambda e: e.fit(data)),
        OptimalESS: (lambda: OptimalESS(), lambda e: e.fit(data)),
        Discretizer: (lambda: Discretizer("quantile", n_bins=2), lambda e: e.fit(numbers)),
        LearningProcedure: (
            lambda: LearningProcedure("auto", scoring_method="qnml"),
            lambda e: e.fit(data),
        ),
        FSNMLEstimator: (FSNMLEstimator, lambda e: e.fit(DAG([("A", "B")]), data)),
        EMEstimator: (EMEstimator, lambda e: e.fit(DAG([("A", "B")]), holes)),
        StructuralEM: (
            lambda: StructuralEM(show_progress=False, max_iter=2),
            lambda e: e.fit(holes),
        ),
    }


def public_estimators():
    """The classes with ``fit`` in the public list."""
    found = set()
    for name in stub_names(pgmpy_nml):
        obj = getattr(pgmpy_nml, name)
        if inspect.isclass(obj) and callable(getattr(obj, "fit", None)):
            found.add(obj)
    return found


def estimator_classes():
    """Every public class of the package with a fit method, wherever it is defined."""
    found = set()
    for info in pkgutil.walk_packages(pgmpy_nml.__path__, "pgmpy_nml."):
        if info.name.split(".")[-1] in ("__main__", "cli"):
            continue
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if (
                inspect.isclass(obj)
                and obj.__module__.startswith("pgmpy_nml")
                and not name.startswith("_")
                and callable(getattr(obj, "fit", None))
            ):
                found.add(obj)
    return found


def test_every_estimator_of_the_package_is_public_and_covered():
    assert estimator_classes() == public_estimators() == set(fitted_cases())


@pytest.mark.long
@pytest.mark.parametrize("cls", sorted(public_estimators(), key=lambda c: c.__name__))
def test_check_is_fitted_knows_fitted_from_unfitted(cls):
    make, fit = fitted_cases()[cls]
    estimator = make()
    with pytest.raises(NotFittedError):
        check_is_fitted(estimator)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fit(estimator)
    check_is_fitted(estimator)  # no error


# -- sizes -----------------------------------------------------------------------------
def _has_reason(lines: list[str], first: int) -> bool:
    """A ``# size: <reason>`` comment right above line ``first`` (1-based)."""
    above = first - 2
    return above >= 0 and bool(SIZE_REASON.match(lines[above]))


def body_lines(node) -> int:
    """Lines of a function's body, its docstring left out."""
    body = node.body
    if (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    ):
        body = body[1:]
    if not body:
        return 0
    return body[-1].end_lineno - body[0].lineno + 1


def size_offenders(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    where = path.relative_to(PACKAGE.parent)
    found = []
    if len(lines) > MAX_MODULE_LINES and not any(SIZE_REASON.match(x) for x in lines[:40]):
        found.append(f"{where}: {len(lines)} lines")
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            n = body_lines(node)
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            if n > MAX_FUNCTION_LINES and not _has_reason(lines, first):
                found.append(f"{where}:{node.lineno} {node.name}: {n} body lines")
    return found


def test_the_size_check_counts_body_lines_and_reads_reasons():
    source = 'def f():\n    """Doc\n    string."""\n    a = 1\n    return a\n'
    assert body_lines(ast.parse(source).body[0]) == 2
    lines = ["# size: a compiled kernel", "@njit", "def g():"]
    assert _has_reason(lines, 2) and not _has_reason(lines, 3)


def test_no_module_or_function_is_too_long_without_a_reason():
    offenders = [o for path in MODULES.values() for o in size_offenders(path)]
    assert not offenders, (
        f"over {MAX_MODULE_LINES} lines per module or {MAX_FUNCTION_LINES} body lines per "
        "function; split by responsibility, or write `# size: <reason>` (CONTRIBUTING.md):\n"
        + "\n".join(offenders)
    )
