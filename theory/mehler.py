"""The Mehler oracle: the Gaussian kernel under Gaussian data, in closed form
(Rasmussen & Williams, GPML section 4.3.1): the population model with exact
ground truth.

1-D. For k(x, y) = exp(-gamma (x - y)^2) (the suite's convention; the length-scale
form exp(-(x-y)^2 / (2 l^2)) is gamma = 1 / (2 l^2)) and x ~ rho = N(0, s^2), put

.. math::  a = \\frac{1}{4 s^2},\\quad b = \\gamma,\\quad c = \\sqrt{a^2 + 2ab},
           \\quad A = a + b + c,\\quad B = b / A.

The integral operator (L g)(y) = int k(x, y) g(x) d rho(x) on L^2(rho) has the
geometric eigenvalues and Hermite eigenfunctions, j = 0, 1, 2, ...

.. math::  \\bar\\lambda_j = \\sqrt{2a/A}\\, B^j, \\qquad
           \\phi_j(x) = (c/a)^{1/4} \\, e^{-(c-a) x^2} \\, h_j(\\sqrt{2c}\\, x),

with h_j = H_j / sqrt(2^j j!) the normalised physicists' Hermite polynomials, so
that <phi_i, phi_j>_rho = delta_ij (the normalisation follows from
int e^{-u^2} H_j(u)^2 du = sqrt(pi) 2^j j!).

d-D (anisotropic). The kernel factorises over coordinates, exp(-gamma ||x - y||^2)
= prod_i exp(-gamma (x_i - y_i)^2), and so does rho = N(0, diag(s_1^2, ..., s_d^2)):
the eigenpairs are the products of the 1-D ones over multi-indices (j_1, ..., j_d).
Distinct variances make the leading eigenvalues distinct (an isotropic rho
repeats them).

Population integrals (the RF covariance C_m, <f, g>_rho, <f, L g>_rho) use
Gauss-Hermite quadrature: a tensor grid of ``n_nodes`` nodes per coordinate,
exact for polynomials of degree < 2 n_nodes times the Gaussian weight.

Centred. The mean embedding m(x) = E_y k(x, y) is not zero, and the centred
covariance operator Sigma = C - mu (x) mu acts on L^2(rho) as the integral operator
of the centred kernel

.. math::  k_c(x, y) = k(x, y) - m(x) - m(y) + E_{x', y'} k(x', y'),

which has no closed-form spectrum. On the quadrature nodes x_q with weights w_q it is
the matrix K_c = (I - 1 w^T) K (I - w 1^T), and the eigenpairs of
W^{1/2} K_c W^{1/2} = U Lambda U^T (W = diag(w)) are its eigenvalues and its
eigenfunctions at the nodes, psi_j(x_q) = U_qj / sqrt(w_q) (the Nyström method with
Gauss-Hermite weights, exponentially accurate for this analytic kernel: the same
construction without the centring gives Mehler's closed-form eigenvalues to 1e-13,
tests/test_mehler.py).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from itertools import product

import numpy as np
from numpy.polynomial.hermite_e import hermegauss

from kpca_suite.kernels import Kernel
from kpca_suite.kernels.validation import check_array, check_positive, check_random_state


def mehler_constants(gamma: float, data_var: float):
    """(a, b, c, A, B) of the module docstring for exp(-gamma (x-y)^2), x ~ N(0, data_var)."""
    gamma = check_positive(gamma, "gamma")
    data_var = check_positive(data_var, "data_var")
    a = 1.0 / (4.0 * data_var)
    b = gamma
    c = np.sqrt(a * a + 2.0 * a * b)
    A = a + b + c
    return a, b, c, A, b / A


def mehler_eigenvalues(gamma: float, data_var: float, count: int) -> np.ndarray:
    """The first ``count`` eigenvalues (descending, j = 0..count-1) of the integral
    operator of k(x, y) = exp(-gamma (x - y)^2) on L^2(N(0, data_var)), 1-D.

    .. math::  \\bar\\lambda_j = \\sqrt{2a/A}\\, B^j, \\quad a = 1/(4\\,\\mathrm{data\\_var}),
               \\ b = \\gamma,\\ c = \\sqrt{a^2 + 2ab},\\ A = a + b + c,\\ B = b/A

    (GPML eq. 4.41). They sum to k(x, x) = 1 as
    count -> infinity.
    """
    count = check_positive(count, "count", integer=True)
    a, _, _, A, B = mehler_constants(gamma, data_var)
    return np.sqrt(2.0 * a / A) * B ** np.arange(count, dtype=np.float64)


def mehler_eigenfunctions(x, gamma: float, data_var: float, count: int) -> np.ndarray:
    """phi_j(x) for j = 0..count-1 (module docstring), shape (len(x), count),
    orthonormal in L^2(N(0, data_var)).

    The normalised Hermite functions come from the stable three-term recurrence
    h_{j+1}(u) = sqrt(2/(j+1)) u h_j(u) - sqrt(j/(j+1)) h_{j-1}(u), h_0 = 1.
    """
    x = check_array(x, "x", ndim=1)
    count = check_positive(count, "count", integer=True)
    a, _, c, _, _ = mehler_constants(gamma, data_var)
    u = np.sqrt(2.0 * c) * x
    H = np.empty((x.size, count))
    H[:, 0] = 1.0
    if count > 1:
        H[:, 1] = np.sqrt(2.0) * u
    for j in range(1, count - 1):
        H[:, j + 1] = np.sqrt(2.0 / (j + 1)) * u * H[:, j] - np.sqrt(j / (j + 1)) * H[:, j - 1]
    return (c / a) ** 0.25 * np.exp(-(c - a) * x * x)[:, None] * H


def weighted_gram_eigen(F, w):
    """(lam, V): the eigenvalues, descending, and orthonormal eigenvectors of F^T diag(w) F
    (F is N x m, w >= 0), from the thin SVD of diag(sqrt(w)) F: min(N, m) pairs. When N < m
    the other m - N eigenvalues are 0 and F V = 0 on their eigenvectors. N m min(N, m)
    flops where an eigh of the m x m Gram costs m^3 (N = 100 quadrature nodes, m = 512: 4 ms
    against 35)."""
    _, s, Vt = np.linalg.svd(F * np.sqrt(w)[:, None], full_matrices=False)
    return s**2, Vt.T


def gauss_hermite(data_var: float, n_nodes: int):
    """Nodes and weights (summing to 1) of n_nodes-point Gauss-Hermite quadrature
    for E[f(x)], x ~ N(0, data_var)."""
    data_var = check_positive(data_var, "data_var")
    n_nodes = check_positive(n_nodes, "n_nodes", integer=True)
    t, w = hermegauss(n_nodes)
    return np.sqrt(data_var) * t, w / w.sum()


@dataclass(frozen=True)
class MehlerModel:
    """Gaussian kernel exp(-gamma ||x - y||^2) with x ~ N(0, diag(data_vars)).

    Parameters
    ----------
    gamma : float > 0
    data_vars : tuple of float > 0
        Per-coordinate variances s_i^2 (d = len(data_vars)); distinct values
        give distinct leading eigenvalues.
    n_nodes : int
        Gauss-Hermite nodes per coordinate (the grid has n_nodes^d points).
    tol : float
        Product eigenpairs with eigenvalue >= tol are kept (``n_eigen``); the
        dropped operator mass is at most the sum of the dropped eigenvalues,
        :attr:`dropped_mass`.
    """

    gamma: float = 1.0
    data_vars: tuple = (1.0,)
    n_nodes: int = 100
    tol: float = 1e-14

    def __post_init__(self):
        object.__setattr__(self, "gamma", check_positive(self.gamma, "gamma"))
        vs = tuple(check_positive(float(v), "data_vars") for v in np.atleast_1d(self.data_vars))
        if not vs:
            raise ValueError("data_vars must hold at least one variance")
        object.__setattr__(self, "data_vars", vs)
        object.__setattr__(self, "n_nodes", check_positive(self.n_nodes, "n_nodes", integer=True))
        object.__setattr__(self, "tol", check_positive(self.tol, "tol"))

    @property
    def d(self) -> int:
        return len(self.data_vars)

    def _per_dim_counts(self):
        """Per coordinate: how many 1-D eigenvalues can enter a product >= tol."""
        counts = []
        for v in self.data_vars:
            a, _, _, A, B = mehler_constants(self.gamma, v)
            lam0 = np.sqrt(2.0 * a / A)
            counts.append(int(np.floor(np.log(self.tol / lam0) / np.log(B))) + 1)
        return counts

    def _spectrum(self):
        counts = self._per_dim_counts()
        per = [mehler_eigenvalues(self.gamma, v, c) for v, c in zip(self.data_vars, counts)]
        idx = np.array(list(product(*[range(c) for c in counts])), dtype=np.int64).reshape(-1, self.d)
        lam = np.ones(idx.shape[0])
        for i in range(self.d):
            lam *= per[i][idx[:, i]]
        keep = lam >= self.tol
        order = np.argsort(-lam[keep], kind="stable")
        return lam[keep][order], idx[keep][order]

    @property
    def eigenvalues(self) -> np.ndarray:
        """All kept product eigenvalues, descending (length ``n_eigen``)."""
        return self._spectrum()[0]

    @property
    def multi_indices(self) -> np.ndarray:
        """(n_eigen, d) the 1-D indices (j_1..j_d) of each kept eigenvalue."""
        return self._spectrum()[1]

    @property
    def dropped_mass(self) -> float:
        """1 - sum of kept eigenvalues (the trace of L is k(x, x) = 1)."""
        return float(max(1.0 - self.eigenvalues.sum(), 0.0))

    def optimum(self, k: int) -> float:
        """sum_{i <= k} lambda_bar_i: the optimal KPCA objective <P_C^k, C> (Ullah et al. 2018, Eq. (3))."""
        k = check_positive(k, "k", integer=True)
        return float(self.eigenvalues[:k].sum())

    def sample(self, n: int, random_state=None) -> np.ndarray:
        """n i.i.d. rows from N(0, diag(data_vars))."""
        n = check_positive(n, "n", integer=True)
        rng = check_random_state(random_state)
        return rng.standard_normal((n, self.d)) * np.sqrt(np.asarray(self.data_vars))

    def eigenfunctions(self, X, count=None) -> np.ndarray:
        """Values of the leading ``count`` (default all kept) product eigenfunctions
        at the rows of X, shape (len(X), count)."""
        X = check_array(X, "X")
        if X.shape[1] != self.d:
            raise ValueError(f"X must have d = {self.d} columns, got {X.shape[1]}")
        idx = self.multi_indices
        if count is not None:
            idx = idx[:check_positive(count, "count", integer=True)]
        out = np.ones((X.shape[0], idx.shape[0]))
        for i, v in enumerate(self.data_vars):
            per = mehler_eigenfunctions(X[:, i], self.gamma, v, int(idx[:, i].max()) + 1)
            out *= per[:, idx[:, i]]
        return out

    def quadrature(self):
        """Tensor Gauss-Hermite grid: nodes (n_nodes^d, d) and weights summing to 1, built
        once per grid (read-only arrays: the claims ask for them in every cell)."""
        return _tensor_rule(self.data_vars, self.n_nodes)

    def centred_spectrum(self):
        """The centred operator (module docstring) on the quadrature grid: its
        eigenvalues Lambda (descending, round-off negatives clipped to 0) and U with
        W^{1/2} K_c W^{1/2} = U diag(Lambda) U^T. O(N^3) for N = n_nodes^d nodes."""
        return _centred_spectrum(self.gamma, self.data_vars, self.n_nodes)

    def centred_optimum(self, k: int) -> float:
        """sum_{i <= k} of the centred eigenvalues: the optimal centred KPCA objective."""
        k = check_positive(k, "k", integer=True)
        return float(self.centred_spectrum()[0][:k].sum())

    def centred_feature_population(self, features) -> "FeaturePopulation":
        """Population moments of a finite map f(x) in R^k (a centring estimator's
        ``transform``: the scores of the centred projection) against the centred
        operator:

        C = E_rho[f(x) f(x)^T], the second moment about 0, so a map whose scores keep
        a mean (centred in ``fit`` but not in ``transform``) counts it against itself,
        M = E_{x, y}[f(x) k_c(x, y) f(y)^T] = sum_j Lambda_j a_j a_j^T,
        a_j = <psi_j, f>_rho (k_c removes constants, so M is that of f - E f).

        tr(C^{-1} M) is at most the centred optimum, with equality for the top
        centred eigenfunctions; ``coef`` and ``eigenvalues`` are those of the centred
        operator, complete on the grid.
        """
        nodes, w = self.quadrature()
        F = self._features_at(features, nodes)
        lam, U = self.centred_spectrum()
        coef = U.T @ (F * np.sqrt(w)[:, None])
        return FeaturePopulation(F.T @ (F * w[:, None]), (coef * lam[:, None]).T @ coef, coef, lam)

    def _features_at(self, features, nodes) -> np.ndarray:
        F = np.asarray(features(nodes), dtype=np.float64)
        if F.ndim != 2 or F.shape[0] != nodes.shape[0]:
            raise ValueError(f"features must map (N, {self.d}) nodes to an (N, m) array, got {F.shape}")
        return F

    def feature_spectrum(self, features) -> np.ndarray:
        """Every eigenvalue of the population C = E_rho[f(x) f(x)^T] of :meth:`feature_population`,
        descending, without forming C: :func:`weighted_gram_eigen` at the quadrature nodes,
        then zeros up to m (C has rank at most the number of nodes)."""
        nodes, w = self.quadrature()
        F = self._features_at(features, nodes)
        lam, _ = weighted_gram_eigen(F, w)
        return np.concatenate([lam, np.zeros(F.shape[1] - len(lam))])

    def feature_population(self, features) -> "FeaturePopulation":
        """Population Gram matrices of a finite feature map f(x) in R^m (e.g. a
        drawn random Fourier feature map's ``transform``), by quadrature:

        C = E_rho[f(x) f(x)^T]  (Ullah et al. 2018, Def. 3.4: C_m for f = z),
        M = E_{x, y}[f(x) k(x, y) f(y)^T] = sum_j lambda_bar_j a_j a_j^T,
        a_j = <phi_j, f>_rho,

        so <F u, F v>_rho = u^T C v and <F u, L F v>_rho = u^T M v for the
        functions (F u)(x) = f(x)^T u. M is truncated at the kept eigenpairs
        (error <= dropped_mass * max ||f||^2).
        """
        nodes, w = self.quadrature()
        F = self._features_at(features, nodes)
        Fw = F * w[:, None]
        coef = _eigenfunctions_at_nodes(self).T @ Fw
        lam = self.eigenvalues
        return FeaturePopulation(F.T @ Fw, (coef * lam[:, None]).T @ coef, coef, lam)


@functools.lru_cache(maxsize=8)
def _tensor_rule(data_vars: tuple, n_nodes: int):
    """:meth:`MehlerModel.quadrature`: the product of the per-coordinate Gauss-Hermite rules,
    the last coordinate varying fastest; weights multiplied in coordinate order."""
    rules = [gauss_hermite(v, n_nodes) for v in data_vars]
    nodes = np.array(list(product(*[r[0] for r in rules]))).reshape(-1, len(data_vars))
    weights = np.array([np.prod(w) for w in product(*[r[1] for r in rules])])
    nodes.flags.writeable = weights.flags.writeable = False
    return nodes, weights


@functools.lru_cache(maxsize=8)
def _eigenfunctions_at_nodes(model: MehlerModel) -> np.ndarray:
    """``model.eigenfunctions`` at its quadrature nodes (read-only), once per model."""
    values = model.eigenfunctions(model.quadrature()[0])
    values.flags.writeable = False
    return values


@functools.lru_cache(maxsize=8)
def _centred_spectrum(gamma: float, data_vars: tuple, n_nodes: int):
    """:meth:`MehlerModel.centred_spectrum`, once per model."""
    nodes, w = MehlerModel(gamma, data_vars, n_nodes).quadrature()
    K = Kernel("gaussian", gamma=gamma).block(nodes, nodes)
    Kw = K @ w
    Kc = K - Kw[:, None] - Kw[None, :] + w @ Kw
    r = np.sqrt(w)
    lam, U = np.linalg.eigh(r[:, None] * Kc * r[None, :])
    lam, U = np.clip(lam[::-1], 0.0, None), U[:, ::-1]
    lam.flags.writeable = U.flags.writeable = False
    return lam, U


@dataclass(frozen=True)
class FeaturePopulation:
    """Exact population second moments of a feature map under a :class:`MehlerModel`.

    Attributes
    ----------
    C : (m, m) E[f f^T] (the population RF covariance C_m of Ullah et al. 2018, Def. 3.4).
    M : (m, m) E[f(x) k(x, y) f(y)^T]: the operator L in feature coordinates.
    coef : (J, m) <phi_j, f_l>_rho, the eigenfunction coefficients of the features.
    eigenvalues : (J,) lambda_bar_j, descending.
    """

    C: np.ndarray
    M: np.ndarray
    coef: np.ndarray
    eigenvalues: np.ndarray
