"""Frequent Directions (Liberty 2013; Ghashami & Phillips 2014): a deterministic
ell x d sketch B of a stream of rows a_1, a_2, ... of A (n x d) with

.. math::  0 \\preceq A^T A - B^T B, \\qquad
           \\|A^T A - B^T B\\|_2 \\le \\Delta \\le \\frac{\\|A - A_k\\|_F^2}{j - k}
           \\quad \\text{for every } 0 \\le k < j,

where Delta = sum_t delta_t is the total shrinkage and j the shrink index (each
shrink removes a PSD part of norm delta and at least j delta of Frobenius mass,
which gives both inequalities). Rows go into the zero rows of B; when B is
full, with B = Y Sigma V^T (from the eigendecomposition of the ell x ell Gram
B B^T, :meth:`FrequentDirections._shrink`) and

.. math::  \\delta = \\sigma_j^2, \\qquad B \\leftarrow \\sqrt{\\max(\\Sigma^2 - \\delta I, 0)}\\, V^T,

which zeroes rows j..ell (Ghashami et al. 2016, Algorithm 1, lines 4-7).

``shrink="standard"`` (j = ell)
    The GLPW variant whose bound is ||A - A_k||_F^2 / (ell - k): one shrink per row
    once the sketch is full, O(n ell^2 d).
``shrink="halving"`` (j = floor(ell / 2))
    Algorithm 1 of the paper as written: a shrink every ~ell/2 rows, O(n ell d).
    Its true bound is ||A - A_k||_F^2 / (floor(ell/2) - k). The paper's Lemma 2.1
    quotes the (ell - k) denominator of the standard variant for it: an erratum
    of Ghashami et al. 2016); the tests show the literal version failing. For
    odd ell the paper leaves ell/2 open; we take the floor (ell = 5 shrinks at
    sigma_2). ell = 2 shrinks at sigma_1 and so empties the sketch every second
    row (so the paper's Algorithm 1 with ell = 2 keeps almost nothing).

Zero rows are tracked with a fill counter (``n_filled_``), never by testing
floats for zero (a shrink can leave a residue of order 1e-9 in the zeroed rows,
and a float test would then overflow the buffer). Insertion is row by row in stream order, so the
same rows in the same order give the same sketch, bit for bit, whatever the
batch sizes. A ``dask.array`` A is sketched chunk by chunk instead
(:meth:`FrequentDirections.partial_fit`): one sketch per row chunk, merged in a
tree, another sketch than the sequential one with the same bound.

A shrink is one jitted call (:func:`shrink_rows`): the Gram product, its eigh and Y^T B are
LAPACK / BLAS calls either way, and jitted they lose the dozen NumPy calls and temporaries
around them, which at small ell cost as much as the linear algebra. The rows a shrink leaves are
mutually orthogonal, so the next Gram forms only the new rows' products (:func:`sketch_gram`):
one row's after a standard shrink, about half of them after a halving one. One shrink of a
running sketch, NumPy's route (a SYRK for the Gram) against this one, one thread, best of 2000
(2026-11-26): ell = 20, d = 500, j = 10: 54 -> 31 µs (float64), 48 -> 25 µs (float32);
ell = 50, d = 1000, j = 25: 324 -> 289 µs and 281 -> 211 µs; j = 50 (standard): 406 -> 309 µs
and 322 -> 218 µs. The eigh (180 µs in float64, 140 µs in float32 at ell = 50) is most of what is left.
After a standard shrink that Gram is an arrowhead (a diagonal bordered by the new row's products),
so the next shrink's eigenpairs come from a rank-one update of a diagonal in O(ell^2)
(:func:`_rank_one_rows`, :mod:`kernels.rank_one_eigh`): at ell = 50, d = 512 the kept rows'
coefficients took 64 µs against the eigh route's 246 µs, and the shrinks of a quick
ghashami16.randomnoisy cell (SKPCA, ell = 50) 0.51 s against 1.60 s (one thread, 2026-11-29).
perf.fd measures the whole sketch against a plain NumPy FD and the floor of its shrinks,
perf.float32 float32 against float64.
"""

from __future__ import annotations

import functools

import numpy as np
from numba import njit

