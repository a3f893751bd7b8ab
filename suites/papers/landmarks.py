"""landmarks: landmark selection strategies for Nyström KPCA side by side, a
comparison study of this suite (not one paper's theorem).

The strategies are those of :mod:`methods.landmarks`, each behind a factory
``(m, s) -> strategy`` that a planted fault may replace:

``uniform``    :class:`UniformLandmarks` (Sterge et al. 2020, plain NY-KPCA);
``leverage``   :class:`LeverageScoreLandmarks` with exact ridge leverage scores
               l_i(s) = [K (K + n s I)^{-1}]_ii, m i.i.d. draws, deduplicated (Sec. 3.2.1);
``recursive``  :class:`RecursiveLeverageLandmarks`, scores estimated by recursive
               halving without the n x n matrix (Musco & Musco 2017);
``kmeans``     :class:`KMeansLandmarks`, k-means++ and Lloyd, centres snapped to rows;
``pivoted``    :class:`PivotedCholeskyLandmarks`, the pivots of greedy incomplete
               Cholesky (Bach 2013, Sec. 4.4).

The ridge level of both leverage rules is s = n^-theta, theta = 1/2 (the t of
Sterge et al.'s Corollary 4.2 for theta < 1). The Nyström class is the estimator
``nystrom`` (:class:`NystromKPCA` on the selected rows, :class:`FixedLandmarks`).

Population claims run on the Fourier explicit-feature model of sterge20
(:class:`theory.FourierModel`): features sqrt(lambda_i) psi_i(x) on U[0,1), linear
kernel on the feature rows, so every strategy sees the J feature coordinates
(k-means runs in them) and the population error R(P) = sum_i lambda_i (1 - ||Q_i||^2)
of a fitted projector with orthonormal basis Q is exact. Polynomial decay
lambda_i = i^-1.5 (alpha = 1.5, not sterge20's 2): with l = n^(theta/alpha) the
rate grid is n = l^3, so m = n^theta ln n stays below J / 2 at a cost that keeps
k-means in J dimensions within seconds.

The comparison is paired: every strategy of a cell sees the same sample for the
same seed (the data stream of a cell ignores the method), and the ratio
R_strategy / R_uniform is a ratio of seed means with a bootstrap 95% CI that
resamples the seeds jointly.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from kpca_suite.kernels import Kernel, median_gamma
from kpca_suite.methods import FixedLandmarks, LeverageScoreLandmarks, NystromKPCA, UniformLandmarks
from kpca_suite.methods.landmarks import KMeansLandmarks, PivotedCholeskyLandmarks, RecursiveLeverageLandmarks
from kpca_suite.theory import FourierModel, octaves, poly_grid, smallest_n

from ..claim import Cell, CellList, Claim, Fault, Grid, Outcome, Paper, PerProfile, Tolerance
from ..judging import AllOf, SlopeInBand, collect, combine
from ..plots import save_figure
from ..probes import fitted_subspace
from ._landmarks_faults import smallest_residual, snap_to_first, top_leverage
from .sterge20 import RATIO_FLOOR

PAPER = Paper(
    key="landmarks",
    citation="Landmark selection for Nyström KPCA, a comparison study of this suite (after Sterge et al. "
             "2020 Sec. 3.2.1; Bach 2013; Musco & Musco 2017; Rudi et al. 2018)",
    errata="""\
- Not a paper: the claims compare the landmark rules of `methods.landmarks` on one population model
  and one data set. The references are A. Sterge, B. Sriperumbudur, L. Rosasco, A. Rudi (2020), 'Gain
  with no pain', AISTATS (uniform and ridge-leverage-score Nyström KPCA, Sec. 3.2.1); F. Bach (2013),
  'Sharp analysis of low-rank kernel matrix approximations', COLT (pivoted incomplete Cholesky, Sec.
  4.4); C. Musco, C. Musco (2017), 'Recursive sampling for the Nyström method', NeurIPS (recursive
  ridge leverage scores); A. Rudi, D. Calandriello, L. Carratino, L. Rosasco (2018), 'On fast leverage
  score sampling and optimal learning', NeurIPS (the Nyström score estimate at a fixed ridge);
  K. Zhang, I. Tsang, J. Kwok (2008), 'Improved Nyström low-rank approximation and error analysis',
  ICML (k-means centres as landmarks).
