"""Landmark ("center") selection strategies, one small object each (as Falkon).

``select(X, kernel, random_state) -> indices`` returns sorted, distinct row
indices of X.
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
