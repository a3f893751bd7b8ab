"""Nyström kernel PCA, NY-KPCA of Sterge et al. 2020 (Sec. 3.2, Proposition 3.4).

Problem (8): maximise <f, C_n f> over unit-norm f in H_m = span{k(., x~_r)}.
With a whitening W of K_mm (W^T K_mm W = I_r on its numerical range),

    M = W^T K_mn K_nm W,   (1/n) M u_j = lambda_hat_{j,m} u_j,   A = W U_k,

so that A^T K_mm A = I_k. The paper writes W = K_mm^{-1/2} (symmetric); any
whitening gives the same projector, since two of them differ by an orthogonal
factor on the right (W_2 = W_1 Q with Q orthogonal, so M_2 = Q^T M_1 Q and
A_2 A_2^T = A_1 A_1^T; not stated in the paper):

* ``"eigh"`` (default): K_mm = V diag(s) V^T, W = V_r diag(s_r^{-1/2}) keeping
  s > rcond * max(s); r is ``effective_rank_``. This is the pseudo-inverse
  square root that the paper's literal K_mm^{-1/2} becomes when K_mm is
  numerically singular (smooth kernels, exponential decay, duplicated ALS
  landmarks). The literal, unregularised inverse square root is what turns the
  in-sample order upside down: in exact arithmetic K~ <= K gives
  R_nys(l) >= R_ekpca(l) for every l, so the paper's observation (Sec. 5) of
  NY-KPCA "better than EKPCA" can only be a numerical artefact.
* ``"cholesky"``: K_mm = R^T R, W = R^{-1}; needs K_mm numerically positive definite.
* ``"generalized"``: eq. (20), (1/n) K_mn K_nm a = lambda K_mm a solved by
  LAPACK's generalized symmetric eigensolver, which returns A^T K_mm A = I.

K_mn K_nm is accumulated blockwise (:func:`kernels.gram_accumulate`): memory
O(m^2 + b m), never the n x m block; time O(n m d + n m^2 + m^3).
In-sample error by eq. (19): (1/n) tr K - sum_{j <= l} lambda_hat_{j,m}.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg as sla

from kpca_suite.kernels import Kernel, gram_accumulate, kernel_matmat

from .base import KPCABase, check_choice
from .landmarks import landmark_strategy, select_landmarks

WHITENINGS = ("eigh", "cholesky", "generalized")
# Relative cut-off of K_mm's eigenvalues for the "eigh" whitening. A kept direction with
# eigenvalue s amplifies round-off by ~eps/s, which can lift a Nyström eigenvalue above
# the exact one (the impossible "better than EKPCA" noted above). Measured on
# Gaussian gamma = 1, X ~ U[0,1]^2, n = 300, nested m in {10, 25, 50, 100}, seeds 0-4:
# worst R_ekpca(l) - R_nys(l) = 1.3e-7 (rcond 1e-10), 2.1e-9 (1e-9), -9.5e-11 (1e-8,
# no violation), while R_nys(l = m) was unchanged up to 1e-7 and grew 37% at 1e-6.
DEFAULT_RCOND = 1e-8


class NystromKPCA(KPCABase):
    """Nyström KPCA with a landmark strategy (an int m means uniform sampling).

    Parameters
    ----------
    n_components : int
        k, 1 <= k <= m.
    kernel : kernels.Kernel
    landmarks : int or landmark strategy
        An int m draws m landmarks uniformly without replacement; a strategy with
        ``select(X, kernel, rng)`` (:class:`UniformLandmarks`,
        :class:`LeverageScoreLandmarks`, :class:`FixedLandmarks`) chooses them itself.
    whitening : {"eigh", "cholesky", "generalized"}
        See the module docstring.
    rcond : float in [0, 1)
        Relative eigenvalue cut-off of K_mm for ``"eigh"``.
    center : bool
        Centre with the full-data mean: M = W^T (K_mn K_nm - s s^T / n) W
        with s = K_mn 1_n (the column sums from the same blocked pass).
    block_size : int or None
        Rows of a kernel block at a time.
    random_state : int, Generator or None
        The landmark draw.

    Fitted attributes, besides those of :class:`KPCABase`: ``landmark_indices_``,
    ``effective_rank_`` (r, the rank kept by the whitening), and
    ``all_eigenvalues_`` (the r eigenvalues of M / n).
    """

    def __init__(self, n_components: int, kernel: Kernel = Kernel(), landmarks=100,
                 whitening: str = "eigh", rcond: float = DEFAULT_RCOND, center: bool = False,
                 block_size=None, random_state=None):
        super().__init__(n_components, kernel, center, block_size)
        self.landmarks = landmarks
        self.whitening = whitening
        self.rcond = rcond
        self.random_state = random_state

    def _strategy(self):
        """The landmark strategy (:func:`~methods.landmarks.landmark_strategy`); a hook
        for subclasses that choose landmarks another way."""
        return landmark_strategy(self.landmarks)

    def _validate_fit(self, X):
        X = super()._validate_fit(X)
        check_choice(self.whitening, "whitening", WHITENINGS)
        return X

    def fit(self, X):
        X = self._validate_fit(X)
        n = X.shape[0]
        idx = select_landmarks(self._strategy(), X, self.kernel, self.random_state, self.n_components)
        L = X[idx]
        G, colsum = gram_accumulate(X, L, self.kernel, self.block_size)
        if self.center:
            G -= np.outer(colsum, colsum) / n
        Kmm = self.kernel.block(L, validate=False)
        mu, A = self._eig(G / n, Kmm)
        k = self.n_components
        if k > len(mu):
            raise ValueError(f"n_components = {k} exceeds the effective rank {len(mu)} of K_mm "
                             f"(m = {len(idx)}, rcond = {self.rcond}); use fewer components or more landmarks")
        self.landmark_indices_ = idx
        self.basis_points_ = L
        self.n_samples_ = n
        self.all_eigenvalues_ = np.clip(mu, 0.0, None)
        self.eigenvalues_ = self.all_eigenvalues_[:k]
        self.coefficients_ = A[:, :k]
        diag_mean = float(self.kernel.diag(X, validate=False).mean())
        if self.center:
            # (1/n) tr(HKH) = mean diag - (1/n^2) 1^T K 1: one blocked pass, O(n^2 d), O(b n) memory.
            grand = kernel_matmat(X, np.ones(n), self.kernel, block_size=self.block_size).mean() / n
            self.trace_ = diag_mean - float(grand)
            self._score_offset_ = (colsum / n) @ self.coefficients_
        else:
            self.trace_ = diag_mean
        return self

    def _eig(self, Gn, Kmm):
        """Eigenvalues (descending) of (1/n) M and the coefficients A = W U."""
        if self.whitening == "generalized":
            self._check_nonsingular(Kmm)
            try:
                mu, A = sla.eigh(Gn, Kmm)
            except np.linalg.LinAlgError:
                raise ValueError("K_mm is not numerically positive definite; "
                                 "use whitening='eigh'") from None
            self.effective_rank_ = Kmm.shape[0]
            return mu[::-1], A[:, ::-1]
        W = self._whitener(Kmm)
        M = W.T @ Gn @ W
        mu, U = np.linalg.eigh((M + M.T) / 2)
        return mu[::-1], W @ U[:, ::-1]

    def _check_nonsingular(self, Kmm):
        """Cholesky and the generalized solver trust K_mm to be positive definite;
        LAPACK does not always notice when it is not (duplicated landmarks can pass
        with a condition number of 1e17 and a wrong spectrum), so check the
        eigenvalue ratio against rcond first."""
        s = np.linalg.eigvalsh(Kmm)
        if not s[0] > self.rcond * s[-1]:
            raise ValueError(f"K_mm is numerically singular (eigenvalue ratio {s[0] / s[-1]:.1e} <= rcond = "
                             f"{self.rcond}); use whitening='eigh', which cuts such directions off")

    def _whitener(self, Kmm):
        if self.whitening == "cholesky":
            self._check_nonsingular(Kmm)
            try:
                R = np.linalg.cholesky(Kmm).T
            except np.linalg.LinAlgError:
                raise ValueError("K_mm is not numerically positive definite; "
                                 "use whitening='eigh'") from None
            self.effective_rank_ = Kmm.shape[0]
            return sla.solve_triangular(R, np.eye(R.shape[0]))
        s, V = np.linalg.eigh(Kmm)
        keep = s > self.rcond * s.max()
        self.effective_rank_ = int(keep.sum())
        return V[:, keep] / np.sqrt(s[keep])
