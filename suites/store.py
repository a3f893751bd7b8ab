"""The results store: one SQLite file (stdlib :mod:`sqlite3`, WAL mode) with one
row per finished sweep cell.

Every :meth:`ResultStore.add` commits at once, so a killed run loses only the
cells that were in flight; :meth:`ResultStore.done_keys` is what the runner
uses to skip finished cells when a run is repeated (resume).

Safety: an existing file is validated *read-only* before anything is written.
A file that is not SQLite (random bytes, truncated), an SQLite database that is
not a kpca-suite store (someone's other database) and a store written by a
newer kpca-suite (higher schema version) each raise :class:`StoreError`, and
the file is left byte-for-byte untouched: no tables are created, no journal
mode is switched. So does a file whose pages are sound (SQLite's
``quick_check`` passes) but whose rows do not read back (text that is not
UTF-8, JSON that does not parse, a key its columns do not rebuild): every row
is decoded once when the store is opened, and the first bad row is named.

Schema (version 2)::

    meta(key TEXT PRIMARY KEY, value TEXT)      app = "kpca-suite-results",
                                                schema_version = "2", secret, ledger_size,
                                                ledger_head, counts (JSON: rows per claim), ...
    results(key TEXT PRIMARY KEY,               Cell.key()
            claim, method, n, m, seed,          m from params["m"] or NULL
            params JSON, metrics JSON,
            wall_time REAL, peak_mem INTEGER,
            versions JSON, git_commit TEXT, created TEXT)   UTC ISO 8601
    ledger(seq INTEGER PRIMARY KEY, action, key, sum, link)

The file also carries ``PRAGMA application_id`` = :data:`APPLICATION_ID`.

Integrity: the ledger
---------------------
Every change of ``results`` made through this class appends one ledger entry in the same
transaction: ``add`` (a row stored; ``sum`` is HMAC-SHA256 of the whole row under the
store's random ``secret``), ``set-aside`` and ``delete`` (a row removed on purpose), and
``adopt`` (a row of a store written before the ledger, taken in as it was by ``report
--adopt``). Each entry's ``link`` is the HMAC of the previous link and
the entry, and the meta keeps the last link, the number of entries and the rows per claim.
Opening a store checks all of it, read-only: a row deleted, added or changed outside this
class, a ledger entry deleted, changed, moved or cut off the end, a dropped ledger table,
each is named, and the store is refused (``report --verify`` names it and exits 2).

Threat model. Without an outside anchor the ledger detects any change, deletion, reordering
or mixing of rows and entries that does not also rewrite the metadata (size, head, counts),
and a downgrade to a store without a ledger: the file's header (``PRAGMA user_version`` =
:data:`LEDGERED`) says it had one, so a dropped ledger is refused, never read as a store
written before the ledger. What needs an anchor: a chain forged with the store's own secret
(it lives in the store), a cut at the tail with the metadata set back, and a rewrite that
resets the header too. ``run`` prints the ledger head; kept elsewhere (a CI artifact), it is
checked by ``report --verify --head`` and ``check(..., head=)`` (:meth:`ResultStore.verify`):
the store must still hold it. A store written before the ledger (schema 1, whose rows carry
plain SHA-256 checksums, which catch accidents only) is read as it is, named unverified on
every report, and not written to until ``report --adopt`` (:meth:`ResultStore.adopt`) takes
its rows in as they are.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import math
import os
import secrets
import sqlite3
import weakref
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterable, Optional

import numpy as np

from .claim import Cell, Result

APP_NAME = "kpca-suite-results"
#: ``PRAGMA application_id`` of a store: the bytes "KPCA"
APPLICATION_ID = 0x4B504341
SCHEMA_VERSION = 2
#: ``PRAGMA user_version`` of a store that has a ledger: kept in the file's header, outside the
#: tables and the meta an editor drops to make the store look as if it never had one.
LEDGERED = 2
_SQLITE_MAGIC = b"SQLite format 3\x00"

_SCHEMA = """
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE results (
    key        TEXT PRIMARY KEY,
    claim      TEXT NOT NULL,
    method     TEXT NOT NULL,
    n          INTEGER NOT NULL,
    m          INTEGER,
    seed       INTEGER NOT NULL,
    params     TEXT NOT NULL,
    metrics    TEXT NOT NULL,
    wall_time  REAL,
    peak_mem   INTEGER,
    versions   TEXT NOT NULL,
    git_commit TEXT NOT NULL,
    created    TEXT NOT NULL
);
CREATE INDEX results_claim ON results (claim);
"""
_LEDGER = """CREATE TABLE ledger (
    seq    INTEGER PRIMARY KEY,
    action TEXT NOT NULL,
    key    TEXT NOT NULL,
    sum    TEXT NOT NULL,
    link   TEXT NOT NULL
)"""
#: How many pages the write-ahead log may hold before a checkpoint folds it into the
#: store, and the size it is truncated to then: the store's footprint stays near its size.
WAL_PAGES, WAL_LIMIT = 64, 1 << 18


def row_checksum(key: str, metrics_json: str) -> str:
    """SHA-256 (first 16 hex digits) of a row's key and its metrics as stored: the
    checksum of a store written before the ledger (schema 1), which catches accidents."""
    return hashlib.sha256(f"{key}\n{metrics_json}".encode()).hexdigest()[:16]


def row_digest(secret: str, row) -> str:
    """HMAC-SHA256 (32 hex digits) of a whole ``results`` row (its columns in table order,
    as SQLite returns them) under the store's secret."""
    return hmac.new(secret.encode(), json.dumps(list(row)).encode(), hashlib.sha256).hexdigest()[:32]


