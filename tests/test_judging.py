"""The shared judging recipes on synthetic results whose answer is known."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from kpca_suite.suites.claim import Cell, Result
from kpca_suite.suites.judging import (AllOf, AllWithin, CoverageAtLeast, CurvesClose, MeanAtMost, OrderingHolds,
                                       SlopeInBand, collect, combine, detectable)
from kpca_suite.theory.slopes import verdict_from_ci

NS = (64, 128, 256, 512, 1024, 2048)


def rate_results(slope, noise=0.02, seeds=8, method="a", scale=1.0):
    rng = np.random.default_rng(0)
    return [Result(Cell.make("t.x", method, n, s), {"err": float(scale * n**slope * (1 + noise * rng.standard_normal()))})
            for n in NS for s in range(seeds)]


def test_collect_groups_sizes_by_seeds():
    x, Y = collect(rate_results(-0.5, seeds=3), "err")
    assert list(x) == list(NS) and Y.shape == (len(NS), 3) and np.isfinite(Y).all()


@pytest.mark.parametrize("band,status", [((-0.6, -0.4), "holds"), ((-1.1, -0.9), "fails"),
                                         ((-np.inf, -0.45), "holds"), ((-0.45, np.inf), "fails")])
def test_slope_in_band(band, status):
    out = SlopeInBand("err", band, label="err")(rate_results(-0.5), "ci")
    assert out.status == status, out.summary
    assert out.fits[0].band == tuple(band) and abs(out.measured["slope"] + 0.5) < 0.02


def test_slope_ci_straddling_the_band_is_inconclusive():
    res = rate_results(-0.5)
    slope = SlopeInBand("err", (-1, 0), label="err")(res, "ci").measured["slope"]
    out = SlopeInBand("err", (slope, 0.0), label="err")(res, "ci")
    assert out.status == "inconclusive", out.summary


def test_an_impossible_value_fails_the_slope_rule_and_says_so():
    res = rate_results(-0.5)
    res[3] = Result(res[3].cell, {"err": -2e-3})
    rule = SlopeInBand("err", (-0.6, -0.4), label="err", impossible=(-1e-9, "an excess risk is >= 0"))
    out = rule(res, "ci")
    assert out.status == "fails"
    assert "IMPOSSIBLE err = -0.002 < -1e-09 in 1 of 48 cells (an excess risk is >= 0)" in out.summary
    # without the floor the log-log fit can only refuse the value
    with pytest.raises(ValueError, match="Y must be > 0"):
        SlopeInBand("err", (-0.6, -0.4), label="err")(res, "ci")
    # values at the floor are allowed
    assert rule(rate_results(-0.5), "ci").status == "holds"


def test_slope_band_from_a_reference_curve():
    res = [Result(r.cell, {**r.metrics, "ref": float(r.cell.n ** -0.5)}) for r in rate_results(-0.5)]
    rule = SlopeInBand("err", lambda ref: (ref - 0.05, ref + 0.05), label="err", reference="ref")
    out = rule(res, "ci")
    assert out.status == "holds" and out.predicted["slope_predicted"] == pytest.approx(-0.5)


def test_mean_at_most_per_size_and_pooled():
    """Per m, the largest seed mean decides; pooled, the mean of every cell: one noisy m
    (mean 1.6) fails the per-size rule at 1.5 and passes the pooled one (mean 1.1)."""
    res = [Result(Cell.make("t.x", "a", 100, s, m=m), {"lvl": (1.6 if m == 32 else 1.0) + 0.1 * (s % 2)})
           for m in (32, 64, 128, 256, 512, 1024) for s in range(4)]
    per_m = MeanAtMost("lvl", 1.5, "level", x="m")(res, "ci")
    assert per_m.status == "fails" and "at m = 32" in per_m.summary, per_m.summary
    pooled = MeanAtMost("lvl", 1.5, "level", x=None)(res, "ci")
    assert pooled.status == "holds" and abs(pooled.measured["mean_lvl"] - 1.15) < 1e-12, pooled.summary
    assert MeanAtMost("lvl", 1.1, "level", x=None)(res, "ci").status == "fails"


def test_all_within():
    res = [Result(Cell.make("t.x", "a", 10, s), {"dev": 1e-12 * s, "gap": 0.0}) for s in range(4)]
    assert AllWithin(1e-9)(res, "ci").status == "holds"
    res.append(Result(Cell.make("t.x", "a", 10, 9), {"dev": 1e-3, "gap": 0.0}))
    out = AllWithin(1e-9)(res, "ci")
    assert out.status == "fails" and "dev = 1.00e-03" in out.summary and "gap" not in out.summary
    res[-1].metrics["gap"] = float("nan")
    out = AllWithin(1e-9)(res, "ci")
    assert out.status == "fails" and "NOT FINITE: gap" in out.summary  # NaN fails too, named first


def test_coverage_at_least():
    hits = lambda v, N: [Result(Cell.make("t.x", "a", 10, s), {"ok": float(s >= v)}) for s in range(N)]
    assert CoverageAtLeast("ok", 0.95)(hits(5, 200), "ci").status == "holds"     # 2.5% misses
    assert CoverageAtLeast("ok", 0.95)(hits(40, 200), "ci").status == "fails"    # 20% misses


def test_mean_at_most_past_a_burn_in_reads_only_those_sizes():
    early_high = [Result(Cell.make("t.x", "a", n, s), {"v": 30.0 if n < 512 else 1.0}) for n in NS for s in range(3)]
    assert MeanAtMost("v", 10.0, "level")(early_high, "ci").status == "fails"
    past = MeanAtMost("v", 10.0, "level", min_x=512)(early_high, "ci")
    assert past.status == "holds" and past.measured["max_mean_v"] == 1.0


def test_coverage_p_value_is_the_probability_of_at_least_the_observed_violations():
    """10 misses in 50 at level 0.9: p = P(X >= 10), X ~ Bin(50, 0.1) = 1 - P(X <= 9), summed here
    term by term; 0.0245 >= alpha = 0.01 holds, where P(X >= 11) = 0.0094 would fail."""
    from math import comb
    hits = [Result(Cell.make("t.x", "a", 10, s), {"ok": float(s >= 10)}) for s in range(50)]
    out = CoverageAtLeast("ok", 0.9)(hits, "ci")
    p = 1.0 - sum(comb(50, i) * 0.1**i * 0.9 ** (50 - i) for i in range(10))
    assert out.measured["coverage_p"] == pytest.approx(p, rel=1e-9) and out.status == "holds"


def test_slope_rule_of_one_method_reads_that_methods_cells_only():
    both = rate_results(-0.5, method="a") + rate_results(-1.0, method="b", scale=50.0)
    assert SlopeInBand("err", (-0.6, -0.4), label="a", method="a")(both, "ci").measured["slope"] == pytest.approx(
        SlopeInBand("err", (-0.6, -0.4), label="a")(rate_results(-0.5, method="a"), "ci").measured["slope"])


def test_slope_ci_has_the_normal_theory_width_over_many_seeds():
    """Per-cell noise of 1% on log y over 20 seeds: the 95% bootstrap CI's width is close to
    2 * 1.96 sd(b_s) / sqrt(S), b_s each seed's OLS slope (a 90% CI would be 16% narrower)."""
    x = np.log(NS)
    ratios = []
    for rep in range(5):
        logy = -0.5 * x[None, :] + 0.01 * np.random.default_rng(rep).standard_normal((20, len(x)))
        res = [Result(Cell.make("t.x", "a", n, s), {"err": float(np.exp(logy[s, i]))})
               for s in range(20) for i, n in enumerate(NS)]
        m = SlopeInBand("err", (-1, 0), label="err")(res, "ci").measured
        b = np.polyfit(x, logy.T, 1)[0]
        ratios.append((m["slope_ci_high"] - m["slope_ci_low"]) / (2 * 1.96 * b.std(ddof=1) / np.sqrt(20)))
    assert 0.92 <= np.mean(ratios) <= 1.08, ratios


