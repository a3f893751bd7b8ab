"""The store is complete or refused: every change a row or the ledger undergoes outside
kpca-suite is named by `report --verify` (exit 2) and refused by `report` and `run`; a
store written before the ledger is named as unverified until `report --adopt`; a head kept
elsewhere shows what the store alone cannot (a cut at the tail, a full rewrite);
`--verify NAME` checks that claim; a disk that is full before the run or while the
report is written ends in one line with nothing half-written."""

from __future__ import annotations

import hashlib
import json
import resource
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from kpca_suite.suites import cli
from kpca_suite.suites.claim import Cell, Result
from kpca_suite.suites.store import WAL_LIMIT, ResultStore, StoreError, row_checksum
from tests import toy_claim as toy
from tests.test_cli import N_QUICK, run

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def stored(toy_registry, no_plots, tmp_path, capsys):
    """A results directory holding toy.rate and toy.fail at quick."""
    assert run(["run", "toy.rate", "toy.fail", "-j", "1", "--no-progress", "--out", str(tmp_path)], capsys)[0] == 1
    return tmp_path


def _sql(directory, *statements):
    con = sqlite3.connect(directory / "results.sqlite")
    with con:
        for stmt in statements:
            con.execute(*stmt) if isinstance(stmt, tuple) else con.execute(stmt)
    con.close()


def _refused_everywhere(directory, capsys, named: str):
    for argv in (["report", "--verify"], ["report"], ["plot"], ["run", "toy.rate", "-j", "1", "--no-progress"]):
        code, _, err = run(argv + ["--out", str(directory)], capsys)
        assert code == 2 and "Traceback" not in err and named in err, (argv, err)
        assert len(err.strip().splitlines()) == 1, err


def _swap_metrics_with_plain_checksums(directory):
    """Two rows' metrics swapped, and their schema-1 checksums recomputed (what an editor
    who read the old code could do)."""
    con = sqlite3.connect(directory / "results.sqlite")
    (k1, m1), (k2, m2) = con.execute("SELECT key, metrics FROM results WHERE claim = 'toy.rate' LIMIT 2").fetchall()
    with con:
        con.execute("UPDATE results SET metrics = ? WHERE key = ?", (m2, k1))
        con.execute("UPDATE results SET metrics = ? WHERE key = ?", (m1, k2))
        con.execute("CREATE TABLE IF NOT EXISTS checksums (key TEXT PRIMARY KEY, sum TEXT)")
        con.execute("INSERT OR REPLACE INTO checksums VALUES (?, ?)", (k1, row_checksum(k1, m2)))
    con.close()


CASES = {
    "a deleted row": ((lambda d: _sql(d, "DELETE FROM results WHERE rowid = 3")), "has lost a row its ledger holds"),
    "an added row": ((lambda d: _sql(d, "INSERT INTO results SELECT replace(key, '\"toy.rate\"', '\"toy.x\"'), "
                                        "'toy.x', method, n, m, seed, params, metrics, wall_time, peak_mem, versions, "
                                        "git_commit, created FROM results WHERE rowid = 1")),
                     "has a row added outside kpca-suite"),
    "rows swapped, plain checksums recomputed": (_swap_metrics_with_plain_checksums, "has a changed row"),
    "a deleted ledger entry": ((lambda d: _sql(d, "DELETE FROM ledger WHERE seq = 5")), "has a broken ledger at entry 5"),
    "the ledger's end cut off": ((lambda d: _sql(d, "DELETE FROM ledger WHERE seq = (SELECT MAX(seq) FROM ledger)")),
                                 "has lost the end of its ledger"),
    "a dropped ledger table": ((lambda d: _sql(d, "DROP TABLE ledger")), "has lost its ledger table"),
    "two ledger entries moved": ((lambda d: _sql(d, "UPDATE ledger SET seq = -seq WHERE seq IN (2, 3)",
                                                 "UPDATE ledger SET seq = CASE seq WHEN -2 THEN 3 ELSE 2 END WHERE seq < 0")),
                                 "has a broken ledger at entry 2"),
    "a downgrade to a store before the ledger": ((lambda d: _downgrade(d)), "its header says it had one"),
}


def _downgrade(directory, header: bool = False):
    """What makes a ledgered store look as if it never had one, with no secret: the ledger
    table and its meta keys gone, schema 1, a metric changed (and, with ``header``, the file
    header's mark reset too)."""
    _sql(directory, "DROP TABLE ledger",
         "DELETE FROM meta WHERE key IN ('secret', 'ledger_size', 'ledger_head', 'counts')",
         "UPDATE meta SET value = '1' WHERE key = 'schema_version'",
         "UPDATE results SET metrics = replace(metrics, '0.', '0.9') WHERE rowid = 1",
         *(["PRAGMA user_version = 0"] if header else []))


