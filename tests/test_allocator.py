"""glibc malloc's thresholds as the bench and the cells' processes fix them
(:mod:`suites.allocator`): which arrays the heap serves and which are mapped afresh."""

from __future__ import annotations

import ctypes
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from kpca_suite.suites.allocator import fix_malloc_thresholds
from kpca_suite.suites.perf.harness import MMAP_THRESHOLD
from kpca_suite.suites.runner import CELL_MMAP_THRESHOLD, worker_init

MiB = 2**20
ROOT = Path(__file__).resolve().parents[1]


class _MallInfo2(ctypes.Structure):
    _fields_ = [(f, ctypes.c_size_t) for f in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                 "fsmblks", "uordblks", "fordblks", "keepcost")]


def mapped_blocks(size: int, threshold: int = 0) -> int:
    """How many mmapped blocks an array of ``size`` bytes adds in this process (mallinfo2),
    after fixing the thresholds at ``threshold`` when it is not 0."""
    if threshold:
        assert fix_malloc_thresholds(threshold)
    info = ctypes.CDLL("libc.so.6").mallinfo2
    info.restype = _MallInfo2
    before = info().hblks
    a = np.empty(size // 8)  # noqa: F841 - held while counting
    return info().hblks - before


@pytest.fixture(autouse=True)
def _glibc():
    try:
        ctypes.CDLL("libc.so.6").mallinfo2
    except (OSError, AttributeError):
        pytest.skip("no glibc >= 2.33 here")


@pytest.mark.parametrize("threshold,size,mapped", [
    (0, 2 * MiB, 1),                      # glibc's default, in a fresh process: mapped, faulted in at every use
    (MMAP_THRESHOLD, 2 * MiB, 0),          # the bench's regime: from the heap
    (0, 64 * MiB, 1),
    (CELL_MMAP_THRESHOLD, 64 * MiB, 0),    # a cell's n x n temporaries stay in the heap
    (CELL_MMAP_THRESHOLD, 1024 * MiB, 1),  # a paper-scale Gram is still returned to the system when freed
])
def test_which_arrays_the_heap_serves(threshold, size, mapped):
    code = f"from tests.test_allocator import mapped_blocks; print(mapped_blocks({size}, {threshold}))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert int(out.stdout.strip()) == mapped


def test_a_pool_worker_runs_its_cells_with_the_cells_thresholds():
    # worker_init fixes them (this test process keeps glibc's default, which maps 64 MiB)
    with ProcessPoolExecutor(1, initializer=worker_init, initargs=(1,)) as pool:
        assert pool.submit(mapped_blocks, 64 * MiB).result() == 0
