"""Parameter estimators for pgmpy's discrete Bayesian networks."""

from .fsnml import FSNMLEstimator

__all__ = ["FSNMLEstimator"]
