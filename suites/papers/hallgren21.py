"""hallgren21: Hallgren (2021), "Kernel PCA with the Nyström method": centred
Nyström KPCA (Theorem 1), its comparison with Subset PCA (Propositions 1 and 2),
the held-out variance of Table 3, the confidence bound of Theorem 3, the
eigenvalue bounds of Corollary 6.1, and Nyström kernel principal component
regression (Section 8).

Where the paper and its code (the author's ``nystrompca`` package at commit
3361539, whose bound matches the paper's) disagree, each claim says which it
follows (see ``PAPER.errata``):

* table3 follows the **code** (it produced Table 3): first 1000 rows, 25 % test split
  (``train_test_split(random_state=seed)``; the paper says "half"), training-statistics
  standardisation, subset ``default_rng(seed).choice(n_train, m)``, sigma = mean
  distance over all m^2 ordered subset pairs (diagonal included), RBF
  exp(-||x-y||^2 / sigma^2) = gamma 1 / sigma^2. With seed 1 this is the code's run.
* thm3-coverage follows the **code's** sigma = 3 for RBF and Cauchy (the paper says 1)
  and its zero-mean setting, but draws an independent subset per repetition (the
  code's parallel workers all reuse one subset).
* kpcr follows the **paper** for Figure 5 (m = 100, d = 90, gamma = 0.1, sigma = 1) and
  the **code** for the data (first 1000 rows, 75/25 split) and the Figure 4 grids.

Every part a planted fault replaces is an entry of the claim's ``estimators``;
the broken variants are in :mod:`._hallgren21_faults`.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import numpy as np
from scipy.special import gammaln

from kpca_suite.kernels import Kernel, mean_distance_gamma
from kpca_suite.methods.centered_nystrom import CenteredNystromKPCA, centred_cross, sign_flips
from kpca_suite.methods.exact import ExactKPCA
from kpca_suite.methods.kpcr import KPCR, CenteredNystromKRR
from kpca_suite.methods.landmarks import FixedLandmarks
from kpca_suite.methods.nystrom import NystromKPCA
from kpca_suite.methods.subset_pca import SubsetPCA
from kpca_suite.theory.hallgren_bounds import (corollary61_bounds, hs_distance_sq, hs_distance_sq_mean,
                                              subset_difference_bound, theorem3_bound, theorem3_D)
from kpca_suite.theory.mehler import mehler_eigenvalues

from . import _hallgren21_faults as faults
from ..claim import Cell, CellList, Claim, Fault, Grid, Outcome, Paper, PerProfile, Tolerance
from ..datasets import HALLGREN_DATASETS, load_uci
from ..judging import AllOf, AllWithin, CoverageAtLeast, SlopeInBand, combine
from ..plots import number, save_figure

PAPER = Paper(
    key="hallgren21",
    citation="F. Hallgren (2021), 'Kernel PCA with the Nyström method', technical report, "
             "University College London (code: the nystrompca package, commit 3361539).",
    errata="""\
- **Averaging matrices.** In Theorem 1, 1_nm and 1_mn hold entries 1/n (not 1/m); "1_n" is
  the n x n averaging matrix in some formulas and the length-n vector of 1/n in the
  new-point formula.
- **Centring with the full-data means.** K'_nm = K_nm - 1 c^T - a 1^T + s and
  K'_mm = K_mm - 1 c^T - c 1^T + s use the column means c of the full K_nm and
  s = c^T K_mm^{-1} c. Double-centring K_mm with its own means is wrong (the planted
  fault of the identities and Proposition 2 claims).
- **A singular K'_mm.** At m = n, K'_mm has rank n - 1 and it is ill-conditioned
  otherwise: every inverse is an eigenvalue-thresholded pseudo-inverse (cut-off 1e-12
  as in the paper; the code uses 1e-9 in its inverses), negative eigenvalues dropped.
- **Three eigenvalue scalings.** The Nyström principal values come from an m x m matrix
  already divided by n, so Nyström KPCR needs beta = (n Lambda_d)^{-1} U_d^T K'_mn y~: the
  displayed formula of Sec. 8 loses the factor n (the code keeps it). Standard KPCR uses
  the eigenvalues of the unscaled K'. The eigenvalues of C_n are eig(K / n). The bound
  uses the eigenvalues of the uncentred K_mm / m.
- **The bound lives in the zero-mean setting.** Theorem 3 bounds the uncentred
  difference lambda^n_{<=d} - lambda~_{<=d}; comparing it with centred errors is
  inconsistent. alpha = 1 - 2 e^{-delta}, so delta = ln(2 / (1 - alpha)); D_j uses the
  one-sided gap lambda^m_j - lambda^m_{j+1} (a tie gives D_j = 1), the max over k <= d
  is a running max, and the bound exists only for d <= m - 1.
- **Gaps in the proof of Theorem 3.** ||z (x) z - E Z (x) Z||_HS <= B is false in general
  (positivity gives only sqrt(2) B); bounding the random ||C_m - E C|| by B times its
  expectation is not a high-probability step; Lidskii's inequality in the HS norm needs
  a factor sqrt(d); Davis-Kahan needs the two-sided gap and a factor 2; the i.i.d. split
  needs a subset drawn independently of the data (uniform), not "any" distribution. We
  therefore also check a conservative variant that repairs these (theory.hallgren_bounds).
  Corollary 6.1 rests on the same false ||.|| <= B step.
- **RBF convention.** exp(-||x-y||^2 / sigma^2), i.e. gamma = 1 / sigma^2 (no factor 2).
- **Paper versus code.** The code takes the first n rows of every data set (not a random
  sample), its digits are scikit-learn's 1797 rows (not the 5620-point UCI set), its
  methods split is 25 % test (the paper says half), its bound experiment uses sigma = 3
  (the paper says 1) and, with a fixed seed, all its parallel "samples" draw the same
  subset; its regression command cuts airfoil to 1000 rows. Figure 5's ridge reads
  "107!" in the text; it is gamma = 0.1. Later commits changed the bound and the
  bandwidth rule (mean to median distance); we follow the paper's commit 3361539.
- **Nyström KRR baseline.** It uses the uncentred K with a demeaned y, and its gamma
  absorbs the factor n of Rudi et al.'s lambda n: do not compare the two directly.
- **Signs.** Scores are unique up to sign; the code flips column j when
  (min_i W_ij + max_i W_ij) / 2 < 0, and we do the same before comparing.
