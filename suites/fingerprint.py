"""Which code produced a result: a short fingerprint of an implementation.

A claim run with someone else's implementation stores its cells under the
estimator's name; the fingerprint travels in every cell's parameters (``code``), so
a changed implementation under the same name gets new cells instead of being judged
on the old ones (which stay in the store, apart).

The fingerprint is the first 12 hex digits of SHA-256 over

* the factory's import path (``module:qualname``);
* the source of the factory's module, when it can be read;
* the name and version of the installed distribution that owns that module, and of
  every distribution in ``packages`` (the libraries a built-in adapter wraps);
* the sources of the ``code`` packages (our own ``methods`` and ``kernels`` for our
  adapters), so that a change to our estimators is a change of ours;
* the factory's ``version`` attribute, when it declares one
  (:func:`suites.roles.implementation`).

A change elsewhere (a library the factory's module imports without a version
bump) is not seen: declare ``version`` or run with ``--fresh``.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import inspect
from importlib import metadata
from pathlib import Path
from typing import Callable, Iterable


def import_path(factory: Callable) -> str:
    """``module:qualname`` of a factory (``?`` for what cannot be named)."""
    module = getattr(factory, "__module__", None) or "?"
    return f"{module}:{getattr(factory, '__qualname__', type(factory).__qualname__)}"


@functools.lru_cache(maxsize=None)
def _distribution_of(top: str) -> str:
    """``name==version`` of the distribution providing the top-level package ``top``, or ''."""
    dists = metadata.packages_distributions().get(top, [])
    return ",".join(f"{d}=={metadata.version(d)}" for d in sorted(set(dists)))


def _version(dist: str) -> str:
    try:
        return f"{dist}=={metadata.version(dist)}"
    except metadata.PackageNotFoundError:
        return f"{dist} not installed"


@functools.lru_cache(maxsize=None)
def _package_source_digest(package: str) -> str:
    """SHA-256 of every ``.py`` file of an importable package, in path order."""
    mod = importlib.import_module(package)
    h = hashlib.sha256()
    for path in sorted(Path(p) for root in mod.__path__ for p in Path(root).rglob("*.py")):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def fingerprint(factory: Callable, packages: Iterable[str] = (), code: Iterable[str] = ()) -> str:
    """The fingerprint of ``factory`` (module docstring)."""
    h = hashlib.sha256(import_path(factory).encode())
    module = inspect.getmodule(factory)
    if module is not None:
        try:
            h.update(inspect.getsource(module).encode())
        except (OSError, TypeError):  # built in, or no source file: its name and version stand for it
            pass
        h.update(_distribution_of(module.__name__.split(".", 1)[0]).encode())
    for dist in packages:
        h.update(_version(dist).encode())
    for package in code:
        h.update(_package_source_digest(package).encode())
    version = getattr(factory, "version", None)
    if version is not None:
        h.update(str(version).encode())
    return h.hexdigest()[:12]
