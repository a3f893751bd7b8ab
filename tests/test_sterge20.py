"""Theory regression: every sterge20 claim at the ``ci`` profile with its verdict
asserted, and a planted fault or negative control that turns each verdict.

Cells run serially in-process so that monkeypatched estimators take effect.
"""

import pytest

import kpca_suite.suites.sterge20 as s20
from kpca_suite.suites.registry import Result, get, select
from tests import faults
from tests.claims import run_claim


def rate_cells(claim_id, method, decay, m_rule):
    return s20._rate_cells(claim_id, method, decay, "ci", m_rule)


def m_equals_ell(n, decay, ell):
    return ell


def test_every_sterge20_claim_of_claims_md_is_registered():
    ids = {c.id for c in select(["sterge20"])}
    assert ids == {"sterge20." + s for s in (
        "identities", "insample-order", "cor42-poly", "cor43-exp", "als", "ablation", "effdim",
        "thm41-bound", "digits")}


# -- verdicts at the ci profile ---------------------------------------------------------

@pytest.mark.parametrize("claim_id", sorted(c.id for c in select(["sterge20"])))
def test_claim_holds_at_ci_profile(claim_id):
    verdict = run_claim(claim_id)
    assert verdict.status == "holds", verdict.summary


# -- planted faults and negative controls ----------------------------------------------

def test_identities_fail_without_whitening(monkeypatch):
    monkeypatch.setattr(s20, "NystromKPCA", faults.UnwhitenedNystrom)
    verdict = run_claim("sterge20.identities")
    assert verdict.status == "fails" and "orthonormal" in verdict.summary


def test_insample_order_fails_with_unregularised_inverse_square_root(monkeypatch):
    monkeypatch.setattr(s20, "NystromKPCA", faults.UnregularisedNystrom)
    verdict = run_claim("sterge20.insample-order")
    assert verdict.status == "fails", verdict.summary


@pytest.mark.parametrize("claim_id,decay", [("sterge20.cor42-poly", "poly"), ("sterge20.cor43-exp", "exp")])
def test_rate_claims_fail_with_fixed_m_equal_ell(claim_id, decay):
    verdict = get(claim_id).judge(
        [Result(c, s20.run_rate_cell(c)) for c in rate_cells(claim_id, "uniform", decay, m_equals_ell)], "ci")
    assert verdict.status == "fails", verdict.summary


def test_als_fails_with_clustered_landmarks(monkeypatch):
    monkeypatch.setattr(s20, "LeverageScoreLandmarks", faults.ClusteredLandmarks)
    verdict = run_claim("sterge20.als")
    assert verdict.status == "fails", verdict.summary


def test_ablation_fails_when_m_keeps_the_rate():
    """An estimator that keeps the rate (here: the full m = n^θ ln n) shows no stall."""
    cells = rate_cells("sterge20.ablation", "fixed-m", "exp", lambda n, d, ell: s20._m_uniform(n))
    verdict = get("sterge20.ablation").judge([Result(c, s20.run_rate_cell(c)) for c in cells], "ci")
    assert verdict.status == "fails", verdict.summary


def test_effdim_fails_with_the_wrong_ridge_normalisation(monkeypatch):
    monkeypatch.setattr(s20, "_gram_spectrum", faults.unnormalised_gram_spectrum)
    verdict = run_claim("sterge20.effdim")
    assert verdict.status == "fails", verdict.summary


def test_bound_fails_for_a_projector_that_is_not_principal(monkeypatch):
    monkeypatch.setattr(s20, "NystromKPCA", faults.RandomSubspaceNystrom)
    verdict = run_claim("sterge20.thm41-bound")
    assert verdict.status == "fails", verdict.summary


@pytest.mark.parametrize("fault,check", [(faults.UnwhitenedNystrom, "below"), (faults.CrowdedNystrom, "excess")])
def test_digits_fails_with_a_broken_nystrom(monkeypatch, fault, check):
    """Unwhitened eigenvalues overstate the captured variance (R_nys below R_ekpca);
    crowded landmarks are far from EKPCA. (The unregularised K_mm^{-1/2} does not
    bite here: with the median-heuristic gamma, the digits K_mm is well conditioned.)"""
    monkeypatch.setattr(s20, "NystromKPCA", fault)
    verdict = run_claim("sterge20.digits")
    assert verdict.status == "fails", verdict.summary
    assert verdict.measured["max_below" if check == "below" else "excess_l10"] > (
        s20.ORDER_ATOL if check == "below" else s20.DIGITS_CLOSE)
