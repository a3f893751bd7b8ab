"""bach13: Bach (2013), "Sharp analysis of low-rank kernel matrix approximations", COLT.

All experiments use the periodic kernels of the paper's Sec. 5 on [0, 1)
(:class:`kernels.PeriodicKernel`, with the corrected Bernoulli formula) and the signal
f = sum_i 2 nu_i^(1/2) cos 2 pi i x, and score every estimator by its exact in-sample
risk (bias + variance, :mod:`theory.dof`): no Monte Carlo over the noise, except in the
check of those formulas. The grid design (circulant, FFT) gives exact df and risks in
O(n log n); the uniform random design (the paper's Fig. 2 right) needs one O(n^3)
eigendecomposition per cell. No bandwidth rule: the kernels have fixed spectra.
bach13.rank-rule declares a role (kernel-approximation, kernel "periodic"): it reads any
implementation through make(None, p, kernel, random_state), fit(X) and transform(X) only.
The planted faults are in :mod:`._bach13_faults`.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.linalg as sla
from scipy.sparse.linalg import eigsh

from kpca_suite.kernels.cholesky import incomplete_cholesky
from kpca_suite.kernels.periodic import PeriodicKernel
from kpca_suite.methods.krr import KernelRidge, NystromKRR
from kpca_suite.methods.landmarks import FixedLandmarks
from kpca_suite.theory import fit_loglog, loglog_line, octaves, verdict_from_ci
from kpca_suite.theory.dof import dof_circulant, dof_from_eigh, krr_risk, optimal_lambda, smoother_risk
from kpca_suite.theory.periodic import grid_design, grid_energy, grid_spectrum, periodic_signal, uniform_design
from kpca_suite.theory.table1 import eq6_rank, first_nonvacuous_n, lemma_b1_bound, reference_slope, table1_line

from ..adapters import ours_nystrom_columns
from ..claim import Claim, Fault, Fit, Grid, Outcome, Paper, PerProfile, Tolerance
from ..judging import AllOf, AllWithin, collect, combine
from ..plots import safe_name, save_figure
from ..roles import Subject, build
from . import _bach13_faults as faults

PAPER = Paper(
    key="bach13",
    citation="F. Bach (2013), 'Sharp analysis of low-rank kernel matrix approximations', COLT 2013 "
             "(JMLR W&CP 30).",
    errata="""\
- **The Bernoulli kernel of Sec. 5 has the wrong sign and scale.** The paper writes the kernel with
  mu_i = i^(-2 beta) as B_{2 beta}(t) / (2 beta)!, t = (x - y) mod 1. The series
  sum_{i >= 1} 2 i^(-2 beta) cos(2 pi i t) is (-1)^(beta+1) (2 pi)^(2 beta) B_{2 beta}(t) / (2 beta)!, so the
  printed formula is negative semidefinite for even beta (beta = 4 and 8 of its Fig. 2) and scaled by
  (2 pi)^(-2 beta) (1.7e-13 for beta = 8) always. The suite uses the corrected form, with
  k(x, x) = 2 zeta(2 beta) (R^2 = pi^2 / 3 for beta = 1); the printed one is a planted fault.
- **Normalisation.** The loss is (1/n) sum and the penalty (lambda/2) ||f||^2, so every formula has
  n lambda: alpha = (K + n lambda I)^{-1} y. scikit-learn's `KernelRidge(alpha)` solves (K + alpha I)^{-1} y,
  i.e. alpha = n lambda; reading alpha as lambda is a planted fault. In the proof's Eq. (8) the inner
  regulariser is p gamma, not gamma.
- **Three degrees of freedom.** The paper's "degrees of freedom" (Table 1) is d_ave = tr K^2 (K + n lambda I)^-2;
  df1 = tr K (K + n lambda I)^-1 is its "alternative definition"; Theorem 4.1 uses d = n max_i
  [K (K + n lambda I)^-1]_ii (Eq. (5)). d_ave <= df1 <= d, and d == df1 on the circulant grid.
- **Each frequency gives two eigenvalues** (its cos and sin functions), which doubles the constants of the
  df asymptotics (df1 ~ 2 [c1 lambda^(-1/(2 beta)) - 1/2]) but not the rates.
- **App. C's bias has a spurious factor n**: from Sec. 4.1 it is lambda^2 sum_i nu_i / (mu_i + lambda)^2,
  which is what Table 1 and App. C.3 use, and what the suite uses.
- **The constant inside the log of Eq. (6)**: since bias(K) >= (1/n) z^T z (1 + R^2/lambda)^-2, the factor in
  Eq. (11) should be (1 + R^2/lambda)^2, about doubling the log. The suite evaluates the printed Eq. (6) and
  never tests the sharpness of the constants.
- **Eq. (6) is vacuous wherever exact KRR can be run**: e.g. d = 52, R^2 = pi^2/3, lambda = 4.6e-3,
  n = 3200, delta = 1/4 gives p >= 1.07e5 >> n. Theorem 4.1 is therefore tested only through the practical
  rule p proportional to d (bach13.rank-rule); bach13.eq6 reports where Eq. (6) first drops below n.
- **Monotonicity gaps in the proof.** It needs bias(L_gamma) non-decreasing in gamma and
  (L_gamma + n lambda)^-1 <= c (K + n lambda)^-1 => bias(L_gamma) <= c^2 bias(K); both use that t -> t^-2 is
  operator monotone, which fails for non-commuting matrices. Per instance, bias(L) < bias(K) happens (20 of
  3000 random 8 x 8 instances, by up to 2.8%), so the suite never asserts bias(L) >= bias(K) or monotonicity
  in gamma; only L <= K and variance(L) <= variance(K) (noise sigma^2 I) are asserted per instance.
- **Columns are sampled without replacement** (Thm 4.1, Lemma B.1, whose index set is printed as
  {1, ..., p} for {1, ..., n}); duplicates would lower the rank.
- **Unreported settings**: sigma^2, the n ranges, the lambda grids and the number of draws of I are not given;
  the suite uses sigma^2 = 1 and the grids of each claim. The experiments' p_1% ("the rank for a 1% worse
  risk") is taken as the p from which on the risk ratio stays within 1%, not its first crossing, which the
  paper itself calls unstable (Sec. 5); bach13.rank-rule, which fits any implementation afresh at each
  budget, brackets it by the ratio at p = ⌈d/4⌉ and ⌈4d⌉ instead of scanning every p.
- Sec. 4.1's "lambda typically smaller than a constant times 1/sqrt(n)" fails in Table 1's lines 1 and 3
  (2 beta / (4 beta + 1) < 1/2); the suite does not assert it.