def _cut_tail(directory, rows: int):
    """The last ``rows`` rows deleted with their ledger entries, and the meta's size, head and
    counts set back to the entry before them: consistent without an outside anchor."""
    con = sqlite3.connect(directory / "results.sqlite")
    last = con.execute("SELECT MAX(seq) FROM ledger").fetchone()[0]
    keys = [k for (k,) in con.execute("SELECT key FROM ledger WHERE seq > ?", (last - rows,))]
    head = con.execute("SELECT link FROM ledger WHERE seq = ?", (last - rows,)).fetchone()[0]
    counts = json.loads(con.execute("SELECT value FROM meta WHERE key = 'counts'").fetchone()[0])
    for key in keys:
        counts[json.loads(key)[0]] -= 1
    with con:
        con.executemany("DELETE FROM results WHERE key = ?", [(k,) for k in keys])
        con.execute("DELETE FROM ledger WHERE seq > ?", (last - rows,))
        con.executemany("UPDATE meta SET value = ? WHERE key = ?", [
            (str(last - rows), "ledger_size"), (head, "ledger_head"), (json.dumps(counts), "counts")])
    con.close()


def _kept_head(out: str) -> str:
    """The head `run` printed (its last line: ``ledger head <32 hex> (keep it ...)``)."""
    line = [ln for ln in out.splitlines() if ln.startswith("ledger head ")][-1]
    return line.split()[2]


def test_a_head_kept_elsewhere_shows_a_cut_at_the_tail_that_the_store_alone_cannot(
        toy_registry, no_plots, tmp_path, capsys):
    code, out, _ = run(["run", "toy.rate", "-j", "1", "--no-progress", "--out", str(tmp_path)], capsys)
    assert code == 0
    head = _kept_head(out)
    assert len(head) == 32
    code, out, _ = run(["report", "--verify", "--head", head[:16], "--out", str(tmp_path)], capsys)
    assert code == 0 and "it holds the head kept elsewhere (the current one)" in out
    _cut_tail(tmp_path, 3)
    code, out, _ = run(["report", "--verify", "--out", str(tmp_path)], capsys)
    assert code == 0 and f"{N_QUICK - 3} row(s) match the ledger" in out   # no anchor: undetectable
    code, _, err = run(["report", "--verify", "--head", head, "--out", str(tmp_path)], capsys)
    assert code == 2 and "does not hold the ledger head kept elsewhere" in err and "cut at the tail" in err


def test_a_head_kept_before_more_cells_were_added_is_still_held(toy_registry, no_plots, tmp_path, capsys):
    _, out, _ = run(["run", "toy.rate", "-j", "1", "--no-progress", "--out", str(tmp_path)], capsys)
    head = _kept_head(out)
    run(["run", "toy.fail", "-j", "1", "--no-progress", "--out", str(tmp_path)], capsys)
    code, out, _ = run(["report", "--verify", "--head", head, "--out", str(tmp_path)], capsys)
    assert code == 0 and f"({N_QUICK} entries ago)" in out


def test_a_downgrade_with_the_header_reset_too_is_caught_only_by_a_kept_head(stored, capsys):
    """Without an outside anchor nothing tells a store rewritten in full (header included)
    from one that never had a ledger: it is named unverified and refused for writing. A head
    kept elsewhere cannot be held by a store without a ledger."""
    _downgrade(stored, header=True)
    code, _, err = run(["report", "--out", str(stored)], capsys)
    assert "are UNVERIFIED" in err
    code, _, err = run(["report", "--verify", "--head", "0" * 32, "--out", str(stored)], capsys)
    assert code == 2 and "has no ledger, so it cannot hold the head" in err
    code, _, err = run(["run", "toy.rate", "-j", "1", "--no-progress", "--out", str(stored)], capsys)
    assert code == 2 and "was written before the ledger" in err


