"""Blocked kernel products that never hold an n x m (or n x n) kernel matrix.

Rows of X are processed in blocks of ``block_size``; only one block
K_b = K(X_b, Y) of shape (b, m) lives at a time, so memory is O(m^2 + b m).
For a fixed block size the result is deterministic; different block sizes
agree to floating-point rounding (the summation order differs).
"""

from __future__ import annotations

import numpy as np

from .spec import Kernel
from .validation import check_array, check_positive, check_same_width

#: Target bytes of one kernel block (b x m float64).
BLOCK_BYTES = 32 * 2**20


def default_block_size(m: int) -> int:
    """Rows per block so that one (b, m) float64 block is about 32 MiB."""
    return int(max(64, min(65536, BLOCK_BYTES // (8 * max(m, 1)))))


def _blocks(n: int, b: int):
    for start in range(0, n, b):
        yield slice(start, min(start + b, n))


def _check_block_size(block_size, m):
    if block_size is None:
        return default_block_size(m)
    return check_positive(block_size, "block_size", integer=True)


def gram_accumulate(X, landmarks, kernel: Kernel, block_size=None, right=None):
    """K_mn K_nm (or W^T K_mn K_nm W) and the column sums of K_nm in one blocked pass.

    .. math::  G = \\sum_b K_{b m}^T K_{b m},\\qquad s = \\sum_b 1^T K_{b m}

    where K_bm = K(X_b, landmarks). This is the O(n m^2) product of Nyström
    KPCA (Sterge et al. 2020, Sec. 3.2, the M of eq. (8)-(10) before whitening)
    with memory O(m^2 + b m) instead of the O(n m) of forming K_nm: the paper's
    claim of O(m^2) space holds only if K_nm is streamed in blocks like this
    (its O(n m^2 + m^3) time also leaves out the O(n m d) kernel evaluations).
    The symmetric product uses
    BLAS SYRK (NumPy dispatches ``A.T @ A`` to it), n m^2 flops.

    For the linear kernel with fewer columns than landmarks (d < m, explicit
    feature maps) the same product is K_mn K_nm = L (X^T X) L^T and
    K_mn 1 = L (X^T 1): O(n d^2 + m^2 d) time, O(d^2 + b d) memory, exact.

    With ``right`` = W (m x r), G = W^T K_mn K_nm W = sum_b (K_bm W)^T (K_bm W): a GEMM
    and an r x r SYRK per block, 2 n m r + n r^2 flops instead of n m^2, memory
    O(m r + b m): the whitened M of Nyström KPCA when W is known before the pass
    (:meth:`methods.NystromKPCA._eigh_whitener`).

    When X and ``landmarks`` are both float32, each block K_bm (and K_bm W, with W rounded
    to float32) and its product K_bm^T K_bm are computed in single precision (SGEMM,
    float32 exp, SSYRK) and added into float64 sums: the round-off of one block's product
    stays that of b terms, and the n / b block sums add no float32 error.

    Returns
    -------
    G : (m, m) float64 ndarray, K_mn K_nm; (r, r), W^T K_mn K_nm W, with ``right``.
    colsum : (m,) float64 ndarray, K_mn 1_n.
    """
    X = check_array(X, "X", allow_float32=True)
    L = check_array(landmarks, "landmarks", allow_float32=True)
    check_same_width(X, L, "X", "landmarks")
    if X.dtype != L.dtype:
        X, L = X.astype(np.float64, copy=False), L.astype(np.float64, copy=False)
    m = L.shape[0]
    b = _check_block_size(block_size, m)
    if kernel.name == "linear" and X.shape[1] < m:
        S = np.zeros((X.shape[1], X.shape[1]))
        for sl in _blocks(X.shape[0], b):
            Xb = X[sl]
            S += Xb.T @ Xb
        L = L.astype(np.float64, copy=False)
        G = L @ S @ L.T
        return (G if right is None else right.T @ G @ right), L @ X.sum(axis=0, dtype=np.float64)
    G = np.zeros((m, m) if right is None else (right.shape[1],) * 2)
    colsum = np.zeros(m)
    if right is not None:
        right = right.astype(X.dtype, copy=False)
    with np.errstate(over="ignore", invalid="ignore"):  # an overflow is the ValueError below, not a warning
        for sl in _blocks(X.shape[0], b):
            Kb = kernel.block(X[sl], L, validate=False)
            F = Kb if right is None else Kb @ right
            G += F.T @ F
            colsum += Kb.sum(axis=0, dtype=np.float64)
            del Kb, F  # else the next block is made while this one is alive: two blocks at the peak
    if not (np.isfinite(G).all() and np.isfinite(colsum).all()):
        raise ValueError(f"X: the {kernel.name} kernel's values on X overflow {X.dtype} (K_mn K_nm is not finite); "
                         + ("pass X as float64" if X.dtype == np.float32 else "rescale X or change the kernel"))
    return G, colsum


def centred_trace(X, kernel: Kernel, block_size=None) -> float:
    """(1/n) tr(H K H) = mean_i k(x_i, x_i) - (1/n^2) 1^T K 1, H = I - 11^T / n: the centred
    in-sample error at l = 0 (Hallgren 2021's Tr K' / n).

    1^T K 1 is summed over the upper triangle of block rows only, by symmetry,

    .. math::  1^T K 1 = \\sum_b \\bigl(1^T K_{bb} 1 + 2\\cdot 1^T K(X_b, X_{>b}) 1\\bigr),

    n (n + b) / 2 kernel evaluations instead of n^2, in O(b n) memory; the O(n^2 d) step that a
    centred Nyström fit's ``trace_`` needs, taken on its first read
    (:meth:`methods.base.KPCABase._set_trace`). For the linear kernel 1^T K 1 = ||X^T 1||^2, O(n d).
    X is trusted (validated by the caller)."""
    n = X.shape[0]
    if getattr(kernel, "name", None) == "linear":
        return float(np.einsum("ij,ij->", X, X, dtype=np.float64) / n - np.sum(X.mean(axis=0, dtype=np.float64) ** 2))
    b = _check_block_size(block_size, n)
    grand = 0.0
    for sl in _blocks(n, b):
        grand += float(kernel.block(X[sl], validate=False).sum(dtype=np.float64))
        if sl.stop < n:
            grand += 2.0 * float(kernel.block(X[sl], X[sl.stop:], validate=False).sum(dtype=np.float64))
    return float(kernel.diag(X, validate=False).mean(dtype=np.float64) - grand / n**2)


def kernel_matmat(X, V, kernel: Kernel, Y=None, block_size=None) -> np.ndarray:
    """K(X, Y) V without forming K(X, Y): out[b] = K(X_b, Y) V per row block.

    ``Y=None`` means Y = X (the n x n Gram matrix, for exact methods and error
    metrics). ``V`` may be 1-D (a mat-vec) or 2-D.
    """
    X = check_array(X, "X")
    Y = X if Y is None else check_array(Y, "Y")
    check_same_width(X, Y)
    V = np.asarray(V, dtype=np.float64)
    if V.ndim not in (1, 2) or V.shape[0] != Y.shape[0]:
        raise ValueError(f"V must have {Y.shape[0]} rows (one per row of Y), got shape {V.shape}")
    if not np.isfinite(V).all():
        raise ValueError("V contains NaN or inf")
    b = _check_block_size(block_size, Y.shape[0])
    out = np.empty((X.shape[0],) + V.shape[1:])
    for sl in _blocks(X.shape[0], b):
        out[sl] = kernel.block(X[sl], Y, validate=False) @ V
    return out
