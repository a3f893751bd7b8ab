"""asv benchmarks of RF-Oja and RF-ERM (claims perf.rf-oja and perf.rf-erm).

RF-Oja: one pass, m = 750, k = 10, d = 64: ``time_`` should grow linearly in n
and ``peakmem_`` stay flat (the state is Q and the frequencies, O(m k + m d)).
The ratios against the floor and against scikit-learn are measured by
``kpca-suite bench``.
"""

from kpca_suite.kernels import Kernel
from kpca_suite.methods import RFERM, RFOja
from kpca_suite.suites.perf import gamma_for, gaussian_data, warm_jit

D, M, K = 64, 750, 10
KERNEL = Kernel("gaussian", gamma=gamma_for(D))


class RFOjaPass:
    param_names = ["n"]
    params = ([5000, 20000],)
    timeout = 300

    def setup(self, n):
        self.X = gaussian_data(n, D)
        warm_jit()

    def time_fit(self, n):
        RFOja(K, M, kernel=KERNEL, block_size=1024, random_state=0).fit(self.X)

    def peakmem_fit(self, n):
        RFOja(K, M, kernel=KERNEL, block_size=1024, random_state=0).fit(self.X)


class RFERMFit:
    param_names = ["n"]
    params = ([5000, 20000],)
    timeout = 300

    def setup(self, n):
        self.X = gaussian_data(n, D)
        warm_jit()

    def time_fit(self, n):
        RFERM(K, M, kernel=KERNEL, block_size=1024, random_state=0).fit(self.X)
