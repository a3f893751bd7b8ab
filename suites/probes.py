"""What a claim reads from an estimator through its role (:mod:`suites.roles`):
nothing but ``fit`` / ``partial_fit`` / ``transform`` / ``predict``.

``fitted_subspace``   on an explicit-feature model with the linear kernel,
                      transform is linear in the feature row (affine when the
                      estimator centres): probing it at 0 and at the unit rows
                      recovers the fitted subspace;
``stream``            one pass of ``partial_fit`` over consecutive chunks;
``row_chunks``        the data as a dask array of row chunks, for the claims that
                      check an estimator's chunked path against its in-memory fit
                      (``last_chunk_misread`` is their planted fault).
"""

from __future__ import annotations

import numpy as np

from .roles import EPS64, EstimatorDefect

AFFINE_RTOL = 1e-8  # transform(x) - (b + x W) at random probes, relative to |transform| (round-off ~1e-14)
RANK_RTOL = 1e-10   # singular values below this fraction of the largest do not span the subspace
#: An implementation whose output is in lower precision (float32) is held to PER_EPS times
#: its machine epsilon in both (float32: 1.2e-4).
PER_EPS = 1e3


def fitted_subspace(est, dim: int, rng: np.random.Generator) -> np.ndarray:
    """Orthonormal basis (dim, r) of the subspace onto which ``est`` projects.

    With the linear kernel on feature rows x in R^dim, a KPCA transform is
    t(x) = b + x W (b = 0 when uncentred); W = t(e_i) - t(0) row by row, and
    the span of W's columns is the fitted subspace (whatever the scaling or
    rotation of the scores). Checked on 8 random probes; a transform that is not
    affine is a defect of the estimator (:class:`~suites.roles.EstimatorDefect`: a KPCA
    of the linear kernel is an affine map). Both tolerances follow the output's precision
    (:data:`PER_EPS` times ``est.eps_`` when it is seen through :class:`~suites.roles.Checked`).
    """
    zero = np.asarray(est.transform(np.zeros((1, dim))), dtype=float)
    W = np.asarray(est.transform(np.eye(dim)), dtype=float) - zero
    probes = rng.standard_normal((8, dim)) / np.sqrt(dim)
    got = np.asarray(est.transform(probes), dtype=float)
    eps = getattr(est, "eps_", EPS64)
    off = np.max(np.abs(got - (zero + probes @ W))) / max(1.0, float(np.max(np.abs(got))))
    if off > max(AFFINE_RTOL, PER_EPS * eps):
        name = type(getattr(est, "_est", est)).__name__
        raise EstimatorDefect(f"{name}.transform is not affine in the feature rows with the linear kernel (off by "
                              f"{off:.1e} of its output): its subspace cannot be recovered from transform alone")
    U, s, _ = np.linalg.svd(W, full_matrices=False)
    return U[:, s > max(RANK_RTOL, PER_EPS * eps) * s[0]] if s.size and s[0] > 0 else U[:, :0]


def stream(est, X: np.ndarray, chunk: int):
    """``est.partial_fit`` over consecutive chunks of ``chunk`` rows (the last may be
    shorter; it is merged into the one before when shorter than ``chunk // 2``, so
    that an estimator needing k rows per call gets them); returns ``est``."""
    starts = list(range(0, len(X), chunk))
    if len(starts) > 1 and len(X) - starts[-1] < chunk // 2:
        starts.pop()
    bounds = starts[1:] + [len(X)]
    for a, b in zip(starts, bounds):
        est.partial_fit(X[a:b])
    return est


def row_chunks(X: np.ndarray, rows: int):
    """X as a dask array of row chunks of ``rows`` rows."""
    import dask.array as da

    return da.from_array(X, chunks=(rows, X.shape[1]))


def last_chunk_misread(X: np.ndarray, rows: int):
    """A planted fault: the last row chunk holds the first chunk's rows again (chunk
    bookkeeping off by one part), so the chunked sums miss the last rows."""
    import dask.array as da

    Xd = row_chunks(X, rows)
    return da.concatenate([Xd[: X.shape[0] - rows], Xd[:rows]])
