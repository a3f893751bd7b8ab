"""hallgren21: Hallgren (2021), "Kernel PCA with the Nyström method" (seeds/003;
formulas, errata and the paper-versus-code differences in reference/seed003.md).
Every ``hallgren21.*`` row of CLAIMS.md is registered here.

Where the paper and its code (nystrompca, pinned to the paper's commit) disagree,
each claim says which it follows:

* table3 follows the **code** (it produced Table 3): first 1000 rows, 25 % test split
  (``train_test_split(random_state=seed)``; the paper says "half"), training-statistics
  standardisation, subset ``default_rng(seed).choice(n_train, m)``, sigma = mean
  distance over all m^2 ordered subset pairs (diagonal included), RBF
  exp(-||x-y||^2 / sigma^2) = gamma 1 / sigma^2. With seed 1 this is the code's run.
* thm3-coverage follows the **code's** sigma = 3 for RBF and Cauchy (the paper says 1)
  and its zero-mean setting, but draws an independent subset per repetition (the
  code's workers all reuse one subset: reference pitfall 10).
* kpcr follows the **paper** for Figure 5 (m = 100, d = 90, gamma = 0.1, sigma = 1) and
  the **code** for the data (first 1000 rows, 75/25 split) and the Figure 4 grids.

Estimators and the bound are looked up as module globals at call time, so the
planted-fault tests can swap in broken ones.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from scipy.special import gammaln
from scipy.stats import binom

from kpca_suite.kernels import Kernel
from kpca_suite.methods.centered_nystrom import CenteredNystromKPCA, centred_cross, sign_flips
from kpca_suite.methods.exact import ExactKPCA
from kpca_suite.methods.kpcr import KPCR, CenteredNystromKRR
from kpca_suite.methods.landmarks import FixedLandmarks
from kpca_suite.methods.nystrom import NystromKPCA
from kpca_suite.methods.subset_pca import SubsetPCA
from kpca_suite.theory.hallgren_bounds import corollary61_bounds, hs_distance_sq, theorem3_bound, theorem3_D
from kpca_suite.theory.mehler import mehler_eigenvalues
from kpca_suite.theory.slopes import fit_loglog, octaves, verdict_from_ci

from ..analysis import cell_rng, collect, combine, fmt_ci
from ..datasets import HALLGREN_DATASETS, load_uci
from ..plots import save_figure
from ..registry import Cell, Claim, Fit, Verdict, register

PAPER = "hallgren21"
PROFILES = ("ci", "quick", "full")
SEEDS = {"ci": 3, "quick": 10, "full": 20}


def _check(profile):
    if profile not in PROFILES:
        raise ValueError(f"profile must be one of {PROFILES}, got {profile!r}")


def _mplt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt




def _rel(a, b, scale):
    return float(np.max(np.abs(np.asarray(a) - np.asarray(b))) / scale)


def _judge_exact(claim_id, results, rtol, what):
    keys = sorted(results[0].metrics)
    worst = {k: max(r.metrics[k] for r in results) for k in keys}
    bad = [k for k in keys if not worst[k] <= rtol]
    summary = (f"{what} within {rtol:g} (worst {max(worst.values()):.1e})" if not bad
               else "violated: " + ", ".join(f"{k} = {worst[k]:.2e}" for k in bad))
    return Verdict(claim_id, "fails" if bad else "holds", summary, [], worst, {"rtol": rtol})


# -- hallgren21.identities ---------------------------------------------------------------

IDENT_N = {"ci": 150, "quick": 300, "full": 600}
# Gaussian gamma = 10 on U[0,1]^3 keeps K_mm well conditioned (cond ~ 1e3 at m = 30): the
# two forms of Theorem 1 then agree to <= 2e-12 (seeds 0-4, n = 150). At gamma = 2 (cond
# ~ 1e5-7e5) the pinv(K_mm) inside T amplifies round-off and they differ by up to 5e-9
# of the score scale: that is conditioning, not a different method.
IDENT_GAMMA, IDENT_M, IDENT_K = 10.0, 30, 6
IDENTITY_RTOL = 1e-8  # CLAIMS.md


def run_identities_cell(cell: Cell) -> dict:
    """Theorem 1 identities (reference 5, items 1-5 and 8), relative deviations."""
    n, k, m = cell.n, IDENT_K, IDENT_M
    rng = cell_rng(cell)
    X = rng.uniform(size=(n, 3))
    Xt = rng.uniform(size=(40, 3))
    y = np.sin(4 * X[:, 0]) + X[:, 1] + 0.1 * rng.normal(size=n)
    kern = Kernel("gaussian", gamma=IDENT_GAMMA)
    idx = tuple(np.sort(cell_rng(cell, "landmarks").choice(n, m, replace=False)))
    lit = CenteredNystromKPCA(k, kern, landmarks=FixedLandmarks(idx), form="literal").fit(X)
    fast = CenteredNystromKPCA(k, kern, landmarks=FixedLandmarks(idx), form="fast").fit(X)
    W, lam = lit.scores_, lit.eigenvalues_
    sc = float(np.abs(W).max())
    out = {}
    # 1. m = n: centred Nyström == centred KPCA (pseudo-inverse: K'_mm has rank n - 1).
    full = CenteredNystromKPCA(k, kern, landmarks=FixedLandmarks(tuple(range(n))), form="literal").fit(X)
    ex = ExactKPCA(k, kern, center=True, solver="dense").fit(X)
    S = ex.transform(X)
    S = S * sign_flips(S)
    out["m_eq_n_eigenvalues"] = _rel(full.eigenvalues_, ex.eigenvalues_, ex.eigenvalues_[0])
    out["m_eq_n_scores"] = _rel(full.scores_, S, np.abs(S).max())
    # 2. W^T W = n Lambda.
    out["WtW"] = _rel(W.T @ W, n * np.diag(lam), n * lam[0])
    # 3. zero column means of K'_nm; K'_nm = (I - 1_n) K_nm T, K'_mm = T^T K_mm T.
    Knm = kern.block(X, X[list(idx)])
    terms = lit._terms_
    Kp_nm = centred_cross(Knm, terms)
    T = terms["T"]
    out["col_means"] = float(np.abs(Kp_nm.mean(axis=0)).max() / np.abs(Kp_nm).max())
    out["factor_nm"] = _rel(Kp_nm, (Knm - Knm.mean(axis=0)) @ T, np.abs(Kp_nm).max())
    out["factor_mm"] = _rel(terms["Kp_mm"], T.T @ Knm[list(idx)] @ T, np.abs(terms["Kp_mm"]).max())
    out["orthonormal"] = _rel(lit.coefficients_.T @ Knm[list(idx)] @ lit.coefficients_, np.eye(k), 1.0)
    # the cheaper form: same eigenvalues and (sign-fixed) scores.
    out["fast_eigenvalues"] = _rel(fast.eigenvalues_, lam, lam[0])
    out["fast_scores"] = _rel(fast.scores_, W, sc)
    # 5. the new-point formula reproduces W; both forms agree on new points.
    out["new_point_train"] = _rel(lit.transform(X), W, sc)
    out["new_point_fast_vs_literal"] = _rel(fast.transform(Xt), lit.transform(Xt), sc)
    # 8. Nyström KPCR at m = n equals standard KPCR.
    a = KPCR(k, kern).fit(X, y).predict(Xt)
    b = KPCR(k, kern, landmarks=FixedLandmarks(tuple(range(n)))).fit(X, y).predict(Xt)
    out["kpcr_m_eq_n"] = _rel(a, b, float(np.std(y)))
    return out


register(Claim(
    id="hallgren21.identities", paper=PAPER, source="Hallgren 2021, Theorem 1, Eqs. (2)-(3), Sec. 8",
    statement="centred Nyström KPCA: m = n equals centred KPCA; W^T W = n Λ; K'_nm has zero column means; "
              "the column-centred K_nm with uncentred K_mm^{-1/2} gives the same eigenvalues and scores; the "
              "new-point formula reproduces W; Nyström KPCR at m = n equals KPCR",
    prediction="exact", tolerance="relative deviation <= 1e-8; fault: centring K_mm with its own means",
    cells=lambda profile, options: [Cell.make("hallgren21.identities", "centred-nystrom", IDENT_N[profile], s)
                                    for s in range(SEEDS[profile])],
    run_cell=run_identities_cell,
    judge=lambda results, profile: _judge_exact("hallgren21.identities", results, IDENTITY_RTOL,
                                                "all Theorem 1 identities"),
    sizes={pr: f"n = {IDENT_N[pr]}, U[0,1]^3, Gaussian γ = {IDENT_GAMMA}, m = {IDENT_M}, d = {IDENT_K}, "
               f"{SEEDS[pr]} seeds" for pr in PROFILES},
))


# -- hallgren21.prop1-2 --------------------------------------------------------------------

PROP_N = {"ci": 300, "quick": 600, "full": 2000}
PROP_M = 30
PROP_RCOND = 1e-12  # K'_mm must keep full rank m for the equality at d = m
# Relative to (1/n) Tr K'. Evidence (ci cells, seeds 0-2 and quick 0-9): majorisation
# excess <= -2e-3 (strict), equality at d = m and test-point equality <= 1e-12.
PROP_ATOL = 1e-9


def run_prop_cell(cell: Cell) -> dict:
    """Proposition 1 (majorisation) and Proposition 2 (equality at d = m), in-sample and
    on held-out points (at d = m both project onto the same affine H_S)."""
    n, m = cell.n, PROP_M
    rng = cell_rng(cell)
    X, Xt = rng.normal(size=(n, 4)), rng.normal(size=(100, 4))
    kern = Kernel("gaussian", gamma=0.3)
    idx = FixedLandmarks(tuple(np.sort(cell_rng(cell, "landmarks").choice(n, m, replace=False))))
    ny = CenteredNystromKPCA(m, kern, landmarks=idx, form="literal", rcond=PROP_RCOND).fit(X)
    rank = len(SubsetPCA(1, kern, landmarks=idx, rcond=PROP_RCOND).fit(X).all_eigenvalues_)
    sp = SubsetPCA(rank, kern, landmarks=idx, rcond=PROP_RCOND).fit(X)
    tr = ny.trace_
    lt, lmn = ny.all_eigenvalues_, sp.all_eigenvalues_
    r = min(len(lt), len(lmn))
    gap = np.cumsum(lt[:r]) - np.cumsum(lmn[:r])
    wn = (ny.transform(Xt) ** 2).sum(axis=1)
    ws = (sp.transform(Xt) ** 2).sum(axis=1)
    return {
        "majorisation_excess": float(-gap[:-1].min() / tr),
        "equal_at_m": float(abs(lt.sum() - lmn.sum()) / tr),
        "equal_at_m_heldout": float(np.abs(wn - ws).max() / tr),
        "min_strict_gap": float(gap[:-1].min() / tr),
        "rank_nystrom": float(len(lt)), "rank_subset": float(len(lmn)),
    }


def _judge_prop(results, profile):
    worst = {k: max(r.metrics[k] for r in results)
             for k in ("majorisation_excess", "equal_at_m", "equal_at_m_heldout")}
    bad = [k for k, v in worst.items() if not v <= PROP_ATOL]
    strict = min(r.metrics["min_strict_gap"] for r in results)
    ranks = {(r.metrics["rank_nystrom"], r.metrics["rank_subset"]) for r in results}
    summary = (f"Nyström partial sums >= Subset PCA's for d < m (smallest margin {strict:.2e} of Tr K'/n), "
               f"equal at d = m in-sample and on held-out points (worst {max(worst.values()):.1e})" if not bad
               else "violated: " + ", ".join(f"{k} = {worst[k]:.2e}" for k in bad) + f"; ranks {sorted(ranks)}")
    return Verdict("hallgren21.prop1-2", "fails" if bad else "holds", summary, [],
                   {**worst, "min_strict_gap": strict}, {"atol": PROP_ATOL})


register(Claim(
    id="hallgren21.prop1-2", paper=PAPER, source="Hallgren 2021, Propositions 1 and 2",
    statement="Nyström variances majorise Subset-PCA variances (λ~_{<=d} >= λ^{m,n}_{<=d}), with equality at "
              "d = m, where both give the same subspace (also for held-out points)",
    prediction="exact", tolerance="excess <= 1e-9 of Tr K'/n; fault: Subset PCA centring K_mm with its own means",
    cells=lambda profile, options: [Cell.make("hallgren21.prop1-2", "subset-vs-nystrom", PROP_N[profile], s)
                                    for s in range(SEEDS[profile])],
    run_cell=run_prop_cell, judge=_judge_prop,
    sizes={pr: f"n = {PROP_N[pr]}, N(0, I_4), Gaussian γ = 0.3, m = {PROP_M}, {SEEDS[pr]} seeds" for pr in PROFILES},
))


# -- hallgren21.table3 ---------------------------------------------------------------------

#: The paper's Table 3 (Subset, Nyström, KPCA columns), d = 1..10 (reference 4.1).
PAPER_TABLE3 = {
    "magic": ([.2116, .3459, .4089, .4752, .5292, .5584, .5897, .6126, .6300, .6459],
              [.2268, .3593, .4246, .4912, .5506, .5875, .6230, .6467, .6699, .6891],
              [.2274, .3610, .4269, .4923, .5539, .5933, .6291, .6540, .6781, .6982]),
    "yeast": ([.1264, .2336, .3197, .4391, .4804, .5238, .5559, .5718, .6022, .6346],
              [.1387, .2600, .3756, .4521, .4998, .5435, .5771, .6102, .6439, .6736],
              [.1396, .2614, .3777, .4550, .5037, .5474, .5839, .6169, .6509, .6828]),
    "cardiotocography": ([.1329, .2183, .2833, .3374, .3766, .4043, .4342, .4594, .4791, .5056],
                         [.1351, .2284, .3012, .3556, .3983, .4346, .4672, .5001, .5217, .5467],
                         [.1357, .2306, .3043, .3594, .4029, .4399, .4738, .5061, .5312, .5571]),
    "segmentation": ([.2563, .3871, .4988, .5494, .6017, .6434, .6785, .6967, .7147, .7314],
                     [.2620, .3952, .5040, .5556, .6039, .6535, .6886, .7102, .7295, .7469],
                     [.2621, .3955, .5044, .5565, .6048, .6543, .6921, .7139, .7332, .7513]),
    "drug": ([.1342, .1688, .2010, .2261, .2446, .2773, .2970, .3162, .3330, .3483],
             [.1398, .1791, .2219, .2464, .2734, .3006, .3217, .3487, .3648, .3807],
             [.1425, .1837, .2284, .2538, .2827, .3105, .3338, .3631, .3805, .3977]),
    "digits": ([.0715, .1459, .2072, .2530, .2960, .3220, .3502, .3730, .3984, .4113],
               [.0734, .1542, .2163, .2684, .3093, .3403, .3718, .3976, .4203, .4425],
               [.0749, .1572, .2210, .2754, .3183, .3509, .3847, .4122, .4371, .4624]),
    "dailykos": ([.0879, .0917, .0918, .0918, .0918, .0918, .0918, .0918, .0919, .0921],
                 [.0856, .0915, .0915, .0915, .0915, .0915, .0915, .0915, .0916, .0916],
                 [.0843, .0914, .0926, .0932, .0935, .0939, .0939, .0940, .0940, .0940]),
    "nips": ([.1035, .1036, .1037, .1037, .1038, .1040, .1040, .1040, .1041, .1041],
             [.0479, .0480, .0482, .0482, .0482, .0483, .0483, .0483, .0484, .0484],
             [.0435, .0439, .0443, .0445, .0446, .0447, .0448, .0449, .0451, .0451]),
}
TABLE_D, TABLE_N, TABLE_M, TABLE_SEED = 10, 1000, 100, 1
TABLE_SETS = {"ci": ("yeast", "segmentation"), "quick": HALLGREN_DATASETS, "full": HALLGREN_DATASETS}
# CLAIMS.md / reference 5: every row of the paper's Table 3 has |Nyström - KPCA| <= 0.0199.
TABLE_CLOSE = 0.025
# In-sample order KPCA >= Nyström >= Subset, relative to the training Tr K'/n; the
# inequalities are exact (Prop. 1 and optimality), this is round-off room (observed
# worst excess -1e-4, i.e. strict, on the ci and quick data sets).
TABLE_ATOL = 1e-9


def mean_distance_gamma(S) -> float:
    """The code's bandwidth: sigma = sum over all m^2 ordered pairs of ||s_i - s_j|| / m^2
    (diagonal included), returned as gamma = 1 / sigma^2."""
    sq = np.maximum((S**2).sum(1)[:, None] + (S**2).sum(1)[None, :] - 2 * S @ S.T, 0.0)
    sigma = np.sqrt(sq).sum() / S.shape[0] ** 2
    return 1.0 / sigma**2


def _test_total(kern, Xt):
    """(1/n_t) Tr K'_test, the test kernel centred with the test mean."""
    K = kern.block(Xt)
    return float(np.trace(K) / len(Xt) - K.mean())


