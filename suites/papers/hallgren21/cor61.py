"""hallgren21.cor61: the eigenvalue bounds of Sec. 6.1's (unnumbered) corollary on the Mehler oracle."""

from __future__ import annotations

import math

import numpy as np
from scipy.special import gammaln

from kpca_suite.kernels import Kernel
from kpca_suite.methods.exact import ExactKPCA
from kpca_suite.theory.hallgren_bounds import centred_eigenvalue_bound, corollary61_bounds
from kpca_suite.theory.mehler import MehlerModel, mehler_eigenvalues

from ...claim import Cell, Claim, Fault, Grid, PerProfile, Tolerance
from ...judging import AllOf, AllWithin, CoverageAtLeast, MeanAtMost, ProbableBound, SlopeInBand, WithErratum
from ...roles import Subject, build

# -- hallgren21.cor61 ---------------------------------------------------------------------

COR_GAMMA, COR_VAR, COR_ALPHA, COR_J = 1.0, 1.0, 0.9, 40


# Slope band of sup_j |lambda_j - lambda^n_j| vs n: the CLT rate -1/2 +- 0.15.
COR_BAND = (-0.65, -0.35)


def gaussian_features_1d(x, gamma: float) -> np.ndarray:
    """Phi with K = Phi Phi^T for k(x, y) = exp(-gamma (x - y)^2), 1-D:
    exp(-gamma (x-y)^2) = sum_k phi_k(x) phi_k(y), phi_k(x) = e^{-gamma x^2} (2 gamma)^{k/2} x^k / sqrt(k!).
    Each row has squared norm sum_k Poisson(2 gamma x^2; k) <= 1; J = 2 gamma max x^2
    + 10 sqrt(.) + 40 terms leave a Poisson tail below 1e-16."""
    x = np.asarray(x, dtype=float)
    lam_max = 2 * gamma * float(np.max(x**2))
    J = int(math.ceil(lam_max + 10 * math.sqrt(lam_max) + 40))
    k = np.arange(J)
    with np.errstate(divide="ignore"):
        logabs = (-gamma * x[:, None] ** 2 + 0.5 * k * math.log(2 * gamma) + k * np.log(np.abs(x))[:, None]
                  - 0.5 * gammaln(k + 1))
    Phi = np.where(k == 0, 1.0, np.sign(x)[:, None] ** k) * np.exp(logabs)
    Phi[:, 0] = np.exp(-gamma * x**2)
    return Phi


def gaussian_gram_eigenvalues_1d(x, gamma: float, count: int) -> np.ndarray:
    """The top ``count`` eigenvalues of K / n for k(x, y) = exp(-gamma (x - y)^2), 1-D,
    without forming K: K = Phi Phi^T (:func:`gaussian_features_1d`), so its nonzero
    eigenvalues are those of Phi^T Phi (O(n J^2))."""
    s = np.linalg.svd(gaussian_features_1d(x, gamma) / math.sqrt(len(x)), compute_uv=False)
    lam = np.zeros(count)
    lam[:min(count, s.size)] = (s**2)[:count]
    return lam


def cor61_experiment(cell: Cell, est) -> dict:
    """sup_j |lambda_j - lambda^n_j| (j < J) and sum_j (lambda_j - lambda^n_j)^2 on the Mehler
    oracle, against B sqrt(2 delta / n) and 2 B^2 delta / n (Sec. 6.1's unnumbered corollary, B = 1); covered = 1.0
    where the bound holds."""
    x = cell.rng().normal(0.0, math.sqrt(COR_VAR), cell.n)
    lam_hat = est["gram"](x, COR_GAMMA, COR_J)
    lam = est["mehler"](COR_GAMMA, COR_VAR, COR_J)
    b = est["bounds"](cell.n, 1.0, COR_ALPHA)
    err = np.abs(lam - lam_hat)
    # the bounds judged, against the printed statement evaluated here (B = 1, delta = ln(2 / (1 - alpha)))
    delta = math.log(2.0 / (1.0 - COR_ALPHA))
    formula = float(np.max([abs(b["sup_eig"] / math.sqrt(2.0 * delta / cell.n) - 1.0),
                            abs(b["sum_sq_eig"] * cell.n / (2.0 * delta) - 1.0)]))
    return {"sup_err": float(err.max()), "sum_sq_err": float((err**2).sum()), "bound": b["sup_eig"],
            "covered": float(err.max() <= b["sup_eig"]), "covered_sq": float((err**2).sum() <= b["sum_sq_eig"]),
            "bound_formula": formula}


