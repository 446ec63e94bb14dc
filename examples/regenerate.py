"""Regenerate the docs' figures and their summaries from full runs of the examples.

Runs every example script (or those named) in full mode, one after the other, each
in a fresh interpreter, writing ``<name>.png`` and ``<name>.json`` into
``docs/images/``; then lists every number the README and the docs pages
(``docs/**/*.md``; today ``docs/guide/examples.md`` and ``docs/guide/study.md``)
quote from those summaries whose value changed. ``--update-docs`` writes the new
values into those pages (same decimals); read the sentences around them again, since a
changed number can turn a claim false, and ``python -m pytest tests/test_examples.py``
checks the claims that the tests know.

Run (from the repository root, with matplotlib installed; about 6 minutes):

    python examples/regenerate.py                       # every example
    python examples/regenerate.py optimal_ess           # only some
    python examples/regenerate.py --update-docs         # and rewrite the quoted numbers
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from _summary import lookup, quotes, written_like

ROOT = Path(__file__).resolve().parents[1]
IMAGES = ROOT / "docs" / "images"
#: The pages that may quote the summaries: the README and every Markdown page of the docs.
PAGES = (
    ROOT / "README.md",
    *sorted(path for path in (ROOT / "docs").rglob("*.md") if "_build" not in path.parts),
)
#: The examples whose figures the docs show, in the order they are run.
EXAMPLES = (
    "quickstart",
    "rank_of_true_structure",
    "prediction_and_parsimony",
    "min_max_bdeu",
    "optimal_ess",
    "bootstrap_strength",
)


def run(name):
    """One full run of ``examples/<name>.py`` into ``docs/images``; its printed summary."""
    start = time.perf_counter()
    command = [sys.executable, str(ROOT / "examples" / f"{name}.py"), "--out", str(IMAGES)]
    print(f"== {' '.join(command[1:])}", flush=True)
    subprocess.run(command, check=True, cwd=ROOT)
    print(f"== {name}: {time.perf_counter() - start:.0f} s\n", flush=True)


def changed_quotes(text):
    """``(match, new text)`` for every quoted number that no longer matches its summary."""
    results = {}
    changes = []
    for match in quotes(text):
        name = match["name"]
        if name not in results:
            summary = json.loads((IMAGES / f"{name}.json").read_text(encoding="utf-8"))
            results[name] = summary["results"]
        new = written_like(match["number"], lookup(results[name], match["path"]))
        if new != match["number"]:
            changes.append((match, new))
    return changes


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"examples to run (default: all of {EXAMPLES})")
    parser.add_argument(
        "--update-docs",
        "--update-readme",
        dest="update",
        action="store_true",
        help="write the new numbers into the pages that quote them",
    )
    parser.add_argument(
        "--no-run", action="store_true", help="only compare the pages with the summaries"
    )
    args = parser.parse_args(argv)
    unknown = sorted(set(args.names) - set(EXAMPLES))
    if unknown:
        parser.error(f"unknown examples {unknown}; choose among {', '.join(EXAMPLES)}")
    if not args.no_run:
        for name in args.names or EXAMPLES:
            run(name)
    n_changes = 0
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        changes = changed_quotes(text)
        n_changes += len(changes)
        where = page.relative_to(ROOT)
        for match, new in changes:
            line = text.count("\n", 0, match.start()) + 1
            print(f"{where}:{line}: {match['name']}:{match['path']} {match['number']} -> {new}")
        if changes and args.update:
            for match, new in reversed(changes):  # from the end, so earlier offsets hold
                text = text[: match.start("number")] + new + text[match.end("number") :]
            page.write_text(text, encoding="utf-8")
            print(f"{where} updated ({len(changes)} numbers); re-read the sentences around them.")
    if not n_changes:
        print("Every number the docs quote matches the summaries in docs/images/.")
    elif not args.update:
        print("Run with --update-docs to write them, then re-read the sentences around them.")
    return 1 if n_changes and not args.update else 0


if __name__ == "__main__":
    sys.exit(main())
