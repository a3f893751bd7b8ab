"""Bad input that used to pass silently or with a misleading message: rows whose
squared norms overflow, scipy.sparse input, degenerate data for the bandwidth
rules and --data files, invalid arguments of the theory bounds, SubsetPCA on a
rank-0 centred K'_mm, and unreadable data files."""

import re
import warnings

import numpy as np
import pytest
import scipy.sparse as sp

from kpca_suite.kernels import (Kernel, check_array, gram_accumulate, kernel_matmat, mean_distance_gamma,
                                median_gamma)
from kpca_suite.methods import RFERM, ExactKPCA, NystromKPCA, SubsetPCA, WilliamsSeegerKPCA
from kpca_suite.suites.cli import main
from kpca_suite.suites.datasets import load_user_data
from kpca_suite.theory.bounds import ekpca_bound_eq17, nystrom_bound_eq15
from kpca_suite.theory.ghashami16 import (fd_bound, lemma22_bound, lemma24_bound, paper_space, rff_expected_frobenius_sq,
                                          rff_variance, theorem21_bound)
from kpca_suite.theory.hallgren_bounds import hs_distance_sq, kernel_bound, subset_eigenvalues, theorem3_bound

X = np.random.default_rng(0).normal(size=(30, 3))
K = Kernel(gamma=0.5)
HUGE = np.random.default_rng(1).normal(size=(6, 2)) * 1e155
OVERFLOW = r": squared norms overflow float64 \(max \|x\| = [0-9.]+e\+155\); rescale the data$"


# -- 1. rows whose squared norms overflow -----------------------------------------------

@pytest.mark.parametrize("name", ["gaussian", "cauchy", "polynomial", "linear", "laplacian"])
def test_overflowing_rows_are_rejected_by_every_kernel_block(name):
    kern = Kernel(name)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the check itself raises no numpy warning
        with pytest.raises(ValueError, match="^X" + OVERFLOW):
            kern.block(HUGE)
        with pytest.raises(ValueError, match="^Y" + OVERFLOW):
            kern.block(X[:, :2], HUGE)
        with pytest.raises(ValueError, match="^X" + OVERFLOW):
            kern.diag(HUGE)


def test_overflowing_rows_are_rejected_by_blocked_products_and_estimators():
    with pytest.raises(ValueError, match="^X" + OVERFLOW):
        gram_accumulate(HUGE, HUGE[:2], K)
    with pytest.raises(ValueError, match="^landmarks" + OVERFLOW):
        gram_accumulate(X[:, :2], HUGE[:2], K)
    with pytest.raises(ValueError, match="^X" + OVERFLOW):
        kernel_matmat(HUGE, np.ones(6), K)
    with pytest.raises(ValueError, match="^X" + OVERFLOW):
        NystromKPCA(2, K, landmarks=3).fit(HUGE)
    with pytest.raises(ValueError, match="^X" + OVERFLOW):
        ExactKPCA(2, K).fit(HUGE)
    with pytest.raises(ValueError, match="^X" + OVERFLOW):
        NystromKPCA(2, K, landmarks=5, random_state=0).fit(X[:, :2]).transform(HUGE)


def test_rows_just_inside_the_limit_give_the_right_gaussian_and_cauchy_blocks():
    # ||x||^2 = 1e300 <= max / 4 = 4.5e307: the GEMM form is exact here, no NaN
    big = np.array([[1e150, 0.0], [0.0, 1e150], [1e150, 0.0]])
    for name, off in (("gaussian", 0.0), ("cauchy", 1.0 / (1.0 + 2e300))):  # ||x - y||^2 = 2e300 off the diagonal
        Kb = Kernel(name, gamma=1.0).block(big)
        np.testing.assert_allclose(Kb, [[1.0, off, 1.0], [off, 1.0, off], [1.0, off, 1.0]], rtol=1e-15, atol=0)


