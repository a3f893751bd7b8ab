"""The kpca-suite CLI, in process, on the toy claims of tests/toy_claim.py."""

from __future__ import annotations

import os
import random
import sqlite3

import pytest

from kpca_suite.suites import cli, runner
from kpca_suite.suites.store import ResultStore
from tests import toy_claim as toy

N_QUICK = len(toy.NS["quick"]) * toy.SEEDS["quick"]


def run(argv, capsys):
    code = cli.main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_list(toy_registry, capsys):
    code, out, _ = run(["list"], capsys)
    assert code == 0
    for c in toy_registry.values():
        assert c.id in out
    assert "toy paper, Thm 1" in out and "prediction:" in out and "tolerance:" in out
    code, out, _ = run(["list", "toy.rate"], capsys)
    assert code == 0 and "toy.rate" in out and "toy.fail" not in out


def test_run_writes_everything_and_holds(toy_registry, tmp_path, capsys):
    out_dir = tmp_path / "res"
    code, out, err = run(["run", "toy.rate", "--out", str(out_dir), "--jobs", "1", "--profile", "ci"], capsys)
    assert code == 0, err
    assert "HOLDS" in out and "toy.rate" in out
    for name in ("results.sqlite", "report.md", "report.html", "plots/toy.rate.png"):
        assert (out_dir / name).is_file(), name
    assert not (out_dir / "plots/toy.rate.svg").exists()  # on request only
    assert run(["plot", "--out", str(out_dir), "--svg"], capsys)[0] == 0
    assert (out_dir / "plots/toy.rate.svg").is_file() and "plots/toy.rate.svg" in (out_dir / "report.md").read_text()
    assert run(["report", "--out", str(out_dir)], capsys)[0] == 0  # redrawn without: no SVG older than its PNG
    assert not (out_dir / "plots/toy.rate.svg").exists() and ".svg" not in (out_dir / "report.md").read_text()
    md = (out_dir / "report.md").read_text()
    assert "toy.rate" in md and "holds" in md and "plots/toy.rate.png" in md and "profile" in md.lower()
    html = (out_dir / "report.html").read_text()
    assert '<img src="plots/toy.rate.png"' in html and 'class="holds"' in html
    with ResultStore(out_dir / "results.sqlite") as st:
        assert len(st.done_keys("toy.rate")) == N_QUICK


def test_exit_codes(toy_registry, no_plots, tmp_path, capsys):
    code, out, _ = run(["run", "toy.fail", "--out", str(tmp_path), "-j", "1", "--no-progress"], capsys)
    assert code == 1 and "FAILS" in out
    code, out, _ = run(["run", "toy.vague", "--out", str(tmp_path), "-j", "1", "--no-progress"], capsys)
    assert code == 0 and "INCONCLUSIVE" in out and "note:" in out
    code, out, err = run(["run", "toy.boom", "--out", str(tmp_path), "-j", "1", "--no-progress"], capsys)
    assert code == 1 and "toy.boom" in err and "planted failure" in err and "n=128" in err
    assert "planted failure" in (tmp_path / "errors.log").read_text()


def test_paper_name_selects_all(toy_registry, no_plots, tmp_path, capsys):
    code, out, _ = run(["run", "toy", "--out", str(tmp_path), "-j", "2", "--no-progress"], capsys)
    assert code == 1  # toy.fail fails, toy.boom and toy.bad raise
    for cid in toy_registry:
        assert cid in out


def test_resume_runs_nothing_again(toy_registry, no_plots, tmp_path, capsys, monkeypatch):
    argv = ["run", "toy.rate", "--out", str(tmp_path), "-j", "1", "--no-progress"]
    assert run(argv, capsys)[0] == 0
    calls = []
    real = runner._execute_safe
    monkeypatch.setattr(runner, "_execute_safe", lambda *a: calls.append(a) or real(*a))
    code, out, err = run(argv, capsys)
    assert code == 0 and calls == [] and f"{N_QUICK} cell(s) already in the store" in err
    with ResultStore(tmp_path / "results.sqlite") as st:
        st.delete(sorted(st.done_keys())[:3])
    code, _, _ = run(argv, capsys)
    assert code == 0 and len(calls) == 3


