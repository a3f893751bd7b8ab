"""sterge20.cor43-gaussian and cor43-gaussian-centred: Corollary 4.3 (exponential decay) on a
Gaussian-kernel population, so that any Nyström or exact KPCA with a Gaussian kernel (ours,
scikit-learn's pipelines, the nystrompca package, a user's) gets a rate verdict.

The population is the Mehler model (:mod:`theory.mehler`): x ~ N(0, 1) and
k(x, y) = exp(-gamma (x - y)^2) have the eigenvalues lambda_j = sqrt(2a/A) B^j, an exact
exponential decay e^{-tau j} with tau = -ln B, which is the case of Corollary 4.3. gamma = 3
gives B = 2/3 (tau = ln 1.5 = 0.405): l = (theta/tau) ln n = 6..11 spans n = 129..7481,
5.9 octaves at ci with m = ceil(sqrt(n) ln n) <= 772 landmarks. A smaller gamma decays
faster and needs n beyond 10^5 for as many l (gamma = 1: B = 0.38); a larger one needs
more quadrature nodes (at gamma = 5, 100 nodes integrate a kernel section to 7e-9; at
gamma = 3, 200 nodes to 3e-16).

The corollary is about Nyström (and exact) KPCA, so random-feature methods are ``n/a``
here: theirs is another approximation with another rate (ullah18's claims), and their
scores are not coordinates in an orthonormal basis of the RKHS.

The population error is read through transform alone. A KPCA's scores are the
coordinates of the projection P k_x in an orthonormal basis of its subspace (true of
every KPCA whose components have unit norm in the RKHS: ours, scikit-learn's KernelPCA
and PCA after Nystroem, nystrompca), so ||P k_x||^2 = ||f(x)||^2 and

.. math::  R(P) = \\operatorname{tr} C - E\\|f(X)\\|^2, \\qquad
           R_c(P) = \\operatorname{tr} \\Sigma - \\operatorname{tr} \\operatorname{Cov}(f(X))

(uncentred; centred, where the scores of P(k_x - mu) are f(x) - E f(X)), by quadrature
on the oracle's nodes, against R_{C,l} = sum_{j>l} lambda_j (Mehler's closed form) or the
centred operator's tail (:meth:`~theory.mehler.MehlerModel.centred_spectrum`). Scores on
another scale are a defect these claims see: too large, R falls below R_{C,l}, which no
rank-l projector can do; too small, the level fails.
"""

from __future__ import annotations

import dataclasses
import functools
import math

import numpy as np

from kpca_suite.kernels import Kernel
from kpca_suite.methods import NystromKPCA, UniformLandmarks
from kpca_suite.methods.centered_nystrom import CenteredNystromKPCA
from kpca_suite.theory import exp_grid, octaves
from kpca_suite.theory.mehler import MehlerModel, mehler_constants

from ...claim import Cell, Claim, Fault, Grid, PerProfile, Tolerance
from ...roles import Subject, build
from ._common import SEEDS
from .rates import THETA, UNIFORM_LABEL, _m_uniform, _rate_judge, _three_seeds, _within, rank_short_nystrom

GAMMA, DATA_VAR, NODES = 3.0, 1.0, 200


TAU = -math.log(mehler_constants(GAMMA, DATA_VAR)[4])  # lambda_j ∝ B^j = e^{-tau j}


ELLS = PerProfile(ci=range(6, 12), quick=range(6, 13), full=range(6, 16))  # n = 129 .. 7481 / 16829 / 191751


KERNEL = Kernel("gaussian", gamma=GAMMA)


def _model() -> MehlerModel:
    return MehlerModel(GAMMA, (DATA_VAR,), n_nodes=NODES)


def gaussian_rate_experiment(cell: Cell, estimators) -> dict:
    """One rank-l fit of ``estimators["nystrom"]`` (a kpca-projection factory given l,
    the budget m and the Gaussian kernel) on n Mehler samples: its population error R
    (module docstring; centred when the cell says ``centred``), the optimum R_{C,l}, their
    ratio and the number of score columns k."""
    p = cell.p
    model = _model()
    X = model.sample(cell.n, cell.rng())
    est = build(estimators["nystrom"], "kpca-projection", cell, n_components=p["ell"], budget=p["m"], kernel=KERNEL,
                random_state=cell.seed_int("landmarks")).fit(X)
    nodes, w = model.quadrature()
    F = est.transform(nodes)
    if p["centred"]:
        F = F - w @ F
        lam = model.centred_spectrum()[0]
    else:
        lam = model.eigenvalues
    R = float(lam.sum() - w @ np.sum(F**2, axis=1))
    tail = float(lam[p["ell"]:].sum())
    return {"R": R, "R_C": tail, "ratio": R / tail, "k": float(F.shape[1])}


