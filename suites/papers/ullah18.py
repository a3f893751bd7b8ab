"""ullah18: Ullah, Mianjy, Marinov & Arora (2018), "Streaming kernel PCA with
O~(sqrt n) random features": KPCA as stochastic optimisation over rank-k
projections, solved by an "efficient subspace learner" (RF-ERM or RF-Oja) on
m = O(sqrt(n) log n) random Fourier features, with excess risk O~(1/sqrt n).

Rate claims run on the Mehler oracle (:class:`theory.mehler.MehlerModel`):
k(x, y) = exp(-gamma (x - y)^2) with gamma = 1/(2 * 0.7^2) (length scale l = 0.7)
and x ~ N(0, 1), k = 3 components. For a fitted RF subspace U the population
Grams G = U^T C_m U and H = U^T M U come from Gauss-Hermite quadrature, so the
excess risk, eps_a and eps_e carry no test-set noise.

Excess risk is reported two ways: the paper's lifted E = sum_{i<=k} lambda_bar_i - J
(after the Procrustes rotation towards the top-k eigenvectors of the population
C_m; it can be negative because J can exceed the optimum), and the
projection-corrected E_proj = optimum - J_proj >= 0 (Cor. C.12), which the rate
claims fit because a log-log fit needs positive values.

Every part a planted fault replaces is an estimator of its claim: the RF
estimator factories ``(m, seed, model) -> unfitted estimator``, the feature map
``(m, seed) -> map`` of the population claim, the rotation of Def. 3.6 (a theory
routine) and the digits estimators. The planted faults are at the end.
"""

from __future__ import annotations

import functools
import math
import time
import zlib

import numpy as np
from scipy.linalg import eigh

from kpca_suite.kernels import Kernel, draw_rff, median_gamma
from kpca_suite.methods import ExactKPCA, NystromKPCA
from kpca_suite.methods.rf_erm import RFERM
from kpca_suite.methods.rf_oja import InverseSchedule, RFOja
from kpca_suite.theory import fit_loglog, smallest_n, verdict_from_ci
from kpca_suite.theory.mehler import MehlerModel
from kpca_suite.theory.rf_objective import (eigen_overlap_distance, esl_first_order, esl_quantity, gram_deviation, heldout_grams,
                                            lemma_e1_rotation, lifted_objective, population_grams,
                                            procrustes_rotation, projected_objective)
from kpca_suite.theory.ullah_lemmas import lemma_c6, lemma_c7, lemma_c8, lemma_c9, lemma_f1

from ..claim import Cell, CellList, Claim, Fault, Fit, Grid, Outcome, Paper, PerProfile, Tolerance
from ..judging import AllOf, AllWithin, MeanAtMost, SlopeInBand, collect, combine, fmt_ci
from ..plots import save_figure
from ..probes import stream
from ..roles import Subject, build

PAPER = Paper(
    key="ullah18",
    citation="S. Ullah, P. Mianjy, T. V. Marinov and R. Arora (2018), 'Streaming kernel PCA with "
             "O~(sqrt n) random features', NeurIPS 2018.",
    errata="""\
- Lemma E.1 gives the rotation of Def. 3.6 as R* = Phi_tilde^T Phi_k, which is not orthogonal in general.
  The minimiser of ||Phi_tilde R - Phi_k||_F over orthogonal R is R* = U V^T with
  Phi_tilde^T Phi_k = U S V^T (orthogonal Procrustes); the code uses it (`procrustes_rotation`).
- Lemma E.2 reuses Phi for the m x n feature matrix of the evaluation points and leaves the
  normalisation ambiguous. The code evaluates the lifted objective as J = sum_i H_ii / G_ii with
  G_ij = <f_i, f_j>_rho and H_ij = <f_i, L f_j>_rho for f_i = z^T u_i (a sum of Rayleigh quotients of L).
- The lifted J depends on the basis and can exceed the optimum sum_{i<=k} lambda_bar_i (the f_i are
  not rho-orthogonal; this is why the RF curves of Fig. 2 approach from above). Every "excess >= 0"
  check and every log-log rate fit uses the basis-invariant J_proj = tr(G^{-1} H) (the projection of
  Cor. C.12), which never exceeds the optimum.
- The power of the estimation error is inconsistent: Lemma 4.6 has q^2/n, the proof of Lemma C.11 ends
  with q/n, Thm 4.2 has sqrt(q/n). The estimation claim tests the 1/n the proof gives.
- log(delta/2) and log(delta/(2m)) are negative for delta < 1 and are read as log(2/delta),
  log(2m/delta); the log base is never stated. The code takes m = ceil(sqrt(n) ln n) (natural log).
- The step sizes of RF-Oja (Thm D.3) come without constants, and the phase-2 step
  Theta(1/(gap^2 T_1)) is probably Theta(1/(gap T_1)) (phase 3 at t = T_0 + T_1 gives 1/(gap T_1)).
  The code runs phase 3 from the start, eta_t = 2.5 / (gap (t + t0)) with t0 = Lambda / gap^2, gap and
  Lambda from the population C_m of the estimator's own feature map.
- gap, Lambda and q use the eigenvalues of C_m, B_k those of C; every covariance is uncentred.
  The decay assumption of Cor. 4.3 is on C' (the fourth-moment operator of z_omega), not on the
  kernel spectrum.
- The RBF kernel of Sec. 5 is exp(-||x - y||^2 / (2 sigma^2)) with sigma^2 = 50 (a variance, not
  sigma = 50): gamma = 0.01 on pixels scaled to [0, 1].
- "O(mk) memory and per iteration" for RF-Oja leaves out the O(mk^2) QR and the d x m frequencies
  (O(md)); the memory check counts Q, the frequencies and the phases.
- Fig. 2's caption says "Oja+ERM" where RF-ERM is meant; its Nystrom baseline is refit from scratch
  after every sample, so its CPU curve is not a streaming cost.
""",
)

