"""asv benchmarks of Frequent Directions and the streaming KPCA methods of
Ghashami et al. 2016 (claims perf.fd and the paper's train / test time plots).

``setup`` builds the data and warms every jitted routine, so no Numba compile
lands in a timed region. Ratios against the SVD floor, a plain NumPy FD and
scikit-learn's RBFSampler + IncrementalPCA are measured in one run by
:func:`suites.bench_ghashami16.run_bench`.
"""

import numpy as np

from kpca_suite.kernels import Kernel
from kpca_suite.kernels.frequent_directions import FrequentDirections
from kpca_suite.methods.rf_erm import RFERM
from kpca_suite.methods.skpca import SKPCA
from kpca_suite.methods.streaming_nystrom import StreamingNystrom
from kpca_suite.theory.ghashami16 import random_noisy

D = 100
GAMMA = 1.0 / (2 * 2 * (50 + 1))  # about the RandomNoisy mean heuristic at d = 100


def _warm():
    X = np.random.default_rng(1).standard_normal((20, 3))
    SKPCA(sketch_size=2, n_features=4, random_state=0).fit(X).transform(X)
    StreamingNystrom(3, random_state=0).fit(X).transform(X)


class FrequentDirectionsFit:
    """FD of an n x 1000 Gaussian stream (perf.fd at n = 100000, ell = 50)."""

    param_names = ["n", "ell", "shrink"]
    params = ([20000, 100000], [10, 50], ["halving", "standard"])
    timeout = 600

    def setup(self, n, ell, shrink):
        if shrink == "standard" and n > 20000:
            raise NotImplementedError("standard FD does one SVD per row: too slow at this n")
        self.A = np.random.default_rng(0).standard_normal((n, 1000))

    def time_fit(self, n, ell, shrink):
        FrequentDirections(ell, shrink).fit(self.A)

    def track_relative_error(self, n, ell, shrink):
        """||A^T A - B^T B||_2 / ||A||_F^2: a quality number (<= 1 / j)."""
        fd = FrequentDirections(ell, shrink).fit(self.A)
        return float(np.linalg.norm(self.A.T @ self.A - fd.covariance(), 2) / np.sum(self.A**2))

    track_relative_error.unit = "relative error"


class StreamingKPCA:
    """Train and test time and peak memory of SKPCA (ell = 20), RNCA and
    streaming Nyström on RandomNoisy (d = 100), n = 20000, 1000 test rows."""

    param_names = ["method", "m"]
    params = (["skpca", "rnca", "nystrom"], [128, 512])
    timeout = 300

    def setup(self, method, m):
        _warm()
        X = random_noisy(21000, D, random_state=0)
        self.X, self.Xte = X[:20000], X[20000:]
        self.fitted = self._make(method, m).fit(self.X)

    def _make(self, method, m):
        if method == "skpca":
            return SKPCA(sketch_size=20, n_features=m, gamma=GAMMA, random_state=0)
        if method == "rnca":
            return RFERM(10, m, gamma=GAMMA, random_state=0)
        return StreamingNystrom(m, Kernel("gaussian", gamma=GAMMA), random_state=0)

    def time_train(self, method, m):
        self._make(method, m).fit(self.X)

    def peakmem_train(self, method, m):
        self._make(method, m).fit(self.X)

    def time_test(self, method, m):
        self.fitted.transform(self.Xte)
