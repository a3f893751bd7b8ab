"""Dask arrays: the one place where kpca-suite meets one (dask is a dependency;
``distributed``, for a cluster, is the ``dask`` extra).

``fit`` of :class:`~methods.skpca.SKPCA`, :class:`~methods.rf_erm.RFERM`,
:class:`~methods.nystrom.NystromKPCA` and
:class:`~kernels.frequent_directions.FrequentDirections` takes a chunked path when X
is a ``dask.array.Array`` (:func:`is_dask_array`); NumPy input never comes here, and
nothing here imports Dask until a Dask array is met (one can exist only once
``dask.array`` is imported).

The path:

1. :func:`check_dask_array` checks what needs no data: 2-D, chunk sizes known along
   the rows (boolean masking leaves them unknown: NaN in ``X.shape``), a real dtype,
   at least one row and one column; column chunks are joined into one, since every
   task needs whole rows.
2. :func:`tree_reduce` maps every row chunk X_c (rows a_c .. b_c - 1) to a partial
   result f(X_c), validating the rows where they are read (float64, finite: NaN or
   inf is a ValueError naming X and the chunk's rows), then combines the partial
   results in a tree, ``split_every`` at a time, each group folded left to right in
   row order:

   .. math::  R = f(X_1) \\oplus f(X_2) \\oplus \\cdots \\oplus f(X_C).

   * A sum of per-chunk terms (RF-ERM: Z^T Z = sum_c Z_c^T Z_c; Nyström:
     K_mn K_nm = sum_c K_cm^T K_cm, K_mn 1 = sum_c K_cm^T 1, tr K = sum_c tr K_cc):
     the in-memory numbers up to the order of the additions.
   * Frequent Directions: a sketch per chunk, merged (:meth:`FrequentDirections.merge`)
     up the tree. The merged sketch is not the sequential one (shrinks happen at
     other rows), but it carries the same guarantee for the whole matrix A,
     0 <= A^T A - B^T B, ||A^T A - B^T B||_2 <= Delta <= ||A - A_k||_F^2 / (j - k)
     (the Deltas of merged sketches add; see the merge's docstring).

The tree is one ``dask.compute``: on a ``distributed.Client``'s cluster if one is
active (the partial results travel between workers, only the root comes back), on
Dask's threaded scheduler otherwise. The driver holds BLAS at one thread during the
compute: the threaded scheduler runs one chunk per thread already, and the
per-task BLAS limits of the sketches (:func:`~kernels.frequent_directions.blas_single_thread`)
then stay at one thread whatever their interleaving. (Numba's parallel loops, the
Laplacian block and the Fourier features, need a thread-safe threading layer, omp or
tbb, under the threaded scheduler; Numba picks one when installed.)
"""

from __future__ import annotations

import functools
import math
import os
import sys

import numpy as np

from .threads import blas_single_thread
from .validation import check_array, check_positive

#: Partial results combined per node of the tree (``split_every`` of :func:`tree_reduce`).
SPLIT_EVERY = 4


def is_dask_array(X) -> bool:
    """Whether X is a ``dask.array.Array``. No import: if ``dask.array`` was never
    imported, no object can be one."""
    da = sys.modules.get("dask.array")
    return da is not None and isinstance(X, da.Array)


def check_dask_array(X, name: str = "X"):
    """X checked without reading it, with one chunk along the columns.

    Raises ``ValueError`` (``TypeError`` for a dtype that is not real) naming ``name``:
    not 2-D, unknown chunk sizes, no rows, no columns.
    """
    if X.ndim != 2:
        raise ValueError(f"{name} must be 2-D, got a dask array of shape {X.shape}")
    if any(math.isnan(c) for c in X.chunks[0]):
        raise ValueError(f"{name} is a dask array with unknown chunk sizes (shape {X.shape}, e.g. after "
                         f"boolean masking): call {name}.compute_chunk_sizes() first")
    if X.dtype.kind not in "biuf":
        raise TypeError(f"{name} must hold real numbers, got dtype {X.dtype}")
    if X.shape[0] < 1:
        raise ValueError(f"{name} is empty: it needs at least 1 row(s), got shape {X.shape}")
    if X.shape[1] == 0:
        raise ValueError(f"{name} has no columns (shape {X.shape})")
    return X if len(X.chunks[1]) == 1 else X.rechunk({1: -1})


def row_ranges(X) -> list:
    """(a_c, b_c) of every row chunk of X, in order."""
    bounds = np.cumsum((0,) + tuple(X.chunks[0]))
    return [(int(a), int(b)) for a, b in zip(bounds[:-1], bounds[1:])]


def check_chunk(rows, start: int, stop: int, name: str = "X", width: int = None) -> np.ndarray:
    """Rows ``start .. stop - 1`` of ``name`` as read from one chunk, through
    :func:`kernels.check_array` (float64, C order, finite, no overflowing norms); its
    ValueError is raised again with the row range appended. A chunk whose shape
    contradicts the one the dask array declares for it (``stop - start`` rows,
    ``width`` columns) is a ValueError naming the chunk: no fit may divide by a count
    of rows it did not see."""
    shape = np.shape(rows)
    if len(shape) != 2 or shape[0] != stop - start or (width is not None and shape[1] != width):
        raise ValueError(f"{name}: the chunk declared as rows {start}..{stop - 1} "
                         f"({stop - start} x {width if width is not None else '?'}) of the dask array holds an "
                         f"array of shape {shape}: its chunks contradict the shape it declares")
    try:
        return check_array(rows, name)
    except ValueError as exc:
        raise ValueError(f"{exc}, in rows {start}..{stop - 1} (one chunk of the dask array {name})") from None


