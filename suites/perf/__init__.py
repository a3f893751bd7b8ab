"""The performance harness: every ``perf.*`` claim declared as data and measured
by one function, into one record type, printed as one table.

Benchmarks, never pass/fail tests. Each claim compares *contenders* doing the
same work in one process run: ours, the peers (scikit-learn, the ``nystrompca``
package) and the machine's floor (one GEMM, the shrinks' linear algebra alone). Every number is a
ratio to the claim's *reference* contender measured in the same run, because on
a shared machine absolute seconds mean little. ``met`` says whether the goal
was reached on this machine; ``kpca-suite bench`` exits 0 once it has measured.

How a claim is measured (:func:`measure`), for each of its cases (the sizes of
the chosen profile):

1. the data are made once (:attr:`PerfClaim.data`);
2. set-up and JIT warm-up, outside any timing: :func:`suites.allocator.fix_malloc_thresholds` fixes glibc
   malloc's thresholds, so that a contender's MiB-sized temporaries cost the same whatever the
   process freed before (:data:`harness.MMAP_THRESHOLD`); :func:`warm_jit` compiles (or
   loads from Numba's cache) every jitted routine; each contender's factory does
   its set-up on the case's data; then every contender runs once on a small copy
   of the case (``PerfClaim.warm``), so no compile and no first import is timed;
3. ``repeats`` rounds; in each round every contender runs once, in turn
   (interleaved, the order rotating by one each round), so a burst of load from
   another process hits all contenders alike; a contender's time is the minimum
   over the rounds (:func:`time.perf_counter`). Slow peers listed in
   ``PerfClaim.once`` run in the first round only;
4. the 1-minute load average (:func:`os.getloadavg`) is read after the timed
   rounds and stored in each record, so a reader can discount a run made on a
   busy machine;
5. peak memory (contenders in ``PerfClaim.memory``): one fresh interpreter per
   contender (side by side, nothing is timed then) makes the same data, warms
   the contender up, then runs it once; the number is the
   growth of the peak RSS during that run (Linux: ``VmHWM`` of /proc/self/status,
   reset to the current RSS through /proc/self/clear_refs just before; ``ru_maxrss``
   is not used because a child started by ``subprocess`` inherits its parent's
   peak into it).

A contender whose optional package is missing is reported ``not installed``; a
contender that cannot run at a case (too slow at that size) is reported with
the reason; neither raises."""

from __future__ import annotations

import os
import sys

import numpy as np

from ..claim import PROFILES
from .chunked import DASK
from .commands import ASV, QUICK_PROFILE, STARTUP
from .data import bach13_kernel, bach13_problem, gamma_for, gaussian_data, random_noisy_data
from .harness import (TABLE_HEAD, _CACHE, Goal, PerfClaim, PerfRecord, Skip, _fmt, _met, have, measure, peak_memory,
                      warm_jit)
from .float32 import FLOAT32
from .kernels import GAUSSIAN_BLOCK, PIVOTED_CHOLESKY, numpy_incomplete_cholesky
from .kpca import EXACT_KPCA, HALLGREN21_KPCR, HALLGREN21_NYSTROMPCA, NYSTROM_KPCA
from .krr import BACH13_KRR
from .streaming import FD, GHASHAMI16_TRAIN, RF_ERM, RF_OJA, SKPCA_CLAIM, STREAMING_NYSTROM, plain_numpy_fd

__all__ = ["CLAIMS", "BY_ID", "select", "run", "format_table", "PerfClaim", "PerfRecord", "Goal", "Skip", "measure",
           "peak_memory", "warm_jit", "have", "gaussian_data", "gamma_for", "random_noisy_data", "bach13_kernel",
           "bach13_problem", "numpy_incomplete_cholesky", "plain_numpy_fd"]


#: Every performance claim, in the order of the table.
CLAIMS = (GAUSSIAN_BLOCK, EXACT_KPCA, NYSTROM_KPCA, FD, SKPCA_CLAIM, GHASHAMI16_TRAIN, STREAMING_NYSTROM, RF_OJA,
          RF_ERM, FLOAT32, HALLGREN21_NYSTROMPCA, HALLGREN21_KPCR, BACH13_KRR, PIVOTED_CHOLESKY, DASK, STARTUP, QUICK_PROFILE, ASV)


BY_ID = {c.id: c for c in CLAIMS}


def select(names=None) -> list:
    """The claims named (ids, with or without the ``perf.`` prefix); all by default."""
    if not names:
        return list(CLAIMS)
    out = []
    for name in names:
        cid = name if name.startswith("perf.") else "perf." + name
        if cid not in BY_ID:
            raise ValueError(f"unknown performance claim {name!r}; choose from {', '.join(BY_ID)}")
        out.append(BY_ID[cid])
    return out


# -- running and printing ------------------------------------------------------------------

def run(names=None, profile: str = "quick", repeats: int = 3, memory: bool = True, progress=None) -> list:
    """Measure the selected claims (all by default); returns every record."""
    claims = select(names)
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {PROFILES}, got {profile!r}")
    records = []
    for claim in claims:
        if progress is not None:
            progress(claim.id)
        records += measure(claim, profile, repeats, memory)
    _CACHE.clear()
    return records


def format_table(records, claims=None) -> str:
    """One Markdown table of the records, then each claim's goal in words and one
    line of machine information."""
    lines = ["| " + " | ".join(TABLE_HEAD) + " |", "|" + "---|" * len(TABLE_HEAD)]
    for r in records:
        ratio = _fmt(r.ratio, 3)
        if r.measure != "time" and ratio:
            ratio = f"{ratio} ({r.measure})"
        cells = [r.claim, r.case, r.contender, _fmt(r.seconds), r.repeats or "",
                 "" if r.peak_bytes is None else f"{r.peak_bytes / 2**20:.1f}", ratio, r.goal, _met(r),
                 _fmt(r.load[0], 3) if r.load else "", r.note]
        lines.append("| " + " | ".join(str(c).replace("|", "/") for c in cells) + " |")
    lines += ["", "ratio = best time / the reference contender's best time in the same case "
                  "(above 1: the reference is faster); derived rows name their number."]
    ids = list(dict.fromkeys(r.claim for r in records))
    if claims is None:
        claims = [BY_ID[i] for i in ids if i in BY_ID]
    lines.append("")
    for c in claims:
        lines.append(f"- {c.id} (reference: {c.reference}): {c.goal}")
    try:
        import numba
        import sklearn
        versions = f"numpy {np.__version__}, numba {numba.__version__}, scikit-learn {sklearn.__version__}"
    except ImportError:  # pragma: no cover
        versions = f"numpy {np.__version__}"
    load = os.getloadavg()
    lines += ["", f"{os.cpu_count()} CPUs; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
                  f"{versions}; Python {sys.version.split()[0]}"]
    return "\n".join(lines) + "\n"
