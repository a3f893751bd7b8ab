"""Property tests (hypothesis) on small random inputs: the Nyström projector, the
Frequent Directions guarantees, and the results store's round trip and resume.

Inputs are finite floats in [-10, 10], n in [2, 30] rows and d in [1, 5] columns;
each test runs a few dozen examples (no deadline: the first example compiles the
jitted kernels)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from kpca_suite.kernels import Kernel
from kpca_suite.kernels.frequent_directions import FrequentDirections
from kpca_suite.methods import NystromKPCA
from kpca_suite.suites.claim import Cell, Result
from kpca_suite.suites.runner import run_sweep, sweep_cells
from kpca_suite.suites.store import MemoryStore, ResultStore
from kpca_suite.theory.ghashami16 import fd_bound
from tests import toy_claim

FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ELEMENTS = st.floats(-10.0, 10.0, allow_nan=False, allow_infinity=False, allow_subnormal=False)


@st.composite
def data(draw, min_d=1, max_d=5):
    n = draw(st.integers(2, 30))
    d = draw(st.integers(min_d, max_d))
    return draw(arrays(np.float64, (n, d), elements=ELEMENTS))


# -- the Nyström projector ------------------------------------------------------------------

@st.composite
def nystrom_fits(draw):
    """A fitted NystromKPCA (eigh whitening) with k <= the effective rank of K_mm."""
    X = draw(data())
    gamma = draw(st.sampled_from([0.01, 0.1, 1.0, 10.0]))
    m = draw(st.integers(1, len(X)))
    seed = draw(st.integers(0, 2**16))
    kern = Kernel("gaussian", gamma=gamma)
    rank = NystromKPCA(1, kern, landmarks=m, random_state=seed).fit(X).effective_rank_
    k = draw(st.integers(1, rank))
    return X, kern, NystromKPCA(k, kern, landmarks=m, random_state=seed).fit(X)


@FAST
@given(nystrom_fits())
def test_nystrom_coefficients_are_orthonormal_in_the_rkhs(fit):
    """A^T K_mm A = I_k (Sterge et al. 2020, Proposition 3.4; ``coefficients_`` = A)."""
    _, kern, ny = fit
    A = ny.coefficients_
    Kmm = kern.block(ny.basis_points_)
    np.testing.assert_allclose(A.T @ Kmm @ A, np.eye(A.shape[1]), atol=1e-6)


@FAST
@given(nystrom_fits())
def test_nystrom_projector_is_idempotent_and_self_adjoint(fit):
    """On H_m = span{k(., s_r)} in the coefficients of the basis points, the projector
    onto the components is P = A A^T K_mm: P^2 = P, and K_mm P is symmetric (P is
    self-adjoint in the RKHS inner product <c, c'> = c^T K_mm c'), trace P = k.
    Round-off scales with ||A||^2 ||K_mm|| (A carries K_mm^{-1/2} on the kept range)."""
    _, kern, ny = fit
    A = ny.coefficients_
    Kmm = kern.block(ny.basis_points_)
    P = A @ A.T @ Kmm
    tol = 1e-7 * (1.0 + np.linalg.norm(A, 2) ** 2 * np.linalg.norm(Kmm, 2))
    np.testing.assert_allclose(P @ P, P, atol=tol)
    np.testing.assert_allclose(Kmm @ P, (Kmm @ P).T, atol=tol)
    assert abs(np.trace(P) - A.shape[1]) <= tol


@FAST
@given(nystrom_fits())
def test_nystrom_projected_gram_is_dominated_by_the_gram(fit):
    """The scores Z = transform(X) are the coordinates of P k(., x_i), so
    Z Z^T = <P k(., x_i), P k(., x_j)> and K - Z Z^T is the Gram matrix of the
    residuals (I - P) k(., x_i): positive semidefinite. Z^T Z / n = diag(eigenvalues_)
    (uncorrelated scores with the fitted variances)."""
    X, kern, ny = fit
    Z = ny.transform(X)
    n = len(X)
    assert np.linalg.eigvalsh(kern.block(X) - Z @ Z.T).min() >= -1e-7 * n
    np.testing.assert_allclose(Z.T @ Z / n, np.diag(ny.eigenvalues_), atol=1e-7)


# -- Frequent Directions ----------------------------------------------------------------------

@st.composite
def fd_inputs(draw):
    A = draw(data(min_d=2))
    ell = draw(st.integers(2, A.shape[1]))
    return A, ell, draw(st.sampled_from(["standard", "halving"]))


@FAST
@given(fd_inputs())
def test_frequent_directions_guarantees(inp):
    """For both shrink rules with j the shrink index: 0 <= A^T A - B^T B (PSD order),
    ||A^T A - B^T B||_2 <= Delta <= ||A - A_k||_F^2 / (j - k) for every 0 <= k < j,
    in particular <= ||A||_F^2 / j (kernels.frequent_directions)."""
    A, ell, shrink = inp
    fd = FrequentDirections(ell, shrink).fit(A)
    j = fd.shrink_index
    fro = float(np.sum(A**2))
    tol = 1e-9 * max(fro, 1.0)
    ev = np.linalg.eigvalsh(A.T @ A - fd.covariance())
    assert ev.min() >= -tol
    assert ev.max() <= fd.delta_ + tol
    s2 = np.linalg.svd(A, compute_uv=False) ** 2
    assert fd.delta_ <= min(fd_bound(s2, j, k) for k in range(j)) + tol
    assert fd.delta_ <= fro / j + tol


@FAST
@given(fd_inputs(), st.data())
def test_frequent_directions_batches_and_merges(inp, draw):
    """Any split of the rows into batches gives the same sketch bit for bit; a merge of
    the sketches of two parts keeps the guarantees of the whole."""
    A, ell, shrink = inp
    one = FrequentDirections(ell, shrink).fit(A)
    cuts = sorted(draw.draw(st.lists(st.integers(1, len(A) - 1), max_size=4, unique=True)))
    fd = FrequentDirections(ell, shrink)
    for part in np.split(A, cuts):
        fd.partial_fit(part)
    np.testing.assert_array_equal(fd.sketch_, one.sketch_)
    assert (fd.delta_, fd.n_rows_seen_) == (one.delta_, len(A))
    cut = draw.draw(st.integers(1, len(A) - 1))
    merged = FrequentDirections(ell, shrink).fit(A[:cut]).merge(FrequentDirections(ell, shrink).fit(A[cut:]))
    tol = 1e-9 * max(float(np.sum(A**2)), 1.0)
    ev = np.linalg.eigvalsh(A.T @ A - merged.covariance())
    assert ev.min() >= -tol and ev.max() <= merged.delta_ + tol
    assert merged.delta_ <= float(np.sum(A**2)) / merged.shrink_index + tol


# -- the results store ---------------------------------------------------------------------------

PARAMS = st.fixed_dictionaries({}, optional={
    "m": st.integers(1, 5000),
    "ell": st.integers(2, 64),
    "t": st.floats(1e-6, 1e3, allow_nan=False),
    "shrink": st.sampled_from(["standard", "halving"]),
    "grid": st.tuples(st.integers(0, 9), st.floats(-5, 5, allow_nan=False)),
    "data": st.text("abcé/._- ", max_size=12),
})
CELLS = st.builds(lambda claim, method, n, seed, params: Cell.make(claim, method, n, seed, **params),
                  st.sampled_from(["toy.rate", "toy.fail", "other.claim"]),
                  st.sampled_from(["nystrom", "exact", "rf-erm", "subset"]),
                  st.integers(1, 10**6), st.integers(0, 2**31 - 1), PARAMS)


@st.composite
def written_and_all(draw):
    """A list of distinct cells (by key) and the subset of them that is written."""
    cells = list({c.key(): c for c in draw(st.lists(CELLS, min_size=1, max_size=25))}.values())
    mask = draw(st.lists(st.booleans(), min_size=len(cells), max_size=len(cells)))
    metrics = draw(st.lists(st.floats(allow_nan=False, allow_infinity=False, width=64),
                            min_size=len(cells), max_size=len(cells)))
    results = [Result(c, {"err": v, "aux": float(i)}, 0.5 * i, 1000 + i)
               for i, (c, v) in enumerate(zip(cells, metrics))]
    return cells, [r for r, keep in zip(results, mask) if keep]


@FAST
@given(written_and_all())
def test_store_round_trip_and_missing_cells_are_the_complement(case):
    cells, written = case
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "results.sqlite"
        mem = MemoryStore()
        with ResultStore(path) as store:
            for r in written:
                store.add(r, {"python": "3"}, "abc")
                mem.add(r)
        with ResultStore(path, create=False) as store:
            done = store.done_keys()
            assert done == {r.cell.key() for r in written} == mem.done_keys()
            missing = [c for c in cells if c.key() not in done]
            assert {c.key() for c in missing} == {c.key() for c in cells} - done
            assert len(missing) + len(written) == len(cells)
            for claim in {c.claim for c in cells}:
                got = {r.cell.key(): r for r in store.results(claim)}
                want = {r.cell.key(): r for r in written if r.cell.claim == claim}
                assert got.keys() == want.keys() == {r.cell.key() for r in mem.results(claim)}
                for key, r in want.items():
                    g = got[key]
                    assert g.cell == r.cell and hash(g.cell) == hash(r.cell)
                    assert (g.metrics, g.wall_time, g.peak_mem) == (r.metrics, r.wall_time, r.peak_mem)
                assert store.done_keys(claim) == set(want)


TOY = (toy_claim.TOY_RATE, toy_claim.TOY_FAIL, toy_claim.TOY_VAGUE)
TOY_KEYS = sorted(c.key() for cells in sweep_cells(TOY, "ci").values() for c in cells)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sets(st.sampled_from(TOY_KEYS)))
def test_resume_runs_exactly_the_cells_not_yet_stored(first):
    """A sweep that stopped after an arbitrary set of cells resumes from the store:
    the rerun executes exactly the complement and stores the same values as one run."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "results.sqlite"
        with ResultStore(path) as store:
            part = run_sweep(TOY, "ci", store, jobs=1, progress=False, keep=lambda c: c.key() in first)
            assert (part.executed, part.skipped, part.errors) == (len(first), 0, [])
        with ResultStore(path, create=False) as store:
            assert store.done_keys() == first
            rest = run_sweep(TOY, "ci", store, jobs=1, progress=False)
            assert (rest.executed, rest.skipped) == (len(TOY_KEYS) - len(first), len(first))
            assert store.done_keys() == set(TOY_KEYS)
            once = MemoryStore()
            run_sweep(TOY, "ci", once, jobs=1, progress=False)
            for claim in TOY:
                stored = {r.cell.key(): r.metrics for r in store.results(claim.id)}
                assert stored == {r.cell.key(): r.metrics for r in once.results(claim.id)}
