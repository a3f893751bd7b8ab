"""Bad input: each raises a clear error whose message names the parameter."""

import numpy as np
import pytest

from kpca_suite.kernels import (Kernel, approximate_leverage_scores, exact_leverage_scores, gram_accumulate,
                     kernel_matmat)
from kpca_suite.methods import ExactKPCA, LeverageScoreLandmarks, NystromKPCA, UniformLandmarks

X = np.random.default_rng(0).normal(size=(30, 3))
K = Kernel(gamma=0.5)


def _fitted_exact():
    return ExactKPCA(3, K).fit(X)


def _fitted_nystrom():
    return NystromKPCA(3, K, landmarks=10, random_state=0).fit(X)


def _with(value, where=(2, 1)):
    Y = X.copy()
    Y[where] = value
    return Y


# -- non-finite X ---------------------------------------------------------------

@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_nonfinite_X_everywhere(bad):
    Xb = _with(bad)
    msg = "X contains NaN or inf"
    with pytest.raises(ValueError, match=msg):
        ExactKPCA(2, K).fit(Xb)
    with pytest.raises(ValueError, match=msg):
        NystromKPCA(2, K, landmarks=5).fit(Xb)
    with pytest.raises(ValueError, match=msg):
        _fitted_exact().transform(Xb)
    with pytest.raises(ValueError, match=msg):
        _fitted_nystrom().transform(Xb)
    with pytest.raises(ValueError, match=msg):
        K.block(Xb)
    with pytest.raises(ValueError, match="Y contains NaN or inf"):
        K.block(X, Xb)
    with pytest.raises(ValueError, match=msg):
        K.diag(Xb)
    with pytest.raises(ValueError, match=msg):
        gram_accumulate(Xb, X[:5], K)
    with pytest.raises(ValueError, match="landmarks contains NaN or inf"):
        gram_accumulate(X, Xb[:5], K)
    with pytest.raises(ValueError, match=msg):
        kernel_matmat(Xb, np.ones(30), K)
    with pytest.raises(ValueError, match=msg):
        exact_leverage_scores(Xb, K, 0.1)
    with pytest.raises(ValueError, match=msg):
        approximate_leverage_scores(Xb, K, 0.1, 10)


def test_overflow_to_inf_on_conversion_is_caught():
    big = np.longdouble(1e300) * np.longdouble(1e300)
    if not np.isfinite(big):
        pytest.skip("longdouble is float64 on this platform")
    with pytest.raises(ValueError, match="X contains NaN or inf"):
        K.block(np.full((3, 2), big))


# -- shapes ---------------------------------------------------------------------

BAD_SHAPES = [
    (np.ones(5), "X must be 2-D"),
    (np.ones((4, 3, 2)), "X must be 2-D"),
    (np.empty((0, 3)), "X is empty"),
    (np.empty((4, 0)), "X has no columns"),
]


@pytest.mark.parametrize("Xb,msg", BAD_SHAPES, ids=["1d", "3d", "no_rows", "no_cols"])
def test_bad_shapes(Xb, msg):
    with pytest.raises(ValueError, match=msg):
        ExactKPCA(1, K).fit(Xb)
    with pytest.raises(ValueError, match=msg):
        NystromKPCA(1, K, landmarks=1).fit(Xb)
    with pytest.raises(ValueError, match=msg):
        _fitted_nystrom().transform(Xb)
    with pytest.raises(ValueError, match=msg):
        _fitted_exact().transform(Xb)
    with pytest.raises(ValueError, match=msg):
        K.block(Xb)
    with pytest.raises(ValueError, match=msg):
        gram_accumulate(Xb, X[:3], K)
    with pytest.raises(ValueError, match=msg.replace("X", "landmarks")):
        gram_accumulate(X, Xb, K)


def test_ragged_X():
    with pytest.raises(ValueError, match="X"):
        K.block([[1.0, 2.0], [3.0]])


