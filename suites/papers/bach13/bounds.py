"""bach13.lemmaB1 and eq6: Lemma B.1's column-sampling bound and the budget of eq. (6)."""

from __future__ import annotations

import math

import numpy as np

from kpca_suite.kernels.periodic import PeriodicKernel
from kpca_suite.theory import loglog_line
from kpca_suite.theory.dof import dof_circulant, optimal_lambda
from kpca_suite.theory.periodic import grid_design, grid_energy, grid_spectrum, periodic_signal, uniform_design
from kpca_suite.theory.table1 import eq6_rank, first_nonvacuous_n, lemma_b1_bound

from ...claim import Claim, Fault, Fit, Grid, Outcome, PerProfile, Tolerance
from ...judging import AllOf, AllWithin, collect, combine
from ._common import SIGMA2, SIGNAL, _crowded

# -- bach13.lemmaB1 -----------------------------------------------------------------------

B1_N, B1_R = 400, 40


B1_T = np.linspace(0.2, 0.95, 16)


B1_SETTINGS = ((100, 0.3), (200, 0.3))


#: the bounds judged (Lemma B.1's tail, Eq. (6)'s rank) against their direct evaluation, relative.
FORMULA_TOL = 1e-12


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


def direct_lemma_b1(t: float, p: int, r: int, lam_max: float, R2: float) -> float:
    """Lemma B.1's bound at one level t, evaluated here from the printed statement by a
    second route, independent of :func:`theory.table1.lemma_b1_bound`:
    min(1, r exp(-(p t^2 / 2) / (lambda_max (R^2 + t / 3)))), in scalar arithmetic (math.exp)."""
    return min(1.0, r * math.exp(-(p * t * t / 2.0) / (lam_max * (R2 + t / 3.0))))


def _relative(got, direct) -> float:
    """|got - direct| / direct (absolute where direct is 0)."""
    return abs(got - direct) / direct if direct > 0 else abs(got - direct)


def lemma_b1_experiment(cell, estimators) -> dict:
    """lambda_max((1/n) Psi^T Psi), R^2 = max row norm^2, the 95% quantile, the empirical
    tail P(lambda_max[...] > t) and Lemma B.1's bound (estimator ``bound``) at each t of
    ``B1_T``, and ``bound_formula``: the bound against :func:`direct_lemma_b1` (relative,
    worst t)."""
    draws, lam_max, R2 = lemma_b1_sample(cell, estimators[cell.method])
    bound = estimators["bound"](B1_T, cell.p["p"], B1_R, lam_max, R2)
    out = {"lam_max": lam_max, "R2": R2, "q95": float(np.quantile(draws, 0.95)),
           "bound_formula": float(np.max([_relative(float(b), direct_lemma_b1(float(t), cell.p["p"], B1_R,
                                                                               lam_max, R2))
                                          for t, b in zip(B1_T, bound)]))}  # np.max: a NaN stays NaN
    for i, t in enumerate(B1_T):
        out[f"tail_{i}"] = float(np.mean(draws > t))
        out[f"bound_{i}"] = float(bound[i])
    return out


def loose_lemma_b1_bound(t, p, r, lam_max, R2):
    """A planted fault: Lemma B.1's bound 10% larger than printed."""
    return 1.1 * lemma_b1_bound(t, p, r, lam_max, R2)


def judge_lemma_b1(results, profile) -> Outcome:
    """At every t, the Clopper-Pearson 99% lower limit of the tail <= the bound (the cell's
    ``bound_<i>``); inconclusive where the bound is vacuous (>= 1) at every t."""
    from scipy.stats import beta as beta_dist

    parts, summaries, measured = [], [], {}
    for r in results:
        p = r.cell.p
        bound = np.array([r.metrics[f"bound_{i}"] for i in range(len(B1_T))])
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


#: R^2 = sup_x k(x, x) by hand: 2 sum_i i^-2 = 2 zeta(2) = pi^2 / 3 for the B_2 kernel.
EQ6_R2_BY_HAND = {("poly", 1): math.pi**2 / 3}


