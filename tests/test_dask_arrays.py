"""Dask arrays (kernels/dask_arrays.py): each estimator's chunked path against its
in-memory path on the same rows (sums to 1e-10 relative; the tree-merged FD sketch
within the FD bound, and two planted wrong merges outside it), a .npy memmap and a
local distributed cluster as sources, bad input naming X (A for FrequentDirections),
and the perf.dask claim at the ci profile."""

import functools
import pickle
import subprocess
import sys
import warnings

import numpy as np
import pytest

da = pytest.importorskip("dask.array")

from kpca_suite.kernels import FrequentDirections, Kernel, draw_rff, gram_accumulate  # noqa: E402
from kpca_suite.kernels.frequent_directions import FITTED, sketch_rows  # noqa: E402
from kpca_suite.methods import (RFERM, SKPCA, CenteredNystromKPCA, FixedLandmarks,  # noqa: E402
                                LeverageScoreLandmarks, NystromKPCA)
from kpca_suite.kernels.dask_arrays import (NpyRows, add_terms, check_dask_array, from_npy,  # noqa: E402
                                            is_dask_array, tree_reduce)
from kpca_suite.methods.nystrom import gram_terms  # noqa: E402
from kpca_suite.methods.skpca import sketch_features  # noqa: E402
from kpca_suite.theory.ghashami16 import fd_bound  # noqa: E402

#: Sums in another order: the same numbers to this relative error (observed <= 1e-14).
REL = 1e-10
#: The FD inequalities hold up to round-off relative to ||A||_F^2 (as tests/test_frequent_directions.py).
TOL = 1e-9
#: Uneven row chunks, an empty one among them, and two column chunks (joined by the chunked path).
CHUNKS = ((700, 1100, 0, 13, 900, 287), (2, 3))
KERN = Kernel("gaussian", gamma=0.2)


def _data(n=3000, d=5, seed=0):
    return np.random.default_rng(seed).standard_normal((n, d)) * np.geomspace(1.0, 0.2, d)


def _decaying(n=3000, d=30, seed=2):
    """Rows with a decaying spectrum (as tests/test_frequent_directions.py's), where FD's bound is tight."""
    return np.random.default_rng(seed).standard_normal((n, d)) * np.geomspace(1.0, 0.01, d)


