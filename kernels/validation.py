"""Input validation at the Python boundary (the jitted routines assume clean input).

Every error is a ``ValueError`` (or ``TypeError`` for a wrong type) whose message
names the offending parameter, in the style of scikit-learn's ``check_array``.
"""

from __future__ import annotations

import numbers
import sys

import numpy as np


def check_array(X, name: str = "X", ndim: int = 2, dtype=np.float64, min_rows: int = 1,
                allow_float32: bool = False) -> np.ndarray:
    """Return ``X`` as a C-contiguous float array of ``ndim`` dimensions.

    Rejects a scipy.sparse matrix (``TypeError``: pass ``X.toarray()``),
    non-numeric data, wrong dimensionality, fewer than ``min_rows`` rows (an empty
    array), zero columns, NaN or inf, and (2-D) rows whose squared norms exceed a
    quarter of the float maximum (:func:`check_sq_norms`). float64 unless
    ``allow_float32`` and the input is already float32.
    """
    if _is_sparse(X):
        raise TypeError(f"{name} is a scipy.sparse matrix; kpca-suite estimators need a dense array: "
                        f"pass {name}.toarray()")
    try:
        arr = np.asarray(X)
    except Exception as exc:  # ragged lists and the like
        raise ValueError(f"{name} could not be converted to an array: {exc}") from None
    if arr.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype}")
    if arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-D, got an array of shape {arr.shape}")
    if arr.shape[0] < min_rows:
        raise ValueError(f"{name} is empty: it needs at least {min_rows} row(s), got shape {arr.shape}")
    if ndim == 2 and arr.shape[1] == 0:
        raise ValueError(f"{name} has no columns (shape {arr.shape})")
    target = np.float32 if (allow_float32 and arr.dtype == np.float32) else dtype
    arr = np.ascontiguousarray(arr, dtype=target)
    if ndim == 2:
        check_sq_norms(arr, name)
    elif not np.isfinite(arr).all():
        raise ValueError(f"{name} contains NaN or inf")
    return arr


def _is_sparse(X) -> bool:
    """A scipy.sparse matrix or array. No import: if ``scipy.sparse`` was never
    imported, no object can be one."""
    sparse = sys.modules.get("scipy.sparse")
    return sparse is not None and sparse.issparse(X)


def check_sq_norms(X: np.ndarray, name: str = "X") -> None:
    """Every row of the 2-D float array X is finite with ||x_i||^2 <= F / 4, F the
    largest float of X's dtype; else a ValueError naming ``name``.

    The bound keeps every squared distance of the kernel blocks,
    ||x||^2 + ||y||^2 - 2 x^T y <= (||x|| + ||y||)^2 <= 4 max_i ||x_i||^2, and every
    partial sum of the GEMM X Y^T (Cauchy-Schwarz) inside the float range: without it
    |x| ~ 1e155 gives inf - inf = NaN in the Gaussian and Cauchy blocks, diagonal
    included. One pass (the row norms of a NaN or inf row are NaN or inf, so it
    also finds those).
    """
    with np.errstate(over="ignore", invalid="ignore"):
        sq = np.einsum("ij,ij->i", X, X)
    if np.all(sq <= np.finfo(X.dtype).max / 4):
        return
    if not np.isfinite(X).all():
        raise ValueError(f"{name} contains NaN or inf")
    raise ValueError(f"{name}: squared norms overflow {X.dtype} (max |x| = {np.abs(X).max():.3g}); "
                     "rescale the data")


def check_same_width(X: np.ndarray, Y: np.ndarray, x_name: str = "X", y_name: str = "Y") -> None:
    """Both 2-D arrays must have the same number of columns (dimension d)."""
    if X.shape[1] != Y.shape[1]:
        raise ValueError(
            f"{x_name} and {y_name} must have the same number of columns (d), "
            f"got {X.shape[1]} and {Y.shape[1]}"
        )


def check_positive(value, name: str, integer: bool = False, allow_zero: bool = False):
    """A finite number > 0 (or >= 0 with ``allow_zero``); an ``int`` if ``integer``."""
    kind = numbers.Integral if integer else numbers.Real
    if isinstance(value, bool) or not isinstance(value, kind):
        raise TypeError(f"{name} must be {'an integer' if integer else 'a real number'}, got {value!r}")
    if not np.isfinite(value) or value < 0 or (value == 0 and not allow_zero):
        raise ValueError(f"{name} must be {'>=' if allow_zero else '>'} 0, got {value!r}")
    return int(value) if integer else float(value)


def check_rank(k, name: str, upper: int, upper_name: str) -> int:
    """An integer 1 <= k <= upper, e.g. the number of components ell <= m."""
    k = check_positive(k, name, integer=True)
    if k > upper:
        raise ValueError(f"{name} = {k} must not exceed {upper_name} = {upper}")
    return k


def check_random_state(random_state) -> np.random.Generator:
    """An int seed, None, or a ``numpy.random.Generator`` -> a Generator."""
    if isinstance(random_state, np.random.Generator):
        return random_state
    if random_state is None or isinstance(random_state, (numbers.Integral, np.random.SeedSequence)):
        return np.random.default_rng(random_state)
    raise TypeError(f"random_state must be None, an int or a numpy Generator, got {random_state!r}")
