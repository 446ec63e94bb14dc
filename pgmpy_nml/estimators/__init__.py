"""Parameter estimators for pgmpy's discrete Bayesian networks."""

from .em import EMEstimator
from .fsnml import FSNMLEstimator

__all__ = ["EMEstimator", "FSNMLEstimator"]
