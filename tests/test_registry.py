"""Discovery of papers: a sixth paper shipped as one file in someone else's
package, declared under the entry-point group ``kpca_suite.papers``, appears in
``kpca-suite list`` and in the report like ours. Also: the shipped catalogue is
the registry's, and nothing in the repository points outside it."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kpca_suite.suites import cli, registry
from kpca_suite.suites.catalogue import markdown
from tests.paper_package import mean_rate_paper

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT / "suites" / "papers" / "CATALOGUE.md"

PAPER_FILE = mean_rate_paper("toy6", "T. Oy (2030), a sixth paper.")


@pytest.fixture
def sixth_paper(tmp_path, monkeypatch):
    """One file in a temporary package, plus the installed metadata that
    declares it under the entry-point group."""
    pkg = tmp_path / "toy6pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "paper.py").write_text(textwrap.dedent(PAPER_FILE))
    info = tmp_path / "toy6pkg-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy6pkg\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{registry.ENTRY_POINT_GROUP}]\ntoy6 = toy6pkg.paper\n")
    registry.load_all()  # ours first, so that the copies below hold them and nothing else
    monkeypatch.setattr(registry, "REGISTRY", dict(registry.REGISTRY))
    monkeypatch.setattr(registry, "PAPERS", dict(registry.PAPERS))
    monkeypatch.setattr(registry, "_LOADED", set(registry._LOADED))
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    yield
    sys.modules.pop("toy6pkg.paper", None)
    sys.modules.pop("toy6pkg", None)


def test_sixth_paper_is_discovered_listed_and_reported(sixth_paper, tmp_path, capsys):
    assert "toy6pkg.paper" in registry.paper_modules()
    assert cli.main(["list", "toy6"]) == 0
    out = capsys.readouterr().out
    assert "toy6.mean-rate" in out and "Oy 2030, Thm 1" in out and "stuck" in out
    assert cli.main(["list", "--markdown", "toy6"]) == 0
    assert "## toy6" in capsys.readouterr().out
    res = tmp_path / "res"
    assert cli.main(["run", "toy6", "--profile", "ci", "--jobs", "1", "--no-progress", "--out", str(res)]) == 0
    assert "HOLDS" in capsys.readouterr().out
    assert "toy6.mean-rate" in (res / "report.md").read_text()
    assert (res / "plots" / "toy6.mean-rate.png").is_file()
    claim = registry.get("toy6.mean-rate")
    from tests.claims import run_claim
    assert run_claim(claim, fault="stuck").status == "fails"


def test_shipped_catalogue_is_the_registry_s():
    """suites/papers/CATALOGUE.md is `kpca-suite list --markdown` of the suite's own papers
    (installed plug-ins' are not shipped)."""
    regenerate = f"kpca-suite list --markdown {' '.join(registry.own_papers())} > suites/papers/CATALOGUE.md"
    assert CATALOGUE.read_text(encoding="utf-8") == markdown(registry.own_claims()), f"regenerate it: {regenerate}"


# The developers' notes outside the repository, by name (spelled in pieces so that this
# file does not match itself).
_NOTES = ["CLAIMS" + ".md", "DESIGN" + ".md", "reference" + "/seed", r"\.\./" + "shared", "seeds" + r"/0\d\d",
          "reference" + " section", "reference" + r" \d[a-z]?\b", "seed00" + r"\d\.md"]
POINTERS = re.compile("|".join(_NOTES))


def test_nothing_points_outside_the_repository():
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if tracked.returncode != 0:
        pytest.skip("not a git checkout")
    hits = []
    for name in tracked.stdout.split():
        path = ROOT / name
        if path.suffix not in {".py", ".md", ".toml", ".json", ".txt", ".cfg", ""} or not path.is_file():
            continue
        for i, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if POINTERS.search(line):
                hits.append(f"{name}:{i}: {line.strip()[:100]}")
    assert not hits, "documents outside the repository are cited:\n" + "\n".join(hits[:30])
