"""hallgren21.kpcr: Nyström kernel principal component regression."""

from __future__ import annotations

import functools

import numpy as np

from kpca_suite.kernels import Kernel
from kpca_suite.methods.kpcr import KPCR, CenteredNystromKRR

from ...claim import Cell, CellList, Claim, Fault, Grid, Outcome, PerProfile, Tolerance
from ...datasets import load_uci
from ...judging import MeanAtMost, combine
from ...plots import save_figure
from ._common import _mplt

# -- hallgren21.kpcr ------------------------------------------------------------------------

KPCR_N, KPCR_M, KPCR_D, KPCR_RIDGE, KPCR_GAMMA = 1000, 100, 90, 0.1, 1.0


KPCR_MS = (100, 200, 400, 750)  # 750 = n_train: Nyström KPCR must equal KPCR


#: The paper's Figure 5 values (seed 1): Nyström KPCR 0.74, Nyström KRR 0.72.
KPCR_TARGETS = {"nys_kpcr": 0.74, "nys_krr": 0.72}


KPCR_TOL = 0.05


KPCR_NOISE = 0.02  # allowed increase of the mean gap between consecutive m


HEAT_MS, HEAT_DS, HEAT_LOG_RIDGE = tuple(range(10, 20)), tuple(range(11, 20)), tuple(range(-5, -15, -1))


def _airfoil_split(seed):
    """airfoil's first 1000 rows, 75/25 split (random_state = seed), standardised with
    training statistics."""
    from sklearn.model_selection import train_test_split

    X, y = load_uci("airfoil", n=KPCR_N, standardize=False)
    Xtr, Xte, ytr, yte = train_test_split(X, y, random_state=seed)
    mu, sd = Xtr.mean(axis=0), Xtr.std(axis=0)
    return (Xtr - mu) / sd, (Xte - mu) / sd, ytr, yte


def kpcr_experiment(cell: Cell, est) -> dict:
    """Test R^2 on airfoil: KPCR, Nyström KPCR (m = 100, d = 90, and m up to n_train,
    with gap_m = R^2(KPCR) - R^2(Nyström KPCR)), Nyström KRR (m = 100, gamma = 0.1); the
    ``heatmap`` cell computes the Figure 4 grids instead."""
    Xtr, Xte, ytr, yte = _airfoil_split(cell.seed)
    kern = Kernel("gaussian", gamma=KPCR_GAMMA)
    rng = cell.rng("landmarks")
    kpcr, krr = est["kpcr"], est["krr"]
    if cell.method == "heatmap":  # the grids, flattened m-major: (HEAT_MS x HEAT_DS), (HEAT_MS x HEAT_LOG_RIDGE)
        kpcr_heat, krr_heat = [], []
        for m in HEAT_MS:
            for d in HEAT_DS:
                kpcr_heat.append(kpcr(min(d, m), kern, landmarks=m, random_state=rng).fit(Xtr, ytr).score(Xte, yte))
            for lg in HEAT_LOG_RIDGE:
                krr_heat.append(krr(kern, m, ridge=10.0**lg, random_state=rng).fit(Xtr, ytr).score(Xte, yte))
        return {"kpcr_heat": np.array(kpcr_heat), "krr_heat": np.array(krr_heat)}
    exact = kpcr(KPCR_D, kern).fit(Xtr, ytr).score(Xte, yte)
    out = {"kpcr": exact,
           "nys_krr": krr(kern, KPCR_M, ridge=KPCR_RIDGE, random_state=rng).fit(Xtr, ytr).score(Xte, yte)}
    for m in KPCR_MS:
        m_eff = min(m, len(Xtr))
        r2 = kpcr(KPCR_D, kern, landmarks=m_eff, random_state=rng).fit(Xtr, ytr).score(Xte, yte)
        out[f"nys_kpcr_m{m}"] = r2
        out[f"gap_m{m}"] = exact - r2
    out["nys_kpcr"] = out[f"nys_kpcr_m{KPCR_M}"]
    return out


