"""Planted faults as claims of their own (Claim.for_fault) and check_faults, the Python
entry point that kpca-suite run --fault and the tests' planted-fault cases share."""

from __future__ import annotations

import pytest

from kpca_suite.suites import check_faults, registry
from kpca_suite.suites.store import MemoryStore
from tests import toy_claim as toy


def test_a_fault_run_is_a_claim_of_its_own_on_the_claim_s_data():
    run = toy.TOY_RATE.for_fault("flat")
    assert run.id == "toy.rate[fault:flat]" and run.base_id == "toy.rate" and run.faults == ()
    assert run.fault_name == "flat" and run.estimator_name is None and toy.TOY_RATE.fault_name is None
    assert run.estimators["toy"] is toy.flat
    ours, theirs = toy.TOY_RATE.cells("ci")[0], run.cells("ci")[0]
    assert theirs.claim == run.id and (theirs.rng().random(3) == ours.rng().random(3)).all()
    with pytest.raises(KeyError, match="has no fault 'nope'; it has \\['flat'\\]"):
        toy.TOY_RATE.for_fault("nope")
    with pytest.raises(ValueError, match="not start with 'fault:'"):  # the fault runs' ids are theirs
        registry.get("sterge20.cor42-poly").for_estimator("fault:flat", None)


def test_check_faults_gives_each_fault_s_verdict_and_what_it_declares(toy_registry):
    store = MemoryStore()
    got = check_faults(["toy.rate", "toy.fail"], store=store)
    assert list(got) == ["toy.rate[fault:flat]", "toy.fail[fault:flat]"]
    for cid, judged in got.items():
        assert judged.verdict.claim == cid and judged.verdict.status == judged.expect == "fails" and judged.as_expected
    assert {r.cell.claim for r in store.results("toy.rate[fault:flat]")} == {"toy.rate[fault:flat]"}
    assert store.results("toy.rate") == []
    assert list(check_faults("toy.rate")) == ["toy.rate[fault:flat]"]  # one id, as check takes it


def test_check_faults_rejects_unknown_claims_and_profiles(toy_registry):
    with pytest.raises(ValueError, match="claims: no claim or paper named 'nope'"):
        check_faults("nope")
    with pytest.raises(ValueError, match="profile must be one of"):
        check_faults("toy.rate", profile="huge")
