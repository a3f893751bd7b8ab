"""methods/: exact and Nyström KPCA, the algebraic identities of Sterge et al. 2020.

Scores: ours are phi_j(x) = k_S(x)^T A[:, j] with A = U diag(e^{-1/2}) (Sterge et al.
2020, eq. (6)). On training data that is K U e^{-1/2} = U e^{1/2}, which is exactly
scikit-learn's KernelPCA score (alpha_j sqrt(e_j)); on new data both are
k(x)^T u_j / sqrt(e_j). So |ours| == |sklearn| with no extra scaling, and the
eigenvalues differ by the factor n (ours are eig(K)/n, sklearn's eig(K)).
"""

import pickle

import numpy as np
import pytest
from numpy.testing import assert_allclose
from sklearn.decomposition import KernelPCA

from kpca_suite.kernels import Kernel, centred_trace
from kpca_suite.methods import (CenteredNystromKPCA, ExactKPCA, LeverageScoreLandmarks, NystromKPCA, SubsetPCA,
                                UniformLandmarks)


def _data(n=60, d=4, seed=0):
    return np.random.default_rng(seed).normal(size=(n, d))


class Fixed:
    """Minimal landmark strategy: a fixed index set (any object with select and m)."""

    def __init__(self, idx):
        self.idx = np.asarray(idx)
        self.m = len(self.idx)

    def select(self, X, kernel, rng):
        return np.sort(self.idx)


def _align_signs(A, B):
    """Flip columns of A so that each has a non-negative inner product with B's column."""
    s = np.sign(np.sum(A * B, axis=0))
    s[s == 0] = 1
    return A * s


def _proj_gram(model, Z):
    """Z-Gram of the projector: S S^T with S = scores of Z (sign- and rotation-invariant)."""
    S = model.transform(Z)
    return S @ S.T


KERN = Kernel("gaussian", gamma=0.25)


# -- exact KPCA ----------------------------------------------------------------

@pytest.mark.parametrize("center", [False, True])
def test_exact_dense_and_lanczos_agree(center):
    X, Z = _data(80, 3, seed=1), _data(15, 3, seed=2)
    d = ExactKPCA(5, KERN, center=center, solver="dense").fit(X)
    lz = ExactKPCA(5, KERN, center=center, solver="lanczos", random_state=0, block_size=13).fit(X)
    assert_allclose(lz.eigenvalues_, d.eigenvalues_, rtol=1e-10, atol=1e-14)
    assert_allclose(lz.trace_, d.trace_, rtol=1e-12)
    for data in (X, Z):
        assert_allclose(np.abs(lz.transform(data)), np.abs(d.transform(data)), rtol=0, atol=1e-8)
    for ell in range(1, 6):
        assert lz.insample_error(ell) == pytest.approx(d.insample_error(ell), rel=1e-9, abs=1e-13)


@pytest.mark.parametrize("center", [False, True])
@pytest.mark.parametrize("solver,budget,used", [("lanczos", None, "lanczos-formed"),
                                                ("lanczos", 0, "lanczos-matrix-free"),
                                                ("block", None, "block-formed"),
                                                ("block", 0, "block-matrix-free")])
def test_exact_top_k_solvers_agree_with_dense(center, solver, budget, used):
    # max_kernel_bytes=0: the n x n matrix never fits, so the kernel is re-evaluated per product
    X, Z = _data(200, 3, seed=30), _data(15, 3, seed=31)
    d = ExactKPCA(6, KERN, center=center, solver="dense").fit(X)
    m = ExactKPCA(6, KERN, center=center, solver=solver, max_kernel_bytes=budget, random_state=0,
                  block_size=37).fit(X)
    assert m.solver_ == used
    assert_allclose(m.eigenvalues_, d.eigenvalues_, rtol=1e-10, atol=1e-14)
    assert m.trace_ == pytest.approx(d.trace_, rel=1e-12)
    assert_allclose(_proj_gram(m, Z), _proj_gram(d, Z), rtol=0, atol=1e-8)
    if used.endswith("formed"):
        assert m.n_kernel_passes_ == 1
    elif solver == "block":
        assert 2 <= m.n_kernel_passes_ <= 30  # one pass per block of k + 10 vectors
    else:
        assert m.n_kernel_passes_ >= 10  # one pass per ARPACK mat-vec


