"""Theory regression: every bach13 claim at the ``ci`` profile with its verdict asserted, and
a planted fault that turns each verdict to "fails".

Cells run serially in-process so that monkeypatched pieces take effect. Fault runs use a
subset of the ci cells where the full set is slow and the failure is not marginal.
"""

import pytest

import kpca_suite.kernels.cholesky
import kpca_suite.suites.bach13 as b13
from kpca_suite.suites.registry import select
from tests import faults_bach13 as faults
from tests.claims import run_claim

CLAIM_IDS = {"bach13." + s for s in ("dof-identities", "dof-decay", "table1", "rank-rule", "pivoting", "fig1",
                                     "lemmaB1", "eq6")}


def test_every_bach13_claim_of_claims_md_is_registered():
    assert {c.id for c in select(["bach13"])} == CLAIM_IDS


# -- verdicts at the ci profile ----------------------------------------------------------

@pytest.mark.parametrize("claim_id", sorted(CLAIM_IDS))
def test_claim_holds_at_ci_profile(claim_id):
    verdict = run_claim(claim_id)
    assert verdict.status == "holds", verdict.summary
    if claim_id == "bach13.eq6":  # the report must say plainly that Eq. (6) is vacuous here
        assert "VACUOUS" in verdict.summary and "not tested" in verdict.summary
        assert verdict.measured["p6_over_n_min_testable"] > 1 and verdict.measured["first_nonvacuous_n"] > 4096


# -- planted faults --------------------------------------------------------------------------

def test_identities_fail_when_nystrom_uses_lambda_instead_of_n_lambda(monkeypatch):
    monkeypatch.setattr(b13, "NystromKRR", faults.LambdaNotTimesN)
    verdict = run_claim("bach13.dof-identities", keep=lambda c: c.seed == 0)
    assert verdict.status == "fails" and "smoother_L" in verdict.summary, verdict.summary


def test_identities_fail_with_a_broken_cholesky_factor(monkeypatch):
    monkeypatch.setattr(kernels.cholesky, "cholesky_step", faults.unorthogonalised_cholesky_step)
    verdict = run_claim("bach13.dof-identities", keep=lambda c: c.seed == 0)
    assert verdict.status == "fails" and "L_le_K" in verdict.summary, verdict.summary


def test_dof_decay_fails_with_the_papers_literal_bernoulli_kernel(monkeypatch):
    monkeypatch.setattr(b13, "grid_kernel", faults.literal_bernoulli_kernel)
    verdict = run_claim("bach13.dof-decay")
    assert verdict.status == "fails", verdict.summary
    assert "poly β=2: kernel not PSD" in verdict.summary      # even beta: wrong sign
    assert verdict.measured["poly β=1 level_err"] > 0.5       # odd beta: scale (2 pi)^-2


def test_table1_fails_when_the_risk_regularises_with_lambda_not_n_lambda(monkeypatch):
    monkeypatch.setattr(b13, "optimal_lambda", faults.optimal_lambda_without_n)
    verdict = run_claim("bach13.table1", keep=lambda c: c.p["line"] in ("line 1", "line 2"))
    assert verdict.status == "fails", verdict.summary


def test_rank_rule_fails_with_crowded_columns(monkeypatch):
    monkeypatch.setattr(b13, "column_order", faults.clustered_order)
    verdict = run_claim("bach13.rank-rule", keep=lambda c: c.p["kdecay"] == "poly" and c.seed < 3)
    assert verdict.status == "fails", verdict.summary


def test_pivoting_fails_when_pivots_crowd_together(monkeypatch):
    monkeypatch.setattr(b13, "column_order", faults.clustered_pivoting)
    verdict = run_claim("bach13.pivoting", keep=lambda c: c.p["kdecay"] == "poly" and c.n >= 100)
    assert verdict.status == "fails", verdict.summary


def test_fig1_fails_with_a_broken_cholesky_factor(monkeypatch):
    monkeypatch.setattr(kernels.cholesky, "cholesky_step", faults.unorthogonalised_cholesky_step)
    verdict = run_claim("bach13.fig1", keep=lambda c: c.seed == 0)
    assert verdict.status == "fails", verdict.summary


def test_lemma_b1_fails_for_a_subset_that_is_not_uniform(monkeypatch):
    monkeypatch.setattr(b13, "column_subset", faults.clustered_subset)
    verdict = run_claim("bach13.lemmaB1")
    assert verdict.status == "fails", verdict.summary


def test_eq6_fails_for_a_rank_rule_that_is_not_eq6(monkeypatch):
    monkeypatch.setattr(b13, "eq6_p", faults.practical_rank)
    verdict = run_claim("bach13.eq6", keep=lambda c: c.n <= 2**14)
    assert verdict.status == "fails", verdict.summary


def test_nested_risks_is_the_spectral_risk_of_each_prefix():
    import numpy as np

    from kpca_suite.kernels.cholesky import incomplete_cholesky
    from kpca_suite.theory.dof import krr_risk
    from kpca_suite.theory.periodic import PeriodicKernel, periodic_signal, uniform_design

    X = uniform_design(80, 0)
    kern = PeriodicKernel("poly", 1)
    z = periodic_signal(X, "poly", 2)
    G = incomplete_cholesky(X, kern, 20, np.random.default_rng(0).permutation(80)).factor
    risks = b13.nested_risks(G, z, 1e-3, 0.5)
    for p in (1, 7, 20):
        e, U = np.linalg.eigh(G[:, :p] @ G[:, :p].T)
        bias, var = krr_risk(np.clip(e, 0, None), (U.T @ z) ** 2, 80, 1e-3, 0.5)
        assert risks[p - 1] == pytest.approx(bias + var, rel=1e-9)
