"""asv ``track_`` benchmarks: the fitted slope of every ``sterge20.*`` claim at
the ``ci`` profile, so a change in a method or the theory that moves a rate
shows up in asv's history.

The claims are read from the registry (:func:`suites.registry.select`), the one
source shared with the CLI and the tests. The parameter list is computed at
import; if the paper module cannot be imported (or registers nothing), the list
is empty and ``track_slope`` reports NaN instead of breaking benchmark
discovery.
"""

import math
import time

PAPER = "sterge20"


def _claim_ids():
    try:
        from kpca_suite.suites import registry
        return [c.id for c in registry.select([PAPER]) if c.id.startswith(PAPER + ".")]
    except Exception:  # ImportError of suites.sterge20, KeyError if nothing registered, ...
        return []


CLAIM_IDS = _claim_ids()


def run_claim(claim_id, profile="ci"):
    """Run every cell of a claim serially in this process and judge it.

    Returns the :class:`suites.registry.Verdict`.
    """
    from kpca_suite.suites import registry

    claim = registry.get(claim_id)
    results = []
    for cell in claim.cells(profile, {}):
        t0 = time.perf_counter()
        metrics = claim.run_cell(cell)
        results.append(registry.Result(cell=cell, metrics=metrics,
                                       wall_time=time.perf_counter() - t0))
    return claim.judge(results, profile)


def claim_slope(claim_id, profile="ci"):
    """The first fitted slope of the claim's verdict, NaN when it has no fit."""
    verdict = run_claim(claim_id, profile)
    if verdict.fits:
        return float(verdict.fits[0].slope)
    return math.nan


class Sterge20Slopes:
    """Measured log-log slope of each sterge20 claim at the ci profile."""

    param_names = ["claim"]
    params = [CLAIM_IDS] if CLAIM_IDS else []
    timeout = 900

    def track_slope(self, claim=None):
        if claim is None:  # no claims could be loaded
            return math.nan
        return claim_slope(claim, "ci")

    track_slope.unit = "slope"
