"""What a reviewer reads: every plotted line says what it is (no bare "reference",
no label twice on an axes, bounds drawn as bounds, a zero-width CI drawn as a
line), a method keeps its colour in every panel, the report's numbers are short,
and a claim's table goes to a file while stdout keeps one line per claim."""

from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402
from matplotlib.collections import PolyCollection  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402

from kpca_suite.suites import cli, plots, registry  # noqa: E402
from kpca_suite.suites.claim import Fit, Verdict  # noqa: E402
from kpca_suite.suites.pipeline import evaluate  # noqa: E402
from kpca_suite.suites.plots import number  # noqa: E402
from kpca_suite.suites.report import CELL_LINES, _cell, _pairs, write_report  # noqa: E402

X = np.array([100.0, 200, 400, 800])


def drawn(monkeypatch, verdict, tmp_path):
    """Draw ``verdict`` with plot_fits and return its figure (kept open)."""
    figs = []
    monkeypatch.setattr(plots, "save_figure", lambda fig, outdir, name: figs.append(fig) or [])
    plots.plot_fits(verdict, tmp_path)
    assert len(figs) == 1
    return figs[0]


def legend_labels(ax) -> list:
    legend = ax.get_legend()
    return [t.get_text() for t in legend.get_texts()] if legend else []


def rate(label, slope, ci, ylabel="y", **kw):
    Y = np.exp(1.0 + slope * np.log(X))[:, None] * np.array([0.95, 1.0, 1.05])
    return Fit(label, X, Y, slope, ci, 1.0, ylabel=ylabel, **kw)


def test_every_line_says_what_it_is_and_no_label_repeats(monkeypatch, tmp_path):
    ref = np.exp(1.0 - 1.0 * np.log(X))
    fits = [rate("a", -1.0, (-1.1, -0.9), predicted=-1.0, band=(-1.2, -0.8), reference=ref),
            rate("b", -1.0, (-1.05, -0.95), predicted=-1.0),      # the same predicted slope as "a"
            rate("b", -1.0, (-1.05, -0.95), predicted=-1.0),      # a fit listed twice
            Fit("c: R(P)", X, ref[:, None] / 50 * np.array([0.95, 1.0, 1.05]), kind="bound", reference=ref,
                reference_label="bound (eq. 15)", ylabel="R")]
    fig = drawn(monkeypatch, Verdict("holds", "", fits, claim="toy.labels"), tmp_path)
    panels = {ax.get_ylabel(): legend_labels(ax) for ax in fig.axes}
    for labels in panels.values():
        assert labels and len(labels) == len(set(labels)), labels
        assert not any(label.strip().lower() == "reference" or label.endswith(": reference") for label in labels)
    y = panels["y"]
    assert "a — predicted slope -1" in y and "b — predicted slope -1" in y
    assert "a — exact reference curve" in y
    assert "a — fit, slope -1 [-1.1, -0.9], band [-1.2, -0.8]" in y
    bound = panels["R"]
    assert bound == ["c: R(P) — measured", "c: R(P) — bound (eq. 15), smallest slack ×47.6"]
    assert not any("slope" in label for label in bound)
    texts = [t.get_text() for t in fig.axes[1].texts]
    assert "slack ×47.6" in texts


def test_a_bound_that_varies_by_cell_judges_each_cell_against_its_own(monkeypatch, tmp_path):
    """A data-dependent bound (each seed its own): a cell above the per-x mean bound but
    under its own is no violation; the slack is the least room of any cell against its own
    bound, drawn to a tick at that bound; a cell above its own is crossed."""
    Y = np.tile([1.0, 2.0, 3.0], (len(X), 1))
    B = np.tile([1.5, 2.2, 3.3], (len(X), 1))  # per-x mean 2.33: the third seed is above it, under its own
    under = Fit("p", X, Y, kind="bound", reference=B, reference_label="proof's bound", ylabel="E")
    ax = drawn(monkeypatch, Verdict("holds", "", [under], claim="toy.own"), tmp_path).axes[0]
    assert legend_labels(ax) == ["p — measured", "p — proof's bound, smallest slack ×1.1"]
    assert max(ax.get_ylim()) >= 3.3  # the tick at that cell's own bound is inside the axes
    B[2, 1] = 1.9  # one cell above its own bound
    over = Fit("p", X, Y, kind="bound", reference=B, reference_label="proof's bound", ylabel="E")
    ax = drawn(monkeypatch, Verdict("fails", "", [over], claim="toy.own"), tmp_path).axes[0]
    assert "p — above the bound (1 of 12)" in legend_labels(ax)


