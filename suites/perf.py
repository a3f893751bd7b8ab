"""The performance harness: every ``perf.*`` claim declared as data and measured
by one function, into one record type, printed as one table.

Benchmarks, never pass/fail tests. Each claim compares *contenders* doing the
same work in one process run: ours, the peers (scikit-learn, the ``nystrompca``
package) and the machine's floor (one GEMM, the shrinks' linear algebra alone). Every number is a
ratio to the claim's *reference* contender measured in the same run, because on
a shared machine absolute seconds mean little. ``met`` says whether the goal
was reached on this machine; ``kpca-suite bench`` exits 0 once it has measured.

How a claim is measured (:func:`measure`), for each of its cases (the sizes of
the chosen scale):

1. the data are made once (:attr:`PerfClaim.data`);
2. set-up and JIT warm-up, outside any timing: :func:`warm_jit` compiles (or
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
the reason; neither raises.
"""

from __future__ import annotations

import contextlib
import functools
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

#: Named scales: ``tiny`` (the tests, seconds), ``quick`` (every claim in about
#: a minute on 2 cores) and ``paper`` (the sizes the claims are stated at).
SCALES = ("tiny", "quick", "paper")


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
    contender every ratio is taken against; ``sizes`` maps each scale of
    :data:`SCALES` to its cases (parameter dicts); ``goals`` bounds the ratio of
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
        missing = set(SCALES) - set(self.sizes)
        if missing:
            raise ValueError(f"{self.id}: no sizes for scales {sorted(missing)}")


# -- shared helpers (also used by the asv benchmarks in suites/benchmarks/) ---------

def have(module: str) -> bool:
    """Whether an optional module (e.g. ``nystrompca``, extra ``bench``) is importable."""
    return importlib.util.find_spec(module) is not None


def gaussian_data(n: int, d: int, seed: int = 0, dtype=np.float64) -> np.ndarray:
    """n standard-normal rows in R^d."""
    return np.random.default_rng(seed).standard_normal((n, d)).astype(dtype, copy=False)


def gamma_for(d: int) -> float:
    """The Gaussian kernel width of the synthetic benchmarks, gamma = 1 / d
    (E||x - y||^2 = 2 d for standard-normal rows)."""
    return 1.0 / d


def random_noisy_data(n: int, d: int = 100, seed: int = 0):
    """(X, gamma): n RandomNoisy rows (Ghashami et al. 2016) and the mean-distance
    bandwidth of 500 other RandomNoisy rows (so gamma depends on d only)."""
    from kpca_suite.theory.ghashami16 import random_noisy
    return random_noisy(n, d, random_state=seed), _random_noisy_gamma(d)


@functools.lru_cache(maxsize=8)
def _random_noisy_gamma(d: int) -> float:
    from kpca_suite.kernels import mean_distance_gamma
    from kpca_suite.theory.ghashami16 import random_noisy
    return mean_distance_gamma(random_noisy(500, d, random_state=12345))


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


def warm_jit() -> None:
    """Compile (or load from Numba's cache) every jitted routine on the measured
    paths, once per process: the kernel blocks, the Nystrom fit, the random
    features (RF-Oja, RF-ERM, SKPCA), streaming Nystrom and the pivoted
    incomplete Cholesky."""
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


# -- perf.gaussian-block ----------------------------------------------------------------

def _block_data(n, m, d, dtype="float64"):
    return gaussian_data(n, d, 0, dtype), gaussian_data(m, d, 1, dtype)


def _block_ours(data, d, **_):
    from kpca_suite.kernels import Kernel
    X, Y = data
    kern = Kernel("gaussian", gamma=gamma_for(d))
    return lambda: kern.block(X, Y)


def _block_sklearn(data, d, **_):
    from sklearn.metrics.pairwise import rbf_kernel
    X, Y = data
    return lambda: rbf_kernel(X, Y, gamma=gamma_for(d))


def _block_floor(data, **_):
    X, Y = data

    def floor():
        G = X @ Y.T
        np.exp(G, out=G)
        return G
    return floor


def _block_check(data, d, **_):
    from sklearn.metrics.pairwise import rbf_kernel

    from kpca_suite.kernels import Kernel
    X, Y = data
    err = np.abs(Kernel("gaussian", gamma=gamma_for(d)).block(X, Y) - rbf_kernel(X, Y, gamma=gamma_for(d))).max()
    return f"max |ours - sklearn| = {float(err):.1e}"


def _block_derive(records):
    """float32 against float64 of our block at the same (n, m, d)."""
    ours = {(r.params["n"], r.params["m"], r.params["dtype"]): r for r in records
            if r.contender == "ours" and r.measure == "time" and r.seconds}
    out = []
    for (n, m, dt), r64 in ours.items():
        r32 = ours.get((n, m, "float32"))
        if dt != "float64" or r32 is None:
            continue
        goal = Goal(lo=1.7)
        v = r64.seconds / r32.seconds
        out.append(PerfRecord("perf.gaussian-block", f"n={n} m={m}: float64 / float32 time", "ours",
                              ratio=v, goal=str(goal), met=goal.met(v), load=r32.load,
                              measure="float32 speed-up"))
    return out


GAUSSIAN_BLOCK = PerfClaim(
    id="perf.gaussian-block",
    goal="Gaussian kernel block K(X, Y): at least as fast as scikit-learn's rbf_kernel; at most 1.3x the "
         "floor of one BLAS GEMM X Y^T plus one in-place exp; float32 at least 1.7x faster than float64",
    data=_block_data,
    contenders={"ours": _block_ours, "sklearn rbf_kernel": _block_sklearn, "floor GEMM + exp": _block_floor},
    reference="ours",
    goals={"sklearn rbf_kernel": Goal(lo=1.0), "floor GEMM + exp": Goal(lo=1 / 1.3)},
    sizes={
        "tiny": (dict(n=400, m=40, d=20, dtype="float64"),),
        "quick": (dict(n=5000, m=500, d=20, dtype="float64"), dict(n=5000, m=500, d=20, dtype="float32")),
        "paper": (dict(n=20000, m=1000, d=20, dtype="float64"), dict(n=20000, m=1000, d=20, dtype="float32")),
    },
    warm=dict(n=16, m=4),
    check=_block_check,
    derive=_block_derive,
)


# -- perf.exact-kpca --------------------------------------------------------------------

def _exact_data(n, d, **_):
    return gaussian_data(n, d)


def _exact_ours(X, d, k, **_):
    """Our top-k solver (KernelPCA's arpack and randomized solvers are top-k too): the
    kernel matrix formed once within the default memory budget, ARPACK on it."""
    from kpca_suite.kernels import Kernel
    from kpca_suite.methods import ExactKPCA
    kern = Kernel("gaussian", gamma=gamma_for(d))
    return lambda: ExactKPCA(k, kern, solver="lanczos", random_state=0).fit(X)


def _exact_sklearn(solver):
    def make(X, d, k, **_):
        from sklearn.decomposition import KernelPCA
        return lambda: KernelPCA(k, kernel="rbf", gamma=gamma_for(d), eigen_solver=solver,
                                 random_state=0).fit(X)
    return make


