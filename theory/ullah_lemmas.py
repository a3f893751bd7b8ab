"""The deterministic lemmas and the assumption quantities of Ullah et al. (2018)
("Streaming kernel PCA with O~(sqrt n) random features"), as functions of arrays.

Each lemma returns ``(lhs, rhs)`` so a caller checks ``lhs <= rhs`` (or equality
for C.9) and can report the slack. Norms follow the paper: nuclear (trace)
norm for C.6, Frobenius for C.8 / C.9, any sub-multiplicative norm for F.1
(``"spectral"`` or ``"fro"``).

The assumption quantities (Eq. (4), Def. 3.3, Cor. 4.3) take the Gram matrix
g_ab = <z_{omega_a}, z_{omega_b}>_rho of single random features
z_omega(x) = sqrt(2) cos(omega^T x + b) (no 1/sqrt(m)), e.g. m times the
population C_m of the "cos" map.
"""

from __future__ import annotations

import numpy as np

from kpca_suite.kernels.validation import check_array, check_positive, check_rank

from .rf_objective import procrustes_rotation

NORMS = {"spectral": 2, "fro": "fro"}


def _unit(v, name):
    v = check_array(v, name, ndim=1)
    return v / np.linalg.norm(v)


def lemma_c6(phi, phi_hat):
    """C.6: ||phi phi^T - phi_hat phi_hat^T||_* <= 2 ||phi - phi_hat||_2 (unit vectors)."""
    phi, phi_hat = _unit(phi, "phi"), _unit(phi_hat, "phi_hat")
    lhs = np.linalg.svd(np.outer(phi, phi) - np.outer(phi_hat, phi_hat), compute_uv=False).sum()
    return float(lhs), float(2.0 * np.linalg.norm(phi - phi_hat))


def lemma_c7(C, i: int, phi_hat):
    """C.7: with (lambda_j, phi_j) the eigenpairs of the PSD matrix C (descending)
    and lambda_hat = phi_hat^T C phi_hat for a unit phi_hat, if
    ||phi_i - phi_hat|| <= lambda_i / (4 lambda_1) then
    |(lambda_i - lambda_hat) / (lambda_i lambda_hat)| <= 4 lambda_1 / lambda_i^2 ||phi_i - phi_hat||.

    The sign of phi_i is chosen to face phi_hat. Returns (lhs, rhs, applies).
    """
    C = check_array(C, "C")
    e, V = np.linalg.eigh(C)
    e, V = e[::-1], V[:, ::-1]
    i = check_rank(i + 1, "i + 1", C.shape[0], "the size of C") - 1
    phi_hat = _unit(phi_hat, "phi_hat")
    phi = V[:, i] * np.sign(V[:, i] @ phi_hat or 1.0)
    dist = np.linalg.norm(phi - phi_hat)
    lam, lam_hat = e[i], phi_hat @ C @ phi_hat
    return float(abs((lam - lam_hat) / (lam * lam_hat))), float(4 * e[0] / lam**2 * dist), bool(dist <= lam / (4 * e[0]))


def lemma_c8(U, V, rotation=procrustes_rotation):
    """C.8 (Ge et al. 2017): ||U - V R||_F^2 <= ||U U^T - V V^T||_F^2 / (2 (sqrt 2 - 1))
    for orthonormal U, V (n x k) and R the optimal rotation of V onto U."""
    U, V = check_array(U, "U"), check_array(V, "V")
    R = rotation(V, U)
    lhs = np.linalg.norm(U - V @ R) ** 2
    return float(lhs), float(np.linalg.norm(U @ U.T - V @ V.T) ** 2 / (2 * (np.sqrt(2) - 1)))


