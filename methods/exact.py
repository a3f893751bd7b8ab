"""Exact (empirical) kernel PCA, EKPCA of Sterge et al. 2020, Sec. 3.1: eigh of K/n,
coefficients u_i / sqrt(lambda_i(K)) (eq. (6)). Uncentred by default, as in Sterge
et al. 2020, Ghashami et al. 2016, Ullah et al. 2018 and Bach 2013.
"""

from __future__ import annotations

import numpy as np
from scipy.sparse.linalg import LinearOperator, eigsh

from kpca_suite.kernels import Kernel, check_random_state, kernel_matmat

from .base import KPCABase, check_choice, fitted_coefficients

SOLVERS = ("auto", "dense", "lanczos")
#: ``solver="auto"`` uses the dense eigh up to this n, Lanczos above.
DENSE_MAX_N = 3000


class ExactKPCA(KPCABase):
    """Top-k eigenpairs of the n x n Gram matrix.

    lambda_hat_j = e_j / n for the eigenvalues e_j of K (or of H K H with
    ``center=True``, H = I - 11^T/n), coefficients A = U_k diag(e_k^{-1/2}) so
    that ||phi_j||_H = 1 (Sterge et al. 2020, eq. (6)). In-sample error by eq. (18):
    R_hat(P^l(C_n)) = (1/n) tr K - sum_{j <= l} lambda_hat_j = sum_{i > l} lambda_hat_i.

    Parameters
    ----------
    n_components : int
        k, 1 <= k <= n.
    kernel : kernels.Kernel
    center : bool
        Centre the feature map with the training mean.
    solver : {"auto", "dense", "lanczos"}
        "dense" (LAPACK eigh of the formed K, O(n^3) time, O(n^2) memory,
        all n eigenvalues kept), "lanczos" (ARPACK on the blocked mat-vec
        K v, never forming K: O(n^2 d) per mat-vec, O(b n) memory, top k only),
        or "auto" (dense up to n = 3000).
    rcond : float in [0, 1)
        Eigenvalues of K at or below rcond * max give zero coefficients.
    block_size : int or None
        Rows of a kernel block at a time.
    random_state : int, Generator or None
        Start vector of Lanczos.
    """

    def __init__(self, n_components: int, kernel: Kernel = Kernel(), center: bool = False,
                 solver: str = "auto", rcond: float = 1e-12, block_size=None, random_state=None):
        super().__init__(n_components, kernel, center, block_size)
        self.solver = solver
        self.rcond = rcond
        self.random_state = random_state

    def fit(self, X):
        X = self._validate_fit(X)
        check_choice(self.solver, "solver", SOLVERS)
        n, k = X.shape[0], self.n_components
        solver = self.solver if self.solver != "auto" else ("dense" if n <= DENSE_MAX_N else "lanczos")
        if solver == "lanczos" and k >= n:
            raise ValueError(f"solver='lanczos' needs n_components < n, got n_components = {k} and n = {n}; "
                             f"use solver='dense'")
        diag_mean = float(self.kernel.diag(X, validate=False).mean())
        if solver == "dense":
            e, U, colmean = self._dense(X)
        else:
            e, U, colmean = self._lanczos(X, k)
        order = np.argsort(e)[::-1]
        e, U = e[order], U[:, order]
        self.basis_points_ = X
        self.n_samples_ = n
        self.all_eigenvalues_ = np.clip(e, 0.0, None) / n
        self.eigenvalues_ = self.all_eigenvalues_[:k]
        self.coefficients_ = fitted_coefficients(U[:, :k], e[:k], self.rcond)
        self.trace_ = diag_mean - (float(colmean.mean()) if self.center else 0.0)
        if self.center:
            self._score_offset_ = colmean @ self.coefficients_
        return self

    def _dense(self, X):
        K = self.kernel.block(X, validate=False)
        colmean = K.mean(axis=0)
        if self.center:
            K -= colmean[None, :]
            K -= colmean[:, None]
            K += colmean.mean()
        e, U = np.linalg.eigh(K)
        return e, U, colmean

    def _lanczos(self, X, k):
        n = X.shape[0]
        colmean = kernel_matmat(X, np.ones(n), self.kernel, block_size=self.block_size) / n

        def matvec(v):
            v = np.ravel(v)
            if self.center:
                v = v - v.mean()
            w = kernel_matmat(X, v, self.kernel, block_size=self.block_size)
            return w - w.mean() if self.center else w

        op = LinearOperator((n, n), matvec=matvec, dtype=np.float64)
        v0 = check_random_state(self.random_state).uniform(-1, 1, n)
        e, U = eigsh(op, k=k, which="LA", v0=v0)
        return e, U, colmean
