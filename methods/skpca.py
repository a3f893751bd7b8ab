"""SKPCA: streaming kernel PCA, random Fourier features sketched by Frequent
Directions (Ghashami, Perry & Phillips 2016, Algorithm 1).

Each row x_i is mapped to z_i = z(x_i) (m random Fourier features,
:mod:`kernels.random_features`) and fed to a Frequent Directions sketch
B (ell x m) of Z = [z_1; ...; z_n] (:mod:`kernels.frequent_directions`); Z is
never materialised (rows are mapped ``block_size`` at a time). The
components W (m x k) are the top right singular vectors of the *final* sketch,
recomputed after every ``partial_fit`` from the rows of B in use (the W of the
last shrink, as the paper returns it, is stale once rows arrive after it, and
span(W) must contain rowspan(B) for Lemma 2.2's chain). The embedding is
z(x)^T W, and the Gram approximation

.. math::  \\tilde G = Z W W^T Z^T

(the paper's Theorem 2.1 writes Z W^T W Z^T, a typo: it is not even defined for
W of shape m x k). Guarantees
(Lemma 2.2, corrected for the shrink index j of the sketch):

.. math::  \\|Z Z^T - \\tilde G\\|_2 = \\|Z (I - W W^T)\\|_2^2
           \\le \\|Z^T Z - B^T B\\|_2 \\le \\|Z\\|_F^2 / j,

with j = ell (standard FD) or floor(ell/2) (the paper's halving rule; the
paper's ||Z||_F^2 / ell for it is an erratum: its Lemmas 2.1-2.2 use the
denominator of the standard variant, so the paper's ell = 2/eps gives 2 eps n).

A ``dask.array`` X is sketched chunk by chunk (:meth:`SKPCA.partial_fit`,
:mod:`kernels.dask_arrays`): one FD sketch per row chunk, the sketches merged in a
tree. The merged B is not the sequential one, but the chain above holds for it.

A float32 X (in memory; a dask array's chunks are fitted in float64) is mapped and sketched in
single precision (the features by :meth:`kernels.RandomFourierFeatures.transform`, the sketch by
:class:`kernels.FrequentDirections`); W comes from a float64 SVD of the final B.
"""

from __future__ import annotations

import functools

import numpy as np

from kpca_suite.kernels import Kernel, check_array, check_positive, check_random_state, check_rank
from kpca_suite.kernels.frequent_directions import FrequentDirections

from .base import reset_fitted
from kpca_suite.kernels.dask_arrays import check_dask_array, is_dask_array, tree_reduce
from .rf_subspace import RandomFeatureSubspace