def corollary61_bounds_10pc(n, B, alpha):
    """A planted fault: the bounds of Sec. 6.1's corollary 10% larger than printed."""
    return {k: 1.1 * v for k, v in corollary61_bounds(n, B, alpha).items()}


def _cor_grid(sizes, seeds):
    return Grid(sizes=sizes, seeds=seeds, params={"gamma": COR_GAMMA, "var": COR_VAR}, methods=("mehler",))


def mehler_wrong_convention(gamma, data_var, count):
    """The oracle evaluated at gamma / 2: exp(-||x-y||^2 / (2 s^2)) read as gamma = 1/s^2."""
    return mehler_eigenvalues(gamma / 2, data_var, count)


COR61 = Claim(
    id="hallgren21.cor61",
    source="Hallgren 2021, Sec. 6.1 ('A corollary', unnumbered; the paper has no 'Corollary 6.1'): its sharper "
           "version of Rosasco et al. (2010), Prop. 10",
    statement="sup_j |λ_j - λ^n_j| <= B sqrt(2δ/n) and Σ_j (λ_j - λ^n_j)^2 <= 2B²δ/n, each w.p. >= 1 - 2e^{-δ}, "
              "for the eigenvalues of the uncentred covariance C and of C_n (the sum here over the top 40)",
    prediction="each bound's violation rate <= 1 - α = 0.1; ours: slope of the sup error ≈ -1/2 (the paper states "
               "a bound, not a rate)",
    data=f"1-D N(0, {COR_VAR}); Gaussian kernel exp(-γ (x - y)²) with the fixed γ = {COR_GAMMA} (no bandwidth "
         f"rule), whose population eigenvalues are Mehler's closed form; top {COR_J} eigenvalues, α = {COR_ALPHA}",
    metric="sup_j |λ_j - λ^n_j| and Σ_j (λ_j - λ^n_j)² over the top 40 eigenvalues; whether each is under its bound",
    metrics=("bound", "bound_formula", "covered", "covered_sq", "sum_sq_err", "sup_err"),
    estimators={"mehler": mehler_eigenvalues, "gram": gaussian_gram_eigenvalues_1d, "bounds": corollary61_bounds},
    experiment=cor61_experiment,
    grid=PerProfile(ci=_cor_grid((100, 200, 400, 800, 1600, 3200), 40),
                    quick=_cor_grid((100, 200, 400, 800, 1600, 3200, 6400), 30),
                    full=_cor_grid((100, 200, 400, 800, 1600, 3200, 6400, 12800, 25600), 100)),
    judge=AllOf(SlopeInBand("sup_err", band=COR_BAND, label="sup_j |λ_j - λ^n_j| (Mehler oracle)",
                            ylabel="eigenvalue error", reference="bound",
                            reference_label="bound B sqrt(2δ/n) (Sec. 6.1)"),
                CoverageAtLeast("covered", level=COR_ALPHA),
                CoverageAtLeast("covered_sq", level=COR_ALPHA, name="coverage_sq"),
                AllWithin(1e-12, metrics=("bound_formula",), what="relative, against the printed bounds")),
    tolerance=Tolerance(
        rule=f"slope CI inside {list(COR_BAND)}; each bound's violations not significantly above 1 - α "
             f"(binomial p >= 0.01); the bounds within 1e-12 of their printed statement",
        evidence="with 10 seeds at ci the slope's CI straddled the band under 8 of 9 independent root seeds "
                 "(python -m tests.decisiveness; e.g. -0.429 [-0.578, -0.278]), hence 40: roots 0-9 give slopes "
                 "-0.553 .. -0.464, CI ends -0.612 .. -0.409; quick (30 seeds): -0.49 [-0.52, -0.46]. The bounds "
                 "against the printed statement evaluated in the experiment: equal at ci; 10% too large: 0.10"),
    faults=(Fault("gamma-half", "the oracle evaluated at γ / 2 (exp(-||x-y||²/(2 s²)) read as γ = 1/s²)",
                  {"mehler": mehler_wrong_convention}, keep=lambda c: c.seed < 10),
            Fault("bound-off-by-10%", "both bounds 10% larger than printed (a wrong constant, which coverage 1.0 "
                  "would hide)", {"bounds": corollary61_bounds_10pc}, keep=lambda c: c.seed < 10)),
)


