"""Thread control for BLAS / LAPACK, in one place.

:func:`blas_single_thread` holds BLAS at one thread inside a ``with`` block. The
routines that make many small LAPACK calls (a Frequent Directions shrink, an Oja
chunk's QR, a tree reduction of per-chunk results) use it, because a multithreaded
BLAS on small matrices loses more to synchronisation than it gains, and because one
thread keeps the bits independent of the machine's core count. ``kpca-suite bench``
measures the choice (perf.skpca, perf.rf-oja).
"""

from __future__ import annotations

import functools

from threadpoolctl import ThreadpoolController


@functools.lru_cache(maxsize=1)
def _controller() -> ThreadpoolController:
    """One cached controller per process: building one per call costs far more than
    ``limit`` on a cached one."""
    return ThreadpoolController()


def blas_single_thread():
    """Context manager: BLAS / LAPACK single-threaded inside."""
    return _controller().limit(limits=1, user_api="blas")
