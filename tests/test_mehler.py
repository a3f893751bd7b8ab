"""The Mehler oracle (theory/mehler.py): closed-form eigenpairs of the Gaussian
kernel under Gaussian data, checked against quadrature, against eig(K/n) and
against independent closed forms."""

import numpy as np
import pytest
from scipy.linalg import eigh

from kpca_suite.kernels import Kernel, draw_rff
from kpca_suite.theory.mehler import (MehlerModel, gauss_hermite, mehler_constants, mehler_eigenfunctions,
                           mehler_eigenvalues)

GAMMA = 1.0 / (2 * 0.7**2)  # bandwidth l = 0.7 on N(0, 1) data


def _nystrom_quadrature_eigs(model):
    """Eigenvalues of W^{1/2} K W^{1/2} on the Gauss-Hermite grid (an independent route)."""
    x, w = model.quadrature()
    K = Kernel("gaussian", model.gamma).block(x, x)
    sw = np.sqrt(w)
    return np.linalg.eigvalsh(sw[:, None] * K * sw)[::-1]


def test_eigenvalues_match_a_hand_computation():
    # lambda_j = sqrt(2a/A) B^j computed by hand for s = 1, l = 0.7: 0.49664, 0.24999, 0.12584, 0.06334
    lam = mehler_eigenvalues(GAMMA, 1.0, 4)
    np.testing.assert_allclose(lam, [0.49664, 0.24999, 0.12584, 0.06334], atol=6e-6)
    a, b, c, A, B = mehler_constants(GAMMA, 1.0)
    assert a == 0.25 and b == GAMMA and np.isclose(c * c, a * a + 2 * a * b) and np.isclose(B, b / A)


@pytest.mark.parametrize("gamma, var", [(GAMMA, 1.0), (0.1, 3.0), (4.0, 0.5)])
def test_eigenvalues_match_quadrature(gamma, var):
    model = MehlerModel(gamma, (var,), n_nodes=150)
    e = _nystrom_quadrature_eigs(model)
    np.testing.assert_allclose(e[:15], mehler_eigenvalues(gamma, var, 15), rtol=1e-8, atol=1e-13)


def test_eigenvalues_match_the_empirical_gram_spectrum():
    # eig(K/n) at n = 1000 against the closed form. Spread measured over seeds
    # 0..19: max relative deviation of the top 4 was 0.051, 0.042, 0.039, 0.081,
    # so 0.12 is the tolerance for one seed.
    n = 1000
    x = np.random.default_rng(3).standard_normal((n, 1))
    e = eigh(Kernel("gaussian", GAMMA).block(x, x) / n, eigvals_only=True, subset_by_index=[n - 4, n - 1])[::-1]
    lam = mehler_eigenvalues(GAMMA, 1.0, 4)
    assert np.all(np.abs(e - lam) / lam < 0.12)
    # negative control: the (x-y)^2/(2 l^2) convention mixed up (gamma read as
    # 1/l^2): relative deviations 0.29, 0.05, 0.14, 0.30 on this sample
    wrong = mehler_eigenvalues(1.0 / 0.7**2, 1.0, 4)
    assert np.any(np.abs(e - wrong) / wrong > 0.2)


def test_eigenfunctions_are_orthonormal_eigenfunctions():
    model = MehlerModel(GAMMA, (1.0,), n_nodes=150)
    x, w = model.quadrature()
    x = x[:, 0]
    P = mehler_eigenfunctions(x, GAMMA, 1.0, 12)
    np.testing.assert_allclose((P * w[:, None]).T @ P, np.eye(12), atol=1e-12)
    # (L phi_j)(y) = int k(x, y) phi_j(x) d rho(x) = lambda_j phi_j(y) at off-grid points y
    y = np.linspace(-2.5, 2.5, 7)
    LP = Kernel("gaussian", GAMMA).block(y[:, None], x[:, None]) @ (P * w[:, None])
    np.testing.assert_allclose(LP, mehler_eigenfunctions(y, GAMMA, 1.0, 12) * mehler_eigenvalues(GAMMA, 1.0, 12),
                               atol=1e-12)


def test_anisotropic_product_model():
    model = MehlerModel(0.5, (1.0, 0.3), n_nodes=60)
    lam = model.eigenvalues
    assert np.all(np.diff(lam) <= 0) and model.dropped_mass < 1e-12
    # leading eigenvalues distinct (relative gaps), unlike the isotropic model
    assert np.min(-np.diff(lam[:11]) / lam[1:11]) > 0.05
    iso = MehlerModel(0.5, (1.0, 1.0), n_nodes=20)
    assert np.isclose(iso.eigenvalues[1], iso.eigenvalues[2])
    # a 30 x 30 grid (900 nodes) reproduces the top 20 to 2.3e-5 (1.1e-8 with 40 x 40)
    np.testing.assert_allclose(_nystrom_quadrature_eigs(MehlerModel(0.5, (1.0, 0.3), n_nodes=30))[:20], lam[:20],
                               rtol=1e-4)
    x, w = model.quadrature()
    P = model.eigenfunctions(x, 20)
    np.testing.assert_allclose((P * w[:, None]).T @ P, np.eye(20), atol=1e-10)


