"""Which code produced a result: the identity of an implementation.

A claim run with someone else's implementation stores its cells under the
estimator's name; the fingerprint of the code travels in every cell's parameters
(``code``), so a changed implementation under the same name gets new cells instead
of being judged on the old ones (which stay in the store, apart).

The usual layout is a thin factory (in a library's tests or a conftest) over a library
installed editable: the factory's own source says little. So the fingerprint follows
the imports. It is the first 12 hex digits of SHA-256 over

* the factory's import path (``module:qualname``) and its ``version`` attribute, when
  it declares one (:func:`suites.roles.implementation`);
* the bytes of the factory's module and of every module it imports, transitively
  (every ``import`` and ``from ... import`` statement, those inside functions
  included, and every ``importlib.import_module`` or ``__import__`` of a literal name,
  read from the source without running it), that is not part of an
  installed distribution: a plain module beside the factory, a package installed
  editable or from a local path (its ``direct_url.json`` names a ``file://`` URL), a
  compiled extension built in place (its bytes);
* ``name==version`` of every installed distribution those modules import (scikit-learn,
  numpy, ...), and of the distributions those require, transitively; the Python version
  stands for the standard library;
* ``kpca-suite==<version>`` for the suite's harness, ``kpca_suite.suites`` (the roles a
  factory declares, the claims, the judge) and the package's ``__init__``, which a factory
  imports to declare its roles (installed or editable alike):
  it is the same for every implementation, so it is named, not hashed, and a commit to the
  suite does not make a maintainer's stored cells stale (nor did its whole import graph,
  plotting libraries included, enter their identity). The suite's kernels, methods and
  theory, when a factory imports them, are hashed like any other module.

A module that is reached but whose code cannot be read (a factory typed at an
interactive prompt, a module made at run time) leaves the identity *unestablished*:
the fingerprint is then ``unverified-`` and a random suffix, new in every process, so
the cells of that code are recomputed on every run, never reused.
:attr:`Identity.hashed` says in words what was hashed (the report shows it).
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import inspect
import json
import os
import re
import secrets
import site
import sys
import sysconfig
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Callable, Optional

#: Modules whose code never decides a result here (the standard library is named by
#: the Python version).
_STDLIB = frozenset(sys.stdlib_module_names) | frozenset(sys.builtin_module_names) | {"__future__"}

#: The suite's harness (this module's package) and the suite's top-level package, whose
#: ``__init__`` only names its sub-packages: named by the suite's version.
_HARNESS = __name__.rpartition(".")[0]
_SUITE = _HARNESS.partition(".")[0]


@dataclass(frozen=True)
class Identity:
    """What identifies an implementation's code: ``fingerprint`` (12 hex digits, or
    ``unverified-...`` when ``unknown`` is not empty), the hashed ``modules``
    (``(name, path, SHA-256 of the file)``), the ``distributions`` (``name==version``) and the modules
    whose code could not be read (``unknown``)."""

    fingerprint: str
    modules: tuple = ()
    distributions: tuple = ()
    unknown: tuple = ()

    @property
    def established(self) -> bool:
        return not self.unknown

    @property
    def hashed(self) -> str:
        """What the fingerprint covers, in one line."""
        mods = [name for name, *_ in self.modules]
        text = f"{len(mods)} module(s) hashed ({_some(mods)})"
        if self.distributions:
            text += f"; distributions {_some(list(self.distributions))}"
        if self.unknown:
            text += f"; code not readable, so recomputed on every run: {_some(list(self.unknown))}"
        return text


def _some(names: list, most: int = 8) -> str:
    return ", ".join(names[:most]) + (f" and {len(names) - most} more" if len(names) > most else "")


def import_path(factory: Callable) -> str:
    """``module:qualname`` of a factory (``?`` for what cannot be named)."""
    module = getattr(factory, "__module__", None) or "?"
    return f"{module}:{getattr(factory, '__qualname__', type(factory).__qualname__)}"


# ---------------------------------------------------------------------- installed distributions

@functools.lru_cache(maxsize=1)
def _site_dirs() -> tuple:
    dirs = {sysconfig.get_paths()[k] for k in ("purelib", "platlib")}
    dirs.update(getattr(site, "getsitepackages", lambda: [])())
    user = getattr(site, "getusersitepackages", lambda: None)()
    if user:
        dirs.add(user)
    return tuple(sorted(os.path.realpath(d) for d in dirs if d))


def _in_site(path: str) -> bool:
    real = os.path.realpath(path)
    return any(real == d or real.startswith(d + os.sep) for d in _site_dirs())


def _from_local_path(dist) -> bool:
    """Whether ``dist`` was installed from a local path (editable or not): its
    ``direct_url.json`` names a ``file://`` URL."""
    try:
        text = dist.read_text("direct_url.json")
        return bool(text) and json.loads(text).get("url", "").startswith("file://")
    except (ValueError, OSError, AttributeError):
        return False


