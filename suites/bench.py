"""``kpca-suite bench``: the performance claims of CLAIMS.md measured as ratios
in one process run (DESIGN.md, Performance). Benchmarks, never pass/fail tests:
the ``met`` column says whether a goal was reached on this machine, and the
command always exits 0 once the measurements are done.

Timing: :func:`time.perf_counter`, best of ``repeats``, every jitted routine
warmed first (one call on a tiny input), so no Numba compile is timed.
Peak memory: one fresh Python process per method (``python -c``); the number is
the peak RSS during the fit minus the RSS after the imports, the data and the
JIT warm-up. On Linux it is read from ``VmHWM`` in /proc/self/status, not from
``ru_maxrss``, which a subprocess inherits from its parent's peak (see
:func:`_mem_child`).

Claims measured
---------------
perf.gaussian-block
    K(X, Y) for X (n, d), Y (m, d), n = 20000, m = 1000, d = 20:
    ours ``Kernel("gaussian", gamma).block`` versus scikit-learn ``rbf_kernel``
    (ratio sklearn / ours, goal >= 1) and versus the machine's floor, one BLAS
    GEMM ``X @ Y.T`` plus one in-place ``np.exp`` over the (n, m) result
    (ratio ours / floor, goal <= 1.3).
perf.nystrom-kpca
    uncentred Gaussian Nystrom KPCA fit, n = 200000, m = 1000, d = 10, k = 10:
    ours ``NystromKPCA(...).fit`` versus scikit-learn
    ``Nystroem(n_components=m).fit_transform`` + ``PCA(n_components=k).fit``
    (goal >= 2x) and versus the ``nystrompca`` package (goal >= 20x), and the
    peak memory of each fit against the O(m^2 + b m) prediction and the
    n m 8 bytes of the n x m block that our fit must never hold.

``nystrompca`` evaluates K_nm with a Python double loop (one interpreted kernel
call per entry, O(n m) interpreter work) and then holds K_nm; at paper scale
that is minutes to hours. When n m exceeds :data:`NYSTROMPCA_MAX_EVALS` it is
timed at two smaller sizes n_a < n_b (same m), its complexity exponent
p = log(t_b / t_a) / log(n_b / n_a) is measured, and the time at n is
extrapolated as t_b (n / n_b)^p; the record says so.

``scale`` multiplies every n and m (for quick runs), keeping m <= n, k <= m.
"""

from __future__ import annotations

import gc
import importlib.util
import json
import math
import os
import subprocess
import sys
import time

import numpy as np

#: Paper sizes of the two claims.
GAUSSIAN_SIZES = dict(n=20000, m=1000, d=20)
NYSTROM_SIZES = dict(n=200000, m=1000, d=10, k=10)
#: Above this many kernel evaluations (n m), nystrompca is extrapolated.
NYSTROMPCA_MAX_EVALS = 6_000_000
WHICH = ("gaussian-block", "nystrom-kpca")
FIELDS = ("id", "what", "ours_s", "peer", "peer_s", "ratio", "goal", "met", "floor", "notes")


# -- helpers ----------------------------------------------------------------------

def _best(fn, repeats):
    """Best wall time of ``repeats`` calls of ``fn()`` (perf_counter)."""
    best = math.inf
    for _ in range(max(1, int(repeats))):
        gc.collect()
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def _scaled(v, scale, lo):
    return max(lo, int(round(v * scale)))


def _gamma(d):
    return 1.0 / d


def _data(n, d, seed=0):
    return np.random.default_rng(seed).standard_normal((n, d))


def _record(id, what, ours_s, peer, peer_s, ratio, goal, met, floor=None, notes="", **extra):
    rec = dict(id=id, what=what, ours_s=ours_s, peer=peer, peer_s=peer_s, ratio=ratio,
               goal=goal, met=bool(met), floor=floor, notes=notes)
    rec.update(extra)
    return rec