def test_report_and_plot_rerun_nothing(toy_registry, tmp_path, capsys, monkeypatch):
    assert run(["run", "toy.rate", "toy.fail", "--out", str(tmp_path), "-j", "1", "--profile", "ci",
                "--no-progress"], capsys)[0] == 1
    (tmp_path / "report.md").unlink()
    (tmp_path / "plots" / "toy.rate.png").unlink()
    monkeypatch.setattr(runner, "_execute_safe", lambda *a: pytest.fail("report must not run cells"))
    code, out, _ = run(["report", "--out", str(tmp_path)], capsys)
    assert code == 1 and "toy.fail" in out and (tmp_path / "report.md").is_file()
    assert "Profile **ci**" in (tmp_path / "report.md").read_text()
    code, out, _ = run(["plot", "toy.rate", "--out", str(tmp_path)], capsys)
    assert code == 0 and (tmp_path / "plots" / "toy.rate.png").is_file() and "toy.rate.png" in out


@pytest.mark.parametrize("garbage", [random.Random(0).randbytes(3000), b"SQLite format 3\x00" + b"\x00" * 500],
                         ids=["random-bytes", "sqlite-header-zeros"])
def test_corrupt_store_exit_2_untouched(toy_registry, no_plots, tmp_path, capsys, garbage):
    store = tmp_path / "results.sqlite"
    store.write_bytes(garbage)
    for argv in (["run", "toy.rate", "-j", "1"], ["report"], ["plot"]):
        code, out, err = run(argv + ["--out", str(tmp_path)], capsys)
        assert code == 2 and "Traceback" not in err
        assert str(store) in err and "untouched" in err and len(err.strip().splitlines()) == 1
        assert store.read_bytes() == garbage
    assert not (tmp_path / "report.md").exists()


def test_foreign_store_exit_2(toy_registry, tmp_path, capsys):
    store = tmp_path / "results.sqlite"
    con = sqlite3.connect(store)
    con.execute("CREATE TABLE t (x)")
    con.commit()
    con.close()
    before = store.read_bytes()
    code, _, err = run(["run", "toy.rate", "-j", "1", "--out", str(tmp_path)], capsys)
    assert code == 2 and "not a kpca-suite results store" in err and store.read_bytes() == before


def test_usage_errors(toy_registry, no_plots, tmp_path, capsys):
    code, _, err = run(["run", "nope", "--out", str(tmp_path)], capsys)
    assert code == 2 and "nope" in err and "kpca-suite list" in err
    code, _, err = run(["list", "nope"], capsys)
    assert code == 2 and "kpca-suite list" in err
    code, _, err = run(["run", "toy.rate", "--jobs", "0", "--out", str(tmp_path)], capsys)
    assert code == 2 and "--jobs" in err and len(err.strip().splitlines()) == 1
    code, _, err = run(["run", "toy.rate", "--data", str(tmp_path / "missing.npz"), "--out", str(tmp_path)],
                       capsys)
    assert code == 2 and "missing.npz" in err
    code, _, err = run(["run", "--profile", "huge"], capsys)
    assert code == 2
    code, _, err = run(["report", "--out", str(tmp_path / "empty")], capsys)
    assert code == 2 and "no results store" in err and not (tmp_path / "empty").exists()
    assert not (tmp_path / "results.sqlite").exists()
    assert cli.main(["--help"]) == 0
    capsys.readouterr()