@functools.lru_cache(maxsize=None)
def _owner(top: str) -> Optional[tuple]:
    """(distribution name, from a local path) of the distribution installed in a
    site-packages directory that provides the top-level module ``top``, or None."""
    for name in _providers().get(top, ()):
        try:
            dist = metadata.distribution(name)
            base = str(dist.locate_file(""))
        except Exception:  # noqa: BLE001 - a broken installation is not ours to judge
            continue
        if _in_site(base):
            return name, _from_local_path(dist)
    return None


@functools.lru_cache(maxsize=1)
def _providers() -> dict:
    return metadata.packages_distributions()


_REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)")


def _with_requirements(names) -> list:
    """``name==version`` of the distributions ``names`` and of those they require
    (extras left out), transitively, sorted.

    Kept while no directory on ``sys.path`` changes (:func:`_installed_state`): the walk
    reads each distribution's metadata, 60 ms per claim, and a run asks it of every claim
    at every look (31 s of the quick profile's 14 CPU-minutes, in the process that hands
    out the cells)."""
    return list(_requirement_closure(tuple(sorted(set(names))), _installed_state()))


def _installed_state() -> tuple:
    """(entry, mtime in ns) of every ``sys.path`` entry: installing, upgrading or removing a
    distribution adds or removes its ``*.dist-info`` directory in one of them, which
    changes that directory's mtime. ``importlib.metadata`` keys its own listing of each
    directory by the same mtime, so nothing finer would read a newer version."""
    state = []
    for entry in sys.path:
        try:
            state.append((entry, os.stat(entry or os.curdir).st_mtime_ns))
        except OSError:
            state.append((entry, None))
    return tuple(state)


@functools.lru_cache(maxsize=256)
def _requirement_closure(names: tuple, installed: tuple) -> tuple:
    """:func:`_with_requirements` of ``names`` as the distributions ``installed`` (a
    :func:`_installed_state`) hold them."""
    seen, todo = {}, list(names)
    while todo:
        name = todo.pop()
        key = name.lower().replace("_", "-")
        if key in seen:
            continue
        try:
            seen[key] = f"{name}=={metadata.version(name)}"
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            seen[key] = f"{name} not installed"
            continue
        for req in requires:
            m = _REQUIREMENT.match(req)
            if m and "extra ==" not in req.replace('"', "'").replace("extra=='", "extra == '"):
                todo.append(m.group(1))
    return tuple(sorted(seen.values(), key=str.lower))


# ---------------------------------------------------------------------- the import graph

_FROM = re.compile(r"^[ \t]*from[ \t]+(\.*)[ \t]*([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([^\n#;]+)", re.M)
#: A module imported by name at call time: ``importlib.import_module("pkg.mod")`` (or
#: ``".mod"``, relative to the module's package) and ``__import__("pkg.mod")``, with a literal name.
_DYNAMIC = re.compile(r"""\b(?:import_module|__import__)\(\s*["'](\.*)([\w.]+)["']""")


@dataclass(frozen=True)
class _Import:
    """One import statement: ``from <level dots><module> import <names>`` (``names`` the
    imported attributes, ``binds`` the names they are bound to, aliases included), or
    ``import <module>`` (``names`` empty, ``binds`` its alias or top-level name)."""

    level: int
    module: str
    names: tuple
    binds: tuple


def _aliased(part: str) -> tuple:
    """``("a", "b")`` for ``"a as b"``, ``("a", "a")`` for ``"a"``."""
    words = part.split()
    return (words[0], words[2]) if len(words) >= 3 and words[1] == "as" else (words[0], words[0])