GAMMA = 1.0 / (2 * 0.7**2)   # exp(-(x-y)^2 / (2 l^2)) with length scale l = 0.7
DATA_VAR = 1.0
K = 3
OJA_QR_EVERY = 8  # the span does not depend on it (kernels/oja.py); 1.8x faster than 1 at m = 816
MEHLER = (f"1-D Mehler oracle: x ~ N(0, {DATA_VAR:g}), Gaussian kernel exp(-gamma (x - y)^2) with the "
          f"fixed gamma = 1/(2 * 0.7^2) = {GAMMA:.4f} (no data-driven bandwidth), k = {K}; population "
          "quantities by 100-node Gauss-Hermite quadrature")


def _model() -> MehlerModel:
    return MehlerModel(GAMMA, (DATA_VAR,), n_nodes=100)


def m_rule(n: int) -> int:
    """Cor. 4.3: m = ceil(sqrt(n) ln n) features (natural log; the paper leaves
    the base open)."""
    return math.ceil(math.sqrt(n) * math.log(n))


PLATEAU_M = 32        # the fixed m of the negative control
PLATEAU_BAND = (-0.1, 0.1)
RATE_BAND = (-np.inf, -0.45)
#: J_proj of any k functions is at most the optimum sum_{i<=k} lambda_i (Ky Fan), and the
#: oracle's quadrature is exact to ~1e-14 (the Mehler eigenvalues match to 1e-14), so an
#: excess below -1e-9 is impossible for a correct implementation. Observed on correct
#: code: min E_proj 1.5e-4 (quick, 20 seeds, n = 256..8192, RF-ERM and RF-Oja).
EXCESS_FLOOR = (-1e-9, "J_proj of any k functions is at most the optimum: a negative excess is round-off "
                       "garbage of an ill-conditioned or broken basis")
ESTIMATION_M = PerProfile(ci=256, quick=512, full=512)
ESTIMATION_SEEDS = PerProfile(ci=24, quick=20, full=50)
EPS_E_SLOPE_MAX = -0.35
#: The level of the estimation error: n ESL / q pooled over every (n, seed) cell is at most
#: this (q: the first-order constant of E ESL = q/n + O(n^-2), :func:`esl_first_order`).
#: Evidence: see ullah18.estimation's tolerance.
ESL_LEVEL_MAX = 1.4


def _m_grows(n: int) -> dict:
    """The cell settings of a rate sweep: m = m_rule(n)."""
    return {"m": m_rule(n)}


def _m_is_n(n: int) -> dict:
    """The population sweep runs over m (the cell's n is m)."""
    return {"m": n}


# n = 2^j: 5 octaves at ci (128..4096) and quick (256..8192), 8 at full: rate fits need 5 octaves.
NS = PerProfile(ci=tuple(128 * 2**j for j in range(6)), quick=tuple(256 * 2**j for j in range(6)),
                full=tuple(256 * 2**j for j in range(9)))
SEEDS = PerProfile(ci=10, quick=10, full=20)


def _rate_grid(**settings) -> PerProfile:
    """Every n of NS with SEEDS seeds; ``settings`` fixes m or makes it follow n."""
    return PerProfile(*(Grid(NS[p], SEEDS[p], **settings) for p in ("ci", "quick", "full")))


# -- population evaluation of an RF subspace -------------------------------------------

def _population(model, fmap):
    """Population C_m, M, the top-k eigenvectors Phi_k of C_m and its spectrum."""
    pop = model.feature_population(fmap.transform)
    e, V = np.linalg.eigh(pop.C)
    return pop, np.ascontiguousarray(V[:, ::-1][:, :K]), e[::-1]


def _seed_int(cell, stream: str) -> int:
    """An integer seed in [0, 2^63) from (claim, seed, m, stream), not n: a fixed-m
    sweep reuses one feature map for every n (the curve follows one map); with
    m = m(n) the map changes with n anyway. An int seed lets an estimator draw
    exactly the map its factory drew (draw_rff consumes the generator first)."""
    words = [zlib.crc32(cell.base_claim.encode()), cell.seed, int(cell.p["m"]), zlib.crc32(stream.encode())]
    return int(np.random.SeedSequence(words).generate_state(1, np.uint64)[0] >> 1)


def _evaluate(model, pop, Phi, U) -> dict:
    """Lifted and projected excess risk, ESL quantity, ||G - I|| of the RF output U
    (rotated by the Procrustes R* towards Phi_k, Def. 3.6)."""
    opt = model.optimum(K)
    Ur = U @ procrustes_rotation(U, Phi)
    G, H = population_grams(Ur, pop.C, pop.M)
    J = lifted_objective(G, H)
    return {"J": J, "excess": opt - J, "excess_proj": opt - projected_objective(G, H),
            "esl": esl_quantity(Phi, U), "gram_dev": gram_deviation(G)}


# -- the RF estimators (role factories make(n_components, budget, kernel, random_state)) ---

KERNEL = Kernel("gaussian", gamma=GAMMA)
CHUNK = 256  # rows per partial_fit of a streaming estimator


def rf_erm(n_components, budget, kernel, random_state) -> RFERM:
    """RF-ERM (App. D.1): the top-k eigenvectors of C_hat_m = Z^T Z / n, m = ``budget``."""
    return RFERM(n_components, budget, kernel, "cos", random_state=random_state)


