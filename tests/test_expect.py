"""``--expect FILE`` of ``kpca-suite run`` and ``conformance``: a maintainer's expected
failures in a TOML file, a table per implementation, judged as strict xfails (the format
of ``parametrize_with_claims(expected_failures=FILE)``, read by suites/expectations.py).
The CLI in process, at ci, on a correct in-sample Nyström written outside the package and
one that keeps k + 2 landmarks (tests/maintainer_factories.py), which fails
``sterge20.insample-nystrom``."""

from __future__ import annotations

import contextlib
import io

import pytest

from kpca_suite.suites import cli, plots
from kpca_suite.suites.expectations import Expectations

pytestmark = pytest.mark.slow

CLAIM = "sterge20.insample-nystrom"
OK = "ok=tests.maintainer_factories:in_sample_nystrom"
FEW = "few=tests.maintainer_factories:in_sample_nystrom_few"
REASON = "we keep k + 2 landmarks"


def _main(argv) -> tuple:
    """(exit status, stdout, stderr) of ``kpca-suite ARGV`` in process, drawing no plot."""
    out, err = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as mp, contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        mp.setattr(plots, "plot_fits", lambda verdict, outdir: [])
        mp.setattr(plots, "plot_implementations", lambda claim_id, verdicts, outdir: [])
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


def _toml(path, text: str) -> str:
    path.write_text(text)
    return str(path)


def _lines(stdout: str) -> dict:
    """{run id: the verdict line} of the verdict lines."""
    return {line.split()[1].rstrip(":"): line for line in stdout.splitlines()
            if line.split(" ", 1)[0] in ("HOLDS", "FAILS", "INCONCLUSIVE", "N/A")}


def _state(out) -> tuple:
    """What a usage error must leave as it was: the results folder's files and the store's bytes."""
    return sorted(p.name for p in out.iterdir()), (out / "results.sqlite").read_bytes()


@pytest.fixture(scope="module")
def xfail_run(tmp_path_factory):
    """A run of both factories with the bug of ``few`` expected: (its folder, the file, the run)."""
    tmp = tmp_path_factory.mktemp("expect")
    expect = _toml(tmp / "expect.toml", f'[few]\n"{CLAIM}" = "{REASON}"\n')
    out = tmp / "r"
    run = ["run", CLAIM, "--profile", "ci", "--jobs", "1", "--no-progress", "--out", str(out)]
    return out, expect, run, _main(run + ["--estimator", OK, "--estimator", FEW, "--expect", expect])


def test_an_expected_failure_is_marked_and_exits_0_and_the_store_keeps_its_verdict(xfail_run):
    out, _, _, (code, stdout, stderr) = xfail_run
    assert code == 0, stderr
    lines = _lines(stdout)
    assert lines[f"{CLAIM}[few]"].startswith(f"FAILS         {CLAIM}[few]: ")
    assert lines[f"{CLAIM}[few]"].endswith(f" (XFAIL, expected: {REASON})")
    assert lines[f"{CLAIM}[ok]"].startswith("HOLDS") and "XFAIL" not in lines[f"{CLAIM}[ok]"]
    code, stdout, _ = _main(["report", "--out", str(out)])  # judged without the file: the failure as it is
    assert code == 1 and _lines(stdout)[f"{CLAIM}[few]"].startswith("FAILS") and "XFAIL" not in stdout


def test_an_expected_failure_that_holds_exits_1_naming_it(xfail_run, tmp_path):
    out, _, run, _ = xfail_run
    expect = _toml(tmp_path / "ok.toml", f'[ok]\n"{CLAIM}" = "thought broken"\n')
    code, stdout, stderr = _main(run + ["--estimator", OK, "--expect", expect])
    assert code == 1
    assert _lines(stdout)[f"{CLAIM}[ok]"].endswith(" (XPASS, expected to fail: thought broken)")
    assert (f'kpca-suite: error: --expect {expect}: [ok] "{CLAIM}" was expected to fail (thought broken) but holds: '
            f"remove it from {expect}\n") in stderr


@pytest.mark.parametrize("text, message", [
    (f'[nope]\n"{CLAIM}" = "x"\n', "[nope] names no implementation of this run (its implementations: ok, few)"),
    ('[few]\n"sterge20.no-such" = "x"\n',
     '[few] "sterge20.no-such": no claim of that id is registered (`kpca-suite list` names them)'),
    (f'[few]\n"{CLAIM}" = \n', "not TOML: Invalid value (at line 2, column 31)"),
    (f'[few]\n"{CLAIM}" = 3\n', f'[few] "{CLAIM}": the reason must be a non-empty string, got 3'),
    (f'[few]\n{CLAIM} = "x"\n', f'[few] {CLAIM}: quote the claim id ("{CLAIM}" = "reason")'),
    (f'"{CLAIM}" = "x"\n', f'"{CLAIM}" is not a table: give [IMPLEMENTATION] then "claim.id" = "reason" lines'),
])
def test_a_bad_expectation_exits_2_naming_file_table_and_key_and_leaves_the_store(xfail_run, tmp_path, text, message):
    out, _, run, _ = xfail_run
    before = _state(out)
    expect = _toml(tmp_path / "bad.toml", text)
    code, stdout, stderr = _main(run + ["--estimator", OK, "--estimator", FEW, "--expect", expect])
    assert (code, stdout) == (2, "")
    assert stderr == f"kpca-suite: error: --expect {expect}: {message}\n"
    assert _state(out) == before


