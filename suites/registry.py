"""The claim registry: the one source for the CLI, the pytest theory-regression
tests, the asv ``track_`` benchmarks and the report.

Papers are discovered, not listed: every package (or module) of
``kpca_suite.suites.papers`` whose name does not start with ``_``, and every module named by an installed
distribution's entry point of the group ``kpca_suite.papers`` (so a research
group can ship its own claims as a package)::

    [project.entry-points."kpca_suite.papers"]
    mypaper = "mypackage.mypaper"

A paper module defines ``PAPER`` (a :class:`~.claim.Paper`) and ``CLAIMS``
(a sequence of :class:`~.claim.Claim` whose ids start with ``PAPER.key + "."``).
Importing a paper module must stay cheap: no data load and no JIT compile.
"""

from __future__ import annotations

import importlib
import pkgutil
from importlib.metadata import entry_points

from .claim import Claim, Paper

ENTRY_POINT_GROUP = "kpca_suite.papers"
PAPERS_PACKAGE = "kpca_suite.suites.papers"

REGISTRY: dict[str, Claim] = {}
PAPERS: dict[str, Paper] = {}
_LOADED: set = set()


def paper_modules() -> list:
    """Module names of every discoverable paper: ours first (alphabetical),
    then those of installed entry points."""
    pkg = importlib.import_module(PAPERS_PACKAGE)
    ours = sorted(f"{PAPERS_PACKAGE}.{m.name}" for m in pkgutil.iter_modules(pkg.__path__)
                  if not m.name.startswith("_"))
    theirs = sorted(ep.value for ep in entry_points(group=ENTRY_POINT_GROUP))
    return ours + [m for m in theirs if m not in ours]


def register_module(module) -> None:
    """Register the ``PAPER`` and ``CLAIMS`` of an imported paper module."""
    paper, claims = getattr(module, "PAPER", None), getattr(module, "CLAIMS", None)
    if not isinstance(paper, Paper) or claims is None:
        raise ImportError(f"paper module {module.__name__} must define PAPER (a Paper) and CLAIMS")
    if paper.key in PAPERS and PAPERS[paper.key] is not paper:
        raise ValueError(f"paper {paper.key!r} is defined twice (again in {module.__name__})")
    for claim in claims:
        if claim.paper != paper.key:
            raise ValueError(f"claim {claim.id!r} of {module.__name__} does not start with {paper.key + '.'!r}")
        if claim.id in REGISTRY and REGISTRY[claim.id] is not claim:
            raise ValueError(f"claim {claim.id!r} is registered twice")
    PAPERS[paper.key] = paper
    for claim in claims:
        REGISTRY[claim.id] = claim


def load_all() -> dict:
    """Import every discovered paper module not imported yet and register its claims."""
    for name in paper_modules():
        if name not in _LOADED:
            register_module(importlib.import_module(name))
            _LOADED.add(name)
    return REGISTRY


def get(claim_id: str) -> Claim:
    load_all()
    try:
        return REGISTRY[claim_id]
    except KeyError:
        raise KeyError(f"unknown claim {claim_id!r}; `kpca-suite list` shows the registered ones") from None


def select(names=None) -> list:
    """Claims matching ``names``: each a claim id or a paper name (``sterge20``).
    No names selects every claim. Unknown names raise ``KeyError``."""
    load_all()
    if not names:
        return list(REGISTRY.values())
    chosen: list = []
    for name in names:
        hits = [c for c in REGISTRY.values() if c.id == name or c.paper == name]
        if not hits:
            raise KeyError(f"no claim or paper named {name!r}; `kpca-suite list` shows the registered ones")
        chosen.extend(c for c in hits if c not in chosen)
    return chosen
