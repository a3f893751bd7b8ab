"""Helpers every claim module uses: per-cell random streams, grouping finished
cells into (sizes x seeds) arrays, and combining partial statuses."""

from __future__ import annotations

import zlib

import numpy as np

from .registry import Cell


def cell_rng(cell: Cell, stream: str = "data") -> np.random.Generator:
    """An independent, reproducible generator for one cell and one purpose.

    Seeded by (claim, seed, n, stream) only, so every method of a cell sees the
    same sample for the same (seed, n): comparisons between methods are paired.
    """
    words = [zlib.crc32(cell.claim.encode()), cell.seed, cell.n, zlib.crc32(stream.encode())]
    return np.random.default_rng(np.random.SeedSequence(words))


def collect(results, metric: str, method=None, key=lambda c: c.n):
    """Group a metric into sorted sizes x and a (len(x), n_seeds) array Y.

    Missing (size, seed) pairs are NaN. ``key`` picks the abscissa from the
    cell (default n); ``method`` filters cells.
    """
    rows = [r for r in results if method is None or r.cell.method == method]
    xs = sorted({key(r.cell) for r in rows})
    seeds = sorted({r.cell.seed for r in rows})
    Y = np.full((len(xs), len(seeds)), np.nan)
    xi = {x: i for i, x in enumerate(xs)}
    si = {s: j for j, s in enumerate(seeds)}
    for r in rows:
        Y[xi[key(r.cell)], si[r.cell.seed]] = r.metrics[metric]
    return np.asarray(xs, dtype=float), Y


def combine(statuses) -> str:
    """fails if any part fails, holds if all hold, else inconclusive."""
    statuses = list(statuses)
    if "fails" in statuses:
        return "fails"
    if statuses and all(s == "holds" for s in statuses):
        return "holds"
    return "inconclusive"


def fmt_ci(fit) -> str:
    return f"{fit.slope:+.3f} [{fit.ci[0]:+.3f}, {fit.ci[1]:+.3f}]"
