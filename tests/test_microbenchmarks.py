"""Micro-benchmarks of every Numba-jitted routine and of each method's hot path
(pytest-benchmark), grouped by routine.

These are benchmarks, not timed tests. The README's test command runs each body once
with benchmarking disabled (``--benchmark-disable`` in the project's pytest options),
so CI checks only that every case runs; nothing here asserts on a time. Timing and the
regression check are the README's "Tracking regressions" commands:

    python -m pytest tests/test_microbenchmarks.py --benchmark-enable --benchmark-autosave
    python -m pytest tests/test_microbenchmarks.py --benchmark-enable \
        --benchmark-compare --benchmark-compare-fail=min:25%

Every case compiles (or loads from Numba's cache) its jitted routines on a first call
outside the timed region, so a round never includes a compile.
"""

from __future__ import annotations

import numpy as np
import pytest

from kpca_suite.kernels import (FrequentDirections, Kernel, approximate_leverage_scores, draw_rff,
                                exact_leverage_scores, fourier_features, incomplete_cholesky, oja_updates,
                                orthonormalize)
from kpca_suite.kernels.fourier import fourier_gram
from kpca_suite.kernels.psd_eigh import eigh_above
from kpca_suite.methods import RFERM, NystromKPCA

KERNEL_NAMES = ("gaussian", "laplacian", "cauchy", "polynomial", "linear")


def _data(n, d, seed=0, dtype=np.float64):
    return np.random.default_rng(seed).standard_normal((n, d)).astype(dtype)


def bench(benchmark, f, *args):
    """Warm f (compile or load its jitted routines) outside timing, then benchmark it."""
    f(*args)
    return benchmark(f, *args)


@pytest.mark.benchmark(group="kernel-block")
@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", KERNEL_NAMES)
def test_kernel_block(benchmark, name, dtype):
    X, Y = _data(2000, 20, 0, dtype), _data(200, 20, 1, dtype)
    kern = Kernel(name, gamma=1.0 / 20)
    K = bench(benchmark, lambda: kern.block(X, Y, validate=False))
    assert K.shape == (2000, 200) and np.isfinite(K).all()


@pytest.mark.benchmark(group="fourier-features")
def test_fourier_feature_map(benchmark):
    x = np.random.default_rng(0).random(4000)
    lam = np.arange(1, 257, dtype=float) ** -2.0
    Phi = bench(benchmark, fourier_features, x, lam)
    assert Phi.shape == (4000, 256)


@pytest.mark.benchmark(group="fourier-features")
def test_fourier_gram_from_moments(benchmark):
    """Phi^T Phi without Phi (kernels.fourier.fourier_gram): O(n J + J^2), against the
    feature map above and the product's O(n J^2)."""
    x = np.random.default_rng(0).random(4000)
    lam = np.arange(1, 257, dtype=float) ** -2.0
    G = bench(benchmark, fourier_gram, x, lam)
    assert G.shape == (256, 256)


@pytest.mark.benchmark(group="psd-eigh")
@pytest.mark.parametrize("d", [1, 10])
def test_eigh_above(benchmark, d):
    """The kept eigenpairs of a Gaussian K_mm (m = 1000): of low rank (d = 1, the probe
    stops and MRRR computes about 30 pairs) and of full rank (d = 10, probe and full solve)."""
    K = Kernel("gaussian", gamma=3.0 / d).block(_data(1000, d))
    s, V = bench(benchmark, eigh_above, K, 1e-8)
    assert V.shape == (1000, s.size) and s.size > 0


@pytest.mark.benchmark(group="random-fourier-features")
@pytest.mark.parametrize("variant", ["cos", "paired"])
def test_random_fourier_features(benchmark, variant):
    X = _data(4000, 20)
    rff = draw_rff(20, 500, "gaussian", gamma=0.05, variant=variant, random_state=0)
    Z = bench(benchmark, rff.transform, X)
    assert Z.shape[0] == 4000 and np.isfinite(Z).all()


