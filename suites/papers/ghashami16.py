"""ghashami16: Ghashami, Perry & Phillips (2016), "Streaming Kernel Principal
Component Analysis": random Fourier features streamed through Frequent
Directions (SKPCA), against RNCA and streaming Nyström.

Data: the paper's RandomNoisy generator (:func:`theory.ghashami16.random_noisy`;
n = 20000, d = 1000 in ``full``, scaled in ``ci`` / ``quick``), with the
closed-form mean-distance bandwidth :func:`theory.ghashami16.rn_gamma`, and
scikit-learn's digits (offline, in place of the paper's CPU / Adult / Forest)
with the median heuristic. The rotation U of RandomNoisy is drawn per seed, not
per n, so the rows of every n are i.i.d. from one distribution. Kernel errors
follow the paper's section 3: ||G - G'||_2 / n (Lanczos, max |eig|) and
||G - G'||_F / n^2, on the training rows.

Every part a planted fault replaces is an entry of a claim's ``estimators``;
the faults themselves are in :mod:`._ghashami16_faults`.
"""

from __future__ import annotations

import functools
import itertools
import math
import time
import tracemalloc
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np

from kpca_suite.kernels import Kernel, median_gamma
from kpca_suite.kernels.frequent_directions import FrequentDirections
from kpca_suite.kernels.threads import blas_single_thread
from kpca_suite.methods.rf_erm import RFERM as RNCA
from kpca_suite.methods.skpca import SKPCA
from kpca_suite.methods.streaming_nystrom import StreamingNystrom
from kpca_suite.theory.ghashami16 import (RANDOM_NOISY_S, fd_bound, lemma22_bound, lemma24_bound, paper_space,
                                          random_noisy, random_rotation, rff_expected_frobenius_sq, rn_gamma,
                                          theorem21_bound)
from kpca_suite.theory.kernel_error import frobenius_error, spectral_error, top_k_factor

from ..adapters import ours_rff
from ..claim import Cell, CellList, Claim, Fault, Fit, Grid, Outcome, Paper, PerProfile, Tolerance
from ..judging import AllOf, AllWithin, MeanAtMost, SlopeInBand, UnderBound, collect, combine
from ..plots import method_styles, save_figure
from ..roles import Subject, build
from . import _ghashami16_faults as broken

PAPER = Paper(
    key="ghashami16",
    citation="M. Ghashami, D. J. Perry and J. M. Phillips (2016), 'Streaming Kernel Principal Component "
             "Analysis', Proceedings of AISTATS 2016 (PMLR 51).",
    errata="""\
- **Kernel normalisation.** The paper writes the Gaussian kernel as (1/2 pi)^(d/2) exp(-||x-y||^2 / 2), a
  density. Random Fourier features estimate a kernel with K(0) = 1, so the suite uses
  exp(-gamma ||x-y||^2) and draws omega ~ N(0, 2 gamma I) (scikit-learn's gamma); drawing
  N(0, gamma I) approximates another kernel. The paper calls the random phase gamma_i; here it is b.
- **No bandwidth is given** for any experiment, and unit bandwidth makes G nearly the identity on
  RandomNoisy (distances about 10). The suite's assumption: on RandomNoisy gamma = 1 / (2 sigma^2) with
  sigma^2 = E||x - y||^2 = 2 (sum_i D_ii^2 + d / zeta^2), the mean squared distance in closed form, so a
  sweep over n keeps one kernel; on digits the median heuristic, gamma = 1 / (2 median ||x - y||^2)
  (1000 rows drawn with seed 0).
- **Frequent Directions constant.** Algorithm 1 shrinks by the (ell/2)-th squared singular value, but
  Lemmas 2.1 and 2.2 use the denominator (ell - k), which holds for the standard shrink by the ell-th one.
  With shrink index j (ell, or floor(ell/2) for Algorithm 1) the bound is
  ||A^T A - B^T B||_2 <= Delta <= ||A - A_k||_F^2 / (j - k), so Lemma 2.2's ell = 2/eps gives 2 eps n.
  The claims check the bound with j; the literal (ell - k) is reported, not judged, and is exceeded.
- **Odd and tiny ell.** ell/2 is floor(ell/2). Algorithm 1 keeps j - 1 rows after each shrink (j = floor(ell/2)),
  so its final sketch holds j - 1 .. ell - 1 rows depending on n mod (ell - j + 1). With ell = 2 it shrinks by
  sigma_1^2 and empties the sketch every second row: W has rank 0 at even n, 1 at odd n; with ell = 5 it
  keeps one row.
- **Comparing like with like.** Figure 1 plots Algorithm 1 (rank <= ell, halving shrink) against RNCA's
  rank-m ZZ^T at equal SPACE, so at small ell it sets a rank-ell sketch against a rank-m matrix, and at
  ell = 2 a sketch that is empty half the time. The comparison claims (randomnoisy, digits) judge
  "SKPCA <= RNCA at equal space" like with like: SKPCA with the standard shrink (the sketch Lemmas 2.1-2.2
  are proved for) against RNCA at rank ell, the top-ell eigenspace of its features (its test embedding
  z(x)^T V_ell, section 1.1). They report the paper's literal comparison beside it, not judged, with each
  log ratio split exactly into the sketch's share (SKPCA against the exact rank-ell PCA of its own
  features Z) and rank ell's share (that PCA against RNCA). Measured (ci and quick, seeds 0-2): like with
  like holds at every ell; the literal comparison fails at ell = 2 on both data sets and at ell = 5 on
  digits at quick (Frobenius), in every case by the sketch's share.
- **Test time.** The paper compares measured seconds. Seconds vary with the machine's load (the same commit
  was seen to give "holds" on an idle machine and "fails" with one other job running), so the claims judge
  the operation count per test row of each embedding, counted from the fitted shapes (:func:`embedding_cost`);
  the seconds are drawn, not judged.
- **Stale W.** W must come from the final sketch B (its nonzero singular directions); rows inserted after
  the last shrink otherwise leave rowspan(B) outside span(W) and Lemma 2.2's chain fails.
- **Theorem 2.1 typo.** G~ = Z W^T W Z^T is dimensionally wrong; G~ = Z W W^T Z^T is meant. Lemma 2.2's proof
  writes norms where squared norms are meant. The constant C in m = O(log(n/delta) / eps^2) is not given;
  C = 1 is a loose regression check.
- **Lemma 2.4.** The statement's additive term eps sqrt(k n) is eps n sqrt(k) in the proof; the claim checks
  the proved form, with the measured ||G - G'||_2 in place of eps n.
- **Error measures.** G - G' is indefinite, so the spectral error is the eigenvalue of largest magnitude, not
  lambda_max. The spectral error is normalised by n, the Frobenius error by n^2 (not n). Gram matrices are
  uncentred.
- **RandomNoisy.** D_ii = 1 - (i - 1)/d with denominator d, not s (entries 1 .. 0.951).
- **Sample size is not space.** The x-axis m = c; SPACE is dm + ell m (SKPCA), dm + m^2 (RNCA), cd + c^2
  (Nyström).
- **Data sets.** CPU, Adult and Forest need downloads and their stated sizes match no public version
  exactly; the suite repeats the RandomNoisy comparison on scikit-learn's digits (1797 x 64) instead.
""",
)

ELLS = (2, 5, 10, 20, 30, 50)  # the paper's sketch sizes (section 3)
DIGITS_ROWS = 1797             # scikit-learn's digits: 1797 x 64


def single_threaded(experiment):
    """Run an experiment with single-threaded BLAS: the runner already puts one
    cell on each core, and on a shared machine OpenBLAS threads on these small
    products cost 10-100x (a 50 x 256 SVD under load: 300 ms with 2 threads,
    1.9 ms with 1)."""
    @functools.wraps(experiment)
    def run(cell, estimators):
        with blas_single_thread():
            return experiment(cell, estimators)
    return run


def _crossed(claim_id, options, *, methods, sizes, seeds, axes=(), fixed=()):
    """Cells of methods x sizes x (the product of the ``axes`` values) x seeds;
    ``axes`` and ``fixed`` are ((name, values), ...) and ((name, value), ...)."""
    names = [name for name, _ in axes]
    return [Cell.make(claim_id, method, n, seed, **dict(fixed), **dict(zip(names, values)))
            for method in methods for n in sizes for values in itertools.product(*(v for _, v in axes))
            for seed in range(seeds)]


def crossed(describe, methods, sizes, seeds, axes=(), **fixed) -> CellList:
    """A sweep crossing methods, sizes, further parameter axes and seeds."""
    return CellList(functools.partial(_crossed, methods=tuple(methods), sizes=tuple(sizes), seeds=seeds,
                                      axes=tuple((k, tuple(v)) for k, v in axes), fixed=tuple(fixed.items())),
                    describe)


# -- data -------------------------------------------------------------------------------

def _rn_data(cell: Cell, n: int, d: int, stream: str = "data"):
    """n RandomNoisy rows for this cell; U depends on (claim, seed) only."""
    U = random_rotation(RANDOM_NOISY_S, d, Cell.make(cell.claim, "rotation", 0, cell.seed).rng("rotation"))
    return random_noisy(n, d, random_state=cell.rng(stream), rotation=U)


@functools.lru_cache(maxsize=2)
def _digits():
    """scikit-learn's digits (float64) and their median-heuristic gamma,
    1 / (2 median ||x - y||^2) over 1000 rows drawn with seed 0."""
    from sklearn.datasets import load_digits

    X = load_digits().data.astype(np.float64)
    return X, median_gamma(X, scale=0.5, random_state=0)


def _gram(X, gamma):
    return Kernel("gaussian", gamma=gamma).block(X)


