"""asv benchmarks of Frequent Directions and the streaming KPCA methods of
Ghashami et al. 2016 (claims perf.fd, perf.skpca and perf.ghashami16-train).

``setup`` builds the data with the makers of :mod:`kpca_suite.suites.perf` and
warms every jitted routine (:func:`~kpca_suite.suites.perf.warm_jit`), so no
Numba compile lands in a timed region. The ratios against the SVD floor, a
plain NumPy FD and scikit-learn's RBFSampler + IncrementalPCA are measured in
one run by ``kpca-suite bench``.
"""

import numpy as np

from kpca_suite.kernels import FrequentDirections, Kernel
from kpca_suite.methods import RFERM, SKPCA, StreamingNystrom
from kpca_suite.suites.perf import gaussian_data, random_noisy_data, warm_jit

D = 100


class FrequentDirectionsFit:
    """FD of an n x 1000 Gaussian stream (perf.fd at n = 100000, ell = 50)."""

    param_names = ["n", "ell", "shrink"]
    params = ([20000, 100000], [10, 50], ["halving", "standard"])
    timeout = 600

    def setup(self, n, ell, shrink):
        if shrink == "standard" and n > 20000:
            raise NotImplementedError("standard FD does one shrink per row: too slow at this n")
        self.A = gaussian_data(n, 1000)
        warm_jit()  # the jitted shrink compiles (or loads from Numba's cache) outside the timed fit

    def time_fit(self, n, ell, shrink):
        FrequentDirections(ell, shrink).fit(self.A)

    def track_relative_error(self, n, ell, shrink):
        """||A^T A - B^T B||_2 / ||A||_F^2: a quality number (<= 1 / j)."""
        fd = FrequentDirections(ell, shrink).fit(self.A)
        return float(np.linalg.norm(self.A.T @ self.A - fd.covariance(), 2) / np.sum(self.A**2))

    track_relative_error.unit = "relative error"


class StreamingKPCA:
    """Train and test time and peak memory of SKPCA (ell = 20), RNCA and
    streaming Nystrom on RandomNoisy (d = 100), n = 20000, 1000 test rows."""

    param_names = ["method", "m"]
    params = (["skpca", "rnca", "nystrom"], [128, 512])
    timeout = 300

    def setup(self, method, m):
        warm_jit()
        X, self.gamma = random_noisy_data(21000, D)
        self.X, self.Xte = X[:20000], X[20000:]
        self.fitted = self._make(method, m).fit(self.X)

    def _make(self, method, m):
        if method == "skpca":
            return SKPCA(sketch_size=20, n_features=m, kernel=Kernel("gaussian", gamma=self.gamma), random_state=0)
        if method == "rnca":
            return RFERM(10, m, kernel=Kernel("gaussian", gamma=self.gamma), random_state=0)
        return StreamingNystrom(m, Kernel("gaussian", gamma=self.gamma), random_state=0)

    def time_train(self, method, m):
        self._make(method, m).fit(self.X)

    def peakmem_train(self, method, m):
        self._make(method, m).fit(self.X)

    def time_test(self, method, m):
        self.fitted.transform(self.Xte)
