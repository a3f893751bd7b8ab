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
its candidates a batch at a time (the next p - r of them), pivots within the batch, and
skips those whose residual stays at or below ``tol`` max_i K_ii (they are in the span
already to that accuracy: the pseudo-inverse of Eq. (4)). Both cut-offs are relative to
the largest pivot, max_i K_ii, and both pick the largest remaining residual first, so
round-off (about r eps max_i K_ii in the residuals) cannot decide which column is kept.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla
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


@njit(cache=True)
def batch_steps(S, res, floor):
    """The steps of :func:`cholesky_step` on the b rows of one batch of candidates, pivoted
    within the batch: each step takes the candidate with the largest residual, until none
    exceeds ``floor``. S (b x b, symmetric) is the batch's block of the projected columns,
    ``res`` its residuals (updated in place). Returns (GT, kept, pivots): GT[:len(kept)] the
    kept steps' rows, ``kept`` the positions kept in the batch in the order kept, ``pivots``
    their sqrt(residual). One call per batch instead of one per step.

    Pivoting within the batch keeps the kept set's span (the batch's candidates are all
    tried; only which of several nearly dependent ones represents their span changes) and
    makes the residuals trustworthy: taken in the given order, a candidate nearly in the
    span of the earlier ones is divided by a residual that round-off has decided, and its
    column is garbage (bach13's Gaussian kernel at gamma = 200 on 346 uniform landmarks:
    max |G G^T - K| = 6.5 where every entry of K is at most 1)."""
    b = S.shape[0]
    GT = np.zeros((b, b))
    kept = np.empty(b, dtype=np.int64)
    pivots = np.empty(b)
    r = 0
    while r < b:
        j = np.argmax(res)
        if res[j] <= floor:
            break
        pivots[r] = np.sqrt(res[j])
        cholesky_step(GT, res, S[j], r, j)
        kept[r] = j
        r += 1
    return GT, kept[:r], pivots[:r]


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
        distinct candidate indices tried in turn, a batch at a time, pivoting within the
        batch (random order: a permutation; uniform sampling of Eq. (4): the sampled subset).
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
    if candidates is not None:
        return _in_order(X, kernel, rank, candidates, residual, floor)

    def column(i):
        return np.ascontiguousarray(kernel.block(X, X[i:i + 1], validate=False)[:, 0], dtype=np.float64)

    GT, chosen, traces = pivoted_steps(column, residual, floor, rank)
    return CholeskyFactor(np.ascontiguousarray(GT.T), np.asarray(chosen, dtype=np.int64), np.asarray(traces))


def pivoted_steps(column, residual, floor: float, max_steps: int):
    """At most ``max_steps`` pivoted steps of the module docstring (:func:`cholesky_step`), each
    on the largest residual diagonal, stopping when it is <= ``floor``; ``column(i)`` gives
    column i of K (float64, contiguous) and ``residual`` (diag K at the start) is updated in
    place. Returns (GT, chosen, traces): the r steps' rows of G^T (r x n), their pivots and
    the residual traces after 0..r steps. Used by :func:`incomplete_cholesky` (columns from a
    kernel) and :func:`kernels.psd_eigh.numerical_rank_at_most` (columns of a formed matrix)."""
    GT = np.zeros((max_steps, residual.shape[0]))
    chosen, traces = [], [float(residual.sum())]
    while len(chosen) < max_steps:
        i = int(np.argmax(residual))
        if residual[i] <= floor:
            break
        traces.append(cholesky_step(GT, residual, column(i), len(chosen), i))
        chosen.append(i)
    return GT[:len(chosen)], chosen, traces


def _in_order(X, kernel, rank, candidates, residual, floor) -> CholeskyFactor:
    """The steps of the module docstring in a given order, a batch of candidates at a time.

    For a batch B of the next rank - r candidates, G the r columns so far and
    C = K(V, B) - G G[B]^T, the steps run on the b rows of B alone (which candidates are
    kept, the pivots p_j = sqrt(residual) and the rows L = G_new[B_kept]: each row of the
    recurrence depends on no other row). The new columns on all n rows then come from the
    same recurrence, G_new[:, j] = (C[:, j] - G_new[:, :j] L[j, :j]^T) / p_j, as one
    triangular solve with T = (L strictly below the diagonal, p on it): G_new = C T^-T.

    Dividing by the pivots, not by L's diagonal, matters: in the column recurrence the two
    differ where the residual is near round-off. A solve with L's diagonal raised the L <= K
    violation of bach13.dof-identities' random-order fit (L_le_K_random: n/2 columns of a
    kernel of numerical rank below that) at ci from 1.3e-11, column by column, to 1.6e-6;
    with the pivots it is 9.8e-12.

    The residuals are updated once per batch (clipping at 0 after each step or after the
    batch gives the same value: the steps only subtract), and the residual traces are
    tr - the cumulative column norms^2, the column route's sums of clipped residuals up to
    round-off. One GEMM and one solve per batch instead of a GEMV per column
    (perf.bach13-krr measures the fit)."""
    n = X.shape[0]
    chosen, traces = [], [float(residual.sum())]
    G = np.zeros((n, 0))
    pos = 0
    while len(chosen) < rank and pos < candidates.size:
        batch = candidates[pos:pos + rank - len(chosen)]
        pos += batch.size
        C = np.asarray(kernel.block(X, X[batch], validate=False), dtype=np.float64)
        if G.shape[1]:
            C -= G @ G[batch].T
        S = np.ascontiguousarray(C[batch].T)   # symmetric: row j is column j
        GT, kept, pivots = batch_steps(S, residual[batch], floor)
        if not kept.size:
            continue
        T = np.tril(GT[:len(kept)][:, kept].T, -1) + np.diag(pivots)
        Ck = C[:, kept]   # the kept columns in the order kept
        Gnew = sla.solve_triangular(T, Ck.T, lower=True, check_finite=False).T
        Gnew[batch[kept]] = GT[:len(kept)].T[kept]   # the kept rows as the b-row steps left them
        traces.extend(traces[-1] - np.cumsum(np.einsum("ij,ij->j", Gnew, Gnew)))
        chosen.extend(batch[kept])
        G = np.hstack([G, Gnew]) if G.shape[1] else Gnew
        if len(chosen) < rank and pos < candidates.size:   # a next batch reads the residuals
            residual -= np.einsum("ij,ij->i", Gnew, Gnew)
            np.maximum(residual, 0.0, out=residual)
            residual[batch[kept]] = 0.0
    return CholeskyFactor(np.ascontiguousarray(G), np.asarray(chosen, dtype=np.int64), np.asarray(traces))