""",
)


def _mplt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _rel(a, b, scale):
    """max |a - b| / scale."""
    return float(np.max(np.abs(np.asarray(a) - np.asarray(b))) / scale)


def _reported(summary, measured):
    """A part of a judge that reports numbers and never decides: status ``holds``."""
    return Outcome("holds", summary, [], measured, {})


# -- hallgren21.identities ---------------------------------------------------------------

# Gaussian gamma = 10 on U[0,1]^3 keeps K_mm well conditioned (cond ~ 1e3 at m = 30): the
# two forms of Theorem 1 then agree to <= 2e-12 (seeds 0-4, n = 150). At gamma = 2 (cond
# ~ 1e5-7e5) the pinv(K_mm) inside T amplifies round-off and they differ by up to 5e-9
# of the score scale: that is conditioning, not a different method.
IDENT_GAMMA, IDENT_M, IDENT_K = 10.0, 30, 6
IDENTITY_RTOL = 1e-8


def identities_experiment(cell: Cell, est) -> dict:
    """Theorem 1 identities as relative deviations (0 when exact), n = ``cell.n`` points of
    U[0,1]^3, a uniform subset of m = 30, d = 6:

    1. m = n: centred Nyström == centred KPCA (eigenvalues and sign-fixed scores);
    2. W^T W = n Lambda (Eq. (3));
    3. K'_nm has zero column means; K'_nm = (I - 1_n) K_nm T and K'_mm = T^T K_mm T with
       T = I - K_mm^{-1} c 1^T; U^T K_mm U = I; the cheaper form (column-centred K_nm with
       the uncentred K_mm^{-1/2}) gives the same eigenvalues and scores;
    4. the new-point formula reproduces W, and both forms agree on new points;
    5. Nyström KPCR at m = n equals standard KPCR (Sec. 8).
    """
    centred, n, k, m = est["centred-nystrom"], cell.n, IDENT_K, IDENT_M
    rng = cell.rng()
    X = rng.uniform(size=(n, 3))
    Xt = rng.uniform(size=(40, 3))
    y = np.sin(4 * X[:, 0]) + X[:, 1] + 0.1 * rng.normal(size=n)
    kern = Kernel("gaussian", gamma=IDENT_GAMMA)
    idx = tuple(np.sort(cell.rng("landmarks").choice(n, m, replace=False)))
    lit = centred(k, kern, landmarks=FixedLandmarks(idx), form="literal").fit(X)
    fast = centred(k, kern, landmarks=FixedLandmarks(idx), form="fast").fit(X)
    W, lam = lit.scores_, lit.eigenvalues_
    sc = float(np.abs(W).max())
    out = {}
    # 1. m = n: centred Nyström == centred KPCA (pseudo-inverse: K'_mm has rank n - 1).
    full = centred(k, kern, landmarks=FixedLandmarks(tuple(range(n))), form="literal").fit(X)
    ex = est["exact"](k, kern, center=True, solver="dense").fit(X)
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
    # 4. the new-point formula reproduces W; both forms agree on new points.
    out["new_point_train"] = _rel(lit.transform(X), W, sc)
    out["new_point_fast_vs_literal"] = _rel(fast.transform(Xt), lit.transform(Xt), sc)
    # 5. Nyström KPCR at m = n equals standard KPCR.
    kpcr = est["kpcr"]
    a = kpcr(k, kern).fit(X, y).predict(Xt)
    b = kpcr(k, kern, landmarks=FixedLandmarks(tuple(range(n)))).fit(X, y).predict(Xt)
    out["kpcr_m_eq_n"] = _rel(a, b, float(np.std(y)))
    return out


def _ident_grid(n, seeds):
    return Grid(sizes=(n,), seeds=seeds, methods=("centred-nystrom",))


IDENTITIES = Claim(
    id="hallgren21.identities",
    source="Hallgren 2021, Theorem 1, Eqs. (2)-(3), Sec. 8",
    statement="centred Nyström KPCA: m = n equals centred KPCA; W^T W = n Λ; K'_nm has zero column means; "
              "the column-centred K_nm with uncentred K_mm^{-1/2} gives the same eigenvalues and scores; the "
              "new-point formula reproduces W; Nyström KPCR at m = n equals KPCR",
    prediction="exact (round-off only)",
    data=f"n points of U[0,1]^3 (40 more as new points, y = sin(4 x_1) + x_2 + 0.1 N(0, 1)); Gaussian kernel "
         f"with the fixed γ = {IDENT_GAMMA} (no bandwidth rule); a uniform subset of m = {IDENT_M}, "
         f"d = {IDENT_K}",
    metric="relative deviation of each identity (max |difference| over the score, eigenvalue or target scale)",
    estimators={"centred-nystrom": CenteredNystromKPCA, "exact": ExactKPCA, "kpcr": KPCR},
    experiment=identities_experiment,
    grid=PerProfile(ci=_ident_grid(150, 3), quick=_ident_grid(300, 10), full=_ident_grid(600, 20)),
    judge=AllWithin(IDENTITY_RTOL, what="relative"),
    tolerance=Tolerance(
        rule=f"every identity within {IDENTITY_RTOL:g} relative",
        evidence="the two forms of Theorem 1 agree to <= 2e-12 at γ = 10 (seeds 0-4, n = 150); at γ = 2 "
                 "(cond K_mm ~ 1e5-7e5) they differ by up to 5e-9, which is why γ = 10"),
    faults=(Fault("own-means", "K'_mm centred with the subset's own means instead of the full-data c, s",
                  {"centred-nystrom": faults.OwnMeansCenteredNystrom}),),
)


# -- hallgren21.prop1-2 --------------------------------------------------------------------

PROP_M, PROP_GAMMA = 30, 0.3
PROP_RCOND = 1e-12  # K'_mm must keep full rank m for the equality at d = m
PROP_ATOL = 1e-9


def prop_experiment(cell: Cell, est) -> dict:
    """Proposition 1 (majorisation, lambda~_{<=d} >= lambda^{m,n}_{<=d} for d < m) and
    Proposition 2 (equality at d = m), in-sample and on 100 held-out points (at d = m
    both project onto the same affine H_S); all relative to (1/n) Tr K'."""
    n, m = cell.n, PROP_M
    rng = cell.rng()
    X, Xt = rng.normal(size=(n, 4)), rng.normal(size=(100, 4))
    kern = Kernel("gaussian", gamma=PROP_GAMMA)
    idx = FixedLandmarks(tuple(np.sort(cell.rng("landmarks").choice(n, m, replace=False))))
    subset = est["subset"]
    ny = est["nystrom"](m, kern, landmarks=idx, form="literal", rcond=PROP_RCOND).fit(X)
    rank = len(subset(1, kern, landmarks=idx, rcond=PROP_RCOND).fit(X).all_eigenvalues_)
    sp = subset(rank, kern, landmarks=idx, rcond=PROP_RCOND).fit(X)
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


