"""The crash promises of ``kpca-suite``, kept by real processes: each test runs
``python -m kpca_suite.suites.cli`` in a subprocess (its own process group) on
the toy paper of tests/crash_paper.py, shipped as someone else's package through
the entry-point group ``kpca_suite.papers``, and kills or interrupts it.

- ``kill -9`` of ``run --jobs 2`` at three moments (the main process alone, whose
  pool workers live on, or the whole group): the rerun resumes, runs exactly the
  cells not stored, and ends with the store of an uninterrupted run, bit for bit;
- Ctrl-C (SIGINT to the group, as a terminal sends it, or to the process): exit
  130, one error line, no traceback, nothing left running; a rerun completes;
- ``kill -9`` of ``report`` while it draws: the store reads as before and the
  next ``report`` rewrites report.md;
- resume from an arbitrary subset of the cells, written directly: ``run`` runs
  exactly the missing cells, so the done-check uses every key field.
"""

from __future__ import annotations

import os
import importlib
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kpca_suite.suites.claim import Result
from kpca_suite.suites.store import ResultStore
from tests import crash_paper
from tests.paper_package import CLI, ship_paper, subprocess_env

STORE = "results.sqlite"
TIMEOUT = 180  # seconds for any one subprocess; a toy run takes a few
#: key -> cell of the shipped toy paper's quick sweep (its keys name the shipped module's code identity)
CELLS: dict = {}
RUN = ["run", "crashtoy", "--jobs", "2", "--no-progress"]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The toy paper as an installed package, for PYTHONPATH."""
    where = tmp_path_factory.mktemp("site")
    module = ship_paper(where, "crashtoy", Path(crash_paper.__file__).read_text(encoding="utf-8"))
    sys.path.insert(0, str(where))
    try:
        shipped = importlib.import_module(module)
    finally:
        sys.path.remove(str(where))
    CELLS.update({c.key(): c for claim in shipped.CLAIMS for c in claim.cells("quick")})
    return where


def _default_sigint():
    """In the child before exec: SIGINT back to its default disposition. A test run in
    the background (nohup, `&`, some CI runners) has SIGINT ignored, which its children
    inherit, and Python then never raises KeyboardInterrupt: the Ctrl-C tests would
    test nothing."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Cli:
    """Start ``kpca-suite`` subprocesses, each the leader of its own process group,
    output to files (a killed run's orphaned workers would hold pipes open); every
    group started is killed at teardown."""

    def __init__(self, site, logs: Path):
        self.site, self.logs, self.groups, self.count = site, logs, [], 0

    def start(self, *argv, **env) -> subprocess.Popen:
        self.count += 1
        out, err = (open(self.logs / f"{self.count}.{s}", "w+", encoding="utf-8") for s in ("out", "err"))
        p = subprocess.Popen(CLI + [str(a) for a in argv], stdout=out, stderr=err, cwd=self.logs,
                             env=subprocess_env(self.site, **env), start_new_session=True,
                             preexec_fn=_default_sigint)
        p.files = (out, err)
        self.groups.append(p.pid)
        return p

    @staticmethod
    def wait(p, timeout=TIMEOUT):
        """(exit status, stdout, stderr) once ``p`` has exited."""
        p.wait(timeout=timeout)
        texts = []
        for f in p.files:
            f.seek(0)
            texts.append(f.read())
            f.close()
        return (p.returncode, *texts)

    def __call__(self, *argv, **env):
        """Run to the end: (exit status, stdout, stderr)."""
        return self.wait(self.start(*argv, **env))

    def kill_all(self):
        for pgid in self.groups:
            try:
                os.killpg(pgid, signal.SIGKILL)
            except ProcessLookupError:
                pass


