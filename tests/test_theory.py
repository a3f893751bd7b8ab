"""theory/: the Fourier population model, effective dimensions, the bounds and
rate table of Sterge et al. 2020, and the slope fits.

Measured while writing (kept as evidence for the tolerances):
* log N_C(t) vs log t for lambda_i = i^-2, J = 2^16, t in [1e-6, 1e-3]: slope
  -0.50004 (on [1e-4, 1e-1] it is -0.513: the -1/2 offset of N_C = (pi/2) t^{-1/2} - 1/2).
* N_C(t) - 4 ln(1/t) for tau = 0.25, t in [1e-8, 1e-3]: -0.49..-0.50; slope of
  N_C against ln(1/t): 3.998 vs 1/tau = 4.
"""

import math

import numpy as np
import pytest
from numpy.testing import assert_allclose

from kpca_suite.theory import (FourierModel, Theorem41Conditions, basis_from_coefficients, corollary_t, default_J,
                    effective_dimension, ekpca_bound_eq17, ekpca_population_error, empirical_effective_dimension,
                    exp_effdim_asymptote, exp_grid, fit_line, fit_loglog, max_effective_dimension,
                    nystrom_bound_eq15, octaves, poly_effdim_slope, poly_grid, rate_row, smaller_gram,
                    theorem41_conditions, verdict_from_ci)

MODELS = [FourierModel("poly", 2.0, 64), FourierModel("exp", 0.25)]


def _random_basis(J, ell, rng):
    Q, _ = np.linalg.qr(rng.normal(size=(J, ell)))
    return Q


# -- population model -------------------------------------------------------------------

def test_model_spectrum_and_defaults():
    m = FourierModel("poly", 2.0, 10)
    assert_allclose(m.eigenvalues, 1.0 / np.arange(1, 11) ** 2, rtol=1e-15)
    e = FourierModel("exp", 0.5)
    assert e.J == default_J("exp", 0.5) == FourierModel.default_J("exp", 0.5) == 80
    assert_allclose(e.eigenvalues, np.exp(-0.5 * np.arange(1, 81)), rtol=1e-15)
    assert FourierModel("poly", 3.0).J == 2048
    assert_allclose(FourierModel("poly", 2.0, 100).dropped_mass, np.pi**2 / 6 - (1.0 / np.arange(1, 101) ** 2).sum(),
                    rtol=1e-10)
    assert_allclose(e.dropped_mass, np.exp(-0.5 * np.arange(81, 2000)).sum(), rtol=1e-12)


def test_sample_is_uniform_and_reproducible():
    m = MODELS[0]
    x = m.sample(10_000, 5)
    assert x.shape == (10_000,) and x.min() >= 0 and x.max() < 1
    assert_allclose(x, m.sample(10_000, np.random.default_rng(5)))
    assert abs(x.mean() - 0.5) < 0.02
    assert m.features(x[:3]).shape == (3, m.J)


@pytest.mark.parametrize("model", MODELS)
def test_optimal_projector_error_is_tail(model):
    for ell in (1, 2, 7, model.J - 1):
        Q = np.eye(model.J)[:, :ell]
        assert_allclose(model.reconstruction_error(Q), model.tail(ell), rtol=1e-12)
        assert_allclose(model.tail(ell), model.eigenvalues[ell:].sum(), rtol=1e-15)
    assert model.tail(0) == pytest.approx(model.eigenvalues.sum())
    assert model.reconstruction_error(np.eye(model.J)) == 0.0


@pytest.mark.parametrize("model", MODELS)
def test_population_optimality(model):
    """R(P) >= R_{C,ell} for every rank-ell projector (the top-ell eigenspace of C is optimal)."""
    rng = np.random.default_rng(0)
    for ell in (1, 3, 10):
        for _ in range(20):
            R = model.reconstruction_error(_random_basis(model.J, ell, rng))
            assert R >= model.tail(ell) - 1e-14
    # a basis of the *last* ell coordinates is the worst: R = tr C - sum of the smallest
    Q = np.eye(model.J)[:, -5:]
    assert_allclose(model.reconstruction_error(Q), model.eigenvalues[:-5].sum(), rtol=1e-12)


