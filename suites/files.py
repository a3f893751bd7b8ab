"""Output files written whole or not at all: each goes to a temporary name in its
directory and is renamed over the target only when complete, so a full or read-only
disk leaves the previous file (or none), never a half-written one."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


@contextlib.contextmanager
def replacing(path):
    """Yield a temporary path beside ``path``; on a clean exit rename it to ``path``
    (atomic on POSIX), on an error remove it and re-raise."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        yield tmp
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def write_text(path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` through :func:`replacing`; returns ``path``."""
    with replacing(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return Path(path)
