"""The SQLite results store: round trip, resume keys, refusal of corrupt,
foreign and newer files (left byte-for-byte untouched), concurrent reading."""

from __future__ import annotations

import math
import random
import sqlite3
import threading

import pytest

from kpca_suite.suites.claim import Cell, Result
from kpca_suite.suites.store import SCHEMA_VERSION, ResultStore, StoreError

VERS = {"python": "3.x", "numpy": "x"}


def _result(n=64, seed=0, **params):
    cell = Cell.make("toy.rate", "nystrom", n, seed, **params)
    return Result(cell, {"err": 1.0 / n, "nan": float("nan")}, 0.25, 1234)


def test_round_trip_keeps_keys_and_values(tmp_path):
    path = tmp_path / "deep" / "dir" / "results.sqlite"
    r1 = _result(64, 0, m=16, grid=(1, 2.5), nested=((1, 2), (3, 4)), name="x", t=0.1)
    r2 = _result(128, 1)
    with ResultStore(path) as st:
        st.add(r1, VERS, "abc123")
        st.add(r2, VERS, "abc123")
    assert path.exists()
    with ResultStore(path) as st:
        assert st.claims() == ["toy.rate"]
        got = st.results("toy.rate")
        assert [g.cell.key() for g in got] == [r1.cell.key(), r2.cell.key()]
        assert got[0].cell == r1.cell and hash(got[0].cell) == hash(r1.cell)
        assert got[0].cell.p["grid"] == (1, 2.5)
        assert got[0].metrics["err"] == r1.metrics["err"] and math.isnan(got[0].metrics["nan"])
        assert got[0].wall_time == 0.25 and got[0].peak_mem == 1234
        recs = {r["key"]: r for r in st.records()}
        assert recs[r1.cell.key()]["m"] == 16 and recs[r2.cell.key()]["m"] is None
        assert recs[r1.cell.key()]["versions"] == VERS
        assert recs[r1.cell.key()]["git_commit"] == "abc123"
        assert st.commits(["toy.rate"]) == ["abc123"] and st.commits(["toy.other"]) == [] and st.commits([]) == []
        assert recs[r1.cell.key()]["created"].endswith("+00:00")
        assert st.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_done_keys_and_duplicate(tmp_path):
    with ResultStore(tmp_path / "r.sqlite") as st:
        assert st.done_keys() == set()
        a, b = _result(64), _result(128)
        st.add(a, VERS, "c")
        st.add(b, VERS, "c")
        other = Result(Cell.make("toy.other", "x", 8, 0), {"v": 1.0})
        st.add(other, VERS, "c")
        assert st.done_keys() == {a.cell.key(), b.cell.key(), other.cell.key()}
        assert st.done_keys("toy.rate") == {a.cell.key(), b.cell.key()}
        with pytest.raises(StoreError, match="already in results store") as ei:
            st.add(a, VERS, "c")
        assert a.cell.key() in str(ei.value)
        assert st.delete([a.cell.key()]) == 1
        assert st.done_keys("toy.rate") == {b.cell.key()}


@pytest.mark.parametrize("content", [
    random.Random(0).randbytes(4096),
    b"SQLite format 3\x00" + random.Random(1).randbytes(200),
    b"",  # placeholder: replaced by a truncated real store below
], ids=["random-bytes", "sqlite-header-garbage", "truncated-store"])
def test_corrupt_file_is_refused_and_untouched(tmp_path, content):
    path = tmp_path / "results.sqlite"
    if not content:
        with ResultStore(tmp_path / "good.sqlite") as st:
            for n in range(1, 400):
                st.add(_result(n), VERS, "c")
            st.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        content = (tmp_path / "good.sqlite").read_bytes()
        content = content[: len(content) // 3]
    path.write_bytes(content)
    with pytest.raises(StoreError) as ei:
        ResultStore(path)
    assert isinstance(ei.value, ValueError)
    assert str(path) in str(ei.value) and "untouched" in str(ei.value)
    assert path.read_bytes() == content
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("results")) == ["results.sqlite"]


def test_foreign_sqlite_is_refused_and_untouched(tmp_path):
    path = tmp_path / "other.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE people (name TEXT)")
    con.execute("INSERT INTO people VALUES ('ada')")
    con.commit()
    con.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="not a kpca-suite results store"):
        ResultStore(path)
    assert path.read_bytes() == before
    con = sqlite3.connect(path)
    assert [r[0] for r in con.execute("SELECT name FROM sqlite_master")] == ["people"]
    con.close()


def test_newer_schema_is_refused(tmp_path):
    path = tmp_path / "r.sqlite"
    ResultStore(path).close()
    con = sqlite3.connect(path)
    con.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION + 1),))
    con.commit()
    con.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="newer"):
        ResultStore(path)
    assert path.read_bytes() == before


def test_missing_store_without_create(tmp_path):
    with pytest.raises(StoreError, match="no results store"):
        ResultStore(tmp_path / "nope.sqlite", create=False)
    assert not (tmp_path / "nope.sqlite").exists()


def test_concurrent_reader_while_writing(tmp_path):
    path = tmp_path / "r.sqlite"
    writer = ResultStore(path)
    seen, errors = [], []
    stop = threading.Event()

    def read():
        try:
            with ResultStore(path) as reader:
                while not stop.is_set():
                    seen.append(len(reader.done_keys()))
        except Exception as e:  # pragma: no cover - the failure being tested
            errors.append(e)

    t = threading.Thread(target=read)
    t.start()
    try:
        for n in range(1, 201):
            writer.add(_result(n), VERS, "c")
    finally:
        stop.set()
        t.join()
    assert not errors
    assert seen == sorted(seen) and seen[-1] <= 200
    with ResultStore(path) as reader:
        assert len(reader.done_keys()) == 200
    writer.close()
