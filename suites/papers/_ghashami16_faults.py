"""Planted faults of the ghashami16 claims: deliberately broken estimators and
theory routines, each declared as a :class:`~kpca_suite.suites.claim.Fault` (an
estimator substitution) on the claim it must fail. They live here, never in
methods/ or kernels/. Module-level, so a process pool can pickle them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kpca_suite.kernels import Kernel, RandomFourierFeatures, check_random_state, draw_rff
from kpca_suite.kernels.frequent_directions import FrequentDirections
from kpca_suite.methods.base import reset_fitted
from kpca_suite.methods.skpca import SKPCA
from kpca_suite.methods.streaming_nystrom import StreamingNystrom

from ..adapters import RandomFourierMap


class SigmaShrinkFD(FrequentDirections):
    """Shrinks the singular values linearly, Sigma - sigma_j, instead of
    sqrt(Sigma^2 - sigma_j^2), while booking delta = sigma_j^2: more mass is
    removed than Delta certifies, so ||A^T A - B^T B||_2 > Delta."""

    def _shrink(self, j):
        _, s, Vt = np.linalg.svd(self.sketch_, full_matrices=False)
        keep = j - 1
        self.sketch_[:keep] = (s[:keep] - s[j - 1])[:, None] * Vt[:keep]
        self.sketch_[keep:] = 0.0
        self.n_filled_ = keep
        self.delta_ += float(s[j - 1] ** 2)
        self.n_shrinks_ += 1


class DeltaDroppingFD(FrequentDirections):
    """``merge`` forgets the other sketch's Delta."""

    def merge(self, other):
        out = super().merge(other)
        out.delta_ -= other.delta_
        return out


class StaleSKPCA(SKPCA):
    """W from the sketch rows kept at the last shrink, ignoring the rows
    inserted after it: span(W) no longer holds the rows of the final B."""

    def _components(self, fd):
        kept = FrequentDirections(fd.sketch_size, fd.shrink)
        kept.sketch_ = fd.sketch_.copy()
        kept.n_filled_ = min(fd.n_filled_, fd.shrink_index - 1) if fd.n_shrinks_ else fd.n_filled_
        return super()._components(kept)


@dataclass(frozen=True)
class UnscaledRFF(RandomFourierFeatures):
    """cos(omega^T x + b) without the sqrt(2/m) factor."""

    def transform(self, X):
        return super().transform(X) * np.sqrt(self.n_frequencies / 2.0)


class UnscaledSKPCA(SKPCA):
    """SKPCA streaming features without the sqrt(2/m) scale, so ZZ^T estimates
    m/2 times the kernel."""

    def fit(self, X):
        reset_fitted(self)
        f = self._draw_feature_map(np.shape(X)[1], check_random_state(self.random_state))
        self.feature_map_ = UnscaledRFF(f.omega, f.phase, f.variant)
        self.sketch_ = FrequentDirections(self.sketch_size, self.shrink)
        return self.partial_fit(X)


def bottom_k_factor(Y, k):
    """(Y Y^T)_k from the k *smallest* eigenvectors of Y^T Y (eigh's ascending
    order taken as descending)."""
    e, V = np.linalg.eigh(Y.T @ Y)
    return Y @ V[:, :min(k, Y.shape[1])]


class CovarianceSKPCA(SKPCA):
    """Gets W from eigh(B^T B), an m x m matrix: the same W, quadratic memory."""

    def _components(self, fd):
        C = fd.covariance()
        e, V = np.linalg.eigh(C)
        r = min(self.sketch_size, fd.n_filled_)
        return np.ascontiguousarray(V[:, ::-1][:, :r]), np.sqrt(np.maximum(e[::-1][:r], 0.0))


class RandomSubspaceSKPCA(SKPCA):
    """A valid orthonormal W of the right shape that ignores the sketch."""

    def _components(self, fd):
        W, s = super()._components(fd)
        Q, _ = np.linalg.qr(np.random.default_rng(0).standard_normal(W.shape))
        return Q, s


class WrongBandwidthNystrom(StreamingNystrom):
    """Landmark kernel with 10x the gamma: approximates another kernel."""

    def __init__(self, n_landmarks=100, kernel=None, **kw):
        super().__init__(n_landmarks, type(kernel)(kernel.name, gamma=kernel.gamma * 10.0), **kw)