def test_data_option_reaches_cells(toy_registry, no_plots, tmp_path, capsys, monkeypatch):
    import dataclasses

    from kpca_suite.suites.claim import CellList, PerProfile
    seen = []

    def build(claim_id, options):
        seen.append(dict(options))
        return toy.GRID["ci"].cells(claim_id, ["toy"], options)

    grid = PerProfile.same(CellList(build, "the toy grid"))
    monkeypatch.setitem(toy_registry, "toy.rate", dataclasses.replace(toy.TOY_RATE, grid=grid))
    data = tmp_path / "d.npz"
    data.write_bytes(b"x")
    code, _, _ = run(["run", "toy.rate", "--data", str(data), "-j", "1", "--out", str(tmp_path)], capsys)
    assert code == 0 and seen and seen[0] == {"data": str(data.resolve())}


def test_dask_missing_is_a_clear_error(toy_registry, tmp_path, capsys, monkeypatch):
    import builtins
    real_import = builtins.__import__

    def no_dask(name, *a, **k):
        if name.split(".")[0] == "distributed":
            raise ImportError("No module named 'distributed'")
        return real_import(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_dask)
    code, _, err = run(["run", "toy.rate", "--cluster", "local", "--out", str(tmp_path)], capsys)
    assert code == 2 and "kpca-suite[dask]" in err


def test_a_second_run_on_the_same_out_exits_2_naming_the_holder(toy_registry, no_plots, tmp_path, capsys):
    """One writer per results directory: while a process holds it, another run
    (or report) on it exits 2 at once, names the holder, and stores nothing."""
    import os

    from kpca_suite.suites.store import DirectoryLock
    with DirectoryLock(tmp_path):
        code, _, err = run(["run", "toy.rate", "--out", str(tmp_path), "-j", "1", "--no-progress"], capsys)
        assert code == 2 and f"pid {os.getpid()}" in err and "in use" in err and len(err.splitlines()) == 1
        assert not (tmp_path / "results.sqlite").exists()
    code, _, err = run(["run", "toy.rate", "--out", str(tmp_path), "-j", "1", "--no-progress"], capsys)
    assert code == 0, err  # released
    with DirectoryLock(tmp_path):
        code, _, err = run(["report", "--out", str(tmp_path)], capsys)
        assert code == 2 and "in use" in err


def test_unwritable_results_directory_exits_2_before_any_cell(toy_registry, no_plots, tmp_path, capsys):
    import os
    if os.geteuid() == 0:
        blocker = tmp_path / "file"
        blocker.write_text("x")
        out = blocker / "res"  # a directory cannot be made under a file, even by root
    else:
        out = tmp_path / "ro"
        out.mkdir()
        out.chmod(0o500)
    code, _, err = run(["run", "toy.rate", "--out", str(out), "-j", "1", "--no-progress"], capsys)
    assert code == 2 and "cannot write to the results directory" in err and len(err.splitlines()) == 1


def test_another_process_cannot_take_a_held_directory(tmp_path):
    import os
    import subprocess
    import sys

    from kpca_suite.suites.store import DirectoryLock
    with DirectoryLock(tmp_path):
        done = subprocess.run([sys.executable, "-m", "kpca_suite.suites.cli", "run", "sterge20.identities",
                               "--profile", "ci", "--out", str(tmp_path), "--no-progress"],
                              capture_output=True, text=True, timeout=300)
    assert done.returncode == 2 and f"pid {os.getpid()}" in done.stderr
    assert not (tmp_path / "results.sqlite").exists()


