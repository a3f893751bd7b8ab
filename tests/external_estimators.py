"""Estimators written outside kpca_suite, as a library under test would write its own:
a plain NumPy Nyström KPCA (uncentred, uniform landmarks; with n_components None the
whole Nyström map, a kernel approximation for any kernel with ``block``, the periodic
kernels of bach13.rank-rule too), the same with a realistic bug (it keeps 5 landmarks
whatever budget it is given), and factories that are wrong in the ways `--estimator`
must report; a plain Frequent Directions sketch, KRR on sampled columns and an
in-sample-only centred KPCA, each with a realistic bug beside the correct one."""

import numpy as np
import scipy.linalg

from kpca_suite.suites.roles import implementation


class PlainNystromKPCA:
    """Nyström KPCA: F = K_nm K_mm^{-1/2} (on K_mm's numerical range), the top-k
    eigenvectors U of F^T F, components K_mm^{-1/2} U; transform(x) = k_m(x)^T components."""

    def __init__(self, n_components, n_landmarks, kernel, random_state=None):
        self.n_components = n_components
        self.n_landmarks = n_landmarks
        self.kernel = kernel
        self.random_state = random_state

    def fit(self, X):
        rng = np.random.default_rng(self.random_state)
        self.landmarks_ = X[np.sort(rng.choice(len(X), self.n_landmarks, replace=False))]
        s, V = np.linalg.eigh(self.kernel.block(self.landmarks_))
        keep = s > 1e-10 * s.max()
        whiten = V[:, keep] / np.sqrt(s[keep])
        F = self.kernel.block(X, self.landmarks_) @ whiten
        _, U = np.linalg.eigh(F.T @ F)
        self.components_ = whiten @ U[:, ::-1][:, :self.n_components]
        return self

    def transform(self, X):
        return self.kernel.block(X, self.landmarks_) @ self.components_


def nystrom(n_components, budget, kernel, random_state):
    """A correct factory."""
    return PlainNystromKPCA(n_components, budget, kernel, random_state)


def five_landmarks(n_components, budget, kernel, random_state):
    """The bug: ignores the budget and keeps 5 landmarks."""
    return PlainNystromKPCA(n_components, 5, kernel, random_state)


class _NoTransform:
    def fit(self, X):
        return self


def no_transform(n_components, budget, kernel, random_state):
    """Returns an object without transform."""
    return _NoTransform()


class _RaisesInFit(PlainNystromKPCA):
    def fit(self, X):
        raise RuntimeError("this estimator cannot fit")


def raises_in_fit(n_components, budget, kernel, random_state):
    """Builds fine, raises inside fit."""
    return _RaisesInFit(n_components, budget, kernel, random_state)


class PlainRFF:
    """Random Fourier features z(x) = sqrt(2/m) cos(omega^T x + b), omega ~ N(0, 2 gamma I),
    b ~ U[0, 2 pi); with n_components, the projection on the top right singular
    vectors of Z (uncentred): a rank-k approximation of Z Z^T."""

    def __init__(self, n_components, n_features, kernel, random_state=None):
        self.n_components = n_components
        self.n_features = n_features
        self.kernel = kernel
        self.random_state = random_state

    def _features(self, X):
        return np.sqrt(2.0 / self.n_features) * np.cos(X @ self.omega_ + self.phase_)

    def fit(self, X):
        rng = np.random.default_rng(self.random_state)
        self.omega_ = rng.normal(0.0, np.sqrt(2.0 * self.kernel.gamma), size=(X.shape[1], self.n_features))
        self.phase_ = rng.uniform(0.0, 2.0 * np.pi, size=self.n_features)
        if self.n_components is not None:
            self.components_ = np.linalg.svd(self._features(X), full_matrices=False)[2][:self.n_components].T
        return self

    def transform(self, X):
        Z = self._features(X)
        return Z if self.n_components is None else Z @ self.components_


def rff(n_components, budget, kernel, random_state):
    """A correct random-feature factory (Gaussian kernel)."""
    return PlainRFF(n_components, budget, kernel, random_state)


class _SpoiltOutput(PlainRFF):
    """Correct random features whose transform output is spoilt in one of the ways an
    integration goes wrong: ``how`` in nan, inf, transposed, short, 1-D, complex."""

    how = "nan"

    def transform(self, X):
        Z = super().transform(X)
        if self.how == "nan":
            Z[0, 0] = np.nan
        elif self.how == "inf":
            Z[-1, -1] = np.inf
        elif self.how == "transposed":
            Z = Z.T
        elif self.how == "short":
            Z = Z[:-1]
        elif self.how == "1-D":
            Z = Z[:, 0]
        elif self.how == "complex":
            Z = Z.astype(complex)
        elif self.how == "empty":
            Z = Z[:, :0]
        return Z


