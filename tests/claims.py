"""Running claims in-process for the tests, through the one pipeline: serial,
in memory, at a profile; a planted fault as :func:`check_faults` runs it."""

import copy

from kpca_suite.suites.claim import Claim
from kpca_suite.suites.faults import fault_runs, judge_faults
from kpca_suite.suites.pipeline import evaluate, seed_looks
from kpca_suite.suites.registry import get


#: Verdicts of registered claims (and their declared faults) already judged in this test
#: session: a claim is deterministic, and several tests read the same one (every claim and
#: fault at ci in test_claims.py, their details in each paper's tests).
_JUDGED: dict = {}


def _registered(claim) -> bool:
    try:
        return get(claim.id) is claim
    except KeyError:
        return False


def run_fault(claim, fault, profile=None):
    """The :class:`~suites.faults.FaultVerdict` of the planted fault ``fault`` of ``claim``
    (an id or a Claim), run as :func:`check_faults` runs it (:func:`judge_faults`: as claim
    ``<id>[fault:<name>]`` on the fault's cells) at ``profile``, by default the fault's own.
    A registered claim's fault is judged once per session at a profile (a copy is returned)."""
    claim = claim if isinstance(claim, Claim) else get(claim)
    ((run, declared),) = fault_runs([claim], fault)
    memo = _registered(claim) and (run.id, profile or declared.profile)
    if memo and memo in _JUDGED:
        return copy.deepcopy(_JUDGED[memo])
    judged = judge_faults([(run, declared)], profile)[run.id]
    if memo:
        _JUDGED[memo] = copy.deepcopy(judged)
    return judged


def run_claim(claim, profile=None, keep=None, options=None, fault=None, **substitutes):
    """The Verdict of ``claim`` (an id or a Claim) at ``profile`` (default ``ci``).

    ``fault`` names one of the claim's declared faults: the verdict :func:`run_fault` gives
    (at ``profile``, by default the fault's own), which runs the fault's cells and
    estimators, so ``keep``, ``options`` and ``substitutes`` are not taken with it.
    Otherwise ``substitutes`` replace estimators by name and ``keep(cell)`` restricts the
    cells run. A registered claim with its own estimators on all its cells is judged once
    per session (a copy of the verdict is returned).
    """
    if fault is not None:
        if keep is not None or options or substitutes:
            raise TypeError("run_claim: a planted fault runs its own cells and estimators; give fault alone")
        return run_fault(claim, fault, profile).verdict
    profile = profile or "ci"
    claim = claim if isinstance(claim, Claim) else get(claim)
    memo = _registered(claim) and not substitutes and keep is None and not options and (claim.id, profile)
    if substitutes:
        claim = claim.with_estimators(**substitutes)
    if memo and memo in _JUDGED:
        return copy.deepcopy(_JUDGED[memo])
    ev = evaluate([claim], profile, jobs=1, options=options, keep=keep)
    if ev.errors:
        raise RuntimeError("; ".join(ev.errors[:3]))
    if memo:
        _JUDGED[memo] = copy.deepcopy(ev.verdicts[claim.id])
    return ev.verdicts[claim.id]


def ci_cells(claim_id: str) -> int:
    """The number of cells of a claim's ci sweep, from its declaration."""
    return len(get(claim_id).cells("ci"))


def first_look_cells(claim_id: str) -> int:
    """The number of cells of a claim's first look at ci (:func:`seed_looks`), from its
    declaration: where a claim that fails at once stops."""
    cells = get(claim_id).cells("ci")
    first = seed_looks(get(claim_id), cells)[0]
    return sum(c.seed in first for c in cells)
