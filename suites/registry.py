"""The claim registry: the one source for the CLI, the pytest theory-regression
tests, the asv ``track_`` benchmarks and the report.

A claim is data (id, source, statement, prediction, tolerance, sizes per profile)
plus three functions:

``cells(profile, options) -> list[Cell]``
    the sweep: one cell per (method, n, seed, params); ``options`` carries
    user choices from the CLI (e.g. ``{"data": "mnist.npz"}``) and is ``{}`` by
    default;
``run_cell(cell) -> dict[str, float]``
    the experiment for one cell, a module-level function so that a process pool
    can pickle it; it must depend on the cell alone (its seed included);
``judge(results, profile) -> Verdict``
    the verdict from all finished cells of the claim.

Claims are registered by the per-paper modules (``suites/sterge20.py``, ...) at
import time; :func:`load_all` imports them.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

PROFILES = ("ci", "quick", "full")
STATUSES = ("holds", "fails", "inconclusive")
PAPER_MODULES = ("suites.sterge20", "suites.hallgren21", "suites.ghashami16", "suites.bach13", "suites.ullah18")


@dataclass(frozen=True)
class Cell:
    """One unit of a sweep: a claim evaluated for one method, size and seed.

    ``params`` holds any further settings (m, ell, profile, ...) as a sorted
    tuple of (name, value) pairs so that the cell is hashable and has a stable
    text key.
    """

    claim: str
    method: str
    n: int
    seed: int
    params: tuple = ()

    @staticmethod
    def make(claim: str, method: str, n: int, seed: int, **params: Any) -> "Cell":
        return Cell(claim, method, int(n), int(seed), tuple(sorted(params.items())))

    @property
    def p(self) -> dict:
        """The params as a dict."""
        return dict(self.params)

    def key(self) -> str:
        """Stable text key, used by the results store to skip finished cells."""
        return json.dumps(
            [self.claim, self.method, self.n, self.seed, [list(kv) for kv in self.params]],
            separators=(",", ":"),
        )


@dataclass
class Result:
    """A finished cell: its metrics, wall time (s) and peak traced memory (bytes)."""

    cell: Cell
    metrics: dict
    wall_time: float = float("nan")
    peak_mem: int = 0


@dataclass
class Fit:
    """A log-log fit drawn on the claim's plot and listed in the report.

    ``x`` are the sizes, ``y`` a (len(x), seeds) array of the metric (NaN where
    a seed is missing), ``slope`` / ``ci`` the fitted slope and its bootstrap
    95% interval, ``band`` the tolerance band on the slope (or None) and
    ``predicted`` the predicted slope (or None). ``reference`` optionally holds
    a deterministic reference curve (e.g. the exact R_{C,l}) on the same x.
    """

    label: str
    x: Any
    y: Any
    slope: float
    ci: tuple
    intercept: float = 0.0
    predicted: Optional[float] = None
    band: Optional[tuple] = None
    reference: Any = None
    xlabel: str = "n"
    ylabel: str = "metric"


@dataclass
class Verdict:
    """The outcome of a claim: status in STATUSES, a one-line summary, the fits
    for the plot, and measured / predicted numbers for the report table."""

    claim: str
    status: str
    summary: str
    fits: list = field(default_factory=list)
    measured: dict = field(default_factory=dict)
    predicted: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {self.status!r}")


@dataclass(frozen=True)
class Claim:
    id: str
    paper: str
    source: str
    statement: str
    prediction: str
    tolerance: str
    cells: Callable[[str, dict], list]
    run_cell: Callable[[Cell], dict]
    judge: Callable[[list, str], Verdict]
    figure: Optional[Callable] = None  # figure(results, verdict, outdir) -> list[Path]
    sizes: dict = field(default_factory=dict)  # profile -> human-readable sizes


REGISTRY: dict[str, Claim] = {}


def register(claim: Claim) -> Claim:
    if claim.id in REGISTRY:
        raise ValueError(f"claim {claim.id!r} is registered twice")
    REGISTRY[claim.id] = claim
    return claim


def load_all() -> dict[str, Claim]:
    """Import every paper module so that its claims register themselves."""
    for mod in PAPER_MODULES:
        importlib.import_module(mod)
    return REGISTRY


def get(claim_id: str) -> Claim:
    load_all()
    try:
        return REGISTRY[claim_id]
    except KeyError:
        raise KeyError(f"unknown claim {claim_id!r}; `kpca-suite list` shows the registered ones") from None


def select(names=None) -> list[Claim]:
    """Claims matching ``names``: each a claim id or a paper name (``sterge20``).
    No names selects every claim. Unknown names raise ``KeyError``."""
    load_all()
    if not names:
        return list(REGISTRY.values())
    chosen: list[Claim] = []
    for name in names:
        hits = [c for c in REGISTRY.values() if c.id == name or c.paper == name]
        if not hits:
            raise KeyError(f"no claim or paper named {name!r}; `kpca-suite list` shows the registered ones")
        chosen.extend(c for c in hits if c not in chosen)
    return chosen
