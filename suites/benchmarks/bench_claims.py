"""asv ``track_`` benchmarks: the fitted log-log slope of every rate claim of
every paper at the ``ci`` profile, so a change in a method or the theory that
moves a rate shows up in asv's history (unit: ``slope``).

A rate claim is one whose verdict judges a fitted slope (a
:class:`~kpca_suite.suites.claim.Fit` of kind ``"rate"`` with a tolerance
band). That is known only from a verdict, so the list is declared here
(:data:`RATE_CLAIMS`) and ``tests/test_claims.py`` checks it against every
claim's ci verdict: a claim that starts or stops judging a slope fails that test
until this list follows. Each is evaluated by the one pipeline
(:func:`kpca_suite.suites.pipeline.evaluate`, serial, in-memory store), as the
CLI and the tests do; a claim with several judged slopes tracks the first.
Evaluating only these keeps ``asv run --quick`` within minutes (all 56 claims
at ci take about 3 minutes serially; these 26 in about a minute).
"""

import math

#: The claims whose ci verdict judges a fitted slope (checked by tests/test_claims.py).
RATE_CLAIMS = (
    "bach13.dof-decay", "bach13.table1",
    "ghashami16.rff-rate", "ghashami16.rff-unbiased", "ghashami16.thm21", "ghashami16.space",
    "hallgren21.cor61", "hallgren21.cor61-centred",
    "landmarks.rate", "landmarks.leverage-values",
    "sterge20.cor42-poly", "sterge20.cor43-exp", "sterge20.als", "sterge20.ablation", "sterge20.effdim",
    "sterge20.cor42-poly-centred", "sterge20.cor43-exp-centred", "sterge20.ablation-centred",
    "sterge20.cor43-gaussian", "sterge20.cor43-gaussian-centred",
    "ullah18.rate-erm", "ullah18.rate-oja", "ullah18.fixed-m-plateau", "ullah18.estimation",
    "ullah18.rate-erm-centred", "ullah18.rate-oja-centred", "ullah18.fixed-m-plateau-centred",
)


def judged_slope(verdict) -> float:
    """The slope of the verdict's first judged rate fit
    (:meth:`~kpca_suite.suites.claim.Verdict.judged_slope`), NaN when it has none."""
    fit = verdict.judged_slope()
    return math.nan if fit is None else float(fit.slope)


class ClaimSlopes:
    """Measured log-log slope of each rate claim at the ci profile."""

    param_names = ["claim"]
    params = [list(RATE_CLAIMS)]
    timeout = 900

    def setup(self, claim):
        from kpca_suite.suites import pipeline, registry

        try:
            found = registry.get(claim)
        except KeyError as e:  # a claim renamed or its paper not installed: skip, not fail
            raise NotImplementedError(str(e)) from None
        self.slope = judged_slope(pipeline.evaluate([found], "ci", jobs=1).verdicts[claim])

    def track_slope(self, claim):
        return self.slope

    track_slope.unit = "slope"
