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
each family module holds its claims' faults, ``_common`` those of several."""

from __future__ import annotations

from ...claim import Paper
from . import compare, features, foreach, lemma24, nystrom, sketch, space, traincost, unbiased
from .inventory import RESULTS  # noqa: F401 - the paper's statements and what checks them

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
- **Train time.** Likewise the train-time comparisons (Table 1, sections 1.2 and 3) are judged on operations
  counted from the running code (ghashami16.train-cost): RNCA is the costlier of RNCA and SKPCA only from m of
  about 2 ell + d on (at m = 32 SKPCA with ell = 30 counts about 2.4 times RNCA's operations), and Nyström is the cheapest
  at small m, SKPCA cheaper than it only once m^2 is large against n (d + ell), the paper's eps <
  ((log^2 n)/n)^(1/3).
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

CLAIMS = [*sketch.CLAIMS, *features.CLAIMS, *foreach.CLAIMS, *nystrom.CLAIMS, *lemma24.CLAIMS, *unbiased.CLAIMS,
          *space.CLAIMS, *traincost.CLAIMS, *compare.CLAIMS]
