"""Where a result came from: package versions, the git commit and the machine.

Every function here is cheap and never raises: a missing package reads
``"not installed"``, a missing repository ``"unknown"``.
"""

from __future__ import annotations

import functools
import hashlib
import os
import platform
import subprocess
import sys
from importlib import metadata
from pathlib import Path

#: distributions whose versions are recorded with every result row
PACKAGES = ("numpy", "scipy", "numba", "scikit-learn", "matplotlib", "kpca-suite")

_PACKAGE_DIR = Path(__file__).resolve().parent


#: The key of :func:`versions` that identifies the suite's own code.
CODE_KEY = "kpca-suite code"


@functools.lru_cache(maxsize=1)
def suite_code() -> str:
    """The first 12 hex digits of SHA-256 over every ``.py`` file of kpca_suite
    (kernels, methods, theory, suites with the claims), in path order: what the
    experiments, metrics and our estimators were at, whatever the commit says."""
    import kpca_suite.kernels
    import kpca_suite.methods
    import kpca_suite.theory

    h = hashlib.sha256()
    for pkg in (kpca_suite.kernels, kpca_suite.methods, kpca_suite.theory):
        h.update(_tree_digest(Path(pkg.__file__).parent).encode())
    h.update(_tree_digest(_PACKAGE_DIR).encode())
    return h.hexdigest()[:12]


def _tree_digest(root: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        h.update(path.relative_to(root).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def versions() -> dict:
    """``{"python": "3.11.4", "numpy": "1.26.4", ..., "kpca-suite code": "<digest>"}`` for
    :data:`PACKAGES` and :func:`suite_code`."""
    out = {"python": platform.python_version()}
    for name in PACKAGES:
        try:
            out[name] = metadata.version(name)
        except Exception:  # PackageNotFoundError, broken metadata
            out[name] = "not installed"
    try:
        out[CODE_KEY] = suite_code()
    except Exception:  # noqa: BLE001 - an unreadable source file: provenance only
        out[CODE_KEY] = "unknown"
    return out


def _git(args, cwd, timeout=10.0):
    env = dict(os.environ, GIT_OPTIONAL_LOCKS="0")  # read-only: never refresh the index
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env=env)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip())
    return proc.stdout.strip()


def git_commit(dirty: bool = True) -> str:
    """The commit of the repository that holds this package (``"<sha>"``, with
    ``"-dirty"`` appended when ``dirty`` and the working tree has changes), or
    ``"unknown"`` when the package is not in a git checkout or git is missing.
    Read-only (``GIT_OPTIONAL_LOCKS=0``); never raises."""
    try:
        top = Path(_git(["rev-parse", "--show-toplevel"], _PACKAGE_DIR))
        # an installed copy inside some other repository is not ours
        if (top / "suites" / "machine.py").resolve() != Path(__file__).resolve():
            return "unknown"
        sha = _git(["rev-parse", "HEAD"], top)
        if dirty and _git(["status", "--porcelain", "--untracked-files=no"], top):
            sha += "-dirty"
        return sha
    except Exception:
        return "unknown"


def _cpu_model() -> str:
    name = platform.processor()
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as fh:
            for line in fh:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return name or platform.machine() or "unknown"


def _total_memory() -> int:
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):
        return 0


def machine() -> dict:
    """Platform, processor, CPU count and total memory (bytes; 0 if unknown)."""
    mem = _total_memory()
    return {
        "platform": platform.platform(),
        "processor": _cpu_model(),
        "cpu_count": os.cpu_count() or 0,
        "memory_bytes": mem,
        "memory": f"{mem / 2**30:.1f} GiB" if mem else "unknown",
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "executable": sys.executable,
    }
