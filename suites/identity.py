"""Which code computed a cell: the identity a stored cell carries, and what changed since.

Every cell of a claim carries, in its params (so in its store key), ``code``: the first 12
hex digits of SHA-256 over the source of the code that computes it,

* the modules of the claim's experiment and of its estimators (a planted fault's too),
  and :mod:`suites.cell` (the random streams of every cell come from there);
* transitively, every module they import, statements inside functions included, with the
  precision of :func:`suites.fingerprint.walk` (one estimator imported from a package that
  re-exports fifty is one dependency): the paper's package, the suite's kernels, methods and
  theory, the roles, probes, adapters and data loaders, a plug-in paper's own modules;
* ``name==version`` of every installed distribution they reach (numpy, scikit-learn, ...),
  and of those they require, and the Python version.

The harness that declares, runs, judges, stores or shows cells (:data:`HARNESS`) reads
cells but computes none of their numbers, and stays out: a change of the report, a plot or
a judging recipe recomputes nothing, since a verdict is judged anew from the cells on every
run. A cell run with another implementation also carries ``implementation``, the
fingerprint of that factory's code (:func:`suites.fingerprint.identity`).

A run reuses a stored cell only when its key, identity included, matches; the cells of other
code stay in the store, apart, and :func:`stale_cells` says how many there are and what
changed ("suites/papers/sterge20/insample.py changed"), from the record of each identity's
modules that the store keeps (meta ``identity <fingerprint>``, :func:`remember`).
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import json
import os
import sys
from collections import Counter
from typing import Optional

from .fingerprint import _HARNESS, _SUITE, Identity, _identity, cached_walk, identity

#: The modules of ``kpca_suite.suites`` that declare, run, judge, store or show cells, and
#: compute none of their numbers; every other module of the suite a claim reaches is hashed.
HARNESS = ("allocator", "arguments", "benchmarks", "catalogue", "claim", "cli", "conformance", "coverage", "faults", "files",
           "fingerprint", "identity", "judging", "machine", "perf", "pipeline", "plan", "plots", "registry", "report",
           "report_html", "report_model", "runner", "store", "testing")

#: The cell params that carry identities: reserved, no grid may set them.
IDENTITY_PARAMS = ("code", "implementation")

_CELL_MODULE = f"{_HARNESS}.cell"


def _harness(name: str) -> bool:
    if name in (_SUITE, _HARNESS):
        return True
    if not name.startswith(_HARNESS + "."):
        return False
    return name[len(_HARNESS) + 1:].split(".", 1)[0] in HARNESS


def _ours(name: str) -> bool:
    """The suite's own modules are hashed even when the suite was installed from an index."""
    return name == _SUITE or name.startswith(_SUITE + ".")


def _module_of(obj) -> str:
    """The module whose code ``obj`` (a function, a class, an instance, a partial) runs
    (its ``__module__`` when no loaded module holds it: a root that is then unknown)."""
    while isinstance(obj, functools.partial):
        obj = obj.func
    obj = getattr(obj, "__func__", obj)
    module = inspect.getmodule(obj) or inspect.getmodule(type(obj))
    return module.__name__ if module is not None else str(getattr(obj, "__module__", None) or repr(obj))


def roots(claim) -> tuple:
    """The modules a claim's cells run: :mod:`suites.cell`, its experiment's, and its
    estimators' (a plugged-in implementation's slot left out: that code is identified
    apart, as ``implementation``)."""
    names = [_CELL_MODULE, _module_of(claim.experiment)]
    for key, est in sorted(claim.estimators.items()):
        if est is None or (claim.implementation is not None and claim.subject is not None
                           and key == claim.subject.estimator):
            continue
        names.append(_module_of(est))
    return tuple(dict.fromkeys(names))


def code_identity(modules: tuple) -> Identity:
    """The :class:`~suites.fingerprint.Identity` of the code that runs ``modules`` (their
    names), the harness left out."""
    found = cached_walk(modules, _harness, _ours)
    return _identity(hashlib.sha256(f"python {sys.version_info[:3]}".encode()), found)


def claim_identity(claim) -> Identity:
    """The identity of the code that computes ``claim``'s cells (module docstring)."""
    return code_identity(roots(claim))


def identity_params(claim) -> tuple:
    """The ``(name, value)`` params that a cell of ``claim`` carries: ``code`` and, with
    another implementation plugged in, ``implementation``."""
    out = (("code", claim_identity(claim).fingerprint),)
    return out + ((("implementation", claim.implementation),) if claim.implementation else ())


# ---------------------------------------------------------------------- what the store remembers

def record(ident: Identity) -> str:
    """The JSON the store keeps of an identity: each module's name, file and digest, and
    the distributions."""
    return json.dumps({"modules": [list(m) for m in ident.modules], "distributions": list(ident.distributions)},
                      separators=(",", ":"))


@functools.lru_cache(maxsize=None)
def _project_root(directory: str) -> Optional[str]:
    """The nearest directory at or above ``directory`` that holds a ``pyproject.toml``,
    ``setup.py`` or ``setup.cfg`` (a project's root), or None."""
    if any(os.path.exists(os.path.join(directory, f)) for f in ("pyproject.toml", "setup.py", "setup.cfg")):
        return directory
    parent = os.path.dirname(directory)
    return None if parent == directory else _project_root(parent)


