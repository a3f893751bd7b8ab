"""The claim registry: the one source for the CLI, the pytest theory-regression
tests, the asv ``track_`` benchmarks and the report.

Papers are discovered, not listed: every package (or module) of
``kpca_suite.suites.papers`` whose name does not start with ``_``, and every module named by an installed
distribution's entry point of the group ``kpca_suite.papers`` (so a research
group can ship its own claims as a package)::

    [project.entry-points."kpca_suite.papers"]
    mypaper = "mypackage.mypaper"

A paper module defines ``PAPER`` (a :class:`~.claim.Paper`) and ``CLAIMS``
(a sequence of :class:`~.claim.Claim` whose ids start with ``PAPER.key + "."``), and
optionally ``RESULTS``, the inventory of the paper's statements (a sequence of
:class:`~.coverage.Stated`: which claims check each, or why none does).
Importing a paper module must stay cheap: no data load and no JIT compile.

The suite's own papers (:func:`own_papers`, modules under :data:`PAPERS_PACKAGE`) are
the ones its consistency checks cover (the shipped catalogue, the README's table). A
plug-in (a module of an entry point) that cannot be imported or registered is skipped
with one :class:`PluginWarning` per process naming its entry point, module and file;
one of ours that cannot is our defect and raises.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import warnings
from importlib.metadata import entry_points

from .claim import Claim, Paper
from .coverage import Stated

ENTRY_POINT_GROUP = "kpca_suite.papers"
PAPERS_PACKAGE = "kpca_suite.suites.papers"

REGISTRY: dict[str, Claim] = {}
PAPERS: dict[str, Paper] = {}
#: paper key -> its inventory (``RESULTS``), for the papers that declare one
INVENTORIES: dict[str, tuple] = {}
_LOADED: set = set()
_SKIPPED: set = set()


class PluginWarning(UserWarning):
    """A paper plug-in was skipped: its module failed to import or is not a paper module."""


def paper_modules() -> list:
    """Module names of every discoverable paper: ours first (alphabetical),
    then those of installed entry points."""
    pkg = importlib.import_module(PAPERS_PACKAGE)
    ours = sorted(f"{PAPERS_PACKAGE}.{m.name}" for m in pkgutil.iter_modules(pkg.__path__)
                  if not m.name.startswith("_"))
    theirs = sorted(ep.value for ep in entry_points(group=ENTRY_POINT_GROUP))
    return ours + [m for m in theirs if m not in ours]


def is_ours(module: str) -> bool:
    """Whether the paper module named ``module`` is one of the suite's own (under
    :data:`PAPERS_PACKAGE`), not a plug-in's."""
    return module.startswith(PAPERS_PACKAGE + ".")


def own_papers() -> list:
    """The keys of the suite's own papers, in the registry's order."""
    load_all()
    return [importlib.import_module(name).PAPER.key for name in paper_modules() if is_ours(name)]


def own_claims() -> list:
    """The claims of the suite's own papers (:func:`own_papers`), in the registry's order."""
    ours = set(own_papers())
    return [c for c in REGISTRY.values() if c.paper in ours]


def _module_file(name: str):
    """Where the module ``name`` is (or would be) loaded from: its file, the folders of a
    namespace package, or None when it cannot be found."""
    try:
        spec = importlib.util.find_spec(name)
    except Exception:  # noqa: BLE001 - its parent package fails to import: nothing to point at
        return None
    if spec is None:
        return None
    if spec.has_location:
        return spec.origin
    return ", ".join(spec.submodule_search_locations or ()) or None


def register_module(module) -> None:
    """Register the ``PAPER`` and ``CLAIMS`` of an imported paper module."""
    paper, claims = getattr(module, "PAPER", None), getattr(module, "CLAIMS", None)
    if not isinstance(paper, Paper) or claims is None:
        raise ImportError(f"paper module {module.__name__} ({_module_file(module.__name__) or 'no file'}) "
                          "must define PAPER (a Paper) and CLAIMS")
    if paper.key in PAPERS and PAPERS[paper.key] is not paper:
        raise ValueError(f"paper {paper.key!r} is defined twice (again in {module.__name__})")
    for claim in claims:
        if claim.paper != paper.key:
            raise ValueError(f"claim {claim.id!r} of {module.__name__} does not start with {paper.key + '.'!r}")
        if claim.id in REGISTRY and REGISTRY[claim.id] is not claim:
            raise ValueError(f"claim {claim.id!r} is registered twice")
    inventory = getattr(module, "RESULTS", None)
    if inventory is not None and not all(isinstance(r, Stated) for r in inventory):
        raise ValueError(f"paper module {module.__name__}: RESULTS must be a sequence of "
                         "kpca_suite.suites.coverage.Stated")
    PAPERS[paper.key] = paper
    if inventory is not None:
        INVENTORIES[paper.key] = tuple(inventory)
    for claim in claims:
        REGISTRY[claim.id] = claim


def load_all() -> dict:
    """Import every discovered paper module not imported (or skipped) yet and register
    its claims: one of ours that fails raises, a plug-in that fails is skipped
    (:func:`_load_plugin`)."""
    for name in paper_modules():
        if name in _LOADED or name in _SKIPPED:
            continue
        if is_ours(name):
            register_module(importlib.import_module(name))
        elif not _load_plugin(name):
            continue
        _LOADED.add(name)
    return REGISTRY


def _load_plugin(name: str) -> bool:
    """Import and register the plug-in module ``name``; True when it is registered. One that
    raises on import or is not a paper module is skipped for the rest of the process, with
    one :class:`PluginWarning` naming its entry point, module and file."""
    try:
        register_module(importlib.import_module(name))
    except Exception as e:  # noqa: BLE001 - someone else's module: any failure skips it
        _SKIPPED.add(name)
        points = ", ".join(repr(ep.name) for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.value == name)
        warnings.warn(PluginWarning(
            f"skipped the paper plug-in {points} (entry point group {ENTRY_POINT_GROUP}, module {name}, "
            f"file {_module_file(name) or 'not found'}): {type(e).__name__}: {e}"))
        return False
    return True


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
