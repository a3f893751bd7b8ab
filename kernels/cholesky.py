"""Incomplete Cholesky decomposition of a kernel matrix, with column pivoting or in a
given column order (Bach 2013, Sec. 4.4 step 2; Shawe-Taylor & Cristianini 2004; the
paper gives no pseudo-code; this is the standard algorithm: pick the pivot (largest
residual diagonal, or the next given index), form the new column from K[:, i] minus
the previous columns, divide by the square root of the pivot, update the diagonal).

After r steps with selected columns I = (i_1, ..., i_r), G (n x r) satisfies

.. math::  G G^T = K(V, I) K(I, I)^{-1} K(I, V) = L  \\quad\\text{(Eq. (4))},

G[I, :] is lower triangular, and the residual diagonal diag(K - G G^T) is kept up to
date, so tr(K - L) is known online after every step at no extra cost. Only the r
selected columns of K (r n kernel evaluations) and its diagonal are evaluated; time
O(r^2 n), memory O(r n).

Step j with pivot i:  G[:, j] = (K[:, i] - G[:, :j] G[i, :j]^T) / sqrt(res_i),
res <- res - G[:, j]^2.  Pivoting picks i = argmax res (greedy, "an approximate greedy
algorithm ... whose analysis remains an open problem", Sec. 4.4); a given order takes
the next candidate whose residual exceeds ``tol`` max_i K_ii and skips the others
(they are in the span already to that accuracy: the pseudo-inverse of Eq. (4)).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from .validation import check_array, check_positive, check_rank


@njit(cache=True)
def cholesky_step(GT, residual, column, j, i):
    """One step of the decomposition, in place: GT[j], the j-th column of G (GT = G^T,
    shape (rank, n), C order), and the residual diagonal; column = K[:, i]:

    GT[j] = (column - GT[:j]^T GT[:j, i]) / sqrt(residual[i]),  residual -= GT[j]^2,

    residuals clipped at 0 (round-off) and the pivot's set to 0. Returns the new residual
    trace sum(residual). With G stored transposed the earlier columns are one contiguous
    block, so the update is one BLAS GEMV (np.dot); a jitted loop over them was 2-5x slower
    (LLVM cannot vectorise it: the new column and the earlier ones are views of one array),
    which left the whole routine slower than NumPy (perf.pivoted-cholesky)."""
    n = GT.shape[1]
    v = GT[j]
    if j > 0:
        v[:] = column - np.dot(GT[:j, i].copy(), GT[:j])
    else:
        v[:] = column
    pivot = np.sqrt(residual[i])
    total = 0.0
    for r in range(n):
        x = v[r] / pivot
        v[r] = x
        d = residual[r] - x * x
        if d < 0.0 or r == i:
            d = 0.0
        residual[r] = d
        total += d
    return total


@dataclass(frozen=True)
class CholeskyFactor:
    """Result of :func:`incomplete_cholesky`.

    factor : (n, r) G with G G^T = L.
    indices : (r,) selected columns, in selection order (G[indices] is lower triangular).
    residual_traces : (r + 1,) tr(K - G_j G_j^T) after j = 0..r steps (entry 0 is tr K).
    """

    factor: np.ndarray
    indices: np.ndarray
    residual_traces: np.ndarray


def incomplete_cholesky(X, kernel, rank: int, order="pivot", tol: float = 1e-12) -> CholeskyFactor:
    """Rank-``rank`` incomplete Cholesky factor of K = kernel.block(X, X).

    Parameters
    ----------
    X : (n, d) points.
    kernel : any object with ``block(X, Y, validate=...)`` and ``diag(X, validate=...)``
        (:class:`kernels.protocol.KernelLike`: :class:`kernels.Kernel`, :class:`kernels.PeriodicKernel`).
    rank : maximal number of columns p, 1 <= p <= n.
    order : "pivot" (column pivoting: largest residual first), or a 1-D sequence of
        distinct candidate indices tried in turn (random order: a permutation; uniform
        sampling of Eq. (4): the sampled subset).
    tol : stop (pivot) or skip (given order) when the residual is <= tol * max_i K_ii.

    Returns
    -------
    CholeskyFactor with r <= ``rank`` columns (fewer when K's numerical rank, or the
    candidates, run out).
    """
    X = check_array(X, "X")
    n = X.shape[0]
    rank = check_rank(rank, "rank", n, "the number of samples n")
    tol = check_positive(tol, "tol", allow_zero=True)
    if isinstance(order, str):
        if order != "pivot":
            raise ValueError(f"order must be 'pivot' or a sequence of indices, got {order!r}")
        candidates = None
    else:
        candidates = np.asarray(order)
        if candidates.ndim != 1 or candidates.size == 0 or candidates.dtype.kind not in "iu":
            raise ValueError("order must be 'pivot' or a non-empty 1-D sequence of integer indices")
        if candidates.min() < 0 or candidates.max() >= n or np.unique(candidates).size != candidates.size:
            raise ValueError(f"order must hold distinct indices in [0, {n})")
    residual = np.array(kernel.diag(X, validate=False), dtype=np.float64)
    floor = tol * residual.max()
    GT = np.zeros((rank, n))
    chosen, traces = [], [float(residual.sum())]
    pos = 0
    while len(chosen) < rank:
        if candidates is None:
            i = int(np.argmax(residual))
        else:
            while pos < candidates.size and residual[candidates[pos]] <= floor:
                pos += 1
            if pos == candidates.size:
                break
            i = int(candidates[pos])
            pos += 1
        if residual[i] <= floor:
            break
        col = np.ascontiguousarray(kernel.block(X, X[i:i + 1], validate=False)[:, 0], dtype=np.float64)
        traces.append(cholesky_step(GT, residual, col, len(chosen), i))
        chosen.append(i)
    r = len(chosen)
    return CholeskyFactor(np.ascontiguousarray(GT[:r].T), np.asarray(chosen, dtype=np.int64), np.asarray(traces))
