"""Real data sets: the ones packages ship, and a user's own file. Nothing is
downloaded at run time.

* ``digits``: scikit-learn's bundled 8 x 8 digits (n = 1797, d = 64, pixels 0..16).
* a user file (``--data PATH``) for MNIST-scale runs:
  - ``.npz`` with arrays ``X`` (n, d) and optional ``y`` (n,), or Keras'
    ``mnist.npz`` layout ``x_train`` (n, 28, 28) / ``y_train``; images are
    flattened to rows;
  - ``.csv`` of numbers, one sample per row, the label in the first column (the
    common ``mnist_train.csv`` layout); a non-numeric first line is a header.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from kernels import check_array


def load_digits_data(digit=None):
    """scikit-learn's digits as float64 (raw 0..16 pixels) and labels."""
    from sklearn.datasets import load_digits

    X, y = load_digits(return_X_y=True)
    return _select(np.asarray(X, dtype=np.float64), y, digit, "digits")


def load_user_data(path, digit=None):
    """A user's npz / csv file (layouts in the module docstring) -> (X, y).

    ``digit`` keeps only the rows of that label (e.g. MNIST digit 5, as seed 000).
    Errors name the file and what is wrong with it.
    """
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"data file {str(path)!r} does not exist")
    suffix = path.suffix.lower()
    try:
        if suffix == ".npz":
            X, y = _read_npz(path)
        elif suffix == ".csv":
            X, y = _read_csv(path)
        else:
            raise ValueError(f"data file {str(path)!r}: expected a .npz or .csv file")
    except (OSError, ValueError, KeyError) as exc:
        if str(path) in str(exc):
            raise
        raise ValueError(f"data file {str(path)!r} could not be read: {exc}") from None
    X = check_array(X.reshape(X.shape[0], -1) if X.ndim > 2 else X, f"data file {str(path)!r}")
    if y is not None and len(y) != X.shape[0]:
        raise ValueError(f"data file {str(path)!r}: {X.shape[0]} samples but {len(y)} labels")
    return _select(X, y, digit, str(path))


def _read_npz(path):
    with np.load(path, allow_pickle=False) as z:
        keys = set(z.files)
        for xk, yk in (("X", "y"), ("x_train", "y_train")):
            if xk in keys:
                return np.asarray(z[xk], dtype=np.float64), (np.asarray(z[yk]) if yk in keys else None)
    raise ValueError(f"data file {str(path)!r} holds {sorted(keys)}; expected an array 'X' (or 'x_train')")


def _read_csv(path):
    with open(path) as fh:
        first = fh.readline()
    try:
        [float(v) for v in first.strip().split(",")]
        skip = 0
    except ValueError:
        skip = 1
    data = np.loadtxt(path, delimiter=",", skiprows=skip, ndmin=2)
    if data.shape[1] < 2:
        raise ValueError(f"data file {str(path)!r}: a csv needs a label column and at least one feature")
    return data[:, 1:], data[:, 0]


def _select(X, y, digit, name):
    if digit is None:
        return X, y
    if y is None:
        raise ValueError(f"digit = {digit} was asked for but {name} has no labels")
    keep = y == digit
    if not keep.any():
        raise ValueError(f"{name} has no sample with label digit = {digit}")
    return X[keep], y[keep]