# -- hallgren21.cor61-centred: the centred eigenvalues of any centred KPCA -------------------

COR_CENTRED_K = 10  # the components fitted; sup_j runs over their eigenvalues


def exact_centred_kpca(n_components, budget, kernel, random_state):
    """Exact centred KPCA (``budget`` unused; ``random_state`` seeds the top-k solver's start)."""
    return ExactKPCA(n_components, kernel, center=True, random_state=random_state)



def cor61_centred_experiment(cell: Cell, est) -> dict:
    """A centred exact KPCA (``est["kpca"]``, a kpca-projection factory; the budget n is
    unused) fitted with k = 10 on n draws of
    N(0, 1); its empirical centred eigenvalues Lambda^n_j are the variances of its training
    scores (coordinates in an orthonormal basis, in decreasing order), the population ones
    the centred Mehler operator's; ``sup_err`` = max_j |Lambda_j - Lambda^n_j| against
    :func:`~theory.hallgren_bounds.centred_eigenvalue_bound` (B = 1)."""
    X = cell.rng().normal(0.0, math.sqrt(COR_VAR), (cell.n, 1))
    kpca = build(est["kpca"], "kpca-projection", cell, in_sample=True, n_components=COR_CENTRED_K, budget=cell.n,
                 kernel=Kernel("gaussian", gamma=COR_GAMMA), random_state=cell.seed_int("landmarks"))
    lam_n = np.sort(kpca.fit_transform(X).var(axis=0))[::-1]
    lam = MehlerModel(COR_GAMMA, (COR_VAR,), n_nodes=100).centred_spectrum()[0][:COR_CENTRED_K]
    err = float(np.max(np.abs(lam[:len(lam_n)] - lam_n))) if len(lam_n) == COR_CENTRED_K else float("inf")
    b = est["bound"](cell.n, 1.0, COR_ALPHA)
    # the bound judged, against its statement evaluated here: (sqrt 2 + 4) sqrt(2 delta / n), delta = ln(4 / (1 - alpha))
    direct = (math.sqrt(2.0) + 4.0) * math.sqrt(2.0 * math.log(4.0 / (1.0 - COR_ALPHA)) / cell.n)
    return {"sup_err": err, "bound": b, "covered": float(err <= b), "bound_formula": abs(b - direct) / direct}


def centred_bound_10pc(n, B, alpha):
    """A planted fault: the centred bound 10% larger than stated."""
    return 1.1 * centred_eigenvalue_bound(n, B, alpha)


def uncentred_kpca(n_components, budget, kernel, random_state):
    """An exact KPCA that does not centre, judged as the centred one it claims to be."""
    return ExactKPCA(n_components, kernel, center=False, random_state=random_state)


