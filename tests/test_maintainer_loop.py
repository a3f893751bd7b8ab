"""The maintainer's loop, from outside the package: a change in the library behind a thin
factory is never judged on old cells, a setting an implementation cannot honour is n/a
(with its reason, once), a factory of another role or without out-of-sample transform is
n/a rather than a crash, and an in-sample-only Nyström gets a verdict. Each situation
goes through `kpca-suite run`, `check` and `conformance`."""

from __future__ import annotations

import importlib
import os
import re
import subprocess
import sys
import textwrap
import venv
from pathlib import Path

import pytest

from kpca_suite.suites import check, registry
from kpca_suite.suites.conformance import NothingChecked, dense_cost, user_estimator
from kpca_suite.suites.fingerprint import identity
from kpca_suite.suites.roles import EstimatorError
from kpca_suite.suites.store import ResultStore
from tests import external_estimators as ext
from tests import maintainer_factories as mf
from tests.paper_package import serial

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.slow


def _cli(*args, cwd=ROOT, path=()):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), *map(str, path)]))
    return subprocess.run([sys.executable, "-m", "kpca_suite.suites.cli", *serial(args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=900)


def _verdicts(stdout: str) -> dict:
    """{claim id: (STATUS, summary)} of the verdict lines."""
    out = {}
    for line in stdout.splitlines():
        status, _, rest = line.partition(" ")
        if status in ("HOLDS", "FAILS", "INCONCLUSIVE", "N/A"):
            claim, _, summary = rest.strip().partition(": ")
            out[claim] = (status, summary)
    return out


def _nothing_checked(factory, claims) -> dict:
    """The reasons ``check`` gives when every claim is n/a: it raises, since nothing was checked."""
    with pytest.raises(NothingChecked) as raised:
        check(factory, claims=claims)
    return raised.value.skipped


# ---------------------------------------------------------------------- 1. identity follows the code

HELPER = "import numpy as np\n\n\ndef scale(m):\n    return np.sqrt({} / m)\n"
THIN = textwrap.dedent("""\
    import numpy as np

    import rff_helper
    from tests.external_estimators import PlainRFF


    class HelperRFF(PlainRFF):
        def _features(self, X):
            return rff_helper.scale(self.n_features) * np.cos(X @ self.omega_ + self.phase_)


    def make(n_components, budget, kernel, random_state):
        return HelperRFF(n_components, budget, kernel, random_state)
    """)


def test_a_change_in_a_helper_beside_a_thin_factory_recomputes_through_run_check_and_conformance(tmp_path):
    """The helper's factor sqrt(2/m) replaced by sqrt(1/m): every entry point recomputes
    and says fails, where the old cells said holds; a change in a module the factory does
    not import recomputes nothing."""
    lib = tmp_path / "lib"
    lib.mkdir()
    (lib / "rff_helper.py").write_text(HELPER.format("2.0"))
    (lib / "thin_factory.py").write_text(THIN)
    (lib / "unrelated.py").write_text("X = 1\n")
    claim, spec = "ghashami16.rff-rate", "mine=thin_factory:make"
    run = ("run", claim, "--profile", "ci", "--out", str(tmp_path / "r"), "--no-progress", "--estimator", spec)
    conf = ("conformance", claim, "--profile", "ci", "--out", str(tmp_path / "c"), "--no-progress",
            "--reuse", str(tmp_path / "none"), "--estimators", spec)
    first, first_c = _cli(*run, path=[lib]), _cli(*conf, path=[lib])
    assert first.returncode == 0 and _verdicts(first.stdout)[f"{claim}[mine]"][0] == "HOLDS", first.stderr
    assert "| ✓ holds" in (tmp_path / "c" / "conformance.md").read_text() or "[✓ holds" in \
        (tmp_path / "c" / "conformance.md").read_text(), first_c.stderr
    (lib / "unrelated.py").write_text("X = 2\n")
    same = _cli(*run, path=[lib])
    assert "0 run now" in same.stderr and _verdicts(same.stdout)[f"{claim}[mine]"][0] == "HOLDS"
    (lib / "rff_helper.py").write_text(HELPER.format("1.0"))
    again, again_c = _cli(*run, path=[lib]), _cli(*conf, path=[lib])
    assert "resumed" not in again.stderr, again.stderr
    assert re.search(rf"^kpca-suite: {re.escape(claim)}\[mine\]: \d+ cell\(s\) recomputed: the stored ones were "
                     rf"computed by other code \(the implementation's code: {re.escape(str(lib / 'rff_helper.py'))} "
                     r"changed\)$", again.stderr, re.M), again.stderr
    assert again.returncode == 1 and _verdicts(again.stdout)[f"{claim}[mine]"][0] == "FAILS"
    assert "✗ fails" in (tmp_path / "c" / "conformance.md").read_text(), again_c.stderr
    report = (tmp_path / "r" / "report.md").read_text()
    assert "rff_helper" in report and "module(s) hashed" in report  # the report says what was hashed

    sys.path.insert(0, str(lib))
    try:
        for name in ("rff_helper", "thin_factory"):
            sys.modules.pop(name, None)
        store = ResultStore(tmp_path / "py.sqlite")
        factory = importlib.import_module("thin_factory").make
        assert check(factory, claims=claim, store=store)[claim].status == "fails"
        (lib / "rff_helper.py").write_text(HELPER.format("2.0"))
        importlib.reload(sys.modules["rff_helper"])
        factory = importlib.reload(sys.modules["thin_factory"]).make
        assert check(factory, claims=claim, store=store)[claim].status == "holds"
        store.close()
    finally:
        sys.path.remove(str(lib))
        for name in ("rff_helper", "thin_factory"):
            sys.modules.pop(name, None)


DYNAMIC = textwrap.dedent("""\
    import importlib

    import numpy as np

    from tests.external_estimators import PlainRFF


    class DynamicRFF(PlainRFF):
        def _features(self, X):
            helper = importlib.import_module("dynpkg.dyn")
            return helper.scale(self.n_features) * np.cos(X @ self.omega_ + self.phase_)


    def make(n_components, budget, kernel, random_state):
        return DynamicRFF(n_components, budget, kernel, random_state)
    """)


def test_a_module_imported_by_name_at_call_time_is_hashed_and_its_edit_recomputes(tmp_path):
    """importlib.import_module("dynpkg.dyn") in the implementation's code: the module is in the
    identity (the report lists it), and an edit that breaks the map recomputes and fails where the
    store held cells that hold."""
    lib = tmp_path / "lib"
    (lib / "dynpkg").mkdir(parents=True)
    (lib / "dynpkg" / "__init__.py").write_text("")
    (lib / "dynpkg" / "dyn.py").write_text(HELPER.format("2.0"))
    (lib / "dyn_factory.py").write_text(DYNAMIC)
    claim = "ghashami16.rff-rate"
    run = ("run", claim, "--profile", "ci", "--out", str(tmp_path / "r"), "--no-progress",
           "--estimator", "mine=dyn_factory:make")
    first = _cli(*run, path=[lib])
    assert first.returncode == 0 and _verdicts(first.stdout)[f"{claim}[mine]"][0] == "HOLDS", first.stderr
    assert "dynpkg.dyn)" in (tmp_path / "r" / "report.md").read_text()
    (lib / "dynpkg" / "dyn.py").write_text(HELPER.format("1.0"))
    again = _cli(*run, path=[lib])
    assert "resumed" not in again.stderr and "dyn.py changed" in again.stderr, again.stderr
    assert again.returncode == 1 and _verdicts(again.stdout)[f"{claim}[mine]"][0] == "FAILS"


def test_the_fingerprint_covers_an_editable_installed_package_and_not_its_unimported_modules(tmp_path):
    """A library installed with `pip install -e` in a virtual environment: a change in a
    module the factory reaches (through the package's __init__) changes the fingerprint, a
    change in a module nothing imports does not; the distributions reached are named."""
    pkg = tmp_path / "src" / "minilib"
    pkg.mkdir(parents=True)
    (tmp_path / "src" / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n'
        '[project]\nname = "minilib"\nversion = "0.1"\n[tool.setuptools]\npackages = ["minilib"]\n')
    (pkg / "__init__.py").write_text("from .core import scale\n")
    (pkg / "core.py").write_text("import numpy as np\n\n\ndef scale(m):\n    return np.sqrt(2.0 / m)\n")
    (pkg / "unused.py").write_text("Y = 1\n")
    (tmp_path / "factory.py").write_text("import minilib\n\n\ndef make(n_components, budget, kernel, random_state):\n"
                                         "    return minilib.scale(budget)\n")
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    # The new virtualenv sees its base interpreter's site-packages, not those of a virtualenv the
    # tests may run in: that base needs this project and a setuptools that builds an editable wheel
    # without the `wheel` package (>= 70.1), as the README's install gives it.
    base = subprocess.run([str(python), "-c", "import kpca_suite, setuptools; print(setuptools.__version__)"],
                          capture_output=True, text=True, timeout=120)
    if base.returncode != 0 or tuple(int(p) for p in base.stdout.split(".")[:2]) < (70, 1):
        pytest.skip(f"the base interpreter {sys._base_executable} lacks kpca-suite or setuptools >= 70.1 "
                    f"({(base.stdout or base.stderr).strip().splitlines()[-1]}): install them there, or run "
                    "the tests outside a virtualenv")
    install = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "-e",
                              str(tmp_path / "src"), "--no-build-isolation", "--no-deps"],
                             capture_output=True, text=True, timeout=600)
    assert install.returncode == 0, install.stderr
    probe = ("import sys; sys.path.insert(0, sys.argv[1]); import factory; "
             "from kpca_suite.suites.fingerprint import identity; i = identity(factory.make); "
             "print(i.fingerprint); print(' '.join(m for m, *_ in i.modules)); print(' '.join(i.distributions))")

    def fingerprint():
        out = subprocess.run([str(python), "-c", probe, str(tmp_path)], capture_output=True, text=True,
                             cwd=tmp_path, timeout=300)
        assert out.returncode == 0, out.stderr
        fp, modules, dists = out.stdout.splitlines()
        return fp, modules.split(), dists.split()

    fp, modules, dists = fingerprint()
    assert modules == ["factory", "minilib", "minilib.core"] and any(d.startswith("numpy==") for d in dists)
    (pkg / "unused.py").write_text("Y = 2\n")
    assert fingerprint()[0] == fp
    (pkg / "core.py").write_text("import numpy as np\n\n\ndef scale(m):\n    return np.sqrt(1.0 / m)\n")
    assert fingerprint()[0] != fp


