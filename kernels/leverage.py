"""Ridge leverage scores l_i(s) = [K (K + n s I)^{-1}]_ii (Sterge et al. 2020, Sec. 3.2.1).

The regulariser is n s on the unnormalised Gram matrix K. Two estimators:

* :func:`exact_leverage_scores`: from one eigendecomposition K = U diag(e) U^T,
  l_i(s) = sum_j U_ij^2 e_j / (e_j + n s). O(n^3) time, O(n^2) memory: small n.
  Two exact shortcuts: for the linear kernel with d < n, from the d x d side,
  X^T X = V diag(e) V^T and l_i(s) = sum_j (x_i^T v_j)^2 / (e_j + n s) (the same
  numbers, since K = X X^T shares the nonzero e; O(n d^2)); for one level s of any
  other kernel, from one Cholesky factor K + n s I = L L^T and its triangular inverse,
  l_i(s) = 1 - n s [(K + n s I)^{-1}]_ii = 1 - n s ||L^{-1} e_i||^2 (O(2 n^3 / 3): n^3 / 3
  for each factor).
* :func:`approximate_leverage_scores`: the Nyström estimate of Rudi,
  Calandriello, Carratino & Rosasco (2018, eq. 4) with a uniform pilot set J of
  size M (Sterge et al. 2020 cite this family but give no algorithm):

  .. math::  \\tilde l_i(s) = \\frac{1}{n s}\\bigl(K_{ii} - K_{iJ}(K_{JJ} + s M I)^{-1} K_{Ji}\\bigr)

  O(n M^2 + n M d) time, O(M^2 + b M) memory, never the n x n matrix. With
  J = all n points it equals the exact score, since
  K - K (K + n s I)^{-1} K = n s K (K + n s I)^{-1}.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import cho_factor, lapack, solve_triangular

from .gram import _blocks, _check_block_size
from .spec import Kernel
from .validation import check_array, check_positive, check_random_state


def inverse_cholesky_factor(A, ridge: float, overwrite: bool = False) -> np.ndarray:
    """L^{-1}, lower triangular (zeros above the diagonal), for A + ridge I = L L^T: LAPACK's
    dpotrf then dtrtri, (2/3) r^3 flops for an r x r symmetric A. Its squared column norms give
    [A (A + ridge I)^{-1}]_ii = 1 - ridge ||L^{-1} e_i||^2 (the exact ridge leverage scores) and
    its squared Frobenius norm tr A (A + ridge I)^{-1} = r - ridge ||L^{-1}||_F^2 (their total).
    ``overwrite`` lets it add the ridge to A itself (a float64 array the caller no longer needs)."""
    A = np.asarray(A, dtype=np.float64) if overwrite else np.array(A, dtype=np.float64)
    A[np.diag_indices_from(A)] += ridge
    L, info = lapack.dpotrf(A, lower=1, clean=1, overwrite_a=1)
    if info == 0:
        L, info = lapack.dtrtri(L, lower=1, overwrite_c=1)
    if info != 0:
        raise np.linalg.LinAlgError(f"A + {ridge:g} I is not numerically positive definite (LAPACK info {info})")
    return L


def exact_leverage_scores(X, kernel: Kernel, s) -> np.ndarray:
    """l_i(s) = [K (K + n s I)^{-1}]_ii from one eigendecomposition of K.

    ``s`` a scalar gives shape (n,); a 1-D array of levels gives (len(s), n),
    all from the same eigendecomposition.
    """
    X = check_array(X, "X")
    try:
        levels = np.asarray(s, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"s must be a real number or a 1-D array of them, got {s!r}") from None
    if levels.ndim > 1:
        raise ValueError(f"s must be a real number or a 1-D array of them, got shape {levels.shape}")
    levels = np.atleast_1d(levels)
    for v in levels:
        check_positive(float(v), "s")
    n, d = X.shape
    if getattr(kernel, "name", None) == "linear" and d < n:
        e, V = np.linalg.eigh(X.T @ X)
        e = np.clip(e, 0.0, None)
        out = ((X @ V) ** 2) @ (1.0 / (e[None, :] + n * levels[:, None])).T
        out = out.T
    elif np.ndim(s) == 0:
        Linv = inverse_cholesky_factor(kernel.block(X, validate=False), n * levels[0], overwrite=True)
        out = 1.0 - n * levels[0] * np.einsum("ij,ij->j", Linv, Linv)[None, :]
    else:
        e, U = np.linalg.eigh(kernel.block(X, validate=False))
        e = np.clip(e, 0.0, None)
        out = (e[None, :] / (e[None, :] + n * levels[:, None])) @ (U**2).T
    out = np.clip(out, 0.0, None)
    return out[0] if np.ndim(s) == 0 else out


def approximate_leverage_scores(X, kernel: Kernel, s: float, pilot_size: int,
                                random_state=None, block_size=None) -> np.ndarray:
    """Nyström estimate of l_i(s) from a uniform pilot of ``pilot_size`` points
    (formula in the module docstring). Scores are clipped at 0 against round-off."""
    X = check_array(X, "X")
    s = check_positive(s, "s")
    n = X.shape[0]
    M = check_positive(pilot_size, "pilot_size", integer=True)
    if M > n:
        raise ValueError(f"pilot_size = {M} must not exceed the number of samples n = {n}")
    rng = check_random_state(random_state)
    J = np.sort(rng.choice(n, size=M, replace=False))
    XJ = X[J]
    C = kernel.block(XJ, validate=False)
    C[np.diag_indices_from(C)] += s * M
    try:
        Lc, _ = cho_factor(C, lower=True)
    except np.linalg.LinAlgError:
        raise np.linalg.LinAlgError(f"K_JJ + s M I (pilot_size M = {M}) is not numerically positive definite at "
                                    f"s = {s:g}: s is below the round-off of the kernel matrix; use a larger s") from None
    diag = kernel.diag(X, validate=False)
    out = np.empty(n)
    for sl in _blocks(n, _check_block_size(block_size, M)):
        W = solve_triangular(Lc, kernel.block(XJ, X[sl], validate=False), lower=True, check_finite=False)
        out[sl] = (diag[sl] - np.einsum("ij,ij->j", W, W)) / (n * s)
    return np.clip(out, 0.0, None)