@functools.lru_cache(maxsize=None)
def _read(path: str, mtime_ns: int, size: int) -> tuple:
    """(SHA-256 of the file's bytes, the :class:`_Import` statements of its source) of a
    file; cached while it is unchanged. The statements are found line by line (a regular
    expression: parsing every module took 10 ms each); one quoted in a docstring only adds a
    module to hash."""
    data = Path(path).read_bytes()
    found = []
    if path.endswith(".py"):
        text = data.decode("utf-8", "replace")
        for m in _FROM.finditer(text):
            names = re.sub(r"#[^\n]*", "", m.group(3)).strip("()").replace("\n", " ")  # comments in ( ... )
            parts = [_aliased(a) for a in names.split(",") if a.strip()]
            parts = [(a, b) for a, b in parts if a != "*"]
            star = "*" in m.group(3)
            found.append(_Import(len(m.group(1)), m.group(2), tuple(a for a, _ in parts),
                                 ("*",) if star else tuple(b for _, b in parts)))
        for m in _IMPORT.finditer(text):
            for part in m.group(1).split(","):
                if part.strip():
                    name, alias = _aliased(part)
                    found.append(_Import(0, name, (), (alias if alias != name else name.split(".")[0],)))
        for m in _DYNAMIC.finditer(text):
            found.append(_Import(len(m.group(1)), m.group(2), (), ()))
    return hashlib.sha256(data).hexdigest(), tuple(found)


def _spec(name: str):
    """The spec of ``name``, or None when it cannot be found here. Finding a submodule imports
    its parent, which may raise anything (a module for another platform asserting it); a module
    that cannot be imported here runs no code here either."""
    try:
        return importlib.util.find_spec(name)
    except Exception:  # noqa: BLE001 - see the docstring
        return None


def _file_of(name: str) -> tuple:
    """(path or None, whether ``name`` is a package, whether it is a module at all)."""
    module = sys.modules.get(name)
    if module is not None:
        path = getattr(module, "__file__", None)
        return path, hasattr(module, "__path__"), True
    spec = _spec(name)
    if spec is None:
        return None, False, False
    origin = spec.origin if spec.has_location else None
    return origin, spec.submodule_search_locations is not None, True


def _absolute(level: int, module: str, package: str) -> Optional[str]:
    if level == 0:
        return module
    parts = package.split(".") if package else []
    if level - 1 > len(parts):
        return None
    base = parts[:len(parts) - (level - 1)]
    return ".".join(base + ([module] if module else []))


@dataclass
class Walk:
    """What :func:`walk` found: the hashed ``modules`` as ``(name, path, digest)`` in the
    order reached, the installed ``distributions`` reached (names), the modules whose code
    could not be read (``unknown``), and whether a module of the ``skip`` set was reached."""

    modules: list = field(default_factory=list)
    distributions: set = field(default_factory=set)
    unknown: list = field(default_factory=list)
    skipped: bool = False


def _installed(top: str) -> Optional[str]:
    """The distribution that owns the top-level module ``top`` when it was installed from
    an index into site-packages (its code is named by its version, not hashed); else None."""
    owner = _owner(top)
    if owner is None or owner[1]:
        return None
    top_path = _file_of(top)[0]  # finding a top-level module imports nothing
    return owner[0] if top_path is None or _in_site(top_path) else None


