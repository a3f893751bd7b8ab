"""The performance harness and the asv benchmarks run and produce well-formed
output. Nothing here compares speeds (the machine is shared and noisy): the perf
claims are measured by ``kpca-suite bench`` and asv, never judged by pytest."""

import json
import math
import sys

import pytest

from kpca_suite.suites import cli, perf
from kpca_suite.suites.perf import commands as perf_commands
from kpca_suite.suites.claim import PROFILES
from kpca_suite.suites.benchmarks import (bench_bach13, bench_claims, bench_conformance, bench_ghashami16,
                                          bench_kernels, bench_nystrom, bench_ullah18)


def _toy_claim(**overrides):
    """A two-contender claim on tiny data, for the harness itself."""
    calls = []

    def data(n):
        return list(range(n))

    def make(tag):
        def factory(xs, n):
            return lambda: calls.append((tag, n)) or sum(xs)
        return factory

    fields = dict(id="perf.toy", goal="toy", data=data, contenders={"a": make("a"), "b": make("b")},
                  reference="a", sizes={s: (dict(n=50),) for s in PROFILES}, goals={"b": perf.Goal(lo=0.0)},
                  warm=dict(n=3))
    fields.update(overrides)
    return perf.PerfClaim(**fields), calls


def test_harness_warms_then_interleaves_and_keeps_the_best():
    claim, calls = _toy_claim()
    recs = perf.measure(claim, "ci", repeats=3, memory=False)
    # warm-up on the small copy (n=3) first, once per contender, then 3 interleaved rounds
    assert calls[:2] == [("a", 3), ("b", 3)]
    assert [t for t, _ in calls[2:]] == ["a", "b", "b", "a", "a", "b"]
    assert [r.contender for r in recs] == ["a", "b"]
    a, b = recs
    assert a.ratio == 1.0 and a.repeats == 3 and a.met is None
    assert b.met is True and b.goal == ">= 0" and b.seconds > 0
    assert len(a.load) == 3 and a.case == "n=50"


def test_once_contenders_run_one_round_and_skip_is_reported():
    def skipping(xs, n):
        raise perf.Skip("too slow here")

    claim, calls = _toy_claim(once=frozenset({"b"}))
    recs = perf.measure(claim, "ci", repeats=3, memory=False)
    assert {r.contender: r.repeats for r in recs} == {"a": 3, "b": 1}
    claim, _ = _toy_claim(contenders={"a": claim.contenders["a"], "b": skipping})
    (a, b) = perf.measure(claim, "ci", repeats=2, memory=False)
    assert b.seconds is None and b.ratio is None and b.met is None and b.note == "too slow here"
    assert "| not run |" in perf.format_table([a, b], claims=[claim])


def test_missing_optional_peer_is_reported_not_raised():
    claim, _ = _toy_claim(requires={"b": "no_such_module_for_kpca_suite"})
    a, b = perf.measure(claim, "ci", repeats=1, memory=False)
    assert a.seconds > 0
    assert b.seconds is None and b.ratio is None and b.met is None and b.note.startswith("not installed")
    assert "| not installed |" in perf.format_table([a, b], claims=[claim])


def test_declarations_are_consistent():
    ids = [c.id for c in perf.CLAIMS]
    assert len(ids) == len(set(ids)) and all(i.startswith("perf.") for i in ids)
    for wanted in ("perf.gaussian-block", "perf.exact-kpca", "perf.nystrom-kpca", "perf.fd", "perf.skpca",
                   "perf.rf-oja"):
        assert wanted in ids
    for c in perf.CLAIMS:
        assert c.goal and set(c.sizes) == set(PROFILES) and all(c.sizes[s] for s in PROFILES)
    assert perf.select(["fd"]) == [perf.FD]
    with pytest.raises(ValueError):
        perf.select(["no-such-bench"])
    with pytest.raises(ValueError):
        perf.PerfClaim(id="perf.x", goal="x", data=list, contenders={"a": None}, reference="b",
                       sizes={s: () for s in PROFILES})


@pytest.fixture(scope="module")
def ci_records():
    return perf.run(["gaussian-block", "nystrom-kpca", "fd", "rf-oja", "startup", "hallgren21-nystrompca",
                     "hallgren21-kpcr"], profile="ci", repeats=1, memory=False)