def test_exact_auto_solver_and_kernel_budget():
    X = _data(3100, 2, seed=32)
    assert ExactKPCA(2, KERN).fit(X[:200]).solver_ == "dense"
    assert ExactKPCA(2, KERN, random_state=0).fit(X[:300]).solver_ == "lanczos-formed"
    assert ExactKPCA(75, KERN).fit(X[:300]).solver_ == "dense"  # k >= n / 4
    assert ExactKPCA(2, KERN, random_state=0).fit(X).solver_ == "lanczos-formed"
    small = ExactKPCA(2, KERN, random_state=0, max_kernel_bytes=8 * 3100**2 - 1).fit(X)
    assert small.solver_ == "block-matrix-free"
    with pytest.raises(ValueError, match="max_kernel_bytes must be >= 0"):
        ExactKPCA(2, KERN, max_kernel_bytes=-1).fit(X[:50])
    with pytest.raises(TypeError, match="max_kernel_bytes must be None or an integer"):
        ExactKPCA(2, KERN, max_kernel_bytes=1.5).fit(X[:50])


@pytest.mark.parametrize("make", [
    lambda: NystromKPCA(3, KERN, landmarks=40, center=True, random_state=0),
    lambda: CenteredNystromKPCA(3, KERN, landmarks=40, random_state=0),
    lambda: SubsetPCA(3, KERN, landmarks=40, random_state=0),
])
def test_a_centred_fit_sums_the_trace_on_first_read_not_in_fit(make, monkeypatch):
    # (1/n) tr(H K H) needs 1^T K 1, O(n^2 d): fit must stay O(n m^2) without it
    import kpca_suite.methods.base as base
    calls = []

    def counted(*args, **kw):
        calls.append(1)
        return centred_trace(*args, **kw)
    monkeypatch.setattr(base, "centred_trace", counted)
    X = _data(300, 3, seed=41)
    est = make().fit(X)
    assert calls == []
    assert est.trace_ == centred_trace(X, KERN) and est.trace_ == centred_trace(X, KERN)
    assert calls == [1]
    assert est.insample_error(1) == pytest.approx(est.trace_ - est.eigenvalues_[0], rel=1e-12)


def test_the_centred_trace_refuses_an_x_changed_in_place_after_fit():
    X = _data(300, 3, seed=42)
    est = CenteredNystromKPCA(3, KERN, landmarks=40, random_state=0).fit(X)
    X[5, 1] += 1.0
    with pytest.raises(ValueError, match="the training X was changed in place after fit"):
        est.explained_variance_ratio_


def test_a_pickled_centred_fit_holds_its_trace_and_not_the_training_x():
    X = _data(4000, 30, seed=43)
    est = NystromKPCA(3, KERN, landmarks=40, center=True, random_state=0).fit(X)
    blob = pickle.dumps(est)
    assert len(blob) < X.nbytes / 10
    back = pickle.loads(blob)
    assert "_trace_of_" not in vars(back) and back.trace_ == centred_trace(X, KERN)


def test_block_solver_converges_on_a_fast_decaying_spectrum():
    # 1-D points, gamma = 1: the centred K has numerical rank 25, so the late Krylov blocks
    # are remainders far below their norms. Before the block was projected once more after
    # normalising, the basis lost orthogonality to 1e-9 and the fit ran all 300 passes.
    X = _data(1000, 1, seed=40)
    kern = Kernel("gaussian", gamma=1.0)
    block = ExactKPCA(10, kern, center=True, solver="block", random_state=0, max_kernel_bytes=0).fit(X)
    dense = ExactKPCA(10, kern, center=True, solver="dense").fit(X)
    assert block.solver_ == "block-matrix-free"
    assert block.n_kernel_passes_ <= 10
    assert_allclose(block.eigenvalues_, dense.eigenvalues_, rtol=1e-12)


@pytest.mark.parametrize("solver, rtol", [("dense", 1e-12), ("lanczos", 1e-12), ("block", 1e-8)])
@pytest.mark.parametrize("center", [False, True])
def test_exact_fit_transform_is_the_training_rows_transform(solver, rtol, center):
    # fit_transform reads the scores off the eigenpairs (A diag(e)) instead of a second kernel
    # pass; a centred fit whose scores kept the training mean's term would differ by 1 (m^T A)
    X = _data(1500, 2, seed=44)
    est = ExactKPCA(5, KERN, center=center, solver=solver, random_state=0)
    scores = est.fit_transform(X)
    assert est.solver_.startswith(solver)
    assert_allclose(scores, est.transform(X), rtol=0, atol=rtol * np.abs(scores).max())


def test_block_krylov_that_does_not_converge_raises():
    from kpca_suite.methods.exact import block_krylov_topk
    d = np.linspace(1.0, 0.5, 300)  # a flat spectrum: two passes cannot resolve the top 10
    with pytest.raises(np.linalg.LinAlgError, match="did not converge in 2 passes.*use solver='lanczos'"):
        block_krylov_topk(lambda V: d[:, None] * V, 300, 10, np.random.default_rng(0), max_passes=2)