EXACT_KPCA = PerfClaim(
    id="perf.exact-kpca",
    goal="top-k exact kernel PCA (Gaussian, d = 10, k = 10; n = 5000 and 20000 at the paper scale) faster than "
         "scikit-learn's KernelPCA with the arpack and with the randomized eigensolver (ratio >= 1 for both; "
         "KernelPCA centres the Gram matrix, ours is uncentred by default)",
    data=_exact_data,
    contenders={"ours": _exact_ours, "sklearn KernelPCA arpack": _exact_sklearn("arpack"),
                "sklearn KernelPCA randomized": _exact_sklearn("randomized")},
    reference="ours",
    goals={"sklearn KernelPCA arpack": Goal(lo=1.0), "sklearn KernelPCA randomized": Goal(lo=1.0)},
    sizes={
        "tiny": (dict(n=300, d=10, k=10),),
        "quick": (dict(n=800, d=10, k=10),),
        "paper": (dict(n=5000, d=10, k=10), dict(n=20000, d=10, k=10)),
    },
    warm=dict(n=60),
)


# -- perf.nystrom-kpca ------------------------------------------------------------------

#: nystrompca evaluates K_nm with a Python double loop (one interpreted kernel call
#: per entry) and holds K_nm: above this many evaluations n m it is not run.
NYSTROMPCA_MAX_EVALS = 6_000_000


#: The time slope in n is fitted over the cases from this n on (the paper scale's n = 6000
#: case is there for nystrompca, which is not run beyond n m = 6e6).
NYSTROM_SLOPE_FROM = 25000


def _nys_data(n, d, **_):
    return gaussian_data(n, d)


def _nys_ours(X, m, d, k, **_):
    from kpca_suite.kernels import Kernel
    from kpca_suite.methods import NystromKPCA
    kern = Kernel("gaussian", gamma=gamma_for(d))
    return lambda: NystromKPCA(k, kern, landmarks=m, center=False, random_state=0).fit(X)


def _nys_sklearn(X, m, d, k, **_):
    from sklearn.decomposition import PCA
    from sklearn.kernel_approximation import Nystroem

    def fit():
        Z = Nystroem(kernel="rbf", gamma=gamma_for(d), n_components=m, random_state=0).fit_transform(X)
        return PCA(n_components=k, random_state=0).fit(Z)
    return fit


def _nys_peer(X, m, d, k, n, **_):
    if n * m > NYSTROMPCA_MAX_EVALS:
        raise Skip(f"not run at n m = {n * m:.1e} > {NYSTROMPCA_MAX_EVALS:.0e} (a Python double loop "
                   f"over K_nm); compared at the smaller case")
    from nystrompca import NystromKPCA as PeerNystromKPCA
    # nystrompca's rbf is exp(-||x - y||^2 / sigma^2), so sigma = gamma^(-1/2); scale=False,
    # demean=False: the same uncentred problem on the raw data.
    sigma = 1.0 / math.sqrt(gamma_for(d))

    def fit():
        est = PeerNystromKPCA(n_components=k, m_subset=m, kernel="rbf", sigma=sigma, scale=False,
                              demean=False, seed=0)
        est.fit_transform(X)
    return fit


def _nys_floor(X, m, d, k, **_):
    """What any Nystrom KPCA that forms the m x m Gram K_mn K_nm exactly must do:
    the n m kernel evaluations, blockwise, and the n m^2 SYRK (the same pass as
    ours, :func:`kernels.gram_accumulate`, without the O(m^3) solve). The peer's
    ratio to this floor bounds the speed-up such a method can reach."""
    from kpca_suite.kernels import Kernel, gram_accumulate
    kern = Kernel("gaussian", gamma=gamma_for(d))
    L = X[np.random.default_rng(0).choice(X.shape[0], m, replace=False)]
    return lambda: gram_accumulate(X, L, kern)


def _nys_derive(records):
    from kpca_suite.theory.slopes import loglog_line
    from kpca_suite.kernels import default_block_size
    out = []
    ours = [r for r in records if r.contender == "ours" and r.measure == "time" and r.seconds]
    by_m = {}
    for r in ours:
        by_m.setdefault(r.params["m"], []).append(r)
    for m, rs in by_m.items():
        ns = sorted({r.params["n"] for r in rs})
        if len([n for n in ns if n >= NYSTROM_SLOPE_FROM]) >= 3:
            ns = [n for n in ns if n >= NYSTROM_SLOPE_FROM]
        if len(ns) >= 3:
            t = [min(r.seconds for r in rs if r.params["n"] == n) for n in ns]
            v, goal = loglog_line(ns, t)[0], Goal(0.9, 1.1)
            out.append(PerfRecord("perf.nystrom-kpca", f"m={m}: time slope in n over {ns[0]}..{ns[-1]}",
                                  "ours", ratio=v, goal=str(goal), met=goal.met(v), load=rs[-1].load,
                                  measure="slope in n"))
    for r in ours:
        if r.peak_bytes is None:
            continue
        n, m = r.params["n"], r.params["m"]
        b = min(n, default_block_size(m))
        pred = 8 * (m * m + b * m)
        v, goal = r.peak_bytes / pred, Goal(hi=2.0)
        out.append(PerfRecord("perf.nystrom-kpca", f"n={n} m={m}: peak / 8(m^2 + b m), b={b}", "ours",
                              peak_bytes=r.peak_bytes, ratio=v, goal=str(goal), met=goal.met(v), load=r.load,
                              measure="memory bound",
                              note=f"8(m^2 + b m) = {pred / 2**20:.1f} MiB; n m 8 = {n * m * 8 / 2**20:.1f} MiB"))
    return out


NYSTROM_KPCA = PerfClaim(
    id="perf.nystrom-kpca",
    goal="uncentred Gaussian Nystrom KPCA fit (d = 10, k = 10; m = 1000 at the paper scale): >= 4x faster than "
         "scikit-learn Nystroem + PCA (ratio >= 4, e.g. at n = 200000), >= 20x faster than the nystrompca "
         "package; time slope in n 0.9-1.1 over n = 25000..400000; peak memory <= 2 x 8(m^2 + b m) "
         "(the n x m block is never held); the floor is the exact Gram's pass alone (kernel blocks + SYRK)",
    data=_nys_data,
    contenders={"ours": _nys_ours, "sklearn Nystroem + PCA": _nys_sklearn, "nystrompca": _nys_peer,
                "floor: kernel blocks + SYRK": _nys_floor},
    reference="ours",
    goals={"sklearn Nystroem + PCA": Goal(lo=4.0), "nystrompca": Goal(lo=20.0)},
    sizes={
        "tiny": (dict(n=600, m=30, d=10, k=5),),
        "quick": (dict(n=2000, m=200, d=10, k=10), dict(n=8000, m=200, d=10, k=10)),
        "paper": (dict(n=6000, m=1000, d=10, k=10),
                  *(dict(n=n, m=1000, d=10, k=10) for n in (25000, 50000, 100000, 200000, 400000))),
    },
    warm=dict(n=60, m=6, k=2),
    once=frozenset({"nystrompca"}),
    memory=frozenset({"ours", "sklearn Nystroem + PCA"}),
    requires={"nystrompca": "nystrompca"},
    derive=_nys_derive,
)


# -- perf.fd ----------------------------------------------------------------------------

def plain_numpy_fd(A, ell, shrink="halving"):
    """The same FD written plainly in NumPy, by the same rule as ours: rows are copied
    into the free rows of an ell-row buffer a slice at a time; when it is full, one
    shrink through the ell x ell Gram (B B^T = Y diag(s^2) Y^T, then the rows
    sqrt(max(s_i^2 - s_j^2, 0) / s_i^2) y_i^T B for i < j, rows j..ell zeroed),
    j = ell / 2 (halving: the "fill a buffer of 2 ell' rows, shrink to ell'" form
    with ell' = ell / 2) or ell (standard). It returns the same sketch as ours, bit
    for bit; ours adds the validation, the fill counter's bookkeeping and merging."""
    n, d = A.shape
    B = np.zeros((ell, d))
    j = ell // 2 if shrink == "halving" else ell
    filled = pos = 0
    while pos < n:
        take = min(ell - filled, n - pos)
        B[filled:filled + take] = A[pos:pos + take]
        filled += take
        pos += take
        if filled == ell:
            lam, Y = np.linalg.eigh(B @ B.T)
            lam, Y = lam[::-1], Y[:, ::-1]
            top = lam[:j - 1]
            delta = max(float(lam[j - 1]), 0.0)
            scale = np.sqrt(np.divide(np.maximum(top - delta, 0.0), top, out=np.zeros(j - 1), where=top > 0))
            B[:j - 1] = (Y[:, :j - 1] * scale).T @ B
            B[j - 1:] = 0.0
            filled = j - 1
    return B