def ledger_link(secret: str, previous: str, seq: int, action: str, key: str, digest: str) -> str:
    """The link of ledger entry ``seq``: HMAC-SHA256 of the previous link and the entry."""
    text = f"{previous}|{seq}|{action}|{key}|{digest}"
    return hmac.new(secret.encode(), text.encode(), hashlib.sha256).hexdigest()[:32]


#: The file a results folder keeps its cells in (``--out DIR``: ``DIR/results.sqlite``).
STORE_NAME = "results.sqlite"


def _file_size_limit() -> Optional[int]:
    """The process's file-size limit in bytes (``ulimit -f``), None when there is none."""
    import resource
    soft = resource.getrlimit(resource.RLIMIT_FSIZE)[0]
    return None if soft == resource.RLIM_INFINITY else int(soft)


def _why(e: Exception) -> str:
    """An SQLite error in words; an I/O error under a file-size limit says so: SQLite reports
    the refused write (EFBIG) as "disk I/O error", which reads as a corrupt file."""
    limit = _file_size_limit()
    if limit is not None and any(w in str(e) for w in ("disk I/O error", "database or disk is full")):
        return f"file too large: the file-size limit (ulimit -f) is {limit} bytes ({e})"
    return str(e)


class StoreError(ValueError):
    """The results store cannot be opened or written; the message names the
    file (and the key, for a duplicate cell)."""


def _tuplify(v):
    """JSON turns tuples into lists; turn them back so cells stay hashable and
    ``Cell.key()`` is unchanged."""
    if isinstance(v, list):
        return tuple(_tuplify(x) for x in v)
    return v


def _params_json(params: tuple) -> str:
    return json.dumps([list(kv) for kv in params], separators=(",", ":"))


def _cell_from_row(claim, method, n, seed, pairs) -> Cell:
    """The cell of a row; ``pairs`` is its params column, JSON-decoded."""
    params = tuple((str(k), _tuplify(v)) for k, v in pairs)
    return Cell(claim, method, int(n), int(seed), params)


#: The columns of ``results`` in table order, and those that hold text.
_COLUMNS = ("key", "claim", "method", "n", "m", "seed", "params", "metrics", "wall_time", "peak_mem",
            "versions", "git_commit", "created")
_TEXT = frozenset({"key", "claim", "method", "params", "metrics", "versions", "git_commit", "created"})


class _BadRow(ValueError):
    """A stored row that cannot be read back: the message says which column and why."""


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_real(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is_metric(v) -> bool:
    """A stored metric: a number, or a list of numbers (a curve)."""
    return _is_real(v) or (isinstance(v, list) and all(_is_real(x) for x in v))


def _metric_json(v):
    """A metric as JSON: a float, or a list of floats for a 1-D array."""
    if isinstance(v, np.ndarray):
        if v.ndim != 1:
            raise ValueError(f"a metric array must be 1-D, got shape {v.shape}")
        return [float(x) for x in v]
    return float(v)


def _metric_value(v):
    """A stored metric read back: a float, or a float64 array for a list."""
    return np.asarray(v, dtype=np.float64) if isinstance(v, list) else float(v)


def _decode_row(rec: dict, raw_text: bool = False) -> dict:
    """One ``results`` row (column -> value for some of :data:`_COLUMNS`) decoded
    and checked: every text column valid UTF-8 text, n / seed / m integers,
    metrics a JSON object of numbers, versions a JSON object, params rebuilding a
    cell whose key is the row's (returned as ``cell``); the JSON columns come back
    decoded. ``raw_text``: text was fetched as the bytes SQLite holds (blobs were
    ruled out before); else ``bytes`` is a blob. Raises :class:`_BadRow` naming
    the column."""
    out = {}
    for col, v in rec.items():
        if isinstance(v, bytes):
            if not raw_text:
                raise _BadRow(f"column {col} holds a blob")
            try:
                v = v.decode("utf-8")
            except UnicodeDecodeError as e:
                raise _BadRow(f"column {col} is not valid UTF-8 text ({e.reason} at byte {e.start})") from None
        if col in _TEXT:
            if not isinstance(v, str):
                raise _BadRow(f"column {col} holds {type(v).__name__} {v!r}, not text")
            if col in ("params", "metrics", "versions"):
                try:
                    v = json.loads(v)
                except ValueError as e:
                    raise _BadRow(f"column {col} is not valid JSON ({e})") from None
        elif col in ("n", "seed") or v is not None:
            if not (_is_real(v) if col == "wall_time" else _is_int(v)):
                raise _BadRow(f"column {col} holds {v!r}, not {'a number' if col == 'wall_time' else 'an integer'}")
        out[col] = v
    metrics = out.get("metrics", {})
    if not isinstance(metrics, dict) or not all(_is_metric(v) for v in metrics.values()):
        raise _BadRow("column metrics is not a JSON object of numbers and lists of numbers")
    if not isinstance(out.get("versions", {}), dict):
        raise _BadRow("column versions is not a JSON object")
    if "params" in out:
        try:
            cell = _cell_from_row(out["claim"], out["method"], out["n"], out["seed"], out["params"])
        except (TypeError, ValueError) as e:
            raise _BadRow(f"column params is not a list of [name, value] pairs ({e})") from None
        if cell.key() != out["key"]:
            raise _BadRow(f"its columns rebuild the cell {cell.key()}, not its key")
        out["cell"] = cell
    return out


def _m_of(params: tuple):
    m = dict(params).get("m")
    if isinstance(m, bool):
        return None
    if isinstance(m, int):
        return m
    if isinstance(m, float) and math.isfinite(m) and m == int(m):
        return int(m)
    return None


class StoreBusy(StoreError):
    """Another process holds the results directory."""


#: The locks this process holds; a forked child closes its copies of them.
_HELD: "weakref.WeakSet" = weakref.WeakSet()


def _drop_inherited_locks() -> None:
    """In a forked child (a process-pool worker): close the inherited descriptors
    of the parent's locks. An ``flock`` belongs to the open file, so a worker
    that kept one would keep the directory locked after its parent was killed
    (``kill -9`` of ``kpca-suite run`` leaves its pool workers running); closing
    the copy leaves the parent's lock held."""
    for lock in list(_HELD):
        fd, lock._fd = lock._fd, None
        if fd is not None:
            try:
                os.close(fd)
            except OSError:
                pass
    _HELD.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_drop_inherited_locks)


