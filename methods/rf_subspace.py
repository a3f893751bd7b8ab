"""What the random-feature subspace estimators (RF-ERM / RNCA, RF-Oja, SKPCA)
share: a drawn feature map z (``feature_map_``) and an orthonormal basis of a
subspace of feature space (``components_``, m' x k); scores are z(x)^T U.

The kernel is a :class:`kernels.Kernel` whose spectral measure is known
(:mod:`kernels.random_features`): Gaussian exp(-gamma ||x - y||^2), omega ~ N(0, 2 gamma I),
or Laplacian exp(-gamma ||x - y||_1), omega_j i.i.d. Cauchy(0, gamma). Any other kernel
is a ValueError at ``fit``.
"""

from __future__ import annotations

import numpy as np

from kpca_suite.kernels import Kernel, KernelLike, check_positive, draw_rff
from kpca_suite.kernels.random_features import RF_KERNELS

from .base import check_is_fitted


def check_rff_kernel(kernel) -> Kernel:
    """``kernel`` must be a :class:`kernels.Kernel` with random Fourier features
    (``RF_KERNELS``): a TypeError for anything else than a kernel, a ValueError for a
    kernel without a spectral measure here."""
    if isinstance(kernel, Kernel):
        if kernel.name not in RF_KERNELS:
            raise ValueError(f"random Fourier features need the kernel's spectral measure, known here for "
                             f"{RF_KERNELS} only; got the {kernel.name} kernel")
        return kernel
    if isinstance(kernel, KernelLike):
        raise ValueError(f"random Fourier features need the kernel's spectral measure, known here for "
                         f"kernels.Kernel{RF_KERNELS} only; got a {type(kernel).__name__}")
    raise TypeError(f"kernel must be a kernels.Kernel such as Kernel('gaussian', gamma=...), "
                    f"got {type(kernel).__name__}")


class RandomFeatureSubspace:
    """Mixin: ``features``, ``transform``, the fitted check and the draw of z."""

    def _draw_feature_map(self, d: int, rng):
        """z for d-dimensional rows: ``n_features`` frequencies of ``kernel`` (``variant``)."""
        kernel = check_rff_kernel(self.kernel)
        check_positive(self.n_features, "n_features", integer=True)
        return draw_rff(d, self.n_features, kernel.name, kernel.gamma, self.variant, rng)

    def features(self, X) -> np.ndarray:
        """Z = z(X), the random features of X (rows)."""
        self._check_fitted()
        return self.feature_map_.transform(X)

    def transform(self, X) -> np.ndarray:
        """Scores z(x)^T U, shape (len(X), k), U = ``components_``."""
        return self.features(X) @ self.components_

    def _check_fitted(self):
        check_is_fitted(self, "components_")
