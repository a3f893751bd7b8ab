"""kernels/: kernel blocks against scikit-learn, blocked Gram products, leverage scores.

Conventions pinned here: Gaussian k = exp(-gamma ||x - y||^2) as
scikit-learn's ``rbf_kernel``; lambda_hat = eig(K)/n; ridge leverage scores
l_i(s) = [K (K + n s I)^{-1}]_ii, whose sum is sum_i lhat_i / (lhat_i + s).
"""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import arrays
from numpy.testing import assert_allclose
from sklearn.metrics.pairwise import (laplacian_kernel, linear_kernel, polynomial_kernel,
                                      rbf_kernel)

from kpca_suite.kernels import (KERNELS, Kernel, approximate_leverage_scores, exact_leverage_scores,
                     gram_accumulate, kernel_matmat)

RTOL = 1e-12


def _data(n=25, d=4, seed=0, scale=1.0):
    return np.random.default_rng(seed).normal(scale=scale, size=(n, d))


def _cauchy(X, Y, gamma):
    d2 = ((X[:, None, :] - Y[None, :, :]) ** 2).sum(-1)
    return 1.0 / (1.0 + gamma * d2)


def _normalised_poly(X, Y, gamma, degree, coef0):
    k = polynomial_kernel(X, Y, degree=degree, gamma=gamma, coef0=coef0)
    kx = np.diag(polynomial_kernel(X, degree=degree, gamma=gamma, coef0=coef0))
    ky = np.diag(polynomial_kernel(Y, degree=degree, gamma=gamma, coef0=coef0))
    return k / np.sqrt(np.outer(kx, ky))


# (Kernel, reference function of (X, Y)) pairs; polynomial degree 3 with coef0 = 0
# checks negative bases (odd power of a negative inner product).
CASES = {
    "gaussian": (Kernel("gaussian", gamma=0.3), lambda X, Y: rbf_kernel(X, Y, gamma=0.3)),
    "laplacian": (Kernel("laplacian", gamma=0.7), lambda X, Y: laplacian_kernel(X, Y, gamma=0.7)),
    "cauchy": (Kernel("cauchy", gamma=0.4), lambda X, Y: _cauchy(X, Y, 0.4)),
    "polynomial": (Kernel("polynomial", gamma=0.5, degree=3, coef0=1.5),
                   lambda X, Y: polynomial_kernel(X, Y, degree=3, gamma=0.5, coef0=1.5)),
    "polynomial_odd_coef0_zero": (Kernel("polynomial", gamma=0.5, degree=3, coef0=0.0),
                                  lambda X, Y: polynomial_kernel(X, Y, degree=3, gamma=0.5, coef0=0.0)),
    "polynomial_normalised": (Kernel("polynomial", gamma=0.5, degree=4, coef0=2.0, normalize=True),
                              lambda X, Y: _normalised_poly(X, Y, 0.5, 4, 2.0)),
    "linear": (Kernel("linear"), lambda X, Y: linear_kernel(X, Y)),
}


def test_cases_cover_every_kernel():
    assert {c[0].name for c in CASES.values()} == set(KERNELS)


@pytest.mark.parametrize("case", sorted(CASES))
def test_block_matches_reference(case):
    kern, ref = CASES[case]
    X, Y = _data(20, 4, seed=1), _data(13, 4, seed=2)
    K = kern.block(X, Y)
    assert K.shape == (20, 13) and K.dtype == np.float64
    assert_allclose(K, ref(X, Y), rtol=RTOL, atol=1e-14)
    assert_allclose(kern.block(X), ref(X, X), rtol=RTOL, atol=1e-14)


@pytest.mark.parametrize("case", sorted(CASES))
def test_diag_is_block_diagonal(case):
    kern, _ = CASES[case]
    X = _data(17, 3, seed=3, scale=2.0)
    assert_allclose(kern.diag(X), np.diag(kern.block(X)), rtol=RTOL, atol=1e-14)


