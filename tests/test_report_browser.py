"""report.html opened as a person opens it: headless Chromium at 1400 x 900 (Debian's
``chromium``; :mod:`tests.browser`), the assertions read from the page itself (the browser's
DOM once the page and its images loaded, not the HTML text): every image loaded, no element
sticks out of the page sideways, and the glance table of the quick profile's claims (every
registered claim, one line each) fits in the first two screens.

The report under test is the one `kpca-suite run` writes: three claims run at ci (a figure
beside its text, a three-panel figure under it, no figure), then a planted fault of one and
another implementation of another, each a run of its own into the same folder (each run
rewrites the report of every stored claim); for the glance at the quick profile's size, every
other registered claim is added with a verdict but no cell (its section is its declaration).
Set ``KPCA_SUITE_SCREENSHOTS=DIR`` to keep the screenshots."""

from __future__ import annotations

import os
import re
import shutil
import struct
from pathlib import Path

import pytest

from kpca_suite.suites import cli, registry
from kpca_suite.suites.claim import Verdict
from kpca_suite.suites.faults import keep_faults
from kpca_suite.suites.pipeline import Evaluation, evaluate, merged, write_outputs
from kpca_suite.suites.store import ResultStore
from tests import browser

pytestmark = pytest.mark.skipif(browser.chromium() is None,
                                reason="no Chromium on PATH: install Debian's `chromium` package (.ci/run does) "
                                       "to render report.html in a headless browser")

RUN = ["ghashami16.rff-rate", "bach13.table1", "sterge20.identities"]
SCREENS = 2


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """The results folder after three runs: the claims, a planted fault, another implementation."""
    out = tmp_path_factory.mktemp("results")
    argv = ["--profile", "ci", "--out", str(out), "-j", "1", "--no-progress"]
    assert cli.main(["run", *RUN, *argv]) == 0
    assert cli.main(["run", "sterge20.identities", "--fault", "unwhitened", *argv]) == 0
    assert cli.main(["run", "ghashami16.rff-rate", "--estimator", "sklearn-rbf", *argv]) == 0  # it holds
    return out


def _shots(tmp_path) -> Path:
    keep = os.environ.get("KPCA_SUITE_SCREENSHOTS")
    out = Path(keep) if keep else tmp_path
    out.mkdir(parents=True, exist_ok=True)
    return out


def _looks_right(m: dict) -> None:
    assert m["viewport"][0] == browser.WIDTH
    assert m["images"] > 0 and m["broken"] == [], m["broken"]  # every image loaded: natural width > 0
    assert m["scroll_width"] <= m["viewport"][0] and m["overflow_count"] == 0, m["overflowing"]


def test_a_one_claim_run_leaves_every_claim_in_the_report_with_its_figures(folder, tmp_path):
    m = browser.measure(folder / "report.html")
    _looks_right(m)
    # three claims and rff-rate's other implementation at the glance; their sections and the fault's
    assert m["glance_rows"] == 4 and m["sections"] == 5, m
    page = (folder / "report.html").read_text(encoding="utf-8")
    for cid in RUN:  # each claim's figure sits in its own section
        section = re.search(rf'<section class="claim" id="{re.escape(cid)}">(.*?)</section>', page, re.S).group(1)
        assert (f'<img src="plots/{cid}.png"' in section) == (cid != "sterge20.identities"), cid
    png = browser.screenshot(folder / "report.html", _shots(tmp_path) / "after-one-claim-runs.png")
    assert struct.unpack(">II", png.read_bytes()[16:24]) == (browser.WIDTH, browser.HEIGHT)


def test_the_glance_of_every_claim_fits_in_two_screens(folder, tmp_path):
    """The quick profile's claims (every registered one) and the other implementation's line:
    the glance table ends within the first 2 x 900 px, nothing overflows sideways, and every
    figure drawn loaded; the first screen and one claim's section are saved as screenshots."""
    out = tmp_path / "all"  # a copy: the folder's own report stays the one the runs wrote
    shutil.copytree(folder, out)
    with ResultStore(out / "results.sqlite", create=False) as store:
        claims, faults = cli._stored_claims(store, None)
        stored = evaluate(claims, "ci", store, run=False, keep=keep_faults(faults))
        rest = [c for c in registry.select(None) if c.id not in stored.verdicts]
        statuses = ["fails", "inconclusive"] + ["holds"] * len(rest)
        extra = Evaluation(verdicts={c.id: Verdict(s, f"{c.prediction} (no cell in this test: its line and its "
                                                    f"section's declaration)", claim=c.id)
                                     for c, s in zip(rest, statuses)},
                           results={c.id: [] for c in rest})
        write_outputs(merged(stored, extra), claims + rest, out, "ci", store,
                      expected={run.id: f.expect for run, f in faults})
    m = browser.measure(out / "report.html")
    _looks_right(m)
    assert m["glance_rows"] == len(registry.select(None)) + 1
    assert m["glance_height"] <= SCREENS * browser.HEIGHT, m
    assert m["glance_bottom"] <= SCREENS * browser.HEIGHT, m  # the counts above it included
    shots = _shots(tmp_path)
    for name, anchor in (("first-screen.png", ""), ("section.png", "ghashami16.rff-rate")):
        png = browser.screenshot(out / "report.html", shots / name, anchor)
        assert struct.unpack(">II", png.read_bytes()[16:24]) == (browser.WIDTH, browser.HEIGHT)
        assert png.stat().st_size > 20_000  # drawn, not a blank window
    print(f"glance table: {m['glance_height']:.0f} px high, ending {m['glance_bottom']:.0f} px down "
          f"({m['glance_rows']} lines); screenshots in {shots}")
