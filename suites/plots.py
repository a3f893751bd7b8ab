"""Rate-versus-size plots (matplotlib, Agg backend): one log-log figure per
claim from its :class:`~suites.registry.Verdict` fits, written as PNG and SVG.

For each :class:`~suites.registry.Fit`: the per-seed points (small,
translucent), the per-x mean with its min-max spread (error bars), the fitted
line ``exp(intercept) x^slope``, the slopes of its 95% CI drawn through the
centroid of the log-means (a shaded wedge), the predicted slope as a dashed
line anchored at the first mean, and the reference curve when set. Fits with
different axis labels go to separate panels. NaN, zero and negative values are
left out (log axes), never an error.
"""

from __future__ import annotations

import math
import re
import warnings
from pathlib import Path

import matplotlib

matplotlib.use("Agg", force=False)
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.ticker import NullFormatter  # noqa: E402

STATUS_COLORS = {"holds": "#1a7f37", "fails": "#cf222e", "inconclusive": "#9a6700"}


def safe_name(claim_id: str) -> str:
    """A file name for a claim id (``sterge20.cor42-poly`` stays as is)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", claim_id) or "claim"


def _fmt(v) -> str:
    try:
        v = float(v)
    except (TypeError, ValueError):
        return str(v)
    return f"{v:+.3f}" if math.isfinite(v) else "nan"


def fit_label(fit) -> str:
    """``label: slope -0.49 [-0.52, -0.47] vs predicted -0.50 (band [-0.6, -0.4])``."""
    lo, hi = (tuple(fit.ci) + (math.nan, math.nan))[:2]
    text = f"{fit.label}: slope {_fmt(fit.slope)} [{_fmt(lo)}, {_fmt(hi)}]"
    if fit.predicted is not None:
        text += f" vs predicted {_fmt(fit.predicted)}"
    if fit.band is not None:
        text += f" (band {band_text(fit.band)})"
    return text


def band_text(band) -> str:
    """``[-0.600, -0.350]``, or ``<= -0.350`` / ``>= -0.600`` for a one-sided band
    (its open end NaN or infinite)."""
    lo, hi = (float(b) for b in band)
    if not math.isfinite(lo):
        return f"<= {_fmt(hi)}"
    if not math.isfinite(hi):
        return f">= {_fmt(lo)}"
    return f"[{_fmt(lo)}, {_fmt(hi)}]"


def _as_xy(fit):
    x = np.asarray(fit.x, dtype=float).ravel()
    y = np.asarray(fit.y, dtype=float)
    if y.ndim == 1:
        y = y[:, None]
    elif y.ndim > 2 or (y.ndim == 2 and y.shape[0] != len(x) and y.shape[1] == len(x)):
        y = y.reshape(len(x), -1) if y.ndim > 2 else y.T
    return x, y


def _draw_fit(ax, fit, color):
    x, Y = _as_xy(fit)
    if len(x) == 0 or Y.shape[0] != len(x):
        return False
    Yp = np.where(np.isfinite(Y) & (Y > 0), Y, np.nan)
    xs_ok = np.isfinite(x) & (x > 0)
    # per-seed points
    px = np.repeat(x[:, None], Yp.shape[1], axis=1)
    keep = np.isfinite(Yp) & xs_ok[:, None]
    ax.scatter(px[keep], Yp[keep], s=8, alpha=0.3, color=color, linewidths=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        mean = np.nanmean(Yp, axis=1)
        lo, hi = np.nanmin(Yp, axis=1), np.nanmax(Yp, axis=1)
    ok = xs_ok & np.isfinite(mean) & (mean > 0)
    if not ok.any():
        return False
    xo, mo = x[ok], mean[ok]
    ax.errorbar(xo, mo, yerr=[mo - lo[ok], hi[ok] - mo], fmt="o", ms=4, color=color,
                capsize=2, lw=1, label=fit_label(fit))
    grid = np.geomspace(xo.min(), xo.max(), 50) if xo.min() < xo.max() else xo
    slope = float(fit.slope) if fit.slope is not None else math.nan
    if math.isfinite(slope) and math.isfinite(float(fit.intercept)):
        ax.plot(grid, np.exp(fit.intercept) * grid ** slope, color=color, lw=1.5)
    # CI wedge through the centroid of the log-means
    cx, cy = np.mean(np.log(xo)), np.mean(np.log(mo))
    ci = [float(c) for c in tuple(fit.ci)[:2]] if fit.ci is not None else []
    if len(ci) == 2 and all(math.isfinite(c) for c in ci):
        lines = [np.exp(cy + c * (np.log(grid) - cx)) for c in ci]
        ax.fill_between(grid, np.minimum(*lines), np.maximum(*lines), color=color, alpha=0.12, lw=0)
        for ln in lines:
            ax.plot(grid, ln, color=color, lw=0.6, alpha=0.6)
    if fit.predicted is not None and math.isfinite(float(fit.predicted)):
        ax.plot(grid, mo[0] * (grid / xo[0]) ** float(fit.predicted), "--", color=color, lw=1.2,
                alpha=0.9, label=f"predicted slope {_fmt(fit.predicted)}")
    if fit.reference is not None:
        ref = np.asarray(fit.reference, dtype=float).ravel()
        if ref.shape == x.shape:
            rk = xs_ok & np.isfinite(ref) & (ref > 0)
            if rk.any():
                ax.plot(x[rk], ref[rk], ":", color=color, lw=1.5, label=f"{fit.label}: reference")
    return True


def plot_fits(verdict, outdir) -> list:
    """Draw ``verdict.fits`` into ``outdir/<claim-id>.png`` and ``.svg``;
    returns the paths ([] when the verdict has no fits)."""
    fits = list(getattr(verdict, "fits", None) or [])
    if not fits:
        return []
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    groups: dict = {}
    for f in fits:
        groups.setdefault((getattr(f, "xlabel", "n"), getattr(f, "ylabel", "metric")), []).append(f)
    fig, axes = plt.subplots(1, len(groups), figsize=(6.4 * len(groups), 4.8), squeeze=False)
    colors = plt.rcParams["axes.prop_cycle"].by_key().get("color", ["C0"])
    k = 0
    for ax, ((xlabel, ylabel), group) in zip(axes[0], groups.items()):
        drawn = False
        for f in group:
            drawn |= bool(_draw_fit(ax, f, colors[k % len(colors)]))
            k += 1
        if drawn:
            ax.set_xscale("log")
            ax.set_yscale("log")
        else:
            ax.text(0.5, 0.5, "no finite positive values", ha="center", va="center",
                    transform=ax.transAxes)
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.grid(True, which="both", alpha=0.25)
        lo, hi = ax.get_xlim()
        if drawn and lo > 0 and hi / lo > 10:  # wide minor labels would overlap the decade labels
            ax.xaxis.set_minor_formatter(NullFormatter())
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.14), frameon=False)
    status = getattr(verdict, "status", "")
    fig.suptitle(f"{verdict.claim} — {status}", color=STATUS_COLORS.get(status, "black"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return save_figure(fig, outdir, safe_name(verdict.claim))


def save_figure(fig, outdir, name) -> list:
    """Write ``fig`` as ``outdir/name.png`` and ``.svg`` (the directory is made
    if missing), close it, and return the two paths."""
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    paths = [outdir / f"{name}.png", outdir / f"{name}.svg"]
    for path in paths:
        fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)
    return paths


def plot_claim(claim, verdict, results, outdir) -> tuple:
    """``plot_fits`` plus the claim's own ``figure(results, verdict, outdir)``
    when it has one. Returns ``(paths, errors)``: a failing drawing is
    reported, never fatal."""
    paths, errors = [], []
    try:
        paths += plot_fits(verdict, outdir)
    except Exception as e:  # noqa: BLE001
        errors.append(f"{verdict.claim}: plot failed: {type(e).__name__}: {e}")
        plt.close("all")
    fig_fn = getattr(claim, "figure", None)
    if fig_fn is not None:
        try:
            Path(outdir).mkdir(parents=True, exist_ok=True)
            paths += [Path(p) for p in (fig_fn(results, verdict, Path(outdir)) or [])]
        except Exception as e:  # noqa: BLE001
            errors.append(f"{verdict.claim}: figure failed: {type(e).__name__}: {e}")
            plt.close("all")
    return paths, errors
