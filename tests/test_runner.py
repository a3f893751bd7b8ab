"""The sweep runner: execution of one cell, resume, executors, failing cells."""

from __future__ import annotations

import io
import math
import os
import subprocess
import sys
from pathlib import Path
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor

import pytest

from kpca_suite.suites import runner
from kpca_suite.suites.claim import Cell
from kpca_suite.suites.pipeline import evaluate
from kpca_suite.suites.runner import MetricsError, Progress, execute_cell, run_sweep, validate_metrics
from kpca_suite.suites.store import ResultStore
from tests import toy_claim as toy

ROOT = Path(__file__).resolve().parents[1]

N_QUICK = len(toy.NS["quick"]) * toy.SEEDS["quick"]


def judge(claim, store, profile):
    """The verdict on what the store holds (nothing runs)."""
    return evaluate([claim], profile, store, run=False).verdicts[claim.id]


@pytest.fixture
def store(tmp_path):
    with ResultStore(tmp_path / "results.sqlite") as st:
        yield st


def test_execute_cell_measures_time_and_memory_when_asked(toy_registry):
    cell = toy.TOY_RATE.cells("quick", {})[0]
    res = execute_cell(cell)  # looked up in the registry
    assert res.cell == cell and set(res.metrics) == {"err", "aux"}
    assert res.wall_time > 0 and res.peak_mem is None
    traced = execute_cell(cell, toy.TOY_RATE.run_cell, trace_memory=True)
    assert traced.metrics == res.metrics and traced.peak_mem > 0


def test_a_sweep_stores_peaks_only_when_traced(toy_registry, store, tmp_path):
    run_sweep([toy.TOY_RATE], "ci", store, jobs=1, progress=False)
    assert {r.peak_mem for r in store.results("toy.rate")} == {None}
    with ResultStore(tmp_path / "traced.sqlite") as traced:
        run_sweep([toy.TOY_RATE], "ci", traced, jobs=2, progress=False, trace_memory=True)
        assert all(r.peak_mem > 0 for r in traced.results("toy.rate"))


def test_validate_metrics():
    assert validate_metrics({"a": 1, "b": 2.5, "c": float("nan")}, "x") == {"a": 1.0, "b": 2.5, "c": pytest.approx(math.nan, nan_ok=True)}
    for bad in ([1.0], {"a": "1"}, {"a": None}, {"a": True}, {"a": float("inf")}, {1: 1.0}):
        with pytest.raises(MetricsError, match="toy.x"):
            validate_metrics(bad, "toy.x")


def test_serial_run_then_resume(toy_registry, store, monkeypatch):
    out = run_sweep([toy.TOY_RATE], "quick", store, jobs=1, progress=False)
    assert out.executed == N_QUICK and out.skipped == 0 and not out.errors
    assert len(out["toy.rate"]) == N_QUICK
    assert judge(toy.TOY_RATE, store, "quick").status == "holds"

    calls = []
    monkeypatch.setattr(runner, "_execute_safe", lambda *a: calls.append(a) or ("error", "x", "x"))
    again = run_sweep([toy.TOY_RATE], "quick", store, jobs=1, progress=False)
    assert calls == [] and again.executed == 0 and again.skipped == N_QUICK
    assert [r.metrics for r in again["toy.rate"]] == [r.metrics for r in out["toy.rate"]]


def test_partial_store_runs_only_the_rest(toy_registry, store):
    cells = toy.TOY_RATE.cells("quick", {})
    for cell in cells[::2]:  # pre-populate half
        store.add(execute_cell(cell, toy.TOY_RATE.run_cell), {}, "c")
    out = run_sweep([toy.TOY_RATE], "quick", store, jobs=1, progress=False)
    assert out.executed == len(cells[1::2]) and out.skipped == len(cells[::2])
    removed = [c.key() for c in cells[:7]]
    assert store.delete(removed) == 7
    out = run_sweep([toy.TOY_RATE], "quick", store, jobs=1, progress=False)
    assert out.executed == 7 and store.done_keys("toy.rate") == {c.key() for c in cells}


def test_process_pool_matches_serial(toy_registry, tmp_path):
    with ResultStore(tmp_path / "a.sqlite") as a, ResultStore(tmp_path / "b.sqlite") as b, \
            ResultStore(tmp_path / "c.sqlite") as c:
        serial = run_sweep([toy.TOY_RATE, toy.TOY_FAIL], "quick", a, jobs=1, progress=False)
        with ProcessPoolExecutor(2) as ex:
            pooled = run_sweep([toy.TOY_RATE, toy.TOY_FAIL], "quick", b, executor=ex, progress=False)
        with ThreadPoolExecutor(3) as ex:
            threaded = run_sweep([toy.TOY_RATE, toy.TOY_FAIL], "quick", c, executor=ex, progress=False)
        for cid in ("toy.rate", "toy.fail"):
            keys = [r.cell.key() for r in serial[cid]]
            assert keys == [r.cell.key() for r in pooled[cid]] == [r.cell.key() for r in threaded[cid]]
            assert [r.metrics for r in serial[cid]] == [r.metrics for r in pooled[cid]] \
                == [r.metrics for r in threaded[cid]]
        assert judge(toy.TOY_FAIL, b, "quick").status == "fails"


