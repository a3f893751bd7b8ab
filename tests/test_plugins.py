"""Plug-in papers are first-class. A paper installed as someone else's package (an entry
point of the group ``kpca_suite.papers``, tests/paper_package.py) is catalogued and tracked
by asv by discovery, and leaves the suite's own consistency checks (the shipped catalogue,
the README's table, the claim count, the layout) green: they cover our papers only. A
plug-in that cannot be imported, or is not a paper module, is skipped with one warning
naming its entry point, module and file, and every command still works; one of our own
papers that cannot be imported still raises."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from kpca_suite.suites import cli, registry
from kpca_suite.suites.benchmarks.bench_claims import rate_claims
from kpca_suite.suites.catalogue import markdown
from tests.paper_package import CLI, mean_rate_paper, serial, ship_paper, subprocess_env

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 300  # seconds for any one subprocess

PLUG_IN = mean_rate_paper("plug7", "P. Lug (2031), a plug-in paper.")

BROKEN = '"""A plug-in whose dependency is not installed."""\nimport kpca_suite_no_such_dependency\n'
MISSING = "ModuleNotFoundError: No module named 'kpca_suite_no_such_dependency'"
NOT_A_PAPER = '"""Notes of a checkout, not the paper."""\n'

#: The suite's own consistency checks that an installed paper turned red, and the layout's.
OWN_CHECKS = ("tests/test_readme.py::test_the_paper_table_matches_the_registry",
              "tests/test_registry.py::test_shipped_catalogue_is_the_registry_s",
              "tests/test_claims.py::test_registry_has_every_paper",
              "tests/test_declared_metrics.py::test_every_claim_of_ours_declares_its_metrics",
              "tests/test_layout.py")


def skipped(package: str, file: Path, why: str) -> str:
    """The warning for the skipped plug-in ``package`` (its entry point's and package's
    name) whose module ``package.paper`` is ``file``."""
    return (f"skipped the paper plug-in '{package}' (entry point group kpca_suite.papers, module "
            f"{package}.paper, file {file}): {why}")


@pytest.fixture
def ship(tmp_path, monkeypatch):
    """``ship(package, source)`` installs the paper module ``package.paper`` under tmp_path
    (on sys.path); the registry's state is restored after."""
    registry.load_all()  # ours first, so that the copies below hold them and nothing else
    monkeypatch.setattr(registry, "REGISTRY", dict(registry.REGISTRY))
    monkeypatch.setattr(registry, "PAPERS", dict(registry.PAPERS))
    monkeypatch.setattr(registry, "_LOADED", set(registry._LOADED))
    monkeypatch.setattr(registry, "_SKIPPED", set(registry._SKIPPED))
    monkeypatch.syspath_prepend(str(tmp_path))
    shipped = []

    def install(package: str, source: str) -> None:
        shipped.append(package)
        ship_paper(tmp_path, package, source)
        importlib.invalidate_caches()

    yield install
    for package in shipped:
        sys.modules.pop(f"{package}.paper", None)
        sys.modules.pop(package, None)


def test_own_papers_are_those_of_the_papers_package(ship):
    ship("plug7", PLUG_IN)
    assert "plug7.mean-rate" in registry.load_all()
    assert registry.is_ours(f"{registry.PAPERS_PACKAGE}.sterge20") and not registry.is_ours("plug7.paper")
    assert "plug7" not in registry.own_papers() and "sterge20" in registry.own_papers()
    ours = ("bach13", "ghashami16", "hallgren21", "landmarks", "numerics", "selfcheck", "sterge20", "ullah18")
    assert [c.id for c in registry.own_claims()] == [c.id for c in registry.select() if c.paper in ours]


def test_asv_and_the_catalogue_pick_a_plug_in_up_by_discovery(ship):
    ship("plug7", PLUG_IN)
    assert "plug7.mean-rate" in rate_claims()
    assert "## plug7\n\nP. Lug (2031), a plug-in paper." in markdown(registry.select())
    assert "plug7" not in markdown(registry.own_claims())


