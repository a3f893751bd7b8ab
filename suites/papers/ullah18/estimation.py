"""ullah18.estimation: the estimation error's rate and level."""

from __future__ import annotations

import numpy as np

from kpca_suite.methods.rf_erm import RFERM
from kpca_suite.theory.rf_objective import (esl_first_order, esl_quantity, gram_deviation, lifted_objective,
                                            population_grams, procrustes_rotation, projected_objective)

from ...claim import Claim, Fault, Grid, PerProfile, Tolerance
from ...judging import AllOf, MeanAtMost, SlopeInBand
from ._common import MEHLER, NS, K, _fitted, _population, _seed_int, rf_erm

ESTIMATION_M = PerProfile(ci=256, quick=512, full=512)


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


def _evaluate(model, pop, Phi, U) -> dict:
    """Lifted and projected excess risk, ESL quantity, ||G - I|| of the RF output U
    (rotated by the Procrustes R* towards Phi_k, Def. 3.6)."""
    opt = model.optimum(K)
    Ur = U @ procrustes_rotation(U, Phi)
    G, H = population_grams(Ur, pop.C, pop.M)
    J = lifted_objective(G, H)
    return {"J": J, "excess": opt - J, "excess_proj": opt - projected_objective(G, H),
            "esl": esl_quantity(Phi, U), "gram_dev": gram_deviation(G)}


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
               "C.11 (eps_e; an erratum) and Thm 4.2(b) (the lifted output's distance to a projection)",
        statement="At fixed m, RF-ERM's ESL quantity ||(Phi_k^perp)^T Phi_hat||_F^2 decays like q/n (Cor. 4.4(a), "
                  "Lemma D.2). Lemma 4.6 states eps_e <= const q^2/n (the proof of C.11 ends with q/n), but eps_e has "
                  "a non-vanishing first-order term (Phi_k maximises the objective for L_m, not L) and decays like "
                  "n^(-1/2), Thm 4.2(a)'s sqrt(q/n): that is the rate judged for |eps_e|. The lifted output is within "
                  "sqrt(q/n) of a rank-k projection in the RKHS (Thm 4.2(b)). Here m = 256 (ci) or 512 on the 1-D "
                  "oracle, q the exact first-order constant of E ESL rather than the paper's q_ERM",
        prediction="ESL slope about -1 at the level of its first-order constant q (n ESL / q about 1); |eps_e| slope "
                   "about -1/2 (at most -0.35), not the -1 Lemma 4.6 states; the distance to a projection, "
                   "||D^(-1/2) G D^(-1/2) - I||_F, decays at least like n^(-1/2) (slope at most -0.45; measured "
                   "about -1: it is second order in Phi_hat - Phi_k after the Procrustes rotation, as Lemma C.5's q/n "
                   "says, faster than Thm 4.2(b)'s sqrt(q/n))",
        data=MEHLER,
        metric="ESL quantity ||(Phi_k^perp)^T U||_F^2 (Phi_k: top-k eigenvectors of the population C_m), "
               "|eps_e| = |J(Phi_k) - J(U rotated)| and the distance of the lifted output to the rank-k "
               "projections, ||D^(-1/2) G D^(-1/2) - I||_F (G the L^2(rho) Gram of the rotated output's functions, "
               "D its diagonal), of RF-ERM with m = 256 (ci) or 512",
        metrics=("J", "eps_a", "eps_e", "eps_e_abs", "esl", "esl_level", "excess", "excess_proj", "gram_dev"),
        estimators={"rf-erm": rf_erm},
        experiment=estimation_experiment,
        grid=PerProfile(*(Grid(NS[p], ESTIMATION_SEEDS[p], params={"m": ESTIMATION_M[p]})
                          for p in ("ci", "quick", "full"))),
        judge=AllOf(SlopeInBand("esl", (-1.3, -0.7), label="ESL ‖(Φ_k^⊥)ᵀΦ̂‖²", ylabel="estimation error",
                                predicted=-1.0, name="esl_slope"),
                    SlopeInBand("eps_e_abs", (-np.inf, EPS_E_SLOPE_MAX), label="|ε_e|", ylabel="estimation error",
                                predicted=-0.5, name="eps_e_abs_slope"),
                    MeanAtMost("esl_level", ESL_LEVEL_MAX, "n ESL / q (first-order constant, expectation 1)",
                               x=None),
                    SlopeInBand("gram_dev", (-np.inf, GRAM_DEV_SLOPE_MAX), label="‖D^-½ G D^-½ − I‖_F",
                                ylabel="distance to a projection", predicted=-0.5, name="gram_dev_slope")),
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
                            "(quick) and 0.37 (ci) inside -0.45, the fault 0.25 (ci) and 0.35 (quick) outside"),
        faults=(Fault("first-rows", "an RF-ERM that fits only the first 128 rows whatever n",
                      {"rf-erm": rf_erm_first_rows}, keep=_declared_seeds),
                Fault("every-other-row", "a near miss: an RF-ERM that fits X[::2]; ESL keeps its n^-1 rate and "
                      "doubles its level q/n", {"rf-erm": rf_erm_every_other_row}, keep=_declared_seeds),
                Fault("loose-basis", "a near miss: RF-ERM's subspace in a basis orthonormal only to a fixed 2e-3 "
                      "(U (I + 0.002 (11^T - I)), unit columns); ESL and |eps_e| pass or straddle, the lifted "
                      "output stays 0.011 from a projection whatever n", {"rf-erm": rf_erm_loose_basis},
                      keep=_declared_seeds)),
    ),
]
