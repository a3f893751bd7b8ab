"""No verdict from a number that is not finite: every judging recipe, given a sweep
that would hold, fails once one judged value is NaN, and names it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from kpca_suite.suites.claim import Cell, Result
from kpca_suite.suites.judging import (AllOf, AllWithin, CoverageAtLeast, CurvesClose, ForEachMethod, MeanAtMost,
                                       NoWorseThanBaseline, OrderingHolds, ProbableBound, SlopeDifference, SlopeInBand,
                                       UnderBound, Where, WhereExposed, WithErratum)

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
    "ProbableBound": ProbableBound("err", "bound", 0.05, "err", "2 err"),
    "ForEachMethod": ForEachMethod(lambda method: MeanAtMost("err", 1.0, "err", method=method, name=method), ("a", "b")),
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


def test_probable_bound_tolerates_rare_violations_and_fails_frequent_ones():
    results = sweep()  # 60 cells
    for r in results[:2]:
        r.metrics["bound"] = 0.5 * r.metrics["err"]
    assert ProbableBound("err", "bound", 0.05, "err", "b")(results, "ci").status == "holds"  # 2/60 at rate 0.05
    for r in results[:12]:
        r.metrics["bound"] = 0.5 * r.metrics["err"]
    out = ProbableBound("err", "bound", 0.05, "err", "b")(results, "ci")
    assert out.status == "fails" and "in 12/60 cells" in out.summary
    for r in results:
        r.metrics["ceiling"] = r.metrics["err"]  # every bound at or above the largest possible value
    assert ProbableBound("err", "bound", 0.5, "err", "b", ceiling="ceiling")(results[12:], "ci").status == \
        "inconclusive"


def test_probable_bound_takes_a_constant_bound():
    # sterge20.als's score mass: within a constant in all but a fraction delta of the cells
    results = sweep()  # 60 cells
    top = sorted(r.metrics["err"] for r in results)
    rule = ProbableBound("err", top[-2], 0.01, "err", "c")  # one cell over: binomial p = 0.45 at rate 0.01
    out = rule(results, "ci")
    assert out.status == "holds" and "in 1/60 cells" in out.summary
    assert out.fits[0].reference.shape == out.fits[0].y.shape and np.all(out.fits[0].reference == top[-2])
    out = ProbableBound("err", top[-5], 0.01, "err", "c")(results, "ci")  # four over: p = 0.003
    assert out.status == "fails" and "in 4/60 cells" in out.summary
    assert rule.reads == frozenset({"err"})
    results[0].metrics["err"] = math.nan  # a NaN under a constant bound fails, never counts as within
    assert rule(results, "ci").status == "fails"


def test_for_each_method_judges_only_the_methods_present():
    def rule(method):
        return MeanAtMost("err", 0.2, "err", method=method, name=f"{method}_err")
    results = sweep()
    both = ForEachMethod(rule, ("a", "b", "absent"))(results, "ci")
    assert both.status == "fails" and set(both.measured) == {"a_err", "b_err"}  # b's mean reaches 0.25
    only_a = ForEachMethod(rule, ("a", "b"))([r for r in results if r.cell.method == "a"], "ci")
    assert only_a.status == "holds" and set(only_a.measured) == {"a_err"}