def test_every_implementation_on_one_figure_against_the_prediction(monkeypatch, tmp_path):
    """conformance's figure of a rate claim: eight implementations, each its own colour and
    legend line with its status and slope; the prediction and the band drawn once; an n/a
    or a verdict with no judged slope left out."""
    figs = []
    monkeypatch.setattr(plots, "save_figure", lambda fig, outdir, name: figs.append((fig, name)) or [name])
    verdicts = {f"impl{i}": Verdict("holds" if i < 7 else "fails", "",
                                    [rate("m", -0.5 - i / 20, (-0.55 - i / 20, -0.45 - i / 20), predicted=-0.5,
                                          band=(-0.6, -0.4))], claim="toy.rate")
                for i in range(8)}
    verdicts["refused"] = Verdict("n/a", "unsupported: float32", [], claim="toy.rate")
    verdicts["no-slope"] = Verdict("fails", "raised", [], claim="toy.rate")
    assert plots.plot_implementations("toy.rate", verdicts, tmp_path) == ["toy.rate.implementations"]
    (fig, _), = figs
    labels = legend_labels(fig.axes[0])
    assert labels[0] == "impl0 (holds) — fit, slope -0.5 [-0.55, -0.45]"
    assert "impl7 (fails) — fit, slope -0.85 [-0.9, -0.8]" in labels
    assert labels[-2:] == ["tolerance band [-0.6, -0.4]", "predicted slope -0.5"]
    assert len(labels) == 10 and not any("refused" in t or "no-slope" in t for t in labels)
    colours = {tuple(line.get_color()) if not isinstance(line.get_color(), str) else line.get_color()
               for line in fig.axes[0].get_lines() if line.get_linestyle() == "-"}
    assert len(colours) >= 8
    assert plots.plot_implementations("toy.rate", {"refused": verdicts["refused"]}, tmp_path) == []


def test_zero_width_ci_is_a_line_not_a_band(monkeypatch, tmp_path):
    fig = drawn(monkeypatch, Verdict("holds", "", [rate("exact", -0.5, (-0.5, -0.5))], claim="toy.zero"),
                tmp_path)
    ax = fig.axes[0]
    assert not [c for c in ax.collections if isinstance(c, PolyCollection)]
    assert legend_labels(ax) == ["exact — fit, slope -0.5 (zero-width CI)"]
    fig = drawn(monkeypatch, Verdict("holds", "", [rate("noisy", -0.5, (-0.6, -0.4))], claim="toy.ci"), tmp_path)
    assert [c for c in fig.axes[0].collections if isinstance(c, PolyCollection)]


def test_seeds_that_agree_draw_bars_of_zero_length(monkeypatch, tmp_path):
    """Ten equal values average an ulp off them (0.3 * 10 / 10 = 0.3 - 5.6e-17): the bars are
    empty, not an error (sterge20.theta1's deterministic cells raised 'yerr' < 0)."""
    Y = np.array([[0.3] * 10, [1 / 3] * 10, [0.2] * 10, [0.1] * 10])
    fit = Fit("exact", X, Y, -0.5, (-0.5, -0.5), 1.0, kind="measured")
    fig = drawn(monkeypatch, Verdict("holds", "", [fit], claim="toy.equal"), tmp_path)
    assert legend_labels(fig.axes[0]) == ["exact — measured"]


def _colors_by_method(fig) -> dict:
    """{method: {colours of its fitted lines}} over every panel of ``fig``."""
    seen: dict = {}
    for ax in fig.axes:
        legend = ax.get_legend()
        for handle, text in zip(legend.legend_handles, legend.get_texts()):
            label = text.get_text()
            if " — fit, " in label:
                seen.setdefault(label.split(": ", 1)[0], set()).add(to_rgba(handle.get_color()))
    return seen


def test_a_method_keeps_its_colour_in_every_panel(monkeypatch, tmp_path):
    fits = [rate(f"line {k}: {q}", -0.5 - 0.1 * k, (-0.6 - 0.1 * k, -0.4 - 0.1 * k), ylabel=q)
            for q in ("λ*", "risk") for k in ((1, 2, 5) if q == "λ*" else (5, 2, 1, 6))]
    seen = _colors_by_method(drawn(monkeypatch, Verdict("holds", "", fits, claim="toy.colours"), tmp_path))
    assert set(seen) == {"line 1", "line 2", "line 5", "line 6"}
    assert all(len(colours) == 1 for colours in seen.values()), seen
    assert len({next(iter(c)) for c in seen.values()}) == 4  # and the methods differ


def test_table1_lines_keep_their_colours(monkeypatch, tmp_path):
    """bach13.table1 (ci), whose lines changed colour between its panels."""
    claim = registry.select(["bach13.table1"])
    verdict = evaluate(claim, "ci", jobs=1).verdicts["bach13.table1"]
    fig = drawn(monkeypatch, verdict, tmp_path)
    assert len(fig.axes) == 4
    seen = _colors_by_method(fig)
    assert set(seen) == {f"line {i}" for i in range(1, 7)}
    assert all(len(colours) == 1 for colours in seen.values()), seen
    for ax in fig.axes:
        labels = legend_labels(ax)
        assert len(labels) == len(set(labels)) and "reference" not in labels