@pytest.fixture
def cli(site, tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    c = Cli(site, logs)
    yield c
    c.kill_all()


def table(out: Path) -> dict:
    """key -> metrics (float.hex, so equal means bit for bit) of the store in ``out``,
    checking on the way that no key is stored twice and that ``results()`` agrees."""
    with ResultStore(out / STORE, create=False) as st:
        recs = st.records()
        rows = st.conn.execute("SELECT count(*), count(DISTINCT key) FROM results").fetchone()
        via_results = {r.cell.key(): r.metrics for cid in st.claims() for r in st.results(cid)}
    got = {r["key"]: {k: float(v).hex() for k, v in r["metrics"].items()} for r in recs}
    assert rows == (len(got), len(got))
    assert via_results.keys() == got.keys()
    assert all({k: v.hex() for k, v in via_results[key].items()} == m for key, m in got.items())
    return got


def rows_read_only(out: Path) -> dict:
    """key -> the whole row, through a read-only connection (the file is not touched);
    {} while there is no store or no table yet."""
    uri = "file:" + (out / STORE).as_posix() + "?mode=ro"
    try:
        con = sqlite3.connect(uri, uri=True)
    except sqlite3.Error:
        return {}
    try:
        return {r[0]: r for r in con.execute("SELECT * FROM results")}
    except sqlite3.Error:
        return {}
    finally:
        con.close()


def wait_for_cells(p, out: Path, k: int, timeout=TIMEOUT) -> None:
    """Poll the store until it holds ``k`` cells; ``p`` must still be running."""
    deadline = time.monotonic() + timeout
    while len(rows_read_only(out)) < k:
        assert p.poll() is None, f"the run ended (status {p.returncode}) before {k} cells were stored"
        assert time.monotonic() < deadline, f"{k} cells not stored within {timeout} s"
        time.sleep(0.01)


def group_gone(pgid: int, timeout=10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def resumed_line(kept: int) -> str:
    return f"kpca-suite: resumed: {kept} cell(s) already in the store, {len(CELLS) - kept} run now"


@pytest.fixture(scope="module")
def reference(site, tmp_path_factory):
    """An uninterrupted ``run --jobs 2``: (results directory, its table, its verdict lines)."""
    out = tmp_path_factory.mktemp("reference") / "res"
    c = Cli(site, out.parent)
    try:
        code, stdout, err = c(*RUN, "--out", out, CRASHTOY_CELL_SLEEP="0")
    finally:
        c.kill_all()
    assert code == 0, err
    got = table(out)
    assert got.keys() == CELLS.keys()
    assert got == {k: {m: v.hex() for m, v in crash_paper.metrics_of(cell).items()} for k, cell in CELLS.items()}
    verdicts = [line for line in stdout.splitlines() if line.startswith("HOLDS")]
    assert [v.split()[1] for v in verdicts] == ["crashtoy.sweep:", "crashtoy.twin:"]
    return out, got, verdicts


# ---------------------------------------------------------------------- kill -9 of run

@pytest.mark.parametrize("after, target", [(1, "process"), (17, "group"), (34, "process")],
                         ids=["after-1-cell-process", "after-17-cells-group", "after-34-cells-process"])
def test_kill_9_of_run_then_rerun_gives_the_uninterrupted_store(cli, reference, tmp_path, after, target):
    out = tmp_path / "res"
    p = cli.start(*RUN, "--out", out, CRASHTOY_CELL_SLEEP="0.05")
    wait_for_cells(p, out, after)
    (os.killpg if target == "group" else os.kill)(p.pid, signal.SIGKILL)
    assert cli.wait(p)[0] == -signal.SIGKILL
    kept = rows_read_only(out)
    assert after <= len(kept) < len(CELLS), "the kill must land mid-run"
    # the rerun starts at once: the pool workers of a killed main process may live
    # on, and must not hold the results directory
    code, stdout, err = cli(*RUN, "--out", out, CRASHTOY_CELL_SLEEP="0.05")
    assert code == 0, err
    assert resumed_line(len(kept)) in err.splitlines()
    assert "Traceback" not in err
    assert [line for line in stdout.splitlines() if line.startswith("HOLDS")] == reference[2]
    assert table(out) == reference[1]
    final = rows_read_only(out)
    assert {k: final[k] for k in kept} == kept  # the cells stored before the kill were not run again
    assert group_gone(p.pid, timeout=10.0), "the killed run's pool workers outlived it"
    print(f"kill -9 ({target}) after {len(kept)} of {len(CELLS)} cells stored: "
          f"rerun ran {len(CELLS) - len(kept)}, lost 0 stored cells")


# ---------------------------------------------------------------------- Ctrl-C of run

@pytest.mark.parametrize("target", ["group", "process"])
def test_ctrl_c_of_run_exits_130_with_one_line_and_a_rerun_completes(cli, reference, tmp_path, target):
    out = tmp_path / "res"
    # 0.3 s a cell: about 7 s for the 48 cells on 2 workers, so that the run is still going
    # when the signal lands even on a loaded machine (with 0.05 s it once finished first)
    p = cli.start(*RUN, "--out", out, CRASHTOY_CELL_SLEEP="0.3")
    wait_for_cells(p, out, 10)
    assert p.poll() is None, "the run ended before the interrupt could be sent"
    (os.killpg if target == "group" else os.kill)(p.pid, signal.SIGINT)
    code, stdout, err = cli.wait(p, timeout=60)
    assert code == 130
    assert stdout == ""
    assert err.splitlines() == [
        f"kpca-suite: 2 claim(s), profile quick, store {out / STORE}",
        f"kpca-suite: error: interrupted; finished cells are kept in {out / STORE} and a rerun resumes"]
    assert group_gone(p.pid), "Ctrl-C left a process of the run behind"
    kept = rows_read_only(out)
    assert 10 <= len(kept) < len(CELLS)
    code, stdout, err = cli(*RUN, "--out", out, CRASHTOY_CELL_SLEEP="0")
    assert code == 0, err
    assert resumed_line(len(kept)) in err.splitlines()
    assert table(out) == reference[1]


# ---------------------------------------------------------------------- kill -9 of report

def test_kill_9_of_report_leaves_the_results_usable(cli, reference, tmp_path):
    out = tmp_path / "res"
    shutil.copytree(reference[0], out)
    (out / "report.md").write_text("stale\n", encoding="utf-8")
    mark = tmp_path / "drawing"
    p = cli.start("report", "--out", out, CRASHTOY_FIGURE_MARK=str(mark))
    deadline = time.monotonic() + TIMEOUT
    while not mark.exists():  # the report has judged and is drawing: the store is open, the lock held
        assert p.poll() is None, cli.wait(p)
        assert time.monotonic() < deadline
        time.sleep(0.01)
    os.kill(p.pid, signal.SIGKILL)
    assert cli.wait(p)[0] == -signal.SIGKILL
    assert (out / "report.md").read_text(encoding="utf-8") == "stale\n"  # killed before it was rewritten
    assert table(out) == reference[1]
    code, stdout, err = cli("report", "--out", out)
    assert code == 0, err
    assert [line for line in stdout.splitlines() if line.startswith("HOLDS")] == reference[2]
    assert stdout.splitlines()[-1] == f"report: {out / 'report.md'} and {out / 'report.html'}"
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "stale" not in md and "crashtoy.sweep" in md and "crashtoy.twin" in md
    assert table(out) == reference[1]


# ---------------------------------------------------------------------- resume from any subset

def _differs_in_one_field(a, b) -> str:
    fields = {"claim": (a.claim, b.claim), "method": (a.method, b.method), "n": (a.n, b.n),
              "seed": (a.seed, b.seed), "m": (a.p["m"], b.p["m"]), "ell": (a.p["ell"], b.p["ell"])}
    diff = [name for name, (x, y) in fields.items() if x != y]
    assert len(diff) == 1, diff
    return diff[0]


def test_resume_runs_exactly_the_missing_cells(cli, reference, tmp_path):
    by_fields = {(c.claim, c.method, c.n, c.seed, c.p["m"], c.p["ell"]): c for c in CELLS.values()}
    x = by_fields[("crashtoy.sweep", "a", 8, 0, 4, 1)]
    # one missing cell per key field, each differing from the stored cell x in that field alone
    neighbours = [by_fields[f] for f in [("crashtoy.twin", "a", 8, 0, 4, 1), ("crashtoy.sweep", "b", 8, 0, 4, 1),
                                         ("crashtoy.sweep", "a", 16, 0, 4, 1), ("crashtoy.sweep", "a", 8, 1, 4, 1),
                                         ("crashtoy.sweep", "a", 8, 0, 2, 1), ("crashtoy.sweep", "a", 8, 0, 4, 2)]]
    assert sorted(_differs_in_one_field(x, y) for y in neighbours) == sorted(
        ["claim", "method", "n", "seed", "m", "ell"])
    rng = random.Random(20240611)
    others = [c for c in CELLS.values() if c != x and c not in neighbours]
    planted = [x] + [c for c in others if rng.random() < 0.5]
    out = tmp_path / "res"
    with ResultStore(out / STORE) as st:
        for cell in planted:
            st.add(Result(cell, crash_paper.metrics_of(cell), 0.0, 0), {"planted": "by the test"}, "planted")
    before = rows_read_only(out)
    code, _, err = cli(*RUN, "--out", out, CRASHTOY_CELL_SLEEP="0")
    assert code == 0, err
    assert resumed_line(len(planted)) in err.splitlines()
    assert table(out) == reference[1]
    with ResultStore(out / STORE, create=False) as st:
        commits = {r["key"]: r["git_commit"] for r in st.records()}
    assert {k for k, c in commits.items() if c == "planted"} == {c.key() for c in planted}
    assert {k: r for k, r in rows_read_only(out).items() if k in before} == before
    print(f"resume: {len(planted)} cells planted, {len(CELLS) - len(planted)} run")


# ---------------------------------------------------------------------- a full disk

FULL_DISK = ("import resource, sys\n"
             "limit = int(sys.argv[1])\n"
             "resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))\n"
             "from kpca_suite.suites.cli import main\n"
             "sys.exit(main(sys.argv[2:]))\n")


def test_a_full_disk_ends_in_one_line_and_a_rerun_completes(site, reference, tmp_path):
    """No file may grow past 96 KiB (RLIMIT_FSIZE; Python ignores SIGXFSZ, so a write
    fails as on a full disk): the run stops with one line naming the store and the
    cause, exit 2; the cells stored before are intact and a rerun resumes to the
    uninterrupted run's store."""
    out = tmp_path / "res"
    p = subprocess.run([sys.executable, "-c", FULL_DISK, str(96 * 1024), "run", "crashtoy", "--jobs", "1",
                        "--no-progress", "--out", str(out)], env=subprocess_env(site, CRASHTOY_CELL_SLEEP="0"),
                       cwd=tmp_path, capture_output=True, text=True, timeout=TIMEOUT)
    errors = [line for line in p.stderr.splitlines() if "error" in line]
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert len(errors) == 1 and errors[0].startswith(f"kpca-suite: error: cannot write results store {out / STORE}")
    assert errors[0].endswith("; the cells stored before are kept and a rerun resumes"), errors[0]
    kept = table(out)
    assert 0 < len(kept) < len(CELLS) and all(reference[1][k] == m for k, m in kept.items())
    code, _, err = subprocess_run_cli(site, tmp_path, "--out", out)
    assert code == 0, err
    assert resumed_line(len(kept)) in err.splitlines()
    assert table(out) == reference[1]


def subprocess_run_cli(site, cwd, *argv):
    p = subprocess.run(CLI + ["run", "crashtoy", "--jobs", "1", "--no-progress", *map(str, argv)],
                       env=subprocess_env(site, CRASHTOY_CELL_SLEEP="0"), cwd=cwd, capture_output=True, text=True,
                       timeout=TIMEOUT)
    return p.returncode, p.stdout, p.stderr
