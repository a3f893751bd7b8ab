"""SKPCA (Algorithm 1), streaming Nyström, the matrix-free kernel errors, the RFF
variance, the RandomNoisy generator and Lemma 2.2's chain."""

import numpy as np
import pytest
from scipy.stats import chisquare

from kpca_suite.kernels import Kernel, draw_rff
from kpca_suite.kernels.gram import default_block_size
from kpca_suite.methods.rf_erm import RFERM
from kpca_suite.methods.skpca import SKPCA
from kpca_suite.methods.streaming_nystrom import StreamingNystrom
from kpca_suite.theory.ghashami16 import (lemma22_bound, random_noisy, random_rotation, rff_expected_frobenius_sq,
                                          rff_variance)
from kpca_suite.theory import kernel_error
from kpca_suite.theory.kernel_error import (frobenius_errors, spectral_error, spectral_errors,
                                             top_k_factor)


def _data(n=300, d=5, seed=0):
    return np.random.default_rng(seed).standard_normal((n, d))


# -- SKPCA ----------------------------------------------------------------------------------

@pytest.mark.parametrize("shrink", ["standard", "halving"])
@pytest.mark.parametrize("ell", [2, 5, 10, 20])
def test_lemma22_chain(shrink, ell):
    """||G_hat - G~||_2 = ||Z(I - WW^T)||_2^2 <= ||Z^T Z - B^T B||_2 <= ||Z||_F^2 / j <= 2n / j,
    with the n x n G_hat - G~ formed densely; W^T W = I and G~ <= G_hat."""
    X = _data(n=301)
    est = SKPCA(sketch_size=ell, n_features=60, kernel=Kernel("gaussian", gamma=0.1), shrink=shrink, random_state=3).fit(X)
    Z, W = est.features(X), est.components_
    np.testing.assert_allclose(W.T @ W, np.eye(W.shape[1]), atol=1e-12)
    D = Z @ Z.T - Z @ W @ W.T @ Z.T
    ev = np.linalg.eigvalsh(D)
    fro = np.sum(Z**2)
    assert ev.min() >= -1e-10 * fro
    P = np.eye(60) - W @ W.T
    assert ev.max() == pytest.approx(np.linalg.norm(Z @ P, 2) ** 2, rel=1e-9)
    sk = np.abs(np.linalg.eigvalsh(Z.T @ Z - est.sketch_.covariance())).max()
    j = est.sketch_.shrink_index
    assert ev.max() <= sk * (1 + 1e-9)
    assert sk <= lemma22_bound(fro, j) <= 2 * len(X) / j
    # span(W) contains rowspan(B): W is recomputed from the final sketch.
    B = est.sketch_.sketch_[:est.sketch_.n_filled_]
    assert np.abs(B - B @ W @ W.T).max() <= 1e-10 * max(1.0, np.abs(B).max())


def test_chunks_give_the_same_fit_as_one_pass():
    X = _data()
    one = SKPCA(sketch_size=6, n_features=40, kernel=Kernel("gaussian", gamma=0.2), random_state=1).fit(X)
    chunked = SKPCA(sketch_size=6, n_features=40, kernel=Kernel("gaussian", gamma=0.2), random_state=1, block_size=7)
    for part in np.array_split(X, 4):
        chunked.partial_fit(part)
    np.testing.assert_array_equal(chunked.sketch_.sketch_, one.sketch_.sketch_)
    np.testing.assert_array_equal(chunked.components_, one.components_)
    assert chunked.n_samples_seen_ == len(X)
    assert one.space_ == 5 * 40 + 40 + 6 * 40   # d m + m phases + ell m


def test_merged_chunk_models_keep_lemma22_for_the_whole_stream():
    X = _data(n=400)
    parts = [SKPCA(sketch_size=8, n_features=50, kernel=Kernel("gaussian", gamma=0.1), random_state=5).fit(P) for P in np.array_split(X, 4)]
    merged = parts[0].merge(parts[1]).merge(parts[2].merge(parts[3]))
    assert merged.n_samples_seen_ == len(X)
    Z, W = merged.features(X), merged.components_
    np.testing.assert_allclose(W.T @ W, np.eye(W.shape[1]), atol=1e-12)
    gap = np.linalg.norm(Z @ (np.eye(50) - W @ W.T), 2) ** 2
    sk = np.abs(np.linalg.eigvalsh(Z.T @ Z - merged.sketch_.covariance())).max()
    assert gap <= sk * (1 + 1e-9) and sk <= lemma22_bound(np.sum(Z**2), merged.sketch_.shrink_index)
    other_map = SKPCA(sketch_size=8, n_features=50, kernel=Kernel("gaussian", gamma=0.1), random_state=6).fit(X[:50])
    with pytest.raises(ValueError, match="feature map"):
        parts[0].merge(other_map)