def test_error_depends_on_span_only():
    model, rng = MODELS[0], np.random.default_rng(1)
    Q = _random_basis(model.J, 4, rng)
    Rot, _ = np.linalg.qr(rng.normal(size=(4, 4)))
    assert_allclose(model.reconstruction_error(Q @ Rot), model.reconstruction_error(Q), rtol=1e-12)


def test_basis_from_coefficients_is_orthonormal():
    """A^T K_SS A = I (EKPCA coefficients on the sample) gives Q^T Q = I."""
    model = MODELS[0]
    Phi = model.features(model.sample(30, 0))
    e, U = np.linalg.eigh(Phi @ Phi.T)
    A = U[:, ::-1][:, :5] / np.sqrt(e[::-1][:5])
    Q = basis_from_coefficients(Phi, A)
    assert Q.shape == (model.J, 5)
    assert_allclose(Q.T @ Q, np.eye(5), atol=1e-10)
    with pytest.raises(ValueError, match="A"):
        basis_from_coefficients(Phi, A[:-1])


@pytest.mark.parametrize("model", MODELS + [FourierModel("poly", 1.5, 9)])
def test_kappa_is_sup_of_diagonal(model):
    x = np.linspace(0, 1, 4001)
    diag = (model.features(x) ** 2).sum(axis=1)
    assert_allclose(model.kappa, diag.max(), rtol=1e-12)
    assert_allclose(model.kappa, diag[0], rtol=1e-12)
    lam = model.eigenvalues
    assert model.kappa == pytest.approx(lam[0] + 2 * lam[1::2].sum())


@pytest.mark.parametrize("zero_mean", [False, True])
def test_sample_gram_is_the_gram_of_the_features(zero_mean):
    """FourierModel.sample_gram (trigonometric moments) is features(x)^T features(x), the
    zero-mean twin's without the constant column; entries up to n = 200, round-off ~1e-13."""
    model = FourierModel("poly", 2.0, 31, zero_mean=zero_mean)
    x = model.sample(200, 0)
    Phi = model.features(x)
    assert model.sample_gram(x).shape == (31, 31)
    assert_allclose(model.sample_gram(x), Phi.T @ Phi, rtol=0, atol=1e-10)


@pytest.mark.parametrize("n", [15, 40])  # n < J: Gram side; n >= J: covariance side
def test_ekpca_population_error_matches_kernel_side(n):
    model = FourierModel("poly", 2.0, 31)
    Phi = model.features(model.sample(n, n))
    K = Phi @ Phi.T
    e, U = np.linalg.eigh(K)
    for ell in (1, 4, 12):
        A = U[:, ::-1][:, :ell] / np.sqrt(e[::-1][:ell])
        ref = model.reconstruction_error(Phi.T @ A)
        got = ekpca_population_error(Phi, ell, model.eigenvalues)
        assert_allclose(got, ref, rtol=1e-8)
        assert ekpca_population_error(Phi, ell, model.eigenvalues, smaller_gram(Phi)) == got
        assert got >= model.tail(ell) - 1e-14
        assert got > model.tail(ell) * (1 + 1e-6)  # a finite sample is not the population optimum


@pytest.mark.parametrize("bad, match", [
    (dict(decay="linear", rate=2.0), "decay"),
    (dict(decay="poly", rate=1.0), "rate"),
    (dict(decay="exp", rate=-0.1), "rate"),
    (dict(decay="exp", rate=float("nan")), "rate"),
    (dict(decay="exp", rate=0.5, J=0), "J"),
])
def test_model_bad_input(bad, match):
    with pytest.raises(ValueError, match=match):
        FourierModel(**bad)


def test_population_bad_input():
    model = MODELS[0]
    with pytest.raises(ValueError, match="ell"):
        model.tail(model.J + 1)
    with pytest.raises(ValueError, match="basis"):
        model.reconstruction_error(np.eye(model.J + 1)[:, :2])
    with pytest.raises(ValueError, match="basis"):
        model.reconstruction_error(2.0 * np.eye(model.J)[:, :2])
    with pytest.raises(ValueError, match="basis"):
        model.reconstruction_error(np.full((model.J, 1), np.nan))
    Phi = model.features(model.sample(20, 0))
    with pytest.raises(ValueError, match="ell"):
        ekpca_population_error(Phi, 21, model.eigenvalues)
    with pytest.raises(ValueError, match="eigenvalues"):
        ekpca_population_error(Phi, 2, model.eigenvalues[:-1])
    with pytest.raises(ValueError, match="eigenvalues"):
        ekpca_population_error(Phi, 2, -model.eigenvalues)
    with pytest.raises(ValueError, match="gram"):
        ekpca_population_error(Phi, 2, model.eigenvalues, Phi.T @ Phi[:, :-1])
    with pytest.raises(ValueError, match="n"):
        model.sample(0)


