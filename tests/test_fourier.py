"""kernels.fourier: the explicit Fourier feature map of the population model
(Sterge et al. 2020's explicit-feature model on U[0,1)): Phi_i = sqrt(lambda_i) psi_i, psi_1 = 1,
psi_2j = sqrt 2 cos(2 pi j x), psi_2j+1 = sqrt 2 sin(2 pi j x)."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

from kpca_suite.kernels.fourier import RESET, fourier_features, fourier_gram


def _lam(J, seed=0):
    return np.random.default_rng(seed).uniform(0.1, 2.0, size=J)


def _kernel_sum(a, b, lam):
    """sum_i lambda_i psi_i(a) psi_i(b), written out term by term."""
    K = np.full((a.size, b.size), lam[0])
    for c in range(1, lam.size):
        j = (c + 1) // 2
        f = np.cos if c % 2 == 1 else np.sin
        K += 2.0 * lam[c] * np.outer(f(2 * np.pi * j * a), f(2 * np.pi * j * b))
    return K


def test_column_order():
    lam = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    got = fourier_features([0.125], lam)[0]
    s2 = np.sqrt(2.0)
    want = [1.0, s2 * np.sqrt(2.0) * np.cos(np.pi / 4), s2 * np.sqrt(3.0) * np.sin(np.pi / 4),
            s2 * 2.0 * np.cos(np.pi / 2), s2 * np.sqrt(5.0) * np.sin(np.pi / 2)]
    assert_allclose(got, want, rtol=0, atol=1e-15)


@pytest.mark.parametrize("J", [1, 8, 9])
def test_gram_is_kernel_sum(J):
    rng = np.random.default_rng(1)
    a, b, lam = rng.random(13), rng.random(7), _lam(J)
    Pa, Pb = fourier_features(a, lam), fourier_features(b, lam)
    assert Pa.shape == (13, J) and Pa.dtype == np.float64
    assert_allclose(Pa @ Pb.T, _kernel_sum(a, b, lam), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("J", [64, 129, 1000])
def test_orthonormal_on_grid(J):
    """On x_k = k/N with N > 2 * max frequency, (1/N) Phi^T Phi = diag(lambda) exactly."""
    lam = _lam(J)
    N = 2 * ((J + 1) // 2) + 2
    Phi = fourier_features(np.arange(N) / N, lam)
    assert_allclose(Phi.T @ Phi / N, np.diag(lam), rtol=0, atol=1e-12)


def test_aliasing_breaks_grid_identity():
    """Negative control: with N = 2 * max frequency the top sin column vanishes on the grid."""
    lam = np.ones(9)
    N = 8
    Phi = fourier_features(np.arange(N) / N, lam)
    assert abs((Phi.T @ Phi / N)[8, 8] - 1.0) > 0.5


def test_monte_carlo_covariance():
    """E[Phi^T Phi] / n -> diag(lambda) for X ~ U[0, 1) (CLT error ~ 1/sqrt(n))."""
    lam = _lam(7)
    x = np.random.default_rng(2).random(200_000)
    Phi = fourier_features(x, lam)
    assert_allclose(Phi.T @ Phi / x.size, np.diag(lam), rtol=0, atol=0.02)


def test_periodic_and_accurate_at_high_frequency():
    lam = np.ones(4097)
    x = np.random.default_rng(3).random(50)
    P0, P1 = fourier_features(x, lam), fourier_features(x + 3.0, lam)
    assert_allclose(P1, P0, rtol=0, atol=1e-9)  # x + 3 rounds x itself to ~4e-16
    j = 2048
    assert_allclose(P0[:, 2 * j - 1], np.sqrt(2) * np.cos(2 * np.pi * j * x), rtol=0, atol=1e-11)


@pytest.mark.parametrize("J", [1, 2, 9, 64])
def test_without_the_constant_column(J):
    """constant=False: the same values as the full map without its first column, bit for bit."""
    x, lam = np.random.default_rng(J).uniform(-1.0, 2.0, 50), _lam(J, seed=J)
    got = fourier_features(x, lam, constant=False)
    assert got.shape == (50, J - 1) and got.flags.c_contiguous
    np.testing.assert_array_equal(got, fourier_features(x, lam)[:, 1:])


@pytest.mark.parametrize("J, n", [(1, 5), (2, 40), (9, 300), (64, 1000), (257, 2000)])
def test_moment_gram_is_the_product(J, n):
    """fourier_gram (trigonometric moments) against Phi^T Phi (GEMM), every pair of column
    kinds, points off [0, 1). Each moment term carries at most about (4 RESET + 2) eps (exact
    trig, then up to RESET rotations), and a sum of n terms of size <= 2 adds up to n eps each
    (recursive summation; the GEMM the same): entry (i, k) within
    (4 RESET + 2 + 2 n) n eps sqrt(lambda_i lambda_k) x 2."""
    rng = np.random.default_rng(J)
    x, lam = rng.uniform(-2.0, 3.0, n), _lam(J, seed=J)
    Phi = fourier_features(x, lam)
    bound = 2 * (4 * RESET + 2 + 2 * n) * n * np.finfo(float).eps * np.sqrt(np.outer(lam, lam))
    excess = np.abs(fourier_gram(x, lam) - Phi.T @ Phi) / bound
    assert excess.max() <= 1.0, excess.max()


@pytest.mark.parametrize("J", [64, 129, 1000])
def test_moment_gram_on_grid(J):
    """The grid identity of test_orthonormal_on_grid without the feature matrix; the moments
    run up to frequency 2 max j, past the grid's Nyquist frequency, and cancel in the formulas."""
    lam = _lam(J)
    N = 2 * ((J + 1) // 2) + 2
    assert_allclose(fourier_gram(np.arange(N) / N, lam) / N, np.diag(lam), rtol=0, atol=1e-12)


@pytest.mark.parametrize("x, lam, match", [
    ([0.1, np.nan], [1.0], "x"),
    ([0.1, np.inf], [1.0], "x"),
    ([[0.1, 0.2]], [1.0], "x"),
    ([], [1.0], "x"),
    ([0.1], [1.0, -0.5], "eigenvalues"),
    ([0.1], [1.0, np.nan], "eigenvalues"),
    ([0.1], [[1.0]], "eigenvalues"),
])
@pytest.mark.parametrize("fn", [fourier_features, fourier_gram])
def test_bad_input(x, lam, match, fn):
    with pytest.raises(ValueError, match=match):
        fn(x, lam)
