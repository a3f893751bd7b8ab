"""bach13.rank-rule: column sampling with p proportional to the degrees of freedom (a role claim),
and the helpers bach13.pivoting and bach13.rank-rule-gaussian share with it."""

from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass

import numpy as np

from kpca_suite.methods.krr import KernelRidge
from kpca_suite.theory.dof import smoother_risk

from ...adapters import NystromKRRRole, ours_nystrom_krr
from ...claim import Claim, Fault, Outcome, PerProfile, Tolerance
from ...judging import combine
from ...plots import safe_name, save_figure
from ...roles import EstimatorDefect, EstimatorRaised, Subject, Unsupported, build
from ._common import KERNEL_NAMES, SIGMA2, _RANDOM_DESIGN, _crowded, _per_kernel, _pyplot, _random_problem

# Kernels of the random-design claims: B_2, B_4 and exp(rho = 1), the cases with measured p_1%/d.
RANK_KERNELS = (("poly", 1), ("poly", 2), ("exp", 1.0))


# -- bach13.rank-rule (a role claim) --------------------------------------------------------

RANK_DRAWS = 5  # column draws per design for uniform sampling (E_I of Thm 4.1), in both claims below


RANK_RATIO_MAX = 1.01


RANK_MULTIPLES = (0.25, 0.5, 1.0, 2.0, 4.0)  # budgets p = ⌈c d⌉; the judge reads 1/4 and 4, the rest are reported


RANK_BAND = (0.25, 4.0)                     # p_1% / d, bracketed at p = ⌈d/4⌉ and ⌈4 d⌉


# Sec. 4.2's additional regularisation: the smallest per-(kernel, n) mean ratio at the budgets
# REGULARISING_KEYS must be below REGULARISING_MAX (L predicts better than K). Measured at ci
# (roots 0-4): 0.955-0.966, always B_2 (B_4 and exp(rho = 1) read 0.996-1.001); quick: see the claim.
REGULARISING_KEYS = ("2d", "4d", "rule")


REGULARISING_MAX = 0.995


# Relative singular value below which S Omega is rank-deficient: round-off of a p-column
# smoother reached 1.4e-13 (B_4, n = 200 at ci; numpy's default cut-off was 4.4e-14 there);
# scikit-learn's exact KernelRidge had its (p + 1)-th value >= 0.13 in every cell at ci.
RANK_TOL = 1e-8


RANK_KEYS = tuple(f"{c:g}d" for c in RANK_MULTIPLES) + ("rule",)


def rank_subject(kernel: str) -> Subject:
    """The role of the rank-rule claims: any KRR of column sampling or exact kind."""
    return Subject("krr", "uniform", centred=False, kernel=kernel,
                   budget="p = ⌈c d⌉ columns (c = 1/4, 1/2, 1, 2, 4) and p = ⌈d ln n⌉, d of Eq. (5) at λ*; "
                          "ridge = n λ*",
                   needs="fit(X, y) and predict(X) on the training points: the smoother S",
                   probe=(("budget", 16), ("ridge", 1e-2)), kinds=("nystrom", "exact"))


RANK_METRICS = (("d", "d_ave", "lam") + tuple(f"p_{k}" for k in RANK_KEYS) + tuple(f"ratio_{k}" for k in RANK_KEYS)
                + ("rank_0.25d",))


def rank_budgets(d, n) -> dict:
    """{key: p}: p = min(n, ceil(c d)) for every c of ``RANK_MULTIPLES`` (key "<c>d") and the
    theorem's rule p = min(n, ceil(d ln n)) (key "rule")."""
    out = {f"{c:g}d": min(n, math.ceil(c * d)) for c in RANK_MULTIPLES}
    out["rule"] = min(n, math.ceil(d * math.log(n)))
    return out


#: The CPU seconds the column-by-column smoother of a regressor that takes only 1-D targets may
#: take (estimated from its first fit, times n): beyond it the claim is n/a for that regressor,
#: with the estimate, rather than n fits per smoother for hours (2,101 s through `check` at ci).
ONE_D_SMOOTHER_SECONDS = 5.0


