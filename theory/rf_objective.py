"""Evaluating a random-feature subspace against the true kernel (Ullah et al.
2018, Def. 3.6 and Lemmas E.1 / E.2, made unambiguous).

An RF method outputs U (m x k) in feature space; its functions are
f_i(x) = z(x)^T u_i. Everything below needs only two k x k Gram matrices of
those functions,

.. math::  G_{ij} = \\langle f_i, f_j \\rangle_\\rho, \\qquad
           H_{ij} = \\langle f_i, L f_j \\rangle_\\rho,

which come either from the population (:func:`population_grams`: G = U^T C_m U,
H = U^T M U with C_m, M of :meth:`theory.mehler.MehlerModel.feature_population`)
or from N held-out points (:func:`heldout_grams`: G = F^T F / N,
H = F^T K F / N^2 with F = Z_te U, K the true Gram matrix, never formed).

Lifted objective (Def. 3.6 with Lemma E.2's normalisation, the variance the
paper's Fig. 2 plots), after the Procrustes rotation of U towards the top-k
eigenvectors Phi_k of C_m:

.. math::  J = \\sum_i H_{ii} / G_{ii}

(a sum of Rayleigh quotients of L; with N held-out points, sum_i f_i^T K f_i /
(N ||f_i||^2)). J depends on the basis and can exceed the optimum
sum_{i<=k} lambda_bar_i when the f_i are not rho-orthogonal (why the RF curves of
Fig. 2 "approach from above"). The projection-corrected objective (in the spirit
of Cor. C.12) is basis-invariant and never exceeds the optimum:

.. math::  J_{proj} = \\operatorname{tr}(G^{-1} H)
           = \\operatorname{tr}((F^T F)^{-1} F^T K F) / N.

Erratum: Lemma E.1's rotation R* = Phi_tilde^T Phi_k
is not orthogonal; the minimiser of ||Phi_tilde R - Phi_k||_F over orthogonal R
is R* = U V^T with Phi_tilde^T Phi_k = U S V^T (:func:`procrustes_rotation`).
:func:`lemma_e1_rotation` keeps the paper's literal formula for planted faults.
"""

from __future__ import annotations

import numpy as np

from kpca_suite.kernels import Kernel, kernel_matmat
from kpca_suite.kernels.validation import check_array
from kpca_suite.theory.mehler import weighted_gram_eigen


def _check_basis(U, name="U"):
    return check_array(U, name)


def procrustes_rotation(U_tilde, Phi_k) -> np.ndarray:
    """R* = argmin_{R orthogonal} ||U_tilde R - Phi_k||_F = P Q^T, where
    U_tilde^T Phi_k = P S Q^T (correct form of Lemma E.1 of Ullah et al. 2018)."""
    U_tilde, Phi_k = _check_basis(U_tilde, "U_tilde"), _check_basis(Phi_k, "Phi_k")
    if U_tilde.shape != Phi_k.shape:
        raise ValueError(f"U_tilde and Phi_k must have the same shape, got {U_tilde.shape} and {Phi_k.shape}")
    P, _, Qt = np.linalg.svd(U_tilde.T @ Phi_k)
    return P @ Qt


def lemma_e1_rotation(U_tilde, Phi_k) -> np.ndarray:
    """The paper's literal Lemma E.1: R* = U_tilde^T Phi_k. Not orthogonal in
    general (erratum); kept only as a planted fault."""
    U_tilde, Phi_k = _check_basis(U_tilde, "U_tilde"), _check_basis(Phi_k, "Phi_k")
    return U_tilde.T @ Phi_k


def population_grams(U, C, M):
    """G = U^T C U, H = U^T M U: the population Gram matrices of f_i = z^T u_i."""
    U = _check_basis(U)
    return U.T @ C @ U, U.T @ M @ U


def heldout_grams(F, X, kernel: Kernel, block_size=None):
    """G = F^T F / N, H = F^T K F / N^2 for the function values F (N x k) at the
    held-out rows X; K = k(X, X) is applied block by block (O(block_size N)
    memory, never N x N)."""
    F = check_array(F, "F")
    X = check_array(X, "X")
    if F.shape[0] != X.shape[0]:
        raise ValueError(f"F must have one row per row of X ({X.shape[0]}), got {F.shape[0]}")
    N = X.shape[0]
    return F.T @ F / N, F.T @ kernel_matmat(X, F, kernel, block_size=block_size) / N**2


def lifted_objective(G, H) -> float:
    """J = sum_i H_ii / G_ii (module docstring; Def. 3.6, Lemma E.2). Pass the
    Grams of the Procrustes-rotated basis."""
    G, H = check_array(G, "G"), check_array(H, "H")
    d = np.diag(G)
    if np.any(d <= 0):
        raise ValueError("G must have a positive diagonal (every f_i nonzero)")
    return float(np.sum(np.diag(H) / d))


def projected_objective(G, H) -> float:
    """J_proj = tr(G^{-1} H): the objective of the L^2(rho)-orthogonal projection
    onto span{f_i}; basis-invariant and <= the optimum (module docstring)."""
    G, H = check_array(G, "G"), check_array(H, "H")
    return float(np.trace(np.linalg.solve(G, H)))