from .dask_arrays import check_dask_array, is_dask_array, tree_reduce
from .rank_one_eigh import DEFLATION_FACTOR, rank_one_eigh
from .threads import blas_single_thread
from .validation import check_array, check_positive

SHRINKS = ("standard", "halving")
#: The largest squared row norm of a sketch for the rank-one route (:func:`_rank_one_rows`): within
#: it, a square that underflowed is below 1e-108 of it and none overflowed.
SAFE_SIZE = (1e-200, 1e200)
#: The fitted state: what ``fit`` forgets and a chunked ``partial_fit`` takes from its merged sketch.
FITTED = ("sketch_", "n_filled_", "n_orthogonal_", "delta_", "n_shrinks_", "n_rows_seen_")


class FrequentDirections:
    """A mergeable Frequent Directions sketch, fed in batches of rows.

    Parameters
    ----------
    sketch_size : int >= 2
        ell, the number of rows of B; at most the row width d (checked on the
        first batch).
    shrink : {"halving", "standard"}
        The shrink index j (module docstring). Default: the paper's Algorithm 1.

    Attributes
    ----------
    sketch_ : ndarray (ell, d)
        B; rows ``n_filled_`` .. ell are zero. float32 when the first batch is float32 (then
        every shrink runs in single precision: the Gram, its eigh and Y^T B), else float64.
    n_filled_ : int
        Rows of B in use.
    n_orthogonal_ : int
        Leading rows of B that the last shrink left, mutually orthogonal: the next shrink's
        Gram takes their block as diagonal (:func:`sketch_gram`); 0 before the first shrink.
    delta_ : float
        Delta = sum over shrinks of delta_t = sigma_j^2 (the error certificate).
    n_shrinks_ : int
        Shrinks done so far (one ell x ell eigendecomposition each).
    n_rows_seen_ : int
        Rows of A inserted (merged sketches add theirs).
    """

    def __init__(self, sketch_size: int, shrink: str = "halving"):
        self.sketch_size = sketch_size
        self.shrink = shrink

    @property
    def shrink_index(self) -> int:
        """j: ell (standard) or floor(ell / 2) (halving)."""
        ell = self._check_params()
        return ell if self.shrink == "standard" else ell // 2

    def _check_params(self) -> int:
        ell = check_positive(self.sketch_size, "sketch_size", integer=True)
        if ell < 2:
            raise ValueError(f"sketch_size (ell) must be >= 2, got {ell}")
        if self.shrink not in SHRINKS:
            raise ValueError(f"shrink must be one of {SHRINKS}, got {self.shrink!r}")
        return ell

    def fit(self, A) -> "FrequentDirections":
        """Forget any earlier rows and sketch A."""
        for name in FITTED:
            self.__dict__.pop(name, None)
        return self.partial_fit(A)

    def partial_fit(self, A) -> "FrequentDirections":
        """Insert the rows of A (n x d) in order. A rejected batch (non-finite
        values, a d different from the earlier batches, ell > d) raises
        ``ValueError`` and leaves the sketch unchanged.

        A ``dask.array`` A is sketched chunk by chunk instead, one sketch per row
        chunk merged in a tree and then into this one (:meth:`merge`;
        :mod:`kernels.dask_arrays`): a different sketch from the sequential one
        with the same bound for [A_before; A]."""
        if is_dask_array(A):
            return self._partial_fit_chunked(A)
        A = check_array(A, "A", allow_float32=True)
        ell = self._check_params()
        if not hasattr(self, "sketch_"):
            if ell > A.shape[1]:
                raise ValueError(f"sketch_size (ell) = {ell} must not exceed the row width d = {A.shape[1]}")
            self.sketch_ = np.zeros((ell, A.shape[1]), dtype=A.dtype)
            self.n_filled_, self.n_orthogonal_, self.delta_, self.n_shrinks_, self.n_rows_seen_ = 0, 0, 0.0, 0, 0
        elif A.shape[1] != self.sketch_.shape[1]:
            raise ValueError(f"A must have d = {self.sketch_.shape[1]} columns like the earlier rows, "
                             f"got {A.shape[1]}")
        self._insert(A)
        self.n_rows_seen_ += A.shape[0]
        return self

    def _partial_fit_chunked(self, A) -> "FrequentDirections":
        """The dask path of :meth:`partial_fit`: the same checks on the shape, then
        B = sketch(A_1) merged with sketch(A_2), ... in a tree, merged into this sketch."""
        A = check_dask_array(A, "A")
        ell = self._check_params()
        if not hasattr(self, "sketch_") and ell > A.shape[1]:
            raise ValueError(f"sketch_size (ell) = {ell} must not exceed the row width d = {A.shape[1]}")
        if hasattr(self, "sketch_") and A.shape[1] != self.sketch_.shape[1]:
            raise ValueError(f"A must have d = {self.sketch_.shape[1]} columns like the earlier rows, "
                             f"got {A.shape[1]}")
        tree = tree_reduce(A, functools.partial(sketch_rows, ell, self.shrink), FrequentDirections.merge, "A")
        merged = self.merge(tree) if hasattr(self, "sketch_") else tree
        for name in FITTED:
            setattr(self, name, getattr(merged, name))
        return self

    def _insert(self, A):
        """Fill zero rows in stream order, shrinking whenever B is full. BLAS runs
        single-threaded here: a shrink's ell x d products are too small to gain from threads,
        and OpenBLAS threads spinning on them lose by orders of magnitude on a loaded
        machine (perf.skpca measures the sketch)."""
        pos, n, ell = 0, A.shape[0], self.sketch_.shape[0]
        j = self.shrink_index
        with blas_single_thread():
            while pos < n:
                take = min(ell - self.n_filled_, n - pos)
                self.sketch_[self.n_filled_:self.n_filled_ + take] = A[pos:pos + take]
                self.n_filled_ += take
                pos += take
                if self.n_filled_ == ell:
                    self._shrink(j)

    def _shrink(self, j):
        """One shrink of the full sketch, in place (:func:`shrink_rows`), and its bookkeeping."""
        delta = shrink_rows(self.sketch_, j, self.n_orthogonal_)
        self.n_filled_ = self.n_orthogonal_ = j - 1
        self.delta_ += delta
        self.n_shrinks_ += 1

    def merge(self, other: "FrequentDirections") -> "FrequentDirections":
        """A new sketch of the concatenation [A_self; A_other] (both unchanged).

        The filled rows of ``other`` are streamed into a copy of ``self``; the
        Deltas add, and the bound above holds for the concatenated matrix
        (each step removes a PSD part of norm <= its delta, and >= j delta of
        Frobenius mass), so sketches of chunks reduce in any tree, e.g. over
        the chunks of an array spread across machines.
        """
        if not isinstance(other, FrequentDirections):
            raise TypeError(f"other must be a FrequentDirections, got {type(other).__name__}")
        for sk, name in ((self, "self"), (other, "other")):
            if not hasattr(sk, "sketch_"):
                raise ValueError(f"{name} is empty: feed it rows with partial_fit before merging")
        if (self.sketch_size, self.shrink) != (other.sketch_size, other.shrink):
            raise ValueError("sketches to merge must have the same sketch_size and shrink, got "
                             f"({self.sketch_size}, {self.shrink!r}) and ({other.sketch_size}, {other.shrink!r})")
        if self.sketch_.shape[1] != other.sketch_.shape[1]:
            raise ValueError(f"sketches to merge must have the same d, got {self.sketch_.shape[1]} "
                             f"and {other.sketch_.shape[1]}")
        out = type(self)(self.sketch_size, self.shrink)
        out.sketch_ = self.sketch_.copy()
        out.n_filled_, out.n_orthogonal_ = self.n_filled_, self.n_orthogonal_
        out.delta_, out.n_shrinks_ = self.delta_, self.n_shrinks_
        out._insert(other.sketch_[:other.n_filled_])
        out.delta_ += other.delta_
        out.n_shrinks_ += other.n_shrinks_
        out.n_rows_seen_ = self.n_rows_seen_ + other.n_rows_seen_
        return out

    def covariance(self) -> np.ndarray:
        """B^T B (d x d), the approximation of A^T A."""
        self._check_fitted()
        B = self.sketch_[:self.n_filled_]
        return B.T @ B

    @property
    def space_(self) -> int:
        """Floats held: the ell x d sketch."""
        self._check_fitted()
        return self.sketch_.size

    def _check_fitted(self):
        if not hasattr(self, "sketch_"):
            raise RuntimeError("FrequentDirections is empty: call fit(A) or partial_fit(A) first")


