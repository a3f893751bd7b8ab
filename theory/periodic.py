"""The population model of Bach (2013, Sec. 5 and App. D) on [0, 1): signal, designs and
the exact spectrum of the grid design. The kernels themselves are
:class:`kernels.PeriodicKernel` (mu_i = i^(-2 beta) or e^(-rho i), corrected Bernoulli form).

The signal of the experiments is f(x) = sum_i 2 nu_i^(1/2) cos(2 pi i x), nu_i = i^(-2 delta)
or e^(-kappa i): the same series with half the exponent, i.e. f(x) = k'(x, 0) for the
kernel k' with beta' = delta / 2 (delta a positive even integer) or rho' = kappa / 2.

Designs: the equispaced grid x_i = (i - 1) / n, where the Gram matrix is circulant and
its eigenvalues are the (real) DFT of its first column, n mu_i plus aliases (O(n log n));
and the uniform random design x_i ~ U[0, 1).
"""

from __future__ import annotations

import numpy as np

from kpca_suite.kernels.periodic import PeriodicKernel, check_points
from kpca_suite.kernels.validation import check_array, check_positive, check_random_state


def signal_kernel(decay: str, rate: float) -> PeriodicKernel:
    """The kernel whose x -> k(x, 0) is the signal f with nu_i = i^(-2 delta) (``rate`` =
    delta, a positive even integer: beta' = delta / 2) or nu_i = e^(-kappa i) (rho' = kappa / 2)."""
    if decay == "poly":
        delta = check_positive(rate, "rate (delta)", integer=True)
        if delta % 2:
            raise ValueError(f"delta must be an even integer (a cosine series in closed form), got {delta}")
        return PeriodicKernel("poly", delta // 2)
    return PeriodicKernel("exp", check_positive(rate, "rate (kappa)") / 2.0)


def periodic_signal(X, decay: str, rate: float) -> np.ndarray:
    """f(x) = sum_{i >= 1} 2 nu_i^(1/2) cos(2 pi i x) (Bach 2013, Sec. 5), shape (n,)."""
    X = check_points(X, "X")
    return signal_kernel(decay, rate).of_difference(X[:, 0])


def grid_design(n: int) -> np.ndarray:
    """x_i = (i - 1) / n, i = 1..n, shape (n, 1): the circulant design."""
    n = check_positive(n, "n", integer=True)
    return (np.arange(n, dtype=np.float64) / n)[:, None]


def uniform_design(n: int, random_state=None) -> np.ndarray:
    """x_i ~ U[0, 1) i.i.d., shape (n, 1)."""
    n = check_positive(n, "n", integer=True)
    return check_random_state(random_state).uniform(0.0, 1.0, size=(n, 1))


def circulant_eigenvalues(first_column) -> np.ndarray:
    """Eigenvalues of the symmetric circulant matrix with this first column: the real
    DFT, e_k = sum_j c_j cos(2 pi j k / n), k = 0..n-1 (e_k = e_{n-k}). O(n log n)."""
    c = check_array(first_column, "first_column", ndim=1)
    return np.fft.fft(c).real


def grid_spectrum(kernel: PeriodicKernel, n: int) -> np.ndarray:
    """Eigenvalues of K on the grid of n points (n mu_i plus aliases), from the FFT."""
    return circulant_eigenvalues(kernel.of_difference(grid_design(n)[:, 0]))


def grid_energy(z) -> np.ndarray:
    """Squared coordinates of z in an orthonormal eigenbasis of any circulant matrix,
    |DFT(z)_k|^2 / n, aligned with :func:`circulant_eigenvalues` (sum = ||z||^2)."""
    z = check_array(z, "z", ndim=1)
    return np.abs(np.fft.fft(z)) ** 2 / z.size
