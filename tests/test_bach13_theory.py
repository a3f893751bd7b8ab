"""kernels/periodic.py, theory/periodic.py, theory/dof.py, theory/table1.py (Bach 2013), and the
printed Bernoulli kernel of the planted fault."""

import math

import numpy as np
import pytest
from numpy.testing import assert_allclose

from kpca_suite.kernels import Kernel, KernelLike
from kpca_suite.kernels.periodic import PeriodicKernel, bernoulli_polynomial
from kpca_suite.suites.papers.bach13.dof import LiteralBernoulliKernel
from kpca_suite.theory.dof import dof_circulant, dof_from_eigh, krr_risk, optimal_lambda, smoother_risk
from kpca_suite.theory.periodic import grid_design, grid_energy, grid_spectrum, periodic_signal, uniform_design
from kpca_suite.theory.table1 import eq6_rank, lemma_b1_bound, reference_slope, table1_line

T = np.linspace(0.0, 1.0, 201)
I_MAX = 20000


def _series(mu, t):
    i = np.arange(1, I_MAX + 1)
    return (2 * mu(i)[None, :] * np.cos(2 * np.pi * np.outer(t, i))).sum(axis=1)


def test_bernoulli_polynomials():
    assert_allclose(bernoulli_polynomial(2, T), T**2 - T + 1 / 6, atol=1e-15)
    assert_allclose(bernoulli_polynomial(6, T), T**6 - 3 * T**5 + 2.5 * T**4 - 0.5 * T**2 + 1 / 42, atol=1e-14)


@pytest.mark.parametrize("beta", [1, 2, 3, 4])
def test_corrected_bernoulli_kernel_matches_the_cosine_series(beta):
    """Truncation error of the series: sum_{i > N} 2 i^-2beta <= 2 N^(1-2beta) / (2 beta - 1)."""
    k = PeriodicKernel("poly", beta)
    tail = 2 * I_MAX ** (1 - 2 * beta) / (2 * beta - 1)
    assert_allclose(k.of_difference(T), _series(k.mu, T), atol=tail + 1e-12)
    assert k.sup_diag() == pytest.approx(float(k.of_difference(0.0)), rel=1e-10)  # Horner round-off ~2e-12
    assert PeriodicKernel("poly", 1).sup_diag() == pytest.approx(math.pi**2 / 3)   # 2 zeta(2)
    assert PeriodicKernel("poly", 2).sup_diag() == pytest.approx(math.pi**4 / 45)  # 2 zeta(4)


def test_exponential_kernel_matches_the_cosine_series():
    k = PeriodicKernel("exp", 0.7)
    assert_allclose(k.of_difference(T), _series(k.mu, T), atol=1e-13)
    assert k.sup_diag() == pytest.approx(2 / math.expm1(0.7))


@pytest.mark.parametrize("kernel", [PeriodicKernel("poly", 1), PeriodicKernel("poly", 2), PeriodicKernel("poly", 4),
                                    PeriodicKernel("exp", 1.0)])
def test_corrected_kernels_are_psd(kernel):
    X = uniform_design(150, 0)
    e = np.linalg.eigvalsh(kernel.block(X))
    assert e.min() >= -1e-10 * e.max()


@pytest.mark.parametrize("beta", [2, 4])
def test_the_papers_literal_bernoulli_kernel_is_not_psd_for_even_beta(beta):
    """B_{2 beta}(t) / (2 beta)! = -(2 pi)^(-2 beta) x the series for even beta: negative semidefinite."""
    lit, good = LiteralBernoulliKernel("poly", beta), PeriodicKernel("poly", beta)
    X = uniform_design(100, 1)
    e = np.linalg.eigvalsh(lit.block(X))
    assert e.min() < -1e-6 * np.abs(e).max() and e.max() <= 1e-10 * np.abs(e).max()
    assert_allclose(lit.of_difference(T), -(2 * np.pi) ** (-2 * beta) * good.of_difference(T), rtol=1e-9, atol=1e-15)