def _prop_grid(n, seeds):
    return Grid(sizes=(n,), seeds=seeds, methods=("subset-vs-nystrom",))


PROP = Claim(
    id="hallgren21.prop1-2",
    source="Hallgren 2021, Propositions 1 and 2",
    statement="Nyström variances majorise Subset-PCA variances (λ~_{<=d} >= λ^{m,n}_{<=d}), with equality at "
              "d = m, where both give the same subspace (also for held-out points)",
    prediction="exact inequality; equality at d = m",
    data=f"n points of N(0, I_4) (100 more held out); Gaussian kernel with the fixed γ = {PROP_GAMMA} (no "
         f"bandwidth rule); a uniform subset of m = {PROP_M} shared by both methods",
    metric="majorisation excess max_d (λ^{m,n}_{<=d} - λ~_{<=d}) for d < m, and |difference| at d = m in-sample "
           "and of the held-out squared score norms, all over Tr K'/n",
    estimators={"nystrom": CenteredNystromKPCA, "subset": SubsetPCA},
    experiment=prop_experiment,
    grid=PerProfile(ci=_prop_grid(300, 3), quick=_prop_grid(600, 10), full=_prop_grid(2000, 20)),
    judge=AllWithin(PROP_ATOL, metrics=("majorisation_excess", "equal_at_m", "equal_at_m_heldout"),
                    what="of Tr K'/n"),
    tolerance=Tolerance(
        rule=f"excess and equality deviations <= {PROP_ATOL:g} of Tr K'/n",
        evidence="ci cells (seeds 0-2) and quick (seeds 0-9): majorisation excess <= -2e-3 (strict), equality "
                 "at d = m and test-point equality <= 1e-12"),
    faults=(Fault("own-means", "Subset PCA with K'_mm centred by its own means (rank m - 1)",
                  {"subset": faults.OwnMeansSubsetPCA}),),
)


# -- hallgren21.table3 ---------------------------------------------------------------------

#: The paper's Table 3 (Subset, Nyström, KPCA columns), d = 1..10.
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
#: The paper's Linear PCA column of Table 3 (held-out variance of linear PCA over the total
#: input variance). It depends on the rows and the split only, so it tells whether a
#: difference in the kernel columns comes from the data or from the kernel methods.
PAPER_LINEAR = {
    "magic": [.5126, .6257, .7155, .7929, .8635, .9250, .9633, .9816, .9978, 1.0],
    "yeast": [.1214, .2177, .2773, .4057, .5052, .5869, .6484, .7057, .7520, .7988],
    "cardiotocography": [.2223, .3564, .4577, .5258, .5782, .6259, .6636, .7013, .7342, .7687],
    "segmentation": [.3107, .5541, .6369, .6787, .7274, .7930, .8427, .8816, .9087, .9665],
    "drug": [.2316, .3031, .3594, .4059, .4462, .4846, .5094, .5515, .5791, .6045],
    "digits": [.1261, .2261, .3156, .3914, .4526, .4946, .5353, .5693, .6018, .6321],
    "dailykos": [.0079, .0096, .0109, .0119, .0126, .0131, .0135, .0140, .0143, .0147],
    "nips": [.0011, .0024, .0034, .0037, .0039, .0042, .0045, .0049, .0051, .0054],
}
TABLE_COLUMNS = ("sub", "nys", "kpca")
TABLE_D, TABLE_N, TABLE_M, TABLE_SEED = 10, 1000, 100, 1
# Every row of the paper's Table 3 has |Nyström - KPCA| <= 0.0199 (digits, d = 10).
TABLE_CLOSE = 0.025
# In-sample order KPCA >= Nyström >= Subset, relative to the training Tr K'/n; the
# inequalities are exact (Prop. 1 and optimality), this is round-off room (observed
# worst excess -1e-4, i.e. strict, on the ci and quick data sets).
TABLE_ATOL = 1e-9
# Agreement with the paper's released code (nystrompca's methods experiment, its own
# Python kernel loops) on the same rows, split, subset and bandwidth: observed
# max |ours - code| over the three columns and d = 1..10, seed 1, every data set:
# 1.8e-12 magic, 6.8e-12 yeast, 6.0e-13 cardiotocography, 3.4e-12 segmentation,
# 2.6e-14 drug, 3.2e-15 digits, 8.3e-15 dailykos, 7.2e-14 nips (round-off of the
# Gram expansion of the distances); 1e-6 leaves six orders of room and is far below
# any difference a changed method makes (the uncentred fault moves columns by > 0.01).
TABLE_CODE_TOL = 1e-6
# A printed value farther than this from the released code's output is reported
# with its reason (the paper's own |Nyström - KPCA| gaps are up to 0.0199).
TABLE_PAPER_CLOSE = 0.025
# The printed Linear PCA column within this of the released code's on the same split
# says the rows and the split agree (observed 0.0004 drug, 0.006 magic at seed 1).
TABLE_LINEAR_SAME = 0.01


def _test_total(kern, Xt):
    """(1/n_t) Tr K'_test, the test kernel centred with the test mean."""
    K = kern.block(Xt)
    return float(np.trace(K) / len(Xt) - K.mean())


def _curve(metrics, name):
    """The d = 1..10 values of one curve from a cell's metrics."""
    return np.array([metrics[f"{name}{j}"] for j in range(1, TABLE_D + 1)])


def released_code_table3(Xtr, Xte, m: int, d: int, seed: int) -> dict:
    """The paper's released code on standardised training and test rows: the Subset PCA,
    Nyström and KPCA columns of nystrompca's methods experiment (its ``run_nystrom_kpca``
    and ``run_kernel_pca``, RBF kernel, subset of ``m`` drawn with ``seed``) and its Linear
    PCA column (``run_linear_pca``), each the cumulative held-out variance fraction for
    d = 1..``d``."""
    import warnings

    from nystrompca.experiments import methods_experiments as code

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the package's own deprecation noise
        sub, nys, _, sigma = code.run_nystrom_kpca(Xtr, Xte, "rbf", m, d, seed)
        kpca, _ = code.run_kernel_pca(Xtr, Xte, "rbf", d, sigma)
        lin = code.run_linear_pca(Xtr, Xte, d)
    return {"sub": np.asarray(sub), "nys": np.asarray(nys), "kpca": np.asarray(kpca), "lin": np.asarray(lin)}


