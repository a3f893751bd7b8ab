"""What the landmark claims share: the rules, the fits, ratio CIs, the comparison recipes
and the planted faults."""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from kpca_suite.kernels import Kernel, exact_leverage_scores
from kpca_suite.kernels.cholesky import cholesky_step
from kpca_suite.methods import FixedLandmarks, LeverageScoreLandmarks, NystromKPCA, UniformLandmarks
from kpca_suite.methods.landmarks import (KMeansLandmarks, PivotedCholeskyLandmarks, RecursiveLeverageLandmarks,
                                          _check_m, _sq_dist)
from kpca_suite.theory import FourierModel

from ...claim import Cell, CellList, Fault
from ...judging import collect, ratio_ci
from ...plots import save_figure
from ...probes import fitted_subspace

LINEAR = Kernel("linear")


THETA = 0.5


ALPHA = 1.5


STRATEGIES = ("uniform", "leverage", "recursive", "kmeans", "pivoted")


BASE = "uniform"


# "Significantly worse than uniform by more than MARGIN": the 95% CI of the ratio of seed
# means R_strategy / R_uniform lies above 1 + MARGIN. Evidence in the claims' Tolerance.
MARGIN = 0.10


N_BOOT = 2000


def uniform(m, s):
    """m rows uniformly without replacement (Sterge et al. 2020, Sec. 3.2)."""
    return UniformLandmarks(m)


def leverage(m, s):
    """m i.i.d. draws from the exact ridge leverage scores l_i(s), deduplicated
    (Sterge et al. 2020, Sec. 3.2.1, with exact scores)."""
    return LeverageScoreLandmarks(m, s=s, exact=True)


def recursive(m, s):
    """m distinct rows from recursively estimated ridge leverage scores (Musco & Musco 2017)."""
    return RecursiveLeverageLandmarks(m, s)


def kmeans(m, s):
    """The rows nearest the m k-means centres (Zhang, Tsang & Kwok 2008; k-means++ seeding)."""
    return KMeansLandmarks(m)


def pivoted(m, s):
    """The pivots of greedy pivoted incomplete Cholesky (Bach 2013, Sec. 4.4)."""
    return PivotedCholeskyLandmarks(m)


ESTIMATORS = {"uniform": uniform, "leverage": leverage, "recursive": recursive, "kmeans": kmeans,
              "pivoted": pivoted, "nystrom": NystromKPCA}


def fit_nystrom(nystrom, ell, kernel, X, idx):
    """Rank-l Nyström fit on the landmark rows ``idx``. If K_mm has numerical rank
    r < l (crowded or duplicated landmarks) the best Nyström projector has rank r:
    it is fitted on the same rows, so the returned estimator has k = r components."""
    landmarks = FixedLandmarks(tuple(int(i) for i in idx))
    est = nystrom(min(ell, len(idx)), kernel, landmarks=landmarks)
    try:
        return est.fit(X)
    except ValueError:
        rank = getattr(est, "effective_rank_", None)
        if rank is None or rank >= min(ell, len(idx)):
            raise
        return nystrom(rank, kernel, landmarks=landmarks).fit(X)


def _select(cell: Cell, estimators, X, kernel):
    """The landmark rows of the cell's strategy at its m, with s = n^-theta."""
    strategy = estimators[cell.method](cell.p["m"], cell.n ** -THETA)
    return np.asarray(strategy.select(X, kernel, cell.rng("landmarks")))


def _model(p) -> FourierModel:
    return FourierModel("poly", p["rate"], p["J"])


def population_experiment(cell: Cell, estimators) -> dict:
    """One strategy at one m on the Fourier model: the exact population error R(P)
    of the rank-l Nyström projector, R_{C,l} = sum_{i>l} lambda_i, their ratio, the
    number of distinct landmarks used and the fitted rank k."""
    p = cell.p
    model = _model(p)
    Phi = model.features(model.sample(cell.n, cell.rng()))
    idx = _select(cell, estimators, Phi, LINEAR)
    est = fit_nystrom(estimators["nystrom"], p["ell"], LINEAR, Phi, idx)
    R = model.reconstruction_error(fitted_subspace(est, Phi.shape[1], cell.rng("probe")))
    tail = model.tail(p["ell"])
    return {"R": R, "R_C": tail, "ratio": R / tail, "m_eff": float(len(idx)), "k": float(est.n_components)}


def _m_sweep_cells(n, ms, seeds, params, claim_id, options):
    """Every strategy x m x seed at one n."""
    return [Cell.make(claim_id, method, n, seed, m=m, **params)
            for method in STRATEGIES for m in ms for seed in range(seeds)]


def _m_sweep(n, ms, seeds, params, what) -> CellList:
    return CellList(functools.partial(_m_sweep_cells, n, tuple(ms), seeds, dict(params)),
                    f"{what}n = {n}, m in {tuple(ms)}, {len(STRATEGIES)} strategies, {seeds} seeds")