def _oja(n_components, budget, kernel, random_state, gamma: float) -> RFOja:
    """RF-Oja with eta_t = 2.5 / (gap (t + t0)), t0 = Lambda / gap^2: phase 3 of
    Thm D.3 from the start (the pilot form 2.5 / (gap t)), with the gap and Lambda
    of the population C_m of its own feature map (the theorem's setting: known
    constants; the int ``random_state`` draws the map RFOja draws). The full
    three-phase schedule spends its first T_0 + T_1 ~ 900 samples
    (k Lambda / gap^2 + Lambda / gap^2 here) at a small constant step, so the
    n <= 1024 cells would measure burn-in, which Thm 4.2 excludes (its n
    threshold): E_proj slope -1.35 [-1.52, -1.10] at ci with it."""
    _, _, lam = _population(_model(), draw_rff(1, budget, "gaussian", gamma, "cos", random_state))
    gap, Lam = float(lam[n_components - 1] - lam[n_components]), float(lam[:n_components].sum())
    return RFOja(n_components, budget, Kernel("gaussian", gamma=gamma), "cos",
                 learning_rate=InverseSchedule(eta0=2.5 / gap, t0=Lam / gap**2), qr_every=OJA_QR_EVERY,
                 random_state=random_state)


def rf_oja(n_components, budget, kernel, random_state) -> RFOja:
    """RF-Oja (App. D.2, Thm D.3): one pass of Oja's rule on ``budget`` random features."""
    return _oja(n_components, budget, kernel, random_state, kernel.gamma)


def _fitted(cell, estimators, role, random_state):
    """The estimator ``cell.method`` of role ``role`` after one pass over n Mehler samples
    (``fit``, or ``partial_fit`` over chunks of CHUNK rows for streaming-kpca)."""
    model = _model()
    X = model.sample(cell.n, cell.rng())
    est = build(estimators[cell.method], role, cell, n_components=K, budget=cell.p["m"], kernel=KERNEL,
                random_state=random_state)
    return model, (stream(est, X, CHUNK) if role == "streaming-kpca" else est.fit(X))


def rate_experiment(cell, estimators) -> dict:
    """Population excess risk E_proj = opt - J_proj of the fitted k functions
    f(x) = transform(x), read through the role only: J_proj = tr(G^{-1} H) with
    G = <f, f>_rho and H = <f, L f>_rho by quadrature over the oracle's nodes
    (``MehlerModel.feature_population`` of ``transform``)."""
    role = "streaming-kpca" if cell.method == "rf-oja" else "kpca-projection"
    model, est = _fitted(cell, estimators, role, _seed_int(cell, "features"))
    pop = model.feature_population(est.transform)
    return {"excess_proj": model.optimum(K) - projected_objective(pop.C, pop.M)}


def estimation_experiment(cell, estimators) -> dict:
    """One RF-ERM fit evaluated at population level on the estimator's own feature
    map (needs ``feature_map_`` and ``components_``, not only the role): E (lifted),
    E_proj, eps_a = opt - J(Phi_k), eps_e = J(Phi_k) - J(U rotated), the ESL
    quantity ||(Phi_k^perp)^T U||_F^2, its level n ESL / q against the first-order constant q
    of the estimator's own map (:func:`theory.rf_objective.esl_first_order`, expectation 1 up
    to O(1/n)) and ||G - I||_F."""
    model, est = _fitted(cell, estimators, "kpca-projection", _seed_int(cell, "features"))
    pop, Phi, _ = _population(model, est.feature_map_)
    out = _evaluate(model, pop, Phi, est.components_)
    J_opt = lifted_objective(*population_grams(Phi, pop.C, pop.M))
    out.update(eps_a=model.optimum(K) - J_opt, eps_e=J_opt - out["J"])
    out["eps_e_abs"] = abs(out["eps_e"])
    nodes, weights = model.quadrature()
    out["esl_level"] = cell.n * out["esl"] / esl_first_order(est.feature_map_.transform(nodes), weights, K)
    return out


# -- ullah18.objective-vs-subspace (n = infinity) ----------------------------------------

def gaussian_rff(m: int, seed: int):
    """The random Fourier map of the oracle's kernel: omega ~ N(0, 2 gamma), cos features."""
    return draw_rff(1, m, "gaussian", GAMMA, "cos", seed)


def population_experiment(cell, estimators) -> dict:
    """n = infinity: eps_a(m) = opt - J(Phi_k of the population C_m) and the HS
    distance between the top-k kernel eigenspace and span{z^T phi_i}."""
    model = _model()
    pop, Phi, _ = _population(model, estimators["features"](cell.p["m"], _seed_int(cell, "features")))
    G, H = population_grams(Phi, pop.C, pop.M)
    return {"eps_a": model.optimum(K) - lifted_objective(G, H),
            "dist": eigen_overlap_distance(pop.coef[:K], Phi, G)}


CONTRAST = 0.3  # slope(eps_a) < slope(dist) - 0.3


def judge_contrast(results, profile) -> Outcome:
    """Slopes of eps_a and of the distance vs m; the conservative CI of their
    difference (lower end minus upper end and vice versa) must lie below -CONTRAST."""
    fits, drawn = {}, []
    for metric, label, pred in (("eps_a", "objective gap ε_a(m)", -1.0), ("dist", "subspace distance", -0.5)):
        x, Y = collect(results, metric, key=lambda c: c.p["m"])
        fit = fit_loglog(x, Y)
        fits[metric] = fit
        drawn.append(Fit(label, x, Y, fit.slope, fit.ci, fit.intercept, predicted=pred, xlabel="m",
                         ylabel="population error (n = ∞)"))
    fa, fd = fits["eps_a"], fits["dist"]
    diff_ci = (fa.ci[0] - fd.ci[1], fa.ci[1] - fd.ci[0])
    status = verdict_from_ci(diff_ci, (-np.inf, -CONTRAST))
    summary = (f"eps_a slope {fmt_ci(fa)}, distance slope {fmt_ci(fd)}; difference CI "
               f"[{diff_ci[0]:+.3f}, {diff_ci[1]:+.3f}] (must lie below {-CONTRAST})")
    return Outcome(status, summary, drawn, {"eps_a_slope": fa.slope, "dist_slope": fd.slope, "diff_ci": list(diff_ci)},
                   {"eps_a_slope": -1.0, "dist_slope": -0.5, "contrast": -CONTRAST})


