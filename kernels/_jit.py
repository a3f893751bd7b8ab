"""Numba-jitted element-wise kernels. Plain arrays in and out; the Python layer
(:mod:`kernels.spec`) validates input and does the BLAS products.

The distance-based kernels are finished from the Gram matrix G = X Y^T with the
expansion ||x - y||^2 = ||x||^2 + ||y||^2 - 2 x^T y, clipped at 0 so round-off
never gives a negative squared distance. Each routine overwrites G in place.

Those three finishing passes run on one thread, by measurement: right after the
GEMM, OpenBLAS's worker threads are still spinning, and Numba's OpenMP threads
started for a ``prange`` then wait for a core, about 8 ms a call on 2 cores. A
Gaussian block of 1024 x 1000 (d = 10) took 8.0 ms (median of 30) with a parallel
pass and 1.3 ms with a serial one; 4096 x 1000, 8.0 ms and 6.2 ms; 20000 x 1000
(d = 20), 46.8 ms and 47.4 ms, while the serial pass leaves no Numba thread to wait.
The Laplacian block and the Fourier features make no BLAS call and stay parallel.
"""

import numpy as np
from numba import njit, prange


@njit(cache=True)
def neg_scaled_sq_dist_from_gram(G, x_sq, y_sq, gamma):
    """G[i, j] <- -gamma * max(x_sq[i] + y_sq[j] - 2 G[i, j], 0).

    The Gaussian block is then one vectorised ``np.exp(G, out=G)``: NumPy's SIMD
    exp is about twice as fast as Numba's scalar one in a fused loop, with the same
    values to 1.1e-16 (perf.gaussian-block measures the block). ``gamma`` comes in
    G's dtype and the loop has no float literal, so a float32 G is computed in float32
    (a 0.0 or 2.0 literal made every step float64: the float32 pass took 6.1 ms instead
    of 3.1 ms on 20000 x 1000; float64 is unchanged, bit for bit).
    """
    n, m = G.shape
    zero = gamma - gamma
    for i in range(n):
        xi = x_sq[i]
        for j in range(m):
            d2 = xi + y_sq[j] - (G[i, j] + G[i, j])
            G[i, j] = -gamma * max(d2, zero)
    return G


@njit(cache=True)
def cauchy_from_gram(G, x_sq, y_sq, gamma):
    """G[i, j] <- 1 / (1 + gamma * max(x_sq[i] + y_sq[j] - 2 G[i, j], 0))."""
    n, m = G.shape
    for i in range(n):
        xi = x_sq[i]
        for j in range(m):
            d2 = xi + y_sq[j] - 2.0 * G[i, j]
            if d2 < 0.0:
                d2 = 0.0
            G[i, j] = 1.0 / (1.0 + gamma * d2)
    return G


@njit(cache=True)
def int_power(b, k):
    """b^k for an integer k >= 1 by binary exponentiation: at most 2 log2(k) multiplications
    (one rounding for k = 2, two for k = 3), where pow() of a float exponent took 11-18 ns a
    value, most of a polynomial block (perf: test_kernel_block)."""
    r = 1.0
    while k > 0:
        if k & 1:
            r *= b
        b *= b
        k >>= 1
    return r


@njit(cache=True)
def polynomial_from_gram(G, gamma, coef0, degree, x_diag, y_diag, normalize):
    """G[i, j] <- (gamma G[i, j] + coef0)^degree (``degree`` an integer >= 1, by
    :func:`int_power`), times k(x_i, x_i)^{-1/2} k(y_j, y_j)^{-1/2} when ``normalize`` (the
    n + m square roots taken once: a square root and a division per value were half of a
    normalised block)."""
    n, m = G.shape
    if normalize:
        rx = 1.0 / np.sqrt(x_diag)
        ry = 1.0 / np.sqrt(y_diag)
    for i in range(n):
        for j in range(m):
            v = int_power(gamma * G[i, j] + coef0, degree)
            if normalize:
                v = v * rx[i] * ry[j]
            G[i, j] = v
    return G


@njit(cache=True)
def polynomial_diag(sq_norms, gamma, coef0, degree):
    """(gamma ||x_i||^2 + coef0)^degree, by :func:`int_power` as the blocks."""
    out = np.empty(sq_norms.shape[0])
    for i in range(sq_norms.shape[0]):
        out[i] = int_power(gamma * sq_norms[i] + coef0, degree)
    return out


@njit(cache=True, parallel=True)
def laplacian_block(X, Y, gamma):
    """K[i, j] = exp(-gamma * ||x_i - y_j||_1) (L1 distance, as scikit-learn)."""
    n, d = X.shape
    m = Y.shape[0]
    K = np.empty((n, m), dtype=X.dtype)
    for i in prange(n):
        for j in range(m):
            s = 0.0
            for k in range(d):
                s += abs(X[i, k] - Y[j, k])
            K[i, j] = np.exp(-gamma * s)
    return K


@njit(cache=True)
def row_sq_norms(X):
    """||x_i||^2 for every row (summed in float64, returned in X's dtype)."""
    n, d = X.shape
    out = np.empty(n, dtype=X.dtype)
    for i in range(n):
        s = 0.0
        for k in range(d):
            s += X[i, k] * X[i, k]
        out[i] = s
    return out
