"""hallgren21.table3-baselines: Table 3's input-space columns (Linear PCA, Sparse PCA, LLE, ICA).

Sec. 7.1: "For datasets with a small number of dimensions standard linear PCA captures the
most amount of variance". Each column is the released code's cumulative held-out fraction at
d = 1..10 on the table's split (hallgren21.table3's ``_split``):

* Linear PCA: sum_{j<=d} Var_test(x^T v_j) / sum_k Var_test(x_k), v_j the top-d principal
  directions of the training rows (orthonormal);
* Sparse PCA (only where p <= 25, as the code): Var_test of the d-component SparsePCA scores
  summed, over the same total; refit for each d;
* LLE and ICA: the d-component embedding's summed Var_test over that of the embedding with
  min(n - 1, p) components (the code's own normalisation, so 1 at d = p).

The sentence is judged on the six low-dimensional sets against the other input-space
columns: max_d [max(Sparse, LLE, ICA)(d) - Linear(d)] <= BASELINE_SLACK. Sparse PCA's
components are not orthogonal, so its summed variance may pass linear PCA's held out (the
printed table has it above on yeast at d = 6-8, by up to 0.0103): the sentence holds within
a slack, not exactly. The kernel columns are measured in the RKHS and are not compared (the
paper says the comparison is not clear-cut; its yeast KPCA column is above Linear PCA at
d = 1-4).
"""

from __future__ import annotations

import functools
import warnings

import numpy as np

from ...claim import Cell, CellList, Claim, Fault, PerProfile, Tolerance
from ...judging import AllOf, AllWithin
from ._common import _reported
from .table3 import PAPER_LINEAR, TABLE_D, TABLE_N, TABLE_SEED, _split

#: The paper's Sparse PCA, LLE and ICA columns of Table 3 (None where it printed "-").
PAPER_BASELINES = {
    "magic": ([.5056, .6090, .7080, .7342, .7841, .8407, .8647, .9008, .9603, .9803],
              [.1050, .2223, .3035, .3805, .5017, .5966, .7055, .7884, .9048, 1.0],
              [.0937, .1798, .2630, .3488, .3488, .5535, .6962, .6962, .6962, 1.0]),
    "yeast": ([.1181, .2080, .2648, .4051, .4958, .5972, .6546, .7098, .7505, .7972],
              [.0339, .0784, .1323, .1848, .2299, .3271, .3867, .4344, .4720, .5252],
              [.0431, .0911, .1223, .1977, .2598, .3149, .3655, .4145, .4569, .5056]),
    "cardiotocography": (None,
                         [.0509, .0795, .0928, .1241, .1449, .1763, .2149, .2468, .2682, .3122],
                         [.0260, .0521, .0765, .1019, .1264, .1539, .1790, .2051, .2296, .2576]),
    "segmentation": ([.3044, .5468, .6165, .6539, .6971, .7649, .7969, .8190, .8558, .9127],
                     [.0222, .0580, .1555, .1885, .2690, .3116, .3733, .4278, .4412, .5149],
                     [.0387, .1223, .1573, .1934, .2429, .3109, .3676, .4284, .4739, .6188]),
    "drug": (None,
             [.0376, .0602, .1104, .1226, .1559, .1944, .2362, .3044, .3405, .3771],
             [.0278, .0573, .0874, .1149, .1418, .1699, .1905, .2276, .2530, .2766]),
    "digits": (None,
               [.0190, .0310, .0516, .0730, .0876, .1208, .1479, .1590, .2006, .2258],
               [.0148, .0289, .0442, .0595, .0772, .0914, .1067, .1221, .1373, .1534]),
}

#: The sets with a small number of dimensions (p = 10-61 after the code's preprocessing);
#: dailykos and nips (6906 and 12419 words) are the others.
LOW_DIM_SETS = tuple(PAPER_BASELINES)

BASELINE_COLUMNS = ("lin", "sparse", "lle", "ica")

#: The code runs SparsePCA only where p <= 25 (magic, yeast, segmentation here).
SPARSE_MAX_P = 25

# Slack of "linear PCA captures the most" (evidence in the claim's Tolerance).
BASELINE_SLACK = 0.03

