"""bach13 paper module: the claim ids, the helpers the experiments rely on, and what the
report must say beyond the verdict (tests/test_claims.py runs every claim at ci and every
declared planted fault)."""

import numpy as np
import pytest

import kpca_suite.suites.papers.bach13 as b13
from kpca_suite.suites.papers.bach13 import _common as b13_common
from kpca_suite.suites.papers.bach13 import bounds as b13_bounds
from kpca_suite.suites.papers.bach13 import dof as b13_dof
from kpca_suite.suites.papers.bach13 import fig2 as b13_fig2
from kpca_suite.suites.papers.bach13 import pivoting as b13_pivoting
from kpca_suite.suites.papers.bach13 import rank as b13_rank
from kpca_suite.kernels.cholesky import incomplete_cholesky
from kpca_suite.kernels.periodic import PeriodicKernel
from kpca_suite.methods import KernelRidge, NystromKRR
from kpca_suite.suites.adapters import ours_nystrom_krr, sklearn_kernel_ridge
from kpca_suite.suites.claim import Cell, Result
from kpca_suite.theory.dof import krr_risk, smoother_risk
from kpca_suite.theory.periodic import periodic_signal, uniform_design
import tests.external_estimators as ext
from tests.claims import run_claim

CLAIM_IDS = {"bach13." + s for s in ("dof-identities", "dof-decay", "table1", "rank-rule", "rank-rule-gaussian", "pivoting", "fig1",
                                     "lemmaB1", "eq6", "fig2-rates", "bias-decay", "d-vs-dave", "krr-cost")}


def test_claim_ids_are_unchanged():
    assert {c.id for c in b13.CLAIMS} == CLAIM_IDS


def test_eq6_report_says_plainly_that_eq6_is_vacuous():
    verdict = run_claim("bach13.eq6")
    assert verdict.status == "holds", verdict.summary
    assert "VACUOUS" in verdict.summary and "not tested" in verdict.summary
    assert verdict.measured["p6_over_n_min_testable"] > 1 and verdict.measured["first_nonvacuous_n"] > 4096


def test_nystrom_regularised_with_lambda_fails_on_its_smoother():
    verdict = run_claim("bach13.dof-identities", fault="lambda-not-n-lambda")
    assert verdict.status == "fails" and "smoother_L" in verdict.summary, verdict.summary


def test_unorthogonalised_factor_breaks_l_below_k():
    verdict = run_claim("bach13.dof-identities", fault="unorthogonalised-cholesky")
    assert verdict.status == "fails" and "L_le_K" in verdict.summary, verdict.summary


def test_literal_bernoulli_kernel_fails_by_sign_for_even_beta_and_by_scale_for_odd():
    verdict = run_claim("bach13.dof-decay", fault="literal-bernoulli")
    assert verdict.status == "fails", verdict.summary
    assert "poly β=2: kernel not PSD" in verdict.summary      # even beta: wrong sign
    assert verdict.measured["poly β=1 level_err"] > 0.5       # odd beta: scale (2 pi)^-2


def test_column_orders():
    X = uniform_design(30, 0)
    assert b13_common.pivot_order(X, None) == "pivot"
    perm = b13_common.random_order(X, np.random.default_rng(1))
    assert sorted(perm) == list(range(30))
    assert len(set(b13_bounds.column_subset(X, 10, np.random.default_rng(2)))) == 10


def test_nested_risks_is_the_spectral_risk_of_each_prefix():
    X = uniform_design(80, 0)
    kern = PeriodicKernel("poly", 1)
    z = periodic_signal(X, "poly", 2)
    G = incomplete_cholesky(X, kern, 20, np.random.default_rng(0).permutation(80)).factor
    risks = b13_common.nested_risks(G, z, 1e-3, 0.5)
    for p in (1, 7, 20):
        e, U = np.linalg.eigh(G[:, :p] @ G[:, :p].T)
        bias, var = krr_risk(np.clip(e, 0, None), (U.T @ z) ** 2, 80, 1e-3, 0.5)
        assert risks[p - 1] == pytest.approx(bias + var, rel=1e-9)


