"""The plot of a claim's fits (matplotlib, Agg backend): one log-log figure per
claim from its :class:`~suites.claim.Verdict` fits, written as PNG (and SVG on request).
Fits with different axis labels go to separate panels; later fits are drawn
above earlier ones. What each :class:`~suites.claim.Fit` kind draws:

``rate``      the per-seed values (small, translucent dots), the per-x mean with
              its min-max spread over seeds (error bars), the fitted line
              ``exp(intercept) x^slope`` and its 95% CI as a shaded wedge through
              the centroid of the log-means (a CI of zero width, as for a
              deterministic curve, draws the line alone), the predicted slope as a
              dashed line through the first mean, and the reference curve dotted;
``bound``     the measured values joined by a line under the bound (dash-dotted),
              the smallest slack bound / measured of any seed annotated (an
              arrow where it occurs), and the per-seed values above the bound
              marked with a red cross;
``measured``  the per-x means joined by a line, with their spread.

Every line has a legend entry that says what it is ("... — fit, slope s [lo, hi]",
"... — predicted slope p", "... — exact reference curve", "... — bound (eq. 15),
smallest slack ×573"), and no label appears twice on an axes. A method (the part of a
fit's label before ``": "``) keeps one colour and marker in every panel of the
figure. Markers are hollow, so that curves that coincide stay visible, and tick
labels are plain numbers. NaN, zero and negative values are left out (log axes),
never an error.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import functools
import math
import re
import textwrap
import warnings
from pathlib import Path

import numpy as np

from .files import replacing

STATUS_COLORS = {"holds": "#1a7f37", "fails": "#cf222e", "inconclusive": "#9a6700"}
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*", "<", ">")
VIOLATION_COLOR = "#cf222e"
LEGEND_WIDTH = 90  # characters of a legend line: two panels side by side keep their legends apart


def safe_name(claim_id: str) -> str:
    """The file name of a claim id: the id, each run of characters other than letters, digits,
    ``.``, ``_``, ``-``, ``[`` and ``]`` made one ``_`` (``sterge20.cor42-poly`` stays as is, a planted
    fault's run ``sterge20.identities[fault:unwhitened]`` is ``sterge20.identities[fault_unwhitened]``)."""
    return re.sub(r"[^A-Za-z0-9._\[\]-]+", "_", claim_id) or "claim"


# ---------------------------------------------------------------------- the names of figure files
#
# One rule: a claim's figure files are ``<claim>.png`` (its fits, :func:`plot_fits`) and
# ``<claim>.<panel>.png`` (its own figure, conformance's overlay ``<claim>.implementations``),
# each with its ``.svg`` when asked for, ``<claim>`` being :func:`safe_name` of the claim id and ``<panel>``
# letters, digits, ``_`` and ``-``.
# A claim's own ``figure`` function may name its file as it likes (``bach13_fig1_curves``,
# ``sterge20.digits``): :func:`save_figure`, called while :func:`plot_claim` draws that claim, renames
# it by the rule (:func:`figure_name`), so the paper modules need not know it.

#: The panel of a claim's own figure whose name gives none (the claim's id alone) when ``<claim>.png``
#: already holds its fits.
OWN_FIGURE = "figure"

_DRAWING = contextvars.ContextVar("drawing", default=None)  # (claim id, names used) while plot_claim draws

#: The formats :func:`save_figure` writes: PNG always (the report shows it), SVG on request
#: (``--svg``, for papers). An SVG draws the whole figure once more, about a third of the
#: plotting time of the main job, so it is not written by default.
FORMATS = ("png", "svg")
_SVG = contextvars.ContextVar("svg", default=False)


@contextlib.contextmanager
def vector_copies(enabled: bool):
    """Within it, :func:`save_figure` also writes an SVG beside each PNG when ``enabled``
    (processes forked inside inherit the choice)."""
    token = _SVG.set(bool(enabled))
    try:
        yield
    finally:
        _SVG.reset(token)


def _panel(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", text).strip("-_")


def figure_name(claim_id: str, name: str, used=()) -> str:
    """The file name (no extension) by the rule above of the figure that the code of claim
    ``claim_id`` calls ``name``: the part of ``name`` after the claim's id (as given, or with its
    dots made ``_``, of the run or of its registered claim) is the panel; a name of another form
    keeps what follows the paper's key. A name already ``used`` (``<claim>`` itself when the fits
    hold it) gets the panel :data:`OWN_FIGURE`, then a number."""
    base = claim_id.split("[", 1)[0]
    own = safe_name(claim_id)
    forms = {f for c in (claim_id, own, base, safe_name(base)) for f in (c, c.replace(".", "_"))}
    text = str(name)
    prefix = next((f for f in sorted(forms, key=len, reverse=True) if text.startswith(f)), None)
    if prefix is not None:
        rest = text[len(prefix):]
    else:
        paper = base.split(".", 1)[0]
        rest = text[len(paper) + 1:] if text[:len(paper) + 1] in (paper + ".", paper + "_") else text
    panel = _panel(rest)
    out = f"{own}.{panel}" if panel else own
    k = 1
    while out in used:
        k += 1
        out = f"{own}.{OWN_FIGURE}" + (f"-{k - 1}" if k > 2 else "")
    return out


def owner_of(file_name: str, claim_ids) -> "str | None":
    """The claim (of ``claim_ids``) whose figure file ``file_name`` is by the rule above
    (``<claim>.<ext>`` or ``<claim>.<panel>.<ext>``, the longest claim that fits), or None."""
    stem = Path(file_name).stem
    best = None
    for cid in claim_ids:
        own = safe_name(cid)
        if stem == own or (stem.startswith(own + ".") and re.fullmatch(r"[A-Za-z0-9_-]+", stem[len(own) + 1:])):
            if best is None or len(own) > len(safe_name(best)):
                best = cid
    return best


def files_of(claim_id: str, directory) -> list:
    """The files of ``claim_id`` in ``directory`` by the rule above: ``<claim>.*`` first, then
    each panel's, PNG before SVG."""
    directory = Path(directory)
    own = safe_name(claim_id)
    if not directory.is_dir():
        return []
    found = [p for p in directory.iterdir() if p.is_file() and not p.name.startswith(".")
             and owner_of(p.name, [claim_id]) == claim_id]
    return sorted(found, key=lambda p: (p.stem != own, p.stem, p.suffix.lower() != ".png", p.suffix))


def number(v) -> str:
    """A number as a reader wants it, in the report and in the legends: three
    significant digits (``-0.237``, ``573``, ``12300``, ``1.2e-9``), integers whole, ``∞`` /
    ``-∞`` for infinities, ``–`` for NaN or None, a list or pair as ``[a, b]``;
    text is returned unchanged."""
    if v is None:
        return "–"
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, str):
        return v
    if isinstance(v, (list, tuple, np.ndarray)):
        return "[" + ", ".join(number(x) for x in np.asarray(v, dtype=object).ravel()) + "]"
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, int):
        return str(v)
    if math.isnan(v):
        return "–"
    if math.isinf(v):
        return "∞" if v > 0 else "-∞"
    if v == 0:
        return "0"
    text = f"{v:.3g}"
    if "e" in text and 1 <= abs(v) < 1e5:  # 1000, 12300: whole numbers read better than 1e3, 1.23e4
        return f"{float(text):.0f}"
    return re.sub(r"e([+-])0*(\d)", lambda m: "e" + m.group(1).replace("+", "") + m.group(2), text)


