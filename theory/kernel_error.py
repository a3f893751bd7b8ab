"""Kernel approximation errors of a factored G' = Y Y^T against the exact Gram
matrix G = K(X, X), without forming n x n when n is large (Ghashami et al. 2016,
section 3 "Error measures"; Lemma 2.3).

Spectral error
    ||G - G'||_2 = max_i |lambda_i(G - G')| (Lemma 2.3). G - G' is
    *indefinite* (Z Z^T over- and under-estimates G), so this is the
    eigenvalue of largest magnitude, not lambda_max: ARPACK Lanczos
    (``which="LM"``) on v -> G v - Y (Y^T v), with G v computed in row blocks
    by :func:`kernels.kernel_matmat` (O(n^2 d) per product, memory O(b n)).
Frobenius error
    ||G - G'||_F, summed block by block over (G_b - Y_b Y^T), one pass,
    O(n^2 d) time, memory O(b n) (direct differences rather than the expansion
    ||G||_F^2 - 2 tr(Y^T G Y) + ||Y^T Y||_F^2, which cancels catastrophically
    when G' is close to G).

The paper's normalisations, Kernel Spectral Error ||G - G'||_2 / n and Kernel
Frobenius Error ||G - G'||_F / n^2, are applied by the caller. With a dense G
(small n; the cross-check), pass it as ``G``.
"""

from __future__ import annotations

import numpy as np
from scipy.sparse.linalg import LinearOperator, eigsh

from kpca_suite.kernels import check_array, check_random_state, kernel_matmat
from kpca_suite.kernels.gram import _blocks, _check_block_size

#: ARPACK relative tolerance. Against dense eigvalsh (RandomNoisy d = 60,
#: n in {300, 400, 1000}, seeds 0-2, G' = ZZ^T and G~) the Lanczos value agreed
#: to 5.4e-15 relative, blocked or dense G; the test asserts 1e-9.
LANCZOS_TOL = 1e-10


def _check_factor(X, Y, G):
    X = check_array(X, "X")
    Y = np.asarray(Y, dtype=np.float64)
    if Y.ndim != 2 or Y.shape[0] != X.shape[0]:
        raise ValueError(f"Y must be 2-D with one row per row of X ({X.shape[0]}), got shape {Y.shape}")
    if not np.isfinite(Y).all():
        raise ValueError("Y contains NaN or inf")
    if G is not None:
        G = np.asarray(G, dtype=np.float64)
        if G.shape != (X.shape[0], X.shape[0]):
            raise ValueError(f"G must be n x n = {X.shape[0]} x {X.shape[0]}, got shape {G.shape}")
        if not np.isfinite(G).all():
            raise ValueError("G contains NaN or inf")
    return X, Y, G


def spectral_error(X, Y, kernel, G=None, block_size=None, random_state=0) -> float:
    """||G - Y Y^T||_2 = max |eig(G - Y Y^T)| by Lanczos (module docstring).

    Parameters
    ----------
    X : (n, d) data; G = kernel(X, X).
    Y : (n, r) factor of G'.
    kernel : kernels.Kernel
    G : (n, n) optional dense G (used instead of the blocked products).
    block_size : rows per block of the blocked products.
    random_state : seeds the Lanczos start vector (deterministic result).
    """
    X, Y, G = _check_factor(X, Y, G)
    n = X.shape[0]
    if G is None:
        b = _check_block_size(block_size, n)

        def gv(V):
            return kernel_matmat(X, V, kernel, block_size=b)
    else:
        def gv(V):
            return G @ V

    def matvec(v):
        v = np.asarray(v).reshape(n, -1)
        return gv(v) - Y @ (Y.T @ v)

    if n <= 2:
        D = matvec(np.eye(n))
        return float(np.max(np.abs(np.linalg.eigvalsh((D + D.T) / 2))))
    op = LinearOperator((n, n), matvec=matvec, matmat=matvec, dtype=np.float64)
    v0 = check_random_state(random_state).standard_normal(n)
    vals = eigsh(op, k=1, which="LM", v0=v0, tol=LANCZOS_TOL, return_eigenvectors=False)
    return float(np.abs(vals).max())


def frobenius_error(X, Y, kernel, G=None, block_size=None) -> float:
    """||G - Y Y^T||_F, block by block (module docstring); a dense ``G`` is read
    block by block too, so no n x n temporary is formed."""
    X, Y, G = _check_factor(X, Y, G)
    n = X.shape[0]
    total = 0.0
    for sl in _blocks(n, _check_block_size(block_size, n)):
        Gb = kernel.block(X[sl], X, validate=False) if G is None else np.array(G[sl])
        Gb -= Y[sl] @ Y.T
        total += float(np.einsum("ij,ij->", Gb, Gb))
    return float(np.sqrt(total))


def top_k_factor(Y, k: int) -> np.ndarray:
    """Y_k with Y_k Y_k^T = (Y Y^T)_k, the best rank-k approximation of G' = Y Y^T:
    Y V_k for the top-k eigenvectors V_k of Y^T Y (r x r), O(n r^2)."""
    Y = np.asarray(Y, dtype=np.float64)
    e, V = np.linalg.eigh(Y.T @ Y)
    return Y @ V[:, ::-1][:, :min(k, Y.shape[1])]
