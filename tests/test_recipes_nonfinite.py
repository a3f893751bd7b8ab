"""No verdict from a number that is not finite: every judging recipe, given a sweep
that would hold, fails once one judged value is NaN, and names it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from kpca_suite.suites.claim import Cell, Result
from kpca_suite.suites.judging import (AllOf, AllWithin, CoverageAtLeast, CurvesClose, MeanAtMost,
                                       NoWorseThanBaseline, OrderingHolds, SlopeDifference, SlopeInBand, UnderBound,
                                       Where, WhereExposed, WithErratum)

NS = (64, 128, 256, 512, 1024, 2048)


def sweep():
    """Two methods, 6 sizes, 5 seeds: err = n^-1/2 (1 + 0.01 z) for 'a', twice that for
    'b'; a bound twice err; a coverage flag of 1; a settings param 'w'."""
    out = []
    rng = np.random.default_rng(0)
    for method, scale in (("a", 1.0), ("b", 2.0)):
        for n in NS:
            for seed in range(5):
                err = scale * n ** -0.5 * (1 + 0.01 * rng.standard_normal())
                out.append(Result(Cell.make("t.x", method, n, seed, w=1),
                                  {"err": err, "bound": 2 * err, "covered": 1.0, "dev": 1e-12}))
    return out


RULES = {
    "SlopeInBand": SlopeInBand("err", (-0.6, -0.4), label="err", method="a"),
    "AllWithin": AllWithin(1e-9, ("dev",)),
    "AllWithin(all)": AllWithin(10.0),
    "UnderBound": UnderBound("err", "bound", label="err", bound_label="2 err"),
    "CoverageAtLeast": CoverageAtLeast("covered", 0.95),
    "OrderingHolds": OrderingHolds("err", ("b", "a")),
    "CurvesClose": CurvesClose("err", "a", "b", tol=1.0),
    "MeanAtMost(n)": MeanAtMost("err", 1.0, "err"),
    "MeanAtMost(pooled)": MeanAtMost("err", 1.0, "err", x=None),
    "Where": Where("w", 1, MeanAtMost("err", 1.0, "err")),
    "AllOf": AllOf(MeanAtMost("err", 1.0, "err"), AllWithin(1e-9, ("dev",))),
    "SlopeDifference": SlopeDifference("err", "bound", (-0.1, 0.1), ("err", "bound")),
    "NoWorseThanBaseline": NoWorseThanBaseline("b", "err", 0.1, x="n"),
    "WhereExposed": WhereExposed("bound", MeanAtMost("err", 1.0, "err")),
    "WithErratum": WithErratum(MeanAtMost("err", 1.0, "err"), "bound", 1.0, "a literal bound"),
}
PLANTED = {"SlopeInBand": "err", "AllWithin": "dev", "AllWithin(all)": "covered", "CoverageAtLeast": "covered",
           "AllOf": "dev"}


@pytest.mark.parametrize("name", RULES)
def test_a_planted_nan_fails_a_rule_that_holds(name):
    rule = RULES[name]
    results = sweep()
    assert rule(results, "ci").status == "holds", rule(results, "ci").summary
    metric = PLANTED.get(name, "err")
    results[3].metrics[metric] = math.nan  # method 'a', n = 64, seed 3
    out = rule(results, "ci")
    assert out.status == "fails", out.summary
    assert f"NOT FINITE: {metric} is NaN or inf in 1 of" in out.summary


def test_a_nan_entry_of_a_curve_is_not_finite():
    results = sweep()
    for r in results:
        r.metrics["curve"] = np.array([1.0, 2.0])
    results[0].metrics["curve"] = np.array([1.0, np.nan])
    assert AllWithin(10.0, ("curve",))(results, "ci").status == "fails"


def test_slope_difference_fails_when_the_slopes_agree_where_they_should_differ():
    results = sweep()
    assert SlopeDifference("err", "bound", (-0.1, 0.1), ("err", "bound"))(results, "ci").status == "holds"
    out = SlopeDifference("err", "bound", (-np.inf, -0.2), ("err", "bound"))(results, "ci")
    assert out.status == "fails" and "difference CI" in out.summary


def test_no_worse_than_baseline_fails_a_method_twice_as_bad():
    results = sweep()
    out = NoWorseThanBaseline("a", "err", 0.1, x="n")(results, "ci")
    assert out.status == "fails" and "b is worse than a at n = 64-2048, by 100%" in out.summary
    assert NoWorseThanBaseline("b", "err", 0.1, x="n")(results, "ci").status == "holds"