def test_exact_when_the_stream_is_shorter_than_the_sketch():
    X = _data(n=8)
    est = SKPCA(sketch_size=10, n_features=30, kernel=Kernel("gaussian", gamma=0.2), random_state=0).fit(X)
    Z = est.features(X)
    Y = est.transform(X)
    np.testing.assert_allclose(Y @ Y.T, Z @ Z.T, atol=1e-12)
    k2 = SKPCA(n_components=2, sketch_size=10, n_features=30, kernel=Kernel("gaussian", gamma=0.2), random_state=0).fit(X)
    np.testing.assert_allclose(np.abs(k2.components_), np.abs(est.components_[:, :2]), atol=1e-10)


@pytest.mark.parametrize("kwargs,match", [
    (dict(sketch_size=1), "sketch_size"), (dict(sketch_size=50, n_features=20), "sketch_size"),
    (dict(n_features=0), "n_features"), (dict(n_features=-5), "n_features"),
    (dict(n_components=11, sketch_size=10), "n_components"), (dict(shrink="quarter"), "shrink"),
])
def test_bad_parameters(kwargs, match):
    with pytest.raises(ValueError, match=match):
        SKPCA(**{**dict(n_features=30), **kwargs}).fit(_data())


@pytest.mark.parametrize("bad", ["nan", "d"])
def test_rejected_chunk_leaves_skpca_unchanged(bad):
    X = _data()
    est = SKPCA(sketch_size=6, n_features=40, random_state=1).fit(X[:200])
    B, W, seen = est.sketch_.sketch_.copy(), est.components_.copy(), est.n_samples_seen_
    chunk = X[200:].copy()
    if bad == "nan":
        chunk[50, 1] = np.nan
    else:
        chunk = chunk[:, :3]
    with pytest.raises(ValueError, match="NaN or inf" if bad == "nan" else "columns"):
        est.partial_fit(chunk)
    np.testing.assert_array_equal(est.sketch_.sketch_, B)
    np.testing.assert_array_equal(est.components_, W)
    assert est.n_samples_seen_ == seen


# -- streaming Nyström ---------------------------------------------------------------------

def test_nystrom_gram_is_c_w_pinv_c_and_below_g():
    X = _data(n=200)
    kern = Kernel("gaussian", gamma=0.2)
    est = StreamingNystrom(30, kern, random_state=4).fit(X)
    S = est.landmarks_
    assert all(np.any(np.all(X == s, axis=1)) for s in S)          # landmarks are rows of X
    np.testing.assert_allclose(est.gram_, kern.block(S), atol=1e-14)
    Y = est.transform(X)
    C = kern.block(X, S)
    np.testing.assert_allclose(Y @ Y.T, C @ np.linalg.pinv(est.gram_, rcond=1e-8, hermitian=True) @ C.T,
                               atol=1e-8)
    assert np.linalg.eigvalsh(kern.block(X) - Y @ Y.T).min() >= -1e-9   # Schur complement >= 0
    assert est.space_ == 30 * 5 + 30 * 30


def test_reservoir_is_uniform_and_replaces_about_c_h_n_times():
    """Each of the c independent samplers ends on row i with probability 1/n, and
    makes Bernoulli(1/i) replacements at row i: c H_n in expectation, variance
    c sum_i (1/i)(1 - 1/i). 4 seeds x c = 300 samplers over n = 20 rows."""
    n, c, seeds = 20, 300, 4
    X = np.arange(n, dtype=float)[:, None] * np.ones((1, 2))
    counts, reps = np.zeros(n), 0
    for seed in range(seeds):
        est = StreamingNystrom(c, Kernel("gaussian", gamma=0.1), random_state=seed, block_size=6).fit(X)
        counts += np.bincount(est.landmarks_[:, 0].astype(int), minlength=n)
        reps += est.n_replacements_
    assert chisquare(counts).pvalue > 1e-3
    inv = 1.0 / np.arange(1, n + 1)
    assert abs(reps - seeds * c * inv.sum()) < 5 * np.sqrt(seeds * c * np.sum(inv * (1 - inv)))


def test_nystrom_chunks_give_the_same_landmarks():
    X = _data()
    kern = Kernel("gaussian", gamma=0.2)
    one = StreamingNystrom(25, kern, random_state=7).fit(X)
    chunked = StreamingNystrom(25, kern, random_state=7, block_size=11)
    for part in np.array_split(X, 3):
        chunked.partial_fit(part)
    np.testing.assert_array_equal(chunked.landmarks_, one.landmarks_)
    np.testing.assert_allclose(chunked.transform(X), one.transform(X), atol=1e-10)


