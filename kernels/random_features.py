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
from numba import njit

from .validation import check_array, check_positive, check_random_state

VARIANTS = ("cos", "paired")
RF_KERNELS = ("gaussian", "laplacian")


# -- cos and sin that vectorise ------------------------------------------------------------
#
# Branch-free cos / sin after fdlibm (argument reduction by a three-part pi/2,
# the minimax kernels __kernel_cos / __kernel_sin on [-pi/4, pi/4], quadrant chosen by
# arithmetic instead of branches), so LLVM vectorises the loops over a block. NumPy's
# float64 np.cos is scalar libm on this class of CPU (AVX2, no AVX-512), and so is
# Numba's; the vectorised loop is several times faster (perf.rf-erm times the map). Largest
# difference from np.cos: 1.1e-16 (half an ulp of 1) over 4e6 arguments up to 1e6 in
# magnitude (15% of them differ in the last bit; tests/test_random_features.py pins it).

_INVPIO2 = 6.36619772367581382433e-01
_PIO2_1 = 1.57079632673412561417e+00    # first 33 bits of pi/2: n * _PIO2_1 is exact for |n| < 2^20
_PIO2_2 = 6.07710050630396597660e-11    # next 33 bits
_PIO2_2T = 2.02226624879595063154e-21   # pi/2 - (_PIO2_1 + _PIO2_2)
_PIO2_3 = 2.02226624871116645580e-21    # next 33 bits
_PIO2_3T = 8.47842766036889956997e-32   # pi/2 - (_PIO2_1 + _PIO2_2 + _PIO2_3)
_C1, _C2, _C3 = 4.16666666666666019037e-02, -1.38888888888741095749e-03, 2.48015872894767294178e-05
_C4, _C5, _C6 = -2.75573143513906633035e-07, 2.08757232129817482790e-09, -1.13596475577881948265e-11
_S1, _S2, _S3 = -1.66666666666666324348e-01, 8.33333333332248946124e-03, -1.98412698298579493134e-04
_S4, _S5, _S6 = 2.75573137070700676789e-06, -2.50507602534068634195e-08, 1.58969099521155010221e-10
#: Beyond this |argument| the reduction above is no longer exact: np.cos / np.sin take over.
FAST_TRIG_MAX = 1.0e6


@njit(cache=True)
def _sincos(x):
    """(cos x, sin x) for |x| < FAST_TRIG_MAX, without branches."""
    fn = np.floor(x * _INVPIO2 + 0.5)  # x = fn pi/2 + y, |y| <= pi/4
    r = x - fn * _PIO2_1
    w = fn * _PIO2_2
    t = r
    r = t - w
    w = fn * _PIO2_2T - ((t - r) - w)
    t = r
    w = fn * _PIO2_3
    r = t - w
    w = fn * _PIO2_3T - ((t - r) - w)
    y0 = r - w          # y = y0 + y1
    y1 = (r - y0) - w
    z = y0 * y0
    rc = z * (_C1 + z * (_C2 + z * (_C3 + z * (_C4 + z * (_C5 + z * _C6)))))
    hz = 0.5 * z
    wc = 1.0 - hz
    c = wc + (((1.0 - wc) - hz) + (z * rc - y0 * y1))       # cos y
    v = z * y0
    rs = _S2 + z * (_S3 + z * (_S4 + z * (_S5 + z * _S6)))
    s = y0 - ((z * (0.5 * y1 - v * rs) - y1) - v * _S1)     # sin y
    q = fn - 4.0 * np.floor(0.25 * fn)                      # quadrant 0..3
    odd = q - 2.0 * np.floor(0.5 * q)
    h = np.floor(0.5 * (q + 1.0))
    cos_sign = 1.0 - 2.0 * (h - 2.0 * np.floor(0.5 * h))    # + - - + for q = 0 1 2 3
    sin_sign = 1.0 - 2.0 * np.floor(0.5 * q)                # + + - -
    return cos_sign * ((1.0 - odd) * c + odd * s), sin_sign * ((1.0 - odd) * s + odd * c)


