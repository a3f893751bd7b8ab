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
               Cholesky (Bach 2013, Secs. 3 and 5).

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
resamples the seeds jointly."""

from __future__ import annotations

from ...claim import Paper
from . import digits, rate, values, vs_m

PAPER = Paper(
    key="landmarks",
    citation="Landmark selection for Nyström KPCA, a comparison study of this suite (after Sterge et al. "
             "2020 Sec. 3.2.1; Bach 2013; Musco & Musco 2017; Rudi et al. 2018)",
    errata="""\
- Not a paper: the claims compare the landmark rules of `methods.landmarks` on one population model
  and one data set. The references are A. Sterge, B. Sriperumbudur, L. Rosasco, A. Rudi (2020), 'Gain
  with no pain', AISTATS (uniform and ridge-leverage-score Nyström KPCA, Sec. 3.2.1); F. Bach (2013),
  'Sharp analysis of low-rank kernel matrix approximations', COLT (pivoted incomplete Cholesky, Sec.
  3 and Sec. 5); C. Musco, C. Musco (2017), 'Recursive sampling for the Nyström method', NeurIPS (recursive
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
  cannot be detected there. `landmarks.leverage-values` reads the scores' values on Gaussian data, where
  the leverage function varies, against the population one.
- Pivoted Cholesky is deterministic and greedy ('an approximate greedy algorithm whose analysis remains
  an open problem', Bach 2013): it takes the row worst explained by the span so far. On the Fourier
  model that spreads the landmarks evenly; on digits it takes outlying images first and loses to
  uniform sampling at small m.
- alpha = 1.5, not sterge20's 2: the rate grid must keep m = n^(1/2) ln n below J / 2 with k-means
  running in the J feature coordinates; alpha = 2 needs n = 4096, m = 533, J >= 1024 at the top of the
  grid, about ten times the cost.
""",
)

CLAIMS = [*vs_m.CLAIMS, *rate.CLAIMS, *digits.CLAIMS, *values.CLAIMS]