""",
)

SIGMA2 = 1.0          # noise variance of every risk (the paper does not report its sigma^2)
SIGNAL = ("poly", 2)  # nu_i = i^-4 (delta = 2): f(x) = 2 pi^2 B_2(x), the beta = 1 kernel at (x, 0)
# Kernels of the random-design claims: B_2, B_4 and exp(rho = 1), the cases with measured p_1%/d.
RANK_KERNELS = (("poly", 1), ("poly", 2), ("exp", 1.0))
KERNEL_NAMES = {("poly", 1): "B_2", ("poly", 2): "B_4", ("exp", 0.5): "exp(ρ=0.5)", ("exp", 1.0): "exp(ρ=1)"}


def _kernel(p) -> PeriodicKernel:
    return PeriodicKernel(p["kdecay"], p["krate"])


def _per_kernel(kernels, sizes, seeds, methods, **params):
    """One Grid per (kdecay, krate) kernel: a tuple of Grids for PerProfile."""
    return tuple(Grid(sizes=tuple(sizes), seeds=seeds, params=dict(kdecay=kd, krate=kr, **params), methods=methods,
                      describe=f"{KERNEL_NAMES[kd, kr]}: n in {list(sizes)}, {seeds} seed(s)")
                 for kd, kr in kernels)


def _random_problem(cell, lam_scale: float = 1.0):
    """Uniform random design, the kernel of the cell, z = f(X), K's eigendecomposition,
    lambda* of the exact full-KRR risk (times ``lam_scale``) and the df at that lambda."""
    X = uniform_design(cell.n, cell.rng())
    kern = _kernel(cell.p)
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


def _risk_in_basis(M, q, zz, n, lam, sigma2):
    """Exact risk of the KRR smoother of L = Q M Q^T (Q orthonormal columns, M PSD) at
    lambda, from q = Q^T z and zz = ||z||^2.

    The smoother is Q S Q^T with S = (M + n lambda I)^{-1} M (symmetric), so
    bias = (1/n) (||z||^2 - ||q||^2 + ||(I - S) q||^2) and variance = (sigma^2 / n) ||S||_F^2
    (:func:`theory.dof.krr_risk` in L's eigenbasis). O(k^3) for k = len(q)."""
    k = M.shape[0]
    if k == 0:
        return zz / n  # L = 0 predicts 0: all bias
    S = sla.cho_solve(sla.cho_factor(M + n * lam * np.eye(k)), M)
    bias = (max(zz - q @ q, 0.0) + np.sum((q - S @ q) ** 2)) / n
    return bias + sigma2 * np.sum(S**2) / n


def factor_risk(Z, z, lam, sigma2):
    """Exact risk (:func:`theory.dof.krr_risk`) of KRR with the kernel matrix L = Z Z^T at
    lambda, for any (n, m) factor Z (e.g. Z = transform(X) of a kernel approximation).

    Thin QR Z = Q R gives L = Q M Q^T with M = R R^T; the risk is :func:`_risk_in_basis`
    of (M, q = Q^T z). O(n m^2 + m^3) for m <= n."""
    Q, R = np.linalg.qr(Z)
    return _risk_in_basis(R @ R.T, Q.T @ z, float(z @ z), Z.shape[0], lam, sigma2)


def nested_risks(G, z, lam, sigma2):
    """Exact risk (:func:`theory.dof.krr_risk`) of L_p = G_p G_p^T for every prefix p = 1..r
    of the columns of G, by Cholesky solves instead of r eigendecompositions.

    G = Q R (QR is nested: Q_p spans G_p and G_p = Q_p R_p, R_p = R[:p, :p]), so L_p =
    Q_p M_p Q_p^T with M_p = R_p R_p^T, and the risk of prefix p is :func:`_risk_in_basis`
    of (M_p, q_p), q = Q^T z. O(n r^2 + sum_p p^3 / 3).
    """
    Q, R = np.linalg.qr(G)
    q = Q.T @ z
    n = G.shape[0]
    zz = float(z @ z)
    out = np.empty(G.shape[1])
    for k in range(1, G.shape[1] + 1):
        out[k - 1] = _risk_in_basis(R[:k, :k] @ R[:k, :k].T, q[:k], zz, n, lam, sigma2)
    return out


def random_order(X, rng):
    """Column order of uniform sampling: a uniform random permutation, whose prefixes are
    uniform samples without replacement (Eq. (4)), for the incomplete Cholesky."""
    return rng.permutation(X.shape[0])


def pivot_order(X, rng):
    """Column order of incomplete Cholesky with column pivoting (largest residual first)."""
    return "pivot"


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

IDENT_P = 15
MC_DRAWS = PerProfile(ci=4000, quick=8000, full=20000)
IDENT_KERNELS = (("poly", 1), ("exp", 1.0))
IDENT_RTOL = 1e-8
SOLVER_RTOL = 1e-6
MC_Z = 4.0  # |MC mean - exact| / its standard error
EXACT_RELATIONS = ("L_le_K", "chain", "fft_vs_eigh", "grid_d_eq_df1", "smoother_K", "smoother_L", "variance_order")


def _identity_grid(profile, n, seeds):
    """The cells record their profile: it sets the number of Monte Carlo draws."""
    return _per_kernel(IDENT_KERNELS, (n,), seeds, ("krr",), profile=profile)


def identities_experiment(cell, estimators) -> dict:
    """Exact identities and inequalities of Secs. 4.1-4.4 on one random design (and the grid).

    Violations are >= 0 amounts relative to the natural scale (0 when the relation holds):
    d_ave <= df1 <= d <= n R^2 / (R^2 + n lambda) (Eq. (5)); d == df1 on the grid, FFT vs eigh;
    L <= K; variance(L) <= variance(K); the fitted estimators' smoothers (predictions of y = I)
    against the spectral bias/variance of Sec. 4.1; the two Sec. 4.4 solvers against each other.
    ``mc_z_*`` are z-scores of the exact risk against a Monte Carlo over heteroscedastic noise.
    Never per-instance bias(L) >= bias(K): it is false (PAPER.errata).
    """
    krr, nystrom = estimators["krr"], estimators["nystrom"]
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
    rng = cell.rng("columns")
    est = nystrom(kern, lam, IDENT_P, sampling="uniform", random_state=rng)
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
    cols = nystrom(kern, lam, IDENT_P, sampling=same_columns, solver="columns").fit(pr["X"], Y)
    S_Lc = cols.predict(pr["X"])[:, 1:]
    S_K = krr(kern, lam).fit(pr["X"], np.eye(n)).predict(pr["X"])
    kb, kv = smoother_risk(S_K, z, SIGMA2)
    out["smoother_L"] = max(abs(sb - bL) / bL, abs(sv - vL) / vL)
    out["smoother_K"] = max(abs(kb - bK) / bK, abs(kv - vK) / vK)
    out["solvers"] = float(np.abs(S_Lc - S_L).max() / np.abs(S_L).max())
    # Monte Carlo over heteroscedastic noise, Cov = diag(s^2): the general (1/n) tr C S S^T form.
    noise_sd = np.sqrt(SIGMA2) * (0.5 + cell.rng("noise-sd").uniform(size=n))
    mc = cell.rng("mc")
    draws = MC_DRAWS[cell.p["profile"]]
    for name, S in (("K", S_K), ("L", S_L)):
        b, v = smoother_risk(S, z, np.diag(noise_sd**2))
        eps = mc.standard_normal((n, draws)) * noise_sd[:, None]
        loss = ((S @ (z[:, None] + eps) - z[:, None]) ** 2).mean(axis=0)
        out[f"mc_z_{name}"] = abs(loss.mean() - (b + v)) / (loss.std(ddof=1) / math.sqrt(draws))
    return {k: float(v) for k, v in out.items()}


# -- bach13.dof-decay --------------------------------------------------------------------

DECAY_CASES = (("poly", 1), ("poly", 2), ("exp", 0.5), ("exp", 1.0))
DECAY_LEVELS = 24
DECAY_SLOPE_TOL, DECAY_LEVEL_RTOL, DECAY_EXP_ATOL = 0.02, 0.01, 0.1
DECAY_POLY_MIN_LAMBDA = 1e-12
DECAY_EXP_LOG_RANGE = (6.0, 20.0)


def decay_levels(decay, rate, n):
    """lambda where the asymptotic forms hold (ranges measured, see the claim's tolerance):
    10 <= lambda^(-1/(2 beta)) <= n/50 and lambda >= 1e-12 (poly); 6 <= ln(1/lambda) <= 20 (exp)."""
    if decay == "poly":
        lo, hi = (n / 50.0) ** (-2 * rate), 10.0 ** (-2 * rate)
        return np.geomspace(max(lo, DECAY_POLY_MIN_LAMBDA), hi, DECAY_LEVELS)
    return np.exp(-np.linspace(*DECAY_EXP_LOG_RANGE, DECAY_LEVELS))


def predicted_df1(decay, rate, lam):
    """df1 ~ 2 [c1 lambda^(-1/(2 beta)) - 1/2], c1 = (pi/(2 beta)) / sin(pi/(2 beta)) (poly);
    (2/rho) ln(1/lambda) - 1 (exp): App. C's integrals, each frequency a cos/sin pair."""
    lam = np.asarray(lam, dtype=float)
    if decay == "poly":
        a = 1.0 / (2 * rate)
        c1 = (math.pi * a) / math.sin(math.pi * a)
        return 2.0 * (c1 * lam**-a - 0.5)
    return 2.0 / rate * np.log(1.0 / lam) - 1.0


def decay_experiment(cell, estimators) -> dict:
    """df1(lambda) = sum_k e_k / (e_k + n lambda) over the FFT eigenvalues of the grid Gram
    matrix (estimator ``fft``) of the kernel (estimator ``kernel``); ``psd`` records how
    negative the spectrum is (0 for a PSD kernel)."""
    p = cell.p
    e = estimators["fft"](estimators["kernel"](p["kdecay"], p["krate"]), cell.n)
    psd = max(-e.min(), 0.0) / np.abs(e).max()
    lam = decay_levels(p["kdecay"], p["krate"], cell.n)
    df1 = np.atleast_1d(dof_circulant(np.clip(e, 0.0, None), lam).df1)
    return {"psd": float(psd), **{f"df1_{i}": float(v) for i, v in enumerate(df1)}}


def judge_decay(results, profile) -> Outcome:
    """Per kernel: PSD spectrum; poly: slope -1/(2 beta) +- 0.02 and level within 1%; exp: within 0.1."""
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
                            predicted=-1 / (2 * kr), band=band, reference=pred, xlabel="λ", ylabel="df1 (grid, FFT)",
                            reference_label="asymptotic df1 (App. C)"))
            measured.update({f"{tag} slope": fit.slope, f"{tag} level_err": level})
        else:
            off = float(np.max(np.abs(df1 - pred)))
            parts.append("holds" if off <= DECAY_EXP_ATOL else "fails")
            summaries.append(f"{tag}: max |df1 - ((2/ρ) ln(1/λ) - 1)| = {off:.3f} (<= 0.1)")
            fit = fit_loglog(lam, df1)
            fits.append(Fit(f"df1, {tag}", lam, df1, fit.slope, (fit.slope, fit.slope), fit.intercept,
                            reference=pred, xlabel="λ", ylabel="df1 (grid, FFT)",
                            reference_label="asymptotic df1 (App. C)"))
            measured[f"{tag} max_abs_err"] = off
    return Outcome(combine(parts), "; ".join(summaries) + " (exact FFT spectra: deterministic)",
                   fits, measured, {"poly": "slope -1/(2β) ± 0.02, level within 1%",
                                    "exp": "(2/ρ) ln(1/λ) - 1 within 0.1"})


