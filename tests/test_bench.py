"""The benchmark code runs and produces well-formed output. Nothing here is
timed or compares speeds (the machine is shared and noisy): the perf claims are
measured by ``kpca-suite bench`` and asv, never by pytest."""

import argparse
import math

import pytest

from kpca_suite.suites import bench
from kpca_suite.suites.benchmarks import bench_claims, bench_kernels, bench_nystrom


@pytest.fixture(scope="module")
def tiny_records():
    return bench.run_bench(scale=0.01, repeats=1)


def test_run_bench_records_are_well_formed(tiny_records):
    ids = {r["id"] for r in tiny_records}
    assert ids == {"perf.gaussian-block", "perf.nystrom-kpca"}
    for r in tiny_records:
        assert set(bench.FIELDS) <= set(r)
        assert isinstance(r["met"], bool)
        assert r["ours_s"] > 0 and math.isfinite(r["ours_s"])
        assert r["goal"] and r["what"] and r["peer"]
        if r.get("kind") == "memory":
            assert r["ours_peak_bytes"] >= 0 and r["nm_bytes"] > 0 and r["predicted_bytes"] > 0
        elif r["peer_s"] is None:  # only an optional peer that is not installed
            assert "nystrompca" in r["peer"] and not bench.have_nystrompca()
            assert "not installed" in r["notes"] and r["ratio"] is None and not r["met"]
        else:
            assert r["peer_s"] > 0 and math.isfinite(r["peer_s"])
            assert r["ratio"] > 0 and math.isfinite(r["ratio"])
    peers = [r["peer"] for r in tiny_records]
    assert any("nystrompca" in p for p in peers) and any("rbf_kernel" in p for p in peers)


def test_format_bench_renders_markdown(tiny_records):
    text = bench.format_bench(tiny_records)
    lines = text.splitlines()
    assert lines[0].startswith("| id | what |")
    assert lines[1].startswith("|---|")
    rows = [ln for ln in lines[2:] if ln.startswith("| perf.")]
    assert len(rows) == len(tiny_records)
    ncols = lines[0].count("|")
    assert all(row.count("|") == ncols for row in rows)


def test_missing_nystrompca_is_reported_not_raised(monkeypatch):
    # nystrompca is in the optional `bench` extra: without it the peer row says
    # so and the other measurements still run.
    monkeypatch.setattr(bench, "have_nystrompca", lambda: False)
    recs = bench.run_bench(which=("nystrom-kpca",), scale=0.01, repeats=1)
    (row,) = [r for r in recs if "nystrompca" in r["peer"]]
    assert row["peer_s"] is None and row["ratio"] is None and row["met"] is False
    assert "not installed" in row["notes"]
    assert any(r["peer"].startswith("sklearn") and r["peer_s"] > 0 for r in recs)
    assert "| not measured |" in bench.format_bench(recs)


def test_run_bench_rejects_unknown_names():
    with pytest.raises(ValueError):
        bench.run_bench(which=("no-such-bench",), scale=0.01, repeats=1)


def test_bench_subparser(tmp_path, monkeypatch):
    parser = argparse.ArgumentParser(prog="kpca-suite")
    sub = parser.add_subparsers(dest="command")
    bench.add_bench_parser(sub)
    out = tmp_path / "bench.md"
    args = parser.parse_args(["bench", "--scale", "0.01", "--repeats", "1", "--out", str(out),
                              "--which", "gaussian-block"])
    assert args.scale == 0.01 and args.repeats == 1
    assert args.func(args) == 0
    assert out.read_text().startswith("| id |")


def _smallest(cls):
    return [p[0] for p in cls.params]


@pytest.mark.parametrize("cls", [bench_kernels.GaussianBlock, bench_nystrom.NystromFit])
def test_asv_benchmark_bodies_run_on_smallest_params(cls):
    args = _smallest(cls)
    assert len(cls.param_names) == len(cls.params)
    obj = cls()
    obj.setup(*args)
    for name in dir(cls):
        if name.startswith(("time_", "peakmem_", "track_")):
            value = getattr(obj, name)(*args)
            if name.startswith("track_"):
                assert math.isfinite(value)


def test_asv_claim_tracks_are_well_formed():
    cls = bench_claims.Sterge20Slopes
    assert cls.track_slope.unit == "slope"
    assert all(cid.startswith("sterge20.") for cid in bench_claims.CLAIM_IDS)
    if not bench_claims.CLAIM_IDS:
        assert cls.params == []
        assert math.isnan(cls().track_slope())
    else:
        assert cls.params == [bench_claims.CLAIM_IDS]
