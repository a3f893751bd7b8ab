"""The Fourier explicit-feature population model for the rates of Sterge et al. 2020
(eigenvalues lambda_i = i^-alpha or e^{-tau i}; not a model of the paper).

X ~ U[0, 1) and k(x, y) = Phi(x)^T Phi(y) with the J features of
:func:`kernels.fourier.fourier_features`, Phi_i = sqrt(lambda_i) psi_i. The RKHS is
R^J (the coordinates of f = sum_i c_i Phi_i are c), k(., x) = Phi(x), and the
uncentered covariance (eq. (1)) is exactly C = diag(lambda): the truncated model
*is* the model, so every population quantity below is exact, with no Monte Carlo.

The population reconstruction error of an orthogonal projector P onto span(Q)
(Sterge et al. 2020, identity (13)) is

.. math::  R(P) = \\operatorname{tr}((I - P) C) = \\sum_i \\lambda_i (1 - \\|Q_{i,:}\\|^2)

for an orthonormal basis Q (J x ell), and R_{C,ell} = sum_{i > ell} lambda_i (eq. (14)).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.linalg import eigh
from scipy.sparse.linalg import eigsh
from scipy.special import zeta

from kpca_suite.kernels.fourier import fourier_features, fourier_gram
from kpca_suite.kernels.validation import check_array, check_positive, check_random_state, check_rank

from .effective_dimension import check_eigenvalues, fourier_sup

DECAYS = ("poly", "exp")
POLY_J = 2048
ORTHONORMAL_ATOL = 1e-6


def check_decay(decay, rate, name: str = "rate") -> float:
    """``decay`` in {"poly", "exp"} and its rate: alpha > 1 (poly) or tau > 0 (exp)."""
    if decay not in DECAYS:
        raise ValueError(f"decay must be one of {DECAYS}, got {decay!r}")
    rate = check_positive(rate, name)
    if decay == "poly" and rate <= 1:
        raise ValueError(f"{name} must be > 1 for polynomial decay (alpha > 1), got {rate!r}")
    return rate


def default_J(decay: str, rate: float, poly_J: int = POLY_J) -> int:
    """Number of features of the truncated model.

    exp: J = ceil(40 / tau), so e^{-tau J} <= e^{-40} and K
    has numerical rank about J. poly: ``poly_J`` (default 2048). The truncated
    model is exact in itself; relative to the infinite model lambda_i = i^-alpha
    it drops the tail sum_{i > J} i^-alpha ~ J^{1-alpha} / (alpha - 1) (about
    4.9e-4 for alpha = 2, J = 2048), which must stay well below the smallest
    error measured (see :attr:`FourierModel.dropped_mass`).
    """
    rate = check_decay(decay, rate)
    if decay == "exp":
        return math.ceil(40.0 / rate)
    return check_positive(poly_J, "poly_J", integer=True)


def _projection_error(lam: np.ndarray, Q: np.ndarray) -> float:
    """sum_i lambda_i (1 - P_ii) with P = Q (Q^T Q)^{-1} Q^T, Q near-orthonormal.

    The Gram correction (Q^T Q)^{-1} makes the result depend on span(Q) only, so
    round-off in the orthonormality (checked <= 1e-6) does not enter R. Clipped
    at 0 against round-off (R = 0 when the span is all of R^J).
    """
    G = Q.T @ Q
    dev = float(np.max(np.abs(G - np.eye(Q.shape[1]))))
    if not dev <= ORTHONORMAL_ATOL:
        raise ValueError(f"basis must have orthonormal columns (Q^T Q = I within {ORTHONORMAL_ATOL}), "
                         f"got a max deviation of {dev:.3e}")
    diag_P = np.einsum("ij,ji->i", Q, np.linalg.solve(G, Q.T))
    return max(float(lam @ (1.0 - diag_P)), 0.0)


@dataclass(frozen=True)
class FourierModel:
    """Fourier population model with lambda_i = i^-alpha ("poly") or e^{-tau i} ("exp").

    Parameters
    ----------
    decay : {"poly", "exp"}
        Eigen-decay of Corollary 4.2 (polynomial) or 4.3 (exponential).
    rate : float
        alpha > 1 for "poly", tau > 0 for "exp".
    J : int, optional
        Number of features; :func:`default_J` when omitted.
    zero_mean : bool
        The zero-mean twin: the constant psi_1 = 1 is left out and lambda_1, ...,
        lambda_J weigh the next J basis functions (cos 2 pi x, sin 2 pi x, cos 4 pi x, ...),
        each of mean zero under U[0, 1). The mean embedding E Phi(X) is then 0, so the
        centred covariance C - mu mu^T and the uncentred C coincide (both diag(lambda)),
        and a centred and an uncentred KPCA have one estimand. The sample mean mu_n
        perturbs the centred C_n by mu_n mu_n^T with E||mu_n||^2 = tr(C) / n.
    """

    decay: str
    rate: float
    J: int | None = None
    zero_mean: bool = False

    default_J = staticmethod(default_J)

    def __post_init__(self):
        object.__setattr__(self, "rate", check_decay(self.decay, self.rate))
        J = default_J(self.decay, self.rate) if self.J is None else check_positive(self.J, "J", integer=True)
        object.__setattr__(self, "J", J)
        if not isinstance(self.zero_mean, bool):
            raise TypeError(f"zero_mean must be True or False, got {self.zero_mean!r}")

    @property
    def eigenvalues(self) -> np.ndarray:
        """lambda_i = i^-alpha or e^{-tau i}, i = 1..J (strictly decreasing: Assumption 3.2)."""
        i = np.arange(1, self.J + 1, dtype=np.float64)
        return i ** -self.rate if self.decay == "poly" else np.exp(-self.rate * i)

    @property
    def basis_weights(self) -> np.ndarray:
        """The weight of each basis function psi_1, psi_2, ... of
        :func:`kernels.fourier.fourier_features`: lambda itself, or (0, lambda_1, ...,
        lambda_J) for the zero-mean twin (psi_1 = 1 has weight 0). Pairwise ordered
        (:func:`theory.effective_dimension.check_pairwise_ordered`) either way."""
        lam = self.eigenvalues
        return np.concatenate(([0.0], lam)) if self.zero_mean else lam

    @property
    def kappa(self) -> float:
        """kappa = sup_x k(x, x) = w_1 + 2 sum_j w_{2j} for the basis weights w
        (Assumption 3.1): lambda_1 + 2 sum_j lambda_{2j}, or 2 sum_j lambda_{2j-1} for
        the zero-mean twin.

        k(x, x) = sum_i w_i psi_i(x)^2 and w_{2j} > w_{2j+1} (the
        cos weight beats the sin weight of each frequency), so the sup is at
        x = 0, where every cos^2 = 1 (proof in
        :func:`theory.effective_dimension.fourier_sup`).
        """
        return float(fourier_sup(self.basis_weights))

    @property
    def dropped_mass(self) -> float:
        """sum_{i > J} lambda_i of the infinite model: what the truncation leaves out.

        poly: Hurwitz zeta(alpha, J + 1); exp: e^{-tau (J+1)} / (1 - e^{-tau}).
        """
        if self.decay == "poly":
            return float(zeta(self.rate, self.J + 1))
        return float(np.exp(-self.rate * (self.J + 1)) / -np.expm1(-self.rate))

    def sample(self, n: int, random_state=None) -> np.ndarray:
        """n i.i.d. points X ~ U[0, 1), shape (n,)."""
        n = check_positive(n, "n", integer=True)
        return check_random_state(random_state).random(n)

    def features(self, x) -> np.ndarray:
        """Phi(x), shape (n, J) (:func:`kernels.fourier.fourier_features`; for the
        zero-mean twin without its constant column, whose weight is 0)."""
        return fourier_features(x, self.basis_weights, constant=not self.zero_mean)

    def sample_gram(self, x) -> np.ndarray:
        """Phi^T Phi (J x J) for Phi = ``features(x)``, from the trigonometric moments of x
        (:func:`kernels.fourier.fourier_gram`): O(n J + J^2) instead of O(n J^2)."""
        G = fourier_gram(x, self.basis_weights)
        return np.ascontiguousarray(G[1:, 1:]) if self.zero_mean else G

    def tail(self, ell: int) -> float:
        """R_{C,ell} = sum_{i > ell} lambda_i, 0 <= ell <= J (eq. (14) with identity (13))."""
        ell = check_positive(ell, "ell", integer=True, allow_zero=True)
        if ell > self.J:
            raise ValueError(f"ell = {ell} must not exceed J = {self.J}")
        return float(self.eigenvalues[ell:].sum())

    def reconstruction_error(self, basis) -> float:
        """Exact population error R(P) = tr((I - P) C) = sum_i lambda_i (1 - ||Q_{i,:}||^2).

        Sterge et al. 2020, identity (13). R(P) >= R_{C,ell} for every rank-ell P
        (population optimality: tr(P C) <= sum_{i <= ell} lambda_i by Ky Fan), with equality for
        Q = the first ell unit vectors.

        Parameters
        ----------
        basis : array of shape (J, ell)
            Orthonormal basis Q of the learned subspace in feature coordinates
            (:func:`basis_from_coefficients`); Q^T Q = I within 1e-6.
        """
        Q = check_array(basis, "basis")
        if Q.shape[0] != self.J:
            raise ValueError(f"basis must have J = {self.J} rows, got shape {Q.shape}")
        return _projection_error(self.eigenvalues, Q)


def basis_from_coefficients(Phi_S, A) -> np.ndarray:
    """Q = Phi_S^T A (J x ell): the learned basis in feature coordinates.

    phi_j = sum_r A[r, j] k(., s_r) = sum_r A[r, j] Phi(s_r), so column j of Q
    holds the coordinates of phi_j. A^T K_SS A = I (K_SS = Phi_S Phi_S^T) is
    exactly Q^T Q = I.

    Parameters
    ----------
    Phi_S : array of shape (m, J)
        Feature rows of the points the coefficients refer to (landmarks for
        Nyström, all n points for EKPCA).
    A : array of shape (m, ell)
        Coefficient matrix (Sterge et al. 2020: U_ell diag(e^{-1/2}) by eq. (6) for
        EKPCA, K_mm^{-1/2} U_ell by Prop. 3.4 for Nyström).
    """
    Phi_S = check_array(Phi_S, "Phi_S")
    A = check_array(A, "A")
    if A.shape[0] != Phi_S.shape[0]:
        raise ValueError(f"A must have as many rows as Phi_S ({Phi_S.shape[0]}), got shape {A.shape}")
    return Phi_S.T @ A


def top_eigh(S, k: int):
    """The top-k eigenpairs (descending) of the symmetric matrix S.

    Only k << size eigenvectors are needed, so ARPACK's Lanczos (``eigsh``,
    tol = 0: converged to machine precision; a fixed start vector keeps the
    result deterministic) replaces a full ``eigh``: on S = Phi^T Phi with
    J = 2048, k = 8 the projectors agree to 1e-14 and it is about 100x faster.
    LAPACK's subset ``eigh`` is used when k is not small against the size.
    """
    size = S.shape[0]
    if k < size // 10:
        e, V = eigsh(S, k=k, which="LA", tol=0, v0=np.random.default_rng(0).standard_normal(size))
    else:
        e, V = eigh(S, subset_by_index=[size - k, size - 1])
    return e[::-1], V[:, ::-1]


def smaller_gram(Phi) -> np.ndarray:
    """Phi^T Phi (J x J) when n >= J, else Phi Phi^T (n x n): the Gram of Phi (n x J) on
    its smaller side, whose nonzero eigenvalues are those of both."""
    n, J = Phi.shape
    return Phi.T @ Phi if n >= J else Phi @ Phi.T


def ekpca_population_error(Phi, ell: int, eigenvalues, gram=None) -> float:
    """Population error R(P^ell(C_n)) of EKPCA on the sample with features Phi.

    With C_n = Phi^T Phi / n (J x J, eq. (4) in coordinates), the EKPCA projector
    is onto its top-ell eigenvectors V_ell, and R = sum_i lambda_i (1 - ||V_{i,:}||^2).
    This is the kernel-side EKPCA exactly: with the SVD Phi = U S V^T,
    K = Phi Phi^T = U S^2 U^T, A = U_ell S_ell^{-1} (eq. (6)) and
    Q = Phi^T A = V_ell. The smaller side is used: the top-ell eigenvectors of
    Phi^T Phi when n >= J, else those of K with
    Q = Phi^T U_ell diag(eig(K)_ell^{-1/2}) (:func:`top_eigh`).

    Parameters
    ----------
    Phi : array of shape (n, J)
        Feature rows of the sample.
    ell : int
        Number of components, 1 <= ell <= min(n, J).
    eigenvalues : array of shape (J,)
        The population spectrum lambda (C = diag(lambda)).
    gram : array, optional
        The smaller-side Gram, :func:`smaller_gram` (Phi), when the caller has it
        already (its O(n J min(n, J)) product is most of the cost).
    """
    Phi = check_array(Phi, "Phi")
    n, J = Phi.shape
    lam = check_eigenvalues(eigenvalues)
    if lam.size != J:
        raise ValueError(f"eigenvalues must have length J = {J} (columns of Phi), got {lam.size}")
    ell = check_rank(ell, "ell", min(n, J), "min(n, J)")
    if gram is None:
        gram = smaller_gram(Phi)
    elif np.shape(gram) != (min(n, J),) * 2:
        raise ValueError(f"gram must be the {min(n, J)} x {min(n, J)} smaller-side Gram of Phi, "
                         f"got shape {np.shape(gram)}")
    if n >= J:
        Q = top_eigh(gram, ell)[1]
    else:
        e, U = top_eigh(gram, ell)
        if not e[-1] > 0:
            raise ValueError(f"ell = {ell} exceeds the rank of Phi (eigenvalue {e[-1]!r} of K)")
        Q = Phi.T @ (U / np.sqrt(e))
    return _projection_error(lam, Q)
