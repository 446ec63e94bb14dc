"""TEMPORARY stand-in for the log rising factorial (replaced by the numerics branch)."""

import math

import numpy as np
from numba import njit, vectorize


@njit(cache=True, nogil=True)
def log_rising(a, n):
    """``lgamma(n + a) - lgamma(a)``."""
    if n == 0:
        return 0.0
    return math.lgamma(n + a) - math.lgamma(a)


@vectorize(["float64(float64, float64)"], cache=True)
def _log_rising_ufunc(a, n):
    return log_rising(a, n)


def log_rising_array(a, n):
    return _log_rising_ufunc(np.asarray(a, dtype=np.float64), np.asarray(n, dtype=np.float64))