def test_a_claim_n_a_for_its_implementation_before_it_runs_exits_2_and_one_not_selected_is_not_judged(xfail_run,
                                                                                                       tmp_path):
    out, _, run, _ = xfail_run
    before = _state(out)
    expect = _toml(tmp_path / "na.toml", f'[few]\n"{CLAIM}-centred" = "x"\n')
    code, stdout, stderr = _main([*run[:2], f"{CLAIM}-centred", *run[2:], "--estimator", FEW, "--expect", expect])
    assert (code, stdout) == (2, "")
    assert stderr == (f'kpca-suite: error: --expect {expect}: [few] "{CLAIM}-centred": the claim is n/a for few (other '
                      "estimand: does not centre; the claim's estimand is centred), so it cannot be expected to fail: "
                      f"remove it from {expect}; no cell was run\n")
    assert _state(out) == before
    code, stdout, _ = _main(run + ["--estimator", FEW, "--expect", expect])  # the run of CLAIM alone
    assert code == 1 and "XFAIL" not in stdout and _lines(stdout)[f"{CLAIM}[few]"].startswith("FAILS")


@pytest.mark.parametrize("where, message", [("missing.toml", "no such file"), ("", "a directory, not a TOML file")])
def test_a_missing_file_or_a_directory_exits_2(xfail_run, tmp_path, where, message):
    out, _, run, _ = xfail_run
    before = _state(out)
    path = str(tmp_path / where)
    code, _, stderr = _main(run + ["--estimator", FEW, "--expect", path])
    assert code == 2 and stderr == f"kpca-suite: error: --expect {path}: {message}\n"
    assert _state(out) == before


def test_expect_needs_the_implementations_it_names(xfail_run):
    out, expect, run, _ = xfail_run
    code, _, stderr = _main(run + ["--expect", expect])
    assert code == 2 and stderr == ("kpca-suite: error: --expect FILE has a table per implementation: give them "
                                    "with --estimator NAME\n")


def test_a_claim_n_a_only_once_it_ran_is_an_error_after_the_run(tmp_path):
    reason = "this sketch needs ell > d rows; given ell = 2, d = 40"
    expect = _toml(tmp_path / "big.toml", '[big]\n"ghashami16.fd-bound" = "no small sketches"\n')
    code, stdout, stderr = _main(["run", "ghashami16.fd-bound", "--profile", "ci", "--jobs", "1", "--no-progress",
                                  "--out", str(tmp_path / "r"), "--expect", expect,
                                  "--estimator", "big=tests.maintainer_factories:large_sketch_only"])
    assert code == 2
    line = _lines(stdout)["ghashami16.fd-bound[big]"]
    assert line.startswith(f"N/A           ghashami16.fd-bound[big]: unsupported: {reason}")
    assert (f'kpca-suite: error: --expect {expect}: [big] "ghashami16.fd-bound": the claim is n/a for big '
            f"(unsupported: {reason}") in stderr
    assert f"so it cannot be expected to fail: remove it from {expect}\n" in stderr


def test_conformance_marks_the_expected_failure_in_its_matrix_and_judges_with_the_file(xfail_run, tmp_path):
    reuse, _, _, _ = xfail_run
    out = tmp_path / "c"
    conformance = ["conformance", CLAIM, "--profile", "ci", "--jobs", "1", "--no-progress", "--out", str(out),
                   "--reuse", str(reuse), "--estimators", OK, FEW, "--expect"]
    expect = _toml(tmp_path / "few.toml", f'[few]\n"{CLAIM}" = "{REASON}"\n')
    code, stdout, stderr = _main(conformance + [expect])
    assert code == 0, stderr
    assert _lines(stdout)[f"{CLAIM}[few]"].endswith(f" (XFAIL, expected: {REASON})")
    row = next(line for line in (out / "conformance.md").read_text().splitlines() if line.startswith(f"| `{CLAIM}`"))
    assert f"| ✗ fails · XFAIL, expected: {REASON} · " in row

    unlisted = _toml(tmp_path / "none.toml", "[few]\n")  # with a file, a failure not listed fails the run
    code, _, stderr = _main(conformance + [unlisted])
    assert code == 1 and "kpca-suite: error" not in stderr
    code, _, _ = _main(conformance[:-1])  # without one, the matrix is a finding
    assert code == 0

    listed = _toml(tmp_path / "declared.toml", f'[declared]\n"{CLAIM}" = "ours too?"\n')
    code, _, stderr = _main(conformance + [listed])
    assert code == 1
    assert f'--expect {listed}: [declared] "{CLAIM}" was expected to fail (ours too?) but holds' in stderr

    before = _state(out)
    na = _toml(tmp_path / "na.toml", f'[ok]\n"{CLAIM}-centred" = "x"\n')
    code, _, stderr = _main([conformance[0], f"{CLAIM}-centred", *conformance[2:], na])
    assert code == 2 and stderr.startswith(f'kpca-suite: error: --expect {na}: [ok] "{CLAIM}-centred": the claim is '
                                           "n/a for ok (other estimand")
    assert _state(out) == before


def test_the_decorator_reads_the_same_file_the_same_way(tmp_path):
    path = _toml(tmp_path / "e.toml", f'[few]\n{CLAIM} = "x"\n')
    from kpca_suite.testing import expectations_from_toml
    with pytest.raises(ValueError, match=rf'^expected_failures {path}: \[few\] {CLAIM}: quote the claim id'):
        expectations_from_toml(path, "few")
    good = _toml(tmp_path / "g.toml", f'[few]\n"{CLAIM}" = "{REASON}"\n')
    assert expectations_from_toml(good, "few") == Expectations.read(good).tables["few"] == {CLAIM: REASON}