def _errors(X, Y, gamma, G):
    """(||G - Y Y^T||_2 / n, ||G - Y Y^T||_F / n^2), the paper's normalisations (section 3)."""
    n = X.shape[0]
    kern = Kernel("gaussian", gamma=gamma)
    return spectral_error(X, Y, kern, G=G) / n, frobenius_error(X, Y, kern, G=G) / n**2


@dataclass(frozen=True)
class WithErratum:
    """A judging rule, plus a number reported and not judged: in how many cells
    (those with ``only = (param, value)``, or all) the paper's literal form of a
    bound is exceeded by more than ``tol``, and by how much at most."""

    rule: Callable
    metric: str
    tol: float
    what: str
    only: Optional[tuple] = None

    def __call__(self, results, profile) -> Outcome:
        out = self.rule(results, profile)
        rows = [r for r in results if self.only is None or r.cell.p.get(self.only[0]) == self.only[1]]
        values = [r.metrics[self.metric] for r in rows]
        over = sum(v > self.tol for v in values)
        out.summary += (f"; {self.what} is exceeded in {over}/{len(rows)} cells (by up to {max(values):.3f}; "
                        "erratum, not judged)")
        out.measured[self.metric] = max(values)
        out.measured[f"{self.metric}_violations"] = float(over)
        return out


# -- ghashami16.fd-bound / fd-merge --------------------------------------------------------

FD_ELLS = (2, 5, 10, 20)
FD_KINDS = ("random", "lowrank", "equal", "repeated", "zero", "short", "digits")
FD_CHECKS = ("psd", "err_delta", "delta_bound", "exact")
FD_TOL = 1e-9  # relative to ||A||_F^2


def _fd_matrix(cell: Cell) -> np.ndarray:
    """The matrix A of one cell, by ``kind``: decaying spectrum, rank 3, all singular
    values equal, one repeated row, zero, fewer rows than ell, or 600 digits."""
    kind, rng = cell.p["kind"], cell.rng()
    if kind == "random":
        return rng.standard_normal((400, 40)) * np.geomspace(1.0, 0.01, 40)
    if kind == "lowrank":
        return rng.standard_normal((300, 3)) @ rng.standard_normal((3, 40))
    if kind == "equal":  # every singular value equal: stacked scaled orthonormal blocks
        Q = np.linalg.qr(rng.standard_normal((40, 40)))[0]
        return np.vstack([Q * 3.0] * 8)
    if kind == "repeated":
        return np.repeat(rng.standard_normal((1, 40)), 300, axis=0)
    if kind == "zero":
        return np.zeros((100, 40))
    if kind == "short":  # n < ell for the larger ell: no shrink, B^T B = A^T A
        return rng.standard_normal((4, 40))
    X, _ = _digits()
    return X[rng.permutation(len(X))[:600]]


def _fd_check(A, fd):
    """Deviations of the FD guarantees, relative to ||A||_F^2 (positive = violated):
    psd: -lambda_min(A^T A - B^T B); err_delta: ||A^T A - B^T B||_2 - Delta;
    delta_bound: Delta - min_{k<j} ||A - A_k||_F^2 / (j - k); exact: the error where
    it must be 0 (n < ell or rank(A) < j); literal: the error against the paper's
    (ell - k) denominator (Lemma 2.1)."""
    fro = max(float(np.sum(A**2)), 1e-300)
    ev = np.linalg.eigvalsh(A.T @ A - fd.covariance())
    err = float(np.max(np.abs(ev)))
    s2 = np.linalg.svd(A, compute_uv=False) ** 2
    j = fd.shrink_index
    bounds = [fd_bound(s2, j, k) for k in range(j)]
    rank = int((s2 > s2[0] * max(A.shape) * np.finfo(float).eps).sum()) if s2[0] > 0 else 0
    exact = err / fro if (A.shape[0] < fd.sketch_size or rank < j) else -np.inf
    literal = max(err - fd_bound(s2, fd.sketch_size, k) for k in range(fd.sketch_size)) / fro
    return {"psd": float(-ev.min() / fro), "err_delta": (err - fd.delta_) / fro,
            "delta_bound": (fd.delta_ - min(bounds)) / fro, "exact": exact, "literal": literal}


def _worst(rows):
    out = {}
    for row in rows:
        for key, v in row.items():
            out[key] = max(out.get(key, -np.inf), v)
    return {key: (float(v) if np.isfinite(v) else -1.0) for key, v in out.items()}


@single_threaded
def fd_experiment(cell: Cell, estimators) -> dict:
    """FD on one matrix, both shrink rules, every ell <= d; worst deviations.
    ``halving_literal`` is the halving rule against the paper's (ell - k)."""
    FD = estimators["fd"]
    A = _fd_matrix(cell)
    ells = [ell for ell in FD_ELLS if ell <= A.shape[1]]
    std = _worst(_fd_check(A, FD(ell, "standard").fit(A)) for ell in ells)
    halv = _worst(_fd_check(A, FD(ell, "halving").fit(A)) for ell in ells)
    out = {f"standard_{k}": v for k, v in std.items() if k != "literal"}
    out.update({f"halving_{k}": v for k, v in halv.items()})
    return out


def _merged(FD, A, ell, shrink):
    """Sketch 4 chunks of A separately and merge them in a tree ((1+2)+(3+4))."""
    parts = [FD(ell, shrink).fit(P) for P in np.array_split(A, 4) if len(P)]
    while len(parts) > 1:
        parts = [parts[i].merge(parts[i + 1]) if i + 1 < len(parts) else parts[i] for i in range(0, len(parts), 2)]
    return parts[0]


@single_threaded
def merge_experiment(cell: Cell, estimators) -> dict:
    """The FD deviations of the merged sketch against the concatenated matrix,
    worst over both shrink rules and every ell <= d."""
    A = _fd_matrix(cell)
    rows = []
    for shrink in ("standard", "halving"):
        for ell in FD_ELLS:
            if ell <= A.shape[1]:
                row = _fd_check(A, _merged(estimators["fd"], A, ell, shrink))
                row.pop("literal")
                rows.append(row)
    return _worst(rows)


def _fd_sweep(seeds, what=""):
    return crossed(f"{len(FD_KINDS)} matrix kinds x {seeds} seeds{what}, ell in {FD_ELLS}", ("fd",), (0,), seeds,
                   axes=(("kind", FD_KINDS),))


_FD_EVIDENCE = ("quick profile (seeds 0-4, all kinds, both rules, ell in (2, 5, 10, 20)): worst psd 9.7e-15, "
                "err - Delta 9.7e-15, Delta - bound 7.0e-16, exact 9.7e-15 of ||A||_F^2 (merged sketches: "
                "4.4e-15), so 1e-9 is round-off headroom for float64; the Sigma-instead-of-Sigma^2 fault gives "
                "err - Delta of order 1e-1")


# -- ghashami16.rff-rate -------------------------------------------------------------------

RFF_BAND = (-1.1, -0.35)
#: The level of the random-feature error: the mean over every (m, seed) cell of
#: ||G - ZZ^T||_F^2 / E||G - ZZ^T||_F^2 (E for m i.i.d. cos features; its expectation is 1 in
#: every cell) is at most this. Single cells are heavy-tailed (ci: 0.64 to 3.0), the pooled
#: mean is not: ci grid (n = 400, m = 32..1024), 50 seeds in 10 batches of 5: pooled means
#: 0.879-1.102 (seeds 0-4: 0.987; quick, n = 1500, seeds 0-4: 0.960). The near miss with m/2
#: draws each used twice (expectation 2): 1.675-2.209 over the same 10 batches.
RFF_LEVEL_MAX = 1.4


@single_threaded
def rff_experiment(cell: Cell, estimators) -> dict:
    """||G - Z Z^T||_2 / n and ||G - Z Z^T||_F / n^2 for m random Fourier features
    (RNCA's Gram approximation), and the level ``frob_level`` = ||G - Z Z^T||_F^2 over its
    exact expectation for m i.i.d. cos features, sum_ij (1 + G_ij^4 / 2 - G_ij^2) / m
    (:func:`theory.ghashami16.rff_expected_frobenius_sq`; K(2 Delta) = K(Delta)^4 for the
    Gaussian kernel)."""
    p = cell.p
    X = _rn_data(cell, cell.n, p["d"])
    gamma = rn_gamma(p["d"])
    est = build(estimators["rff"], "kernel-approximation", cell, n_components=None, budget=p["m"],
                kernel=Kernel("gaussian", gamma=gamma), random_state=cell.seed_int(f"rff{p['m']}")).fit(X)
    G = _gram(X, gamma)
    spec, frob = _errors(X, est.transform(X), gamma, G)
    expected = rff_expected_frobenius_sq(G, G**4, p["m"])
    return {"spectral": spec, "frobenius": frob, "frob_level": (frob * cell.n**2) ** 2 / expected}


def _rff_sweep(n, d, ms, seeds):
    return crossed(f"RandomNoisy n = {n}, d = {d}, m = {ms[0]}..{ms[-1]}, {seeds} seeds", ("rff",), (n,), seeds,
                   axes=(("m", ms),), d=d)


# -- ghashami16.lemma22 ----------------------------------------------------------------------

L22_M = 256
L22_ELLS = (2, 5, 10, 20, 50)
L22_CHECKS = ("link1", "link2", "orthonormal", "psd")
L22_TOL = 1e-9  # relative to ||Z||_F^2


