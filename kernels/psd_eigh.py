"""The eigenpairs of a positive semidefinite matrix above a relative cut-off, at the cost
of the ones kept when they are few.

For K (m x m, PSD) and a cut-off rcond, :func:`eigh_above` returns the eigenpairs with
eigenvalue s > rcond x s_max, as the full ``np.linalg.eigh`` would after discarding the
rest. The full divide-and-conquer solve computes all m eigenvectors; LAPACK's MRRR
(``syevr``) with a range of values computes only those in the range, and took 0.44 s
against 0.85-1.05 s at m = 2052 with 33 kept (a Gaussian kernel on points of a line,
sterge20.cor43-gaussian's quick cell), one thread. It is several times slower when most
are kept (5x at m = 2000 with 1790 of 2000 kept), so it is used only when a pivoted
Cholesky probe has shown the numerical rank to be small:

r steps of the pivoted Cholesky factorisation K ~ G G^T (G m x r, O(m r^2), no kernel
evaluation: the columns are K's) that stop because every residual diagonal is at most
(rcond / m) max_i K_ii leave E = K - G G^T PSD with ||E||_2 <= tr E <= rcond max_i K_ii
<= rcond s_max, so by Weyl's inequality s_{r+1}(K) <= ||E||_2: at most r eigenvalues
exceed rcond s_max. The probe runs at most m / :data:`LOW_RANK_DIVISOR` steps; if it
does not stop by then, the full solve runs.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg as sla

from .cholesky import pivoted_steps

#: The probe's step budget is m // LOW_RANK_DIVISOR: MRRR's cost grows with the number of
#: eigenvectors kept, and at m / 8 of them it was still below the full solve's (measured
#: at m = 1000 and 2000: 0.55x and 0.44x at 3% kept, 1.9x at 36% kept).
LOW_RANK_DIVISOR = 8

#: Below this size the full solve takes milliseconds and no probe runs (at m = 300 with 29
#: kept, 4 ms full against 5 ms probe and MRRR).
MIN_PROBE_SIZE = 512


def numerical_rank_at_most(K, tol: float, max_steps: int):
    """The number of steps r <= max_steps after which the pivoted Cholesky factorisation of
    the PSD matrix K (:func:`kernels.cholesky.pivoted_steps` on K's own rows, which are its
    columns) leaves every residual diagonal <= tol x max_i K_ii, or None if it does not within
    max_steps (module docstring)."""
    residual = np.array(np.diagonal(K), dtype=np.float64)
    floor = tol * residual.max()
    _, chosen, _ = pivoted_steps(lambda i: np.ascontiguousarray(K[i]), residual, floor, max_steps)
    return len(chosen) if residual.max() <= floor else None


def eigh_above(K, rcond: float):
    """(s, V): the eigenvalues s > rcond x max(s) of the symmetric PSD matrix K, ascending,
    and their orthonormal eigenvectors (columns of V); the same pairs as ``np.linalg.eigh``
    up to round-off and the signs of the columns. MRRR on the kept range when the probe
    of the module docstring bounds their number by m / LOW_RANK_DIVISOR (the range starts at
    rcond x max(max_i K_ii, 1^T K 1 / m), two lower bounds of s_max), else, or if MRRR
    stops with an error (it can on tight clusters of equal eigenvalues), the full solve."""
    m = K.shape[0]
    if m >= MIN_PROBE_SIZE and numerical_rank_at_most(K, rcond / m, m // LOW_RANK_DIVISOR) is not None:
        lower = rcond * max(float(np.max(np.diagonal(K))), float(K.sum()) / m)
        try:
            s, V = sla.eigh(K, driver="evr", subset_by_value=(lower, np.inf), check_finite=False)
        except np.linalg.LinAlgError:
            pass
        else:
            if s.size:
                keep = s > rcond * s.max()
                return s[keep], V[:, keep]
    s, V = np.linalg.eigh(K)
    keep = s > rcond * s.max()
    return s[keep], V[:, keep]
