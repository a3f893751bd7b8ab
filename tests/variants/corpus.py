"""The corpus of correct variants: role factories written the way outside code is written
(plain NumPy, SciPy, scikit-learn; none of kpca_suite's estimators), each differing from
ours in one legitimate way, said in its docstring with why it is still correct.

``VARIANTS`` lists them as :class:`Variant` (name, factory, role, family); the families are
``schedule`` (when a streaming basis is orthonormalised), ``precision`` (float32 storage),
``route`` (the linear-algebra route to the same quantity), ``sketch-rule`` (the Frequent
Directions buffer and shrink rule, merge order), ``randomness`` (sampling and RNG layout)
and ``representation`` (signs, order, rotation, where the centring is done).

Not here: an Oja basis kept unnormalised for the whole pass and orthonormalised only in
``transform``. Its span is the normalised iteration's in exact arithmetic, but the columns
grow as prod_t (1 + eta_t lambda_j) and the top direction outgrows the k-th by more than
1/eps within a few hundred samples: measured on ullah18.rate-oja (ci, root 0), its span had
collapsed (E_proj / E_batch 106 at n = 4096, slope +0.44). It is a bug in floating point,
and the claim fails it; orthonormalising once per partial_fit call (``oja_qr_per_chunk``)
is the correct form of that economy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
import scipy.linalg
import scipy.sparse.linalg

from kpca_suite.suites.roles import UnsupportedKernel, implementation

FAMILIES = ("schedule", "precision", "route", "sketch-rule", "randomness", "representation")


@dataclass(frozen=True)
class Variant:
    """A correct implementation: its name, factory, the roles it fills and its family."""

    name: str
    factory: Callable
    roles: tuple
    family: str

    @property
    def what(self) -> str:
        """The first line of the factory's docstring: what differs."""
        return (self.factory.__doc__ or "").strip().splitlines()[0]


# ---------------------------------------------------------------------- shared pieces

def _landmarks(X, m, rng, replace=False):
    """Row indices of m landmarks; with replacement, the distinct ones (a duplicated row adds
    nothing to the span of the landmarks' kernel functions)."""
    if replace:
        return np.unique(rng.integers(0, len(X), m))
    return np.sort(rng.choice(len(X), m, replace=False))


def _eigh_whitener(Kmm, rcond=1e-10):
    """K_mm^{-1/2} on K_mm's numerical range (eigenvalues above rcond * largest)."""
    s, V = np.linalg.eigh(Kmm)
    keep = s > rcond * s.max()
    return V[:, keep] / np.sqrt(s[keep])


class _NystromBase:
    """Nyström KPCA: features F = K_nm W with W^T K_mm W = I on the landmarks' span; the
    top-k right singular vectors V of F (of F - mean when ``centred``); transform(x) =
    (k_m(x)^T W - mean) V. Subclasses change one step."""

    replace = False
    centred = False

    def __init__(self, n_components, budget, kernel, random_state=None):
        self.n_components, self.budget, self.kernel, self.random_state = n_components, budget, kernel, random_state

    def _whitener(self, Kmm):
        return _eigh_whitener(Kmm)

    def _directions(self, F):
        _, _, Vt = np.linalg.svd(F, full_matrices=False)
        return Vt[:self.n_components].T

    def fit(self, X):
        X = np.asarray(X, dtype=float)
        idx = _landmarks(X, self.budget, np.random.default_rng(self.random_state), self.replace)
        self.landmarks_ = X[idx]
        self.W_ = self._whitener(self.kernel.block(self.landmarks_))
        F = self.kernel.block(X, self.landmarks_) @ self.W_
        self.mean_ = F.mean(axis=0) if self.centred else np.zeros(F.shape[1])
        self.V_ = self._directions(F - self.mean_)
        return self

    def transform(self, X):
        F = self.kernel.block(np.asarray(X, dtype=float), self.landmarks_) @ self.W_
        return (F - self.mean_) @ self.V_


# ---------------------------------------------------------------------- kpca-projection: Nyström

class _NystromCholesky(_NystromBase):
    def _whitener(self, Kmm):
        c, piv, rank, info = scipy.linalg.lapack.dpstrf(Kmm, tol=1e-10 * np.diag(Kmm).max(), lower=1)
        if info < 0:
            raise ValueError(f"dpstrf: argument {-info} is invalid")
        W = np.zeros((len(Kmm), rank))
        W[piv[:rank] - 1] = scipy.linalg.solve_triangular(np.tril(c[:rank, :rank]), np.eye(rank), lower=True).T
        return W


