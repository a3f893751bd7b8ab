"""ullah18.estimation and oja-esl: the estimation error's rate and level.

ullah18.estimation fits RF-ERM at fixed m and judges, against the population C_m of its map: the ESL
quantity ||(Phi_k^perp)^T Phi_hat||_F^2 (Def. 4.1, Lemma D.2: q/n), |eps_e| (Lemma 4.6 / C.11; n^(-1/2),
an erratum), the distance to a projection (Thm 4.2(b)), max_i ||phi_i - phi_hat_i||_2 (Lemma C.10) and
||A P^k_{C_m} - A P_hat||_HS(rho) (Lemma C.5), both sqrt(q/n) where the paper prints q/n, and |J - J_proj|
(Sec. 5's approach from above). ullah18.oja-esl judges RF-Oja's ESL quantity against Lemma D.4's
Theta~(2 Lambda / (gap^2 n))."""

from __future__ import annotations

import numpy as np

from kpca_suite.methods.nystrom import top_eigenpairs
from kpca_suite.methods.rf_erm import RFERM
from kpca_suite.methods.rf_oja import ConstantSchedule, InverseSchedule
from kpca_suite.theory.rf_objective import (esl_first_order, esl_quantity, gram_deviation, lifted_objective,
                                            population_grams, procrustes_rotation, projected_objective)

from ...claim import Claim, Fault, Grid, PerProfile, Tolerance
from ...judging import AllOf, MeanAtMost, ProbableBound, SlopeInBand, WithErratum
from ._common import MEHLER, NS, RATE_NS, K, _fitted, _population, _seed_int, rf_erm
from .rates import rf_oja

ESTIMATION_M = PerProfile(ci=256, quick=256, full=512)


ESTIMATION_SEEDS = PerProfile(ci=48, quick=48, full=50)


def _declared_seeds(cell) -> bool:
    """The faults run on seeds 0-23, the ci count they were declared against (the near miss's
    level 1.82-2.23 was measured in batches of 24)."""
    return cell.seed < 24


EPS_E_SLOPE_MAX = -0.35


#: The level of the estimation error: n ESL / q pooled over every (n, seed) cell is at most
#: this (q: the first-order constant of E ESL = q/n + O(n^-2), :func:`esl_first_order`).
#: Evidence: see ullah18.estimation's tolerance.
ESL_LEVEL_MAX = 1.4


#: Thm 4.2(b): the slope CI of the lifted output's distance to a projection (gram_dev) has its
#: upper end at most this: sqrt(q/n) with q independent of n at fixed m, so -1/2 with 0.05 of room.
#: Evidence: see ullah18.estimation's tolerance.
GRAM_DEV_SLOPE_MAX = -0.45


#: Lemmas C.10 and C.5 (errata): the slope CIs of the eigenvector distance max_i ||phi_i -
#: phi_hat_i|| and of ||A P^k - A P_hat||_HS lie in this band: first order in Phi_hat - Phi_k,
#: sqrt(q/n), slope -1/2, where the paper prints q/n (slope -1). Evidence: see the tolerance.
FIRST_ORDER_BAND = (-0.7, -0.3)


def lifted_distance(C, Phi, Ur) -> float:
    """||A P^k_{C_m} - A P_hat||_HS(rho) (Lemma C.5): the lifts sum_i g_i (x)_rho g_i with
    g_i = A phi_i / sqrt(lambda_i) and h_i = A phi_hat_i / sqrt(lambda_hat_i), lambda_hat_i =
    phi_hat_i^T C_m phi_hat_i (Def. 3.6), from <A u, A v>_rho = u^T C_m v:
    ||sum g g - sum h h||_HS^2 = ||<g, g>||_F^2 + ||<h, h>||_F^2 - 2 ||<g, h>||_F^2."""
    B = np.hstack([Phi, Ur])
    G = B.T @ C @ B
    s = 1.0 / np.sqrt(np.diag(G))
    G = s[:, None] * G * s
    k = Phi.shape[1]
    sq = np.linalg.norm(G[:k, :k]) ** 2 + np.linalg.norm(G[k:, k:]) ** 2 - 2 * np.linalg.norm(G[:k, k:]) ** 2
    return float(np.sqrt(max(sq, 0.0)))