COR61_CENTRED = Claim(
    id="hallgren21.cor61-centred",
    source="Hallgren 2021, Sec. 6.1 (uncentred) and Sec. 9 (centring left open): a centred analogue (ours, not "
           "the paper's)",
    statement="the centred eigenvalues of any centred KPCA concentrate: sup_j |Λ_j - Λ^n_j| <= (√2 + 4) B "
              "sqrt(2δ/n) w.p. >= 1 - 4e^{-δ} (ours, proved with the constant √2 B where the paper's proof uses "
              "the false B)",
    prediction="violation rate <= 1 - α = 0.1; slope of the sup error ≈ -1/2",
    data=f"1-D N(0, {COR_VAR}); Gaussian kernel with the fixed γ = {COR_GAMMA}; Λ_j of the centred covariance "
         f"operator (the centred Mehler oracle), Λ^n_j the variances of the training scores, top {COR_CENTRED_K}",
    metric="sup_j |Λ_j - Λ^n_j| over the top 10; whether it is under the bound",
    metrics=("bound", "bound_formula", "covered", "sup_err"),
    estimators={"kpca": exact_centred_kpca, "bound": centred_eigenvalue_bound},
    experiment=cor61_centred_experiment,
    grid=PerProfile(*(Grid(sizes=g.sizes, seeds=seeds, params=g.params, methods=("kpca",))
                      for g, seeds in zip((COR61.grid.ci, COR61.grid.ci, COR61.grid.full), (30, 30, 100)))),
    subject=Subject("kpca-projection", "kpca", centred=True, kernel="gaussian", budget="none (exact), k = 10",
                    kinds=("exact",), needs="the training rows' scores (fit_transform), in an orthonormal basis",
                    in_sample=True),
    judge=AllOf(SlopeInBand("sup_err", band=COR_BAND, label="sup_j |Λ_j - Λ^n_j| (centred Mehler oracle)",
                            ylabel="centred eigenvalue error", reference="bound",
                            reference_label="centred bound (ours)"),
                CoverageAtLeast("covered", level=COR_ALPHA),
                AllWithin(1e-12, metrics=("bound_formula",), what="relative, against the stated bound")),
    tolerance=Tolerance(f"slope CI inside {list(COR_BAND)}; violations not significantly above 1 - α (binomial "
                        "p >= 0.01); the bound within 1e-12 of its statement",
                        "ci (seeds 0-29): exact centred KPCA -0.427 [-0.491, -0.363], and scikit-learn's KernelPCA "
                        "(dense, arpack, randomized) the same to three decimals; with 10 seeds the CI was "
                        "[-0.481, -0.210], inconclusive, hence 30. The centred oracle agrees with a 10^6-sample "
                        "centred spectrum to 9e-5. The bound is loose (about 50 times the error): coverage is 1.0 "
                        "and the slope carries the claim; an uncentred fit stalls at +0.008. The slope band's margins (python -m tests.variants.margins, ci, root 0): "
                        "the CI of every correct implementation ends 0.013 inside -0.35 (ours, ARPACK and randomized SVD "
                        "alike: the same spectrum), so the band's upper end is this claim's closest margin; its "
                        "decisiveness under roots 0-9 is what holds it; an uncentred fit's CI lies 0.346 outside. Quick runs ci's "
                        "grid (n = 6400 cost 12 of its 17 cell-s): roots 0-4 at quick hold, slopes -0.503 .. -0.427"),
    faults=(Fault("uncentred", "an exact KPCA that does not centre: the variances of its uncentred scores",
                  {"kpca": uncentred_kpca}),
            Fault("bound-off-by-10%", "the bound 10% larger than stated (a wrong constant, which coverage 1.0 "
                  "would hide)", {"bound": centred_bound_10pc}, keep=lambda c: c.seed < 2)),
)



# -- hallgren21.cor61-hs: ||C - C_n||_HS and |Tr C - Tr C_n| (Sec. 6.1, Thm. 7 and Prop. 11) ----

#: psi(x) = exp(-HS_BETA x^2) weights the trace kernel psi(x) psi(y) exp(-gamma (x - y)^2), whose
#: diagonal exp(-2 beta x^2) varies in (0, 1] (B = 1): for a constant diagonal |Tr C - Tr C_n| = 0.
HS_BETA = 0.5
COR_DELTA = 1.0 - COR_ALPHA  # the violation rate each bound allows
#: the pooled mean of n ||C - C_n||^2 / E||Y||^2 (expectation 1) is at most this; evidence in the Tolerance
HS_RATIO_MAX = 1.25
#: slope band of ||C - C_n||_HS^2 against n: E = (1 - ||C||^2) / n exactly, slope -1 +- 0.3
HS_SQ_BAND = (-1.3, -0.7)


def gauss_moment(mu, var: float, a: float):
    """E exp(-a W^2) for W ~ N(mu, var): (1 + 2 a var)^{-1/2} exp(-a mu^2 / (1 + 2 a var))."""
    s = 1.0 + 2.0 * a * var
    return np.exp(-a * np.asarray(mu, dtype=float) ** 2 / s) / math.sqrt(s)