@implementation(kind="nystrom", centred=False)
def nystrom_cholesky(n_components, budget, kernel, random_state):
    """Nyström KPCA whitened by a pivoted Cholesky factor of K_mm, not an eigenvalue cut-off.

    LAPACK's pstrf factors P^T K_mm P = L L^T, choosing at each step the landmark whose
    residual variance (the Schur complement's diagonal) is largest, and stops at rank r when
    that is at most 1e-10 of K_mm's largest diagonal. W = P_r L_11^{-T} (L_11 the leading r x r
    block) gives W^T K_mm W = I exactly on the r pivots, whose span leaves every other landmark
    a residual variance of at most that 1e-10: the features' Gram is Nyström's K~ to that
    relative precision (an eigenvalue cut-off at 1e-10 drops directions of the same size).
    Stopping at the numerical rank is also what keeps it cheap: the features are n x r,
    not n x m."""
    return _NystromCholesky(n_components, budget, kernel, random_state)


class _NystromGram(_NystromBase):
    def _directions(self, F):
        mu, U = scipy.linalg.eigh(F.T @ F)
        return U[:, ::-1][:, :self.n_components]


@implementation(kind="nystrom", centred=False)
def nystrom_gram_eigh(n_components, budget, kernel, random_state):
    """Nyström KPCA whose directions are the top eigenvectors of the m x m F^T F, not the SVD of F.

    The right singular vectors of F are the eigenvectors of F^T F: the same subspace; squaring
    the condition number costs accuracy only in directions far below the top k."""
    return _NystromGram(n_components, budget, kernel, random_state)


class _NystromReplace(_NystromBase):
    replace = True


@implementation(kind="nystrom", centred=False)
def nystrom_with_replacement(n_components, budget, kernel, random_state):
    """Nyström KPCA whose landmarks are drawn uniformly with replacement (duplicates dropped).

    A duplicated landmark adds nothing to span{k(., x_i)}; the draw is still uniform, with
    m(1 - 1/e)-ish distinct points in the worst case (a little less than the budget)."""
    return _NystromReplace(n_components, budget, kernel, random_state)


class _NystromReordered(_NystromBase):
    def _directions(self, F):
        V = super()._directions(F)
        return -V[:, ::-1]


@implementation(kind="nystrom", centred=False)
def nystrom_reordered(n_components, budget, kernel, random_state):
    """Nyström KPCA returning its components in increasing order of variance, signs flipped.

    The order and signs of principal axes are conventions: the fitted subspace, the captured
    variance of each axis and the projection are unchanged."""
    return _NystromReordered(n_components, budget, kernel, random_state)


class _NystromRotated(_NystromBase):
    def _directions(self, F):
        V = super()._directions(F)
        R = np.linalg.qr(np.random.default_rng(7).standard_normal((V.shape[1], V.shape[1])))[0]
        return V @ R


@implementation(kind="nystrom", centred=False)
def nystrom_rotated(n_components, budget, kernel, random_state):
    """Nyström KPCA returning the scores in a rotated orthonormal basis of the top-k subspace.

    Any orthonormal basis of the fitted subspace gives the same projection and the same
    reconstruction; only claims about individual axes (eigenvalues) could tell, and they must
    read the scores' covariance, not its diagonal."""
    return _NystromRotated(n_components, budget, kernel, random_state)


class _NystromCentredFeatures(_NystromBase):
    centred = True


@implementation(kind="nystrom", centred=True)
def nystrom_centred_features(n_components, budget, kernel, random_state):
    """Centred Nyström KPCA centring the Nyström features F - mean(F), not the kernel matrices.

    With the full-data means this is Hallgren's centred Nyström: (F - 1 f^T)(F - 1 f^T)^T is
    H K~ H, the same matrix the Gram-side centring forms."""
    return _NystromCentredFeatures(n_components, budget, kernel, random_state)


class _NystromFloat32(_NystromBase):
    def fit(self, X):
        X = np.asarray(X, dtype=float)
        idx = _landmarks(X, self.budget, np.random.default_rng(self.random_state))
        self.landmarks_ = X[idx]
        Kmm = self.kernel.block(self.landmarks_).astype(np.float32)
        s, V = np.linalg.eigh(Kmm)
        keep = s > 1e-5 * s.max()  # float32: a cut-off far above its eps 1.2e-7
        self.W_ = (V[:, keep] / np.sqrt(s[keep])).astype(np.float32)
        F = self.kernel.block(X, self.landmarks_).astype(np.float32) @ self.W_
        self.mean_ = np.zeros(F.shape[1], dtype=np.float32)
        self.V_ = np.linalg.svd(F, full_matrices=False)[2][:self.n_components].T
        return self

    def transform(self, X):
        F = self.kernel.block(np.asarray(X, dtype=float), self.landmarks_).astype(np.float32) @ self.W_
        return F @ self.V_


@implementation(kind="nystrom", centred=False)
def nystrom_float32(n_components, budget, kernel, random_state):
    """Nyström KPCA holding K_mm, the features and the directions in float32.

    Memory-minded packages store single precision; every quantity is right to float32
    round-off (eps 1.2e-7), with K_mm's cut-off raised to 1e-5 of its largest eigenvalue."""
    return _NystromFloat32(n_components, budget, kernel, random_state)


