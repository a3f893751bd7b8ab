"""What several bach13 families share: the periodic population problems, KRR risks in a basis,
column orders and planted faults."""

from __future__ import annotations

import numpy as np
import scipy.linalg as sla

from kpca_suite.kernels import Kernel
from kpca_suite.kernels.cholesky import CholeskyFactor
from kpca_suite.kernels.periodic import PeriodicKernel
from kpca_suite.theory.dof import dof_from_eigh, krr_risk, optimal_lambda
from kpca_suite.theory.periodic import periodic_signal, uniform_design

from ...claim import Grid

SIGMA2 = 1.0          # noise variance of every risk (the paper does not report its sigma^2)


SIGNAL = ("poly", 2)  # nu_i = i^-4 (delta = 2): f(x) = 2 pi^2 B_2(x), the beta = 1 kernel at (x, 0)


KERNEL_NAMES = {("poly", 1): "B_2", ("poly", 2): "B_4", ("poly", 4): "B_8", ("exp", 0.5): "exp(ρ=0.5)",
                ("exp", 1.0): "exp(ρ=1)",
                ("gaussian", 10.0): "Gaussian γ=10"}


def _kernel(p):
    """The cell's kernel: periodic (kdecay "poly" or "exp", rate krate), or the Gaussian
    kernel exp(-krate (x - y)^2) on [0, 1) (kdecay "gaussian"), which is not periodic."""
    if p["kdecay"] == "gaussian":
        return Kernel("gaussian", gamma=p["krate"])
    return PeriodicKernel(p["kdecay"], p["krate"])


def _per_kernel(kernels, sizes, seeds, methods, **params):
    """One Grid per (kdecay, krate) kernel: a tuple of Grids for PerProfile."""
    return tuple(Grid(sizes=tuple(sizes), seeds=seeds, params=dict(kdecay=kd, krate=kr, **params), methods=methods,
                      describe=f"{KERNEL_NAMES[kd, kr]}: n in {list(sizes)}, {seeds} seed(s)")
                 for kd, kr in kernels)


def _random_problem(cell, lam_scale: float = 1.0):
    """Uniform random design, the kernel of the cell, z = f(X), K's eigendecomposition,
    lambda* of the exact full-KRR risk (times ``lam_scale``) and the df at that lambda."""
    X = uniform_design(cell.n, cell.rng())
    kern = _kernel(cell.p)
    z = periodic_signal(X, *SIGNAL)
    K = kern.block(X)
    e, U = np.linalg.eigh(K)
    e = np.clip(e, 0.0, None)
    energy = (U.T @ z) ** 2
    lam, _ = optimal_lambda(e, energy, cell.n, SIGMA2)
    lam *= lam_scale
    bias, var = krr_risk(e, energy, cell.n, lam, SIGMA2)
    dof = dof_from_eigh(e, U, lam)
    return dict(X=X, kern=kern, z=z, K=K, e=e, U=U, lam=lam, risk=bias + var, dof=dof)


def _risk_in_basis(M, q, zz, n, lam, sigma2):
    """Exact risk of the KRR smoother of L = Q M Q^T (Q orthonormal columns, M PSD) at
    lambda, from q = Q^T z and zz = ||z||^2.

    The smoother is Q S Q^T with S = (M + n lambda I)^{-1} M (symmetric), so
    bias = (1/n) (||z||^2 - ||q||^2 + ||(I - S) q||^2) and variance = (sigma^2 / n) ||S||_F^2
    (:func:`theory.dof.krr_risk` in L's eigenbasis). O(k^3) for k = len(q)."""
    k = M.shape[0]
    if k == 0:
        return zz / n  # L = 0 predicts 0: all bias
    S = sla.cho_solve(sla.cho_factor(M + n * lam * np.eye(k)), M)
    bias = (max(zz - q @ q, 0.0) + np.sum((q - S @ q) ** 2)) / n
    return bias + sigma2 * np.sum(S**2) / n


def nested_risks(G, z, lam, sigma2):
    """Exact risk (:func:`theory.dof.krr_risk`) of L_p = G_p G_p^T for every prefix p = 1..r
    of the columns of G, by Cholesky solves instead of r eigendecompositions.

    G = Q R (QR is nested: Q_p spans G_p and G_p = Q_p R_p, R_p = R[:p, :p]), so L_p =
    Q_p M_p Q_p^T with M_p = R_p R_p^T, and the risk of prefix p is :func:`_risk_in_basis`
    of (M_p, q_p), q = Q^T z. O(n r^2 + sum_p p^3 / 3).
    """
    Q, R = np.linalg.qr(G)
    q = Q.T @ z
    n = G.shape[0]
    zz = float(z @ z)
    out = np.empty(G.shape[1])
    for k in range(1, G.shape[1] + 1):
        out[k - 1] = _risk_in_basis(R[:k, :k] @ R[:k, :k].T, q[:k], zz, n, lam, sigma2)
    return out


def random_order(X, rng):
    """Column order of uniform sampling: a uniform random permutation, whose prefixes are
    uniform samples without replacement (Eq. (4)), for the incomplete Cholesky."""
    return rng.permutation(X.shape[0])


def pivot_order(X, rng):
    """Column order of incomplete Cholesky with column pivoting (largest residual first)."""
    return "pivot"


def _settled_at_most(values, level):
    """The smallest 1-based p with values[p' - 1] <= level for every p' >= p, or len + 1."""
    above = np.flatnonzero(np.asarray(values) > level)
    return int(above[-1]) + 2 if above.size else 1


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


# -- the claims ------------------------------------------------------------------------------

_RANDOM_DESIGN = ("uniform random design x_i ~ U[0, 1), signal f with nu_i = i^-4 (δ = 2), noise σ² = 1; "
                  "λ* minimises the exact full-KRR risk; no bandwidth rule (fixed periodic kernels)")


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


def _crowded(X):
    """Indices of X from the point nearest x = 0.5 outwards."""
    return np.argsort(np.abs(X[:, 0] - 0.5), kind="stable")