@single_threaded
def lemma22_experiment(cell: Cell, estimators) -> dict:
    """Lemma 2.2's chain for SKPCA, in the m x m form:
    ||G_hat - G~||_2 = lambda_max((I - W W^T) Z^T Z (I - W W^T)) <= ||Z^T Z - B^T B||_2 <= ||Z||_F^2 / j.
    Relative excesses (positive = violated); ``literal`` uses the paper's ||Z||_F^2 / ell;
    ``frob_over_2n`` is ||Z||_F^2 / 2n (at most 1, as |z(x)_i| <= sqrt(2/m))."""
    p = cell.p
    X = _rn_data(cell, cell.n, p["d"])
    est = estimators["skpca"](sketch_size=p["ell"], n_features=p["m"], kernel=Kernel("gaussian", gamma=rn_gamma(p["d"])), shrink=p["shrink"],
                              random_state=cell.rng("rff")).fit(X)
    Z = est.features(X)
    C = Z.T @ Z
    W = est.components_
    P = np.eye(C.shape[0]) - W @ W.T
    gap = float(np.max(np.linalg.eigvalsh(P @ C @ P)))
    sk = float(np.max(np.abs(np.linalg.eigvalsh(C - est.sketch_.covariance()))))
    fro = float(np.trace(C))
    j = est.sketch_.shrink_index
    return {"link1": (gap - sk) / fro, "link2": (sk - lemma22_bound(fro, j)) / fro,
            "literal": (sk - lemma22_bound(fro, p["ell"])) / fro,
            "orthonormal": float(np.max(np.abs(W.T @ W - np.eye(W.shape[1])))) if W.size else 0.0,
            "psd": float(-np.min(np.linalg.eigvalsh(Z @ P @ Z.T)) / fro),
            "frob_over_2n": fro / (2 * cell.n), "gap_over_n": gap / cell.n}


def _l22_sweep(n, seeds):
    # n odd: halving sketches end with rows inserted after the last shrink
    return crossed(f"RandomNoisy n = {n}, d = 100, m = {L22_M}, ell in {L22_ELLS}, both shrink rules, "
                   f"{seeds} seeds", ("skpca",), (n,), seeds,
                   axes=(("shrink", ("standard", "halving")), ("ell", L22_ELLS)), m=L22_M, d=100)


# -- ghashami16.thm21 --------------------------------------------------------------------------

T21_M, T21_ELL, T21_DELTA = 256, 20, 0.1
T21_SLOPE_MAX = 0.1


@single_threaded
def thm21_experiment(cell: Cell, estimators) -> dict:
    """||G - G~||_2 / n, G~ = transform(X) transform(X)^T (the kernel-approximation
    role, n_components = ell, budget = m) for SKPCA (Algorithm 1, halving) at fixed (m, ell), the
    Theorem 2.1 bound sqrt(log(n/delta)/m) + 4/ell (C = 1) and the excess
    error - bound (positive = violated)."""
    p = cell.p
    X = _rn_data(cell, cell.n, p["d"])
    gamma = rn_gamma(p["d"])
    est = build(estimators["skpca"], "kernel-approximation", cell, n_components=p["ell"], budget=p["m"],
                kernel=Kernel("gaussian", gamma=gamma), random_state=cell.seed_int("rff")).fit(X)
    G = _gram(X, gamma)
    spec, _ = _errors(X, est.transform(X), gamma, G)
    bound = theorem21_bound(cell.n, p["m"], p["ell"], T21_DELTA)
    return {"spectral": spec, "bound": bound, "bound_excess": spec - bound,
            "proof_bound": _proof_bound(est, X, gamma, G)}


def _proof_bound(est, X, gamma, G) -> float:
    """The data-dependent bound that Theorem 2.1's proof sums, normalised by n:
    (||G - Z Z^T||_2 + ||Z^T Z - B^T B||_2) / n, with Z the estimator's own features and
    B its sketch (the triangle inequality, then Lemma 2.2's ||Z Z^T - G~||_2 <=
    ||Z^T Z - B^T B||_2). It needs ``features`` and ``sketch_`` (ours expose both); NaN for
    an implementation that does not, which is then judged on the theorem's bound alone."""
    if not (hasattr(est, "features") and hasattr(getattr(est, "sketch_", None), "covariance")):
        return math.nan
    Z = est.features(X)
    C = Z.T @ Z - est.sketch_.covariance()
    link = float(np.max(np.abs(np.linalg.eigvalsh((C + C.T) / 2.0))))
    rff, _ = _errors(X, Z, gamma, G)
    return rff + link / X.shape[0]


@dataclass(frozen=True)
class WhereExposed:
    """``rule`` on the cells where ``metric`` is finite: the proof's bound needs the
    estimator's features and sketch, which an implementation in the role may not expose.
    With no such cell it holds and says so (the theorem's bound still judges it)."""

    metric: str
    rule: Callable

    def __call__(self, results, profile) -> Outcome:
        kept = [r for r in results if math.isfinite(r.metrics[self.metric])]
        if not kept:
            return Outcome("holds", f"{self.metric}: not judged (the implementation exposes no features and "
                                    f"sketch)", [], {}, {})
        return self.rule(kept, profile)


def skpca_halving(n_components, budget, kernel, random_state):
    """SKPCA (Algorithm 1, halving): ``budget`` features, a sketch of ell = ``n_components`` rows."""
    return SKPCA(sketch_size=n_components, n_features=budget, kernel=kernel, shrink="halving",
                 random_state=random_state)


def _t21_grid(n0, seeds):
    return Grid(sizes=tuple(n0 * 2**i for i in range(6)), seeds=seeds, params=dict(m=T21_M, ell=T21_ELL, d=100),
                describe=f"RandomNoisy d = 100, n = {n0}..{n0 * 32}, m = {T21_M}, ell = {T21_ELL}, {seeds} seeds")


# -- ghashami16.lemma24 ------------------------------------------------------------------------

L24_MS = (32, 128, 512)
L24_KS = (1, 5, 20)
L24_TOL = 1e-9


@single_threaded
def lemma24_experiment(cell: Cell, estimators) -> dict:
    """Worst lhs / rhs of ||G - G'_k||_F <= ||G - G_k||_F + sqrt(k) ||G - G'||_2 over
    k in L24_KS, for G' = ZZ^T (RNCA) or G~ (SKPCA, ell = 50, halving); G'_k from
    the ``top_k_factor`` routine."""
    p = cell.p
    X = _rn_data(cell, cell.n, p["d"])
    gamma = rn_gamma(p["d"])
    kern = Kernel("gaussian", gamma=gamma)
    G = _gram(X, gamma)
    lam = np.linalg.eigvalsh(G)[::-1]
    if cell.method == "rnca":
        Y = estimators["rnca"](1, p["m"], kernel=Kernel("gaussian", gamma=gamma), random_state=cell.rng("rff")).fit(X).features(X)
    else:
        Y = estimators["skpca"](sketch_size=min(50, p["m"]), n_features=p["m"], kernel=Kernel("gaussian", gamma=gamma),
                                random_state=cell.rng("rff")).fit(X).transform(X)
    spec = spectral_error(X, Y, kern, G=G)
    ratio = 0.0
    for k in L24_KS:
        lhs = frobenius_error(X, estimators["top_k_factor"](Y, k), kern, G=G)
        ratio = max(ratio, lhs / lemma24_bound(float(np.sqrt(np.sum(lam[k:] ** 2))), k, spec))
    return {"ratio": ratio}


def _l24_sweep(n, seeds):
    return crossed(f"RandomNoisy n = {n}, d = 100, m in {L24_MS}, k in {L24_KS}, {seeds} seeds", ("rnca", "skpca"),
                   (n,), seeds, axes=(("m", L24_MS),), d=100)


# -- ghashami16.space ----------------------------------------------------------------------------

SPACE_D, SPACE_ELL, SPACE_BLOCK = 16, 10, 16
SPACE_BANDS = {"skpca": (0.8, 1.2), "rnca": (1.8, 2.2), "nystrom": (1.8, 2.2)}
#: Peak traced bytes of a fit over 8 x the floats it says it holds, at most. Evidence: see
#: the claim's tolerance.
PEAK_OVER_SPACE_MAX = 6.0


def _traced_peak(fn) -> int:
    """Peak traced bytes (tracemalloc) above the level before ``fn()``. Under the
    runner (already tracing) this resets its peak, so the cell's recorded peak is
    that of the fit too."""
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    base, _ = tracemalloc.get_traced_memory()
    tracemalloc.reset_peak()
    try:
        fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        if started:
            tracemalloc.stop()
    return peak - base


@functools.lru_cache(maxsize=1)
def _warm():
    """Compile / load every jitted routine once per process, so no timing or
    traced peak includes it."""
    X = np.random.default_rng(0).standard_normal((20, 3))
    SKPCA(sketch_size=2, n_features=4, random_state=0).fit(X).transform(X)
    StreamingNystrom(3, random_state=0).fit(X).transform(X)
    return True


def _make(estimators, method, m, gamma, rng, ell=None, shrink="halving", **options):
    """The estimator ``method`` with m features / landmarks (SKPCA: Algorithm 1's
    halving shrink unless ``shrink`` says otherwise); ``options`` (block_size) go to
    the constructor."""
    if method.startswith("skpca"):
        return estimators[method](sketch_size=ell, n_features=m, kernel=Kernel("gaussian", gamma=gamma), shrink=shrink,
                                  random_state=rng, **options)
    if method == "rnca":
        return estimators[method](1, m, kernel=Kernel("gaussian", gamma=gamma), random_state=rng, **options)
    return estimators[method](m, Kernel("gaussian", gamma=gamma), random_state=rng, **options)