def test_the_suites_harness_is_named_by_its_version_not_hashed():
    """A factory that imports the roles it declares from the suite: no module of the
    harness (kpca_suite.suites) enters its identity, the suite's version does, so a commit
    to the suite leaves a maintainer's stored cells current; the suite's methods, when a
    factory imports them, are code like any other and are hashed."""
    import kpca_suite
    from kpca_suite.suites import adapters
    from tests.variants.corpus import BY_NAME

    outside = identity(BY_NAME["nystrom-gram-eigh"].factory)
    assert [m for m, *_ in outside.modules] == ["tests.variants.corpus"]
    assert f"kpca-suite=={kpca_suite.__version__}" in outside.distributions
    assert not any(d.startswith(("matplotlib==", "dask==")) for d in outside.distributions)
    ours = [m for m, *_ in identity(adapters.ours_nystrom).modules]
    assert ours[0] == "kpca_suite.suites.adapters" and "kpca_suite.methods.nystrom" in ours
    assert not any(m == "kpca_suite" or m.startswith("kpca_suite.suites.") for m in ours[1:])


def test_a_release_installed_while_the_process_runs_enters_the_identity(tmp_path, monkeypatch):
    """The distributions' versions are read once per state of sys.path (fingerprint.py keeps
    them): replacing a release by another, as pip does (a new ``*.dist-info`` directory), is
    seen at once, in the same process."""
    from kpca_suite.suites.fingerprint import _with_requirements

    def install(version):
        for old in tmp_path.glob("kpcafakelib-*.dist-info"):
            (old / "METADATA").unlink()
            old.rmdir()
        info = tmp_path / f"kpcafakelib-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: kpcafakelib\nVersion: {version}\n"
                                       "Requires-Dist: numpy\n")

    monkeypatch.syspath_prepend(str(tmp_path))
    install("1.0")
    first = _with_requirements(["kpcafakelib"])
    assert "kpcafakelib==1.0" in first and any(d.startswith("numpy==") for d in first)
    install("2.0")
    assert "kpcafakelib==2.0" in _with_requirements(["kpcafakelib"])