def run_table3_cell(cell: Cell) -> dict:
    """Cumulative held-out variance fractions of Subset PCA, Nyström and KPCA (the
    code's metric: Var_test of the scores for Nyström and KPCA, the second moment about
    the training mean for Subset PCA, both over (1/n_t) Tr K'_test), and the in-sample
    fractions (training Tr K'/n)."""
    from sklearn.model_selection import train_test_split

    p, d = cell.p, TABLE_D
    X, _ = load_uci(p["data"], n=TABLE_N, standardize=False)
    Xtr, Xte = train_test_split(X, test_size=0.25, random_state=cell.seed)
    mu, sd = Xtr.mean(axis=0), Xtr.std(axis=0)
    sd[sd == 0] = 1.0
    Xtr, Xte = (Xtr - mu) / sd, (Xte - mu) / sd
    idx = np.sort(np.random.default_rng(cell.seed).choice(len(Xtr), TABLE_M, replace=False))
    kern = Kernel("gaussian", gamma=mean_distance_gamma(Xtr[idx]))
    lm = FixedLandmarks(tuple(idx))
    ny = CenteredNystromKPCA(d, kern, landmarks=lm).fit(Xtr)
    sp = SubsetPCA(d, kern, landmarks=lm).fit(Xtr)
    ex = ExactKPCA(d, kern, center=True, solver="dense").fit(Xtr)
    tot = _test_total(kern, Xte)
    out = {"gamma": kern.gamma}
    curves = {"nys": np.cumsum(ny.transform(Xte).var(axis=0)) / tot,
              "kpca": np.cumsum(ex.transform(Xte).var(axis=0)) / tot,
              "sub": np.cumsum((sp.transform(Xte) ** 2).mean(axis=0)) / tot,
              "ins_nys": np.cumsum(ny.eigenvalues_) / ny.trace_,
              "ins_kpca": np.cumsum(ex.eigenvalues_) / ex.trace_,
              "ins_sub": np.cumsum(sp.eigenvalues_) / sp.trace_}
    for name, c in curves.items():
        out.update({f"{name}{j + 1}": float(c[j]) for j in range(d)})
    return out