# -- ullah18.lemmas -------------------------------------------------------------------------

LEMMA_ATOL = 1e-9  # equalities and ratios hold to round-off (observed <= 1e-13 at m <= 64)


def _orthonormal(rng, m, k):
    return np.linalg.qr(rng.standard_normal((m, k)))[0]


def lemma_experiment(cell, estimators) -> dict:
    """C.6, C.7, C.8 (with the claim's rotation), C.9, F.1 on random matrices of
    size m = cell.n; the rotation of Def. 3.6 (orthogonal, leaves P_hat unchanged);
    and J_proj <= optimum for random RF subspaces on the Mehler oracle. Every metric
    is a violation, <= 0 (up to round-off) when the lemmas hold: the worst
    lhs / rhs - 1 of the inequalities, the spread of C.9's three forms, the rotation's
    error, and the largest J_proj - optimum."""
    rotation = estimators["rotation"]
    rng = cell.rng()
    m, k = cell.n, 4
    ratios = []
    for scale in (1e-3, 0.1, 1.0):
        phi = rng.standard_normal(m)
        phi /= np.linalg.norm(phi)
        lhs, rhs = lemma_c6(phi, phi + scale * rng.standard_normal(m) / np.sqrt(m))
        ratios.append(lhs / rhs)
        U, V = _orthonormal(rng, m, k), _orthonormal(rng, m, k)
        V = _orthonormal(rng, m, k) if scale == 1.0 else np.linalg.qr(U + scale * V)[0]
        lhs, rhs = lemma_c8(U, V, rotation=rotation)
        ratios.append(lhs / rhs)
        B = rng.standard_normal((m, m))
        A = B @ B.T / m
        E = scale * rng.standard_normal((m, m))
        ev = np.linalg.eigvalsh(A)
        for norm in ("spectral", "fro"):
            lhs, rhs = lemma_f1(A, A + (E + E.T) / 2, float(np.median(ev)), float(ev[-1] - ev[0]) / 4, norm)
            ratios.append(lhs / rhs)
    C = (lambda B: B @ B.T / m)(rng.standard_normal((m, m)))
    e, W = np.linalg.eigh(C)
    lhs, rhs, applies = lemma_c7(C, 0, W[:, -1] + 1e-4 * rng.standard_normal(m) / np.sqrt(m))
    ratios.append(lhs / rhs if applies else 0.0)
    Phi, Phi_hat = _orthonormal(rng, m, k), _orthonormal(rng, m, k)
    c9 = lemma_c9(Phi, Phi_hat)
    # Def. 3.6 rotation: orthogonal, optimal, and P_hat = Phi_tilde Phi_tilde^T unchanged
    R = rotation(Phi_hat, Phi)
    rot_err = max(np.linalg.norm(R.T @ R - np.eye(k)),
                  np.linalg.norm(Phi_hat @ R @ R.T @ Phi_hat.T - Phi_hat @ Phi_hat.T))
    # J_proj <= optimum (population) for random subspaces of a drawn RF map
    model = _model()
    pop, PhiC, _ = _population(model, draw_rff(1, 64, "gaussian", GAMMA, "cos", int(rng.integers(2**31))))
    excess_min = min(model.optimum(K) - projected_objective(*population_grams(U, pop.C, pop.M))
                     for U in [PhiC] + [_orthonormal(rng, 64, K) for _ in range(5)])
    return {"ratio_excess": float(max(ratios)) - 1.0, "c9_err": float(max(c9) - min(c9)),
            "rotation_err": float(rot_err), "jproj_above_opt": -float(excess_min)}


# -- ullah18.digits-curves ----------------------------------------------------------------------

DIGITS_M = 750          # the paper's m for RF-ERM and RF-Oja
DIGITS_NYSTROM = 100    # the paper's Nyström size
DIGITS_TEST = 597       # held-out rows of sklearn digits (1797 = 1200 stream + 597 test)
DIGITS_KS = PerProfile(ci=(5,), quick=(5, 10, 15), full=(5, 10, 15))
DIGITS_REPS = PerProfile(ci=1, quick=2, full=100)
DIGITS_CHECKPOINTS = PerProfile(ci=(50, 200, 800), quick=(25, 50, 100, 200, 400, 800),
                                full=(25, 50, 100, 200, 400, 800, 1600, 3200, 6400, 12800, 20000))
DIGITS_METHODS = ("erm", "nystrom", "rf-erm", "rf-oja")
# Evidence, sklearn digits, 1 rep, 1200 stream rows: relative gaps (ERM - J_proj) / ERM
# of RF-ERM -0.004 / -0.004 / -0.006 and of RF-Oja +0.007 / +0.022 / +0.034 for
# k = 5 / 10 / 15; 0.1 leaves a 3x margin at k = 15.
DIGITS_CLOSE = 0.1


def _digits_data(p):
    from ..datasets import load_digits_data, load_user_data

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