# -- effective dimension ------------------------------------------------------------------

def test_effective_dimension_direct_sum_and_monotone():
    lam = MODELS[0].eigenvalues
    t = np.geomspace(1e-5, 10, 30)
    N = effective_dimension(lam, t)
    assert N.shape == t.shape
    assert_allclose(N, [sum(li / (li + ti) for li in lam) for ti in t], rtol=1e-12)
    assert (np.diff(N) < 0).all()
    assert (N <= lam.size).all() and (N <= lam.sum() / t).all()
    assert isinstance(effective_dimension(lam, 0.1), float)


def test_poly_effective_dimension_slope():
    """log N_C vs log t has slope -1/alpha (Prop. A.1); measured -0.50004 (module docstring)."""
    lam = FourierModel("poly", 2.0, 1 << 16).eigenvalues
    t = np.geomspace(1e-6, 1e-3, 9)
    slope = np.polyfit(np.log(t), np.log(effective_dimension(lam, t)), 1)[0]
    assert abs(slope - poly_effdim_slope(2.0)) <= 0.05


def test_exp_effective_dimension_asymptote():
    """N_C(t) = (1/tau) ln(1/t) + O(1) (Prop. A.2)."""
    model = FourierModel("exp", 0.25)
    t = np.geomspace(1e-8, 1e-3, 9)
    gap = effective_dimension(model.eigenvalues, t) - exp_effdim_asymptote(0.25, t)
    assert np.ptp(gap) < 0.05 and np.abs(gap).max() < 1


def test_max_effective_dimension():
    model = MODELS[0]
    lam, x = model.eigenvalues, np.linspace(0, 1, 2001)
    Phi = model.features(x)
    for t in (1e-3, 0.1, 1.0):
        direct = ((Phi**2) / (lam + t)).sum(axis=1)
        n_inf = max_effective_dimension(lam, t)
        assert_allclose(n_inf, direct.max(), rtol=1e-12)
        assert n_inf <= model.kappa / t
        assert n_inf >= effective_dimension(lam, t)  # sup >= mean over X
    with pytest.raises(ValueError, match="eigenvalues"):
        max_effective_dimension([1.0, 0.1, 0.5], 0.1)  # sin weight above the cos weight


def test_empirical_effective_dimension_is_leverage_sum():
    model = MODELS[0]
    Phi = model.features(model.sample(200, 3))
    n, K = 200, Phi @ Phi.T
    lhat = np.linalg.eigvalsh(K) / n
    for t in (1e-3, 1e-2):
        lev = np.trace(K @ np.linalg.inv(K + n * t * np.eye(n)))
        assert_allclose(empirical_effective_dimension(lhat, t), lev, rtol=1e-8)
        assert abs(empirical_effective_dimension(lhat, t) / effective_dimension(model.eigenvalues, t) - 1) < 0.1


@pytest.mark.parametrize("t", [0.0, -1.0, np.nan, [0.1, 0.0]])
def test_levels_must_be_positive(t):
    lam = MODELS[0].eigenvalues
    for f in (effective_dimension, max_effective_dimension, empirical_effective_dimension):
        with pytest.raises(ValueError, match="t"):
            f(lam, t)


def test_effective_dimension_bad_eigenvalues():
    with pytest.raises(ValueError, match="eigenvalues"):
        effective_dimension([1.0, -0.1], 0.1)
    with pytest.raises(ValueError, match="alpha"):
        poly_effdim_slope(1.0)


# -- bounds ---------------------------------------------------------------------------------

def test_bound_formulas():
    t = np.array([0.01, 0.1])
    assert_allclose(nystrom_bound_eq15(np.array([3.0, 2.0]), 0.5, t), [3 * (3 + 0.42), 2 * (3 + 4.2)])
    assert_allclose(ekpca_bound_eq17(np.array([3.0, 2.0]), 0.5, t), [27 * 0.51, 18 * 0.6])
    with pytest.raises(ValueError, match="t"):
        nystrom_bound_eq15(1.0, 0.5, 0.0)
    with pytest.raises(ValueError, match="n_c"):
        ekpca_bound_eq17(-1.0, 0.5, 0.1)


