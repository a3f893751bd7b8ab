"""The confidence bound of Hallgren (2021), Theorem 3, its conservative variant, the bounds
of the corollary of Section 6.1 (unnumbered in the paper), and ||C_n - C_m||_HS from kernel
sums (Hallgren 2021, "Kernel PCA with the Nyström method", Theorem 3 and Section 6.1).

Theorem 3 (zero-mean setting, B = sup_x k(x, x), d = 1..m-1): with confidence
alpha = 1 - 2 e^{-delta}, i.e. delta = ln(2 / (1 - alpha)),

.. math::  R_n(\\tilde V_d) - R_n(\\hat V_d) \\le \\sum_{j \\le d} \\hat\\lambda^m_j D_j
           + D \\max_{k \\le d} D_k,

    D = \\frac{n-m}{n}\\Big(\\frac{B\\sqrt{2\\delta}}{\\sqrt{n-m}} + \\frac{B^2}{\\sqrt m} c^*\\Big),
    \\quad c^* = \\sqrt{2\\ln 2} + 2\\sqrt{2\\pi}\\,\\Phi(-\\sqrt{2\\ln 2}) = 1.7765741,

    D_j = \\min(1, D^2 / (\\hat\\lambda^m_j - \\hat\\lambda^m_{j+1})^2)\\ (\\text{one-sided gap; } 1 \\text{ if the gap} \\le 10^{-14}),

with lambda^m the eigenvalues of the *uncentred* K_mm / m (below 1e-12 set to 0), as in
the paper and its code at commit 3361539. Only the m subset points are needed:
O(m^3) time, O(m^2) memory. m = n gives 0 (Nyström is exact).

The proof has gaps: ||z z^* - E|| <= B is false in general (diag(1, 0) - diag(0, 1)
has norm sqrt 2; positivity gives only sqrt 2 B); bounding ||C_m - E C|| by B times
its expectation is not a high-probability step; Lidskii in HS norm needs sqrt d;
Davis-Kahan needs the two-sided gap and a factor 2; the i.i.d. split needs a subset
drawn independently of the data (not "any" distribution); D mixes B and B^2, so
use B = 1 kernels. The conservative variant (ours, not the paper's) repairs them:

.. math::  D' = \\frac{n-m}{n}\\sqrt2\\, B\\sqrt{2\\delta'}\\Big(\\frac1{\\sqrt{n-m}} + \\frac1{\\sqrt m}\\Big),
    \\quad D'_j = \\min(1, 4 D'^2 / g_j^2),\\ g_j = \\min(\\lambda_{j-1} - \\lambda_j, \\lambda_j - \\lambda_{j+1}),
    \\ \\lambda_0 = \\infty,

    \\text{bound}' = \\sum_{j \\le d} \\hat\\lambda^m_j D'_j + \\sqrt d\\, D' \\max_{k \\le d} D'_k,

at confidence 1 - 4 e^{-delta'}, so delta' = ln(4 / (1 - alpha)) for the same alpha.
"""

from __future__ import annotations

import math

import numpy as np

from kpca_suite.kernels import Kernel, check_array, check_positive

#: c* = sqrt(2 ln 2) + 2 sqrt(2 pi) Phi(-sqrt(2 ln 2)) (Theorem 3).
# Phi(-a) = erfc(a / sqrt 2) / 2, the standard normal cdf
C_STAR = math.sqrt(2 * math.log(2)) + 2 * math.sqrt(2 * math.pi) * 0.5 * math.erfc(math.sqrt(math.log(2)))
VARIANTS = ("paper", "conservative")
#: Eigenvalues of K_mm / m below this are set to 0 (the paper's code).
EIG_FLOOR = 1e-12
#: Gaps at or below this count as ties: D_j = 1 (the paper's code).
GAP_FLOOR = 1e-14
#: K_mm must be symmetric to this relative tolerance: max |K - K^T| <= SYMMETRY_RTOL * max |K|.
SYMMETRY_RTOL = 1e-10


def _check_alpha(alpha):
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, np.floating)) or not 0 < alpha < 1:
        raise ValueError(f"alpha must be a confidence level in (0, 1), got {alpha!r}")
    return float(alpha)