def test_real_claims_run_at_the_ci_profile(ci_records):
    assert {r.claim for r in ci_records} == {"perf.gaussian-block", "perf.nystrom-kpca", "perf.fd", "perf.rf-oja",
                                               "perf.startup", "perf.hallgren21-nystrompca", "perf.hallgren21-kpcr"}
    for r in ci_records:
        assert not r.note.startswith("error"), r
        if r.measure != "time":
            assert r.ratio is not None and math.isfinite(r.ratio)
        elif r.seconds is None:  # only an optional peer that is not installed
            assert r.contender.startswith("nystrompca") and not perf.have("nystrompca")
            assert r.note.startswith("not installed")
        else:
            assert r.seconds > 0 and r.repeats == 1 and math.isfinite(r.ratio) and r.ratio > 0
            assert r.met is None or isinstance(r.met, bool)
    assert any(r.measure == "slope in n" for r in ci_records)  # perf.rf-oja has two sizes at ci
    # each command's wall time is compared with the 1.5 s goal (a measurement, not asserted to meet it)
    startup = {r.contender for r in ci_records if r.claim == "perf.startup" and r.measure == "wall time (s)"}
    assert startup == {"kpca-suite --help", "kpca-suite list", "usage error (run --profile nope)"}


def test_format_table_renders_markdown(ci_records):
    text = perf.format_table(ci_records)
    lines = text.splitlines()
    assert lines[0].startswith("| claim | case | contender |")
    assert lines[1].startswith("|---|")
    rows = [ln for ln in lines[2:] if ln.startswith("| perf.")]
    assert len(rows) == len(ci_records)
    ncols = lines[0].count("|")
    assert all(row.count("|") == ncols for row in rows)
    assert "load average" in lines[-1]


def test_peak_memory_in_a_child_process():
    peak = perf.peak_memory("perf.nystrom-kpca", "ci", 0, "ours")
    assert isinstance(peak, int) and peak >= 0


def test_bench_command(tmp_path, capsys):
    out, js = tmp_path / "bench.md", tmp_path / "bench.json"
    code = cli.main(["bench", "--profile", "ci", "--repeats", "1", "--no-memory", "--out", str(out),
                     "--json", str(js), "--which", "gaussian-block"])
    assert code == 0
    assert out.read_text().startswith("| claim |")
    assert {r["claim"] for r in json.loads(js.read_text())} == {"perf.gaussian-block"}
    assert cli.main(["bench", "--which", "no-such-bench"]) == 2
    assert "--which: unknown performance claim 'no-such-bench'" in capsys.readouterr().err


def _smallest(cls):
    params = cls.params if isinstance(cls.params[0], list) else [cls.params]
    return [p[0] for p in params]


@pytest.mark.parametrize("cls", [bench_kernels.GaussianBlock, bench_nystrom.NystromFit, bench_nystrom.NystromFitFloat32,
                                 bench_ullah18.RFOjaPass, bench_ullah18.RFERMFit, bench_bach13.NystromKRRFit,
                                 bench_bach13.FullKRRFit])
def test_asv_benchmark_bodies_run_on_smallest_params(cls):
    args = _smallest(cls)
    obj = cls()
    obj.setup(*args)
    for name in dir(cls):
        if name.startswith(("time_", "peakmem_", "track_")):
            value = getattr(obj, name)(*args)
            if name.startswith("track_"):
                assert math.isfinite(value)


def test_asv_skips_in_setup_not_in_the_timed_body():
    with pytest.raises(NotImplementedError):
        bench_bach13.FullKRRFit().setup(8000)
    with pytest.raises(NotImplementedError):
        bench_ghashami16.FrequentDirectionsFit().setup(100000, 10, "standard")


def test_asv_tracks_the_slope_of_every_papers_rate_claims():
    cls = bench_claims.ClaimSlopes
    assert cls.track_slope.unit == "slope"
    assert cls.params == [bench_claims.rate_claims()]
    # which claims judge a slope is checked against their ci verdicts in tests/test_claims.py
    papers = {cid.split(".")[0] for cid in bench_claims.rate_claims()}
    assert {"bach13", "ghashami16", "hallgren21", "landmarks", "sterge20", "ullah18"} <= papers
    rate = cls()
    rate.setup("bach13.dof-decay")  # judged slopes of exact FFT spectra: deterministic, a second
    assert rate.track_slope("bach13.dof-decay") == pytest.approx(-0.5, abs=0.02)
    with pytest.raises(NotImplementedError, match="unknown claim"):
        cls().setup("nopaper.noclaim")


