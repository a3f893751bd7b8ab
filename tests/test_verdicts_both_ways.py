"""Verdicts right both ways: a correct implementation written differently holds (one variant
of each family of tests/variants, at ci), a threshold follows the precision of the
implementation under test, and a broken one never hides behind a crash: recorded cells
over a per-cell threshold fail a sweep with missing cells, and an exception of the
implementation under test fails its claim."""

from __future__ import annotations

import math

import numpy as np
import pytest

from kpca_suite.suites import check
from kpca_suite.suites.claim import Cell, Claim, Fault, Grid, PerProfile, Result, Tolerance, Verdict
from kpca_suite.suites.judging import AllOf, AllWithin, SlopeInBand
from kpca_suite.suites.pipeline import evaluate
from kpca_suite.suites.roles import EPS64
from tests.variants.corpus import BY_NAME, FAMILIES
from tests.variants.margins import bands, coverages, limits
from tests.variants.run import margins


# ---------------------------------------------------------------------- no shelter in a crash

def err_over_threshold_and_crashing(cell: Cell) -> float:
    """err = n^-1/2, over the threshold 0.1 at n = 64; a crash at n = 1024."""
    if cell.n == 1024:
        raise RuntimeError("planted crash at n = 1024")
    return cell.n ** -0.5


def err_under_threshold_and_crashing(cell: Cell) -> float:
    if cell.n == 1024:
        raise RuntimeError("planted crash at n = 1024")
    return 0.01 * cell.n ** -0.5


def _experiment(cell, estimators):
    return {"err": estimators["toy"](cell)}


def _claim(toy) -> Claim:
    grid = PerProfile.same(Grid((64, 128, 256, 512, 1024), 3))
    return Claim(id="toy.crash", source="-", statement="-", prediction="-", data="-", metric="err",
                 estimators={"toy": toy}, experiment=_experiment, grid=grid, metrics=("err",),
                 judge=AllOf(SlopeInBand("err", (-0.6, -0.4), label="err"), AllWithin(0.1, ("err",), hint="planted hint")),
                 tolerance=Tolerance("-", "-"), faults=(Fault("none", "-", {"toy": toy}),))


def test_recorded_cells_over_a_per_cell_threshold_fail_a_sweep_with_missing_cells():
    claim = _claim(err_over_threshold_and_crashing)
    v = evaluate([claim], "ci", jobs=1).verdicts[claim.id]
    assert v.status == "fails"
    assert v.summary.startswith("violated: err = 1.25e-01 > 0.1; planted hint (on the 12 cells recorded; 3 of 15 "
                                "missing: they raised; first: RuntimeError: planted crash at n = 1024)"), v.summary


def test_missing_cells_without_a_recorded_violation_leave_the_claim_inconclusive():
    claim = _claim(err_under_threshold_and_crashing)
    v = evaluate([claim], "ci", jobs=1).verdicts[claim.id]
    assert v.status == "inconclusive" and v.summary.startswith("3 of 15 cells missing (they raised; first: ")


def test_cells_missing_from_the_store_are_not_said_to_have_raised():
    claim = _claim(err_under_threshold_and_crashing)

    class Gone:  # a store that lost the rows of n = 512
        def __init__(self):
            self.rows = [Result(c, {"err": 0.01 * c.n ** -0.5}) for c in claim.cells("ci") if c.n not in (512, 1024)]

        def results(self, claim_id):
            return list(self.rows)

        def done_keys(self, claim_id=None):
            return {r.cell.key() for r in self.rows}
    v = evaluate([claim], "ci", Gone(), run=False).verdicts[claim.id]
    assert v.summary.startswith("6 of 15 cells missing (never run or not in the store)"), v.summary


# ---------------------------------------------------------------------- precision-aware thresholds

def _results(values, eps):
    return [Result(Cell.make("t.p", "m", 10, s), {"dev": v, "eps": eps}) for s, v in enumerate(values)]


def test_a_threshold_follows_the_precision_of_the_implementation_under_test():
    rule = AllWithin(1e-9, ("dev",), "of ||A||^2", per_eps=1e4, hint="correct ones read 1e-6 in float32")
    eps32 = float(np.finfo(np.float32).eps)
    ok = rule(_results([1.3e-6, 2e-7], eps32), "ci")
    assert ok.status == "holds" and "float32" in ok.summary and "limit 0.0012 = 10000 eps" in ok.summary
    bad = rule(_results([1.3e-6, 2e-2], eps32), "ci")
    assert bad.status == "fails" and bad.summary.endswith("correct ones read 1e-6 in float32"), bad.summary
    assert rule(_results([1.3e-6], EPS64), "ci").status == "fails"  # float64 is held to 1e-9


def test_an_output_coarser_than_float32_is_held_to_float32s_limit():
    """A float16 output's own eps would put the limit near 10: a subspace off by 0.3 would hold."""
    from kpca_suite.suites.roles import EPS32, Checked, precision_eps
    assert precision_eps(np.float16) == precision_eps(np.float32) == EPS32 and precision_eps(np.int64) == EPS64
    est = Checked(object(), "t.p", None)
    est.checked(np.ones((4, 2), dtype=np.float16), 4, "transform")
    assert est.eps_ == EPS32
    rule = AllWithin(1e-9, ("dev",), "relative", per_eps=1e4)
    assert rule(_results([0.3], est.eps_), "ci").status == "fails"


