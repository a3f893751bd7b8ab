"""numerics: the helpers its claims are built on (tests/test_claims.py runs the claims at ci
and their planted faults): the reference block, the round-off bound, the units of the
Nyström check, and the faulty factorisations the faults plant."""

import numpy as np
import pytest

import kpca_suite.suites.papers.numerics as nm
from kpca_suite.kernels import Kernel
from kpca_suite.kernels.cholesky import incomplete_cholesky
from kpca_suite.kernels.fourier import RESET, fourier_features
from kpca_suite.kernels.frequent_directions import FrequentDirections
from kpca_suite.kernels.random_features import draw_rff
from kpca_suite.suites.papers.numerics import _common, krr, nystrom, shift
from kpca_suite.suites.papers.numerics import features, oja, sketch
from kpca_suite.suites.papers.numerics import kpca, leverage
from kpca_suite.suites.roles import Unsupported

EPS = np.finfo(np.float64).eps


def test_the_numerics_claims_are_declared():
    assert [c.id for c in nm.CLAIMS] == ["numerics.kernel-shift", "numerics.nystrom-conditioning",
                                         "numerics.krr-reference", "numerics.features-reference",
                                         "numerics.sketch-reference", "numerics.oja-reference",
                                         "numerics.kpca-reference", "numerics.leverage-reference"]


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


def test_fourier_features_at_high_frequency_are_within_the_recurrence_bound():
    """A defect mended: the angle 2 pi q x was reduced after rounding q x, an error of about
    q eps (102 times the docstring's 4 RESET eps at q = 2048 for a point at 1e3); reduced
    exactly, one point and five are within (4 RESET + 2) eps sqrt(2 lambda_c) of the long
    double reference at every frequency."""
    lam = np.arange(1, 4098, dtype=np.float64) ** -2.0
    for x in (np.array([0.7312]), np.random.default_rng(7).uniform(size=5) + 1e3):
        err = np.abs(fourier_features(x, lam) - features.fourier_reference(x, lam).astype(np.float64))
        assert (err / ((4 * RESET + 2) * EPS * np.sqrt(2 * lam))).max() <= 1.0


def test_the_random_feature_reference_is_the_map_near_the_origin_and_exact_on_the_grid():
    """Near the origin the map and the long-double reference agree to a few units of u (R + 1) s;
    the round-off budget is |omega|^T |x| + |b|, doubled across a pair's cos and sin columns."""
    X = np.random.default_rng(8).standard_normal((20, 3))
    for variant in ("cos", "paired"):
        fmap = draw_rff(3, 16, "gaussian", 0.5, variant, 0)
        ref, R, s = features.reference(fmap, X)
        assert ref.shape == (20, fmap.n_features) and R.shape == ref.shape
        np.testing.assert_allclose(R[:, :16], np.abs(X) @ np.abs(fmap.omega) + np.abs(fmap.phase))
        assert features.ratio(features.ours(fmap, X), fmap, X, False) <= 1.0
        assert features.ratio(features.float32_arguments(fmap, X), fmap, X, False) > 1e3


def test_the_fast_trig_is_exact_below_its_range_and_wrong_beyond_it():
    """On integer arguments (exact products): within C u s below FAST_TRIG_MAX either way; at 1e11
    and 1e8 the fast trig alone (the fault) misses by about u |a|, the map's libm fallback does not."""
    rng = np.random.default_rng(9)
    edges = [(f, X) for f, X, exact in features.rff_edges(rng, 40) if exact]
    assert len(edges) == 2 * len(features.EXACT)
    for fmap, X in edges:
        big = np.abs(X).max() > 1e7   # the edges at 1e8 and 1e11
        assert features.ratio(features.ours(fmap, X), fmap, X, True) <= 1.0
        assert (features.ratio(features.fast_trig_everywhere(fmap, X), fmap, X, True) > 1e3) == big


