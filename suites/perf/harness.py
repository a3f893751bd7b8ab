"""The one performance harness: perf declarations as data (:class:`PerfClaim`), their
measurement (data made once, JIT warmed outside timing, interleaved rounds, best of
the rounds, peak memory in a child process, the load recorded) and the records."""

from __future__ import annotations

import contextlib
import gc
import importlib.util
import json
import math
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from typing import Callable, Mapping, Optional

import numpy as np

from ..allocator import fix_malloc_thresholds
from ..claim import PROFILES
from .data import bach13_kernel, gaussian_data


class Skip(Exception):
    """Raised by a contender's factory that cannot run at a case; the message
    is the reason, shown in the table."""


@dataclass(frozen=True)
class Goal:
    """A bound on a ratio (or on a derived number): ``lo <= value <= hi``."""

    lo: Optional[float] = None
    hi: Optional[float] = None

    def met(self, value) -> Optional[bool]:
        if value is None or not math.isfinite(value):
            return None
        return (self.lo is None or value >= self.lo) and (self.hi is None or value <= self.hi)

    def __str__(self) -> str:
        if self.lo is not None and self.hi is not None:
            return f"{self.lo:g} .. {self.hi:g}"
        if self.lo is not None:
            return f">= {self.lo:.3g}"
        if self.hi is not None:
            return f"<= {self.hi:.3g}"
        return ""


def measure(claim: PerfClaim, profile: str = "quick", repeats: int = 3, memory: bool = True) -> list:
    """Measure one claim at ``profile``; returns its :class:`PerfRecord` list (one per
    contender and case, then the claim's derived records). Never raises for a
    missing optional package or a contender that cannot run at a case."""
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {PROFILES}, got {profile!r}")
    repeats = max(1, int(repeats))
    records = []
    fix_malloc_thresholds(MMAP_THRESHOLD)
    with single_thread_blas(claim.single_thread):
        warm_jit()
        for index, params in enumerate(claim.sizes[profile]):
            records += _measure_case(claim, profile, index, dict(params), repeats, memory)
    if claim.derive is not None:
        records += claim.derive(records)
    return records


@dataclass
class PerfRecord:
    """One measured number.

    For a timing (``measure == "time"``): the contender's best time over the
    rounds (``seconds``, ``repeats`` rounds run), its peak-memory growth in a
    child process (``peak_bytes``, None when not measured) and ``ratio`` =
    seconds / the reference contender's seconds in the same case (so a peer's
    ratio above 1 means ours is faster). For a derived number (a slope in n, a
    memory bound, a float32 speed-up) ``measure`` names it and ``ratio`` holds it.
    ``load`` is :func:`os.getloadavg` after the case.
    """

    claim: str
    case: str
    contender: str
    seconds: Optional[float] = None
    repeats: int = 0
    peak_bytes: Optional[int] = None
    ratio: Optional[float] = None
    goal: str = ""
    met: Optional[bool] = None
    load: tuple = ()
    measure: str = "time"
    params: dict = field(default_factory=dict)
    note: str = ""

    def as_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class PerfClaim:
    """A performance claim as data.

    ``data(**params)`` makes the inputs of one case; ``contenders`` maps a name
    to a factory ``make(data, **params)`` that does any untimed set-up and
    returns the zero-argument callable that is timed; ``reference`` is the
    contender every ratio is taken against; ``sizes`` maps each profile of
    :data:`PROFILES` to its cases (parameter dicts); ``goals`` bounds the ratio of
    some contenders; ``warm`` overrides parameters for the small warm-up copy;
    ``once`` are slow contenders timed in one round only; ``memory`` are the
    contenders whose peak memory is measured in a child process; ``requires``
    maps a contender to the optional module it needs; ``check(data, **params)``
    returns a note computed outside timing (e.g. that the contenders agree);
    ``derive(records)`` returns derived records (slopes, memory bounds);
    ``single_thread`` runs everything with single-threaded BLAS.
    """

    id: str
    goal: str
    data: Callable
    contenders: Mapping[str, Callable]
    reference: str
    sizes: Mapping[str, tuple]
    goals: Mapping[str, Goal] = field(default_factory=dict)
    warm: Mapping[str, object] = field(default_factory=dict)
    once: frozenset = frozenset()
    memory: frozenset = frozenset()
    requires: Mapping[str, str] = field(default_factory=dict)
    check: Optional[Callable] = None
    derive: Optional[Callable] = None
    single_thread: bool = False

    def __post_init__(self):
        if self.reference not in self.contenders:
            raise ValueError(f"{self.id}: reference {self.reference!r} is not a contender")
        unknown = (set(self.goals) | set(self.once) | set(self.memory) | set(self.requires)) - set(self.contenders)
        if unknown:
            raise ValueError(f"{self.id}: {sorted(unknown)} are not contenders")
        missing = set(PROFILES) - set(self.sizes)
        if missing:
            raise ValueError(f"{self.id}: no sizes for profiles {sorted(missing)}")