@pytest.mark.parametrize("solver", ["dense", "lanczos", "block"])
def test_exact_rank_check_like_nystrom(solver):
    # identical rows: K = 11^T has rank 1, so a second component does not exist
    X = np.tile(_data(1, 3, seed=33), (40, 1))
    with pytest.raises(ValueError, match=r"n_components = 2 exceeds the effective rank 1 of K \(n = 40, "
                                         r"rcond = 1e-12\); use fewer components"):
        ExactKPCA(2, KERN, solver=solver, random_state=0).fit(X)
    with pytest.raises(ValueError, match="effective rank 1 of H K H"):
        ExactKPCA(2, KERN, center=True, solver="dense").fit(np.vstack([X, X + 1.0]))
    assert ExactKPCA(1, KERN, solver=solver, random_state=0).fit(X).eigenvalues_[0] == pytest.approx(1.0)


def test_exact_eigenvalues_are_eig_K_over_n_and_sorted():
    X = _data(50, 2, seed=3)
    # the dense solver keeps all n eigenvalues whatever k (k = 50 would exceed this K's
    # numerical rank, 48 at rcond = 1e-12, and be refused)
    m = ExactKPCA(5, KERN, solver="dense").fit(X)
    ref = np.sort(np.clip(np.linalg.eigvalsh(KERN.block(X)), 0, None))[::-1] / 50
    assert_allclose(m.all_eigenvalues_, ref, rtol=1e-10, atol=1e-15)
    assert np.all(np.diff(m.eigenvalues_) <= 0)
    assert m.trace_ == pytest.approx(1.0)  # Gaussian: (1/n) tr K = 1


def test_exact_coefficients_orthonormal_in_rkhs():
    X = _data(50, 3, seed=4)
    m = ExactKPCA(6, KERN).fit(X)
    A, K = m.coefficients_, KERN.block(X)
    assert_allclose(A.T @ K @ A, np.eye(6), atol=1e-8)


@pytest.mark.parametrize("gamma", [0.1, 0.5])
def test_centered_exact_matches_sklearn_kernel_pca(gamma):
    X, Z = _data(70, 3, seed=5), _data(20, 3, seed=6)
    n, k = 70, 6
    ours = ExactKPCA(k, Kernel("gaussian", gamma=gamma), center=True, solver="dense").fit(X)
    sk = KernelPCA(n_components=k, kernel="rbf", gamma=gamma, eigen_solver="dense").fit(X)
    assert_allclose(ours.eigenvalues_, sk.eigenvalues_ / n, rtol=1e-10)
    # training scores: sklearn's fit_transform is alpha * sqrt(eigval), ours U sqrt(e): equal up to sign
    assert_allclose(np.abs(ours.transform(X)), np.abs(sk.transform(X)), rtol=0, atol=1e-9)
    S_ours, S_sk = ours.transform(Z), sk.transform(Z)
    assert_allclose(_align_signs(S_ours, S_sk), S_sk, rtol=0, atol=1e-9)
    # sanity: the uncentred model is genuinely different (the test can tell centring apart)
    unc = ExactKPCA(k, Kernel("gaussian", gamma=gamma), center=False).fit(X)
    assert not np.allclose(unc.eigenvalues_, sk.eigenvalues_ / n, rtol=1e-3)


@pytest.mark.parametrize("center", [False, True])
def test_exact_insample_error_eq18_direct(center):
    # (1/n) sum_i [ ||k(.,X_i) - mu||^2 - sum_j phi_j(X_i)^2 ] with ell = k
    X = _data(60, 3, seed=7)
    n, k = 60, 7
    m = ExactKPCA(k, KERN, center=center).fit(X)
    K = KERN.block(X)
    if center:
        H = np.eye(n) - 1.0 / n
        K = H @ K @ H
    S = m.transform(X)
    direct = np.mean(np.diag(K) - (S**2).sum(1))
    assert m.insample_error(k) == pytest.approx(direct, rel=1e-9, abs=1e-12)
    # eq. (18) right-hand side: sum_{i > ell} lambda_hat_i
    lhat = np.sort(np.linalg.eigvalsh(K))[::-1] / n
    assert m.insample_error(k) == pytest.approx(np.clip(lhat[k:], 0, None).sum(), rel=1e-8, abs=1e-12)


# -- Nyström KPCA ----------------------------------------------------------------

