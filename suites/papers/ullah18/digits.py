"""ullah18.digits-curves: the paper's curves on digits, Fig. 2 (top: held-out variance against
samples seen; bottom: against CPU).

The bottom row is judged on counts, never on the CPU seconds the cells also record (for the
figure): the multiply-adds each method's code does, from what is observed while it runs (rows
its counting feature map transforms, kernel entries its counting kernel evaluates) and the shapes
of its fitted objects (:func:`rf_work`, :func:`refit_work`; RF-Oja's update runs in Numba, so its
update and QR are counted from m, k, the rows and qr_every as in :mod:`.cost`), and on memory:
ERM's peak traced bytes (tracemalloc) during each fit against RF-Oja's floats of state."""

from __future__ import annotations

import functools
import time

import numpy as np
from scipy.linalg import eigh

from kpca_suite.kernels import Kernel, median_gamma
from kpca_suite.methods import ExactKPCA, NystromKPCA
from kpca_suite.methods.rf_erm import RFERM
from kpca_suite.methods.rf_oja import RFOja
from kpca_suite.theory.rf_objective import heldout_grams, lifted_objective, procrustes_rotation, projected_objective

from ...claim import Cell, CellList, Claim, Fault, Outcome, PerProfile, Tolerance
from ...counting import CountingKernel, traced_peak
from ...judging import combine
from ...plots import save_figure
from .cost import counting, oja_ops

# -- ullah18.digits-curves ----------------------------------------------------------------------

DIGITS_M = 750          # the paper's m for RF-ERM and RF-Oja


DIGITS_NYSTROM = 100    # the paper's Nyström size


DIGITS_TEST = 597       # held-out rows of sklearn digits (1797 = 1200 stream + 597 test)


DIGITS_KS = PerProfile(ci=(5,), quick=(5, 10, 15), full=(5, 10, 15))


DIGITS_REPS = PerProfile(ci=1, quick=1, full=100)


DIGITS_CHECKPOINTS = PerProfile(ci=(50, 200, 800), quick=(25, 50, 100, 200, 400, 800),
                                full=(25, 50, 100, 200, 400, 800, 1600, 3200, 6400, 12800, 20000))


DIGITS_METHODS = ("erm", "nystrom", "rf-erm", "rf-oja")


# Evidence, sklearn digits, 1 rep, 1200 stream rows: relative gaps (ERM - J_proj) / ERM
# of RF-ERM -0.004 / -0.004 / -0.006 and of RF-Oja +0.007 / +0.022 / +0.034 for
# k = 5 / 10 / 15; 0.1 leaves a 3x margin at k = 15.
DIGITS_CLOSE = 0.1


# Fig. 2 (bottom) on counts (evidence in the claim's tolerance): the overall counted work of ERM,
# RF-ERM and RF-Oja within this factor of each other; ERM's traced peak against t over the
# checkpoints t >= DIGITS_HELD_FROM (below, fixed Python allocations blur the t^2).
DIGITS_WORK_FACTOR = 100.0


DIGITS_HELD_FROM, DIGITS_HELD_BAND = 400, (1.8, 2.2)


def _digits_data(p):
    from ...datasets import load_digits_data, load_user_data

    X, _ = load_digits_data() if p["data"] == "digits" else load_user_data(p["data"])
    return X


def digits_gamma(X) -> float:
    """The paper's sigma^2 = 50 on [0, 1]-scaled MNIST (gamma = 1/(2 sigma^2) = 0.01,
    about 1 / mean ||x - y||^2 there); for raw MNIST pixels (0..255, d = 784) that
    is 0.01 / 255^2; for other data the same scale, the median heuristic
    gamma = 1 / median ||x - y||^2 (:func:`kernels.median_gamma`, scale 1)."""
    if X.shape[1] == 784:
        return 0.01 / (255.0**2 if X.max() > 1.0 else 1.0)
    return median_gamma(X, scale=1.0)


def exact_erm(k: int, kernel, rows: int, seed: int):
    """ERM: exact KPCA of the rows seen (dense eigh up to 2000 rows, then Lanczos)."""
    return ExactKPCA(k, kernel, solver="dense" if rows <= 2000 else "lanczos", random_state=seed)


def nystrom(k: int, kernel, rows: int, seed: int):
    """Nyström KPCA with the paper's 100 uniform landmarks (fewer when fewer rows)."""
    return NystromKPCA(k, kernel, landmarks=min(DIGITS_NYSTROM, rows), random_state=seed)