@njit(cache=True)
def sketch_gram(B, n_orthogonal):
    """B B^T (ell x ell) for a sketch whose first ``n_orthogonal`` rows are mutually
    orthogonal (those a shrink left, the rows of sqrt(Sigma^2 - delta I) V^T): that block is
    diagonal, so only the other rows' products are formed,

    .. math::  G_{ii} = \\|b_i\\|^2 \\ (i < o), \\qquad G_{i,:} = b_i^T B^T \\ (i \\ge o), \\qquad o = n_{orthogonal},

    (ell - o) ell d multiplications instead of the ell^2 d / 2 of a SYRK: after a standard shrink
    (o = ell - 1) one row, after a halving one about half. The leading rows are orthogonal up to
    the round-off of the shrink that made them, of order eps ||B||_2^2, which is also the round-off
    of the Gram they are left out of."""
    ell = B.shape[0]
    G = np.zeros((ell, ell), dtype=B.dtype)
    for i in range(n_orthogonal):
        G[i, i] = np.dot(B[i], B[i])
    if n_orthogonal < ell:
        C = B[n_orthogonal:] @ B.T
        G[n_orthogonal:] = C
        G[:n_orthogonal, n_orthogonal:] = C[:, :n_orthogonal].T
    return G


@njit(cache=True)
def _gram_rows(B, j, n_orthogonal):
    """The kept rows' coefficients R ((j - 1) x ell: B <- R B) and delta, from the Gram's
    eigendecomposition B B^T = Y diag(lam) Y^T (LAPACK eigh of :func:`sketch_gram`),
    lam_1 >= ... >= lam_ell: delta = max(lam_j, 0), R_i = sqrt(max(lam_i - delta, 0) / lam_i) y_i^T
    (0 where lam_i <= 0)."""
    ell = B.shape[0]
    lam, Y = np.linalg.eigh(sketch_gram(B, n_orthogonal))  # ascending
    lam, Y = lam[::-1], Y[:, ::-1]
    delta = max(float(lam[j - 1]), 0.0)
    keep = j - 1
    R = np.zeros((keep, ell), dtype=B.dtype)
    for i in range(keep):
        top = float(lam[i])
        if top > 0.0:
            scale = np.sqrt(max(top - delta, 0.0) / top)
            for r in range(ell):
                R[i, r] = Y[r, i] * scale
    return R, delta


