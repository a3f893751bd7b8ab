"""bach13.fig2-rates: the left and middle panels of Fig. 2 (Sec. 5), λ* and the risk at λ*
against n for the signal nu_i = i^-16 (delta = 8) and the kernels mu_i = i^(-2 beta), beta = 1, 4, 8.

Table 1 places beta = 1 on line 1 (2 delta = 16 > 4 beta + 1 = 5): lambda* ∝ n^(-2 beta/(4 beta + 1))
= n^(-2/5) and risk ∝ n^(1/(4 beta + 1) - 1) = n^(-4/5), slower than the optimal n^(1/(2 delta) - 1)
= n^(-15/16); beta = 4 and 8 are on line 2 (16 < 17, 33): lambda* ∝ n^(-beta/delta) = n^(-1/2) and
n^(-1), both with the optimal risk rate n^(-15/16). For beta = delta the signal is the kernel's own
series (nu_i = mu_i) and KRR at lambda = sigma^2 / n is the Wiener filter of every frequency
(shrinkage mu_i / (mu_i + sigma^2 / n)), so lambda* = sigma^2 / n exactly (ours).

Sec. 5 says that for beta = 8 lambda* 'saturates as n grows at the machine precision, leading,
because of numerical errors, to worse prediction performance'. With the kernel of the series
(k(x, x) = 2 zeta(16)), lambda* = sigma^2 / n stays above machine epsilon up to n ~ 4.5e15; the
smoother depends on K / lambda only, so a kernel scaled by s has lambda* scaled by s exactly, and the
printed B_16(t)/16! has s = (2 pi)^(-16) = 1.7e-13 (PAPER.errata): its lambda* reaches eps = 2.2e-16 at
n = 760, which reproduces the saturation on a lambda range that stops at eps (fault printed-scale).
Measured on the grid design (exact FFT spectra): lambda* (exact risk minimised over [eps, 1e2]),
whether it sits on that floor, the risk there, d_ave; and, at n <= ``solve_max``, the risk of KRR
solved in float64 (Cholesky of K + n lambda* I on the dense Gram matrix) against the exact one.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.linalg as sla

from kpca_suite.kernels.periodic import PeriodicKernel
from kpca_suite.theory import fit_loglog, verdict_from_ci
from kpca_suite.theory.dof import dof_circulant, krr_risk, optimal_lambda, smoother_risk
from kpca_suite.theory.periodic import grid_design, grid_energy, grid_spectrum, periodic_signal
from kpca_suite.theory.table1 import reference_slope, table1_line

from ...claim import Claim, Fault, Fit, Grid, Outcome, PerProfile, Tolerance
from ...judging import collect, combine, slope_judge
from ._common import SIGMA2

FIG2_BETAS = (1, 4, 8)


FIG2_DELTA = 8                    # nu_i = i^(-2 delta) = i^-16


EPS = float(np.finfo(np.float64).eps)


# Slope tolerance, as table1's polynomial lines: measured |slope - reference| (deterministic) on
# n = 2^8..2^13 (ci) / 2^16 (quick) / 2^20 (full): beta = 1 lambda* 0.016 / 0.011 / 0.007, risk 0.025 /
# 0.020 / 0.015; beta = 4 risk 0.015 / 0.027 / 0.027; beta = 8 lambda* 0.000 (lambda* = 1/n), risk 0.033
# / 0.007 / 0.031 (the risk counts the active frequencies, n^(1/16) = 1.4..2.4 here: a staircase).
# The risk bands of beta = 1 (-4/5) and beta = 4 (-15/16) are disjoint at +- 0.045.
FIG2_TOL = 0.045


# beta = 4 sits next to the boundary 2 delta = 4 beta + 1 (16 against 17) of lines 1 and 2, and its
# lambda* slope approaches -1/2 slowly: -0.379 (2^8..2^13), -0.427 (..2^16), -0.486 (..2^20); it is
# reported, not judged.
FIG2_LAM_JUDGED = (1, 8)


# Float64 solve against the exact risk: |risk(solved) / risk - 1| <= SOLVE_C rel cond, rel the
# kernel's own round-off (max |K - K^T| / max |K|: its closed form evaluated at t and 1 - t; B_16 has
# 1.3e-11, B_2 none, then eps) and cond = cond(K + n lambda* I). Measured dev / (rel cond): at most
# 0.26 (beta = 1), 0.05 (beta = 8); the float32-solve fault reads 2e-8..7e-8 for beta = 1, i.e.
# 5e5 times that limit (3.9e-14 at n = 256).
SOLVE_C = 10.0


def floored_optimal_lambda(eigenvalues, energy, n, sigma2):
    """lambda* of the exact risk over [eps, 1e2] (:func:`theory.dof.optimal_lambda`, 10 per decade):
    a lambda range that stops at machine epsilon. Returns (lambda*, risk, floored): floored = 1.0
    and lambda* = eps when the risk is smallest at that floor (saturated), else 0.0."""
    try:
        lam, risk = optimal_lambda(eigenvalues, energy, n, sigma2, log10_range=(math.log10(EPS), 2.0),
                                   grid_per_decade=10)
        return lam, risk, 0.0
    except ValueError:
        low, high = (sum(krr_risk(eigenvalues, energy, n, lam, sigma2)) for lam in (EPS, 1e2))
        if not low < high:
            raise
        return EPS, float(low), 1.0


def cholesky_smoother(K, ridge) -> np.ndarray:
    """S = K (K + ridge I)^{-1} in float64 (Cholesky; K and its resolvent commute, S is symmetric)."""
    return sla.cho_solve(sla.cho_factor(K + ridge * np.eye(K.shape[0])), K)


def fig2_experiment(cell, estimators) -> dict:
    """lambda*, the risk there, d_ave(lambda*) and ``floored`` (:func:`floored_optimal_lambda`) from the
    FFT of the grid Gram matrix of kernel beta (estimator ``kernel``) and the delta = 8 signal; at
    n <= solve_max, ``solve_dev`` = |risk of the float64 smoother (estimator ``smoother``) / exact risk
    - 1| and its limit ``solve_tol`` (SOLVE_C x kernel round-off x cond(K + n lambda* I)); NaN above."""
    n, beta = cell.n, cell.p["beta"]
    kern = estimators["kernel"]("poly", beta)
    X = grid_design(n)
    z = periodic_signal(X, "poly", FIG2_DELTA)
    e = np.clip(grid_spectrum(kern, n), 0.0, None)
    lam, risk, floored = floored_optimal_lambda(e, grid_energy(z), n, SIGMA2)
    out = {"lam": lam, "risk": risk, "d_ave": float(dof_circulant(e, lam).d_ave), "floored": floored,
           "solve_dev": float("nan"), "solve_tol": float("nan")}
    if n <= cell.p["solve_max"]:
        K = kern.block(X)
        S = estimators["smoother"](K, n * lam)
        rel = max(float(np.abs(K - K.T).max() / np.abs(K).max()), EPS)
        cond = (e.max() + n * lam) / (n * lam)
        out.update(solve_dev=abs(sum(smoother_risk(S, z, SIGMA2)) / risk - 1), solve_tol=SOLVE_C * rel * cond)
    return out


def _printed_scale_onset(x, lam, beta):
    """The first n of the grid where lambda* (2 pi)^(-2 beta) < eps (the printed kernel's scale), or None."""
    below = np.flatnonzero(lam * (2 * math.pi) ** (-2.0 * beta) < EPS)
    return int(x[below[0]]) if below.size else None


@slope_judge
def judge_fig2(results, profile) -> Outcome:
    """Per beta: risk slope within FIG2_TOL of Table 1's (line 1 or 2); lambda* slope too for
    beta in FIG2_LAM_JUDGED; lambda* never on the eps floor; float64 solves within their limit.
    Reported: beta = 4's lambda* slope, d_ave slopes, where the printed scale would saturate."""
    parts, bits, fits, measured, predicted = [], [], [], {}, {}
    for beta in FIG2_BETAS:
        rows = [r for r in results if r.cell.p["beta"] == beta]
        if not rows:
            continue
        line = table1_line("poly", beta, "poly", FIG2_DELTA)
        floored = [r.cell.n for r in rows if r.metrics["floored"] != 0.0]
        if floored:
            parts.append("fails")
            bits.append(f"β={beta}: λ* on the machine-epsilon floor at n = {sorted(floored)} (saturated)")
        said = []
        for q, rate in (("lam", line.lam), ("risk", line.risk), ("d_ave", line.d_ave)):
            x, Y = collect(rows, q)
            fit = fit_loglog(x, Y)
            ref = reference_slope(rate, x)
            band = (ref - FIG2_TOL, ref + FIG2_TOL)
            judged = q == "risk" or (q == "lam" and beta in FIG2_LAM_JUDGED)
            if judged:
                parts.append(verdict_from_ci((fit.slope, fit.slope), band))
            said.append(f"{q} {fit.slope:+.3f} (line {line.line}: {ref:+.3f}{'' if judged else ', reported'})")
            measured[f"β={beta} {q}"] = fit.slope
            predicted[f"β={beta} {q}"] = ref
            if q != "d_ave":
                name = {"lam": "λ*", "risk": "risk at λ*"}[q]
                fits.append(Fit(f"β = {beta}: {name}", x, Y, fit.slope, (fit.slope, fit.slope), fit.intercept,
                                predicted=ref, band=band if judged else None, ylabel=name))
        solved = [r for r in rows if r.cell.n <= r.cell.p["solve_max"]]
        worst = max(solved, key=lambda r: r.metrics["solve_dev"] / r.metrics["solve_tol"]
                    if np.isfinite(r.metrics["solve_dev"]) else np.inf, default=None)
        if worst is not None:
            dev, tol = worst.metrics["solve_dev"], worst.metrics["solve_tol"]
            parts.append("holds" if dev <= tol else "fails")  # NaN fails
            said.append(f"float64 solve at n <= {worst.cell.p['solve_max']}: worst |risk/exact - 1| {dev:.1e} "
                        f"(limit {tol:.1e}, n = {worst.cell.n})")
            measured[f"β={beta} solve_dev/limit"] = float(dev / tol)
        x, Y = collect(rows, "lam")
        onset = _printed_scale_onset(x, Y[:, 0], beta)
        said.append(f"λ* min {Y.min():.2e}; with the printed scale (2π)^-{2 * beta}, λ* < eps from n = {onset} "
                    "(not judged)" if onset else f"λ* min {Y.min():.2e}; the printed scale stays above eps")
        measured[f"β={beta} printed_scale_onset_n"] = float(onset) if onset else float("nan")
        bits.append(f"β={beta}: " + ", ".join(said))
    return Outcome(combine(parts), "; ".join(bits) + f" (± {FIG2_TOL}; exact grid risks, deterministic)",
                   fits, measured, predicted)


class _ScaledKernel(PeriodicKernel):
    """PeriodicKernel times (2 pi)^(-2 beta)."""

    def mu(self, i) -> np.ndarray:
        return (2 * math.pi) ** (-2.0 * self.rate) * super().mu(i)

    def of_difference(self, t) -> np.ndarray:
        return (2 * math.pi) ** (-2.0 * self.rate) * super().of_difference(t)

    def sup_diag(self, X=None) -> float:
        return (2 * math.pi) ** (-2.0 * self.rate) * super().sup_diag()


def printed_scale_kernel(decay, rate) -> PeriodicKernel:
    """The kernel at the scale of the printed B_{2 beta}(t) / (2 beta)!: the series times (2 pi)^(-2 beta)
    (the sign corrected, so that it stays PSD); lambda* scales with it."""
    return _ScaledKernel(decay, rate)


def float32_smoother(K, ridge) -> np.ndarray:
    """The smoother solved in float32 (a Gram matrix kept in single precision), returned as float64."""
    K32 = K.astype(np.float32)
    return np.linalg.solve(K32 + np.float32(ridge) * np.eye(K.shape[0], dtype=np.float32), K32).astype(np.float64)


def _fig2_grid(top, solve_max):
    return tuple(Grid(sizes=tuple(2**k for k in range(8, top + 1)), seeds=1,
                      params=dict(beta=beta, solve_max=solve_max), methods=("grid",),
                      describe=f"β = {beta}: grid n = 2^8..2^{top}, float64 solves at n <= {solve_max}")
                 for beta in FIG2_BETAS)


CLAIMS = [
    Claim(
        id="bach13.fig2-rates",
        source="Bach 2013, Fig. 2 (left: λ* against n; middle: the risk) and Sec. 5",
        statement="With ν_i = i^-16 (δ = 8), the β = 1 kernel attains line 1's rate n^(-4/5), slower than the "
                  "optimal n^(-15/16), which β = 4 attains (line 2); β = 8 is line 2 too, with λ* ∝ n^-1. The "
                  "paper's saturation of λ* at machine precision for β = 8 is not what the kernel of the series "
                  "gives: λ* = σ²/n (ours: ν_i = μ_i makes KRR a Wiener filter) stays far above machine "
                  "epsilon, and float64 KRR at λ* matches the exact risk; it is reproduced by the printed "
                  "kernel's scale (2π)^-16 on a λ range floored at eps (PAPER.errata)",
        prediction="risk slopes -4/5 (β = 1), -15/16 (β = 4, 8); λ* slopes -2/5 (β = 1), -1 (β = 8), β = 4's "
                   "(-1/2) reported; λ* above eps; float64 solves within 10 x kernel round-off x cond",
        data="equispaced grid design (exact FFT spectrum), signal ν_i = i^-16, kernels μ_i = i^(-2β) (corrected "
             "Bernoulli form), σ² = 1 (the paper's is not given), λ* minimised over [eps, 1e2]; no bandwidth rule",
        metric="log-log slopes against n of λ* and of the risk at λ*; whether λ* sits on the eps floor; "
               "|risk of the float64 Cholesky smoother / exact risk - 1| at small n",
        metrics=("d_ave", "floored", "lam", "risk", "solve_dev", "solve_tol"),
        estimators={"kernel": PeriodicKernel, "smoother": cholesky_smoother},
        experiment=fig2_experiment,
        grid=PerProfile(ci=_fig2_grid(13, 512), quick=_fig2_grid(16, 1024), full=_fig2_grid(20, 2048)),
        judge=judge_fig2,
        tolerance=Tolerance(
            rule="risk slopes (and λ* slopes for β = 1, 8) within ± 0.045 of Table 1's; λ* > eps in every cell; "
                 "float64 risk within 10 x (kernel round-off) x cond(K + nλ*I) of the exact one",
            evidence="deterministic (exact FFT, one design): worst |slope - reference| at ci (n = 2^8..2^13) "
                     "0.033 (β = 8 risk), at quick (..2^16) 0.027 (β = 4 risk), at full (..2^20) 0.031 (β = 8 "
                     "risk); β = 4's λ* slope -0.379 / -0.427 / -0.486 for -1/2 (next to the line boundary "
                     "16 vs 17), reported. Float64 solves at n = 256..2048: |risk/exact - 1| <= 1.9e-15 (β = 1), "
                     "1.4e-9 (β = 4), 8.8e-9 (β = 8, the B_16 closed form's own round-off 1.3e-11 x cond 2050), "
                     "at most 0.26 of the limit; the float32-solve fault reads 2e-8..7e-8 for β = 1 (limit "
                     "3.9e-14). printed-scale: λ* = eps on the floor from n = 1024 (β = 8)."),
        faults=(Fault("printed-scale", "the kernel at the printed B_16(t)/16! scale (2π)^-16 (sign corrected): "
                      "λ* scales by 1.7e-13 and saturates on the eps floor, as the paper's Fig. 2 shows",
                      {"kernel": printed_scale_kernel}, keep=lambda c: c.p["beta"] == 8),
                Fault("float32-solve", "KRR solved with the Gram matrix in float32", {"smoother": float32_smoother},
                      keep=lambda c: c.p["beta"] == 1)),
    ),
]
