"""Exact (empirical) kernel PCA, EKPCA of Sterge et al. 2020, Sec. 3.1: eigh of K/n,
coefficients u_i / sqrt(lambda_i(K)) (eq. (6)). Uncentred by default, as in Sterge
et al. 2020, Ghashami et al. 2016, Ullah et al. 2018 and Bach 2013.

Top-k solvers and the memory budget. Evaluating the kernel is the expensive part
(one pass over the n x n Gram matrix costs O(n^2 d) plus n^2 exponentials), so
the solvers are built to make few passes:

* when the n x n matrix fits in ``max_kernel_bytes`` it is formed once, blockwise
  and only its lower triangle (half the kernel evaluations), and every product
  reads that triangle (BLAS SYMV / SYMM): one kernel pass in all;
* beyond the budget, a block Krylov method (:func:`block_krylov_topk`) applies the
  kernel to a block of b = k + max(k, 10) vectors per pass, so one kernel pass
  serves b vectors instead of the one vector of an ARPACK mat-vec.

On the formed K, ARPACK ``eigsh`` (about 40 mat-vecs for the top 10) beats
``scipy.linalg.eigh(subset_by_index=...)``, whose tridiagonalisation is O(n^3) whatever
the subset. Without K, the block Krylov method needs about 9 passes of b = 20 vectors
where ARPACK needs 40 kernel passes for the same residual. perf.exact-kpca measures the
fit against scikit-learn's KernelPCA (arpack and randomized).
"""

from __future__ import annotations

import numbers
import os

import numpy as np
import scipy.linalg as sla
from scipy.linalg import blas
from scipy.sparse.linalg import LinearOperator, eigsh

from kpca_suite.kernels import Kernel, check_positive, check_random_state, default_block_size, kernel_matmat
from kpca_suite.kernels.threads import blas_single_thread

from .base import KPCABase, check_choice, fitted_coefficients

SOLVERS = ("auto", "dense", "lanczos", "block")
#: ``solver="auto"`` uses the dense eigh (all n eigenvalues) up to this n, or when k >= n / 4 and
#: K fits; a top-k solver otherwise. Measured, centred Gaussian K of N(0, I_d) points (d = 1, 10, 50),
#: one BLAS thread, best of 3 (2026-11-26), dense / "lanczos" time at k = 10: 0.45-0.91 at n = 100,
#: 1.09-2.4 at 200, 2.5-7.7 at 400, 7.6-21 at 1000, 8.6-29 at 2000; at k = 50: 0.52-0.67 at n = 200,
#: 1.6-2.1 at 400. The earlier rule, dense up to n = 3000, took 3.8 s where "lanczos" took 0.12 s
#: (n = 3000, k = 10, d = 1).
DENSE_MAX_N = 200
#: Relative residual ||K u - theta u|| <= KRYLOV_TOL * theta_1 at which the block Krylov
#: method stops (ARPACK's default is machine precision relative to each theta; at 1e-11
#: the eigenvalues agree with ARPACK's to ~1e-15 relative, the residual bounding the
#: eigenvector error by 1e-11 theta_1 / gap).
KRYLOV_TOL = 1e-11
#: Krylov blocks built per restart of the block method (passes between Rayleigh-Ritz
#: steps). Measured at n = 5000 (above), b = 20: depth 2 -> 11 passes, 4 -> 9, 6 -> 13, 10 -> 11.
KRYLOV_DEPTH = 4
#: The block method gives up after this many kernel passes.
KRYLOV_MAX_PASSES = 300