def smoother(est, X) -> np.ndarray:
    """The n x n smoother S of a linear regressor on its training points, f(X) = S y:
    ``predict(X)`` after ``fit(X, I_n)``, or column by column where ``fit`` refuses 2-D
    targets (ValueError or TypeError), n fits instead of one: the cost is said in a
    warning (kept and said once per claim by the runner), with how to avoid it, and when the
    first fit says the n take over :data:`ONE_D_SMOOTHER_SECONDS`, the regressor is refused
    (:class:`~suites.roles.Unsupported`: the claim is n/a for it, with the estimate)."""
    n = X.shape[0]
    try:
        S = np.asarray(est.fit(X, np.eye(n)).predict(X))
    except (EstimatorDefect, ValueError, TypeError) as e:  # a defect of the output, or a refusal of 2-D y
        refusal = e.__cause__ if isinstance(e, EstimatorRaised) else e
        if isinstance(refusal, EstimatorDefect) or not isinstance(refusal, (ValueError, TypeError)):
            raise
        t0 = time.perf_counter()
        first = np.ravel(est.fit(X, np.eye(n)[0]).predict(X))
        seconds = n * (time.perf_counter() - t0)
        if seconds > ONE_D_SMOOTHER_SECONDS:
            raise Unsupported(f"fit takes only 1-D targets (it refused an (n, n) y: {e}), so each smoother needs "
                              f"n = {n} fits, about {seconds:.0f} s here, over the {ONE_D_SMOOTHER_SECONDS:g} s one may "
                              "take; accept an (n, outputs) y to make it one fit")
        warnings.warn(f"fit refused 2-D targets ({e}); the smoother takes n = {n} fits of one column each, "
                      f"about {seconds:.1f} s for this cell: accept an (n, outputs) y to make it one fit",
                      RuntimeWarning)
        S = np.column_stack([first] + [np.ravel(est.fit(X, e).predict(X)) for e in np.eye(n)[1:]])
    if S.shape != (n, n):
        raise EstimatorDefect(f"predict(X) after fit(X, I_n) returned shape {S.shape}; n = {n} "
                              "targets give an (n, n) array")
    return S


