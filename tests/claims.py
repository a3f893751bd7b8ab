"""Running claims in-process for the tests, through the one pipeline: serial,
in memory, at a profile, optionally with a planted fault substituted."""

import copy

from kpca_suite.suites.claim import Claim
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


def run_claim(claim, profile="ci", keep=None, options=None, fault=None, **substitutes):
    """The Verdict of ``claim`` (an id or a Claim) at ``profile``.

    ``fault`` names one of the claim's declared faults (its ``keep`` and
    ``profile`` apply unless given here); ``substitutes`` replace estimators
    by name; ``keep(cell)`` restricts the cells run. A registered claim with its own
    estimators or a declared fault, on all its cells or the fault's, is judged once
    per session (a copy of the verdict is returned).
    """
    claim = claim if isinstance(claim, Claim) else get(claim)
    memo = (_registered(claim) and not substitutes and keep is None and not options
            and (claim.id, profile, fault))
    if fault is not None:
        declared = claim.fault(fault)
        claim = claim.with_estimators(**declared.estimators)
        keep = keep if keep is not None else declared.keep
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
