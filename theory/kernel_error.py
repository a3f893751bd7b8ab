"""Kernel approximation errors of a factored G' = Y Y^T against the exact Gram
matrix G = K(X, X), without forming n x n when n is large (Ghashami et al. 2016,
section 3 "Error measures"; Lemma 2.3). Each function takes a list of factors and
reads G (or computes its blocks) once for all of them: a caller that judges several
approximations of the same G (an estimator at several ranks, two shrink rules) pays
for the n x n part once.

Spectral error
    ||G - G'||_2 = max_i |lambda_i(G - G')| (Lemma 2.3). G - G' is
    *indefinite* (Z Z^T over- and under-estimates G), so this is the
    eigenvalue of largest magnitude, not lambda_max: Lanczos with full
    reorthogonalisation on v -> G v - Y (Y^T v), one Krylov sequence per factor
    from the same random start, each step's products G [q_1 ... q_p] taken
    together (the dense G is read once per step for all p factors; without it,
    G v is computed in row blocks by :func:`kernels.kernel_matmat`, O(n^2 d) per
    product, memory O(b n)). A sequence stops when the Ritz pair (theta, Q s) of
    largest |theta| has residual ||(G - G') Q s - theta Q s|| = beta_k |s_k| at most
    :data:`LANCZOS_TOL` |theta| (ARPACK's criterion), or when its Krylov space is
    invariant (beta_k = 0: theta is exact).
Frobenius error
    ||G - G'||_F, summed block by block over (G_b - Y_b Y^T) on and above the
    diagonal (the difference is symmetric), one pass, O(n^2 (d + r) / 2) time, memory O(b n) (direct differences rather than the expansion
    ||G||_F^2 - 2 tr(Y^T G Y) + ||Y^T Y||_F^2, which cancels catastrophically
    when G' is close to G).

The paper's normalisations, Kernel Spectral Error ||G - G'||_2 / n and Kernel
Frobenius Error ||G - G'||_F / n^2, are applied by the caller. With a dense G
(small n; the cross-check), pass it as ``G``.
"""

from __future__ import annotations

import numpy as np
from scipy.linalg import eigh_tridiagonal

from kpca_suite.kernels import check_array, check_random_state, kernel_matmat
from kpca_suite.kernels.gram import _blocks, _check_block_size

#: Relative residual at which a Lanczos sequence stops (module docstring). The residual bounds the
#: error of theta (|theta - lambda| <= ||r||, symmetric matrices), so the value is right to 1e-6
#: relative, 1/4000 of the smallest standard error a verdict reads (0.004 on a log ratio); the
#: error goes as ||r||^2 / gap, and on the full profile's RandomNoisy Gram (n = 20000, seed 0;
#: Nyström m = 16 and 2048, RNCA m = 64 and 2048 at ranks 2, 50 and m, SKPCA) every value agreed
#: with the 1e-10 one to 11 digits, in 30% less time (2026-11-28). Against dense eigvalsh
#: (RandomNoisy d = 60, n in {300, 400, 1000}, seeds 0-2, G' = ZZ^T and G~) the test asserts 1e-9.
#: The error is one-sided: a Ritz value never exceeds the largest |eigenvalue|, so a value may be
#: low by 1e-6 relative, never high, and "error <= bound" could pass wrongly only within 1e-6 of
#: the bound. The nearest a judged spectral error comes to its bound is 1.9% (ghashami16.thm21's
#: proof bound, ci; 2.3% quick, 2.6% full); ghashami16.lemma24's ratio at most 0.95.
LANCZOS_TOL = 1e-6
#: The most Lanczos steps of one sequence (each keeps its n-vector for the
#: reorthogonalisation); the full profile's RandomNoisy cells (n = 20000) stopped after
#: about 20 steps for random-feature factors and 60 for Nyström's m = 2048 (at 1e-10).
LANCZOS_MAXITER = 500


def _check_factors(X, Ys, G):
    X = check_array(X, "X")
    Ys = [np.asarray(Y, dtype=np.float64) for Y in Ys]
    if not Ys:
        raise ValueError("Ys must hold at least one factor")
    for Y in Ys:
        if Y.ndim != 2 or Y.shape[0] != X.shape[0]:
            raise ValueError(f"Y must be 2-D with one row per row of X ({X.shape[0]}), got shape {Y.shape}")
        if not np.isfinite(Y).all():
            raise ValueError("Y contains NaN or inf")
    if G is not None:
        G = np.asarray(G, dtype=np.float64)
        if G.shape != (X.shape[0], X.shape[0]):
            raise ValueError(f"G must be n x n = {X.shape[0]} x {X.shape[0]}, got shape {G.shape}")
        # row blocks: an n x n boolean temporary would cost more than the test (1.3 s at n = 20000)
        if not all(np.isfinite(G[sl]).all() for sl in _blocks(len(G), _check_block_size(None, len(G)))):
            raise ValueError("G contains NaN or inf")
    return X, Ys, G


