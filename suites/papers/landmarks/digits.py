"""landmarks.digits: the landmark rules on scikit-learn's digits."""

from __future__ import annotations

import functools

import numpy as np

from kpca_suite.kernels import Kernel, median_gamma

from ...claim import Cell, CellList, Claim, PerProfile, Tolerance
from ...judging import NoWorseThanBaseline
from ._common import BASE, ESTIMATORS, MARGIN, STRATEGIES, _faults, _m_sweep, _ratio_figure, _select, fit_nystrom


@functools.lru_cache(maxsize=1)
def _digits_rows() -> np.ndarray:
    """scikit-learn's digits, read once per process (reading the file costs more
    than a small cell), read-only."""
    from ...datasets import load_digits_data

    X, _ = load_digits_data()
    X.setflags(write=False)
    return X


@functools.lru_cache(maxsize=8)
def _digits_sample(claim, n, seed, scale):
    """The n rows of a seed (from the cell's data stream, which depends on the claim,
    seed and n only) and their median-heuristic gamma: shared by the cells of every
    strategy and m of that seed in a process, since the bandwidth costs more than
    a small cell."""
    X_all = _digits_rows()
    rows = np.sort(Cell(claim, "", n, seed).rng().choice(len(X_all), size=n, replace=False))
    X = X_all[rows]
    return X, median_gamma(X, scale)


def digits_experiment(cell: Cell, estimators) -> dict:
    """One strategy at one m on n rows of scikit-learn's digits (a uniform subset
    drawn from the cell's data stream; all 1797 rows at n = 1797): the in-sample
    error of the rank-l Nyström approximation, eq. (19) of Sterge et al. 2020,
    R_hat(l) = (1/n) tr K - sum_{j <= l} lambda_hat_{j,m}; Gaussian kernel with the
    median heuristic gamma = 1 / median ||x - y||^2 (``median_gamma(X, 1.0)``)."""
    X, gamma = _digits_sample(cell.claim, cell.n, cell.seed, cell.p["scale"])
    X = X.copy()
    kernel = Kernel("gaussian", gamma=gamma)
    idx = _select(cell, estimators, X, kernel)
    est = fit_nystrom(estimators["nystrom"], cell.p["ell"], kernel, X, idx)
    R = float(est.trace_ - np.sum(est.eigenvalues_))
    return {"R": R, "m_eff": float(len(idx)), "k": float(est.n_components)}


DIGITS_L = 10


DIGITS_MS = (16, 32, 64, 128, 256)


DIGITS_SCALE = 1.0


def _digits_grid(n, seeds, ms=DIGITS_MS) -> CellList:
    params = dict(ell=DIGITS_L, scale=DIGITS_SCALE)
    return _m_sweep(n, ms, seeds, params, f"digits, l = {DIGITS_L}, ")


def digits_figure(results, verdict, outdir):
    return _ratio_figure(results, verdict, outdir, "in-sample error R_hat(l)")


CLAIMS = [
    Claim(
        id="landmarks.digits",
        source="comparison study on real data; Sterge et al. 2020 Sec. 5 (in-sample error, eq. (19))",
        statement="On scikit-learn's digits every rule's in-sample Nyström error falls with m, and none is "
                  "significantly worse than uniform sampling by more than 10%",
        prediction=f"seed-mean R_hat(l) falls at each doubling of m; the 95% CI of R_strategy / R_uniform never "
                   f"lies above {1 + MARGIN:.2f}; the verdict reports where each rule beats or loses to uniform",
        data="scikit-learn digits (1797 x 64, raw 0..16 pixels): n rows drawn per seed (all at n = 1797); Gaussian "
             "kernel with the median heuristic gamma = 1 / median ||x - y||^2 (median_gamma(X, 1.0)); "
             f"l = {DIGITS_L}, s = n^-1/2 for the leverage rules",
        metric="in-sample error R_hat(l) = (1/n) tr K - sum_{j <= l} lambda_hat_{j,m} (Sterge et al. eq. (19)); "
               "the paired ratio of seed means to uniform with a bootstrap 95% CI",
        metrics=("R", "k", "m_eff"),
        estimators=ESTIMATORS,
        experiment=digits_experiment,
        grid=PerProfile(ci=_digits_grid(600, 10, DIGITS_MS[:-1]), quick=_digits_grid(1000, 10), full=_digits_grid(1797, 50)),
        judge=NoWorseThanBaseline(BASE, "R", MARGIN, methods=STRATEGIES),
        tolerance=Tolerance(
            "as landmarks.error-vs-m: fails if a seed-mean R_hat does not fall from one m to the next, or if "
            f"some 95% CI of R_S/R_uniform lies above 1 + {MARGIN:g}; holds otherwise",
            "pivoted Cholesky is the worst correct rule: ci (n = 600, m <= 128, 10 seeds) +4.3% [3.0%, 5.4%] at "
            "m = 32; quick (n = 1000, 20 seeds) +5.7% [4.6%, 6.6%] at m = 32, the largest lower CI end 1.046; "
            "with 10 seeds (quick since 2026-11-29, half the time), roots 0-4: pivoted +5.4% to +6.7%, the "
            "largest lower CI end 1.047 (root 1); "
            "prototype runs (30 seeds at n = 600, 20 at n = 1000) +3.9% and +5.5% there. Leverage and recursive "
            "within 1.5% of uniform; largest step ratio 0.988 (k-means). Faults at ci (3 seeds), lower CI end at "
            "the worst m: top-leverage 1.37, snap-to-first 1.56, smallest-residual 1.64. The 10% margin leaves "
            "0.054 above pivoted's deficit at n = 1000. The deficit grows with n: on all 1797 rows (the full "
            "profile; 10 seeds of uniform, pivoted and k-means) +7.1% [5.8%, 8.3%] at m = 32, 0.017 below the "
            "margin"),
        faults=_faults(3),
        figure=digits_figure,
    ),
]
