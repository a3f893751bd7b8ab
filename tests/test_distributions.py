"""Distribution tests for the random parameters the methods draw.

Other tests check random draws through their effect (E[Z Z^T] = K, error rates). A
draw with the wrong law whose effect is unchanged would pass them: phases on
[0, pi) instead of [0, 2 pi) still give an unbiased E[Z Z^T] (2b is still uniform mod
2 pi), and a multivariate Cauchy has the Laplacian kernel's Cauchy marginals. Here each
draw is tested against its law, on the objects the methods use: the fitted attributes
of the estimators, or the drawing function called directly when it is a separate function.

False-alarm rate. Every statistical test function takes one decision at ``ALPHA`` = 1e-4: when it
combines k p-values (several coordinates, several statistics) it rejects when
k min p < ALPHA (Bonferroni), so the chance that a correct draw fails it is at most
ALPHA (asymptotically, for the chi-square and Kolmogorov-Smirnov approximations; every
chi-square cell expects >= 5 draws, small cells pooled). Seeds are fixed, so every
outcome is deterministic.

Power. Every law test has a negative control in the same test: the same statistic on
a plausible wrong draw (of the same size or smaller) must reject (p < ALPHA), and where a
statistic exists to catch what a weaker one misses, the control asserts that the
weaker one does not reject while the full test does.

Laws, derived from the kernels (conventions of :mod:`kernels.spec`), not from the code:

* Bochner: k(x, y) = E cos(omega^T (x - y)) for omega from the spectral density.
  Gaussian exp(-gamma ||delta||^2) = prod_j exp(-(2 gamma) delta_j^2 / 2), the
  characteristic function of N(0, 2 gamma) per coordinate: omega ~ N(0, 2 gamma I).
  Laplacian exp(-gamma ||delta||_1) = prod_j exp(-gamma |delta_j|), the characteristic
  function of Cauchy(0, gamma) per coordinate: omega_j i.i.d. Cauchy(0, scale gamma).
  (:func:`test_reference_laws_are_the_spectral_measures` checks both by quadrature
  against :class:`kernels.Kernel`.) Phases of the cos map: b ~ U[0, 2 pi).
* Uniform landmarks: a uniform m-subset (each of the C(n, m) equally likely);
  each index included with probability m / n.
* Leverage-score landmarks: m i.i.d. draws with p_i = l_i / sum l, deduplicated,
  l_i(s) = [K (K + n s I)^{-1}]_ii; recursive leverage: successive sampling without
  replacement with p proportional to the method's own score estimates.
* Reservoir (streaming Nyström, Drineas-Mahoney): c independent size-1 reservoirs,
  each ends on a uniform row, independently: row i held by a sampler w.p. 1/n.
* k-means++: first centre uniform, next centre with probability ∝ D(x)^2.
* Random starts: a Gaussian m x k matrix orthonormalised with diag(R) > 0 is a
  Haar-random orthonormal frame, so each column's first entry u has
  (u + 1) / 2 ~ Beta((m-1)/2, (m-1)/2) and ||Q^T e_1||^2 ~ Beta(k/2, (m-k)/2); the span
  of a Gaussian n x b matrix is uniform on the Grassmannian, so ||P u||^2 ~
  Beta(b/2, (n-b)/2) for a fixed unit u. ARPACK start vectors: i.i.d. U(-1, 1).

Covered (law; statistic): kernels/random_features.draw_rff through the
``feature_map_`` of RFERM, RFOja ("cos" and "paired") and SKPCA (frequencies; KS,
chi^2 of the norm, Pearson / Spearman; phases; KS); RFOja's Q_0 (Haar; KS of Beta laws);
methods/exact.block_krylov_topk's start block and ExactKPCA's ARPACK v0 (KS);
suites/papers/ullah18_lemmas._orthonormal (KS); methods/landmarks.UniformLandmarks (and the
estimators that use it), bach13_bounds.column_subset, the pilot of
kernels/leverage.approximate_leverage_scores and the subsample of
kernels/bandwidth.median_gamma (chi-square over subsets / inclusion);
NystromKRR(sampling="random") and bach13_common.random_order (chi-square over permutations);
LeverageScoreLandmarks exact and approximate (chi-square / randomised PIT);
RecursiveLeverageLandmarks' final draw and halving permutation (PIT / chi-square);
KMeansLandmarks' k-means++ seeds (chi-square); StreamingNystrom's reservoirs
(chi-square, binomial).

Not tested here: the inner-level weighted draws of :class:`RecursiveLeverageLandmarks`
(only their score estimates leave the method; tests/test_landmarks.py compares those
with the exact scores); the random columns :func:`methods.exact._orthonormal_block`
draws to replace dead Krylov directions (any law gives a valid basis there); the
``rng.integers`` fallback of k-means++ when every row coincides; the inline
``rng.choice(n, m, replace=False)`` / ``rng.permutation(n)`` subset and split draws
inside the experiment functions of suites/papers (hallgren21, sterge20, ghashami16,
ullah18), not reachable without running the experiments. The start vector of
NystromKPCA's eigsh is a fixed ``default_rng(0)`` draw, not a random parameter.
Frequent Directions (SKPCA's sketch) draws nothing.
"""

from __future__ import annotations

import itertools

import numba
import numpy as np
import pytest
from scipy import integrate, stats

from kpca_suite.kernels import Kernel, approximate_leverage_scores, median_gamma
from kpca_suite.kernels.oja import orthonormalize
from kpca_suite.methods import (KPCR, RFERM, SKPCA, CenteredNystromKPCA, CenteredNystromKRR, ConstantSchedule,
                                ExactKPCA, KMeansLandmarks, LeverageScoreLandmarks, NystromKPCA, NystromKRR,
                                RecursiveLeverageLandmarks, RFOja, StreamingNystrom, SubsetPCA, UniformLandmarks)
from kpca_suite.methods import exact as exact_module
from kpca_suite.methods.exact import block_krylov_topk
from kpca_suite.suites.papers.bach13 import _common as bach13_common, bounds as bach13_bounds
from kpca_suite.suites.papers.ullah18 import lemmas as ullah18_lemmas

#: Per-test false-alarm rate (Bonferroni over the p-values a test combines).
ALPHA = 1e-4