#: 2 (sqrt 2 - 1): Lemma C.8's constant, ||Phi_k - Phi_hat||_F^2 <= ||P - P_hat||_F^2 / C8.
C8 = 2 * (np.sqrt(2.0) - 1)


def _evaluate(model, pop, Phi, U) -> dict:
    """Lifted and projected excess risk, ESL quantity, ||G - I|| of the RF output U
    (rotated by the Procrustes R* towards Phi_k, Def. 3.6); the eigenvector distance
    max_i ||phi_i - phi_hat_i||_2 (Lemma C.10) and the lifted distance of Lemma C.5, each
    also over the paper's literal bound with q_A = n ESL, the smallest q_A this draw meets
    Def. 4.1 with: C.10 prints ||phi_i - phi_hat_i|| <= q_A / (C8 n) = ESL / C8, C.5 prints
    ||A P^k - A P_hat||_HS <= lambda_1 / (sqrt 2 - 1) sqrt(sum_i ((2 lambda_i + 4 lambda_1) /
    lambda_i^2)^2) q_A / n (lambda_i the eigenvalues of C_m); a ratio above 1 violates it."""
    opt = model.optimum(K)
    Ur = U @ procrustes_rotation(U, Phi)
    G, H = population_grams(Ur, pop.C, pop.M)
    J = lifted_objective(G, H)
    esl = esl_quantity(Phi, U)
    lam = np.diag(Phi.T @ pop.C @ Phi)
    c5 = lam[0] / (np.sqrt(2.0) - 1) * np.sqrt(np.sum(((2 * lam + 4 * lam[0]) / lam**2) ** 2))
    phi_dist = float(np.max(np.linalg.norm(Phi - Ur, axis=0)))
    lifted = lifted_distance(pop.C, Phi, Ur)
    J_proj = projected_objective(G, H)
    return {"J": J, "excess": opt - J, "excess_proj": opt - J_proj, "lift_gap": abs(J - J_proj), "above_opt": J - opt,
            "esl": esl, "gram_dev": gram_deviation(G), "phi_dist": phi_dist, "lifted_dist": lifted,
            "phi_literal": phi_dist * C8 / esl, "lifted_literal": lifted / (c5 * esl)}


def estimation_experiment(cell, estimators) -> dict:
    """One RF-ERM fit evaluated at population level on the estimator's own feature
    map (needs ``feature_map_`` and ``components_``, not only the role): E (lifted),
    E_proj, eps_a = opt - J(Phi_k), eps_e = J(Phi_k) - J(U rotated), the ESL
    quantity ||(Phi_k^perp)^T U||_F^2, its level n ESL / q against the first-order constant q
    of the estimator's own map (:func:`theory.rf_objective.esl_first_order`, expectation 1 up
    to O(1/n)) and ||G - I||_F."""
    model, est = _fitted(cell, estimators[cell.method], "kpca-projection", _seed_int(cell, "features"))
    pop, Phi = _population(model, est.feature_map_)
    out = _evaluate(model, pop, Phi, est.components_)
    J_opt = lifted_objective(*population_grams(Phi, pop.C, pop.M))
    out.update(eps_a=model.optimum(K) - J_opt, eps_e=J_opt - out["J"])
    out["eps_e_abs"] = abs(out["eps_e"])
    nodes, weights = model.quadrature()
    out["esl_level"] = cell.n * out["esl"] / esl_first_order(est.feature_map_.transform(nodes), weights, K)
    return out


# -- ullah18.oja-esl: Lemma D.4 ---------------------------------------------------------------

