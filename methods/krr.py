"""Kernel ridge regression, full and by column sampling (Bach 2013, Secs. 4 and 4.4).

Normalisation of the paper: minimise (1/n) sum_i (y_i - f(x_i))^2 / 2 + (lambda/2) ||f||^2,
so every system carries n lambda (and the inner regulariser of the paper's Eq. (8)
is p gamma, not gamma). The paper's lambda is the parameter ``ridge``:

* full KRR:   (K + n ridge I) alpha = y,  f(x) = k(x, X) alpha.  scikit-learn's
  ``KernelRidge(alpha=a)`` solves (K + a I)^{-1} y: it is this estimator with a = n ridge.
* Nyström KRR (Sec. 4.4): with the features Phi = G of an incomplete Cholesky
  factorisation of the selected columns I (G G^T = L = C W^+ C^T, Eq. (4), C = K(V, I),
  W = K(I, I)), with lambda = ``ridge`` and p = ``n_landmarks`` (Bach's sampled
  columns are the landmarks),

  .. math::  w = (\\Phi^T \\Phi + n \\lambda I_p)^{-1} \\Phi^T y, \\qquad
             \\Phi w = L (L + n \\lambda I)^{-1} y,

  and, when W is invertible, the same fit without Phi:
  z_hat = C (C^T C + n lambda W)^{-1} C^T y, solved as the least squares of
  [C; sqrt(n lambda) R^T] by QR (forming C^T C would square cond(W)). The feature map at any x is
  phi(x) = R^{-1} k(I, x), R = G[I, :] lower triangular (R R^T = W), which is G's rows on
  the training set; so f(x) = k(x, I) beta with beta = R^{-T} w (``dual_coef_``) for
  both solvers.

Column selection (``sampling``, ``n_landmarks`` = p columns):

* ``"uniform"``: p columns uniformly without replacement (Eq. (4), Thm. 4.1); a column
  numerically in the span of the others is dropped (W^+), so ``rank_`` can be < p;
* ``"random"``: incomplete Cholesky in a uniformly random order, skipping such columns,
  so p columns are kept whenever K has numerical rank >= p (its prefixes are nested);
* ``"pivot"``: incomplete Cholesky with column pivoting (the paper's Figs. 1-3; no theory);
* ``"leverage"``: i.i.d. draws proportional to approximate ridge leverage scores
  [K (K + n lambda I)^{-1}]_ii, deduplicated (:class:`methods.landmarks.LeverageScoreLandmarks`).
  **An extension: the paper has no leverage-score sampler** (it names it future work);
* any landmark strategy object with ``select(X, kernel, rng)`` (e.g. ``FixedLandmarks``).

:class:`NystromFeatures` is the same column sampling and feature map phi without the
regression (a transformer: ``fit(X)``, ``transform(X)``, with transform(X) transform(X)^T = L),
the "kernel-approximation" role of the suites' adapters.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg as sla

from kpca_suite.kernels.cholesky import incomplete_cholesky
from kpca_suite.kernels.validation import check_array, check_positive, check_random_state, check_rank, check_same_width

from .base import check_choice, check_is_fitted, check_kernel, reset_fitted
from .landmarks import LeverageScoreLandmarks, UniformLandmarks, select_landmarks

SAMPLINGS = ("uniform", "random", "pivot", "leverage")
SOLVERS = ("features", "columns")


def check_targets(y, n: int) -> np.ndarray:
    """y of shape (n,) or (n, k), finite, else a ValueError naming y."""
    arr = np.asarray(y)
    if arr.ndim not in (1, 2):
        raise ValueError(f"y must be 1-D or 2-D, got shape {arr.shape}")
    arr = check_array(arr, "y", ndim=arr.ndim, min_rows=0)
    if arr.shape[0] != n:
        raise ValueError(f"y must have one row per sample (n = {n}), got {arr.shape[0]}")
    return arr


def check_sampling(sampling, allowed):
    """``sampling`` must be one of ``allowed`` or a landmark strategy object (with
    ``select``); else a ValueError naming it."""
    if not hasattr(sampling, "select") and not (isinstance(sampling, str) and sampling in allowed):
        raise ValueError(f"sampling must be one of {allowed} or a strategy object, got {sampling!r}")


def column_order(sampling, p: int, X, kernel, rng):
    """The candidate columns of the incomplete Cholesky for ``sampling`` "pivot" (the
    string "pivot"), "random" (a uniform permutation of all n), "uniform" (p rows
    uniformly without replacement) or a landmark strategy object (its rows)."""
    if isinstance(sampling, str) and sampling == "pivot":
        return "pivot"
    if isinstance(sampling, str) and sampling == "random":
        return rng.permutation(X.shape[0])
    strategy = UniformLandmarks(p) if isinstance(sampling, str) and sampling == "uniform" else sampling
    return select_landmarks(strategy, X, kernel, rng)


def column_features(kernel, columns, R, X) -> np.ndarray:
    """phi(x) = R^{-1} k(I, x) for the rows of X, shape (len(X), r): the Nyström feature
    map of the columns I (points ``columns``) with R = G[I, :] lower triangular, R R^T = W."""
    Kx = kernel.block(columns, X, validate=False)
    return sla.solve_triangular(R, Kx, lower=True).T


def stacked_least_squares(C, R, nlam, y):
    """beta = (C^T C + n lambda W)^{-1} C^T y with W = R R^T, as the least-squares solution
    of [C; sqrt(n lambda) R^T] beta ~ [y; 0] by QR: the same normal equations, but a forward
    error in eps cond([C; sqrt(n lambda) R^T]), where forming C^T C + n lambda W squares it."""
    Q, T = np.linalg.qr(np.vstack([C, np.sqrt(nlam) * R.T]))
    rhs = Q[:C.shape[0]].T @ y    # the zero block of [y; 0] adds nothing
    return sla.solve_triangular(T, rhs, lower=False)


class _KRRBase:
    def __init__(self, kernel, ridge: float):
        self.kernel = kernel
        self.ridge = ridge

    def _validate(self, X, y):
        """Forget any previous fit, then check the parameters, X and y."""
        reset_fitted(self)
        check_kernel(self.kernel, like=True)
        X = check_array(X, "X")
        check_positive(self.ridge, "ridge")
        return X, check_targets(y, X.shape[0])

    def _check_fitted(self, X):
        check_is_fitted(self, "dual_coef_")
        X = check_array(X, "X")
        check_same_width(X, self.X_fit_, "X", "the training data")
        return X

    def predict(self, X) -> np.ndarray:
        """f(x) = k(x, S) dual_coef_ over the basis points S (``X_fit_``)."""
        X = self._check_fitted(X)
        return self.kernel.block(X, self.X_fit_, validate=False) @ self.dual_coef_


class KernelRidge(_KRRBase):
    """Full KRR: (K + n ridge I) alpha = y (Sec. 4, square loss). O(n^3), O(n^2).

    Parameters
    ----------
    kernel : KernelLike
        kernels.Kernel, kernels.PeriodicKernel, ...
    ridge : float > 0
        The paper's lambda (scikit-learn's alpha = n ridge).

    Attributes
    ----------
    dual_coef_ : alpha, the shape of y.
    X_fit_ : (n, d) the training points.
    """

    def fit(self, X, y):
        X, y = self._validate(X, y)
        n = X.shape[0]
        K = self.kernel.block(X, validate=False)
        K[np.diag_indices(n)] += n * self.ridge
        self.dual_coef_ = sla.solve(K, y, assume_a="pos")
        self.X_fit_ = X
        return self


class NystromKRR(_KRRBase):
    """KRR on p sampled columns of K (Eq. (4), Sec. 4.4); formulas in the module docstring.

    Parameters
    ----------
    kernel : KernelLike
        kernels.Kernel, kernels.PeriodicKernel, ...
    ridge : float > 0
        The paper's lambda: the full problem is (K + n ridge I) alpha = y.
    n_landmarks : int
        p, 1 <= p <= n, the number of sampled columns (the landmarks; at most p are kept).
    sampling : one of ``SAMPLINGS`` or a landmark strategy object
        How the p columns are chosen (a strategy object chooses them itself).
    solver : {"features", "columns"}
        "features" (w = (Phi^T Phi + n ridge I)^{-1} Phi^T y, O(p^2 n)) or "columns"
        (C (C^T C + n ridge W)^{-1} C^T y, W = R R^T over the kept columns, solved as the least
        squares of [C; sqrt(n ridge) R^T] by QR: :func:`stacked_least_squares`, as accurate as "features").
    tol : float
        Residual cut-off of the incomplete Cholesky, relative to max_i K_ii.
    random_state : int, Generator or None

    Attributes
    ----------
    column_indices_ : (r,) the columns kept, in factorisation order; ``rank_`` = r.
    features_ : (n, r) Phi = G, with Phi Phi^T = L.
    residual_traces_ : (r + 1,) tr(K - L) after 0..r columns (online trace-norm error).
    coef_ : (r,) or (r, k) w ("features" solver; None for "columns").
    dual_coef_ : beta over the kept columns, f(x) = k(x, X[column_indices_]) beta.
    X_fit_ : X[column_indices_].
    """

    def __init__(self, kernel, ridge: float, n_landmarks: int, sampling="uniform", solver: str = "features",
                 tol: float = 1e-12, random_state=None):
        super().__init__(kernel, ridge)
        self.n_landmarks = n_landmarks
        self.sampling = sampling
        self.solver = solver
        self.tol = tol
        self.random_state = random_state

    def _order(self, X, rng):
        if self.sampling == "leverage":
            return select_landmarks(LeverageScoreLandmarks(self.n_landmarks, s=self.ridge), X, self.kernel, rng)
        return column_order(self.sampling, self.n_landmarks, X, self.kernel, rng)

    def fit(self, X, y):
        X, y = self._validate(X, y)
        check_sampling(self.sampling, SAMPLINGS)
        check_choice(self.solver, "solver", SOLVERS)
        n = X.shape[0]
        p = check_rank(self.n_landmarks, "n_landmarks", n, "the number of samples n")
        rng = check_random_state(self.random_state)
        chol = incomplete_cholesky(X, self.kernel, p, self._order(X, rng), self.tol)
        G, idx = chol.factor, chol.indices
        R = G[idx]
        nlam = n * self.ridge
        if self.solver == "features":
            A = G.T @ G
            A[np.diag_indices_from(A)] += nlam
            w = sla.solve(A, G.T @ y, assume_a="pos")
            beta = sla.solve_triangular(R.T, w, lower=False)
        else:
            w = None
            beta = stacked_least_squares(self.kernel.block(X, X[idx], validate=False), R, nlam, y)
        self.column_indices_ = idx
        self.rank_ = len(idx)
        self.features_ = G
        self.residual_traces_ = chol.residual_traces
        self.coef_ = w
        self.dual_coef_ = beta
        self.X_fit_ = X[idx]
        self._chol_ = R
        return self

    def transform(self, X) -> np.ndarray:
        """The feature map phi(x) = R^{-1} k(I, x), shape (len(X), r); equals ``features_``
        on the training points."""
        X = self._check_fitted(X)
        return column_features(self.kernel, self.X_fit_, self._chol_, X)


class NystromFeatures:
    """The Nyström approximation of K by p sampled columns (Eq. (4)) as a feature map, for
    any KernelLike: NystromKRR's columns and features without the regression.

    ``fit(X)`` chooses the candidate columns by ``sampling`` and factors them by incomplete
    Cholesky, G G^T = L = C W^+ C^T (C = K(V, I), W = K(I, I)); ``transform(x)`` =
    phi(x) = R^{-1} k(I, x) with R = G[I, :], so transform(X) = G on the training points and
    transform(X) transform(X)^T = L. O(p^2 n) time, p n kernel evaluations.

    Parameters
    ----------
    kernel : KernelLike
        kernels.Kernel, kernels.PeriodicKernel, ...
    n_landmarks : int
        p, 1 <= p <= n, the number of sampled columns (at most p are kept).
    sampling : "uniform", "random", "pivot" or a landmark strategy object
        As NystromKRR's: "uniform" draws p columns uniformly without replacement and drops
        those numerically in the span of the others (W^+); "random" runs the factorisation
        in a uniformly random order, skipping them.
    tol, random_state
        As NystromKRR's.

    Attributes
    ----------
    column_indices_, rank_, features_ (G), X_fit_ : as NystromKRR's.
    """

    SAMPLINGS = ("uniform", "random", "pivot")

    def __init__(self, kernel, n_landmarks: int, sampling="uniform", tol: float = 1e-12, random_state=None):
        self.kernel = kernel
        self.n_landmarks = n_landmarks
        self.sampling = sampling
        self.tol = tol
        self.random_state = random_state

    def fit(self, X, y=None):
        reset_fitted(self)
        check_kernel(self.kernel, like=True)
        X = check_array(X, "X")
        check_sampling(self.sampling, self.SAMPLINGS)
        p = check_rank(self.n_landmarks, "n_landmarks", X.shape[0], "the number of samples n")
        rng = check_random_state(self.random_state)
        chol = incomplete_cholesky(X, self.kernel, p, column_order(self.sampling, p, X, self.kernel, rng), self.tol)
        self.column_indices_ = chol.indices
        self.rank_ = len(chol.indices)
        self.features_ = chol.factor
        self.X_fit_ = X[chol.indices]
        self._chol_ = chol.factor[chol.indices]
        return self

    def transform(self, X) -> np.ndarray:
        """phi(x) = R^{-1} k(I, x), shape (len(X), r)."""
        check_is_fitted(self, "features_")
        X = check_array(X, "X")
        check_same_width(X, self.X_fit_, "X", "the training data")
        return column_features(self.kernel, self.X_fit_, self._chol_, X)