@single_threaded
def space_experiment(cell: Cell, estimators) -> dict:
    """Floats held (``space_``) and traced peak bytes of one fit, versus m; the level:
    ``space_off`` = |space_ - the paper's SPACE count| (:func:`theory.ghashami16.paper_space`)
    and ``peak_over_space`` = peak bytes / (8 space_), how far the fit's memory exceeds
    what it says it holds."""
    _warm()
    X = cell.rng().standard_normal((cell.n, SPACE_D))
    est = _make(estimators, cell.method, cell.p["m"], 1.0 / (2 * SPACE_D), cell.rng("method"), SPACE_ELL,
                block_size=SPACE_BLOCK)
    peak = _traced_peak(lambda: est.fit(X))
    space = float(est.space_)
    return {"space": space, "peak_bytes": float(peak),
            "space_off": abs(space - paper_space(cell.method, cell.p["m"], SPACE_D, SPACE_ELL)),
            "peak_over_space": float(peak) / (8.0 * space)}


def _space_sweep(n, skpca_exps, other_exps, seeds):
    """m = 2^i per method: SKPCA's grid starts higher (see the tolerance evidence)."""
    exps = {"skpca": skpca_exps, "rnca": other_exps, "nystrom": other_exps}
    common = f"Gaussian data n = {n}, d = {SPACE_D}, ell = {SPACE_ELL}, block {SPACE_BLOCK}, {seeds} seeds: "
    return tuple(crossed(f"{common if i == 0 else ''}{method} m = 2^{e.start}..2^{e.stop - 1}", (method,), (n,),
                         seeds, axes=(("m", tuple(2**j for j in e)),))
                 for i, (method, e) in enumerate(exps.items()))


def _space_rule(method, metric):
    band = SPACE_BANDS[method]
    return SlopeInBand(metric, band, label=f"{method} {'floats held' if metric == 'space' else 'traced peak bytes'}",
                       ylabel=metric, predicted=float(np.mean(band)), x="m", method=method,
                       name=f"{method}_{metric}_slope")


# -- ghashami16.randomnoisy and ghashami16.digits (the paper's Figures 1-3) -----------------------

METHODS = ("nystrom", "rnca") + tuple(f"skpca{ell}" for ell in ELLS)
METHOD_NAMES = {"nystrom": "Nyström", "rnca": "RNCA", **{f"skpca{ell}": f"SKPCA ell={ell}" for ell in ELLS}}
ERRORS = (("spectral", "kernel spectral error ||G - G'||_2 / n"),
          ("frobenius", "kernel Frobenius error ||G - G'||_F / n²"))
COMPARE_ESTIMATORS = {"nystrom": StreamingNystrom, "rnca": RNCA, **{f"skpca{ell}": SKPCA for ell in ELLS}}


def _cmp_data(cell: Cell):
    """(train, test, gamma): RandomNoisy with a random test split, or digits."""
    p = cell.p
    if p["data"] == "digits":
        X, gamma = _digits()
        perm = Cell.make(cell.claim, "split", 0, cell.seed).rng("split").permutation(len(X))
        return X[perm[p["test"]:p["test"] + cell.n]], X[perm[:p["test"]]], gamma
    X = _rn_data(Cell.make(cell.claim, "data", cell.n + p["test"], cell.seed), cell.n + p["test"], p["d"])
    return X[:cell.n], X[cell.n:], rn_gamma(p["d"])


@functools.lru_cache(maxsize=2)
def _cmp_gram(claim, n, seed, params):
    X, _, gamma = _cmp_data(Cell(claim, "data", n, seed, params))
    return _gram(X, gamma)


def _best_time(fn, repeats=3):
    best = math.inf
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def embedding_cost(est, projected: bool) -> dict:
    """The deterministic cost of embedding one test row with the fitted ``est``,
    counted from its shapes and from the code that runs (the verdict reads this,
    never seconds). Two counts, and their sum ``test_ops``:

    - ``test_madds``: multiply-adds of the inner products;
    - ``test_transcendentals``: calls of exp (a Gaussian kernel entry) or cos (a
      feature), each with its O(1) elementwise assembly folded in (squared
      distance x_sq + s_sq - 2 x.s, clamp, times -gamma; or + b, times sqrt(2/m)).

    Streaming Nyström, ``transform`` = ``kernel_matmat(X, A_k, kernel, S)``: the
    block X S^T (c d), the row's squared norm (d), c exps, then the c x r product
    with A_k (r = ``coefficients_.shape[1]``, the effective rank of W after the
    rcond cut-off)::

        madds = c d + d + c r,   transcendentals = c.

    The landmarks' squared norms (c d) are computed once per call of
    ``transform`` (one block of up to ``default_block_size(c)`` rows), not per row,
    and are not counted.
    RNCA (``projected=False``, the embedding is ``features``: z(x) whose Gram is
    ZZ^T) with q frequencies and m' features (m' = q for ``"cos"``), and SKPCA
    (``projected=True``, ``transform`` = z(x)^T W, W = ``components_`` of shape
    m' x r, r <= ell the numerical rank of the final sketch)::

        madds = d q (x^T Omega) [+ m' r for z(x)^T W],   transcendentals = m'.

    So at c = m (cos features): Nyström costs c(d + r_N + 1) + d, RNCA m(d + 1),
    SKPCA m(d + r_S + 1): Nyström's is the largest iff c r_N + d > m r_S for every ell.
    """
    if hasattr(est, "landmarks_"):
        c, d = est.landmarks_.shape
        r = est.coefficients_.shape[1]
        madds, trans = c * d + d + c * r, c
    else:
        fmap = est.feature_map_
        d, q = fmap.omega.shape
        madds, trans = d * q, fmap.n_features
        if projected:
            madds += fmap.n_features * est.components_.shape[1]
    return {"test_madds": float(madds), "test_transcendentals": float(trans), "test_ops": float(madds + trans)}


@single_threaded
def compare_experiment(cell: Cell, estimators) -> dict:
    """One method at one sample size m (= c for Nyström): kernel spectral and
    Frobenius errors on the training rows, train time (one streaming pass),
    test time (the embedding of the test rows whose Gram is G': A^T k_S(x) for
    Nyström, z(x) for RNCA, z(x)^T W for SKPCA; best of 3; for the figure only),
    the deterministic test cost per row (:func:`embedding_cost`, which the verdict
    reads) and SPACE.

    RNCA also records its errors at each rank ell <= m (``rank{ell}_spectral``,
    ``rank{ell}_frobenius``): Z V_ell, V_ell the top-ell right singular vectors of its
    features (:func:`theory.kernel_error.top_k_factor`; the first ell columns of the
    largest ell's factor, one eigh), its test embedding z(x)^T V_ell (the paper's
    section 1.1) and the like-with-like reference for SKPCA with sketch size ell. SKPCA is fitted twice on the same
    features: with the standard Frequent Directions shrink (sigma_ell^2, the sketch
    whose (ell - k) guarantee Lemmas 2.1-2.2 state; the judged errors and ``w_rank``,
    the rank of W) and with Algorithm 1 as printed (the halving shrink
    sigma_{floor(ell/2)}^2; ``literal_*``, reported). Both are compared with the exact
    rank-ell PCA of the same features Z (``pca_spectral``, ``pca_frobenius``: Z V_ell,
    the best any rank-ell Z P Z^T can do, SKPCA's P = W W^T among them), which splits
    a loss into the sketch's share and rank ell's share."""
    _warm()
    p = cell.p
    Xtr, Xte, gamma = _cmp_data(cell)
    skpca = cell.method.startswith("skpca")
    est = _make(estimators, cell.method, p["m"], gamma, cell.rng("method"), ell=p.get("ell"),
                **({"shrink": "standard"} if skpca else {}))
    embed = est.features if cell.method == "rnca" else est.transform
    t0 = time.perf_counter()
    est.fit(Xtr)
    train = time.perf_counter() - t0
    test, _ = _best_time(lambda: embed(Xte))
    G = _cmp_gram(cell.claim, cell.n, cell.seed, tuple((k, v) for k, v in cell.params if k in ("data", "d", "test")))
    Y = embed(Xtr)
    spec, frob = _errors(Xtr, Y, gamma, G)
    out = {"spectral": spec, "frobenius": frob, "train_time": train, "test_time": test, "space": float(est.space_),
           **embedding_cost(est, projected=cell.method != "rnca")}
    if cell.method == "rnca":
        ells = [ell for ell in ELLS if ell <= p["m"]]
        Y_top = top_k_factor(Y, max(ells))
        for ell in ells:
            out[f"rank{ell}_spectral"], out[f"rank{ell}_frobenius"] = _errors(Xtr, Y_top[:, :ell], gamma, G)
    if skpca:
        literal = _make(estimators, cell.method, p["m"], gamma, cell.rng("method"), ell=p["ell"]).fit(Xtr)
        out["literal_spectral"], out["literal_frobenius"] = _errors(Xtr, literal.transform(Xtr), gamma, G)
        out["pca_spectral"], out["pca_frobenius"] = _errors(Xtr, top_k_factor(est.features(Xtr), p["ell"]), gamma, G)
        for key, fitted in (("w_rank", est), ("literal_w_rank", literal)):
            out[key] = float(np.linalg.matrix_rank(fitted.components_)) if fitted.components_.size else 0.0
    return out


def _cmp_cells(claim_id, options, *, data, n, d, test, ms, seeds):
    cells = []
    for seed in range(seeds):
        for m in ms:
            common = dict(m=m, d=d, data=data, test=test)
            cells += [Cell.make(claim_id, meth, n, seed, **common) for meth in ("nystrom", "rnca")]
            cells += [Cell.make(claim_id, f"skpca{ell}", n, seed, ell=ell, **common) for ell in ELLS if ell <= m]
    return cells


def _cmp_sweep(data, n, d, test, ms, seeds):
    where = (f"RandomNoisy n = {n} (+{test} test), d = {d}" if data == "randomnoisy"
             else f"digits, {n} train / {test} test rows")
    return CellList(functools.partial(_cmp_cells, data=data, n=n, d=d, test=test, ms=tuple(ms), seeds=seeds),
                    f"{where}, m = c in {list(ms)}, ell in {ELLS} (ell <= m), {seeds} seeds")


