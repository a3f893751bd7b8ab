"""The sweep runner: build every cell of the selected claims, skip the cells the
results store already holds (resume), run the rest on any
:class:`concurrent.futures.Executor` and append each result to the store as it
completes.

Executors: ``jobs=1`` runs serially in this process (tests, debugging); the
default is a local :class:`~concurrent.futures.ProcessPoolExecutor`; any other
executor can be passed in, e.g. Dask's ``distributed.Client(...).get_executor()``
A cell depends on itself alone (its
seed included), so the metrics are identical whatever the executor.

What is sent to a worker is ``(cell, claim.run_cell)``: the claim's module-level
function is pickled by reference, so a worker needs the claim's module to be
importable, not the claim to be registered in its registry.
"""

from __future__ import annotations

import contextlib
import math
import numbers
import os
import sys
import threading
import time
import tracemalloc
import traceback
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Executor, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Callable, Optional

from . import registry
from .allocator import fix_malloc_thresholds
from .machine import git_commit, versions as _versions
import numpy as np

from .claim import PROFILES, Cell, Result
from .roles import EstimatorDefect, Unsupported


#: BLAS / LAPACK threads of every cell, in every executor. The thread count
#: changes round-off (a multithreaded GEMM sums in another order), so one fixed
#: count is what makes ``--jobs 1``, a process pool and Dask store the same
#: bits. One, because the claims make many small LAPACK calls, on which a
#: multithreaded OpenBLAS spins: the bach13 and KRR tests ran about 25x slower
#: with the default threads.
CELL_BLAS_THREADS = 1

_CONTROLLER = []


def cell_blas_limit():
    """A context manager holding BLAS at :data:`CELL_BLAS_THREADS` threads
    (one threadpoolctl controller per process, built on first use)."""
    if not _CONTROLLER:
        import numba  # noqa: F401 - loads its OpenMP layer before threadpoolctl looks
        from threadpoolctl import ThreadpoolController
        _CONTROLLER.append(ThreadpoolController())
    return _CONTROLLER[0].limit(limits=CELL_BLAS_THREADS, user_api="blas")


def limit_threads(n_threads: int) -> None:
    """Cap the Numba (and OpenMP) thread pools of a worker process at
    ``n_threads``, so that the workers together use cpu_count threads rather
    than workers x cpu_count (oversubscription slows cells several-fold). Numba's parallel loops here are elementwise, so
    results do not depend on it; BLAS is held per cell by :func:`cell_blas_limit`."""
    import numba
    from threadpoolctl import threadpool_limits
    threadpool_limits(n_threads, user_api="openmp")
    numba.set_num_threads(min(n_threads, numba.config.NUMBA_NUM_THREADS))


#: glibc malloc's mmap threshold in the processes that run cells (bytes; see
#: :mod:`suites.allocator`): arrays below it reuse the heap instead of being mapped and
#: faulted in anew at every use, larger ones (paper-scale Gram matrices) are still returned
#: to the system when freed, and a worker keeps at most twice it free. The quick profile
#: (kpca-suite run, 2 workers, idle, 2026-11-28) made 5.5 million minor page faults with
#: glibc's defaults and spent 24-28 of its 383-413 CPU-s in the kernel; with this, 0.55 million
#: and 6-7 s, and its wall time fell 6% (209 -> 196 s and 194 -> 182 s, interleaved pairs).
CELL_MMAP_THRESHOLD = 512 * 2**20