def test_mismatched_dimension():
    Y = np.ones((4, 2))
    with pytest.raises(ValueError, match=r"X and Y must have the same number of columns \(d\), got 3 and 2"):
        K.block(X, Y)
    with pytest.raises(ValueError, match="X and landmarks must have the same number of columns"):
        gram_accumulate(X, Y, K)
    with pytest.raises(ValueError, match="same number of columns"):
        kernel_matmat(X, np.ones(4), K, Y=Y)
    for model in (_fitted_exact(), _fitted_nystrom()):
        with pytest.raises(ValueError, match="X and the training data must have the same number of columns"):
            model.transform(Y)


def test_string_dtype_X():
    Xs = np.array([["a", "b"], ["c", "d"]])
    with pytest.raises(TypeError, match="X must hold real numbers"):
        K.block(Xs)
    with pytest.raises(TypeError, match="X must hold real numbers"):
        ExactKPCA(1, K).fit(Xs)
    with pytest.raises(TypeError, match="X must hold real numbers"):
        NystromKPCA(1, K, landmarks=1).fit(Xs)
    with pytest.raises(TypeError, match="X must hold real numbers"):
        _fitted_exact().transform(Xs)
    with pytest.raises(TypeError, match="X must hold real numbers"):
        K.block(X.astype(complex))


# -- kernel parameters ------------------------------------------------------------

@pytest.mark.parametrize("name", ["gaussian", "laplacian", "cauchy", "polynomial"])
@pytest.mark.parametrize("gamma", [0, 0.0, -1.0, np.nan, np.inf])
def test_gamma_nonpositive_or_nonfinite(name, gamma):
    with pytest.raises(ValueError, match="gamma must be > 0"):
        Kernel(name, gamma=gamma)


@pytest.mark.parametrize("gamma", [True, False, "1.0", None, 1j])
def test_gamma_wrong_type(gamma):
    with pytest.raises(TypeError, match="gamma must be a real number"):
        Kernel("gaussian", gamma=gamma)


def test_unknown_kernel_name():
    with pytest.raises(ValueError, match=r"kernel name must be one of .*'rbf'"):
        Kernel("rbf")


def test_polynomial_parameters():
    with pytest.raises(ValueError, match="degree must be > 0"):
        Kernel("polynomial", degree=0)
    with pytest.raises(ValueError, match="degree must be > 0"):
        Kernel("polynomial", degree=-2)
    with pytest.raises(TypeError, match="degree must be an integer"):
        Kernel("polynomial", degree=2.5)
    with pytest.raises(TypeError, match="degree must be an integer"):
        Kernel("polynomial", degree=True)
    with pytest.raises(ValueError, match="coef0 must be >= 0"):
        Kernel("polynomial", coef0=-1.0)
    with pytest.raises(ValueError, match="coef0 must be > 0 for the normalised"):
        Kernel("polynomial", coef0=0.0, normalize=True)


def test_kernel_must_be_a_Kernel():
    with pytest.raises(TypeError, match="kernel must be a kernels.Kernel"):
        ExactKPCA(2, kernel="gaussian").fit(X)
    with pytest.raises(TypeError, match="kernel must be a kernels.Kernel"):
        NystromKPCA(2, kernel="gaussian").fit(X)


# -- ranks and sizes ----------------------------------------------------------------

def test_m_larger_than_n():
    with pytest.raises(ValueError, match="m = 31 landmarks must not exceed the number of samples n = 30"):
        NystromKPCA(2, K, landmarks=31).fit(X)
    with pytest.raises(ValueError, match="m = 31 landmarks must not exceed"):
        UniformLandmarks(31).select(X, K, 0)
    with pytest.raises(ValueError, match="m = 31 landmarks must not exceed"):
        LeverageScoreLandmarks(31, s=0.1).select(X, K, 0)


@pytest.mark.parametrize("m", [0, -3])
def test_m_nonpositive(m):
    with pytest.raises(ValueError, match="m must be > 0"):
        NystromKPCA(1, K, landmarks=m).fit(X)


def test_m_wrong_type():
    with pytest.raises(TypeError, match="m must be an integer"):
        NystromKPCA(1, K, landmarks=5.0).fit(X)


