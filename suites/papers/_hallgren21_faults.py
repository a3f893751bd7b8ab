"""Planted faults of the hallgren21 claims: deliberately broken variants of the
estimators and theory routines the claims declare. Each is an estimator
substitution (``Fault`` in :mod:`suites.papers.hallgren21`) that must turn its
claim's verdict to ``fails``; they live here, never in methods/ or theory/.
"""

import numpy as np

from kpca_suite.methods.centered_nystrom import CenteredNystromKPCA
from kpca_suite.methods.kpcr import KPCR
from kpca_suite.methods.nystrom import NystromKPCA
from kpca_suite.methods.subset_pca import SubsetPCA
from kpca_suite.theory.mehler import mehler_eigenvalues


def own_means(Kmm):
    """K_mm double-centred with its own row / column means,
    K_mm - 1_m K_mm - K_mm 1_m + 1_m K_mm 1_m, instead of with the full-data column
    means c of K_nm and s = c^T K_mm^{-1} c of Theorem 1."""
    return Kmm - Kmm.mean(axis=0)[None, :] - Kmm.mean(axis=1)[:, None] + Kmm.mean()


class OwnMeansCenteredNystrom(CenteredNystromKPCA):
    """Centred Nyström KPCA with K'_mm centred by the subset's own means."""

    def _centring(self, Kmm, colsum, n):
        terms = super()._centring(Kmm, colsum, n)
        return {**terms, "Kp_mm": own_means(Kmm)}


class OwnMeansSubsetPCA(SubsetPCA):
    """Subset PCA whose K'_mm is centred with its own means: rank m - 1, so it misses one
    direction of H_S and Proposition 2's equality at d = m breaks."""

    def _terms(self, Kmm, colsum, n):
        terms = super()._terms(Kmm, colsum, n)
        return {**terms, "Kp_mm": own_means(Kmm)}


class UncentredAsCentredNystrom(NystromKPCA):
    """An uncentred Nyström fit reported as the centred one (the mean direction counts
    as variance)."""

    def __init__(self, n_components, kernel, landmarks=100, **kw):
        super().__init__(n_components, kernel, landmarks=landmarks, center=False)


class KPCRWithoutFactorN(KPCR):
    """beta = Lambda_d^{-1} W_d^T y~: the (n Lambda_d)^{-1} of Sec. 8 with the factor n
    lost, as the paper's displayed formula reads."""

    def fit(self, X, y):
        super().fit(X, y)
        self.coef_ = self.coef_ * np.asarray(X).shape[0]
        return self


def unnormalised_gram_eigenvalues(K):
    """eig(K) where the eigenvalues of C_n are eig(K / n)."""
    return np.linalg.eigvalsh(K)[::-1]


def mehler_wrong_convention(gamma, data_var, count):
    """The oracle evaluated at gamma / 2: exp(-||x-y||^2 / (2 s^2)) read as gamma = 1/s^2."""
    return mehler_eigenvalues(gamma / 2, data_var, count)


class CoarseCutoffCenteredNystrom(CenteredNystromKPCA):
    """Centred Nyström KPCA that drops the eigenvalues of K'_mm below 1e-4 of the largest
    (instead of 1e-8): a plausible cut-off 'for stability' that moves the held-out
    columns by about 1e-3, too little for the in-sample order or the Nyström-KPCA gap."""

    def __init__(self, n_components, kernel, **kw):
        super().__init__(n_components, kernel, **{**kw, "rcond": 1e-4})



def contiguous_subsets(rng, n, m, R):
    """R subsets of m **consecutive** rows at a uniform random start (a slice instead of a
    sample): each row is equally likely, but rows that sit together in the file (the UCI
    sets are partly sorted) come together, so ||C_n - C_m||_HS^2 exceeds the expectation
    of a uniform subset, while coverage and every bound still hold."""
    return [np.arange(s, s + m) for s in rng.integers(0, n - m + 1, size=R)]
