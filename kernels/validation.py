"""Input validation at the Python boundary (the jitted routines assume clean input).

Every error is a ``ValueError`` (or ``TypeError`` for a wrong type) whose message
names the offending parameter, in the style of scikit-learn's ``check_array``.
"""

from __future__ import annotations

import numbers

import numpy as np


def check_array(X, name: str = "X", ndim: int = 2, dtype=np.float64, min_rows: int = 1,
                allow_float32: bool = False) -> np.ndarray:
    """Return ``X`` as a C-contiguous float array of ``ndim`` dimensions.

    Rejects non-numeric data, wrong dimensionality, fewer than ``min_rows`` rows
    (an empty array), zero columns, and NaN or inf. float64 unless
    ``allow_float32`` and the input is already float32.
    """
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
    if not np.isfinite(arr).all():
        raise ValueError(f"{name} contains NaN or inf")
    return arr


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
