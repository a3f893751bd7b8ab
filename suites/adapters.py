"""Built-in adapters: role factories (see :mod:`suites.roles`) for our estimators,
scikit-learn's, and the optional ``nystrompca`` package, listed by
``kpca-suite estimators`` and run side by side by ``kpca-suite conformance``.

Every factory is a module-level function ``make(n_components, budget, kernel,
random_state)`` (``make(budget, kernel, ridge, random_state)`` for the ``krr`` role) so
that a process pool can pickle it.
An adapter says whether it centres in feature space: the claims of Sterge et al.
and Ullah et al. are uncentred, so a centring implementation computes another
estimand there, and the conformance matrix says so instead of failing it.

Kernels: ours take any :class:`~kpca_suite.kernels.Kernel`, and
``ours-nystrom-krr`` any ``KernelLike`` (the periodic kernels of Bach 2013
too); scikit-learn's adapters translate the Gaussian (``rbf``), Laplacian, linear
and unnormalised polynomial kernels and raise :class:`UnsupportedKernel` for
others (the periodic kernels have no scikit-learn name), except ``KernelRidge``,
which takes any kernel's Gram matrix (``kernel="precomputed"``).
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

from kpca_suite.kernels import KERNELS, draw_rff

from .fingerprint import identity
from .roles import Estimator, Unsupported, UnsupportedKernel  # noqa: F401 - UnsupportedKernel: a refusal of the adapters


@dataclass(frozen=True)
class Adapter:
    """A named implementation: the roles it fills, its factory, whether it centres,
    its kind (a claim about one kind of approximation, e.g. the Monte Carlo rate of
    random features, applies to that kind only), whether it uses the budget, the kernels it supports (None: any), and the
    optional package it needs."""

    name: str
    roles: tuple
    factory: Callable
    centred: bool
    description: str
    kind: str                # one of roles.KINDS
    budgeted: bool = True
    kernels: Optional[tuple] = None
    requires: str = ""

    def available(self) -> bool:
        return not self.requires or importlib.util.find_spec(self.requires) is not None

    def supports(self, kernel_name: str) -> bool:
        return self.kernels is None or kernel_name in self.kernels

    def estimator(self) -> Estimator:
        """The adapter as a resolved implementation, with the identity of its code."""
        code = identity(self.factory)
        return Estimator(self.name, self.factory, self.centred, self.kind, self.budgeted, self.kernels,
                         code.fingerprint, f"built-in: {self.description}", self.roles, self.requires,
                         hashed=code.hashed)


# ---------------------------------------------------------------------- ours

def ours_nystrom(n_components, budget, kernel, random_state):
    """Uncentred Nyström KPCA, ``budget`` uniform landmarks (Sterge et al. 2020);
    n_components None is the whole Nyström map, phi(x) = R^{-1} k(I, x) on the landmarks'
    incomplete Cholesky (:class:`~kpca_suite.methods.krr.NystromFeatures`), whose rank is
    K_mm's numerical rank: asking NystromKPCA for ``budget`` components raised where that
    rank is smaller (a near rank-one K, duplicated landmarks); for the same reason k components
    are capped at that rank (:class:`~kpca_suite.methods.RankCappedNystromKPCA`)."""
    from kpca_suite.methods import RankCappedNystromKPCA
    from kpca_suite.methods.krr import NystromFeatures
    if n_components is None:
        return NystromFeatures(kernel, budget, sampling="uniform", random_state=random_state)
    return RankCappedNystromKPCA(n_components, kernel, landmarks=budget, random_state=random_state)


class NystromKRRRole:
    """:class:`~kpca_suite.methods.NystromKRR` in the ``krr`` role: ``budget`` columns by
    ``sampling``; the role's ``ridge`` is scikit-learn's alpha, NystromKRR's the paper's
    lambda = ridge / n, so the model is built in ``fit``, where n is known."""

    def __init__(self, budget, kernel, ridge, random_state, sampling="uniform"):
        self.budget, self.kernel, self.ridge = budget, kernel, ridge
        self.random_state, self.sampling = random_state, sampling

    def fit(self, X, y):
        from kpca_suite.methods import NystromKRR
        n = np.shape(X)[0]
        self.model_ = NystromKRR(self.kernel, self.ridge / n, self.budget, sampling=self.sampling,
                                 random_state=self.random_state).fit(X, y)
        return self

    def predict(self, X):
        return self.model_.predict(X)


def ours_nystrom_krr(budget, kernel, ridge, random_state):
    """KRR on ``budget`` columns sampled uniformly without replacement (Bach 2013, Eq. (4),
    Sec. 4.4), factored by incomplete Cholesky; any KernelLike (the periodic kernels too)."""
    return NystromKRRRole(budget, kernel, ridge, random_state)


def ours_exact(n_components, budget, kernel, random_state):
    """Uncentred exact KPCA (``budget`` unused; ``random_state`` seeds the top-k solver's start)."""
    from kpca_suite.methods import ExactKPCA
    return ExactKPCA(n_components, kernel, random_state=random_state)


def ours_rf_erm(n_components, budget, kernel, random_state):
    """Top-k PCA of the uncentred covariance of ``budget`` random Fourier features (RF-ERM)."""
    from kpca_suite.methods import RFERM
    return RFERM(n_components, budget, kernel, "cos", random_state=random_state)


def ours_rf_oja(n_components, budget, kernel, random_state):
    """Oja's rule on ``budget`` random Fourier features, the default step schedule."""
    from kpca_suite.methods import RFOja
    return RFOja(n_components, budget, kernel, "cos", random_state=random_state)


def ours_skpca(n_components, budget, kernel, random_state):
    """Frequent Directions over ``budget`` random Fourier features (Ghashami et al. 2016,
    Algorithm 1), a sketch of ``n_components`` rows; transform projects on its directions."""
    from kpca_suite.methods import SKPCA
    if n_components is None:
        raise Unsupported("ours-skpca needs n_components: the number of sketch rows ell")
    return SKPCA(sketch_size=n_components, n_features=budget, kernel=kernel, shrink="halving",
                 random_state=random_state)


def ours_fd(n_components, budget, kernel, random_state):
    """Frequent Directions with the standard rule (shrink at sigma_ell^2): a sketch of
    ``budget`` rows of the rows themselves (``kernel`` and ``n_components`` unused)."""
    from kpca_suite.kernels.frequent_directions import FrequentDirections
    return FrequentDirections(budget, "standard")


class RandomFourierMap:
    """The cos random Fourier feature map as a transformer: fit draws ``n_features``
    frequencies for X's dimension, transform gives z(x) = sqrt(2/m) cos(omega^T x + b)."""

    def __init__(self, n_features, kernel, random_state=None):
        self.n_features = n_features
        self.kernel = kernel
        self.random_state = random_state

    def fit(self, X, y=None):
        X = np.asarray(X)
        self.feature_map_ = draw_rff(X.shape[1], self.n_features, self.kernel.name, self.kernel.gamma, "cos",
                                     self.random_state)
        return self

    def transform(self, X):
        return self.feature_map_.transform(X)


def ours_rff(n_components, budget, kernel, random_state):
    """``budget`` random Fourier features, no projection (``n_components`` must be None)."""
    if n_components is not None:
        raise Unsupported("ours-rff is a feature map: n_components must be None")
    return RandomFourierMap(budget, kernel, random_state)


# ---------------------------------------------------------------------- scikit-learn

def sklearn_seed(random_state):
    """scikit-learn's seed: an int below 2^32, which a claim's ``random_state`` is already
    (``Cell.seed_int``; :func:`suites.roles.build` refuses others); a larger int from a
    direct call of the factory is reduced modulo 2^32."""
    return None if random_state is None else int(random_state) % 2**32


def sklearn_kernel(kernel) -> dict:
    """scikit-learn's name and parameters for a Kernel, or :class:`UnsupportedKernel`."""
    name = getattr(kernel, "name", None)
    if name == "gaussian":
        return {"kernel": "rbf", "gamma": kernel.gamma}
    if name == "laplacian":
        return {"kernel": "laplacian", "gamma": kernel.gamma}
    if name == "linear":
        return {"kernel": "linear"}
    if name == "polynomial" and not kernel.normalize:
        return {"kernel": "poly", "gamma": kernel.gamma, "degree": kernel.degree, "coef0": kernel.coef0}
    raise UnsupportedKernel(f"scikit-learn has no kernel matching {kernel!r}")


def _nystroem(budget, kernel, random_state):
    from sklearn.kernel_approximation import Nystroem
    return Nystroem(n_components=budget, random_state=sklearn_seed(random_state), **sklearn_kernel(kernel))


def _rbf_sampler(budget, kernel, random_state):
    from sklearn.kernel_approximation import RBFSampler
    if getattr(kernel, "name", None) != "gaussian":
        raise UnsupportedKernel(f"RBFSampler approximates the Gaussian kernel only, not {kernel!r}")
    return RBFSampler(gamma=kernel.gamma, n_components=budget, random_state=sklearn_seed(random_state))


def _needs_components(n_components):
    if n_components is None:
        raise Unsupported("a projection needs n_components (it is not a feature map)")


def _tsvd(n_components, random_state):
    from sklearn.decomposition import TruncatedSVD
    _needs_components(n_components)
    return TruncatedSVD(n_components, algorithm="arpack", random_state=sklearn_seed(random_state))


def _pca(n_components, random_state):
    from sklearn.decomposition import PCA
    _needs_components(n_components)
    return PCA(n_components, random_state=sklearn_seed(random_state))


def _pipeline(first, second):
    from sklearn.pipeline import make_pipeline
    return make_pipeline(first, second) if second is not None else first


def sklearn_nystroem(n_components, budget, kernel, random_state):
    """``Nystroem(n_components=budget)``: the uncentred feature map K_mm^{-1/2} k_m(x)."""
    if n_components is not None:
        raise Unsupported("sklearn-nystroem is a feature map: n_components must be None")
    return _nystroem(budget, kernel, random_state)


def sklearn_nystroem_pca(n_components, budget, kernel, random_state):
    """``Nystroem`` + ``PCA``: centred in feature space."""
    return _pipeline(_nystroem(budget, kernel, random_state), _pca(n_components, random_state))


def sklearn_nystroem_tsvd(n_components, budget, kernel, random_state):
    """``Nystroem`` + ``TruncatedSVD`` (ARPACK): uncentred Nyström KPCA."""
    return _pipeline(_nystroem(budget, kernel, random_state), _tsvd(n_components, random_state))


def sklearn_rbf(n_components, budget, kernel, random_state):
    """``RBFSampler(n_components=budget)``: cos random Fourier features."""
    if n_components is not None:
        raise Unsupported("sklearn-rbf is a feature map: n_components must be None")
    return _rbf_sampler(budget, kernel, random_state)


def sklearn_rbf_pca(n_components, budget, kernel, random_state):
    """``RBFSampler`` + ``PCA``: centred."""
    return _pipeline(_rbf_sampler(budget, kernel, random_state), _pca(n_components, random_state))


def sklearn_rbf_tsvd(n_components, budget, kernel, random_state):
    """``RBFSampler`` + ``TruncatedSVD`` (ARPACK): uncentred, RF-ERM's estimand."""
    return _pipeline(_rbf_sampler(budget, kernel, random_state), _tsvd(n_components, random_state))


class PrecomputedKernelRidge:
    """scikit-learn's ``KernelRidge(kernel="precomputed")`` on the Gram matrices of a kernel
    scikit-learn has no name for (``kernel.block``)."""

    def __init__(self, kernel, ridge):
        self.kernel, self.ridge = kernel, ridge

    def fit(self, X, y):
        from sklearn.kernel_ridge import KernelRidge
        self.X_fit_ = np.asarray(X, dtype=float)
        self.model_ = KernelRidge(alpha=self.ridge, kernel="precomputed").fit(self.kernel.block(self.X_fit_), y)
        return self

    def predict(self, X):
        return self.model_.predict(self.kernel.block(np.asarray(X, dtype=float), self.X_fit_))


def sklearn_kernel_ridge(budget, kernel, ridge, random_state):
    """``KernelRidge(alpha=ridge)``: exact KRR (``budget`` unused), on scikit-learn's own kernel
    where it has one, on the precomputed Gram matrix otherwise (the periodic kernels)."""
    from sklearn.kernel_ridge import KernelRidge
    try:
        return KernelRidge(alpha=ridge, **sklearn_kernel(kernel))
    except UnsupportedKernel:
        return PrecomputedKernelRidge(kernel, ridge)


def sklearn_nystroem_ridge(budget, kernel, ridge, random_state):
    """``Nystroem(n_components=budget)`` + ``Ridge(alpha=ridge, fit_intercept=False)``: KRR on
    ``budget`` uniformly sampled columns (no intercept, as KRR)."""
    from sklearn.linear_model import Ridge
    return _pipeline(_nystroem(budget, kernel, random_state), Ridge(alpha=ridge, fit_intercept=False))


class StreamingFeaturePCA:
    """A feature map followed by ``IncrementalPCA`` over a stream: the map is fitted
    on the first chunk (RBFSampler's fit only draws), each chunk updates the PCA."""

    def __init__(self, sampler, n_components):
        self.sampler = sampler
        self.n_components = n_components

    def partial_fit(self, X, y=None):
        from sklearn.decomposition import IncrementalPCA
        if not hasattr(self, "pca_"):
            self.sampler.fit(X)
            self.pca_ = IncrementalPCA(self.n_components)
        self.pca_.partial_fit(self.sampler.transform(X))
        return self

    def transform(self, X):
        return self.pca_.transform(self.sampler.transform(X))


def sklearn_rbf_ipca(n_components, budget, kernel, random_state):
    """``RBFSampler`` + ``IncrementalPCA`` over the stream: centred."""
    return StreamingFeaturePCA(_rbf_sampler(budget, kernel, random_state), n_components)


def _kernel_pca(solver, n_components, kernel, random_state):
    from sklearn.decomposition import KernelPCA
    return KernelPCA(n_components, eigen_solver=solver, random_state=sklearn_seed(random_state),
                     **sklearn_kernel(kernel))


def sklearn_kernelpca_dense(n_components, budget, kernel, random_state):
    """``KernelPCA(eigen_solver='dense')``: exact, centred (``budget`` unused)."""
    return _kernel_pca("dense", n_components, kernel, random_state)


def sklearn_kernelpca_arpack(n_components, budget, kernel, random_state):
    """``KernelPCA(eigen_solver='arpack')``: exact, centred (``budget`` unused)."""
    return _kernel_pca("arpack", n_components, kernel, random_state)


def sklearn_kernelpca_randomized(n_components, budget, kernel, random_state):
    """``KernelPCA(eigen_solver='randomized')``: centred (``budget`` unused)."""
    return _kernel_pca("randomized", n_components, kernel, random_state)


# ---------------------------------------------------------------------- nystrompca

class NystromPCAPackage:
    """The ``nystrompca`` package's NystromKPCA (Hallgren 2021) in the role's shape:
    centred, ``scale=False`` (the package standardises by default), Gaussian kernel
    exp(-||x - y||^2 / sigma^2), sigma = gamma^{-1/2}."""

    def __init__(self, n_components, budget, kernel, random_state):
        self.n_components = n_components
        self.budget = budget
        self.kernel = kernel
        self.random_state = random_state

    def fit(self, X, y=None):
        from nystrompca import NystromKPCA
        if getattr(self.kernel, "name", None) != "gaussian":
            raise UnsupportedKernel(f"the nystrompca adapter maps the Gaussian kernel only, not {self.kernel!r}")
        self.model_ = NystromKPCA(n_components=self.n_components, m_subset=self.budget, kernel="rbf",
                                  sigma=self.kernel.gamma ** -0.5, seed=self.random_state, scale=False)
        self.model_.fit_transform(np.asarray(X, dtype=float))
        return self

    def transform(self, X):
        return self.model_.transform(np.asarray(X, dtype=float))


def nystrompca_kpca(n_components, budget, kernel, random_state):
    """The nystrompca package's centred Nyström KPCA."""
    return NystromPCAPackage(n_components, budget, kernel, random_state)


# ---------------------------------------------------------------------- the registry

SKLEARN_KERNELS = ("gaussian", "laplacian", "linear", "polynomial")
KPCA, APPROX, STREAM, SKETCH, KRR = ("kpca-projection", "kernel-approximation", "streaming-kpca", "matrix-sketch",
                                     "krr")

ADAPTERS = {a.name: a for a in (
    Adapter("ours-fd", (SKETCH,), ours_fd, False, "kpca_suite FrequentDirections (standard rule)", kind="sketch"),
    Adapter("ours-nystrom", (KPCA, APPROX), ours_nystrom, False, "kpca_suite NystromKPCA, uniform landmarks",
            kernels=KERNELS, kind="nystrom"),
    Adapter("ours-nystrom-krr", (KRR,), ours_nystrom_krr, False, "kpca_suite NystromKRR: incomplete Cholesky "
            "of uniform columns (Bach 2013, Eq. (4)), any KernelLike", kind="nystrom"),
    Adapter("ours-exact", (KPCA,), ours_exact, False, "kpca_suite ExactKPCA", budgeted=False, kind="exact"),
    Adapter("ours-rf-erm", (KPCA,), ours_rf_erm, False, "kpca_suite RFERM (random features + PCA)",
            kernels=("gaussian", "laplacian"), kind="random-features"),
    Adapter("ours-rf-oja", (STREAM,), ours_rf_oja, False, "kpca_suite RFOja (Oja on random features)",
            kernels=("gaussian", "laplacian"), kind="random-features"),
    Adapter("ours-skpca", (APPROX,), ours_skpca, False, "kpca_suite SKPCA (random features + Frequent "
            "Directions)", kernels=("gaussian", "laplacian"), kind="random-features"),
    Adapter("ours-rff", (APPROX,), ours_rff, False, "kpca_suite random Fourier features",
            kernels=("gaussian", "laplacian"), kind="random-features"),
    Adapter("sklearn-nystroem", (APPROX,), sklearn_nystroem, False, "Nystroem", kernels=SKLEARN_KERNELS, kind="nystrom"),
    Adapter("sklearn-nystroem-pca", (KPCA,), sklearn_nystroem_pca, True, "Nystroem + PCA", kernels=SKLEARN_KERNELS, kind="nystrom"),
    Adapter("sklearn-nystroem-tsvd", (KPCA, APPROX), sklearn_nystroem_tsvd, False, "Nystroem + TruncatedSVD",
            kernels=SKLEARN_KERNELS, kind="nystrom"),
    Adapter("sklearn-kernelpca-dense", (KPCA,), sklearn_kernelpca_dense, True, "KernelPCA(eigen_solver='dense')",
            budgeted=False, kernels=SKLEARN_KERNELS, kind="exact"),
    Adapter("sklearn-kernelpca-arpack", (KPCA,), sklearn_kernelpca_arpack, True,
            "KernelPCA(eigen_solver='arpack')", budgeted=False, kernels=SKLEARN_KERNELS, kind="exact"),
    Adapter("sklearn-kernelpca-randomized", (KPCA,), sklearn_kernelpca_randomized, True,
            "KernelPCA(eigen_solver='randomized')", budgeted=False, kernels=SKLEARN_KERNELS, kind="exact"),
    Adapter("sklearn-kernel-ridge", (KRR,), sklearn_kernel_ridge, False, "KernelRidge (precomputed Gram "
            "matrix for other kernels)", budgeted=False, kind="exact"),
    Adapter("sklearn-nystroem-ridge", (KRR,), sklearn_nystroem_ridge, False, "Nystroem + Ridge",
            kernels=SKLEARN_KERNELS, kind="nystrom"),
    Adapter("sklearn-rbf", (APPROX,), sklearn_rbf, False, "RBFSampler", kernels=("gaussian",), kind="random-features"),
    Adapter("sklearn-rbf-pca", (KPCA,), sklearn_rbf_pca, True, "RBFSampler + PCA", kernels=("gaussian",), kind="random-features"),
    Adapter("sklearn-rbf-tsvd", (KPCA, APPROX), sklearn_rbf_tsvd, False, "RBFSampler + TruncatedSVD",
            kernels=("gaussian",), kind="random-features"),
    Adapter("sklearn-rbf-ipca", (STREAM,), sklearn_rbf_ipca, True, "RBFSampler + IncrementalPCA (streaming)",
            kernels=("gaussian",), kind="random-features"),
    Adapter("nystrompca", (KPCA,), nystrompca_kpca, True, "nystrompca NystromKPCA (Hallgren 2021)",
            kernels=("gaussian",), requires="nystrompca", kind="nystrom"),
)}


def get(name: str) -> Adapter:
    try:
        return ADAPTERS[name]
    except KeyError:
        raise KeyError(f"no built-in estimator {name!r}; `kpca-suite estimators` lists "
                       f"{', '.join(ADAPTERS)}") from None
