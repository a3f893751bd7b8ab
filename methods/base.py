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

import inspect
import numbers

import numpy as np

from kpca_suite.kernels import (Kernel, KernelLike, centred_trace, check_array, check_positive, check_random_state,
                                check_rank, check_same_width, kernel_matmat)


# -- the vocabulary every estimator of methods/ shares ----------------------------------
#
# Parameters (stored by ``__init__`` as given, validated by ``fit`` / ``partial_fit``,
# scikit-learn's rule):
#
# n_components   k, the number of components kept.
# kernel         a :class:`kernels.Kernel` (or, where stated, any :class:`kernels.KernelLike`).
# landmarks      the landmark set: an int m (m points drawn uniformly without replacement)
#                or a strategy object with ``select(X, kernel, rng)`` (methods.landmarks).
# n_landmarks    a bare count of landmarks (reservoir samplers, Cholesky columns), when the
#                way they are chosen is a separate parameter or fixed by the algorithm.
# n_features     m, the number of random Fourier frequencies.
# sketch_size    ell, the number of rows of a Frequent Directions sketch.
# ridge          the ridge lambda of (K + n ridge I) alpha = y (see each estimator for its
#                normalisation).
# rcond, block_size, random_state   as in NumPy / scikit-learn.
#
# Fitted attributes end in "_"; :func:`reset_fitted` forgets them all and
# :func:`check_is_fitted` guards every method that needs them.


class NotFittedError(RuntimeError):
    """An estimator was used before ``fit`` (a RuntimeError, so ``except RuntimeError`` catches it)."""


def _fit_call(estimator) -> str:
    """"fit(X)", "fit(X, y)" or "fit(X) or partial_fit(X)", read from the estimator's methods."""
    fit = getattr(type(estimator), "fit", None)
    args = ["X"]
    if fit is not None:
        names = [p for p in inspect.signature(fit).parameters if p != "self"]
        args = names or args
    call = f"fit({', '.join(args)})"
    if hasattr(estimator, "partial_fit"):
        call += f" or partial_fit({args[0]})"
    return call


def check_is_fitted(estimator, attribute: str) -> None:
    """Raise :class:`NotFittedError` naming the class and what to call, unless
    ``estimator`` has the fitted ``attribute`` (e.g. ``"coefficients_"``).

    The message reads "ExactKPCA is not fitted yet: call fit(X) first".
    """
    if not hasattr(estimator, attribute):
        raise NotFittedError(f"{type(estimator).__name__} is not fitted yet: call {_fit_call(estimator)} first")


def reset_fitted(estimator) -> None:
    """Forget the fitted state: delete every instance attribute whose name ends in "_"
    (public ``coef_`` and private ``_terms_`` alike; parameters never end in "_").
    Called at the start of ``fit`` and of a fresh ``partial_fit`` pass."""
    for name in [a for a in vars(estimator) if a.endswith("_") and not a.endswith("__")]:
        delattr(estimator, name)


def check_kernel(kernel, *, like: bool = False):
    """``kernel`` must be a :class:`kernels.Kernel` (``like=True``: any
    :class:`kernels.KernelLike`, i.e. with ``block`` and ``diag``); else a TypeError."""
    if like:
        if not isinstance(kernel, KernelLike):
            raise TypeError(f"kernel must be a KernelLike (block() and diag(), e.g. kernels.Kernel), "
                            f"got {type(kernel).__name__}")
    elif not isinstance(kernel, Kernel):
        raise TypeError(f"kernel must be a kernels.Kernel, got {type(kernel).__name__}")
    return kernel


def check_rcond(rcond) -> float:
    """A relative eigenvalue cut-off in [0, 1); else a ValueError naming rcond."""
    if isinstance(rcond, bool) or not isinstance(rcond, numbers.Real) or not 0 <= rcond < 1:
        raise ValueError(f"rcond must be a number in [0, 1), got {rcond!r}")
    return float(rcond)


def check_components_rank(n_components: int, rank: int, matrix: str, m: int, rcond: float) -> None:
    """The k = ``n_components`` kept components need k <= r, the effective rank of
    ``matrix`` (the eigenvalues kept above its rcond cut-off); else a ValueError naming
    both, e.g. "n_components = 2 exceeds the effective rank 1 of K_mm (m = 8,
    rcond = 1e-08); use fewer components or more landmarks"."""
    if n_components > rank:
        raise ValueError(f"n_components = {n_components} exceeds the effective rank {rank} of {matrix} "
                         f"(m = {m}, rcond = {rcond}); use fewer components or more landmarks")


def check_choice(value, name: str, choices) -> str:
    """``value`` must be one of ``choices``; else a ValueError naming ``name``."""
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {tuple(choices)}, got {value!r}")
    return value


