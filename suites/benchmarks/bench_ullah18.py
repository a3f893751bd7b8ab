"""asv benchmarks of RF-Oja and RF-ERM (claim perf.rf-oja; seed 002).

RF-Oja: one pass, m = 750, k = 10, d = 64: ``time_`` should grow linearly in n
and ``peakmem_`` stay flat (the state is Q and the frequencies, O(m k + m d)).
The ratios against the floor and against scikit-learn are in
:func:`suites.bench_ullah18.bench_rf_oja`.
"""

import numpy as np

from kpca_suite.methods.rf_erm import RFERM
from kpca_suite.methods.rf_oja import RFOja

D, M, K = 64, 750, 10


class RFOjaPass:
    param_names = ["n"]
    params = ([5000, 20000],)
    timeout = 300

    def setup(self, n):
        self.X = np.random.default_rng(0).standard_normal((n, D))
        RFOja(2, 8, gamma=1.0 / D, random_state=0).fit(self.X[:20])

    def time_fit(self, n):
        RFOja(K, M, gamma=1.0 / D, block_size=1024, random_state=0).fit(self.X)

    def peakmem_fit(self, n):
        RFOja(K, M, gamma=1.0 / D, block_size=1024, random_state=0).fit(self.X)


class RFERMFit:
    param_names = ["n"]
    params = ([5000, 20000],)
    timeout = 300

    def setup(self, n):
        self.X = np.random.default_rng(0).standard_normal((n, D))

    def time_fit(self, n):
        RFERM(K, M, gamma=1.0 / D, block_size=1024, random_state=0).fit(self.X)
