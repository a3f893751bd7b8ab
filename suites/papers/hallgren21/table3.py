"""hallgren21.table3: Table 3's held-out variance on the UCI sets, against the released code."""

from __future__ import annotations

import functools
import math
from pathlib import Path

import numpy as np

from kpca_suite.kernels import Kernel, mean_distance_gamma
from kpca_suite.methods.centered_nystrom import CenteredNystromKPCA
from kpca_suite.methods.exact import ExactKPCA
from kpca_suite.methods.landmarks import FixedLandmarks
from kpca_suite.methods.nystrom import NystromKPCA
from kpca_suite.methods.subset_pca import SubsetPCA

from ...claim import Cell, CellList, Claim, Fault, Outcome, PerProfile, Tolerance
from ...datasets import HALLGREN_DATASETS, load_uci
from ...judging import AllOf, AllWithin
from ...plots import save_figure
from ...roles import Subject, build
from ._common import _mplt, _reported, centred_nystrom
from ._released import released_code_table3, released_linear_pca

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


def _split(cell: Cell):
    """The code's setting: the first ``cell.n`` rows (TABLE_N in the table's cells) of
    ``cell.p["data"]``, a 75/25 split
    (random_state = seed) standardised with training statistics, the subset of TABLE_M
    drawn by default_rng(seed) and the Gaussian kernel of its mean distance. Returns
    (Xtr, Xte, subset indices, kernel)."""
    from sklearn.model_selection import train_test_split

    X, _ = load_uci(cell.p["data"], n=cell.n, standardize=False)
    Xtr, Xte = train_test_split(X, test_size=0.25, random_state=cell.seed)
    mu, sd = Xtr.mean(axis=0), Xtr.std(axis=0)
    sd[sd == 0] = 1.0
    Xtr, Xte = (Xtr - mu) / sd, (Xte - mu) / sd
    idx = np.sort(np.random.default_rng(cell.seed).choice(len(Xtr), TABLE_M, replace=False))
    return Xtr, Xte, idx, Kernel("gaussian", gamma=mean_distance_gamma(Xtr[idx]))


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
    * ``diff_to_code`` (cells with ``released``) = max_d over the three columns of
      |ours - the released code's| (estimator ``code``, :func:`released_code_table3`).
    """
    p, d = cell.p, TABLE_D
    Xtr, Xte, idx, kern = _split(cell)
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
    if p["released"]:
        code = est["code"](Xtr, Xte, TABLE_M, d, cell.seed)
        out["diff_to_code"] = max(float(np.max(np.abs(_curve(out, k) - code[k]))) for k in TABLE_COLUMNS)
        lin = code["lin"]
    else:
        lin = released_linear_pca(Xtr, Xte, d, cell.seed)
    out["lin_diff_to_paper"] = float(np.max(np.abs(np.asarray(lin) - np.array(PAPER_LINEAR[p["data"]]))))
    return out


def judge_table3_code(results, profile) -> Outcome:
    """Agreement with the released code: max |ours - code| <= ``TABLE_CODE_TOL`` in every
    cell that ran it."""
    rows = sorted((r for r in results if r.cell.p["released"]), key=lambda r: HALLGREN_DATASETS.index(r.cell.p["data"]))
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
    return [Cell.make(claim_id, "subset-nystrom-kpca", TABLE_N, TABLE_SEED, data=name, released=name in code_sets)
            for name in sets]


def _yeast(cell) -> bool:
    """The faults run on yeast alone: each cell runs the released code, whose Python kernel
    loops are most of a cell's time, and one set is enough for either fault to fail."""
    return cell.p["data"] == "yeast"


def _table3_grid(sets, code_sets):
    against = "every set" if set(code_sets) == set(sets) else ", ".join(code_sets)
    return CellList(functools.partial(_table3_cells, sets, code_sets),
                    f"{', '.join(sets)}; first {TABLE_N} rows, 25% test, m = {TABLE_M}, seed {TABLE_SEED}; "
                    f"the released code run on {against}")


#: The data sets on which quick also runs the released code: ci's two (full runs it on all eight).
#: Its Python kernel loops take 1.5-2 s a set on an idle core and 16 s and 24 s on the two
#: bag-of-words sets, and in the main job's run its cells were the longest (4.3-6.5 s each, two
#: cores busy). The comparison is deterministic (ours against the code to 6.8e-12 at worst,
#: against a 1e-6 tolerance), so more sets add coverage, not power: drug and digits left quick on
#: 2026-11-29 (they agreed to 2.6e-14 and 3.2e-15), magic and cardiotocography the same day
#: (1.2e-12 and 1.0e-12 in the quick run before), about 10 of the main job's cell-seconds.
QUICK_CODE_SETS = ("yeast", "segmentation")


class CoarseCutoffCenteredNystrom(CenteredNystromKPCA):
    """Centred Nyström KPCA that drops the eigenvalues of K'_mm below 1e-4 of the largest
    (instead of 1e-8): a plausible cut-off 'for stability' that moves the held-out
    columns by about 1e-3, too little for the in-sample order or the Nyström-KPCA gap."""

    def __init__(self, n_components, kernel, **kw):
        super().__init__(n_components, kernel, **{**kw, "rcond": 1e-4})