def test_literal_formula_for_odd_beta_is_psd_but_rescaled():
    lit, good = LiteralBernoulliKernel("poly", 1), PeriodicKernel("poly", 1)
    assert_allclose(lit.of_difference(T), good.of_difference(T) / (2 * np.pi) ** 2, rtol=1e-12, atol=1e-15)


def test_the_literal_kernel_reports_its_scaled_spectrum():
    lit = LiteralBernoulliKernel("poly", 2)
    assert lit.sup_diag() == pytest.approx(float(lit.of_difference(0.0)), rel=1e-10)
    assert lit.mu(3) == pytest.approx(-(2 * np.pi) ** -4 * 3.0**-4)


def test_periodic_and_euclidean_kernels_share_the_kernel_protocol():
    assert isinstance(PeriodicKernel("exp", 1.0), KernelLike) and isinstance(Kernel("gaussian"), KernelLike)
    assert not isinstance(np.eye(2), KernelLike)


def test_signal_closed_form_is_the_series():
    x = T[:, None]
    # nu_i = i^-4 (delta = 2): 2 nu_i^(1/2) = 2 i^-2; nu_i = e^(-1.5 i): 2 e^(-0.75 i)
    assert_allclose(periodic_signal(x, "poly", 2), _series(lambda i: i**-2.0, T), atol=2 / I_MAX + 1e-12)
    assert_allclose(periodic_signal(x, "exp", 1.5), _series(lambda i: np.exp(-0.75 * i), T), atol=1e-12)
    with pytest.raises(ValueError, match="even integer"):
        periodic_signal(x, "poly", 3)


def test_circulant_spectrum_is_the_aliasing_formula_and_the_eigh_spectrum():
    """e_k = n mu_k + n sum_{h >= 1} (mu_{k + h n} + mu_{-k + h n}) (App. D); n = 64, beta = 1:
    e_1 = 64.0514."""
    n, k = 64, PeriodicKernel("poly", 1)
    e = grid_spectrum(k, n)
    h = np.arange(1, 200000)
    for f in (1, 2, 5):
        alias = n * (f**-2.0 + np.sum((f + h * n) ** -2.0) + np.sum((-f + h * n) ** -2.0))
        # the alias sums are truncated at H = 2e5: tail ~ 2 n (H n)^-1 / n = 2 / (H n) ~ 2e-7
        assert e[f] == pytest.approx(alias, abs=5e-7) and e[n - f] == pytest.approx(alias, abs=5e-7)
    assert e[1] == pytest.approx(64.0514, abs=1e-4)
    assert_allclose(np.sort(e), np.linalg.eigvalsh(k.block(grid_design(n))), atol=1e-10)


def test_degrees_of_freedom_chain_and_grid_equality():
    """d_ave <= df1 <= d <= n R^2 / (R^2 + n lambda); on the grid d == df1 (eigh) and the FFT agrees."""
    k = PeriodicKernel("poly", 1)
    lam = np.geomspace(1e-5, 1e-1, 7)
    X = uniform_design(120, 3)
    K = k.block(X)
    e, U = np.linalg.eigh(K)
    dof = dof_from_eigh(e, U, lam)
    for j, lv in enumerate(lam):  # the definitions, from explicit matrices
        H = K @ np.linalg.inv(K + 120 * lv * np.eye(120))
        assert dof.df1[j] == pytest.approx(np.trace(H), rel=1e-8)
        assert dof.d_ave[j] == pytest.approx(np.trace(H @ H), rel=1e-8)
        assert dof.d[j] == pytest.approx(120 * np.diag(H).max(), rel=1e-8)
    R2 = k.sup_diag()
    assert np.all(dof.d_ave <= dof.df1) and np.all(dof.df1 <= dof.d)
    assert np.all(dof.d <= 120 * R2 / (R2 + 120 * lam))
    eg, Ug = np.linalg.eigh(k.block(grid_design(128)))
    g = dof_from_eigh(eg, Ug, lam)
    assert_allclose(g.d, g.df1, rtol=1e-10)
    fft = dof_circulant(grid_spectrum(k, 128), lam)
    assert_allclose(fft.df1, g.df1, rtol=1e-10)
    assert_allclose(fft.d_ave, g.d_ave, rtol=1e-10)