class _NystromCentredFloat32(_NystromFloat32):
    def fit(self, X):
        super().fit(X)
        F = self.kernel.block(np.asarray(X, dtype=float), self.landmarks_).astype(np.float32) @ self.W_
        self.mean_ = F.mean(axis=0)
        self.V_ = np.linalg.svd(F - self.mean_, full_matrices=False)[2][:self.n_components].T
        return self

    def transform(self, X):
        return super().transform(X) - self.mean_ @ self.V_


@implementation(kind="nystrom", centred=True)
def nystrom_centred_float32(n_components, budget, kernel, random_state):
    """Centred Nyström KPCA in float32: the float32 features centred by their mean.

    As :func:`nystrom_float32`, with the full-data mean of the features subtracted (Hallgren's
    centring, on the feature side): right to float32 round-off."""
    return _NystromCentredFloat32(n_components, budget, kernel, random_state)


# ---------------------------------------------------------------------- kpca-projection: exact

class _ExactRandomized:
    """Exact centred KPCA through a randomized SVD of J K J (J = I - 11^T/n), to full accuracy."""

    def __init__(self, n_components, kernel, random_state=None):
        self.n_components, self.kernel, self.random_state = n_components, kernel, random_state

    def fit_transform(self, X):
        from sklearn.utils.extmath import randomized_svd
        K = self.kernel.block(np.asarray(X, dtype=float))
        K -= K.mean(axis=0)
        K -= K.mean(axis=1, keepdims=True)
        U, s, _ = randomized_svd(K, self.n_components, n_oversamples=30, n_iter=12,
                                 random_state=np.random.RandomState(self.random_state % 2**32))
        return U * np.sqrt(s)


@implementation(kind="exact", centred=True, budgeted=False)
def exact_randomized_svd(n_components, budget, kernel, random_state):
    """Exact centred KPCA by scikit-learn's randomized_svd (30 oversamples, 12 power iterations), in-sample.

    On a PSD matrix the singular pairs are the eigenpairs; 12 power iterations take the top-k
    eigenvalues to relative accuracy (lambda_{k+30} / lambda_k)^25, far below the statistical
    error, for the fast-decaying Gaussian spectra of the claims."""
    return _ExactRandomized(n_components, kernel, random_state)


class _ExactArpack:
    """Exact centred KPCA through ARPACK (scipy eigsh) on the centred Gram matrix."""

    def __init__(self, n_components, kernel, random_state=None):
        self.n_components, self.kernel, self.random_state = n_components, kernel, random_state

    def fit(self, X):
        X = np.asarray(X, dtype=float)
        K = self.kernel.block(X)
        self.col_ = K.mean(axis=0)
        self.all_ = self.col_.mean()
        Kc = K - self.col_ - self.col_[:, None] + self.all_
        v0 = np.random.default_rng(self.random_state).standard_normal(len(X))
        s, U = scipy.sparse.linalg.eigsh(Kc, self.n_components, which="LA", v0=v0, tol=1e-12)
        order = np.argsort(s)[::-1]
        self.X_, self.alpha_ = X, U[:, order] / np.sqrt(s[order])
        return self

    def transform(self, X):
        k = self.kernel.block(np.asarray(X, dtype=float), self.X_)
        kc = k - self.col_ - k.mean(axis=1, keepdims=True) + self.all_
        return kc @ self.alpha_


@implementation(kind="exact", centred=True, budgeted=False)
def exact_arpack(n_components, budget, kernel, random_state):
    """Exact centred KPCA by ARPACK (eigsh, tol 1e-12) with an out-of-sample transform.

    The top-k eigenpairs of J K J to 1e-12; a new point's scores are its centred kernel row
    (k(x) - column means - its own mean + the grand mean) times U / sqrt(s)."""
    return _ExactArpack(n_components, kernel, random_state)


# ---------------------------------------------------------------------- random features (kpca, approximation)