def kernel_bound(kernel: Kernel) -> float:
    """B = sup_x k(x, x) over the whole input space: 1 for the Gaussian, Laplacian,
    Cauchy and normalised polynomial kernels (Eq. (5)). Unbounded kernels raise: the
    maximum over a sample is not a bound on the input space."""
    if not isinstance(kernel, Kernel):
        raise TypeError(f"kernel must be a kernels.Kernel, got {type(kernel).__name__}")
    if kernel.name in ("gaussian", "laplacian", "cauchy") or (kernel.name == "polynomial" and kernel.normalize):
        return 1.0
    raise ValueError(f"B = sup k(x, x) of the {kernel.name} kernel is unbounded, so Theorem 3 does not apply; "
                     f"normalise it by Eq. (5), k(x, y) / sqrt(k(x, x) k(y, y)) (Kernel('polynomial', "
                     f"normalize=True)), or pass B explicitly for a bounded input domain")


def theorem3_D(n: int, m: int, B: float = 1.0, alpha: float = 0.9, variant: str = "paper") -> float:
    """D of Theorem 3 (``variant="paper"``) or D' of the conservative variant.

    Hand value: n = 1000, m = 100, B = 1, alpha = 0.9 (delta = ln 20,
    sqrt(2 delta) = 2.4477468) gives
    D = 0.9 (0.0815916 + 0.1776574) = 0.2333241.
    """
    n = check_positive(n, "n", integer=True)
    m = check_positive(m, "m", integer=True)
    B = check_positive(B, "B")
    alpha = _check_alpha(alpha)
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {VARIANTS}, got {variant!r}")
    if m > n:
        raise ValueError(f"m = {m} must not exceed n = {n}")
    if m == n:
        return 0.0
    if variant == "paper":
        delta = math.log(2 / (1 - alpha))
        return (n - m) / n * (B * math.sqrt(2 * delta) / math.sqrt(n - m) + B**2 / math.sqrt(m) * C_STAR)
    delta = math.log(4 / (1 - alpha))
    return (n - m) / n * math.sqrt(2) * B * math.sqrt(2 * delta) * (1 / math.sqrt(n - m) + 1 / math.sqrt(m))


def check_kernel_matrix(Kmm) -> np.ndarray:
    """Kmm as a finite, square float64 array, symmetric up to round-off:
    max |K - K^T| <= 1e-10 max |K|; else a ValueError naming Kmm."""
    Kmm = check_array(Kmm, "Kmm")
    if Kmm.shape[0] != Kmm.shape[1]:
        raise ValueError(f"Kmm must be square, got shape {Kmm.shape}")
    asym = float(np.abs(Kmm - Kmm.T).max())
    if asym > SYMMETRY_RTOL * float(np.abs(Kmm).max()):
        raise ValueError(f"Kmm must be a symmetric kernel matrix: max |Kmm - Kmm^T| = {asym:.3g} exceeds "
                         f"{SYMMETRY_RTOL} * max |Kmm|")
    return Kmm


def subset_eigenvalues(Kmm) -> np.ndarray:
    """lambda^m_j: eigenvalues of the uncentred K_mm / m, descending, < 1e-12 set to 0.
    Kmm as :func:`check_kernel_matrix` accepts it."""
    Kmm = check_kernel_matrix(Kmm)
    lam = np.linalg.eigvalsh((Kmm + Kmm.T) / 2 / Kmm.shape[0])[::-1]
    lam[lam < EIG_FLOOR] = 0.0
    return lam


def theorem3_bound(Kmm, n: int, d: int, B: float = 1.0, alpha: float = 0.9, variant: str = "paper") -> np.ndarray:
    """The bound on R_n(V~_j) - R_n(V^_j) for j = 1..d (module docstring).

    Parameters
    ----------
    Kmm : (m, m) the uncentred kernel matrix of the subset: finite and symmetric
        (:func:`check_kernel_matrix`).
    n : the size of the full data set, n >= m.
    d : the largest dimension, 1 <= d <= m - 1 (the theorem needs lambda_{d+1}).
    B : sup_x k(x, x); see :func:`kernel_bound`.
    alpha : the confidence level.
    variant : "paper" (Theorem 3 as printed) or "conservative".

    Returns
    -------
    (d,) ndarray; zeros when m = n.
    """
    lam = subset_eigenvalues(Kmm)
    m = lam.size
    d = check_positive(d, "d", integer=True)
    if d >= m:
        raise ValueError(f"d = {d} must be at most m - 1 = {m - 1}: Theorem 3 needs the gap to lambda_(d+1)")
    D = theorem3_D(n, m, B, alpha, variant)
    if m == n:
        return np.zeros(d)
    below = lam[:-1] - lam[1:]
    if variant == "paper":
        gaps = below[:d]
        Dj = np.ones(d)
        ok = gaps > GAP_FLOOR
        Dj[ok] = np.minimum(1.0, D**2 / gaps[ok] ** 2)
        extra = D * np.maximum.accumulate(Dj)
    else:
        above = np.concatenate([[np.inf], below])[:d]
        gaps = np.minimum(above, below[:d])
        Dj = np.ones(d)
        ok = gaps > GAP_FLOOR
        Dj[ok] = np.minimum(1.0, 4 * D**2 / gaps[ok] ** 2)
        extra = np.sqrt(np.arange(1, d + 1)) * D * np.maximum.accumulate(Dj)
    return np.cumsum(lam[:d] * Dj) + extra