def test_bounds_hold_for_ekpca_on_a_sample():
    model = FourierModel("exp", 2.0)
    lam, n, ell = model.eigenvalues, 2000, 3
    Phi = model.features(model.sample(n, 0))
    t = np.geomspace(9 * model.kappa / n * math.log(n / 0.1), lam[0], 20)
    R = ekpca_population_error(Phi, ell, lam)
    assert R <= ekpca_bound_eq17(effective_dimension(lam, t), lam[ell - 1], t).min()


def test_theorem41_conditions():
    model = FourierModel("exp", 2.0)
    lam, kappa = model.eigenvalues, model.kappa
    t, delta = 0.01, 0.1
    n_inf = max_effective_dimension(lam, t)
    ok = theorem41_conditions(10_000, 1000, t, delta, kappa, lam[0], n_inf)
    assert isinstance(ok, Theorem41Conditions) and ok.all
    assert ok.t_low == pytest.approx(9 * kappa / 10_000 * math.log(10_000 / delta))
    assert ok.m_required == pytest.approx(max(67, 5 * n_inf) * math.log(4 * kappa / (t * delta)))
    small = theorem41_conditions(500, 50, t, delta, kappa, lam[0], n_inf)
    assert not small.m_ok and not small.t_ok and not small.all
    assert not theorem41_conditions(3, 1000, t, 2.0, kappa, lam[0], n_inf).n_ok
    with pytest.raises(ValueError, match="delta"):
        theorem41_conditions(100, 10, t, 0.0, kappa, lam[0], n_inf)


def test_corollary_t():
    assert corollary_t(10_000, 0.5) == pytest.approx(0.01)
    assert corollary_t(10_000, 1.0) == pytest.approx(math.log(10_000) / 10_000)
    with pytest.raises(ValueError, match="theta"):
        corollary_t(100, 0.0)


# -- rate table -------------------------------------------------------------------------------

def test_rate_rows():
    r = rate_row("poly", 0.5, 2.0, "uniform")
    assert (r.exponent, r.log_exponent, r.population_exponent) == (-0.25, 0.0, -0.25)
    assert r.ell(4096) == 8 and r.m_required(4096) == math.ceil(64 * math.log(4096))
    assert rate_row("poly", 0.5, 2.0, "als").m_required(4096) == math.ceil(8 * math.log(4096))
    e = rate_row("exp", 0.5, 0.25, "als")
    assert (e.exponent, e.log_exponent, e.population_exponent) == (-0.5, 1.0, -0.5)
    assert e.m_required(5000) == math.ceil(math.log(5000) ** 2)
    hi = rate_row("exp", 1.5, 0.25, "uniform")
    assert (hi.exponent, hi.log_exponent, hi.population_exponent) == (-1.0, 2.0, -1.5)
    L = math.log(10**6)
    assert hi.m_required(10**6) == math.ceil(10**6 / L * math.log(10**6 / L))
    assert rate_row("exp", 1.5, 0.25, "als").m_required(10**6) == math.ceil(L * math.log(10**6 / L))
    p = rate_row("poly", 2.0, 2.0, "als")
    assert p.exponent == pytest.approx(-0.5) and p.log_exponent == pytest.approx(0.5)
    assert p.m_required(10**6) == math.ceil(1000 * L**0.5)
    assert rate_row("poly", 0.9, 2.0).m_required(100) == 100  # capped at n
    with pytest.raises(ValueError, match="sampling"):
        rate_row("poly", 0.5, 2.0, "leverage")