def judge_kpcr(results, profile) -> Outcome:
    """Over the ``r2`` cells: the mean R^2 of Nyström KPCR and KRR within ±0.05 of the
    paper's 0.74 / 0.72; the mean gap to KPCR rises by at most 0.02 between consecutive m;
    the gap at m = n_train is 0 (<= 1e-8). A custom judge: the recipes have no
    "mean near a target" or "non-increasing up to noise" rule."""
    rows = [r for r in results if r.cell.method == "r2"]
    mean = {k: float(np.mean([r.metrics[k] for r in rows])) for k in ("kpcr", "nys_kpcr", "nys_krr")}
    gaps = [float(np.mean([r.metrics[f"gap_m{m}"] for r in rows])) for m in KPCR_MS]
    parts = ["holds" if abs(mean[k] - v) <= KPCR_TOL else "fails" for k, v in KPCR_TARGETS.items()]
    rises = max(np.diff(gaps))
    parts.append("holds" if rises <= KPCR_NOISE else "fails")
    last = max(abs(r.metrics[f"gap_m{KPCR_MS[-1]}"]) for r in rows)
    parts.append("holds" if last <= 1e-8 else "fails")
    summary = (f"mean R² over {len(rows)} splits: KPCR {mean['kpcr']:.3f}, Nyström KPCR {mean['nys_kpcr']:.3f} "
               f"(paper 0.74), Nyström KRR {mean['nys_krr']:.3f} (paper 0.72), ±{KPCR_TOL}; mean gap to KPCR at "
               f"m = {KPCR_MS}: {', '.join(f'{g:.3f}' for g in gaps)} (rises <= {KPCR_NOISE}; 0 at m = n_train: "
               f"{last:.1e})")
    return Outcome(combine(parts), summary, [],
                   {**{f"mean_{k}": v for k, v in mean.items()}, **{f"gap_m{m}": g for m, g in zip(KPCR_MS, gaps)}},
                   {**KPCR_TARGETS, "tol": KPCR_TOL})


def kpcr_figure(results, verdict, outdir):
    """Figure 4 (heat maps, when the heatmap cell ran) and R^2 versus m (Figure 5's
    single run at m = 100 is the first point)."""
    plt = _mplt()
    rows = [r for r in results if r.cell.method == "r2"]
    heat = [r for r in results if r.cell.method == "heatmap"]
    fig, axes = plt.subplots(1, 3 if heat else 1, figsize=(15 if heat else 5.5, 4.2), squeeze=False)
    ax = axes[0, 0]
    ms = np.array(KPCR_MS)
    Y = np.array([[r.metrics[f"nys_kpcr_m{m}"] for m in KPCR_MS] for r in rows])
    ax.plot(ms, Y.mean(axis=0), "-o", color="C1", label="Nyström KPCR (d = 90)")
    ax.axhline(np.mean([r.metrics["kpcr"] for r in rows]), color="C2", label="KPCR (d = 90)")
    ax.plot([KPCR_M], [np.mean([r.metrics["nys_krr"] for r in rows])], "s", color="C0",
            label="Nyström KRR (m = 100, γ = 0.1)")
    ax.plot([KPCR_M, KPCR_M], [0.74, 0.72], "k*", ms=9, label="paper Fig. 5 (KPCR 0.74, KRR 0.72)")
    ax.set_xscale("log")
    ax.set_xlabel("m")
    ax.set_ylabel("test R² (mean over splits)")
    ax.legend(fontsize=7)
    ax.set_title("airfoil")
    if heat:
        mt = heat[0].metrics
        for ax, key, cols, label in ((axes[0, 1], "kpcr_heat", HEAT_DS, "PCA dimension d"),
                                     (axes[0, 2], "krr_heat", HEAT_LOG_RIDGE, "log10 ridge γ")):
            Z = np.asarray(mt[key]).reshape(len(HEAT_MS), len(cols)).T  # rows: cols, columns: m
            im = ax.imshow(Z, origin="lower", aspect="auto", cmap="viridis", vmin=max(Z.min(), -0.2))
            ax.set_xticks(range(len(HEAT_MS)), HEAT_MS, fontsize=7)
            ax.set_yticks(range(len(cols)), cols, fontsize=7)
            ax.set_xlabel("m")
            ax.set_ylabel(label)
            ax.set_title("Nyström KPCR R²" if "kpcr" in key else "Nyström KRR R²")
            fig.colorbar(im, ax=ax)
    fig.suptitle(f"hallgren21.kpcr — {verdict.status}")
    fig.tight_layout()
    return save_figure(fig, outdir, "hallgren21.kpcr")