class UncentredAsCentredNystrom(NystromKPCA):
    """An uncentred Nyström fit reported as the centred one (the mean direction counts
    as variance)."""

    def __init__(self, n_components, kernel, landmarks=100, **kw):
        super().__init__(n_components, kernel, landmarks=landmarks, center=False)


TABLE3 = Claim(
    id="hallgren21.table3",
    source="Hallgren 2021, Sec. 7.1, Table 3 (Subset PCA, Nyström, Kernel PCA columns) and Proposition 1",
    statement="cumulative held-out variance captured, d = 1..10: Nyström very close to full KPCA (Sec. 7.1); "
              "in-sample KPCA >= Nyström >= Subset PCA (Prop. 1 and optimality); in the released code's setting, "
              "which produced the printed table (first 1000 rows, 25 % test where the paper says half, digits "
              "from scikit-learn), our columns against the code's and beside the paper's",
    prediction="our columns equal the released code's within 1e-6; in-sample order exact; |Nyström - KPCA| <= "
               "0.025 held out; the distance to the printed table reported, not judged",
    data=f"the UCI sets of the paper's Table 1 (digits from scikit-learn), first {TABLE_N} rows, 75/25 split "
         f"(random_state = seed), standardised with training statistics; Gaussian kernel with the code's "
         f"bandwidth rule: γ = 1 / σ², σ = mean distance over all m² ordered pairs of the subset "
         f"(kernels.mean_distance_gamma); subset of m = {TABLE_M} drawn by default_rng(seed)",
    metric="cumulative fraction of held-out variance Σ_{j<=d} Var_test(w_j) / ((1/n_t) Tr K'_test) (Subset PCA: "
           "second moment about the training mean), d = 1..10; in-sample fractions over the training Tr K'/n",
    metrics=("diff_to_code", "diff_to_paper", "gamma", "ins_kpca1", "ins_kpca10", "ins_kpca2", "ins_kpca3",
             "ins_kpca4", "ins_kpca5", "ins_kpca6", "ins_kpca7", "ins_kpca8", "ins_kpca9", "ins_nys1", "ins_nys10",
             "ins_nys2", "ins_nys3", "ins_nys4", "ins_nys5", "ins_nys6", "ins_nys7", "ins_nys8", "ins_nys9",
             "ins_sub1", "ins_sub10", "ins_sub2", "ins_sub3", "ins_sub4", "ins_sub5", "ins_sub6", "ins_sub7",
             "ins_sub8", "ins_sub9", "insample_order_excess", "kpca1", "kpca10", "kpca2", "kpca3", "kpca4", "kpca5",
             "kpca6", "kpca7", "kpca8", "kpca9", "lin_diff_to_paper", "max_nys_kpca_gap", "nys1", "nys10", "nys2",
             "nys3", "nys4", "nys5", "nys6", "nys7", "nys8", "nys9", "sub1", "sub10", "sub2", "sub3", "sub4", "sub5",
             "sub6", "sub7", "sub8", "sub9"),
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
                 "room. Margins both ways (python -m tests.variants.margins, ci, root 0): diff_to_code 4.0e-12 "
                 "correct against 7.2e-4 for the fault coarse-cutoff (1e-6 sits x2.5e5 above and x720 below); "
                 "order excess -1.2e-4 correct against 0.31 uncentred; the Nyström-KPCA gap 0.013 correct "
                 "against 0.167 uncentred at the limit 0.025 (x1.9 and x6.7). The faults run on yeast alone "
                 "(2026-11-29): coarse-cutoff's diff_to_code 5.9e-4 there (x590 above 1e-6), uncentred's order "
                 "excess 0.31 and gap 0.048"),
    faults=(Fault("uncentred", "an uncentred Nyström fit reported as the centred one",
                  {"nystrom": UncentredAsCentredNystrom}, keep=_yeast),
            Fault("coarse-cutoff", "K'_mm eigenvalues below 1e-4 of the largest dropped (1e-8 is the default): "
                  "columns off by 7e-4, which only the comparison with the released code sees",
                  {"nystrom": CoarseCutoffCenteredNystrom}, keep=_yeast)),
    figure=table3_figure,
)


# -- hallgren21.table3-gap: Table 3's finding for any centred Nyström ------------------------

#: Held-out |Nyström - KPCA| of any draw of m = 100 landmarks (evidence in the claim).
GAP_CLOSE = 0.04