def test_the_sketch_deviations_read_a_shortfall_and_an_overshoot():
    """B = A (no shrink) deviates by nothing; B = 1.01 A overshoots A^T A (psd fails); B = 0 with
    Delta = 0 misses all of ||A||_2^2 (excess); with delta_ absent, the FD bound stands in."""
    A = np.random.default_rng(10).standard_normal((30, 6))
    assert max(sketch.deviations(A, A, 0.0, 3)) <= 1.0
    assert sketch.deviations(A, 1.01 * A, 0.0, 3)[0] > 1e10
    assert sketch.deviations(A, 0 * A, 0.0, 3)[1] > 1e10
    s2 = np.linalg.svd(A, compute_uv=False) ** 2
    assert sketch.deviations(A, 0 * A, None, 3)[1] == pytest.approx(
        (s2[0] - min(s2[k:].sum() / (3 - k) for k in range(3))) / (EPS / 2 * 30 * s2[0]), rel=1e-6)


def test_the_unclipped_shrink_books_a_negative_delta_on_a_rank_deficient_sketch():
    """Eight rows of rank 3 fill ell = 8 and shrink once: the Gram's five trailing eigenvalues are
    round-off of either sign; the clipped shrink books Delta = 0 and stays finite, the unclipped
    one books lambda_8 < 0 and takes square roots of negative ratios (NaN)."""
    rng = np.random.default_rng(11)
    A = rng.standard_normal((8, 3)) @ rng.standard_normal((3, 24))
    ours, fault = FrequentDirections(8, "standard").fit(A), sketch.UnclippedFD(8, "standard").fit(A)
    assert ours.delta_ == 0.0 and np.isfinite(ours.sketch_).all()
    assert fault.delta_ < 0.0 and not np.isfinite(fault.sketch_).all()


def test_the_oja_reference_is_qr_of_the_steps_in_long_double():
    """Gram-Schmidt twice in long double gives the positive-diagonal Q of numpy's QR; one block
    with eta = 0 is Q itself (cond 1, growth 0)."""
    rng = np.random.default_rng(12)
    P = rng.standard_normal((20, 4))
    q, r = np.linalg.qr(P)
    np.testing.assert_allclose(oja.gram_schmidt_ld(P).astype(np.float64), q * np.sign(np.diag(r)), atol=1e-14)
    ref, cond, growth = oja.reference_block(q, rng.standard_normal((5, 20)), np.zeros(5))
    np.testing.assert_allclose(ref.astype(np.float64), q, atol=1e-14)
    assert cond == pytest.approx(1.0) and growth == 0.0


def test_exact_eigenpairs_have_no_error_and_unnormalised_ones_miss_the_eigenvalues():
    """Scores U_k diag(w_k)^{1/2} of an eigh are within round-off of K's eigenpairs in every term;
    unit-norm scores U_k (the whitening applied twice) miss the eigenvalues by about w_1 / ||K|| = 1."""
    X = np.random.default_rng(7).uniform(size=(80, 1))
    K = Kernel("gaussian", gamma=5.0).block(X)
    w, V = kpca.eigpairs(K)
    S = V[:, :4] * np.sqrt(w[:4])
    assert max(kpca.eigen_errors(K, w, S, w[0])) < 100 * 80 * EPS
    assert kpca.units(K, w, S, 80 * EPS, 0.0, w[0]) < 1.0
    assert kpca.eigen_errors(K, w, V[:, :4], w[0])[2] > 0.5


def test_the_nystrom_reference_is_k_on_every_landmark_and_the_subset_reference_is_k_ii_uncentred():
    X = np.random.default_rng(8).uniform(size=(50, 2))
    K = Kernel("gaussian", gamma=20.0).block(X)   # well conditioned: every eigenvalue kept
    L, cond = kpca.nystrom_matrix(K, np.arange(50), 0.0)
    np.testing.assert_allclose(L, K, rtol=0, atol=1e-9)
    w = np.linalg.eigvalsh(K)
    assert cond == pytest.approx(w[-1] / w[0], rel=1e-3)
    idx = np.array([3, 9, 20])
    np.testing.assert_array_equal(kpca.subset_matrix(K, idx, False, 1e-8), K[np.ix_(idx, idx)])
    C = kpca.centred(K)
    np.testing.assert_allclose(C.sum(axis=0), 0.0, atol=1e-12)


