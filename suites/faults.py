"""Planted faults, run and judged as claims are: each declared fault of a claim runs as a
claim of its own (:meth:`Claim.for_fault`, id ``<claim>[fault:<name>]``: a store keeps its
cells apart from the claim's, and it sees the claim's data streams), on the cells its
``keep`` selects, through the one pipeline; its verdict is set against the one it declares
(``expect``, ``fails`` for a fault). A fault that does not give its declared verdict is a
defect of the claim: the claim cannot catch what the fault plants.

``check_faults(claims, profile)``   every fault's verdict, from Python;
``kpca-suite run CLAIM --fault NAME`` (or ``--faults``) and the tests' planted-fault cases
run them through :func:`fault_runs`, :func:`keep_faults` and :func:`judge_faults` too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from .claim import Cell, Verdict, check_profile


@dataclass(frozen=True)
class FaultVerdict:
    """A planted fault's verdict and the verdict the fault declares (``expect``)."""

    verdict: Verdict
    expect: str

    @property
    def as_expected(self) -> bool:
        """Whether the fault gives its declared verdict (if not, its claim cannot catch it)."""
        return self.verdict.status == self.expect


def fault_runs(claims, name: Optional[str] = None) -> list:
    """``[(run, fault)]``: the planted fault ``name`` of each claim (every fault of each
    when None) as a claim of its own (:meth:`Claim.for_fault`), with its declaration.
    KeyError, naming the claim and its faults, when a claim does not declare ``name``."""
    return [(claim.for_fault(fault.name), fault) for claim in claims
            for fault in (claim.faults if name is None else (claim.fault(name),))]


def keep_faults(runs) -> Callable[[Cell], bool]:
    """One cell filter for a sweep that holds fault runs (``[(run, fault)]``): a run's
    cells are those its fault's ``keep`` selects (all when it has none), and every other
    claim's cells are kept, so that the filter serves a sweep or a store holding both."""
    keeps = {run.id: fault.keep for run, fault in runs}

    def keep(cell: Cell) -> bool:
        chosen = keeps.get(cell.claim)
        return chosen is None or chosen(cell)
    return keep


def judge_faults(runs, profile: Optional[str] = None, store=None, executor=None,
                 jobs: Optional[int] = 1) -> dict:
    """Run and judge fault runs (``[(run, fault)]``, :func:`fault_runs`), each at ``profile``
    or, when None, at the profile its fault declares.

    Returns ``{run id: FaultVerdict}`` in the order of ``runs``. A cell that raises leaves
    its run ``inconclusive``, naming the error (:func:`suites.pipeline.evaluate`), which is
    not the verdict a fault declares."""
    from .pipeline import evaluate

    by_profile: dict = {}
    for run, fault in runs:
        by_profile.setdefault(check_profile(profile or fault.profile), []).append((run, fault))
    verdicts = {}
    for at, group in by_profile.items():
        ev = evaluate([run for run, _ in group], at, store, executor, jobs=jobs, keep=keep_faults(group))
        verdicts.update(ev.verdicts)
    return {run.id: FaultVerdict(verdicts[run.id], fault.expect) for run, fault in runs}


def check_faults(claims, profile: Optional[str] = None, store=None, jobs: Optional[int] = 1,
                 executor=None) -> dict:
    """Run every planted fault of ``claims`` and return its verdict with the one it declares.

    Parameters
    ----------
    claims : claim id, paper name, or a list of them
        A single string is one id (or paper); empty or None: every registered claim.
    profile : "ci", "quick" or "full", optional
        Default: each fault's declared ``profile`` (``ci`` for every fault of ours).
    store, jobs, executor
        As for :func:`suites.pipeline.evaluate` (default: in memory, serial). A store keeps
        each fault's cells under ``<claim>[fault:<name>]``, apart from the claim's own.

    Returns
    -------
    dict
        ``{"<claim>[fault:<name>]": FaultVerdict}``: ``.verdict``, ``.expect`` (the verdict
        the fault declares) and ``.as_expected``, for every fault in declaration order.

    Raises
    ------
    ValueError
        An unknown claim or paper in ``claims``, or a ``profile`` not in ``PROFILES``.
    """
    from . import registry

    if isinstance(claims, str):
        claims = [claims]
    try:
        chosen = registry.select(list(claims) if claims else None)
    except KeyError as e:
        raise ValueError(f"claims: {e.args[0]}") from None
    return judge_faults(fault_runs(chosen), profile, store, executor, jobs)