def test_a_store_that_cannot_be_written_ends_in_one_line_and_keeps_its_cells(toy_registry, no_plots, tmp_path,
                                                                              capsys, monkeypatch):
    """A read-only file or a full disk as SQLite reports it: exit 2, one line naming the
    store and the cause, the cells stored before kept; a rerun resumes."""
    from kpca_suite.suites.store import StoreError
    real_add, calls = ResultStore.add, []

    def failing_add(self, *a, **kw):
        calls.append(1)
        if len(calls) > 3:
            raise StoreError(f"cannot write results store {self.path}: attempt to write a readonly database")
        return real_add(self, *a, **kw)

    monkeypatch.setattr(ResultStore, "add", failing_add)
    code, _, err = run(["run", "toy.rate", "-j", "1", "--out", str(tmp_path)], capsys)
    assert code == 2 and "Traceback" not in err, err
    assert err.strip().splitlines()[-1] == (
        f"kpca-suite: error: cannot write results store {tmp_path / 'results.sqlite'}: attempt to write a readonly "
        "database; the cells stored before are kept and a rerun resumes")
    monkeypatch.setattr(ResultStore, "add", real_add)
    with ResultStore(tmp_path / "results.sqlite", create=False) as st:
        assert st.count("toy.rate") == 3
    code, _, err = run(["run", "toy.rate", "-j", "1", "--out", str(tmp_path)], capsys)
    assert code == 0 and f"resumed: 3 cell(s) already in the store, {N_QUICK - 3} run now" in err


def test_a_changed_stored_digit_is_named_and_never_judged(toy_registry, no_plots, tmp_path, capsys):
    assert run(["run", "toy.rate", "-j", "1", "--out", str(tmp_path)], capsys)[0] == 0
    code, out, _ = run(["report", "--verify", "--out", str(tmp_path)], capsys)
    assert code == 0 and out.strip().startswith(f"{tmp_path / 'results.sqlite'}: {N_QUICK} row(s) match the ledger; "
                                                "ledger head ")
    con = sqlite3.connect(tmp_path / "results.sqlite")
    (metrics,) = con.execute("SELECT metrics FROM results WHERE rowid = 2").fetchone()
    digit = next(ch for ch in reversed(metrics) if ch.isdigit() and ch != "9")
    i = metrics.rindex(digit)
    with con:
        con.execute("UPDATE results SET metrics = ? WHERE rowid = 2",
                    (metrics[:i] + str(int(digit) + 1) + metrics[i + 1:],))
    con.close()
    for argv in (["report"], ["report", "--verify"], ["plot"], ["run", "toy.rate", "-j", "1"]):
        code, _, err = run(argv + ["--out", str(tmp_path)], capsys)
        assert code == 2 and "Traceback" not in err, err
        assert "has a changed row: row 2 (key " in err and "no longer matches the checksum" in err, err


# ---------------------------------------------------------------------- planted faults

UNWHITENED = "sterge20.identities[fault:unwhitened]"


def test_a_planted_fault_runs_apart_from_its_claim(no_plots, tmp_path, capsys):
    """`run CLAIM --fault NAME`: the fault's verdict line with the verdict it declares, exit 0
    as it makes the claim fail; its cells are stored under CLAIM[fault:NAME], and a plain run
    of the claim afterwards takes none of them and holds; `report` judges both."""
    argv = ["sterge20.identities", "--profile", "ci", "--out", str(tmp_path), "-j", "1", "--no-progress"]
    code, out, err = run(["run", *argv, "--fault", "unwhitened"], capsys)
    assert code == 0, err
    assert out.splitlines()[0] == (
        f"FAILS         {UNWHITENED}: violated: eq9 = 9.33e-01 relative deviation, m_eq_n_eigenvalues = 6.99e+01 "
        "relative deviation, m_eq_n_projector = 6.23e+01 relative deviation, orthonormal = 1.42e+01 relative "
        "deviation > 1e-08 (expected: fails)")
    assert len(out.splitlines()) == 3 and out.splitlines()[1].startswith("report: ")
    assert out.splitlines()[2].startswith("ledger head ")
    with ResultStore(tmp_path / "results.sqlite") as st:
        assert st.claims() == [UNWHITENED]
        fault_keys = st.done_keys(UNWHITENED)
        assert {r.cell.claim for r in st.results(UNWHITENED)} == {UNWHITENED} and len(fault_keys) == 5
    code, out, err = run(["run", *argv], capsys)
    assert code == 0 and out.startswith("HOLDS         sterge20.identities: ") and "resumed" not in err, err
    with ResultStore(tmp_path / "results.sqlite") as st:
        assert sorted(st.claims()) == ["sterge20.identities", UNWHITENED]
        assert st.count("sterge20.identities") == 5 and st.done_keys(UNWHITENED) == fault_keys
    code, out, _ = run(["report", "--out", str(tmp_path)], capsys)
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("HOLDS         sterge20.identities: ")
    assert lines[1].startswith(f"FAILS         {UNWHITENED}: ") and lines[1].endswith(" (expected: fails)")
    md = (tmp_path / "report.md").read_text()
    assert "Verdicts: 1 holds. Planted faults: 1 of 1 give the verdict they declare." in md
    assert f"| `{UNWHITENED}` | ✗ fails | fails | yes |" in md


