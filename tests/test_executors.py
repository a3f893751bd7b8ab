"""The same bits from every executor: ``--jobs 1`` (serial, in the main
process), a process pool (``--jobs 2``) and a Dask ``LocalCluster`` store
identical metrics. The claims chosen report round-off-level deviations of
eigendecompositions and solves, which change with the BLAS thread count: with
BLAS left at the machine's default in the serial path, 10 of their metrics
differed between --jobs 1 and --jobs 2 (by up to 57% of their tiny values)."""

from __future__ import annotations

import importlib.util
import json
import sqlite3
import subprocess
import sys

import pytest

CLAIMS = ["sterge20.identities", "hallgren21.identities", "bach13.dof-identities"]


def _run(out, *extra):
    cmd = [sys.executable, "-m", "kpca_suite.suites.cli", "run", *CLAIMS, "--profile", "ci", "--no-progress",
           "--out", str(out), *extra]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    with sqlite3.connect(out / "results.sqlite") as con:
        return {key: json.loads(metrics) for key, metrics in con.execute("select key, metrics from results")}


def test_serial_pool_and_dask_store_the_same_bits(tmp_path):
    serial = _run(tmp_path / "serial", "--jobs", "1")
    pooled = _run(tmp_path / "pool", "--jobs", "2")
    assert len(serial) > 0 and serial == pooled
    if importlib.util.find_spec("distributed") is None:
        pytest.skip("Dask distributed is not installed (the dask extra)")
    assert _run(tmp_path / "dask", "--cluster", "local", "--jobs", "2") == serial
