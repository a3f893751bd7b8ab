"""sterge20: the claims' sweeps and the parts of planted-fault verdicts that the
generic claim tests (every claim at ci, every declared fault) do not check."""

import math

import numpy as np
import pytest

from kpca_suite.suites.papers.sterge20 import _common as s20_common
from kpca_suite.suites.papers.sterge20 import als as s20_als
from kpca_suite.suites.papers.sterge20 import digits as s20_digits
from kpca_suite.suites.papers.sterge20 import rates as s20_rates
from kpca_suite.kernels import Kernel
from kpca_suite.suites.registry import get, select
from tests.claims import run_claim


def test_every_sterge20_claim_is_registered():
    ids = {c.id for c in select(["sterge20"])}
    assert ids == {"sterge20." + s for s in (
        "identities", "insample-order", "cor42-poly", "cor43-exp", "als", "ablation", "effdim",
        "thm41-bound", "digits", "cor42-poly-centred", "cor43-exp-centred", "ablation-centred",
        "thm41-bound-centred", "cor43-gaussian", "cor43-gaussian-centred", "insample-nystrom",
        "insample-nystrom-centred", "theta1-poly", "theta1-exp", "remark1", "eq13", "thm41-als", "cost")}


@pytest.mark.parametrize("claim_id", ["sterge20.theta1-poly", "sterge20.theta1-exp", "sterge20.remark1"])
def test_theta_grids_keep_ell_integer_and_the_budgets_on_the_rate_table(claim_id):
    """n = l^(2/θ) (poly, α = 2) or round(e^(l/(4θ))) (exp, τ = 1/4), so l(n) is the integer l; at
    θ = 1 the uniform budget is ceil((n / ln n) ln(n / ln n)) and ALS's ceil((n ln n)^(1/2)) (poly)
    or ceil(2 ln n ln(n / ln n)) (exp), both below n."""
    for cell in get(claim_id).cells("ci"):
        p, n = cell.p, cell.n
        L = math.log(n)
        if p["decay"] == "poly":
            assert n == round(p["ell"] ** (2 / p["theta"]))
        else:
            assert round(p["theta"] / 0.25 * L) == p["ell"]
        if p["theta"] == 1.0:
            assert p["m"] == math.ceil(n / L * math.log(n / L)) < n
            als = math.sqrt(n * L) if p["decay"] == "poly" else 2 * L * math.log(n / L)
            assert p["m_als"] == max(p["ell"], math.ceil(als)) < n


@pytest.mark.parametrize("claim_id,method", [("sterge20.cor42-poly", "uniform"), ("sterge20.cor43-exp", "uniform"),
                                             ("sterge20.ablation", "fixed-m")])
def test_rate_grids_keep_ell_integer_and_m_on_the_rate_table(claim_id, method):
    """n = l^4 (poly) or round(e^(l/2)) (exp), so l(n) is the integer l; m = ceil(n^θ ln n)
    for uniform Nyström and m = l for the ablation."""
    for cell in get(claim_id).cells("ci"):
        p = cell.p
        assert cell.method == method
        if p["decay"] == "poly":
            assert cell.n == p["ell"] ** 4
        else:
            assert round(2 * math.log(cell.n)) == p["ell"]
        expected = p["ell"] if method == "fixed-m" else math.ceil(math.sqrt(cell.n) * math.log(cell.n))
        assert p["m"] == expected


def test_full_budget_fault_draws_the_rate_keeping_m_whatever_its_budget():
    X = np.random.default_rng(1).standard_normal((403, 2))
    est = s20_rates.full_budget_nystrom(2, 12, Kernel("linear"), 0).fit(X)
    assert len(est.landmark_indices_) == s20_rates._m_uniform(403) == 121


def test_unwhitened_nystrom_breaks_orthonormality():
    verdict = run_claim("sterge20.identities", fault="unwhitened")
    assert verdict.status == "fails" and "orthonormal" in verdict.summary


@pytest.mark.parametrize("fault,check", [("unwhitened", "max_below"), ("crowded", "excess_l10")])
def test_digits_faults_fail_the_part_they_break(fault, check):
    """Unwhitened eigenvalues overstate the captured variance (R_nys below R_ekpca);
    crowded landmarks are far from EKPCA. (The unregularised K_mm^{-1/2} does not
    bite here: with the median-heuristic gamma, the digits K_mm is well conditioned.)"""
    verdict = run_claim("sterge20.digits", fault=fault)
    assert verdict.status == "fails", verdict.summary
    limit = s20_common.ORDER_ATOL if check == "max_below" else s20_digits.DIGITS_CLOSE
    assert verdict.measured[check] > limit


def test_als_short_budget_fault_draws_m_over_root_log_n_and_fails_by_the_level_only():
    """ALS on ceil(m / sqrt(ln n)) draws: at n = 403 and m = 36, at most 15 distinct
    landmarks. In the claim its poly slope CI stays inside the band, so only the
    pooled level R/R_C,l rejects it, on both decays."""
    X = np.random.default_rng(1).standard_normal((403, 2))
    est = s20_als.short_budget_leverage_nystrom(2, 36, Kernel("linear"), 0).fit(X)
    assert 2 <= len(est.landmark_indices_) <= math.ceil(36 / math.sqrt(math.log(403))) == 15
    verdict = run_claim("sterge20.als", fault="short-budget")
    m = verdict.measured
    assert verdict.status == "fails", verdict.summary
    assert -0.05 <= m["poly_ratio_slope_ci_low"] and m["poly_ratio_slope_ci_high"] <= 0.05, verdict.summary
    assert m["poly_mean_ratio"] > s20_als.ALS_LEVEL["poly"] and m["exp_mean_ratio"] > s20_als.ALS_LEVEL["exp"], verdict.summary


@pytest.mark.parametrize("n, J", [(40, 64), (300, 64)])
def test_exact_score_mass_is_the_total_of_the_exact_scores(n, J):
    """The eigenvalue route of sterge20.als's exact total against the per-point scores, on
    both sides of n = J (the smaller Gram is used)."""
    from kpca_suite.kernels import exact_leverage_scores
    Phi = np.random.default_rng(3).standard_normal((n, J)) / np.arange(1, J + 1)
    s = n ** -0.5
    from kpca_suite.theory import smaller_gram
    assert s20_common.exact_score_mass(smaller_gram(Phi), n, s) == pytest.approx(exact_leverage_scores(Phi, Kernel("linear"), s).sum(), rel=1e-12)
