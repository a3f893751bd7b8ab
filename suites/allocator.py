"""glibc malloc's thresholds, fixed for a process.

glibc serves a block of at least its mmap threshold by mmap and unmaps it on free, so such
a block page-faults in afresh (a fault per 4 KiB) at every use; it returns the heap's free
top above its trim threshold to the system; and it raises both thresholds whenever an
mmapped block is freed, the mmap threshold up to 32 MiB. A process's cost for the same
temporaries therefore depends on what it freed before. :func:`fix_malloc_thresholds` sets
both (``mallopt``), which also turns that adjustment off. Speed only: no computed value
depends on where an array lives.
"""

from __future__ import annotations

import ctypes

_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # mallopt's parameter numbers (malloc.h)


def fix_malloc_thresholds(mmap_threshold: int) -> bool:
    """Serve blocks below ``mmap_threshold`` bytes from the heap, which keeps up to twice that
    free before giving memory back, in this process. True when set; False without glibc, or
    when glibc refuses the threshold (above 32 MiB before glibc 2.35): nothing is changed
    then, since a trim threshold set alone would pin the mmap threshold at 128 KiB."""
    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(_M_MMAP_THRESHOLD, mmap_threshold)) and bool(mallopt(_M_TRIM_THRESHOLD, 2 * mmap_threshold))