@pytest.mark.parametrize("case", sorted(CASES))
def test_block_without_Y_is_symmetric_and_equals_block_X_X(case):
    kern, _ = CASES[case]
    X = _data(30, 5, seed=4)
    K = kern.block(X)
    assert K.shape == (30, 30)
    assert_allclose(K, K.T, rtol=0, atol=1e-14 * max(1.0, np.abs(K).max()))
    assert_allclose(K, kern.block(X, X.copy()), rtol=RTOL, atol=1e-14)


@pytest.mark.parametrize("case", sorted(CASES))
def test_float32_input_gives_a_float32_block_within_its_round_off(case):
    kern, ref = CASES[case]
    X32 = _data(12, 3, seed=5).astype(np.float32)
    Y32 = _data(7, 3, seed=6).astype(np.float32)
    K = kern.block(X32, Y32)
    assert K.dtype == np.float32
    X64, Y64 = X32.astype(np.float64), Y32.astype(np.float64)
    want = ref(X64, Y64)
    # single-precision GEMM and exp: a few eps_32 (1.2e-7) of the block's scale
    assert_allclose(K, want, rtol=1e-5, atol=1e-6 * max(1.0, np.abs(want).max()))
    mixed = kern.block(X32, Y64)  # one float64 operand: the whole block in float64
    assert mixed.dtype == np.float64
    assert_allclose(mixed, want, rtol=RTOL, atol=1e-14)
    assert kern.diag(X32).dtype == np.float64


@pytest.mark.parametrize("case", sorted(CASES))
def test_block_into_a_view_of_a_larger_matrix(case):
    # out= writes the block into a strided view (how ExactKPCA fills the lower triangle of K)
    kern, _ = CASES[case]
    X, Y = _data(20, 4, seed=1), _data(13, 4, seed=2)
    big = np.full((30, 40), -7.0)
    view = big[5:25, 10:23]
    assert kern.block(X, Y, out=view) is view
    assert np.array_equal(view, kern.block(X, Y))
    big[5:25, 10:23] = -7.0
    assert np.all(big == -7.0)  # nothing written outside the view
    with pytest.raises(ValueError, match=r"out must be a float64 array of shape \(20, 13\)"):
        kern.block(X, Y, out=np.empty((13, 20)))


def test_integer_and_list_input_accepted():
    k = Kernel(gamma=0.2)
    Xi = np.arange(12).reshape(4, 3)
    assert_allclose(k.block(Xi), rbf_kernel(Xi.astype(float), gamma=0.2), rtol=RTOL)
    assert_allclose(k.block(Xi.tolist()), rbf_kernel(Xi.astype(float), gamma=0.2), rtol=RTOL)


def test_gaussian_diagonal_exactly_one_despite_roundoff():
    # ||x||^2 + ||x||^2 - 2 x.x can round to a tiny negative number: it is clipped at 0.
    X = _data(50, 7, seed=7, scale=100.0)
    K = Kernel(gamma=1e-3).block(X)
    assert np.all(K <= 1.0)
    assert_allclose(np.diag(K), 1.0, rtol=0, atol=1e-9)


