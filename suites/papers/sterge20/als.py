"""sterge20.als: Nyström KPCA with approximate-leverage-score landmarks on the rate grids of
Corollaries 4.2 and 4.3 (θ = 1/2) against EKPCA on the same sample, and EKPCA's own rate
(Corollaries 4.2(ii) and 4.3(ii)); the grids and the experiment are :mod:`.rates`'."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from kpca_suite.kernels import approximate_leverage_scores
from kpca_suite.methods import LeverageScoreLandmarks, NystromKPCA
from kpca_suite.theory import ekpca_population_error
from kpca_suite.theory.bounds import corollary_t

from ...claim import Claim, Fault, PerProfile, Tolerance
from ...judging import AllOf, MeanAtMost, ProbableBound, SlopeInBand, Where
from ._common import RATE_DATA
from .rates import R_FLOOR, THETA, _rate_grids, _three_seeds, _within, clustered_nystrom, rate_experiment


@dataclass(frozen=True)
class _ALS:
    """ALS landmarks at the level the corollaries' proofs use, n read from the data:
    s = n^-theta for theta < 1, ln(n) / n for theta >= 1 (:func:`theory.bounds.corollary_t`)."""

    m: int
    theta: float = THETA

    def select(self, X, kernel, random_state=None):
        s = corollary_t(X.shape[0], self.theta)
        return LeverageScoreLandmarks(self.m, s=s).select(X, kernel, random_state)


def leverage_nystrom(n_components, budget, kernel, random_state):
    """ALS Nyström (Sec. 3.2.1): ``budget`` i.i.d. draws from approximate ridge leverage
    scores l_i(s) = [K (K + n s I)^{-1}]_ii, s = n^-theta (pilot of m points), deduplicated."""
    return NystromKPCA(n_components, kernel, landmarks=_ALS(budget), random_state=random_state)


@dataclass(frozen=True)
class _ShortALS:
    """ALS landmarks on ceil(m / sqrt(ln n)) draws, n read from the data."""

    m: int

    def select(self, X, kernel, random_state=None):
        return _ALS(math.ceil(self.m / math.sqrt(math.log(X.shape[0])))).select(X, kernel, random_state)


def short_budget_leverage_nystrom(n_components, budget, kernel, random_state):
    """A near miss: ALS Nyström on ceil(m / sqrt(ln n)) draws where the rate table grants
    m = ceil(l ln n) (poly) or ceil((ln n)^2) (exp): the log factor's square root short,
    a shortfall that grows with n."""
    return NystromKPCA(n_components, kernel, landmarks=_ShortALS(budget), random_state=random_state)


def _m_als(n, decay, ell):
    """ALS rows of the rate table: m = ceil(n^(theta/alpha) ln n) = ceil(l ln n)
    (poly), ceil((ln n)^2) (exp)."""
    return min(n, math.ceil(ell * math.log(n)) if decay == "poly" else math.ceil(math.log(n) ** 2))


#: |log(sum l~ / sum l)| of the approximate ridge leverage scores ALS samples from, per cell: at most
#: a factor 2 on the effective dimension they estimate, in all but a fraction SCORE_MASS_DELTA of the
#: cells of each decay. The estimate from a uniform pilot is within a constant factor with high
#: probability, not surely: 750 ci cells (root seeds 0-9, python -m tests.decisiveness) reached 0.494
#: (a factor 1.64, exp, n = 1808) and none of 950 quick cells (roots 0-4) passed log 2 (root 0's
#: largest 0.485), but 1 of the full profile's 500 cells reached 1.035 (a factor 2.8; exp, n = 8103,
#: seed 14, a pilot of 81 points; the next largest 0.485), so the count over log 2 is tested at rate
#: 0.01 (:class:`~suites.judging.ProbableBound`). A pilot regularised with n s instead of s M puts
#: every cell over: 0.707 (poly, n = 81) .. 3.05 (exp, n = 22026).
SCORE_MASS_TOL = math.log(2.0)
SCORE_MASS_DELTA = 0.01


def flattened_leverage_scores(X, kernel, s, pilot_size, random_state=None):
    """A planted fault: the approximate scores with the pilot system regularised by n s (the
    exact scores' regulariser) in place of s M, which flattens them."""
    n = X.shape[0]
    return approximate_leverage_scores(X, kernel, s * n / pilot_size, pilot_size, random_state) * (n / pilot_size)


def frozen_rank_ekpca(Phi, ell, eigenvalues, gram=None):
    """A planted fault: EKPCA at rank 3 whatever l (a default n_components left in place), so its
    error stalls near R_{C,3} where the corollaries' l = n^(θ/α) or (θ/τ) ln n makes it decay."""
    return ekpca_population_error(Phi, 3, eigenvalues, gram)


#: sterge20.als's seeds: 5 at quick as at ci, where the other rate claims take 10 (SEEDS). Its cells fit
#: ALS Nyström, the exact and approximate scores and EKPCA, and quick's 10 seeds made it the main job's
#: costliest claim (29 of 410 cell-s); evidence in the claim's Tolerance.
ALS_SEEDS = PerProfile(ci=5, quick=5, full=20)


#: The level of sterge20.als: the mean of R / R_{C,l} over every cell of a sweep is at most this
#: (pooled, since ALS's ratio is heavy-tailed at small n). Evidence in the claim's Tolerance.
ALS_LEVEL = {"poly": 1.25, "exp": 2.0}


CLAIMS = [
    Claim(
        id="sterge20.als",
        source="Sterge et al. 2020, Corollaries 4.2(iv) / 4.3(iv), θ < 1 (approximate-leverage-score Nyström, "
               "Sec. 3.2.1) and 4.2(ii) / 4.3(ii), θ < 1 (EKPCA); Theorem 4.1(ii)'s bound (16) is sterge20.thm41-als's",
        statement="Nyström KPCA with approximate-leverage-score landmarks needs only m ≳ n^(θ/α) log n (poly) "
                  "or (log n)^2 (exp) to keep the EKPCA rate, n^(-θ(1-1/α)) (poly) and n^-θ log n (exp), which "
                  "EKPCA itself attains (Cor. 4.2(ii), 4.3(ii))",
        prediction="θ = 1/2: same slope as EKPCA on the same sample (one-sided: R_als / R_ekpca does not grow); exp: "
                   "slope <= -θ + 0.15; R/R_C,l at most 1.25 (poly) and 2.0 (exp) on average over the sweep. EKPCA's "
                   "slope within 0.05 of R_C,l's (poly) and in [-θ-0.1, -θ+0.15] (exp): two-sided where the bounds "
                   "are one-sided, since no rank-l projector beats R_C,l ≍ the same rate (Cor. 4.2(i), 4.3(i)). The "
                   "paper gives no algorithm for its T-approximate scores: ours are Nyström estimates from a uniform "
                   "pilot of m points, their total judged within a factor 2 of the exact one",
        data=RATE_DATA.format(spec="i^-2 and e^(-i/4)") + "; EKPCA on the same sample",
        metric="population R(P) of ALS Nyström and of EKPCA; their paired ratio per seed; R / R_C,l",
        metrics=("R", "R_C", "R_ekpca", "k", "ratio", "ratio_ekpca", "score_mass_log"),
        estimators={"nystrom": leverage_nystrom, "scores": approximate_leverage_scores,
                    "ekpca": ekpca_population_error},
        experiment=rate_experiment,
        grid=_rate_grids(("poly", "exp"), _m_als, "als", ALS_SEEDS),
        judge=AllOf(
            Where("decay", "poly", SlopeInBand("ratio_ekpca", band=(-np.inf, 0.05), label="ALS / EKPCA (poly)",
                                        ylabel="R_als / R_ekpca", name="poly_ratio_slope")),
            Where("decay", "poly", MeanAtMost("ratio", ALS_LEVEL["poly"], "R/R_C,l (poly)", x=None,
                                              name="poly_mean_ratio")),
            Where("decay", "exp", MeanAtMost("ratio", ALS_LEVEL["exp"], "R/R_C,l (exp)", x=None,
                                             name="exp_mean_ratio")),
            Where("decay", "exp", SlopeInBand("R", band=(-np.inf, -THETA + 0.15), label="ALS Nyström (exp)",
                                       ylabel="population R(P)", reference="R_ekpca", name="exp_slope",
                                       reference_label="EKPCA R(P), same sample")),
            Where("decay", "exp", SlopeInBand("ratio_ekpca", band=(-np.inf, 0.05), label="ALS / EKPCA (exp)",
                                       ylabel="R_als / R_ekpca", name="exp_ratio_slope")),
            *(Where("decay", d, SlopeInBand("R_ekpca", band=b, label=f"EKPCA ({d})", ylabel="population R(P)",
                                            reference="R_C", reference_label="exact R_C,l", name=f"{d}_ekpca_slope",
                                            impossible=R_FLOOR))
              for d, b in (("poly", _within(0.05)), ("exp", (-THETA - 0.1, -THETA + 0.15)))),
            *(Where("decay", decay, ProbableBound("score_mass_log", SCORE_MASS_TOL, SCORE_MASS_DELTA,
                                                  f"ALS scores ({decay}): approximate against exact",
                                                  "log 2 (a factor 2)", ylabel="|log Σ l~(s) / Σ l(s)|",
                                                  name=f"{decay}_score_mass"))
              for decay in ("poly", "exp")),
        ),
        tolerance=Tolerance("slope of the paired ratio R_als/R_ekpca <= +0.05 (poly and exp; one-sided: catching "
                            "up is allowed); exp: slope <= -θ+0.15; the level: the mean of R/R_C,l over every cell "
                            "of the sweep <= 1.25 (poly), <= 2.0 (exp); the scores' total within a factor 2 of the "
                            "exact one in all but 1% of the cells of each decay (binomial p >= 0.01 for the count "
                            "over it); EKPCA's slope CI within 0.05 of R_C,l's (poly), inside [-θ-0.1, -θ+0.15] "
                            "(exp)",
                            "ci grid l = 10..18 and 12..20, seeds 0-4: exp ALS slopes -0.613 [-0.649, -0.574] "
                            "and -0.581 [-0.616, -0.546], steeper than EKPCA's -0.51 because the paired ratio "
                            "falls from ~1.2-1.5 to 1.007 (an earlier sanity run saw the same pre-asymptotic "
                            "catch-up, -0.586): a two-sided band would call catching up a failure. The level "
                            "(added 2026-11-24; the slopes alone passed half the budget and the short-budget "
                            "fault as inconclusive): pooled mean R/R_C,l poly 1.119 at ci (seeds 0-4, per-seed "
                            "1.105-1.143), 1.106 at quick (seeds 0-9, 1.091-1.131; with J = 1024 since 2026-11-29, roots 0-4: "
                            "1.098-1.108, poly ratio slopes -0.020 .. -0.014); exp 1.261 at ci (1.181-"
                            "1.401), 1.155 at quick (1.037-1.329), pooled over n because ALS's exp ratio is "
                            "heavy-tailed at small n (cells up to 2.52 at n = 403). The short-budget fault "
                            "gives 1.467 / 7.16 at ci (1.494 / 7.40 on the 3 seeds its test runs; 1.445 / 9.09 "
                            "at quick), half the budget 1.315 / 3.54. poly's ratio slope was first judged in "
                            "+-0.05; under root seeds 0-9 (python -m tests.decisiveness) it read -0.036 .. -0.013, "
                            "the same catch-up, and root 7's CI [-0.064, -0.012] left it inconclusive, so poly is "
                            "one-sided too. The scores' total against the exact one, |log Σ l~ / Σ l|: at most 0.494 "
                            "over 750 ci cells (roots 0-9); none of 950 quick cells (roots 0-4) over log 2; at full (2026-11-28, "
                            "seeds 0-19) 1 of 260 exp cells over log 2, 1.035 (n = 8103; next 0.485), which failed "
                            "the first version of this check (every cell within log 2): binomial p 0.93 at rate "
                            "0.01, which fails at 8 of 240 or 260 cells; a pilot regularised by n s puts every cell over, "
                            "0.707 (poly, n = 81) .. 3.05. Scores written outside the package (2026-11-28, ci): "
                            "correct by eigh and in float32 0 of 75 over, regularised by s instead of s M 73 of 75; "
                            "scores halved stay within the factor 2 by design. EKPCA's own rate (added 2026-11-28; "
                            "roots 0-4, python -m tests.decisiveness and the same cells' fits): poly -0.237 .. "
                            "-0.235 against R_C,l's -0.226 at ci, CIs at least "
                            "0.034 inside the band (root 2), 0.040 at quick; exp -0.509 .. -0.506, at least 0.089 "
                            "inside [-0.6, -0.35] (ci root 3), 0.092 at quick; R_ekpca / R_C,l 1.000-1.052 per "
                            "size. The frozen-rank fault (rank 3 whatever l), seeds 0-2 under roots 0-4: poly slope "
                            "CIs at least 0.157 (ci) and 0.164 (quick) outside the band, exp at least 0.346 above "
                            "-0.35; the checks before passed it (its paired ratio falls). Quick runs 5 seeds since "
                            "2026-11-29 (ALS_SEEDS; the quick numbers above are of 10): roots 0-4 hold (python -m "
                            "tests.decisiveness --profile quick), poly ratio slopes -0.020 .. -0.014 (upper CI ends at "
                            "most -0.008), exp slopes -0.596 .. -0.545 (at most -0.511), exp ratio slopes -0.090 .. "
                            "-0.039 (at most -0.005), EKPCA -0.238 .. -0.236 (poly) and -0.507 .. -0.505 (exp), levels "
                            "1.095-1.109 (poly) and 1.108-1.216 (exp), no cell's score total beyond a factor 2"),
        faults=(Fault("clustered", "the m landmarks nearest x = 0 instead of leverage-score draws",
                      {"nystrom": clustered_nystrom}, keep=_three_seeds),
                Fault("short-budget", "a near miss: ALS on ⌈m / sqrt(ln n)⌉ draws where the rate table grants "
                      "m = ⌈l ln n⌉ (poly), ⌈(ln n)^2⌉ (exp); the slopes alone do not reject it (poly's CI "
                      "inside its band, exp's straddling), the level R/R_C,l (1.49 poly, 7.4 exp) does",
                      {"nystrom": short_budget_leverage_nystrom}, keep=_three_seeds),
                Fault("flattened-scores", "approximate scores whose pilot system is regularised by n s instead of "
                      "s M: near-uniform draws, which the rate and level still pass (R/R_C,l 1.124)",
                      {"scores": flattened_leverage_scores}, keep=_three_seeds),
                Fault("frozen-rank-ekpca", "EKPCA of rank 3 whatever l (a default n_components left in place): "
                      "its error stalls at R_C_n,3, which only its own slope sees", {"ekpca": frozen_rank_ekpca},
                      keep=_three_seeds)),
    ),
]
