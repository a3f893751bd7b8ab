"""Explicit Fourier feature map of the population model behind the rate checks of
Sterge et al. 2020 (eigenvalues lambda_i = i^-alpha, polynomial decay, or
lambda_i = e^{-tau i}, exponential decay).

For x in [0, 1) and eigenvalues lambda_1, ..., lambda_J the features are

.. math::  \\Phi_i(x) = \\sqrt{\\lambda_i}\\, \\psi_i(x), \\qquad
           \\psi_1 = 1,\\ \\psi_{2j} = \\sqrt 2 \\cos(2\\pi j x),\\
           \\psi_{2j+1} = \\sqrt 2 \\sin(2\\pi j x)

(1-based i). The psi_i are orthonormal in L^2(U[0, 1)), so for X ~ U[0, 1) the
uncentered covariance E[Phi(X) Phi(X)^T] is diag(lambda) and the kernel
k(x, y) = Phi(x)^T Phi(y) has Mercer spectrum lambda (Sterge et al. 2020, eqs. (1)-(2)).
In 0-based columns c: c = 0 is the constant, odd c is cos(2 pi ((c+1)//2) x),
even c > 0 is sin(2 pi (c//2) x).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from .validation import check_array

_TWO_PI = 2.0 * np.pi
_SQRT2 = np.sqrt(2.0)


@njit(cache=True, parallel=True)
def _fourier_block(x, sqrt_lam):
    """out[r, c] = sqrt_lam[c] psi_c(x[r]) in the 0-based column order above.

    The angle is reduced before the trigonometric call: u = frac(j frac(x)), so
    cos(2 pi u) is evaluated on [0, 2 pi) and the only error growing with the
    frequency j is the rounding of the product j x (about j * 1e-16).
    """
    n = x.shape[0]
    J = sqrt_lam.shape[0]
    out = np.empty((n, J), dtype=np.float64)
    for r in prange(n):
        xr = x[r] - np.floor(x[r])
        out[r, 0] = sqrt_lam[0]
        for c in range(1, J):
            u = ((c + 1) // 2) * xr
            a = _TWO_PI * (u - np.floor(u))
            if c % 2 == 1:
                out[r, c] = _SQRT2 * sqrt_lam[c] * np.cos(a)
            else:
                out[r, c] = _SQRT2 * sqrt_lam[c] * np.sin(a)
    return out


def fourier_features(x, eigenvalues) -> np.ndarray:
    """Feature matrix Phi with Phi[r, i] = sqrt(lambda_i) psi_i(x_r) (the basis above).

    Parameters
    ----------
    x : array of shape (n,)
        Points, finite; the map is 1-periodic, the population model draws them
        from U[0, 1).
    eigenvalues : array of shape (J,)
        lambda_1, ..., lambda_J, finite and >= 0.

    Returns
    -------
    Phi : ndarray of shape (n, J), float64
        Phi Phi^T is the Gram matrix of k(x, y) = sum_i lambda_i psi_i(x) psi_i(y).
    """
    x = check_array(x, "x", ndim=1)
    lam = check_array(eigenvalues, "eigenvalues", ndim=1)
    if (lam < 0).any():
        raise ValueError(f"eigenvalues must be >= 0, got a minimum of {lam.min()!r}")
    return _fourier_block(x, np.sqrt(lam))
