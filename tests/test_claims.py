"""The theory-regression tests: every registered claim holds at the ci profile,
and every planted fault declared on a claim gives the verdict it
declares, run as `check_faults` and `kpca-suite run --fault` run it. Both go through
the one pipeline (tests/claims.py)."""

from __future__ import annotations

import math

import pytest

from kpca_suite.suites import registry
from kpca_suite.suites.benchmarks import bench_claims
from kpca_suite.suites.judging import judges_a_slope
from tests.claims import run_claim, run_fault

CLAIMS = registry.select()
FAULTS = [(c.id, f.name) for c in CLAIMS for f in c.faults]
OWN = set(registry.own_papers())


OURS = ("sterge20", "ghashami16", "ullah18", "hallgren21", "bach13", "landmarks", "selfcheck", "numerics")


def test_registry_has_every_paper():
    assert set(OURS) <= OWN
    assert len(registry.own_claims()) == 95


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.id)
def test_every_claim_has_a_fault_or_control(claim):
    assert claim.faults, f"{claim.id} declares no planted fault: nothing shows that it can fail"
    assert claim.tolerance.rule and claim.tolerance.evidence


@pytest.mark.slow
@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.id)
def test_claim_verdict_at_ci(claim):
    verdict = run_claim(claim, "ci")
    assert verdict.status == "holds", verdict.summary
    if claim.paper in OWN:  # asv tracks the slope of exactly the claims whose judge declares one
        judged = not math.isnan(bench_claims.judged_slope(verdict))
        assert judged == judges_a_slope(claim.judge), (
            f"{claim.id}: its verdict {'judges' if judged else 'does not judge'} a slope, its judge declares "
            f"otherwise (a judge function that judges one is marked with judging.slope_judge)")


@pytest.mark.slow
@pytest.mark.parametrize("claim_id,fault", FAULTS, ids=[f"{c}:{f}" for c, f in FAULTS])
def test_planted_fault(claim_id, fault):
    judged = run_fault(claim_id, fault)  # as check_faults runs it, at the fault's declared profile
    assert judged.verdict.claim == f"{claim_id}[fault:{fault}]"
    assert judged.as_expected, f"{judged.verdict.status}, expected {judged.expect}: {judged.verdict.summary}"
