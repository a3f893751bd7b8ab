"""The RandomNoisy generator and the bounds of Ghashami, Perry & Phillips (2016),
"Streaming Kernel Principal Component Analysis" (AISTATS 2016). Arrays in,
floats out.

Bounds, with j the FD shrink index (ell for standard FD, floor(ell/2) for the
paper's Algorithm 1) and sigma_i the singular values of A:

* FD (Liberty 2013; Ghashami & Phillips 2014), for both shrink rules:
  ||A^T A - B^T B||_2 <= Delta <= ||A - A_k||_F^2 / (j - k) for 0 <= k < j.
  The paper's Lemma 2.1 writes (ell - k) also for the halving rule; that
  denominator holds only for the standard shrink at sigma_ell^2.
  :func:`fd_bound` takes j explicitly, so the literal version is
  ``fd_bound(s2, ell, k)``.
* Lemma 2.2 (corrected): ||Z Z^T - Z W W^T Z^T||_2 <= ||Z^T Z - B^T B||_2
  <= ||Z||_F^2 / j  (the paper: ||Z||_F^2 / ell for Algorithm 1).
* Theorem 2.1: ||G - G~||_2 / n <= C sqrt(log(n / delta) / m) + 4 / ell; the
  constant C of m = O(log(n/delta) / eps^2) is not given, C = 1 is a loose
  regression check.
* Lemma 2.4 (as its proof gives it): ||G - G'_k||_F <=
  ||G - G_k||_F + sqrt(k) ||G - G'||_2 (the statement's eps sqrt(kn) is eps n
  sqrt(k) in the proof).
* RFF variance, for the cos map: Var[z(x)^T z(y)] =
  (1 + K(2 Delta) / 2 - K(Delta)^2) / m, Delta = x - y.
"""

from __future__ import annotations

import numbers

import numpy as np

from kpca_suite.kernels import check_array, check_positive, check_random_state

RANDOM_NOISY_S = 50
RANDOM_NOISY_ZETA = 10.0


def random_noisy(n: int, d: int, s: int = RANDOM_NOISY_S, zeta: float = RANDOM_NOISY_ZETA,
                 random_state=None, rotation=None) -> np.ndarray:
    """RandomNoisy (section 3, after Liberty 2013): A = S D U + F / zeta.

    S (n x s) and F (n x d) have i.i.d. N(0, 1) entries; D = diag(1 - (i - 1)/d),
    i = 1..s (the denominator is d, not s: entries 1 .. 1 - (s-1)/d); U (s x d)
    has orthonormal rows (a random rotation). The paper: n = 20000, d = 1000,
    s = 50, zeta = 10.

    Parameters
    ----------
    n, d, s : ints, s < d.
    zeta : float > 0, the signal-to-noise control.
    random_state : draws S and F.
    rotation : (s, d) U with orthonormal rows, or None to draw one from
        ``random_state`` (pass one U to draw several i.i.d. samples of the same
        distribution, e.g. a sweep over n).
    """
    n = check_positive(n, "n", integer=True)
    d = check_positive(d, "d", integer=True)
    s = check_positive(s, "s", integer=True)
    zeta = check_positive(zeta, "zeta")
    if s >= d:
        raise ValueError(f"s = {s} must be smaller than d = {d}")
    rng = check_random_state(random_state)
    U = random_rotation(s, d, rng) if rotation is None else np.asarray(rotation, dtype=np.float64)
    if U.shape != (s, d):
        raise ValueError(f"rotation must have shape (s, d) = ({s}, {d}), got {U.shape}")
    D = 1.0 - np.arange(s) / d
    return (rng.standard_normal((n, s)) * D) @ U + rng.standard_normal((n, d)) / zeta


def random_rotation(s: int, d: int, random_state=None) -> np.ndarray:
    """U (s x d) with orthonormal rows, uniformly distributed (QR of a Gaussian
    d x s matrix with the signs of R's diagonal fixed)."""
    rng = check_random_state(random_state)
    Q, R = np.linalg.qr(rng.standard_normal((d, s)))
    return (Q * np.sign(np.diag(R))).T


def rn_gamma(d: int, s: int = RANDOM_NOISY_S, zeta: float = RANDOM_NOISY_ZETA) -> float:
    """The bandwidth the suite uses on RandomNoisy (the paper gives none), in
    closed form: gamma = 1 / (2 sigma^2) for exp(-||x-y||^2 / (2 sigma^2)) with
    sigma^2 = E||x - y||^2 = 2 (sum_i D_ii^2 + d / zeta^2), the mean squared
    distance of two rows of :func:`random_noisy`. It depends on (d, s, zeta)
    only, so a sweep over n keeps one kernel."""
    D = 1.0 - np.arange(s) / d
    return 1.0 / (4.0 * (np.sum(D**2) + d / zeta**2))


#: Squared singular values below -ROUNDOFF * max are an error, the others below 0 are
#: clipped to 0 (eigenvalues of A^T A from eigvalsh carry round-off of eps ||A||_2^2).
ROUNDOFF = 1e-12


def fd_bound(sq_singular_values, j: int, k: int) -> float:
    """||A - A_k||_F^2 / (j - k) = sum_{i > k} sigma_i^2 / (j - k), for 0 <= k < j.

    ``sq_singular_values`` (sigma_i^2, any order) must be finite and >= 0 up to
    round-off: a value below -1e-12 * max_i sigma_i^2 raises ValueError, values in
    [-1e-12 max, 0) are clipped to 0.
    """
    s2 = check_array(sq_singular_values, "sq_singular_values", ndim=1)
    j = check_positive(j, "j", integer=True)
    k = check_positive(k, "k", integer=True, allow_zero=True)
    if not k < j:
        raise ValueError(f"need 0 <= k < j, got k = {k}, j = {j}")
    if s2.min() < -ROUNDOFF * max(s2.max(), 0.0):
        raise ValueError(f"sq_singular_values must be >= 0 (squared singular values), got a minimum of "
                         f"{float(s2.min())!r} beyond round-off (-{ROUNDOFF} * max)")
    s2 = np.sort(np.maximum(s2, 0.0))[::-1]
    return float(s2[k:].sum() / (j - k))