@pytest.fixture(autouse=True, scope="module")
def _numba_one_thread():
    """The Gaussian block's jitted loop is ``parallel=True``: on a busy 2-core machine
    its thread pool costs ~10 ms per tiny block; one thread keeps these thousands of
    small fits fast. Restored afterwards."""
    before = numba.get_num_threads()
    numba.set_num_threads(1)
    yield
    numba.set_num_threads(before)


# ---------------------------------------------------------------------- statistics

def family_p(pvalues) -> float:
    """Bonferroni p-value of a family: k min p, capped at 1."""
    p = np.asarray(list(pvalues), dtype=float)
    return float(min(1.0, p.size * p.min()))


def gof_p(counts, probs, min_expected: float = 5.0) -> float:
    """Pearson chi-square p-value of multinomial ``counts`` against cell probabilities
    ``probs``. A count in a cell of probability 0 is impossible: p = 0. Cells expecting
    fewer than ``min_expected`` draws are pooled into one cell (with the next smallest
    cells until it expects at least that many)."""
    counts, probs = np.asarray(counts, dtype=float), np.asarray(probs, dtype=float)
    assert counts.shape == probs.shape and abs(probs.sum() - 1.0) < 1e-9
    if np.any(counts[probs <= 0] > 0):
        return 0.0
    live = probs > 0
    counts, expected = counts[live], probs[live] * counts.sum()
    order = np.argsort(expected)
    counts, expected = counts[order], expected[order]
    j = 0
    while j < len(expected) - 1 and expected[:j + 1].sum() < min_expected:
        j += 1
    if j > 0:
        counts = np.concatenate([[counts[:j + 1].sum()], counts[j + 1:]])
        expected = np.concatenate([[expected[:j + 1].sum()], expected[j + 1:]])
    if len(counts) < 2:
        return 1.0
    return float(stats.chisquare(counts, expected).pvalue)


def inclusion_p(counts, draws: int, n: int, m: int) -> float:
    """Chi-square p-value of the inclusion counts of the n indices over ``draws``
    uniform m-subsets. Each count is Binomial(draws, p = m/n) with covariance
    -draws p (1-p) / (n-1) between indices, so sum (c - E)^2 / E times (n-1)/(n-m)
    is asymptotically chi-square with n - 1 degrees of freedom."""
    counts = np.asarray(counts, dtype=float)
    E = draws * m / n
    stat = float(np.sum((counts - E) ** 2) / E) * (n - 1) / (n - m)
    return float(stats.chi2.sf(stat, n - 1))


def pit_p(outcomes, probs, seed: int = 12345) -> float:
    """Randomised probability integral transform of categorical draws with
    per-draw probabilities: draw r fell in cell outcomes[r] of probs[r]; then
    u_r = F_r(x_r - 1) + V_r p_r(x_r), V_r ~ U(0, 1), is exactly U(0, 1), i.i.d. (KS p-value)."""
    probs = np.asarray(probs, dtype=float)
    outcomes = np.asarray(outcomes)
    rows = np.arange(len(outcomes))
    p = probs[rows, outcomes]
    if np.any(p <= 0):
        return 0.0
    F_below = np.cumsum(probs, axis=1)[rows, outcomes] - p
    u = F_below + np.random.default_rng(seed).uniform(size=len(p)) * p
    return float(stats.kstest(u, "uniform").pvalue)


def subset_counts(sets, n: int, m: int):
    """Counts of the m-subsets of range(n) (lexicographic order) among ``sets``; a
    set of another size or with repeats is counted in an extra last cell."""
    index = {c: i for i, c in enumerate(itertools.combinations(range(n), m))}
    counts = np.zeros(len(index) + 1)
    for s in sets:
        key = tuple(sorted(int(i) for i in s))
        counts[index.get(key, len(index))] += 1
    return counts


def uniform_subset_p(sets, n: int, m: int) -> float:
    """Chi-square p-value of ``sets`` against the uniform law on m-subsets of range(n)."""
    counts = subset_counts(sets, n, m)
    probs = np.r_[np.full(len(counts) - 1, 1.0 / (len(counts) - 1)), 0.0]
    return gof_p(counts, probs)


# ---------------------------------------------------------------------- random Fourier features

GAMMA = 0.3   # 2 gamma = 0.6, 1 / (2 gamma) = 1.67, gamma^2 = 0.09: the confusions differ
D_IN, N_FREQ = 4, 600


def _fitted_map(name: str, kernel: str, variant: str = "cos", seed: int = 0):
    """The feature map an estimator drew at fit (D_IN-dimensional rows, N_FREQ frequencies)."""
    kern = Kernel(kernel, gamma=GAMMA)
    X = np.linspace(-1.0, 1.0, 3 * D_IN).reshape(3, D_IN)
    est = {"RFERM": lambda: RFERM(1, N_FREQ, kern, variant=variant, random_state=seed),
           "RFOja": lambda: RFOja(1, N_FREQ, kern, variant=variant, random_state=seed),
           "SKPCA": lambda: SKPCA(sketch_size=2, n_features=N_FREQ, kernel=kern, variant=variant,
                                  random_state=seed)}[name]()
    return est.fit(X).feature_map_


ESTIMATORS = [("RFERM", "cos"), ("RFOja", "cos"), ("RFOja", "paired"), ("SKPCA", "cos")]


def gaussian_frequency_pvalues(omega, gamma) -> dict:
    """omega (d, m) against omega_i i.i.d. N(0, 2 gamma I_d): KS of the pooled entries
    and of each coordinate against N(0, 2 gamma), KS of ||omega||^2 / (2 gamma) against
    chi^2_d, and Pearson tests that the coordinates are uncorrelated."""
    d = omega.shape[0]
    sd = np.sqrt(2.0 * gamma)
    out = {"pooled": stats.kstest(omega.ravel(), "norm", args=(0.0, sd)).pvalue}
    for j in range(d):
        out[f"coord{j}"] = stats.kstest(omega[j], "norm", args=(0.0, sd)).pvalue
    out["norm2"] = stats.kstest(np.sum(omega**2, axis=0) / sd**2, "chi2", args=(d,)).pvalue
    for a, b in itertools.combinations(range(d), 2):
        out[f"corr{a}{b}"] = stats.pearsonr(omega[a], omega[b]).pvalue
    return out