def _paired_status(diffs):
    """holds if mean + 2 SE < 0 (first is smaller), fails if mean - 2 SE > 0, else inconclusive."""
    d = np.asarray(diffs, dtype=float)
    se = d.std(ddof=1) / np.sqrt(len(d)) if len(d) > 1 else np.inf
    mean = float(d.mean())
    return ("holds" if mean + 2 * se < 0 else "fails" if mean - 2 * se > 0 else "inconclusive"), mean


def _nystrom_best_small(val, methods, seeds, m_min, measured):
    """(a) Nyström best at the smallest sample size, both errors: paired log ratio
    against each other method."""
    sub = []
    for metric in ("spectral", "frobenius"):
        for other in methods:
            if other == "nystrom" or (other, m_min, seeds[0]) not in val:
                continue
            d = [math.log(val["nystrom", m_min, s][metric] / val[other, m_min, s][metric]) for s in seeds]
            st, mean = _paired_status(d)
            sub.append(st)
            measured[f"small_{metric}_log_nys_over_{other}"] = mean
    return combine(sub)


def _space_series(results, method, metrics):
    """{seed: (space sorted, {metric: values})} for one method: its curves against
    SPACE, over the cells that record every one of ``metrics`` (RNCA records rank ell
    only where ell <= m)."""
    rows = {}
    for r in results:
        if r.cell.method == method and all(k in r.metrics for k in metrics):
            rows.setdefault(r.cell.seed, []).append((r.metrics["space"],) + tuple(r.metrics[k] for k in metrics))
    out = {}
    for seed, v in rows.items():
        cols = [np.array(c) for c in zip(*sorted(v))]
        out[seed] = (cols[0], dict(zip(metrics, cols[1:])))
    return out


RANK_VERB = {"holds": "beats", "inconclusive": "ties", "fails": "loses to"}


def _cause(status, sketch, rank, sketch_mean, rank_mean):
    """Why SKPCA loses to RNCA at one (ell, error), from the exact split
    log(SKPCA / RNCA) = log(SKPCA / PCA_ell(Z)) + log(PCA_ell(Z) / RNCA), each share
    paired over seeds: the sketch's loss if SKPCA is significantly worse than the
    exact rank-ell PCA of its own features Z; rank ell's loss if that PCA is itself
    significantly worse than RNCA at equal space (both, larger share first; neither
    if no share is significant alone). Empty when the comparison does not fail."""
    if status != "fails":
        return ""
    shares = sorted(((sketch_mean, "the sketch"), (rank_mean, "rank ell")), reverse=True)
    named = [name for mean, name in shares if (sketch if name == "the sketch" else rank) == "fails"]
    return " and ".join(named) if named else "neither share alone"


# The two comparisons of SKPCA with RNCA at equal SPACE, as (SKPCA's error, RNCA's
# error) metric names per (error, ell). "judged", like with like: SKPCA with the
# standard shrink against RNCA at rank ell. "literal", the paper's Figure 1:
# Algorithm 1 (halving shrink) against RNCA's rank-m ZZ^T; reported, not judged.
SPACE_COMPARISONS = {
    "judged": lambda metric, ell: (metric, f"rank{ell}_{metric}"),
    "literal": lambda metric, ell: (f"literal_{metric}", metric),
}


def _skpca_vs_rnca_space(results, methods, seeds, measured, which):
    """SKPCA <= RNCA at equal SPACE, per ell (``which`` names the pair of errors in
    :data:`SPACE_COMPARISONS`): SKPCA's log error minus RNCA's log error interpolated
    (in log space) at SKPCA's space, mean per seed, paired over seeds
    (:func:`_paired_status`). Split exactly at the same cells into the sketch's share,
    log SKPCA - log PCA_ell(Z) (SKPCA against the exact rank-ell PCA of its own
    features), and rank ell's share, log PCA_ell(Z) - log RNCA at equal space
    (:func:`_cause`). The measured keys of the literal comparison carry the prefix
    ``literal_``. Returns ({method: status}, {method: [(error, mean, sketch mean,
    rank mean, rank verb, cause), ...]})."""
    tag = "" if which == "judged" else "literal_"
    per_ell, why = {}, {}
    for method in (m for m in methods if m.startswith("skpca")):
        ell = int(method[5:])
        sub, rows = [], []
        for metric in ("spectral", "frobenius"):
            sk_key, rn_key = SPACE_COMPARISONS[which](metric, ell)
            rn = _space_series(results, "rnca", (rn_key,))
            sk = _space_series(results, method, (sk_key, f"pca_{metric}"))
            lit, sketch, rank = [], [], []
            for s in seeds:
                (xs, ys), (xr, yr) = sk[s], rn[s]
                inside = (xs >= xr.min()) & (xs <= xr.max())
                if inside.any():
                    interp = np.interp(np.log(xs[inside]), np.log(xr), np.log(yr[rn_key]))
                    log_sk, log_pca = np.log(ys[sk_key][inside]), np.log(ys[f"pca_{metric}"][inside])
                    lit.append(float(np.mean(log_sk - interp)))
                    sketch.append(float(np.mean(log_sk - log_pca)))
                    rank.append(float(np.mean(log_pca - interp)))
            if len(lit) == len(seeds):
                (st, mean), (st_sk, mean_sk), (st_rk, mean_rk) = map(_paired_status, (lit, sketch, rank))
                sub.append(st)
                measured[f"{tag}space_{metric}_log_{method}_over_rnca"] = mean
                measured[f"{tag}{metric}_log_{method}_over_pca{ell}"] = mean_sk
                measured[f"{tag}space_{metric}_log_pca{ell}_over_rnca"] = mean_rk
                cause = _cause(st, st_sk, st_rk, mean_sk, mean_rk)
                if cause:
                    measured[f"{tag}cause_{metric}_{method}"] = cause
                rows.append((metric, mean, mean_sk, mean_rk, RANK_VERB[st_rk], cause))
        if sub:
            per_ell[method] = combine(sub)
            why[method] = rows
    return per_ell, why


def _nystrom_test_costliest(val, methods, seeds, m_max, measured):
    """(c) Nyström's test cost the largest at the largest sample size: paired log
    ratio of the costliest other method's operations per test row to Nyström's
    (``test_ops``, :func:`embedding_cost`: counted from the fitted shapes, so the
    verdict does not depend on the machine's load; ``test_time`` is not read)."""
    d = []
    for s in seeds:
        others = [val[o, m_max, s]["test_ops"] for o in methods if o != "nystrom" and (o, m_max, s) in val]
        d.append(math.log(max(others) / val["nystrom", m_max, s]["test_ops"]))
    status, mean = _paired_status(d)
    measured["test_ops_nystrom_over_costliest_other"] = math.exp(-mean)
    return status


def _why_line(per_ell, why, w_rank):
    """Per ell: the status and, where it fails, the split of each failing error's
    mean log ratio into the sketch's and rank ell's shares, whether the exact rank-ell
    PCA of Z beats, ties or loses to RNCA, the cause (:func:`_cause`) and the mean rank
    of SKPCA's W."""
    out = []
    for method, status in per_ell.items():
        ell = method[5:]
        notes = [f"{metric} {lit:+.2f} = sketch {sk:+.2f} + rank {rk:+.2f} (rank-{ell} PCA of Z {verb} RNCA): "
                 f"{cause}" for metric, lit, sk, rk, verb, cause in why[method] if cause]
        if notes:
            notes.append(f"rank(W) {w_rank[method]:.1f} of {ell}")
        out.append(f"ell={ell} {status}" + (f" [{'; '.join(notes)}]" if notes else ""))
    return ", ".join(out)


RECORDED = {"rnca": ("test_ops", "rank2_spectral"), "nystrom": ("test_ops",),
            "skpca": ("test_ops", "pca_spectral", "literal_spectral", "w_rank", "literal_w_rank")}


