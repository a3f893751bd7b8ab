"""RF-ERM / RNCA: exact PCA of the random features, one pass in chunks."""

import numpy as np
import pytest

from kpca_suite.kernels import Kernel
from kpca_suite.methods import RFERM


def _data(n=300, d=4, seed=0):
    return np.random.default_rng(seed).standard_normal((n, d))


def test_matches_exact_pca_of_the_features():
    X = _data()
    est = RFERM(5, 40, kernel=Kernel("gaussian", gamma=0.3), random_state=2).fit(X)
    Z = est.features(X)
    e, U = np.linalg.eigh(Z.T @ Z / len(X))
    np.testing.assert_allclose(est.eigenvalues_, e[::-1][:5], rtol=1e-10)
    # Same subspace: the projectors agree.
    P, Q = est.components_ @ est.components_.T, U[:, -5:] @ U[:, -5:].T
    np.testing.assert_allclose(P, Q, atol=1e-8)
    np.testing.assert_allclose(est.components_.T @ est.components_, np.eye(5), atol=1e-12)
    np.testing.assert_allclose(est.transform(X), Z @ est.components_)


def test_top_k_and_every_eigenvalue_on_first_read_refreshed_by_partial_fit():
    """The top k come from LAPACK's subset solve, the rest of the spectrum from one eigvalsh
    when all_eigenvalues_ is first read; a later partial_fit must not leave the old spectrum
    behind. Eigenvalues within 100 eps lambda_1, projectors within
    100 eps lambda_1 / gap_k of a full eigh of C_m."""
    X = _data(n=900, d=3)
    est = RFERM(5, 300, kernel=Kernel("gaussian", gamma=0.5), random_state=3)
    for part in (X[:450], X[450:]):
        est.partial_fit(part)
        Z = est.features(X[:est.n_samples_seen_])
        e, U = np.linalg.eigh(Z.T @ Z / est.n_samples_seen_)
        e, U = e[::-1], U[:, ::-1]
        eps = np.finfo(float).eps
        np.testing.assert_allclose(est.all_eigenvalues_, np.maximum(e, 0.0), rtol=0, atol=100 * eps * e[0])
        np.testing.assert_array_equal(est.all_eigenvalues_[:5], est.eigenvalues_)
        P, Q = est.components_ @ est.components_.T, U[:, :5] @ U[:, :5].T
        np.testing.assert_allclose(P, Q, rtol=0, atol=100 * eps * e[0] / (e[4] - e[5]))


def test_chunks_give_the_same_fit_as_one_pass():
    X = _data()
    one = RFERM(3, 16, variant="paired", random_state=1).fit(X)
    chunked = RFERM(3, 16, variant="paired", random_state=1, block_size=7)
    for part in np.array_split(X, 5):
        chunked.partial_fit(part)
    assert chunked.n_samples_seen_ == len(X)
    np.testing.assert_allclose(chunked.covariance_sum_, one.covariance_sum_, rtol=1e-12)
    np.testing.assert_allclose(chunked.eigenvalues_, one.eigenvalues_, rtol=1e-10)
    assert one.space_ == 32 * 32 + 4 * 16 + 16


def test_bad_chunk_leaves_the_model_unchanged():
    X = _data()
    est = RFERM(3, 16, random_state=1).fit(X)
    before = est.covariance_sum_.copy()
    bad = X[:10].copy()
    bad[3, 1] = np.inf
    with pytest.raises(ValueError, match="NaN or inf"):
        est.partial_fit(bad)
    with pytest.raises(ValueError, match="d = 4"):
        est.partial_fit(X[:10, :3])
    np.testing.assert_array_equal(est.covariance_sum_, before)
    assert est.n_samples_seen_ == len(X)


def test_bad_parameters():
    X = _data(20)
    with pytest.raises(ValueError, match="n_components"):
        RFERM(17, 16).fit(X)
    with pytest.raises(ValueError, match="spectral measure"):
        RFERM(2, 16, kernel=Kernel("cauchy", gamma=1.0)).fit(X)
    with pytest.raises(TypeError, match="kernel must be a kernels.Kernel"):
        RFERM(2, 16, kernel="gaussian").fit(X)
    with pytest.raises(RuntimeError, match="not fitted"):
        RFERM(2, 16).transform(X)