#: Lemma D.4's k: 2, where the rate claims take 3. The burn-in T_0 + T_1 ~ Lambda / gap^2 of Thm
#: D.3 is about 50 samples at k = 2 (gap = lambda_2 - lambda_3 = 0.124, Lambda = 0.75) against
#: about 220 at k = 3 (gap 0.063), so "for large n" starts inside the ci grid (n >= 128).
OJA_K = 2


OJA_M = PerProfile(ci=32, quick=64, full=256)


OJA_SEEDS = PerProfile(ci=12, quick=24, full=50)


#: Lemma D.4 with Def. 4.1: ||(Phi_k^perp)^T Q_n||_F^2 <= q_oja / n with probability >= 1 - delta,
#: q_oja = Theta~(2 Lambda / gap^2): n ESL gap^2 / Lambda <= this, the printed 2 with the Theta's
#: constant taken as 1, in all but a delta = OJA_DELTA share of the cells (binomially plausible).
OJA_LEVEL_MAX = 2.0


OJA_DELTA = 0.1


def oja_esl_experiment(cell, estimators) -> dict:
    """RF-Oja's ESL quantity ||(Phi_k^perp)^T Q_n||_F^2 after one pass over n samples at fixed
    m (Phi_k the top-k eigenvectors of the population C_m of its own feature map), and its
    level n ESL gap^2 / Lambda (gap = lambda_k - lambda_{k+1}, Lambda = sum_{i<=k} lambda_i of
    the population C_m): Lemma D.4 bounds ESL by Theta~(2 Lambda / (gap^2 n))."""
    model, est = _fitted(cell, estimators[cell.method], "streaming-kpca", _seed_int(cell, "features"), k=OJA_K)
    C = model.feature_population(est.feature_map_.transform).C
    lam = np.linalg.eigvalsh(C)[::-1]
    gap, Lam = lam[OJA_K - 1] - lam[OJA_K], lam[:OJA_K].sum()
    esl = esl_quantity(np.ascontiguousarray(top_eigenpairs(C, OJA_K)[1]), est.components_)
    return {"esl": esl, "esl_level": cell.n * esl * gap**2 / Lam, "esl_ceiling": cell.n * OJA_K * gap**2 / Lam}


def rf_oja_small_steps(n_components, budget, kernel, random_state):
    """RF-Oja with eta0 a tenth of the schedule's, eta_t = 0.25 / (gap (t + t0)) (a gap
    overestimated tenfold): a step constant below 1/2, so Oja converges like n^(-2 c) = n^(-1/2)."""
    est = rf_oja(n_components, budget, kernel, random_state)
    est.learning_rate = InverseSchedule(eta0=est.learning_rate.eta0 / 10, t0=est.learning_rate.t0)
    return est


def rf_oja_constant_step(n_components, budget, kernel, random_state):
    """RF-Oja whose step does not decay: eta_t = eta0 / t0 = 2.5 gap / Lambda, the schedule's
    first step held for ever; Oja then hovers at a distance set by eta, whatever n."""
    est = rf_oja(n_components, budget, kernel, random_state)
    est.learning_rate = ConstantSchedule(est.learning_rate.eta0 / est.learning_rate.t0)
    return est


class EveryOtherRowRFERM(RFERM):
    """Fits X[::2] (a stride slip): half the rows, so the estimation error keeps its rate
    n^-1 and doubles its level."""

    def fit(self, X):
        return super().fit(np.asarray(X)[::2])


def rf_erm_every_other_row(n_components, budget, kernel, random_state):
    return EveryOtherRowRFERM(n_components, budget, kernel, "cos", random_state=random_state)


#: The mixing of :class:`LooseBasisRFERM`: U (I + eps (11^T - I)), then unit columns.
LOOSE_EPS = 2e-3


