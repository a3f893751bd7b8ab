"""methods/krr.py and kernels/cholesky.py: full and Nyström KRR (Bach 2013, Sec. 4.4),
the incomplete Cholesky factor, and bad input."""

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.kernel_ridge import KernelRidge as SKKernelRidge

from kpca_suite.kernels import Kernel
from kpca_suite.kernels.cholesky import incomplete_cholesky
from kpca_suite.methods.krr import KernelRidge, NystromKRR
from kpca_suite.methods.landmarks import FixedLandmarks
from kpca_suite.kernels.periodic import PeriodicKernel
from kpca_suite.theory.periodic import periodic_signal, uniform_design

GAUSS = Kernel("gaussian", gamma=0.5)


def _data(n=50, d=2, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    return X, np.sin(X[:, 0]) + 0.1 * rng.normal(size=n)


def test_full_krr_is_sklearn_kernel_ridge_with_alpha_n_lambda():
    X, y = _data()
    Xt, _ = _data(20, seed=1)
    n, lam = len(X), 0.01
    ours = KernelRidge(GAUSS, lam).fit(X, y)
    sk = SKKernelRidge(alpha=n * lam, kernel="rbf", gamma=GAUSS.gamma).fit(X, y)
    assert_allclose(ours.dual_coef_, sk.dual_coef_, rtol=1e-10)
    assert_allclose(ours.predict(Xt), sk.predict(Xt), rtol=1e-10, atol=1e-12)
    # and it is not alpha = lambda
    sk_wrong = SKKernelRidge(alpha=lam, kernel="rbf", gamma=GAUSS.gamma).fit(X, y)
    assert np.abs(sk_wrong.dual_coef_ - ours.dual_coef_).max() > 1e-2


@pytest.mark.parametrize("sampling", ["uniform", "random", "pivot"])
def test_nystrom_with_all_columns_is_full_krr(sampling):
    X, y = _data(40)
    Xt, _ = _data(10, seed=2)
    full = KernelRidge(GAUSS, 1e-3).fit(X, y)
    ny = NystromKRR(GAUSS, 1e-3, 40, sampling=sampling, tol=0.0, random_state=0).fit(X, y)
    assert ny.rank_ == 40
    assert_allclose(ny.predict(Xt), full.predict(Xt), rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("sampling", ["uniform", "random"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_nystrom_columns_in_a_given_order_are_not_chosen_by_round_off(sampling, seed):
    """K near rank 50 (Gaussian, gamma = 200 on U[0, 1]) and 346 candidate columns, most
    numerically in the span of the others. K - L is PSD, so |K - L|_ij <= max_i (K - L)_ii:
    every entry of G G^T within round-off of that bound, which is of the order of the smallest
    pivot kept (>= tol max K_ii; measured up to 2.6 tol over these six fits and both tols), and a
    smaller tolerance never keeps fewer columns. Taken strictly in the given order, the
    default tol = 1e-12 let round-off pick a column (seed 1: max |G G^T - K| = 6.5, 36 kept
    where tol = 1e-9 keeps 51)."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(size=(2048, 1))
    y = np.sin(6 * X[:, 0]) + 0.1 * rng.standard_normal(2048)
    kernel = Kernel("gaussian", gamma=200.0)
    K = kernel.block(X)
    fits = {tol: NystromKRR(kernel, 1e-6, 346, sampling=sampling, tol=tol, random_state=seed).fit(X, y)
            for tol in (1e-12, 1e-9)}
    for tol, est in fits.items():
        D = K - est.features_ @ est.features_.T
        assert np.abs(D).max() <= np.diag(D).max() + 10 * (tol + est.rank_ * np.finfo(float).eps)
    assert fits[1e-12].rank_ >= fits[1e-9].rank_


@pytest.mark.parametrize("sampling", ["uniform", "random", "pivot", "leverage"])
def test_nystrom_section_44_identities(sampling):
    """G G^T = C W^+ C^T (Eq. (4)); Phi w = L (L + n lambda)^{-1} y = C (C^T C + n lambda W)^{-1} C^T y;
    the feature map at the training points is G; the residual trace is tr(K - L_j) online."""
    X, y = _data(60)
    n, lam, p = 60, 1e-2, 12
    K = GAUSS.block(X)
    est = NystromKRR(GAUSS, lam, p, sampling=sampling, random_state=3).fit(X, y)
    G, idx = est.features_, est.column_indices_
    C, W = K[:, idx], K[np.ix_(idx, idx)]
    L = G @ G.T
    assert_allclose(L, C @ np.linalg.pinv(W) @ C.T, atol=1e-9)
    assert_allclose(np.triu(G[idx], 1), 0.0, atol=1e-12)
    zhat = L @ np.linalg.solve(L + n * lam * np.eye(n), y)
    assert_allclose(est.predict(X), zhat, atol=1e-9)
    assert_allclose(G @ est.coef_, zhat, atol=1e-9)
    cols = NystromKRR(GAUSS, lam, p, sampling=FixedLandmarks(tuple(idx)), solver="columns").fit(X, y)
    assert est.coef_ is not None and cols.coef_ is None
    assert_allclose(cols.predict(X), zhat, atol=1e-7)
    assert_allclose(est.transform(X), G, atol=1e-10)
    traces = [np.trace(K - G[:, :j] @ G[:, :j].T) for j in range(est.rank_ + 1)]
    assert_allclose(est.residual_traces_, traces, atol=1e-9)
    assert np.all(np.diff(est.residual_traces_) <= 1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_columns_solver_is_as_accurate_as_the_features_solver(seed):
    """Sec. 4.4's C (C^T C + n lambda W)^-1 C^T y on every column of a Gaussian K of numerical
    rank about 55 at lambda = 1e-9: formed as normal equations it squared cond and missed the
    spectral reference by 44-1400 units of (n eps + 1e-12) cond(K + n lambda I) max|y| (the
    unit of numerics.krr-reference) for seeds 0-2; by QR it is within the 'features' solver's
    error (at most 0.003 units there), and the test allows 1."""
    rng = np.random.default_rng(seed)
    n, lam, kern = 200, 1e-9, Kernel("gaussian", gamma=200.0)
    X = rng.uniform(size=(n, 1))
    y = np.sin(6 * X[:, 0]) + 0.1 * rng.standard_normal(n)
    d = X - X.T
    w, V = np.linalg.eigh(np.exp(-kern.gamma * d * d))
    w = np.maximum(w, 0.0)
    reference = V @ (w / (w + n * lam) * (V.T @ y))
    unit = (n * np.finfo(float).eps + 1e-12) * (w.max() + n * lam) / (n * lam) * np.abs(y).max()
    for solver in ("features", "columns"):
        fit = NystromKRR(kern, lam, n, solver=solver, random_state=seed).fit(X, y)
        assert np.abs(fit.predict(X) - reference).max() <= unit, solver


def test_pivoting_takes_the_largest_residual_first():
    X, _ = _data(30)
    kern = Kernel("polynomial", gamma=1.0, degree=2, coef0=1.0)  # non-constant diagonal
    ch = incomplete_cholesky(X, kern, 5, "pivot")
    assert ch.indices[0] == np.argmax(kern.diag(X))
    K = kern.block(X)
    for j in range(1, 5):
        G = ch.factor[:, :j]
        res = np.diag(K - G @ G.T)
        assert ch.indices[j] == np.argmax(res)


def test_uniform_drops_columns_in_the_span_and_random_order_skips_them():
    """Duplicated points: Eq. (4)'s pinv keeps the rank of the distinct set (uniform), the
    random-order factorisation skips the duplicates and still finds p columns."""
    X0, y0 = _data(20)
    X, y = np.vstack([X0, X0]), np.concatenate([y0, y0])
    uni = NystromKRR(GAUSS, 1e-2, 40, sampling="uniform", random_state=0).fit(X, y)
    assert uni.rank_ == 20
    rnd = NystromKRR(GAUSS, 1e-2, 15, sampling="random", random_state=0).fit(X, y)
    assert rnd.rank_ == 15 and len(np.unique(rnd.column_indices_ % 20)) == 15
    # with candidates skipped, the factor is still Eq. (4)'s on the columns kept
    G, idx, K = rnd.features_, rnd.column_indices_, GAUSS.block(X)
    assert_allclose(G @ G.T, K[:, idx] @ np.linalg.pinv(K[np.ix_(idx, idx)]) @ K[idx], atol=1e-9)
    assert_allclose(np.triu(G[idx], 1), 0.0, atol=1e-12)


def test_multi_output_targets_and_periodic_kernel():
    X = uniform_design(50, 0)
    kern = PeriodicKernel("poly", 1)
    Y = np.column_stack([periodic_signal(X, "poly", 2), np.ones(50)])
    est = NystromKRR(kern, 1e-3, 10, random_state=0).fit(X, Y)
    assert est.predict(X).shape == (50, 2)
    single = NystromKRR(kern, 1e-3, 10, random_state=0).fit(X, Y[:, 0])
    assert_allclose(est.predict(X)[:, 0], single.predict(X), atol=1e-12)


def test_same_seed_same_columns():
    X, y = _data()
    a = NystromKRR(GAUSS, 1e-2, 10, sampling="random", random_state=7).fit(X, y)
    b = NystromKRR(GAUSS, 1e-2, 10, sampling="random", random_state=np.random.default_rng(7)).fit(X, y)
    assert np.array_equal(a.column_indices_, b.column_indices_)


# -- bad input -----------------------------------------------------------------------------

@pytest.mark.parametrize("ridge", [0.0, -1.0, np.nan, np.inf])
def test_ridge_must_be_positive(ridge):
    X, y = _data()
    for est in (KernelRidge(GAUSS, ridge), NystromKRR(GAUSS, ridge, 5)):
        with pytest.raises(ValueError, match="ridge"):
            est.fit(X, y)


@pytest.mark.parametrize("p,match", [(0, "n_landmarks"), (51, "n_landmarks = 51 must not exceed"),
                                     (-3, "n_landmarks")])
def test_number_of_landmarks(p, match):
    X, y = _data()
    with pytest.raises(ValueError, match=match):
        NystromKRR(GAUSS, 1e-2, p).fit(X, y)


@pytest.mark.parametrize("y,match", [(np.zeros(49), "one row per sample"), (np.full(50, np.nan), "y contains NaN"),
                                     (np.r_[np.zeros(49), np.inf], "y contains NaN or inf"),
                                     (np.zeros((50, 2, 2)), "y must be 1-D or 2-D")])
def test_bad_targets(y, match):
    X, _ = _data()
    for est in (KernelRidge(GAUSS, 1e-2), NystromKRR(GAUSS, 1e-2, 5)):
        with pytest.raises(ValueError, match=match):
            est.fit(X, y)


def test_bad_points_options_and_unfitted():
    X, y = _data()
    Xbad = X.copy()
    Xbad[0, 0] = np.nan
    with pytest.raises(ValueError, match="X contains NaN"):
        NystromKRR(GAUSS, 1e-2, 5).fit(Xbad, y)
    with pytest.raises(ValueError, match="X is empty"):
        KernelRidge(GAUSS, 1e-2).fit(np.zeros((0, 2)), np.zeros(0))
    with pytest.raises(ValueError, match="sampling"):
        NystromKRR(GAUSS, 1e-2, 5, sampling="greedy").fit(X, y)
    with pytest.raises(ValueError, match="solver"):
        NystromKRR(GAUSS, 1e-2, 5, solver="cg").fit(X, y)
    with pytest.raises(TypeError, match="kernel"):
        KernelRidge("rbf", 1e-2).fit(X, y)
    with pytest.raises(RuntimeError, match="not fitted"):
        NystromKRR(GAUSS, 1e-2, 5).predict(X)
    est = KernelRidge(GAUSS, 1e-2).fit(X, y)
    with pytest.raises(ValueError, match="same number of columns"):
        est.predict(np.zeros((3, 5)))


def test_incomplete_cholesky_bad_input():
    X, _ = _data(10)
    with pytest.raises(ValueError, match="rank = 11 must not exceed"):
        incomplete_cholesky(X, GAUSS, 11)
    with pytest.raises(ValueError, match="distinct indices"):
        incomplete_cholesky(X, GAUSS, 3, order=[1, 1, 2])
    with pytest.raises(ValueError, match="distinct indices"):
        incomplete_cholesky(X, GAUSS, 3, order=[0, 10])
    with pytest.raises(ValueError, match="order must be"):
        incomplete_cholesky(X, GAUSS, 3, order="greedy")
