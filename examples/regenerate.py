"""Regenerate the README's figures and their summaries from full runs of the examples.

Runs every example script (or those named) in full mode, one after the other, each
in a fresh interpreter, writing ``<name>.png`` and ``<name>.json`` into
``docs/images/``; then lists every number the README quotes from those summaries
whose value changed. ``--update-readme`` writes the new values into the README (same
decimals); read the sentences around them again, since a changed number can turn a
claim false, and ``python -m pytest tests/test_examples.py`` checks the claims that
the tests know.

Run (from the repository root, with matplotlib installed; about 6 minutes):

    python examples/regenerate.py                       # every example
    python examples/regenerate.py optimal_ess           # only some
    python examples/regenerate.py --update-readme       # and rewrite the quoted numbers
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
README = ROOT / "README.md"
#: The examples whose figures the README shows, in the order they are run.
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
        "--update-readme", action="store_true", help="write the new numbers into README.md"
    )
    parser.add_argument(
        "--no-run", action="store_true", help="only compare the README with the summaries"
    )
    args = parser.parse_args(argv)
    unknown = sorted(set(args.names) - set(EXAMPLES))
    if unknown:
        parser.error(f"unknown examples {unknown}; choose among {', '.join(EXAMPLES)}")
    if not args.no_run:
        for name in args.names or EXAMPLES:
            run(name)
    text = README.read_text(encoding="utf-8")
    changes = changed_quotes(text)
    for match, new in changes:
        line = text.count("\n", 0, match.start()) + 1
        print(f"README.md:{line}: {match['name']}:{match['path']} {match['number']} -> {new}")
    if not changes:
        print("Every number the README quotes matches the summaries in docs/images/.")
    elif args.update_readme:
        for match, new in reversed(changes):  # from the end, so earlier offsets hold
            text = text[: match.start("number")] + new + text[match.end("number") :]
        README.write_text(text, encoding="utf-8")
        print(f"README.md updated ({len(changes)} numbers); re-read the sentences around them.")
    else:
        print("Run with --update-readme to write them, then re-read the sentences around them.")
    return 1 if changes and not args.update_readme else 0


if __name__ == "__main__":
    sys.exit(main())
