"""The kernel protocol: what every estimator of :mod:`methods` needs from a kernel.

A kernel is any object with

* ``block(X, Y=None, *, validate=True)``: the matrix K[i, j] = k(x_i, y_j) (``Y=None``
  means ``Y = X``), shape (len(X), len(Y));
* ``diag(X, *, validate=True)``: k(x_i, x_i) for every row, without forming a block.

:class:`kernels.Kernel` (Gaussian, Laplacian, ... on R^d) and
:class:`kernels.PeriodicKernel` (the periodic kernels on [0, 1) with exact Mercer
spectra) both satisfy it; estimators check ``isinstance(kernel, KernelLike)``.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class KernelLike(Protocol):
    """A kernel the estimators can evaluate: ``block`` and ``diag`` (module docstring)."""

    def block(self, X, Y=None, *, validate: bool = True) -> np.ndarray:
        ...

    def diag(self, X, *, validate: bool = True) -> np.ndarray:
        ...
