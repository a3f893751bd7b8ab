"""asv ``track_`` benchmarks: the fitted slope of every ``sterge20.*`` claim at
the ``ci`` profile, so a change in a method or the theory that moves a rate
shows up in asv's history.

The claims are read from the registry and evaluated by the one pipeline
(:func:`kpca_suite.suites.pipeline.evaluate`, serial, in-memory store), as the
CLI and the tests do. The parameter list is computed at import; when the paper
cannot be loaded it holds one placeholder whose ``setup`` skips (asv's
``NotImplementedError``), so benchmark discovery never breaks.
"""

import math

PAPER = "sterge20"
#: The parameter used when no claim could be loaded; its setup skips.
NONE = "no-claims-loaded"


def _claim_ids():
    try:
        from kpca_suite.suites import registry
        return [c.id for c in registry.select([PAPER]) if c.id.startswith(PAPER + ".")]
    except Exception:  # noqa: BLE001 - ImportError, nothing registered, ...: discovery must not break
        return []


CLAIM_IDS = _claim_ids()


def evaluate_claim(claim_id, profile="ci"):
    """The claim's :class:`~kpca_suite.suites.claim.Verdict`, by the pipeline."""
    from kpca_suite.suites import pipeline, registry

    evaluation = pipeline.evaluate([registry.get(claim_id)], profile, jobs=1)
    return evaluation.verdicts[claim_id]


def claim_slope(claim_id, profile="ci"):
    """The first fitted slope of the claim's verdict, NaN when it has no fit."""
    verdict = evaluate_claim(claim_id, profile)
    if verdict.fits:
        return float(verdict.fits[0].slope)
    return math.nan


class Sterge20Slopes:
    """Measured log-log slope of each sterge20 claim at the ci profile."""

    param_names = ["claim"]
    params = [CLAIM_IDS or [NONE]]
    timeout = 900

    def setup(self, claim):
        if claim == NONE:
            raise NotImplementedError(f"no {PAPER} claim could be loaded")

    def track_slope(self, claim):
        return claim_slope(claim, "ci")

    track_slope.unit = "slope"
