"""Running claims in-process for the tests, through the one pipeline: serial,
in memory, at a profile, optionally with a planted fault substituted."""

from kpca_suite.suites.claim import Claim
from kpca_suite.suites.pipeline import evaluate
from kpca_suite.suites.registry import get


def run_claim(claim, profile="ci", keep=None, options=None, fault=None, **substitutes):
    """The Verdict of ``claim`` (an id or a Claim) at ``profile``.

    ``fault`` names one of the claim's declared faults (its ``keep`` and
    ``profile`` apply unless given here); ``substitutes`` replace estimators
    by name; ``keep(cell)`` restricts the cells run.
    """
    claim = claim if isinstance(claim, Claim) else get(claim)
    if fault is not None:
        declared = claim.fault(fault)
        claim = claim.with_estimators(**declared.estimators)
        keep = keep if keep is not None else declared.keep
    if substitutes:
        claim = claim.with_estimators(**substitutes)
    ev = evaluate([claim], profile, jobs=1, options=options, keep=keep)
    if ev.errors:
        raise RuntimeError("; ".join(ev.errors[:3]))
    return ev.verdicts[claim.id]


def ci_cells(claim_id: str) -> int:
    """The number of cells of a claim's ci sweep, from its declaration."""
    return len(get(claim_id).cells("ci"))
