"""The theory-regression tests: every registered claim holds at the ci profile,
and every planted fault declared on a claim gives the verdict it
declares. Both go through the one pipeline (tests/claims.py)."""

from __future__ import annotations

import math

import pytest

from kpca_suite.suites import registry
from kpca_suite.suites.benchmarks import bench_claims
from tests.claims import run_claim

CLAIMS = registry.select()
FAULTS = [(c.id, f.name) for c in CLAIMS for f in c.faults]


OURS = ("sterge20", "ghashami16", "ullah18", "hallgren21", "bach13", "landmarks", "selfcheck")


def test_registry_has_every_paper():
    assert set(OURS) <= {c.paper for c in CLAIMS}
    assert len([c for c in CLAIMS if c.paper in OURS]) == 60


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.id)
def test_every_claim_has_a_fault_or_control(claim):
    assert claim.faults, f"{claim.id} declares no planted fault: nothing shows that it can fail"
    assert claim.tolerance.rule and claim.tolerance.evidence


@pytest.mark.slow
@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.id)
def test_claim_verdict_at_ci(claim):
    verdict = run_claim(claim, "ci")
    assert verdict.status == "holds", verdict.summary
    # asv tracks the slope of exactly the claims that judge one
    judges_a_slope = not math.isnan(bench_claims.judged_slope(verdict))
    assert judges_a_slope == (claim.id in bench_claims.RATE_CLAIMS), (
        f"{claim.id}: update bench_claims.RATE_CLAIMS (judges a slope: {judges_a_slope})")


@pytest.mark.slow
@pytest.mark.parametrize("claim_id,fault", FAULTS, ids=[f"{c}:{f}" for c, f in FAULTS])
def test_planted_fault(claim_id, fault):
    claim = registry.get(claim_id)
    declared = claim.fault(fault)
    verdict = run_claim(claim, declared.profile, fault=fault)
    assert verdict.status == declared.expect, verdict.summary
