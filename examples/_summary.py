"""The machine-readable summary every example script writes next to its figure.

``write_summary(out, "optimal_ess", results, quick=...)`` writes ``out/optimal_ess.json``:

.. code-block:: json

    {"script": "examples/optimal_ess.py", "mode": "full", "seconds": 61.2,
     "figure": "optimal_ess.png", "figure_sha256": "...", "results": {...}}

``results`` holds the figures the docs quote, as plain JSON (floats rounded to
six significant digits). A dict under a key that starts with ``by_`` is indexed by
data (sample sizes, networks, schemes), not by name: a quick run fills it with other
keys than a full run, and the tests compare only the schema of its values. The
committed full-run summaries live in ``docs/images/`` beside their PNGs;
``tests/test_examples.py`` checks the docs' numbers against them and that each
PNG is the one its summary was written with (``figure_sha256``).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from pathlib import Path

import numpy as np

#: Significant digits kept for floats: enough for every quoted number, stable to read.
DIGITS = 6


def plain(value):
    """``value`` as plain JSON types: numpy scalars and arrays, tuples, rounded floats."""
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, np.ndarray)):
        return [plain(item) for item in value]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        value = float(value)
        if not math.isfinite(value):
            raise ValueError(f"summary value {value} is not finite; JSON cannot hold it")
        return float(f"{value:.{DIGITS}g}")
    if value is None or isinstance(value, str):
        return value
    raise TypeError(f"summary value {value!r} of type {type(value).__name__} is not JSON")


def write_summary(out, name, results, *, quick, seconds):
    """Write ``out/<name>.json`` for the figure ``out/<name>.png`` (which must exist)."""
    out = Path(out)
    png = out / f"{name}.png"
    summary = {
        "script": f"examples/{name}.py",
        "mode": "quick" if quick else "full",
        "seconds": round(float(seconds), 1),
        "figure": png.name,
        "figure_sha256": hashlib.sha256(png.read_bytes()).hexdigest(),
        "results": plain(results),
    }
    path = out / f"{name}.json"
    path.write_text(dumps(summary), encoding="utf-8")
    return path


def dumps(summary):
    """Indented JSON with every list of plain values on one line."""

    def one_line(match):
        return "[" + re.sub(r"\s*\n\s*", " ", match[1]).strip() + "]"

    text = json.dumps(summary, indent=2, ensure_ascii=False)
    return re.sub(r"\[([^\[\]{}]*)\]", one_line, text) + "\n"


# -- numbers quoted in the docs ---------------------------------------------------------
#: A number the docs quote from a summary, marked by an HTML comment right after it
#: (GitHub and PyPI do not render comments), e.g.
#: ``alpha = 7.45<!-- optimal_ess: by_network.sachs.eq18_alpha -->``: the value at that
#: path of ``docs/images/optimal_ess.json``'s ``results``, written with as many decimals.
QUOTE = re.compile(
    r"(?P<number>-?\d[\d,]*(?:\.\d+)?)(?P<unit>%?)"
    r"<!--\s*(?P<name>\w+):\s*(?P<path>[^\s>]+)\s*-->"
)


def quotes(text):
    """Every marked number of ``text``: ``re.Match`` objects with the groups above."""
    return list(QUOTE.finditer(text))


def lookup(results, path):
    """The value at a dotted ``path`` (dict keys, list indices) of a summary's results."""
    value = results
    for part in path.split("."):
        if isinstance(value, list):
            value = value[int(part)]
        elif isinstance(value, dict) and part in value:
            value = value[part]
        else:
            raise KeyError(f"{path!r}: no {part!r} in the summary")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{path!r} is {value!r}, not a number")
    return value


def written_like(number, value):
    """``value`` written as the docs write ``number`` (decimals, thousands commas)."""
    decimals = len(number.split(".")[1]) if "." in number else 0
    return f"{value:{',' if ',' in number else ''}.{decimals}f}"
