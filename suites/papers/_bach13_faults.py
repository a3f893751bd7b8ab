"""Planted faults of the bach13 claims: broken estimators and theory routines that a
claim declares as ``Fault(...)`` substitutions, each of which must turn its verdict to
"fails". They live here, never in kernels/, methods/ or theory/. Module-level, so a
process pool can pickle them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from kpca_suite.kernels.cholesky import CholeskyFactor
from kpca_suite.kernels.periodic import PeriodicKernel, bernoulli_polynomial
from kpca_suite.methods.krr import NystromFeatures, NystromKRR
from kpca_suite.theory.dof import optimal_lambda
from kpca_suite.theory.periodic import periodic_signal


@dataclass(frozen=True)
class LiteralBernoulliKernel(PeriodicKernel):
    """The paper's printed kernel B_{2 beta}(t) / (2 beta)!, t = (x - y) mod 1 (Sec. 5).

    It is the series sum_i 2 i^(-2 beta) cos(2 pi i t) times (-1)^(beta+1) (2 pi)^(-2 beta):
    negative semidefinite for even beta, and scaled by (2 pi)^(-2 beta) always.
    """

    def __post_init__(self):
        super().__post_init__()
        if self.decay != "poly":
            raise ValueError("the literal formula is the Bernoulli (poly) kernel's only")

    @property
    def factor(self) -> float:
        """(-1)^(beta+1) (2 pi)^(-2 beta): the printed formula over the series."""
        return (-1.0) ** (self.rate + 1) * (2 * math.pi) ** (-2 * self.rate)

    def mu(self, i) -> np.ndarray:
        return self.factor * super().mu(i)

    def of_difference(self, t) -> np.ndarray:
        t = np.asarray(t, dtype=np.float64)
        return bernoulli_polynomial(2 * self.rate, t - np.floor(t)) / math.factorial(2 * self.rate)

    def sup_diag(self, X=None) -> float:
        return self.factor * super().sup_diag()


def literal_bernoulli_kernel(decay, rate):
    """The kernel factory of the grid claims with the paper's printed Bernoulli formula
    (the exponential kernel is printed correctly and left alone)."""
    return LiteralBernoulliKernel(decay, rate) if decay == "poly" else PeriodicKernel(decay, rate)


class LambdaNotTimesN(NystromKRR):
    """Solves (Phi^T Phi + lambda I) w = Phi^T y: scikit-learn's alpha read as the paper's
    lambda, so the Nyström fit is regularised n times too little."""

    def fit(self, X, y):
        ridge = self.ridge
        self.ridge = ridge / np.asarray(X).shape[0]
        try:
            return super().fit(X, y)
        finally:
            self.ridge = ridge


def unorthogonalised_cholesky(X, kernel, rank, order="pivot", tol=1e-12) -> CholeskyFactor:
    """Incomplete Cholesky that forgets to subtract the previous columns at each step:
    G[:, j] = K[:, i] / sqrt(res_i). G G^T is then not the Nyström L of Eq. (4)."""
    n = X.shape[0]
    residual = np.array(kernel.diag(X, validate=False), dtype=np.float64)
    floor = tol * residual.max()
    candidates = None if isinstance(order, str) else list(np.asarray(order))
    G = np.zeros((n, rank))
    chosen, traces = [], [float(residual.sum())]
    while len(chosen) < rank:
        if candidates is None:
            i = int(np.argmax(residual))
        else:
            while candidates and residual[candidates[0]] <= floor:
                candidates.pop(0)
            if not candidates:
                break
            i = int(candidates.pop(0))
        if residual[i] <= floor:
            break
        G[:, len(chosen)] = kernel.block(X, X[i:i + 1], validate=False)[:, 0] / np.sqrt(residual[i])
        residual = np.clip(residual - G[:, len(chosen)] ** 2, 0.0, None)
        residual[i] = 0.0
        traces.append(float(residual.sum()))
        chosen.append(i)
    return CholeskyFactor(G[:, :len(chosen)], np.asarray(chosen, dtype=np.int64), np.asarray(traces))


class UnorthogonalisedNystrom(NystromKRR):
    """A Nyström fit whose factor ``features_`` (Phi with Phi Phi^T = L) comes from
    :func:`unorthogonalised_cholesky` on the columns it selected."""

    def fit(self, X, y):
        super().fit(X, y)
        self.features_ = unorthogonalised_cholesky(np.asarray(X, dtype=np.float64), self.kernel, self.rank_,
                                                   self.column_indices_).factor
        return self


def optimal_lambda_without_n(eigenvalues, energy, n, sigma2, **kw):
    """lambda* of z_hat = K (K + lambda I)^{-1} y (scikit-learn's alpha read as lambda): the
    eigenvalues e_j are compared with lambda instead of n lambda, i.e. the risk of n K with
    n lambda, so lambda* comes out exactly n times too large (the search range moves with it)."""
    lo, hi = kw.pop("log10_range", (-16.0, 2.0))
    return optimal_lambda(np.asarray(eigenvalues) * n, energy, n, sigma2, log10_range=(lo, hi + np.log10(n)), **kw)


def _crowded(X):
    """Indices of X from the point nearest x = 0.5 outwards."""
    return np.argsort(np.abs(X[:, 0] - 0.5), kind="stable")


def crowded_order(X, rng):
    """Columns nearest x = 0.5 first: a column set crowded in one spot of [0, 1), whose
    span misses most of the interval (replaces a column order)."""
    return _crowded(X)


@dataclass(frozen=True)
class CrowdedColumns:
    """A landmark strategy (``select``) that takes the m points nearest x = 0.5."""

    m: int

    def select(self, X, kernel, random_state=None) -> np.ndarray:
        return np.sort(_crowded(X)[:self.m])


def crowded_columns(n_components, budget, kernel, random_state):
    """A kernel-approximation factory whose ``budget`` columns are the points nearest x = 0.5
    (replaces uniform column sampling in bach13.rank-rule)."""
    return NystromFeatures(kernel, budget, sampling=CrowdedColumns(budget), random_state=random_state)


def eighth_budget(n_components, budget, kernel, random_state):
    """Uniform columns, but ceil(budget / 8) of them whatever the budget: p proportional to
    the budget (so to d) with a constant 8 times too small (replaces the uniform sampler)."""
    return NystromFeatures(kernel, math.ceil(budget / 8), sampling="uniform", random_state=random_state)


def crowded_subset(X, p, rng):
    """The p points nearest x = 0.5 instead of a uniform subset (replaces Lemma B.1's sampling)."""
    return _crowded(X)[:p]


def practical_rank(d, n, R2, lam):
    """p = d ln n instead of Eq. (6): not the theorem's rank."""
    return d * np.log(n)


def half_rate_signal(X, decay: str, rate: float) -> np.ndarray:
    """The signal with nu_i = i^(-delta) instead of i^(-2 delta) (rate read as 2 delta):
    Table 1's line 1 problem (delta = 4) becomes line 2's (delta = 2)."""
    return periodic_signal(X, decay, rate // 2)
