"""Counts of the work and memory of running code, for the claims that check a paper's cost
statements (``how="cost: ..."`` in an inventory): measured from the code as it runs and
independent of the machine's load, never seconds.

- :func:`traced_peak`: the peak bytes :mod:`tracemalloc` traces while a call runs (numpy's
  allocations are traced), above what was allocated before it;
- :class:`CountingKernel` and :class:`CountingPeriodicKernel`: kernels that count the entries
  of the blocks they evaluate (``counts["entries"]``; the periodic kernel's diagonal too, which
  it computes, where a translation-invariant kernel's is a constant);
- :class:`CountingFeatures` and :func:`counted`: a random Fourier feature map that counts the
  rows it transforms (``counts["rows"]``), and an estimator class drawing its map as one.
"""

from __future__ import annotations

import tracemalloc
from dataclasses import dataclass, field

from kpca_suite.kernels import Kernel
from kpca_suite.kernels.periodic import PeriodicKernel
from kpca_suite.kernels.random_features import RandomFourierFeatures


def traced_peak(fn) -> int:
    """Peak traced bytes (tracemalloc) above the level before ``fn()``. Under the runner
    (already tracing) this resets its peak, so the cell's recorded peak is that of ``fn`` too."""
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    base, _ = tracemalloc.get_traced_memory()
    tracemalloc.reset_peak()
    try:
        fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        if started:
            tracemalloc.stop()
    return peak - base


def _count(counts: dict, key: str, k: int) -> None:
    counts[key] = counts.get(key, 0) + k


@dataclass(frozen=True)
class CountingKernel(Kernel):
    """A :class:`~kpca_suite.kernels.Kernel` that counts the entries of the blocks it evaluates."""

    counts: dict = field(default_factory=dict, compare=False)

    def block(self, X, Y=None, **kw):
        K = super().block(X, Y, **kw)
        _count(self.counts, "entries", K.size)
        return K


@dataclass(frozen=True)
class CountingPeriodicKernel(PeriodicKernel):
    """A periodic kernel that counts the entries of the blocks and diagonals it evaluates."""

    counts: dict = field(default_factory=dict, compare=False)

    def block(self, X, Y=None, **kw):
        K = super().block(X, Y, **kw)
        _count(self.counts, "entries", K.size)
        return K

    def diag(self, X, **kw):
        v = super().diag(X, **kw)
        _count(self.counts, "entries", v.size)
        return v


@dataclass(frozen=True)
class CountingFeatures(RandomFourierFeatures):
    """A random Fourier feature map that counts the rows it transforms (``counts["rows"]``)."""

    counts: dict = field(default_factory=dict, compare=False)

    def transform(self, X):
        Z = super().transform(X)
        _count(self.counts, "rows", Z.shape[0])
        return Z


def counted(cls):
    """``cls`` (a random-feature estimator) drawing its map as a :class:`CountingFeatures`."""

    def _draw_feature_map(self, d, rng):
        f = super(sub, self)._draw_feature_map(d, rng)
        return CountingFeatures(f.omega, f.phase, f.variant, {})

    sub = type(f"Counted{cls.__name__}", (cls,), {"_draw_feature_map": _draw_feature_map})
    return sub
