"""Running claims in-process for the tests, through the one pipeline: serial,
in memory, at a profile; a planted fault as :func:`check_faults` runs it."""

import copy
import fcntl
import hashlib
import os
import pickle
from pathlib import Path
from typing import Optional

from kpca_suite.suites.claim import Claim
from kpca_suite.suites.faults import fault_runs, judge_faults
from kpca_suite.suites.pipeline import evaluate, seed_looks
from kpca_suite.suites.registry import get


#: Verdicts of registered claims (and their declared faults) already judged in this test
#: session: a claim is deterministic, and several tests read the same one (every claim and
#: fault at ci in test_claims.py, their details in each paper's tests).
_JUDGED: dict = {}


#: Where the xdist workers of one test run share those verdicts (set by conftest's
#: ``shared_verdicts`` from the run's own temporary directory; None in a run without
#: workers, where ``_JUDGED`` is all there is).
SHARED: Optional[Path] = None


def _judged_once(memo, judge):
    """``judge()`` once per test run for ``memo`` (a registered claim or fault at a
    profile), a copy returned: kept in this process, and with xdist workers pickled under
    :data:`SHARED` beside a lock, so the worker that asks second waits for the first one's
    verdict instead of judging it again (test_claims.py and the paper tests ask for the
    same ones from either worker)."""
    if memo not in _JUDGED:
        if SHARED is None:
            _JUDGED[memo] = judge()
        else:
            path = SHARED / hashlib.sha256(repr(memo).encode()).hexdigest()[:32]
            with open(path.with_suffix(".lock"), "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes, also on an error
                if path.exists():
                    _JUDGED[memo] = pickle.loads(path.read_bytes())
                else:
                    _JUDGED[memo] = judge()
                    path.with_suffix(".part").write_bytes(pickle.dumps(_JUDGED[memo]))
                    os.replace(path.with_suffix(".part"), path)
    return copy.deepcopy(_JUDGED[memo])


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

    def judge():
        return judge_faults([(run, declared)], profile)[run.id]
    if not _registered(claim):
        return judge()
    return _judged_once((run.id, profile or declared.profile), judge)


def run_claim(claim, profile=None, keep=None, options=None, fault=None, **substitutes):
    """The Verdict of ``claim`` (an id or a Claim) at ``profile`` (default ``ci``).

    ``fault`` names one of the claim's declared faults: the verdict :func:`run_fault` gives
    (at ``profile``, by default the fault's own), which runs the fault's cells and
    estimators, so ``keep``, ``options`` and ``substitutes`` are not taken with it.
    Otherwise ``substitutes`` replace estimators by name and ``keep(cell)`` restricts the
    cells run. A registered claim with its own estimators on all its cells is judged once
    per test run (:func:`run_evaluation`; a copy of the verdict is returned).
    """
    if fault is not None:
        if keep is not None or options or substitutes:
            raise TypeError("run_claim: a planted fault runs its own cells and estimators; give fault alone")
        return run_fault(claim, fault, profile).verdict
    profile = profile or "ci"
    claim = claim if isinstance(claim, Claim) else get(claim)
    if _registered(claim) and not substitutes and keep is None and not options:
        return run_evaluation(claim, profile).verdicts[claim.id]
    if substitutes:
        claim = claim.with_estimators(**substitutes)
    return _evaluated(claim, profile, options, keep).verdicts[claim.id]


def run_evaluation(claim, profile="ci"):
    """The :class:`~suites.pipeline.Evaluation` of the registered ``claim`` (an id or a Claim)
    with its own estimators on all its cells at ``profile``: its verdict and results, judged
    once per test run (a copy is returned; :func:`run_claim` reads the same one)."""
    claim = claim if isinstance(claim, Claim) else get(claim)
    return _judged_once((claim.id, profile), lambda: _evaluated(claim, profile))


def _evaluated(claim, profile, options=None, keep=None):
    ev = evaluate([claim], profile, jobs=1, options=options, keep=keep)
    if ev.errors:
        raise RuntimeError("; ".join(ev.errors[:3]))
    return ev


def ci_cells(claim_id: str) -> int:
    """The number of cells of a claim's ci sweep, from its declaration."""
    return len(get(claim_id).cells("ci"))


def first_look_cells(claim_id: str) -> int:
    """The number of cells of a claim's first look at ci (:func:`seed_looks`), from its
    declaration: where a claim that fails at once stops."""
    cells = get(claim_id).cells("ci")
    first = seed_looks(get(claim_id), cells)[0]
    return sum(c.seed in first for c in cells)