@pytest.mark.parametrize("argv,message", [
    (["report", "--head", "abc"], "--head is checked by --verify: give both"),
    (["report", "--verify", "--head", "abc"], "--head must be a ledger head as `kpca-suite run` prints it"),
    (["report", "--adopt", "--verify"], "--adopt takes the whole store in: give it alone"),
])
def test_head_and_adopt_refuse_what_they_cannot_check(stored, capsys, argv, message):
    code, _, err = run([*argv, "--out", str(stored)], capsys)
    assert code == 2 and message in err


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_store_changed_outside_kpca_suite_is_named_and_refused(stored, capsys, case):
    change, named = CASES[case]
    change(stored)
    _refused_everywhere(stored, capsys, named)


def test_verify_names_the_rows_it_checked_and_checks_only_the_named_claim(stored, capsys):
    code, out, _ = run(["report", "--verify", "--out", str(stored)], capsys)
    assert code == 0 and f"{2 * N_QUICK} row(s) match the ledger; ledger head " in out
    code, out, _ = run(["report", "--verify", "toy.fail", "--out", str(stored)], capsys)
    assert code == 0 and f"{N_QUICK} row(s) of toy.fail match the ledger" in out
    code, out, err = run(["report", "--verify", "no.such-claim", "toy.fail", "--out", str(stored)], capsys)
    assert code == 2 and out == "" and err.startswith(  # an unknown name is refused, whatever else is named
        f"kpca-suite: error: --verify: the store {stored / 'results.sqlite'} has no rows of 'no.such-claim' (it has "
        "rows of 2 claim(s)"), err
    _sql(stored, "DELETE FROM results WHERE claim = 'toy.rate' AND rowid = (SELECT MIN(rowid) FROM results)")
    assert run(["report", "--verify", "toy.fail", "--out", str(stored)], capsys)[0] == 0
    code, _, err = run(["report", "--verify", "toy.rate", "--out", str(stored)], capsys)
    assert code == 2 and "has lost a row its ledger holds" in err


def test_removals_through_kpca_suite_keep_the_ledger_whole(stored, capsys):
    with ResultStore(stored / "results.sqlite", create=False) as st:
        keys = sorted(st.done_keys("toy.rate"))
        assert st.delete(keys[:2]) == 2 and st.set_aside(keys[2:5]) == 3
        assert st.verify() == {"verified": 2 * N_QUICK - 5, "adopted": 0, "unverified": 0,
                               "head": st.verify()["head"], "since": 0}
    code, out, _ = run(["run", "toy.rate", "-j", "1", "--no-progress", "--out", str(stored)], capsys)
    assert code == 0


SCHEMA_1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE results (key TEXT PRIMARY KEY, claim TEXT NOT NULL, method TEXT NOT NULL, n INTEGER NOT NULL,
    m INTEGER, seed INTEGER NOT NULL, params TEXT NOT NULL, metrics TEXT NOT NULL, wall_time REAL,
    peak_mem INTEGER, versions TEXT NOT NULL, git_commit TEXT NOT NULL, created TEXT NOT NULL);