def band_text(band) -> str:
    """``[-0.6, -0.35]``, or ``<= -0.35`` / ``>= -0.6`` for a one-sided band (its
    open end NaN or infinite)."""
    lo, hi = (float(b) for b in band)
    if not math.isfinite(lo):
        return f"<= {number(hi)}"
    if not math.isfinite(hi):
        return f">= {number(lo)}"
    return f"[{number(lo)}, {number(hi)}]"


def _ci(fit) -> tuple:
    lo, hi = (tuple(fit.ci if fit.ci is not None else ()) + (math.nan, math.nan))[:2]
    return float(lo), float(hi)


def _zero_width(fit) -> bool:
    lo, hi = _ci(fit)
    return math.isfinite(lo) and lo == hi


def slope_text(fit) -> str:
    """``slope -0.237 [-0.239, -0.235]``, or ``slope -0.418 (zero-width CI)`` for a
    deterministic curve (its CI is the point estimate)."""
    lo, hi = _ci(fit)
    if _zero_width(fit):
        return f"slope {number(fit.slope)} (zero-width CI)"
    return f"slope {number(fit.slope)} [{number(lo)}, {number(hi)}]"


def pyplot():
    """matplotlib.pyplot on the Agg backend, imported on first use (it costs about a
    second: ``kpca-suite list`` and the usage errors never pay it)."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt
    return plt


def method_of(fit) -> str:
    """The method a fit belongs to: its label up to the first ``": "``."""
    return str(fit.label).split(": ", 1)[0]


def method_styles(methods) -> dict:
    """``{method: {"color", "marker"}}`` for one figure, in the order the method
    names first appear: each method one colour (tab10, tab20 beyond ten methods)
    and one marker, the same in every panel."""
    methods = list(dict.fromkeys(methods))
    cmap = pyplot().get_cmap("tab10" if len(methods) <= 10 else "tab20")
    return {m: {"color": cmap(i % cmap.N), "marker": MARKERS[i % len(MARKERS)]} for i, m in enumerate(methods)}


def _positive_means(Y) -> np.ndarray:
    """Each row's mean over its positive finite values (NaN for a row with none): the
    per-x mean a log axis can draw."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmean(np.where(np.isfinite(Y) & (Y > 0), Y, np.nan), axis=1)