def _ratio_figure(results, verdict, outdir, ylabel, reference=None):
    """Left: seed-mean error vs m per strategy (min-max over seeds shaded).
    Right: R_strategy / R_uniform with its bootstrap 95% CI, lines at 1 and 1 + margin."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FormatStrFormatter

    methods = [s for s in STRATEGIES if any(r.cell.method == s for r in results)]
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(12, 4.6))
    ms, Yb = collect(results, "R", BASE, key=lambda c: c.p["m"])
    for k, s in enumerate(methods):
        x, Y = collect(results, "R", s, key=lambda c: c.p["m"])
        color = f"C{k}"
        ax.plot(x, np.nanmean(Y, axis=1), "o-", color=color, ms=4, label=s)
        ax.fill_between(x, np.nanmin(Y, axis=1), np.nanmax(Y, axis=1), color=color, alpha=0.12, lw=0)
        if s != BASE:
            st = np.array([ratio_ci(Y[j], Yb[j]) for j in range(len(x))])
            shift = 1 + 0.03 * (k - len(methods) / 2)
            bx.errorbar(x * shift, st[:, 0], yerr=[st[:, 0] - st[:, 1], st[:, 2] - st[:, 0]], fmt="o-",
                        color=color, ms=4, capsize=2, lw=1, label=f"{s} / {BASE}")
    if reference is not None:
        ax.axhline(reference, color="k", ls=":", lw=1.2, label="exact R_C,l")
    for a in (ax, bx):
        a.set_xscale("log", base=2)
        a.set_xticks(ms, [f"{v:g}" for v in ms])
        a.minorticks_off()
        a.set_xlabel("m (landmarks)")
        a.grid(True, which="both", alpha=0.25)
    ax.set_yscale("log")
    ax.yaxis.set_major_formatter(FormatStrFormatter("%.3g"))
    ax.yaxis.set_minor_formatter(FormatStrFormatter("%.3g"))
    ax.tick_params(axis="y", which="minor", labelsize=7)
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=8)
    bx.axhline(1.0, color="k", lw=1)
    bx.axhline(1 + MARGIN, color="#cf222e", ls="--", lw=1, label=f"1 + margin ({1 + MARGIN:.2f})")
    bx.set_ylabel(f"ratio to {BASE} (95% CI)")
    bx.legend(fontsize=8)
    fig.suptitle(f"{verdict.claim}: {verdict.status}")
    fig.tight_layout()
    return save_figure(fig, outdir, verdict.claim)


def _fault_cells(method, seeds, cell: Cell) -> bool:
    """A fault runs its own strategy's cells (and uniform's, the baseline) on the first seeds."""
    return cell.method in (BASE, method) and cell.seed < seeds


def _fault_keep(method, seeds):
    return functools.partial(_fault_cells, method, seeds)


FOURIER = (f"Fourier explicit-feature model on U[0,1): lambda_i = i^-{ALPHA:g}, J features, linear kernel on the "
           "feature rows (k-means runs in the J coordinates); exact population R(P) = sum_i lambda_i (1 - ||Q_i||^2)")


def smallest_residual(m, s):
    return SmallestResidualCholesky(m)


def snap_to_first(m, s):
    return SnapToFirstKMeans(m)


def top_leverage(m, s):
    return TopLeverageLandmarks(m, s)


FAULTS = (
    Fault("top-leverage", "the m largest exact leverage scores taken deterministically instead of drawn "
          "with p_i ∝ l_i: they sit together", {"leverage": top_leverage}),
    Fault("snap-to-first", "k-means whose snapping reads the first centre's distances for every centre: "
          "the m rows nearest one centre", {"kmeans": snap_to_first}),
    Fault("smallest-residual", "pivoted Cholesky pivoting on the smallest residual above the floor "
          "(argmin for argmax): near-copies of the first pivot", {"pivoted": smallest_residual}),
)


def _faults(seeds):
    keep = {"top-leverage": "leverage", "snap-to-first": "kmeans", "smallest-residual": "pivoted"}
    return tuple(Fault(f.name, f.description, f.estimators, keep=_fault_keep(keep[f.name], seeds)) for f in FAULTS)


@dataclass(frozen=True)
class TopLeverageLandmarks:
    """The m rows of largest exact ridge leverage score l_i(s), taken
    deterministically instead of drawn with p_i ∝ l_i: ``argsort(-l)[:m]`` for
    ``rng.choice(n, m, p=l / sum(l))``. The largest scores sit together (near
    x = 0 on the Fourier model, on the outlying images of digits)."""

    m: int
    s: float

    def select(self, X, kernel, random_state=None):
        m = _check_m(self.m, X.shape[0])
        scores = exact_leverage_scores(X, kernel, self.s)
        return np.sort(np.argsort(-scores, kind="stable")[:m])


@dataclass(frozen=True)
class SnapToFirstKMeans(KMeansLandmarks):
    """k-means whose snapping step reads the distances of the first centre for
    every centre (``D[0]`` for ``D[c]``): the landmarks are the m rows nearest one
    centre, a crowded set."""

    def select(self, X, kernel=None, random_state=None):
        C = self.centres(X, random_state)
        d = _sq_dist(C[:1], X)[0]
        return np.sort(np.argsort(d, kind="stable")[:self.m])


@dataclass(frozen=True)
class SmallestResidualCholesky:
    """Pivoted incomplete Cholesky that pivots on the smallest residual
    (``argmin`` for ``argmax``) among the rows whose residual is above
    ``tol`` max_i K_ii, i.e. on the row best explained by the span so far: every
    new landmark is a near-copy of the old ones. Stops early when no residual is
    above the floor (then fewer than m indices)."""

    m: int
    tol: float = 1e-12

    def select(self, X, kernel, random_state=None):
        n = X.shape[0]
        m = _check_m(self.m, n)
        residual = np.array(kernel.diag(X, validate=False), dtype=np.float64)
        floor = self.tol * residual.max()
        GT = np.zeros((m, n))  # the factor transposed, as cholesky_step takes it
        chosen = []
        for j in range(m):
            live = np.flatnonzero(residual > floor)
            if live.size == 0:
                break
            i = int(live[np.argmin(residual[live])])
            col = np.ascontiguousarray(kernel.block(X, X[i:i + 1], validate=False)[:, 0], dtype=np.float64)
            cholesky_step(GT, residual, col, j, i)
            chosen.append(i)
        return np.sort(np.asarray(chosen, dtype=np.int64))