def _kpcr_cells(splits, heatmap, claim_id, options):
    """One ``r2`` cell per split seed 1..splits, and the Figure 4 grids at seed 1."""
    cells = [Cell.make(claim_id, "r2", KPCR_N, s) for s in range(1, splits + 1)]
    return cells + ([Cell.make(claim_id, "heatmap", KPCR_N, 1)] if heatmap else [])


def _kpcr_grid(splits, heatmap):
    return CellList(functools.partial(_kpcr_cells, splits, heatmap),
                    f"airfoil first {KPCR_N} rows, 75/25 splits seeds 1..{splits}, m in {KPCR_MS}"
                    + ("; Fig. 4 grids (seed 1)" if heatmap else ""))


class KPCRWithoutFactorN(KPCR):
    """beta = Lambda_d^{-1} W_d^T y~: the (n Lambda_d)^{-1} of Sec. 8 with the factor n
    lost, as the paper's displayed formula reads."""

    def fit(self, X, y):
        super().fit(X, y)
        self.coef_ = self.coef_ * np.asarray(X).shape[0]
        return self


KPCR_CLAIM = Claim(
    id="hallgren21.kpcr",
    source="Hallgren 2021, Sec. 8, Fig. 5 and Fig. 4 (left)",
    statement="airfoil regression: Nyström KPCR (m = 100, d = 90) R² = 0.74 and Nyström KRR (γ = 0.1) R² = 0.72 "
              "in the paper's single run (Fig. 5); R² improves with m (Fig. 4 left, m = 10..19 with d = 11..19, "
              "where it also improves with d, not checked; here at d = 90, m = 100..750); at m = n Nyström KPCR is "
              "KPCR (ours); β with the factor n of (n Λ_d)^{-1} that Sec. 8's display loses",
    prediction="mean R² over splits near 0.74 / 0.72; gap to KPCR non-increasing in m, 0 at m = n_train",
    data=f"UCI airfoil, first {KPCR_N} rows, 75/25 split (random_state = seed), standardised with training "
         f"statistics; Gaussian kernel with the paper's fixed σ = 1 (γ = {KPCR_GAMMA}, no bandwidth rule); "
         f"uniform subsets; d = {KPCR_D}, KRR ridge {KPCR_RIDGE}",
    metric="test R² = 1 - RSS / TSS; gap = R²(KPCR) - R²(Nyström KPCR) at m in (100, 200, 400, n_train)",
    metrics=("gap_m100", "gap_m200", "gap_m400", "gap_m750", "kpcr", "nys_kpcr", "nys_kpcr_m100", "nys_kpcr_m200",
             "nys_kpcr_m400", "nys_kpcr_m750", "nys_krr", "kpcr_heat", "krr_heat"),
    estimators={"kpcr": KPCR, "krr": CenteredNystromKRR},
    experiment=kpcr_experiment,
    grid=PerProfile(ci=_kpcr_grid(3, False), quick=_kpcr_grid(10, True), full=_kpcr_grid(30, True)),
    judge=judge_kpcr,
    tolerance=Tolerance(
        rule=f"mean R² within ±{KPCR_TOL} of 0.74 / 0.72; mean gap rises <= {KPCR_NOISE} between consecutive m; "
             f"gap at m = n_train <= 1e-8",
        evidence="observed (seeds 1-5, this code): Nyström KPCR 0.739, 0.724, 0.821, 0.737, 0.718 (mean 0.748); "
                 "KRR 0.682, 0.660, 0.738, 0.698, 0.739 (mean 0.703); the 0.02 noise allowance is for about "
                 "20 repetitions, no measurement recorded for it"),
    faults=(Fault("no-factor-n", "β = Λ_d^{-1} W_d^T y~ without the factor n of (n Λ_d)^{-1}",
                  {"kpcr": KPCRWithoutFactorN}),),
    figure=kpcr_figure,
)


# -- hallgren21.fig4-krr: Fig. 4 (right), Nyström KRR over m and the ridge ----------------------