@njit(cache=True)
def _rank_one_rows(B, j):
    """:func:`_gram_rows` when the first ell - 1 rows are mutually orthogonal (a standard
    shrink's), in O(ell^2) for the eigenpairs instead of the eigh's O(ell^3). The Gram is then an
    arrowhead, diag(sigma_t^2) bordered by w_t = b_t^T z (z the last row) with corner ||z||^2; over
    the nonzero rows it is L L^T with

    .. math::  L = \\begin{pmatrix} \\operatorname{diag}(\\sigma) & 0 \\\\ c^T & c_r \\end{pmatrix},
               \\qquad c_t = w_t / \\sigma_t, \\qquad c_r^2 = \\|z\\|^2 - \\textstyle\\sum_t c_t^2,

    so its eigenvalues are those of L^T L = diag(sigma_1^2, ..., sigma_p^2, 0) + (c, c_r)(c, c_r)^T
    (:func:`kernels.rank_one_eigh.rank_one_eigh`), the others 0, and y_i = L u_i / ||L u_i||:
    sigma_t u_ti on b_t and (c, c_r)^T u_i on z. c_r^2 is the arrowhead's Schur complement: below
    -tol = -8 eps max(||z||^2, max sigma_t^2) (eps of B's dtype) the rows were not orthogonal enough for this form
    (tiny rows whose directions are round-off) and the shrink takes the eigh; between -tol and 0
    it is set to 0, a change of the Gram by at most tol. A row with lam_i <= tol is dropped (B^T B
    changes by at most tol): there L u_i is round-off, and y_i from it would be any direction. A
    sketch whose largest squared norm lies outside :data:`SAFE_SIZE`, where the squares above have
    underflowed or overflowed, takes the eigh too (LAPACK scales the Gram)."""
    ell = B.shape[0]
    o = ell - 1
    z = B[o]
    w = (B[:o] @ z).astype(np.float64)
    p = 0
    rows = np.empty(o, dtype=np.int64)
    sigma = np.empty(o)
    for t in range(o):
        s2 = float(np.dot(B[t], B[t]))
        if s2 > 0.0:
            rows[p], sigma[p] = t, np.sqrt(s2)
            p += 1
    e = np.zeros(p + 1)
    c = np.zeros(p + 1)
    for q in range(p):
        e[q] = sigma[q] * sigma[q]
        c[q] = w[rows[q]] / sigma[q]
    alpha = float(np.dot(z, z))
    size = max(alpha, float(np.max(e)))
    schur = alpha - float(np.dot(c, c))
    tol = DEFLATION_FACTOR * np.finfo(B.dtype).eps * size
    if schur < -tol or not SAFE_SIZE[0] < size < SAFE_SIZE[1]:
        return _gram_rows(B, j, o)
    c[p] = np.sqrt(max(schur, 0.0))
    lam, U = rank_one_eigh(e, c)  # ascending: p + 1 of B B^T's ell eigenvalues, the others 0
    lam, V = lam[::-1], np.ascontiguousarray(U[:, ::-1].T)  # V's rows: the u_i, descending
    delta = max(float(lam[j - 1]), 0.0) if j <= p + 1 else 0.0
    keep = j - 1
    R = np.zeros((keep, ell), dtype=B.dtype)
    for i in range(min(keep, p + 1)):
        top = float(lam[i])
        if top > tol:  # below, L u is round-off: the row (norm^2 <= tol) is dropped
            y_z = float(np.dot(c, V[i]))
            norm2 = y_z * y_z
            for q in range(p):
                norm2 += (sigma[q] * V[i, q]) ** 2
            scale = np.sqrt(max(top - delta, 0.0) / top / norm2)
            R[i, o] = scale * y_z
            for q in range(p):
                R[i, rows[q]] = scale * sigma[q] * V[i, q]
    return R, delta


