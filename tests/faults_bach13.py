"""Deliberately broken pieces for the bach13 planted-fault tests. Each must turn a
claim's verdict to "fails"; they live here, never in methods/ or theory/."""

import numpy as np

from kpca_suite.methods.krr import NystromKRR
from kpca_suite.theory.dof import optimal_lambda
from kpca_suite.theory.periodic import PeriodicKernel


class LambdaNotTimesN(NystromKRR):
    """Solves (Phi^T Phi + lambda I) w = Phi^T y: scikit-learn's alpha read as lambda
    (reference/seed004.md pitfall 1), a Nyström fit regularised n times too little."""

    def fit(self, X, y):
        lam = self.lam
        self.lam = lam / np.asarray(X).shape[0]
        try:
            return super().fit(X, y)
        finally:
            self.lam = lam


def literal_bernoulli_kernel(decay, rate):
    """The paper's B_{2 beta}(t) / (2 beta)! (wrong sign for even beta, wrong scale)."""
    return PeriodicKernel(decay, rate, literal=(decay == "poly"))


def optimal_lambda_without_n(eigenvalues, energy, n, sigma2, **kw):
    """lambda* of z_hat = K (K + lambda I)^{-1} y (scikit-learn's alpha read as lambda): the
    eigenvalues e_j are compared with lambda instead of n lambda, i.e. the risk of n K with
    n lambda, so lambda* comes out exactly n times too large (the search range moves with it)."""
    lo, hi = kw.pop("log10_range", (-16.0, 2.0))
    return optimal_lambda(np.asarray(eigenvalues) * n, energy, n, sigma2, log10_range=(lo, hi + np.log10(n)), **kw)


def _crowded(X):
    return np.argsort(np.abs(X[:, 0] - 0.5), kind="stable")


def clustered_order(method, X, rng):
    """Columns nearest x = 0.5 first, for every method: a column set crowded in one spot of
    [0, 1), so its span misses most of the interval."""
    return _crowded(X)


def clustered_pivoting(method, X, rng):
    """Uniform order left alone; "pivoting" replaced by the crowded order."""
    return _crowded(X) if method == "pivot" else rng.permutation(X.shape[0])


def clustered_subset(X, p, rng):
    """The p points nearest x = 0.5 instead of a uniform subset."""
    return _crowded(X)[:p]


def unorthogonalised_cholesky_step(G, residual, column, j, i):
    """Incomplete Cholesky step that forgets to subtract the previous columns:
    G[:, j] = K[:, i] / sqrt(res_i). G G^T is then not the Nyström L of Eq. (4)."""
    pivot = np.sqrt(residual[i])
    G[:, j] = column / pivot
    residual[:] = np.clip(residual - G[:, j] ** 2, 0.0, None)
    residual[i] = 0.0
    return float(residual.sum())


def practical_rank(d, n, R2, lam):
    """p = d ln n instead of Eq. (6): not the theorem's rank."""
    return d * np.log(n)