# ---------------------------------------------------------------------- the corpus: one variant per family

#: One variant of each family on claims its role reaches, cheap at ci (the whole corpus:
#: ``python -m tests.variants.run``).
SUBSET = {
    "oja-qr-per-chunk": ["ullah18.rate-oja"],                            # schedule
    "fd-float32": ["ghashami16.fd-bound", "ghashami16.fd-merge", "numerics.sketch-reference"],  # precision
    "nystrom-gram-eigh": ["sterge20.insample-nystrom"],                  # route
    "fd-double-buffer": ["ghashami16.fd-bound"],                         # sketch-rule
    "rf-paired": ["ghashami16.rff-rate", "ullah18.rate-erm"],            # randomness
    "nystrom-rotated": ["sterge20.insample-nystrom", "sterge20.cor42-poly"],  # representation
}


def test_the_subset_covers_every_family():
    assert {BY_NAME[name].family for name in SUBSET} == set(FAMILIES)


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(SUBSET))
def test_a_correct_variant_holds_every_claim_it_is_run_on(name):
    verdicts = check(BY_NAME[name].factory, claims=SUBSET[name], name=name)
    assert {c: v.status for c, v in verdicts.items()} == dict.fromkeys(SUBSET[name], "holds"), \
        {c: v.summary for c, v in verdicts.items()}
    for v in verdicts.values():
        assert all(score > 0 for _, _, score in margins(v)), margins(v)


# ---------------------------------------------------------------------- declared attributes, checked

class _Declares:
    """A correct sketch (tests.external_estimators.PlainFrequentDirections) declaring a
    shrink_index and a delta_ of the test's choosing."""

    def __init__(self, budget, shrink_index, delta):
        from tests.external_estimators import PlainFrequentDirections
        self._sketch, self.shrink_index, self.delta_ = PlainFrequentDirections(budget), shrink_index, delta

    def partial_fit(self, A):
        self._sketch.partial_fit(A)
        return self

    @property
    def sketch_(self):
        return self._sketch.sketch_


@pytest.mark.parametrize("index, delta, named", [(2.7, None, "shrink_index is 2.7"),
                                                 ("two", None, "shrink_index is 'two'"),
                                                 (True, None, "shrink_index is True"),
                                                 (None, -1.0, "delta_ is -1.0"),
                                                 (None, float("nan"), "delta_ is nan"),
                                                 (None, "1e3", None)])
def test_a_declared_attribute_of_the_wrong_type_or_range_is_a_defect_named(index, delta, named):
    def make(n_components, budget, kernel, random_state):
        return _Declares(budget, index, delta)
    v = check(make, claims="ghashami16.fd-bound")["ghashami16.fd-bound"]
    if named is None:  # "1e3" reads as the number 1000: a Delta far above the bound, judged as such
        assert v.status == "fails" and "delta_bound" in v.summary, v.summary
    else:
        assert v.status == "fails" and named in v.summary and "DEFECTIVE ESTIMATOR" in v.summary, v.summary


def test_a_value_that_is_not_finite_is_the_worst_margin_never_room():
    v = Verdict("fails", "", [], {"dev": math.nan, "gap": 1e-9, "n": 3}, {"dev_at_most": 1e-6, "gap_at_most": 1e-6},
                claim="t")
    assert limits(v) == {"dev": (math.inf, 1e-6), "gap": (1e-9, 1e-6)}


def test_a_bands_margin_is_the_least_room_of_the_ci_and_a_coverages_its_level():
    v = Verdict("holds", "", [], {"slope": -0.5, "slope_ci_low": -0.55, "slope_ci_high": -0.48,
                                  "flat_ci_low": math.nan, "flat_ci_high": 0.1, "cover": 0.97},
                {"slope_band": [-0.6, -0.4], "flat_band": [-math.inf, 0.15], "cover_at_least": 0.9}, claim="t")
    assert bands(v) == {"slope": (pytest.approx(0.05), (-0.6, -0.4)), "flat": (-math.inf, (-math.inf, 0.15))}
    assert coverages(v) == {"cover": (0.97, 0.9)}


def test_a_correct_run_that_lost_a_check_is_its_worst_margin_not_room():
    """A variant whose verdict failed before a check (a NaN metric, a crash) has no number for
    it: the margins table names it as the worst correct run of that check."""
    from tests.variants.margins import _band_row, _coverage_row, _threshold_row
    from kpca_suite.suites import registry
    claim = registry.get("sterge20.cor42-poly")
    ours = Verdict("holds", "", [], {"ratio": 1.05, "slope_ci_low": -0.25, "slope_ci_high": -0.22, "cover": 0.95},
                   {"ratio_at_most": 1.15, "slope_band": [-0.28, -0.18], "cover_at_least": 0.9}, claim="t")
    lost = Verdict("fails", "nonfinite", [], {"n": 3}, {}, claim="t")
    correct = {"ours": ours, "broken-early": lost}
    assert "inf (broken-early)" in _threshold_row(claim, "ratio", 1.15, correct, {})
    assert "room -inf (broken-early)" in _band_row(claim, "slope", (-0.28, -0.18), correct, {})
    assert "-inf (broken-early)" in _coverage_row(claim, "cover", 0.9, correct, {})