class Spoilt:
    """A picklable factory whose objects return the ``how`` spoilt output (see
    :class:`_SpoiltOutput`)."""

    def __init__(self, how):
        self.how = how

    def __call__(self, n_components, budget, kernel, random_state):
        est = _SpoiltOutput(n_components, budget, kernel, random_state)
        est.how = self.how
        return est


def spoilt(how):
    """The module-level factory ``spoilt_<how>`` (for ``--estimator NAME=MODULE:FACTORY``)."""
    return globals()[f"spoilt_{how.replace('-', '')}"]


spoilt_nan, spoilt_inf, spoilt_transposed = Spoilt("nan"), Spoilt("inf"), Spoilt("transposed")
spoilt_short, spoilt_1D, spoilt_complex = Spoilt("short"), Spoilt("1-D"), Spoilt("complex")
spoilt_empty = Spoilt("empty")


class _CollapsedStreaming(PlainRFF):
    """A streaming KPCA whose basis collapses: partial_fit keeps the first chunk's map,
    and transform returns k copies of one score column (k columns, one direction)."""

    def partial_fit(self, X):
        if not hasattr(self, "omega_"):
            self.fit(X)
        return self

    def transform(self, X):
        Z = super().transform(X)
        return np.repeat(Z[:, :1], Z.shape[1], axis=1)


def collapsed_streaming(n_components, budget, kernel, random_state):
    """A streaming-kpca factory with the collapsed basis of :class:`_CollapsedStreaming`."""
    return _CollapsedStreaming(n_components, budget, kernel, random_state)


class MiniBatchOja(PlainRFF):
    """Oja's rule on random Fourier features with the bug of one step per partial_fit call, on
    the chunk's covariance: Q <- qr(Q + (2 / t) Z^T Z Q / |Z|), t counting calls. A mini-batch
    Oja whose result depends on how the stream is cut (the correct sample-by-sample rule written
    outside is the variants corpus's :func:`tests.variants.corpus.oja_qr_every_16`)."""

    def __init__(self, n_components, n_features, kernel, random_state=None):
        super().__init__(None, n_features, kernel, random_state)
        self.k = n_components

    def partial_fit(self, X):
        if not hasattr(self, "Q_"):
            super().fit(X)
            self.Q_ = np.linalg.qr(np.random.default_rng(self.random_state).standard_normal((self.n_features,
                                                                                             self.k)))[0]
            self.t_ = 0
        Z = self._features(X)
        self.t_ += 1
        self.Q_ = np.linalg.qr(self.Q_ + (2.0 / self.t_) * Z.T @ (Z @ self.Q_) / len(Z))[0]
        return self

    def transform(self, X):
        return self._features(X) @ self.Q_


def minibatch_oja(n_components, budget, kernel, random_state):
    """A streaming-kpca factory that takes one Oja step per chunk (:class:`MiniBatchOja`)."""
    return MiniBatchOja(n_components, budget, kernel, random_state)


class PlainCentredNystromKPCA(PlainNystromKPCA):
    """Centred Nyström KPCA: the features F = K_nm K_mm^{-1/2} centred by their mean over
    the n rows, the top-k eigenvectors of the centred F^T F; transform subtracts the same
    mean (``centre_transform=False`` is the bug of forgetting that)."""

    def __init__(self, n_components, n_landmarks, kernel, random_state=None, centre_transform=True):
        super().__init__(n_components, n_landmarks, kernel, random_state)
        self.centre_transform = centre_transform

    def fit(self, X):
        rng = np.random.default_rng(self.random_state)
        self.landmarks_ = X[np.sort(rng.choice(len(X), self.n_landmarks, replace=False))]
        s, V = np.linalg.eigh(self.kernel.block(self.landmarks_))
        keep = s > 1e-10 * s.max()
        self.whiten_ = V[:, keep] / np.sqrt(s[keep])
        F = self.kernel.block(X, self.landmarks_) @ self.whiten_
        self.mean_ = F.mean(axis=0)
        _, U = np.linalg.eigh((F - self.mean_).T @ (F - self.mean_))
        self.rotation_ = U[:, ::-1][:, :self.n_components]
        return self

    def transform(self, X):
        F = self.kernel.block(X, self.landmarks_) @ self.whiten_
        return (F - self.mean_ if self.centre_transform else F) @ self.rotation_


def centred_nystrom(n_components, budget, kernel, random_state):
    """A correct centred factory, declared as such."""
    return PlainCentredNystromKPCA(n_components, budget, kernel, random_state)


