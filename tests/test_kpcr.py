"""KPCR, Nyström KPCR and Nyström KRR of Hallgren (2021), Sec. 8."""

import numpy as np
import pytest

from kpca_suite.kernels import Kernel
from kpca_suite.methods.kpcr import KPCR, CenteredNystromKRR


def problem(n=200, seed=0):
    rng = np.random.default_rng(seed)
    X, Xt = rng.normal(size=(n, 3)), rng.normal(size=(60, 3))
    return X, np.sin(X[:, 0]) + 0.1 * rng.normal(size=n), Xt, np.sin(Xt[:, 0])


def test_nystrom_kpcr_at_m_equal_n_is_kpcr():
    X, y, Xt, _ = problem()
    kern = Kernel("gaussian", gamma=1.0)
    a = KPCR(20, kern).fit(X, y)
    b = KPCR(20, kern, landmarks=200, random_state=0).fit(X, y)
    np.testing.assert_allclose(b.predict(Xt), a.predict(Xt), rtol=1e-8, atol=1e-10)


def test_kpcr_is_least_squares_on_the_scores():
    """beta = (W^T W)^{-1} W^T y~ = (n Lambda)^{-1} W^T y~ (the factor n of Sec. 8)."""
    X, y, _, _ = problem()
    est = KPCR(10, Kernel("gaussian", gamma=1.0), landmarks=50, random_state=1).fit(X, y)
    W = est.kpca_.scores_
    beta = np.linalg.lstsq(W, y - y.mean(), rcond=None)[0]
    np.testing.assert_allclose(est.coef_, beta, rtol=1e-8)
    np.testing.assert_allclose(est.predict(X), y.mean() + W @ beta, rtol=1e-8)


def test_nystrom_krr_solves_the_papers_normal_equations():
    X, y, Xt, _ = problem()
    kern = Kernel("gaussian", gamma=1.0)
    est = CenteredNystromKRR(kern, landmarks=40, ridge=0.1, random_state=2).fit(X, y)
    L = X[est.landmark_indices_]
    Knm, Kmm = kern.block(X, L), kern.block(L)
    beta = np.linalg.solve(Knm.T @ Knm + 0.1 * Kmm, Knm.T @ (y - y.mean()))
    np.testing.assert_allclose(est.coef_, beta, rtol=1e-6)
    np.testing.assert_allclose(est.predict(Xt), y.mean() + kern.block(Xt, L) @ beta, rtol=1e-6)


def test_more_landmarks_do_not_hurt_on_average():
    X, y, Xt, yt = problem(300)
    kern = Kernel("gaussian", gamma=1.0)
    exact = KPCR(15, kern).fit(X, y).score(Xt, yt)
    gaps = [np.mean([exact - KPCR(15, kern, landmarks=m, random_state=s).fit(X, y).score(Xt, yt)
                     for s in range(5)]) for m in (20, 80, 300)]
    assert gaps[-1] == pytest.approx(0, abs=1e-8) and gaps[0] > gaps[-1]


@pytest.mark.parametrize("call,match", [
    (lambda: KPCR(3).fit(np.ones((5, 2)), np.ones(4)), "y has 4 values"),
    (lambda: CenteredNystromKRR(ridge=-1.0, landmarks=2).fit(np.eye(5), np.ones(5)), "ridge"),
    (lambda: CenteredNystromKRR(landmarks=9).fit(np.eye(5), np.ones(5)), "m = 9"),
    (lambda: KPCR(3).predict(np.ones((2, 2))), "not fitted"),
])
def test_bad_input(call, match):
    with pytest.raises((ValueError, RuntimeError), match=match):
        call()
