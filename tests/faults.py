"""Deliberately broken variants for the planted-fault tests. Each must turn a
claim's verdict to "fails"; they live here, never in methods/."""

import numpy as np

from kpca_suite.methods import NystromKPCA


class UnwhitenedNystrom(NystromKPCA):
    """Skips K_mm^{-1/2}: eigenvectors of K_mn K_nm / n used as coefficients, so
    A^T K_mm A != I (not orthonormal in the RKHS)."""

    def _eig(self, Gn, Kmm):
        self.effective_rank_ = Kmm.shape[0]
        mu, U = np.linalg.eigh(Gn)
        return mu[::-1], U[:, ::-1]


class UnregularisedNystrom(NystromKPCA):
    """The paper's literal K_mm^{-1/2} = V diag(s^{-1/2}) V^T with no cut-off
    (|s| so that round-off-negative eigenvalues do not give NaN): on an
    ill-conditioned K_mm the round-off is amplified by 1/sqrt(s_min)."""

    def _whitener(self, Kmm):
        s, V = np.linalg.eigh(Kmm)
        self.effective_rank_ = Kmm.shape[0]
        return (V / np.sqrt(np.abs(s))) @ V.T


class RandomSubspaceNystrom(NystromKPCA):
    """A valid projector (orthonormal in the RKHS) onto a random k-dimensional
    subspace of the landmark span instead of the top principal one."""

    def _eig(self, Gn, Kmm):
        mu, A = super()._eig(Gn, Kmm)
        rng = np.random.default_rng(0)
        R, _ = np.linalg.qr(rng.normal(size=(A.shape[1], A.shape[1])))
        return mu, A @ R


class ClusteredLandmarks:
    """A landmark 'strategy' that takes the m points with the largest second
    feature (cos 2 pi x: the points nearest x = 0), so the span misses most of
    the unit interval."""

    def __init__(self, m, s=None):
        self.m = m

    def select(self, X, kernel, random_state=None):
        return np.sort(np.argsort(-X[:, 1])[: self.m])


def unnormalised_gram_spectrum(Phi):
    """eig(K) instead of eig(K) / n: the leverage scores of K + s I instead of
    K + n s I (reference/seed000.md section 6, item 2)."""
    return np.linalg.eigvalsh(Phi.T @ Phi)


class CrowdedNystrom(NystromKPCA):
    """Uniform m replaced by the m points nearest the first sample: a landmark
    set that covers one corner of the data, so the span misses most of it."""

    def _strategy(self):
        m = self.landmarks

        class Nearest:
            def select(self, X, kernel, random_state=None):
                return np.sort(np.argsort(((X - X[0]) ** 2).sum(axis=1))[:m])

        return Nearest()
