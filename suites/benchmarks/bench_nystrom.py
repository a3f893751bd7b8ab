"""asv benchmarks of the Nystrom KPCA fit (claim perf.nystrom-kpca).

Uncentred Gaussian Nystrom KPCA, k = 10 components, d = 10, uniform landmarks.
The fit accumulates K_mn K_nm blockwise (:func:`kernels.gram_accumulate`), so
``peakmem_fit`` should grow like m^2 + b m, not like n m. The comparison with
scikit-learn (``Nystroem`` + ``PCA``) and ``nystrompca`` is in
``kpca-suite bench`` (:mod:`suites.bench`).
"""

import numpy as np

from kpca_suite.kernels import Kernel
from kpca_suite.methods import NystromKPCA

D = 10
K = 10


def _data(n, d, seed=0):
    return np.random.default_rng(seed).standard_normal((n, d))


def warm_nystrom(kernel):
    """Run one tiny fit so every jitted routine on the fit path is compiled."""
    NystromKPCA(2, kernel, landmarks=5, random_state=0).fit(_data(40, D, seed=1))


class NystromFit:
    """NystromKPCA(k=10, Gaussian, uncentred).fit on X of shape (n, 10)."""

    param_names = ["n", "m"]
    params = ([20000, 100000], [100, 1000])
    timeout = 300

    def setup(self, n, m):
        self.X = _data(n, D)
        self.kernel = Kernel("gaussian", gamma=1.0 / D)
        warm_nystrom(self.kernel)

    def _fit(self, m):
        return NystromKPCA(K, self.kernel, landmarks=m, center=False, random_state=0).fit(self.X)

    def time_fit(self, n, m):
        self._fit(m)

    def peakmem_fit(self, n, m):
        self._fit(m)

    def track_insample_error(self, n, m):
        """In-sample error with k components, eq. (19): a quality number, not a time."""
        return self._fit(m).insample_error(K)

    track_insample_error.unit = "error"
