"""Frequent Directions: the deterministic bound for both shrink rules, exactness,
batching, merging, the paper's (ell - k) erratum, and bad input."""

import numpy as np
import pytest
from sklearn.datasets import load_digits

from kpca_suite.kernels.frequent_directions import FrequentDirections, sketch_gram
from kpca_suite.theory.ghashami16 import fd_bound

# float64: the inequalities are exact up to round-off relative to ||A||_F^2
# (allowance 1e-9); observed worst 1e-14 (suite ci/quick runs).
TOL = 1e-9


def _matrices():
    rng = np.random.default_rng(0)
    Q = np.linalg.qr(rng.standard_normal((30, 30)))[0]
    return {
        "random": rng.standard_normal((300, 30)),
        "decaying": rng.standard_normal((300, 30)) * np.geomspace(1.0, 0.01, 30),
        "lowrank": rng.standard_normal((200, 3)) @ rng.standard_normal((3, 30)),
        "equal_singular_values": np.vstack([Q] * 6),
        "repeated_row": np.repeat(rng.standard_normal((1, 30)), 150, axis=0),
        "zero": np.zeros((50, 30)),
        "digits": load_digits().data[:500].astype(float),
    }


def _reference_fd(A, ell, j):
    """A plain, independent implementation: one row at a time, shrink when full."""
    B = np.zeros((ell, A.shape[1]))
    filled, delta = 0, 0.0
    for row in A:
        B[filled] = row
        filled += 1
        if filled == ell:
            _, s, Vt = np.linalg.svd(B, full_matrices=False)
            d = s[j - 1] ** 2
            B = np.zeros_like(B)
            B[:j - 1] = np.sqrt(np.maximum(s[:j - 1] ** 2 - d, 0))[:, None] * Vt[:j - 1]
            filled, delta = j - 1, delta + d
    return B, delta


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shrink", ["standard", "halving"])
def test_the_gram_of_a_shrunk_sketch_takes_its_orthogonal_rows_as_diagonal(shrink, dtype):
    # a shrink leaves mutually orthogonal rows; the next Gram takes their block as diagonal and
    # equals B B^T up to the shrink's round-off, while the same count on raw rows does not
    A = _matrices()["decaying"].astype(dtype)
    fd = FrequentDirections(10, shrink).partial_fit(A[:57])
    assert fd.n_orthogonal_ == fd.shrink_index - 1 and fd.n_shrinks_ > 0
    B = fd.sketch_.copy()
    B[fd.n_filled_:] = A[57:57 + 10 - fd.n_filled_]
    full = B.astype(np.float64) @ B.T.astype(np.float64)
    tol = (1e-13 if dtype == np.float64 else 1e-5) * np.linalg.norm(full, 2)
    assert np.abs(sketch_gram(B, fd.n_orthogonal_) - full).max() <= tol
    raw = A[:10]
    assert np.abs(sketch_gram(raw, fd.n_orthogonal_) - raw.astype(np.float64) @ raw.T.astype(np.float64)).max() > tol