def test_settled_at_most_is_the_p_from_which_on_the_curve_stays_below():
    assert b13_common._settled_at_most([2.0, 0.5, 2.0, 0.5, 0.4], 1.0) == 4
    assert b13_common._settled_at_most([0.5, 0.4], 1.0) == 1
    assert b13_common._settled_at_most([0.5, 2.0], 1.0) == 3


def _spectral_risk(L, z, lam, sigma2):
    e, U = np.linalg.eigh(L)
    bias, var = krr_risk(np.clip(e, 0, None), (U.T @ z) ** 2, len(z), lam, sigma2)
    return bias + var


def test_the_smoother_of_a_regressor_is_read_with_one_or_n_fits_and_gives_the_spectral_risk():
    X = uniform_design(60, 1)
    z = periodic_signal(X, "poly", 2)
    kern = PeriodicKernel("exp", 1.0)
    K = kern.block(X)
    full = b13_rank.smoother(KernelRidge(kern, 1e-3), X)  # (K + n lambda I)^-1 smoother, read as a role reads it
    assert sum(smoother_risk(full, z, 0.5)) == pytest.approx(_spectral_risk(K, z, 1e-3, 0.5), rel=1e-9)
    # the smoother of an outside regressor: one fit on I_n, or n fits where y must be 1-D
    two_d = b13_rank.smoother(ext.nystrom_krr(12, kern, 0.06, 3), X)
    one_d = b13_rank.smoother(ext.OneTargetKRR(12, kern, 0.06, 3), X)
    assert np.allclose(two_d, one_d, rtol=0, atol=1e-10)
    y = np.random.default_rng(0).standard_normal(60)
    assert np.allclose(two_d @ y, ext.nystrom_krr(12, kern, 0.06, 3).fit(X, y).predict(X), atol=1e-10)


def test_a_regressor_of_1d_targets_whose_n_fits_take_too_long_is_refused_with_the_estimate(monkeypatch):
    """A krr factory that takes only 1-D targets made bach13.rank-rule run n fits per smoother
    (2,101 s through check at ci): over the smoother's budget the regressor is refused, n/a
    with the estimated time, before the n fits."""
    from kpca_suite.suites.roles import Unsupported
    X = uniform_design(60, 1)
    kern = PeriodicKernel("exp", 1.0)
    monkeypatch.setattr(b13_rank, "ONE_D_SMOOTHER_SECONDS", 0.0)
    with pytest.raises(Unsupported, match=r"fit takes only 1-D targets .* each smoother needs n = 60 fits, about "
                                          r"\d+ s here, over the 0 s one may take; accept an \(n, outputs\) y"):
        b13_rank.smoother(ext.OneTargetKRR(12, kern, 0.06, 3), X)
    assert b13_rank.smoother(ext.nystrom_krr(12, kern, 0.06, 3), X).shape == (60, 60)  # one fit: no budget


def test_nystrom_krr_adapter_takes_the_roles_ridge_as_scikit_learns_alpha():
    X = uniform_design(90, 3)
    kern = PeriodicKernel("poly", 1)
    y = periodic_signal(X, "poly", 2)
    ours = ours_nystrom_krr(20, kern, 0.09, 5).fit(X, y)
    direct = NystromKRR(kern, 0.09 / 90, 20, sampling="uniform", random_state=5).fit(X, y)
    Xnew = uniform_design(7, 4)
    assert np.allclose(ours.predict(Xnew), direct.predict(Xnew), rtol=0, atol=1e-12)
    exact = sklearn_kernel_ridge(20, kern, 0.09, 0).fit(X, y)  # precomputed Gram: any kernel
    assert np.allclose(exact.predict(Xnew), KernelRidge(kern, 0.09 / 90).fit(X, y).predict(Xnew), atol=1e-10)