def test_a_command_contender_with_the_wrong_exit_code_is_an_error():
    with pytest.raises(RuntimeError, match=r"exit 3 \(expected 0\): boom"):
        perf_commands._run_command([sys.executable, "-c", "import sys; print('boom', file=sys.stderr); sys.exit(3)"], 0)


def test_the_asv_declaration_finds_the_source_checkout():
    """perf.asv runs asv where asv.conf.json is: the repository root, two folders above
    suites/perf/ (it looked one folder too shallow and skipped every time)."""
    from kpca_suite.suites.perf import commands
    root = commands._repo_root()
    assert root is not None and (root / "asv.conf.json").is_file() and (root / "suites" / "perf").is_dir()


def test_asv_tracks_every_role_claim_with_every_built_in_implementation(tmp_path):
    """bench_conformance: one (claim, implementation) pair per built-in adapter of the claim's
    role; the verdict and the judged number are tracked, a pair that cannot run is skipped."""
    from kpca_suite.suites import registry
    from kpca_suite.suites.adapters import ADAPTERS
    cls = bench_conformance.Conformance
    claims, names = cls.params
    assert claims == sorted(c.id for c in registry.load_all().values() if c.subject is not None)
    assert names == list(ADAPTERS) and "sklearn-kernelpca-randomized" in names
    folder = str(tmp_path)
    with pytest.raises(NotImplementedError, match="sklearn-kernel-ridge is not a matrix-sketch"):
        cls().setup(folder, "ghashami16.fd-bound", "sklearn-kernel-ridge")
    run = cls()
    run.setup(folder, "ghashami16.fd-bound", "ours-fd")  # a threshold claim: the number closest to its limit
    assert run.track_verdict(folder, "ghashami16.fd-bound", "ours-fd") == 1.0
    judged = run.track_judged(folder, "ghashami16.fd-bound", "ours-fd")
    assert 0 <= judged < 1
    # the second track's process reads the pair the first one judged (asv runs each track apart)
    kept = tmp_path / "ghashami16.fd-bound[ours-fd].json"
    kept.write_text(kept.read_text().replace(repr(judged), "0.5"))
    other = cls()
    other.setup(folder, "ghashami16.fd-bound", "ours-fd")
    assert other.track_judged(folder, "ghashami16.fd-bound", "ours-fd") == 0.5
    with pytest.raises(NotImplementedError, match="sklearn-kernel-ridge is not a matrix-sketch"):
        cls().setup(folder, "ghashami16.fd-bound", "sklearn-kernel-ridge")  # the skip is kept too
    assert cls.track_verdict.unit == "verdict (1 holds, 2 inconclusive, 4 fails)"


def test_the_judged_number_of_a_threshold_claim_is_the_one_closest_to_its_limit():
    from kpca_suite.suites.claim import Verdict
    v = Verdict("holds", "", [], {"scores": 1e-16, "subspace": 1e-7, "coverage": 0.95, "n": 3},
                {"scores_at_most": 1e-6, "subspace_at_most": 1e-6, "coverage_at_least": 0.9}, claim="t")
    assert bench_conformance.judged_number(v) == 0.95  # x1.06 from its floor; subspace x10 below its limit
    v.predicted["coverage_at_least"] = 0.05  # x19 above its floor: the subspace is now the closest
    assert bench_conformance.judged_number(v) == 1e-7
    assert math.isnan(bench_conformance.judged_number(Verdict("holds", "", [], {"n": 3}, {}, claim="t")))


def test_bench_runs_asv_in_the_checkout_and_reports_a_measured_row(tmp_path, monkeypatch):
    """`kpca-suite bench --which asv --profile ci`: asv run --quick --python=same of
    one benchmark of bench_kernels in the repository root, a measured row (it once said "needs the source
    checkout" every time); asv's machine file goes to a scratch HOME."""
    pytest.importorskip("asv")
    monkeypatch.setenv("HOME", str(tmp_path))
    records = perf.run(["asv"], profile="ci", repeats=1, memory=False)
    row = next(r for r in records if r.contender == "asv run --quick")
    assert not row.note.startswith(("error", "skipped", "needs", "not installed")), row
    assert row.seconds is not None and row.seconds > 0 and math.isfinite(row.ratio)
    assert (tmp_path / ".asv-machine.json").is_file()
