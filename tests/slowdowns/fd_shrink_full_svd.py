"""A planted slowdown a developer could plausibly commit: the Frequent Directions
shrink through a full SVD of the ell x d sketch instead of the eigh of its ell x ell
Gram matrix (the same sketch up to round-off and row signs, several times slower).

A pytest plugin (``-p tests.slowdowns.fd_shrink_full_svd``): loaded, it swaps the
shrink for this one, so that the regression check of the micro-benchmarks can be
shown to catch it (``python -m tests.slowdowns.check``)."""

from __future__ import annotations

import numpy as np

from kpca_suite.kernels.frequent_directions import FrequentDirections


def _shrink_by_full_svd(self, j):
    B = self.sketch_
    _, sigma, Vt = np.linalg.svd(B, full_matrices=True)
    lam = sigma ** 2
    delta = max(float(lam[j - 1]), 0.0)
    keep = j - 1
    self.sketch_[:keep] = np.sqrt(np.maximum(lam[:keep] - delta, 0.0))[:, None] * Vt[:keep]
    self.sketch_[keep:] = 0.0
    self.n_filled_ = keep
    self.delta_ += delta
    self.n_shrinks_ += 1


def pytest_configure(config):
    FrequentDirections._shrink = _shrink_by_full_svd
