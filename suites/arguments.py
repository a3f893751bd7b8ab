"""The rules of the arguments that the command line and the Python API share, in one place:
``kpca-suite run --jobs 2`` and ``check(..., jobs=2)`` are checked by the same function, and
refused with the same words, naming the option or the argument.

An int is an int: bool, NaN, inf, floats (even 2.0) and strings of digits are refused where
a count is meant (argparse has already made the CLI's strings ints)."""

from __future__ import annotations

import numbers
import os
from typing import Optional

PROFILES = ("ci", "quick", "full")


def positive_int(name: str, value) -> Optional[int]:
    """``value`` when it is None or an int >= 1, else ValueError naming ``name``."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1):
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
    return value


def profile(name: str, value) -> str:
    """One of :data:`PROFILES`, else ValueError naming ``name``."""
    if not isinstance(value, str) or value not in PROFILES:
        raise ValueError(f"{name} must be one of {', '.join(PROFILES)}, got {value!r}")
    return value


def names(name: str, value) -> Optional[list]:
    """Claim ids or paper names: None, one non-empty string, or an iterable of them (not
    bytes); returned as a list (None stays None). ValueError naming ``name`` otherwise."""
    if value is None:
        return None
    if isinstance(value, str):
        value = [value]
    elif isinstance(value, (bytes, bytearray)) or not hasattr(value, "__iter__"):
        raise ValueError(f"{name} must be a claim id, a paper name or a list of them, got {value!r}")
    out = list(value)
    bad = [v for v in out if not isinstance(v, str) or not v.strip()]
    if bad:
        raise ValueError(f"{name} must hold claim ids or paper names (non-empty strings), got {bad[0]!r}")
    return out


def text(name: str, value) -> Optional[str]:
    """None or a non-empty string, else ValueError naming ``name``."""
    if value is not None and (not isinstance(value, str) or not value.strip()):
        raise ValueError(f"{name} must be a non-empty string, got {value!r}")
    return value


def results_store(name: str, value):
    """None (in memory), a store (anything with ``done_keys``), or the path of a results
    folder, opened as the CLI's ``--out`` is (its ``results.sqlite``, created if missing):
    the store, or ValueError naming ``name``. The caller closes a store it opened."""
    if value is None or callable(getattr(value, "done_keys", None)):
        return value
    if isinstance(value, (str, os.PathLike)) and str(value).strip():
        from .store import STORE_NAME, ResultStore
        folder = os.fspath(value)
        if os.path.exists(folder) and not os.path.isdir(folder):
            raise ValueError(f"{name} must be a results folder (as --out), and {folder} is a file")
        return ResultStore(os.path.join(folder, STORE_NAME))
    raise ValueError(f"{name} must be None, a results folder's path (as --out) or a ResultStore, got {value!r}")