class DirectoryLock:
    """One writer per results directory: an advisory lock (``flock``) on
    ``DIR/results.sqlite.lock`` held from :meth:`acquire` until :meth:`release`
    (or the process ends, whatever kills it). A second holder gets
    :class:`StoreBusy` at once, naming the process that holds the directory;
    a directory that cannot be written gets :class:`StoreError`. Taken before
    the store is opened, so two runs never race to create it. Processes forked
    while it is held (pool workers) do not hold it: killing the holder frees the
    directory even if its workers live on."""

    NAME = "results.sqlite.lock"

    def __init__(self, directory):
        self.path = Path(directory) / self.NAME
        self._fd: Optional[int] = None

    def acquire(self) -> "DirectoryLock":
        import fcntl
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            created = not self.path.exists()
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:
            raise StoreError(f"cannot write to the results directory {self.path.parent}: "
                             f"{e.strerror or e}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = os.pread(fd, 200, 0).decode("utf-8", "replace").strip() or "another process"
            os.close(fd)
            raise StoreBusy(f"{self.path.parent} is in use by {holder}; wait for it to finish or "
                            "give another --out") from None
        try:  # the holder's name: a disk already full fails here, before any store is touched
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"kpca-suite (pid {os.getpid()})\n".encode(), 0)
        except OSError as e:
            os.close(fd)
            if created:
                try:
                    self.path.unlink()
                except OSError:
                    pass
            raise StoreError(f"cannot write to the results directory {self.path.parent}: {e.strerror or e}") from None
        self._fd = fd
        _HELD.add(self)
        return self

    def release(self) -> None:
        _HELD.discard(self)
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the flock
            self._fd = None

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self.release()