def test_grids_make_ell_integer():
    ells = range(3, 9)
    ns = poly_grid(ells, 2.0, 0.5)
    assert list(ns) == [ell**4 for ell in ells]
    r = rate_row("poly", 0.5, 2.0)
    assert [r.ell(n) for n in ns] == list(ells)
    ns = exp_grid(range(10, 19), 0.25, 0.5)
    assert ns[0] == round(math.exp(5.0))
    e = rate_row("exp", 0.5, 0.25)
    assert [e.ell(n) for n in ns] == list(range(10, 19))
    # rounding n to an integer moves (theta/tau) ln n by at most (theta/tau) 0.5 / n
    assert [(0.5 / 0.25) * math.log(n) for n in ns] == pytest.approx(list(range(10, 19)), abs=1.01 / ns[0])
    with pytest.raises(ValueError, match="ells"):
        poly_grid([0, 1], 2.0, 0.5)
    with pytest.raises(ValueError, match="tau"):
        exp_grid([3], 0.0, 0.5)


# -- slopes -------------------------------------------------------------------------------------

def _planted(slope, seeds=20, noise=0.05, seed=0):
    n = np.array([2.0**k for k in range(7, 14)])
    eps = np.random.default_rng(seed).normal(scale=noise, size=(n.size, seeds))
    return n, 3.0 * n[:, None] ** slope * (1 + eps)


def test_fit_loglog_recovers_planted_slope():
    """20 seeds: the percentile bootstrap over seeds covered the planted slope in
    94% of 300 replications (82% with 5 seeds, 88% with 8: it is anti-conservative
    for few seeds)."""
    n, Y = _planted(-0.5)
    fit = fit_loglog(n, Y, random_state=1)
    assert fit.ci[0] <= -0.5 <= fit.ci[1] and fit.ci[1] - fit.ci[0] < 0.05
    assert abs(fit.slope + 0.5) < 0.02 and abs(math.exp(fit.intercept) - 3) < 0.3
    assert_allclose(fit.mean, Y.mean(axis=1))
    assert verdict_from_ci(fit.ci, (-0.55, -0.45)) == "holds"
    again = fit_loglog(n, Y, random_state=1)
    assert again.ci == fit.ci


def test_fit_loglog_planted_wrong_slope_fails():
    n, Y = _planted(-0.2)
    assert verdict_from_ci(fit_loglog(n, Y).ci, (-0.55, -0.45)) == "fails"


def test_fit_loglog_missing_seeds():
    n, Y = _planted(-0.5, seeds=6)
    Y[2, 1] = Y[5, 3] = np.nan
    fit = fit_loglog(n, Y)
    assert_allclose(fit.mean, np.nanmean(Y, axis=1))
    assert np.isfinite(fit.ci).all() and fit.ci[0] <= -0.5 <= fit.ci[1]


def test_fit_line_and_noise_widens_ci():
    x = np.linspace(0, 10, 6)
    Y = 4.0 * x[:, None] - 0.5 + np.random.default_rng(0).normal(scale=0.1, size=(6, 5))
    fit = fit_line(x, Y)
    assert fit.ci[0] <= 4.0 <= fit.ci[1] and abs(fit.intercept + 0.5) < 0.2
    n, Yn = _planted(-0.5, noise=0.2)
    assert np.ptp(fit_loglog(n, Yn).ci) > np.ptp(fit_loglog(*_planted(-0.5)).ci)


@pytest.mark.parametrize("ci, band, want", [
    ((-0.52, -0.48), (-0.55, -0.45), "holds"),
    ((-0.3, -0.2), (-0.55, -0.45), "fails"),
    ((-0.7, -0.6), (-0.55, -0.45), "fails"),
    ((-0.5, -0.4), (-0.55, -0.45), "inconclusive"),
    ((-0.6, -0.3), (-0.55, -0.45), "inconclusive"),
    ((0.2, 0.3), (0.1, np.inf), "holds"),
    ((-1.0, 0.0), (-np.inf, 0.05), "holds"),
    ((np.nan, 0.0), (-1.0, 1.0), "inconclusive"),
])
def test_verdict_from_ci(ci, band, want):
    assert verdict_from_ci(ci, band) == want


def test_octaves():
    assert octaves([256, 4096, 1024]) == pytest.approx(4.0)
    with pytest.raises(ValueError, match="x"):
        octaves([0, 4])