class LooseBasisRFERM(RFERM):
    """A basis of RF-ERM's subspace orthonormal only to a fixed tolerance, as an eigensolver that
    stops re-orthogonalising early returns it: U (I + eps (11^T - I)) with unit columns (cosines
    about 2 eps = 4e-3 between them), eps = :data:`LOOSE_EPS` whatever n. The span is RF-ERM's
    (the ESL quantity agrees to 3 digits); the lifted output stays about 0.011 from a projection (gram_dev)
    instead of converging to one."""

    def partial_fit(self, X):
        super().partial_fit(X)
        k = self.n_components
        U = self.components_ @ (np.eye(k) + LOOSE_EPS * (np.ones((k, k)) - np.eye(k)))
        self.components_ = np.ascontiguousarray(U / np.linalg.norm(U, axis=0))
        return self


def rf_erm_loose_basis(n_components, budget, kernel, random_state):
    return LooseBasisRFERM(n_components, budget, kernel, "cos", random_state=random_state)


class FirstRowsRFERM(RFERM):
    """Fits only the first 128 rows, whatever n: the estimation error cannot decay."""

    def fit(self, X):
        return super().fit(np.asarray(X)[:128])


def rf_erm_first_rows(n_components, budget, kernel, random_state):
    return FirstRowsRFERM(n_components, budget, kernel, "cos", random_state=random_state)


