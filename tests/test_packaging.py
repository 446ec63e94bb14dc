"""What a package needs: license, citation, one version, honest classifiers."""

import re
from pathlib import Path

import pytest

import pgmpy_nml

ROOT = Path(__file__).resolve().parents[1]
tomllib = pytest.importorskip("tomllib")  # Python >= 3.11; the 3.10 leg skips these


@pytest.fixture(scope="module")
def project():
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_mit_license_file_and_spdx_expression(project):
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "2026 pgmpy-nml developers" in text
    assert project["license"] == "MIT"  # SPDX string; the TOML-table form is deprecated
    assert project["license-files"] == ["LICENSE"]
    assert not any("License ::" in c for c in project["classifiers"])  # PEP 639


def test_version_lives_in_one_place(project):
    assert project["dynamic"] == ["version"] and "version" not in project
    assert re.fullmatch(r"\d+\.\d+\.\d+(\.dev\d+|rc\d+)?", pgmpy_nml.__version__)
    citation = (ROOT / "CITATION.cff").read_text(encoding="utf-8")
    assert not re.search(r"^version:", citation, flags=re.M)


def test_classifiers_list_exactly_the_pythons_ci_runs(project):
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    ci_versions = re.search(r'^SUPPORTED_PYTHONS="([\d. ]+)"', ci, flags=re.M).group(1).split()
    listed = [
        c.rsplit(" :: ", 1)[1]
        for c in project["classifiers"]
        if re.fullmatch(r"Programming Language :: Python :: 3\.\d+", c)
    ]
    assert sorted(listed) == sorted(ci_versions)
    assert project["requires-python"] == f">={min(ci_versions, key=lambda v: int(v[2:]))}"


def test_mypy_checks_the_package_for_the_oldest_supported_python():
    with (ROOT / "pyproject.toml").open("rb") as f:
        config = tomllib.load(f)
    mypy = config["tool"]["mypy"]
    assert config["project"]["requires-python"] == f">={mypy['python_version']}"
    assert mypy["packages"] == ["pgmpy_nml"]


def test_citation_cites_the_package_and_the_seed_papers():
    yaml = pytest.importorskip("yaml")
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert cff["cff-version"] == "1.2.0" and cff["type"] == "software"
    assert cff["title"].startswith("pgmpy-nml") and cff["license"] == "MIT"
    assert cff["message"] and cff["authors"]
    cited = {(r["authors"][0]["family-names"], r["year"]) for r in cff["references"]}
    assert cited == {
        ("Silander", 2010),
        ("Wettig", 2007),
        ("Steck", 2008),
        ("Silander", 2018),
        ("Scanagatta", 2014),
    }
    for ref in cff["references"]:
        assert ref["type"] in ("article", "conference-paper") and ref["title"]


def test_lazy_loader_is_a_core_dependency(project):
    # the public list (__init__.pyi) is read by lazy_loader.attach_stub at import
    assert any(re.match(r"lazy_loader>=0\.4\b", d) for d in project["dependencies"])


def _stubs():
    package = ROOT / "pgmpy_nml"
    return sorted(str(p.relative_to(package)) for p in package.rglob("*.pyi"))


def test_every_stub_is_package_data():
    import fnmatch

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["pgmpy_nml"]
    stubs = _stubs()
    assert "__init__.pyi" in stubs and "scores/__init__.pyi" in stubs
    for stub in stubs:
        assert any(fnmatch.fnmatchcase(stub, p) for p in patterns), f"{stub} is not shipped"


@pytest.mark.integration
def test_the_wheel_and_the_sdist_ship_the_stubs(tmp_path):
    import subprocess
    import sys
    import tarfile
    import zipfile

    setuptools = pytest.importorskip("setuptools")
    if int(setuptools.__version__.split(".")[0]) < 77:
        pytest.skip("building needs setuptools >= 77 (pyproject's build-system)")
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    src = tmp_path / "src"
    for name in files:
        if (ROOT / name).is_file():
            (src / name).parent.mkdir(parents=True, exist_ok=True)
            (src / name).write_bytes((ROOT / name).read_bytes())
    code = (
        "from setuptools import build_meta as b\n"
        f"b.build_wheel({str(tmp_path)!r}); b.build_sdist({str(tmp_path)!r})\n"
    )
    subprocess.run([sys.executable, "-c", code], cwd=src, capture_output=True, check=True)
    wheel = zipfile.ZipFile(next(tmp_path.glob("*.whl"))).namelist()
    sdist = tarfile.open(next(tmp_path.glob("*.tar.gz"))).getnames()
    for stub in _stubs():
        assert f"pgmpy_nml/{stub}" in wheel
        assert any(n.endswith(f"/pgmpy_nml/{stub}") for n in sdist)
