"""asv ``track_`` benchmarks: the fitted log-log slope of every rate claim of
every paper at the ``ci`` profile, so a change in a method or the theory that
moves a rate shows up in asv's history (unit: ``slope``).

A rate claim is one whose verdict judges a fitted slope (a
:class:`~kpca_suite.suites.claim.Fit` of kind ``"rate"`` with a tolerance
band). Its judge declares it (:func:`~kpca_suite.suites.judging.judges_a_slope`),
so the claims are discovered (:func:`rate_claims`), those of installed plug-in
papers included, and none is run to find them; ``tests/test_claims.py`` checks the
declaration against each of our claims' ci verdicts. Each is evaluated by the one
pipeline (:func:`kpca_suite.suites.pipeline.evaluate`, serial, in-memory store), as
the CLI and the tests do; a claim with several judged slopes tracks the first.
Evaluating only these keeps ``asv run --quick`` within minutes (all the claims at ci
take about 3 minutes serially; the rate claims about a minute).
"""

import math


def rate_claims() -> list:
    """The ids of the registered claims whose judge judges a slope, sorted."""
    from kpca_suite.suites import registry
    from kpca_suite.suites.judging import judges_a_slope

    return sorted(c.id for c in registry.select() if judges_a_slope(c.judge))


def judged_slope(verdict) -> float:
    """The slope of the verdict's first judged rate fit
    (:meth:`~kpca_suite.suites.claim.Verdict.judged_slope`), NaN when it has none."""
    fit = verdict.judged_slope()
    return math.nan if fit is None else float(fit.slope)


class ClaimSlopes:
    """Measured log-log slope of each rate claim at the ci profile."""

    param_names = ["claim"]
    params = [rate_claims()]
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