def mean_sq_kernel(x, gamma: float, var: float):
    """E_X k(x, X)^2 = E exp(-2 gamma (x - X)^2), X ~ N(0, var), at each x."""
    return gauss_moment(x, var, 2.0 * gamma)


def cor61_hs_experiment(cell: Cell, est) -> dict:
    """||C - C_n||_HS for k = exp(-gamma (x - y)^2) under N(0, var), from
    ||C - C_n||^2 = ||C||^2 - 2 <C, C_n> + ||C_n||^2 with ||C||^2 = E k(X, X')^2 = (1 + 8 gamma var)^{-1/2},
    <C, C_n> = (1/n) sum_i E_X k(x_i, X)^2 and ||C_n||^2 = sum_ij k(x_i, x_j)^2 / n^2 = ||Phi^T 1||^2 / n^2
    (k^2 is the Gaussian kernel at 2 gamma, Phi its features: O(n J)); and |Tr C - Tr C_n| for the
    weighted kernel psi(x) psi(y) exp(-gamma (x - y)^2), Tr C = E psi(X)^2 = (1 + 4 beta var)^{-1/2},
    Tr C_n = (1/n) sum_i psi(x_i)^2. Both against B sqrt(2 delta / n) (B = 1); ``hs_sq_ratio`` =
    n ||C - C_n||^2 / E||Y||^2, E||Y||^2 = E k(X, X)^2 - ||C||^2 = 1 - ||C||^2, whose mean is 1."""
    x = cell.rng().normal(0.0, math.sqrt(COR_VAR), cell.n)
    n = cell.n
    c_sq = float(gauss_moment(0.0, 2.0 * COR_VAR, 2.0 * COR_GAMMA))
    cross = float(np.mean(est["cross"](x, COR_GAMMA, COR_VAR)))
    phi_sum = gaussian_features_1d(x, 2.0 * COR_GAMMA).sum(axis=0)
    hs_sq = c_sq - 2.0 * cross + float(phi_sum @ phi_sum) / n**2
    hs = math.sqrt(max(hs_sq, 0.0))  # a negative hs_sq (impossible) fails the slope rule below
    trace_err = abs(float(gauss_moment(0.0, COR_VAR, 2.0 * HS_BETA)) - float(np.mean(est["diag"](x, HS_BETA))))
    b = est["bounds"](n, 1.0, COR_ALPHA)
    delta = math.log(2.0 / (1.0 - COR_ALPHA))
    direct = math.sqrt(2.0 * delta / n)
    return {"hs_err": hs, "hs_sq": hs_sq, "trace_err": trace_err, "bound": b["hs"], "bound_trace": b["trace"],
            "bound_formula": max(abs(b["hs"] / direct - 1.0), abs(b["trace"] / direct - 1.0)),
            "hs_sq_ratio": n * hs_sq / (1.0 - c_sq)}


def weighted_diagonal(x, beta: float):
    """k(x, x) = psi(x)^2 = exp(-2 beta x^2) of the weighted kernel."""
    return np.exp(-2.0 * beta * np.asarray(x) ** 2)


def weighted_diagonal_psi(x, beta: float):
    """A planted fault: psi(x) where k(x, x) = psi(x)^2."""
    return np.exp(-beta * np.asarray(x) ** 2)


def mean_sq_kernel_half(x, gamma: float, var: float):
    """A planted fault: E_X k(x, X)^2 with exp(-||x-y||^2 / (2 s^2)) read as gamma = 1/s^2."""
    return mean_sq_kernel(x, gamma / 2, var)


def corollary61_bounds_10pc_hs(n, B, alpha):
    """A planted fault: the HS and trace bounds 10% larger than printed."""
    return {k: 1.1 * v for k, v in corollary61_bounds(n, B, alpha).items()}