def _rel(a, b):
    """||a - b|| / ||a|| (Frobenius)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return float(np.linalg.norm(a - b) / np.linalg.norm(a))


def _aligned(A, B):
    """B with each column's sign flipped to agree with A's (eigenvectors are signed freely)."""
    s = np.sign(np.sum(A * B, axis=0))
    s[s == 0] = 1
    return B * s


def _fd_violations(A, fd):
    """The FD guarantees for the rows A and the sketch fd that fail (empty: all hold):
    0 <= A^T A - B^T B, ||A^T A - B^T B||_2 <= Delta, Delta <= ||A - A_k||_F^2 / (j - k)."""
    fro = np.sum(A**2)
    ev = np.linalg.eigvalsh(A.T @ A - fd.covariance())
    s2 = np.linalg.svd(A, compute_uv=False) ** 2
    j = fd.shrink_index
    out = []
    if ev.min() < -TOL * fro:
        out.append(f"A^T A - B^T B has eigenvalue {ev.min():.3g} < 0")
    if ev.max() > fd.delta_ + TOL * fro:
        out.append(f"||A^T A - B^T B||_2 = {ev.max():.4g} > Delta = {fd.delta_:.4g}")
    bound = min(fd_bound(s2, j, k) for k in range(j))
    if fd.delta_ > bound + TOL * fro:
        out.append(f"Delta = {fd.delta_:.4g} > min_k ||A - A_k||_F^2 / (j - k) = {bound:.4g}")
    if fd.n_rows_seen_ != len(A):
        out.append(f"{fd.n_rows_seen_} rows seen, not {len(A)}")
    return out


# -- detection and the tree ------------------------------------------------------------------

def test_numpy_input_never_imports_dask():
    code = ("import sys, numpy as np; from kpca_suite.kernels import Kernel, FrequentDirections; "
            "from kpca_suite.methods import RFERM, SKPCA, NystromKPCA; "
            "X = np.random.default_rng(0).normal(size=(50, 3)); "
            "RFERM(2, 8, Kernel(gamma=0.5), random_state=0).fit(X); SKPCA(sketch_size=2, n_features=8).fit(X); "
            "NystromKPCA(2, landmarks=5, random_state=0).fit(X); FrequentDirections(2).fit(X); "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_is_dask_array():
    X = _data(20)
    assert is_dask_array(da.from_array(X)) and not is_dask_array(X) and not is_dask_array(X.tolist())


@pytest.mark.parametrize("split_every", [2, 3, 8])
def test_tree_of_sums_equals_the_one_pass_sum(split_every):
    X = _data()
    Xd = check_dask_array(da.from_array(X, chunks=CHUNKS))
    assert Xd.chunks[1] == (5,)
    total, rows = tree_reduce(Xd, lambda A: (A.T @ A, len(A)), add_terms, split_every=split_every)
    assert rows == len(X) and _rel(X.T @ X, total) <= REL


def test_tree_keeps_the_row_order_of_the_chunks():
    X = np.arange(30.0).reshape(15, 2)
    Xd = check_dask_array(da.from_array(X, chunks=((4, 0, 6, 5), 2)))
    for split_every in (2, 3):
        out = tree_reduce(Xd, lambda A: A, lambda a, b: np.vstack([a, b]), split_every=split_every)
        np.testing.assert_array_equal(out, X)


@pytest.mark.parametrize("split_every", [1, 9, 2.5])
def test_split_every_out_of_range(split_every):
    Xd = check_dask_array(da.from_array(_data(20)))
    with pytest.raises((ValueError, TypeError), match="split_every"):
        tree_reduce(Xd, len, add_terms, split_every=split_every)


# -- RF-ERM: Z^T Z summed per chunk ----------------------------------------------------------

@pytest.mark.parametrize("variant", ["cos", "paired"])
def test_rferm_covariance_sum_equals_in_memory(variant):
    X = _data()
    ref = RFERM(5, 64, KERN, variant=variant, block_size=500, random_state=0).fit(X)
    est = RFERM(5, 64, KERN, variant=variant, block_size=500, random_state=0).fit(da.from_array(X, chunks=CHUNKS))
    np.testing.assert_array_equal(est.feature_map_.omega, ref.feature_map_.omega)
    assert est.n_samples_seen_ == ref.n_samples_seen_ == len(X)
    assert _rel(ref.covariance_sum_, est.covariance_sum_) <= REL
    assert _rel(ref.all_eigenvalues_, est.all_eigenvalues_) <= REL
    assert _rel(ref.transform(X), _aligned(ref.transform(X), est.transform(X))) <= 1e-8  # eigengap-limited


def test_rferm_partial_fit_mixes_numpy_and_dask_chunks():
    X = _data()
    ref = RFERM(5, 64, KERN, random_state=0).fit(X)
    est = RFERM(5, 64, KERN, random_state=0).partial_fit(X[:1000])
    est.partial_fit(da.from_array(X[1000:], chunks=(600, 5)))
    assert est.n_samples_seen_ == len(X) and _rel(ref.covariance_sum_, est.covariance_sum_) <= REL


# -- Nyström: K_mn K_nm, K_mn 1 and tr K summed per chunk ------------------------------------

@pytest.mark.parametrize("kernel", [KERN, Kernel("linear")], ids=["gaussian", "linear"])
def test_nystrom_gram_terms_equal_the_blocked_pass(kernel):
    X = _data()
    L = X[np.random.default_rng(1).choice(len(X), 40, replace=False)]
    G, colsum = gram_accumulate(X, L, kernel, block_size=256)
    Xd = check_dask_array(da.from_array(X, chunks=CHUNKS))
    Gd, colsum_d, diag_d = tree_reduce(Xd, functools.partial(gram_terms, L, kernel, 256), add_terms)
    assert _rel(G, Gd) <= REL and _rel(colsum, colsum_d) <= REL
    assert _rel(kernel.diag(X).sum(), diag_d) <= REL


# m = 60 landmarks (cond K_mm = 1.4e6 here): the whole spectrum moves with the round-off of the
# sum times the conditioning, so at m = 120 (cond 6e7) a change of block_size alone, in memory,
# moves all_eigenvalues_ by 2.5e-10 (the top k by 2e-14).
@pytest.mark.parametrize("landmarks", [60, FixedLandmarks(tuple(range(0, 3000, 50)))], ids=["int", "fixed"])
@pytest.mark.parametrize("whitening", ["eigh", "cholesky", "generalized"])
def test_nystrom_fit_equals_in_memory(landmarks, whitening):
    X, Z = _data(), _data(200, seed=5)
    ref = NystromKPCA(6, KERN, landmarks=landmarks, whitening=whitening, random_state=3).fit(X)
    est = NystromKPCA(6, KERN, landmarks=landmarks, whitening=whitening, random_state=3).fit(
        da.from_array(X, chunks=CHUNKS))
    np.testing.assert_array_equal(est.landmark_indices_, ref.landmark_indices_)
    np.testing.assert_array_equal(est.basis_points_, ref.basis_points_)
    assert (est.n_samples_, est.effective_rank_) == (ref.n_samples_, ref.effective_rank_)
    assert _rel(ref.eigenvalues_, est.eigenvalues_) <= REL
    assert _rel(ref.all_eigenvalues_, est.all_eigenvalues_) <= REL
    assert _rel(ref.trace_, est.trace_) <= REL
    for data in (X, Z):
        assert _rel(ref.transform(data), _aligned(ref.transform(data), est.transform(data))) <= REL
    assert est.insample_error(6) == pytest.approx(ref.insample_error(6), rel=REL)


# -- Frequent Directions and SKPCA: sketches merged in a tree --------------------------------

@pytest.mark.parametrize("shrink", ["standard", "halving"])
def test_fd_tree_of_merges_keeps_the_bound(shrink):
    A = _decaying()
    fd = FrequentDirections(8, shrink).fit(da.from_array(A, chunks=((700, 1100, 0, 13, 900, 287), 30)))
    assert _fd_violations(A, fd) == []
    seq = FrequentDirections(8, shrink).fit(A[:500])
    seq.partial_fit(da.from_array(A[500:], chunks=(600, 30)))  # a sketch so far, then the chunks merged into it
    assert _fd_violations(A, seq) == []


@pytest.mark.parametrize("shrink", ["standard", "halving"])
def test_skpca_tree_of_merges_keeps_the_bound(shrink):
    X = _data()
    ref = SKPCA(sketch_size=10, n_features=64, kernel=KERN, shrink=shrink, random_state=4).fit(X)
    est = SKPCA(sketch_size=10, n_features=64, kernel=KERN, shrink=shrink, random_state=4).fit(
        da.from_array(X, chunks=CHUNKS))
    np.testing.assert_array_equal(est.feature_map_.omega, ref.feature_map_.omega)
    np.testing.assert_array_equal(est.feature_map_.phase, ref.feature_map_.phase)
    assert est.n_samples_seen_ == len(X)
    Z = ref.features(X)
    assert _fd_violations(Z, est.sketch_) == []
    W = est.components_
    np.testing.assert_allclose(W.T @ W, np.eye(W.shape[1]), atol=1e-12)
    # Lemma 2.2's first link: ||Z (I - W W^T)||_2^2 <= ||Z^T Z - B^T B||_2
    gap = np.linalg.norm(Z @ (np.eye(64) - W @ W.T), 2) ** 2
    assert gap <= np.abs(np.linalg.eigvalsh(Z.T @ Z - est.sketch_.covariance())).max() * (1 + 1e-9)


def _truncating_merge(a, b):
    """A wrong merge: the filled rows of both sketches stacked and cut to ell rows, no shrink."""
    out = FrequentDirections(a.sketch_size, a.shrink)
    rows = np.vstack([a.sketch_[:a.n_filled_], b.sketch_[:b.n_filled_]])[:a.sketch_size]
    out.sketch_ = np.zeros_like(a.sketch_)
    out.sketch_[:len(rows)] = rows
    out.n_filled_, out.delta_, out.n_shrinks_ = len(rows), a.delta_ + b.delta_, a.n_shrinks_ + b.n_shrinks_
    out.n_rows_seen_ = a.n_rows_seen_ + b.n_rows_seen_
    return out


def _dropping_merge(a, b):
    """A wrong merge: ``b``'s sketch is lost (its rows still counted as seen)."""
    out = FrequentDirections(a.sketch_size, a.shrink)
    for name in FITTED:
        setattr(out, name, np.copy(getattr(a, name)))
    out.n_rows_seen_ = a.n_rows_seen_ + b.n_rows_seen_
    return out