def _fd_check(A, ell, shrink, **_):
    from kpca_suite.kernels import FrequentDirections
    same = np.array_equal(plain_numpy_fd(A, ell, shrink), FrequentDirections(ell, shrink).fit(A).sketch_)
    return f"plain NumPy FD gives the same sketch: {same}"


def _fd_data(n, d, **_):
    return gaussian_data(n, d)


def _fd_ours(A, ell, shrink, **_):
    from kpca_suite.kernels import FrequentDirections
    return lambda: FrequentDirections(ell, shrink).fit(A)


def _fd_plain(A, ell, shrink, **_):
    return lambda: plain_numpy_fd(A, ell, shrink)


def _fd_floor(A, ell, shrink, **_):
    """(number of shrinks of ours) x the linear algebra of one shrink (the ell x ell
    Gram B B^T, its eigh, the kept rows Y^T B) plus one pass copying A through an
    ell-row buffer: what any FD of this rule must do."""
    from kpca_suite.kernels import FrequentDirections
    shrinks = FrequentDirections(ell, shrink).fit(A).n_shrinks_
    n, d = A.shape
    S = np.random.default_rng(1).standard_normal((ell, d))
    buf = np.empty((ell, d))
    keep = (ell // 2 if shrink == "halving" else ell) - 1

    def floor():
        for _ in range(shrinks):
            Y = np.linalg.eigh(S @ S.T)[1]
            Y[:, :keep].T @ S
        for start in range(0, n, ell):
            np.copyto(buf[:min(ell, n - start)], A[start:start + ell])
    return floor


FD = PerfClaim(
    id="perf.fd",
    goal="Frequent Directions sketch, both shrink rules: no slower than a plain NumPy FD of the same rule and "
         "the same sketch (buffer filled a slice at a time, one shrink per fill; ratio >= 1) and at most 1.2x the "
         "floor of its shrinks' linear algebra (Gram, eigh, Y^T B) plus one pass over A (ratio >= 1/1.2); "
         "single-threaded BLAS",
    data=_fd_data,
    contenders={"ours": _fd_ours, "plain NumPy FD": _fd_plain, "floor shrinks + pass": _fd_floor},
    reference="ours",
    goals={"plain NumPy FD": Goal(lo=1.0), "floor shrinks + pass": Goal(lo=1 / 1.2)},
    sizes={
        "tiny": (dict(n=500, d=100, ell=10, shrink="halving"),),
        "quick": (dict(n=5000, d=1000, ell=50, shrink="halving"),
                  dict(n=300, d=1000, ell=50, shrink="standard")),
        "paper": (dict(n=100000, d=1000, ell=50, shrink="halving"),
                  dict(n=20000, d=1000, ell=50, shrink="standard")),
    },
    warm=dict(n=120),
    check=_fd_check,
    single_thread=True,
)


# -- perf.skpca -------------------------------------------------------------------------

def _rn_data(n, d, **_):
    return random_noisy_data(n, d)


def _skpca_ours(data, n, m, k, ell, chunk, **_):
    from kpca_suite.kernels import Kernel
    from kpca_suite.methods import SKPCA
    X, gamma = data
    kern = Kernel("gaussian", gamma=gamma)

    def fit():
        est = SKPCA(sketch_size=ell, n_features=m, kernel=kern, block_size=chunk, random_state=0)
        for start in range(0, n, chunk):
            est.partial_fit(X[start:start + chunk])
    return fit


def _skpca_sklearn(data, n, m, k, chunk, **_):
    from sklearn.decomposition import IncrementalPCA
    from sklearn.kernel_approximation import RBFSampler
    X, gamma = data

    def fit():
        rff = RBFSampler(gamma=gamma, n_components=m, random_state=0).fit(X[:1])
        ipca = IncrementalPCA(n_components=k)
        for start in range(0, n, chunk):
            ipca.partial_fit(rff.transform(X[start:start + chunk]))
    return fit


SKPCA_CLAIM = PerfClaim(
    id="perf.skpca",
    goal="streaming KPCA with random features (SKPCA, FD sketch ell = 2k; n = 50000, m = 500, k = 10, chunks "
         "of 4096 at the paper scale) >= 4x faster than scikit-learn's RBFSampler + IncrementalPCA fed the same "
         "chunks (ratio >= 4; IncrementalPCA centres the features, SKPCA does not)",
    data=_rn_data,
    contenders={"ours": _skpca_ours, "sklearn RBFSampler + IncrementalPCA": _skpca_sklearn},
    reference="ours",
    goals={"sklearn RBFSampler + IncrementalPCA": Goal(lo=4.0)},
    sizes={
        "tiny": (dict(n=2000, d=100, m=64, k=5, ell=10, chunk=512),),
        "quick": (dict(n=8192, d=100, m=500, k=10, ell=20, chunk=4096),),
        "paper": (dict(n=50000, d=100, m=500, k=10, ell=20, chunk=4096),),
    },
    warm=dict(n=600, chunk=256),
    single_thread=True,
)


# -- perf.ghashami16-train --------------------------------------------------------------

def _train_maker(which):
    def make(data, n, m, **_):
        from kpca_suite.kernels import Kernel
        from kpca_suite.methods import RFERM, SKPCA, StreamingNystrom
        X, gamma = data
        X, kern = X[:n], Kernel("gaussian", gamma=gamma)
        if which == "skpca":
            return lambda: SKPCA(sketch_size=20, n_features=m, kernel=kern, random_state=0).fit(X)
        if which == "rnca":
            return lambda: RFERM(10, m, kern, random_state=0).fit(X)
        return lambda: StreamingNystrom(m, kern, random_state=0).fit(X)
    return make


def _train_derive(records):
    out = []
    times = [r for r in records if r.measure == "time" and r.seconds]
    for m in sorted({r.params["m"] for r in times}):
        for name in dict.fromkeys(r.contender for r in times):
            rs = sorted((r for r in times if r.contender == name and r.params["m"] == m), key=lambda r: r.params["n"])
            if len(rs) < 2:
                continue
            a, b = rs[0], rs[-1]
            v, goal = math.log(b.seconds / a.seconds) / math.log(b.params["n"] / a.params["n"]), Goal(0.9, 1.15)
            note = ""
            if a.peak_bytes is not None and b.peak_bytes is not None:
                note = f"peak {a.peak_bytes / 2**20:.1f} MiB at n={a.params['n']}, {b.peak_bytes / 2**20:.1f} " \
                       f"MiB at n={b.params['n']} (should not grow with n)"
            out.append(PerfRecord("perf.ghashami16-train", f"m={m}: time exponent in n, "
                                  f"{a.params['n']}..{b.params['n']}", name, ratio=v, goal=str(goal),
                                  met=goal.met(v), load=b.load, measure="exponent in n", note=note))
    return out


GHASHAMI16_TRAIN = PerfClaim(
    id="perf.ghashami16-train",
    goal="train time of SKPCA (ell = 20), RNCA (RF-ERM) and streaming Nystrom on RandomNoisy (d = 100) grows "
         "like n (exponent 0.9-1.15) and their peak memory does not grow with n (Ghashami et al. 2016's "
         "train-time comparison); the ratios between the methods are shown, not judged",
    data=_rn_data,
    contenders={"SKPCA ell=20": _train_maker("skpca"), "RNCA": _train_maker("rnca"),
                "streaming Nystrom": _train_maker("nystrom")},
    reference="SKPCA ell=20",
    sizes={
        "tiny": (dict(n=1000, d=100, m=32), dict(n=4000, d=100, m=32)),
        "quick": (dict(n=2000, d=100, m=128), dict(n=8000, d=100, m=128)),
        "paper": tuple(dict(n=n, d=100, m=m) for m in (128, 512) for n in (20000, 80000)),
    },
    warm=dict(n=200, m=32),
    memory=frozenset({"SKPCA ell=20", "RNCA", "streaming Nystrom"}),
    derive=_train_derive,
    single_thread=True,
)


# -- perf.rf-oja and perf.rf-erm ---------------------------------------------------------

def _rf_data(n, d, **_):
    return gaussian_data(n, d)


def _rf_oja(X, m, k, d, **_):
    from kpca_suite.kernels import Kernel
    from kpca_suite.methods import RFOja
    kern = Kernel("gaussian", gamma=gamma_for(d))
    return lambda: RFOja(k, m, kern, block_size=1024, random_state=0).fit(X)


def _rf_floor(X, m, k, d, **_):
    """The feature map's own time: one RF map of every row (blocks of 1024 rows, as RF-Oja)."""
    from kpca_suite.kernels import draw_rff
    fmap = draw_rff(d, m, "gaussian", gamma_for(d), "cos", 0)

    def floor():
        for _ in fmap.blocks(X, 1024):
            pass
    return floor


def _rf_oja_derive(records):
    from kpca_suite.theory.slopes import loglog_line
    out = []
    ours = sorted((r for r in records if r.contender == "RF-Oja" and r.measure == "time" and r.seconds),
                  key=lambda r: r.params["n"])
    if len(ours) >= 2:
        ns = [r.params["n"] for r in ours]
        v, goal = loglog_line(ns, [r.seconds for r in ours])[0], Goal(0.9, 1.1)
        out.append(PerfRecord("perf.rf-oja", f"time slope in n over {ns[0]}..{ns[-1]}", "RF-Oja", ratio=v,
                              goal=str(goal), met=goal.met(v), load=ours[-1].load, measure="slope in n"))
        peaks = [r.peak_bytes for r in ours]
        if all(p is not None for p in peaks) and peaks[0] > 0:
            v, goal = peaks[-1] / max(peaks[0], 1), Goal(hi=1.5)
            out.append(PerfRecord("perf.rf-oja", f"peak at n={ns[-1]} / peak at n={ns[0]}", "RF-Oja",
                                  ratio=v, goal=str(goal), met=goal.met(v), load=ours[-1].load,
                                  measure="memory growth",
                                  note=f"peaks {', '.join(f'{p / 2**20:.1f}' for p in peaks)} MiB"))
    return out


RF_OJA = PerfClaim(
    id="perf.rf-oja",
    goal="one RF-Oja pass (m = 750, k = 10, d = 64, default qr_every): per-sample time <= 1.5x the feature "
         "map's own time (ratio >= 1/1.5); time slope in n 0.9-1.1; peak memory independent of n; "
         "single-threaded BLAS (RF-Oja runs its pass on one thread)",
    data=_rf_data,
    contenders={"RF-Oja": _rf_oja, "floor RF map": _rf_floor},
    reference="RF-Oja",
    goals={"floor RF map": Goal(lo=1 / 1.5)},
    sizes={
        "tiny": (dict(n=1000, d=16, m=64, k=5), dict(n=3000, d=16, m=64, k=5)),
        "quick": (dict(n=2000, d=64, m=750, k=10), dict(n=8000, d=64, m=750, k=10)),
        "paper": tuple(dict(n=n, d=64, m=750, k=10) for n in (10_000, 100_000, 1_000_000)),
    },
    warm=dict(n=200),
    memory=frozenset({"RF-Oja"}),
    derive=_rf_oja_derive,
    single_thread=True,
)


def _rf_erm(X, m, k, d, **_):
    from kpca_suite.kernels import Kernel
    from kpca_suite.methods import RFERM
    kern = Kernel("gaussian", gamma=gamma_for(d))
    return lambda: RFERM(k, m, kern, block_size=1024, random_state=0).fit(X)


def _rf_sklearn(X, m, k, d, **_):
    from sklearn.decomposition import PCA
    from sklearn.kernel_approximation import RBFSampler

    def fit():
        Z = RBFSampler(gamma=gamma_for(d), n_components=m, random_state=0).fit_transform(X)
        PCA(k, svd_solver="full").fit(Z)
    return fit


RF_ERM = PerfClaim(
    id="perf.rf-erm",
    goal="RF-ERM (the random-feature empirical covariance, m = 750, k = 10) against scikit-learn's "
         "RBFSampler + PCA on the same (n, m, k): shown, not judged",
    data=_rf_data,
    contenders={"RF-ERM": _rf_erm, "sklearn RBFSampler + PCA": _rf_sklearn},
    reference="RF-ERM",
    sizes={
        "tiny": (dict(n=1000, d=16, m=64, k=5),),
        "quick": (dict(n=4000, d=64, m=750, k=10),),
        "paper": (dict(n=40000, d=64, m=750, k=10),),
    },
    warm=dict(n=200),
)


# -- perf.hallgren21-nystrompca and perf.hallgren21-kpcr ----------------------------------

def _magic_data(n, m, **_):
    """(X, idx, sigma): magic, first n rows standardised, a uniform subset of m rows
    and the paper's mean-distance bandwidth of that subset."""
    from kpca_suite.kernels import mean_distance_gamma

    from .datasets import load_uci
    X, _ = load_uci("magic", n=n)
    idx = np.sort(np.random.default_rng(0).choice(n, m, replace=False))
    return X, idx, 1.0 / math.sqrt(mean_distance_gamma(X[idx]))


def _cnys_ours(data, m, k, **_):
    from kpca_suite.kernels import Kernel
    from kpca_suite.methods import CenteredNystromKPCA, FixedLandmarks
    X, idx, sigma = data
    kern, lm = Kernel("gaussian", gamma=1 / sigma**2), FixedLandmarks(tuple(idx))
    return lambda: CenteredNystromKPCA(k, kern, landmarks=lm).fit(X)


def _cnys_peer_fit(data, m, k):
    from nystrompca import NystromKPCA as PeerNystromKPCA
    X, idx, sigma = data
    peer = PeerNystromKPCA(n_components=k, m_subset=m, kernel="rbf", sigma=sigma, scale=False, demean=True)
    peer.subset = idx
    return peer, peer.fit_transform(X)


def _cnys_peer(data, m, k, **_):
    return lambda: _cnys_peer_fit(data, m, k)


def _cnys_check(data, m, k, **_):
    """Both solve the same problem: eigenvalues and scores equal at rtol 1e-6."""
    if not have("nystrompca"):
        return ""
    ours = _cnys_ours(data, m, k)()
    peer, W = _cnys_peer_fit(data, m, k)
    rel = float(np.max(np.abs(ours.eigenvalues_ / peer.explained_variance_ - 1)))
    diff = float(np.abs(ours.scores_ - W).max() / np.abs(W).max())
    return f"same result as nystrompca: {rel <= 1e-6 and diff <= 1e-6} (eigenvalues {rel:.1e}, scores {diff:.1e})"


HALLGREN21_NYSTROMPCA = PerfClaim(
    id="perf.hallgren21-nystrompca",
    goal="centred Nystrom KPCA (Hallgren 2021) on magic, same subset and kernel as the paper's nystrompca "
         "package, results equal at rtol 1e-6: the wall-time ratio is shown, not judged",
    data=_magic_data,
    contenders={"ours CenteredNystromKPCA": _cnys_ours, "nystrompca": _cnys_peer},
    reference="ours CenteredNystromKPCA",
    sizes={
        "tiny": (dict(n=500, m=30, k=5),),
        "quick": (dict(n=1000, m=100, k=10),),
        "paper": (dict(n=1000, m=100, k=10), dict(n=10000, m=100, k=10)),
    },
    warm=dict(n=200, m=20, k=2),
    once=frozenset({"nystrompca"}),
    requires={"nystrompca": "nystrompca"},
    check=_cnys_check,
)


def _airfoil_data(n_train, **_):
    """(Xtr, Xte, ytr, Xraw_tr, Xraw_te): airfoil, standardised with the training statistics."""
    from .datasets import load_uci
    X, y = load_uci("airfoil", n=1000, standardize=False)
    Xtr, Xte, ytr = X[:n_train], X[n_train:], y[:n_train]
    mu, sd = Xtr.mean(0), Xtr.std(0)
    return (Xtr - mu) / sd, (Xte - mu) / sd, ytr, Xtr, Xte


def _kpcr_maker(which):
    def make(data, k, m, **_):
        from kpca_suite.kernels import Kernel
        from kpca_suite.methods import KPCR, CenteredNystromKRR
        Xtr, Xte, ytr, Rtr, Rte = data
        kern = Kernel("gaussian", gamma=1.0)
        if which == "kpcr":
            return lambda: KPCR(k, kern).fit(Xtr, ytr).predict(Xte)
        if which == "nkpcr":
            return lambda: KPCR(k, kern, landmarks=m, random_state=0).fit(Xtr, ytr).predict(Xte)
        if which == "nkrr":
            return lambda: CenteredNystromKRR(kern, m, ridge=0.1, random_state=0).fit(Xtr, ytr).predict(Xte)
        from nystrompca import NystromKPCR as PeerKPCR

        def peer():
            est = PeerKPCR(n_components=k, m_subset=m, kernel="rbf", sigma=1.0, seed=0)
            est.fit(Rtr, ytr)
            est.predict(Rte)
        return peer
    return make


HALLGREN21_KPCR = PerfClaim(
    id="perf.hallgren21-kpcr",
    goal="KPCR, Nystrom KPCR and Nystrom KRR fit + predict on airfoil (n_train = 750, d = 90 components, "
         "m = 100) against nystrompca's NystromKPCR (which standardises the raw data itself): shown, not judged",
    data=_airfoil_data,
    contenders={"Nystrom KPCR": _kpcr_maker("nkpcr"), "KPCR": _kpcr_maker("kpcr"),
                "Nystrom KRR": _kpcr_maker("nkrr"), "nystrompca NystromKPCR": _kpcr_maker("peer")},
    reference="Nystrom KPCR",
    sizes={
        "tiny": (dict(n_train=300, k=20, m=40),),
        "quick": (dict(n_train=750, k=90, m=100),),
        "paper": (dict(n_train=750, k=90, m=100),),
    },
    warm=dict(k=5, m=20),
    once=frozenset({"nystrompca NystromKPCR"}),
    requires={"nystrompca NystromKPCR": "nystrompca"},
)


# -- perf.bach13-krr and perf.pivoted-cholesky ---------------------------------------------

#: p = ceil(C_RANK d(lambda*)): scans of every prefix rank (ci/quick, B_2, B_4, exp kernels) saw
#: p_1% / d in [1.0, 2.9]; bach13.rank-rule brackets it in (1/2, 4] (at 2 d the mean risk ratio
#: reached 1.029, for B_4).
C_RANK = 2.0


def bach13_kernel():
    """(kernel, signal degree): the B_2 (beta = 1) periodic kernel and the delta = 2 signal."""
    from kpca_suite.kernels.periodic import PeriodicKernel
    return PeriodicKernel("poly", 1), 2


def bach13_problem(n, seed=0):
    """X, y, lambda*(n), p: uniform design on [0, 1), the delta = 2 signal plus N(0, 1)
    noise; lambda*(n) and p = ceil(C_RANK d(lambda*)) from the grid design's FFT
    (O(n log n)), so choosing p needs no O(n^3) step."""
    from kpca_suite.theory.dof import dof_circulant, optimal_lambda
    from kpca_suite.theory.periodic import grid_design, grid_energy, grid_spectrum, periodic_signal, uniform_design
    kern, delta = bach13_kernel()
    e = np.clip(grid_spectrum(kern, n), 0.0, None)
    lam, _ = optimal_lambda(e, grid_energy(periodic_signal(grid_design(n), "poly", delta)), n, 1.0,
                            log10_range=(-10.0, 1.0), grid_per_decade=8)
    p = min(n, math.ceil(C_RANK * float(dof_circulant(e, lam).d)))
    rng = np.random.default_rng(seed)
    X = uniform_design(n, rng)
    y = periodic_signal(X, "poly", delta) + rng.standard_normal(n)
    return X, y, lam, p


def _krr_data(n, **_):
    return bach13_problem(n)


def _krr_nystrom(data, **_):
    from kpca_suite.methods import NystromKRR
    X, y, lam, p = data
    kern, _ = bach13_kernel()
    return lambda: NystromKRR(kern, lam, p, random_state=0).fit(X, y)


def _krr_full(data, n, **_):
    if n > 4000:
        raise Skip("not run above n = 4000 (O(n^3) time, O(n^2) memory)")
    from kpca_suite.methods import KernelRidge
    X, y, lam, p = data
    kern, _ = bach13_kernel()
    return lambda: KernelRidge(kern, lam).fit(X, y)


def _krr_check(data, **_):
    return f"p = {data[3]} columns"


def _krr_derive(records):
    from kpca_suite.theory.slopes import loglog_line
    ours = sorted((r for r in records if r.contender == "Nystrom KRR" and r.measure == "time" and r.seconds),
                  key=lambda r: r.params["n"])
    if len(ours) < 3:
        return []
    ns = [r.params["n"] for r in ours]
    v = loglog_line(ns, [r.seconds for r in ours])[0]
    return [PerfRecord("perf.bach13-krr", f"Nystrom time slope in n over {ns[0]}..{ns[-1]}", "Nystrom KRR",
                       ratio=v, load=ours[-1].load, measure="slope in n",
                       note="O(p^2 n) with p ~ n^(1/4): about 1.5")]


BACH13_KRR = PerfClaim(
    id="perf.bach13-krr",
    goal="Nystrom KRR with p = 2 d(lambda*) uniform columns (Bach 2013) against full KRR, B_2 periodic kernel, "
         "uniform design: full / Nystrom shown, not judged; the Nystrom time slope in n is about 1.5",
    data=_krr_data,
    contenders={"Nystrom KRR": _krr_nystrom, "full KRR": _krr_full},
    reference="Nystrom KRR",
    sizes={
        "tiny": (dict(n=300),),
        "quick": (dict(n=1000),),
        "paper": tuple(dict(n=n) for n in (1000, 2000, 4000, 8000)),
    },
    warm=dict(n=100),
    check=_krr_check,
    derive=_krr_derive,
)


def numpy_incomplete_cholesky(X, kernel, rank):
    """The pivoted incomplete Cholesky in NumPy (one BLAS GEMV per column):
    G[:, j] = (K[:, i] - G[:, :j] G[i, :j]) / sqrt(res_i)."""
    n = X.shape[0]
    res = kernel.diag(X).astype(float)
    G = np.zeros((n, rank))
    for j in range(rank):
        i = int(np.argmax(res))
        G[:, j] = (kernel.block(X, X[i:i + 1], validate=False)[:, 0] - G[:, :j] @ G[i, :j]) / math.sqrt(res[i])
        res = np.clip(res - G[:, j] ** 2, 0.0, None)
        res[i] = 0.0
    return G


def _chol_data(n, **_):
    from kpca_suite.theory.periodic import uniform_design
    return uniform_design(n, 0)


def _chol_ours(X, p, **_):
    from kpca_suite.kernels import incomplete_cholesky
    kern, _ = bach13_kernel()
    return lambda: incomplete_cholesky(X, kern, p, "pivot")


def _chol_numpy(X, p, **_):
    kern, _ = bach13_kernel()
    return lambda: numpy_incomplete_cholesky(X, kern, p)


def _chol_floor(X, p, **_):
    """The p n kernel evaluations of the selected columns plus LAPACK on the p x p block."""
    import scipy.linalg as sla

    from kpca_suite.kernels import incomplete_cholesky
    kern, _ = bach13_kernel()
    idx = incomplete_cholesky(X, kern, p, "pivot").indices

    def floor():
        C = kern.block(X, X[idx], validate=False)
        sla.cholesky(C[idx], lower=True)
    return floor


def _chol_check(X, p, **_):
    from kpca_suite.kernels import incomplete_cholesky
    kern, _ = bach13_kernel()
    same = np.allclose(numpy_incomplete_cholesky(X, kern, p), incomplete_cholesky(X, kern, p, "pivot").factor)
    return f"same factor as the NumPy version: {bool(same)}"


PIVOTED_CHOLESKY = PerfClaim(
    id="perf.pivoted-cholesky",
    goal="jitted pivoted incomplete Cholesky of rank p (B_2 periodic kernel, uniform points) no slower than "
         "the same algorithm in NumPy (ratio >= 1); the floor (the p n kernel evaluations of the chosen "
         "columns plus LAPACK on the p x p block) is shown",
    data=_chol_data,
    contenders={"ours": _chol_ours, "NumPy pivoted Cholesky": _chol_numpy,
                "floor columns + scipy cholesky": _chol_floor},
    reference="ours",
    goals={"NumPy pivoted Cholesky": Goal(lo=1.0)},
    sizes={
        "tiny": (dict(n=1000, p=20),),
        "quick": (dict(n=5000, p=50),),
        "paper": tuple(dict(n=n, p=p) for n in (5000, 20000) for p in (50, 200)),
    },
    warm=dict(n=100, p=5),
    check=_chol_check,
)


# -- perf.dask ----------------------------------------------------------------------------

#: Above this many rows only the cluster contender runs: the demonstration that the chunked
#: path never holds X (the paper scale's n = 10^7, d = 10: 763 MiB of float64).
DASK_IN_MEMORY_MAX_ROWS = 2_000_000

#: Rows per block when the case's .npy file is written (8 MiB at d = 10).
_NPY_WRITE_ROWS = 1 << 17

#: The contender that fits on a LocalCluster (paper scale).
DASK_CLUSTER = "dask array from disk, local cluster"

#: Per-worker RSS of the cluster contender's timed runs, {case label: {worker: (rss_kib, peak_kib)}},
#: filled by the runs and turned into derived records by :func:`_dask_derive`.
_WORKER_PEAKS = {}


class _RowsOnDisk:
    """A perf.dask case's data: n standard-normal rows in R^d written block by block to a
    temporary .npy file (``path``), never held whole, and deleted with this object (or at
    exit); ``X`` loads them into RAM on first use (the in-memory contender only)."""

    def __init__(self, n, d, seed=0):
        import tempfile
        import weakref
        self.dir = tempfile.mkdtemp(prefix="kpca-suite-dask-")
        self.path = os.path.join(self.dir, "X.npy")
        weakref.finalize(self, _remove_tree, self.dir)
        out = np.lib.format.open_memmap(self.path, mode="w+", dtype=np.float64, shape=(n, d))
        rng = np.random.default_rng(seed)
        for start in range(0, n, _NPY_WRITE_ROWS):
            out[start:start + _NPY_WRITE_ROWS] = rng.standard_normal((min(_NPY_WRITE_ROWS, n - start), d))
        out.flush()
        del out

    @functools.cached_property
    def X(self) -> np.ndarray:
        return np.load(self.path)


def _remove_tree(path):
    import shutil
    shutil.rmtree(path, ignore_errors=True)


def _dask_data(n, d, **_):
    return _RowsOnDisk(n, d)


def _dask_estimator(method, d, m, k, ell=None, **_):
    """The estimator of a case: SKPCA (m frequencies, sketch ell) or uncentred Nystrom KPCA
    (m uniform landmarks), Gaussian gamma = 1 / d, k components."""
    from kpca_suite.kernels import Kernel
    from kpca_suite.methods import SKPCA, NystromKPCA
    kern = Kernel("gaussian", gamma=gamma_for(d))
    if method == "skpca":
        return SKPCA(n_components=k, sketch_size=ell, n_features=m, kernel=kern, random_state=0)
    return NystromKPCA(k, kern, landmarks=m, random_state=0)


def _dask_in_memory(data, n, **params):
    if n > DASK_IN_MEMORY_MAX_ROWS:
        raise Skip(f"not run above n = {DASK_IN_MEMORY_MAX_ROWS:.0e}: the case shows the chunked path alone")
    X, est = data.X, _dask_estimator(**params)
    return lambda: est.fit(X)


def _need(module, extra):
    if not have(module):
        raise Skip(f"not installed ({module}: pip install -e \".[{extra}]\")")


def _dask_threads(data, n, chunk, **params):
    """The .npy file as a dask array (:func:`kernels.dask_arrays.from_npy`), fitted on
    Dask's threaded scheduler in this process (one thread per CPU)."""
    if n > DASK_IN_MEMORY_MAX_ROWS:
        raise Skip(f"not run above n = {DASK_IN_MEMORY_MAX_ROWS:.0e}: the cluster contender runs there")
    _need("dask", "dask")
    import dask
    from kpca_suite.kernels.dask_arrays import from_npy
    est = _dask_estimator(**params)

    def fit():  # reads data.path, so the file lives as long as this callable
        with dask.config.set(scheduler="threads"):
            est.fit(from_npy(data.path, chunk))
    return fit


def _dask_cluster(data, **params):
    """The .npy file as a dask array fitted on a fresh ``distributed.LocalCluster`` of
    ``workers`` single-threaded worker processes (started, and its workers warmed up by a
    fit of one chunk, before any timing; closed with the returned callable). Each run
    resets every worker's peak-RSS mark first and reads it after (``client.run``)."""
    chunk, workers = params["chunk"], params["workers"]
    if not workers:
        raise Skip("run at the paper scale only (a local cluster starts in ~10 s)")
    _need("distributed", "dask")
    import weakref

    import dask
    import distributed

    from kpca_suite.kernels.dask_arrays import from_npy
    cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                       dashboard_address=":0")
    client = distributed.Client(cluster, set_as_default=False)
    est = _dask_estimator(**params)
    with dask.config.set(scheduler=client):
        est.fit(from_npy(data.path, chunk)[:chunk])
    peaks = _WORKER_PEAKS.setdefault(case_label(params), {})

    def fit():  # reads data.path, so the file lives as long as this callable
        rss = client.run(_reset_peak_rss)
        with dask.config.set(scheduler=client):
            est.fit(from_npy(data.path, chunk))
        for worker, peak in client.run(_proc_status_kib, "VmHWM").items():
            peaks[worker] = max(peaks.get(worker, (0, 0)), (rss[worker], peak), key=lambda p: p[1])
    weakref.finalize(fit, _close_cluster, client, cluster)
    return fit


