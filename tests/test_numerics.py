"""numerics: the helpers its claims are built on (tests/test_claims.py runs the claims at ci
and their planted faults): the reference block, the round-off bound, the units of the
Nyström check, and the faulty factorisations the faults plant."""

import numpy as np
import pytest

import kpca_suite.suites.papers.numerics as nm
from kpca_suite.kernels import Kernel
from kpca_suite.kernels.cholesky import incomplete_cholesky
from kpca_suite.suites.papers.numerics import _common, krr, nystrom, shift
from kpca_suite.suites.roles import Unsupported

EPS = np.finfo(np.float64).eps


def test_the_numerics_claims_are_declared():
    assert [c.id for c in nm.CLAIMS] == ["numerics.kernel-shift", "numerics.nystrom-conditioning",
                                         "numerics.krr-reference"]


@pytest.mark.parametrize("name", ["gaussian", "cauchy", "laplacian", "linear"])
def test_the_reference_block_is_the_kernel_near_the_origin(name):
    rng = np.random.default_rng(0)
    X, Y = rng.standard_normal((30, 3)), rng.standard_normal((7, 3))
    kernel = Kernel(name, gamma=0.7)
    ref, diameter = _common.reference_block(kernel, X, Y)
    np.testing.assert_allclose(ref, kernel.block(X, Y), rtol=0, atol=1e-14)
    d = X[:, None, :] - Y[None, :, :]
    expected = {"laplacian": np.abs(d).sum(2).max(), "linear": 0.0}.get(name, (d ** 2).sum(2).max())
    assert diameter == pytest.approx(expected, rel=1e-14)


def test_the_bound_is_round_off_of_the_format_times_the_distance_it_reads():
    kernel = Kernel("gaussian", gamma=2.0)
    assert shift.bound(kernel, np.float64, 3.0) == pytest.approx(shift.C * EPS * 7.0)
    assert shift.bound(kernel, np.float32, 3.0) / shift.bound(kernel, np.float64, 3.0) == pytest.approx(2.0 ** 29)


@pytest.mark.parametrize("name", ["gaussian", "cauchy"])
def test_the_raw_expansion_is_right_near_the_origin_and_wrong_far_from_it(name):
    """The fault is the centred block's formula without the centring: the same to round-off
    for data about the origin, off by eps gamma ||x||^2 (> 1e3 bounds) at a shift of 1e4."""
    rng = np.random.default_rng(1)
    Z = rng.standard_normal((40, 2))
    kernel = Kernel(name, gamma=0.5)
    for s, worse in ((0.0, False), (1e4, True)):
        X = Z + s
        ref, diameter = _common.reference_block(kernel, X, X)
        limit = shift.bound(kernel, np.float64, diameter)
        assert np.abs(shift.ours(kernel, X, X) - ref).max() <= limit
        assert (np.abs(_common.raw_expansion(kernel, X, X) - ref).max() > 1e3 * limit) == worse


def test_the_edges_cover_every_kernel_shift_scale_and_precision():
    got = {(k.name, X.dtype.type) for k, X, _ in shift.edges(np.random.default_rng(0), 12)}
    assert got == {(n, d) for n in shift.KERNELS for d in shift.DTYPES}
    assert len(list(shift.edges(np.random.default_rng(0), 12))) == 3 * 3 * 3 * 2


def test_units_read_the_excess_over_the_psd_bound_and_the_missed_diagonal():
    """An exact Nyström map (pseudo-inverse of K_II) is within its PSD bound; one scaled up by 2
    overshoots K by its own size; one that keeps nothing misses the whole diagonal."""
    rng = np.random.default_rng(2)
    X = rng.uniform(size=(60, 1))
    kernel = Kernel("gaussian", gamma=5.0)
    K = kernel.block(X)
    idx = rng.choice(60, 10, replace=False)
    w, V = np.linalg.eigh(K[np.ix_(idx, idx)])
    keep = w > 1e-12 * w.max()
    Z = K[:, idx] @ V[:, keep] / np.sqrt(w[keep])
    unit = (nystrom.TAU + Z.shape[1] * EPS)
    assert nystrom.units(K, Z)[0] <= 1.0
    assert nystrom.units(K, np.sqrt(2) * Z)[0] > 0.5 / unit
    assert nystrom.units(K, Z[:, :0])[1] == pytest.approx(1.0 / nystrom.TAU)


def test_the_unpivoted_factor_is_the_cholesky_of_well_separated_columns():
    """Where no column is nearly dependent, the old loop and the batch-pivoted one factor the
    same span: G G^T agree to round-off."""
    rng = np.random.default_rng(3)
    X = rng.uniform(size=(80, 1))
    kernel = Kernel("gaussian", gamma=1.0)
    order = rng.permutation(80)[:5]
    G, idx = nystrom.unpivoted_cholesky(X, kernel, 5, order, 0.0)
    assert list(idx) == list(order)
    H = incomplete_cholesky(X, kernel, 5, order, 0.0).factor
    np.testing.assert_allclose(G @ G.T, H @ H.T, rtol=0, atol=1e-10)


def test_an_absolute_skip_rule_keeps_nothing_of_a_kernel_in_small_units():
    X = 1e-7 * np.random.default_rng(4).standard_normal((50, 3))
    kernel = Kernel("linear")
    assert nystrom.absolute_tol(None, 8, kernel, 0).fit(X).transform(X).shape == (50, 0)
    assert nystrom.ours_features(None, 8, kernel, 0).fit(X).transform(X).shape == (50, 3)
    with pytest.raises(Unsupported, match="n_components"):
        nystrom.ours_features(2, 8, kernel, 0)


def test_the_krr_reference_is_the_solve_where_k_is_well_conditioned():
    """The spectral filter V diag(w / (w + r)) V^T y is K (K + r I)^-1 y; cond is (w_max + r) / r."""
    rng = np.random.default_rng(5)
    X, y = rng.uniform(size=(50, 2)), rng.standard_normal(50)
    K = Kernel("gaussian", gamma=1.0).block(X)
    f, cond = krr.reference_fit(K, y, 0.5)
    np.testing.assert_allclose(f, K @ np.linalg.solve(K + 0.5 * np.eye(50), y), rtol=0, atol=1e-12)
    assert cond == pytest.approx((np.linalg.eigvalsh(K).max() + 0.5) / 0.5, rel=1e-12)


def test_the_krr_faults_agree_with_krr_where_their_defect_is_harmless():
    """Near the origin and at a large ridge both faults fit as exact KRR does: they differ from it
    only where the claim's edges reach (a shift, a small ridge)."""
    rng = np.random.default_rng(6)
    X, y = rng.uniform(size=(40, 5)), rng.standard_normal(40)
    kernel = Kernel("gaussian", gamma=2.0)   # 5-D points: K well conditioned, the normal equations harmless
    f_ref, _ = krr.reference_fit(kernel.block(X), y, 4.0)
    for fault in (krr.raw_krr, krr.normal_equations):
        np.testing.assert_allclose(fault(40, kernel, 4.0, 0).fit(X, y).predict(X), f_ref, rtol=0, atol=1e-9)