def direct_eq6(d: float, n: int, lam: float, kernel: tuple) -> float:
    """Eq. (6) as printed, p = (32 d / delta + 2) log(n R^2 / (delta lambda)) with delta = 1/4,
    evaluated here by a second route, independent of :func:`theory.table1.eq6_rank` and of
    the kernel's ``sup_diag``: R^2 from :data:`EQ6_R2_BY_HAND` for ``kernel`` = (kdecay, krate),
    scalar arithmetic (math.log)."""
    return (32.0 * d / EQ6_DELTA + 2.0) * math.log(n * EQ6_R2_BY_HAND[kernel] / (EQ6_DELTA * lam))


def eq6_experiment(cell, estimators) -> dict:
    """Eq. (6)'s p (estimator ``eq6_rank``) at lambda*(n) on the grid (spectrum by estimator
    ``grid``; B_2 kernel, delta = 2 signal): d = df1 there; ``bound_formula``: p against
    :func:`direct_eq6` (relative)."""
    p = cell.p
    kern = PeriodicKernel(p["kdecay"], p["krate"])
    e = np.clip(estimators["grid"](kern, cell.n), 0.0, None)
    energy = grid_energy(periodic_signal(grid_design(cell.n), *SIGNAL))
    lam, _ = optimal_lambda(e, energy, cell.n, SIGMA2, log10_range=(-10.0, 1.0), grid_per_decade=8)
    d = float(dof_circulant(e, lam).d)
    p6 = float(estimators["eq6_rank"](d, cell.n, kern.sup_diag(), lam))
    return {"lam": lam, "d": d, "p6": p6,
            "bound_formula": _relative(p6, direct_eq6(d, cell.n, lam, (p["kdecay"], p["krate"])))}


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


def crowded_subset(X, p, rng):
    """The p points nearest x = 0.5 instead of a uniform subset (replaces Lemma B.1's sampling)."""
    return _crowded(X)[:p]


def practical_rank(d, n, R2, lam):
    """p = d ln n instead of Eq. (6): not the theorem's rank."""
    return d * np.log(n)


def loose_eq6_p(d, n, R2, lam):
    """A planted fault: Eq. (6)'s rank 10% larger than printed."""
    return 1.1 * eq6_p(d, n, R2, lam)