def _close_cluster(client, cluster):
    client.close()
    cluster.close()


def _reset_peak_rss():
    """Reset this process's peak-RSS mark (run on each worker); its RSS in KiB."""
    _reset_hwm()
    return _proc_status_kib("VmRSS")


def _dask_derive(records):
    """Rows per second of every timed run, and the peak RSS of each cluster worker."""
    out = []
    for r in records:
        if r.measure != "time" or not r.seconds:
            continue
        out.append(PerfRecord(r.claim, r.case, r.contender, ratio=r.params["n"] / r.seconds, load=r.load,
                              measure="rows/s", params=r.params))
        if r.params.get("workers") and r.contender == DASK_CLUSTER:
            x_mib = r.params["n"] * r.params["d"] * 8 / 2**20
            for i, (rss, peak) in enumerate(_WORKER_PEAKS.pop(r.case, {}).values(), 1):
                out.append(PerfRecord(r.claim, r.case, r.contender, peak_bytes=peak * 1024, ratio=peak / 1024,
                                      load=r.load, measure=f"peak RSS of worker {i} (MiB)", params=r.params,
                                      note=f"RSS {rss / 1024:.0f} MiB before the fit; X is {x_mib:.0f} MiB"))
    _WORKER_PEAKS.clear()  # the warm-up copies' clusters
    return out