@pytest.mark.parametrize("shrink", ["standard", "halving"])
@pytest.mark.parametrize("name", list(_matrices()))
def test_bound_holds_for_both_rules(name, shrink):
    A = _matrices()[name]
    fro = max(np.sum(A**2), 1.0)
    s2 = np.linalg.svd(A, compute_uv=False) ** 2
    for ell in (2, 5, 10, 20):
        fd = FrequentDirections(ell, shrink).fit(A)
        j = fd.shrink_index
        assert j == (ell if shrink == "standard" else ell // 2)
        ev = np.linalg.eigvalsh(A.T @ A - fd.covariance())
        assert ev.min() >= -TOL * fro                                  # 0 <= A^T A - B^T B
        assert np.abs(ev).max() <= fd.delta_ + TOL * fro               # ||.||_2 <= Delta
        for k in range(j):
            assert fd.delta_ <= fd_bound(s2, j, k) + TOL * fro         # Delta <= ||A - A_k||^2 / (j - k)
        # each shrink removes >= j delta of Frobenius mass
        assert np.sum(A**2) - np.sum(fd.sketch_**2) >= j * fd.delta_ - TOL * fro
        B, delta = _reference_fd(A, ell, j)
        # B^T B, not B: row signs (and rotations within equal singular values) are LAPACK's choice
        np.testing.assert_allclose(fd.covariance(), B.T @ B, atol=1e-12 * fro)
        # a squared singular value from the Gram's eigh is exact to eps ||B||_2^2, not to itself
        assert fd.delta_ == pytest.approx(delta, rel=1e-12, abs=1e-12 * fro)


def test_papers_ell_minus_k_denominator_fails_for_the_halving_rule():
    """Lemma 2.1 quotes ||A - A_k||_F^2 / (ell - k) for Algorithm 1 (halving); on a
    decaying spectrum the error exceeds it, while the (ell/2 - k) bound holds."""
    A = _matrices()["decaying"]
    s2 = np.linalg.svd(A, compute_uv=False) ** 2
    fd = FrequentDirections(10, "halving").fit(A)
    err = np.abs(np.linalg.eigvalsh(A.T @ A - fd.covariance())).max()
    literal = min(fd_bound(s2, 10, k) for k in range(10))      # 36.5 here, at k = 7
    assert err > 3 * literal                                      # err = 126.8
    assert err <= min(fd_bound(s2, 5, k) for k in range(5))       # 189.2


@pytest.mark.parametrize("shrink", ["standard", "halving"])
def test_exact_when_n_below_ell_or_rank_below_k(shrink):
    A = _matrices()["random"][:7]
    fd = FrequentDirections(10, shrink).fit(A)
    assert fd.n_shrinks_ == 0 and fd.delta_ == 0.0
    np.testing.assert_array_equal(fd.covariance(), A.T @ A)
    L = _matrices()["lowrank"]  # rank 3 < j - 1 for ell = 10 (both rules)
    fd = FrequentDirections(10, shrink).fit(L)
    assert fd.n_shrinks_ > 0
    assert np.abs(L.T @ L - fd.covariance()).max() <= 1e-9 * np.sum(L**2)


@pytest.mark.parametrize("shrink", ["standard", "halving"])
def test_same_rows_same_sketch_whatever_the_batches(shrink):
    A = _matrices()["digits"]
    one = FrequentDirections(10, shrink).fit(A)
    for sizes in ([1] * 37 + [463], [250, 250], [3, 97, 400]):
        fd = FrequentDirections(10, shrink)
        for part in np.split(A, np.cumsum(sizes)[:-1]):
            fd.partial_fit(part)
        np.testing.assert_array_equal(fd.sketch_, one.sketch_)
        assert (fd.delta_, fd.n_shrinks_, fd.n_filled_, fd.n_rows_seen_) == (
            one.delta_, one.n_shrinks_, one.n_filled_, one.n_rows_seen_)


@pytest.mark.parametrize("shrink", ["standard", "halving"])
def test_merge_keeps_the_bound_of_the_concatenation(shrink):
    A = _matrices()["decaying"]
    s2 = np.linalg.svd(A, compute_uv=False) ** 2
    a = FrequentDirections(8, shrink).fit(A[:170])
    b = FrequentDirections(8, shrink).fit(A[170:])
    before = a.sketch_.copy(), b.sketch_.copy(), a.delta_, b.delta_
    m = a.merge(b)
    np.testing.assert_array_equal(a.sketch_, before[0])
    np.testing.assert_array_equal(b.sketch_, before[1])
    assert (a.delta_, b.delta_) == before[2:]
    assert m.n_rows_seen_ == len(A) and m.delta_ >= a.delta_ + b.delta_
    ev = np.linalg.eigvalsh(A.T @ A - m.covariance())
    fro = np.sum(A**2)
    assert ev.min() >= -TOL * fro and ev.max() <= m.delta_ + TOL * fro
    assert m.delta_ <= min(fd_bound(s2, m.shrink_index, k) for k in range(m.shrink_index)) + TOL * fro


def test_merge_rejects_incompatible_sketches():
    A = _matrices()["random"]
    a = FrequentDirections(8).fit(A)
    with pytest.raises(ValueError, match="sketch_size"):
        a.merge(FrequentDirections(6).fit(A))
    with pytest.raises(ValueError, match="same d"):
        a.merge(FrequentDirections(8).fit(A[:, :20]))
    with pytest.raises(ValueError, match="empty"):
        a.merge(FrequentDirections(8))
    with pytest.raises(TypeError):
        a.merge(A)


@pytest.mark.parametrize("ell", [1, 0, -3])
def test_ell_below_two_is_rejected(ell):
    with pytest.raises(ValueError, match="sketch_size"):
        FrequentDirections(ell).fit(np.ones((5, 4)))


def test_ell_above_d_and_bad_shrink_are_rejected():
    with pytest.raises(ValueError, match="sketch_size.*d = 4"):
        FrequentDirections(5).fit(np.ones((10, 4)))
    with pytest.raises(ValueError, match="shrink"):
        FrequentDirections(3, "quarter").fit(np.ones((10, 4)))


@pytest.mark.parametrize("bad", ["nan", "inf", "d"])
def test_rejected_batch_leaves_the_sketch_unchanged(bad):
    A = _matrices()["random"]
    fd = FrequentDirections(6).fit(A[:100])
    state = fd.sketch_.copy(), fd.delta_, fd.n_filled_, fd.n_shrinks_, fd.n_rows_seen_
    chunk = A[100:110].copy()
    if bad == "d":
        chunk = chunk[:, :-1]
    else:
        chunk[4, 2] = np.nan if bad == "nan" else np.inf
    with pytest.raises(ValueError, match="NaN or inf" if bad != "d" else "columns"):
        fd.partial_fit(chunk)
    np.testing.assert_array_equal(fd.sketch_, state[0])
    assert (fd.delta_, fd.n_filled_, fd.n_shrinks_, fd.n_rows_seen_) == state[1:]
