"""Landmark ("center") selection strategies, one small object each (as Falkon),
and the one place where an estimator's ``landmarks`` parameter is resolved.

``select(X, kernel, random_state) -> indices`` returns sorted, distinct row
indices of X.

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

from kpca_suite.kernels import (Kernel, approximate_leverage_scores, check_positive, check_random_state,
                     exact_leverage_scores)


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
        idx = np.unique(np.asarray(self.indices, dtype=np.int64))
        if idx.size != len(self.indices):
            raise ValueError("indices of FixedLandmarks must be distinct")
        if idx.size == 0 or idx[0] < 0 or idx[-1] >= X.shape[0]:
            raise ValueError(f"indices of FixedLandmarks must lie in [0, {X.shape[0]}) and not be empty")
        return idx