def cauchy_frequency_pvalues(omega, gamma) -> dict:
    """omega (d, m) against i.i.d. Cauchy(0, gamma) entries: KS of the pooled entries and of
    each coordinate, and Spearman tests of independence between coordinates, of the
    values and of their absolute values (the Cauchy has no moments; ranks do)."""
    d = omega.shape[0]
    out = {"pooled": stats.kstest(omega.ravel(), "cauchy", args=(0.0, gamma)).pvalue}
    for j in range(d):
        out[f"coord{j}"] = stats.kstest(omega[j], "cauchy", args=(0.0, gamma)).pvalue
    for a, b in itertools.combinations(range(d), 2):
        out[f"rank{a}{b}"] = stats.spearmanr(omega[a], omega[b]).pvalue
        out[f"absrank{a}{b}"] = stats.spearmanr(np.abs(omega[a]), np.abs(omega[b])).pvalue
    return out


def _marginal_only(pvalues: dict) -> float:
    return family_p(v for k, v in pvalues.items() if k == "pooled" or k.startswith("coord"))


def test_reference_laws_are_the_spectral_measures():
    """The laws tested below, derived from the kernels: E cos(omega delta) under
    N(0, 2 gamma) and Cauchy(0, gamma) (Fourier quadrature, per coordinate; a product
    over coordinates for d = 3) equals kernels.Kernel's Gaussian and Laplacian value.
    Controls: N(0, gamma), N(0, 1/(2 gamma)) and Cauchy(0, 1/gamma) do not reproduce them.
    (A numerical identity, no false alarm: tolerance 1e-7.)"""
    def char(pdf, delta):  # E cos(omega delta) for a symmetric density
        if delta == 0:
            return 1.0
        return 2.0 * integrate.quad(pdf, 0.0, np.inf, weight="cos", wvar=abs(delta), limlst=200)[0]

    laws = {"gaussian": lambda g: stats.norm(0.0, np.sqrt(2 * g)).pdf,
            "laplacian": lambda g: stats.cauchy(0.0, g).pdf}
    wrong = {"gaussian": [lambda g: stats.norm(0.0, np.sqrt(g)).pdf,
                          lambda g: stats.norm(0.0, np.sqrt(1 / (2 * g))).pdf],
             "laplacian": [lambda g: stats.cauchy(0.0, 1 / g).pdf]}
    x, y = np.array([[0.3, -0.2, 0.5]]), np.array([[-0.4, 0.6, 1.1]])
    for name, law in laws.items():
        kern = Kernel(name, gamma=GAMMA)
        k = float(kern.block(x, y)[0, 0])
        assert abs(np.prod([char(law(GAMMA), t) for t in (x - y)[0]]) - k) < 1e-7, name
        for bad in wrong[name]:
            assert abs(np.prod([char(bad(GAMMA), t) for t in (x - y)[0]]) - k) > 1e-2, name


@pytest.mark.parametrize("name,variant", ESTIMATORS)
def test_gaussian_frequencies(name, variant):
    """The frequencies an estimator uses for the Gaussian kernel (``feature_map_.omega``,
    drawn by kernels.random_features.draw_rff) are i.i.d. N(0, 2 gamma I): pooled and
    per-coordinate KS, ||omega||^2 / (2 gamma) ~ chi^2_d, zero correlations; 4 x 600
    draws, family false-alarm rate ALPHA."""
    omega = _fitted_map(name, "gaussian", variant, seed=ESTIMATORS.index((name, variant))).omega
    assert omega.shape == (D_IN, N_FREQ)
    assert family_p(gaussian_frequency_pvalues(omega, GAMMA).values()) > ALPHA


def test_gaussian_frequency_controls():
    """The statistic of :func:`test_gaussian_frequencies` rejects, at the same size:
    variance gamma (the 2 dropped), variance 4 gamma^2 (2 gamma used as the standard
    deviation), variance 1/(2 gamma) (sigma^-2 read as sigma^2). Correlated coordinates
    with the right N(0, 2 gamma) marginals (correlation 0.3) pass the marginal KS tests
    and are rejected by the correlation tests."""
    rng = np.random.default_rng(100)
    size = (D_IN, N_FREQ)
    for sd in (np.sqrt(GAMMA), 2 * GAMMA, np.sqrt(1 / (2 * GAMMA))):
        assert family_p(gaussian_frequency_pvalues(rng.normal(0.0, sd, size), GAMMA).values()) < ALPHA
    C = 2 * GAMMA * (0.7 * np.eye(D_IN) + 0.3)
    correlated = np.linalg.cholesky(C) @ rng.standard_normal(size)
    p = gaussian_frequency_pvalues(correlated, GAMMA)
    assert _marginal_only(p) > ALPHA
    assert family_p(p.values()) < ALPHA


@pytest.mark.parametrize("name,variant", ESTIMATORS)
def test_laplacian_frequencies(name, variant):
    """The frequencies for the Laplacian kernel exp(-gamma ||x - y||_1) are i.i.d.
    Cauchy(0, gamma) entries: pooled and per-coordinate KS, Spearman independence of the
    coordinates and of their absolute values; family false-alarm rate ALPHA."""
    omega = _fitted_map(name, "laplacian", variant, seed=10 + ESTIMATORS.index((name, variant))).omega
    assert family_p(cauchy_frequency_pvalues(omega, GAMMA).values()) > ALPHA


def test_laplacian_frequency_controls():
    """Rejected by the statistic of :func:`test_laplacian_frequencies`: Cauchy(0, 1/gamma);
    N(0, 2 gamma) (the Gaussian's law); and the multivariate Cauchy (omega = gamma g / |h|,
    one h per frequency: the spectral measure of exp(-gamma ||x - y||_2)), whose
    marginals are exactly Cauchy(0, gamma), so the marginal KS tests pass and the
    independence test of |omega_j| rejects."""
    rng = np.random.default_rng(101)
    size = (D_IN, N_FREQ)
    assert family_p(cauchy_frequency_pvalues(rng.standard_cauchy(size) / GAMMA, GAMMA).values()) < ALPHA
    assert family_p(cauchy_frequency_pvalues(rng.normal(0, np.sqrt(2 * GAMMA), size), GAMMA).values()) < ALPHA
    multivariate = GAMMA * rng.standard_normal(size) / np.abs(rng.standard_normal(N_FREQ))
    p = cauchy_frequency_pvalues(multivariate, GAMMA)
    assert _marginal_only(p) > ALPHA
    assert family_p(p.values()) < ALPHA


