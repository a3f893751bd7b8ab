"""ghashami16.rff-rate, lemma22, thm21: random Fourier features, their sketch, SKPCA's bound."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from kpca_suite.kernels import Kernel, RandomFourierFeatures, check_random_state, draw_rff
from kpca_suite.kernels.frequent_directions import FrequentDirections
from kpca_suite.methods.base import reset_fitted
from kpca_suite.methods.skpca import SKPCA
from kpca_suite.theory.ghashami16 import lemma22_bound, rff_expected_frobenius_sq, rn_gamma, theorem21_bound

from ...adapters import RandomFourierMap, ours_rff
from ...claim import Cell, Claim, Fault, Grid, PerProfile, Tolerance
from ...judging import AllOf, AllWithin, MeanAtMost, SlopeInBand, UnderBound, WhereExposed, WithErratum
from ...probes import last_chunk_misread, row_chunks
from ...roles import Subject, build
from ._common import _errors, _gram, _rn_data, _spectral, crossed, single_threaded


def _five_seeds(cell: Cell) -> bool:
    """rff-rate's and thm21's faults run on seeds 0-4, the ci count they were declared against:
    each fails by far more than the spread the claims' 20 seeds narrow."""
    return cell.seed < 5


# -- ghashami16.rff-rate -------------------------------------------------------------------

RFF_BAND = (-1.1, -0.35)


#: The level of the random-feature error: the mean over every (m, seed) cell of
#: ||G - ZZ^T||_F^2 / E||G - ZZ^T||_F^2 (E for m i.i.d. cos features; its expectation is 1 in
#: every cell) is at most this. Single cells are heavy-tailed (ci: 0.64 to 3.0), the pooled
#: mean is not: ci grid (n = 400, m = 32..1024), 50 seeds in 10 batches of 5: pooled means
#: 0.879-1.102 (seeds 0-4: 0.987; quick, n = 1500, seeds 0-4: 0.960). The near miss with m/2
#: draws each used twice (expectation 2): 1.675-2.209 over the same 10 batches.
RFF_LEVEL_MAX = 1.4


# |tr(ZZ^T) / tr(G) - 1| pooled over the cells; evidence in ghashami16.rff-rate's declaration.
RFF_SCALE_MAX = 0.05


@single_threaded
def rff_experiment(cell: Cell, estimators) -> dict:
    """||G - Z Z^T||_2 / n and ||G - Z Z^T||_F / n^2 for m random Fourier features
    (RNCA's Gram approximation), and the level ``frob_level`` = ||G - Z Z^T||_F^2 over its
    exact expectation for m i.i.d. cos features, sum_ij (1 + G_ij^4 / 2 - G_ij^2) / m
    (:func:`theory.ghashami16.rff_expected_frobenius_sq`; K(2 Delta) = K(Delta)^4 for the
    Gaussian kernel), and ``scale_error`` = |c - 1|, c = tr(Z Z^T) / tr(G): Z Z^T is about
    c K, and c = 1 in expectation for any unbiased map (a map off by a constant factor
    has c far from 1)."""
    p = cell.p
    X = _rn_data(cell, cell.n, p["d"])
    gamma = rn_gamma(p["d"])
    est = build(estimators["rff"], "kernel-approximation", cell, in_sample=True, n_components=None, budget=p["m"],
                kernel=Kernel("gaussian", gamma=gamma), random_state=cell.seed_int(f"rff{p['m']}"))
    Z = est.fit_transform(X)
    G = _gram(X, gamma)
    [(spec, frob)] = _errors(X, [Z], gamma, G)
    expected = rff_expected_frobenius_sq(G, G**4, p["m"])
    return {"spectral": spec, "frobenius": frob, "frob_level": (frob * cell.n**2) ** 2 / expected,
            "scale_error": abs(float(np.sum(Z**2)) / float(np.trace(G)) - 1.0)}


def _rff_sweep(n, d, ms, seeds):
    return crossed(f"RandomNoisy n = {n}, d = {d}, m = {ms[0]}..{ms[-1]}, {seeds} seeds", ("rff",), (n,), seeds,
                   axes=(("m", ms),), d=d)


