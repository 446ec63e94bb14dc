"""The package's layers: no module imports a higher layer (CONTRIBUTING.md, "How the
package is layered")."""

import ast
from pathlib import Path

import pgmpy_nml

PACKAGE = Path(pgmpy_nml.__file__).resolve().parent

#: Lowest first. A module may import its own layer and the layers below it.
LAYERS = [
    # foundation: the data boundary, argument checks, counting, compilation
    {
        "_compile_times",
        "_compiling",
        "_counted",
        "_csv",
        "_dask",
        "_data",
        "_frames",
        "_estimator",
        "_jit",
        "_lazy",
        "_limits",
        "_memory",
        "_params",
        "_progress",
        "_sparse",
        "_typing",
        "_validate",
        "exceptions",
    }
    | {"_version"}
    | {"_progress"}
    | {"datasets"},
    {"numerics"},  # special functions, NML normalizers, sNML
    {"_counting"},  # compiled counting of families and of all subsets (log-rising sums)
    {"scores", "estimators"},  # structure scores, parameter estimators
    {"models", "evaluate", "_network_files"},  # fitted networks, their files, evaluation
    {"search"},  # exact and local structure search
    {"analysis", "study"},  # the papers' analysis tools, the study tools
    {"cli", "__main__"},  # the command line
]
LEVEL = {part: i for i, layer in enumerate(LAYERS) for part in layer}


def _modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts == ("__init__",):
            continue  # the lazy top level: it names every layer
        yield path, parts


def _imports(path, parts):
    """(line, first part below pgmpy_nml) of every import of the package in ``path``."""
    here = list(parts[:-1])  # the package the module is in (itself, for an __init__)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)] if node.level > 1 else here
                if node.level - 1 > len(here):
                    continue
                target = [*base, *(node.module.split(".") if node.module else [])]
                if not target:  # "from .. import x": x is a module of the package
                    target = [node.names[0].name]
            elif node.module and node.module.split(".")[0] == "pgmpy_nml":
                target = node.module.split(".")[1:] or [node.names[0].name]
            else:
                continue
            yield node.lineno, target[0]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                names = alias.name.split(".")
                if names[0] == "pgmpy_nml" and len(names) > 1:
                    yield node.lineno, names[1]


def test_every_module_has_a_layer():
    unplaced = {parts[0] for _, parts in _modules()} - set(LEVEL)
    assert not unplaced, f"give {sorted(unplaced)} a layer in tests/test_layers.py"


def test_no_module_imports_a_higher_layer():
    violations = []
    for path, parts in _modules():
        level = LEVEL[parts[0]]
        for line, target in _imports(path, parts):
            if LEVEL.get(target, 0) > level:
                violations.append(f"{'/'.join(parts)}.py:{line} imports {target}")
    assert not violations, "\n".join(violations)


def test_the_walk_sees_relative_and_lazy_imports():
    # numerics.snml imports .._validate at the top; analysis.ess imports ..search in a method
    snml = PACKAGE / "numerics" / "snml.py"
    assert "_validate" in {t for _, t in _imports(snml, ("numerics", "snml"))}
    ess = PACKAGE / "analysis" / "ess.py"
    assert "search" in {t for _, t in _imports(ess, ("analysis", "ess"))}