def _curve(metrics, name):
    return np.array([metrics[f"{name}{j}"] for j in range(1, TABLE_D + 1)])


def _judge_table3(results, profile):
    order, close, paper_diff = -np.inf, 0.0, 0.0
    for r in results:
        mt = r.metrics
        order = max(order, float(np.max(_curve(mt, "ins_nys") - _curve(mt, "ins_kpca"))),
                    float(np.max(_curve(mt, "ins_sub") - _curve(mt, "ins_nys"))))
        close = max(close, float(np.max(np.abs(_curve(mt, "nys") - _curve(mt, "kpca")))))
        ref = PAPER_TABLE3.get(r.cell.p["data"])
        if ref is not None:
            paper_diff = max(paper_diff, *(float(np.max(np.abs(_curve(mt, k) - np.array(v))))
                                           for k, v in zip(("sub", "nys", "kpca"), ref)))
    parts = ["holds" if order <= TABLE_ATOL else "fails", "holds" if close <= TABLE_CLOSE else "fails"]
    summary = (f"in-sample KPCA >= Nyström >= Subset (worst excess {order:+.1e}, <= {TABLE_ATOL:g}); "
               f"held-out max |Nyström - KPCA| = {close:.4f} (<= {TABLE_CLOSE}); "
               f"max |ours - paper's Table 3| = {paper_diff:.4f} over {len(results)} data set(s) (reported)")
    return Verdict("hallgren21.table3", combine(parts), summary, [],
                   {"insample_order_excess": order, "max_nys_kpca_gap": close, "max_diff_to_paper": paper_diff},
                   {"order_atol": TABLE_ATOL, "close": TABLE_CLOSE})