def digits_rf_erm(k: int, kernel, seed: int) -> RFERM:
    """RF-ERM with the paper's m = 750, fitted chunk by chunk."""
    return RFERM(k, DIGITS_M, Kernel("gaussian", gamma=kernel.gamma), "cos", random_state=seed)


def digits_rf_oja(k: int, kernel, seed: int) -> RFOja:
    """RF-Oja with the paper's m = 750 and the default inverse schedule."""
    return RFOja(k, DIGITS_M, Kernel("gaussian", gamma=kernel.gamma), "cos", random_state=seed)


def rf_work(method: str, est, rows: int, d: int, chunk: int) -> float:
    """Counted multiply-adds of one partial_fit of ``chunk`` rows in which ``est``'s counting map
    mapped ``rows`` rows: RF-Oja's :func:`~suites.papers.ullah18.cost.oja_ops`; RF-ERM's d m + m per
    row mapped (x^T Omega, m cos), m^2 per row (Z^T Z) and the m^3 eigh every partial_fit does."""
    m, k = est.components_.shape
    if method == "rf-oja":
        return oja_ops(rows, d, m, k, est.qr_every, [chunk])
    return rows * (d * m + m + m * m) + float(m) ** 3


def _streamed(method, est, Xtr, Xte, kern, k, ts) -> dict:
    """An RF estimator fed the stream up to each checkpoint t: lifted J, J_proj
    (Procrustes-rotated towards the top-k eigenvectors of the held-out RF
    covariance), cumulative CPU seconds, the cumulative counted work (:func:`rf_work`,
    rows counted by the estimator's counting map during partial_fit only) and the floats
    of state it holds."""
    est = counting(est)
    out, Zte, cpu, work, prev = {key: [] for key in ("var", "proj", "cpu", "work", "space")}, None, 0.0, 0.0, 0
    for t in ts:
        rows = est.feature_map_.counts.get("rows", 0) if hasattr(est, "feature_map_") else 0
        t0 = time.process_time()
        est.partial_fit(Xtr[prev:t])
        cpu += time.process_time() - t0
        work += rf_work(method, est, est.feature_map_.counts.get("rows", 0) - rows, Xtr.shape[1], t - prev)
        prev = t
        if Zte is None:
            Zte = est.features(Xte)
            e, V = np.linalg.eigh(Zte.T @ Zte / len(Xte))
            Phi = np.ascontiguousarray(V[:, ::-1][:, :k])
        U = est.components_
        G, H = heldout_grams(Zte @ (U @ procrustes_rotation(U, Phi)), Xte, kern)
        for key, v in (("var", lifted_objective(G, H)), ("proj", projected_objective(G, H)), ("cpu", cpu),
                       ("work", work), ("space", float(est.space_))):
            out[key].append(v)
    return {key: np.array(v) for key, v in out.items()}


def refit_work(method: str, entries: float, t: int, d: int) -> float:
    """Counted multiply-adds of one batch fit on t rows from the kernel entries its counting kernel
    evaluated (d each): ERM's dense eigh of the t x t Gram adds t^3; Nystrom's p = min(100, t)
    landmarks add p per entry (K_mn K_nm) and 2 p^3 (whitening and eigen solve)."""
    if method == "erm":
        return entries * d + float(t) ** 3
    p = min(DIGITS_NYSTROM, t)
    return entries * (d + p) + 2.0 * p**3


def _refitted(method, make, Xtr, Xte, kern, k, ts) -> dict:
    """A batch estimator refit on the first t rows at each checkpoint (as the paper
    does): captured held-out variance sum_i mean u_i(x)^2 of its H-orthonormal
    components, the CPU seconds of that fit, its counted work (:func:`refit_work`, a
    counting kernel passed to the method) and the peak bytes tracemalloc traces during it
    (``held``: for ERM the t x t Gram its dense solver forms and decomposes)."""
    var, cpu, work, held = [], [], [], []
    for t in ts:
        ck = CountingKernel("gaussian", gamma=kern.gamma, counts={})
        est = make(t, ck)
        t0 = time.process_time()
        held.append(float(traced_peak(lambda: est.fit(Xtr[:t]))))
        cpu.append(time.process_time() - t0)
        work.append(refit_work(method, ck.counts.get("entries", 0), t, Xtr.shape[1]))
        var.append(float(np.sum(np.mean(est.transform(Xte) ** 2, axis=0))))
    return {"var": np.array(var), "proj": np.array(var), "cpu": np.array(cpu), "work": np.array(work),
            "held": np.array(held)}


