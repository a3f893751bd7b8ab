"""Centred Nyström kernel PCA of Hallgren (2021), Theorem 1, Eqs. (2)-(3)
("Kernel PCA with the Nyström method"; the formulas below are written elementwise,
with 1_nm, 1_mn the matrices of entries 1/n, and were checked numerically).

Centring uses the full-data mean mu = (1/n) sum_i k(., x_i), projected onto
H_S = span{k(., x_j)}_{j in S}:

.. math::  c = \\tfrac1n K_{mn} 1,\\quad a = K_{nm} K_{mm}^{-1} c,\\quad s = c^T K_{mm}^{-1} c,

    K'_{nm} = K_{nm} - 1 c^T - a 1^T + s,\\qquad K'_{mm} = K_{mm} - 1 c^T - c 1^T + s,

    \\tilde K' = \\tfrac1n K'^{-1/2}_{mm} K'_{mn} K'_{nm} K'^{-1/2}_{mm} = V \\Lambda V^T   (Eq. 2)

with U = K'^{-1/2}_mm V, training scores W = K'_nm U (W^T W = n Lambda), new-point
scores w* = U^T kappa~(x*), kappa~ = kappa_m - c - (c^T K_mm^{-1} kappa_m) 1 + s 1
(Eq. 3), and the explained variances lambda~_j = Lambda_jj (Theorem 1).

Two forms, one result (an equivalent cheaper form, not in the paper): with
T = I - K_mm^{-1} c 1^T, K'_nm = (I - 1_n) K_nm T and K'_mm = T^T K_mm T, so the
generalized eigenproblem max u^T K'_mn K'_nm u / n s.t. u^T K'_mm u = 1 becomes, for
a = T u, max a^T K^c_mn K^c_nm a / n s.t. a^T K_mm a = 1 with the column-centred
K^c_nm = K_nm - 1 c^T. That is exactly :class:`~methods.nystrom.NystromKPCA` with
``center=True`` (M = W^T (K_mn K_nm - n c c^T) W, W = K_mm^{-1/2}, scores
(kappa_m - c)^T A), so

* ``form="fast"`` (default) reuses it: blocked pass, O(n m^2) time, O(m^2 + b m)
  memory, never the n x m block;
* ``form="literal"`` builds K'_nm, K'_mm elementwise as the paper writes them and
  eigendecomposes Eq. (2) with pseudo-inverses (O(n m) memory). It is the baseline
  the fast form is tested against, and the only one defined at m = n, where K'_mm
  has rank n - 1 (the pseudo-inverse is mandatory: the paper drops eigenvalues
  below 1e-12 and any negative ones).

Both store ``coefficients_`` in the uncentred basis (phi~_j = sum_k A_kj k(x_k, .),
scored against x - mu): A = T U for the literal form, so A^T K_mm A = I in both.

Sign convention (the paper's code, ``flip_dimensions``): column j is flipped when
(min_i W_ij + max_i W_ij) / 2 < 0.

The in-sample error of Eq. (4), R_n(V~_d) = (1/n) Tr(K') - sum_{j <= d} lambda~_j,
is ``insample_error(d)``; (1/n) Tr(K') is the exact O(n^2) blocked sum, not the
paper's O(nm) approximation, which subtracts the mean of K_nm instead of the mean
of K. It is summed on the first read of ``trace_`` (or ``explained_variance_ratio_``),
not in ``fit``, which stays O(n m^2) (:meth:`KPCABase._set_trace`).
"""

from __future__ import annotations

import numpy as np

from kpca_suite.kernels import Kernel, check_array, check_same_width

from .base import check_choice
from .landmarks import select_landmarks
from .nystrom import DEFAULT_RCOND, NystromKPCA

FORMS = ("fast", "literal")


def psd_pinv(M: np.ndarray, rcond: float, power: float = 1.0):
    """M^{-power} on the eigenvalues s > rcond * max(s) of a symmetric PSD M (the
    others, negative ones included, are dropped, as the paper does for K'_mm).
    Returns (M^{-power}, kept rank)."""
    s, V = np.linalg.eigh((M + M.T) / 2)
    keep = s > rcond * max(s.max(), 0.0)
    Vk = V[:, keep]
    return (Vk * s[keep] ** -power) @ Vk.T, int(keep.sum())


def centring_terms(Kmm: np.ndarray, colsum: np.ndarray, n: int, rcond: float) -> dict:
    """The full-data centring quantities of Theorem 1 (c, s and K'_mm; the mean
    is the full-data one, never K_mm's own means).

    Returns c = K_mn 1 / n, Kinv = pinv(K_mm), s = c^T Kinv c, T = I - Kinv c 1^T and
    K'_mm = K_mm - 1 c^T - c 1^T + s (the paper's elementwise formula).
    """
    m = Kmm.shape[0]
    c = colsum / n
    Kinv, _ = psd_pinv(Kmm, rcond)
    Kc = Kinv @ c
    s = float(c @ Kc)
    T = np.eye(m) - np.outer(Kc, np.ones(m))
    Kp_mm = Kmm - c[None, :] - c[:, None] + s
    return {"c": c, "Kinv": Kinv, "s": s, "T": T, "Kp_mm": Kp_mm}


def centred_cross(Knm: np.ndarray, terms: dict) -> np.ndarray:
    """K'_nm = K_nm - 1 c^T - a 1^T + s with a = K_nm K_mm^{-1} c (Theorem 1). Applied
    to the rows K(X*, S) of new points it is the kappa~(x*) of Eq. (3), row by row."""
    a = Knm @ (terms["Kinv"] @ terms["c"])
    return Knm - terms["c"][None, :] - a[:, None] + terms["s"]