def _exit_with_parent(parent: int) -> None:
    """Poll once a second; exit when the process that started this worker is gone
    (SIGKILLed runs would otherwise leave their workers blocked forever)."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


def worker_init(n_threads: int) -> None:
    """Initializer of the pool workers: :func:`limit_threads`, glibc malloc's thresholds
    (:data:`CELL_MMAP_THRESHOLD`), and exit with the parent."""
    limit_threads(n_threads)
    fix_malloc_thresholds(CELL_MMAP_THRESHOLD)
    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True).start()


class MetricsError(ValueError):
    """A claim's ``run_cell`` returned something other than a dict of
    finite-or-NaN floats and 1-D float arrays."""


class UndeclaredMetric(MetricsError):
    """A cell returned a metric its claim does not declare: a defect of the claim's
    declaration, which stops the sweep at the first such cell."""


@dataclass
class CellError:
    """A cell that raised: nothing was recorded for it."""

    claim: str
    cell: Cell
    error: str       # "ExceptionType: message"
    traceback: str   # formatted where the cell ran
    notes: str = ""  # what the cell wrote to stderr and warned

    def __str__(self):
        return f"{self.claim}: cell {self.cell.key()} failed: {self.error}"


class Sweep(dict):
    """What :func:`run_sweep` returns: a ``dict`` claim id -> list of
    :class:`Result` (every finished cell of the run's sweep, earlier runs
    included), plus

    ``errors``   list of :class:`CellError`, the cells that raised;
    ``defects``  list of :class:`CellError`, the cells whose estimator returned an
                 unusable output (nothing recorded; the claim fails naming it);
    ``refusals`` list of :class:`CellError`, the cells whose implementation refused
                 the setting (:class:`~suites.roles.Unsupported`; the claim is n/a and
                 its other cells are not started);
    ``notes``    ``{claim id: {line: cells}}``, what the cells wrote to stderr or warned;
    ``executed`` the number of cells run now;
    ``skipped``  the number of cells found already done in the store;
    ``elapsed``  wall-clock seconds of the sweep.
    """

    def __init__(self, *args, **kw):
        super().__init__(*args, **kw)
        self.errors: list = []
        self.defects: list = []
        self.refusals: list = []
        self.notes: dict = {}
        self.executed = 0
        self.skipped = 0
        self.elapsed = 0.0


def _metric_value(v, name: str, where: str):
    """A float, or a 1-D float64 array for a curve; anything else raises."""
    if isinstance(v, bool) or isinstance(v, str) or v is None:
        raise MetricsError(f"{where}: metric {name!r} is {type(v).__name__} {v!r}, not a float")
    if isinstance(v, numbers.Real):
        f = float(v)
        if math.isinf(f):
            raise MetricsError(f"{where}: metric {name!r} is infinite")
        return f
    a = np.asarray(v)
    if a.ndim != 1 or a.dtype.kind not in "iuf":
        raise MetricsError(f"{where}: metric {name!r} is {type(v).__name__} of dtype {a.dtype} and "
                           f"shape {a.shape}, not a float or a 1-D array of floats")
    a = a.astype(np.float64)
    if np.isinf(a).any():
        raise MetricsError(f"{where}: metric {name!r} has an infinite entry")
    return a


def validate_metrics(metrics, claim_id: str, cell: Optional[Cell] = None) -> dict:
    """``metrics`` as a dict ``str -> float or 1-D float array``; raise
    :class:`MetricsError` naming the claim unless every value is a finite or NaN
    real number or a 1-D array of them (bool, strings, None, 2-D arrays and
    infinities are rejected)."""
    where = f"claim {claim_id!r}" + (f", cell {cell.key()}" if cell is not None else "")
    if not isinstance(metrics, dict):
        raise MetricsError(f"{where}: run_cell must return a dict of floats, got {type(metrics).__name__}")
    out = {}
    for k, v in metrics.items():
        if not isinstance(k, str):
            raise MetricsError(f"{where}: metric name {k!r} is not a string")
        out[k] = _metric_value(v, k, where)
    return out


def check_declared(claim, result: Result) -> None:
    """Raise :class:`UndeclaredMetric` when ``result`` holds a metric that ``claim``
    does not declare (a claim with ``metrics=None`` declares nothing to check)."""
    if claim.metrics is None:
        return
    extra = sorted(set(result.metrics) - set(claim.metrics))
    if extra:
        def some(names):
            return ", ".join(names[:6]) + (f" and {len(names) - 6} more" if len(names) > 6 else "")
        raise UndeclaredMetric(f"claim {claim.id!r}: cell {result.cell.key()} returned metric(s) {some(extra)} that "
                               f"the claim does not declare (it declares {some(sorted(claim.metrics))}); the sweep "
                               "stops here: correct the experiment or the claim's metrics")


def execute_cell(cell: Cell, run_cell: Optional[Callable] = None, trace_memory: bool = False) -> Result:
    """Run one cell: ``run_cell(cell)`` (by default the registered claim's)
    with BLAS at :data:`CELL_BLAS_THREADS` threads, timed with
    :func:`time.perf_counter`; with ``trace_memory``, also its peak traced memory
    (:mod:`tracemalloc`, bytes; else ``peak_mem`` is None). Module-level, so process
    pools can pickle it.

    Tracing is opt-in because it costs every Python allocation a traceback: measured
    on the quick profile (2 workers, 2026-11-26), the cells took 813 s traced against
    671 s untraced, and a cell of hallgren21.table3 (nystrompca's Python kernel loop)
    3.4x its untraced time, so a traced wall time is not the method's time either."""
    if run_cell is None:
        run_cell = registry.get(cell.claim).run_cell
    started = trace_memory and not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    elif trace_memory:
        tracemalloc.reset_peak()
    t0 = time.perf_counter()
    try:
        with cell_blas_limit():
            metrics = run_cell(cell)
        wall = time.perf_counter() - t0
        peak = tracemalloc.get_traced_memory()[1] if trace_memory else None
    finally:
        if started:
            tracemalloc.stop()
    return Result(cell, validate_metrics(metrics, cell.claim, cell), wall, peak)


@contextlib.contextmanager
def _native_stderr(sink: list):
    """What native code writes to file descriptor 2 while the block runs (a compiled
    library's own log, which ``sys.stderr`` never sees), appended to ``sink`` as text, and
    not printed. C's buffered streams are flushed before fd 2 is given back."""
    import ctypes
    import tempfile

    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as tmp:
        os.dup2(tmp.fileno(), 2)
        try:
            yield
        finally:
            try:
                ctypes.CDLL(None).fflush(None)
            except (OSError, AttributeError):
                pass
            os.dup2(saved, 2)
            os.close(saved)
            tmp.seek(0)
            sink.append(tmp.read().decode("utf-8", "replace"))


def _captured(cell: Cell, run_cell: Callable, trace_memory: bool):
    """:func:`execute_cell` with what the cell writes to ``sys.stderr`` or, from native
    code, to file descriptor 2, and the warnings it raises kept (not printed):
    ``(outcome, notes)``, the notes as text. An implementation that prints or warns in
    every cell is then said once per claim (:func:`notes_summary`), not once per cell,
    and a compiled library's own reason for an error reaches errors.log beside it."""
    import io
    import warnings

    buffer, native = io.StringIO(), []
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stderr(buffer), _native_stderr(native):
        warnings.simplefilter("always")
        try:
            outcome = ("ok", execute_cell(cell, run_cell, trace_memory))
        except EstimatorDefect as e:
            outcome = ("defect", str(e), traceback.format_exc())
        except Unsupported as e:
            outcome = ("unsupported", e.reason, traceback.format_exc())
        except Exception as e:  # noqa: BLE001 - reported to the user, run continues
            outcome = ("error", f"{type(e).__name__}: {e}", traceback.format_exc())
    lines = [f"{w.category.__name__}: {w.message}" for w in caught]
    lines += [line for line in (buffer.getvalue() + "".join(native)).splitlines() if line.strip()]
    return outcome, "\n".join(lines)


def _execute_safe(cell: Cell, run_cell: Callable, trace_memory: bool = False):
    """Worker entry: ``("ok", Result, notes)``; ``("defect", message, traceback, notes)``
    when the estimator's output is unusable (:class:`~suites.roles.EstimatorDefect`, a
    finding that fails the claim); ``("unsupported", reason, traceback, notes)`` when the
    implementation refused the cell's setting (:class:`~suites.roles.Unsupported`: the
    claim is n/a); or ``("error", message, traceback, notes)``, with the traceback
    formatted where the cell ran. ``notes``: what the cell wrote to stderr and warned."""
    outcome, notes = _captured(cell, run_cell, trace_memory)
    return (*outcome, notes)


class Progress:
    """``done/total, elapsed, ETA`` on stderr: one ``\\r``-updated line on a
    TTY, a plain line at most every ``every`` seconds otherwise."""

    def __init__(self, total: int, skipped: int = 0, enabled: bool = True, stream=None, every: float = 15.0):
        self.total, self.skipped, self.enabled = total, skipped, enabled
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.every = every
        self.t0 = time.perf_counter()
        self.last = -math.inf
        self.done = self.failed = 0

    @staticmethod
    def _hms(s: float) -> str:
        if not math.isfinite(s):
            return "?"
        s = int(round(s))
        return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}"

    def line(self) -> str:
        el = time.perf_counter() - self.t0
        eta = el / self.done * (self.total - self.done) if self.done else math.inf
        extra = f", {self.failed} failed" if self.failed else ""
        extra += f", {self.skipped} already done" if self.skipped else ""
        return (f"kpca-suite: {self.done}/{self.total} cells{extra}  "
                f"elapsed {self._hms(el)}  ETA {self._hms(eta) if self.done < self.total else '0:00:00'}")

    def update(self, failed: bool = False, force: bool = False):
        self.done += 1
        self.failed += bool(failed)
        self.show(force or self.done == self.total)

    def show(self, force: bool = False):
        if not self.enabled:
            return
        now = time.perf_counter()
        if self.tty:
            if force or now - self.last >= 0.1:
                self.stream.write("\r" + self.line() + "\x1b[K")
                self.stream.flush()
                self.last = now
        elif force or now - self.last >= self.every:
            self.stream.write(self.line() + "\n")
            self.stream.flush()
            self.last = now

    def close(self):
        if self.enabled and self.tty:
            self.stream.write("\n")
            self.stream.flush()


def sweep_cells(claims, profile: str, options: Optional[dict] = None, keep: Optional[Callable] = None) -> dict:
    """``{claim id: [cells]}`` for ``profile``, duplicates (same key) dropped,
    restricted to the cells for which ``keep(cell)`` is true when given."""
    out = {}
    for claim in claims:
        seen, cells = set(), []
        for cell in claim.cells(profile, dict(options or {})):
            if keep is not None and not keep(cell):
                continue
            if cell.claim != claim.id:
                raise ValueError(f"claim {claim.id!r} made a cell of claim {cell.claim!r}")
            k = cell.key()
            if k not in seen:
                seen.add(k)
                cells.append(cell)
        out[claim.id] = cells
    return out


def _executor_error(e: BaseException) -> tuple:
    """The outcome of a cell whose future raised ``e`` itself: the executor's failure
    (pickling, a lost worker), not the cell's, which :func:`_execute_safe` returns."""
    return ("error", f"{type(e).__name__}: {e}", "".join(traceback.format_exception(e)), "")


def _outcome(fut):
    """A finished future's outcome; an exception of the executor itself (pickling, a
    lost worker) is the cell's error, a broken process pool is raised."""
    try:
        return fut.result()
    except BrokenProcessPool:
        raise
    except Exception as e:  # noqa: BLE001 - worker died, pickling failed, ...
        return _executor_error(e)


def _run_on(executor, todo, record, trace_memory: bool, refused: set) -> None:
    """Every cell on a caller's executor; the cells of a claim in ``refused`` are
    cancelled, and not recorded if they end.

    A future that raises is the executor's failure, not the cell's (:func:`_execute_safe`
    returns the cell's own errors), and its cell is submitted once more before that
    failure is recorded as its error. Dask retries a lost worker's tasks itself, but its
    ``concurrent.futures`` wrapper can misreport a task that finished while its worker
    was killed: it reads the task's state after fetching the result, finds it lost, and
    unpacks the result as an exception (``AttributeError: 'Result' object has no attribute
    'with_traceback'``; seen once in the test suite's killed-worker run, distributed
    2026.8.0). A cell computes the same bits wherever and however often it runs. A broken
    process pool is not retried: it takes no more work."""
    def submit(claim, cell, attempt):
        futures[executor.submit(_execute_safe, cell, claim.run_cell, trace_memory)] = (claim, cell, attempt)

    futures: dict = {}
    for claim, cell in todo:
        submit(claim, cell, 1)
    try:
        while futures:
            done, _ = wait(futures, return_when=FIRST_COMPLETED)
            for fut in done:
                claim, cell, attempt = futures.pop(fut)
                if claim.id in refused:
                    record(claim, cell, None)
                    continue
                try:
                    outcome = fut.result()
                except BrokenProcessPool as e:
                    outcome = _executor_error(e)
                except Exception as e:  # noqa: BLE001 - worker died, pickling failed, ...
                    if attempt == 1:
                        submit(claim, cell, 2)
                        continue
                    outcome = _executor_error(e)
                record(claim, cell, outcome)
                if claim.id in refused:
                    for other, (c, _, _) in futures.items():
                        if c.id == claim.id:
                            other.cancel()
    except BaseException:
        for fut in futures:
            fut.cancel()
        raise


DIED = "the worker process died while running this cell ({how}); the other cells went on"


def death(exitcodes) -> str:
    """How a pool's worker died, from the exit codes of its processes (the others are
    terminated, -SIGTERM, when the pool breaks): a signal named, with its usual cause."""
    import signal
    causes = {signal.SIGKILL: "killed by SIGKILL: by the system, out of memory?",
              signal.SIGSEGV: "a segmentation fault (SIGSEGV) in native code",
              signal.SIGABRT: "aborted (SIGABRT) by native code, e.g. an OpenMP runtime used across fork()",
              signal.SIGBUS: "a bus error (SIGBUS): a memory-mapped file truncated, or out of shared memory"}
    for code in exitcodes:
        if code is None or code == -signal.SIGTERM or code == 0:
            continue
        if code < 0:
            try:
                sig = signal.Signals(-code)
            except ValueError:
                return f"killed by signal {-code}"
            return causes.get(sig, f"killed by {sig.name}")
        return f"it exited with status {code}"
    return "killed by the system: out of memory?"


def pool_context():
    """The start method of the cell pools: fork (the workers inherit everything loaded),
    unless this process has already launched Numba's OpenMP threading layer (a serial run,
    ``jobs=1``, before): GNU OpenMP cannot be used in a forked child, which aborts, so the
    workers then start from a fresh forkserver."""
    import multiprocessing

    import numba
    try:
        layer = numba.threading_layer()
    except ValueError:  # no parallel region run in this process yet
        layer = None
    method = "forkserver" if layer == "omp" else "fork"
    if method not in multiprocessing.get_all_start_methods():
        method = multiprocessing.get_start_method()
    return multiprocessing.get_context(method)


def _run_on_own_pools(todo, record, workers: int, trace_memory: bool, refused: set) -> None:
    """Every cell on process pools of ``workers``, at most 2 x workers cells in flight;
    a cell of a claim in ``refused`` is not started.

    A worker that dies (killed: out of memory, a segfault in native code) breaks its
    pool and every cell in flight with it. The pool is replaced; the cells that were
    in flight become suspects and run alone, one at a time, so the one that kills its
    worker again is recorded as failed and no other cell is lost.
    """
    queue, suspects = deque(todo), deque()
    while queue or suspects:
        alone = bool(suspects)
        source = suspects if alone else queue
        window = 1 if alone else 2 * workers
        pool = ProcessPoolExecutor(max_workers=1 if alone else workers, initializer=worker_init,
                                   initargs=(max(1, (os.cpu_count() or 1) // (1 if alone else workers)),),
                                   mp_context=pool_context())
        inflight, broken, dead = {}, [], False
        try:
            while (source or inflight) and not broken:
                while source and len(inflight) < window and not dead:
                    claim, cell = source[0]
                    if claim.id in refused:
                        source.popleft()
                        record(claim, cell, None)
                        continue
                    try:
                        fut = pool.submit(_execute_safe, cell, claim.run_cell, trace_memory)
                    except BrokenProcessPool:  # broke while we refilled: this cell never ran
                        dead = True
                        break
                    source.popleft()
                    inflight[fut] = (claim, cell)
                if not inflight:
                    break
                done, _ = wait(inflight, return_when=FIRST_COMPLETED)
                for fut in done:
                    claim, cell = inflight.pop(fut)
                    try:
                        record(claim, cell, _outcome(fut))
                    except BrokenProcessPool:
                        broken.append((claim, cell))
            for fut, pair in inflight.items():  # the rest of a broken pool's window
                broken.append(pair)
        except BaseException:
            for fut in inflight:
                fut.cancel()
            raise
        finally:
            processes = list((getattr(pool, "_processes", None) or {}).values())  # their exit codes, below
            pool.shutdown(wait=True, cancel_futures=True)
        if alone and broken:  # it broke a pool of its own: the culprit
            claim, cell = broken[0]
            died = DIED.format(how=death(p.exitcode for p in processes))
            record(claim, cell, ("error", died, died + "\n", ""))
        else:
            suspects.extend(broken)


def run_sweep(claims, profile: str, store, options: Optional[dict] = None,
              executor: Optional[Executor] = None, jobs: Optional[int] = None,
              progress: bool = True, keep: Optional[Callable] = None, trace_memory: bool = False) -> Sweep:
    """Run every not-yet-done cell of ``claims`` at ``profile``.

    Parameters
    ----------
    claims : list of Claim
    profile : one of ``PROFILES``
    store : ResultStore
        Done cells are skipped; each new result is appended (and committed) as
        it completes.
    options : dict, optional
        Passed to ``claim.cells(profile, options)`` (e.g. ``{"data": path}``).
    executor : concurrent.futures.Executor, optional
        Used as is and not shut down. Default: serial in-process when
        ``jobs == 1``, else a ``ProcessPoolExecutor(jobs or os.cpu_count())``
        created and shut down here.
    jobs : int, optional
    progress : bool
        Show the progress line on stderr.
    keep : callable, optional
        Run only the cells for which ``keep(cell)`` is true (a planted fault's cells,
        :func:`suites.faults.keep_faults`; the tests).
    trace_memory : bool
        Record each cell's peak traced memory (:func:`execute_cell`; slower).

    Returns
    -------
    Sweep
        ``{claim id: [Result]}`` for the cells of this sweep, with
        ``.errors`` (cells that raised; nothing recorded for them, the other
        cells kept going), ``.defects``, ``.refusals``, ``.notes``, ``.executed``,
        ``.skipped``, ``.elapsed``.
    """
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; choose from {PROFILES}")
    if jobs is not None and jobs < 1:
        raise ValueError(f"jobs must be >= 1, got {jobs}")
    claims = list(claims)
    t0 = time.perf_counter()
    cells = sweep_cells(claims, profile, options, keep)
    done = store.done_keys()
    todo = [(c, cell) for c in claims for cell in cells[c.id] if cell.key() not in done]
    total = sum(len(v) for v in cells.values())
    out = Sweep()
    out.skipped = total - len(todo)
    vers, commit = _versions(), git_commit()
    bar = Progress(len(todo), out.skipped, enabled=progress)
    bar.show(force=True)

    refused = set()

    def record(claim, cell, outcome):
        """Store a finished cell, or keep what went wrong; None: not run (its claim was refused)."""
        if outcome is None:
            bar.update()
            return
        notes = outcome[-1]
        if notes:
            seen = out.notes.setdefault(claim.id, {})
            for line in dict.fromkeys(notes.splitlines()):
                seen[line] = seen.get(line, 0) + 1
        if outcome[0] == "ok":
            check_declared(claim, outcome[1])
            store.add(outcome[1], vers, commit)
            out.executed += 1
            bar.update()
            return
        error = CellError(claim.id, cell, outcome[1], outcome[2], notes)
        if outcome[0] == "unsupported":
            refused.add(claim.id)
            out.refusals.append(error)
        else:
            (out.defects if outcome[0] == "defect" else out.errors).append(error)
        bar.update(failed=outcome[0] != "unsupported")

    try:
        if todo and executor is None and jobs == 1:
            for claim, cell in todo:
                record(claim, cell, None if claim.id in refused else _execute_safe(cell, claim.run_cell, trace_memory))
        elif todo and executor is not None:
            _run_on(executor, todo, record, trace_memory, refused)
        elif todo:
            _run_on_own_pools(todo, record, min(jobs or os.cpu_count() or 1, len(todo)), trace_memory, refused)
    finally:
        bar.close()
    wanted = {c.id: {cell.key() for cell in cells[c.id]} for c in claims}
    for claim in claims:
        out[claim.id] = [r for r in store.results(claim.id) if r.cell.key() in wanted[claim.id]]
    out.elapsed = time.perf_counter() - t0
    return out
