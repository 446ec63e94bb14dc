"""``python -m pgmpy_nml``: the command-line tool."""

import sys

from .cli import run

sys.exit(run())