DASK = PerfClaim(
    id="perf.dask",
    goal="SKPCA (m = 100 frequencies, ell = 20) and uncentred Nystrom KPCA (m = 200 uniform landmarks) fits, "
         "k = 10, Gaussian, d = 10, of a dask array read chunk by chunk from a .npy file on disk (just written, "
         "so mostly from the page cache) against the same fit of the rows in RAM: throughput in rows/s "
         "(derived rows) and the time ratio, shown, not judged. The chunked path runs on Dask's threaded "
         "scheduler in this process and, at the paper scale, on a LocalCluster of 2 single-threaded worker "
         "processes, whose peak RSS per worker is reported; the paper scale's n = 10^7 (763 MiB of X) runs "
         "on the cluster only",
    data=_dask_data,
    contenders={"in-memory": _dask_in_memory, "dask array from disk": _dask_threads, DASK_CLUSTER: _dask_cluster},
    reference="in-memory",
    sizes={
        "tiny": tuple(dict(method=meth, n=20_000, d=10, **extra, chunk=5_000, workers=0)
                      for meth, extra in (("skpca", dict(m=100, k=10, ell=20)), ("nystrom", dict(m=200, k=10)))),
        "quick": tuple(dict(method=meth, n=1_000_000, d=10, **extra, chunk=100_000, workers=0)
                       for meth, extra in (("skpca", dict(m=100, k=10, ell=20)), ("nystrom", dict(m=200, k=10)))),
        "paper": tuple(dict(method=meth, n=n, d=10, **extra, chunk=250_000, workers=2)
                       for n in (2_000_000, 10_000_000)
                       for meth, extra in (("skpca", dict(m=100, k=10, ell=20)), ("nystrom", dict(m=200, k=10)))),
    },
    warm=dict(n=4_000, chunk=1_000),
    memory=frozenset({"in-memory", "dask array from disk"}),
    derive=_dask_derive,
)