def _streamed(est, Xtr, Xte, kern, k, ts) -> dict:
    """An RF estimator fed the stream up to each checkpoint t: lifted J, J_proj
    (Procrustes-rotated towards the top-k eigenvectors of the held-out RF
    covariance), cumulative CPU seconds and the floats of state it holds."""
    out, Zte, cpu, prev = {}, None, 0.0, 0
    for t in ts:
        t0 = time.process_time()
        est.partial_fit(Xtr[prev:t])
        cpu += time.process_time() - t0
        prev = t
        if Zte is None:
            Zte = est.features(Xte)
            e, V = np.linalg.eigh(Zte.T @ Zte / len(Xte))
            Phi = np.ascontiguousarray(V[:, ::-1][:, :k])
        U = est.components_
        G, H = heldout_grams(Zte @ (U @ procrustes_rotation(U, Phi)), Xte, kern)
        out.update({f"var_{t}": lifted_objective(G, H), f"proj_{t}": projected_objective(G, H),
                    f"cpu_{t}": cpu, f"space_{t}": float(est.space_)})
    return out


def _refitted(make, Xtr, Xte, k, ts) -> dict:
    """A batch estimator refit on the first t rows at each checkpoint (as the paper
    does): captured held-out variance sum_i mean u_i(x)^2 of its H-orthonormal
    components, and the CPU seconds of that fit."""
    out = {}
    for t in ts:
        t0 = time.process_time()
        est = make(t).fit(Xtr[:t])
        cpu = time.process_time() - t0
        v = float(np.sum(np.mean(est.transform(Xte) ** 2, axis=0)))
        out.update({f"var_{t}": v, f"proj_{t}": v, f"cpu_{t}": cpu})
    return out


def digits_experiment(cell, estimators) -> dict:
    """Captured held-out variance vs samples seen (Fig. 2): var_t, proj_t (J_proj
    for the RF methods, var_t again for ERM / Nyström), cpu_t and, for the RF
    methods, space_t at each checkpoint t; opt = sum of the top-k eig(K_test / N)."""
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
        out = _streamed(make(k, kern, seed), Xtr, Xte, kern, k, ts)
    else:
        out = _refitted(lambda t: make(k, kern, t, seed), Xtr, Xte, k, ts)
    return {"opt": opt, **out}


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
    ts = sorted(int(key.split("_")[1]) for key in rows[0] if key.startswith("var_"))
    return np.array(ts), np.array([[m[f"{prefix}_{t}"] for t in ts] for m in rows]).mean(axis=0)


def _digits_ks(results):
    return sorted({r.cell.p["k"] for r in results})


def judge_digits(results, profile) -> Outcome:
    """Per k: the relative gap (ERM - J_proj) / ERM of RF-ERM and RF-Oja at the last
    checkpoint is <= DIGITS_CLOSE, and RF-Oja's state (space_) is the same at every
    checkpoint."""
    parts, gaps, notes, grown = [], {}, [], []
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
    summary = (f"relative gap of J_proj to ERM's held-out variance at the last checkpoint (<= {DIGITS_CLOSE}): "
               + "; ".join(notes) + ("; RF-Oja state grows with n (" + ", ".join(grown) + ")" if grown
                                     else "; RF-Oja state constant in n"))
    return Outcome(combine(parts), summary, [], gaps, {"close": DIGITS_CLOSE})


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


# -- planted faults --------------------------------------------------------------------------

class FixedMRFERM(RFERM):
    """RF-ERM that keeps 32 features whatever m it is given: E_proj stalls at eps_a(32)."""

    def fit(self, X):
        self.n_features = PLATEAU_M
        return super().fit(X)


class GrowingMRFERM(RFERM):
    """RF-ERM that grows its features with n (m = ceil(sqrt(n) ln n)) whatever fixed m
    it is given: the fixed-m negative control must see the rate and fail."""

    def fit(self, X):
        self.n_features = m_rule(len(X))
        return super().fit(X)


class EveryOtherRowRFERM(RFERM):
    """Fits X[::2] (a stride slip): half the rows, so the estimation error keeps its rate
    n^-1 and doubles its level."""

    def fit(self, X):
        return super().fit(np.asarray(X)[::2])


def rf_erm_every_other_row(n_components, budget, kernel, random_state):
    return EveryOtherRowRFERM(n_components, budget, kernel, "cos", random_state=random_state)


class FirstRowsRFERM(RFERM):
    """Fits only the first 128 rows, whatever n: the estimation error cannot decay."""

    def fit(self, X):
        return super().fit(np.asarray(X)[:128])


def rf_erm_fixed_m(n_components, budget, kernel, random_state):
    return FixedMRFERM(n_components, budget, kernel, "cos", random_state=random_state)


def rf_erm_growing_m(n_components, budget, kernel, random_state):
    return GrowingMRFERM(n_components, budget, kernel, "cos", random_state=random_state)


def rf_erm_first_rows(n_components, budget, kernel, random_state):
    return FirstRowsRFERM(n_components, budget, kernel, "cos", random_state=random_state)


def quarter_power_budget(m: int) -> int:
    """The near-miss budget ceil(n^(1/4)) for the n whose theorem budget is m = m_rule(n)
    (the smallest such n): far below sqrt(n) ln n, so eps_a(m) ~ 1/m decays like
    n^(-1/4) and the excess cannot reach n^(-1/2)."""
    return max(K, math.ceil(smallest_n(m_rule, m) ** 0.25))


def rf_erm_quarter_power(n_components, budget, kernel, random_state):
    return rf_erm(n_components, quarter_power_budget(budget), kernel, random_state)


def rf_oja_quarter_power(n_components, budget, kernel, random_state):
    return rf_oja(n_components, quarter_power_budget(budget), kernel, random_state)


