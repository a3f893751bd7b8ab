"""Degrees of freedom and exact risks of kernel ridge regression (Bach 2013, Sec. 4).
The paper has three "degrees of freedom": its Table 1 column is d_ave, it calls df1 "an
alternative definition", and Theorem 4.1 uses d, the maximal marginal df of Eq. (5) times n.

With the paper's normalisation (1/n loss, (lambda/2) ||f||^2) every formula has n lambda:

* d_ave = tr K^2 (K + n lambda I)^{-2}   the paper's "degrees of freedom" (Table 1);
* df1   = tr K (K + n lambda I)^{-1}     its "alternative definition";
* d     = n max_i [K (K + n lambda I)^{-1}]_ii   the maximal marginal df, Eq. (5).

d_ave <= df1 <= d always; on the circulant grid every diagonal entry of
K (K + n lambda I)^{-1} is equal, so d == df1 there.

Exact in-sample risk of the smoother z_hat = M (M + n lambda I)^{-1} y, y = z + eps,
Cov(eps) = C, for any PSD M (the full K or a Nyström L), from the definitions of Sec. 4.1:

* bias(M)     = (1/n) ||(I - M (M + n lambda I)^{-1}) z||^2 = n lambda^2 z^T (M + n lambda I)^{-2} z;
* variance(M) = (1/n) tr C M^2 (M + n lambda I)^{-2}  (= sigma^2 d_ave(M) / n for C = sigma^2 I);
* (1/n) E ||z_hat - z||^2 = bias + variance.

No Monte Carlo: from an eigendecomposition M = sum_j e_j u_j u_j^T and the energies
c_j = (u_j^T z)^2 the risk is a sum over j, vectorised over lambda, so lambda* is found on
a fine grid at the cost of one eigendecomposition (or one FFT on the grid).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kpca_suite.kernels.validation import check_array, check_positive

from .effective_dimension import check_levels


@dataclass(frozen=True)
class DegreesOfFreedom:
    """d_ave, df1 and d (Eq. 5) at one or several lambda (floats or arrays shaped like lambda)."""

    d_ave: np.ndarray
    df1: np.ndarray
    d: np.ndarray


def _shrink(e, n, lam):
    """s_j(lambda) = e_j / (e_j + n lambda), shape lam.shape + e.shape."""
    return e / (e + n * lam[..., None])


def _out(a):
    return float(a) if np.ndim(a) == 0 else a


def _clip_eigenvalues(eigenvalues, name="eigenvalues"):
    """Eigenvalues of a PSD matrix: round-off negatives (> -1e-10 max|e|) clipped to 0."""
    e = check_array(eigenvalues, name, ndim=1)
    if e.min() < -1e-10 * max(np.abs(e).max(), 1e-300):
        raise ValueError(f"{name} must be those of a PSD matrix, got a minimum of {e.min()!r}")
    return np.clip(e, 0.0, None)


def dof_from_eigh(eigenvalues, eigenvectors, lam) -> DegreesOfFreedom:
    """d_ave, df1 and d of K = U diag(e) U^T (``np.linalg.eigh`` output), for each lambda.

    The leverage scores diag(K (K + n lambda I)^{-1}) are (U^2) s(lambda); O(n^2) per lambda
    after the O(n^3) eigendecomposition.
    """
    e = _clip_eigenvalues(eigenvalues)
    U = check_array(eigenvectors, "eigenvectors")
    if U.shape != (e.size, e.size):
        raise ValueError(f"eigenvectors must have shape ({e.size}, {e.size}), got {U.shape}")
    lam = check_levels(lam, "lam")
    n = e.size
    s = _shrink(e, n, lam)
    lev = s @ (U**2).T
    return DegreesOfFreedom(_out((s**2).sum(-1)), _out(s.sum(-1)), _out(n * lev.max(-1)))


def dof_circulant(eigenvalues, lam) -> DegreesOfFreedom:
    """The same on the circulant grid, from the n eigenvalues of K (the FFT of its first
    column, :func:`theory.periodic.grid_spectrum`): every leverage score is df1 / n, so d = df1."""
    e = _clip_eigenvalues(eigenvalues)
    lam = check_levels(lam, "lam")
    s = _shrink(e, e.size, lam)
    df1 = s.sum(-1)
    return DegreesOfFreedom(_out((s**2).sum(-1)), _out(df1), _out(df1))


def krr_risk(eigenvalues, energy, n: int, lam, sigma2: float, residual_energy: float = 0.0):
    """Exact (bias, variance) of z_hat = M (M + n lambda I)^{-1} (z + eps), Cov(eps) = sigma^2 I.

    Parameters
    ----------
    eigenvalues : (r,) eigenvalues e_j of M on the eigenvectors u_j that carry them.
    energy : (r,) c_j = (u_j^T z)^2.
    n : number of samples (M is n x n; the r eigenvectors may be fewer than n).
    lam : float or array, > 0.
    sigma2 : noise variance, >= 0.
    residual_energy : ||z||^2 - sum_j c_j, the part of z in the null space of M (shrunk by 1).

    Returns
    -------
    bias, variance : floats or arrays shaped like ``lam``:
        bias = (1/n) [residual_energy + sum_j (n lambda / (e_j + n lambda))^2 c_j],
        variance = (sigma^2 / n) sum_j (e_j / (e_j + n lambda))^2 = sigma^2 d_ave(M) / n.
    """
    e = _clip_eigenvalues(eigenvalues)
    c = check_array(energy, "energy", ndim=1)
    if c.shape != e.shape or (c < 0).any():
        raise ValueError(f"energy must be >= 0 with the shape of eigenvalues {e.shape}, got {c.shape}")
    n = check_positive(n, "n", integer=True)
    sigma2 = check_positive(sigma2, "sigma2", allow_zero=True)
    residual_energy = check_positive(residual_energy, "residual_energy", allow_zero=True)
    lam = check_levels(lam, "lam")
    s = _shrink(e, n, lam)
    bias = (residual_energy + ((1.0 - s) ** 2 * c).sum(-1)) / n
    var = sigma2 * (s**2).sum(-1) / n
    return _out(bias), _out(var)


def smoother_risk(S, z, noise_cov):
    """Exact (bias, variance) of any linear smoother z_hat = S y, y = z + eps, Cov(eps) = C:
    bias = (1/n) ||(S - I) z||^2, variance = (1/n) tr(S C S^T). ``noise_cov`` is C (n x n)
    or a float sigma^2 (C = sigma^2 I). For S = M (M + n lambda I)^{-1} it equals
    :func:`krr_risk`; it also takes a fitted estimator's smoother (predictions of y = I)."""
    S = check_array(S, "S")
    z = check_array(z, "z", ndim=1)
    n = z.size
    if S.shape != (n, n):
        raise ValueError(f"S must have shape ({n}, {n}), got {S.shape}")
    bias = float(np.sum((S @ z - z) ** 2) / n)
    if np.ndim(noise_cov) == 0:
        var = check_positive(float(noise_cov), "noise_cov", allow_zero=True) * float(np.sum(S**2)) / n
    else:
        C = check_array(noise_cov, "noise_cov")
        if C.shape != (n, n):
            raise ValueError(f"noise_cov must have shape ({n}, {n}), got {C.shape}")
        var = float(np.einsum("ij,ij->", S @ C, S) / n)  # tr(S C S^T): one GEMM, not an n^3 einsum loop
    return bias, var