def table3_text(results) -> str:
    """Our Table 3 beside the paper's: per data set and d, ours / paper / difference."""
    lines = ["data set          d   Subset: ours  paper   diff | Nyström: ours  paper   diff | "
             "KPCA: ours  paper   diff"]
    for r in sorted(results, key=lambda r: HALLGREN_DATASETS.index(r.cell.p["data"])):
        name = r.cell.p["data"]
        ref = PAPER_TABLE3[name]
        for j in range(TABLE_D):
            cells = []
            for k, v in zip(("sub", "nys", "kpca"), ref):
                ours = r.metrics[f"{k}{j + 1}"]
                cells.append(f"{ours:.4f} {v[j]:.4f} {ours - v[j]:+.4f}")
            lines.append(f"{name:<16} {j + 1:>2}   " + " | ".join(f"{c:>21}" for c in cells))
    return "\n".join(lines)


def _table3_figure(results, verdict, outdir):
    plt = _mplt()
    rows = sorted(results, key=lambda r: HALLGREN_DATASETS.index(r.cell.p["data"]))
    text = table3_text(rows)
    print("hallgren21.table3: our Table 3 beside the paper's (ours, paper, difference)\n" + text)
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    (outdir / "hallgren21.table3.txt").write_text(text + "\n")
    ncol = min(4, len(rows))
    nrow = math.ceil(len(rows) / ncol)
    fig, axes = plt.subplots(nrow, ncol, figsize=(3.6 * ncol, 3.0 * nrow), squeeze=False)
    d = np.arange(1, TABLE_D + 1)
    for ax, r in zip(axes.ravel(), rows):
        name = r.cell.p["data"]
        for (k, label), ref, col in zip((("sub", "Subset PCA"), ("nys", "Nyström"), ("kpca", "KPCA")),
                                        PAPER_TABLE3[name], ("C0", "C1", "C2")):
            ax.plot(d, _curve(r.metrics, k), "-o", ms=3, color=col, label=f"{label} (ours)")
            ax.plot(d, ref, ":", color=col, label=f"{label} (paper)")
        ax.set_title(name, fontsize=9)
        ax.set_xlabel("d", fontsize=8)
        ax.set_ylabel("cum. held-out variance", fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in axes.ravel()[len(rows):]:
        ax.axis("off")
    axes[0, 0].legend(fontsize=6)
    fig.suptitle(f"hallgren21.table3 — {verdict.status}")
    fig.tight_layout()
    return save_figure(fig, outdir, "hallgren21.table3")


register(Claim(
    id="hallgren21.table3", paper=PAPER, source="Hallgren 2021, Sec. 7.1, Table 3",
    statement="cumulative held-out variance captured, d = 1..10: Nyström very close to full KPCA; in-sample "
              "KPCA >= Nyström >= Subset PCA (Prop. 1 and optimality); our table printed beside the paper's",
    prediction="in-sample order exact; |Nyström - KPCA| <= 0.025 held-out",
    tolerance="order excess <= 1e-9 of Tr K'/n; gap <= 0.025 (paper's own rows <= 0.0199); "
              "fault: an uncentred Nyström reported as centred",
    cells=lambda profile, options: [Cell.make("hallgren21.table3", "subset-nystrom-kpca", TABLE_N, TABLE_SEED,
                                              data=name) for name in TABLE_SETS[profile]],
    run_cell=run_table3_cell, judge=_judge_table3, figure=_table3_figure,
    sizes={pr: f"{', '.join(TABLE_SETS[pr])}; first {TABLE_N} rows, 25% test, m = {TABLE_M}, seed {TABLE_SEED} "
               f"(the code's protocol)" for pr in PROFILES},
))


# -- hallgren21.thm3-coverage -----------------------------------------------------------------

BOUND_N = {"ci": 300, "quick": 1000, "full": 1000}
BOUND_R = {"ci": 25, "quick": 200, "full": 500}  # ci: fewer subsets for the CI time budget
BOUND_SETS = {"ci": ("yeast",), "quick": ("magic", "yeast", "cardiotocography", "segmentation"),
              "full": ("magic", "yeast", "cardiotocography", "segmentation")}
BOUND_M, BOUND_D, BOUND_ALPHA = 100, 10, 0.9
#: Table 2 kernels with the code's sigma = 3 (gamma = 1/9); polynomial R = 1, degree 2,
#: normalised by Eq. (5): B = 1 for all three.
BOUND_KERNELS = {"rbf": Kernel("gaussian", gamma=1 / 9), "cauchy": Kernel("cauchy", gamma=1 / 9),
                 "poly": Kernel("polynomial", gamma=1.0, coef0=1.0, degree=2, normalize=True)}


def _coverage_floor(R, alpha=BOUND_ALPHA):
    """alpha - 3 sqrt(alpha (1 - alpha) / R) (reference 5: 0.836 at R = 200)."""
    return alpha - 3 * math.sqrt(alpha * (1 - alpha) / R)


def gram_eigenvalues(K) -> np.ndarray:
    """lambda^n_j = eig(K / n), descending: the eigenvalues of C_n (reference pitfall 3)."""
    return np.linalg.eigvalsh(K / K.shape[0])[::-1]


def run_bound_cell(cell: Cell) -> dict:
    """R independent uniform subsets of one (data set, kernel): the zero-mean
    differences R_n(V~_d) - R_n(V^_d) = lam^n_{<=d} - lam~_{<=d} (Nyström) and
    lam^n_{<=d} - lam^{m,n}_{<=d} (Subset), the paper's and the conservative bound,
    and ||C_n - C_m||_HS against D."""
    p = cell.p
    X, _ = load_uci(p["data"], n=cell.n)
    kern = BOUND_KERNELS[p["kernel"]]
    n, m, d = cell.n, BOUND_M, BOUND_D
    K = kern.block(X)
    lam_n = gram_eigenvalues(K)
    top = np.cumsum(lam_n[:d])
    sum_K2 = float((K**2).sum())
    D = theorem3_D(n, m, 1.0, BOUND_ALPHA)
    rng = cell_rng(cell, "subsets")
    ny_d, sub_d, b_d, c_d = (np.zeros((p["R"], d)) for _ in range(4))
    hs = np.zeros(p["R"])
    for r in range(p["R"]):
        idx = np.sort(rng.choice(n, m, replace=False))
        lm = FixedLandmarks(tuple(idx))
        ny = NystromKPCA(d, kern, landmarks=lm).fit(X)
        sp = SubsetPCA(d, kern, landmarks=lm, center=False).fit(X)
        Kmm = K[np.ix_(idx, idx)]
        ny_d[r] = top - np.cumsum(ny.eigenvalues_)
        sub_d[r] = top - np.cumsum(sp.eigenvalues_)
        b_d[r] = theorem3_bound(Kmm, n, d, 1.0, BOUND_ALPHA, "paper")
        c_d[r] = theorem3_bound(Kmm, n, d, 1.0, BOUND_ALPHA, "conservative")
        hs[r] = math.sqrt(hs_distance_sq(sum_K2, float((K[:, idx] ** 2).sum()), float((Kmm**2).sum()), n, m))
    out = {"R": float(p["R"]), "D": D,
           "coverage_paper": float(np.mean((ny_d <= b_d).all(axis=1))),
           "coverage_conservative": float(np.mean((ny_d <= c_d).all(axis=1))),
           "coverage_hs": float(np.mean(hs <= D)), "max_hs": float(hs.max()),
           # A Nyström difference of exactly 0 (a kernel of rank < m) gives infinite slack.
           "slack_d10": float(np.median(np.divide(b_d[:, -1], ny_d[:, -1], out=np.full(len(b_d), np.inf),
                                                  where=ny_d[:, -1] > 0))),
           "max_subset_below_nystrom": float(np.max(ny_d - sub_d))}
    for name, arr in (("bound", b_d), ("cons", c_d), ("nys", ny_d), ("sub", sub_d)):
        out.update({f"{name}{j + 1}": float(arr[:, j].mean()) for j in range(d)})
    return out


def _judge_bound(results, profile):
    parts, worst = [], {}
    for key in ("coverage_paper", "coverage_conservative", "coverage_hs"):
        lows = [(r.metrics[key], r.metrics["R"]) for r in results]
        cov = min(c for c, _ in lows)
        floor = min(_coverage_floor(R) for _, R in lows)
        worst[key] = cov
        parts.append("holds" if cov >= floor else "fails")
    floor = min(_coverage_floor(r.metrics["R"]) for r in results)
    slack = float(np.median([r.metrics["slack_d10"] for r in results]))
    order = max(r.metrics["max_subset_below_nystrom"] for r in results)
    parts.append("holds" if order <= 1e-9 else "fails")
    summary = (f"lowest coverage over {len(results)} (data set, kernel) cells: paper {worst['coverage_paper']:.3f}, "
               f"conservative {worst['coverage_conservative']:.3f}, ||C_n - C_m||_HS <= D "
               f"{worst['coverage_hs']:.3f} (floor {floor:.3f} = α - 3 SE); median slack bound/diff at d = 10: "
               f"{slack:.1f}; Subset diff >= Nyström diff (worst {order:+.1e})")
    return Verdict("hallgren21.thm3-coverage", combine(parts), summary, [],
                   {**worst, "median_slack_d10": slack, "max_hs": max(r.metrics["max_hs"] for r in results)},
                   {"coverage_at_least": floor, "alpha": BOUND_ALPHA})


def _bound_figure(results, verdict, outdir):
    """Figures 1-3: mean bound, Nyström difference and Subset difference vs d, one
    panel per (data set, kernel), with the coverage rate."""
    plt = _mplt()
    sets = sorted({r.cell.p["data"] for r in results}, key=HALLGREN_DATASETS.index)
    kernels = [k for k in BOUND_KERNELS if any(r.cell.p["kernel"] == k for r in results)]
    fig, axes = plt.subplots(len(kernels), len(sets), figsize=(3.4 * len(sets), 2.9 * len(kernels)),
                             squeeze=False)
    d = np.arange(1, BOUND_D + 1)
    for r in results:
        ax = axes[kernels.index(r.cell.p["kernel"]), sets.index(r.cell.p["data"])]
        mt = r.metrics
        for key, label, style in (("bound", "Conf. bound (paper)", "k-"), ("cons", "conservative", "k--"),
                                  ("nys", "Nyström diff.", "C1-o"), ("sub", "Subset diff.", "C0-s")):
            ax.plot(d, [mt[f"{key}{j}"] for j in d], style, ms=3, label=label)
        ax.set_yscale("log")
        ax.set_title(f"{r.cell.p['data']}, {r.cell.p['kernel']}: coverage {mt['coverage_paper']:.2f}", fontsize=8)
        ax.set_xlabel("d", fontsize=8)
        ax.tick_params(labelsize=7)
    axes[0, 0].legend(fontsize=6)
    fig.suptitle(f"hallgren21.thm3-coverage — {verdict.status} (means over subsets, zero-mean setting)")
    fig.tight_layout()
    return save_figure(fig, outdir, "hallgren21.thm3-coverage")


register(Claim(
    id="hallgren21.thm3-coverage", paper=PAPER, source="Hallgren 2021, Theorem 3, Sec. 7.2, Figs. 1-3",
    statement="R_n(V~_d) - R_n(V^_d) <= Σ λ^m_j D_j + D max_k D_k with confidence 1 - 2e^{-δ} (paper), and "
              "the conservative variant; RBF, Cauchy and normalised polynomial kernels",
    prediction="coverage >= α = 0.9 over independent subsets; slack reported",
    tolerance="coverage >= α - 3 sqrt(α(1-α)/R) (0.836 at R = 200); fault: eig(K) instead of eig(K/n) in the "
              "measured difference (reference pitfall 3)",
    cells=lambda profile, options: [
        Cell.make("hallgren21.thm3-coverage", "uniform", BOUND_N[profile], 0, data=name, kernel=kname,
                  R=BOUND_R[profile])
        for name in BOUND_SETS[profile] for kname in BOUND_KERNELS],
    run_cell=run_bound_cell, judge=_judge_bound, figure=_bound_figure,
    sizes={pr: f"{', '.join(BOUND_SETS[pr])} (first {BOUND_N[pr]} rows), m = {BOUND_M}, d <= {BOUND_D}, "
               f"{BOUND_R[pr]} subsets per (data set, kernel), α = {BOUND_ALPHA}" for pr in PROFILES},
))


# -- hallgren21.cor61 ---------------------------------------------------------------------

COR_NS = {"ci": (100, 200, 400, 800, 1600, 3200), "quick": (100, 200, 400, 800, 1600, 3200, 6400),
          "full": (100, 200, 400, 800, 1600, 3200, 6400, 12800, 25600)}
COR_SEEDS = {"ci": 10, "quick": 30, "full": 100}
COR_GAMMA, COR_VAR, COR_ALPHA, COR_J = 1.0, 1.0, 0.9, 40
# Slope band of sup_j |lambda_j - lambda^n_j| vs n: the CLT rate -1/2 +- 0.15. Evidence
# (ci grid, seeds 0-9): slope -0.50 [-0.55, -0.45]; quick (30 seeds): -0.49 [-0.52, -0.46].
COR_BAND = (-0.65, -0.35)


def gaussian_gram_eigenvalues_1d(x, gamma: float, count: int) -> np.ndarray:
    """The top ``count`` eigenvalues of K / n for k(x, y) = exp(-gamma (x - y)^2), 1-D,
    without forming K: exp(-gamma (x-y)^2) = sum_k phi_k(x) phi_k(y) with
    phi_k(x) = e^{-gamma x^2} (2 gamma)^{k/2} x^k / sqrt(k!), so K = Phi Phi^T and its
    nonzero eigenvalues are those of Phi^T Phi (O(n J^2)). Each row of Phi has squared
    norm sum_k Poisson(2 gamma x^2; k) <= 1; J = 2 gamma max x^2 + 10 sqrt(.) + 40 terms
    leave a Poisson tail below 1e-16."""
    x = np.asarray(x, dtype=float)
    lam_max = 2 * gamma * float(np.max(x**2))
    J = int(math.ceil(lam_max + 10 * math.sqrt(lam_max) + 40))
    k = np.arange(J)
    with np.errstate(divide="ignore"):
        logabs = (-gamma * x[:, None] ** 2 + 0.5 * k * math.log(2 * gamma) + k * np.log(np.abs(x))[:, None]
                  - 0.5 * gammaln(k + 1))
    Phi = np.where(k == 0, 1.0, np.sign(x)[:, None] ** k) * np.exp(logabs)
    Phi[:, 0] = np.exp(-gamma * x**2)
    s = np.linalg.svd(Phi / math.sqrt(len(x)), compute_uv=False)
    lam = np.zeros(count)
    lam[:min(count, s.size)] = (s**2)[:count]
    return lam


def run_cor61_cell(cell: Cell) -> dict:
    """sup_j |lambda_j - lambda^n_j| (j < J) on the Mehler oracle against B sqrt(2 delta / n)."""
    x = cell_rng(cell).normal(0.0, math.sqrt(COR_VAR), cell.n)
    lam_hat = gaussian_gram_eigenvalues_1d(x, COR_GAMMA, COR_J)
    lam = mehler_eigenvalues(COR_GAMMA, COR_VAR, COR_J)
    b = corollary61_bounds(cell.n, 1.0, COR_ALPHA)
    err = np.abs(lam - lam_hat)
    return {"sup_err": float(err.max()), "sum_sq_err": float((err**2).sum()), "bound": b["sup_eig"],
            "covered": float(err.max() <= b["sup_eig"]), "covered_sq": float((err**2).sum() <= b["sum_sq_eig"])}


def _judge_cor61(results, profile):
    x, Y = collect(results, "sup_err")
    _, Yb = collect(results, "bound")
    fit = fit_loglog(x, Y)
    cov = np.array([r.metrics["covered"] for r in results])
    cov_sq = np.array([r.metrics["covered_sq"] for r in results])
    level = 1 - BOUND_ALPHA  # allowed violation rate 2 e^{-delta} = 1 - alpha
    p_sup = float(binom.sf(int((1 - cov).sum()) - 1, len(cov), level)) if (cov < 1).any() else 1.0
    p_sq = float(binom.sf(int((1 - cov_sq).sum()) - 1, len(cov), level)) if (cov_sq < 1).any() else 1.0
    parts = [verdict_from_ci(fit.ci, COR_BAND), "holds" if min(p_sup, p_sq) >= 0.01 else "fails"]
    slack = float(np.median(np.nanmean(Yb, axis=1) / np.nanmean(Y, axis=1)))
    summary = (f"sup_j |λ_j - λ^n_j| slope {fmt_ci(fit)} in [{COR_BAND[0]}, {COR_BAND[1]}] over {octaves(x):.0f} "
               f"octaves; coverage of B sqrt(2δ/n) {cov.mean():.3f} and of 2B²δ/n {cov_sq.mean():.3f} "
               f"(binomial p {min(p_sup, p_sq):.3g}); median slack {slack:.1f}")
    fits = [Fit("sup_j |λ_j - λ^n_j| (Mehler oracle)", x, Y, fit.slope, fit.ci, fit.intercept, predicted=-0.5,
                band=COR_BAND, reference=np.nanmean(Yb, axis=1), ylabel="eigenvalue error")]
    return Verdict("hallgren21.cor61", combine(parts), summary, fits,
                   {"slope": fit.slope, "ci_low": fit.ci[0], "ci_high": fit.ci[1], "coverage": float(cov.mean()),
                    "coverage_sq": float(cov_sq.mean()), "median_slack": slack},
                   {"slope": -0.5, "band": list(COR_BAND), "coverage_at_least": BOUND_ALPHA})


register(Claim(
    id="hallgren21.cor61", paper=PAPER, source="Hallgren 2021, Corollary 6.1 (Sec. 6.1)",
    statement="sup_j |λ_j - λ^n_j| <= B sqrt(2δ/n) and Σ_j (λ_j - λ^n_j)^2 <= 2B²δ/n w.p. >= 1 - 2e^{-δ}",
    prediction="violation rate <= 1 - α = 0.1; slope of the sup error ≈ -1/2",
    tolerance=f"binomial p >= 0.01; slope CI inside {list(COR_BAND)}; fault: oracle with the wrong bandwidth "
              "convention",
    cells=lambda profile, options: [Cell.make("hallgren21.cor61", "mehler", n, s, gamma=COR_GAMMA, var=COR_VAR)
                                    for n in COR_NS[profile] for s in range(COR_SEEDS[profile])],
    run_cell=run_cor61_cell, judge=_judge_cor61,
    sizes={pr: f"1-D N(0, {COR_VAR}), Gaussian γ = {COR_GAMMA}, n = {COR_NS[pr][0]}..{COR_NS[pr][-1]}, "
               f"{COR_SEEDS[pr]} seeds, top {COR_J} eigenvalues" for pr in PROFILES},
))


# -- hallgren21.kpcr ------------------------------------------------------------------------

KPCR_N, KPCR_M, KPCR_D, KPCR_RIDGE, KPCR_GAMMA = 1000, 100, 90, 0.1, 1.0
KPCR_MS = (100, 200, 400, 750)  # 750 = n_train: Nyström KPCR must equal KPCR
KPCR_SEEDS = {"ci": 3, "quick": 10, "full": 30}
# Paper's Fig. 5 values (seed 1): Nyström KPCR 0.74, Nyström KRR 0.72; +- 0.05 as CLAIMS.md.
# Observed (seeds 1-5, this code): Nyström KPCR 0.739, 0.724, 0.821, 0.737, 0.718 (mean 0.748);
# KRR 0.682, 0.660, 0.738, 0.698, 0.739 (mean 0.703).
KPCR_TARGETS = {"nys_kpcr": 0.74, "nys_krr": 0.72}
KPCR_TOL = 0.05
KPCR_NOISE = 0.02  # allowed increase of the mean gap between consecutive m (reference 5)
HEAT_MS, HEAT_DS, HEAT_LOG_RIDGE = tuple(range(10, 20)), tuple(range(11, 20)), tuple(range(-5, -15, -1))


def _airfoil_split(seed):
    from sklearn.model_selection import train_test_split

    X, y = load_uci("airfoil", n=KPCR_N, standardize=False)
    Xtr, Xte, ytr, yte = train_test_split(X, y, random_state=seed)
    mu, sd = Xtr.mean(axis=0), Xtr.std(axis=0)
    return (Xtr - mu) / sd, (Xte - mu) / sd, ytr, yte


def run_kpcr_cell(cell: Cell) -> dict:
    """R^2 on airfoil (25 % test): KPCR, Nyström KPCR (m = 100, d = 90, and m up to
    n_train), Nyström KRR (m = 100, gamma = 0.1); the ``heatmap`` method computes the
    Figure 4 grids instead."""
    Xtr, Xte, ytr, yte = _airfoil_split(cell.seed)
    kern = Kernel("gaussian", gamma=KPCR_GAMMA)
    rng = cell_rng(cell, "landmarks")
    if cell.method == "heatmap":
        out = {}
        for m in HEAT_MS:
            for d in HEAT_DS:
                out[f"kpcr_m{m}_d{d}"] = KPCR(min(d, m), kern, landmarks=m, random_state=rng).fit(Xtr, ytr).score(Xte, yte)
            for lg in HEAT_LOG_RIDGE:
                out[f"krr_m{m}_g{lg}"] = CenteredNystromKRR(kern, m, ridge=10.0**lg, random_state=rng).fit(Xtr, ytr).score(Xte, yte)
        return out
    exact = KPCR(KPCR_D, kern).fit(Xtr, ytr).score(Xte, yte)
    out = {"kpcr": exact,
           "nys_krr": CenteredNystromKRR(kern, KPCR_M, ridge=KPCR_RIDGE, random_state=rng).fit(Xtr, ytr).score(Xte, yte)}
    for m in KPCR_MS:
        m_eff = min(m, len(Xtr))
        r2 = KPCR(KPCR_D, kern, landmarks=m_eff, random_state=rng).fit(Xtr, ytr).score(Xte, yte)
        out[f"nys_kpcr_m{m}"] = r2
        out[f"gap_m{m}"] = exact - r2
    out["nys_kpcr"] = out[f"nys_kpcr_m{KPCR_M}"]
    return out


def _judge_kpcr(results, profile):
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
    return Verdict("hallgren21.kpcr", combine(parts), summary, [],
                   {**{f"mean_{k}": v for k, v in mean.items()}, **{f"gap_m{m}": g for m, g in zip(KPCR_MS, gaps)}},
                   {**KPCR_TARGETS, "tol": KPCR_TOL})


def _kpcr_figure(results, verdict, outdir):
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
        for ax, key, cols, label in ((axes[0, 1], "kpcr_m{m}_d{c}", HEAT_DS, "PCA dimension d"),
                                     (axes[0, 2], "krr_m{m}_g{c}", HEAT_LOG_RIDGE, "log10 ridge γ")):
            Z = np.array([[mt[key.format(m=m, c=c)] for m in HEAT_MS] for c in cols])
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


register(Claim(
    id="hallgren21.kpcr", paper=PAPER, source="Hallgren 2021, Sec. 8, Figs. 4-5",
    statement="airfoil regression: Nyström KPCR (m = 100, d = 90) R² ≈ 0.74, Nyström KRR ≈ 0.72; Nyström KPCR "
              "-> KPCR as m grows (equal at m = n)",
    prediction="R² near 0.74 / 0.72; gap to KPCR non-increasing in m, 0 at m = n_train",
    tolerance=f"mean R² within ±{KPCR_TOL}; gap rises <= {KPCR_NOISE}; fault: (Λ_d)^{{-1}} without the factor n",
    cells=lambda profile, options: (
        [Cell.make("hallgren21.kpcr", "r2", KPCR_N, s) for s in range(1, KPCR_SEEDS[profile] + 1)]
        + ([Cell.make("hallgren21.kpcr", "heatmap", KPCR_N, 1)] if profile != "ci" else [])),
    run_cell=run_kpcr_cell, judge=_judge_kpcr, figure=_kpcr_figure,
    sizes={pr: f"airfoil first {KPCR_N} rows, 75/25 splits seeds 1..{KPCR_SEEDS[pr]}, σ = 1, m in {KPCR_MS}"
               + ("" if pr == "ci" else "; Fig. 4 grids (seed 1)") for pr in PROFILES},
))
