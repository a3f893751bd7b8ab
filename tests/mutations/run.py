"""Run the mutation campaign: apply each mutant of :mod:`tests.mutations.mutants` to a
scratch copy of the package and see which unit tests and which claims catch it.

Usage, from the repository root::

    python -m tests.mutations.run [--only NAME ...] [--skip-tests] [--out FILE]

For each mutant a temporary directory SCRATCH gets a copy of kernels/, methods/, theory/
and suites/ as SCRATCH/lib/kpca_suite/<folder> (the layout of the installed package),
tests/ and pyproject.toml; the mutant's replacement is applied there, never in the
repository. Every subprocess runs with cwd=SCRATCH and PYTHONPATH=SCRATCH/lib, which
puts the scratch copy ahead of the editable install (whose finder comes last in
sys.meta_path). Then:

* unit tests (unless --skip-tests): ``pytest -q -x -m "not slow"`` on the mutant's test
  files. **caught** = pytest exits non-zero (a failing test, or an import or collection
  error); "timeout" after 600 s also counts as caught; exit status 5 (nothing collected)
  is reported as "no tests", not as caught;
* claims: each of the mutant's claims at the ci profile through the one pipeline
  (``evaluate([claim], "ci", jobs=1)``, in memory, serially, 900 s for all of them).
  A claim **catches** the mutant when its verdict is "fails". "raised" means a cell or
  the judge raised (the verdict is then typically inconclusive); "timeout" that the
  claim had not finished in time.

One line is printed per mutant as it finishes, then a Markdown table (also written to
--out if given). Caveat: a test that starts its own Python with PYTHONPATH set to the
test tree (the CLI tests of test_conformance.py and test_estimator_output.py) imports the
installed, unmutated package in that subprocess.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .mutants import ROOT, Mutant, by_name, check_snippets

FOLDERS = ("kernels", "methods", "theory", "suites")
TEST_TIMEOUT = 600
CLAIM_TIMEOUT = 900

#: Run in the scratch copy: argv = [out_file, claim ids...]; one JSON line per claim.
CLAIM_SCRIPT = r"""
import json, sys
from kpca_suite.suites import registry
from kpca_suite.suites.pipeline import evaluate
out, ids = sys.argv[1], sys.argv[2:]
for cid in ids:
    try:
        ev = evaluate([registry.get(cid)], "ci", jobs=1)
        v = ev.verdicts[cid]
        row = ["raised" if ev.errors and v.status == "inconclusive" else v.status, v.summary]
        if ev.errors:
            row[1] += " | errors: " + "; ".join(ev.errors)[:300]
    except Exception as e:
        row = ["raised", f"{type(e).__name__}: {e}"]
    with open(out, "a", encoding="utf-8") as fh:
        fh.write(json.dumps({cid: row}) + "\n")