- Landmarks are row indices (the protocol of every estimator here). k-means centres are therefore
  snapped to distinct data rows (each centre, closest first, takes its nearest free row); Zhang et al.
  use the centres themselves.
- Exact leverage sampling draws m times with replacement and drops duplicates, so it uses fewer
  distinct landmarks than the others at the same m (at m = 128 of n = 512, about 112): part of its
  small deficit at large m. The recursive rule draws m distinct rows.
- The recursive sampler is a fixed-budget form of Musco & Musco's Algorithm 2 at a fixed ridge
  n_t s per level (their code picks the ridge from the spectrum and oversamples by a log factor);
  its scores are within the constant factor their analysis allows (measured in tests/test_landmarks.py).
- On both data sets the ridge leverage scores are nearly uniform (max / min 1.4 on the Fourier model,
  2.5 on digits at s = n^-1/2), so leverage sampling is close to uniform sampling with replacement:
  it can only tie with uniform here, and a leverage bug that keeps the draw random (scores inverted)
  cannot be detected.
- Pivoted Cholesky is deterministic and greedy ('an approximate greedy algorithm whose analysis remains
  an open problem', Bach 2013): it takes the row worst explained by the span so far. On the Fourier
  model that spreads the landmarks evenly; on digits it takes outlying images first and loses to
  uniform sampling at small m.
- alpha = 1.5, not sterge20's 2: the rate grid must keep m = n^(1/2) ln n below J / 2 with k-means
  running in the J feature coordinates; alpha = 2 needs n = 4096, m = 533, J >= 1024 at the top of the
  grid, about ten times the cost.
""",
)

LINEAR = Kernel("linear")
THETA = 0.5
ALPHA = 1.5
STRATEGIES = ("uniform", "leverage", "recursive", "kmeans", "pivoted")
BASE = "uniform"
# "Significantly worse than uniform by more than MARGIN": the 95% CI of the ratio of seed
# means R_strategy / R_uniform lies above 1 + MARGIN. Evidence in the claims' Tolerance.
MARGIN = 0.10
N_BOOT = 2000


# ---------------------------------------------------------------------- estimators

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


# ---------------------------------------------------------------------- Fourier population experiments

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


# ---------------------------------------------------------------------- digits experiment

@functools.lru_cache(maxsize=1)
def _digits_rows() -> np.ndarray:
    """scikit-learn's digits, read once per process (reading the file costs more
    than a small cell), read-only."""
    from ..datasets import load_digits_data

    X, _ = load_digits_data()
    X.setflags(write=False)
    return X


@functools.lru_cache(maxsize=8)
def _digits_sample(claim, n, seed, scale):
    """The n rows of a seed (from the cell's data stream, which depends on the claim,
    seed and n only) and their median-heuristic gamma: shared by the cells of every
    strategy and m of that seed in a process, since the bandwidth costs more than
    a small cell."""
    X_all = _digits_rows()
    rows = np.sort(Cell(claim, "", n, seed).rng().choice(len(X_all), size=n, replace=False))
    X = X_all[rows]
    return X, median_gamma(X, scale)


def digits_experiment(cell: Cell, estimators) -> dict:
    """One strategy at one m on n rows of scikit-learn's digits (a uniform subset
    drawn from the cell's data stream; all 1797 rows at n = 1797): the in-sample
    error of the rank-l Nyström approximation, eq. (19) of Sterge et al. 2020,
    R_hat(l) = (1/n) tr K - sum_{j <= l} lambda_hat_{j,m}; Gaussian kernel with the
    median heuristic gamma = 1 / median ||x - y||^2 (``median_gamma(X, 1.0)``)."""
    X, gamma = _digits_sample(cell.claim, cell.n, cell.seed, cell.p["scale"])
    X = X.copy()
    kernel = Kernel("gaussian", gamma=gamma)
    idx = _select(cell, estimators, X, kernel)
    est = fit_nystrom(estimators["nystrom"], cell.p["ell"], kernel, X, idx)
    R = float(est.trace_ - np.sum(est.eigenvalues_))
    return {"R": R, "m_eff": float(len(idx)), "k": float(est.n_components)}


# ---------------------------------------------------------------------- sweeps

def _m_sweep_cells(n, ms, seeds, params, claim_id, options):
    """Every strategy x m x seed at one n."""
    return [Cell.make(claim_id, method, n, seed, m=m, **params)
            for method in STRATEGIES for m in ms for seed in range(seeds)]


def _m_sweep(n, ms, seeds, params, what) -> CellList:
    return CellList(functools.partial(_m_sweep_cells, n, tuple(ms), seeds, dict(params)),
                    f"{what}n = {n}, m in {tuple(ms)}, {len(STRATEGIES)} strategies, {seeds} seeds")


VS_M_L = 8
VS_M_MS = (8, 16, 32, 64, 128)


def _vs_m_grid(n, J, seeds, ms=VS_M_MS) -> CellList:
    params = dict(rate=ALPHA, J=J, ell=VS_M_L)
    return _m_sweep(n, ms, seeds, params, f"Fourier i^-{ALPHA:g}, J = {J}, l = {VS_M_L}, ")


DIGITS_L = 10
DIGITS_MS = (16, 32, 64, 128, 256)
DIGITS_SCALE = 1.0


def _digits_grid(n, seeds, ms=DIGITS_MS) -> CellList:
    params = dict(ell=DIGITS_L, scale=DIGITS_SCALE)
    return _m_sweep(n, ms, seeds, params, f"digits, l = {DIGITS_L}, ")


RATE_SEEDS = PerProfile(ci=5, quick=10, full=20)
RATE_ELLS = PerProfile(ci=range(3, 11), quick=range(3, 12), full=range(3, 17))  # n = l^3: 27..1000 / 1331 / 4096
RATE_J = PerProfile(ci=512, quick=768, full=2048)


def _m_rate(n):
    """m = ceil(n^theta ln n) (Corollary 4.2, theta = 1/2), at most n."""
    return min(n, math.ceil(n ** THETA * math.log(n)))


def _rate_params(ell_of, n):
    return dict(ell=ell_of[n], m=_m_rate(n))


def _rate_grid(profile) -> Grid:
    """l on an integer grid, n = l^(alpha/theta) = l^3, m = ceil(n^theta ln n), every strategy."""
    ells = list(RATE_ELLS[profile])
    ns = tuple(int(n) for n in poly_grid(ells, ALPHA, THETA))
    J = RATE_J[profile]
    assert octaves(ns) >= 5, "rate fits need at least 5 octaves of n"
    assert _m_rate(ns[-1]) <= J // 2, "m must stay below J / 2"
    return Grid(sizes=ns, seeds=RATE_SEEDS[profile], params=dict(rate=ALPHA, J=J),
                per_size=functools.partial(_rate_params, dict(zip(ns, ells))), methods=STRATEGIES,
                describe=f"Fourier i^-{ALPHA:g}: l = {ells[0]}..{ells[-1]}, n = l^3 = {ns[0]}..{ns[-1]}, "
                         f"m = ceil(n^(1/2) ln n) <= {_m_rate(ns[-1])}, J = {J}, {len(STRATEGIES)} strategies, "
                         f"{RATE_SEEDS[profile]} seeds")


# ---------------------------------------------------------------------- judging: ratio to uniform

def ratio_ci(Y, Yb, n_boot=N_BOOT, random_state=0):
    """Ratio of seed means mean(Y) / mean(Yb) of paired (seeds,) arrays and its
    bootstrap 95% percentile CI (seeds resampled jointly, with replacement)."""
    Y, Yb = np.asarray(Y, float), np.asarray(Yb, float)
    ok = np.isfinite(Y) & np.isfinite(Yb)
    Y, Yb = Y[ok], Yb[ok]
    rng = np.random.default_rng(random_state)
    idx = rng.integers(0, len(Y), size=(n_boot, len(Y)))
    boot = Y[idx].mean(axis=1) / Yb[idx].mean(axis=1)
    lo, hi = np.percentile(boot, [2.5, 97.5])
    return float(Y.mean() / Yb.mean()), float(lo), float(hi)


def _effect(cls, r, lo, hi) -> str:
    """'17% [13%, 21%]': the gain (beats) or loss (worse) against the baseline, in
    percent with 0, 1 or 2 decimals as the effect is >= 10%, >= 1% or smaller."""
    v = (1 - r, 1 - hi, 1 - lo) if cls == "beats" else (r - 1, lo - 1, hi - 1)
    d = 0 if abs(v[0]) >= 0.095 else 1 if abs(v[0]) >= 0.0095 else 2
    a, b, c = (f"{100 * x:.{d}f}%" for x in v)
    return f"{a} [{b}, {c}]"


def describe_ratios(method, ms, stats, base=BASE) -> str:
    """Where ``method`` beats ``base`` (CI of the ratio below 1), loses (above 1) or
    ties, as runs of consecutive m: 'kmeans beats uniform at m = 8-64, by 17% [13%, 21%]
    at m = 8 to 4.0% [3.1%, 4.9%] at m = 64; ties at m = 128 (ratio 0.998)'."""
    classes = ["beats" if hi < 1 else "worse" if lo > 1 else "ties" for _, lo, hi in stats]
    parts, start = [], 0
    for i in range(1, len(ms) + 1):
        if i < len(ms) and classes[i] == classes[start]:
            continue
        cls, a, b = classes[start], start, i - 1
        where = f"m = {ms[a]}" if a == b else f"m = {ms[a]}-{ms[b]}"
        if cls == "ties":
            rs = [stats[j][0] for j in range(a, b + 1)]
            lo, hi = f"{min(rs):.3f}", f"{max(rs):.3f}"
            span = lo if lo == hi else f"{lo}-{hi}"
            parts.append(f"ties at {where} (ratio {span})")
        else:
            verb = "beats" if cls == "beats" else "is worse than"
            by = (f"by {_effect(cls, *stats[a])}" if a == b else
                  f"by {_effect(cls, *stats[a])} at m = {ms[a]} to {_effect(cls, *stats[b])} at m = {ms[b]}")
            parts.append(f"{verb} {base} at {where}, {by}")
        start = i
    return f"{method} " + "; ".join(parts)


