"""Every error and warning the package raises on purpose, under one base class each.

Catch :class:`PgmpyNMLError` for any refusal of the package, or the specific class.
Each error also keeps the builtin parent it always had, so ``except ValueError`` and
``except MemoryError`` keep working:

===========================  ================  ====================================================
class                        builtin parent    raised when
===========================  ================  ====================================================
:class:`InputError`          ``ValueError``    an argument or the data is wrong (every input check;
                                               the command line shows it as one line, exit code 2)
:class:`UnknownStateError`   ``ValueError``    a column holds a value not among its declared states
:class:`CsvError`            ``ValueError``    a data file cannot be read as a table
:class:`NetworkFileError`    ``ValueError``    a network that a file format cannot hold
:class:`ForestCostError`     ``ValueError``    the exact forest normalizer would take too many
                                               operations or too much memory
:class:`SearchMemoryError`   ``MemoryError``   a structure search would need more memory than
                                               allowed (nothing was allocated)
===========================  ================  ====================================================

Warnings derive from :class:`PgmpyNMLWarning` (a ``UserWarning``):
:class:`InfiniteLossWarning` (a row has probability 0 under the fitted network),
:class:`SparseFamilyWarning` (a learned family has more parent configurations than rows).

Examples
--------
>>> from pgmpy_nml.exceptions import InputError, PgmpyNMLError
>>> issubclass(InputError, PgmpyNMLError) and issubclass(InputError, ValueError)
True
"""

from __future__ import annotations

from collections.abc import Hashable

__all__ = [
    "CsvError",
    "ForestCostError",
    "InfiniteLossWarning",
    "InputError",
    "NetworkFileError",
    "PgmpyNMLError",
    "PgmpyNMLWarning",
    "SearchMemoryError",
    "SparseFamilyWarning",
    "UnknownStateError",
]


class PgmpyNMLError(Exception):
    """Base class of every error the package raises on purpose (not of bugs)."""


class PgmpyNMLWarning(UserWarning):
    """Base class of every warning the package issues."""


class InputError(PgmpyNMLError, ValueError):
    """A value the caller gave is wrong: raised by the input checks, never by a bug.

    A ``ValueError``, so callers of the API see no difference; the command line
    tells it apart from any other ``ValueError``: input errors are one-line messages with
    exit code 2, anything else is an internal error to report.
    """


class UnknownStateError(InputError):
    """A column holds values that its declared states (``state_names``) do not list.

    Raised by every entry point that takes declared states, e.g. a score built with
    ``state_names`` or :func:`~pgmpy_nml.log_loss` on test data with a state the
    fitted CPDs never declared. ``variable`` is the column, ``values`` the unknown
    values (each once), ``states`` the declared ones.
    """

    def __init__(self, message: str, variable: Hashable, values: list, states: list) -> None:
        super().__init__(message)
        self.variable = variable
        self.values = values
        self.states = states


class CsvError(InputError):
    """A problem with a data file: one line naming the file, the columns and the fix."""


class NetworkFileError(PgmpyNMLError, ValueError):
    """A network that a file format cannot hold, found before anything is written.

    Attributes
    ----------
    variable, state : str or None
        The name the format cannot hold (``state`` is None for a variable's name).
    format : str
        ``"BIF"``, ``"XMLBIF"`` or ``"DOT"``.
    """

    def __init__(self, message: str, variable=None, state=None, format: str = "") -> None:
        super().__init__(message)
        self.variable = variable
        self.state = state
        self.format = format


class ForestCostError(PgmpyNMLError, ValueError):
    """The exact forest normalizer would take too many operations or too much memory."""


class SearchMemoryError(PgmpyNMLError, MemoryError):
    """A structure search would need more memory than allowed; nothing was allocated.

    Raised by the exact search (subset DP, A*), the candidate parent-set pruning and
    the local search's caches alike; the message says how much it needs, how much is
    allowed and what to change (fewer variables, a parent limit, ``max_memory``).

    Attributes
    ----------
    limit_parameter : str or None
        The parameter whose larger value would allow the run (``"max_memory"``), or None
        when the limit is the memory available and only a smaller problem helps
        (``max_parents``).
    """

    def __init__(self, message: str, limit_parameter: str | None = None) -> None:
        super().__init__(message)
        self.limit_parameter = limit_parameter


class InfiniteLossWarning(PgmpyNMLWarning):
    """A log-loss is infinite because a row has probability 0 under the fitted network.

    The message names the first such row's probability-0 entry and how to keep every
    probability positive (fsNML or a Dirichlet prior instead of maximum likelihood).
    """

    # cross-validation's warning sets both (the command line's note reads them)
    procedure: str | None = None
    reason: str | None = None


class SparseFamilyWarning(PgmpyNMLWarning):
    """A learned family has more parent configurations than the data have rows.

    Issued once per fit by the structure searches (not by the study tools' inner fits,
    which cross-validation or the bootstrap already judge on held-out or resampled rows).
    Most of such a family's configurations are seen once or never, and fNML, qNML and
    BDeu can all reward parents that only fit noise on small samples; the message says
    which family is the largest and how to check (a parent limit, compared by
    cross-validation).

    Attributes
    ----------
    families : list of (variable, parents, configurations)
        Every such family, the largest first.
    n_rows : int or float
        The number of rows (the total weight of weighted data).
    """

    families: list = []
    n_rows: float = 0
