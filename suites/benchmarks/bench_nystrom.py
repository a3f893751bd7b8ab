"""asv benchmarks of the Nystrom KPCA fit (claim perf.nystrom-kpca).

Uncentred Gaussian Nystrom KPCA, k = 10 components, d = 10, uniform landmarks.
The fit accumulates K_mn K_nm blockwise (:func:`kpca_suite.kernels.gram_accumulate`),
so ``peakmem_fit`` should grow like m^2 + b m, not like n m. The comparison with
scikit-learn (``Nystroem`` + ``PCA``) and ``nystrompca`` is in ``kpca-suite bench``.
"""

from kpca_suite.kernels import Kernel
from kpca_suite.methods import NystromKPCA
from kpca_suite.suites.perf import gamma_for, gaussian_data, warm_jit

D = 10
K = 10


class NystromFit:
    """NystromKPCA(k=10, Gaussian, uncentred).fit on X of shape (n, 10)."""

    param_names = ["n", "m"]
    params = ([20000, 100000], [100, 1000])
    timeout = 300

    def setup(self, n, m):
        self.X = gaussian_data(n, D)
        self.kernel = Kernel("gaussian", gamma=gamma_for(D))
        warm_jit()

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


class NystromFitFloat32(NystromFit):
    """The same fit on the rows rounded to float32: kernel blocks and K_bm^T K_bm in single
    precision, summed in float64 (perf.float32 compares the two precisions in one run)."""

    def setup(self, n, m):
        super().setup(n, m)
        self.X = self.X.astype("float32")
