"""asv benchmarks of Bach (2013): Nystrom KRR at p = c d(lambda*(n)) against full KRR, and
the jitted pivoted incomplete Cholesky against its peers (claims perf.bach13-krr and
perf.pivoted-cholesky; their one-run ratios come from ``kpca-suite bench``).

Data: :func:`kpca_suite.suites.perf.bach13_problem` (uniform design on [0, 1), the B_2
periodic kernel, the delta = 2 signal plus N(0, 1) noise; lambda*(n) and p from the grid
design's FFT, so choosing p needs no O(n^3) step). With d ~ n^(1/4) the Nystrom fit
costs O(p^2 n) ~ n^1.5 and full KRR n^3.
"""

import scipy.linalg as sla

from kpca_suite.kernels import incomplete_cholesky
from kpca_suite.methods import KernelRidge, NystromKRR
from kpca_suite.suites.perf import bach13_kernel, bach13_problem, numpy_incomplete_cholesky, warm_jit
from kpca_suite.theory.periodic import uniform_design

KERNEL, _ = bach13_kernel()
#: Full KRR is O(n^3) time and O(n^2) memory: not run above this n.
FULL_MAX_N = 4000


class NystromKRRFit:
    """fit of Nystrom KRR (uniform columns, p = 2 d(lambda*))."""

    param_names = ["n"]
    params = [1000, 2000, 4000, 8000]
    timeout = 600

    def setup(self, n):
        self.X, self.y, self.lam, self.p = bach13_problem(n)
        warm_jit()

    def time_nystrom_fit(self, n):
        NystromKRR(KERNEL, self.lam, self.p, random_state=0).fit(self.X, self.y)

    def track_p(self, n):
        return self.p

    track_p.unit = "columns"


class FullKRRFit:
    """fit of full KRR on the same problem; skipped above FULL_MAX_N."""

    param_names = ["n"]
    params = [1000, 2000, 4000, 8000]
    timeout = 600

    def setup(self, n):
        if n > FULL_MAX_N:
            raise NotImplementedError(f"full KRR is O(n^3): not run above n = {FULL_MAX_N}")
        self.X, self.y, self.lam, _ = bach13_problem(n)

    def time_full_fit(self, n):
        KernelRidge(KERNEL, self.lam).fit(self.X, self.y)


class PivotedCholesky:
    """Pivoted incomplete Cholesky of rank p on n uniform points."""

    param_names = ["n", "p"]
    params = ([5000, 20000], [50, 200])

    def setup(self, n, p):
        self.X = uniform_design(n, 0)
        warm_jit()
        self.idx = incomplete_cholesky(self.X, KERNEL, p, "pivot").indices

    def time_jitted(self, n, p):
        incomplete_cholesky(self.X, KERNEL, p, "pivot")

    def time_numpy_reference(self, n, p):
        numpy_incomplete_cholesky(self.X, KERNEL, p)

    def time_scipy_block_cholesky(self, n, p):
        """The p n kernel evaluations of the selected columns plus LAPACK on the p x p block."""
        C = KERNEL.block(self.X, self.X[self.idx], validate=False)
        sla.cholesky(C[self.idx], lower=True)