CREATE TABLE checksums (key TEXT PRIMARY KEY, sum TEXT NOT NULL);
"""


def _schema_1_store(path: Path, cells) -> None:
    """A store as kpca-suite wrote it before the ledger (schema 1, plain checksums)."""
    con = sqlite3.connect(path)
    con.execute("PRAGMA application_id = 1263551297")
    con.executescript(SCHEMA_1)
    with con:
        con.executemany("INSERT INTO meta VALUES (?, ?)", [("app", "kpca-suite-results"), ("schema_version", "1")])
        for cell in cells:
            metrics = json.dumps({"err": toy.rate(cell)})
            params = json.dumps([list(kv) for kv in cell.params], separators=(",", ":"))
            con.execute("INSERT INTO results VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                        (cell.key(), cell.claim, cell.method, cell.n, cell.p.get("m"), cell.seed, params, metrics,
                         0.1, None, "{}", "old", "2026-01-01T00:00:00+00:00"))
            con.execute("INSERT INTO checksums VALUES (?, ?)", (cell.key(), row_checksum(cell.key(), metrics)))
    con.close()


def test_a_store_written_before_the_ledger_is_unverified_until_adopted_explicitly(
        toy_registry, no_plots, tmp_path, capsys):
    """A store of schema 1 is read and named unverified on every report; nothing is added to
    it (a write must not make its rows look verified) until `report --adopt` takes them in."""
    cells = toy.TOY_RATE.cells("quick")[:7]
    _schema_1_store(tmp_path / "results.sqlite", cells)
    code, out, _ = run(["report", "--verify", "--out", str(tmp_path)], capsys)
    assert code == 0 and "7 row(s) were written before the ledger was kept and are NOT verified" in out
    for _ in range(2):
        code, _, err = run(["report", "--out", str(tmp_path)], capsys)
        assert "7 row(s) were written before the ledger and are UNVERIFIED" in err
    code, _, err = run(["run", "toy.rate", "-j", "1", "--no-progress", "--out", str(tmp_path)], capsys)
    assert code == 2 and "was written before the ledger: its 7 row(s) are unverified" in err
    assert "`kpca-suite report --adopt --out" in err
    code, out, _ = run(["report", "--adopt", "--out", str(tmp_path)], capsys)
    assert code == 0 and "7 row(s) written before the ledger adopted as they are now" in out
    code, _, err = run(["run", "toy.rate", "-j", "1", "--no-progress", "--out", str(tmp_path)], capsys)
    assert code == 0 and "resumed: 7 cell(s) already in the store" in err, err
    code, out, _ = run(["report", "--verify", "--out", str(tmp_path)], capsys)
    assert code == 0 and f"{N_QUICK} row(s) match the ledger, 7 of them adopted from before the ledger" in out


def test_a_disk_full_before_the_run_ends_in_one_line_and_leaves_no_lock(toy_registry, tmp_path):
    """No file may grow (RLIMIT_FSIZE 0: every write fails as on a full disk)."""
    script = ("import resource, sys\nresource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))\n"
              "from tests.test_store_ledger import _cli_on_toys\nsys.exit(_cli_on_toys(sys.argv[1:]))\n")
    out = tmp_path / "r"
    p = subprocess.run([sys.executable, "-c", script, "run", "toy.rate", "-j", "1", "--no-progress", "--out", str(out)],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert p.stderr.strip().splitlines() == [p.stderr.strip()] and "cannot write to the results directory" in p.stderr
    assert not (out / "results.sqlite.lock").exists() and not (out / "results.sqlite").exists()


def test_a_report_on_a_full_disk_ends_in_one_line_keeps_the_store_and_leaves_no_empty_report(stored):
    """No file may grow past 33 KiB: the store opens (its -shm file is 32 KiB), the first
    plot (a PNG of about 36 KiB) cannot be written."""
    before = hashlib.sha256((stored / "results.sqlite").read_bytes()).hexdigest()
    (stored / "report.md").unlink()
    script = ("import resource, sys\nresource.setrlimit(resource.RLIMIT_FSIZE, (33792, 33792))\n"
              "from tests.test_store_ledger import _cli_on_toys\nsys.exit(_cli_on_toys(sys.argv[1:]))\n")
    p = subprocess.run([sys.executable, "-c", script, "report", "--out", str(stored)], cwd=ROOT, capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert [line for line in p.stderr.splitlines() if "error" in line] == [p.stderr.strip().splitlines()[-1]]
    assert "cannot write the outputs in" in p.stderr and "the results store is unchanged" in p.stderr
    assert not (stored / "report.md").exists() and not list(stored.glob("**/.*.tmp"))
    assert hashlib.sha256((stored / "results.sqlite").read_bytes()).hexdigest() == before


def _cli_on_toys(argv) -> int:
    """The CLI with the toy claims registered (for the subprocesses above)."""
    from kpca_suite.suites import registry
    registry.REGISTRY = {c.id: c for c in toy.ALL}
    registry.PAPERS = {"toy": toy.PAPER}
    registry.paper_modules = lambda: []
    return cli.main(argv)


def test_the_write_ahead_log_stays_small_during_a_long_run(tmp_path):
    with ResultStore(tmp_path / "r.sqlite") as st:
        for i in range(3000):
            st.add(Result(Cell.make("toy.wal", "m", i, 0, blob="x" * 200), {"v": float(i)}), {"k": "v" * 200})
        wal = tmp_path / "r.sqlite-wal"
        assert wal.stat().st_size <= WAL_LIMIT + 70 * 4096, wal.stat().st_size
        assert (tmp_path / "r.sqlite").stat().st_size > 1_000_000  # the rows are in the store itself


def test_a_forged_meta_is_refused(tmp_path):
    with ResultStore(tmp_path / "results.sqlite") as st:
        st.add(Result(Cell.make("toy.m", "m", 1, 0), {"v": 1.0}))
    _sql(tmp_path, "DELETE FROM meta WHERE key = 'secret'")
    with pytest.raises(StoreError, match="lost its secret"):
        ResultStore(tmp_path / "results.sqlite", create=False)


def test_resource_module_is_available():  # the full-disk tests rely on RLIMIT_FSIZE
    assert hasattr(resource, "RLIMIT_FSIZE")