def _reference_curve(fit) -> np.ndarray:
    """The reference of ``fit`` per x: as given, or the per-x mean of a per-cell one."""
    ref = np.asarray(fit.reference, dtype=float)
    return _positive_means(ref) if ref.ndim == 2 else ref.ravel()


def _cell_bounds(fit):
    """(x, Y, B): the measured values and, for each, its own bound (a per-x bound repeated
    over the seeds); None when the shapes do not match."""
    x, Y = _as_xy(fit)
    if fit.reference is None or Y.shape[0] != len(x):
        return None
    ref = np.asarray(fit.reference, dtype=float)
    if ref.shape == Y.shape:
        return x, Y, ref
    ref = ref.ravel()
    return (x, Y, np.repeat(ref[:, None], Y.shape[1], axis=1)) if ref.shape == x.shape else None


def _slack(fit):
    """(x, value, its bound, bound / value) of the cell whose ratio is smallest (the
    smallest slack of any seed, each against its own bound), or None when no cell has a
    positive finite value and bound."""
    cells = _cell_bounds(fit)
    if cells is None:
        return None
    x, Y, B = cells
    ok = np.isfinite(Y) & (Y > 0) & np.isfinite(B) & (B > 0) & (np.isfinite(x) & (x > 0))[:, None]
    if not ok.any():
        return None
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(ok, B / Y, np.inf)
    i, j = np.unravel_index(np.argmin(ratio), ratio.shape)
    return x[i], Y[i, j], B[i, j], ratio[i, j]


def fit_label(fit) -> str:
    """One line for the report: ``label — slope s [lo, hi] vs predicted p, band B``
    (rate), ``label — under bound (eq. 15), smallest slack ×573`` (bound: the
    smallest bound / measured over every x and seed), or ``label — measured``."""
    if fit.kind == "bound":
        s = _slack(fit)
        slack = f", smallest slack ×{number(s[3])} (bound / measured, any seed)" if s else ""
        return f"{fit.label} — under {fit.reference_label}{slack}"
    if fit.kind == "measured":
        return f"{fit.label} — measured"
    text = f"{fit.label} — {slope_text(fit)}"
    if fit.predicted is not None:
        text += f" vs predicted {number(fit.predicted)}"
    if fit.band is not None:
        text += f", band {band_text(fit.band)}"
    return text


@functools.lru_cache(maxsize=None)
def _plain_log():
    """The class of the log-axis tick formatter (matplotlib is imported on first use)."""
    from matplotlib.ticker import Formatter

    class PlainLog(Formatter):
        """The ticks a log axis labels, written by :func:`number` (``0.004``, ``1e-5``)
        instead of ``4 × 10^-3``: shorter, so that labels do not run into the axis label."""

        def __init__(self, inner):
            self.inner = inner

        def __call__(self, x, pos=None):
            return number(float(x)) if self.inner(x, pos) else ""

        def set_locs(self, locs):
            self.inner.set_locs(locs)

    return PlainLog


def _as_xy(fit):
    x = np.asarray(fit.x, dtype=float).ravel()
    y = np.asarray(fit.y, dtype=float)
    if y.ndim == 1:
        y = y[:, None]
    elif y.ndim > 2 or (y.ndim == 2 and y.shape[0] != len(x) and y.shape[1] == len(x)):
        y = y.reshape(len(x), -1) if y.ndim > 2 else y.T
    return x, y