def rank_experiment(cell, estimators) -> dict:
    """Mean risk ratio E_I[risk(S)] / risk(K) at each budget of :func:`rank_budgets`, for the
    KRR implementation ``estimators[cell.method]`` ("uniform") read through its role only.

    For each budget p and each of ``RANK_DRAWS`` draws j (random_state = the cell's
    "columns-j" stream, the same for every implementation): make(p, kernel, n lambda*,
    random_state), its smoother S (:func:`smoother`) and the exact risk of S, bias + variance
    of :func:`theory.dof.smoother_risk`; ``ratio_<key>`` is the mean over the draws of risk(S) / risk(K),
    ``p_<key>`` the budget. ``rank_0.25d`` is min(rank S, p + 1) at p = ⌈d/4⌉ (the number of singular values of
    S Omega above ``RANK_TOL`` times the largest, Omega Gaussian n x (p + 1)): above p, the implementation does not confine
    itself to p columns. Also d (Eq. (5)) and d_ave at lambda*."""
    pr = _random_problem(cell)
    n, X, z, lam = cell.n, pr["X"], pr["z"], pr["lam"]
    d = float(pr["dof"].d)
    out = {"d": d, "d_ave": float(pr["dof"].d_ave), "lam": lam}
    for key, p in rank_budgets(d, n).items():
        ratios, ranks = [], []
        for j in range(RANK_DRAWS):
            est = build(estimators[cell.method], "krr", cell, budget=p, kernel=pr["kern"], ridge=n * lam,
                        random_state=cell.seed_int(f"columns-{j}"))
            S = smoother(est, X)
            ratios.append(sum(smoother_risk(S, z, SIGMA2)) / pr["risk"])
            if key == "0.25d":
                omega = cell.rng(f"rank-{j}").standard_normal((n, min(p + 1, n)))
                sv = np.linalg.svd(S @ omega, compute_uv=False)
                ranks.append(int(np.sum(sv > RANK_TOL * sv[0])))
        out.update({f"ratio_{key}": float(np.mean(ratios)), f"p_{key}": float(p)})
        if ranks:
            out[f"rank_{key}"] = float(max(ranks))
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
    risk(S)/risk(K): at p = ceil(d ln n) <= 1.01 (Thm 4.1's rule, 1% of risk); at p = ceil(4 d)
    <= 1.01 and at p = ceil(d / 4) > 1.01, i.e. p_1%/d in [1/4, 4] at every n (p proportional
    to d, bracketed directly). The last check is left out when a smoother at p = ceil(d / 4)
    has rank above p (the implementation is not confined to the columns granted). Point
    checks on exact risks: never inconclusive."""
    means = _rank_means(results)
    rule_key = max(means, key=lambda k: means[k]["rule"])
    high_key = max(means, key=lambda k: means[k]["4d"])
    low_key = min(means, key=lambda k: means[k]["0.25d"])
    rule, high, low = means[rule_key]["rule"], means[high_key]["4d"], means[low_key]["0.25d"]
    parts = ["holds" if rule <= RANK_RATIO_MAX else "fails", "holds" if high <= RANK_RATIO_MAX else "fails"]
    over = sum(1 for r in results if r.metrics["rank_0.25d"] > r.metrics["p_0.25d"])
    inside = sum(1 for m in means.values() if m["4d"] <= RANK_RATIO_MAX < m["0.25d"])
    summary = (f"mean risk ratio risk(S)/risk(K) per (kernel, n): at p = ⌈d ln n⌉ max {rule:.4f} "
               f"({_group_name(rule_key)}; <= 1.01); at p = ⌈4d⌉ max {high:.4f} ({_group_name(high_key)}; <= 1.01)")
    if over:  # not confined to p columns (an exact solver): p = ⌈d/4⌉ says nothing about it
        summary += (f"; the smoother has rank above p = ⌈d/4⌉ in {over} of {len(results)} cells (more than the "
                    "columns granted, as an exact solver): judged at p = ⌈d ln n⌉ and ⌈4d⌉ only")
    else:
        parts.append("holds" if low > RANK_RATIO_MAX else "fails")
        by_kernel = {}
        for k, m in means.items():
            by_kernel.setdefault(KERNEL_NAMES[k[0], k[1]], []).append(f"n={k[2]}: {_bracket(m)}")
        summary += (f"; at p = ⌈d/4⌉ min {low:.3f} ({_group_name(low_key)}; > 1.01): p_1%/d in [1/4, 4] at "
                    f"{inside} of {len(means)} (kernel, n); p_1%/d bracketed by the multiples: "
                    + "; ".join(f"{name} {', '.join(v)}" for name, v in by_kernel.items()))
    measured = {"max_ratio_at_rule": rule, "max_ratio_at_4d": high, "min_ratio_at_d/4": low,
                "groups_inside_band": inside, "cells_above_budget_at_d/4": over}
    for k, m in means.items():
        measured.update({f"{_group_name(k)} ratio_{key}": v for key, v in m.items()})
    return Outcome(combine(parts), summary, [], measured,
                   {"ratio_at_rule": f"<= {RANK_RATIO_MAX}", "ratio_at_4d": f"<= {RANK_RATIO_MAX}",
                    "ratio_at_d/4": f"> {RANK_RATIO_MAX}", "p1_over_d": list(RANK_BAND)})


def judge_rank_regularising(results, profile) -> Outcome:
    """:func:`judge_rank`, plus Sec. 4.2's additional regularisation for column samplers (smoothers of
    rank <= p at p = ceil(d/4); exact solvers are not judged on it): the smallest mean ratio over
    (kernel, n) at p = ceil(2 d), ceil(4 d), ceil(d ln n) is at most ``REGULARISING_MAX`` (< 1: L
    predicts better than K somewhere, with K's lambda*)."""
    out = judge_rank(results, profile)
    if any(r.metrics["rank_0.25d"] > r.metrics["p_0.25d"] for r in results):
        return out
    means = _rank_means(results)
    key, budget = min(((k, b) for k in means for b in REGULARISING_KEYS), key=lambda kb: means[kb[0]][kb[1]])
    reg = means[key][budget]
    out.status = combine([out.status, "holds" if reg <= REGULARISING_MAX else "fails"])
    out.summary += (f"; smallest mean ratio at p = ⌈2d⌉, ⌈4d⌉, ⌈d ln n⌉ {reg:.4f} ({_group_name(key)}, "
                    f"p = {'⌈d ln n⌉' if budget == 'rule' else '⌈' + budget + '⌉'}; <= {REGULARISING_MAX}: L predicts "
                    "better than K, Sec. 4.2's additional regularisation)")
    out.measured["min_ratio_at_2d_4d_rule"] = reg
    out.predicted["min_ratio_at_2d_4d_rule"] = f"<= {REGULARISING_MAX}"
    return out


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
    axes[0][0].set_ylabel("mean risk(S) / risk(K) - 1")
    axes[0][0].legend(fontsize=7)
    fig.suptitle(f"{verdict.claim} — {verdict.status}: uniform columns, risk ratio at p = c d (dotted: 1%)")
    return save_figure(fig, outdir, safe_name(verdict.claim).replace(".", "_") + "_ratios")


@dataclass(frozen=True)
class CrowdedColumns:
    """A landmark strategy (``select``) that takes the m points nearest x = 0.5."""

    m: int

    def select(self, X, kernel, random_state=None) -> np.ndarray:
        return np.sort(_crowded(X)[:self.m])


def crowded_columns(budget, kernel, ridge, random_state):
    """A ``krr`` factory whose ``budget`` columns are the points nearest x = 0.5 (replaces
    uniform column sampling in bach13.rank-rule)."""
    return NystromKRRRole(budget, kernel, ridge, random_state, sampling=CrowdedColumns(budget))


class ExactFromSixteenth(NystromKRRRole):
    """Uniform columns while the budget is below n/16, exact KRR (every column) from there on:
    a solver switch that drops the columns once they are a sizable fraction of n."""

    def fit(self, X, y):
        n = np.shape(X)[0]
        if self.budget < n / 16:
            return super().fit(X, y)
        self.model_ = KernelRidge(self.kernel, self.ridge / n).fit(X, y)
        return self


def exact_from_sixteenth(budget, kernel, ridge, random_state):
    """A ``krr`` factory of :class:`ExactFromSixteenth` (replaces the uniform sampler)."""
    return ExactFromSixteenth(budget, kernel, ridge, random_state)


def eighth_budget(budget, kernel, ridge, random_state):
    """Uniform columns, but ceil(budget / 8) of them whatever the budget: p proportional to
    the budget (so to d) with a constant 8 times too small (replaces the uniform sampler)."""
    return NystromKRRRole(math.ceil(budget / 8), kernel, ridge, random_state)


CLAIMS = [
    Claim(
        id="bach13.rank-rule",
        source="Bach 2013, Thm. 4.1 and Sec. 4.4 (p linear in d); Sec. 5, Fig. 2 (right); Sec. 4.2 (additional "
               "regularisation)",
        statement="Uniform column sampling needs p proportional to d: p_1%/d stays O(1) across n, and "
                  "p = ⌈d ln n⌉ loses at most 1% of risk (that rule is ours: Eq. (6)'s budget is vacuous, "
                  "bach13.eq6). Not Fig. 2 (right)'s problems (ν_i = i^-16, kernels β = 1, 4, 8): signal "
                  "ν_i = i^-4 (δ = 2) and kernels B_2, B_4 (β = 1, 2) and exp(ρ=1), where p_1%/d was measured; "
                  "δ = 8 makes d grow as n^(1/16) only with β = 4 and 8 (d_ave ≈ 2-4 up to n = 2^20: "
                  "bach13.fig2-rates)",
        prediction="mean risk ratio <= 1.01 at p = ⌈d ln n⌉ and at p = ⌈4d⌉, > 1.01 at p = ⌈d/4⌉ "
                   "(p_1%/d in [1/4, 4]) at every (kernel, n); for column samplers, the smallest mean ratio at "
                   "p = ⌈2d⌉, ⌈4d⌉, ⌈d ln n⌉ over (kernel, n) <= 0.995 (L predicts better than K: Sec. 4.2's "
                   "'additional regularizing effect')",
        data=_RANDOM_DESIGN + "; B_2, B_4 and exp(ρ=1) kernels; KRR on p uniformly sampled columns "
             f"(incomplete Cholesky), fitted afresh at each budget, {RANK_DRAWS} draws per design and budget",
        metric="mean over draws and designs of the exact risk ratio risk(S)/risk(K) of the smoother S (read "
               "from fit(X, I_n), predict(X)) at ridge n λ*, at p = ⌈c d⌉ (c = 1/4, 1/2, 1, 2, 4) and "
               "p = ⌈d ln n⌉; d (Eq. 5) at λ*",
        metrics=RANK_METRICS,
        estimators={"uniform": ours_nystrom_krr},
        experiment=rank_experiment,
        subject=rank_subject("periodic"),
        grid=PerProfile(ci=_per_kernel(RANK_KERNELS, (50, 100, 200, 400), 5, ("uniform",)),
                        quick=_per_kernel(RANK_KERNELS, (50, 100, 200, 400), 5, ("uniform",)),
                        full=_per_kernel(RANK_KERNELS, (200, 400, 800, 1600, 3200), 20, ("uniform",))),
        judge=judge_rank_regularising,
        tolerance=Tolerance(
            rule="per (kernel, n), the mean ratio (over designs and draws) <= 1.01 at p = ⌈d ln n⌉ and at "
                 "p = ⌈4d⌉, > 1.01 at p = ⌈d/4⌉; exact risks, point checks. An implementation whose smoother has "
                 "rank above p at p = ⌈d/4⌉ (not confined to the columns granted: an exact solver) is judged at "
                 "⌈d ln n⌉ and ⌈4d⌉ only; otherwise also the smallest mean ratio at ⌈2d⌉, ⌈4d⌉, ⌈d ln n⌉ over "
                 "(kernel, n) <= 0.995",
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
                     "judged. Correct variants written outside (tests/variants, ci, roots 0-4: Cholesky, eigh, CG, "
                     "least squares, columns with replacement): per (kernel, n) means at worst 1.0038 at ⌈d ln n⌉ "
                     "(with replacement, root 2) and 1.0039 at ⌈4d⌉ (least squares, root 4), an excess 2.6 times "
                     "under the level's 0.01, which crowded-columns' 0.024 exceeds 2.4 times; at ⌈d/4⌉ the column "
                     "samplers read 2.05 at least. Sec. 4.2's regularisation (smallest mean ratio at ⌈2d⌉, ⌈4d⌉, ⌈d ln n⌉ over "
                     "(kernel, n), always B_2 at ⌈2d⌉): 0.955-0.975 at ci and 0.953-0.976 at quick (roots 0-4), "
                     "0.02 or more under the level 0.995; B_4 and exp(ρ=1) alone read 0.996-1.001; the fault "
                     "exact-from-sixteenth reads 1.0000. Quick runs ci's grid (n = 50..400, 5 designs) since "
                     "2026-11-29, so its evidence is ci's above; the quick numbers are of its former grid (n = "
                     "50..800, 6 designs), whose n = 800 cells were 9 of the main job's 410 cell-s."),
        faults=(Fault("crowded-columns", "the p columns nearest x = 0.5 instead of uniform ones",
                      {"uniform": crowded_columns},
                      keep=lambda c: c.p["kdecay"] == "poly" and c.seed < 2 and c.n <= 200),
                Fault("eighth-budget", "uniform columns, but only ⌈p/8⌉ of the p granted: still p ∝ d, with "
                      "a constant 8 times too small (a near miss)", {"uniform": eighth_budget},
                      keep=lambda c: c.seed < 2),
                Fault("exact-from-sixteenth", "uniform columns below n/16, exact KRR from there on: no "
                      "regularising effect left at the large budgets", {"uniform": exact_from_sixteenth},
                      keep=lambda c: c.p["kdecay"] == "poly" and c.p["krate"] == 1 and c.seed == 0 and c.n <= 50)),
        figure=rank_figure,
    ),
]
