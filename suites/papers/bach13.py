"""bach13: Bach (2013), "Sharp analysis of low-rank kernel matrix approximations"
(seeds/004; notes and errata in reference/seed004.md). Every ``bach13.*`` row of
CLAIMS.md is registered here.

All experiments use the periodic kernels of the paper's Sec. 5 on [0, 1)
(:mod:`theory.periodic`, with the corrected Bernoulli formula) and the signal
f = sum_i 2 nu_i^(1/2) cos 2 pi i x, and score every estimator by its exact in-sample
risk (bias + variance, :mod:`theory.dof`): no Monte Carlo over the noise, except in the
check of those formulas. The grid design (circulant, FFT) gives exact df and risks in
O(n log n); the uniform random design (the paper's Fig. 2 right) needs one O(n^3)
eigendecomposition per cell. Estimators and column orders are looked up as module
globals at call time, which is how the planted-fault tests swap in broken ones.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.linalg as sla
from scipy.sparse.linalg import eigsh

from kpca_suite.kernels.cholesky import incomplete_cholesky
from kpca_suite.methods.krr import KernelRidge, NystromKRR
from kpca_suite.methods.landmarks import FixedLandmarks
from kpca_suite.theory import fit_loglog, octaves, verdict_from_ci
from kpca_suite.theory.dof import dof_circulant, dof_from_eigh, krr_risk, optimal_lambda, smoother_risk
from kpca_suite.theory.periodic import (PeriodicKernel, grid_design, grid_energy, grid_spectrum, periodic_signal,
                             uniform_design)
from kpca_suite.theory.table1 import eq6_rank, first_nonvacuous_n, lemma_b1_bound, reference_slope, table1_line

from ..analysis import cell_rng, collect, combine, fmt_ci
from ..plots import save_figure
from ..registry import Cell, Claim, Fit, Verdict, register

PAPER = "bach13"
PROFILES = ("ci", "quick", "full")
SIGMA2 = 1.0          # noise variance of every risk (the paper does not report its sigma^2)
SIGNAL = ("poly", 2)  # nu_i = i^-4 (delta = 2): f(x) = 2 pi^2 B_2(x), the beta = 1 kernel at (x, 0)
# Kernels of the random-design claims (reference section 4: B_2, B_4 and exp(rho = 1)).
RANK_KERNELS = (("poly", 1), ("poly", 2), ("exp", 1.0))


def _check(profile):
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {PROFILES}, got {profile!r}")


def _kernel(p) -> PeriodicKernel:
    return PeriodicKernel(p["kdecay"], p["krate"])


def _random_problem(cell: Cell, lam_scale: float = 1.0):
    """Uniform random design, the kernel of the cell, z = f(X), K's eigendecomposition,
    lambda* of the exact full-KRR risk (times ``lam_scale``) and the df at that lambda."""
    p = cell.p
    X = uniform_design(cell.n, cell_rng(cell))
    kern = _kernel(p)
    z = periodic_signal(X, *SIGNAL)
    K = kern.block(X)
    e, U = np.linalg.eigh(K)
    e = np.clip(e, 0.0, None)
    energy = (U.T @ z) ** 2
    lam, _ = optimal_lambda(e, energy, cell.n, SIGMA2)
    lam *= lam_scale
    bias, var = krr_risk(e, energy, cell.n, lam, SIGMA2)
    dof = dof_from_eigh(e, U, lam)
    return dict(X=X, kern=kern, z=z, K=K, e=e, U=U, lam=lam, risk=bias + var, dof=dof)


def nested_risks(G, z, lam, sigma2):
    """Exact risk (:func:`theory.dof.krr_risk`) of L_p = G_p G_p^T for every prefix p = 1..r
    of the columns of G, by Cholesky solves instead of r eigendecompositions.

    G = Q R (QR is nested: Q_p spans G_p), so L_p = Q_p M_p Q_p^T with M_p = R_p R_p^T and
    the smoother is Q_p S_p Q_p^T, S_p = (M_p + n lambda I)^{-1} M_p (symmetric). With
    q = Q^T z: bias = (1/n) (||z||^2 - ||q_p||^2 + ||(I - S_p) q_p||^2) and variance =
    (sigma^2 / n) ||S_p||_F^2. O(n r^2 + sum_p p^3 / 3).
    """
    Q, R = np.linalg.qr(G)
    q = Q.T @ z
    n = G.shape[0]
    zz = float(z @ z)
    out = np.empty(G.shape[1])
    for k in range(1, G.shape[1] + 1):
        M = R[:k, :k] @ R[:k, :k].T
        S = sla.cho_solve(sla.cho_factor(M + n * lam * np.eye(k)), M)
        qk = q[:k]
        bias = (max(zz - qk @ qk, 0.0) + np.sum((qk - S @ qk) ** 2)) / n
        out[k - 1] = bias + sigma2 * np.sum(S**2) / n
    return out


def column_order(method: str, X, rng):
    """Candidate order of the incomplete Cholesky: a uniform random permutation (its
    prefixes are uniform samples without replacement, Eq. (4)) or column pivoting."""
    return "pivot" if method == "pivot" else rng.permutation(X.shape[0])


def _settled_at_most(values, level):
    """The smallest 1-based p with values[p' - 1] <= level for every p' >= p, or len + 1."""
    above = np.flatnonzero(np.asarray(values) > level)
    return int(above[-1]) + 2 if above.size else 1




def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


# -- bach13.dof-identities -------------------------------------------------------------

IDENT_N = {"ci": 120, "quick": 200, "full": 400}
IDENT_SEEDS = {"ci": 3, "quick": 5, "full": 20}
IDENT_P = 15
MC_DRAWS = {"ci": 4000, "quick": 8000, "full": 20000}
# Relative round-off allowances. Measured (ci: n = 120, seeds 0-2; quick: n = 200, seeds 0-4;
# both kernels): chain 0, d == df1 on the grid <= 9e-14, FFT vs eigh <= 9e-16, L <= K
# violation <= 3.5e-16 of ||K||, variance order 0, estimator smoothers vs the spectral
# formulas <= 1.5e-13; Monte Carlo z <= 2.24 (4000 / 8000 draws). The "columns" solver
# C (C^T C + n lambda W)^{-1} C^T y squares the condition number of W: its agreement with
# the "features" solver is 5e-11 at ci and 4.2e-8 at quick, so it gets its own allowance.
IDENT_RTOL = 1e-8
SOLVER_RTOL = 1e-6
MC_Z = 4.0  # |MC mean - exact| / its standard error; reference section 4 item 5


def run_identities_cell(cell: Cell) -> dict:
    """Exact identities and inequalities of Secs. 4.1-4.4 on one random design (and the grid).

    Violations are >= 0 amounts relative to the natural scale (0 when the relation holds);
    ``mc_z_*`` are z-scores of the exact risk against a Monte Carlo over the noise.
    Never per-instance bias(L) >= bias(K): it is false (notes pitfall 9).
    """
    pr = _random_problem(cell)
    n, lam, K, e, U, z = cell.n, pr["lam"], pr["K"], pr["e"], pr["U"], pr["z"]
    kern = pr["kern"]
    dof = pr["dof"]
    R2 = kern.sup_diag()
    scale = dof.d
    out = {"chain": max(dof.d_ave - dof.df1, dof.df1 - dof.d, dof.d - n * R2 / (R2 + n * lam), 0.0) / scale}
    # circulant grid: d == df1 by eigh, and the FFT df1 equals the eigh one.
    Xg = grid_design(n)
    eg, Ug = np.linalg.eigh(kern.block(Xg))
    dg = dof_from_eigh(eg, Ug, lam)
    fft = dof_circulant(grid_spectrum(kern, n), lam)
    out["grid_d_eq_df1"] = abs(dg.d - dg.df1) / dg.df1
    out["fft_vs_eigh"] = max(abs(fft.df1 - dg.df1) / dg.df1, abs(fft.d_ave - dg.d_ave) / dg.d_ave)
    # Nyström: L <= K, variance(L) <= variance(K); estimator smoothers vs the spectral formulas.
    rng = cell_rng(cell, "columns")
    est = NystromKRR(kern, lam, IDENT_P, sampling="uniform", random_state=rng)
    Y = np.column_stack([z, np.eye(n)])
    S_L = est.fit(pr["X"], Y).predict(pr["X"])[:, 1:]
    G = est.features_
    L = G @ G.T
    out["L_le_K"] = max(-np.linalg.eigvalsh(K - L).min(), 0.0) / e.max()
    sL, VL = np.linalg.eigh(L)
    sL = np.clip(sL, 0.0, None)
    cL = (VL.T @ z) ** 2
    bL, vL = krr_risk(sL, cL, n, lam, SIGMA2)
    bK, vK = krr_risk(e, (U.T @ z) ** 2, n, lam, SIGMA2)
    out["variance_order"] = max(vL - vK, 0.0) / vK
    sb, sv = smoother_risk(S_L, z, SIGMA2)
    same_columns = FixedLandmarks(tuple(est.column_indices_))
    cols = NystromKRR(kern, lam, IDENT_P, sampling=same_columns, solver="columns").fit(pr["X"], Y)
    S_Lc = cols.predict(pr["X"])[:, 1:]
    S_K = KernelRidge(kern, lam).fit(pr["X"], np.eye(n)).predict(pr["X"])
    kb, kv = smoother_risk(S_K, z, SIGMA2)
    out["smoother_L"] = max(abs(sb - bL) / bL, abs(sv - vL) / vL)
    out["smoother_K"] = max(abs(kb - bK) / bK, abs(kv - vK) / vK)
    out["solvers"] = float(np.abs(S_Lc - S_L).max() / np.abs(S_L).max())
    # Monte Carlo over heteroscedastic noise, Cov = diag(s^2): the general (1/n) tr C S S^T form.
    noise_sd = np.sqrt(SIGMA2) * (0.5 + cell_rng(cell, "noise-sd").uniform(size=n))
    mc = cell_rng(cell, "mc")
    draws = MC_DRAWS[cell.p["profile"]]
    for name, S in (("K", S_K), ("L", S_L)):
        b, v = smoother_risk(S, z, np.diag(noise_sd**2))
        eps = mc.standard_normal((n, draws)) * noise_sd[:, None]
        loss = ((S @ (z[:, None] + eps) - z[:, None]) ** 2).mean(axis=0)
        out[f"mc_z_{name}"] = abs(loss.mean() - (b + v)) / (loss.std(ddof=1) / math.sqrt(draws))
    return {k: float(v) for k, v in out.items()}


def _identity_tolerance(key):
    return MC_Z if key.startswith("mc_z") else SOLVER_RTOL if key == "solvers" else IDENT_RTOL


def _judge_identities(results, profile):
    keys = sorted(results[0].metrics)
    worst = {k: max(r.metrics[k] for r in results) for k in keys}
    bad = [k for k in keys if not worst[k] <= _identity_tolerance(k)]
    exact = max(v for k, v in worst.items() if _identity_tolerance(k) == IDENT_RTOL)
    summary = (f"all exact relations within rtol 1e-8 (worst {exact:.1e}); the two Sec. 4.4 solvers agree to "
               f"{worst['solvers']:.1e} (<= 1e-6); Monte Carlo z <= {max(worst['mc_z_K'], worst['mc_z_L']):.2f} (<= 4)"
               if not bad else "violated: " + ", ".join(f"{k} = {worst[k]:.2e}" for k in bad))
    return Verdict("bach13.dof-identities", "fails" if bad else "holds", summary, [], worst,
                   {"rtol": IDENT_RTOL, "solver_rtol": SOLVER_RTOL, "mc_z_at_most": MC_Z})


register(Claim(
    id="bach13.dof-identities", paper=PAPER, source="Bach 2013, Eq. (5), Secs. 4.1-4.4, Thm 4.1 proof",
    statement="d_ave <= df1 <= d <= n R^2/(R^2 + n λ); d == df1 on the grid; L <= K; variance(L) <= variance(K); "
              "exact bias/variance agree with Monte Carlo and with the fitted estimators' smoothers",
    prediction="exact", tolerance="relative violation <= 1e-8 (the two solvers: 1e-6); Monte Carlo z <= 4; "
                                  "never bias(L) >= bias(K)",
    cells=lambda profile, options: [
        Cell.make("bach13.dof-identities", "krr", IDENT_N[profile], seed, kdecay=kd, krate=kr, profile=profile)
        for kd, kr in (("poly", 1), ("exp", 1.0)) for seed in range(IDENT_SEEDS[profile])],
    run_cell=run_identities_cell, judge=_judge_identities,
    sizes={pr: f"n = {IDENT_N[pr]}, p = {IDENT_P}, B_2 and exp(ρ=1) kernels, {IDENT_SEEDS[pr]} seeds, "
               f"{MC_DRAWS[pr]} noise draws" for pr in PROFILES},
))


# -- bach13.dof-decay --------------------------------------------------------------------

DECAY_N = {"ci": 2**16, "quick": 2**18, "full": 2**20}
DECAY_CASES = (("poly", 1), ("poly", 2), ("exp", 0.5), ("exp", 1.0))
DECAY_LEVELS = 24
# Tolerances of CLAIMS.md / reference section 4: "slope -1/(2 beta) +- 0.02, level within
# 1%"; exp: "within 0.1". The validity ranges are measured at n = 2^16 (printout of the
# relative level error per lambda, /tmp/b13_decay.py in the #3 note):
# * poly, upper end: at lambda^(-1/(2 beta)) = n/20 the beta = 1 level is 1.2% low (finite n:
#   the aliased spectrum), 0.27% at n/50, so the range is 10 <= lambda^(-1/(2 beta)) <= n/50;
#   beta = 2 stops at lambda = 1e-12 (error < 1e-4 there);
# * exp: ln(1/lambda) >= 6 (the Euler-Maclaurin offset is 0.40 at ln(1/lambda) = 2.5, 0.009
#   at 6.3 for rho = 0.5) and lambda >= 1e-9: the FFT's round-off eigenvalues (~3e-12
#   each, n of them) add about n 3e-12 / (n lambda), 0.12 at lambda = e^-30, 5e-6 at e^-20.
# Measured in range: worst level error 0.27% (beta = 1), slopes -0.50 and -0.25; exp
# offsets <= 0.01.
DECAY_SLOPE_TOL, DECAY_LEVEL_RTOL, DECAY_EXP_ATOL = 0.02, 0.01, 0.1
DECAY_POLY_MIN_LAMBDA = 1e-12
DECAY_EXP_LOG_RANGE = (6.0, 20.0)


def decay_levels(decay, rate, n):
    """lambda where the asymptotic forms hold (ranges measured above): 10 <= lambda^(-1/(2 beta))
    <= n/50 and lambda >= 1e-12 (poly); 6 <= ln(1/lambda) <= 20 (exp)."""
    if decay == "poly":
        lo, hi = (n / 50.0) ** (-2 * rate), 10.0 ** (-2 * rate)
        return np.geomspace(max(lo, DECAY_POLY_MIN_LAMBDA), hi, DECAY_LEVELS)
    return np.exp(-np.linspace(*DECAY_EXP_LOG_RANGE, DECAY_LEVELS))


def predicted_df1(decay, rate, lam):
    """df1 ~ 2 [c1 lambda^(-1/(2 beta)) - 1/2], c1 = (pi/(2 beta)) / sin(pi/(2 beta)) (poly);
    (2/rho) ln(1/lambda) - 1 (exp): each frequency is a cos/sin pair (notes section 4)."""
    lam = np.asarray(lam, dtype=float)
    if decay == "poly":
        a = 1.0 / (2 * rate)
        c1 = (math.pi * a) / math.sin(math.pi * a)
        return 2.0 * (c1 * lam**-a - 0.5)
    return 2.0 / rate * np.log(1.0 / lam) - 1.0


def grid_kernel(decay, rate):
    """The kernel of the grid claims (a module global so a planted fault can swap it)."""
    return PeriodicKernel(decay, rate)


def run_decay_cell(cell: Cell) -> dict:
    """df1(lambda) = sum_k e_k / (e_k + n lambda) over the FFT eigenvalues of the grid Gram
    matrix; ``psd`` records how negative the spectrum is (0 for a PSD kernel)."""
    p = cell.p
    e = grid_spectrum(grid_kernel(p["kdecay"], p["krate"]), cell.n)
    psd = max(-e.min(), 0.0) / np.abs(e).max()
    lam = decay_levels(p["kdecay"], p["krate"], cell.n)
    df1 = np.atleast_1d(dof_circulant(np.clip(e, 0.0, None), lam).df1)
    return {"psd": float(psd), **{f"df1_{i}": float(v) for i, v in enumerate(df1)}}


def _judge_decay(results, profile):
    parts, summaries, fits, measured = [], [], [], {}
    for r in sorted(results, key=lambda r: (r.cell.p["kdecay"], r.cell.p["krate"])):
        kd, kr, n = r.cell.p["kdecay"], r.cell.p["krate"], r.cell.n
        lam = decay_levels(kd, kr, n)
        df1 = np.array([r.metrics[f"df1_{i}"] for i in range(len(lam))])
        pred = predicted_df1(kd, kr, lam)
        tag = f"{kd} {'β' if kd == 'poly' else 'ρ'}={kr:g}"
        if r.metrics["psd"] > 1e-10 or not (df1 > 0).all():
            parts.append("fails")
            summaries.append(f"{tag}: kernel not PSD (min eigenvalue {-r.metrics['psd']:.2g} of max|e|)")
            measured[f"{tag} psd"] = r.metrics["psd"]
            continue
        if kd == "poly":
            fit = fit_loglog(lam, df1)
            level = float(np.max(np.abs(df1 / pred - 1)))
            band = (-1 / (2 * kr) - DECAY_SLOPE_TOL, -1 / (2 * kr) + DECAY_SLOPE_TOL)
            # deterministic (exact FFT, no seeds): the CI is the point estimate itself
            parts += [verdict_from_ci((fit.slope, fit.slope), band), "holds" if level <= DECAY_LEVEL_RTOL else "fails"]
            summaries.append(f"{tag}: slope {fit.slope:+.3f} in [{band[0]:+.3f}, {band[1]:+.3f}], "
                             f"max level error {100 * level:.2f}% (<= 1%)")
            fits.append(Fit(f"df1, {tag}", lam, df1, fit.slope, (fit.slope, fit.slope), fit.intercept,
                            predicted=-1 / (2 * kr), band=band, reference=pred, xlabel="λ", ylabel="df1 (grid, FFT)"))
            measured.update({f"{tag} slope": fit.slope, f"{tag} level_err": level})
        else:
            off = float(np.max(np.abs(df1 - pred)))
            parts.append("holds" if off <= DECAY_EXP_ATOL else "fails")
            summaries.append(f"{tag}: max |df1 - ((2/ρ) ln(1/λ) - 1)| = {off:.3f} (<= 0.1)")
            fit = fit_loglog(lam, df1)
            fits.append(Fit(f"df1, {tag}", lam, df1, fit.slope, (fit.slope, fit.slope), fit.intercept,
                            reference=pred, xlabel="λ", ylabel="df1 (grid, FFT)"))
            measured[f"{tag} max_abs_err"] = off
    return Verdict("bach13.dof-decay", combine(parts), "; ".join(summaries) + " (exact FFT spectra: deterministic)",
                   fits, measured, {"poly": "slope -1/(2β) ± 0.02, level within 1%",
                                    "exp": "(2/ρ) ln(1/λ) - 1 within 0.1"})


register(Claim(
    id="bach13.dof-decay", paper=PAPER, source="Bach 2013, Sec. 4.3 and App. C (df asymptotics)",
    statement="df1(λ) = tr K(K + nλ)^{-1} decays as λ^{-1/(2β)} (poly) and (2/ρ) ln(1/λ) (exp)",
    prediction="poly: 2[c1 λ^{-1/(2β)} - 1/2], slope -1/(2β); exp: (2/ρ) ln(1/λ) - 1",
    tolerance="slope ± 0.02, level within 1% (poly); within 0.1 (exp); fault: the paper's Bernoulli sign",
    cells=lambda profile, options: [
        Cell.make("bach13.dof-decay", "fft", DECAY_N[profile], 0, kdecay=kd, krate=kr) for kd, kr in DECAY_CASES],
    run_cell=run_decay_cell, judge=_judge_decay,
    sizes={pr: f"grid n = 2^{int(math.log2(DECAY_N[pr]))}, β ∈ {{1, 2}}, ρ ∈ {{0.5, 1}}, {DECAY_LEVELS} levels λ"
           for pr in PROFILES},
))


# -- bach13.table1 ----------------------------------------------------------------------

T1_NS = {"ci": [2**k for k in range(8, 14)], "quick": [2**k for k in range(8, 17)],
         "full": [2**k for k in range(8, 21)]}
# (line label, kernel decay, kernel rate, signal decay, signal rate)
T1_CASES = (("line 1", "poly", 1, "poly", 4), ("line 2", "poly", 1, "poly", 2),
            ("line 5", "exp", 0.5, "exp", 2.0), ("line 6", "exp", 1.0, "exp", 1.5))
T1_TOL = 0.2  # CLAIMS.md. Pilot, grid 2^8..2^13: worst |measured - predicted| 0.10 (d_ave, line 5).


def run_table1_cell(cell: Cell) -> dict:
    """lambda* (exact full-KRR risk minimised over lambda), the risk there and d_ave(lambda*),
    on the grid design from the FFT."""
    p = cell.p
    kern = PeriodicKernel(p["kdecay"], p["krate"])
    e = grid_spectrum(kern, cell.n)
    energy = grid_energy(periodic_signal(grid_design(cell.n), p["sdecay"], p["srate"]))
    lam, risk = optimal_lambda(np.clip(e, 0.0, None), energy, cell.n, SIGMA2, log10_range=(-14.0, 2.0),
                               grid_per_decade=10)
    dof = dof_circulant(np.clip(e, 0.0, None), lam)
    return {"lam": lam, "risk": risk, "d_ave": float(dof.d_ave), "df1": float(dof.df1)}


def _judge_table1(results, profile):
    parts, summaries, fits, measured, predicted = [], [], [], {}, {}
    for label, kd, kr, sd, sr in T1_CASES:
        rows = [r for r in results if r.cell.p["line"] == label]
        if not rows:
            continue
        line = table1_line(kd, kr, sd, sr)
        bits = []
        for q, rate in (("lam", line.lam), ("risk", line.risk), ("d_ave", line.d_ave)):
            x, Y = collect(rows, q)
            fit = fit_loglog(x, Y)
            ref = reference_slope(rate, x)
            band = (ref - T1_TOL, ref + T1_TOL)
            parts.append(verdict_from_ci((fit.slope, fit.slope), band))
            bits.append(f"{q} {fit.slope:+.3f} (pred {ref:+.3f})")
            measured[f"{label} {q}"] = fit.slope
            predicted[f"{label} {q}"] = ref
            fits.append(Fit(f"{label} {q}", x, Y, fit.slope, (fit.slope, fit.slope), fit.intercept, predicted=ref,
                            band=band, ylabel={"lam": "λ*", "risk": "risk at λ*", "d_ave": "d_ave(λ*)"}[q]))
        summaries.append(f"{label}: " + ", ".join(bits))
    x = collect(results, "lam")[0]
    return Verdict("bach13.table1", combine(parts),
                   "; ".join(summaries) + f" (± {T1_TOL}; exact grid risks, deterministic; {octaves(x):.0f} octaves)",
                   fits, measured, predicted)


register(Claim(
    id="bach13.table1", paper=PAPER, source="Bach 2013, Table 1 and App. C.3",
    statement="λ*, the risk at λ* and d_ave(λ*) scale with n as Table 1 says (lines 1, 2, 5, 6)",
    prediction="line 1 (β=1, δ=4): -2/5, -4/5, 1/5; line 2 (β=1, δ=2): -1/2, -3/4, 1/4; lines 5/6: "
               "-1/2 or -ρ/κ, log n / n, log n (log factors fitted on the same grid)",
    tolerance="every slope within ± 0.2 of the Table 1 exponent",
    cells=lambda profile, options: [
        Cell.make("bach13.table1", "grid", n, 0, line=label, kdecay=kd, krate=kr, sdecay=sd, srate=sr)
        for label, kd, kr, sd, sr in T1_CASES for n in T1_NS[profile]],
    run_cell=run_table1_cell, judge=_judge_table1,
    sizes={pr: f"grid n = 2^8..2^{int(math.log2(T1_NS[pr][-1]))}, σ² = {SIGMA2}" for pr in PROFILES},
))


# -- bach13.rank-rule and bach13.pivoting -------------------------------------------------

RANK_NS = {"ci": [50, 100, 200, 400], "quick": [50, 100, 200, 400, 800], "full": [200, 400, 800, 1600, 3200]}
RANK_SEEDS = {"ci": 5, "quick": 6, "full": 20}
PIVOT_NS = {"ci": [100, 200, 400], "quick": [100, 200, 400], "full": [200, 400, 800, 1600, 3200]}
PIVOT_KERNELS = (("poly", 1), ("exp", 1.0))


RANK_DRAWS = 5  # column draws per design for uniform sampling (E_I of Thm 4.1); pivoting is deterministic


def run_rank_cell(cell: Cell) -> dict:
    """p_1% for one random design and one column order: the smallest p from which on the
    exact risk, averaged over ``RANK_DRAWS`` column draws (E_I of Eq. (7)), stays within 1% of
    full KRR's at lambda*, scanning every prefix up to ceil(d ln n). "From which on", not
    "the first p": with single draws the ratio dips below 1 early and climbs back (the
    regularising effect, Sec. 4.4), which makes the first crossing the unstable criterion
    the paper warns about (Sec. 5). Also: that mean ratio at p = ceil(d ln n); d, d_ave."""
    pr = _random_problem(cell)
    n, d = cell.n, float(pr["dof"].d)
    p_rule = min(n, math.ceil(d * math.log(n)))
    rng = cell_rng(cell, "columns")
    curves = []
    for _ in range(1 if cell.method == "pivot" else RANK_DRAWS):
        chol = incomplete_cholesky(pr["X"], pr["kern"], p_rule, column_order(cell.method, pr["X"], rng))
        r = nested_risks(chol.factor, pr["z"], pr["lam"], SIGMA2) / pr["risk"]
        # a factor that stopped early (numerical rank reached: L = K) keeps its last ratio
        curves.append(np.concatenate([r, np.full(p_rule - r.size, r[-1])]))
    ratios = np.mean(curves, axis=0)
    p1 = _settled_at_most(ratios, 1.01)
    return {"p1": float(p1), "reached": float(p1 <= p_rule), "d": d, "d_ave": float(pr["dof"].d_ave),
            "ratio_rule": float(ratios[-1]), "p_rule": float(p_rule), "lam": pr["lam"]}


def _rank_cells(claim_id, methods, kernels, sizes, profile):
    _check(profile)
    return [Cell.make(claim_id, m, n, seed, kdecay=kd, krate=kr)
            for kd, kr in kernels for n in sizes[profile] for seed in range(RANK_SEEDS[profile]) for m in methods]


def _groups(results, method):
    """{(kdecay, krate, n): [results]} of one method."""
    out = {}
    for r in results:
        if r.cell.method == method:
            out.setdefault((r.cell.p["kdecay"], r.cell.p["krate"], r.cell.n), []).append(r)
    return dict(sorted(out.items()))


RANK_RATIO_MAX = 1.01          # CLAIMS.md; reference pilots saw [0.989, 1.0007]
RANK_BAND = (0.25, 4.0)        # p_1% / d; reference pilots saw [0.74, 1.39]
RANK_SLOPE_BAND = (0.65, 1.35)  # slope of log p_1% vs log d: 1 ± 0.35


def _judge_rank(results, profile):
    groups = _groups(results, "random")
    ratio = max(np.mean([r.metrics["ratio_rule"] for r in g]) for g in groups.values())
    per = {k: np.mean([r.metrics["p1"] / r.metrics["d"] for r in g]) for k, g in groups.items()}
    censored = sum(1 for g in groups.values() for r in g if not r.metrics["reached"])
    lo, hi = min(per.values()), max(per.values())
    seeds = max(len(g) for g in groups.values())
    x = np.array([np.mean([r.metrics["d"] for r in g]) for g in groups.values()])
    Y = np.full((len(groups), seeds), np.nan)
    for i, g in enumerate(groups.values()):
        Y[i, :len(g)] = [r.metrics["p1"] for r in sorted(g, key=lambda r: r.cell.seed)]
    order = np.argsort(x)
    fit = fit_loglog(x[order], Y[order])
    parts = ["holds" if ratio <= RANK_RATIO_MAX else "fails",
             "holds" if RANK_BAND[0] <= lo and hi <= RANK_BAND[1] and not censored else "fails",
             verdict_from_ci(fit.ci, RANK_SLOPE_BAND)]
    summary = (f"max mean risk ratio at p = ⌈d ln n⌉: {ratio:.4f} (<= 1.01); p_1%/d in [{lo:.2f}, {hi:.2f}] "
               f"(band [0.25, 4], {censored} censored); slope of log p_1% vs log d {fmt_ci(fit)} (1 ± 0.35)")
    fits = [Fit("p_1% vs d (uniform, all kernels and n)", x[order], Y[order], fit.slope, fit.ci, fit.intercept,
                predicted=1.0, band=RANK_SLOPE_BAND, xlabel="d (Eq. 5) at λ*", ylabel="p_1%")]
    return Verdict("bach13.rank-rule", combine(parts), summary, fits,
                   {"max_ratio_at_rule": ratio, "p1_over_d_min": lo, "p1_over_d_max": hi, "slope": fit.slope,
                    "censored": censored},
                   {"ratio_at_most": RANK_RATIO_MAX, "p1_over_d": list(RANK_BAND), "slope": list(RANK_SLOPE_BAND)})


def _rank_figure(results, verdict, outdir):
    """The paper's Fig. 2 right: p_1%/d and p_1%/d_ave against n, plain uniform, dashed pivoted."""
    plt = _pyplot()
    from matplotlib.ticker import NullFormatter

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for ax, denom in zip(axes, ("d", "d_ave")):
        for method, style in (("random", "-o"), ("pivot", "--s")):
            groups = _groups(results, method)
            kernels = sorted({k[:2] for k in groups})
            for j, kern in enumerate(kernels):
                ks = [k for k in groups if k[:2] == kern]
                ns = [k[2] for k in ks]
                v = [np.mean([r.metrics["p1"] / r.metrics[denom] for r in groups[k]]) for k in ks]
                name = f"{kern[0]} {'β' if kern[0] == 'poly' else 'ρ'}={kern[1]:g}"
                ax.plot(ns, v, style, color=f"C{j}", ms=4,
                        label=f"{name}, {'uniform' if method == 'random' else 'pivoted'}")
        ax.set_xscale("log")
        ns = sorted({r.cell.n for r in results})
        ax.set_xticks(ns, [str(n) for n in ns])
        ax.xaxis.set_minor_formatter(NullFormatter())  # minor labels overlap the tick labels
        ax.axhline(1.0, color="k", lw=0.6)
        ax.set_xlabel("n")
        ax.set_ylabel(f"p_1% / {denom}")
        ax.grid(True, which="both", alpha=0.25)
    axes[0].legend(fontsize=7)
    fig.suptitle(f"{verdict.claim} — {verdict.status}: rank for a 1% worse risk over the degrees of freedom")
    return save_figure(fig, outdir, verdict.claim.replace(".", "_") + "_fig2")


register(Claim(
    id="bach13.rank-rule", paper=PAPER, source="Bach 2013, Thm 4.1 / Sec. 4.4 (p linear in d), Fig. 2 right",
    statement="Uniform column sampling needs p proportional to d: p_1%/d stays O(1) across n, and "
              "p = ⌈d ln n⌉ loses at most 1% of risk",
    prediction="mean risk ratio at p = ⌈d ln n⌉ <= 1.01; p_1%/d in [0.25, 4]; log p_1% vs log d slope 1",
    tolerance="ratio <= 1.01; band [0.25, 4] for every (kernel, n) mean; slope CI within 1 ± 0.35",
    cells=lambda profile, options: _rank_cells("bach13.rank-rule", ("random",), RANK_KERNELS, RANK_NS, profile),
    run_cell=run_rank_cell, judge=_judge_rank, figure=_rank_figure,
    sizes={pr: f"uniform design n in {RANK_NS[pr]}, B_2, B_4, exp(ρ=1) kernels, δ = 2, {RANK_SEEDS[pr]} seeds"
           for pr in PROFILES},
))


PIVOT_MAX = 1.5  # CLAIMS.md: pivoted p_1% <= 1.5 x uniform p_1%


def _judge_pivot(results, profile):
    uni, piv = _groups(results, "random"), _groups(results, "pivot")
    keys = sorted(set(uni) & set(piv))
    seeds = max(len(g) for g in uni.values())
    # pooled ratio sum p_1%(pivoted) / sum p_1%(uniform) over all (kernel, n) groups, with a
    # bootstrap CI resampling the seeds (paired: one seed is one design for both orders)
    P = np.full((len(keys), seeds), np.nan)
    U = np.full((len(keys), seeds), np.nan)
    for i, k in enumerate(keys):
        for r in piv[k]:
            P[i, r.cell.seed] = r.metrics["p1"]
        for r in uni[k]:
            U[i, r.cell.seed] = r.metrics["p1"]
    pooled = float(np.nansum(P) / np.nansum(U))
    per = np.nanmean(P, axis=1) / np.nanmean(U, axis=1)
    rng = np.random.default_rng(0)
    boot = np.array([np.nansum(P[:, s]) / np.nansum(U[:, s]) for s in rng.integers(0, seeds, size=(2000, seeds))])
    ci = (float(np.percentile(boot, 2.5)), float(np.percentile(boot, 97.5)))
    status = verdict_from_ci(ci, (0.0, PIVOT_MAX))
    summary = (f"pooled p_1%(pivoted) / p_1%(uniform) = {pooled:.2f} [{ci[0]:.2f}, {ci[1]:.2f}] (<= 1.5); "
               "per (kernel, n): " + ", ".join(f"{k[0]}{k[1]:g} n={k[2]}: {v:.2f}" for k, v in zip(keys, per)))
    return Verdict("bach13.pivoting", status, summary, [],
                   {"pooled_ratio": pooled, "ci_low": ci[0], "ci_high": ci[1], "max_group_ratio": float(per.max())},
                   {"ratio_at_most": PIVOT_MAX})


register(Claim(
    id="bach13.pivoting", paper=PAPER, source="Bach 2013, Sec. 5 (Figs. 1-3: pivoting 'does not change "
                                              "significantly the results')",
    statement="Incomplete Cholesky with column pivoting needs no more columns than uniform sampling, "
              "up to a factor 1.5",
    prediction="p_1%(pivoted) <= 1.5 p_1%(uniform)",
    tolerance="bootstrap CI (over seeds) of the pooled ratio below 1.5",
    cells=lambda profile, options: _rank_cells("bach13.pivoting", ("random", "pivot"), PIVOT_KERNELS, PIVOT_NS,
                                               profile),
    run_cell=run_rank_cell, judge=_judge_pivot, figure=_rank_figure,
    sizes={pr: f"uniform design n in {PIVOT_NS[pr]}, B_2 and exp(ρ=1), {RANK_SEEDS[pr]} seeds" for pr in PROFILES},
))


# -- bach13.fig1 ------------------------------------------------------------------------

FIG1_N = 400
FIG1_SEEDS = {"ci": 3, "quick": 5, "full": 20}
FIG1_GRID = 14  # p values of the plotted curves


FIG1_DRAWS = 3  # column draws per design for uniform sampling: the paper plots "the average prediction error"


def _op_norm(K, G, k):
    """||K - G_k G_k^T||_2, the largest eigenvalue of the PSD K - L (Lanczos, fixed start)."""
    Gk = G[:, :k]
    D = K - Gk @ Gk.T
    return float(eigsh(D, k=1, which="LA", v0=np.ones(D.shape[0]), tol=1e-10)[0][0])


def run_fig1_cell(cell: Cell) -> dict:
    """Relative prediction gap (risk(L_p) - risk(K)) / risk(K) against the relative trace-
    and operator-norm errors of L_p, for nested columns (uniform order, averaged over
    ``FIG1_DRAWS`` draws, or pivoting), n = 400, the B_2 kernel (eigenvalues ~ i^-2) at
    lambda* (times ``lam_scale``). p_1% of each mean curve is the p from which on it stays at
    or below 1%: the trace and operator norms decrease along nested sets (the latter found
    by bisection); the gap is scanned up to 2 p_op and censored at 2 p_op + 1 if it has
    not settled there."""
    pr = _random_problem(cell, cell.p["lam_scale"])
    n, K = cell.n, pr["K"]
    rng = cell_rng(cell, "columns")
    chols = [incomplete_cholesky(pr["X"], pr["kern"], n, column_order(cell.method, pr["X"], rng))
             for _ in range(1 if cell.method == "pivot" else FIG1_DRAWS)]
    r = min(c.factor.shape[1] for c in chols)
    op0 = float(pr["e"].max())

    def op(k):
        return float(np.mean([_op_norm(K, c.factor, k) for c in chols])) / op0

    tr = np.mean([c.residual_traces[1:r + 1] / c.residual_traces[0] for c in chols], axis=0)
    lo, hi = 1, r
    while lo < hi:
        mid = (lo + hi) // 2
        if op(mid) <= 0.01:
            hi = mid
        else:
            lo = mid + 1
    cap = min(r, 2 * lo)
    gap = np.mean([nested_risks(c.factor[:, :cap], pr["z"], pr["lam"], SIGMA2) for c in chols], axis=0)
    gap = gap / pr["risk"] - 1.0
    out = {"p_gap": float(_settled_at_most(gap, 0.01)), "p_trace": float(_settled_at_most(tr, 0.01)),
           "p_op": float(lo), "rank": float(r), "d": float(pr["dof"].d)}
    for k in np.unique(np.geomspace(1, r, FIG1_GRID).astype(int)):
        if k <= cap:
            out[f"gap_{k}"] = float(gap[k - 1])
        out[f"trace_{k}"] = float(tr[k - 1])
        out[f"op_{k}"] = op(k)
    return out


def _judge_fig1(results, profile):
    parts, summaries, measured = [], [], {}
    for method in ("random", "pivot"):
        rows = [r for r in results if r.cell.method == method]
        if not rows:
            continue
        pg = np.array([r.metrics["p_gap"] for r in rows])
        po = np.array([r.metrics["p_op"] for r in rows])
        pt = np.array([r.metrics["p_trace"] for r in rows])
        ok = int((pg < po).sum())
        parts.append("holds" if ok == len(rows) else "fails")
        name = "uniform" if method == "random" else "pivoted"
        summaries.append(f"{name}: p for a 1% prediction gap {pg.mean():.1f} (max {pg.max():.0f}) < p for 1% "
                         f"operator-norm error {po.mean():.1f} (min {po.min():.0f}) in {ok}/{len(rows)} draws; "
                         f"1% trace-norm error at p = {pt.mean():.1f}")
        measured.update({f"{name} p_gap": float(pg.mean()), f"{name} p_op": float(po.mean()),
                         f"{name} p_trace": float(pt.mean())})
    return Verdict("bach13.fig1", combine(parts), "; ".join(summaries), [], measured,
                   {"p_gap < p_op": "in every draw"})


def _fig1_figure(results, verdict, outdir):
    """The paper's Fig. 1: relative errors against p, uniform (left) and pivoted (right)."""
    plt = _pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for ax, method in zip(axes, ("random", "pivot")):
        rows = [r for r in results if r.cell.method == method]
        if not rows:
            continue
        ks = sorted({int(k.split("_")[1]) for r in rows for k in r.metrics if k.startswith("gap_")})
        curves = (("trace", "C0", "‖K-L‖_tr / ‖K‖_tr"), ("op", "C2", "‖K-L‖_op / ‖K‖_op"),
                  ("gap", "C3", "relative prediction gap"))
        for key, color, label in curves:
            vals = np.array([[r.metrics.get(f"{key}_{k}", np.nan) for k in ks] for r in rows])
            mean = np.nanmean(vals, axis=0)
            keep = mean > 0  # the gap curve stops where L predicts better than K (as the paper's)
            if key == "gap" and (~keep).any():
                keep[np.argmax(~keep):] = False
            ax.plot(np.array(ks)[keep], mean[keep], "-o", ms=3, color=color, label=label)
        ax.axhline(0.01, color="k", ls=":", lw=0.8, label="1%")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("p (columns)")
        ax.set_title("uniform (random order)" if method == "random" else "incomplete Cholesky, pivoting")
        ax.grid(True, which="both", alpha=0.25)
    axes[0].set_ylabel("relative error")
    axes[0].legend(fontsize=8)
    fig.suptitle(f"{verdict.claim} — {verdict.status} (n = {FIG1_N}, B_2 kernel, λ*)")
    return save_figure(fig, outdir, verdict.claim.replace(".", "_") + "_curves")


register(Claim(
    id="bach13.fig1", paper=PAPER, source="Bach 2013, Fig. 1",
    statement="As p grows the relative prediction gap falls much faster than the relative matrix error",
    prediction="p for a 1% prediction gap < p for 1% operator-norm error",
    tolerance="in every draw, uniform and pivoted",
    cells=lambda profile, options: [
        Cell.make("bach13.fig1", m, FIG1_N, seed, kdecay="poly", krate=1, lam_scale=1.0)
        for m in ("random", "pivot") for seed in range(FIG1_SEEDS[profile])],
    run_cell=run_fig1_cell, judge=_judge_fig1, figure=_fig1_figure,
    sizes={pr: f"n = {FIG1_N}, B_2 kernel, {FIG1_SEEDS[pr]} seeds" for pr in PROFILES},
))


# -- bach13.lemmaB1 -----------------------------------------------------------------------

B1_N, B1_R = 400, 40
B1_REPS = {"ci": 200, "quick": 1000, "full": 5000}
B1_T = np.linspace(0.2, 0.95, 16)


def lemma_b1_sample(cell: Cell):
    """Psi = Phi ((1/n) Phi^T Phi + gamma I)^{-1/2} for Phi the top-r eigen-features of K
    (B_2 kernel, uniform design), and the largest eigenvalue of
    (1/n) Psi^T Psi - (1/p) Psi_I^T Psi_I over repeated uniform draws of I (without replacement)."""
    p = cell.p
    X = uniform_design(cell.n, cell_rng(cell))
    K = PeriodicKernel("poly", 1).block(X)
    e, U = np.linalg.eigh(K)
    e, U = np.clip(e[::-1][:B1_R], 0.0, None), U[:, ::-1][:, :B1_R]
    Psi = U * np.sqrt(e / (e / cell.n + p["gamma"]))
    M = Psi.T @ Psi / cell.n
    rng = cell_rng(cell, "columns")
    draws = np.empty(p["reps"])
    for j in range(p["reps"]):
        I = column_subset(X, p["p"], rng)
        D = M - Psi[I].T @ Psi[I] / p["p"]
        draws[j] = np.linalg.eigvalsh(D)[-1]
    return draws, float(np.linalg.eigvalsh(M)[-1]), float((Psi**2).sum(axis=1).max())


def column_subset(X, p, rng):
    """p row indices of X uniformly without replacement (Lemma B.1's sampling)."""
    return rng.choice(X.shape[0], size=p, replace=False)


def run_lemma_b1_cell(cell: Cell) -> dict:
    draws, lam_max, R2 = lemma_b1_sample(cell)
    out = {"lam_max": lam_max, "R2": R2, "q95": float(np.quantile(draws, 0.95))}
    for i, t in enumerate(B1_T):
        out[f"tail_{i}"] = float(np.mean(draws > t))
    return out


def _judge_lemma_b1(results, profile):
    from scipy.stats import beta as beta_dist

    parts, summaries, measured = [], [], {}
    for r in results:
        p = r.cell.p
        bound = lemma_b1_bound(B1_T, p["p"], B1_R, r.metrics["lam_max"], r.metrics["R2"])
        tail = np.array([r.metrics[f"tail_{i}"] for i in range(len(B1_T))])
        k = np.round(tail * p["reps"])
        # Clopper-Pearson 99% lower limit of the true tail probability
        lower = np.where(k > 0, beta_dist.ppf(0.005, k, p["reps"] - k + 1), 0.0)
        viol = int((lower > bound).sum())
        nonvac = bound < 1
        parts.append("holds" if viol == 0 else "fails")
        t95 = float(B1_T[np.argmax(bound <= 0.05)]) if (bound <= 0.05).any() else float("nan")
        summaries.append(f"p = {p['p']}, γ = {p['gamma']:g}: {viol} of {len(B1_T)} levels t above the bound "
                         f"(non-vacuous at {int(nonvac.sum())}); empirical 95% quantile {r.metrics['q95']:.3f} "
                         f"vs bound's t(0.05) = {t95:.3f}")
        measured[f"p={p['p']} violations"] = viol
        measured[f"p={p['p']} q95"] = r.metrics["q95"]
        measured[f"p={p['p']} bound_t05"] = t95
        if not nonvac.any():
            parts.append("inconclusive")
    return Verdict("bach13.lemmaB1", combine(parts), "; ".join(summaries), [], measured,
                   {"tail": "<= r exp(-(p t²/2) / (λ_max (R² + t/3)))"})


B1_SETTINGS = ((100, 0.3), (200, 0.3))


register(Claim(
    id="bach13.lemmaB1", paper=PAPER, source="Bach 2013, Lemma B.1",
    statement="λ_max[(1/n)Ψ^TΨ - (1/p)Ψ_I^TΨ_I] has a tail below r exp(-(pt²/2)/(λ_max(R² + t/3)))",
    prediction="empirical tail below the bound at every t",
    tolerance="Clopper-Pearson 99% lower limit of the tail <= bound; inconclusive if the bound is vacuous everywhere",
    cells=lambda profile, options: [
        Cell.make("bach13.lemmaB1", "uniform", B1_N, 0, p=p, gamma=g, reps=B1_REPS[profile]) for p, g in B1_SETTINGS],
    run_cell=run_lemma_b1_cell, judge=_judge_lemma_b1,
    sizes={pr: f"n = {B1_N}, r = {B1_R}, p ∈ {{100, 200}}, {B1_REPS[pr]} draws of I" for pr in PROFILES},
))


# -- bach13.eq6 ---------------------------------------------------------------------------

EQ6_NS = {"ci": [2**k for k in range(7, 20)], "quick": [2**k for k in range(7, 21)],
          "full": [2**k for k in range(7, 25)]}
EQ6_TESTABLE = 4096   # the largest n at which this suite runs exact (O(n^3)) KRR
EQ6_DELTA = 0.25      # Eq. (7) with delta = 1/4: risk within a factor 2


def eq6_p(d, n, R2, lam):
    """The rank rule under test (a module global so a planted fault can swap it)."""
    return eq6_rank(d, n, R2, lam, EQ6_DELTA)


def run_eq6_cell(cell: Cell) -> dict:
    """Eq. (6)'s p at lambda*(n) on the grid (B_2 kernel, delta = 2 signal): d = df1 there."""
    p = cell.p
    kern = PeriodicKernel(p["kdecay"], p["krate"])
    e = np.clip(grid_spectrum(kern, cell.n), 0.0, None)
    energy = grid_energy(periodic_signal(grid_design(cell.n), *SIGNAL))
    lam, _ = optimal_lambda(e, energy, cell.n, SIGMA2, log10_range=(-10.0, 1.0), grid_per_decade=8)
    d = float(dof_circulant(e, lam).d)
    return {"lam": lam, "d": d, "p6": float(eq6_p(d, cell.n, kern.sup_diag(), lam))}


def _judge_eq6(results, profile):
    x, P = collect(results, "p6")
    _, D = collect(results, "d")
    p6 = P[:, 0]
    ratio = p6 / x
    testable = x <= EQ6_TESTABLE
    first = first_nonvacuous_n(x, p6)
    vacuous = bool((ratio[testable] >= 1).all())
    summary = (f"Eq. (6) is {'VACUOUS' if vacuous else 'not vacuous'} at every tested n <= {EQ6_TESTABLE}: "
               f"p_6/n from {ratio[testable].min():.1f} to {ratio[testable].max():.1f} (p_6 = {p6[testable].min():.0f}"
               f"..{p6[testable].max():.0f} for d = {D[testable, 0].min():.1f}..{D[testable, 0].max():.1f}); "
               + (f"it first drops below n at n = {first} (grid FFT), far beyond exact KRR. "
                  if first else f"it stays >= n up to n = {int(x.max())}. ")
               + "Theorem 4.1's guarantee is therefore not tested at any n where L != K; "
                 "bach13.rank-rule tests the practical rule p ∝ d instead.")
    slope, intercept = np.polyfit(np.log(x), np.log(p6), 1)
    fits = [Fit("p of Eq. (6), δ = 1/4", x, P, float(slope), (float(slope), float(slope)), float(intercept),
                reference=x, ylabel="rank p (dotted: p = n)")]
    return Verdict("bach13.eq6", "holds" if vacuous else "fails", summary, fits,
                   {"p6_over_n_min_testable": float(ratio[testable].min()), "first_nonvacuous_n": first or -1},
                   {"vacuous_at_testable_n": True})


register(Claim(
    id="bach13.eq6", paper=PAPER, source="Bach 2013, Theorem 4.1, Eq. (6)",
    statement="The sufficient rank of Eq. (6) is larger than n at every n where exact KRR can be run",
    prediction="p_6 = (32 d/δ + 2) log(n R²/(δλ*)) >= n for n <= 4096 (δ = 1/4); reported where it becomes < n",
    tolerance="reported; the claim fails if Eq. (6) is not vacuous at a tested n",
    cells=lambda profile, options: [
        Cell.make("bach13.eq6", "grid", n, 0, kdecay="poly", krate=1) for n in EQ6_NS[profile]],
    run_cell=run_eq6_cell, judge=_judge_eq6,
    sizes={pr: f"grid n = 2^7..2^{int(math.log2(EQ6_NS[pr][-1]))}, B_2 kernel, δ = 2 signal" for pr in PROFILES},
))