def test_the_suite_s_own_checks_pass_with_a_plug_in_installed(tmp_path):
    ship_paper(tmp_path, "plug7", PLUG_IN)
    env = subprocess_env(tmp_path)
    listed = subprocess.run(CLI + ["list", "--markdown"], env=env, cwd=tmp_path, capture_output=True, text=True,
                            timeout=TIMEOUT)
    assert listed.returncode == 0 and listed.stderr == "", listed.stderr
    installed = registry.select()  # ours, and any paper installed here besides the one shipped now
    assert f"\n{len(installed) + 1} claims." in listed.stdout and "### `plug7.mean-rate`" in listed.stdout
    checks = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *OWN_CHECKS],
                            env=env, cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT)
    last = checks.stdout.strip().splitlines()[-1]
    assert checks.returncode == 0 and re.fullmatch(r"\d+ passed(, \d+ warnings?)? in .+", last), checks.stdout


def test_a_plug_in_that_fails_to_import_is_skipped_with_one_warning(ship, tmp_path, capsys):
    ship("plug7", PLUG_IN)
    ship("broken8", BROKEN)
    with pytest.warns(registry.PluginWarning) as caught:
        registry.load_all()
        registry.load_all()
    assert [str(w.message) for w in caught] == [skipped("broken8", tmp_path / "broken8" / "paper.py", MISSING)]
    assert "broken8.paper" not in registry._LOADED
    out = tmp_path / "res"
    assert cli.main(["run", "plug7", "--profile", "ci", "--jobs", "1", "--no-progress", "--out", str(out)]) == 0
    assert "plug-in" not in capsys.readouterr().err  # said once per process
    assert "plug7.mean-rate" in (out / "report.md").read_text()


@pytest.mark.parametrize("kind", ["raises", "shadowed"])
def test_the_cli_skips_a_broken_plug_in_with_one_line_and_lists_ours(tmp_path, kind):
    """``raises``: the module raises ImportError. ``shadowed``: a folder of the package's name
    in the working directory (first on ``python -m``'s path) hides the installed package,
    whose module there defines no PAPER."""
    site, here = tmp_path / "site", tmp_path / "here"
    here.mkdir()
    ship_paper(site, "broken8", BROKEN if kind == "raises" else PLUG_IN)
    if kind == "raises":
        file, why = site / "broken8" / "paper.py", MISSING
    else:
        (here / "broken8").mkdir()
        (here / "broken8" / "__init__.py").write_text("")
        (file := here / "broken8" / "paper.py").write_text(NOT_A_PAPER)
        why = f"ImportError: paper module broken8.paper ({file}) must define PAPER (a Paper) and CLAIMS"
    r = subprocess.run(CLI + ["list"], env=subprocess_env(site), cwd=here, capture_output=True, text=True,
                       timeout=TIMEOUT)
    assert r.returncode == 0
    assert r.stderr.splitlines() == [f"kpca-suite: warning: {skipped('broken8', file, why)}"]
    installed = registry.select()  # ours, and any paper installed here besides the broken one
    assert f"\n{len(installed)} claim(s)." in r.stdout
    assert re.findall(r"^(\S+)  ", r.stdout, re.M)[2:] == [c.id for c in installed]  # after the header's two lines


def test_our_own_paper_that_fails_to_import_raises(monkeypatch):
    monkeypatch.setattr(registry, "REGISTRY", {})
    monkeypatch.setattr(registry, "PAPERS", {})
    monkeypatch.setattr(registry, "_LOADED", set())
    monkeypatch.setattr(registry, "paper_modules", lambda: [f"{registry.PAPERS_PACKAGE}.no_such_paper"])
    with pytest.raises(ModuleNotFoundError, match="no_such_paper"):
        registry.load_all()
    assert cli.main(["list"]) == 2