def centred_in_fit_only(n_components, budget, kernel, random_state):
    """The bug: centres in fit, not in transform."""
    return PlainCentredNystromKPCA(n_components, budget, kernel, random_state, centre_transform=False)


centred_nystrom.kind = centred_in_fit_only.kind = "nystrom"
centred_nystrom.centred = centred_in_fit_only.centred = True


class PlainFrequentDirections:
    """Frequent Directions (Liberty 2013) in plain NumPy: rows go into the zero rows of an
    ell x d buffer; a full buffer is shrunk by its smallest squared singular value,
    B <- sqrt(max(Sigma^2 - sigma_ell^2, 0)) V^T. ``smallest_first=True`` is the bug of
    reading the SVD's singular values as ascending (it shrinks by the largest)."""

    def __init__(self, sketch_size, smallest_first=False, halving=False):
        self.sketch_size = sketch_size
        self.smallest_first = smallest_first
        self.halving = halving

    def partial_fit(self, A):
        A = np.asarray(A, dtype=float)
        if not hasattr(self, "sketch_"):
            self.sketch_ = np.zeros((self.sketch_size, A.shape[1]))
        for row in A:
            free = np.flatnonzero(~self.sketch_.any(axis=1))
            if free.size == 0:
                _, s, Vt = np.linalg.svd(self.sketch_, full_matrices=False)
                j = self.sketch_size // 2 if self.halving else self.sketch_size
                cut = s[0] if self.smallest_first else s[j - 1]
                self.sketch_ = np.sqrt(np.maximum(s**2 - cut**2, 0.0))[:, None] * Vt
                self.sketch_[j - 1:] = 0.0  # sigma_j's row and below, exactly (round-off may leave 1e-22)
                free = np.flatnonzero(~self.sketch_.any(axis=1))
            self.sketch_[free[0]] = row
        return self

    def merge(self, other):
        out = type(self)(self.sketch_size, self.smallest_first, self.halving)
        out.sketch_ = self.sketch_.copy()
        return out.partial_fit(other.sketch_[other.sketch_.any(axis=1)])


def frequent_directions(n_components, budget, kernel, random_state):
    """A correct matrix-sketch factory."""
    return PlainFrequentDirections(budget)


def frequent_directions_largest(n_components, budget, kernel, random_state):
    """The bug: shrinks by the largest singular value."""
    return PlainFrequentDirections(budget, smallest_first=True)


def halving_frequent_directions(n_components, budget, kernel, random_state):
    """A correct sketch of Algorithm 1's rule (shrink at sigma_{ell/2}^2) that does not say so."""
    return PlainFrequentDirections(budget, halving=True)


class _SaysStandard(PlainFrequentDirections):
    @property
    def shrink_index(self):
        return self.sketch_size


def halving_said_standard(n_components, budget, kernel, random_state):
    """The same halving sketch exposing shrink_index = ell: it claims the standard rule's bound."""
    return _SaysStandard(budget, halving=True)


class _NoMerge(PlainFrequentDirections):
    merge = None


def frequent_directions_without_merge(n_components, budget, kernel, random_state):
    """A sketch without merge."""
    return _NoMerge(budget)


class _ScaledScores(PlainNystromKPCA):
    """The bug: components of norm ``scale`` in the RKHS (a factor left in them), so the
    scores are ``scale`` times the coordinates of the projection."""

    scale = 1.0

    def transform(self, X):
        return self.scale * super().transform(X)


class _DoubledScores(_ScaledScores):
    scale = 2.0


class _ShrunkScores(_ScaledScores):
    scale = 0.8


def doubled_scores(n_components, budget, kernel, random_state):
    return _DoubledScores(n_components, budget, kernel, random_state)


def shrunk_scores(n_components, budget, kernel, random_state):
    return _ShrunkScores(n_components, budget, kernel, random_state)


class PlainNystromKRR:
    """Kernel ridge regression on ``budget`` uniformly sampled columns (the ``krr`` role):
    features F = K_nI K_II^{-1/2} (on K_II's numerical range), w = (F^T F + ridge I)^{-1} F^T y,
    predict(x) = k_I(x)^T K_II^{-1/2} w. ``ridge`` is scikit-learn's alpha."""

    def __init__(self, budget, kernel, ridge, random_state=None):
        self.budget = budget
        self.kernel = kernel
        self.ridge = ridge
        self.random_state = random_state

    def _penalty(self, n):
        return self.ridge

    def fit(self, X, y):
        rng = np.random.default_rng(self.random_state)
        self.columns_ = X[np.sort(rng.choice(len(X), self.budget, replace=False))]
        s, V = np.linalg.eigh(self.kernel.block(self.columns_))
        keep = s > 1e-12 * s.max()
        whiten = V[:, keep] / np.sqrt(s[keep])
        F = self.kernel.block(X, self.columns_) @ whiten
        A = F.T @ F + self._penalty(len(X)) * np.eye(F.shape[1])
        self.coef_ = whiten @ np.linalg.solve(A, F.T @ y)
        return self

    def predict(self, X):
        return self.kernel.block(X, self.columns_) @ self.coef_


