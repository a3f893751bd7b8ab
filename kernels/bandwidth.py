"""Bandwidth rules for the Gaussian kernel k(x, y) = exp(-gamma ||x - y||^2),
the one place every claim takes its gamma from (each claim names its rule).

``median_gamma(X, scale)``      gamma = scale / median_{i<j} ||x_i - x_j||^2 over a
                                subsample of at most ``max_points`` rows (the median
                                heuristic; scale = 1/2 is sigma = the median distance
                                in exp(-||x-y||^2 / (2 sigma^2)));
``mean_distance_gamma(X)``      gamma = 1 / sigma^2 with sigma the mean distance over
                                all n^2 ordered pairs, diagonal included.

Distances come from one GEMM (||x||^2 + ||y||^2 - 2 x^T y, clipped at 0): no
(n, n, d) temporary.
"""

from __future__ import annotations

import numpy as np

from .validation import check_array, check_positive, check_random_state


def pairwise_sq_distances(X, name: str = "X") -> np.ndarray:
    """||x_i - x_j||^2 for all pairs, shape (n, n), clipped at 0, with an exact
    zero diagonal (the GEMM form leaves round-off of order eps ||x_i||^2 there,
    which a square root would amplify to sqrt(eps) ||x_i||). ``X`` goes through
    :func:`check_array` (real, 2-D, finite; bool becomes 0 / 1 floats)."""
    X = check_array(X, name)
    sq = np.einsum("ij,ij->i", X, X)
    d2 = np.maximum(sq[:, None] + sq[None, :] - 2.0 * (X @ X.T), 0.0)
    np.fill_diagonal(d2, 0.0)
    return d2


def _distinct(d2, name) -> None:
    if not np.any(d2 > 0):
        raise ValueError(f"{name} has no two distinct rows: no bandwidth can be set from its distances")


def median_gamma(X, scale: float = 1.0, max_points: int = 1000, random_state=0, name: str = "X") -> float:
    """gamma = scale / median of ||x_i - x_j||^2 over the pairs i < j of at most
    ``max_points`` rows drawn without replacement with ``random_state``."""
    X = check_array(X, name)
    check_positive(scale, "scale")
    check_positive(max_points, "max_points", integer=True)
    if max_points < 2:
        raise ValueError(f"max_points must be >= 2 (a median distance needs a pair of rows), got {max_points}")
    if len(X) < 2:
        raise ValueError(f"{name} needs at least 2 rows for a median distance, got {len(X)}")
    rng = check_random_state(random_state)
    sub = X[rng.choice(len(X), size=min(len(X), max_points), replace=False)]
    d2 = pairwise_sq_distances(sub)[np.triu_indices(len(sub), 1)]
    _distinct(d2, name)
    med = float(np.median(d2))
    if med <= 0:
        raise ValueError(f"{name}: more than half of the sampled pairs are identical rows; the median "
                         "distance is 0 and gives no bandwidth")
    return float(scale / med)


def mean_distance_gamma(X, name: str = "X") -> float:
    """gamma = 1 / sigma^2, sigma = (1/n^2) sum_{i,j} ||x_i - x_j|| over all ordered
    pairs, the diagonal included."""
    X = check_array(X, name)
    d2 = pairwise_sq_distances(X)
    _distinct(d2, name)
    sigma = np.sqrt(d2).sum() / X.shape[0] ** 2
    return float(1.0 / sigma**2)
