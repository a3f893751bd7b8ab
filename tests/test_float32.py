"""float32 end to end: Nyström KPCA, RF-ERM, SKPCA and Frequent Directions fitted on float32
rows compute in single precision where that is safe, agree with the float64 fit on the same
values to float32 round-off, and the rate claims give the same verdicts when the estimator
is fitted on float32 rows (tests.external_estimators.in_float32)."""

from __future__ import annotations

import numpy as np
import pytest

from kpca_suite.kernels import FrequentDirections, Kernel, draw_rff, gram_accumulate
from kpca_suite.methods import RFERM, SKPCA, NystromKPCA
from kpca_suite.methods import nystrom
from kpca_suite.suites.registry import get
from tests.claims import run_claim
from tests.external_estimators import in_float32

EPS32 = float(np.finfo(np.float32).eps)


def _rows(n, d, seed=0):
    """float32 rows and the same values in float64."""
    X = np.random.default_rng(seed).standard_normal((n, d)).astype(np.float32)
    return X, X.astype(np.float64)


@pytest.mark.parametrize("variant", ["cos", "paired"])
def test_float32_features_are_within_the_round_off_of_their_argument(variant):
    """|z_32 - z_64| <= scale ((d + 3) eps_32 (|x|^T |omega| + |b|) + 2 eps_32): the GEMM of d terms
    and the rounding of omega and b to float32 move the argument, cos and sin add an ulp or two."""
    X32, X64 = _rows(500, 8)
    fmap = draw_rff(8, 64, "gaussian", 0.5, variant, random_state=1)
    Z32, Z64 = fmap.transform(X32), fmap.transform(X64)
    assert Z32.dtype == np.float32 and Z32.shape == Z64.shape
    arg = np.abs(X64) @ np.abs(fmap.omega) + np.abs(fmap.phase)
    if variant == "paired":
        arg = np.hstack([arg, arg])
    scale = np.sqrt(2 / 64) if variant == "cos" else np.sqrt(1 / 64)
    assert np.all(np.abs(Z32 - Z64) <= scale * ((8 + 3) * EPS32 * arg + 2 * EPS32))


def test_gram_accumulate_of_float32_rows_sums_in_float64_within_round_off():
    """Gaussian K >= 0, so entrywise |G_32 - G_64| <= (b + 2 c + 1) eps_32 G_64 with b the block
    rows (the SSYRK of one block) and c = max 1 + 2 (d + 2) gamma (|x|^2 + |y|^2) (the float32
    block's relative error)."""
    X32, X64 = _rows(3000, 5)
    L32, L64 = X32[:40], X64[:40]
    kern = Kernel("gaussian", gamma=0.3)
    G32, s32 = gram_accumulate(X32, L32, kern, block_size=500)
    G64, s64 = gram_accumulate(X64, L64, kern, block_size=500)
    assert G32.dtype == np.float64 and s32.dtype == np.float64
    sq = (X64 ** 2).sum(axis=1).max()
    c = 1 + 2 * (5 + 2) * 0.3 * 2 * sq
    assert np.all(np.abs(G32 - G64) <= (500 + 2 * c + 1) * EPS32 * G64)
    assert np.all(np.abs(s32 - s64) <= c * EPS32 * s64)


#: Nyström on float32 rows against float64 on the same values at the same cut-off, at this test's
#: sizes (n = 4000, d = 6, m = 200, gamma = 0.2), seeds 0-9, centred and not: top-5 eigenvalues
#: within 2.8e-7 relative, so 1e-5; scores within 1.3e-5 of the largest (eigenvectors of a cluster
#: of near-equal eigenvalues turn), so 1e-4.
NYSTROM_REL = 1e-5
NYSTROM_SCORES = 1e-4


@pytest.mark.parametrize("center", [False, True])
def test_nystrom_on_float32_rows_matches_float64_at_the_float32_cut_off(center):
    X32, X64 = _rows(4000, 6)
    kern = Kernel("gaussian", gamma=0.2)
    a = NystromKPCA(5, kern, landmarks=200, center=center, random_state=0).fit(X32)
    b = NystromKPCA(5, kern, landmarks=200, center=center, rcond=nystrom.FLOAT32_RCOND, random_state=0).fit(X64)
    assert a.rcond_ == nystrom.FLOAT32_RCOND and b.rcond_ == nystrom.FLOAT32_RCOND
    assert a.effective_rank_ == b.effective_rank_
    np.testing.assert_allclose(a.eigenvalues_, b.eigenvalues_, rtol=NYSTROM_REL)
    assert a.coefficients_.dtype == np.float64 and a.basis_points_.dtype == np.float64
    S = a.transform(X32[:50])
    assert S.dtype == np.float64
    np.testing.assert_allclose(np.abs(S), np.abs(b.transform(X64[:50])), atol=NYSTROM_SCORES * np.abs(S).max())


def test_nystrom_keeps_a_larger_rcond_on_float32_rows():
    X32, _ = _rows(500, 3)
    est = NystromKPCA(3, Kernel("gaussian", gamma=0.5), landmarks=50, rcond=1e-2, random_state=0).fit(X32)
    assert est.rcond_ == 1e-2


#: RF-ERM on float32 rows against float64: top-5 eigenvalues within 6.3e-8 relative (10 seeds,
#: n = 3000, d = 10, m = 200), so 1e-6.
RF_ERM_REL = 1e-6