@pytest.mark.parametrize("name", ["gaussian", "cauchy"])
@pytest.mark.parametrize("shift", [0.0, 1e4, 1e6])
def test_squared_distance_kernels_are_accurate_far_from_the_origin(name, shift):
    """The kernels are translation invariant, and so is their block: 300 points of spread
    1e-3 at gamma = 1e4, shifted by up to 1e6 (metres, timestamps), against the block from
    the differences x - y themselves (exact for nearby floats). The error is round-off of the
    distance about a point of the data, eps (1 + gamma diam^2), a few eps here; expanded
    about the origin it is eps gamma ||x||^2 (shift 1e6: a diagonal of 3.3e-9, not 1)."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 2)) * 1e-3 + shift
    Y = X[::7]
    kernel = Kernel(name, gamma=1e4)
    d2 = ((X[:, None, :] - Y[None, :, :]) ** 2).sum(axis=2)
    reference = np.exp(-kernel.gamma * d2) if name == "gaussian" else 1.0 / (1.0 + kernel.gamma * d2)
    diam2 = d2.max()
    bound = 16 * np.finfo(float).eps * (1 + kernel.gamma * diam2)
    assert np.abs(kernel.block(X, Y) - reference).max() <= bound
    assert np.abs(kernel.block(X)[::7] - kernel.block(Y, X)).max() <= bound
    assert np.abs(np.diag(kernel.block(X)) - 1.0).max() <= bound


def test_sup_diag():
    X = _data(10, 3, seed=8)
    assert Kernel("gaussian").sup_diag() == 1.0
    assert Kernel("polynomial", normalize=True).sup_diag() == 1.0
    assert Kernel("linear").sup_diag(X) == pytest.approx((X**2).sum(1).max(), rel=1e-14)
    with pytest.raises(ValueError, match="pass X"):
        Kernel("linear").sup_diag()


@settings(max_examples=40, deadline=None)
@given(
    X=st.integers(2, 12).flatmap(lambda n: st.integers(1, 4).flatmap(
        lambda d: arrays(np.float64, (n, d), elements=st.floats(-3, 3, allow_nan=False))))
    ,
    gamma=st.floats(0.01, 2.0),
)
def test_gaussian_block_properties(X, gamma):
    n = X.shape[0]
    K = Kernel("gaussian", gamma=gamma).block(X)
    assert np.all(K > 0) and np.all(K <= 1.0)
    assert_allclose(K, K.T, rtol=0, atol=1e-15)
    assert np.linalg.eigvalsh(K).min() >= -1e-10 * n


# -- blocked Gram products ---------------------------------------------------

@pytest.mark.parametrize("kernel", [Kernel("gaussian", gamma=0.4), Kernel("laplacian", gamma=0.3),
                                    Kernel("polynomial", gamma=0.3, degree=2),
                                    Kernel("linear")])
@pytest.mark.parametrize("block_size", [1, 7, 40, 41, 1000, None])
def test_gram_accumulate_equals_dense(kernel, block_size):
    n = 40
    X = _data(n, 3, seed=9)
    L = X[[0, 3, 5, 11, 17, 22, 30]]  # m = 7 > d = 3: exercises the linear-kernel shortcut
    Knm = kernel.block(X, L)
    G, colsum = gram_accumulate(X, L, kernel, block_size=block_size)
    assert G.shape == (7, 7) and colsum.shape == (7,)
    assert_allclose(G, Knm.T @ Knm, rtol=1e-12, atol=1e-12 * np.abs(Knm.T @ Knm).max())
    assert_allclose(colsum, Knm.sum(axis=0), rtol=1e-12, atol=1e-12 * np.abs(Knm).sum(0).max())


def test_gram_accumulate_linear_with_few_landmarks():
    # m <= d: the generic blocked path for the linear kernel
    X = _data(30, 6, seed=10)
    L = _data(4, 6, seed=11)
    Knm = X @ L.T
    G, colsum = gram_accumulate(X, L, Kernel("linear"), block_size=7)
    assert_allclose(G, Knm.T @ Knm, rtol=1e-12)
    assert_allclose(colsum, Knm.sum(0), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("block_size", [1, 7, 25, 100])
def test_kernel_matmat_equals_dense(block_size):
    kern = Kernel("cauchy", gamma=0.6)
    X, Y = _data(25, 3, seed=12), _data(9, 3, seed=13)
    rng = np.random.default_rng(0)
    K = kern.block(X)
    v, V = rng.normal(size=25), rng.normal(size=(25, 4))
    out1 = kernel_matmat(X, v, kern, block_size=block_size)
    out2 = kernel_matmat(X, V, kern, block_size=block_size)
    assert out1.shape == (25,) and out2.shape == (25, 4)
    assert_allclose(out1, K @ v, rtol=1e-12, atol=1e-12)
    assert_allclose(out2, K @ V, rtol=1e-12, atol=1e-12)
    W = rng.normal(size=(9, 2))
    assert_allclose(kernel_matmat(X, W, kern, Y=Y, block_size=block_size), kern.block(X, Y) @ W,
                    rtol=1e-12, atol=1e-12)


def test_kernel_matmat_rejects_wrong_V():
    X = _data(10, 2)
    with pytest.raises(ValueError, match="V must have 10 rows"):
        kernel_matmat(X, np.ones(9), Kernel())
    with pytest.raises(ValueError, match="V contains NaN"):
        kernel_matmat(X, np.full(10, np.nan), Kernel())


# -- leverage scores ---------------------------------------------------------

@pytest.mark.parametrize("kernel", [Kernel("gaussian", gamma=0.5), Kernel("laplacian", gamma=0.5),
                                    Kernel("polynomial", gamma=0.2, degree=2)])
@pytest.mark.parametrize("s", [1e-4, 1e-2, 1.0])
def test_exact_leverage_scores_definition(kernel, s):
    X = _data(60, 3, seed=14)
    n = X.shape[0]
    K = kernel.block(X)
    ref = np.diag(np.linalg.solve(K + n * s * np.eye(n), K))  # K symmetric: (K+nsI)^-1 K = K (K+nsI)^-1
    got = exact_leverage_scores(X, kernel, s)
    assert got.shape == (n,)
    assert_allclose(got, ref, rtol=1e-8, atol=1e-12)
    assert np.all(got >= 0) and np.all(got <= 1 + 1e-12)


def test_exact_leverage_scores_sum_is_degrees_of_freedom():
    # trace identity: sum_i l_i(s) = sum_i lhat_i / (lhat_i + s), lhat = eig(K)/n
    X = _data(80, 2, seed=15)
    kern = Kernel(gamma=1.0)
    lhat = np.clip(np.linalg.eigvalsh(kern.block(X)), 0, None) / 80
    for s in (1e-5, 1e-3, 1e-1):
        assert exact_leverage_scores(X, kern, s).sum() == pytest.approx((lhat / (lhat + s)).sum(), rel=1e-10)


def test_exact_leverage_scores_vector_of_levels():
    X = _data(30, 2, seed=16)
    kern = Kernel(gamma=0.5)
    levels = np.array([1e-3, 1e-2, 1e-1])
    out = exact_leverage_scores(X, kern, levels)
    assert out.shape == (3, 30)
    for row, s in zip(out, levels):
        assert_allclose(row, exact_leverage_scores(X, kern, s), rtol=1e-12)
    # decreasing in s
    assert np.all(np.diff(out.sum(1)) < 0)


@pytest.mark.parametrize("s", [1e-3, 1e-1])
@pytest.mark.parametrize("block_size", [None, 7])
def test_approximate_leverage_full_pilot_is_exact(s, block_size):
    X = _data(70, 3, seed=17)
    kern = Kernel(gamma=0.5)
    exact = exact_leverage_scores(X, kern, s)
    approx = approximate_leverage_scores(X, kern, s, pilot_size=70, random_state=3, block_size=block_size)
    assert_allclose(approx, exact, rtol=1e-8, atol=1e-10)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_approximate_leverage_small_pilot_within_factor(seed):
    # Measured (n = 300, d = 3, gamma = 0.5, s = 1e-2, pilot M = 100, seeds 0, 1, 2,
    # pilot random_state = seed): min/max of approx/exact were
    #   seed 0: 0.614 / 1.775, seed 1: 0.651 / 1.900, seed 2: 0.685 / 2.079.
    # Bounds [0.4, 3.2] leave about 1.5x margin on the measured range. (For comparison,
    # M = 50 gave 0.43..2.84, and s = 1e-3 with M = 50 gave 0.22..8.4.)
    X = np.random.default_rng(seed).normal(size=(300, 3))
    kern = Kernel(gamma=0.5)
    exact = exact_leverage_scores(X, kern, 1e-2)
    approx = approximate_leverage_scores(X, kern, 1e-2, pilot_size=100, random_state=seed)
    ratio = approx / exact
    assert ratio.min() > 0.4 and ratio.max() < 3.2, (ratio.min(), ratio.max())
    # The range alone would not catch a wrong pilot regulariser (s n I instead of s M I gives
    # ratios 1.00..3.07, inside the range). Measured sum(approx)/sum(exact): 1.089, 1.134,
    # 1.132 and median ratio 1.056, 1.067, 1.030; the s n I variant gives 1.73 and 1.83..1.88.
    assert 0.9 < approx.sum() / exact.sum() < 1.35
    assert 0.85 < np.median(ratio) < 1.3
    # and the estimate is deterministic given the seed
    assert_allclose(approximate_leverage_scores(X, kern, 1e-2, pilot_size=100, random_state=seed),
                    approx, rtol=0, atol=0)


@pytest.mark.parametrize("name", ["gaussian", "laplacian", "polynomial", "linear"])
def test_centred_trace_is_the_trace_of_the_doubly_centred_gram(name):
    """centred_trace sums the upper triangle of block rows (and the linear kernel's
    ||X^T 1||^2); against tr(H K H) / n from the whole matrix, with blocks that do not
    divide n."""
    from kpca_suite.kernels import centred_trace
    X = np.random.default_rng(2).standard_normal((203, 4)) + 1.5
    kern = Kernel(name, gamma=0.2)
    K = kern.block(X)
    H = np.eye(203) - 1.0 / 203
    expected = np.trace(H @ K @ H) / 203
    assert centred_trace(X, kern, block_size=50) == pytest.approx(expected, rel=1e-12)
    assert centred_trace(X, kern) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("normalize", [False, True])
@pytest.mark.parametrize("degree", [1, 2, 4, 5, 6, 7])
def test_polynomial_every_degree_against_scikit_learn(degree, normalize):
    """The block's integer power (binary exponentiation: degrees 4-7 take the squaring and the
    odd-bit branches in every combination) and its normalisation, against scikit-learn's
    float power, with negative bases (coef0 = 0: gamma x^T y < 0 for about half the pairs);
    and the diagonal against k(x, x)."""
    X, Y = _data(30, 4, 1), _data(20, 4, 2)
    k = Kernel("polynomial", gamma=0.5, degree=degree, coef0=0.0 if not normalize else 1.0, normalize=normalize)
    want = (_normalised_poly(X, Y, 0.5, degree, 1.0) if normalize
            else polynomial_kernel(X, Y, degree=degree, gamma=0.5, coef0=0.0))
    assert_allclose(k.block(X, Y), want, rtol=RTOL, atol=1e-14 * np.abs(want).max())
    if not normalize:
        assert_allclose(k.diag(X), np.diag(polynomial_kernel(X, degree=degree, gamma=0.5, coef0=0.0)), rtol=RTOL)


def test_inverse_cholesky_factor_whitens_and_refuses_an_indefinite_matrix():
    from kpca_suite.kernels.leverage import inverse_cholesky_factor
    rng = np.random.default_rng(0)
    B = rng.standard_normal((30, 8))
    A = B @ B.T  # rank 8: needs the ridge
    Linv = inverse_cholesky_factor(A, 0.5)
    assert np.all(np.triu(Linv, 1) == 0.0)
    np.testing.assert_allclose(Linv @ (A + 0.5 * np.eye(30)) @ Linv.T, np.eye(30), atol=1e-10)
    np.testing.assert_array_equal(A, B @ B.T)  # not overwritten by default
    with pytest.raises(np.linalg.LinAlgError, match="not numerically positive definite"):
        inverse_cholesky_factor(A - np.eye(30), 0.5)