@pytest.mark.parametrize("whitening", ["eigh", "cholesky", "generalized"])
def test_nystrom_all_points_equals_exact(whitening):
    X, Z = _data(50, 4, seed=8), _data(12, 4, seed=9)
    k = 6
    ex = ExactKPCA(k, KERN).fit(X)
    ny = NystromKPCA(k, KERN, landmarks=50, whitening=whitening, random_state=0).fit(X)
    assert ny.effective_rank_ == 50
    assert_allclose(np.sort(ny.landmark_indices_), np.arange(50))
    assert_allclose(ny.eigenvalues_, ex.eigenvalues_, rtol=1e-8)
    assert ny.insample_error(k) == pytest.approx(ex.insample_error(k), rel=1e-8)
    assert_allclose(_proj_gram(ny, Z), _proj_gram(ex, Z), rtol=0, atol=1e-8)
    assert_allclose(np.abs(ny.transform(Z)), np.abs(ex.transform(Z)), rtol=0, atol=1e-7)


def test_centered_nystrom_all_points_equals_centered_exact():
    X, Z = _data(50, 4, seed=10), _data(12, 4, seed=11)
    k = 5
    ex = ExactKPCA(k, KERN, center=True).fit(X)
    ny = NystromKPCA(k, KERN, landmarks=50, center=True, random_state=1).fit(X)
    assert_allclose(ny.eigenvalues_, ex.eigenvalues_, rtol=1e-8)
    assert ny.trace_ == pytest.approx(ex.trace_, rel=1e-12)
    assert ny.insample_error(k) == pytest.approx(ex.insample_error(k), rel=1e-8)
    assert_allclose(_proj_gram(ny, Z), _proj_gram(ex, Z), rtol=0, atol=1e-8)
    assert_allclose(_proj_gram(ny, X), _proj_gram(ex, X), rtol=0, atol=1e-8)
    # and the centred model differs from the uncentred one
    unc = NystromKPCA(k, KERN, landmarks=50, random_state=1).fit(X)
    assert not np.allclose(unc.eigenvalues_, ny.eigenvalues_, rtol=1e-3)


@pytest.mark.parametrize("whitening", ["eigh", "cholesky", "generalized"])
@pytest.mark.parametrize("center", [False, True])
def test_nystrom_coefficients_orthonormal(whitening, center):
    X = _data(120, 3, seed=12)
    ny = NystromKPCA(8, KERN, landmarks=25, whitening=whitening, center=center, random_state=2).fit(X)
    A, L = ny.coefficients_, ny.basis_points_
    assert A.shape == (25, 8)
    assert_allclose(A.T @ KERN.block(L) @ A, np.eye(8), atol=1e-8)
    # eq. (20): (1/n) K_mn (H) K_nm a = lambda K_mm a
    Knm = KERN.block(X, L)
    if center:
        Knm = Knm - Knm.mean(0)
    lhs = Knm.T @ Knm @ A / 120
    rhs = KERN.block(L) @ A * ny.eigenvalues_
    assert_allclose(lhs, rhs, rtol=0, atol=1e-8)


def test_nystrom_eigenvalues_equal_those_of_nystrom_approximation():
    # eq. (9): lambda(M)/n == nonzero lambda(K_tilde)/n
    X = _data(100, 3, seed=13)
    ny = NystromKPCA(10, KERN, landmarks=20, random_state=3).fit(X)
    L = ny.basis_points_
    Knm = KERN.block(X, L)
    Kt = Knm @ np.linalg.pinv(KERN.block(L), rcond=1e-12, hermitian=True) @ Knm.T
    ref = np.sort(np.linalg.eigvalsh(Kt))[::-1][:20] / 100
    assert_allclose(ny.all_eigenvalues_, ref, rtol=1e-7, atol=1e-12)


def test_whitenings_agree():
    X, Z = _data(150, 3, seed=14), _data(10, 3, seed=15)
    models = {w: NystromKPCA(6, KERN, landmarks=30, whitening=w, random_state=4).fit(X)
              for w in ("eigh", "cholesky", "generalized")}
    base = models["eigh"]
    for w, mdl in models.items():
        assert_allclose(mdl.landmark_indices_, base.landmark_indices_)
        assert_allclose(mdl.eigenvalues_, base.eigenvalues_, rtol=1e-8)
        assert_allclose(mdl.all_eigenvalues_, base.all_eigenvalues_, rtol=1e-6, atol=1e-12)
        assert_allclose(_proj_gram(mdl, Z), _proj_gram(base, Z), rtol=0, atol=1e-8)
        S, S0 = mdl.transform(Z), base.transform(Z)
        assert_allclose(_align_signs(S, S0), S0, rtol=0, atol=1e-7)