def gap_experiment(cell: Cell, est) -> dict:
    """Table 3's held-out columns for any centred Nyström KPCA (``est["nystrom"]``, a
    kpca-projection factory given m = TABLE_M landmarks of its own choosing and the
    code's kernel), read through transform: the cumulative held-out variance fraction
    sum_{j<=d} Var_test(w_j) / ((1/n_t) Tr K'_test), d = 1..10, for it and for centred
    KPCA, and ``max_nys_kpca_gap`` = max_d |Nyström - KPCA|."""
    Xtr, Xte, _, kern = _split(cell)
    tot = _test_total(kern, Xte)
    ny = build(est["nystrom"], "kpca-projection", cell, n_components=TABLE_D, budget=TABLE_M, kernel=kern,
               random_state=cell.seed_int("landmarks")).fit(Xtr)
    nys = np.cumsum(np.sort(ny.transform(Xte).var(axis=0))[::-1]) / tot
    kpca = np.cumsum(est["kpca"](TABLE_D, kern, center=True, solver="dense").fit(Xtr).transform(Xte).var(axis=0)) / tot
    gap = np.full(TABLE_D, np.inf)  # fewer than d columns: no curve to compare at the missing d
    gap[:len(nys)] = np.abs(nys - kpca[:len(nys)])
    return {"nys": nys, "kpca": kpca, "max_nys_kpca_gap": float(gap.max())}


def _gap_cells(sets, claim_id, options):
    return [Cell.make(claim_id, "nystrom", TABLE_N, seed, data=name) for name in sets for seed in (1, 2, 3)]


def _gap_grid(sets):
    return CellList(functools.partial(_gap_cells, sets),
                    f"{', '.join(sets)}; first {TABLE_N} rows, 25% test, m = {TABLE_M}, seeds 1-3")


def uncentred_nystrom(n_components, budget, kernel, random_state):
    """:class:`UncentredAsCentredNystrom` as a role factory (``budget`` uniform landmarks)."""
    return UncentredAsCentredNystrom(n_components, kernel, landmarks=budget, random_state=random_state)


TABLE3_GAP = Claim(
    id="hallgren21.table3-gap",
    source="Hallgren 2021, Sec. 7.1, the text after Table 3 (Nyström 'very close to' full KPCA), for any "
           "implementation",
    statement="a centred Nyström KPCA on m = 100 landmarks captures nearly the held-out variance of full KPCA (the "
              "paper gives no number; its printed rows differ by at most 0.0199); any implementation, its own "
              "landmarks, seeds 1-3 where the paper ran one subset",
    prediction=f"|Nyström - KPCA| <= {GAP_CLOSE} held out, d = 1..10",
    data="the setting of hallgren21.table3 (UCI sets, first 1000 rows, 75/25 split, standardised, the code's "
         "bandwidth rule on a subset drawn by the seed); the implementation draws its own m = 100 landmarks",
    metric="cumulative fraction of held-out variance, d = 1..10, of the implementation's scores (variances in "
           "decreasing order) and of centred KPCA's; their largest difference",
    metrics=("kpca", "max_nys_kpca_gap", "nys"),
    estimators={"nystrom": centred_nystrom, "kpca": ExactKPCA},
    experiment=gap_experiment,
    grid=PerProfile(ci=_gap_grid(("yeast", "segmentation")), quick=_gap_grid(HALLGREN_DATASETS),
                    full=_gap_grid(HALLGREN_DATASETS)),
    subject=Subject("kpca-projection", "nystrom", centred=True, kernel="gaussian",
                    budget=f"m = {TABLE_M} landmarks, d = {TABLE_D}", kinds=("nystrom",),
                    needs="transform of held-out rows"),
    judge=AllWithin(GAP_CLOSE, metrics=("max_nys_kpca_gap",)),
    tolerance=Tolerance(f"held-out |Nyström - KPCA| <= {GAP_CLOSE} at every d",
                        "the paper's own rows (one subset each): at most 0.0199 (digits, d = 10); with random "
                        "subsets, quick (all eight sets, seeds 1-3), the paper's method: worst 0.0252 (digits, seed "
                        "mean 0.0218; drug 0.0212, the rest <= 0.019), so the table's 0.025 does not hold for every "
                        "draw; ci (yeast, segmentation), worst: ours 0.011, the nystrompca package 0.011, "
                        "scikit-learn's Nystroem + PCA 0.012; an uncentred fit 0.058. Correct variants written outside "
                        "(tests/variants, ci, roots 0-4: centred features, centred float32) 0.0144 at worst (centred "
                        "float32, root 2); at quick (all eight sets, roots 0-4) centred features and centred "
                        "float32 reach 0.0291 (root 3; 0.0234-0.0291 over the roots) and the uncentred fit 0.0583 "
                        "(magic; segmentation 0.057), so 0.035 had x1.2 of room below. 0.04, near their geometric "
                        "middle 0.041, leaves x1.37 above the worst correct value and x1.46 below the uncentred fit. "
                        "A maximum over 24 draws of m landmarks grows with the number of draws; no planted bug of the "
                        "mutation campaign is caught by this claim alone"),
    faults=(Fault("uncentred", "an uncentred Nyström fit reported as the centred one",
                  {"nystrom": uncentred_nystrom}),),
)


CLAIMS = [
    TABLE3,
    TABLE3_GAP,
]