def rf_oja_wrong_variance(n_components, budget, kernel, random_state):
    """omega ~ N(0, gamma) instead of N(0, 2 gamma): the features approximate
    exp(-gamma (x - y)^2 / 2), not the oracle's kernel."""
    return _oja(n_components, budget, kernel, random_state, kernel.gamma / 2)


def rff_wrong_variance(m, seed):
    """The map of :func:`gaussian_rff` with half the frequency variance (another kernel)."""
    return draw_rff(1, m, "gaussian", GAMMA / 2, "cos", seed)


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


# -- the claims -------------------------------------------------------------------------------

POP_MS = PerProfile(ci=tuple(16 * 2**j for j in range(6)), quick=tuple(16 * 2**j for j in range(7)),
                    full=tuple(16 * 2**j for j in range(9)))
POP_SEEDS = PerProfile(ci=10, quick=20, full=100)
LEMMA_CASES = PerProfile(ci=10, quick=30, full=200)
RATE_EVIDENCE = ("a pilot run (s = 1, l = 0.7, k = 3, n = 256..8192, 20 repetitions, population quantities "
                 "by quadrature) measured slopes -0.62 for RF-ERM (-0.66 for n >= 1024, eps_a alone -0.60) and "
                 "-0.76 for RF-Oja (its early values include optimisation error); the bound's log m / m "
                 "gives a local slope of about -0.52, 1/m about -0.61 at n = 1e4. The theorem is an upper bound "
                 "(O~(1/sqrt n) or faster), so the band is one-sided: the earlier [-1.2, -0.45] left RF-Oja "
                 "inconclusive at ci, where its first cells still shed optimisation error (5 seeds: -1.07 "
                 "[-1.25, -0.86]; 20 seeds: -1.10 [-1.22, -0.96]). At ci with 10 seeds: RF-ERM -0.854 "
                 "[-0.991, -0.680], RF-Oja -0.983 [-1.135, -0.818]. The near-miss control m = ceil(n^(1/4)) "
                 "fails at ci: RF-ERM -0.209 [-0.386, -0.044], RF-Oja -0.199 [-0.389, -0.048]; m = ceil(sqrt m) "
                 "(about n^(1/4) sqrt(ln n)) was too near the band to decide (-0.34 [-0.49, -0.20])")
RATE_BUDGET = "m = ⌈√n ln n⌉ random features, k = 3"
PROBE_NEEDS = "transform at the oracle's quadrature nodes (the k functions it fits)"
RF = ("random-features",)  # the rates and the plateau are statements about random features
SLOPE_RULE = "bootstrap 95% CI of the slope of log mean E_proj = opt - J_proj vs log n inside "

