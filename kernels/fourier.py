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
#: Steps of the rotation recurrence in :func:`_fourier_block` and :func:`_trig_moments`
#: between two exact evaluations of cos and sin: each step adds a few eps of relative error,
#: so a term carries at most about 4 x RESET eps (the bound of :func:`fourier_gram`).
RESET = 32


@njit(cache=True)
def _reduced_cos_sin(q, xr):
    """(cos, sin) of 2 pi q xr for xr in [0, 1), the angle reduced exactly first: with
    xr = xh + xl, xh = xr rounded down to 2^-26, q xh and its fractional part are exact for
    q < 2^27 and q xl < q 2^-26 < 1, so u = frac(q xh) + q xl is frac(q xr) to a few eps for
    every q < 2^26 (rounding q xr itself cost about q eps: tests/test_numerics.py)."""
    xh = np.floor(xr * 67108864.0) / 67108864.0
    v = q * xh
    u = (v - np.floor(v)) + q * (xr - xh)
    a = _TWO_PI * (u - np.floor(u))
    return np.cos(a), np.sin(a)


@njit(cache=True)
def _cos_sin_run(xr, q0, cos_out, sin_out):
    """cos_out[k] = cos 2 pi (q0 + k) xr and sin_out[k] = sin 2 pi (q0 + k) xr, for each k
    below the array's length (sin_out may be one shorter): each frequency's pair the rotation
    of the previous one by the angle 2 pi xr (two multiplications and an addition each),
    evaluated afresh (:func:`_reduced_cos_sin`) every :data:`RESET` frequencies, so a value
    carries at most about 4 RESET eps. The outputs may be strided views (a feature row's
    cos and sin columns)."""
    c1, s1 = _reduced_cos_sin(1, xr)
    for k in range(cos_out.shape[0]):
        if k % RESET == 0:
            c, s = _reduced_cos_sin(q0 + k, xr)
        cos_out[k] = c
        if k < sin_out.shape[0]:
            sin_out[k] = s
        c, s = c * c1 - s * s1, s * c1 + c * s1


@njit(cache=True, parallel=True)
def _fourier_block(x, sqrt_lam, first):
    """out[r, c - first] = sqrt_lam[c] psi_c(x[r]) for the 0-based columns c = first..J-1
    in the order above (first = 1 leaves the constant out).

    Per point, the cos and sin columns are filled by :func:`_cos_sin_run` (one pair of
    trigonometric calls per :data:`RESET` frequencies instead of one call per column), then
    scaled by sqrt(2 lambda_c).
    """
    n = x.shape[0]
    J = sqrt_lam.shape[0]
    out = np.empty((n, J - first), dtype=np.float64)
    for r in prange(n):
        row = out[r]
        if first == 0:
            row[0] = sqrt_lam[0]
        _cos_sin_run(x[r] - np.floor(x[r]), 1, row[1 - first::2], row[2 - first::2])
        for c in range(1, J):
            row[c - first] *= _SQRT2 * sqrt_lam[c]
    return out


def fourier_features(x, eigenvalues, constant: bool = True) -> np.ndarray:
    """Feature matrix Phi with Phi[r, i] = sqrt(lambda_i) psi_i(x_r) (the basis above).

    Parameters
    ----------
    x : array of shape (n,)
        Points, finite; the map is 1-periodic, the population model draws them
        from U[0, 1).
    eigenvalues : array of shape (J,)
        lambda_1, ..., lambda_J, finite and >= 0.
    constant : bool
        False leaves out the column of the constant psi_1 (lambda_1 is then unused): the
        zero-mean model's features, made without an n x J copy.

    Returns
    -------
    Phi : ndarray of shape (n, J) (constant=False: (n, J - 1)), float64
        Phi Phi^T is the Gram matrix of k(x, y) = sum_i lambda_i psi_i(x) psi_i(y).
    """
    x = check_array(x, "x", ndim=1)
    lam = check_array(eigenvalues, "eigenvalues", ndim=1)
    if (lam < 0).any():
        raise ValueError(f"eigenvalues must be >= 0, got a minimum of {lam.min()!r}")
    return _fourier_block(x, np.sqrt(lam), 0 if constant else 1)


