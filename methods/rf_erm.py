"""RF-ERM (Ullah et al. 2018, Algorithm "ERM on random features") = RNCA
(Lopez-Paz et al. 2014, the baseline of Ghashami et al. 2016): exact linear PCA
of random Fourier features.

With z the random feature map of :mod:`kernels.random_features` and the
uncentred empirical RF covariance

.. math::  \\hat C_m = \\frac1n \\sum_{i=1}^n z(x_i) z(x_i)^T = \\frac1n Z^T Z
           \\qquad (m' \\times m'),

the fitted subspace is spanned by the top-k eigenvectors U_k of C_m (Ullah et al.
2018, eq. (3) and App. D.1; the RNCA baseline of Ghashami et al. 2016, section 1.2,
after Lopez-Paz et al. 2014); scores are z(x)^T U_k and the Gram approximation is
G_hat = Z Z^T (Ghashami et al. 2016). Z^T Z is accumulated block by block
in one pass, so the state is O(m'^2 + d m) whatever n. A ``dask.array`` X is summed
chunk by chunk, Z^T Z = sum_c Z_c^T Z_c over its row chunks in a tree
(:meth:`RFERM.partial_fit`, :mod:`kernels.dask_arrays`).

A float32 X (in memory; a dask array's chunks are fitted in float64) is mapped in single
precision (:meth:`kernels.RandomFourierFeatures.transform`) and each block's Z_b^T Z_b is a
float32 SYRK, added into the float64 sum; the eigh is float64. One block's round-off is that
of ``block_size`` terms; the sum over blocks adds no float32 error (perf.float32 measures the
speed-up).
"""

from __future__ import annotations

import functools

import numpy as np
import scipy.linalg as sla

from kpca_suite.kernels import Kernel, check_array, check_positive, check_random_state, check_rank

from .base import reset_fitted
from .nystrom import lapack_top_eigenpairs
from kpca_suite.kernels.dask_arrays import check_dask_array, is_dask_array, tree_reduce
from .rf_subspace import RandomFeatureSubspace


class RFERM(RandomFeatureSubspace):
    """Top-k PCA of the uncentred random-feature covariance, fitted in one pass.

    Parameters
    ----------
    n_components : int
        k, at most the number of features.
    n_features : int
        m, the number of frequencies (features: m for ``"cos"``, 2m for
        ``"paired"``).
    kernel : kernels.Kernel
        Gaussian or Laplacian (the kernels with a spectral measure for
        :func:`kernels.draw_rff`); any other kernel is a ValueError at ``fit``.
    variant : {"cos", "paired"}
        As in :func:`kernels.draw_rff`.
    block_size : int
        Rows mapped at a time; memory O(block_size m).
    random_state : int, Generator or None
        Seeds the frequencies; drawn on the first ``partial_fit``.

    Attributes
    ----------
    feature_map_ : RandomFourierFeatures
    covariance_sum_ : (m', m') Z^T Z accumulated so far.
    n_samples_seen_ : int
    components_ : (m', k) U_k, orthonormal columns.
    eigenvalues_ : (k,) top eigenvalues of C_m; ``all_eigenvalues_`` all m' (computed on
        first access).
    """

    def __init__(self, n_components: int, n_features: int, kernel: Kernel = Kernel("gaussian", gamma=1.0),
                 variant: str = "cos", block_size: int = 4096, random_state=None):
        self.n_components = n_components
        self.n_features = n_features
        self.kernel = kernel
        self.variant = variant
        self.block_size = block_size
        self.random_state = random_state

    def fit(self, X) -> "RFERM":
        """Forget any previous pass and fit on X."""
        reset_fitted(self)
        return self.partial_fit(X)

    def partial_fit(self, X) -> "RFERM":
        """Add the rows of X to Z^T Z and refresh the top-k eigenvectors. A
        rejected chunk (non-finite, wrong d) leaves the model unchanged.

        A ``dask.array`` X takes the chunked path (:mod:`kernels.dask_arrays`): z is
        drawn here as in memory, and Z^T Z = sum_c Z_c^T Z_c is summed over the row
        chunks X_c in a tree; the same sum as in memory up to the order of the
        additions."""
        chunked = is_dask_array(X)
        X = check_dask_array(X, "X") if chunked else check_array(X, "X", allow_float32=True)
        block_size = check_positive(self.block_size, "block_size", integer=True)
        if not hasattr(self, "feature_map_"):
            fmap = self._draw_feature_map(X.shape[1], check_random_state(self.random_state))
            check_rank(self.n_components, "n_components", fmap.n_features, "the number of features")
            S, seen = np.zeros((fmap.n_features, fmap.n_features)), 0
        else:
            fmap, S, seen = self.feature_map_, self.covariance_sum_.copy(), self.n_samples_seen_
            if X.shape[1] != fmap.omega.shape[0]:
                raise ValueError(f"X must have d = {fmap.omega.shape[0]} columns like the earlier chunks, "
                                 f"got {X.shape[1]}")
        if chunked:
            S += tree_reduce(X, functools.partial(covariance_sum, fmap, block_size), np.add)
        else:
            for Z in fmap.blocks(X, block_size):
                S += Z.T @ Z
        seen += X.shape[0]
        e, U = lapack_top_eigenpairs(S / seen, self.n_components)
        self.feature_map_, self.covariance_sum_, self.n_samples_seen_ = fmap, S, seen
        vars(self).pop("_all_eigenvalues_", None)
        self.components_ = np.ascontiguousarray(U)
        self.eigenvalues_ = np.maximum(e, 0.0)
        return self

    @property
    def all_eigenvalues_(self) -> np.ndarray:
        """(m',) every eigenvalue of C_m, descending, clipped at 0. ``partial_fit`` solves
        for the top k only (:func:`methods.nystrom.lapack_top_eigenpairs`, a third of a full
        eigh's time at m = 512 - 816, k = 3; not ARPACK, whose small workspace would take the
        m x m one out of the step's memory that ullah18.cost reads as ERM's O(m^2)); the rest
        come from one ``eigvalsh`` of C_m on first access, the fitted top k in front."""
        fitted = vars(self)
        if "_all_eigenvalues_" not in fitted:
            if "covariance_sum_" not in fitted:
                raise AttributeError(f"{type(self).__name__} has no all_eigenvalues_: it is not fitted")
            e = np.maximum(sla.eigvalsh(self.covariance_sum_ / self.n_samples_seen_)[::-1], 0.0)
            e[:self.n_components] = self.eigenvalues_
            self._all_eigenvalues_ = e
        return self._all_eigenvalues_

    @property
    def space_(self) -> int:
        """Floats held: the m' x m' sum, the d x m frequencies and m phases."""
        self._check_fitted()
        fmap = self.feature_map_
        return self.covariance_sum_.size + fmap.omega.size + fmap.phase.size


def covariance_sum(fmap, block_size: int, X) -> np.ndarray:
    """Z^T Z for Z = z(X), summed over blocks of ``block_size`` rows: one chunk's term."""
    S = np.zeros((fmap.n_features, fmap.n_features))
    for Z in fmap.blocks(X, block_size):
        S += Z.T @ Z
    return S