def test_code_that_cannot_be_read_is_recomputed_on_every_run():
    namespace = {}
    exec("def make(n_components, budget, kernel, random_state):\n    return None\n", namespace)
    make = namespace["make"]
    make.__module__ = "typed_at_a_prompt"
    first, second = identity(make), identity(make)
    assert not first.established and first.fingerprint.startswith("unverified-")
    assert first.fingerprint != second.fingerprint and "recomputed on every run" in first.hashed


def test_a_platform_guarded_import_of_a_module_that_cannot_load_here_is_skipped_not_a_crash(tmp_path):
    """A local package importing a name from a module for another platform, behind a guard, as
    click does: finding that name imports the module, which raises here. No code of it can run
    here, so it is left out as an absent optional import is, and the rest is hashed."""
    pkg = tmp_path / "guarded"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("import sys\n\nif sys.platform == 'win32':\n    from ._win import console\n")
    (pkg / "_win.py").write_text("import sys\n\nassert sys.platform == 'win32'\nconsole = None\n")
    (tmp_path / "guarded_factory.py").write_text("import guarded\n\n\ndef make(n_components, budget, kernel, "
                                                 "random_state):\n    return None\n")
    sys.path.insert(0, str(tmp_path))
    try:
        found = identity(importlib.import_module("guarded_factory").make)
    finally:
        sys.path.remove(str(tmp_path))
        for name in ("guarded_factory", "guarded", "guarded._win"):
            sys.modules.pop(name, None)
    assert found.established
    assert [m for m, *_ in found.modules] == ["guarded_factory", "guarded", "guarded._win"]