# -- the commands: perf.startup, perf.quick-profile, perf.asv ------------------------------
# Each contender runs one command in a fresh interpreter, as a user types it; the
# goals are on its wall time (seconds), the one place a goal is absolute: it is
# the user's wait.

#: What the ``kpca-suite`` console script runs.
_MAIN = "import sys; from kpca_suite.suites.cli import main; sys.exit(main())"


def _repo_root():
    """The source checkout holding ``asv.conf.json`` (None for an installed wheel)."""
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    return root if (root / "asv.conf.json").is_file() else None


def _run_command(argv, expect, cwd=None):
    """Run ``argv``; raise (the contender is then reported with the error) unless it
    exits ``expect``. Returns the completed process."""
    proc = subprocess.run(argv, capture_output=True, text=True, cwd=cwd)
    if proc.returncode != expect:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or [""]
        raise RuntimeError(f"exit {proc.returncode} (expected {expect}): {tail[0][:160]}")
    return proc


def _cli(*args, expect=0):
    """A contender: ``kpca-suite ARGS`` in a fresh interpreter, expecting exit ``expect``."""
    def make(data, **_):
        return functools.partial(_run_command, [sys.executable, "-c", _MAIN, *args], expect)
    return make


def _python_floor(data, **_):
    """The floor of any command: a fresh interpreter that imports NumPy."""
    return functools.partial(_run_command, [sys.executable, "-c", "import numpy"], 0)