class ResultStore:
    """The SQLite results store at ``path``.

    Parameters
    ----------
    path : str or Path
        The file. A missing file is created (with its parent directories)
        unless ``create=False``, which raises :class:`StoreError` instead.
    create : bool
        Whether a missing file may be created.
    lock : DirectoryLock, optional
        Held by the caller for this store; :meth:`close` releases it.

    Use as a context manager or call :meth:`close`.
    """

    def __init__(self, path, create: bool = True, timeout: float = 30.0, lock: Optional[DirectoryLock] = None,
                 verify: bool = True):
        self.path = Path(path)
        self.lock = lock
        self._verify = verify
        self._conn: Optional[sqlite3.Connection] = None
        self._ledger: Optional[dict] = None  # secret, size, head, counts: loaded with the store
        self._mark = 0  # PRAGMA user_version: LEDGERED once the store has had a ledger
        exists = self.path.exists()
        if exists and not self.path.is_file():
            raise StoreError(f"results store {self.path} is not a regular file; it was left untouched")
        if exists and self.path.stat().st_size > 0:
            self._conn = self._open_existing(timeout)
        else:
            if not create:
                raise StoreError(f"no results store at {self.path} (run `kpca-suite run` first)")
            self._conn = self._create(timeout)

    # -- opening -----------------------------------------------------------------

    def _fail(self, why: str):
        raise StoreError(f"{self.path} {why}; the file was left untouched")

    def _open_existing(self, timeout) -> sqlite3.Connection:
        try:
            with open(self.path, "rb") as fh:
                head = fh.read(len(_SQLITE_MAGIC))
        except OSError as e:
            raise StoreError(f"cannot read results store {self.path}: {e}") from None
        if head != _SQLITE_MAGIC:
            self._fail("is not a kpca-suite results store (not an SQLite file: corrupt or foreign)")
        # Validate through a read-only connection: nothing can be written. A
        # file whose header says WAL makes SQLite create -wal / -shm side files
        # even read-only; remove the ones we created if we refuse the file.
        side = [Path(str(self.path) + sfx) for sfx in ("-wal", "-shm")]
        fresh = [p for p in side if not p.exists()]
        try:
            self._validate(timeout)
        except StoreError:
            for p in fresh:
                try:
                    p.unlink()
                except OSError:
                    pass
            raise
        try:
            conn = sqlite3.connect(self.path, timeout=timeout)
            _pragmas(conn)
            if self._ledger is not None and self._mark < LEDGERED:  # a ledger kept before the mark was
                conn.execute(f"PRAGMA user_version = {LEDGERED}")
        except sqlite3.Error as e:  # a read-only file or directory, a full disk
            raise StoreError(f"cannot open results store {self.path} for writing: {_why(e)}; "
                             "the file was left untouched") from None
        return conn

    def _validate(self, timeout) -> None:
        uri = "file:" + self.path.resolve().as_posix().replace("?", "%3f").replace("#", "%23") + "?mode=ro"
        try:
            ro = sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None)
        except sqlite3.Error as e:
            self._fail(f"cannot be opened as SQLite ({e})")
        try:
            try:
                ro.execute("BEGIN")  # one snapshot for every read below, while a writer may commit
                app_id = ro.execute("PRAGMA application_id").fetchone()[0]
                self._mark = ro.execute("PRAGMA user_version").fetchone()[0]
                tables = {r[0] for r in ro.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            except sqlite3.DatabaseError as e:
                if _why(e) != str(e):
                    self._fail(f"cannot be read: {_why(e)}")
                self._fail(f"is not a readable SQLite database ({e}): corrupt or truncated")
            if app_id != APPLICATION_ID or "meta" not in tables:
                self._fail("is an SQLite database but not a kpca-suite results store "
                           "(no kpca-suite meta table); use another --out directory")
            try:
                meta = dict(ro.execute("SELECT key, value FROM meta").fetchall())
            except sqlite3.DatabaseError as e:
                self._fail(f"has an unreadable meta table ({e}): corrupt")
            if meta.get("app") != APP_NAME:
                self._fail("is an SQLite database but not a kpca-suite results store")
            try:
                version = int(meta.get("schema_version", ""))
            except ValueError:
                self._fail(f"has an invalid schema version {meta.get('schema_version')!r}")
            if version > SCHEMA_VERSION:
                self._fail(f"was written by a newer kpca-suite (schema version {version}; this "
                           f"version reads up to {SCHEMA_VERSION}); upgrade kpca-suite")
            if "results" not in tables:
                self._fail("is a kpca-suite store without its results table: corrupt")
            try:
                check = ro.execute("PRAGMA quick_check").fetchone()[0]
            except sqlite3.DatabaseError as e:
                check = str(e)
            if check != "ok":
                self._fail(f"is corrupt (SQLite quick_check: {check})")
            self._check_rows(ro)
            if "ledger" in tables:
                self._ledger = self._load_ledger(meta)
                if self._verify:
                    self._check_ledger(ro)
            elif version >= 2 or "secret" in meta or self._mark >= LEDGERED:
                self._fail("has lost its ledger table (dropped outside kpca-suite; its header says it had one): its "
                           "rows cannot be verified, and a store is never taken back to the state before the ledger; "
                           "its results are not judged")
            elif "checksums" in tables:
                self._check_sums(ro)
        finally:
            ro.close()

    # -- the ledger ----------------------------------------------------------------

    def _load_ledger(self, meta: dict) -> dict:
        try:
            return {"secret": meta["secret"], "size": int(meta["ledger_size"]), "head": meta["ledger_head"],
                    "counts": json.loads(meta["counts"])}
        except (KeyError, ValueError):
            self._fail("has a ledger but lost its secret, size, head or counts from the meta table (edited outside "
                       "kpca-suite); its results are not judged")

    def _check_ledger(self, ro, claims: Optional[set] = None) -> dict:
        """Verify the ledger and the rows (of ``claims``, or all) against it, read-only
        (module docstring); the first problem is named (:class:`StoreError`). Returns
        ``{"verified": rows, "adopted": rows taken in from a store before the ledger}``."""
        led = self._ledger
        ro.text_factory = str
        try:
            entries = ro.execute("SELECT seq, action, key, sum, link FROM ledger ORDER BY seq").fetchall()
            rows = ro.execute(f"SELECT rowid, {', '.join(_COLUMNS)} FROM results").fetchall()
        except sqlite3.DatabaseError as e:
            self._fail(f"is corrupt: its ledger cannot be read ({e})")
        live, adopted, previous = {}, set(), ""
        for i, (seq, action, key, digest, link) in enumerate(entries, 1):
            if seq != i or link != ledger_link(led["secret"], previous, seq, action, key, digest):
                self._fail(f"has a broken ledger at entry {i}: an entry was deleted, changed or moved outside "
                           "kpca-suite; its results are not judged")
            previous = link
            if action in ("add", "adopt"):
                live[key] = digest
                if action == "adopt":
                    adopted.add(key)
                else:
                    adopted.discard(key)
            else:
                live.pop(key, None)
        if len(entries) != led["size"] or previous != led["head"]:
            self._fail(f"has lost the end of its ledger (it holds {len(entries)} entries, the store recorded "
                       f"{led['size']}): entries were deleted outside kpca-suite; its results are not judged")

        def wanted(key):
            return claims is None or json.loads(key)[0] in claims
        present = set()
        for rowid, *row in rows:
            key = row[0]
            present.add(key)
            if not wanted(key):
                continue
            if key not in live:
                self._fail(f"has a row added outside kpca-suite: row {rowid} (key {key}) is not in its ledger; its "
                           "results are not judged")
            if row_digest(led["secret"], row) != live[key]:
                self._fail(f"has a changed row: row {rowid} (key {key}) no longer matches the checksum written with "
                           "it; its results are not judged")
        lost = sorted(k for k in live if k not in present and wanted(k))
        if lost:
            more = f" and {len(lost) - 1} more" if len(lost) > 1 else ""
            self._fail(f"has lost a row its ledger holds: key {lost[0]}{more}, deleted outside kpca-suite; its "
                       "results are not judged")
        counts = {}
        for key in live:
            counts[json.loads(key)[0]] = counts.get(json.loads(key)[0], 0) + 1
        for claim in sorted(set(counts) | set(led["counts"])):
            if (claims is None or claim in claims) and counts.get(claim, 0) != led["counts"].get(claim, 0):
                self._fail(f"counts {led['counts'].get(claim, 0)} row(s) of {claim} but its ledger holds "
                           f"{counts.get(claim, 0)}: edited outside kpca-suite; its results are not judged")
        selected = [k for k in live if wanted(k)]
        return {"verified": len(selected), "adopted": sum(k in adopted for k in selected),
                "links": [link for *_, link in entries]}

    def _append(self, entries) -> None:
        """Append ledger entries ``(action, key, digest, claim)`` inside the caller's
        transaction, and update the meta's size, head and counts (committed with it)."""
        led = self._ledger
        size, head, counts = led["size"], led["head"], dict(led["counts"])
        rows = []
        for action, key, digest, claim in entries:
            size += 1
            head = ledger_link(led["secret"], head, size, action, key, digest)
            rows.append((size, action, key, digest, head))
            counts[claim] = counts.get(claim, 0) + (1 if action in ("add", "adopt") else -1)
        self.conn.executemany("INSERT INTO ledger VALUES (?, ?, ?, ?, ?)", rows)
        self.conn.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                              [("ledger_size", str(size)), ("ledger_head", head),
                               ("counts", json.dumps({c: n for c, n in sorted(counts.items()) if n}))])
        self._pending = (size, head, {c: n for c, n in counts.items() if n})

    def _committed(self) -> None:
        if getattr(self, "_pending", None):
            self._ledger.update(zip(("size", "head", "counts"), self._pending))
            self._pending = None

    @property
    def head(self) -> str:
        """The ledger's last link ("" before the first entry, or without a ledger): keep it
        outside the store to check it later (:meth:`verify`'s ``head``)."""
        return "" if self._ledger is None else self._ledger["head"]

    @property
    def unverified(self) -> int:
        """The rows of a store written before the ledger (0 when it has one): not verified,
        and not written to, until :meth:`adopt` takes them in."""
        return 0 if self._ledger is not None else self._query("SELECT COUNT(*) FROM results")[0][0]

    def _ensure_ledger(self) -> None:
        """Refuse to write to a store written before the ledger until it is adopted: its rows
        cannot be verified, and a write must not make them look as if they were."""
        if self._ledger is None:
            raise StoreError(f"results store {self.path} was written before the ledger: its {self.unverified} "
                             "row(s) are unverified, and nothing is added to it until `kpca-suite report --adopt` "
                             "takes them in as they are now (or give another --out)")

    def adopt(self) -> int:
        """Give a store written before the ledger (schema 1) its ledger: a secret, and every
        row adopted as it is now (named so by :meth:`verify`). Returns the rows adopted
        (0 for a store that has a ledger)."""
        if self._ledger is not None:
            return 0
        secret = secrets.token_hex(32)
        rows = self.conn.execute(f"SELECT {', '.join(_COLUMNS)} FROM results ORDER BY rowid").fetchall()
        self._ledger = {"secret": secret, "size": 0, "head": "", "counts": {}}
        try:
            with self.conn:
                self.conn.execute(_LEDGER)
                self.conn.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                                      [("secret", secret), ("schema_version", str(SCHEMA_VERSION)),
                                       ("adopted", f"{len(rows)} row(s) on {_now()}")])
                self._append([("adopt", r[0], row_digest(secret, r), r[1]) for r in rows])
                self.conn.execute(f"PRAGMA user_version = {LEDGERED}")
        except BaseException:
            self._ledger, self._pending = None, None
            raise
        self._committed()
        return len(rows)

    def _check_sums(self, ro) -> None:
        """Every row with a checksum still matches it; the first changed row is named,
        with the number of changed rows."""
        ro.text_factory = str  # the rows read back as UTF-8 text (:meth:`_check_rows`)
        try:
            rows = ro.execute("SELECT r.rowid, r.key, r.metrics, c.sum FROM results r JOIN checksums c "
                              "ON r.key = c.key").fetchall()
        except sqlite3.DatabaseError as e:
            self._fail(f"is corrupt: its checksums cannot be read ({e})")
        changed = [(rowid, key) for rowid, key, metrics, stored in rows if row_checksum(key, metrics) != stored]
        if changed:
            more = f"; {len(changed) - 1} more changed row(s)" if len(changed) > 1 else ""
            self._fail(f"has a changed row: row {changed[0][0]} (key {changed[0][1]}) no longer matches the "
                       f"checksum written with its metrics{more}; its results are not judged")

    def verify(self, claims=None, head: Optional[str] = None) -> dict:
        """Check the ledger and the rows of ``claims`` (ids; None: every row) against it
        (:class:`StoreError` naming the first problem) and return ``{"verified": rows,
        "adopted": rows of them taken in from a store before the ledger, "unverified": rows
        of a store that has no ledger yet, "head": the ledger's last link, "since": entries
        after ``head``}``.

        ``head``, a ledger head kept outside the store (``run`` prints it), anchors the check:
        it must be a link of this store's chain (the current head, or an earlier one the store
        has grown from). A store cut at the tail with its metadata rewritten, or a chain forged
        with the store's own secret, no longer holds it; without an anchor neither can be seen."""
        selected = None if claims is None else set(claims)
        if head is not None and (not isinstance(head, str) or len(head.strip()) < 16):
            raise StoreError(f"--head must be a ledger head as `kpca-suite run` prints it (32 hex digits, at "
                             f"least the first 16), got {head!r}")
        if self._ledger is None:
            if head is not None:
                raise StoreError(f"results store {self.path} has no ledger, so it cannot hold the head {head.strip()}: "
                                 "it is not the store that head was kept from")
            where = "" if selected is None else f" WHERE claim IN ({','.join('?' * len(selected))})"
            total = self._query(f"SELECT COUNT(*) FROM results{where}", tuple(selected or ()))[0][0]
            return {"verified": 0, "adopted": 0, "unverified": total, "head": "", "since": 0}
        uri = "file:" + self.path.resolve().as_posix().replace("?", "%3f").replace("#", "%23") + "?mode=ro"
        ro = sqlite3.connect(uri, uri=True, isolation_level=None)
        try:
            ro.execute("BEGIN")
            self._ledger = self._load_ledger(dict(ro.execute("SELECT key, value FROM meta").fetchall()))
            found = self._check_ledger(ro, selected)
        finally:
            ro.close()
        links = found.pop("links")
        since = 0
        if head is not None:
            at = [i for i, link in enumerate(links) if link.startswith(head.strip().lower())]
            if len(at) != 1:
                raise StoreError(f"results store {self.path} does not hold the ledger head kept elsewhere, "
                                 f"{head.strip()}: its ledger was cut at the tail or rewritten since that head was "
                                 f"kept (it now ends at {self._ledger['head'][:16]}..., entry {len(links)})")
            since = len(links) - 1 - at[0]
        return {**found, "unverified": 0, "head": self._ledger["head"], "since": since}

    def _check_rows(self, ro) -> None:
        """Every row of ``results`` reads back (``quick_check`` checks the pages,
        not what they hold: text that is not UTF-8, JSON that does not parse);
        the first bad row is named, with the number of bad rows."""
        ro.text_factory = bytes  # decoded by _decode_row, which names the row and the column
        blob = " ".join(f"WHEN typeof({c}) = 'blob' THEN '{c}'" for c in _COLUMNS)
        bad, first = 0, None
        try:
            cur = ro.execute(f"SELECT rowid, {', '.join(_COLUMNS)}, CASE {blob} END FROM results")
            for row in cur:
                try:
                    if row[-1] is not None:
                        raise _BadRow(f"column {row[-1].decode()} holds a blob")
                    _decode_row(dict(zip(_COLUMNS, row[1:-1])), raw_text=True)
                except _BadRow as e:
                    bad += 1
                    if first is None:
                        key = row[1].decode("utf-8", "backslashreplace") if isinstance(row[1], bytes) else repr(row[1])
                        first = f"row {row[0]} (key {key}): {e}"
        except sqlite3.DatabaseError as e:
            self._fail(f"is corrupt: its results table cannot be read ({e})")
        if bad:
            more = f"; {bad - 1} more bad row(s)" if bad > 1 else ""
            self._fail(f"is corrupt: {first}{more}")

    def _create(self, timeout) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=timeout)
        except (OSError, sqlite3.Error) as e:
            raise StoreError(f"cannot create results store {self.path}: {_why(e)}") from None
        try:
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {LEDGERED}")
            _pragmas(conn)
            secret = secrets.token_hex(32)
            with conn:
                for stmt in [*filter(str.strip, _SCHEMA.split(";")), _LEDGER]:
                    conn.execute(stmt)
                conn.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", [
                    ("app", APP_NAME),
                    ("schema_version", str(SCHEMA_VERSION)),
                    ("created", _now()),
                    ("secret", secret), ("ledger_size", "0"), ("ledger_head", ""), ("counts", "{}"),
                ])
            self._ledger = {"secret": secret, "size": 0, "head": "", "counts": {}}
        except sqlite3.Error as e:
            conn.close()
            raise StoreError(f"cannot create results store {self.path}: {_why(e)}") from None
        return conn

    # -- access ------------------------------------------------------------------

    @property
    def conn(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError(f"results store {self.path} is closed")
        return self._conn

    def _query(self, sql, args=()):
        try:
            return self.conn.execute(sql, args).fetchall()
        except sqlite3.DatabaseError as e:
            raise StoreError(f"cannot read results store {self.path}: {e}") from None

    def done_keys(self, claim: Optional[str] = None) -> set:
        """Keys (``Cell.key()``) of the finished cells, of one claim or all."""
        if claim is None:
            rows = self._query("SELECT key FROM results")
        else:
            rows = self._query("SELECT key FROM results WHERE claim = ?", (claim,))
        return {r[0] for r in rows}

    def add(self, result: Result, versions: Optional[dict] = None, commit: str = "unknown") -> None:
        """Append one finished cell and commit at once. A key already present
        is a logic error (the runner skips done cells) and raises
        :class:`StoreError` naming the key."""
        cell = result.cell
        key = cell.key()
        try:
            metrics = json.dumps({str(k): _metric_json(v) for k, v in result.metrics.items()})
        except (TypeError, ValueError, AttributeError) as e:
            raise StoreError(f"metrics of cell {key} are not a dict of floats: {e}") from None
        wall = float(result.wall_time) if result.wall_time is not None else None
        row = (key, cell.claim, cell.method, int(cell.n), _m_of(cell.params), int(cell.seed),
               _params_json(cell.params), metrics,
               wall if wall is None or math.isfinite(wall) else None,
               None if result.peak_mem is None else int(result.peak_mem), json.dumps(versions or {}, sort_keys=True),
               str(commit), _now())
        try:
            self._ensure_ledger()
            with self.conn:
                self.conn.execute("INSERT INTO results VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", row)
                self._append([("add", key, row_digest(self._ledger["secret"], row), cell.claim)])
        except sqlite3.IntegrityError:
            self._pending = None
            raise StoreError(f"cell {key} is already in results store {self.path} "
                             "(a duplicate cell is a runner or claim bug)") from None
        except sqlite3.Error as e:
            self._pending = None
            raise StoreError(f"cannot write results store {self.path}: {_why(e)}") from None
        self._committed()

    def results(self, claim: str) -> list:
        """The finished cells of ``claim`` as :class:`Result` objects, ordered
        by (method, n, seed, key) whatever the order they finished in."""
        cols = ("key", "claim", "method", "n", "seed", "params", "metrics", "wall_time", "peak_mem")
        rows = self._query(f"SELECT {', '.join(cols)} FROM results WHERE claim = ? "
                           "ORDER BY method, n, seed, key", (claim,))
        out = []
        for row in rows:
            key, cl, method, n, seed, params, metrics, wall, peak = row
            try:  # the rows were checked when the store was opened: the short way first
                cell = _cell_from_row(cl, method, n, seed, json.loads(params))
                if cell.key() != key:
                    raise ValueError(key)
                out.append(Result(cell, {k: _metric_value(v) for k, v in json.loads(metrics).items()},
                                  float("nan") if wall is None else float(wall),
                                  None if peak is None else int(peak)))
            except (TypeError, ValueError, AttributeError):
                self._bad_row(dict(zip(cols, row)))
        return out

    def _bad_row(self, rec: dict):
        """Raise the :class:`StoreError` naming what is wrong with the row ``rec``."""
        try:
            _decode_row(rec)
            why = "it does not read back"
        except _BadRow as e:
            why = str(e)
        raise StoreError(f"results store {self.path} is corrupt: row {rec.get('key')!r}: {why}")

    def _rows(self, cols, where: str, args=()) -> list:
        """Columns ``cols`` of the rows of ``results`` selected by ``where``, decoded
        by :func:`_decode_row` (with ``cell``); a row that does not read back is a
        :class:`StoreError`."""
        rows = self._query(f"SELECT {', '.join(cols)} FROM results {where}", args)
        out = []
        for row in rows:
            rec = dict(zip(cols, row))
            try:
                out.append(_decode_row(rec))
            except _BadRow:
                self._bad_row(rec)
        return out

    def records(self, claim: Optional[str] = None) -> list:
        """The raw rows (dicts, JSON columns decoded), for provenance: versions
        and commit per cell."""
        rows = self._rows(_COLUMNS, ("WHERE claim = ? " if claim else "") + "ORDER BY claim, key",
                          (claim,) if claim else ())
        for rec in rows:
            del rec["cell"]
        return rows

    def commits(self, claims) -> list:
        """The git commits that produced the stored cells of ``claims``, sorted
        (provenance for the report; no metric is read)."""
        claims = list(claims)
        if not claims:
            return []
        marks = ",".join("?" * len(claims))
        rows = self._query(f"SELECT DISTINCT git_commit FROM results WHERE claim IN ({marks})", claims)
        return sorted(r[0] for r in rows)

    def claims(self) -> list:
        """Sorted ids of the claims that have at least one finished cell."""
        return [r[0] for r in self._query("SELECT DISTINCT claim FROM results ORDER BY claim")]

    def count(self, claim: Optional[str] = None) -> int:
        return len(self.done_keys(claim))

    def _removal(self, keys, action: str) -> list:
        """Ledger entries for removing the stored rows among ``keys``."""
        present = [k for k in dict.fromkeys(keys) if self._query("SELECT 1 FROM results WHERE key = ?", (k,))]
        return [(action, k, "", json.loads(k)[0]) for k in present]

    def delete(self, keys: Iterable[str]) -> int:
        """Forget the given cells (they will run again); returns how many went."""
        keys = list(keys)
        try:
            self._ensure_ledger()
            with self.conn:
                entries = self._removal(keys, "delete")
                self.conn.executemany("DELETE FROM results WHERE key = ?", [(k,) for _, k, _, _ in entries])
                self._append(entries)
        except sqlite3.Error as e:
            self._pending = None
            raise StoreError(f"cannot write results store {self.path}: {_why(e)}") from None
        self._committed()
        return len(entries)

    def latest_params(self, claim: str) -> dict:
        """The params of the claim's most recently stored cell ({} when it has none)."""
        rows = self._query("SELECT params FROM results WHERE claim = ? ORDER BY created DESC, rowid DESC LIMIT 1",
                           (claim,))
        return {str(k): _tuplify(v) for k, v in json.loads(rows[0][0])} if rows else {}

    def set_aside(self, keys: Iterable[str]) -> int:
        """Move the given cells out of ``results`` into the table ``superseded`` (same
        columns, plus when they were set aside), so that they run again while nothing
        stored is lost; returns how many moved."""
        keys = list(keys)
        cols = ", ".join(_COLUMNS)
        try:
            self._ensure_ledger()
            with self.conn:
                self.conn.execute(f"CREATE TABLE IF NOT EXISTS superseded AS SELECT {cols}, '' AS set_aside "
                                  "FROM results WHERE 0")
                entries = self._removal(keys, "set-aside")
                moved = [k for _, k, _, _ in entries]
                self.conn.executemany(f"INSERT INTO superseded SELECT {cols}, ? FROM results WHERE key = ?",
                                      [(_now(), k) for k in moved])
                self.conn.executemany("DELETE FROM results WHERE key = ?", [(k,) for k in moved])
                self._append(entries)
        except sqlite3.Error as e:
            self._pending = None
            raise StoreError(f"cannot write results store {self.path}: {_why(e)}") from None
        self._committed()
        return len(moved)

    def copy_from(self, other: "ResultStore", keys) -> int:
        """Copy into this store the rows of ``other`` whose key is in ``keys`` and that this
        store lacks (a key names the identity of the code that computed the cell, so the same
        code produced them), keeping their versions and commit; returns how many were copied."""
        wanted = set(keys) - self.done_keys()
        copied = 0
        for claim in sorted({json.loads(k)[0] for k in wanted}):
            for rec in other._rows(_COLUMNS, "WHERE claim = ?", (claim,)):
                if rec["key"] not in wanted:
                    continue
                metrics = {k: np.asarray(v, dtype=float) if isinstance(v, list) else v
                           for k, v in rec["metrics"].items()}
                result = Result(rec["cell"], metrics, rec["wall_time"] if rec["wall_time"] is not None else math.nan,
                                rec["peak_mem"])
                self.add(result, rec["versions"], rec["git_commit"])
                copied += 1
        return copied

    def get_meta(self, key: str, default=None):
        rows = self._query("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else default

    def set_meta(self, key: str, value: str) -> None:
        if key in ("app", "schema_version", "secret", "ledger_size", "ledger_head", "counts", "adopted"):
            raise StoreError(f"meta key {key!r} is reserved")
        try:
            with self.conn:
                self.conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, str(value)))
        except sqlite3.Error as e:
            raise StoreError(f"cannot write results store {self.path}: {_why(e)}") from None

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self.lock is not None:
            self.lock.release()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __repr__(self):
        return f"ResultStore({str(self.path)!r})"