def corollary61_bounds(n: int, B: float = 1.0, alpha: float = 0.9) -> dict:
    """The bounds of Sec. 6.1's unnumbered corollary (uncentred C, each w.p. >= 1 - 2 e^{-delta}):

    * ``hs``: ||C - C_n||_HS <= B sqrt(2 delta / n);
    * ``sup_eig``: sup_j |lambda_j - lambda^n_j| <= B sqrt(2 delta / n);
    * ``sum_sq_eig``: sum_j (lambda_j - lambda^n_j)^2 <= 2 B^2 delta / n;
    * ``trace``: |Tr C - Tr C_n| <= B sqrt(2 delta / n).

    They rest on ||z z^* - E Z Z^*||_HS <= B, which is false in general
    (positivity gives only sqrt 2 B, see the module docstring).
    """
    n = check_positive(n, "n", integer=True)
    B = check_positive(B, "B")
    delta = math.log(2 / (1 - _check_alpha(alpha)))
    eps = B * math.sqrt(2 * delta / n)
    return {"hs": eps, "sup_eig": eps, "sum_sq_eig": 2 * B**2 * delta / n, "trace": eps}


def centred_eigenvalue_bound(n: int, B: float = 1.0, alpha: float = 0.9) -> float:
    """A centred analogue of the eigenvalue bound of Sec. 6.1's corollary (ours, not the paper's):
    sup_j |Lambda_j - Lambda^n_j| <= (sqrt 2 + 4) B sqrt(2 delta / n) with probability
    >= 1 - 4 e^{-delta}, delta = ln(4 / (1 - alpha)), for the centred covariance
    Sigma = C - mu (x) mu and its empirical Sigma_n = C_n - mu_n (x) mu_n.

    Proof: sup_j |Lambda_j - Lambda^n_j| <= ||Sigma - Sigma_n||_HS (Hoffman-Wielandt)
    <= ||C - C_n||_HS + ||mu_n (x) mu_n - mu (x) mu||_HS. The first is an average of
    k_x (x) k_x, each within sqrt 2 B of its mean in HS norm (the repaired constant of
    the module docstring), so it is <= sqrt 2 B sqrt(2 delta / n) w.p. >= 1 - 2 e^{-delta}
    (Pinelis' inequality in a Hilbert space). The second is
    ||mu_n (x) (mu_n - mu) + (mu_n - mu) (x) mu|| <= 2 sqrt B ||mu_n - mu||, and mu_n
    averages k_x, each within 2 sqrt B of mu, so ||mu_n - mu|| <= 2 sqrt B sqrt(2 delta / n)
    w.p. >= 1 - 2 e^{-delta}. A union bound gives the level.
    """
    n = check_positive(n, "n", integer=True)
    B = check_positive(B, "B")
    delta = math.log(4 / (1 - _check_alpha(alpha)))
    return (math.sqrt(2) + 4) * B * math.sqrt(2 * delta / n)


def hs_distance_sq(sum_K2: float, sum_Knm2: float, sum_Kmm2: float, n: int, m: int) -> float:
    """||C_n - C_m||_HS^2 = sum K^2 / n^2 - 2 sum K_nm^2 / (n m) + sum K_mm^2 / m^2 from the
    three sums of squared kernel values (<z_i (x) z_i, z_j (x) z_j>_HS = k(x_i, x_j)^2),
    clipped at 0 against round-off. The sums are finite and >= 0, n and m positive integers."""
    sum_K2 = check_positive(sum_K2, "sum_K2", allow_zero=True)
    sum_Knm2 = check_positive(sum_Knm2, "sum_Knm2", allow_zero=True)
    sum_Kmm2 = check_positive(sum_Kmm2, "sum_Kmm2", allow_zero=True)
    n = check_positive(n, "n", integer=True)
    m = check_positive(m, "m", integer=True)
    return max(sum_K2 / n**2 - 2 * sum_Knm2 / (n * m) + sum_Kmm2 / m**2, 0.0)


