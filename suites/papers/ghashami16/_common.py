"""What several ghashami16 families share: data, Gram errors, the erratum-aware recipe and planted faults."""

from __future__ import annotations

import functools
import itertools

import numpy as np

from kpca_suite.kernels import Kernel, median_gamma
from kpca_suite.kernels.threads import blas_single_thread
from kpca_suite.methods.skpca import SKPCA
from kpca_suite.methods.streaming_nystrom import StreamingNystrom
from kpca_suite.theory.ghashami16 import RANDOM_NOISY_S, random_noisy, random_rotation
from kpca_suite.theory.kernel_error import frobenius_errors, spectral_errors

from ...claim import Cell, CellList

ELLS = (2, 5, 10, 20, 30, 50)  # the paper's sketch sizes (section 3)


def single_threaded(experiment):
    """Run an experiment with single-threaded BLAS: the runner already puts one
    cell on each core, and on a shared machine OpenBLAS threads on these small
    products cost one to two orders of magnitude."""
    @functools.wraps(experiment)
    def run(cell, estimators):
        with blas_single_thread():
            return experiment(cell, estimators)
    return run


def _crossed(claim_id, options, *, methods, sizes, seeds, axes=(), fixed=()):
    """Cells of methods x sizes x (the product of the ``axes`` values) x seeds;
    ``axes`` and ``fixed`` are ((name, values), ...) and ((name, value), ...)."""
    names = [name for name, _ in axes]
    return [Cell.make(claim_id, method, n, seed, **dict(fixed), **dict(zip(names, values)))
            for method in methods for n in sizes for values in itertools.product(*(v for _, v in axes))
            for seed in range(seeds)]


def crossed(describe, methods, sizes, seeds, axes=(), **fixed) -> CellList:
    """A sweep crossing methods, sizes, further parameter axes and seeds."""
    return CellList(functools.partial(_crossed, methods=tuple(methods), sizes=tuple(sizes), seeds=seeds,
                                      axes=tuple((k, tuple(v)) for k, v in axes), fixed=tuple(fixed.items())),
                    describe)


# -- data -------------------------------------------------------------------------------

def _rn_data(cell: Cell, n: int, d: int, stream: str = "data"):
    """n RandomNoisy rows for this cell; U depends on (claim, seed) only."""
    U = random_rotation(RANDOM_NOISY_S, d, Cell.make(cell.claim, "rotation", 0, cell.seed).rng("rotation"))
    return random_noisy(n, d, random_state=cell.rng(stream), rotation=U)


@functools.lru_cache(maxsize=2)
def _digits():
    """scikit-learn's digits (float64) and their median-heuristic gamma,
    1 / (2 median ||x - y||^2) over 1000 rows drawn with seed 0."""
    from sklearn.datasets import load_digits

    X = load_digits().data.astype(np.float64)
    return X, median_gamma(X, scale=0.5, random_state=0)


def _gram(X, gamma):
    return Kernel("gaussian", gamma=gamma).block(X)


def _spectral(X, Ys, gamma, G):
    """[||G - Y Y^T||_2 / n for Y in Ys], the paper's normalisation (section 3); G is read once
    per Lanczos step for all the factors together."""
    return [s / X.shape[0] for s in spectral_errors(X, Ys, Kernel("gaussian", gamma=gamma), G=G)]


def _errors(X, Ys, gamma, G):
    """[(||G - Y Y^T||_2 / n, ||G - Y Y^T||_F / n^2) for Y in Ys], the paper's normalisations
    (section 3): :func:`_spectral`, and one more pass over G for the Frobenius norms."""
    frob = frobenius_errors(X, Ys, Kernel("gaussian", gamma=gamma), G=G)
    return [(s, f / X.shape[0]**2) for s, f in zip(_spectral(X, Ys, gamma, G), frob)]


@functools.lru_cache(maxsize=1)
def _warm():
    """Compile / load every jitted routine once per process, so no timing or
    traced peak includes it."""
    X = np.random.default_rng(0).standard_normal((20, 3))
    SKPCA(sketch_size=2, n_features=4, random_state=0).fit(X).transform(X)
    StreamingNystrom(3, random_state=0).fit(X).transform(X)
    return True


def _make(estimators, method, m, gamma, rng, ell=None, shrink="halving", **options):
    """The estimator ``method`` with m features / landmarks (SKPCA: Algorithm 1's
    halving shrink unless ``shrink`` says otherwise); ``options`` (block_size) go to
    the constructor."""
    if method.startswith("skpca"):
        return estimators[method](sketch_size=ell, n_features=m, kernel=Kernel("gaussian", gamma=gamma), shrink=shrink,
                                  random_state=rng, **options)
    if method == "rnca":
        return estimators[method](1, m, kernel=Kernel("gaussian", gamma=gamma), random_state=rng, **options)
    return estimators[method](m, Kernel("gaussian", gamma=gamma), random_state=rng, **options)