# In-sample Linear fraction against the Ky Fan optimum: both O(1) sums of p <= 61
# eigenvalues of a well-conditioned standardised covariance, so round-off is ~1e-15;
# 1e-9 is round-off room (evidence in the claim's Tolerance).
KYFAN_TOL = 1e-9


def linear_pca(n_components):
    """scikit-learn's PCA (exact SVD), the code's Linear PCA."""
    from sklearn.decomposition import PCA

    return PCA(n_components, svd_solver="full")


def sparse_column(Xtr, Xte, d, seed, max_iter):
    """The code's Sparse PCA column: SparsePCA(k) refit for k = 1..d, summed Var_test of its
    scores over the total test variance."""
    from sklearn.decomposition import SparsePCA

    tot = Xte.var(axis=0).sum()
    return np.array([SparsePCA(k, max_iter=max_iter, random_state=seed).fit(Xtr).transform(Xte).var(axis=0).sum()
                     for k in range(1, d + 1)]) / tot


def lle_column(Xtr, Xte, d, seed):
    """The code's LLE column, d = 1..d, over the embedding of min(n - 1, p) components. With
    the dense eigensolver the k-component embedding is the first k columns of the largest one
    (the bottom eigenvectors of the same matrix; transform is linear in them), so one fit
    gives every d where the code refits with ARPACK for each."""
    from sklearn.manifold import LocallyLinearEmbedding

    top = min(len(Xtr) - 1, Xtr.shape[1])
    v = LocallyLinearEmbedding(n_components=top, eigen_solver="dense", random_state=seed).fit(Xtr).transform(Xte)
    v = v.var(axis=0)
    return np.cumsum(v)[:d] / v.sum()


def ica_column(Xtr, Xte, d, seed, max_iter):
    """The code's ICA column: FastICA(k, tol = 1e-2) refit for k = 1..d, summed Var_test over
    that of the min(n - 1, p)-component fit."""
    from sklearn.decomposition import FastICA

    def var(k):
        return FastICA(k, tol=1e-2, max_iter=max_iter, random_state=seed).fit(Xtr).transform(Xte).var(axis=0).sum()

    return np.array([var(k) for k in range(1, d + 1)]) / var(min(len(Xtr) - 1, Xtr.shape[1]))


def baselines_experiment(cell: Cell, est) -> dict:
    """The four input-space columns of Table 3 at d = 1..10 on the table's split (first
    ``cell.n`` rows, 75/25 with the paper's seed 1, standardised with training statistics),
    with SparsePCA and FastICA capped at ``cell.p["iters"]`` iterations and the baselines
    seeded from the cell's "baselines" stream (the paper ran them unseeded: a root redraws
    them), and:

    * ``max_excess`` = max_d [max(Sparse, LLE, ICA) - Linear] (<= 0 when linear PCA leads);
    * ``kyfan_gap`` = max_d |in-sample Linear fraction - sum_{j<=d} λ_j / Tr Σ|, λ_j the
      eigenvalues of the training covariance Σ: linear PCA attains the Ky Fan maximum of the
      captured variance over all orthonormal d-frames, which is why it leads (0 up to
      round-off for a correct PCA);
    * ``diff_to_paper`` = max over the columns and d of |ours - the printed Table 3|.
    """
    Xtr, Xte, _, _ = _split(cell)
    d, seed = TABLE_D, cell.seed_int("baselines")
    sparse_iter, ica_iter = cell.p["iters"]
    pca = est["linear"](d).fit(Xtr)
    cols = {"lin": np.cumsum(pca.transform(Xte).var(axis=0)) / Xte.var(axis=0).sum()}
    ins = np.cumsum(pca.transform(Xtr).var(axis=0)) / Xtr.var(axis=0).sum()
    lam = np.linalg.eigvalsh(np.cov(Xtr, rowvar=False, bias=True))[::-1]
    kyfan = np.cumsum(lam)[:d] / lam.sum()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # FastICA's convergence warnings under the iteration cap
        cols["sparse"] = (sparse_column(Xtr, Xte, d, seed, sparse_iter) if Xtr.shape[1] <= SPARSE_MAX_P
                          else np.full(d, -np.inf))
        cols["lle"] = lle_column(Xtr, Xte, d, seed)
        cols["ica"] = ica_column(Xtr, Xte, d, seed, ica_iter)
    others = np.max([cols["sparse"], cols["lle"], cols["ica"]], axis=0)
    printed = [PAPER_LINEAR[cell.p["data"]], *PAPER_BASELINES[cell.p["data"]]]
    diff = [np.abs(cols[k] - np.array(v)) for k, v in zip(BASELINE_COLUMNS, printed) if v is not None]
    return {**{k: np.where(np.isfinite(v), v, np.nan) for k, v in cols.items()},
            "max_excess": float(np.max(others - cols["lin"])), "diff_to_paper": float(np.max(diff)),
            "kyfan_gap": float(np.max(np.abs(ins - kyfan)))}


