"""Test-run options shared by tests/ and the doctests of pgmpy_nml/.

``python -m pytest`` runs the quick selection: every module, in a few minutes on two
cores. Two markers hold the rest, each run only when a ``-m`` expression names it:

- ``long``: the long integration and property runs (command-line runs in fresh
  processes, the engines side by side, searches against brute force on many data
  sets); ``python -m pytest -m long`` runs them, and ``.ci/run`` does after the quick
  selection;
- ``slow``: the longest high-precision and exhaustive checks (``-m slow``), for a
  release.

``-m "not integration"`` still gives the fast loop without switching either on.
"""

#: Markers whose tests run only when the ``-m`` expression names them.
OPT_IN = ("long", "slow")


def pytest_collection_modifyitems(config, items):
    expression = config.getoption("markexpr") or ""
    skipped = [m for m in OPT_IN if m not in expression]
    if not skipped:
        return
    chosen = [item for item in items if not any(item.get_closest_marker(m) for m in skipped)]
    if len(chosen) < len(items):
        kept = set(map(id, chosen))
        config.hook.pytest_deselected(items=[item for item in items if id(item) not in kept])
        items[:] = chosen