def table3_experiment(cell: Cell, est) -> dict:
    """Cumulative held-out variance fractions of Subset PCA, Nyström and KPCA (the
    code's metric: Var_test of the scores for Nyström and KPCA, the second moment about
    the training mean for Subset PCA, both over (1/n_t) Tr K'_test), the in-sample
    fractions (training Tr K'/n), and from them:

    * ``insample_order_excess`` = max_d max(ins_nys - ins_kpca, ins_sub - ins_nys) (<= 0 when
      KPCA >= Nyström >= Subset in-sample);
    * ``max_nys_kpca_gap`` = max_d |nys - kpca| held out;
    * ``diff_to_paper`` = max_d over the three columns of |ours - the paper's Table 3|;
    * ``lin_diff_to_paper`` = max_d |the released code's Linear PCA column - the paper's|;
    * ``diff_to_code`` (cells with ``code``) = max_d over the three columns of
      |ours - the released code's| (estimator ``code``, :func:`released_code_table3`).
    """
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
    ny = est["nystrom"](d, kern, landmarks=lm).fit(Xtr)
    sp = est["subset"](d, kern, landmarks=lm).fit(Xtr)
    ex = est["kpca"](d, kern, center=True, solver="dense").fit(Xtr)
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
    out["insample_order_excess"] = max(float(np.max(_curve(out, "ins_nys") - _curve(out, "ins_kpca"))),
                                       float(np.max(_curve(out, "ins_sub") - _curve(out, "ins_nys"))))
    out["max_nys_kpca_gap"] = float(np.max(np.abs(_curve(out, "nys") - _curve(out, "kpca"))))
    out["diff_to_paper"] = max(float(np.max(np.abs(_curve(out, k) - np.array(v))))
                               for k, v in zip(TABLE_COLUMNS, PAPER_TABLE3[p["data"]]))
    if p["code"]:
        code = est["code"](Xtr, Xte, TABLE_M, d, cell.seed)
        out["diff_to_code"] = max(float(np.max(np.abs(_curve(out, k) - code[k]))) for k in TABLE_COLUMNS)
        lin = code["lin"]
    else:
        from nystrompca.experiments.methods_experiments import run_linear_pca
        lin = run_linear_pca(Xtr, Xte, d)
    out["lin_diff_to_paper"] = float(np.max(np.abs(np.asarray(lin) - np.array(PAPER_LINEAR[p["data"]]))))
    return out


def judge_table3_code(results, profile) -> Outcome:
    """Agreement with the released code: max |ours - code| <= ``TABLE_CODE_TOL`` in every
    cell that ran it."""
    rows = sorted((r for r in results if r.cell.p["code"]), key=lambda r: HALLGREN_DATASETS.index(r.cell.p["data"]))
    out = AllWithin(TABLE_CODE_TOL, metrics=("diff_to_code",))(rows, profile)
    names = ", ".join(r.cell.p["data"] for r in rows)
    return Outcome(out.status, f"the paper's released code, same rows and subset ({names}): {out.summary}",
                   [], out.measured, out.predicted)


def paper_difference_reason(lin_diff: float) -> str:
    """What the Linear PCA column, which depends on the rows and the split only, says about
    a printed kernel column that differs from the released code's output."""
    if lin_diff <= TABLE_LINEAR_SAME:
        return (f"the printed Linear PCA column matches the code's on this split to {lin_diff:.4f}, so the rows "
                "and split agree and the printed kernel columns are not what the released code gives")
    return (f"the printed Linear PCA column differs from the code's by {lin_diff:.4f} as well, so the printed "
            "run's rows or split differ from the released code's seed-1 run")


def report_table3_diff(results, profile) -> Outcome:
    """Reported, never judged: per data set the largest |ours - the paper's Table 3|, with
    the reason (:func:`paper_difference_reason`) where it exceeds ``TABLE_PAPER_CLOSE``."""
    rows = sorted(results, key=lambda r: HALLGREN_DATASETS.index(r.cell.p["data"]))
    per_set = {f"diff_to_paper_{r.cell.p['data']}": r.metrics["diff_to_paper"] for r in rows}
    far = [f"{r.cell.p['data']} {r.metrics['diff_to_paper']:.4f} "
           f"({paper_difference_reason(r.metrics['lin_diff_to_paper'])})"
           for r in rows if r.metrics["diff_to_paper"] > TABLE_PAPER_CLOSE]
    close = [f"{r.cell.p['data']} {r.metrics['diff_to_paper']:.4f}" for r in rows
             if r.metrics["diff_to_paper"] <= TABLE_PAPER_CLOSE]
    text = "the paper's printed Table 3 (reported): " + "; ".join(
        ([f"within {TABLE_PAPER_CLOSE}: " + ", ".join(close)] if close else [])
        + (["farther: " + "; ".join(far)] if far else []))
    return _reported(text, {"max_diff_to_paper": max(per_set.values()), **per_set})


def table3_text(results) -> str:
    """Our Table 3 beside the paper's: per data set and d, ours / paper / difference."""
    lines = ["data set          d   Subset: ours  paper   diff | Nyström: ours  paper   diff | "
             "KPCA: ours  paper   diff"]
    for r in sorted(results, key=lambda r: HALLGREN_DATASETS.index(r.cell.p["data"])):
        name = r.cell.p["data"]
        for j in range(TABLE_D):
            cells = []
            for k, v in zip(TABLE_COLUMNS, PAPER_TABLE3[name]):
                ours = r.metrics[f"{k}{j + 1}"]
                cells.append(f"{ours:.4f} {v[j]:.4f} {ours - v[j]:+.4f}")
            lines.append(f"{name:<16} {j + 1:>2}   " + " | ".join(f"{c:>21}" for c in cells))
    return "\n".join(lines)