@pytest.mark.parametrize("make", [
    lambda k: kpca.ExactKPCA(k, Kernel("gaussian", gamma=1e-2)),
    lambda k: kpca.ours_nystrom(k, Kernel("gaussian", gamma=1e-2), 40, False, None, 0),
    lambda k: kpca.ours_nystrom(k, Kernel("gaussian", gamma=1e-2), 40, True, None, 0),
    lambda k: kpca.ours_subset(k, Kernel("gaussian", gamma=1e-2), 40, True, 0),
], ids=["exact", "nystrom", "centred-nystrom", "subset"])
def test_k_above_the_numerical_rank_is_refused_naming_n_components_and_the_rank(make):
    """K near rank one (gamma = 0.01 on U[0, 1]): 40 components exceed every method's numerical rank."""
    X = np.random.default_rng(9).uniform(size=(160, 1))
    with pytest.raises(ValueError, match="n_components = 40 exceeds the effective rank"):
        make(40).fit(X)


def test_kpcr_above_the_numerical_rank_is_refused():
    X = np.random.default_rng(10).uniform(size=(160, 1))
    with pytest.raises(ValueError, match="n_components = 40 exceeds the effective rank"):
        kpca.ours_kpcr(40, Kernel("gaussian", gamma=1e-2), None, 0).fit(X, X[:, 0])


def test_the_leverage_reference_is_the_diagonal_of_the_smoother():
    X = np.random.default_rng(11).uniform(size=(40, 2))
    K = Kernel("gaussian", gamma=2.0).block(X)
    ref, cond = leverage.leverage_reference(K, 0.3)
    np.testing.assert_allclose(ref, np.diag(K @ np.linalg.inv(K + 0.3 * np.eye(40))), rtol=0, atol=1e-12)
    assert cond == pytest.approx((np.linalg.eigvalsh(K).max() + 0.3) / 0.3, rel=1e-12)


def test_the_kpca_faults_agree_with_ours_where_their_defect_is_harmless():
    """Near the origin the raw expansion is exact KPCA, and with a well-conditioned K_mm the absolute
    cut-off keeps what the relative one keeps."""
    X = np.random.default_rng(12).uniform(size=(60, 3))
    kernel = Kernel("gaussian", gamma=1.0)
    ours = kpca.ExactKPCA(3, kernel, solver="dense").fit(X).transform(X)
    raw = kpca.raw_kpca(3, 60, kernel, 0).fit(X).transform(X)
    np.testing.assert_allclose(np.abs(raw), np.abs(ours), rtol=0, atol=1e-8)
    a = kpca.absolute_cut(3, kernel, 20, False, None, 0).fit(X).transform(X)
    b = kpca.ours_nystrom(3, kernel, 20, False, None, 0).fit(X).transform(X)
    np.testing.assert_allclose(np.abs(a), np.abs(b), rtol=0, atol=1e-8)


def test_the_approximate_leverage_scores_refuse_a_level_below_round_off_naming_s():
    """A rank-3 linear kernel at scale 1e7 with s = 1e-8: K_JJ + sM I is singular in float64. The
    refusal names s (it read "25-th leading minor of the array is not positive definite")."""
    X = 1e7 * np.random.default_rng(13).standard_normal((60, 3))
    with pytest.raises(np.linalg.LinAlgError, match="s = 1e-08"):
        leverage.approximate_leverage_scores(X, Kernel("linear"), 1e-8, 60, random_state=0)
