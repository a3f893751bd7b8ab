"""Streaming Nyström (Drineas & Mahoney 2005, as streamed in Ghashami et al. 2016,
section 1.2: c reservoir samplers, time O(nc + d c^2 log n), space O(cd + c^2)).

c landmarks are drawn uniformly *with replacement* by c independent size-1
reservoir samplers: at the i-th row of the stream each sampler replaces its
point with probability 1/i, so at every moment each holds a uniform draw from
the rows seen (p_i = G_ii^2 / sum_j G_jj^2 = 1/n for a shift-invariant kernel).
The c x c landmark Gram matrix W = K(S, S) is brought up to date at the end of
each ``partial_fit``: the rows and columns of the landmarks replaced during it
are recomputed once, O(c d) each (the expected number of replacements is
c H_n ~ c ln n, but a landmark replaced many times in one call costs one row:
at n = 80000, c = 512 in one call, 512 rows instead of the 2100 of an update per
block of 4096 rows, perf.streaming-nystrom). Then

.. math::  W = U \\Lambda U^T, \\qquad A = U_r \\Lambda_r^{-1/2}, \\qquad
           \\bar G = C W_k^{\\dagger} C^T = (C A_k)(C A_k)^T,\\quad C = K(X, S),

with the eigenvalues at or below ``rcond`` times the largest cut off (pseudo-
inverse: sampling with replacement yields duplicates, which make W singular;
the Drineas-Mahoney rescaling 1/sqrt(c p_i) cancels in C W^+ C^T). The embedding of x is A_k^T k_S(x),
O(c d + c k) per point.

The uniforms are drawn row by row in stream order (one row of c per point), so
the same stream and seed give the same landmarks whatever the chunking.
"""

from __future__ import annotations

import numpy as np

from kpca_suite.kernels import Kernel, check_array, check_positive, check_random_state, check_rank, kernel_matmat

from .base import check_is_fitted, check_kernel, check_rcond, fitted_coefficients, reset_fitted
from .nystrom import DEFAULT_RCOND

#: Bytes of the uniforms drawn at a time when ``block_size`` is None (rows = this / (8 c)).
#: Measured at n = 80000, c = 512 (best of 5): drawing the n c uniforms and reading them once
#: took 0.113 s in blocks of 4096 rows (16 MiB) and 0.101-0.103 s in blocks of 64-1024 rows,
#: which stay in cache; the drawing alone took 0.092 s at every size.
UNIFORM_BYTES = 4 * 2**20