def test_exact_risk_formulas_agree_and_match_monte_carlo():
    """krr_risk (spectral) == smoother_risk (any S) == the section 1F forms; Monte Carlo within 4 SE."""
    rng = np.random.default_rng(0)
    n, lam, sigma2 = 60, 1e-3, 0.5
    X = uniform_design(n, rng)
    K = PeriodicKernel("poly", 1).block(X)
    z = periodic_signal(X, "poly", 2)
    e, U = np.linalg.eigh(K)
    b, v = krr_risk(e, (U.T @ z) ** 2, n, lam, sigma2)
    Minv = np.linalg.inv(K + n * lam * np.eye(n))
    S = K @ Minv
    assert b == pytest.approx(n * lam**2 * z @ Minv @ Minv @ z, rel=1e-8)
    assert v == pytest.approx(sigma2 / n * np.trace(S @ S), rel=1e-8)
    assert_allclose(smoother_risk(S, z, sigma2), (b, v), rtol=1e-8)
    assert_allclose(smoother_risk(S, z, sigma2 * np.eye(n)), (b, v), rtol=1e-8)
    eps = rng.normal(scale=math.sqrt(sigma2), size=(n, 20000))
    loss = ((S @ (z[:, None] + eps) - z[:, None]) ** 2).mean(axis=0)
    assert abs(loss.mean() - (b + v)) <= 4 * loss.std() / math.sqrt(loss.size)


def test_variance_of_nystrom_never_exceeds_full():
    """variance(L) <= variance(K) for every column set (C = sigma^2 I). bias(L) >= bias(K) is NOT
    a theorem (the proof assumes t -> t^-2 operator monotone; it fails in 20 of 3000 random 8 x 8
    instances), so it is never asserted."""
    n, lam = 40, 1e-3
    for seed in range(30):
        rng = np.random.default_rng(seed)
        X = uniform_design(n, rng)
        K = PeriodicKernel("poly", 1).block(X)
        z = periodic_signal(X, "poly", 2)
        idx = rng.choice(n, 6, replace=False)
        L = K[:, idx] @ np.linalg.pinv(K[np.ix_(idx, idx)]) @ K[idx]
        eK, UK = np.linalg.eigh(K)
        eL, UL = np.linalg.eigh(L)
        _, vK = krr_risk(eK, (UK.T @ z) ** 2, n, lam, 1.0)
        _, vL = krr_risk(np.clip(eL, 0, None), (UL.T @ z) ** 2, n, lam, 1.0)
        assert vL <= vK * (1 + 1e-12)


def test_optimal_lambda_is_the_minimum():
    n = 256
    k = PeriodicKernel("poly", 1)
    e, c = grid_spectrum(k, n), grid_energy(periodic_signal(grid_design(n), "poly", 2))
    lam, risk = optimal_lambda(np.clip(e, 0, None), c, n, 1.0)
    grid = np.geomspace(lam / 3, lam * 3, 41)
    b, v = krr_risk(np.clip(e, 0, None), c, n, grid, 1.0)
    assert risk <= (b + v).min() * (1 + 1e-9)
    with pytest.raises(ValueError, match="widen"):
        optimal_lambda(np.clip(e, 0, None), c, n, 1.0, log10_range=(-1.0, 2.0))


@pytest.mark.parametrize("chunk", [1, 256 * 7, 256 * 1000])
def test_optimal_lambda_grid_in_chunks_is_the_same(monkeypatch, chunk):
    """The grid evaluated one level, 7 levels or every level at a time (RISK_CHUNK values per
    array, n = 256 eigenvalues): the same lambda* and risk, bit for bit."""
    from kpca_suite.theory import dof

    n = 256
    e = np.clip(grid_spectrum(PeriodicKernel("poly", 1), n), 0, None)
    c = grid_energy(periodic_signal(grid_design(n), "poly", 2))
    monkeypatch.setattr(dof, "RISK_CHUNK", 1 << 30)
    whole = optimal_lambda(e, c, n, 1.0)
    monkeypatch.setattr(dof, "RISK_CHUNK", chunk)
    assert optimal_lambda(e, c, n, 1.0) == whole


