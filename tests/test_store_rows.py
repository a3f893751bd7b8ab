"""A store whose pages are sound (SQLite's quick_check says ok) but whose rows do
not read back: text that is not UTF-8, JSON that does not parse, a key its columns
do not rebuild. Opening it is a StoreError naming the file, the row and the column;
``kpca-suite run`` / ``report`` / ``plot`` exit 2 with that one line, no traceback;
nothing stored changes."""

from __future__ import annotations

import sqlite3

import pytest

from kpca_suite.suites import cli
from kpca_suite.suites.store import ResultStore, StoreError

ROW = 3  # the rowid spoilt
NOT_METRICS = "column metrics is not a JSON object of numbers and lists of numbers"

SPOILERS = {
    # column, SQL expression, what the error says
    "metrics-not-utf8": ("metrics", "CAST(X'7b22657272223a20fffe7d' AS TEXT)", "column metrics is not valid UTF-8"),
    "key-not-utf8": ("key", "CAST(X'5b22746f79ff22' AS TEXT)", "column key is not valid UTF-8"),
    "params-not-json": ("params", "'[[\"grid\",'", "column params is not valid JSON"),
    "metrics-not-an-object": ("metrics", "'[1, 2]'", NOT_METRICS),
    "metric-not-a-number": ("metrics", "'{\"err\": \"x\"}'", NOT_METRICS),
    "versions-not-json": ("versions", "'{'", "column versions is not valid JSON"),
    "n-not-an-integer": ("n", "'eight'", "column n holds 'eight', not an integer"),
    "seed-changed": ("seed", "seed + 100", "its columns rebuild the cell"),
    "metrics-a-blob": ("metrics", "X'7b7d'", "column metrics holds a blob"),
}


@pytest.fixture
def spoilt(toy_registry, tmp_path, capsys, monkeypatch, request):
    """A toy store (30 cells of toy.rate) with row ROW spoilt, checkpointed into the one file."""
    from kpca_suite.suites import plots
    monkeypatch.setattr(plots, "plot_fits", lambda verdict, outdir: [])
    assert cli.main(["run", "toy.rate", "--out", str(tmp_path), "-j", "1", "--no-progress"]) == 0
    capsys.readouterr()
    column, expr, why = SPOILERS[request.param]
    path = tmp_path / "results.sqlite"
    con = sqlite3.connect(path)
    with con:
        con.execute(f"UPDATE results SET {column} = {expr} WHERE rowid = ?", (ROW,))
    assert con.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    con.close()
    assert not path.with_name("results.sqlite-wal").exists()
    (tmp_path / "report.md").unlink()
    return path, why


@pytest.mark.parametrize("spoilt", list(SPOILERS), indirect=True)
def test_a_row_that_does_not_read_back_is_a_store_error_and_exit_2(spoilt, tmp_path, capsys):
    path, why = spoilt
    before = path.read_bytes()
    files = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(StoreError) as ei:
        ResultStore(path, create=False)
    msg = str(ei.value)
    assert msg.startswith(f"{path} is corrupt: row {ROW} (key ") and why in msg and msg.endswith(
        "; the file was left untouched") and "\n" not in msg
    for argv in (["run", "toy.rate", "-j", "1", "--no-progress"], ["report"], ["plot"]):
        code = cli.main(argv + ["--out", str(tmp_path)])
        out, err = capsys.readouterr()
        assert code == 2, err
        assert err == f"kpca-suite: error: {msg}\n" and out == ""
        assert path.read_bytes() == before
        assert sorted(p.name for p in tmp_path.iterdir()) == files  # no report, no -wal / -shm left


def test_a_row_spoilt_after_opening_is_a_store_error_on_reading(tmp_path):
    from kpca_suite.suites.claim import Cell, Result
    path = tmp_path / "results.sqlite"
    with ResultStore(path) as st:
        for n in (8, 16, 32):
            st.add(Result(Cell.make("toy.rate", "toy", n, 0, m=n // 4), {"err": 1.0 / n}), {}, "c")
        con = sqlite3.connect(path)
        with con:
            con.execute("UPDATE results SET metrics = '[1]' WHERE n = 16")
        con.close()
        key = Cell.make("toy.rate", "toy", 16, 0, m=4).key()
        for read in (lambda: st.results("toy.rate"), st.records):
            with pytest.raises(StoreError) as ei:
                read()
            assert str(ei.value) == f"results store {path} is corrupt: row {key!r}: {NOT_METRICS}"
        assert st.done_keys() == {Cell.make("toy.rate", "toy", n, 0, m=n // 4).key() for n in (8, 16, 32)}
