"""landmarks.leverage-values: the ridge leverage scores the leverage rules draw from are the
population leverage function, value by value.

The landmark claims only ask leverage sampling to tie with uniform sampling, and on their
data the scores are nearly uniform: a wrong ridge flattens the scores towards uniform and
every one of them still holds. This claim reads the values, on the Mehler model, where the
leverage function varies (it is largest in the tails of the Gaussian data)."""

from __future__ import annotations

import math

import numpy as np

from kpca_suite.kernels import Kernel
from kpca_suite.kernels.leverage import approximate_leverage_scores, exact_leverage_scores
from kpca_suite.theory.mehler import mehler_eigenfunctions, mehler_eigenvalues

from ...claim import Cell, Claim, Fault, Grid, PerProfile, Tolerance
from ...judging import AllOf, ForEachMethod, MeanAtMost, SlopeInBand

# -- parameters ---------------------------------------------------------------------------

LEV_GAMMA, LEV_VAR, LEV_TERMS = 1.0, 1.0, 80  # 80 Mehler terms: lambda_80 / lambda_0 ~ 1e-34
LEV_TOL = {"exact": 0.2, "approximate": 0.4}  # the largest seed mean of |n l_i / L(x_i) - 1| (evidence below)
LEV_BAND = (-0.8, -0.2)


def level(n: int) -> float:
    """The ridge level s = n^-1/2 of the leverage landmark rules."""
    return n ** -0.5


def pilot(n: int) -> int:
    """The pilot size of the approximate scores, min(n, ⌈2 √n ln n⌉)."""
    return min(n, math.ceil(2 * math.sqrt(n) * math.log(n)))


# -- experiment ---------------------------------------------------------------------------

def population_leverage(x, s: float) -> np.ndarray:
    """L(x; s) = sum_j lambda_j phi_j(x)^2 / (lambda_j + s): the leverage function of the
    covariance operator of exp(-||x - y||^2) under N(0, 1) (Mehler's eigenpairs), the limit
    of n l_i(s) = n [K (K + n s I)^{-1}]_ii at x_i."""
    lam = mehler_eigenvalues(LEV_GAMMA, LEV_VAR, LEV_TERMS)
    phi = mehler_eigenfunctions(np.asarray(x, dtype=float), LEV_GAMMA, LEV_VAR, LEV_TERMS)
    return (phi**2 * (lam / (lam + s))).sum(axis=1)


def values_experiment(cell: Cell, est) -> dict:
    """``dev`` = mean_i |n l_i(s) / L(x_i; s) - 1| for the scores of ``est[cell.method]``
    (exact, or the Nyström estimate from a uniform pilot) on n draws of N(0, 1), s = n^-1/2."""
    x = cell.rng().normal(0.0, math.sqrt(LEV_VAR), cell.n)
    kernel, s = Kernel("gaussian", gamma=LEV_GAMMA), level(cell.n)
    if cell.method == "exact":
        scores = est["exact"](x[:, None], kernel, s)
    else:
        scores = est["approximate"](x[:, None], kernel, s, pilot(cell.n), cell.seed_int("pilot"))
    return {"dev": float(np.mean(np.abs(cell.n * scores / population_leverage(x, s) - 1.0)))}


# -- planted faults -----------------------------------------------------------------------

def ridge_without_n(X, kernel, s):
    """Exact scores regularised by s instead of n s: [K (K + s I)^{-1}]_ii."""
    return exact_leverage_scores(X, kernel, s / X.shape[0])


def ridge_four_times(X, kernel, s):
    """Exact scores at 4 s: a ridge level off by a constant."""
    return exact_leverage_scores(X, kernel, 4.0 * s)


def pilot_regularised_by_n_s(X, kernel, s, pilot_size, random_state=None):
    """The approximate scores with the pilot system regularised by n s in place of s M."""
    n = X.shape[0]
    return approximate_leverage_scores(X, kernel, s * n / pilot_size, pilot_size, random_state) * (n / pilot_size)


# -- declarations -------------------------------------------------------------------------

def _grid(sizes, seeds):
    return Grid(sizes=sizes, seeds=seeds, methods=("exact", "approximate"))


