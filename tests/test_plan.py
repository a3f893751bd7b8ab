"""``kpca-suite plan`` (suites/plan.py): the cost model on planted timings, the
schedule, and the command on the toy claims of tests/toy_claim.py."""

from __future__ import annotations

import json

import pytest

from kpca_suite.suites import cli, plan
from kpca_suite.suites.claim import Cell, Result
from kpca_suite.suites.runner import run_sweep
from kpca_suite.suites.store import ResultStore
from tests import toy_claim as toy

PAPERS = {"toy.a": "toy", "toy.b": "toy"}


def timing(claim, method, n, seconds, peak=1000, seed=0, **params):
    return plan.Timing(Cell.make(claim, method, n, seed, **params), float(seconds), int(peak))


def planted(n, m):
    """Seconds 2e-6 n^1.5 m^0.5 and bytes 300 n m^0.5 (whole bytes for square m)."""
    return 2e-6 * n ** 1.5 * m ** 0.5, 300.0 * n * m ** 0.5


def planted_timings():
    return [timing("toy.a", "x", n, *planted(n, m), m=m) for n in (64, 128, 256, 512) for m in (4, 16, 64)]


def model_of(timings):
    return plan.CostModel(timings, PAPERS)


# ---------------------------------------------------------------------- the model

def test_recovers_planted_exponents_and_predicts_a_larger_cell():
    model = model_of(planted_timings())
    held_out = Cell.make("toy.a", "x", 4096, 0, m=256)
    want_s, want_b = planted(4096, 256)
    secs = model.law("toy.a", "x", "seconds", ["m", "n"])
    peak = model.law("toy.a", "x", "peak", ["m", "n"])
    assert secs.exponents == pytest.approx({"n": 1.5, "m": 0.5}, abs=1e-9)
    assert peak.exponents == pytest.approx({"n": 1.0, "m": 0.5}, abs=1e-9)
    assert secs(held_out) == pytest.approx(want_s, rel=1e-6)
    assert peak(held_out) == pytest.approx(want_b, rel=1e-6)
    assert secs.sources == {"n": "method", "m": "method"}


def test_recovers_a_planted_overhead():
    ts = [timing("toy.a", "x", n, 0.05 + 1e-7 * n ** 2) for n in (100, 200, 400, 800, 1600, 3200)]
    law = model_of(ts).law("toy.a", "x", "seconds", ["n"])
    assert law.overhead == pytest.approx(0.05, rel=1e-4)
    assert law.exponents["n"] == pytest.approx(2.0, abs=1e-4)
    assert law(Cell.make("toy.a", "x", 12800, 0)) == pytest.approx(0.05 + 1e-7 * 12800 ** 2, rel=1e-3)


def test_a_size_tied_to_n_gets_no_exponent_of_its_own():
    """m = 4 sqrt(n) in every cell: its effect is in n's exponent, not counted twice."""
    ts = [timing("toy.a", "x", n, 1e-6 * n ** 2, m=4 * int(n ** 0.5)) for n in (64, 256, 1024, 4096)]
    law = model_of(ts).law("toy.a", "x", "seconds", ["m", "n"])
    assert law.exponents["m"] == 0.0 and law.sources["m"] == "method"
    assert law.exponents["n"] == pytest.approx(2.0, abs=1e-6)
    assert law(Cell.make("toy.a", "x", 16384, 0, m=512)) == pytest.approx(1e-6 * 16384 ** 2, rel=1e-6)


def test_a_method_measured_at_one_size_borrows_the_claims_exponent():
    ts = [timing("toy.a", "x", n, 1e-6 * n ** 2) for n in (100, 200, 400)]
    ts += [timing("toy.a", "y", 100, 0.5)]
    law = model_of(ts).law("toy.a", "y", "seconds", ["n"])
    assert law.sources == {"n": "claim"} and law.exponents["n"] == pytest.approx(2.0)
    assert law(Cell.make("toy.a", "y", 1000, 0)) == pytest.approx(0.5 * 100, rel=1e-9)