def report_baselines(results, profile):
    """Reported, never judged: per set the largest excess over linear PCA and the largest
    |ours - printed| over the four columns."""
    parts = [f"{r.cell.p['data']}: excess {r.metrics['max_excess']:+.4f}, to the paper {r.metrics['diff_to_paper']:.4f}"
             for r in results]
    return _reported("per set (reported): " + "; ".join(parts),
                     {"max_diff_to_paper": max(r.metrics["diff_to_paper"] for r in results)})


def baselines_text(results) -> str:
    """Our four columns beside the printed ones: per set and d, ours / paper."""
    lines = ["data set          d   " + " | ".join(f"{k}: ours  paper" for k in BASELINE_COLUMNS)]
    for r in results:
        name = r.cell.p["data"]
        printed = [PAPER_LINEAR[name], *PAPER_BASELINES[name]]
        for j in range(TABLE_D):
            cells = [f"{r.metrics[k][j]:.4f} " + ("     -" if v is None else f"{v[j]:.4f}")
                     for k, v in zip(BASELINE_COLUMNS, printed)]
            lines.append(f"{name:<16} {j + 1:>2}   " + " | ".join(cells))
    return "\n".join(lines)


def baselines_figure(results, verdict, outdir):
    """The side-by-side table as hallgren21.table3-baselines.txt."""
    from pathlib import Path

    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "hallgren21.table3-baselines.txt"
    path.write_text(baselines_text(results) + "\n")
    return [path]


def _baseline_cells(sets, n, iters, claim_id, options):
    return [Cell.make(claim_id, "input-space", n, TABLE_SEED, data=name, iters=iters) for name in sets]


def _baseline_grid(sets, n, iters):
    return CellList(functools.partial(_baseline_cells, sets, n, iters),
                    f"{', '.join(sets)}; first {n} rows, 25% test, seed {TABLE_SEED}; SparsePCA / FastICA at most "
                    f"{iters[0]} / {iters[1]} iterations")


class AscendingPCA:
    """Linear PCA from ``np.linalg.eigh`` of the covariance, taking its first d eigenvectors
    as the leading ones (eigh returns them in ascending order): the least-variance
    directions."""

    def __init__(self, n_components):
        self.n_components = n_components

    def fit(self, X):
        self.mean_ = X.mean(axis=0)
        _, V = np.linalg.eigh(np.cov(X - self.mean_, rowvar=False))
        self.components_ = V[:, :self.n_components].T
        return self

    def transform(self, X):
        return (X - self.mean_) @ self.components_.T


class LoadingsPCA(AscendingPCA):
    """Linear PCA whose columns are the loadings v_j sqrt(λ_j), not the orthonormal v_j:
    the scores' variances become λ_j^2."""

    def fit(self, X):
        self.mean_ = X.mean(axis=0)
        lam, V = np.linalg.eigh(np.cov(X - self.mean_, rowvar=False))
        top = np.argsort(lam)[::-1][:self.n_components]
        self.components_ = (V[:, top] * np.sqrt(lam[top])).T
        return self