def warm_jit():
    """Compile (or load from Numba's cache) every jitted routine on the measured
    paths: the Gaussian block and a tiny Nystrom fit."""
    from kpca_suite.kernels import Kernel
    from kpca_suite.methods import NystromKPCA
    X = _data(40, 3, seed=1)
    k = Kernel("gaussian", gamma=0.5)
    k.block(X[:8], X[:4])
    k.block(X)
    NystromKPCA(2, k, landmarks=5, random_state=0).fit(X)


# -- the methods (used both in-process for time and in a child for memory) ---------

def _fit_ours(X, m, k, gamma, seed=0):
    from kpca_suite.kernels import Kernel
    from kpca_suite.methods import NystromKPCA
    return NystromKPCA(k, Kernel("gaussian", gamma=gamma), landmarks=m, center=False,
                       random_state=seed).fit(X)


def _fit_sklearn(X, m, k, gamma, seed=0):
    from sklearn.decomposition import PCA
    from sklearn.kernel_approximation import Nystroem
    Z = Nystroem(kernel="rbf", gamma=gamma, n_components=m, random_state=seed).fit_transform(X)
    return PCA(n_components=k, random_state=seed).fit(Z)


def _fit_nystrompca(X, m, k, gamma, seed=0):
    # nystrompca's rbf kernel is exp(-||x - y||^2 / sigma^2): gamma = 1 / sigma^2.
    # scale=False, demean=False: the same uncentred problem on the raw data.
    from nystrompca import NystromKPCA as PeerNystromKPCA
    est = PeerNystromKPCA(n_components=k, m_subset=m, kernel="rbf", sigma=1.0 / math.sqrt(gamma),
                          scale=False, demean=False, seed=seed)
    est.fit_transform(X)
    return est


FITTERS = {"ours": _fit_ours, "sklearn": _fit_sklearn, "nystrompca": _fit_nystrompca}


def _proc_status_kib(field):
    """A ``VmHWM`` / ``VmRSS`` line of /proc/self/status in KiB, or None off Linux."""
    try:
        with open("/proc/self/status") as fh:
            for line in fh:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def _reset_hwm():
    """Reset this process's peak-RSS mark to its current RSS (Linux >= 4.0)."""
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def _mem_child(spec):
    """Run in a fresh interpreter: print the peak-RSS growth of one fit as JSON.

    ``ru_maxrss`` of a child started by ``subprocess`` (vfork + exec) starts at
    the *parent's* peak (Linux carries the old address space's high-water mark
    into the exec'd process's ``signal->maxrss``), so after a large fit in the
    parent it hides the child's own peak. On Linux the child therefore uses the
    per-address-space ``VmHWM`` of /proc/self/status (reset to the current RSS
    just before the fit through /proc/self/clear_refs when allowed); elsewhere
    it falls back to ``ru_maxrss`` after minus before.
    """
    import resource
    method, n, m, d, k = spec["method"], spec["n"], spec["m"], spec["d"], spec["k"]
    gamma = _gamma(d)
    fit = FITTERS[method]
    if method == "ours":
        warm_jit()
    else:  # import the peer's modules before the baseline
        fit(_data(max(2 * m, 20), d, seed=1)[: max(m, 10)], min(m, 5), 1, gamma)
    X = _data(n, d)
    gc.collect()
    if _proc_status_kib("VmHWM") is not None:
        how = "VmHWM"
        if _reset_hwm():
            base = _proc_status_kib("VmRSS")
            how += " reset by clear_refs, minus VmRSS before the fit"
        else:
            base = _proc_status_kib("VmHWM")
            how += " after minus before"
        read_peak = lambda: _proc_status_kib("VmHWM")  # noqa: E731
        unit = 1024
    else:  # pragma: no cover - not Linux
        how = "ru_maxrss after minus before"
        unit = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB elsewhere
        read_peak = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # noqa: E731
        base = read_peak()
    t0 = time.perf_counter()
    fit(X, m, k, gamma)
    wall = time.perf_counter() - t0
    peak = read_peak()
    print(json.dumps({"delta_bytes": int((peak - base) * unit), "base_bytes": int(base * unit),
                      "wall_s": wall, "how": how}))