@dataclass(frozen=True)
class AgainstUniform:
    """Every strategy's seed-mean error falls at each step of the m grid, and no
    strategy is significantly worse than uniform by more than ``margin``.

    Per strategy S and m, the paired ratio r = mean_seeds R_S / mean_seeds R_uniform
    with its bootstrap 95% CI [lo, hi] (seeds resampled jointly). The claim

    * fails if some strategy's seed-mean R does not fall from one m to the next
      (R(m_{j+1}) >= R(m_j)), or some CI lies above 1 + margin (lo > 1 + margin:
      significantly worse than uniform by more than the margin);
    * holds otherwise (a point ratio above 1 + margin whose CI reaches below it is not
      significant; the summary shows it).

    The summary states, per strategy, where it beats uniform (hi < 1), loses (lo > 1)
    or ties, with the effect and its CI. Only the strategies present are judged (a
    planted fault runs the uniform cells and its own).
    """

    metric: str = "R"
    margin: float = MARGIN
    base: str = BASE

    def __call__(self, results, profile) -> Outcome:
        methods = [s for s in STRATEGIES if any(r.cell.method == s for r in results)]
        curves = {s: collect(results, self.metric, s, key=lambda c: c.p["m"]) for s in methods}
        ms, Yb = curves[self.base]
        parts, measured, falls, texts, stats_of = ["holds"], {}, [], [], {}
        for s in methods:
            x, Y = curves[s]
            mean = np.nanmean(Y, axis=1)
            steps = mean[1:] / mean[:-1]
            measured["max_step"] = max(measured.get("max_step", 0.0), float(np.max(steps)))
            if not np.all(steps < 1):
                bad = int(np.argmax(steps >= 1))
                falls.append(f"{s} does not fall from m = {x[bad]:g} to {x[bad + 1]:g} "
                             f"(mean {mean[bad]:.4g} -> {mean[bad + 1]:.4g})")
                parts.append("fails")
            if s == self.base:
                continue
            stats = [ratio_ci(Y[j], Yb[j]) for j in range(len(x))]
            stats_of[s] = stats
            measured[f"{s}_best_ratio"] = min(r for r, _, _ in stats)
            measured[f"{s}_max_lower_ci"] = max(lo for _, lo, _ in stats)
            parts += ["fails" if lo > 1 + self.margin else "holds" for _, lo, _ in stats]
            texts.append(describe_ratios(s, [int(v) for v in x], stats, self.base))
        status = combine(parts)
        worst = max(((s, int(mj), st) for s, sts in stats_of.items() for mj, st in zip(ms, sts)),
                    key=lambda t: t[2][1], default=None)
        head = "every strategy's error falls with m" if not falls else "; ".join(falls)
        if worst is not None:
            s, mj, (r, lo, hi) = worst
            head += (f"; largest lower CI end of R/R_{self.base}: {s} at m = {mj}, {r:.3f} [{lo:.3f}, {hi:.3f}] "
                     f"(fails above {1 + self.margin:.2f})")
        summary = head + ". " + ". ".join(texts)
        return Outcome(status, summary, [], measured,
                       {"max_lower_ci_at_most": 1 + self.margin, "max_step_below": 1.0})