class _RandomFeatures:
    """Random Fourier features of the Gaussian kernel exp(-gamma ||x - y||^2); with
    n_components, the projection on the top-k eigenvectors of the uncentred feature
    covariance Z^T Z / n (RF-ERM); subclasses change one step."""

    dtype = np.float64

    def __init__(self, n_components, n_features, kernel, random_state=None):
        if getattr(kernel, "name", None) != "gaussian":  # the features of no other kernel
            raise UnsupportedKernel(f"random Fourier features of the Gaussian kernel only, not {kernel!r}")
        self.n_components, self.n_features, self.kernel, self.random_state = \
            n_components, n_features, kernel, random_state

    def _draw(self, d):
        rng = np.random.default_rng(self.random_state)
        self.omega_ = rng.normal(0.0, np.sqrt(2.0 * self.kernel.gamma), (d, self.n_features))
        self.phase_ = rng.uniform(0.0, 2.0 * np.pi, self.n_features)

    def features(self, X):
        P = np.asarray(X, dtype=self.dtype) @ self.omega_.astype(self.dtype) + self.phase_.astype(self.dtype)
        return np.sqrt(self.dtype(2.0 / self.n_features)) * np.cos(P)

    def _top(self, Z):
        mu, U = scipy.linalg.eigh(Z.T @ Z / len(Z))
        return U[:, ::-1][:, :self.n_components]

    def fit(self, X):
        self._draw(np.shape(X)[1])
        if self.n_components is not None:
            self.V_ = self._top(self.features(X))
        return self

    def transform(self, X):
        Z = self.features(X)
        return Z if self.n_components is None else Z @ self.V_


class _RFArpack(_RandomFeatures):
    def _top(self, Z):
        v0 = np.random.default_rng(self.random_state).standard_normal(Z.shape[1])
        op = scipy.sparse.linalg.LinearOperator((Z.shape[1],) * 2, matvec=lambda v: Z.T @ (Z @ v) / len(Z),
                                                dtype=float)
        s, U = scipy.sparse.linalg.eigsh(op, self.n_components, which="LA", v0=v0, tol=1e-12)
        return U[:, np.argsort(s)[::-1]]


@implementation(kind="random-features", centred=False)
def rf_erm_arpack(n_components, budget, kernel, random_state):
    """RF-ERM whose top-k eigenvectors of Z^T Z / n come from ARPACK (matrix-free, tol 1e-12), not eigh.

    The same eigenvectors to 1e-12: the covariance is applied as v -> Z^T (Z v) / n without
    forming it."""
    return _RFArpack(n_components, budget, kernel, random_state)


class _RFFloat32(_RandomFeatures):
    dtype = np.float32

    def _top(self, Z):
        mu, U = np.linalg.eigh(Z.T @ Z / np.float32(len(Z)))
        return U[:, ::-1][:, :self.n_components]


@implementation(kind="random-features", centred=False)
def rf_float32(n_components, budget, kernel, random_state):
    """Random Fourier features computed and stored in float32 (and RF-ERM's covariance with them).

    The features are right to float32 round-off (|omega^T x + b| of a few units keeps cos's
    absolute error near 1e-7); the Monte Carlo error they carry is 1/sqrt(m), orders above."""
    return _RFFloat32(n_components, budget, kernel, random_state)