def test_nystrom_bad_input_leaves_it_unchanged():
    X = _data()
    est = StreamingNystrom(10, Kernel("gaussian", gamma=0.2), random_state=0).fit(X[:100])
    S, seen, state = est.landmarks_.copy(), est.n_samples_seen_, est.rng_.bit_generator.state
    bad = X[100:].copy()
    bad[3, 0] = np.inf
    for chunk in (bad, X[100:, :2]):
        with pytest.raises(ValueError):
            est.partial_fit(chunk)
    np.testing.assert_array_equal(est.landmarks_, S)
    assert est.n_samples_seen_ == seen and est.rng_.bit_generator.state == state
    for kw, match in ((dict(n_landmarks=0), "n_landmarks"), (dict(n_landmarks=5, n_components=6), "n_components"),
                      (dict(rcond=1.5), "rcond")):
        with pytest.raises(ValueError, match=match):
            StreamingNystrom(**{"kernel": Kernel(), **kw}).fit(X)


# -- kernel errors --------------------------------------------------------------------------

def test_matrix_free_errors_match_dense(n=400):
    """Several factors in one call (one pass over G per Lanczos step and for the Frobenius
    sums), dense G or blocked, against eigvalsh and the norm of each difference formed densely."""
    X = random_noisy(n, 60, s=10, random_state=1)
    kern = Kernel("gaussian", gamma=0.01)
    G = kern.block(X)
    Z = RFERM(1, 64, kernel=Kernel("gaussian", gamma=0.01), random_state=0).fit(X).features(X)
    Ys = [Z, top_k_factor(Z, 5),
          SKPCA(sketch_size=10, n_features=64, kernel=Kernel("gaussian", gamma=0.01), random_state=0).fit(X).transform(X)]
    dense = [np.abs(np.linalg.eigvalsh(G - Y @ Y.T)).max() for Y in Ys]
    fro = [np.linalg.norm(G - Y @ Y.T) for Y in Ys]
    assert spectral_errors(X, Ys, kern, block_size=150) == pytest.approx(dense, rel=1e-9)
    assert spectral_errors(X, Ys, kern, G=G) == pytest.approx(dense, rel=1e-9)
    assert frobenius_errors(X, Ys, kern, block_size=97) == pytest.approx(fro, rel=1e-12)
    assert frobenius_errors(X, Ys, kern, G=G) == pytest.approx(fro, rel=1e-12)
    assert spectral_error(X, Ys[2], kern, G=G) == pytest.approx(dense[2], rel=1e-9)
    for f, s in zip(fro, dense):
        assert f <= np.sqrt(n) * s * (1 + 1e-12)


def test_lanczos_that_does_not_converge_raises(monkeypatch):
    X = _data(n=100)
    kern = Kernel("gaussian", gamma=0.5)
    monkeypatch.setattr(kernel_error, "LANCZOS_MAXITER", 2)
    with pytest.raises(RuntimeError, match="Lanczos did not reach"):
        spectral_error(X, np.zeros((100, 1)), kern)


@pytest.mark.parametrize("row", [0, 1500, 2999])
def test_a_non_finite_entry_of_g_is_refused_in_any_row_block(row):
    """G is tested for NaN or inf block by block of rows (three blocks at n = 3000): an inf in
    the first, a middle or the last block is refused."""
    n = 3000
    assert default_block_size(n) < n / 2
    X = _data(n=n)
    kern = Kernel("gaussian", gamma=0.5)
    G = kern.block(X)
    G[row, 3] = np.inf
    with pytest.raises(ValueError, match="G contains NaN or inf"):
        spectral_error(X, np.zeros((n, 1)), kern, G=G)
    with pytest.raises(ValueError, match="G contains NaN or inf"):
        frobenius_errors(X, [np.zeros((n, 1))], kern, G=G)


def test_spectral_error_is_max_abs_eig_not_lambda_max():
    """G - G' indefinite with its negative part dominant: lambda_max would be wrong."""
    X = _data(n=100)
    kern = Kernel("gaussian", gamma=0.5)
    Y = 2.0 * np.ones((100, 1))           # G' = 4 * 11^T overshoots G
    ev = np.linalg.eigvalsh(kern.block(X) - Y @ Y.T)
    assert ev.min() < -abs(ev.max())
    assert spectral_error(X, Y, kern) == pytest.approx(-ev.min(), rel=1e-9)


def test_top_k_factor_is_the_best_rank_k_of_y_y_t():
    Y = _data(n=50, d=8)
    e, U = np.linalg.eigh(Y @ Y.T)
    Yk = top_k_factor(Y, 3)
    np.testing.assert_allclose(Yk @ Yk.T, (U[:, -3:] * e[-3:]) @ U[:, -3:].T, atol=1e-10)