def test_rf_erm_on_float32_rows_matches_float64():
    X32, X64 = _rows(3000, 10)
    kern = Kernel("gaussian", gamma=0.1)
    a = RFERM(5, 200, kernel=kern, random_state=3).fit(X32)
    b = RFERM(5, 200, kernel=kern, random_state=3).fit(X64)
    assert a.covariance_sum_.dtype == np.float64
    np.testing.assert_allclose(a.eigenvalues_, b.eigenvalues_, rtol=RF_ERM_REL)


#: Frequent Directions on float32 rows, against A^T A of the same values in float64:
#: 0 <= A^T A - B^T B and ||A^T A - B^T B||_2 <= Delta held with no violation at all at this test's
#: sizes (seeds 0-9, n = 2000, d = 60, ell = 10, both rules; also n = 3000, d = 100); 1e-6 ||A||_F^2
#: (16 eps_32) allows the round-off.
FD_ROUND_OFF = 1e-6


@pytest.mark.parametrize("shrink", ["halving", "standard"])
def test_frequent_directions_on_float32_rows_keeps_its_guarantee(shrink):
    rng = np.random.default_rng(4)
    A32 = (rng.standard_normal((2000, 60)) * np.linspace(3, 0.1, 60)).astype(np.float32)
    A = A32.astype(np.float64)
    fd = FrequentDirections(10, shrink).fit(A32)
    assert fd.sketch_.dtype == np.float32
    ev = np.linalg.eigvalsh(A.T @ A - fd.covariance().astype(np.float64))
    mass = np.linalg.norm(A) ** 2
    assert ev[0] >= -FD_ROUND_OFF * mass
    assert ev[-1] <= fd.delta_ + FD_ROUND_OFF * mass


def test_skpca_on_float32_rows_sketches_in_float32_and_returns_float64_components():
    X32, X64 = _rows(3000, 10)
    kern = Kernel("gaussian", gamma=0.1)
    a = SKPCA(5, sketch_size=10, n_features=200, kernel=kern, random_state=2).fit(X32)
    b = SKPCA(5, sketch_size=10, n_features=200, kernel=kern, random_state=2).fit(X64)
    assert a.sketch_.sketch_.dtype == np.float32 and a.components_.dtype == np.float64
    np.testing.assert_allclose(a.components_.T @ a.components_, np.eye(5), atol=1e-12)
    # 1.5e-6 relative over 10 seeds at these sizes: the sketch's shrinks in float32
    np.testing.assert_allclose(a.singular_values_, b.singular_values_, rtol=1e-4)


#: The rate claims of the methods that compute in float32, each with its estimator fitted on
#: float32 rows: all hold at ci, as with float64 rows.
FLOAT32_RATE_CLAIMS = (
    "sterge20.cor42-poly", "sterge20.cor42-poly-centred", "sterge20.cor43-exp", "sterge20.cor43-exp-centred",
    "sterge20.cor43-gaussian", "sterge20.cor43-gaussian-centred", "sterge20.ablation", "sterge20.thm41-bound",
    "ullah18.rate-erm", "ullah18.rate-erm-centred", "ullah18.fixed-m-plateau", "ghashami16.rff-rate",
    "ghashami16.thm21",
)


def _on_float32_rows(claim_id):
    claim = get(claim_id)
    slot = claim.subject.estimator
    return run_claim(claim, **{slot: in_float32(claim.estimators[slot])})


@pytest.mark.parametrize("claim_id", FLOAT32_RATE_CLAIMS)
def test_rate_claims_hold_on_float32_rows(claim_id):
    verdict = _on_float32_rows(claim_id)
    assert verdict.status == "holds", verdict.summary


@pytest.mark.parametrize("claim_id", ["sterge20.cor42-poly", "sterge20.cor43-exp", "sterge20.cor43-exp-centred"])
def test_float32_rows_with_the_float64_cut_off_fail_the_rate_claims(claim_id, monkeypatch):
    """The negative control: float32 rows whitened with rcond = 1e-8 keep directions of K_mm
    whose float32 round-off, amplified by 1 / s, swamps them (the centred path: cor43-exp-centred
    reads a level of 2.44; the Gaussian claims' smooth kernel hides it, 1.21 against 1.25)."""
    monkeypatch.setattr(nystrom, "FLOAT32_RCOND", 0.0)
    verdict = _on_float32_rows(claim_id)
    assert verdict.status == "fails", verdict.summary


def test_float32_rows_whose_kernel_overflows_float32_are_a_clear_error():
    X = (np.random.default_rng(0).standard_normal((300, 3)) * 1e7).astype(np.float32)  # (x^T y)^3 ~ 1e42
    kern = Kernel("polynomial", gamma=1.0, degree=3)
    with pytest.raises(ValueError, match="X: the polynomial kernel's values on X overflow float32.*float64"):
        NystromKPCA(3, kern, landmarks=30, random_state=0).fit(X)
    assert np.isfinite(NystromKPCA(3, kern, landmarks=30, random_state=0).fit(X.astype(np.float64)).eigenvalues_).all()


def test_float32_rows_whose_feature_arguments_could_overflow_are_a_clear_error():
    X = (np.random.default_rng(0).standard_normal((300, 3)) * 1e7).astype(np.float32)
    kern = Kernel("gaussian", gamma=1e64)  # |omega| ~ 1e32, |omega^T x| up to ~1e40 > 3.4e38
    for est in (RFERM(3, 50, kernel=kern, random_state=0), SKPCA(3, sketch_size=4, n_features=50, kernel=kern,
                                                                 random_state=0)):
        with pytest.raises(ValueError, match="X: the random features' arguments .* overflow float32"):
            est.fit(X)
