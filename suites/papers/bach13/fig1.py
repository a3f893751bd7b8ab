"""bach13.fig1: the risk curves of Figure 1."""

from __future__ import annotations

import numpy as np
from scipy.sparse.linalg import eigsh

from kpca_suite.kernels.cholesky import incomplete_cholesky

from ...claim import Claim, Fault, Grid, Outcome, PerProfile, Tolerance
from ...judging import combine
from ...plots import save_figure
from ._common import (SIGMA2, _pyplot, _random_problem, _settled_at_most, nested_risks, pivot_order, random_order,
                      unorthogonalised_cholesky)

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
    ks = np.unique(np.geomspace(1, r, FIG1_GRID).astype(int))  # the curves at these p (NaN gap beyond 2 p_op)
    out.update({"p": ks.astype(float), "trace": tr[ks - 1], "op": np.array([op(k) for k in ks]),
                "gap": np.array([gap[k - 1] if k <= cap else np.nan for k in ks])})
    return out


def judge_fig1(results, profile) -> Outcome:
    """Uniform and pivoted: the mean over designs of p for a 1% prediction gap < the mean of
    p for a 1% operator-norm error (the paper's Fig. 1 plots average curves). The count of
    designs where it holds one by one is reported, not judged: a single design's gap curve
    can settle late (p_gap 85 against p_op 77; 4 of 60 designs over root seeds 0-9)."""
    parts, summaries, measured = [], [], {}
    for method in ("random", "pivot"):
        rows = [r for r in results if r.cell.method == method]
        if not rows:
            continue
        pg = np.array([r.metrics["p_gap"] for r in rows])
        po = np.array([r.metrics["p_op"] for r in rows])
        pt = np.array([r.metrics["p_trace"] for r in rows])
        ok = int((pg < po).sum())
        ok_mean = bool(pg.mean() < po.mean())  # NaN compares False: fails
        parts.append("holds" if ok_mean else "fails")
        name = "uniform" if method == "random" else "pivoted"
        summaries.append(f"{name}: mean p for a 1% prediction gap {pg.mean():.1f} (max {pg.max():.0f}) "
                         f"{'<' if ok_mean else 'NOT <'} mean p "
                         f"for 1% operator-norm error {po.mean():.1f} (min {po.min():.0f}); in {ok}/{len(rows)} "
                         f"designs one by one; 1% trace-norm error at p = {pt.mean():.1f}")
        measured.update({f"{name} p_gap": float(pg.mean()), f"{name} p_op": float(po.mean()),
                         f"{name} p_trace": float(pt.mean())})
    return Outcome(combine(parts), "; ".join(summaries), [], measured, {"p_gap < p_op": "on the mean over designs"})


def fig1_figure(results, verdict, outdir):
    """The paper's Fig. 1: relative errors against p, uniform (left) and pivoted (right)."""
    plt = _pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for ax, method in zip(axes, ("random", "pivot")):
        rows = [r for r in results if r.cell.method == method]
        if not rows:
            continue
        ks = sorted({int(k) for r in rows for k in r.metrics["p"]})
        curves = (("trace", "C0", "‖K-L‖_tr / ‖K‖_tr"), ("op", "C2", "‖K-L‖_op / ‖K‖_op"),
                  ("gap", "C3", "relative prediction gap"))
        for key, color, label in curves:
            vals = np.array([[dict(zip(r.metrics["p"].astype(int), r.metrics[key])).get(k, np.nan) for k in ks]
                             for r in rows])
            mean = np.full(len(ks), np.nan)  # the gap is NaN beyond 2 p_op in every draw: left undrawn
            seen = np.isfinite(vals).any(axis=0)
            mean[seen] = np.nanmean(vals[:, seen], axis=0)
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


CLAIMS = [
    Claim(
        id="bach13.fig1",
        source="Bach 2013, Fig. 1",
        statement="With n = 400 and a low-order polynomial eigen-decay, as p grows the relative prediction gap falls "
                  "much faster than the relative matrix error in trace and operator norms, for random columns (left) "
                  "and pivoted incomplete Cholesky (right) (judged against the operator norm, which reaches 1% with "
                  "fewer columns here; the trace norm reported); the paper gives neither the signal nor λ: ν_i = i^-4 "
                  "and λ* are the suite's",
        prediction="p for a 1% prediction gap < p for 1% operator-norm error",
        data=f"uniform random design, n = {FIG1_N}, B_2 kernel (eigenvalues ~ i^-2), signal ν_i = i^-4, σ² = 1, "
             f"at λ*; nested columns in a random order ({FIG1_DRAWS} draws averaged) or by column pivoting; "
             "no bandwidth rule",
        metric="p from which on each mean curve stays <= 1%: relative prediction gap (risk(L_p) - risk(K)) / "
               "risk(K), ||K - L_p||_op / ||K||_op, ||K - L_p||_tr / ||K||_tr",
        metrics=("d", "gap", "op", "p", "p_gap", "p_op", "p_trace", "rank", "trace"),
        estimators={"random": random_order, "pivot": pivot_order, "cholesky": incomplete_cholesky},
        experiment=fig1_experiment,
        grid=PerProfile(ci=_fig1_grid(6), quick=_fig1_grid(6), full=_fig1_grid(20)),
        judge=judge_fig1,
        tolerance=Tolerance(rule="on the mean over designs, uniform and pivoted",
                            evidence="the paper's Fig. 1 shows the mean gap curve reaching 1% well before both "
                                     "matrix errors. Judged design by design with 3 designs, the claim failed under 2 "
                                     "of 9 independent root seeds (python -m tests.decisiveness), a single design's "
                                     "gap settling late (p_gap 85 against p_op 77); on the mean over 6 designs, "
                                     "roots 0-9: uniform mean p_gap 22.5 .. 52.2 against mean p_op 78.8 .. 87.0, "
                                     "designs one by one 4/6 .. 6/6; pivoted p_gap 12.3 .. 14.0 against p_op 31.7 .. "
                                     "33.3 (roots 0-1)"),
        faults=(Fault("unorthogonalised-cholesky", "an incomplete Cholesky that does not subtract the previous "
                      "columns, so G G^T is not L", {"cholesky": unorthogonalised_cholesky},
                      keep=lambda c: c.seed == 0),),
        figure=fig1_figure,
    ),
]