def table3_figure(results, verdict, outdir):
    """Our Table 3 beside the paper's, as a text table (hallgren21.table3.txt) and one
    panel of cumulative held-out variance versus d per data set."""
    plt = _mplt()
    rows = sorted(results, key=lambda r: HALLGREN_DATASETS.index(r.cell.p["data"]))
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    table = outdir / "hallgren21.table3.txt"
    table.write_text(table3_text(rows) + "\n")
    ncol = min(4, len(rows))
    nrow = math.ceil(len(rows) / ncol)
    fig, axes = plt.subplots(nrow, ncol, figsize=(3.6 * ncol, 3.0 * nrow), squeeze=False)
    d = np.arange(1, TABLE_D + 1)
    for ax, r in zip(axes.ravel(), rows):
        name = r.cell.p["data"]
        for (k, label), ref, col in zip(zip(TABLE_COLUMNS, ("Subset PCA", "Nyström", "KPCA")),
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
    return save_figure(fig, outdir, "hallgren21.table3") + [table]


def _table3_cells(sets, code_sets, claim_id, options):
    """One cell per data set, the code's seed 1; ``code`` says whether it also runs the
    released code."""
    return [Cell.make(claim_id, "subset-nystrom-kpca", TABLE_N, TABLE_SEED, data=name, code=name in code_sets)
            for name in sets]


def _table3_grid(sets, code_sets):
    against = "every set" if set(code_sets) == set(sets) else ", ".join(code_sets)
    return CellList(functools.partial(_table3_cells, sets, code_sets),
                    f"{', '.join(sets)}; first {TABLE_N} rows, 25% test, m = {TABLE_M}, seed {TABLE_SEED}; "
                    f"the released code run on {against}")


#: The data sets on which quick also runs the released code: all but the two bag-of-words
#: sets, where its Python kernel loops take 16 s and 24 s (about 60% of its cost; ci covers
#: the code on two sets, full on all eight).
QUICK_CODE_SETS = tuple(s for s in HALLGREN_DATASETS if s not in ("dailykos", "nips"))


TABLE3 = Claim(
    id="hallgren21.table3",
    source="Hallgren 2021, Sec. 7.1, Table 3",
    statement="cumulative held-out variance captured, d = 1..10: Nyström very close to full KPCA; in-sample "
              "KPCA >= Nyström >= Subset PCA (Prop. 1 and optimality); our table beside the paper's",
    prediction="in-sample order exact; |Nyström - KPCA| <= 0.025 held out",
    data=f"the UCI sets of the paper's Table 1 (digits from scikit-learn), first {TABLE_N} rows, 75/25 split "
         f"(random_state = seed), standardised with training statistics; Gaussian kernel with the code's "
         f"bandwidth rule: γ = 1 / σ², σ = mean distance over all m² ordered pairs of the subset "
         f"(kernels.mean_distance_gamma); subset of m = {TABLE_M} drawn by default_rng(seed)",
    metric="cumulative fraction of held-out variance Σ_{j<=d} Var_test(w_j) / ((1/n_t) Tr K'_test) (Subset PCA: "
           "second moment about the training mean), d = 1..10; in-sample fractions over the training Tr K'/n",
    estimators={"nystrom": CenteredNystromKPCA, "subset": SubsetPCA, "kpca": ExactKPCA,
                "code": released_code_table3},
    experiment=table3_experiment,
    grid=PerProfile(ci=_table3_grid(("yeast", "segmentation"), ("yeast", "segmentation")),
                    quick=_table3_grid(HALLGREN_DATASETS, QUICK_CODE_SETS),
                    full=_table3_grid(HALLGREN_DATASETS, HALLGREN_DATASETS)),
    judge=AllOf(judge_table3_code,
                AllWithin(TABLE_ATOL, metrics=("insample_order_excess",), what="of Tr K'/n"),
                AllWithin(TABLE_CLOSE, metrics=("max_nys_kpca_gap",)),
                report_table3_diff),
    tolerance=Tolerance(
        rule=f"|ours - the released code| <= {TABLE_CODE_TOL:g} in every column; in-sample order excess <= "
             f"{TABLE_ATOL:g} of Tr K'/n; held-out |Nyström - KPCA| <= {TABLE_CLOSE}; the distance to the "
             f"printed table is reported per data set, with its reason beyond {TABLE_PAPER_CLOSE}",
        evidence="ours against the released code, seed 1, all eight sets: max 6.8e-12 (yeast), so 1e-6 is "
                 "round-off room; the paper's own Table 3 rows have |Nyström - KPCA| <= 0.0199 (digits, d = 10); "
                 "the order excess observed on the ci and quick data sets is -1e-4 (strict), 1e-9 is round-off "
                 "room"),
    faults=(Fault("uncentred", "an uncentred Nyström fit reported as the centred one",
                  {"nystrom": faults.UncentredAsCentredNystrom}),
            Fault("coarse-cutoff", "K'_mm eigenvalues below 1e-4 of the largest dropped (1e-8 is the default): "
                  "columns off by 7e-4, which only the comparison with the released code sees",
                  {"nystrom": faults.CoarseCutoffCenteredNystrom})),
    figure=table3_figure,
)


# -- hallgren21.thm3-coverage -----------------------------------------------------------------

BOUND_SETS = ("magic", "yeast", "cardiotocography", "segmentation")
BOUND_M, BOUND_D, BOUND_ALPHA = 100, 10, 0.9
#: Table 2 kernels with the code's sigma = 3 (gamma = 1/9); polynomial R = 1, degree 2,
#: normalised by Eq. (5): B = 1 for all three.
BOUND_KERNELS = {"rbf": Kernel("gaussian", gamma=1 / 9), "cauchy": Kernel("cauchy", gamma=1 / 9),
                 "poly": Kernel("polynomial", gamma=1.0, coef0=1.0, degree=2, normalize=True)}
BOUND_KINDS = ("paper", "conservative", "hs")


def coverage_floor(R, alpha=BOUND_ALPHA):
    """alpha - 3 sqrt(alpha (1 - alpha) / R): the promised coverage less three standard
    errors of a rate over R subsets (0.836 at R = 200)."""
    return alpha - 3 * math.sqrt(alpha * (1 - alpha) / R)


#: |z| of the mean of ||C_n - C_m||_HS^2 over the R subsets against its exact expectation
#: (hs_distance_sq_mean), z = (mean - E) / (sd / sqrt R), is at most this in every cell.
#: Evidence: see THM3's tolerance.
HS_Z_MAX = 4.5


def uniform_subsets(rng, n: int, m: int, R: int) -> list:
    """R independent subsets of m of the n rows, each uniform without replacement, sorted."""
    return [np.sort(rng.choice(n, m, replace=False)) for _ in range(R)]


def gram_eigenvalues(K) -> np.ndarray:
    """lambda^n_j = eig(K / n), descending: the eigenvalues of C_n."""
    return np.linalg.eigvalsh(K / K.shape[0])[::-1]


def bound_experiment(cell: Cell, est) -> dict:
    """R independent uniform subsets of one (data set, kernel): the zero-mean
    differences R_n(V~_d) - R_n(V^_d) = lam^n_{<=d} - lam~_{<=d} (Nyström) and
    lam^n_{<=d} - lam^{m,n}_{<=d} (Subset), the paper's and the conservative bound,
    and ||C_n - C_m||_HS against D; coverage = the fraction of subsets where the
    bound holds at every d <= 10, ``shortfall_<kind>`` = coverage_floor(R) - coverage."""
    p = cell.p
    X, _ = load_uci(p["data"], n=cell.n)
    kern = BOUND_KERNELS[p["kernel"]]
    n, m, d = cell.n, BOUND_M, BOUND_D
    K = kern.block(X)
    lam_n = est["gram_eigenvalues"](K)
    top = np.cumsum(lam_n[:d])
    sum_K2 = float((K**2).sum())
    D = theorem3_D(n, m, 1.0, BOUND_ALPHA)
    ny_d, sub_d, b_d, c_d = (np.zeros((p["R"], d)) for _ in range(4))
    hs = np.zeros(p["R"])
    for r, idx in enumerate(est["subsets"](cell.rng("subsets"), n, m, p["R"])):
        lm = FixedLandmarks(tuple(idx))
        ny = est["nystrom"](d, kern, landmarks=lm).fit(X)
        sp = est["subset"](d, kern, landmarks=lm, center=False).fit(X)
        Kmm = K[np.ix_(idx, idx)]
        ny_d[r] = top - np.cumsum(ny.eigenvalues_)
        sub_d[r] = top - np.cumsum(sp.eigenvalues_)
        b_d[r] = est["bound"](Kmm, n, d, 1.0, BOUND_ALPHA, "paper")
        c_d[r] = est["bound"](Kmm, n, d, 1.0, BOUND_ALPHA, "conservative")
        hs[r] = math.sqrt(hs_distance_sq(sum_K2, float((K[:, idx] ** 2).sum()), float((Kmm**2).sum()), n, m))
    # A Nyström difference of exactly 0 (a kernel of rank < m: the normalised degree-2
    # polynomial on magic's 10 columns spans 66 dimensions) gives infinite slack; when it
    # does for most subsets the median slack is undefined: NaN (a metric is never infinite).
    slack = float(np.median(np.divide(b_d[:, -1], ny_d[:, -1], out=np.full(len(b_d), np.inf),
                                      where=ny_d[:, -1] > 0)))
    hs_sq_mean = hs_distance_sq_mean(float((np.diag(K) ** 2).sum()), sum_K2, n, m)
    hs_sq = hs**2
    z = (hs_sq.mean() - hs_sq_mean) / (hs_sq.std(ddof=1) / math.sqrt(p["R"]))
    dd = np.array([subset_difference_bound(h, d) for h in hs])
    out = {"R": float(p["R"]), "D": D,
           "hs_sq_ratio": float(hs_sq.mean() / hs_sq_mean), "hs_sq_z_abs": float(abs(z)),
           "subset_bound_excess": float(np.max(sub_d - dd) / top[-1]),
           "slack_dd_d10": _finite_or_nan(np.median(np.divide(dd[:, -1], ny_d[:, -1], out=np.full(len(dd), np.inf),
                                                              where=ny_d[:, -1] > 0))),
           "coverage_paper": float(np.mean((ny_d <= b_d).all(axis=1))),
           "coverage_conservative": float(np.mean((ny_d <= c_d).all(axis=1))),
           "coverage_hs": float(np.mean(hs <= D)), "max_hs": float(hs.max()),
           "slack_d10": _finite_or_nan(slack),
           "max_subset_below_nystrom": float(np.max(ny_d - sub_d))}
    out.update({f"shortfall_{kind}": coverage_floor(p["R"]) - out[f"coverage_{kind}"] for kind in BOUND_KINDS})
    for name, arr in (("bound", b_d), ("cons", c_d), ("dd", dd), ("nys", ny_d), ("sub", sub_d)):
        out.update({f"{name}{j + 1}": float(arr[:, j].mean()) for j in range(d)})
    return out


def _finite_or_nan(x) -> float:
    return float(x) if math.isfinite(x) else float("nan")


def report_bound(results, profile) -> Outcome:
    """Reported, never judged: the lowest coverages, the median slack bound / difference
    at d = 10 and the largest ||C_n - C_m||_HS."""
    worst = {f"coverage_{k}": min(r.metrics[f"coverage_{k}"] for r in results) for k in BOUND_KINDS}
    slack = float(np.nanmedian([r.metrics["slack_d10"] for r in results]))
    slack_dd = float(np.nanmedian([r.metrics["slack_dd_d10"] for r in results]))
    ratios = [r.metrics["hs_sq_ratio"] for r in results]
    floor = min(coverage_floor(r.metrics["R"]) for r in results)
    return _reported(
        f"lowest coverage over {len(results)} (data set, kernel) cells: paper {worst['coverage_paper']:.3f}, "
        f"conservative {worst['coverage_conservative']:.3f}, ||C_n - C_m||_HS <= D {worst['coverage_hs']:.3f} "
        f"(floor {floor:.3f} = α - 3 SE); median slack bound/diff at d = 10: {slack:.1f} (Theorem 3), "
        f"{slack_dd:.1f} (2 sqrt(d) ||C_n - C_m||_HS observed); mean ||C_n - C_m||_HS^2 / its exact expectation "
        f"{min(ratios):.3f}-{max(ratios):.3f}",
        {**worst, "median_slack_d10": slack, "median_slack_dd_d10": slack_dd,
         "max_hs": max(r.metrics["max_hs"] for r in results)})


def bound_figure(results, verdict, outdir):
    """Figures 1-3: per (data set, kernel) panel, versus d, the measured Nyström and
    Subset differences under Theorem 3's bound (as printed and conservative) and under
    the data-dependent 2 sqrt(d) ||C_n - C_m||_HS, all means over the subsets; the coverages in the panel title and the median slack
    bound / Nyström difference at d = 10 annotated."""
    plt = _mplt()
    sets = sorted({r.cell.p["data"] for r in results}, key=HALLGREN_DATASETS.index)
    kernels = [k for k in BOUND_KERNELS if any(r.cell.p["kernel"] == k for r in results)]
    fig, axes = plt.subplots(len(kernels), len(sets), figsize=(4.2 * len(sets), 3.0 * len(kernels)),
                             squeeze=False)
    d = np.arange(1, BOUND_D + 1)
    series = (("bound", "bound (Thm 3, as printed)", dict(color="black", ls="-.")),
              ("cons", "bound (Thm 3, conservative)", dict(color="0.55", ls="-.")),
              ("dd", "2√d ‖C_n − C_m‖_HS as observed (judged: Subset difference under it)",
               dict(color="C2", ls="--")),
              ("nys", "Nyström difference λ^n_{<=d} - λ~_{<=d} (measured)", dict(color="C1", marker="o")),
              ("sub", "Subset difference (measured, >= Nyström's)", dict(color="C0", marker="s")))
    for r in results:
        ax = axes[kernels.index(r.cell.p["kernel"]), sets.index(r.cell.p["data"])]
        mt = r.metrics
        for key, label, style in series:
            ax.plot(d, [mt[f"{key}{j}"] for j in d], ms=3, label=label, **style)
        top, low = mt[f"bound{BOUND_D}"], mt[f"nys{BOUND_D}"]
        if math.isfinite(mt["slack_d10"]) and low > 0:
            ax.annotate("", xy=(BOUND_D, top), xytext=(BOUND_D, low),
                        arrowprops=dict(arrowstyle="<->", color="C1", lw=0.8, shrinkA=0, shrinkB=0))
            ax.annotate(f"median slack\n×{number(mt['slack_d10'])}", xy=(BOUND_D, top ** 0.65 * low ** 0.35),
                        xytext=(-4, 0), textcoords="offset points", ha="right", va="center", fontsize=7,
                        color="C1", bbox=dict(fc="white", ec="none", alpha=0.8, pad=1))
        ax.set_yscale("log")
        ax.set_title(f"{r.cell.p['data']}, {r.cell.p['kernel']}: coverage {mt['coverage_paper']:.2f} (printed), "
                     f"{mt['coverage_conservative']:.2f} (conservative)", fontsize=8)
        ax.set_xlabel("d", fontsize=8)
        ax.set_ylabel("R_n difference (mean over subsets)", fontsize=7)
        ax.tick_params(labelsize=7)
    fig.suptitle(f"hallgren21.thm3-coverage — {verdict.status} (zero-mean setting)")
    fig.tight_layout()
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=2, fontsize=7, frameon=False)
    return save_figure(fig, outdir, "hallgren21.thm3-coverage")