def hs_distance_sq_mean(sum_diag_K2: float, sum_K2: float, n: int, m: int) -> float:
    r"""E ||C_m - C_n||_HS^2 over a subset of m rows drawn uniformly **without replacement**:

    .. math::  \frac{n - m}{m (n - 1)} \Big(\frac{1}{n}\sum_i k(x_i, x_i)^2 - \frac{\sum K^2}{n^2}\Big)

    C_m is the mean of m of the n points z_i (x) z_i of the HS space, C_n their mean, and
    ||z_i (x) z_i||_HS^2 = k(x_i, x_i)^2, ||C_n||_HS^2 = sum K^2 / n^2: the finite-population
    variance of a sample mean (the factor (n - m) / (n - 1) is the without-replacement
    correction; with replacement it is 1). The exact level of the HS term that Theorem 3's D
    bounds with high probability. The sums are finite and >= 0, 1 <= m <= n, n >= 2."""
    sum_diag_K2 = check_positive(sum_diag_K2, "sum_diag_K2", allow_zero=True)
    sum_K2 = check_positive(sum_K2, "sum_K2", allow_zero=True)
    n = check_positive(n, "n", integer=True)
    m = check_positive(m, "m", integer=True)
    if n < 2 or m > n:
        raise ValueError(f"need n >= 2 and 1 <= m <= n, got n = {n}, m = {m}")
    return (n - m) / (m * (n - 1)) * max(sum_diag_K2 / n - sum_K2 / n**2, 0.0)


def subset_difference_bound(hs: float, d: int) -> np.ndarray:
    r"""A deterministic bound on the Subset difference, j = 1..d, from the observed
    eps = ||C_n - C_m||_HS:

    .. math::  R_n(V^m_j) - R_n(\hat V_j) \le 2 \sqrt{j}\, \varepsilon

    with V^m_j the top-j eigenvectors of C_m (projector P). The difference is
    [sum_{i<=j} lambda_i(C_n) - sum_{i<=j} lambda_i(C_m)] + tr(P (C_m - C_n)); by Ky Fan the
    first bracket is at most sum_{i<=j} lambda_i(C_n - C_m) <= sqrt(j) eps, and the second is
    at most ||P||_HS eps = sqrt(j) eps. It bounds the Nyström difference too (Nyström's
    subspace is the best j-dimensional one in the span of the subset, Proposition 1). It holds
    for every subset, with no probability: Theorem 3 with the observed eps in place of D
    would be the paper's statement made data-dependent; this is its simplest valid form."""
    hs = check_positive(hs, "hs", allow_zero=True)
    d = check_positive(d, "d", integer=True)
    return 2.0 * np.sqrt(np.arange(1, d + 1)) * hs


def hs_distance(X, subset, kernel: Kernel, block_size: int = 2048) -> float:
    """||C_n - C_m||_HS for C_m the covariance of the rows ``subset`` of X, from kernel sums:

    .. math::  \\|C_n - C_m\\|_{HS}^2 = \\frac{\\sum K^2}{n^2} - \\frac{2 \\sum K_{nm}^2}{n m}
               + \\frac{\\sum K_{mm}^2}{m^2}

    (:func:`hs_distance_sq`), the n x n sum blockwise: O(n^2) time, O(b n) memory.
    """
    X = check_array(X, "X")
    idx = np.asarray(subset)
    if idx.size and idx.dtype.kind not in "iu":
        raise TypeError(f"subset must hold integer row indices, got dtype {idx.dtype}")
    if idx.ndim != 1 or idx.size == 0 or idx.min() < 0 or idx.max() >= X.shape[0]:
        raise ValueError(f"subset must be a non-empty list of row indices of X (n = {X.shape[0]})")
    n, m = X.shape[0], idx.size
    block_size = check_positive(block_size, "block_size", integer=True)
    sum_K2 = sum(float((kernel.block(X[s:s + block_size], X, validate=False) ** 2).sum())
                 for s in range(0, n, block_size))
    Knm = kernel.block(X, X[idx], validate=False)
    return math.sqrt(hs_distance_sq(sum_K2, float((Knm**2).sum()), float((Knm[idx] ** 2).sum()), n, m))