# ---------------------------------------------------------------------- judging: rates

def _band_above(width, ref):
    """One-sided: the slope at most reference + width (catching up with R_C,l is allowed)."""
    return (-np.inf, ref + width)


@dataclass(frozen=True)
class _MaxMeanOf:
    """The largest per-n seed mean of ``metric`` for one method is at most ``tol``."""

    metric: str
    method: str
    tol: float

    def __call__(self, results, profile) -> Outcome:
        _, Y = collect(results, self.metric, self.method)
        worst = float(np.nanmax(np.nanmean(Y, axis=1)))
        name = f"{self.method}_max_mean_{self.metric}"
        return Outcome("holds" if worst <= self.tol else "fails",
                       f"{self.method}: max mean R/R_C,l {worst:.3f} (<= {self.tol:g})", [], {name: worst},
                       {f"{name}_at_most": self.tol})


RATE_SLOPE_WIDTH = 0.05
#: Largest seed-mean R / R_{C,l} at any n. Evidence: ci (5 seeds) 1.11-1.17 over the rules, quick
#: (10 seeds) 1.12-1.185 (leverage, l = 3); 1.3 keeps that headroom and fails a rank l - 1 fit at l = 3
#: (R_{C,2} / R_{C,3} = 1.26 for alpha = 1.5, times the rules' 1.1). Was 1.5.
RATE_RATIO_MAX = 1.3
RATE_RATIO_SLOPE = 0.0