def gather_rows(X, indices, name: str = "X") -> np.ndarray:
    """The rows ``indices`` of X (e.g. landmarks) through :func:`kernels.check_array`;
    a row with NaN or inf is a ValueError naming ``name`` and the row. Reads every
    chunk that holds one of them."""
    import dask
    indices = np.asarray(indices)
    X = check_dask_array(X, name)
    parts, picked = [], []
    for block, (start, stop) in zip(X.to_delayed().ravel(), row_ranges(X)):
        here = indices[(indices >= start) & (indices < stop)]
        if here.size:
            parts.append(dask.delayed(_pick_rows)(block, start, stop, name, X.shape[1], here - start))
            picked.append(here)
    by_chunk = np.concatenate(dask.compute(*parts)).astype(np.float64, copy=False)
    rows = np.empty_like(by_chunk)  # back to the order of ``indices``
    rows[np.argsort(indices, kind="stable")] = by_chunk[np.argsort(np.concatenate(picked), kind="stable")]
    finite = np.isfinite(rows).all(axis=1)
    if not finite.all():
        raise ValueError(f"{name} contains NaN or inf, in row(s) {', '.join(map(str, indices[~finite][:5]))} "
                         f"(gathered from the dask array {name})")
    return check_array(rows, name)


def tree_reduce(X, chunk_fn, combine, name: str = "X", split_every: int = SPLIT_EVERY):
    """R = f(X_1) (+) ... (+) f(X_C) over the row chunks of the checked dask array X
    (:func:`check_dask_array`; empty chunks are left out), with f = ``chunk_fn`` applied
    to each chunk's rows after :func:`check_chunk`, and (+) = ``combine(left, right)``
    applied in a tree, ``split_every`` (2 .. 8) partial results per node, each node
    folding its group left to right (so the row order is kept). ``chunk_fn`` is one
    node of the graph, shared by every chunk's task (its parameters, e.g. a feature
    map or landmarks, travel once per worker). Computed by one ``dask.compute`` with
    BLAS on one thread in this process (module docstring)."""
    import dask

    split_every = check_positive(split_every, "split_every", integer=True)
    if not 2 <= split_every <= 8:
        raise ValueError(f"split_every must be in 2..8, got {split_every}")
    fn = dask.delayed(chunk_fn)
    parts = [dask.delayed(_chunk_task)(fn, block, start, stop, name, X.shape[1])
             for block, (start, stop) in zip(X.to_delayed().ravel(), row_ranges(X)) if stop > start]
    while len(parts) > 1:
        parts = [dask.delayed(_fold)(combine, *parts[i:i + split_every]) for i in range(0, len(parts), split_every)]
    with blas_single_thread():
        (out,) = dask.compute(parts[0])
    return out


def _pick_rows(rows, start, stop, name, width, local):
    """Rows ``local`` of one chunk, after checking that the chunk has its declared shape."""
    shape = np.shape(rows)
    if len(shape) != 2 or shape[0] != stop - start or shape[1] != width:
        check_chunk(rows, start, stop, name, width)  # raises, naming the chunk
    return np.asarray(rows)[local]


def _chunk_task(chunk_fn, rows, start, stop, name, width):
    return chunk_fn(check_chunk(rows, start, stop, name, width))


def _fold(combine, *parts):
    return functools.reduce(combine, parts)


def add_terms(left: tuple, right: tuple) -> tuple:
    """The combine of per-chunk sums: tuples of arrays or numbers added term by term."""
    return tuple(a + b for a, b in zip(left, right))


class NpyRows:
    """The rows of a ``.npy`` file as a lazily read array (``shape``, ``dtype``,
    ``ndim``, ``__getitem__``) for :func:`dask.array.from_array`: each read opens the
    file as a memmap and copies only the rows asked for, and only the path is pickled.
    (A ``np.memmap`` given to ``from_array`` is one node of the graph, pickled with its
    data when the graph goes to a distributed cluster.)"""

    def __init__(self, path):
        self.path = os.fspath(path)
        try:
            with open(self.path, "rb") as fh:
                magic = fh.read(6)
        except FileNotFoundError:
            raise ValueError(f"path {self.path!r}: no such file") from None
        if magic != b"\x93NUMPY":
            raise ValueError(f"path {self.path!r} is not an .npy file (no NumPy header; np.save writes one)")
        try:
            mm = np.load(self.path, mmap_mode="r", allow_pickle=False)
        except FileNotFoundError:
            raise ValueError(f"path {self.path!r}: no such file") from None
        except (OSError, ValueError, EOFError) as e:
            raise ValueError(f"path {self.path!r} is not a readable .npy array file ({e})") from None
        if not isinstance(mm, np.ndarray):
            raise ValueError(f"path {self.path!r} is an .npz archive, not an .npy array file")
        self.shape, self.dtype, self.ndim = mm.shape, mm.dtype, mm.ndim

    def __getitem__(self, key):
        return np.array(np.load(self.path, mmap_mode="r")[key])

    def __dask_tokenize__(self):
        st = os.stat(self.path)
        return (type(self).__name__, self.path, st.st_size, st.st_mtime_ns)


def from_npy(path, chunk_rows: int):
    """A dask array of the rows of the 2-D ``.npy`` file ``path``, ``chunk_rows`` rows
    per chunk and every column in one chunk; each chunk is read from disk by the task
    that uses it (:class:`NpyRows`), so a cluster's workers need the file at the same
    path and none of it travels through the scheduler."""
    import dask.array as da
    rows = NpyRows(path)
    if rows.ndim != 2:
        raise ValueError(f"path must hold a 2-D array, got shape {rows.shape} in {rows.path}")
    chunk_rows = check_positive(chunk_rows, "chunk_rows", integer=True)
    return da.from_array(rows, chunks=(chunk_rows, rows.shape[1]), inline_array=True,
                         meta=np.empty((0, 0), rows.dtype))
