"""Every stored cell carries the identity of the code that computed it (suites/identity.py):
a rerun into an existing results folder recomputes exactly the cells whose code changed,
says which and why, and never judges a claim on cells of code that no longer exists.

The suite's own code is edited in a copy of the package (first on PYTHONPATH of a
subprocess), never in the checkout the other tests import."""

from __future__ import annotations

import re
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest

from tests.paper_package import CLI, ship_paper, subprocess_env

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
#: Two cheap claims whose code shares no module of their own: ullah18.lemmas alone reaches
#: kpca_suite.theory.ullah_lemmas, sterge20.thm41-bound (and its centred twin) alone
#: kpca_suite.theory.bounds.
LEMMAS, BOUND = "ullah18.lemmas", "sterge20.thm41-bound"


@pytest.fixture(scope="module")
def suite_copy(tmp_path_factory) -> Path:
    """The package laid out as installed (kpca_suite/{kernels,methods,theory,suites}) in a
    temporary directory. The copies keep their modification times and ``__pycache__``: Python's
    bytecode and Numba's cache check the source's time and size, so the first run in the copy
    compiles nothing that the checkout has compiled (about 3 CPU-s), and an edited file is
    compiled again."""
    where = tmp_path_factory.mktemp("suite")
    dst = where / "kpca_suite"
    shutil.copytree(ROOT / "suites" / "kpca_suite", dst)
    for name in ("kernels", "methods", "theory"):
        shutil.copytree(ROOT / name, dst / name)
    shutil.copytree(ROOT / "suites", dst / "suites", ignore=shutil.ignore_patterns("kpca_suite"))
    return where


def _run(where: Path, *args: str, out: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args, "--out", str(out)], capture_output=True, text=True, timeout=900,
                          env=subprocess_env(where), cwd=where)


def _verdict(stdout: str, claim: str) -> str:
    return next(line.split()[0] for line in stdout.splitlines() if line.split()[1:2] == [f"{claim}:"])


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, f"{path} no longer holds {old!r}"
    path.write_text(text.replace(old, new, 1))


def _recomputed(stderr: str) -> dict:
    """{claim: what changed} of the run's 'recomputed' lines."""
    found = re.findall(r"^kpca-suite: (\S+): \d+ cell\(s\) recomputed: the stored ones were computed by other "
                       r"code \((.*)\)$", stderr, re.M)
    return dict(found)


def test_a_rerun_recomputes_exactly_the_claims_whose_code_changed(suite_copy, tmp_path):
    pkg = suite_copy / "kpca_suite"
    run = ("run", LEMMAS, BOUND, "--profile", "ci", "--no-progress", "--jobs", "1")
    out = tmp_path / "results"
    first = _run(suite_copy, *run, out=out)
    assert first.returncode == 0, first.stderr
    assert _verdict(first.stdout, LEMMAS) == "HOLDS" and _verdict(first.stdout, BOUND) == "HOLDS"

    # the harness that judges, reports and stores reads cells but computes none: nothing recomputed
    for harness in ("report.py", "judging.py", "store.py", "plots.py"):
        (pkg / "suites" / harness).write_text((pkg / "suites" / harness).read_text() + "\n# edited\n")
    same = _run(suite_copy, *run, out=out)
    assert same.returncode == 0 and " 0 run now" in same.stderr and not _recomputed(same.stderr), same.stderr

    # a change in the claim's own module: that claim alone, named with the file
    lemmas = pkg / "suites" / "papers" / "ullah18" / "lemmas.py"
    _edit(lemmas, '"c9_err": float(max(c9) - min(c9)),', '"c9_err": float(max(c9) - min(c9)) + 1.0,')
    planted = _run(suite_copy, *run, out=out)
    assert _recomputed(planted.stderr) == {LEMMAS: f"{lemmas} changed"}, planted.stderr
    assert _verdict(planted.stdout, LEMMAS) == "FAILS" and _verdict(planted.stdout, BOUND) == "HOLDS"
    assert planted.returncode == 1

    # a change in a routine of theory/ that only the other claim calls: that claim alone
    bounds = pkg / "theory" / "bounds.py"
    bounds.write_text(bounds.read_text() + "\n# edited\n")
    method = _run(suite_copy, *run, out=out)
    assert _recomputed(method.stderr) == {BOUND: f"{bounds} changed"}, method.stderr

    # `report` after an edit and before a run judges no claim on the old cells: it names them
    _edit(lemmas, "+ 1.0,", "+ 0.0,")
    report = subprocess.run([*CLI, "report", "--out", str(out)], capture_output=True, text=True, timeout=600,
                            env=subprocess_env(suite_copy), cwd=suite_copy)
    line = next(x for x in report.stdout.splitlines() if x.split()[1:2] == [f"{LEMMAS}:"])
    assert line.startswith("INCONCLUSIVE") and f"stored as computed by other code ({lemmas} changed)" in line, line
    assert _verdict(report.stdout, BOUND) == "HOLDS"