@dataclass(frozen=True)
class RatesKept:
    """For every strategy present: slope of the seed-mean R vs n at most the exact
    R_{C,l} slope + 0.05 (CI inside); seed-mean R / R_{C,l} <= RATE_RATIO_MAX at every n,
    and never below 1 in any cell (impossible for a rank-l projector); and the slope of
    log(R / R_{C,l}) <= 0 (CI inside): the ratio to the optimum does not grow along the grid."""

    def __call__(self, results, profile) -> Outcome:
        methods = [s for s in STRATEGIES if any(r.cell.method == s for r in results)]
        rules = []
        for s in methods:
            rules += [SlopeInBand("R", band=functools.partial(_band_above, RATE_SLOPE_WIDTH), label=s,
                                  ylabel="population R(P)", reference="R_C", method=s, name=f"{s}_slope"),
                      _MaxMeanOf("ratio", s, RATE_RATIO_MAX),
                      SlopeInBand("ratio", band=(-np.inf, RATE_RATIO_SLOPE), label=s, ylabel="R / R_C,l",
                                  method=s, name=f"{s}_ratio_slope", impossible=RATIO_FLOOR)]
        out = AllOf(*rules)(results, profile)
        m = out.measured
        ref = out.predicted.get(f"{methods[0]}_slope_predicted", float("nan"))
        lines = [f"{s} {m[f'{s}_slope']:+.3f} [{m[f'{s}_slope_ci_low']:+.3f}, {m[f'{s}_slope_ci_high']:+.3f}], "
                 f"R/R_C,l <= {m[f'{s}_max_mean_ratio']:.2f}, ratio slope {m[f'{s}_ratio_slope']:+.3f} "
                 f"[{m[f'{s}_ratio_slope_ci_low']:+.3f}, {m[f'{s}_ratio_slope_ci_high']:+.3f}]" for s in methods]
        out.summary = (f"slope of R vs n (exact R_C,l: {ref:+.3f}; band <= {ref + RATE_SLOPE_WIDTH:+.3f}), "
                       f"max R/R_C,l (<= {RATE_RATIO_MAX:g}), slope of R/R_C,l (<= {RATE_RATIO_SLOPE:g}): "
                       + "; ".join(lines))
        return out