@pytest.mark.parametrize("name,variant", ESTIMATORS)
@pytest.mark.parametrize("kernel", ["gaussian", "laplacian"])
def test_phases(name, variant, kernel):
    """Phases of the cos map (``feature_map_.phase``) are i.i.d. U[0, 2 pi) (KS, 600
    draws, false-alarm rate ALPHA); the paired map has none (all zero)."""
    phase = _fitted_map(name, kernel, variant, seed=20 + ESTIMATORS.index((name, variant))).phase
    if variant == "paired":
        assert np.array_equal(phase, np.zeros(N_FREQ))
    else:
        assert stats.kstest(phase, "uniform", args=(0.0, 2 * np.pi)).pvalue > ALPHA


def test_phase_controls():
    """The phase KS test rejects, at 600 draws, U[0, pi) (which keeps E[Z Z^T] = K) and
    U[-pi, pi); it does not reject U[0, 2 pi)."""
    rng = np.random.default_rng(102)
    ks = lambda b: stats.kstest(b, "uniform", args=(0.0, 2 * np.pi)).pvalue  # noqa: E731
    assert ks(rng.uniform(0.0, np.pi, N_FREQ)) < ALPHA
    assert ks(rng.uniform(-np.pi, np.pi, N_FREQ)) < ALPHA
    assert ks(rng.uniform(0.0, 2 * np.pi, N_FREQ)) > ALPHA


# ---------------------------------------------------------------------- random starts

def haar_frame_pvalues(Qs) -> dict:
    """Qs (R, m, k) against Haar-random orthonormal frames: (Q[0, j] + 1) / 2 ~
    Beta((m-1)/2, (m-1)/2) for each column j, and sum_j Q[0, j]^2 ~ Beta(k/2, (m-k)/2)."""
    R, m, k = Qs.shape
    a = (m - 1) / 2
    out = {f"col{j}": stats.kstest((Qs[:, 0, j] + 1) / 2, "beta", args=(a, a)).pvalue for j in range(k)}
    out["row"] = stats.kstest(np.sum(Qs[:, 0, :] ** 2, axis=1), "beta", args=(k / 2, (m - k) / 2)).pvalue
    return out


def test_rf_oja_start_is_haar():
    """RF-Oja's Q_0 (Gaussian m' x k, orthonormalised with diag(R) > 0, drawn after the
    frequencies) is a Haar-random orthonormal frame. Reached through ``components_``
    after one row at step eta = 1e-300: Q_0 + eta z z^T Q_0 = Q_0 in floating point,
    and re-orthonormalising an orthonormal Q_0 returns it. 1500 fits, m' = 4, k = 2;
    orthonormal to 1e-12; family false-alarm rate ALPHA. Controls at the same size:
    Householder QR without the sign fix (LAPACK's Q[0, 0] is never positive) and
    U(0, 1) entries with the sign fix are rejected; a Gaussian matrix with the sign fix
    (numpy's QR, then column signs) is not."""
    m, k, R = 4, 2, 1500
    kern = Kernel("gaussian", gamma=0.5)
    X = np.zeros((1, 2))
    Qs = np.empty((R, m, k))
    for seed in range(R):
        est = RFOja(k, m, kern, learning_rate=ConstantSchedule(1e-300), random_state=seed).fit(X)
        Qs[seed] = est.components_
    assert np.abs(np.einsum("rij,rik->rjk", Qs, Qs) - np.eye(k)).max() < 1e-12
    assert family_p(haar_frame_pvalues(Qs).values()) > ALPHA

    rng = np.random.default_rng(103)

    def signfixed(A):
        Q, Rm = np.linalg.qr(A)
        return Q * np.sign(np.diag(Rm))

    raw = np.stack([np.linalg.qr(rng.standard_normal((m, k)))[0] for _ in range(R)])
    uniform = np.stack([signfixed(rng.uniform(size=(m, k))) for _ in range(R)])
    good = np.stack([signfixed(rng.standard_normal((m, k))) for _ in range(R)])
    assert family_p(haar_frame_pvalues(raw).values()) < ALPHA
    assert family_p(haar_frame_pvalues(uniform).values()) < ALPHA
    assert family_p(haar_frame_pvalues(good).values()) > ALPHA
    # the jitted orthonormalisation the method uses is that sign-fixed QR
    A = rng.standard_normal((m, k))
    np.testing.assert_allclose(orthonormalize(A.copy()), signfixed(A), atol=1e-12)


class _FirstBlock(Exception):
    pass


def _krylov_start(n, k, rng):
    """The start block V_0 that block_krylov_topk hands to its first ``matmat`` call."""
    seen = []

    def matmat(V):
        seen.append(V.copy())
        raise _FirstBlock

    with pytest.raises(_FirstBlock):
        block_krylov_topk(matmat, n, k, rng)
    return seen[0]


def span_pvalues(Vs, n) -> dict:
    """Vs (R, n, b) orthonormal blocks against spans uniform on the Grassmannian:
    ||V^T u||^2 ~ Beta(b/2, (n-b)/2) for u = e_1 and u = ones / sqrt(n)."""
    b = Vs.shape[2]
    u = np.ones(n) / np.sqrt(n)
    law = (b / 2, (n - b) / 2)
    return {"e1": stats.kstest(np.sum(Vs[:, 0, :] ** 2, axis=1), "beta", args=law).pvalue,
            "ones": stats.kstest(np.sum((u @ Vs) ** 2, axis=1), "beta", args=law).pvalue}