def test_a_change_in_a_plug_in_paper_recomputes_its_own_claims_only(tmp_path):
    """A paper installed through the entry point with two claims in two modules, each with a
    helper of its own: an edit of one claim's helper recomputes that claim alone."""
    module = ship_paper(tmp_path, "idpaper", textwrap.dedent("""
        from kpca_suite.suites.claim import Paper
        from . import first, second

        PAPER = Paper(key="idpaper", citation="A test paper")
        CLAIMS = [first.CLAIM, second.CLAIM]
        """))
    claim_src = textwrap.dedent("""
        import numpy as np
        from kpca_suite.suites.claim import Claim, Fault, Grid, PerProfile, Tolerance
        from kpca_suite.suites.judging import SlopeInBand
        from .{helper} import mean_of


        def experiment(cell, estimators):
            return {{"sq": float(estimators["mean"](cell.rng(), cell.n) ** 2)}}


        def stuck(rng, n):
            return rng.standard_normal(min(n, 4)).mean()


        CLAIM = Claim(id="idpaper.{name}", source="Eq. 1", statement="the mean's error falls like 1/n",
                      prediction="slope -1", data="normal draws", metric="squared error", metrics=("sq",),
                      estimators={{"mean": mean_of}}, experiment=experiment,
                      grid=PerProfile.same(Grid(sizes=(16, 64, 256, 1024), seeds=12)),
                      judge=SlopeInBand("sq", band=(-1.4, -0.6), label="mean"),
                      tolerance=Tolerance("slope CI in [-1.4, -0.6]", "a test claim"),
                      faults=(Fault("stuck", "4 draws", {{"mean": stuck}}),))
        """)
    helper = "def mean_of(rng, n):\n    return rng.standard_normal(n).mean()\n"
    pkg = tmp_path / "idpaper"
    for name in ("first", "second"):
        (pkg / f"{name}.py").write_text(claim_src.format(name=name, helper=f"_{name}_helper"))
        (pkg / f"_{name}_helper.py").write_text(helper)
    assert module == "idpaper.paper"
    out = tmp_path / "results"
    run = ("run", "idpaper", "--profile", "ci", "--no-progress", "--jobs", "1")
    first = _run(tmp_path, *run, out=out)
    assert first.returncode == 0, first.stderr
    assert _verdict(first.stdout, "idpaper.first") == "HOLDS" and _verdict(first.stdout, "idpaper.second") == "HOLDS"
    (pkg / "unrelated.py").write_text("X = 1\n")
    assert " 0 run now" in _run(tmp_path, *run, out=out).stderr
    helper_file = pkg / "_second_helper.py"
    helper_file.write_text("def mean_of(rng, n):\n    return rng.standard_normal(min(n, 4)).mean()\n")
    again = _run(tmp_path, *run, out=out)
    assert _recomputed(again.stderr) == {"idpaper.second": f"{helper_file} changed"}, again.stderr
    assert _verdict(again.stdout, "idpaper.first") == "HOLDS" and _verdict(again.stdout, "idpaper.second") == "FAILS"


def test_a_name_after_a_comment_in_a_parenthesised_import_is_followed(tmp_path):
    """``from . import (first,  # a note\\n second)``: the comment hid ``second`` from the walk, so
    an edit of that module would not have recomputed the cells that run it."""
    import sys

    from kpca_suite.suites.fingerprint import walk
    pkg = tmp_path / "commented"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "first.py").write_text("X = 1\n")
    (pkg / "second.py").write_text("Y = 2\n")
    (pkg / "root.py").write_text("from . import (first,  # a note, with a comma\n               second)\n")
    sys.path.insert(0, str(tmp_path))
    try:
        found = walk(["commented.root"], lambda name: False)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [m for m in sys.modules if m.startswith("commented")]:
            sys.modules.pop(name)
    assert [name for name, *_ in found.modules] == ["commented.root", "commented.first", "commented.second"]