@pytest.mark.parametrize("value, text", [
    (-0.27617732016620583, "-0.276"), (573.0, "573"), (1.046, "1.05"), (12345.6, "12300"), (1e-9, "1e-9"),
    (2.5e-5, "2.5e-5"), (1e6, "1e6"), (0.0, "0"), (30, "30"), (np.float64(0.5), "0.5"),
    (math.inf, "∞"), (-math.inf, "-∞"), (math.nan, "–"), (None, "–"), ("holds", "holds"),
    ([-0.27617732016620583, -0.17617732016620585], "[-0.276, -0.176]"), ((-math.inf, 0.05), "[-∞, 0.05]"),
])
def test_number(value, text):
    assert number(value) == text


def test_measured_vs_predicted_is_short():
    measured = {"slope": -0.23687, "slope_ci_low": -0.23881, "slope_ci_high": -0.23491, "octaves": 5.6582,
                "ratio_slope": -0.0107, "bound_excess": math.nan, "violations": 0}
    predicted = {"slope_band": [-0.27617732016620583, -0.17617732016620585], "slope_predicted": -0.22617,
                 "ratio_slope_band": [-math.inf, 0.05], "bound_excess_at_most": 0.0, "rate_at_most": 0.1}
    assert _pairs(measured, predicted) == [
        "slope: -0.237 [-0.239, -0.235] vs predicted -0.226, band [-0.276, -0.176]",
        "octaves: 5.66",
        "ratio_slope: -0.0107 vs band <= 0.05",
        "bound_excess: – vs <= 0",
        "violations: 0",
        "predicted: rate <= 0.1",
    ]


def test_a_claim_with_many_numbers_keeps_its_line_short_and_the_rest_in_its_section(tmp_path):
    """bach13.rank-rule measures about 90 numbers: its line at the glance is one line, its
    section shows the judged ones and a few more, the others folded, in both pages."""
    measured = {"max_ratio": 1.004, "slope": -0.5, "slope_ci_low": -0.6, "slope_ci_high": -0.4}
    measured.update({f"group {i} ratio": 1 + i / 1000 for i in range(90)})
    predicted = {"ratio_at_rule": "<= 1.01", "slope_band": [-0.7, -0.3]}
    shown, rest = _cell(measured, predicted)
    assert len(shown) == CELL_LINES and len(shown) + len(rest) == 2 + 90 + 1
    assert shown[:2] == ["max_ratio: 1", "slope: -0.5 [-0.6, -0.4] vs band [-0.7, -0.3]"]
    assert shown[-1] == "predicted: ratio_at_rule <= 1.01" and rest[0].startswith("group 5 ratio: ")
    v = Verdict("holds", "max ratio 1.004 (<= 1.01); slope -0.5 in band", [], measured, predicted, claim="toy.many")
    md, page = write_report([v], [], tmp_path, "ci", {}, {})
    text = md.read_text()
    row = next(line for line in text.splitlines() if line.startswith("| ✓ holds | [`toy.many`]"))
    assert "<br>" not in row and "max ratio 1.004 (<= 1.01) |" in row  # the summary's first clause
    assert "- slope: -0.5 [-0.6, -0.4] vs band [-0.7, -0.3]" in text
    assert "85 more measured numbers" in text and "group 89 ratio: 1.09" in text
    html = page.read_text()
    assert "85 more measured numbers" in html and html.count("group 89 ratio") == 1


def test_a_claims_table_goes_to_a_file_not_stdout(tmp_path, capfd):
    """hallgren21.table3 once printed its 80-line table among the verdicts; its twin
    table3-baselines writes its table the same way at a twentieth of the cost."""
    code = cli.main(["run", "hallgren21.table3-baselines", "--profile", "ci", "--out", str(tmp_path), "-j", "1",
                     "--no-progress"])
    out = capfd.readouterr().out.splitlines()
    assert code == 0
    assert len(out) == 3 and out[0].startswith("HOLDS") and "hallgren21.table3-baselines:" in out[0], out
    assert out[1].startswith("report: ") and out[2].startswith("ledger head ")
    table = tmp_path / "plots" / "hallgren21.table3-baselines.txt"
    assert len(table.read_text().splitlines()) > 10
    assert "plots/hallgren21.table3-baselines.txt" in (tmp_path / "report.md").read_text()