def judge_compare(results, profile) -> Outcome:
    """The paper's three qualitative claims of section 3, each paired over seeds
    on log ratios (:func:`_paired_status`); the claim holds when all three hold.
    SKPCA <= RNCA at equal space is judged like with like (SKPCA with sketch size ell
    against RNCA at rank ell); the paper's literal comparison (Algorithm 1 against
    RNCA's rank-m ZZ^T) is reported with the ell it fails and why. No part reads a
    time: the test-cost part judges operation counts."""
    stale = sum(not set(RECORDED[r.cell.method.rstrip("0123456789")]) <= set(r.metrics) for r in results)
    if stale:
        return Outcome("inconclusive", f"{stale} of {len(results)} records lack the operation counts, RNCA's "
                       "rank-ell errors or SKPCA's literal and rank-ell PCA errors (written by an older version "
                       "of this claim): rerun with a new --out directory")
    methods = sorted({r.cell.method for r in results}, key=METHODS.index)
    seeds = sorted({r.cell.seed for r in results})
    ms = [r.cell.p["m"] for r in results]
    val = {(r.cell.method, r.cell.p["m"], r.cell.seed): r.metrics for r in results}
    measured = {}
    per_ell, why = _skpca_vs_rnca_space(results, methods, seeds, measured, "judged")
    literal, literal_why = _skpca_vs_rnca_space(results, methods, seeds, measured, "literal")
    w_rank = {key: {m: float(np.mean([r.metrics[key] for r in results if r.cell.method == m])) for m in per_ell}
              for key in ("w_rank", "literal_w_rank")}
    parts = {"nystrom_best_small": _nystrom_best_small(val, methods, seeds, min(ms), measured),
             "skpca_le_rnca_space": combine(per_ell.values()),
             "nystrom_test_costliest": _nystrom_test_costliest(val, methods, seeds, max(ms), measured)}
    measured["literal_skpca_le_rnca_space"] = combine(literal.values())
    summary = ("; ".join(f"{k}: {v}" for k, v in parts.items())
               + ". SKPCA (standard shrink) <= RNCA at rank ell, equal space (mean log ratio = sketch's share + "
                 "rank ell's share): " + _why_line(per_ell, why, w_rank["w_rank"])
               + f". Nyström test ops per row / costliest other at m = {max(ms)}: "
                 f"{measured['test_ops_nystrom_over_costliest_other']:.2f}x"
               + ". Reported, not judged, the paper's literal comparison, Algorithm 1 (halving shrink) <= RNCA's "
                 f"rank-m ZZ^T at equal space: {measured['literal_skpca_le_rnca_space']}: "
               + _why_line(literal, literal_why, w_rank["literal_w_rank"]))
    measured.update({f"part_{k}": v for k, v in parts.items()})
    fits = []
    for metric, ylabel in ERRORS:
        for method in [m for m in methods if m.startswith("skpca")] + ["rnca"]:  # RNCA drawn on top
            _, Y = collect(results, metric, method, key=lambda c: c.p["m"])
            _, S = collect(results, "space", method, key=lambda c: c.p["m"])
            fits.append(Fit(METHOD_NAMES[method], np.nanmean(S, axis=1), Y, kind="measured",
                            xlabel="space (floats held)", ylabel=ylabel))
    return Outcome(combine(parts.values()), summary, fits, measured, {f"part_{k}": "holds" for k in parts})


def _mean_curve(results, method, xkey, metric):
    """(x, y) of one method's curve, each the mean over seeds per sample size m; x is
    m or the mean SPACE. Only cells that record ``metric`` count (RNCA records rank
    ell where ell <= m)."""
    rows = [r for r in results if r.cell.method == method and metric in r.metrics]
    ms = sorted({r.cell.p["m"] for r in rows})
    x = [m if xkey == "m" else np.mean([r.metrics["space"] for r in rows if r.cell.p["m"] == m]) for m in ms]
    return x, [np.mean([r.metrics[metric] for r in rows if r.cell.p["m"] == m]) for m in ms]


