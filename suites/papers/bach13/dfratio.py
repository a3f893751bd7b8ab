"""bach13.d-vs-dave: the maximal marginal degrees of freedom d against the usual d_ave (Secs. 4.4 and 5).

d = n max_i [K (K + n lambda I)^-1]_ii (Eq. (5)) and d_ave = tr K^2 (K + n lambda I)^-2 (Table 1).
Sec. 4.4 says d 'is in practice close to' d_ave, and Sec. 5 that the two 'are within a factor of 2'
on all its data sets. Always d >= df1 = tr K (K + n lambda I)^-1, and for mu_i = i^(-2 beta) df1 / d_ave
tends to 2 beta / (2 beta - 1) (App. C.1's integrals: ours), which is 2 for beta = 1, the kernel of
the paper's own Fig. 2: there d / d_ave > 2 on every design, and the factor 2 is an erratum. On
random designs d exceeds df1 again (the largest leverage score over the mean one); the suite checks
that d stays within a factor 3.5 of d_ave on average (our reading of 'close').
"""

from __future__ import annotations

import numpy as np

from kpca_suite.theory.dof import dof_from_eigh

from ...claim import Claim, Fault, Outcome, PerProfile, Tolerance
from ...judging import combine
from ._common import KERNEL_NAMES, _RANDOM_DESIGN, _per_kernel, _random_problem

RATIO_KERNELS = (("poly", 1), ("poly", 2), ("poly", 4), ("exp", 1.0))  # beta = 1, 2, 4 and exp(rho = 1)


RATIO_MEAN_MAX = 3.5    # per (kernel, n), the mean of d / d_ave over designs


PAPER_FACTOR = 2.0      # Sec. 5's 'within a factor of 2', exceeded on every beta = 1 design


def ratio_experiment(cell, estimators) -> dict:
    """d, df1 and d_ave at lambda* (estimator ``dof``, from K's eigendecomposition) on one uniform
    random design, and the ratios d / d_ave and df1 / d_ave."""
    pr = _random_problem(cell)
    dof = estimators["dof"](pr["e"], pr["U"], pr["lam"], pr["kern"].sup_diag())
    d, df1, d_ave = float(dof.d), float(dof.df1), float(dof.d_ave)
    return {"d": d, "df1": df1, "d_ave": d_ave, "ratio": d / d_ave, "df1_ratio": df1 / d_ave}


def judge_ratio(results, profile) -> Outcome:
    """Per (kernel, n): mean d / d_ave over designs <= RATIO_MEAN_MAX; for beta = 1, d / d_ave >
    PAPER_FACTOR on every design (the paper's factor 2 fails there). Reported: the largest single
    design ratio, and the mean per kernel against 2."""
    parts, bits, measured = [], [], {}
    for kern in RATIO_KERNELS:
        rows = [r for r in results if (r.cell.p["kdecay"], r.cell.p["krate"]) == kern]
        if not rows:
            continue
        name = KERNEL_NAMES[kern]
        ratios = np.array([r.metrics["ratio"] for r in rows])
        means = {n: float(np.mean([r.metrics["ratio"] for r in rows if r.cell.n == n]))
                 for n in sorted({r.cell.n for r in rows})}
        worst_n = max(means, key=means.get)
        parts.append("holds" if means[worst_n] <= RATIO_MEAN_MAX else "fails")  # NaN fails
        said = f"{name}: mean d/d_ave {min(means.values()):.2f}..{means[worst_n]:.2f} (n = {worst_n}; <= {RATIO_MEAN_MAX:g})"
        if kern == ("poly", 1):
            low = float(ratios.min())
            parts.append("holds" if low > PAPER_FACTOR else "fails")
            said += (f", every design > 2 (min {low:.2f}; df1/d_ave min "
                     f"{min(r.metrics['df1_ratio'] for r in rows):.2f}): the paper's factor 2 fails")
            measured["B_2 min ratio"] = low
        said += f", single designs up to {ratios.max():.2f}"
        measured.update({f"{name} max mean ratio": means[worst_n], f"{name} max ratio": float(ratios.max())})
        bits.append(said)
    return Outcome(combine(parts), "; ".join(bits), [], measured,
                   {"mean_ratio_at_most": RATIO_MEAN_MAX, "B_2 ratio above": PAPER_FACTOR})


def exact_dof(eigenvalues, eigenvectors, lam, R2):
    """d_ave, df1 and d of :func:`theory.dof.dof_from_eigh` (``R2`` unused: the signature of the faults)."""
    return dof_from_eigh(eigenvalues, eigenvectors, lam)


def bound_as_d(eigenvalues, eigenvectors, lam, R2):
    """d replaced by its bound n R^2 / (R^2 + n lambda) (every leverage score <= K_ii / (K_ii + n lambda)):
    a shortcut that skips the leverage scores."""
    dof = dof_from_eigh(eigenvalues, eigenvectors, lam)
    n = len(eigenvalues)
    return type(dof)(dof.d_ave, dof.df1, n * R2 / (R2 + n * lam))


CLAIMS = [
    Claim(
        id="bach13.d-vs-dave",
        source="Bach 2013, Sec. 4.4 (d 'in practice close to' d_ave) and Sec. 5 ('within a factor of 2')",
        statement="The maximal marginal df d (Eq. (5)) stays within a small factor of d_ave at λ*: on average "
                  "within 3.5 (ours); the paper's factor 2 fails for β = 1 (its Fig. 2's kernel), where df1/d_ave "
                  "-> 2 already and d > df1 on random designs (PAPER.errata)",
        prediction="mean d/d_ave <= 3.5 per (kernel, n); d/d_ave > 2 on every β = 1 design",
        data=_RANDOM_DESIGN + "; B_2, B_4, B_8 (β = 1, 2, 4) and exp(ρ=1) kernels",
        metric="d/d_ave and df1/d_ave at λ* per design",
        metrics=("d", "d_ave", "df1", "df1_ratio", "ratio"),
        estimators={"dof": exact_dof},
        experiment=ratio_experiment,
        grid=PerProfile(ci=_per_kernel(RATIO_KERNELS, (100, 200, 400), 3, ("dof",)),
                        quick=_per_kernel(RATIO_KERNELS, (100, 200, 400, 800), 6, ("dof",)),
                        full=_per_kernel(RATIO_KERNELS, (200, 400, 800, 1600, 3200), 3, ("dof",))),
        judge=judge_ratio,
        tolerance=Tolerance(
            rule="per (kernel, n) mean d/d_ave <= 3.5; every β = 1 design d/d_ave > 2",
            evidence="roots 0-4: ci (n = 100..400, 3 designs) mean d/d_ave per (kernel, n) at most 2.86 (B_2), "
                     "2.02 (B_4), 1.75 (B_8), 2.08 (exp(ρ=1)), single designs up to 3.00; smallest B_2 design "
                     "2.42 (df1/d_ave >= 2.01); quick (n = 100..800, 6 designs) at most 2.86, 1.97, 1.68, 2.06, "
                     "single designs up to 3.06, smallest B_2 design 2.39. A pilot saw one design at 3.15 (B_2, "
                     "n = 100: an isolated point's leverage), hence a mean, not a per-design limit, at 3.5. The "
                     "bound-as-d fault reads means 6.47-34.0 at ci."),
        faults=(Fault("bound-as-d", "d taken as its bound n R²/(R² + nλ) instead of the largest leverage score",
                      {"dof": bound_as_d}, keep=lambda c: c.seed == 0 and c.n <= 200),),
    ),
]