class SKPCA(RandomFeatureSubspace):
    """Streaming KPCA by RFF + Frequent Directions (Algorithm 1).

    Parameters
    ----------
    n_components : int or None
        k <= ell columns of W kept; None keeps ell (the paper's output).
    sketch_size : int >= 2
        ell, rows of the FD sketch; at most the number of features.
    n_features : int > 0
        m, the number of frequencies (features: m for ``"cos"``, 2m for ``"paired"``).
    kernel : kernels.Kernel
        Gaussian or Laplacian (the kernels with a spectral measure for
        :func:`kernels.draw_rff`); any other kernel is a ValueError at ``fit``.
    variant : {"cos", "paired"}
        As in :func:`kernels.draw_rff`.
    shrink : {"halving", "standard"}
        The FD shrink rule (:mod:`kernels.frequent_directions`); "halving" is
        the paper's Algorithm 1.
    block_size : int
        Rows mapped at a time: memory O(block_size m + ell m + d m).
    random_state : int, Generator or None
        Seeds the frequencies, drawn on the first ``partial_fit``.

    Attributes
    ----------
    feature_map_ : RandomFourierFeatures
    sketch_ : FrequentDirections, the FD state over the features.
    components_ : (m', r) W, orthonormal columns, r = min(k, rank B).
    singular_values_ : (r,) the singular values of B along W.
    n_samples_seen_ : int
    """

    def __init__(self, n_components=None, sketch_size: int = 10, n_features: int = 100,
                 kernel: Kernel = Kernel("gaussian", gamma=1.0), variant: str = "cos", shrink: str = "halving",
                 block_size: int = 4096, random_state=None):
        self.n_components = n_components
        self.sketch_size = sketch_size
        self.n_features = n_features
        self.kernel = kernel
        self.variant = variant
        self.shrink = shrink
        self.block_size = block_size
        self.random_state = random_state

    def fit(self, X) -> "SKPCA":
        """Forget any previous pass and fit on X."""
        reset_fitted(self)
        return self.partial_fit(X)

    def partial_fit(self, X) -> "SKPCA":
        """Stream the rows of X through z and the sketch, then recompute W from
        the final sketch. A rejected chunk (non-finite, wrong d) leaves the model
        unchanged.

        A ``dask.array`` X takes the chunked path (:mod:`kernels.dask_arrays`): z is
        drawn here as in memory (same ``random_state``, same frequencies), each row
        chunk X_c is sketched on its own, B_c = FD(z(X_c)), and the sketches are merged
        in a tree (:meth:`FrequentDirections.merge`), then into the earlier sketch if
        any. B differs from the sequential sketch; its guarantee does not:
        0 <= Z^T Z - B^T B, ||Z^T Z - B^T B||_2 <= Delta <= ||Z - Z_k||_F^2 / (j - k)."""
        chunked = is_dask_array(X)
        X = check_dask_array(X, "X") if chunked else check_array(X, "X", allow_float32=True)
        block_size = check_positive(self.block_size, "block_size", integer=True)
        if not hasattr(self, "feature_map_"):
            check_positive(self.n_features, "n_features", integer=True)
            fmap = self._draw_feature_map(X.shape[1], check_random_state(self.random_state))
            ell = check_rank(self.sketch_size, "sketch_size", fmap.n_features, "the number of features")
            if self.n_components is not None:
                check_rank(self.n_components, "n_components", ell, "sketch_size")
            fd = FrequentDirections(ell, self.shrink)
        else:
            fmap, fd = self.feature_map_, self.sketch_
            if X.shape[1] != fmap.omega.shape[0]:
                raise ValueError(f"X must have d = {fmap.omega.shape[0]} columns like the earlier chunks, "
                                 f"got {X.shape[1]}")
        if chunked:
            tree = tree_reduce(X, functools.partial(sketch_features, fmap, fd.sketch_size, fd.shrink, block_size),
                               FrequentDirections.merge)
            fd = fd.merge(tree) if hasattr(fd, "sketch_") else tree
        else:
            for Z in fmap.blocks(X, block_size):
                fd.partial_fit(Z)
        self.feature_map_, self.sketch_ = fmap, fd
        self.n_samples_seen_ = fd.n_rows_seen_
        self.components_, self.singular_values_ = self._components(fd)
        return self

    def merge(self, other: "SKPCA") -> "SKPCA":
        """A new model of the concatenated streams of ``self`` and ``other``, fitted
        with the same feature map (same ``random_state`` / frequencies): their FD
        sketches merge (:meth:`FrequentDirections.merge`), W is recomputed. Lets
        per-chunk fits reduce in a tree, e.g. over chunks spread across machines."""
        self._check_fitted()
        if not isinstance(other, SKPCA):
            raise TypeError(f"other must be an SKPCA, got {type(other).__name__}")
        other._check_fitted()
        f, g = self.feature_map_, other.feature_map_
        if not (f.variant == g.variant and np.array_equal(f.omega, g.omega) and np.array_equal(f.phase, g.phase)):
            raise ValueError("models to merge must share the feature map: fit them with the same random_state")
        out = SKPCA(**self.get_params())
        out.feature_map_, out.sketch_ = f, self.sketch_.merge(other.sketch_)
        out.n_samples_seen_ = out.sketch_.n_rows_seen_
        out.components_, out.singular_values_ = out._components(out.sketch_)
        return out

    def get_params(self) -> dict:
        """The constructor parameters (scikit-learn style)."""
        return {name: getattr(self, name) for name in ("n_components", "sketch_size", "n_features", "kernel",
                                                       "variant", "shrink", "block_size", "random_state")}

    def _components(self, fd):
        """Top right singular vectors of the rows of B in use, keeping the
        numerically nonzero singular values (NumPy's ``matrix_rank`` cut-off,
        s > s_max max(shape) eps, eps of B's dtype), at most k of them."""
        B = fd.sketch_[:fd.n_filled_]
        m = fd.sketch_.shape[1]
        if B.shape[0] == 0:
            return np.zeros((m, 0)), np.zeros(0)
        _, s, Vt = np.linalg.svd(B.astype(np.float64), full_matrices=False)
        r = int((s > s[0] * max(B.shape) * np.finfo(B.dtype).eps).sum())
        k = self.sketch_size if self.n_components is None else self.n_components
        r = min(r, k)
        return np.ascontiguousarray(Vt[:r].T), s[:r]

    @property
    def space_(self) -> int:
        """Floats held: the d x m frequencies, m phases and the ell x m sketch
        (the paper's SPACE md + m ell, section 3)."""
        self._check_fitted()
        fmap = self.feature_map_
        return fmap.omega.size + fmap.phase.size + self.sketch_.space_


def sketch_features(fmap, sketch_size: int, shrink: str, block_size: int, X) -> FrequentDirections:
    """FD(z(X)): one chunk's sketch of its random features, mapped ``block_size`` rows at a time."""
    fd = FrequentDirections(sketch_size, shrink)
    for Z in fmap.blocks(X, block_size):
        fd.partial_fit(Z)
    return fd