def compare_figure(results, verdict, outdir):
    """The paper's Figure 1 layout: spectral / Frobenius error, train and test time
    (measured seconds, drawn and not judged) and the counted test operations per
    row (judged) versus sample size (top) and versus SPACE (middle), per method (mean
    over seeds), each method in the colour and marker it has in the claim's main plot;
    RNCA (dashed) and Nyström are drawn above the SKPCA lines. SKPCA is the standard
    shrink. Bottom row, both errors versus SPACE: the judged comparison, SKPCA with
    sketch size ell against RNCA at rank ell (dashed, the same colour), and the
    paper's literal one, Algorithm 1 (halving shrink) against RNCA's rank-m ZZ^T."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import NullFormatter

    present = {r.cell.method for r in results}
    methods = [m for m in METHODS[2:] + METHODS[:2] if m in present]  # SKPCA first, RNCA and Nyström on top
    styles = method_styles([METHOD_NAMES[m] for m in methods if m != "nystrom"] + ["Nyström"])
    metrics = ERRORS + (("train_time", "train time (s)"), ("test_time", "test time (s), not judged"),
                        ("test_ops", "test operations per row (judged)"))
    fig, axes = plt.subplots(3, 5, figsize=(22, 12.5))
    for col, (metric, label) in enumerate(metrics):
        for row, xkey in enumerate(("m", "space")):
            for z, method in enumerate(methods):
                skpca = method.startswith("skpca")
                axes[row, col].plot(*_mean_curve(results, method, xkey, metric), ms=4 if skpca else 5,
                                    lw=1.2 if skpca else 2, ls="--" if method == "rnca" else "-", zorder=2 + z,
                                    label=METHOD_NAMES[method], **styles[METHOD_NAMES[method]])
            axes[row, col].set_xlabel("sample size (m or c)" if xkey == "m" else "space (floats held)")
            axes[row, col].set_ylabel(label)
    skpcas = [m for m in methods if m.startswith("skpca")]
    for col, (which, (metric, label)) in enumerate(itertools.product(("judged", "literal"), ERRORS)):
        ax = axes[2, col]
        for method in skpcas:
            sk_key, rn_key = SPACE_COMPARISONS[which](metric, int(method[5:]))
            style = styles[METHOD_NAMES[method]]
            ax.plot(*_mean_curve(results, method, "space", sk_key), ms=4, lw=1.2, **style)
            if which == "judged":
                ax.plot(*_mean_curve(results, "rnca", "space", rn_key), lw=1.2, ls="--", color=style["color"])
        if which == "literal":
            ax.plot(*_mean_curve(results, "rnca", "space", metric), lw=2, ls="--", **styles["RNCA"])
        ax.set_title("judged: SKPCA vs RNCA at rank ell (dashed)" if which == "judged"
                     else "reported: Algorithm 1 (halving) vs RNCA rank m", fontsize=10)
        ax.set_xlabel("space (floats held)")
        ax.set_ylabel(label)
    axes[2, 4].axis("off")
    for ax in axes.flat:
        if ax.axison:
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.xaxis.set_minor_formatter(NullFormatter())
            ax.grid(True, which="both", alpha=0.25)
    fig.suptitle(f"{verdict.claim} — {verdict.status} (means over seeds)")
    fig.tight_layout()
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=len(labels), fontsize=9,
               frameon=False)
    return save_figure(fig, outdir, f"{verdict.claim}.figure")


_COMPARE_METRIC = ("kernel spectral and Frobenius errors on the training rows versus sample size and SPACE: SKPCA "
                   "(standard shrink) against RNCA at rank ell, each SKPCA error split into the sketch's share (the "
                   "exact rank-ell PCA of its features Z) and rank ell's share; Algorithm 1 (halving shrink) against "
                   "RNCA's rank-m ZZ^T reported; test cost of the embedding as operations per test row "
                   "(multiply-adds + exp / cos calls, counted from the fitted shapes: Nyström c d + d + c r + c, "
                   "RNCA m d + m, SKPCA m d + m r + m); test and train seconds are drawn, not judged")
_COMPARE_STATEMENT = ("Nyström has the smallest kernel errors at small sample size; SKPCA's error is as good as or "
                      "better than RNCA's at equal SPACE (like with like: sketch size ell against RNCA at rank ell); "
                      "Nyström's test time is the largest")
_COMPARE_TOLERANCE = Tolerance(
    rule="paired over seeds, on log ratios: a part holds if mean + 2 SE < 0, fails if mean - 2 SE > 0, else is "
         "inconclusive; each part for both errors (and every ell); the test-cost part on counted operations per "
         "test row, never on seconds; the claim holds when all three parts hold. The paper's literal comparison "
         "and the split of a failing ell into the sketch's and rank ell's shares use the same rule and are "
         "reported, not judged",
    evidence="two standard errors of the paired mean is the conventional 95% rule; the margins, ci and quick "
             "(seeds 0-2 each, 2026-11-24): SKPCA (standard shrink) / RNCA at rank ell at equal space, mean log "
             "ratio -0.11 .. -0.35 over every ell, data set, error and profile; the fewest SEs below 0 is "
             "RandomNoisy, ell = 2, spectral, quick: -0.204 (SE 0.072, 2.8 SE), the smallest mean digits, "
             "ell = 5, Frobenius, quick: -0.106 (SE 0.004). Before this comparison was made like with like "
             "(it set Algorithm 1 against RNCA's rank-m ZZ^T, now reported) it failed at ell = 2 on both data "
             "sets, +1.19 .. +2.06 (SE <= 0.085), and at ell = 5 on digits at quick, Frobenius, +0.104 (SE "
             "0.012), each by the sketch's share. Test cost, log (costliest other / Nyström) at the largest m: "
             "-0.37 / -0.45 (ci, RandomNoisy / digits), -1.31 / -1.48 (quick), SE <= 0.006 (only Nyström's "
             "effective rank varies with the seed). The seconds it replaces: Nyström's best-of-3 test time at "
             "ci was about 8 ms per call at every c (7.9 ms for 1 row and for 100 rows at c = 16, one "
             "measurement on a shared 2-core machine), a per-call overhead, and 20x RNCA's")
_COMPARE_FAULTS = (
    Fault("nystrom-wrong-bandwidth", "Nyström's landmark kernel with 10x the gamma: Nyström is no longer best "
          "at the smallest sample size", {"nystrom": broken.WrongBandwidthNystrom}),
    Fault("skpca-random-subspace", "SKPCA returns a random orthonormal W that ignores the sketch: worse than "
          "RNCA at equal space for every ell, the sketch's share", {f"skpca{ell}": broken.RandomSubspaceSKPCA
                                                                   for ell in ELLS}),
    Fault("skpca-shrink-sigma1", "SKPCA's Frequent Directions shrinks by sigma_1^2 at every ell (s[0] for "
          "s[j - 1]), emptying its sketch at each shrink: worse than RNCA at equal space, the sketch's share",
          {f"skpca{ell}": broken.SigmaOneSKPCA for ell in ELLS}),
    Fault("skpca-wrong-bandwidth", "SKPCA's features drawn with omega ~ N(0, gamma I) (the kernel of gamma / 2): "
          "worse than RNCA at equal space, rank ell's share (the exact rank-ell PCA of those features loses "
          "too)", {f"skpca{ell}": broken.NarrowSKPCA for ell in ELLS}),
    Fault("skpca-projector-embedding", "SKPCA embeds with the m x m projector W W^T instead of W: the same Gram "
          "and errors, m^2 instead of m ell multiply-adds per test row, so Nyström's test cost is no longer "
          "the largest", {f"skpca{ell}": broken.ProjectorSKPCA for ell in ELLS}),
)


# -- the claims ---------------------------------------------------------------------------------

CLAIMS = [
    Claim(
        id="ghashami16.fd-bound",
        source="Ghashami et al. 2016, Algorithm 1 and Lemma 2.1; Liberty 2013; Ghashami & Phillips 2014",
        statement="Frequent Directions, shrinking at sigma_ell^2 (standard) or sigma_{ell/2}^2 (Algorithm 1): "
                  "0 <= A^T A - B^T B, ||A^T A - B^T B||_2 <= Delta <= ||A - A_k||_F^2 / (j - k) for all k < j; "
                  "exact when n < ell or rank <= k",
        prediction="exact inequalities (j = ell or floor(ell/2)); the paper's (ell - k) for Algorithm 1 is an "
                   "erratum, reported and not judged",
        data="seven matrix kinds (40 columns): Gaussian with column scales decaying 1..0.01, rank 3, all singular "
             "values equal, one repeated row, zero, 4 rows, and 600 rows of digits; no kernel, no bandwidth",
        metric="worst deviation of each guarantee over ell in (2, 5, 10, 20), relative to ||A||_F^2, for both "
               "shrink rules (positive = violated)",
        estimators={"fd": FrequentDirections},
        experiment=fd_experiment,
        grid=PerProfile(ci=_fd_sweep(2), quick=_fd_sweep(5), full=_fd_sweep(30)),
        judge=WithErratum(AllWithin(FD_TOL, metrics=tuple(f"{rule}_{k}" for rule in ("standard", "halving")
                                                          for k in FD_CHECKS), what="of ||A||_F^2"),
                          metric="halving_literal", tol=FD_TOL,
                          what="the paper's (ell - k) denominator for the halving rule"),
        tolerance=Tolerance(rule=f"every deviation <= {FD_TOL:g} of ||A||_F^2", evidence=_FD_EVIDENCE),
        faults=(Fault("sigma-shrink", "shrinks Sigma instead of Sigma^2 while booking sigma_j^2 in Delta",
                      {"fd": broken.SigmaShrinkFD}, keep=lambda c: c.p["kind"] in ("random", "digits")),),
    ),
    Claim(
        id="ghashami16.fd-merge",
        source="Ghashami et al. 2016, section 1.1 (Frequent Directions sketches are mergeable)",
        statement="Merging sketches of chunks (a tree of merges) keeps the FD bound of the concatenated matrix",
        prediction="exact inequalities",
        data="the seven matrix kinds of ghashami16.fd-bound, each split into 4 chunks sketched separately and "
             "merged as (1+2)+(3+4); no kernel, no bandwidth",
        metric="worst deviation of each FD guarantee of the merged sketch over both shrink rules and ell in "
               "(2, 5, 10, 20), relative to ||A||_F^2",
        estimators={"fd": FrequentDirections},
        experiment=merge_experiment,
        grid=PerProfile(ci=_fd_sweep(2, ", 4 chunks"), quick=_fd_sweep(5, ", 4 chunks"),
                        full=_fd_sweep(30, ", 4 chunks")),
        judge=AllWithin(FD_TOL, metrics=FD_CHECKS, what="of ||A||_F^2"),
        tolerance=Tolerance(rule=f"every deviation <= {FD_TOL:g} of ||A||_F^2", evidence=_FD_EVIDENCE),
        faults=(Fault("merge-drops-delta", "merge forgets the other sketch's Delta", {"fd": broken.DeltaDroppingFD},
                      keep=lambda c: c.p["kind"] in ("random", "digits")),),
    ),
    Claim(
        id="ghashami16.rff-rate",
        source="Ghashami et al. 2016, Lemma A.1 and section 1.1 (Rahimi & Recht; Lopez-Paz et al.)",
        statement="The RFF Gram error ||G - ZZ^T||_2 / n decays like m^(-1/2) (m = O(log(n/delta)/eps^2))",
        prediction="log-log slope in m about -1/2",
        data="RandomNoisy (s = 50, zeta = 10), Gaussian kernel with the closed-form mean-distance bandwidth "
             "gamma = 1 / (4 (sum_i D_ii^2 + d / zeta^2))",
        metric="||G - ZZ^T||_2 / n on the sample (Lanczos), Z the cos random Fourier features",
        estimators={"rff": ours_rff},
        experiment=rff_experiment,
        subject=Subject("kernel-approximation", "rff", centred=False, kernel="gaussian",
                        budget="m features (m = 32..1024 at ci), the whole map (n_components = None)",
                        probe=(("n_components", None), ("budget", 16)), kinds=("random-features",)),
        grid=PerProfile(ci=_rff_sweep(400, 100, tuple(2**i for i in range(5, 11)), 5),
                        quick=_rff_sweep(1500, 100, tuple(2**i for i in range(5, 12)), 5),
                        full=_rff_sweep(5000, 1000, tuple(2**i for i in range(5, 14)), 10)),
        judge=AllOf(SlopeInBand("spectral", RFF_BAND, label="RFF (RNCA) spectral error",
                                ylabel="||G - ZZ^T||_2 / n", predicted=-0.5, x="m"),
                    MeanAtMost("frob_level", RFF_LEVEL_MAX, "||G - ZZ^T||_F^2 / its i.i.d.-cos expectation",
                               x=None)),
        tolerance=Tolerance(
            rule=f"bootstrap 95% CI of the slope in m inside [{RFF_BAND[0]}, {RFF_BAND[1]}]; the level: mean "
                 f"||G - ZZ^T||_F^2 over its exact i.i.d.-cos expectation, pooled over every cell, <= "
                 f"{RFF_LEVEL_MAX}",
            evidence="a design-time check on RandomNoisy-like data (n = 1500, d = 100, median-heuristic sigma = "
                     "7.76): m = 64 / 256 / 1024 / 4096 gave 0.121 / 0.0352 / 0.0219 / 0.0111, slope about -0.5 at "
                     "large m; the Theta(n log n / m) rate quoted for RNCA would suggest -1, hence the wide lower end. "
                     "The level (ci grid, 50 seeds in 10 batches of 5): pooled means 0.879-1.102 (seeds 0-4: 0.987; "
                     "quick: 0.960); m/2 draws used twice: 1.675-2.209, so the slope alone (-0.523 [-0.639, -0.396] "
                     "with repeated draws) could not see it"),
        faults=(Fault("narrow-omega", "omega ~ N(0, gamma I) instead of N(0, 2 gamma I): the features of another "
                      "kernel, so the error stops falling", {"rff": broken.narrow_rff_map}),
                Fault("repeated-draws", "a near miss: m/2 frequencies each used twice; unbiased, and the error "
                      "still falls like m^(-1/2), but E||G - ZZ^T||_F^2 is twice the i.i.d. level",
                      {"rff": broken.repeated_rff_map})),
    ),
    Claim(
        id="ghashami16.lemma22",
        source="Ghashami et al. 2016, Lemma 2.2 (corrected for the shrink index)",
        statement="||G_hat - G~||_2 <= ||Z^T Z - B^T B||_2 <= 2||Z||_F^2/ell (halving), <= ||Z||_F^2/ell "
                  "(standard), and ||Z||_F^2 <= 2n",
        prediction="exact inequalities; the paper's ||Z||_F^2 / ell for Algorithm 1 is an erratum, reported and "
                   "not judged",
        data="RandomNoisy (s = 50, zeta = 10, d = 100, n odd so that halving sketches end with rows inserted after "
             "the last shrink), closed-form mean-distance bandwidth",
        metric="each link of the chain as a relative excess over ||Z||_F^2 (positive = violated), ||W^T W - I||, "
               "-lambda_min(G_hat - G~) / ||Z||_F^2, and ||Z||_F^2 / 2n",
        estimators={"skpca": SKPCA},
        experiment=lemma22_experiment,
        grid=PerProfile(ci=_l22_sweep(301, 3), quick=_l22_sweep(801, 3), full=_l22_sweep(5001, 10)),
        judge=WithErratum(AllOf(AllWithin(L22_TOL, metrics=L22_CHECKS, what="of ||Z||_F^2"),
                                AllWithin(1.0, metrics=("frob_over_2n",))),
                          metric="literal", tol=L22_TOL, what="the paper's ||Z||_F^2 / ell for Algorithm 1",
                          only=("shrink", "halving")),
        tolerance=Tolerance(
            rule=f"every excess <= {L22_TOL:g} of ||Z||_F^2; ||Z||_F^2 / 2n <= 1",
            evidence="quick profile (seeds 0-2, both rules, ell in (2, 5, 10, 20, 50)): worst link1 -2.0e-3, "
                     "link2 -1.4e-2 (never positive), ||W^T W - I|| 3.3e-15, -lambda_min(G_hat - G~) 3.9e-16 of "
                     "||Z||_F^2: 1e-9 is round-off headroom"),
        faults=(Fault("stale-w", "W from the sketch at the last shrink, ignoring rows inserted after it",
                      {"skpca": broken.StaleSKPCA}, keep=lambda c: c.p["shrink"] == "halving"),),
    ),
    Claim(
        id="ghashami16.thm21",
        source="Ghashami et al. 2016, Theorem 2.1",
        statement="SKPCA with m RFFs and ell = 4/eps: ||G - G~||_2 <= eps n, i.e. the normalised error is "
                  "bounded by sqrt(log(n/delta)/m) + 4/ell and does not grow with n",
        prediction=f"bound holds (C = 1, delta = {T21_DELTA}); the proof's data-dependent bound "
                   f"||G - ZZ^T||_2 + ||Z^T Z - B^T B||_2 holds; slope in n <= {T21_SLOPE_MAX}",
        data="RandomNoisy (s = 50, zeta = 10, d = 100), closed-form mean-distance bandwidth",
        metric="||G - G~||_2 / n (Lanczos) for SKPCA (Algorithm 1, halving), its excess over the theorem's "
               "bound, and the proof's bound from the estimator's own features Z and sketch B",
        estimators={"skpca": skpca_halving},
        experiment=thm21_experiment,
        subject=Subject("kernel-approximation", "skpca", centred=False, kernel="gaussian",
                        budget=f"m = {T21_M} features, a rank-ell approximation (n_components = ell = {T21_ELL})",
                        kinds=("random-features",)),
        grid=PerProfile(ci=_t21_grid(64, 5), quick=_t21_grid(100, 10), full=_t21_grid(625, 10)),
        judge=AllOf(UnderBound("spectral", "bound", label=f"SKPCA m = {T21_M}, ell = {T21_ELL}",
                               bound_label="Thm 2.1: √(log(n/δ)/m) + 4/ℓ",
                               ylabel="||G - G~||_2 / n under its bound"),
                    WhereExposed("proof_bound", UnderBound(
                        "spectral", "proof_bound", label=f"SKPCA m = {T21_M}, ell = {T21_ELL}",
                        bound_label="proof: (‖G − ZZᵀ‖₂ + ‖ZᵀZ − BᵀB‖₂) / n",
                        ylabel="||G - G~||_2 / n under the proof's bound", name="proof_bound")),
                    SlopeInBand("spectral", (-np.inf, T21_SLOPE_MAX), label=f"SKPCA m = {T21_M}, ell = {T21_ELL}",
                                ylabel="||G - G~||_2 / n")),
        tolerance=Tolerance(
            rule=f"no cell above the theorem's bound, none above the proof's bound (both exact inequalities, "
                 f"no tolerance); upper end of the slope's bootstrap 95% CI <= {T21_SLOPE_MAX}",
            evidence="quick profile with 5 seeds (n = 100..3200): slope +0.067 [-0.000, +0.133], inconclusive, "
                     "hence 10 seeds; sqrt(log n) growth alone gives +0.08 on that grid. Slack at ci (seeds "
                     "0-4): the theorem's bound / error median 10.8, so a 4x error passed it; the proof's bound / "
                     "error 1.41-2.11 (error / proof's bound 0.473-0.711), the proof's bound being 0.16 of the "
                     "theorem's. The near miss paired-scale-transform passes the theorem's bound (slack 1.24) and "
                     "is 3.1-5.7 times the proof's"),
        faults=(Fault("unscaled-features", "features cos(omega^T x + b) without the sqrt(2/m) scale",
                      {"skpca": broken.unscaled_skpca}),
                Fault("paired-scale-transform", "a near miss: transform scales the cos features by 1/sqrt(m) (the "
                      "paired map's normalisation) instead of sqrt(2/m), halving G~; under the theorem's bound, "
                      "not under the proof's", {"skpca": broken.paired_scale_transform_skpca})),
    ),
    Claim(
        id="ghashami16.lemma24",
        source="Ghashami et al. 2016, Lemma 2.4 (the proof's eps n sqrt(k))",
        statement="||G - G'_k||_F <= ||G - G_k||_F + sqrt(k) ||G - G'||_2 for G' = ZZ^T and G~",
        prediction="holds",
        data="RandomNoisy (s = 50, zeta = 10, d = 100), closed-form mean-distance bandwidth",
        metric="worst lhs / rhs over k in (1, 5, 20), G' from RNCA (ZZ^T) or SKPCA (ell = min(50, m), halving)",
        estimators={"rnca": RNCA, "skpca": SKPCA, "top_k_factor": top_k_factor},
        experiment=lemma24_experiment,
        grid=PerProfile(ci=_l24_sweep(400, 3), quick=_l24_sweep(800, 3), full=_l24_sweep(3000, 10)),
        judge=AllWithin(1 + L24_TOL, metrics=("ratio",), what="(lhs / rhs)"),
        tolerance=Tolerance(rule=f"lhs / rhs <= 1 + {L24_TOL:g} (round-off only)",
                            evidence="observed worst lhs / rhs 0.904 (ci), 0.83 (quick)"),
        faults=(Fault("bottom-k", "G'_k from the bottom k eigenvectors (eigh's ascending order)",
                      {"top_k_factor": broken.bottom_k_factor}),),
    ),
    Claim(
        id="ghashami16.space",
        source="Ghashami et al. 2016, Table 1 and section 3 (SPACE)",
        statement="SKPCA holds O(dm + ell m), RNCA O(dm + m^2), streaming Nyström O(cd + c^2)",
        prediction="space and peak memory linear in m for SKPCA, quadratic for RNCA and Nyström",
        data=f"standard Gaussian data, d = {SPACE_D}, gamma = 1/(2d) (the bandwidth does not change the memory)",
        metric="floats held (space_) and peak traced bytes (tracemalloc) of one fit, versus m",
        estimators={"skpca": SKPCA, "rnca": RNCA, "nystrom": StreamingNystrom},
        experiment=space_experiment,
        grid=PerProfile(ci=_space_sweep(512, range(7, 13), range(5, 11), 2),
                        quick=_space_sweep(1024, range(7, 13), range(5, 11), 3),
                        full=_space_sweep(8192, range(8, 15), range(6, 13), 5)),
        judge=AllOf(*(_space_rule(method, metric) for method in SPACE_BANDS for metric in ("space", "peak_bytes")),
                    AllWithin(0.0, metrics=("space_off",), what="floats from the paper's SPACE"),
                    AllWithin(PEAK_OVER_SPACE_MAX, metrics=("peak_over_space",), what="(peak bytes / 8 space_)")),
        tolerance=Tolerance(
            rule="bootstrap 95% CIs of the log-log slopes in m inside [0.8, 1.2] (SKPCA) and [1.8, 2.2] (RNCA, "
                 "Nyström); the level: space_ equals the paper's SPACE count exactly (d m + m + ell m, d m + m + m^2, "
                 f"m d + m^2) and peak traced bytes <= {PEAK_OVER_SPACE_MAX:g} x 8 space_ in every cell",
            evidence="no measurement recorded for the 0.2 width (the ci run, seeds 0-1, n = 512, gives slopes "
                     "space / peak bytes: SKPCA 1.000 / 0.960, RNCA 1.888 / 1.908, Nyström 1.893 / 1.832); SKPCA's m grid starts at 128 because its state is "
                     "so small (about 360 m bytes) that a fixed ~30 kB of Python objects per fit (measured, "
                     "n = 1024, after warm-up) flattens the slope below m ~ 100 (m = 32..1024: 0.80); RNCA's and "
                     "Nyström's m x m eigh caps theirs at 1024 (ci, quick). Peak bytes / 8 space_: ci 2.23-4.36, "
                     "quick 2.23-4.37 (largest for Nyström at m = 64, where Python objects weigh most; 2.23 for SKPCA "
                     "at large m), hence 6; the m-by-m-covariance fault reaches 11.8 at m = 128 and 305 at m = 4096"),
        faults=(Fault("m-by-m-covariance", "SKPCA that gets W from eigh(B^T B), an m x m matrix",
                      {"skpca": broken.CovarianceSKPCA}),),
    ),
    Claim(
        id="ghashami16.randomnoisy",
        source="Ghashami et al. 2016, section 3, Figure 1",
        statement=_COMPARE_STATEMENT + " (RandomNoisy)",
        prediction="the paper's qualitative claims",
        data="RandomNoisy (s = 50, zeta = 10) with a random test split, closed-form mean-distance bandwidth",
        metric=_COMPARE_METRIC,
        estimators=COMPARE_ESTIMATORS,
        experiment=compare_experiment,
        grid=PerProfile(ci=_cmp_sweep("randomnoisy", 500, 100, 100, (16, 32, 64, 128), 3),
                        quick=_cmp_sweep("randomnoisy", 2000, 100, 200, (16, 32, 64, 128, 256, 512), 3),
                        full=_cmp_sweep("randomnoisy", 20000, 1000, 1000,
                                        (16, 32, 64, 128, 256, 512, 1024, 2048), 5)),
        judge=judge_compare,
        tolerance=_COMPARE_TOLERANCE,
        faults=_COMPARE_FAULTS,
        figure=compare_figure,
    ),
    Claim(
        id="ghashami16.digits",
        source="Ghashami et al. 2016, section 3, Figures 2-3 (on scikit-learn's digits, offline, in place of "
               "CPU / Adult)",
        statement=_COMPARE_STATEMENT + " (digits)",
        prediction="the paper's qualitative claims",
        data="scikit-learn's digits (1797 x 64) with a random test split, median-heuristic bandwidth "
             "gamma = 1 / (2 median ||x - y||^2) over 1000 rows",
        metric=_COMPARE_METRIC,
        estimators=COMPARE_ESTIMATORS,
        experiment=compare_experiment,
        grid=PerProfile(ci=_cmp_sweep("digits", 500, 64, 100, (16, 32, 64, 128), 3),
                        quick=_cmp_sweep("digits", DIGITS_ROWS - 200, 64, 200, (16, 32, 64, 128, 256, 512), 3),
                        full=_cmp_sweep("digits", DIGITS_ROWS - 1000, 64, 1000,
                                        (16, 32, 64, 128, 256, 512, 1024, 2048), 5)),
        judge=judge_compare,
        tolerance=_COMPARE_TOLERANCE,
        faults=_COMPARE_FAULTS,
        figure=compare_figure,
    ),
]
