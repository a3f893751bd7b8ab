"""Planted faults of the landmarks claims: one plausible bug per selection rule,
each a strategy with the protocol ``select(X, kernel, random_state) -> sorted
distinct indices`` and a factory ``(m, s) -> strategy`` like the correct ones.

Not planted, because nothing here can detect it: leverage scores inverted
(p_i ∝ 1 / l_i) and a k-means that returns the first m rows. On these data the
ridge leverage scores vary by a factor of at most 1.4 (Fourier model) and 2.5
(digits), so the inverted draw is again nearly uniform (measured ratio to
uniform 0.97-1.04 at every m, 20-30 seeds, in prototype runs of both sweeps); the rows are i.i.d. (Fourier) or unordered
(digits), so the first m rows are a uniform sample.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kpca_suite.kernels import exact_leverage_scores
from kpca_suite.kernels.cholesky import cholesky_step
from kpca_suite.methods.landmarks import KMeansLandmarks, _check_m, _sq_dist


@dataclass(frozen=True)
class TopLeverageLandmarks:
    """The m rows of largest exact ridge leverage score l_i(s), taken
    deterministically instead of drawn with p_i ∝ l_i: ``argsort(-l)[:m]`` for
    ``rng.choice(n, m, p=l / sum(l))``. The largest scores sit together (near
    x = 0 on the Fourier model, on the outlying images of digits)."""

    m: int
    s: float

    def select(self, X, kernel, random_state=None):
        m = _check_m(self.m, X.shape[0])
        scores = exact_leverage_scores(X, kernel, self.s)
        return np.sort(np.argsort(-scores, kind="stable")[:m])


def top_leverage(m, s):
    return TopLeverageLandmarks(m, s)


@dataclass(frozen=True)
class SnapToFirstKMeans(KMeansLandmarks):
    """k-means whose snapping step reads the distances of the first centre for
    every centre (``D[0]`` for ``D[c]``): the landmarks are the m rows nearest one
    centre, a crowded set."""

    def select(self, X, kernel=None, random_state=None):
        C = self.centres(X, random_state)
        d = _sq_dist(C[:1], X)[0]
        return np.sort(np.argsort(d, kind="stable")[:self.m])


def snap_to_first(m, s):
    return SnapToFirstKMeans(m)


@dataclass(frozen=True)
class SmallestResidualCholesky:
    """Pivoted incomplete Cholesky that pivots on the smallest residual
    (``argmin`` for ``argmax``) among the rows whose residual is above
    ``tol`` max_i K_ii, i.e. on the row best explained by the span so far: every
    new landmark is a near-copy of the old ones. Stops early when no residual is
    above the floor (then fewer than m indices)."""

    m: int
    tol: float = 1e-12

    def select(self, X, kernel, random_state=None):
        n = X.shape[0]
        m = _check_m(self.m, n)
        residual = np.array(kernel.diag(X, validate=False), dtype=np.float64)
        floor = self.tol * residual.max()
        G = np.zeros((n, m))
        chosen = []
        for j in range(m):
            live = np.flatnonzero(residual > floor)
            if live.size == 0:
                break
            i = int(live[np.argmin(residual[live])])
            col = np.ascontiguousarray(kernel.block(X, X[i:i + 1], validate=False)[:, 0], dtype=np.float64)
            cholesky_step(G, residual, col, j, i)
            chosen.append(i)
        return np.sort(np.asarray(chosen, dtype=np.int64))


def smallest_residual(m, s):
    return SmallestResidualCholesky(m)