def test_the_limit_is_a_quarter_of_the_float_max_of_the_squared_norm():
    edge = np.sqrt(np.finfo(np.float64).max / 4)
    check_array([[edge * (1 - 1e-15)]])
    with pytest.raises(ValueError, match=r"^X: squared norms overflow float64 \(max \|x\| = 6\.7e\+153\)"):
        check_array([[edge * (1 + 1e-15)]])


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_nonfinite_rows_still_say_nan_or_inf(bad):
    Xb = X.copy()
    Xb[3, 1] = bad
    with pytest.raises(ValueError, match="^X contains NaN or inf$"):
        check_array(Xb)


# -- 2. degenerate data for the bandwidth rules and --data files --------------------------

@pytest.mark.parametrize("rows", [1, 4])
def test_bandwidth_rules_reject_data_without_two_distinct_rows(rows):
    Xs = np.tile([[0.5, -2.0, 3.0]], (rows, 1))
    with pytest.raises(ValueError, match="^X has no two distinct rows: no bandwidth can be set from its distances$"):
        mean_distance_gamma(Xs)
    msg = ("^X needs at least 2 rows for a median distance, got 1$" if rows == 1 else
           "^X has no two distinct rows: no bandwidth can be set from its distances$")
    with pytest.raises(ValueError, match=msg):
        median_gamma(Xs)


def _identical_rows_file(path):
    np.savez(path, X=np.tile([[1.0, 2.0, 3.0]], (50, 1)), y=np.arange(50) % 3)
    return path


def test_a_data_file_without_two_distinct_rows_is_rejected(tmp_path):
    path = _identical_rows_file(tmp_path / "same.npz")
    with pytest.raises(ValueError, match=re.escape(
            f"data file {str(path)!r} has fewer than 2 distinct rows; kernel PCA and the median-heuristic "
            "bandwidth are undefined")):
        load_user_data(path)
    with pytest.raises(ValueError, match="has fewer than 2 distinct rows with label digit = 1;"):
        load_user_data(path, digit=1)
    (tmp_path / "one.csv").write_text("label,a,b\n3,1.0,2.0\n")
    with pytest.raises(ValueError, match="has fewer than 2 distinct rows;"):
        load_user_data(tmp_path / "one.csv")


