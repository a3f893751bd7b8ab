"""What exact and Nyström KPCA share: the fitted attributes, ``transform`` and the
in-sample reconstruction error.

A fitted model holds basis points S (all n training points for exact KPCA, the
m landmarks for Nyström) and a coefficient matrix A (|S| x k), orthonormal in
the RKHS: A^T K_SS A = I_k. Component j is phi_j = sum_r A_rj k(., s_r), its
score phi_j(x) = k_S(x)^T A[:, j] (Sterge et al. 2020, eq. (6) for exact KPCA,
Proposition 3.4 for Nyström, where A = K_mm^{-1/2} U).
With ``center=True`` the feature map is centred with the training means,
k(., x) - mu_n, mu_n = (1/n) sum_i k(., X_i).
"""

from __future__ import annotations

import numbers

import numpy as np

from kpca_suite.kernels import (Kernel, check_array, check_positive, check_random_state, check_rank, check_same_width,
                     kernel_matmat)


class KPCABase:
    """Fitted attributes (after ``fit``):

    eigenvalues_ : (k,) the top-k eigenvalues of the (restricted) empirical
        covariance, lambda_hat_j = eig(K)/n (exact) or eig(M)/n (Nyström).
    coefficients_ : (|S|, k) the matrix A above.
    basis_points_ : (|S|, d) the points S.
    trace_ : (1/n) tr(K) (centred: (1/n) tr(H K H)), the in-sample error at l = 0.
    n_samples_ : n.
    """

    def __init__(self, n_components: int, kernel: Kernel, center: bool, block_size):
        if not isinstance(kernel, Kernel):
            raise TypeError(f"kernel must be a kernels.Kernel, got {type(kernel).__name__}")
        self.n_components = n_components
        self.kernel = kernel
        self.center = bool(center)
        self.block_size = block_size

    # -- helpers for fit -------------------------------------------------------
    def _validate_fit(self, X):
        """Check X and every hyper-parameter before any work (the dense and
        Lanczos paths alike, so a bad value never waits until ``transform``)."""
        X = check_array(X, "X")
        check_rank(self.n_components, "n_components", X.shape[0], "the number of samples n")
        if self.block_size is not None:
            check_positive(self.block_size, "block_size", integer=True)
        rcond = self.rcond
        if isinstance(rcond, bool) or not isinstance(rcond, numbers.Real) or not 0 <= rcond < 1:
            raise ValueError(f"rcond must be a number in [0, 1), got {rcond!r}")
        check_random_state(self.random_state)
        return X

    def _check_fitted(self):
        if not hasattr(self, "coefficients_"):
            raise RuntimeError(f"{type(self).__name__} is not fitted yet: call fit(X) first")

    # -- shared API ------------------------------------------------------------
    def transform(self, X) -> np.ndarray:
        """Scores phi_j(x), shape (len(X), k), computed blockwise.

        Centred: (k_S(x) - m_S)^T A with m_S the training mean of k_S (the
        centring term of the training data, not of X).
        """
        self._check_fitted()
        X = check_array(X, "X")
        check_same_width(X, self.basis_points_, "X", "the training data")
        scores = kernel_matmat(X, self.coefficients_, self.kernel, self.basis_points_, self.block_size)
        if self.center:
            scores -= self._score_offset_
        return scores

    def fit_transform(self, X) -> np.ndarray:
        return self.fit(X).transform(X)

    def insample_error(self, ell: int) -> float:
        """In-sample reconstruction error R_hat(P^l) = (1/n) sum_i ||(I - P^l) k(., X_i)||^2.

        Eq. (18) (exact) / eq. (19) (Nyström) in their right-hand form:
        trace_ - sum_{j <= l} lambda_hat_j. ``ell`` runs up to the number of
        eigenvalues kept by the fit (``all_eigenvalues_``).
        """
        self._check_fitted()
        ell = check_rank(ell, "ell", len(self.all_eigenvalues_), "the number of fitted eigenvalues")
        return float(self.trace_ - self.all_eigenvalues_[:ell].sum())


def fitted_coefficients(vectors: np.ndarray, eigvals_K: np.ndarray, rcond: float) -> np.ndarray:
    """A = U diag(e^{-1/2}) for the eigenpairs (e, U) of K (Sterge et al. 2020, eq. (6)):
    1/sqrt(n lambda_hat) = 1/sqrt(e). Eigenvalues at or below rcond * max(e)
    give a zero column (pseudo-inverse), so the projector never blows up."""
    keep = eigvals_K > rcond * max(eigvals_K.max(), 0.0)
    scale = np.zeros_like(eigvals_K)
    scale[keep] = 1.0 / np.sqrt(eigvals_K[keep])
    return vectors * scale
