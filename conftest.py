"""Test-run options shared by tests/ and the doctests of pgmpy_nml/.

Slow checks (``@pytest.mark.slow``) run only when a ``-m`` expression names them
(``-m slow``), so that ``-m "not integration"`` gives the fast loop without also
switching the slow ones on.
"""


def pytest_collection_modifyitems(config, items):
    if "slow" in (config.getoption("markexpr") or ""):
        return
    slow = [item for item in items if item.get_closest_marker("slow")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow")]