def test_cli_rejects_such_a_data_file_before_any_cell_runs(tmp_path, capsys):
    path = _identical_rows_file(tmp_path / "same.npz")
    out = tmp_path / "res"
    code = main(["run", "sterge20.digits", "--profile", "ci", "--jobs", "1", "--no-progress",
                 "--data", str(path), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2
    assert "has fewer than 2 distinct rows; kernel PCA and the median-heuristic bandwidth are undefined" in err
    assert not (out / "results.sqlite").exists()


# -- 3. fd_bound and the other bounds of Ghashami et al. 2016 -------------------------------

def test_fd_bound_rejects_nonfinite_and_negative_values_and_clips_round_off():
    with pytest.raises(ValueError, match="^sq_singular_values contains NaN or inf$"):
        fd_bound([4.0, np.nan, 1.0], 2, 0)
    with pytest.raises(ValueError, match="^sq_singular_values contains NaN or inf$"):
        fd_bound([4.0, np.inf], 2, 0)
    with pytest.raises(ValueError, match=r"^sq_singular_values must be >= 0 \(squared singular values\), "
                                         r"got a minimum of -0\.5 beyond round-off"):
        fd_bound([4.0, 1.0, -0.5], 2, 1)
    with pytest.raises(ValueError, match="sq_singular_values must be >= 0"):
        fd_bound([-1.0, -2.0], 2, 0)
    assert fd_bound([4.0, 1.0, -1e-13], 2, 1) == 1.0  # the round-off is clipped, not subtracted
    assert fd_bound([1.0, 4.0, 0.0], 3, 0) == 5.0 / 3.0


@pytest.mark.parametrize("j,k,exc,match", [
    (2, 2, ValueError, r"^need 0 <= k < j, got k = 2, j = 2$"),
    (2, -1, ValueError, "^k must be >= 0"),
    (0, 0, ValueError, "^j must be > 0"),
    (2.0, 0, TypeError, "^j must be an integer"),
])
def test_fd_bound_indices(j, k, exc, match):
    with pytest.raises(exc, match=match):
        fd_bound([1.0, 1.0], j, k)


@pytest.mark.parametrize("call,match", [
    (lambda: lemma22_bound(-1.0, 2), "^z_frobenius_sq must be >= 0"),
    (lambda: lemma22_bound(np.nan, 2), "^z_frobenius_sq must be >= 0"),
    (lambda: lemma22_bound(1.0, 0), "^j must be > 0"),
    (lambda: theorem21_bound(100, 0, 5), "^m must be > 0"),
    (lambda: theorem21_bound(100, 10, 5, delta=0.0), "^delta must be > 0"),
    (lambda: theorem21_bound(10, 10, 5, delta=20.0), r"^delta = 20\.0 must be smaller than n = 10"),
    (lambda: theorem21_bound(100, 10, 5, C=-1.0), "^C must be > 0"),
    (lambda: lemma24_bound(1.0, 0, 0.5), "^k must be > 0"),
    (lambda: lemma24_bound(-1.0, 2, 0.5), "^tail_frobenius must be >= 0"),
    (lambda: lemma24_bound(1.0, 2, np.inf), "^spectral must be >= 0"),
    (lambda: rff_variance(1.5, 0.5, 10), r"^k_delta must be a kernel value in \[-1, 1\], got 1\.5$"),
    (lambda: rff_variance(0.5, np.nan, 10), r"^k_2delta must be a kernel value in \[-1, 1\]"),
    (lambda: rff_variance(0.5, 0.2, 0), "^m must be > 0"),
    (lambda: rff_expected_frobenius_sq(np.eye(3), np.eye(2), 4), "^G and G_2delta must be one square shape"),
    (lambda: rff_expected_frobenius_sq(np.ones((2, 3)), np.ones((2, 3)), 4), "^G and G_2delta must be one square"),
    (lambda: rff_expected_frobenius_sq(2 * np.eye(2), np.eye(2), 4), r"^G must hold kernel values in \[-1, 1\]"),
    (lambda: rff_expected_frobenius_sq(np.eye(2), np.eye(2), 0), "^m must be > 0"),
    (lambda: paper_space("fd", 4, 2, 2), r"^method must be one of \('skpca', 'rnca', 'nystrom'\)"),
    (lambda: paper_space("skpca", 4, 2), "^ell must be > 0"),
    (lambda: paper_space("rnca", 0, 2), "^m must be > 0"),
    (lambda: rff_expected_frobenius_sq(np.full((2, 2), np.nan), np.eye(2), 4), "^G contains NaN"),
])
def test_ghashami_bounds_validate_their_arguments(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_ghashami_bounds_keep_their_values():
    assert lemma22_bound(10.0, 4) == 2.5
    assert theorem21_bound(100, 25, 8, delta=1.0) == pytest.approx(np.sqrt(np.log(100) / 25) + 0.5, rel=1e-15)
    assert lemma24_bound(3.0, 4, 0.5) == 4.0
    assert rff_variance(0.5, 0.2, 10) == pytest.approx((1 + 0.1 - 0.25) / 10, rel=1e-15)
    # on the diagonal (K = K(2 Delta) = 1) each entry's variance is 1/2m: n / 2m for the identity Gram
    assert (paper_space("skpca", 8, 3, 4), paper_space("rnca", 8, 3), paper_space("nystrom", 8, 3)) == (64, 96, 88)
    assert rff_expected_frobenius_sq(np.eye(3), np.eye(3), 5) == pytest.approx(3 * 0.5 / 5 + 6 * 1.0 / 5, rel=1e-15)


# -- 4. Hallgren's Theorem 3 and the bounds of Sterge et al. ---------------------------------

def _kmm(m=8):
    return Kernel(gamma=0.5).block(np.random.default_rng(2).normal(size=(m, 2)))


def test_theorem3_bound_rejects_a_nonsymmetric_or_nonfinite_Kmm():
    Kmm = _kmm()
    bad = Kmm.copy()
    bad[0, 1] += 1e-3
    with pytest.raises(ValueError, match=r"^Kmm must be a symmetric kernel matrix: max \|Kmm - Kmm\^T\| = 0\.001 "
                                         r"exceeds 1e-10 \* max \|Kmm\|$"):
        theorem3_bound(bad, 100, 3)
    with pytest.raises(ValueError, match="^Kmm must be a symmetric"):
        subset_eigenvalues(bad)
    bad[0, 1] = np.nan
    with pytest.raises(ValueError, match="^Kmm contains NaN or inf$"):
        theorem3_bound(bad, 100, 3)
    with pytest.raises(ValueError, match=r"^Kmm must be square, got shape \(8, 7\)$"):
        theorem3_bound(Kmm[:, :7], 100, 3)


def test_theorem3_bound_accepts_round_off_asymmetry():
    Kmm = _kmm()
    noisy = Kmm.copy()
    noisy[0, 1] += 1e-14
    np.testing.assert_allclose(theorem3_bound(noisy, 100, 3), theorem3_bound(Kmm, 100, 3), rtol=1e-10)


def test_kernel_bound_needs_a_Kernel():
    with pytest.raises(TypeError, match="^kernel must be a kernels.Kernel, got str$"):
        kernel_bound("gaussian")


@pytest.mark.parametrize("args,exc,match", [
    ((-1.0, 1.0, 1.0, 10, 5), ValueError, "^sum_K2 must be >= 0"),
    ((1.0, np.nan, 1.0, 10, 5), ValueError, "^sum_Knm2 must be >= 0"),
    ((1.0, 1.0, np.inf, 10, 5), ValueError, "^sum_Kmm2 must be >= 0"),
    ((1.0, 1.0, 1.0, 0, 5), ValueError, "^n must be > 0"),
    ((1.0, 1.0, 1.0, 10, 2.5), TypeError, "^m must be an integer"),
])
def test_hs_distance_sq_validates_its_arguments(args, exc, match):
    with pytest.raises(exc, match=match):
        hs_distance_sq(*args)


@pytest.mark.parametrize("bound", [nystrom_bound_eq15, ekpca_bound_eq17])
def test_sterge_bounds_validate_n_c(bound):
    t = np.array([0.01, 0.1])
    with pytest.raises(ValueError, match="^n_c contains NaN or inf$"):
        bound(np.array([1.0, np.nan]), 0.5, t)
    with pytest.raises(ValueError, match=r"^n_c must be >= 0, got a minimum of -1\.0$"):
        bound(np.array([1.0, -1.0]), 0.5, t)
    with pytest.raises(ValueError, match=r"^n_c must have the shape of t \(one N_C\(t\) per level\), "
                                         r"got \(3,\) and \(2,\)$"):
        bound(np.ones(3), 0.5, t)
    with pytest.raises(ValueError, match="^lambda_ell must be >= 0"):
        bound(np.ones(2), -0.5, t)


# -- 5. scipy.sparse input ------------------------------------------------------------------

SPARSE_MSG = r"^X is a scipy\.sparse matrix; kpca-suite estimators need a dense array: pass X\.toarray\(\)$"


@pytest.mark.parametrize("make", [sp.csr_matrix, sp.csc_matrix, sp.csr_array], ids=["csr", "csc", "csr_array"])
def test_sparse_input_is_a_clear_type_error(make):
    S = make(X)
    with pytest.raises(TypeError, match=SPARSE_MSG):
        NystromKPCA(2, K, landmarks=5).fit(S)
    with pytest.raises(TypeError, match=SPARSE_MSG):
        ExactKPCA(2, K).fit(S)
    with pytest.raises(TypeError, match=SPARSE_MSG):
        RFERM(2, 8).fit(S)
    with pytest.raises(TypeError, match=SPARSE_MSG):
        K.block(S)
    with pytest.raises(TypeError, match=SPARSE_MSG.replace("X", "Y")):
        K.block(X, S)
    with pytest.raises(TypeError, match=SPARSE_MSG.replace("X", "landmarks")):
        gram_accumulate(X, S, K)
    with pytest.raises(TypeError, match=SPARSE_MSG):
        NystromKPCA(2, K, landmarks=5, random_state=0).fit(X).transform(S)
    # the dense copy the message asks for is accepted
    np.testing.assert_array_equal(K.block(S.toarray()), K.block(X))


# -- 6. SubsetPCA on a rank-0 centred K'_mm ---------------------------------------------------

@pytest.mark.parametrize("cls", [SubsetPCA, WilliamsSeegerKPCA])
def test_subset_pca_on_identical_rows_is_a_rank_error(cls):
    Xs = np.tile([1.0, 2.0, 3.0], (20, 1))
    # K'_mm = 0 in exact arithmetic; before, round-off of 1e-32 was kept as rank 1
    # (coefficients of order 1e15, eigenvalue 0)
    with pytest.raises(ValueError, match=re.escape(
            "n_components = 1 exceeds the effective rank 0 of K'_mm (m = 8, rcond = 1e-08); "
            "use fewer components or more landmarks")):
        cls(1, Kernel(gamma=0.3), landmarks=8, random_state=0).fit(Xs)
    # zero mean (center=False): K'_mm = K_mm, rank 1, the same wording as Nyström
    cls(1, Kernel(gamma=0.3), landmarks=8, center=False, random_state=0).fit(Xs)
    with pytest.raises(ValueError, match=re.escape(
            "n_components = 2 exceeds the effective rank 1 of K'_mm (m = 8, rcond = 1e-08); "
            "use fewer components or more landmarks")):
        cls(2, Kernel(gamma=0.3), landmarks=8, center=False, random_state=0).fit(Xs)
    with pytest.raises(ValueError, match=re.escape(
            "n_components = 2 exceeds the effective rank 1 of K_mm (m = 8, rcond = 1e-08); "
            "use fewer components or more landmarks")):
        NystromKPCA(2, Kernel(gamma=0.3), landmarks=8, random_state=0).fit(Xs)


def test_subset_pca_keeps_full_rank_on_ordinary_data():
    sub = SubsetPCA(5, Kernel(gamma=0.3), landmarks=20, random_state=0).fit(X)
    assert len(sub.subset_eigenvalues_) == 20
    A, L = sub.coefficients_, sub.basis_points_
    np.testing.assert_allclose(A.T @ Kernel(gamma=0.3).block(L) @ A, np.eye(5), atol=1e-8)


# -- 7. unreadable --data files ---------------------------------------------------------------

def _npy_renamed(path):
    np.save(path.with_suffix(".npy"), np.ones((3, 2)))
    path.with_suffix(".npy").rename(path)


def _object_array(path):
    np.savez(path, X=np.array([[1, "a"]], dtype=object))


@pytest.mark.parametrize("name,write,match", [
    ("bad.npz", lambda p: p.write_bytes(b"not a zip file"),
     "could not be read: not a valid .npz archive (no zip signature; np.savez writes a zip of .npy arrays)"),
    ("arr.npz", _npy_renamed,
     "could not be read: not a valid .npz archive (no zip signature; np.savez writes a zip of .npy arrays)"),
    ("obj.npz", _object_array,
     "could not be read: not a valid .npz archive (Object arrays cannot be loaded when allow_pickle=False)"),
    ("empty.npz", lambda p: p.write_bytes(b""), "is empty"),
    ("empty.csv", lambda p: p.write_text(""), "is empty"),
    ("header.csv", lambda p: p.write_text("label,a,b\n"), "has no data rows"),
    ("text.csv", lambda p: p.write_text("label,a,b\n1,x,2\n"),
     "could not be read: not a numeric csv (could not convert string 'x' to float64 at row 0, column 2.)"),
    ("huge.npz", lambda p: np.savez(p, X=HUGE), ": squared norms overflow float64 (max |x| = "),
])
def test_unreadable_data_files_are_clear_value_errors(tmp_path, name, write, match):
    path = tmp_path / name
    write(path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no loadtxt "input contained no data" warning
        with pytest.raises(ValueError, match="^" + re.escape(f"data file {str(path)!r}") + ".*" + re.escape(match)):
            load_user_data(path)