def default_kernel_budget() -> int:
    """A quarter of the machine's physical memory in bytes (``psutil`` when installed,
    else ``os.sysconf``; 2 GiB when neither tells)."""
    try:
        import psutil
        return int(psutil.virtual_memory().total // 4)
    except ImportError:
        pass
    try:
        return int(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 4)
    except (ValueError, OSError, AttributeError):
        return 2 * 2**30


class ExactKPCA(KPCABase):
    """Top-k eigenpairs of the n x n Gram matrix.

    lambda_hat_j = e_j / n for the eigenvalues e_j of K (or of H K H with
    ``center=True``, H = I - 11^T/n), coefficients A = U_k diag(e_k^{-1/2}) so
    that ||phi_j||_H = 1 (Sterge et al. 2020, eq. (6)). In-sample error by eq. (18):
    R_hat(P^l(C_n)) = (1/n) tr K - sum_{j <= l} lambda_hat_j = sum_{i > l} lambda_hat_i.

    Parameters
    ----------
    n_components : int
        k, 1 <= k <= n; at most the numerical rank of K (the number of
        eigenvalues above ``rcond`` times the largest), else a ValueError.
    kernel : kernels.Kernel
    center : bool
        Centre the feature map with the training mean.
    solver : {"auto", "dense", "lanczos", "block"}
        "dense": LAPACK eigh of the formed K, O(n^3) time, O(n^2) memory, all n
        eigenvalues kept. "lanczos": ARPACK, top k only; on the formed K (lower
        triangle, one kernel pass) when 8 n^2 bytes fit in ``max_kernel_bytes``,
        else on the blocked mat-vec K v, one kernel pass per mat-vec (O(b n)
        memory). "block": a block Krylov method, top k only; on the formed K when
        it fits, else one kernel pass per block of k + max(k, 10) vectors
        (O(n k) memory). "auto": dense up to n = 200, or when k >= n / 4 and K
        fits; otherwise "lanczos" on the formed K when it fits, else "block"
        (``DENSE_MAX_N`` has the measurements). Ask for "dense" to get all n
        eigenvalues in ``all_eigenvalues_``.
    rcond : float in [0, 1)
        Eigenvalues of K at or below rcond * max give zero coefficients and do
        not count in the numerical rank.
    block_size : int or None
        Rows of a kernel block at a time.
    random_state : int, Generator or None
        Start vector(s) of the top-k solvers.
    max_kernel_bytes : int or None
        Memory budget for the formed n x n kernel matrix of the top-k solvers;
        None is a quarter of the machine's memory (:func:`default_kernel_budget`).

    Fitted attributes, besides those of :class:`KPCABase`: ``all_eigenvalues_``
    (all n for "dense", the top k otherwise), ``solver_`` (the solver used, with
    "-formed" or "-matrix-free"), ``n_kernel_passes_`` (passes over the n x n
    kernel: 1 when K was formed, else one per mat-vec or block product).
    """

    def __init__(self, n_components: int, kernel: Kernel = Kernel(), center: bool = False,
                 solver: str = "auto", rcond: float = 1e-12, block_size=None, random_state=None,
                 max_kernel_bytes=None):
        super().__init__(n_components, kernel, center, block_size)
        self.solver = solver
        self.rcond = rcond
        self.random_state = random_state
        self.max_kernel_bytes = max_kernel_bytes

    def fit(self, X):
        X = self._validate_fit(X)
        check_choice(self.solver, "solver", SOLVERS)
        budget = self._budget()
        n, k = X.shape[0], self.n_components
        fits = 8 * n * n <= budget
        solver = self.solver
        if solver == "auto":
            dense = n <= DENSE_MAX_N or (4 * k >= n and fits)
            solver = "dense" if dense else ("lanczos" if fits else "block")
        if solver in ("lanczos", "block") and k >= n:
            raise ValueError(f"solver={solver!r} needs n_components < n, got n_components = {k} and n = {n}; "
                             f"use solver='dense'")
        diag_mean = float(self.kernel.diag(X, validate=False).mean())
        if solver == "dense":
            e, U, colmean = self._dense(X)
            self.solver_, self.n_kernel_passes_ = "dense", 1
        elif fits:
            e, U, colmean = self._formed(X, k, solver)
            self.solver_, self.n_kernel_passes_ = f"{solver}-formed", 1
        elif solver == "lanczos":
            e, U, colmean = self._lanczos(X, k)
            self.solver_ = "lanczos-matrix-free"
        else:
            e, U, colmean = self._block(X, k)
            self.solver_ = "block-matrix-free"
        order = np.argsort(e)[::-1]
        e, U = e[order], U[:, order]
        rank = int((e > self.rcond * max(e[0], 0.0)).sum())
        if k > rank:
            what = "H K H" if self.center else "K"
            raise ValueError(f"n_components = {k} exceeds the effective rank {rank} of {what} "
                             f"(n = {n}, rcond = {self.rcond}); use fewer components")
        self.basis_points_ = X
        self.n_samples_ = n
        self.all_eigenvalues_ = np.clip(e, 0.0, None) / n
        self.eigenvalues_ = self.all_eigenvalues_[:k]
        self.coefficients_ = fitted_coefficients(U[:, :k], e[:k], self.rcond)
        self.trace_ = diag_mean - (float(colmean.mean()) if self.center else 0.0)
        if self.center:
            self._score_offset_ = colmean @ self.coefficients_
        return self

    def fit_transform(self, X) -> np.ndarray:
        """The training rows' scores, without the second kernel pass of
        ``fit(X).transform(X)``: K U_k = U_k diag(e_k) (H K H when centred, whose
        eigenvectors of nonzero eigenvalue are orthogonal to 1, so the training mean's
        term vanishes), hence the scores K A = U_k diag(e_k) diag(e_k^{-1/2}) =
        A diag(e_k), A = ``coefficients_`` (a column cut at rcond stays zero). They agree
        with ``transform(X)`` up to the eigensolver's residual."""
        self.fit(X)
        return self.coefficients_ * (self.n_samples_ * self.eigenvalues_)

    def _budget(self) -> int:
        if self.max_kernel_bytes is None:
            return default_kernel_budget()
        if isinstance(self.max_kernel_bytes, bool) or not isinstance(self.max_kernel_bytes, numbers.Integral):
            raise TypeError(f"max_kernel_bytes must be None or an integer, got {self.max_kernel_bytes!r}")
        return check_positive(self.max_kernel_bytes, "max_kernel_bytes", integer=True, allow_zero=True)

    def _dense(self, X):
        K = self.kernel.block(X, validate=False)
        colmean = K.mean(axis=0)
        if self.center:
            K -= colmean[None, :]
            K -= colmean[:, None]
            K += colmean.mean()
        # LAPACK on one thread: a threaded eigh of these sizes lost several-fold on a loaded
        # machine, and one thread keeps the bits independent of the core count
        with blas_single_thread():
            e, U = np.linalg.eigh(K)
        return e, U, colmean

    def _center(self, v):
        return v - v.mean(axis=0) if self.center else v

    def _formed(self, X, k, solver):
        """The lower triangle of K, formed once; products by BLAS SYMV / SYMM on it.
        BLAS runs on one thread here: both steps are memory-bound, and threads lose
        on a loaded machine (perf.exact-kpca measures the fit)."""
        with blas_single_thread():
            return self._formed_solve(X, k, solver)

    def _formed_solve(self, X, k, solver):
        n = X.shape[0]
        L = lower_gram(X, self.kernel, self.block_size)
        F = L.T  # the same memory in Fortran order: its upper triangle is L's lower one
        colmean = blas.dsymv(1.0 / n, F, np.ones(n), lower=0) if self.center else None
        if solver == "lanczos":
            def matvec(v):
                return self._center(blas.dsymv(1.0, F, self._center(np.ravel(v)), lower=0))

            op = LinearOperator((n, n), matvec=matvec, dtype=np.float64)
            v0 = check_random_state(self.random_state).uniform(-1, 1, n)
            e, U = eigsh(op, k=k, which="LA", v0=v0)
            return e, U, colmean

        def matmat(V):
            return self._center(blas.dsymm(1.0, F, np.asfortranarray(self._center(V)), side=0, lower=0))

        e, U, _ = block_krylov_topk(matmat, n, k, check_random_state(self.random_state))
        return e, U, colmean

    def _lanczos(self, X, k):
        """ARPACK on the blocked mat-vec: one kernel pass per mat-vec."""
        n = X.shape[0]
        passes = 0
        colmean = None
        if self.center:
            colmean = kernel_matmat(X, np.ones(n), self.kernel, block_size=self.block_size) / n
            passes += 1

        def matvec(v):
            nonlocal passes
            passes += 1
            w = kernel_matmat(X, self._center(np.ravel(v)), self.kernel, block_size=self.block_size)
            return self._center(w)

        op = LinearOperator((n, n), matvec=matvec, dtype=np.float64)
        v0 = check_random_state(self.random_state).uniform(-1, 1, n)
        e, U = eigsh(op, k=k, which="LA", v0=v0)
        self.n_kernel_passes_ = passes
        return e, U, colmean

    def _block(self, X, k):
        """Block Krylov on the blocked product K V: one kernel pass per block. With
        ``center``, the column means ride along in the first pass (an extra column of ones)."""
        n = X.shape[0]
        colmean = None

        def matmat(V):
            nonlocal colmean
            W = self._center(V)
            if self.center and colmean is None:
                W = np.column_stack([W, np.ones(n)])
                KW = kernel_matmat(X, W, self.kernel, block_size=self.block_size)
                colmean = KW[:, -1] / n
                return self._center(KW[:, :-1])
            return self._center(kernel_matmat(X, W, self.kernel, block_size=self.block_size))

        e, U, passes = block_krylov_topk(matmat, n, k, check_random_state(self.random_state))
        self.n_kernel_passes_ = passes
        return e, U, colmean


def lower_gram(X, kernel, block_size=None) -> np.ndarray:
    """The n x n Gram matrix with only its lower triangle (and diagonal blocks) filled,
    row block by row block: rows a..e get K(X[a:e], X[:e]), so the kernel is evaluated
    about n^2 / 2 times instead of n^2. The strict upper triangle outside the diagonal
    blocks is left uninitialised: read it only through the lower triangle (BLAS SYMV /
    SYMM with the Fortran view ``L.T`` and ``lower=0``, or LAPACK with UPLO='L')."""
    n = X.shape[0]
    b = default_block_size(n) if block_size is None else block_size
    L = np.empty((n, n))
    for a in range(0, n, b):
        e = min(a + b, n)
        kernel.block(X[a:e], X[:e], validate=False, out=L[a:e, :e])
    return L


def _orthonormal_block(W, basis, rng):
    """Orthonormalise W against the blocks of ``basis`` (block classical Gram-Schmidt,
    twice) and within itself (QR), then project the normalised block once more and QR it
    again. Columns that vanish (an exhausted Krylov space, a rank-deficient K) are
    replaced by random directions, so the result is always an orthonormal block
    orthogonal to ``basis``.

    The last projection matters when a column's remainder is far below its norm, as in
    the late blocks of a fast-decaying spectrum: after Gram-Schmidt its components along
    ``basis`` are of order eps ||w||, and normalising the remainder r scales them to
    eps ||w|| / ||r||. Without it, on the centred Gaussian K of n = 1000 points of N(0, 1)
    (gamma = 1, numerical rank 25), the basis lost orthogonality to 1e-9, the top-10
    residuals stalled at 2e-10 theta_1 and the block method ran its 300 passes; with it,
    5 passes reach 1.6e-15 (n = 3000 likewise: 300 passes -> 5)."""
    scale = np.linalg.norm(W, axis=0)
    for _ in range(2):
        _project_out(W, basis)
    Q, R = np.linalg.qr(W)
    # Only columns at the round-off floor are dead: a small but genuine remainder is a
    # valid Krylov direction (fast-decaying spectra leave remainders of 1e-12 and less).
    floor = 10 * W.shape[0] * np.finfo(float).eps * max(float(scale.max()), np.finfo(float).tiny)
    dead = np.abs(np.diag(R)) <= floor
    if dead.any():
        W = Q.copy()
        W[:, dead] = rng.standard_normal((W.shape[0], int(dead.sum())))
        for _ in range(2):
            _project_out(W, basis)
            W[:, ~dead] = Q[:, ~dead]
            W[:, dead] -= Q[:, ~dead] @ (Q[:, ~dead].T @ W[:, dead])
        Q = np.linalg.qr(W)[0]
    if basis:
        Q = np.linalg.qr(_project_out(Q, basis))[0]
    return Q


def _project_out(W, basis):
    """W <- W - B (B^T W) for each orthonormal block B of ``basis`` in turn (one pass of
    block classical Gram-Schmidt), in place; returns W."""
    for B in basis:
        W -= B @ (B.T @ W)
    return W


def block_krylov_topk(matmat, n: int, k: int, rng, tol: float = KRYLOV_TOL, depth: int = KRYLOV_DEPTH,
                      max_passes: int = KRYLOV_MAX_PASSES):
    """The k largest (algebraic) eigenpairs of a symmetric n x n operator given by
    ``matmat(V) = A V``, by a block Krylov method with thick restarts.

    Each cycle builds the Krylov blocks V, A V, ..., A^depth V (b = k + max(k, 10)
    columns each, orthonormalised against all earlier blocks twice) and does
    Rayleigh-Ritz on their span; it restarts from the top b Ritz vectors, whose
    products with A are already known. Every call of ``matmat`` serves a whole
    block. Stops when every wanted residual ||A u_j - theta_j u_j|| is at most
    ``tol * |theta_1|``. Returns (theta, U, passes): the eigenvalues (descending),
    the orthonormal Ritz vectors (n x k) and the number of ``matmat`` calls. Raises
    ``numpy.linalg.LinAlgError`` after ``max_passes`` calls without convergence.
    """
    b = min(n, k + max(k, 10))
    V = _orthonormal_block(rng.standard_normal((n, b)), [], rng)
    AV = matmat(V)
    passes = 1
    while True:
        blocks, products = [V], [AV]
        for _ in range(depth):
            width = sum(B.shape[1] for B in blocks)
            if width == n or passes >= max_passes:
                break
            if width + b > n:  # complete the basis of R^n: Rayleigh-Ritz is then exact
                Q = _orthonormal_block(rng.standard_normal((n, n - width)), blocks, rng)
            else:
                Q = _orthonormal_block(products[-1].copy(), blocks, rng)
            blocks.append(Q)
            products.append(matmat(Q))
            passes += 1
        B, AB = np.hstack(blocks), np.hstack(products)
        H = B.T @ AB
        theta, Y = sla.eigh((H + H.T) / 2)
        theta, Y = theta[::-1], Y[:, ::-1]
        U, AU = B @ Y[:, :b], AB @ Y[:, :b]
        res = np.linalg.norm(AU[:, :k] - U[:, :k] * theta[:k], axis=0)
        if res.max() <= tol * max(abs(theta[0]), np.finfo(float).tiny) or B.shape[1] == n:
            return theta[:k], U[:, :k], passes
        if passes >= max_passes:
            raise np.linalg.LinAlgError(
                f"the block Krylov method did not converge in {passes} passes: the largest top-{k} residual is "
                f"{res.max() / max(abs(theta[0]), np.finfo(float).tiny):.1e} of theta_1 (tol {tol:g}); "
                f"use solver='lanczos' or 'dense'")
        V, AV = U, AU