def test_block_krylov_start_span_is_uniform():
    """ExactKPCA's block solver (methods.exact.block_krylov_topk) starts from the
    orthonormalised Gaussian n x b block (b = k + max(k, 10)); only its span matters and
    it is uniform on the Grassmannian. 800 starts, n = 30, k = 1 (b = 11); orthonormal
    to 1e-12; family false-alarm rate ALPHA. Controls: U(0, 1) entries (span tilted to
    the ones vector) and the first b basis vectors are rejected."""
    n, k, R = 30, 1, 800
    Vs = np.stack([_krylov_start(n, k, np.random.default_rng(s)) for s in range(R)])
    b = Vs.shape[2]
    assert b == 11
    assert np.abs(np.einsum("rij,rik->rjk", Vs, Vs) - np.eye(b)).max() < 1e-12
    assert family_p(span_pvalues(Vs, n).values()) > ALPHA
    rng = np.random.default_rng(104)
    tilted = np.stack([np.linalg.qr(rng.uniform(size=(n, b)))[0] for _ in range(R)])
    fixed = np.repeat(np.eye(n)[None, :, :b], R, axis=0)
    assert family_p(span_pvalues(tilted, n).values()) < ALPHA
    assert family_p(span_pvalues(fixed, n).values()) < ALPHA


def test_ullah18_random_subspaces_are_uniform():
    """suites/papers/ullah18_lemmas._orthonormal (random RF subspaces of the lemma checks):
    QR of a Gaussian m x k matrix, span uniform on the Grassmannian (600 draws, m = 8,
    k = 3; false-alarm rate ALPHA). Control: QR of U(0, 1) entries is rejected."""
    m, k, R = 8, 3, 600
    rng = np.random.default_rng(7)
    Vs = np.stack([ullah18_lemmas._orthonormal(rng, m, k) for _ in range(R)])
    assert family_p(span_pvalues(Vs, m).values()) > ALPHA
    tilted = np.stack([np.linalg.qr(rng.uniform(size=(m, k)))[0] for _ in range(R)])
    assert family_p(span_pvalues(tilted, m).values()) < ALPHA


def test_lanczos_start_vector_is_uniform(monkeypatch):
    """ExactKPCA(solver="lanczos") hands ARPACK v0 with i.i.d. U(-1, 1) entries (its
    documented draw), seen by wrapping ``eigsh``: 3 fits x n = 150 entries, KS,
    false-alarm rate ALPHA. Control: U(0, 1) entries are rejected."""
    seen = []
    real = exact_module.eigsh

    def spy(*args, **kwargs):
        seen.append(np.array(kwargs["v0"]))
        return real(*args, **kwargs)

    monkeypatch.setattr(exact_module, "eigsh", spy)
    X = np.random.default_rng(8).standard_normal((150, 2))
    for seed in range(3):
        ExactKPCA(2, Kernel("gaussian", gamma=0.5), solver="lanczos", random_state=seed).fit(X)
    v0 = np.concatenate(seen)
    assert len(seen) == 3 and v0.size == 450
    assert stats.kstest(v0, "uniform", args=(-1.0, 2.0)).pvalue > ALPHA
    assert stats.kstest(np.random.default_rng(9).uniform(0, 1, 450), "uniform", args=(-1.0, 2.0)).pvalue < ALPHA


# ---------------------------------------------------------------------- uniform subsets

def _first_m(n, m, rng):
    return np.arange(m)


def _with_replacement(n, m, rng):
    return np.unique(rng.choice(n, size=m, replace=True))


def _cyclic_window(n, m, rng):
    return (rng.integers(n) + np.arange(m)) % n


def test_uniform_landmarks_inclusion():
    """UniformLandmarks.select (the draw behind every int ``landmarks``): each index is
    included with probability m / n (inclusion chi-square with the without-replacement
    covariance, n = 40, m = 8, 1000 draws; false-alarm rate ALPHA). Controls: the first
    m rows and m draws with replacement (deduplicated) are rejected; a random cyclic
    window (uniform inclusion, not a uniform subset) is not; see the subset test."""
    n, m, R = 40, 8, 1000
    X = np.zeros((n, 1))

    def p_of(draw):
        counts = np.zeros(n)
        for s in range(R):
            idx = draw(s)
            counts[idx] += 1
        return inclusion_p(counts, R, n, m)

    strategy = UniformLandmarks(m)
    assert p_of(lambda s: strategy.select(X, None, s)) > ALPHA
    rng = np.random.default_rng(105)
    assert p_of(lambda s: _first_m(n, m, rng)) < ALPHA
    assert p_of(lambda s: _with_replacement(n, m, rng)) < ALPHA
    assert p_of(lambda s: _cyclic_window(n, m, rng)) > ALPHA


SUBSET_DRAWS = {
    "UniformLandmarks": lambda X, m, s: UniformLandmarks(m).select(X, None, s),
    "bach13_bounds.column_subset": lambda X, m, s: bach13_bounds.column_subset(X, m, np.random.default_rng(10**6 + s)),
}


@pytest.mark.parametrize("name", SUBSET_DRAWS)
def test_uniform_subsets(name):
    """UniformLandmarks.select and suites/papers/bach13_bounds.column_subset draw a uniform
    m-subset: chi-square over all C(7, 3) = 35 subsets, 3500 draws (100 per cell),
    false-alarm rate ALPHA. Controls: the random cyclic window (passes the inclusion
    test) and draws with replacement (sets of fewer than m) are rejected."""
    n, m, R = 7, 3, 3500
    X = np.zeros((n, 1))
    draw = SUBSET_DRAWS[name]
    assert uniform_subset_p([draw(X, m, s) for s in range(R)], n, m) > ALPHA
    rng = np.random.default_rng(106)
    assert uniform_subset_p([_cyclic_window(n, m, rng) for _ in range(R)], n, m) < ALPHA
    assert uniform_subset_p([_with_replacement(n, m, rng) for _ in range(R)], n, m) < ALPHA