def test_default_pool_with_jobs(toy_registry, store):
    out = run_sweep([toy.TOY_RATE], "quick", store, jobs=2, progress=False)
    assert out.executed == N_QUICK and not out.errors


def test_failing_cells_are_collected_and_others_kept(toy_registry, store):
    out = run_sweep([toy.TOY_BOOM, toy.TOY_BAD, toy.TOY_RATE], "quick", store, jobs=1, progress=False)
    boom = [e for e in out.errors if e.claim == "toy.boom"]
    bad = [e for e in out.errors if e.claim == "toy.bad"]
    assert len(boom) == toy.SEEDS["quick"] and all(e.cell.n == 128 for e in boom)
    assert "planted failure" in boom[0].error and "RuntimeError" in boom[0].traceback
    assert len(bad) == N_QUICK and "toy.bad" in bad[0].error and "not a float" in bad[0].error
    assert len(out["toy.boom"]) == N_QUICK - toy.SEEDS["quick"]
    assert out["toy.bad"] == [] and len(out["toy.rate"]) == N_QUICK
    assert store.done_keys("toy.bad") == set()
    assert "toy.boom" in str(boom[0])
    v = judge(toy.TOY_BAD, store, "quick")
    assert v.status == "inconclusive" and f"{N_QUICK} of {N_QUICK} cells missing" in v.summary
    v = judge(toy.TOY_BOOM, store, "quick")  # judged only on complete data
    assert v.status == "inconclusive" and f"{toy.SEEDS['quick']} of {N_QUICK} cells missing" in v.summary


def test_failing_cells_in_a_pool(toy_registry, store):
    with ProcessPoolExecutor(2) as ex:
        out = run_sweep([toy.TOY_BOOM], "quick", store, executor=ex, progress=False)
    assert len(out.errors) == toy.SEEDS["quick"] and "planted failure" in out.errors[0].traceback


class FlakyExecutor(ThreadPoolExecutor):
    """An executor whose futures of the cells in ``flaky`` (keys) raise, as a lost worker's
    do, on their first ``fails`` submissions; ``submitted`` counts submissions per key."""

    def __init__(self, flaky, fails):
        super().__init__(2)
        self.flaky, self.fails, self.submitted = set(flaky), fails, {}

    def submit(self, fn, cell, *args):
        key = cell.key()
        self.submitted[key] = self.submitted.get(key, 0) + 1
        if key in self.flaky and self.submitted[key] <= self.fails:
            fut = Future()
            fut.set_exception(AttributeError("'Result' object has no attribute 'with_traceback'"))
            return fut
        return super().submit(fn, cell, *args)


def test_an_executor_failure_is_retried_once_then_recorded(toy_registry, tmp_path):
    # A future that raises is the executor's failure, not the cell's (a cell's own error
    # is returned, not raised): its cell runs once more, with the bits of a serial run.
    cells = toy.TOY_RATE.cells("quick", {})
    flaky = {c.key() for c in cells[::4]}
    with ResultStore(tmp_path / "a.sqlite") as a, ResultStore(tmp_path / "b.sqlite") as b, \
            ResultStore(tmp_path / "c.sqlite") as c:
        serial = run_sweep([toy.TOY_RATE], "quick", a, jobs=1, progress=False)
        with FlakyExecutor(flaky, fails=1) as ex:
            once = run_sweep([toy.TOY_RATE], "quick", b, executor=ex, progress=False)
        assert not once.errors and once.executed == N_QUICK
        assert ex.submitted == {c.key(): 2 if c.key() in flaky else 1 for c in cells}
        assert [(r.cell.key(), r.metrics) for r in once["toy.rate"]] == \
            [(r.cell.key(), r.metrics) for r in serial["toy.rate"]]
        with FlakyExecutor(flaky, fails=2) as ex:  # failing again: the cell's error, the others stored
            twice = run_sweep([toy.TOY_RATE], "quick", c, executor=ex, progress=False)
        assert sorted(e.cell.key() for e in twice.errors) == sorted(flaky)
        assert all("AttributeError" in e.error for e in twice.errors)
        assert max(ex.submitted.values()) == 2 and len(twice["toy.rate"]) == N_QUICK - len(flaky)


def test_a_worker_killed_by_the_system_loses_its_cell_only(store):
    # SIGKILL (as the out-of-memory killer sends) breaks the process pool; the pool is
    # replaced, the cells that were in flight rerun alone, the killer is recorded.
    out = run_sweep([toy.TOY_KILL, toy.TOY_RATE], "quick", store, jobs=2, progress=False)
    assert [(e.claim, e.cell.n, e.cell.seed) for e in out.errors] == [("toy.kill", 256, 1)]
    assert "worker process died while running this cell (killed by SIGKILL: by the system, out of memory?)" \
        in out.errors[0].error
    assert len(out["toy.kill"]) == N_QUICK - 1 and len(out["toy.rate"]) == N_QUICK