COR61_HS = Claim(
    id="hallgren21.cor61-hs",
    source="Hallgren 2021, Sec. 6.1 ('A corollary', unnumbered): its sharper versions of Rosasco et al. (2010), "
           "Thm. 7 (||C - C_n||_HS) and Prop. 11 (|Tr C - Tr C_n|)",
    statement="||C - C_n||_HS <= B sqrt(2δ/n) and |Tr C - Tr C_n| <= B sqrt(2δ/n), each w.p. >= 1 - 2e^{-δ}, "
              "for the uncentred covariance C and its empirical C_n (the HS bound is the one-sample form of the "
              "step ||C_n - C_m||_HS <= D of Thm. 3 that thm3-coverage judges)",
    prediction="each bound's violation rate <= 1 - α = 0.1 (their proof uses ||Y_i||_HS <= B, which is false: "
               "the right constant is sqrt(2) B, hallgren21.app-a-y, so the printed bound could in principle be "
               "exceeded); ours: slope of ||C - C_n||²_HS ≈ -1 and the mean of n ||C - C_n||² at its exact "
               "expectation 1 - ||C||²_HS = 2/3",
    data=f"1-D N(0, {COR_VAR}); Gaussian kernel exp(-γ (x - y)²), the fixed γ = {COR_GAMMA} (B = 1), whose "
         f"||C||_HS and <C, C_n>_HS are closed forms; for the trace the weighted kernel ψ(x)ψ(y) exp(-γ (x - y)²), "
         f"ψ(x) = exp(-{HS_BETA} x²), whose diagonal varies (a Gaussian kernel has Tr C = Tr C_n = 1); α = "
         f"{COR_ALPHA}",
    metric="||C - C_n||_HS and |Tr C - Tr C_n|, each against B sqrt(2δ/n); n ||C - C_n||² over its expectation",
    metrics=("bound", "bound_formula", "bound_trace", "hs_err", "hs_sq", "hs_sq_ratio", "trace_err"),
    estimators={"cross": mean_sq_kernel, "diag": weighted_diagonal, "bounds": corollary61_bounds},
    experiment=cor61_hs_experiment,
    grid=PerProfile(ci=_cor_grid((100, 400, 1600, 6400), 30),
                    quick=_cor_grid((100, 400, 1600, 6400, 25600), 40),
                    full=_cor_grid((100, 400, 1600, 6400, 25600, 102400), 100)),
    judge=AllOf(SlopeInBand("hs_sq", band=HS_SQ_BAND, label="||C - C_n||²_HS (Gaussian oracle)",
                            ylabel="squared HS error", predicted=-1.0,
                            impossible=(0.0, "a squared norm below 0: <C, C_n> of another operator")),
                ProbableBound("hs_err", "bound", COR_DELTA, "||C - C_n||_HS", "B sqrt(2δ/n)", name="hs"),
                ProbableBound("trace_err", "bound_trace", COR_DELTA, "|Tr C - Tr C_n|", "B sqrt(2δ/n)",
                              name="trace"),
                MeanAtMost("hs_sq_ratio", HS_RATIO_MAX, "n ||C - C_n||² / (1 - ||C||²)", x=None),
                AllWithin(1e-12, metrics=("bound_formula",), what="relative, against the printed bounds")),
    tolerance=Tolerance(
        rule=f"slope CI of ||C - C_n||² inside {list(HS_SQ_BAND)}; each bound's violations not significantly above 1 - α (binomial "
             f"p >= 0.01); the pooled mean of n ||C - C_n||² / (1 - ||C||²) at most {HS_RATIO_MAX} (its "
             "expectation is 1); the bounds within 1e-12 of the printed statement",
        evidence="ci (30 seeds, n = 100-6400), roots 0-4: slope of ||C - C_n||² -0.978 .. -1.088 (CI ends -1.153 .. "
                 "-0.897), no violation of either bound in 120 cells per root; with 40 seeds (roots 0-4) the median "
                 "slack bound / error was 3.2-3.4 for the HS bound and 10-13 for the trace bound and the pooled mean "
                 "of n ||C - C_n||² / (1 - ||C||²) 0.915-1.008 (expectation 1; 1.25 is about 5 standard errors "
                 "above it); quick (40 seeds, n <= 25600), roots 0-4: slopes -0.984 .. -1.042 (CI ends -1.091 .. "
                 "-0.938), ratio 0.930-1.005; full (100 seeds, n <= 102400): -1.013 [-1.036, -0.991], 0/600 "
                 "violations of either bound, slack 3.38 and 10, ratio 0.958. The faults: gamma-half "
                 "makes ||C - C_n||² negative (-0.229, impossible) and the ratio -725; trace-psi 12 of 20 trace "
                 "violations (p = 6e-8); bound-off-by-10% 0.10 against 1e-12. So the printed HS bound holds with "
                 "a slack of about 3.4 in spite of the false ||Y|| <= B (sup ||Y|| = 1.155 here): the typical "
                 "||C - C_n||_HS is sqrt((1 - ||C||²)/n) = 0.816/sqrt(n) against 2.448/sqrt(n); by comparison "
                 "Thm. 3's ||C_n - C_m||_HS <= D has a realised slack of about 2.6 (0.09 against 0.233, n = 1000, "
                 "m = 100) and the whole Thm. 3 bound 77-2552 (thm3-coverage)"),
    faults=(Fault("gamma-half", "E_X k(x, X)² with exp(-||x-y||²/(2 s²)) read as γ = 1/s²: <C, C_n> of another "
                  "operator", {"cross": mean_sq_kernel_half}, keep=lambda c: c.seed < 10),
            Fault("trace-psi", "Tr C_n as the mean of ψ(x_i) where k(x_i, x_i) = ψ(x_i)²",
                  {"diag": weighted_diagonal_psi}, keep=lambda c: c.seed < 10),
            Fault("bound-off-by-10%", "both bounds 10% larger than printed (a wrong constant, which the slack "
                  "would hide)", {"bounds": corollary61_bounds_10pc_hs}, keep=lambda c: c.seed < 2)),
)


