"""Benchmarks of the ghashami16 methods (ratios in one run; never pass/fail tests).
Records use the format of :mod:`suites.bench` (``_record``), so
``suites.bench.format_bench`` prints them.

perf.fd
    Frequent Directions (Algorithm 1, halving) of a 100000 x 1000 stream,
    ell = 50: ours against the floor, (number of shrinks) x (one LAPACK SVD of
    the 50 x 1000 sketch) + one pass over the data (a copy of A into a buffer),
    goal ours / floor <= 1.5; and against a plain NumPy implementation of the same
    algorithm (one row at a time, zero rows found by testing the floats).
    Everything single-threaded BLAS, as FD runs.
perf.ghashami16-train
    SKPCA / RNCA / streaming Nyström train time and traced peak memory for
    n in {n0, 4 n0} and m in {128, 512} (RandomNoisy, d = 100): the paper's
    train-time comparison, time ~ n, memory independent of n.
perf.skpca-sklearn
    SKPCA against scikit-learn's ``RBFSampler`` + ``IncrementalPCA`` (the peer
    that streams RFF into an incremental PCA, fed the same chunks; it centres
    the features, SKPCA does not): ratio peer / ours, goal >= 1.

``scale`` multiplies every n (for quick runs). Every measurement runs with
single-threaded BLAS (as FD and the suite's cells do), so ours, the peers and
the floor get one core each and a shared machine's load distorts them less.
"""

from __future__ import annotations

import numpy as np

from kpca_suite.kernels import Kernel
from kpca_suite.kernels.frequent_directions import FrequentDirections, blas_single_thread
from kpca_suite.methods.rf_erm import RFERM
from kpca_suite.methods.skpca import SKPCA
from kpca_suite.methods.streaming_nystrom import StreamingNystrom
from kpca_suite.theory.ghashami16 import random_noisy

from .bench import _best, _record, _scaled
from .ghashami16 import _traced_peak, _warm, rn_gamma

FD_SIZES = dict(n=100000, d=1000, ell=50)
WHICH = ("fd", "ghashami16-train", "skpca-sklearn")


def plain_numpy_fd(A, ell):
    """The same halving FD written plainly: rows one at a time, the first zero row
    found by testing floats (what the fill counter avoids), one SVD per fill."""
    B = np.zeros((ell, A.shape[1]))
    j = ell // 2
    for row in A:
        zero = np.flatnonzero(~B.any(axis=1))
        B[zero[0]] = row
        if len(zero) == 1:
            _, s, Vt = np.linalg.svd(B, full_matrices=False)
            B = np.zeros_like(B)
            B[:j - 1] = np.sqrt(np.maximum(s[:j - 1] ** 2 - s[j - 1] ** 2, 0))[:, None] * Vt[:j - 1]
    return B


def bench_fd(scale=1.0, repeats=3):
    n, d, ell = _scaled(FD_SIZES["n"], scale, 2000), FD_SIZES["d"], FD_SIZES["ell"]
    A = np.random.default_rng(0).standard_normal((n, d))
    ours = _best(lambda: FrequentDirections(ell).fit(A), repeats)
    fd = FrequentDirections(ell).fit(A)
    S = np.random.default_rng(1).standard_normal((ell, d))
    buf = np.empty((ell, d))

    def one_pass():
        for start in range(0, n, ell):
            np.copyto(buf[:min(ell, n - start)], A[start:start + ell])

    svd = _best(lambda: [np.linalg.svd(S, full_matrices=False) for _ in range(50)], repeats) / 50
    plain = _best(lambda: plain_numpy_fd(A, ell), 1)
    copy = _best(one_pass, repeats)
    floor = fd.n_shrinks_ * svd + copy
    return [
        _record("perf.fd", f"FD halving {n} x {d}, ell = {ell}", ours, "floor", floor, ours / floor,
                "ours / floor <= 1.5", ours / floor <= 1.5, floor,
                f"{fd.n_shrinks_} shrinks x SVD {svd * 1e3:.2f} ms + pass {copy * 1e3:.1f} ms"),
        _record("perf.fd", f"FD halving {n} x {d}, ell = {ell}", ours, "plain NumPy FD", plain, plain / ours,
                "peer / ours >= 1", plain >= ours, floor, "same algorithm, float zero-row tests"),
    ]


