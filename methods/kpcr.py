"""Kernel principal component regression, standard and Nyström (Hallgren 2021,
Section 8), and the paper's Nyström kernel ridge regression baseline (all three
written out below).

KPCR regresses the centred target on the first d centred KPCA scores W_d with an
intercept: y = alpha + W_d beta + eps,

.. math::  \\hat\\alpha = \\bar y,\\qquad \\hat\\beta = (W_d^T W_d)^{-1} W_d^T \\tilde y
           = (n \\Lambda_d)^{-1} W_d^T \\tilde y,\\qquad \\hat y(x^*) = \\bar y + w^*(x^*)^T \\hat\\beta,

since W^T W = n Lambda for both estimators (Lambda = the explained variances):

* standard KPCR (``landmarks=None``): W_d = Q_d Lambda_K^{1/2} from the centred K'
  (:class:`~methods.exact.ExactKPCA` with ``center=True``), so beta =
  Lambda_K^{-1/2} Q_d^T y~ and y^ = ybar + y~^T Q_d Lambda_K^{-1} Q_d^T kappa'(x*);
* Nyström KPCR (``landmarks=m``): W_d = K'_nm U_d of Theorem 1
  (:class:`~methods.centered_nystrom.CenteredNystromKPCA`), so beta =
  (n Lambda_d)^{-1} U_d^T K'_mn y~. The factor n comes from W^T W = n Lambda; the
  paper's displayed formula loses it in the OCR, its code keeps it.

Components with a zero explained variance get a zero coefficient (the code's ``j``).
Columns of K'_nm have zero mean, so y or y~ give the same beta.

Nyström KRR as the paper re-specifies Rudi et al. (2015):
beta = pinv(K_mn K_nm + gamma K_mm) K_mn y~ with the *uncentred* K, y^ = ybar +
kappa_m(x*)^T beta. The target is demeaned and the factor n of Rudi et al.'s
lambda n is absorbed into gamma (``ridge`` here): ridge = n lambda.
"""

from __future__ import annotations

import numpy as np

from kpca_suite.kernels import Kernel, check_array, check_positive, check_same_width, gram_accumulate
from kpca_suite.kernels import kernel_matmat

from .base import check_is_fitted, check_kernel, check_rcond, reset_fitted
from .centered_nystrom import CenteredNystromKPCA, psd_pinv, sign_flips
from .exact import ExactKPCA
from .landmarks import select_landmarks
from .nystrom import DEFAULT_RCOND


def r2_score(y, y_pred) -> float:
    """R^2 = 1 - RSS / TSS = 1 - sum (y - y_pred)^2 / sum (y - mean y)^2, the paper's metric
    (scikit-learn's r2_score for one target)."""
    y, y_pred = np.asarray(y, dtype=float), np.asarray(y_pred, dtype=float)
    return float(1.0 - np.sum((y - y_pred) ** 2) / np.sum((y - y.mean()) ** 2))


def _check_target(X, y):
    X = check_array(X, "X")
    y = check_array(y, "y", ndim=1)
    if y.size != X.shape[0]:
        raise ValueError(f"y has {y.size} values but X has {X.shape[0]} samples")
    return X, y