@pytest.mark.benchmark(group="frequent-directions")
def test_frequent_directions_shrink(benchmark):
    """One shrink of a full 20 x 500 sketch (the Gram eigh route)."""
    A = _data(20, 500)

    def shrink():
        fd = FrequentDirections(20)
        fd.partial_fit(A)  # fills B exactly: the 20th row triggers the shrink
        return fd

    assert bench(benchmark, shrink).n_shrinks_ == 1


@pytest.mark.benchmark(group="frequent-directions")
def test_frequent_directions_pass(benchmark):
    A = _data(5000, 200)
    fd = bench(benchmark, lambda: FrequentDirections(20).fit(A))
    assert fd.sketch_.shape == (20, 200)


@pytest.mark.benchmark(group="oja")
def test_oja_update(benchmark):
    rng = np.random.default_rng(0)
    Z = rng.standard_normal((2000, 750)) / np.sqrt(750)
    Q0 = np.linalg.qr(rng.standard_normal((750, 10)))[0]
    eta = 1.0 / (np.arange(2000) + 100.0)

    def updates():
        Q = Q0.copy()
        oja_updates(Q, Z, eta, 32, 0)
        return Q

    Q = bench(benchmark, updates)
    assert np.isfinite(Q).all()


@pytest.mark.benchmark(group="oja")
def test_orthonormalize(benchmark):
    Q0 = np.random.default_rng(0).standard_normal((750, 10))

    def orth():
        Q = Q0.copy()
        orthonormalize(Q)
        return Q

    Q = bench(benchmark, orth)
    np.testing.assert_allclose(Q.T @ Q, np.eye(10), atol=1e-12)


@pytest.mark.benchmark(group="pivoted-cholesky")
def test_pivoted_incomplete_cholesky(benchmark):
    X = _data(3000, 10)
    F = bench(benchmark, incomplete_cholesky, X, Kernel("gaussian", gamma=0.1), 50)
    assert F.factor.shape == (3000, 50)


@pytest.mark.benchmark(group="pivoted-cholesky")
def test_incomplete_cholesky_in_a_given_order(benchmark):
    """The given-order factorisation (NystromKRR's columns): a batch's steps in one call of the
    jitted ``batch_steps``."""
    X = _data(3000, 10)
    order = np.random.default_rng(1).permutation(3000)
    F = bench(benchmark, incomplete_cholesky, X, Kernel("gaussian", gamma=0.1), 50, order)
    assert F.factor.shape == (3000, 50)


@pytest.mark.benchmark(group="leverage-scores")
def test_exact_ridge_leverage_scores(benchmark):
    X = _data(800, 10)
    scores = bench(benchmark, exact_leverage_scores, X, Kernel("gaussian", gamma=0.1), 1e-3)
    assert scores.shape == (800,)


@pytest.mark.benchmark(group="leverage-scores")
def test_approximate_ridge_leverage_scores(benchmark):
    X = _data(5000, 10)
    scores = bench(benchmark, lambda: approximate_leverage_scores(X, Kernel("gaussian", gamma=0.1), 1e-3, 200,
                                                                   random_state=0))
    assert scores.shape == (5000,)


@pytest.mark.benchmark(group="fit")
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_nystrom_fit(benchmark, dtype):
    X = _data(5000, 10, dtype=dtype)
    est = bench(benchmark, lambda: NystromKPCA(10, Kernel("gaussian", gamma=0.1), landmarks=200,
                                                random_state=0).fit(X))
    assert est.eigenvalues_.shape == (10,)


@pytest.mark.benchmark(group="fit")
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_rf_erm_fit(benchmark, dtype):
    X = _data(5000, 10, dtype=dtype)
    est = bench(benchmark, lambda: RFERM(10, 300, Kernel("gaussian", gamma=0.1), random_state=0).fit(X))
    assert est.eigenvalues_.shape == (10,)
