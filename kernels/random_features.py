"""Random Fourier features (Rahimi & Recht 2007; Ghashami et al. 2016, section 1.1;
Ullah et al. 2018, eq. (2), which leaves the feature z_omega implicit: we use the
Rahimi-Recht map sqrt 2 cos(omega^T x + b), so tau = sqrt 2).

By Bochner's theorem a shift-invariant kernel with k(0) = 1 is
k(x, y) = E_omega[cos(omega^T (x - y))] for omega drawn from its spectral
density. Two unbiased maps are provided, k(x, y) ~= z(x)^T z(y):

``variant="cos"`` (Ghashami et al. 2016, Algorithm 1; Ullah et al. 2018 with tau = sqrt 2)
    z(x)_i = sqrt(2/m) cos(omega_i^T x + b_i), b_i ~ U[0, 2 pi), i = 1..m;
    |z(x)_i| <= sqrt(2/m) and ||z(x)||^2 <= 2.
``variant="paired"``
    z(x) = [cos(omega_i^T x), sin(omega_i^T x)]_{i=1..m} / sqrt(m), 2m columns;
    ||z(x)|| = 1 exactly (the form the Oja analysis of Ullah et al. 2018 needs:
    its Thm D.3 assumes ||z|| <= 1, i.e. Lambda <= 1 and gap <= 1/k).

Spectral densities for the kernels of :mod:`kernels.spec`:

gaussian  exp(-gamma ||x - y||^2)    omega ~ N(0, 2 gamma I_d)
laplacian exp(-gamma ||x - y||_1)    omega_j i.i.d. Cauchy(0, gamma)

(Ghashami et al. 2016 write exp(-||x - y||^2 / (2 sigma^2)) with
omega ~ N(0, sigma^-2 I): gamma = 1 / (2 sigma^2). Their (1/2 pi)^{d/2} prefactor
is an erratum: random features estimate a kernel with k(0) = 1, so we drop it.)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, prange

from .validation import check_array, check_positive, check_random_state

VARIANTS = ("cos", "paired")
RF_KERNELS = ("gaussian", "laplacian")


@njit(cache=True, parallel=True)
def _cos_features(P, phase, scale):
    """out = scale * cos(P + phase) in place of the projections P = X Omega (n, m)."""
    n, m = P.shape
    for r in prange(n):
        for c in range(m):
            P[r, c] = scale * np.cos(P[r, c] + phase[c])
    return P


@njit(cache=True, parallel=True)
def _paired_features(P, scale):
    """out[:, :m] = scale cos(P), out[:, m:] = scale sin(P) for P = X Omega (n, m)."""
    n, m = P.shape
    out = np.empty((n, 2 * m), dtype=np.float64)
    for r in prange(n):
        for c in range(m):
            out[r, c] = scale * np.cos(P[r, c])
            out[r, m + c] = scale * np.sin(P[r, c])
    return out


@dataclass(frozen=True)
class RandomFourierFeatures:
    """A drawn random Fourier feature map; build it with :func:`draw_rff`.

    Attributes
    ----------
    omega : ndarray (d, m)
        Frequencies, one column per feature (per cos/sin pair for ``"paired"``).
    phase : ndarray (m,)
        Phases b_i ~ U[0, 2 pi) (zeros for ``"paired"``, which has none).
    variant : {"cos", "paired"}
    """

    omega: np.ndarray
    phase: np.ndarray
    variant: str

    @property
    def n_frequencies(self) -> int:
        return self.omega.shape[1]

    @property
    def n_features(self) -> int:
        """Columns of z(x): m for ``"cos"``, 2m for ``"paired"``."""
        return self.n_frequencies * (2 if self.variant == "paired" else 1)

    def transform(self, X) -> np.ndarray:
        """Z with rows z(x_r) (module docstring), shape (n, n_features)."""
        X = check_array(X, "X")
        if X.shape[1] != self.omega.shape[0]:
            raise ValueError(f"X must have d = {self.omega.shape[0]} columns like the frequencies, "
                             f"got {X.shape[1]}")
        P = X @ self.omega
        m = self.n_frequencies
        if self.variant == "cos":
            return _cos_features(P, self.phase, np.sqrt(2.0 / m))
        return _paired_features(P, 1.0 / np.sqrt(m))

    def blocks(self, X, block_size: int = 4096):
        """Yield Z block by block (rows ``block_size`` at a time), so a stream
        of n rows costs O(block_size m) memory, never O(n m)."""
        block_size = check_positive(block_size, "block_size", integer=True)
        X = check_array(X, "X")
        for start in range(0, X.shape[0], block_size):
            yield self.transform(X[start:start + block_size])


def draw_rff(d: int, m: int, kernel: str = "gaussian", gamma: float = 1.0, variant: str = "cos",
             random_state=None) -> RandomFourierFeatures:
    """Draw m frequencies (and phases) for a d-dimensional input.

    Parameters
    ----------
    d : int > 0
        Input dimension.
    m : int > 0
        Number of frequencies: the feature count for ``"cos"``, half of it
        for ``"paired"``.
    kernel : {"gaussian", "laplacian"}
    gamma : float > 0
        Kernel parameter in the conventions of :mod:`kernels.spec`.
    variant : {"cos", "paired"}
    random_state : int, numpy Generator or None
        The same seed gives the same map.
    """
    d = check_positive(d, "d", integer=True)
    m = check_positive(m, "m", integer=True)
    gamma = check_positive(gamma, "gamma")
    if kernel not in RF_KERNELS:
        raise ValueError(f"kernel must be one of {RF_KERNELS} for random Fourier features, got {kernel!r}")
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")
    rng = check_random_state(random_state)
    if kernel == "gaussian":
        omega = rng.normal(0.0, np.sqrt(2.0 * gamma), size=(d, m))
    else:
        omega = gamma * rng.standard_cauchy(size=(d, m))
    phase = rng.uniform(0.0, 2.0 * np.pi, size=m) if variant == "cos" else np.zeros(m)
    return RandomFourierFeatures(np.ascontiguousarray(omega), phase, variant)
