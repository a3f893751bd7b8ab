"""Theory regression: every ghashami16 claim at the ``ci`` profile with its verdict
asserted, and a planted fault or negative control that turns each verdict (or,
for the three-part comparison claims, each judged part).

Cells run serially in-process so that monkeypatched estimators take effect.
"""

import functools

import pytest

import kpca_suite.methods.skpca as skpca_module
import kpca_suite.suites.ghashami16 as gh
from kpca_suite.suites.registry import Result, get, select
from tests import faults_ghashami16 as faults
from tests.claims import run_claim


def run_cells(claim_id, keep=lambda cell: True):
    claim = get(claim_id)
    return [Result(c, claim.run_cell(c)) for c in claim.cells("ci", {}) if keep(c)]


@functools.lru_cache(maxsize=None)
def ci_results(claim_id):
    return tuple(run_cells(claim_id))


def ci_verdict(claim_id):
    return get(claim_id).judge(list(ci_results(claim_id)), "ci")


def test_every_ghashami16_claim_of_claims_md_is_registered():
    ids = {c.id for c in select(["ghashami16"])}
    assert ids == {"ghashami16." + s for s in (
        "fd-bound", "fd-merge", "rff-rate", "lemma22", "thm21", "lemma24", "space", "randomnoisy", "digits")}


# -- verdicts at the ci profile ---------------------------------------------------------

HOLDING = ("fd-bound", "fd-merge", "rff-rate", "lemma22", "thm21", "lemma24", "space")


@pytest.mark.parametrize("claim_id", ["ghashami16." + s for s in HOLDING])
def test_claim_holds_at_ci_profile(claim_id):
    verdict = ci_verdict(claim_id)
    assert verdict.status == "holds", verdict.summary


def test_fd_bound_reports_the_papers_denominator_failing_for_halving():
    """The erratum is visible in the claim: (ell - k) is exceeded for Algorithm 1."""
    verdict = ci_verdict("ghashami16.fd-bound")
    assert verdict.measured["halving_literal"] > 0.1, verdict.summary


@pytest.mark.parametrize("claim_id", ["ghashami16.randomnoisy", "ghashami16.digits"])
def test_comparison_parts_at_ci_profile(claim_id):
    """Nyström is best at the smallest size, SKPCA with ell >= 10 is no worse than
    RNCA at equal space, and the paper's ell = 2 (Algorithm 1 empties its sketch
    every second row) is worse: the combined claim fails on that ell, honestly.
    (Timings are not asserted: the test-time part is checked on edited records below.)"""
    verdict = ci_verdict(claim_id)
    m = verdict.measured
    assert m["part_nystrom_best_small"] == "holds", verdict.summary
    assert m["part_skpca_le_rnca_space"] == "fails", verdict.summary
    for ell in (10, 20, 30, 50):
        assert m[f"space_spectral_log_skpca{ell}_over_rnca"] < 0, verdict.summary
    assert m["space_spectral_log_skpca2_over_rnca"] > 0, verdict.summary
    assert verdict.status == "fails"


# -- planted faults -----------------------------------------------------------------------

def test_fd_bound_fails_when_sigma_is_shrunk_instead_of_sigma_squared(monkeypatch):
    monkeypatch.setattr(gh, "FrequentDirections", faults.SigmaShrinkFD)
    verdict = run_claim("ghashami16.fd-bound", keep=lambda c: c.p["kind"] in ("random", "digits"))
    assert verdict.status == "fails" and "err_delta" in verdict.summary, verdict.summary


def test_fd_merge_fails_when_merge_drops_a_delta(monkeypatch):
    monkeypatch.setattr(gh, "FrequentDirections", faults.DeltaDroppingFD)
    verdict = run_claim("ghashami16.fd-merge", keep=lambda c: c.p["kind"] in ("random", "digits"))
    assert verdict.status == "fails" and "err_delta" in verdict.summary, verdict.summary


def test_rff_rate_fails_with_the_other_bandwidth_convention(monkeypatch):
    monkeypatch.setattr(gh, "draw_rff", faults.narrow_rff)
    verdict = run_claim("ghashami16.rff-rate")
    assert verdict.status == "fails", verdict.summary


def test_lemma22_fails_with_a_stale_w(monkeypatch):
    monkeypatch.setattr(gh, "SKPCA", faults.StaleSKPCA)
    verdict = run_claim("ghashami16.lemma22", keep=lambda c: c.p["shrink"] == "halving")
    assert verdict.status == "fails" and "link1" in verdict.summary, verdict.summary


def test_thm21_fails_without_the_feature_scale(monkeypatch):
    monkeypatch.setattr(skpca_module, "draw_rff", faults.unscaled_rff)
    verdict = run_claim("ghashami16.thm21")
    assert verdict.status == "fails" and verdict.measured["violations"] > 0, verdict.summary


def test_lemma24_fails_with_the_bottom_k_eigenvectors(monkeypatch):
    monkeypatch.setattr(gh, "top_k_factor", faults.bottom_k_factor)
    verdict = run_claim("ghashami16.lemma24")
    assert verdict.status == "fails", verdict.summary


def test_space_fails_for_an_skpca_that_forms_the_m_by_m_covariance(monkeypatch):
    monkeypatch.setattr(gh, "SKPCA", faults.CovarianceSKPCA)
    verdict = run_claim("ghashami16.space", keep=lambda c: c.method == "skpca" and c.p["m"] <= 1024)
    assert verdict.status == "fails", verdict.summary
    assert verdict.measured["skpca_peak_bytes_slope"] > 1.5


def test_comparison_nystrom_part_fails_with_the_wrong_bandwidth(monkeypatch):
    monkeypatch.setattr(gh, "StreamingNystrom", faults.WrongBandwidthNystrom)
    verdict = run_claim("ghashami16.randomnoisy")
    assert verdict.measured["part_nystrom_best_small"] == "fails", verdict.summary


def test_comparison_space_part_fails_for_every_ell_with_a_random_subspace(monkeypatch):
    monkeypatch.setattr(gh, "SKPCA", faults.RandomSubspaceSKPCA)
    verdict = run_claim("ghashami16.randomnoisy")
    for ell in (10, 20, 30, 50):
        assert verdict.measured[f"space_spectral_log_skpca{ell}_over_rnca"] > 0, verdict.summary
    assert "ell=10 fails" in verdict.summary


@pytest.mark.parametrize("factor,status", [(30.0, "holds"), (1 / 30.0, "fails")])
def test_comparison_test_time_part_follows_the_recorded_times(factor, status):
    """The test-time part judges the recorded times (no timing here): the ci
    records with Nyström's test time scaled by 30 (a per-entry kernel loop, like
    the paper's baseline) or by 1/30."""
    results = [Result(r.cell, {**r.metrics, "test_time": r.metrics["test_time"] * factor})
               if r.cell.method == "nystrom" else r for r in ci_results("ghashami16.randomnoisy")]
    verdict = get("ghashami16.randomnoisy").judge(results, "ci")
    assert verdict.measured["part_nystrom_test_slowest"] == status, verdict.summary
