"""Subset PCA (Hallgren 2021, Theorem 2) and the naive Williams-Seeger Nyström
eigen-approximation (Eq. (1)), the two baselines of Hallgren 2021, "Kernel PCA with
the Nyström method".

Subset PCA is kernel PCA of the m subset points alone, centred with the full-data
projected mean phi_0 as in Theorem 1: (1/m) K'_mm = U^m Lambda^m U^m^T and

.. math::  \\varphi^m_j = (m \\lambda^m_j)^{-1/2} \\sum_k u^m_{jk} (k(x_k, .) - \\varphi_0),
           \\qquad \\lambda^{m,n}_j = \\frac{u^{m\\,T}_j K'_{mn} K'_{nm} u^m_j}{n m \\lambda^m_j},

the variance of all n points along phi^m_j (Theorem 2); its in-sample error is
(1/n) Tr K' - sum_{j <= d} lambda^{m,n}_j. K'_mn K'_nm = T^T (K_mn K_nm - n c c^T) T
comes from one blocked pass (no n x m block). ``center=False`` is the zero-mean
setting of Theorem 3 (K' -> K, phi_0 -> 0).

Williams & Seeger (Eq. (1)) approximate the eigenpairs of K by (n/m) lambda_j(K_mm)
and sqrt(m/n) K_nm u_j / lambda_j(K_mm). Applied to the centred K' (here: K'_nm, K'_mm
of Theorem 1) the scores W_j = K'_nm u_j / sqrt(lambda_j(K'_mm)) are not orthogonal and their
variances are not the claimed eigenvalues: W^T W != n diag(eigenvalues). The paper
rejects the method for this reason; the suite keeps it as a negative control.
"""

from __future__ import annotations

import numpy as np

from kpca_suite.kernels import Kernel, check_array, check_same_width, gram_accumulate

from .base import KPCABase, check_components_rank
from .centered_nystrom import centred_cross, centring_terms
from .landmarks import select_landmarks
from .nystrom import DEFAULT_RCOND


class _SubsetBase(KPCABase):
    """Landmark selection and the centring terms shared by the two baselines."""

    def __init__(self, n_components: int, kernel: Kernel = Kernel(), landmarks=100, center: bool = True,
                 rcond: float = DEFAULT_RCOND, block_size=None, random_state=None):
        super().__init__(n_components, kernel, center, block_size)
        self.landmarks = landmarks
        self.rcond = rcond
        self.random_state = random_state

    def _select(self, X):
        return select_landmarks(self.landmarks, X, self.kernel, self.random_state, self.n_components)

    def _terms(self, Kmm, colsum, n):
        """Theorem 1's centring (c, Kinv, s, T, K'_mm); the identity for center=False."""
        if self.center:
            return centring_terms(Kmm, colsum, n, self.rcond)
        m = Kmm.shape[0]
        return {"c": np.zeros(m), "Kinv": np.zeros((m, m)), "s": 0.0, "T": np.eye(m), "Kp_mm": Kmm}

    def _eig(self, Kp_mm, Kmm, scale):
        """Eigenpairs of K'_mm / scale, descending, with the eigenvalues at or below
        rcond * top cut off, top = the largest eigenvalue of K'_mm / scale and (centred)
        of K_mm / scale. K'_mm = T^T K_mm T carries round-off of the order of eps ||K_mm||:
        when the subset points coincide K'_mm = 0 in exact arithmetic, and a cut
        relative to its own top eigenvalue (itself round-off, ~1e-32) would keep a
        spurious direction with coefficients ~1e15 instead of reporting rank 0."""
        ev, U = np.linalg.eigh(Kp_mm / scale)
        ev, U = ev[::-1], U[:, ::-1]
        top = max(ev[0], np.linalg.eigvalsh(Kmm)[-1] / scale) if self.center else ev[0]
        keep = ev > self.rcond * max(top, 0.0)
        return ev[keep], U[:, keep]

    def transform(self, X) -> np.ndarray:
        """Scores of x: coefficients^T kappa~(x) with kappa~ of Theorem 1 / Eq. (3)."""
        self._check_fitted()
        X = check_array(X, "X")
        check_same_width(X, self.basis_points_, "X", "the training data")
        kappa = self.kernel.block(X, self.basis_points_, validate=False)
        if self.center:
            kappa = centred_cross(kappa, self._terms_)
        return kappa @ self.literal_coefficients_