SERIAL_THEN_POOL = """
from kpca_suite.suites.pipeline import evaluate
from tests import toy_claim as toy

if __name__ == "__main__":
    for jobs in (1, 2):
        ev = evaluate([toy.TOY_THREADS], "ci", jobs=jobs)
        print(jobs, ev.verdicts["toy.threads"].status, len(ev.errors), ev.executed)
"""


def test_a_pool_after_a_serial_run_in_one_process_survives_the_openmp_layer(tmp_path):
    """A serial run (jobs=1) runs cells in this process and launches Numba's GNU OpenMP layer,
    which a forked child cannot use (it aborts: every cell 'died'). Pools then start from a
    forkserver, so jobs=2 after jobs=1 gives the same verdict."""
    script = tmp_path / "serial_then_pool.py"
    script.write_text(SERIAL_THEN_POOL)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=600,
                          cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split("\n")[:2] == ["1 holds 0 30", "2 holds 0 30"], done.stdout + done.stderr[-2000:]
    assert "fork() called from a process already using GNU OpenMP" not in done.stderr


def test_bad_arguments(store):
    with pytest.raises(ValueError, match="profile"):
        run_sweep([toy.TOY_RATE], "huge", store)
    with pytest.raises(ValueError, match="jobs"):
        run_sweep([toy.TOY_RATE], "quick", store, jobs=0)


def test_progress_line():
    buf = io.StringIO()
    p = Progress(4, skipped=2, stream=buf, every=0.0)
    p.show(force=True)
    for _ in range(4):
        p.update()
    text = buf.getvalue()
    assert "0/4 cells" in text and "4/4 cells" in text and "ETA" in text and "2 already done" in text
    assert "\r" not in text


def test_plots_and_report_survive_nan(tmp_path):
    import numpy as np

    from kpca_suite.suites.plots import plot_fits, vector_copies
    from kpca_suite.suites.claim import Fit, Verdict
    from kpca_suite.suites.report import write_report

    x = np.array([10.0, 20, 40, 80])
    Y = np.array([[1.0, np.nan], [-1, 0.5], [np.nan, np.nan], [0.1, 0.12]])
    fits = [Fit("a", x, Y, -0.9, (-1.2, float("nan")), 0.5, predicted=-1.0, band=(-1.1, -0.9),
                reference=np.array([1, 0.5, np.nan, 0.12])),
            Fit("b", x, np.full((4, 3), np.nan), float("nan"), (float("nan"),) * 2, xlabel="t"),
            Fit("c", x, x ** -1.0, -1.0, (-1.0, -1.0))]  # 1-D y
    v = Verdict("fails", "x | y", fits, {"slope": np.float64(-0.9)}, {"slope": -1}, claim="toy/odd id")
    with vector_copies(True):
        paths = plot_fits(v, tmp_path / "plots")
    assert [p.name for p in paths] == ["toy_odd_id.png", "toy_odd_id.svg"]
    assert plot_fits(Verdict("holds", "no fits", claim="toy.none"), tmp_path) == []
    md, html = write_report([v, Verdict("inconclusive", "<b>", claim="toy.none")], paths, tmp_path, "ci",
                            {"cpu_count": 2}, {"numpy": "1"}, commit="abc", wall_time=3.5)
    assert "toy/odd id" in md.read_text() and "plots/toy_odd_id.png" in md.read_text()
    assert "&lt;b&gt;" in html.read_text() and "<td>slope</td><td>-0.9</td><td>-1</td>" in html.read_text()
    assert "- slope: -0.9 vs -1" in md.read_text()


def test_one_sided_bands_are_labelled_as_such():
    from kpca_suite.suites.plots import band_text
    assert band_text((-0.6, -0.35)) == "[-0.6, -0.35]"
    assert band_text((float("nan"), -0.35)) == "<= -0.35"
    assert band_text((-0.6, float("inf"))) == ">= -0.6"


def test_limit_threads_caps_numba():
    import numba
    from kpca_suite.suites.runner import limit_threads
    before = numba.get_num_threads()
    limit_threads(1)
    assert numba.get_num_threads() == 1
    numba.set_num_threads(before)


def _blas_threads(cell):
    from threadpoolctl import threadpool_info
    return {"threads": float(max(p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"))}


def test_every_cell_runs_with_the_same_blas_threads():
    """Whatever the caller set (the test session runs BLAS on one thread; a
    user's shell may give it every core), a cell sees CELL_BLAS_THREADS."""
    from threadpoolctl import threadpool_limits
    cell = Cell.make("toy.threads", "toy", 1, 0)
    with threadpool_limits(limits=2, user_api="blas"):
        assert execute_cell(cell, _blas_threads).metrics["threads"] == runner.CELL_BLAS_THREADS