@pytest.mark.parametrize("center", [False, True])
@pytest.mark.parametrize("whitening", ["eigh", "cholesky"])
def test_nystrom_insample_error_eq19_direct(center, whitening):
    X = _data(100, 3, seed=16)
    n, k = 100, 8
    ny = NystromKPCA(k, KERN, landmarks=20, center=center, whitening=whitening, random_state=5).fit(X)
    K = KERN.block(X)
    if center:
        H = np.eye(n) - 1.0 / n
        K = H @ K @ H
    S = ny.transform(X)
    direct = np.mean(np.diag(K) - (S**2).sum(1))
    assert ny.insample_error(k) == pytest.approx(direct, rel=1e-9, abs=1e-12)
    # middle form of eq. (19): (1/n) tr K - (1/n) sum_j u_j^T M u_j = trace - sum_j lambda_j
    assert ny.trace_ == pytest.approx(np.trace(K) / n, rel=1e-12)


def test_insample_order_nystrom_vs_exact():
    # K - K_tilde >= 0 implies R_nys(l) >= R_exact(l) for l <= m, gap <= (1/n) tr(K - K_tilde),
    # both non-increasing in l.
    X = _data(120, 3, seed=17)
    n, m = 120, 15
    ex = ExactKPCA(m, KERN).fit(X)
    ny = NystromKPCA(m, KERN, landmarks=m, random_state=6).fit(X)
    K = KERN.block(X)
    Knm = KERN.block(X, ny.basis_points_)
    Kt = Knm @ np.linalg.pinv(KERN.block(ny.basis_points_), rcond=1e-12, hermitian=True) @ Knm.T
    gap_bound = np.trace(K - Kt) / n
    assert gap_bound > 1e-3  # the bound is not trivially satisfied by a zero gap
    r_ny = np.array([ny.insample_error(l) for l in range(1, m + 1)])
    r_ex = np.array([ex.insample_error(l) for l in range(1, m + 1)])
    assert np.all(r_ny >= r_ex - 1e-12)
    assert np.all(r_ny - r_ex <= gap_bound + 1e-12)
    assert np.all(np.diff(r_ny) <= 1e-14) and np.all(np.diff(r_ex) <= 1e-14)
    assert np.all(r_ny > 0) and np.all(r_ex > 0)
    # at l = m, Nyström has explained exactly tr(K_tilde)/n: R_nys(m) == (1/n) tr(K - K_tilde)
    assert r_ny[-1] == pytest.approx(gap_bound, rel=1e-7)


def test_insample_nonincreasing_in_m_for_nested_landmarks():
    X = _data(150, 3, seed=18)
    perm = np.random.default_rng(0).permutation(150)
    ell = 4
    errs = []
    for m in (4, 6, 10, 20, 40, 80):
        ny = NystromKPCA(ell, KERN, landmarks=Fixed(perm[:m])).fit(X)
        assert_allclose(ny.landmark_indices_, np.sort(perm[:m]))
        errs.append(ny.insample_error(ell))
    errs = np.array(errs)
    assert np.all(np.diff(errs) <= 1e-12), errs
    assert errs[0] - errs[-1] > 1e-3  # strictly better with many more landmarks
    assert errs[-1] >= ExactKPCA(ell, KERN).fit(X).insample_error(ell) - 1e-12


@pytest.mark.parametrize("landmarks", [25, UniformLandmarks(25), LeverageScoreLandmarks(25, s=1e-3)])
def test_nystrom_determinism(landmarks):
    X = _data(100, 3, seed=19)
    a = NystromKPCA(5, KERN, landmarks=landmarks, random_state=7).fit(X)
    b = NystromKPCA(5, KERN, landmarks=landmarks, random_state=7).fit(X)
    c = NystromKPCA(5, KERN, landmarks=landmarks, random_state=8).fit(X)
    assert np.array_equal(a.landmark_indices_, b.landmark_indices_)
    assert np.array_equal(a.eigenvalues_, b.eigenvalues_)
    assert np.array_equal(a.coefficients_, b.coefficients_)
    assert np.array_equal(a.transform(X), b.transform(X))
    assert not np.array_equal(a.landmark_indices_, c.landmark_indices_)
    # a Generator with the same seed is equivalent to the int seed
    g = NystromKPCA(5, KERN, landmarks=landmarks, random_state=np.random.default_rng(7)).fit(X)
    assert np.array_equal(a.landmark_indices_, g.landmark_indices_)