def _draw_measured(ax, fit, style, z, joined):
    """The per-seed dots, and the per-x means (min-max bars when there are several
    seeds), joined by a line when ``joined``. Returns (xo, means, handle) or None."""
    x, Y = _as_xy(fit)
    if len(x) == 0 or Y.shape[0] != len(x):
        return None
    Yp = np.where(np.isfinite(Y) & (Y > 0), Y, np.nan)
    xs_ok = np.isfinite(x) & (x > 0)
    color, marker = style["color"], style["marker"]
    if Yp.shape[1] > 1:
        px = np.repeat(x[:, None], Yp.shape[1], axis=1)
        keep = np.isfinite(Yp) & xs_ok[:, None]
        ax.scatter(px[keep], Yp[keep], s=8, alpha=0.3, color=color, linewidths=0, zorder=z)
    mean = _positive_means(Yp)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        lo, hi = np.nanmin(Yp, axis=1), np.nanmax(Yp, axis=1)
    ok = xs_ok & np.isfinite(mean) & (mean > 0)
    if not ok.any():
        return None
    xo, mo = x[ok], mean[ok]
    ls = "-" if joined else "none"
    look = dict(marker=marker, ls=ls, ms=5, mfc="none", mew=1.2, color=color, lw=1.2, zorder=z)
    if Yp.shape[1] > 1:
        # the mean of equal values can sit an ulp outside them (ten 0.3s average 0.3 - 5.6e-17)
        bars = np.clip([mo - lo[ok], hi[ok] - mo], 0.0, None)
        handle = ax.errorbar(xo, mo, yerr=bars, capsize=2, **look)
    else:
        (handle,) = ax.plot(xo, mo, **look)
    return xo, mo, handle


def _reference_line(ax, fit, style, z, ls):
    """The reference curve of ``fit`` on its x (positive finite values), or None."""
    x, _ = _as_xy(fit)
    ref = _reference_curve(fit)
    if ref.shape != x.shape:
        return None
    keep = np.isfinite(x) & (x > 0) & np.isfinite(ref) & (ref > 0)
    if not keep.any():
        return None
    (line,) = ax.plot(x[keep], ref[keep], ls, color=style["color"], lw=1.5, zorder=z)
    return line


def _draw_rate(ax, fit, style, z, slot) -> list:
    """Measured values, the fitted line with its CI wedge, the predicted slope and
    the reference curve; returns the legend entries [(handle, label)]."""
    drawn = _draw_measured(ax, fit, style, z, joined=False)
    if drawn is None:
        return []
    xo, mo, handle = drawn
    color = style["color"]
    entries = []
    grid = np.geomspace(xo.min(), xo.max(), 50) if xo.min() < xo.max() else xo
    slope = float(fit.slope) if fit.slope is not None else math.nan
    if math.isfinite(slope) and math.isfinite(float(fit.intercept)):
        (line,) = ax.plot(grid, np.exp(fit.intercept) * grid ** slope, color=color, lw=1.5, zorder=z)
        label = f"{fit.label} — fit, {slope_text(fit)}"
        if fit.band is not None:
            label += f", band {band_text(fit.band)}"
        entries.append(((handle, line), label))
    else:
        entries.append((handle, f"{fit.label} — measured (no finite fit)"))
    lo, hi = _ci(fit)
    if math.isfinite(lo) and math.isfinite(hi) and lo != hi:
        cx, cy = np.mean(np.log(xo)), np.mean(np.log(mo))
        lines = [np.exp(cy + c * (np.log(grid) - cx)) for c in (lo, hi)]
        ax.fill_between(grid, np.minimum(*lines), np.maximum(*lines), color=color, alpha=0.12, lw=0, zorder=z - 0.5)
    if fit.predicted is not None and math.isfinite(float(fit.predicted)):
        (pred,) = ax.plot(grid, mo[0] * (grid / xo[0]) ** float(fit.predicted), "--", color=color, lw=1.2,
                          alpha=0.9, zorder=z)
        entries.append((pred, f"{fit.label} — predicted slope {number(float(fit.predicted))}"))
    if fit.reference is not None:
        ref = _reference_line(ax, fit, style, z, ":")
        if ref is not None:
            entries.append((ref, f"{fit.label} — {fit.reference_label}"))
    return entries