def test_a_size_no_group_varies_is_assumed_and_named():
    ts = [timing("toy.a", "x", n, 1e-3 * n, reps=10) for n in (100, 200, 400)]
    cells = [Cell.make("toy.a", "x", 400, 0, reps=100)]
    p = plan.make_plan({"toy.a": cells}, "full", 1, {t.cell.key(): t for t in ts}, PAPERS).claims[0]
    assert p.seconds[0] == pytest.approx(0.4 * 10, rel=1e-9)  # linear in time
    assert p.peaks[0] == pytest.approx(1000, rel=1e-9)  # not in memory
    assert any("reps up to 10x" in note and "assumed" in note for note in p.notes)


def test_exponents_are_clipped():
    ts = [timing("toy.a", "x", n, 1e-12 * n ** 5) for n in (10, 20, 40)]
    law = model_of(ts).law("toy.a", "x", "seconds", ["n"])
    assert law.exponents["n"] == plan.EXPONENT_RANGE["seconds"][1]


def test_measured_cells_are_used_as_they_are():
    ts = planted_timings()
    odd = timing("toy.a", "x", 256, 123.0, peak=7, m=16)  # far from the law
    timings = {t.cell.key(): t for t in ts if t.cell.key() != odd.cell.key()}
    timings[odd.cell.key()] = odd
    cells = [odd.cell, Cell.make("toy.a", "x", 256, 1, m=16)]
    p = plan.make_plan({"toy.a": cells}, "full", 1, timings, PAPERS).claims[0]
    assert p.measured == 1 and p.seconds[0] == 123.0 and p.peaks[0] == 7.0
    assert p.seconds[1] != 123.0


def test_a_claim_without_timings_has_none():
    p = plan.make_plan({"toy.b": [Cell.make("toy.b", "x", 10, 0)]}, "full", 1,
                       {t.cell.key(): t for t in planted_timings()}, PAPERS)
    assert not p.claims[0].timed
    assert p.totals()["untimed_claims"] == ["toy.b"] and p.totals()["cells"] == 1


# ---------------------------------------------------------------------- the schedule

def test_lpt_makespan_and_lower_bound_by_hand():
    times = [3, 3, 2, 2, 2]  # LPT: {3, 2, 2} and {3, 2}; the optimum {3, 3} and {2, 2, 2}
    assert plan.lpt_makespan(times, 2) == 7
    assert plan.lower_bound(times, 2) == 6
    assert plan.lpt_makespan(times, 8) == 3 == plan.lower_bound(times, 8)
    assert plan.lpt_makespan(times, 1) == 12
    with pytest.raises(ValueError, match="workers"):
        plan.lpt_makespan(times, 0)


def test_units():
    assert plan.human_seconds(42.0) == "42.0 s"
    assert plan.human_seconds(90.0) == "1.50 min"
    assert plan.human_seconds(7200.0) == "2.00 h"
    assert plan.human_bytes(3 * 2 ** 30) == "3.00 GiB"
    assert plan.human_bytes(512) == "512 B"


# ---------------------------------------------------------------------- the command

def run(argv, capsys):
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def toy_store(toy_registry, tmp_path):
    """A results directory with toy.rate's ci cells, and one cell of an older sweep."""
    out = tmp_path / "res"
    with ResultStore(out / cli.STORE_NAME) as store:
        run_sweep([toy.TOY_RATE], "ci", store, jobs=1, progress=False)
        store.add(Result(Cell.make("toy.rate", "toy", 3, 0), {"err": 1.0}, 0.1, 10))
    return out


