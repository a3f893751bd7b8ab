"""Deliberately broken variants for the ullah18 planted-fault tests. Each must
turn a claim's verdict to "fails"; they live here, never in methods/."""

import numpy as np

from kpca_suite.kernels import draw_rff
from kpca_suite.methods.rf_erm import RFERM
from kpca_suite.methods.rf_oja import RFOja


def draw_rff_wrong_variance(d, m, kernel="gaussian", gamma=1.0, variant="cos", random_state=None):
    """omega ~ N(0, gamma I) instead of N(0, 2 gamma I): the features approximate
    exp(-gamma ||x - y||^2 / 2), not the evaluated kernel (ghashami16's fault too)."""
    return draw_rff(d, m, kernel, gamma / 2, variant, random_state)


class FirstRowsRFERM(RFERM):
    """Fits only the first 128 rows, whatever n: the estimation error cannot decay."""

    def fit(self, X):
        return super().fit(np.asarray(X)[:128])


class FeatureStoringRFOja(RFOja):
    """Keeps every feature row it has seen (O(n m) state, like storing Z): the
    memory claim of RF-Oja must fail."""

    def partial_fit(self, X):
        super().partial_fit(X)
        self.stored_ = np.vstack([getattr(self, "stored_", np.empty((0, self.feature_map_.n_features))),
                                  self.features(X)])
        return self

    @property
    def space_(self):
        return super().space_ + self.stored_.size


class FrozenRFOja(RFOja):
    """Takes one Oja step on the first row it sees and ignores every later row:
    its subspace stays near the random start, so the captured held-out variance
    cannot approach ERM's (the quality part of ullah18.digits-curves must fail)."""

    def partial_fit(self, X):
        if not hasattr(self, "components_"):
            return super().partial_fit(np.asarray(X)[:1])
        self.n_samples_seen_ += len(X)
        return self