# -- ghashami16.lemma22 ----------------------------------------------------------------------

L22_M = 256


L22_ELLS = (2, 5, 10, 20, 50)


L22_CHECKS = ("bound_formula", "link1", "link2", "orthonormal", "psd")


L22_TOL = 1e-9  # relative to ||Z||_F^2


@single_threaded
def lemma22_experiment(cell: Cell, estimators) -> dict:
    """Lemma 2.2's chain for SKPCA, in the m x m form:
    ||G_hat - G~||_2 = lambda_max((I - W W^T) Z^T Z (I - W W^T)) <= ||Z^T Z - B^T B||_2 <= ||Z||_F^2 / j.
    Relative excesses (positive = violated); ``literal`` uses the paper's ||Z||_F^2 / ell;
    ``frob_over_2n`` is ||Z||_F^2 / 2n (at most 1, as |z(x)_i| <= sqrt(2/m))."""
    p = cell.p
    X = _rn_data(cell, cell.n, p["d"])

    def fitted(data):
        return estimators["skpca"](sketch_size=p["ell"], n_features=p["m"], shrink=p["shrink"],
                                   kernel=Kernel("gaussian", gamma=rn_gamma(p["d"])),
                                   random_state=cell.rng("rff")).fit(data)

    out = _lemma22_chain(fitted(X), X, p["ell"], estimators["bound"])
    # the chunked path (one sketch per row chunk, merged in a tree) must keep the chain
    chunked = _lemma22_chain(fitted(estimators["chunks"](X, -(-cell.n // L22_CHUNKS))), X, p["ell"],
                             estimators["bound"])
    out["chunked"] = float(np.max([chunked[c] for c in L22_CHECKS]))  # np.max: a NaN stays NaN
    out.update(frob_over_2n=out.pop("fro") / (2 * cell.n), gap_over_n=out.pop("gap") / cell.n)
    return out


L22_CHUNKS = 5  # row chunks of the dask fit: more than one node of the merge tree (4 per node)


def _lemma22_chain(est, X, ell: int, bound) -> dict:
    """The links of Lemma 2.2 for a fitted SKPCA ``est`` on X (relative excesses over
    ||Z||_F^2, :func:`lemma22_experiment`), with ``fro`` = ||Z||_F^2 and ``gap`` =
    ||G_hat - G~||_2; ``bound(fro, j)`` is the last link's ||Z||_F^2 / j, also evaluated
    here from the entries of Z (``bound_formula``: their difference over ||Z||_F^2)."""
    Z = est.features(X)
    C = Z.T @ Z
    W = est.components_
    P = np.eye(C.shape[0]) - W @ W.T
    gap = float(np.max(np.linalg.eigvalsh(P @ C @ P)))
    sk = float(np.max(np.abs(np.linalg.eigvalsh(C - est.sketch_.covariance()))))
    fro = float(np.trace(C))
    j = est.sketch_.shrink_index
    direct = float(np.sum(Z * Z)) / j
    return {"link1": (gap - sk) / fro, "link2": (sk - bound(fro, j)) / fro,
            "literal": (sk - bound(fro, ell)) / fro, "bound_formula": abs(bound(fro, j) - direct) / fro,
            "orthonormal": float(np.max(np.abs(W.T @ W - np.eye(W.shape[1])))) if W.size else 0.0,
            "psd": _psd_excess(Z, P) / fro, "fro": fro, "gap": gap}


def _psd_excess(Z, P) -> float:
    """-lambda_min(Z P Z^T) from the m x m side, without the n x n matrix: with Z = Q R (Q's
    r = min(n, m) columns orthonormal), Z P Z^T = Q (R P R^T) Q^T has the r eigenvalues of
    R P R^T and n - r zeros. The QR is backward stable, so R P R^T is within about eps ||Z||_2^2
    of the exact product, as the n x n product was; O(n m^2) in place of the O(n^3) of the n x n
    eigvalsh (two per cell took 25-50 s of each full-profile cell at n = 5001)."""
    R = np.linalg.qr(Z, mode="r")
    low = float(np.min(np.linalg.eigvalsh(R @ P @ R.T)))
    return max(-low, 0.0) if Z.shape[0] > R.shape[0] else -low


def lemma22_bound_10pc(z_frobenius_sq, j):
    """A planted fault: Lemma 2.2's last link 10% larger than printed."""
    return 1.1 * lemma22_bound(z_frobenius_sq, j)


def _l22_sweep(n, seeds):
    # n odd: halving sketches end with rows inserted after the last shrink
    return crossed(f"RandomNoisy n = {n}, d = 100, m = {L22_M}, ell in {L22_ELLS}, both shrink rules, "
                   f"{seeds} seeds", ("skpca",), (n,), seeds,
                   axes=(("shrink", ("standard", "halving")), ("ell", L22_ELLS)), m=L22_M, d=100)


# -- ghashami16.thm21 --------------------------------------------------------------------------

T21_M, T21_ELL, T21_DELTA = 256, 20, 0.1


T21_SLOPE_MAX = 0.25  # the worst correct variant's CI end (+0.17) plus its half-width (0.08); evidence in thm21's declaration


@single_threaded
def thm21_experiment(cell: Cell, estimators) -> dict:
    """||G - G~||_2 / n, G~ = transform(X) transform(X)^T (the kernel-approximation
    role, n_components = ell, budget = m) for SKPCA (Algorithm 1, halving) at fixed (m, ell), the
    Theorem 2.1 bound sqrt(log(n/delta)/m) + 4/ell (C = 1) and the excess
    error - bound (positive = violated)."""
    p = cell.p
    X = _rn_data(cell, cell.n, p["d"])
    gamma = rn_gamma(p["d"])
    est = build(estimators["skpca"], "kernel-approximation", cell, in_sample=True, n_components=p["ell"],
                budget=p["m"], kernel=Kernel("gaussian", gamma=gamma), random_state=cell.seed_int("rff"))
    Zt = est.fit_transform(X)
    exposed = hasattr(est, "features") and hasattr(getattr(est, "sketch_", None), "covariance")
    Z = est.features(X) if exposed else None
    spec, *rff = _spectral(X, [Zt] + ([Z] if exposed else []), gamma, _gram(X, gamma))
    bound = theorem21_bound(cell.n, p["m"], p["ell"], T21_DELTA)
    # the bound judged, against the printed statement evaluated here (C = 1): a wrong
    # constant in it fails the claim, though the slack of about 10 would hide it
    direct = math.sqrt(math.log(cell.n / T21_DELTA) / p["m"]) + 4.0 / p["ell"]
    return {"spectral": spec, "bound": bound, "bound_excess": spec - bound,
            "bound_formula": abs(bound - direct) / direct,
            "proof_bound": _proof_bound(Z, est.sketch_, rff[0], X.shape[0]) if exposed else math.nan}


def _proof_bound(Z, sketch, rff, n) -> float:
    """The data-dependent bound that Theorem 2.1's proof sums, normalised by n:
    ``rff`` + ||Z^T Z - B^T B||_2 / n, with ``rff`` = ||G - Z Z^T||_2 / n for the estimator's own
    features Z and B its sketch (the triangle inequality, then Lemma 2.2's ||Z Z^T - G~||_2 <=
    ||Z^T Z - B^T B||_2). It needs ``features`` and ``sketch_`` (ours expose both); the experiment
    stores NaN, which the judge reads as "not exposed", for an implementation that does not, so a
    non-finite Z^T Z - B^T B raises: its cell is an error, not a bound left unjudged."""
    C = Z.T @ Z - np.asarray(sketch.covariance(), dtype=np.float64)
    if not np.isfinite(C).all():
        raise ValueError("ghashami16.thm21: Z^T Z - B^T B is not finite (the estimator's sketch_.covariance() "
                         "holds NaN or inf); the proof's bound cannot be evaluated")
    return rff + float(np.max(np.abs(np.linalg.eigvalsh((C + C.T) / 2.0)))) / n


def skpca_halving(n_components, budget, kernel, random_state):
    """SKPCA (Algorithm 1, halving): ``budget`` features, a sketch of ell = ``n_components`` rows."""
    return SKPCA(sketch_size=n_components, n_features=budget, kernel=kernel, shrink="halving",
                 random_state=random_state)


def _t21_grid(n0, seeds):
    return Grid(sizes=tuple(n0 * 2**i for i in range(6)), seeds=seeds, params=dict(m=T21_M, ell=T21_ELL, d=100),
                describe=f"RandomNoisy d = 100, n = {n0}..{n0 * 32}, m = {T21_M}, ell = {T21_ELL}, {seeds} seeds")


class StaleSKPCA(SKPCA):
    """W from the sketch rows kept at the last shrink, ignoring the rows
    inserted after it: span(W) no longer holds the rows of the final B."""

    def _components(self, fd):
        kept = FrequentDirections(fd.sketch_size, fd.shrink)
        kept.sketch_ = fd.sketch_.copy()
        kept.n_filled_ = min(fd.n_filled_, fd.shrink_index - 1) if fd.n_shrinks_ else fd.n_filled_
        return super()._components(kept)


@dataclass(frozen=True)
class UnscaledRFF(RandomFourierFeatures):
    """cos(omega^T x + b) without the sqrt(2/m) factor."""

    def transform(self, X):
        return super().transform(X) * np.sqrt(self.n_frequencies / 2.0)


class UnscaledSKPCA(SKPCA):
    """SKPCA streaming features without the sqrt(2/m) scale, so ZZ^T estimates
    m/2 times the kernel."""

    def fit(self, X):
        reset_fitted(self)
        f = self._draw_feature_map(np.shape(X)[1], check_random_state(self.random_state))
        self.feature_map_ = UnscaledRFF(f.omega, f.phase, f.variant)
        self.sketch_ = FrequentDirections(self.sketch_size, self.shrink)
        return self.partial_fit(X)


def narrow_rff_map(n_components, budget, kernel, random_state):
    """omega ~ N(0, gamma I) instead of N(0, 2 gamma I): the features of the kernel
    exp(-gamma ||x-y||^2 / 2), the other bandwidth convention (the map of gamma / 2)."""
    return RandomFourierMap(budget, Kernel(kernel.name, gamma=kernel.gamma / 2.0), random_state)


class RepeatedRFFMap(RandomFourierMap):
    """Draws m/2 frequencies and phases and uses each twice (columns [Y, Y] / sqrt 2): the
    map is still unbiased and its error still falls like m^(-1/2), but its m features carry
    the information of m/2, so E||G - ZZ^T||_F^2 is twice that of m i.i.d. features (a
    generator re-seeded per block of features does this)."""

    def fit(self, X, y=None):
        self.feature_map_ = draw_rff(np.asarray(X).shape[1], self.n_features // 2, self.kernel.name,
                                     self.kernel.gamma, "cos", self.random_state)
        return self

    def transform(self, X):
        Y = self.feature_map_.transform(X)
        return np.hstack([Y, Y]) / np.sqrt(2.0)


def repeated_rff_map(n_components, budget, kernel, random_state):
    """:class:`RepeatedRFFMap` with ``budget`` (even) features."""
    return RepeatedRFFMap(budget, kernel, random_state)


class PairedScaleTransformSKPCA(SKPCA):
    """``transform`` scales the cos features by 1/sqrt(m), the paired map's normalisation,
    instead of sqrt(2/m): the scores are 1/sqrt 2 too small, so G~ is half the sketched
    approximation. Its error (about lambda_1(G) / 2n) stays under the theorem's
    sqrt(log(n/delta)/m) + 4/ell on RandomNoisy; only the proof's data-dependent bound
    sees it."""

    def transform(self, X):
        return super().transform(X) / np.sqrt(2.0)


def paired_scale_transform_skpca(n_components, budget, kernel, random_state):
    """:class:`PairedScaleTransformSKPCA` in the kernel-approximation role (Algorithm 1, halving)."""
    return PairedScaleTransformSKPCA(sketch_size=n_components, n_features=budget, kernel=kernel, shrink="halving",
                                     random_state=random_state)


def unscaled_skpca(n_components, budget, kernel, random_state):
    """:class:`UnscaledSKPCA` in the kernel-approximation role (Algorithm 1, halving)."""
    return UnscaledSKPCA(sketch_size=n_components, n_features=budget, kernel=kernel, shrink="halving",
                         random_state=random_state)


CLAIMS = [
    Claim(
        id="ghashami16.rff-rate",
        source="Ghashami et al. 2016, Lemma A.1 (stated in Sec. 2.1 and Sec. 1.2; its proof, Appendix A.1, is not "
               "in the text); Sec. 1.1-1.2's quote of Lopez-Paz et al. 2014",
        statement="Lemma A.1: m = O(log(n/delta)/eps^2) RFFs give ||G - ZZ^T||_2 <= eps n w.p. 1 - delta: at fixed "
                  "n, ||G - ZZ^T||_2 / n falls like m^(-1/2). Sec. 1.2's quoted Theta((n log n)/m) is an erratum (the "
                  "cited bound leads with n sqrt(log n / m)). No experiment in the paper; here RandomNoisy",
        prediction="log-log slope in m about -1/2 (the band also admits the -1 of the quoted rate); "
                   "||G - ZZ^T||_F^2 at its i.i.d.-cos expectation",
        data="RandomNoisy (s = 50, zeta = 10), Gaussian kernel with the closed-form mean-distance bandwidth "
             "gamma = 1 / (4 (sum_i D_ii^2 + d / zeta^2))",
        metric="||G - ZZ^T||_2 / n on the sample (Lanczos), Z the cos random Fourier features",
        metrics=("frob_level", "frobenius", "scale_error", "spectral"),
        estimators={"rff": ours_rff},
        experiment=rff_experiment,
        subject=Subject("kernel-approximation", "rff", centred=False, kernel="gaussian",
                        budget="m features (m = 32..1024 at ci), the whole map (n_components = None)",
                        probe=(("n_components", None), ("budget", 16)), kinds=("random-features",), in_sample=True),
        grid=PerProfile(ci=_rff_sweep(400, 100, tuple(2**i for i in range(5, 11)), 20),
                        quick=_rff_sweep(1500, 100, tuple(2**i for i in range(5, 12)), 5),
                        full=_rff_sweep(5000, 1000, tuple(2**i for i in range(5, 14)), 10)),
        judge=AllOf(SlopeInBand("spectral", RFF_BAND, label="RFF (RNCA) spectral error",
                                ylabel="||G - ZZ^T||_2 / n", predicted=-0.5, x="m"),
                    MeanAtMost("frob_level", RFF_LEVEL_MAX, "||G - ZZ^T||_F^2 / its i.i.d.-cos expectation",
                               x=None),
                    MeanAtMost("scale_error", RFF_SCALE_MAX, "|c - 1| of ZZ^T ≈ c G, c = tr(ZZ^T) / tr(G)", x=None,
                               hint="c far from 1: the map is off by a constant factor, a missing scale?")),
        tolerance=Tolerance(
            rule=f"bootstrap 95% CI of the slope in m inside [{RFF_BAND[0]}, {RFF_BAND[1]}]; the level: mean "
                 f"||G - ZZ^T||_F^2 over its exact i.i.d.-cos expectation, pooled over every cell, <= "
                 f"{RFF_LEVEL_MAX}",
            evidence="a design-time check on RandomNoisy-like data (n = 1500, d = 100, median-heuristic sigma = "
                     "7.76): m = 64 / 256 / 1024 / 4096 gave 0.121 / 0.0352 / 0.0219 / 0.0111, slope about -0.5 at "
                     "large m; the Theta(n log n / m) rate quoted for RNCA would suggest -1, hence the wide lower end. "
                     "The level (ci grid, 50 seeds in 10 batches of 5): pooled means 0.879-1.102 (seeds 0-4: 0.987; "
                     "quick: 0.960); m/2 draws used twice: 1.675-2.209, so the slope alone (-0.523 [-0.639, -0.396] "
                     "with repeated draws) could not see it. The scale |tr(ZZ^T) / tr(G) - 1| (ci grid at seeds "
                     "0-19 in blocks of 5): pooled means 0.016-0.021 (ours), 0.015-0.019 (RBFSampler), largest cell "
                     "0.085 at m = 32; features sqrt(1/m) cos(.) for sqrt(2/m) cos(.) give 0.5. Decisive whatever the "
                     "draw (python -m tests.decisiveness, roots 0-9): with 5 seeds root 2 read -0.395 [-0.443, "
                     "-0.348], inconclusive; with 20 seeds at ci the slopes are -0.521 .. -0.460, CI ends -0.563 .. "
                     "-0.420. Correct variants written outside (tests/variants, ci, root 0): the level 1.02 (legacy "
                     "RNG, the worst), 0.95 (float32), 0.86 (orthogonal frequencies), 0.57 (cos/sin pairs); the scale "
                     "at most 0.021 (orthogonal). Margins: 1.4 is x1.37 above the worst correct level and x1.58 below "
                     "the repeated draws' 2.21; 0.05 is x2.4 above the worst correct scale and x10 below the missing "
                     "sqrt 2. The slope band's margins (python -m tests.variants.margins, ci, root 0): the correct "
                     "variants' CIs end at least 0.132 inside [-1.1, -0.35] (legacy RNG), narrow-omega's CI lies "
                     "0.343 outside"),
        faults=(Fault("narrow-omega", "omega ~ N(0, gamma I) instead of N(0, 2 gamma I): the features of another "
                      "kernel, so the error stops falling", {"rff": narrow_rff_map}, keep=_five_seeds),
                Fault("repeated-draws", "a near miss: m/2 frequencies each used twice; unbiased, and the error "
                      "still falls like m^(-1/2), but E||G - ZZ^T||_F^2 is twice the i.i.d. level",
                      {"rff": repeated_rff_map}, keep=_five_seeds)),
    ),
    Claim(
        id="ghashami16.lemma22",
        source="Ghashami et al. 2016, Lemma 2.2 (Sec. 2.1; corrected for Algorithm 1's shrink index), its proof "
               "(Lemma 2.1 at k = 0) and Sec. 2's (z(x)_i)^2 <= 2/m",
        statement="Lemma 2.2: ell = 2/eps gives ||G~ - G_hat||_2 <= ||Z||_F^2 / ell <= eps n. Checked with the shrink "
                  "index j: ||G_hat - G~||_2 <= ||Z^T Z - B^T B||_2 <= ||Z||_F^2 / j (j = floor(ell/2) for Algorithm "
                  "1's halving, ell for the standard shrink); ||Z||_F^2 <= 2n, W^T W = I, G_hat - G~ >= 0; also for "
                  "the suite's chunked (dask) fit, sketches merged in a tree (not in the paper)",
        prediction="exact inequalities; the paper's ||Z||_F^2 / ell for Algorithm 1 is an erratum, reported and "
                   "not judged",
        data="RandomNoisy (s = 50, zeta = 10, d = 100, n odd so that halving sketches end with rows inserted after "
             "the last shrink), closed-form mean-distance bandwidth",
        metric="each link of the chain as a relative excess over ||Z||_F^2 (positive = violated), ||W^T W - I||, "
               "-lambda_min(G_hat - G~) / ||Z||_F^2, and ||Z||_F^2 / 2n; the worst of the first four for the fit "
               "on 5 dask row chunks",
        metrics=("bound_formula", "chunked", "frob_over_2n", "gap_over_n", "link1", "link2", "literal",
                 "orthonormal", "psd"),
        estimators={"skpca": SKPCA, "chunks": row_chunks, "bound": lemma22_bound},
        experiment=lemma22_experiment,
        grid=PerProfile(ci=_l22_sweep(301, 3), quick=_l22_sweep(801, 3), full=_l22_sweep(5001, 10)),
        judge=WithErratum(AllOf(AllWithin(L22_TOL, metrics=L22_CHECKS + ("chunked",), what="of ||Z||_F^2"),
                                AllWithin(1.0, metrics=("frob_over_2n",))),
                          metric="literal", tol=L22_TOL, what="the paper's ||Z||_F^2 / ell for Algorithm 1",
                          only=("shrink", "halving")),
        tolerance=Tolerance(
            rule=f"every excess <= {L22_TOL:g} of ||Z||_F^2; ||Z||_F^2 / 2n <= 1",
            evidence="quick profile (seeds 0-2, both rules, ell in (2, 5, 10, 20, 50)): worst link1 -2.0e-3, "
                     "link2 -1.4e-2 (never positive), ||W^T W - I|| 3.3e-15, -lambda_min(G_hat - G~) 3.9e-16 of "
                     "||Z||_F^2: 1e-9 is round-off headroom. The chunked fit (5 dask row chunks, sketches merged): "
                     "worst 3.8e-15 at ci (seeds 0-2); the misread-chunk fault 3.9e-3. The last link's ||Z||_F^2 / j "
                     "against the sum of Z's squared entries over j: round-off (within the 3.8e-15 above); a bound "
                     "10% too large 1.0e-1 / j"),
        faults=(Fault("stale-w", "W from the sketch at the last shrink, ignoring rows inserted after it",
                      {"skpca": StaleSKPCA}, keep=lambda c: c.p["shrink"] == "halving"),
                Fault("last-chunk-misread", "the chunked fit reads the first row chunk in place of the last",
                      {"chunks": last_chunk_misread}),
                Fault("bound-off-by-10%", "the last link's bound 10% larger than ||Z||_F^2 / j (a wrong constant, "
                      "which the chain's slack would hide)", {"bound": lemma22_bound_10pc},
                      keep=lambda c: c.p["ell"] == 5)),
    ),
    Claim(
        id="ghashami16.thm21",
        source="Ghashami et al. 2016, Theorem 2.1 (Sec. 2.1), the sketch's share corrected for Algorithm 1's shrink "
               "index",
        statement="Theorem 2.1: m = O(log(n/delta)/eps^2) RFFs and ell = 4/eps give ||G - G~||_2 <= eps n w.p. "
                  "1 - delta (eps/2 to the features, eps/2 = 2/ell to the sketch). Judged: ||G - G~||_2 / n <= "
                  "sqrt(log(n/delta)/m) + 4/ell, C = 1 for the unstated constant, the sketch's share doubled for "
                  "Algorithm 1's halving shrink (Lemma 2.2's erratum); at fixed m the bound grows like sqrt(log n)",
        prediction=f"the corrected bound holds (C = 1, delta = {T21_DELTA}); the proof's data-dependent bound "
                   f"||G - ZZ^T||_2 + ||Z^T Z - B^T B||_2 holds; slope in n <= {T21_SLOPE_MAX}",
        data="RandomNoisy (s = 50, zeta = 10, d = 100), closed-form mean-distance bandwidth",
        metric="||G - G~||_2 / n (Lanczos) for SKPCA (Algorithm 1, halving), its excess over the theorem's "
               "bound, and the proof's bound from the estimator's own features Z and sketch B",
        metrics=("bound", "bound_excess", "bound_formula", "proof_bound", "spectral"),
        estimators={"skpca": skpca_halving},
        experiment=thm21_experiment,
        subject=Subject("kernel-approximation", "skpca", centred=False, kernel="gaussian",
                        budget=f"m = {T21_M} features, a rank-ell approximation (n_components = ell = {T21_ELL})",
                        probe=(("n_components", 3), ("budget", 16)), kinds=("random-features",), in_sample=True),
        grid=PerProfile(ci=_t21_grid(64, 20), quick=_t21_grid(100, 10), full=_t21_grid(625, 10)),
        judge=AllOf(UnderBound("spectral", "bound", label=f"SKPCA m = {T21_M}, ell = {T21_ELL}",
                               bound_label="Thm 2.1: √(log(n/δ)/m) + 4/ℓ",
                               ylabel="||G - G~||_2 / n under its bound"),
                    WhereExposed("proof_bound", why="the implementation exposes no features and sketch", rule=UnderBound(
                        "spectral", "proof_bound", label=f"SKPCA m = {T21_M}, ell = {T21_ELL}",
                        bound_label="proof: (‖G − ZZᵀ‖₂ + ‖ZᵀZ − BᵀB‖₂) / n",
                        ylabel="||G - G~||_2 / n under the proof's bound", name="proof_bound")),
                    SlopeInBand("spectral", (-np.inf, T21_SLOPE_MAX), label=f"SKPCA m = {T21_M}, ell = {T21_ELL}",
                                ylabel="||G - G~||_2 / n"),
                    AllWithin(1e-12, metrics=("bound_formula",), what="relative, against the printed bound")),
        tolerance=Tolerance(
            rule=f"no cell above the theorem's bound, none above the proof's bound (both exact inequalities, "
                 f"no tolerance); upper end of the slope's bootstrap 95% CI <= {T21_SLOPE_MAX}",
            evidence="quick profile with 5 seeds (n = 100..3200): slope +0.067 [-0.000, +0.133], inconclusive, "
                     "hence 10 seeds; sqrt(log n) growth alone gives +0.08 on that grid. Slack at ci (seeds "
                     "0-4): the theorem's bound / error median 10.8, so a 4x error passed it; the proof's bound / "
                     "error 1.41-2.11 (error / proof's bound 0.473-0.711), the proof's bound being 0.16 of the "
                     "theorem's. The near miss paired-scale-transform passes the theorem's bound (slack 1.24) and "
                     "is 3.1-5.7 times the proof's. With that slack a wrong constant inside the bound would still hold, so "
                     "the bound is also evaluated from the printed statement in the experiment (agreement to round-off). With 5 "
                     "seeds the slope's CI reached above 0.1 under 4 of 9 independent root seeds (python -m "
                     "tests.decisiveness), hence 20 at ci: roots 0-9 give slopes -0.067 .. +0.033, CI upper ends at "
                     "most +0.088. Correct variants (tests/variants, ci, root 0: float32, cos/sin pairs, legacy RNG, "
                     "orthogonal, ARPACK) stay under both bounds (largest excess -0.26 of the theorem's, -0.019 of the "
                     "proof's) with slope CIs ending at +0.017 .. +0.084; the unscaled features exceed the theorem's "
                     "bound by 85. Under root seeds 0-4 the variants' slopes reached +0.066 [+0.024, +0.111] (legacy "
                     "RNG, root 3), inconclusive against the 0.1 this bound had: the error may grow like "
                     "sqrt(log n) (+0.08 on this grid) and the CI is +-0.045 wide, hence 0.15. At quick under roots 0-4 "
                     "(2026-11-28) the variants' CIs ended at +0.005 .. +0.107, and at +0.170 for orthogonal features "
                     "under root 0 (slope +0.091, half-width 0.080): inconclusive against 0.15, hence 0.25, that end "
                     "plus its half-width. No planted fault or mutant is caught by the slope alone (they fail the "
                     "bounds or their direct evaluation), so no bug bounds it from above; an error growing like "
                     "n^0.25 or faster, not O(n), no longer holds"),
        faults=(Fault("unscaled-features", "features cos(omega^T x + b) without the sqrt(2/m) scale",
                      {"skpca": unscaled_skpca}, keep=_five_seeds),
                Fault("paired-scale-transform", "a near miss: transform scales the cos features by 1/sqrt(m) (the "
                      "paired map's normalisation) instead of sqrt(2/m), halving G~; under the theorem's bound, "
                      "not under the proof's", {"skpca": paired_scale_transform_skpca}, keep=_five_seeds)),
    ),
]