def test_plan_prints_a_table_and_totals(toy_store, tmp_path, capsys):
    store = toy_store / cli.STORE_NAME
    before = store.read_bytes()
    js = tmp_path / "plan.json"
    code, out, err = run(["plan", "toy.rate", "--profile", "full", "--store", str(toy_store), "--workers", "3",
                          "--no-calibrate", "--json", str(js)], capsys)
    assert code == 0, err
    full = len(toy.NS["full"]) * toy.SEEDS["full"]
    ci = len(toy.NS["ci"]) * toy.SEEDS["ci"]
    row = next(line for line in out.splitlines() if line.startswith("toy.rate"))
    assert row.split()[1:3] == [str(full), str(ci)]
    assert "CPU total" in out and "peak mem/cell" in out
    assert f"total: {full} cells ({ci} measured)" in out and "on 3 worker(s)" in out
    assert "1 stored cell(s) of an older sweep ignored" in out
    doc = json.loads(js.read_text())
    assert doc["total"]["cells"] == full and doc["workers"] == 3
    with ResultStore(store, create=False) as st:
        measured = sum(r.wall_time for r in st.results("toy.rate") if r.cell.n != 3)
    (claim,) = doc["claims"]
    assert claim["cpu_seconds"] > measured  # the measured cells plus 12 larger or new ones
    assert doc["total"]["wall_seconds"] >= doc["total"]["wall_lower_bound_seconds"] > 0
    assert store.read_bytes() == before


def test_plan_calibrates_a_claim_without_timings(toy_registry, tmp_path, capsys):
    cal = tmp_path / "cal"
    code, out, err = run(["plan", "toy.rate", "--calibration", str(cal), "-j", "1", "--no-progress"], capsys)
    assert code == 0, err
    assert "calibrating 1 claim(s)" in err and str(cal) in err
    with ResultStore(cal / cli.STORE_NAME, create=False) as st:
        assert st.count("toy.rate") == len(toy.NS["ci"]) * toy.SEEDS["ci"]
    code, out, err = run(["plan", "toy.rate", "--calibration", str(cal), "--no-calibrate"], capsys)
    assert code == 0 and "calibrating" not in err and "no timings" not in out


def test_a_finished_store_without_traced_memory_is_planned_from_its_timings(toy_store, tmp_path, capsys):
    """toy_store's run did not trace memory: its wall times are used as measured, nothing is
    calibrated (it took about 30 minutes for every claim), and the memory is said not traced."""
    cal, js = tmp_path / "cal", tmp_path / "plan.json"
    argv = ["plan", "toy.rate", "--profile", "ci", "--store", str(toy_store), "--calibration", str(cal),
            "-j", "1", "--no-progress", "--json", str(js)]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    assert "calibrating" not in err and not cal.exists()
    with ResultStore(toy_store / cli.STORE_NAME, create=False) as st:
        wall = sum(r.wall_time for r in st.results("toy.rate") if r.cell.n != 3)
    (claim,) = json.loads(js.read_text())["claims"]
    assert claim["cpu_seconds"] == pytest.approx(wall) and claim["max_peak_bytes"] is None
    row = next(line for line in out.splitlines() if line.startswith("toy.rate"))
    assert "not traced" in row and "total: peak memory: not traced" in out


def test_no_calibrate_reports_no_timings(toy_registry, tmp_path, capsys):
    code, out, _ = run(["plan", "toy.rate", "--no-calibrate", "--calibration", str(tmp_path / "c")], capsys)
    assert code == 0 and "no timings" in out and "without 30 cells of 1 claim(s)" in out
    assert not (tmp_path / "c").exists()