def test_estimators_use_the_uniform_draw():
    """The estimators taking ``landmarks=m`` (or NystromKRR's sampling="uniform") fit on
    exactly UniformLandmarks(m).select's draw for the same seed, so the tests above
    are on the parameters they use (an identity, no false alarm)."""
    n, m = 30, 6
    X = np.random.default_rng(10).standard_normal((n, 2))
    y = X[:, 0]
    kern = Kernel("gaussian", gamma=0.5)
    for seed in range(3):
        want = UniformLandmarks(m).select(X, kern, seed)
        got = {
            "NystromKPCA": NystromKPCA(2, kern, landmarks=m, random_state=seed).fit(X).landmark_indices_,
            "CenteredNystromKPCA": CenteredNystromKPCA(2, kern, landmarks=m, random_state=seed).fit(X)
            .landmark_indices_,
            "SubsetPCA": SubsetPCA(2, kern, landmarks=m, random_state=seed).fit(X).landmark_indices_,
            "KPCR": KPCR(2, kern, landmarks=m, random_state=seed).fit(X, y).kpca_.landmark_indices_,
            "CenteredNystromKRR": CenteredNystromKRR(kern, landmarks=m, ridge=0.1, random_state=seed).fit(X, y)
            .landmark_indices_,
            "NystromKRR": np.sort(NystromKRR(kern, 0.1, m, sampling="uniform", random_state=seed).fit(X, y)
                                  .column_indices_),
        }
        for name, idx in got.items():
            assert np.array_equal(idx, want), name