def test_rank_budgets_are_the_multiples_of_d_and_the_rule_capped_at_n():
    assert b13_rank.rank_budgets(10.2, 400) == {"0.25d": 3, "0.5d": 6, "1d": 11, "2d": 21, "4d": 41, "rule": 62}
    assert b13_rank.rank_budgets(30.0, 50)["rule"] == 50 and b13_rank.rank_budgets(30.0, 50)["4d"] == 50


def _fake(ratios, kernel=("poly", 1), n=100, seeds=2, rank=10.0):
    keys = b13_rank.RANK_KEYS
    return [Result(Cell.make("bach13.rank-rule", "uniform", n, s, kdecay=kernel[0], krate=kernel[1]),
                   {**{f"ratio_{k}": r for k, r in zip(keys, ratios)}, **{f"p_{k}": 10.0 for k in keys},
                    "rank_0.25d": rank}) for s in range(seeds)]


def test_judge_rank_brackets_p1_over_d_between_a_quarter_and_four_and_checks_the_rule():
    good = _fake([3.0, 1.5, 1.02, 1.005, 1.001, 1.002]) + _fake([2.0, 1.3, 1.0, 0.99, 0.995, 0.998], n=200)
    out = b13_rank.judge_rank(good, "ci")
    assert out.status == "holds", out.summary
    assert "n=100: (1, 2]" in out.summary and "n=200: (0.5, 1]" in out.summary
    assert b13_rank.judge_rank(good + _fake([3.0, 2.0, 1.5, 1.2, 1.02, 1.002], n=400), "ci").status == "fails"  # > 4 d
    assert b13_rank.judge_rank(good + _fake([1.005] * 6, n=400), "ci").status == "fails"        # <= d/4 is too few
    late = b13_rank.judge_rank(good + _fake([3.0, 2.0, 1.5, 1.2, 1.005, 1.02], n=400), "ci")     # rule loses > 1%
    assert late.status == "fails" and "n=400: (2, 4]" in late.summary


def test_judge_rank_judges_an_unbudgeted_smoother_at_the_rule_and_4d_only():
    exact = _fake([1.0] * 6, rank=11.0) + _fake([1.0] * 6, n=200, rank=11.0)  # rank p + 1 at d/4
    out = b13_rank.judge_rank(exact, "ci")
    assert out.status == "holds" and "judged at p = ⌈d ln n⌉ and ⌈4d⌉ only" in out.summary, out.summary
    assert "bracketed" not in out.summary
    wrong = _fake([1.0] * 5 + [1.3], rank=11.0)  # an exact solver at the wrong ridge
    assert b13_rank.judge_rank(wrong, "ci").status == "fails"
    assert b13_rank.judge_rank(_fake([1.005] * 6), "ci").status == "fails"  # within budget: d/4 judged


def test_rank_rule_is_a_role_claim_on_the_periodic_kernel():
    claim = next(c for c in b13.CLAIMS if c.id == "bach13.rank-rule")
    assert claim.subject.role == "krr" and claim.subject.kernel == "periodic"
    assert claim.estimators[claim.subject.estimator] is ours_nystrom_krr
    assert {f.name for f in claim.faults} == {"crowded-columns", "eighth-budget", "exact-from-sixteenth"}
    pivoting = next(c for c in b13.CLAIMS if c.id == "bach13.pivoting")
    assert pivoting.subject is None and pivoting.experiment is b13_pivoting.pivot_experiment


