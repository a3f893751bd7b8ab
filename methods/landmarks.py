"""Landmark ("center") selection strategies, one small object each (as Falkon),
and the one place where an estimator's ``landmarks`` parameter is resolved.

``select(X, kernel, random_state) -> indices`` returns sorted, distinct row
indices of X. The strategies (each a frozen dataclass with ``m`` and ``select``):

=================================  ==========================================================
:class:`UniformLandmarks`          m rows uniformly without replacement
:class:`LeverageScoreLandmarks`    m i.i.d. draws from ridge leverage scores (exact, or a
                                   Nyström estimate from a uniform pilot), deduplicated
:class:`RecursiveLeverageLandmarks` m rows from ridge leverage scores estimated by recursive
                                   halving (Musco & Musco 2017), O(n m^2) time, O(n m) memory
:class:`KMeansLandmarks`           Lloyd's k-means (k-means++ seeding), centres snapped to
                                   distinct data rows
:class:`PivotedCholeskyLandmarks`  the pivots of greedy pivoted incomplete Cholesky
:class:`FixedLandmarks`            user-given rows
=================================  ==========================================================

The rule of methods/: a parameter named ``landmarks`` is the landmark set, either an
int m (m rows drawn uniformly without replacement, :class:`UniformLandmarks`) or a
strategy object with ``select`` (and, if it has one, an ``m`` attribute, the number
asked for); :func:`select_landmarks` resolves it and checks m against n and
n_components. A parameter named ``n_landmarks`` is a bare count, used where the way
the landmarks are chosen is fixed by the algorithm (reservoir sampling in
:class:`~methods.streaming_nystrom.StreamingNystrom`) or is a separate parameter
(``sampling`` of :class:`~methods.krr.NystromKRR`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import numpy as np

import math

from scipy import sparse
from scipy.linalg import cho_factor, solve_triangular

from kpca_suite.kernels import (Kernel, approximate_leverage_scores, check_positive, check_random_state,
                                exact_leverage_scores, incomplete_cholesky)


def _check_m(m, n):
    m = check_positive(m, "m", integer=True)
    if m > n:
        raise ValueError(f"m = {m} landmarks must not exceed the number of samples n = {n}")
    return m


def landmark_strategy(landmarks):
    """The strategy behind a ``landmarks`` parameter: an object with ``select`` is
    returned as is, anything else is read as the count m of :class:`UniformLandmarks`
    (validated when it selects)."""
    if hasattr(landmarks, "select"):
        return landmarks
    return UniformLandmarks(landmarks)


def select_landmarks(landmarks, X, kernel, random_state=None, n_components=None) -> np.ndarray:
    """Row indices of the landmarks of X for a ``landmarks`` parameter (int m or strategy).

    Before any draw, checks that the m asked for (a strategy's ``m``, if it has one)
    is a positive integer, at most n, and, if given, at least ``n_components``.
    """
    strategy = landmark_strategy(landmarks)
    m = getattr(strategy, "m", None)
    n = X.shape[0]
    if m is not None:
        m = _check_m(m, n)
        if n_components is not None and n_components > m:
            raise ValueError(f"n_components = {n_components} must not exceed m = {m}")
    return np.asarray(strategy.select(X, kernel, check_random_state(random_state)))


@dataclass(frozen=True)
class UniformLandmarks:
    """m points drawn uniformly without replacement (Sterge et al. 2020, plain NY-KPCA)."""

    m: int

    def select(self, X, kernel: Kernel, random_state=None) -> np.ndarray:
        m = _check_m(self.m, X.shape[0])
        rng = check_random_state(random_state)
        return np.sort(rng.choice(X.shape[0], size=m, replace=False))


@dataclass(frozen=True)
class LeverageScoreLandmarks:
    """m draws i.i.d. with replacement from p_i = l_i(s) / sum_j l_j(s), then
    deduplicated (Sterge et al. 2020, Sec. 3.2.1, ALS NY-KPCA; Lemma 6.3).

    The paper gives no algorithm for the T-approximate scores l_hat of
    Definition 3.6; ``exact=True`` uses the exact scores (O(n^3), small n),
    otherwise the Nyström estimate of :func:`kernels.approximate_leverage_scores`
    with a uniform pilot of ``pilot_size`` points (default: m), in O(n M^2).
    Duplicates are dropped, so the number of landmarks actually used (the
    returned length) can be below m; the span, which alone defines the
    projector, is unchanged, so no importance reweighting is needed.
    """

    m: int
    s: float
    exact: bool = False
    pilot_size: Optional[int] = None

    def scores(self, X, kernel: Kernel, random_state=None) -> np.ndarray:
        rng = check_random_state(random_state)
        if self.exact:
            return exact_leverage_scores(X, kernel, self.s)
        pilot = min(X.shape[0], self.pilot_size if self.pilot_size is not None else self.m)
        return approximate_leverage_scores(X, kernel, self.s, pilot, random_state=rng)

    def select(self, X, kernel: Kernel, random_state=None) -> np.ndarray:
        m = _check_m(self.m, X.shape[0])
        check_positive(self.s, "s")
        rng = check_random_state(random_state)
        scores = self.scores(X, kernel, rng)
        total = scores.sum()
        if not np.isfinite(total) or total <= 0:
            raise ValueError("leverage scores sum to zero: the kernel matrix is zero at this s")
        return np.unique(rng.choice(X.shape[0], size=m, replace=True, p=scores / total))


@dataclass(frozen=True)
class FixedLandmarks:
    """User-chosen landmark rows (Falkon's "fixed centers"); used for nested
    landmark sets, where R_hat^nys must not increase as the set grows."""

    indices: tuple

    @property
    def m(self) -> int:
        return len(self.indices)

    def select(self, X, kernel: Kernel, random_state=None) -> np.ndarray:
        given = np.asarray(self.indices)
        if given.size and given.dtype.kind not in "iu":
            raise ValueError(f"indices of FixedLandmarks must be integers, got dtype {given.dtype} "
                             f"({', '.join(map(repr, given.ravel()[:3].tolist()))}, ...)")
        idx = np.unique(given.astype(np.int64))
        if idx.size != len(self.indices):
            raise ValueError("indices of FixedLandmarks must be distinct")
        if idx.size == 0 or idx[0] < 0 or idx[-1] >= X.shape[0]:
            raise ValueError(f"indices of FixedLandmarks must lie in [0, {X.shape[0]}) and not be empty")
        return idx


# ---------------------------------------------------------------------- recursive leverage scores

def _weighted_nystrom_scores(X, kernel, rows, S, incl, lam, diag) -> np.ndarray:
    """(1/lam) (k_ii - k_iS (K_SS + lam diag(incl_S))^{-1} k_Si) for every i in ``rows``, clipped at 0.

    The estimate of Musco & Musco (2017, eq. (3) / Alg. 2 line 8 without the factor 3/2)
    for a landmark set S kept with inclusion probabilities incl (weights 1/sqrt(incl)):
    with S = rows and incl = 1 it is the exact [K (K + lam I)^{-1}]_ii; with a uniform S of
    M out of n and lam = n s it is :func:`kernels.approximate_leverage_scores`.
    One Cholesky of an |S| x |S| matrix and one |S| x n block: O(n |S|^2) time,
    O(n |S|) memory.
    """
    XS = X[S]
    C = kernel.block(XS, validate=False)
    C[np.diag_indices_from(C)] += lam * incl
    L, _ = cho_factor(C, lower=True, check_finite=False)
    W = solve_triangular(L, kernel.block(XS, X[rows], validate=False), lower=True, check_finite=False)
    return np.clip((diag[rows] - np.einsum("ij,ij->j", W, W)) / lam, 0.0, None)


def _draw_without_replacement(scores, m, rng) -> np.ndarray:
    """m distinct positions drawn successively with probability proportional to
    ``scores`` (numpy's weighted sampling without replacement). Zero scores are
    lifted to 1e-12 of the largest so that m distinct positions always exist."""
    p = np.maximum(scores, 1e-12 * scores.max() if scores.max() > 0 else 1.0)
    return rng.choice(len(p), size=m, replace=False, p=p / p.sum())


@dataclass(frozen=True)
class RecursiveLeverageLandmarks:
    """m distinct rows drawn with probability proportional to ridge leverage scores
    l_i(s) = [K (K + n s I)^{-1}]_ii estimated without the n x n matrix, by the
    recursive halving of Musco & Musco (2017), "Recursive sampling for the Nyström
    method" (NeurIPS), Alg. 2 and its practical fixed-budget form (their code).

    Recursion, on a random permutation of the rows: nested uniform subsets
    X_0 = X (n_0 = n) ⊃ X_1 ⊃ ... ⊃ X_T with n_{t+1} = ceil(n_t / 2), stopping at the
    first n_T <= m. At the deepest level the landmarks are all of X_T, each kept with
    inclusion probability 1. Going up, for t = T-1, ..., 0, every row i of X_t gets the
    weighted Nyström estimate of its leverage score in X_t at the same s,

        l~_i = (1/lam_t) (k_ii - k_iS (K_SS + lam_t diag(pi_S))^{-1} k_Si),  lam_t = n_t s,

    from the landmarks S of level t+1, kept in X_t with inclusion probabilities
    pi_S = (n_{t+1} / n_t) pi'_S (pi' their inclusion probabilities in X_{t+1}; all 1 at
    the deepest level): the uniform halving times the leverage draw. Then m rows of
    X_t are drawn without replacement with p_i ∝ l~_i, and their inclusion
    probabilities in X_t are taken as pi'_i = min(1, m p_i). The landmarks returned are the m
    rows drawn at level 0. (Musco & Musco draw each row independently with
    probability min(1, c l~_i log(...)) at the inner levels; a fixed m per level keeps
    the memory at O(n m) and the time at O(n m^2) without their constants.)

    With S = all rows and pi = 1 the estimate is the exact score, since
    K - K (K + lam I)^{-1} K = lam K (K + lam I)^{-1}; :meth:`scores` returns the
    level-0 estimates (the test compares them with the exact ones). Exactly m
    distinct indices are returned (m = n returns every row).
    """

    m: int
    s: float

    def _recurse(self, X, kernel, rng):
        """(level-0 score estimates of every row, the permutation) after the recursion."""
        n = X.shape[0]
        m = _check_m(self.m, n)
        s = check_positive(self.s, "s")
        perm = rng.permutation(n)
        sizes = [n]
        while sizes[-1] > m:
            sizes.append(math.ceil(sizes[-1] / 2))
        diag = np.asarray(kernel.diag(X, validate=False), dtype=np.float64)
        S = perm[:sizes[-1]]
        incl = np.ones(len(S))
        scores = None
        for t in range(len(sizes) - 2, -1, -1):
            rows = perm[:sizes[t]]
            # S was drawn from X_{t+1}, itself a uniform n_{t+1}/n_t of X_t
            scores = _weighted_nystrom_scores(X, kernel, rows, S, incl * (sizes[t + 1] / sizes[t]),
                                              sizes[t] * s, diag)
            if t > 0:
                pick = _draw_without_replacement(scores, m, rng)
                p = scores[pick] / scores.sum() if scores.sum() > 0 else np.full(m, 1.0 / len(rows))
                S, incl = rows[pick], np.minimum(1.0, m * p)
        return scores, perm

    def scores(self, X, kernel: Kernel, random_state=None) -> np.ndarray:
        """The level-0 estimates l~_i(s) of every row (in row order); exact when m = n."""
        rng = check_random_state(random_state)
        n = X.shape[0]
        scores, perm = self._recurse(X, kernel, rng)
        if scores is None:  # m = n: no recursion, the exact scores
            return exact_leverage_scores(X, kernel, self.s)
        out = np.empty(n)
        out[perm] = scores
        return out

    def select(self, X, kernel: Kernel, random_state=None) -> np.ndarray:
        rng = check_random_state(random_state)
        scores, perm = self._recurse(X, kernel, rng)
        if scores is None:
            return np.arange(X.shape[0])
        return np.sort(perm[_draw_without_replacement(scores, self.m, rng)])


# ---------------------------------------------------------------------- k-means centres

def _sq_dist(A, B) -> np.ndarray:
    """||a_i - b_j||^2, shape (len(A), len(B)), from one GEMM, clipped at 0."""
    d = np.einsum("ij,ij->i", A, A)[:, None] + np.einsum("ij,ij->i", B, B)[None, :] - 2.0 * (A @ B.T)
    return np.maximum(d, 0.0)


@dataclass(frozen=True)
class KMeansLandmarks:
    """The rows nearest the m centres of Lloyd's k-means in the rows' own coordinates
    (the kernel's input space), as in Zhang, Tsang & Kwok (2008), "Improved Nyström
    low-rank approximation and error analysis" (ICML), who use the centres themselves.

    Seeding: k-means++ (Arthur & Vassilvitskii 2007): the first centre a uniform row,
    each next one a row drawn with probability ∝ D(x)^2, its squared distance to the
    nearest centre so far; all draws from ``random_state``. Lloyd iterations: assign
    each row to its nearest centre, move each centre to the mean of its rows
    (a centre left without rows moves to the row farthest from its own centre),
    until the assignment is unchanged or ``max_iter`` iterations. The objective
    sum_i min_c ||x_i - c||^2 never increases.

    To keep the protocol (landmarks are row indices) the centres are then **snapped**
    to distinct data rows: centres in order of their distance to their nearest row
    (closest first), each takes its nearest row not yet taken. So the Nyström span is
    that of m data rows near the centres, not of the centres themselves; on dense data
    the two differ little. The kernel is not used. Time O(n m d) per iteration,
    memory O(n m).
    """

    m: int
    max_iter: int = 20

    def centres(self, X, random_state=None) -> np.ndarray:
        """The m k-means centres (m x d) after seeding and Lloyd iterations."""
        rng = check_random_state(random_state)
        n = X.shape[0]
        m = _check_m(self.m, n)
        max_iter = check_positive(self.max_iter, "max_iter", integer=True, allow_zero=True)
        sq = np.einsum("ij,ij->i", X, X)
        first = int(rng.integers(n))
        C = np.empty((m, X.shape[1]))
        C[0] = X[first]
        D = np.maximum(sq - 2.0 * (X @ X[first]) + sq[first], 0.0)
        for j in range(1, m):
            total = D.sum()
            i = int(rng.choice(n, p=D / total)) if total > 0 else int(rng.integers(n))
            C[j] = X[i]
            D = np.minimum(D, np.maximum(sq - 2.0 * (X @ X[i]) + sq[i], 0.0))
        labels = None
        for _ in range(max_iter):
            dist = _sq_dist(X, C)
            new = np.argmin(dist, axis=1)
            if labels is not None and np.array_equal(new, labels):
                break
            labels = new
            counts = np.bincount(labels, minlength=m)
            sums = sparse.csr_matrix((np.ones(n), (labels, np.arange(n))), shape=(m, n)) @ X
            full = counts > 0
            C[full] = sums[full] / counts[full, None]
            if not full.all():
                far = np.argsort(-dist[np.arange(n), labels])
                C[~full] = X[far[:int((~full).sum())]]
        return C

    def select(self, X, kernel: Kernel = None, random_state=None) -> np.ndarray:
        return _snap(X, self.centres(X, random_state))


def _snap(X, C) -> np.ndarray:
    """Each centre to its nearest data row not yet taken, closest centres first."""
    D = _sq_dist(C, X)
    taken = np.zeros(X.shape[0], dtype=bool)
    out = np.empty(len(C), dtype=np.int64)
    for c in np.argsort(D.min(axis=1), kind="stable"):
        i = int(np.argmin(D[c]))
        if taken[i]:
            order = np.argsort(D[c], kind="stable")
            i = int(order[np.argmax(~taken[order])])
        taken[i] = True
        out[c] = i
    return np.sort(out)


# ---------------------------------------------------------------------- pivoted Cholesky

@dataclass(frozen=True)
class PivotedCholeskyLandmarks:
    """The pivots of greedy pivoted incomplete Cholesky of K
    (:func:`kernels.incomplete_cholesky` with ``order="pivot"``; Bach 2013, Sec. 4.4;
    Fine & Scheinberg 2001): start from the residual diagonal res = diag K; at each of m
    steps take i = argmax_j res_j, the row worst approximated by the span so far, and
    update res_j <- res_j - G_ji^2, so that after the pivots P

        res = diag(K - K_{:,P} K_PP^{-1} K_{P,:}).

    Deterministic (``random_state`` is not used; ties go to the lowest index). Stops
    early, with fewer than m pivots, when every residual is <= ``tol`` max_i K_ii
    (K's numerical rank is reached). Time O(m^2 n + m n d), memory O(m n).
    """

    m: int
    tol: float = 1e-12

    def select(self, X, kernel: Kernel, random_state=None) -> np.ndarray:
        m = _check_m(self.m, X.shape[0])
        return np.sort(incomplete_cholesky(X, kernel, m, order="pivot", tol=self.tol).indices)
