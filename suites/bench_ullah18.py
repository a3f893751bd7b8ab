"""Benchmarks of seed 002's methods (CLAIMS.md perf.rf-oja): ratios measured in one
run, never timed tests.

:func:`bench_rf_oja` reports
- the RF-Oja pass time versus n (m = 750, k = 10) and its log-log slope (goal 0.9-1.1);
- the peak traced memory of the pass (tracemalloc, X allocated before tracing)
  versus n (goal: independent of n, ratio largest / smallest n close to 1);
- the per-sample cost against the floor of one RF map plus one product z^T Q
  (measured as one blocked ``transform`` plus one GEMM Z Q over the same rows);
- RF-ERM against scikit-learn's ``RBFSampler`` + ``PCA`` on the same (n, m, k).
"""

from __future__ import annotations

import time
import tracemalloc

import numpy as np

from kpca_suite.kernels import draw_rff
from kpca_suite.methods.rf_erm import RFERM
from kpca_suite.methods.rf_oja import RFOja


def _best(fn, repeats):
    best = np.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def _peak(fn):
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def bench_rf_oja(ns=(5000, 10000, 20000, 40000), m: int = 750, k: int = 10, d: int = 64, qr_every: int = 1,
                 repeats: int = 2, seed: int = 0) -> dict:
    """Run the perf.rf-oja measurements; returns a dict of numbers (see module docstring)."""
    rng = np.random.default_rng(seed)
    gamma = 1.0 / d
    X = rng.standard_normal((max(ns), d))
    RFOja(2, 8, gamma=gamma, random_state=0).fit(X[:20])  # compile the jitted update

    def oja(n):
        return RFOja(k, m, gamma=gamma, qr_every=qr_every, block_size=1024, random_state=seed).fit(X[:n])

    times = [_best(lambda n=n: oja(n), repeats) for n in ns]
    peaks = [_peak(lambda n=n: oja(n)) for n in ns]
    slope = float(np.polyfit(np.log(ns), np.log(times), 1)[0])
    n = max(ns)
    fmap = draw_rff(d, m, "gaussian", gamma, "cos", seed)
    Q = np.linalg.qr(rng.standard_normal((m, k)))[0]
    floor = _best(lambda: [Z @ Q for Z in fmap.blocks(X[:n], 1024)], repeats)
    t_erm = _best(lambda: RFERM(k, m, gamma=gamma, block_size=1024, random_state=seed).fit(X[:n]), repeats)

    from sklearn.decomposition import PCA
    from sklearn.kernel_approximation import RBFSampler

    def sk():
        Z = RBFSampler(gamma=gamma, n_components=m, random_state=seed).fit_transform(X[:n])
        PCA(k, svd_solver="full").fit(Z)

    t_sk = _best(sk, repeats)
    return {"n": list(ns), "m": m, "k": k, "d": d, "qr_every": qr_every, "oja_seconds": times,
            "oja_time_slope": slope, "slope_goal_met": 0.9 <= slope <= 1.1,
            "oja_peak_bytes": peaks, "peak_ratio_largest_smallest": peaks[-1] / peaks[0],
            "oja_per_sample_us": times[-1] / n * 1e6, "floor_per_sample_us": floor / n * 1e6,
            "oja_over_floor": times[-1] / floor, "rf_erm_seconds": t_erm, "sklearn_rbfsampler_pca_seconds": t_sk,
            "sklearn_over_rf_erm": t_sk / t_erm}


if __name__ == "__main__":
    import json

    print(json.dumps(bench_rf_oja(), indent=1))
