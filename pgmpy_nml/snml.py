"""Sequential NML and its regret bounds, under their first name.

The code is in :mod:`pgmpy_nml.numerics.snml` (sNML code lengths, fsNML parameters)
and :mod:`pgmpy_nml.numerics.snml_bounds` (Theorems 4-6).
"""

from ._moved import forward

__all__, __getattr__, __dir__ = forward(
    __name__, "pgmpy_nml.numerics.snml", "pgmpy_nml.numerics.snml_bounds"
)