def test_ordering_and_curves_close():
    res = rate_results(-0.5, method="big", scale=2.0) + rate_results(-0.5, method="small")
    assert OrderingHolds("err", ("big", "small"))(res, "ci").status == "holds"
    assert OrderingHolds("err", ("small", "big"))(res, "ci").status == "fails"
    assert CurvesClose("err", "big", "small", tol=0.2)(res, "ci").status == "holds"
    assert CurvesClose("err", "big", "small", tol=0.01)(res, "ci").status == "fails"


def test_all_of_combines():
    res = rate_results(-0.5)
    assert combine(["holds", "inconclusive"]) == "inconclusive" and combine(["inconclusive", "fails"]) == "fails"
    slope = SlopeInBand("err", (-1, 0), label="err")(res, "ci").measured["slope"]
    out = AllOf(SlopeInBand("err", (-0.6, -0.4), label="a"), SlopeInBand("err", (slope, 0.0), label="b"))(res, "ci")
    assert out.status == "inconclusive" and len(out.fits) == 2 and ";" in out.summary
    out = AllOf(SlopeInBand("err", (-0.6, -0.4), label="a"), SlopeInBand("err", (-1.1, -0.9), label="b"))(res, "ci")
    assert out.status == "fails"


def test_slope_power_is_where_a_shifted_ci_leaves_the_band():
    fit, band = SimpleNamespace(slope=-0.5, ci=(-0.55, -0.40)), (-0.65, -0.35)
    assert detectable(fit, band) == [("<", pytest.approx(-0.75)), (">", pytest.approx(-0.30))]
    # a slope just past either end, with the same spread, fails; one just inside does not
    for s, want in ((-0.29, "fails"), (-0.31, "inconclusive"), (-0.76, "fails"), (-0.74, "inconclusive")):
        assert verdict_from_ci((s - 0.05, s + 0.10), band) == want
    assert detectable(fit, (-np.inf, -0.35)) == [(">", pytest.approx(-0.30))]
    assert detectable(SimpleNamespace(slope=-0.5, ci=(np.nan, np.nan)), band) == []


def test_which_rules_judge_a_slope_is_declared():
    """A :class:`SlopeInBand` judges a slope, through every combinator; the other recipes and
    an unmarked judge function do not; :func:`slope_judge` marks a function that does."""
    from kpca_suite.suites.judging import (ForEachMethod, SlopeDifference, Where, WhereExposed, WithErratum,
                                           judges_a_slope, slope_judge)
    slope, within = SlopeInBand("err", (-0.6, -0.4), label="a"), AllWithin(1e-9)

    def judge(results, profile):
        return None

    assert judges_a_slope(slope) and not judges_a_slope(within) and not judges_a_slope(judge)
    assert not judges_a_slope(SlopeDifference("a", "b", (-0.1, 0.1), labels=("a", "b")))
    assert [judges_a_slope(r) for r in (AllOf(within, Where("m", 1, slope)), AllOf(within, within),
                                        WithErratum(slope, "e", 0.0, "e"), WhereExposed("f", slope),
                                        ForEachMethod(lambda m: slope if m == "a" else within, ("b", "a")),
                                        ForEachMethod(lambda m: slope))] == [True, False, True, True, True, False]
    assert slope_judge(judge) is judge and judges_a_slope(judge)
