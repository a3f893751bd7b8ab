"""sterge20: Sterge, Sriperumbudur, Rosasco & Rudi (2020), "Gain with no pain:
efficient kernel-PCA by Nyström sampling".

The rate claims run on the Fourier explicit-feature population model on U[0,1):
features sqrt(lambda_i) psi_i(x) with psi the orthonormal Fourier basis, so the
covariance is C = diag(lambda) and the population reconstruction error
R(P) = sum_i lambda_i (1 - ||Q_i||^2) of a fitted projector with basis Q is exact
(no test-set noise). The kernel is linear in the J features, so every method runs
with ``Kernel("linear")`` on the feature rows. Their ``-centred`` twins run on the
model's zero-mean twin, where a KPCA that centres and one that does not share the
estimand (:mod:`.centred`); ``cor43-gaussian`` and its centred twin put Corollary 4.3 on
the Mehler model, a Gaussian kernel (:mod:`.gaussian`). The in-sample claims use a
Gaussian kernel on uniform data, and the recovery claims (``insample-nystrom`` and its centred twin)
on Gaussian data, read through any implementation's training scores alone; the digits claim uses
scikit-learn's digits (or ``--data``).

Every part a planted fault replaces is an estimator of its claim: the Nyström KPCA
(``nystrom``: on the population model a kpca-projection role factory
``make(n_components, budget, kernel, random_state)``, so that any implementation can
take its place and the error is read through ``transform`` alone; elsewhere the
class), the exact KPCA (``ekpca``: the class, or on the population model EKPCA's population
error), the approximate leverage scores (``scores``) and the leverage-score sum (``leverage``)."""

from __future__ import annotations

from ...claim import Paper
from . import als, bound, centred, cost, digits, effdim, eq13, gaussian, insample, rates, recovery, theta1
from .inventory import RESULTS  # noqa: F401 - the paper's statements and what checks them

PAPER = Paper(
    key="sterge20",
    citation="A. Sterge, B. Sriperumbudur, L. Rosasco, A. Rudi (2020), 'Gain with no pain: efficient "
             "kernel-PCA by Nyström sampling', AISTATS 2020.",
    errata="""\
- The covariance C = E k(.,X) (x) k(.,X) and the Gram matrix are **uncentered** everywhere; the
  "zero mean" wording of Sec. 3.1 is motivation only. scikit-learn's `KernelPCA` (and `Nystroem` +
  `PCA`) center, so neither is the paper's method; ours does not center.
- Normalisations: lambda_hat_i = eig(K)/n and lambda_hat_{i,m} = eig(M)/n = eig(K~)/n with
  M = K_mm^{-1/2} K_mn K_nm K_mm^{-1/2}; the coefficient in eq. (6) is 1/sqrt(eig(K)); the ridge
  leverage scores are l_i(s) = [K (K + n s I)^{-1}]_ii, i.e. the regulariser is n s on the
  unnormalised K; in eq. (18) the alpha_j are unit eigenvectors of K/n, not the coefficient vectors.
  Using eig(K) instead of eig(K)/n in the leverage-score sum gives the scores of K + s I, a planted
  fault of `sterge20.effdim`.
- l is n^(theta/alpha) (not n^theta) for polynomial decay and (theta/tau) ln n for exponential
  decay; both need rounding and Nyström needs l <= m. The rate grids pick n = l^(alpha/theta) and
  n = e^(tau l/theta) so that l is an integer.
- The theorems bound the **population** error R(P); the experiments of Sec. 5 plot the
  **in-sample** R_hat, which is biased downward (sum_{i>l} lambda_hat_i). The rate claims measure the
  exact population R.
- Sec. 5 says Nyström KPCA becomes "surprisingly better than EKPCA" beyond some l. For the plotted
  in-sample error this is impossible: K - K~ = Z_n (I - P_m) Z_n^* is positive semi-definite (see
  eq. (28)), so sum_{i<=l} lambda_hat_{i,m} <= sum_{i<=l} lambda_hat_i and R_hat_nys(l) >= R_hat_ekpca(l)
  for every l (and R_hat_nys is constant for l > m). The likely cause is numerical: an
  ill-conditioned, unregularised K_mm^{-1/2}. The suite asserts the inequality instead
  (`sterge20.insample-order`, `sterge20.digits`).
- K_mm is numerically singular for smooth kernels, for exponential eigen-decay and for ALS
  duplicates: K_mm^{-1/2} is taken through an eigendecomposition with a relative cut-off, and the
  effective rank is recorded. ALS draws with replacement; duplicates are dropped (the span alone
  defines the projector, so no reweighting is needed). The paper gives no algorithm for its
  T-approximate leverage scores; ours are Nyström estimates from a uniform pilot of m points.
- The rates carry constants and log factors: compare a measured slope with the slope of the exact
  R_{C,l} = sum_{i>l} lambda_i on the same grid, not with the asymptotic exponent (sum_{i>l} i^-2 is
  about 1/(l + 1/2); for exponential decay the log n factor flattens the local slope by about 1/ln n).
- The literal conditions of Theorem 4.1 (m >= 334 log(8n/delta), n >= 1655 kappa, ...) cannot be met at
  benchmark sizes; the bound claim uses the literal m of Theorem 4.1(i) capped at n, and reports how
  loose eqs. (15) and (17) are. N_{C,inf}(t) <= kappa / t.
- Remark 1(i) says EKPCA converges more slowly than KPCA for θ >= 1; the corollaries give upper bounds only,
  so this does not follow, and on the Fourier model at θ = 3/2 R_{C_n,l} / R_{C,l} falls with n
  (`sterge20.remark1`).
- Slips in the proofs: Cor. 4.2(i) / 4.3(i) cite Theorem 4.1(i) but follow from eq. (13);
  Cor. 4.2(iv) cites "Theorem 4.1(iv)", meaning (ii); Cor. 4.3(ii) cites Theorem 4.1(ii), meaning
  eq. (17); eq. (27) names Hoffman-Wielandt where Weyl's inequality is used; the definition of
  "<~_P" writes probability >= delta for >= 1 - delta.
- Sec. 5: the Gaussian kernel is exp(-sigma ||x - y||^2) with sigma = 1e-7, a gamma, sensible only on
  raw 0-255 MNIST pixels; Figure 2's caption says digit 5 but shows digit 2. MNIST is not shipped:
  the digits claim uses scikit-learn's 8x8 digits with the median-heuristic gamma (or the user's
  `--data`).
""",
)

CLAIMS = [*insample.CLAIMS, *recovery.CLAIMS, *rates.CLAIMS, *als.CLAIMS, *effdim.CLAIMS, *bound.CLAIMS, *centred.CLAIMS, *gaussian.CLAIMS, *theta1.CLAIMS, *eq13.CLAIMS, *cost.CLAIMS, *digits.CLAIMS]