@pytest.mark.parametrize("wrong", [_truncating_merge, _dropping_merge], ids=["truncate", "drop"])
@pytest.mark.parametrize("shrink", ["standard", "halving"])
def test_planted_wrong_merges_break_the_bound(wrong, shrink):
    """The control of the two tests above: the same check rejects a tree whose merge
    cuts rows without shrinking, or loses a chunk's sketch."""
    X = _data()
    fmap = draw_rff(5, 64, "gaussian", KERN.gamma, "cos", 4)
    Xd = check_dask_array(da.from_array(X, chunks=CHUNKS))
    chunk = functools.partial(sketch_features, fmap, 10, shrink, 4096)
    assert _fd_violations(fmap.transform(X), tree_reduce(Xd, chunk, FrequentDirections.merge)) == []
    assert _fd_violations(fmap.transform(X), tree_reduce(Xd, chunk, wrong)) != []
    A = _decaying()
    Ad = check_dask_array(da.from_array(A, chunks=(700, 30)), "A")
    assert _fd_violations(A, tree_reduce(Ad, functools.partial(sketch_rows, 8, shrink), wrong, "A")) != []


# -- sources: a .npy memmap, a .npy read per chunk, a local distributed cluster ---------------

def test_npy_memmap_source(tmp_path):
    X = _data()
    path = tmp_path / "X.npy"
    np.save(path, X)
    Xd = da.from_array(np.load(path, mmap_mode="r"), chunks=(700, 5))
    ref = RFERM(5, 64, KERN, random_state=0).fit(X)
    assert _rel(ref.covariance_sum_, RFERM(5, 64, KERN, random_state=0).fit(Xd).covariance_sum_) <= REL
    ref = NystromKPCA(6, KERN, landmarks=60, random_state=3).fit(X)
    assert _rel(ref.eigenvalues_, NystromKPCA(6, KERN, landmarks=60, random_state=3).fit(Xd).eigenvalues_) <= REL
    est = SKPCA(sketch_size=10, n_features=64, kernel=KERN, random_state=4).fit(Xd)
    assert _fd_violations(est.features(X), est.sketch_) == []


