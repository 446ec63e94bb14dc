"""How much memory there is: the searches check their needs against it before allocating."""

from __future__ import annotations

import os

__all__ = ["available_memory", "format_bytes"]


def available_memory() -> int:
    """Bytes this process can still allocate now: the smallest of the memory the system
    has available (``MemAvailable`` on Linux, else the physical total), the room left
    under the address-space limit (``ulimit -v``: the limit minus the process's
    ``VmSize``) and the room left in its cgroup (``memory.max - memory.current``).

    What the process already holds is counted: it is no longer available.
    """
    room = [_system_available()]
    limit = _address_space_room()
    if limit is not None:
        room.append(limit)
    cgroup = _cgroup_room()
    if cgroup is not None:
        room.append(cgroup)
    return max(0, min(room))


def _system_available() -> int:
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def _address_space_room() -> int | None:
    """The address space left under ``RLIMIT_AS`` (None: no limit, or not known)."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, OSError, ValueError):  # pragma: no cover - not POSIX
        return None
    if soft == resource.RLIM_INFINITY or soft < 0:
        return None
    size = _status_bytes("VmSize:")
    return None if size is None else soft - size


def _cgroup_room() -> int | None:
    """What is left under the cgroup (v2) memory limit (None: no limit, or not known);
    the inactive file cache, which the kernel reclaims first, counts as room."""
    try:
        with open("/sys/fs/cgroup/memory.max") as fh:
            limit = fh.read().strip()
        if limit == "max":
            return None
        with open("/sys/fs/cgroup/memory.current") as fh:
            used = int(fh.read().strip())
        with open("/sys/fs/cgroup/memory.stat") as fh:
            for line in fh:
                if line.startswith("inactive_file "):
                    used -= int(line.split()[1])
        return int(limit) - used
    except (OSError, ValueError):
        return None


def _status_bytes(key: str) -> int | None:
    """A ``kB`` line of ``/proc/self/status`` (``VmSize:``, ``VmRSS:``) in bytes."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(key):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def format_bytes(n_bytes: float) -> str:
    """``n_bytes`` in GB from a quarter GB up, in MB below."""
    return f"{n_bytes / 2**30:.1f} GB" if n_bytes >= 2**28 else f"{n_bytes / 2**20:.0f} MB"
