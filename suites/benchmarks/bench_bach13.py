"""asv benchmarks of Bach (2013): Nyström KRR at p = c d(lambda*(n)) against full KRR, and
the jitted pivoted incomplete Cholesky against its peers.

Data: the uniform random design on [0, 1), the B_2 (beta = 1) periodic kernel, the delta = 2
signal plus N(0, 1) noise. lambda*(n) and d(lambda*(n)) come from the grid design's FFT
(O(n log n), reference/seed004.md pitfall 14), so choosing p needs no O(n^3) step. With
d ~ n^(1/4) here (Table 1, line 2) the Nyström fit costs O(p^2 n) ~ n^1.5 and full KRR n^3.

The incomplete Cholesky (O(p^2 n), p n kernel evaluations) is compared with
``scipy.linalg.cholesky`` of the selected p x p block (O(p^3) after the same p n kernel
evaluations: the cost floor of any factorisation of those columns) and with a NumPy
reference of the same algorithm (one BLAS GEMV per column).

One-run ratios for the note: ``python -m suites.benchmarks.bench_bach13``.
"""

import math
import time

import numpy as np
import scipy.linalg as sla

from kpca_suite.kernels.cholesky import incomplete_cholesky
from kpca_suite.methods.krr import KernelRidge, NystromKRR
from kpca_suite.theory.dof import dof_circulant, optimal_lambda
from kpca_suite.theory.periodic import PeriodicKernel, grid_design, grid_energy, grid_spectrum, periodic_signal, uniform_design

KERNEL = PeriodicKernel("poly", 1)
C_RANK = 2.0  # p = ceil(c d): the ci/quick runs of bach13.rank-rule saw p_1%/d in [1.0, 2.9]


def problem(n, seed=0):
    """X, y, lambda*(n) and p = ceil(C_RANK d(lambda*)) from the grid spectrum."""
    e = np.clip(grid_spectrum(KERNEL, n), 0.0, None)
    lam, _ = optimal_lambda(e, grid_energy(periodic_signal(grid_design(n), "poly", 2)), n, 1.0,
                            log10_range=(-10.0, 1.0), grid_per_decade=8)
    p = min(n, math.ceil(C_RANK * float(dof_circulant(e, lam).d)))
    rng = np.random.default_rng(seed)
    X = uniform_design(n, rng)
    y = periodic_signal(X, "poly", 2) + rng.standard_normal(n)
    return X, y, lam, p


def numpy_incomplete_cholesky(X, kernel, rank):
    """The same pivoted algorithm in NumPy: G[:, j] = (K[:, i] - G[:, :j] G[i, :j]) / sqrt(res_i)."""
    n = X.shape[0]
    res = kernel.diag(X).astype(float)
    G = np.zeros((n, rank))
    for j in range(rank):
        i = int(np.argmax(res))
        G[:, j] = (kernel.block(X, X[i:i + 1], validate=False)[:, 0] - G[:, :j] @ G[i, :j]) / math.sqrt(res[i])
        res = np.clip(res - G[:, j] ** 2, 0.0, None)
        res[i] = 0.0
    return G


def warm():
    """Compile the jitted step once, outside any timed body."""
    incomplete_cholesky(uniform_design(20, 0), KERNEL, 3, "pivot")


class NystromVsFullKRR:
    """fit of Nyström KRR (uniform columns, p = 2 d(lambda*)) and of full KRR."""

    param_names = ["n"]
    params = [1000, 2000, 4000, 8000]
    timeout = 600

    def setup(self, n):
        self.X, self.y, self.lam, self.p = problem(n)
        warm()

    def time_nystrom_fit(self, n):
        NystromKRR(KERNEL, self.lam, self.p, random_state=0).fit(self.X, self.y)

    def time_full_fit(self, n):
        if n > 4000:
            raise NotImplementedError  # O(n^3) and O(n^2) memory: skipped
        KernelRidge(KERNEL, self.lam).fit(self.X, self.y)

    def track_p(self, n):
        return self.p

    track_p.unit = "columns"


class PivotedCholesky:
    """Pivoted incomplete Cholesky of rank p on n uniform points."""

    param_names = ["n", "p"]
    params = ([5000, 20000], [50, 200])

    def setup(self, n, p):
        self.X = uniform_design(n, 0)
        warm()
        self.idx = incomplete_cholesky(self.X, KERNEL, p, "pivot").indices

    def time_jitted(self, n, p):
        incomplete_cholesky(self.X, KERNEL, p, "pivot")

    def time_numpy_reference(self, n, p):
        numpy_incomplete_cholesky(self.X, KERNEL, p)

    def time_scipy_block_cholesky(self, n, p):
        """The p n kernel evaluations of the selected columns plus LAPACK on the p x p block."""
        C = KERNEL.block(self.X, self.X[self.idx], validate=False)
        sla.cholesky(C[self.idx], lower=True)


def _best(f, repeat=3):
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        f()
        out.append(time.perf_counter() - t0)
    return min(out)


def main():
    warm()
    print("Nyström KRR (p = 2 d(lambda*)) vs full KRR, B_2 kernel, uniform design; best of 3 [s]")
    rows = []
    for n in NystromVsFullKRR.params:
        X, y, lam, p = problem(n)
        tn = _best(lambda: NystromKRR(KERNEL, lam, p, random_state=0).fit(X, y))
        tf = _best(lambda: KernelRidge(KERNEL, lam).fit(X, y), 1) if n <= 4000 else float("nan")
        rows.append((n, tn))
        print(f"  n = {n:6d}  p = {p:4d}  nystrom {tn:8.4f}  full {tf:8.3f}  full/nystrom {tf / tn:8.1f}")
    ns, ts = np.array(rows).T
    print(f"  Nyström time exponent (log-log slope over n): {np.polyfit(np.log(ns), np.log(ts), 1)[0]:.2f}")
    print("Pivoted incomplete Cholesky [s]")
    for n in PivotedCholesky.params[0]:
        for p in PivotedCholesky.params[1]:
            X = uniform_design(n, 0)
            tj = _best(lambda: incomplete_cholesky(X, KERNEL, p, "pivot"))
            tn = _best(lambda: numpy_incomplete_cholesky(X, KERNEL, p))
            idx = incomplete_cholesky(X, KERNEL, p, "pivot").indices
            ts = _best(lambda: sla.cholesky(KERNEL.block(X, X[idx], validate=False)[idx], lower=True))
            G = incomplete_cholesky(X, KERNEL, p, "pivot").factor
            same = np.allclose(numpy_incomplete_cholesky(X, KERNEL, p), G)
            print(f"  n = {n:6d} p = {p:4d}  jitted {tj:.4f}  numpy {tn:.4f} (x{tn / tj:.2f})  "
                  f"columns + scipy block cholesky {ts:.4f} (jitted / that {tj / ts:.2f})  same factor: {same}")


if __name__ == "__main__":
    main()