def _draw_bound(ax, fit, style, z, slot) -> list:
    """Measured values under the bound (a per-cell bound drawn as its per-x mean),
    the smallest slack annotated (an arrow from the cell with the least room to its
    own bound, marked with a tick; its text shifted down by ``slot`` lines so that
    two bounds of one panel stay legible) and the cells above their own bound
    crossed; returns the legend entries."""
    drawn = _draw_measured(ax, fit, style, z, joined=True)
    if drawn is None:
        return []
    entries = [(drawn[2], f"{fit.label} — measured")]
    if fit.reference is None:
        return entries
    line = _reference_line(ax, fit, style, z, "-.")
    if line is None:
        return entries
    s = _slack(fit)
    slack = f", smallest slack ×{number(s[3])}" if s else ""
    entries.append((line, f"{fit.label} — {fit.reference_label}{slack}"))
    if s:
        xs, top, bound, ratio = s
        ax.plot([xs], [bound], marker="_", ms=10, mew=1.5, color=style["color"], zorder=z)  # that cell's own bound
        ax.annotate("", xy=(xs, bound), xytext=(xs, top), zorder=z,
                    arrowprops=dict(arrowstyle="<->", color=style["color"], lw=0.8, shrinkA=0, shrinkB=0))
        last = xs >= np.nanmax(np.asarray(fit.x, dtype=float))
        ax.annotate(f"slack ×{number(ratio)}", xy=(xs, math.sqrt(top * bound)), xytext=(-4 if last else 4, -11 * slot),
                    textcoords="offset points", ha="right" if last else "left", va="center", fontsize=8,
                    color=style["color"], zorder=z + 0.5, bbox=dict(fc="white", ec="none", alpha=0.8, pad=1))
    cells = _cell_bounds(fit)
    if cells is None:
        return entries
    x, Y, B = cells
    over = np.isfinite(Y) & (Y > 0) & (Y > B) & (x > 0)[:, None]
    if over.any():
        px = np.repeat(x[:, None], Y.shape[1], axis=1)
        cross = ax.scatter(px[over], Y[over], marker="x", s=30, color=VIOLATION_COLOR, zorder=z + 0.5)
        entries.append((cross, f"{fit.label} — above the bound ({int(over.sum())} of {int(np.isfinite(Y).sum())})"))
    return entries


def _draw_curve(ax, fit, style, z, slot) -> list:
    """The per-x means joined by a line, with their spread; returns the legend entries."""
    drawn = _draw_measured(ax, fit, style, z, joined=True)
    return [] if drawn is None else [(drawn[2], f"{fit.label} — measured")]


DRAW = {"rate": _draw_rate, "bound": _draw_bound, "measured": _draw_curve}


def plot_fits(verdict, outdir) -> list:
    """Draw ``verdict.fits`` (see the module docstring for what each kind draws)
    into ``outdir/<claim-id>.png`` (:func:`save_figure`): one log-log panel per (xlabel,
    ylabel), the legend under each panel. Returns the paths ([] when the verdict
    has no fits)."""
    fits = list(getattr(verdict, "fits", None) or [])
    if not fits:
        return []
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    groups: dict = {}
    for f in fits:
        groups.setdefault((getattr(f, "xlabel", "n"), getattr(f, "ylabel", "metric")), []).append(f)
    from matplotlib.ticker import NullFormatter

    PlainLog = _plain_log()
    fig, axes = pyplot().subplots(1, len(groups), figsize=(6.4 * len(groups), 4.8), squeeze=False)
    styles = method_styles(method_of(f) for f in fits)
    order = {id(f): i for i, f in enumerate(fits)}
    several_seeds = any(_as_xy(f)[1].shape[1] > 1 for f in fits)
    for ax, ((xlabel, ylabel), group) in zip(axes[0], groups.items()):
        entries = []
        for i, f in enumerate(group):
            slot = sum(g.kind == f.kind for g in group[:i])
            entries += DRAW[f.kind](ax, f, styles[method_of(f)], 2 + order[id(f)], slot)
        if entries:
            ax.set_xscale("log")
            ax.set_yscale("log")
            for axis in (ax.xaxis, ax.yaxis):
                axis.set_major_formatter(PlainLog(axis.get_major_formatter()))
                axis.set_minor_formatter(PlainLog(axis.get_minor_formatter()))
        else:
            ax.text(0.5, 0.5, "no finite positive values", ha="center", va="center",
                    transform=ax.transAxes)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.grid(True, which="both", alpha=0.25)
        lo, hi = ax.get_xlim()
        if entries and lo > 0 and hi / lo > 10:  # wide minor labels would overlap the decade labels
            ax.xaxis.set_minor_formatter(NullFormatter())
        legend = {}
        for handle, label in entries:  # a label twice (two fits of one label) gets one entry
            legend.setdefault(label, handle)
        if legend:  # long labels (another implementation's name in front) wrap within the panel
            ax.legend(list(legend.values()), [textwrap.fill(label, LEGEND_WIDTH) for label in legend], fontsize=7,
                      loc="upper center", bbox_to_anchor=(0.5, -0.14), frameon=False)
    status = getattr(verdict, "status", "")
    fig.suptitle(f"{verdict.claim} — {status}", color=STATUS_COLORS.get(status, "black"))
    if several_seeds:
        fig.text(0.5, 0.93, "markers: mean over seeds, bars: min–max, dots: single seeds", ha="center",
                 fontsize=8, color="0.35")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return save_figure(fig, outdir, safe_name(verdict.claim))