def _bound_grid(n, R, sets):
    """One cell (seed 0) per (data set, kernel), each with R subsets."""
    return tuple(Grid(sizes=(n,), seeds=1, params={"data": name, "kernel": kname, "R": R}, methods=("uniform",),
                      describe=f"{name} (first {n} rows), {kname}, {R} subsets")
                 for name in sets for kname in BOUND_KERNELS)


THM3 = Claim(
    id="hallgren21.thm3-coverage",
    source="Hallgren 2021, Theorem 3, Sec. 7.2, Figs. 1-3",
    statement="R_n(V~_d) - R_n(V^_d) <= Σ λ^m_j D_j + D max_k D_k with confidence 1 - 2e^{-δ} (paper), and "
              "the conservative variant; RBF, Cauchy and normalised polynomial kernels",
    prediction="coverage >= α = 0.9 over independent subsets; slack reported; the Subset difference under "
               "2 sqrt(d) ||C_n - C_m||_HS in every subset; mean ||C_n - C_m||_HS^2 at its exact expectation",
    data=f"the first n rows of UCI magic, yeast, cardiotocography, segmentation, standardised; the code's fixed "
         f"bandwidth σ = 3 (γ = 1/9, no bandwidth rule) for the Gaussian and Cauchy kernels, the polynomial "
         f"kernel (R = 1, degree 2) normalised by Eq. (5); m = {BOUND_M} uniform subsets, d <= {BOUND_D}, "
         f"α = {BOUND_ALPHA}, zero-mean (uncentred) setting",
    metric="fraction of subsets where the Nyström difference λ^n_{<=d} - λ~_{<=d} is under the bound at every "
           "d <= 10 (paper's and conservative bound), and where ||C_n - C_m||_HS <= D; the Subset difference "
           "minus the Nyström difference",
    estimators={"nystrom": NystromKPCA, "subset": SubsetPCA, "gram_eigenvalues": gram_eigenvalues,
                "bound": theorem3_bound, "subsets": uniform_subsets},
    experiment=bound_experiment,
    grid=PerProfile(ci=_bound_grid(300, 50, ("yeast",)), quick=_bound_grid(1000, 200, BOUND_SETS),
                    full=_bound_grid(1000, 500, BOUND_SETS)),
    judge=AllOf(AllWithin(0.0, metrics=tuple(f"shortfall_{k}" for k in BOUND_KINDS), what="below α - 3 SE"),
                AllWithin(1e-9, metrics=("max_subset_below_nystrom", "subset_bound_excess")),
                AllWithin(HS_Z_MAX, metrics=("hs_sq_z_abs",), what="standard errors"),
                report_bound),
    tolerance=Tolerance(
        rule="coverage >= α - 3 sqrt(α(1-α)/R) (0.836 at R = 200, 0.773 at R = 50) in every cell; Subset "
             "difference >= Nyström difference up to 1e-9; the sharper statements: in every subset the Subset "
             "difference <= 2 sqrt(d) ||C_n - C_m||_HS observed (a deterministic inequality, up to 1e-9 of the "
             f"captured variance), and the mean of ||C_n - C_m||_HS^2 over the R subsets within {HS_Z_MAX:g} "
             "standard errors of its exact expectation (n - m) / (m (n - 1)) (sum k_ii^2 / n - sum K^2 / n^2)",
        evidence="the floor is a three-standard-error allowance for a rate over R subsets; observed coverage "
                 "is 100 % on synthetic 8-D data (n = 1000, m = 100, 50 subsets, no violation); ci uses fewer "
                 "subsets (50) for its time budget. Slack at ci (yeast, n = 300): Theorem 3 median 120 (RBF), "
                 "77 (Cauchy), 2552 (polynomial), so only factor-n faults moved it; 2 sqrt(d) eps: 67, 43, 1436. "
                 "The z of the HS calibration, 1000 independent sets of subsets per kernel (yeast, n = 300, R = "
                 "50): largest |z| 3.57, 99th percentile 2.70; with R = 25 the largest was 4.68 (a skewed mean), "
                 "hence R = 50 at ci. quick (4 sets x 3 kernels, n = 1000, R = 200, 61 sets each): largest 3.60. "
                 "The near miss contiguous-subsets at ci: mean ratio 1.21-1.24, |z| up to 7.11, coverage 1.000. "
                 "(Subsets drawn with replacement, whose expectation is (n - 1)/(n - m) times larger, gave |z| >= "
                 "6.8 at R = 50 in the same study, but FixedLandmarks refuses repeated indices, so that bug "
                 "raises before it can be judged)"),
    faults=(Fault("eig-K", "eig(K) instead of eig(K / n) for the eigenvalues of C_n in the measured difference",
                  {"gram_eigenvalues": faults.unnormalised_gram_eigenvalues}),
            Fault("contiguous-subsets", "a near miss: each subset is m consecutive rows at a random start (a "
                  "slice, not a sample); coverage and every bound still hold, but ||C_n - C_m||_HS^2 is not at "
                  "the expectation of a uniform subset", {"subsets": faults.contiguous_subsets})),
    figure=bound_figure,
)


