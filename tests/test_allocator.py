"""glibc malloc's thresholds as the bench and the cells' processes fix them
(:mod:`suites.allocator`): which arrays the heap serves and which are mapped afresh."""

from __future__ import annotations

import ctypes
import subprocess
import sys

import pytest

from kpca_suite.suites.perf.harness import MMAP_THRESHOLD
from kpca_suite.suites.runner import CELL_MMAP_THRESHOLD

_MAPPED = """
import ctypes, sys
import numpy as np
from kpca_suite.suites.allocator import fix_malloc_thresholds
class MallInfo2(ctypes.Structure):
    _fields_ = [(f, ctypes.c_size_t) for f in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                 "fsmblks", "uordblks", "fordblks", "keepcost")]
libc = ctypes.CDLL("libc.so.6")
libc.mallinfo2.restype = MallInfo2
threshold, size = int(sys.argv[1]), int(sys.argv[2])
if threshold:
    assert fix_malloc_thresholds(threshold)
before = libc.mallinfo2().hblks
a = np.empty(size // 8)
print(libc.mallinfo2().hblks - before)
"""

MiB = 2**20


@pytest.mark.parametrize("threshold,size,mapped", [
    (0, 2 * MiB, 1),                      # glibc's default, in a fresh process: mapped, faulted in at every use
    (MMAP_THRESHOLD, 2 * MiB, 0),          # the bench's regime: from the heap
    (0, 64 * MiB, 1),
    (CELL_MMAP_THRESHOLD, 64 * MiB, 0),    # a cell's n x n temporaries stay in the heap
    (CELL_MMAP_THRESHOLD, 1024 * MiB, 1),  # a paper-scale Gram is still returned to the system when freed
])
def test_which_arrays_the_heap_serves(threshold, size, mapped):
    try:
        ctypes.CDLL("libc.so.6").mallinfo2
    except (OSError, AttributeError):
        pytest.skip("no glibc >= 2.33 here")
    out = subprocess.run([sys.executable, "-c", _MAPPED, str(threshold), str(size)], capture_output=True, text=True,
                         check=True)
    assert int(out.stdout.strip()) == mapped