# -- hallgren21.app-a-y: sup_x ||k(x, .) (x) k(x, .) - C||_HS (App. A; false as printed) ----------

APPY_GAMMAS = (0.01, 0.1, 1.0, 10.0)
APPY_RTOL = 1e-9  # the cross-checks are closed forms against quadrature and a geometric sum
APPY_NODES = 8001  # trapezoid nodes on [-40 sd, 40 sd] (step 0.01 sd) for E_X k(x, X)^2


def app_a_experiment(cell: Cell, est) -> dict:
    """For k = exp(-gamma (x - y)^2) under N(0, var): ||Y(x)||_HS^2 = ||k(x, .) (x) k(x, .) - C||_HS^2
    = k(x, x)^2 - 2 E_X k(x, X)^2 + ||C||_HS^2 on a grid of x up to 12 sd and 3 / sqrt(gamma) from 0
    (far enough that E_X k(x, X)^2 < 1e-12 at the end), with ||C||_HS^2 = sum_j lambda_j^2 from Mehler's
    eigenvalues; App. A claims sup_x ||Y(x)|| <= B = 1, positivity gives sqrt(2) B. Cross-checks: E_X k(x, X)^2
    against the trapezoid rule, sum_j lambda_j^2 against the closed form (1 + 8 gamma var)^{-1/2}."""
    gamma, var = cell.p["gamma"], COR_VAR
    half = 12.0 * math.sqrt(var) + 3.0 / math.sqrt(gamma) + 2.0 * math.sqrt(30.0 / gamma)
    x = np.linspace(-half, half, 4001)
    lam = est["mehler"](gamma, var, 4000)
    c_sq = float(np.sum(lam**2))
    cross = est["cross"](x, gamma, var)
    y_sq = 1.0 - 2.0 * cross + c_sq
    sup = float(math.sqrt(np.max(y_sq)))
    # the trapezoid rule on a fine grid, exponentially accurate for these smooth, fast-decaying integrands
    z = np.linspace(-40.0 * math.sqrt(var), 40.0 * math.sqrt(var), APPY_NODES)
    w = np.exp(-z**2 / (2.0 * var)) * (z[1] - z[0]) / math.sqrt(2.0 * math.pi * var)
    quad = np.exp(-2.0 * gamma * (x[::40, None] - z[None, :]) ** 2) @ w
    return {"sup_over_B": sup, "over_sqrt2": sup / math.sqrt(2.0) - 1.0, "excess_over_B": sup - 1.0,
            "far_field": abs(sup**2 - (1.0 + c_sq)),
            "quadrature": float(np.max(np.abs(cross[::40] - quad))),
            "hs_C": abs(c_sq - float(gauss_moment(0.0, 2.0 * var, 2.0 * gamma)))}