def gram_deviation(G) -> float:
    """||D^{-1/2} G D^{-1/2} - I||_F with D = diag(G): how far the unit-normalised
    f_i are from rho-orthonormal (a proxy for the distance to a projection in Thm 4.2(b))."""
    G = check_array(G, "G")
    s = 1.0 / np.sqrt(np.diag(G))
    return float(np.linalg.norm(s[:, None] * G * s - np.eye(G.shape[0])))


def esl_quantity(Phi_k, U) -> float:
    """||(Phi_k^perp)^T U||_F^2 = k - ||Phi_k^T U||_F^2 for orthonormal Phi_k, U
    (Def. 4.1; Lemma C.9)."""
    Phi_k, U = _check_basis(Phi_k, "Phi_k"), _check_basis(U)
    return float(max(U.shape[1] - np.linalg.norm(Phi_k.T @ U) ** 2, 0.0))


def esl_first_order(F, weights, k: int) -> float:
    r"""The constant q of E ||(Phi_k^perp)^T U||_F^2 = q / n + O(n^-2) for U the top-k
    eigenvectors of C_hat_m = Z^T Z / n of n i.i.d. rows (the q/n of Lemma C.11, with its
    constant), from the first-order (Kato) expansion of the eigenspace:

    .. math::  q = \sum_{i \le k < j} \frac{E[y_i(x)^2 y_j(x)^2]}{(\lambda_i - \lambda_j)^2},
               \qquad y = V^T z(x),\ C_m = V \operatorname{diag}(\lambda) V^T,

    since (Phi_k^perp)^T U ~ [v_j^T (C_hat_m - C_m) v_i / (lambda_i - lambda_j)]_{j > k, i <= k} and
    Var(y_i y_j) = E[y_i^2 y_j^2] for i != j (E[y_i y_j] = 0).

    ``F`` (N, m) holds the features at quadrature nodes with ``weights`` (N,) summing to
    1 (:meth:`theory.mehler.MehlerModel.quadrature`); needs lambda_k > lambda_{k+1}.

    lambda and V come from :func:`theory.mehler.weighted_gram_eigen` (a thin SVD): with fewer
    nodes than features (N < m) the other m - N eigenvalues are 0 and their y_j vanish at every
    node, so their terms are 0."""
    F = check_array(F, "F")
    w = check_array(weights, "weights", ndim=1)
    if w.shape[0] != F.shape[0]:
        raise ValueError(f"weights must have one entry per row of F ({F.shape[0]}), got {w.shape[0]}")
    if not 1 <= k < F.shape[1]:
        raise ValueError(f"k must be in [1, m - 1] = [1, {F.shape[1] - 1}], got {k!r}")
    if k >= F.shape[0]:
        raise ValueError(f"k must be below the number of nodes ({F.shape[0]}): C_m has rank at most that, "
                         f"so lambda_(k+1) = 0 is not separated from the rest; got k = {k}")
    lam, V = weighted_gram_eigen(F, w)
    gaps = lam[:k, None] - lam[None, k:]
    if not gaps.min() > 0:
        raise ValueError(f"the first-order constant needs an eigengap: lambda_k = {lam[k - 1]!r} <= "
                         f"lambda_(k+1) = {lam[k]!r}")
    Y2 = (F @ V) ** 2
    fourth = (Y2[:, :k] * w[:, None]).T @ Y2[:, k:]  # E[y_i^2 y_j^2], i <= k < j
    return float(np.sum(fourth / gaps**2))


def eigen_overlap_distance(coef_top, U, G) -> float:
    """HS distance in L^2(rho) between the projection onto the top-k kernel
    eigenfunctions and the projection onto span{f_i}:

    .. math::  \\|P_L^k - P_F\\|_{HS}^2 = 2k - 2\\operatorname{tr}(O G^{-1} O^T),
               \\quad O = \\mathrm{coef\\_top}\\, U,

    where coef_top (k x m) holds <phi_bar_j, z_l>_rho for the top-k eigenfunctions
    (rows of :attr:`FeaturePopulation.coef`). Basis-invariant in U.
    """
    coef_top, U, G = check_array(coef_top, "coef_top"), _check_basis(U), check_array(G, "G")
    O = coef_top @ U
    k = coef_top.shape[0]
    return float(np.sqrt(max(2.0 * k - 2.0 * np.trace(O @ np.linalg.solve(G, O.T)), 0.0)))


def span_distance(FA, FB, weights) -> float:
    """Distance in L^2(rho) between the spans of two sets of k functions given by their
    values at quadrature nodes (FA, FB: N x k) with weights w (rho ≈ sum_i w_i delta_{x_i}):

    .. math::  \\|\\sin\\Theta\\|_F = \\|(I - P_A) Q_B\\|_F,
               \\quad Q_A, Q_B = \\text{orthonormal bases of } W^{1/2} F_A, W^{1/2} F_B,

    the Frobenius norm of the sines of the principal angles (0 for one span, sqrt(k) for
    orthogonal ones). Computed as a residual, not as sqrt(k - ||Q_A^T Q_B||_F^2), so two
    spans that agree to round-off read ~1e-15, not ~1e-8."""
    FA, FB = check_array(FA, "FA"), check_array(FB, "FB")
    sw = np.sqrt(check_array(weights, "weights", ndim=1))[:, None]
    QA, QB = np.linalg.qr(FA * sw)[0], np.linalg.qr(FB * sw)[0]
    return float(np.linalg.norm(QB - QA @ (QA.T @ QB)))