TABLE3_BASELINES = Claim(
    id="hallgren21.table3-baselines",
    source="Hallgren 2021, Sec. 7.1 and Table 3 (Linear PCA, Sparse PCA, LLE, ICA columns)",
    statement="on the data sets with a small number of dimensions linear PCA captures the most held-out variance "
              "of the input-space methods (Sparse PCA, LLE, ICA), d = 1..10, being the in-sample optimum over "
              "orthonormal d-frames (Ky Fan); the paper's columns beside ours. Restricted to the input-space methods "
              "(ours): the paper's sentence covers every column, but the kernel methods' variance is measured in the "
              "RKHS, which Sec. 7.1 itself calls not clear-cut to compare (printed yeast, d = 1-4: KPCA above Linear)",
    prediction=f"in-sample Linear fraction = Ky Fan sum within {KYFAN_TOL:g}; held out, "
               f"max_d [max(Sparse, LLE, ICA) - Linear] <= {BASELINE_SLACK} on each set (the printed table itself "
               "has Sparse PCA above Linear PCA by up to 0.0103, yeast d = 6-8); the distance to the printed "
               "columns reported, not judged (the paper ran the baselines unseeded). Ours differs from the paper: "
               "baselines seeded from the cell's stream (a root redraws them), LLE by one dense fit for all d (the "
               "code refits with ARPACK for each d); at ci the first 400 rows of yeast and SparsePCA capped at 5 "
               "iterations so the cell takes a few seconds; at quick SparsePCA capped at 20",
    data=f"the six low-dimensional sets of Table 1 (dailykos and nips excluded: not low-dimensional), first "
         f"{TABLE_N} rows (ci: yeast, 400), 75/25 split (random_state = {TABLE_SEED}), standardised with training "
         "statistics, as hallgren21.table3",
    metric="the released code's cumulative held-out variance fraction per column (module docstring); max_excess = "
           "max_d [max of the other three columns - Linear PCA]",
    metrics=("diff_to_paper", "ica", "kyfan_gap", "lin", "lle", "max_excess", "sparse"),
    estimators={"linear": linear_pca},
    experiment=baselines_experiment,
    grid=PerProfile(ci=_baseline_grid(("yeast",), 400, (5, 200)),
                    quick=_baseline_grid(LOW_DIM_SETS, TABLE_N, (20, 200)),
                    full=_baseline_grid(LOW_DIM_SETS, TABLE_N, (1000, 5000))),
    judge=AllOf(AllWithin(BASELINE_SLACK, metrics=("max_excess",), what="of the total test variance"),
                AllWithin(KYFAN_TOL, metrics=("kyfan_gap",), what="of Tr Σ (in-sample Ky Fan optimum)"),
                report_baselines),
    tolerance=Tolerance(
        rule=f"max_d [max(Sparse, LLE, ICA) - Linear] <= {BASELINE_SLACK} on every set",
        evidence="root 0 (the split is the paper's seed 1; roots 0-4 redraw the baselines' seeds and change no "
                 "judged value: SparsePCA starts from an SVD, LLE's dense solver is deterministic and ICA, the only "
                 "seeded column, stays >= 0.10 below linear PCA): worst correct max_excess +0.0152 at ci (yeast, 400 "
                 "rows, SparsePCA d = 7), +0.0127 at quick (magic, d = 2-3, SparsePCA at 20 iterations), +0.0144 "
                 "at full (yeast d = 9; magic +0.0133), always SparsePCA, whose components are not orthogonal; the "
                 "printed table's own worst is +0.0103 (yeast, d = 6). 0.03 leaves x2 above the worst correct "
                 "value. Best fault: ascending-pca +0.573 at ci, +0.134 on its mildest set at quick (digits; "
                 "+0.86 segmentation), x4.5 over the slack. Ky Fan gap: correct 1.4e-15 (ci) / 1.3e-15 (quick, "
                 "full), so 1e-9 is round-off room (x7e5); loadings 0.57 (ci) and >= 0.18 per set at quick, "
                 "ascending-pca 0.59 (ci)"),
    faults=(Fault("ascending-pca", "linear PCA on eigh's first d eigenvectors (ascending order): the least-variance "
                  "directions", {"linear": AscendingPCA}),
            Fault("loadings", "linear PCA projecting on the loadings v_j sqrt(λ_j) (columns not orthonormal) instead "
                  "of the unit directions", {"linear": LoadingsPCA})),
    figure=baselines_figure,
)


CLAIMS = [TABLE3_BASELINES]