class SubsetPCA(_SubsetBase):
    """Subset PCA of Theorem 2 (module docstring).

    Parameters
    ----------
    n_components : int
        d <= m.
    kernel : kernels.Kernel
    landmarks : int or landmark strategy
        An int m draws m points uniformly without replacement; a strategy object
        chooses them (the same subset as Nyström for a paired comparison: pass
        :class:`~methods.landmarks.FixedLandmarks`).
    center : bool
        Full-data projected-mean centring (Theorem 2) or zero mean (Theorem 3).
    rcond : float in [0, 1)
        Relative cut-off of the eigenvalues of K'_mm, relative to the larger of the top
        eigenvalues of K'_mm and K_mm (``_SubsetBase._eig``), and of the pinv in the centring.
    block_size : int or None
        Rows of a kernel block at a time.
    random_state : int, Generator or None
        The landmark draw.

    Fitted attributes
    -----------------
    subset_eigenvalues_ : (r,) lambda^m_j, eigenvalues of (1/m) K'_mm above the cut-off.
    all_eigenvalues_ : (r,) lambda^{m,n}_j, the full-data variances along phi^m_j, in the
        order of lambda^m (not necessarily sorted; Proposition 1 sums them in this order).
    eigenvalues_ : the first d of them. ``insample_error(d)`` = (1/n) Tr K' - their sum.
    literal_coefficients_ : (m, d) U^m (m Lambda^m)^{-1/2}, on the centred basis.
    coefficients_ : T times that, on the uncentred basis (A^T K_mm A = I).
    """

    def fit(self, X):
        X = self._validate_fit(X)
        n = X.shape[0]
        idx = self._select(X)
        L = X[idx]
        G, colsum = gram_accumulate(X, L, self.kernel, self.block_size)
        Kmm = self.kernel.block(L, validate=False)
        m = len(idx)
        terms = self._terms(Kmm, colsum, n)
        T = terms["T"]
        Gp = T.T @ (G - np.outer(colsum, colsum) / n if self.center else G) @ T
        lam, U = self._eig(terms["Kp_mm"], Kmm, m)
        k = self.n_components
        check_components_rank(k, len(lam), "K'_mm", m, self.rcond)
        B = U / np.sqrt(m * lam)
        self.landmark_indices_ = idx
        self.basis_points_ = L
        self.n_samples_ = n
        self.subset_eigenvalues_ = lam
        self.all_eigenvalues_ = np.einsum("ij,ij->j", B, Gp @ B) / n  # diag(B^T G' B) / n, one GEMM
        self.eigenvalues_ = self.all_eigenvalues_[:k]
        self.literal_coefficients_ = B[:, :k]
        self.coefficients_ = T @ B[:, :k]
        self._terms_ = terms
        self._set_trace(X)
        return self


class WilliamsSeegerKPCA(_SubsetBase):
    """The naive Nyström eigen-approximation of Eq. (1) on the centred kernel: a
    negative control (module docstring).

    Eigenvalues of K' approximated by e_j = (n/m) lambda_j(K'_mm), eigenvectors by
    q_j = sqrt(m/n) K'_nm u_j / lambda_j(K'_mm); ``eigenvalues_`` are e_j / n (the
    covariance scale), scores W_j = q_j sqrt(e_j) = K'_nm u_j / sqrt(lambda_j(K'_mm)).
    New points: kappa~(x)^T u_j / sqrt(lambda_j(K'_mm)) (``coefficients_``).
    """

    def fit(self, X):
        X = self._validate_fit(X)
        n = X.shape[0]
        idx = self._select(X)
        L = X[idx]
        colsum = gram_accumulate(X, L, self.kernel, self.block_size)[1]
        Kmm = self.kernel.block(L, validate=False)
        m = len(idx)
        terms = self._terms(Kmm, colsum, n)
        ev, U = self._eig(terms["Kp_mm"], Kmm, 1.0)
        k = self.n_components
        check_components_rank(k, len(ev), "K'_mm", m, self.rcond)
        self.landmark_indices_ = idx
        self.basis_points_ = L
        self.n_samples_ = n
        self.all_eigenvalues_ = ev / m
        self.eigenvalues_ = self.all_eigenvalues_[:k]
        self.literal_coefficients_ = U[:, :k] / np.sqrt(ev[:k])
        self.coefficients_ = terms["T"] @ self.literal_coefficients_
        self._terms_ = terms
        self._set_trace(X)
        return self