#: the mean over splits of Spearman's correlation between m and R^2 (averaged over the ridges) is
#: at least this (evidence in the Tolerance)
FIG4_RHO_MIN = 0.5


def fig4_krr_experiment(cell: Cell, est) -> dict:
    """One 75/25 split of airfoil (seed ``cell.seed``): Nyström KRR's test R^2 on Fig. 4's grid, m = 10..19
    by ridge γ = 1e-5..1e-14, a fresh subset per (m, γ) as the paper; ``rho_m`` = Spearman's correlation of
    m with the R^2 averaged over the ridges (``neg_rho_m`` = -rho_m, the judged form), ``rho_ridge`` the
    same for log10 γ with the R^2 averaged over m (reported: the paper sees no clear pattern)."""
    from scipy.stats import spearmanr

    Xtr, Xte, ytr, yte = _airfoil_split(cell.seed)
    kern = Kernel("gaussian", gamma=KPCR_GAMMA)
    rng = cell.rng("landmarks")
    R = np.array([[est["krr"](kern, m, ridge=10.0**lg, random_state=rng).fit(Xtr, ytr).score(Xte, yte)
                   for lg in HEAT_LOG_RIDGE] for m in HEAT_MS])
    rho_m = float(spearmanr(HEAT_MS, R.mean(axis=1))[0])
    return {"rho_m": rho_m, "neg_rho_m": -rho_m, "rho_ridge": float(spearmanr(HEAT_LOG_RIDGE, R.mean(axis=0))[0]),
            "mean_r2": float(R.mean())}


class FirstLandmarksKRR(CenteredNystromKRR):
    """A planted fault: a Nyström KRR that ignores its budget beyond the first 10 landmarks."""

    def __init__(self, kernel=Kernel(), landmarks=100, **kw):
        super().__init__(kernel, min(landmarks, HEAT_MS[0]) if isinstance(landmarks, int) else landmarks, **kw)


FIG4_KRR = Claim(
    id="hallgren21.fig4-krr",
    source="Hallgren 2021, Sec. 8, Fig. 4 (right)",
    statement="Nyström KRR on airfoil (m = 10..19, ridge γ = 1e-5..1e-14, a fresh subset per cell): R² improves "
              "with m, with no clear pattern in γ (the paper's one heat map)",
    prediction=f"the mean over splits of Spearman's ρ(m, R² averaged over γ) at least {FIG4_RHO_MIN}; the one in "
               "γ reported",
    data=f"UCI airfoil, first {KPCR_N} rows, 75/25 splits (random_state = seed), standardised with training "
         f"statistics; Gaussian kernel σ = 1 (γ_kernel = {KPCR_GAMMA}); uniform subsets",
    metric="Spearman's ρ between m and the test R² averaged over the ridges, per split",
    metrics=("mean_r2", "neg_rho_m", "rho_m", "rho_ridge"),
    estimators={"krr": CenteredNystromKRR},
    experiment=fig4_krr_experiment,
    grid=PerProfile(ci=Grid(sizes=(KPCR_N,), seeds=5, methods=("krr",)),
                    quick=Grid(sizes=(KPCR_N,), seeds=20, methods=("krr",)),
                    full=Grid(sizes=(KPCR_N,), seeds=100, methods=("krr",))),
    judge=MeanAtMost("neg_rho_m", -FIG4_RHO_MIN, "-ρ(m, R²)", x=None),
    tolerance=Tolerance(f"mean ρ(m, R²) over the splits >= {FIG4_RHO_MIN}", "ci (splits 0-4): ρ(m, R²) 0.77-0.96, mean 0.896; quick stops at the interim look after "
                        "the same 5 splits (mean 0.896, its 99.8% t interval above 0.5); ρ in the ridge -0.35..0.44 "
                        "(no pattern, as the paper says); roots 0-4: mean 0.850-0.927; full stops after 25 splits at mean "
                        "0.883; the fault first-landmarks: mean ρ -0.07"),
    faults=(Fault("first-landmarks", "a Nyström KRR that keeps only 10 landmarks whatever m",
                  {"krr": FirstLandmarksKRR}),),
)


CLAIMS = [
    KPCR_CLAIM,
    FIG4_KRR,
]