# ---------------------------------------------------------------------- 2. the public refusal

def test_a_sketch_that_cannot_make_ell_at_most_d_is_n_a_everywhere_with_its_reason_once(tmp_path):
    reason = "this sketch needs ell > d rows; given ell = 2, d = 40"
    r = _cli("run", "ghashami16.fd-bound", "--profile", "ci", "--out", str(tmp_path / "r"), "--no-progress",
             "--estimator", "big=tests.maintainer_factories:large_sketch_only")
    assert r.returncode == 0, r.stderr
    status, summary = _verdicts(r.stdout)["ghashami16.fd-bound[big]"]
    assert status == "N/A" and summary.startswith(f"unsupported: {reason}")
    assert r.stderr.count(reason) == 1, r.stderr
    log = (tmp_path / "r" / "errors.log").read_text()
    assert log.count("kpca_suite.suites.roles.Unsupported: " + reason) == 1  # the other cells never ran
    assert "n/a" in (tmp_path / "r" / "report.md").read_text()

    verdicts = check(mf.large_sketch_only, claims=["ghashami16.fd-bound"])
    assert dict(verdicts) == {} and verdicts.skipped["ghashami16.fd-bound"].startswith(f"unsupported: {reason}")

    c = _cli("conformance", "ghashami16.fd-bound", "--profile", "ci", "--out", str(tmp_path / "c"), "--no-progress",
             "--reuse", str(tmp_path / "r"), "--estimators", "big=tests.maintainer_factories:large_sketch_only")
    assert c.returncode == 0, c.stderr
    row = next(line for line in (tmp_path / "c" / "conformance.md").read_text().splitlines()
               if line.startswith("| `ghashami16.fd-bound`"))
    assert f"n/a · unsupported: {reason}" in row
    assert "a setting the implementation refused 1" in (tmp_path / "c" / "conformance.md").read_text()