# ---------------------------------------------------------------------- figures

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


def vs_m_figure(results, verdict, outdir):
    ref = next((r.metrics["R_C"] for r in results if "R_C" in r.metrics), None)
    return _ratio_figure(results, verdict, outdir, "population R(P)", ref)


def digits_figure(results, verdict, outdir):
    return _ratio_figure(results, verdict, outdir, "in-sample error R_hat(l)")


# ---------------------------------------------------------------------- planted-fault cell filters

def _fault_cells(method, seeds, cell: Cell) -> bool:
    """A fault runs its own strategy's cells (and uniform's, the baseline) on the first seeds."""
    return cell.method in (BASE, method) and cell.seed < seeds


def _fault_keep(method, seeds):
    return functools.partial(_fault_cells, method, seeds)


# ---------------------------------------------------------------------- the claims

FOURIER = (f"Fourier explicit-feature model on U[0,1): lambda_i = i^-{ALPHA:g}, J features, linear kernel on the "
           "feature rows (k-means runs in the J coordinates); exact population R(P) = sum_i lambda_i (1 - ||Q_i||^2)")
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


def short_budget_uniform(m, s):
    """A near miss: ceil(n^(3/8)) uniform rows where Corollary 4.2 grants
    m = ceil(n^(1/2) ln n) (n recovered from m, :func:`theory.smallest_n`): still
    more than l = n^(1/3), but below the theorem's budget."""
    return UniformLandmarks(math.ceil(smallest_n(_m_rate, m) ** 0.375))


SHORT_BUDGET = Fault("short-budget", "a near miss: uniform sampling of ⌈n^(3/8)⌉ landmarks instead of "
                     "⌈n^(1/2) ln n⌉; the slope alone does not reject it (-0.142, upper CI end -0.122 inside "
                     "its band), the level R/R_C,l (1.69) and its growth (ratio slope +0.028) do",
                     {"uniform": short_budget_uniform}, keep=_fault_keep(BASE, RATE_SEEDS.ci))