class StreamingNystrom:
    """Nyström kernel approximation with c reservoir-sampled landmarks.

    Parameters
    ----------
    n_landmarks : int > 0
        c, the number of reservoir samplers (landmarks, with repetition). A bare count:
        reservoir sampling is the only way this estimator picks landmarks.
    kernel : kernels.Kernel
    n_components : int or None
        k, the rank of W_k^+; None keeps the effective rank r of W.
    rcond : float in [0, 1)
        Relative eigenvalue cut-off of the pseudo-inverse.
    block_size : int or None
        Rows handled at a time (the uniforms are block_size x c); None: 4 MiB of
        uniforms (:data:`UNIFORM_BYTES`). The fit does not depend on it.
    random_state : int, Generator or None

    Attributes
    ----------
    landmarks_ : (c, d) the sampled points S.
    gram_ : (c, c) W = K(S, S).
    coefficients_ : (c, k) A_k.
    effective_rank_ : int, r.
    n_replacements_ : int, landmark replacements so far (E = c H_n).
    n_samples_seen_ : int
    """

    def __init__(self, n_landmarks: int = 100, kernel: Kernel = Kernel(), n_components=None,
                 rcond: float = DEFAULT_RCOND, block_size=None, random_state=None):
        self.n_landmarks = n_landmarks
        self.kernel = kernel
        self.n_components = n_components
        self.rcond = rcond
        self.block_size = block_size
        self.random_state = random_state

    def fit(self, X) -> "StreamingNystrom":
        """Forget any previous pass and fit on X."""
        reset_fitted(self)
        return self.partial_fit(X)

    def partial_fit(self, X) -> "StreamingNystrom":
        """Run the reservoirs over the rows of X, update W, refresh A_k. A rejected
        chunk (non-finite, wrong d) leaves the model unchanged."""
        X = check_array(X, "X")
        check_kernel(self.kernel)
        if self.block_size is not None:
            check_positive(self.block_size, "block_size", integer=True)
        check_rcond(self.rcond)
        if not hasattr(self, "landmarks_"):
            c = check_positive(self.n_landmarks, "n_landmarks", integer=True)
            if self.n_components is not None:
                check_rank(self.n_components, "n_components", c, "n_landmarks")
            rng = check_random_state(self.random_state)
            S, W, seen, reps = np.zeros((c, X.shape[1])), np.zeros((c, c)), 0, 0
        else:
            if X.shape[1] != self.landmarks_.shape[1]:
                raise ValueError(f"X must have d = {self.landmarks_.shape[1]} columns like the earlier chunks, "
                                 f"got {X.shape[1]}")
            rng, S, W = self.rng_, self.landmarks_.copy(), self.gram_.copy()
            seen, reps = self.n_samples_seen_, self.n_replacements_
        rng_state = rng.bit_generator.state
        c = S.shape[0]
        block_size = self.block_size or max(1, UNIFORM_BYTES // (8 * c))
        changed = np.zeros(c, dtype=bool)
        for start in range(0, X.shape[0], block_size):
            Xb = X[start:start + block_size]
            U = rng.random((Xb.shape[0], c))
            i = seen + 1 + np.arange(Xb.shape[0])
            # sampler j takes row i when u_ij i < 1. fl(u i) is monotone in u, so a row hits
            # some sampler iff its smallest u does: only those rows are multiplied out
            hits = np.flatnonzero(U.min(axis=1) * i < 1.0)
            rows, cols = np.nonzero(U[hits] * i[hits, None] < 1.0)   # row-major order
            rows = hits[rows]
            reps += rows.size
            if rows.size:
                # each replaced sampler keeps the last row that hit it
                replaced, first = np.unique(cols[::-1], return_index=True)
                S[replaced] = Xb[rows[::-1][first]]
                changed[replaced] = True
            seen += Xb.shape[0]
        replaced = np.flatnonzero(changed)
        if replaced.size:
            Kr = self.kernel.block(S[replaced], S, validate=False)
            W[replaced, :] = Kr
            W[:, replaced] = Kr.T
        e, U = np.linalg.eigh(W)
        A = fitted_coefficients(U[:, ::-1], e[::-1], self.rcond)
        r = int((A != 0).any(axis=0).sum())
        k = r if self.n_components is None else self.n_components
        if k > r:
            rng.bit_generator.state = rng_state  # a rejected chunk leaves no trace
            raise ValueError(f"n_components = {k} exceeds the effective rank {r} of W "
                             f"(c = {c}, rcond = {self.rcond})")
        self.rng_, self.landmarks_, self.gram_ = rng, S, W
        self.n_samples_seen_, self.n_replacements_ = seen, reps
        self.effective_rank_ = r
        self.coefficients_ = np.ascontiguousarray(A[:, :k])
        return self

    def transform(self, X) -> np.ndarray:
        """Embedding A_k^T k_S(x) per row, shape (len(X), k); its Gram is G-bar."""
        self._check_fitted()
        return kernel_matmat(X, self.coefficients_, self.kernel, self.landmarks_)

    @property
    def space_(self) -> int:
        """Floats held: the c x d landmarks and the c x c W (the paper's
        SPACE c^2 + c d, section 3)."""
        self._check_fitted()
        return self.landmarks_.size + self.gram_.size

    def _check_fitted(self):
        check_is_fitted(self, "coefficients_")