def test_table1_band_makes_a_log_order_quantity_grow():
    """A (log n)-order d_ave whose reference slope is below the tolerance must still grow:
    its band starts at half the reference, so a constant d_ave (slope 0) is outside it;
    a polynomial order keeps ref +- tol."""
    lo, hi = b13_dof.table1_band((0, 1), 0.107, b13_dof.T1_TOL["exp"])
    assert (lo, hi) == pytest.approx((0.0535, 0.227)) and not lo <= 0.0 <= hi
    assert b13_dof.table1_band((-0.4, 0), -0.4, b13_dof.T1_TOL["poly"]) == pytest.approx((-0.445, -0.355))


def test_table1_poly_bands_separate_line_1_from_line_2():
    """The lambda* bands of lines 1 and 2 (exponents -2/5 and -1/2) do not overlap."""
    tol = b13_dof.T1_TOL["poly"]
    assert -0.4 - tol > -0.5 + tol


def test_dof_identities_fails_when_w_is_singular_to_working_precision(monkeypatch):
    """smoother_L and solvers are judged in units of eps cond(W): a cond of inf gives no unit,
    and the claim fails on the NaN instead of reading x / inf = 0 as a pass."""
    monkeypatch.setattr(np.linalg, "cond", lambda W: np.inf)
    verdict = run_claim("bach13.dof-identities", keep=lambda c: c.seed == 0)
    assert verdict.status == "fails" and "NOT FINITE" in verdict.summary


def test_wiener_lambda_when_the_signal_is_the_kernel_series():
    """beta = delta: lambda* = sigma^2 / n on the grid (the Wiener filter of every frequency), and a kernel
    scaled by s has lambda* scaled by s exactly (the smoother depends on K / lambda)."""
    from kpca_suite.theory.periodic import grid_design, grid_energy, grid_spectrum
    n = 512
    z = periodic_signal(grid_design(n), "poly", 8)
    for kern, scale in ((PeriodicKernel("poly", 8), 1.0), (b13_fig2.printed_scale_kernel("poly", 2), (2 * np.pi) ** -4)):
        e = np.clip(grid_spectrum(kern, n), 0.0, None)
        lam, _, floored = b13_fig2.floored_optimal_lambda(e, grid_energy(z), n, 1.0)
        assert floored == 0.0
        if kern.rate == 8:
            assert lam == pytest.approx(1.0 / n, rel=1e-4)
        else:
            e1 = np.clip(grid_spectrum(PeriodicKernel("poly", 2), n), 0.0, None)
            lam1, _, _ = b13_fig2.floored_optimal_lambda(e1, grid_energy(z), n, 1.0)
            assert lam == pytest.approx(scale * lam1, rel=1e-4)


def test_printed_scale_saturates_on_the_eps_floor():
    from kpca_suite.theory.periodic import grid_design, grid_energy, grid_spectrum
    n = 4096
    e = np.clip(grid_spectrum(b13_fig2.printed_scale_kernel("poly", 8), n), 0.0, None)
    lam, _, floored = b13_fig2.floored_optimal_lambda(e, grid_energy(periodic_signal(grid_design(n), "poly", 8)), n, 1.0)
    assert floored == 1.0 and lam == b13_fig2.EPS



def test_regularising_judge_needs_a_ratio_below_one_from_column_samplers_only():
    good = _fake([3.0, 1.5, 1.02, 1.005, 1.001, 1.002]) + _fake([2.0, 1.3, 1.0, 0.99, 0.995, 0.998], n=200)
    assert b13_rank.judge_rank_regularising(good, "ci").status == "holds"
    flat = _fake([3.0, 1.5, 1.02, 1.0, 1.0, 1.0]) + _fake([2.0, 1.3, 1.0, 1.0, 1.0, 1.0], n=200)
    out = b13_rank.judge_rank_regularising(flat, "ci")
    assert b13_rank.judge_rank(flat, "ci").status == "holds" and out.status == "fails", out.summary
    exact = _fake([1.0] * 6, rank=11.0) + _fake([1.0] * 6, n=200, rank=11.0)  # an exact solver: not judged on it
    assert b13_rank.judge_rank_regularising(exact, "ci").status == "holds"