@njit(cache=True)
def _cos_features(P, phase, scale):
    """out = scale * cos(P + phase) in place of the projections P = X Omega (n, m)."""
    n, m = P.shape
    for r in range(n):
        for c in range(m):
            P[r, c] = scale * _sincos(P[r, c] + phase[c])[0]
    return P


@njit(cache=True)
def _paired_features(P, scale):
    """out[:, :m] = scale cos(P), out[:, m:] = scale sin(P) for P = X Omega (n, m)."""
    n, m = P.shape
    out = np.empty((n, 2 * m), dtype=np.float64)
    for r in range(n):
        for c in range(m):
            cs, sn = _sincos(P[r, c])
            out[r, c] = scale * cs
            out[r, m + c] = scale * sn
    return out


def _in_fast_range(P, phase) -> bool:
    return max(abs(float(P.max())), abs(float(P.min()))) + float(np.abs(phase).max(initial=0.0)) < FAST_TRIG_MAX


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
        """Z with rows z(x_r) (module docstring), shape (n, n_features).

        A float32 X gives a float32 Z, computed in single precision: P = X Omega by SGEMM
        with Omega rounded to float32, then NumPy's vectorised float32 cos and sin (any
        argument). The argument omega^T x + b then carries a round-off of about
        eps_32 (|omega|^T |x| + b), which is the float32 Z's error against the float64 one
        (perf.float32 measures the speed-up; tests/test_float32.py bounds the error)."""
        X = check_array(X, "X", allow_float32=True)
        if X.shape[1] != self.omega.shape[0]:
            raise ValueError(f"X must have d = {self.omega.shape[0]} columns like the frequencies, "
                             f"got {X.shape[1]}")
        if X.dtype == np.float32:
            return self._transform_float32(X)
        P = X @ self.omega
        m = self.n_frequencies
        if not _in_fast_range(P, self.phase):  # huge arguments: libm's full range reduction
            if self.variant == "cos":
                return np.sqrt(2.0 / m) * np.cos(P + self.phase)
            return np.hstack([np.cos(P), np.sin(P)]) / np.sqrt(m)
        if self.variant == "cos":
            return _cos_features(P, self.phase, np.sqrt(2.0 / m))
        return _paired_features(P, 1.0 / np.sqrt(m))

    def _transform_float32(self, X) -> np.ndarray:
        """:meth:`transform` of a float32 X, in float32; a ValueError naming X if an argument
        could overflow float32: |omega^T x + b| <= max ||x|| max ||omega_i|| + 2 pi (Cauchy-Schwarz)."""
        reach = (np.sqrt(np.einsum("ij,ij->i", X, X, dtype=np.float64).max())
                 * np.sqrt(np.einsum("ij,ij->j", self.omega, self.omega).max()) + 2 * np.pi)
        if not reach < np.finfo(np.float32).max:
            raise ValueError(f"X: the random features' arguments omega^T x may overflow float32 (up to {reach:.3g}); "
                             "pass X as float64")
        m = self.n_frequencies
        P = X @ self.omega.astype(np.float32)
        if self.variant == "cos":
            P += self.phase.astype(np.float32)
            np.cos(P, out=P)
            P *= np.float32(np.sqrt(2.0 / m))
            return P
        out = np.empty((X.shape[0], 2 * m), dtype=np.float32)
        np.cos(P, out=out[:, :m])
        np.sin(P, out=out[:, m:])
        out *= np.float32(1.0 / np.sqrt(m))
        return out

    def blocks(self, X, block_size: int = 4096):
        """Yield Z block by block (rows ``block_size`` at a time), so a stream
        of n rows costs O(block_size m) memory, never O(n m); float32 blocks for a
        float32 X (:meth:`transform`)."""
        block_size = check_positive(block_size, "block_size", integer=True)
        X = check_array(X, "X", allow_float32=True)
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