def mean_kernel_squared(x, gamma: float, var: float):
    """A planted fault: (E_X k(x, X))^2 where E_X k(x, X)^2 is meant."""
    return gauss_moment(x, var, gamma) ** 2


APP_A = Claim(
    id="hallgren21.app-a-y",
    source="Hallgren 2021, App. A, proof of Theorem 3 (and of Sec. 6.1): ||z_i (x) z_i - E Z (x) Z||_HS <= B",
    statement="erratum: the paper says Y_i = z_i (x) z_i - E[Z (x) Z] has ||Y_i||_HS <= B = sup k(x, x) because both "
              "terms are positive; positivity gives only ||Y||² = k(x, x)² - 2 E k(x, X)² + ||C||²_HS <= 2 B², "
              "i.e. sqrt(2) B, which we judge; the paper's B is reported, exceeded for the Gaussian kernel at "
              "points far from the data (sup ||Y|| = (1 + ||C||²_HS)^{1/2}, 1.155 at γ = 1, var = 1)",
    prediction="sup_x ||Y(x)||_HS <= sqrt(2) B (exact); the paper's B exceeded in every cell (erratum, reported)",
    data=f"1-D N(0, {COR_VAR}); Gaussian kernel exp(-γ (x - y)²) at the fixed γ in {APPY_GAMMAS} (B = 1); a grid "
         "of 4001 points x",
    metric="sup_x ||Y(x)||_HS / B; its distance to the far-field value (1 + ||C||²)^{1/2}; E_X k(x, X)² against "
           "quadrature; ||C||²_HS from Mehler's eigenvalues against its closed form",
    metrics=("excess_over_B", "far_field", "hs_C", "over_sqrt2", "quadrature", "sup_over_B"),
    estimators={"cross": mean_sq_kernel, "mehler": mehler_eigenvalues},
    experiment=app_a_experiment,
    grid=PerProfile(*((tuple(Grid(sizes=(1,), seeds=1, params={"gamma": g}, methods=("cross",),
                                  describe=f"γ = {g}") for g in APPY_GAMMAS),) * 3)),
    judge=WithErratum(AllOf(AllWithin(0.0, metrics=("over_sqrt2",), what="(sup ||Y|| / (sqrt(2) B) - 1)"),
                            AllWithin(APPY_RTOL, metrics=("far_field", "hs_C", "quadrature"), what="absolute")),
                      "excess_over_B", 0.0, "the paper's ||Y|| <= B"),
    tolerance=Tolerance(
        rule=f"sup_x ||Y(x)|| <= sqrt(2) B; the three cross-checks within {APPY_RTOL:g} (absolute, on values <= 1)",
        evidence="deterministic (one cell per γ, identical under every root): sup_x ||Y(x)|| / B = 1.401, 1.321, "
                 "1.155, 1.054 at γ = 0.01, 0.1, 1, 10, i.e. the paper's B exceeded by up to 0.401 and sqrt(2) B "
                 "never (closest margin 0.0095 below at γ = 0.01: sqrt(2) is the limit as γ var -> 0); the three "
                 "cross-checks <= 1.9e-13. The faults: square-of-mean 0.128 against quadrature, gamma-half 0.114 "
                 "in ||C||²_HS"),
    faults=(Fault("square-of-mean", "(E_X k(x, X))² in place of E_X k(x, X)²", {"cross": mean_kernel_squared}),
            Fault("gamma-half", "Mehler's eigenvalues at γ / 2 (exp(-||x-y||²/(2 s²)) read as γ = 1/s²)",
                  {"mehler": mehler_wrong_convention})),
)


CLAIMS = [
    COR61,
    COR61_CENTRED,
    COR61_HS,
    APP_A,
]