def peak_memory(method, n, m, d, k, timeout=3600):
    """Peak-RSS growth (bytes) of one fit of ``method`` in a fresh process, and
    that process's wall time of the fit."""
    spec = dict(method=method, n=int(n), m=int(m), d=int(d), k=int(k))
    code = f"from suites.bench import _mem_child; _mem_child({spec!r})"
    env = dict(os.environ)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=timeout, env=env)
    if proc.returncode != 0:
        raise RuntimeError(f"memory child for {method} failed:\n{proc.stderr[-2000:]}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    return out["delta_bytes"], out["wall_s"]


# -- perf.gaussian-block ------------------------------------------------------------

def bench_gaussian_block(scale=1.0, repeats=3):
    from sklearn.metrics.pairwise import rbf_kernel

    from kpca_suite.kernels import Kernel

    n = _scaled(GAUSSIAN_SIZES["n"], scale, 2)
    m = _scaled(GAUSSIAN_SIZES["m"], scale, 2)
    d = GAUSSIAN_SIZES["d"]
    gamma = _gamma(d)
    X, Y = _data(n, d, seed=0), _data(m, d, seed=1)
    kern = Kernel("gaussian", gamma=gamma)
    warm_jit()
    kern.block(X[:4], Y[:4])

    def floor():
        G = X @ Y.T
        np.exp(G, out=G)
        return G

    ours = _best(lambda: kern.block(X, Y), repeats)
    sk = _best(lambda: rbf_kernel(X, Y, gamma=gamma), repeats)
    fl = _best(floor, repeats)
    gemm = _best(lambda: X @ Y.T, repeats)
    err = float(np.abs(kern.block(X, Y) - rbf_kernel(X, Y, gamma=gamma)).max())
    what = f"Gaussian block n={n}, m={m}, d={d}"
    common = f"max abs(ours - sklearn) = {err:.1e}; GEMM alone {gemm:.4g} s"
    return [
        _record("perf.gaussian-block", what, ours, "sklearn rbf_kernel", sk, sk / ours,
                ">= 1 (sklearn/ours)", sk / ours >= 1.0, fl, common),
        _record("perf.gaussian-block", what, ours, "floor: GEMM X@Y.T + in-place np.exp", fl,
                ours / fl, "<= 1.3 (ours/floor)", ours / fl <= 1.3, fl, common),
    ]


# -- perf.nystrom-kpca --------------------------------------------------------------

def have_nystrompca() -> bool:
    """Whether the optional peer ``nystrompca`` (extra ``bench``) is importable."""
    return importlib.util.find_spec("nystrompca") is not None


def _nystrompca_time(n, m, d, k, gamma, repeats):
    """Time of nystrompca at n, measured or extrapolated; returns (seconds, note, n_mem)."""
    if n * m <= NYSTROMPCA_MAX_EVALS:
        X = _data(n, d)
        t = _best(lambda: _fit_nystrompca(X, m, k, gamma), repeats)
        return t, f"nystrompca measured at n={n} (best of {repeats})", n
    n_b = max(2 * m, NYSTROMPCA_MAX_EVALS // m)
    n_a = max(m, n_b // 2)
    if n_a >= n_b:
        n_b = 2 * n_a
    X = _data(n_b, d)
    # One run each: these are already seconds to minutes of interpreted loops.
    t_a = _best(lambda: _fit_nystrompca(X[:n_a], m, k, gamma), 1)
    t_b = _best(lambda: _fit_nystrompca(X, m, k, gamma), 1)
    p = math.log(t_b / t_a) / math.log(n_b / n_a)
    t = t_b * (n / n_b) ** p
    # The affine fit t = a + b n through the same two points, for comparison: the
    # fixed O(m^3) part biases the power-law exponent low at these small n.
    t_affine = t_b + (t_b - t_a) / (n_b - n_a) * (n - n_b)
    note = (f"nystrompca EXTRAPOLATED to n={n}: measured {t_a:.2f} s at n={n_a} and "
            f"{t_b:.2f} s at n={n_b} (m={m}, one run each), exponent p={p:.2f}, "
            f"t(n) = t(n_b) (n/n_b)^p (an affine fit through the same points gives "
            f"{t_affine:.0f} s); its K_nm is a Python double loop (n m interpreted "
            f"kernel calls) and it holds K_nm ({n * m * 8 / 2**20:.0f} MiB at n={n})")
    return t, note, n_b


def bench_nystrom_kpca(scale=1.0, repeats=3, memory=True):
    from kpca_suite.kernels.gram import default_block_size

    n = _scaled(NYSTROM_SIZES["n"], scale, 20)
    m = min(n, _scaled(NYSTROM_SIZES["m"], scale, 5))
    d = NYSTROM_SIZES["d"]
    k = min(m, NYSTROM_SIZES["k"])
    gamma = _gamma(d)
    X = _data(n, d)
    warm_jit()
    what = f"uncentred Gaussian Nystrom KPCA fit n={n}, m={m}, d={d}, k={k}"

    ours = _best(lambda: _fit_ours(X, m, k, gamma), repeats)
    sk = _best(lambda: _fit_sklearn(X, m, k, gamma), repeats)
    X = None  # free the data before the nystrompca subprocesses
    gc.collect()
    if have_nystrompca():
        npca, npca_note, npca_mem_n = _nystrompca_time(n, m, d, k, gamma, repeats)
    else:
        npca, npca_mem_n = None, None
        npca_note = ("nystrompca not installed, not measured: "
                     "python -m pip install -e \".[bench]\"")

    b = min(n, default_block_size(m))
    nm_bytes = n * m * 8
    pred_bytes = 8 * (m * m + b * m)
    mib = 2.0**20
    mem = {}
    if memory:
        for method, nn in (("ours", n), ("sklearn", n), ("nystrompca", npca_mem_n)):
            if nn is not None:
                mem[method] = peak_memory(method, nn, m, d, k)[0]

    def mem_note(method, nn):
        if method not in mem:
            return ""
        return f"peak {method} {mem[method] / mib:.1f} MiB (n={nn})"

    sk_note = "sklearn: Nystroem(n_components=m, rbf).fit_transform + PCA(k).fit (PCA centres Z)"
    recs = [
        _record("perf.nystrom-kpca", what, ours, "sklearn Nystroem+PCA", sk, sk / ours,
                ">= 2 (peer/ours)", sk / ours >= 2.0, None,
                "; ".join(s for s in (sk_note, mem_note("ours", n), mem_note("sklearn", n)) if s),
                ours_peak_bytes=mem.get("ours"), peer_peak_bytes=mem.get("sklearn")),
        _record("perf.nystrom-kpca", what, ours, "nystrompca NystromKPCA", npca,
                None if npca is None else npca / ours,
                ">= 20 (peer/ours)", npca is not None and npca / ours >= 20.0, None,
                "; ".join(s for s in (npca_note, mem_note("nystrompca", npca_mem_n)) if s),
                ours_peak_bytes=mem.get("ours"), peer_peak_bytes=mem.get("nystrompca")),
    ]
    if memory:
        peak = mem["ours"]
        recs.append(_record(
            "perf.nystrom-kpca", f"peak memory of our fit, n={n}, m={m}, b={b}", ours,
            "n x m float64 block", None, peak / nm_bytes,
            "peak << n m 8 (ratio < 0.5); O(m^2 + b m)", peak < 0.5 * nm_bytes, None,
            f"ours {peak / mib:.1f} MiB = {peak / pred_bytes:.2f} x 8(m^2 + b m) "
            f"[{pred_bytes / mib:.1f} MiB]; n m 8 = {nm_bytes / mib:.1f} MiB; "
            f"ratio column = ours / (n m 8)",
            kind="memory", ours_peak_bytes=peak, predicted_bytes=pred_bytes, nm_bytes=nm_bytes))
    return recs


# -- public API ---------------------------------------------------------------------

BENCHES = {"gaussian-block": bench_gaussian_block, "nystrom-kpca": bench_nystrom_kpca}


def run_bench(which=WHICH, scale=1.0, repeats=3):
    """Measure the selected performance claims; returns a list of records (dicts
    with the keys :data:`FIELDS`, plus peak-memory fields for the Nystrom fit).

    ``which``: names from :data:`WHICH` (``"perf."`` prefixes accepted);
    ``scale``: fraction of the paper sizes; ``repeats``: best-of count.
    """
    if isinstance(which, str):
        which = (which,)
    if not 0 < scale <= 10:
        raise ValueError(f"scale must be in (0, 10], got {scale}")
    records = []
    for name in which:
        key = name[len("perf."):] if name.startswith("perf.") else name
        if key not in BENCHES:
            raise ValueError(f"unknown benchmark {name!r}; choose from {WHICH}")
        records.extend(BENCHES[key](scale=scale, repeats=repeats))
    return records


def _fmt(v, digits=4):
    if v is None:
        return ""
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        return f"{v:.{digits}g}"
    return str(v)


def format_bench(records) -> str:
    """A Markdown table of the records, then one line of machine information."""
    head = ["id", "what", "ours (s)", "peer", "peer (s)", "ratio", "goal", "met", "floor (s)", "notes"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in records:
        cells = [r["id"], r["what"], _fmt(r["ours_s"]), r["peer"], _fmt(r["peer_s"]),
                 _fmt(r["ratio"], 3), r["goal"],
                 "yes" if r["met"] else ("not measured" if r["ratio"] is None else "no"),
                 _fmt(r.get("floor")), r.get("notes", "")]
        lines.append("| " + " | ".join(str(c).replace("|", "/") for c in cells) + " |")
    try:
        import numba
        import sklearn
        versions = f"numpy {np.__version__}, numba {numba.__version__}, scikit-learn {sklearn.__version__}"
    except ImportError:  # pragma: no cover
        versions = f"numpy {np.__version__}"
    lines.append("")
    lines.append(f"{os.cpu_count()} CPUs; {versions}; Python {sys.version.split()[0]}")
    return "\n".join(lines) + "\n"


def _cmd_bench(args) -> int:
    records = run_bench(which=tuple(args.which), scale=args.scale, repeats=args.repeats)
    text = format_bench(records)
    print(text, end="")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text)
    return 0


def add_bench_parser(subparsers):
    """Add the ``bench`` subcommand to an argparse ``subparsers`` object; its
    handler is ``args.func(args) -> exit code``."""
    p = subparsers.add_parser(
        "bench", help="measure the performance claims as ratios (benchmarks, not tests)",
        description="Measure perf.gaussian-block and perf.nystrom-kpca in one process run: "
                    "times against scikit-learn, nystrompca and the GEMM + exp floor, and the "
                    "peak memory of the Nystrom fit. Prints a Markdown table.")
    p.add_argument("--scale", type=float, default=1.0,
                   help="fraction of the paper sizes (e.g. 0.05 for a quick run); default 1")
    p.add_argument("--repeats", type=int, default=3, help="best of this many runs; default 3")
    p.add_argument("--out", metavar="FILE", default=None, help="also write the Markdown table to FILE")
    p.add_argument("--which", nargs="+", default=list(WHICH), choices=list(WHICH),
                   help="which claims to measure; default both")
    p.set_defaults(func=_cmd_bench)
    return p


def main(argv=None) -> int:
    """Stand-alone entry point: ``python -m suites.bench [--scale ...]``."""
    import argparse
    parser = argparse.ArgumentParser(prog="kpca-suite")
    sub = parser.add_subparsers(dest="command", required=True)
    add_bench_parser(sub)
    args = parser.parse_args(["bench"] + list(sys.argv[1:] if argv is None else argv))
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