class KPCABase:
    """Fitted attributes (after ``fit``):

    eigenvalues_ : (k,) the top-k eigenvalues of the (restricted) empirical
        covariance, lambda_hat_j = eig(K)/n (exact) or eig(M)/n (Nyström).
    coefficients_ : (|S|, k) the matrix A above.
    basis_points_ : (|S|, d) the points S.
    trace_ : (1/n) tr(K) (centred: (1/n) tr(H K H)), the in-sample error at l = 0.
        A centred Nyström-type fit computes it on first read (:meth:`_set_trace`).
    n_samples_ : n.
    """

    def __init__(self, n_components: int, kernel: Kernel, center: bool, block_size):
        self.n_components = n_components
        self.kernel = kernel
        self.center = center
        self.block_size = block_size

    # -- helpers for fit -------------------------------------------------------
    def _validate_fit(self, X, check=check_array):
        """Check X (with ``check``: :func:`kernels.check_array`, or
        :func:`kernels.dask_arrays.check_dask_array` for a dask array) and every
        hyper-parameter before any work (the dense and Lanczos paths alike, so a bad
        value never waits until ``transform``), after forgetting any previous fit."""
        reset_fitted(self)
        check_kernel(self.kernel)
        X = check(X, "X")
        check_rank(self.n_components, "n_components", X.shape[0], "the number of samples n")
        if self.block_size is not None:
            check_positive(self.block_size, "block_size", integer=True)
        check_rcond(self.rcond)
        check_random_state(self.random_state)
        return X

    def _check_fitted(self):
        check_is_fitted(self, "coefficients_")

    # -- the trace: (1/n) tr K, or (1/n) tr(H K H) on first read ---------------
    def _set_trace(self, X):
        """``trace_`` of the training X: mean_i k(x_i, x_i); centred, (1/n) tr(H K H) =
        mean_i k(x_i, x_i) - (1/n^2) 1^T K 1 (:func:`kernels.centred_trace`).

        1^T K 1 is a pass over all n^2 pairs of rows, O(n^2 d): at n = 50000, d = 10 it took
        2.27 s where the whole uncentred Nyström fit (m = 1000) took 0.82 s, and it grew like
        n^2. Only ``trace_`` (and the in-sample error) needs it, so a centred fit keeps a
        reference to X, with its sum and sum of squares, and sums 1^T K 1 when ``trace_`` is
        first read, or before the estimator is pickled; the fit stays O(n m^2). X changed in
        place in between is detected by those sums and refused, not read."""
        if not self.center:
            self.trace_ = float(self.kernel.diag(X, validate=False).mean(dtype=np.float64))
            return
        self._trace_of_ = (X, self.kernel, self.block_size, _fingerprint(X))

    @property
    def trace_(self):
        fitted = vars(self)
        if "_trace_" not in fitted:
            if "_trace_of_" not in fitted:
                raise AttributeError(f"{type(self).__name__} has no trace_: it is not fitted")
            X, kernel, block_size, sums = fitted["_trace_of_"]
            if _fingerprint(X) != sums:
                raise ValueError(f"{type(self).__name__}.trace_: the training X was changed in place after fit, "
                                 "and the centred trace needs it as fitted; fit again, or read trace_ before "
                                 "changing X")
            self._trace_ = centred_trace(X, kernel, block_size)
            del self._trace_of_
        return self._trace_

    @trace_.setter
    def trace_(self, value):
        self._trace_ = float(value)

    def __getstate__(self):
        """A pickle holds the centred trace, never the training X kept for it."""
        if "_trace_of_" in vars(self):
            self.trace_  # reading it sums 1^T K 1, stores _trace_ and drops the reference to X
        return vars(self).copy()

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


def _fingerprint(X) -> tuple:
    """(sum, sum of squares) of X's entries: what :meth:`KPCABase.trace_` compares to tell an X
    changed in place since the fit (a permutation of its rows leaves the trace as it is)."""
    return float(np.sum(X, dtype=np.float64)), float(np.einsum("ij,ij->", X, X, dtype=np.float64))


def fitted_coefficients(vectors: np.ndarray, eigvals_K: np.ndarray, rcond: float) -> np.ndarray:
    """A = U diag(e^{-1/2}) for the eigenpairs (e, U) of K (Sterge et al. 2020, eq. (6)):
    1/sqrt(n lambda_hat) = 1/sqrt(e). Eigenvalues at or below rcond * max(e)
    give a zero column (pseudo-inverse), so the projector never blows up."""
    keep = eigvals_K > rcond * max(eigvals_K.max(), 0.0)
    scale = np.zeros_like(eigvals_K)
    scale[keep] = 1.0 / np.sqrt(eigvals_K[keep])
    return vectors * scale