def test_the_factory_itself_may_refuse_and_a_plain_exception_is_no_refusal():
    from kpca_suite.suites.roles import Unsupported, UnsupportedKernel

    def refuses(n_components, budget, kernel, random_state):
        raise Unsupported("no landmarks below 100")
    verdicts = check(refuses, claims=["sterge20.cor42-poly"])
    assert verdicts.skipped == {"sterge20.cor42-poly": "unsupported: no landmarks below 100"}
    assert issubclass(UnsupportedKernel, Unsupported)
    v = check(mf.large_sketch_only_value_error, claims=["ghashami16.fd-bound"])["ghashami16.fd-bound"]
    assert v.status != "n/a" and "ValueError: this sketch needs ell > d rows" in v.summary


# ---------------------------------------------------------------------- 3. the same answer from every entry point

def test_fit_transform_only_on_a_claim_that_reads_new_points_is_n_a_in_run_check_and_conformance(tmp_path):
    reason = "no out-of-sample transform (fit_transform only); the claim reads new points"
    r = _cli("run", "ullah18.rate-erm", "--profile", "ci", "--out", str(tmp_path / "r"), "--no-progress",
             "--estimator", "ft=tests.external_estimators:in_sample_rff")
    assert r.returncode == 0, r.stderr  # every selected claim n/a: an answer, not a usage error
    assert _verdicts(r.stdout) == {"ullah18.rate-erm[ft]": ("N/A", reason)}
    assert _nothing_checked(ext.in_sample_rff, "ullah18.rate-erm") == {"ullah18.rate-erm": reason}
    c = _cli("conformance", "ullah18.rate-erm", "--profile", "ci", "--out", str(tmp_path / "c"), "--no-progress",
             "--reuse", str(tmp_path / "none"), "--estimators", "ft=tests.external_estimators:in_sample_rff")
    assert c.returncode == 0, c.stderr
    assert f"n/a · {reason}" in (tmp_path / "c" / "conformance.md").read_text()


def test_a_kpca_factory_in_a_krr_row_is_n_a_not_a_type_error(tmp_path):
    reason = ("not a krr factory: it takes (n_components, budget, kernel, random_state), a krr factory is called as "
              "make(budget, kernel, ridge, random_state)")
    spec = "kpca=tests.external_estimators:nystrom"
    r = _cli("run", "bach13.rank-rule-gaussian", "--profile", "ci", "--out", str(tmp_path / "r"), "--no-progress",
             "--estimator", spec)
    assert r.returncode == 0 and _verdicts(r.stdout) == {"bach13.rank-rule-gaussian[kpca]": ("N/A", reason)}, r.stderr
    assert _nothing_checked(ext.nystrom, ["bach13.rank-rule-gaussian"]) == {"bach13.rank-rule-gaussian": reason}
    c = _cli("conformance", "bach13.rank-rule-gaussian", "--profile", "ci", "--out", str(tmp_path / "c"),
             "--no-progress", "--reuse", str(tmp_path / "none"), "--estimators", spec)
    assert c.returncode == 0, c.stderr
    md = (tmp_path / "c" / "conformance.md").read_text()
    assert f"n/a · {reason}" in md and "unexpected keyword" not in md


def test_a_declared_role_says_n_a_before_anything_is_built():
    from kpca_suite.suites.roles import implementation

    @implementation(roles="krr")
    def regressor(budget, kernel, ridge, random_state):
        raise AssertionError("never built for a claim of another role")
    assert _nothing_checked(regressor, ["sterge20.cor42-poly"]) == {
        "sterge20.cor42-poly": "not a kpca-projection factory (it fills krr)"}


def test_a_factory_that_builds_an_object_of_no_role_is_still_an_error():
    with pytest.raises(EstimatorError, match="it has the methods of no role"):
        check(ext.no_transform, claims=["ghashami16.thm21"])


# ---------------------------------------------------------------------- 4. in-sample Nyström

