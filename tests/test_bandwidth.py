"""kernels.bandwidth: the one place claims take a Gaussian gamma from."""

import numpy as np
import pytest

from kpca_suite.kernels import mean_distance_gamma, median_gamma, pairwise_sq_distances


def _brute(X):
    return ((X[:, None, :] - X[None, :, :]) ** 2).sum(-1)


def test_pairwise_sq_distances_match_the_definition_with_an_exact_zero_diagonal():
    X = np.random.default_rng(0).normal(size=(50, 4)) * 1e3
    D = pairwise_sq_distances(X)
    np.testing.assert_allclose(D, _brute(X), rtol=1e-9, atol=1e-6)
    assert np.all(np.diag(D) == 0.0) and np.all(D >= 0)


def test_median_gamma_is_scale_over_the_median_squared_distance():
    X = np.random.default_rng(1).normal(size=(300, 3))
    iu = np.triu_indices(len(X), 1)
    assert median_gamma(X) == pytest.approx(1 / np.median(_brute(X)[iu]), rel=1e-12)
    assert median_gamma(X, scale=0.5) == pytest.approx(0.5 * median_gamma(X), rel=1e-15)


def test_median_gamma_subsamples_reproducibly():
    X = np.random.default_rng(2).normal(size=(3000, 2))
    g = median_gamma(X, max_points=500, random_state=7)
    assert g == median_gamma(X, max_points=500, random_state=7)
    assert g == pytest.approx(median_gamma(X), rel=0.1)


def test_mean_distance_gamma_counts_every_ordered_pair_with_the_diagonal():
    X = np.random.default_rng(3).normal(size=(40, 5))
    sigma = np.sqrt(_brute(X)).sum() / len(X) ** 2
    assert mean_distance_gamma(X) == pytest.approx(1 / sigma**2, rel=1e-10)


@pytest.mark.parametrize("rule", [median_gamma, mean_distance_gamma])
def test_no_bandwidth_from_identical_rows(rule):
    with pytest.raises(ValueError, match="X"):
        rule(np.ones((5, 3)))


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="at least 2 rows"):
        median_gamma(np.ones((1, 3)))
    with pytest.raises(ValueError, match="scale"):
        median_gamma(np.eye(3), scale=0.0)
    with pytest.raises(ValueError, match="X"):
        median_gamma(np.array([[0.0, np.nan], [1.0, 2.0]]))
    X = np.vstack([np.zeros((10, 2)), np.ones((2, 2))])  # most pairs identical: median 0
    with pytest.raises(ValueError, match="identical"):
        median_gamma(X)