# -- hallgren21.cor61 ---------------------------------------------------------------------

COR_GAMMA, COR_VAR, COR_ALPHA, COR_J = 1.0, 1.0, 0.9, 40
# Slope band of sup_j |lambda_j - lambda^n_j| vs n: the CLT rate -1/2 +- 0.15.
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


def cor61_experiment(cell: Cell, est) -> dict:
    """sup_j |lambda_j - lambda^n_j| (j < J) and sum_j (lambda_j - lambda^n_j)^2 on the Mehler
    oracle, against B sqrt(2 delta / n) and 2 B^2 delta / n (Corollary 6.1, B = 1); covered = 1.0
    where the bound holds."""
    x = cell.rng().normal(0.0, math.sqrt(COR_VAR), cell.n)
    lam_hat = est["gram"](x, COR_GAMMA, COR_J)
    lam = est["mehler"](COR_GAMMA, COR_VAR, COR_J)
    b = corollary61_bounds(cell.n, 1.0, COR_ALPHA)
    err = np.abs(lam - lam_hat)
    return {"sup_err": float(err.max()), "sum_sq_err": float((err**2).sum()), "bound": b["sup_eig"],
            "covered": float(err.max() <= b["sup_eig"]), "covered_sq": float((err**2).sum() <= b["sum_sq_eig"])}


