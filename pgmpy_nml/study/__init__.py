"""What a study needs after learning one network: trust, comparison, preprocessing.

- Bootstrap arc strength and model averaging: :func:`bootstrap_strength`,
  :func:`custom_strength`, :func:`strength_threshold`, :func:`averaged_network`,
  :func:`plot_strength` (bnlearn's ``boot.strength``, ``averaged.network``,
  ``strength.plot``).
- Cross-validation of whole learning procedures: :class:`LearningProcedure`,
  :func:`cross_validate`, :func:`compare_procedures`, :func:`cv_splits`,
  :func:`predict_target` (bnlearn's ``bn.cv``).
- Per-node scores and equivalence classes: :func:`local_scores`, :func:`cpdag`,
  :func:`is_score_equivalent`.
- Structure metrics: :func:`structural_hamming_distance`,
  :func:`moral_hamming_distance`, :func:`edge_precision_recall`,
  :func:`compare_structures`.
- Discretization: :class:`Discretizer`, :func:`discretize` (bnlearn's ``discretize()``).
"""

from ..scores._binding import rebind_score
from ._procedure import LearningProcedure
from .bootstrap import (
    averaged_network,
    bootstrap_strength,
    custom_strength,
    plot_strength,
    strength_threshold,
)
from .cross_validation import (
    CVComparison,
    CVResult,
    compare_procedures,
    cross_validate,
    cv_splits,
    predict_target,
)
from .discretize import Discretizer, discretize
from .metrics import (
    compare_structures,
    edge_precision_recall,
    moral_hamming_distance,
    structural_hamming_distance,
)
from .scoring import cpdag, is_score_equivalent, local_scores

__all__ = [
    "CVComparison",
    "CVResult",
    "Discretizer",
    "LearningProcedure",
    "averaged_network",
    "bootstrap_strength",
    "compare_procedures",
    "compare_structures",
    "cpdag",
    "cross_validate",
    "custom_strength",
    "cv_splits",
    "discretize",
    "edge_precision_recall",
    "is_score_equivalent",
    "local_scores",
    "moral_hamming_distance",
    "plot_strength",
    "predict_target",
    "rebind_score",
    "strength_threshold",
    "structural_hamming_distance",
]