def test_a_fault_its_claim_does_not_catch_exits_1(toy_registry, no_plots, tmp_path, capsys, monkeypatch):
    """A planted fault that leaves its claim holding is an error of the claim: exit 1 from
    `run --faults` and from `report`, naming the fault and what it declares; the faults that
    fail their claims as declared are no failure."""
    import dataclasses

    from kpca_suite.suites.claim import Fault
    harmless = Fault("harmless", "the claim's own estimator again", {"toy": toy.rate})
    monkeypatch.setitem(toy_registry, "toy.rate", dataclasses.replace(toy.TOY_RATE, faults=(harmless,)))
    code, out, err = run(["run", "toy.rate", "toy.fail", "--faults", "--profile", "ci", "--out", str(tmp_path),
                          "-j", "1", "--no-progress"], capsys)
    assert code == 1
    assert [line.split(":")[0] for line in out.splitlines()[:2]] == ["HOLDS         toy.rate[fault",
                                                                    "FAILS         toy.fail[fault"]
    assert all(line.endswith(" (expected: fails)") for line in out.splitlines()[:2])
    assert err.strip().splitlines()[-1] == (
        "kpca-suite: error: 1 planted fault(s) did not give the verdict they declare, so their claims cannot catch "
        "them: toy.rate[fault:harmless] holds, expected fails")
    code, out, err = run(["report", "--out", str(tmp_path)], capsys)
    assert code == 1 and "toy.rate[fault:harmless] holds, expected fails" in err
    assert "Planted faults: 1 of 2 give the verdict they declare." in (tmp_path / "report.md").read_text()


def test_fault_usage_errors(toy_registry, tmp_path, capsys, monkeypatch):
    """An unknown fault (naming the claim's faults), a fault that not every selected claim
    declares (naming those that do), --estimator besides: exit 2, one line, no store."""
    import dataclasses

    monkeypatch.setitem(toy_registry, "toy.vague", dataclasses.replace(toy.TOY_VAGUE, faults=()))
    out = ["--out", str(tmp_path), "-j", "1"]
    code, _, err = run(["run", "toy.rate", "--fault", "nope", *out], capsys)
    assert code == 2 and err.strip() == ("kpca-suite: error: --fault nope: toy.rate declares no planted fault of "
                                         "that name; its faults: flat")
    code, _, err = run(["run", "toy.rate", "toy.vague", "--fault", "flat", *out], capsys)
    assert code == 2 and err.strip() == ("kpca-suite: error: --fault flat: 1 of the 2 selected claims do not declare "
                                         "it (toy.vague); those that do: toy.rate")
    code, _, err = run(["run", "toy.rate", "--fault", "flat", "--estimator", "sklearn-kpca", *out], capsys)
    assert code == 2 and "--estimator" in err and len(err.strip().splitlines()) == 1
    code, _, err = run(["run", "toy.vague", "--faults", *out], capsys)
    assert code == 2 and "none of the selected claims declares a planted fault" in err
    assert not (tmp_path / "results.sqlite").exists()