def walk(roots, skip: Callable[[str], bool], always_hash: Callable[[str], bool] = lambda name: False) -> Walk:
    """The modules whose code runs when the ``roots`` (module names) run: each root, and
    transitively what its ``import`` statements reach (those inside functions included).

    A module is hashed whole, and all it imports is followed, when it is imported itself.
    A package from which only some names are imported (``from pkg import A``) is hashed, and
    only the statements of its ``__init__`` that bind those names are followed (all of them
    when a name is defined in the ``__init__`` itself); a name that is a submodule stands for
    that submodule alone, and a package reached only as the parent of a module imported by
    its full name is not hashed. So a module that imports one estimator from a package that
    re-exports fifty depends on that one. The standard library is left out; a module of an
    installed distribution ends the walk there (its name is recorded), unless
    ``always_hash(name)``; a module for which ``skip(name)`` holds is left out (and noted).
    """
    roots = tuple(roots)
    out = Walk()
    followed: dict = {}  # module -> the names followed so far (None: all)
    queue = [(r, None) for r in roots]
    while queue:
        name, names = queue.pop(0)
        if not name:
            continue
        done = followed.get(name, ())
        if done is None or (names is not None and set(names) <= set(done)):
            continue
        top = name.split(".", 1)[0]
        if top in _STDLIB:
            continue
        if skip(name):
            out.skipped = True
            continue
        installed = None if always_hash(name) else _installed(top)
        if installed is not None:
            out.distributions.add(installed)
            continue
        path, is_package, exists = _file_of(name)
        if not exists:
            if name in roots:  # code that runs but cannot be found
                out.unknown.append(name)
            continue  # an optional import that is absent here: no code of it can run
        if names is not None and is_package:
            names = tuple(a for a in names if not _file_of(f"{name}.{a}")[2])  # submodules stand alone
            if not names:
                continue
        if path is None:
            if not is_package:
                out.unknown.append(name)
            continue  # a namespace package has no code of its own
        try:
            st = os.stat(path)
            digest, imports = _read(path, st.st_mtime_ns, st.st_size)
        except OSError:
            out.unknown.append(name)
            continue
        if name not in followed:
            out.modules.append((name, path, digest))
        if names is not None and is_package:
            binding = [i for i in imports if set(i.binds) & set(names)]
            if sum(len(set(i.binds) & set(names)) for i in binding) < len(names) or any("*" in i.binds
                                                                                          for i in imports):
                binding, names = list(imports), None  # a name of the __init__'s own, or a star import
        else:
            binding, names = list(imports), None
        followed[name] = None if names is None else tuple(set(done) | set(names))
        package = name if is_package else name.rpartition(".")[0]
        for imp in binding:
            base = _absolute(imp.level, imp.module, package)
            if base is None:
                continue
            if imp.names:
                queue.append((base, imp.names))
                queue += [(f"{base}.{a}", None) for a in imp.names]  # a submodule, when it is one
            else:
                queue.append((base, None))
    return out


#: (roots, skip, always_hash) -> (Walk, ((path, mtime_ns, size), ...)): a walk is redone
#: only when a file it hashed has changed since.
_WALKS: dict = {}


def _stamp(path: str) -> tuple:
    try:
        st = os.stat(path)
        return path, st.st_mtime_ns, st.st_size
    except OSError:
        return path, None, None


def cached_walk(roots: tuple, skip: Callable[[str], bool], always_hash: Callable[[str], bool] = lambda name: False):
    """:func:`walk`, remembered while no file it hashed changes (a claim's cells ask for
    their identity at every look of every run); a walk that met unreadable code is redone."""
    key = (tuple(roots), skip, always_hash)
    cached = _WALKS.get(key)
    if cached is not None and all(_stamp(st[0]) == st for st in cached[1]):
        return cached[0]
    found = walk(roots, skip, always_hash)
    if not found.unknown:
        _WALKS[key] = (found, tuple(_stamp(path) for _, path, _ in found.modules))
    return found


def _harness(name: str) -> bool:
    return name in (_SUITE, _HARNESS) or name.startswith(_HARNESS + ".")


@functools.lru_cache(maxsize=None)
def _factory_skip(root: str) -> Callable[[str], bool]:
    """What a factory's walk leaves out: the suite's harness, unless it is the root itself."""
    return functools.partial(_skip_harness_below, root)


def _skip_harness_below(root: str, name: str) -> bool:
    return name != root and _harness(name)


def identity(factory: Callable) -> Identity:
    """The :class:`Identity` of ``factory``'s code (module docstring)."""
    h = hashlib.sha256(import_path(factory).encode())
    version = getattr(factory, "version", None)
    if version is not None:
        h.update(f"version {version}".encode())
    h.update(f"python {sys.version_info[:3]}".encode())
    module = inspect.getmodule(factory)
    if module is None:
        found = Walk(unknown=[import_path(factory)])
    elif getattr(module, "__file__", None) is None or not Path(module.__file__).is_file():
        found = Walk(unknown=[module.__name__])
    else:
        found = cached_walk((module.__name__,), _factory_skip(module.__name__))
    return _identity(h, found, (f"kpca-suite=={sys.modules[_SUITE].__version__}",) if found.skipped else ())


def _identity(h, found: Walk, extra: tuple = ()) -> Identity:
    """The :class:`Identity` of what ``found`` holds, ``h`` (a running SHA-256) updated with
    each module's name and digest and each distribution's ``name==version``."""
    for name, _, digest in found.modules:
        h.update(f"{name}\n{digest}\n".encode())
    distributions = tuple(_with_requirements(sorted(found.distributions))) + tuple(extra)
    for d in distributions:
        h.update(d.encode())
    fingerprint = h.hexdigest()[:12] if not found.unknown else f"unverified-{secrets.token_hex(4)}"
    return Identity(fingerprint, tuple(found.modules), distributions, tuple(found.unknown))