def test_from_npy_reads_rows_by_path(tmp_path):
    X = _data().astype(np.float32)
    path = tmp_path / "X.npy"
    np.save(path, X)
    Xd = from_npy(path, 700)
    assert Xd.chunks == ((700,) * 4 + (200,), (5,)) and Xd.dtype == np.float32
    np.testing.assert_array_equal(Xd.compute(), X)
    assert len(pickle.dumps(NpyRows(path))) < 1000 < X.nbytes  # the path travels, not the rows
    ref = RFERM(5, 64, KERN, random_state=0).fit(X.astype(np.float64))  # chunks are fitted in float64
    assert _rel(ref.covariance_sum_, RFERM(5, 64, KERN, random_state=0).fit(Xd).covariance_sum_) <= REL
    np.save(tmp_path / "v.npy", X[:, 0])
    with pytest.raises(ValueError, match="path must hold a 2-D array"):
        from_npy(tmp_path / "v.npy", 10)


def test_local_distributed_cluster(tmp_path):
    distributed = pytest.importorskip("distributed")
    X = _data()
    path = tmp_path / "X.npy"
    np.save(path, X)
    bad = X.copy()
    bad[1900, 1] = np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # e.g. a large graph sent to the scheduler
        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                      dashboard_address=":0") as cluster, distributed.Client(cluster):
            Xd = from_npy(path, 700)
            rf = RFERM(5, 64, KERN, random_state=0).fit(Xd)
            ny = NystromKPCA(6, KERN, landmarks=60, random_state=3).fit(Xd)
            sk = SKPCA(sketch_size=10, n_features=64, kernel=KERN, random_state=4).fit(Xd)
            with pytest.raises(ValueError, match=r"^X contains NaN or inf, in rows 1400\.\.2099 "):
                RFERM(5, 64, KERN, random_state=0).fit(da.from_array(bad, chunks=(700, 5)))
    assert _rel(RFERM(5, 64, KERN, random_state=0).fit(X).covariance_sum_, rf.covariance_sum_) <= REL
    assert _rel(NystromKPCA(6, KERN, landmarks=60, random_state=3).fit(X).eigenvalues_, ny.eigenvalues_) <= REL
    assert _fd_violations(sk.features(X), sk.sketch_) == []