def sign_flips(W: np.ndarray) -> np.ndarray:
    """+-1 per column: -1 where (min + max) / 2 of the column is negative (the code's rule)."""
    return np.where((W.min(axis=0) + W.max(axis=0)) / 2 < 0, -1.0, 1.0)


class CenteredNystromKPCA(NystromKPCA):
    """Centred Nyström KPCA (Hallgren 2021, Theorem 1), see the module docstring.

    Parameters
    ----------
    n_components : int
        d, 1 <= d <= m.
    kernel : kernels.Kernel
    landmarks : int or landmark strategy
        An int m draws m landmarks uniformly without replacement (as in the paper);
        a strategy object (:mod:`methods.landmarks`) chooses them itself.
    form : {"fast", "literal"}
        "fast" (column-centred K_nm with the uncentred K_mm^{-1/2}) or "literal"
        (the paper's K'_nm, K'_mm^{-1/2}); the same eigenvalues and scores.
    rcond : float in [0, 1)
        Relative eigenvalue cut-off of every pseudo-inverse (K_mm^{-1/2},
        K_mm^{-1}, K'_mm^{-1/2}); the paper cuts at an absolute 1e-12, its code at 1e-9.
    block_size : int or None
        Rows of a kernel block at a time.
    random_state : int, Generator or None
        The landmark draw.

    Fitted attributes (besides :class:`KPCABase`'s): ``scores_`` (n, d) the training
    scores W after the sign convention; ``explained_variance_`` = ``eigenvalues_``
    (lambda~_j); ``explained_variance_ratio_`` = lambda~_j / ((1/n) Tr K');
    ``landmark_indices_``; ``effective_rank_``; literal form only:
    ``literal_coefficients_`` (U, the paper's coefficients on k(x_k, .) - phi_0).
    """

    def __init__(self, n_components: int, kernel: Kernel = Kernel(), landmarks=100, form: str = "fast",
                 rcond: float = DEFAULT_RCOND, block_size=None, random_state=None):
        super().__init__(n_components, kernel, landmarks=landmarks, whitening="eigh", rcond=rcond,
                         center=True, block_size=block_size, random_state=random_state)
        self.form = form

    def fit(self, X):
        check_choice(self.form, "form", FORMS)
        if self.form == "fast":
            super().fit(X)
            X = check_array(X, "X")
            W = super().transform(X)
        else:
            X = self._validate_fit(X).astype(np.float64, copy=False)  # the literal form is float64 throughout
            W = self._fit_literal(X)
        flips = sign_flips(W)
        self.coefficients_ = self.coefficients_ * flips
        if self.form == "fast":
            self._score_offset_ = self._score_offset_ * flips
        else:
            self.literal_coefficients_ = self.literal_coefficients_ * flips
        self.scores_ = W * flips
        self.explained_variance_ = self.eigenvalues_
        return self

    @property
    def explained_variance_ratio_(self):
        """lambda~_j / ((1/n) Tr K'); its first read sums the centred trace (``trace_``)."""
        return self.eigenvalues_ / self.trace_

    def _fit_literal(self, X):
        n, k = X.shape[0], self.n_components
        idx = select_landmarks(self._strategy(), X, self.kernel, self.random_state, k)
        L = X[idx]
        Knm = self.kernel.block(X, L, validate=False)
        Kmm = Knm[idx]
        terms = self._centring(Kmm, Knm.sum(axis=0), n)
        Kp_nm = centred_cross(Knm, terms)
        R, rank = psd_pinv(terms["Kp_mm"], self.rcond, power=0.5)
        Kt = R @ (Kp_nm.T @ Kp_nm) @ R / n
        lam, V = np.linalg.eigh((Kt + Kt.T) / 2)
        lam, V = lam[::-1][:rank], V[:, ::-1][:, :rank]
        if k > rank:
            raise ValueError(f"n_components = {k} exceeds the rank {rank} of K'_mm (m = {len(idx)}, "
                             f"rcond = {self.rcond}); use fewer components or more landmarks")
        U = R @ V[:, :k]
        self.landmark_indices_ = idx
        self.basis_points_ = L
        self.n_samples_ = n
        self.effective_rank_ = rank
        self.all_eigenvalues_ = np.clip(lam, 0.0, None)
        self.eigenvalues_ = self.all_eigenvalues_[:k]
        self.literal_coefficients_ = U
        self.coefficients_ = terms["T"] @ U
        self._terms_ = terms
        self._set_trace(X)
        return Kp_nm @ U

    def _centring(self, Kmm, colsum, n):
        """Theorem 1's full-data centring terms (:func:`centring_terms`)."""
        return centring_terms(Kmm, colsum, n, self.rcond)

    def transform(self, X) -> np.ndarray:
        """Scores of new points: (kappa_m(x) - c)^T A (fast), or the paper's
        U^T kappa~(x) of Eq. (3) (literal). Equal up to round-off."""
        if self.form == "fast":
            return super().transform(X)
        self._check_fitted()
        X = check_array(X, "X")
        check_same_width(X, self.basis_points_, "X", "the training data")
        kappa = self.kernel.block(X, self.basis_points_, validate=False)
        return centred_cross(kappa, self._terms_) @ self.literal_coefficients_

    def fit_transform(self, X) -> np.ndarray:
        return self.fit(X).scores_.copy()
