"""Slope fits with a bootstrap confidence interval over seeds, and verdicts.

The suite's rule: a slope claim fits log(metric) against log(n) by least squares
over the per-n means of at least 5 seeds, across at least 5 octaves of n, with a
bootstrap 95% CI obtained by resampling the seeds (columns) with replacement; "holds" needs the CI inside the tolerance band,
"fails" a CI disjoint from it, "inconclusive" a CI straddling an edge.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kpca_suite.kernels.validation import check_array, check_positive, check_random_state


@dataclass(frozen=True)
class SlopeFit:
    """Least-squares line through the per-x means.

    Attributes
    ----------
    slope, intercept : float
        Of the fitted line (in log-log coordinates for :func:`fit_loglog`).
    ci : (float, float)
        Bootstrap 95% percentile interval of the slope.
    x : ndarray
        The abscissae as given.
    mean : ndarray
        Per-x mean over the available seeds (nanmean).
    """

    slope: float
    intercept: float
    ci: tuple
    x: np.ndarray
    mean: np.ndarray


def _check_xy(x, Y, log: bool):
    x = check_array(x, "x", ndim=1)
    if np.unique(x).size < 2:
        raise ValueError("x must hold at least 2 distinct values")
    Y = np.asarray(Y, dtype=np.float64)
    if Y.ndim == 1:
        Y = Y[:, None]
    if Y.ndim != 2 or Y.shape[0] != x.size or Y.shape[1] == 0:
        raise ValueError(f"Y must have shape (len(x), seeds) = ({x.size}, s), got {np.shape(Y)}")
    if np.isinf(Y).any():
        raise ValueError("Y contains inf (use NaN for a missing seed)")
    if np.isnan(Y).all(axis=1).any():
        raise ValueError("Y has a row with no value (every seed NaN)")
    if log:
        if (x <= 0).any():
            raise ValueError("x must be > 0 for a log-log fit")
        if (Y[~np.isnan(Y)] <= 0).any():
            raise ValueError("Y must be > 0 for a log-log fit")
    return x, Y


def _line_fits(u, Y, cols, log: bool):
    """Slopes and intercepts of the fits on per-x means of Y[:, cols[b]], one per row b.

    Rows of the mean that have no value in a resample get weight 0; a resample
    with fewer than 2 distinct abscissae left gives NaN.
    """
    Yb = Y[:, cols]                                  # (len(x), B, seeds)
    have = ~np.isnan(Yb)
    count = have.sum(axis=2)
    w = count > 0
    mean = np.divide(np.where(have, Yb, 0.0).sum(axis=2), count, out=np.ones(count.shape), where=w)
    v = np.log(mean) if log else mean
    with np.errstate(invalid="ignore", divide="ignore"):
        sw = w.sum(axis=0)
        mu = (w * u[:, None]).sum(axis=0) / sw
        mv = (w * v).sum(axis=0) / sw
        du = np.where(w, u[:, None] - mu, 0.0)
        sxx = (du**2).sum(axis=0)
        slope = np.where(sxx > 0, (du * (v - mv)).sum(axis=0) / sxx, np.nan)
    return slope, mv - slope * mu


def _fit(x, Y, log, n_boot, random_state) -> SlopeFit:
    x, Y = _check_xy(x, Y, log)
    n_boot = check_positive(n_boot, "n_boot", integer=True)
    rng = check_random_state(random_state)
    u = np.log(x) if log else x
    seeds = Y.shape[1]
    slope, intercept = _line_fits(u, Y, np.arange(seeds)[None, :], log)
    boot, _ = _line_fits(u, Y, rng.integers(0, seeds, size=(n_boot, seeds)), log)
    boot = boot[~np.isnan(boot)]
    lo, hi = np.percentile(boot, [2.5, 97.5]) if boot.size else (np.nan, np.nan)
    with np.errstate(all="ignore"):
        mean = np.nanmean(Y, axis=1)
    return SlopeFit(float(slope[0]), float(intercept[0]), (float(lo), float(hi)), x, mean)


def fit_loglog(x, Y, n_boot: int = 2000, random_state=0) -> SlopeFit:
    """Fit log(mean_s Y[:, s]) = intercept + slope * log(x), with a bootstrap CI over seeds.

    Parameters
    ----------
    x : array of shape (k,)
        Abscissae (n, m, t, ...), > 0, at least 2 distinct.
    Y : array of shape (k, seeds)
        Metric per abscissa and seed, > 0; NaN marks a missing seed (the mean is
        a nanmean). A 1-D Y is one seed: the bootstrap then has nothing to
        resample and the CI has zero width, so never judge a claim on it.
    n_boot : int
        Bootstrap replicates: columns resampled with replacement, the line refit
        on the per-x means; the CI is the 2.5 / 97.5 percentiles of the slopes.
    random_state : int or Generator
        Same inputs and seed give the same CI.
    """
    return _fit(x, Y, True, n_boot, random_state)


def fit_line(x, Y, n_boot: int = 2000, random_state=0) -> SlopeFit:
    """As :func:`fit_loglog` without the logs: mean_s Y[:, s] = intercept + slope * x.

    Used where the prediction is linear in a transformed abscissa, e.g.
    N_C(t) against ln(1/t) with slope 1/tau (Prop. A.2). Y may be <= 0.
    """
    return _fit(x, Y, False, n_boot, random_state)


def loglog_line(x, y) -> tuple:
    """(slope, intercept) of the least-squares line log y = slope log x + intercept
    through one deterministic curve (no seeds, no CI): a reference curve such as
    the exact R_{C,l}, or a measured time against n."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if x.shape != y.shape or x.ndim != 1 or len(x) < 2:
        raise ValueError(f"x and y must be 1-D of one length >= 2, got shapes {x.shape} and {y.shape}")
    if not (np.all(x > 0) and np.all(y > 0)):
        raise ValueError("a log-log line needs positive x and y")
    slope, intercept = np.polyfit(np.log(x), np.log(y), 1)
    return float(slope), float(intercept)


def verdict_from_ci(ci, band) -> str:
    """Return "holds" if ci lies inside band, "fails" if they are disjoint, else "inconclusive".

    Parameters
    ----------
    ci : (float, float)
        Confidence interval (lo <= hi). A NaN bound gives "inconclusive".
    band : (float, float)
        Tolerance band (lo <= hi); either end may be infinite for a one-sided claim.
    """
    c_lo, c_hi = (float(v) for v in ci)
    b_lo, b_hi = (float(v) for v in band)
    if np.isnan(b_lo) or np.isnan(b_hi) or b_lo > b_hi:
        raise ValueError(f"band must be (lo, hi) with lo <= hi, got {band!r}")
    if np.isnan(c_lo) or np.isnan(c_hi):
        return "inconclusive"
    if c_lo > c_hi:
        raise ValueError(f"ci must be (lo, hi) with lo <= hi, got {ci!r}")
    if b_lo <= c_lo and c_hi <= b_hi:
        return "holds"
    if c_hi < b_lo or c_lo > b_hi:
        return "fails"
    return "inconclusive"


def octaves(x) -> float:
    """log2(max(x) / min(x)): the span of a grid in octaves (a slope claim needs >= 5)."""
    x = check_array(x, "x", ndim=1)
    if (x <= 0).any():
        raise ValueError("x must be > 0")
    return float(np.log2(x.max() / x.min()))