class _PerSampleRidge(PlainNystromKRR):
    def _penalty(self, n):
        return n * self.ridge


def nystrom_krr(budget, kernel, ridge, random_state):
    """A correct ``krr`` factory."""
    return PlainNystromKRR(budget, kernel, ridge, random_state)


def nystrom_krr_per_sample_ridge(budget, kernel, ridge, random_state):
    """The bug: reads ridge as the per-sample lambda and multiplies it by n again (the
    two conventions of the penalty mixed up): n times too much regularisation."""
    return _PerSampleRidge(budget, kernel, ridge, random_state)


class OneTargetKRR(PlainNystromKRR):
    """The same regressor, refusing 2-D targets (as many regressors do)."""

    def fit(self, X, y):
        if np.ndim(y) != 1:
            raise ValueError(f"y must be 1-D, got shape {np.shape(y)}")
        return super().fit(X, y)


class InSampleCentredKPCA:
    """Exact centred KPCA that gives only the scores of the rows it is fitted on, as many
    embeddings do (``fit_transform``, no ``transform`` of new points): the top eigenvectors
    of the centred Gram matrix J K J scaled by the square roots of their eigenvalues."""

    def __init__(self, n_components, kernel):
        self.n_components = n_components
        self.kernel = kernel

    def fit_transform(self, X):
        K = self.kernel.block(X)
        n = len(K)
        K -= K.mean(axis=0)[None, :]
        K -= K.mean(axis=1)[:, None]  # J K J, J = I - 11^T / n
        s, U = scipy.linalg.eigh(K, subset_by_index=(n - self.n_components, n - 1))
        return U[:, ::-1] * np.sqrt(np.clip(s[::-1], 0.0, None))


@implementation(kind="exact", centred=True, budgeted=False)
def in_sample_kpca(n_components, budget, kernel, random_state):
    """An in-sample-only exact centred KPCA, its kind declared."""
    return InSampleCentredKPCA(n_components, kernel)


class InSampleRFF:
    """Random Fourier features (:class:`PlainRFF`) of the rows given, and of those only:
    ``fit_transform``, no ``transform`` of new points."""

    def __init__(self, n_components, n_features, kernel, random_state=None):
        self._map = PlainRFF(n_components, n_features, kernel, random_state)

    def fit_transform(self, X):
        return self._map.fit(X).transform(X)


@implementation(kind="random-features", centred=False)
def in_sample_rff(n_components, budget, kernel, random_state):
    """An in-sample-only random-feature map, its kind declared."""
    return InSampleRFF(n_components, budget, kernel, random_state)


class _HalfScaledRFF(PlainRFF):
    def _features(self, X):
        return np.sqrt(1.0 / self.n_features) * np.cos(X @ self.omega_ + self.phase_)


def half_scaled_rff(n_components, budget, kernel, random_state):
    """The bug: sqrt(1/m) cos(.) for sqrt(2/m) cos(.), so Z Z^T is about K / 2."""
    return _HalfScaledRFF(n_components, budget, kernel, random_state)


class Float32Rows:
    """Any estimator fitted on float32 data: the rows given to ``fit`` and ``partial_fit``
    are rounded to float32 first, as a user holding float32 data would pass them.
    Everything else, ``transform`` included, is the wrapped estimator's: the claims
    evaluate the fitted functions at their own points (quadrature nodes, probe rows),
    which rounding would move."""

    def __init__(self, estimator):
        self.estimator = estimator

    def fit(self, X, *args):
        self.estimator.fit(np.asarray(X, dtype=np.float32), *args)
        return self

    def partial_fit(self, X):
        self.estimator.partial_fit(np.asarray(X, dtype=np.float32))
        return self

    def __getattr__(self, name):
        if name == "estimator":  # not set yet (copy, pickle): no recursion
            raise AttributeError(name)
        return getattr(self.estimator, name)


def in_float32(factory):
    """A role factory whose estimators see float32 rows (:class:`Float32Rows`); the
    factory's declared kind and estimand are kept."""
    def make(*args, **kwargs):
        return Float32Rows(factory(*args, **kwargs))
    make.__dict__.update(vars(factory))
    make.__name__ = make.__qualname__ = f"in_float32_{factory.__name__}"
    return make
