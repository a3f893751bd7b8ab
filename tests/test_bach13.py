"""bach13 paper module: the claim ids, the helpers the experiments rely on, and what the
report must say beyond the verdict (tests/test_claims.py runs every claim at ci and every
declared planted fault)."""

import numpy as np
import pytest

import kpca_suite.suites.papers.bach13 as b13
from kpca_suite.kernels.cholesky import incomplete_cholesky
from kpca_suite.kernels.periodic import PeriodicKernel
from kpca_suite.theory.dof import krr_risk
from kpca_suite.theory.periodic import periodic_signal, uniform_design
from tests.claims import run_claim

CLAIM_IDS = {"bach13." + s for s in ("dof-identities", "dof-decay", "table1", "rank-rule", "pivoting", "fig1",
                                     "lemmaB1", "eq6")}


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
    assert b13.pivot_order(X, None) == "pivot"
    perm = b13.random_order(X, np.random.default_rng(1))
    assert sorted(perm) == list(range(30))
    assert len(set(b13.column_subset(X, 10, np.random.default_rng(2)))) == 10


def test_nested_risks_is_the_spectral_risk_of_each_prefix():
    X = uniform_design(80, 0)
    kern = PeriodicKernel("poly", 1)
    z = periodic_signal(X, "poly", 2)
    G = incomplete_cholesky(X, kern, 20, np.random.default_rng(0).permutation(80)).factor
    risks = b13.nested_risks(G, z, 1e-3, 0.5)
    for p in (1, 7, 20):
        e, U = np.linalg.eigh(G[:, :p] @ G[:, :p].T)
        bias, var = krr_risk(np.clip(e, 0, None), (U.T @ z) ** 2, 80, 1e-3, 0.5)
        assert risks[p - 1] == pytest.approx(bias + var, rel=1e-9)


def test_settled_at_most_is_the_p_from_which_on_the_curve_stays_below():
    assert b13._settled_at_most([2.0, 0.5, 2.0, 0.5, 0.4], 1.0) == 4
    assert b13._settled_at_most([0.5, 0.4], 1.0) == 1
    assert b13._settled_at_most([0.5, 2.0], 1.0) == 3