def bench_train(scale=1.0, repeats=3):
    _warm()
    d, n0 = 100, _scaled(20000, scale, 1000)
    gamma = rn_gamma(d)
    X = random_noisy(4 * n0, d, random_state=0)
    makers = {
        "SKPCA ell=20": lambda m: SKPCA(sketch_size=20, n_features=m, gamma=gamma, random_state=0),
        "RNCA": lambda m: RFERM(10, m, gamma=gamma, random_state=0),
        "streaming Nystrom": lambda m: StreamingNystrom(m, Kernel("gaussian", gamma=gamma), random_state=0),
    }
    recs = []
    for m in (128, 512):
        for name, make in makers.items():
            t = {}
            for n in (n0, 4 * n0):
                t[n] = _best(lambda: make(m).fit(X[:n]), repeats)
            peak = {n: _traced_peak(lambda: make(m).fit(X[:n])) for n in (n0, 4 * n0)}
            exponent = np.log(t[4 * n0] / t[n0]) / np.log(4)
            recs.append(_record(
                "perf.ghashami16-train", f"{name} fit, m = {m}, n = {n0} / {4 * n0}", t[4 * n0], None, None,
                exponent, "time ~ n (exponent 0.9-1.15)", 0.9 <= exponent <= 1.15, None,
                f"{t[n0]:.3f} s at n = {n0}; traced peak {peak[n0] / 2**20:.2f} / {peak[4 * n0] / 2**20:.2f} MiB",
                peak_bytes_small=peak[n0], peak_bytes_large=peak[4 * n0]))
    return recs


def bench_skpca_sklearn(scale=1.0, repeats=3):
    from sklearn.decomposition import IncrementalPCA
    from sklearn.kernel_approximation import RBFSampler

    _warm()
    n, d, m, ell, chunk = _scaled(50000, scale, 2000), 100, 512, 20, 4096
    gamma = rn_gamma(d)
    X = random_noisy(n, d, random_state=0)

    def ours():
        est = SKPCA(sketch_size=ell, n_features=m, gamma=gamma, block_size=chunk, random_state=0)
        for start in range(0, n, chunk):
            est.partial_fit(X[start:start + chunk])

    def peer():
        rff = RBFSampler(gamma=gamma, n_components=m, random_state=0).fit(X[:1])
        ipca = IncrementalPCA(n_components=ell)
        for start in range(0, n, chunk):
            ipca.partial_fit(rff.transform(X[start:start + chunk]))

    t_ours, t_peer = _best(ours, repeats), _best(peer, repeats)
    return [_record("perf.skpca-sklearn", f"streaming KPCA n = {n}, d = {d}, m = {m}, ell = k = {ell}, "
                                          f"chunks of {chunk}", t_ours, "RBFSampler + IncrementalPCA", t_peer,
                    t_peer / t_ours, "peer / ours >= 1", t_peer >= t_ours, None,
                    "IncrementalPCA centres the features; SKPCA (Algorithm 1) does not")]


BENCHES = {"fd": bench_fd, "ghashami16-train": bench_train, "skpca-sklearn": bench_skpca_sklearn}


def run_bench(which=WHICH, scale=1.0, repeats=3):
    """Measure the ghashami16 benchmarks; returns records for
    ``suites.bench.format_bench``. ``which``: names from :data:`WHICH`
    (``"perf."`` prefixes accepted); ``scale``: fraction of the sizes."""
    if isinstance(which, str):
        which = (which,)
    if not 0 < scale <= 10:
        raise ValueError(f"scale must be in (0, 10], got {scale}")
    keys = [name[len("perf."):] if name.startswith("perf.") else name for name in which]
    for name, key in zip(which, keys):
        if key not in BENCHES:
            raise ValueError(f"unknown benchmark {name!r}; choose from {WHICH}")
    records = []
    with blas_single_thread():
        for key in keys:
            records.extend(BENCHES[key](scale=scale, repeats=repeats))
    return records