def test_an_in_sample_only_nystrom_gets_a_verdict_and_one_with_too_few_landmarks_fails(tmp_path):
    claim = "sterge20.insample-nystrom"
    assert check(mf.in_sample_nystrom, claims=claim)[claim].status == "holds"
    centred = check(mf.in_sample_nystrom_centred, claims=[claim, f"{claim}-centred"])
    assert centred[f"{claim}-centred"].status == "holds" and claim in centred.skipped
    few = check(mf.in_sample_nystrom_few, claims=claim)[claim]
    assert few.status == "fails" and "sin θ_max" in few.summary, few.summary
    r = _cli("run", claim, "--profile", "ci", "--out", str(tmp_path / "r"), "--no-progress",
             "--estimator", "ok=tests.maintainer_factories:in_sample_nystrom",
             "--estimator", "few=tests.maintainer_factories:in_sample_nystrom_few")
    got = _verdicts(r.stdout)
    assert r.returncode == 1 and got[f"{claim}[ok]"][0] == "HOLDS" and got[f"{claim}[few]"][0] == "FAILS"
    c = _cli("conformance", claim, "--profile", "ci", "--out", str(tmp_path / "c"), "--no-progress",
             "--reuse", str(tmp_path / "r"), "--estimators", "few=tests.maintainer_factories:in_sample_nystrom_few")
    assert c.returncode == 0 and "cell(s) taken from" in c.stderr, c.stderr  # the run's cells, same code
    assert "✗ fails" in (tmp_path / "c" / "conformance.md").read_text()


def test_budgeted_false_is_not_exact():
    """A Nyström that picks its own size is run on a claim past the exact cap, and the
    in-sample claim about Nyström kinds reaches it."""
    from tests.test_kinds import own_size_nystrom
    est = user_estimator("own", own_size_nystrom)
    from kpca_suite.suites.conformance import applicability
    assert applicability(registry.get("sterge20.insample-nystrom"), est, "ci", exact_max_n=10) is None


# ---------------------------------------------------------------------- 5. what it costs

def test_the_dense_cost_is_said_for_an_exact_implementation_before_it_runs(monkeypatch):
    from kpca_suite.suites import conformance
    from tests.test_kinds import exact_kpca
    claim = registry.get("hallgren21.cor61-centred")
    cells = claim.cells("ci")
    monkeypatch.setattr(conformance, "_DENSE_SECONDS", [0.08])  # an eigh of 800 x 800 in 80 ms
    minutes = sum(0.08 * (c.n / 800) ** 3 for c in cells) / 60
    text = dense_cost(claim, user_estimator("exact", exact_kpca), "ci")
    assert text.startswith(f"hallgren21.cor61-centred: {len(cells)} cells of dense n x n work (n up to "
                           f"{max(c.n for c in cells)}): about {minutes:.0f} min of CPU here, a dense eigensolver "
                           "assumed")
    assert dense_cost(claim, user_estimator("ny", ext.nystrom), "ci") is None  # undeclared, budgeted: not dense


def test_what_the_cells_print_or_warn_is_said_once_per_claim_and_kept_in_errors_log(tmp_path):
    r = _cli("run", "sterge20.insample-nystrom", "--profile", "ci", "--out", str(tmp_path / "r"), "--no-progress",
             "--estimator", "chatty=tests.maintainer_factories:chatty_in_sample_nystrom")
    assert r.returncode == 0, r.stderr
    cells = len(registry.get("sterge20.insample-nystrom").cells("ci"))
    assert r.stderr.count("chatty: ") == 1 and "wrote to stderr or warned (2 distinct line(s)" in r.stderr, r.stderr
    log = (tmp_path / "r" / "errors.log").read_text()
    assert f"{cells:>6}  chatty: fitting" in log
    assert f"{cells:>6}  DeprecationWarning: chatty: this option is deprecated" in log


def test_a_name_given_twice_is_refused_before_any_cell_runs(tmp_path):
    twice = ("a=tests.external_estimators:nystrom", "a=tests.external_estimators:five_landmarks")
    c = _cli("conformance", "sterge20.insample-nystrom", "--profile", "ci", "--out", str(tmp_path / "c"),
             "--estimators", *twice)
    assert c.returncode == 2 and "the name(s) a given twice" in c.stderr and "Traceback" not in c.stderr, c.stderr
    r = _cli("run", "sterge20.insample-nystrom", "--profile", "ci", "--out", str(tmp_path / "r"),
             "--estimator", twice[0], "--estimator", twice[1])
    assert r.returncode == 2 and "the name(s) a given twice" in r.stderr, r.stderr
    assert not (tmp_path / "c" / "results.sqlite").exists() and not (tmp_path / "r" / "results.sqlite").exists()


