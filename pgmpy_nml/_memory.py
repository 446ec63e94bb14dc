"""How much memory there is: the searches check their needs against it before allocating."""

from __future__ import annotations

import os

__all__ = ["available_memory", "format_bytes"]


def available_memory() -> int:
    """Bytes of memory available now (MemAvailable on Linux), or the physical total."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def format_bytes(n_bytes: float) -> str:
    """``n_bytes`` in GB from a quarter GB up, in MB below."""
    return f"{n_bytes / 2**30:.1f} GB" if n_bytes >= 2**28 else f"{n_bytes / 2**20:.0f} MB"
