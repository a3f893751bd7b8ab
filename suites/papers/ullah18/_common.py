"""What several ullah18 families share: the Mehler model, the role-read objective and the estimators."""

from __future__ import annotations

import zlib

import numpy as np

from kpca_suite.kernels import Kernel
from kpca_suite.methods.nystrom import top_eigenpairs
from kpca_suite.methods.rf_erm import RFERM
from kpca_suite.theory.mehler import MehlerModel

from ...claim import PerProfile
from ...probes import stream
from ...roles import EstimatorDefect, build

GAMMA = 1.0 / (2 * 0.7**2)   # exp(-(x-y)^2 / (2 l^2)) with length scale l = 0.7


DATA_VAR = 1.0


K = 3


MEHLER = (f"1-D Mehler oracle: x ~ N(0, {DATA_VAR:g}), Gaussian kernel exp(-gamma (x - y)^2) with the "
          f"fixed gamma = 1/(2 * 0.7^2) = {GAMMA:.4f} (no data-driven bandwidth), k = {K}; population "
          "quantities by 100-node Gauss-Hermite quadrature")


def _model() -> MehlerModel:
    return MehlerModel(GAMMA, (DATA_VAR,), n_nodes=100)


# n = 2^j: 5 octaves at ci (128..4096) and quick (256..8192), 8 at full: rate fits need 5 octaves.
NS = PerProfile(ci=tuple(128 * 2**j for j in range(6)), quick=tuple(256 * 2**j for j in range(6)),
                full=tuple(256 * 2**j for j in range(9)))
#: The rate claims' sizes (rates.py, centred.py, and ullah18.estimation): ci's at quick too. Their evidence is
#: ci's (decisive under roots 0-9 or 0-4), and n = 8192 was 17 of the rate claims' 28 cell-s in the main job.
RATE_NS = PerProfile(ci=NS.ci, quick=NS.ci, full=NS.full)


# -- population evaluation of an RF subspace -------------------------------------------

def _population(model, fmap):
    """Population C_m, M and the top-k eigenvectors Phi_k of C_m (:func:`top_eigenpairs`:
    8 ms against eigh's 107 ms at m = 1000, the same vectors to 1e-15)."""
    pop = model.feature_population(fmap.transform)
    return pop, np.ascontiguousarray(top_eigenpairs(pop.C, K)[1])


def _population_spectrum(model, fmap) -> np.ndarray:
    """The spectrum of the population C_m, descending (:meth:`MehlerModel.feature_spectrum`:
    3 ms where an eigvalsh of C_m took 50 at m = 816)."""
    return model.feature_spectrum(fmap.transform)


def _seed_int(cell, stream: str) -> int:
    """An integer seed in [0, 2^32) from (claim, seed, m, stream), not n: a fixed-m
    sweep reuses one feature map for every n (the curve follows one map); with
    m = m(n) the map changes with n anyway. An int seed lets an estimator draw
    exactly the map its factory drew (draw_rff consumes the generator first). The
    range is :meth:`suites.claim.Cell.seed_int`'s, the one every role factory receives:
    scikit-learn refuses a random_state from 2^32 on (the 63-bit seeds this gave made a
    factory that passes it to RBFSampler fail as defective)."""
    words = [zlib.crc32(cell.base_claim.encode()), cell.seed, int(cell.p["m"]), zlib.crc32(stream.encode())]
    return int(np.random.SeedSequence(words).generate_state(1, np.uint32)[0])


# -- the RF estimators (role factories make(n_components, budget, kernel, random_state)) ---

KERNEL = Kernel("gaussian", gamma=GAMMA)


CHUNK = 256  # rows per partial_fit of a streaming estimator


def fault_seeds(cell) -> bool:
    """The planted faults of the rate and contrast claims run on seeds 0-9, the ci count they
    were declared against: each fails by far more than the spread that the claims' extra
    seeds (added so that they decide alike under any draw) narrow."""
    return cell.seed < 10


def rf_erm(n_components, budget, kernel, random_state) -> RFERM:
    """RF-ERM (App. D.1): the top-k eigenvectors of C_hat_m = Z^T Z / n, m = ``budget``."""
    return RFERM(n_components, budget, kernel, "cos", random_state=random_state)


def full_rank_gram(G, cell) -> np.ndarray:
    """G = <f_i, f_j>_rho of the fitted functions, or :class:`~suites.roles.EstimatorDefect`
    when they span fewer than k dimensions (eigenvalues of G at or below 1e-10 of the
    largest): a collapsed basis is a finding about the estimator, named in the verdict,
    not a singular solve inside the metric."""
    ev = np.linalg.eigvalsh((G + G.T) / 2)
    rank = int(np.sum(ev > 1e-10 * max(ev[-1], 0.0))) if ev[-1] > 0 else 0
    if rank < G.shape[0]:
        raise EstimatorDefect(f"{cell.claim}: the fitted map's {G.shape[0]} functions span {rank} < "
                              f"{G.shape[0]} dimensions at n = {cell.n} (a collapsed basis)")
    return G


def _fitted(cell, factory, role, random_state, chunk: int = CHUNK, k: int = K):
    """The estimator of role ``role`` that ``factory`` builds for ``k`` components, after one
    pass over n Mehler samples (``fit``, or ``partial_fit`` over chunks of ``chunk`` rows for
    streaming-kpca)."""
    model = _model()
    X = model.sample(cell.n, cell.rng())
    est = build(factory, role, cell, n_components=k, budget=cell.p["m"], kernel=KERNEL, random_state=random_state)
    return model, (stream(est, X, chunk) if role == "streaming-kpca" else est.fit(X))