def test_table1_lines():
    """The lines of the paper's Table 1 for the Figure 2 and Section 4.3 cases."""
    assert table1_line("poly", 1, "poly", 8).line == 1      # Fig. 2, beta = 1, delta = 8
    l2 = table1_line("poly", 4, "poly", 8)                  # Fig. 2, beta = 4: 16 < 17, line 2
    assert l2.line == 2 and l2.lam == (-0.5, 0) and l2.d_ave == (1 / 16, 0)
    l1 = table1_line("poly", 1, "poly", 4)
    assert l1.lam[0] == pytest.approx(-0.4) and l1.risk[0] == pytest.approx(-0.8) and l1.d_ave[0] == pytest.approx(0.2)
    assert table1_line("poly", 1, "exp", 1).line == 3
    assert table1_line("exp", 1, "poly", 2).line == 4 and table1_line("exp", 1, "poly", 2).lam is None
    assert table1_line("exp", 0.5, "exp", 2).lam == (-0.5, 0)
    l6 = table1_line("exp", 1, "exp", 1.5)
    assert l6.line == 6 and l6.lam[0] == pytest.approx(-2 / 3) and l6.risk == (-1, 1)
    with pytest.raises(ValueError, match="boundary"):
        table1_line("poly", 1, "poly", 2.5)
    with pytest.raises(ValueError, match="boundary"):
        table1_line("exp", 1, "exp", 2)
    ns = [2**k for k in range(8, 14)]
    assert reference_slope((-0.5, 0), ns) == pytest.approx(-0.5)
    assert -1 < reference_slope((-1, 1), ns) < -0.8  # log n / n looks shallower than 1/n


def test_eq6_is_the_papers_formula_and_vacuous_at_a_worked_example():
    """d = 52, R^2 = pi^2/3, lambda = 4.6e-3, n = 3200, delta = 1/4 gives p >= 1.07e5 >> n."""
    p = eq6_rank(52, 3200, math.pi**2 / 3, 4.6e-3, 0.25)
    assert p == pytest.approx((32 * 52 / 0.25 + 2) * math.log(3200 * math.pi**2 / 3 / (0.25 * 4.6e-3)))
    assert 1.06e5 < p < 1.08e5
    with pytest.raises(ValueError, match="delta"):
        eq6_rank(52, 3200, 1.0, 1e-3, 1.5)


def test_lemma_b1_bound():
    t = np.linspace(0.05, 1, 20)
    b = lemma_b1_bound(t, 200, 40, 0.8, 5.0)
    assert np.all(np.diff(b) <= 0) and b.max() <= 1
    assert b[-1] == pytest.approx(40 * math.exp(-(200 / 2) / (0.8 * (5 + 1 / 3))))


@pytest.mark.parametrize("call,match", [
    (lambda: dof_circulant(np.ones(4), 0.0), "lam must be > 0"),
    (lambda: dof_circulant(np.ones(4), -1.0), "lam must be > 0"),
    (lambda: dof_circulant(np.array([1.0, -1.0]), 1.0), "PSD"),
    (lambda: krr_risk(np.ones(3), np.ones(2), 3, 1.0, 1.0), "energy"),
    (lambda: krr_risk(np.ones(3), np.ones(3), 3, 1.0, -1.0), "sigma2"),
    (lambda: smoother_risk(np.eye(3), np.ones(4), 1.0), "S must have shape"),
    (lambda: smoother_risk(np.eye(3), np.array([1.0, np.nan, 0]), 1.0), "z contains NaN"),
    (lambda: PeriodicKernel("poly", 1.5), "integer"),
    (lambda: PeriodicKernel("exp", 0.0), "rho"),
    (lambda: LiteralBernoulliKernel("exp", 1.0), "poly"),
    (lambda: PeriodicKernel("gauss", 1), "decay"),
    (lambda: PeriodicKernel("poly", 1).block(np.zeros((3, 2))), "one column"),
])
def test_theory_bad_input(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()