def narrow_rff_map(n_components, budget, kernel, random_state):
    """omega ~ N(0, gamma I) instead of N(0, 2 gamma I): the features of the kernel
    exp(-gamma ||x-y||^2 / 2), the other bandwidth convention (the map of gamma / 2)."""
    return RandomFourierMap(budget, Kernel(kernel.name, gamma=kernel.gamma / 2.0), random_state)


class RepeatedRFFMap(RandomFourierMap):
    """Draws m/2 frequencies and phases and uses each twice (columns [Y, Y] / sqrt 2): the
    map is still unbiased and its error still falls like m^(-1/2), but its m features carry
    the information of m/2, so E||G - ZZ^T||_F^2 is twice that of m i.i.d. features (a
    generator re-seeded per block of features does this)."""

    def fit(self, X, y=None):
        self.feature_map_ = draw_rff(np.asarray(X).shape[1], self.n_features // 2, self.kernel.name,
                                     self.kernel.gamma, "cos", self.random_state)
        return self

    def transform(self, X):
        Y = self.feature_map_.transform(X)
        return np.hstack([Y, Y]) / np.sqrt(2.0)


def repeated_rff_map(n_components, budget, kernel, random_state):
    """:class:`RepeatedRFFMap` with ``budget`` (even) features."""
    return RepeatedRFFMap(budget, kernel, random_state)


class PairedScaleTransformSKPCA(SKPCA):
    """``transform`` scales the cos features by 1/sqrt(m), the paired map's normalisation,
    instead of sqrt(2/m): the scores are 1/sqrt 2 too small, so G~ is half the sketched
    approximation. Its error (about lambda_1(G) / 2n) stays under the theorem's
    sqrt(log(n/delta)/m) + 4/ell on RandomNoisy; only the proof's data-dependent bound
    sees it."""

    def transform(self, X):
        return super().transform(X) / np.sqrt(2.0)


def paired_scale_transform_skpca(n_components, budget, kernel, random_state):
    """:class:`PairedScaleTransformSKPCA` in the kernel-approximation role (Algorithm 1, halving)."""
    return PairedScaleTransformSKPCA(sketch_size=n_components, n_features=budget, kernel=kernel, shrink="halving",
                                     random_state=random_state)


def unscaled_skpca(n_components, budget, kernel, random_state):
    """:class:`UnscaledSKPCA` in the kernel-approximation role (Algorithm 1, halving)."""
    return UnscaledSKPCA(sketch_size=n_components, n_features=budget, kernel=kernel, shrink="halving",
                         random_state=random_state)


class SigmaOneFD(FrequentDirections):
    """Shrinks by sigma_1^2 (s[0] for s[j - 1]) at every ell: each shrink empties
    the sketch, as Algorithm 1 does at ell = 2, so B holds only the rows inserted
    after the last shrink."""

    @property
    def shrink_index(self) -> int:
        self._check_params()
        return 1


class SigmaOneSKPCA(SKPCA):
    """SKPCA over :class:`SigmaOneFD`."""

    def fit(self, X):
        reset_fitted(self)
        self.feature_map_ = self._draw_feature_map(np.shape(X)[1], check_random_state(self.random_state))
        self.sketch_ = SigmaOneFD(self.sketch_size, self.shrink)
        return self.partial_fit(X)


class NarrowSKPCA(SKPCA):
    """SKPCA whose features are drawn at the wrong bandwidth, omega ~ N(0, gamma I)
    instead of N(0, 2 gamma I): Z Z^T estimates exp(-gamma ||x - y||^2 / 2), not G."""

    def _draw_feature_map(self, d, rng):
        return draw_rff(d, self.n_features, self.kernel.name, self.kernel.gamma / 2.0, self.variant, rng)


class ProjectorSKPCA(SKPCA):
    """SKPCA that embeds with the m x m projector W W^T instead of W: the same Gram
    Z W W^T Z^T (W W^T is idempotent), the same errors, but m^2 instead of m ell
    multiply-adds per test row."""

    def _components(self, fd):
        W, s = super()._components(fd)
        return W @ W.T, s