def lemma_c9(Phi_k, Phi_hat):
    """C.9: ||P - P_hat||_F^2 = 2 (k - <P, P_hat>) = 2 ||(Phi_k^perp)^T Phi_hat||_F^2
    for P = Phi_k Phi_k^T, P_hat = Phi_hat Phi_hat^T (orthonormal, m x k).
    Returns the three values."""
    Phi_k, Phi_hat = check_array(Phi_k, "Phi_k"), check_array(Phi_hat, "Phi_hat")
    P, Ph = Phi_k @ Phi_k.T, Phi_hat @ Phi_hat.T
    k = Phi_k.shape[1]
    perp = Phi_hat - Phi_k @ (Phi_k.T @ Phi_hat)
    return (float(np.linalg.norm(P - Ph) ** 2), float(2 * (k - np.sum(P * Ph))),
            float(2 * np.linalg.norm(perp) ** 2))


def lemma_f1(A, B, mu: float, alpha: float, norm: str = "spectral"):
    """F.1 (gap-free Wedin): ||U^T V|| <= ||A - B|| / alpha, with U the eigenvectors
    of the symmetric A with eigenvalue <= mu and V those of B with eigenvalue
    >= mu + alpha."""
    A, B = check_array(A, "A"), check_array(B, "B")
    alpha = check_positive(alpha, "alpha")
    if norm not in NORMS:
        raise ValueError(f"norm must be one of {tuple(NORMS)}, got {norm!r}")
    ea, Ua = np.linalg.eigh(A)
    eb, Vb = np.linalg.eigh(B)
    U, V = Ua[:, ea <= mu], Vb[:, eb >= mu + alpha]
    lhs = np.linalg.norm(U.T @ V, NORMS[norm]) if U.size and V.size else 0.0
    return float(lhs), float(np.linalg.norm(A - B, NORMS[norm]) / alpha)


# -- assumption quantities ---------------------------------------------------------

def c_prime_spectrum(g) -> np.ndarray:
    """Eigenvalues (descending) of the empirical C' = E[C_1 (x) C_1] - E C_1 (x) E C_1
    (Def. 3.3), C_1 = z_omega (x)_rho z_omega, from M sampled frequencies:
    <C_1^a, C_1^b>_HS = g_ab^2, so they are the eigenvalues of the doubly
    centred (g_ab^2) / M. Cor. 4.3 assumes lambda_j(C') = alpha^j."""
    g = check_array(g, "g")
    if g.shape[0] != g.shape[1]:
        raise ValueError(f"g must be square, got shape {g.shape}")
    H = g**2
    H = H - H.mean(axis=0) - H.mean(axis=1)[:, None] + H.mean()
    return np.maximum(np.linalg.eigvalsh(H / g.shape[0])[::-1], 0.0)


def b_k(g, kernel_eigenvalues, k: int) -> float:
    """Eq. (4): B_k = sqrt(E_pi <z_omega, z_omega>_rho^4) / (lambda_bar_k - lambda_bar_{k+1}),
    the expectation over the sampled frequencies (the diagonal of g)."""
    g = check_array(g, "g")
    lam = check_array(kernel_eigenvalues, "kernel_eigenvalues", ndim=1)
    k = check_rank(k, "k", lam.size - 1, "len(kernel_eigenvalues) - 1")
    gap = lam[k - 1] - lam[k]
    if not gap > 0:
        raise ValueError(f"the eigengap lambda_bar_k - lambda_bar_(k+1) must be > 0, got {gap!r}")
    return float(np.sqrt(np.mean(np.diag(g) ** 4)) / gap)


def kappa(B, k: int, m: int, c_prime_eigenvalues) -> float:
    """Eq. (4): kappa(B_k, k, m) = inf_{h >= 0} [ B_k h / m + sqrt((k/m) sum_{j>h} lambda_j(C')) ],
    the infimum over h = 0..len(spectrum)."""
    B = check_positive(B, "B")
    k = check_positive(k, "k", integer=True)
    m = check_positive(m, "m", integer=True)
    lam = check_array(c_prime_eigenvalues, "c_prime_eigenvalues", ndim=1)
    tails = np.concatenate([np.cumsum(lam[::-1])[::-1], [0.0]])  # tails[h] = sum_{j > h} (1-based j)
    h = np.arange(tails.size)
    return float(np.min(B * h / m + np.sqrt(k / m * tails)))