CLAIMS = [
    Claim(
        id="ullah18.estimation",
        source="Ullah et al. 2018, Cor. 4.4(a) / Lemma D.2 (RF-ERM's ESL quantity of Def. 4.1), Lemma 4.6 / "
               "C.11 (eps_e; an erratum), Thm 4.2(b) (the lifted output's distance to a projection), Lemma C.10 "
               "and Lemma C.5 (the eigenvector and lifted distances; errata) and Sec. 5 (the approach from above)",
        statement="At fixed m, RF-ERM's ESL quantity ||(Phi_k^perp)^T Phi_hat||_F^2 decays like q/n (Cor. 4.4(a), "
                  "Lemma D.2). Lemma 4.6 states eps_e <= const q^2/n (the proof of C.11 ends with q/n), but eps_e has "
                  "a non-vanishing first-order term (Phi_k maximises the objective for L_m, not L) and decays like "
                  "n^(-1/2), Thm 4.2(a)'s sqrt(q/n): that is the rate judged for |eps_e|. The lifted output is within "
                  "sqrt(q/n) of a rank-k projection in the RKHS (Thm 4.2(b)). Lemma C.10 prints ||phi_i - phi_hat_i||_2 <= "
                  "q_A / (2(sqrt2 - 1) n), but its proof bounds the square (Lemma C.8 then C.9), so the distance is "
                  "O(sqrt(q/n)); Lemma C.5 prints ||A P^k_{C_m} - A P_hat||_HS(rho) <= c q_A / n (its last step uses "
                  "Lemma C.8 squared), but that distance is first order in Phi_hat - Phi_k, O(sqrt(q/n)) too: both "
                  "are judged at n^(-1/2) and the printed forms reported (errata). Sec. 5 says RF-ERM and RF-Oja "
                  "approach the optimum from above because their lifted outputs are not projections: the lifted J "
                  "exceeds J_proj <= optimum by |J - J_proj| at most, which vanishes (judged at slope <= -0.45); how "
                  "often J exceeds the optimum is reported. Here m = 256 (ci and quick) or 512 (full) on the 1-D "
                  "oracle, q the exact first-order constant of E ESL rather than the paper's q_ERM",
        prediction="ESL slope about -1 at the level of its first-order constant q (n ESL / q about 1); |eps_e| slope "
                   "about -1/2 (at most -0.35), not the -1 Lemma 4.6 states; the distance to a projection, "
                   "||D^(-1/2) G D^(-1/2) - I||_F, decays at least like n^(-1/2) (slope at most -0.45; measured "
                   "about -1: it is second order in Phi_hat - Phi_k after the Procrustes rotation, as Lemma C.5's q/n "
                   "says, faster than Thm 4.2(b)'s sqrt(q/n)); max_i ||phi_i - phi_hat_i||_2 and ||A P^k - A P_hat||_HS with "
                   "slope about -1/2 (in [-0.7, -0.3]), not the -1 that Lemmas C.10 and C.5 print; |J - J_proj| decays "
                   "(second order, about -1), so J cannot stay above the optimum: on this oracle it never exceeds it "
                   "(eps_a(m) > 0 dominates), unlike Fig. 2's curves, which are measured against ERM's held-out value",
        data=MEHLER,
        metric="ESL quantity ||(Phi_k^perp)^T U||_F^2 (Phi_k: top-k eigenvectors of the population C_m), "
               "|eps_e| = |J(Phi_k) - J(U rotated)| and the distance of the lifted output to the rank-k "
               "projections, ||D^(-1/2) G D^(-1/2) - I||_F (G the L^2(rho) Gram of the rotated output's functions, "
               "D its diagonal), of RF-ERM with m = 256 (ci and quick) or 512 (full); max_i ||phi_i - phi_hat_i||_2 (Procrustes-"
               "rotated), ||A P^k_{C_m} - A P_hat||_HS(rho) from the L^2(rho) Grams of the unit lifted functions, "
               "|J - J_proj|, and, reported, the printed C.10 and C.5 bounds with q_A = n ESL (the smallest q_A this "
               "draw meets Def. 4.1 with) and J - optimum",
        metrics=("J", "eps_a", "eps_e", "eps_e_abs", "esl", "esl_level", "excess", "excess_proj", "gram_dev",
                 "phi_dist", "phi_literal", "lifted_dist", "lifted_literal", "lift_gap", "above_opt"),
        estimators={"rf-erm": rf_erm},
        experiment=estimation_experiment,
        grid=PerProfile(*(Grid(RATE_NS[p], ESTIMATION_SEEDS[p], params={"m": ESTIMATION_M[p]})
                          for p in ("ci", "quick", "full"))),
        judge=AllOf(SlopeInBand("esl", (-1.3, -0.7), label="ESL ‖(Φ_k^⊥)ᵀΦ̂‖²", ylabel="estimation error",
                                predicted=-1.0, name="esl_slope"),
                    SlopeInBand("eps_e_abs", (-np.inf, EPS_E_SLOPE_MAX), label="|ε_e|", ylabel="estimation error",
                                predicted=-0.5, name="eps_e_abs_slope"),
                    MeanAtMost("esl_level", ESL_LEVEL_MAX, "n ESL / q (first-order constant, expectation 1)",
                               x=None),
                    SlopeInBand("gram_dev", (-np.inf, GRAM_DEV_SLOPE_MAX), label="‖D^-½ G D^-½ − I‖_F",
                                ylabel="distance to a projection", predicted=-0.5, name="gram_dev_slope"),
                    WithErratum(SlopeInBand("phi_dist", FIRST_ORDER_BAND, label="max_i ‖φ_i − φ̂_i‖",
                                            ylabel="eigenvector distance", predicted=-0.5, name="phi_dist_slope"),
                                "phi_literal", 1.0, "Lemma C.10's printed ‖φ_i − φ̂_i‖ <= q_A / (2(√2−1) n), "
                                "q_A = n ESL,"),
                    WithErratum(SlopeInBand("lifted_dist", FIRST_ORDER_BAND, label="‖𝔄P^k − 𝔄P̂‖_HS",
                                            ylabel="lifted distance", predicted=-0.5, name="lifted_dist_slope"),
                                "lifted_literal", 1.0, "Lemma C.5's printed ‖𝔄P^k − 𝔄P̂‖_HS <= c q_A / n, "
                                "q_A = n ESL,"),
                    WithErratum(SlopeInBand("lift_gap", (-np.inf, GRAM_DEV_SLOPE_MAX), label="|J − J_proj|",
                                            ylabel="lifted minus projected objective", predicted=-1.0,
                                            name="lift_gap_slope"),
                                "above_opt", 0.0, "Sec. 5's approach from above (J > optimum)")),
        tolerance=Tolerance(f"ESL slope CI inside [-1.3, -0.7]; the slope CI of mean |eps_e| has upper end <= "
                            f"{EPS_E_SLOPE_MAX} (eps_e itself changes sign, so its mean has no log-log slope); "
                            f"mean n ESL / q over every cell <= {ESL_LEVEL_MAX}; the slope CI of mean gram_dev has "
                            f"upper end <= {GRAM_DEV_SLOPE_MAX}",
                            "m = 512, 10 seeds: ESL slope -1.02 [-1.25, -0.78] (8 seeds: lower CI end -1.32). "
                            "|eps_e| is judged at the rate that is mathematically right, n^(-1/2): its first-order "
                            "term in Phi_hat - Phi_k does not vanish (Phi_k maximises the objective in L_m, not in "
                            "L), so the q/n of the paper's Lemma C.11 holds for the ESL quantity only. Measured: "
                            "|eps_e| -0.74 [-0.91, -0.58] (m = 512, 10 seeds), -0.58 [-0.71, -0.45] (quick), and "
                            "at ci (m = 256, 24 seeds; 8 seeds left both CIs too wide) ESL -0.952 [-1.067, -0.834], "
                            "|eps_e| -0.620 [-0.760, -0.480]; -0.35 leaves room above -0.5 for the log factors. The "
                            f"level: pooled n ESL / q <= {ESL_LEVEL_MAX} (q the first-order constant of the fitted "
                            "map, so the expectation is 1 up to O(1/n)): ci grid, 8 batches of 24 seeds, 0.873-1.064 "
                            "(seeds 0-23: 0.898); quick, 2 batches of 20, 0.865-0.991. Single cells spread like a "
                            "chi-square with few degrees of freedom (sd 0.85 at ci), the pooled mean does not. The "
                            "near miss every-other-row (slope still -1): 1.82-2.23 over the same 8 batches. With 24 seeds the "
                            "ESL slope's CI left the band under 1 of 9 independent root seeds (python -m "
                            "tests.decisiveness: -1.145 [-1.328, -0.953]), hence 48 at ci: roots 0-9 give ESL "
                            "-1.067 .. -0.850 (CI ends -1.165 .. -0.760) and |eps_e| -0.687 .. -0.565 (upper ends at "
                            "most -0.465). At quick, 20 seeds left |eps_e|'s CI at -0.508 [-0.671, -0.328] under root "
                            "4 of 0-4, inconclusive, hence 48 there too: roots 0-9 give ESL -1.054 .. -0.935 (CI ends "
                            "-1.154 .. -0.821), |eps_e| -0.682 .. -0.555 (upper ends at most -0.451), the level "
                            "0.934-1.094. The distance to a projection (Thm 4.2(b); added 2026-11-28, python -m "
                            "tests.decisiveness, roots 0-4, 48 seeds): gram_dev slopes -1.095 .. -0.916 at ci (upper "
                            "CI ends at most -0.820, root 4) and -1.031 .. -0.943 at quick (at most -0.629: root 2, "
                            "decided at the look over 24 seeds, whose CI is widened; -0.770 over all 48), every root "
                            "holding at both profiles: the distance is second order, q/n as in Lemma C.5, not "
                            "the sqrt(q/n) of the theorem, which the bound -0.45 judges (q_ERM does not grow with n "
                            "at fixed m; 0.05 of room). The near miss loose-basis (RF-ERM's span, its basis "
                            "orthonormal only to eps = 2e-3, about 0.011 from a projection whatever n), seeds 0-23: "
                            "its test fails at the first look, -0.057 [-0.197, +0.096] over 6 seeds; over all 24, "
                            "slopes -0.111 .. -0.032 at ci (lower CI ends at least -0.163, root 1), -0.053 .. -0.012 "
                            "at quick (at least -0.097, root 3); the other checks leave it holding or inconclusive "
                            "under every root (|eps_e|'s upper CI ends -0.493 .. -0.226). Margins: correct 0.18 "
                            "(quick) and 0.37 (ci) inside -0.45, the fault 0.25 (ci) and 0.35 (quick) outside. "
                            f"Lemmas C.10 and C.5 (added 2026-11-29): slope CIs of max_i ||phi_i - phi_hat_i|| and "
                            f"||A P^k - A P_hat||_HS inside {FIRST_ORDER_BAND}, predicted -1/2 (first order), the "
                            "printed rate -1 outside it by 0.3. Root 0: ci -0.496 [-0.541, -0.450] and -0.491 [-0.544, "
                            "-0.438], quick -0.464 [-0.506, -0.424] and -0.466 [-0.515, -0.422]. Roots 0-4 (python -m "
                            "tests.decisiveness) hold at both profiles: at ci slopes -0.545 .. -0.461 (eigenvectors) "
                            "and -0.552 .. -0.448 (lifted), CI ends -0.673 .. -0.361 (root 1, decided at the look over "
                            "24 seeds); at quick -0.514 .. -0.464 and -0.514 .. -0.466, CI ends -0.632 .. -0.346 (root "
                            "2, at the look). The "
                            "printed C.10 bound with q_A = n ESL is exceeded in every cell (ratio up to 71 at ci, 88 at "
                            "quick), the printed C.5 bound in none at these n (ratio up to 0.56 at n = 4096: its "
                            "constant lambda_1 / (sqrt2 - 1) sqrt(sum ((2 lambda_i + 4 lambda_1) / lambda_i^2)^2) is "
                            "large, and the ratio grows like sqrt(n), so it is exceeded from n ~ 1.3e4). The first-"
                            "rows fault leaves both flat (slope about 0). Sec. 5: |J - J_proj| slope -1.069 [-1.178, "
                            "-0.936] at ci (root 0), bound -0.45 as for gram_dev; J exceeds the optimum in 0/288 "
                            "cells at ci and quick under every root (|J - J_proj| slopes -1.069 .. -0.912 at ci, -1.087 .. "
                            "-0.902 at quick, upper CI ends at most -0.567, root 2 at the look) (E = opt - J is within 1e-5 of E_proj, both about eps_a(m) = "
                            "1.8e-3 at m = 256); the loose-basis fault keeps |J - J_proj| from decaying. Full (n = "
                            "256..65536, m = 512, decided at the look over 25 seeds): eigenvector slope -0.473 [-0.534, "
                            "-0.415], lifted -0.472 [-0.542, -0.405], |J - J_proj| -0.998; the printed C.10 bound is "
                            "exceeded in 225/225 cells (up to 217x), the printed C.5 bound in 3/225 (up to 1.12x, at n = 16384 "
                            "and up), J above the optimum in none. Quick runs ci's grid (n = 128..4096, m = 256, 48 "
                            "seeds) since 2026-11-29, so its evidence is ci's above (roots 0-9 for ESL and |eps_e|, "
                            "0-4 for the other checks); the quick numbers above are of its former grid (n = "
                            "256..8192, m = 512), which was 17 of the main job's 410 cell-s"),
        faults=(Fault("first-rows", "an RF-ERM that fits only the first 128 rows whatever n",
                      {"rf-erm": rf_erm_first_rows}, keep=_declared_seeds),
                Fault("every-other-row", "a near miss: an RF-ERM that fits X[::2]; ESL keeps its n^-1 rate and "
                      "doubles its level q/n", {"rf-erm": rf_erm_every_other_row}, keep=_declared_seeds),
                Fault("loose-basis", "a near miss: RF-ERM's subspace in a basis orthonormal only to a fixed 2e-3 "
                      "(U (I + 0.002 (11^T - I)), unit columns); ESL and |eps_e| pass or straddle, the lifted "
                      "output stays 0.011 from a projection whatever n", {"rf-erm": rf_erm_loose_basis},
                      keep=_declared_seeds)),
    ),
    Claim(
        id="ullah18.oja-esl",
        source="Ullah et al. 2018, Lemma D.4 (RF-Oja is an efficient subspace learner, Def. 4.1; Cor. 4.4(b))",
        statement="One pass of Oja's algorithm on m random features with the step schedule of Thm D.3 leaves "
                  "||(Phi_k^perp)^T Q_n||_F^2 <= Theta~(T_1 / (n - T_0 - T_1)) <= Theta~(2 Lambda / (gap^2 n)) for "
                  "large n, so RF-Oja is an ESL with q_oja = Theta~(Lambda / gap^2), gap and Lambda of C_m. Here "
                  "phase 3 of the schedule from the start (eta_t = 2.5 / (gap (t + Lambda / gap^2)), the rate claims' "
                  f"RF-Oja), k = {OJA_K} rather than 3 (the burn-in Lambda / gap^2 is about 50 samples instead of "
                  "220, so the asymptotic regime covers the ci grid), m fixed at 32 (ci), 64 (quick) or 256 (full)",
        prediction="ESL slope about -1 vs n at fixed m, and n ESL gap^2 / Lambda of order one: at most the printed 2 "
                   "with the Theta~'s constant taken as 1 (the paper gives none)",
        data=MEHLER.replace(f"k = {K}", f"k = {OJA_K}"),
        metric="RF-Oja's ESL quantity ||(Phi_k^perp)^T Q_n||_F^2 (Phi_k: top-k eigenvectors of the population C_m "
               "of its feature map) and its level n ESL gap^2 / Lambda",
        metrics=("esl", "esl_level", "esl_ceiling"),
        estimators={"rf-oja": rf_oja},
        experiment=oja_esl_experiment,
        grid=PerProfile(*(Grid(NS[p], OJA_SEEDS[p], params={"m": OJA_M[p]}) for p in ("ci", "quick", "full"))),
        judge=ProbableBound("esl_level", OJA_LEVEL_MAX, OJA_DELTA, label="n ESL gap² / Λ",
                            bound_label="Lemma D.4: 2 Λ / gap² (Θ~ constant 1)", ceiling="esl_ceiling",
                            ylabel="n ESL gap² / Λ", name="oja_esl"),
        tolerance=Tolerance(f"ESL slope CI inside [-1.3, -0.7] (as ullah18.estimation's); mean n ESL gap^2 / Lambda "
                            f"over every cell <= {OJA_LEVEL_MAX}",
                            "ci (m = 32, 12 seeds, n = 128..4096), roots 0-4 (python -m tests.decisiveness): 0 to 3 of "
                            "72 cells above 2 (root 4: 3, binomial p = 0.98), median slack 2 / level 20.6-26.9; quick "
                            "(m = 64, 24 seeds, n = 256..8192): 0 or 1 of 144 above, slack 19.5-23.6. Single cells are "
                            "heavy-tailed (a draw whose start is nearly orthogonal to a top direction lags: level 5.4 "
                            "once at n = 512), so the slope of the seed mean is not judged (its CI spanned [-1.50, "
                            "-0.61] over 12 seeds); a bound constant in n is the 1/n rate of Def. 4.1. Faults (seeds "
                            "0-5 decide): small-steps (step constant 0.25) 35/36 cells above, slack 0.066; "
                            "constant-step 16/36 above, slack 1.48, its level growing like n"),
        faults=(Fault("small-steps", "a near miss: eta0 a tenth of the schedule's (a gap overestimated tenfold), a "
                      "step constant 0.25 < 1/2: Oja still converges, like n^(-1/2)", {"rf-oja": rf_oja_small_steps}),
                Fault("constant-step", "a step that never decays (the schedule's first step, 2.5 gap / Lambda, "
                      "held): the ESL quantity stalls at a level set by eta", {"rf-oja": rf_oja_constant_step})),
    ),
]