# ---------------------------------------------------------------------- no vacuous pass

RAISING = ("def make(n_components, budget, kernel, random_state):\n"
           "    raise RuntimeError('this library is broken today')\n")
CRASH = "DEFECTIVE ESTIMATOR RAISED: the factory raised RuntimeError: this library is broken today"


def test_a_factory_that_raises_fails_every_claim_it_reaches_never_n_a(tmp_path):
    """A factory that raises is a crash of the implementation, not "another role": check,
    run and conformance fail every claim whose role its signature fits, named, and a
    maintainer's `assert all(holds)` over check's verdicts cannot pass on it."""
    (tmp_path / "raising.py").write_text(RAISING)
    sys.path.insert(0, str(tmp_path))
    try:
        make = importlib.import_module("raising").make
        verdicts = check(make, claims=["sterge20.cor42-poly", "ghashami16.fd-bound", "bach13.rank-rule"])
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("raising", None)
    assert {cid: v.status for cid, v in verdicts.items()} == {"sterge20.cor42-poly": "fails",
                                                             "ghashami16.fd-bound": "fails"}
    assert all(v.summary.startswith(CRASH) for v in verdicts.values())
    assert list(verdicts.skipped) == ["bach13.rank-rule"] and "not a krr factory" in verdicts.skipped["bach13.rank-rule"]

    run = _cli("run", "sterge20.cor42-poly", "--profile", "ci", "--out", str(tmp_path / "r"), "--no-progress",
               "--estimator", "b=raising:make", path=[tmp_path])
    assert run.returncode == 1, run.stderr
    status, summary = _verdicts(run.stdout)["sterge20.cor42-poly[b]"]
    assert status == "FAILS" and summary.startswith(CRASH)
    conf = _cli("conformance", "sterge20.cor42-poly", "--profile", "ci", "--out", str(tmp_path / "c"),
                "--no-progress", "--reuse", str(tmp_path / "r"), "--estimators", "b=raising:make", path=[tmp_path])
    assert conf.returncode == 0, conf.stderr  # a failing implementation is a finding of the matrix
    row = next(x for x in (tmp_path / "c" / "conformance.md").read_text().splitlines()
               if x.startswith("| [`sterge20.cor42-poly`]") or x.startswith("| `sterge20.cor42-poly`"))
    assert row.rstrip(" |").split(" | ")[-1].startswith(f"✗ fails · {CRASH}"), row


def test_check_with_nothing_checked_raises():
    """Every claim n/a by role (a kpca factory on krr claims): no verdict, nothing refused by
    Unsupported, so check raises rather than hand back an empty result to assert on."""
    with pytest.raises(ValueError, match=r"check\(in_sample_nystrom_few\): no claim applies, so nothing was "
                                         r"checked: 2 claim\(s\) n/a \(not a krr factory"):
        check(mf.in_sample_nystrom_few, claims="bach13")


def test_what_a_binding_writes_to_its_own_log_reaches_errors_log_once(tmp_path):
    """The fatal reason a compiled library writes to fd 2 (not sys.stderr) was printed once per
    cell on the terminal while errors.log held only 'RuntimeError: fatal error; see Log::Fatal
    output'. It is now captured with the cell: once per distinct line, with its count, in
    errors.log and on the summary line, and not on the terminal per cell."""
    claim = "ghashami16.fd-bound"
    done = _cli("run", claim, "--profile", "ci", "--out", str(tmp_path), "--no-progress",
                "--estimator", "bound=tests.maintainer_factories:native_log_binding")
    assert done.returncode == 1, done.stderr
    reason = "[Fatal] New dimensionality (10) cannot be greater than existing dimensionality (1)!"
    assert done.stderr.count(reason) == 1, done.stderr
    log = (tmp_path / "errors.log").read_text()
    assert "RuntimeError: fatal error; see Log::Fatal output" in log
    assert re.search(rf"^\s+\d+  {re.escape(reason)}$", log, re.M), log