#: Sideways shift of consecutive implementations' markers in :func:`plot_implementations` (a factor in x).
DODGE = 1.025


def plot_implementations(claim_id: str, verdicts: dict, outdir) -> list:
    """One log-log figure of a rate claim with every implementation that got a verdict
    (``verdicts``: name -> Verdict): each one's judged curve (per-x means, min-max bars,
    the fitted line ``y = e^b x^s`` and its CI wedge) in its own colour, labelled with
    its status and slope, and once the prediction: the predicted slope as a dashed line
    and the tolerance band as a grey wedge, both through the first implementation's first
    mean. Written as ``outdir/<claim>.implementations.png`` (:func:`save_figure`); returns the paths,
    or [] when no verdict has a judged slope."""
    judged = [(name, v, v.judged_slope()) for name, v in verdicts.items() if v.status != "n/a"]
    judged = [(name, v, fit) for name, v, fit in judged if fit is not None]
    if not judged:
        return []
    from matplotlib.ticker import NullFormatter

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7.2, 5.4))
    styles = method_styles(name for name, _, _ in judged)
    entries, anchor = [], None
    for z, (name, v, fit) in enumerate(judged):
        shift = DODGE ** (z - (len(judged) - 1) / 2)  # markers side by side, not on top of each other
        plain = dataclasses.replace(fit, label=f"{name} ({v.status})", predicted=None, reference=None, band=None,
                                    x=np.asarray(fit.x, dtype=float) * shift)
        drawn = _draw_rate(ax, plain, styles[name], 2 + z, 0)
        entries += drawn
        if drawn and anchor is None:
            x, Y = _as_xy(fit)
            mean = _positive_means(Y)
            ok = np.isfinite(mean) & np.isfinite(x) & (x > 0)
            if ok.any():
                anchor = (fit, x[ok], mean[ok])
    if anchor is not None:
        fit, x, mean = anchor
        grid = np.geomspace(x.min(), x.max(), 50) if x.min() < x.max() else x
        if fit.band is not None:
            lo, hi = (float(b) for b in fit.band)
            ends = [mean[0] * (grid / x[0]) ** b for b in (lo, hi) if math.isfinite(b)]
            if len(ends) == 2:
                wedge = ax.fill_between(grid, np.minimum(*ends), np.maximum(*ends), color="0.5", alpha=0.15, lw=0,
                                        zorder=1)
                entries.append((wedge, f"tolerance band {band_text(fit.band)}"))
            elif ends:  # a one-sided band: its finite edge
                (edge,) = ax.plot(grid, ends[0], ":", color="0.3", lw=1.4, zorder=1.5)
                entries.append((edge, f"tolerance band {band_text(fit.band)}: its finite edge"))
        if fit.predicted is not None and math.isfinite(float(fit.predicted)):
            (pred,) = ax.plot(grid, mean[0] * (grid / x[0]) ** float(fit.predicted), "--", color="black", lw=1.4,
                              zorder=1.5)
            entries.append((pred, f"predicted slope {number(float(fit.predicted))}"))
    fit0 = judged[0][2]
    ax.set_xscale("log")
    ax.set_yscale("log")
    PlainLog = _plain_log()
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_formatter(PlainLog(axis.get_major_formatter()))
        axis.set_minor_formatter(PlainLog(axis.get_minor_formatter()))
    lo, hi = ax.get_xlim()
    if lo > 0 and hi / lo > 10:
        ax.xaxis.set_minor_formatter(NullFormatter())
    ax.set_xlabel(getattr(fit0, "xlabel", "n"))
    ax.set_ylabel(getattr(fit0, "ylabel", "metric"))
    ax.grid(True, which="both", alpha=0.25)
    legend = {}
    for handle, label in entries:
        legend.setdefault(label, handle)
    ax.legend(list(legend.values()), [textwrap.fill(label, LEGEND_WIDTH) for label in legend], fontsize=7,
              loc="upper center", bbox_to_anchor=(0.5, -0.13), frameon=False, ncol=1)
    ax.set_title(f"{claim_id}: {len(judged)} implementation(s) against the predicted rate\n"
                 f"(markers shifted sideways by up to ×{number(DODGE ** ((len(judged) - 1) / 2))} in n to keep them "
                 "apart; each line is fitted at the true n)", fontsize=9)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return save_figure(fig, outdir, f"{safe_name(claim_id)}.implementations")