@pytest.mark.parametrize("whitening", ["eigh", "cholesky"])
@pytest.mark.parametrize("gamma,m", [(0.25, 40), (0.25, 300), (4.0, 300)])
def test_nystrom_top_k_solve_equals_the_full_eigendecomposition(whitening, gamma, m):
    # fit solves for the top k only (K_mm by Cholesky when well conditioned, ARPACK for
    # M when m >= 256); a subclass's _eig (the documented hook) takes every eigenpair of
    # M = W^T Gn W through the whitener
    class Full(NystromKPCA):
        def _eig(self, Gn, Kmm, landmarks):
            W = self._whitener(Kmm, landmarks)
            mu, U = np.linalg.eigh(W.T @ Gn @ W)
            return mu[::-1], W @ U[:, ::-1]

    X, Z = _data(1200, 3, seed=34), _data(20, 3, seed=35)
    kern = Kernel("gaussian", gamma=gamma)
    kw = dict(landmarks=m, whitening=whitening, random_state=3)
    try:
        full = Full(8, kern, **kw).fit(X)
    except ValueError as e:  # gamma = 0.25, m = 300: K_mm too ill-conditioned for Cholesky
        assert whitening == "cholesky" and "numerically singular" in str(e)
        return
    fast = NystromKPCA(8, kern, **kw).fit(X)
    assert fast.effective_rank_ == full.effective_rank_
    assert "_M_" in vars(fast)  # the full spectrum is not computed by fit
    assert_allclose(fast.eigenvalues_, full.eigenvalues_, rtol=1e-10)
    assert_allclose(_proj_gram(fast, Z), _proj_gram(full, Z), rtol=0, atol=1e-8)
    assert len(fast.all_eigenvalues_) == len(full.all_eigenvalues_) == fast.effective_rank_
    # round-off of the whitening ~ eps cond(K_mm): 7e-13 of lambda_1 seen for Cholesky, m = 40
    assert_allclose(fast.all_eigenvalues_, full.all_eigenvalues_, rtol=0, atol=1e-10 * full.eigenvalues_[0])
    assert np.array_equal(fast.all_eigenvalues_[:8], fast.eigenvalues_)
    assert fast.insample_error(fast.effective_rank_) == pytest.approx(full.insample_error(full.effective_rank_),
                                                                      abs=1e-10)
    A, Kmm = fast.coefficients_, kern.block(fast.basis_points_)
    assert_allclose(A.T @ Kmm @ A, np.eye(8), atol=1e-8)