CLAIMS = [
    Claim(
        id="ullah18.rate-erm",
        source="Ullah et al. 2018, Thm 4.2, Cor. 4.3 and Cor. 4.4(a)",
        statement="RF-ERM with m = ⌈√n ln n⌉ random features attains excess risk O~(1/√n)",
        prediction="slope of the population excess risk vs n about -1/2 (or faster)",
        data=MEHLER,
        metric="population excess risk E_proj = sum_{i<=k} lambda_bar_i - J_proj of the fitted subspace",
        estimators={"rf-erm": rf_erm},
        experiment=rate_experiment,
        grid=_rate_grid(per_size=_m_grows),
        subject=Subject("kpca-projection", "rf-erm", centred=False, kernel="gaussian", budget=RATE_BUDGET,
                        needs=PROBE_NEEDS, kinds=RF),
        judge=SlopeInBand("excess_proj", RATE_BAND, label="RF-ERM, m = ⌈√n ln n⌉: E_proj",
                          ylabel="population excess risk", predicted=-0.5, impossible=EXCESS_FLOOR),
        tolerance=Tolerance(SLOPE_RULE + f"{list(RATE_BAND)}", RATE_EVIDENCE),
        faults=(Fault("fixed-m", "an RF-ERM that keeps m = 32 features whatever n: E_proj stalls at eps_a(32)",
                      {"rf-erm": rf_erm_fixed_m}),
                Fault("quarter-power-m", "a near miss: RF-ERM with m = ⌈n^(1/4)⌉ features instead of ⌈√n ln n⌉",
                      {"rf-erm": rf_erm_quarter_power})),
    ),
    Claim(
        id="ullah18.rate-oja",
        source="Ullah et al. 2018, Thm 4.2, Cor. 4.3 and Cor. 4.4(b)",
        statement="RF-Oja with m = ⌈√n ln n⌉ random features attains excess risk O~(1/√n)",
        prediction="slope of the population excess risk vs n about -1/2 (or faster)",
        data=MEHLER,
        metric="population excess risk E_proj of RF-Oja's subspace after one pass, "
               "eta_t = 2.5 / (gap (t + Lambda / gap^2))",
        estimators={"rf-oja": rf_oja},
        experiment=rate_experiment,
        grid=_rate_grid(per_size=_m_grows),
        subject=Subject("streaming-kpca", "rf-oja", centred=False, kernel="gaussian", budget=RATE_BUDGET,
                        needs=PROBE_NEEDS + f"; partial_fit over chunks of {CHUNK} rows", kinds=RF),
        judge=SlopeInBand("excess_proj", RATE_BAND, label="RF-Oja, m = ⌈√n ln n⌉: E_proj",
                          ylabel="population excess risk", predicted=-0.5, impossible=EXCESS_FLOOR),
        tolerance=Tolerance(SLOPE_RULE + f"{list(RATE_BAND)}", RATE_EVIDENCE),
        faults=(Fault("wrong-frequency-variance", "RF-Oja whose frequencies have variance gamma instead of "
                      "2 gamma: the features approximate another kernel, so E_proj stalls",
                      {"rf-oja": rf_oja_wrong_variance}),
                Fault("quarter-power-m", "a near miss: RF-Oja with m = ⌈n^(1/4)⌉ features instead of ⌈√n ln n⌉",
                      {"rf-oja": rf_oja_quarter_power})),
    ),
    Claim(
        id="ullah18.fixed-m-plateau",
        source="Ullah et al. 2018, Lemma 4.5 (negative control)",
        statement=f"With a fixed m = {PLATEAU_M} the excess risk stalls at eps_a(m): m must grow with n",
        prediction="slope of E_proj vs n about 0",
        data=MEHLER,
        metric=f"population excess risk E_proj of RF-ERM with m = {PLATEAU_M}",
        estimators={"rf-erm": rf_erm},
        experiment=rate_experiment,
        grid=_rate_grid(params={"m": PLATEAU_M}),
        subject=Subject("kpca-projection", "rf-erm", centred=False, kernel="gaussian",
                        budget=f"m = {PLATEAU_M} features whatever n (the rate must stall)", needs=PROBE_NEEDS,
                        kinds=RF),
        judge=SlopeInBand("excess_proj", PLATEAU_BAND, label=f"RF-ERM, fixed m = {PLATEAU_M}: E_proj",
                          ylabel="population excess risk", predicted=0.0, impossible=EXCESS_FLOOR),
        tolerance=Tolerance(SLOPE_RULE + f"{list(PLATEAU_BAND)}",
                            "at ci (n = 128..4096, 5 seeds) the slope measured -0.020 [-0.057, +0.011]; "
                            "no other measurement recorded"),
        faults=(Fault("m-grows-with-n", "an RF-ERM that uses m = ⌈√n ln n⌉ features whatever m it is given: "
                      "the rate returns and the plateau claim must fail", {"rf-erm": rf_erm_growing_m}),),
    ),
    Claim(
        id="ullah18.estimation",
        source="Ullah et al. 2018, Lemma 4.6 / C.11, Def. 4.1",
        statement="At fixed m the estimation error eps_e of RF-ERM decays like q/n",
        prediction="the ESL quantity ||(Phi_k^perp)^T Phi_hat||^2 about -1 (the proof's q/n), at the level of "
                   "its first-order constant q; |eps_e| at least n^(-1/2) (its first-order term; the paper's q/n "
                   "is for the ESL quantity only)",
        data=MEHLER,
        metric="ESL quantity ||(Phi_k^perp)^T U||_F^2 (Phi_k: top-k eigenvectors of the population C_m) and "
               "|eps_e| = |J(Phi_k) - J(U rotated)| of RF-ERM with m = 256 (ci) or 512",
        estimators={"rf-erm": rf_erm},
        experiment=estimation_experiment,
        grid=PerProfile(*(Grid(NS[p], ESTIMATION_SEEDS[p], params={"m": ESTIMATION_M[p]})
                          for p in ("ci", "quick", "full"))),
        judge=AllOf(SlopeInBand("esl", (-1.3, -0.7), label="ESL ‖(Φ_k^⊥)ᵀΦ̂‖²", ylabel="estimation error",
                                predicted=-1.0, name="esl_slope"),
                    SlopeInBand("eps_e_abs", (-np.inf, EPS_E_SLOPE_MAX), label="|ε_e|", ylabel="estimation error",
                                predicted=-0.5, name="eps_e_abs_slope"),
                    MeanAtMost("esl_level", ESL_LEVEL_MAX, "n ESL / q (first-order constant, expectation 1)",
                               x=None)),
        tolerance=Tolerance(f"ESL slope CI inside [-1.3, -0.7]; the slope CI of mean |eps_e| has upper end <= "
                            f"{EPS_E_SLOPE_MAX} (eps_e itself changes sign, so its mean has no log-log slope); "
                            f"mean n ESL / q over every cell <= {ESL_LEVEL_MAX}",
                            "m = 512, 10 seeds: ESL slope -1.02 [-1.25, -0.78] (8 seeds: lower CI end -1.32). "
                            "|eps_e| is judged at the rate that is mathematically right, n^(-1/2): its first-order "
                            "term in Phi_hat - Phi_k does not vanish (Phi_k maximises the objective in L_m, not in "
                            "L), so the q/n of the paper's Lemma C.11 holds for the ESL quantity only. Measured: "
                            "|eps_e| -0.74 [-0.91, -0.58] (m = 512, 10 seeds), -0.58 [-0.71, -0.45] (quick), and "
                            "at ci (m = 256, 24 seeds; 8 seeds left both CIs too wide) ESL -0.952 [-1.067, -0.834], "
                            "|eps_e| -0.620 [-0.760, -0.480]; -0.35 leaves room above -0.5 for the log factors. The "
                            f"level: pooled n ESL / q <= {ESL_LEVEL_MAX} (q the first-order constant of the fitted "
                            "map, so the expectation is 1 up to O(1/n)): ci grid, 8 batches of 24 seeds, 0.873-1.064 "
                            "(seeds 0-23: 0.898); quick, 2 batches of 20, 0.865-0.991. Single cells spread like a "
                            "chi-square with few degrees of freedom (sd 0.85 at ci), the pooled mean does not. The "
                            "near miss every-other-row (slope still -1): 1.82-2.23 over the same 8 batches"),
        faults=(Fault("first-rows", "an RF-ERM that fits only the first 128 rows whatever n",
                      {"rf-erm": rf_erm_first_rows}),
                Fault("every-other-row", "a near miss: an RF-ERM that fits X[::2]; ESL keeps its n^-1 rate and "
                      "doubles its level q/n", {"rf-erm": rf_erm_every_other_row})),
    ),
    Claim(
        id="ullah18.objective-vs-subspace",
        source="Ullah et al. 2018, Sec. 1 and Lemma 4.5",
        statement="In objective value the RF approximation error decays like 1/m (up to log m), "
                  "while the eigenspace error decays like 1/sqrt(m)",
        prediction="eps_a slope about -1, subspace distance slope about -1/2",
        data=MEHLER + "; n = infinity (the population C_m of one drawn map)",
        metric="eps_a(m) = opt - J(Phi_k of C_m) and the HS distance in L^2(rho) between the top-k kernel "
               "eigenspace and span{z^T phi_i}, against m",
        estimators={"features": gaussian_rff},
        experiment=population_experiment,
        grid=PerProfile(*(Grid(POP_MS[p], POP_SEEDS[p], per_size=_m_is_n, methods=("population",))
                          for p in ("ci", "quick", "full"))),
        judge=judge_contrast,
        tolerance=Tolerance(f"slope(eps_a) < slope(dist) - {CONTRAST}: the conservative CI of the difference "
                            f"(the two slope CIs combined worst-case) below {-CONTRAST}",
                            "a pilot run (100 repetitions, m = 16..1024) measured eps_a 3.85e-2 -> 4.59e-4, "
                            "slope -1.07, and the distance 0.751 -> 0.0852, slope -0.52"),
        faults=(Fault("wrong-frequency-variance", "frequencies with variance gamma instead of 2 gamma: the "
                      "map approximates another kernel, so neither error decays to 0",
                      {"features": rff_wrong_variance}),),
    ),
    Claim(
        id="ullah18.lemmas",
        source="Ullah et al. 2018, Lemmas C.6-C.9, F.1, Def. 3.6 / E.1, Cor. C.12",
        statement="The deterministic lemmas hold on random matrices; the Def. 3.6 rotation is orthogonal "
                  "(Lemma E.1's formula is not); J_proj never exceeds the optimum",
        prediction="every inequality holds, C.9's three forms agree",
        data="random Gaussian matrices of size m in (8, 32, 64) (subspaces with k = 4 at three distances, "
             "Wishart matrices with symmetric perturbations), and random k = 3 subspaces of a drawn "
             "64-feature map on the Mehler oracle",
        metric="violations: worst lhs / rhs - 1 over C.6, C.7, C.8, F.1 (spectral and Frobenius); spread of "
               "C.9's three forms; ||R^T R - I|| and the change of P_hat under the rotation; max J_proj - opt",
        estimators={"rotation": procrustes_rotation},
        experiment=lemma_experiment,
        grid=PerProfile(*(Grid((8, 32, 64), LEMMA_CASES[p], methods=("lemmas",)) for p in ("ci", "quick", "full"))),
        judge=AllWithin(LEMMA_ATOL, ("ratio_excess", "c9_err", "rotation_err", "jproj_above_opt")),
        tolerance=Tolerance(f"every violation <= {LEMMA_ATOL:g} (round-off)",
                            "observed <= 1e-13 at m <= 64"),
        faults=(Fault("lemma-e1-rotation", "the paper's literal Lemma E.1 rotation R* = Phi_tilde^T Phi_k "
                      "(not orthogonal)", {"rotation": lemma_e1_rotation}),),
    ),
    Claim(
        id="ullah18.digits-curves",
        source="Ullah et al. 2018, Sec. 5, Fig. 2",
        statement="On real images RF-ERM and RF-Oja (m = 750) approach ERM's captured held-out variance; "
                  "RF-Oja keeps O(mk) state",
        prediction="RF curves approach ERM (the lifted J from above); RF-Oja memory independent of n",
        data="sklearn digits (1797 x 64; 597 held-out rows, the rest streamed in a seeded random order) or a "
             "user's --data file (a third held out, at most 10000); Gaussian kernel with gamma = 1 / median "
             "||x - y||^2 (median_gamma, scale 1, over at most 1000 rows), or the paper's sigma^2 = 50 for "
             "784-pixel MNIST",
        metric="relative gap (ERM - J_proj) / ERM of the captured held-out variance at the last checkpoint, "
               "and RF-Oja's floats of state (space_) at every checkpoint",
        estimators={"erm": exact_erm, "nystrom": nystrom, "rf-erm": digits_rf_erm, "rf-oja": digits_rf_oja},
        experiment=digits_experiment,
        grid=PerProfile(*(_digits_grid(p) for p in ("ci", "quick", "full"))),
        judge=judge_digits,
        tolerance=Tolerance(f"relative gap of J_proj to ERM at the last checkpoint <= {DIGITS_CLOSE} for every k; "
                            "RF-Oja space_ identical at every checkpoint",
                            "sklearn digits, 1 rep, 1200 stream rows: relative gaps of RF-ERM -0.004 / -0.004 / "
                            "-0.006 and of RF-Oja +0.007 / +0.022 / +0.034 for k = 5 / 10 / 15; 0.1 leaves a 3x "
                            "margin at k = 15. Frequencies with half the variance (another kernel's features) "
                            "do not exceed it: the subspace of a wider kernel captures similar variance"),
        faults=(Fault("feature-storing-oja", "an RF-Oja that keeps every feature row it has seen (O(nm) state)",
                      {"rf-oja": feature_storing_oja}, keep=_without_nystrom),
                Fault("frozen-oja", "an RF-Oja that takes one step on the first row and ignores the rest",
                      {"rf-oja": frozen_oja}, keep=_without_nystrom)),
        figure=digits_figure,
        takes_data=True,
    ),
]