def _seconds_derive(goal_seconds, applies=lambda params: True, what="wall time"):
    """Derived rows: each command's best wall time against an absolute goal (s)."""
    def derive(records):
        out = []
        for r in records:
            if r.seconds is None or r.contender.startswith("floor") or not applies(r.params):
                continue
            goal = Goal(hi=goal_seconds)
            out.append(PerfRecord(r.claim, r.case, r.contender, ratio=r.seconds, goal=str(goal),
                                  met=goal.met(r.seconds), load=r.load, measure=f"{what} (s)", params=r.params))
        return out
    return derive


STARTUP = PerfClaim(
    id="perf.startup",
    goal="the CLI starts at once: `kpca-suite --help`, `kpca-suite list` and a usage error each finish in under "
         "1.5 s wall on 2 cores (lazy imports: no paper's data, no JIT compile before it is needed); the floor "
         "is a fresh interpreter importing NumPy",
    data=lambda **_: None,
    contenders={"kpca-suite --help": _cli("--help"), "kpca-suite list": _cli("list"),
                "usage error (run --profile nope)": _cli("run", "--profile", "nope", expect=2),
                "floor: python -c 'import numpy'": _python_floor},
    reference="floor: python -c 'import numpy'",
    sizes={scale: (dict(command="cli"),) for scale in SCALES},
    derive=_seconds_derive(1.5),
)


def _profile_run(data, claims, profile, **_):
    """``kpca-suite run CLAIMS --profile P`` into a fresh results directory (so
    nothing is resumed), default workers (every CPU)."""
    import shutil
    import tempfile

    def run():
        out = tempfile.mkdtemp(prefix="kpca-suite-bench-")
        try:
            # exit 1 (a claim fails) is a measured run too: only usage / store errors (2) are errors
            proc = subprocess.run([sys.executable, "-c", _MAIN, "run", *claims.split(), "--profile", profile,
                                   "--out", out], capture_output=True, text=True)
            if proc.returncode not in (0, 1):
                raise RuntimeError(f"exit {proc.returncode}: {proc.stderr.strip().splitlines()[-1:]}")
        finally:
            shutil.rmtree(out, ignore_errors=True)
    return run