def test_well_conditioned_eigh_fit_factors_kmm_once_on_one_blas_thread(monkeypatch):
    # the probe's Cholesky factor of a well-conditioned K_mm is the one the solve uses (a second
    # factorisation after the pass was 20 ms of a 210 ms fit at m = 1000), and it is made on one
    # BLAS thread like the other m^3 steps (two threads there slowed the pass after it by 45%)
    from threadpoolctl import threadpool_info, threadpool_limits
    calls = []
    factor = NystromKPCA._cholesky

    def counted(Kmm, min_rcond=None):
        calls.append(max((p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"), default=1))
        return factor(Kmm, min_rcond)

    X = _data(400, 3, seed=36)
    kern = Kernel("gaussian", gamma=4.0)
    ref = NystromKPCA(6, kern, landmarks=40, whitening="cholesky", random_state=8).fit(X)
    monkeypatch.setattr(NystromKPCA, "_cholesky", staticmethod(counted))
    with threadpool_limits(limits=2, user_api="blas"):  # the tests otherwise hold BLAS at one thread
        if max(p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas") < 2:
            pytest.skip("this BLAS runs one thread only")
        fit = NystromKPCA(6, kern, landmarks=40, random_state=8).fit(X)
    assert calls == [1]
    assert fit.effective_rank_ == 40
    assert_allclose(fit.eigenvalues_, ref.eigenvalues_, rtol=1e-12)
    assert_allclose(fit.all_eigenvalues_, ref.all_eigenvalues_, rtol=1e-9, atol=1e-14)
    Z = _data(10, 3, seed=37)
    assert_allclose(_proj_gram(fit, Z), _proj_gram(ref, Z), rtol=0, atol=1e-10)


def test_nystrom_block_size_does_not_change_result():
    X = _data(90, 3, seed=20)
    a = NystromKPCA(5, KERN, landmarks=20, random_state=9, block_size=7).fit(X)
    b = NystromKPCA(5, KERN, landmarks=20, random_state=9).fit(X)
    assert_allclose(a.eigenvalues_, b.eigenvalues_, rtol=1e-12)
    assert_allclose(_proj_gram(a, X), _proj_gram(b, X), rtol=0, atol=1e-10)


def test_exact_lanczos_determinism():
    X = _data(60, 3, seed=21)
    a = ExactKPCA(4, KERN, solver="lanczos", random_state=3).fit(X)
    b = ExactKPCA(4, KERN, solver="lanczos", random_state=3).fit(X)
    assert np.array_equal(a.coefficients_, b.coefficients_)
    assert np.array_equal(a.eigenvalues_, b.eigenvalues_)


# -- landmark strategies --------------------------------------------------------

@pytest.mark.parametrize("strategy", [UniformLandmarks(30), LeverageScoreLandmarks(30, s=1e-3),
                                      LeverageScoreLandmarks(30, s=1e-2, exact=True),
                                      LeverageScoreLandmarks(30, s=1e-2, pilot_size=50)])
def test_landmark_indices_sorted_distinct_at_most_m(strategy):
    X = _data(80, 2, seed=22)
    for seed in range(3):
        idx = strategy.select(X, KERN, np.random.default_rng(seed))
        assert idx.ndim == 1 and np.issubdtype(idx.dtype, np.integer)
        assert 1 <= len(idx) <= 30
        assert np.all(np.diff(idx) > 0)
        assert idx.min() >= 0 and idx.max() < 80
    if isinstance(strategy, UniformLandmarks):
        assert len(idx) == 30


def _planted():
    """200 points in a tight cluster plus 5 far outliers: each outlier's kernel column is
    ~ e_i, so its ridge leverage score is ~ 1 / (1 + n s), far above the cluster's."""
    rng = np.random.default_rng(0)
    cluster = rng.normal(scale=0.05, size=(200, 2))
    outliers = np.array([[10.0, 0], [-10, 0], [0, 10], [0, -10], [10, 10]])
    X = np.vstack([cluster, outliers])
    return X, np.arange(200, 205)


def test_leverage_landmarks_prefer_high_leverage_points():
    X, out = _planted()
    kern = Kernel(gamma=1.0)
    s = 1e-3
    scores = exact_scores = LeverageScoreLandmarks(10, s=s, exact=True).scores(X, kern)
    assert exact_scores[out].min() > 10 * exact_scores[:200].max()
    lev = LeverageScoreLandmarks(10, s=s, exact=True)
    uni = UniformLandmarks(10)
    hits_lev = hits_uni = 0
    for seed in range(30):
        hits_lev += np.isin(out, lev.select(X, kern, np.random.default_rng(seed))).sum()
        hits_uni += np.isin(out, uni.select(X, kern, np.random.default_rng(seed))).sum()
    # 30 selections x 5 outliers = 150 chances. Uniform: P(outlier in set) = 1-(1-1/205)^10
    # = 0.048, expected 7 hits. Leverage (computed): l(outlier) = 0.830, cluster total 2.72,
    # so p(outlier) = 0.1208 per draw and P(in set) = 1-(1-0.1208)^10 = 0.724: expected
    # 108.6 hits, sd ~5.5 (110 observed). The window also catches a wrong p (e.g. ~ l^2).
    p_out = exact_scores[out] / exact_scores.sum()
    expected = 150 * (1 - (1 - p_out[0]) ** 10)
    assert expected == pytest.approx(108.6, abs=0.5)
    assert abs(hits_lev - expected) <= 25, (hits_lev, expected)
    assert hits_uni <= 25, hits_uni
    # the approximate scores with the full pilot are the exact ones
    approx = LeverageScoreLandmarks(10, s=s, pilot_size=205).scores(X, kern, 0)
    assert_allclose(approx, scores, rtol=1e-6, atol=1e-10)


def test_nystrom_with_leverage_landmarks_fits():
    X, _ = _planted()
    ny = NystromKPCA(3, Kernel(gamma=1.0), landmarks=LeverageScoreLandmarks(10, s=1e-3, exact=True),
                     random_state=0).fit(X)
    assert len(ny.landmark_indices_) <= 10
    A, L = ny.coefficients_, ny.basis_points_
    assert_allclose(A.T @ Kernel(gamma=1.0).block(L) @ A, np.eye(3), atol=1e-8)


def test_top_eigenpairs_survives_a_tight_cluster_of_equal_eigenvalues():
    """A matrix on which LAPACK's subset drivers (evr, evx) stopped with "Internal
    Error" in a CI run (found by hypothesis through a Nyström fit; the values as
    captured there): six equal diagonal values 1/21 and off-diagonal terms of 1e-19
    to 1e-129. The top 4 eigenpairs must still come back, equal to the full
    eigendecomposition's."""
    from kpca_suite.methods.nystrom import top_eigenpairs

    diag = [0.047619047619047644, 0.047619047619047644, 0.047619047619047616, 0.047619047619047616,
            0.047619047619047616, 0.0476190476190476, 0.7142857142857143]
    upper = [  # row i: M[i, i+1:]
        [7.920941996382182e-25, -2.8086744794727214e-46, -1.0762561995049204e-63, 8.17986170892451e-129, -2.1074217637561481e-23, -5.899912403049755e-32],
        [1.5949496432344374e-47, 3.867530976468436e-64, -4.1352408545814336e-103, 2.7821669512457656e-19, -4.156214868045905e-33],
        [-4.046051671706275e-19, 1.657669923763957e-58, 1.2224218437367975e-46, 3.0643777720803575e-29],
        [-7.803821546657633e-41, 1.2104142235445005e-62, 1.1580434855226692e-32],
        [-9.893684391219534e-102, -5.930639337189207e-73],
        [-9.437573994936193e-33],
    ]
    M = np.diag(diag)
    for i, row in enumerate(upper):
        M[i, i + 1:] = M[i + 1:, i] = row
    mu, U = top_eigenpairs(M, 4)
    np.testing.assert_allclose(mu, [5 / 7, 1 / 21, 1 / 21, 1 / 21], rtol=1e-12)
    np.testing.assert_allclose(U.T @ U, np.eye(4), atol=1e-12)
    np.testing.assert_allclose(M @ U, U * mu, atol=1e-12)


class _GramRoute(NystromKPCA):
    """Overrides ``_eig`` (unchanged), which keeps the fit on the K_mn K_nm route."""

    def _eig(self, Gn, Kmm, landmarks):
        return super()._eig(Gn, Kmm, landmarks)


@pytest.mark.parametrize("center", [False, True])
@pytest.mark.parametrize("d, gamma, m, low_rank", [(1, 0.5, 300, True), (2, 1.0, 80, False)])
def test_an_ill_conditioned_kmm_is_whitened_before_the_solve_with_the_same_fit(center, d, gamma, m, low_rank):
    """An ill-conditioned Gaussian K_mm is whitened by eigh before the pass: on the line it
    keeps r <= 0.4 m directions and the fit accumulates W^T K_mn K_nm W directly; in the
    plane r = 0.86 m and it forms K_mn K_nm, then W^T K_mn K_nm W. Eigenvalues,
    all_eigenvalues_, scores and trace_ equal the route through ``_eig``'s to round-off
    (relative to the top eigenvalue), with and without centring."""
    X = np.random.default_rng(5).standard_normal((3000, d))
    kern = Kernel("gaussian", gamma=gamma)
    fast = NystromKPCA(6, kern, landmarks=m, center=center, random_state=0).fit(X)
    gram = _GramRoute(6, kern, landmarks=m, center=center, random_state=0).fit(X)
    assert (5 * fast.effective_rank_ <= 2 * m) == low_rank
    top = gram.eigenvalues_[0]
    assert_allclose(fast.eigenvalues_, gram.eigenvalues_, rtol=0, atol=1e-12 * top)
    # the smallest kept eigenvalues carry W's amplification of round-off: absolute differences of 8.9e-12
    # (line) and 3.0e-11 (plane, top eigenvalue 0.245) measured
    assert_allclose(fast.all_eigenvalues_, gram.all_eigenvalues_, rtol=0, atol=1e-9 * top)
    assert fast.trace_ == gram.trace_
    Xt = X[:200]
    assert_allclose(np.abs(fast.transform(Xt)), np.abs(gram.transform(Xt)), rtol=0, atol=1e-6)


def test_a_rank_capped_nystrom_fits_the_rank_its_landmarks_span_where_nystrom_refuses():
    """Four landmarks of which two coincide span three directions: NystromKPCA refuses k = 4
    naming the effective rank, the rank-capped fit (the ours-nystrom adapter's) returns the
    three components the landmarks can give."""
    from kpca_suite.methods import FixedLandmarks, NystromKPCA, RankCappedNystromKPCA
    from kpca_suite.suites.adapters import get
    rng = np.random.default_rng(0)
    X = rng.standard_normal((40, 3))
    X[1] = X[0]
    kernel = Kernel("gaussian", gamma=0.5)
    with pytest.raises(ValueError, match="effective rank 3"):
        NystromKPCA(4, kernel, landmarks=FixedLandmarks((0, 1, 2, 3))).fit(X)
    capped = RankCappedNystromKPCA(4, kernel, landmarks=FixedLandmarks((0, 1, 2, 3))).fit(X)
    assert (capped.n_components, capped.n_components_) == (4, 3) and capped.transform(X).shape == (40, 3)
    assert isinstance(get("ours-nystrom").factory(4, 4, kernel, 0), RankCappedNystromKPCA)
