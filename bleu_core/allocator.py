"""Keep freed numpy buffers in the heap between scores (glibc only).

A score makes dozens of temporary arrays of a few hundred kilobytes to a few megabytes.  glibc serves
such sizes with fresh ``mmap`` pages, or trims them off the heap once freed, so the next score touches
new pages again: on a 2-core VM the page faults alone took about a third of a cold corpus score.  glibc
raises its thresholds by itself once it has freed a block of the maximum size (32 MiB to map, twice that
to trim); :func:`keep_freed_memory` sets those values before the first score instead.

It acts once per process, when the first statistics are computed (importing ``bleu_core`` changes
nothing), and only on Linux with glibc.  It leaves the allocator alone when the environment already tunes
it (``MALLOC_MMAP_THRESHOLD_``, ``MALLOC_TRIM_THRESHOLD_``, or a ``glibc.malloc`` entry in
``GLIBC_TUNABLES``) or sets ``BLEU_CORE_MALLOC=system``.  The cost: freed memory up to 32 MiB a block
stays in the process for its next allocations instead of going back to the system (the top of the heap
is returned once 64 MiB of it is free).
"""

from __future__ import annotations

import os
import sys
from functools import cache

#: mallopt parameters (glibc's malloc.h) and their values: glibc's dynamic maxima on 64-bit systems.
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 32 * 1024 * 1024
TRIM_THRESHOLD = 2 * MMAP_THRESHOLD


def _tuned_by_environment() -> bool:
    env = os.environ
    if env.get("BLEU_CORE_MALLOC") == "system":
        return True
    return (
        "MALLOC_MMAP_THRESHOLD_" in env
        or "MALLOC_TRIM_THRESHOLD_" in env
        or "glibc.malloc" in env.get("GLIBC_TUNABLES", "")
    )


@cache
def keep_freed_memory() -> bool:
    """Set glibc's mmap and trim thresholds once; whether both were set."""
    if not sys.platform.startswith("linux") or _tuned_by_environment():
        return False
    import ctypes  # here: a process that never scores does not load it

    try:
        libc = ctypes.CDLL(None)
        libc.gnu_get_libc_version  # noqa: B018 - only glibc has it (musl does not)
        mallopt = libc.mallopt
    except (OSError, AttributeError, TypeError):  # pragma: no cover - not glibc
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    # The trim threshold first: on its own it only keeps more of the heap's top.
    return bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD)) and bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD))