def test_approximate_leverage_pilot_is_uniform():
    """The uniform pilot J of kernels.approximate_leverage_scores (also behind
    LeverageScoreLandmarks(exact=False)) is a uniform M-subset. J is read off the
    returned scores: for X = I_n and the linear kernel (K = I), l~_i = 1/(n s) exactly
    off J and 1/(n s) (1 - 1/(1 + s M)) on J. n = 7, M = 2: chi-square over the 21
    subsets, 1500 draws, false-alarm rate ALPHA. Control: the first M rows as pilot
    (passed in as a generator whose ``choice`` returns them) is rejected at a quarter
    of the draws."""
    n, M, s, R = 7, 2, 1.0, 1500
    X, kern = np.eye(n), Kernel("linear")

    def pilot(rng):
        l = approximate_leverage_scores(X, kern, s, M, random_state=rng)
        J = np.flatnonzero(l < (1.0 - 1e-9) / (n * s))
        assert np.allclose(l[J], (1 - 1 / (1 + s * M)) / (n * s))
        return J

    assert uniform_subset_p([pilot(np.random.default_rng(seed)) for seed in range(R)], n, M) > ALPHA

    class FirstRows(np.random.Generator):
        def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
            return np.arange(size)

    assert uniform_subset_p([pilot(FirstRows(np.random.PCG64(seed))) for seed in range(R // 4)], n, M) < ALPHA


def test_median_gamma_subsample_is_uniform():
    """kernels.bandwidth.median_gamma draws its ``max_points`` rows uniformly without
    replacement. With max_points = 2 and rows x_i = 2^i the one squared distance
    (2^j - 2^i)^2 names the pair: chi-square over the 28 pairs of n = 8, 1400 draws,
    false-alarm rate ALPHA. Control: a random adjacent pair (i, i + 1) is rejected."""
    n, R = 8, 1400
    x = 2.0 ** np.arange(n)
    X = x[:, None]
    pairs = {round((x[j] - x[i]) ** 2): (i, j) for i, j in itertools.combinations(range(n), 2)}
    assert len(pairs) == 28
    sets = [pairs[round(1.0 / median_gamma(X, max_points=2, random_state=seed))] for seed in range(R)]
    assert uniform_subset_p(sets, n, 2) > ALPHA
    rng = np.random.default_rng(107)
    adjacent = [(i, i + 1) for i in rng.integers(n - 1, size=R)]
    assert uniform_subset_p(adjacent, n, 2) < ALPHA


PERMUTATIONS = {
    "NystromKRR(sampling='random')": lambda X, rng: NystromKRR(Kernel("gaussian", gamma=0.5), 0.1, 2,
                                                               sampling="random")._order(X, rng),
    "bach13_common.random_order": lambda X, rng: bach13_common.random_order(X, np.random.default_rng(rng.integers(2**32))),
}


@pytest.mark.parametrize("name", PERMUTATIONS)
def test_random_column_orders_are_uniform_permutations(name):
    """The column order of NystromKRR(sampling="random") (its ``_order``, whose first p
    entries are the columns of its incomplete Cholesky) and of bach13_common.random_order is a
    uniform permutation: chi-square over the 24 permutations of n = 4, 2400 draws,
    false-alarm rate ALPHA. Control: a uniform random cyclic shift (uniform in every
    position, 4 permutations only) is rejected."""
    n, R = 4, 2400
    X = np.arange(n, dtype=float)[:, None]
    cells = {p: i for i, p in enumerate(itertools.permutations(range(n)))}
    draw = PERMUTATIONS[name]

    def p_of(perms):
        counts = np.zeros(len(cells))
        for p in perms:
            counts[cells[tuple(int(i) for i in p)]] += 1
        return gof_p(counts, np.full(len(cells), 1 / len(cells)))

    assert p_of(draw(X, np.random.default_rng(seed)) for seed in range(R)) > ALPHA
    rng = np.random.default_rng(108)
    assert p_of((rng.integers(n) + np.arange(n)) % n for _ in range(R)) < ALPHA
    if name.startswith("NystromKRR"):  # the fit keeps that order's first p columns (pivoted among themselves)
        Xg = np.random.default_rng(11).standard_normal((12, 2))
        est = NystromKRR(Kernel("gaussian", gamma=0.5), 0.1, 3, sampling="random", random_state=5).fit(Xg, Xg[:, 0])
        assert sorted(est.column_indices_) == sorted(draw(Xg, np.random.default_rng(5))[:3])


# ---------------------------------------------------------------------- leverage scores

X_LEV = np.array([0.0, 0.02, 0.04, 0.06, 1.5, 4.0])[:, None]   # a tight cluster and two outliers
K_LEV, S_LEV = Kernel("gaussian", gamma=1.0), 0.01


def _ridge_leverage(X, kernel, s):
    """l_i(s) = [K (K + n s I)^{-1}]_ii, from the definition."""
    K = kernel.block(X)
    n = len(X)
    return np.diag(np.linalg.solve(K + n * s * np.eye(n), K))


def _dedup_set_law(p, m):
    """The law of set(m i.i.d. draws from p) over all nonempty subsets of size <= m:
    (list of sorted tuples, probabilities)."""
    n = len(p)
    tuples = np.array(list(itertools.product(range(n), repeat=m)))
    keys = [tuple(sorted(set(t))) for t in tuples]
    cells = sorted(set(keys), key=lambda c: (len(c), c))
    index = {c: i for i, c in enumerate(cells)}
    ids = np.array([index[k] for k in keys])

    def law(p):
        return np.bincount(ids, weights=np.prod(p[tuples], axis=1), minlength=len(cells))

    return cells, index, law


def test_leverage_landmarks_exact_scores():
    """LeverageScoreLandmarks(exact=True).select: m i.i.d. draws with p_i ∝ l_i(s)
    (computed here from the definition), deduplicated. The law of the returned set over
    the 41 subsets of size <= 3 of n = 6 (leverage 0.09-0.33 per row), chi-square on
    1500 draws, false-alarm rate ALPHA. Controls: uniform p, and p-weighted draws
    without replacement (always 3 distinct rows) are rejected."""
    n, m, R = len(X_LEV), 3, 1500
    l = _ridge_leverage(X_LEV, K_LEV, S_LEV)
    p = l / l.sum()
    assert p.max() / p.min() > 3
    cells, index, law = _dedup_set_law(p, m)
    probs = law(p)

    def p_of(sets):
        counts = np.zeros(len(cells))
        for s in sets:
            counts[index[tuple(int(i) for i in s)]] += 1
        return gof_p(counts, probs)

    strategy = LeverageScoreLandmarks(m, s=S_LEV, exact=True)
    assert p_of(strategy.select(X_LEV, K_LEV, seed) for seed in range(R)) > ALPHA
    rng = np.random.default_rng(109)
    assert p_of(np.unique(rng.choice(n, m, replace=True)) for _ in range(R)) < ALPHA
    assert p_of(np.sort(rng.choice(n, m, replace=False, p=p)) for _ in range(R)) < ALPHA


def test_leverage_landmarks_approximate_scores():
    """LeverageScoreLandmarks(exact=False).select draws from the Nyström score estimate
    of its own pilot: given the estimate l~ (``scores`` with the same seed consumes the
    same draws), the returned set has the law of set(m i.i.d. draws ∝ l~). Randomised
    PIT over the 41 subsets (per-draw law), KS on 1000 draws, false-alarm rate ALPHA.
    Control: sets of m uniform draws on the same seeds are rejected."""
    n, m, R = len(X_LEV), 3, 1000
    strategy = LeverageScoreLandmarks(m, s=S_LEV, exact=False, pilot_size=2)
    cells, index, law = _dedup_set_law(np.full(n, 1 / n), m)
    probs, got, uniform = np.empty((R, len(cells))), np.empty(R, int), np.empty(R, int)
    rng = np.random.default_rng(110)
    for seed in range(R):
        l = strategy.scores(X_LEV, K_LEV, np.random.default_rng(seed))
        probs[seed] = law(l / l.sum())
        got[seed] = index[tuple(int(i) for i in strategy.select(X_LEV, K_LEV, np.random.default_rng(seed)))]
        uniform[seed] = index[tuple(int(i) for i in np.unique(rng.choice(n, m)))]
    assert pit_p(got, probs) > ALPHA
    assert pit_p(uniform, probs) < ALPHA


X_REC = np.array([0.0, 0.02, 0.04, 0.06, 0.08, 1.5, 3.0, 5.0])[:, None]


def test_recursive_leverage_final_draw():
    """RecursiveLeverageLandmarks.select: the m rows are drawn successively without
    replacement with p ∝ its level-0 estimates l~ (zeros lifted to 1e-12 max), so
    P({i, j}) = p_i p_j (1/(1 - p_i) + 1/(1 - p_j)) given l~ (``scores`` with the same
    seed). n = 8, m = 2 (28 pairs), randomised PIT, KS on 1000 draws, false-alarm rate
    ALPHA. Controls: a uniform pair and the top-2 estimates (TopLeverage fault) are
    rejected."""
    n, m, R = len(X_REC), 2, 1000
    strategy = RecursiveLeverageLandmarks(m, s=S_LEV)
    pairs = list(itertools.combinations(range(n), 2))
    index = {c: i for i, c in enumerate(pairs)}
    a, b = np.array(pairs).T
    probs, got, uniform, top = (np.empty((R, len(pairs))), np.empty(R, int), np.empty(R, int),
                                np.empty(R, int))
    rng = np.random.default_rng(111)
    for seed in range(R):
        l = strategy.scores(X_REC, K_LEV, np.random.default_rng(seed))
        l = np.maximum(l, 1e-12 * l.max())
        p = l / l.sum()
        probs[seed] = p[a] * p[b] * (1 / (1 - p[a]) + 1 / (1 - p[b]))
        got[seed] = index[tuple(int(i) for i in strategy.select(X_REC, K_LEV, np.random.default_rng(seed)))]
        uniform[seed] = index[tuple(sorted(int(i) for i in rng.choice(n, m, replace=False)))]
        top[seed] = index[tuple(sorted(int(i) for i in np.argsort(-l, kind="stable")[:m]))]
    assert np.allclose(probs.sum(axis=1), 1.0)
    assert pit_p(got, probs) > ALPHA
    assert pit_p(uniform, probs) < ALPHA
    assert pit_p(top, probs) < ALPHA


def test_recursive_leverage_halving_permutation():
    """The halving permutation of RecursiveLeverageLandmarks, seen through its level-0
    estimates on X = I_n, linear kernel (K = I, every row alike): off the level-1 sample
    S_1 the estimate is exactly 1/(n s), on it smaller, so S_1 is read off ``scores``.
    Rows being exchangeable, a uniform permutation makes S_1 a uniform m-subset of all n
    rows. n = 8, m = 2: chi-square over 28 pairs, 1400 draws, false-alarm rate ALPHA.
    Control: the same method fed a generator whose ``permutation`` is the identity
    (halving keeps the first rows) is rejected (S_1 within the first 4 rows) at a quarter
    of the draws."""
    n, m, s, R = 8, 2, 1.0, 1400
    X, kern = np.eye(n), Kernel("linear")
    strategy = RecursiveLeverageLandmarks(m, s=s)

    def level1(rng):
        l = strategy.scores(X, kern, rng)
        return np.flatnonzero(l < (1 - 1e-9) / (n * s))

    assert uniform_subset_p([level1(np.random.default_rng(seed)) for seed in range(R)], n, m) > ALPHA

    class NoShuffle(np.random.Generator):
        def permutation(self, x, axis=0):
            return np.arange(x)

    assert uniform_subset_p([level1(NoShuffle(np.random.PCG64(seed))) for seed in range(R // 4)], n, m) < ALPHA


# ---------------------------------------------------------------------- k-means++ seeding

def test_kmeans_plus_plus_seeding():
    """KMeansLandmarks' k-means++ seeds (``centres`` with max_iter = 0 returns them
    unmoved): the first a uniform row, the second drawn with p ∝ D(x)^2 to the first,
    P(i, j) = (1/n) D_ij^2 / sum_l D_il^2. Chi-square over the 30 ordered pairs of
    n = 6 rows, 2000 draws, false-alarm rate ALPHA. Controls: the second row uniform
    among the others, or drawn ∝ D instead of D^2, are rejected."""
    X = np.array([0.0, 0.1, 0.2, 1.0, 3.0, 6.0])[:, None]
    n, R = len(X), 2000
    D2 = (X - X.T) ** 2
    law = (D2 / D2.sum(axis=1, keepdims=True) / n).ravel()
    strategy = KMeansLandmarks(2, max_iter=0)

    def counts_of(pairs):
        c = np.zeros(n * n)
        for i, j in pairs:
            c[i * n + j] += 1
        return c

    def rows(C):
        return [int(np.flatnonzero(X[:, 0] == c)[0]) for c in C[:, 0]]

    assert gof_p(counts_of(rows(strategy.centres(X, seed)) for seed in range(R)), law) > ALPHA
    rng = np.random.default_rng(112)

    def wrong(weights):
        for _ in range(R):
            i = int(rng.integers(n))
            w = weights[i]
            yield i, int(rng.choice(n, p=w / w.sum()))

    assert gof_p(counts_of(wrong(1.0 - np.eye(n))), law) < ALPHA
    assert gof_p(counts_of(wrong(np.sqrt(D2))), law) < ALPHA


# ---------------------------------------------------------------------- reservoir sampling

N_RES, C_RES, R_RES = 12, 24, 150
CHUNKS = (7, 5)   # two partial_fit chunks ...
BLOCK = 4         # ... in blocks of 4 rows: the hits cross chunks and blocks


def _reservoir_pvalues(held) -> dict:
    """held (R, c): the row each sampler ends on. Against c independent uniform rows:
    chi-square of all R c rows over n cells, chi-square of the pairs (sampler 2j,
    sampler 2j+1) over n^2 cells, binomial tests that row 0 and row n - 1 (earliest and
    latest) are held with probability 1/n."""
    n = N_RES
    flat = held.ravel()
    pairs = held[:, 0::2].ravel() * n + held[:, 1::2].ravel()
    return {"rows": gof_p(np.bincount(flat, minlength=n), np.full(n, 1 / n)),
            "pairs": gof_p(np.bincount(pairs, minlength=n * n), np.full(n * n, 1 / n**2)),
            "first": stats.binomtest(int(np.sum(flat == 0)), flat.size, 1 / n).pvalue,
            "last": stats.binomtest(int(np.sum(flat == n - 1)), flat.size, 1 / n).pvalue}


def _simulated_reservoir(rng, mode):
    """Wrong reservoirs for the controls, stream order and blocks as in the test."""
    held = np.zeros(C_RES, dtype=int)
    for start in range(0, N_RES, BLOCK):
        rows = np.arange(start, min(start + BLOCK, N_RES))
        i = rows + 1
        if mode == "shared":     # one uniform per row for all samplers
            u = np.repeat(rng.random((len(rows), 1)), C_RES, axis=1)
        else:
            u = rng.random((len(rows), C_RES))
        hit = u * i[:, None] < 1.0
        if mode == "first-hit":  # a block's first hit instead of its last
            pick = np.argmax(hit, axis=0)
        else:
            pick = len(rows) - 1 - np.argmax(hit[::-1], axis=0)
        held = np.where(hit.any(axis=0), rows[pick], held)
    if mode == "keep-last":
        held[:] = N_RES - 1
    return held


def test_streaming_nystrom_reservoirs():
    """StreamingNystrom's c size-1 reservoirs end on i.i.d. uniform rows (Drineas-Mahoney
    uniform sampling with replacement): each sampler holds row i with probability 1/n,
    independently of the others. ``landmarks_`` of 150 fits (rows x_i = i, n = 12,
    c = 24, two partial_fit chunks, blocks of 4); statistics of
    :func:`_reservoir_pvalues`, family false-alarm rate ALPHA. Controls: a reservoir that
    keeps the last row, one that keeps each block's first hit instead of its last, and
    samplers sharing one uniform per row (the pair test alone rejects it) are rejected."""
    X = np.arange(N_RES, dtype=float)[:, None]
    held = np.empty((R_RES, C_RES), dtype=int)
    for seed in range(R_RES):
        est = StreamingNystrom(C_RES, Kernel("gaussian", gamma=0.1), block_size=BLOCK, random_state=seed)
        est.partial_fit(X[:CHUNKS[0]]).partial_fit(X[CHUNKS[0]:])
        held[seed] = est.landmarks_[:, 0].astype(int)
    assert family_p(_reservoir_pvalues(held).values()) > ALPHA
    rng = np.random.default_rng(113)
    for mode in ("keep-last", "first-hit"):
        wrong = np.stack([_simulated_reservoir(rng, mode) for _ in range(R_RES)])
        assert family_p(_reservoir_pvalues(wrong).values()) < ALPHA, mode
    shared = _reservoir_pvalues(np.stack([_simulated_reservoir(rng, "shared") for _ in range(R_RES)]))
    assert shared["pairs"] < ALPHA / len(shared)
    right = np.stack([_simulated_reservoir(rng, "right") for _ in range(R_RES)])
    assert family_p(_reservoir_pvalues(right).values()) > ALPHA   # the simulator itself is right