def test_a_module_that_is_not_a_paper_is_named_with_its_file():
    package = importlib.import_module(registry.PAPERS_PACKAGE)
    with pytest.raises(ImportError, match=re.escape(f"paper module {package.__name__} ({package.__file__}) must "
                                                    "define PAPER (a Paper) and CLAIMS")):
        registry.register_module(package)


# ---------------------------------------------------------------------- the researcher's loop, outside the suite

def test_a_plug_in_s_fault_runs_from_the_command_line_apart_from_its_claim(tmp_path):
    """`run CLAIM --fault NAME` on a plug-in's claim prints the fault's verdict with what it
    must give and exits 0 when it gives it; the claim's own cells are untouched."""
    ship_paper(tmp_path, "plug7", PLUG_IN)
    env = subprocess_env(tmp_path)
    out = tmp_path / "results"
    fault = subprocess.run([*CLI, *serial(["run", "plug7.mean-rate", "--fault", "stuck", "--profile", "ci",
                                            "--no-progress", "--out", str(out)])],
                           capture_output=True, text=True, env=env, timeout=TIMEOUT)
    assert fault.returncode == 0, fault.stderr
    line = next(x for x in fault.stdout.splitlines() if "plug7.mean-rate[fault:stuck]:" in x)
    assert line.startswith("FAILS") and line.endswith("(expected: fails)"), line
    own = subprocess.run([*CLI, *serial(["run", "plug7.mean-rate", "--profile", "ci", "--no-progress", "--out",
                                          str(out)])], capture_output=True, text=True, env=env, timeout=TIMEOUT)
    assert own.returncode == 0 and "resumed" not in own.stderr, own.stderr
    assert next(x for x in own.stdout.splitlines() if "plug7.mean-rate:" in x).startswith("HOLDS")


def test_a_role_claim_copied_from_the_template_runs_scikit_learn_through_its_role(tmp_path):
    """The template's krr claim, shipped as someone else's paper without a probe of its own:
    scikit-learn's Nyström ridge runs through the krr role (no TypeError blaming the adapter
    for a kpca probe), and conformance judges every built-in krr implementation."""
    source = (ROOT / "suites" / "papers" / "_template" / "krr.py").read_text().replace('"template.', '"outkrr.')
    assert "probe=(" not in source  # the role's default probe
    pkg = tmp_path / "outkrr"
    module = ship_paper(tmp_path, "outkrr", '"""A researcher\'s paper."""\nfrom kpca_suite.suites.claim import Paper\n'
                        'from . import krr\n\nPAPER = Paper(key="outkrr", citation="A test")\nCLAIMS = [*krr.CLAIMS]\n')
    (pkg / "krr.py").write_text(source)
    assert module == "outkrr.paper"
    env = subprocess_env(tmp_path)
    run = subprocess.run([*CLI, *serial(["run", "outkrr.krr-dof", "--profile", "ci", "--no-progress", "--out",
                          str(tmp_path / "r"), "--estimator", "sklearn-nystroem-ridge"])],
                         capture_output=True, text=True, env=env, timeout=TIMEOUT)
    assert run.returncode == 0, run.stderr
    assert next(x for x in run.stdout.splitlines() if "outkrr.krr-dof[sklearn-nystroem-ridge]:" in x
                ).startswith("HOLDS"), run.stdout
    conf = subprocess.run([*CLI, *serial(["conformance", "outkrr.krr-dof", "--profile", "ci", "--no-progress", "--out",
                           str(tmp_path / "c"), "--estimators", "ours-nystrom-krr", "sklearn-kernel-ridge",
                           "sklearn-nystroem-ridge"])], capture_output=True, text=True, env=env, timeout=TIMEOUT)
    assert conf.returncode == 0, conf.stderr
    row = next(x for x in (tmp_path / "c" / "conformance.md").read_text().splitlines()
               if x.startswith("| `outkrr.krr-dof`"))
    assert row.count("✓ holds") == 4 and "n/a" not in row, row  # the claim's own column and the three
