"""What the report shows a reader, from the top: the counts and one line per claim (grouped
by paper, failing first, another implementation's line under its claim's, the paper's result
by its inventory label, what was judged, after how many seeds), then a section per claim with
its figure in it; and that the report is the store's: a run of one claim rewrites the report
of every claim stored, marking the one run now."""

from __future__ import annotations

import json
import re

import numpy as np

from kpca_suite.suites import cli
from kpca_suite.suites.cell import Cell, Result
from kpca_suite.suites.claim import Fit, Verdict
from kpca_suite.suites.coverage import Stated
from kpca_suite.suites.plots import plot_fits, vector_copies
from kpca_suite.suites.report import write_report
from kpca_suite.suites.report_model import clauses, glance_text
from tests import toy_claim as toy

X = np.array([64.0, 128, 256, 512])
INVENTORIES = {"pa": (Stated("Contribution 1", "contribution", "the paper's gist", claims=("pa.one", "pa.two"),
                             how="qualitative"),
                      Stated("Thm. 2(ii), θ < 1", "theorem", "err ≲ n^-1/2", claims=("pa.one",), how="rate"))}


def _glance_ids(md: str) -> list:
    return re.findall(r"^\| [^|]+ \| \[`([^`]+)`\]\(#", md, re.M)


def test_the_glance_groups_by_paper_failing_first_with_other_implementations_beside(tmp_path):
    verdicts = [Verdict("holds", "slope -0.5 [-0.6, -0.4] vs band [-0.7, -0.3] (fails a slope < -0.8 at this "
                        "spread); level 1.02 (<= 1.1)", claim="pa.one", seeds=(5, 20)),
                Verdict("fails", "violated: eq9 = 0.93 > 1e-8; orthonormal = 14 > 1e-8", claim="pa.two"),
                Verdict("holds", "fine", claim="pb.one"),
                Verdict("inconclusive", "CI straddles the band [decided after 20 of 20 seeds]", claim="pb.two",
                        seeds=(20, 20)),
                Verdict("fails", "slope -0.1 vs band [-0.7, -0.3]", claim="pa.one[mine]"),
                Verdict("fails", "planted", claim="pa.one[fault:flat]")]
    md, page = write_report(verdicts, [], tmp_path, "quick", {}, {}, expected={"pa.one[fault:flat]": "fails"},
                            inventories=INVENTORIES, ran={"pa.two", "pa.one[fault:flat]"})
    text = md.read_text()
    # pa has a failing line: first; in it the failing claim, then pa.one with its other implementation
    assert _glance_ids(text) == ["pa.two", "pa.one", "pa.one[mine]", "pb.two", "pb.one"]
    assert "Verdicts: 2 holds, 2 fails, 1 inconclusive. Planted faults: 1 of 1 give the verdict they declare." in text
    line = {i: row for i, row in zip(_glance_ids(text), [r for r in text.splitlines() if "](#" in r and
                                                          r.startswith("| ") and "|---" not in r])}
    assert "(run now)" in line["pa.two"] and "(run now)" not in line["pa.one"]
    assert "| Thm. 2(ii) +1 | slope -0.5 [-0.6, -0.4] vs band [-0.7, -0.3] | decided after 5 of 20 seeds |" in \
        line["pa.one"]  # the most specific result first, the look's and the band's asides left to the section
    assert "| Contribution 1 | violated: eq9 = 0.93 > 1e-8 |" in line["pa.two"]
    assert line["pb.two"].endswith("| CI straddles the band | undecided after 20 of 20 seeds |")
    assert "| `pa.one[fault:flat]` | ✗ fails | fails | yes |" in text  # its own table, not the glance
    html = page.read_text()
    glance = html[html.index('<table class="glance"'):html.index("</table>", html.index('<table class="glance"'))]
    assert re.findall(r'<a href="#([^"]+)"><code>', glance) == ["pa.two", "pa.one", "pa.one[mine]", "pb.two",
                                                                 "pb.one"]
    assert glance.count('class="now"') == 1 and glance.count('class="impl"') == 1  # pa.one[mine], indented
    assert '<section class="claim fault" id="pa.one[fault_flat]">' in html  # after pa.one's own section
    assert html.index('id="pa.one"') < html.index('id="pa.one[mine]"') < html.index('id="pa.one[fault_flat]"')


def test_clauses_cut_at_the_top_level_only():
    assert clauses("a (b; c); d [e; f]; g") == ["a (b; c)", "d [e; f]", "g"]
    assert glance_text(Verdict("holds", "slope -0.2 (interim look: 99.8% over 10 seeds) vs band <= -0.45 (fails a "
                                        "slope > -0.1 at this spread) [decided after 10 of 20 seeds]")) == \
        "slope -0.2 (interim look: 99.8% over 10 seeds) vs band <= -0.45"