@njit(cache=True)
def shrink_rows(B, j, n_orthogonal):
    """One shrink of the full sketch B (ell x d, C order) in place, j the shrink index, its first
    ``n_orthogonal`` rows those of the last shrink; returns delta. With B B^T = Y diag(lam) Y^T,
    lam_1 >= ... >= lam_ell, delta = max(lam_j, 0) and

    .. math::  b_i \\leftarrow \\sqrt{\\max(\\lambda_i - \\delta, 0) / \\lambda_i}\\; y_i^T B,
               \\qquad i < j,

    (0 where lam_i <= 0), rows j..ell zeroed: the rows of sqrt(Sigma^2 - delta I) V^T for
    B = Y Sigma V^T without forming V (module docstring). The eigenpairs are the Gram's eigh
    (:func:`_gram_rows`) or, when every row but the last is a standard shrink's, a rank-one update
    of a diagonal (:func:`_rank_one_rows`), in float64 for a float32 B too. Either gives the SVD
    route's sketch up to round-off of order eps ||B||_2^2 in B^T B (the directions with sigma_i^2
    near round-off get a factor <= 1 on a row of norm ~ eps ||B||_2, so they stay negligible);
    row signs are the solver's choice."""
    if n_orthogonal == B.shape[0] - 1:
        R, delta = _rank_one_rows(B, j)
    else:
        R, delta = _gram_rows(B, j, n_orthogonal)
    keep = j - 1
    if keep > 0:
        B[:keep] = R @ B
    B[keep:] = 0.0
    return delta


def sketch_rows(sketch_size: int, shrink: str, A) -> FrequentDirections:
    """A fresh sketch of the rows of A: one chunk's part of a tree of merges."""
    return FrequentDirections(sketch_size, shrink).fit(A)