def _judge():
    def for_method(method):
        rules = [MeanAtMost("dev", LEV_TOL[method], f"|n l_i / L(x_i) - 1| ({method})", name=f"{method}_dev",
                            method=method, hint="correct scores read 0.1 (exact) and 0.15 (Nyström) at worst; a "
                            "ridge without its n or off by a constant reads 0.3 and more")]
        if method == "exact":
            rules.append(SlopeInBand("dev", band=LEV_BAND, label="exact scores against L(x; s)",
                                     ylabel="mean |n l_i(s) / L(x_i; s) - 1|", method="exact", name="exact_slope"))
        return AllOf(*rules)
    return ForEachMethod(for_method, ("exact", "approximate"))


CLAIMS = [
    Claim(
        id="landmarks.leverage-values",
        source="Sterge et al. 2020, Sec. 3.2.1 (ridge leverage scores l_i(s) = [K (K + n s I)^{-1}]_ii); Rudi et "
               "al. 2018, eq. 4 (their Nyström estimate); the leverage function of the covariance operator",
        statement="n l_i(s) converges to the leverage function L(x_i; s) = Σ_j λ_j φ_j(x_i)² / (λ_j + s) of the "
                  "covariance operator; the Nyström estimate from a uniform pilot stays within a fixed factor",
        prediction=f"largest seed mean of |n l_i / L(x_i) - 1| <= {LEV_TOL['exact']:g} (exact) and "
                   f"{LEV_TOL['approximate']:g} (Nyström estimate); the exact scores' deviation falls with n, slope in "
                   f"{list(LEV_BAND)} (√n consistency: -1/2)",
        data=f"n draws of N(0, {LEV_VAR}); Gaussian kernel exp(-{LEV_GAMMA} (x - y)²) with a fixed γ, s = n^-1/2; "
             f"L from Mehler's closed-form eigenpairs ({LEV_TERMS} terms); pilot min(n, ⌈2 √n ln n⌉)",
        metric="mean over the n points of |n l_i(s) / L(x_i; s) - 1|",
        metrics=("dev",),
        estimators={"exact": exact_leverage_scores, "approximate": approximate_leverage_scores},
        experiment=values_experiment,
        grid=PerProfile(ci=_grid((250, 500, 1000, 2000), 10), quick=_grid((250, 500, 1000, 2000), 10),
                        full=_grid((250, 500, 1000, 2000, 4000, 8000), 20)),
        judge=_judge(),
        tolerance=Tolerance(
            f"largest seed mean <= {LEV_TOL['exact']:g} (exact), {LEV_TOL['approximate']:g} (approximate); the exact "
            f"scores' slope CI inside {list(LEV_BAND)}",
            "measured 2026-11-27, seeds 0-19 in blocks of 5: exact 0.053-0.069 at n = 250 falling to 0.014-0.018 at "
            "n = 4000 (single cells up to 0.101; slope at ci -0.47 [-0.64, -0.34]). At ci with 5 seeds root 4's slope CI "
            "reached -0.197, past the band's -0.2 (inconclusive; python -m tests.decisiveness --roots 0 1 2 3 4): ci "
            "runs 10 seeds, with which roots 0-4 hold, slopes -0.53 to -0.36, the nearest CI end -0.208 (root 3). "
            "quick stops at n = 2828 (2026-11-29; the n = 4000 cells were 80% of its time): roots 0-4 hold, slopes "
            "-0.477 .. -0.349, the nearest CI end -0.258 (root 4), largest seed means 0.053-0.061 (exact) and "
            "0.065-0.075 (approximate). Since the evening of 2026-11-29 quick runs ci's grid (its n = 2828 "
            "cells were 5 of the main job's 410 cell-s), so its evidence is ci's. "
            "The Nyström estimate 0.057-0.092 "
            "at n = 250 and 0.038-0.046 at 4000 (single cells up to 0.144: its pilot error does not vanish). Bugs: "
            "the exact scores regularised by s for n s 1.08-1.34, at 4 s 0.28-0.43 (slope -0.16: flat), the pilot "
            "regularised by n s (sterge20.als's fault) 1.24. Thresholds near the geometric middles: exact 0.2 (0.10 "
            "against 0.43), approximate 0.4 (0.144 against 1.24)"),
        faults=(Fault("ridge-without-n", "exact scores regularised by s instead of n s",
                      {"exact": ridge_without_n}, keep=lambda c: c.seed < 2),
                Fault("ridge-four-times", "exact scores at 4 s", {"exact": ridge_four_times},
                      keep=lambda c: c.seed < 2),
                Fault("pilot-regularised-by-n-s", "the approximate scores' pilot regularised by n s",
                      {"approximate": pilot_regularised_by_n_s}, keep=lambda c: c.seed < 2)),
    ),
]