# -- bach13.table1 ----------------------------------------------------------------------

# (line label, kernel decay, kernel rate, signal decay, signal rate)
T1_CASES = (("line 1", "poly", 1, "poly", 4), ("line 2", "poly", 1, "poly", 2),
            ("line 5", "exp", 0.5, "exp", 2.0), ("line 6", "exp", 1.0, "exp", 1.5))
# Tolerance on each slope, per kind of line. The quantities are exact (FFT spectrum, risk
# minimised over a lambda grid of 10 per decade), so the deviations from the Table 1 order
# are deterministic pre-asymptotic terms; measured |slope - reference slope|:
#   lines 1, 2 (polynomial): ci (n = 2^8..2^13) lam 0.018, risk 0.025, d_ave 0.035;
#                            quick (2^8..2^16) 0.013, 0.020, 0.027.
#   lines 5, 6 (exponential, log factors): ci lam 0.040, risk 0.053, d_ave 0.098;
#                            quick 0.028, 0.042, 0.075.
# 0.045 for lines 1 and 2 keeps every measured slope inside with 0.01 to spare and makes
# the lambda* bands of line 1 (-2/5) and line 2 (-1/2) disjoint, so a line-2 problem cannot
# pass as line 1 (the 'half-rate-signal' fault checks it). 0.12 for lines 5 and 6. It was
# +- 0.2 for every line: wide enough for either poly line to pass as the other.
T1_TOL = {"poly": 0.045, "exp": 0.12}


def _table1_grid(top):
    """One Grid per Table 1 line, grid n = 2^8..2^top."""
    sizes = tuple(2**k for k in range(8, top + 1))
    return tuple(Grid(sizes=sizes, seeds=1, params=dict(line=label, kdecay=kd, krate=kr, sdecay=sd, srate=sr),
                      methods=("grid",), describe=f"{label}: grid n = 2^8..2^{top}")
                 for label, kd, kr, sd, sr in T1_CASES)


def table1_experiment(cell, estimators) -> dict:
    """lambda* (exact full-KRR risk minimised over lambda, estimator ``optimal_lambda``), the
    risk there and d_ave(lambda*), on the grid design from the FFT (estimator ``grid``)."""
    p = cell.p
    e = estimators["grid"](PeriodicKernel(p["kdecay"], p["krate"]), cell.n)
    energy = grid_energy(estimators["signal"](grid_design(cell.n), p["sdecay"], p["srate"]))
    lam, risk = estimators["optimal_lambda"](np.clip(e, 0.0, None), energy, cell.n, SIGMA2,
                                             log10_range=(-14.0, 2.0), grid_per_decade=10)
    dof = dof_circulant(np.clip(e, 0.0, None), lam)
    return {"lam": lam, "risk": risk, "d_ave": float(dof.d_ave), "df1": float(dof.df1)}


def table1_band(rate: tuple, ref: float, tol: float) -> tuple:
    """The band of a slope whose reference is ``ref``: ref +- tol, except that a quantity of
    order (log n)^b, b > 0 (d_ave on lines 5 and 6), must grow: its band starts at ref / 2,
    so a d_ave that stays constant (slope 0) fails even where ref - tol < 0."""
    lo = ref - tol
    if rate[0] == 0 and rate[1] > 0:
        lo = max(lo, ref / 2)
    return (lo, ref + tol)


def judge_table1(results, profile) -> Outcome:
    """Every log-log slope (lambda*, risk, d_ave vs n; deterministic) within ``T1_TOL`` of the
    least-squares slope of its Table 1 order n^a (log n)^b on the same grid (:func:`table1_band`)."""
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
            band = table1_band(rate, ref, T1_TOL[kd])
            parts.append(verdict_from_ci((fit.slope, fit.slope), band))
            bits.append(f"{q} {fit.slope:+.3f} (pred {ref:+.3f})")
            measured[f"{label} {q}"] = fit.slope
            predicted[f"{label} {q}"] = ref
            name = {"lam": "λ*", "risk": "risk at λ*", "d_ave": "d_ave(λ*)"}[q]
            fits.append(Fit(f"{label}: {name}", x, Y, fit.slope, (fit.slope, fit.slope), fit.intercept,
                            predicted=ref, band=band, ylabel=name))
        summaries.append(f"{label}: " + ", ".join(bits))
    x = collect(results, "lam")[0]
    return Outcome(combine(parts),
                   "; ".join(summaries) + f" (± {T1_TOL['poly']} on lines 1-2, ± {T1_TOL['exp']} on lines 5-6; "
                   f"exact grid risks, deterministic; {octaves(x):.0f} octaves)",
                   fits, measured, predicted)


# -- bach13.rank-rule (a role claim) --------------------------------------------------------