# -- bad input -----------------------------------------------------------------------------------

def _estimators():
    return {"RFERM": RFERM(2, 16, KERN, random_state=0), "SKPCA": SKPCA(sketch_size=4, n_features=16),
            "NystromKPCA": NystromKPCA(2, KERN, landmarks=10, random_state=0),
            "FrequentDirections": FrequentDirections(2)}


def _name(which):
    return "A" if which == "FrequentDirections" else "X"


@pytest.mark.parametrize("which", list(_estimators()))
@pytest.mark.parametrize("shape", [(40,), (40, 3, 2)], ids=["1-D", "3-D"])
def test_wrong_dimensions_name_x(which, shape):
    Xd = da.from_array(np.ones(shape), chunks=10)
    with pytest.raises(ValueError, match=rf"^{_name(which)} must be 2-D, got a dask array of shape"):
        _estimators()[which].fit(Xd)


@pytest.mark.parametrize("which", list(_estimators()))
def test_unknown_chunk_sizes_name_x(which):
    x = da.from_array(_data(200), chunks=(50, 5))
    with pytest.raises(ValueError, match=rf"^{_name(which)} is a dask array with unknown chunk sizes "
                                         r"\(shape \(nan, 5\).*compute_chunk_sizes"):
        _estimators()[which].fit(x[x[:, 0] > 0])


@pytest.mark.parametrize("which", list(_estimators()))
@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_nonfinite_chunk_names_x_and_its_rows(which, bad):
    X = _data(200)
    X[120, 2] = bad
    Xd = da.from_array(X, chunks=(50, 5))
    name = _name(which)
    with pytest.raises(ValueError, match=rf"^{name} contains NaN or inf, in rows 100\.\.149 \(one chunk of the "
                                         rf"dask array {name}\)$"):
        _estimators()[which].fit(Xd)


@pytest.mark.parametrize("which", ["RFERM", "SKPCA", "FrequentDirections"])
def test_rejected_dask_chunk_leaves_the_model_unchanged(which):
    X = _data(200)
    est = _estimators()[which].fit(X[:100])
    before = pickle.dumps(vars(est))
    bad = X[100:].copy()
    bad[30, 0] = np.nan
    with pytest.raises(ValueError, match="NaN or inf"):
        est.partial_fit(da.from_array(bad, chunks=(25, 5)))
    assert pickle.dumps(vars(est)) == before


def test_complex_dtype_names_x():
    with pytest.raises(TypeError, match="^X must hold real numbers"):
        RFERM(2, 16, KERN).fit(da.from_array(np.ones((20, 3), dtype=complex)))


def test_integer_dask_array_fits_like_its_float64_rows():
    X = np.random.default_rng(0).integers(-3, 4, size=(300, 4))
    ref = RFERM(3, 16, KERN, random_state=0).fit(X.astype(float))
    est = RFERM(3, 16, KERN, random_state=0).fit(da.from_array(X, chunks=(70, 4)))
    assert _rel(ref.covariance_sum_, est.covariance_sum_) <= REL