def _params(ells, n):
    ell = ells[n]
    return {"ell": ell, "m": _m_uniform(n)}


def _grid(centred: bool, profile: str) -> Grid:
    ells = list(ELLS[profile])
    ns = tuple(int(n) for n in exp_grid(ells, TAU, THETA))
    assert octaves(ns) >= 5, "rate fits need at least 5 octaves of n"
    return Grid(sizes=ns, seeds=SEEDS[profile], params={"gamma": GAMMA, "var": DATA_VAR, "centred": centred},
                per_size=functools.partial(_params, dict(zip(ns, ells))), methods=("uniform",),
                describe=f"l = {ells[0]}..{ells[-1]}, n = e^(2 τ l) = {ns[0]}..{ns[-1]}, m = ⌈√n ln n⌉, "
                         f"{SEEDS[profile]} seeds")


@dataclasses.dataclass(frozen=True)
class _OneSided:
    """m landmarks drawn uniformly from the points with x > 0 only (a sample of one half
    of the data, as from the upper half of a sorted array)."""

    m: int

    def select(self, X, kernel, random_state=None):
        upper = np.flatnonzero(X[:, 0] > 0)
        return np.sort(np.random.default_rng(random_state).choice(upper, min(self.m, upper.size), replace=False))


def uniform_nystrom(n_components, budget, kernel, random_state):
    """Uncentred Nyström KPCA on ``budget`` uniform landmarks."""
    return NystromKPCA(n_components, kernel, landmarks=UniformLandmarks(budget), random_state=random_state)


def centred_nystrom(n_components, budget, kernel, random_state):
    """Centred Nyström KPCA (the full-data mean, Hallgren's Theorem 1) on ``budget`` uniform landmarks."""
    return CenteredNystromKPCA(n_components, kernel, landmarks=budget, random_state=random_state)


def one_sided_nystrom(n_components, budget, kernel, random_state):
    return NystromKPCA(n_components, kernel, landmarks=_OneSided(budget), random_state=random_state)


def one_sided_centred(n_components, budget, kernel, random_state):
    return CenteredNystromKPCA(n_components, kernel, landmarks=_OneSided(budget), random_state=random_state)


def uncentred_as_centred(n_components, budget, kernel, random_state):
    """A "centred" Nyström whose fit does not centre: the uncentred subspace, which holds
    the mean's direction instead of a centred principal one."""
    return NystromKPCA(n_components, kernel, landmarks=UniformLandmarks(budget), random_state=random_state)


DATA = (f"1-D Mehler model: x ~ N(0, {DATA_VAR:g}), Gaussian kernel exp(-γ (x - y)²) with the fixed γ = {GAMMA:g} "
        f"(eigenvalues ∝ (2/3)^j, τ = ln 1.5); R by {NODES}-node Gauss-Hermite quadrature of the scores")


NEEDS = "transform at the oracle's quadrature nodes, scores in an orthonormal basis of the fitted subspace"


#: The level of both claims, above cor43-exp's 1.15: at the smallest n (l = 6, 5 seeds at ci)
#: one draw can read 1.40, and a correct fit's seed mean reached 1.144 (ci, root 1), while the
#: nearest planted bugs read 1.49 (centred: an uncentred fit) and 1.57 (rank l - 1).
LEVEL = 1.25


def _claim(centred: bool, faults, evidence) -> Claim:
    kind = "centred " if centred else ""
    level = LEVEL
    return Claim(
        id="sterge20.cor43-gaussian" + ("-centred" if centred else ""),
        source="Sterge et al. 2020, Corollary 4.3(iii), θ < 1 (plain Nyström, exponential decay), on a "
               "Gaussian-kernel population" + (", centred: beyond the paper's uncentred KPCA, against the centred "
                                              "covariance operator" if centred else ""),
        statement=f"{kind.capitalize()}Nyström KPCA with a Gaussian kernel, m = n^θ ln n and l = (θ/τ) ln n "
                  "attains the rate of R_{C,l} ≍ n^-θ (the paper's bound: R ≲_P n^-θ log n)",
        prediction="slope of the population R vs n within 0.1 of the exact R_C,l's on the same grid (≈ -θ; θ = 1/2, "
                   "τ = ln 1.5), two-sided where the paper's bound is one-sided with a log n factor (R >= R_C,l "
                   "gives the lower side)",
        data=DATA + ("; centred: R_c = tr Σ - tr Cov(f(X)) against the centred operator's tail" if centred else ""),
        metric=f"{kind}population R(P) of the rank-l projection; R / R_C,l",
        metrics=("R", "R_C", "k", "ratio"),
        estimators={"nystrom": centred_nystrom if centred else uniform_nystrom},
        experiment=gaussian_rate_experiment,
        grid=PerProfile(*(_grid(centred, p) for p in ("ci", "quick", "full"))),
        subject=Subject("kpca-projection", "nystrom", centred=centred, kernel="gaussian",
                        budget="m = ⌈n^θ ln n⌉ landmarks (θ = 1/2), rank l", needs=NEEDS,
                        kinds=("nystrom", "exact")),
        judge=_rate_judge(_within(0.1), f"{kind}{UNIFORM_LABEL}", level),
        tolerance=Tolerance(f"|slope - reference| <= 0.1 (CI inside); mean R/R_{{C,l}} <= {level} at every n, "
                            "never below 1 (impossible), and its slope <= +0.05", evidence),
        faults=faults,
    )