# -- shared helpers (also used by the asv benchmarks in suites/benchmarks/) ---------

def have(module: str) -> bool:
    """Whether an optional module (e.g. ``nystrompca``, extra ``bench``) is importable."""
    return importlib.util.find_spec(module) is not None


@contextlib.contextmanager
def single_thread_blas(on: bool = True):
    """BLAS / LAPACK single-threaded inside (no-op when ``on`` is false)."""
    if not on:
        yield
        return
    from kpca_suite.kernels.threads import blas_single_thread
    with blas_single_thread():
        yield


_WARM = []


#: glibc malloc's mmap threshold while a claim is timed (:mod:`suites.allocator`): 32 MiB, the most
#: glibc's own adjustment reaches, so that every contender of every claim runs in the regime a
#: long-running process settles into, whatever ran before it. Left to glibc, the time of a contender
#: that makes MiB-sized temporaries depended on what the process had freed: perf.pivoted-cholesky's
#: floor at n = 5000, p = 50 took 3.1 ms in a fresh process and 0.74 ms after one 16 MiB array had
#: been freed (ours 4.8 -> 3.0 ms), so that row read 0.68 measured alone and 0.33 after seven other
#: claims (2026-11-26). The peak-memory children are fresh interpreters and keep glibc's default.
MMAP_THRESHOLD = 32 * 2**20


def warm_jit() -> None:
    """Compile (or load from Numba's cache) every jitted routine on the measured
    paths, once per process: the kernel blocks, the Nystrom fit, the random
    features (RF-Oja, RF-ERM, SKPCA), the Frequent Directions shrink (through SKPCA's
    sketch), streaming Nystrom and the pivoted incomplete Cholesky."""
    if _WARM:
        return
    from kpca_suite.kernels import Kernel, incomplete_cholesky
    from kpca_suite.methods import RFERM, SKPCA, NystromKPCA, RFOja, StreamingNystrom
    X = gaussian_data(40, 3, seed=1)
    k = Kernel("gaussian", gamma=0.5)
    k.block(X[:8], X[:4])
    k.block(X)
    k.block(X[:8].astype(np.float32), X[:4].astype(np.float32))
    NystromKPCA(2, k, landmarks=5, random_state=0).fit(X)
    SKPCA(sketch_size=2, n_features=4, random_state=0).fit(X).transform(X)
    StreamingNystrom(3, random_state=0).fit(X).transform(X)
    RFOja(2, 8, kernel=Kernel("gaussian", gamma=0.5), random_state=0).fit(X[:20])
    RFERM(2, 8, kernel=Kernel("gaussian", gamma=0.5), random_state=0).fit(X[:20])
    from kpca_suite.theory.periodic import uniform_design
    P, _ = bach13_kernel()
    incomplete_cholesky(uniform_design(20, 0), P, 3, "pivot")
    _WARM.append(True)


# -- the harness --------------------------------------------------------------------------

def case_label(params: Mapping) -> str:
    return " ".join(f"{k}={v}" for k, v in params.items())


def _rotate(names, r):
    r %= max(len(names), 1)
    return names[r:] + names[:r]