RANK_DRAWS = 5  # column draws per design for uniform sampling (E_I of Thm 4.1), in both claims below
RANK_RATIO_MAX = 1.01
RANK_MULTIPLES = (0.25, 0.5, 1.0, 2.0, 4.0)  # budgets p = ⌈c d⌉; the judge reads 1/4 and 4, the rest are reported
RANK_BAND = (0.25, 4.0)                     # p_1% / d, bracketed at p = ⌈d/4⌉ and ⌈4 d⌉
RANK_KEYS = tuple(f"{c:g}d" for c in RANK_MULTIPLES) + ("rule",)
RANK_SUBJECT = Subject("kernel-approximation", "uniform", centred=False, kernel="periodic",
                       budget="p = ⌈c d⌉ columns (c = 1/4, 1/2, 1, 2, 4) and p = ⌈d ln n⌉, d of Eq. (5) at λ*; "
                              "the whole map (n_components = None)",
                       needs="Z = transform(X) on the training points (the exact KRR risk of L = Z Z^T)",
                       probe=(("n_components", None), ("budget", 16)), kinds=("nystrom",))


def rank_budgets(d, n) -> dict:
    """{key: p}: p = min(n, ceil(c d)) for every c of ``RANK_MULTIPLES`` (key "<c>d") and the
    theorem's rule p = min(n, ceil(d ln n)) (key "rule")."""
    out = {f"{c:g}d": min(n, math.ceil(c * d)) for c in RANK_MULTIPLES}
    out["rule"] = min(n, math.ceil(d * math.log(n)))
    return out


def rank_experiment(cell, estimators) -> dict:
    """Mean risk ratio E_I[risk(L)] / risk(K) at each budget of :func:`rank_budgets`, for the
    kernel approximation ``estimators[cell.method]`` ("uniform") read through its role only.

    For each budget p and each of ``RANK_DRAWS`` draws j (random_state = the cell's
    "columns-j" stream, the same for every implementation): make(None, p, kernel, random_state),
    fit(X), Z = transform(X), and the exact risk of KRR with L = Z Z^T at the lambda* of full
    KRR (:func:`factor_risk`); ``ratio_<key>`` is the mean over the draws of risk(L) / risk(K),
    ``p_<key>`` the budget and ``width_<key>`` the mean number of columns of Z. Also d (Eq. (5))
    and d_ave at lambda*."""
    pr = _random_problem(cell)
    n, X, z, lam = cell.n, pr["X"], pr["z"], pr["lam"]
    d = float(pr["dof"].d)
    out = {"d": d, "d_ave": float(pr["dof"].d_ave), "lam": lam}
    for key, p in rank_budgets(d, n).items():
        ratios, widths = [], []
        for j in range(RANK_DRAWS):
            est = build(estimators[cell.method], "kernel-approximation", cell, n_components=None, budget=p,
                        kernel=pr["kern"], random_state=cell.seed_int(f"columns-{j}")).fit(X)
            Z = np.asarray(est.transform(X), dtype=float)
            if Z.ndim != 2 or Z.shape[0] != n:
                raise ValueError(f"transform(X) must have one row per sample (n = {n}), got shape {Z.shape}")
            ratios.append(factor_risk(Z, z, lam, SIGMA2) / pr["risk"])
            widths.append(Z.shape[1])
        out.update({f"ratio_{key}": float(np.mean(ratios)), f"p_{key}": float(p),
                    f"width_{key}": float(np.mean(widths))})
    return out


def _groups(results, method):
    """{(kdecay, krate, n): [results]} of one method."""
    out = {}
    for r in results:
        if r.cell.method == method:
            out.setdefault((r.cell.p["kdecay"], r.cell.p["krate"], r.cell.n), []).append(r)
    return dict(sorted(out.items()))


def _group_name(key) -> str:
    return f"{KERNEL_NAMES[key[0], key[1]]} n={key[2]}"


def _rank_means(results) -> dict:
    """{(kdecay, krate, n): {key: mean over seeds of ratio_<key>}}."""
    return {k: {key: float(np.mean([r.metrics[f"ratio_{key}"] for r in g])) for key in RANK_KEYS}
            for k, g in _groups(results, "uniform").items()}


def _bracket(means: dict) -> str:
    """p_1%/d bracketed by the multiples: "(a, c]" for the smallest multiple c from which on
    (up to 4) the mean ratio stays <= 1.01, a the multiple before it."""
    keys = [f"{c:g}d" for c in RANK_MULTIPLES]
    above = [i for i, k in enumerate(keys) if means[k] > RANK_RATIO_MAX]
    if not above:
        return f"<= {RANK_MULTIPLES[0]:g}"
    if above[-1] == len(keys) - 1:
        return f"> {RANK_MULTIPLES[-1]:g}"
    return f"({RANK_MULTIPLES[above[-1]]:g}, {RANK_MULTIPLES[above[-1] + 1]:g}]"


def judge_rank(results, profile) -> Outcome:
    """Per (kernel, n), the mean over seeds (designs) of each cell's mean over draws of
    risk(L)/risk(K): at p = ceil(d ln n) <= 1.01 (Thm 4.1's rule, 1% of risk); at p = ceil(4 d)
    <= 1.01 and at p = ceil(d / 4) > 1.01, i.e. p_1%/d in [1/4, 4] at every n (p proportional
    to d, bracketed directly). Point checks on exact risks: never inconclusive."""
    means = _rank_means(results)
    rule_key = max(means, key=lambda k: means[k]["rule"])
    high_key = max(means, key=lambda k: means[k]["4d"])
    low_key = min(means, key=lambda k: means[k]["0.25d"])
    rule, high, low = means[rule_key]["rule"], means[high_key]["4d"], means[low_key]["0.25d"]
    parts = ["holds" if rule <= RANK_RATIO_MAX else "fails", "holds" if high <= RANK_RATIO_MAX else "fails",
             "holds" if low > RANK_RATIO_MAX else "fails"]
    inside = sum(1 for m in means.values() if m["4d"] <= RANK_RATIO_MAX < m["0.25d"])
    by_kernel = {}
    for k, m in means.items():
        by_kernel.setdefault(KERNEL_NAMES[k[0], k[1]], []).append(f"n={k[2]}: {_bracket(m)}")
    summary = (f"mean risk ratio risk(L)/risk(K) per (kernel, n): at p = ⌈d ln n⌉ max {rule:.4f} "
               f"({_group_name(rule_key)}; <= 1.01); at p = ⌈4d⌉ max {high:.4f} ({_group_name(high_key)}; "
               f"<= 1.01); at p = ⌈d/4⌉ min {low:.3f} ({_group_name(low_key)}; > 1.01): p_1%/d in [1/4, 4] at "
               f"{inside} of {len(means)} (kernel, n); p_1%/d bracketed by the multiples: "
               + "; ".join(f"{name} {', '.join(v)}" for name, v in by_kernel.items()))
    widths = [r.metrics[f"width_{key}"] / r.metrics[f"p_{key}"] for r in results for key in RANK_KEYS]
    measured = {"max_ratio_at_rule": rule, "max_ratio_at_4d": high, "min_ratio_at_d/4": low,
                "groups_inside_band": inside, "min_width_over_budget": float(min(widths))}
    for k, m in means.items():
        measured.update({f"{_group_name(k)} ratio_{key}": v for key, v in m.items()})
    return Outcome(combine(parts), summary, [], measured,
                   {"ratio_at_rule": f"<= {RANK_RATIO_MAX}", "ratio_at_4d": f"<= {RANK_RATIO_MAX}",
                    "ratio_at_d/4": f"> {RANK_RATIO_MAX}", "p1_over_d": list(RANK_BAND)})