def lemma22_bound(z_frobenius_sq: float, j: int) -> float:
    """||Z||_F^2 / j (the last link of Lemma 2.2's chain, corrected for j)."""
    z_frobenius_sq = check_positive(z_frobenius_sq, "z_frobenius_sq", allow_zero=True)
    return z_frobenius_sq / check_positive(j, "j", integer=True)


def theorem21_bound(n: int, m: int, ell: int, delta: float = 0.1, C: float = 1.0) -> float:
    """C sqrt(log(n / delta) / m) + 4 / ell (Theorem 2.1, normalised by n), for
    0 < delta < n (so the logarithm is positive)."""
    n = check_positive(n, "n", integer=True)
    m = check_positive(m, "m", integer=True)
    ell = check_positive(ell, "ell", integer=True)
    delta = check_positive(delta, "delta")
    C = check_positive(C, "C")
    if not delta < n:
        raise ValueError(f"delta = {delta} must be smaller than n = {n} (log(n / delta) > 0)")
    return float(C * np.sqrt(np.log(n / delta) / m) + 4.0 / ell)


SPACE_METHODS = ("skpca", "rnca", "nystrom")


def paper_space(method: str, m: int, d: int, ell: int = 0) -> int:
    """Floats held after a fit, as the paper's SPACE counts them (Table 1, section 3), for
    m features (c = m landmarks) of d-dimensional rows:

    skpca    d m + m + ell m   (frequencies, phases, the ell x m sketch)
    rnca     d m + m + m^2     (frequencies, phases, the m x m covariance)
    nystrom  m d + m^2         (the landmarks and the m x m W)

    The m phases of the cos map are ours (the paper's O(dm) absorbs them)."""
    if method not in SPACE_METHODS:
        raise ValueError(f"method must be one of {SPACE_METHODS}, got {method!r}")
    m = check_positive(m, "m", integer=True)
    d = check_positive(d, "d", integer=True)
    if method == "skpca":
        return d * m + m + check_positive(ell, "ell", integer=True) * m
    if method == "rnca":
        return d * m + m + m * m
    return m * d + m * m


def lemma24_bound(tail_frobenius: float, k: int, spectral: float) -> float:
    """||G - G_k||_F + sqrt(k) ||G - G'||_2 (Lemma 2.4 as proved)."""
    tail_frobenius = check_positive(tail_frobenius, "tail_frobenius", allow_zero=True)
    k = check_positive(k, "k", integer=True)
    spectral = check_positive(spectral, "spectral", allow_zero=True)
    return float(tail_frobenius + np.sqrt(k) * spectral)


def _cos_map_variance(k_delta, k_2delta, m):
    """(1 + K(2 Delta)/2 - K(Delta)^2) / m, elementwise."""
    return (1.0 + k_2delta / 2.0 - k_delta**2) / m


def rff_variance(k_delta: float, k_2delta: float, m: int) -> float:
    """Var[z(x)^T z(y)] = (1 + K(2 Delta)/2 - K(Delta)^2) / m for the cos map, with the
    kernel values K(Delta), K(2 Delta) of a shift-invariant kernel with K(0) = 1, in [-1, 1].

    Derivation: with a = omega^T x + b, c = omega^T y + b, one feature's product is
    2 cos a cos c = cos(omega^T Delta) + cos(omega^T (x + y) + 2 b); b ~ U[0, 2 pi) makes the
    second term mean-zero with second moment 1/2 and uncorrelated with the first, whose
    second moment is (1 + K(2 Delta)) / 2. The m features are i.i.d., hence the 1/m."""
    for value, name in ((k_delta, "k_delta"), (k_2delta, "k_2delta")):
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not -1.0 <= value <= 1.0:
            raise ValueError(f"{name} must be a kernel value in [-1, 1], got {value!r}")
    m = check_positive(m, "m", integer=True)
    return float(_cos_map_variance(k_delta, k_2delta, m))


def rff_expected_frobenius_sq(G, G_2delta, m: int) -> float:
    """E ||G - Z Z^T||_F^2 = sum_{i,j} (1 + K(2 Delta_ij)/2 - K(Delta_ij)^2) / m for m i.i.d.
    cos features (:func:`rff_variance` summed over the pairs, as ZZ^T is unbiased).

    ``G`` holds K(x_i - x_j), ``G_2delta`` holds K(2 (x_i - x_j)) (for the Gaussian kernel
    exp(-gamma ||.||^2), K(2 Delta) = K(Delta)^4). The exact level of the random-feature
    error: a map whose features are not independent (repeated draws) exceeds it, one with
    negatively correlated ones (the paired [cos, sin] map, orthogonal features) stays below."""
    G = check_array(G, "G", ndim=2)
    G_2delta = check_array(G_2delta, "G_2delta", ndim=2)
    if G.shape[0] != G.shape[1] or G_2delta.shape != G.shape:
        raise ValueError(f"G and G_2delta must be one square shape, got {G.shape} and {G_2delta.shape}")
    for A, name in ((G, "G"), (G_2delta, "G_2delta")):
        if np.abs(A).max() > 1.0 + 1e-12:
            raise ValueError(f"{name} must hold kernel values in [-1, 1] (K(0) = 1), got {np.abs(A).max()!r}")
    m = check_positive(m, "m", integer=True)
    return float(_cos_map_variance(G, G_2delta, m).sum())
