"""Sphinx configuration of the pgmpy-nml docs: user guide, command line, API reference,
benchmarks and design (built with -W in CI: warnings are errors)."""

from pgmpy_nml import __version__

project = "pgmpy-nml"
author = "pgmpy-nml developers"
copyright = "2026, pgmpy-nml developers"
release = __version__
version = ".".join(__version__.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_parser",  # the guide, CLI, benchmark and design pages are Markdown
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
# "#section" links between pages resolve to headings (GitHub computes the same slugs)
myst_heading_anchors = 3

autosummary_generate = True
# scikit-learn's metadata-routing helpers (set_fit_request) are not ours to document
autodoc_default_options = {
    "members": True,
    "exclude-members": ",".join(
        f"set_{name}"
        for name in (
            "fit_request",
            "transform_request",
            "inverse_transform_request",
            "score_request",
            "output",
        )
    ),
}
autodoc_typehints = "none"  # numpydoc documents the types
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
exclude_patterns = ["_build", "images"]
html_theme = "alabaster"
nitpicky = False