def _measure_case(claim, profile, index, params, repeats, memory):
    label = case_label(params)
    skipped, fns = {}, {}
    for name, make in claim.contenders.items():
        module = claim.requires.get(name)
        if module and not have(module):
            skipped[name] = f"not installed ({module}: pip install -e \".[bench]\")"
            continue
        try:
            fns[name] = _prepare(claim, make, params)
        except Skip as e:
            skipped[name] = str(e)
        except Exception as e:  # noqa: BLE001 - reported in the table; the other contenders still run
            skipped[name] = f"error: {type(e).__name__}: {e}"
    note = ""
    if claim.check is not None:
        try:
            note = claim.check(_data_cache(claim, params), **params)
        except Exception as e:  # noqa: BLE001 - reported in the table
            note = f"check error: {type(e).__name__}: {e}"
    best = {name: math.inf for name in fns}
    runs = dict.fromkeys(fns, 0)
    for r in range(repeats):
        for name in _rotate(list(fns), r):
            if name not in fns:
                continue
            if name in claim.once and runs[name]:
                continue
            gc.collect()
            try:
                t0 = time.perf_counter()
                fns[name]()
                dt = time.perf_counter() - t0
            except Exception as e:  # noqa: BLE001 - reported in the table
                skipped[name] = f"error: {type(e).__name__}: {e}"
                fns.pop(name)
                continue
            best[name] = min(best[name], dt)
            runs[name] += 1
    load = tuple(round(v, 2) for v in os.getloadavg())  # before the memory children add their own
    fns.clear()
    gc.collect()
    peaks = {}
    if memory:
        # One child per contender, run side by side (peak RSS is per process; nothing is timed now).
        names = [name for name in claim.contenders if name in claim.memory and name in runs and name not in skipped]
        if names:
            with ThreadPoolExecutor(max_workers=min(len(names), os.cpu_count() or 1)) as pool:
                peaks = dict(zip(names, pool.map(lambda nm: peak_memory(claim.id, profile, index, nm), names)))
    ref = best.get(claim.reference) if claim.reference not in skipped else None
    out = []
    for name in claim.contenders:
        goal = claim.goals.get(name)
        if name in skipped:
            out.append(PerfRecord(claim.id, label, name, goal=str(goal or ""), load=load, params=params,
                                  note=skipped[name]))
            continue
        ratio = best[name] / ref if ref else None
        out.append(PerfRecord(claim.id, label, name, seconds=best[name], repeats=runs[name],
                              peak_bytes=peaks.get(name), ratio=ratio, goal=str(goal or ""),
                              met=None if goal is None else goal.met(ratio), load=load, params=params,
                              note=note if name == claim.reference else ""))
    return out


def _prepare(claim, make, params):
    """Warm a contender once on the small copy of the case (outside timing), then
    return its timed callable on the case's data."""
    fn = make(_data_cache(claim, params), **params)  # may raise Skip before any warm-up
    small = {**params, **{k: min(v, params[k]) if isinstance(v, int) and k in params else v
                          for k, v in claim.warm.items()}}
    make(claim.data(**small), **small)()
    return fn


_CACHE = {}


def _data_cache(claim, params):
    """The case's data, made once per (claim, case) while its case is measured."""
    key = (claim.id, json.dumps(params, sort_keys=True, default=str))
    if key not in _CACHE:
        _CACHE.clear()
        _CACHE[key] = claim.data(**params)
    return _CACHE[key]


# -- peak memory in a child process -------------------------------------------------------

def _proc_status_kib(field_name):
    """A ``VmHWM`` / ``VmRSS`` line of /proc/self/status in KiB, or None off Linux."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(field_name + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def _reset_hwm() -> bool:
    """Reset this process's peak-RSS mark to its current RSS (Linux >= 4.0)."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def _memory_child(claim_id, profile, index, contender):
    """Run in a fresh interpreter: print the peak-RSS growth (bytes) of one run of
    ``contender`` at case ``index`` of ``profile`` as JSON."""
    import resource

    from . import BY_ID
    claim = BY_ID[claim_id]
    params = dict(claim.sizes[profile][index])
    with single_thread_blas(claim.single_thread):
        fn = _prepare(claim, claim.contenders[contender], params)  # warms this contender only
        gc.collect()
        if _proc_status_kib("VmHWM") is not None:
            base = _proc_status_kib("VmRSS") if _reset_hwm() else _proc_status_kib("VmHWM")
            read_peak, unit = (lambda: _proc_status_kib("VmHWM")), 1024
        else:  # pragma: no cover - not Linux
            unit = 1 if sys.platform == "darwin" else 1024
            read_peak = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # noqa: E731
            base = read_peak()
        fn()
        peak = read_peak()
    print(json.dumps({"delta_bytes": max(0, int((peak - base) * unit))}))


def peak_memory(claim_id, profile, index, contender, timeout=3600) -> Optional[int]:
    """Peak-RSS growth (bytes) of one run of a contender in a fresh process, or
    None if the child failed (the table then shows no memory)."""
    code = ("from kpca_suite.suites.perf.harness import _memory_child; "
            f"_memory_child({claim_id!r}, {profile!r}, {int(index)}, {contender!r})")
    try:
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if proc.returncode != 0:
        return None
    return json.loads(proc.stdout.strip().splitlines()[-1])["delta_bytes"]


def _fmt(v, digits=4):
    if v is None:
        return ""
    if isinstance(v, float):
        return "nan" if math.isnan(v) else f"{v:.{digits}g}"
    return str(v)


def _met(r):
    if r.seconds is None and r.measure == "time":
        return "not installed" if r.note.startswith("not installed") else "not run"
    return {True: "yes", False: "no", None: ""}[r.met]


TABLE_HEAD = ("claim", "case", "contender", "best (s)", "runs", "peak (MiB)", "ratio", "goal", "met", "load",
              "note")