CLAIMS = [
    Claim(
        id="bach13.lemmaB1",
        source="Bach 2013, App. B.1, Lemma B.1",
        statement="λ_max[(1/n)Ψ^TΨ - (1/p)Ψ_I^TΨ_I] has a tail P(· > t) below "
                  "r exp(-(pt²/2)/(λ_max((1/n)Ψ^TΨ)(R² + t/3))) for all t > 0, any Ψ in R^(n×r) with rows of norm "
                  "<= R and I uniform from {1, ..., n} (printed {1, ..., p}); here Ψ has the proof's form with a fixed γ = 0.3 and r = 40 eigen-features, not the proof's γ = λδ/4",
        prediction="empirical tail below the bound at every t",
        data=f"uniform random design, n = {B1_N}, B_2 kernel; Ψ = Φ((1/n)Φ^TΦ + γ I)^(-1/2) for Φ the top r = "
             f"{B1_R} eigen-features of K; I uniform without replacement; no bandwidth rule",
        metric=f"empirical tail P(λ_max[...] > t) at {len(B1_T)} levels t in [0.2, 0.95] over repeated draws of I",
        metrics=("R2", "bound_formula", "lam_max", "q95")
        + tuple(f"{k}_{i}" for k in ("bound", "tail") for i in range(len(B1_T))),
        estimators={"uniform": column_subset, "bound": lemma_b1_bound},
        experiment=lemma_b1_experiment,
        grid=PerProfile(ci=_lemma_b1_grid(200), quick=_lemma_b1_grid(1000), full=_lemma_b1_grid(5000)),
        judge=AllOf(judge_lemma_b1, AllWithin(FORMULA_TOL, metrics=("bound_formula",),
                                              what="relative, against the direct evaluation")),
        tolerance=Tolerance(rule="Clopper-Pearson 99% lower limit of the tail <= bound at every t; inconclusive "
                                 "if the bound is vacuous everywhere; the bound judged within "
                                 f"{FORMULA_TOL:g} (relative) of its direct evaluation at every t",
                            evidence="the slack is the binomial sampling error of the tail (the bound itself is "
                                     "loose), so no tail can see a wrong constant in the bound; the bound judged "
                                     "is also evaluated directly from the printed statement (direct_lemma_b1, "
                                     "scalar arithmetic): it agreed to 3.6e-15 (relative, worst t) at ci; a bound "
                                     "10% too large (bound-off-by-10%) deviates by 0.10 there and fails, with no "
                                     "level t above either bound"),
        faults=(Fault("crowded-subset", "the p points nearest x = 0.5 instead of a uniform subset",
                      {"uniform": crowded_subset}),
                Fault("bound-off-by-10%", "Lemma B.1's bound 10% larger than printed (a wrong constant, which "
                      "only loosens the tail comparison)", {"bound": loose_lemma_b1_bound})),
    ),
    Claim(
        id="bach13.eq6",
        source="Bach 2013, Theorem 4.1, Eq. (6)",
        statement="Theorem 4.1's sufficient rank, Eq. (6), is larger than n at every n where exact KRR can be run "
                  "(ours: the paper does not say so; at λ* with δ = 1/4, B_2 kernel and ν_i = i^-4 it first drops "
                  "below n at n = 2^18)",
        prediction="p_6 = (32 d/δ + 2) log(n R²/(δλ*)) >= n for n <= 4096 (δ = 1/4); reported where it becomes < n",
        data="equispaced grid design (exact FFT spectrum), B_2 kernel, signal ν_i = i^-4, σ² = 1, at λ*; "
             "no bandwidth rule",
        metric="p_6 / n, with d = df1 (Eq. (5) on the grid) and R² = π²/3",
        metrics=("bound_formula", "d", "lam", "p6"),
        estimators={"grid": grid_spectrum, "eq6_rank": eq6_p},
        experiment=eq6_experiment,
        grid=PerProfile(ci=_eq6_grid(19), quick=_eq6_grid(20), full=_eq6_grid(24)),
        judge=AllOf(judge_eq6, AllWithin(FORMULA_TOL, metrics=("bound_formula",),
                                         what="relative, against the direct evaluation")),
        tolerance=Tolerance(rule="reported; the claim fails if Eq. (6) is not vacuous at a tested n <= 4096, or "
                                 f"if the rank judged is not within {FORMULA_TOL:g} (relative) of its direct "
                                 "evaluation",
                            evidence="worked example: d = 52, R² = π²/3, λ = 4.6e-3, n = 3200, δ = 1/4 gives "
                                     "p >= 1.07e5 >> n. A rank too large only makes Eq. (6) more vacuous, so the "
                                     "rank judged is also evaluated directly from the printed formula (direct_eq6, "
                                     "R² = π²/3 by hand): it agreed exactly (0.0, every n) at ci; a rank 10% too "
                                     "large (bound-off-by-10%, n <= 4096) deviates by 0.10 and fails, still "
                                     "vacuous; practical-rank deviates by up to 0.996"),
        faults=(Fault("practical-rank", "p = d ln n instead of Eq. (6)", {"eq6_rank": practical_rank},
                      keep=lambda c: c.n <= 2**14),
                Fault("bound-off-by-10%", "Eq. (6)'s rank 10% larger than printed (a wrong constant, which only "
                      "makes Eq. (6) more vacuous)", {"eq6_rank": loose_eq6_p}, keep=lambda c: c.n <= 2**12)),
    ),
]