def _cor_grid(sizes, seeds):
    return Grid(sizes=sizes, seeds=seeds, params={"gamma": COR_GAMMA, "var": COR_VAR}, methods=("mehler",))


COR61 = Claim(
    id="hallgren21.cor61",
    source="Hallgren 2021, Corollary 6.1 (Sec. 6.1)",
    statement="sup_j |λ_j - λ^n_j| <= B sqrt(2δ/n) and Σ_j (λ_j - λ^n_j)^2 <= 2B²δ/n w.p. >= 1 - 2e^{-δ}",
    prediction="violation rate <= 1 - α = 0.1; slope of the sup error ≈ -1/2",
    data=f"1-D N(0, {COR_VAR}); Gaussian kernel exp(-γ (x - y)²) with the fixed γ = {COR_GAMMA} (no bandwidth "
         f"rule), whose population eigenvalues are Mehler's closed form; top {COR_J} eigenvalues, α = {COR_ALPHA}",
    metric="sup_j |λ_j - λ^n_j| and Σ_j (λ_j - λ^n_j)² over the top 40 eigenvalues; whether each is under its bound",
    estimators={"mehler": mehler_eigenvalues, "gram": gaussian_gram_eigenvalues_1d},
    experiment=cor61_experiment,
    grid=PerProfile(ci=_cor_grid((100, 200, 400, 800, 1600, 3200), 10),
                    quick=_cor_grid((100, 200, 400, 800, 1600, 3200, 6400), 30),
                    full=_cor_grid((100, 200, 400, 800, 1600, 3200, 6400, 12800, 25600), 100)),
    judge=AllOf(SlopeInBand("sup_err", band=COR_BAND, label="sup_j |λ_j - λ^n_j| (Mehler oracle)",
                            ylabel="eigenvalue error", reference="bound",
                            reference_label="bound B sqrt(2δ/n) (Cor. 6.1)"),
                CoverageAtLeast("covered", level=COR_ALPHA),
                CoverageAtLeast("covered_sq", level=COR_ALPHA, name="coverage_sq")),
    tolerance=Tolerance(
        rule=f"slope CI inside {list(COR_BAND)}; each bound's violations not significantly above 1 - α "
             f"(binomial p >= 0.01)",
        evidence="ci grid (seeds 0-9): slope -0.50 [-0.55, -0.45]; quick (30 seeds): -0.49 [-0.52, -0.46]"),
    faults=(Fault("gamma-half", "the oracle evaluated at γ / 2 (exp(-||x-y||²/(2 s²)) read as γ = 1/s²)",
                  {"mehler": faults.mehler_wrong_convention}),),
)


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
    if cell.method == "heatmap":
        out = {}
        for m in HEAT_MS:
            for d in HEAT_DS:
                fit = kpcr(min(d, m), kern, landmarks=m, random_state=rng).fit(Xtr, ytr)
                out[f"kpcr_m{m}_d{d}"] = fit.score(Xte, yte)
            for lg in HEAT_LOG_RIDGE:
                fit = krr(kern, m, ridge=10.0**lg, random_state=rng).fit(Xtr, ytr)
                out[f"krr_m{m}_g{lg}"] = fit.score(Xte, yte)
        return out
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


def _kpcr_cells(splits, heatmap, claim_id, options):
    """One ``r2`` cell per split seed 1..splits, and the Figure 4 grids at seed 1."""
    cells = [Cell.make(claim_id, "r2", KPCR_N, s) for s in range(1, splits + 1)]
    return cells + ([Cell.make(claim_id, "heatmap", KPCR_N, 1)] if heatmap else [])


def _kpcr_grid(splits, heatmap):
    return CellList(functools.partial(_kpcr_cells, splits, heatmap),
                    f"airfoil first {KPCR_N} rows, 75/25 splits seeds 1..{splits}, m in {KPCR_MS}"
                    + ("; Fig. 4 grids (seed 1)" if heatmap else ""))


KPCR_CLAIM = Claim(
    id="hallgren21.kpcr",
    source="Hallgren 2021, Sec. 8, Figs. 4-5",
    statement="airfoil regression: Nyström KPCR (m = 100, d = 90) R² ≈ 0.74, Nyström KRR ≈ 0.72; Nyström KPCR "
              "-> KPCR as m grows (equal at m = n)",
    prediction="R² near 0.74 / 0.72; gap to KPCR non-increasing in m, 0 at m = n_train",
    data=f"UCI airfoil, first {KPCR_N} rows, 75/25 split (random_state = seed), standardised with training "
         f"statistics; Gaussian kernel with the paper's fixed σ = 1 (γ = {KPCR_GAMMA}, no bandwidth rule); "
         f"uniform subsets; d = {KPCR_D}, KRR ridge {KPCR_RIDGE}",
    metric="test R² = 1 - RSS / TSS; gap = R²(KPCR) - R²(Nyström KPCR) at m in (100, 200, 400, n_train)",
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
                  {"kpcr": faults.KPCRWithoutFactorN}),),
    figure=kpcr_figure,
)


CLAIMS = [IDENTITIES, PROP, TABLE3, THM3, COR61, KPCR_CLAIM]