def test_nan_in_a_landmark_row_names_x_and_the_row():
    X = _data(200)
    idx = NystromKPCA(2, KERN, landmarks=10, random_state=0).fit(X).landmark_indices_
    X[idx[3], 0] = np.nan
    with pytest.raises(ValueError, match=rf"^X contains NaN or inf, in row\(s\) {idx[3]} \(gathered"):
        NystromKPCA(2, KERN, landmarks=10, random_state=0).fit(da.from_array(X, chunks=(50, 5)))


def test_nystrom_strategies_that_read_x_and_centring_are_refused():
    Xd = da.from_array(_data(200), chunks=(50, 5))
    with pytest.raises(ValueError, match="^landmarks: LeverageScoreLandmarks reads the rows of X"):
        NystromKPCA(2, KERN, landmarks=LeverageScoreLandmarks(10, 1e-3), random_state=0).fit(Xd)
    with pytest.raises(ValueError, match=r"^center=True: NystromKPCA's centred trace_ needs 1\^T K 1"):
        NystromKPCA(2, KERN, landmarks=10, center=True, random_state=0).fit(Xd)
    with pytest.raises(ValueError, match=r"^center=True: CenteredNystromKPCA's"):
        CenteredNystromKPCA(2, KERN, landmarks=10, random_state=0).fit(Xd)


# -- the benchmark claim at the ci profile --------------------------------------------------------

def test_perf_dask_claim_runs_at_the_ci_profile():
    from kpca_suite.suites import perf
    claim = perf.BY_ID["perf.dask"]
    records = perf.measure(claim, "ci", repeats=1, memory=False)
    times = [r for r in records if r.measure == "time"]
    assert {r.params["method"] for r in times} == {"skpca", "nystrom"}
    for r in times:
        assert not r.note.startswith("error"), r
    timed = [r for r in times if r.seconds is not None]
    assert {r.contender for r in timed} == {"in-memory", "dask array from disk"}
    rates = [r for r in records if r.measure == "rows/s"]
    assert len(rates) == len(timed)
    for t, r in zip(timed, rates):
        assert (r.case, r.contender) == (t.case, t.contender)
        assert r.ratio == pytest.approx(t.params["n"] / t.seconds)


def _lying(declared_rows, real_rows, declared_width=5, real_width=5):
    """A dask array whose second chunk holds another shape than it declares (a
    ``from_delayed`` with the wrong shape, as a careless integrator writes one)."""
    import dask
    rng = np.random.default_rng(7)
    block = da.from_delayed(dask.delayed(rng.standard_normal)((real_rows, real_width)),
                            shape=(declared_rows, declared_width), dtype=float)
    return da.concatenate([da.from_array(rng.standard_normal((60, declared_width)), chunks=(30, declared_width)),
                           block])


FITS = {
    "RFERM": lambda X: RFERM(2, n_features=20, kernel=Kernel("gaussian", gamma=0.5), random_state=0).fit(X),
    "SKPCA": lambda X: SKPCA(sketch_size=6, n_features=20, kernel=Kernel("gaussian", gamma=0.5),
                             random_state=0).fit(X),
    "FrequentDirections": lambda X: FrequentDirections(4).fit(X),
    "NystromKPCA": lambda X: NystromKPCA(2, Kernel("gaussian", gamma=0.5), landmarks=10, random_state=0).fit(X),
}


@pytest.mark.parametrize("method", FITS)
@pytest.mark.parametrize("declared, real", [((40, 5), (35, 5)), ((40, 5), (40, 4))])
def test_a_chunk_that_contradicts_its_declared_shape_is_refused(method, declared, real):
    X = _lying(declared[0], real[0], declared[1], real[1])
    with pytest.raises(ValueError, match=r"the chunk declared as rows 60\.\.99 \(40 x 5\) of the dask array holds "
                                         rf"an array of shape \({real[0]}, {real[1]}\)"):
        FITS[method](X)


def test_gather_rows_keeps_the_order_of_the_indices_across_chunks():
    from kpca_suite.kernels.dask_arrays import gather_rows
    X = np.random.default_rng(3).standard_normal((100, 3))
    idx = np.array([97, 2, 55, 31, 3, 60])
    np.testing.assert_array_equal(gather_rows(da.from_array(X, chunks=(17, 3)), idx), X[idx])