class KPCR:
    """Standard (``landmarks=None``) or Nyström (``landmarks=m``) KPCR, Section 8.

    Parameters
    ----------
    n_components : int
        d, the number of principal components regressed on.
    kernel : kernels.Kernel
    landmarks : None, int or landmark strategy
        None for standard KPCR (dense centred KPCA, O(n^3)); otherwise Nyström KPCR
        (O(n m^2)) on the landmarks it names: an int m draws m points uniformly without
        replacement, a strategy object (:mod:`methods.landmarks`) chooses them itself.
    rcond : float in [0, 1)
        Eigenvalue cut-off passed to the KPCA estimator.
    block_size : int or None
        Rows of a kernel block at a time.
    random_state : int, Generator or None
        The landmark draw.

    Attributes
    ----------
    kpca_ : ExactKPCA or CenteredNystromKPCA, the fitted KPCA.
    intercept_ : float, ybar.
    coef_ : (d,) beta_hat = (n Lambda_d)^{-1} W_d^T y~.
    """

    def __init__(self, n_components: int, kernel: Kernel = Kernel(), landmarks=None, rcond: float = DEFAULT_RCOND,
                 block_size=None, random_state=None):
        self.n_components = n_components
        self.kernel = kernel
        self.landmarks = landmarks
        self.rcond = rcond
        self.block_size = block_size
        self.random_state = random_state

    def fit(self, X, y):
        reset_fitted(self)
        X, y = _check_target(X, y)
        if self.landmarks is None:
            kpca = ExactKPCA(self.n_components, self.kernel, center=True, solver="dense", rcond=self.rcond,
                             block_size=self.block_size)
            W = kpca.fit(X).transform(X)
            flips = sign_flips(W)
            kpca.coefficients_ = kpca.coefficients_ * flips
            kpca._score_offset_ = kpca._score_offset_ * flips
            W = W * flips
        else:
            kpca = CenteredNystromKPCA(self.n_components, self.kernel, landmarks=self.landmarks, rcond=self.rcond,
                                       block_size=self.block_size, random_state=self.random_state)
            W = kpca.fit_transform(X)
        lam = kpca.eigenvalues_
        ybar = float(y.mean())
        # (n Lambda_d)^{-1} W_d^T y~; zero variance -> zero coefficient.
        nlam = X.shape[0] * lam
        ok = nlam > self.rcond * max(nlam.max(), 0.0)
        coef = np.zeros_like(lam)
        coef[ok] = (W[:, ok].T @ (y - ybar)) / nlam[ok]
        self.kpca_ = kpca
        self.intercept_ = ybar
        self.coef_ = coef
        return self

    def predict(self, X) -> np.ndarray:
        check_is_fitted(self, "coef_")
        return self.intercept_ + self.kpca_.transform(X) @ self.coef_

    def score(self, X, y) -> float:
        """Test R^2."""
        X, y = _check_target(X, y)
        return r2_score(y, self.predict(X))


class CenteredNystromKRR:
    """Nyström kernel ridge regression of Hallgren's Section 8 (module docstring):
    the target is centred and gamma absorbs n. Bach's uncentred column-sampling
    KRR, (K + n lambda I) alpha = y restricted to the landmarks, is
    :class:`methods.krr.NystromKRR`.

    Parameters
    ----------
    kernel : kernels.Kernel
    landmarks : int or landmark strategy
        An int m draws m points uniformly without replacement; a strategy object
        (:mod:`methods.landmarks`) chooses them itself.
    ridge : float > 0
        The paper's gamma in pinv(K_mn K_nm + gamma K_mm) K_mn y~; it absorbs the
        factor n, so it is n lambda in the (K + n lambda I) alpha = y normalisation
        of :class:`methods.krr.NystromKRR`, whose ``ridge`` is lambda itself.
    rcond : float in [0, 1)
        Relative cut-off of the pseudo-inverse of K_mn K_nm + gamma K_mm.
    block_size : int or None
        Rows of a kernel block at a time.
    random_state : int, Generator or None
        The landmark draw.

    Attributes
    ----------
    landmark_indices_ : (m,) rows of X used as landmarks; ``basis_points_`` those rows.
    intercept_ : float, ybar.
    coef_ : (m,) beta = pinv(K_mn K_nm + gamma K_mm) K_mn y~.
    """

    def __init__(self, kernel: Kernel = Kernel(), landmarks=100, ridge: float = 1.0, rcond: float = 1e-12,
                 block_size=None, random_state=None):
        self.kernel = kernel
        self.landmarks = landmarks
        self.ridge = ridge
        self.rcond = rcond
        self.block_size = block_size
        self.random_state = random_state

    def fit(self, X, y):
        reset_fitted(self)
        check_kernel(self.kernel)
        X, y = _check_target(X, y)
        ridge = check_positive(self.ridge, "ridge")
        check_rcond(self.rcond)
        idx = select_landmarks(self.landmarks, X, self.kernel, self.random_state)
        L = X[idx]
        G, _ = gram_accumulate(X, L, self.kernel, self.block_size)
        Kmm = self.kernel.block(L, validate=False)
        ybar = float(y.mean())
        b = kernel_matmat(L, y - ybar, self.kernel, X, self.block_size)  # K_mn y~
        Minv, _ = psd_pinv(G + ridge * Kmm, self.rcond)
        self.landmark_indices_ = idx
        self.basis_points_ = L
        self.intercept_ = ybar
        self.coef_ = Minv @ b
        return self

    def predict(self, X) -> np.ndarray:
        check_is_fitted(self, "coef_")
        X = check_array(X, "X")
        check_same_width(X, self.basis_points_, "X", "the training data")
        return self.intercept_ + kernel_matmat(X, self.coef_, self.kernel, self.basis_points_, self.block_size)

    def score(self, X, y) -> float:
        X, y = _check_target(X, y)
        return r2_score(y, self.predict(X))
