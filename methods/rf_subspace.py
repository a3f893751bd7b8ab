"""What the random-feature subspace estimators (RF-ERM / RNCA, RF-Oja, SKPCA)
share: a drawn feature map z (``feature_map_``) and an orthonormal basis of a
subspace of feature space (``components_``, m' x k); scores are z(x)^T U."""

from __future__ import annotations

import numpy as np


class RandomFeatureSubspace:
    """Mixin: ``features``, ``transform`` and the fitted check."""

    def features(self, X) -> np.ndarray:
        """Z = z(X), the random features of X (rows)."""
        self._check_fitted()
        return self.feature_map_.transform(X)

    def transform(self, X) -> np.ndarray:
        """Scores z(x)^T U, shape (len(X), k), U = ``components_``."""
        return self.features(X) @ self.components_

    def _check_fitted(self):
        if not hasattr(self, "components_"):
            raise RuntimeError(f"{type(self).__name__} is not fitted yet: call fit(X) or partial_fit(X) first")