def digits_experiment(cell, estimators) -> dict:
    """Captured held-out variance vs samples seen (Fig. 2), as curves over the checkpoints
    ``t``: ``var``, ``proj`` (J_proj for the RF methods, ``var`` again for ERM / Nyström),
    ``cpu`` and, for the RF methods, ``space``; opt = sum of the top-k eig(K_test / N)."""
    p = cell.p
    X = _digits_data(p)
    kern = Kernel("gaussian", digits_gamma(X))
    rng = cell.rng("split")
    perm = rng.permutation(len(X))
    n_test = min(DIGITS_TEST if p["data"] == "digits" else 10000, len(X) // 3)
    Xte, Xtr = X[perm[:n_test]], X[perm[n_test:]]
    k = p["k"]
    ts = [t for t in DIGITS_CHECKPOINTS[p["profile"]] if t < len(Xtr)] + [len(Xtr)]
    ts = sorted({t for t in ts if t <= 20000 and t > k})
    Kte = kern.block(Xte, Xte) / n_test
    opt = float(eigh(Kte, eigvals_only=True, subset_by_index=[n_test - k, n_test - 1]).sum())
    seed = int(rng.integers(2**31))
    make = estimators[cell.method]
    if cell.method in ("rf-erm", "rf-oja"):
        out = _streamed(cell.method, make(k, kern, seed), Xtr, Xte, kern, k, ts)
    else:
        out = _refitted(cell.method, lambda t, ck: make(k, ck, t, seed), Xtr, Xte, kern, k, ts)
    return {"opt": opt, "t": np.array(ts, dtype=float), **out}


def _digits_cells(profile, claim_id, options):
    data = options.get("data") or "digits"
    n = len(_digits_data({"data": data}))
    return [Cell.make(claim_id, method, n, seed, k=k, data=str(data), profile=profile)
            for k in DIGITS_KS[profile] for method in DIGITS_METHODS for seed in range(DIGITS_REPS[profile])]


def _digits_grid(profile) -> CellList:
    return CellList(functools.partial(_digits_cells, profile),
                    f"sklearn digits (or --data), k in {DIGITS_KS[profile]}, m = {DIGITS_M}, "
                    f"{DIGITS_REPS[profile]} rep(s), checkpoints {DIGITS_CHECKPOINTS[profile]} and the last row")


def _digits_curves(results, k, method, prefix):
    rows = [r.metrics for r in results if r.cell.method == method and r.cell.p["k"] == k]
    return np.asarray(rows[0]["t"]), np.array([m[prefix] for m in rows]).mean(axis=0)


def _digits_ks(results):
    return sorted({r.cell.p["k"] for r in results})


def _work_to_level(results, k, method, level) -> float:
    """Counted work (``work``) at the first checkpoint where ``method``'s curve (J_proj for
    the RF methods, ERM's captured variance) reaches ``level``; inf if it never does."""
    _, curve = _digits_curves(results, k, method, "var" if method == "erm" else "proj")
    _, work = _digits_curves(results, k, method, "work")
    hit = np.flatnonzero(curve >= level)
    return float(work[hit[0]]) if hit.size else np.inf


def _cost_parts(results, k) -> tuple:
    """Fig. 2 (bottom) and Contribution 4 on counts, for one k: statuses, the numbers, a note.

    - overall work (the last checkpoint: ERM's fit on every row, the RF methods' whole pass)
      of ERM, RF-ERM and RF-Oja within DIGITS_WORK_FACTOR of each other, RF-Oja's the smallest;
    - work to reach the level (1 - DIGITS_CLOSE) x ERM's last held-out value: RF-Oja's at
      most RF-ERM's (inf, a failure, when either never reaches it);
    - memory: ERM's traced peak grows like t^2 (slope against t over the checkpoints
      t >= DIGITS_HELD_FROM inside DIGITS_HELD_BAND); RF-Oja's state (its bytes, 8 per float)
      below RF-ERM's and ERM's at the last checkpoint (its constancy is judged apart)."""
    ts, erm = _digits_curves(results, k, "erm", "var")
    overall = {m: float(_digits_curves(results, k, m, "work")[1][-1]) for m in ("erm", "rf-erm", "rf-oja")}
    level = (1 - DIGITS_CLOSE) * erm[-1]
    reach = {m: _work_to_level(results, k, m, level) for m in ("erm", "rf-erm", "rf-oja")}
    spread = max(overall.values()) / min(overall.values())
    _, held = _digits_curves(results, k, "erm", "held")
    late = ts >= DIGITS_HELD_FROM
    slope = float(np.polyfit(np.log(ts[late]), np.log(held[late]), 1)[0]) if late.sum() >= 2 else np.nan
    oja_bytes = 8 * _digits_curves(results, k, "rf-oja", "space")[1][-1]
    erm_state = 8 * _digits_curves(results, k, "rf-erm", "space")[1][-1]
    parts = ["holds" if spread <= DIGITS_WORK_FACTOR and overall["rf-oja"] == min(overall.values()) else "fails",
             "holds" if reach["rf-oja"] <= reach["rf-erm"] < np.inf else "fails",
             "inconclusive" if not np.isfinite(slope) else
             ("holds" if DIGITS_HELD_BAND[0] <= slope <= DIGITS_HELD_BAND[1] else "fails"),
             "holds" if oja_bytes < min(erm_state, held[-1]) else "fails"]
    numbers = {f"work_spread_k{k}": spread, f"oja_over_erm_work_k{k}": overall["rf-oja"] / overall["erm"],
               f"oja_over_rferm_to_level_k{k}": reach["rf-oja"] / reach["rf-erm"],
               f"erm_held_slope_k{k}": slope}
    note = (f"k={k}: overall work ERM {overall['erm']:.3g}, RF-ERM {overall['rf-erm']:.3g}, RF-Oja "
            f"{overall['rf-oja']:.3g} (spread {spread:.1f}x); work to {level:.3f}: ERM {reach['erm']:.3g}, RF-ERM "
            f"{reach['rf-erm']:.3g}, RF-Oja {reach['rf-oja']:.3g}; ERM peak bytes slope vs t {slope:.2f}, "
            f"{held[-1] / oja_bytes:.0f}x RF-Oja's state at t = {ts[-1]:.0f}")
    return parts, numbers, note


def judge_digits(results, profile) -> Outcome:
    """Per k: the relative gap (ERM - J_proj) / ERM of RF-ERM and RF-Oja at the last
    checkpoint is <= DIGITS_CLOSE, RF-Oja's state (space_) is the same at every
    checkpoint, and the counted costs of :func:`_cost_parts` (Fig. 2 bottom, Contribution 4)."""
    parts, gaps, notes, grown, costs = [], {}, [], [], []
    for k in _digits_ks(results):
        _, erm = _digits_curves(results, k, "erm", "var")
        for method in ("rf-erm", "rf-oja"):
            _, rf = _digits_curves(results, k, method, "proj")
            gap = float((erm[-1] - rf[-1]) / erm[-1])
            gaps[f"{method}_k{k}"] = gap
            parts.append("holds" if gap <= DIGITS_CLOSE else "fails")
        _, space = _digits_curves(results, k, "rf-oja", "space")
        parts.append("holds" if np.ptp(space) == 0 else "fails")
        if np.ptp(space) != 0:
            grown.append(f"k={k}: {space[0]:.0f} -> {space[-1]:.0f} floats")
        _, lifted = _digits_curves(results, k, "rf-oja", "var")
        notes.append(f"k={k}: RF-ERM {gaps[f'rf-erm_k{k}']:+.3f}, RF-Oja {gaps[f'rf-oja_k{k}']:+.3f}"
                     f" (lifted J/ERM {lifted[-1] / erm[-1]:.3f})")
        cost_parts, numbers, note = _cost_parts(results, k)
        parts += cost_parts
        gaps.update(numbers)
        costs.append(note)
    summary = (f"relative gap of J_proj to ERM's held-out variance at the last checkpoint (<= {DIGITS_CLOSE}): "
               + "; ".join(notes) + ("; RF-Oja state grows with n (" + ", ".join(grown) + ")" if grown
                                     else "; RF-Oja state constant in n")
               + f". Counted cost (overall spread <= {DIGITS_WORK_FACTOR}x, RF-Oja cheapest; RF-Oja's work to "
               f"the level <= RF-ERM's; ERM peak slope in {DIGITS_HELD_BAND}): " + "; ".join(costs))
    return Outcome(combine(parts), summary, [], gaps,
                   {"close": DIGITS_CLOSE, "work_factor": DIGITS_WORK_FACTOR, "erm_held_slope": 2.0})


def digits_figure(results, verdict, outdir):
    """Fig. 2 analogue: held-out variance vs samples seen (top) and vs CPU time (bottom)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ks = _digits_ks(results)
    fig, axes = plt.subplots(2, len(ks), figsize=(5 * len(ks), 8), squeeze=False)
    names = {"erm": "ERM", "nystrom": f"Nyström ({DIGITS_NYSTROM})", "rf-erm": f"RF-ERM (m = {DIGITS_M})",
             "rf-oja": f"RF-Oja (m = {DIGITS_M})"}
    for col, k in enumerate(ks):
        for method in DIGITS_METHODS:
            ts, var = _digits_curves(results, k, method, "var")
            _, cpu = _digits_curves(results, k, method, "cpu")
            for row, x in ((0, ts), (1, np.maximum(cpu, 1e-4))):
                line, = axes[row, col].plot(x, var, marker="o", ms=3, label=names[method])
                if method.startswith("rf"):
                    _, proj = _digits_curves(results, k, method, "proj")
                    axes[row, col].plot(x, proj, ":", color=line.get_color(), label=f"{names[method]}: J_proj")
        for row, xl in ((0, "samples seen"), (1, "CPU seconds")):
            ax = axes[row, col]
            ax.set_xscale("log")
            ax.set_xlabel(xl)
            ax.set_ylabel("captured held-out variance")
            ax.set_title(f"k = {k}")
            ax.grid(True, alpha=0.3)
    axes[0, 0].legend(fontsize=7)
    fig.suptitle(f"ullah18.digits-curves — {verdict.status}")
    fig.tight_layout()
    return save_figure(fig, outdir, "ullah18.digits-curves")


class FeatureStoringRFOja(RFOja):
    """Keeps every feature row it has seen (O(n m) state, like storing Z): the
    memory part of ullah18.digits-curves must fail."""

    def partial_fit(self, X):
        super().partial_fit(X)
        self.stored_ = np.vstack([getattr(self, "stored_", np.empty((0, self.feature_map_.n_features))),
                                  self.features(X)])
        return self

    @property
    def space_(self):
        return super().space_ + self.stored_.size


class FrozenRFOja(RFOja):
    """Takes one Oja step on the first row it sees and ignores every later row:
    its subspace stays near the random start, so the captured held-out variance
    cannot approach ERM's (the quality part of ullah18.digits-curves must fail)."""

    def partial_fit(self, X):
        if not hasattr(self, "components_"):
            return super().partial_fit(np.asarray(X)[:1])
        self.n_samples_seen_ += len(X)
        return self


def feature_storing_oja(k, kernel, seed):
    return FeatureStoringRFOja(k, DIGITS_M, Kernel("gaussian", gamma=kernel.gamma), "cos", random_state=seed)


def frozen_oja(k, kernel, seed):
    return FrozenRFOja(k, DIGITS_M, Kernel("gaussian", gamma=kernel.gamma), "cos", random_state=seed)


def _without_nystrom(cell) -> bool:
    """The digits judge reads ERM, RF-ERM and RF-Oja only."""
    return cell.method != "nystrom"


CLAIMS = [
    Claim(
        id="ullah18.digits-curves",
        source="Ullah et al. 2018, Sec. 5, Fig. 2 (top and bottom rows); Sec. 1, Contribution 4; App. D.2 "
               "(RF-Oja's O(mk) memory)",
        statement="Fig. 2 (MNIST, sigma^2 = 50, m = 750, k = 5, 10, 15, Nystrom with 100 points, 100 runs): as Cor. "
                  "4.4 predicts, 750 random features suffice for RF-ERM and RF-Oja to reach ERM's suboptimality in "
                  "held-out captured variance, approaching from above; RF-Oja keeps O(mk) memory. Here on sklearn "
                  "digits (MNIST is not bundled; --data takes it) with gamma = 1 / median ||x - y||^2, 1 to 100 reps, "
                  "judging J_proj (not the lifted objective the paper plots; Nystrom's curve not judged) and RF-Oja's "
                  "state across the stream. Fig. 2 (bottom) and Contribution 4: ERM's overall runtime is similar to "
                  "RF-ERM's and RF-Oja's, RF-Oja has the best runtime and space, and ERM's O(n^2) space makes it "
                  "infeasible at scale; here as counted multiply-adds (never seconds) and traced / held memory",
        prediction="RF-ERM's and RF-Oja's J_proj within 10% of ERM's held-out variance at the last checkpoint; "
                   "RF-Oja's state the same at every checkpoint; the overall counted work of ERM, RF-ERM and RF-Oja "
                   f"within {DIGITS_WORK_FACTOR:g}x of each other with RF-Oja's the smallest, RF-Oja's work to reach "
                   "90% of ERM's last held-out value at most RF-ERM's, ERM's peak memory growing like t^2 (slope "
                   f"in {DIGITS_HELD_BAND} for t >= {DIGITS_HELD_FROM}) and above RF-Oja's state",
        data="sklearn digits (1797 x 64; 597 held-out rows, the rest streamed in a seeded random order) or a "
             "user's --data file (a third held out, at most 10000); Gaussian kernel with gamma = 1 / median "
             "||x - y||^2 (median_gamma, scale 1, over at most 1000 rows), or the paper's sigma^2 = 50 for "
             "784-pixel MNIST",
        metric="relative gap (ERM - J_proj) / ERM of the captured held-out variance at the last checkpoint, "
               "RF-Oja's floats of state (space_) at every checkpoint, counted multiply-adds (cumulative for the "
               "streamed RF methods, per fit for ERM refit on the rows seen) and ERM's peak traced bytes per fit",
        metrics=("opt", "t", "var", "proj", "cpu", "work", "space", "held"),
        estimators={"erm": exact_erm, "nystrom": nystrom, "rf-erm": digits_rf_erm, "rf-oja": digits_rf_oja},
        experiment=digits_experiment,
        grid=PerProfile(*(_digits_grid(p) for p in ("ci", "quick", "full"))),
        judge=judge_digits,
        tolerance=Tolerance(f"relative gap of J_proj to ERM at the last checkpoint <= {DIGITS_CLOSE} for every k; "
                            "RF-Oja space_ identical at every checkpoint; overall counted work of the three within "
                            f"{DIGITS_WORK_FACTOR:g}x, RF-Oja's the smallest; RF-Oja's work to 90% of ERM's last "
                            "value <= RF-ERM's; ERM's peak bytes slope vs t (t >= "
                            f"{DIGITS_HELD_FROM}) in {DIGITS_HELD_BAND}, above RF-Oja's state",
                            "sklearn digits, 1 rep, 1200 stream rows: relative gaps of RF-ERM -0.004 / -0.004 / "
                            "-0.006 and of RF-Oja +0.007 / +0.022 / +0.034 for k = 5 / 10 / 15 (quick takes that 1 rep since "
                            "2026-11-29, 2 before; roots 0-4: RF-Oja at most +0.039, k = 15); 0.1 leaves a 3x "
                            "margin at k = 15. Frequencies with half the variance (another kernel's features) "
                            "do not exceed it: the subspace of a wider kernel captures similar variance. Counted "
                            "cost, roots 0-4 (python -m tests.decisiveness), deterministic up to the split: overall "
                            "work ERM 1.82e9, RF-ERM 2.42e9 (ci, 4 checkpoints, an m^3 eigh at each) / 3.69e9 (quick, "
                            "7), RF-Oja 6.8e7 / 8.1e7 / 9.6e7 for k = 5 / 10 / 15: spread 35.4x at ci, 38.6-53.7x at "
                            "quick (at most 1.9x below 100; full's 8 checkpoints give about 60x); RF-Oja's work to "
                            "the level over RF-ERM's at most 0.040 (1.73e7 against 4.37e8, k = 15); ERM's peak "
                            "traced bytes slope 2.00 at every root and k (2 t^2 floats: the Gram and the "
                            "eigenvectors; below t = 400 fixed allocations blur it), 48-55x RF-Oja's state bytes at "
                            "t = 1200. The frozen fault never reaches the level (infinite work to it, spread 2436x); "
                            "the feature-storing fault's state exceeds RF-ERM's. ERM reaches the level with the "
                            "least work here (2.85e5, on its first 25-50 rows): not judged, the paper says similar"),
        faults=(Fault("feature-storing-oja", "an RF-Oja that keeps every feature row it has seen (O(nm) state)",
                      {"rf-oja": feature_storing_oja}, keep=_without_nystrom),
                Fault("frozen-oja", "an RF-Oja that takes one step on the first row and ignores the rest",
                      {"rf-oja": frozen_oja}, keep=_without_nystrom)),
        figure=digits_figure,
        takes_data=True,
    ),
]
