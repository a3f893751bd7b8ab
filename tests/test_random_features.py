"""Random Fourier features: the map's formula, unbiasedness against the exact
kernel, the norm bounds of each variant, determinism, and bad input."""

import numpy as np
import pytest

from kpca_suite.kernels import Kernel, draw_rff


def _data(n=40, d=3, seed=0):
    return np.random.default_rng(seed).standard_normal((n, d)) * 0.7


def test_cos_map_is_the_formula():
    X = _data()
    rff = draw_rff(3, 17, gamma=0.4, random_state=1)
    expected = np.sqrt(2 / 17) * np.cos(X @ rff.omega + rff.phase)
    np.testing.assert_allclose(rff.transform(X), expected, rtol=1e-13, atol=1e-15)


def test_paired_map_is_the_formula_and_has_unit_norm():
    X = _data()
    rff = draw_rff(3, 9, gamma=0.4, variant="paired", random_state=1)
    Z = rff.transform(X)
    P = X @ rff.omega
    np.testing.assert_allclose(Z, np.hstack([np.cos(P), np.sin(P)]) / 3.0, rtol=1e-13, atol=1e-15)
    assert Z.shape == (40, 18) and rff.n_features == 18
    np.testing.assert_allclose(np.linalg.norm(Z, axis=1), 1.0, rtol=1e-13)


@pytest.mark.parametrize("name", ["gaussian", "laplacian"])
@pytest.mark.parametrize("variant", ["cos", "paired"])
def test_average_over_maps_is_unbiased(name, variant):
    # E[Z Z^T] = K: the mean of 200 independent maps with m = 50 has standard
    # error <= sqrt(2 / (200 * 50)) = 0.014 per entry; 6 standard errors bound it.
    X = _data(12)
    K = Kernel(name, gamma=0.5).block(X)
    mean = np.mean([(lambda Z: Z @ Z.T)(draw_rff(3, 50, name, 0.5, variant, random_state=s).transform(X))
                    for s in range(200)], axis=0)
    assert np.abs(mean - K).max() < 6 * np.sqrt(2 / (200 * 50))


def test_wrong_frequency_variance_is_biased():
    # Negative control for the test above: omega ~ N(0, gamma I) (the common slip)
    # estimates exp(-gamma ||x - y||^2 / 2), visibly off the Gaussian kernel.
    X = _data(12)
    K = Kernel("gaussian", gamma=0.5).block(X)
    mean = np.zeros_like(K)
    for s in range(200):
        rff = draw_rff(3, 50, gamma=0.25, random_state=s)  # N(0, 2 * 0.25 I) = N(0, gamma I)
        Z = rff.transform(X)
        mean += Z @ Z.T / 200
    assert np.abs(mean - K).max() > 6 * np.sqrt(2 / (200 * 50))


def test_cos_entries_are_bounded_and_blocks_match_transform():
    X = _data(100)
    rff = draw_rff(3, 64, gamma=2.0, random_state=3)
    Z = rff.transform(X)
    assert np.abs(Z).max() <= np.sqrt(2 / 64) * (1 + 1e-15)
    np.testing.assert_array_equal(np.vstack(list(rff.blocks(X, block_size=7))), Z)


def test_same_seed_same_map():
    a, b = draw_rff(4, 8, "laplacian", 1.5, random_state=5), draw_rff(4, 8, "laplacian", 1.5, random_state=5)
    np.testing.assert_array_equal(a.omega, b.omega)
    np.testing.assert_array_equal(a.phase, b.phase)


@pytest.mark.parametrize("kwargs,match", [
    (dict(d=3, m=0), "m"), (dict(d=0, m=4), "d"), (dict(d=3, m=4, gamma=0.0), "gamma"),
    (dict(d=3, m=4, gamma=-1.0), "gamma"), (dict(d=3, m=4, kernel="cauchy"), "kernel"),
    (dict(d=3, m=4, variant="sin"), "variant"),
])
def test_bad_parameters_name_themselves(kwargs, match):
    with pytest.raises(ValueError, match=match):
        draw_rff(**kwargs)


def test_bad_input_rows():
    rff = draw_rff(3, 4, random_state=0)
    with pytest.raises(ValueError, match="d = 3"):
        rff.transform(np.ones((2, 4)))
    with pytest.raises(ValueError, match="NaN or inf"):
        rff.transform(np.array([[0.0, np.nan, 1.0]]))
    with pytest.raises(ValueError, match="empty"):
        rff.transform(np.ones((0, 3)))