CLAIMS = [
    Claim(
        id="landmarks.error-vs-m",
        source="comparison study; Sterge et al. 2020 Sec. 3.2-3.2.1, Bach 2013 Sec. 4.4, Musco & Musco 2017, "
               "Zhang et al. 2008",
        statement="At fixed n and l, every landmark rule's population error falls with m, and none is "
                  "significantly worse than uniform sampling by more than 10%",
        prediction=f"seed-mean R(P) falls at each doubling of m; the 95% CI of R_strategy / R_uniform never lies "
                   f"above {1 + MARGIN:.2f}; the verdict reports where each rule beats uniform",
        data=FOURIER + f"; l = {VS_M_L}, s = n^-1/2 for the leverage rules",
        metric="population R(P) of the rank-l Nyström projector on each rule's landmarks; the paired ratio "
               "of seed means R_strategy / R_uniform with a bootstrap 95% CI",
        estimators=ESTIMATORS,
        experiment=population_experiment,
        grid=PerProfile(ci=_vs_m_grid(512, 256, 10), quick=_vs_m_grid(1024, 256, 20),
                        full=_vs_m_grid(4096, 1024, 50, VS_M_MS + (256, 512))),
        judge=AgainstUniform(),
        tolerance=Tolerance(
            "fails if a seed-mean R does not fall from one m to the next, or if some 95% CI of R_S/R_uniform "
            f"lies above 1 + {MARGIN:g} (significantly worse than uniform by more than 10%); holds otherwise",
            "ci (n = 512, 10 seeds): largest lower CI end of a correct rule 1.001 (leverage, m = 128: its "
            "duplicate draws), largest point ratio 1.013; quick (n = 1024, 20 seeds): largest 1.069 [1.008, "
            "1.129] (recursive at m = 8 = l, below the effective dimension its score estimates are poor), "
            "largest step ratio R(2m)/R(m) 0.983 (pivoted, 64 -> 128); prototype runs at n = 512 / 1024 with "
            "20 / 30 seeds gave the same picture (point ratios 0.81-1.04). Faults at ci (3 seeds), lower CI end "
            "at the worst m: top-leverage 1.62, snap-to-first 2.65, smallest-residual 2.17 (its pivots run out "
            "at about 25, so its R also stops falling). A 10% margin leaves 0.03 above the largest lower end of "
            "correct code and 0.5 below the faults'"),
        faults=_faults(3),
        figure=vs_m_figure,
    ),
    Claim(
        id="landmarks.rate",
        source="Sterge et al. 2020, Corollary 4.2 (uniform) and Theorem 4.1(ii) (leverage scores); the other "
               "rules as a comparison",
        statement="With m = n^θ ln n (θ = 1/2) and l = n^(θ/α) every landmark rule keeps the rate of the "
                  "exact R_{C,l}",
        prediction="for each rule: slope of R vs n at most the R_{C,l} slope + 0.05; 1 <= R/R_{C,l} <= 1.3; "
                   "R/R_{C,l} does not grow (its slope <= 0)",
        data=FOURIER + ", s = n^-1/2 for the leverage rules",
        metric="population R(P) of the rank-l Nyström projector; R / R_{C,l}",
        estimators=ESTIMATORS,
        experiment=population_experiment,
        grid=PerProfile(ci=_rate_grid("ci"), quick=_rate_grid("quick"), full=_rate_grid("full")),
        judge=RatesKept(),
        tolerance=Tolerance(
            "per rule: slope CI <= reference + 0.05 (one-sided, catching up with R_C,l is allowed, as "
            "sterge20.als); max seed-mean R/R_C,l <= 1.3 (was 1.5) and no cell below 1 (impossible); slope CI "
            "of R/R_C,l <= 0 (the ratio to the optimum does not grow)",
            "ci (l = 3..10, n = 27..1000, J = 512, 5 seeds): R_C,l slope -0.171, rules -0.195 to -0.208 (upper "
            "CI ends <= -0.194, band <= -0.121); max R/R_C,l 1.11-1.17; ratio slopes -0.025 to -0.037, upper CI "
            "ends <= -0.023. quick (l = 3..11, J = 768, 10 seeds): reference -0.168, rules -0.192 to -0.204, "
            "R/R_C,l <= 1.12-1.18, ratio slope upper ends <= -0.023. Faults at ci: top-leverage R slope -0.142 "
            "(inside its band) but ratio slope +0.028 [+0.019, +0.035]: R/R_C,l grows, caught by the last rule "
            "only; snap-to-first R slope +0.067, R/R_C,l 2.91; smallest-residual +0.014, 2.58; short-budget "
            "(uniform on ceil(n^(3/8)) rows, seeds 0-4) R slope -0.142 [-0.163, -0.122] inside its band, "
            "R/R_C,l 1.69 and ratio slope +0.028 [+0.008, +0.049]: caught by the level and the growth"),
        faults=_faults(RATE_SEEDS.ci) + (SHORT_BUDGET,),
    ),
    Claim(
        id="landmarks.digits",
        source="comparison study on real data; Sterge et al. 2020 Sec. 5 (in-sample error, eq. (19))",
        statement="On scikit-learn's digits every rule's in-sample Nyström error falls with m, and none is "
                  "significantly worse than uniform sampling by more than 10%",
        prediction=f"seed-mean R_hat(l) falls at each doubling of m; the 95% CI of R_strategy / R_uniform never "
                   f"lies above {1 + MARGIN:.2f}; the verdict reports where each rule beats or loses to uniform",
        data="scikit-learn digits (1797 x 64, raw 0..16 pixels): n rows drawn per seed (all at n = 1797); Gaussian "
             "kernel with the median heuristic gamma = 1 / median ||x - y||^2 (median_gamma(X, 1.0)); "
             f"l = {DIGITS_L}, s = n^-1/2 for the leverage rules",
        metric="in-sample error R_hat(l) = (1/n) tr K - sum_{j <= l} lambda_hat_{j,m} (Sterge et al. eq. (19)); "
               "the paired ratio of seed means to uniform with a bootstrap 95% CI",
        estimators=ESTIMATORS,
        experiment=digits_experiment,
        grid=PerProfile(ci=_digits_grid(600, 10, DIGITS_MS[:-1]), quick=_digits_grid(1000, 20), full=_digits_grid(1797, 50)),
        judge=AgainstUniform(),
        tolerance=Tolerance(
            "as landmarks.error-vs-m: fails if a seed-mean R_hat does not fall from one m to the next, or if "
            f"some 95% CI of R_S/R_uniform lies above 1 + {MARGIN:g}; holds otherwise",
            "pivoted Cholesky is the worst correct rule: ci (n = 600, m <= 128, 10 seeds) +4.3% [3.0%, 5.4%] at "
            "m = 32; quick (n = 1000, 20 seeds) +5.7% [4.6%, 6.6%] at m = 32, the largest lower CI end 1.046; "
            "prototype runs (30 seeds at n = 600, 20 at n = 1000) +3.9% and +5.5% there. Leverage and recursive "
            "within 1.5% of uniform; largest step ratio 0.988 (k-means). Faults at ci (3 seeds), lower CI end at "
            "the worst m: top-leverage 1.37, snap-to-first 1.56, smallest-residual 1.64. The 10% margin leaves "
            "0.054 above pivoted's deficit at n = 1000. The deficit grows with n: on all 1797 rows (the full "
            "profile; 10 seeds of uniform, pivoted and k-means) +7.1% [5.8%, 8.3%] at m = 32, 0.017 below the "
            "margin"),
        faults=_faults(3),
        figure=digits_figure,
    ),
]