def test_n_components_bounds():
    with pytest.raises(ValueError, match="n_components = 11 must not exceed m = 10"):
        NystromKPCA(11, K, landmarks=10).fit(X)
    with pytest.raises(ValueError, match="n_components = 31 must not exceed the number of samples n = 30"):
        ExactKPCA(31, K).fit(X)
    with pytest.raises(ValueError, match="n_components = 31 must not exceed the number of samples n = 30"):
        NystromKPCA(31, K, landmarks=10).fit(X)
    for n_components in (0, -1):
        with pytest.raises(ValueError, match="n_components must be > 0"):
            ExactKPCA(n_components, K).fit(X)
        with pytest.raises(ValueError, match="n_components must be > 0"):
            NystromKPCA(n_components, K, landmarks=5).fit(X)
    with pytest.raises(TypeError, match="n_components must be an integer"):
        ExactKPCA(2.0, K).fit(X)


def test_lanczos_n_components_equal_n_is_a_clear_error():
    with pytest.raises(ValueError, match="n_components"):
        ExactKPCA(30, K, solver="lanczos").fit(X)


def test_n_components_above_effective_rank_after_dedup():
    # leverage sampling with duplicates can return fewer landmarks than n_components
    Xc = np.vstack([np.zeros((29, 3)), [[50.0, 0, 0]]])  # two distinct points only
    with pytest.raises(ValueError, match="n_components = 3 exceeds the effective rank"):
        NystromKPCA(3, K, landmarks=LeverageScoreLandmarks(5, s=0.1, exact=True), random_state=0).fit(Xc)


def test_ell_out_of_range():
    ex = ExactKPCA(3, K, solver="lanczos", random_state=0).fit(X)  # lanczos keeps only k eigenvalues
    with pytest.raises(ValueError, match="ell = 4 must not exceed the number of fitted eigenvalues = 3"):
        ex.insample_error(4)
    ny = _fitted_nystrom()
    with pytest.raises(ValueError, match=f"ell = 11 must not exceed the number of fitted eigenvalues = {len(ny.all_eigenvalues_)}"):
        ny.insample_error(11)
    with pytest.raises(ValueError, match="ell must be > 0"):
        ny.insample_error(0)
    with pytest.raises(ValueError, match="ell = 31 must not exceed"):
        _fitted_exact().insample_error(31)


def test_not_fitted():
    for model in (ExactKPCA(2, K), NystromKPCA(2, K)):
        with pytest.raises(RuntimeError, match="is not fitted yet"):
            model.transform(X)
        with pytest.raises(RuntimeError, match="is not fitted yet"):
            model.insample_error(1)


def test_unknown_solver_and_whitening():
    with pytest.raises(ValueError, match="solver must be one of"):
        ExactKPCA(2, K, solver="arpack").fit(X)
    with pytest.raises(ValueError, match="whitening must be one of"):
        NystromKPCA(2, K, landmarks=5, whitening="svd").fit(X)


def test_init_only_stores_parameters():
    # scikit-learn's rule: __init__ never validates, fit does
    from kpca_suite.methods import (KPCR, RFERM, SKPCA, CenteredNystromKPCA, CenteredNystromKRR, KernelRidge,
                                    NystromKRR, RFOja, StreamingNystrom, SubsetPCA)
    ExactKPCA(2, kernel="gaussian", solver="arpack")
    NystromKPCA(2, kernel="gaussian", whitening="svd", landmarks=-1)
    CenteredNystromKPCA(2, kernel="gaussian", form="paper")
    SubsetPCA(2, kernel=None, landmarks=0)
    KernelRidge("rbf", -1.0)
    NystromKRR("rbf", -1.0, 0, sampling="greedy", solver="cg")
    KPCR(0, kernel=None, landmarks=-1)
    CenteredNystromKRR(kernel=None, landmarks=-1, ridge=-1.0)
    RFERM(0, 0, kernel="gaussian")
    RFOja(0, 0, kernel="gaussian", learning_rate=0.1)
    SKPCA(0, 0, 0, kernel="gaussian")
    StreamingNystrom(0, kernel="gaussian", rcond=2.0)