#: Resolution of the PNG files (dots per inch).
DPI = 120


def save_figure(fig, outdir, name) -> list:
    """Write ``fig`` as ``outdir/name.png``, and ``.svg`` within :func:`vector_copies`
    (the directory is made if missing), close it, and return the paths written. A file of the
    other format left by an earlier drawing is removed, so that no figure is older than its
    sibling. Called while :func:`plot_claim` draws a claim's own figure, ``name`` is first
    made the rule's (:func:`figure_name`).

    Both files are cropped to one tight bounding box (everything drawn, padded by
    0.1 inch), computed once here: ``bbox_inches="tight"`` would lay the figure out
    again for each file before drawing it, and the plots were about a tenth of the
    quick profile's time. The box needs no draw before it unless a layout engine
    (constrained or tight layout) places the axes at draw time: our figures call
    ``tight_layout()`` once, so a draw here only repeated the work (a quarter of the
    plotting time, with the same boxes to the bit for every figure of a quick run)."""
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    drawing = _DRAWING.get()
    if drawing is not None:
        claim_id, used = drawing
        name = figure_name(claim_id, name, used)
        used.add(name)
    formats = FORMATS if _SVG.get() else FORMATS[:1]
    paths = [outdir / f"{name}.{fmt}" for fmt in formats]
    for fmt in FORMATS[len(formats):]:
        (outdir / f"{name}.{fmt}").unlink(missing_ok=True)
    fig.set_dpi(DPI)
    from matplotlib.layout_engine import PlaceHolderLayoutEngine

    engine = fig.get_layout_engine()  # a one-off tight_layout() leaves a placeholder, which places nothing
    if engine is not None and not isinstance(engine, PlaceHolderLayoutEngine):
        fig.draw_without_rendering()
    bbox = fig.get_tightbbox(fig.canvas.get_renderer()).padded(0.1)
    for path in paths:
        with replacing(path) as tmp:
            fig.savefig(tmp, dpi=DPI, bbox_inches=bbox, format=path.suffix[1:])
    pyplot().close(fig)
    return paths


def plot_claim(claim, verdict, results, outdir) -> tuple:
    """``plot_fits`` plus the claim's own ``figure(results, verdict, outdir)``
    when it has one, its files named by the rule (``<claim>.<panel>``, :func:`figure_name`).
    Returns ``(paths, errors)``: a failing drawing is reported, never fatal."""
    paths, errors = [], []
    try:
        paths += plot_fits(verdict, outdir)
    except OSError:  # a full or read-only disk: no figure can be written, the caller stops
        raise
    except Exception as e:  # noqa: BLE001
        errors.append(f"{verdict.claim}: plot failed: {type(e).__name__}: {e}")
        pyplot().close("all")
    fig_fn = getattr(claim, "figure", None)
    if fig_fn is not None:
        token = _DRAWING.set((verdict.claim, {p.stem for p in paths}))
        try:
            Path(outdir).mkdir(parents=True, exist_ok=True)
            paths += [Path(p) for p in (fig_fn(results, verdict, Path(outdir)) or [])]
        except OSError:
            raise
        except Exception as e:  # noqa: BLE001
            errors.append(f"{verdict.claim}: figure failed: {type(e).__name__}: {e}")
            pyplot().close("all")
        finally:
            _DRAWING.reset(token)
    return paths, errors
