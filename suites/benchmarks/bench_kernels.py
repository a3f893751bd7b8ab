"""asv benchmarks of the kernel blocks (claim perf.gaussian-block).

In the style of scikit-learn's ``asv_benchmarks``: parametrised classes,
``setup`` apart from the timed body, and every jitted routine warmed in
``setup`` (:func:`kpca_suite.suites.perf.warm_jit`), so no Numba compile lands
in a timed region. The data come from the same maker as ``kpca-suite bench``,
which measures the ratios against scikit-learn and the GEMM + exp floor.
"""

from kpca_suite.kernels import Kernel
from kpca_suite.suites.perf import gamma_for, gaussian_data, warm_jit

D = 20


class GaussianBlock:
    """K(X, Y) for X (n, 20), Y (m, 20): one GEMM plus one fused jitted pass."""

    param_names = ["n", "m"]
    params = ([2000, 20000], [100, 1000])
    timeout = 120

    def setup(self, n, m):
        self.X, self.Y = gaussian_data(n, D, seed=0), gaussian_data(m, D, seed=1)
        self.kernel = Kernel("gaussian", gamma=gamma_for(D))
        warm_jit()

    def time_block(self, n, m):
        self.kernel.block(self.X, self.Y)

    def peakmem_block(self, n, m):
        self.kernel.block(self.X, self.Y)