def test_not_fitted_message_names_the_call():
    from kpca_suite.methods import KPCR, RFOja, NotFittedError
    with pytest.raises(NotFittedError, match=r"^ExactKPCA is not fitted yet: call fit\(X\) first$"):
        ExactKPCA(2, K).transform(X)
    with pytest.raises(RuntimeError, match=r"^KPCR is not fitted yet: call fit\(X, y\) first$"):
        KPCR(2, K).predict(X)
    with pytest.raises(RuntimeError, match=r"call fit\(X\) or partial_fit\(X\) first"):
        RFOja(2, 10).transform(X)


def test_refit_forgets_the_previous_fit():
    from kpca_suite.methods import RFERM
    ny = NystromKPCA(2, K, landmarks=10, whitening="generalized", random_state=0).fit(X)
    ny.stale_ = 1.0
    ny.fit(X)
    assert not hasattr(ny, "stale_")
    est = RFERM(2, 8, random_state=0).fit(X)
    est.n_components = 99
    with pytest.raises(ValueError, match="n_components"):
        est.fit(X)
    assert not hasattr(est, "components_")


# -- block_size ----------------------------------------------------------------------

@pytest.mark.parametrize("bs", [0, -4])
def test_block_size_nonpositive(bs):
    with pytest.raises(ValueError, match="block_size must be > 0"):
        gram_accumulate(X, X[:5], K, block_size=bs)
    with pytest.raises(ValueError, match="block_size must be > 0"):
        kernel_matmat(X, np.ones(30), K, block_size=bs)
    with pytest.raises(ValueError, match="block_size must be > 0"):
        approximate_leverage_scores(X, K, 0.1, 10, block_size=bs)
    with pytest.raises(ValueError, match="block_size must be > 0"):
        NystromKPCA(2, K, landmarks=5, block_size=bs).fit(X)
    with pytest.raises(ValueError, match="block_size must be > 0"):
        ExactKPCA(2, K, solver="lanczos", block_size=bs).fit(X)


def test_block_size_wrong_type():
    with pytest.raises(TypeError, match="block_size must be an integer"):
        gram_accumulate(X, X[:5], K, block_size=2.5)


def test_exact_dense_block_size_validated_at_fit():
    with pytest.raises(ValueError, match="block_size must be > 0"):
        ExactKPCA(2, K, solver="dense", block_size=0).fit(X)


# -- random_state -----------------------------------------------------------------------

@pytest.mark.parametrize("rs", ["0", 1.5, [1, 2], np.random.RandomState(0)])
def test_random_state_wrong_type(rs):
    msg = "random_state must be None, an int or a numpy Generator"
    with pytest.raises(TypeError, match=msg):
        NystromKPCA(2, K, landmarks=5, random_state=rs).fit(X)
    with pytest.raises(TypeError, match=msg):
        ExactKPCA(2, K, solver="lanczos", random_state=rs).fit(X)
    with pytest.raises(TypeError, match=msg):
        UniformLandmarks(5).select(X, K, rs)
    with pytest.raises(TypeError, match=msg):
        approximate_leverage_scores(X, K, 0.1, 10, random_state=rs)


def test_exact_dense_random_state_validated():
    with pytest.raises(TypeError, match="random_state"):
        ExactKPCA(2, K, solver="dense", random_state="0").fit(X)


# -- leverage parameters ------------------------------------------------------------------

@pytest.mark.parametrize("s", [0.0, -1.0, np.nan])
def test_leverage_s_invalid(s):
    with pytest.raises(ValueError, match="s must be > 0"):
        exact_leverage_scores(X, K, s)
    with pytest.raises(ValueError, match="s must be > 0"):
        approximate_leverage_scores(X, K, s, 10)
    with pytest.raises(ValueError, match="s must be > 0"):
        LeverageScoreLandmarks(5, s=s).select(X, K, 0)


def test_pilot_size_invalid():
    with pytest.raises(ValueError, match="pilot_size = 31 must not exceed the number of samples n = 30"):
        approximate_leverage_scores(X, K, 0.1, 31)
    with pytest.raises(ValueError, match="pilot_size must be > 0"):
        approximate_leverage_scores(X, K, 0.1, 0)


# -- numerically singular K_mm -------------------------------------------------------------