QUICK_PROFILE = PerfClaim(
    id="perf.quick-profile",
    goal="`kpca-suite run` (every claim, the default quick profile, every CPU, report and plots included) "
         "finishes in under 4 minutes on 2 cores with Numba's cache warm (the first run after an install "
         "also compiles; the smaller scales time the ci profile, whose goal is not stated)",
    data=lambda **_: None,
    contenders={"kpca-suite run": _profile_run, "floor: python -c 'import numpy'": _python_floor},
    reference="floor: python -c 'import numpy'",
    sizes={"tiny": (dict(claims="sterge20.identities", profile="ci"),),
           "quick": (dict(claims="sterge20.identities bach13.dof-decay", profile="ci"),),
           "paper": (dict(claims="", profile="quick"),)},
    warm=dict(claims="sterge20.identities", profile="ci"),
    once=frozenset({"kpca-suite run"}),
    derive=_seconds_derive(240.0, applies=lambda p: p["profile"] == "quick" and not p["claims"]),
)


def _asv_run(data, bench, **_):
    """``asv run --quick --python=same [--bench B]`` in the source checkout; its
    note counts the benchmarks asv reports failed (a skip must raise
    NotImplementedError in setup, which asv shows as skipped, not failed)."""
    root = _repo_root()
    if root is None:
        raise Skip("needs the source checkout (asv.conf.json), not an installed wheel")
    if not have("asv"):
        raise Skip("not installed (asv: pip install -e \".[bench]\")")
    argv = [sys.executable, "-m", "asv", "run", "--quick", "--python=same", "--show-stderr"]
    argv += ["--bench", bench] if bench else []

    def run():
        proc = _run_command(argv, 0, cwd=root)
        failed = [ln for ln in proc.stdout.splitlines() if ln.rstrip().endswith("failed")]
        if failed:
            raise RuntimeError(f"{len(failed)} benchmark(s) failed, e.g. {failed[0].strip()[:120]}")
    return run


ASV = PerfClaim(
    id="perf.asv",
    goal="`asv run --quick --python=same` completes in under 5 minutes with no benchmark failed (skips raise "
         "NotImplementedError in setup); the smaller scales run one benchmark module",
    data=lambda **_: None,
    contenders={"asv run --quick": _asv_run, "floor: python -c 'import numpy'": _python_floor},
    reference="floor: python -c 'import numpy'",
    sizes={"tiny": (dict(bench="bench_kernels"),), "quick": (dict(bench="bench_kernels"),),
           "paper": (dict(bench=""),)},
    warm=dict(bench="bench_kernels"),
    once=frozenset({"asv run --quick"}),
    derive=_seconds_derive(300.0, applies=lambda p: not p["bench"]),
)


#: Every performance claim, in the order of the table.
CLAIMS = (GAUSSIAN_BLOCK, EXACT_KPCA, NYSTROM_KPCA, FD, SKPCA_CLAIM, GHASHAMI16_TRAIN, RF_OJA, RF_ERM,
          HALLGREN21_NYSTROMPCA, HALLGREN21_KPCR, BACH13_KRR, PIVOTED_CHOLESKY, DASK, STARTUP, QUICK_PROFILE, ASV)
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


# -- the harness --------------------------------------------------------------------------

def case_label(params: Mapping) -> str:
    return " ".join(f"{k}={v}" for k, v in params.items())


def _rotate(names, r):
    r %= max(len(names), 1)
    return names[r:] + names[:r]


def measure(claim: PerfClaim, scale: str = "quick", repeats: int = 3, memory: bool = True) -> list:
    """Measure one claim at ``scale``; returns its :class:`PerfRecord` list (one per
    contender and case, then the claim's derived records). Never raises for a
    missing optional package or a contender that cannot run at a case."""
    if scale not in SCALES:
        raise ValueError(f"scale must be one of {SCALES}, got {scale!r}")
    repeats = max(1, int(repeats))
    records = []
    with single_thread_blas(claim.single_thread):
        warm_jit()
        for index, params in enumerate(claim.sizes[scale]):
            records += _measure_case(claim, scale, index, dict(params), repeats, memory)
    if claim.derive is not None:
        records += claim.derive(records)
    return records


def _measure_case(claim, scale, index, params, repeats, memory):
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
                peaks = dict(zip(names, pool.map(lambda nm: peak_memory(claim.id, scale, index, nm), names)))
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


def _memory_child(claim_id, scale, index, contender):
    """Run in a fresh interpreter: print the peak-RSS growth (bytes) of one run of
    ``contender`` at case ``index`` of ``scale`` as JSON."""
    import resource
    claim = BY_ID[claim_id]
    params = dict(claim.sizes[scale][index])
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


def peak_memory(claim_id, scale, index, contender, timeout=3600) -> Optional[int]:
    """Peak-RSS growth (bytes) of one run of a contender in a fresh process, or
    None if the child failed (the table then shows no memory)."""
    code = ("from kpca_suite.suites.perf import _memory_child; "
            f"_memory_child({claim_id!r}, {scale!r}, {int(index)}, {contender!r})")
    try:
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    if proc.returncode != 0:
        return None
    return json.loads(proc.stdout.strip().splitlines()[-1])["delta_bytes"]


# -- running and printing ------------------------------------------------------------------

def run(names=None, scale: str = "quick", repeats: int = 3, memory: bool = True, progress=None) -> list:
    """Measure the selected claims (all by default); returns every record."""
    claims = select(names)
    if scale not in SCALES:
        raise ValueError(f"scale must be one of {SCALES}, got {scale!r}")
    records = []
    for claim in claims:
        if progress is not None:
            progress(claim.id)
        records += measure(claim, scale, repeats, memory)
    _CACHE.clear()
    return records


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


# -- the command ---------------------------------------------------------------------------

def _cmd_bench(args) -> int:
    scale = "quick" if args.quick else args.scale
    t0 = time.perf_counter()
    progress = (lambda cid: print(f"measuring {cid} ...", file=sys.stderr, flush=True)) if args.progress else None
    records = run(args.which or None, scale=scale, repeats=args.repeats, memory=not args.no_memory,
                  progress=progress)
    text = format_table(records)
    text += f"scale {scale}, {args.repeats} rounds, {time.perf_counter() - t0:.0f} s in all\n"
    print(text, end="")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump([r.as_dict() for r in records], fh, indent=1)
    return 0


def add_bench_parser(subparsers):
    """Add the ``bench`` subcommand to an argparse ``subparsers`` object; its
    handler is ``args.func(args) -> exit code``."""
    ids = [c.id for c in CLAIMS]
    p = subparsers.add_parser(
        "bench", help="measure the performance claims as ratios (benchmarks, not tests)",
        description="Measure every perf.* claim in one process run: each contender (ours, the peers, the "
                    "machine's floor) warmed up, then timed in interleaved rounds (best of the rounds), "
                    "peak memory in a child process, the load average recorded. Prints one Markdown "
                    "table; exits 0 once measured. Claims: " + ", ".join(ids) + ".")
    p.add_argument("--scale", choices=SCALES, default="paper",
                   help="sizes: tiny (seconds), quick (about a minute), paper (the stated sizes; default)")
    p.add_argument("--quick", action="store_true", help="same as --scale quick")
    p.add_argument("--repeats", type=int, default=3, help="timed rounds, best of them; default 3")
    p.add_argument("--which", nargs="+", metavar="CLAIM", default=None,
                   help="measure only these claims (ids, 'perf.' optional); default all")
    p.add_argument("--no-memory", action="store_true", help="skip the peak-memory child processes")
    p.add_argument("--out", metavar="FILE", default=None, help="also write the Markdown table to FILE")
    p.add_argument("--json", metavar="FILE", default=None, help="also write the records as JSON to FILE")
    p.add_argument("--progress", action="store_true", help="name each claim on stderr as it starts")
    p.set_defaults(func=_cmd_bench)
    return p