@pytest.mark.parametrize("x, Y, match", [
    ([1.0, np.nan, 4.0], np.ones((3, 2)), "x"),
    ([1.0, 1.0], np.ones((2, 2)), "x"),
    ([1.0, 2.0, 4.0], np.ones((2, 2)), "Y"),
    ([1.0, 2.0, 4.0], np.ones((3, 2, 1)), "Y"),
    ([1.0, 2.0, 4.0], [[1.0], [0.0], [1.0]], "Y"),
    ([1.0, 2.0, 4.0], [[1.0], [np.inf], [1.0]], "Y"),
    ([1.0, 2.0, 4.0], [[1.0, 1.0], [np.nan, np.nan], [1.0, 1.0]], "Y"),
    ([-1.0, 2.0, 4.0], np.ones((3, 2)), "x"),
])
def test_fit_bad_input(x, Y, match):
    with pytest.raises(ValueError, match=match):
        fit_loglog(x, Y)


def test_verdict_bad_band():
    with pytest.raises(ValueError, match="band"):
        verdict_from_ci((0.0, 1.0), (1.0, 0.0))


@pytest.mark.parametrize("k", [3, 40])  # Lanczos branch (k < size / 10) and LAPACK subset branch
def test_top_eigh_matches_full_eigh(k):
    from kpca_suite.theory.population import top_eigh
    B = np.random.default_rng(4).standard_normal((300, 120))
    S = B.T @ B
    e, V = top_eigh(S, k)
    e_ref, V_ref = np.linalg.eigh(S)
    np.testing.assert_allclose(e, e_ref[::-1][:k], rtol=1e-12)
    np.testing.assert_allclose(V @ V.T, V_ref[:, -k:] @ V_ref[:, -k:].T, atol=1e-10)


def test_loglog_line_recovers_a_power_law_and_rejects_bad_input():
    from kpca_suite.theory import loglog_line
    n = np.array([10.0, 100.0, 1000.0])
    slope, intercept = loglog_line(n, 3.0 * n**-0.5)
    assert slope == pytest.approx(-0.5, abs=1e-12) and intercept == pytest.approx(np.log(3.0), abs=1e-12)
    with pytest.raises(ValueError, match="positive"):
        loglog_line(n, [1.0, 0.0, 1.0])
    with pytest.raises(ValueError, match="1-D"):
        loglog_line(n, [1.0, 2.0])


@pytest.mark.parametrize("m", [1, 2, 3, 17, 40, 41, 533, 1485])
def test_smallest_n_inverts_a_budget_rule_like_a_linear_scan(m):
    """smallest_n against a plain scan of n = 2, 3, ...: the first n whose budget
    ceil(sqrt(n) ln n) reaches m."""
    from kpca_suite.theory import smallest_n

    def rule(n):
        return math.ceil(math.sqrt(n) * math.log(n))

    n = 2
    while rule(n) < m:
        n += 1
    assert smallest_n(rule, m) == n
    with pytest.raises(ValueError, match="m must be > 0"):
        smallest_n(rule, 0)


@pytest.mark.parametrize("decay,rate,J", [("poly", 2.0, 64), ("exp", 0.25, None), ("exp", 2.0, 9)])
def test_zero_mean_twin_has_mean_zero_and_the_same_covariance(decay, rate, J):
    """On an equispaced grid of N > 2 * (highest frequency) points, means and second
    moments of trigonometric polynomials are exact: the twin's mean feature row is 0,
    its covariance diag(lambda) (centred and uncentred alike), and kappa the sup of
    k(x, x); the plain model's mean is sqrt(lambda_1) e_1."""
    twin, plain = FourierModel(decay, rate, J, zero_mean=True), FourierModel(decay, rate, J)
    x = np.arange(4 * twin.J + 8) / (4 * twin.J + 8)
    Phi = twin.features(x)
    assert Phi.shape == (len(x), twin.J)
    np.testing.assert_allclose(Phi.mean(axis=0), 0.0, atol=1e-13)
    np.testing.assert_allclose(Phi.T @ Phi / len(x), np.diag(twin.eigenvalues), atol=1e-13)
    assert twin.kappa == pytest.approx(float(np.max(np.sum(Phi**2, axis=1))), rel=1e-12)
    mean = plain.features(x).mean(axis=0)
    assert mean[0] == pytest.approx(np.sqrt(plain.eigenvalues[0])) and np.allclose(mean[1:], 0.0, atol=1e-13)
    assert np.array_equal(plain.basis_weights, plain.eigenvalues)
    with pytest.raises(TypeError, match="zero_mean"):
        FourierModel(decay, rate, J, zero_mean="yes")