def spectral_errors(X, Ys, kernel, G=None, block_size=None, random_state=0) -> list:
    """[||G - Y Y^T||_2 for Y in Ys] = max |eig(G - Y Y^T)| by Lanczos (module docstring).

    Parameters
    ----------
    X : (n, d) data; G = kernel(X, X).
    Ys : list of (n, r) factors of approximations G' (r may differ).
    kernel : kernels.Kernel
    G : (n, n) optional dense G (used instead of the blocked products).
    block_size : rows per block of the blocked products.
    random_state : seeds the Lanczos start vector, the same for every factor
        (deterministic result).
    """
    X, Ys, G = _check_factors(X, Ys, G)
    n = X.shape[0]
    if G is None:
        b = _check_block_size(block_size, n)

        def gv(V):
            return kernel_matmat(X, V, kernel, block_size=b)
    else:
        def gv(V):
            # G is symmetric: (V^T G)^T is G V, and OpenBLAS multiplies a thin V^T from the left
            # 40% faster (one thread, n = 20000, 2-16 columns: 0.42-0.49 s against 0.68-0.90 s)
            return (V.T @ G).T

    if n <= 2:
        Gd = gv(np.eye(n))
        return [float(np.max(np.abs(np.linalg.eigvalsh(Gd - Y @ Y.T)))) for Y in Ys]
    v0 = check_random_state(random_state).standard_normal(n)
    v0 /= np.linalg.norm(v0)
    bases = [[v0] for _ in Ys]
    alphas, betas = [[] for _ in Ys], [[] for _ in Ys]
    values = [None] * len(Ys)
    active = list(range(len(Ys)))
    for _ in range(min(n, LANCZOS_MAXITER)):
        GQ = gv(np.column_stack([bases[i][-1] for i in active]))
        still = []
        for col, i in enumerate(active):
            q, Y = bases[i][-1], Ys[i]
            w = GQ[:, col] - Y @ (Y.T @ q)
            alphas[i].append(float(q @ w))
            Q = np.column_stack(bases[i])
            for _ in range(2):  # twice is enough (Kahan-Parlett)
                w -= Q @ (Q.T @ w)
            beta = float(np.linalg.norm(w))
            theta, S = eigh_tridiagonal(np.array(alphas[i]), np.array(betas[i]))
            j = int(np.argmax(np.abs(theta)))
            top = abs(float(theta[j]))
            if beta * abs(S[-1, j]) <= LANCZOS_TOL * top or beta <= np.finfo(float).eps * top or len(bases[i]) == n:
                values[i] = top
                continue
            betas[i].append(beta)
            bases[i].append(w / beta)
            still.append(i)
        active = still
        if not active:
            return values
    raise RuntimeError(f"Lanczos did not reach relative residual {LANCZOS_TOL:g} in {LANCZOS_MAXITER} steps "
                       f"for factor(s) {active}")


def spectral_error(X, Y, kernel, G=None, block_size=None, random_state=0) -> float:
    """||G - Y Y^T||_2 for one factor Y: :func:`spectral_errors` of ``[Y]``."""
    return spectral_errors(X, [Y], kernel, G=G, block_size=block_size, random_state=random_state)[0]


def frobenius_errors(X, Ys, kernel, G=None, block_size=None) -> list:
    """[||G - Y Y^T||_F for Y in Ys], in one pass over the upper triangle of G by row
    blocks (module docstring): the block of rows a:e gives D = G[a:e, a:] - Y[a:e] Y[a:]^T,
    whose square block D[:, :e-a] is on the diagonal and counts once, the rest twice (G - Y Y^T
    is symmetric); half the products of a full pass. A dense ``G`` is read block by block too,
    so no n x n temporary is formed."""
    X, Ys, G = _check_factors(X, Ys, G)
    n = X.shape[0]
    totals = [0.0] * len(Ys)
    for sl in _blocks(n, _check_block_size(block_size, n)):
        a, width = sl.start, sl.stop - sl.start
        Gb = kernel.block(X[sl], X[a:], validate=False) if G is None else G[sl, a:]
        for i, Y in enumerate(Ys):
            D = Y[sl] @ Y[a:].T
            np.subtract(Gb, D, out=D)
            totals[i] += float(np.einsum("ij,ij->", D[:, :width], D[:, :width])) \
                + 2.0 * float(np.einsum("ij,ij->", D[:, width:], D[:, width:]))
    return [float(np.sqrt(t)) for t in totals]


def frobenius_error(X, Y, kernel, G=None, block_size=None) -> float:
    """||G - Y Y^T||_F for one factor Y: :func:`frobenius_errors` of ``[Y]``."""
    return frobenius_errors(X, [Y], kernel, G=G, block_size=block_size)[0]


def top_k_factor(Y, k: int) -> np.ndarray:
    """Y_k with Y_k Y_k^T = (Y Y^T)_k, the best rank-k approximation of G' = Y Y^T:
    Y V_k for the top-k eigenvectors V_k of Y^T Y (r x r), O(n r^2)."""
    Y = np.asarray(Y, dtype=np.float64)
    e, V = np.linalg.eigh(Y.T @ Y)
    return Y @ V[:, ::-1][:, :min(k, Y.shape[1])]