@pytest.mark.parametrize("whitening", ["cholesky", "generalized"])
def test_singular_Kmm_suggests_eigh(whitening):
    Xd = np.vstack([X, X[:4]])  # rows 30..33 duplicate rows 0..3
    idx = list(range(34))

    class Fixed:
        m = 34

        def select(self, X, kernel, rng):
            return np.array(idx)

    with pytest.raises(ValueError, match="use whitening='eigh'"):
        NystromKPCA(3, K, landmarks=Fixed(), whitening=whitening).fit(Xd)
    # eigh copes: the duplicated rows only lower the effective rank
    ny = NystromKPCA(3, K, landmarks=Fixed(), whitening="eigh").fit(Xd)
    assert ny.effective_rank_ <= 30
    assert np.all(np.isfinite(ny.transform(Xd)))


def test_fixed_landmarks_validation():
    from kpca_suite.methods import FixedLandmarks
    with pytest.raises(ValueError, match="indices of FixedLandmarks must be distinct"):
        FixedLandmarks((1, 1, 2)).select(X, K)
    with pytest.raises(ValueError, match=r"indices of FixedLandmarks must lie in \[0, 30\)"):
        FixedLandmarks((1, 30)).select(X, K)


# Repro found by a random search (200 seeds x {cholesky, generalized}: 4 silent successes
# before the conditioning check). Exactly duplicated landmark rows make K_mm singular
# (cond ~ 5e17, min eigenvalue ~ -1e-16), but LAPACK's potrf / sygvd do not always fail on it, so no error is raised and the
# fit is wrong: top eigenvalue 0.5152 (cholesky) / 0.4938 (generalized) > the exact
# EKPCA top eigenvalue 0.4626 (impossible for Nyström), and A^T K_mm A - I has entries ~0.15.
@pytest.mark.parametrize("whitening", ["cholesky", "generalized"])
def test_singular_Kmm_always_detected(whitening):
    rng = np.random.default_rng(66)
    d, n = int(rng.integers(1, 6)), int(rng.integers(5, 40))
    gamma = float(rng.choice([0.01, 0.1, 1, 10]))
    assert (n, d, gamma) == (37, 5, 0.1)
    X0 = rng.normal(size=(n, d))
    Xd = np.vstack([X0, X0[:2]])

    class All:
        m = n + 2

        def select(self, X, kernel, rng):
            return np.arange(n + 2)

    with pytest.raises(ValueError, match="use whitening='eigh'"):
        NystromKPCA(2, Kernel(gamma=gamma), landmarks=All(), whitening=whitening).fit(Xd)


@pytest.mark.parametrize("cls,rcond", [
    ("exact", np.nan),
    ("exact", 2.0),
    ("exact", -1.0),
    ("nystrom", -1.0),
    ("nystrom", np.nan),
    ("nystrom", 2.0),
])
def test_rcond_invalid(cls, rcond):
    Xd = np.vstack([X, X[:3]])
    with pytest.raises((ValueError, TypeError), match="rcond"):
        if cls == "exact":
            ExactKPCA(3, K, rcond=rcond).fit(Xd)
        else:
            NystromKPCA(3, K, landmarks=33, rcond=rcond, random_state=0).fit(Xd)


def _npy_files(tmp_path):
    np.save(tmp_path / "ok.npy", np.ones((20, 3)))
    (tmp_path / "trunc.npy").write_bytes((tmp_path / "ok.npy").read_bytes()[:100])
    (tmp_path / "text.npy").write_text("1,2,3\n")
    return tmp_path