@pytest.mark.parametrize("claim, name, used, file", [
    ("bach13.fig1", "bach13_fig1_curves", (), "bach13.fig1.curves"),
    ("bach13.rank-rule", "bach13_rank-rule_ratios", (), "bach13.rank-rule.ratios"),
    ("bach13.rank-rule-gaussian", "bach13_rank-rule-gaussian_ratios", (), "bach13.rank-rule-gaussian.ratios"),
    ("bach13.pivoting", "bach13_pivoting_fig2", (), "bach13.pivoting.fig2"),
    ("ghashami16.digits", "ghashami16.digits.figure", {"ghashami16.digits"}, "ghashami16.digits.figure"),
    ("sterge20.digits", "sterge20.digits", (), "sterge20.digits"),  # its only figure: <claim>.png
    ("landmarks.rate", "landmarks.rate", {"landmarks.rate"}, "landmarks.rate.figure"),  # the fits hold <claim>.png
    ("hallgren21.thm3", "hallgren21.thm3-coverage", (), "hallgren21.thm3.coverage"),
    ("hallgren21.other", "hallgren21.table3", (), "hallgren21.other.table3"),  # another name keeps its part
    ("bach13.fig1[fault:x]", "bach13_fig1[fault:x]_curves", (), "bach13.fig1[fault_x].curves"),
    ("sterge20.digits[fault:x]", "sterge20.digits", (), "sterge20.digits[fault_x]"),  # a fixed name, a run's file
    ("toy.rate[mine]", "toy.rate.implementations", (), "toy.rate[mine].implementations"),
])
def test_figure_files_follow_one_rule(claim, name, used, file):
    """<claim>.png for the fits, <claim>.<panel>.png for a claim's own figure, whatever name its
    code gives it; each file is found again as its claim's, and no other claim's."""
    assert plots.figure_name(claim, name, set(used)) == file
    others = ["bach13.fig1", "bach13.rank-rule", "bach13.rank-rule-gaussian", "sterge20.digits", claim]
    assert plots.owner_of(file + ".png", others) == claim


def test_a_claims_own_figure_is_renamed_by_the_rule_when_drawn(tmp_path):
    """A figure function naming its file as bach13's did (``bach13_fig1_curves``) writes
    ``<claim>.curves.png``; one naming it the claim's id alone, beside the fits' ``<claim>.png``,
    writes ``<claim>.figure.png``; a planted fault's run writes its own files."""
    import dataclasses

    from kpca_suite.suites.claim import Verdict
    from tests import toy_claim

    def figure(results, verdict, outdir):
        plt = plots.pyplot()
        return (plots.save_figure(plt.figure(figsize=(2, 2)), outdir, verdict.claim.replace(".", "_") + "_curves")
                + plots.save_figure(plt.figure(figsize=(2, 2)), outdir, verdict.claim))

    claim = dataclasses.replace(toy_claim.TOY_RATE, figure=figure)
    for cid in ("toy.rate", "toy.rate[fault:slow]"):
        v = Verdict("holds", "", [rate("m", -0.5, (-0.6, -0.4))], claim=cid)
        with plots.vector_copies(True):
            paths, errors = plots.plot_claim(claim, v, [], tmp_path)
        own = plots.safe_name(cid)
        assert not errors and [p.name for p in paths] == [f"{own}.{x}" for x in (
            "png", "svg", "curves.png", "curves.svg", "figure.png", "figure.svg")]
        assert all(p.is_file() for p in paths)
        assert plots.files_of(cid, tmp_path) == [paths[i] for i in (0, 1, 2, 3, 4, 5)]
    assert plots.save_figure(plots.pyplot().figure(), tmp_path, "free_name")[0].name == "free_name.png"


@pytest.mark.parametrize("layout", ["constrained", "tight", "one-off tight_layout()", None])
def test_a_saved_figure_is_cropped_as_matplotlib_crops_it(layout, tmp_path):
    """save_figure's box (drawn first only under a layout engine that places the axes at draw
    time) gives the PNG matplotlib's own bbox_inches="tight", pad_inches=0.1 gives: without the
    draw a constrained figure would be cropped before its layout moved the labels."""
    from PIL import Image

    def figure():
        fig, axes = plots.pyplot().subplots(2, 2, figsize=(6, 4), layout=layout if layout in ("constrained", "tight")
                                            else None)
        for ax in axes.flat:
            ax.set_title("title")
            ax.set_xlabel("x label")
            ax.set_ylabel("a long label " * 3)
        fig.suptitle("suptitle")
        if layout == "one-off tight_layout()":
            fig.tight_layout()
        return fig

    ref = figure()
    ref.savefig(tmp_path / "ref.png", dpi=plots.DPI, bbox_inches="tight", pad_inches=0.1)
    plots.pyplot().close(ref)
    png, = plots.save_figure(figure(), tmp_path, "ours")
    assert Image.open(png).size == Image.open(tmp_path / "ref.png").size