@pytest.mark.parametrize("argv, names", [
    (["plan", "toy.nope", "--no-calibrate"], "toy.nope"),
    (["plan", "toy.rate", "--workers", "0", "--no-calibrate"], "--workers"),
    (["plan", "toy.rate", "--jobs", "0"], "--jobs"),
    (["plan", "toy.rate", "--store", "{tmp}/nothing", "--no-calibrate"], "--store"),
    (["plan", "toy.fail", "--store", "{tmp}/res", "--calibration", "{tmp}/res"], "--calibration"),
])
def test_bad_input_exits_2_with_one_line(toy_store, tmp_path, capsys, argv, names):
    argv = [a.format(tmp=tmp_path) for a in argv]
    before = (toy_store / cli.STORE_NAME).read_bytes()
    code, out, err = run(argv, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and names in err
    assert (toy_store / cli.STORE_NAME).read_bytes() == before


def test_a_store_that_is_not_ours_exits_2_untouched(toy_registry, tmp_path, capsys):
    (tmp_path / cli.STORE_NAME).write_bytes(b"not a database at all" * 100)
    before = (tmp_path / cli.STORE_NAME).read_bytes()
    code, _, err = run(["plan", "toy.rate", "--store", str(tmp_path), "--no-calibrate"], capsys)
    assert code == 2 and err.count("\n") == 1 and "--store" in err and "not a kpca-suite results store" in err
    assert (tmp_path / cli.STORE_NAME).read_bytes() == before


def test_a_claim_judged_in_looks_costs_its_first_look_at_least_and_every_seed_at_most():
    ts = [timing("toy.a", "x", 100, 1.0 + seed, seed=seed) for seed in range(20)]
    cells = [t.cell for t in ts]
    p = plan.make_plan({"toy.a": cells}, "full", 1, {t.cell.key(): t for t in ts}, PAPERS,
                       first_looks={"toy.a": frozenset(range(5))})
    c = p.claims[0]
    assert sum(c.seconds) == pytest.approx(sum(1.0 + s for s in range(20)))
    assert c.least_seconds == pytest.approx(sum(1.0 + s for s in range(5)))
    assert p.totals()["first_look_cpu_seconds"] == pytest.approx(c.least_seconds)
    assert "0.00417 h if every claim judged in looks is decided at its first" in plan.format_plan(p)


def test_a_plan_beyond_its_largest_measured_n_says_so_and_names_the_probe():
    ts = planted_timings()
    timings = {t.cell.key(): t for t in ts}
    far = [Cell.make("toy.a", "x", 2048, 0, m=16)]
    text = plan.format_plan(plan.make_plan({"toy.a": far}, "full", 1, timings, PAPERS))
    assert "1 claim(s) extrapolated beyond their largest measured n (up to 4.00x): `plan --probe`" in text
    probed = {**timings, far[0].key(): plan.Timing(far[0], 3.0, None)}
    assert "--probe" not in plan.format_plan(plan.make_plan({"toy.a": far}, "full", 1, probed, PAPERS))


def test_the_probes_are_each_methods_largest_cell_and_smallest_at_the_largest_n():
    cells = [Cell.make("toy.a", meth, n, s, m=k) for meth in ("x", "y") for n in (100, 400) for s in (1, 0)
             for k in (4, 16)]
    got = plan.probe_cells(cells)
    assert sorted(c.method for c in got) == ["x", "x", "y", "y"]
    assert {(c.n, c.seed, c.p["m"]) for c in got} == {(400, 0, 16), (400, 0, 4)}
    (one,) = plan.probe_cells([Cell.make("toy.a", "x", 400, 0, m=16)])  # one cell: probed once


def test_plan_probe_times_the_largest_cell_before_it_fits(toy_store, tmp_path, capsys):
    cal = tmp_path / "cal"
    code, out, err = run(["plan", "toy.rate", "--profile", "full", "--store", str(toy_store), "--probe",
                          "--calibration", str(cal), "--jobs", "1", "--no-progress"], capsys)
    assert code == 0, err
    assert "probing 1 cell(s), per claim and method the largest and the smallest at the largest n, at full" in err
    with ResultStore(cal / cli.STORE_NAME, create=False) as st:
        (probe,) = st.results("toy.rate")
    assert (probe.cell.n, probe.cell.seed) == (max(toy.NS["full"]), 0)
    row = next(line for line in out.splitlines() if line.startswith("toy.rate"))
    assert row.split()[2] == str(len(toy.NS["ci"]) * toy.SEEDS["ci"] + 1)
    code, _, err = run(["plan", "toy.rate", "--probe", "--no-calibrate"], capsys)
    assert code == 2 and "--probe runs cells and --no-calibrate runs none" in err