CLAIMS = [
    _claim(False, (Fault("one-sided", "m landmarks from the points with x > 0 only",
                         {"nystrom": one_sided_nystrom}, keep=_three_seeds),
                   Fault("rank-short", "a near miss: rank l - 1 when asked for l (an off-by-one)",
                         {"nystrom": rank_short_nystrom}, keep=_three_seeds)),
           "ci (l = 6..11, seeds 0-4): our Nyström slope -0.515 [-0.518, -0.512] against the exact R_C,l's -0.500, "
           "max mean R/R_C,l 1.068 (n = 130); scikit-learn's Nystroem + TruncatedSVD -0.515, 1.068. The faults: "
           "one-sided landmarks -0.026 and 19.3, rank l - 1 a level of 1.569. At quick (l = 6..13, n up to 37877, "
           "seeds 0-9) -0.511 [-0.513, -0.509], max mean 1.072 (n = 130); quick stops at l = 12 (n = 16834) since "
           "2026-11-29 (the l = 13 cells were half its time): roots 0-4 hold, slopes -0.520 .. -0.513, max "
           "mean 1.068-1.123. The level was cor43-exp's 1.15 until the "
           "corpus of correct variants ran under root seeds 0-4 (python -m tests.variants.run --profile ci --roots 0 "
           "1 2 3 4): under root 1 every variant's seed mean at n = 130 read 1.139-1.144 (one of its 5 draws 1.40, "
           "whatever the implementation), x1.005 under 1.15. Hence 1.25: room x1.09 above the worst correct 1.144 "
           "(float32, root 1) and x1.26 below the best bug, rank l - 1, 1.57. The slope band's margins (python -m tests.variants.margins, ci, root 0): "
           "correct CIs end at least 0.081 inside the slope's band (float32), one-sided landmarks' lies 0.374 "
           "outside; the ratio's slope: 0.062 inside +0.05 (ours), one-sided 0.424 above"),
    _claim(True, (Fault("one-sided", "m landmarks from the points with x > 0 only",
                        {"nystrom": one_sided_centred}, keep=_three_seeds),
                  Fault("uncentred-fit", "a fit that does not centre, judged as the centred method it claims to be",
                        {"nystrom": uncentred_as_centred}, keep=_three_seeds)),
           "ci (l = 6..11, seeds 0-4): the paper's centred Nyström slope -0.520 [-0.524, -0.517] against the "
           "centred R_C,l's -0.502, max mean R/R_C,l 1.098 (n = 130); the nystrompca package -0.520, 1.097 (380 s: "
           "its own kernel loops); scikit-learn's Nystroem + PCA -0.521, 1.101. The faults: one-sided landmarks "
           "-0.031 and 22.9, an uncentred fit a level of 1.493. At quick (seeds 0-9) -0.519 [-0.525, -0.516], max "
           "mean 1.131 at n = 130 (cells up to 1.387); at quick to l = 12 (2026-11-29), roots 0-4: slopes -0.523 .. "
           "-0.515, max mean 1.057-1.115. The level is the uncentred claim's 1.25 (it was 1.2). "
           "Correct variants written outside (tests/variants, ci, roots 0-4: features centred, ARPACK, float32) "
           "1.131 at worst (centred float32, root 1): room x1.11 below; the best bug, an uncentred fit, 1.49: "
           "x1.19 above. Float32 rows whitened with the float64 cut-off read 1.210 here, which no level with "
           "room on both sides tells from a correct fit; cor43-exp-centred (2.44 against 1.15) and "
           "cor42-poly-centred (1.69) fail them. The slope band's margins (python -m tests.variants.margins, ci, root 0): "
           "correct CIs end at least 0.078 inside the slope's band (centred float32), one-sided landmarks' lies "
           "0.364 outside; the ratio's slope: 0.064 inside +0.05 (ARPACK), one-sided 0.414 above"),
]