#: Values of one levels x eigenvalues array in :func:`optimal_lambda`'s grid (32 MB).
RISK_CHUNK = 1 << 22


def optimal_lambda(eigenvalues, energy, n: int, sigma2: float, residual_energy: float = 0.0,
                   log10_range=(-16.0, 2.0), grid_per_decade: int = 20):
    """lambda* = argmin_lambda bias + variance (exact risk of :func:`krr_risk`).

    A log-spaced grid (``grid_per_decade`` points per decade) brackets the minimum, then a
    bounded scalar minimisation in log10 lambda refines it within the neighbouring grid
    points. Returns (lambda*, risk(lambda*)). Raises if the minimum sits at an end of the
    range (the range is then too narrow for this problem).

    The grid is evaluated a few levels at a time (at most :data:`RISK_CHUNK` values of the
    levels x eigenvalues arrays), the same risks bit for bit: all levels at once held
    several of them, 2.2 GB at bach13.eq6's n = 2^20 (89 levels), and took 5.5 s.
    """
    lo, hi = (float(v) for v in log10_range)
    grid = np.linspace(lo, hi, int(round((hi - lo) * grid_per_decade)) + 1)

    def risk(u):
        b, v = krr_risk(eigenvalues, energy, n, 10.0**u, sigma2, residual_energy)
        return np.asarray(b) + np.asarray(v)

    per_chunk = max(1, RISK_CHUNK // max(np.size(eigenvalues), 1))
    r = np.concatenate([risk(grid[i:i + per_chunk]) for i in range(0, grid.size, per_chunk)])
    k = int(np.argmin(r))
    if k in (0, grid.size - 1):
        raise ValueError(f"the risk is minimal at the end of log10_range {log10_range}: widen it")
    from scipy.optimize import minimize_scalar  # lazy: 0.13 s of the CLI's start-up

    res = minimize_scalar(lambda u: float(risk(u)), bounds=(grid[k - 1], grid[k + 1]), method="bounded",
                          options={"xatol": 1e-6})
    u = res.x if res.fun <= r[k] else grid[k]
    return float(10.0**u), float(risk(u))
