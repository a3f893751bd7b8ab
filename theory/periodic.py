"""Periodic kernels on [0, 1) with exact Mercer spectra (Bach 2013, Sec. 5 and App. D;
reference/seed004.md section 3 and pitfall 5).

Both kernels are k(x, y) = sum_{i >= 1} 2 mu_i cos(2 pi i (x - y)), with no constant
(i = 0) term, so on U[0, 1) each frequency i >= 1 gives the eigenvalue mu_i twice
(its cos and sin functions):

=========  ===============  ==================================================
decay      mu_i             closed form, t = (x - y) - floor(x - y)
=========  ===============  ==================================================
``poly``   i^(-2 beta)      (-1)^(beta+1) (2 pi)^(2 beta) B_{2 beta}(t) / (2 beta)!
``exp``    e^(-rho i)       2 (e^rho cos 2 pi t - 1) / (e^(2 rho) - 2 e^rho cos 2 pi t + 1)
=========  ===============  ==================================================

B_m is the Bernoulli polynomial (B_2(t) = t^2 - t + 1/6). **Erratum**: the paper writes
the polynomial kernel as B_{2 beta}(t) / (2 beta)!, which is the series above times
(-1)^(beta+1) (2 pi)^(-2 beta): negative semidefinite for even beta (beta = 4, 8 of its
Figure 2) and scaled by 1.7e-13 for beta = 8. ``PeriodicKernel(..., literal=True)``
keeps the paper's formula for the planted-fault test; the default is the corrected one,
with k(x, x) = 2 zeta(2 beta) (R^2 = pi^2 / 3 for beta = 1).

The signal of the experiments is f(x) = sum_i 2 nu_i^(1/2) cos(2 pi i x), nu_i = i^(-2 delta)
or e^(-kappa i): the same series with half the exponent, i.e. f(x) = k'(x, 0) for the
kernel k' with beta' = delta / 2 (delta a positive even integer) or rho' = kappa / 2.

Designs: the equispaced grid x_i = (i - 1) / n, where the Gram matrix is circulant and
its eigenvalues are the (real) DFT of its first column, n mu_i plus aliases (O(n log n));
and the uniform random design x_i ~ U[0, 1).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import bernoulli, comb, zeta

from kpca_suite.kernels.validation import check_array, check_positive, check_random_state, check_same_width

DECAYS = ("poly", "exp")


def bernoulli_polynomial(m: int, t) -> np.ndarray:
    """B_m(t) = sum_k C(m, k) B_k t^(m - k) (B_1 = -1/2), by Horner's rule."""
    m = check_positive(m, "m", integer=True)
    coeffs = [comb(m, k, exact=True) * float(b) for k, b in enumerate(bernoulli(m))]  # of t^(m-k)
    t = np.asarray(t, dtype=np.float64)
    out = np.zeros_like(t)
    for c in coeffs:
        out = out * t + c
    return out


@dataclass(frozen=True)
class PeriodicKernel:
    """k(x, y) = sum_{i >= 1} 2 mu_i cos(2 pi i (x - y)) on [0, 1), in closed form.

    Same evaluation interface as :class:`kernels.Kernel` (``block``, ``diag``), so the
    estimators of :mod:`methods.krr` take it directly. Inputs have one column.

    Parameters
    ----------
    decay : "poly" (mu_i = i^(-2 beta), ``rate`` = beta, a positive integer) or
        "exp" (mu_i = e^(-rho i), ``rate`` = rho > 0).
    rate : beta or rho.
    literal : poly only; True evaluates the paper's B_{2 beta}(t) / (2 beta)! (wrong sign
        for even beta, wrong scale always: module docstring), for planted-fault tests.
    """

    decay: str = "poly"
    rate: float = 1
    literal: bool = False

    def __post_init__(self):
        if self.decay not in DECAYS:
            raise ValueError(f"decay must be one of {DECAYS}, got {self.decay!r}")
        if self.decay == "poly":
            object.__setattr__(self, "rate", check_positive(self.rate, "rate (beta)", integer=True))
        else:
            if self.literal:
                raise ValueError("literal=True applies to the Bernoulli (poly) kernel only")
            object.__setattr__(self, "rate", check_positive(self.rate, "rate (rho)"))

    @property
    def _scale(self) -> float:
        """Factor of mu_i relative to the stated decay: 1, or the literal formula's."""
        if self.decay == "poly" and self.literal:
            return (-1.0) ** (self.rate + 1) * (2 * math.pi) ** (-2 * self.rate)
        return 1.0

    def mu(self, i) -> np.ndarray:
        """Mercer eigenvalue mu_i of frequency i >= 1 (times the literal factor if set)."""
        i = np.asarray(i, dtype=np.float64)
        base = i ** (-2.0 * self.rate) if self.decay == "poly" else np.exp(-self.rate * i)
        return self._scale * base

    def of_difference(self, t) -> np.ndarray:
        """k as a function of t = x - y (any real t; the kernel is 1-periodic)."""
        t = np.asarray(t, dtype=np.float64)
        t = t - np.floor(t)
        if self.decay == "poly":
            b = self.rate
            scale = 1.0 if self.literal else (-1.0) ** (b + 1) * (2 * math.pi) ** (2 * b)
            return scale * bernoulli_polynomial(2 * b, t) / math.factorial(2 * b)
        e, c = math.exp(self.rate), np.cos(2 * math.pi * t)
        return 2.0 * (e * c - 1.0) / (e * e - 2.0 * e * c + 1.0)

    def block(self, X, Y=None, *, validate: bool = True) -> np.ndarray:
        """K[i, j] = k(x_i, y_j) for one-column X (n, 1) and Y (m, 1)."""
        if validate:
            X = _check_points(X, "X")
            Y = X if Y is None else _check_points(Y, "Y")
            check_same_width(X, Y)
        elif Y is None:
            Y = X
        return self.of_difference(X[:, :1] - Y[:, 0][None, :])

    def diag(self, X, *, validate: bool = True) -> np.ndarray:
        """k(x, x) = R^2 for every row."""
        if validate:
            X = _check_points(X, "X")
        return np.full(X.shape[0], self.sup_diag())

    def sup_diag(self, X=None) -> float:
        """R^2 = k(x, x) = 2 sum_i mu_i: 2 zeta(2 beta) or 2 / (e^rho - 1) (literal: scaled)."""
        if self.decay == "poly":
            return float(self._scale * 2.0 * zeta(2 * self.rate))
        return 2.0 / math.expm1(self.rate)


def _check_points(X, name):
    X = check_array(X, name)
    if X.shape[1] != 1:
        raise ValueError(f"{name} must have one column (points of [0, 1)), got shape {X.shape}")
    return X


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
    X = _check_points(X, "X")
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
