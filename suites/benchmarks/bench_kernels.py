"""asv benchmarks of the kernel blocks (claim perf.gaussian-block).

In the style of scikit-learn's ``asv_benchmarks``: parametrised classes,
``setup`` apart from the timed body, and every jitted routine warmed in
``setup`` (one call on a tiny input), so no Numba compile lands in a timed
region. The ratio against scikit-learn and the GEMM + exp floor is measured
by ``kpca-suite bench`` (:mod:`suites.bench`), in one process run.
"""

import numpy as np

from kpca_suite.kernels import Kernel

D = 20


def _data(n, m, d, seed=0):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((n, d)), rng.standard_normal((m, d))


def warm_gaussian(kernel):
    """Compile (or load from cache) the jitted pieces of ``kernel.block``."""
    X, Y = _data(8, 4, 3, seed=1)
    kernel.block(X, Y)
    kernel.block(X)


class GaussianBlock:
    """K(X, Y) for X (n, 20), Y (m, 20): one GEMM plus one fused jitted pass."""

    param_names = ["n", "m"]
    params = ([2000, 20000], [100, 1000])
    timeout = 120

    def setup(self, n, m):
        self.X, self.Y = _data(n, m, D)
        self.kernel = Kernel("gaussian", gamma=1.0 / D)
        warm_gaussian(self.kernel)

    def time_block(self, n, m):
        self.kernel.block(self.X, self.Y)

    def peakmem_block(self, n, m):
        self.kernel.block(self.X, self.Y)
