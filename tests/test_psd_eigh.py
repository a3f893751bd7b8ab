"""kernels.psd_eigh: the eigenpairs of a PSD matrix above rcond x the largest, by MRRR on the
kept range when a pivoted Cholesky probe bounds their number, else by the full solve."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

from kpca_suite.kernels import Kernel
from kpca_suite.kernels import psd_eigh
from kpca_suite.kernels.psd_eigh import LOW_RANK_DIVISOR, eigh_above, numerical_rank_at_most

RCOND = 1e-8


def _gaussian_gram(m, d, seed=0):
    return Kernel("gaussian", gamma=3.0).block(np.random.default_rng(seed).normal(size=(m, d)))


def _full(K):
    s, V = np.linalg.eigh(K)
    keep = s > RCOND * s.max()
    return s[keep], V[:, keep]


@pytest.mark.parametrize("m, d", [(600, 1), (600, 2), (600, 10), (100, 1)])
def test_same_pairs_as_the_full_solve(m, d):
    """Eigenvalues to 1e-14 of the largest, and the projector onto the kept eigenvectors to
    1e-8: directions near the cut-off are determined only to eps ||K|| / gap (measured at
    most 6e-10 on these sizes)."""
    K = _gaussian_gram(m, d)
    s0, V0 = _full(K)
    s, V = eigh_above(K, RCOND)
    assert s.shape == s0.shape and V.shape == V0.shape
    assert_allclose(s, s0, rtol=0, atol=1e-14 * s0.max())
    assert_allclose(V @ V.T, V0 @ V0.T, rtol=0, atol=1e-8)
    assert_allclose(V.T @ V, np.eye(s.size), rtol=0, atol=1e-12)


def test_low_rank_takes_the_range_solve_and_high_rank_the_full_one(monkeypatch):
    """Points on a line: rank 30-odd of 600, the probe stops and MRRR runs (the full solve is
    made to fail); 10-dimensional points: full rank, the probe runs out and the full solve runs."""
    K_low, K_high = _gaussian_gram(600, 1), _gaussian_gram(600, 10)
    r = numerical_rank_at_most(K_low, RCOND / 600, 600 // LOW_RANK_DIVISOR)
    assert r is not None and eigh_above(K_low, RCOND)[0].size <= r  # Weyl: at most r kept
    assert numerical_rank_at_most(K_high, RCOND / 600, 600 // LOW_RANK_DIVISOR) is None

    def no_full_solve(K):
        raise AssertionError("the full solve ran")

    monkeypatch.setattr(psd_eigh.np.linalg, "eigh", no_full_solve)
    eigh_above(K_low, RCOND)
    with pytest.raises(AssertionError, match="full solve ran"):
        eigh_above(K_high, RCOND)


def test_range_solve_error_falls_back(monkeypatch):
    """MRRR can stop with an error on tight clusters: the full solve answers instead."""
    K = _gaussian_gram(600, 1)

    def failing(*args, **kwargs):
        raise np.linalg.LinAlgError("internal error")

    monkeypatch.setattr(psd_eigh.sla, "eigh", failing)
    s, V = eigh_above(K, RCOND)
    assert_allclose(s, _full(K)[0], rtol=0, atol=1e-14 * s.max())


def test_zero_matrix_keeps_nothing():
    s, V = eigh_above(np.zeros((600, 600)), RCOND)
    assert s.shape == (0,) and V.shape == (600, 0)