def _cryptic_cases():
    """Calls whose error used to name neither the parameter nor the cause:
    {case: (call(tmp_dir), exception, what the message must say)}."""
    from kpca_suite.kernels import Kernel, exact_leverage_scores, median_gamma, pairwise_sq_distances
    from kpca_suite.kernels.dask_arrays import from_npy
    from kpca_suite.methods import FixedLandmarks
    from kpca_suite.theory.effective_dimension import effective_dimension
    from kpca_suite.theory.hallgren_bounds import hs_distance
    from kpca_suite.theory.kernel_error import spectral_error
    X, gauss = np.random.default_rng(0).random((10, 2)), Kernel("gaussian", gamma=1.0)
    return {
        "leverage s 2-D": (lambda d: exact_leverage_scores(np.eye(4), Kernel("linear"), s=[[0.1]]),
                           ValueError, "s must be a real number or a 1-D array of them, got shape (1, 1)"),
        "effective_dimension t text": (lambda d: effective_dimension(np.array([1.0, 0.5]), t="a"),
                                       TypeError, "t must be a real number or an array of them, got 'a'"),
        "median_gamma max_points 1": (lambda d: median_gamma(X, max_points=1), ValueError,
                                      "max_points must be >= 2"),
        "hs_distance float subset": (lambda d: hs_distance(X, np.array([0.0, 1.0]), gauss),
                                     TypeError, "subset must hold integer row indices, got dtype float64"),
        "spectral_error NaN G": (lambda d: spectral_error(X, np.zeros((10, 3)), gauss, G=np.full((10, 10), np.nan)),
                                 ValueError, "G contains NaN or inf"),
        "from_npy missing": (lambda d: from_npy(d / "none.npy", 5), ValueError, "none.npy': no such file"),
        "from_npy text": (lambda d: from_npy(d / "text.npy", 5), ValueError, "is not an .npy file (no NumPy header"),
        "from_npy truncated": (lambda d: from_npy(d / "trunc.npy", 5), ValueError,
                               "is not a readable .npy array file"),
        "pairwise_sq_distances NaN": (lambda d: pairwise_sq_distances(np.array([[np.nan, 1.0]])),
                                      ValueError, "X contains NaN or inf"),
        "pairwise_sq_distances complex": (lambda d: pairwise_sq_distances(np.array([[1j, 1.0]])),
                                          TypeError, "X must hold real numbers, got dtype complex128"),
        "FixedLandmarks 1.5": (lambda d: FixedLandmarks((0.0, 1.5)).select(np.eye(3), None),
                               ValueError, "indices of FixedLandmarks must be integers"),
    }


CRYPTIC_CASES = ("leverage s 2-D", "effective_dimension t text", "median_gamma max_points 1",
                 "hs_distance float subset", "spectral_error NaN G", "from_npy missing", "from_npy text",
                 "from_npy truncated", "pairwise_sq_distances NaN", "pairwise_sq_distances complex",
                 "FixedLandmarks 1.5")


@pytest.mark.parametrize("case", CRYPTIC_CASES)
def test_formerly_cryptic_inputs_name_the_parameter_and_the_cause(case, tmp_path):
    pytest.importorskip("dask.array")
    call, exc, message = _cryptic_cases()[case]
    with pytest.raises(exc) as e:
        call(_npy_files(tmp_path))
    assert message in str(e.value)


def test_a_complex_data_file_is_refused(tmp_path):
    from kpca_suite.suites.datasets import load_user_data
    np.savez(tmp_path / "c.npz", X=np.ones((5, 2)) * (1 + 1j))
    with pytest.raises(ValueError, match="array 'X' must hold real numbers, got dtype complex128"):
        load_user_data(tmp_path / "c.npz")


def test_a_data_file_too_small_for_sterge20_digits_is_a_usage_error(tmp_path, capsys):
    from kpca_suite.suites import cli
    np.savez(tmp_path / "small.npz", X=np.random.default_rng(0).random((60, 8)))
    code = cli.main(["run", "sterge20.digits", "--profile", "ci", "--data", str(tmp_path / "small.npz"),
                     "--out", str(tmp_path / "r")])
    err = capsys.readouterr().err
    assert code == 2 and "60 rows" in err and "needs at least 100 rows" in err and "Traceback" not in err
    assert not (tmp_path / "r" / "results.sqlite").exists()


def test_the_bad_input_matrix_refuses_every_case_with_a_clear_error():
    from tests.bad_input_matrix import matrix
    rows = matrix()
    bad = [f"{got}: {target} <- {name}: {msg[:120]}" for target, name, got, msg in rows if got != "clear"]
    assert len(rows) > 200 and not bad, "\n".join(bad)