def test_a_claims_section_holds_its_statement_figure_numbers_tolerance_faults_cells_and_code(tmp_path):
    cells = [Cell.make("toy.rate", "toy", n, s, code="abc123def456", grid=(1, 2.5)) for n in X.astype(int)
             for s in range(3)]
    results = [Result(c, {"err": float(c.n) ** -0.5}, wall_time=0.25) for c in cells]
    fit = Fit("toy", X, np.repeat((X ** -0.5)[:, None], 3, axis=1), -0.5, (-0.52, -0.48), 0.0, predicted=-0.5,
              band=(-0.6, -0.4))
    v = Verdict("holds", "slope -0.5 [-0.52, -0.48] vs band [-0.6, -0.4]", [fit], {"slope": -0.5},
                {"slope_band": [-0.6, -0.4]}, claim="toy.rate")
    with vector_copies(True):
        paths = plot_fits(v, tmp_path / "plots")
    record = json.dumps({"modules": [["kpca_suite.suites.cell", "suites/cell.py", "0" * 64],
                                     ["tests.toy_claim", "tests/toy_claim.py", "1" * 64]], "distributions": ["numpy==2"]})
    fault = Verdict("fails", "slope 0 vs band [-0.6, -0.4]", claim="toy.rate[fault:flat]")
    md, page = write_report([v, fault], paths, tmp_path, "ci", {}, {}, expected={fault.claim: "fails"},
                            claims={"toy.rate": toy.TOY_RATE}, results={"toy.rate": results},
                            identities={"abc123def456": record}, inventories={})
    html = page.read_text()
    section = re.search(r'<section class="claim" id="toy.rate">(.*?)</section>', html, re.S).group(1)
    assert '<img src="plots/toy.rate.png"' in section and 'href="plots/toy.rate.svg"' in section
    for said in ("err decays like n^-1/2", "slope -1/2", "CI inside [-0.6, -0.4]", "the formula&#x27;s noise is 5%",
                 "<code>flat</code> must give <b>fails</b>: error constant in n",
                 'stored run: <a href="#toy.rate[fault_flat]" class="fails">fails</a>',
                 "12 cells; method toy; n = 64, 128, 256, 512; seeds 0, 1, 2; 3.0 s of wall time in all",
                 "<code>abc123def456</code> (12 cells): 2 module(s) hashed, 1 distribution(s)",
                 "<code>tests.toy_claim</code>", "<td>slope</td><td>-0.5</td><td>band [-0.6, -0.4]</td>",
                 "toy — slope -0.5 [-0.52, -0.48] vs predicted -0.5, band [-0.6, -0.4]"):
        assert said in section, said
    text = md.read_text()
    assert "![toy.rate](plots/toy.rate.png)" in text and "[toy.rate.svg](plots/toy.rate.svg)" in text
    assert "Code identity `abc123def456` (12 cells): 2 module(s) hashed, 1 distribution(s)." in text
    assert "Evidence: the formula's noise is 5%" in text


def _run(argv, capsys):
    code = cli.main(argv)
    out, _ = capsys.readouterr()
    return code, out


def test_a_run_of_one_claim_rewrites_the_report_of_every_stored_claim(toy_registry, no_plots, tmp_path, capsys):
    """`run toy.rate` then `run toy.fail` into one folder: the report holds both, toy.fail
    marked run now; stdout and the exit status speak of toy.fail alone; `report` marks none."""
    argv = ["--profile", "ci", "--out", str(tmp_path), "-j", "1", "--no-progress"]
    assert _run(["run", "toy.rate", *argv], capsys)[0] == 0
    code, out = _run(["run", "toy.fail", *argv], capsys)
    assert code == 1 and [line.split()[1] for line in out.splitlines()[:-2]] == ["toy.fail:"]
    md = (tmp_path / "report.md").read_text()
    assert "Verdicts: 1 holds, 1 fails. This run ran 1 of them (marked *run now*)." in md
    assert _glance_ids(md) == ["toy.fail", "toy.rate"]
    assert re.search(r"^\| ✗ fails \| \[`toy.fail`\]\(#toy.fail\) \(run now\) \|", md, re.M)
    assert re.search(r"^\| ✓ holds \| \[`toy.rate`\]\(#toy.rate\) \|", md, re.M)
    html = (tmp_path / "report.html").read_text()
    assert 'id="toy.rate"' in html and 'id="toy.fail"' in html and html.count('<span class="now">') == 2
    assert _run(["report", "--out", str(tmp_path)], capsys)[0] == 1
    md = (tmp_path / "report.md").read_text()
    assert "run now" not in md and _glance_ids(md) == ["toy.fail", "toy.rate"]