class _RFPaired(_RandomFeatures):
    def _draw(self, d):
        rng = np.random.default_rng(self.random_state)
        self.omega_ = rng.normal(0.0, np.sqrt(2.0 * self.kernel.gamma), (d, self.n_features // 2))

    def features(self, X):
        P = np.asarray(X, dtype=float) @ self.omega_
        return np.hstack([np.cos(P), np.sin(P)]) / np.sqrt(self.n_features // 2)


@implementation(kind="random-features", centred=False)
def rf_paired(n_components, budget, kernel, random_state):
    """Random Fourier features in cos/sin pairs, [cos(omega^T x), sin(omega^T x)] / sqrt(m/2), no phases.

    cos(a) cos(b) + sin(a) sin(b) = cos(a - b): each pair's inner product is an unbiased draw of
    the kernel with no phase noise; m features are m / 2 frequencies."""
    return _RFPaired(n_components, budget, kernel, random_state)


class _RFLegacyRNG(_RandomFeatures):
    def _draw(self, d):
        rng = np.random.RandomState(self.random_state % 2**32)
        self.phase_ = rng.uniform(0.0, 2.0 * np.pi, self.n_features)
        self.omega_ = rng.standard_normal((self.n_features, d)).T * np.sqrt(2.0 * self.kernel.gamma)


@implementation(kind="random-features", centred=False)
def rf_legacy_rng(n_components, budget, kernel, random_state):
    """Random Fourier features drawn by the legacy RandomState, phases first, frequencies row by row.

    Another RNG layout gives other draws of the same distribution: omega ~ N(0, 2 gamma I),
    b ~ U[0, 2 pi)."""
    return _RFLegacyRNG(n_components, budget, kernel, random_state)


class _RFOrthogonal(_RandomFeatures):
    def _draw(self, d):
        rng = np.random.default_rng(self.random_state)
        blocks = []
        for _ in range(-(-self.n_features // d)):
            Q = np.linalg.qr(rng.standard_normal((d, d)))[0]
            norms = np.sqrt(rng.chisquare(d, d))  # the lengths of Gaussian vectors
            blocks.append(Q * norms)
        self.omega_ = np.hstack(blocks)[:, :self.n_features] * np.sqrt(2.0 * self.kernel.gamma)
        self.phase_ = rng.uniform(0.0, 2.0 * np.pi, self.n_features)


@implementation(kind="random-features", centred=False)
def rf_orthogonal(n_components, budget, kernel, random_state):
    """Orthogonal random features: frequencies in blocks of d orthogonal directions with chi_d lengths.

    Each frequency is still N(0, 2 gamma I) marginally (a uniform direction times a chi_d length),
    so each feature is unbiased; within a block they are orthogonal, which lowers the variance."""
    return _RFOrthogonal(n_components, budget, kernel, random_state)


class _RFCentredGram(_RandomFeatures):
    def fit(self, X):
        self._draw(np.shape(X)[1])
        Z = self.features(X)
        self.mean_ = Z.mean(axis=0)
        G = Z @ Z.T
        G -= G.mean(axis=0)
        G -= G.mean(axis=1, keepdims=True)
        v0 = np.random.default_rng(self.random_state).standard_normal(len(G))
        s, U = scipy.sparse.linalg.eigsh(G, self.n_components, which="LA", v0=v0, tol=1e-12)
        order = np.argsort(s)[::-1]
        s, U = s[order], U[:, order]
        self.V_ = (Z - self.mean_).T @ (U / np.sqrt(s))  # the covariance's eigenvectors, from the Gram's
        return self

    def transform(self, X):
        return (self.features(X) - self.mean_) @ self.V_


@implementation(kind="random-features", centred=True)
def rf_centred_on_the_gram(n_components, budget, kernel, random_state):
    """Centred RF-ERM from the n x n centred Gram of the features, not their m x m covariance.

    (Z - 1 z^T)(Z - 1 z^T)^T and (Z - 1 z^T)^T (Z - 1 z^T) share their nonzero eigenvalues; the
    covariance's eigenvectors are (Z - 1 z^T)^T u / sqrt(s): the same centred projection. The top
    eigenpairs of the formed Gram come from ARPACK (tol 1e-12): a dense eigh of it costs O(n^3), 52
    CPU-s a fit at quick's n = 8192."""
    return _RFCentredGram(n_components, budget, kernel, random_state)


# ---------------------------------------------------------------------- streaming-kpca: Oja

class _Oja(_RandomFeatures):
    """Oja's rule on random Fourier features, one sample at a time:
    Q <- Q + eta_t z z^T Q, eta_t = 40 / (t + 100) over the whole stream; how and when the
    basis is orthonormalised is what the subclasses change."""

    every = 1  # orthonormalise after this many samples (0: only at the end of each partial_fit)

    def __init__(self, n_components, n_features, kernel, random_state=None):
        super().__init__(None, n_features, kernel, random_state)
        self.k = n_components

    def _orthonormal(self, Q):
        return np.linalg.qr(Q)[0]

    def partial_fit(self, X):
        if not hasattr(self, "Q_"):
            self._draw(np.shape(X)[1])
            self.Q_ = np.linalg.qr(np.random.default_rng(self.random_state).standard_normal(
                (self.n_features, self.k)))[0].astype(self.dtype)
            self.t_ = 0
        Z = super().features(X)
        for z in Z:
            self.t_ += 1
            self.Q_ = self.Q_ + self.dtype(40.0 / (self.t_ + 100.0)) * np.outer(z, z @ self.Q_)
            if self.every and self.t_ % self.every == 0:
                self.Q_ = self._orthonormal(self.Q_)
        self.Q_ = self._orthonormal(self.Q_)
        return self

    def transform(self, X):
        return super().features(X) @ self._orthonormal(self.Q_)


class _OjaPerChunk(_Oja):
    every = 0  # only at the end of each partial_fit


@implementation(kind="random-features", centred=False)
def oja_qr_per_chunk(n_components, budget, kernel, random_state):
    """Oja's rule that orthonormalises once per partial_fit call (QR at the end of each chunk), not per sample.

    Oja's update is linear in Q and QR only rescales within the span, so in exact arithmetic the
    span after the chunk does not depend on when the QR is taken; what differs is the round-off
    of a few hundred unnormalised updates."""
    return _OjaPerChunk(n_components, budget, kernel, random_state)


class _OjaEveryQ(_Oja):
    every = 16


@implementation(kind="random-features", centred=False)
def oja_qr_every_16(n_components, budget, kernel, random_state):
    """Oja's rule orthonormalising every 16 samples (and at the end of each partial_fit).

    As for the per-chunk schedule: the span is the same in exact arithmetic."""
    return _OjaEveryQ(n_components, budget, kernel, random_state)


class _OjaGramSchmidt(_Oja):
    def _orthonormal(self, Q):
        Q = np.array(Q, dtype=self.dtype)
        for j in range(Q.shape[1]):
            for _ in range(2):  # twice is enough (Kahan, Parlett)
                Q[:, j] -= Q[:, :j] @ (Q[:, :j].T @ Q[:, j])
            Q[:, j] /= np.linalg.norm(Q[:, j])
        return Q


@implementation(kind="random-features", centred=False)
def oja_gram_schmidt(n_components, budget, kernel, random_state):
    """Oja's rule orthonormalising each sample by modified Gram-Schmidt (twice), not a QR factorisation.

    Gram-Schmidt with reorthogonalisation gives an orthonormal basis of the same span (QR's Q up
    to column signs)."""
    return _OjaGramSchmidt(n_components, budget, kernel, random_state)


class _OjaFloat32(_Oja):
    dtype = np.float32


@implementation(kind="random-features", centred=False)
def oja_float32(n_components, budget, kernel, random_state):
    """Oja's rule with features and basis in float32, orthonormalised every sample.

    Each update is right to float32 round-off; over n updates the span drifts by about
    sqrt(n) eps_32, far below the statistical error of one pass."""
    return _OjaFloat32(n_components, budget, kernel, random_state)


# ---------------------------------------------------------------------- matrix-sketch: Frequent Directions

class _FD:
    """Frequent Directions (Liberty 2013; Ghashami et al. 2016): rows enter a buffer; a full
    buffer is shrunk, B <- sqrt(max(Sigma^2 - sigma_j^2, 0)) V^T; ``sketch_`` the nonzero
    rows. The buffer size, the j and the storage precision are what subclasses change."""

    dtype = np.float64
    buffer_factor = 1.0  # the buffer holds round(buffer_factor * ell) rows
    halving = False

    def __init__(self, sketch_size):
        self.sketch_size = sketch_size

    @property
    def _rows(self):
        return max(self.sketch_size, int(round(self.buffer_factor * self.sketch_size)))

    def _shrink(self):
        _, s, Vt = np.linalg.svd(self.B_, full_matrices=False)
        j = self.sketch_size // 2 if self.halving else self.sketch_size
        cut = s[j - 1] ** 2 if j - 1 < len(s) else 0.0
        B = (np.sqrt(np.maximum(s**2 - cut, 0.0))[:, None] * Vt).astype(self.dtype)
        B[j - 1:] = 0.0
        self.B_ = np.zeros_like(self.B_)
        self.B_[:len(B)] = B[:self._rows]

    def partial_fit(self, A):
        A = np.asarray(A, dtype=self.dtype)
        if not hasattr(self, "B_"):
            self.B_ = np.zeros((self._rows, A.shape[1]), dtype=self.dtype)
        for row in A:
            free = np.flatnonzero(~self.B_.any(axis=1))
            if free.size == 0:
                self._shrink()
                free = np.flatnonzero(~self.B_.any(axis=1))
            self.B_[free[0]] = row
        return self

    @property
    def sketch_(self):
        if self._rows == self.sketch_size:
            return self.B_
        # the buffer holds more rows than ell: the sketch is its top ell after a shrink
        keep = type(self)(self.sketch_size)
        keep.B_ = self.B_.copy()
        keep._shrink()
        return keep.B_[:self.sketch_size]

    def merge(self, other):
        out = type(self)(self.sketch_size)
        out.B_ = np.zeros_like(self.B_)
        out.partial_fit(self.sketch_[self.sketch_.any(axis=1)])
        return out.partial_fit(other.sketch_[other.sketch_.any(axis=1)])


class _FDDoubleBuffer(_FD):
    buffer_factor = 2.0


@implementation(kind="sketch")
def fd_double_buffer(n_components, budget, kernel, random_state):
    """Frequent Directions with a 2 ell buffer, shrunk at sigma_ell^2 only when full (the fast FD).

    Each shrink subtracts sigma_ell^2 of a 2 ell-row buffer, at least ell rows' worth of the
    removed mass, so ||A^T A - B^T B|| <= ||A - A_k||_F^2 / (ell - k) holds as for the ell buffer."""
    return _FDDoubleBuffer(budget)


class _FDHalving(_FD):
    halving = True


@implementation(kind="sketch")
def fd_halving(n_components, budget, kernel, random_state):
    """Frequent Directions with Algorithm 1's rule: shrink at sigma_{ell/2}^2, freeing half the buffer.

    The paper's own rule, with the bound ||A - A_k||_F^2 / (ell/2 - k); it does not say so
    (no shrink_index), and a correct sketch of either rule meets the halving bound."""
    return _FDHalving(budget)


class _FDFloat32(_FD):
    dtype = np.float32


@implementation(kind="sketch")
def fd_float32(n_components, budget, kernel, random_state):
    """Frequent Directions storing its buffer in float32.

    Every shrink is right to float32 round-off: B^T B - A^T A is bounded as in float64, up to
    errors of order eps_32 ||A||_F^2 (eps_32 = 1.2e-7)."""
    return _FDFloat32(budget)


class _FDMergeReversed(_FD):
    def merge(self, other):
        out = type(self)(self.sketch_size)
        out.B_ = np.zeros_like(self.B_)
        out.partial_fit(other.sketch_[other.sketch_.any(axis=1)])
        return out.partial_fit(self.sketch_[self.sketch_.any(axis=1)])


@implementation(kind="sketch")
def fd_merge_reversed(n_components, budget, kernel, random_state):
    """Frequent Directions whose merge streams the other sketch's rows first, then its own.

    FD's guarantee holds for any order of the rows, so merged sketches in either order meet
    the bound of the concatenated stream."""
    return _FDMergeReversed(budget)


# ---------------------------------------------------------------------- krr

class _ExactKRR:
    """Exact KRR, (K + ridge I) alpha = y, by a Cholesky factorisation; subclasses solve
    it another way."""

    def __init__(self, kernel, ridge):
        self.kernel, self.ridge = kernel, ridge

    def _solve(self, K, y):
        return scipy.linalg.cho_solve(scipy.linalg.cho_factor(K + self.ridge * np.eye(len(K))), y)

    def fit(self, X, y):
        self.X_ = np.asarray(X, dtype=float)
        self.alpha_ = self._solve(self.kernel.block(self.X_), np.asarray(y, dtype=float))
        return self

    def predict(self, X):
        return self.kernel.block(np.asarray(X, dtype=float), self.X_) @ self.alpha_


@implementation(kind="exact", centred=False, budgeted=False)
def krr_cholesky(budget, kernel, ridge, random_state):
    """Exact KRR by a Cholesky factorisation of K + ridge I (scipy cho_solve).

    The system is symmetric positive definite for ridge > 0: Cholesky is the textbook route."""
    return _ExactKRR(kernel, ridge)


class _KRREigh(_ExactKRR):
    def _solve(self, K, y):
        s, U = np.linalg.eigh(K)
        return U @ ((U.T @ y) / (np.maximum(s, 0.0) + self.ridge)[:, None] if np.ndim(y) == 2
                    else (U.T @ y) / (np.maximum(s, 0.0) + self.ridge))


@implementation(kind="exact", centred=False, budgeted=False)
def krr_eigh(budget, kernel, ridge, random_state):
    """Exact KRR through the eigendecomposition K = U diag(s) U^T: alpha = U diag(1 / (s + ridge)) U^T y.

    The same solution; negative round-off eigenvalues of K are clipped to 0, as K is PSD."""
    return _KRREigh(kernel, ridge)


class _KRRCG(_ExactKRR):
    def _solve(self, K, y):
        """Conjugate gradients on (K + ridge I) a_j = y_j for every target column j, each with its
        own step lengths and stopping when ||r_j|| <= 1e-10 ||y_j||; the products of the columns
        still running are taken together (one matrix product per step, not one per column)."""
        A = K + self.ridge * np.eye(len(K))
        B = y.reshape(len(K), -1)
        X, R = np.zeros_like(B), B.copy()
        P = R.copy()
        rr = np.einsum("ij,ij->j", R, R)
        stop = (1e-10 * np.linalg.norm(B, axis=0)) ** 2
        active = np.flatnonzero(rr > stop)
        for _ in range(20 * len(K)):
            if active.size == 0:
                break
            Pa = P[:, active]
            APa = A @ Pa
            alpha = rr[active] / np.einsum("ij,ij->j", Pa, APa)
            X[:, active] += alpha * Pa
            Ra = R[:, active] - alpha * APa
            new = np.einsum("ij,ij->j", Ra, Ra)
            R[:, active], P[:, active] = Ra, Ra + (new / rr[active]) * Pa
            rr[active] = new
            active = active[new > stop[active]]
        if active.size:
            raise RuntimeError(f"CG did not converge for {active.size} target column(s) in {20 * len(K)} steps")
        return X.reshape(y.shape)


@implementation(kind="exact", centred=False, budgeted=False)
def krr_cg(budget, kernel, ridge, random_state):
    """Exact KRR by conjugate gradients to a relative residual of 1e-10, for each target column.

    CG on the SPD system K + ridge I converges to the solution; 1e-10 is far below any risk
    difference the claims read."""
    return _KRRCG(kernel, ridge)


class _NystromKRR:
    """KRR on ``budget`` sampled columns: features F = K_nI W (W^T K_II W = I), weights
    w = argmin ||y - F w||^2 + ridge ||w||^2, predict(x) = k_I(x)^T W w."""

    replace = False

    def __init__(self, budget, kernel, ridge, random_state=None):
        self.budget, self.kernel, self.ridge, self.random_state = budget, kernel, ridge, random_state

    def _weights(self, F, y):
        return np.linalg.solve(F.T @ F + self.ridge * np.eye(F.shape[1]), F.T @ y)

    def fit(self, X, y):
        X = np.asarray(X, dtype=float)
        idx = _landmarks(X, self.budget, np.random.default_rng(self.random_state), self.replace)
        self.columns_ = X[idx]
        self.W_ = _eigh_whitener(self.kernel.block(self.columns_), 1e-12)
        self.w_ = self._weights(self.kernel.block(X, self.columns_) @ self.W_, np.asarray(y, dtype=float))
        return self

    def predict(self, X):
        return self.kernel.block(np.asarray(X, dtype=float), self.columns_) @ self.W_ @ self.w_


class _NystromKRRLstsq(_NystromKRR):
    def _weights(self, F, y):
        p = F.shape[1]
        A = np.vstack([F, np.sqrt(self.ridge) * np.eye(p)])
        b = np.concatenate([y, np.zeros((p,) + y.shape[1:])])
        return np.linalg.lstsq(A, b, rcond=None)[0]


@implementation(kind="nystrom", centred=False)
def nystrom_krr_lstsq(budget, kernel, ridge, random_state):
    """Nyström KRR solving the ridge problem as the least squares of [F; sqrt(ridge) I] w = [y; 0].

    The stacked least squares has the normal equations (F^T F + ridge I) w = F^T y: the same
    weights, without squaring F's condition number."""
    return _NystromKRRLstsq(budget, kernel, ridge, random_state)


class _NystromKRRReplace(_NystromKRR):
    replace = True


@implementation(kind="nystrom", centred=False)
def nystrom_krr_with_replacement(budget, kernel, ridge, random_state):
    """Nyström KRR whose columns are drawn uniformly with replacement (duplicates dropped).

    A duplicated column adds nothing to the span; the draw is still uniform."""
    return _NystromKRRReplace(budget, kernel, ridge, random_state)


# ---------------------------------------------------------------------- the list

KPCA, APPROX, STREAM, SKETCH, KRR = ("kpca-projection", "kernel-approximation", "streaming-kpca", "matrix-sketch",
                                     "krr")

RF = (KPCA, APPROX)

VARIANTS = (
    Variant("nystrom-cholesky", nystrom_cholesky, (KPCA,), "route"),
    Variant("nystrom-gram-eigh", nystrom_gram_eigh, (KPCA,), "route"),
    Variant("nystrom-with-replacement", nystrom_with_replacement, (KPCA,), "randomness"),
    Variant("nystrom-reordered", nystrom_reordered, (KPCA,), "representation"),
    Variant("nystrom-rotated", nystrom_rotated, (KPCA,), "representation"),
    Variant("nystrom-centred-features", nystrom_centred_features, (KPCA,), "representation"),
    Variant("nystrom-float32", nystrom_float32, (KPCA,), "precision"),
    Variant("nystrom-centred-float32", nystrom_centred_float32, (KPCA,), "precision"),
    Variant("exact-randomized-svd", exact_randomized_svd, (KPCA,), "route"),
    Variant("exact-arpack", exact_arpack, (KPCA,), "route"),
    Variant("rf-erm-arpack", rf_erm_arpack, RF, "route"),
    Variant("rf-centred-on-the-gram", rf_centred_on_the_gram, (KPCA,), "representation"),
    Variant("rf-float32", rf_float32, RF, "precision"),
    Variant("rf-paired", rf_paired, RF, "randomness"),
    Variant("rf-legacy-rng", rf_legacy_rng, RF, "randomness"),
    Variant("rf-orthogonal", rf_orthogonal, RF, "randomness"),
    Variant("oja-qr-per-chunk", oja_qr_per_chunk, (STREAM,), "schedule"),
    Variant("oja-qr-every-16", oja_qr_every_16, (STREAM,), "schedule"),
    Variant("oja-gram-schmidt", oja_gram_schmidt, (STREAM,), "route"),
    Variant("oja-float32", oja_float32, (STREAM,), "precision"),
    Variant("fd-double-buffer", fd_double_buffer, (SKETCH,), "sketch-rule"),
    Variant("fd-halving", fd_halving, (SKETCH,), "sketch-rule"),
    Variant("fd-float32", fd_float32, (SKETCH,), "precision"),
    Variant("fd-merge-reversed", fd_merge_reversed, (SKETCH,), "sketch-rule"),
    Variant("krr-cholesky", krr_cholesky, (KRR,), "route"),
    Variant("krr-eigh", krr_eigh, (KRR,), "route"),
    Variant("krr-cg", krr_cg, (KRR,), "route"),
    Variant("nystrom-krr-lstsq", nystrom_krr_lstsq, (KRR,), "route"),
    Variant("nystrom-krr-with-replacement", nystrom_krr_with_replacement, (KRR,), "randomness"),
)

BY_NAME = {v.name: v for v in VARIANTS}