def _shown(path: str) -> str:
    """A module's file as its author knows it: relative to its project's root, else as is."""
    root = _project_root(os.path.dirname(os.path.abspath(path)))
    return os.path.relpath(path, root) if root else path


def remember(store, claims) -> None:
    """Keep in the store's meta the record of the identity of each claim's code and of each
    plugged-in implementation's (``identity <fingerprint>``), so that a later run can say
    what changed."""
    idents = [claim_identity(c) for c in claims]
    idents += [identity(c.estimators[c.subject.estimator]) for c in claims
               if c.implementation is not None and c.estimators.get(c.subject.estimator) is not None]
    for ident in idents:
        key = f"identity {ident.fingerprint}"
        if ident.established and store.get_meta(key) is None:
            store.set_meta(key, record(ident))


def changes(store, old: str, new: Identity) -> str:
    """What differs between the code of fingerprint ``old`` (as the store recorded it) and
    ``new``, in one short phrase ("suites/methods/nystrom.py changed; numpy 2.4.5 -> 2.4.6")."""
    text = store.get_meta(f"identity {old}")
    if text is None:
        return f"made by code of fingerprint {old}, of which the store keeps no record"
    try:
        was = json.loads(text)
        before = {name: (path, digest) for name, path, digest in was["modules"]}
        dists_before = set(was["distributions"])
    except (ValueError, KeyError, TypeError):
        return f"made by code of fingerprint {old}, whose record in the store does not read back"
    now = {name: (path, digest) for name, path, digest in new.modules}
    said = [f"{_shown(now[n][0])} changed" for n in now if n in before and before[n][1] != now[n][1]]
    said += [f"{_shown(now[n][0])} now reached" for n in now if n not in before]
    said += [f"{_shown(before[n][0])} no longer reached" for n in before if n not in now]
    gone, came = dists_before - set(new.distributions), set(new.distributions) - dists_before
    said += _versions_changed(gone, came)
    if not said:
        return f"made by code of fingerprint {old} (the Python version or the way the code is reached differs)"
    return "; ".join(said[:4]) + (f" and {len(said) - 4} more" if len(said) > 4 else "")


def _versions_changed(gone: set, came: set) -> list:
    """``numpy 2.4.5 -> 2.4.6`` for each distribution whose version changed."""
    def split(d):
        return d.split("==", 1) if "==" in d else (d.split(" ", 1)[0], d)
    old, new = dict(map(split, gone)), dict(map(split, came))
    said = [f"{n} {old[n]} -> {new[n]}" for n in sorted(old.keys() & new.keys())]
    said += [f"{n} {old[n]} no longer reached" for n in sorted(old.keys() - new.keys())]
    return said + [f"{n} {new[n]} now reached" for n in sorted(new.keys() - old.keys())]


class Stale(Counter):
    """``{(code, implementation): rows}`` of the stored rows of a claim made by other code
    for cells of today's sweep that are not stored; ``bare`` the keys of those cells without
    their identity (:func:`bare_key`)."""

    bare: frozenset = frozenset()


def bare_key(cell) -> tuple:
    """A cell's key without its identity params."""
    return cell.claim, cell.method, cell.n, cell.seed, tuple(kv for kv in cell.params if kv[0] not in IDENTITY_PARAMS)


def stale_cells(store, claim, cells) -> Stale:
    """The stored rows of ``claim`` that stand where ``cells`` (the sweep's, with today's
    identity) are not stored: the same cell computed by other code (:class:`Stale`; empty
    when nothing stale stands in)."""
    done = store.done_keys(claim.id)
    missing = {bare_key(c) for c in cells if c.key() not in done}
    out = Stale()
    if missing:
        rows = [r.cell for r in store.results(claim.id) if bare_key(r.cell) in missing]
        out.update((c.p.get("code"), c.p.get("implementation")) for c in rows)
        out.bare = frozenset(bare_key(c) for c in rows)
    return out


def stale_reason(store, claim, stale: Stale) -> str:
    """``stale`` (from :func:`stale_cells`) in words: what changed since those cells were made."""
    now = claim_identity(claim)
    factory = claim.estimators.get(claim.subject.estimator) if claim.implementation else None
    said = []
    for (code, impl), _ in stale.most_common():
        if code != now.fingerprint:
            said.append(changes(store, code, now) if code else "made before cells carried their code's identity")
        if impl != claim.implementation and impl is not None:
            what = changes(store, impl, identity(factory)) if factory is not None else f"fingerprint {impl}"
            said.append(f"the implementation's code: {what}")
    return "; ".join(dict.fromkeys(said))


def recomputed(store, claim, stale: Stale, new_keys) -> Optional[str]:
    """``"15 cell(s) recomputed: the stored ones were computed by other code (X changed)"``
    for the cells of ``new_keys`` (stored by this run) that stand where ``stale`` rows did;
    None when there are none."""
    count = sum(bare_key(c) in stale.bare for c in new_keys)
    if not count:
        return None
    return f"{count} cell(s) recomputed: the stored ones were computed by other code ({stale_reason(store, claim, stale)})"


def stale_summary(store, claim, stale: Stale) -> Optional[str]:
    """``"12 cell(s) are stored as computed by other code (suites/papers/sterge20/insample.py
    changed)"``, or None when ``stale`` is empty."""
    if not stale:
        return None
    return f"{len(stale.bare)} cell(s) are stored as computed by other code ({stale_reason(store, claim, stale)})"