def rank_figure(results, verdict, outdir):
    """The mean risk ratio minus 1 against p/d, one panel per kernel, one line per n (stars:
    the rule p = ⌈d ln n⌉ at p/d = ln n); the 1% level and the band [1/4, 4] of p_1%/d."""
    plt = _pyplot()
    means = _rank_means(results)
    kernels = sorted({k[:2] for k in means}, key=str)
    fig, axes = plt.subplots(1, len(kernels), figsize=(4.6 * len(kernels), 4.2), sharey=True, squeeze=False)
    for ax, kern in zip(axes[0], kernels):
        ns = sorted(k[2] for k in means if k[:2] == kern)
        for j, n in enumerate(ns):
            m = means[kern + (n,)]
            color = plt.cm.viridis(j / max(len(ns) - 1, 1))
            ax.plot(RANK_MULTIPLES, [m[f"{c:g}d"] - 1 for c in RANK_MULTIPLES], "-o", ms=4, color=color,
                    label=f"n = {n}")
            ax.plot([math.log(n)], [m["rule"] - 1], "*", ms=9, color=color)
        ax.axhline(RANK_RATIO_MAX - 1, color="k", ls=":", lw=0.8)
        for c in RANK_BAND:
            ax.axvline(c, color="0.5", ls="--", lw=0.7)
        ax.set_xscale("log", base=2)
        ax.set_yscale("symlog", linthresh=1e-3)
        ax.set_xlabel("p / d  (stars: p = ⌈d ln n⌉)")
        ax.set_title(KERNEL_NAMES[kern])
        ax.grid(True, which="both", alpha=0.25)
    axes[0][0].set_ylabel("mean risk(L) / risk(K) - 1")
    axes[0][0].legend(fontsize=7)
    fig.suptitle(f"{verdict.claim} — {verdict.status}: uniform columns, risk ratio at p = c d (dotted: 1%)")
    return save_figure(fig, outdir, safe_name(verdict.claim).replace(".", "_") + "_ratios")


# -- bach13.pivoting (not a role claim) ----------------------------------------------------

PIVOT_KERNELS = (("poly", 1), ("exp", 1.0))
PIVOT_MAX = 1.5                 # pivoted p_1% <= 1.5 x uniform p_1%


def pivot_experiment(cell, estimators) -> dict:
    """p_1% for one random design and one column order (estimator ``cell.method``): the
    smallest p from which on the exact risk, averaged over ``RANK_DRAWS`` column draws
    (E_I of Eq. (7)), stays within 1% of full KRR's at lambda*, scanning every prefix up to
    ceil(d ln n). "From which on", not "the first p": with single draws the ratio dips below
    1 early and climbs back (the regularising effect, Sec. 4.4), which makes the first
    crossing the unstable criterion the paper warns about (Sec. 5). Also: that mean ratio
    at p = ceil(d ln n); d, d_ave.

    Not a role claim: a column order is no role (pivoting is our incomplete Cholesky's own
    rule), so it keeps the nested path: one factor per draw gives the exact risk of every
    prefix p at once (:func:`nested_risks`), where a role estimator needs one fit per p."""
    order = estimators[cell.method]
    pr = _random_problem(cell)
    n, d = cell.n, float(pr["dof"].d)
    p_rule = min(n, math.ceil(d * math.log(n)))
    rng = cell.rng("columns")
    curves = []
    for _ in range(1 if cell.method == "pivot" else RANK_DRAWS):
        chol = incomplete_cholesky(pr["X"], pr["kern"], p_rule, order(pr["X"], rng))
        r = nested_risks(chol.factor, pr["z"], pr["lam"], SIGMA2) / pr["risk"]
        # a factor that stopped early (numerical rank reached: L = K) keeps its last ratio
        curves.append(np.concatenate([r, np.full(p_rule - r.size, r[-1])]))
    ratios = np.mean(curves, axis=0)
    p1 = _settled_at_most(ratios, 1.01)
    return {"p1": float(p1), "reached": float(p1 <= p_rule), "d": d, "d_ave": float(pr["dof"].d_ave),
            "ratio_rule": float(ratios[-1]), "p_rule": float(p_rule), "lam": pr["lam"]}


def pivot_figure(results, verdict, outdir):
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


def judge_pivot(results, profile) -> Outcome:
    """Pooled ratio sum p_1%(pivoted) / sum p_1%(uniform) over all (kernel, n) groups, with a
    bootstrap CI resampling the seeds (paired: one seed is one design for both orders); its CI
    must lie below 1.5."""
    uni, piv = _groups(results, "random"), _groups(results, "pivot")
    keys = sorted(set(uni) & set(piv))
    seeds = max(len(g) for g in uni.values())
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
    return Outcome(status, summary, [],
                   {"pooled_ratio": pooled, "ci_low": ci[0], "ci_high": ci[1], "max_group_ratio": float(per.max())},
                   {"ratio_at_most": PIVOT_MAX})


# -- bach13.fig1 ------------------------------------------------------------------------

FIG1_N = 400
FIG1_GRID = 14  # p values of the plotted curves
FIG1_DRAWS = 3  # column draws per design for uniform sampling: the paper plots "the average prediction error"


def _fig1_grid(seeds):
    return Grid(sizes=(FIG1_N,), seeds=seeds, params=dict(kdecay="poly", krate=1, lam_scale=1.0),
                methods=("random", "pivot"), describe=f"n = {FIG1_N}, B_2 kernel, {seeds} seeds")


def _op_norm(K, G, k):
    """||K - G_k G_k^T||_2, the largest eigenvalue of the PSD K - L (Lanczos, fixed start)."""
    Gk = G[:, :k]
    D = K - Gk @ Gk.T
    return float(eigsh(D, k=1, which="LA", v0=np.ones(D.shape[0]), tol=1e-10)[0][0])