@njit(cache=True)
def _trig_moments(x, qmax):
    """C[q] = sum_r cos(2 pi q x_r) and S[q] = sum_r sin(2 pi q x_r), q = 0..qmax, each
    point's values from :func:`_cos_sin_run`."""
    C = np.zeros(qmax + 1)
    S = np.zeros(qmax + 1)
    cs = np.empty(qmax + 1)
    sn = np.empty(qmax + 1)
    for r in range(x.shape[0]):
        _cos_sin_run(x[r] - np.floor(x[r]), 0, cs, sn)
        C += cs
        S += sn
    return C, S


@njit(cache=True)
def _moment_gram(C, S, sqrt_lam, n):
    """Psi^T Psi scaled by sqrt_lam on both sides, from the moments of :func:`_trig_moments`
    (formulas in :func:`fourier_gram`); the column order of :func:`_fourier_block`."""
    J = sqrt_lam.shape[0]
    out = np.empty((J, J))
    for i in range(J):
        fi = (i + 1) // 2
        for j in range(i + 1):
            fj = (j + 1) // 2
            lo, hi = C[fi - fj], C[fi + fj]  # j <= i, so fj <= fi
            if j == 0:
                v = n if i == 0 else _SQRT2 * (C[fi] if i % 2 == 1 else S[fi])
            elif i % 2 == 1 and j % 2 == 1:
                v = lo + hi
            elif i % 2 == 0 and j % 2 == 0:
                v = lo - hi
            elif i % 2 == 1:  # cos at fi, sin at fj: S(fi + fj) - S(fi - fj)
                v = S[fi + fj] - S[fi - fj]
            else:  # sin at fi, cos at fj: S(fi + fj) + S(fi - fj)
                v = S[fi + fj] + S[fi - fj]
            v *= sqrt_lam[i] * sqrt_lam[j]
            out[i, j] = v
            out[j, i] = v
    return out


def fourier_gram(x, eigenvalues) -> np.ndarray:
    """Phi^T Phi (J x J) of the feature matrix of :func:`fourier_features`, without Phi:
    O(n J + J^2) instead of the O(n J^2) of the product.

    With C(q) = sum_r cos(2 pi q x_r) and S(q) = sum_r sin(2 pi q x_r), the product
    formulas give, for the basis functions of frequencies j and k,

    .. math::  \\sum_r \\psi^{\\cos}_j \\psi^{\\cos}_k = C(j - k) + C(j + k), \\qquad
               \\sum_r \\psi^{\\sin}_j \\psi^{\\sin}_k = C(j - k) - C(j + k),

    .. math::  \\sum_r \\psi^{\\cos}_j \\psi^{\\sin}_k = S(j + k) - S(j - k), \\qquad
               \\sum_r \\psi_1 \\psi^{\\cos}_j = \\sqrt 2\\, C(j), \\quad
               \\sum_r \\psi_1 \\psi^{\\sin}_j = \\sqrt 2\\, S(j), \\quad \\sum_r \\psi_1^2 = n

    (C even, S odd in q), and (Phi^T Phi)_ik = sqrt(lambda_i lambda_k) (Psi^T Psi)_ik. The
    moments for q <= 2 max j take one rotation per point and frequency (:func:`_trig_moments`).
    Each moment term carries at most about (4 RESET + 2) eps and each sum of n terms up to
    n eps more, as does the product's, so the two agree entrywise within
    2 (4 RESET + 2 + 2 n) n eps sqrt(lambda_i lambda_k) (tests/test_fourier.py checks it; at
    n = 10^4, J = 2048 they differed by 1.4e-14 sqrt(G_ii G_kk)).

    Parameters
    ----------
    x : array of shape (n,)
        Points, finite.
    eigenvalues : array of shape (J,)
        lambda_1, ..., lambda_J, finite and >= 0, as for :func:`fourier_features`.
    """
    x = check_array(x, "x", ndim=1)
    lam = check_array(eigenvalues, "eigenvalues", ndim=1)
    if (lam < 0).any():
        raise ValueError(f"eigenvalues must be >= 0, got a minimum of {lam.min()!r}")
    C, S = _trig_moments(x, 2 * (lam.shape[0] // 2))
    return _moment_gram(C, S, np.sqrt(lam), float(x.shape[0]))