def test_feature_population_against_closed_forms():
    """C = E[z z^T] for cos features has the closed form
    (1/m)[cos(b_i - b_j) e^{-(w_i - w_j)^2 s^2 / 2} + cos(b_i + b_j) e^{-(w_i + w_j)^2 s^2 / 2}];
    M = E[z(x) k(x, y) z(y)^T] is checked by a direct double quadrature."""
    s2 = 1.3
    model = MehlerModel(GAMMA, (s2,), n_nodes=120)
    fmap = draw_rff(1, 40, "gaussian", GAMMA, "cos", random_state=0)
    pop = model.feature_population(fmap.transform)
    w, b = fmap.omega[0], fmap.phase
    C = (np.cos(b[:, None] - b) * np.exp(-(w[:, None] - w) ** 2 * s2 / 2)
         + np.cos(b[:, None] + b) * np.exp(-(w[:, None] + w) ** 2 * s2 / 2)) / 40
    np.testing.assert_allclose(pop.C, C, atol=1e-13)
    x, q = model.quadrature()
    Zq = fmap.transform(x) * q[:, None]
    np.testing.assert_allclose(pop.M, Zq.T @ Kernel("gaussian", GAMMA).block(x, x) @ Zq, atol=1e-12)


@pytest.mark.parametrize("m", [40, 300])
def test_feature_spectrum_is_the_spectrum_of_the_population_covariance(m):
    """feature_spectrum (an SVD of the weighted features at the nodes) against eigvalsh of
    feature_population's C, with fewer features than the 120 nodes and more (then the rest are
    0): within 100 eps lambda_1 (observed at most 1.4e-15 relative, m = 55..816)."""
    model = MehlerModel(GAMMA, (1.3,), n_nodes=120)
    fmap = draw_rff(1, m, "gaussian", GAMMA, "cos", random_state=1)
    spectrum = model.feature_spectrum(fmap.transform)
    ref = np.linalg.eigvalsh(model.feature_population(fmap.transform).C)[::-1]
    assert spectrum.shape == (m,)
    np.testing.assert_allclose(spectrum, ref, rtol=0, atol=100 * np.finfo(float).eps * ref[0])


def test_gauss_hermite_moments():
    x, w = gauss_hermite(2.0, 30)
    assert np.isclose(w.sum(), 1.0) and np.isclose(w @ x**2, 2.0) and np.isclose(w @ x**4, 12.0)


def test_bad_input():
    with pytest.raises(ValueError, match="gamma"):
        mehler_eigenvalues(0.0, 1.0, 3)
    with pytest.raises(ValueError, match="data_var"):
        mehler_eigenvalues(1.0, -1.0, 3)
    with pytest.raises(ValueError, match="count"):
        mehler_eigenvalues(1.0, 1.0, 0)
    with pytest.raises(ValueError, match="data_vars"):
        MehlerModel(1.0, (1.0, 0.0))
    with pytest.raises(ValueError, match="columns"):
        MehlerModel(1.0, (1.0,)).eigenfunctions(np.zeros((3, 2)))


# -- the centred operator -------------------------------------------------------------

def test_centred_spectrum_against_a_large_sample_centred_gram():
    """An independent route: eig(H K H / n) of n = 3000 draws (H = I - 1 1^T / n)
    estimates the centred operator's eigenvalues with an O(n^-1/2) error (Corollary
    6.1 of Hallgren 2021 bounds it by sqrt(2 delta / n), 0.058 at delta = 5); the
    quadrature's are within 0.01 of it, and a second quadrature order agrees to 1e-12 on
    the top 20 (eigenvalues down to 3e-7; measured 2.6e-13)."""
    model = MehlerModel(GAMMA, (1.0,), n_nodes=100)
    lam, U = model.centred_spectrum()
    x = np.random.default_rng(0).standard_normal((3000, 1))
    K = Kernel("gaussian", GAMMA).block(x, x)
    Kc = K - K.mean(axis=0) - K.mean(axis=1)[:, None] + K.mean()
    emp = eigh(Kc / len(x), eigvals_only=True)[::-1]
    np.testing.assert_allclose(lam[:8], emp[:8], atol=0.01)
    np.testing.assert_allclose(MehlerModel(GAMMA, (1.0,), n_nodes=160).centred_spectrum()[0][:20], lam[:20],
                               atol=1e-12)
    # tr Sigma = E k(x, x) - E k(x, y) = 1 - 1 / sqrt(1 + 4 gamma s^2) in closed form (x - y ~ N(0, 2 s^2))
    assert lam.sum() == pytest.approx(1 - 1 / np.sqrt(1 + 4 * GAMMA), rel=1e-12)
    # the odd Hermite eigenfunctions have mean zero: centring keeps each odd Mehler eigenvalue
    for odd in model.eigenvalues[1:12:2]:
        assert np.min(np.abs(lam - odd)) <= 1e-12 * model.eigenvalues[0]


def test_centred_population_reads_the_top_centred_eigenfunctions_as_optimal():
    """J = tr(C^{-1} M) of the centred population equals the centred optimum for the
    top-k centred eigenfunctions (evaluated at the nodes), falls below it for any
    other span, and falls further when the scores keep a mean (C is the second moment
    about 0)."""
    model = MehlerModel(GAMMA, (1.0,), n_nodes=100)
    nodes, w = model.quadrature()
    lam, U = model.centred_spectrum()
    psi = U / np.sqrt(w)[:, None]  # the centred eigenfunctions at the nodes

    def at_nodes(values):
        def features(X):
            assert X.shape == nodes.shape and np.array_equal(X, nodes)
            return values
        return features

    def J(values):
        pop = model.centred_feature_population(at_nodes(values))
        return float(np.trace(np.linalg.solve(pop.C, pop.M)))

    opt = model.centred_optimum(3)
    assert J(psi[:, :3]) == pytest.approx(opt, rel=1e-10)
    assert J(psi[:, :3] @ np.random.default_rng(1).standard_normal((3, 3))) == pytest.approx(opt, rel=1e-10)
    assert J(psi[:, [0, 1, 3]]) == pytest.approx(opt - lam[2] + lam[3], rel=1e-10)
    assert J(psi[:, :3] + 0.5) < opt - 1e-3
