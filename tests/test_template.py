"""The template paper (``suites/papers/_template/``, not registered: its name starts with
``_``) works as a researcher copies it: its claims hold at ci, each planted fault gives
the verdict it declares, and its claim with a role runs scikit-learn's implementations
of the role, probed with the role's default settings. A role claim declared wrongly (a
probe of another role, a reference estimator left to the default sweep) is refused
when it is declared, naming the claim."""

from __future__ import annotations

import dataclasses

import pytest

from kpca_suite.suites import conformance
from kpca_suite.suites.claim import Grid, PerProfile
from kpca_suite.suites.papers import _template
from kpca_suite.suites.papers._template import krr
from kpca_suite.suites.roles import ROLES, Subject
from tests.claims import run_claim

CLAIMS = {c.id: c for c in _template.CLAIMS}
FAULTS = [(c.id, f.name) for c in _template.CLAIMS for f in c.faults]
ROLE_CLAIM = CLAIMS["template.krr-dof"]


def test_the_template_has_a_plain_claim_and_a_claim_with_a_role():
    assert {cid: c.subject is not None for cid, c in CLAIMS.items()} == {"template.rate": False,
                                                                         "template.krr-dof": True}


@pytest.mark.slow
@pytest.mark.parametrize("claim_id", sorted(CLAIMS))
def test_a_template_claim_holds_at_ci(claim_id):
    verdict = run_claim(CLAIMS[claim_id], "ci")
    assert verdict.status == "holds", verdict.summary


@pytest.mark.slow
@pytest.mark.parametrize("claim_id,fault", FAULTS, ids=[f"{c}:{f}" for c, f in FAULTS])
def test_a_template_fault_gives_its_declared_verdict(claim_id, fault):
    claim = CLAIMS[claim_id]
    verdict = run_claim(claim, fault=fault)
    assert verdict.status == claim.fault(fault).expect, verdict.summary


@pytest.mark.slow
@pytest.mark.parametrize("adapter", ["sklearn-nystroem-ridge", "sklearn-kernel-ridge"])
def test_the_role_claim_holds_for_scikit_learns_krr(adapter):
    est = conformance.resolve(adapter)
    assert conformance.applicability(ROLE_CLAIM, est, "ci") is None  # the krr probe builds it
    verdict = run_claim(conformance.variant(ROLE_CLAIM, est), "ci")
    assert verdict.status == "holds", verdict.summary


def test_the_role_claim_sweeps_its_subject_not_its_reference():
    assert {c.method for c in ROLE_CLAIM.cells("ci")} == {"columns"}


@pytest.mark.parametrize("role", sorted(ROLES))
def test_a_subjects_probe_follows_its_role(role):
    subject = Subject(role, "x", centred=None, kernel="gaussian", budget="b")
    assert subject.probe == ROLES[role].probe and subject.probe_problem() is None
    assert [name for name, _ in subject.probe] == [a for a in ROLES[role].args if a not in ("kernel", "random_state")]


@pytest.mark.parametrize("probe,message", [
    ((("n_components", 3), ("budget", 16)), "probe sets n_components, budget; a krr factory, make(budget, kernel, "
                                            "ridge, random_state), is probed with budget, ridge"),
    ((("budget", 16),), "probe sets budget; a krr factory"),
    ((("budget", 16), ("ridge", -1.0)), "ridge = -1.0 (expected a positive finite number)"),
    ((("budget", 0), ("ridge", 1e-2)), "budget = 0 (expected a positive int)"),
    ((16, 1e-2), "is not (name, value) pairs"),
])
def test_a_probe_wrong_for_the_role_is_refused_naming_the_claim(probe, message):
    subject = dataclasses.replace(ROLE_CLAIM.subject, probe=probe)
    with pytest.raises(ValueError, match="^claim 'template.krr-dof': its subject's probe") as refused:
        dataclasses.replace(ROLE_CLAIM, subject=subject)
    assert message in str(refused.value)


def test_a_role_claim_with_a_reference_must_name_what_its_grid_sweeps():
    every_estimator = PerProfile.same(Grid(sizes=(50,), seeds=1, per_size=krr.columns))
    with pytest.raises(ValueError, match=r"claim 'template.krr-dof': .*several estimators \(columns, exact\).*"
                                         r"Grid\(methods=\.\.\.\), at every profile; not at ci, quick, full"):
        dataclasses.replace(ROLE_CLAIM, grid=every_estimator)
    alone = dataclasses.replace(ROLE_CLAIM, grid=every_estimator, estimators={"columns": krr.ours_nystrom_krr})
    assert {c.method for c in alone.cells("ci")} == {"columns"}  # the subject alone: nothing to name