def fig1_experiment(cell, estimators) -> dict:
    """Relative prediction gap (risk(L_p) - risk(K)) / risk(K) against the relative trace-
    and operator-norm errors of L_p, for nested columns (the column order ``cell.method``,
    averaged over ``FIG1_DRAWS`` draws for the random one; factor by estimator ``cholesky``),
    n = 400, the B_2 kernel (eigenvalues ~ i^-2) at lambda* (times ``lam_scale``). p_1% of each
    mean curve is the p from which on it stays at or below 1%: the trace and operator norms
    decrease along nested sets (the latter found by bisection); the gap is scanned up to
    2 p_op and censored at 2 p_op + 1 if it has not settled there."""
    order, cholesky = estimators[cell.method], estimators["cholesky"]
    pr = _random_problem(cell, cell.p["lam_scale"])
    n, K = cell.n, pr["K"]
    rng = cell.rng("columns")
    chols = [cholesky(pr["X"], pr["kern"], n, order(pr["X"], rng))
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


def judge_fig1(results, profile) -> Outcome:
    """In every draw, uniform and pivoted: p for a 1% prediction gap < p for 1% operator-norm error."""
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
    return Outcome(combine(parts), "; ".join(summaries), [], measured, {"p_gap < p_op": "in every draw"})


def fig1_figure(results, verdict, outdir):
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


# -- bach13.lemmaB1 -----------------------------------------------------------------------

B1_N, B1_R = 400, 40
B1_T = np.linspace(0.2, 0.95, 16)
B1_SETTINGS = ((100, 0.3), (200, 0.3))


def _lemma_b1_grid(reps):
    """One cell per (p, gamma) of ``B1_SETTINGS``, n = 400, ``reps`` draws of I."""
    return tuple(Grid(sizes=(B1_N,), seeds=1, params=dict(p=p, gamma=g, reps=reps), methods=("uniform",),
                      describe=f"n = {B1_N}, r = {B1_R}, p = {p}, γ = {g}, {reps} draws of I")
                 for p, g in B1_SETTINGS)


def column_subset(X, p, rng):
    """p row indices of X uniformly without replacement (Lemma B.1's sampling)."""
    return rng.choice(X.shape[0], size=p, replace=False)


def lemma_b1_sample(cell, subset):
    """Psi = Phi ((1/n) Phi^T Phi + gamma I)^{-1/2} for Phi the top-r eigen-features of K
    (B_2 kernel, uniform design), and the largest eigenvalue of
    (1/n) Psi^T Psi - (1/p) Psi_I^T Psi_I over repeated draws of I by ``subset``."""
    p = cell.p
    X = uniform_design(cell.n, cell.rng())
    K = PeriodicKernel("poly", 1).block(X)
    e, U = np.linalg.eigh(K)
    e, U = np.clip(e[::-1][:B1_R], 0.0, None), U[:, ::-1][:, :B1_R]
    Psi = U * np.sqrt(e / (e / cell.n + p["gamma"]))
    M = Psi.T @ Psi / cell.n
    rng = cell.rng("columns")
    draws = np.empty(p["reps"])
    for j in range(p["reps"]):
        I = subset(X, p["p"], rng)
        D = M - Psi[I].T @ Psi[I] / p["p"]
        draws[j] = np.linalg.eigvalsh(D)[-1]
    return draws, float(np.linalg.eigvalsh(M)[-1]), float((Psi**2).sum(axis=1).max())


def lemma_b1_experiment(cell, estimators) -> dict:
    """lambda_max((1/n) Psi^T Psi), R^2 = max row norm^2, the 95% quantile and the empirical
    tail P(lambda_max[...] > t) at each t of ``B1_T``."""
    draws, lam_max, R2 = lemma_b1_sample(cell, estimators[cell.method])
    out = {"lam_max": lam_max, "R2": R2, "q95": float(np.quantile(draws, 0.95))}
    for i, t in enumerate(B1_T):
        out[f"tail_{i}"] = float(np.mean(draws > t))
    return out


def judge_lemma_b1(results, profile) -> Outcome:
    """At every t, the Clopper-Pearson 99% lower limit of the tail <= the bound; inconclusive
    where the bound is vacuous (>= 1) at every t."""
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
    return Outcome(combine(parts), "; ".join(summaries), [], measured,
                   {"tail": "<= r exp(-(p t²/2) / (λ_max (R² + t/3)))"})


# -- bach13.eq6 ---------------------------------------------------------------------------

EQ6_TESTABLE = 4096   # the largest n at which this suite runs exact (O(n^3)) KRR
EQ6_DELTA = 0.25      # Eq. (7) with delta = 1/4: risk within a factor 2


def _eq6_grid(top):
    return Grid(sizes=tuple(2**k for k in range(7, top + 1)), seeds=1, params=dict(kdecay="poly", krate=1),
                methods=("grid",), describe=f"grid n = 2^7..2^{top}, B_2 kernel, δ = 2 signal")


def eq6_p(d, n, R2, lam):
    """The rank rule under test: Eq. (6) with delta = 1/4."""
    return eq6_rank(d, n, R2, lam, EQ6_DELTA)


def eq6_experiment(cell, estimators) -> dict:
    """Eq. (6)'s p (estimator ``eq6_rank``) at lambda*(n) on the grid (spectrum by estimator
    ``grid``; B_2 kernel, delta = 2 signal): d = df1 there."""
    p = cell.p
    kern = PeriodicKernel(p["kdecay"], p["krate"])
    e = np.clip(estimators["grid"](kern, cell.n), 0.0, None)
    energy = grid_energy(periodic_signal(grid_design(cell.n), *SIGNAL))
    lam, _ = optimal_lambda(e, energy, cell.n, SIGMA2, log10_range=(-10.0, 1.0), grid_per_decade=8)
    d = float(dof_circulant(e, lam).d)
    return {"lam": lam, "d": d, "p6": float(estimators["eq6_rank"](d, cell.n, kern.sup_diag(), lam))}


def judge_eq6(results, profile) -> Outcome:
    """holds when p_6 >= n at every n <= 4096 (Eq. (6) vacuous where exact KRR runs); reports
    the first n of the grid where p_6 < n."""
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
    slope, intercept = loglog_line(x, p6)
    fits = [Fit("p of Eq. (6), δ = 1/4", x, P, float(slope), (float(slope), float(slope)), float(intercept),
                reference=x, reference_label="p = n", ylabel="rank p")]
    return Outcome("holds" if vacuous else "fails", summary, fits,
                   {"p6_over_n_min_testable": float(ratio[testable].min()), "first_nonvacuous_n": first or -1},
                   {"vacuous_at_testable_n": True})


# -- the claims ------------------------------------------------------------------------------

_RANDOM_DESIGN = ("uniform random design x_i ~ U[0, 1), signal f with nu_i = i^-4 (δ = 2), noise σ² = 1; "
                  "λ* minimises the exact full-KRR risk; no bandwidth rule (fixed periodic kernels)")

CLAIMS = [
    Claim(
        id="bach13.dof-identities",
        source="Bach 2013, Eq. (5), Secs. 4.1-4.4, Thm 4.1 proof",
        statement="d_ave <= df1 <= d <= n R^2/(R^2 + n λ); d == df1 on the grid; L <= K; "
                  "variance(L) <= variance(K); exact bias/variance agree with Monte Carlo and with the fitted "
                  "estimators' smoothers",
        prediction="exact",
        data=_RANDOM_DESIGN + f"; B_2 and exp(ρ=1) kernels, p = {IDENT_P} uniform columns; the grid design of the "
             "same n; heteroscedastic noise sd ~ U[0.5, 1.5] for the Monte Carlo",
        metric="relative violation of each relation (0 when it holds); |Monte Carlo mean - exact risk| in "
               "standard errors",
        estimators={"krr": KernelRidge, "nystrom": NystromKRR},
        experiment=identities_experiment,
        grid=PerProfile(ci=_identity_grid("ci", 120, 3), quick=_identity_grid("quick", 200, 5),
                        full=_identity_grid("full", 400, 20)),
        judge=AllOf(AllWithin(IDENT_RTOL, EXACT_RELATIONS, "relative"),
                    AllWithin(SOLVER_RTOL, ("solvers",), "relative"),
                    AllWithin(MC_Z, ("mc_z_K", "mc_z_L"), "standard errors")),
        tolerance=Tolerance(
            rule="relative violation <= 1e-8 (the two Sec. 4.4 solvers: 1e-6); Monte Carlo z <= 4; "
                 "never bias(L) >= bias(K)",
            evidence="ci (n = 120, seeds 0-2) and quick (n = 200, seeds 0-4), both kernels: chain 0, d == df1 on "
                     "the grid <= 9e-14, FFT vs eigh <= 9e-16, L <= K violation <= 3.5e-16 of ||K||, variance "
                     "order 0, estimator smoothers vs the spectral formulas <= 1.5e-13; Monte Carlo z <= 2.24 "
                     "(4000 / 8000 draws). The 'columns' solver C (C^T C + n λ W)^-1 C^T y squares the condition "
                     "number of W: it agrees with the 'features' solver to 5e-11 at ci and 4.2e-8 at quick, hence "
                     "its own allowance 1e-6."),
        faults=(Fault("lambda-not-n-lambda", "the Nyström fit solves (Φ^TΦ + λ I) w = Φ^T y: scikit-learn's "
                      "alpha read as λ", {"nystrom": faults.LambdaNotTimesN}, keep=lambda c: c.seed == 0),
                Fault("unorthogonalised-cholesky", "the Nyström factor Φ comes from an incomplete Cholesky that "
                      "does not subtract the previous columns", {"nystrom": faults.UnorthogonalisedNystrom},
                      keep=lambda c: c.seed == 0)),
    ),
    Claim(
        id="bach13.dof-decay",
        source="Bach 2013, Sec. 4.3 and App. C (df asymptotics)",
        statement="df1(λ) = tr K(K + nλ)^{-1} decays as λ^{-1/(2β)} (poly) and (2/ρ) ln(1/λ) (exp)",
        prediction="poly: 2[c1 λ^{-1/(2β)} - 1/2], slope -1/(2β); exp: (2/ρ) ln(1/λ) - 1",
        data="equispaced grid design x_i = (i-1)/n (circulant Gram matrix, exact FFT spectrum), B_2, B_4, "
             f"exp(ρ=0.5) and exp(ρ=1) kernels, {DECAY_LEVELS} levels λ in the measured validity range; "
             "no bandwidth rule",
        metric="df1 at each λ; how negative the spectrum is (PSD check)",
        estimators={"fft": grid_spectrum, "kernel": PeriodicKernel},
        experiment=decay_experiment,
        grid=PerProfile(ci=_per_kernel(DECAY_CASES, (2**16,), 1, ("fft",)),
                        quick=_per_kernel(DECAY_CASES, (2**18,), 1, ("fft",)),
                        full=_per_kernel(DECAY_CASES, (2**20,), 1, ("fft",))),
        judge=judge_decay,
        tolerance=Tolerance(
            rule="slope -1/(2β) ± 0.02 and level within 1% (poly); within 0.1 absolute (exp); PSD spectrum",
            evidence="validity ranges measured at n = 2^16 (relative level error per λ): poly, at "
                     "λ^(-1/(2β)) = n/20 the β = 1 level is 1.2% low (aliased spectrum at finite n), 0.27% at "
                     "n/50, so 10 <= λ^(-1/(2β)) <= n/50; β = 2 stops at λ = 1e-12 (error < 1e-4 there); exp: "
                     "ln(1/λ) >= 6 (Euler-Maclaurin offset 0.40 at ln(1/λ) = 2.5, 0.009 at 6.3 for ρ = 0.5) and "
                     "λ >= 1e-9 (the FFT's round-off eigenvalues, ~3e-12 each, add about n 3e-12 / (n λ): 0.12 at "
                     "λ = e^-30, 5e-6 at e^-20). In range: worst level error 0.27% (β = 1), slopes -0.50 and "
                     "-0.25; exp offsets <= 0.01."),
        faults=(Fault("literal-bernoulli", "the paper's printed Bernoulli kernel B_{2β}(t)/(2β)! (wrong sign for "
                      "even β, wrong scale)", {"kernel": faults.literal_bernoulli_kernel}),),
    ),
    Claim(
        id="bach13.table1",
        source="Bach 2013, Table 1 and App. C.3",
        statement="λ*, the risk at λ* and d_ave(λ*) scale with n as Table 1 says (lines 1, 2, 5, 6)",
        prediction="line 1 (β=1, δ=4): -2/5, -4/5, 1/5; line 2 (β=1, δ=2): -1/2, -3/4, 1/4; lines 5/6: "
                   "-1/2 or -ρ/κ, log n / n, log n (log factors fitted on the same grid)",
        data="equispaced grid design (exact FFT spectrum), noise σ² = 1; line 1: B_2 kernel, ν_i = i^-8; line 2: "
             "B_2, ν_i = i^-4; line 5: exp(ρ=0.5), ν_i = e^-2i; line 6: exp(ρ=1), ν_i = e^-1.5i; no bandwidth rule",
        metric="log-log slopes against n of λ* (exact risk minimised over λ), the risk at λ* and d_ave(λ*)",
        estimators={"grid": grid_spectrum, "optimal_lambda": optimal_lambda, "signal": periodic_signal},
        experiment=table1_experiment,
        grid=PerProfile(ci=_table1_grid(13), quick=_table1_grid(16), full=_table1_grid(20)),
        judge=judge_table1,
        tolerance=Tolerance(rule="every slope within ± 0.045 (lines 1, 2) or ± 0.12 (lines 5, 6) of the least-squares "
                                 "slope of its Table 1 order on the same grid; a (log n)-order d_ave at least half "
                                 "its reference slope",
                            evidence="deterministic: worst |measured - reference| slope at ci (n = 2^8..2^13) 0.035 "
                                     "(lines 1, 2: d_ave) and 0.098 (lines 5, 6: d_ave of line 5); at quick "
                                     "(2^8..2^16) 0.027 and 0.075. ± 0.045 makes lines 1 and 2 disjoint in λ*."),
        faults=(Fault("lambda-not-n-lambda", "λ* of the risk with K + λ I instead of K + n λ I (scikit-learn's "
                      "alpha read as λ)", {"optimal_lambda": faults.optimal_lambda_without_n},
                      keep=lambda c: c.p["line"] in ("line 1", "line 2")),
                Fault("half-rate-signal", "a near miss: the signal's coefficients decay at half the declared "
                      "rate, so line 1's problem (δ = 4) is line 2's (δ = 2); its slopes must leave line 1's bands",
                      {"signal": faults.half_rate_signal}, keep=lambda c: c.p["line"] == "line 1")),
    ),
    Claim(
        id="bach13.rank-rule",
        source="Bach 2013, Thm 4.1 / Sec. 4.4 (p linear in d), Fig. 2 right",
        statement="Uniform column sampling needs p proportional to d: p_1%/d stays O(1) across n, and "
                  "p = ⌈d ln n⌉ loses at most 1% of risk",
        prediction="mean risk ratio <= 1.01 at p = ⌈d ln n⌉ and at p = ⌈4d⌉, > 1.01 at p = ⌈d/4⌉ "
                   "(p_1%/d in [1/4, 4]) at every (kernel, n)",
        data=_RANDOM_DESIGN + "; B_2, B_4 and exp(ρ=1) kernels; a kernel approximation of p uniformly "
             f"sampled columns (incomplete Cholesky), fitted afresh at each budget, {RANK_DRAWS} draws per "
             "design and budget",
        metric="mean over draws and designs of the exact risk ratio risk(L)/risk(K), L = Z Z^T with Z = "
               "transform(X), at p = ⌈c d⌉ (c = 1/4, 1/2, 1, 2, 4) and p = ⌈d ln n⌉; d (Eq. 5) at λ*",
        estimators={"uniform": ours_nystrom_columns},
        experiment=rank_experiment,
        subject=RANK_SUBJECT,
        grid=PerProfile(ci=_per_kernel(RANK_KERNELS, (50, 100, 200, 400), 5, ("uniform",)),
                        quick=_per_kernel(RANK_KERNELS, (50, 100, 200, 400, 800), 6, ("uniform",)),
                        full=_per_kernel(RANK_KERNELS, (200, 400, 800, 1600, 3200), 20, ("uniform",))),
        judge=judge_rank,
        tolerance=Tolerance(
            rule="per (kernel, n), the mean ratio (over designs and draws) <= 1.01 at p = ⌈d ln n⌉ and at "
                 "p = ⌈4d⌉, > 1.01 at p = ⌈d/4⌉; exact risks, point checks",
            evidence="the level 1.01 is the claim's own (1% of risk); the margins were measured with "
                     "`kpca-suite run bach13.rank-rule` and the same cells at seed offsets. ci (n = 50..400, 5 "
                     "designs per (kernel, n)), 4 disjoint runs, seeds 0-19: per (kernel, n) mean ratio at "
                     "⌈d ln n⌉ 0.987-1.0014, at ⌈4d⌉ 0.974-1.0015, at ⌈d/4⌉ 1.99-16.6 (single designs: <= 1.0063, "
                     "<= 1.016, >= 1.15); quick (n = 50..800, 6 designs), 3 runs, seeds 0-17: 0.988-1.0012, "
                     "0.974-1.0030, 2.30-26.3. At ⌈2d⌉ the mean reached 1.029, so a band [1/4, 2] would not hold; "
                     "the brackets of p_1%/d were (1/2, 4] in every (kernel, n) and run, (2, 4] only for B_4 "
                     "(at every n in some run). Faults at ci (2 seed offsets): crowded-columns mean ratio >= 1.024 at ⌈4d⌉ and up to 3.1 at "
                     "⌈d ln n⌉; eighth-budget >= 1.105 at ⌈4d⌉ and at ⌈d ln n⌉ in every (kernel, n). The former "
                     "statistic (p_1% from one nested prefix scan per draw) saw p_1%/d in [0.97, 2.89] at ci; a "
                     "slope of log p_1% vs log d on a budget grid was too wide to decide at ci, so no slope is "
                     "judged."),
        faults=(Fault("crowded-columns", "the p columns nearest x = 0.5 instead of uniform ones",
                      {"uniform": faults.crowded_columns},
                      keep=lambda c: c.p["kdecay"] == "poly" and c.seed < 2 and c.n <= 200),
                Fault("eighth-budget", "uniform columns, but only ⌈p/8⌉ of the p granted: still p ∝ d, with "
                      "a constant 8 times too small (a near miss)", {"uniform": faults.eighth_budget},
                      keep=lambda c: c.seed < 2)),
        figure=rank_figure,
    ),
    Claim(
        id="bach13.pivoting",
        source="Bach 2013, Sec. 5 (Figs. 1-3: pivoting 'does not change significantly the results')",
        statement="Incomplete Cholesky with column pivoting needs no more columns than uniform sampling, "
                  "up to a factor 1.5",
        prediction="p_1%(pivoted) <= 1.5 p_1%(uniform)",
        data=_RANDOM_DESIGN + "; B_2 and exp(ρ=1) kernels; columns in a random order (5 draws per design) or "
             "by column pivoting, on the same designs (paired by seed)",
        metric="p_1% of each column order: the rank from which on the mean exact risk ratio risk(L_p)/risk(K) "
               "of the nested prefixes stays <= 1.01 (up to p = ⌈d ln n⌉), pooled over (kernel, n)",
        estimators={"random": random_order, "pivot": pivot_order},
        experiment=pivot_experiment,
        grid=PerProfile(ci=_per_kernel(PIVOT_KERNELS, (100, 200, 400), 5, ("random", "pivot")),
                        quick=_per_kernel(PIVOT_KERNELS, (100, 200, 400), 6, ("random", "pivot")),
                        full=_per_kernel(PIVOT_KERNELS, (200, 400, 800, 1600, 3200), 20, ("random", "pivot"))),
        judge=judge_pivot,
        tolerance=Tolerance(rule="bootstrap 95% CI (over seeds, 2000 resamples) of the pooled ratio "
                                 "sum p_1%(pivoted) / sum p_1%(uniform) below 1.5",
                            evidence="no measurement recorded; 1.5 reads the paper's 'does not change significantly "
                                     "the results, but may sometimes reduce the number of required columns'."),
        faults=(Fault("crowded-pivots", "'pivoting' takes the columns nearest x = 0.5 first",
                      {"pivot": faults.crowded_order},
                      keep=lambda c: c.p["kdecay"] == "poly" and c.seed < 3 and c.n <= 200),),
        figure=pivot_figure,
    ),
    Claim(
        id="bach13.fig1",
        source="Bach 2013, Fig. 1",
        statement="As p grows the relative prediction gap falls much faster than the relative matrix error",
        prediction="p for a 1% prediction gap < p for 1% operator-norm error",
        data=f"uniform random design, n = {FIG1_N}, B_2 kernel (eigenvalues ~ i^-2), signal ν_i = i^-4, σ² = 1, "
             f"at λ*; nested columns in a random order ({FIG1_DRAWS} draws averaged) or by column pivoting; "
             "no bandwidth rule",
        metric="p from which on each mean curve stays <= 1%: relative prediction gap (risk(L_p) - risk(K)) / "
               "risk(K), ||K - L_p||_op / ||K||_op, ||K - L_p||_tr / ||K||_tr",
        estimators={"random": random_order, "pivot": pivot_order, "cholesky": incomplete_cholesky},
        experiment=fig1_experiment,
        grid=PerProfile(ci=_fig1_grid(3), quick=_fig1_grid(5), full=_fig1_grid(20)),
        judge=judge_fig1,
        tolerance=Tolerance(rule="in every draw, uniform and pivoted",
                            evidence="no measurement recorded; the paper's Fig. 1 shows the gap curve reaching 1% "
                                     "well before both matrix errors."),
        faults=(Fault("unorthogonalised-cholesky", "an incomplete Cholesky that does not subtract the previous "
                      "columns, so G G^T is not L", {"cholesky": faults.unorthogonalised_cholesky},
                      keep=lambda c: c.seed == 0),),
        figure=fig1_figure,
    ),
    Claim(
        id="bach13.lemmaB1",
        source="Bach 2013, Lemma B.1",
        statement="λ_max[(1/n)Ψ^TΨ - (1/p)Ψ_I^TΨ_I] has a tail below r exp(-(pt²/2)/(λ_max(R² + t/3)))",
        prediction="empirical tail below the bound at every t",
        data=f"uniform random design, n = {B1_N}, B_2 kernel; Ψ = Φ((1/n)Φ^TΦ + γ I)^(-1/2) for Φ the top r = "
             f"{B1_R} eigen-features of K; I uniform without replacement; no bandwidth rule",
        metric=f"empirical tail P(λ_max[...] > t) at {len(B1_T)} levels t in [0.2, 0.95] over repeated draws of I",
        estimators={"uniform": column_subset},
        experiment=lemma_b1_experiment,
        grid=PerProfile(ci=_lemma_b1_grid(200), quick=_lemma_b1_grid(1000), full=_lemma_b1_grid(5000)),
        judge=judge_lemma_b1,
        tolerance=Tolerance(rule="Clopper-Pearson 99% lower limit of the tail <= bound at every t; inconclusive "
                                 "if the bound is vacuous everywhere",
                            evidence="no measurement recorded; the slack is the binomial sampling error of the "
                                     "tail (the bound itself is loose)."),
        faults=(Fault("crowded-subset", "the p points nearest x = 0.5 instead of a uniform subset",
                      {"uniform": faults.crowded_subset}),),
    ),
    Claim(
        id="bach13.eq6",
        source="Bach 2013, Theorem 4.1, Eq. (6)",
        statement="The sufficient rank of Eq. (6) is larger than n at every n where exact KRR can be run",
        prediction="p_6 = (32 d/δ + 2) log(n R²/(δλ*)) >= n for n <= 4096 (δ = 1/4); reported where it becomes < n",
        data="equispaced grid design (exact FFT spectrum), B_2 kernel, signal ν_i = i^-4, σ² = 1, at λ*; "
             "no bandwidth rule",
        metric="p_6 / n, with d = df1 (Eq. (5) on the grid) and R² = π²/3",
        estimators={"grid": grid_spectrum, "eq6_rank": eq6_p},
        experiment=eq6_experiment,
        grid=PerProfile(ci=_eq6_grid(19), quick=_eq6_grid(20), full=_eq6_grid(24)),
        judge=judge_eq6,
        tolerance=Tolerance(rule="reported; the claim fails if Eq. (6) is not vacuous at a tested n <= 4096",
                            evidence="worked example: d = 52, R² = π²/3, λ = 4.6e-3, n = 3200, δ = 1/4 gives "
                                     "p >= 1.07e5 >> n."),
        faults=(Fault("practical-rank", "p = d ln n instead of Eq. (6)", {"eq6_rank": faults.practical_rank},
                      keep=lambda c: c.n <= 2**14),),
    ),
]
