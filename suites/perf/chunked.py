"""Perf declaration of the chunked (Dask array) fits, in memory, on threads and on a local cluster."""

from __future__ import annotations

import functools
import os

import numpy as np

from .data import gamma_for
from .harness import PerfClaim, PerfRecord, Skip, _proc_status_kib, _reset_hwm, case_label, have

# -- perf.dask ----------------------------------------------------------------------------

#: Above this many rows only the cluster contender runs: the demonstration that the chunked
#: path never holds X (the full profile's n = 10^7, d = 10: 763 MiB of float64).
DASK_IN_MEMORY_MAX_ROWS = 2_000_000


#: Rows per block when the case's .npy file is written (8 MiB at d = 10).
_NPY_WRITE_ROWS = 1 << 17


#: The contender that fits on a LocalCluster (paper profile).
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
        raise Skip("run at the full profile only (a local cluster starts in ~10 s)")
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
         "scheduler in this process and, at the full profile, on a LocalCluster of 2 single-threaded worker "
         "processes, whose peak RSS per worker is reported; the full profile's n = 10^7 (763 MiB of X) runs "
         "on the cluster only",
    data=_dask_data,
    contenders={"in-memory": _dask_in_memory, "dask array from disk": _dask_threads, DASK_CLUSTER: _dask_cluster},
    reference="in-memory",
    sizes={
        "ci": tuple(dict(method=meth, n=20_000, d=10, **extra, chunk=5_000, workers=0)
                      for meth, extra in (("skpca", dict(m=100, k=10, ell=20)), ("nystrom", dict(m=200, k=10)))),
        "quick": tuple(dict(method=meth, n=1_000_000, d=10, **extra, chunk=100_000, workers=0)
                       for meth, extra in (("skpca", dict(m=100, k=10, ell=20)), ("nystrom", dict(m=200, k=10)))),
        "full": tuple(dict(method=meth, n=n, d=10, **extra, chunk=250_000, workers=2)
                       for n in (2_000_000, 10_000_000)
                       for meth, extra in (("skpca", dict(m=100, k=10, ell=20)), ("nystrom", dict(m=200, k=10)))),
    },
    warm=dict(n=4_000, chunk=1_000),
    memory=frozenset({"in-memory", "dask array from disk"}),
    derive=_dask_derive,
)