def _pragmas(conn) -> None:
    """WAL (a killed process loses nothing committed), synchronous NORMAL (durable in WAL
    mode), and a write-ahead log folded into the store every :data:`WAL_PAGES` pages and
    truncated to :data:`WAL_LIMIT` bytes, so a long run's footprint stays near the store's size."""
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute(f"PRAGMA wal_autocheckpoint={WAL_PAGES}")
    conn.execute(f"PRAGMA journal_size_limit={WAL_LIMIT}")


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class MemoryStore:
    """The part of :class:`ResultStore` the runner and the pipeline use, in
    memory: for tests, asv and the Python API, where nothing is kept."""

    def __init__(self):
        self._results: dict = {}
        self._meta: dict = {}

    def done_keys(self, claim: Optional[str] = None) -> set:
        return {k for k, r in self._results.items() if claim is None or r.cell.claim == claim}

    def add(self, result: Result, versions: Optional[dict] = None, commit: str = "unknown") -> None:
        key = result.cell.key()
        if key in self._results:
            raise StoreError(f"cell {key} is already in the results store")
        self._results[key] = result

    def results(self, claim: str) -> list:
        return [r for r in self._results.values() if r.cell.claim == claim]

    def get_meta(self, key: str, default=None):
        return self._meta.get(key, default)

    def set_meta(self, key: str, value: str) -> None:
        self._meta[key] = str(value)

    def commits(self, claims) -> list:
        return []