"""


def make_scratch(scratch: Path, mutant: Mutant) -> Path:
    """Copy the package, tests/ and pyproject.toml into ``scratch`` and apply ``mutant``;
    returns the directory to put on PYTHONPATH."""
    lib = scratch / "lib"
    pkg = lib / "kpca_suite"
    ignore = shutil.ignore_patterns("__pycache__", ".asv")
    for folder in FOLDERS:
        shutil.copytree(ROOT / folder, pkg / folder, ignore=ignore)
    shutil.copy(ROOT / "suites" / "kpca_suite" / "__init__.py", pkg / "__init__.py")
    shutil.copytree(ROOT / "tests", scratch / "tests", ignore=ignore)
    shutil.copy(ROOT / "pyproject.toml", scratch / "pyproject.toml")
    target = pkg / mutant.path
    text = target.read_text(encoding="utf-8")
    assert text.count(mutant.old) == 1, f"{mutant.name}: snippet not found once in {target}"
    target.write_text(text.replace(mutant.old, mutant.new), encoding="utf-8")
    return lib


def run(cmd, cwd: Path, env: dict, timeout: float, log: Path):
    """Run ``cmd`` in its own process group, output to ``log``; its exit status, or None
    after ``timeout`` seconds (the whole group is then killed)."""
    with open(log, "w", encoding="utf-8") as fh:
        proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=fh, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            return proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def unit_tests(mutant: Mutant, scratch: Path, env: dict) -> tuple:
    """("caught" | "missed" | "timeout" | "no tests", first failing test or "")."""
    if not mutant.tests:
        return "no tests", ""
    log = scratch / "pytest.log"
    rc = run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "-m", "not slow",
              *mutant.tests], scratch, env, TEST_TIMEOUT, log)
    if rc is None:
        return "timeout", ""
    if rc == 5:
        return "no tests", ""
    first = next((ln.strip() for ln in log.read_text(errors="replace").splitlines()
                  if ln.startswith(("FAILED", "ERROR"))), "")
    return ("missed" if rc == 0 else "caught"), first


def claims(mutant: Mutant, scratch: Path, env: dict) -> dict:
    """{claim id: (status, summary)}; a claim not finished within the timeout is "timeout"."""
    if not mutant.claims:
        return {}
    out = scratch / "claims.jsonl"
    rc = run([sys.executable, "-c", CLAIM_SCRIPT, str(out), *mutant.claims], scratch, env, CLAIM_TIMEOUT,
             scratch / "claims.log")
    got = {}
    if out.exists():
        for line in out.read_text(encoding="utf-8").splitlines():
            got.update(json.loads(line))
    tail = (scratch / "claims.log").read_text(errors="replace").strip().splitlines()[-1:] or [""]
    for cid in mutant.claims:
        if cid not in got:
            got[cid] = ("timeout", "") if rc is None else ("raised", f"the claim process died: {tail[0]}")
    return {cid: tuple(got[cid]) for cid in mutant.claims}


def caught_by_claim(verdicts: dict) -> str:
    statuses = {s for s, _ in verdicts.values()}
    if not statuses:
        return "n/a (no claim)"
    if "fails" in statuses:
        return "yes"
    if statuses & {"inconclusive", "raised"}:
        return "inconclusive only"
    return "timeout" if "timeout" in statuses else "no"


#: One scratch path for every mutant, and one Numba cache: copies keep the files' times, so
#: only the mutated file's jitted functions compile again (Numba keys its cache on the
#: source's path, time and size).
SCRATCH = Path(tempfile.gettempdir()) / "kpca-mutant-scratch"
NUMBA_CACHE = Path(tempfile.gettempdir()) / "kpca-mutant-numba-cache"


def run_mutant(mutant: Mutant, skip_tests: bool) -> dict:
    t0 = time.perf_counter()
    shutil.rmtree(SCRATCH, ignore_errors=True)
    try:
        lib = make_scratch(SCRATCH, mutant)
        path = os.pathsep.join(p for p in (str(lib), os.environ.get("PYTHONPATH")) if p)
        env = dict(os.environ, PYTHONPATH=path, NUMBA_CACHE_DIR=str(NUMBA_CACHE))
        test, first = ("skipped", "") if skip_tests else unit_tests(mutant, SCRATCH, env)
        verdicts = claims(mutant, SCRATCH, env)
    finally:
        shutil.rmtree(SCRATCH, ignore_errors=True)
    return {"mutant": mutant, "test": test, "first": first, "verdicts": verdicts,
            "by_claim": caught_by_claim(verdicts), "seconds": time.perf_counter() - t0}


def line(r: dict) -> str:
    m = r["mutant"]
    test = r["test"] + (f" ({r['first']})" if r["first"] else "")
    verdicts = ", ".join(f"{cid}: {s}" for cid, (s, _) in r["verdicts"].items()) or "no claims"
    out = (f"{m.name} [{m.area}]: unit tests {test}; {verdicts}; caught by a claim: {r['by_claim']} "
           f"({r['seconds']:.0f} s)")
    for cid, (s, summary) in r["verdicts"].items():
        if summary:
            out += f"\n    {cid} {s}: {summary[:240]}"
    return out


def table(rows: list) -> str:
    out = ["| mutant | area | unit test | claims | caught by a claim |", "|---|---|---|---|---|"]
    for r in rows:
        m = r["mutant"]
        verdicts = "<br>".join(f"`{cid}: {s}`" for cid, (s, _) in r["verdicts"].items()) or "(none)"
        out.append(f"| {m.name} | {m.area} | {r['test']} | {verdicts} | {r['by_claim']} |")
    return "\n".join(out) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.mutations.run", description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", nargs="+", metavar="NAME", help="run only these mutants")
    ap.add_argument("--skip-tests", action="store_true", help="do not run the unit tests")
    ap.add_argument("--out", type=Path, help="write the Markdown table to this file")
    args = ap.parse_args(argv)
    check_snippets()
    mutants = by_name(args.only)
    rows = []
    for i, mutant in enumerate(mutants, 1):
        rows.append(run_mutant(mutant, args.skip_tests))
        print(f"[{i}/{len(mutants)}] {line(rows[-1])}", flush=True)
    md = table(rows)
    print("\n" + md, end="", flush=True)
    if args.out is not None:
        args.out.write_text(md, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
