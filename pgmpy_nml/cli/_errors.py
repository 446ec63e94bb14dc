"""The user's mistake: :class:`UserError`, one line on stderr and exit code 2."""

from __future__ import annotations


class UserError(Exception):
    """A mistake in the command line or the files: one line, exit code 2."""