# -- random Fourier features: unbiasedness and variance (Ghashami et al. 2016, section 1.1) -------------

def test_rff_unbiased_with_the_predicted_variance():
    """z(x)^T z(y) over independent draws of m = 50 features: mean K(Delta) and
    variance (1 + K(2 Delta)/2 - K(Delta)^2) / m, each within 5 standard errors.
    One draw of m * reps frequencies split into reps groups is reps i.i.d. draws."""
    m, reps, gamma = 50, 20000, 0.5
    x = np.zeros(3)
    y = np.array([1.0, 0.0, 0.0]) / np.sqrt(2 * gamma)     # ||x - y|| = sigma
    f = draw_rff(3, m * reps, "gaussian", gamma, "cos", random_state=11)
    Z = f.transform(np.vstack([x, y])) * np.sqrt(reps)      # rescale sqrt(2/(m reps)) -> sqrt(2/m)
    est = (Z[0] * Z[1]).reshape(reps, m).sum(axis=1)
    k1 = np.exp(-gamma * np.sum((x - y) ** 2))
    k2 = np.exp(-gamma * np.sum((2 * (x - y)) ** 2))
    var = rff_variance(k1, k2, m)
    assert abs(est.mean() - k1) < 5 * np.sqrt(var / reps)
    c = est - est.mean()
    se_var = np.sqrt((np.mean(c**4) - np.mean(c**2) ** 2) / reps)
    assert abs(est.var(ddof=1) - var) < 5 * se_var
    # negative control: the other bandwidth convention misses the variance or the mean
    g = draw_rff(3, m * reps, "gaussian", gamma / 2, "cos", random_state=11)
    Zg = g.transform(np.vstack([x, y])) * np.sqrt(reps)
    bad = (Zg[0] * Zg[1]).reshape(reps, m).sum(axis=1)
    assert abs(bad.mean() - k1) > 5 * np.sqrt(var / reps)


def test_rff_expected_frobenius_matches_monte_carlo_and_repeated_draws_double_it():
    """E||G - ZZ^T||_F^2 in closed form against the mean over 400 independent maps of
    m = 16 cos features on 30 points (within 5 standard errors); the paired [cos, sin]
    map (negatively correlated columns) stays below it, and m/2 draws used twice sit
    near twice it: the closed form is the level the rff-rate claim judges."""
    rng = np.random.default_rng(5)
    X = rng.normal(size=(30, 4))
    gamma, m, reps = 0.3, 16, 400
    G = Kernel("gaussian", gamma=gamma).block(X)
    expected = rff_expected_frobenius_sq(G, G**4, m)

    def sq_errors(variant, draws, repeat):
        out = []
        for r in range(reps):
            Y = draw_rff(4, draws, "gaussian", gamma, variant, random_state=1000 + r).transform(X)
            if repeat:
                Y = np.hstack([Y, Y]) / np.sqrt(2.0)
            out.append(np.sum((G - Y @ Y.T) ** 2))
        return np.array(out)

    cos = sq_errors("cos", m, False)
    assert abs(cos.mean() - expected) < 5 * cos.std(ddof=1) / np.sqrt(reps)
    paired = sq_errors("paired", m // 2, False)   # m columns from m/2 frequencies
    assert paired.mean() < expected - 5 * paired.std(ddof=1) / np.sqrt(reps)
    repeated = sq_errors("cos", m // 2, True)
    assert abs(repeated.mean() / expected - 2.0) < 5 * repeated.std(ddof=1) / np.sqrt(reps) / expected


# -- RandomNoisy -----------------------------------------------------------------------------

def test_random_noisy_generator():
    U = random_rotation(50, 200, random_state=0)
    np.testing.assert_allclose(U @ U.T, np.eye(50), atol=1e-12)
    n = 4000
    A = random_noisy(n, 200, random_state=1, rotation=U)
    assert A.shape == (n, 200)
    # In the signal coordinates A U^T = S D + F U^T / zeta: independent columns of
    # variance D_ii^2 + 1/zeta^2 with D_ii = 1 - (i - 1)/d (denominator d, not s);
    # a sample variance has standard error sqrt(2/n) of its value.
    D = 1.0 - np.arange(50) / 200
    want = D**2 + 1.0 / 100
    got = np.mean((A @ U.T) ** 2, axis=0)
    assert np.all(np.abs(got - want) < 5 * np.sqrt(2.0 / n) * want)
    assert abs(np.mean(np.sum(A**2, axis=1)) - (np.sum(D**2) + 200 / 100)) < 0.02 * np.sum(want)
    with pytest.raises(ValueError, match="s = 50"):
        random_noisy(10, 50)
