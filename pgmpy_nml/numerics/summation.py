"""Compensated summation for compiled loops (Neumaier's variant of Kahan's algorithm)."""

from __future__ import annotations

from .._jit import njit

__all__ = ["neumaier_add"]


@njit(cache=True, nogil=True)
def neumaier_add(total, compensation, term):  # pragma: no cover - compiled
    """One step of Neumaier summation: ``(total + term, updated compensation)``.

    The running sum is ``total + compensation``; the compensation collects the
    rounding error of each addition, whichever operand is larger, so a sum of
    ``n`` terms is accurate to a few ulp instead of ``n`` ulp.

    Examples
    --------
    >>> total, comp = 0.0, 0.0
    >>> for term in (1.0, 1e100, 1.0, -1e100):
    ...     total, comp = neumaier_add(total, comp, term)
    >>> total + comp
    2.0
    """
    y = total + term
    if abs(total) >= abs(term):
        compensation += (total - y) + term
    else:
        compensation += (term - y) + total
    return y, compensation
